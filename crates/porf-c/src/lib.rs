//! porf's C front end and interpreter.
//!
//! **Architecture invariant**: a front end. It turns C into `Action`s and never names
//! a graph, a memory model or an explorer: errors that depend on other threads (races,
//! use after free, ...) are the engine's.
//!
//! **API boundary**: [`compile_file`] → [`ir::Module`] → [`CProgram`] (a
//! `porf_graph::Program`); [`Diagnostic`]s for rejected input. [`ir`] is the contract
//! between lowering and the interpreter. [`random::random_program`] writes random
//! small C programs (source text) for differential tests.
//!
//! Pipeline: [`compile_file`] preprocesses a C file with porf's bundled headers
//! (`headers`, `preprocess`), parses it with `lang-c`, type-checks and lowers it to the
//! IR of [`ir`] (`types`, `lower`); [`CProgram`] then runs the IR under the engine's
//! Action contract (`interp`, `program`).

mod cfg;
mod comments;
pub mod diag;
mod dollar;
mod front;
mod headers;
mod int128;
pub mod interp;
pub mod ir;
mod lower;
pub mod memory;
mod preprocess;
pub mod program;
pub mod random;
pub mod random_await;
pub mod random_barrier;
mod random_gen;
pub mod random_spin;
mod scan;
pub mod spin;
mod srcmap;
pub mod symmetric;
mod types;
pub mod uninit;
pub mod unroll;
pub mod wide;

pub use diag::{DiagKind, Diagnostic};
pub use program::CProgram;
pub use types::DataModel;

use std::path::{Path, PathBuf};

/// Front-end options.
#[derive(Clone, Debug, Default)]
pub struct FrontOptions {
    /// `-D` arguments: `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// `-I` directories, searched after the bundled headers' directory for `"..."`
    /// includes and before it for nothing (bundled headers win for `<...>`).
    pub include_dirs: Vec<PathBuf>,
    /// `--data-model`: the size of `long` (LP64 by default; see [`DataModel`]). Under
    /// ILP32 the preprocessor runs with `-m32` (`__ILP32__`, `__SIZEOF_LONG__ == 4`),
    /// which porf's bundled headers follow.
    pub data_model: DataModel,
}

/// Run-time options of the interpreter.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// `--unroll N`: a loop that would start its (N+1)th iteration blocks
    /// (`BlockReason::LoopBound`): the body of a loop statement, and every cycle of the
    /// control-flow graph (loops built with `goto`, see `unroll`).
    pub unroll: Option<u32>,
    /// Spin-assume (GenMC's default; `porf verify` turns it on unless
    /// `--disable-spin-assume`): a loop iteration without effect that is about to take
    /// its back edge blocks the execution (`BlockReason::SpinLoop`; see `spin` and
    /// `interp::spin`). Off in `Default`, so library users opt in.
    pub spin_assume: bool,
    /// `--disable-zne-spin-assume`: with spin-assume on, an RMW that writes back the
    /// value it read and a failed `pthread_mutex_trylock` no longer count as reads in
    /// an iteration (see `interp::spin`), so such iterations are explored again.
    pub disable_zne_spin_assume: bool,
    /// With the zero-net-effect reductions on: a blocked iteration may also store to
    /// heap blocks the thread allocated and has not published yet (Treiber's push
    /// storing `top` into its new node), see `interp::spin`. Exact for a model in which
    /// a read that happens after a thread's write `w'` cannot read a write co-before
    /// `w'` (every model porf has), and when a thread's write cannot be passed by its
    /// later writes for a reader synchronised by them: not `pso`, whose stores to
    /// different locations may become visible out of order. Not `wra` either: no read
    /// can see the removed stores there, but the final value of a location is its
    /// co-last write, and `wra`'s co need not follow po, so a removed store can be a
    /// final value. Off in `Default`.
    pub spin_private_writes: bool,
    /// `--nondet-range LO..HI`: the values `__VERIFIER_nondet_<type>()` returns (those
    /// of `LO..=HI` that the type can hold; requires `LO <= HI`). `None`: only
    /// `__VERIFIER_nondet_bool` (domain {0, 1}) may be called; another nondet call is
    /// an unsupported-input error at the call.
    pub nondet_range: Option<(i64, i64)>,
    /// `--recursion-limit N`: a call that would make a function active more than `N`
    /// times at once (N nested recursive calls below its first activation, direct or
    /// through other functions) blocks the execution, a cut like an `--unroll` one
    /// (`BlockReason::RecursionLimit`). `None` means [`DEFAULT_RECURSION_LIMIT`].
    pub recursion_limit: Option<u32>,
    /// `--abort-blocks`: `abort()` blocks the execution like a failed assume instead
    /// of being an error (SV-COMP's reading: `abort()` only ends the path; its tasks
    /// write `assume` as `if (!(e)) abort();`). Exact for reachability: `abort()` has
    /// no effect another thread sees, so every error another thread reaches after it
    /// is reached on the path that never runs it.
    pub abort_blocks: bool,
}

/// The recursion limit when none is given: deep enough for any terminating recursion
/// of a test program, and well below `interp::MAX_CALL_DEPTH`, so that unbounded
/// recursion is a bound cut rather than an "unsupported" error.
pub const DEFAULT_RECURSION_LIMIT: u32 = 1000;

impl RunOptions {
    /// The recursion limit in force (at least 1: `main` and thread entries run).
    pub fn recursion_limit(&self) -> u32 {
        self.recursion_limit
            .unwrap_or(DEFAULT_RECURSION_LIMIT)
            .max(1)
    }
}

/// Preprocesses, parses and lowers `path`.
///
/// Never panics: the work runs on a thread with a large stack (parsing and lowering
/// recurse on the nesting depth of the program) and a panic there is reported as an
/// internal-error diagnostic.
pub fn compile_file(path: &Path, opts: &FrontOptions) -> Result<ir::Module, Diagnostic> {
    const STACK: usize = 256 << 20;
    let (p, o) = (path.to_path_buf(), opts.clone());
    let worker = std::thread::Builder::new()
        .name("porf-c".into())
        .stack_size(STACK)
        .spawn(move || front::compile(&p, &o));
    match worker.map(|h| h.join()) {
        Ok(Ok(r)) => r,
        Ok(Err(panic)) => Err(front::internal(path, panic)),
        Err(e) => Err(Diagnostic::new(
            DiagKind::Io,
            path.display().to_string(),
            1,
            1,
            format!("cannot start the front end: {e}"),
        )),
    }
}
