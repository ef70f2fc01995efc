//! Execution graphs for porf, and the `Action` contract between programs and explorers.
//!
//! **Architecture invariant**: this crate knows no memory model, no explorer and no
//! front end. It says what a thread may ask for ([`Action`]) and what an execution
//! graph holds; whether a graph is consistent is `porf-models`' question, how graphs are
//! enumerated `porf-explore`'s.
//!
//! **API boundary**: [`Action`], [`Program`] and [`ThreadMachine`] (front ends implement
//! them, [`AllReleaseAcquire`] wraps any of them); [`Graph`], [`Label`], [`LabelKind`],
//! [`EventId`] and [`View`] (models and explorers read and build graphs through them).
//!
//! * [`action`]: what a thread asks the explorer to do next ([`Action`]), and the
//!   [`Program`]/[`ThreadMachine`] traits every front end implements.
//! * [`view`]: vector clocks ([`View`]) used for porf and hb prefixes.
//! * [`label`]: the events of a graph ([`Label`], [`LabelKind`]).
//! * [`chunked`]: [`chunked::Chunked`], a thread's events in fixed-size chunks (no
//!   growth step copies a whole thread).
//! * [`graph`]: the execution graph itself: events per thread, rf, co per location,
//!   insertion stamps, restriction to prefixes.
//! * [`symmetry`]: symmetric threads (a spawn naming its symmetric predecessor),
//!   their shared prefixes, and the porf views that include them.
//! * [`hash`]: [`hash::FastMap`], a map with a fast deterministic hasher for integer
//!   keys (the graph's per-location maps).
//! * [`hw`]: what hardware and kernel models read of an event beyond its C11 label
//!   ([`Hw`]: dependencies, access annotations, fence kinds, exclusive pairs).
//! * [`release_acquire`]: [`AllReleaseAcquire`], a program wrapper making every
//!   memory access release/acquire (how Lahav and Boker's causal models read a
//!   program), for any front end.

pub mod action;
pub mod chunked;
pub mod graph;
pub mod hash;
pub mod hw;
pub mod label;
pub mod release_acquire;
pub mod symmetry;
pub mod view;

pub use action::{
    Action, BlockReason, ErrorKind, LibCall, Loc, MemOrder, Program, RmwOp, SrcLoc, Symmetry,
    ThreadMachine, Tid, Val, Wrap, MUTEX_DESTROYED,
};
pub use graph::{AccessClass, BlockInfo, Graph, LocInfo, Removed, RfUndo, SCAN_BELOW};
pub use hw::{Deps, FenceKind, Hw, Tags};
pub use label::{EventId, Label, LabelKind, Note, ReadKind, WriteKind, WIDTHLESS};
pub use release_acquire::AllReleaseAcquire;
pub use view::View;
