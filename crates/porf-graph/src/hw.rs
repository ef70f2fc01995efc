//! What hardware and kernel memory models read of an event beyond its C11 label:
//! dependencies, access annotations, fence kinds and exclusive pairs ([`Hw`]).
//!
//! Invariants:
//! - In a [`crate::Label`] ([`crate::Label::hw`]), the sets of [`Deps`] hold the `idx` of
//!   po-earlier *dependency sources* of the event's own thread
//!   ([`crate::Label::is_dep_source`]: reads, and successful store-exclusives, whose
//!   status register an instruction may read), ascending, without duplicates;
//!   [`Hw::excl_read`] is the `idx` of the po-earlier load-exclusive an exclusive write
//!   pairs with. In a [`crate::ThreadMachine::hw`] answer the same fields count the
//!   thread's dependency sources instead (0 = the thread's first read event or
//!   successful store-exclusive, an RMW's read part included): the explorer that adds
//!   the event translates ordinals to `idx`. Whether a store-exclusive's status
//!   carries a dependency is the architecture's (the front end's) choice; every
//!   successful one is counted either way.
//! - An action that becomes two events (an RMW's read and write parts) gives both the
//!   same [`Hw`]; a model reads `data` on writes only.
//! - An access split into units (mixed-size tests) is one event per unit, the later
//!   ones tagged [`Tags::SAME_INSTR`]; each carries the instruction's dependencies.
//! - Events of C11 programs have no `Hw` (`None`): every C11 model ignores it, and a
//!   hardware model reads a missing `Hw` as [`Hw::default`] (no dependency, no tag, a
//!   fence of no hardware kind).

use std::fmt;

/// Address, data and control dependencies of an event on earlier reads (and successful
/// store-exclusives) of its thread (herd's `addr`, `data`, `ctrl`): a source is in
/// `ctrl` when a conditional branch po-before the event depends on it.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Deps {
    pub addr: Vec<u32>,
    pub data: Vec<u32>,
    pub ctrl: Vec<u32>,
    /// Sources the event's address, value or existence also depends on through
    /// control flow that herd's syntactic dependencies leave out (a register set in
    /// an `if` arm and read after the join depends on the condition). No model reads
    /// them; the values explorer's dependency-cycle check does, which keeps its value
    /// domain exact.
    pub value: Vec<u32>,
}

impl Deps {
    /// No `addr`, `data` or `ctrl` dependency (`value` sources aside).
    pub fn is_empty(&self) -> bool {
        self.addr.is_empty() && self.data.is_empty() && self.ctrl.is_empty()
    }
}

/// Access annotations as a bit set. One namespace for all architectures; each model
/// reads the tags of its own (herd's sets in brackets).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Tags(pub u32);

impl Tags {
    pub const NONE: Tags = Tags(0);
    /// An acquire access: AArch64 `LDAR`/`LDAXR`/`SWPA`… (`A`), RISC-V `.aq` (`AQ`),
    /// LKMM `smp_load_acquire` and `_acquire` RMWs (`Acquire`).
    pub const ACQ: Tags = Tags(1);
    /// An acquire-PC load, AArch64 `LDAPR` (`Q`).
    pub const ACQ_PC: Tags = Tags(1 << 1);
    /// A release access: AArch64 `STLR`/`STLXR`/`SWPL`… (`L`), RISC-V `.rl` (`RL`),
    /// LKMM `smp_store_release` and `_release` RMWs (`Release`).
    pub const REL: Tags = Tags(1 << 2);
    /// A load-exclusive / load-reserved or a store-exclusive / store-conditional that
    /// succeeded (`X`); the pair is [`Hw::excl_read`].
    pub const EXCL: Tags = Tags(1 << 3);
    /// Both events of a single-instruction atomic RMW: AArch64 `SWP`/`LD<op>`/`CAS`,
    /// RISC-V `amo<op>`, X86 `LOCK`-prefixed and `XCHG` (herd's `amo` relation).
    pub const AMO: Tags = Tags(1 << 4);
    /// LKMM `READ_ONCE`/`WRITE_ONCE` and relaxed RMWs (`Once`).
    pub const ONCE: Tags = Tags(1 << 5);
    /// LKMM fully ordered RMWs (`xchg`, `cmpxchg`, `atomic_*_return`): `Mb`.
    pub const MB: Tags = Tags(1 << 6);
    /// LKMM RMWs whose result is not returned (`atomic_add`…): `Noreturn`.
    pub const NORETURN: Tags = Tags(1 << 7);
    /// LKMM `rcu_dereference` (a `Once` read whose dependencies order).
    pub const RCU_DEREF: Tags = Tags(1 << 8);
    /// LKMM `rcu_assign_pointer` (a `Release` write).
    pub const RCU_ASSIGN: Tags = Tags(1 << 9);
    /// LKMM lock events: the lock read (`LKR`), lock write (`LKW`), unlock (`UL`),
    /// a failed trylock's read (`LF`), `spin_is_locked`'s read (`RL`/`RU`).
    pub const LKR: Tags = Tags(1 << 10);
    pub const LKW: Tags = Tags(1 << 11);
    pub const UL: Tags = Tags(1 << 12);
    pub const LF: Tags = Tags(1 << 13);
    /// A further part of the instruction of the thread's previous event: a mixed-size
    /// test's access split into its access units (herd7's `-variant mixed`), one event
    /// per unit in address order, consecutive in the thread (a split RMW: each unit's
    /// read and write parts in turn, the first unit's write part untagged, see
    /// [`instruction_start`]). The events of one instruction are not `po`-related;
    /// those of one direction (reads, writes) are herd's `si` class.
    pub const SAME_INSTR: Tags = Tags(1 << 14);
    /// LKMM `srcu_read_lock`/`srcu_down_read`: a marked read of the `srcu_struct`
    /// (`Srcu-lock`), whose value is the index the matching unlock writes back.
    pub const SRCU_LOCK: Tags = Tags(1 << 15);
    /// LKMM `srcu_read_unlock`/`srcu_up_read`: a marked write of the index to the
    /// `srcu_struct` (`Srcu-unlock`).
    pub const SRCU_UNLOCK: Tags = Tags(1 << 16);
    /// With [`Tags::SAME_INSTR`]: the first event of a further access of the same
    /// instruction (AArch64 `LDP`/`STP`: the second register's access), a
    /// single-copy-atomic access of its own (herd's next `sca` class).
    pub const NEXT_ACCESS: Tags = Tags(1 << 17);

    pub fn contains(self, other: Tags) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn union(self, other: Tags) -> Tags {
        Tags(self.0 | other.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Tags {
    type Output = Tags;
    fn bitor(self, rhs: Tags) -> Tags {
        self.union(rhs)
    }
}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tags({:#x})", self.0)
    }
}

/// The shareability domain of an AArch64 barrier.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Domain {
    Sy,
    Ish,
    Osh,
    Nsh,
}

/// What an AArch64 barrier orders: everything, loads before it (`LD`), stores (`ST`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BarrierTypes {
    All,
    Ld,
    St,
}

/// A RISC-V fence operand set as bits: `R` reads, `W` writes, `I` device input, `O`
/// device output.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct FenceOps(pub u8);

impl FenceOps {
    pub const R: u8 = 1;
    pub const W: u8 = 2;
    pub const I: u8 = 4;
    pub const O: u8 = 8;
    pub fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

/// The Linux kernel's fences and RCU events (herd's LKMM fence sets).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum KernelFence {
    /// `smp_mb`
    Mb,
    /// `smp_rmb`
    Rmb,
    /// `smp_wmb`
    Wmb,
    /// `smp_mb__before_atomic`
    BeforeAtomic,
    /// `smp_mb__after_atomic`
    AfterAtomic,
    /// `smp_mb__after_spinlock`
    AfterSpinlock,
    /// `smp_mb__after_unlock_lock`
    AfterUnlockLock,
    /// `rcu_read_lock`
    RcuLock,
    /// `rcu_read_unlock`
    RcuUnlock,
    /// `synchronize_rcu`
    SyncRcu,
    /// `synchronize_srcu(s)`: a grace period of the SRCU domain at address `s` (herd's
    /// `Sync-srcu`, an event with a location that is neither read nor write).
    SyncSrcu(u64),
    /// `smp_mb__after_srcu_read_unlock`
    AfterSrcuReadUnlock,
}

/// Every hardware fence and barrier, and the kernel's.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FenceKind {
    Dmb(Domain, BarrierTypes),
    Dsb(Domain, BarrierTypes),
    Isb,
    /// RISC-V `fence pred,succ`.
    RiscV {
        pred: FenceOps,
        succ: FenceOps,
    },
    /// RISC-V `fence.tso`.
    RiscVTso,
    /// RISC-V `fence.i`.
    RiscVFenceI,
    Sync,
    Lwsync,
    Isync,
    Eieio,
    Mfence,
    Lfence,
    Sfence,
    Kernel(KernelFence),
}

/// The hardware facts of one event; see the module invariants.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hw {
    pub deps: Deps,
    pub tags: Tags,
    /// The kind of a fence event (`None` for accesses).
    pub fence: Option<FenceKind>,
    /// For a successful store-exclusive (tagged [`Tags::EXCL`]): the load-exclusive it
    /// pairs with (herd's `rmw` edge from that read to this write).
    pub excl_read: Option<u32>,
}

/// The first event of `e`'s instruction: `e` belongs to the previous event's
/// instruction when it is tagged [`Tags::SAME_INSTR`], or when it is the write part of
/// the first unit of a split RMW (an RMW write part whose next event in its thread is
/// tagged). An event of no split access is its own instruction's first; an unsplit
/// RMW's read and write parts stay two (`po`-related) instructions, as before
/// mixed-size accesses.
pub fn instruction_start(g: &crate::Graph, e: crate::EventId) -> crate::EventId {
    let tagged = |e: crate::EventId| {
        e.idx < g.thread_len(e.tid)
            && g.label(e)
                .hw
                .as_ref()
                .is_some_and(|h| h.tags.contains(Tags::SAME_INSTR))
    };
    let split_rmw_write = |e: crate::EventId| {
        let l = g.label(e);
        l.is_exclusive_write()
            && l.hw.as_ref().is_none_or(|h| h.excl_read.is_none())
            && tagged(e.next())
    };
    let mut j = e;
    while tagged(j) || split_rmw_write(j) {
        match j.prev() {
            Some(p) => j = p,
            None => break,
        }
    }
    j
}

/// The single-copy-atomic access `e` belongs to (herd's `sca` classes, `si`): its
/// instruction's first event ([`instruction_start`]), its direction (write or not) and
/// how many [`Tags::NEXT_ACCESS`] events of the instruction come up to it.
pub fn access_class(g: &crate::Graph, e: crate::EventId) -> (crate::EventId, bool, u32) {
    let start = instruction_start(g, e);
    let next = (start.idx + 1..=e.idx)
        .filter(|&i| {
            g.label(crate::EventId::new(e.tid, i))
                .hw
                .as_ref()
                .is_some_and(|h| h.tags.contains(Tags::NEXT_ACCESS))
        })
        .count() as u32;
    (start, g.label(e).is_write(), next)
}
