//! What an exploration returns.

use porf_graph::{EventId, Graph, SrcLoc, Val};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// The kinds of errors porf reports.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum ErrorClass {
    Assertion,
    Abort,
    Memory,
    Race,
    Deadlock,
    /// A misused mutex (unlock of a mutex the thread does not hold).
    Lock,
    /// The program used a construct porf does not model (see `ErrorKind::Unsupported`).
    Unsupported,
    /// A thread spins forever in a loop nothing can end (`--check-liveness`, see
    /// [`crate::liveness`]).
    Liveness,
    /// A thread's local computation never reaches its next action
    /// (`ErrorKind::NonTermination`: a loop whose state repeats, or one that ran out of
    /// the front end's step budget, as its message says).
    NonTermination,
}

impl ErrorClass {
    /// The verdict word used in JSON output.
    pub fn verdict(self) -> &'static str {
        match self {
            ErrorClass::Assertion => "assertion",
            ErrorClass::Abort => "abort",
            ErrorClass::Memory => "memory",
            ErrorClass::Race => "race",
            ErrorClass::Deadlock => "deadlock",
            ErrorClass::Lock => "lock",
            ErrorClass::Unsupported => "unsupported",
            ErrorClass::Liveness => "liveness",
            ErrorClass::NonTermination => "non-termination",
        }
    }
}

/// One error with its witness.
#[derive(Clone, Debug)]
pub struct ErrorReport {
    pub class: ErrorClass,
    pub message: String,
    /// The events involved (the failing event; both racing accesses; the blocked
    /// threads' last events), with their source locations.
    pub events: Vec<(EventId, SrcLoc)>,
    /// The execution graph in which the error was found.
    pub witness: Graph,
}

impl ErrorReport {
    /// What identifies an error across executions and explorers: its class, the
    /// source locations involved and, except for races and deadlocks (whose messages
    /// name the events and threads of one witness), its message.
    pub fn key(&self) -> (ErrorClass, Vec<SrcLoc>, &str) {
        let mut locs: Vec<SrcLoc> = self.events.iter().map(|(_, s)| *s).collect();
        locs.sort_by_key(|s| (s.file, s.line, s.col));
        locs.dedup();
        let msg = match self.class {
            ErrorClass::Race | ErrorClass::Deadlock => "",
            _ => self.message.as_str(),
        };
        (self.class, locs, msg)
    }

    /// [`ErrorReport::key`] as an owned [`ErrorKey`] (for maps and reports).
    pub fn owned_key(&self) -> ErrorKey {
        let (c, l, m) = self.key();
        (
            c,
            l.iter().map(|s| (s.file, s.line, s.col)).collect(),
            m.to_string(),
        )
    }
}

/// The [`ErrorKey`] of an error of class `class` with events at `srcs` and message
/// `msg`: [`ErrorReport::owned_key`] of such a report, without building it.
pub fn error_key(class: ErrorClass, srcs: impl IntoIterator<Item = SrcLoc>, msg: &str) -> ErrorKey {
    let mut l: Vec<(u32, u32, u32)> = srcs.into_iter().map(|s| (s.file, s.line, s.col)).collect();
    l.sort();
    l.dedup();
    let msg = match class {
        ErrorClass::Race | ErrorClass::Deadlock => "",
        _ => msg,
    };
    (class, l, msg.to_string())
}

/// A thread spinning forever in a loop ([`Stats::spin_forever`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SpinForever {
    pub tid: porf_graph::Tid,
    /// The loop's position (its block event's source location).
    pub src: porf_graph::SrcLoc,
    /// Whether `main` (thread 0) had finished in those executions: in C, main's return
    /// ends the process, and the spinning thread with it (unless main called
    /// `pthread_exit`, which porf does not tell apart).
    pub main_finished: bool,
}

/// The final state of a complete execution: every thread's registers (by tid) and
/// every location's final value (by location).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct FinalState {
    pub registers: Vec<(u32, Vec<Val>)>,
    pub memory: Vec<(u64, Val)>,
}

/// An error's class, the (file, line, column) of the events involved and its message
/// (empty for races and deadlocks), as in [`ErrorReport::key`].
pub type ErrorKey = (ErrorClass, Vec<(u32, u32, u32)>, String);

/// The result of an exploration.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Maximal consistent executions in which every thread finished without error.
    pub complete: u64,
    /// Maximal consistent executions in which some thread is blocked (see [`crate::outcome`]).
    pub blocked: u64,
    /// Of the blocked executions, those cut by a bound: some thread stopped at the
    /// loop bound (`BlockReason::LoopBound`) or the recursion limit
    /// (`BlockReason::RecursionLimit`), so the program's behaviour beyond was not
    /// explored (see [`Stats::limit`]).
    pub bound_cut: u64,
    /// Of the executions cut by a bound, those in which some thread stopped at the
    /// recursion limit.
    pub recursion_cut: u64,
    /// Maximal consistent executions containing an error event (only with keep-going).
    pub erroneous: u64,
    /// Spin-assume: for each loop position (the source location of the back edge), the
    /// number of blocked executions in which some thread stopped there
    /// (`BlockReason::SpinLoop`): an execution counts once per loop, however many of
    /// its threads stopped there.
    pub spin_blocked: std::collections::HashMap<porf_graph::SrcLoc, u64>,
    /// Without [`crate::Config::check_liveness`]: for each thread and loop, the number of blocked executions in which that thread spins forever there
    /// ([`crate::liveness::spinning_forever`]: the liveness violations the check would
    /// report as errors, kept for a warning). Empty with the check on.
    pub spin_forever: std::collections::HashMap<SpinForever, u64>,
    /// Without [`crate::Config::check_leaks`]: for each allocation site (the source
    /// location of a `Malloc`), the number of complete executions in which some heap
    /// block allocated there is never freed ([`crate::leaks`]), for a warning.
    pub leaks: std::collections::HashMap<porf_graph::SrcLoc, u64>,
    /// The blocked executions [`Stats::spin_forever`] counts (one per execution, however
    /// many threads spin forever in it).
    pub hung: u64,
    /// Distinct errors found (the first one only, unless keep-going).
    pub errors: Vec<ErrorReport>,
    /// With [`crate::Config::keep_sample`]: the first complete execution (in the
    /// sequential exploration order).
    pub sample: Option<Graph>,
    /// With keep-going: for each error key ([`ErrorReport::owned_key`]), the number of
    /// maximal executions explored that contain the error ([`crate::tally`]; an
    /// execution with the error twice counts once). Empty without keep-going.
    pub error_counts: BTreeMap<ErrorKey, u64>,
    pub elapsed: Duration,
    /// rf mode, optimal explorer: the number of distinct states backward revisits
    /// produced (the size of the set that keeps the exploration optimal).
    pub revisit_states: u64,
    /// The reads-from classes of the complete executions, if requested.
    pub rf_classes: BTreeSet<Vec<i64>>,
    /// With [`crate::Config::collect_rf_classes`]: maximal executions (of any outcome)
    /// whose reads-from class an earlier one already had. Zero for an explorer that
    /// visits each class once.
    pub repeated_classes: u64,
    /// Maximal executions the optimal explorer reached again without TruSt's
    /// maximality rule (rf mode, WRA), counted once (`Recorder::dedupe_executions`).
    pub repeated_executions: u64,
    /// What the trace-based explorers (RF-SMC, RF-partSMC) did.
    pub smc: SmcStats,
    /// The largest number of events any explored graph had.
    pub peak_graph_size: usize,
    /// The largest graph's longest thread (see [`Growth`]); `None` before any graph.
    pub largest: Option<Growth>,
    /// Which limit stopped the exploration before it had explored everything, if one
    /// did. `Some` means the counts are a lower bound and the absence of errors proves
    /// nothing; an error found is still definitive.
    pub stopped_by: Option<StopReason>,
    /// Final states of complete executions, if requested.
    pub final_states: BTreeSet<FinalState>,
    /// With [`crate::Config::count_final_states`]: for each final state, the number of
    /// complete executions that end in it (they add up to `complete`).
    pub final_state_counts: std::collections::BTreeMap<FinalState, u64>,
    /// The model's flags ([`porf_models::MemoryModel::flags`]) and the final states of
    /// the complete executions raising each, so that a front end can keep those its
    /// filter keeps (recorded with the final states: [`crate::Config::collect_final_states`]
    /// or [`crate::Config::count_final_states`]).
    pub flags: std::collections::BTreeMap<&'static str, BTreeSet<FinalState>>,
    /// The thread-local outcomes of every maximal execution, if requested
    /// ([`crate::Config::collect_thread_outcomes`]).
    pub thread_outcomes: BTreeSet<ThreadOutcome>,
    /// RVF explorer only: what it did (`None` for the other explorers).
    pub rvf: Option<RvfStats>,
    /// RVF explorer only, if requested ([`crate::Config::collect_rvf_classes`]): the
    /// RVF class key ([`crate::key::rvf_class_key`]) of every maximal trace explored,
    /// in exploration order, duplicates kept.
    pub rvf_class_keys: Vec<Vec<i64>>,
    /// How many worker threads explored, and why one if more were asked for
    /// (`--stats` only: never part of the result proper, which is the same for every
    /// number of threads).
    pub parallel: ParallelStats,
}

/// How an exploration used threads ([`crate::Config::threads`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParallelStats {
    /// Worker threads that explored (1 for a sequential exploration).
    pub workers: usize,
    /// Subtrees handed from one worker to another (0 when sequential).
    pub tasks: u64,
    /// Time workers spent waiting for a subtree, summed over the workers.
    pub waited: Duration,
    /// Why the exploration ran on one thread although more were asked for.
    pub one_thread_reason: Option<&'static str>,
}

/// What one thread did in a maximal execution: the values its reads returned, in
/// program order, and how it ended. The paper's "thread-local state" is a function of
/// it (threads are deterministic).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct ThreadOutcome {
    pub tid: u32,
    pub reads: Vec<Val>,
    pub end: ThreadEnd,
}

/// How a thread ended in a maximal execution.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum ThreadEnd {
    /// Finished with this return value.
    Finished(Val),
    /// Blocked for good (failed assume, loop bound, or a lock it waits for).
    Blocked,
    /// Raised an error.
    Error,
    /// Waits to join a thread that never finishes.
    Waiting,
}

/// The RVF explorer's counters (`--stats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RvfStats {
    /// Maximal traces explored (complete, blocked, erroneous or deadlocked).
    pub traces: u64,
    /// Distinct RVF classes among them (equal to `traces`: the algorithm explores at
    /// most one trace per class).
    pub classes: u64,
    /// VerifySC calls: witnesses searched for a new read's value (when the current
    /// trace extended by the read is not already one).
    pub witness_calls: u64,
    /// Of those, the calls that found no witness.
    pub witness_failed: u64,
    /// Of the failed calls, those the closure refuted before any search.
    pub closure_refuted: u64,
    /// Searches for an error that hb makes depend on the trace chosen within a class
    /// (races, heap lifetime errors, deadlocks), and how many found one.
    pub error_searches: u64,
    pub error_searches_found: u64,
}

/// What a trace-based reads-from explorer did (the figures the RF-SMC paper reports).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SmcStats {
    /// Calls of the exploration procedure: each extends one trace to a maximal one
    /// (RF-partSMC also counts its calls on partial traces).
    pub calls: u64,
    /// Mutations proposed (a read, a different write for it to read from).
    pub mutations: u64,
    /// Of those, mutations already scheduled (the same trace prefix and reads-from).
    pub duplicates: u64,
    /// Realisability tests (VerifySC / VerifyTSO / VerifyPSO): run, failed, and how
    /// many failures a local pre-check or the closure alone decided.
    pub witness: porf_models::rf::RfStats,
    /// The most schedules waiting at once (RF-SMC's memory, which RF-partSMC bounds).
    pub peak_pending: u64,
}

/// Why an exploration ended before it had explored every execution.
///
/// Invariant: an explorer records a reason only when it actually skipped work because
/// of the limit (see [`crate::record::Recorder::stopped`]); stopping at an error
/// without keep-going is not a limit and records none.
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum StopReason {
    /// The time limit ([`crate::Config::timeout`], carried here) passed.
    Timeout(Duration),
    /// The given number of complete executions ([`crate::Config::max_executions`]) was
    /// reached.
    MaxExecutions(u64),
    /// The process's resident memory reached the limit
    /// ([`crate::Config::memory_limit`], in bytes).
    Memory(u64),
    /// The explorer's recursion (one level per event added along a path of its
    /// search) used up most of its thread's stack (of this many bytes).
    Stack(u64),
    /// An execution reached this many events
    /// ([`crate::Config::max_events_per_execution`]).
    MaxEvents(u64),
}

impl StopReason {
    /// The limit's name in JSON: `timeout`, `max-executions`, `memory` (the memory
    /// limit or the explorer's stack) or `max-events-per-execution`.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Timeout(_) => "timeout",
            StopReason::MaxExecutions(_) => "max-executions",
            StopReason::Memory(_) | StopReason::Stack(_) => "memory",
            StopReason::MaxEvents(_) => "max-events-per-execution",
        }
    }

    /// Whether the limit is one of the size of what the exploration holds (memory,
    /// stack, events of one execution): then [`Stats::largest`] says what grew.
    pub fn is_size(self) -> bool {
        matches!(
            self,
            StopReason::Memory(_) | StopReason::Stack(_) | StopReason::MaxEvents(_)
        )
    }
}

/// `n` bytes as a size: whole GiB, MiB or KiB when exact, else bytes.
pub fn format_size(n: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    for (u, name) in UNITS {
        if n >= u && n.is_multiple_of(u) {
            return format!("{} {name}", n / u);
        }
    }
    if n >= 1 << 20 {
        return format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64);
    }
    format!("{n} bytes")
}

impl std::fmt::Display for StopReason {
    /// The command-line flag that set the limit (`--timeout 5`, `--max-executions
    /// 100`, `--memory-limit 1 GiB`, `--max-events-per-execution 100000`), or the
    /// stack's size.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Timeout(d) => write!(f, "--timeout {}", d.as_secs_f64()),
            StopReason::MaxExecutions(n) => write!(f, "--max-executions {n}"),
            StopReason::Memory(n) => write!(f, "--memory-limit {}", format_size(*n)),
            StopReason::Stack(n) => {
                write!(f, "the explorer's stack ({} deep)", format_size(*n))
            }
            StopReason::MaxEvents(n) => write!(f, "--max-events-per-execution {n}"),
        }
    }
}

/// The largest execution graph an exploration built, and what made it large: its
/// longest thread and that thread's newest event (for the message of a size limit,
/// [`StopReason::is_size`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Growth {
    /// Events of the graph.
    pub events: u64,
    /// Its thread with the most events, their number, and where the newest of them
    /// comes from in the program.
    pub thread: u32,
    pub thread_events: u64,
    pub last: SrcLoc,
}

/// A bound that cuts single executions short (they end blocked, and count in
/// [`Stats::bound_cut`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// `--unroll`: a loop started once too often.
    Loop,
    /// `--recursion-limit`: a function would have been active once too often.
    Recursion,
}

/// What keeps a result from being a proof (see [`Stats::limit`]).
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Limit {
    /// A limit stopped the exploration before it had explored everything: the counts
    /// are lower bounds.
    Stopped(StopReason),
    /// Every execution was explored, but some were cut short by a bound: the counts
    /// are those of the bounded program.
    Cut(Bound),
}

impl Limit {
    /// The limit's name in JSON's `stopped_by`: `timeout`, `max-executions`,
    /// `loop bound`, `recursion limit`.
    pub fn name(self) -> &'static str {
        match self {
            Limit::Stopped(r) => r.name(),
            Limit::Cut(Bound::Loop) => "loop bound",
            Limit::Cut(Bound::Recursion) => "recursion limit",
        }
    }
}

impl Stats {
    /// True when a limit stopped the exploration early: the counts are partial.
    pub fn partial(&self) -> bool {
        self.stopped_by.is_some()
    }

    /// The one rule for every limit: `None` exactly when the exploration was
    /// complete (every execution explored to its end), so that finding no error
    /// proves the program correct (for the model). Otherwise the limit to name: the
    /// one that stopped the exploration, if one did; else the bound that cut
    /// executions (the loop bound, unless every cut execution hit the recursion
    /// limit).
    pub fn limit(&self) -> Option<Limit> {
        if let Some(r) = self.stopped_by {
            Some(Limit::Stopped(r))
        } else if self.bound_cut == 0 {
            None
        } else if self.recursion_cut == self.bound_cut {
            Some(Limit::Cut(Bound::Recursion))
        } else {
            Some(Limit::Cut(Bound::Loop))
        }
    }

    /// Records `err` unless an error with the same key is already known. Returns true if new.
    pub fn add_error(&mut self, err: ErrorReport) -> bool {
        let k = err.key();
        if self.errors.iter().any(|e| e.key() == k) {
            return false;
        }
        self.errors.push(err);
        true
    }
    /// Adds `o`, the result of the exploration of a part of the search tree that comes
    /// after this one in the sequential order: counts add up, sets unite, the peak is
    /// the larger one, and `o`'s errors follow with the same deduplication as
    /// [`Stats::add_error`] (so the first occurrence of each error is kept).
    /// `elapsed` and `parallel` are left to the caller; `smc` and `rvf` (the trace
    /// explorers', which run on one thread) are not merged.
    pub fn merge(&mut self, o: Stats) {
        self.complete += o.complete;
        self.blocked += o.blocked;
        self.bound_cut += o.bound_cut;
        self.recursion_cut += o.recursion_cut;
        self.erroneous += o.erroneous;
        for (k, n) in o.spin_blocked {
            *self.spin_blocked.entry(k).or_default() += n;
        }
        for (k, n) in o.spin_forever {
            *self.spin_forever.entry(k).or_default() += n;
        }
        self.hung += o.hung;
        for (k, n) in o.leaks {
            *self.leaks.entry(k).or_default() += n;
        }
        for e in o.errors {
            self.add_error(e);
        }
        if self.sample.is_none() {
            self.sample = o.sample;
        }
        for (k, n) in o.error_counts {
            *self.error_counts.entry(k).or_default() += n;
        }
        self.revisit_states += o.revisit_states;
        self.rf_classes.extend(o.rf_classes);
        self.repeated_classes += o.repeated_classes;
        self.repeated_executions += o.repeated_executions;
        self.peak_graph_size = self.peak_graph_size.max(o.peak_graph_size);
        if o.largest.map(|g| g.events) > self.largest.map(|g| g.events) {
            self.largest = o.largest;
        }
        self.stopped_by = self.stopped_by.or(o.stopped_by);
        self.final_states.extend(o.final_states);
        for (k, n) in o.final_state_counts {
            *self.final_state_counts.entry(k).or_default() += n;
        }
        for (k, states) in o.flags {
            self.flags.entry(k).or_default().extend(states);
        }
        self.thread_outcomes.extend(o.thread_outcomes);
        self.rvf_class_keys.extend(o.rvf_class_keys);
    }

    /// The set of error keys, for comparisons.
    pub fn error_keys(&self) -> BTreeSet<ErrorKey> {
        self.errors.iter().map(ErrorReport::owned_key).collect()
    }

    /// With keep-going: the number of maximal executions explored that contain `e`
    /// ([`Stats::error_counts`]).
    pub fn executions_with(&self, e: &ErrorReport) -> u64 {
        self.error_counts.get(&e.owned_key()).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: u32, msg: &str) -> ErrorReport {
        ErrorReport {
            class: ErrorClass::Assertion,
            message: msg.into(),
            events: vec![(
                EventId::new(0, 1),
                SrcLoc {
                    line,
                    ..SrcLoc::default()
                },
            )],
            witness: Graph::new(),
        }
    }

    /// Merging consecutive parts gives what one exploration of both would record:
    /// sums, the larger peak, and each error once, at its first occurrence.
    #[test]
    fn merge_adds_counts_and_keeps_first_errors() {
        let mut a = Stats {
            complete: 3,
            blocked: 1,
            peak_graph_size: 10,
            errors: vec![error(1, "first")],
            ..Stats::default()
        };
        let b = Stats {
            complete: 2,
            erroneous: 4,
            peak_graph_size: 7,
            errors: vec![error(2, "second"), error(1, "first")],
            ..Stats::default()
        };
        a.merge(b);
        assert_eq!((a.complete, a.blocked, a.erroneous), (5, 1, 4));
        assert_eq!(a.peak_graph_size, 10);
        let msgs: Vec<&str> = a.errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(msgs, ["first", "second"]);
    }

    /// Per-error execution counts and leak counts add up across merged parts (so
    /// they do not depend on how the tree was split), keyed as the reports are.
    #[test]
    fn merge_sums_error_and_leak_counts() {
        let e = error(1, "first");
        let k = e.owned_key();
        assert_eq!(
            k,
            error_key(ErrorClass::Assertion, [e.events[0].1], "first")
        );
        let site = SrcLoc {
            line: 9,
            ..SrcLoc::default()
        };
        let part = |n: u64| Stats {
            error_counts: [(k.clone(), n)].into_iter().collect(),
            leaks: [(site, n)].into_iter().collect(),
            ..Stats::default()
        };
        let mut a = part(2);
        a.errors.push(e.clone());
        a.merge(part(3));
        assert_eq!(a.executions_with(&e), 5);
        assert_eq!(a.leaks[&site], 5);
    }

    /// Complete only without a stop and without cuts; a stop is named before a cut,
    /// and the recursion limit only when it cut every cut execution.
    #[test]
    fn the_limit_is_none_only_for_a_complete_exploration() {
        let mut s = Stats {
            complete: 4,
            blocked: 3,
            ..Stats::default()
        };
        assert_eq!(s.limit(), None);
        s.bound_cut = 2;
        s.recursion_cut = 2;
        assert_eq!(s.limit(), Some(Limit::Cut(Bound::Recursion)));
        assert_eq!(s.limit().map(Limit::name), Some("recursion limit"));
        s.recursion_cut = 1;
        assert_eq!(s.limit().map(Limit::name), Some("loop bound"));
        s.stopped_by = Some(StopReason::MaxExecutions(4));
        assert_eq!(s.limit().map(Limit::name), Some("max-executions"));
        let mut t = Stats::default();
        t.merge(s);
        assert_eq!((t.bound_cut, t.recursion_cut), (2, 1));
    }
}
