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

use porf_graph::{EventId, Graph, Loc};
use porf_models::rf::{self, CoWitness};
use porf_models::MemoryModel;

/// Which executions are told apart.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum Equiv {
    /// (events, rf, co), as GenMC counts.
    #[default]
    Co,
    /// (events, rf): one execution per reads-from class.
    Rf,
}

impl Equiv {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Equiv::Co => "co",
            Equiv::Rf => "rf",
        }
    }
}

/// A model's yes to a graph: in rf mode with the witness to install.
#[derive(Clone, Debug)]
pub struct Accepted(Option<CoWitness>);

impl Accepted {
    /// Makes the graph's co lists the witness (nothing to do in co mode).
    pub fn install(&self, g: &mut Graph) {
        if let Some(co) = &self.0 {
            rf::install(g, co);
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

    /// True in co mode.
    pub fn tracked(&self) -> bool {
        self.equiv == Equiv::Co
    }

    /// Whether `g` is consistent after `e` (its newest or just-changed event) was added
    /// or given a new source: co mode asks the model's incremental check; rf mode the
    /// exact check of the whole graph, whose witness comes with the answer.
    pub fn accepts(&self, g: &Graph, e: EventId) -> Option<Accepted> {
        match self.equiv {
            Equiv::Co => self.model.consistent_with(g, e).then_some(Accepted(None)),
            Equiv::Rf => self.model.rf_consistent(g).map(|co| Accepted(Some(co))),
        }
    }

    /// [`Coherence::accepts`], installing the witness when accepted.
    pub fn check(&self, g: &mut Graph, e: EventId) -> bool {
        match self.accepts(g, e) {
            Some(a) => {
                a.install(g);
                true
            }
            None => false,
        }
    }

    /// The declarative check of the whole graph (the reference explorer's): co mode
    /// [`MemoryModel::is_consistent`]; rf mode the exact check, installing its witness.
    pub fn check_whole(&self, g: &mut Graph) -> bool {
        match self.equiv {
            Equiv::Co => self.model.is_consistent(g),
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
        let mut ws: Vec<EventId> = g.co(loc).to_vec();
        if !self.tracked() {
            ws.sort_by_key(|&w| g.label(w).stamp);
        }
        std::iter::once(None).chain(ws.into_iter().map(Some)).collect()
    }
}
