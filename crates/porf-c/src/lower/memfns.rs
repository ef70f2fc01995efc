//! `memset`, `memcpy`, `memmove` and `memcmp`, lowered by the front end as typed
//! accesses (`memcmp`: typed loads, see [`Cx::mem_cmp`]).
//!
//! porf's memory is a set of scalar cells (one per C scalar object), so a byte-wise
//! copy loop would be a mixed-size access. Instead the front end uses the static type
//! of the destination pointer (as written, before its conversion to `void *`): with a
//! constant size `n` that is a multiple of the pointee's size, the call touches the
//! `n / sizeof(T)` objects of type `T` there, scalar cell by scalar cell. `memset`
//! stores the byte repeated over each cell's width; `memcpy` and `memmove` load every
//! source cell first and then store them all (so overlapping `memmove` is right), as
//! cell copies (`InstKind::CopyLoad`/`CopyStore`: an uninitialised source cell is not
//! an error, its copy stays uninitialised in private memory); the source must have a
//! compatible type. All accesses are non-atomic (C11 has no atomic
//! byte copies). Anything else (a `void *` or `char *` destination over a larger
//! object, a size that is not a constant) is reported as unsupported.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, BitOp, Builtin, InstKind, Operand, Scalar};
use crate::types::{CType, IntTy, Leaf};
use lang_c::ast::Expression;
use lang_c::span::Node;
use porf_graph::MemOrder;

/// Most scalar stores one call may expand to.
pub(super) const MAX_CELLS: u64 = 4096;

impl Cx<'_> {
    /// A call porf cannot run: an "unsupported" error at run time (at `off`), and the
    /// call's value (`dst` for the copies, 0 for `memcmp`) where it would continue.
    fn unsupported_call(&mut self, name: &str, dst: Operand, msg: String, off: usize) -> R<Val> {
        self.at(off);
        self.b.emit(InstKind::Unsupported { msg });
        if name == "memcmp" {
            return Ok(Val::R(Operand::Const(0), CType::int(IntTy::Int)));
        }
        Ok(Val::R(dst, CType::void_ptr()))
    }

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
        // What porf cannot copy is an "unsupported" error when the call runs, not
        // when it is compiled: kernel-style helpers keep such calls in branches that
        // never run (a `switch` on the size whose default copies bytes).
        let Some((n, _)) = self.const_int(&args[2])? else {
            for a in &args[1..] {
                self.rvalue(a)?;
            }
            let msg = format!("`{name}` with a size that is not a constant is not supported");
            return self.unsupported_call(name, dst, msg, off);
        };
        let elem = match self.types.size_of(&pt) {
            Some(s) if !pt.is_void() && s > 0 => s,
            _ => {
                for a in &args[1..] {
                    self.rvalue(a)?;
                }
                let msg = format!(
                    "`{name}` through a `{}`: porf needs the type of the object",
                    self.show(&dt)
                );
                return self.unsupported_call(name, dst, msg, off);
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
        if name == "memcmp" {
            if leaves.iter().any(|l| l.scalar.size == 16) {
                self.rvalue(&args[1])?;
                let msg = "`memcmp` of 16-byte objects (128-bit integers, atomic structs) is not supported".to_string();
                return self.unsupported_call(name, dst, msg, off);
            }
            return self.mem_cmp(dst, &pt, &args[1], count, elem, &leaves, off);
        }
        if name == "memset" {
            let (c, ct) = self.rvalue(&args[1])?;
            let c = self.assign_convert(c, &ct, &CType::int(IntTy::Int), args[1].span.start)?;
            self.at(off);
            self.set_cells(dst, c, count, elem, &leaves);
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
            self.copy_cells(dst, src, count, elem, &leaves);
        }
        Ok(Val::R(dst, CType::void_ptr()))
    }

    /// Stores the low byte of `c`, repeated over each cell's width, into the `count`
    /// objects of `elem` bytes (scalar cells `leaves`) at `dst`.
    pub(super) fn set_cells(
        &mut self,
        dst: Operand,
        c: Operand,
        count: u64,
        elem: u64,
        leaves: &[Leaf],
    ) {
        let byte = self
            .b
            .bin(BinOp::And, c, Operand::Const(0xff), Scalar::LONG);
        let zero = matches!(c, Operand::Const(x) if x & 0xff == 0);
        for k in 0..count {
            for l in leaves {
                if l.scalar.size == 16 {
                    // A 16-byte cell's value is a code (`crate::wide`): 0 for zeros.
                    if zero {
                        let a = self.offset_addr(dst, k * elem + l.offset);
                        self.b
                            .store(a, Operand::Const(0), l.scalar, MemOrder::NonAtomic);
                    } else {
                        self.b.emit(InstKind::Unsupported {
                            msg: "`memset` of a 16-byte object with a byte other than a constant 0 is not supported".into(),
                        });
                    }
                    continue;
                }
                let ones = (0..l.scalar.size).fold(0i64, |a, i| a | (1 << (8 * i)));
                // The bytes of a floating cell are its bit pattern's.
                let bits = l.scalar.bits();
                let v = self.b.bin(BinOp::Mul, byte, Operand::Const(ones), bits);
                let a = self.offset_addr(dst, k * elem + l.offset);
                self.b.store(a, v, bits, MemOrder::NonAtomic);
            }
        }
    }

    /// Copies the `count` objects of `elem` bytes (scalar cells `leaves`) at `src` to
    /// `dst`: every source cell is loaded before the first store, as cell copies.
    pub(super) fn copy_cells(
        &mut self,
        dst: Operand,
        src: Operand,
        count: u64,
        elem: u64,
        leaves: &[Leaf],
    ) {
        let mut vals = Vec::new();
        for k in 0..count {
            for l in leaves {
                let a = self.offset_addr(src, k * elem + l.offset);
                vals.push(self.b.copy_load(a, l.scalar, MemOrder::NonAtomic));
            }
        }
        let mut it = vals.into_iter();
        for k in 0..count {
            for l in leaves {
                let a = self.offset_addr(dst, k * elem + l.offset);
                let v = it.next().expect("one value per cell");
                self.b.copy_store(a, v, l.scalar, MemOrder::NonAtomic);
            }
        }
    }

    /// `memcmp(a, b, n)` over `count` objects of type `pt` (`elem` bytes each, scalar
    /// cells `leaves`) at `a` and at `bexpr`, which must point to the same type. Every
    /// cell of both ranges is loaded (non-atomically), then the result is that of the
    /// first cell, in address order, whose values differ: the difference of their
    /// first differing bytes (little-endian: the lowest differing byte), as unsigned
    /// chars; 0 if none differs. Comparing a padding byte is not modelled (cells only).
    #[allow(clippy::too_many_arguments)]
    fn mem_cmp(
        &mut self,
        a: Operand,
        pt: &CType,
        bexpr: &Node<Expression>,
        count: u64,
        elem: u64,
        leaves: &[Leaf],
        off: usize,
    ) -> R<Val> {
        let (b, bt) = self.rvalue(bexpr)?;
        let compatible = bt
            .pointee()
            .is_some_and(|s| self.types.compatible(&s.unqual(), &pt.unqual()));
        if !compatible {
            return self.unsup(
                bexpr.span.start,
                format!(
                    "`memcmp` of a `{}` with a `{}`: porf compares objects of one type only",
                    self.show(&CType::ptr(pt.clone())),
                    self.show(&bt)
                ),
            );
        }
        self.at(off);
        let mut pairs = Vec::new();
        for k in 0..count {
            for l in leaves {
                let x = self.offset_addr(a, k * elem + l.offset);
                let y = self.offset_addr(b, k * elem + l.offset);
                // Bytes, not values: a floating cell is compared by its bit pattern.
                let bits = l.scalar.bits();
                let vx = self.b.load(x, bits, MemOrder::NonAtomic);
                let vy = self.b.load(y, bits, MemOrder::NonAtomic);
                pairs.push((vx, vy, bits));
            }
        }
        // From the last cell to the first: res = (x != y) ? diff(x, y) : res.
        let l64 = Scalar::LONG;
        let mut res = Operand::Const(0);
        for (x, y, sc) in pairs.into_iter().rev() {
            let ne = self.b.bin(BinOp::Ne, x, y, sc);
            let d = self.b.bin(BinOp::Xor, x, y, l64);
            // Bit 63 set keeps ctz defined when the cells are equal (then `ne` is 0).
            let d = self.b.bin(BinOp::Or, d, Operand::Const(i64::MIN), l64);
            let tz = self.b.reg();
            self.b.emit(InstKind::Builtin {
                dst: Some(tz),
                which: Builtin::Bits(BitOp::Ctz),
                args: vec![d, Operand::Const(8)],
            });
            let shift = self
                .b
                .bin(BinOp::And, Operand::Reg(tz), Operand::Const(!7), l64);
            let xs = self.b.bin(BinOp::Shr, x, shift, l64);
            let xb = self.b.bin(BinOp::And, xs, Operand::Const(0xff), l64);
            let ys = self.b.bin(BinOp::Shr, y, shift, l64);
            let yb = self.b.bin(BinOp::And, ys, Operand::Const(0xff), l64);
            let diff = self.b.bin(BinOp::Sub, xb, yb, l64);
            // res = ne * diff + (1 - ne) * res
            let on = self.b.bin(BinOp::Mul, ne, diff, l64);
            let keep = self.b.bin(BinOp::Sub, Operand::Const(1), ne, l64);
            let off_ = self.b.bin(BinOp::Mul, keep, res, l64);
            res = self.b.bin(BinOp::Add, on, off_, l64);
        }
        Ok(Val::R(res, CType::int(IntTy::Int)))
    }
}
