//! Deciding reachability under the causal models SRA and WRA for finite-state programs
//! with unbounded loops: the lossy "potential" memory systems loSRA (Def. 5.9) and
//! loWRA (Def. 6.5) of Lahav and Boker, *What's Decidable About Causally Consistent
//! Shared Memory?* (TOPLAS 2022), decided by backward reachability over their
//! well-structured transition systems (§8).
//!
//! **Architecture invariant**: this crate knows programs only as finite labelled
//! transition systems per thread ([`System`], [`ThreadLts`], [`Label`]) and knows
//! nothing of execution graphs, explorers, memory-model values or front ends. It is
//! pure computation: no I/O except the optional progress callback.
//!
//! **API boundary**: [`decide`] ([`System`], [`Model`], [`Limits`]) → [`Outcome`]:
//! reachable with a [`Witness`] (a run of the program, each step labelled), unreachable
//! with the fixpoint's size and iteration count, or unknown when a limit stopped the
//! search (never a guess).
//!
//! * [`option`]: read and write options and option lists (Defs. 5.7, 6.4).
//! * [`potential`]: potentials (sets of lists) and the Hoare order ⊑ (Def. 5.8).
//! * [`node`]: states of the concurrent system P ‖ loXRA, ordered by ⊑, with wildcard
//!   thread states for targets.
//! * [`pred`]: finite bases of the predecessors of an upward-closed set (§8.3), the
//!   WRITE step through index choices (§8.2, Prop. 8.4).
//! * [`prune`]: a forward over-approximation that removes transitions no run can take.
//! * [`search`]: the backward fixpoint over an antichain of minimal elements.
//!
//! Invariant of the decision: a state is reported reachable only when the backward
//! search meets an initial state, and the witness is the forward run read off the
//! search's parent links; "unreachable" is reported only at a fixpoint.

mod gate;
pub mod node;
pub mod option;
pub mod potential;
pub mod pred;
pub mod prune;
pub mod search;
mod system;

pub use search::{decide, Limits, Outcome, Progress, Witness, WitnessStep};
pub use system::{Label, Model, System, Target, ThreadLts};
