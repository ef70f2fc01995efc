//! herd7's cat language: memory models written as cat files, evaluated over one
//! execution at a time.
//!
//! **Architecture invariant**: the interpreter knows executions only as events with
//! named sets and relations ([`exec::Execution`]); the one place that reads a porf
//! graph is [`build`], and the one place that speaks porf's model interface is
//! [`model`]. No explorer, program, thread or front end is named here (no `Action`,
//! `ThreadMachine`). A cat file's answer comes from its text and the execution alone:
//! no model is built in, and porf's own models are never consulted (but for RMW
//! atomicity, common to every porf model, in [`model::CatModel`]'s whole-graph check).
//!
//! **API boundary**: [`load_file`] / [`load::load_str`] (a model with its includes),
//! [`evaluate`] with its [`Verdict`], [`exec::Execution`] (the interface a front end
//! fills in), [`build::from_graph`] (porf's graphs as executions), [`CatModel`] (a
//! model as a `porf_models::MemoryModel`), [`CatError`] (`file:line:col: error: ...`).
//!
//! The language is herd's (Alglave, Cousot, Maranget, "Syntax and semantics of the
//! weak consistency model specification language cat", 2016): `let`, `let rec ... and`
//! (least fixpoints), functions and application, tuples, `include`, the checks
//! `acyclic`, `irreflexive`, `empty`, their negations and `flag` forms, `show`, the
//! set and relation operators and the standard names (see [`exec`]), sets of values
//! (`{}`, `{a, b}`, `++`, `match` over them, `e in s`, `linearisations`,
//! `classes-loc`), recursive functions, `with x from s` (see [`eval`] for how a name the
//! execution gives is read), `procedure`/`call`, `forall`, `enum`, `match` on tags and
//! `let rec ... when`. What porf does not interpret (a `with` inside a block, `match`
//! over events, bell declarations) is an error at its position.

pub mod ast;
pub mod build;
pub mod diag;
pub mod eval;
pub mod exec;
mod lex;
pub mod load;
pub mod load_buffering;
pub mod model;
mod parse;
pub mod rel;

pub use diag::CatError;
pub use eval::{evaluate, Verdict};
pub use load::load_file;
pub use model::CatModel;

/// Loads the cat file `path` (search path `dirs`) as a [`CatModel`] named
/// `cat:STEM`.
pub fn model_from_file(
    path: &std::path::Path,
    dirs: &[std::path::PathBuf],
) -> Result<CatModel, CatError> {
    let loaded = load_file(path, dirs)?;
    let stem = path
        .file_stem()
        .map_or("model".into(), |s| s.to_string_lossy().into_owned());
    CatModel::new(loaded, &format!("cat:{stem}"))
}
