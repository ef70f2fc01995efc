//! A parsed litmus test: locations, initial state, threads (C bodies kept as byte
//! ranges of the file), and the final condition, with herd's printing of conditions.

use std::fmt;

/// A 1-based line and byte column in the litmus file.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

/// What a condition, a `locations` item or an initialisation talks about: a shared
/// location (`x`, `[x]`) or a thread's register (`1:r0`).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Loc {
    /// A register of thread `Pn`. Sorts before globals, as herd prints them.
    Reg(u32, String),
    Global(String),
}

impl fmt::Display for Loc {
    /// herd's spelling: `1:r0` for registers, `[x]` for shared locations.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Reg(t, r) => write!(f, "{t}:{r}"),
            Loc::Global(x) => write!(f, "[{x}]"),
        }
    }
}

/// A value in the initial state or a condition: an integer or the address of a
/// location (`p = &x` in the init block, `0:r0=x` in a condition).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Value {
    Int(i64),
    Addr(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Addr(x) => write!(f, "{x}"),
        }
    }
}

/// An atomic proposition about the final state.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Atom {
    /// `loc = value`
    Eq(Loc, Value),
    /// `loc = loc'` (herd's `x=*y`, `[x]=[y]`, `x=1:r0`): both hold the same value.
    EqLoc(Loc, Loc),
}

/// A proposition over the final state (herd's `prop`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Prop {
    Atom(Atom, Pos),
    Not(Box<Prop>),
    /// Conjunction; `And(vec![])` is `true`.
    And(Vec<Prop>),
    /// Disjunction; `Or(vec![])` is `false`.
    Or(Vec<Prop>),
    Implies(Box<Prop>, Box<Prop>),
}

impl Prop {
    /// Evaluates the proposition, `val` giving each location's final value and each
    /// address value's number.
    pub fn eval(&self, val: &dyn Fn(&Loc) -> i64, addr: &dyn Fn(&Value) -> i64) -> bool {
        match self {
            Prop::Atom(Atom::Eq(l, v), _) => val(l) == addr(v),
            Prop::Atom(Atom::EqLoc(a, b), _) => val(a) == val(b),
            Prop::Not(p) => !p.eval(val, addr),
            Prop::And(ps) => ps.iter().all(|p| p.eval(val, addr)),
            Prop::Or(ps) => ps.iter().any(|p| p.eval(val, addr)),
            Prop::Implies(a, b) => !a.eval(val, addr) || b.eval(val, addr),
        }
    }

    /// Every location the proposition mentions (with the position of its atom), in
    /// order of appearance; address values are not locations.
    pub fn locs(&self, out: &mut Vec<(Loc, Pos)>) {
        match self {
            Prop::Atom(Atom::Eq(l, _), p) => out.push((l.clone(), *p)),
            Prop::Atom(Atom::EqLoc(a, b), p) => {
                out.push((a.clone(), *p));
                out.push((b.clone(), *p));
            }
            Prop::Not(q) => q.locs(out),
            Prop::And(ps) | Prop::Or(ps) => ps.iter().for_each(|q| q.locs(out)),
            Prop::Implies(a, b) => {
                a.locs(out);
                b.locs(out);
            }
        }
    }

    /// Every address value (`x` in `0:r0=x`) with its atom's position.
    pub fn addrs(&self, out: &mut Vec<(String, Pos)>) {
        match self {
            Prop::Atom(Atom::Eq(_, Value::Addr(x)), p) => out.push((x.clone(), *p)),
            Prop::Atom(..) => {}
            Prop::Not(q) => q.addrs(out),
            Prop::And(ps) | Prop::Or(ps) => ps.iter().for_each(|q| q.addrs(out)),
            Prop::Implies(a, b) => {
                a.addrs(out);
                b.addrs(out);
            }
        }
    }
}

/// Operator context for herd's parenthesisation (`ConstrGen.pp_prop`).
#[derive(Copy, Clone, PartialEq, Eq)]
enum Ctx {
    Top,
    And,
    Or,
    Implies,
}

fn paren(above: Ctx, here: Ctx, s: String) -> String {
    let p = match (above, here) {
        (Ctx::Top, _) => false,
        (Ctx::Implies, Ctx::Implies) => false,
        (Ctx::Implies, _) => true,
        (Ctx::And, Ctx::And) => false,
        (Ctx::And, _) => true,
        (Ctx::Or, Ctx::Implies) => true,
        (Ctx::Or, _) => false,
    };
    if p {
        format!("({s})")
    } else {
        s
    }
}

fn pp(p: &Prop, above: Ctx) -> String {
    match p {
        Prop::Atom(Atom::Eq(l, v), _) => format!("{l}={v}"),
        Prop::Atom(Atom::EqLoc(a, b), _) => format!("{a}={b}"),
        Prop::Not(q) => format!("not ({})", pp(q, Ctx::Top)),
        Prop::And(ps) if ps.is_empty() => "true".into(),
        Prop::Or(ps) if ps.is_empty() => "false".into(),
        Prop::And(ps) => paren(
            above,
            Ctx::And,
            ps.iter()
                .map(|q| pp(q, Ctx::And))
                .collect::<Vec<_>>()
                .join(" /\\ "),
        ),
        Prop::Or(ps) => paren(
            above,
            Ctx::Or,
            ps.iter()
                .map(|q| pp(q, Ctx::Or))
                .collect::<Vec<_>>()
                .join(" \\/ "),
        ),
        Prop::Implies(a, b) => paren(
            above,
            Ctx::Implies,
            format!("{} => {}", pp(a, Ctx::Implies), pp(b, Ctx::Implies)),
        ),
    }
}

impl fmt::Display for Prop {
    /// herd's printing (`ConstrGen.prop_to_string`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&pp(self, Ctx::Top))
    }
}

/// The quantifier of the final condition.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Quant {
    /// `exists P`: some final state satisfies P (herd: "Allowed").
    Exists,
    /// `~exists P`: no final state satisfies P ("Forbidden").
    NotExists,
    /// `forall P`: every final state satisfies P ("Required").
    Forall,
}

impl Quant {
    /// herd's `Test NAME <kind>` word.
    pub fn kind(self) -> &'static str {
        match self {
            Quant::Exists => "Allowed",
            Quant::NotExists => "Forbidden",
            Quant::Forall => "Required",
        }
    }
}

/// The final condition.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Cond {
    pub quant: Quant,
    pub prop: Prop,
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let q = match self.quant {
            Quant::Exists => "exists",
            Quant::NotExists => "~exists",
            Quant::Forall => "forall",
        };
        write!(f, "{q} ({})", self.prop)
    }
}

/// One item of the initial state: `[x] = 1`, `int* p = &x`, `0:r0 = 2`, `int y`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InitItem {
    pub loc: Loc,
    /// The declared C type (`int`, `atomic_int`, `int*`; in assembly tests also an
    /// array `uint8_t[128]`, all cells 0), if any.
    pub ty: Option<String>,
    pub value: Value,
    pub pos: Pos,
}

/// A parameter `atomic_int* x` of a thread: bound to the shared location `x`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Param {
    /// The declared type, e.g. `atomic_int*` (always a pointer).
    pub ty: String,
    pub name: String,
    pub pos: Pos,
}

impl Param {
    /// The type of the location the parameter points to (`atomic_int` for
    /// `atomic_int* x`).
    pub fn pointee(&self) -> String {
        let t = self.ty.trim_end();
        t.strip_suffix('*').unwrap_or(t).trim().to_string()
    }
}

/// A thread `Pn (params) { body }`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Thread {
    pub id: u32,
    /// Position of the `Pn` name.
    pub pos: Pos,
    pub params: Vec<Param>,
    /// Byte offset of the `(` opening the parameter list.
    pub params_start: usize,
    /// Byte offset just past the `{` opening the body.
    pub body_start: usize,
    /// Byte offset of the `}` closing the body.
    pub body_end: usize,
}

/// A litmus test.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Litmus {
    /// The file name as given (used in diagnostics and `#line` directives).
    pub file: String,
    /// The whole text of the file.
    pub text: String,
    pub name: String,
    /// The doc string, if any.
    pub doc: Option<String>,
    pub init: Vec<InitItem>,
    /// Threads, ordered by id (`P0`, `P1`, ...).
    pub threads: Vec<Thread>,
    /// The `locations [...]` line, if any.
    pub locations: Vec<(Loc, Pos)>,
    /// herd's `filter P`: executions whose final state fails P are discarded.
    pub filter: Option<Prop>,
    pub cond: Cond,
}

impl Litmus {
    /// The locations herd shows in final states: those of the `locations` line and
    /// of the condition, sorted as herd sorts them (registers by thread, then shared
    /// locations), without duplicates.
    pub fn observed(&self) -> Vec<Loc> {
        observed(&self.locations, &self.cond)
    }

    /// The locations whose final values porf must know: the observed ones and those
    /// of the filter.
    pub fn needed(&self) -> Vec<Loc> {
        needed(&self.locations, &self.cond, self.filter.as_ref())
    }
}

/// The locations herd shows in final states, of a test with `locations` and `cond`
/// (see [`Litmus::observed`]).
pub fn observed(locations: &[(Loc, Pos)], cond: &Cond) -> Vec<Loc> {
    let mut v: Vec<(Loc, Pos)> = locations.to_vec();
    cond.prop.locs(&mut v);
    sorted(v)
}

/// The locations whose final values a test's verdict needs (see [`Litmus::needed`]).
pub fn needed(locations: &[(Loc, Pos)], cond: &Cond, filter: Option<&Prop>) -> Vec<Loc> {
    let mut v: Vec<(Loc, Pos)> = locations.to_vec();
    cond.prop.locs(&mut v);
    if let Some(f) = filter {
        f.locs(&mut v);
    }
    sorted(v)
}

fn sorted(v: Vec<(Loc, Pos)>) -> Vec<Loc> {
    let mut locs: Vec<Loc> = v.into_iter().map(|(l, _)| l).collect();
    locs.sort();
    locs.dedup();
    locs
}
