//! The thread-local LTS of a toy program (Lahav and Boker, "What's Decidable About
//! Causally Consistent Shared Memory?", §2.1 and Fig. 2), with no memory model: a
//! state is a program counter and a register file; a memory instruction steps with a
//! label for every value it could read ("at this level, the loaded values are not
//! restricted whatsoever").
//!
//! Conventions beyond the paper's Fig. 2 (the paper has no `assume`/`assert`):
//! * `assume e` with `e` false has no successor (the thread is stuck for good);
//!   `assume e` with `e` true is a silent step.
//! * `assert e` with `e` false has no successor either, and the state is *bad*:
//!   [`Program::assertion_failure`] reports it. With `e` true it is a silent step.
//! * A state whose `pc` is past the end of the code is terminated: no successors.
//! * Reads of uninitialised locations are a matter of the memory system (no write to
//!   read from), not of this LTS.

use crate::program::{Instr, Pos, Program, Value};

/// A thread's local state: program counter and registers (indexed as
/// [`crate::Thread::regs`]), every register in the value domain.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ThreadState {
    pub pc: u32,
    pub regs: Box<[Value]>,
}

/// The label of a local step (the paper's Lab ∪ {ε}). Locations are indices into
/// [`Program::locations`]; values lie in the domain.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum LocalLabel {
    /// No memory access (ε).
    Silent,
    /// `R(x, v)`: a read, or a failed CAS.
    Read { loc: usize, val: Value },
    /// `W(x, v)`.
    Write { loc: usize, val: Value },
    /// `RMW(x, v_R, v_W)`: FADD, XCHG or a successful CAS.
    Rmw {
        loc: usize,
        read: Value,
        write: Value,
    },
}

impl Program {
    /// The initial state of thread `tid`: `pc = 0`, every register 0.
    pub fn initial_state(&self, tid: usize) -> ThreadState {
        ThreadState {
            pc: 0,
            regs: vec![0; self.threads[tid].regs.len()].into_boxed_slice(),
        }
    }

    /// Whether `s` is terminated: its `pc` is past the end of thread `tid`'s code.
    pub fn is_terminated(&self, tid: usize, s: &ThreadState) -> bool {
        s.pc as usize >= self.threads[tid].code.len()
    }

    /// Every step of thread `tid` from `s`: (label, next state). A read enumerates
    /// every value of the domain; so do FADD, XCHG and CAS (a CAS whose read value
    /// differs from the expected one is a `Read`). Empty for a terminated state, a
    /// false `assume` and a false `assert`.
    pub fn successors(&self, tid: usize, s: &ThreadState) -> Vec<(LocalLabel, ThreadState)> {
        let code = &self.threads[tid].code;
        let Some(stmt) = code.get(s.pc as usize) else {
            return Vec::new();
        };
        let n = self.values;
        let eval = |e: &crate::program::Expr| e.eval(&s.regs, n);
        let next = |pc: usize, set: Option<(usize, Value)>| {
            let mut regs = s.regs.clone();
            if let Some((r, v)) = set {
                regs[r] = v;
            }
            ThreadState {
                pc: u32::try_from(pc).unwrap_or(u32::MAX),
                regs,
            }
        };
        let pc1 = s.pc as usize + 1;
        let silent = |st: ThreadState| vec![(LocalLabel::Silent, st)];
        match &stmt.instr {
            Instr::Assign { dst, val } => silent(next(pc1, Some((*dst, eval(val))))),
            Instr::If { cond, target } => {
                silent(next(if eval(cond) != 0 { *target } else { pc1 }, None))
            }
            Instr::Goto { target } => silent(next(*target, None)),
            Instr::Assume { cond } | Instr::Assert { cond } => {
                if eval(cond) != 0 {
                    silent(next(pc1, None))
                } else {
                    Vec::new()
                }
            }
            Instr::Write { loc, val } => vec![(
                LocalLabel::Write {
                    loc: *loc,
                    val: eval(val),
                },
                next(pc1, None),
            )],
            Instr::Read { dst, loc } => (0..n)
                .map(|v| {
                    (
                        LocalLabel::Read { loc: *loc, val: v },
                        next(pc1, Some((*dst, v))),
                    )
                })
                .collect(),
            Instr::Fadd { dst, loc, val } => {
                let add = eval(val);
                (0..n)
                    .map(|v| {
                        (
                            LocalLabel::Rmw {
                                loc: *loc,
                                read: v,
                                write: (v + add).rem_euclid(n),
                            },
                            next(pc1, Some((*dst, v))),
                        )
                    })
                    .collect()
            }
            Instr::Xchg { dst, loc, val } => {
                let w = eval(val);
                (0..n)
                    .map(|v| {
                        (
                            LocalLabel::Rmw {
                                loc: *loc,
                                read: v,
                                write: w,
                            },
                            next(pc1, Some((*dst, v))),
                        )
                    })
                    .collect()
            }
            Instr::Cas {
                dst,
                loc,
                expected,
                new,
            } => {
                let (e, w) = (eval(expected), eval(new));
                (0..n)
                    .map(|v| {
                        let label = if v == e {
                            LocalLabel::Rmw {
                                loc: *loc,
                                read: v,
                                write: w,
                            }
                        } else {
                            LocalLabel::Read { loc: *loc, val: v }
                        };
                        (label, next(pc1, Some((*dst, v))))
                    })
                    .collect()
            }
        }
    }

    /// If the next instruction of thread `tid` in `s` is an `assert` whose condition is
    /// false: the message (`` Assertion `e' failed ``) and the assert's position. Such a
    /// state is *bad* (a reachability target).
    pub fn assertion_failure(&self, tid: usize, s: &ThreadState) -> Option<(String, Pos)> {
        let stmt = self.threads[tid].code.get(s.pc as usize)?;
        match &stmt.instr {
            Instr::Assert { cond } if cond.eval(&s.regs, self.values) == 0 => Some((
                format!("Assertion `{}' failed", self.expr_text(tid, cond)),
                stmt.pos,
            )),
            _ => None,
        }
    }

    /// Whether the final assertion fails in the global state `states` (one per thread,
    /// in thread order). `false` if there is no final assertion or some thread has not
    /// terminated (the assertion is checked only once every thread has).
    pub fn final_assertion_fails(&self, states: &[ThreadState]) -> bool {
        let Some(fa) = &self.final_assert else {
            return false;
        };
        if states.len() != self.threads.len()
            || states
                .iter()
                .enumerate()
                .any(|(t, s)| !self.is_terminated(t, s))
        {
            return false;
        }
        let vars: Vec<Value> = self
            .final_vars
            .iter()
            .map(|&(t, r)| states[t].regs[r])
            .collect();
        fa.cond.eval(&vars, self.values) == 0
    }
}
