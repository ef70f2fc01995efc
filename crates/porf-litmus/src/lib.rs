//! herd's litmus formats for porf: C11 tests and tests of the Linux kernel's
//! primitives run, assembly tests parsed.
//!
//! **Architecture invariant**: C11 tests become C programs for `porf-c`; kernel tests
//! are interpreted by [`kernel`]'s own thread machine (which knows the dependencies
//! of every value). Both run through the explorers' public API
//! (`porf_explore::explore` → `Stats`); nothing here looks inside an execution graph.
//!
//! **API boundary**: [`parse`], [`translate`], [`check`] and [`herd_text`] for C tests
//! ([`check`] hands tests of the kernel's primitives to [`kernel::check`]);
//! [`parse_asm`] and the typed instructions of [`asm::ir`] for herd's AArch64,
//! RISC-V, PPC and X86 tests (parsed only: nothing runs them yet).
//!
//! [`parse`] reads a test (`C NAME`, initial state, threads `Pn (params) { C }`,
//! `locations`, `filter`, and an `exists` / `~exists` / `forall` condition);
//! [`translate`] turns it into a C program for porf's front end (globals for the
//! locations, one function per thread, a `main` that spawns and joins them, registers
//! recorded in globals); [`check`] explores that program with porf's optimal explorer
//! under a memory model and counts executions and final states the way herd7 does;
//! [`herd_text`] prints herd's result lines.

pub mod asm;
pub mod ast;
mod body;
pub mod kernel;
pub mod parse;
pub mod run;
pub mod translate;

pub use asm::{arch_of, parse_asm, AsmLitmus};
pub use ast::{Cond, Litmus, Loc, Pos, Prop, Quant, Value};
pub use parse::{parse, LitmusError};
pub use run::{check, check_file, herd_text, CheckError, FinalState, Options, Outcome};
pub use translate::{translate, Translation};
