//! The cat parser: herd7's grammar (its `modelParser.mly`) by recursive descent, with
//! herd's precedences, lowest first: `|`, `++`, `;`, `\` (left), `&`, then the
//! cartesian `*`, prefix `~`, postfix `*` `+` `?` `^-1`, application (`f x`, `f(x, y)`).
//! A `*` followed by something that can start an expression is the cartesian product,
//! otherwise the postfix closure. Bell files' declarations (`instructions`, `default`)
//! are errors at their position.

use crate::ast::*;
use crate::diag::{CatError, Span};
use crate::lex::{lex, Tok};
use std::sync::Arc;

/// Parses one cat file (includes are left as [`Instr::Include`]).
pub fn parse(file: &Arc<str>, src: &str) -> Result<Model, CatError> {
    let toks = lex(file, src)?;
    let mut p = Parser { toks, i: 0 };
    let name = p.header();
    let mut instrs = Vec::new();
    while p.peek() != &Tok::Eof {
        p.instr(&mut instrs)?;
    }
    Ok(Model { name, instrs })
}

struct Parser {
    toks: Vec<(Tok, Span)>,
    i: usize,
}

type R<T> = Result<T, CatError>;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.i].0
    }
    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.i + k).min(self.toks.len() - 1)].0
    }
    fn span(&self) -> Span {
        self.toks[self.i].1.clone()
    }
    fn bump(&mut self) -> Tok {
        let t = self.toks[self.i].0.clone();
        if self.i + 1 < self.toks.len() {
            self.i += 1;
        }
        t
    }
    fn is_kw(&self, k: &str) -> bool {
        matches!(self.peek(), Tok::Keyword(x) if *x == k)
    }
    fn is_p(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(x) if *x == p)
    }
    fn eat_kw(&mut self, k: &str) -> bool {
        let yes = self.is_kw(k);
        if yes {
            self.bump();
        }
        yes
    }
    fn eat_p(&mut self, p: &str) -> bool {
        let yes = self.is_p(p);
        if yes {
            self.bump();
        }
        yes
    }
    fn describe(t: &Tok) -> String {
        match t {
            Tok::Name(n) => format!("`{n}`"),
            Tok::Keyword(k) => format!("`{k}`"),
            Tok::Tag(t) => format!("`'{t}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the file".into(),
        }
    }
    fn fail<T>(&self, what: &str) -> R<T> {
        Err(CatError::at(
            &self.span(),
            format!("expected {what}, found {}", Self::describe(self.peek())),
        ))
    }
    fn expect_p(&mut self, p: &str) -> R<()> {
        if self.eat_p(p) {
            Ok(())
        } else {
            self.fail(&format!("`{p}`"))
        }
    }
    fn expect_kw(&mut self, k: &str) -> R<()> {
        if self.eat_kw(k) {
            Ok(())
        } else {
            self.fail(&format!("`{k}`"))
        }
    }
    fn name(&mut self) -> R<String> {
        match self.peek().clone() {
            Tok::Name(n) => {
                self.bump();
                Ok(n)
            }
            _ => self.fail("a name"),
        }
    }

    /// The model's identity: `NAME`, `NAME NAME`, `NAME "string"` or `"string"`, and an
    /// optional `catdep`.
    fn header(&mut self) -> Option<String> {
        let mut parts = Vec::new();
        match self.peek().clone() {
            Tok::Str(s) => {
                self.bump();
                parts.push(s);
            }
            Tok::Name(a) => {
                self.bump();
                parts.push(a);
                if let Tok::Name(s) | Tok::Str(s) = self.peek().clone() {
                    self.bump();
                    parts.push(s);
                }
            }
            _ => {}
        }
        self.eat_kw("catdep");
        (!parts.is_empty()).then(|| parts.join(" "))
    }

    /// Instructions up to (not including) the keyword `end`, `else` or `||` (a
    /// `match` arm's end), whichever the caller expects next.
    fn block(&mut self) -> R<Vec<Instr>> {
        let mut out = Vec::new();
        while !self.is_kw("end") && !self.is_kw("else") && !self.is_p("||") {
            if self.peek() == &Tok::Eof {
                return self.fail("`end`");
            }
            self.instr(&mut out)?;
        }
        Ok(out)
    }

    /// One instruction, pushed on `out` (`let rec ... when test` pushes the definition
    /// and then its check).
    fn instr(&mut self, out: &mut Vec<Instr>) -> R<()> {
        let span = self.span();
        let t = self.peek().clone();
        let ins = match t {
            Tok::Keyword("let") => {
                self.bump();
                let rec = self.eat_kw("rec");
                let binds = self.bindings()?;
                // `let rec x = ... when test`: herd checks the test while iterating
                // and fails as soon as an iterate fails it; iterates grow, so for the
                // monotone tests (`acyclic`, `irreflexive`, `empty`) that is the test
                // of the fixpoint, and its negation the negation's.
                let when = if rec && self.is_kw("when") {
                    let check_span = self.span();
                    self.bump();
                    Some(self.check(CheckKind::Check, check_span)?)
                } else {
                    None
                };
                if self.eat_kw("in") {
                    // `let ... in` at top level: herd accepts it as a plain let.
                }
                out.push(if rec {
                    Instr::LetRec(binds, span)
                } else {
                    Instr::Let(binds, span)
                });
                out.extend(when);
                return Ok(());
            }
            Tok::Keyword("include") => {
                self.bump();
                match self.bump() {
                    Tok::Str(s) => Ok(Instr::Include(s, span)),
                    _ => Err(CatError::at(&span, "expected a file name after `include`")),
                }
            }
            Tok::Keyword("show") | Tok::Keyword("unshow") => {
                self.bump();
                // `show e as name` or `show a, b, c`: parsed and ignored.
                if self.is_kw("show") {
                    return self.fail("what to show");
                }
                self.expr()?;
                if self.eat_kw("as") {
                    self.name()?;
                }
                Ok(Instr::Show)
            }
            Tok::Keyword("if") => {
                self.bump();
                let v = self.variant()?;
                let yes = self.block()?;
                let no = if self.eat_kw("else") {
                    self.block()?
                } else {
                    Vec::new()
                };
                self.expect_kw("end")?;
                Ok(Instr::IfVariant(v, yes, no))
            }
            Tok::Keyword(k @ ("flag" | "undefined_unless" | "assert")) => {
                self.bump();
                let kind = match k {
                    "flag" => CheckKind::Flag,
                    "assert" => CheckKind::Assert,
                    _ => CheckKind::UndefinedUnless,
                };
                self.check(kind, span)
            }
            Tok::Keyword("acyclic" | "irreflexive" | "empty") | Tok::Punct("~") => {
                self.check(CheckKind::Check, span)
            }
            Tok::Keyword("with") => {
                self.bump();
                let name = self.name()?;
                self.expect_kw("from")?;
                let e = self.expr()?;
                Ok(Instr::With(name, e, span))
            }
            Tok::Keyword("procedure") => {
                self.bump();
                let rec = self.eat_kw("rec");
                let name = self.name()?;
                let pat = self.param()?;
                self.expect_p("=")?;
                let body = self.block()?;
                self.expect_kw("end")?;
                Ok(Instr::Procedure(Arc::new(Procedure {
                    name,
                    pat,
                    body,
                    rec,
                })))
            }
            Tok::Keyword("call") => {
                self.bump();
                let name = self.name()?;
                let arg = self.simple()?;
                if self.eat_kw("as") {
                    self.name()?;
                }
                Ok(Instr::Call { name, arg, span })
            }
            Tok::Keyword("forall") => {
                self.bump();
                let var = self.name()?;
                self.expect_kw("in")?;
                let set = self.expr()?;
                self.expect_kw("do")?;
                let body = self.block()?;
                self.expect_kw("end")?;
                Ok(Instr::Forall {
                    var,
                    set,
                    body,
                    span,
                })
            }
            Tok::Keyword("enum") => {
                self.bump();
                let name = self.name()?;
                self.expect_p("=")?;
                self.eat_p("||");
                let mut tags = Vec::new();
                loop {
                    match self.bump() {
                        Tok::Tag(t) => tags.push(t),
                        other => {
                            self.i -= usize::from(other != Tok::Eof);
                            return self.fail("a tag (`'name`)");
                        }
                    }
                    if !self.eat_p("||") {
                        break;
                    }
                }
                Ok(Instr::Enum(name, tags))
            }
            Tok::Keyword("debug") => {
                // herd prints the value; porf evaluates nothing.
                self.bump();
                self.expr()?;
                Ok(Instr::Show)
            }
            Tok::Keyword("match") => {
                self.bump();
                let scrutinee = self.expr()?;
                self.expect_kw("with")?;
                let arms = self.tag_arms(Self::block)?;
                Ok(Instr::MatchTag(scrutinee, arms, span))
            }
            Tok::Keyword(k @ ("instructions" | "default")) => Err(CatError::at(
                &span,
                format!(
                    "`{k}` (a bell file's declaration) is not supported by porf's cat interpreter"
                ),
            )),
            other => Err(CatError::at(
                &span,
                format!("expected an instruction, found {}", Self::describe(&other)),
            )),
        }?;
        out.push(ins);
        Ok(())
    }

    /// After `match e with`: `'a -> x || 'b -> y || _ -> z end` (first `||`
    /// optional), each arm read by `arm`; the `_` arm, if any, is the last.
    fn tag_arms<T>(&mut self, arm: fn(&mut Self) -> R<T>) -> R<TagArms<T>> {
        self.eat_p("||");
        let mut arms = TagArms {
            arms: Vec::new(),
            default: None,
        };
        loop {
            let arm_span = self.span();
            if self.eat_p("_") {
                self.expect_p("->")?;
                arms.default = Some(arm(self)?);
                break;
            }
            let Tok::Tag(t) = self.peek().clone() else {
                return self.fail("a `match` arm: `'tag -> ...` or `_ -> ...`");
            };
            self.bump();
            self.expect_p("->")?;
            if arms.arms.iter().any(|(x, _)| *x == t) {
                return Err(CatError::at(&arm_span, format!("a second arm for '{t}")));
            }
            arms.arms.push((t, arm(self)?));
            if !self.eat_p("||") {
                break;
            }
        }
        self.expect_kw("end")?;
        Ok(arms)
    }

    fn check(&mut self, kind: CheckKind, span: Span) -> R<Instr> {
        let negated = self.eat_p("~");
        let test = match self.bump() {
            Tok::Keyword("acyclic") => Test::Acyclic,
            Tok::Keyword("irreflexive") => Test::Irreflexive,
            Tok::Keyword("empty") => Test::Empty,
            other => {
                return Err(CatError::at(
                    &span,
                    format!(
                        "expected `acyclic`, `irreflexive` or `empty`, found {}",
                        Self::describe(&other)
                    ),
                ))
            }
        };
        let expr = self.expr()?;
        let name = if self.eat_kw("as") {
            Some(self.name()?)
        } else {
            None
        };
        Ok(Instr::Check {
            kind,
            negated,
            test,
            expr,
            name,
            span,
        })
    }

    fn variant(&mut self) -> R<Variant> {
        let mut v = self.variant_atom()?;
        loop {
            if self.eat_p("&&") {
                v = Variant::And(Box::new(v), Box::new(self.variant_atom()?));
            } else if self.eat_p("||") {
                v = Variant::Or(Box::new(v), Box::new(self.variant_atom()?));
            } else {
                return Ok(v);
            }
        }
    }
    fn variant_atom(&mut self) -> R<Variant> {
        if self.eat_kw("not") {
            return Ok(Variant::Not(Box::new(self.variant_atom()?)));
        }
        if self.eat_p("(") {
            let v = self.variant()?;
            self.expect_p(")")?;
            return Ok(v);
        }
        self.eat_kw("variant");
        match self.peek().clone() {
            Tok::Str(s) => {
                self.bump();
                Ok(Variant::Name(s))
            }
            _ => self.fail("a variant name (a string)"),
        }
    }

    /// `pat = e and pat = e ...`
    fn bindings(&mut self) -> R<Vec<Binding>> {
        let mut out = vec![self.binding()?];
        while self.eat_kw("and") {
            out.push(self.binding()?);
        }
        Ok(out)
    }
    fn binding(&mut self) -> R<Binding> {
        let span = self.span();
        if self.eat_p("(") {
            let formals = self.formals()?;
            self.expect_p(")")?;
            self.expect_p("=")?;
            let expr = self.expr()?;
            return Ok(Binding {
                pat: tuple_pat(formals),
                expr,
                span,
            });
        }
        let first = self.pat0()?;
        if self.is_p("=") {
            self.bump();
            let expr = self.expr()?;
            return Ok(Binding {
                pat: Pat::Var(first),
                expr,
                span,
            });
        }
        if self.is_p(",") {
            let mut names = vec![first];
            while self.eat_p(",") {
                names.push(self.pat0()?);
            }
            self.expect_p("=")?;
            let expr = self.expr()?;
            return Ok(Binding {
                pat: Pat::Tuple(names),
                expr,
                span,
            });
        }
        // A function: `f x = e` or `f(x, y) = e`.
        let Some(fname) = first else {
            return self.fail("`=`");
        };
        let param = self.param()?;
        self.expect_p("=")?;
        let body = self.expr()?;
        Ok(Binding {
            pat: Pat::Var(Some(fname)),
            expr: Expr::Fun(param, std::sync::Arc::new(body), span.clone()),
            span,
        })
    }
    /// A parameter: `(a, b, ...)` or one name (or `_`).
    fn param(&mut self) -> R<Pat> {
        if self.eat_p("(") {
            let f = self.formals()?;
            self.expect_p(")")?;
            Ok(tuple_pat(f))
        } else {
            Ok(Pat::Var(self.pat0()?))
        }
    }
    fn pat0(&mut self) -> R<Option<String>> {
        if self.eat_p("_") {
            return Ok(None);
        }
        Ok(Some(self.name()?))
    }
    fn formals(&mut self) -> R<Vec<Option<String>>> {
        let mut out = Vec::new();
        if self.is_p(")") {
            return Ok(out);
        }
        out.push(self.pat0()?);
        while self.eat_p(",") {
            out.push(self.pat0()?);
        }
        Ok(out)
    }

    /// `exp` of the grammar: binders, or a base expression or tuple.
    fn expr(&mut self) -> R<Expr> {
        let span = self.span();
        if self.eat_kw("let") {
            let rec = self.eat_kw("rec");
            let binds = self.bindings()?;
            self.expect_kw("in")?;
            let body = Box::new(self.expr()?);
            return Ok(if rec {
                Expr::LetRec(binds, body, span)
            } else {
                Expr::Let(binds, body, span)
            });
        }
        if self.eat_kw("fun") {
            let pat = self.param()?;
            self.expect_p("->")?;
            return Ok(Expr::Fun(pat, std::sync::Arc::new(self.expr()?), span));
        }
        if self.eat_kw("try") {
            let e = self.expr()?;
            self.expect_kw("with")?;
            let alt = self.expr()?;
            return Ok(Expr::Try(Box::new(e), Box::new(alt), span));
        }
        if self.eat_kw("if") {
            let cond = self.cond()?;
            self.expect_kw("then")?;
            let a = self.expr()?;
            self.expect_kw("else")?;
            let b = self.expr()?;
            return Ok(Expr::If(Box::new(cond), Box::new(a), Box::new(b), span));
        }
        if self.eat_kw("match") {
            let scrutinee = self.expr()?;
            self.expect_kw("with")?;
            let k = usize::from(self.is_p("||"));
            if matches!(self.peek_at(k), Tok::Tag(_)) {
                let arms = self.tag_arms(Self::expr)?;
                return Ok(Expr::MatchTag(Box::new(scrutinee), Box::new(arms), span));
            }
            return self.match_set(scrutinee, span);
        }
        let first = self.base()?;
        if !self.is_p(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_p(",") {
            items.push(self.base()?);
        }
        Ok(Expr::Tuple(items, span))
    }
    /// After `match`: `e with || {} -> a || x ++ rest -> b end`, the arms in either
    /// order, the first `||` optional.
    fn match_set(&mut self, scrutinee: Expr, span: Span) -> R<Expr> {
        let (mut empty, mut nonempty) = (None, None);
        self.eat_p("||");
        loop {
            let arm_span = self.span();
            if self.eat_p("{") {
                self.expect_p("}")?;
                self.expect_p("->")?;
                if empty.replace(self.expr()?).is_some() {
                    return Err(CatError::at(&arm_span, "a second `{}` arm"));
                }
            } else if matches!(self.peek(), Tok::Name(_)) || self.is_p("_") {
                let elem = self.pat0()?;
                self.expect_p("++")?;
                let rest = self.pat0()?;
                self.expect_p("->")?;
                let body = self.expr()?;
                if nonempty.replace((elem, rest, body)).is_some() {
                    return Err(CatError::at(&arm_span, "a second `x ++ rest` arm"));
                }
            } else {
                return self.fail("a `match` arm: `{} -> e` or `x ++ rest -> e`");
            }
            if !self.eat_p("||") {
                break;
            }
        }
        self.expect_kw("end")?;
        let (Some(empty), Some((elem, rest, nonempty))) = (empty, nonempty) else {
            return Err(CatError::at(
                &span,
                "a `match` over a set needs both arms: `{} -> e` and `x ++ rest -> e`",
            ));
        };
        Ok(Expr::MatchSet(
            Box::new(SetMatch {
                scrutinee,
                empty,
                elem,
                rest,
                nonempty,
            }),
            span,
        ))
    }
    fn cond(&mut self) -> R<Cond> {
        if matches!(self.peek(), Tok::Str(_) | Tok::Keyword("not" | "variant")) {
            return Ok(Cond::Variant(self.variant()?));
        }
        let a = self.base()?;
        if self.eat_p("=") {
            return Ok(Cond::Eq(a, self.base()?));
        }
        if self.eat_kw("subset") {
            return Ok(Cond::Subset(a, self.base()?));
        }
        if self.eat_kw("in") {
            return Ok(Cond::In(a, self.base()?));
        }
        self.fail("`=`, `subset` or `in`")
    }

    fn binary(
        &mut self,
        op: &str,
        kind: Op2,
        next: fn(&mut Self) -> R<Expr>,
        left_assoc: bool,
    ) -> R<Expr> {
        let lhs = next(self)?;
        if !self.is_p(op) {
            return Ok(lhs);
        }
        let span = self.span();
        self.bump();
        if left_assoc {
            let mut acc = lhs;
            loop {
                let rhs = next(self)?;
                acc = Expr::Op2(kind, Box::new(acc), Box::new(rhs), span.clone());
                if !self.eat_p(op) {
                    return Ok(acc);
                }
            }
        }
        let rhs = self.binary(op, kind, next, false)?;
        Ok(Expr::Op2(kind, Box::new(lhs), Box::new(rhs), span))
    }
    fn base(&mut self) -> R<Expr> {
        self.binary("|", Op2::Union, Self::plusplus, false)
    }
    fn plusplus(&mut self) -> R<Expr> {
        self.binary("++", Op2::Add, Self::seq, false)
    }
    fn seq(&mut self) -> R<Expr> {
        self.binary(";", Op2::Seq, Self::diff, false)
    }
    fn diff(&mut self) -> R<Expr> {
        self.binary("\\", Op2::Diff, Self::inter, true)
    }
    fn inter(&mut self) -> R<Expr> {
        self.binary("&", Op2::Inter, Self::cartesian, false)
    }
    /// `a * b` (non-associative in herd; read left to right here).
    fn cartesian(&mut self) -> R<Expr> {
        let mut lhs = self.prefix()?;
        while self.is_p("*") && self.starts_arg(1) {
            let span = self.span();
            self.bump();
            let rhs = self.prefix()?;
            lhs = Expr::Op2(Op2::Cartesian, Box::new(lhs), Box::new(rhs), span);
        }
        Ok(lhs)
    }
    fn prefix(&mut self) -> R<Expr> {
        if self.is_p("~") {
            let span = self.span();
            self.bump();
            let e = self.prefix()?;
            return Ok(Expr::Op1(Op1::Comp, Box::new(e), span));
        }
        self.postfix()
    }
    fn postfix(&mut self) -> R<Expr> {
        let mut e = self.app()?;
        loop {
            let span = self.span();
            let op = if self.is_p("*") && !self.starts_arg(1) {
                Op1::Star
            } else if self.is_p("+") {
                Op1::Plus
            } else if self.is_p("?") {
                Op1::Opt
            } else if self.is_p("^") {
                self.bump();
                if !self.is_p("-1") {
                    return self.fail("`-1` after `^`");
                }
                Op1::Inv
            } else {
                return Ok(e);
            };
            self.bump();
            e = Expr::Op1(op, Box::new(e), span);
        }
    }
    /// Whether the token `k` ahead can start an argument (`simple` or a name).
    fn starts_arg(&self, k: usize) -> bool {
        match self.peek_at(k) {
            Tok::Name(_) | Tok::Tag(_) => true,
            Tok::Punct(p) => matches!(*p, "(" | "[" | "{" | "_" | "0" | "~"),
            Tok::Keyword(k) => *k == "begin",
            _ => false,
        }
    }
    /// A name applied to arguments (`f x y`, `f(x, y)`), or a simple expression.
    fn app(&mut self) -> R<Expr> {
        if !matches!(self.peek(), Tok::Name(_)) {
            return self.simple();
        }
        let span = self.span();
        let mut e = Expr::Var(self.name()?, span.clone());
        while self.starts_arg(0) && !self.is_p("~") {
            let arg = match self.peek().clone() {
                Tok::Name(n) => {
                    let s = self.span();
                    self.bump();
                    Expr::Var(n, s)
                }
                _ => self.simple()?,
            };
            e = Expr::App(Box::new(e), Box::new(arg), span.clone());
        }
        Ok(e)
    }
    fn simple(&mut self) -> R<Expr> {
        let span = self.span();
        match self.bump() {
            Tok::Punct("0") => Ok(Expr::Empty(span)),
            Tok::Punct("_") => Ok(Expr::Universe(span)),
            Tok::Tag(t) => Ok(Expr::Tag(t, span)),
            Tok::Name(n) => Ok(Expr::Var(n, span)),
            Tok::Punct("(") => {
                if self.eat_p(")") {
                    return Ok(Expr::Tuple(Vec::new(), span));
                }
                let e = self.expr()?;
                self.expect_p(")")?;
                Ok(e)
            }
            Tok::Keyword("begin") => {
                let e = self.expr()?;
                self.expect_kw("end")?;
                Ok(e)
            }
            Tok::Punct("[") => {
                let e = self.expr()?;
                self.expect_p("]")?;
                Ok(Expr::Op1(Op1::ToId, Box::new(e), span))
            }
            Tok::Punct("{") => {
                if self.eat_p("}") {
                    return Ok(Expr::EmptySet(span));
                }
                let mut items = vec![self.base()?];
                while self.eat_p(",") {
                    items.push(self.base()?);
                }
                self.expect_p("}")?;
                Ok(Expr::ExplicitSet(items, span))
            }
            other => {
                self.i -= usize::from(other != Tok::Eof);
                self.fail("an expression")
            }
        }
    }
}

fn tuple_pat(mut names: Vec<Option<String>>) -> Pat {
    if names.len() == 1 {
        Pat::Var(names.pop().expect("one"))
    } else {
        Pat::Tuple(names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(e: &Expr) -> String {
        match e {
            Expr::Empty(_) => "0".into(),
            Expr::Universe(_) => "_".into(),
            Expr::Var(n, _) => n.clone(),
            Expr::Tag(t, _) => format!("'{t}"),
            Expr::Op1(op, a, _) => format!("{op:?}({})", show(a)),
            Expr::Op2(op, a, b, _) => format!("{op:?}({}, {})", show(a), show(b)),
            Expr::Tuple(xs, _) => {
                format!("({})", xs.iter().map(show).collect::<Vec<_>>().join(", "))
            }
            Expr::App(f, x, _) => format!("{}<{}>", show(f), show(x)),
            Expr::Fun(_, b, _) => format!("fun {}", show(b)),
            _ => "?".into(),
        }
    }
    fn expr_of(src: &str) -> String {
        let m = parse(&Arc::from("t.cat"), &format!("let x = {src}")).unwrap();
        match &m.instrs[0] {
            Instr::Let(b, _) => show(&b[0].expr),
            _ => unreachable!(),
        }
    }

    #[test]
    fn precedence() {
        assert_eq!(expr_of("a | b ; c & d"), "Union(a, Seq(b, Inter(c, d)))");
        assert_eq!(expr_of("a \\ b \\ c"), "Diff(Diff(a, b), c)");
        assert_eq!(expr_of("a* ; b"), "Seq(Star(a), b)");
        assert_eq!(expr_of("W * R & po"), "Inter(Cartesian(W, R), po)");
        assert_eq!(expr_of("~a+ ; [W]"), "Seq(Comp(Plus(a)), ToId(W))");
        assert_eq!(expr_of("rf^-1 ; co"), "Seq(Inv(rf), co)");
        assert_eq!(expr_of("f(a, b) | g x"), "Union(f<(a, b)>, g<x>)");
        assert_eq!(expr_of("(po ; [F])? ; x"), "Seq(Opt(Seq(po, ToId(F))), x)");
    }

    #[test]
    fn instructions_and_header() {
        let src = "X86 \"my tso\"\ninclude \"a.cat\"\nlet rec a = b | a;c and c = d\n\
                   let f(x, y) = x ; y\nacyclic a as foo\nflag ~empty b as bar\n\
                   show a, b\nif \"v\" let z = a else let z = b end";
        let m = parse(&Arc::from("t.cat"), src).unwrap();
        assert_eq!(m.name.as_deref(), Some("X86 my tso"));
        assert_eq!(m.instrs.len(), 7);
        assert!(matches!(
            &m.instrs[3],
            Instr::Check { kind: CheckKind::Check, negated: false, test: Test::Acyclic, name: Some(n), .. } if n == "foo"
        ));
        assert!(matches!(
            &m.instrs[4],
            Instr::Check {
                kind: CheckKind::Flag,
                negated: true,
                test: Test::Empty,
                ..
            }
        ));
    }

    #[test]
    fn match_over_sets_and_with() {
        let src = "let f s = match s with || {} -> 0 || x ++ rest -> x | f rest end\n\
                   with co from linearisations(W, co0)";
        let m = parse(&Arc::from("t.cat"), src).unwrap();
        let Instr::Let(b, _) = &m.instrs[0] else {
            panic!("{:?}", m.instrs[0])
        };
        let Expr::Fun(_, body, _) = &b[0].expr else {
            panic!("{:?}", b[0].expr)
        };
        let Expr::MatchSet(arms, _) = &**body else {
            panic!("{body:?}")
        };
        assert_eq!(show(&arms.empty), "0");
        assert_eq!(arms.elem.as_deref(), Some("x"));
        assert_eq!(arms.rest.as_deref(), Some("rest"));
        assert_eq!(show(&arms.nonempty), "Union(x, f<rest>)");
        assert!(matches!(&m.instrs[1], Instr::With(n, _, _) if n == "co"));
    }

    #[test]
    fn errors_name_their_position() {
        let e = parse(&Arc::from("m.cat"), "let x = a |\nacyclic x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "m.cat:2:1: error: expected an expression, found `acyclic`"
        );
        let e = parse(&Arc::from("m.cat"), "instructions R[{'x}]").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("m.cat:1:1: error: `instructions` (a bell file's declaration)"),
            "{e}"
        );
        let e = parse(
            &Arc::from("m.cat"),
            "let x = match s with 'a -> 0 || 'a -> _ end",
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("m.cat:1:33: error: a second arm for 'a"),
            "{e}"
        );
        let e = parse(&Arc::from("m.cat"), "procedure p(x) = acyclic x").unwrap_err();
        assert!(e.msg.contains("expected `end`"), "{e}");
        let e = parse(&Arc::from("m.cat"), "let x = match s with {} -> 0 end").unwrap_err();
        assert!(e.msg.contains("needs both arms"), "{e}");
        let e = parse(&Arc::from("m.cat"), "let x = {a, b").unwrap_err();
        assert!(e.to_string().starts_with("m.cat:1:14:"), "{e}");
    }
}
