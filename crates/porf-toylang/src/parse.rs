//! The parser: source text → [`Program`], checking every invariant of
//! [`crate::program`]. Hand-written (the format is a dozen line shapes); every error is a
//! [`Diagnostic`] with a position, never a panic.

use crate::diag::Diagnostic;
use crate::lex::{lex_line, Tok, Token};
use crate::program::{BinOp, Expr, FinalAssert, Instr, Pos, Program, Stmt, Thread, Value};
use std::collections::HashMap;
use std::path::Path;

/// The largest value domain accepted (`values N` with `2 <= N <= MAX_VALUES`): reads
/// enumerate every value of the domain in the local semantics, so domains are small.
pub const MAX_VALUES: Value = 1 << 16;

/// Words with a meaning of their own: they cannot name locations, registers, threads
/// or labels.
pub const KEYWORDS: [&str; 12] = [
    "values",
    "locations",
    "init",
    "thread",
    "final",
    "assert",
    "assume",
    "if",
    "goto",
    "FADD",
    "CAS",
    "XCHG",
];

/// How deeply expressions may nest (parenthesised or negated): a bound on recursion.
const MAX_DEPTH: u32 = 64;

/// Reads and parses the file at `path`.
pub fn parse_file(path: &Path) -> Result<Program, Diagnostic> {
    let name = path.display().to_string();
    match std::fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(src) => parse(&name, &src),
            Err(_) => Err(Diagnostic::new(
                &name,
                Pos { line: 1, col: 1 },
                "the file is not valid UTF-8",
            )),
        },
        Err(e) => Err(Diagnostic::new(
            &name,
            Pos { line: 0, col: 0 },
            format!("cannot read {name}: {e}"),
        )),
    }
}

/// Parses `src` (named `file` in messages).
pub fn parse(file: &str, src: &str) -> Result<Program, Diagnostic> {
    Parser::new(file).run(src)
}

/// A jump target before labels are resolved.
enum Target {
    Index(usize),
    Label(String, Pos),
}

/// An instruction before jump targets are resolved.
struct PendingStmt {
    instr: Instr,
    target: Option<Target>,
    pos: Pos,
    text: String,
}

struct ThreadBuild {
    name: String,
    pos: Pos,
    regs: Vec<String>,
    reg_index: HashMap<String, usize>,
    code: Vec<PendingStmt>,
    labels: HashMap<String, (usize, Pos)>,
}

struct Parser {
    file: String,
    values: Option<(Value, Pos)>,
    locations: Vec<String>,
    loc_index: HashMap<String, (usize, Pos)>,
    raw_init: Vec<(String, Pos, Option<u64>, Pos)>,
    header_done: bool,
    threads: Vec<Thread>,
    thread_pos: HashMap<String, Pos>,
    current: Option<ThreadBuild>,
    final_assert: Option<(Vec<(usize, usize)>, FinalAssert)>,
}

/// A cursor over the tokens of one line.
struct Line<'a> {
    file: &'a str,
    text: &'a str,
    toks: &'a [Token],
    i: usize,
    end: Pos,
    depth: u32,
}

impl<'a> Line<'a> {
    fn err(&self, pos: Pos, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::new(self.file, pos, msg)
    }
    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }
    fn peek_at(&self, k: usize) -> Option<&'a Tok> {
        self.toks.get(self.i + k).map(|t| &t.tok)
    }
    fn pos(&self) -> Pos {
        self.toks.get(self.i).map_or(self.end, |t| t.pos)
    }
    fn next(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.i);
        self.i += 1;
        t
    }
    fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }
    /// "expected X, found Y" at the current token.
    fn expected(&self, what: &str) -> Diagnostic {
        let found = self
            .peek()
            .map_or("the end of the line".to_string(), |t| t.describe());
        self.err(self.pos(), format!("expected {what}, found {found}"))
    }
    fn punct(&mut self, p: &str) -> Result<(), Diagnostic> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.expected(&format!("`{p}`")))
        }
    }
    fn eat_punct(&mut self, p: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Punct(q)) if *q == p) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(s)) if s == w)
    }
    /// An identifier that is not a keyword, naming `what`.
    fn name(&mut self, what: &str) -> Result<(String, Pos), Diagnostic> {
        let pos = self.pos();
        match self.peek() {
            Some(Tok::Ident(s)) if KEYWORDS.contains(&s.as_str()) => {
                Err(self.err(pos, format!("`{s}` is a keyword and cannot name {what}")))
            }
            Some(Tok::Ident(s)) => {
                self.i += 1;
                Ok((s.clone(), pos))
            }
            _ => Err(self.expected(what)),
        }
    }
    fn end_of_line(&self, after: &str) -> Result<(), Diagnostic> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(self.err(
                self.pos(),
                format!("unexpected {} after {after}", t.describe()),
            )),
        }
    }
    /// The source text from token `from` to the last token consumed.
    fn text_from(&self, from: usize) -> String {
        let last = self.i.min(self.toks.len());
        if last <= from {
            return String::new();
        }
        let (a, b) = (&self.toks[from], &self.toks[last - 1]);
        self.text[a.start..b.start + b.len].to_string()
    }

    /// An expression; `atom` resolves an identifier at the cursor (and may consume more
    /// tokens, as `T.r` in the final assertion) into a variable index.
    fn expr(
        &mut self,
        n: Value,
        atom: &mut dyn FnMut(&mut Line<'a>) -> Result<usize, Diagnostic>,
    ) -> Result<Expr, Diagnostic> {
        self.binary(1, n, atom)
    }

    fn binary(
        &mut self,
        min: u8,
        n: Value,
        atom: &mut dyn FnMut(&mut Line<'a>) -> Result<usize, Diagnostic>,
    ) -> Result<Expr, Diagnostic> {
        let mut lhs = self.unary(n, atom)?;
        loop {
            let op = match self.peek() {
                Some(Tok::Punct(p)) => match *p {
                    "+" => BinOp::Add,
                    "-" => BinOp::Sub,
                    "*" => BinOp::Mul,
                    "==" => BinOp::Eq,
                    "!=" => BinOp::Ne,
                    "<" => BinOp::Lt,
                    "<=" => BinOp::Le,
                    ">" => BinOp::Gt,
                    ">=" => BinOp::Ge,
                    "&&" => BinOp::And,
                    "||" => BinOp::Or,
                    _ => return Ok(lhs),
                },
                _ => return Ok(lhs),
            };
            if op.precedence() < min {
                return Ok(lhs);
            }
            self.i += 1;
            let rhs = self.binary(op.precedence() + 1, n, atom)?;
            lhs = Expr::Bin(op, Box::new(lhs), Box::new(rhs));
        }
    }

    fn unary(
        &mut self,
        n: Value,
        atom: &mut dyn FnMut(&mut Line<'a>) -> Result<usize, Diagnostic>,
    ) -> Result<Expr, Diagnostic> {
        let pos = self.pos();
        match self.peek() {
            Some(Tok::Punct("!")) => {
                self.i += 1;
                self.nest(pos)?;
                let e = self.unary(n, atom)?;
                self.depth -= 1;
                Ok(Expr::Not(Box::new(e)))
            }
            Some(Tok::Punct("(")) => {
                self.i += 1;
                self.nest(pos)?;
                let e = self.binary(1, n, atom)?;
                self.depth -= 1;
                self.punct(")")?;
                Ok(e)
            }
            Some(Tok::Int(v)) => {
                self.i += 1;
                match v {
                    Some(v) if (*v as u128) < n as u128 => Ok(Expr::Lit(*v as Value)),
                    _ => Err(self.err(pos, outside_domain(*v, n))),
                }
            }
            Some(Tok::Ident(_)) => Ok(Expr::Var(atom(self)?)),
            Some(Tok::Punct("-")) => Err(self.err(
                pos,
                "there is no unary minus: values are 0..N-1 (write `0 - e` for the \
                 additive inverse modulo N)",
            )),
            _ => Err(self.expected("an expression")),
        }
    }

    fn nest(&mut self, pos: Pos) -> Result<(), Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(pos, format!("expression nested more than {MAX_DEPTH} deep")));
        }
        Ok(())
    }
}

fn outside_domain(v: Option<u64>, n: Value) -> String {
    match v {
        Some(v) => format!(
            "literal {v} is outside the value domain 0..{} (`values {n}`)",
            n - 1
        ),
        None => format!(
            "number too large: literals lie in the value domain 0..{} (`values {n}`)",
            n - 1
        ),
    }
}

impl Parser {
    fn new(file: &str) -> Parser {
        Parser {
            file: file.to_string(),
            values: None,
            locations: Vec::new(),
            loc_index: HashMap::new(),
            raw_init: Vec::new(),
            header_done: false,
            threads: Vec::new(),
            thread_pos: HashMap::new(),
            current: None,
            final_assert: None,
        }
    }

    fn err(&self, pos: Pos, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::new(&self.file, pos, msg)
    }

    fn run(mut self, src: &str) -> Result<Program, Diagnostic> {
        let mut last_line = 1;
        let file = self.file.clone();
        for (i, text) in src.lines().enumerate() {
            let lineno = u32::try_from(i + 1).unwrap_or(u32::MAX);
            last_line = lineno;
            let toks = lex_line(text, lineno).map_err(|(pos, msg)| self.err(pos, msg))?;
            if toks.is_empty() {
                continue;
            }
            let end = Pos {
                line: lineno,
                col: text.chars().count() as u32 + 1,
            };
            let mut line = Line {
                file: &file,
                text,
                toks: &toks,
                i: 0,
                end,
                depth: 0,
            };
            self.line(&mut line)?;
        }
        self.finish_thread()?;
        let Some((values, _)) = self.values else {
            return Err(self.err(
                Pos { line: 1, col: 1 },
                "missing `values N`: declare the size of the value domain",
            ));
        };
        self.end_header()?;
        if self.threads.is_empty() {
            return Err(self.err(
                Pos {
                    line: last_line,
                    col: 1,
                },
                "the program has no threads (`thread NAME` followed by instructions)",
            ));
        }
        let init = self.check_init(values)?;
        let (final_vars, final_assert) = match self.final_assert.take() {
            Some((v, f)) => (v, Some(f)),
            None => (Vec::new(), None),
        };
        let prog = Program {
            file: self.file.clone(),
            values,
            locations: self.locations,
            init,
            threads: self.threads,
            final_vars,
            final_assert,
        };
        check_return_capacity(&prog)?;
        Ok(prog)
    }

    fn line(&mut self, l: &mut Line) -> Result<(), Diagnostic> {
        let pos = l.pos();
        let word = match l.peek() {
            Some(Tok::Ident(w)) => w.as_str(),
            _ => "",
        };
        if self.final_assert.is_some() {
            return Err(self.err(
                pos,
                "nothing may follow the `final assert` line (it ends the program)",
            ));
        }
        match word {
            "values" | "locations" | "init" => {
                if self.header_done {
                    return Err(self.err(
                        pos,
                        format!("`{word}` declarations must come before the first thread"),
                    ));
                }
                l.i += 1;
                match word {
                    "values" => self.values_decl(l, pos),
                    "locations" => self.locations_decl(l),
                    _ => self.init_decl(l),
                }
            }
            "thread" => {
                l.i += 1;
                self.end_header()?;
                if self.values.is_none() {
                    return Err(self.err(
                        pos,
                        "missing `values N` before the first thread: declare the size of \
                         the value domain",
                    ));
                }
                self.finish_thread()?;
                let (name, npos) = l.name("a thread name")?;
                l.end_of_line("the thread's name")?;
                if let Some(p) = self.thread_pos.get(&name) {
                    return Err(self.err(
                        npos,
                        format!("duplicate thread `{name}` (first declared at {p})"),
                    ));
                }
                self.thread_pos.insert(name.clone(), npos);
                self.current = Some(ThreadBuild {
                    name,
                    pos,
                    regs: Vec::new(),
                    reg_index: HashMap::new(),
                    code: Vec::new(),
                    labels: HashMap::new(),
                });
                Ok(())
            }
            "final" => {
                l.i += 1;
                self.finish_thread()?;
                if self.threads.is_empty() {
                    return Err(self.err(pos, "`final assert` comes after the threads"));
                }
                if !l.is_word("assert") {
                    return Err(l.expected("`assert` after `final`"));
                }
                l.i += 1;
                let from = l.i;
                let n = self.values.map_or(2, |v| v.0);
                let mut vars: Vec<(usize, usize)> = Vec::new();
                let threads = &self.threads;
                let thread_names: HashMap<&str, usize> = threads
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (t.name.as_str(), i))
                    .collect();
                let mut atom = |l: &mut Line| -> Result<usize, Diagnostic> {
                    let (tname, tpos) = l.name("a thread")?;
                    let Some(&tid) = thread_names.get(tname.as_str()) else {
                        return Err(l.err(
                            tpos,
                            format!(
                                "unknown thread `{tname}`: the final assertion names \
                                 registers as THREAD.REGISTER"
                            ),
                        ));
                    };
                    if !l.eat_punct(".") {
                        return Err(l.expected(&format!(
                            "`.` and a register of `{tname}` (THREAD.REGISTER)"
                        )));
                    }
                    let (rname, rpos) = l.name("a register")?;
                    let t = &threads[tid];
                    let Some(r) = t.regs.iter().position(|r| *r == rname) else {
                        return Err(l.err(
                            rpos,
                            format!(
                                "thread `{tname}` has no register `{rname}` (its registers: {})",
                                if t.regs.is_empty() {
                                    "none".to_string()
                                } else {
                                    t.regs.join(", ")
                                }
                            ),
                        ));
                    };
                    Ok(match vars.iter().position(|v| *v == (tid, r)) {
                        Some(i) => i,
                        None => {
                            vars.push((tid, r));
                            vars.len() - 1
                        }
                    })
                };
                let cond = l.expr(n, &mut atom)?;
                l.end_of_line("the final assertion")?;
                let text = l.text_from(from);
                self.final_assert = Some((vars, FinalAssert { cond, pos, text }));
                Ok(())
            }
            _ => {
                if self.current.is_none() {
                    return Err(self.err(
                        pos,
                        format!(
                            "expected `values`, `locations`, `init` or `thread`, found {}",
                            l.peek().map_or(String::new(), |t| t.describe())
                        ),
                    ));
                }
                self.instruction_line(l)
            }
        }
    }

    fn values_decl(&mut self, l: &mut Line, pos: Pos) -> Result<(), Diagnostic> {
        if let Some((_, p)) = self.values {
            return Err(self.err(pos, format!("duplicate `values` (first at {p})")));
        }
        let npos = l.pos();
        let n = match l.next().map(|t| &t.tok) {
            Some(Tok::Int(Some(n))) => *n,
            Some(Tok::Int(None)) => u64::MAX,
            _ => {
                l.i -= 1;
                return Err(l.expected("the size of the value domain (`values N`)"));
            }
        };
        if n < 2 || n > MAX_VALUES as u64 {
            return Err(self.err(
                npos,
                format!("`values {n}`: the domain size must be between 2 and {MAX_VALUES}"),
            ));
        }
        l.end_of_line("`values N`")?;
        self.values = Some((n as Value, pos));
        Ok(())
    }

    fn locations_decl(&mut self, l: &mut Line) -> Result<(), Diagnostic> {
        if l.at_end() {
            return Err(l.expected("location names"));
        }
        while !l.at_end() {
            let (name, pos) = l.name("a location")?;
            if let Some((_, p)) = self.loc_index.get(&name) {
                return Err(self.err(
                    pos,
                    format!("duplicate location `{name}` (first declared at {p})"),
                ));
            }
            self.loc_index
                .insert(name.clone(), (self.locations.len(), pos));
            self.locations.push(name);
            if !l.at_end() {
                l.eat_punct(",");
            }
        }
        Ok(())
    }

    fn init_decl(&mut self, l: &mut Line) -> Result<(), Diagnostic> {
        loop {
            let (name, pos) = l.name("a location to initialise (`init x = 0, y = 0`)")?;
            l.punct("=")?;
            let vpos = l.pos();
            let v = match l.next().map(|t| &t.tok) {
                Some(Tok::Int(v)) => *v,
                _ => {
                    l.i -= 1;
                    return Err(l.expected("a value"));
                }
            };
            self.raw_init.push((name, pos, v, vpos));
            if l.at_end() {
                return Ok(());
            }
            l.punct(",")?;
        }
    }

    /// The first thread starts: the declarations are complete.
    fn end_header(&mut self) -> Result<(), Diagnostic> {
        self.header_done = true;
        Ok(())
    }

    fn check_init(&self, n: Value) -> Result<Vec<(usize, Value, Pos)>, Diagnostic> {
        let mut out: Vec<(usize, Value, Pos)> = Vec::new();
        for (name, pos, v, vpos) in &self.raw_init {
            let Some(&(loc, _)) = self.loc_index.get(name) else {
                return Err(self.err(
                    *pos,
                    format!("`{name}` is not a declared location (declare it in `locations`)"),
                ));
            };
            if let Some((_, _, p)) = out.iter().find(|i| i.0 == loc) {
                return Err(self.err(
                    *pos,
                    format!("`{name}` is initialised twice (first at {p})"),
                ));
            }
            let v = match v {
                Some(v) if (*v as u128) < n as u128 => *v as Value,
                _ => return Err(self.err(*vpos, outside_domain(*v, n))),
            };
            out.push((loc, v, *pos));
        }
        Ok(out)
    }

    fn finish_thread(&mut self) -> Result<(), Diagnostic> {
        let Some(t) = self.current.take() else {
            return Ok(());
        };
        let mut code = Vec::with_capacity(t.code.len());
        for s in t.code {
            let mut instr = s.instr;
            if let Some(target) = s.target {
                let idx = match target {
                    Target::Index(i) => i,
                    Target::Label(name, pos) => match t.labels.get(&name) {
                        Some(&(i, _)) => i,
                        None => {
                            return Err(self.err(
                                pos,
                                format!("unknown label `{name}` in thread `{}`", t.name),
                            ))
                        }
                    },
                };
                match &mut instr {
                    Instr::If { target, .. } | Instr::Goto { target } => *target = idx,
                    _ => unreachable!("only jumps have targets"),
                }
            }
            code.push(Stmt {
                instr,
                pos: s.pos,
                text: s.text,
            });
        }
        self.threads.push(Thread {
            name: t.name,
            pos: t.pos,
            regs: t.regs,
            code,
        });
        Ok(())
    }

    fn instruction_line(&mut self, l: &mut Line) -> Result<(), Diagnostic> {
        let n = self.values.map_or(2, |v| v.0);
        let loc_index = &self.loc_index;
        let file = self.file.clone();
        let t = self.current.as_mut().expect("inside a thread");
        // Labels: `NAME:` (a label alone on a line names the next instruction, or the
        // end of the thread).
        while matches!(l.peek(), Some(Tok::Ident(_))) && l.peek_at(1) == Some(&Tok::Punct(":")) {
            let (name, pos) = l.name("a label")?;
            l.i += 1;
            if let Some((_, p)) = t.labels.get(&name) {
                return Err(Diagnostic::new(
                    &file,
                    pos,
                    format!("duplicate label `{name}` (first at {p})"),
                ));
            }
            t.labels.insert(name, (t.code.len(), pos));
        }
        if l.at_end() {
            return Ok(());
        }
        let from = l.i;
        let pos = l.pos();
        let mut regs = RegScope {
            regs: &mut t.regs,
            index: &mut t.reg_index,
            locs: loc_index,
        };
        let (instr, target) = parse_instr(l, n, &mut regs)?;
        let text = l.text_from(from);
        t.code.push(PendingStmt {
            instr,
            target,
            pos,
            text,
        });
        Ok(())
    }
}

/// A thread's registers as the parser meets them, and the declared locations.
struct RegScope<'p> {
    regs: &'p mut Vec<String>,
    index: &'p mut HashMap<String, usize>,
    locs: &'p HashMap<String, (usize, Pos)>,
}

impl RegScope<'_> {
    fn loc(&self, name: &str) -> Option<usize> {
        self.locs.get(name).map(|l| l.0)
    }
    fn reg(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.regs.push(name.to_string());
        self.index.insert(name.to_string(), self.regs.len() - 1);
        self.regs.len() - 1
    }
    /// An expression over registers (a location in it is an error).
    fn expr(&mut self, l: &mut Line, n: Value) -> Result<Expr, Diagnostic> {
        let mut atom = |l: &mut Line| -> Result<usize, Diagnostic> {
            let (name, pos) = l.name("a register")?;
            if self.loc(&name).is_some() {
                return Err(l.err(
                    pos,
                    format!(
                        "location `{name}` in an expression: read it into a register \
                         first (`r := {name}`)"
                    ),
                ));
            }
            Ok(self.reg(&name))
        };
        l.expr(n, &mut atom)
    }
    /// A declared location (the first argument of FADD, XCHG and CAS).
    fn location(&self, l: &mut Line) -> Result<usize, Diagnostic> {
        let (name, pos) = l.name("a location")?;
        self.loc(&name).ok_or_else(|| {
            l.err(
                pos,
                format!("`{name}` is not a declared location (declare it in `locations`)"),
            )
        })
    }
}

fn parse_target(l: &mut Line) -> Result<Target, Diagnostic> {
    let pos = l.pos();
    match l.peek() {
        Some(Tok::Int(v)) => {
            l.i += 1;
            match v.and_then(|v| u32::try_from(v).ok()) {
                Some(v) => Ok(Target::Index(v as usize)),
                None => Err(l.err(pos, "jump target too large")),
            }
        }
        Some(Tok::Ident(_)) => {
            let (name, pos) = l.name("a label")?;
            Ok(Target::Label(name, pos))
        }
        _ => Err(l.expected("an instruction index or a label")),
    }
}

fn parse_instr(
    l: &mut Line,
    n: Value,
    regs: &mut RegScope,
) -> Result<(Instr, Option<Target>), Diagnostic> {
    let pos = l.pos();
    let word = match l.peek() {
        Some(Tok::Ident(w)) => w.clone(),
        _ => return Err(l.expected("an instruction")),
    };
    let out = match word.as_str() {
        "if" => {
            l.i += 1;
            let cond = regs.expr(l, n)?;
            if !l.is_word("goto") {
                return Err(l.expected("`goto`"));
            }
            l.i += 1;
            let target = parse_target(l)?;
            (Instr::If { cond, target: 0 }, Some(target))
        }
        "goto" => {
            l.i += 1;
            let target = parse_target(l)?;
            (Instr::Goto { target: 0 }, Some(target))
        }
        "assume" | "assert" => {
            l.i += 1;
            let cond = regs.expr(l, n)?;
            let instr = if word == "assume" {
                Instr::Assume { cond }
            } else {
                Instr::Assert { cond }
            };
            (instr, None)
        }
        _ => {
            let (lhs, lpos) = l.name("a register or a location")?;
            l.punct(":=")?;
            match regs.loc(&lhs) {
                Some(loc) => {
                    // A write: the value is an expression over registers.
                    if let Some(Tok::Ident(op)) = l.peek() {
                        if matches!(op.as_str(), "FADD" | "XCHG" | "CAS") {
                            return Err(l.err(
                                lpos,
                                format!(
                                    "`{lhs}` is a location: the old value {op} returns goes \
                                     into a register (`r := {op}({lhs}, ...)` updates `{lhs}`)"
                                ),
                            ));
                        }
                    }
                    if let (Some(Tok::Ident(r)), None) = (l.peek(), l.peek_at(1)) {
                        if regs.loc(r).is_some() {
                            return Err(l.err(
                                l.pos(),
                                format!(
                                    "`{lhs} := {r}` copies memory to memory: read `{r}` \
                                     into a register first"
                                ),
                            ));
                        }
                    }
                    let val = regs.expr(l, n)?;
                    (Instr::Write { loc, val }, None)
                }
                None => {
                    let dst = regs.reg(&lhs);
                    let rmw = match l.peek() {
                        Some(Tok::Ident(w))
                            if matches!(w.as_str(), "FADD" | "XCHG" | "CAS")
                                && l.peek_at(1) == Some(&Tok::Punct("(")) =>
                        {
                            Some(w.clone())
                        }
                        Some(Tok::Ident(w)) if matches!(w.as_str(), "FADD" | "XCHG" | "CAS") => {
                            l.i += 1;
                            return Err(l.expected(&format!("`(` after `{w}`")));
                        }
                        _ => None,
                    };
                    match rmw.as_deref() {
                        Some(op) => {
                            l.i += 2;
                            let loc = regs.location(l)?;
                            l.punct(",")?;
                            let a = regs.expr(l, n)?;
                            let instr = match op {
                                "FADD" => Instr::Fadd { dst, loc, val: a },
                                "XCHG" => Instr::Xchg { dst, loc, val: a },
                                _ => {
                                    l.punct(",")?;
                                    let new = regs.expr(l, n)?;
                                    Instr::Cas {
                                        dst,
                                        loc,
                                        expected: a,
                                        new,
                                    }
                                }
                            };
                            l.punct(")")?;
                            (instr, None)
                        }
                        None => match (l.peek(), l.peek_at(1)) {
                            (Some(Tok::Ident(x)), None) if regs.loc(x).is_some() => {
                                let loc = regs.loc(x).expect("checked");
                                l.i += 1;
                                (Instr::Read { dst, loc }, None)
                            }
                            _ => {
                                let val = regs.expr(l, n)?;
                                (Instr::Assign { dst, val }, None)
                            }
                        },
                    }
                }
            }
        }
    };
    match l.peek() {
        None => Ok(out),
        Some(t) => Err(l.err(
            l.pos(),
            format!(
                "unexpected {} after the instruction (one instruction per line; it started at {pos})",
                t.describe()
            ),
        )),
    }
}

/// Each thread returns the registers the final assertion reads as one number
/// (mixed radix, base `values`): they must fit in 62 bits.
fn check_return_capacity(p: &Program) -> Result<(), Diagnostic> {
    let Some(fa) = &p.final_assert else {
        return Ok(());
    };
    for (tid, t) in p.threads.iter().enumerate() {
        let k = p.final_regs_of(tid).len() as u32;
        let fits = (p.values as u128)
            .checked_pow(k)
            .is_some_and(|c| c <= 1u128 << 62);
        if !fits {
            return Err(Diagnostic::new(
                &p.file,
                fa.pos,
                format!(
                    "the final assertion reads {k} registers of thread `{}`: with `values {}` \
                     they do not fit in the 62 bits a thread hands to main at join",
                    t.name, p.values
                ),
            ));
        }
    }
    Ok(())
}
