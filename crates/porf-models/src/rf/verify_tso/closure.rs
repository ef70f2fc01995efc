//! The closure of "The Reads-From Equivalence for the TSO and PSO Memory Models" (§4.3):
//! the weakest partial order P on the nodes that contains the instance's base
//! constraints (program order, buffer → memory, FIFO, barriers, spawn/join, a remote
//! source's memory event before its read) and is closed under, for every read `r` of
//! location `x` with source memory event `s` (the initialisation counts as a memory
//! event before everything) and every other memory event `m` of `x`:
//!
//! * `m <P r` implies `m <P s` (no write to `x` between `s` and `r`; for a read of
//!   the initialisation, `m <P r` is a contradiction);
//! * `s <P m` implies `r <P m`;
//!
//! and, for an RMW whose read part reads `s` and whose write part's memory event is
//! `w` (atomicity: `w` immediately follows `s` among the memory events of `x`), for
//! every memory event `m` of `x` other than `s` and `w`:
//!
//! * `m <P w` implies `m <P s`, and `s <P m` implies `w <P m`.
//!
//! Each rule holds in every witness trace (a read of `s` either runs while `s` is
//! still in its own thread's buffer, before `s`'s memory event, or reads memory after
//! it with no memory event of `x` in between), so P is sound: if it has a cycle there
//! is no witness, and otherwise every witness is a linearisation of P. It is not
//! complete: an acyclic P does not guarantee a witness.

use super::instance::Instance;
use crate::relation::Relation;
use crate::rf::closure::{add, implies};

/// The closure, transitively closed, or `None` if it has a cycle.
pub(super) fn closure(inst: &Instance) -> Option<Relation> {
    let mut p = Relation::empty(inst.nodes.len());
    for &(a, b) in &inst.base {
        add(&mut p, a, b)?;
    }
    loop {
        let mut changed = false;
        for r in &inst.reads {
            let s = r.src.map(|s| inst.writes[s].memory);
            let wp = r.write_part.map(|w| inst.writes[w].memory);
            for &m in &inst.loc_writes[r.loc] {
                let m = inst.writes[m].memory;
                if Some(m) == s {
                    continue;
                }
                changed |= implies(&mut p, s, m, r.node)?;
                if let Some(w) = wp.filter(|&w| w != m) {
                    changed |= implies(&mut p, s, m, w)?;
                }
            }
        }
        if !changed {
            return Some(p);
        }
    }
}
