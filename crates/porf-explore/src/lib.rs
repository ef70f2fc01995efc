//! Exploration strategies. An explorer drives a program's threads and an execution
//! graph, asks a [`MemoryModel`](porf_models::MemoryModel) what is consistent, and
//! returns [`Stats`].
//!
//! **Architecture invariant**: explorers see programs only through
//! `Program`/`ThreadMachine`/`Action` and models only through `dyn MemoryModel`: no
//! front end (C, litmus, toy) is named here, and no model is chosen by name.
//!
//! **API boundary**: [`explore`] (strategy, program, model, [`Config`]) → [`Stats`], with
//! [`ErrorReport`]s carrying witness graphs.
//!
//! * [`optimal`]: GenMC's exploration (Kokologiannakis et al., PLDI 2019,
//!   Alg. 1–3, co-tracking) with TruSt's
//!   maximality rule instead of a set of performed revisits: each (events, rf, co)
//!   execution is visited exactly once, memory stays linear in one graph.
//! * [`rf_smc`]: RF-SMC ("The Reads-From Equivalence for the TSO and PSO Memory
//!   Models", OOPSLA 2021, Alg. 3): traces instead of graph revisits, each reads-from
//!   class counted once, for `sc`, `tso` and `pso` in rf mode; [`rf_smc::part`] is its
//!   space-optimal variant RF-partSMC (App. C).
//! * [`reference`]: brute force over every porf-respecting order of adding events and
//!   every rf/co choice, deduplicated; exponential, the ground truth for small programs.
//! * [`values`]: value enumeration (herd7's way): every read's value guessed from the
//!   values the program writes, every rf and co matching them; exact for finite
//!   programs, and the one explorer for models that allow load buffering.
//! * [`state`]: a graph plus the thread machines' states (shared by both).
//! * [`bam`]: barrier-aware exploration, the optimal explorer's order of adding
//!   events around awaited loads (a barrier's wait for the last arrival).
//! * [`outcome`]: what a maximal graph is (complete, blocked, deadlocked, erroneous),
//!   defined once for every explorer.
//! * [`stats`]: counts, errors and their witnesses, and which limit cut the
//!   exploration ([`StopReason`]).
//! * [`record`]: the bookkeeping every explorer shares (counting, limits);
//!   [`tally`]: per-error execution counts (`--keep-going`); [`leaks`]: heap blocks
//!   a complete execution never frees;
//!   [`deadline`]: the time limit as a flag set by a watchdog thread;
//!   [`memory`]: the memory limit (likewise) and the explorers' stack;
//!   [`progress`]: live counters for a progress display, and the estimate of the
//!   total from the share of the tree done; [`growth`]: the first execution to grow
//!   past a threshold, for an early diagnostic.
//! * [`mutex`]: which thread holds a mutex (invalid unlocks, self-deadlocks).
//! * [`symmetry`]: symmetry reduction: of executions that differ only by swapping
//!   threads declared symmetric, the optimal explorer explores one (`--disable-sr`).
//! * [`mixed_size`]: accesses whose byte ranges overlap with different (location,
//!   width) pairs end the execution as unsupported, so no explored graph has one.
//! * [`rvf_smc`]: RVF-SMC ("Stateless Model Checking under a Reads-Value-From
//!   Equivalence", CAV 2021, Alg. 2) for SC: at most one maximal trace per
//!   reads-value-from class ([`Equiv::Rvf`]).
//! * [`parallel`]: the optimal explorer on several threads: subtrees of its search
//!   tree handed between workers, results merged in the sequential order.
//! * [`shard`]: splitting the optimal explorer's tree into N independent shards
//!   (`--shard I/N`) and adding their records up.
//! * [`coherence`]: co tracked (co mode) or derived by the model (rf mode);
//!   [`key`]: execution and state keys for deduplication.

pub mod bam;
pub mod coherence;
pub mod deadline;
pub mod deferred;
pub mod growth;
pub mod key;
pub mod leaks;
pub mod liveness;
pub mod memory;
pub mod mixed_size;
pub mod mutex;
pub mod optimal;
pub mod outcome;
pub mod parallel;
pub mod progress;
pub mod record;
pub mod reference;
pub mod replay;
pub mod rf_smc;
pub mod rvf_smc;
pub mod shard;
pub mod stale;
pub mod state;
pub mod stats;
pub mod step;
pub mod symmetry;
pub mod tally;
pub mod values;
mod visitor;

pub use coherence::Equiv;
pub use outcome::Outcome;
pub use stats::{
    format_size, Bound, ErrorClass, ErrorReport, FinalState, Growth, Limit, ParallelStats,
    RvfStats, SmcStats, SpinForever, Stats, StopReason, ThreadEnd, ThreadOutcome,
};

use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits and switches common to every explorer.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Keep exploring after an error (and collect every distinct error).
    pub keep_going: bool,
    /// Stop after this many complete executions (the result is then partial, and
    /// [`Stats::stopped_by`] says so).
    pub max_executions: Option<u64>,
    /// Stop after this much wall time, counted from `clock_start` (the result is then
    /// partial, and [`Stats::stopped_by`] says so). The explorers poll it before every
    /// consistency check, so they stop within one check of it.
    pub timeout: Option<Duration>,
    /// Stop when the process's resident memory reaches this many bytes (the result is
    /// then partial, [`StopReason::Memory`]). Watched by a thread every
    /// [`memory::POLL`]; the explorers poll its flag where they poll the time limit.
    pub memory_limit: Option<u64>,
    /// Stop when an execution reaches this many events (the result is then partial,
    /// [`StopReason::MaxEvents`]): an execution that grows without bound (a loop that
    /// never exits) would otherwise be extended until memory runs out. Checked at
    /// every event the explorers add.
    pub max_events_per_execution: Option<u64>,
    /// When `timeout` starts counting; `None`: when the exploration starts. Front ends
    /// pass the instant the command started, so that the limit also covers compiling
    /// the program.
    pub clock_start: Option<Instant>,
    /// Record the final state of every complete execution.
    pub collect_final_states: bool,
    /// Count the complete executions per final state ([`Stats::final_state_counts`]),
    /// for front ends that weigh each execution, as herd7's `Positive`/`Negative` do.
    pub count_final_states: bool,
    /// Which executions are told apart: (events, rf, co) or (events, rf).
    pub equiv: Equiv,
    /// Record the reads-from class ([`key::execution_key`] in rf mode) of every
    /// complete execution (for comparing the two equivalences).
    pub collect_rf_classes: bool,
    /// Record every thread's outcome (values read, how it ended) in every maximal
    /// execution ([`Stats::thread_outcomes`]), to compare explorers.
    pub collect_thread_outcomes: bool,
    /// Keep the graph of the first complete execution ([`Stats::sample`]), for a
    /// witness of a run without errors (`porf verify --print-execution`).
    pub keep_sample: bool,
    /// RVF explorer: record the class key of every maximal trace
    /// ([`Stats::rvf_class_keys`]).
    pub collect_rvf_classes: bool,
    /// Report threads that spin forever in blocked executions ([`liveness`]) as
    /// [`ErrorClass::Liveness`] errors.
    pub check_liveness: bool,
    /// Do not report data races (GenMC's `-disable-race-detection`): a racy execution
    /// goes on as any other; every other error is still reported.
    pub disable_race_detection: bool,
    /// Report heap blocks never freed in a complete execution as memory errors, one
    /// per allocation site ([`crate::leaks`]); without it they are counted in
    /// [`Stats::leaks`] for a warning.
    pub check_leaks: bool,
    /// Optimal explorer, co mode under TruSt's maximality rule: also explore the
    /// subtrees that hold blocked executions only ([`stale`]: a lock acquire's
    /// non-maximal choices that read a taken lock, spin-assume blocks, failed assumes
    /// and library waits decided by a non-maximal read). By default they are skipped:
    /// complete executions, errors and deadlocks are the same either way, and only the
    /// blocked (and, with keep-going, erroneous) counts differ. Tests that compare
    /// blocked counts with an explorer that enumerates every execution set it.
    pub explore_stale_blocks: bool,
    /// Turn symmetry reduction off ([`symmetry`], GenMC's `-disable-sr`): the optimal
    /// explorer in co mode, under TruSt's maximality rule, otherwise explores
    /// executions that differ only by swapping two threads declared symmetric once.
    pub disable_sr: bool,
    /// Optimal explorer: do not hold back a thread whose next load, reading the
    /// co-latest write of its location, would block it at once (`--disable-ipr`, after
    /// GenMC's switch for in-place revisiting, whose effect this has; [`bam`], "Spin
    /// waits"). Same executions either way; only the blocked count and the time differ.
    pub disable_ipr: bool,
    /// Optimal explorer: add events in the plain order (lowest-numbered thread first)
    /// even when threads announce awaited loads (`--disable-bam`); by default a thread
    /// at an awaited load waits for its value ([`bam`]). Same executions either way;
    /// only the blocked count and the time differ.
    pub disable_bam: bool,
    /// Values explorer: try every rf and every co permutation of each candidate,
    /// asking the model at the leaves, instead of cutting the choices RMW atomicity
    /// and, for models that claim it, SC per location rule out; deferred explorer: do
    /// not prune decided prefixes by the same two ([`deferred::prefix`])
    /// (`--disable-candidate-pruning`; [`values`], "Pruning"). Same executions either
    /// way; only the time differs.
    pub disable_candidate_pruning: bool,
    /// Worker threads for the optimal explorer ([`parallel`]); 0 and 1 mean one. The
    /// result does not depend on it, except where a limit (`timeout`) cut the
    /// exploration; configurations whose exploration keeps state across subtrees run
    /// on one thread whatever it says ([`parallel::one_thread_reason`]).
    pub threads: usize,
    /// Testing the parallel explorer: hand a subtree over at every branch while fewer
    /// tasks than workers wait, even when no worker is idle, so that small programs
    /// exercise every path of [`parallel`] (the result must not change).
    pub eager_split: bool,
    /// Live counters for a progress display ([`progress`]): every recorder of the
    /// exploration adds to them as it goes.
    pub progress: Option<Arc<progress::Progress>>,
    /// The first execution to reach a size well below
    /// [`Config::max_events_per_execution`] is recorded here ([`growth`]), for an
    /// early diagnostic.
    pub growth: Option<Arc<growth::GrowthWatch>>,
}

/// Which explorer to run.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Strategy {
    Optimal,
    Reference,
    /// RF-SMC; requires [`Equiv::Rf`] and a model in [`rf_smc::MODELS`].
    RfSmc,
    /// RF-partSMC, RF-SMC's space-optimal variant; the same requirements.
    RfPartSmc,
    /// Value enumeration ([`values`]): the brute-force strategy for models that allow
    /// load buffering.
    Values,
    /// The deferred-read graph explorer ([`deferred`]): reads may read from writes
    /// added later; programs whose accesses carry their dependencies.
    Deferred,
}

/// The strategy to run when none is asked for: [`Strategy::Values`] for a model that
/// allows load buffering (it and [`Strategy::Deferred`], which refuses programs without
/// dependencies, reach its po ∪ rf cycles), else [`Strategy::Optimal`].
pub fn default_strategy(model: &dyn porf_models::MemoryModel) -> Strategy {
    if model.allows_load_buffering() {
        Strategy::Values
    } else {
        Strategy::Optimal
    }
}

/// Whether `strategy` can explore `model` under `equiv`; the reason if not. A model
/// that allows load buffering has two explorers, [`Strategy::Values`] and
/// [`Strategy::Deferred`]: the others add events in a po ∪ rf order and would miss its
/// executions. The RVF equivalence has
/// one explorer, for SC: `--equiv rvf` needs the optimal strategy and the `sc` model.
pub fn supported(
    strategy: Strategy,
    model: &dyn porf_models::MemoryModel,
    equiv: Equiv,
) -> Result<(), String> {
    if model.allows_load_buffering() && !matches!(strategy, Strategy::Values | Strategy::Deferred) {
        return Err(format!(
            "model {} allows load buffering (po ∪ rf cycles), which only the values and \
             deferred explorers enumerate: pass --explorer values",
            model.name()
        ));
    }
    if strategy == Strategy::Deferred && !model.forbids_dependency_cycles() {
        return Err(format!(
            "model {} may accept a cycle of rf and dependencies (LKMM: through plain \
             accesses), which the deferred explorer would not reach: pass --explorer values",
            model.name()
        ));
    }
    if equiv != Equiv::Rvf {
        return Ok(());
    }
    if model.name() != "sc" {
        return Err(format!(
            "--equiv rvf is implemented for --model sc only (not {}): pass --model sc",
            model.name()
        ));
    }
    if strategy != Strategy::Optimal {
        return Err("--equiv rvf has one explorer (the default, --explorer graph)".into());
    }
    Ok(())
}

/// Whether `strategy` can explore a program with atomic sections
/// ([`porf_graph::Program::atomic_sections`]) under `model` and `equiv`; the reason if
/// not. Only the reference explorer under `sc` in co mode can: it runs such programs as
/// interleavings ([`reference`], "Atomic sections"). The graph explorers are not
/// claimed: a consistency check that contracts each section to one node (acyclic
/// po ∪ rf ∪ co ∪ fr on the contracted graph) is monotone, but TruSt's maximality rule
/// also needs every maximal extension of a consistent graph to be consistent (a read
/// of the co-latest write, a write placed co-latest, only add edges into the new
/// event), and inside an open section they do not: thread 1 `atomic { a = x; c = z; }`,
/// thread 2 `x = 1; z = 1;`, with `a = x` reading 0 and thread 2's events added before
/// `c = z`: the section must precede `x = 1`, which precedes `z = 1`, so `c = z`
/// reading the co-latest `z = 1` closes a cycle through the section.
pub fn supported_sections(
    strategy: Strategy,
    model: &dyn porf_models::MemoryModel,
    equiv: Equiv,
) -> Result<(), String> {
    if model.name() != "sc" {
        return Err(format!(
            "atomic sections (SV-COMP's `__VERIFIER_atomic_*`) are supported under --model sc only (not {})",
            model.name()
        ));
    }
    if strategy != Strategy::Reference || equiv != Equiv::Co {
        return Err("atomic sections (SV-COMP's `__VERIFIER_atomic_*`) are supported by the reference explorer only (--explorer reference, --equiv co): the graph explorers would lose executions (porf_explore::supported_sections)".into());
    }
    Ok(())
}

/// The stack of every exploration thread: the explorers recurse once per event.
pub(crate) const STACK: usize = 1 << 30;

/// Runs `f` on a thread with a [`STACK`]-sized stack and returns its result (a panic
/// in `f` is resumed here).
pub(crate) fn on_large_stack<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("porf-explore".into())
            .stack_size(STACK)
            .spawn_scoped(s, || {
                memory::enter_exploration_thread(STACK);
                f()
            })
            .expect("cannot start the exploration thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// Runs `strategy` on `prog` under `model`, on a thread with a large stack (the
/// explorers recurse once per event). Panics on a combination [`supported`] rejects
/// (front ends ask it first).
pub fn explore<P: porf_graph::Program + Sync>(
    strategy: Strategy,
    prog: &P,
    model: &dyn porf_models::MemoryModel,
    cfg: &Config,
) -> Stats {
    if let Err(msg) = supported(strategy, model, cfg.equiv) {
        panic!("{msg}");
    }
    if prog.atomic_sections() {
        if let Err(msg) = supported_sections(strategy, model, cfg.equiv) {
            panic!("{msg}");
        }
    }
    let mut stats = on_large_stack(|| match strategy {
        Strategy::Optimal if cfg.equiv == Equiv::Rvf => rvf_smc::explore(prog, model, cfg),
        Strategy::Optimal => optimal::explore(prog, model, cfg),
        Strategy::Reference => reference::explore(prog, model, cfg),
        Strategy::RfSmc => rf_smc::explore(prog, model, cfg),
        Strategy::RfPartSmc => rf_smc::part::explore(prog, model, cfg),
        Strategy::Values => values::explore(prog, model, cfg),
        Strategy::Deferred => deferred::explore(prog, model, cfg),
    });
    if stats.parallel.workers == 0 {
        // A sequential explorer (RVF, reference, RF-SMC, values).
        stats.parallel.workers = 1;
        if cfg.threads > 1 {
            stats.parallel.one_thread_reason = Some("this explorer is sequential");
        }
    }
    stats
}
