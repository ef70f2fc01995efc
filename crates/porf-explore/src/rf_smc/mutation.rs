//! Mutations of a trace (lines 6–16 of RF-SMC, Algorithm 3 of "The Reads-From
//! Equivalence for the TSO and PSO Memory Models"; the same construction as the
//! reads-from algorithm for SC it generalises).
//!
//! A call's trace is a sequence τ of thread events ([`Trace::tau`]; porf's graphs have
//! no separate buffer and memory events: a store is one event, and the model's witness
//! co says when it reached memory). A mutation of read `r` to write `w` keeps the events
//! before `r` in τ, then `r` reading from `w`, then `causesafter`: the events after `r`
//! in τ that precede `w` in P (program order, thread creation and joins, and the
//! reads-from edges of every read but `r`). As in the paper, τ' puts `r` *before*
//! `causesafter`: τ' is bookkeeping, not a trace (the graph, built in a porf-respecting
//! order, and its witness are the trace), and with `r` right after the events before
//! it, the events before `r` — which name the schedule set of `r` — are the same in
//! every call that mutates `r` again.
//!
//! Invariant: the kept events are closed under P-predecessors, so every kept read reads
//! a kept write, and `r` is the last event of its thread among them (a `causesafter`
//! with an event after `r` in program order would make `r` precede `w` in P, a cycle
//! with `w → r`, and is never built).

use crate::state::{State, TidRegistry};
use crate::step::{self, Access, AfterRead, Step};
use porf_graph::{EventId, Graph, LabelKind, Program, View};
use porf_models::MemoryModel;
use std::collections::HashMap;

/// A maximal trace: the graph (with its witness co) and the sequence τ of its events.
pub struct Trace<'s, P: Program> {
    pub st: &'s State<P>,
    pub tau: Vec<EventId>,
    /// Position of every event in `tau`.
    pub pos: HashMap<EventId, usize>,
}

impl<'s, P: Program> Trace<'s, P> {
    pub fn new(st: &'s State<P>, tau: Vec<EventId>) -> Trace<'s, P> {
        debug_assert_eq!(tau.len(), st.g.len());
        let pos = tau.iter().enumerate().map(|(i, &e)| (e, i)).collect();
        Trace { st, tau, pos }
    }
    pub fn g(&self) -> &'s Graph {
        &self.st.g
    }
}

/// A mutation of read `r` (see the module documentation).
#[derive(Clone, Debug)]
pub struct Mutation {
    /// The mutated read, and the write it is to read from (`None`: the initialisation).
    pub r: EventId,
    pub w: Option<EventId>,
    /// `causesafter`: the events after `r` that are kept, in τ order.
    pub after: Vec<EventId>,
    /// An exclusive read of `after` given a new source and executed again (see
    /// [`swap`]); the last kept event of its thread.
    pub displaced: Option<(EventId, Option<EventId>)>,
}

/// The plain mutation of `r` to `w`, if it is not cyclic.
pub fn direct<P: Program>(tr: &Trace<P>, r: EventId, w: Option<EventId>) -> Option<Mutation> {
    Some(Mutation {
        r,
        w,
        after: causes_after(tr, r, w, None)?,
        displaced: None,
    })
}

/// The swap of two exclusive reads of one location (read-modify-writes, compare-
/// exchanges, lock acquires): `x` reads `w0`, and `d` reads a write that `x` precedes
/// in P (`x`'s own write part, the unlock ending `x`'s critical section, a later link
/// of the chain). Making `x` read `d`'s write part is a cycle, and making `d` read
/// `w0` breaks atomicity with `x`: the class where `d` reads `w0` and `x` reads `d`'s
/// write part needs both changes at once. This mutation of `x` keeps the events before
/// `x`, then `x` reading `d`'s write part, then the causal past of `d` (without `d`'s
/// reads-from edge) and of `w0` after `x`, with `d` executed again reading `w0`. `None`
/// if `d`'s past needs `x`.
pub fn swap<P: Program>(tr: &Trace<P>, x: EventId, d: EventId) -> Option<Mutation> {
    let w0 = tr.g().label(x).rf();
    let mut after = causes_after(tr, x, Some(d), Some(d))?;
    // τ may place `w0` after `x` (a mutated read comes before the causes of its
    // source): keep its causes too.
    after.extend(causes_after(tr, x, w0, None)?);
    after.sort_by_key(|e| tr.pos[e]);
    after.dedup();
    Some(Mutation {
        r: x,
        w: Some(EventId::new(d.tid, d.idx + 1)),
        after,
        displaced: Some((d, w0)),
    })
}

/// Whether `a` precedes `b` in P (all reads-from edges).
pub fn precedes<P: Program>(tr: &Trace<P>, a: EventId, b: EventId) -> bool {
    let mut seen = vec![false; tr.tau.len()];
    let mut stack = vec![b];
    while let Some(e) = stack.pop() {
        if e == a {
            return true;
        }
        let i = tr.pos[&e];
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        p_preds(tr.g(), e, None, &mut stack);
    }
    false
}

/// Pushes the P-predecessors of `e`: its program-order predecessor, the spawn of a
/// thread start, the last event of a joined thread, and the source of a read (unless
/// `e` is `skip`).
fn p_preds(g: &Graph, e: EventId, skip: Option<EventId>, out: &mut Vec<EventId>) {
    out.extend(e.prev());
    match g.label(e).kind {
        LabelKind::Start { parent: Some(sp) } => out.push(sp),
        LabelKind::Join { child } => out.extend(g.last_of(child)),
        LabelKind::Read { rf: Some(src), .. } if Some(e) != skip && src.tid != e.tid => {
            out.push(src)
        }
        _ => {}
    }
}

/// The events after `r` in τ that precede `w` in P (leaving out the reads-from edges of
/// `r` and of `skip`), `w` included if it is after `r`, in τ order; `None` if `r`
/// itself precedes `w` (the mutation would be cyclic). `w = None` is the
/// initialisation, which precedes nothing.
fn causes_after<P: Program>(
    tr: &Trace<P>,
    r: EventId,
    w: Option<EventId>,
    skip: Option<EventId>,
) -> Option<Vec<EventId>> {
    let Some(w) = w else {
        return Some(Vec::new());
    };
    let g = tr.g();
    let at = tr.pos[&r];
    let mut seen = vec![false; tr.tau.len()];
    let mut stack = vec![w];
    while let Some(e) = stack.pop() {
        if e == r {
            return None;
        }
        let i = tr.pos[&e];
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        p_preds(g, e, skip, &mut stack);
    }
    Some(
        (at + 1..tr.tau.len())
            .filter(|&i| seen[i])
            .map(|i| tr.tau[i])
            .collect(),
    )
}

/// What identifies a mutation within the schedule set of its read: `r` with its new
/// source, and `causesafter` as a set, each read with its source (and a displaced read
/// with its new source and write part). The events before `r` are left out: they and
/// their sources are the same for every mutation of `r` in one set (a call keeps the
/// events before its mutated read as they were, so every call that mutates `r` again
/// has the same events before it). The order of `causesafter` is left out too: it
/// depends on the trace that proposed the mutation, not on the class.
pub fn key<P: Program>(tr: &Trace<P>, m: &Mutation) -> Vec<u64> {
    let g = tr.g();
    let code = |e: EventId| ((e.tid as u64) << 32) | e.idx as u64;
    let src = |e: Option<EventId>| e.map_or(u64::MAX, code);
    let mut k: Vec<(u64, u64)> = m
        .after
        .iter()
        .map(|&e| match (m.displaced, &g.label(e).kind) {
            (Some((d, w0)), _) if d == e => (code(e), src(w0)),
            (_, LabelKind::Read { rf, .. }) => (code(e), src(*rf)),
            _ => (code(e), u64::MAX - 1),
        })
        .collect();
    k.sort_unstable();
    let mut out = vec![code(m.r), src(m.w)];
    if m.displaced.is_some() {
        out.push(src(m.w));
    }
    out.extend(k.into_iter().flat_map(|(a, b)| [a, b]));
    out
}

/// The events a mutation keeps besides its mutated (and displaced) read: per thread, a
/// prefix.
fn kept<P: Program>(tr: &Trace<P>, m: &Mutation) -> View {
    let mut keep = View::new();
    let d = m.displaced.map(|(d, _)| d);
    let at = tr.pos[&m.r];
    for &e in tr.tau[..at].iter().chain(&m.after) {
        if Some(e) != d && keep.get(e.tid) <= e.idx {
            keep.set(e.tid, e.idx + 1);
        }
    }
    debug_assert_eq!(keep.get(m.r.tid), m.r.idx);
    keep
}

/// τ' of a mutation: the events before `r`, `r`, then `causesafter` (a displaced read
/// last, followed by its write part).
pub fn tau_of<P: Program>(tr: &Trace<P>, m: &Mutation) -> Vec<EventId> {
    let d = m.displaced.map(|(d, _)| d);
    let at = tr.pos[&m.r];
    let mut t: Vec<EventId> = tr.tau[..at].to_vec();
    t.push(m.r);
    t.extend(m.after.iter().copied().filter(|&e| Some(e) != d));
    if let (Some(d), Some(w)) = (d, m.w) {
        t.extend([d, w]);
    }
    t
}

/// The graph of a mutation of a plain read (not exclusive: nothing in its thread
/// follows from its new source until the thread runs again) that displaces no read,
/// without the thread states: enough for the realisability test, and cheaper than
/// [`build`]. `None` for other mutations.
pub fn plain_graph<P: Program>(
    tr: &Trace<P>,
    model: &dyn MemoryModel,
    m: &Mutation,
) -> Option<Graph> {
    let g = tr.g();
    let lab = g.label(m.r);
    if m.displaced.is_some() || lab.is_exclusive_read() {
        return None;
    }
    let LabelKind::Read {
        loc,
        bytes,
        ord,
        kind,
        ..
    } = lab.kind
    else {
        return None;
    };
    let mut g2 = g.restricted(&kept(tr, m));
    let read = LabelKind::Read {
        loc,
        bytes,
        ord,
        kind,
        rf: None,
    };
    let r = g2.add(m.r.tid, read, lab.src);
    debug_assert_eq!(r, m.r);
    step::set_source(model, &mut g2, r, m.w, ord);
    Some(g2)
}

/// The state of a [`plain_graph`] mutation whose graph `g2` (checked, with its witness
/// installed) was built from `st`: the kept thread states, and `r`'s thread resumed
/// with the value it now reads. Returns the state and the stamp of `r` in it.
pub fn with_threads<P: Program>(st: &State<P>, g2: Graph, m: &Mutation) -> (State<P>, usize) {
    let ts = (0..g2.num_threads())
        .map(|t| {
            let n = if t == m.r.tid {
                m.r.idx
            } else {
                g2.thread_len(t)
            };
            st.ts[t as usize][..n as usize].to_vec()
        })
        .collect();
    let fresh = g2.label(m.r).stamp as usize;
    let val = g2.read_val(m.r);
    let mut st2 = State { g: g2, ts };
    st2.push_resumed(m.r.tid, val);
    (st2, fresh)
}

/// The state of a mutation: the kept events, the displaced read (if any) executed
/// again with its new source, then `r` reading from `w`, each read followed by what it
/// implies for its thread (an RMW's write part, a block, an error event). Not yet
/// checked for consistency; its co lists are stale. Returns the state, the stamp of
/// its first new event (the displaced read, or `r`) and the stamp of `r`, or `None` if
/// the displaced read, executed again, has no write part for `r` to read.
pub fn build<P: Program>(
    tr: &Trace<P>,
    prog: &P,
    model: &dyn MemoryModel,
    tids: &mut TidRegistry,
    m: &Mutation,
) -> Option<(State<P>, usize, usize)> {
    let mut st2 = tr.st.restricted(&kept(tr, m));
    let first_new = st2.g.len();
    if let Some((d, src)) = m.displaced {
        execute_read(&mut st2, prog, model, tids, d, src);
        let w = m.w.unwrap();
        if !st2.g.contains(w) || !st2.g.label(w).is_exclusive_write() {
            return None;
        }
    }
    let fresh = st2.g.len();
    execute_read(&mut st2, prog, model, tids, m.r, m.w);
    Some((st2, first_new, fresh))
}

/// Executes the next action of `r`'s thread, which must be the read `r`, reading from
/// `w`, and what follows from it (write part, block or error event).
fn execute_read<P: Program>(
    st: &mut State<P>,
    prog: &P,
    model: &dyn MemoryModel,
    tids: &mut TidRegistry,
    r: EventId,
    w: Option<EventId>,
) {
    let action = st.peek(r.tid);
    let Step::Access(a @ Access::Read { ord, .. }) =
        step::perform(st, prog, model, tids, r.tid, action)
    else {
        unreachable!("the action behind read {r} is not a read")
    };
    let r2 = st.g.add(r.tid, a.label(), a.src());
    debug_assert_eq!(r2, r);
    step::set_source(model, &mut st.g, r, w, ord);
    if let AfterRead::WritePart(val) = step::after_read(st, model, r) {
        step::add_write_part(st, model, r, val);
    }
}
