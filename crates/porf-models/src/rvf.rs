//! VerifySC with good-writes: the consistency question of reads-value-from (RVF)
//! exploration, from "Stateless Model Checking under a Reads-Value-From Equivalence"
//! (Agarwal, Chatterjee, Pathak, Pavlogiannis, Toman, CAV 2021), §4: Alg. 1, the
//! greedy moves and the closure of §4.2, and the guidance by an auxiliary trace.
//!
//! The question: given a set of events (each thread's events a po-prefix), and for
//! every read a set `GoodW(r)` of writes of its location (the initialisation counting
//! as a virtual write before every event), is there a *witness* — a total order of
//! all events that respects po and sync (spawn → child's start, child's last event →
//! join), executes every RMW's read and write parts back to back, and in which every
//! read reads (is after, with no write of its location in between) one of its good
//! writes? [`Instance`] is the question, [`verify`] answers it, exactly.
//!
//! Two extensions serve the explorer's exact error checks (an RVF class holds traces
//! whose hb differs, and errors are defined by hb):
//! * a read may be marked `last`: it must come after every write of its location
//!   (a lock acquire that waits for good: a deadlock);
//! * a [`TaintGoal`] asks for a witness in which an event is, or is not, hb-after
//!   another (hb as porf's SC model defines it: po, sync, and rf between atomic
//!   accesses). The search then tracks, per thread and per active write, whether it is
//!   hb-after the source; its states grow by those bits and the greedy moves that
//!   could change what a read's thread learns are switched off.
//!
//! * `instance.rs`: the input, and its dense compiled form;
//! * `closure.rs`: the closure `P` of §4.2 (a partial order every witness respects),
//!   a refutation filter and a restriction of the search to `P`-minimal events;
//! * `search.rs`: Alg. 1 over witness states.

mod closure;
mod instance;
mod search;
#[cfg(test)]
mod tests;

pub use instance::{Instance, Kind};
pub use search::{forced_sources, verify, Closure, Interrupted, Query, TaintGoal, Verdict};
