//! [`CatModel`]: a loaded cat model as a porf [`MemoryModel`].
//!
//! Both consistency questions run the whole model over the whole graph
//! ([`crate::build::from_graph`], then [`crate::eval::evaluate`]): the incremental
//! `consistent_with` is the whole check too, but for RMW atomicity, which porf's
//! explorers handle themselves for every model
//! ([`crate::build::from_graph_without_atomicity`]: backward revisits pass through
//! graphs in which a new RMW reads a write another RMW already follows, and must not
//! be pruned there); `is_consistent` adds `porf_models::atomicity`. Flags do not make
//! a graph inconsistent: [`MemoryModel::flags`] names those a consistent graph raises
//! (herd's `flag` tests that hold and `undefined_unless` tests that fail), as herd
//! prints them beside its verdict. A consistency question that allows a graph has
//! evaluated every test, flags included (evaluation stops early only at a failed
//! check): the flags of the last execution allowed are kept with that execution, and
//! `flags` on a graph whose execution equals it gives them without evaluating again
//! (the verdict is a function of the execution).
//! What porf cannot know of an arbitrary model, it does not assume:
//! * `maximal_extensions_consistent` is false (the explorer keeps its set of revisit
//!   graphs instead of TruSt's maximality rule), `reads_stale` never prunes and
//!   `co_floor` is the default 0;
//! * `allows_load_buffering` is true unless the text shows an `acyclic` check over a
//!   relation including po and rf ([`crate::load_buffering`]);
//! * the hb views are those of porf's `sc`/`tso` (po, thread creation and join, rf
//!   between atomic accesses), used for heap-lifetime errors; data races are a
//!   model's own business (its `flag`s), so [`MemoryModel::has_data_races`] is false.
//!
//! A model error can only show when evaluating (a type error on one execution
//! kind only): [`CatModel::new`] evaluates the model once on the empty execution, so
//! errors that do not depend on the execution are found before any exploration;
//! a later one makes the graph inconsistent and is kept for
//! [`CatModel::runtime_error`].

use crate::ast::{CheckKind, Instr};
use crate::build::{from_graph, from_graph_without_atomicity};
use crate::diag::CatError;
use crate::eval::{evaluate, Verdict};
use crate::exec::Execution;
use crate::load::Loaded;
use porf_graph::{EventId, Graph, LabelKind, View};
use porf_models::{atomicity, MemoryModel};
use std::sync::{Arc, Mutex};

/// An execution a model allowed, with the flags it raised there.
type AllowedFlags = (Execution, Vec<String>);

/// A memory model given by a cat file. Clones share the model and the error slot.
#[derive(Clone, Debug)]
pub struct CatModel {
    model: Arc<Loaded>,
    name: &'static str,
    error: Arc<Mutex<Option<CatError>>>,
    /// [`crate::load_buffering::forbids_load_buffering`] of the model.
    forbids_lb: bool,
    /// Whether the model has a `flag` or `undefined_unless` test (if not, no graph
    /// raises a flag and [`MemoryModel::flags`] evaluates nothing).
    has_flags: bool,
    /// With `has_flags`: the last execution a consistency question allowed and the
    /// flags the model raised on it. Clones share it; a mismatch only costs an
    /// evaluation.
    last_allowed: Arc<Mutex<Option<AllowedFlags>>>,
}

impl CatModel {
    /// A model named `name` (leaked once: [`MemoryModel::name`] is `&'static`). Fails
    /// if the model does not evaluate on the empty execution (with every name a
    /// graph's execution defines).
    pub fn new(model: Loaded, name: &str) -> Result<CatModel, CatError> {
        // The empty execution as the builder makes it: every name a graph can give
        // (hardware sets included) is bound.
        let empty = from_graph(&porf_graph::Graph::new());
        evaluate(&model, &empty, false)?;
        Ok(CatModel {
            forbids_lb: crate::load_buffering::forbids_load_buffering(&model),
            has_flags: has_flag_tests(&model.prelude) || has_flag_tests(&model.instrs),
            model: Arc::new(model),
            name: Box::leak(name.to_string().into_boxed_str()),
            error: Arc::new(Mutex::new(None)),
            last_allowed: Arc::new(Mutex::new(None)),
        })
    }
    /// The model's verdict on `g` (all checks and flags).
    pub fn verdict(&self, g: &Graph) -> Result<Verdict, CatError> {
        evaluate(&self.model, &from_graph(g), false)
    }
    /// The first error met while evaluating on a graph, if any.
    pub fn runtime_error(&self) -> Option<CatError> {
        self.error.lock().map(|e| e.clone()).unwrap_or(None)
    }
    /// Whether the model allows `x`; an evaluation error is kept and denies it. With
    /// flag tests, an allowed `x` is kept with its flags for [`MemoryModel::flags`].
    fn allowed(&self, x: Execution) -> bool {
        match evaluate(&self.model, &x, true) {
            Ok(v) => {
                let allowed = v.allowed();
                if allowed && self.has_flags {
                    if let Ok(mut slot) = self.last_allowed.lock() {
                        *slot = Some((x, v.flags));
                    }
                }
                allowed
            }
            Err(e) => {
                if let Ok(mut slot) = self.error.lock() {
                    slot.get_or_insert(e);
                }
                false
            }
        }
    }
}

impl MemoryModel for CatModel {
    fn name(&self) -> &'static str {
        self.name
    }
    /// `{e}` ∪ the views of its po-predecessor, its spawn (for a start), the joined
    /// thread's last event (for a join), and an atomic read's atomic source.
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        let mut v = e.prev().map(|p| g.label(p).hb.clone()).unwrap_or_default();
        match g.label(e).kind {
            LabelKind::Start { parent: Some(p) } => v.join(&g.label(p).hb),
            LabelKind::Join { child } => {
                if let Some(fin) = g.last_of(child) {
                    v.join(&g.label(fin).hb);
                }
            }
            LabelKind::Read {
                ord, rf: Some(w), ..
            } if ord.is_atomic() && g.label(w).ord().is_some_and(|o| o.is_atomic()) => {
                v.join(&g.label(w).hb)
            }
            _ => {}
        }
        v.include(e);
        v
    }
    /// The whole model on the whole graph, but RMW atomicity: see
    /// [`from_graph_without_atomicity`].
    fn consistent_with(&self, g: &Graph, _e: EventId) -> bool {
        self.allowed(from_graph_without_atomicity(g))
    }
    /// porf's RMW atomicity and the whole model.
    fn is_consistent(&self, g: &Graph) -> bool {
        atomicity::holds(g) && self.allowed(from_graph(g))
    }
    fn reads_stale(&self, _g: &Graph, _r: EventId) -> bool {
        false
    }
    fn maximal_extensions_consistent(&self) -> bool {
        false
    }
    fn has_data_races(&self) -> bool {
        false
    }
    fn allows_load_buffering(&self) -> bool {
        !self.forbids_lb
    }
    /// The flags the whole model raises on `g` if it allows `g` (an evaluation error
    /// is kept as in [`CatModel::is_consistent`] and raises none): those kept by the
    /// consistency question that allowed the same execution, else evaluated.
    fn flags(&self, g: &Graph) -> Vec<&'static str> {
        if !self.has_flags {
            return Vec::new();
        }
        let x = from_graph(g);
        if let Ok(slot) = self.last_allowed.lock() {
            if let Some((y, flags)) = slot.as_ref() {
                if *y == x {
                    return flags.iter().map(|f| intern(f)).collect();
                }
            }
        }
        match evaluate(&self.model, &x, false) {
            Ok(v) if v.allowed() => v.flags.iter().map(|f| intern(f)).collect(),
            Ok(_) => Vec::new(),
            Err(e) => {
                if let Ok(mut slot) = self.error.lock() {
                    slot.get_or_insert(e);
                }
                Vec::new()
            }
        }
    }
}

/// Whether `instrs` (included files expanded) have a `flag` or `undefined_unless`
/// test anywhere: in either branch of a variant test, a procedure, a `forall` or a
/// `match` arm.
fn has_flag_tests(instrs: &[Instr]) -> bool {
    instrs.iter().any(|i| match i {
        Instr::Check { kind, .. } => matches!(kind, CheckKind::Flag | CheckKind::UndefinedUnless),
        Instr::IfVariant(_, yes, no) => has_flag_tests(yes) || has_flag_tests(no),
        Instr::Procedure(p) => has_flag_tests(&p.body),
        Instr::Forall { body, .. } => has_flag_tests(body),
        Instr::MatchTag(_, arms, _) => arms
            .arms
            .iter()
            .map(|(_, b)| b)
            .chain(&arms.default)
            .any(|b| has_flag_tests(b)),
        _ => false,
    })
}

/// A flag's name as the `&'static str` [`MemoryModel::flags`] gives: each distinct name
/// is leaked once (a model has a handful).
fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(n) = names.iter().find(|n| **n == name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(n);
    n
}
