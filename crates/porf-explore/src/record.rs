//! Bookkeeping shared by the explorers: counting maximal executions, collecting errors,
//! enforcing limits.

use crate::outcome::{classify, Outcome};
use crate::state::State;
use crate::stats::{ErrorClass, ErrorReport, FinalState, Stats};
use crate::step::error_class;
use crate::Config;
use porf_graph::{EventId, Graph, LabelKind, Program, SrcLoc, ThreadMachine};
use porf_models::lifetime::LifetimeError;
use std::time::Instant;

pub struct Recorder<'c> {
    pub stats: Stats,
    cfg: &'c Config,
    start: Instant,
    /// Set when the exploration must end (an error without keep-going, or a limit).
    pub stop: bool,
    ticks: u32,
}

impl<'c> Recorder<'c> {
    pub fn new(cfg: &'c Config) -> Recorder<'c> {
        Recorder {
            stats: Stats::default(),
            cfg,
            start: Instant::now(),
            stop: false,
            ticks: 0,
        }
    }

    /// Notes the size of a graph and checks the time limit now and then.
    pub fn tick(&mut self, g: &Graph) {
        self.stats.peak_graph_size = self.stats.peak_graph_size.max(g.len());
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(256) {
            self.check_time();
        }
    }

    fn check_time(&mut self) {
        if let Some(t) = self.cfg.timeout {
            if self.start.elapsed() >= t {
                self.stats.partial = true;
                self.stop = true;
            }
        }
    }

    /// Records an error; stops the exploration unless keep-going.
    pub fn error(
        &mut self,
        class: ErrorClass,
        message: String,
        events: Vec<(EventId, SrcLoc)>,
        g: &Graph,
    ) {
        self.stats.add_error(ErrorReport {
            class,
            message,
            events,
            witness: g.clone(),
        });
        if !self.cfg.keep_going {
            self.stop = true;
        }
    }

    /// Records the error raised by error event `e`.
    pub fn error_event(&mut self, g: &Graph, e: EventId) {
        let lab = g.label(e);
        if let LabelKind::Error { kind, msg } = &lab.kind {
            self.error(error_class(*kind), msg.clone(), vec![(e, lab.src)], g);
        }
    }

    /// Records a data race between `a` and `b`.
    pub fn race(&mut self, g: &Graph, a: EventId, b: EventId) {
        let (la, lb) = (g.label(a), g.label(b));
        self.error(
            ErrorClass::Race,
            format!("Non-atomic race between events {a} and {b}"),
            vec![(a, la.src), (b, lb.src)],
            g,
        );
    }

    /// Records a lifetime error of dynamically allocated memory.
    pub fn lifetime(&mut self, g: &Graph, err: &LifetimeError) {
        let events = err.events.iter().map(|&e| (e, g.label(e).src)).collect();
        self.error(
            ErrorClass::Memory,
            err.violation.message().into(),
            events,
            g,
        );
    }

    /// Counts a maximal consistent execution.
    pub fn maximal<P: Program>(&mut self, st: &mut State<P>) {
        self.tick(&st.g);
        match classify(st) {
            Outcome::Complete => {
                self.stats.complete += 1;
                if self.cfg.collect_final_states {
                    self.stats.final_states.insert(final_state(st));
                }
                if self
                    .cfg
                    .max_executions
                    .is_some_and(|m| self.stats.complete >= m)
                {
                    self.stats.partial = true;
                    self.stop = true;
                }
            }
            Outcome::Blocked => self.stats.blocked += 1,
            Outcome::Erroneous => self.stats.erroneous += 1,
            Outcome::Deadlock(d) => {
                self.error(ErrorClass::Deadlock, d.message(), d.waiting, &st.g);
            }
        }
        self.check_time();
    }

    pub fn finish(mut self) -> Stats {
        self.stats.elapsed = self.start.elapsed();
        self.stats
    }
}

/// Registers of every thread and final values of every location.
pub fn final_state<P: Program>(st: &State<P>) -> FinalState {
    let mut registers = Vec::new();
    for t in 0..st.g.num_threads() {
        if let Some(s) = st.ts[t as usize].last() {
            registers.push((t, s.registers()));
        }
    }
    let mut memory: Vec<(u64, i64)> =
        st.g.locations()
            .map(|(l, _)| (l.0, st.g.final_val(*l)))
            .collect();
    memory.sort();
    FinalState { registers, memory }
}
