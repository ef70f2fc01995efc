//! Non-termination of a thread's local computation: a run of local instructions (no
//! shared-memory access, no action of any kind) that never reaches its next action.
//!
//! Invariant: the error is certain or says it is not. A thread is a deterministic
//! machine, and between two actions nothing outside it changes its state; so if its
//! local state ([`Machine::same_local_state`]) is equal at two points of one run of
//! local steps, the steps between repeat forever and no action is ever reached.
//! Repetitions are found with Brent's cycle detection ("An improved Monte Carlo
//! factorization algorithm", BIT 1980): a state saved at steps 2^k, compared with each
//! later state at the same program point; a repetition found is confirmed over a
//! second period, during which the spin-assume bookkeeping ([`super::spin`], which
//! only ends a run by an action) has only seen states of the cycle. A run that reaches
//! [`LOCAL_STEP_LIMIT`] without a repetition is reported as such, as an unsupported
//! error (no verdict), not as non-termination: it did not end
//! within the budget, which is not a proof that it never ends.
//!
//! Cost: nothing for the first [`DETECT_FROM`] steps of a run; then one comparison of
//! the program counter per step and a comparison of the state once per loop iteration.

use super::{Machine, LOCAL_STEP_LIMIT};
use crate::ir::Module;
use porf_graph::SrcLoc;
use std::sync::Arc;

/// Local steps a run takes before cycle detection starts (normal local computations
/// end well before).
pub(super) const DETECT_FROM: u64 = 1 << 16;

/// Brent's cycle detection over the states of one run of local steps.
pub(super) struct Cycle {
    saved: Box<Machine>,
    /// Steps since `saved`, and the power of two at which a new state is saved.
    lam: u64,
    power: u64,
    /// A period found, being confirmed: its length and the steps left of the second
    /// period, with the lowest source position of the running function seen in it.
    confirming: Option<(u64, u64)>,
    lowest: SrcLoc,
    /// Whether the loop statements' iteration counters are left out of comparisons:
    /// without `--unroll` and without `__VERIFIER_loop_bound` hints they only count
    /// (towards `u32::MAX`, porf's stand-in for "unbounded"), so they are no part of
    /// what the program does.
    skip_counters: bool,
}

/// How a run of local steps that reached no action is reported.
pub(super) enum Verdict {
    /// The state repeats every `period` steps: the loop at `at` never ends.
    Forever { period: u64, at: SrcLoc },
    /// [`LOCAL_STEP_LIMIT`] steps without a repetition found, now at `at`.
    Budget { at: SrcLoc },
}

impl Cycle {
    pub(super) fn new(m: &Machine, code: &Module) -> Cycle {
        Cycle {
            skip_counters: m.unroll == u32::MAX && !code.funcs.iter().any(|f| f.has_loop_hints()),
            saved: Box::new(m.clone()),
            lam: 0,
            power: 1,
            confirming: None,
            lowest: SrcLoc::UNKNOWN,
        }
    }

    /// After one more step, now in state `m` at source position `src`: the verdict,
    /// once a repetition is confirmed.
    pub(super) fn step(&mut self, code: &Module, m: &Machine, src: SrcLoc) -> Option<Verdict> {
        self.lam += 1;
        if let Some((period, left)) = &mut self.confirming {
            if m.frames.len() == self.saved.frames.len()
                && m.top().func == self.saved.top().func
                && (self.lowest == SrcLoc::UNKNOWN
                    || (src.file, src.line, src.col)
                        < (self.lowest.file, self.lowest.line, self.lowest.col))
                && src != SrcLoc::UNKNOWN
            {
                self.lowest = src;
            }
            *left -= 1;
            if *left == 0 {
                let (period, at) = (*period, self.lowest);
                if m.same_local_state(code, &self.saved, self.skip_counters) {
                    return Some(Verdict::Forever { period, at });
                }
                // Not periodic after all (cannot happen for a deterministic machine,
                // but the error must be certain): start over.
                self.confirming = None;
                self.restart(m);
            }
            return None;
        }
        let (a, b) = (m.top(), self.saved.top());
        if (a.func, a.block, a.inst) == (b.func, b.block, b.inst)
            && m.same_local_state(code, &self.saved, self.skip_counters)
        {
            self.confirming = Some((self.lam, self.lam));
            *self.saved = m.clone();
            return None;
        }
        if self.lam == self.power {
            self.restart(m);
            self.power *= 2;
        }
        None
    }

    fn restart(&mut self, m: &Machine) {
        *self.saved = m.clone();
        self.lam = 0;
    }
}

impl Machine {
    /// Whether `self` and `o` agree on everything local steps read or write: frames,
    /// registers, private memory and its initialisation, the thread's allocation
    /// counters, joined threads, the private store, variadic arguments, the formatted
    /// text, the printed text (the same pieces), the atomic section and final-write
    /// depth. (The rest is constant between two actions.) `skip_counters`: the loop
    /// statements' iteration counters are left out ([`Cycle::skip_counters`]).
    pub(super) fn same_local_state(&self, code: &Module, o: &Machine, skip_counters: bool) -> bool {
        self.frames == o.frames
            && self.same_vals(code, o, skip_counters)
            && self.stack == o.stack
            && self.undef == o.undef
            && self.heap_blocks == o.heap_blocks
            && self.frame_blocks == o.frame_blocks
            && self.own() == o.own()
            && self.joined == o.joined
            && self.private == o.private
            && self.varargs == o.varargs
            && self.formatted == o.formatted
            && match (&self.printed, &o.printed) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
            && self.section == o.section
            && self.final_depth == o.final_depth
    }

    /// Whether the register files agree (frames equal), but for the loop counters when
    /// `skip_counters`.
    fn same_vals(&self, code: &Module, o: &Machine, skip_counters: bool) -> bool {
        if !skip_counters {
            return self.vals == o.vals;
        }
        if self.vals.len() != o.vals.len() {
            return false;
        }
        let mut at = 0;
        for f in &self.frames {
            let func = &code.funcs[f.func as usize];
            let counters =
                (f.base + func.nregs) as usize..(f.base + func.nregs + func.nloops) as usize;
            if self.vals[at..counters.start] != o.vals[at..counters.start] {
                return false;
            }
            at = counters.end;
        }
        self.vals[at..] == o.vals[at..]
    }

    /// The message of a run of local steps that reached no action.
    pub(super) fn nonterm_message(&self, code: &Module, v: &Verdict) -> (String, SrcLoc) {
        let func = &code.funcs[self.top().func as usize].name;
        match *v {
            Verdict::Forever { period, at } => (
                format!(
                    "the loop at {} in {func}() runs forever without touching shared \
                     memory (its state repeats every {period} steps)",
                    code.show_src(at)
                ),
                at,
            ),
            Verdict::Budget { at } => (
                format!(
                    "the loop at {} in {func}() did not end within {LOCAL_STEP_LIMIT} \
                     steps without touching shared memory (porf's budget; it may or may \
                     not end later)",
                    code.show_src(at)
                ),
                at,
            ),
        }
    }
}
