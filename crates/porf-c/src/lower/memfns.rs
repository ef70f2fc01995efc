//! `memset`, `memcpy` and `memmove`, lowered by the front end as typed stores.
//!
//! porf's memory is a set of scalar cells (one per C scalar object), so a byte-wise
//! copy loop would be a mixed-size access. Instead the front end uses the static type
//! of the destination pointer (as written, before its conversion to `void *`): with a
//! constant size `n` that is a multiple of the pointee's size, the call touches the
//! `n / sizeof(T)` objects of type `T` there, scalar cell by scalar cell. `memset`
//! stores the byte repeated over each cell's width; `memcpy` and `memmove` load every
//! source cell first and then store them all (so overlapping `memmove` is right); the
//! source must have a compatible type. All accesses are non-atomic (C11 has no atomic
//! byte copies). Anything else (a `void *` or `char *` destination over a larger
//! object, a size that is not a constant) is reported as unsupported.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, Operand, Scalar};
use crate::types::{CType, IntTy, Leaf};
use lang_c::ast::Expression;
use lang_c::span::Node;
use porf_graph::MemOrder;

/// Most scalar stores one call may expand to.
const MAX_CELLS: u64 = 4096;

impl Cx<'_> {
    pub(super) fn mem_fn(&mut self, name: &str, args: &[Node<Expression>], off: usize) -> R<Val> {
        if args.len() != 3 {
            return self.err(off, format!("`{name}` takes 3 arguments"));
        }
        let (dst, dt) = self.rvalue(&args[0])?;
        let Some(pt) = dt.pointee().cloned() else {
            return self.err(
                args[0].span.start,
                format!("first argument of `{name}` must be a pointer"),
            );
        };
        let Some((n, _)) = self.const_int(&args[2])? else {
            return self.unsup(
                args[2].span.start,
                format!("`{name}` with a size that is not a constant is not supported"),
            );
        };
        let elem = match self.types.size_of(&pt) {
            Some(s) if !pt.is_void() && s > 0 => s,
            _ => {
                return self.unsup(
                    args[0].span.start,
                    format!(
                        "`{name}` through a `{}`: porf needs the type of the object",
                        self.show(&dt)
                    ),
                )
            }
        };
        if n < 0 || !(n as u64).is_multiple_of(elem) {
            return self.unsup(
                args[2].span.start,
                format!("`{name}` of {n} bytes over objects of type `{}` ({elem} bytes each) is not supported", self.show(&pt)),
            );
        }
        let count = n as u64 / elem;
        let mut leaves: Vec<Leaf> = Vec::new();
        self.types.leaves(&pt, 0, "", &mut leaves);
        if count.saturating_mul(leaves.len() as u64) > MAX_CELLS {
            return self.unsup(
                off,
                format!("`{name}` of more than {MAX_CELLS} scalar objects is not supported"),
            );
        }
        if name == "memset" {
            let (c, ct) = self.rvalue(&args[1])?;
            let c = self.assign_convert(c, &ct, &CType::int(IntTy::Int), args[1].span.start)?;
            self.at(off);
            let byte = self
                .b
                .bin(BinOp::And, c, Operand::Const(0xff), Scalar::LONG);
            for k in 0..count {
                for l in &leaves {
                    let ones = (0..l.scalar.size).fold(0i64, |a, i| a | (1 << (8 * i)));
                    let v = self.b.bin(BinOp::Mul, byte, Operand::Const(ones), l.scalar);
                    let a = self.offset_addr(dst, k * elem + l.offset);
                    self.b.store(a, v, l.scalar, MemOrder::NonAtomic);
                }
            }
        } else {
            let (src, st) = self.rvalue(&args[1])?;
            let compatible = st
                .pointee()
                .is_some_and(|s| self.types.compatible(&s.unqual(), &pt.unqual()));
            if !compatible {
                return self.unsup(
                    args[1].span.start,
                    format!(
                        "`{name}` from a `{}` to a `{}`: porf copies objects of one type only",
                        self.show(&st),
                        self.show(&dt)
                    ),
                );
            }
            self.at(off);
            let mut vals = Vec::new();
            for k in 0..count {
                for l in &leaves {
                    let a = self.offset_addr(src, k * elem + l.offset);
                    vals.push(self.b.load(a, l.scalar, MemOrder::NonAtomic));
                }
            }
            let mut it = vals.into_iter();
            for k in 0..count {
                for l in &leaves {
                    let a = self.offset_addr(dst, k * elem + l.offset);
                    let v = it.next().expect("one value per cell");
                    self.b.store(a, v, l.scalar, MemOrder::NonAtomic);
                }
            }
        }
        Ok(Val::R(dst, CType::void_ptr()))
    }
}
