//! Loading a model: parse its file, resolve its `include`s (relative to the including
//! file, then each directory of the search path, in order), put the taken branch of
//! each variant test in its place, and add porf's prelude.
//!
//! The prelude ([`PRELUDE`], porf's own text) defines the utilities herd's standard
//! library provides to every model (`fencerel`, `toid`, `co0`, `ca`, ...). herd's
//! `stdlib.cat` and `cos.cat` are never read: `include "stdlib.cat"` and
//! `include "cos.cat"` resolve to nothing, since the prelude is always there and the
//! coherence order is the execution's (herd's `cos.cat` enumerates candidate `co`s;
//! porf's explorers choose co themselves).

use crate::ast::{Instr, Model, TagArms};
use crate::diag::{CatError, Span};
use crate::parse::parse;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A model ready to evaluate: its name and instructions, includes expanded.
#[derive(Clone, Debug)]
pub struct Loaded {
    pub name: Option<String>,
    pub prelude: Vec<Instr>,
    pub instrs: Vec<Instr>,
}

/// The utilities every model may use (porf's definitions of herd's standard library
/// names; `emptyset` is the empty set, `co0` the co edges out of initial writes and
/// into final writes, `ca` coherence-after, `partition` herd's name of `classes-loc`).
pub const PRELUDE: &str = r#""porf prelude"
let emptyset = domain(0)
let toid(s) = [s]
let fencerel(S) = (po & (_ * S)) ; po
let ctrlcfence(c, S) = (c & (_ * S)) ; po
let imply(a, b) = ~a | b
let nodetour(r1, r2, r3) = r1 \ (r2 ; r3)
let singlestep(r) = nodetour(r, r, r)
let udr(r) = domain(r) | range(r)
let co0 = loc & ((IW * (W \ IW)) | ((W \ FW) * FW))
let ca = fr | co
let partition = classes-loc
"#;

/// Includes that resolve to nothing (see the module docs).
const BUILTIN_INCLUDES: &[&str] = &["stdlib.cat", "cos.cat"];

/// Loads `path` with the search path `dirs`.
pub fn load_file(path: &Path, dirs: &[PathBuf]) -> Result<Loaded, CatError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CatError::nowhere(format!("cannot read {}: {e}", path.display())))?;
    load_str(path, &text, dirs)
}

/// Loads a model whose text is `text`, as if read from `path`.
pub fn load_str(path: &Path, text: &str, dirs: &[PathBuf]) -> Result<Loaded, CatError> {
    let prelude = parse(&Arc::from("<porf prelude>"), PRELUDE)?.instrs;
    let model = parse(&Arc::from(path.display().to_string()), text)?;
    let mut stack = vec![path.to_path_buf()];
    let instrs = expand(model.instrs, path, dirs, &mut stack)?;
    Ok(Loaded {
        name: model.name,
        prelude,
        instrs,
    })
}

fn expand(
    instrs: Vec<Instr>,
    from: &Path,
    dirs: &[PathBuf],
    stack: &mut Vec<PathBuf>,
) -> Result<Vec<Instr>, CatError> {
    let mut out = Vec::new();
    for ins in instrs {
        match ins {
            Instr::Include(file, span) => {
                if BUILTIN_INCLUDES.contains(&file.as_str()) {
                    continue;
                }
                let path = resolve(&file, from, dirs, &span)?;
                if stack.iter().any(|p| same_file(p, &path)) {
                    return Err(CatError::at(&span, format!("\"{file}\" includes itself")));
                }
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    CatError::at(&span, format!("cannot read {}: {e}", path.display()))
                })?;
                let Model { instrs, .. } = parse(&Arc::from(path.display().to_string()), &text)?;
                stack.push(path.clone());
                out.extend(expand(instrs, &path, dirs, stack)?);
                stack.pop();
            }
            // Variants are fixed before evaluation (porf sets none), and herd runs
            // the taken branch's instructions as if written in place (its bindings
            // stay): the branch is put in place, so a `with` in it takes the rest of
            // the model, as in herd.
            Instr::IfVariant(v, yes, no) => {
                let taken = if v.holds() { yes } else { no };
                out.extend(expand(taken, from, dirs, stack)?);
            }
            Instr::Procedure(p) => {
                let mut p = (*p).clone();
                p.body = expand(p.body, from, dirs, stack)?;
                out.push(Instr::Procedure(Arc::new(p)));
            }
            Instr::Forall {
                var,
                set,
                body,
                span,
            } => {
                let body = expand(body, from, dirs, stack)?;
                out.push(Instr::Forall {
                    var,
                    set,
                    body,
                    span,
                });
            }
            Instr::MatchTag(e, arms, span) => {
                let mut expanded = TagArms {
                    arms: Vec::new(),
                    default: None,
                };
                for (tag, body) in arms.arms {
                    expanded.arms.push((tag, expand(body, from, dirs, stack)?));
                }
                if let Some(d) = arms.default {
                    expanded.default = Some(expand(d, from, dirs, stack)?);
                }
                out.push(Instr::MatchTag(e, expanded, span));
            }
            other => out.push(other),
        }
    }
    Ok(out)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

fn resolve(file: &str, from: &Path, dirs: &[PathBuf], span: &Span) -> Result<PathBuf, CatError> {
    let here = from.parent().unwrap_or(Path::new("."));
    let candidates = std::iter::once(here.join(file)).chain(dirs.iter().map(|d| d.join(file)));
    let mut tried = Vec::new();
    for c in candidates {
        if c.is_file() {
            return Ok(c);
        }
        tried.push(c.display().to_string());
    }
    Err(CatError::at(
        span,
        format!(
            "cannot find included file \"{file}\" (tried {})",
            tried.join(", ")
        ),
    ))
}
