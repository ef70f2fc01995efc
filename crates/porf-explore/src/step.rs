//! Turning a thread's [`Action`] into graph events: the parts every explorer shares.
//! Choice points (which write a read reads from, where a write goes in co) are the
//! explorers' business; everything deterministic is here.

use crate::state::{State, TidRegistry};
use porf_graph::{
    Action, ErrorKind, EventId, LabelKind, Loc, MemOrder, Program, ReadKind, SrcLoc, Tid, Val,
    WriteKind,
};
use porf_models::MemoryModel;

/// A memory access an action asks for, before any rf/co choice is made.
#[derive(Clone, Debug)]
pub enum Access {
    Read {
        loc: Loc,
        ord: MemOrder,
        kind: ReadKind,
        src: SrcLoc,
    },
    Write {
        loc: Loc,
        val: Val,
        ord: MemOrder,
        kind: WriteKind,
        src: SrcLoc,
    },
}

/// What performing an action amounts to.
pub enum Step {
    /// A read or write with choices to make.
    Access(Access),
    /// Deterministic events were added (and thread states pushed); the last one is given.
    Done(EventId),
}

/// The read order of an exclusive read that returned `val` (a failed compare-exchange
/// reads with its failure order).
pub fn read_order(kind: ReadKind, ord: MemOrder, val: Val) -> MemOrder {
    match kind {
        ReadKind::Rmw(op @ porf_graph::RmwOp::Cas { fail_ord, .. }) if op.apply(val).is_none() => {
            fail_ord
        }
        _ => ord,
    }
}

/// Adds an event and fills in its hb view.
pub fn add_event<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    t: Tid,
    kind: LabelKind,
    src: SrcLoc,
) -> EventId {
    let e = st.g.add(t, kind, src);
    st.g.label_mut(e).hb = model.hb_view(&st.g, e);
    e
}

/// Performs `action` of thread `t` if it involves no choice; otherwise describes the
/// access. Registers locations the access touches.
pub fn perform<P: Program>(
    st: &mut State<P>,
    prog: &P,
    model: &dyn MemoryModel,
    tids: &mut TidRegistry,
    t: Tid,
    action: Action,
) -> Step {
    let mut access = |loc: Loc, a: Access| {
        st.g.ensure_loc(loc, prog.init_value(loc));
        Step::Access(a)
    };
    match action {
        Action::Load { loc, ord, src } => access(
            loc,
            Access::Read {
                loc,
                ord,
                kind: ReadKind::Plain,
                src,
            },
        ),
        Action::Rmw { loc, op, ord, src } => access(
            loc,
            Access::Read {
                loc,
                ord,
                kind: ReadKind::Rmw(op),
                src,
            },
        ),
        Action::Lock { loc, src } => access(
            loc,
            Access::Read {
                loc,
                ord: MemOrder::Acquire,
                kind: ReadKind::Lock,
                src,
            },
        ),
        Action::TryLock { loc, src } => access(
            loc,
            Access::Read {
                loc,
                ord: MemOrder::Acquire,
                kind: ReadKind::TryLock,
                src,
            },
        ),
        Action::Store { loc, val, ord, src } => access(
            loc,
            Access::Write {
                loc,
                val,
                ord,
                kind: WriteKind::Plain,
                src,
            },
        ),
        Action::Unlock { loc, src } => access(
            loc,
            Access::Write {
                loc,
                val: 0,
                ord: MemOrder::Release,
                kind: WriteKind::Unlock,
                src,
            },
        ),
        Action::Fence { ord, src } => {
            let e = add_event(st, model, t, LabelKind::Fence { ord }, src);
            st.push_resumed(t, 0);
            Step::Done(e)
        }
        Action::Spawn { entry, arg, src } => {
            let child = tids.child(t, st.spawns_of(t));
            let s = add_event(st, model, t, LabelKind::Spawn { child }, src);
            st.push_resumed(t, child as Val);
            let start = st.start_thread(child, s, prog.spawn(child, entry, arg));
            st.g.label_mut(start).hb = model.hb_view(&st.g, start);
            Step::Done(start)
        }
        Action::Join { tid, src } => {
            let fin = st.g.last_of(tid).unwrap();
            let LabelKind::Finish { ret } = st.g.label(fin).kind else {
                unreachable!("join of an unfinished thread")
            };
            let e = add_event(st, model, t, LabelKind::Join { child: tid }, src);
            st.push_resumed(t, ret);
            Step::Done(e)
        }
        Action::Finish { ret } => {
            let e = add_event(st, model, t, LabelKind::Finish { ret }, SrcLoc::UNKNOWN);
            st.push_same(t);
            Step::Done(e)
        }
        Action::Block { src } => {
            let e = add_event(st, model, t, LabelKind::Block, src);
            st.push_same(t);
            Step::Done(e)
        }
        Action::Error { kind, msg, src } => {
            let e = add_event(st, model, t, LabelKind::Error { kind, msg }, src);
            st.push_same(t);
            Step::Done(e)
        }
    }
}

/// What follows a read once its source is fixed.
pub enum AfterRead {
    /// Nothing more: the thread goes on.
    Continue,
    /// The exclusive write part, with the value to write, must be added next.
    WritePart(Val),
    /// The thread is now blocked (a lock acquire saw a taken lock).
    Blocked,
}

/// Pushes the state of read `r`'s thread after `r` (which must be its thread's last
/// event, with no state pushed for it yet) and says what follows. A lock acquire that
/// sees a taken lock gets a `Block` event here.
pub fn after_read<P: Program>(st: &mut State<P>, model: &dyn MemoryModel, r: EventId) -> AfterRead {
    let kind = st.g.label(r).read_kind().unwrap();
    let val = st.g.read_val(r);
    debug_assert_eq!(st.ts[r.tid as usize].len() as u32, r.idx);
    if kind == ReadKind::Lock && val != 0 {
        st.push_same(r.tid);
        let src = st.g.label(r).src;
        add_event(st, model, r.tid, LabelKind::Block, src);
        st.push_same(r.tid);
        return AfterRead::Blocked;
    }
    st.push_resumed(r.tid, val);
    match kind.write_part(val) {
        Some(v) => AfterRead::WritePart(v),
        None => AfterRead::Continue,
    }
}

/// Adds the exclusive write part of read `r` (the thread's last event), writing `val`,
/// placed immediately after `r`'s source in co. The caller checks consistency.
pub fn add_write_part<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    r: EventId,
    val: Val,
) -> EventId {
    let (loc, ord, rf, src) = match st.g.label(r).kind {
        LabelKind::Read { loc, ord, rf, .. } => (loc, ord, rf, st.g.label(r).src),
        _ => unreachable!(),
    };
    let ord = if st.g.label(r).read_kind() == Some(ReadKind::Lock)
        || st.g.label(r).read_kind() == Some(ReadKind::TryLock)
    {
        MemOrder::Relaxed
    } else {
        ord
    };
    let w = add_event(
        st,
        model,
        r.tid,
        LabelKind::Write {
            loc,
            ord,
            val,
            kind: WriteKind::Exclusive,
        },
        src,
    );
    let pos = st.g.co_pos(rf) + 1;
    st.g.co_insert(w, pos);
    st.push_same(r.tid);
    w
}

/// The error report for an error event.
pub fn error_class(kind: ErrorKind) -> crate::ErrorClass {
    match kind {
        ErrorKind::Assertion => crate::ErrorClass::Assertion,
        ErrorKind::Abort => crate::ErrorClass::Abort,
        ErrorKind::Memory => crate::ErrorClass::Memory,
        ErrorKind::Unsupported => crate::ErrorClass::Unsupported,
    }
}
