//! An assembly litmus test as a porf [`Program`]: thread 0 spawns `P0`, `P1`, ... in
//! order (porf thread `n + 1` runs `Pn`) and each runs its code on a register file
//! where every register holds a value and the set of the thread's reads it depends on.
//!
//! Invariants:
//! - an instruction that accesses memory is one action: a load an [`Action::Load`],
//!   a store an [`Action::Store`], a single-instruction RMW (AArch64 `SWP`/`LD<op>`/
//!   `ST<op>`, RISC-V `amo<op>`, X86 `XCHG`/`LOCK` op) or a compare-and-swap an
//!   [`Action::Rmw`], a fence an [`Action::Fence`]; register instructions and branches
//!   are no action. Memory holds each value as its access size's low bytes,
//!   zero-extended (a signed load sign-extends them into its register).
//! - [`ThreadMachine::hw`] gives each access and fence its facts ([`Hw`]), dependencies
//!   counted in the thread's dependency sources (0 = its first load, RMW or successful
//!   store-exclusive): `addr` = the sources
//!   the address registers depend on, `data` = those the stored value's register
//!   depends on, `ctrl` = those every conditional branch executed so far depends on
//!   (herd's `ctrl`: from a read to every event po-after a branch that depends on
//!   it). A register written from a read depends on that read; one computed from
//!   others depends on what they depend on; an immediate depends on nothing.
//! - store-exclusives follow herd7 (`AArch64Sem.ml`, `RISCVSem.ml`, `PPCSem.ml`,
//!   `riscv_sc`/`aarch64_store_conditional` of `eventsMonad.ml`): a load-exclusive
//!   reserves its address; a store-exclusive may *succeed* only if the reservation
//!   holds the same address (AArch64: and the same size), and may always *fail*
//!   (spuriously too); either way the reservation is gone afterwards. When success
//!   is possible the choice is an [`Action::Choose`] (1 = succeeds), whose
//!   [`ThreadMachine::hw`] names what the choice's existence depends on: `ctrl`, and
//!   as `addr` the sources of both addresses compared (the store-exclusive's and the
//!   reservation's); explorers put no facts on the choice event, so models never see
//!   them (the deferred explorer waits for them). A success is a
//!   store tagged [`Tags::EXCL`] whose [`Hw::excl_read`] is the reserving read
//!   (herd's `rmw` pairs the two); it writes the status register 0 (PPC: sets CR0's
//!   EQ). A failure touches no memory and writes 1 (PPC: clears EQ). The status
//!   register depends, after a RISC-V success, on the store itself and on the
//!   address's sources: RVWMO's syntactic dependencies (ISA manual, Volume I,
//!   "RVWMO Memory Consistency Model", "Syntactic Dependencies") run from an
//!   instruction's memory operation through its destination registers, and `sc`'s
//!   destination is its status `rd` (herd7's RISC-V semantics, `event.ml`'s
//!   `riscv_sc` with the RISC-V defaults `SwitchDepScWrite` and `SwitchDepScResult`,
//!   likewise puts the store and the address before the status write; Dat3M's
//!   expected verdicts for the manual's `ISA-DEP-*` tests are `Never` only so).
//!   AArch64's `STXR` status depends on nothing (herd7's AArch64 defaults turn both
//!   switches off), nor does
//!   PPC's CR0 after `stwcx.` (`PPCSem.ml` writes it in parallel with the store):
//!   there a later access ordered by the store-exclusive's success needs a real
//!   dependency or a barrier. A successful store-exclusive is a dependency source
//!   ([`porf_graph::Label::is_dep_source`]) on every architecture, so ordinals count
//!   it always.
//! - memory orders: plain accesses are `Relaxed`; acquire loads `Acquire`, release
//!   stores `Release`, RMWs by their annotation; the [`Tags`] carry the architecture's
//!   exact annotation for hardware models. Full barriers (AArch64 `DMB`/`DSB` of all
//!   accesses, PPC `sync`, X86 `MFENCE`, RISC-V `fence rw,rw`) are `SeqCst` fences,
//!   so that porf's C11-style and `tso` models read them; every other fence is
//!   `AcqRel`, its [`FenceKind`] the truth.
//! - mixed-size tests ([`Layout::unit`]; herd7's `-variant mixed`, Flur et al.,
//!   "Mixed-size Concurrency: ARM, POWER, C/C++11, and SC", POPL 2017): a load or
//!   store wider than the unit is one action per unit, in address order, each a unit
//!   of the value (little-endian), the later ones tagged [`Tags::SAME_INSTR`] (herd's
//!   `si`); each carries the instruction's dependencies, and a loaded register is the
//!   units' composition, depending on all of the unit reads. An access must start
//!   at a multiple of the unit and lie within its location's type (herd rejects
//!   others); one unaligned to its own size is split the same way, its units one
//!   `si` class, as herd7's `-variant mixed,unaligned` does (`eventsMonad.ml`: one
//!   single-copy-atomic class per access). A load- or store-exclusive wider than the
//!   unit is split the same way; each unit write of a successful store-exclusive
//!   pairs ([`Hw::excl_read`]) with the same unit's read, so that atomicity holds per
//!   unit, and the models relate every unit read to every unit write (herd's `lxsx`
//!   of a split pair: no exclusive is po-between them); each unit write is a
//!   dependency source. A single-instruction swap or bitwise RMW (`SWP`, `LDCLR`,
//!   `LDSET`, `LDEOR`) wider than the unit is one RMW action per unit (each unit's
//!   read and write parts, atomic per unit as herd's per-location `amo` pairs; the
//!   unit reads one `si` class, the unit writes another, see
//!   [`porf_graph::hw::instruction_start`]); its register is the units' old values
//!   composed, depending on every unit read. Other RMWs wider than the unit (add,
//!   min/max, compare-and-swap: their operation crosses units) are refused
//!   ([`ErrorKind::Unsupported`]).
//! - AArch64 `LDP`/`STP` (offset addressing only) are two accesses of one
//!   instruction, at `a` and `a + size`, in that order, each split into units as
//!   above: the second access's first event is tagged [`Tags::NEXT_ACCESS`] as well as
//!   [`Tags::SAME_INSTR`], so the two are neither `po`- nor `si`-related (herd7's
//!   `AArch64Sem.ml` composes them in parallel, each its own single-copy-atomic
//!   access); each register depends on its own access's reads, each stored value's
//!   dependencies are its register's, and an `LDP` writes its registers after both
//!   reads.
//! - what porf cannot run exactly (a branch on flags X86 arithmetic left undefined,
//!   an address outside every location, a thread computing without end) ends the
//!   thread with an [`ErrorKind::Unsupported`] or [`ErrorKind::NonTermination`]
//!   error at the instruction's position; nothing is guessed.

use super::ir::*;
use super::layout::{low_bytes, narrow_reg, sext, zext, Layout};
use super::AsmLitmus;
use porf_graph::hw::{Deps, FenceKind, FenceOps, Hw, Tags};
use porf_graph::{
    Action, BlockReason, ErrorKind, Loc, MemOrder, Program, SrcLoc, Symmetry, ThreadMachine, Tid,
    Val, Wrap,
};
use std::sync::Arc;

/// How many instructions a thread may run between two actions before it is taken to
/// compute without end.
pub const LOCAL_STEPS: u64 = 1 << 20;

/// The thread's dependency sources (reads, successful store-exclusives) a value depends
/// on, ascending, without duplicates.
type DepSet = Vec<u32>;

fn union(a: &DepSet, b: &DepSet) -> DepSet {
    let mut v: DepSet = a.iter().chain(b).copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// What the test shares between its threads.
#[derive(Debug)]
struct Shared {
    test: AsmLitmus,
    layout: Layout,
    /// Per thread, the registers whose final values are asked for, in the order
    /// [`ThreadMachine::registers`] gives them.
    observed: Vec<Vec<Reg>>,
    unroll: Option<u32>,
}

/// An assembly test as a program.
#[derive(Clone, Debug)]
pub struct AsmProgram {
    shared: Arc<Shared>,
}

impl AsmProgram {
    /// The program of `test`; `observed[n]` lists the registers of `Pn` whose final
    /// values [`ThreadMachine::registers`] reports, in that order; `unroll` = N cuts an
    /// execution in which a thread would jump backward to one label for the Nth time,
    /// i.e. start that loop's (N+1)th iteration: herd7's `-unroll N-1`, which counts
    /// a thread's backward jumps per target and cuts the Nth one (herd's `mem.ml`).
    /// herd counts neither a conditional backward branch whose condition it knows
    /// while building events (a loop over constants, which it runs to its end); porf
    /// counts every backward jump, so such a loop longer than the bound is cut here
    /// (the answer then says it holds up to the bound) where herd's is complete.
    pub fn new(
        test: AsmLitmus,
        layout: Layout,
        observed: Vec<Vec<Reg>>,
        unroll: Option<u32>,
    ) -> AsmProgram {
        AsmProgram {
            shared: Arc::new(Shared {
                test,
                layout,
                observed,
                unroll,
            }),
        }
    }

    pub fn layout(&self) -> &Layout {
        &self.shared.layout
    }

    pub fn test(&self) -> &AsmLitmus {
        &self.shared.test
    }
}

/// The condition flags (see [`super::ir`]'s invariants).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Flags {
    /// Nothing set them yet.
    Unset,
    /// The last [`Op::Cmp`]'s operands, compared at `width`.
    Cmp { a: Val, b: Val, width: Size },
    /// PPC `stwcx.`: EQ set exactly when it succeeded.
    Stored(bool),
    /// X86 arithmetic left them holding what this machine does not model; the
    /// instruction that did.
    Clobbered(usize),
}

/// A reservation made by a load-exclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Reservation {
    addr: u64,
    size: Size,
    /// The load-exclusive's ordinal.
    read: u32,
    /// The sources the load-exclusive's address depends on.
    addr_deps: DepSet,
}

/// What the thread does when the peeked action returns.
#[derive(Clone, Debug)]
enum Then {
    Spawned,
    Load {
        dst: Reg,
        size: Size,
        signed: bool,
        reserve: Option<Reservation>,
        /// The access's unit count (1: not split).
        units: u32,
    },
    Store {
        units: u32,
    },
    /// A unit of an `LDP`'s two accesses of `units` units each.
    LoadPair {
        dst: [Reg; 2],
        size: Size,
        units: u32,
    },
    /// A store-exclusive's success choice.
    Choice,
    /// A successful store-exclusive's store (one of its `units`).
    StoreEx {
        status: Reg,
        status_deps: DepSet,
        units: u32,
    },
    /// A single-instruction RMW's unit (of `units`; 1: not split).
    Rmw {
        dst: Reg,
        size: Size,
        units: u32,
    },
    Cas {
        expected: Reg,
        size: Size,
    },
    Fence,
    /// The thread ended (finished, blocked, or an error): no resume.
    End,
}

#[derive(Clone, Debug)]
struct Peeked {
    action: Action,
    hw: Option<Hw>,
    then: Then,
}

/// One thread's registers and position.
#[derive(Clone, Debug)]
struct Regs {
    id: usize,
    pc: usize,
    /// General-purpose registers by number: value and dependencies.
    gpr: Vec<(Val, DepSet)>,
    flags: Flags,
    flags_deps: DepSet,
    /// The reads every conditional branch executed so far depends on.
    ctrl: DepSet,
    /// Dependency sources so far: reads and successful store-exclusives (the next
    /// one's ordinal, see [`porf_graph::hw`]).
    sources: u32,
    reservation: Option<Reservation>,
    /// The store-exclusive at `pc` was chosen to succeed: its store comes next.
    succeed: bool,
    /// Per instruction, how often a backward jump to it was taken.
    back_jumps: Vec<u32>,
    /// The unit of the access at `pc` that comes next (split accesses, else 0).
    part: u32,
    /// A split load's units read so far, composed.
    acc: Val,
    /// An `LDP`'s first register value and dependencies, written with the second
    /// (so that the address, which may use that register, stays the same).
    pair_first: Option<(Val, DepSet)>,
}

impl Regs {
    /// The hardware facts of an access at this point: its address and data
    /// dependencies, those of every conditional branch so far (`ctrl`), its tags; no
    /// fence kind, no exclusive pair.
    fn hw(&self, addr: DepSet, data: DepSet, tags: Tags) -> Hw {
        Hw {
            deps: Deps {
                addr,
                data,
                ctrl: self.ctrl.clone(),
                value: vec![],
            },
            tags,
            fence: None,
            excl_read: None,
        }
    }
}

#[derive(Clone, Debug)]
enum Kind {
    Main { next: u32 },
    Thread(Box<Regs>),
}

/// A thread of an [`AsmProgram`].
#[derive(Clone, Debug)]
pub struct AsmMachine {
    shared: Arc<Shared>,
    kind: Kind,
    peeked: Option<Peeked>,
}

impl Program for AsmProgram {
    type Thread = AsmMachine;

    fn main_thread(&self) -> AsmMachine {
        AsmMachine {
            shared: self.shared.clone(),
            kind: Kind::Main { next: 0 },
            peeked: None,
        }
    }

    fn spawn(&self, _tid: Tid, entry: u32, _arg: Val) -> AsmMachine {
        let id = entry as usize;
        let n = self.shared.test.threads[id].code.len();
        let mut gpr = vec![(0, DepSet::new()); 32];
        for &(r, v) in &self.shared.layout.registers[id] {
            if let Reg::Gpr(k) = r {
                gpr[k as usize] = (v, DepSet::new());
            }
        }
        AsmMachine {
            shared: self.shared.clone(),
            kind: Kind::Thread(Box::new(Regs {
                id,
                pc: 0,
                gpr,
                flags: Flags::Unset,
                flags_deps: DepSet::new(),
                ctrl: DepSet::new(),
                sources: 0,
                reservation: None,
                succeed: false,
                back_jumps: vec![0; n],
                part: 0,
                acc: 0,
                pair_first: None,
            })),
            peeked: None,
        }
    }

    fn init_value(&self, loc: Loc) -> Val {
        self.shared.layout.init_value(loc.0)
    }

    fn loc_name(&self, loc: Loc) -> String {
        self.shared
            .layout
            .name_of(loc.0)
            .unwrap_or_else(|| format!("{:#x}", loc.0))
    }

    fn show_value(&self, _loc: Loc, _bytes: u8, val: Val) -> Option<String> {
        self.shared.layout.symbol_of_value(val).map(str::to_string)
    }

    fn source_file(&self, _file: u32) -> &str {
        &self.shared.test.file
    }
}

/// The ordering of a load, a store and an RMW with annotation `ann`.
fn load_order(ann: Annot) -> MemOrder {
    match (ann.acq != Acq::No, ann.rel) {
        (true, true) => MemOrder::SeqCst,
        (true, false) => MemOrder::Acquire,
        (false, _) => MemOrder::Relaxed,
    }
}

fn store_order(ann: Annot) -> MemOrder {
    match (ann.acq != Acq::No, ann.rel) {
        (true, true) => MemOrder::SeqCst,
        (_, true) => MemOrder::Release,
        _ => MemOrder::Relaxed,
    }
}

fn rmw_order(ann: Annot) -> MemOrder {
    match (ann.acq != Acq::No, ann.rel) {
        (true, true) => MemOrder::AcqRel,
        (true, false) => MemOrder::Acquire,
        (false, true) => MemOrder::Release,
        (false, false) => MemOrder::Relaxed,
    }
}

fn tags(ann: Annot) -> Tags {
    let mut t = Tags::NONE;
    match ann.acq {
        Acq::No => {}
        Acq::Acquire => t = t | Tags::ACQ,
        Acq::AcquirePc => t = t | Tags::ACQ_PC,
    }
    if ann.rel {
        t = t | Tags::REL;
    }
    t
}

fn fence_ops(s: FenceSet) -> FenceOps {
    let mut b = 0;
    if s.r {
        b |= FenceOps::R;
    }
    if s.w {
        b |= FenceOps::W;
    }
    if s.i {
        b |= FenceOps::I;
    }
    if s.o {
        b |= FenceOps::O;
    }
    FenceOps(b)
}

/// The event kind of a fence, and whether it orders every pair of accesses.
pub fn fence_kind(f: &Fence) -> (FenceKind, bool) {
    match *f {
        Fence::Dmb(d, t) => (FenceKind::Dmb(d, t), t == BarrierTypes::All),
        Fence::Dsb(d, t) => (FenceKind::Dsb(d, t), t == BarrierTypes::All),
        Fence::Isb => (FenceKind::Isb, false),
        Fence::RiscV { pred, succ } => (
            FenceKind::RiscV {
                pred: fence_ops(pred),
                succ: fence_ops(succ),
            },
            pred.r && pred.w && succ.r && succ.w,
        ),
        Fence::Tso => (FenceKind::RiscVTso, false),
        Fence::FenceI => (FenceKind::RiscVFenceI, false),
        Fence::Sync => (FenceKind::Sync, true),
        Fence::Lwsync => (FenceKind::Lwsync, false),
        Fence::Isync => (FenceKind::Isync, false),
        Fence::Eieio => (FenceKind::Eieio, false),
        Fence::Mfence => (FenceKind::Mfence, true),
        Fence::Lfence => (FenceKind::Lfence, false),
        Fence::Sfence => (FenceKind::Sfence, false),
    }
}

/// `a cond b`, the operands compared as integers of `width`.
fn compare(cond: CmpCond, a: Val, b: Val, width: Size) -> bool {
    let (sa, sb) = (sext(a, width), sext(b, width));
    let (ua, ub) = (zext(a, width) as u64, zext(b, width) as u64);
    let (ua, ub) = if width == Size::Double {
        (a as u64, b as u64)
    } else {
        (ua, ub)
    };
    match cond {
        CmpCond::Eq => sa == sb,
        CmpCond::Ne => sa != sb,
        CmpCond::Lt => sa < sb,
        CmpCond::Ge => sa >= sb,
        CmpCond::Gt => sa > sb,
        CmpCond::Le => sa <= sb,
        CmpCond::Ltu => ua < ub,
        CmpCond::Geu => ua >= ub,
        CmpCond::Gtu => ua > ub,
        CmpCond::Leu => ua <= ub,
    }
}

/// The porf RMW of `op` with operand `v` (normalised to the access size).
fn rmw(op: RmwOp, v: Val, size: Size) -> porf_graph::RmwOp {
    use porf_graph::RmwOp as P;
    let bytes = size.bytes() as u8;
    let w = |signed| Wrap { bytes, signed };
    let v = zext(v, size);
    match op {
        RmwOp::Swap => P::Xchg(v),
        RmwOp::Add => P::Add(v, w(false)),
        RmwOp::Clr => P::And(zext(!v, size)),
        RmwOp::And => P::And(v),
        RmwOp::Or => P::Or(v),
        RmwOp::Xor => P::Xor(v),
        RmwOp::Smax => P::Max(v, w(true)),
        RmwOp::Smin => P::Min(v, w(true)),
        RmwOp::Umax => P::Max(v, w(false)),
        RmwOp::Umin => P::Min(v, w(false)),
    }
}

/// Unit `part` (of `unit` bytes) of a split RMW of `size` with operand `v`: an
/// operation that acts on each byte alone (swap and the bitwise ones; the machine
/// refuses to split the others, whose carries and comparisons cross units), on the
/// unit's bytes of `v`.
fn unit_rmw(op: RmwOp, v: Val, size: Size, part: u32, unit: u64) -> porf_graph::RmwOp {
    use porf_graph::RmwOp as P;
    let of =
        |x: Val| low_bytes((zext(x, size) as u64) >> (8 * u64::from(part) * unit), unit) as Val;
    match op {
        RmwOp::Swap => P::Xchg(of(v)),
        RmwOp::Clr => P::And(of(!v)),
        RmwOp::And => P::And(of(v)),
        RmwOp::Or => P::Or(of(v)),
        RmwOp::Xor => P::Xor(of(v)),
        _ => unreachable!("only bytewise RMWs are split"),
    }
}

/// What an instruction's step produced. Unboxed: a `Step` lives only until the
/// caller unpacks it, and boxing would allocate once per action.
#[allow(clippy::large_enum_variant)]
enum Step {
    /// Go on with the next instruction.
    Next,
    /// Stop with this action.
    Act(Peeked),
}

impl AsmMachine {
    fn end(&self, r: &Regs, at: usize, kind: ErrorKind, msg: String) -> Peeked {
        let src = match self.shared.test.threads[r.id].code.get(at) {
            Some(i) => SrcLoc {
                file: 0,
                line: i.pos.line,
                col: i.pos.col,
            },
            None => SrcLoc::UNKNOWN,
        };
        Peeked {
            action: Action::Error { kind, msg, src },
            hw: None,
            then: Then::End,
        }
    }

    fn compute(&mut self) -> Peeked {
        if let Kind::Main { next } = self.kind {
            return if (next as usize) < self.shared.test.threads.len() {
                Peeked {
                    action: Action::Spawn {
                        entry: next,
                        arg: 0,
                        symmetric: Symmetry::Asymmetric,
                        src: SrcLoc::UNKNOWN,
                    },
                    hw: None,
                    then: Then::Spawned,
                }
            } else {
                Peeked {
                    action: Action::Finish { ret: 0 },
                    hw: None,
                    then: Then::End,
                }
            };
        }
        let Kind::Thread(mut r) = std::mem::replace(&mut self.kind, Kind::Main { next: 0 }) else {
            unreachable!("not the main thread")
        };
        let p = self.run(&mut r);
        self.kind = Kind::Thread(r);
        p
    }

    /// Runs `r`'s instructions up to its next action.
    fn run(&self, r: &mut Regs) -> Peeked {
        let code = &self.shared.test.threads[r.id].code;
        let mut steps = 0u64;
        loop {
            let Some(ins) = code.get(r.pc) else {
                return Peeked {
                    action: Action::Finish { ret: 0 },
                    hw: None,
                    then: Then::End,
                };
            };
            steps += 1;
            if steps > LOCAL_STEPS {
                return self.end(
                    r,
                    r.pc,
                    ErrorKind::NonTermination,
                    format!(
                        "P{} ran {LOCAL_STEPS} instructions without an access to memory",
                        r.id
                    ),
                );
            }
            let pc = r.pc;
            match self.step(r, ins) {
                Ok(Step::Next) => {}
                Ok(Step::Act(p)) => return p,
                Err((kind, msg)) => return self.end(r, pc, kind, msg),
            }
        }
    }

    /// Runs instruction `ins` at `r.pc` on `r`.
    fn step(&self, r: &mut Regs, ins: &Instr) -> Result<Step, (ErrorKind, String)> {
        let arch = self.shared.test.arch;
        let src = SrcLoc {
            file: 0,
            line: ins.pos.line,
            col: ins.pos.col,
        };
        let unsupported = |m: String| (ErrorKind::Unsupported, m);
        match &ins.op {
            Op::Nop => r.pc += 1,
            Op::Mov { dst, src, width } => {
                let (v, d) = operand(r, src);
                set(r, arch, *dst, *width, v, d);
                r.pc += 1;
            }
            Op::Alu {
                op,
                dst,
                a,
                b,
                width,
                clobbers_flags,
            } => {
                let (x, dx) = operand(r, a);
                let (y, dy) = operand(r, b);
                let v = match op {
                    AluOp::Add => x.wrapping_add(y),
                    AluOp::Sub => x.wrapping_sub(y),
                    AluOp::And => x & y,
                    AluOp::Or => x | y,
                    AluOp::Xor => x ^ y,
                };
                let d = union(&dx, &dy);
                if *clobbers_flags {
                    r.flags = Flags::Clobbered(r.pc);
                    r.flags_deps = d.clone();
                }
                set(r, arch, *dst, *width, v, d);
                r.pc += 1;
            }
            Op::Cmp { a, b, width } => {
                let (x, dx) = operand(r, a);
                let (y, dy) = operand(r, b);
                r.flags = Flags::Cmp {
                    a: x,
                    b: y,
                    width: *width,
                };
                r.flags_deps = union(&dx, &dy);
                r.pc += 1;
            }
            Op::Branch { jump, target, .. } => {
                let (taken, deps, conditional) = match jump {
                    Jump::Always => (true, DepSet::new(), false),
                    Jump::Flags(c) => {
                        let t = match r.flags {
                            Flags::Cmp { a, b, width } => compare(*c, a, b, width),
                            Flags::Stored(eq) => match c {
                                CmpCond::Eq => eq,
                                CmpCond::Ne => !eq,
                                _ => {
                                    return Err(unsupported(format!(
                                        "`{}` branches on the flags a store-conditional set \
                                         with a condition other than equal / not equal",
                                        ins.text
                                    )))
                                }
                            },
                            Flags::Clobbered(at) => {
                                let by = &self.shared.test.threads[r.id].code[at].text;
                                return Err(unsupported(format!(
                                    "`{}` branches on the flags left by `{by}`, which porf \
                                     does not model (only comparisons set flags porf reads)",
                                    ins.text
                                )));
                            }
                            Flags::Unset => {
                                return Err(unsupported(format!(
                                    "`{}` branches on flags no instruction set",
                                    ins.text
                                )))
                            }
                        };
                        (t, r.flags_deps.clone(), true)
                    }
                    Jump::Regs { cond, a, b } => {
                        let (x, dx) = operand(r, a);
                        let (y, dy) = operand(r, b);
                        (compare(*cond, x, y, Size::Double), union(&dx, &dy), true)
                    }
                };
                if conditional {
                    r.ctrl = union(&r.ctrl, &deps);
                }
                if taken {
                    if *target <= r.pc {
                        r.back_jumps[*target] += 1;
                        if let Some(n) = self.shared.unroll {
                            if r.back_jumps[*target] >= n {
                                return Ok(Step::Act(Peeked {
                                    action: Action::Block {
                                        reason: BlockReason::LoopBound,
                                        src,
                                    },
                                    hw: None,
                                    then: Then::End,
                                }));
                            }
                        }
                    }
                    r.pc = *target;
                } else {
                    r.pc += 1;
                }
            }
            Op::Load {
                dst,
                addr,
                size,
                signed,
                ann,
                exclusive,
            } => {
                let (a, ad) = self.address(r, addr, *size, &ins.text)?;
                let (units, unit) = self.split(*size, false, &ins.text)?;
                let mut t = tags(*ann);
                if *exclusive {
                    t = t | Tags::EXCL;
                }
                if r.part > 0 {
                    t = t | Tags::SAME_INSTR;
                }
                let reserve = exclusive.then(|| Reservation {
                    addr: a,
                    size: *size,
                    read: r.sources - r.part,
                    addr_deps: ad.clone(),
                });
                return Ok(Step::Act(Peeked {
                    action: Action::Load {
                        loc: Loc(a + u64::from(r.part) * unit),
                        bytes: unit as u8,
                        ord: load_order(*ann),
                        copy: false,
                        src,
                    },
                    hw: Some(r.hw(ad, vec![], t)),
                    then: Then::Load {
                        dst: *dst,
                        size: *size,
                        signed: *signed,
                        reserve,
                        units,
                    },
                }));
            }
            Op::Store {
                src: s,
                addr,
                size,
                ann,
            } => {
                let (a, ad) = self.address(r, addr, *size, &ins.text)?;
                let (units, unit) = self.split(*size, false, &ins.text)?;
                let (v, d) = operand(r, s);
                let shift = 8 * u64::from(r.part) * unit;
                let val = if units > 1 {
                    low_bytes((zext(v, *size) as u64) >> shift, unit) as Val
                } else {
                    zext(v, *size)
                };
                let mut t = tags(*ann);
                if r.part > 0 {
                    t = t | Tags::SAME_INSTR;
                }
                return Ok(Step::Act(Peeked {
                    action: Action::Store {
                        loc: Loc(a + u64::from(r.part) * unit),
                        bytes: unit as u8,
                        val,
                        ord: store_order(*ann),
                        src,
                    },
                    hw: Some(r.hw(ad, d, t)),
                    then: Then::Store { units },
                }));
            }
            Op::LoadPair { dst, addr, size }
            | Op::StorePair {
                src: dst,
                addr,
                size,
            } => {
                // Access `k` (0, 1) at `a + k * size`, unit `u` of it; both checked.
                let (a, ad) = self.address(r, addr, *size, &ins.text)?;
                let second = Addr {
                    offset: addr.offset + size.bytes() as Val,
                    ..addr.clone()
                };
                self.address(r, &second, *size, &ins.text)?;
                let (units, unit) = self.split(*size, false, &ins.text)?;
                let (k, u) = (r.part / units, r.part % units);
                let loc = Loc(a + u64::from(k) * u64::from(size.bytes()) + u64::from(u) * unit);
                let mut t = Tags::NONE;
                if r.part > 0 {
                    t = t | Tags::SAME_INSTR;
                }
                if k == 1 && u == 0 {
                    t = t | Tags::NEXT_ACCESS;
                }
                let ann = Annot {
                    acq: Acq::No,
                    rel: false,
                };
                let (action, data, then) = if matches!(ins.op, Op::LoadPair { .. }) {
                    let load = Action::Load {
                        loc,
                        bytes: unit as u8,
                        ord: load_order(ann),
                        copy: false,
                        src,
                    };
                    let then = Then::LoadPair {
                        dst: *dst,
                        size: *size,
                        units,
                    };
                    (load, vec![], then)
                } else {
                    let (v, d) = get(r, dst[k as usize]);
                    let val = low_bytes((zext(v, *size) as u64) >> (8 * u64::from(u) * unit), unit);
                    let store = Action::Store {
                        loc,
                        bytes: unit as u8,
                        val: val as Val,
                        ord: store_order(ann),
                        src,
                    };
                    (store, d, Then::Store { units: 2 * units })
                };
                return Ok(Step::Act(Peeked {
                    action,
                    hw: Some(r.hw(ad, data, t)),
                    then,
                }));
            }
            Op::StoreEx {
                status,
                src: s,
                addr,
                size,
                ann,
            } => {
                let (a, ad) = self.address(r, addr, *size, &ins.text)?;
                let res = r.reservation.clone();
                let may_succeed = res.as_ref().is_some_and(|res| {
                    res.addr == a && (arch != Arch::AArch64 || res.size == *size)
                });
                if !may_succeed {
                    r.reservation = None;
                    set_status(arch, r, *status, false, DepSet::new());
                    r.pc += 1;
                    return Ok(Step::Next);
                }
                let res = res.expect("a reservation");
                let (units, unit) = self.split(*size, false, &ins.text)?;
                if !r.succeed {
                    // What the choice's existence depends on: the branches taken and
                    // the two addresses compared (an explorer's fact, not a model's).
                    let exists = union(&ad, &res.addr_deps);
                    return Ok(Step::Act(Peeked {
                        action: Action::Choose {
                            lo: 0,
                            hi: 1,
                            src,
                            what: "whether a store-exclusive succeeds",
                        },
                        hw: Some(r.hw(exists, DepSet::new(), Tags::NONE)),
                        then: Then::Choice,
                    }));
                }
                let (v, d) = get(r, *s);
                // The units written so far and this one are dependency sources.
                let status_deps = if arch == Arch::RiscV {
                    union(&ad, &(r.sources - r.part..=r.sources).collect())
                } else {
                    DepSet::new()
                };
                let val = low_bytes(
                    (zext(v, *size) as u64) >> (8 * u64::from(r.part) * unit),
                    unit,
                ) as Val;
                let mut t = tags(*ann) | Tags::EXCL;
                if r.part > 0 {
                    t = t | Tags::SAME_INSTR;
                }
                return Ok(Step::Act(Peeked {
                    action: Action::Store {
                        loc: Loc(a + u64::from(r.part) * unit),
                        bytes: unit as u8,
                        val,
                        ord: store_order(*ann),
                        src,
                    },
                    // Each unit write pairs with the same unit's read.
                    hw: Some(Hw {
                        excl_read: Some(res.read + r.part),
                        ..r.hw(ad, d, t)
                    }),
                    then: Then::StoreEx {
                        status: *status,
                        status_deps,
                        units,
                    },
                }));
            }
            Op::Rmw {
                op,
                dst,
                src: s,
                addr,
                size,
                ann,
                clobbers_flags,
            } => {
                let (a, ad) = self.address(r, addr, *size, &ins.text)?;
                let bytewise = matches!(
                    op,
                    RmwOp::Swap | RmwOp::Clr | RmwOp::And | RmwOp::Or | RmwOp::Xor
                );
                let (units, unit) = self.split(*size, !bytewise, &ins.text)?;
                let (v, d) = operand(r, s);
                if *clobbers_flags {
                    r.flags = Flags::Clobbered(r.pc);
                    r.flags_deps = DepSet::new();
                }
                let op = if units > 1 {
                    unit_rmw(*op, v, *size, r.part, unit)
                } else {
                    rmw(*op, v, *size)
                };
                let mut t = tags(*ann) | Tags::AMO;
                if r.part > 0 {
                    t = t | Tags::SAME_INSTR;
                }
                return Ok(Step::Act(Peeked {
                    action: Action::Rmw {
                        loc: Loc(a + u64::from(r.part) * unit),
                        bytes: unit as u8,
                        op,
                        ord: rmw_order(*ann),
                        src,
                    },
                    hw: Some(r.hw(ad, d, t)),
                    then: Then::Rmw {
                        dst: *dst,
                        size: *size,
                        units,
                    },
                }));
            }
            Op::Cas {
                expected,
                new,
                addr,
                size,
                ann,
            } => {
                let (a, ad) = self.address(r, addr, *size, &ins.text)?;
                self.split(*size, true, &ins.text)?;
                let (e, _) = get(r, *expected);
                let (n, d) = get(r, *new);
                return Ok(Step::Act(Peeked {
                    action: Action::Rmw {
                        loc: Loc(a),
                        bytes: size.bytes() as u8,
                        op: porf_graph::RmwOp::Cas {
                            expected: zext(e, *size),
                            new: zext(n, *size),
                            fail_ord: load_order(Annot {
                                acq: ann.acq,
                                rel: false,
                            }),
                        },
                        ord: rmw_order(*ann),
                        src,
                    },
                    hw: Some(r.hw(ad, d, tags(*ann) | Tags::AMO)),
                    then: Then::Cas {
                        expected: *expected,
                        size: *size,
                    },
                }));
            }
            Op::Fence(f) => {
                let (kind, full) = fence_kind(f);
                return Ok(Step::Act(Peeked {
                    action: Action::Fence {
                        ord: if full {
                            MemOrder::SeqCst
                        } else {
                            MemOrder::AcqRel
                        },
                        src,
                    },
                    hw: Some(Hw {
                        fence: Some(kind),
                        ..r.hw(vec![], vec![], Tags::NONE)
                    }),
                    then: Then::Fence,
                }));
            }
        }
        Ok(Step::Next)
    }

    /// How a `size` access splits: its unit count and the unit's bytes (1 and the
    /// access's size outside mixed-size tests); an `atomic` access (an RMW whose
    /// operation crosses units: add, min/max, compare-and-swap) wider than the unit is
    /// refused.
    fn split(
        &self,
        size: Size,
        atomic: bool,
        text: &str,
    ) -> Result<(u32, u64), (ErrorKind, String)> {
        let bytes = u64::from(size.bytes());
        match self.shared.layout.unit {
            Some(unit) if bytes > unit && atomic => Err((
                ErrorKind::Unsupported,
                format!(
                    "mixed-size accesses: `{text}` is an atomic read-modify-write of {bytes} bytes \
                     whose operation crosses the test's {unit}-byte access units (an add, min/max or \
                     compare-and-swap split into units is not modelled)"
                ),
            )),
            Some(unit) if bytes > unit => Ok(((bytes / unit) as u32, unit)),
            _ => Ok((1, bytes)),
        }
    }

    /// The address of an access of `size` bytes and the reads it depends on; an
    /// address outside every location is an error.
    fn address(
        &self,
        r: &Regs,
        a: &Addr,
        size: Size,
        text: &str,
    ) -> Result<(u64, DepSet), (ErrorKind, String)> {
        let layout = &self.shared.layout;
        let mut v: Val = a.offset;
        let mut d = DepSet::new();
        if let Some(s) = &a.sym {
            v = v.wrapping_add(layout.addr_of(s).expect("every name has a region") as Val);
        }
        if let Some(b) = a.base {
            let (x, dx) = get(r, b);
            v = v.wrapping_add(x);
            d = union(&d, &dx);
        }
        if let Some(ix) = &a.index {
            let (x, dx) = get(r, ix.reg);
            let x = match ix.extend {
                Extend::None => x,
                Extend::Sxtw => sext(x, Size::Word),
                Extend::Uxtw => zext(x, Size::Word),
            };
            v = v.wrapping_add(x.wrapping_shl(ix.shift as u32));
            d = union(&d, &dx);
        }
        let a = v as u64;
        match layout.region_at(a) {
            // A scalar read or written in parts (herd's mixed-size tests): its value is
            // the parts' composition, which porf does not model; refused, never
            // answered as if the parts were separate locations.
            Some((reg, off))
                if layout.unit.is_none()
                    && off != 0
                    && !reg.array
                    && off + size.bytes() as u64 <= reg.size =>
            {
                Err((
                ErrorKind::Unsupported,
                format!(
                    "mixed-size accesses: `{text}` accesses {} bytes at {}+{off}, a part of the scalar `{}`",
                    size.bytes(),
                    reg.name,
                    reg.name
                ),
                ))
            }
            Some((reg, off))
                if layout.unit.is_some_and(|u| !a.is_multiple_of(u))
                    && off + size.bytes() as u64 <= reg.size =>
            {
                Err((
                ErrorKind::Unsupported,
                format!(
                    "`{text}` accesses {} bytes at {}+{off}, not aligned to the test's access unit {} (such an access is not modelled; herd7's `-variant mixed` rejects it too, as an unaligned access)",
                    size.bytes(),
                    reg.name,
                    layout.unit.unwrap_or(1),
                ),
                ))
            }
            Some((reg, off))
                if layout.unit.is_some()
                    && !reg.array
                    && reg.value_bytes.is_some_and(|b| off + size.bytes() as u64 > b)
                    && off + size.bytes() as u64 <= reg.size =>
            {
                Err((
                    ErrorKind::Unsupported,
                    format!(
                        "mixed-size accesses: `{text}` accesses {} bytes at {}+{off}, beyond the type of `{}` (herd rejects out-of-bound accesses)",
                        size.bytes(),
                        reg.name,
                        reg.name
                    ),
                ))
            }
            Some((reg, off)) if off + size.bytes() as u64 <= reg.size => Ok((a, d)),
            Some((reg, off)) => Err((
                ErrorKind::Unsupported,
                format!(
                    "`{text}` accesses {} bytes at {}+{off}, beyond the {} bytes of `{}`",
                    size.bytes(),
                    reg.name,
                    reg.size,
                    reg.name
                ),
            )),
            None => Err((
                ErrorKind::Unsupported,
                format!("`{text}` accesses address {v:#x}, which is no location of the test"),
            )),
        }
    }
}

/// A register's value and dependencies (the zero register: 0, none).
fn get(r: &Regs, reg: Reg) -> (Val, DepSet) {
    match reg {
        Reg::Gpr(k) => r.gpr[k as usize].clone(),
        Reg::Zero => (0, DepSet::new()),
        Reg::Flags => (0, r.flags_deps.clone()),
    }
}

fn operand(r: &Regs, o: &Operand) -> (Val, DepSet) {
    match o {
        Operand::Imm(v) => (*v, DepSet::new()),
        Operand::Reg(reg) => get(r, *reg),
        Operand::Ext(ix) => {
            let (x, d) = get(r, ix.reg);
            let x = match ix.extend {
                Extend::None => x,
                Extend::Sxtw => sext(x, Size::Word),
                Extend::Uxtw => zext(x, Size::Word),
            };
            (x.wrapping_shl(ix.shift as u32), d)
        }
    }
}

/// Writes `v` through a `width` view of `reg`, with dependencies `d`.
fn set(r: &mut Regs, arch: Arch, reg: Reg, width: Size, v: Val, d: DepSet) {
    match reg {
        Reg::Gpr(k) => r.gpr[k as usize] = (narrow_reg(arch, width, v), d),
        Reg::Zero => {}
        Reg::Flags => r.flags_deps = d,
    }
}

impl ThreadMachine for AsmMachine {
    fn peek(&mut self) -> Action {
        if self.peeked.is_none() {
            let p = self.compute();
            self.peeked = Some(p);
        }
        self.peeked.as_ref().expect("computed").action.clone()
    }

    fn peeked(&self) -> Option<Action> {
        self.peeked.as_ref().map(|p| p.action.clone())
    }

    fn resume(&mut self, ret: Val) {
        let p = self.peeked.take().expect("resume after peek");
        let arch = self.shared.test.arch;
        let r = match &mut self.kind {
            Kind::Main { next } => {
                *next += 1;
                return;
            }
            Kind::Thread(r) => r,
        };
        match p.then {
            Then::Spawned | Then::End => {}
            Then::Load {
                dst,
                size,
                signed,
                reserve,
                units,
            } => {
                // The unit's value; the whole access's once its last unit is read.
                let unit = u64::from(size.bytes() / units);
                r.acc |= (low_bytes(ret as u64, unit) << (8 * u64::from(r.part) * unit)) as Val;
                r.part += 1;
                r.sources += 1;
                if r.part < units {
                    return;
                }
                let whole = if units > 1 { r.acc } else { ret };
                let v = if signed {
                    sext(whole, size)
                } else {
                    zext(whole, size)
                };
                let deps = (r.sources - units..r.sources).collect();
                r.part = 0;
                r.acc = 0;
                set(r, arch, dst, Size::Double, v, deps);
                if reserve.is_some() {
                    r.reservation = reserve;
                }
                r.pc += 1;
            }
            Then::LoadPair { dst, size, units } => {
                let unit = u64::from(size.bytes() / units);
                let (k, u) = (r.part / units, r.part % units);
                r.acc |= (low_bytes(ret as u64, unit) << (8 * u64::from(u) * unit)) as Val;
                r.part += 1;
                r.sources += 1;
                if u + 1 == units {
                    // Access `k` is complete: its register depends on its unit reads.
                    let deps: DepSet = (r.sources - units..r.sources).collect();
                    let v = zext(r.acc, size);
                    r.acc = 0;
                    if k == 0 {
                        r.pair_first = Some((v, deps));
                    } else {
                        let (v0, d0) = r.pair_first.take().expect("the first access");
                        set(r, arch, dst[0], Size::Double, v0, d0);
                        set(r, arch, dst[1], Size::Double, v, deps);
                        r.part = 0;
                        r.pc += 1;
                    }
                }
            }
            Then::Store { units } => {
                r.part += 1;
                if r.part == units {
                    r.part = 0;
                    r.pc += 1;
                }
            }
            Then::Fence => r.pc += 1,
            Then::Choice => {
                if ret == 1 {
                    r.succeed = true;
                } else {
                    r.reservation = None;
                    let status = match &self.shared.test.threads[r.id].code[r.pc].op {
                        Op::StoreEx { status, .. } => *status,
                        _ => unreachable!("a choice is a store-exclusive's"),
                    };
                    set_status(arch, r, status, false, DepSet::new());
                    r.pc += 1;
                }
            }
            Then::StoreEx {
                status,
                status_deps,
                units,
            } => {
                r.sources += 1;
                r.part += 1;
                if r.part < units {
                    return;
                }
                r.part = 0;
                r.succeed = false;
                r.reservation = None;
                set_status(arch, r, status, true, status_deps);
                r.pc += 1;
            }
            Then::Rmw { dst, size, units } if units > 1 => {
                // The unit's old value; the whole register once every unit is done.
                let unit = u64::from(size.bytes() / units);
                r.acc |= (low_bytes(ret as u64, unit) << (8 * u64::from(r.part) * unit)) as Val;
                r.part += 1;
                r.sources += 1;
                if r.part < units {
                    return;
                }
                let deps = (r.sources - units..r.sources).collect();
                let v = if arch == Arch::RiscV {
                    sext(r.acc, size)
                } else {
                    zext(r.acc, size)
                };
                r.part = 0;
                r.acc = 0;
                set(r, arch, dst, Size::Double, v, deps);
                r.pc += 1;
            }
            Then::Rmw { dst, size, .. }
            | Then::Cas {
                expected: dst,
                size,
            } => {
                let v = if arch == Arch::RiscV {
                    sext(ret, size)
                } else {
                    zext(ret, size)
                };
                set(r, arch, dst, Size::Double, v, vec![r.sources]);
                r.sources += 1;
                r.pc += 1;
            }
        }
    }

    fn registers(&self) -> Vec<Val> {
        let Kind::Thread(r) = &self.kind else {
            return Vec::new();
        };
        self.shared.observed[r.id]
            .iter()
            .map(|&reg| get(r, reg).0)
            .collect()
    }

    fn hw(&self) -> Option<Hw> {
        self.peeked.as_ref().and_then(|p| p.hw.clone())
    }
}

/// Writes a store-exclusive's status: 0 on success, 1 on failure (PPC: CR0's EQ).
fn set_status(arch: Arch, r: &mut Regs, status: Reg, ok: bool, deps: DepSet) {
    if status == Reg::Flags {
        r.flags = Flags::Stored(ok);
        r.flags_deps = deps;
    } else {
        set(r, arch, status, Size::Double, if ok { 0 } else { 1 }, deps);
    }
}
