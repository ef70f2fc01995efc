//! In-place revisiting (after GenMC's IPR, GenMC 0.11's `-disable-ipr`): a thread
//! blocked on the value of its last read re-reads when a write it waits for arrives,
//! instead of a backward revisit of the read beside an exploration in which it stays
//! blocked on a stale value.
//!
//! **The situation.** Under TruSt's maximality rule, in co mode, a write `w` was just
//! placed co-latest at its location. A thread `t` is *waiting* ([`waiting_reads`]): its
//! last event is a plain read `r` of that location, added maximally, still
//! revisitable, reading `w`'s immediate co-predecessor (the co-latest write until `w`
//! came), and after it comes a block for good that `r`'s value decided — a spin-assume
//! block (`BlockReason::SpinLoop`) or a failed `assume` — either as the thread's last
//! event or as the thread's next action (a read given its value by a revisit, its
//! thread not yet run on). The front end says why it blocks (`BlockReason`); no source
//! is looked at. Nothing depends on `r`: a read has no readers, its thread has nothing
//! after it but the block. Without this module, `w` has a backward revisit of `r`
//! among its children (deleting what was added after `r` outside `w`'s porf-prefix),
//! and its continuation keeps `t` blocked on a value that is no longer co-latest.
//!
//! **What happens instead** ([`InPlace`]): before `w`'s backward revisits, `r` and its
//! block are taken out of the graph and `r` is added again as the newest event,
//! reading `w` (maximally: `w` is co-latest), and `t` is resumed with `w`'s value; it
//! blocks again if that value does not let it go on. Then `w`'s other backward
//! revisits and its continuation run on that graph (the re-added read is not
//! revisited by `w`, which it reads), and the state is put back after. The exploration
//! is the optimal explorer's on a different order of adding events: `t`'s read is
//! performed after `w`, which is what the explorer does for a thread that is scheduled
//! after `w` — here, a thread that could only wait until `w` came.
//!
//! **It is not exact, so it is off** (`optimal.rs`'s `IPR_EXACT`). The intended
//! argument was that the exploration is the optimal explorer's for another order of
//! adding events ("`t` scheduled after `w`"), and TruSt ("Truly Stateless, Optimal
//! Dynamic Partial Order Reduction", POPL 2022) is exact for any order that is a
//! function of the graph. That order is not one: `t`'s read `r₀` keeps its old place
//! in the sibling branches explored before `w` came (its forward choices, and the
//! backward revisits of `r₀` by earlier writes), and moves after `w` only below `w`.
//! A backward revisit of a read `r₁` added between `r₀` and `w` (by `w` itself or by
//! a later write) then keeps every event added up to `r₁`, which held `r₀`, but not
//! the re-added read, which is newer: `t` performs its read again with every choice,
//! where without this module `r₀` would have been kept, stale. Those choices repeat
//! graphs the branches in which `r₀` kept its place produce, and the revisits whose
//! maximality check (TruSt's `maximal_extension`) now sees the re-added read instead
//! of `r₀` differ from the ones the plain exploration performs; graphs are lost too
//! (that case is not traced event by event). Found by random search (toy programs without assertions, all models); the
//! smallest cases, all under SC (`tests/in_place.rs`):
//! * counted twice: `P0: r = x; assume(r == 0)`, `P1: x = 3; r = x`, `P2: x = 2` —
//!   3 complete executions, 4 with in-place revisiting: `P0` reads 0, `P1` reads 2,
//!   co `0, 3, 2` is found once with `P0`'s read first (reading the initial value)
//!   and once from the re-read of `P0` (blocked on 3, re-added after `x = 2`) deleted
//!   by `x = 2`'s revisit of `P1`'s read, `P0` then reading 0 afresh. With
//!   keep-going this is what porf-explore's differential test met as extra erroneous
//!   executions (seed 412 under ra, 715 against 610: there every execution fails an
//!   assertion of another thread, so the duplicated complete-looking graphs counted
//!   as erroneous ones).
//! * lost, outcomes included: `P0: x = 3`, `P1: r = x; assume(r == 2)`,
//!   `P2: x = 1; cas(x, 1, 2)`, `P3: x = 2; fetch_add(x, 1)`, all relaxed — 46
//!   complete executions and 12 final states, 32 and 10 with in-place revisiting.
//!
//! Requiring no read between `r₀` and `w` (so that no revisit separates them) fixes
//! these two programs, but random search still finds both kinds (34 against 45 and
//! 25 against 24 complete executions on two toy programs of 3,000). GenMC keeps an in-place revisited read at its
//! place in the order and, when a revisit deletes its source, makes it read the
//! co-latest write again (`repairDanglingReads`), with the maximality checks taking
//! such reads as maximal; porf's version moves the read instead, which is what breaks
//! the argument. The code stays for that rework; `Config::disable_ipr` and
//! `--disable-ipr` are accepted and change nothing meanwhile. It
//! needs TruSt's maximality rule (co mode, a model whose maximal extensions are
//! consistent: the re-added read reads the co-latest write). Lock acquires,
//! compare-exchanges and library waits (`BlockReason::Lock`, `BlockReason::Wait`) are
//! not re-read (their reads have write parts or other outcomes); their blocks are
//! counted as before.

use crate::state::{State, Taken};
use crate::step::{self, AfterRead};
use porf_graph::{Action, BlockReason, EventId, LabelKind, Program, ReadKind, View};
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
            } if *rl == loc => match st.peek(t) {
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

/// The waiting reads taken out with their blocks and added again, reading a write;
/// [`InPlace::undo`] puts them back.
pub struct InPlace<T> {
    /// The reads and what followed them.
    taken: Taken<T>,
    /// The graph's size right after they were taken out.
    len: usize,
}

impl<T> InPlace<T> {
    /// Takes each read of `reads` ([`waiting_reads`] of `w`) and its block out of `st`
    /// and adds it again as its thread's newest event, reading `w` (maximally: `w` is
    /// co-latest), its thread resumed with `w`'s value. Returns the reads added.
    pub fn apply<P: Program<Thread = T>>(
        st: &mut State<P>,
        model: &dyn MemoryModel,
        w: EventId,
        reads: &[EventId],
    ) -> (Self, Vec<EventId>) {
        let labels: Vec<_> = reads
            .iter()
            .map(|&r| (r.tid, st.g.label(r).kind.clone(), st.g.label(r).src))
            .collect();
        let mut keep = View::default();
        for t in 0..st.g.num_threads() {
            keep.set(t, st.g.thread_len(t));
        }
        for r in reads {
            keep.set(r.tid, r.idx);
        }
        let taken = st.remove_outside(&keep);
        let len = st.g.len();
        let mut added = Vec::new();
        for (t, kind, src) in labels {
            let LabelKind::Read {
                loc,
                bytes,
                ord,
                kind,
                ..
            } = kind
            else {
                unreachable!("a waiting read")
            };
            let kind = LabelKind::Read {
                loc,
                bytes,
                ord,
                kind,
                rf: None,
            };
            let r = st.g.add(t, kind, src);
            step::set_source(model, &mut st.g, r, Some(w), ord);
            debug_assert!(
                model.consistent_with(&st.g, r),
                "a new read of the co-latest write is consistent"
            );
            let next = step::after_read(st, model, r);
            debug_assert!(matches!(next, AfterRead::Continue), "a plain read goes on");
            added.push(r);
        }
        (InPlace { taken, len }, added)
    }

    /// Puts the state back as it was before [`InPlace::apply`], removing what was
    /// added since.
    pub fn undo<P: Program<Thread = T>>(self, st: &mut State<P>) {
        st.truncate(self.len);
        st.restore(self.taken);
    }
}
