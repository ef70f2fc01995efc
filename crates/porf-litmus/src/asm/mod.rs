//! herd's assembly litmus tests (AArch64, RISC-V, PPC, X86): the parser and the typed
//! instructions of [`ir`].
//!
//! ```text
//! AArch64 NAME                        (RISCV, PPC, X86; an optional `(texname)`)
//! "optional doc string"
//! Key=value lines, other text         (skipped up to the `{`, as herd does)
//! { 0:X1=x; 1:X3=y; x=1; uint64_t z; }
//!  P0          | P1          ;        (the thread table: one column per thread,
//!  MOV W0,#1   | LDR W0,[X1] ;         rows ending with `;`, empty cells, labels
//!  STR W0,[X1] | L0:         ;         `L0:` alone or before an instruction)
//! locations [x; 1:X0;]                (optional)
//! filter PROP                         (optional)
//! exists PROP | ~exists PROP | forall PROP | final PROP [with NAME: exists; ...]
//! << herd configuration blocks >>     (ignored, as herd ignores them)
//! ```
//!
//! The initial state and the constraints use the C format's grammar ([`crate::parse`]).
//! Comments are `(* *)`. The table ends at the first of herd's constraint keywords
//! (`exists`, `~exists`, `forall`, `final`, `locations`, `filter`, `observed`, `cases`)
//! outside comments. An instruction porf does not read is an error naming the
//! construct ("unsupported AArch64 instruction `LDP`"); nothing is guessed.

mod aarch64;
mod cell;
pub mod check;
pub mod ir;
pub mod layout;
pub mod machine;
mod ppc;
mod riscv;
mod table;
mod x86;

use crate::ast::{Cond, InitItem, Loc, Pos, Prop, Quant};
use crate::parse::LitmusError;
pub use ir::*;

/// A parsed assembly litmus test.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AsmLitmus {
    pub arch: Arch,
    pub file: String,
    pub name: String,
    pub doc: Option<String>,
    /// herd's `Key=value` lines before the initial state.
    pub info: Vec<(String, String)>,
    pub init: Vec<InitItem>,
    /// Threads, `P0`, `P1`, ... in order.
    pub threads: Vec<AsmThread>,
    pub locations: Vec<(Loc, Pos)>,
    pub filter: Option<Prop>,
    pub cond: Cond,
    /// herd's `with NAME: exists; ...` after the condition (information only).
    pub kinds: Vec<(String, Quant)>,
}

/// The architecture of a test from its first word, if it is one of the four.
pub fn arch_of(text: &str) -> Option<Arch> {
    let mut t = text;
    // Leading blanks and `(* *)` comments.
    loop {
        t = t.trim_start();
        if let Some(r) = t.strip_prefix("(*") {
            t = r.split_once("*)").map_or("", |(_, r)| r);
        } else {
            break;
        }
    }
    Arch::from_header(t.split_whitespace().next()?)
}

/// Parses an assembly litmus test `text`, read from `file`.
pub fn parse_asm(file: &str, text: &str) -> Result<AsmLitmus, LitmusError> {
    table::parse(file, text)
}

#[cfg(test)]
mod machine_tests;
#[cfg(test)]
mod tests;
