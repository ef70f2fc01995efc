//! The parser of herd's C litmus format.
//!
//! ```text
//! C NAME
//! "optional doc string"            (* comments: (* *), //, /* */ *)
//! { [x] = 0; y = 1; int* p = &x; 0:r0 = 2; }
//! P0 (atomic_int* x, int* y) { ...C... }
//! P1 (...) { ...C... }
//! locations [x; 1:r0;]              (optional)
//! filter PROP                       (optional)
//! exists PROP  |  ~exists PROP  |  forall PROP
//! ```
//!
//! PROP: `/\`, `\/`, `=>`, `~` or `not`, parentheses, `true`, `false`, and atoms
//! `T:reg=V`, `x=V`, `[x]=V` (`==` too, `!=` for a negated atom), where V is an integer
//! or a location name (its address), and `x=*y`, `[x]=[y]`, `x=1:r0` (equal values).
//! Precedence as herd's: `~` binds tightest, then `=>` (right-associative), then `/\`,
//! then `\/`.
//!
//! Thread bodies are C: the parser only finds their extent (skipping comments, string
//! and character literals); the C front end parses them after translation.

use crate::ast::*;
use std::fmt;

/// A malformed litmus file: `file:line:col: error: message`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LitmusError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for LitmusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for LitmusError {}

type R<T> = Result<T, LitmusError>;

/// The `locations` items, the filter and the condition.
type Constraints = (Vec<(Loc, Pos)>, Option<Prop>, Cond);

/// Parses the litmus test `text`, read from `file`.
pub fn parse(file: &str, text: &str) -> R<Litmus> {
    let mut p = Parser {
        file: file.to_string(),
        text,
        pos: 0,
        lines: line_starts(text),
    };
    p.litmus()
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// A token of the non-C parts (init block, `locations`, conditions).
#[derive(Clone, PartialEq, Eq, Debug)]
enum Tok {
    Ident(String),
    Num(i64),
    Punct(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Num(n) => write!(f, "`{n}`"),
            Tok::Punct(p) => write!(f, "`{p}`"),
            Tok::Eof => f.write_str("end of file"),
        }
    }
}

const PUNCTS: &[&str] = &[
    "/\\", "\\/", "=>", "==", "!=", "~", "=", ":", ";", ",", "(", ")", "[", "]", "{", "}", "*", "&",
];

struct Parser<'a> {
    file: String,
    text: &'a str,
    pos: usize,
    lines: Vec<usize>,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'a> Parser<'a> {
    fn at(&self, off: usize) -> Pos {
        let line = self.lines.partition_point(|&s| s <= off);
        let start = self.lines[line - 1];
        Pos {
            line: line as u32,
            col: (off - start + 1) as u32,
        }
    }

    fn err_at<T>(&self, off: usize, msg: impl Into<String>) -> R<T> {
        let p = self.at(off);
        Err(LitmusError {
            file: self.file.clone(),
            line: p.line,
            col: p.col,
            message: msg.into(),
        })
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    fn peek_byte(&self) -> Option<u8> {
        self.bytes().get(self.pos).copied()
    }

    /// Skips whitespace and comments (`(* *)` nested, `//`, `/* */`).
    fn skip_trivia(&mut self) -> R<()> {
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
    fn peek(&mut self) -> R<(Tok, usize)> {
        let save = self.pos;
        let t = self.next();
        self.pos = save;
        t
    }

    fn next(&mut self) -> R<(Tok, usize)> {
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

    fn expect(&mut self, p: &'static str, what: &str) -> R<usize> {
        let (t, off) = self.next()?;
        if t == Tok::Punct(p) {
            Ok(off)
        } else {
            self.err_at(off, format!("expected `{p}` {what}, found {t}"))
        }
    }

    fn litmus(&mut self) -> R<Litmus> {
        self.skip_trivia()?;
        let b = self.bytes();
        let start = self.pos;
        if start >= b.len() {
            return self.err_at(start, "empty file: expected `C NAME`");
        }
        let mut end = start;
        while end < b.len() && !b[end].is_ascii_whitespace() {
            end += 1;
        }
        let arch = &self.text[start..end];
        if arch != "C" {
            return self.err_at(
                start,
                format!("`{arch}` tests are not supported: porf reads C litmus tests (`C NAME`)"),
            );
        }
        self.pos = end;
        while self.pos < b.len() && matches!(b[self.pos], b' ' | b'\t' | b'\r') {
            self.pos += 1;
        }
        let nstart = self.pos;
        while self.pos < b.len() && !b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if nstart == self.pos {
            return self.err_at(nstart, "expected the test name after `C`");
        }
        let name = self.text[nstart..self.pos].to_string();
        let doc = self.preamble()?;
        let init = self.init()?;
        let threads = self.threads()?;
        let (locations, filter, cond) = self.constraints()?;
        let lit = Litmus {
            file: self.file.clone(),
            text: self.text.to_string(),
            name,
            doc,
            init,
            threads,
            locations,
            filter,
            cond,
        };
        self.check(&lit)?;
        Ok(lit)
    }

    /// Between the name and the init block: a doc string, comments, and herd's
    /// `Key=value` information lines.
    fn preamble(&mut self) -> R<Option<String>> {
        let mut doc = None;
        loop {
            self.skip_trivia()?;
            let b = self.bytes();
            match b.get(self.pos) {
                Some(b'{') => return Ok(doc),
                Some(b'"') => {
                    let start = self.pos;
                    match self.text[start + 1..].find('"') {
                        Some(i) => {
                            doc = Some(self.text[start + 1..start + 1 + i].to_string());
                            self.pos = start + 2 + i;
                        }
                        None => return self.err_at(start, "unterminated doc string"),
                    }
                }
                Some(&c) if is_ident_start(c) => {
                    let line_end = self.text[self.pos..]
                        .find('\n')
                        .map_or(b.len(), |i| self.pos + i);
                    let line = &self.text[self.pos..line_end];
                    let key_len = line.bytes().take_while(|&c| is_ident_char(c)).count();
                    if line[key_len..].trim_start().starts_with('=') {
                        self.pos = line_end;
                    } else {
                        return self.err_at(self.pos, "expected `{` starting the initial state");
                    }
                }
                Some(_) => return self.err_at(self.pos, "expected `{` starting the initial state"),
                None => {
                    return self.err_at(
                        self.pos,
                        "unexpected end of file: expected `{` starting the initial state",
                    )
                }
            }
        }
    }

    fn init(&mut self) -> R<Vec<InitItem>> {
        self.expect("{", "starting the initial state")?;
        let mut items: Vec<InitItem> = Vec::new();
        loop {
            let mut toks = Vec::new();
            let term = loop {
                let (t, off) = self.next()?;
                match t {
                    Tok::Punct(";") | Tok::Punct("}") => break (t, off),
                    Tok::Eof => {
                        return self.err_at(off, "unexpected end of file in the initial state")
                    }
                    Tok::Punct("{") => {
                        return self.err_at(off, "array initial values are not supported")
                    }
                    _ => toks.push((t, off)),
                }
            };
            if !toks.is_empty() {
                let item = self.init_item(&toks, term.1)?;
                if let Some(old) = items.iter().find(|i| i.loc == item.loc) {
                    let p = old.pos;
                    return self.err_at(
                        toks[0].1,
                        format!(
                            "`{}` is initialised twice (first at line {}, column {})",
                            item.loc, p.line, p.col
                        ),
                    );
                }
                items.push(item);
            }
            if term.0 == Tok::Punct("}") {
                return Ok(items);
            }
        }
    }

    /// One item of the init block (tokens up to `;` or `}` at `end`).
    fn init_item(&self, toks: &[(Tok, usize)], end: usize) -> R<InitItem> {
        let eq = toks.iter().position(|(t, _)| *t == Tok::Punct("="));
        let (lhs, rhs) = match eq {
            Some(i) => (&toks[..i], Some(&toks[i + 1..])),
            None => (toks, None),
        };
        let (loc, ty_toks) = self.init_loc(lhs)?;
        let mut ty = String::new();
        let mut stars = 0;
        for (t, off) in ty_toks {
            match t {
                Tok::Ident(s) if stars == 0 => {
                    if !ty.is_empty() {
                        ty.push(' ');
                    }
                    ty.push_str(s);
                }
                Tok::Punct("*") => stars += 1,
                _ => return self.err_at(*off, format!("unexpected {t} in the initial state")),
            }
        }
        if stars > 0 && ty.is_empty() {
            ty.push_str("int");
        }
        ty.push_str(&"*".repeat(stars));
        let value = match rhs {
            None => Value::Int(0),
            Some(r) => self.init_value(r, eq.map_or(end, |i| toks[i].1))?,
        };
        Ok(InitItem {
            loc,
            ty: (!ty.is_empty()).then_some(ty),
            value,
            pos: self.at(toks[0].1),
        })
    }

    /// Splits the left-hand side of an init item into the location (its last tokens)
    /// and the type tokens before it.
    fn init_loc<'t>(&self, lhs: &'t [(Tok, usize)]) -> R<(Loc, &'t [(Tok, usize)])> {
        let n = lhs.len();
        let bad = |off| self.err_at(off, "expected a location (`x`, `[x]` or `0:r0`)");
        match lhs {
            [.., (Tok::Punct("["), _), (Tok::Ident(x), _), (Tok::Punct("]"), _)] => {
                Ok((Loc::Global(x.clone()), &lhs[..n - 3]))
            }
            [.., (t, off), (Tok::Punct(":"), _), (Tok::Ident(r), _)] => {
                let id = self.thread_id(t, *off)?;
                Ok((Loc::Reg(id, r.clone()), &lhs[..n - 3]))
            }
            [.., (Tok::Ident(x), _)] => Ok((Loc::Global(x.clone()), &lhs[..n - 1])),
            [.., (_, off)] => bad(*off),
            [] => bad(0),
        }
    }

    fn thread_id(&self, t: &Tok, off: usize) -> R<u32> {
        let n = match t {
            Tok::Num(n) => Some(*n),
            Tok::Ident(s) => s.strip_prefix('P').and_then(|d| d.parse::<i64>().ok()),
            _ => None,
        };
        match n {
            Some(n) if (0..=u32::MAX as i64).contains(&n) => Ok(n as u32),
            _ => self.err_at(
                off,
                format!("expected a thread number before `:`, found {t}"),
            ),
        }
    }

    fn init_value(&self, r: &[(Tok, usize)], eq_off: usize) -> R<Value> {
        match r {
            [(Tok::Num(v), _)] => Ok(Value::Int(*v)),
            [(Tok::Punct("&"), _), (Tok::Ident(x), _)] | [(Tok::Ident(x), _)] => {
                Ok(Value::Addr(x.clone()))
            }
            [(Tok::Ident(f), _), (Tok::Punct("("), _), inner @ .., (Tok::Punct(")"), _)]
                if f == "ATOMIC_INIT" || f == "ATOMIC_VAR_INIT" =>
            {
                self.init_value(inner, eq_off)
            }
            [] => self.err_at(eq_off, "expected a value after `=`"),
            [(t, off), ..] => self.err_at(
                *off,
                format!("expected an integer or `&location` as initial value, found {t}"),
            ),
        }
    }

    fn threads(&mut self) -> R<Vec<Thread>> {
        let mut threads: Vec<Thread> = Vec::new();
        loop {
            self.skip_trivia()?;
            let save = self.pos;
            let (mut t, mut off) = self.next()?;
            if t == Tok::Ident("void".into()) {
                (t, off) = self.next()?;
                let is_thread = matches!(&t, Tok::Ident(s) if thread_name(s).is_some());
                if !is_thread {
                    return self.err_at(off, format!("expected a thread `P0 (...)`, found {t}"));
                }
            }
            let id = match &t {
                Tok::Ident(s) => thread_name(s),
                _ => None,
            };
            let Some(id) = id else {
                self.pos = save;
                break;
            };
            let (pt, poff) = self.peek()?;
            if pt != Tok::Punct("(") {
                if threads.is_empty() {
                    return self.err_at(poff, format!("expected `(` after `P{id}`, found {pt}"));
                }
                self.pos = save;
                break;
            }
            if let Some(old) = threads.iter().find(|th| th.id == id) {
                let p = old.pos;
                return self.err_at(
                    off,
                    format!("thread P{id} is defined twice (first at line {})", p.line),
                );
            }
            threads.push(self.thread(id, off)?);
        }
        if threads.is_empty() {
            self.skip_trivia()?;
            return self.err_at(self.pos, "expected a thread `P0 (...) { ... }`");
        }
        threads.sort_by_key(|t| t.id);
        for (i, t) in threads.iter().enumerate() {
            if t.id != i as u32 {
                let off = self.offset_of(t.pos);
                return self.err_at(
                    off,
                    format!("threads must be numbered P0, P1, ... without gaps (P{i} is missing)"),
                );
            }
        }
        Ok(threads)
    }

    fn offset_of(&self, p: Pos) -> usize {
        self.lines[p.line as usize - 1] + p.col as usize - 1
    }

    /// A thread after its name: `(params) { body }`.
    fn thread(&mut self, id: u32, name_off: usize) -> R<Thread> {
        let open = self.expect("(", "opening the parameter list")?;
        let close = self.matching(open, b'(', b')')?;
        let params = self.params(open + 1, close, id)?;
        self.pos = close + 1;
        self.skip_trivia()?;
        if self.peek_byte() != Some(b'{') {
            let (t, off) = self.peek()?;
            return self.err_at(
                off,
                format!("expected `{{` opening the body of P{id}, found {t}"),
            );
        }
        let lbrace = self.pos;
        let rbrace = self.matching(lbrace, b'{', b'}')?;
        self.pos = rbrace + 1;
        Ok(Thread {
            id,
            pos: self.at(name_off),
            params,
            params_start: open,
            body_start: lbrace + 1,
            body_end: rbrace,
        })
    }

    /// The offset of the bracket closing the one at `open`, skipping C comments and
    /// string and character literals.
    fn matching(&self, open: usize, o: u8, c: u8) -> R<usize> {
        let b = self.bytes();
        let mut depth = 0usize;
        let mut i = open;
        while i < b.len() {
            match b[i] {
                q @ (b'"' | b'\'') => {
                    let s = i;
                    i += 1;
                    while i < b.len() && b[i] != q {
                        if b[i] == b'\n' {
                            return self.err_at(s, "unterminated literal");
                        }
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'/' if b.get(i + 1) == Some(&b'/') => {
                    while i < b.len() && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'/' if b.get(i + 1) == Some(&b'*') => match self.text[i + 2..].find("*/") {
                    Some(k) => i += 2 + k + 1,
                    None => return self.err_at(i, "unterminated comment `/*`"),
                },
                x if x == o => depth += 1,
                x if x == c => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(i);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        self.err_at(open, format!("`{}` is never closed", o as char))
    }

    /// The parameters between `start` and `end` (exclusive).
    fn params(&self, start: usize, end: usize, id: u32) -> R<Vec<Param>> {
        let text = &self.text[start..end];
        if text.trim().is_empty() || text.trim() == "void" {
            return Ok(Vec::new());
        }
        let mut params: Vec<Param> = Vec::new();
        let mut off = start;
        for part in text.split(',') {
            let lead = part.len() - part.trim_start().len();
            let p = part.trim();
            let pstart = off + lead;
            off += part.len() + 1;
            if p.is_empty() {
                return self.err_at(pstart, "empty parameter");
            }
            let pb = p.as_bytes();
            let mut e = pb.len();
            while e > 0 && is_ident_char(pb[e - 1]) {
                e -= 1;
            }
            let name = &p[e..];
            if name.is_empty() || !is_ident_start(pb[e]) {
                return self.err_at(pstart, format!("expected a parameter name in `{p}`"));
            }
            let ty = p[..e].trim();
            let name_off = pstart + e;
            if !ty.ends_with('*') {
                return self.err_at(
                    name_off,
                    format!("parameter `{name}` of P{id} must be a pointer to a location (e.g. `int* {name}`)"),
                );
            }
            if ty
                .bytes()
                .any(|c| !(is_ident_char(c) || c == b'*' || c.is_ascii_whitespace()))
            {
                return self.err_at(pstart, format!("unsupported parameter declaration `{p}`"));
            }
            if params.iter().any(|q| q.name == name) {
                return self.err_at(name_off, format!("parameter `{name}` is declared twice"));
            }
            params.push(Param {
                ty: ty.to_string(),
                name: name.to_string(),
                pos: self.at(name_off),
            });
        }
        Ok(params)
    }

    fn constraints(&mut self) -> R<Constraints> {
        let mut locations = Vec::new();
        let (t, _) = self.peek()?;
        if t == Tok::Ident("locations".into()) {
            self.next()?;
            self.expect("[", "after `locations`")?;
            loop {
                let (t, off) = self.peek()?;
                match t {
                    Tok::Punct("]") => {
                        self.next()?;
                        break;
                    }
                    Tok::Punct(";") => {
                        self.next()?;
                    }
                    Tok::Eof => return self.err_at(off, "`locations [` is never closed"),
                    _ => {
                        let l = self.loc()?;
                        locations.push((l, self.at(off)));
                        // An optional type annotation: `x int*`.
                        while let (Tok::Ident(_) | Tok::Punct("*"), _) = self.peek()? {
                            self.next()?;
                        }
                    }
                }
            }
        }
        let mut filter = None;
        if self.peek()?.0 == Tok::Ident("filter".into()) {
            self.next()?;
            filter = Some(self.prop()?);
        }
        let (t, off) = self.next()?;
        let cond = match t {
            Tok::Ident(k) if k == "exists" || k == "final" => Cond {
                quant: Quant::Exists,
                prop: self.prop()?,
            },
            Tok::Ident(k) if k == "forall" => Cond {
                quant: Quant::Forall,
                prop: self.prop()?,
            },
            Tok::Punct("~") => {
                let (t2, off2) = self.next()?;
                if t2 != Tok::Ident("exists".into()) {
                    return self.err_at(off2, format!("expected `exists` after `~`, found {t2}"));
                }
                Cond {
                    quant: Quant::NotExists,
                    prop: self.prop()?,
                }
            }
            Tok::Punct("(") => {
                self.pos = off;
                Cond {
                    quant: Quant::Exists,
                    prop: self.prop()?,
                }
            }
            Tok::Eof => Cond {
                quant: Quant::Forall,
                prop: Prop::And(vec![]),
            },
            Tok::Ident(k) if thread_name(&k).is_some() => {
                return self.err_at(off, format!("expected `(` after `{k}`"));
            }
            _ => {
                return self.err_at(
                    off,
                    format!(
                        "expected the final condition (`exists`, `~exists` or `forall`), found {t}"
                    ),
                )
            }
        };
        if self.peek()?.0 == Tok::Punct(";") {
            self.next()?;
        }
        let (t, off) = self.next()?;
        if t != Tok::Eof {
            return self.err_at(off, format!("unexpected {t} after the final condition"));
        }
        Ok((locations, filter, cond))
    }

    /// `or := and ('\/' and)*`
    fn prop(&mut self) -> R<Prop> {
        let mut ps = vec![self.prop_and()?];
        while self.peek()?.0 == Tok::Punct("\\/") {
            self.next()?;
            ps.push(self.prop_and()?);
        }
        Ok(fold(ps, Prop::Or))
    }

    /// `and := imp ('/\' imp)*`
    fn prop_and(&mut self) -> R<Prop> {
        let mut ps = vec![self.prop_imp()?];
        while self.peek()?.0 == Tok::Punct("/\\") {
            self.next()?;
            ps.push(self.prop_imp()?);
        }
        Ok(fold(ps, Prop::And))
    }

    /// `imp := not ('=>' imp)?`
    fn prop_imp(&mut self) -> R<Prop> {
        let a = self.prop_not()?;
        if self.peek()?.0 == Tok::Punct("=>") {
            self.next()?;
            let b = self.prop_imp()?;
            return Ok(Prop::Implies(Box::new(a), Box::new(b)));
        }
        Ok(a)
    }

    fn prop_not(&mut self) -> R<Prop> {
        let (t, off) = self.peek()?;
        match t {
            Tok::Punct("~") => {
                self.next()?;
                Ok(Prop::Not(Box::new(self.prop_not()?)))
            }
            Tok::Ident(k) if k == "not" => {
                self.next()?;
                Ok(Prop::Not(Box::new(self.prop_not()?)))
            }
            Tok::Ident(k) if k == "true" => {
                self.next()?;
                Ok(Prop::And(vec![]))
            }
            Tok::Ident(k) if k == "false" => {
                self.next()?;
                Ok(Prop::Or(vec![]))
            }
            Tok::Punct("(") => {
                self.next()?;
                let p = self.prop()?;
                let (t, o) = self.next()?;
                if t != Tok::Punct(")") {
                    return self.err_at(o, format!("expected `)` or an operator, found {t}"));
                }
                Ok(p)
            }
            Tok::Eof => self.err_at(off, "unexpected end of file: expected a proposition"),
            _ => self.atom(),
        }
    }

    /// A location: `x`, `[x]`, `0:r0` (or `P0:r0`).
    fn loc(&mut self) -> R<Loc> {
        let (t, off) = self.next()?;
        match t {
            Tok::Punct("[") => {
                let (x, xo) = self.next()?;
                let Tok::Ident(x) = x else {
                    return self
                        .err_at(xo, format!("expected a location name after `[`, found {x}"));
                };
                self.expect("]", "closing the location")?;
                Ok(Loc::Global(x))
            }
            Tok::Num(_) | Tok::Ident(_) if self.peek()?.0 == Tok::Punct(":") => {
                let id = self.thread_id(&t, off)?;
                self.next()?;
                let (r, ro) = self.next()?;
                let Tok::Ident(r) = r else {
                    return self
                        .err_at(ro, format!("expected a register name after `:`, found {r}"));
                };
                Ok(Loc::Reg(id, r))
            }
            Tok::Ident(x) if !is_keyword(&x) => Ok(Loc::Global(x)),
            _ => self.err_at(
                off,
                format!("expected a location (`x`, `[x]` or `0:r0`), found {t}"),
            ),
        }
    }

    fn atom(&mut self) -> R<Prop> {
        let (_, off) = self.peek()?;
        let pos = self.at(off);
        let l = self.loc()?;
        let (t, eo) = self.next()?;
        let negate = match t {
            Tok::Punct("=") | Tok::Punct("==") => false,
            Tok::Punct("!=") => true,
            _ => return self.err_at(eo, format!("expected `=` after `{l}`, found {t}")),
        };
        let (t, vo) = self.peek()?;
        let atom = match t {
            Tok::Num(_) if self.is_reg_next(vo)? => Atom::EqLoc(l, self.loc()?),
            Tok::Num(v) => {
                self.next()?;
                Atom::Eq(l, Value::Int(v))
            }
            Tok::Punct("[") => Atom::EqLoc(l, self.loc()?),
            Tok::Punct("*") => {
                self.next()?;
                Atom::EqLoc(l, self.loc()?)
            }
            Tok::Ident(_) if self.is_reg_next(vo)? => Atom::EqLoc(l, self.loc()?),
            Tok::Ident(x) if !is_keyword(&x) => {
                self.next()?;
                Atom::Eq(l, Value::Addr(x))
            }
            _ => {
                return self.err_at(
                    vo,
                    format!("expected a value (an integer or a location) after `=`, found {t}"),
                )
            }
        };
        let a = Prop::Atom(atom, pos);
        Ok(if negate { Prop::Not(Box::new(a)) } else { a })
    }

    /// Whether the token at `off` is followed by `:` (a register `T:reg`).
    fn is_reg_next(&mut self, off: usize) -> R<bool> {
        let save = self.pos;
        self.pos = off;
        self.next()?;
        let colon = self.peek()?.0 == Tok::Punct(":");
        self.pos = save;
        Ok(colon)
    }

    /// Checks what the grammar cannot: conditions and `locations` name existing
    /// threads, initial registers belong to existing threads.
    fn check(&self, l: &Litmus) -> R<()> {
        let n = l.threads.len() as u32;
        let mut locs: Vec<(Loc, Pos)> = l.locations.clone();
        if let Some(f) = &l.filter {
            f.locs(&mut locs);
        }
        l.cond.prop.locs(&mut locs);
        locs.extend(l.init.iter().map(|i| (i.loc.clone(), i.pos)));
        for (loc, p) in locs {
            if let Loc::Reg(t, _) = &loc {
                if *t >= n {
                    return self.err_at(
                        self.offset_of(p),
                        format!("`{loc}` names thread P{t}, but the test has {n} thread(s)"),
                    );
                }
            }
        }
        Ok(())
    }
}

/// The `n` of a thread name `Pn`.
fn thread_name(s: &str) -> Option<u32> {
    let d = s.strip_prefix('P')?;
    if d.is_empty() || !d.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    d.parse().ok()
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "exists" | "forall" | "not" | "true" | "false" | "final" | "filter" | "locations"
    )
}

fn fold(mut ps: Vec<Prop>, mk: fn(Vec<Prop>) -> Prop) -> Prop {
    if ps.len() == 1 {
        ps.pop().expect("one element")
    } else {
        // herd's parser is binary and left-associative: `a /\ b /\ c` is
        // `And [And [a; b]; c]`, printed without parentheses.
        let mut it = ps.into_iter();
        let first = it.next().expect("non-empty");
        it.fold(first, |acc, p| mk(vec![acc, p]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SB: &str = "C SB+rlx
\"Store buffering\"
(* a herd comment *)
Hash=0123abcd
{ [x] = 0; y = 1; int* p = &x; atomic_int z; 1:r1 = 5; }

P0 (atomic_int* x, atomic_int *y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
}

P1 (atomic_int* x, atomic_int* y) { // a C comment with a } brace
  atomic_store_explicit(y, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(x, memory_order_relaxed); /* } */
}

locations [x; 1:r1; p int*;]
exists (0:r0=0 /\\ 1:r0=0)
";

    fn err(text: &str) -> (u32, u32, String) {
        let e = parse("t.litmus", text).unwrap_err();
        assert_eq!(e.file, "t.litmus");
        assert_eq!(
            e.to_string(),
            format!("t.litmus:{}:{}: error: {}", e.line, e.col, e.message)
        );
        (e.line, e.col, e.message)
    }

    fn cond(c: &str) -> Cond {
        let text =
            format!("C t\n{{ x = 0; }}\nP0 (int* x) {{ *x = 1; }}\nP1 (int* x) {{ }}\n{c}\n");
        parse("t.litmus", &text).unwrap().cond
    }

    #[test]
    fn parses_a_whole_test() {
        let l = parse("sb.litmus", SB).unwrap();
        assert_eq!(l.name, "SB+rlx");
        assert_eq!(l.doc.as_deref(), Some("Store buffering"));
        let init: Vec<(Loc, Option<&str>, Value)> = l
            .init
            .iter()
            .map(|i| (i.loc.clone(), i.ty.as_deref(), i.value.clone()))
            .collect();
        assert_eq!(
            init,
            vec![
                (Loc::Global("x".into()), None, Value::Int(0)),
                (Loc::Global("y".into()), None, Value::Int(1)),
                (
                    Loc::Global("p".into()),
                    Some("int*"),
                    Value::Addr("x".into())
                ),
                (Loc::Global("z".into()), Some("atomic_int"), Value::Int(0)),
                (Loc::Reg(1, "r1".into()), None, Value::Int(5)),
            ]
        );
        assert_eq!(l.init[1].pos, Pos { line: 5, col: 12 });
        assert_eq!(l.threads.len(), 2);
        let p0 = &l.threads[0];
        assert_eq!(p0.pos, Pos { line: 7, col: 1 });
        let params: Vec<(&str, &str)> = p0
            .params
            .iter()
            .map(|p| (p.ty.as_str(), p.name.as_str()))
            .collect();
        assert_eq!(params, vec![("atomic_int*", "x"), ("atomic_int *", "y")]);
        assert_eq!(p0.params[1].pointee(), "atomic_int");
        assert_eq!(p0.params[1].pos, Pos { line: 7, col: 32 });
        let body = &SB[p0.body_start..p0.body_end];
        assert!(body.trim().starts_with("atomic_store_explicit(x"), "{body}");
        let b1 = &SB[l.threads[1].body_start..l.threads[1].body_end];
        assert!(b1.trim_end().ends_with("/* } */"), "{b1}");
        assert_eq!(
            l.locations
                .iter()
                .map(|(l, _)| l.to_string())
                .collect::<Vec<_>>(),
            vec!["[x]", "1:r1", "[p]"]
        );
        assert_eq!(l.cond.quant, Quant::Exists);
        assert_eq!(l.cond.to_string(), "exists (0:r0=0 /\\ 1:r0=0)");
        let obs: Vec<String> = l.observed().iter().map(|l| l.to_string()).collect();
        assert_eq!(obs, vec!["0:r0", "1:r0", "1:r1", "[p]", "[x]"]);
    }

    #[test]
    fn forall_and_not_exists() {
        let c = cond("forall (x=1 \\/ x=2)");
        assert_eq!(c.quant, Quant::Forall);
        assert_eq!(c.quant.kind(), "Required");
        assert_eq!(c.to_string(), "forall ([x]=1 \\/ [x]=2)");
        let c = cond("~exists (0:r0=1 /\\ ~x=0)");
        assert_eq!(c.quant, Quant::NotExists);
        assert_eq!(c.quant.kind(), "Forbidden");
        assert_eq!(c.to_string(), "~exists (0:r0=1 /\\ not ([x]=0))");
        let c = cond("~ exists x=1");
        assert_eq!(c.quant, Quant::NotExists);
        // An empty condition is herd's `forall (true)`.
        let c = cond("");
        assert_eq!(
            (c.quant, c.to_string()),
            (Quant::Forall, "forall (true)".into())
        );
        // A bare parenthesised proposition is an `exists`.
        assert_eq!(cond("(x=1)").quant, Quant::Exists);
    }

    #[test]
    fn precedence_and_printing_follow_herd() {
        // `~` > `=>` > `/\` > `\/`.
        let c = cond("exists (x=1 \\/ x=2 /\\ 0:r0=1)");
        assert_eq!(c.to_string(), "exists ([x]=1 \\/ [x]=2 /\\ 0:r0=1)");
        let Prop::Or(ps) = &c.prop else {
            panic!("{c:?}")
        };
        assert!(matches!(ps[1], Prop::And(_)));
        let c = cond("exists ((x=1 \\/ x=2) /\\ 0:r0=1)");
        assert_eq!(c.to_string(), "exists (([x]=1 \\/ [x]=2) /\\ 0:r0=1)");
        let c = cond("exists (x=1 /\\ x=2 => 0:r0=1 => true)");
        // herd parenthesises an implication under a conjunction.
        assert_eq!(
            c.to_string(),
            "exists ([x]=1 /\\ ([x]=2 => 0:r0=1 => true))"
        );
        let Prop::And(ps) = &c.prop else {
            panic!("{c:?}")
        };
        assert!(matches!(ps[1], Prop::Implies(..)));
        let c = cond("exists (not x=1 \\/ false)");
        assert_eq!(c.to_string(), "exists (not ([x]=1) \\/ false)");
        let c = cond("exists (x != 1 /\\ [x] == 2 /\\ P1:r0=-3 /\\ 0:r0=0x10)");
        assert_eq!(
            c.to_string(),
            "exists (not ([x]=1) /\\ [x]=2 /\\ 1:r0=-3 /\\ 0:r0=16)"
        );
    }

    #[test]
    fn atoms_with_locations_on_the_right() {
        let c = cond("exists (x=y /\\ x=*y /\\ [x]=[y] /\\ x=1:r0)");
        let Prop::And(a) = &c.prop else { panic!() };
        let Prop::And(b) = &a[0] else { panic!() };
        let Prop::And(d) = &b[0] else { panic!() };
        assert!(matches!(&d[0], Prop::Atom(Atom::Eq(_, Value::Addr(y)), _) if y == "y"));
        assert!(matches!(&d[1], Prop::Atom(Atom::EqLoc(_, Loc::Global(y)), _) if y == "y"));
        assert!(matches!(
            &b[1],
            Prop::Atom(Atom::EqLoc(_, Loc::Global(_)), _)
        ));
        assert!(matches!(
            &a[1],
            Prop::Atom(Atom::EqLoc(_, Loc::Reg(1, _)), _)
        ));
    }

    #[test]
    fn evaluation() {
        let c = cond("exists (x=1 /\\ ~(0:r0=2) \\/ x=0:r0)");
        let eval = |x: i64, r: i64| {
            c.prop.eval(
                &|l: &Loc| if *l == Loc::Global("x".into()) { x } else { r },
                &|v: &Value| match v {
                    Value::Int(i) => *i,
                    Value::Addr(_) => -1,
                },
            )
        };
        assert!(eval(1, 0));
        assert!(!eval(1, 2));
        assert!(eval(3, 3));
        assert!(!eval(0, 1));
    }

    #[test]
    fn errors_carry_positions() {
        assert_eq!(
            err("AArch64 foo\n{}\n"),
            (
                1,
                1,
                "`AArch64` tests are not supported: porf reads C litmus tests (`C NAME`)".into()
            )
        );
        assert_eq!(err("  \n"), (2, 1, "empty file: expected `C NAME`".into()));
        assert_eq!(
            err("C\n"),
            (1, 2, "expected the test name after `C`".into())
        );
        assert_eq!(
            err("C t\nbad line\n{ }"),
            (2, 1, "expected `{` starting the initial state".into())
        );
        assert_eq!(
            err("C t\n{ x = 0; x = 1; }\nP0 (int* x) { }\nexists (x=1)"),
            (
                2,
                10,
                "`[x]` is initialised twice (first at line 2, column 3)".into()
            )
        );
        assert_eq!(
            err("C t\n{ x = ; }\nP0 (int* x) { }\nexists (x=1)"),
            (2, 5, "expected a value after `=`".into())
        );
        assert_eq!(
            err("C t\n{ x = 0 }\nP0 (int x) { }\nexists (x=1)"),
            (
                3,
                9,
                "parameter `x` of P0 must be a pointer to a location (e.g. `int* x`)".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) {\n  *x = 1;\n\nexists (x=1)\n"),
            (3, 13, "`{` is never closed".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nP2 (int* x) { }\nexists (x=1)"),
            (
                4,
                1,
                "threads must be numbered P0, P1, ... without gaps (P1 is missing)".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nP0 (int* x) { }\nexists (x=1)"),
            (4, 1, "thread P0 is defined twice (first at line 3)".into())
        );
        assert_eq!(
            err("C t\n{ }\nexists (x=1)"),
            (3, 1, "expected a thread `P0 (...) { ... }`".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1 /\\ 0:r0=)"),
            (
                4,
                21,
                "expected a value (an integer or a location) after `=`, found `)`".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1 /\\ 1:r0=0)"),
            (
                4,
                16,
                "`1:r0` names thread P1, but the test has 1 thread(s)".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1))"),
            (4, 13, "unexpected `)` after the final condition".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1"),
            (
                4,
                12,
                "expected `)` or an operator, found end of file".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nmaybe (x=1)"),
            (
                4,
                1,
                "expected the final condition (`exists`, `~exists` or `forall`), found `maybe`"
                    .into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\n~forall (x=1)"),
            (4, 2, "expected `exists` after `~`, found `forall`".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1 /\\ y@2)"),
            (4, 17, "unexpected character `@`".into())
        );
        assert_eq!(
            err("C t\n(* never closed\n{ }"),
            (2, 1, "unterminated comment `(*`".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { char *s = \"}\n\"; }\nexists (x=1)"),
            (3, 25, "unterminated literal".into())
        );
    }
}
