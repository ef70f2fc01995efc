//! Tokens of one source line. The format is line-based (one declaration or
//! instruction per line), so the lexer works a line at a time; `#` starts a comment
//! that runs to the end of the line.

use crate::program::Pos;

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Tok {
    Ident(String),
    /// A non-negative integer literal (`None` if it does not fit in a `u64`).
    Int(Option<u64>),
    /// Punctuation and operators: `:=` `:` `,` `(` `)` `.` `=` `==` `!=` `<` `<=` `>`
    /// `>=` `&&` `||` `!` `+` `-` `*`.
    Punct(&'static str),
}

impl Tok {
    /// How the token reads in a message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Int(Some(v)) => format!("`{v}`"),
            Tok::Int(None) => "a number".into(),
            Tok::Punct(p) => format!("`{p}`"),
        }
    }
}

/// A token and the position of its first character.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
    /// Byte offset of the token in its line, and its length (for source excerpts).
    pub start: usize,
    pub len: usize,
}

/// Longest first, so that `:=` is not read as `:` then `=`.
const PUNCTS: [&str; 19] = [
    ":=", "==", "!=", "<=", ">=", "&&", "||", ":", ",", "(", ")", ".", "=", "<", ">", "!", "+",
    "-", "*",
];

/// The tokens of `line` (line number `lineno`), or the position and text of a
/// character that starts no token.
pub fn lex_line(line: &str, lineno: u32) -> Result<Vec<Token>, (Pos, String)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    // Columns count characters, not bytes.
    let col_of = |i: usize| line[..i].chars().count() as u32 + 1;
    while i < bytes.len() {
        let c = bytes[i];
        let pos = Pos {
            line: lineno,
            col: col_of(i),
        };
        if c == b'#' {
            break;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            out.push(Token {
                tok: Tok::Ident(line[start..i].to_string()),
                pos,
                start,
                len: i - start,
            });
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_') {
                return Err((
                    pos,
                    format!(
                        "malformed number `{}`",
                        &line[start..]
                            .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                            .next()
                            .unwrap_or("")
                    ),
                ));
            }
            out.push(Token {
                tok: Tok::Int(line[start..i].parse().ok()),
                pos,
                start,
                len: i - start,
            });
            continue;
        }
        if let Some(p) = PUNCTS.iter().find(|p| line[i..].starts_with(**p)) {
            out.push(Token {
                tok: Tok::Punct(p),
                pos,
                start: i,
                len: p.len(),
            });
            i += p.len();
            continue;
        }
        let ch = line[i..].chars().next().unwrap_or('?');
        return Err((pos, format!("unexpected character `{ch}`")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_operators_comments_and_columns() {
        let t = lex_line("  L: a := FADD(x, 1) # c := 2", 3).unwrap();
        let toks: Vec<_> = t.iter().map(|t| t.tok.clone()).collect();
        assert_eq!(
            toks,
            vec![
                Tok::Ident("L".into()),
                Tok::Punct(":"),
                Tok::Ident("a".into()),
                Tok::Punct(":="),
                Tok::Ident("FADD".into()),
                Tok::Punct("("),
                Tok::Ident("x".into()),
                Tok::Punct(","),
                Tok::Int(Some(1)),
                Tok::Punct(")"),
            ]
        );
        assert_eq!(t[0].pos, Pos { line: 3, col: 3 });
        assert_eq!(t[2].pos, Pos { line: 3, col: 6 });
        let t = lex_line("a<=b!=c", 1).unwrap();
        assert_eq!(t[1].tok, Tok::Punct("<="));
        assert_eq!(t[3].tok, Tok::Punct("!="));
    }

    #[test]
    fn rejects_bad_characters_and_numbers() {
        assert_eq!(
            lex_line("a := $", 2).unwrap_err().0,
            Pos { line: 2, col: 6 }
        );
        assert!(lex_line("a := 12ab", 1).unwrap_err().1.contains("12ab"));
        assert_eq!(
            lex_line("a := 99999999999999999999999", 1).unwrap()[2].tok,
            Tok::Int(None)
        );
        assert!(lex_line("a := é", 1).is_err());
    }
}
