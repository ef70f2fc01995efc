//! The rules shared by the closures of VerifyTSO and VerifyPSO (§4.3 of "The Reads-From
//! Equivalence for the TSO and PSO Memory Models", Bui, Chatterjee, Gautam,
//! Pavlogiannis, Toman, OOPSLA 2021), over a transitively closed [`Relation`] `P` on
//! the nodes of a trace (thread events and memory events).
//!
//! Invariant kept by both functions: `P` stays transitively closed and acyclic; a
//! `None` answer means the pair to add would close a cycle (no witness trace exists,
//! since every pair added holds in every witness trace).

use crate::relation::Relation;

/// For a node `r` that must come after the memory event `s` (`None`: the
/// initialisation, before everything) with no memory event of the location in between,
/// and another memory event `m` of the location: `m <P r ⇒ m <P s` and
/// `s <P m ⇒ r <P m`. Whether P grew; `None` on a cycle.
pub(super) fn implies(p: &mut Relation, s: Option<usize>, m: usize, r: usize) -> Option<bool> {
    let mut changed = false;
    if p.contains(m, r) {
        // With the initialisation as source, `m <P r` is itself the contradiction.
        changed |= add(p, m, s?)?;
    }
    let after_s = match s {
        None => true,
        Some(s) => p.contains(s, m),
    };
    if after_s {
        changed |= add(p, r, m)?;
    }
    Some(changed)
}

/// Adds `a <P b`, keeping P closed. Whether P grew; `None` if that closes a cycle.
pub(super) fn add(p: &mut Relation, a: usize, b: usize) -> Option<bool> {
    if a == b || p.contains(b, a) {
        return None;
    }
    Some(p.insert_closed(a, b))
}
