//! Maximal extension of a trace (line 1 of RF-SMC, Algorithm 3 of "The Reads-From
//! Equivalence for the TSO and PSO Memory Models"): run the threads, lowest-numbered
//! first, until none can step. Any maximal extension will do; porf's makes every new
//! read read the co-latest write of its location and puts every new write co-last,
//! which is what a machine that first empties every store buffer and then runs the
//! thread does, so (under `sc`, `tso` and `pso`) every step keeps the graph consistent.
//! The model's check still confirms each step.
//!
//! Errors are reported as each event is added, exactly as the graph explorers do:
//! error events, and the races and lifetime errors of each access or free.

use crate::coherence::Coherence;
use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::step::{self, Access, AfterRead, Step};
use porf_graph::{EventId, LabelKind, Program, Tid};
use porf_models::MemoryModel;

/// What drives an extension.
pub struct Extender<'a, 'r, 'c, P: Program> {
    pub prog: &'a P,
    pub model: &'a dyn MemoryModel,
    pub co: Coherence<'a>,
    pub rec: &'r mut Recorder<'c>,
    pub tids: &'r mut TidRegistry,
}

/// Whether an extension ran to a maximal trace or was cut by a limit or an error.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Extended {
    Maximal,
    Stopped,
}

impl<P: Program> Extender<'_, '_, '_, P> {
    /// Extends `st` until no thread can step (or until [`Recorder::stopped`]).
    pub fn run_to_maximal(&mut self, st: &mut State<P>) -> Extended {
        loop {
            if self.rec.stopped() {
                return Extended::Stopped;
            }
            if self.step(st).is_none() {
                return Extended::Maximal;
            }
        }
    }

    /// Runs the next action of the lowest-numbered thread that can step (a read's write
    /// part included); `None` when no thread can step.
    pub fn step(&mut self, st: &mut State<P>) -> Option<Tid> {
        self.rec.tick(&st.g);
        let (t, action) = st.next_action()?;
        self.step_thread(st, t, action);
        Some(t)
    }

    /// Performs `action`, the next action of thread `t`.
    pub fn step_thread(&mut self, st: &mut State<P>, t: Tid, action: porf_graph::Action) {
        match step::perform(st, self.prog, self.model, self.tids, t, action) {
            Step::Done(e) => {
                let kind = &st.g.label(e).kind;
                if matches!(kind, LabelKind::Fence { .. }) {
                    self.confirm(st, e);
                }
                self.report(st, e);
            }
            Step::Access(a @ Access::Read { ord, .. }) => {
                let r = st.g.add(t, a.label(), a.src());
                self.read_latest(st, r, ord);
                self.after_read(st, r);
            }
            Step::Access(a @ Access::Write { .. }) => {
                let w = step::add_write_last(st, self.model, t, &a);
                self.confirm(st, w);
                self.report(st, w);
            }
        }
    }

    /// Gives the new read `r` its source: the co-latest write, or (should the model
    /// reject that) the first source it accepts.
    fn read_latest(&mut self, st: &mut State<P>, r: EventId, ord: porf_graph::MemOrder) {
        let loc = st.g.label(r).loc().unwrap();
        let latest = st.g.co_max(loc);
        step::set_source(self.model, &mut st.g, r, latest, ord);
        if self.co.check(&mut st.g, r) {
            return;
        }
        for w in self.co.read_sources(&st.g, loc) {
            if w == latest || w == Some(r) {
                continue;
            }
            step::set_source(self.model, &mut st.g, r, w, ord);
            if self.co.check(&mut st.g, r) {
                return;
            }
        }
        panic!(
            "internal error: read {r} of a consistent trace has no consistent source:\n{}",
            st.g
        );
    }

    /// Goes on after read `r` (its source set, no thread state pushed for it): reports
    /// its errors, then adds what the read implies (an RMW's write part, a block, an
    /// error event).
    pub fn after_read(&mut self, st: &mut State<P>, r: EventId) {
        self.report(st, r);
        match step::after_read(st, self.model, r) {
            AfterRead::Continue | AfterRead::Blocked => {}
            AfterRead::Ended => {
                let e = st.g.last_of(r.tid).unwrap();
                self.report(st, e);
            }
            AfterRead::WritePart(val) => {
                let w = step::add_write_part(st, self.model, r, val);
                self.confirm(st, w);
                self.report(st, w);
            }
        }
    }

    /// Checks that the step adding `e` kept the graph consistent (installing the
    /// model's witness if the cheap check needed help). An extension step the model
    /// rejects contradicts the argument in the module documentation.
    fn confirm(&mut self, st: &mut State<P>, e: EventId) {
        if !self.co.check(&mut st.g, e) {
            panic!(
                "internal error: extending a consistent trace by {e} made it inconsistent:\n{}",
                st.g
            );
        }
    }

    /// Reports the errors event `e` raises or takes part in.
    pub fn report(&mut self, st: &State<P>, e: EventId) {
        let lab = st.g.label(e);
        match lab.kind {
            LabelKind::Error { .. } => self.rec.error_event(&st.g, e),
            LabelKind::Read { .. }
            | LabelKind::Write { .. }
            | LabelKind::Free { .. }
            | LabelKind::Note { .. } => {
                self.rec.access_errors(self.prog, &st.g, e);
            }
            _ => {}
        }
    }
}
