//! `printf`'s floating conversions `%f %F %e %E %g %G` as glibc formats them: the
//! flags `-+ #0`, a width and a precision (default 6). Digits are those of the exact
//! binary value rounded to nearest with ties to even (Rust's exact formatting, which
//! glibc's agrees with); infinities print as `inf`, NaNs as `nan` (`-nan` when the
//! sign bit is set, as glibc does), upper case for the capital conversions.
//!
//! Invariant: [`body`] returns the text before width padding, sign included; the
//! caller pads it (with zeros after the sign for the `0` flag, finite values only).

/// The precision of directive `spec` (`%-8.3f`): `None` when it has none; `.` alone
/// means 0.
pub fn precision(spec: &str) -> Option<usize> {
    let (_, after) = spec.split_once('.')?;
    let digits: String = after.chars().take_while(|c| c.is_ascii_digit()).collect();
    Some(digits.parse().unwrap_or(0))
}

/// The flag characters of `spec` (right after the `%`).
fn flags(spec: &str) -> &str {
    let s = spec.strip_prefix('%').unwrap_or(spec);
    let end = s
        .find(|c: char| !matches!(c, '-' | '+' | ' ' | '0' | '#'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The text of conversion `conv` (one of `fFeEgG`) of `x` under directive `spec`,
/// before width padding.
pub fn body(conv: char, spec: &str, x: f64) -> String {
    let fl = flags(spec);
    let alt = fl.contains('#');
    let sign = if x.is_sign_negative() {
        "-"
    } else if fl.contains('+') {
        "+"
    } else if fl.contains(' ') {
        " "
    } else {
        ""
    };
    let a = x.abs();
    let p = precision(spec).unwrap_or(6);
    let digits = if x.is_nan() {
        "nan".to_string()
    } else if x.is_infinite() {
        "inf".to_string()
    } else {
        match conv.to_ascii_lowercase() {
            'f' => fixed(a, p, alt),
            'e' => exponent(a, p, alt),
            _ => general(a, p, alt),
        }
    };
    let digits = if conv.is_ascii_uppercase() {
        digits.to_ascii_uppercase()
    } else {
        digits
    };
    format!("{sign}{digits}")
}

/// `%.pf` of a non-negative finite `a`.
fn fixed(a: f64, p: usize, alt: bool) -> String {
    let mut s = format!("{a:.p$}");
    if alt && p == 0 {
        s.push('.');
    }
    s
}

/// `%.pe` of a non-negative finite `a`: `d.ddde±XX`, at least two exponent digits.
fn exponent(a: f64, p: usize, alt: bool) -> String {
    let s = format!("{a:.p$e}");
    let (mant, exp) = s.split_once('e').expect("exponent form");
    let exp: i32 = exp.parse().expect("exponent");
    let dot = if alt && p == 0 { "." } else { "" };
    let esign = if exp < 0 { '-' } else { '+' };
    format!("{mant}{dot}e{esign}{:02}", exp.abs())
}

/// `%.pg` of a non-negative finite `a` (C11 7.21.6.1p8): `%e` style if the exponent
/// X of the value rounded to P significant digits is below -4 or at least P, else
/// `%f` style with P - 1 - X decimals; without `#`, trailing zeros of the fraction and
/// a trailing decimal point are removed.
fn general(a: f64, p: usize, alt: bool) -> String {
    let p = p.max(1);
    let x: i64 = if a == 0.0 {
        0
    } else {
        let s = format!("{a:.*e}", p - 1);
        s.split_once('e')
            .and_then(|(_, e)| e.parse().ok())
            .expect("exponent")
    };
    let s = if (p as i64) > x && x >= -4 {
        fixed(a, (p as i64 - 1 - x) as usize, alt)
    } else {
        exponent(a, p - 1, alt)
    };
    if alt {
        return s;
    }
    let (mant, exp) = match s.find('e') {
        Some(i) => s.split_at(i),
        None => (s.as_str(), ""),
    };
    let mant = if mant.contains('.') {
        mant.trim_end_matches('0').trim_end_matches('.')
    } else {
        mant
    };
    format!("{mant}{exp}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected texts are glibc's (gcc-compiled `printf` on x86-64).
    #[test]
    fn fixed_exponent_and_general_forms() {
        let third = 1.0 / 3.0;
        assert_eq!(body('f', "%f", third), "0.333333");
        assert_eq!(body('f', "%.2f", third), "0.33");
        assert_eq!(body('e', "%e", third), "3.333333e-01");
        assert_eq!(body('g', "%g", third), "0.333333");
        assert_eq!(body('g', "%g", 1e20), "1e+20");
        assert_eq!(body('g', "%g", 100000.0), "100000");
        assert_eq!(body('g', "%g", 1000000.0), "1e+06");
        assert_eq!(body('g', "%g", 0.0001), "0.0001");
        assert_eq!(body('g', "%g", 0.00001), "1e-05");
        assert_eq!(body('g', "%g", 0.0), "0");
        assert_eq!(body('g', "%#g", 1.5), "1.50000");
        assert_eq!(body('G', "%G", 1e-10), "1E-10");
        assert_eq!(body('g', "%.3g", 2.0 / 3.0), "0.667");
        assert_eq!(body('g', "%.0g", 123.0), "1e+02");
        assert_eq!(body('f', "%.0f", 2.5), "2");
        assert_eq!(body('f', "%.0f", 3.5), "4");
        assert_eq!(body('f', "%#.0f", 3.0), "3.");
        assert_eq!(body('f', "%.2f", 0.125), "0.12");
        assert_eq!(body('f', "%.2f", 2.675), "2.67");
        assert_eq!(body('e', "%.0e", 5.0), "5e+00");
        assert_eq!(body('E', "%E", 1e-300), "1.000000E-300");
        assert_eq!(body('f', "%f", 1e22), "10000000000000000000000.000000");
    }

    #[test]
    fn signs_zeros_infinities_and_nans() {
        assert_eq!(body('f', "%f", -0.0), "-0.000000");
        assert_eq!(body('f', "%+f", 1.5), "+1.500000");
        assert_eq!(body('f', "% f", 1.5), " 1.500000");
        assert_eq!(body('f', "%f", f64::INFINITY), "inf");
        assert_eq!(body('F', "%F", f64::NEG_INFINITY), "-INF");
        assert_eq!(body('f', "%f", f64::NAN), "nan");
        assert_eq!(body('e', "%e", -f64::NAN), "-nan");
        assert_eq!(body('g', "%+g", f64::INFINITY), "+inf");
        assert_eq!(precision("%-8.3f"), Some(3));
        assert_eq!(precision("%.f"), Some(0));
        assert_eq!(precision("%8f"), None);
    }
}
