//! What a maximal execution is: the one definition every explorer counts by.
//!
//! A graph is *maximal* when no thread can take a step. Then:
//! * it is **erroneous** if some thread raised an error;
//! * otherwise **complete** if every thread finished;
//! * otherwise **blocked** if some thread is blocked by a failed assume, or by a lock
//!   acquire that read a taken lock which a co-later write releases (the acquire read
//!   "too early": the execution where it waits is explored separately). In rf mode,
//!   where co is not part of the execution, "co-later" is "could be co-later": some
//!   other write of the lock does not happen before the write the acquire read;
//! * otherwise a **deadlock**: every unfinished thread waits for a lock that is never
//!   released or for a thread that never finishes. A thread that re-locks a mutex it
//!   already holds waits for itself: porf's mutexes are not recursive, so such a thread
//!   can never go on and the graph is a deadlock too (GenMC 0.11 counts it as blocked).

use crate::coherence::Equiv;
use crate::mutex;
use crate::state::State;
use porf_graph::{
    Action, EventId, Graph, LabelKind, Loc, Program, ReadKind, SrcLoc, ThreadMachine, Tid,
};

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    Complete,
    Blocked,
    Erroneous,
    Deadlock(Deadlock),
}

/// A deadlocked graph.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Deadlock {
    /// The waiting threads' last events (or pending joins) with their source locations.
    pub waiting: Vec<(EventId, SrcLoc)>,
    /// The threads among them that wait for a mutex they hold themselves.
    pub relocks: Vec<Tid>,
}

impl Deadlock {
    /// A one-line explanation.
    pub fn message(&self) -> String {
        if self.relocks.is_empty() {
            return "Every unfinished thread waits for a lock that is never released or for a thread that never finishes".into();
        }
        let ts: Vec<String> = self.relocks.iter().map(|t| format!("T{t}")).collect();
        format!(
            "{} re-lock{} a mutex {} already hold{} (mutexes are not recursive), and no other thread can go on",
            ts.join(", "),
            if ts.len() == 1 { "s" } else { "" },
            if ts.len() == 1 { "it" } else { "they" },
            if ts.len() == 1 { "s" } else { "" },
        )
    }
}

/// Why a thread that has not finished is stuck.
enum Stuck {
    Assume,
    StaleLock,
    /// Waits for a lock nobody releases; `true` if the thread holds it itself.
    HeldLock(EventId, SrcLoc, bool),
    Join(EventId, SrcLoc),
    Error,
}

/// Whether some write of `loc` other than `w` may follow `w` in coherence: in co mode
/// the graph's co says; in rf mode, any such write that does not happen before `w`.
fn released_later(g: &Graph, loc: Loc, w: Option<EventId>, equiv: Equiv) -> bool {
    match equiv {
        Equiv::Co => g.co_next(loc, w).is_some(),
        Equiv::Rf => g.co(loc).iter().any(|&u| {
            Some(u) != w && w.is_none_or(|w| !g.label(w).hb.contains(u))
        }),
    }
}

fn stuck<P: Program>(st: &mut State<P>, t: Tid, equiv: Equiv) -> Stuck {
    let g = &st.g;
    let last = g.last_of(t).unwrap();
    match g.label(last).kind {
        LabelKind::Error { .. } => Stuck::Error,
        LabelKind::Block { .. } => {
            if let Some(r) = last.prev() {
                let l = g.label(r);
                if let LabelKind::Read {
                    kind: ReadKind::Lock,
                    loc,
                    rf,
                    ..
                } = l.kind
                {
                    if g.read_val(r) != 0 {
                        return if released_later(g, loc, rf, equiv) {
                            Stuck::StaleLock
                        } else {
                            Stuck::HeldLock(r, l.src, mutex::holds(g, t, loc, r.idx))
                        };
                    }
                }
            }
            Stuck::Assume
        }
        _ => {
            let a = st.ts[t as usize].last_mut().unwrap().peek();
            debug_assert!(matches!(a, Action::Join { .. }));
            Stuck::Join(last, a.src())
        }
    }
}

/// Classifies a maximal state (no thread can take a step).
pub fn classify<P: Program>(st: &mut State<P>, equiv: Equiv) -> Outcome {
    let mut blocked = false;
    let mut waiting = Vec::new();
    let mut relocks = Vec::new();
    let mut error = false;
    for t in 0..st.g.num_threads() {
        if !st.g.thread_exists(t) || st.finished(t) {
            continue;
        }
        match stuck(st, t, equiv) {
            Stuck::Error => error = true,
            Stuck::Assume | Stuck::StaleLock => blocked = true,
            Stuck::HeldLock(e, s, own) => {
                if own {
                    relocks.push(t);
                }
                waiting.push((e, s))
            }
            Stuck::Join(e, s) => waiting.push((e, s)),
        }
    }
    if error {
        Outcome::Erroneous
    } else if blocked {
        Outcome::Blocked
    } else if waiting.is_empty() {
        Outcome::Complete
    } else {
        Outcome::Deadlock(Deadlock { waiting, relocks })
    }
}
