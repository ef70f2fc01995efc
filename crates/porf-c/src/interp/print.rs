//! `printf` output: formatting at run time and the text a thread printed so far.
//!
//! Invariant: printing never yields an action and never touches shared memory; a `%s`
//! argument is read only when it points into a string literal (read-only data, whose
//! bytes are the cells' initial values), otherwise the pointer is printed by name.
//! The printed text is a persistent list shared between a machine and its clones, so
//! cloning a thread state costs one reference count when it printed anything.

use crate::ir::{Module, PrintPiece};
use crate::memory::pointer_name;
use porf_graph::Val;
use std::sync::Arc;

/// The text a thread printed, newest piece first.
#[derive(Debug)]
pub struct Printed {
    prev: Option<Arc<Printed>>,
    text: String,
}

/// Appends `text` to the list `out`.
pub fn push(out: &mut Option<Arc<Printed>>, text: String) {
    let prev = out.take();
    *out = Some(Arc::new(Printed { prev, text }));
}

/// The pieces of `out`, oldest first.
pub fn lines(out: &Option<Arc<Printed>>) -> Vec<String> {
    let mut v = Vec::new();
    let mut cur = out.as_deref();
    while let Some(p) = cur {
        v.push(p.text.clone());
        cur = p.prev.as_deref();
    }
    v.reverse();
    v
}

/// Formats `pieces` with argument values `args` (as many as there are conversions).
pub fn format(code: &Module, pieces: &[PrintPiece], args: &[Val]) -> String {
    let mut out = String::new();
    let mut next = args.iter().copied();
    for p in pieces {
        match p {
            PrintPiece::Text(t) => out.push_str(t),
            PrintPiece::Conv { conv, spec, size } => {
                let v = next.next().unwrap_or(0);
                if matches!(conv, 'f' | 'F' | 'e' | 'E' | 'g' | 'G') {
                    // The argument is a `double` (the front end promotes floats).
                    let x = f64::from_bits(v as u64);
                    let body = super::print_float::body(*conv, spec, x);
                    pad(&mut out, spec, x.is_finite(), &body);
                    continue;
                }
                let body = convert(code, *conv, spec, *size, v);
                pad(
                    &mut out,
                    spec,
                    matches!(conv, 'd' | 'i' | 'u' | 'x' | 'X' | 'o'),
                    &body,
                );
            }
        }
    }
    out
}

/// [`format`] for text that the program reads back (`sprintf`): `Err` names the first
/// conversion whose text would not be the program's (a `%p`, whose text names the
/// object rather than giving an address; a `%s` of a string that is not a string
/// literal, which porf does not read from memory here; a conversion porf does not
/// format).
pub fn format_exact(code: &Module, pieces: &[PrintPiece], args: &[Val]) -> Result<String, String> {
    let mut next = args.iter().copied();
    for p in pieces {
        let PrintPiece::Conv { conv, spec, .. } = p else {
            continue;
        };
        let v = next.next().unwrap_or(0);
        let why = match conv {
            'p' => "the text of a pointer",
            's' if string_at(code, v).is_none() => "a string that is not a string literal",
            'c' if v as u8 >= 128 => "a byte above 127",
            'd' | 'i' | 'u' | 'x' | 'X' | 'o' | 'c' | 's' => continue,
            c if is_float(*c) => continue,
            _ => "a conversion porf does not format",
        };
        return Err(format!(
            "sprintf/snprintf `{spec}` of {why} is not supported (porf formats d i u x X o c \
             f F e E g G and %s of string literals into a buffer)"
        ));
    }
    let text = format(code, pieces, args);
    // Formats and literals are kept as UTF-8: bytes that are not were replaced.
    if text.contains('\u{FFFD}') {
        return Err("sprintf/snprintf of text that is not UTF-8 is not supported".into());
    }
    Ok(text)
}

fn is_float(c: char) -> bool {
    matches!(c, 'f' | 'F' | 'e' | 'E' | 'g' | 'G')
}

/// The digits (or text) of one conversion, before width padding.
fn convert(code: &Module, conv: char, spec: &str, size: u8, v: Val) -> String {
    let bits = u32::from(size.clamp(1, 8)) * 8;
    let unsigned = if bits == 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << bits) - 1)
    };
    let signed = if bits == 64 {
        v
    } else {
        ((v << (64 - bits)) >> (64 - bits)) as Val
    };
    let plus = flags(spec).contains('+');
    let alt = flags(spec).contains('#');
    match conv {
        'd' | 'i' => {
            let s = signed.to_string();
            if plus && signed >= 0 {
                format!("+{s}")
            } else {
                s
            }
        }
        'u' => unsigned.to_string(),
        'x' if alt && unsigned != 0 => format!("{unsigned:#x}"),
        'X' if alt && unsigned != 0 => format!("0X{unsigned:X}"),
        'o' if alt && unsigned != 0 => format!("0{unsigned:o}"),
        'x' => format!("{unsigned:x}"),
        'X' => format!("{unsigned:X}"),
        'o' => format!("{unsigned:o}"),
        'c' => char::from(unsigned as u8).to_string(),
        'p' => pointer_text(code, v),
        's' => {
            string_at(code, v).unwrap_or_else(|| format!("<string at {}>", pointer_text(code, v)))
        }
        _ => format!("<{spec}>"),
    }
}

/// A pointer as `printf("%p")` shows it in a witness: `(nil)` or `&name`.
pub fn pointer_text(code: &Module, v: Val) -> String {
    if v == 0 {
        "(nil)".into()
    } else {
        pointer_name(code, v)
    }
}

/// The NUL-terminated bytes of the string literal `v` points into, if it does.
fn string_at(code: &Module, v: Val) -> Option<String> {
    let first = code.cells.get(&v)?;
    if !first.name.starts_with("str#") {
        return None;
    }
    let mut bytes = Vec::new();
    let mut a = v;
    while let Some(c) = code.cells.get(&a) {
        if c.init == 0 || !c.name.starts_with("str#") {
            break;
        }
        bytes.push(c.init as u8);
        a += 1;
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The flag characters of a directive (`-+ 0#` right after the `%`).
fn flags(spec: &str) -> &str {
    let s = spec.strip_prefix('%').unwrap_or(spec);
    let end = s
        .find(|c: char| !matches!(c, '-' | '+' | ' ' | '0' | '#'))
        .unwrap_or(s.len());
    &s[..end]
}

/// Appends `body` padded to the directive's field width.
fn pad(out: &mut String, spec: &str, numeric: bool, body: &str) {
    let f = flags(spec);
    let rest = &spec[1 + f.len()..];
    let width: usize = rest
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap_or(0);
    let n = body.chars().count();
    if n >= width {
        out.push_str(body);
    } else if f.contains('-') {
        out.push_str(body);
        out.extend(std::iter::repeat_n(' ', width - n));
    } else if f.contains('0') && numeric {
        // Zeros go after the sign and the `0x` prefix.
        let (sign, rest) = match body.strip_prefix(['-', '+', ' ']) {
            Some(r) => (&body[..1], r),
            None => ("", body),
        };
        let (prefix, digits) = match rest.get(..2) {
            Some("0x" | "0X") => rest.split_at(2),
            _ => ("", rest),
        };
        out.push_str(sign);
        out.push_str(prefix);
        out.extend(std::iter::repeat_n('0', width - n));
        out.push_str(digits);
    } else {
        out.extend(std::iter::repeat_n(' ', width - n));
        out.push_str(body);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(conv: char, spec: &str, size: u8) -> PrintPiece {
        PrintPiece::Conv {
            conv,
            spec: spec.into(),
            size,
        }
    }

    #[test]
    fn formats_integers_with_width_and_flags() {
        let m = Module::default();
        let pieces = vec![
            PrintPiece::Text("x = ".into()),
            conv('d', "%d", 4),
            PrintPiece::Text(", ".into()),
            conv('u', "%u", 4),
            PrintPiece::Text(" [".into()),
            conv('d', "%5d", 4),
            PrintPiece::Text("|".into()),
            conv('d', "%-5d", 4),
            PrintPiece::Text("|".into()),
            conv('x', "%04x", 4),
            PrintPiece::Text("|".into()),
            conv('c', "%c", 4),
            PrintPiece::Text("|".into()),
            conv('d', "%05d", 4),
            PrintPiece::Text("|".into()),
            conv('x', "%#06x", 4),
            PrintPiece::Text("]".into()),
        ];
        let s = format(&m, &pieces, &[-3, -1, 42, 7, 255, 65, -42, 255]);
        assert_eq!(s, "x = -3, 4294967295 [   42|7    |00ff|A|-0042|0x00ff]");
    }

    #[test]
    fn formats_doubles_with_width_and_flags() {
        // Expected texts are glibc's for the same directives and values.
        let m = Module::default();
        let d = |x: f64| x.to_bits() as Val;
        let pieces = vec![
            conv('f', "%08.2f", 8),
            conv('f', "%-8.2f", 8),
            PrintPiece::Text("|".into()),
            conv('f', "%08f", 8),
            conv('f', "% 08.2f", 8),
            conv('f', "%+08.2f", 8),
            conv('e', "%8.3e", 8),
        ];
        let s = format(
            &m,
            &pieces,
            &[
                d(-1.5),
                d(1.5),
                d(f64::INFINITY),
                d(1.5),
                d(1.5),
                d(12345.678),
            ],
        );
        assert_eq!(s, "-0001.501.50    |     inf 0001.50+0001.501.235e+04");
    }

    #[test]
    fn null_and_unknown_strings_print_by_name() {
        let m = Module::default();
        assert_eq!(format(&m, &[conv('p', "%p", 8)], &[0]), "(nil)");
        assert!(format(&m, &[conv('s', "%s", 8)], &[0]).starts_with("<string at"));
    }

    #[test]
    fn printed_text_is_kept_in_order_and_shared_by_clones() {
        let mut out = None;
        push(&mut out, "a".into());
        let snapshot = out.clone();
        push(&mut out, "b".into());
        assert_eq!(lines(&out), vec!["a", "b"]);
        assert_eq!(lines(&snapshot), vec!["a"]);
    }
}
