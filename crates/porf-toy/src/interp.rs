//! The flat instruction form of toy programs and the interpreter that implements porf's
//! [`ThreadMachine`] and [`Program`] contract.
//!
//! Invariants:
//! * Every jump target of a [`ThreadCode`] is at most `instrs.len()` (the end).
//! * Every register an instruction mentions belongs to that thread and has
//!   `index < num_regs`.
//! * Heap block `k` of a [`ToyProgram`] starts at `BLOCK_BASE + k * BLOCK_STRIDE`;
//!   [`Program::block_of`] maps every address of that stride to the block's base.
//! * A [`ToyThread`]'s `pc` always points at the instruction whose action `peek` returns
//!   (or past the end, meaning `Finish`); `peek` only runs pure instructions (jumps, true
//!   assumptions and assertions), so calling it repeatedly yields the same action.

use std::fmt;
use std::sync::Arc;

use porf_graph::{Action, ErrorKind, Loc, MemOrder, Program, RmwOp, SrcLoc, ThreadMachine, Val};

use crate::expr::{Expr, Reg};

/// The width of every toy location: each is a one-byte cell (so the cells of a heap
/// block are consecutive addresses).
pub const CELL_BYTES: u8 = 1;

/// The first address of the heap-block region: block `k` (in declaration order) covers
/// `BLOCK_BASE + k * BLOCK_STRIDE ..` up to the next block; ordinary locations are
/// numbered from 1 and stay far below.
pub const BLOCK_BASE: u64 = 1 << 20;

/// The address distance between consecutive blocks, and so the most cells a block can
/// have.
pub const BLOCK_STRIDE: u64 = 256;

/// The non-compare-exchange read-modify-write operations.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RmwKind {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Xchg,
}

impl RmwKind {
    /// The contract's operation with the evaluated operand.
    pub fn op(self, v: Val) -> RmwOp {
        match self {
            RmwKind::Add => RmwOp::Add(v, porf_graph::Wrap::NONE),
            RmwKind::Sub => RmwOp::Sub(v, porf_graph::Wrap::NONE),
            RmwKind::And => RmwOp::And(v),
            RmwKind::Or => RmwOp::Or(v),
            RmwKind::Xor => RmwOp::Xor(v),
            RmwKind::Xchg => RmwOp::Xchg(v),
        }
    }

    /// The C11-style name (`fetch_add`, `exchange`, ...).
    pub fn name(self) -> &'static str {
        match self {
            RmwKind::Add => "fetch_add",
            RmwKind::Sub => "fetch_sub",
            RmwKind::And => "fetch_and",
            RmwKind::Or => "fetch_or",
            RmwKind::Xor => "fetch_xor",
            RmwKind::Xchg => "exchange",
        }
    }
}

/// One instruction. Those with a `src` produce an action (assumptions and assertions
/// only when they fail); `BranchIfZero` and `Jump` are pure control flow.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Instr {
    Load {
        dst: Reg,
        loc: Loc,
        ord: MemOrder,
        src: SrcLoc,
    },
    Store {
        loc: Loc,
        val: Expr,
        ord: MemOrder,
        src: SrcLoc,
    },
    /// `dst = op(loc, operand)`; `dst` receives the old value.
    Rmw {
        dst: Reg,
        loc: Loc,
        kind: RmwKind,
        operand: Expr,
        ord: MemOrder,
        src: SrcLoc,
    },
    /// Compare-exchange; `dst` receives the old value.
    Cas {
        dst: Reg,
        loc: Loc,
        expected: Expr,
        new: Expr,
        ord: MemOrder,
        fail_ord: MemOrder,
        src: SrcLoc,
    },
    Fence {
        ord: MemOrder,
        src: SrcLoc,
    },
    Lock {
        loc: Loc,
        src: SrcLoc,
    },
    /// `dst` receives the lock's old value (0: acquired).
    TryLock {
        dst: Reg,
        loc: Loc,
        src: SrcLoc,
    },
    Unlock {
        loc: Loc,
        src: SrcLoc,
    },
    /// Initialises the mutex at `loc` (a non-atomic write of 0).
    MutexInit {
        loc: Loc,
        src: SrcLoc,
    },
    /// Destroys the mutex at `loc` (a later lock of it is an error).
    MutexDestroy {
        loc: Loc,
        src: SrcLoc,
    },
    /// Allocates the heap block starting at `base` with `size` bytes (cells), zero-filled
    /// (`calloc`) if `zeroed`, else uninitialised until written (`malloc`).
    Malloc {
        base: Loc,
        size: u64,
        zeroed: bool,
        src: SrcLoc,
    },
    /// Frees the heap block starting at `base`.
    Free {
        base: Loc,
        src: SrcLoc,
    },
    /// Blocks the thread when `cond` is 0.
    Assume {
        cond: Expr,
        src: SrcLoc,
    },
    /// Raises an [`ErrorKind::Assertion`] error when `cond` is 0.
    Assert {
        cond: Expr,
        src: SrcLoc,
    },
    /// Starts thread function `entry` (argument 0); `dst` receives the child's tid.
    Spawn {
        dst: Reg,
        entry: u32,
        src: SrcLoc,
    },
    /// Waits for the thread whose tid `tid` evaluates to.
    Join {
        tid: Expr,
        src: SrcLoc,
    },
    /// Continues at `target` when `cond` is 0, otherwise at the next instruction.
    BranchIfZero {
        cond: Expr,
        target: usize,
    },
    /// Continues at `target`.
    Jump {
        target: usize,
    },
}

impl Instr {
    /// The register the action's result is written to, if any.
    pub fn dst(&self) -> Option<Reg> {
        match self {
            Instr::Load { dst, .. }
            | Instr::Rmw { dst, .. }
            | Instr::Cas { dst, .. }
            | Instr::TryLock { dst, .. }
            | Instr::Spawn { dst, .. } => Some(*dst),
            _ => None,
        }
    }

    /// Whether the instruction is a memory event (an access, fence, mutex operation,
    /// allocation or free) for the event bound of random programs.
    pub fn is_memory_event(&self) -> bool {
        matches!(
            self,
            Instr::Load { .. }
                | Instr::Store { .. }
                | Instr::Rmw { .. }
                | Instr::Cas { .. }
                | Instr::Fence { .. }
                | Instr::Lock { .. }
                | Instr::TryLock { .. }
                | Instr::Unlock { .. }
                | Instr::MutexInit { .. }
                | Instr::MutexDestroy { .. }
                | Instr::Malloc { .. }
                | Instr::Free { .. }
        )
    }

    /// The source location of an instruction that can produce an action (`None` for
    /// jumps).
    pub fn src(&self) -> Option<SrcLoc> {
        match self {
            Instr::BranchIfZero { .. } | Instr::Jump { .. } => None,
            Instr::Load { src, .. }
            | Instr::Store { src, .. }
            | Instr::Rmw { src, .. }
            | Instr::Cas { src, .. }
            | Instr::Fence { src, .. }
            | Instr::Lock { src, .. }
            | Instr::TryLock { src, .. }
            | Instr::Unlock { src, .. }
            | Instr::MutexInit { src, .. }
            | Instr::MutexDestroy { src, .. }
            | Instr::Malloc { src, .. }
            | Instr::Free { src, .. }
            | Instr::Assume { src, .. }
            | Instr::Assert { src, .. }
            | Instr::Spawn { src, .. }
            | Instr::Join { src, .. } => Some(*src),
        }
    }

    /// The access order of a memory instruction (the success order for a CAS).
    pub fn ord(&self) -> Option<MemOrder> {
        match self {
            Instr::Load { ord, .. }
            | Instr::Store { ord, .. }
            | Instr::Rmw { ord, .. }
            | Instr::Cas { ord, .. }
            | Instr::Fence { ord, .. } => Some(*ord),
            _ => None,
        }
    }
}

/// The code of one thread function.
#[derive(Clone, Debug)]
pub struct ThreadCode {
    /// For listings: `P0`, `P1`, ... or `main`.
    pub name: String,
    pub instrs: Vec<Instr>,
    /// Size of the register file.
    pub num_regs: u32,
    /// Whether [`ThreadMachine::registers`] reports the registers (false for main).
    pub observable: bool,
}

/// A declared shared location.
#[derive(Clone, Debug)]
pub struct LocDecl {
    pub loc: Loc,
    pub name: String,
    pub init: Val,
}

/// A declared heap block: `cells` one-byte cells at consecutive addresses from `base`
/// (a multiple of [`BLOCK_STRIDE`] from [`BLOCK_BASE`]), each initially 0. The cells
/// exist only between a `malloc` and a `free` of the block (see
/// [`Program::block_of`]); accessing them otherwise is a lifetime error the explorers
/// report.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ToyBlock {
    base: Loc,
    cells: u32,
}

impl ToyBlock {
    /// The block `index` (in declaration order) with `cells` cells.
    pub(crate) fn new(index: usize, cells: u32) -> ToyBlock {
        assert!(
            (1..=BLOCK_STRIDE).contains(&(cells as u64)),
            "a block has 1 to {BLOCK_STRIDE} cells, not {cells}"
        );
        ToyBlock {
            base: Loc(BLOCK_BASE + index as u64 * BLOCK_STRIDE),
            cells,
        }
    }
    /// The block's first address (what `malloc` and `free` name).
    pub fn base(self) -> Loc {
        self.base
    }
    /// The number of declared cells.
    pub fn cells(self) -> u32 {
        self.cells
    }
    /// The address of cell `i` (`i < cells`).
    pub fn cell(self, i: u32) -> Loc {
        assert!(
            i < self.cells,
            "cell {i} of a block of {} cells",
            self.cells
        );
        Loc(self.base.0 + i as u64)
    }
    /// The index of the block in declaration order.
    pub fn index(self) -> usize {
        ((self.base.0 - BLOCK_BASE) / BLOCK_STRIDE) as usize
    }
}

/// A declared heap block with its name.
#[derive(Clone, Debug)]
pub struct BlockDecl {
    pub block: ToyBlock,
    pub name: String,
}

/// A toy program: declared locations and heap blocks, thread functions (entry `i` is the
/// `i`-th declared thread) and a generated main thread that spawns (and normally joins)
/// them in order.
#[derive(Clone, Debug)]
pub struct ToyProgram {
    pub(crate) locs: Vec<LocDecl>,
    pub(crate) blocks: Vec<BlockDecl>,
    pub(crate) threads: Vec<Arc<ThreadCode>>,
    pub(crate) main: Arc<ThreadCode>,
}

impl ToyProgram {
    /// The declared locations, in declaration order (heap blocks not included).
    pub fn locations(&self) -> &[LocDecl] {
        &self.locs
    }
    /// The declared heap blocks, in declaration order.
    pub fn blocks(&self) -> &[BlockDecl] {
        &self.blocks
    }
    /// The number of thread functions (not counting main).
    pub fn num_threads(&self) -> usize {
        self.threads.len()
    }
    /// The code of thread function `entry`.
    pub fn thread_code(&self, entry: u32) -> &ThreadCode {
        &self.threads[entry as usize]
    }
    /// The code of the main thread.
    pub fn main_code(&self) -> &ThreadCode {
        &self.main
    }
    /// The number of memory-event instructions in all thread functions (both arms of
    /// every branch counted; main's spawns and joins not counted).
    pub fn event_count(&self) -> usize {
        self.threads
            .iter()
            .flat_map(|t| &t.instrs)
            .filter(|i| i.is_memory_event())
            .count()
    }

    fn decl(&self, loc: Loc) -> Option<&LocDecl> {
        let i = usize::try_from(loc.0).ok()?.checked_sub(1)?;
        self.locs.get(i).filter(|d| d.loc == loc)
    }

    /// The declared block whose address range contains `loc`.
    fn block_decl(&self, loc: Loc) -> Option<&BlockDecl> {
        let k = loc.0.checked_sub(BLOCK_BASE)? / BLOCK_STRIDE;
        self.blocks.get(usize::try_from(k).ok()?)
    }
}

impl Program for ToyProgram {
    type Thread = ToyThread;

    fn main_thread(&self) -> ToyThread {
        ToyThread::new(Arc::clone(&self.main))
    }

    /// Thread function `entry`; toy threads take no argument, so `arg` is ignored.
    fn spawn(&self, _tid: porf_graph::Tid, entry: u32, _arg: Val) -> ToyThread {
        let code = self
            .threads
            .get(entry as usize)
            .unwrap_or_else(|| panic!("toy program has no thread function {entry}"));
        ToyThread::new(Arc::clone(code))
    }

    fn init_value(&self, loc: Loc) -> Val {
        self.decl(loc).map_or(0, |d| d.init)
    }

    /// The base of the declared block whose address range (its [`BLOCK_STRIDE`]
    /// addresses, not only its declared cells) contains `loc`.
    fn block_of(&self, loc: Loc) -> Option<Loc> {
        self.block_decl(loc).map(|b| b.block.base)
    }

    /// A location's name; a block's cell `i` is `name[i]`.
    fn loc_name(&self, loc: Loc) -> String {
        if let Some(d) = self.decl(loc) {
            return d.name.clone();
        }
        match self.block_decl(loc) {
            Some(b) => format!("{}[{}]", b.name, loc.0 - b.block.base.0),
            None => loc.to_string(),
        }
    }
}

/// A running toy thread: shared code, a program counter and a register file.
#[derive(Clone, Debug)]
pub struct ToyThread {
    code: Arc<ThreadCode>,
    pc: usize,
    regs: Vec<Val>,
}

impl ToyThread {
    /// A thread at the start of `code` with all registers 0.
    pub fn new(code: Arc<ThreadCode>) -> ToyThread {
        let regs = vec![0; code.num_regs as usize];
        ToyThread { code, pc: 0, regs }
    }

    /// The index of the current instruction (`instrs.len()` once finished).
    pub fn pc(&self) -> usize {
        self.pc
    }
}

impl ToyThread {
    /// The action of the instruction at the program counter, or `Err` with the next
    /// program counter when that instruction is local (a branch, a jump, an assume or
    /// assertion that holds).
    fn at_pc(&self) -> Result<Action, usize> {
        let regs = &self.regs;
        let val = |e: &Expr| e.eval(&|r: Reg| regs[r.index as usize]);
        let Some(instr) = self.code.instrs.get(self.pc) else {
            return Ok(Action::Finish { ret: 0 });
        };
        Ok(match instr {
            Instr::BranchIfZero { cond, target } => {
                return Err(if val(cond) == 0 { *target } else { self.pc + 1 });
            }
            Instr::Jump { target } => return Err(*target),
            Instr::Assume { cond, src } => {
                if val(cond) != 0 {
                    return Err(self.pc + 1);
                }
                Action::Block {
                    reason: porf_graph::BlockReason::Assume,
                    src: *src,
                }
            }
            Instr::Assert { cond, src } => {
                if val(cond) != 0 {
                    return Err(self.pc + 1);
                }
                Action::Error {
                    kind: ErrorKind::Assertion,
                    msg: format!("assertion failed: {cond}"),
                    src: *src,
                }
            }
            Instr::Load { loc, ord, src, .. } => Action::Load {
                loc: *loc,
                bytes: CELL_BYTES,
                ord: *ord,
                copy: false,
                src: *src,
            },
            Instr::Store {
                loc,
                val: v,
                ord,
                src,
            } => Action::Store {
                loc: *loc,
                bytes: CELL_BYTES,
                val: val(v),
                ord: *ord,
                src: *src,
            },
            Instr::Rmw {
                loc,
                kind,
                operand,
                ord,
                src,
                ..
            } => Action::Rmw {
                loc: *loc,
                bytes: CELL_BYTES,
                op: kind.op(val(operand)),
                ord: *ord,
                src: *src,
            },
            Instr::Cas {
                loc,
                expected,
                new,
                ord,
                fail_ord,
                src,
                ..
            } => Action::Rmw {
                loc: *loc,
                bytes: CELL_BYTES,
                op: RmwOp::Cas {
                    expected: val(expected),
                    new: val(new),
                    fail_ord: *fail_ord,
                },
                ord: *ord,
                src: *src,
            },
            Instr::Fence { ord, src } => Action::Fence {
                ord: *ord,
                src: *src,
            },
            Instr::Lock { loc, src } => Action::Lock {
                loc: *loc,
                src: *src,
            },
            Instr::TryLock { loc, src, .. } => Action::TryLock {
                loc: *loc,
                src: *src,
            },
            Instr::Unlock { loc, src } => Action::Unlock {
                loc: *loc,
                src: *src,
            },
            Instr::MutexInit { loc, src } => Action::MutexInit {
                loc: *loc,
                src: *src,
            },
            Instr::MutexDestroy { loc, src } => Action::MutexDestroy {
                loc: *loc,
                src: *src,
            },
            Instr::Malloc {
                base,
                size,
                zeroed,
                src,
            } => Action::Malloc {
                base: *base,
                size: *size,
                zeroed: *zeroed,
                src: *src,
            },
            Instr::Free { base, src } => Action::Free {
                base: *base,
                src: *src,
            },
            Instr::Spawn { entry, src, .. } => Action::Spawn {
                entry: *entry,
                arg: 0,
                symmetric: porf_graph::Symmetry::Asymmetric,
                src: *src,
            },
            Instr::Join { tid, src } => Action::Join {
                tid: u32::try_from(val(tid)).expect("join of a non-tid value"),
                src: *src,
            },
        })
    }
}

impl ThreadMachine for ToyThread {
    fn peek(&mut self) -> Action {
        loop {
            match self.at_pc() {
                Ok(a) => return a,
                Err(pc) => self.pc = pc,
            }
        }
    }

    /// The action at the program counter when it is one (as after a `peek`).
    fn peeked(&self) -> Option<Action> {
        self.at_pc().ok()
    }

    fn resume(&mut self, ret: Val) {
        let instr = self
            .code
            .instrs
            .get(self.pc)
            .expect("resume called on a finished toy thread");
        debug_assert!(
            !matches!(
                instr,
                Instr::BranchIfZero { .. }
                    | Instr::Jump { .. }
                    | Instr::Assume { .. }
                    | Instr::Assert { .. }
            ),
            "resume without a pending action (missing peek?)"
        );
        if let Some(dst) = instr.dst() {
            self.regs[dst.index as usize] = ret;
        }
        self.pc += 1;
    }

    fn registers(&self) -> Vec<Val> {
        if self.code.observable {
            self.regs.clone()
        } else {
            Vec::new()
        }
    }
}

/// Writes `instr` with location names from `prog`.
fn fmt_instr(prog: &ToyProgram, instr: &Instr, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let n = |l: &Loc| prog.loc_name(*l);
    let block = |l: &Loc| {
        prog.block_decl(*l)
            .filter(|b| b.block.base == *l)
            .map_or_else(|| l.to_string(), |b| b.name.clone())
    };
    match instr {
        Instr::Load { dst, loc, ord, .. } => write!(f, "{dst} = load({}, {})", n(loc), ord.short()),
        Instr::Store { loc, val, ord, .. } => {
            write!(f, "store({}, {val}, {})", n(loc), ord.short())
        }
        Instr::Rmw {
            dst,
            loc,
            kind,
            operand,
            ord,
            ..
        } => write!(
            f,
            "{dst} = {}({}, {operand}, {})",
            kind.name(),
            n(loc),
            ord.short()
        ),
        Instr::Cas {
            dst,
            loc,
            expected,
            new,
            ord,
            fail_ord,
            ..
        } => write!(
            f,
            "{dst} = cas({}, {expected}, {new}, {}, {})",
            n(loc),
            ord.short(),
            fail_ord.short()
        ),
        Instr::Fence { ord, .. } => write!(f, "fence({})", ord.short()),
        Instr::Lock { loc, .. } => write!(f, "lock({})", n(loc)),
        Instr::TryLock { dst, loc, .. } => write!(f, "{dst} = trylock({})", n(loc)),
        Instr::Unlock { loc, .. } => write!(f, "unlock({})", n(loc)),
        Instr::MutexInit { loc, .. } => write!(f, "mutex_init({})", n(loc)),
        Instr::MutexDestroy { loc, .. } => write!(f, "mutex_destroy({})", n(loc)),
        Instr::Malloc {
            base, size, zeroed, ..
        } => {
            let name = if *zeroed { "calloc" } else { "malloc" };
            write!(f, "{name}({}, {size})", block(base))
        }
        Instr::Free { base, .. } => write!(f, "free({})", block(base)),
        Instr::Assume { cond, .. } => write!(f, "assume({cond})"),
        Instr::Assert { cond, .. } => write!(f, "assert({cond})"),
        Instr::Spawn { dst, entry, .. } => {
            let name = prog.threads.get(*entry as usize).map_or("?", |t| &t.name);
            write!(f, "{dst} = spawn({name})")
        }
        Instr::Join { tid, .. } => write!(f, "join({tid})"),
        Instr::BranchIfZero { cond, target } => write!(f, "if !({cond}) goto {target}"),
        Instr::Jump { target } => write!(f, "goto {target}"),
    }
}

impl fmt::Display for ToyProgram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "locations:")?;
        for d in &self.locs {
            write!(f, " {}={}", d.name, d.init)?;
        }
        writeln!(f)?;
        if !self.blocks.is_empty() {
            write!(f, "blocks:")?;
            for b in &self.blocks {
                write!(f, " {}[{}]", b.name, b.block.cells)?;
            }
            writeln!(f)?;
        }
        for code in std::iter::once(&self.main).chain(&self.threads) {
            writeln!(f, "{}:", code.name)?;
            for (i, instr) in code.instrs.iter().enumerate() {
                let line = instr
                    .src()
                    .map_or_else(String::new, |src| format!("L{}", src.line));
                write!(f, "  {i:>3} {line:>4}  ")?;
                fmt_instr(self, instr, f)?;
                writeln!(f)?;
            }
        }
        Ok(())
    }
}
