//! Bit-field accesses (C11 6.7.2.1p9–11). A bit-field lives in its run's storage
//! unit (`types::RecordDef::bits`): reading it loads the whole unit and extracts the
//! bits (sign-extended for a signed declared type; plain `int` bit-fields are signed,
//! as in GCC); writing it is a read-modify-write of the whole unit: a load, the other
//! bits kept, a store. Both accesses are ordinary non-atomic accesses of the unit, so
//! two threads writing *adjacent* bit-fields of one run access the same location and
//! race, exactly as C11 says (3.14: adjacent bit-fields are one memory location). A
//! bit-field's value is promoted to `int` when `int` holds every value of its width
//! (6.3.1.1p2), else it has its declared type. Its address cannot be taken.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, Operand, Scalar};
use crate::types::{BitField, CType, IntTy};
use porf_graph::MemOrder;

const U64: Scalar = Scalar {
    size: 8,
    signed: false,
    float: false,
};
const I64: Scalar = Scalar {
    size: 8,
    signed: true,
    float: false,
};

fn mask(w: u32) -> i64 {
    if w >= 64 {
        -1
    } else {
        ((1u64 << w) - 1) as i64
    }
}

impl Cx<'_> {
    /// The type a bit-field's value has after integer promotion.
    pub(super) fn bits_type(&self, bf: &BitField) -> CType {
        let signed = bf.ty.int_ty().is_some_and(|i| i.signed());
        if bf.width < 32 || (bf.width == 32 && signed) {
            CType::int(IntTy::Int)
        } else {
            bf.ty.unqual()
        }
    }

    /// `v` (a value of the unit's width or wider) cut to the bit-field's width and,
    /// for a signed declared type, sign-extended: the value the bit-field holds after
    /// `v` is stored in it.
    fn bits_cut(&mut self, bf: &BitField, v: Operand) -> Operand {
        let signed = bf.ty.int_ty().is_some_and(|i| i.signed());
        let x = self
            .b
            .bin(BinOp::And, v, Operand::Const(mask(bf.width)), U64);
        if signed && bf.width < 64 {
            let k = Operand::Const(64 - bf.width as i64);
            let up = self.b.bin(BinOp::Shl, x, k, I64);
            self.b.bin(BinOp::Shr, up, k, I64)
        } else {
            x
        }
    }

    /// Reads the bit-field in the unit at `unit`.
    pub(super) fn load_bits(&mut self, unit: Operand, bf: &BitField) -> (Operand, CType) {
        let u = self.b.load(unit, bf.unit, MemOrder::NonAtomic);
        let x = self
            .b
            .bin(BinOp::Shr, u, Operand::Const(bf.shift as i64), U64);
        let v = self.bits_cut(bf, x);
        (v, self.bits_type(bf))
    }

    /// Writes `v` (converted to the declared type) into the bit-field in the unit at
    /// `unit`; returns the value it then holds.
    pub(super) fn store_bits(&mut self, unit: Operand, bf: &BitField, v: Operand) -> Operand {
        let m = mask(bf.width);
        let keep = !(m << bf.shift) & mask(bf.unit.size as u32 * 8);
        let u = self.b.load(unit, bf.unit, MemOrder::NonAtomic);
        let kept = self.b.bin(BinOp::And, u, Operand::Const(keep), U64);
        let bits = self.b.bin(BinOp::And, v, Operand::Const(m), U64);
        let placed = self
            .b
            .bin(BinOp::Shl, bits, Operand::Const(bf.shift as i64), U64);
        let new = self.b.bin(BinOp::Or, kept, placed, U64);
        let new = self.b.conv(new, U64, bf.unit);
        self.b.store(unit, new, bf.unit, MemOrder::NonAtomic);
        self.bits_cut(bf, v)
    }

    /// The value an assignment to lvalue `lv` of `v` yields: for a bit-field, `v` cut
    /// to its width (with its promoted type), else `v`.
    pub(super) fn assigned_value(&mut self, lv: &Val, v: Operand, t: CType) -> Val {
        match lv {
            Val::Bits(_, bf) => {
                let bf = (**bf).clone();
                let x = self.bits_cut(&bf, v);
                Val::R(x, self.bits_type(&bf))
            }
            _ => Val::R(v, t),
        }
    }

    /// Refuses the address of a bit-field (C11 6.5.3.2p1).
    pub(super) fn no_bits_address(&self, v: &Val, off: usize) -> R<()> {
        match v {
            Val::Bits(_, bf) => self.err(
                off,
                format!("cannot take the address of bit-field `{}`", bf.name),
            ),
            _ => Ok(()),
        }
    }
}
