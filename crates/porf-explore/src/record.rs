//! Bookkeeping shared by the explorers: counting maximal executions, collecting errors,
//! enforcing limits.

use crate::coherence::{Coherence, Equiv};
use crate::deadline::Deadline;
use crate::key::{compact_execution_key, execution_key, rf_class_key};
use crate::memory::{MemoryWatch, StackGuard};
use crate::outcome::{classify, Outcome};
use crate::progress::{Branch, Progress, Tree};
use crate::state::State;
use crate::stats::{
    ErrorClass, ErrorKey, ErrorReport, FinalState, Growth, SpinForever, Stats, StopReason,
    ThreadEnd, ThreadOutcome,
};
use crate::step::error_class;
use crate::Config;
use porf_graph::{BlockReason, EventId, Graph, LabelKind, Loc, Program, SrcLoc, ThreadMachine};
use porf_models::lifetime::{self, LifetimeError, Violation};
use porf_models::{race, MemoryModel};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

/// The message of lifetime error `err` of `g`: the violation's, except that a read of
/// uninitialised memory is named by the program when it knows what the memory is
/// ([`Program::uninit_read_message`]: a local variable living in a block of its own).
/// The class of a lifetime error: a memory error, but for a misused final-write
/// annotation, which is a failed claim of the program like an assertion.
pub fn lifetime_class(v: Violation) -> ErrorClass {
    match v {
        Violation::NotFinal => ErrorClass::Assertion,
        _ => ErrorClass::Memory,
    }
}

pub fn lifetime_message<P: Program>(prog: &P, g: &Graph, err: &LifetimeError) -> String {
    if err.violation == Violation::UninitializedRead {
        if let Some(loc) = err.events.first().and_then(|&r| g.label(r).loc()) {
            let site = |l: Loc| {
                let (m, _) = prog.block_of(l).and_then(|b| g.block(b))?.malloc?;
                Some(g.label(m).src)
            };
            if let Some(msg) = prog.uninit_read_message(loc, &site) {
                return msg;
            }
        }
    }
    err.violation.message().into()
}

/// Counts, errors and limits of one exploration.
///
/// Contract with the explorers: they call [`Recorder::stopped`] before every piece of
/// work they would skip if it returned true — at the top of every loop over
/// candidates, sources, positions, revisits and steps — and return at once when it
/// does. The time limit is a flag set by a watchdog thread ([`Deadline`]), so polling
/// costs one relaxed load and the granularity of the time limit is one consistency
/// check.
pub struct Recorder<'c> {
    pub stats: Stats,
    cfg: &'c Config,
    start: Instant,
    /// Set when an error ends the exploration (no keep-going).
    error_stop: bool,
    /// Set when `max_executions` complete executions have been counted.
    count_reached: bool,
    deadline: Option<Deadline>,
    /// The memory limit's watchdog ([`Config::memory_limit`]).
    memory: Option<MemoryWatch>,
    /// Set when a graph exceeded [`Config::max_events_per_execution`].
    events_reached: bool,
    /// The explorer's stack, and whether the recursion used it up.
    stack: StackGuard,
    stack_reached: bool,
    /// With [`Config::collect_rf_classes`] or [`Recorder::dedupe_classes`]: the
    /// reads-from class of every maximal execution seen, whatever its outcome.
    seen: HashSet<Vec<u64>>,
    /// Count each reads-from class once (see [`Recorder::dedupe_classes`]).
    dedupe: bool,
    /// With [`Recorder::dedupe_executions`]: the key ([`compact_execution_key`] in
    /// the configured equivalence) of every maximal execution seen.
    seen_executions: Option<HashSet<Box<[u32]>>>,
    /// Whether races are reported: the model has data races
    /// ([`MemoryModel::has_data_races`]) and [`Config::disable_race_detection`] is off.
    races: bool,
    /// [`Config::progress`]: counts are added to it as they are made.
    progress: Option<Arc<Progress>>,
    /// Where the exploration is in its tree, for the estimate of [`Progress`].
    tree: Tree,
}

impl<'c> Recorder<'c> {
    pub fn new(cfg: &'c Config, model: &dyn MemoryModel) -> Recorder<'c> {
        let start = Instant::now();
        // A deadline too far away for `Instant` to represent never passes.
        let from = cfg.clock_start.unwrap_or(start);
        let deadline = cfg
            .timeout
            .and_then(|t| from.checked_add(t))
            .map(Deadline::start);
        Recorder {
            stats: Stats::default(),
            cfg,
            start,
            error_stop: false,
            count_reached: cfg.max_executions == Some(0),
            deadline,
            memory: cfg.memory_limit.map(MemoryWatch::start),
            events_reached: false,
            stack: StackGuard::current(),
            stack_reached: false,
            seen: HashSet::new(),
            dedupe: false,
            seen_executions: None,
            races: model.has_data_races() && !cfg.disable_race_detection,
            progress: cfg.progress.clone(),
            tree: Tree::default(),
        }
    }

    /// Entering a branching node of the exploration tree with `n` children (for the
    /// estimate of the total, [`crate::progress`]); each child is entered with
    /// [`Recorder::child`], and the node is left with [`Recorder::end_branch`].
    #[inline]
    pub fn branch(&mut self, n: usize) -> Branch {
        self.tree.branch(n)
    }

    /// Entering child `i` of `b` (children before `i` are finished).
    #[inline]
    pub fn child(&mut self, b: &Branch, i: usize) {
        self.tree.child(b, i);
    }

    /// Leaving `b`: every child is finished.
    #[inline]
    pub fn end_branch(&mut self, b: Branch) {
        self.tree.end(b);
    }

    /// Notes the size of a graph, which the explorer is about to extend or count: a
    /// graph beyond [`Config::max_events_per_execution`], or a recursion deep enough
    /// to use up the explorer's stack ([`StackGuard`]), stops the exploration (the
    /// next [`Recorder::stopped`] says so). Explorers call it once per event they add.
    #[inline]
    pub fn tick(&mut self, g: &Graph) {
        if g.len() > self.stats.peak_graph_size {
            self.stats.peak_graph_size = g.len();
            let grown = growth(g);
            self.stats.largest = Some(grown);
            if let Some(p) = &self.progress {
                p.note_size(g.len() as u64);
            }
            if let Some(w) = self.cfg.growth.as_deref() {
                if g.len() as u64 >= w.threshold {
                    w.record(grown);
                }
            }
            if self
                .cfg
                .max_events_per_execution
                .is_some_and(|m| g.len() as u64 > m)
            {
                self.events_reached = true;
            }
        }
        if self.stack.exhausted() {
            self.stack_reached = true;
        }
    }

    /// True when the exploration must end: an error without keep-going, or a limit.
    /// The first time a limit is seen here it is recorded in [`Stats::stopped_by`]:
    /// callers skip work when this returns true, so `stopped_by` is set only when some
    /// of the exploration was actually cut.
    #[inline]
    pub fn stopped(&mut self) -> bool {
        if self.error_stop || self.stats.stopped_by.is_some() {
            return true;
        }
        let reason = if self.count_reached {
            self.cfg.max_executions.map(StopReason::MaxExecutions)
        } else if self.deadline.as_ref().is_some_and(Deadline::passed) {
            self.cfg.timeout.map(StopReason::Timeout)
        } else if self.memory.as_ref().is_some_and(MemoryWatch::exceeded) {
            self.cfg.memory_limit.map(StopReason::Memory)
        } else if self.events_reached {
            self.cfg.max_events_per_execution.map(StopReason::MaxEvents)
        } else if self.stack_reached {
            Some(StopReason::Stack(self.stack.size() as u64))
        } else {
            None
        };
        self.stats.stopped_by = reason;
        reason.is_some()
    }

    /// Whether a limit stopped the exploration (final: the exploration ends).
    #[inline]
    pub fn limit_stopped(&self) -> bool {
        self.stats.stopped_by.is_some()
    }

    /// Whether an error stopped the exploration (no keep-going).
    pub fn error_stopped(&self) -> bool {
        self.error_stop
    }

    /// Parallel exploration: the results recorded since the last call (one segment of
    /// the sequential order, see [`crate::parallel`]); counting goes on from zero.
    pub fn take_segment(&mut self) -> Stats {
        std::mem::take(&mut self.stats)
    }

    /// Parallel exploration: a worker starts another subtree after its previous one
    /// stopped at an error (which only ends the exploration of what comes after it).
    pub fn clear_error_stop(&mut self) {
        self.error_stop = false;
    }

    /// Whether the time or memory limit has passed (for long computations that
    /// cannot call [`Recorder::stopped`], which needs `&mut self`; they give up, and
    /// the next `stopped` records the limit).
    pub fn limit_passed(&self) -> bool {
        self.deadline.as_ref().is_some_and(Deadline::passed)
            || self.memory.as_ref().is_some_and(MemoryWatch::exceeded)
    }

    /// Records an error; stops the exploration unless keep-going. Returns its key.
    pub fn error(
        &mut self,
        class: ErrorClass,
        message: String,
        events: Vec<(EventId, SrcLoc)>,
        g: &Graph,
    ) -> ErrorKey {
        let report = ErrorReport {
            class,
            message,
            events,
            witness: g.clone(),
        };
        let key = report.owned_key();
        self.stats.add_error(report);
        if !self.cfg.keep_going {
            self.error_stop = true;
        }
        key
    }

    /// Records the error raised by error event `e`.
    pub fn error_event(&mut self, g: &Graph, e: EventId) {
        let lab = g.label(e);
        if let LabelKind::Error { kind, msg } = &lab.kind {
            let _ = self.error(error_class(*kind), msg.clone(), vec![(e, lab.src)], g);
        }
    }

    /// Records a data race between `a` and `b` (nothing, under a model without data
    /// races: every explorer reports races through here).
    pub fn race(&mut self, g: &Graph, a: EventId, b: EventId) {
        if !self.races {
            return;
        }
        let (la, lb) = (g.label(a), g.label(b));
        let _ = self.error(
            ErrorClass::Race,
            format!("Non-atomic race between events {a} and {b}"),
            vec![(a, la.src), (b, lb.src)],
            g,
        );
    }

    /// Whether data races are reported at all (explorers skip looking for them when
    /// not).
    pub fn reports_races(&self) -> bool {
        self.races
    }

    /// Records a lifetime error of dynamically allocated memory (its message from
    /// [`lifetime_message`]).
    pub fn lifetime<P: Program>(&mut self, prog: &P, g: &Graph, err: &LifetimeError) {
        let events = err.events.iter().map(|&e| (e, g.label(e).src)).collect();
        let _ = self.error(
            lifetime_class(err.violation),
            lifetime_message(prog, g, err),
            events,
            g,
        );
    }

    /// Count each reads-from class once: a maximal execution whose class was seen
    /// before is only counted in `Stats::repeated_classes` (for explorers that can reach
    /// a class twice). Call it before the first maximal execution: the record of
    /// classes starts then.
    pub fn dedupe_classes(&mut self) {
        self.dedupe = true;
    }

    /// Count each execution (of [`Config::equiv`]) once: a maximal execution seen before
    /// is only counted in `Stats::repeated_executions`. For the optimal explorer without
    /// TruSt's maximality rule, which may reach an execution twice. Call it before the
    /// first maximal execution.
    pub fn dedupe_executions(&mut self) {
        self.seen_executions = Some(HashSet::new());
    }

    /// Reports every data race and lifetime error of the just-added access or free `e`
    /// (errors are functions of the graph, so every explorer reports them the same way,
    /// when the later of their events is added). True if exploration must stop.
    pub fn access_errors<P: Program>(&mut self, prog: &P, g: &Graph, e: EventId) -> bool {
        let races = if self.races {
            race::races_with(g, e).collect()
        } else {
            Vec::new()
        };
        for o in races {
            self.race(g, o, e);
            if self.stopped() {
                return true;
            }
        }
        for err in lifetime::errors_with(g, e) {
            self.lifetime(prog, g, &err);
            if self.stopped() {
                return true;
            }
        }
        false
    }

    /// Counts a maximal consistent execution of `prog` (with keep-going, also in the
    /// count of each error it contains, [`crate::tally`]); with final states recorded,
    /// also the model's flags the execution raises ([`MemoryModel::flags`]).
    pub fn maximal<P: Program>(&mut self, prog: &P, st: &mut State<P>, co: &Coherence) {
        self.tick(&st.g);
        if let Some(seen) = &mut self.seen_executions {
            if !seen.insert(compact_execution_key(&st.g, self.cfg.equiv)) {
                self.stats.repeated_executions += 1;
                return;
            }
        }
        if (self.cfg.collect_rf_classes || self.dedupe) && !self.seen.insert(rf_class_key(&st.g)) {
            self.stats.repeated_classes += 1;
            if self.dedupe {
                return;
            }
        }
        if self.cfg.collect_thread_outcomes {
            self.stats.thread_outcomes.extend(thread_outcomes(&st.g));
        }
        let outcome = classify(st, co);
        let mut found = if self.cfg.keep_going {
            crate::tally::errors_in(prog, &st.g, self.races)
        } else {
            Default::default()
        };
        if let Some(p) = &self.progress {
            match outcome {
                Outcome::Complete => p.add_complete(),
                Outcome::Blocked => p.add_blocked(),
                _ => {}
            }
            self.tree.publish(p);
        }
        match outcome {
            Outcome::Complete => {
                self.stats.complete += 1;
                if self.cfg.keep_sample && self.stats.sample.is_none() {
                    self.stats.sample = Some(st.g.clone());
                }
                for (src, m) in crate::leaks::leaked(prog, &st.g) {
                    if self.cfg.check_leaks {
                        let msg = "unfreed memory: a block allocated here is never freed \
                                   (--check-leaks)";
                        found.insert(self.error(
                            ErrorClass::Memory,
                            msg.to_string(),
                            vec![(m, src)],
                            &st.g,
                        ));
                    } else {
                        *self.stats.leaks.entry(src).or_default() += 1;
                    }
                }
                if self.cfg.collect_final_states || self.cfg.count_final_states {
                    let with_memory = self.cfg.equiv == Equiv::Co;
                    let fs = final_state(st, with_memory);
                    for f in co.model.flags(&st.g) {
                        self.stats.flags.entry(f).or_default().insert(fs.clone());
                    }
                    if self.cfg.count_final_states {
                        *self.stats.final_state_counts.entry(fs.clone()).or_default() += 1;
                    }
                    if self.cfg.collect_final_states {
                        self.stats.final_states.insert(fs);
                    }
                }
                if self.cfg.collect_rf_classes {
                    let k = execution_key(&st.g, Equiv::Rf);
                    self.stats.rf_classes.insert(k);
                }
                if self
                    .cfg
                    .max_executions
                    .is_some_and(|m| self.stats.complete >= m)
                {
                    self.count_reached = true;
                }
            }
            Outcome::Blocked => {
                self.stats.blocked += 1;
                let (on_loop, on_recursion) = cut_by(&st.g);
                if on_loop || on_recursion {
                    self.stats.bound_cut += 1;
                }
                if on_recursion {
                    self.stats.recursion_cut += 1;
                }
                // Each loop once per execution, however many threads block in it.
                let mut loops: Vec<SrcLoc> = Vec::new();
                for t in 0..st.g.num_threads() {
                    if let Some(e) = st.g.last_of(t) {
                        let l = st.g.label(e);
                        if matches!(
                            l.kind,
                            LabelKind::Block {
                                reason: BlockReason::SpinLoop { .. }
                            }
                        ) && !loops.contains(&l.src)
                        {
                            loops.push(l.src);
                        }
                    }
                }
                let spins = !loops.is_empty();
                for src in loops {
                    *self.stats.spin_blocked.entry(src).or_default() += 1;
                }
                if spins {
                    let coherent = co.model.maximal_extensions_consistent();
                    found.extend(self.spin_forever(&st.g, coherent));
                }
            }
            Outcome::Erroneous => self.stats.erroneous += 1,
            Outcome::Deadlock(d) => {
                found.insert(self.error(ErrorClass::Deadlock, d.message(), d.waiting, &st.g));
            }
        }
        if self.cfg.keep_going {
            for k in found {
                *self.stats.error_counts.entry(k).or_default() += 1;
            }
        }
    }

    /// A blocked execution `g` with a thread in a spin loop: its liveness violation
    /// ([`crate::liveness`]), if it has one, is an error with
    /// [`Config::check_liveness`], else counted per spinning thread and loop
    /// ([`Stats::spin_forever`]). `coherent`: whether the model is coherent with
    /// respect to its hb. Returns the error's key, if one was reported.
    fn spin_forever(&mut self, g: &Graph, coherent: bool) -> Option<ErrorKey> {
        let forever = crate::liveness::spinning_forever(g, coherent);
        let &e = forever.first()?;
        if self.cfg.check_liveness {
            let msg = format!(
                "Non-terminating spin loop: thread {} (every thread is finished, \
                 blocked for good, or spinning on values nothing will change)",
                e.tid
            );
            let src = g.label(e).src;
            Some(self.error(ErrorClass::Liveness, msg, vec![(e, src)], g))
        } else {
            self.stats.hung += 1;
            let main_finished = g
                .last_of(0)
                .is_some_and(|e| matches!(g.label(e).kind, LabelKind::Finish { .. }));
            for e in forever {
                let key = SpinForever {
                    tid: e.tid,
                    src: g.label(e).src,
                    main_finished,
                };
                *self.stats.spin_forever.entry(key).or_default() += 1;
            }
            None
        }
    }

    /// The result; stops the watchdog.
    pub fn finish(mut self) -> Stats {
        self.deadline = None;
        self.memory = None;
        if let Some(p) = &self.progress {
            self.tree.publish(p);
        }
        self.stats.elapsed = self.start.elapsed();
        self.stats
    }
}

/// Every thread's outcome in a maximal graph: the values its reads returned and how it
/// ended.
pub fn thread_outcomes(g: &Graph) -> Vec<ThreadOutcome> {
    (0..g.num_threads())
        .filter(|&t| g.thread_exists(t))
        .map(|t| {
            let reads = g
                .thread(t)
                .iter()
                .enumerate()
                .filter(|(_, l)| l.is_read())
                .map(|(i, _)| g.read_val(EventId::new(t, i as u32)))
                .collect();
            let end = match g.last_of(t).map(|e| &g.label(e).kind) {
                Some(LabelKind::Finish { ret }) => ThreadEnd::Finished(*ret),
                Some(LabelKind::Block { .. }) => ThreadEnd::Blocked,
                Some(LabelKind::Error { .. }) => ThreadEnd::Error,
                _ => ThreadEnd::Waiting,
            };
            ThreadOutcome { tid: t, reads, end }
        })
        .collect()
}

/// The size of `g` and its longest thread (the lowest tid among equals), with where
/// that thread's newest event comes from.
fn growth(g: &Graph) -> Growth {
    let t = (0..g.num_threads())
        .max_by_key(|&t| (g.thread_len(t), std::cmp::Reverse(t)))
        .unwrap_or(0);
    Growth {
        events: g.len() as u64,
        thread: t,
        thread_events: g.thread_len(t) as u64,
        last: g.last_of(t).map_or(SrcLoc::UNKNOWN, |e| g.label(e).src),
    }
}

/// Whether some thread of `g` ended at the loop bound, and whether some thread ended
/// at the recursion limit.
fn cut_by(g: &Graph) -> (bool, bool) {
    let mut cut = (false, false);
    for t in 0..g.num_threads() {
        if let Some(e) = g.last_of(t) {
            match g.label(e).kind {
                LabelKind::Block {
                    reason: BlockReason::LoopBound,
                } => cut.0 = true,
                LabelKind::Block {
                    reason: BlockReason::RecursionLimit,
                } => cut.1 = true,
                _ => {}
            }
        }
    }
    cut
}

/// Registers of every thread and, if `with_memory`, final values of every location (in
/// rf mode a final value is not a fact of the execution: it depends on which co the
/// model chose as witness, so rf mode leaves memory out).
pub fn final_state<P: Program>(st: &State<P>, with_memory: bool) -> FinalState {
    let mut registers = Vec::new();
    for t in 0..st.g.num_threads() {
        if let Some(s) = st.ts[t as usize].last() {
            registers.push((t, s.registers()));
        }
    }
    let mut memory: Vec<(u64, i64)> = if with_memory {
        st.g.locations()
            .map(|(l, _)| (l.0, st.g.final_val(*l)))
            .collect()
    } else {
        Vec::new()
    };
    memory.sort();
    FinalState { registers, memory }
}
