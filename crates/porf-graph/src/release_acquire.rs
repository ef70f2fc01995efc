//! Running a program "as Lahav and Boker do" ("What's Decidable About Causally
//! Consistent Shared Memory?", TOPLAS 2022, §3.1: RA is C11's release/acquire
//! fragment): [`AllReleaseAcquire`] wraps a program so that every memory access is
//! release/acquire — loads acquire, stores release, RMWs acq_rel (a compare-exchange's
//! failure order acquire), non-atomic accesses included. Fences, mutex operations and
//! everything else pass through unchanged.
//!
//! Invariant: the wrapped program asks for the same actions as the original, given
//! the same results, except for the memory orders of loads, stores and RMWs. It knows
//! no front end and no explorer: it only rewrites [`Action`]s.

use crate::action::{Action, Loc, MemOrder, Program, RmwOp, SrcLoc, ThreadMachine, Tid, Val};

/// `P` with every load acquire, every store release and every RMW acq_rel.
#[derive(Clone, Debug)]
pub struct AllReleaseAcquire<P>(pub P);

/// A thread of [`AllReleaseAcquire`].
#[derive(Clone, Debug)]
pub struct RaThread<T>(T);

/// `a` with its memory orders upgraded (loads, stores and RMWs only).
pub fn upgrade(a: Action) -> Action {
    match a {
        Action::Load {
            loc,
            bytes,
            copy,
            src,
            ..
        } => Action::Load {
            loc,
            bytes,
            ord: MemOrder::Acquire,
            copy,
            src,
        },
        Action::Store {
            loc,
            bytes,
            val,
            src,
            ..
        } => Action::Store {
            loc,
            bytes,
            val,
            ord: MemOrder::Release,
            src,
        },
        Action::Rmw {
            loc,
            bytes,
            op,
            src,
            ..
        } => {
            let op = match op {
                RmwOp::Cas { expected, new, .. } => RmwOp::Cas {
                    expected,
                    new,
                    fail_ord: MemOrder::Acquire,
                },
                op => op,
            };
            Action::Rmw {
                loc,
                bytes,
                op,
                ord: MemOrder::AcqRel,
                src,
            }
        }
        other => other,
    }
}

impl<T: ThreadMachine> ThreadMachine for RaThread<T> {
    fn peek(&mut self) -> Action {
        upgrade(self.0.peek())
    }
    fn peeked(&self) -> Option<Action> {
        self.0.peeked().map(upgrade)
    }
    fn resume(&mut self, ret: Val) {
        self.0.resume(ret)
    }
    fn resume_uninit(&mut self) {
        self.0.resume_uninit()
    }
    fn registers(&self) -> Vec<Val> {
        self.0.registers()
    }
    fn printed(&self) -> Vec<String> {
        self.0.printed()
    }
    fn in_atomic_section(&self) -> bool {
        self.0.in_atomic_section()
    }
    fn operation(&self) -> Option<crate::LibCall> {
        self.0.operation()
    }
    fn awaited(&self) -> Option<Val> {
        self.0.awaited()
    }
    fn hw(&self) -> Option<crate::hw::Hw> {
        self.0.hw()
    }
}

impl<P: Program> Program for AllReleaseAcquire<P> {
    type Thread = RaThread<P::Thread>;
    fn main_thread(&self) -> Self::Thread {
        RaThread(self.0.main_thread())
    }
    fn atomic_sections(&self) -> bool {
        self.0.atomic_sections()
    }
    fn awaits(&self) -> bool {
        self.0.awaits()
    }
    fn spawn(&self, tid: Tid, entry: u32, arg: Val) -> Self::Thread {
        RaThread(self.0.spawn(tid, entry, arg))
    }
    fn init_value(&self, loc: Loc) -> Val {
        self.0.init_value(loc)
    }
    fn block_of(&self, loc: Loc) -> Option<Loc> {
        self.0.block_of(loc)
    }
    fn loc_name(&self, loc: Loc) -> String {
        self.0.loc_name(loc)
    }
    fn show_value(&self, loc: Loc, bytes: u8, val: Val) -> Option<String> {
        self.0.show_value(loc, bytes, val)
    }
    fn loc_name_in(&self, loc: Loc, site: &dyn Fn(Loc) -> Option<SrcLoc>) -> String {
        self.0.loc_name_in(loc, site)
    }
    fn block_name_in(&self, base: Loc, site: &dyn Fn(Loc) -> Option<SrcLoc>) -> String {
        self.0.block_name_in(base, site)
    }
    fn block_end_in(&self, base: Loc, site: &dyn Fn(Loc) -> Option<SrcLoc>) -> Option<String> {
        self.0.block_end_in(base, site)
    }
    fn show_value_in(
        &self,
        loc: Loc,
        bytes: u8,
        val: Val,
        site: &dyn Fn(Loc) -> Option<SrcLoc>,
    ) -> Option<String> {
        self.0.show_value_in(loc, bytes, val, site)
    }
    fn uninit_read_message(
        &self,
        loc: Loc,
        site: &dyn Fn(Loc) -> Option<SrcLoc>,
    ) -> Option<String> {
        self.0.uninit_read_message(loc, site)
    }
    fn source_file(&self, file: u32) -> &str {
        self.0.source_file(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Wrap;

    #[test]
    fn accesses_become_release_acquire() {
        let src = SrcLoc::UNKNOWN;
        let (loc, bytes) = (Loc(1), 8);
        let load = upgrade(Action::Load {
            loc,
            bytes,
            ord: MemOrder::NonAtomic,
            copy: false,
            src,
        });
        assert!(matches!(
            load,
            Action::Load {
                ord: MemOrder::Acquire,
                ..
            }
        ));
        let store = upgrade(Action::Store {
            loc,
            bytes,
            val: 1,
            ord: MemOrder::Relaxed,
            src,
        });
        assert!(matches!(
            store,
            Action::Store {
                ord: MemOrder::Release,
                ..
            }
        ));
        let cas = upgrade(Action::Rmw {
            loc,
            bytes,
            op: RmwOp::Cas {
                expected: 0,
                new: 1,
                fail_ord: MemOrder::Relaxed,
            },
            ord: MemOrder::SeqCst,
            src,
        });
        let Action::Rmw { op, ord, .. } = cas else {
            panic!("an RMW stays an RMW");
        };
        assert_eq!(ord, MemOrder::AcqRel);
        assert!(matches!(
            op,
            RmwOp::Cas {
                fail_ord: MemOrder::Acquire,
                expected: 0,
                new: 1
            }
        ));
        let faa = upgrade(Action::Rmw {
            loc,
            bytes,
            op: RmwOp::Add(1, Wrap::NONE),
            ord: MemOrder::Relaxed,
            src,
        });
        assert!(matches!(
            faa,
            Action::Rmw {
                ord: MemOrder::AcqRel,
                op: RmwOp::Add(1, _),
                ..
            }
        ));
        let fence = Action::Fence {
            ord: MemOrder::SeqCst,
            src,
        };
        assert_eq!(upgrade(fence.clone()), fence);
    }
}
