//! The closure of a VerifySC instance (§4.2 of "Stateless Model Checking under a
//! Reads-Value-From Equivalence"): the weakest partial order `P` that contains po,
//! sync and rf and that every witness trace must respect, or `None` when no partial
//! order satisfies the rules — then there is no witness.
//!
//! With a fixed source per read (the initialisation `init` counting as a write before
//! every event), the paper's conditions become, for a read `r` of `x` reading `s` and
//! every other write `w` of `x`:
//! * `s <P r` (rf);
//! * `w <P r ⇒ w <P s` (a write before `r` is overwritten by `s`; impossible if
//!   `s = init`);
//! * `s <P w ⇒ r <P w` (a write after `s` comes after `r`; for `s = init`: every write
//!   of `x` comes after `r`);
//!
//! and for an RMW, a read part `r` immediately followed in every trace by its write
//! part `u`: `e <P u ⇒ e <P r` and `r <P e ⇒ u <P e` for every other event `e`. Each
//! rule only adds pairs that every witness orders that way, so every witness respects
//! `P`; this is what lets the search consider only `P`-minimal events.
//!
//! Representation: `P` contains po, so the `P`-predecessors of an event within one
//! thread are a po-prefix, and `P` is stored as one vector clock per event (the number
//! of events of each thread that are `≤P` it). Adding a pair costs O(n·k) for `n`
//! events and `k` threads.

use super::instance::{Ev, Id, Instance};

/// A partial order on an instance's events containing po, as vector clocks.
///
/// Invariant: `clocks[e·k + t]` is the number of events of thread `t` that are `≤P e`
/// (so `clocks[e·k + tid(e)] = idx(e) + 1`), and the clocks describe a transitive,
/// acyclic relation.
pub(super) struct Order {
    k: usize,
    clocks: Vec<u32>,
}

/// Adding a pair would close a cycle.
#[derive(Debug)]
pub(super) struct Cycle;

impl Order {
    /// Program order alone.
    fn po(inst: &Instance) -> Order {
        let k = inst.k();
        let mut clocks = vec![0; inst.n() * k];
        for (i, e) in inst.events.iter().enumerate() {
            clocks[i * k + e.tid as usize] = e.idx + 1;
        }
        Order { k, clocks }
    }
    /// The vector clock of `e`: per thread, how many of its events are `≤P e`.
    pub fn clock(&self, e: Id) -> &[u32] {
        let i = e as usize * self.k;
        &self.clocks[i..i + self.k]
    }
    /// `a ≤P b` (reflexive).
    pub fn le(&self, inst: &Instance, a: Id, b: Id) -> bool {
        let ea = inst.events[a as usize];
        self.clock(b)[ea.tid as usize] > ea.idx
    }
    /// Adds `a <P b` and what transitivity implies; `Ok(true)` iff `P` grew.
    fn add(&mut self, inst: &Instance, a: Id, b: Id) -> Result<bool, Cycle> {
        if self.le(inst, a, b) {
            return Ok(false);
        }
        if self.le(inst, b, a) {
            return Err(Cycle);
        }
        let ca = self.clock(a).to_vec();
        let eb = inst.events[b as usize];
        // The events `≥P b` of each thread are a po-suffix: walk it from the end.
        for t in 0..self.k {
            for idx in (0..inst.len[t]).rev() {
                let x = inst.at(t, idx) as usize * self.k;
                if self.clocks[x + eb.tid as usize] <= eb.idx {
                    break;
                }
                for (c, &m) in self.clocks[x..x + self.k].iter_mut().zip(&ca) {
                    *c = (*c).max(m);
                }
            }
        }
        Ok(true)
    }
    /// The first event of thread `t` that is `≥P e`, if any.
    fn first_after(&self, inst: &Instance, e: Id, t: usize) -> Option<Id> {
        let ee = inst.events[e as usize];
        let after = |idx: u32| self.clock(inst.at(t, idx))[ee.tid as usize] > ee.idx;
        // Monotone along po: binary search for the first index that is after `e`.
        let (mut lo, mut hi) = (0, inst.len[t]);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if after(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        (lo < inst.len[t]).then(|| inst.at(t, lo))
    }
}

/// The closure of `inst`, or `None` if it has none (no witness exists).
pub(super) fn closure(inst: &Instance) -> Option<Order> {
    saturate(inst).ok()
}

fn saturate(inst: &Instance) -> Result<Order, Cycle> {
    let mut p = Order::po(inst);
    for &(a, b) in &inst.sync {
        p.add(inst, a, b)?;
    }
    let reads: Vec<(Id, u32, Option<Id>, bool)> = (0..inst.n() as Id)
        .filter_map(|r| match inst.ev[r as usize] {
            Ev::Read { loc, src, rmw } => Some((r, loc, src, rmw)),
            _ => None,
        })
        .collect();
    for &(r, _, src, _) in &reads {
        if let Some(s) = src {
            p.add(inst, s, r)?;
        }
    }
    loop {
        let mut grew = false;
        for &(r, loc, src, _) in &reads {
            for &w in &inst.writes[loc as usize] {
                if Some(w) == src {
                    continue;
                }
                if p.le(inst, w, r) {
                    grew |= p.add(inst, w, src.ok_or(Cycle)?)?;
                }
                if src.is_none_or(|s| p.le(inst, s, w)) {
                    grew |= p.add(inst, r, w)?;
                }
            }
        }
        for &(r, _, _, rmw) in &reads {
            if !rmw {
                continue;
            }
            let u = r + 1;
            let own = inst.events[r as usize].tid as usize;
            for t in (0..inst.k()).filter(|&t| t != own) {
                let before = p.clock(u)[t];
                if before > 0 {
                    grew |= p.add(inst, inst.at(t, before - 1), r)?;
                }
                if let Some(x) = p.first_after(inst, r, t) {
                    grew |= p.add(inst, u, x)?;
                }
            }
        }
        if !grew {
            return Ok(p);
        }
    }
}
