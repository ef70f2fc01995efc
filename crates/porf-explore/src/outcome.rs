//! What a maximal execution is: the one definition every explorer counts by.
//!
//! A graph is *maximal* when no thread can take a step. Then:
//! * it is **erroneous** if some thread raised an error;
//! * otherwise **complete** if every thread finished;
//! * otherwise **blocked** if some thread is blocked by a failed assume, or by a lock
//!   acquire that read a taken lock which a co-later write releases (the acquire read
//!   "too early": the execution where it waits is explored separately). In rf mode,
//!   where co is not part of the execution, the execution is a deadlock (below) if
//!   *some* co consistent with it leaves every such lock unreleased, and blocked
//!   otherwise;
//! * otherwise a **deadlock**: every unfinished thread waits for a lock that is never
//!   released, for a thread that never finishes, or in a library wait
//!   (`BlockReason::Wait`: condition variables, read-write locks) whose read saw the
//!   co-latest write of its location (a wait that read an older write is blocked,
//!   like a stale lock acquire). A thread that re-locks a mutex it
//!   already holds waits for itself: porf's mutexes are not recursive, so such a thread
//!   can never go on and the graph is a deadlock too (GenMC 0.11 counts it as blocked).
//!
//! "Co-later write" stands for "a write a retry of the thread could read" ([`sole_source`]).
//! In a model coherent with respect to its hb
//! ([`porf_models::MemoryModel::maximal_extensions_consistent`]) a retry can read only
//! the co-latest write or a later one. Not in WRA, where co plays no role: there a retry
//! may read any write not hb-overwritten before it, so a lock is held for good only if
//! every other write of it happens before the write the acquire read.

use crate::coherence::{Coherence, Equiv};
use crate::mutex;
use crate::state::State;
use porf_graph::{
    Action, BlockReason, EventId, Graph, LabelKind, Loc, MemOrder, Program, ReadKind, SrcLoc, Tid,
};

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Outcome {
    Complete,
    Blocked,
    Erroneous,
    Deadlock(Deadlock),
}

/// A deadlocked graph.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Deadlock {
    /// The waiting threads' last events (or pending joins) with their source locations.
    pub waiting: Vec<(EventId, SrcLoc)>,
    /// The threads among them that wait for a mutex they hold themselves.
    pub relocks: Vec<Tid>,
}

impl Deadlock {
    /// A one-line explanation.
    pub fn message(&self) -> String {
        if self.relocks.is_empty() {
            return "Every unfinished thread waits for a lock that is never released or for a thread that never finishes".into();
        }
        let ts: Vec<String> = self.relocks.iter().map(|t| format!("T{t}")).collect();
        format!(
            "{} re-lock{} a mutex {} already hold{} (normal mutexes are not recursive), and no other thread can go on",
            ts.join(", "),
            if ts.len() == 1 { "s" } else { "" },
            if ts.len() == 1 { "it" } else { "they" },
            if ts.len() == 1 { "s" } else { "" },
        )
    }
}

/// Why a thread that has not finished is stuck.
enum Stuck {
    Assume,
    StaleLock,
    /// Waits for a lock nobody releases; `true` if the thread holds it itself. In rf
    /// mode, only if the writes of `pending` (other writes of the lock that neither
    /// happen before nor after the write the acquire read) can all be co-before it.
    HeldLock(EventId, SrcLoc, bool, Pending),
    Join(EventId, SrcLoc),
    Error,
}

/// rf mode: pairs (u, w) of writes of a location such that the lock is held for good
/// only in a co placing u before w.
type Pending = Vec<(Loc, EventId, EventId)>;

/// Whether `rf` is the only write of `loc` a later read of the reading thread may read:
/// the co-latest write if the model is `coherent` (with respect to its hb), else a
/// write every other write of `loc` happens before (each other one is then
/// hb-overwritten for any later read of the thread; see the module documentation).
pub(crate) fn sole_source(g: &Graph, loc: Loc, rf: Option<EventId>, coherent: bool) -> bool {
    if coherent {
        return g.co_next(loc, rf).is_none();
    }
    g.co(loc)
        .iter()
        .all(|&w| Some(w) == rf || rf.is_some_and(|r| g.label(r).hb.contains(w)))
}

/// Whether the lock at `loc`, last acquired by write `w`, is released by a co-later
/// write (`None`: not in every co; then `pending` lists the writes that must all go
/// before `w` for it to stay held). Co mode reads the execution's co; a model that is
/// not `coherent` reads hb only ([`sole_source`]), in either mode.
fn released_later(
    g: &Graph,
    loc: Loc,
    w: Option<EventId>,
    equiv: Equiv,
    coherent: bool,
) -> Option<Pending> {
    if !coherent {
        return sole_source(g, loc, w, false).then(Vec::new);
    }
    let Some(w) = w.filter(|_| equiv == Equiv::Rf) else {
        return g.co_next(loc, w).is_none().then(Vec::new);
    };
    let mut pending = Vec::new();
    for &u in g.co(loc) {
        if u == w || g.label(w).hb.contains(u) {
            continue;
        }
        if g.label(u).hb.contains(w) {
            return None; // u happens after w: co-after it in every co.
        }
        pending.push((loc, u, w));
    }
    Some(pending)
}

/// rf mode: whether some co consistent with `g` puts every `u` before its `w`. Each
/// pair gets an observer thread reading `u` then `w` (relaxed): by read-read coherence
/// that forces `u` co-before `w`, and the observers constrain nothing else.
fn can_hold(co: &Coherence, g: &Graph, pending: &Pending) -> bool {
    if pending.is_empty() {
        return true;
    }
    let mut g = g.clone();
    let first = g.num_threads();
    for (t, &(loc, u, w)) in (first..).zip(pending.iter()) {
        let add = |g: &mut Graph, kind: LabelKind| {
            let e = g.add(t, kind, SrcLoc::UNKNOWN);
            g.label_mut(e).hb = co.model.hb_view(g, e);
        };
        add(&mut g, LabelKind::Start { parent: None });
        let bytes = g.label(w).bytes().unwrap_or(1);
        for rf in [u, w] {
            add(
                &mut g,
                LabelKind::Read {
                    loc,
                    bytes,
                    ord: MemOrder::Relaxed,
                    kind: ReadKind::Plain,
                    rf: Some(rf),
                },
            );
        }
    }
    co.model.rf_consistent(&g).is_some()
}

fn stuck<P: Program>(st: &mut State<P>, t: Tid, equiv: Equiv, coherent: bool) -> Stuck {
    let g = &st.g;
    let last = g.last_of(t).unwrap();
    match g.label(last).kind {
        LabelKind::Error { .. } => Stuck::Error,
        LabelKind::Block {
            reason: BlockReason::Wait,
        } => {
            // A library wait (condition variable, read-write lock): its last read saw
            // a value that did not let it go on. Waiting for good iff no co-later
            // write of that location exists (as for a lock acquire).
            let r = last.prev().expect("a wait block follows its read");
            let l = g.label(r);
            match l.kind {
                LabelKind::Read { loc, rf, .. } => {
                    match released_later(g, loc, rf, equiv, coherent) {
                        None => Stuck::StaleLock,
                        Some(pending) => Stuck::HeldLock(r, l.src, false, pending),
                    }
                }
                _ => Stuck::Assume,
            }
        }
        LabelKind::Block { .. } => {
            if let Some(r) = last.prev() {
                let l = g.label(r);
                if let LabelKind::Read {
                    kind: ReadKind::Lock,
                    loc,
                    rf,
                    ..
                } = l.kind
                {
                    if g.read_val(r) != 0 {
                        return match released_later(g, loc, rf, equiv, coherent) {
                            None => Stuck::StaleLock,
                            Some(pending) => {
                                Stuck::HeldLock(r, l.src, mutex::holds(g, t, loc, r.idx), pending)
                            }
                        };
                    }
                }
            }
            Stuck::Assume
        }
        _ => match st.peek(t) {
            a @ Action::Join { .. } => Stuck::Join(last, a.src()),
            // Excluded for good by another thread's atomic section, which ended
            // (blocked or failed) inside it: the execution is blocked.
            _ => Stuck::Assume,
        },
    }
}

/// Classifies a maximal state (no thread can take a step).
pub fn classify<P: Program>(st: &mut State<P>, co: &Coherence) -> Outcome {
    let mut blocked = false;
    let mut waiting = Vec::new();
    let mut relocks = Vec::new();
    let mut pending = Vec::new();
    let mut error = false;
    let coherent = co.model.maximal_extensions_consistent();
    for t in 0..st.g.num_threads() {
        if !st.g.thread_exists(t) || st.finished(t) {
            continue;
        }
        match stuck(st, t, co.equiv, coherent) {
            Stuck::Error => error = true,
            Stuck::Assume | Stuck::StaleLock => blocked = true,
            Stuck::HeldLock(e, s, own, p) => {
                if own {
                    relocks.push(t);
                }
                pending.extend(p);
                waiting.push((e, s))
            }
            Stuck::Join(e, s) => waiting.push((e, s)),
        }
    }
    if error {
        Outcome::Erroneous
    } else if blocked || (!waiting.is_empty() && !can_hold(co, &st.g, &pending)) {
        Outcome::Blocked
    } else if waiting.is_empty() {
        Outcome::Complete
    } else {
        Outcome::Deadlock(Deadlock { waiting, relocks })
    }
}
