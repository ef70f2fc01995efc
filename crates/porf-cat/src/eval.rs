//! The evaluator: a loaded model's instructions run over one [`Execution`].
//!
//! Values are sets, relations, tuples and functions; `0` is the empty value, a set or a
//! relation as its context needs. `let rec` computes the least fixpoint by iterating
//! from empty values (Kleene iteration, as herd7 does) until nothing changes. A check
//! that fails forbids the execution (plain checks and `assert`); a `flag` test that
//! holds, or an `undefined_unless` test that fails, raises a flag; [`Verdict`] records
//! both. Every error — an
//! unknown name, a type mismatch, a fixpoint that does not converge — is a
//! [`CatError`] at the position of the expression, never a panic.

use crate::ast::*;
use crate::diag::{CatError, Span};
use crate::exec::Execution;
use crate::load::Loaded;
use crate::rel::{Rel, Set};
use porf_graph::hash::FastMap;
use std::rc::Rc;

/// A value of the cat language.
#[derive(Clone, Debug)]
pub enum Value {
    /// `0`: the empty set or relation.
    Empty,
    Set(Rc<Set>),
    Rel(Rc<Rel>),
    Tuple(Vec<Value>),
    Fun(Rc<Closure>),
    Builtin(Builtin),
    Tag(String),
}

/// Functions the interpreter provides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    Domain,
    Range,
}

/// A function value: its parameter pattern, body and the environment it was made in.
#[derive(Debug)]
pub struct Closure {
    pat: Pat,
    body: std::sync::Arc<Expr>,
    env: Env,
}

/// Scopes: a frame of bindings over its parent's. Extending an environment is O(1) and
/// shares everything below, so closures capture theirs for free.
#[derive(Debug, Default)]
struct Frame {
    vars: FastMap<String, Value>,
    parent: Option<Env>,
}

type Env = Rc<Frame>;

fn lookup<'e>(mut env: &'e Env, name: &str) -> Option<&'e Value> {
    loop {
        if let Some(v) = env.vars.get(name) {
            return Some(v);
        }
        env = env.parent.as_ref()?;
    }
}

fn extend(env: &Env, vars: FastMap<String, Value>) -> Env {
    Rc::new(Frame {
        vars,
        parent: Some(env.clone()),
    })
}

/// The outcome of a model on an execution.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The checks that failed and forbid the execution (their `as` names, else
    /// `check at FILE:LINE:COL`).
    pub violated: Vec<String>,
    /// The flags raised: `flag` tests that hold (herd's `flag ~empty dr as Dr` raises
    /// `Dr` when `dr` is not empty) and `undefined_unless` tests that fail.
    pub flags: Vec<String>,
}

impl Verdict {
    /// Whether the model allows the execution.
    pub fn allowed(&self) -> bool {
        self.violated.is_empty()
    }
}

/// Runs `model` over `x`. With `first_violation`, stops at the first failed plain
/// check (the flags after it are then not computed).
pub fn evaluate(model: &Loaded, x: &Execution, first_violation: bool) -> Result<Verdict, CatError> {
    let mut ev = Eval {
        n: x.len(),
        verdict: Verdict::default(),
        first_violation,
    };
    let mut base: FastMap<String, Value> = FastMap::default();
    for (name, s) in x.sets() {
        base.insert(name.to_string(), Value::Set(Rc::new(s.clone())));
    }
    for (name, r) in x.rels() {
        base.insert(name.to_string(), Value::Rel(Rc::new(r.clone())));
    }
    base.insert(
        "id".into(),
        Value::Rel(Rc::new(Rel::id(&Set::full(x.len())))),
    );
    base.insert("domain".into(), Value::Builtin(Builtin::Domain));
    base.insert("range".into(), Value::Builtin(Builtin::Range));
    let mut env: Env = Rc::new(Frame {
        vars: base,
        parent: None,
    });
    for part in [&model.prelude, &model.instrs] {
        if !ev.instrs(part, &mut env)? {
            break;
        }
    }
    Ok(ev.verdict)
}

struct Eval {
    n: usize,
    verdict: Verdict,
    first_violation: bool,
}

/// The most `let rec` iterations before giving up (a monotone definition converges in
/// at most n² + 1 over n events; more means a non-monotone definition).
const MAX_ITERATIONS: usize = 100_000;

impl Eval {
    /// Runs instructions; false once a violation stops the evaluation.
    fn instrs(&mut self, instrs: &[Instr], env: &mut Env) -> Result<bool, CatError> {
        for ins in instrs {
            match ins {
                Instr::Let(binds, _) => {
                    let mut vars = FastMap::default();
                    for b in binds {
                        let v = self.expr(&b.expr, env)?;
                        bind(&b.pat, v, &mut vars, &b.span)?;
                    }
                    *env = extend(env, vars);
                }
                Instr::LetRec(binds, span) => {
                    let vars = self.fixpoint(binds, env, span)?.into_iter().collect();
                    *env = extend(env, vars);
                }
                Instr::Check {
                    kind,
                    negated,
                    test,
                    expr,
                    name,
                    span,
                } => {
                    let v = self.expr(expr, env)?;
                    let holds = self.test(*test, &v, expr.span())? != *negated;
                    let label = || name.clone().unwrap_or_else(|| format!("check at {span}"));
                    match kind {
                        CheckKind::Check | CheckKind::Assert if !holds => {
                            self.verdict.violated.push(label());
                            if self.first_violation {
                                return Ok(false);
                            }
                        }
                        // herd raises a flag when its test holds (`flag ~empty dr`).
                        CheckKind::Flag if holds => self.verdict.flags.push(label()),
                        CheckKind::UndefinedUnless if !holds => self.verdict.flags.push(label()),
                        _ => {}
                    }
                }
                Instr::IfVariant(v, yes, no) => {
                    let branch = if v.holds() { yes } else { no };
                    if !self.instrs(branch, env)? {
                        return Ok(false);
                    }
                }
                Instr::Include(file, span) => {
                    return Err(CatError::at(
                        span,
                        format!("include \"{file}\" was not resolved"),
                    ))
                }
                Instr::Show => {}
            }
        }
        Ok(true)
    }

    fn test(&self, test: Test, v: &Value, span: &Span) -> Result<bool, CatError> {
        Ok(match (test, v) {
            (_, Value::Empty) => true,
            (Test::Empty, Value::Set(s)) => s.is_empty(),
            (Test::Empty, Value::Rel(r)) => r.is_empty(),
            (Test::Acyclic, Value::Rel(r)) => r.is_acyclic(),
            (Test::Irreflexive, Value::Rel(r)) => r.is_irreflexive(),
            (t, v) => {
                return Err(CatError::at(
                    span,
                    format!("`{}` needs a relation, not {}", test_name(t), kind(v)),
                ))
            }
        })
    }

    fn fixpoint(
        &mut self,
        binds: &[Binding],
        env: &Env,
        span: &Span,
    ) -> Result<Vec<(String, Value)>, CatError> {
        let mut names = Vec::new();
        for b in binds {
            match (&b.pat, &b.expr) {
                (_, Expr::Fun(..)) => {
                    return Err(CatError::at(
                        &b.span,
                        "recursive functions are not supported by porf's cat interpreter",
                    ))
                }
                (Pat::Var(Some(n)), _) => names.push(n.clone()),
                _ => {
                    return Err(CatError::at(
                        &b.span,
                        "`let rec` binds names, not tuples or `_`",
                    ))
                }
            }
        }
        let mut cur: Vec<Value> = vec![Value::Empty; binds.len()];
        for _ in 0..MAX_ITERATIONS {
            let vars = names.iter().cloned().zip(cur.iter().cloned()).collect();
            let e = extend(env, vars);
            let mut next = Vec::with_capacity(binds.len());
            for b in binds {
                let v = self.expr(&b.expr, &e)?;
                if !matches!(v, Value::Empty | Value::Set(_) | Value::Rel(_)) {
                    return Err(CatError::at(
                        b.expr.span(),
                        format!("`let rec` defines sets and relations, not {}", kind(&v)),
                    ));
                }
                next.push(v);
            }
            if next.iter().zip(&cur).all(|(a, b)| same(a, b)) {
                return Ok(names.into_iter().zip(next).collect());
            }
            cur = next;
        }
        Err(CatError::at(
            span,
            "`let rec` does not reach a fixpoint (a non-monotone definition?)",
        ))
    }

    fn expr(&mut self, e: &Expr, env: &Env) -> Result<Value, CatError> {
        let n = self.n;
        Ok(match e {
            Expr::Empty(_) | Expr::EmptySet(_) => Value::Empty,
            Expr::Universe(_) => Value::Set(Rc::new(Set::full(n))),
            Expr::Var(name, span) => lookup(env, name)
                .cloned()
                .ok_or_else(|| CatError::at(span, format!("unbound name `{name}`")))?,
            Expr::Tag(t, _) => Value::Tag(t.clone()),
            Expr::Op1(op, a, span) => {
                let v = self.expr(a, env)?;
                op1(*op, v, n, span)?
            }
            Expr::Op2(op, a, b, span) => {
                let x = self.expr(a, env)?;
                let y = self.expr(b, env)?;
                op2(*op, x, y, span)?
            }
            Expr::Tuple(items, _) => Value::Tuple(
                items
                    .iter()
                    .map(|i| self.expr(i, env))
                    .collect::<Result<_, _>>()?,
            ),
            Expr::App(f, x, span) => {
                let f = self.expr(f, env)?;
                let x = self.expr(x, env)?;
                self.apply(f, x, span)?
            }
            Expr::Fun(pat, body, _) => Value::Fun(Rc::new(Closure {
                pat: pat.clone(),
                body: body.clone(),
                env: env.clone(),
            })),
            Expr::Let(binds, body, _) => {
                let mut vars = FastMap::default();
                for b in binds {
                    let v = self.expr(&b.expr, env)?;
                    bind(&b.pat, v, &mut vars, &b.span)?;
                }
                self.expr(body, &extend(env, vars))?
            }
            Expr::LetRec(binds, body, span) => {
                let vars = self.fixpoint(binds, env, span)?.into_iter().collect();
                self.expr(body, &extend(env, vars))?
            }
            Expr::Try(a, alt, _) => match self.expr(a, env) {
                Ok(v) => v,
                Err(_) => self.expr(alt, env)?,
            },
            Expr::If(cond, a, b, _) => {
                let holds = match &**cond {
                    Cond::Variant(v) => v.holds(),
                    Cond::Eq(x, y) => {
                        let (vx, vy) = (self.expr(x, env)?, self.expr(y, env)?);
                        same(&vx, &vy)
                    }
                    Cond::Subset(x, y) => {
                        let (vx, vy) = (self.expr(x, env)?, self.expr(y, env)?);
                        let d = op2(Op2::Diff, vx, vy, x.span())?;
                        self.test(Test::Empty, &d, x.span())?
                    }
                };
                self.expr(if holds { a } else { b }, env)?
            }
        })
    }

    fn apply(&mut self, f: Value, x: Value, span: &Span) -> Result<Value, CatError> {
        match f {
            Value::Builtin(b) => match x {
                Value::Empty => Ok(Value::Empty),
                Value::Rel(r) => Ok(Value::Set(Rc::new(match b {
                    Builtin::Domain => r.domain(),
                    Builtin::Range => r.range(),
                }))),
                v => Err(CatError::at(
                    span,
                    format!("`{}` needs a relation, not {}", builtin_name(b), kind(&v)),
                )),
            },
            Value::Fun(c) => {
                let mut vars = FastMap::default();
                bind(&c.pat, x, &mut vars, span)?;
                self.expr(&c.body, &extend(&c.env, vars))
            }
            v => Err(CatError::at(
                span,
                format!("{} applied as a function", kind(&v)),
            )),
        }
    }
}

fn bind(
    pat: &Pat,
    v: Value,
    env: &mut FastMap<String, Value>,
    span: &Span,
) -> Result<(), CatError> {
    match pat {
        Pat::Var(Some(n)) => {
            env.insert(n.clone(), v);
        }
        Pat::Var(None) => {}
        Pat::Tuple(names) => match v {
            Value::Tuple(vs) if vs.len() == names.len() => {
                for (n, v) in names.iter().zip(vs) {
                    if let Some(n) = n {
                        env.insert(n.clone(), v);
                    }
                }
            }
            v => {
                return Err(CatError::at(
                    span,
                    format!("a tuple of {} expected, found {}", names.len(), kind(&v)),
                ))
            }
        },
    }
    Ok(())
}

fn kind(v: &Value) -> String {
    match v {
        Value::Empty => "the empty relation".into(),
        Value::Set(_) => "a set".into(),
        Value::Rel(_) => "a relation".into(),
        Value::Tuple(xs) => format!("a tuple of {}", xs.len()),
        Value::Fun(_) | Value::Builtin(_) => "a function".into(),
        Value::Tag(t) => format!("the tag '{t}"),
    }
}

fn test_name(t: Test) -> &'static str {
    match t {
        Test::Acyclic => "acyclic",
        Test::Irreflexive => "irreflexive",
        Test::Empty => "empty",
    }
}

fn builtin_name(b: Builtin) -> &'static str {
    match b {
        Builtin::Domain => "domain",
        Builtin::Range => "range",
    }
}

/// Equality of sets and relations, the empty value equal to every empty one.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Empty, Value::Empty) => true,
        (Value::Empty, Value::Set(s)) | (Value::Set(s), Value::Empty) => s.is_empty(),
        (Value::Empty, Value::Rel(r)) | (Value::Rel(r), Value::Empty) => r.is_empty(),
        (Value::Set(x), Value::Set(y)) => x == y,
        (Value::Rel(x), Value::Rel(y)) => x == y,
        _ => false,
    }
}

fn op1(op: Op1, v: Value, n: usize, span: &Span) -> Result<Value, CatError> {
    let rel = |r: Rel| Value::Rel(Rc::new(r));
    Ok(match (op, v) {
        (Op1::Star | Op1::Opt, Value::Empty) => rel(Rel::id(&Set::full(n))),
        (Op1::Plus | Op1::Inv | Op1::ToId, Value::Empty) => Value::Empty,
        (Op1::Star, Value::Rel(r)) => rel(r.star()),
        (Op1::Plus, Value::Rel(r)) => rel(r.plus()),
        (Op1::Opt, Value::Rel(r)) => rel(r.opt()),
        (Op1::Inv, Value::Rel(r)) => rel(r.inverse()),
        (Op1::Comp, Value::Rel(r)) => rel(r.complement()),
        (Op1::Comp, Value::Set(s)) => Value::Set(Rc::new(s.complement())),
        (Op1::ToId, Value::Set(s)) => rel(Rel::id(&s)),
        (op, v) => {
            let what = match op {
                Op1::Star => "`*`",
                Op1::Plus => "`+`",
                Op1::Opt => "`?`",
                Op1::Inv => "`^-1`",
                Op1::Comp => "`~`",
                Op1::ToId => "`[...]`",
            };
            let need = if op == Op1::ToId {
                "a set"
            } else if op == Op1::Comp {
                "a set or a relation"
            } else {
                "a relation"
            };
            return Err(CatError::at(
                span,
                format!("{what} needs {need}, not {}", kind(&v)),
            ));
        }
    })
}

fn op2(op: Op2, x: Value, y: Value, span: &Span) -> Result<Value, CatError> {
    use Value::{Empty, Rel as R, Set as S};
    let rel = |r: Rel| R(Rc::new(r));
    let set = |s: Set| S(Rc::new(s));
    Ok(match (op, x, y) {
        (Op2::Union, Empty, v) | (Op2::Union, v, Empty) => v,
        (Op2::Diff, v, Empty) => v,
        (Op2::Inter | Op2::Diff | Op2::Seq | Op2::Cartesian, Empty, _)
        | (Op2::Inter | Op2::Seq | Op2::Cartesian, _, Empty) => Empty,
        (Op2::Union, S(a), S(b)) => set(a.union(&b)),
        (Op2::Inter, S(a), S(b)) => set(a.inter(&b)),
        (Op2::Diff, S(a), S(b)) => set(a.diff(&b)),
        (Op2::Cartesian, S(a), S(b)) => rel(Rel::product(&a, &b)),
        (Op2::Union, R(a), R(b)) => rel(a.union(&b)),
        (Op2::Inter, R(a), R(b)) => rel(a.inter(&b)),
        (Op2::Diff, R(a), R(b)) => rel(a.diff(&b)),
        (Op2::Seq, R(a), R(b)) => rel(a.seq(&b)),
        (Op2::Add, _, _) => {
            return Err(CatError::at(
                span,
                "`++` is not supported by porf's cat interpreter",
            ))
        }
        (op, a, b) => {
            let what = match op {
                Op2::Union => "`|`",
                Op2::Inter => "`&`",
                Op2::Diff => "`\\`",
                Op2::Seq => "`;`",
                Op2::Cartesian => "`*`",
                Op2::Add => "`++`",
            };
            let need = match op {
                Op2::Seq => "two relations",
                Op2::Cartesian => "two sets",
                _ => "two sets or two relations",
            };
            return Err(CatError::at(
                span,
                format!("{what} needs {need}, not {} and {}", kind(&a), kind(&b)),
            ));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load_str;
    use std::path::{Path, PathBuf};

    /// Four events: 0 = IW x, 1 = W x (T0), 2 = R x (T1) reading 1, 3 = R x (T1)
    /// reading 0; po 2 -> 3.
    fn exec() -> Execution {
        let mut x = Execution::new(4);
        x.set("R", Set::from_fn(4, |i| i >= 2));
        x.set("W", Set::from_fn(4, |i| i < 2));
        x.set("F", Set::empty(4));
        x.set("IW", Set::from_fn(4, |i| i == 0));
        x.set("FW", Set::from_fn(4, |i| i == 1));
        x.rel("po", Rel::from_pairs(4, [(2, 3)]));
        x.rel("rf", Rel::from_pairs(4, [(1, 2), (0, 3)]));
        x.rel("co", Rel::from_pairs(4, [(0, 1)]));
        x.rel("loc", Rel::product(&Set::full(4), &Set::full(4)));
        x.rel(
            "int",
            Rel::from_pairs(4, [(0, 0), (1, 1), (2, 2), (2, 3), (3, 2), (3, 3)]),
        );
        x.finish();
        x
    }

    fn run(src: &str) -> Result<Verdict, CatError> {
        let m = load_str(Path::new("t.cat"), src, &[])?;
        evaluate(&m, &exec(), false)
    }

    #[test]
    fn coherence_violation_is_found() {
        // CoRR: 2 reads the new value, then 3 the initial one.
        let v = run("\"t\"\nacyclic po-loc | rf | co | fr as sc-per-loc").unwrap();
        assert_eq!(v.violated, vec!["sc-per-loc".to_string()]);
        assert!(!v.allowed());
        let v = run("acyclic po | rf as ok\nflag ~empty fr as has-fr\nflag empty fr").unwrap();
        assert!(v.allowed());
        assert_eq!(v.flags, ["has-fr"]);
    }

    #[test]
    fn let_rec_is_the_least_fixpoint() {
        // The transitive closure of rf | po by iteration equals `+`.
        let src = "let r = rf | po\nlet rec t = r | t ; t\n\
                   empty t \\ r+ as below\nempty r+ \\ t as above\n\
                   let rec a = b | [IW] and b = a ; 0\nempty a \\ [IW] as mutual";
        assert_eq!(run(src).unwrap(), Verdict::default());
        let e = run("let rec t = rf \\ t").unwrap_err();
        assert!(e.msg.contains("fixpoint"), "{e}");
    }

    #[test]
    fn functions_tuples_and_conditionals() {
        let src = "let f(a, b) = a ; b\nlet g = fun r -> r^-1\nlet (x, y) = (rf, co)\n\
                   empty f(x, g rf) \\ id as f-ok\n\
                   let h s = [s] ; po\nempty h(R) \\ po as h-ok\n\
                   let z = if \"nothing\" then 0 else co\nempty co \\ z as if-ok\n\
                   let w = try undefined-name with rf\nempty rf \\ w as try-ok\n\
                   empty fencerel(R) \\ po as prelude-ok\n\
                   empty domain(rf) \\ W as dom\nempty range(co) & IW as rng\n\
                   if \"v\" acyclic id as never end";
        assert_eq!(run(src).unwrap(), Verdict::default());
    }

    #[test]
    fn type_errors_name_their_position() {
        let e = run("\"t\"\nlet x = R ; po").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.cat:2:11: error: `;` needs two relations, not a set and a relation"
        );
        let e = run("acyclic R").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("t.cat:1:9: error: `acyclic` needs a relation"),
            "{e}"
        );
        let e = run("let f(a, b) = a\nlet x = f(po)").unwrap_err();
        assert!(e.to_string().contains("a tuple of 2 expected"), "{e}");
    }

    #[test]
    fn includes_resolve_next_to_the_file_then_on_the_search_path() {
        let dir = std::env::temp_dir().join(format!("porf-cat-inc-{}", std::process::id()));
        let (here, lib) = (dir.join("here"), dir.join("lib"));
        std::fs::create_dir_all(&here).unwrap();
        std::fs::create_dir_all(&lib).unwrap();
        std::fs::write(here.join("a.cat"), "let a = rf\ninclude \"b.cat\"").unwrap();
        std::fs::write(lib.join("b.cat"), "let b = a | co").unwrap();
        std::fs::write(here.join("loop.cat"), "include \"loop.cat\"").unwrap();
        let main = here.join("main.cat");
        let src = "\"m\"\ninclude \"stdlib.cat\"\ninclude \"a.cat\"\nempty b \\ (rf | co) as ok";
        let dirs: Vec<PathBuf> = vec![lib.clone()];
        let m = load_str(&main, src, &dirs).unwrap();
        assert_eq!(evaluate(&m, &exec(), false).unwrap(), Verdict::default());
        let e = load_str(&main, src, &[]).unwrap_err();
        assert!(e.msg.contains("cannot find included file \"b.cat\""), "{e}");
        let e = load_str(&main, "include \"loop.cat\"", &[]).unwrap_err();
        assert!(e.msg.contains("includes itself"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
