//! `realloc(p, n)`, lowered by the front end as a run-time copy loop over typed cells.
//!
//! C semantics (C11 7.22.3.5), as porf runs them:
//! * `realloc(NULL, n)` is `malloc(n)`;
//! * `realloc(p, 0)` with `p` non-null frees `p` and returns NULL (glibc's behaviour;
//!   C11 leaves it implementation-defined);
//! * otherwise `p` must start a live heap block: the old block's size `s` is asked of
//!   the engine ([`Builtin::BlockSize`], right whichever thread allocated the block; a
//!   pointer that does not start a heap block, a block whose malloc does not
//!   happen-before the call and a freed block are the errors `free(p)` would get);
//!   then a new block of `n` bytes is allocated, the first `min(s, n)` bytes are
//!   copied, `p` is freed and the new block is returned.
//!
//! porf's heap holds typed scalar cells (see `memfns.rs`), so the copy uses the static
//! type `T` of the argument as written (`int *p` → cells of `int`): it loads every
//! scalar cell of the `min(s, n) / sizeof(T)` objects of type `T` of the old block and
//! stores each into the same place of the new one, non-atomically (so other threads'
//! unsynchronised accesses to either block race with the copy). The number of objects
//! is computed at run time. A `void *` argument (no type), or a `min(s, n)` that is not
//! a multiple of `sizeof(T)`, is an unsupported-input error at run time (only when the
//! copy is needed: `realloc(NULL, n)` and `realloc(p, 0)` work with any pointer type).
//! Each cell is read by a *copy load* ([`InstKind::CopyLoad`], the engine's
//! `ReadKind::Copy`): when it reads a cell no write has initialised (and the block was
//! not calloc'd), that is not an error and the store is skipped, so the new cell stays
//! uninitialised and only a later read of it is an error — C's indeterminate bytes of a
//! partly filled buffer, without inventing a value.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, Builtin, InstKind, Operand, Scalar, Terminator};
use crate::types::{CType, IntTy, Leaf};
use lang_c::ast::Expression;
use lang_c::span::Node;
use porf_graph::MemOrder;

/// `size_t` arithmetic.
const SIZE: Scalar = Scalar::int(8, false);

impl Cx<'_> {
    pub(super) fn realloc(&mut self, args: &[Node<Expression>], off: usize) -> R<Val> {
        self.argc("realloc", args, 2, off)?;
        let (pv, pty) = self.rvalue(&args[0])?;
        let p = self.assign_convert(pv, &pty, &CType::void_ptr(), args[0].span.start)?;
        let cells = pty.pointee().cloned().and_then(|t| {
            let elem = self.types.size_of(&t).filter(|&s| s > 0 && !t.is_void())?;
            let mut leaves: Vec<Leaf> = Vec::new();
            self.types.leaves(&t, 0, "", &mut leaves);
            Some((t, elem, leaves))
        });
        let (nv, nty) = self.rvalue(&args[1])?;
        let n = self.assign_convert(nv, &nty, &CType::int(IntTy::ULong), args[1].span.start)?;
        self.at(off);
        let res = self.b.reg();
        let on_null = self.b.new_block();
        let not_null = self.b.new_block();
        let on_zero = self.b.new_block();
        let moving = self.b.new_block();
        let end = self.b.new_block();
        let is_null = self.b.bin(BinOp::Eq, p, Operand::Const(0), Scalar::PTR);
        self.b.branch(is_null, on_null, not_null);

        // realloc(NULL, n): malloc(n).
        self.b.set_block(on_null);
        self.builtin_call(Some(res), Builtin::Malloc, vec![n]);
        self.b.jump(end);

        // realloc(p, 0): free(p), NULL.
        self.b.set_block(not_null);
        let is_zero = self.b.bin(BinOp::Eq, n, Operand::Const(0), SIZE);
        self.b.branch(is_zero, on_zero, moving);
        self.b.set_block(on_zero);
        self.builtin_call(None, Builtin::Free, vec![p]);
        self.b.emit(InstKind::Copy {
            dst: res,
            src: Operand::Const(0),
        });
        self.b.jump(end);

        // The move: the size query first (it checks `p` as free would).
        self.b.set_block(moving);
        let s = self.b.reg();
        self.builtin_call(Some(s), Builtin::BlockSize, vec![p]);
        let Some((t, elem, leaves)) = cells else {
            self.b.emit(InstKind::Unsupported {
                msg: format!(
                    "realloc of an allocated block through a `{}`: porf copies the block \
                     cell by cell and needs the type of its objects (pass a typed pointer, \
                     e.g. `int *`)",
                    self.show(&pty)
                ),
            });
            self.b.terminate(Terminator::Unreachable);
            self.b.set_block(end);
            return Ok(Val::R(Operand::Reg(res), CType::void_ptr()));
        };
        // m = min(s, n)
        let s = Operand::Reg(s);
        let less = self.b.bin(BinOp::Lt, s, n, SIZE);
        let diff = self.b.bin(BinOp::Sub, s, n, SIZE);
        let fix = self.b.bin(BinOp::Mul, diff, less, SIZE);
        let m = self.b.bin(BinOp::Add, n, fix, SIZE);
        let rem = self.b.bin(BinOp::Rem, m, Operand::Const(elem as i64), SIZE);
        let bad = self.b.new_block();
        let copy = self.b.new_block();
        self.b.branch(rem, bad, copy);
        self.b.set_block(bad);
        self.b.emit(InstKind::Unsupported {
            msg: format!(
                "realloc copies objects of type `{}` ({elem} bytes each): the bytes to copy \
                 (the smaller of the old and new sizes) are not a multiple of that",
                self.show(&t)
            ),
        });
        self.b.terminate(Terminator::Unreachable);

        self.b.set_block(copy);
        let q = self.b.reg();
        self.builtin_call(Some(q), Builtin::Malloc, vec![n]);
        let count = self.b.bin(BinOp::Div, m, Operand::Const(elem as i64), SIZE);
        let k = self.b.reg();
        self.b.emit(InstKind::Copy {
            dst: k,
            src: Operand::Const(0),
        });
        let head = self.b.new_block();
        let body = self.b.new_block();
        let done = self.b.new_block();
        self.b.jump(head);
        // `k` runs from 0 up to `count`, so the loop ends by itself (not an `--unroll`
        // loop of the program's).
        self.b.loop_head(head, crate::ir::LoopHead::Finite);
        self.b.set_block(head);
        let more = self.b.bin(BinOp::Lt, Operand::Reg(k), count, SIZE);
        self.b.branch(more, body, done);
        self.b.set_block(body);
        let at = self.b.bin(
            BinOp::Mul,
            Operand::Reg(k),
            Operand::Const(elem as i64),
            SIZE,
        );
        let from = self.b.bin(BinOp::Add, p, at, Scalar::PTR);
        let to = self.b.bin(BinOp::Add, Operand::Reg(q), at, Scalar::PTR);
        for l in &leaves {
            let a = self.offset_addr(from, l.offset);
            let (v, written) = self.b.copy_load(a, l.scalar, MemOrder::NonAtomic);
            let a = self.offset_addr(to, l.offset);
            let store = self.b.new_block();
            let next = self.b.new_block();
            self.b.branch(written, store, next);
            self.b.set_block(store);
            self.b.store(a, v, l.scalar, MemOrder::NonAtomic);
            self.b.jump(next);
            self.b.set_block(next);
        }
        let next = self
            .b
            .bin(BinOp::Add, Operand::Reg(k), Operand::Const(1), SIZE);
        self.b.emit(InstKind::Copy { dst: k, src: next });
        self.b.jump(head);

        self.b.set_block(done);
        self.builtin_call(None, Builtin::Free, vec![p]);
        self.b.emit(InstKind::Copy {
            dst: res,
            src: Operand::Reg(q),
        });
        self.b.jump(end);
        self.b.set_block(end);
        Ok(Val::R(Operand::Reg(res), CType::void_ptr()))
    }

    fn builtin_call(&mut self, dst: Option<crate::ir::Reg>, which: Builtin, args: Vec<Operand>) {
        self.b.emit(InstKind::Builtin { dst, which, args });
    }
}
