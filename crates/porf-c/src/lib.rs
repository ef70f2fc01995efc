//! porf's C front end and interpreter.
//!
//! Pipeline: [`compile_file`] preprocesses a C file with porf's bundled headers
//! (`headers`, `preprocess`), parses it with `lang-c`, type-checks and lowers it to the
//! IR of [`ir`] (`types`, `lower`); [`CProgram`] then runs the IR under the engine's
//! Action contract (`interp`, `program`).

pub mod diag;
pub mod interp;
pub mod ir;
pub mod memory;
pub mod program;

pub use diag::{DiagKind, Diagnostic};
pub use program::CProgram;

use std::path::{Path, PathBuf};

/// Front-end options.
#[derive(Clone, Debug, Default)]
pub struct FrontOptions {
    /// `-D` arguments: `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// `-I` directories, searched after the bundled headers' directory for `"..."`
    /// includes and before it for nothing (bundled headers win for `<...>`).
    pub include_dirs: Vec<PathBuf>,
}

/// Run-time options of the interpreter.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// `--unroll N`: a loop that would start its (N+1)th iteration blocks.
    pub unroll: Option<u32>,
}

/// Preprocesses, parses and lowers `path`.
pub fn compile_file(path: &Path, opts: &FrontOptions) -> Result<ir::Module, Diagnostic> {
    let _ = (path, opts);
    todo!("front end")
}
