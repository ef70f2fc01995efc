//! The parsed cat model: instructions and expressions, each with its source position.

use crate::diag::Span;
use std::sync::Arc;

/// Unary operators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op1 {
    /// `r*`
    Star,
    /// `r+`
    Plus,
    /// `r?`
    Opt,
    /// `r^-1`
    Inv,
    /// `~e`
    Comp,
    /// `[s]`
    ToId,
}

/// Binary operators.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op2 {
    Union,
    Inter,
    Diff,
    Seq,
    /// `s1 * s2`
    Cartesian,
    /// `e ++ s`: the set of values `s` with the value `e` added.
    Add,
}

/// A binding pattern: one name (`_` is `None`) or a tuple of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pat {
    Var(Option<String>),
    Tuple(Vec<Option<String>>),
}

/// An expression.
#[derive(Clone, Debug)]
pub enum Expr {
    /// `0`
    Empty(Span),
    /// `_`
    Universe(Span),
    Var(String, Span),
    Tag(String, Span),
    Op1(Op1, Box<Expr>, Span),
    Op2(Op2, Box<Expr>, Box<Expr>, Span),
    Tuple(Vec<Expr>, Span),
    App(Box<Expr>, Box<Expr>, Span),
    Fun(Pat, std::sync::Arc<Expr>, Span),
    Let(Vec<Binding>, Box<Expr>, Span),
    LetRec(Vec<Binding>, Box<Expr>, Span),
    /// `try e with alt`: `alt` if evaluating `e` fails.
    Try(Box<Expr>, Box<Expr>, Span),
    If(Box<Cond>, Box<Expr>, Box<Expr>, Span),
    /// `{}`.
    EmptySet(Span),
    /// `{e1, ..., en}`: a set of values, or a set of relations, tags, ... (no two
    /// elements equal).
    ExplicitSet(Vec<Expr>, Span),
    /// `match e with || {} -> a || x ++ rest -> b end` over a set of values.
    MatchSet(Box<SetMatch>, Span),
    /// `match e with 'a -> x || 'b -> y || _ -> z end` on a tag.
    MatchTag(Box<Expr>, Box<TagArms<Expr>>, Span),
}

/// The arms of a `match` on a tag: one per tag, and the `_` arm (none: a tag no arm
/// names is an error).
#[derive(Clone, Debug)]
pub struct TagArms<T> {
    pub arms: Vec<(String, T)>,
    pub default: Option<T>,
}

impl<T> TagArms<T> {
    /// The arm for `tag`, else the `_` arm.
    pub fn select(&self, tag: &str) -> Option<&T> {
        self.arms
            .iter()
            .find(|(t, _)| t == tag)
            .map(|(_, x)| x)
            .or(self.default.as_ref())
    }
}

/// The arms of a `match` over a set of values: `empty` when the set is empty, else
/// `nonempty` with `elem` bound to one element and `rest` to the others.
#[derive(Clone, Debug)]
pub struct SetMatch {
    pub scrutinee: Expr,
    pub empty: Expr,
    pub elem: Option<String>,
    pub rest: Option<String>,
    pub nonempty: Expr,
}

impl Expr {
    pub fn span(&self) -> &Span {
        match self {
            Expr::Empty(s)
            | Expr::Universe(s)
            | Expr::Var(_, s)
            | Expr::Tag(_, s)
            | Expr::Op1(_, _, s)
            | Expr::Op2(_, _, _, s)
            | Expr::Tuple(_, s)
            | Expr::App(_, _, s)
            | Expr::Fun(_, _, s)
            | Expr::Let(_, _, s)
            | Expr::LetRec(_, _, s)
            | Expr::Try(_, _, s)
            | Expr::If(_, _, _, s)
            | Expr::EmptySet(s)
            | Expr::ExplicitSet(_, s)
            | Expr::MatchSet(_, s)
            | Expr::MatchTag(_, _, s) => s,
        }
    }
}

/// `pat = e` in a `let`.
#[derive(Clone, Debug)]
pub struct Binding {
    pub pat: Pat,
    pub expr: Expr,
    pub span: Span,
}

/// The condition of an `if`.
#[derive(Clone, Debug)]
pub enum Cond {
    /// A variant (`"name"`, `not`, `&&`, `||`): porf sets no variant, so a name is false.
    Variant(Variant),
    Eq(Expr, Expr),
    Subset(Expr, Expr),
    /// `e in s`: `e` is an element of the set of values `s`.
    In(Expr, Expr),
}

#[derive(Clone, Debug)]
pub enum Variant {
    Name(String),
    Not(Box<Variant>),
    And(Box<Variant>, Box<Variant>),
    Or(Box<Variant>, Box<Variant>),
}

impl Variant {
    /// Every variant is off.
    pub fn holds(&self) -> bool {
        match self {
            Variant::Name(_) => false,
            Variant::Not(v) => !v.holds(),
            Variant::And(a, b) => a.holds() && b.holds(),
            Variant::Or(a, b) => a.holds() || b.holds(),
        }
    }
}

/// What a failed check means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CheckKind {
    /// A plain check: the execution is forbidden.
    Check,
    /// `flag`: never forbids; the flag is raised when the test *holds*.
    Flag,
    /// `undefined_unless`: never forbids; a flag (undefined behaviour) when it fails.
    UndefinedUnless,
    /// `assert`: like a check.
    Assert,
}

/// `acyclic`, `irreflexive`, `empty`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Test {
    Acyclic,
    Irreflexive,
    Empty,
}

/// A top-level instruction.
#[derive(Clone, Debug)]
pub enum Instr {
    Let(Vec<Binding>, Span),
    LetRec(Vec<Binding>, Span),
    Check {
        kind: CheckKind,
        /// `~acyclic` and the like.
        negated: bool,
        test: Test,
        expr: Expr,
        name: Option<String>,
        span: Span,
    },
    Include(String, Span),
    /// `if "variant" ... else ... end`
    IfVariant(Variant, Vec<Instr>, Vec<Instr>),
    /// `show`, `unshow`: accepted, no effect.
    Show,
    /// `with x from e`: the rest of the model holds for some element of the set of
    /// values `e` bound to `x` (for a name the execution gives, such as `co`: the
    /// execution's own value is one of them).
    With(String, Expr, Span),
    /// `procedure [rec] name(args) = body end`: binds `name` to the body, run by
    /// `call`.
    Procedure(Arc<Procedure>),
    /// `call name arg [as label]`: runs the procedure's body with its parameters bound;
    /// its checks count, its bindings do not outlive the call.
    Call {
        name: String,
        arg: Expr,
        span: Span,
    },
    /// `forall x in s do body end`: the body for each element of the set of values
    /// `s`; its bindings do not outlive it.
    Forall {
        var: String,
        set: Expr,
        body: Vec<Instr>,
        span: Span,
    },
    /// `enum Name = 'a || 'b`: `Name` is the set of the tags.
    Enum(String, Vec<String>),
    /// `match e with 'a -> instrs || _ -> instrs end`: the arm of `e`'s tag runs as if
    /// written in place (its bindings stay).
    MatchTag(Expr, TagArms<Vec<Instr>>, Span),
}

/// A procedure: its parameter pattern and body; `rec` when the body may call it.
#[derive(Clone, Debug)]
pub struct Procedure {
    pub name: String,
    pub pat: Pat,
    pub body: Vec<Instr>,
    pub rec: bool,
}

/// A parsed model file: its name (the string or names at the top) and instructions.
#[derive(Clone, Debug)]
pub struct Model {
    pub name: Option<String>,
    pub instrs: Vec<Instr>,
}
