//! In-place revisiting (GenMC's IPR, "Model Checking for Weakly Consistent Libraries",
//! PLDI 2019, and GenMC 0.11's `-disable-ipr`): a thread blocked on the value of its
//! last read is made to read a new write where it stands, instead of a backward revisit
//! beside an exploration in which it stays blocked.
//!
//! **The situation.** Under TruSt's maximality rule, in co mode, a write `w` is just
//! placed co-latest at its location. Some thread `t` is *waiting*: its last two events
//! are a plain read `r` of that location and a block for good that `r`'s value decided
//! (a spin-assume block, `BlockReason::SpinLoop`, or a failed `assume`), `r` was added
//! maximally, may still be revisited, and reads `w`'s immediate co-predecessor (it saw
//! the co-latest write until `w` came). Nothing depends on `r`: it is its thread's
//! last access, a read has no readers, and the block is an end. Without this module the
//! explorer then has two kinds of children: (A) the backward revisit of `r` by `w`,
//! which deletes what was added after `r` outside `w`'s porf-prefix and explores it
//! again, and (B) the continuation in which `r` keeps its stale value.
//!
//! **What happens instead** ([`waiting_reads`], [`Rewound`]): no child (A) for `r`,
//! and the continuation (B) first takes `r` and its block out of the graph and adds
//! `r` again, as the thread's newest event, reading `w` (maximally: `w` is co-latest).
//! The thread goes on from there, and blocks again if `w`'s value does not let it. It
//! is as if the thread had not been scheduled while it could only wait: its read is
//! performed when a write it could read arrives.
//!
//! **Why nothing is lost.** Every execution of the program is a graph, and the
//! exploration must produce each complete (and erroneous) one once.
//! * Graphs in which `r` reads a write that existed when `r` was first added come from
//!   `r`'s forward choices, explored where `r` was added, as before: a non-maximal choice
//!   is never revisited, and in the maximal one `r`'s thread blocked (on it).
//! * Graphs in which `r` reads a write added after it: `w`, or a later write. In (B)
//!   `r` reads a write that is no longer co-latest; by the maximality rule a later
//!   write `w2` may revisit it only by deleting `w` (`w` is a kept co-successor of `r`'s
//!   source otherwise), so every execution of (B) either keeps `t` blocked on a stale
//!   value (a *blocked* execution: the ones this module saves) or has `r` reading a
//!   write other than `w`, which the re-added read gets as well: `w2` placed
//!   co-latest revisits it in place again (if `w`'s value blocks `t`) or by a backward
//!   revisit (if not), and `w2` placed co-before `w` revisits the re-added read as a
//!   non-maximal write may (its co-successor `w` is kept, having been added before the
//!   re-added read). (A)'s graphs (`r` reads `w`, the deleted events re-explored after
//!   it) are the re-added read's: each deleted event took each of its choices at its
//!   own branch point, where `t` was blocked on `r` as here, and `w` — outside their
//!   porf-prefixes — was added again below each choice, co-latest in one of its places
//!   (maximal extensions are consistent), where `t` re-read in place; `w` placed
//!   co-before a deleted write is the case just argued, seen from the other write.
//! * The re-added read reads the co-latest write as a read added at that point would,
//!   so the graph stays consistent ([`MemoryModel::maximal_extensions_consistent`]),
//!   and it is revisitable and added maximally, as any new read: later revisits treat
//!   it as the newest read it is.
//!
//! So complete executions, their outcomes and deadlocks are the same with and without
//! it. Errors too: an error event, race or memory error of a blocked execution of (B)
//! lies in events other than `t`'s read (`t`'s events before `r` are kept, and the
//! others' events are explored alike), so it is reported where those events are added
//! with `t` re-reading; the re-added read is checked for races and lifetime errors
//! as any read. What changes is the number of blocked (and, with keep-going,
//! erroneous) executions, and the re-added read's stamp. The differential test
//! `porf-c/tests/differential_ipr.rs` compares outcomes, errors and complete counts
//! with it on and off on random spin-loop programs under every model.
//!
//! `Config::disable_ipr` turns it off; so does `Config::explore_stale_blocks` (for
//! tests that count blocked executions against an explorer enumerating every one). It
//! needs TruSt's maximality rule (co mode, a model whose maximal extensions are
//! consistent). Lock acquires, compare-exchanges and library waits are not re-read
//! (their reads have write parts or other outcomes); their blocks are counted as before.
//!
//! [`MemoryModel::maximal_extensions_consistent`]: porf_models::MemoryModel::maximal_extensions_consistent

use crate::state::{Snap, State, Taken};
use crate::step::{self, AfterRead};
use porf_graph::{
    Action, BlockReason, EventId, Graph, LabelKind, Program, ReadKind, RfUndo, ThreadMachine, View,
};
use porf_models::MemoryModel;

/// Whether `reason` is a block for good that the value of the read before it decided.
fn waits(reason: &BlockReason) -> bool {
    matches!(reason, BlockReason::SpinLoop { .. } | BlockReason::Assume)
}

/// The reads of threads *waiting* on `w`'s location (see the module docs), oldest
/// thread first: `w` is co-latest; the thread's last event is a plain read of the
/// location (maximal, revisitable, outside `w`'s porf-prefix, reading `w`'s
/// immediate co-predecessor) followed by a spin-assume or failed-assume block, or
/// about to be (its next action is one: a read just given its value by a revisit).
pub fn waiting_reads<P: Program>(st: &mut State<P>, w: EventId) -> Vec<EventId> {
    let g = &st.g;
    let wl = g.label(w);
    let Some(loc) = wl.loc() else {
        return Vec::new();
    };
    if g.co_max(loc) != Some(w) {
        return Vec::new();
    }
    let co = g.co(loc);
    let pred = co.len().checked_sub(2).map(|i| co[i]);
    let mut reads = Vec::new();
    for t in 0..st.g.num_threads() {
        if t == w.tid || !st.g.thread_exists(t) {
            continue;
        }
        let Some(last) = st.g.last_of(t) else {
            continue;
        };
        let r = match &st.g.label(last).kind {
            LabelKind::Block { reason } if waits(reason) => match last.prev() {
                Some(r) => r,
                None => continue,
            },
            LabelKind::Read {
                loc: rl,
                kind: ReadKind::Plain,
                ..
            } if *rl == loc => match st.machine_mut(t).peek() {
                Action::Block { reason, .. } if waits(&reason) => last,
                _ => continue,
            },
            _ => continue,
        };
        let g = &st.g;
        let l = g.label(r);
        let waiting = matches!(
            l.kind,
            LabelKind::Read { loc: rl, kind: ReadKind::Plain, rf, .. } if rl == loc && rf == pred
        ) && l.added_max
            && l.revisitable
            && !g.label(w).porf.contains(r);
        if waiting {
            reads.push(r);
        }
    }
    reads
}

/// The waiting reads made to read a write in place; [`InPlace::undo`] puts them back.
pub struct InPlace<T> {
    /// The blocks that followed the reads.
    taken: Taken<T>,
    /// The graph's size right after the blocks were taken out.
    len: usize,
    reads: Vec<Reread<T>>,
}

/// A read given a new source in place: how to put it back.
struct Reread<T> {
    r: EventId,
    rf: RfUndo,
    /// Its label's fields that change: kind (order), hb, `added_max`, `in_place`.
    label: (LabelKind, View, bool, bool),
    /// Its thread's state after it, as it was.
    after: Snap<T>,
}

/// Gives read `r` (its thread's last event, a state pushed after it) the co-latest
/// write `w` of its location (`None`: the initialisation) in place, and its thread
/// the state after reading that value.
fn reread<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    r: EventId,
    w: Option<EventId>,
) -> Reread<P::Thread> {
    let after = st.ts[r.tid as usize].pop().expect("a state after the read");
    let lab = st.g.label(r);
    let label = (
        lab.kind.clone(),
        lab.hb.clone(),
        lab.added_max,
        lab.in_place,
    );
    let LabelKind::Read { ord, .. } = lab.kind else {
        unreachable!("a waiting read")
    };
    let rf = st.g.set_rf_undoable(r, w);
    step::fix_source(model, &mut st.g, r, ord);
    let stamp = st.g.label(r).stamp;
    let newer = w.is_some_and(|w| st.g.label(w).stamp > stamp);
    let lab = st.g.label_mut(r);
    lab.added_max = true;
    lab.in_place = newer;
    let next = step::after_read(st, model, r);
    debug_assert!(matches!(next, AfterRead::Continue), "a plain read goes on");
    Reread {
        r,
        rf,
        label,
        after,
    }
}

impl<T> Reread<T> {
    fn undo<P: Program<Thread = T>>(self, st: &mut State<P>) {
        let ts = &mut st.ts[self.r.tid as usize];
        ts.truncate(self.r.idx as usize);
        ts.push(self.after);
        st.g.unset_rf(self.rf);
        let (kind, hb, added_max, in_place) = self.label;
        let lab = st.g.label_mut(self.r);
        lab.kind = kind;
        lab.hb = hb;
        lab.added_max = added_max;
        lab.in_place = in_place;
    }
}

impl<T> InPlace<T> {
    /// Takes the block after each read of `reads` ([`waiting_reads`] of `w`) out of
    /// `st` and makes the read read `w`; each thread then stands after its read.
    pub fn apply<P: Program<Thread = T>>(
        st: &mut State<P>,
        model: &dyn MemoryModel,
        w: EventId,
        reads: &[EventId],
    ) -> Self {
        let mut keep = View::default();
        for t in 0..st.g.num_threads() {
            keep.set(t, st.g.thread_len(t));
        }
        for r in reads {
            keep.set(r.tid, r.idx + 1);
        }
        let taken = st.remove_outside(&keep);
        let len = st.g.len();
        let reads = reads
            .iter()
            .map(|&r| reread(st, model, r, Some(w)))
            .collect();
        InPlace { taken, len, reads }
    }

    /// Puts the state back as it was before [`InPlace::apply`], removing what was
    /// added since.
    pub fn undo<P: Program<Thread = T>>(self, st: &mut State<P>) {
        st.truncate(self.len);
        for r in self.reads.into_iter().rev() {
            r.undo(st);
        }
        st.restore(self.taken);
    }
}

/// The reads revisited in place whose source a backward revisit keeping `keep` deletes
/// (other than the revisited read `except`): each is its thread's last kept event
/// (its thread's later events depend on its source, so they go too).
pub fn dangling(g: &Graph, keep: &View, except: EventId) -> Vec<EventId> {
    let mut reads = Vec::new();
    for t in 0..g.num_threads() {
        let n = keep.get(t).min(g.thread_len(t));
        let Some(i) = n.checked_sub(1) else { continue };
        let e = EventId::new(t, i);
        let l = g.label(e);
        if e != except && l.in_place && l.rf().is_some_and(|s| !keep.contains(s)) {
            reads.push(e);
        }
    }
    reads
}

/// Reads repaired after a backward revisit deleted their sources ([`repair`]).
pub struct Repaired<T>(Vec<Reread<T>>);

/// Makes each read of `reads` ([`dangling`], now reading nothing after the revisit's
/// restriction) read the co-latest write of its location again: the value it waits
/// on, as when it was added or last revisited in place (GenMC repairs such reads
/// the same way).
pub fn repair<P: Program>(
    st: &mut State<P>,
    model: &dyn MemoryModel,
    reads: &[EventId],
) -> Repaired<P::Thread> {
    Repaired(
        reads
            .iter()
            .map(|&r| {
                let loc = st.g.label(r).loc().unwrap();
                let w = st.g.co_max(loc);
                reread(st, model, r, w)
            })
            .collect(),
    )
}

impl<T> Repaired<T> {
    /// Undoes [`repair`]; the state must be as `repair` left it.
    pub fn undo<P: Program<Thread = T>>(self, st: &mut State<P>) {
        for r in self.0.into_iter().rev() {
            r.undo(st);
        }
    }
}
