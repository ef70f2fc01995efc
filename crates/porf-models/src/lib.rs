//! Memory models: values that answer "is this execution graph consistent?".
//!
//! **Architecture invariant**: a model only answers questions about a graph. It never
//! drives an exploration, never sees a program or a thread (no `Program`,
//! `ThreadMachine` or `Action` here) and knows no explorer and no front end.
//!
//! **API boundary**: [`MemoryModel`] with [`by_name`], [`MODEL_NAMES`] and
//! [`HW_MODEL_NAMES`]; the model-independent error checks over a `&Graph`: [`race`],
//! [`lifetime`], [`atomicity`]; rf mode's witnesses, ground truth and exact checks: [`rf`],
//! [`rf::wb`] (with [`MemoryModel::rf_check`]'s [`rf::RfCheck`] saying what decided an
//! answer); VerifySC with good-writes for the RVF explorer: [`rvf`]; the causal models'
//! operational memory systems (an independent checker): [`causal::op`]; random
//! hardware graphs for differential tests: [`hwgen`]; the hardware models' view of a
//! graph: [`hwexec`].
//!
//! An execution here is (events, rf, co). Every model implements [`MemoryModel`]:
//! an incremental check used by the optimal explorer when it adds one event, a
//! declarative whole-graph check used by the reference explorer and by tests, and the
//! happens-before views that race detection and the incremental checks rely on.
//! Adding a model never touches an explorer: explorers only see `dyn MemoryModel`.
//!
//! Atomicity of RMWs (no two exclusive writes read the same write) is common to every
//! model and lives in [`atomicity`]; data races in [`race`]; use-after-free and other
//! errors of dynamically allocated memory in [`lifetime`].

#[macro_use]
mod hwmodel;

pub mod armv8;
pub mod atomicity;
pub mod causal;
pub mod floor;
pub mod hwexec;
pub mod hwgen;
pub(crate) mod hwrel;
pub mod imm;
pub mod lifetime;
pub mod lkmm;
pub mod orders;
pub mod power;
pub mod pso;
pub mod ra;
pub mod race;
pub mod rc11;
pub mod rc11_genmc;
pub mod relation;
pub mod rf;
pub mod riscv;
pub mod rvf;
pub mod sc;
pub mod source_cache;
pub mod tso;
pub mod uniproc;

use porf_graph::{EventId, Graph, Loc, View};
pub use source_cache::SourceCache;

/// A memory model.
///
/// Contract of the incremental methods: `e` is porf-maximal in `g` (no event has `e` in
/// its porf-prefix), `g` without `e`'s incident edges is consistent, and the hb views of
/// every other event are already filled in.
pub trait MemoryModel: Sync + Send {
    /// Short name (`sc`, `tso`, `pso`, `ra`, `rc11`, `rc11-genmc`, `wra`, `sra`, `armv8`,
    /// `riscv`, `power`, `imm`, `lkmm`).
    fn name(&self) -> &'static str;

    /// The happens-before prefix of `e` (reflexive): the events whose effects `e` is
    /// guaranteed to see. Data races are pairs of conflicting accesses, one of them
    /// non-atomic, neither in the other's view. A function of po, rf and the hb views
    /// stored in `g`, never of co: the explorers keep a view computed under one co
    /// after installing another (rf mode's witnesses).
    fn hb_view(&self, g: &Graph, e: EventId) -> View;

    /// Is `g` consistent, given that it was before `e` and its edges (rf into `e`, `e`'s
    /// place in co) were added? Atomicity is not checked here (see [`atomicity`]).
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool;

    /// [`MemoryModel::consistent_with`] for read `r` whose candidate sources an
    /// explorer tries one after the other: `cache` was [`SourceCache::begin`]-ed for
    /// `r` on this graph, and since then only `r`'s source (order, hb view) changed.
    /// Same answer as `consistent_with(g, r)`; models whose check is a DFS reuse what
    /// earlier candidates' searches learnt ([`source_cache`]). The default ignores the
    /// cache.
    fn consistent_source(&self, g: &Graph, r: EventId, cache: &mut SourceCache) -> bool {
        let _ = cache;
        self.consistent_with(g, r)
    }

    /// The declarative check of the whole graph, straight from the model's definition
    /// (hb views in `g` are ignored and recomputed). Includes atomicity.
    fn is_consistent(&self, g: &Graph) -> bool;

    /// rf mode: is there a coherence order under which `g` is consistent? If so, one
    /// such order (the `co` lists stored in `g` are ignored; hb views are used as
    /// stored). Must be exact: `Some` iff [`rf::brute_force`] finds an order. The
    /// default *is* that brute force (exponential); models override it with their
    /// exact algorithms.
    fn rf_consistent(&self, g: &Graph) -> Option<rf::CoWitness> {
        rf::brute_force(self, g)
    }

    /// rf mode: [`MemoryModel::rf_consistent`]'s answer together with what decided it
    /// (a local pre-check, the closure, or the search), for statistics. Contract:
    /// `rf_check(g).witness.is_some() == rf_consistent(g).is_some()` on every graph, and
    /// only a `None` witness may be decided by anything but [`rf::DecidedBy::Search`].
    /// The default calls [`MemoryModel::rf_consistent`] and says `Search`.
    fn rf_check(&self, g: &Graph) -> rf::RfCheck {
        rf::RfCheck::searched(self.rf_consistent(g))
    }

    /// rf mode: a cheap sufficient condition for read `r` (its source just set) to be
    /// inconsistent whatever the co, so that explorers need not ask
    /// [`MemoryModel::rf_consistent`]. Must never hold of a read in a graph that some
    /// co makes consistent. The default ([`rf::stale_by_hb`]) is right for models
    /// coherent with respect to their hb: `r` reads a write overwritten before it in
    /// hb, or the initial value though a write of its location happens before it.
    fn reads_stale(&self, g: &Graph, r: EventId) -> bool {
        rf::stale_by_hb(g, r)
    }

    /// A lower bound on the choices of a new access of `loc` whose hb prefix (before
    /// its own edges are added) is `view`: every read source of co position below the
    /// floor (init = 0) and every co placement of a write with fewer than `floor`
    /// writes co-before it is inconsistent, whatever the rest. Explorers skip those
    /// choices without asking [`MemoryModel::consistent_with`]: so the floor must be
    /// sound, never exact. The default, 0, prunes nothing; models coherent with
    /// respect to their hb return [`floor::hb_floor`].
    fn co_floor(&self, _g: &Graph, _loc: Loc, _view: &View) -> usize {
        0
    }

    /// Whether adding an event *maximally* to a consistent graph keeps it consistent:
    /// a read reading the co-latest write of its location, a write placed co-last.
    /// TruSt's maximality rule (the optimal explorer's duplicate-free co mode) rests
    /// on it. True of every model coherent with respect to its hb; false for WRA,
    /// where co plays no role, so the co-latest write may be one the reader saw
    /// overwritten. Explorers then fall back to remembering the graphs their
    /// backward revisits produce (the set U of GenMC, PLDI 2019), as in rf mode.
    fn maximal_extensions_consistent(&self) -> bool {
        true
    }

    /// Whether the model allows load buffering: a consistent execution whose po ∪ rf
    /// has a cycle (a read reading from a write added after it in every
    /// po ∪ rf-respecting order). False (the default) for the C11-style models, which
    /// require po ∪ rf acyclic; true for the hardware models that order only by
    /// dependencies and barriers (ARMv8, RISC-V, POWER, IMM, LKMM). The explorers that
    /// add events in a po ∪ rf order cannot reach the other executions; explorers refuse
    /// such a model unless they enumerate them (`porf-explore`'s `supported`).
    fn allows_load_buffering(&self) -> bool {
        false
    }

    /// Whether no consistent execution has a cycle of rf and the dependencies
    /// (`addr`, `data`, `ctrl` of `porf_graph::hw`) — what the deferred explorer needs
    /// to reach every execution (`porf-explore`'s `deferred`, property P2). True for a
    /// model that forbids load buffering (po ∪ rf acyclic includes these cycles); for
    /// one that allows it, only when shown: ARMv8, RISC-V, POWER and IMM order every
    /// dependency and each is checked on random graphs
    /// (`porf-explore/tests/deferred_dependencies.rs`); LKMM does not order plain
    /// accesses, so a cycle through them can be consistent (a flagged data race).
    fn forbids_dependency_cycles(&self) -> bool {
        !self.allows_load_buffering()
    }

    /// Whether every graph the model accepts satisfies SC per location
    /// ([`uniproc::holds`]: `acyclic(po-loc ∪ rf ∪ co ∪ fr)` at each location), so that
    /// an explorer may drop a candidate co or rf failing it at one location without
    /// asking the model. False by default (a model claims it only when its definition
    /// has the axiom, and a random-graph test checks the claim).
    fn uniproc(&self) -> bool {
        false
    }

    /// Whether the model has data races at all (the [`race`] checks apply). False for
    /// models in which every access synchronises whatever its memory order — the
    /// causal models of Lahav and Boker (TOPLAS 2022), [`causal`] — so that explorers
    /// report no race, and front ends no undefined behaviour, under them.
    fn has_data_races(&self) -> bool {
        true
    }

    /// herd's flags (`flag ~empty r as name`) the consistent, complete execution `g`
    /// raises: facts reported beside the verdict, which they do not change (the
    /// LKMM's `data-race`). None by default.
    fn flags(&self, _g: &Graph) -> Vec<&'static str> {
        Vec::new()
    }
}

/// The models porf knows, by name.
pub fn by_name(name: &str) -> Option<Box<dyn MemoryModel>> {
    Some(match name {
        "sc" => Box::new(sc::Sc),
        "tso" => Box::new(tso::Tso),
        "pso" => Box::new(pso::Pso),
        "ra" => Box::new(ra::Ra),
        "rc11" => Box::new(rc11::Rc11),
        "rc11-genmc" => Box::new(rc11_genmc::Rc11Genmc),
        "wra" => Box::new(causal::wra::Wra),
        "sra" => Box::new(causal::sra::Sra),
        "armv8" => Box::new(armv8::Armv8),
        "riscv" => Box::new(riscv::RiscV),
        "power" => Box::new(power::Power),
        "imm" => Box::new(imm::Imm),
        "lkmm" => Box::new(lkmm::Lkmm),
        _ => return None,
    })
}

/// The hardware models [`by_name`] also accepts, which allow load buffering
/// ([`MemoryModel::allows_load_buffering`]): explored by the values explorer only, and
/// offered for litmus tests (not for C programs, whose accesses carry no hardware
/// facts: their compilation to these models is not modelled yet).
pub const HW_MODEL_NAMES: &[&str] = &["armv8", "riscv", "power", "imm", "lkmm"];

/// Names accepted by [`by_name`] whose models every explorer runs (no load
/// buffering): the models `porf verify` offers.
pub const MODEL_NAMES: &[&str] = &["sc", "tso", "pso", "ra", "rc11", "rc11-genmc", "wra", "sra"];
