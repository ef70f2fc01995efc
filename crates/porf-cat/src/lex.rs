//! The cat lexer: herd7's tokens (names may contain `.`, `-` and end in `'`, so
//! `po-loc` is one name), `(* *)` comments (nested), `//` and `#` line comments.

use crate::diag::{CatError, Span};
use std::sync::Arc;

/// A token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Name(String),
    Keyword(&'static str),
    /// `'name`: a tag.
    Tag(String),
    Str(String),
    /// Punctuation and operators, as written (`|`, `||`, `^`, `-1`, `->`, ...).
    Punct(&'static str),
    Eof,
}

const KEYWORDS: &[&str] = &[
    "let",
    "rec",
    "and",
    "when",
    "acyclic",
    "irreflexive",
    "show",
    "unshow",
    "empty",
    "subset",
    "as",
    "fun",
    "in",
    "undefined_unless",
    "flag",
    "assert",
    "include",
    "variant",
    "begin",
    "end",
    "procedure",
    "call",
    "enum",
    "debug",
    "match",
    "with",
    "forall",
    "from",
    "do",
    "try",
    "if",
    "then",
    "else",
    "catdep",
    "instructions",
    "default",
    "not",
];

/// Longest first, so that `||` wins over `|`.
const PUNCT: &[&str] = &[
    "||", "&&", "++", "->", "-1", "(", ")", "{", "}", "[", "]", "_", "0", "|", "&", "*", "~", "+",
    "^", "\\", "?", "=", ";", ",",
];

/// The tokens of `src` with their positions (the last one [`Tok::Eof`]).
pub fn lex(file: &Arc<str>, src: &str) -> Result<Vec<(Tok, Span)>, CatError> {
    let b = src.as_bytes();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let mut out = Vec::new();
    let span = |line, col| Span {
        file: file.clone(),
        line,
        col,
    };
    // Advances over `n` bytes, keeping line and column.
    let step = |i: &mut usize, line: &mut u32, col: &mut u32, n: usize| {
        for _ in 0..n {
            if b[*i] == b'\n' {
                *line += 1;
                *col = 1;
            } else if b[*i] & 0xC0 != 0x80 {
                *col += 1;
            }
            *i += 1;
        }
    };
    let is_alpha = |c: u8| c.is_ascii_alphabetic();
    let is_name = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            step(&mut i, &mut line, &mut col, 1);
            continue;
        }
        if c == b'#' || b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                step(&mut i, &mut line, &mut col, 1);
            }
            continue;
        }
        let here = span(line, col);
        if b[i..].starts_with(b"(*") {
            let mut depth = 0;
            loop {
                if i >= b.len() {
                    return Err(CatError::at(&here, "unterminated comment"));
                }
                if b[i..].starts_with(b"(*") {
                    depth += 1;
                    step(&mut i, &mut line, &mut col, 2);
                } else if b[i..].starts_with(b"*)") {
                    depth -= 1;
                    step(&mut i, &mut line, &mut col, 2);
                    if depth == 0 {
                        break;
                    }
                } else {
                    step(&mut i, &mut line, &mut col, 1);
                }
            }
            continue;
        }
        if c == b'"' {
            let start = i + 1;
            let Some(len) = b[start..].iter().position(|&x| x == b'"') else {
                return Err(CatError::at(&here, "unterminated string"));
            };
            out.push((Tok::Str(src[start..start + len].to_string()), here));
            step(&mut i, &mut line, &mut col, len + 2);
            continue;
        }
        // A name: '_'? alpha (alpha | digit | '_' | '.' | '-')* '\''?
        let name_start = if is_alpha(c) || (c == b'_' && b.get(i + 1).is_some_and(|&x| is_alpha(x)))
        {
            Some(i)
        } else if c == b'\'' && b.get(i + 1).is_some_and(|&x| is_alpha(x) || x == b'_') {
            Some(i + 1)
        } else {
            None
        };
        if let Some(s) = name_start {
            let mut j = s + 1;
            while j < b.len() && is_name(b[j]) {
                j += 1;
            }
            if j < b.len() && b[j] == b'\'' {
                j += 1;
            }
            let text = &src[s..j];
            let tok = if c == b'\'' {
                Tok::Tag(text.to_string())
            } else if let Some(k) = KEYWORDS.iter().find(|&&k| k == text) {
                Tok::Keyword(k)
            } else {
                Tok::Name(text.to_string())
            };
            out.push((tok, here));
            let len = j - i;
            step(&mut i, &mut line, &mut col, len);
            continue;
        }
        let Some(p) = PUNCT.iter().find(|p| b[i..].starts_with(p.as_bytes())) else {
            let ch = src[i..].chars().next().expect("in bounds");
            return Err(CatError::at(&here, format!("unexpected character `{ch}`")));
        };
        out.push((Tok::Punct(p), here));
        step(&mut i, &mut line, &mut col, p.len());
    }
    out.push((Tok::Eof, span(line, col)));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(&Arc::from("t.cat"), s)
            .unwrap()
            .into_iter()
            .map(|(t, _)| t)
            .collect()
    }

    #[test]
    fn names_operators_comments() {
        assert_eq!(
            toks("(* a (* nested *) *) let po-loc = rf^-1 || x' # c\n0"),
            vec![
                Tok::Keyword("let"),
                Tok::Name("po-loc".into()),
                Tok::Punct("="),
                Tok::Name("rf".into()),
                Tok::Punct("^"),
                Tok::Punct("-1"),
                Tok::Punct("||"),
                Tok::Name("x'".into()),
                Tok::Punct("0"),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn positions_and_errors() {
        let t = lex(&Arc::from("t.cat"), "a\n  b").unwrap();
        assert_eq!((t[1].1.line, t[1].1.col), (2, 3));
        let e = lex(&Arc::from("t.cat"), "a\n $").unwrap_err();
        assert_eq!(e.to_string(), "t.cat:2:2: error: unexpected character `$`");
        assert!(lex(&Arc::from("t.cat"), "(* open").is_err());
    }
}
