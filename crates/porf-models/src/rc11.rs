//! RC11 (Kokologiannakis et al., PLDI 2019, App. A.3): C11 with the repaired SC semantics.
//!
//! * hb = `(po ∪ sync ∪ sw)⁺` with
//!   `sw = [E⊒rel]; ([F]; po)?; rs; rf; [R⊒rlx]; (po; [F])?; [E⊒acq]` and
//!   `rs = [W]; po|loc?; [W⊒rlx]; (rf; rmw)*`;
//! * coherence `irreflexive(hb; eco?)` (shared with RA: [`crate::ra::coherent_with`]);
//! * atomicity; `acyclic(psc)` when the graph has seq_cst events; `acyclic(porf)`
//!   (only in [`MemoryModel::is_consistent`]: the explorer guarantees it).
//!
//! Incrementally, sw is computed with *message views* ([`msg_view`]): what a write
//! releases to whoever acquires it. psc: [`psc_reach`] decides whether the new event
//! closes a psc cycle by a forward search from it, SC fences included (O(1) when the
//! event has no eco successor, e.g. an SC write placed co-last; otherwise the part of
//! the graph psc-after its eco successors), exact by the argument in its docs; the
//! whole-graph check ([`psc_with_whole`], with the stored hb views) stays as a
//! debug-build assertion.
//!
//! hb never depends on co: release sequences follow `po|loc` and `rf; rmw`, sw adds
//! rf and po, and [`msg_view`] walks po and the read parts' rf. So rf mode
//! ([`crate::rf::wb`]) computes hb once, from (events, po, rf), and searches co only.
//!
//! These are the definitions of herd7's `rc11.cat`. GenMC 0.11's variant
//! ([`crate::rc11_genmc`]) shares this code through [`Flavor`].

mod psc_reach;

use crate::atomicity;
use crate::ra::{coherent, coherent_with};
use crate::relation::{Base, Relation};
use crate::sc::po_sync_view;
use crate::MemoryModel;
use porf_graph::{EventId, Graph, Label, LabelKind, MemOrder, View, WriteKind};

/// RC11.
#[derive(Copy, Clone, Debug, Default)]
pub struct Rc11;

/// Which definition of RC11 the shared code follows.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// herd7's `rc11.cat` (Lahav et al., PLDI 2017): porf's `rc11`.
    Herd,
    /// GenMC 0.11's checker: C++20 release sequences and its own psc (`rc11-genmc`);
    /// a spawn is also a release fence and a join an acquire fence (GenMC's
    /// `ThreadCreate` is release, its `ThreadJoin` acquire, and its `sw` has
    /// `[F|TC]` and `[F|TJ]` where C11 has `[F]`).
    Genmc,
}

impl Flavor {
    /// Does `lab` act as a release fence (`[F⊒rel]`, and in GenMC's flavour a spawn)?
    fn release_fence(self, lab: &Label) -> bool {
        match lab.kind {
            LabelKind::Fence { ord } => ord.is_release(),
            LabelKind::Spawn { .. } => self == Flavor::Genmc,
            _ => false,
        }
    }
    /// Does `lab` act as an acquire fence (`[F⊒acq]`, and in GenMC's flavour a join)?
    fn acquire_fence(self, lab: &Label) -> bool {
        match lab.kind {
            LabelKind::Fence { ord } => ord.is_acquire(),
            LabelKind::Join { .. } => self == Flavor::Genmc,
            _ => false,
        }
    }
}

impl MemoryModel for Rc11 {
    fn name(&self) -> &'static str {
        "rc11"
    }

    /// [`crate::floor::hb_floor`]: the model is coherent with respect to its hb.
    fn co_floor(&self, g: &Graph, loc: porf_graph::Loc, view: &View) -> usize {
        crate::floor::hb_floor(g, loc, view, None)
    }
    /// [`po_sync_view`], plus: an acquire read gets the message view of its source; an
    /// acquire fence gets the message views of the sources of all po-earlier atomic
    /// reads (scanning back to the previous acquire fence, which already has the rest).
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        hb_view(g, e, Flavor::Herd)
    }

    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        consistent_with(g, e, Flavor::Herd)
    }

    fn is_consistent(&self, g: &Graph) -> bool {
        is_consistent(g, Flavor::Herd)
    }

    /// Writes-before, with an exact search when psc needs co ([`crate::rf::wb`]).
    fn rf_consistent(&self, g: &Graph) -> Option<crate::rf::CoWitness> {
        crate::rf::wb::check(g, crate::rf::wb::Psc::Herd).witness
    }
}

/// [`MemoryModel::hb_view`] of RC11 in flavour `f`. With [`Flavor::Genmc`], an
/// acquire fence also acquires through po-earlier non-atomic reads, as GenMC's
/// `rf; po; [F]` does.
pub(crate) fn hb_view(g: &Graph, e: EventId, f: Flavor) -> View {
    let mut v = po_sync_view(g, e);
    let lab = g.label(e);
    match lab.kind {
        LabelKind::Read {
            ord, rf: Some(w), ..
        } if ord.is_acquire() => {
            v.join(&msg_view(g, w, f));
        }
        _ if f.acquire_fence(lab) => {
            // Reads before an earlier acquire fence are already in its hb view.
            for lab in g.thread(e.tid).range(..e.idx as usize).rev() {
                match lab.kind {
                    _ if f.acquire_fence(lab) => break,
                    LabelKind::Read {
                        ord, rf: Some(w), ..
                    } if ord.is_atomic() || f == Flavor::Genmc => v.join(&msg_view(g, w, f)),
                    _ => {}
                }
            }
        }
        _ => {}
    }
    v
}

/// [`MemoryModel::consistent_with`] of RC11 in flavour `f`: coherence, then whether
/// adding `e` closes a psc cycle ([`psc_reach::closes_cycle`], exact, with or without
/// SC fences; checked against the whole-graph [`psc_with_whole`] in debug builds).
pub(crate) fn consistent_with(g: &Graph, e: EventId, f: Flavor) -> bool {
    let hb_e = hb_view(g, e, f);
    if !coherent_with(g, e, &hb_e) {
        return false;
    }
    let ok = !psc_reach::closes_cycle(g, e, &hb_e, f);
    debug_assert_eq!(
        ok,
        psc_with_whole(g, e, &hb_e, f),
        "incremental psc disagrees on adding {e} ({f:?}):\n{g}"
    );
    ok
}

/// `acyclic(psc)` of the whole graph, with `hb_e` as `e`'s hb view and the stored
/// views for the others: what [`psc_reach`] replaces (debug assertions, tests).
pub(crate) fn psc_with_whole(g: &Graph, e: EventId, hb_e: &View, f: Flavor) -> bool {
    if !has_sc(g) {
        return true;
    }
    let b = Base::new(g);
    let hb = Relation::from_fn(b.len(), |x, y| {
        let (a, c) = (b.idx.event(x), b.idx.event(y));
        let view = if c == e { hb_e } else { &g.label(c).hb };
        a != c && view.contains(a)
    });
    psc_acyclic(g, &b, &hb, &eco_direct(g, &b), f)
}

/// [`MemoryModel::is_consistent`] of RC11 in flavour `f`.
pub(crate) fn is_consistent(g: &Graph, f: Flavor) -> bool {
    if !atomicity::holds(g) {
        return false;
    }
    let b = Base::new(g);
    if !b.porf().is_acyclic() {
        return false;
    }
    let hb = hb_relation(g, &b, f);
    let eco = b.eco();
    coherent(&hb, &eco) && (!has_sc(g) || psc_acyclic(g, &b, &hb, &eco, f))
}

/// The message view of write `w`: the union of hb(`a`) over the release events `a`
/// with `a sw r` for every acquire `r` reading from `w`. For an atomic `w`: hb of the
/// po-latest release write to `w`'s location at or before `w` in its thread, hb of the
/// po-latest release fence before `w`, and, if `w` is an RMW's write part, the
/// message view of its read part's source (release sequences through RMW chains).
/// Empty for a non-atomic `w`. Uses the hb views stored in `g`.
///
/// [`Flavor::Genmc`] (C++20 release sequences, `[W⊒rel]; ([F]; po)?; (rf; rmw)*`): the
/// release write must be `w` itself, not a po-earlier write, and a non-atomic `w`
/// still releases what its po-earlier release fence does.
pub(crate) fn msg_view(g: &Graph, w: EventId, f: Flavor) -> View {
    let mut v = View::new();
    let mut cur = Some(w);
    while let Some(w) = cur {
        let LabelKind::Write { loc, ord, kind, .. } = g.label(w).kind else {
            panic!("message view of a non-write {w}");
        };
        if !ord.is_atomic() && f == Flavor::Herd {
            break;
        }
        // GenMC: only `w` itself may be the release write.
        let skip_writes = f == Flavor::Genmc && !ord.is_release();
        // The po-latest release write to `loc` or release fence at or before `w`:
        // hb views grow along po, so the hb of any po-earlier one is already in its
        // hb, and the scan stops at the first hit.
        for lab in g.thread(w.tid).range(..=w.idx as usize).rev() {
            let hit = match lab.kind {
                LabelKind::Write { loc: l, ord: o, .. } => {
                    !skip_writes && l == loc && o.is_release()
                }
                _ => f.release_fence(lab),
            };
            if hit {
                v.join(&lab.hb);
                break;
            }
        }
        cur = match kind {
            WriteKind::Exclusive => g.label(atomicity::read_part(w)).rf(),
            _ => None,
        };
    }
    v
}

/// True iff some access or fence of `g` is seq_cst.
pub(crate) fn has_sc(g: &Graph) -> bool {
    g.events().any(|(_, l)| l.ord() == Some(MemOrder::SeqCst))
}

/// The declarative hb: `(po ∪ sync ∪ sw)⁺`, straight from the definitions. With
/// [`Flavor::Genmc`]: `rs = [W]; (rf; rmw)*` and `sw = [E⊒rel]; ([F]; po)?; rs; rf;
/// ([R⊒acq] ∪ po; [F⊒acq])` (GenMC 0.11's `relseq`, `sw_to_r` and `sw_to_f`).
pub(crate) fn hb_relation(g: &Graph, b: &Base, f: Flavor) -> Relation {
    let n = b.len();
    let lab = |i: usize| b.idx.label(g, i);
    let ord = |i: usize| lab(i).ord();
    let is_w = |i: usize| lab(i).is_write();
    let rel_f = |i: usize| f.release_fence(lab(i));
    let acq_f = |i: usize| f.acquire_fence(lab(i));
    let atomic = |i: usize| ord(i).is_some_and(|o| o.is_atomic());
    let rel = |i: usize| ord(i).is_some_and(|o| o.is_release());
    let acq = |i: usize| ord(i).is_some_and(|o| o.is_acquire());
    // rs = [W]; po|loc?; [W⊒rlx]; (rf; rmw)*  (GenMC: [W]; (rf; rmw)*)
    let head = match f {
        Flavor::Herd => {
            b.po.filter(|x, y| lab(x).loc().is_some() && lab(x).loc() == lab(y).loc())
                .reflexive()
                .restrict(is_w, |y| is_w(y) && atomic(y))
        }
        Flavor::Genmc => Relation::identity(n, is_w),
    };
    let rs = head.compose(&b.rf.compose(&b.rmw).star());
    // sw = [E⊒rel]; ([F]; po)?; rs; rf; [R⊒rlx]; (po; [F])?; [E⊒acq]
    let f_po =
        b.po.restrict(rel_f, |_| true)
            .reflexive()
            .restrict(|i| rel(i) || rel_f(i), |_| true);
    let po_f =
        b.po.restrict(|_| true, acq_f)
            .reflexive()
            .restrict(|_| true, |i| acq(i) || acq_f(i));
    let rf_rlx = match f {
        Flavor::Herd => b.rf.restrict(|_| true, atomic),
        Flavor::Genmc => b.rf.clone(),
    };
    let sw = f_po.compose(&rs).compose(&rf_rlx).compose(&po_f);
    debug_assert_eq!(sw.size(), n);
    b.po.union(&b.sync).union(&sw).closure()
}

/// eco from co positions, without a closure: ranking writes by co position (init = 0)
/// and reads by their source's, `a eco b` iff `a`, `b` access one location and
/// (write→write) rank(a) < rank(b); (write→read) rank(a) ≤ rank(b);
/// (read→write) rank(a) < rank(b); (read→read) rank(a) < rank(b).
fn eco_direct(g: &Graph, b: &Base) -> Relation {
    let n = b.len();
    let info: Vec<Option<(porf_graph::Loc, bool, usize)>> = (0..n)
        .map(|i| {
            let e = b.idx.event(i);
            let lab = g.label(e);
            let loc = lab.loc()?;
            let rank = match lab.kind {
                LabelKind::Read { rf, .. } => g.co_pos(rf),
                _ => g.co_pos(Some(e)),
            };
            Some((loc, lab.is_write(), rank))
        })
        .collect();
    Relation::from_fn(n, |x, y| match (info[x], info[y]) {
        (Some((l1, w1, r1)), Some((l2, w2, r2))) if l1 == l2 && x != y => {
            if w1 && !w2 {
                r1 <= r2
            } else {
                r1 < r2
            }
        }
        _ => false,
    })
}

/// `acyclic(psc)` in flavour `f`: [`Flavor::Herd`] is App. A.3.4 (rc11.cat),
/// `scb = po ∪ po|≠loc; hb; po|≠loc ∪ hb|loc ∪ co ∪ fr` and
/// `psc = ([E^sc] ∪ [F^sc]; hb?); scb; ([E^sc] ∪ hb?; [F^sc])
///        ∪ [F^sc]; (hb ∪ hb; eco; hb); [F^sc]`.
/// [`Flavor::Genmc`] is GenMC 0.11's (its Kater-generated `RC11Checker`):
/// `scb = po ∪ rf ∪ co ∪ fr` and
/// `psc = [E^sc]; po; hb; po; [E^sc]
///        ∪ ([E^sc] ∪ [F^sc]; hb); scb; ([E^sc] ∪ hb; [F^sc])
///        ∪ [F^sc]; (hb ∪ hb; eco; hb); [F^sc]`,
/// where po includes the edge from an RMW's read part to its write part.
/// `hb` and `eco` are strict. "Same location" holds only between two accesses of one
/// location (so a fence is never at the location of anything, as in herd's `po \ loc`).
pub(crate) fn psc_acyclic(g: &Graph, b: &Base, hb: &Relation, eco: &Relation, f: Flavor) -> bool {
    psc_relation(g, b, hb, eco, f).is_acyclic()
}

/// psc itself, as [`psc_acyclic`] defines it.
pub(crate) fn psc_relation(
    g: &Graph,
    b: &Base,
    hb: &Relation,
    eco: &Relation,
    f: Flavor,
) -> Relation {
    let n = b.len();
    let lab = |i: usize| b.idx.label(g, i);
    let sc = |i: usize| lab(i).ord() == Some(MemOrder::SeqCst);
    let fsc = |i: usize| sc(i) && matches!(lab(i).kind, LabelKind::Fence { .. });
    let id_sc = Relation::identity(n, sc);
    let mut psc = match f {
        Flavor::Herd => {
            let same_loc = b.same_loc(g);
            let po_nl = b.po.filter(|x, y| !same_loc.contains(x, y));
            let scb =
                b.po.union(&po_nl.compose(hb).compose(&po_nl))
                    .union(&hb.filter(|x, y| same_loc.contains(x, y)))
                    .union(&b.co)
                    .union(&b.fr);
            let left = id_sc.union(&hb.reflexive().restrict(fsc, |_| true));
            let right = id_sc.union(&hb.reflexive().restrict(|_| true, fsc));
            left.compose(&scb).compose(&right)
        }
        Flavor::Genmc => {
            let scb = b.po.union(&b.rf).union(&b.co).union(&b.fr);
            let left = id_sc.union(&hb.restrict(fsc, |_| true));
            let right = id_sc.union(&hb.restrict(|_| true, fsc));
            let mut psc = left.compose(&scb).compose(&right);
            let po_hb_po = b.po.restrict(sc, |_| true).compose(hb).compose(&b.po);
            psc.union_with(&po_hb_po.restrict(|_| true, sc));
            psc
        }
    };
    let fences = hb.union(&hb.compose(eco).compose(hb)).restrict(fsc, fsc);
    psc.union_with(&fences);
    psc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::race;
    use crate::relation::testkit::{self, Expect, Lit, X, Y};
    use MemOrder::{Acquire, NonAtomic, Relaxed, Release};

    #[test]
    fn litmus_shapes() {
        testkit::check_shapes(
            &Rc11,
            Expect {
                sb: true,
                sb_sc: false,
                mp: true,
                mp_fences: false,
                sb_fences: false,
                lb: false,
                corr: false,
                two_plus_two_w: true,
            },
        );
    }

    #[test]
    fn execution_counts() {
        testkit::check_counts(&Rc11);
    }

    #[test]
    fn race_unordered_na_accesses() {
        let mut l = Lit::new(&Rc11, 2);
        let w = l.write(1, X, NonAtomic);
        let r = l.read(2, X, NonAtomic, None);
        assert_eq!(race::race_with(&l.g, r), Some(w));
        assert_eq!(race::all_races(&l.g), vec![(w, r)]);
    }

    #[test]
    fn no_race_with_message_passing() {
        let mut l = Lit::new(&Rc11, 2);
        let w = l.write(1, X, NonAtomic);
        let f = l.write(1, Y, Release);
        l.read(2, Y, Acquire, Some(f));
        let r = l.read(2, X, NonAtomic, Some(w));
        assert!(l.check());
        assert_eq!(race::race_with(&l.g, r), None);
        assert!(race::all_races(&l.g).is_empty());
    }

    #[test]
    fn relaxed_flag_does_not_order() {
        let mut l = Lit::new(&Rc11, 2);
        let w = l.write(1, X, NonAtomic);
        let f = l.write(1, Y, Relaxed);
        l.read(2, Y, Relaxed, Some(f));
        let r = l.read(2, X, NonAtomic, Some(w));
        assert!(l.check());
        assert_eq!(race::race_with(&l.g, r), Some(w));
    }

    #[test]
    fn release_sequence_through_rmw() {
        // x = 1 (na); y = 1 (rel) || fetch_add(y) (rlx) || y == 2 (acq); x (na)
        let mut l = Lit::new(&Rc11, 3);
        let wx = l.write(1, X, NonAtomic);
        let wy = l.write(1, Y, Release);
        l.read(2, Y, Relaxed, Some(wy));
        let u = l.push(
            2,
            LabelKind::Write {
                loc: Y,
                bytes: 8,
                ord: Relaxed,
                val: 2,
                kind: WriteKind::Exclusive,
            },
        );
        l.read(3, Y, Acquire, Some(u));
        assert!(l.g.label(l.last).hb.contains(wx));
        l.read(3, X, NonAtomic, None);
        assert!(
            !l.check(),
            "reading x = 0 after synchronising is incoherent"
        );
    }
}
