//! Thread bodies of kernel litmus tests: the C fragment herd's LKMM tests use, parsed
//! into statements and expressions with their `file:line:col`.
//!
//! Statements: blocks, `if`/`else`, declarations of registers (`int r0;`,
//! `intptr_t r1 = READ_ONCE(*x);`, `int *r2;`), assignments (`r = e`, `r op= e`,
//! `r++`), expression statements (calls), `;`. Expressions: integers, names, calls,
//! unary `! - ~ * &`, the binary operators of C but assignment, and parentheses.
//! Anything else (loops, `goto`, member access, subscripts, `?:`) is refused here
//! with its position.

use crate::ast::Pos;

/// A syntax error at a byte offset of the file.
#[derive(Clone, Debug)]
pub struct SyntaxError {
    pub at: usize,
    pub message: String,
}

type Res<T> = Result<T, SyntaxError>;

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Int(i64),
    Name(String, usize),
    Call(String, Vec<Expr>, usize),
    Unary(&'static str, Box<Expr>, usize),
    Binary(&'static str, Box<Expr>, Box<Expr>, usize),
}

impl Expr {
    /// The byte offset the expression starts at (its operator's, for operators).
    pub fn at(&self) -> usize {
        match self {
            Expr::Int(_) => 0,
            Expr::Name(_, a) | Expr::Call(_, _, a) | Expr::Unary(_, _, a) => *a,
            Expr::Binary(_, l, _, a) => {
                let la = l.at();
                if la > 0 {
                    la
                } else {
                    *a
                }
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// A declaration of a register; `ptr`: declared with `*`.
    Decl {
        name: String,
        ptr: bool,
        init: Option<Expr>,
        at: usize,
    },
    /// `name = value` (compound assignments and `++`/`--` already expanded).
    Assign {
        name: String,
        value: Expr,
        at: usize,
    },
    /// A plain write `*addr = value`.
    Store {
        addr: Expr,
        value: Expr,
        at: usize,
    },
    Expr(Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    Block(Vec<Stmt>),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Ident,
    Number,
    Punct,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    text: String,
    at: usize,
}

const PUNCTS: &[&str] = &[
    "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=",
    "*=", "/=", "%=", "&=", "^=", "|=",
];

fn lex(text: &str, start: usize, end: usize) -> Res<Vec<Tok>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..end].starts_with(b"//") {
            while i < end && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..end].starts_with(b"/*") {
            i = text[i + 2..end]
                .find("*/")
                .map(|k| i + 2 + k + 2)
                .ok_or_else(|| SyntaxError {
                    at: i,
                    message: "unterminated comment".into(),
                })?;
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let st = i;
            while i < end && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok {
                kind: Kind::Ident,
                text: text[st..i].into(),
                at: st,
            });
        } else if c.is_ascii_digit() {
            let st = i;
            while i < end && (b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            out.push(Tok {
                kind: Kind::Number,
                text: text[st..i].into(),
                at: st,
            });
        } else {
            let p = PUNCTS
                .iter()
                .find(|p| b[i..end].starts_with(p.as_bytes()))
                .map_or(1, |p| p.len());
            if !c.is_ascii() {
                return Err(SyntaxError {
                    at: i,
                    message: "unexpected character".into(),
                });
            }
            out.push(Tok {
                kind: Kind::Punct,
                text: text[i..i + p].into(),
                at: i,
            });
            i += p;
        }
    }
    Ok(out)
}

/// Type words a declaration may start with.
const TYPE_WORDS: &[&str] = &[
    "int",
    "long",
    "short",
    "char",
    "unsigned",
    "signed",
    "intptr_t",
    "uintptr_t",
    "u8",
    "u16",
    "u32",
    "u64",
    "s32",
    "s64",
    "bool",
    "atomic_t",
    "spinlock_t",
    "const",
    "volatile",
];

struct Parser {
    toks: Vec<Tok>,
    i: usize,
    end: usize,
}

/// Parses the body `text[start..end]` (between the thread's braces).
pub fn parse_body(text: &str, start: usize, end: usize) -> Res<Vec<Stmt>> {
    let toks = lex(text, start, end)?;
    let mut p = Parser { toks, i: 0, end };
    let mut out = Vec::new();
    while p.i < p.toks.len() {
        out.extend(p.stmt()?);
    }
    Ok(out)
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }
    fn at(&self) -> usize {
        self.peek().map_or(self.end, |t| t.at)
    }
    fn is(&self, s: &str) -> bool {
        self.peek().is_some_and(|t| t.text == s)
    }
    fn err<T>(&self, msg: impl Into<String>) -> Res<T> {
        Err(SyntaxError {
            at: self.at(),
            message: msg.into(),
        })
    }
    fn expect(&mut self, s: &str) -> Res<()> {
        if self.is(s) {
            self.i += 1;
            Ok(())
        } else {
            let found = self
                .peek()
                .map_or("the end of the body".into(), |t| format!("`{}`", t.text));
            self.err(format!("expected `{s}`, found {found}"))
        }
    }
    fn ident(&mut self) -> Res<(String, usize)> {
        match self.peek() {
            Some(t) if t.kind == Kind::Ident => {
                let r = (t.text.clone(), t.at);
                self.i += 1;
                Ok(r)
            }
            _ => self.err("expected a name"),
        }
    }

    /// One statement; a declaration of several registers gives several.
    /// Whether the token at `i` is followed by an assignment operator (`=`, a compound
    /// one, `++` or `--`): a statement assigning a register.
    fn assigned_at(&self, i: usize) -> bool {
        self.toks.get(i + 1).is_some_and(|n| {
            matches!(
                n.text.as_str(),
                "=" | "+="
                    | "-="
                    | "*="
                    | "/="
                    | "%="
                    | "&="
                    | "|="
                    | "^="
                    | "<<="
                    | ">>="
                    | "++"
                    | "--"
            )
        })
    }

    fn stmt(&mut self) -> Res<Vec<Stmt>> {
        let Some(t) = self.peek().cloned() else {
            return self.err("expected a statement");
        };
        match t.text.as_str() {
            ";" => {
                self.i += 1;
                Ok(vec![])
            }
            "{" => {
                self.i += 1;
                let mut body = Vec::new();
                while !self.is("}") {
                    if self.peek().is_none() {
                        return self.err("expected `}`");
                    }
                    body.extend(self.stmt()?);
                }
                self.i += 1;
                Ok(vec![Stmt::Block(body)])
            }
            "if" => {
                self.i += 1;
                self.expect("(")?;
                let c = self.expr()?;
                self.expect(")")?;
                let then = self.stmt()?;
                let els = if self.is("else") {
                    self.i += 1;
                    self.stmt()?
                } else {
                    vec![]
                };
                Ok(vec![Stmt::If(c, then, els)])
            }
            // herd's C lexer reserves `if`, `else` and `while` only: the other words are
            // registers when assigned (`continue = 0;`, Dat3M's lock-free tests).
            "while" | "for" | "do" | "goto" | "switch" | "return" | "break" | "continue"
                if t.text == "while" || !self.assigned_at(self.i) =>
            {
                self.err(format!(
                    "unsupported: `{}` in a kernel litmus test (porf runs straight-line \
                     code with `if` only)",
                    t.text
                ))
            }
            w if TYPE_WORDS.contains(&w) => self.decl(),
            "*" if self.toks.get(self.i + 2).is_some_and(|n| n.text == "=")
                || self.toks.get(self.i + 1).is_some_and(|n| n.text == "(") =>
            {
                self.plain_store()
            }
            _ if t.kind == Kind::Ident && self.assigned_at(self.i) => {
                let (name, at) = self.ident()?;
                let op = self.toks[self.i].text.clone();
                self.i += 1;
                let value = match op.as_str() {
                    "=" => self.expr()?,
                    "++" | "--" => Expr::Binary(
                        if op == "++" { "+" } else { "-" },
                        Box::new(Expr::Name(name.clone(), at)),
                        Box::new(Expr::Int(1)),
                        at,
                    ),
                    _ => {
                        let rhs = self.expr()?;
                        Expr::Binary(
                            binop(&op[..op.len() - 1]).expect("compound operator"),
                            Box::new(Expr::Name(name.clone(), at)),
                            Box::new(rhs),
                            at,
                        )
                    }
                };
                self.expect(";")?;
                Ok(vec![Stmt::Assign { name, value, at }])
            }
            _ => {
                let e = self.expr()?;
                self.expect(";")?;
                Ok(vec![Stmt::Expr(e)])
            }
        }
    }

    /// `*p = e;` or `*(e1) = e2;`: a plain write. Compound assignments to memory are
    /// refused (they would be a plain read and a plain write).
    fn plain_store(&mut self) -> Res<Vec<Stmt>> {
        let at = self.at();
        self.i += 1;
        let addr = self.unary()?;
        if !self.is("=") {
            return self
                .err("unsupported: a plain access other than `*p = e` or `*p` in an expression");
        }
        self.i += 1;
        let value = self.expr()?;
        self.expect(";")?;
        Ok(vec![Stmt::Store { addr, value, at }])
    }

    fn decl(&mut self) -> Res<Vec<Stmt>> {
        while self
            .peek()
            .is_some_and(|t| TYPE_WORDS.contains(&t.text.as_str()))
        {
            self.i += 1;
        }
        let mut out = Vec::new();
        loop {
            let mut ptr = false;
            while self.is("*") {
                ptr = true;
                self.i += 1;
            }
            let (name, at) = self.ident()?;
            if self.is("[") {
                return self.err("unsupported: arrays in a kernel litmus test");
            }
            let init = if self.is("=") {
                self.i += 1;
                Some(self.expr()?)
            } else {
                None
            };
            out.push(Stmt::Decl {
                name,
                ptr,
                init,
                at,
            });
            if self.is(",") {
                self.i += 1;
                continue;
            }
            self.expect(";")?;
            return Ok(out);
        }
    }

    pub fn expr(&mut self) -> Res<Expr> {
        self.binary(0)
    }

    fn binary(&mut self, min: u8) -> Res<Expr> {
        let mut lhs = self.unary()?;
        while let Some(t) = self.peek() {
            let Some(op) = binop(&t.text) else { break };
            let prec = precedence(op);
            if prec < min || t.kind != Kind::Punct {
                break;
            }
            let at = t.at;
            self.i += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), at);
        }
        if self.is("?") {
            return self.err("unsupported: `?:` in a kernel litmus test");
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Res<Expr> {
        let Some(t) = self.peek().cloned() else {
            return self.err("expected an expression");
        };
        let op = match t.text.as_str() {
            "!" => Some("!"),
            "-" => Some("-"),
            "~" => Some("~"),
            "*" => Some("*"),
            "&" => Some("&"),
            "+" => Some("+"),
            _ => None,
        };
        if let Some(op) = op {
            self.i += 1;
            let e = self.unary()?;
            return Ok(if op == "+" {
                e
            } else {
                Expr::Unary(op, Box::new(e), t.at)
            });
        }
        if t.text == "(" {
            self.i += 1;
            // A cast `(int *)e` / `(intptr_t)e`: values are untyped here.
            if self
                .peek()
                .is_some_and(|n| TYPE_WORDS.contains(&n.text.as_str()))
            {
                while !self.is(")") && self.peek().is_some() {
                    self.i += 1;
                }
                self.expect(")")?;
                return self.unary();
            }
            let e = self.expr()?;
            self.expect(")")?;
            return self.postfix(e);
        }
        match t.kind {
            Kind::Number => {
                self.i += 1;
                let s = t.text.trim_end_matches(['u', 'U', 'l', 'L']);
                let v = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                    i64::from_str_radix(h, 16)
                } else {
                    s.parse::<i64>()
                };
                v.map(Expr::Int).map_err(|_| SyntaxError {
                    at: t.at,
                    message: format!("bad integer `{}`", t.text),
                })
            }
            Kind::Ident => {
                self.i += 1;
                if self.is("(") {
                    self.i += 1;
                    let mut args = Vec::new();
                    if !self.is(")") {
                        loop {
                            args.push(self.expr()?);
                            if self.is(",") {
                                self.i += 1;
                                continue;
                            }
                            break;
                        }
                    }
                    self.expect(")")?;
                    return self.postfix(Expr::Call(t.text, args, t.at));
                }
                self.postfix(Expr::Name(t.text, t.at))
            }
            Kind::Punct => self.err(format!("unexpected `{}`", t.text)),
        }
    }

    fn postfix(&mut self, e: Expr) -> Res<Expr> {
        match self.peek().map(|t| t.text.as_str()) {
            Some("->") | Some(".") => self.err("unsupported: structures in a kernel litmus test"),
            Some("[") => self.err("unsupported: arrays in a kernel litmus test"),
            _ => Ok(e),
        }
    }
}

fn binop(s: &str) -> Option<&'static str> {
    Some(match s {
        "||" => "||",
        "&&" => "&&",
        "|" => "|",
        "^" => "^",
        "&" => "&",
        "==" => "==",
        "!=" => "!=",
        "<" => "<",
        ">" => ">",
        "<=" => "<=",
        ">=" => ">=",
        "<<" => "<<",
        ">>" => ">>",
        "+" => "+",
        "-" => "-",
        "*" => "*",
        "/" => "/",
        "%" => "%",
        _ => return None,
    })
}

fn precedence(op: &str) -> u8 {
    match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        _ => 10,
    }
}

/// The 1-based line and column of byte `at` of `text`.
pub fn pos_of(text: &str, at: usize) -> Pos {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() as u32 + 1;
    let col = (at - before.rfind('\n').map_or(0, |k| k + 1)) as u32 + 1;
    Pos { line, col }
}
