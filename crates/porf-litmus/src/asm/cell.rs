//! One cell of the thread table: its tokens and a cursor over them with the operand
//! forms the four instruction sets share (registers, immediates, labels).

use super::ir::{Arch, Op, Operand, Reg, Size};
use crate::ast::Pos;
use crate::parse::LitmusError;

type R<T> = Result<T, LitmusError>;

/// A token of an instruction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum Tok {
    /// A name: letters, digits, `_` and `.` (`B.NE`, `stwcx.`, `amoswap.w.aq`).
    Ident(String),
    Num(i64),
    Punct(char),
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Num(n) => write!(f, "`{n}`"),
            Tok::Punct(c) => write!(f, "`{c}`"),
        }
    }
}

/// Where diagnostics point: the file's name and its line starts.
pub(super) struct Src<'a> {
    pub file: &'a str,
    pub text: &'a str,
    pub lines: Vec<usize>,
}

impl Src<'_> {
    pub fn at(&self, off: usize) -> Pos {
        let line = self.lines.partition_point(|&s| s <= off);
        Pos {
            line: line as u32,
            col: (off - self.lines[line - 1] + 1) as u32,
        }
    }

    pub fn err<T>(&self, off: usize, msg: impl Into<String>) -> R<T> {
        let p = self.at(off);
        Err(LitmusError {
            file: self.file.to_string(),
            line: p.line,
            col: p.col,
            message: msg.into(),
        })
    }
}

/// Splits `s` (starting at byte `base` of the file) into tokens with their offsets.
pub(super) fn lex(src: &Src, s: &str, base: usize) -> R<Vec<(Tok, usize)>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
            out.push((Tok::Ident(s[start..i].to_string()), base + start));
        } else if c.is_ascii_digit() || (c == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            i += 1;
            while i < b.len() && b[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let t = &s[start..i];
            let (neg, t) = match t.strip_prefix('-') {
                Some(r) => (true, r),
                None => (false, t),
            };
            let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => i64::from_str_radix(h, 16)
                    .ok()
                    .or_else(|| u64::from_str_radix(h, 16).ok().map(|u| u as i64)),
                None => t.parse::<i64>().ok(),
            };
            let Some(v) = v else {
                return src.err(base + start, format!("malformed number `{}`", &s[start..i]));
            };
            out.push((
                Tok::Num(if neg { v.wrapping_neg() } else { v }),
                base + start,
            ));
        } else if b",[]()#$:!+-{}".contains(&c) {
            out.push((Tok::Punct(c as char), base + start));
            i += 1;
        } else {
            let ch = s[i..].chars().next().unwrap_or('?');
            return src.err(
                base + start,
                format!("unexpected character `{ch}` in an instruction"),
            );
        }
    }
    Ok(out)
}

/// A cursor over an instruction's tokens (after its mnemonic).
pub(super) struct Cursor<'s, 'a> {
    pub src: &'s Src<'a>,
    pub arch: Arch,
    pub toks: Vec<(Tok, usize)>,
    pub i: usize,
    /// The offset just past the instruction, for "expected ... at the end" errors.
    pub end: usize,
    /// The mnemonic as written, for messages.
    pub mnemonic: String,
    /// The offset of the mnemonic.
    pub at: usize,
}

impl Cursor<'_, '_> {
    pub fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|(t, _)| t)
    }

    pub fn off(&self) -> usize {
        self.toks.get(self.i).map_or(self.end, |(_, o)| *o)
    }

    pub fn found(&self) -> String {
        match self.peek() {
            Some(t) => t.to_string(),
            None => "the end of the instruction".into(),
        }
    }

    pub fn fail<T>(&self, what: &str) -> R<T> {
        self.src.err(
            self.off(),
            format!(
                "expected {what} in `{}`, found {}",
                self.mnemonic,
                self.found()
            ),
        )
    }

    pub fn unsupported<T>(&self, off: usize, what: &str) -> R<T> {
        self.src.err(
            off,
            format!(
                "unsupported {} {what} (in `{}`)",
                self.arch.name(),
                self.mnemonic
            ),
        )
    }

    pub fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    pub fn expect(&mut self, c: char) -> R<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.fail(&format!("`{c}`"))
        }
    }

    pub fn comma(&mut self) -> R<()> {
        self.expect(',')
    }

    /// No tokens left.
    pub fn done(&self) -> R<()> {
        if self.i < self.toks.len() {
            return self.src.err(
                self.off(),
                format!(
                    "unexpected {} after the operands of `{}`",
                    self.found(),
                    self.mnemonic
                ),
            );
        }
        Ok(())
    }

    pub fn ident(&mut self) -> Option<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.i += 1;
                Some(s)
            }
            _ => None,
        }
    }

    /// A register with the width of its view.
    pub fn reg_sized(&mut self) -> R<(Reg, Size)> {
        if let Some(Tok::Ident(s)) = self.peek() {
            if let Some(r) = self.arch.parse_reg(s) {
                self.i += 1;
                return Ok(r);
            }
        }
        self.fail(&format!("a {} register", self.arch.name()))
    }

    pub fn reg(&mut self) -> R<Reg> {
        Ok(self.reg_sized()?.0)
    }

    /// Whether the next token is a register.
    pub fn at_reg(&self) -> bool {
        matches!(self.peek(), Some(Tok::Ident(s)) if self.arch.parse_reg(s).is_some())
    }

    /// An integer, after the optional prefix `#` (AArch64) or `$` (X86).
    pub fn imm(&mut self) -> R<i64> {
        let save = self.i;
        let prefixed = self.eat('#') || self.eat('$');
        if let Some(Tok::Num(n)) = self.peek() {
            let n = *n;
            self.i += 1;
            return Ok(n);
        }
        self.i = save;
        if prefixed {
            self.i += 1;
        }
        self.fail("an integer")
    }

    pub fn at_imm(&self) -> bool {
        matches!(self.peek(), Some(Tok::Num(_) | Tok::Punct('#' | '$')))
    }

    /// A register or an immediate.
    pub fn operand(&mut self) -> R<Operand> {
        if self.at_imm() {
            Ok(Operand::Imm(self.imm()?))
        } else {
            Ok(Operand::Reg(self.reg()?))
        }
    }

    /// An immediate operand.
    pub fn imm_operand(&mut self) -> R<Operand> {
        Ok(Operand::Imm(self.imm()?))
    }

    /// A register operand.
    pub fn reg_operand(&mut self) -> R<Operand> {
        Ok(Operand::Reg(self.reg()?))
    }

    /// The operands `dst, src` of a register move (AArch64 `MOV`, RISC-V `li`/`mv`,
    /// PPC `li`/`mr`): the destination with the width of its view, then what `src`
    /// parses.
    pub fn mov(&mut self, src: fn(&mut Self) -> R<Operand>) -> R<Op> {
        let (dst, width) = self.reg_sized()?;
        self.comma()?;
        Ok(Op::Mov {
            dst,
            src: src(self)?,
            width,
        })
    }

    /// A branch target: a label name and its offset.
    pub fn label(&mut self) -> R<(String, usize)> {
        let off = self.off();
        match self.ident() {
            Some(l) => Ok((l, off)),
            None => self.fail("a label"),
        }
    }
}
