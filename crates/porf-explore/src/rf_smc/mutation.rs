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

use crate::state::State;
use crate::step;
use porf_graph::{EventId, Graph, LabelKind, Program, View};
use porf_models::MemoryModel;
use std::collections::HashSet;

/// A mutation of read `r` (see the module documentation).
#[derive(Clone, Debug)]
pub struct Mutation {
    /// The mutated read, and the write it is to read from (`None`: the initialisation).
    pub r: EventId,
    pub w: Option<EventId>,
    /// The events after `r` that are kept, in insertion order.
    pub after: Vec<EventId>,
}

/// The plain mutation of `r` to `w`, if it is not cyclic.
pub fn direct(g: &Graph, r: EventId, w: Option<EventId>) -> Option<Mutation> {
    Some(Mutation {
        r,
        w,
        after: causes_after(g, r, w)?,
    })
}

/// The events after `r` (in insertion order) that precede `w` in P, in insertion
/// order, `w` included if it is after `r`; `None` if `r` itself precedes `w` (the
/// mutation would be cyclic). `w = None` is the initialisation, which precedes nothing.
/// P leaves out the reads-from edge of `r`.
pub fn causes_after(g: &Graph, r: EventId, w: Option<EventId>) -> Option<Vec<EventId>> {
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
            LabelKind::Read { rf: Some(src), .. } if e != r && src.tid != e.tid => {
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

/// What identifies a mutation within the schedule set of its read: `r` with its new
/// source, and the causal past (P: program order, spawns, joins, reads-from) of both,
/// every read in it with its source — the identity of "this read event reads from
/// that write event" in the unfolding of the program, whichever trace proposed it.
/// (Keying by the whole sequence τ' instead lets different traces propose the same
/// class again: the differential tests count such repeats.)
pub fn key(g: &Graph, m: &Mutation) -> Vec<u64> {
    let code = |e: EventId| ((e.tid as u64) << 32) | e.idx as u64;
    let src = |e: Option<EventId>| e.map_or(u64::MAX, code);
    let mut seen = HashSet::new();
    let mut stack: Vec<EventId> = vec![m.r];
    stack.extend(m.w);
    let mut k: Vec<(u64, u64)> = Vec::new();
    while let Some(e) = stack.pop() {
        if !seen.insert(e) {
            continue;
        }
        let lab = g.label(e);
        let rf = match lab.kind {
            _ if e == m.r => Some(m.w),
            LabelKind::Read { rf, .. } => Some(rf),
            _ => None,
        };
        if let Some(rf) = rf {
            stack.extend(rf);
        }
        k.push((code(e), rf.map_or(u64::MAX - 1, src)));
        stack.extend(e.prev());
        match lab.kind {
            LabelKind::Start { parent: Some(sp) } => stack.push(sp),
            LabelKind::Join { child } => stack.extend(g.last_of(child)),
            _ => {}
        }
    }
    k.sort_unstable();
    k.into_iter().flat_map(|(a, b)| [a, b]).collect()
}

/// The events a mutation keeps besides its read: per thread, a prefix.
fn kept(g: &Graph, m: &Mutation) -> View {
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
    debug_assert_eq!(keep.get(m.r.tid), m.r.idx);
    keep
}

/// The graph of a mutation, without the thread states: enough for the realisability
/// test. `r` must be a plain (not exclusive) read, so nothing in its thread follows
/// from its new source until the thread runs again.
pub fn graph(g: &Graph, model: &dyn MemoryModel, m: &Mutation) -> Graph {
    let lab = g.label(m.r);
    debug_assert!(!lab.is_exclusive_read());
    let LabelKind::Read {
        loc,
        bytes,
        ord,
        kind,
        ..
    } = lab.kind
    else {
        unreachable!("mutation of a non-read {}", m.r)
    };
    let mut g2 = g.restricted(&kept(g, m));
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
    g2
}

/// The state of a mutation whose [`graph`] `g2` (checked, with its witness installed)
/// was built from `st`: the kept thread states, and `r`'s thread resumed with the value
/// it now reads. Returns the state and the stamp of `r` in it.
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
