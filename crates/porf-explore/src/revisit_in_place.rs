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
//! **Why nothing is lost, and nothing is counted twice.** Let `r₀` be `t`'s read as
//! first added, at the place where `t` was scheduled, reading the co-latest write `w₀`
//! then (every later re-read of it is the same argument again).
//! * `r₀`'s forward choices (the writes it could read then, older in co than `w₀`) were
//!   explored where `r₀` was added, as before. Each read of theirs is non-maximal, so
//!   never revisited, and a block decided by it is skipped ([`crate::stale`]).
//! * The graphs in which `t`'s read reads `w₀`: `t` blocked on `w₀`, the same block at
//!   every point below. Without this module they are the continuation of every write
//!   that arrives without revisiting `r₀`; here they are the graphs where no write of
//!   the location arrives after `r₀` — and those with a write `w` co-before `w₀` (not
//!   co-latest: no re-read, `w`'s backward revisit of `r₀` as before).
//! * The graphs in which `t`'s read reads a write `w` added after `r₀`: without this
//!   module they come from `w`'s backward revisit of `r₀` (deleting the events `D` added
//!   after `r₀` outside `w`'s porf-prefix, then added again after it), or from a later
//!   write `w₂`'s revisit of `r₀` in `w`'s continuation (possible only when it deletes
//!   `w`: `w` is then a kept co-successor of `r₀`'s source otherwise). Here the read is
//!   performed after `w` — after `D` — and reads `w` when `w` is co-latest; a later
//!   write `w₂` revisits the re-added read as it would a read added after `w` (keeping
//!   `w` and `D`), and a revisit deleting `D`'s events deletes the re-added read with
//!   them, whose thread then performs its read again, after them, with every choice:
//!   exactly the exploration of the program in which `t` is scheduled after `w`. The
//!   optimal explorer is exact for any order of adding events that is a function of
//!   the graph (TruSt, "Truly Stateless, Optimal Dynamic Partial Order Reduction",
//!   POPL 2022), and waiting is such a function: whether `t` waits is read off the
//!   graph and `t`'s deterministic machine.
//! * Doing the re-read before `w`'s backward revisits matters: a revisit of another
//!   read `r₁` (added after `r₀`) by `w` keeps `t`'s re-added read only if `w`'s
//!   porf-prefix holds it (it does not: the read is newer), so `t` reads again after
//!   the revisit with every choice, as a thread scheduled after `w` would; re-reading
//!   only in the continuation would keep `r₀` stale in those revisits and lose the
//!   executions in which `t` reads `w` and `r₁` reads `w` too.
//!
//! So complete executions, their outcomes and deadlocks are the same with and without
//! it, and so are errors: an error event, race or memory error lies in events the
//! exploration adds either way (`t`'s events before `r₀` are kept, and the re-added read
//! is checked for races and lifetime errors as any read). What changes is the number of
//! blocked (and, with keep-going, erroneous) executions: the executions in which `t`
//! stays blocked on a stale value are not explored. `porf-c/tests/differential_ipr.rs`
//! compares outcomes, errors and complete counts with it on and off on random programs
//! whose threads wait for values written after them, under every model, and
//! `porf-cli/tests/ipr.rs` on the repository's C programs.
//!
//! `Config::disable_ipr` turns it off, and so does `Config::explore_stale_blocks` (for
//! tests that count blocked executions against an explorer enumerating every one).
//! `Config::keep_going` turns it off too: with keep-going, porf-explore's differential
//! test against the reference explorer (`tests/differential.rs`, seed 412 under ra)
//! finds more *erroneous* executions with it than exist (715 against 610), complete
//! counts, final states and errors agreeing; the argument above covers complete
//! executions and which errors are reported, and where it fails to bound erroneous
//! ones is not yet found. Without keep-going only the first error matters. It
//! needs TruSt's maximality rule (co mode, a model whose maximal extensions are
//! consistent: the re-added read reads the co-latest write). Lock acquires,
//! compare-exchanges and library waits (`BlockReason::Lock`, `BlockReason::Wait`) are
//! not re-read (their reads have write parts or other outcomes); their blocks are
//! counted as before.

use crate::state::{State, Taken};
use crate::step::{self, AfterRead};
use porf_graph::{Action, BlockReason, EventId, LabelKind, Program, ReadKind, ThreadMachine, View};
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
