//! Literals: the types of integer constants and the values of character constants
//! and string literals (escape sequences decoded).

use crate::types::IntTy;
use lang_c::ast::IntegerSize;

/// The type of an integer constant (C11 6.4.4.1).
pub(crate) fn int_constant_type(v: u64, decimal: bool, unsigned: bool, size: IntegerSize) -> IntTy {
    use IntTy::*;
    let all: &[IntTy] = match (decimal, unsigned) {
        (_, true) => &[UInt, ULong, ULongLong],
        (true, false) => &[Int, Long, LongLong],
        (false, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
    };
    let min_rank = match size {
        IntegerSize::Int => 0,
        IntegerSize::Long => Long.rank(),
        IntegerSize::LongLong => LongLong.rank(),
    };
    let fits = |t: IntTy| {
        let s = t.scalar();
        match (s.size, s.signed) {
            (4, true) => v <= i32::MAX as u64,
            (4, false) => v <= u32::MAX as u64,
            (_, true) => v <= i64::MAX as u64,
            _ => true,
        }
    };
    all.iter()
        .copied()
        .find(|&t| t.rank() >= min_rank && fits(t))
        .unwrap_or(ULongLong)
}

/// The value of a character constant such as `'a'`, `'\n'` or `L'x'`; `None` for
/// multi-character constants.
pub(crate) fn char_value(lit: &str) -> Option<i64> {
    let (prefixed, body) = match lit.find('\'') {
        Some(0) => (false, &lit[1..]),
        Some(k) => (true, &lit[k + 1..]),
        None => return None,
    };
    let body = body.strip_suffix('\'')?;
    let bytes = unescape(body)?;
    match bytes.as_slice() {
        [b] if !prefixed => Some(*b as i8 as i64),
        [b] => Some(*b as i64),
        _ if prefixed => {
            let s = std::str::from_utf8(&bytes).ok()?;
            let mut cs = s.chars();
            let c = cs.next()?;
            cs.next().is_none().then_some(c as i64)
        }
        _ => None,
    }
}

/// The bytes of a string literal's contents (`"..."` pieces concatenated).
pub(crate) fn string_value(pieces: &[String]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for p in pieces {
        let start = p.find('"')?;
        let body = p[start + 1..].strip_suffix('"')?;
        out.extend(unescape(body)?);
    }
    Some(out)
}

/// Decodes C escape sequences.
fn unescape(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = *b.get(i)?;
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' => 27,
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                for _ in 0..2 {
                    match b.get(i) {
                        Some(d @ b'0'..=b'7') => {
                            v = v * 8 + (d - b'0') as u32;
                            i += 1;
                        }
                        _ => break,
                    }
                }
                v as u8
            }
            b'x' => {
                let start = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                u8::from_str_radix(s.get(start..i)?, 16).ok()?
            }
            c => c,
        };
        out.push(v);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_types() {
        use IntTy::*;
        assert_eq!(int_constant_type(1, true, false, IntegerSize::Int), Int);
        assert_eq!(
            int_constant_type(1 << 31, true, false, IntegerSize::Int),
            Long
        );
        assert_eq!(
            int_constant_type(1 << 31, false, false, IntegerSize::Int),
            UInt
        );
        assert_eq!(int_constant_type(5, true, true, IntegerSize::Long), ULong);
        assert_eq!(
            int_constant_type(u64::MAX, false, false, IntegerSize::Int),
            ULong
        );
    }

    #[test]
    fn characters_and_strings() {
        assert_eq!(char_value("'a'"), Some(97));
        assert_eq!(char_value("'\\n'"), Some(10));
        assert_eq!(char_value("'\\xff'"), Some(-1));
        assert_eq!(char_value("'\\0'"), Some(0));
        assert_eq!(char_value("L'x'"), Some(120));
        assert_eq!(char_value("'ab'"), None);
        assert_eq!(
            string_value(&["\"a\\\"b\"".into(), "\"c\"".into()]).unwrap(),
            b"a\"bc"
        );
    }
}
