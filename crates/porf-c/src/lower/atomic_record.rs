//! `_Atomic` structs (C11 7.17: any complete object type may be atomic), held as one
//! cell (`Types::atomic_record`: structs of 1, 2, 4, 8 or 16 bytes without padding;
//! 16-byte values travel as codes of `crate::wide`), so each of `atomic_load`, `atomic_store`,
//! `atomic_exchange`, `atomic_compare_exchange_{strong,weak}` (and their `_explicit`
//! forms) and `atomic_init` on one is a single engine event on that cell, as the
//! 16-byte `cmpxchg16b` of the textbook ABA fix is one instruction.
//!
//! The struct values the program sees are ordinary (non-atomic) structs in memory: an
//! operation *packs* its value operands, reading the members of the struct given (by
//! non-atomic loads, in the calling thread: the argument is the caller's own object),
//! into the cell's value — the struct's bytes, little-endian, members at their offsets
//! — and *unpacks* a value read into a fresh temporary struct (the call's value) or,
//! for a failed compare-exchange, into `*expected`, by non-atomic stores. The compare
//! of a compare-exchange is the engine's equality of the packed values, which is the
//! equality of the structs' bytes (no padding: `Types::atomic_record` refuses structs
//! with any), as C11 7.17.7.4 specifies (a `memcmp`-like comparison, not `==` on
//! members: `-0.0` and `+0.0` members differ, equal NaN bit patterns match). A weak
//! compare-exchange never fails spuriously in porf, as for scalars.
//!
//! The fetch-and-modify operations are not defined on structs (C11 7.17.7.5 applies
//! to integer and pointer types): an error. Member access to an atomic struct is
//! undefined (6.5.2.3p5) and so is not offered; reading or assigning the whole atomic
//! struct other than through these functions is reported as unsupported.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, Builtin, InstKind, Operand, Scalar};
use crate::types::{CType, IntTy, Leaf};
use lang_c::ast::Expression;
use lang_c::span::Node;
use porf_graph::MemOrder;

/// An operation on an atomic struct.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(super) enum RecOp {
    Load,
    Store,
    Exchange,
    Cas,
    Init,
}

const U64: Scalar = Scalar::int(8, false);

impl Cx<'_> {
    /// `op` on the atomic struct of type `at` at `addr` (`args[0]` was its pointer):
    /// `vals` are the value arguments (`args[1..]` before the orders: the desired
    /// value; for a compare-exchange the expected pointer first), `ords` the memory
    /// orders (success, failure), already checked.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn atomic_record_op(
        &mut self,
        op: RecOp,
        name: &str,
        addr: Operand,
        at: &CType,
        vals: &[Node<Expression>],
        ords: (MemOrder, MemOrder),
        off: usize,
    ) -> R<Val> {
        let (ws, leaves) = match self.types.atomic_record(at) {
            Ok(x) => x,
            Err(why) => return self.unsup(off, format!("`{name}` on `{}`: {why}", self.show(at))),
        };
        let st = at.unqual();
        match op {
            RecOp::Load => {
                self.at(off);
                let v = self.b.load(addr, ws, ords.0);
                let tmp = self.record_temp(&st, name, off)?;
                self.unpack(v, tmp, ws, &leaves);
                Ok(Val::Mem(tmp, st))
            }
            RecOp::Store | RecOp::Init => {
                let src = self.record_address(&vals[0], &st)?;
                self.at(off);
                let v = self.pack(src, ws, &leaves);
                let ord = if op == RecOp::Init {
                    MemOrder::NonAtomic
                } else {
                    ords.0
                };
                self.b.store(addr, v, ws, ord);
                Ok(Val::Void)
            }
            RecOp::Exchange => {
                let src = self.record_address(&vals[0], &st)?;
                self.at(off);
                let v = self.pack(src, ws, &leaves);
                let dst = self.b.reg();
                self.b.emit(InstKind::Rmw {
                    dst,
                    addr,
                    op: crate::ir::RmwKind::Xchg,
                    val: v,
                    ty: ws,
                    ord: ords.0,
                });
                let tmp = self.record_temp(&st, name, off)?;
                self.unpack(Operand::Reg(dst), tmp, ws, &leaves);
                Ok(Val::Mem(tmp, st))
            }
            RecOp::Cas => {
                let (ep, et) = self.pointer_arg(&vals[0], name)?;
                if et.kind != st.kind {
                    return self.err(
                        vals[0].span.start,
                        format!(
                            "second argument of `{name}` must point to a `{}` (got a pointer to `{}`)",
                            self.show(&st),
                            self.show(&et)
                        ),
                    );
                }
                let src = self.record_address(&vals[1], &st)?;
                self.at(off);
                let expected = self.pack(ep, ws, &leaves);
                let new = self.pack(src, ws, &leaves);
                let old = self.b.reg();
                self.b.emit(InstKind::Cas {
                    dst: old,
                    addr,
                    expected,
                    new,
                    ty: ws,
                    succ: ords.0,
                    fail: ords.1,
                    weak: false,
                });
                // Codes and packed values are equal exactly when the bytes are.
                let ok = self
                    .b
                    .bin(BinOp::Eq, Operand::Reg(old), expected, Scalar::LONG);
                let (failed, join) = (self.b.new_block(), self.b.new_block());
                self.b.branch(ok, join, failed);
                self.b.set_block(failed);
                self.unpack(Operand::Reg(old), ep, ws, &leaves);
                self.b.jump(join);
                self.b.set_block(join);
                Ok(Val::R(ok, CType::int(IntTy::Bool)))
            }
        }
    }

    /// A fresh frame temporary of struct type `st`, for a call's struct value.
    fn record_temp(&mut self, st: &CType, name: &str, off: usize) -> R<Operand> {
        let fo = self.frame_object(st, off)?;
        self.note_local(&format!("{name}()"), st, super::Home::Frame(fo));
        Ok(self.b.frame_addr(fo))
    }

    /// The cell value of the struct at `a` (its `leaves`, non-atomic loads).
    fn pack(&mut self, a: Operand, ws: Scalar, leaves: &[Leaf]) -> Operand {
        let mut halves = [Operand::Const(0), Operand::Const(0)];
        for l in leaves {
            let p = self.offset_addr(a, l.offset);
            let v = self.b.load(p, l.scalar, MemOrder::NonAtomic);
            let n = l.scalar.size as u32;
            let bits = if n < 8 {
                let mask = (1i64 << (8 * n)) - 1;
                self.b.bin(BinOp::And, v, Operand::Const(mask), U64)
            } else {
                v
            };
            let sh = (l.offset % 8) as i64 * 8;
            let bits = if sh > 0 {
                self.b.bin(BinOp::Shl, bits, Operand::Const(sh), U64)
            } else {
                bits
            };
            let h = (l.offset / 8) as usize;
            halves[h] = self.b.bin(BinOp::Or, halves[h], bits, U64);
        }
        if ws.size < 16 {
            return halves[0];
        }
        let dst = self.b.reg();
        self.b.emit(InstKind::Builtin {
            dst: Some(dst),
            which: Builtin::WidePack,
            args: halves.to_vec(),
        });
        Operand::Reg(dst)
    }

    /// Stores the members of cell value `v` into the struct at `a` (its `leaves`).
    fn unpack(&mut self, v: Operand, a: Operand, ws: Scalar, leaves: &[Leaf]) {
        let halves = if ws.size < 16 {
            [v, Operand::Const(0)]
        } else {
            [0, 1].map(|k| {
                let dst = self.b.reg();
                self.b.emit(InstKind::Builtin {
                    dst: Some(dst),
                    which: Builtin::WideHalf,
                    args: vec![v, Operand::Const(k)],
                });
                Operand::Reg(dst)
            })
        };
        for l in leaves {
            let h = halves[(l.offset / 8) as usize];
            let sh = (l.offset % 8) as i64 * 8;
            let part = if sh > 0 {
                self.b.bin(BinOp::Shr, h, Operand::Const(sh), U64)
            } else {
                h
            };
            let n = l.scalar.size as u32;
            let val = if l.scalar.float {
                if n < 8 {
                    let mask = (1i64 << (8 * n)) - 1;
                    self.b.bin(BinOp::And, part, Operand::Const(mask), U64)
                } else {
                    part
                }
            } else {
                self.b.conv(part, U64, l.scalar)
            };
            let p = self.offset_addr(a, l.offset);
            self.b.store(p, val, l.scalar, MemOrder::NonAtomic);
        }
    }
}
