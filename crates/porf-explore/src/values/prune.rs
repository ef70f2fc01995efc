//! Exact pruning of a script's candidates ([`crate::values`], "Pruning"): the rf and
//! co choices that RMW atomicity, or SC per location for a model that claims it,
//! rule out are never built, instead of being built and rejected at the leaf.
//!
//! **Why it is exact.** Every model's whole check includes RMW atomicity
//! ([`porf_models::MemoryModel::is_consistent`], [`porf_models::atomicity::holds`]):
//! each exclusive write (an RMW's or a lock acquire's write part) is immediately
//! co-after the source of its read part, and no two exclusive writes read from the
//! same write. So a candidate in which two reads with write parts share a source
//! ([`rmw_source_taken`]) is rejected whatever its co, and a co in which an exclusive
//! write does not directly follow its source is rejected: [`co_orders`] lists exactly
//! the orders of a location's writes in which each exclusive write directly follows
//! its source. A model that claims [`porf_models::MemoryModel::uniproc`] rejects
//! every graph with a cycle in `po-loc ∪ rf ∪ co ∪ fr` at one location, which depends
//! only on that location's co (and the rf): [`co_orders`] drops a location's order
//! failing [`porf_models::uniproc::holds_at`], and, while building an order, places no
//! write before a write of the same thread po-before it (that `co` edge against
//! `po-loc` is a cycle of two). The co of a candidate is a choice per location, so
//! the candidates left are the product of the lists, and each dropped one is one the
//! model's check would have rejected.
//!
//! **Locks.** A `spin_lock` is an acquire RMW (herd's `LKR`/`LKW` pair, Alglave et
//! al., ASPLOS 2018, §4: a lock acquire reads from the initialisation or an unlock and
//! writes the lock taken), so its write part directly follows the unlock it read: a
//! lock location's co is fixed by the rf chain of its acquisitions (up to where the
//! unlocks that no acquire reads go), and these lists hold only those orders.

use porf_graph::{EventId, Graph, Loc};
use porf_models::atomicity::read_part;
use porf_models::uniproc;

/// Whether an exclusive read (with a write part) of `loc` reading `src` shares it with
/// one of the reads chosen before, `chosen` (each with its location, source and
/// whether it has a write part): RMW atomicity then fails whatever the co.
pub(crate) fn rmw_source_taken(
    chosen: &[(Loc, Option<EventId>, bool)],
    loc: Loc,
    src: Option<EventId>,
) -> bool {
    chosen
        .iter()
        .any(|&(l, s, rmw)| rmw && l == loc && s == src)
}

/// The orders of `loc`'s writes in `g` (rf given) that RMW atomicity allows and, with
/// `uniproc`, that satisfy SC per location at `loc`. Leaves `loc`'s co in `g` as one
/// of them (or as it was tried last).
pub(crate) fn co_orders(g: &mut Graph, loc: Loc, uniproc: bool) -> Vec<Vec<EventId>> {
    let writes: Vec<EventId> = g.co(loc).to_vec();
    // The source of each exclusive write's read part; `None` for other writes.
    let source: Vec<Option<Option<EventId>>> = writes
        .iter()
        .map(|&w| {
            g.label(w)
                .is_exclusive_write()
                .then(|| g.label(read_part(w)).rf())
        })
        .collect();
    let mut out = Vec::new();
    let mut order = Vec::with_capacity(writes.len());
    let mut used = vec![false; writes.len()];
    extend(
        g, loc, uniproc, &writes, &source, &mut order, &mut used, &mut out,
    );
    out
}

/// Extends the prefix `order` in every allowed way, pushing the complete orders.
#[allow(clippy::too_many_arguments)]
fn extend(
    g: &mut Graph,
    loc: Loc,
    uniproc: bool,
    writes: &[EventId],
    source: &[Option<Option<EventId>>],
    order: &mut Vec<EventId>,
    used: &mut [bool],
    out: &mut Vec<Vec<EventId>>,
) {
    if order.len() == writes.len() {
        if uniproc {
            g.set_co(loc, order.clone());
            if !uniproc::holds_at(g, loc) {
                return;
            }
        }
        out.push(order.clone());
        return;
    }
    let last = order.last().copied();
    // An exclusive write whose source is the last write placed must come next.
    let forced = (0..writes.len()).find(|&j| !used[j] && source[j] == Some(last));
    let choices: Vec<usize> = match forced {
        Some(j) => vec![j],
        None => (0..writes.len())
            .filter(|&j| !used[j] && source[j].is_none())
            .collect(),
    };
    for j in choices {
        let w = writes[j];
        let po_earlier_left = (0..writes.len())
            .any(|k| !used[k] && k != j && writes[k].tid == w.tid && writes[k].idx < w.idx);
        if uniproc && po_earlier_left {
            continue;
        }
        used[j] = true;
        order.push(w);
        extend(g, loc, uniproc, writes, source, order, used, out);
        order.pop();
        used[j] = false;
    }
}

#[cfg(test)]
mod tests;
