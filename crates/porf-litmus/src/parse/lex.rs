//! The token level: positions, trivia (comments, herd's `Key=value` lines) and tokens.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn at(&self, off: usize) -> Pos {
        let line = self.lines.partition_point(|&s| s <= off);
        let start = self.lines[line - 1];
        Pos {
            line: line as u32,
            col: (off - start + 1) as u32,
        }
    }

    pub(super) fn err_at<T>(&self, off: usize, msg: impl Into<String>) -> R<T> {
        let p = self.at(off);
        Err(LitmusError {
            file: self.file.clone(),
            line: p.line,
            col: p.col,
            message: msg.into(),
        })
    }

    pub(super) fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    pub(super) fn peek_byte(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// Skips whitespace and comments (`(* *)` nested, `//`, `/* */`).
    pub(super) fn skip_trivia(&mut self) -> R<()> {
        let b = self.bytes();
        loop {
            while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
                self.pos += 1;
            }
            if b[self.pos..].starts_with(b"(*") {
                let start = self.pos;
                let mut depth = 0;
                loop {
                    if self.pos >= b.len() {
                        return self.err_at(start, "unterminated comment `(*`");
                    }
                    if b[self.pos..].starts_with(b"(*") {
                        depth += 1;
                        self.pos += 2;
                    } else if b[self.pos..].starts_with(b"*)") {
                        depth -= 1;
                        self.pos += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        self.pos += 1;
                    }
                }
            } else if b[self.pos..].starts_with(b"//") {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else if b[self.pos..].starts_with(b"/*") {
                let start = self.pos;
                match self.text[self.pos + 2..].find("*/") {
                    Some(i) => self.pos += 2 + i + 2,
                    None => return self.err_at(start, "unterminated comment `/*`"),
                }
            } else {
                return Ok(());
            }
        }
    }

    /// The next token and its offset (after trivia), without consuming it.
    pub(super) fn peek(&mut self) -> R<(Tok, usize)> {
        let save = self.pos;
        let t = self.next();
        self.pos = save;
        t
    }

    pub(super) fn next(&mut self) -> R<(Tok, usize)> {
        self.skip_trivia()?;
        let b = self.bytes();
        let start = self.pos;
        let Some(&c) = b.get(start) else {
            return Ok((Tok::Eof, start));
        };
        if is_ident_start(c) {
            let mut end = start + 1;
            while end < b.len() && is_ident_char(b[end]) {
                end += 1;
            }
            self.pos = end;
            return Ok((Tok::Ident(self.text[start..end].to_string()), start));
        }
        let neg = c == b'-' && b.get(start + 1).is_some_and(u8::is_ascii_digit);
        if c.is_ascii_digit() || neg {
            let mut end = start + usize::from(neg);
            let hex = b[end..].starts_with(b"0x") || b[end..].starts_with(b"0X");
            if hex {
                end += 2;
            }
            let digits = end;
            while end < b.len() && (b[end].is_ascii_hexdigit() || is_ident_char(b[end])) {
                end += 1;
            }
            let s = &self.text[digits..end];
            let v = if hex {
                i64::from_str_radix(s, 16)
            } else {
                s.parse::<i64>()
            };
            let Ok(v) = v else {
                return self.err_at(
                    start,
                    format!("malformed number `{}`", &self.text[start..end]),
                );
            };
            self.pos = end;
            return Ok((Tok::Num(if neg { -v } else { v }), start));
        }
        for p in PUNCTS {
            if b[start..].starts_with(p.as_bytes()) {
                self.pos = start + p.len();
                return Ok((Tok::Punct(p), start));
            }
        }
        let ch = self.text[start..].chars().next().unwrap_or('?');
        self.err_at(start, format!("unexpected character `{ch}`"))
    }

    pub(super) fn expect(&mut self, p: &'static str, what: &str) -> R<usize> {
        let (t, off) = self.next()?;
        if t == Tok::Punct(p) {
            Ok(off)
        } else {
            self.err_at(off, format!("expected `{p}` {what}, found {t}"))
        }
    }
}
