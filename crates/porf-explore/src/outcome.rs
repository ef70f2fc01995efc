//! What a maximal execution is: the one definition every explorer counts by.
//!
//! A graph is *maximal* when no thread can take a step. Then:
//! * it is **erroneous** if some thread raised an error;
//! * otherwise **complete** if every thread finished;
//! * otherwise **blocked** if some thread is blocked by a failed assume, or by a lock
//!   acquire that read a taken lock which a co-later write releases (the acquire read
//!   "too early": the execution where it waits is explored separately);
//! * otherwise a **deadlock**: every unfinished thread waits for a lock that is never
//!   released or for a thread that never finishes.

use crate::state::State;
use porf_graph::{Action, EventId, LabelKind, Program, ReadKind, SrcLoc, ThreadMachine, Tid};

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    Complete,
    Blocked,
    Erroneous,
    /// The waiting threads' last events (or pending joins) with their source locations.
    Deadlock(Vec<(EventId, SrcLoc)>),
}

/// Why a thread that has not finished is stuck.
enum Stuck {
    Assume,
    StaleLock,
    HeldLock(EventId, SrcLoc),
    Join(EventId, SrcLoc),
    Error,
}

fn stuck<P: Program>(st: &mut State<P>, t: Tid) -> Stuck {
    let g = &st.g;
    let last = g.last_of(t).unwrap();
    match g.label(last).kind {
        LabelKind::Error { .. } => Stuck::Error,
        LabelKind::Block => {
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
                        return if g.co_next(loc, rf).is_some() {
                            Stuck::StaleLock
                        } else {
                            Stuck::HeldLock(r, l.src)
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
pub fn classify<P: Program>(st: &mut State<P>) -> Outcome {
    let mut blocked = false;
    let mut waiting = Vec::new();
    let mut error = false;
    for t in 0..st.g.num_threads() {
        if !st.g.thread_exists(t) || st.finished(t) {
            continue;
        }
        match stuck(st, t) {
            Stuck::Error => error = true,
            Stuck::Assume | Stuck::StaleLock => blocked = true,
            Stuck::HeldLock(e, s) | Stuck::Join(e, s) => waiting.push((e, s)),
        }
    }
    if error {
        Outcome::Erroneous
    } else if blocked {
        Outcome::Blocked
    } else if waiting.is_empty() {
        Outcome::Complete
    } else {
        Outcome::Deadlock(waiting)
    }
}
