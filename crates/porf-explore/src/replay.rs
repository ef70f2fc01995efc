//! Re-running the threads of a finished graph to recover what they printed and which
//! library call each event belongs to.
//!
//! Exploration keeps graphs, not thread states, for its witnesses. A thread is a
//! deterministic machine, so feeding it, event by event, the answers the graph records
//! (read values, spawned thread ids, joined threads' results) retraces its run; its
//! [`ThreadMachine::printed`] text is then attributed to the event it preceded, and its
//! [`ThreadMachine::operation`] to the event of the action it peeked.
//!
//! Invariant: one action per event, except the write part of an exclusive read (no
//! action of its own) and the `Block`/`Error` event the engine adds after a lock read
//! (no action either): exactly the correspondence of [`crate::step`].

use porf_graph::{
    Action, EventId, Graph, LabelKind, LibCall, Program, ReadKind, ThreadMachine, Val, WriteKind,
};
use std::collections::HashMap;

/// Text printed by the threads of `g`, each piece with the event it came before (the
/// thread's next event after the print), in thread order and then program order.
pub fn printed<P: Program>(prog: &P, g: &Graph) -> Vec<(EventId, String)> {
    let mut out = Vec::new();
    let mut seen: HashMap<u32, usize> = HashMap::new();
    retrace(prog, g, |e, m| {
        let seen = seen.entry(e.tid).or_default();
        for s in m.printed().into_iter().skip(*seen) {
            *seen += 1;
            out.push((e, s));
        }
    });
    out
}

/// The library call ([`ThreadMachine::operation`]) each event of `g` belongs to, for
/// the events that belong to one. The engine's events without an action of their own
/// (the write part of an exclusive read, what follows a lock read) belong to the call
/// of the event before them.
pub fn operations<P: Program>(prog: &P, g: &Graph) -> HashMap<EventId, LibCall> {
    let mut out = HashMap::new();
    retrace(prog, g, |e, m| {
        if let Some(op) = m.operation() {
            out.insert(e, op);
        }
    });
    for t in 0..g.num_threads() {
        for idx in 1..g.thread_len(t) {
            let e = EventId::new(t, idx);
            if engine_added(g, e) {
                if let Some(op) = e.prev().and_then(|p| out.get(&p)).cloned() {
                    out.insert(e, op);
                }
            }
        }
    }
    out
}

/// Retraces every thread of `g`, calling `visit` with each event that has an action of
/// its own and the machine that has just peeked that action.
fn retrace<P: Program>(prog: &P, g: &Graph, mut visit: impl FnMut(EventId, &P::Thread)) {
    let mut spawned: HashMap<u32, (u32, Val)> = HashMap::new();
    for t in 0..g.num_threads() {
        if !g.thread_exists(t) {
            continue;
        }
        let mut m = if t == 0 {
            prog.main_thread()
        } else {
            match spawned.get(&t) {
                Some(&(entry, arg)) => prog.spawn(t, entry, arg),
                None => continue,
            }
        };
        for idx in 1..g.thread_len(t) {
            let e = EventId::new(t, idx);
            let lab = g.label(e);
            if engine_added(g, e) {
                continue;
            }
            let action = m.peek();
            visit(e, &m);
            let ret = match &lab.kind {
                LabelKind::Finish { .. } | LabelKind::Block { .. } | LabelKind::Error { .. } => {
                    break
                }
                LabelKind::Spawn { child, .. } => {
                    if let Action::Spawn { entry, arg, .. } = action {
                        spawned.insert(*child, (entry, arg));
                    }
                    *child as Val
                }
                LabelKind::Read { .. } => g.read_val(e),
                LabelKind::Choice { val } => *val,
                LabelKind::BlockSize { size, .. } => *size as Val,
                LabelKind::Join { child } => match g.last_of(*child).map(|f| &g.label(f).kind) {
                    Some(LabelKind::Finish { ret }) => *ret,
                    _ => 0,
                },
                _ => 0,
            };
            m.resume(ret);
        }
    }
}

/// Events the engine adds without an action of their own: the write part of an
/// exclusive read, and what follows a lock read that saw a taken or destroyed mutex.
fn engine_added(g: &Graph, e: EventId) -> bool {
    let Some(p) = e.prev() else { return false };
    let prev_kind = match &g.label(p).kind {
        LabelKind::Read { kind, .. } => Some(*kind),
        _ => None,
    };
    match &g.label(e).kind {
        LabelKind::Write {
            kind: WriteKind::Exclusive,
            ..
        } => prev_kind.is_some_and(ReadKind::is_exclusive),
        LabelKind::Block { .. } => prev_kind == Some(ReadKind::Lock),
        LabelKind::Error { .. } => {
            matches!(prev_kind, Some(ReadKind::Lock | ReadKind::TryLock))
                && g.label(p)
                    .rf()
                    .is_some_and(|w| g.label(w).write_kind() == Some(WriteKind::MutexDestroy))
        }
        _ => false,
    }
}
