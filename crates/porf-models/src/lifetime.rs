//! Lifetime errors of dynamically allocated memory: every access and every free of a
//! block is checked against the block's `Malloc` and `Free` events and the model's
//! happens-before (the hb views stored in the graph).
//!
//! For a block `b` with malloc `m` (absent if the graph has none):
//! * an access `a` of `b` with `m ∉ hb(a)` is an access to non-allocated memory (the
//!   allocation is not visible to the accessing thread);
//! * an access `a` with `m ∈ hb(a)` that reaches beyond the block's size is out of bounds;
//! * an access `a` and a free `f` of `b` with `a ∉ hb(f)` (the access is hb-after the
//!   free or unordered with it) is an access to freed memory;
//! * a free `f` with `m ∉ hb(f)` is a free of non-allocated memory;
//! * two frees of `b` are a double free (ordered or not).
//!
//! GenMC's hazard pointers (as GenMC 0.11 checks them): a *retire* of `b`
//! (`__VERIFIER_hp_retire`, a free with `retire` set) is a free for every rule above,
//! except that an access `a` *protected* by a hazard pointer is exempt from the
//! access-to-freed-memory rule with that retire. `a` is protected when, among the
//! `HpProtect` notes po-before it in its thread, the po-latest one protecting a
//! pointer into `b` names a hazard pointer that no po-later note (before `a`)
//! protects anything else with (GenMC's `isHazptrProtected`; `__VERIFIER_hp_clear`
//! is a store, which does not end a protection).
//!
//! GenMC's final-write annotation (`__VERIFIER_final_write`): a write `w` followed in
//! po by a `FinalWrite` note of its location is final, and every other write to that
//! location must happen before `w`; a write that does not is an annotation error
//! ([`Violation::NotFinal`]). GenMC (with `-helper`) checks this when a store is added
//! to a location holding exactly one other store; the rule here checks every pair, so
//! it reports every error GenMC's check reports, and the pairs GenMC's skips.
//!
//! Every condition is a function of the events involved and their hb views, so an
//! explorer can check each one when the later of its events is added
//! ([`errors_with`]) and get the same set as checking a whole graph ([`all_errors`]).

use porf_graph::{EventId, Graph, Label, LabelKind, Loc, Note, ReadKind};

/// What went wrong.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Violation {
    AccessNonAllocated,
    OutOfBounds,
    UninitializedRead,
    AccessFreed,
    FreeNonAllocated,
    DoubleFree,
    /// A write to the location of a final write (`__VERIFIER_final_write`) that does
    /// not happen before it.
    NotFinal,
}

impl Violation {
    /// The message reported to the user.
    pub fn message(self) -> &'static str {
        match self {
            Violation::AccessNonAllocated => {
                "access to non-allocated memory: the block's malloc does not happen-before the access"
            }
            Violation::OutOfBounds => "out-of-bounds heap access",
            Violation::UninitializedRead => {
                "read of uninitialised memory: no write to this heap location is visible"
            }
            Violation::AccessFreed => "access to freed memory",
            Violation::FreeNonAllocated => {
                "free of non-allocated memory: the block's malloc does not happen-before the free"
            }
            Violation::DoubleFree => "double free",
            Violation::NotFinal => {
                "annotation error: a write to the location of a final write \
                 (`__VERIFIER_final_write`) does not happen before it"
            }
        }
    }
}

/// One lifetime error: the violation and the events involved (the access or free at
/// fault first; for `AccessFreed` the access then the free; for `DoubleFree` both frees;
/// for `NotFinal` the final write then the other write).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LifetimeError {
    pub violation: Violation,
    pub events: Vec<EventId>,
}

fn err(violation: Violation, events: Vec<EventId>) -> LifetimeError {
    LifetimeError { violation, events }
}

/// The block the event is about: an access's location's block, or a malloc's or free's.
fn block_of(g: &Graph, e: EventId) -> Option<Loc> {
    let lab = g.label(e);
    match lab.loc() {
        Some(loc) => g.loc_info(loc).block,
        None => lab.block(),
    }
}

/// The unary conditions of access or free `e` (non-allocated, out of bounds,
/// uninitialised read).
fn unary(g: &Graph, e: EventId, base: Loc, out: &mut Vec<LifetimeError>) {
    let lab = g.label(e);
    let info = g.block(base);
    let malloc = info.and_then(|b| b.malloc);
    let visible = malloc.is_some_and(|(m, _)| lab.hb.contains(m));
    match lab.kind {
        LabelKind::Free { .. } if !visible => out.push(err(Violation::FreeNonAllocated, vec![e])),
        LabelKind::Read { loc, bytes, .. } | LabelKind::Write { loc, bytes, .. } => {
            if !visible {
                out.push(err(Violation::AccessNonAllocated, vec![e]));
            } else if let Some((m, size)) = malloc {
                let end = (loc.0 - base.0).saturating_add(bytes.max(1) as u64);
                if loc.0 < base.0 || end > size {
                    out.push(err(Violation::OutOfBounds, vec![e]));
                } else if lab.read_kind() != Some(ReadKind::Copy) && reads_no_write(g, lab, m) {
                    out.push(err(Violation::UninitializedRead, vec![e]));
                }
            }
        }
        _ => {}
    }
}

/// Whether read `r` reads a heap cell no write has initialised: it reads from no write,
/// its location lies in a dynamically allocated block, and the block's malloc is in the
/// graph and not zero-filled. (A copy read, [`ReadKind::Copy`], is then told so instead
/// of being an error; for any other read [`errors_with`] reports it.)
pub fn reads_uninitialised(g: &Graph, r: EventId) -> bool {
    let lab = g.label(r);
    let malloc = block_of(g, r)
        .and_then(|b| g.block(b))
        .and_then(|b| b.malloc);
    malloc.is_some_and(|(m, _)| reads_no_write(g, lab, m))
}

/// `lab` is a read of a cell of the block allocated by `malloc` that reads from no
/// write, and the block is not zero-filled.
fn reads_no_write(g: &Graph, lab: &Label, malloc: EventId) -> bool {
    lab.is_read() && lab.rf().is_none() && !zero_filled(g, malloc)
}

fn zero_filled(g: &Graph, malloc: EventId) -> bool {
    matches!(g.label(malloc).kind, LabelKind::Malloc { zeroed: true, .. })
}

/// The lifetime errors of access or free `e`: its unary ones, and those it forms with
/// the events `other` admits (each pair of an access and a free, or of two frees).
fn errors_of(g: &Graph, e: EventId, other: impl Fn(EventId) -> bool) -> Vec<LifetimeError> {
    let mut out = Vec::new();
    let Some(base) = block_of(g, e) else {
        return out;
    };
    let lab = g.label(e);
    if matches!(lab.kind, LabelKind::Malloc { .. }) {
        return out;
    }
    unary(g, e, base, &mut out);
    let frees = g.block(base).map_or(&[][..], |b| b.frees.as_slice());
    let frees = frees.iter().copied().filter(|&f| f != e && other(f));
    if lab.is_access() {
        for f in frees {
            if freed(g, e, f, base) {
                out.push(err(Violation::AccessFreed, vec![e, f]));
            }
        }
    } else {
        for f in frees {
            out.push(err(Violation::DoubleFree, vec![e, f]));
        }
        for a in g.block_accesses(base).filter(|&a| other(a)) {
            if freed(g, a, e, base) {
                out.push(err(Violation::AccessFreed, vec![a, e]));
            }
        }
    }
    out
}

/// Whether access `a` of block `base` is an access to memory freed by `f`: it is not
/// hb-before `f`, and `f` is not a retire that a hazard pointer protects `a` from.
fn freed(g: &Graph, a: EventId, f: EventId, base: Loc) -> bool {
    let ordered = g.label(f).hb.contains(a);
    let retire = matches!(g.label(f).kind, LabelKind::Free { retire: true, .. });
    let excused = retire && protected(g, a, base);
    !(ordered || excused)
}

/// Whether access `a` of block `base` is protected by a hazard pointer (module docs).
fn protected(g: &Graph, a: EventId, base: Loc) -> bool {
    let mut later: Vec<Loc> = Vec::new();
    for i in (0..a.idx).rev() {
        if let LabelKind::Note {
            note: Note::HpProtect { hp, block },
        } = g.label(EventId::new(a.tid, i)).kind
        {
            if block == Some(base) {
                return !later.contains(&hp);
            }
            later.push(hp);
        }
    }
    false
}

/// The write a `FinalWrite` note `m` of `loc` marks final: the event just before it in
/// po, if that is a write to `loc`.
fn marked_write(g: &Graph, m: EventId, loc: Loc) -> Option<EventId> {
    let w = EventId::new(m.tid, m.idx.checked_sub(1)?);
    matches!(g.label(w).kind, LabelKind::Write { loc: l, .. } if l == loc).then_some(w)
}

/// The `FinalWrite` note marking write `w` (to `loc`) final, if any: the event just
/// after it in po.
fn final_note(g: &Graph, w: EventId, loc: Loc) -> Option<EventId> {
    let m = EventId::new(w.tid, w.idx + 1);
    (g.contains(m)
        && matches!(g.label(m).kind, LabelKind::Note { note: Note::FinalWrite { loc: l } } if l == loc))
    .then_some(m)
}

/// The final-write errors of `e` (a write or a `FinalWrite` note) with the events
/// `other` admits: each pair of a final write and another write to its location that
/// does not happen before it.
fn final_errors(
    g: &Graph,
    e: EventId,
    other: &impl Fn(EventId) -> bool,
    out: &mut Vec<LifetimeError>,
) {
    let writes = |loc: Loc| {
        g.loc_info(loc)
            .accesses
            .iter()
            .copied()
            .filter(|&s| g.label(s).is_write())
    };
    match g.label(e).kind {
        LabelKind::Note {
            note: Note::FinalWrite { loc },
        } => {
            let Some(w) = marked_write(g, e, loc) else {
                return;
            };
            for s in writes(loc).filter(|&s| s != w && other(s)) {
                if !g.label(w).hb.contains(s) {
                    out.push(err(Violation::NotFinal, vec![w, s]));
                }
            }
        }
        LabelKind::Write { loc, .. } if g.has_final_notes() => {
            for w in writes(loc).filter(|&w| w != e) {
                if final_note(g, w, loc).is_some_and(other) && !g.label(w).hb.contains(e) {
                    out.push(err(Violation::NotFinal, vec![w, e]));
                }
            }
        }
        _ => {}
    }
}

/// Every lifetime error involving `e`, the newest event of `g` or a read just given a
/// new source (its hb view filled in; no other event has `e` in its hb view).
pub fn errors_with(g: &Graph, e: EventId) -> Vec<LifetimeError> {
    let mut out = errors_of(g, e, |_| true);
    final_errors(g, e, &|_| true, &mut out);
    out
}

/// Every lifetime error of the graph, each with the stamp of its newest event (when
/// an explorer adding events in insertion order meets it): each event's errors with
/// the events added before it.
pub fn all_errors(g: &Graph) -> Vec<(u32, LifetimeError)> {
    let mut out = Vec::new();
    for (e, lab) in g.events() {
        let before = |o: EventId| g.label(o).stamp < lab.stamp;
        let mut errs = errors_of(g, e, before);
        final_errors(g, e, &before, &mut errs);
        out.extend(errs.into_iter().map(|x| (lab.stamp, x)));
    }
    out.sort_by_key(|(s, _)| *s);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use porf_graph::{MemOrder, SrcLoc, View, WriteKind};

    const B: Loc = Loc(1000);

    /// main (thread 0) mallocs 8 bytes at B and spawns thread 1; hb = po plus spawn.
    fn base_graph() -> Graph {
        let mut g = Graph::new();
        g.ensure_loc(B, 0, Some(B));
        g.ensure_loc(Loc(1004), 0, Some(B));
        add(&mut g, 0, LabelKind::Start { parent: None });
        add(
            &mut g,
            0,
            LabelKind::Malloc {
                base: B,
                size: 8,
                zeroed: true,
            },
        );
        let s = add(
            &mut g,
            0,
            LabelKind::Spawn {
                child: 1,
                entry: 0,
                arg: 0,
                symm: None,
            },
        );
        add(&mut g, 1, LabelKind::Start { parent: Some(s) });
        g
    }

    /// Adds an event with hb = porf (enough for these tests).
    fn add(g: &mut Graph, t: u32, kind: LabelKind) -> EventId {
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        let v: View = g.label(e).porf.clone();
        g.label_mut(e).hb = v;
        e
    }

    fn write(g: &mut Graph, t: u32, loc: Loc, bytes: u8) -> EventId {
        let w = add(
            g,
            t,
            LabelKind::Write {
                loc,
                bytes,
                ord: MemOrder::NonAtomic,
                val: 1,
                kind: WriteKind::Plain,
            },
        );
        let n = g.co(loc).len();
        g.co_insert(w, n + 1);
        w
    }

    fn read(g: &mut Graph, t: u32, loc: Loc, rf: Option<EventId>) -> EventId {
        read_kind(g, t, loc, rf, ReadKind::Plain)
    }

    fn read_kind(g: &mut Graph, t: u32, loc: Loc, rf: Option<EventId>, kind: ReadKind) -> EventId {
        add(
            g,
            t,
            LabelKind::Read {
                loc,
                bytes: 2,
                ord: MemOrder::NonAtomic,
                kind,
                rf,
            },
        )
    }

    fn kinds(v: &[LifetimeError]) -> Vec<Violation> {
        v.iter().map(|e| e.violation).collect()
    }

    #[test]
    fn free_unordered_with_an_access_is_access_to_freed_memory() {
        let mut g = base_graph();
        let w = write(&mut g, 1, B, 4);
        assert!(errors_with(&g, w).is_empty());
        let f = add(
            &mut g,
            0,
            LabelKind::Free {
                base: B,
                retire: false,
            },
        );
        let found = errors_with(&g, f);
        assert_eq!(kinds(&found), vec![Violation::AccessFreed]);
        assert_eq!(found[0].events, vec![w, f]);
        assert_eq!(all_errors(&g).len(), 1);
    }

    fn protect(g: &mut Graph, t: u32, hp: Loc, block: Option<Loc>) -> EventId {
        add(
            g,
            t,
            LabelKind::Note {
                note: Note::HpProtect { hp, block },
            },
        )
    }

    /// GenMC's `isHazptrProtected`: the latest protection of a pointer into the block
    /// counts, unless its hazard pointer protected something else since.
    #[test]
    fn a_retire_exempts_protected_accesses_only() {
        const HP: Loc = Loc(2000);
        // Thread 1 protects B and reads it; thread 0 retires B, unordered.
        let mut g = base_graph();
        protect(&mut g, 1, HP, Some(B));
        let r = read(&mut g, 1, B, None);
        let f = add(
            &mut g,
            0,
            LabelKind::Free {
                base: B,
                retire: true,
            },
        );
        assert!(errors_with(&g, f).is_empty());
        assert!(all_errors(&g).is_empty());
        // The same access after a free (not a retire) is an error.
        let mut g = base_graph();
        protect(&mut g, 1, HP, Some(B));
        let r2 = read(&mut g, 1, B, None);
        let f2 = add(
            &mut g,
            0,
            LabelKind::Free {
                base: B,
                retire: false,
            },
        );
        assert_eq!(errors_with(&g, f2)[0].events, vec![r2, f2]);
        // HP re-protects another block before the access: not protected.
        let mut g = base_graph();
        protect(&mut g, 1, HP, Some(B));
        protect(&mut g, 1, HP, Some(Loc(3000)));
        let r3 = read(&mut g, 1, B, None);
        let f3 = add(
            &mut g,
            0,
            LabelKind::Free {
                base: B,
                retire: true,
            },
        );
        assert_eq!(errors_with(&g, f3)[0].events, vec![r3, f3]);
        // Another hazard pointer protecting something else does not matter; an access
        // added after the retire is checked the same way.
        let mut g = base_graph();
        let f4 = add(
            &mut g,
            0,
            LabelKind::Free {
                base: B,
                retire: true,
            },
        );
        protect(&mut g, 1, HP, Some(B));
        protect(&mut g, 1, Loc(2008), Some(Loc(3000)));
        let r4 = read(&mut g, 1, B, None);
        assert!(errors_with(&g, r4).is_empty());
        assert_ne!(r, r4);
        // Two retires are a double free.
        let f5 = add(
            &mut g,
            1,
            LabelKind::Free {
                base: B,
                retire: true,
            },
        );
        assert!(errors_with(&g, f5).contains(&err(Violation::DoubleFree, vec![f5, f4])));
    }

    /// A final write must have every other write to its location hb-before it.
    #[test]
    fn a_final_write_needs_every_other_write_before_it() {
        const X: Loc = Loc(4000);
        let note = |g: &mut Graph, t| {
            add(
                g,
                t,
                LabelKind::Note {
                    note: Note::FinalWrite { loc: X },
                },
            )
        };
        // Thread 0 writes X before the spawn: hb-before thread 1's final write.
        let mut g = Graph::new();
        g.ensure_loc(X, 0, None);
        add(&mut g, 0, LabelKind::Start { parent: None });
        let w0 = write(&mut g, 0, X, 4);
        let s = add(
            &mut g,
            0,
            LabelKind::Spawn {
                child: 1,
                entry: 0,
                arg: 0,
                symm: None,
            },
        );
        add(&mut g, 1, LabelKind::Start { parent: Some(s) });
        let w1 = write(&mut g, 1, X, 4);
        let m = note(&mut g, 1);
        assert!(g.has_final_notes());
        assert!(errors_with(&g, m).is_empty());
        // Thread 0 writes X again, unordered with the final write.
        let w2 = write(&mut g, 0, X, 4);
        assert_eq!(
            errors_with(&g, w2),
            vec![err(Violation::NotFinal, vec![w1, w2])]
        );
        let all: Vec<_> = all_errors(&g).into_iter().map(|(_, e)| e).collect();
        assert_eq!(all, vec![err(Violation::NotFinal, vec![w1, w2])]);
        assert_ne!(w0, w2);
        // The note added after an unordered write finds it too.
        let mut g = Graph::new();
        g.ensure_loc(X, 0, None);
        add(&mut g, 0, LabelKind::Start { parent: None });
        let s = add(
            &mut g,
            0,
            LabelKind::Spawn {
                child: 1,
                entry: 0,
                arg: 0,
                symm: None,
            },
        );
        add(&mut g, 1, LabelKind::Start { parent: Some(s) });
        let a = write(&mut g, 0, X, 4);
        let b = write(&mut g, 1, X, 4);
        let m = note(&mut g, 1);
        assert_eq!(
            errors_with(&g, m),
            vec![err(Violation::NotFinal, vec![b, a])]
        );
    }

    #[test]
    fn access_after_free_and_double_free() {
        let mut g = base_graph();
        let f = add(
            &mut g,
            0,
            LabelKind::Free {
                base: B,
                retire: false,
            },
        );
        let w = write(&mut g, 0, Loc(1004), 4);
        assert_eq!(kinds(&errors_with(&g, w)), vec![Violation::AccessFreed]);
        let f2 = add(
            &mut g,
            1,
            LabelKind::Free {
                base: B,
                retire: false,
            },
        );
        let found = errors_with(&g, f2);
        assert!(found.contains(&err(Violation::DoubleFree, vec![f2, f])));
        assert!(found.contains(&err(Violation::AccessFreed, vec![w, f2])));
        let all: Vec<_> = all_errors(&g).into_iter().map(|(_, e)| e).collect();
        assert_eq!(all.len(), 3, "{all:?}");
    }

    #[test]
    fn bounds_and_invisible_malloc() {
        let mut g = Graph::new();
        g.ensure_loc(Loc(1004), 0, Some(B));
        add(&mut g, 0, LabelKind::Start { parent: None });
        let s = add(
            &mut g,
            0,
            LabelKind::Spawn {
                child: 1,
                entry: 0,
                arg: 0,
                symm: None,
            },
        );
        add(&mut g, 1, LabelKind::Start { parent: Some(s) });
        let early = write(&mut g, 1, Loc(1004), 4);
        assert_eq!(
            kinds(&errors_with(&g, early)),
            vec![Violation::AccessNonAllocated]
        );
        add(
            &mut g,
            0,
            LabelKind::Malloc {
                base: B,
                size: 6,
                zeroed: false,
            },
        );
        let fresh = read(&mut g, 0, Loc(1004), None);
        assert_eq!(
            kinds(&errors_with(&g, fresh)),
            vec![Violation::UninitializedRead]
        );
        let oob = write(&mut g, 0, Loc(1004), 4);
        assert_eq!(kinds(&errors_with(&g, oob)), vec![Violation::OutOfBounds]);
        let ok = write(&mut g, 0, Loc(1004), 2);
        assert!(errors_with(&g, ok).is_empty());
        let seen = read(&mut g, 0, Loc(1004), Some(ok));
        assert!(errors_with(&g, seen).is_empty());
        let f = add(
            &mut g,
            1,
            LabelKind::Free {
                base: B,
                retire: false,
            },
        );
        assert!(kinds(&errors_with(&g, f)).contains(&Violation::FreeNonAllocated));
    }

    #[test]
    fn a_copy_read_of_an_uninitialised_cell_is_not_an_error_but_is_told() {
        for zeroed in [false, true] {
            let mut g = Graph::new();
            g.ensure_loc(Loc(1004), 0, Some(B));
            add(&mut g, 0, LabelKind::Start { parent: None });
            let m = LabelKind::Malloc {
                base: B,
                size: 8,
                zeroed,
            };
            add(&mut g, 0, m);
            let copy = read_kind(&mut g, 0, Loc(1004), None, ReadKind::Copy);
            assert!(errors_with(&g, copy).is_empty());
            assert_eq!(reads_uninitialised(&g, copy), !zeroed);
            let plain = read(&mut g, 0, Loc(1004), None);
            assert_eq!(reads_uninitialised(&g, plain), !zeroed);
            let expected = if zeroed {
                vec![]
            } else {
                vec![Violation::UninitializedRead]
            };
            assert_eq!(kinds(&errors_with(&g, plain)), expected);
            let w = write(&mut g, 0, Loc(1004), 2);
            let copy = read_kind(&mut g, 0, Loc(1004), Some(w), ReadKind::Copy);
            assert!(!reads_uninitialised(&g, copy));
        }
    }
}
