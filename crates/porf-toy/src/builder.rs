//! A Rust builder for toy programs.
//!
//! Invariants the builder maintains (and checks, panicking on misuse):
//! * Registers are created by the thread that uses them, numbered from 0 in creation
//!   order; an expression may only mention registers of its own thread.
//! * Locations are numbered `Loc(1)`, `Loc(2)`, ... in declaration order; only declared
//!   locations can be accessed.
//! * Every instruction that can produce an action gets a distinct [`SrcLoc`]: file 0 and
//!   a line number that runs over the whole program (threads first, then main).
//! * Structured control flow is flattened with forward jumps only, so programs are
//!   loop-free and every thread terminates.

use std::sync::Arc;

use porf_graph::{Loc, MemOrder, SrcLoc, Val};

use crate::expr::{eq, Expr, Reg};
use crate::interp::{Instr, LocDecl, RmwKind, ThreadCode, ToyProgram};

/// Builds a [`ToyProgram`]: declare locations, then threads, then [`ProgramBuilder::build`].
#[derive(Debug)]
pub struct ProgramBuilder {
    locs: Vec<LocDecl>,
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
        ToyProgram {
            locs: self.locs,
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
        assert!(
            (1..=self.num_locs).contains(&loc.0),
            "{loc} is not a location declared before this thread"
        );
        loc
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
