//! porf-toylang: the toy language of Lahav and Boker, "What's Decidable About Causally
//! Consistent Shared Memory?" (TOPLAS 2022, §2.1, Fig. 1–2), as a porf front end and
//! as a thread-local transition system.
//!
//! **Architecture invariant**: a front end. It knows nothing of execution graphs,
//! memory models or explorers: it turns `.toy` files into a [`Program`], gives each
//! thread's local semantics as a pure LTS ([`Program::successors`]; no porf types),
//! and runs programs under porf's `Action` contract ([`ToyLangProgram`]). Which
//! values a read may return is the memory model's business, never this crate's.
//!
//! **API boundary**: [`parse`]/[`parse_file`] → [`Program`] (or a [`Diagnostic`] with
//! file:line:col); the local semantics [`ThreadState`], [`LocalLabel`],
//! [`Program::initial_state`], [`Program::successors`], [`Program::is_terminated`],
//! [`Program::assertion_failure`], [`Program::final_assertion_fails`]; `Display` of a
//! [`Program`] (a listing that parses back); [`ToyLangProgram`] (a
//! `porf_graph::Program`) with [`RunOptions`]; [`random_program`] with [`GenConfig`].
//!
//! # The format
//!
//! ```text
//! # comment to end of line
//! values 4                 # Val = {0,1,2,3}; all arithmetic is modulo 4
//! locations x y            # shared locations
//! init x = 0, y = 0        # explicit initialisation (happens-before everything)
//! thread T1                # threads run in parallel; names are free identifiers
//!   x := 1                 # write
//!   a := y                 # read into register a
//!   if a == 0 goto 5       # conditional jump to instruction index 5, or to a label
//!   b := FADD(x, 1)        # fetch-and-add, returns the old value
//!   c := CAS(x, 1, 2)      # returns the old value; writes 2 iff old == 1
//!   d := XCHG(x, 3)        # exchange, returns the old value
//!   assume a != 0          # blocks the thread if false
//!   assert b == 0          # an assertion failure (an error) if false
//!   goto L                 # sugar for `if 1 goto L`
//! L: a := a + 1            # labels `name:`
//! thread T2
//!   ...
//! final assert !(T1.a == 2 && T2.b == 0)
//! ```
//!
//! One declaration or instruction per line.
//!
//! * `values N` (required, `2 <= N <= 65536`): the value domain is `0..N`. Every
//!   literal must lie in it; `+ - *` are computed modulo `N` (so `0 - 1` is `N - 1`;
//!   there is no unary minus); `FADD(x, e)` adds modulo `N`; `== != < <= > >=` compare
//!   as naturals and yield 0 or 1; `&& || !` treat non-zero as true and yield 0 or 1.
//!   Precedence, loosest first: `||`, `&&`, comparisons, `+ -`, `*`, `!`; binary
//!   operators associate to the left; parentheses group.
//! * `locations x y ...` (commas optional; may repeat): the shared locations, indexed
//!   in declaration order.
//! * `init x = v, ...` (may repeat): main writes these, in order, before it starts the
//!   threads, so they happen-before every access. A location not initialised here is
//!   *uninitialised*: a read of it, or an RMW on it, blocks the thread until some
//!   thread has written it (Lahav and Boker, Remark 1) — in porf, an execution in
//!   which a read reads "no write" is blocked, not complete. The seed paper's examples
//!   initialise locations in the threads themselves (`x := 0` as a thread's first
//!   instruction), which this allows.
//! * `thread NAME`: starts a thread; the instructions follow, one per line, indexed
//!   from 0 within the thread. Declarations come before the first thread.
//! * Registers: any identifier that is not a declared location (nor a keyword) is a
//!   register of the thread that mentions it; every register starts at 0.
//!   `r := x` with `x` a location is a read, `x := e` a write, `r := e` an assignment;
//!   a location inside an expression is an error (read it into a register first).
//! * Jumps: `if e goto n` continues at index `n` (or at a label) iff `e` is non-zero;
//!   `goto n` always. An index past the end terminates the thread (the paper: the
//!   execution terminates when pc leaves the program's domain). A label alone on a
//!   line names the next instruction (or the end of the thread).
//! * `final assert e` (optional, last line): `e` names registers as `THREAD.REG`; it is
//!   checked once every thread has terminated, and its failure is an error.
//!
//! Keywords (reserved): `values locations init thread final assert assume if goto
//! FADD CAS XCHG`. Every malformed input (duplicate names, undeclared locations used
//! as memory, literals outside the domain, unknown labels, a missing `values`, ...) is
//! a [`Diagnostic`] `file:line:col: error: ...`, never a panic.
//!
//! # Under porf
//!
//! See [`machine`]: main performs the `init` writes, spawns the threads, joins them and
//! checks the final assertion; every access is release/acquire (reads `acquire`,
//! writes `release`, RMWs `acq_rel`), as in the paper's models; reads of
//! uninitialised locations block (a reserved initial value, [`UNINIT`], that no
//! write can produce).

pub mod diag;
mod lex;
pub mod local;
pub mod machine;
pub mod parse;
pub mod program;
pub mod random;

pub use diag::Diagnostic;
pub use local::{LocalLabel, ThreadState};
pub use machine::{RunOptions, ToyLangProgram, ToyLangThread, UNINIT};
pub use parse::{parse, parse_file, KEYWORDS, MAX_VALUES};
pub use program::{BinOp, Expr, FinalAssert, Instr, Pos, Program, Stmt, Thread, Value};
pub use random::{random_program, GenConfig};

#[cfg(test)]
mod tests;
