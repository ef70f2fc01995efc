//! The exact seq_cst fallback of the rf check: with seq_cst accesses or fences, RC11's
//! psc contains co and fr (and eco between seq_cst fences), so wb (see [`super::wb`])
//! no longer decides consistency. This searches the coherence orders wb leaves open.
//!
//! **Which orders matter.** psc is monotone in co and depends on it only through edges
//! `a eco b` with `W(a) co W(b)` (`W` as in [`super::wb`]), reached as
//! `left; (co ∪ fr); right` or `[F^sc]; hb; eco; hb; [F^sc]`, in both flavours. So the
//! relative order of writes `w1`, `w2` can change psc only if some `a ∈ {w1} ∪
//! readers(w1)` is seq_cst or hb-after a seq_cst fence, and some `b ∈ {w2} ∪
//! readers(w2)` is seq_cst or hb-before a seq_cst fence (or the same with `w1`, `w2`
//! swapped). Such a pair of blocks is *open* if wb leaves it unordered. Once every open
//! pair is ordered, all linearisations of the resulting partial order have the same psc,
//! namely the psc of the partial order itself.
//!
//! **Search.** One psc check on a linearisation of wb (it usually succeeds). Failing
//! that, branch and bound: order the first still-unordered open pair one way, then the
//! other, transitively closing the block order; prune a node when the psc of its partial
//! co (a subset of the psc of every completion, by monotonicity) is cyclic; succeed at a
//! node with no open pair left and an acyclic psc. Exact: pruning is sound, and the
//! leaves cover every coherent atomic co.
//!
//! **Cost.** Each psc check is O(n³/64) on n events. The tree is binary and its
//! leaves (pruned or not) have pairwise disjoint, non-empty sets of linearisations, so
//! it has at most `2L - 1` nodes for `L = min(2^k, Π_x e_x)`, `k` the number of open
//! pairs and `e_x` the number of linear extensions of location `x`'s wb block order (at
//! most `(blocks_x - 1)!`): at most `2L` psc checks in all, with the first one.
//! Polynomial (a single check) when wb leaves no pair open, e.g. without seq_cst fences
//! when wb orders all the blocks of each location that hold seq_cst writes or writes
//! read by seq_cst reads.

use super::wb::{linearise, Checked, LocBlocks};
use crate::rc11::{self, Flavor};
use crate::relation::{Base, Relation};
use porf_graph::{EventId, Graph, LabelKind, MemOrder};

/// Decides `g` (whose wb blocks are `locs`) under psc in flavour `f`, filling `out`.
pub(super) fn search(g: &Graph, mut locs: Vec<LocBlocks>, f: Flavor, out: &mut Checked) {
    let base = Base::without_co(g);
    let n = base.len();
    let hb = Relation::from_fn(n, |x, y| {
        x != y && g.label(base.idx.event(y)).hb.contains(base.idx.event(x))
    });
    let mut s = Search {
        g,
        f,
        base,
        hb,
        open: open_pairs(g, &locs),
        checks: 0,
    };
    out.open_pairs = s.open.len();
    let total: Vec<LocBlocks> = locs.iter().map(total_order).collect();
    if s.psc_acyclic(&total) {
        out.witness = Some(linearise(&total));
    } else if !s.open.is_empty() && s.branch(&mut locs) {
        out.witness = Some(linearise(&locs));
    }
    out.psc_checks = s.checks;
}

struct Search<'g> {
    g: &'g Graph,
    f: Flavor,
    /// po, sync, rf, rmw of `g` (no co).
    base: Base,
    /// Strict hb, from the stored views.
    hb: Relation,
    /// Open pairs: (location index, block, block).
    open: Vec<(usize, usize, usize)>,
    checks: u64,
}

impl Search<'_> {
    /// Is there a co extending the block orders of `locs` with an acyclic psc? If so,
    /// `locs` is left at a block order all of whose linearisations work.
    fn branch(&mut self, locs: &mut [LocBlocks]) -> bool {
        if !self.psc_acyclic(locs) {
            return false;
        }
        let unordered =
            self.open.iter().copied().find(|&(x, a, b)| {
                !locs[x].before.contains(a, b) && !locs[x].before.contains(b, a)
            });
        let Some((x, a, b)) = unordered else {
            return true;
        };
        let saved = locs[x].before.clone();
        for (p, q) in [(a, b), (b, a)] {
            locs[x].before = with_edge(&saved, p, q);
            if self.branch(locs) {
                return true;
            }
        }
        locs[x].before = saved;
        false
    }

    /// psc acyclicity under the (possibly partial) co given by the block orders.
    fn psc_acyclic(&mut self, locs: &[LocBlocks]) -> bool {
        self.checks += 1;
        let mut b = self.base.clone();
        let mut co = Relation::empty(b.len());
        for lb in locs {
            for (x, block) in lb.blocks.iter().enumerate() {
                for (i, &w) in block.iter().enumerate() {
                    let later = block[i + 1..]
                        .iter()
                        .chain(lb.before.successors(x).flat_map(|y| &lb.blocks[y]));
                    for &w2 in later {
                        co.add(b.idx.of(w), b.idx.of(w2));
                    }
                }
            }
        }
        b.set_co(self.g, co);
        let eco = b.eco();
        rc11::psc_acyclic(self.g, &b, &self.hb, &eco, self.f)
    }
}

/// `before` (a strict partial order) with `p` before `q` added, transitively closed.
fn with_edge(before: &Relation, p: usize, q: usize) -> Relation {
    let mut r = before.clone();
    let n = before.size();
    let ups: Vec<usize> = (0..n)
        .filter(|&x| x == p || before.contains(x, p))
        .collect();
    let downs: Vec<usize> = std::iter::once(q).chain(before.successors(q)).collect();
    for &x in &ups {
        for &y in &downs {
            r.add(x, y);
        }
    }
    r
}

/// `lb` with its blocks totally ordered by [`LocBlocks::block_order`].
fn total_order(lb: &LocBlocks) -> LocBlocks {
    let mut rank = vec![0; lb.blocks.len()];
    for (i, b) in lb.block_order().into_iter().enumerate() {
        rank[b] = i;
    }
    LocBlocks {
        before: Relation::from_fn(rank.len(), |a, b| rank[a] < rank[b]),
        ..lb.clone()
    }
}

/// The open pairs of the module doc: `(x, a, b)` with `a < b` blocks of `locs[x]`,
/// unordered by wb, whose order may change psc.
fn open_pairs(g: &Graph, locs: &[LocBlocks]) -> Vec<(usize, usize, usize)> {
    let sc = |e: EventId| g.label(e).ord() == Some(MemOrder::SeqCst);
    let fences: Vec<EventId> = g
        .events()
        .filter(|(_, l)| matches!(l.kind, LabelKind::Fence { .. }))
        .map(|(e, _)| e)
        .filter(|&e| sc(e))
        .collect();
    // May an eco edge out of (into) an access of w's co position start (end) a psc edge?
    let source = |e: EventId| sc(e) || fences.iter().any(|&f| g.label(e).hb.contains(f));
    let target = |e: EventId| sc(e) || fences.iter().any(|&f| g.label(f).hb.contains(e));
    let mut open = Vec::new();
    for (x, lb) in locs.iter().enumerate() {
        let any = |b: usize, p: &dyn Fn(EventId) -> bool| {
            lb.blocks[b]
                .iter()
                .any(|&w| p(w) || g.label(w).readers.iter().any(|&r| p(r)))
        };
        let n = lb.blocks.len();
        let src: Vec<bool> = (0..n).map(|b| any(b, &source)).collect();
        let tgt: Vec<bool> = (0..n).map(|b| any(b, &target)).collect();
        for a in 0..n {
            for b in a + 1..n {
                let unordered = !lb.before.contains(a, b) && !lb.before.contains(b, a);
                if unordered && ((src[a] && tgt[b]) || (src[b] && tgt[a])) {
                    open.push((x, a, b));
                }
            }
        }
    }
    open
}
