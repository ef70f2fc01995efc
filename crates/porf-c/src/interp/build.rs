//! Hand-built IR modules for tests: a module builder with global cells and a function
//! builder that appends instructions to a current block, numbering source lines 1, 2, ...
//! in the order instructions are added.

use crate::ir::{
    addr, Block, BlockId, Cell, FuncId, Function, Inst, InstKind, LoopId, Module, Operand, Reg,
    Scalar, Terminator,
};
use porf_graph::{SrcLoc, Val};

/// A register operand.
pub fn r(reg: Reg) -> Operand {
    Operand::Reg(reg)
}

/// A constant operand.
pub fn c(v: Val) -> Operand {
    Operand::Const(v)
}

pub struct ModB {
    m: Module,
}

impl ModB {
    pub fn new() -> ModB {
        ModB {
            m: Module {
                globals_end: addr::GLOBAL_BASE,
                files: vec!["test.c".into()],
                ..Module::default()
            },
        }
    }

    /// Adds a global scalar in its own 8-byte slot; returns its address.
    pub fn global(&mut self, name: &str, ty: Scalar, init: Val) -> Val {
        let a = self.m.globals_end;
        self.m.cells.insert(
            a,
            Cell {
                name: name.into(),
                ty,
                init,
                atomic: false,
                pointer: false,
            },
        );
        self.m.globals_end += 8;
        a
    }

    /// Reserves an id for a function added later with [`ModB::set`].
    pub fn declare(&mut self, name: &str) -> FuncId {
        self.m.funcs.push(FnB::new(name, 0).done());
        self.m.funcs.len() as FuncId - 1
    }

    pub fn set(&mut self, id: FuncId, f: FnB) {
        self.m.funcs[id as usize] = f.done();
    }

    pub fn func(&mut self, f: FnB) -> FuncId {
        self.m.funcs.push(f.done());
        self.m.funcs.len() as FuncId - 1
    }

    pub fn build(mut self, main: FuncId) -> Module {
        self.m.main = main;
        self.m
    }
}

pub struct FnB {
    f: Function,
    cur: BlockId,
    line: u32,
}

impl FnB {
    /// A function whose parameters are registers `0..nparams`, with an empty entry block
    /// (terminated by `return` unless changed).
    pub fn new(name: &str, nparams: u32) -> FnB {
        FnB {
            f: Function {
                name: name.into(),
                nparams,
                variadic: false,
                nregs: nparams,
                nloops: 0,
                frame_size: 0,
                shared_size: 0,
                blocks: Vec::new(),
                loop_heads: Vec::new(),
                src: SrcLoc::line(0),
                locals: Vec::new(),
            },
            cur: 0,
            line: 0,
        }
        .with_block()
    }

    fn with_block(mut self) -> FnB {
        self.block();
        self
    }

    pub fn reg(&mut self) -> Reg {
        self.f.nregs += 1;
        self.f.nregs - 1
    }

    pub fn loop_id(&mut self) -> LoopId {
        self.f.nloops += 1;
        self.f.nloops - 1
    }

    /// Marks `b` as a loop statement's back-edge target (`Function::loop_heads`), as
    /// the front end does for `while`, `for` and `do`.
    pub fn loop_head(&mut self, b: BlockId) {
        self.f.loop_heads.push((b, crate::ir::LoopHead::Statement));
        self.f.loop_heads.sort_by_key(|h| h.0);
    }

    /// Reserves `bytes` (8-aligned) of private frame memory; returns the offset.
    pub fn frame(&mut self, bytes: u32) -> u32 {
        let off = self.f.frame_size;
        self.f.frame_size += bytes.div_ceil(8) * 8;
        off
    }

    /// Sets the shared frame's size (`Function::shared_size`).
    pub fn shared(&mut self, bytes: u32) {
        self.f.shared_size = bytes;
    }

    /// Names an object of the frames (`Function::locals`); returns its index.
    pub fn local(&mut self, v: crate::ir::LocalVar) -> u32 {
        self.f.locals.push(v);
        self.f.locals.len() as u32 - 1
    }

    /// A new block ending in `return`; does not switch to it.
    pub fn block(&mut self) -> BlockId {
        self.f.blocks.push(Block {
            insts: Vec::new(),
            term: Terminator::Return(None),
            term_src: SrcLoc::UNKNOWN,
        });
        self.f.blocks.len() as BlockId - 1
    }

    pub fn at(&mut self, b: BlockId) {
        self.cur = b;
    }

    /// Appends an instruction to the current block; returns its source line.
    pub fn i(&mut self, kind: InstKind) -> u32 {
        self.line += 1;
        self.f.blocks[self.cur as usize].insts.push(Inst {
            kind,
            src: SrcLoc::line(self.line),
            lib: None,
        });
        self.line
    }

    /// Terminates the current block; returns its source line.
    pub fn term(&mut self, t: Terminator) -> u32 {
        self.line += 1;
        let b = &mut self.f.blocks[self.cur as usize];
        b.term = t;
        b.term_src = SrcLoc::line(self.line);
        self.line
    }

    pub fn done(self) -> Function {
        self.f
    }
}
