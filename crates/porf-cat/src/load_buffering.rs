//! Whether a cat model forbids load buffering (po ∪ rf cycles), read off its text:
//! [`forbids_load_buffering`] holds only when the model has an unflagged, unnegated
//! `acyclic` check (a plain check or an `assert`, at top level or in the branch of an
//! `if` porf takes) whose relation *syntactically includes* `po` and `rf`. Then every
//! execution the model allows has po ∪ rf acyclic, since a cycle of a subrelation is a
//! cycle of the relation.
//!
//! A relation syntactically includes the standard relations named by: a name (`po`,
//! `rf`, `rfe`, `rfi`); a name bound by an earlier top-level `let` to a relation,
//! inlined (a later binding shadows an earlier one, so `let po = ...` stands for what
//! it binds); a union (either side); `r+`, `r*`, `r?` (`r`). `rfe` and `rfi` together
//! count as `rf`; a name bound by `let rec`, what its definition includes with the
//! group's names including what they include so far, from nothing (the least
//! fixpoint includes every Kleene iterate). Everything else (intersections,
//! differences, sequences, functions, tuples, checks inside procedures, `forall` or
//! `match` arms) counts as including nothing: the answer errs towards "load
//! buffering allowed", never the other way, so a model that forbids load buffering
//! in a way this does not see is explored by the values explorer, which is exact for
//! every model.

use crate::ast::{CheckKind, Expr, Instr, Op1, Op2, Pat, Test};
use crate::load::Loaded;
use std::collections::{BTreeSet, HashMap};

/// The standard relations the analysis tracks.
const TRACKED: &[&str] = &["po", "rf", "rfe", "rfi"];

type Names = BTreeSet<&'static str>;

/// Whether the model's text shows that it forbids po ∪ rf cycles (module docs).
pub fn forbids_load_buffering(model: &Loaded) -> bool {
    let mut env: HashMap<String, Names> = HashMap::new();
    instrs_forbid(&model.prelude, &mut env) | instrs_forbid(&model.instrs, &mut env)
}

/// Whether one of `instrs` is a check that forbids po ∪ rf cycles; binds `env`.
fn instrs_forbid(instrs: &[Instr], env: &mut HashMap<String, Names>) -> bool {
    let mut found = false;
    for i in instrs {
        match i {
            Instr::Let(bindings, _) => {
                // `let a = e and b = f`: every right-hand side sees the old names.
                let bound: Vec<(String, Names)> = bindings
                    .iter()
                    .flat_map(|b| match &b.pat {
                        Pat::Var(Some(name)) => vec![(name.clone(), includes(&b.expr, env))],
                        Pat::Var(None) => Vec::new(),
                        Pat::Tuple(names) => names
                            .iter()
                            .flatten()
                            .map(|n| (n.clone(), Names::new()))
                            .collect(),
                    })
                    .collect();
                env.extend(bound);
            }
            Instr::LetRec(bindings, _) => {
                // Kleene's iterates from empty values are below the least fixpoint,
                // and `includes` is monotone in what the names include: the names'
                // own fixpoint, from nothing, is included in the definitions' values.
                for b in bindings {
                    let names: Vec<&String> = match &b.pat {
                        Pat::Var(Some(name)) => vec![name],
                        Pat::Var(None) => Vec::new(),
                        Pat::Tuple(names) => names.iter().flatten().collect(),
                    };
                    for n in names {
                        env.insert(n.clone(), Names::new());
                    }
                }
                loop {
                    let mut changed = false;
                    for b in bindings {
                        if let Pat::Var(Some(name)) = &b.pat {
                            let now = includes(&b.expr, env);
                            if env.get(name) != Some(&now) {
                                env.insert(name.clone(), now);
                                changed = true;
                            }
                        }
                    }
                    if !changed {
                        break;
                    }
                }
            }
            Instr::Check {
                kind: CheckKind::Check | CheckKind::Assert,
                negated: false,
                test: Test::Acyclic,
                expr,
                ..
            } => found |= covers(&includes(expr, env)),
            Instr::Check { .. } | Instr::Include(..) | Instr::Show => {}
            // The execution's own relations keep their value (`with co from ...`
            // checks membership); another name is bound to a value not analysed.
            Instr::With(name, ..) => {
                if !TRACKED.contains(&name.as_str()) {
                    env.insert(name.clone(), Names::new());
                }
            }
            Instr::IfVariant(v, then, els) => {
                let taken = if v.holds() { then } else { els };
                found |= instrs_forbid(taken, env);
            }
            // Checks run by a call, a `forall` or a `match` arm are not read (they
            // may never run); names such an arm binds get no tracked relation.
            Instr::MatchTag(_, arms, _) => {
                for body in arms.arms.iter().map(|(_, b)| b).chain(&arms.default) {
                    for name in bound_names(body) {
                        env.insert(name, Names::new());
                    }
                }
            }
            Instr::Procedure(p) => {
                env.insert(p.name.clone(), Names::new());
            }
            Instr::Enum(name, _) => {
                env.insert(name.clone(), Names::new());
            }
            Instr::Call { .. } | Instr::Forall { .. } => {}
        }
    }
    found
}

/// The names `instrs` bind where they stand (not inside nested blocks).
fn bound_names(instrs: &[Instr]) -> Vec<String> {
    let mut out = Vec::new();
    for i in instrs {
        match i {
            Instr::Let(bindings, _) | Instr::LetRec(bindings, _) => {
                for b in bindings {
                    match &b.pat {
                        Pat::Var(Some(name)) => out.push(name.clone()),
                        Pat::Var(None) => {}
                        Pat::Tuple(names) => out.extend(names.iter().flatten().cloned()),
                    }
                }
            }
            Instr::With(name, ..) | Instr::Enum(name, _) => out.push(name.clone()),
            Instr::Procedure(p) => out.push(p.name.clone()),
            Instr::IfVariant(_, a, b) => {
                out.extend(bound_names(a));
                out.extend(bound_names(b));
            }
            Instr::MatchTag(_, arms, _) => {
                for body in arms.arms.iter().map(|(_, b)| b).chain(&arms.default) {
                    out.extend(bound_names(body));
                }
            }
            Instr::Check { .. }
            | Instr::Include(..)
            | Instr::Show
            | Instr::Call { .. }
            | Instr::Forall { .. } => {}
        }
    }
    out
}

/// Whether `names` covers po and rf.
fn covers(names: &Names) -> bool {
    names.contains("po")
        && (names.contains("rf") || (names.contains("rfe") && names.contains("rfi")))
}

/// The tracked relations `e` syntactically includes.
fn includes(e: &Expr, env: &HashMap<String, Names>) -> Names {
    match e {
        Expr::Var(name, _) => match env.get(name) {
            Some(n) => n.clone(),
            None => TRACKED
                .iter()
                .copied()
                .filter(|t| *t == name.as_str())
                .collect(),
        },
        Expr::Op2(Op2::Union, a, b, _) => {
            let mut n = includes(a, env);
            n.extend(includes(b, env));
            n
        }
        Expr::Op1(Op1::Plus | Op1::Star | Op1::Opt, a, _) => includes(a, env),
        _ => Names::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::load_str;
    use std::path::Path;

    fn forbids(text: &str) -> bool {
        let m = load_str(Path::new("t.cat"), text, &[]).unwrap();
        forbids_load_buffering(&m)
    }

    #[test]
    fn unions_and_closures_of_po_and_rf() {
        assert!(forbids("acyclic po | rf"));
        assert!(forbids("acyclic (po | co | rf)+ as x"));
        assert!(forbids("let hb = po | rfe\nlet r = hb | rfi\nacyclic r"));
        assert!(forbids("let sb = po\nacyclic sb | rf as no-thin-air"));
        assert!(forbids("let rec hb = po | rf | hb ; hb\nacyclic hb"));
        assert!(forbids(
            "let rec a = po | b and b = rfe | rfi | a\nacyclic b"
        ));
        assert!(forbids(
            "let rec hb = po | rf | hb ; hb when acyclic hb as sc"
        ));
    }

    #[test]
    fn anything_less_allows_load_buffering() {
        assert!(!forbids("acyclic po-loc | rf"));
        assert!(!forbids("acyclic po | rfe"));
        assert!(!forbids("flag acyclic po | rf as f"));
        assert!(!forbids("~acyclic po | rf"));
        assert!(!forbids("irreflexive (po | rf)+"));
        assert!(!forbids("acyclic (po | rf) & loc"));
        assert!(!forbids("acyclic po ; rf"));
        // A shadowed standard name stands for what it is bound to.
        assert!(!forbids("let po = po & loc\nacyclic po | rf"));
        // A `let rec` includes what its definition does, from empty values: here
        // only po (a sequence includes nothing).
        assert!(!forbids("let rec r = po | r ; rf\nacyclic r"));
    }

    #[test]
    fn porf_s_own_files() {
        for (name, text) in [
            ("sc", include_str!("../cat/sc.cat")),
            ("tso", include_str!("../cat/tso.cat")),
            ("rc11", include_str!("../cat/rc11.cat")),
        ] {
            assert!(forbids(text), "{name}.cat");
        }
    }
}
