//! `sprintf` and `snprintf`: printf's formatting ([`super::print`], the interpreter's
//! `print::format_exact`) into the caller's buffer.
//!
//! The text is formatted at run time into the thread's scratch text
//! ([`InstKind::Print`] with `to_buffer`), then a copy loop stores it byte by byte into
//! the buffer as non-atomic `char` stores ([`Builtin::FormattedByte`]), so a buffer in
//! shared memory gets ordinary events (racy, out-of-bounds and freed accesses are
//! reported as for any store) and a private one none. `snprintf(buf, n, ...)` stores
//! the first `min(len, n - 1)` bytes and a terminating NUL when `n > 0` and nothing
//! when `n == 0`; `sprintf` stores the whole text and the NUL. Both return the length
//! of the whole text (C11 7.21.6.5, 7.21.6.6). The copy loop ends by itself (it is not
//! an `--unroll` loop). Only exactly formatted text is accepted: a format that is not
//! a string literal, `%p`, `%s` of a string that is not a string literal and the
//! conversions printf shows by name are "unsupported" errors when the call runs.

use super::expr::Val;
use super::literals::string_value;
use super::{Cx, R};
use crate::ir::{BinOp, Builtin, InstKind, Operand, Scalar, Terminator};
use crate::types::{CType, IntTy};
use lang_c::ast::Expression;
use lang_c::span::Node;
use porf_graph::MemOrder;

/// `size_t` arithmetic.
const SIZE: Scalar = Scalar::int(8, false);

impl Cx<'_> {
    /// `sprintf(buf, fmt, ...)` or `snprintf(buf, n, fmt, ...)`.
    pub(super) fn sprintf(&mut self, name: &str, args: &[Node<Expression>], off: usize) -> R<Val> {
        let bounded = name == "snprintf";
        let fmt_at = if bounded { 2 } else { 1 };
        if args.len() <= fmt_at {
            return self.err(
                off,
                format!("`{name}` needs at least {} arguments", fmt_at + 1),
            );
        }
        let (buf, bt) = self.rvalue(&args[0])?;
        let bytes = |p: &CType| p.is_void() || p.scalar().is_some_and(|s| s.size == 1 && !s.float);
        if !bt.pointee().is_some_and(bytes) {
            return self.err(
                args[0].span.start,
                format!(
                    "first argument of `{name}` must be a `char *` (got `{}`)",
                    self.show(&bt)
                ),
            );
        }
        let limit = if bounded {
            let (n, nt) = self.rvalue(&args[1])?;
            Some(self.assign_convert(n, &nt, &CType::int(IntTy::ULong), args[1].span.start)?)
        } else {
            None
        };
        let fmt = &args[fmt_at];
        let rest = &args[fmt_at + 1..];
        let lit = match &fmt.node {
            Expression::StringLiteral(l) if string_value(&l.node).is_some() => l,
            _ => {
                for a in rest {
                    self.rvalue(a)?;
                }
                self.at(off);
                self.b.emit(InstKind::Unsupported {
                    msg: format!(
                        "`{name}` with a format that is not a string literal is not supported"
                    ),
                });
                self.b.terminate(Terminator::Unreachable);
                let after = self.b.new_block();
                self.b.set_block(after);
                return Ok(Val::R(Operand::Const(0), CType::int(IntTy::Int)));
            }
        };
        let (pieces, ops) = self.format_pieces(name, fmt, &lit.node, rest, false, false)?;
        self.at(off);
        let len = self.b.reg();
        self.b.emit(InstKind::Print {
            dst: Some(len),
            pieces,
            args: ops,
            to_buffer: true,
        });
        let len = Operand::Reg(len);
        // m = the bytes to store before the NUL.
        let m = match limit {
            None => len,
            Some(n) => {
                // n == 0: nothing at all (m = 0 and no NUL, below); else min(len, n - 1).
                let n1 = self.b.bin(BinOp::Sub, n, Operand::Const(1), SIZE);
                let less = self.b.bin(BinOp::Lt, len, n1, SIZE);
                let diff = self.b.bin(BinOp::Sub, len, n1, SIZE);
                let fix = self.b.bin(BinOp::Mul, diff, less, SIZE);
                let m = self.b.bin(BinOp::Add, n1, fix, SIZE);
                let zero = self.b.bin(BinOp::Eq, n, Operand::Const(0), SIZE);
                let keep = self.b.bin(BinOp::Eq, zero, Operand::Const(0), Scalar::INT);
                self.b.bin(BinOp::Mul, m, keep, SIZE)
            }
        };
        let k = self.b.reg();
        self.b.emit(InstKind::Copy {
            dst: k,
            src: Operand::Const(0),
        });
        let (head, body, done) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.b.jump(head);
        self.b.loop_head(head, crate::ir::LoopHead::Finite);
        self.b.set_block(head);
        let more = self.b.bin(BinOp::Lt, Operand::Reg(k), m, SIZE);
        self.b.branch(more, body, done);
        self.b.set_block(body);
        let byte = self.b.reg();
        self.b.emit(InstKind::Builtin {
            dst: Some(byte),
            which: Builtin::FormattedByte,
            args: vec![Operand::Reg(k)],
        });
        let at = self.b.bin(BinOp::Add, buf, Operand::Reg(k), Scalar::PTR);
        self.b
            .store(at, Operand::Reg(byte), Scalar::CHAR, MemOrder::NonAtomic);
        let next = self
            .b
            .bin(BinOp::Add, Operand::Reg(k), Operand::Const(1), SIZE);
        self.b.emit(InstKind::Copy { dst: k, src: next });
        self.b.jump(head);
        self.b.set_block(done);
        let nul = |cx: &mut Self| {
            let at = cx.b.bin(BinOp::Add, buf, m, Scalar::PTR);
            cx.b.store(at, Operand::Const(0), Scalar::CHAR, MemOrder::NonAtomic);
        };
        match limit {
            None => nul(self),
            Some(n) => {
                let (store, end) = (self.b.new_block(), self.b.new_block());
                self.b.branch(n, store, end);
                self.b.set_block(store);
                nul(self);
                self.b.jump(end);
                self.b.set_block(end);
            }
        }
        let r = self.b.conv(len, SIZE, Scalar::INT);
        Ok(Val::R(r, CType::int(IntTy::Int)))
    }
}
