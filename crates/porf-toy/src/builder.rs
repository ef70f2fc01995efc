//! A Rust builder for toy programs.
//!
//! Invariants the builder maintains (and checks, panicking on misuse):
//! * Registers are created by the thread that uses them, numbered from 0 in creation
//!   order; an expression may only mention registers of its own thread.
//! * Locations are numbered `Loc(1)`, `Loc(2)`, ... in declaration order; heap blocks
//!   are placed in declaration order from [`BLOCK_BASE`], [`BLOCK_STRIDE`] apart. Only
//!   locations and block cells declared before a thread can be accessed by it, and only
//!   blocks declared before it can be allocated or freed.
//! * Every instruction that can produce an action gets a distinct [`SrcLoc`]: file 0 and
//!   a line number that runs over the whole program (threads first, then main).
//! * Structured control flow is flattened with forward jumps only, so programs are
//!   loop-free and every thread terminates.

use std::sync::Arc;

use porf_graph::{Loc, MemOrder, SrcLoc, Val};

use crate::expr::{eq, Expr, Reg};
use crate::interp::{
    BlockDecl, Instr, LocDecl, RmwKind, ThreadCode, ToyBlock, ToyProgram, BLOCK_BASE, BLOCK_STRIDE,
};

/// Builds a [`ToyProgram`]: declare locations, then threads, then [`ProgramBuilder::build`].
#[derive(Debug)]
pub struct ProgramBuilder {
    locs: Vec<LocDecl>,
    blocks: Vec<BlockDecl>,
    threads: Vec<ThreadCode>,
    next_line: u32,
    join: bool,
}

impl Default for ProgramBuilder {
    fn default() -> Self {
        ProgramBuilder::new()
    }
}

impl ProgramBuilder {
    pub fn new() -> ProgramBuilder {
        ProgramBuilder {
            locs: Vec::new(),
            blocks: Vec::new(),
            threads: Vec::new(),
            next_line: 1,
            join: true,
        }
    }

    /// Declares a location initialised to 0.
    pub fn loc(&mut self, name: &str) -> Loc {
        self.loc_init(name, 0)
    }

    /// Declares a location with initial value `init`.
    pub fn loc_init(&mut self, name: &str, init: Val) -> Loc {
        let loc = Loc(self.locs.len() as u64 + 1);
        self.locs.push(LocDecl {
            loc,
            name: name.to_string(),
            init,
        });
        loc
    }

    /// Declares a heap block of `cells` one-byte cells (1 to [`BLOCK_STRIDE`]), each
    /// initially 0, named `name[i]` in listings. Its cells can be accessed like any
    /// location, but they exist only between a [`ThreadBuilder::malloc`] and a
    /// [`ThreadBuilder::free`] of the block; a program must allocate each block at most
    /// once per execution.
    pub fn block(&mut self, name: &str, cells: u32) -> ToyBlock {
        let block = ToyBlock::new(self.blocks.len(), cells);
        self.blocks.push(BlockDecl {
            block,
            name: name.to_string(),
        });
        block
    }

    /// Makes main finish right after spawning the threads, without joining them.
    pub fn no_join(&mut self) -> &mut Self {
        self.join = false;
        self
    }

    /// Declares a thread function whose body `body` writes; returns its entry number.
    /// Main spawns thread functions in declaration order.
    pub fn thread(&mut self, body: impl FnOnce(&mut ThreadBuilder)) -> u32 {
        let entry = self.threads.len() as u32;
        let mut t = ThreadBuilder {
            thread: entry,
            instrs: Vec::new(),
            num_regs: 0,
            next_line: self.next_line,
            num_locs: self.locs.len() as u64,
            blocks: self.blocks.iter().map(|b| b.block).collect(),
        };
        body(&mut t);
        self.next_line = t.next_line;
        self.threads.push(ThreadCode {
            name: format!("P{entry}"),
            instrs: t.instrs,
            num_regs: t.num_regs,
            observable: true,
        });
        entry
    }

    /// Finishes the program, generating the main thread.
    pub fn build(self) -> ToyProgram {
        let n = self.threads.len() as u32;
        let mut line = self.next_line;
        let mut src = || {
            line += 1;
            SrcLoc::line(line - 1)
        };
        let reg = |index| Reg {
            thread: Reg::MAIN_THREAD,
            index,
        };
        let mut instrs: Vec<Instr> = (0..n)
            .map(|i| Instr::Spawn {
                dst: reg(i),
                entry: i,
                src: src(),
            })
            .collect();
        if self.join {
            instrs.extend((0..n).map(|i| Instr::Join {
                tid: Expr::Reg(reg(i)),
                src: src(),
            }));
        }
        let main = ThreadCode {
            name: "main".to_string(),
            instrs,
            num_regs: n,
            observable: false,
        };
        assert!(
            (self.locs.len() as u64) < BLOCK_BASE,
            "too many locations: they would reach the block region"
        );
        ToyProgram {
            locs: self.locs,
            blocks: self.blocks,
            threads: self.threads.into_iter().map(Arc::new).collect(),
            main: Arc::new(main),
        }
    }
}

/// Writes the body of one thread function; see [`ProgramBuilder::thread`].
#[derive(Debug)]
pub struct ThreadBuilder {
    thread: u32,
    instrs: Vec<Instr>,
    num_regs: u32,
    next_line: u32,
    num_locs: u64,
    /// The blocks declared before this thread.
    blocks: Vec<ToyBlock>,
}

impl ThreadBuilder {
    /// This thread's entry number.
    pub fn entry(&self) -> u32 {
        self.thread
    }

    /// The number of registers created so far.
    pub fn num_regs(&self) -> u32 {
        self.num_regs
    }

    fn new_reg(&mut self) -> Reg {
        self.num_regs += 1;
        Reg {
            thread: self.thread,
            index: self.num_regs - 1,
        }
    }

    fn src(&mut self) -> SrcLoc {
        self.next_line += 1;
        SrcLoc::line(self.next_line - 1)
    }

    fn check_loc(&self, loc: Loc) -> Loc {
        let cell = || {
            let k = (loc.0.checked_sub(BLOCK_BASE)? / BLOCK_STRIDE) as usize;
            let b = self.blocks.get(k)?;
            (loc.0 - b.base().0 < b.cells() as u64).then_some(())
        };
        assert!(
            (1..=self.num_locs).contains(&loc.0) || cell().is_some(),
            "{loc} is not a location or block cell declared before this thread"
        );
        loc
    }

    fn check_block(&self, block: ToyBlock) -> ToyBlock {
        assert!(
            self.blocks.contains(&block),
            "block at {} is not declared before this thread",
            block.base()
        );
        block
    }

    fn expr(&self, e: impl Into<Expr>) -> Expr {
        let e = e.into();
        e.for_each_reg(&mut |r| {
            assert!(
                r.thread == self.thread && r.index < self.num_regs,
                "register {r} of thread {} used in thread {}",
                r.thread,
                self.thread
            )
        });
        e
    }

    /// `r = load(loc, ord)`.
    pub fn load(&mut self, loc: Loc, ord: MemOrder) -> Reg {
        let loc = self.check_loc(loc);
        let (dst, src) = (self.new_reg(), self.src());
        self.instrs.push(Instr::Load { dst, loc, ord, src });
        dst
    }

    /// `store(loc, val, ord)`.
    pub fn store(&mut self, loc: Loc, val: impl Into<Expr>, ord: MemOrder) {
        let (loc, val, src) = (self.check_loc(loc), self.expr(val), self.src());
        self.instrs.push(Instr::Store { loc, val, ord, src });
    }

    /// `r = kind(loc, operand, ord)`; `r` receives the old value.
    pub fn rmw(&mut self, loc: Loc, kind: RmwKind, operand: impl Into<Expr>, ord: MemOrder) -> Reg {
        let (loc, operand) = (self.check_loc(loc), self.expr(operand));
        let (dst, src) = (self.new_reg(), self.src());
        self.instrs.push(Instr::Rmw {
            dst,
            loc,
            kind,
            operand,
            ord,
            src,
        });
        dst
    }

    pub fn fetch_add(&mut self, loc: Loc, v: impl Into<Expr>, ord: MemOrder) -> Reg {
        self.rmw(loc, RmwKind::Add, v, ord)
    }
    pub fn fetch_sub(&mut self, loc: Loc, v: impl Into<Expr>, ord: MemOrder) -> Reg {
        self.rmw(loc, RmwKind::Sub, v, ord)
    }
    pub fn fetch_and(&mut self, loc: Loc, v: impl Into<Expr>, ord: MemOrder) -> Reg {
        self.rmw(loc, RmwKind::And, v, ord)
    }
    pub fn fetch_or(&mut self, loc: Loc, v: impl Into<Expr>, ord: MemOrder) -> Reg {
        self.rmw(loc, RmwKind::Or, v, ord)
    }
    pub fn fetch_xor(&mut self, loc: Loc, v: impl Into<Expr>, ord: MemOrder) -> Reg {
        self.rmw(loc, RmwKind::Xor, v, ord)
    }
    pub fn exchange(&mut self, loc: Loc, v: impl Into<Expr>, ord: MemOrder) -> Reg {
        self.rmw(loc, RmwKind::Xchg, v, ord)
    }

    /// Compare-exchange; the returned register holds the old value (success iff it
    /// equals `expected`).
    pub fn cas(
        &mut self,
        loc: Loc,
        expected: impl Into<Expr>,
        new: impl Into<Expr>,
        ord: MemOrder,
        fail_ord: MemOrder,
    ) -> Reg {
        let loc = self.check_loc(loc);
        let (expected, new) = (self.expr(expected), self.expr(new));
        let (dst, src) = (self.new_reg(), self.src());
        self.instrs.push(Instr::Cas {
            dst,
            loc,
            expected,
            new,
            ord,
            fail_ord,
            src,
        });
        dst
    }

    pub fn fence(&mut self, ord: MemOrder) {
        let src = self.src();
        self.instrs.push(Instr::Fence { ord, src });
    }

    pub fn lock(&mut self, loc: Loc) {
        let (loc, src) = (self.check_loc(loc), self.src());
        self.instrs.push(Instr::Lock { loc, src });
    }

    /// The returned register holds the lock's old value (0: acquired).
    pub fn trylock(&mut self, loc: Loc) -> Reg {
        let loc = self.check_loc(loc);
        let (dst, src) = (self.new_reg(), self.src());
        self.instrs.push(Instr::TryLock { dst, loc, src });
        dst
    }

    pub fn unlock(&mut self, loc: Loc) {
        let (loc, src) = (self.check_loc(loc), self.src());
        self.instrs.push(Instr::Unlock { loc, src });
    }

    /// `mutex_init(loc)`: (re)initialises the mutex at `loc` to unlocked, a non-atomic
    /// write of 0.
    pub fn mutex_init(&mut self, loc: Loc) {
        let (loc, src) = (self.check_loc(loc), self.src());
        self.instrs.push(Instr::MutexInit { loc, src });
    }

    /// `mutex_destroy(loc)`: a non-atomic write of the destroyed value; a later lock or
    /// trylock that reads it is an error.
    pub fn mutex_destroy(&mut self, loc: Loc) {
        let (loc, src) = (self.check_loc(loc), self.src());
        self.instrs.push(Instr::MutexDestroy { loc, src });
    }

    /// `malloc(block, size)`: allocates `block` with `size` bytes, so its cells
    /// `0..size` are in bounds (`size` may differ from the declared number of cells);
    /// they are uninitialised until written. Must run at most once per execution.
    pub fn malloc(&mut self, block: ToyBlock, size: u64) {
        self.alloc(block, size, false);
    }

    /// `calloc(block, size)`: as [`ThreadBuilder::malloc`], but the cells start out 0.
    pub fn calloc(&mut self, block: ToyBlock, size: u64) {
        self.alloc(block, size, true);
    }

    fn alloc(&mut self, block: ToyBlock, size: u64, zeroed: bool) {
        let (base, src) = (self.check_block(block).base(), self.src());
        self.instrs.push(Instr::Malloc {
            base,
            size,
            zeroed,
            src,
        });
    }

    /// `free(block)`.
    pub fn free(&mut self, block: ToyBlock) {
        let (base, src) = (self.check_block(block).base(), self.src());
        self.instrs.push(Instr::Free { base, src });
    }

    /// Blocks the thread (the execution is discarded) unless `cond` is non-zero.
    pub fn assume(&mut self, cond: impl Into<Expr>) {
        let (cond, src) = (self.expr(cond), self.src());
        self.instrs.push(Instr::Assume { cond, src });
    }

    /// Raises an assertion error unless `cond` is non-zero.
    pub fn assert(&mut self, cond: impl Into<Expr>) {
        let (cond, src) = (self.expr(cond), self.src());
        self.instrs.push(Instr::Assert { cond, src });
    }

    /// Runs the code `then` writes when `cond` is non-zero, else the code `els` writes.
    pub fn if_(
        &mut self,
        cond: impl Into<Expr>,
        then: impl FnOnce(&mut ThreadBuilder),
        els: impl FnOnce(&mut ThreadBuilder),
    ) {
        let cond = self.expr(cond);
        let branch = self.instrs.len();
        self.instrs.push(Instr::BranchIfZero {
            cond,
            target: usize::MAX,
        });
        then(self);
        let jump = self.instrs.len();
        self.instrs.push(Instr::Jump { target: usize::MAX });
        let else_start = self.instrs.len();
        els(self);
        let end = self.instrs.len();
        if let Instr::BranchIfZero { target, .. } = &mut self.instrs[branch] {
            *target = else_start;
        }
        if let Instr::Jump { target } = &mut self.instrs[jump] {
            *target = end;
        }
    }

    /// `if reg == val { then } else { els }`.
    pub fn if_eq(
        &mut self,
        reg: Reg,
        val: Val,
        then: impl FnOnce(&mut ThreadBuilder),
        els: impl FnOnce(&mut ThreadBuilder),
    ) {
        self.if_(eq(reg, val), then, els)
    }
}
