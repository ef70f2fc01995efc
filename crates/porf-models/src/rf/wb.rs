//! Writes-before: the exact reads-from check of `ra`, `rc11` and `rc11-genmc`.
//!
//! The writes-before relation of "Model Checking for Weakly Consistent Libraries"
//! (Kokologiannakis, Raad, Vafeiadis, PLDI 2019, §2.5 and App. B) records the coherence
//! edges whose direction the rf edges force. Here, for a location `x`, with `W(a) = a`
//! for a write and `W(a) = rf(a)` for a read (the initialisation write `init_x` for a
//! read of the initialisation):
//!
//! ```text
//! wb_x = { (W(a), W(b)) | a, b access x, a hb b, W(a) ≠ W(b) }
//!      = [W_x]; (rf?; hb; (rf⁻¹)?) \ id; [W_x]
//! ```
//!
//! (The paper's `rf*` on both sides chains RMWs, single events there; here an RMW is a
//! read and an exclusive write, and the chains are the *blocks* below.)
//!
//! **Coherence.** Expanding `irreflexive(hb; eco?)` with `eco = rf ∪ co ∪ fr ∪ co;rf ∪
//! fr;rf` for a total co: a coherence order `co` makes the graph coherent iff `hb` and
//! `hb; rf` are irreflexive and `wb ⊆ co` (with `init_x` co-first): each of the four
//! cases `a hb b` (write/read × write/read) demands exactly `W(a) co W(b)`, and
//! `W(a) = W(b)` is only allowed when `b` is a read.
//!
//! **Atomicity.** Each exclusive write immediately follows, in co, the write its read
//! part reads; no two exclusive writes read one write. So a location's writes split
//! into *blocks*: a head (a non-exclusive write, or `init_x`) followed by the chain of
//! exclusive writes each reading its predecessor. A co satisfies atomicity iff it lists
//! every block contiguously, in chain order, with `init_x`'s block first.
//!
//! **Theorem** (what `writes_before` decides, in O(n + Σ_x (|accesses of x|² +
//! blocks_x³/64)) time on n events): some co makes the graph coherent and atomic —
//! i.e. consistent under `ra`, and under `rc11` / `rc11-genmc` when the graph has no
//! seq_cst access or fence (psc is then empty) — iff
//! 1. porf is acyclic (so hb ⊆ porf⁺ is irreflexive, and so is `hb; rf`);
//! 2. no two exclusive writes read from the same write (or both the initialisation);
//! 3. every wb edge inside a block follows the chain, no wb edge enters `init_x`'s
//!    block from another block, and wb lifted to blocks is acyclic.
//!
//! Then every linearisation of that block order, expanded block by block, is such a co
//! (`linearise`). Only-if: conditions 1–2 are axioms, and a coherent atomic co orders
//! blocks as 3 demands. If: a linearisation is a total co with `init_x`'s block first;
//! it contains wb (so coherence holds) and keeps chains contiguous (atomicity).
//!
//! hb is read from the views stored in the graph: in these models hb does not depend on
//! co (release sequences follow `po|loc` and `rf; rmw`, never co; see [`crate::rc11`]).
//! The `co` lists stored in the graph are never read.
//!
//! With seq_cst events, psc also constrains co and wb is not enough: [`check`] then
//! hands over to the exact search of `rf/psc_search.rs`, which branches only on the
//! block pairs wb leaves unordered *and* whose order can change psc; its worst case is
//! exponential (at most `2·min(2^k, Π_x e_x)` psc checks of O(n³/64) each, `k` such
//! pairs, `e_x` the linearisations of location `x`'s block order), and it is a single
//! psc check when no such pair exists.

use super::{psc_search, CoWitness};
use crate::rc11::{self, Flavor};
use crate::relation::{EventIndex, Relation};
use porf_graph::{EventId, Graph, LabelKind, Loc};
use std::collections::HashMap;

/// One location's writes grouped into RMW blocks, and the order wb forces on them.
#[derive(Clone, Debug)]
pub(crate) struct LocBlocks {
    pub loc: Loc,
    /// Block 0 is the initialisation's chain without the initialisation itself (the
    /// exclusive write reading it, the one reading that, ...; possibly empty); every
    /// other block is a non-exclusive write followed by its chain. Each write in a
    /// block is immediately followed by the exclusive write reading from it, if any.
    pub blocks: Vec<Vec<EventId>>,
    /// `before.contains(a, b)`: block `a` precedes block `b` in every coherent atomic
    /// co. Strict and transitive (a partial order); block 0 precedes every other block.
    pub before: Relation,
}

impl LocBlocks {
    /// A linear extension of `before`: blocks sorted by their number of predecessors
    /// (if `a` precedes `b`, `b` has strictly more), ties by index.
    pub fn block_order(&self) -> Vec<usize> {
        let n = self.blocks.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&b| ((0..n).filter(|&a| self.before.contains(a, b)).count(), b));
        order
    }
}

/// Which seq_cst axiom the check adds to coherence, atomicity and no-thin-air.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Psc {
    /// None: `ra`, where seq_cst events count as release/acquire.
    Absent,
    /// rc11.cat's psc (`rc11`).
    Herd,
    /// GenMC 0.11's psc (`rc11-genmc`).
    Genmc,
}

/// What [`check`] found, and what it cost.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    /// A coherence order under which the graph is consistent, if there is one.
    pub witness: Option<CoWitness>,
    /// Pairs of blocks wb left unordered whose order may change psc (0 without
    /// seq_cst events, or when wb already refutes the graph).
    pub open_pairs: usize,
    /// psc acyclicity checks performed (0 without seq_cst events).
    pub psc_checks: u64,
}

impl Checked {
    /// True iff deciding the graph took more than the one psc check on wb's order: the
    /// exponential fallback ran.
    pub fn searched(&self) -> bool {
        self.psc_checks > 1
    }
}

/// The exact rf check: is there a co under which `g` is consistent (no thin air,
/// atomicity, coherence, and `psc` if the graph has seq_cst events)? Polynomial without
/// seq_cst events (`writes_before`, `linearise`); with them, the search of the
/// module doc. The `co` lists stored in `g` are not read; its hb views are.
pub fn check(g: &Graph, psc: Psc) -> Checked {
    let mut out = Checked::default();
    let Some(locs) = writes_before(g) else {
        return out;
    };
    let flavor = match psc {
        Psc::Absent => None,
        Psc::Herd => Some(Flavor::Herd),
        Psc::Genmc => Some(Flavor::Genmc),
    };
    match flavor.filter(|_| rc11::has_sc(g)) {
        None => out.witness = Some(linearise(&locs)),
        Some(f) => psc_search::search(g, locs, f, &mut out),
    }
    out
}

/// The blocks and wb order of every location `g` accesses (sorted by location), or
/// `None` if no co makes `g` coherent and atomic (conditions 1–3 of the module doc).
pub(crate) fn writes_before(g: &Graph) -> Option<Vec<LocBlocks>> {
    if !porf_acyclic(g) {
        return None;
    }
    let mut locs: Vec<Loc> = g.locations().map(|(l, _)| *l).collect();
    locs.sort();
    locs.into_iter().map(|loc| loc_blocks(g, loc)).collect()
}

/// A co for every location: blocks in [`LocBlocks::block_order`], each in chain order.
pub(crate) fn linearise(locs: &[LocBlocks]) -> CoWitness {
    locs.iter()
        .map(|lb| {
            let order = lb.block_order();
            let co = order.iter().flat_map(|&b| lb.blocks[b].iter().copied());
            (lb.loc, co.collect())
        })
        .collect()
}

/// `W(a)`: `a` itself for a write, its source for a read (`None`: the initialisation).
fn write_of(g: &Graph, a: EventId) -> Option<EventId> {
    match g.label(a).kind {
        LabelKind::Read { rf, .. } => rf,
        _ => Some(a),
    }
}

/// Blocks and wb of one location; `None` on an atomicity or wb violation.
fn loc_blocks(g: &Graph, loc: Loc) -> Option<LocBlocks> {
    let accesses = &g.loc_info(loc).accesses;
    let mut writes: Vec<EventId> = accesses
        .iter()
        .copied()
        .filter(|&e| g.label(e).is_write())
        .collect();
    writes.sort_by_key(|&w| g.label(w).stamp);
    // The exclusive write reading each write (None: the initialisation).
    let mut next: HashMap<Option<EventId>, EventId> = HashMap::new();
    for &w in writes.iter().filter(|&&w| g.label(w).is_exclusive_write()) {
        let LabelKind::Read { rf, .. } = g.label(w.prev()?).kind else {
            return None;
        };
        if next.insert(rf, w).is_some() {
            return None;
        }
    }
    let heads = std::iter::once(None).chain(
        writes
            .iter()
            .filter(|&&w| !g.label(w).is_exclusive_write())
            .map(|&w| Some(w)),
    );
    // Where each write sits: (block, position); the initialisation is (0, 0) and block
    // 0's writes have positions from 1.
    let mut place: HashMap<Option<EventId>, (usize, usize)> = HashMap::new();
    let mut blocks = Vec::new();
    for head in heads {
        let b = blocks.len();
        let mut block: Vec<EventId> = head.into_iter().collect();
        place.insert(head, (b, 0));
        let mut cur = head;
        while let Some(&u) = next.get(&cur) {
            block.push(u);
            place.insert(Some(u), (b, place[&cur].1 + 1));
            cur = Some(u);
        }
        blocks.push(block);
    }
    if place.len() != writes.len() + 1 {
        return None; // an RMW cycle, impossible without a porf cycle
    }
    let mut before = Relation::empty(blocks.len());
    for b in 1..blocks.len() {
        before.add(0, b);
    }
    for &b in accesses {
        let hb = &g.label(b).hb;
        for &a in accesses.iter().filter(|&&a| a != b && hb.contains(a)) {
            let (wa, wb) = (write_of(g, a), write_of(g, b));
            if wa == wb {
                if g.label(b).is_write() {
                    return None; // b rf a hb b
                }
                continue;
            }
            let ((ba, pa), (bb, pb)) = (place[&wa], place[&wb]);
            if ba == bb {
                if pa > pb {
                    return None;
                }
            } else if bb == 0 {
                return None;
            } else {
                before.add(ba, bb);
            }
        }
    }
    let before = before.closure();
    before.is_irreflexive().then_some(LocBlocks {
        loc,
        blocks,
        before,
    })
}

/// True iff `po ∪ rf ∪ sync` (spawn to start, finish to join) is acyclic, by Kahn's
/// algorithm in O(events).
fn porf_acyclic(g: &Graph) -> bool {
    let idx = EventIndex::new(g);
    let n = idx.len();
    let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut edge = |a: usize, b: usize| succs[a].push(b);
    for i in 0..n {
        let e = idx.event(i);
        if g.contains(e.next()) {
            edge(i, i + 1);
        }
        match g.label(e).kind {
            LabelKind::Start { parent: Some(p) } => edge(idx.of(p), i),
            LabelKind::Read { rf: Some(w), .. } => edge(idx.of(w), i),
            LabelKind::Join { child } => match g.last_of(child) {
                Some(fin) => edge(idx.of(fin), i),
                None => return false,
            },
            _ => {}
        }
    }
    crate::relation::successors_acyclic(&succs)
}

#[cfg(test)]
mod tests;
