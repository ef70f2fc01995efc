//! The coherence component of an exploration: *tracked* or *derived*.
//!
//! * [`Equiv::Co`] (tracked): an execution is (events, rf, co); the explorers branch
//!   over every consistent co position of every write, and the model checks the graph
//!   with its co.
//! * [`Equiv::Rf`] (derived): an execution is (events, rf). Writes get no co position
//!   of their own; after every change the model's exact check
//!   ([`MemoryModel::rf_consistent`]) decides whether *some* co makes the graph
//!   consistent and, if so, its witness is installed as the graph's co lists. Final
//!   values, the witness trace and the DOT graph then read that witness; races,
//!   lifetime errors and outcomes depend on rf and hb only.
//!
//! Invariant: in rf mode, whenever an explorer looks at a graph it has checked, the
//! graph's co lists are a witness the model accepted for that graph.

use porf_graph::{EventId, Graph, LabelKind, Loc};
use porf_models::atomicity;
use porf_models::rf::{self, CoWitness};
use porf_models::{MemoryModel, SourceCache};

/// Which executions are told apart.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Equiv {
    /// (events, rf, co), as GenMC counts.
    #[default]
    Co,
    /// (events, rf): one execution per reads-from class.
    Rf,
    /// Reads-value-from classes (events, the value each read reads, and the causal
    /// order of the reads): the RVF explorer ([`crate::rvf_smc`], SC only). Its graphs
    /// are traces: co is the trace's order of writes, and each read reads the latest
    /// write before it, so every check here treats them as in co mode.
    Rvf,
}

impl Equiv {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Equiv::Co => "co",
            Equiv::Rf => "rf",
            Equiv::Rvf => "rvf",
        }
    }
}

/// A model's yes to a graph, and the co that goes with it.
#[derive(Clone, Debug)]
pub enum Accepted {
    /// The graph's co lists as they were when asked (co mode: the execution's co; rf
    /// mode: the previous witness, extended by the new event, was checked consistent).
    Keep,
    /// rf mode: a new witness from the model's exact check.
    Witness(CoWitness),
}

impl Accepted {
    /// Makes the graph's co lists the accepted co. `base` is the co the graph had when
    /// the question was asked (see [`Coherence::snapshot`]), needed for `Keep` when
    /// other answers were installed since.
    pub fn install(&self, g: &mut Graph, base: Option<&CoWitness>) {
        match self {
            Accepted::Witness(co) => rf::install(g, co),
            Accepted::Keep => {
                if let Some(co) = base {
                    rf::install(g, co);
                }
            }
        }
    }
}

/// The coherence component: a model and an equivalence.
#[derive(Copy, Clone)]
pub struct Coherence<'m> {
    pub model: &'m dyn MemoryModel,
    pub equiv: Equiv,
}

impl<'m> Coherence<'m> {
    pub fn new(model: &'m dyn MemoryModel, equiv: Equiv) -> Coherence<'m> {
        Coherence { model, equiv }
    }

    /// True in co mode (and for the RVF explorer's traces, whose co is the trace's).
    pub fn tracked(&self) -> bool {
        self.equiv != Equiv::Rf
    }

    /// Whether `g` is consistent after `e` (its newest or just-changed event) was added
    /// or given a new source. Co mode asks the model's incremental check. Rf mode first
    /// tries the co the graph holds — the witness accepted before `e`, with a new
    /// write placed last (or, for an RMW's write part, right after its source) — with
    /// the same incremental check: if that co works, it is a witness; only otherwise
    /// is the model's exact check run on the whole graph. Both answers are exact: the
    /// first is a witness checked consistent, the second decides.
    ///
    /// Requires, as [`MemoryModel::consistent_with`] does, that `g` without `e`'s
    /// incident edges is consistent with the co it holds.
    pub fn accepts(&self, g: &Graph, e: EventId) -> Option<Accepted> {
        self.decide(g, e, &mut rf::RfStats::default())
    }

    /// [`Coherence::accepts`], counting the test in `stats` (rf mode): a success of the
    /// cheap path (the previous witness extended by `e`) as a test that passed, a
    /// failure of the model's staleness check as a pre-check refutation, and otherwise
    /// the model's exact check ([`MemoryModel::rf_check`]) with what decided it.
    fn decide(&self, g: &Graph, e: EventId, stats: &mut rf::RfStats) -> Option<Accepted> {
        let cheap = self.model.consistent_with(g, e);
        self.decide_given(g, e, cheap, stats)
    }

    /// [`Coherence::accepts`] for read `r` whose candidate sources are tried one after
    /// the other: the model's incremental check reuses what `cache` learnt from the
    /// earlier candidates ([`MemoryModel::consistent_source`]; `cache` was begun for
    /// `r` on this graph, and only `r`'s source changed since).
    pub fn accepts_source(
        &self,
        g: &Graph,
        r: EventId,
        cache: &mut SourceCache,
    ) -> Option<Accepted> {
        let cheap = self.model.consistent_source(g, r, cache);
        self.decide_given(g, r, cheap, &mut rf::RfStats::default())
    }

    /// [`Coherence::decide`] once the model's incremental check answered `cheap`.
    fn decide_given(
        &self,
        g: &Graph,
        e: EventId,
        cheap: bool,
        stats: &mut rf::RfStats,
    ) -> Option<Accepted> {
        if cheap && (self.tracked() || atomic_with(g, e)) {
            stats.tests += 1;
            return Some(Accepted::Keep);
        }
        if self.tracked() {
            return None;
        }
        let check = if self.model.reads_stale(g, e) {
            debug_assert!(self.model.rf_consistent(g).is_none());
            rf::RfCheck::refuted(rf::DecidedBy::Precheck)
        } else {
            self.model.rf_check(g)
        };
        stats.record(&check);
        check.witness.map(Accepted::Witness)
    }

    /// Rf mode: [`Coherence::check`], counting the test in `stats`: a pass of the cheap
    /// path as a passed test, otherwise the staleness pre-check's or the exact check's
    /// answer with what decided it.
    pub fn check_counted(&self, g: &mut Graph, e: EventId, stats: &mut rf::RfStats) -> bool {
        debug_assert!(!self.tracked());
        match self.decide(g, e, stats) {
            Some(a) => {
                a.install(g, None);
                true
            }
            None => false,
        }
    }

    /// [`Coherence::accepts`], installing the witness when accepted.
    pub fn check(&self, g: &mut Graph, e: EventId) -> bool {
        match self.accepts(g, e) {
            Some(a) => {
                a.install(g, None);
                true
            }
            None => false,
        }
    }

    /// In rf mode, the graph's current co (to restore for [`Accepted::Keep`] answers
    /// after other answers were installed); `None` in co mode.
    pub fn snapshot(&self, g: &Graph) -> Option<CoWitness> {
        (!self.tracked()).then(|| g.locations().map(|(l, i)| (*l, i.co.clone())).collect())
    }

    /// The declarative check of the whole graph (the reference explorer's): co mode
    /// [`MemoryModel::is_consistent`]; rf mode the exact check, installing its witness.
    pub fn check_whole(&self, g: &mut Graph) -> bool {
        match self.equiv {
            Equiv::Co | Equiv::Rvf => self.model.is_consistent(g),
            Equiv::Rf => match self.model.rf_consistent(g) {
                Some(co) => {
                    rf::install(g, &co);
                    true
                }
                None => false,
            },
        }
    }

    /// The writes a new read of `loc` may read from, before consistency is checked:
    /// the initialisation, then the location's writes (in co order in co mode, in
    /// insertion order in rf mode, where co means nothing yet).
    pub fn read_sources(&self, g: &Graph, loc: Loc) -> Vec<Option<EventId>> {
        let co = g.co(loc);
        let mut out = Vec::with_capacity(co.len() + 1);
        out.push(None);
        out.extend(co.iter().copied().map(Some));
        if !self.tracked() {
            out[1..].sort_by_key(|w| w.map(|w| g.label(w).stamp));
        }
        out
    }
}

/// RMW atomicity around `e` in the graph's co: an exclusive write `e` must sit right
/// after its source and share it with no other exclusive write; a plain write must not
/// split an RMW from its source.
fn atomic_with(g: &Graph, e: EventId) -> bool {
    let lab = g.label(e);
    match lab.kind {
        LabelKind::Write { .. } if lab.is_exclusive_write() => {
            let r = atomicity::read_part(e);
            let (loc, rf) = (lab.loc().unwrap(), g.label(r).rf());
            g.co_next(loc, rf) == Some(e) && !atomicity::violated_by(g, e)
        }
        LabelKind::Write { .. } => !atomicity::splits_rmw(g, e),
        _ => true,
    }
}
