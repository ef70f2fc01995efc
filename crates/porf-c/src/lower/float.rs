//! `float` and `double`: floating constants, the usual arithmetic conversions with a
//! floating operand, conversions to and from floating types, and floating values as
//! conditions.
//!
//! Invariants: a floating value is the IEEE bit pattern of its type
//! ([`crate::ir::Scalar::F32`] / [`crate::ir::Scalar::F64`]); it is tested for truth
//! only by comparing it with 0.0 ([`Cx::truth`]), never by its bits (`-0.0` has a
//! nonzero pattern and is false); it never meets `%`, shifts, bitwise operators or
//! pointers (C forbids them; the diagnostics are gcc's errors). `long double`,
//! complex and imaginary constants, and atomic floating objects are rejected as
//! unsupported elsewhere (`decl`, `builtins`).

use super::expr::Val;
use super::{Cx, R};
use crate::interp::float::{from_f32, from_f64};
use crate::ir::{BinOp, Operand, Scalar};
use crate::types::{common_float, CType, FloatTy, IntTy, Kind};
use lang_c::ast::{Float, FloatBase, FloatFormat};

impl Cx<'_> {
    /// A floating constant (C11 6.4.4.2): decimal constants are rounded to nearest
    /// directly in their type (`f`: `float`, none: `double`); hexadecimal ones must
    /// be exact in their type (a rounded one is reported as unsupported).
    pub fn float_constant(&mut self, c: &Float, off: usize) -> R<Val> {
        if c.suffix.imaginary {
            return self.unsup(off, "imaginary constants are not supported");
        }
        let ty = match c.suffix.format {
            FloatFormat::Float => FloatTy::Float,
            FloatFormat::Double => FloatTy::Double,
            FloatFormat::LongDouble => {
                return self.unsup(off, "`long double` constants are not supported")
            }
            FloatFormat::TS18661Format(_) => {
                return self.unsup(off, "TS 18661 floating constants are not supported")
            }
        };
        let bits = match c.base {
            FloatBase::Decimal => decimal(&c.number, ty),
            FloatBase::Hexadecimal => hexadecimal(&c.number, ty),
        };
        match bits {
            Some(v) => Ok(Val::R(Operand::Const(v), CType::new(Kind::Float(ty)))),
            None if c.base == FloatBase::Hexadecimal => self.unsup(
                off,
                format!(
                    "hexadecimal floating constant `0x{}` is not exactly representable as a `{}` (porf does not round hexadecimal constants)",
                    c.number,
                    ty.name()
                ),
            ),
            None => self.err(off, format!("malformed floating constant `{}`", c.number)),
        }
    }

    /// `v` of type `t` as a condition value: for a floating `t`, `v != 0.0` (0 or 1);
    /// otherwise `v` itself (nonzero is true).
    pub fn truth(&mut self, v: Operand, t: &CType) -> Operand {
        match t.float_ty() {
            Some(f) => self.b.bin(BinOp::Ne, v, Operand::Const(0), f.scalar()),
            None => v,
        }
    }

    /// `a op b` when `a` or `b` is floating and both are arithmetic: both operands
    /// are converted to the common floating type (C11 6.3.1.8). `+ - * /` yield that
    /// type, comparisons `int`. `None` for operand types this does not handle.
    pub fn float_arith(
        &mut self,
        op: BinOp,
        (a, ta): (&Operand, &CType),
        (b, tb): (&Operand, &CType),
    ) -> Option<(Operand, CType)> {
        if !ta.is_arithmetic() || !tb.is_arithmetic() {
            return None;
        }
        let ft = common_float(ta, tb)?;
        let s = ft.scalar();
        let a = self.b.conv(*a, ta.scalar()?, s);
        let b = self.b.conv(*b, tb.scalar()?, s);
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                Some((self.b.bin(op, a, b, s), CType::new(Kind::Float(ft))))
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                Some((self.b.bin(op, a, b, s), CType::int(IntTy::Int)))
            }
            _ => None,
        }
    }

    /// The conversion of `v: from` to `to` when either is floating (assignment,
    /// arguments, returns and casts alike): arithmetic to floating, floating to
    /// `_Bool` (`!= 0.0`) and to other integers (truncation; undefined out of range,
    /// a run-time error). `Ok(None)` when neither type is floating; an error for a
    /// floating value and a pointer, struct or void (C11 6.5.4p4, 6.5.16.1).
    pub fn float_convert(
        &mut self,
        v: Operand,
        from: &CType,
        to: &CType,
        off: usize,
    ) -> R<Option<Operand>> {
        if !from.is_float() && !to.is_float() {
            return Ok(None);
        }
        if !from.is_arithmetic() || !to.is_arithmetic() {
            return self.err(
                off,
                format!(
                    "incompatible types: `{}` cannot be converted to `{}`",
                    self.show(from),
                    self.show(to)
                ),
            );
        }
        if to.int_ty() == Some(IntTy::Bool) {
            let t = self.truth(v, from);
            return Ok(Some(t));
        }
        let (f, t): (Scalar, Scalar) = (from.scalar().expect("arith"), to.scalar().expect("arith"));
        Ok(Some(self.b.conv(v, f, t)))
    }
}

/// The bits of decimal constant `s` (digits, optional `.`, optional exponent) in
/// type `ty`, correctly rounded (Rust's parser rounds to nearest, ties to even, in the
/// target type directly).
fn decimal(s: &str, ty: FloatTy) -> Option<i64> {
    if !s.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    match ty {
        FloatTy::Float => s.parse::<f32>().ok().map(from_f32),
        FloatTy::Double => s.parse::<f64>().ok().map(from_f64),
    }
}

/// The bits of hexadecimal constant `s` (after `0x`: hex digits, optional `.`, `p`
/// and a decimal exponent) in type `ty`, if its value is exactly representable there
/// (normal or zero); `None` otherwise.
fn hexadecimal(s: &str, ty: FloatTy) -> Option<i64> {
    let (mant, exp) = s.split_once(['p', 'P'])?;
    let mut exp: i64 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let mut m: u64 = 0;
    for c in int.chars().chain(frac.chars()) {
        let d = c.to_digit(16)? as u64;
        if m >> 60 != 0 {
            // More than 64 significant bits: drop trailing zero digits only.
            if d != 0 {
                return None;
            }
            exp += 4;
            continue;
        }
        m = m * 16 + d;
    }
    exp = exp.checked_sub(4 * frac.len() as i64)?;
    if m == 0 {
        return Some(match ty {
            FloatTy::Float => from_f32(0.0),
            FloatTy::Double => from_f64(0.0),
        });
    }
    // Exact iff the significant bits fit the format's precision and the exponent its
    // normal range.
    let (prec, min_exp, max_exp) = match ty {
        FloatTy::Float => (24, -126, 127),
        FloatTy::Double => (53, -1022, 1023),
    };
    let tz = m.trailing_zeros() as i64;
    let (m, exp) = (m >> tz, exp + tz);
    let width = 64 - m.leading_zeros() as i64;
    let top = exp + width - 1;
    if width > prec || top < min_exp || top > max_exp {
        return None;
    }
    // m * 2^exp: m converts exactly, and scaling by a power of two in the normal
    // range is exact; the power itself is split so that each factor is normal.
    let mut x = m as f64;
    let mut e = exp;
    while e != 0 {
        let step = e.clamp(-1000, 1000);
        x *= 2f64.powi(step as i32);
        e -= step;
    }
    Some(match ty {
        FloatTy::Float => from_f32(x as f32),
        FloatTy::Double => from_f64(x),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_constants_round_in_their_type() {
        assert_eq!(decimal("1.5", FloatTy::Double), Some(from_f64(1.5)));
        assert_eq!(decimal("1e-3", FloatTy::Double), Some(from_f64(0.001)));
        assert_eq!(decimal("2.", FloatTy::Double), Some(from_f64(2.0)));
        assert_eq!(decimal(".25", FloatTy::Double), Some(from_f64(0.25)));
        assert_eq!(decimal("0.1", FloatTy::Float), Some(from_f32(0.1)));
        // 0.1f is not (float)0.1 through double... here both round to the same float,
        // but 1.00000005960464477550 (just above the tie 1 + 2^-24) must round up in
        // binary32 directly, while through binary64 it would first become the tie
        // and then round to even (down).
        let s = "1.00000005960464477550";
        assert_eq!(
            decimal(s, FloatTy::Float),
            Some(from_f32(1.0 + 2f32.powi(-23)))
        );
        assert_eq!(
            (s.parse::<f64>().unwrap() as f32).to_bits() as i64,
            from_f32(1.0)
        );
        assert_eq!(
            decimal("1e400", FloatTy::Double),
            Some(from_f64(f64::INFINITY))
        );
    }

    #[test]
    fn hexadecimal_constants_are_exact_or_refused() {
        assert_eq!(hexadecimal("1.8p1", FloatTy::Double), Some(from_f64(3.0)));
        assert_eq!(hexadecimal("1p-2", FloatTy::Float), Some(from_f32(0.25)));
        assert_eq!(hexadecimal("A.0P0", FloatTy::Double), Some(from_f64(10.0)));
        assert_eq!(
            hexadecimal("1p-1022", FloatTy::Double),
            Some(from_f64(f64::MIN_POSITIVE))
        );
        assert_eq!(hexadecimal("0.0p0", FloatTy::Double), Some(from_f64(0.0)));
        // 2^24 + 1 needs 25 bits: not exact in binary32, exact in binary64.
        assert_eq!(hexadecimal("1000001p0", FloatTy::Float), None);
        assert_eq!(
            hexadecimal("1000001p0", FloatTy::Double),
            Some(from_f64(16777217.0))
        );
        assert_eq!(hexadecimal("1p-1075", FloatTy::Double), None);
        assert_eq!(hexadecimal("1p1024", FloatTy::Double), None);
        assert_eq!(hexadecimal("1.8", FloatTy::Double), None);
    }
}
