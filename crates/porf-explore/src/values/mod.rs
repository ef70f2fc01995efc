//! Value enumeration, herd7's way: the exact brute-force explorer for models that
//! allow load buffering (po ∪ rf cycles), which the explorers that add events in a
//! po ∪ rf order ([`crate::optimal`], [`crate::reference`]) cannot reach.
//!
//! **The algorithm.** Every read's value is guessed from a finite *domain* per
//! location: the location's initial value and every value some run writes there.
//! [`script`] runs the program with every combination of guesses (threads stepped in
//! a fixed order, the lowest-numbered enabled thread first, each read answered with
//! its guess instead of a write's value): each run is a *script*, the events each
//! thread performs given its guesses. The domain starts with the initial values and
//! is grown to a fixpoint (the values the *grounded* scripts write are added, and the
//! scripts recomputed; [`script::grounded`]: the script's events can be performed in
//! some order, each read after a write of its guessed value), for at most [`MAX_ROUNDS`] rounds of at most [`MAX_DOMAIN`] values per
//! location; a domain that does not converge ends the exploration with an
//! unsupported error, never a guess. Then, for every script, [`candidates`] tries
//! every rf (each read reads a write of its location and of its guessed value, or
//! the initialisation when the initial value is the guess) and every co (each
//! location's writes in every order after the initialisation; in rf mode the
//! model's exact check finds a co), and keeps the graphs `model.is_consistent`
//! accepts.
//!
//! **Pruning** ([`prune`]; off with [`Config::disable_candidate_pruning`]). The rf
//! choices in which two RMWs' reads share a source, and the co orders in which an
//! RMW's write does not directly follow its read's source, are never built: every
//! model's check includes RMW atomicity. For a model that claims SC per location
//! ([`MemoryModel::uniproc`]) each location's orders are also checked against it
//! before the product of the locations' orders is taken. A lock location's co is then
//! the rf chain of its acquisitions, not every permutation of its writes. Each cut
//! candidate is one the model rejects, so the executions are the same.
//!
//! **The graph of a candidate.** When po ∪ rf (with spawn and join) is acyclic, the
//! candidate is *replayed*: its actions are performed again through [`crate::step`],
//! in an order respecting po, rf, spawn and join, each read given its chosen source,
//! exactly as [`crate::reference`] builds a graph (porf and hb views, read orders,
//! lock blocks, exclusive write parts, errors); the replayed thread runs must be the
//! script's (same events), else the candidate belongs to another script and is
//! dropped. When po ∪ rf has a cycle, the model must allow load buffering (else the
//! candidate is inconsistent: that is what [`MemoryModel::allows_load_buffering`]
//! false means) and the script's own graph is given its sources afterwards
//! ([`porf_graph::Graph::set_rf`]): its porf and hb views are then those of the order
//! the script added its events in, which is why such candidates are refused
//! (unsupported) when they hold what hb views decide (non-atomic accesses, heap
//! blocks, mutexes, copies of cells); hardware models read po, rf, co and
//! [`porf_graph::hw`] only.
//!
//! **Why it is exact.** Let E be a consistent execution whose every read reads a
//! value of the final domain D. Each thread's run in E is the thread's run given the
//! values it reads (machines are deterministic), and the fixed schedule of [`script`]
//! only orders threads that do not interact except through spawn and join, whose
//! answers (the child's id, its return value) the run fixes: so E's events are those
//! of exactly one script, and E's rf and co are among the candidates tried for it, so
//! E is found; a candidate of another script has other events (or other values read)
//! and is another execution, and the seen-set keeps the one (events, rf, co) a
//! script's candidates may share in rf mode. Conversely every kept graph is a
//! consistent execution of the program (its replay is one, or its script is the
//! threads' runs given the values its sources write). Every read of a consistent E
//! reads a value of D unless E has an *out-of-thin-air* cycle: take, in a po ∪ rf
//! order of E, the first read r reading a value outside D, and its source w; the
//! porf-prefix of w reads values of D only and reads from writes inside it, so it,
//! with every other read guessing its location's initial value, is a grounded script
//! over D, which writes w's value: so that value is in D, a contradiction. Without a
//! po ∪ rf order the same runs along rf and dependencies, whose cycle it needs. Models that
//! forbid load buffering forbid every po ∪ rf cycle, so for them Values is exact.
//! Models that allow it must forbid such *dependency* cycles (rf with the
//! address, data and control dependencies of [`porf_graph::hw`] and the control-flow
//! sources a front end reports beside them, [`porf_graph::hw::Deps::value`]: values
//! chosen by a branch that has ended; an event without
//! [`porf_graph::hw::Hw`] counts as depending on every earlier read of its thread):
//! the hardware models do, with their dependency-ordering axioms. Values checks every
//! consistent candidate for such a cycle and ends with an unsupported error when the
//! model accepts one (values then may justify themselves, and executions outside the
//! domain may be consistent too): necessary, not sufficient, so a model that allows
//! load buffering is exact here only when it forbids dependency cycles, as herd7
//! assumes too (it cannot solve for self-justifying values either).
//!
//! **Unsupported constructs.** One a thread reports itself (an
//! [`porf_graph::Action::Error`] of kind unsupported, e.g. a kernel test's access to
//! an address that is no location) is decided by the values the thread read: the
//! script keeps it as the thread's last event, and the exploration is refused only
//! when a consistent candidate holds it, as the other explorers refuse it only in a
//! consistent graph; a guessed run no consistent execution follows does not count.
//!
//! **Not supported**: the reads-value-from equivalence; atomic sections (interleaving
//! semantics); block-size queries, and unsupported error events [`crate::step`]
//! raises against the graph (mixed-size accesses), whose result depends on the order
//! events are added in; load-buffering candidates with non-atomic accesses, heap blocks,
//! mutexes or cell copies (above). Each ends the exploration with an unsupported
//! error. Cost: the product of the domains over the reads, times every rf and co:
//! for litmus-sized programs.

mod candidates;
mod prune;
pub(crate) mod script;

use crate::coherence::Coherence;
use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::{Config, ErrorClass, Stats};
use porf_graph::{Graph, Loc, Program, Val};
use porf_models::MemoryModel;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// At most this many rounds of growing the value domain.
pub const MAX_ROUNDS: usize = 32;
/// At most this many values in one location's domain.
pub const MAX_DOMAIN: usize = 64;

/// The values a read of each location may be guessed to read.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Domain(BTreeMap<Loc, BTreeSet<Val>>);

impl Domain {
    /// The guesses for a read of `loc` (whose initial value is `init`).
    fn values(&self, loc: Loc, init: Val) -> Vec<Val> {
        match self.0.get(&loc) {
            Some(s) => s.iter().copied().collect(),
            None => vec![init],
        }
    }

    /// Adds `val` to `loc`'s values (which hold `init`).
    fn add(&mut self, loc: Loc, init: Val, val: Val) {
        let s = self.0.entry(loc).or_insert_with(|| BTreeSet::from([init]));
        s.insert(val);
    }

    fn largest(&self) -> usize {
        self.0.values().map(|s| s.len()).max().unwrap_or(0)
    }
}

pub fn explore<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let mut ex = Values::new(prog, model, cfg);
    ex.run();
    ex.rec.finish()
}

pub(crate) struct Values<'a, 'c, P: Program> {
    pub(crate) prog: &'a P,
    pub(crate) model: &'a dyn MemoryModel,
    pub(crate) co: Coherence<'a>,
    pub(crate) rec: Recorder<'c>,
    pub(crate) tids: TidRegistry,
    /// Maximal consistent executions already classified (when `dedup`).
    pub(crate) seen: HashSet<Vec<i64>>,
    /// Whether a candidate may repeat an execution already kept, so that `seen` is
    /// needed: true here (a script's candidates share executions in rf mode); false for
    /// the deferred explorer, whose candidates are each tried once.
    pub(crate) dedup: bool,
    /// The exploration ended with an unsupported error.
    pub(crate) unsupported: bool,
    /// Cut the rf and co choices RMW atomicity and SC per location rule out
    /// ([`prune`]); off with [`Config::disable_candidate_pruning`].
    pub(crate) prune: bool,
}

impl<'a, 'c, P: Program> Values<'a, 'c, P> {
    /// A fresh exploration of `prog` under `model` with `cfg`'s equivalence and limits.
    pub(crate) fn new(prog: &'a P, model: &'a dyn MemoryModel, cfg: &'c Config) -> Self {
        Values {
            prog,
            model,
            co: Coherence::new(model, cfg.equiv),
            rec: Recorder::new(cfg, model),
            tids: TidRegistry::default(),
            seen: HashSet::new(),
            dedup: true,
            unsupported: false,
            prune: !cfg.disable_candidate_pruning,
        }
    }

    fn run(&mut self) {
        let mut domain = Domain::default();
        let mut rounds = 0;
        let lb = self.model.allows_load_buffering();
        loop {
            let mut next = domain.clone();
            let ok = self.scripts(&domain, &mut |_, s| {
                let g = &s.st.g;
                if !script::grounded(s, lb) {
                    return true;
                }
                for (_, l) in g.events() {
                    match l.kind {
                        porf_graph::LabelKind::Write { loc, val, .. } => {
                            next.add(loc, g.loc_info(loc).init_val, val)
                        }
                        // Reads of locations nobody writes still get their initial value.
                        porf_graph::LabelKind::Read { loc, .. } => {
                            let init = g.loc_info(loc).init_val;
                            next.add(loc, init, init)
                        }
                        _ => {}
                    }
                }
                true
            });
            if !ok || self.stop() {
                return;
            }
            if next == domain {
                break;
            }
            rounds += 1;
            if rounds > MAX_ROUNDS || next.largest() > MAX_DOMAIN {
                let msg = format!(
                    "the values explorer needs a finite set of values each read may read: \
                     after {rounds} rounds the values written still grow (a location has {} \
                     possible values; at most {MAX_DOMAIN} values and {MAX_ROUNDS} rounds)",
                    next.largest()
                );
                self.refuse(msg, &Graph::new());
                return;
            }
            domain = next;
        }
        // Under a model that forbids load buffering, a script that is not grounded has
        // no consistent candidate (po ∪ rf would have a cycle); under one that allows
        // it, its candidates are tried so that thin-air ones are seen (module docs).
        self.scripts(&domain.clone(), &mut |ex, s| {
            if lb || script::grounded(s, false) {
                ex.candidates(s);
            }
            !ex.stop()
        });
    }

    /// Whether the exploration must end (a limit, an error without keep-going, or an
    /// unsupported program).
    pub(crate) fn stop(&mut self) -> bool {
        self.unsupported || self.rec.stopped()
    }

    /// Ends the exploration with an unsupported error saying `msg`.
    pub(crate) fn refuse(&mut self, msg: String, g: &Graph) {
        if !self.unsupported {
            self.unsupported = true;
            self.rec.error(ErrorClass::Unsupported, msg, Vec::new(), g);
        }
    }

    /// A fresh initial state.
    pub(crate) fn initial(&self) -> State<P> {
        State::new(self.prog, self.model)
    }
}
