//! Turning a thread's [`Action`] into graph events: the parts every explorer shares.
//! Choice points (which write a read reads from, where a write goes in co) are the
//! explorers' business; everything deterministic is here.

use crate::mixed_size;
use crate::mutex;
use crate::state::{State, TidRegistry};
use crate::symmetry;
use porf_graph::{
    Action, BlockReason, ErrorKind, EventId, LabelKind, Loc, MemOrder, Program, ReadKind, SrcLoc,
    ThreadMachine, Tid, Val, WriteKind, MUTEX_DESTROYED,
};
use porf_models::{lifetime, MemoryModel};

/// A memory access an action asks for, before any rf/co choice is made.
#[derive(Clone, Debug)]
pub enum Access {
    Read {
        loc: Loc,
        bytes: u8,
        ord: MemOrder,
        kind: ReadKind,
        src: SrcLoc,
    },
    Write {
        loc: Loc,
        bytes: u8,
        val: Val,
        ord: MemOrder,
        kind: WriteKind,
        src: SrcLoc,
    },
}

impl Access {
    /// The event the access adds (a read with no source yet).
    pub fn label(&self) -> LabelKind {
        match *self {
            Access::Read {
                loc,
                bytes,
                ord,
                kind,
                ..
            } => LabelKind::Read {
                loc,
                bytes,
                ord,
                kind,
                rf: None,
            },
            Access::Write {
                loc,
                bytes,
                val,
                ord,
                kind,
                ..
            } => LabelKind::Write {
                loc,
                bytes,
                ord,
                val,
                kind,
            },
        }
    }

    /// The location the access touches.
    pub fn loc(&self) -> Loc {
        match *self {
            Access::Read { loc, .. } | Access::Write { loc, .. } => loc,
        }
    }

    /// Where in the source the access is.
    pub fn src(&self) -> SrcLoc {
        match *self {
            Access::Read { src, .. } | Access::Write { src, .. } => src,
        }
    }
}

/// Adds write `a` of thread `t` last in co (where co is derived, as in rf mode and the
/// trace explorers, a new write goes last) and resumes the thread.
pub fn add_write_last<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    t: Tid,
    a: &Access,
) -> EventId {
    let w = add_event(st, model, t, a.label(), a.src());
    st.push_resumed(t, 0);
    let loc = st.g.label(w).loc().unwrap();
    let n = st.g.co(loc).len();
    st.g.co_insert(w, n + 1);
    w
}

/// The width of a mutex operation's access: none (mutex operations name the first byte
/// of the lock word; see [`porf_graph::WIDTHLESS`]).
const MUTEX_BYTES: u8 = porf_graph::WIDTHLESS;

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

/// Makes `r` read from `w`, fixing its order (a failed CAS reads with its failure
/// order) and its hb view. `ord` is the order the read's action asked for.
pub fn set_source(
    model: &dyn MemoryModel,
    g: &mut porf_graph::Graph,
    r: EventId,
    w: Option<EventId>,
    ord: MemOrder,
) {
    g.set_rf(r, w);
    fix_source(model, g, r, ord);
}

/// After read `r` was given a new source: fixes its order (a failed CAS reads with
/// its failure order) and its hb view. `ord` is the order the read's action asked for.
pub fn fix_source(model: &dyn MemoryModel, g: &mut porf_graph::Graph, r: EventId, ord: MemOrder) {
    fix_order(g, r, ord);
    let hb = model.hb_view(g, r);
    g.label_mut(r).hb = hb;
}

/// [`set_source`] with `r`'s hb view already known: `hb` must be the view
/// [`set_source`] gave `r` with source `w` in a graph that differs from this one at
/// most in `r`'s source (so the model's answer would be the same).
pub fn set_known_source(
    g: &mut porf_graph::Graph,
    r: EventId,
    w: Option<EventId>,
    ord: MemOrder,
    hb: porf_graph::View,
) {
    g.set_rf(r, w);
    fix_order(g, r, ord);
    g.label_mut(r).hb = hb;
}

/// Fixes read `r`'s order for its source: a failed CAS reads with its failure order.
/// `ord` is the order the read's action asked for.
fn fix_order(g: &mut porf_graph::Graph, r: EventId, ord: MemOrder) {
    let val = g.read_val(r);
    if let LabelKind::Read { kind, ord: o, .. } = &mut g.label_mut(r).kind {
        *o = read_order(*kind, ord, val);
    }
}

/// The order the action behind read `r` asked for (before a failed CAS lowered it).
/// `r`'s thread must have a state before `r` (`st.ts[r.tid][r.idx - 1]`).
pub fn access_order<P: Program>(st: &mut State<P>, r: EventId) -> MemOrder {
    let pre: &P::Thread = &st.ts[r.tid as usize][r.idx as usize - 1];
    let action = pre.peeked().unwrap_or_else(|| pre.clone().peek());
    match action {
        Action::Load { ord, .. } | Action::Rmw { ord, .. } => ord,
        _ => MemOrder::Acquire,
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
/// access. The pipeline: [`check`] (an action that is an error before it touches
/// memory becomes an error event), then [`access`] (an access is described, its
/// location registered, and left to the explorer's choices), else [`add_deterministic`]
/// (the events of an action with no choice). An access mixed with one of the graph's
/// ([`mixed_size`]) becomes an unsupported error event: this is the one place every
/// explorer turns actions into accesses.
///
/// A spawn's symmetry declaration is dropped: only [`perform_symmetric`] keeps it.
pub fn perform<P: Program>(
    st: &mut State<P>,
    prog: &P,
    model: &dyn MemoryModel,
    tids: &mut TidRegistry,
    t: Tid,
    action: Action,
) -> Step {
    perform_symmetric(st, prog, model, tids, t, symmetry::undeclared(action))
}

/// [`perform`], keeping a spawn's symmetry declaration: the spawn event records the
/// child's symmetric predecessor when the declaration is valid
/// ([`symmetry::predecessor`]). For symmetry reduction only ([`crate::symmetry`]).
pub fn perform_symmetric<P: Program>(
    st: &mut State<P>,
    prog: &P,
    model: &dyn MemoryModel,
    tids: &mut TidRegistry,
    t: Tid,
    action: Action,
) -> Step {
    if let Some(error) = check(st, prog, t, &action) {
        return Step::Done(add_stopped(st, model, t, error, action.src()));
    }
    if let Some(a) = access(&action) {
        let loc = a.loc();
        st.g.ensure_loc(loc, prog.init_value(loc), prog.block_of(loc));
        return Step::Access(a);
    }
    Step::Done(add_deterministic(st, prog, model, tids, t, action))
}

/// The error event `action` of thread `t` is before it touches memory, if it is one:
/// an access mixed with one of the graph's ([`mixed_size`], unsupported), or an
/// unlock of a mutex the thread does not hold.
fn check<P: Program>(st: &State<P>, prog: &P, t: Tid, action: &Action) -> Option<LabelKind> {
    if let Some(v) = mixed_size::violation(&st.g, action) {
        return Some(LabelKind::Error {
            kind: ErrorKind::Unsupported,
            msg: mixed_size::message(prog, &st.g, action, v),
        });
    }
    match *action {
        Action::Unlock { loc, .. } if !mutex::holds(&st.g, t, loc, st.g.thread_len(t)) => {
            Some(LabelKind::Error {
                kind: ErrorKind::Lock,
                msg: "invalid unlock: the thread does not hold the mutex".into(),
            })
        }
        _ => None,
    }
}

/// The memory access `action` asks for, if it is one (a load, RMW, store or mutex
/// operation).
fn access(action: &Action) -> Option<Access> {
    let read = |loc, bytes, ord, kind, src| Access::Read {
        loc,
        bytes,
        ord,
        kind,
        src,
    };
    let write = |loc, bytes, val, ord, kind, src| Access::Write {
        loc,
        bytes,
        val,
        ord,
        kind,
        src,
    };
    Some(match *action {
        Action::Load {
            loc,
            bytes,
            ord,
            copy,
            src,
        } => {
            let kind = if copy {
                ReadKind::Copy
            } else {
                ReadKind::Plain
            };
            read(loc, bytes, ord, kind, src)
        }
        Action::Rmw {
            loc,
            bytes,
            op,
            ord,
            src,
        } => read(loc, bytes, ord, ReadKind::Rmw(op), src),
        Action::Lock { loc, src } => read(loc, MUTEX_BYTES, MemOrder::Acquire, ReadKind::Lock, src),
        Action::TryLock { loc, src } => {
            read(loc, MUTEX_BYTES, MemOrder::Acquire, ReadKind::TryLock, src)
        }
        Action::Store {
            loc,
            bytes,
            val,
            ord,
            src,
        } => write(loc, bytes, val, ord, WriteKind::Plain, src),
        Action::Unlock { loc, src } => write(
            loc,
            MUTEX_BYTES,
            0,
            MemOrder::Release,
            WriteKind::Unlock,
            src,
        ),
        Action::MutexInit { loc, src } => write(
            loc,
            MUTEX_BYTES,
            0,
            MemOrder::NonAtomic,
            WriteKind::Plain,
            src,
        ),
        Action::MutexDestroy { loc, src } => write(
            loc,
            MUTEX_BYTES,
            MUTEX_DESTROYED,
            MemOrder::NonAtomic,
            WriteKind::MutexDestroy,
            src,
        ),
        _ => return None,
    })
}

/// Adds the events of `action` of thread `t`, an action that is no access, and pushes
/// the thread's state after them; returns the last one (a spawn's: the child's start).
fn add_deterministic<P: Program>(
    st: &mut State<P>,
    prog: &P,
    model: &dyn MemoryModel,
    tids: &mut TidRegistry,
    t: Tid,
    action: Action,
) -> EventId {
    let (kind, src) = match action {
        Action::Spawn {
            entry,
            arg,
            symmetric,
            src,
        } => {
            let child = tids.child(t, st.spawns_of(t));
            let symm = symmetry::predecessor(&st.g, t, entry, arg, symmetric);
            let kind = LabelKind::Spawn {
                child,
                entry,
                arg,
                symm,
            };
            let s = add_resumed(st, model, t, kind, src, child as Val);
            let start = st.start_thread(child, s, prog.spawn(child, entry, arg));
            st.g.label_mut(start).hb = model.hb_view(&st.g, start);
            return start;
        }
        Action::Join { tid, src } => {
            let fin = st.g.last_of(tid).unwrap();
            let LabelKind::Finish { ret } = st.g.label(fin).kind else {
                unreachable!("join of an unfinished thread")
            };
            return add_resumed(st, model, t, LabelKind::Join { child: tid }, src, ret);
        }
        Action::BlockSize { base, src } => return block_size(st, model, t, base, src),
        Action::Malloc {
            base,
            size,
            zeroed,
            src,
        } => (LabelKind::Malloc { base, size, zeroed }, src),
        Action::Free { base, src } => (
            LabelKind::Free {
                base,
                retire: false,
            },
            src,
        ),
        Action::Retire { base, src } => (LabelKind::Free { base, retire: true }, src),
        Action::Note { note, src } => (LabelKind::Note { note }, src),
        Action::Fence { ord, src } => (LabelKind::Fence { ord }, src),
        // Events after which the thread does not go on.
        Action::Finish { ret } => {
            return add_stopped(st, model, t, LabelKind::Finish { ret }, SrcLoc::UNKNOWN)
        }
        Action::Choose { src, what, .. } => {
            // The graph and reference explorers branch over choices before calling
            // `perform`; the trace explorers do not.
            let kind = LabelKind::Error {
                kind: ErrorKind::Unsupported,
                msg: format!(
                    "{what} is explored by the graph and reference explorers with --equiv co \
                     or rf, not by rf-smc or --equiv rvf"
                ),
            };
            return add_stopped(st, model, t, kind, src);
        }
        Action::Block { reason, src } => {
            return add_stopped(st, model, t, LabelKind::Block { reason }, src)
        }
        Action::Error { kind, msg, src } => {
            return add_stopped(st, model, t, LabelKind::Error { kind, msg }, src)
        }
        Action::Load { .. }
        | Action::Rmw { .. }
        | Action::Lock { .. }
        | Action::TryLock { .. }
        | Action::Store { .. }
        | Action::Unlock { .. }
        | Action::MutexInit { .. }
        | Action::MutexDestroy { .. } => unreachable!("accesses are not deterministic"),
    };
    add_resumed(st, model, t, kind, src, 0)
}

/// Adds event `kind` of thread `t` and resumes the thread with `val`.
fn add_resumed<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    t: Tid,
    kind: LabelKind,
    src: SrcLoc,
    val: Val,
) -> EventId {
    let e = add_event(st, model, t, kind, src);
    st.push_resumed(t, val);
    e
}

/// Adds event `kind` of thread `t` after which the thread does not go on (an error,
/// a block, its finish): its state stays the same.
fn add_stopped<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    t: Tid,
    kind: LabelKind,
    src: SrcLoc,
) -> EventId {
    let e = add_event(st, model, t, kind, src);
    st.push_same(t);
    e
}

/// Answers thread `t`'s [`Action::BlockSize`] query about the block at `base`: a
/// `BlockSize` event holding the size its malloc recorded, if that malloc happens-before
/// the query and no free of the block does; otherwise the error event a free would get
/// here (the message of [`porf_models::lifetime::Violation`]). Frees not hb-before the
/// query are left to the lifetime checks of the accesses and free that follow it.
fn block_size<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    t: Tid,
    base: Loc,
    src: SrcLoc,
) -> EventId {
    use porf_models::lifetime::Violation;
    let e = add_event(st, model, t, LabelKind::BlockSize { base, size: 0 }, src);
    let hb = &st.g.label(e).hb;
    let info = st.g.block(base);
    let malloc = info.and_then(|b| b.malloc).filter(|&(m, _)| hb.contains(m));
    let freed = info.is_some_and(|b| b.frees.iter().any(|&f| hb.contains(f)));
    let violation = match malloc {
        None => Some(Violation::FreeNonAllocated),
        Some(_) if freed => Some(Violation::DoubleFree),
        Some(_) => None,
    };
    match (violation, malloc) {
        (Some(v), _) => {
            st.g.label_mut(e).kind = LabelKind::Error {
                kind: ErrorKind::Memory,
                msg: v.message().into(),
            };
            st.push_same(t);
        }
        (None, Some((_, size))) => {
            st.g.label_mut(e).kind = LabelKind::BlockSize { base, size };
            st.push_resumed(t, size as Val);
        }
        (None, None) => unreachable!("no malloc is a violation"),
    }
    e
}

/// Adds the choice event of thread `t` taking value `val` (its action was
/// [`Action::Choose`]) and resumes the thread with `val`.
pub fn add_choice<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    t: Tid,
    val: Val,
    src: SrcLoc,
) -> EventId {
    let e = add_event(st, model, t, LabelKind::Choice { val }, src);
    st.push_resumed(t, val);
    e
}

/// What follows a read once its source is fixed.
pub enum AfterRead {
    /// Nothing more: the thread goes on.
    Continue,
    /// The exclusive write part, with the value to write, must be added next.
    WritePart(Val),
    /// The thread is now blocked (a lock acquire saw a taken lock).
    Blocked,
    /// The thread ended with an error event (a lock of a destroyed mutex).
    Ended,
}

/// Pushes the state of read `r`'s thread after `r` (which must be its thread's last
/// event, with no state pushed for it yet) and says what follows. A lock acquire that
/// sees a taken lock gets a `Block` event here, and a lock or trylock that reads a
/// destroyed mutex an `Error` event.
pub fn after_read<P: Program>(st: &mut State<P>, model: &dyn MemoryModel, r: EventId) -> AfterRead {
    let kind = st.g.label(r).read_kind().unwrap();
    let val = st.g.read_val(r);
    debug_assert_eq!(st.ts[r.tid as usize].len() as u32, r.idx);
    let destroyed =
        st.g.label(r)
            .rf()
            .is_some_and(|w| st.g.label(w).write_kind() == Some(WriteKind::MutexDestroy));
    if matches!(kind, ReadKind::Lock | ReadKind::TryLock) && destroyed {
        st.push_same(r.tid);
        let src = st.g.label(r).src;
        let err = LabelKind::Error {
            kind: ErrorKind::Memory,
            msg: "lock of a destroyed mutex (it reads uninitialised memory)".into(),
        };
        add_event(st, model, r.tid, err, src);
        st.push_same(r.tid);
        return AfterRead::Ended;
    }
    if kind == ReadKind::Lock && val != 0 {
        st.push_same(r.tid);
        let src = st.g.label(r).src;
        let block = LabelKind::Block {
            reason: BlockReason::Lock,
        };
        add_event(st, model, r.tid, block, src);
        st.push_same(r.tid);
        return AfterRead::Blocked;
    }
    if kind == ReadKind::Copy && lifetime::reads_uninitialised(&st.g, r) {
        st.push_resumed_uninit(r.tid);
        return AfterRead::Continue;
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
    let (loc, bytes, ord, rf, src) = match st.g.label(r).kind {
        LabelKind::Read {
            loc,
            bytes,
            ord,
            rf,
            ..
        } => (loc, bytes, ord, rf, st.g.label(r).src),
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
            bytes,
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
        ErrorKind::Lock => crate::ErrorClass::Lock,
        ErrorKind::Unsupported => crate::ErrorClass::Unsupported,
        ErrorKind::NonTermination => crate::ErrorClass::NonTermination,
    }
}
