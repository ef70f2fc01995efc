//! Reads-from consistency: the question rf mode asks a model. An rf-mode execution is
//! (events, po, rf) without a coherence order; it is consistent under a model iff some
//! coherence order makes the graph consistent under the model's declarative definition.
//!
//! * [`CoWitness`]: a coherence order for every location of a graph, the witness a
//!   model returns with "yes" (from it rf mode computes final values, the witness
//!   trace and the DOT graph).
//! * [`brute_force`]: the definition itself — every co, checked with
//!   [`MemoryModel::is_consistent`]. Exponential; the ground truth the models' exact
//!   checks are tested against.
//! * [`random_graph`]: random small (events, po, rf) graphs for those tests.
//! * [`verify_sc`]: VerifySC, the exact check of sequential consistency (polynomial
//!   for fixed numbers of threads and locations).
//! * [`verify_tso`]: VerifyTSO, the exact check of porf's `tso`.
//! * [`pso`]: VerifyPSO, the exact check of porf's `pso`.
//! * [`wb`]: the exact check of `ra`, `rc11` and `rc11-genmc` (writes-before, with an
//!   exact search over the orders it leaves open when psc needs them, in
//!   `psc_search`).
//! * [`RfCheck`] / [`DecidedBy`] / [`RfStats`] (`check.rs`): an answer with what
//!   decided it (a local pre-check, the closure, or the search), and counters over
//!   many answers; `closure.rs`: the closure rules VerifyTSO and VerifyPSO share.
//!
//! Every function here ignores the `co` lists stored in the graph it is given.

mod check;
mod closure;
mod psc_search;
pub mod pso;
pub mod verify_sc;
pub mod verify_tso;
pub mod wb;

pub use check::{DecidedBy, RfCheck, RfStats};

use crate::MemoryModel;
use porf_graph::{
    EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, Wrap, WriteKind,
};

/// A coherence order per location: every write of the location exactly once, in order
/// (the initialisation write is implicitly first).
pub type CoWitness = Vec<(Loc, Vec<EventId>)>;

/// Installs `co` as the graph's coherence order.
pub fn install(g: &mut Graph, co: &CoWitness) {
    for (loc, order) in co {
        g.set_co(*loc, order.clone());
    }
}

/// Whether read `r` reads a write that another write of its location overwrote before
/// `r` in happens-before (`w hb w' hb r`), or the initial value although a write of its
/// location happens before it (the hb views stored in `g`).
pub fn stale_by_hb(g: &Graph, r: EventId) -> bool {
    let lab = g.label(r);
    let LabelKind::Read { loc, rf, .. } = lab.kind else {
        return false;
    };
    g.co(loc).iter().any(|&w2| {
        Some(w2) != rf && lab.hb.contains(w2) && rf.is_none_or(|w| g.label(w2).hb.contains(w))
    })
}

/// Whether read `r` reads a write its own thread already saw overwritten (per-location
/// coherence, which every model keeps): the thread wrote the location after the write
/// `r` reads, or read back such a write of its own (or wrote or read back any write of
/// its own, if `r` reads the initial value).
pub fn stale_in_thread(g: &Graph, r: EventId) -> bool {
    let LabelKind::Read { loc, rf, .. } = g.label(r).kind else {
        return false;
    };
    let own = |w: EventId| (w.tid == r.tid).then_some(w.idx as usize);
    let seen = g
        .thread(r.tid)
        .range(..r.idx as usize)
        .enumerate()
        .rev()
        .find_map(|(i, l)| match l.kind {
            LabelKind::Write { loc: l2, .. } if l2 == loc => Some(i),
            LabelKind::Read { loc: l2, rf, .. } if l2 == loc => rf.and_then(own),
            _ => None,
        });
    match (seen, rf) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(s), Some(w)) => own(w).is_some_and(|i| i < s),
    }
}

/// The writes of every location the graph accesses, in insertion order.
fn writes_by_loc(g: &Graph) -> CoWitness {
    let mut locs: Vec<(Loc, Vec<EventId>)> = g
        .locations()
        .map(|(l, i)| {
            let mut ws: Vec<EventId> = i
                .accesses
                .iter()
                .copied()
                .filter(|&e| g.label(e).is_write())
                .collect();
            ws.sort_by_key(|&w| g.label(w).stamp);
            (*l, ws)
        })
        .collect();
    locs.sort_by_key(|(l, _)| *l);
    locs
}

/// The number of coherence orders [`brute_force`] may try before giving up.
pub const BRUTE_FORCE_LIMIT: u64 = 1 << 20;

/// Some coherence order under which `model` deems `g` consistent, found by trying every
/// one (`None` if there is none). Panics if there are more than [`BRUTE_FORCE_LIMIT`]
/// orders to try: the caller must keep graphs small.
pub fn brute_force<M: MemoryModel + ?Sized>(model: &M, g: &Graph) -> Option<CoWitness> {
    let locs = writes_by_loc(g);
    let total = locs.iter().try_fold(1u64, |acc, (_, ws)| {
        (1..=ws.len() as u64).try_fold(acc, |a, k| a.checked_mul(k))
    });
    assert!(
        total.is_some_and(|t| t <= BRUTE_FORCE_LIMIT),
        "brute force over too many coherence orders"
    );
    let mut g = g.clone();
    let mut current = locs.clone();
    search(model, &mut g, &locs, &mut current, 0)
}

/// Tries every permutation of the writes of locations `i..`, with those before fixed.
fn search<M: MemoryModel + ?Sized>(
    model: &M,
    g: &mut Graph,
    locs: &CoWitness,
    current: &mut CoWitness,
    i: usize,
) -> Option<CoWitness> {
    if i == locs.len() {
        install(g, current);
        return model.is_consistent(g).then(|| current.clone());
    }
    let mut found = None;
    crate::orders::any_permutation(&locs[i].1, &mut |perm| {
        current[i].1 = perm.to_vec();
        found = search(model, g, locs, current, i + 1);
        found.is_some()
    });
    found
}

/// Shape of [`random_graph`]'s graphs.
#[derive(Clone, Debug)]
pub struct RandomGraph {
    /// Threads besides main (which only spawns them).
    pub threads: u32,
    /// Memory events (reads, writes, RMWs, fences) per thread, at most.
    pub events_per_thread: u32,
    /// Locations used (`Loc(1)..`).
    pub locs: u64,
    /// Whether seq_cst accesses and fences may appear.
    pub sc: bool,
    /// Whether RMWs (fetch-adds, failed compare-exchanges) may appear.
    pub rmws: bool,
}

impl Default for RandomGraph {
    fn default() -> Self {
        RandomGraph {
            threads: 3,
            events_per_thread: 3,
            locs: 2,
            sc: true,
            rmws: true,
        }
    }
}

/// A small deterministic generator ([`porf_graph::hash::SplitMix64`]), so that this
/// crate needs no RNG.
pub(crate) struct Rng(pub(crate) porf_graph::hash::SplitMix64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(porf_graph::hash::SplitMix64(seed))
    }
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0.below(n)
    }
    pub(crate) fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

/// A random (events, po, rf) graph, deterministic in `seed`: main spawns the threads,
/// then the threads' events are added in a random interleaving; each read reads from a
/// random write of its location already added (or the initialisation), so porf is
/// acyclic, and RMW write parts follow their reads. hb views are filled in by `model`
/// as events are added; the co lists hold the writes in insertion order (meaningless:
/// the point is to ask whether *some* co works).
pub fn random_graph(seed: u64, shape: &RandomGraph, model: &dyn MemoryModel) -> Graph {
    let mut rng = Rng::new(seed ^ 0x5eed_0f9a_3f00);
    let mut g = Graph::new();
    let locs: Vec<Loc> = (1..=shape.locs).map(Loc).collect();
    for &l in &locs {
        g.ensure_loc(l, 0, None);
    }
    let add = |g: &mut Graph, t: u32, kind: LabelKind| {
        let is_write = matches!(kind, LabelKind::Write { .. });
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        if is_write {
            let loc = g.label(e).loc().unwrap();
            let n = g.co(loc).len();
            g.co_insert(e, n + 1);
        }
        g.label_mut(e).hb = model.hb_view(g, e);
        e
    };
    add(&mut g, 0, LabelKind::Start { parent: None });
    let mut remaining = Vec::new();
    for c in 1..=shape.threads {
        let s = add(
            &mut g,
            0,
            LabelKind::Spawn {
                child: c,
                entry: 0,
                arg: 0,
                symm: None,
            },
        );
        add(&mut g, c, LabelKind::Start { parent: Some(s) });
        remaining.push((c, 1 + rng.below(shape.events_per_thread as u64) as u32));
    }
    let mut orders = vec![MemOrder::Relaxed, MemOrder::Acquire, MemOrder::Release];
    orders.push(MemOrder::AcqRel);
    orders.push(MemOrder::NonAtomic);
    if shape.sc {
        orders.push(MemOrder::SeqCst);
    }
    let mut val = 1;
    while !remaining.is_empty() {
        let i = rng.below(remaining.len() as u64) as usize;
        let t = remaining[i].0;
        remaining[i].1 -= 1;
        if remaining[i].1 == 0 {
            remaining.swap_remove(i);
        }
        let loc = rng.pick(&locs);
        let ord = rng.pick(&orders);
        let kind = rng.below(if shape.rmws { 7 } else { 6 });
        match kind {
            0 | 1 => {
                let ord = match ord {
                    MemOrder::Release | MemOrder::AcqRel => MemOrder::Relaxed,
                    o => o,
                };
                let rf = random_source(&mut rng, &g, loc);
                add(
                    &mut g,
                    t,
                    LabelKind::Read {
                        loc,
                        bytes: 8,
                        ord,
                        kind: ReadKind::Plain,
                        rf,
                    },
                );
            }
            2 | 3 => {
                let ord = match ord {
                    MemOrder::Acquire | MemOrder::AcqRel => MemOrder::Relaxed,
                    o => o,
                };
                val += 1;
                add(
                    &mut g,
                    t,
                    LabelKind::Write {
                        loc,
                        bytes: 8,
                        ord,
                        val,
                        kind: WriteKind::Plain,
                    },
                );
            }
            4 | 5 => {
                let ord = match ord {
                    MemOrder::NonAtomic | MemOrder::Relaxed => MemOrder::AcqRel,
                    o => o,
                };
                add(&mut g, t, LabelKind::Fence { ord });
            }
            _ => {
                let ord = if ord == MemOrder::NonAtomic {
                    MemOrder::Relaxed
                } else {
                    ord
                };
                let rf = random_source(&mut rng, &g, loc);
                let old = g.write_val(loc, rf);
                let succeeds = rng.below(4) != 0;
                let op = if succeeds {
                    RmwOp::Add(1, Wrap::NONE)
                } else {
                    RmwOp::Cas {
                        expected: old.wrapping_add(1000),
                        new: 0,
                        fail_ord: MemOrder::Relaxed,
                    }
                };
                let read_ord = if succeeds { ord } else { MemOrder::Relaxed };
                add(
                    &mut g,
                    t,
                    LabelKind::Read {
                        loc,
                        bytes: 8,
                        ord: read_ord,
                        kind: ReadKind::Rmw(op),
                        rf,
                    },
                );
                if let Some(new) = op.apply(old) {
                    add(
                        &mut g,
                        t,
                        LabelKind::Write {
                            loc,
                            bytes: 8,
                            ord,
                            val: new,
                            kind: WriteKind::Exclusive,
                        },
                    );
                }
            }
        }
    }
    g
}

/// A random write of `loc` in `g`, or the initialisation.
fn random_source(rng: &mut Rng, g: &Graph, loc: Loc) -> Option<EventId> {
    let ws = g.co(loc);
    let i = rng.below(ws.len() as u64 + 1) as usize;
    (i > 0).then(|| ws[i - 1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::by_name;

    #[test]
    fn brute_force_finds_the_coherence_order_of_corr() {
        // CoRR under sc: W1 x=2; W2 x=3; T3 reads 3 then 2: needs co W2 < W1.
        let sc = by_name("sc").unwrap();
        let mut g = Graph::new();
        g.ensure_loc(Loc(1), 0, None);
        let add = |g: &mut Graph, t, kind| {
            let e = g.add(t, kind, SrcLoc::UNKNOWN);
            if g.label(e).is_write() {
                let n = g.co(Loc(1)).len();
                g.co_insert(e, n + 1);
            }
            g.label_mut(e).hb = sc.hb_view(g, e);
            e
        };
        add(&mut g, 0, LabelKind::Start { parent: None });
        let mut writes = Vec::new();
        for c in 1..=3 {
            let s = add(
                &mut g,
                0,
                LabelKind::Spawn {
                    child: c,
                    entry: 0,
                    arg: 0,
                    symm: None,
                },
            );
            add(&mut g, c, LabelKind::Start { parent: Some(s) });
        }
        for (t, v) in [(1, 2), (2, 3)] {
            writes.push(add(
                &mut g,
                t,
                LabelKind::Write {
                    loc: Loc(1),
                    bytes: 8,
                    ord: MemOrder::Relaxed,
                    val: v,
                    kind: WriteKind::Plain,
                },
            ));
        }
        for w in [writes[1], writes[0]] {
            add(
                &mut g,
                3,
                LabelKind::Read {
                    loc: Loc(1),
                    bytes: 8,
                    ord: MemOrder::Relaxed,
                    kind: ReadKind::Plain,
                    rf: Some(w),
                },
            );
        }
        let co = brute_force(sc.as_ref(), &g).expect("consistent");
        assert_eq!(co, vec![(Loc(1), vec![writes[1], writes[0]])]);
        // T1 reading 3 after writing 2 needs co W1 < W2: no order fits both.
        add(
            &mut g,
            1,
            LabelKind::Read {
                loc: Loc(1),
                bytes: 8,
                ord: MemOrder::Relaxed,
                kind: ReadKind::Plain,
                rf: Some(writes[1]),
            },
        );
        assert!(brute_force(sc.as_ref(), &g).is_none(), "{g}");
    }

    #[test]
    fn random_graphs_are_deterministic_and_varied() {
        let rc11 = by_name("rc11").unwrap();
        let shape = RandomGraph::default();
        let a = random_graph(7, &shape, rc11.as_ref()).to_string();
        assert_eq!(a, random_graph(7, &shape, rc11.as_ref()).to_string());
        let distinct: std::collections::HashSet<String> = (0..200)
            .map(|s| random_graph(s, &shape, rc11.as_ref()).to_string())
            .collect();
        assert!(distinct.len() > 150);
        let consistent = (0..200)
            .filter(|&s| {
                brute_force(rc11.as_ref(), &random_graph(s, &shape, rc11.as_ref())).is_some()
            })
            .count();
        assert!(
            (20..190).contains(&consistent),
            "{consistent} of 200 consistent"
        );
    }
}
