//! The printf family (`printf`, `fprintf`, `puts`, `putchar`, `fflush`) as
//! [`InstKind::Print`]: the format string is parsed here, string-literal `%s`
//! arguments are folded into the text, and the remaining arguments are evaluated in
//! order. The interpreter formats the values and keeps the text with the thread's
//! state; witnesses show it.
//!
//! Invariant: the pieces of a `Print` have exactly one `Conv` per argument operand.
//! A conversion porf does not format (`%a`, a precision on an integer conversion) is
//! shown as `<%a>` with a front-end warning at the format string, never as a silently
//! wrong text; a `*` width (an extra argument) is an "unsupported" error. The
//! floating conversions `%f %F %e %E %g %G` take a `double` operand (a `float`
//! argument is promoted); an argument whose type does not fit its conversion (a
//! `double` for `%d`, an integer for `%f`: undefined in C) and `%Lf` (`long double`)
//! are "unsupported" errors.

use super::expr::Val;
use super::literals::string_value;
use super::{Cx, R};
use crate::ir::{InstKind, Operand, PrintPiece, Scalar};
use crate::types::{CType, IntTy};
use lang_c::ast::Expression;
use lang_c::span::Node;

/// One directive of a format, before the arguments are attached.
enum Directive {
    Text(String),
    Conv { conv: char, spec: String, size: u8 },
}

impl Cx<'_> {
    /// A call of `printf`-family function `name`; its value is the number of bytes
    /// printed (`fflush` returns 0 and prints nothing).
    pub fn print_call(&mut self, name: &str, args: &[Node<Expression>], off: usize) -> R<Val> {
        let int = |v: Operand| Ok(Val::R(v, CType::int(IntTy::Int)));
        let (fmt_at, newline) = match name {
            "printf" => (0, false),
            "fprintf" => (1, false),
            "puts" => (0, true),
            "putchar" => {
                self.argc_at_least(name, args, 1, off)?;
                let (v, t) = self.rvalue(&args[0])?;
                let v = self.assign_convert(v, &t, &CType::int(IntTy::Int), args[0].span.start)?;
                let piece = PrintPiece::Conv {
                    conv: 'c',
                    spec: "%c".into(),
                    size: 4,
                };
                return self.emit_print(vec![piece], vec![v], off).and_then(int);
            }
            _ => {
                // fflush: evaluate the stream argument, print nothing.
                for a in args {
                    self.rvalue(a)?;
                }
                return int(Operand::Const(0));
            }
        };
        self.argc_at_least(name, args, fmt_at + 1, off)?;
        for a in &args[..fmt_at] {
            self.rvalue(a)?;
        }
        let fmt = &args[fmt_at];
        let rest = &args[fmt_at + 1..];
        let Expression::StringLiteral(lit) = &fmt.node else {
            // A format that is not a literal: print the string it points to.
            let (v, _) = self.rvalue(fmt)?;
            for a in rest {
                self.rvalue(a)?;
            }
            let piece = PrintPiece::Conv {
                conv: 's',
                spec: "%s".into(),
                size: 8,
            };
            return self.emit_print(vec![piece], vec![v], off).and_then(int);
        };
        let (pieces, ops) = self.format_pieces(name, fmt, &lit.node, rest, newline, true)?;
        self.emit_print(pieces, ops, off).and_then(int)
    }

    /// The pieces and argument operands of format literal `lit` (`fmt`) with arguments
    /// `rest`, for `name`: string-literal `%s` arguments folded into the text;
    /// `newline` appends one (`puts`); `warn` reports conversions porf shows by name.
    pub(super) fn format_pieces(
        &mut self,
        name: &str,
        fmt: &Node<Expression>,
        lit: &[String],
        rest: &[Node<Expression>],
        newline: bool,
        warn: bool,
    ) -> R<(Vec<PrintPiece>, Vec<Operand>)> {
        let Some(bytes) = string_value(lit) else {
            return self.err(fmt.span.start, "malformed string literal");
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let dirs = if newline {
            vec![Directive::Text(format!("{text}\n"))]
        } else {
            let mut warnings = Vec::new();
            let d = match parse_format(&text, &mut warnings) {
                Ok(d) => d,
                Err(msg) => return self.unsup(fmt.span.start, msg),
            };
            for w in warnings.into_iter().filter(|_| warn) {
                let d = self
                    .map
                    .diag(crate::DiagKind::Unsupported, fmt.span.start, w);
                self.warnings.push(format!(
                    "{}:{}:{}: warning: {}",
                    d.file, d.line, d.col, d.message
                ));
            }
            d
        };
        let nconv = dirs
            .iter()
            .filter(|d| matches!(d, Directive::Conv { .. }))
            .count();
        if nconv != rest.len() {
            return self.err(
                fmt.span.start,
                format!(
                    "format has {nconv} conversion{} but `{name}` gets {} argument{} after it",
                    if nconv == 1 { "" } else { "s" },
                    rest.len(),
                    if rest.len() == 1 { "" } else { "s" }
                ),
            );
        }
        let mut pieces = Vec::new();
        let mut ops = Vec::new();
        let mut text_acc = String::new();
        let mut rest = rest.iter();
        for d in dirs {
            match d {
                Directive::Text(t) => text_acc.push_str(&t),
                Directive::Conv { conv, spec, size } => {
                    let arg = rest.next().expect("counted");
                    if conv == 's' && spec == "%s" {
                        if let Expression::StringLiteral(s) = &arg.node {
                            if let Some(b) = string_value(&s.node) {
                                text_acc.push_str(&String::from_utf8_lossy(&b));
                                continue;
                            }
                        }
                    }
                    let (v, t) = self.rvalue(arg)?;
                    let v = self.print_operand(conv, &spec, v, &t, arg.span.start)?;
                    if !text_acc.is_empty() {
                        pieces.push(PrintPiece::Text(std::mem::take(&mut text_acc)));
                    }
                    pieces.push(PrintPiece::Conv { conv, spec, size });
                    ops.push(v);
                }
            }
        }
        if !text_acc.is_empty() {
            pieces.push(PrintPiece::Text(text_acc));
        }
        Ok((pieces, ops))
    }

    /// Argument `v: t` of conversion `conv`: a floating argument of a floating
    /// conversion as a `double`; a mismatch between the two is unsupported.
    fn print_operand(
        &mut self,
        conv: char,
        spec: &str,
        v: Operand,
        t: &CType,
        off: usize,
    ) -> R<Operand> {
        let float_conv = is_float_conv(conv);
        match t.float_ty() {
            Some(ft) if float_conv => Ok(self.b.conv(v, ft.scalar(), Scalar::F64)),
            None if !float_conv => Ok(v),
            _ if conv == '?' => Ok(v),
            _ => self.unsup(
                off,
                format!(
                    "printf `{spec}` with an argument of type `{}` (undefined behaviour)",
                    self.show(t)
                ),
            ),
        }
    }

    fn emit_print(
        &mut self,
        pieces: Vec<PrintPiece>,
        args: Vec<Operand>,
        off: usize,
    ) -> R<Operand> {
        self.at(off);
        let dst = self.b.reg();
        self.b.emit(InstKind::Print {
            dst: Some(dst),
            pieces,
            args,
            to_buffer: false,
        });
        Ok(Operand::Reg(dst))
    }

    fn argc_at_least(&self, name: &str, args: &[Node<Expression>], n: usize, off: usize) -> R<()> {
        if args.len() < n {
            return self.err(
                off,
                format!(
                    "`{name}` needs at least {n} argument{}",
                    if n == 1 { "" } else { "s" }
                ),
            );
        }
        Ok(())
    }
}

/// Whether `conv` is one of the floating conversions porf formats.
fn is_float_conv(conv: char) -> bool {
    matches!(conv, 'f' | 'F' | 'e' | 'E' | 'g' | 'G')
}

/// Splits a printf format into text and conversions. A conversion porf does not
/// format (`%a`, a precision on an integer conversion) becomes `?` with a warning; `Err` names a directive that
/// makes the arguments impossible to match (`*`, a malformed directive).
fn parse_format(f: &str, warnings: &mut Vec<String>) -> Result<Vec<Directive>, String> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut chars = f.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        if let Some(&(_, '%')) = chars.peek() {
            chars.next();
            text.push('%');
            continue;
        }
        let mut end;
        let mut length = String::new();
        let conv = loop {
            let Some((i, d)) = chars.next() else {
                return Err(format!(
                    "format ends inside the directive `{}`",
                    &f[start..]
                ));
            };
            end = i + d.len_utf8();
            match d {
                '-' | '+' | ' ' | '#' | '0'..='9' | '.' => {}
                'h' | 'l' | 'z' | 'j' | 't' => length.push(d),
                'd' | 'i' | 'u' | 'x' | 'X' | 'o' | 'c' | 'p' | 's' => break d,
                _ if is_float_conv(d) => break d,
                '*' => {
                    return Err(format!(
                        "printf width or precision `*` in `{}` is not supported",
                        &f[start..end]
                    ))
                }
                'L' | 'q' => length.push(d),
                _ if d.is_ascii_alphabetic() => break '?',
                _ => return Err(format!("malformed printf directive `{}`", &f[start..end])),
            }
        };
        let spec = &f[start..end];
        let conv = if conv != '?' && !is_float_conv(conv) && spec.contains('.') {
            '?'
        } else {
            conv
        };
        if conv == '?' {
            warnings.push(format!(
                "printf directive `{spec}` is not formatted by porf (it formats d i u x X o c p s with flags, width and h/l/ll/z/j/t, and f F e E g G with flags, width and precision); witnesses show `<{spec}>`"
            ));
        }
        let size = match (conv, length.as_str()) {
            ('p' | 's' | '?', _) => 8,
            (c, "" | "l") if is_float_conv(c) => 8,
            (c, "L") if is_float_conv(c) => {
                return Err(format!("printf `{spec}` (`long double`) is not supported"))
            }
            (_, "hh") => 1,
            (_, "h") => 2,
            (_, "") => 4,
            (_, "l" | "ll" | "z" | "j" | "t") => 8,
            (_, other) => {
                return Err(format!(
                    "printf length `{other}` in `{spec}` is not supported"
                ))
            }
        };
        if !text.is_empty() {
            out.push(Directive::Text(std::mem::take(&mut text)));
        }
        out.push(Directive::Conv {
            conv,
            spec: spec.to_string(),
            size,
        });
    }
    if !text.is_empty() {
        out.push(Directive::Text(text));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn convs(f: &str) -> Vec<(char, String, u8)> {
        parse_format(f, &mut Vec::new())
            .unwrap()
            .into_iter()
            .filter_map(|d| match d {
                Directive::Conv { conv, spec, size } => Some((conv, spec, size)),
                Directive::Text(_) => None,
            })
            .collect()
    }

    #[test]
    fn formats_split_into_text_and_conversions() {
        assert_eq!(
            convs("a=%d b=%-5lu %% c=%hhx %p %s\n"),
            vec![
                ('d', "%d".into(), 4),
                ('u', "%-5lu".into(), 8),
                ('x', "%hhx".into(), 1),
                ('p', "%p".into(), 8),
                ('s', "%s".into(), 8)
            ]
        );
        assert_eq!(
            convs("%f %-8.3lf %E %.0g"),
            vec![
                ('f', "%f".into(), 8),
                ('f', "%-8.3lf".into(), 8),
                ('E', "%E".into(), 8),
                ('g', "%.0g".into(), 8)
            ]
        );
    }

    #[test]
    fn unformatted_directives_warn_and_impossible_ones_fail() {
        let mut w = Vec::new();
        assert_eq!(parse_format("%a %.3d", &mut w).unwrap().len(), 3);
        assert_eq!(w.len(), 2);
        assert!(w[0].contains("`%a`") && w[1].contains("`%.3d`"), "{w:?}");
        assert!(parse_format("%Lf", &mut w).is_err());
        assert_eq!(w.len(), 2);
        assert!(parse_format("%*d", &mut w).is_err());
        assert!(parse_format("%", &mut w).is_err());
    }
}
