//! The evaluator: a loaded model's instructions run over one [`Execution`].
//!
//! Values are sets, relations, tuples, functions and sets of values (herd's `{}` and
//! `e ++ s`, taken apart by `match`); `0` is the empty value, a set, a relation or a
//! set of values as its context needs. `let rec` of functions makes recursive
//! functions. `let rec` computes the least fixpoint by iterating
//! from empty values (Kleene iteration, as herd7 does) until nothing changes. A check
//! that fails forbids the execution (plain checks and `assert`); a `flag` test that
//! holds, or an `undefined_unless` test that fails, raises a flag; [`Verdict`] records
//! both. `with x from s` runs the rest of the model once per element of `s` bound to
//! `x` and keeps the first choice the model allows (herd7 makes each choice a candidate
//! execution of its own; porf's explorers enumerate executions themselves, so for a
//! name the execution gives, such as `co` in herd's `cos-opt.cat`, the choice is not
//! enumerated: the execution is allowed only if its own value is among the elements).
//! `procedure` binds a body of instructions that `call` runs with its parameters bound
//! (its bindings end with the call, its checks count, as in herd); `forall x in s`
//! runs a body per element of a set of values; a `match` on tags picks the arm of the
//! scrutinee's tag (an instruction `match`'s bindings stay, as an `if`'s do). A
//! `with` inside one of these blocks would have to take the instructions after the
//! block too, and is refused. Every error — an
//! unknown name, a type mismatch, a fixpoint that does not converge — is a
//! [`CatError`] at the position of the expression, never a panic.

use crate::ast::*;
use crate::diag::{CatError, Span};
use crate::exec::Execution;
use crate::load::Loaded;
use crate::rel::{Rel, Set};
use porf_graph::hash::FastMap;
use std::rc::Rc;
use std::sync::Arc;

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
    /// A set of values (herd's `{}`, `e ++ s`): no two elements equal.
    Values(Rc<Vec<Value>>),
    /// Function `index` of a `let rec` group of functions.
    RecFun(Rc<RecGroup>, usize),
    /// A procedure and the environment it was defined in (without itself: a `rec`
    /// procedure is bound to its name again at each call, so no value refers to
    /// itself).
    Proc(Rc<ProcValue>),
}

/// A procedure value: the procedure and the environment it was defined in.
#[derive(Debug)]
pub struct ProcValue {
    proc: Arc<Procedure>,
    env: Env,
}

/// The functions a `let rec` defines together, and the environment they were made in
/// (each body sees every function of the group).
#[derive(Debug)]
pub struct RecGroup {
    names: Vec<String>,
    funs: Vec<(Pat, std::sync::Arc<Expr>)>,
    env: Env,
}

/// Functions the interpreter provides.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Builtin {
    Domain,
    Range,
    /// `classes-loc(S)`: the events of `S` grouped by location (herd's `partition`).
    ClassesLoc,
    /// `linearisations(S, r)`: every strict total order of `S` that includes `r`
    /// restricted to `S` (none when that restriction is cyclic).
    Linearisations,
}

/// The most orders `linearisations` lists before giving up.
const MAX_LINEARISATIONS: usize = 100_000;

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
        loc: x.rels().find(|(n, _)| *n == "loc").map(|(_, r)| r.clone()),
        nested: 0,
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
    base.insert("classes-loc".into(), Value::Builtin(Builtin::ClassesLoc));
    base.insert(
        "linearisations".into(),
        Value::Builtin(Builtin::Linearisations),
    );
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
    /// The execution's same-location relation, for `classes-loc`.
    loc: Option<Rel>,
    /// How many blocks (`if`, `match`, `forall`, procedure bodies) the instructions
    /// being run sit in.
    nested: usize,
}

/// The most `let rec` iterations before giving up (a monotone definition converges in
/// at most n² + 1 over n events; more means a non-monotone definition).
const MAX_ITERATIONS: usize = 100_000;

impl Eval {
    /// Runs instructions; false once a violation stops the evaluation.
    fn instrs(&mut self, instrs: &[Instr], env: &mut Env) -> Result<bool, CatError> {
        for (i, ins) in instrs.iter().enumerate() {
            match ins {
                Instr::With(name, e, span) => {
                    return self.with(name, e, span, &instrs[i + 1..], env);
                }
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
                    if !self.nested_instrs(branch, env)? {
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
                Instr::Procedure(p) => {
                    let mut vars = FastMap::default();
                    vars.insert(
                        p.name.clone(),
                        Value::Proc(Rc::new(ProcValue {
                            proc: p.clone(),
                            env: env.clone(),
                        })),
                    );
                    *env = extend(env, vars);
                }
                Instr::Call { name, arg, span } => {
                    if !self.call(name, arg, span, env)? {
                        return Ok(false);
                    }
                }
                Instr::Forall { var, set, body, .. } => {
                    for elem in self.elements(set, env, "forall")? {
                        let mut vars = FastMap::default();
                        vars.insert(var.clone(), elem);
                        let mut inner = extend(env, vars);
                        if !self.nested_instrs(body, &mut inner)? {
                            return Ok(false);
                        }
                    }
                }
                Instr::Enum(name, tags) => {
                    let set = tags.iter().map(|t| Value::Tag(t.clone())).collect();
                    let mut vars = FastMap::default();
                    vars.insert(name.clone(), Value::Values(Rc::new(set)));
                    *env = extend(env, vars);
                }
                Instr::MatchTag(scrutinee, arms, _) => {
                    let arm = self.tag_arm(scrutinee, arms, env)?;
                    if !self.nested_instrs(arm, env)? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// Instructions run inside another (`if`, a procedure's body, `forall`, a `match`
    /// arm), where a `with` would have to take the instructions after the enclosing
    /// one too: `with` is refused there.
    fn nested_instrs(&mut self, instrs: &[Instr], env: &mut Env) -> Result<bool, CatError> {
        self.nested += 1;
        let go_on = self.instrs(instrs, env);
        self.nested -= 1;
        go_on
    }

    /// `call name arg`: the body runs in the procedure's environment with its
    /// parameters (and, for `rec`, itself) bound; false once a violation stops the
    /// evaluation.
    fn call(&mut self, name: &str, arg: &Expr, span: &Span, env: &Env) -> Result<bool, CatError> {
        let pv = match lookup(env, name) {
            Some(Value::Proc(pv)) => pv.clone(),
            Some(v) => {
                return Err(CatError::at(
                    span,
                    format!("`call {name}`: {name} is {}, not a procedure", kind(v)),
                ))
            }
            None => return Err(CatError::at(span, format!("unbound procedure `{name}`"))),
        };
        let x = self.expr(arg, env)?;
        let p = &pv.proc;
        let mut vars = FastMap::default();
        if p.rec {
            vars.insert(p.name.clone(), Value::Proc(pv.clone()));
        }
        bind(&p.pat, x, &mut vars, span)?;
        let mut inner = extend(&pv.env, vars);
        self.nested_instrs(&p.body, &mut inner)
    }

    /// The elements of a set of values (a tag alone is its own one-element set, as
    /// in herd).
    fn elements(&mut self, e: &Expr, env: &Env, what: &str) -> Result<Vec<Value>, CatError> {
        match self.expr(e, env)? {
            Value::Empty => Ok(Vec::new()),
            Value::Values(vs) => Ok(vs.to_vec()),
            t @ Value::Tag(_) => Ok(vec![t]),
            v => Err(CatError::at(
                e.span(),
                format!("`{what}` needs a set of values, not {}", kind(&v)),
            )),
        }
    }

    /// The arm of a `match` on a tag that `scrutinee`'s value selects.
    fn tag_arm<'a, T>(
        &mut self,
        scrutinee: &Expr,
        arms: &'a TagArms<T>,
        env: &Env,
    ) -> Result<&'a T, CatError> {
        match self.expr(scrutinee, env)? {
            Value::Tag(t) => arms.select(&t).ok_or_else(|| {
                CatError::at(
                    scrutinee.span(),
                    format!("pattern matching failed on value '{t}"),
                )
            }),
            v => Err(CatError::at(
                scrutinee.span(),
                format!("`match` with tag arms on {}, not a tag", kind(&v)),
            )),
        }
    }

    /// `with name from e`, then `rest` (module docs).
    fn with(
        &mut self,
        name: &str,
        e: &Expr,
        span: &Span,
        rest: &[Instr],
        env: &mut Env,
    ) -> Result<bool, CatError> {
        if self.nested > 0 {
            return Err(CatError::at(
                span,
                "`with` inside `if`, `match`, `forall` or a procedure is not supported by \
                 porf's cat interpreter",
            ));
        }
        let choices = match self.expr(e, env)? {
            Value::Empty => Vec::new(),
            Value::Values(vs) => vs.to_vec(),
            v => {
                return Err(CatError::at(
                    e.span(),
                    format!("`with` needs a set of values, not {}", kind(&v)),
                ))
            }
        };
        if given_by_execution(env, name) {
            let own = lookup(env, name).expect("bound").clone();
            if choices.iter().any(|c| same(c, &own)) {
                return self.instrs(rest, env);
            }
            self.verdict.violated.push(format!(
                "the execution's {name} is not a choice of `with` at {span}"
            ));
            return Ok(false);
        }
        let before = self.verdict.clone();
        let mut refused = None;
        for c in choices {
            self.verdict = before.clone();
            let mut vars = FastMap::default();
            vars.insert(name.to_string(), c);
            let mut e2 = extend(env, vars);
            let go_on = self.instrs(rest, &mut e2)?;
            if self.verdict.violated.len() == before.violated.len() {
                *env = e2;
                return Ok(go_on);
            }
            refused.get_or_insert_with(|| self.verdict.clone());
        }
        self.verdict = refused.unwrap_or_else(|| {
            let mut v = before;
            v.violated
                .push(format!("no choice for {name} in `with` at {span}"));
            v
        });
        Ok(false)
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
        if binds.iter().any(|b| matches!(b.expr, Expr::Fun(..))) {
            return rec_functions(binds, env);
        }
        let mut names = Vec::new();
        for b in binds {
            match (&b.pat, &b.expr) {
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
            Expr::MatchSet(m, _) => {
                let elems = match self.expr(&m.scrutinee, env)? {
                    Value::Empty => Vec::new(),
                    Value::Values(vs) => vs.to_vec(),
                    v => {
                        return Err(CatError::at(
                            m.scrutinee.span(),
                            format!(
                                "`match` over {} is not supported by porf's cat interpreter \
                                 (only over sets of values)",
                                kind(&v)
                            ),
                        ))
                    }
                };
                let Some((first, others)) = elems.split_first() else {
                    return self.expr(&m.empty, env);
                };
                let mut vars = FastMap::default();
                if let Some(x) = &m.elem {
                    vars.insert(x.clone(), first.clone());
                }
                if let Some(r) = &m.rest {
                    vars.insert(r.clone(), Value::Values(Rc::new(others.to_vec())));
                }
                self.expr(&m.nonempty, &extend(env, vars))?
            }
            Expr::ExplicitSet(items, _) => {
                let mut vs: Vec<Value> = Vec::with_capacity(items.len());
                for i in items {
                    let v = self.expr(i, env)?;
                    if !vs.iter().any(|w| same(w, &v)) {
                        vs.push(v);
                    }
                }
                Value::Values(Rc::new(vs))
            }
            Expr::MatchTag(scrutinee, arms, _) => {
                let arm = self.tag_arm(scrutinee, arms, env)?;
                self.expr(arm, env)?
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
                    Cond::In(x, s) => {
                        let vx = self.expr(x, env)?;
                        self.elements(s, env, "in")?.iter().any(|e| same(e, &vx))
                    }
                };
                self.expr(if holds { a } else { b }, env)?
            }
        })
    }

    fn apply(&mut self, f: Value, x: Value, span: &Span) -> Result<Value, CatError> {
        match f {
            Value::Builtin(b @ (Builtin::Domain | Builtin::Range)) => match x {
                Value::Empty => Ok(Value::Empty),
                Value::Rel(r) => Ok(Value::Set(Rc::new(match b {
                    Builtin::Domain => r.domain(),
                    _ => r.range(),
                }))),
                v => Err(CatError::at(
                    span,
                    format!("`{}` needs a relation, not {}", builtin_name(b), kind(&v)),
                )),
            },
            Value::Builtin(Builtin::ClassesLoc) => {
                let s = self.as_set(x, "classes-loc", span)?;
                Ok(self.classes_loc(&s))
            }
            Value::Builtin(Builtin::Linearisations) => match x {
                Value::Tuple(xs) if xs.len() == 2 => {
                    let mut it = xs.into_iter();
                    let s = self.as_set(it.next().expect("2"), "linearisations", span)?;
                    let r = match it.next().expect("2") {
                        Value::Empty => Rel::empty(self.n),
                        Value::Rel(r) => (*r).clone(),
                        v => {
                            return Err(CatError::at(
                                span,
                                format!("`linearisations` needs a relation, not {}", kind(&v)),
                            ))
                        }
                    };
                    linearisations(&s, &r, self.n, span)
                }
                v => Err(CatError::at(
                    span,
                    format!(
                        "`linearisations` needs a set and a relation, not {}",
                        kind(&v)
                    ),
                )),
            },
            Value::RecFun(group, i) => {
                let fns = group
                    .names
                    .iter()
                    .enumerate()
                    .map(|(k, n)| (n.clone(), Value::RecFun(group.clone(), k)))
                    .collect();
                let inner = extend(&group.env, fns);
                let (pat, body) = &group.funs[i];
                let mut vars = FastMap::default();
                bind(pat, x, &mut vars, span)?;
                self.expr(body, &extend(&inner, vars))
            }
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

impl Eval {
    fn as_set(&self, v: Value, what: &str, span: &Span) -> Result<Set, CatError> {
        match v {
            Value::Empty => Ok(Set::empty(self.n)),
            Value::Set(s) => Ok((*s).clone()),
            v => Err(CatError::at(
                span,
                format!("`{what}` needs a set, not {}", kind(&v)),
            )),
        }
    }

    /// The events of `s` grouped by the execution's `loc` (an event related to no
    /// other alone).
    fn classes_loc(&self, s: &Set) -> Value {
        let mut left: Vec<usize> = s.iter().collect();
        let mut classes = Vec::new();
        while let Some(&e) = left.first() {
            let same: Vec<usize> = left
                .iter()
                .copied()
                .filter(|&f| f == e || self.loc.as_ref().is_some_and(|l| l.contains(e, f)))
                .collect();
            left.retain(|f| !same.contains(f));
            let mut class = Set::empty(self.n);
            for f in same {
                class.add(f);
            }
            classes.push(Value::Set(Rc::new(class)));
        }
        Value::Values(Rc::new(classes))
    }
}

/// Every strict total order of `s` including `r` restricted to `s`, as transitive
/// relations; an error past [`MAX_LINEARISATIONS`].
fn linearisations(s: &Set, r: &Rel, n: usize, span: &Span) -> Result<Value, CatError> {
    fn go(
        left: &mut Vec<usize>,
        order: &mut Vec<usize>,
        r: &Rel,
        n: usize,
        out: &mut Vec<Value>,
    ) -> bool {
        if left.is_empty() {
            let mut o = Rel::empty(n);
            for (i, &a) in order.iter().enumerate() {
                for &b in &order[i + 1..] {
                    o.add(a, b);
                }
            }
            out.push(Value::Rel(Rc::new(o)));
            return out.len() <= MAX_LINEARISATIONS;
        }
        for k in 0..left.len() {
            let e = left[k];
            // `e` may come next when no event still to place must precede it.
            if left.iter().any(|&f| f != e && r.contains(f, e)) {
                continue;
            }
            left.remove(k);
            order.push(e);
            let go_on = go(left, order, r, n, out);
            order.pop();
            left.insert(k, e);
            if !go_on {
                return false;
            }
        }
        true
    }
    let mut left: Vec<usize> = s.iter().collect();
    let mut out = Vec::new();
    if !go(&mut left, &mut Vec::new(), r, n, &mut out) {
        return Err(CatError::at(
            span,
            format!("`linearisations` has more than {MAX_LINEARISATIONS} orders"),
        ));
    }
    Ok(Value::Values(Rc::new(out)))
}

/// A `let rec` whose bindings are all functions: one [`RecGroup`].
fn rec_functions(binds: &[Binding], env: &Env) -> Result<Vec<(String, Value)>, CatError> {
    let mut names = Vec::new();
    let mut funs = Vec::new();
    for b in binds {
        match (&b.pat, &b.expr) {
            (Pat::Var(Some(n)), Expr::Fun(pat, body, _)) => {
                names.push(n.clone());
                funs.push((pat.clone(), body.clone()));
            }
            _ => {
                return Err(CatError::at(
                    &b.span,
                    "a `let rec` defines either functions or sets and relations, not both",
                ))
            }
        }
    }
    let group = Rc::new(RecGroup {
        names: names.clone(),
        funs,
        env: env.clone(),
    });
    Ok(names
        .into_iter()
        .enumerate()
        .map(|(i, n)| (n, Value::RecFun(group.clone(), i)))
        .collect())
}

/// Whether `name` in `env` is the execution's own binding (the outermost frame), not
/// one the model made.
fn given_by_execution(mut env: &Env, name: &str) -> bool {
    while let Some(parent) = &env.parent {
        if env.vars.contains_key(name) {
            return false;
        }
        env = parent;
    }
    env.vars.contains_key(name)
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
        Value::Values(_) => "a set of values".into(),
        Value::RecFun(..) => "a function".into(),
        Value::Proc(..) => "a procedure".into(),
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
        Builtin::ClassesLoc => "classes-loc",
        Builtin::Linearisations => "linearisations",
    }
}

/// Equality of sets, relations, tags, tuples and sets of values, the empty value equal
/// to every empty one.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Empty, Value::Empty) => true,
        (Value::Empty, Value::Set(s)) | (Value::Set(s), Value::Empty) => s.is_empty(),
        (Value::Empty, Value::Rel(r)) | (Value::Rel(r), Value::Empty) => r.is_empty(),
        (Value::Set(x), Value::Set(y)) => x == y,
        (Value::Rel(x), Value::Rel(y)) => x == y,
        (Value::Empty, Value::Values(v)) | (Value::Values(v), Value::Empty) => v.is_empty(),
        (Value::Values(x), Value::Values(y)) => {
            x.len() == y.len() && x.iter().all(|a| y.iter().any(|b| same(a, b)))
        }
        (Value::Tag(x), Value::Tag(y)) => x == y,
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
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
        (Op2::Add, e, Empty) => Value::Values(Rc::new(vec![e])),
        (Op2::Add, e, Value::Values(vs)) => {
            if vs.iter().any(|v| same(v, &e)) {
                Value::Values(vs)
            } else {
                let mut vs = (*vs).clone();
                vs.push(e);
                Value::Values(Rc::new(vs))
            }
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
                   empty ctrlcfence(po, R) \\ po as ctrlcfence-ok\n\
                   ~empty ctrlcfence(rf | po, R) as ctrlcfence-two-arguments\n\
                   empty domain(rf) \\ W as dom\nempty range(co) & IW as rng\n\
                   if \"v\" acyclic id as never end";
        assert_eq!(run(src).unwrap(), Verdict::default());
    }

    /// herd's sets of values: `{}`, `++`, `match`, recursive functions, and the
    /// primitives `classes-loc` and `linearisations`, on the four-event execution.
    #[test]
    fn sets_of_values_match_and_recursive_functions() {
        // The size of a set of values, by recursion: as a relation `r` that has one
        // more pair per element (pairs taken from a fixed chain).
        let src = "let rec count s = match s with || {} -> 0 || _ ++ rest -> \
                   succ (count rest) end\n\
                   and succ r = if r = 0 then [IW] else (if r = [IW] then [W] else [_])\n\
                   let two = count (rf ++ (co ++ {}))\nempty two \\ [W] as two\n\
                   empty [W] \\ two as two-back\n\
                   let one = count (rf ++ (rf ++ {}))\nempty one \\ [IW] as dup\n\
                   empty [IW] \\ one as dup-back";
        assert_eq!(run(src).unwrap(), Verdict::default());
        // `loc` relates every event here: one class of all writes.
        let src = "let p = classes-loc(W)\nlet only = match p with || {} -> 0 \
                   || c ++ rest -> match rest with || {} -> c || _ ++ _ -> 0 end end\n\
                   empty W \\ only as one-class\nempty only \\ W as no-more";
        assert_eq!(run(src).unwrap(), Verdict::default());
        let e = run("let x = match W with || {} -> 0 || a ++ b -> a end").unwrap_err();
        assert!(e.msg.contains("only over sets of values"), "{e}");
    }

    #[test]
    fn linearisations_are_the_total_orders_extending_the_relation() {
        let span = Span {
            file: "t.cat".into(),
            line: 1,
            col: 1,
        };
        let count = |s: &Set, r: &Rel| match linearisations(s, r, 4, &span).unwrap() {
            Value::Values(v) => {
                for o in v.iter() {
                    let Value::Rel(o) = o else { panic!("{o:?}") };
                    assert!(o.is_acyclic(), "{o:?}");
                    assert!(r.inter(&Rel::product(s, s)).diff(o).is_empty(), "{o:?}");
                    assert_eq!(
                        o.pairs().count(),
                        s.iter().count() * s.iter().count().saturating_sub(1) / 2
                    );
                }
                v.len()
            }
            v => panic!("{v:?}"),
        };
        let all = Set::full(4);
        let none = Rel::empty(4);
        assert_eq!(count(&all, &none), 24);
        assert_eq!(count(&all, &Rel::from_pairs(4, [(0, 1)])), 12);
        assert_eq!(
            count(&all, &Rel::from_pairs(4, [(0, 1), (1, 2), (2, 3)])),
            1
        );
        assert_eq!(count(&all, &Rel::from_pairs(4, [(0, 1), (1, 0)])), 0);
        // Pairs outside the set do not constrain it.
        let two = Set::from_fn(4, |i| i < 2);
        assert_eq!(count(&two, &Rel::from_pairs(4, [(2, 3), (3, 2)])), 2);
        assert_eq!(count(&Set::empty(4), &none), 1);
    }

    #[test]
    fn with_checks_the_executions_own_co() {
        let v = run("let k = linearisations(W, co^-1)\nwith co from k").unwrap();
        assert_eq!(v.violated.len(), 1, "{v:?}");
        assert!(
            v.violated[0].contains("the execution's co is not a choice"),
            "{v:?}"
        );
        let v = run("let k = linearisations(W, 0)\nwith co from k\nacyclic co as ok").unwrap();
        assert!(v.allowed(), "{v:?}");
        let v = run("let z = linearisations(W, co | co^-1)\nwith o from z").unwrap();
        assert!(v.violated[0].contains("no choice for o"), "{v:?}");
    }

    #[test]
    fn with_keeps_the_first_choice_the_model_allows() {
        // Two orders of the writes; only the one against co makes `o ; co` cyclic
        // ... empty: the choice co^-1 fails `empty o & co`, co passes.
        let src = "let k = linearisations(W, 0)\nwith o from k\nempty o & co^-1 as picks-co\n\
                   flag ~empty o as chosen";
        let v = run(src).unwrap();
        assert!(v.allowed(), "{v:?}");
        assert_eq!(v.flags, ["chosen"]);
        let v = run("let k = linearisations(W, 0)\nwith o from k\nempty o as never").unwrap();
        assert_eq!(v.violated, ["never"]);
        // A variant test's taken branch stands in its place: its `with` takes the
        // rest of the model (here nothing to choose from: forbidden).
        let v = run("if \"v\" else with o from 0 end\nacyclic id as after").unwrap();
        assert!(v.violated[0].contains("no choice for o"), "{v:?}");
    }

    /// herd's instructions `procedure`/`call`, `forall`, `enum`, `match` on tags,
    /// explicit sets, `in` and `let rec ... when`, on the four-event execution (whose
    /// rf and co are not empty and whose po-loc | rf | co | fr has the CoRR cycle).
    #[test]
    fn procedures_forall_enums_and_tag_matches() {
        let src = "enum Kind = 'a || 'b\nlet s = {rf, co, rf}\n\
                   forall r in s do empty r \\ (rf | co) as inside end\n\
                   let f k = match k with 'a -> rf || 'b -> co end\n\
                   forall k in Kind do ~empty f k as nonempty end\n\
                   let x = if rf in s then co else 0\nempty co \\ x as in-ok\n\
                   let y = if po in s then co else 0\nempty y as not-in\n\
                   let d = match 'c with 'a -> 0 || _ -> rf end\nempty rf \\ d as dflt\n\
                   procedure ok(r, t) = acyclic r as p-ok empty t as p-empty end\n\
                   call ok(po, 0)\n\
                   let rec t = rf | t ; po when acyclic t as t-acyclic";
        assert_eq!(run(src).unwrap(), Verdict::default());
        // Two elements, one of them given twice: the set has two.
        let src = "let rec n s = match s with || {} -> 0 || _ ++ r -> [IW] | n r end\n\
                   let two = {rf, co, rf}\nempty n two \\ [IW] as fine";
        assert_eq!(run(src).unwrap(), Verdict::default());
        let v = run("procedure sc(r) = acyclic r as named end\ncall sc(po-loc | rf | co | fr)")
            .unwrap();
        assert_eq!(v.violated, ["named"]);
        let v =
            run("match 'two with 'one -> acyclic id as one || _ -> empty rf as other end").unwrap();
        assert_eq!(v.violated, ["other"]);
        let src = "procedure rec down(k) = match k with 'two -> call down('one) \
                   || 'one -> empty rf as reached || _ -> end end\ncall down('two)";
        assert_eq!(run(src).unwrap().violated, ["reached"]);
        let v = run("let rec c = po-loc | rf | co | fr | c ; c when acyclic c as cyc").unwrap();
        assert_eq!(v.violated, ["cyc"]);
        let e = run("procedure p(x) = let y = x end\ncall p(rf)\nlet z = y").unwrap_err();
        assert!(e.msg.contains("unbound name `y`"), "{e}");
        let e = run("let g = match 'c with 'a -> rf end").unwrap_err();
        assert!(e.msg.contains("pattern matching failed on value 'c"), "{e}");
        let e = run("procedure p(x) = with o from x end\ncall p(0)").unwrap_err();
        assert!(e.msg.contains("`with` inside"), "{e}");
        let e = run("call nowhere(rf)").unwrap_err();
        assert!(e.msg.contains("unbound procedure `nowhere`"), "{e}");
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
