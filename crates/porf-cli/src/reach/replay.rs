//! Replaying a witness of the decision procedure under the declarative model: the
//! program is run by porf's graph explorer with each thread confined to the witness's
//! memory accesses (the values it reads, in order, and no more accesses than the
//! witness makes). The witness is confirmed only if the explorer, under the model's
//! declarative consistency, reaches the same error.

use porf_graph::{Action, BlockReason, Loc, Program, ThreadMachine, Tid, Val};
use std::sync::Arc;

/// One expected memory access of a thread: `Some(v)` if it reads `v`.
pub type Expect = Option<Val>;

/// A program whose spawned threads follow `guide[entry]`.
#[derive(Clone)]
pub struct Guided<P: Program> {
    pub inner: P,
    pub guide: Arc<Vec<Vec<Expect>>>,
}

#[derive(Clone)]
pub struct GuidedThread<T: ThreadMachine> {
    inner: T,
    guide: Option<(Arc<Vec<Vec<Expect>>>, usize)>,
    pos: usize,
    /// The last access read something the witness does not.
    off: bool,
    last_was_access: bool,
}

impl<T: ThreadMachine> ThreadMachine for GuidedThread<T> {
    fn peek(&mut self) -> Action {
        let a = self.inner.peek();
        let Some((guide, k)) = &self.guide else {
            return a;
        };
        let access = matches!(
            a,
            Action::Load { .. } | Action::Store { .. } | Action::Rmw { .. }
        );
        self.last_was_access = access;
        if self.off || (access && self.pos >= guide[*k].len()) {
            return Action::Block {
                reason: BlockReason::Confined,
                src: a.src(),
            };
        }
        a
    }

    fn resume(&mut self, ret: Val) {
        if let Some((guide, k)) = &self.guide {
            if self.last_was_access {
                if let Some(v) = guide[*k][self.pos] {
                    if v != ret {
                        self.off = true;
                    }
                }
                self.pos += 1;
            }
        }
        if !self.off {
            self.inner.resume(ret);
        }
    }

    /// A guide records values only: an uninitialised copy read leaves it.
    fn resume_uninit(&mut self) {
        if self.guide.is_some() && self.last_was_access {
            self.off = true;
        }
        if !self.off {
            self.inner.resume_uninit();
        }
    }

    fn registers(&self) -> Vec<Val> {
        self.inner.registers()
    }

    fn printed(&self) -> Vec<String> {
        self.inner.printed()
    }

    fn operation(&self) -> Option<porf_graph::LibCall> {
        self.inner.operation()
    }
}

impl<P: Program> Program for Guided<P> {
    type Thread = GuidedThread<P::Thread>;
    fn main_thread(&self) -> Self::Thread {
        GuidedThread {
            inner: self.inner.main_thread(),
            guide: None,
            pos: 0,
            off: false,
            last_was_access: false,
        }
    }
    fn spawn(&self, tid: Tid, entry: u32, arg: Val) -> Self::Thread {
        GuidedThread {
            inner: self.inner.spawn(tid, entry, arg),
            guide: Some((self.guide.clone(), entry as usize)),
            pos: 0,
            off: false,
            last_was_access: false,
        }
    }
    fn init_value(&self, loc: Loc) -> Val {
        self.inner.init_value(loc)
    }
    fn block_of(&self, loc: Loc) -> Option<Loc> {
        self.inner.block_of(loc)
    }
    fn loc_name(&self, loc: Loc) -> String {
        self.inner.loc_name(loc)
    }
    fn source_file(&self, file: u32) -> &str {
        self.inner.source_file(file)
    }
}
