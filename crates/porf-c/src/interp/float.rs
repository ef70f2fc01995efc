//! IEEE 754 arithmetic on the bit patterns porf keeps in registers and memory: a
//! `double` is its binary64 bits, a `float` its binary32 bits zero-extended (see
//! [`Scalar`]). Rust's `f32`/`f64` operations are IEEE's (round to nearest, ties to
//! even, no extended precision, no fused multiply-add), which is what C compilers emit
//! for x86-64 (SSE2, `FLT_EVAL_METHOD == 0`).
//!
//! Invariant: every function reads only the low 32 bits of a `float` operand and
//! returns results normalised to the result type (float bits zero-extended, integers
//! wrapped as [`Scalar::normalize`] does), so a value that reached a float cell
//! through a same-width integer access (a union) is still read correctly.

use crate::ir::{BinOp, Scalar, UnOp};
use crate::memory::Fault;
use porf_graph::Val;

/// The value of bit pattern `v` of floating type `ty`, widened to `f64` (exactly).
pub fn to_f64(v: Val, ty: Scalar) -> f64 {
    debug_assert!(ty.float);
    if ty.size == 4 {
        f32::from_bits(v as u32) as f64
    } else {
        f64::from_bits(v as u64)
    }
}

/// The bit pattern of `x` as a `double`.
pub fn from_f64(x: f64) -> Val {
    x.to_bits() as Val
}

/// The bit pattern of `x` as a `float` (zero-extended).
pub fn from_f32(x: f32) -> Val {
    x.to_bits() as Val
}

/// `op a` at floating type `ty`. (`~` is never emitted on floats; it complements
/// the bits.)
pub fn unary(op: UnOp, a: Val, ty: Scalar) -> Val {
    match op {
        // Negation flips the sign bit (of zeros and NaNs too), in either width.
        UnOp::Neg => ty.normalize(a ^ (1 << (ty.size as u32 * 8 - 1))),
        UnOp::LogNot => (to_f64(a, ty) == 0.0) as Val,
        UnOp::BitNot => ty.normalize(!a),
    }
}

/// `a op b` at floating type `ty`: IEEE arithmetic in `ty`'s width, comparisons
/// yielding 0 or 1.
pub fn binary(op: BinOp, a: Val, b: Val, ty: Scalar) -> Result<Val, Fault> {
    if ty.size == 4 {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        let r = match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div => x / y,
            _ => return compare(op, x as f64, y as f64),
        };
        return Ok(from_f32(r));
    }
    let (x, y) = (f64::from_bits(a as u64), f64::from_bits(b as u64));
    let r = match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        _ => return compare(op, x, y),
    };
    Ok(from_f64(r))
}

fn compare(op: BinOp, x: f64, y: f64) -> Result<Val, Fault> {
    let r = match op {
        BinOp::Eq => x == y,
        BinOp::Ne => x != y,
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        BinOp::Rem => return Err(not_float("%")),
        BinOp::And => return Err(not_float("&")),
        BinOp::Or => return Err(not_float("|")),
        BinOp::Xor => return Err(not_float("^")),
        BinOp::Shl => return Err(not_float("<<")),
        BinOp::Shr => return Err(not_float(">>")),
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => unreachable!("arithmetic"),
    };
    Ok(r as Val)
}

/// The front end never emits these (C forbids them on floating operands).
fn not_float(op: &str) -> Fault {
    Fault::unsupported(format!("internal: `{op}` on a floating-point value"))
}

/// `(to) a` for `a` normalised to `from`, where `from` or `to` is floating
/// ([`crate::ir::InstKind::FloatConvert`]). Floating to integer truncates toward
/// zero; a NaN, an infinity or a value whose integral part `to` cannot represent is
/// undefined behaviour (C11 6.3.1.4p1), reported as a memory-class error.
pub fn convert(a: Val, from: Scalar, to: Scalar) -> Result<Val, Fault> {
    match (from.float, to.float) {
        (false, true) => {
            let v = from.normalize(a);
            Ok(match (to.size, from.signed) {
                // Each a single, correctly rounded conversion (no detour through f64
                // for `float`, which could round twice).
                (4, true) => from_f32(v as f32),
                (4, false) => from_f32(v as u64 as f32),
                (_, true) => from_f64(v as f64),
                (_, false) => from_f64(v as u64 as f64),
            })
        }
        (true, true) => {
            let x = to_f64(a, from);
            Ok(if to.size == 4 {
                from_f32(x as f32)
            } else {
                from_f64(x)
            })
        }
        (true, false) => to_integer(to_f64(a, from), from, to),
        (false, false) => Ok(to.normalize(a)),
    }
}

/// Truncation of `x` toward zero into integer type `to`, or the undefined-behaviour
/// error.
fn to_integer(x: f64, from: Scalar, to: Scalar) -> Result<Val, Fault> {
    let t = x.trunc();
    let bits = to.size as i32 * 8;
    // The representable range as exact powers of two: [-2^(bits-1), 2^(bits-1)) or
    // [0, 2^bits). -0.0 >= 0.0 holds, so (unsigned)-0.5 is 0, as C requires.
    let (lo, hi) = if to.signed {
        (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1))
    } else {
        (0.0, 2f64.powi(bits))
    };
    if !(t >= lo && t < hi) {
        let kind = if from.size == 4 { "float" } else { "double" };
        return Err(Fault::memory(format!(
            "conversion of the {kind} {} to a {}-bit {} integer is out of range (undefined behaviour)",
            show_bits(from_f64(x), Scalar::F64),
            bits,
            if to.signed { "signed" } else { "unsigned" }
        )));
    }
    let v = if to.signed { t as i64 } else { t as u64 as i64 };
    Ok(to.normalize(v))
}

/// Bit pattern `v` of floating type `ty` as witnesses and messages show it: the
/// shortest decimal that reads back as the same value in `ty` (`0.1`, `-2.5`, `1e300`),
/// `inf`, `-inf` or `nan`.
pub fn show_bits(v: Val, ty: Scalar) -> String {
    let x = to_f64(v, ty);
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else if ty.size == 4 {
        format!("{:?}", f32::from_bits(v as u32))
    } else {
        format!("{x:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: Scalar = Scalar::F32;
    const D: Scalar = Scalar::F64;
    const UINT: Scalar = Scalar::int(4, false);
    const ULONG: Scalar = Scalar::int(8, false);

    fn d(x: f64) -> Val {
        from_f64(x)
    }
    fn f(x: f32) -> Val {
        from_f32(x)
    }
    fn bin(op: BinOp, a: Val, b: Val, ty: Scalar) -> Val {
        binary(op, a, b, ty).unwrap()
    }

    #[test]
    fn arithmetic_rounds_in_the_operation_width() {
        // 0.1 + 0.2 is 0.30000000000000004 in binary64, not the double nearest 0.3.
        let s = bin(BinOp::Add, d(0.1), d(0.2), D);
        assert_eq!(to_f64(s, D), 0.30000000000000004);
        assert_eq!(bin(BinOp::Eq, s, d(0.3), D), 0);
        // In binary32, 0.1f + 0.2f rounds to the float nearest 0.3: equal.
        let s = bin(BinOp::Add, f(0.1), f(0.2), F);
        assert_eq!(bin(BinOp::Eq, s, f(0.3), F), 1);
        assert_eq!(s >> 32, 0, "float results are zero-extended");
        assert_eq!(to_f64(bin(BinOp::Div, d(1.0), d(3.0), D), D), 1.0 / 3.0);
        assert_eq!(to_f64(bin(BinOp::Mul, f(1.5), f(-2.0), F), F), -3.0);
        // 16777216 + 1 is not representable in binary32: ties to even gives 16777216.
        assert_eq!(
            to_f64(bin(BinOp::Add, f(16777216.0), f(1.0), F), F),
            16777216.0
        );
    }

    #[test]
    fn division_by_zero_is_ieee() {
        assert_eq!(to_f64(bin(BinOp::Div, d(1.0), d(0.0), D), D), f64::INFINITY);
        assert_eq!(
            to_f64(bin(BinOp::Div, d(1.0), d(-0.0), D), D),
            f64::NEG_INFINITY
        );
        assert!(to_f64(bin(BinOp::Div, d(0.0), d(0.0), D), D).is_nan());
    }

    #[test]
    fn comparisons_follow_ieee() {
        let nan = d(f64::NAN);
        for op in [BinOp::Eq, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge] {
            assert_eq!(bin(op, nan, nan, D), 0, "{op:?}");
            assert_eq!(bin(op, nan, d(1.0), D), 0, "{op:?}");
        }
        assert_eq!(bin(BinOp::Ne, nan, nan, D), 1);
        // -0.0 and 0.0 differ in bits but compare equal.
        assert_ne!(d(-0.0), d(0.0));
        assert_eq!(bin(BinOp::Eq, d(-0.0), d(0.0), D), 1);
        assert_eq!(bin(BinOp::Lt, d(-0.0), d(0.0), D), 0);
        assert_eq!(bin(BinOp::Lt, d(-1.5), d(1.0), D), 1);
        assert_eq!(bin(BinOp::Ge, f(2.0), f(2.0), F), 1);
        assert!(binary(BinOp::Rem, d(1.0), d(1.0), D).is_err());
    }

    #[test]
    fn negation_and_truth() {
        assert_eq!(unary(UnOp::Neg, d(0.0), D), d(-0.0));
        assert_eq!(unary(UnOp::Neg, f(1.5), F), f(-1.5));
        assert_eq!(unary(UnOp::Neg, f(-0.0), F), f(0.0));
        assert_eq!(unary(UnOp::LogNot, d(-0.0), D), 1);
        assert_eq!(unary(UnOp::LogNot, d(f64::NAN), D), 0);
        assert_eq!(unary(UnOp::LogNot, f(1e-45), F), 0);
    }

    #[test]
    fn integer_to_floating_rounds_once() {
        let c = |v: Val, from: Scalar, to: Scalar| convert(v, from, to).unwrap();
        assert_eq!(c(-3, Scalar::INT, D), d(-3.0));
        assert_eq!(c(-1, UINT, D), d(4294967295.0));
        assert_eq!(c(-1, ULONG, D), d(18446744073709551615.0));
        // 2^24 + 1 rounds to even in binary32.
        assert_eq!(c(16777217, Scalar::INT, F), f(16777216.0));
        // 2^53 + 1 rounds to even in binary64.
        assert_eq!(c((1 << 53) + 1, Scalar::LONG, D), d(9007199254740992.0));
        // Directly to binary32: 2^60 + 2^36 + 1 is just above the tie between two
        // floats; rounding through binary64 first would land on the tie and round to
        // even (down), rounding once rounds up.
        let v: i64 = (1 << 60) + (1 << 36) + 1;
        assert_eq!(c(v, Scalar::LONG, F), f(v as f32));
        assert_eq!(
            to_f64(c(v, Scalar::LONG, F), F),
            (1u64 << 60) as f64 + 2f64.powi(37)
        );
    }

    #[test]
    fn floating_narrowing_rounds_to_nearest() {
        let c = |v: Val, from: Scalar, to: Scalar| convert(v, from, to).unwrap();
        assert_eq!(c(d(0.1), D, F), f(0.1));
        assert_eq!(
            c(d(1.0 + 2f64.powi(-24)), D, F),
            f(1.0),
            "a tie rounds to even"
        );
        assert_eq!(
            c(d(1.0 + 3.0 * 2f64.powi(-24)), D, F),
            f(1.0 + 2f32.powi(-22)),
            "a tie rounds to even (up)"
        );
        assert_eq!(c(d(1e300), D, F), f(f32::INFINITY));
        assert_eq!(c(d(-0.0), D, F), f(-0.0));
        assert_eq!(c(f(0.1), F, D), d(0.1f32 as f64));
    }

    #[test]
    fn floating_to_integer_truncates_and_traps_out_of_range() {
        let c = |x: f64, to: Scalar| convert(d(x), D, to);
        assert_eq!(c(2.9, Scalar::INT).unwrap(), 2);
        assert_eq!(c(-2.9, Scalar::INT).unwrap(), -2);
        assert_eq!(c(-0.5, UINT).unwrap(), 0);
        assert_eq!(c(255.9, Scalar::BOOL).unwrap(), 255, "unsigned char");
        assert_eq!(c(-128.5, Scalar::CHAR).unwrap(), -128);
        assert_eq!(c(4294967295.0, UINT).unwrap(), u32::MAX as Val);
        assert_eq!(c(-(2f64.powi(63)), Scalar::LONG).unwrap(), i64::MIN);
        assert_eq!(
            c(2f64.powi(64) - 2048.0, ULONG).unwrap() as u64,
            18446744073709549568
        );
        for (x, to) in [
            (2147483648.0, Scalar::INT),
            (-2147483649.0, Scalar::INT),
            (-1.0, UINT),
            (256.0, Scalar::BOOL),
            (2f64.powi(63), Scalar::LONG),
            (2f64.powi(64), ULONG),
            (f64::NAN, Scalar::INT),
            (f64::INFINITY, Scalar::LONG),
        ] {
            let e = c(x, to).unwrap_err();
            assert!(e.msg.contains("undefined behaviour"), "{x} {to:?}: {e:?}");
        }
        assert_eq!(convert(f(-7.75), F, Scalar::INT).unwrap(), -7);
    }

    #[test]
    fn values_show_with_the_shortest_digits_of_their_type() {
        assert_eq!(show_bits(f(0.1), F), "0.1");
        assert_eq!(show_bits(d(0.1f32 as f64), D), "0.10000000149011612");
        assert_eq!(show_bits(d(-2.5), D), "-2.5");
        assert_eq!(show_bits(d(-0.0), D), "-0.0");
        assert_eq!(show_bits(d(f64::NEG_INFINITY), D), "-inf");
        assert_eq!(show_bits(f(f32::NAN), F), "nan");
    }
}
