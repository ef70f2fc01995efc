//! herd's litmus formats for porf: C11 tests, tests of the Linux kernel's primitives,
//! and AArch64, RISC-V, PPC and X86 assembly tests, run with herd's verdicts.
//!
//! **Architecture invariant**: C11 tests become C programs for `porf-c`; kernel tests
//! are interpreted by [`kernel`]'s own thread machine and assembly tests by
//! [`asm::machine`] (both know the dependencies of every value). All run through the
//! explorers' public API (`porf_explore::explore` → `Stats`), the explorer chosen in
//! one place ([`run::strategy_for`]); nothing here looks inside an execution graph.
//!
//! **API boundary**: [`read_test`], [`check_test`] / [`check_file`] and [`herd_text`]
//! for any test; [`parse`], [`translate`], [`check`] for C tests ([`check`] hands tests
//! of the kernel's primitives to [`kernel::check`]); [`parse_asm`], the typed
//! instructions of [`asm::ir`] and [`asm::check::check_asm`] for herd's assembly tests.
//!
//! [`parse`] reads a test (`C NAME`, initial state, threads `Pn (params) { C }`,
//! `locations`, `filter`, and an `exists` / `~exists` / `forall` condition);
//! [`translate`] turns it into a C program for porf's front end (globals for the
//! locations, one function per thread, a `main` that spawns and joins them, registers
//! recorded in globals); [`check`] explores that program with porf's optimal explorer
//! under a memory model and counts executions and final states the way herd7 does;
//! [`herd_text`] prints herd's result lines. [`parse_asm`] reads an assembly test
//! into [`asm::ir`]'s instructions, which [`asm::machine`] runs: registers carrying
//! the reads they depend on, so that each access carries its dependencies
//! (`porf_graph::hw`).

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
pub use run::{
    check, check_file, check_test, herd_text, read_test, records_hw, sees_exclusive_pairs,
    strategy_for, CheckError, FinalState, Options, Outcome, Test,
};
pub use translate::{translate, Translation};
