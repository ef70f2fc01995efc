//! Building one IR function: blocks, registers, frame slots, and instruction helpers
//! that fold constant operands.
//!
//! Invariants: there is always a current block; terminating it starts a fresh block
//! that nothing jumps to yet, so code after `return`/`break` is still lowered (and
//! type-checked) and then dropped by [`FnBuilder::finish`], which keeps only the blocks
//! reachable from the entry and renumbers them. Folding computes exactly what the
//! interpreter would (wrap-around in the instruction's type) and never folds a
//! division by zero or an out-of-range shift, which stay run-time errors.

use crate::interp::arith;
use crate::ir::{
    BinOp, Block, BlockId, Builtin, Function, Inst, InstKind, LocalVar, LoopHead, LoopId, Operand,
    Reg, Scalar, Terminator, UnOp,
};
use porf_graph::{MemOrder, SrcLoc, Val};

struct BlockB {
    insts: Vec<Inst>,
    term: Option<(Terminator, SrcLoc)>,
}

/// Break/continue targets and the case blocks of the enclosing switch.
#[derive(Default)]
pub struct Targets {
    pub breaks: Vec<BlockId>,
    pub continues: Vec<BlockId>,
}

/// A point in the code being built ([`FnBuilder::mark`]).
#[derive(Clone, Copy)]
pub struct Mark {
    cur: BlockId,
    insts: usize,
    emitted: usize,
    breaks: usize,
    continues: usize,
    calls: usize,
    heads: usize,
}

pub struct FnBuilder {
    blocks: Vec<BlockB>,
    cur: BlockId,
    pub nregs: u32,
    pub nloops: u32,
    pub frame_size: u32,
    /// Bytes of shared frame so far (`Function::shared_size`).
    pub shared_size: u32,
    /// Location given to emitted instructions and terminators.
    pub loc: SrcLoc,
    /// Instructions emitted so far (used to recognise constant expressions).
    pub emitted: usize,
    pub targets: Targets,
    /// Direct calls made: (callee, source offset, argument count).
    pub calls: Vec<(crate::ir::FuncId, usize, usize)>,
    /// The loops built so far ([`Function::loop_heads`]; block ids before renumbering).
    heads: Vec<(BlockId, LoopHead)>,
    /// The named objects of the frames so far (`Function::locals`).
    pub locals: Vec<LocalVar>,
    /// The inline library call being emitted ([`FnBuilder::begin_lib`]).
    lib: Option<crate::ir::LibMark>,
}

impl FnBuilder {
    pub fn new(nparams: u32) -> FnBuilder {
        FnBuilder {
            blocks: vec![BlockB {
                insts: Vec::new(),
                term: None,
            }],
            cur: 0,
            nregs: nparams,
            nloops: 0,
            frame_size: 0,
            shared_size: 0,
            loc: SrcLoc::UNKNOWN,
            emitted: 0,
            targets: Targets::default(),
            calls: Vec::new(),
            heads: Vec::new(),
            locals: Vec::new(),
            lib: None,
        }
    }

    pub fn cur(&self) -> BlockId {
        self.cur
    }

    pub fn nblocks(&self) -> usize {
        self.blocks.len()
    }

    pub fn reg(&mut self) -> Reg {
        self.nregs += 1;
        self.nregs - 1
    }

    pub fn new_loop(&mut self) -> LoopId {
        self.nloops += 1;
        self.nloops - 1
    }

    /// Records that `b` is the target of the back edge of a loop the front end built,
    /// bounded as `how` says ([`Function::loop_heads`]).
    pub fn loop_head(&mut self, b: BlockId, how: LoopHead) {
        self.heads.push((b, how));
    }

    /// Reserves `size` bytes of frame at `align`; `None` if the frame would exceed
    /// `limit` bytes.
    pub fn alloc_frame(&mut self, size: u64, align: u64, limit: u64) -> Option<u32> {
        let off = (self.frame_size as u64).next_multiple_of(align.max(1));
        let end = off.checked_add(size.max(1))?;
        if end > limit {
            return None;
        }
        self.frame_size = end as u32;
        Some(off as u32)
    }

    /// Reserves `size` bytes of shared frame at `align`; `None` if it would exceed
    /// `limit` bytes.
    pub fn alloc_shared(&mut self, size: u64, align: u64, limit: u64) -> Option<u32> {
        let off = (self.shared_size as u64).next_multiple_of(align.max(1));
        let end = off.checked_add(size.max(1))?;
        if end > limit {
            return None;
        }
        self.shared_size = end as u32;
        Some(off as u32)
    }

    pub fn emit(&mut self, kind: InstKind) {
        self.emitted += 1;
        let src = self.loc;
        let lib = self.lib;
        if let Some(l) = &mut self.lib {
            l.begin = false;
        }
        self.blocks[self.cur as usize]
            .insts
            .push(Inst { kind, src, lib });
    }

    /// Marks the instructions emitted from now on, up to [`FnBuilder::end_lib`], as the
    /// inline code of one call of library function `name` ([`crate::ir::Inst::lib`]);
    /// the next instruction emitted must be a local one.
    pub fn begin_lib(&mut self, name: &'static str) {
        self.lib = Some(crate::ir::LibMark { name, begin: true });
    }

    /// Ends [`FnBuilder::begin_lib`].
    pub fn end_lib(&mut self) {
        self.lib = None;
    }

    /// Where the code emitted so far ends, for [`FnBuilder::rollback`].
    pub fn mark(&self) -> Mark {
        Mark {
            cur: self.cur,
            insts: self.blocks[self.cur as usize].insts.len(),
            emitted: self.emitted,
            breaks: self.targets.breaks.len(),
            continues: self.targets.continues.len(),
            calls: self.calls.len(),
            heads: self.heads.len(),
        }
    }

    /// Forgets the code emitted since `m`: the block current at `m` is open again with
    /// its instructions of then; blocks made since stay unreachable (unless a label
    /// names one, which the caller rules out) and [`FnBuilder::finish`] drops them.
    pub fn rollback(&mut self, m: Mark) {
        let b = &mut self.blocks[m.cur as usize];
        b.insts.truncate(m.insts);
        b.term = None;
        self.cur = m.cur;
        self.emitted = m.emitted;
        self.targets.breaks.truncate(m.breaks);
        self.targets.continues.truncate(m.continues);
        self.calls.truncate(m.calls);
        self.heads.truncate(m.heads);
    }

    pub fn new_block(&mut self) -> BlockId {
        self.blocks.push(BlockB {
            insts: Vec::new(),
            term: None,
        });
        self.blocks.len() as BlockId - 1
    }

    /// Continues emitting into `b` (which must not be terminated yet).
    pub fn set_block(&mut self, b: BlockId) {
        self.cur = b;
    }

    /// Ends the current block with `t` and continues in a fresh (so far unreachable)
    /// block.
    pub fn terminate(&mut self, t: Terminator) {
        self.emitted += 1;
        let b = &mut self.blocks[self.cur as usize];
        debug_assert!(b.term.is_none());
        b.term = Some((t, self.loc));
        self.cur = self.new_block();
    }

    pub fn jump(&mut self, to: BlockId) {
        self.terminate(Terminator::Jump(to));
    }

    /// Branches on `cond != 0`; a constant condition becomes a jump.
    pub fn branch(&mut self, cond: Operand, then: BlockId, els: BlockId) {
        match cond {
            Operand::Const(c) => self.jump(if c != 0 { then } else { els }),
            cond => self.terminate(Terminator::Branch { cond, then, els }),
        }
    }

    pub fn copy(&mut self, src: Operand) -> Reg {
        let dst = self.reg();
        self.emit(InstKind::Copy { dst, src });
        dst
    }

    pub fn bin(&mut self, op: BinOp, a: Operand, b: Operand, ty: Scalar) -> Operand {
        if let (Operand::Const(x), Operand::Const(y)) = (a, b) {
            if let Some(v) = fold_bin(op, x, y, ty) {
                return Operand::Const(v);
            }
        }
        let dst = self.reg();
        self.emit(InstKind::Binary { dst, op, a, b, ty });
        Operand::Reg(dst)
    }

    pub fn un(&mut self, op: UnOp, a: Operand, ty: Scalar) -> Operand {
        if let Operand::Const(x) = a {
            return Operand::Const(fold_un(op, x, ty));
        }
        let dst = self.reg();
        self.emit(InstKind::Unary { dst, op, a, ty });
        Operand::Reg(dst)
    }

    /// Integer conversion of `a`, normalised to `from`, to `to` (wrap-around, never
    /// the `_Bool` conversion); emits nothing when the value is unchanged for every
    /// input. `unsigned char` has the same [`Scalar`] as `_Bool`, for which `Convert`
    /// means `!= 0`, so conversions to it mask with `0xff` instead.
    pub fn conv(&mut self, a: Operand, from: Scalar, to: Scalar) -> Operand {
        if from.size == 16 || to.size == 16 {
            return self.wide_conv(a, from, to);
        }
        if from.float || to.float {
            return self.fconv(a, from, to);
        }
        if let Operand::Const(x) = a {
            return Operand::Const(to.normalize(x));
        }
        if conv_is_noop(from, to) {
            return a;
        }
        if to == Scalar::BOOL {
            return self.bin(BinOp::And, a, Operand::Const(0xff), Scalar::LONG);
        }
        let dst = self.reg();
        self.emit(InstKind::Convert { dst, a, to });
        Operand::Reg(dst)
    }

    /// A conversion where `from` or `to` is floating ([`InstKind::FloatConvert`]);
    /// a constant folds unless the conversion is undefined (left to run time).
    pub fn fconv(&mut self, a: Operand, from: Scalar, to: Scalar) -> Operand {
        if from == to {
            return a;
        }
        if let Operand::Const(x) = a {
            if let Ok(v) = crate::interp::float::convert(x, from, to) {
                return Operand::Const(v);
            }
        }
        let dst = self.reg();
        self.emit(InstKind::FloatConvert { dst, a, from, to });
        Operand::Reg(dst)
    }

    /// A conversion from or to a 128-bit integer type ([`Builtin::WideConvert`]); a
    /// floating side is an "unsupported" error when it runs.
    fn wide_conv(&mut self, a: Operand, from: Scalar, to: Scalar) -> Operand {
        if from.float || to.float {
            self.emit(InstKind::Unsupported {
                msg: "conversions between 128-bit integers and floating types are not supported"
                    .into(),
            });
            return Operand::Const(0);
        }
        if from == to {
            return a;
        }
        if let Operand::Const(x) = a {
            return Operand::Const(arith::wide_convert(x, from, to));
        }
        let dst = self.reg();
        self.emit(InstKind::Builtin {
            dst: Some(dst),
            which: Builtin::WideConvert { from, to },
            args: vec![a],
        });
        Operand::Reg(dst)
    }

    /// The `_Bool` conversion of `a`: 1 if nonzero, else 0 (callers skip it for
    /// values that already are `_Bool`s).
    pub fn bool_of(&mut self, a: Operand) -> Operand {
        if let Operand::Const(x) = a {
            return Operand::Const((x != 0) as Val);
        }
        let dst = self.reg();
        self.emit(InstKind::Convert {
            dst,
            a,
            to: Scalar::BOOL,
        });
        Operand::Reg(dst)
    }

    pub fn load(&mut self, addr: Operand, ty: Scalar, ord: MemOrder) -> Operand {
        let dst = self.reg();
        self.emit(InstKind::Load { dst, addr, ty, ord });
        Operand::Reg(dst)
    }

    /// A cell copy's load: (value, 1 if the cell was initialised else 0).
    pub fn copy_load(&mut self, addr: Operand, ty: Scalar, ord: MemOrder) -> (Operand, Operand) {
        let dst = self.reg();
        let written = self.reg();
        self.emit(InstKind::CopyLoad {
            dst,
            written,
            addr,
            ty,
            ord,
        });
        (Operand::Reg(dst), Operand::Reg(written))
    }

    /// The store of a cell copy of what [`FnBuilder::copy_load`] gave.
    pub fn copy_store(
        &mut self,
        addr: Operand,
        (val, written): (Operand, Operand),
        ty: Scalar,
        ord: MemOrder,
    ) {
        self.emit(InstKind::CopyStore {
            addr,
            val,
            written,
            ty,
            ord,
        });
    }

    pub fn store(&mut self, addr: Operand, val: Operand, ty: Scalar, ord: MemOrder) {
        self.emit(InstKind::Store { addr, val, ty, ord });
    }

    pub fn tls_addr(&mut self, offset: u32) -> Operand {
        let dst = self.reg();
        self.emit(InstKind::TlsAddr { dst, offset });
        Operand::Reg(dst)
    }

    pub fn shared_addr(&mut self, offset: u32) -> Operand {
        let dst = self.reg();
        self.emit(InstKind::SharedAddr { dst, offset });
        Operand::Reg(dst)
    }

    pub fn frame_addr(&mut self, offset: u32) -> Operand {
        let dst = self.reg();
        self.emit(InstKind::FrameAddr { dst, offset });
        Operand::Reg(dst)
    }

    /// Finishes the function: the open block ends with `fallthrough`; unreachable
    /// blocks are dropped.
    pub fn finish(
        mut self,
        name: String,
        nparams: u32,
        src: SrcLoc,
        fallthrough: Terminator,
    ) -> Function {
        let loc = self.loc;
        let cur = &mut self.blocks[self.cur as usize];
        if cur.term.is_none() {
            cur.term = Some((fallthrough, loc));
        }
        // Reachability from the entry block.
        let n = self.blocks.len();
        let mut new_id = vec![u32::MAX; n];
        let mut order = vec![0usize];
        new_id[0] = 0;
        let mut i = 0;
        while i < order.len() {
            let b = order[i];
            i += 1;
            let succ: Vec<BlockId> = match self.blocks[b].term.as_ref().map(|t| &t.0) {
                Some(Terminator::Jump(t)) => vec![*t],
                Some(Terminator::Branch { then, els, .. }) => vec![*then, *els],
                _ => vec![],
            };
            for s in succ {
                if new_id[s as usize] == u32::MAX {
                    new_id[s as usize] = order.len() as u32;
                    order.push(s as usize);
                }
            }
        }
        let mut blocks = Vec::with_capacity(order.len());
        for &b in &order {
            let bb = std::mem::replace(
                &mut self.blocks[b],
                BlockB {
                    insts: Vec::new(),
                    term: None,
                },
            );
            // A reachable block without terminator is the open one of a dead region
            // that was jumped to later; it cannot happen after the fallthrough above
            // except for blocks created and never filled — they return like the end.
            let (term, term_src) = bb.term.unwrap_or((Terminator::Unreachable, loc));
            let term = match term {
                Terminator::Jump(t) => Terminator::Jump(new_id[t as usize]),
                Terminator::Branch { cond, then, els } => Terminator::Branch {
                    cond,
                    then: new_id[then as usize],
                    els: new_id[els as usize],
                },
                t => t,
            };
            blocks.push(Block {
                insts: bb.insts,
                term,
                term_src,
            });
        }
        let mut loop_heads: Vec<(BlockId, LoopHead)> = self
            .heads
            .iter()
            .filter(|(b, _)| new_id[*b as usize] != u32::MAX)
            .map(|&(b, how)| (new_id[b as usize], how))
            .collect();
        loop_heads.sort_by_key(|h| h.0);
        loop_heads.dedup_by_key(|h| h.0);
        Function {
            name,
            nparams,
            variadic: false,
            nregs: self.nregs,
            nloops: self.nloops,
            frame_size: self.frame_size,
            shared_size: self.shared_size,
            blocks,
            loop_heads,
            src,
            locals: self.locals,
        }
    }
}

/// Whether integer-converting any value normalised to `from` to `to` leaves it
/// unchanged.
pub fn conv_is_noop(from: Scalar, to: Scalar) -> bool {
    debug_assert!(!from.float && !to.float);
    if from.size == 16 || to.size == 16 {
        // Codes of `crate::wide` on one side.
        return from.size == to.size;
    }
    from == to || to.size == 8 || (to.size > from.size && (to.signed || !from.signed))
}

/// The interpreter's semantics of `a op b` at `ty` ([`arith::binary`]); `None` where
/// it raises a run-time error (division by zero, undefined shifts), which is then left
/// to run time.
pub fn fold_bin(op: BinOp, a: Val, b: Val, ty: Scalar) -> Option<Val> {
    arith::binary(op, a, b, ty).ok()
}

/// The interpreter's semantics of `op a` at `ty` ([`arith::unary`]).
pub fn fold_un(op: UnOp, a: Val, ty: Scalar) -> Val {
    arith::unary(op, a, ty)
}

#[cfg(test)]
mod tests {
    use super::*;
    const UINT: Scalar = Scalar::int(4, false);
    const ULONG: Scalar = Scalar::int(8, false);

    #[test]
    fn folding_wraps() {
        assert_eq!(
            fold_bin(BinOp::Add, i32::MAX as Val, 1, Scalar::INT),
            Some(i32::MIN as Val)
        );
        assert_eq!(fold_bin(BinOp::Sub, 0, 1, UINT), Some(u32::MAX as Val));
        assert_eq!(fold_bin(BinOp::Div, -7, 2, Scalar::INT), Some(-3));
        assert_eq!(fold_bin(BinOp::Div, 7, 0, Scalar::INT), None);
        assert_eq!(
            fold_bin(BinOp::Div, -1, 2, ULONG),
            Some((u64::MAX / 2) as Val)
        );
        assert_eq!(fold_bin(BinOp::Lt, -1, 0, ULONG), Some(0));
        assert_eq!(fold_bin(BinOp::Lt, -1, 0, Scalar::LONG), Some(1));
        assert_eq!(
            fold_bin(BinOp::Shl, 1, 31, Scalar::INT),
            Some(i32::MIN as Val)
        );
        assert_eq!(fold_bin(BinOp::Shl, 1, 32, Scalar::INT), None);
        assert_eq!(
            fold_bin(BinOp::Shr, u32::MAX as Val, 4, UINT),
            Some(0x0fff_ffff)
        );
        assert_eq!(fold_bin(BinOp::Shr, -16, 2, Scalar::INT), Some(-4));
        assert_eq!(
            fold_un(UnOp::Neg, i32::MIN as Val, Scalar::INT),
            i32::MIN as Val
        );
        assert_eq!(fold_un(UnOp::BitNot, 0, UINT), u32::MAX as Val);
    }

    #[test]
    fn conversions() {
        let mut b = FnBuilder::new(1);
        assert_eq!(
            b.conv(Operand::Const(-1), Scalar::INT, UINT),
            Operand::Const(u32::MAX as Val)
        );
        assert_eq!(
            b.conv(Operand::Const(300), Scalar::INT, Scalar::BOOL),
            Operand::Const(44)
        );
        assert_eq!(b.bool_of(Operand::Const(256)), Operand::Const(1));
        assert_eq!(b.emitted, 0);
        // To `unsigned char` (same Scalar as `_Bool`): a mask, not a `Convert`.
        b.conv(Operand::Reg(0), Scalar::INT, Scalar::BOOL);
        assert!(matches!(
            b.blocks[0].insts[0].kind,
            InstKind::Binary {
                op: BinOp::And,
                b: Operand::Const(0xff),
                ..
            }
        ));
        b.bool_of(Operand::Reg(0));
        assert!(matches!(
            b.blocks[0].insts[1].kind,
            InstKind::Convert {
                to: Scalar::BOOL,
                ..
            }
        ));
        assert!(conv_is_noop(Scalar::INT, Scalar::LONG));
        assert!(conv_is_noop(UINT, Scalar::LONG));
        assert!(!conv_is_noop(Scalar::INT, UINT));
        assert!(!conv_is_noop(Scalar::LONG, Scalar::INT));
        assert!(!conv_is_noop(Scalar::INT, Scalar::BOOL));
    }

    #[test]
    fn unreachable_blocks_are_dropped() {
        let mut b = FnBuilder::new(0);
        let exit = b.new_block();
        b.jump(exit);
        b.emit(InstKind::Abort); // dead
        b.set_block(exit);
        let f = b.finish("f".into(), 0, SrcLoc::UNKNOWN, Terminator::Return(None));
        assert_eq!(f.blocks.len(), 2);
        assert_eq!(f.blocks[0].term, Terminator::Jump(1));
        assert_eq!(f.blocks[1].term, Terminator::Return(None));
    }
}
