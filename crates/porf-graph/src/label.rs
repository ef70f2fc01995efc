//! Events of an execution graph.

use crate::action::{BlockReason, ErrorKind, Loc, MemOrder, RmwOp, SrcLoc, Tid, Val};
use crate::view::View;
use std::fmt;

/// An event: the `idx`-th event of thread `tid` (index 0 is the thread's start).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct EventId {
    pub tid: Tid,
    pub idx: u32,
}

impl EventId {
    pub const fn new(tid: Tid, idx: u32) -> EventId {
        EventId { tid, idx }
    }
    /// The po-predecessor (None for a thread's start event).
    pub fn prev(self) -> Option<EventId> {
        (self.idx > 0).then(|| EventId::new(self.tid, self.idx - 1))
    }
    pub fn next(self) -> EventId {
        EventId::new(self.tid, self.idx + 1)
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.tid, self.idx)
    }
}

/// What kind of read an event is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ReadKind {
    Plain,
    /// The read part of an RMW; a write part follows iff `op.apply(value)` is `Some`.
    Rmw(RmwOp),
    /// A mutex acquire: reads the lock; value 0 means acquired (a write of 1 follows),
    /// anything else blocks the thread.
    Lock,
    /// A mutex try-acquire: like `Lock`, but a taken lock does not block.
    TryLock,
    /// A non-atomic read that copies a cell ([`crate::Action::Load`] with `copy`): when
    /// it reads a heap cell no write has initialised (no `rf`, block not zero-filled),
    /// that is not an error; the thread is told instead
    /// ([`crate::ThreadMachine::resume_uninit`]), so that a copy of an uninitialised
    /// cell stays uninitialised.
    Copy,
}

impl ReadKind {
    /// The value written by the exclusive write part when the read returned `old`,
    /// or `None` when no write part follows.
    pub fn write_part(self, old: Val) -> Option<Val> {
        match self {
            ReadKind::Plain | ReadKind::Copy => None,
            ReadKind::Rmw(op) => op.apply(old),
            ReadKind::Lock | ReadKind::TryLock => (old == 0).then_some(1),
        }
    }
    /// True for the read part of an RMW, lock or trylock (an exclusive read).
    pub fn is_exclusive(self) -> bool {
        matches!(self, ReadKind::Rmw(_) | ReadKind::Lock | ReadKind::TryLock)
    }
}

/// The width of the accesses of mutex operations (lock, trylock, unlock, mutex init
/// and destroy): they name the mutex by the first byte of its lock word and have no
/// width of their own, so any access starting at that byte may share the location
/// with them (see the explorer's mixed-size check).
pub const WIDTHLESS: u8 = 0;

/// What kind of write an event is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WriteKind {
    Plain,
    /// The write part of an RMW (or of a lock acquire): its po-predecessor is the read
    /// part, and it is placed immediately after that read's source in co.
    Exclusive,
    /// A mutex release.
    Unlock,
    /// `pthread_mutex_destroy`: a non-atomic write of
    /// [`MUTEX_DESTROYED`](crate::action::MUTEX_DESTROYED); a lock reading it is an error.
    MutexDestroy,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LabelKind {
    /// A thread's first event; `parent` is the spawn event (None for the main thread).
    Start {
        parent: Option<EventId>,
    },
    /// A read of `bytes` bytes at `loc`; `rf` is the write it reads from (`None` = the
    /// location's initialisation). `bytes == 0`: a width-less mutex operation (a lock
    /// or trylock acquire; [`WIDTHLESS`]).
    Read {
        loc: Loc,
        bytes: u8,
        ord: MemOrder,
        kind: ReadKind,
        rf: Option<EventId>,
    },
    /// A write of `bytes` bytes at `loc`. `bytes == 0`: a width-less mutex operation
    /// (an unlock, a mutex init or destroy, the write part of an acquire; [`WIDTHLESS`]).
    Write {
        loc: Loc,
        bytes: u8,
        ord: MemOrder,
        val: Val,
        kind: WriteKind,
    },
    /// The allocation of the block `[base, base + size)`, zero-filled if `zeroed`.
    Malloc {
        base: Loc,
        size: u64,
        zeroed: bool,
    },
    /// The deallocation of the block allocated at `base`. `retire`: GenMC's
    /// `__VERIFIER_hp_retire` (a deferred free: for the use-after-free check, accesses
    /// a hazard pointer protects ([`Note::HpProtect`]) are exempt from it).
    Free {
        base: Loc,
        retire: bool,
    },
    /// A GenMC annotation ([`Note`]): touches no memory.
    Note {
        note: Note,
    },
    Fence {
        ord: MemOrder,
    },
    /// The spawn of thread `child` running `entry(arg)`. `symm`: the thread `child` is
    /// symmetric to (its symmetric predecessor, spawned before it by the same parent
    /// with the same `entry` and `arg`), for symmetry reduction; `None` when there is
    /// none or the reduction is off.
    Spawn {
        child: Tid,
        entry: u32,
        arg: Val,
        symm: Option<Tid>,
    },
    /// Waits for `child`'s `Finish`, which it reads from.
    Join {
        child: Tid,
    },
    Finish {
        ret: Val,
    },
    /// A nondeterministic choice ([`crate::Action::Choose`]) that took value `val`.
    Choice {
        val: Val,
    },
    /// The answer to a [`crate::Action::BlockSize`] query: the block at `base` has
    /// `size` bytes (touches no memory; the thread resumes with `size`).
    BlockSize {
        base: Loc,
        size: u64,
    },
    /// The thread is blocked for good (failed assume, loop bound, or a lock read that saw
    /// a taken lock).
    Block {
        reason: BlockReason,
    },
    /// The thread raised an error.
    Error {
        kind: ErrorKind,
        msg: String,
    },
}

/// GenMC's annotations that the error checks read (`porf-models`' `lifetime`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Note {
    /// `__VERIFIER_hp_protect(hp, p)`: hazard pointer `hp` protects `p`, which lies in
    /// the dynamically allocated block at `block` (`None`: in no such block).
    HpProtect { hp: Loc, block: Option<Loc> },
    /// `__VERIFIER_final_write`: the thread's po-latest write to `loc` before this
    /// event is final (every other write to `loc` must happen before it).
    FinalWrite { loc: Loc },
}

/// An event of the graph with its bookkeeping.
#[derive(Clone, Debug)]
pub struct Label {
    pub kind: LabelKind,
    /// Position in the insertion order of the graph (0-based; dense).
    pub stamp: u32,
    /// For reads: it reads from the first (co-latest consistent) choice the explorer made
    /// when it added it; for writes: it was placed at its first (co-latest) choice.
    /// Always true for other events.
    pub added_max: bool,
    /// A read that a backward revisit may still change (false once the read is in the
    /// porf-prefix of a write that revisited an earlier read).
    pub revisitable: bool,
    /// The porf-prefix of the event (po ∪ rf ∪ spawn ∪ join, reflexive).
    pub porf: View,
    /// The happens-before prefix of the event, as computed by the memory model (reflexive).
    pub hb: View,
    /// Reads (in this graph) reading from this event, if it is a write.
    pub readers: Vec<EventId>,
    pub src: SrcLoc,
    /// For a write placed in co: its index in its location's co list (kept by the
    /// graph's co methods, so that [`crate::Graph::co_pos`] is O(1)). Meaningless for
    /// other events and for a write not in co.
    pub(crate) co_idx: u32,
    /// The number of seq_cst fences of the event's thread up to and including it (for
    /// [`crate::Graph::sc_fences_before`]).
    pub(crate) sc_fences_upto: u32,
    /// What hardware models read beyond the label ([`crate::hw`]); `None` for events of
    /// C11 programs.
    pub hw: Option<Box<crate::hw::Hw>>,
}

impl Label {
    pub fn loc(&self) -> Option<Loc> {
        match self.kind {
            LabelKind::Read { loc, .. } | LabelKind::Write { loc, .. } => Some(loc),
            _ => None,
        }
    }
    /// The width in bytes of a read or write.
    pub fn bytes(&self) -> Option<u8> {
        match self.kind {
            LabelKind::Read { bytes, .. } | LabelKind::Write { bytes, .. } => Some(bytes),
            _ => None,
        }
    }
    /// The block a malloc or free is about.
    pub fn block(&self) -> Option<Loc> {
        match self.kind {
            LabelKind::Malloc { base, .. } | LabelKind::Free { base, .. } => Some(base),
            _ => None,
        }
    }
    /// The memory order of a read, write or fence.
    pub fn ord(&self) -> Option<MemOrder> {
        match self.kind {
            LabelKind::Read { ord, .. }
            | LabelKind::Write { ord, .. }
            | LabelKind::Fence { ord } => Some(ord),
            _ => None,
        }
    }
    pub fn is_read(&self) -> bool {
        matches!(self.kind, LabelKind::Read { .. })
    }
    pub fn is_write(&self) -> bool {
        matches!(self.kind, LabelKind::Write { .. })
    }
    pub fn is_access(&self) -> bool {
        self.is_read() || self.is_write()
    }
    pub fn rf(&self) -> Option<EventId> {
        match self.kind {
            LabelKind::Read { rf, .. } => rf,
            _ => None,
        }
    }
    pub fn read_kind(&self) -> Option<ReadKind> {
        match self.kind {
            LabelKind::Read { kind, .. } => Some(kind),
            _ => None,
        }
    }
    pub fn write_kind(&self) -> Option<WriteKind> {
        match self.kind {
            LabelKind::Write { kind, .. } => Some(kind),
            _ => None,
        }
    }
    pub fn is_exclusive_write(&self) -> bool {
        self.write_kind() == Some(WriteKind::Exclusive)
    }
    pub fn is_exclusive_read(&self) -> bool {
        self.read_kind().is_some_and(ReadKind::is_exclusive)
    }
    /// Whether a later event's [`crate::hw::Deps`] may name this event: a read, or a
    /// successful store-exclusive (a write whose [`crate::hw::Hw::excl_read`] is set),
    /// whose status register later instructions may read.
    pub fn is_dep_source(&self) -> bool {
        self.is_read()
            || (self.is_write() && self.hw.as_ref().is_some_and(|h| h.excl_read.is_some()))
    }
}
