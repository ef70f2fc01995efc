//! Mutations of a trace (lines 6–16 of RF-SMC, Algorithm 3 of "The Reads-From
//! Equivalence for the TSO and PSO Memory Models"; the same construction as the
//! reads-from algorithm for SC it generalises).
//!
//! A trace is a porf graph whose insertion order is the paper's sequence τ of thread
//! events (porf's graphs have no separate buffer and memory events: a store is one
//! event, and the model's witness co says when it reached memory). A mutation of read
//! `r` to write `w` keeps the events before `r`, then the events after `r` that precede
//! `w` in P (program order, thread creation and joins, and the reads-from edges of
//! every read but `r`) — `causesafter` — and then `r` itself, reading from `w`.
//!
//! Invariant: the kept events are closed under P-predecessors, so they form a graph
//! every kept read of which reads a kept write; `r` is the last event of its thread
//! in it (a mutation with an event after `r` in program order in `causesafter` would
//! make `r` precede `w` in P, a cycle with `w → r`, and is never built).

use crate::state::{State, TidRegistry};
use crate::step::{self, Access, AfterRead, Step};
use porf_graph::{EventId, Graph, LabelKind, Program, ThreadMachine, View};
use porf_models::MemoryModel;

/// A mutation of read `r` (see the module documentation).
#[derive(Clone, Debug)]
pub struct Mutation {
    /// The mutated read, and the write it is to read from (`None`: the initialisation).
    pub r: EventId,
    pub w: Option<EventId>,
    /// The events after `r` that are kept, in insertion order.
    pub after: Vec<EventId>,
    /// A read of `after` given a new source and executed again, after the other kept
    /// events (see [`swap`]); it is the last kept event of its thread.
    pub displaced: Option<(EventId, Option<EventId>)>,
}

/// The plain mutation of `r` to `w`, if it is not cyclic.
pub fn direct(g: &Graph, r: EventId, w: Option<EventId>) -> Option<Mutation> {
    Some(Mutation {
        r,
        w,
        after: causes_after(g, r, w, None)?,
        displaced: None,
    })
}

/// The swap of two exclusive reads of one location: `x` reads `w0`, and the exclusive
/// read `d` reads a write that `x` precedes in P (`x`'s own write part, the unlock
/// that ends `x`'s critical section, or a later link of the chain). Making `x` read `d`'s write part is a
/// cycle, and making `d` read `w0` breaks atomicity with `x`: the class where `d` reads
/// `w0` and `x` reads `d`'s write part needs both changes at once. The mutation keeps
/// the events before `x`, the causal past of `d` after `x` (without `d`'s own
/// reads-from edge), `d` reading `w0`, and `x` reading `d`'s new write part (which,
/// for a lock that `d` now takes, blocks `x`). `None` if `d`'s past needs `x`.
pub fn swap(g: &Graph, x: EventId, d: EventId) -> Option<Mutation> {
    let w0 = g.label(x).rf();
    let after = causes_after(g, x, Some(d), Some(d))?;
    Some(Mutation {
        r: x,
        w: Some(EventId::new(d.tid, d.idx + 1)),
        after,
        displaced: Some((d, w0)),
    })
}

/// The events after `r` (in insertion order) that precede `w` in P, in insertion
/// order, `w` included if it is after `r`; `None` if `r` itself precedes `w` (the
/// mutation would be cyclic). `w = None` is the initialisation, which precedes nothing.
/// P leaves out the reads-from edges of `r` and of `skip`.
pub fn causes_after(
    g: &Graph,
    r: EventId,
    w: Option<EventId>,
    skip: Option<EventId>,
) -> Option<Vec<EventId>> {
    let s = g.label(r).stamp as usize;
    let Some(w) = w else {
        return Some(Vec::new());
    };
    let mut seen = vec![false; g.len()];
    let mut stack = Vec::new();
    let push = |e: EventId, stack: &mut Vec<EventId>, seen: &mut Vec<bool>| {
        let st = g.label(e).stamp as usize;
        if st >= s && !seen[st] {
            seen[st] = true;
            stack.push(e);
        }
    };
    push(w, &mut stack, &mut seen);
    while let Some(e) = stack.pop() {
        if e == r {
            return None;
        }
        if let Some(p) = e.prev() {
            push(p, &mut stack, &mut seen);
        }
        match g.label(e).kind {
            LabelKind::Start { parent: Some(sp) } => push(sp, &mut stack, &mut seen),
            LabelKind::Join { child } => {
                if let Some(f) = g.last_of(child) {
                    push(f, &mut stack, &mut seen);
                }
            }
            LabelKind::Read { rf: Some(src), .. }
                if e != r && Some(e) != skip && src.tid != e.tid =>
            {
                push(src, &mut stack, &mut seen)
            }
            _ => {}
        }
    }
    let order = g.insertion_order();
    Some(
        (s + 1..g.len())
            .filter(|&i| seen[i])
            .map(|i| order[i])
            .collect(),
    )
}

/// What identifies a mutation within the schedule set of its read: the sequence τ'
/// (the events before `r`, the kept events after it, the displaced read, `r`) and
/// every read's source.
pub fn key(g: &Graph, m: &Mutation) -> Vec<u64> {
    let code = |e: EventId| ((e.tid as u64) << 32) | e.idx as u64;
    let src = |e: Option<EventId>| e.map_or(u64::MAX, code);
    let s = g.label(m.r).stamp as usize;
    let d = m.displaced.map(|(d, _)| d);
    let mut k = Vec::with_capacity(2 * (s + m.after.len() + 2));
    for &e in g.insertion_order()[..s].iter().chain(&m.after) {
        if Some(e) == d {
            continue;
        }
        k.push(code(e));
        if let LabelKind::Read { rf, .. } = g.label(e).kind {
            k.push(src(rf));
        }
    }
    for (e, w) in m.displaced.iter().copied().chain([(m.r, m.w)]) {
        k.push(code(e));
        k.push(src(w));
    }
    k
}

/// The state of a mutation: the events before `r`, the kept events after it, the
/// displaced read (if any) executed again with its new source, then `r` reading from
/// `w`, each read followed by what it implies for its thread (an RMW's write part, a
/// block, an error event). Not yet checked for consistency; its co lists are stale.
/// Returns the state and the stamp of `r` in it (`r` and what follows it are new), or
/// `None` if the displaced read, executed again, has no write part for `r` to read.
pub fn build<P: Program>(
    st: &State<P>,
    prog: &P,
    model: &dyn MemoryModel,
    tids: &mut TidRegistry,
    m: &Mutation,
) -> Option<(State<P>, usize)> {
    let g = &st.g;
    let s = g.label(m.r).stamp;
    let mut keep = View::new();
    for t in 0..g.num_threads() {
        keep.set(t, g.thread(t).partition_point(|l| l.stamp < s) as u32);
    }
    for &e in &m.after {
        if keep.get(e.tid) <= e.idx {
            keep.set(e.tid, e.idx + 1);
        }
    }
    if let Some((d, _)) = m.displaced {
        debug_assert_eq!(keep.get(d.tid), d.idx + 1);
        keep.set(d.tid, d.idx);
    }
    debug_assert_eq!(keep.get(m.r.tid), m.r.idx);
    let mut st2 = st.restricted(&keep);
    if let Some((d, src)) = m.displaced {
        execute_read(&mut st2, prog, model, tids, d, src);
        let w = m.w.unwrap();
        if !st2.g.contains(w) || !st2.g.label(w).is_exclusive_write() {
            return None;
        }
    }
    let fresh = st2.g.len();
    execute_read(&mut st2, prog, model, tids, m.r, m.w);
    Some((st2, fresh))
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
    let action = st.ts[r.tid as usize].last_mut().unwrap().peek();
    let Step::Access(Access::Read {
        loc,
        bytes,
        ord,
        kind,
        src,
    }) = step::perform(st, prog, model, tids, r.tid, action)
    else {
        unreachable!("the action behind read {r} is not a read")
    };
    let lab = LabelKind::Read {
        loc,
        bytes,
        ord,
        kind,
        rf: None,
    };
    let r2 = st.g.add(r.tid, lab, src);
    debug_assert_eq!(r2, r);
    step::set_source(model, &mut st.g, r, w, ord);
    if let AfterRead::WritePart(val) = step::after_read(st, model, r) {
        step::add_write_part(st, model, r, val);
    }
}
