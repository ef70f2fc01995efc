//! The deferred explorer's check of a *decided prefix* at one location: the decided
//! reads with their sources, the decided writes in their decided co order. A branch
//! whose prefix fails it has no consistent extension and is not explored.
//!
//! **Why it is exact.** Every complete execution G below a node extends its prefix:
//! G has every decided event (the run checks it), each resolved read reads its
//! decided source, and G's co restricted to the decided writes is their decided order
//! (a later write is placed somewhere among them, never reorders them). So every edge
//! this check draws is an edge of G:
//! * RMW atomicity ([`porf_models::atomicity::holds`], part of every model's check):
//!   an exclusive write whose read part reads `s` must be G's immediate co-successor
//!   of `s` (the initialisation: G's co-first write). If it is not the immediate
//!   successor of `s` among the decided writes, a decided write lies between them or
//!   it lies before `s`, in G too. Two exclusive writes reading one source fail this
//!   too (both cannot be next).
//! * SC per location, for a model that claims it
//!   ([`porf_models::MemoryModel::uniproc`]): `po-loc ∪ rf ∪ co ∪ fr` over the decided
//!   accesses. `po-loc` and `rf` are G's restricted; `co` is; `fr` from a resolved
//!   read to the decided writes co-after its source is G's `fr` restricted (a pending
//!   read gets no `rf` or `fr` edge). A cycle of a subset of G's relation is a cycle
//!   of G's, and the model rejects G.
//!
//! So the check only fails when every extension is inconsistent: it needs of the
//! model only the atomicity every model has and, for the second part, the `uniproc`
//! claim (each claim checked on random graphs in `porf-models`' `uniproc` tests; this
//! function's agreement with each model on random prefixes of random executions in
//! `porf-explore/tests/deferred_prefix.rs`).

use porf_graph::EventId;
use porf_models::relation::successors_acyclic;

/// A decided access of the location checked.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Access {
    /// A read and its source: `None` pending (a write decided later), `Some(None)` the
    /// initialisation, `Some(Some(w))` the decided write `w`.
    Read { src: Option<Option<EventId>> },
    /// A write; `exclusive` for an RMW's write part (its read part is its
    /// po-predecessor).
    Write { exclusive: bool },
}

/// Whether the decided accesses `acc` of one location (sorted by event), with the
/// decided writes in co order `co`, may still be part of a consistent execution:
/// false when RMW atomicity or, with `uniproc`, SC per location already fails (module
/// docs).
pub fn consistent(acc: &[(EventId, Access)], co: &[EventId], uniproc: bool) -> bool {
    let pos = |w: EventId| co.iter().position(|&x| x == w);
    let find = |e: EventId| acc.binary_search_by_key(&e, |&(x, _)| x).ok();
    for &(w, a) in acc {
        if a != (Access::Write { exclusive: true }) {
            continue;
        }
        let Some(r) = w.prev().and_then(find) else {
            continue;
        };
        let Access::Read { src: Some(s) } = acc[r].1 else {
            continue;
        };
        let after = match s {
            None => Some(0),
            Some(s) => pos(s).map(|p| p + 1),
        };
        if after.is_some_and(|p| pos(w) != Some(p)) {
            return false;
        }
    }
    if !uniproc {
        return true;
    }
    let n = acc.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 1..n {
        if acc[i - 1].0.tid == acc[i].0.tid {
            succ[i - 1].push(i);
        }
    }
    for pair in co.windows(2) {
        if let (Some(a), Some(b)) = (find(pair[0]), find(pair[1])) {
            succ[a].push(b);
        }
    }
    for (i, &(_, a)) in acc.iter().enumerate() {
        let Access::Read { src: Some(s) } = a else {
            continue;
        };
        // fr: the read before its source's immediate co-successor (the rest by co).
        let next = match s {
            None => co.first().copied(),
            Some(w) => {
                if let Some(j) = find(w) {
                    succ[j].push(i);
                }
                pos(w).and_then(|p| co.get(p + 1).copied())
            }
        };
        if let Some(j) = next.and_then(find) {
            succ[i].push(j);
        }
    }
    successors_acyclic(&succ)
}

#[cfg(test)]
mod tests {
    use super::{consistent, Access};
    use porf_graph::EventId;

    fn e(t: u32, i: u32) -> EventId {
        EventId::new(t, i)
    }

    /// CoRR: a read of the second write, then a po-later read of the first, cannot be
    /// consistent whatever comes later; reading the writes in co order can.
    #[test]
    fn corr_fails_sc_per_location() {
        let (w1, w2) = (e(1, 1), e(1, 2));
        let acc = |a, b| {
            vec![
                (e(0, 1), Access::Read { src: Some(Some(a)) }),
                (e(0, 2), Access::Read { src: Some(Some(b)) }),
                (w1, Access::Write { exclusive: false }),
                (w2, Access::Write { exclusive: false }),
            ]
        };
        assert!(!consistent(&acc(w2, w1), &[w1, w2], true));
        assert!(consistent(&acc(w1, w2), &[w1, w2], true));
        // Without the claim only atomicity is checked.
        assert!(consistent(&acc(w2, w1), &[w1, w2], false));
        // A pending read adds no rf or fr edge.
        let pending = vec![
            (
                e(0, 1),
                Access::Read {
                    src: Some(Some(w2)),
                },
            ),
            (e(0, 2), Access::Read { src: None }),
            (w1, Access::Write { exclusive: false }),
            (w2, Access::Write { exclusive: false }),
        ];
        assert!(consistent(&pending, &[w1, w2], true));
    }

    /// An exclusive write must directly follow its read part's source among the
    /// decided writes.
    #[test]
    fn exclusive_write_follows_its_source() {
        let (w, r, x) = (e(0, 1), e(1, 1), e(1, 2));
        let acc = vec![
            (w, Access::Write { exclusive: false }),
            (r, Access::Read { src: Some(Some(w)) }),
            (x, Access::Write { exclusive: true }),
        ];
        assert!(consistent(&acc, &[w, x], false));
        assert!(!consistent(&acc, &[x, w], false));
        let init = vec![
            (w, Access::Write { exclusive: false }),
            (r, Access::Read { src: Some(None) }),
            (x, Access::Write { exclusive: true }),
        ];
        assert!(consistent(&init, &[x, w], false));
        assert!(!consistent(&init, &[w, x], false));
    }
}
