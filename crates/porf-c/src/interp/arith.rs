//! Integer arithmetic on normalised values: every result is wrapped to the instruction's
//! [`Scalar`] type, exactly as C's conversion rules wrap it on a two's-complement
//! machine.
//!
//! Operands are normalised to the instruction's type first (the front end already
//! guarantees it; re-normalising is free and makes the functions total). Floating
//! types are handed to [`super::float`].

use crate::ir::{BinOp, RmwKind, Scalar, UnOp};
use crate::memory::Fault;
use porf_graph::{RmwOp, Val};

/// `op a` computed at type `ty`.
pub fn unary(op: UnOp, a: Val, ty: Scalar) -> Val {
    if ty.float {
        return super::float::unary(op, a, ty);
    }
    if ty.size == 16 {
        let x = crate::wide::decode(a);
        return match op {
            UnOp::Neg => crate::wide::encode(x.wrapping_neg()),
            UnOp::BitNot => crate::wide::encode(!x),
            UnOp::LogNot => (x == 0) as Val,
        };
    }
    let a = ty.normalize(a);
    match op {
        UnOp::Neg => ty.normalize(a.wrapping_neg()),
        UnOp::BitNot => ty.normalize(!a),
        UnOp::LogNot => (a == 0) as Val,
    }
}

/// `a op b` computed at type `ty`. Comparisons yield 0 or 1 and compare signed or
/// unsigned according to `ty`. Division or remainder by zero and shifts by a negative
/// count or by at least the type's width are undefined in C; porf reports them as
/// memory-class errors (like every other undefined behaviour it detects).
pub fn binary(op: BinOp, a: Val, b: Val, ty: Scalar) -> Result<Val, Fault> {
    if ty.float {
        return super::float::binary(op, a, b, ty);
    }
    if ty.size == 16 {
        return wide_binary(op, a, b, ty);
    }
    let a = ty.normalize(a);
    let b_norm = ty.normalize(b);
    let (ua, ub) = (a as u64, b_norm as u64);
    let wrap = |v: Val| ty.normalize(v);
    Ok(match op {
        BinOp::Add => wrap(a.wrapping_add(b_norm)),
        BinOp::Sub => wrap(a.wrapping_sub(b_norm)),
        BinOp::Mul => wrap(a.wrapping_mul(b_norm)),
        BinOp::Div | BinOp::Rem => {
            if b_norm == 0 {
                return Err(Fault::memory("division by zero"));
            }
            wrap(match (op, ty.signed) {
                (BinOp::Div, true) => a.wrapping_div(b_norm),
                (BinOp::Div, false) => (ua / ub) as Val,
                (_, true) => a.wrapping_rem(b_norm),
                (_, false) => (ua % ub) as Val,
            })
        }
        BinOp::And => a & b_norm,
        BinOp::Or => a | b_norm,
        BinOp::Xor => a ^ b_norm,
        BinOp::Shl | BinOp::Shr => {
            // The count keeps its own value: C converts shift operands separately.
            let bits = ty.size as Val * 8;
            if !(0..bits).contains(&b) {
                return Err(Fault::memory(format!(
                    "shift by {b} bits of a {bits}-bit value (undefined behaviour)"
                )));
            }
            let n = b as u32;
            match (op, ty.signed) {
                (BinOp::Shl, _) => wrap(a.wrapping_shl(n)),
                (_, true) => a >> n,
                (_, false) => wrap((ua >> n) as Val),
            }
        }
        BinOp::Eq => (a == b_norm) as Val,
        BinOp::Ne => (a != b_norm) as Val,
        BinOp::Lt => cmp(ty, a, b_norm, |x, y| x < y, |x, y| x < y),
        BinOp::Le => cmp(ty, a, b_norm, |x, y| x <= y, |x, y| x <= y),
        BinOp::Gt => cmp(ty, a, b_norm, |x, y| x > y, |x, y| x > y),
        BinOp::Ge => cmp(ty, a, b_norm, |x, y| x >= y, |x, y| x >= y),
    })
}

/// [`binary`] on GCC's 128-bit integers: the operands are codes of `crate::wide`,
/// decoded to their 128-bit patterns; the result is encoded (comparisons: 0 or 1).
/// The shift count keeps its own value, as for the narrower types.
fn wide_binary(op: BinOp, a: Val, b: Val, ty: Scalar) -> Result<Val, Fault> {
    use crate::wide::{decode, encode};
    let (x, y) = (decode(a), decode(b));
    let (ux, uy) = (x as u128, y as u128);
    let ord = |f: fn(std::cmp::Ordering) -> bool| -> Result<Val, Fault> {
        let o = if ty.signed { x.cmp(&y) } else { ux.cmp(&uy) };
        Ok(f(o) as Val)
    };
    let r = match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        BinOp::Div | BinOp::Rem => {
            if y == 0 {
                return Err(Fault::memory("division by zero"));
            }
            match (op, ty.signed) {
                (BinOp::Div, true) => x.wrapping_div(y),
                (BinOp::Div, false) => (ux / uy) as i128,
                (_, true) => x.wrapping_rem(y),
                (_, false) => (ux % uy) as i128,
            }
        }
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        BinOp::Shl | BinOp::Shr => {
            if !(0..128).contains(&b) {
                return Err(Fault::memory(format!(
                    "shift by {b} bits of a 128-bit value (undefined behaviour)"
                )));
            }
            let n = b as u32;
            match (op, ty.signed) {
                (BinOp::Shl, _) => x.wrapping_shl(n),
                (_, true) => x >> n,
                (_, false) => (ux >> n) as i128,
            }
        }
        BinOp::Eq => return Ok((x == y) as Val),
        BinOp::Ne => return Ok((x != y) as Val),
        BinOp::Lt => return ord(|o| o.is_lt()),
        BinOp::Le => return ord(|o| o.is_le()),
        BinOp::Gt => return ord(|o| o.is_gt()),
        BinOp::Ge => return ord(|o| o.is_ge()),
    };
    Ok(encode(r))
}

/// `(to) a` where `from` or `to` is a 128-bit integer type (values of 16 bytes are codes
/// of `crate::wide`): widening sign- or zero-extends by `from`'s signedness, narrowing
/// keeps the low bytes (C11 6.3.1.3, two's complement), `_Bool` is "not zero".
pub fn wide_convert(a: Val, from: Scalar, to: Scalar) -> Val {
    let x = if from.size == 16 {
        crate::wide::decode(a)
    } else if from.signed {
        from.normalize(a) as i128
    } else {
        from.normalize(a) as u64 as i128
    };
    if to.size == 16 {
        crate::wide::encode(x)
    } else if to == Scalar::BOOL {
        (x != 0) as Val
    } else {
        to.normalize(x as i64)
    }
}

fn cmp(
    ty: Scalar,
    a: Val,
    b: Val,
    signed: impl Fn(Val, Val) -> bool,
    unsigned: impl Fn(u64, u64) -> bool,
) -> Val {
    if ty.signed {
        signed(a, b) as Val
    } else {
        unsigned(a as u64, b as u64) as Val
    }
}

/// `(to) a` for a value already normalised to its source type.
pub fn convert(a: Val, to: Scalar) -> Val {
    if to == Scalar::BOOL {
        (a != 0) as Val
    } else {
        to.normalize(a)
    }
}

/// The value a fetch-and-`op` writes when it reads `old`, wrapped to `ty`
/// (used for read-modify-writes on private memory, performed locally).
pub fn rmw(op: RmwKind, old: Val, v: Val, ty: Scalar) -> Val {
    ty.normalize(match op {
        RmwKind::Add => old.wrapping_add(v),
        RmwKind::Sub => old.wrapping_sub(v),
        RmwKind::And => old & v,
        RmwKind::Or => old | v,
        RmwKind::Xor => old ^ v,
        RmwKind::Xchg => v,
        RmwKind::Max | RmwKind::Min | RmwKind::UMax | RmwKind::UMin => {
            return engine_rmw(op, v, ty).apply(old).expect("always writes")
        }
    })
}

/// The engine operation for a fetch-and-`op` with operand `v` (normalised to `ty`):
/// additions and subtractions wrap to `ty` in the engine, so memory stays normalised.
pub fn engine_rmw(op: RmwKind, v: Val, ty: Scalar) -> RmwOp {
    let w = porf_graph::Wrap {
        bytes: ty.size,
        signed: ty.signed,
    };
    match op {
        RmwKind::Add => RmwOp::Add(v, w),
        RmwKind::Sub => RmwOp::Sub(v, w),
        RmwKind::And => RmwOp::And(v),
        RmwKind::Or => RmwOp::Or(v),
        RmwKind::Xor => RmwOp::Xor(v),
        RmwKind::Xchg => RmwOp::Xchg(v),
        RmwKind::Max => RmwOp::Max(v, porf_graph::Wrap { signed: true, ..w }),
        RmwKind::Min => RmwOp::Min(v, porf_graph::Wrap { signed: true, ..w }),
        RmwKind::UMax => RmwOp::Max(v, porf_graph::Wrap { signed: false, ..w }),
        RmwKind::UMin => RmwOp::Min(v, porf_graph::Wrap { signed: false, ..w }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UINT: Scalar = Scalar::int(4, false);
    const ULONG: Scalar = Scalar::int(8, false);
    const UCHAR: Scalar = Scalar::BOOL;

    fn bin(op: BinOp, a: Val, b: Val, ty: Scalar) -> Val {
        binary(op, a, b, ty).unwrap()
    }

    #[test]
    fn wrap_around_at_each_width() {
        assert_eq!(
            bin(BinOp::Add, i32::MAX as Val, 1, Scalar::INT),
            i32::MIN as Val
        );
        assert_eq!(bin(BinOp::Add, u32::MAX as Val, 1, UINT), 0);
        assert_eq!(bin(BinOp::Sub, 0, 1, UINT), u32::MAX as Val);
        assert_eq!(bin(BinOp::Sub, 0, 1, ULONG), -1);
        assert_eq!(bin(BinOp::Mul, 16, 16, UCHAR), 0);
        assert_eq!(bin(BinOp::Add, 127, 1, Scalar::CHAR), -128);
        assert_eq!(bin(BinOp::Add, i64::MAX, 1, Scalar::LONG), i64::MIN);
        assert_eq!(
            unary(UnOp::Neg, i32::MIN as Val, Scalar::INT),
            i32::MIN as Val
        );
        assert_eq!(unary(UnOp::Neg, 1, UINT), u32::MAX as Val);
        assert_eq!(unary(UnOp::BitNot, 0, UCHAR), 255);
        assert_eq!(unary(UnOp::BitNot, 0, Scalar::CHAR), -1);
        assert_eq!(unary(UnOp::LogNot, 0, Scalar::INT), 1);
        assert_eq!(unary(UnOp::LogNot, 7, Scalar::INT), 0);
    }

    #[test]
    fn division_signed_unsigned_and_by_zero() {
        assert_eq!(bin(BinOp::Div, -7, 2, Scalar::INT), -3);
        assert_eq!(bin(BinOp::Rem, -7, 2, Scalar::INT), -1);
        assert_eq!(bin(BinOp::Div, -1, 2, ULONG), i64::MAX);
        assert_eq!(bin(BinOp::Rem, u32::MAX as Val, 10, UINT), 5);
        assert_eq!(
            bin(BinOp::Div, i32::MIN as Val, -1, Scalar::INT),
            i32::MIN as Val
        );
        assert_eq!(bin(BinOp::Div, i64::MIN, -1, Scalar::LONG), i64::MIN);
        let e = binary(BinOp::Rem, 1, 0, Scalar::INT).unwrap_err();
        assert_eq!(e, Fault::memory("division by zero"));
        // A divisor that is zero only after wrapping to the type.
        assert!(binary(BinOp::Div, 1, 256, UCHAR).is_err());
    }

    #[test]
    fn shifts_and_comparisons() {
        assert_eq!(bin(BinOp::Shl, 1, 31, Scalar::INT), i32::MIN as Val);
        assert_eq!(bin(BinOp::Shl, 1, 31, UINT), 1 << 31);
        assert_eq!(bin(BinOp::Shr, -8, 1, Scalar::INT), -4);
        assert_eq!(bin(BinOp::Shr, u32::MAX as Val, 28, UINT), 15);
        assert_eq!(bin(BinOp::Shr, -1, 60, ULONG), 15);
        assert!(binary(BinOp::Shl, 1, 32, Scalar::INT).is_err());
        assert!(binary(BinOp::Shr, 1, -1, Scalar::INT).is_err());
        assert_eq!(bin(BinOp::Lt, -1, 0, Scalar::INT), 1);
        assert_eq!(bin(BinOp::Lt, -1, 0, ULONG), 0);
        assert_eq!(bin(BinOp::Gt, u32::MAX as Val, 0, UINT), 1);
        assert_eq!(bin(BinOp::Ge, 3, 3, Scalar::INT), 1);
        assert_eq!(bin(BinOp::Le, 4, 3, Scalar::INT), 0);
        assert_eq!(bin(BinOp::Eq, 255, -1, UCHAR), 1);
        assert_eq!(bin(BinOp::Ne, 255, -1, Scalar::INT), 1);
        assert_eq!(bin(BinOp::And, 0xf0, 0x3c, Scalar::INT), 0x30);
        assert_eq!(bin(BinOp::Or, 0xf0, 0x0f, UCHAR), 0xff);
        assert_eq!(bin(BinOp::Xor, -1, 1, Scalar::CHAR), -2);
    }

    #[test]
    fn conversions_and_rmw_values() {
        assert_eq!(convert(-1, UINT), u32::MAX as Val);
        assert_eq!(convert(u32::MAX as Val, Scalar::INT), -1);
        assert_eq!(convert(256, Scalar::BOOL), 1);
        assert_eq!(convert(0, Scalar::BOOL), 0);
        // `unsigned char` and `_Bool` are the same Scalar: a conversion to it is a test.
        assert_eq!(convert(300, UCHAR), 1);
        assert_eq!(
            rmw(RmwKind::Add, i32::MAX as Val, 1, Scalar::INT),
            i32::MIN as Val
        );
        assert_eq!(rmw(RmwKind::Sub, 0, 1, UINT), u32::MAX as Val);
        assert_eq!(rmw(RmwKind::Xchg, 0, 9, Scalar::INT), 9);
        assert_eq!(rmw(RmwKind::And, 6, 3, Scalar::INT), 2);
        assert_eq!(rmw(RmwKind::Or, 6, 3, Scalar::INT), 7);
        assert_eq!(rmw(RmwKind::Xor, 6, 3, Scalar::INT), 5);
        // GenMC's atomic-ops test: an `int` -1 is the larger as unsigned.
        assert_eq!(rmw(RmwKind::UMax, -1, 42, Scalar::INT), -1);
        assert_eq!(rmw(RmwKind::Max, -1, 42, Scalar::INT), 42);
        assert_eq!(rmw(RmwKind::UMin, -1, 42, Scalar::INT), 42);
        assert_eq!(rmw(RmwKind::Min, u32::MAX as Val, 1, UINT), u32::MAX as Val);
    }

    #[test]
    fn engine_rmw_results_wrap_to_the_type() {
        let m1 = u32::MAX as Val; // (unsigned)-1
        assert_eq!(engine_rmw(RmwKind::Add, m1, UINT).apply(5), Some(4));
        assert_eq!(engine_rmw(RmwKind::Add, 1, UINT).apply(m1), Some(0));
        assert_eq!(engine_rmw(RmwKind::Sub, 1, UINT).apply(0), Some(m1));
        assert_eq!(engine_rmw(RmwKind::Add, 1, UCHAR).apply(255), Some(0));
        let max = i32::MAX as Val;
        assert_eq!(
            engine_rmw(RmwKind::Add, 1, Scalar::INT).apply(max),
            Some(i32::MIN as Val)
        );
        assert_eq!(engine_rmw(RmwKind::Add, -1, ULONG).apply(0), Some(-1));
        assert_eq!(engine_rmw(RmwKind::Xchg, m1, UINT).apply(0), Some(m1));
    }
}
