//! porf-toy: a tiny loop-free concurrent program IR for testing porf's explorers.
//!
//! **Architecture invariant**: a front end. It produces `Action`s and never looks at
//! graphs, models or explorers (those appear only in its tests).
//!
//! **API boundary**: [`ProgramBuilder`], [`ToyProgram`], [`random_program`] with
//! [`GenConfig`], and the [`catalog`] of classic programs.
//!
//! * [`expr`]: thread-local registers ([`Reg`]) and pure expressions ([`Expr`]).
//! * [`builder`]: [`ProgramBuilder`]/[`ThreadBuilder`], a Rust API to write programs with
//!   structured `if`s, flattened into jumps.
//! * [`interp`]: the flat instruction form ([`Instr`]), [`ToyProgram`] (a
//!   [`porf_graph::Program`]) and [`ToyThread`] (a [`porf_graph::ThreadMachine`]).
//! * [`random`]: [`random_program`], a seeded generator of small programs for
//!   differential testing.
//!
//! A program's main thread (thread 0) is generated: it spawns every declared thread in
//! declaration order (entry `i` is the `i`-th declared thread), then joins them all
//! (unless [`ProgramBuilder::no_join`]) and finishes.
//!
//! Memory is one-byte cells ([`CELL_BYTES`]): ordinary locations `Loc(1)`, `Loc(2)`, ...
//! which always exist, and the cells of heap blocks ([`ProgramBuilder::block`]), placed
//! from [`BLOCK_BASE`], which exist only between a [`ThreadBuilder::malloc`] and a
//! [`ThreadBuilder::free`] of their block ([`porf_graph::Program::block_of`] tells the
//! explorers which block an address is in). Mutexes are ordinary locations used by
//! `lock`/`trylock`/`unlock`, `mutex_init` and `mutex_destroy`.
//!
//! ```
//! use porf_graph::MemOrder::Relaxed as Rlx;
//! use porf_toy::ProgramBuilder;
//!
//! let mut p = ProgramBuilder::new();
//! let (x, y) = (p.loc("x"), p.loc("y"));
//! p.thread(|t| {
//!     t.store(x, 1, Rlx);
//!     t.load(y, Rlx);
//! });
//! p.thread(|t| {
//!     t.store(y, 1, Rlx);
//!     let b = t.load(x, Rlx);
//!     t.if_eq(b, 1, |t| t.store(x, 2, Rlx), |_| {});
//! });
//! let prog = p.build();
//! assert_eq!(prog.num_threads(), 2);
//! ```

pub mod builder;
pub mod catalog;
pub mod expr;
pub mod interp;
pub mod random;

pub use builder::{ProgramBuilder, ThreadBuilder};
pub use expr::{add, and, eq, lt, ne, not, or, sub, Expr, Reg};
pub use interp::{
    BlockDecl, Instr, LocDecl, RmwKind, ThreadCode, ToyBlock, ToyProgram, ToyThread, BLOCK_BASE,
    BLOCK_STRIDE, CELL_BYTES,
};
pub use random::{random_program, GenConfig};

#[cfg(test)]
mod tests;
