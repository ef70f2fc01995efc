//! C11 Annex K's `memcpy_s(dest, destsz, src, count)` (K.3.7.1.1), lowered like
//! `memcpy` (`memfns.rs`: typed cell copies over the static type of `dest` as written,
//! with constant sizes) with Annex K's runtime-constraint checks made at run time.
//!
//! A violation is any of: `dest` or `src` a null pointer, `destsz` or `count` larger
//! than `RSIZE_MAX` (`SIZE_MAX >> 1`, the bound Annex K recommends), `count > destsz`,
//! or the ranges `[src, src + count)` and `[dest, dest + count)` overlapping (compared
//! as addresses). On a violation nothing is copied; when `dest` is not null and
//! `destsz <= RSIZE_MAX`, the `destsz` bytes at `dest` are set to zero; the call
//! returns `EINVAL` (22, a nonzero `errno_t`). Otherwise the `count` bytes are copied
//! and the call returns 0. No runtime-constraint handler is called (Annex K's default
//! handler is implementation-defined; porf's is `ignore_handler_s`'s: return).
//!
//! Both sizes must be integer constant expressions. What cannot be typed (zeroing or
//! copying through a `void *`, a size that is not a multiple of the pointee's, a source
//! of another type) is an "unsupported" error in the branch that would do it, so a
//! call that violates a constraint through a null `dest` still runs.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, InstKind, Operand, Scalar};
use crate::types::{CType, IntTy, Leaf};
use lang_c::ast::Expression;
use lang_c::span::Node;

/// Annex K's `RSIZE_MAX`, as recommended (K.3.4p4): `SIZE_MAX >> 1`.
pub(crate) const RSIZE_MAX: u64 = u64::MAX >> 1;

/// `errno_t` returned on a runtime-constraint violation.
const EINVAL: i64 = 22;

impl Cx<'_> {
    pub(super) fn memcpy_s(&mut self, args: &[Node<Expression>], off: usize) -> R<Val> {
        let name = "memcpy_s";
        if args.len() != 4 {
            return self.err(off, format!("`{name}` takes 4 arguments"));
        }
        let int = CType::int(IntTy::Int);
        let (dst, dt) = self.rvalue(&args[0])?;
        let Some(pt) = dt.pointee().cloned() else {
            return self.err(
                args[0].span.start,
                format!("first argument of `{name}` must be a pointer"),
            );
        };
        let destsz = self.const_int(&args[1])?;
        let (src, st) = self.rvalue(&args[2])?;
        let count = self.const_int(&args[3])?;
        let (Some((destsz, _)), Some((count, _))) = (destsz, count) else {
            self.rvalue(&args[1])?;
            self.rvalue(&args[3])?;
            self.at(off);
            self.b.emit(InstKind::Unsupported {
                msg: format!("`{name}` with a size that is not a constant is not supported"),
            });
            return Ok(Val::R(Operand::Const(0), int));
        };
        // Sizes are `rsize_t` (unsigned): a negative constant is a huge size.
        let (destsz, count) = (destsz as u64, count as u64);
        // The cells of `n` bytes of `pt` objects at a pointer, or why not.
        let cells = |cx: &mut Self, n: u64| -> Result<(u64, u64, Vec<Leaf>), String> {
            let elem = match cx.types.size_of(&pt) {
                Some(s) if !pt.is_void() && s > 0 => s,
                _ => {
                    return Err(format!(
                        "`{name}` through a `{}`: porf needs the type of the object",
                        cx.show(&dt)
                    ))
                }
            };
            if !n.is_multiple_of(elem) {
                return Err(format!(
                    "`{name}` of {n} bytes over objects of type `{}` ({elem} bytes each) is not supported",
                    cx.show(&pt)
                ));
            }
            let mut leaves = Vec::new();
            cx.types.leaves(&pt, 0, "", &mut leaves);
            if (n / elem).saturating_mul(leaves.len() as u64) > super::memfns::MAX_CELLS {
                return Err(format!(
                    "`{name}` of more than {} scalar objects is not supported",
                    super::memfns::MAX_CELLS
                ));
            }
            Ok((n / elem, elem, leaves))
        };
        self.at(off);
        let p = Scalar::PTR;
        let statically = destsz > RSIZE_MAX || count > RSIZE_MAX || count > destsz;
        let viol = if statically {
            Operand::Const(1)
        } else {
            let dnull = self.b.bin(BinOp::Eq, dst, Operand::Const(0), p);
            let snull = self.b.bin(BinOp::Eq, src, Operand::Const(0), p);
            let v = self.b.bin(BinOp::Or, dnull, snull, Scalar::INT);
            if count == 0 {
                v
            } else {
                // dest < src + count && src < dest + count
                let send = self.offset_addr(src, count);
                let dend = self.offset_addr(dst, count);
                let a = self.b.bin(BinOp::Lt, dst, send, p);
                let b = self.b.bin(BinOp::Lt, src, dend, p);
                let o = self.b.bin(BinOp::And, a, b, Scalar::INT);
                self.b.bin(BinOp::Or, v, o, Scalar::INT)
            }
        };
        let r = self.b.reg();
        let (bad, good, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.b.branch(viol, bad, good);
        // The violation: zero [dest, dest + destsz) when dest is not null.
        self.b.set_block(bad);
        if destsz <= RSIZE_MAX && destsz > 0 {
            let (zero, skip) = (self.b.new_block(), self.b.new_block());
            let nonnull = self.b.bin(BinOp::Ne, dst, Operand::Const(0), p);
            self.b.branch(nonnull, zero, skip);
            self.b.set_block(zero);
            match cells(self, destsz) {
                Ok((n, elem, leaves)) => self.set_cells(dst, Operand::Const(0), n, elem, &leaves),
                Err(msg) => self.b.emit(InstKind::Unsupported { msg }),
            }
            self.b.jump(skip);
            self.b.set_block(skip);
        }
        self.b.emit(InstKind::Copy {
            dst: r,
            src: Operand::Const(EINVAL),
        });
        self.b.jump(join);
        // No violation: copy.
        self.b.set_block(good);
        let compatible = st
            .pointee()
            .is_some_and(|s| self.types.compatible(&s.unqual(), &pt.unqual()));
        match cells(self, count) {
            Ok((n, elem, leaves)) if compatible => self.copy_cells(dst, src, n, elem, &leaves),
            Ok(_) => self.b.emit(InstKind::Unsupported {
                msg: format!(
                    "`{name}` from a `{}` to a `{}`: porf copies objects of one type only",
                    self.show(&st),
                    self.show(&dt)
                ),
            }),
            Err(msg) => self.b.emit(InstKind::Unsupported { msg }),
        }
        self.b.emit(InstKind::Copy {
            dst: r,
            src: Operand::Const(0),
        });
        self.b.jump(join);
        self.b.set_block(join);
        Ok(Val::R(Operand::Reg(r), int))
    }
}
