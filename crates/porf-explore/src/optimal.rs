//! The optimal explorer: GenMC's exploration of execution graphs ("Model Checking for Weakly
//! Consistent Libraries", PLDI 2019, Alg. 1–3
//! with the co-tracking of App. C), made stateless with TruSt's maximality rule.
//!
//! Events are added one at a time, always for the lowest-numbered thread that can step.
//! A read tries every write it may consistently read from (forward revisits); a write
//! tries every consistent place in co and then may *backward revisit* earlier reads of
//! its location: the read is made to read from the write and every event added after
//! the read that is not in the write's porf-prefix is deleted. A backward revisit is
//! performed only when everything it deletes (and the read itself) was added
//! *maximally* — reads from the co-latest consistent write, writes at the co-latest
//! consistent place — and no kept write sits co-after what the deleted events touched
//! (see [`maximal_extension`]). Then each execution is produced by exactly one sequence
//! of choices, and no record of past revisits is kept: memory is linear in one graph
//! per nested revisit.
//!
//! In rf mode (executions are (events, rf), see [`crate::coherence`]) writes have no
//! co position to choose, a read may read from any write the model's exact check
//! accepts, and the maximality rule, which rests on co, does not apply. Nor does it in
//! co mode for a model where reading the co-latest write may be inconsistent
//! ([`MemoryModel::maximal_extensions_consistent`]: WRA). Then the
//! state every backward revisit produces is recorded in a set U (after the PLDI 2019
//! algorithm's): its graph, insertion order and revisitable events
//! ([`compact_state_key`]), and a revisit producing a recorded state is not explored
//! again, since it would explore the same subtree; its key is computed on the graph
//! before the revisit is applied ([`RevisitKeys`]), so such a revisit costs no
//! restriction of the graph. U grows with the number of distinct
//! revisit states (`Stats::revisit_states`). Recording the graph alone is not enough:
//! two revisits may produce one graph with different insertion orders or revisitable
//! events, and the subtree of the first need not hold every execution the second's
//! does. Those two subtrees may share executions, so the recorder counts each
//! maximal execution once (`Recorder::dedupe_executions`, `Stats::repeated_executions`).

use crate::coherence::Coherence;
use crate::coherence::Equiv;
use crate::key::{compact_state_key, RevisitKeys};
use crate::parallel::{self, Worker};
use crate::record::Recorder;
use crate::shard::{Child, Filter};
use crate::stale;
use crate::state::{Snap, State, Taken, TidRegistry};
use crate::step::{self, Access, AfterRead, Step};
use crate::symmetry;
use crate::visitor::{BranchVisitor, HandOff, Visitors};
use crate::{Config, Stats};
use porf_graph::hash::FastBuild;
use porf_graph::{
    AccessClass, Action, EventId, Graph, LabelKind, Loc, MemOrder, Program, ReadKind, RfUndo,
    SrcLoc, Tid, Val, View, WriteKind,
};
use porf_models::rf::{self, CoWitness};
use porf_models::{atomicity, MemoryModel, SourceCache};
use std::collections::HashSet;

/// Whether TruSt's maximality rule decides the backward revisits: in co mode, for
/// models whose maximal extensions stay consistent
/// ([`MemoryModel::maximal_extensions_consistent`]).
fn maximality_rule(model: &dyn MemoryModel, cfg: &Config) -> bool {
    cfg.equiv != Equiv::Rf && model.maximal_extensions_consistent()
}

/// Explores `prog` on [`Config::threads`] worker threads ([`crate::parallel`]), or on
/// this one.
pub fn explore<P: Program + Sync>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let reason = parallel::one_thread_reason(cfg, maximality_rule(model, cfg));
    if cfg.threads > 1 && reason.is_none() {
        return parallel::explore(prog, model, cfg);
    }
    let mut ex = Optimal::new(prog, model, cfg, None);
    let mut st = State::new(prog, model);
    ex.visit(&mut st);
    ex.rec.stats.revisit_states = ex.revisited.len() as u64;
    let mut stats = ex.rec.finish();
    stats.parallel.workers = 1;
    if cfg.threads > 1 {
        stats.parallel.one_thread_reason = reason;
    }
    stats
}

/// [`explore`] on one thread with a branch filter ([`crate::shard`]); returns the
/// filter too.
pub(crate) fn explore_filtered<P: Program>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    shard: Filter,
) -> (Stats, Filter) {
    let mut ex = Optimal::new(prog, model, cfg, None);
    ex.v.shard = shard;
    let mut st = State::new(prog, model);
    ex.visit(&mut st);
    ex.rec.stats.revisit_states = ex.revisited.len() as u64;
    ex.v.shard.finish(&ex.rec.stats);
    (ex.rec.finish(), ex.v.shard)
}

/// What a subtree handed to another worker starts with, after its state is set up
/// ([`crate::parallel::Task`]): the rest of the work of one branch of the search tree.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Branch {
    /// Extend the state ([`Optimal::visit`]).
    Visit,
    /// Go on after a read whose source was just set.
    ContinueRead(EventId),
    /// A write just placed in co: its backward revisits, then the state extended.
    Placed(EventId),
    /// A backward revisit of read `r` by write `w`, the state already restricted.
    Revisit { r: EventId, w: EventId },
}

/// The branch index, at a placed write, of the continuation after its backward
/// revisits (which take the indices of the candidate reads): it comes last.
const AFTER_REVISITS: u32 = u32::MAX;

pub(crate) struct Optimal<'a, 'c, P: Program> {
    prog: &'a P,
    model: &'a dyn MemoryModel,
    co: Coherence<'a>,
    pub(crate) rec: Recorder<'c>,
    /// Scoped to the search tree: tids are a function of the path to a node.
    pub(crate) tids: TidRegistry,
    /// What watches the search tree at its branch points ([`crate::visitor`]): the
    /// progress tree, the shard filter ([`crate::shard`]: which children to explore,
    /// all of them except in a shard of a split exploration) and, exploring in
    /// parallel, this worker's position in the tree and its pool.
    pub(crate) v: Visitors<'a, P>,
    /// Whether TruSt's maximality rule decides which backward revisits to perform: in
    /// co mode, for models where maximal extensions stay consistent
    /// ([`MemoryModel::maximal_extensions_consistent`]).
    maximality: bool,
    /// Whether subtrees holding blocked executions only are skipped ([`stale`]): with
    /// the maximality rule, unless [`Config::explore_stale_blocks`].
    prune_stale: bool,
    /// Whether symmetry reduction is on ([`symmetry`]): with the maximality rule,
    /// unless [`Config::disable_sr`].
    sr: bool,
    /// Whether threads at awaited loads wait for their value ([`crate::bam`]): the
    /// program announces awaited loads and [`Config::disable_bam`] is off.
    bam: bool,
    /// Whether a thread whose next load, reading the co-latest write, would block it
    /// waits while other threads can step ([`crate::bam`], "Spin waits"):
    /// [`Config::disable_ipr`] is off.
    hold_spins: bool,
    /// Without the maximality rule (rf mode, and co mode for models such as WRA): the
    /// states backward revisits produced ([`compact_state_key`]: graph, insertion
    /// order, revisitable events), each explored once — the set U. Empty with the
    /// rule, which keeps the exploration optimal without memory. Keys are hashed with
    /// [`FastBuild`] (the set is only asked for membership and its size).
    revisited: HashSet<Box<[u32]>, FastBuild>,
    /// The keys of the states candidate backward revisits would produce, looked up in
    /// `revisited` before a revisit is applied.
    keys: RevisitKeys,
    /// What the incremental check of a new read learnt from its earlier candidate
    /// sources ([`SourceCache`]), begun anew for every read.
    sources: SourceCache,
}

impl<'a, 'c, P: Program> Optimal<'a, 'c, P> {
    pub(crate) fn new(
        prog: &'a P,
        model: &'a dyn MemoryModel,
        cfg: &'c Config,
        par: Option<Worker<'a, P>>,
    ) -> Self {
        let maximality = maximality_rule(model, cfg);
        let mut rec = Recorder::new(cfg, model);
        if !maximality {
            rec.dedupe_executions();
        }
        Optimal {
            prog,
            model,
            co: Coherence::new(model, cfg.equiv),
            rec,
            tids: TidRegistry::default(),
            v: Visitors::new(par),
            maximality,
            prune_stale: maximality && !cfg.explore_stale_blocks,
            sr: maximality && !cfg.disable_sr,
            bam: prog.awaits() && !cfg.disable_bam,
            hold_spins: !cfg.disable_ipr,
            revisited: HashSet::default(),
            keys: RevisitKeys::default(),
            sources: SourceCache::default(),
        }
    }

    /// Explores child `i` of the current node, whose state `st` is set up for
    /// `branch`, unless the visitor hands it off ([`BranchVisitor::hand_off`]:
    /// parallel exploration, [`Worker::donate`]; `last`: it is the node's last child).
    /// The tid registry is restored after.
    pub(crate) fn branch(&mut self, st: &mut State<P>, i: u32, last: bool, branch: Branch) {
        let at = HandOff {
            st: &*st,
            i,
            last,
            branch,
            tids: &self.tids,
            rec: &mut self.rec,
        };
        if self.v.hand_off(at) {
            return;
        }
        let mark = self.tids.mark();
        self.run(st, branch);
        self.tids.reset(mark);
        self.v.returned(&self.rec);
    }

    /// Runs `branch` on `st` (see [`Branch`]).
    pub(crate) fn run(&mut self, st: &mut State<P>, branch: Branch) {
        match branch {
            Branch::Visit => self.visit(st),
            Branch::ContinueRead(r) => {
                // Only a non-maximal source is a choice the symmetry order decides.
                let check_symmetry = !st.g.label(r).added_max;
                self.continue_read(st, r, check_symmetry)
            }
            Branch::Placed(w) => self.placed(st, w),
            Branch::Revisit { r, w } => {
                // An RMW's write part added over a source another RMW had taken was
                // not checked for races and lifetime errors then (that graph was
                // dropped); the revisit makes a consistent graph of it, so it is
                // checked here.
                if st.g.label(w).is_exclusive_write() && self.report_errors(&st.g, w) {
                    return;
                }
                self.continue_read(st, r, true);
            }
        }
    }

    /// Whether a limit stopped the exploration: it then ends without restoring its
    /// state (no truncation, no undone revisit: the state is dropped whole), so that
    /// stopping costs no time in proportion to the events explored. An error's stop
    /// is not one (the parallel explorer may go on with earlier children).
    fn abandoned(&self) -> bool {
        self.rec.limit_stopped()
    }

    /// `st` truncated to `stamp`, unless the exploration was [abandoned](Self::abandoned).
    fn truncate(&self, st: &mut State<P>, stamp: usize) {
        if !self.abandoned() {
            st.truncate(stamp);
        }
    }

    /// True if the loop over a node's children must stop before child `i`: a limit
    /// or an error stopped the exploration, or (parallel) an error was found at a node
    /// that comes before child `i` in the sequential order.
    fn stop_before(&mut self, i: u32) -> bool {
        self.rec.stopped() || self.v.stop_before(i)
    }

    /// A write `w` just placed in co (or, in rf mode, added): its backward revisits,
    /// then the state extended.
    fn placed(&mut self, st: &mut State<P>, w: EventId) {
        let (revisits, n) = self.backward_revisits(st, w);
        self.after_revisits(st, revisits, n);
    }

    /// The last child of the branch point [`Optimal::backward_revisits`] opened (it
    /// has `n` children; `revisits`: it offered one): the state extended without a
    /// revisit. Leaves the branch point.
    fn after_revisits(&mut self, st: &mut State<P>, revisits: bool, n: u32) {
        let last = Child { i: n - 1, n };
        if !self.stop_before(AFTER_REVISITS) && self.v.enter(&self.rec.stats, last, revisits) {
            self.v.child(&mut self.rec, last);
            self.branch(st, AFTER_REVISITS, true, Branch::Visit);
            self.v.leave(&self.rec.stats, revisits);
        }
        self.v.leave_branch(&mut self.rec);
    }

    /// Extends the (consistent) state until it is maximal, branching at every choice.
    /// Leaves events behind: callers restore their state by truncation.
    fn visit(&mut self, st: &mut State<P>) {
        loop {
            self.rec.tick(&st.g);
            if self.rec.stopped() {
                return;
            }
            let next = if self.bam || self.hold_spins {
                st.next_action_held(self.prog, self.bam, self.hold_spins)
            } else {
                st.next_action()
            };
            let Some((t, action)) = next else {
                debug_assert!(
                    self.model.is_consistent(&st.g),
                    "optimal explorer reached an inconsistent graph:\n{}",
                    st.g
                );
                if self.v.counts_leaf() {
                    self.rec.maximal(self.prog, st, &self.co);
                }
                return;
            };
            if let Action::Choose { lo, hi, src, .. } = action {
                return self.choose(st, t, (lo, hi), src);
            }
            let perform = if self.sr {
                step::perform_symmetric
            } else {
                step::perform
            };
            match perform(st, self.prog, self.model, &mut self.tids, t, action) {
                Step::Done(e) => {
                    if !self.record(st, e) {
                        return;
                    }
                }
                Step::Access(Access::Read {
                    loc,
                    bytes,
                    ord,
                    kind,
                    src,
                }) => return self.read(st, t, (loc, bytes), ord, kind, src),
                Step::Access(Access::Write {
                    loc,
                    bytes,
                    val,
                    ord,
                    kind,
                    src,
                }) => return self.write(st, t, (loc, bytes), val, ord, kind, src),
            }
        }
    }

    /// Records deterministic event `e`, just added by [`step::perform`]: skips a stale
    /// block ([`stale`]), checks a fence's consistency, reports an error event and a
    /// free's lifetime errors. False if the state is not to be extended.
    fn record(&mut self, st: &mut State<P>, e: EventId) -> bool {
        if self.prune_stale && stale::stale_block(&st.g, e) {
            return false;
        }
        let kind = &st.g.label(e).kind;
        let fence = matches!(kind, LabelKind::Fence { .. });
        let error = matches!(kind, LabelKind::Error { .. });
        // Frees (retires too) and final-write notes take part in lifetime errors; so do
        // accesses, checked where they are added.
        let free = matches!(kind, LabelKind::Free { .. } | LabelKind::Note { .. });
        if fence && !self.co.check(&mut st.g, e) {
            return false;
        }
        if error {
            self.rec.error_event(&st.g, e);
        }
        !(free && self.report_errors(&st.g, e))
    }

    /// A nondeterministic choice of thread `t`: one branch per value, in increasing
    /// order. The first value is the choice's maximal one (`added_max`): a backward
    /// revisit deletes a choice only if it took that value ([`maximal_extension`]), so
    /// each graph is still produced once.
    fn choose(&mut self, st: &mut State<P>, t: Tid, (lo, hi): (Val, Val), src: SrcLoc) {
        let stamp = st.g.len();
        self.v.enter_branch(&mut self.rec, (hi - lo + 1) as usize);
        for (i, val) in (lo..=hi).enumerate() {
            if self.stop_before(i as u32) {
                break;
            }
            let child = Child {
                i: i as u32,
                n: (hi - lo + 1).try_into().unwrap_or(u32::MAX),
            };
            self.v.child(&mut self.rec, child);
            if !self.v.enter(&self.rec.stats, child, hi > lo) {
                continue;
            }
            let e = step::add_choice(st, self.model, t, val, src);
            st.g.label_mut(e).added_max = val == lo;
            self.branch(st, i as u32, val == hi, Branch::Visit);
            self.truncate(st, stamp);
            self.v.leave(&self.rec.stats, hi > lo);
        }
        self.v.leave_branch(&mut self.rec);
    }

    /// Reports every race and lifetime error of the just-added access or free `e`;
    /// true if exploration must stop.
    fn report_errors(&mut self, g: &Graph, e: EventId) -> bool {
        self.rec.access_errors(self.prog, g, e)
    }

    fn read(
        &mut self,
        st: &mut State<P>,
        t: Tid,
        (loc, bytes): (Loc, u8),
        ord: MemOrder,
        kind: ReadKind,
        src: SrcLoc,
    ) {
        let stamp = st.g.len();
        let mut cands = self.co.read_sources(&st.g, loc);
        if self.co.tracked() {
            // Sources co-before what the read's prefix observed are incoherent.
            let pre = &st.g.thread(t).last().expect("a read after Start").hb;
            let floor = self.model.co_floor(&st.g, loc, pre);
            cands.drain(..floor.min(cands.len()));
        }
        let r = st.g.add(
            t,
            LabelKind::Read {
                loc,
                bytes,
                ord,
                kind,
                rf: None,
            },
            src,
        );
        let base = self.co.snapshot(&st.g);
        self.sources.begin(r);
        // The graph a child starts from differs from the one its source was checked in
        // only in `r`'s source (and, in rf mode, in the co witness installed, which no
        // hb view depends on: [`MemoryModel::hb_view`]), so `r`'s hb view computed for
        // the check is kept for the child.
        let mut ok = Vec::new();
        let mut hbs = Vec::new();
        // The source `r` has now, with its order and hb view set.
        let mut current = None;
        for w in cands {
            if self.rec.stopped() {
                break;
            }
            step::set_source(self.model, &mut st.g, r, w, ord);
            current = Some(w);
            if let Some(a) = self.co.accepts_source(&st.g, r, &mut self.sources) {
                let symmetric = !self.sr || symmetry::consistent(&st.g, r);
                ok.push((w, a, symmetric));
                hbs.push((w, st.g.label(r).hb.clone()));
            }
        }
        // The maximal source (the last) is kept whatever the symmetry order says
        // ([`symmetry`]: as GenMC, which relies on extensibility there).
        let last = ok.len().saturating_sub(1);
        let mut ok: Vec<_> = (ok.into_iter().enumerate())
            .filter(|&(i, (_, _, symmetric))| symmetric || i == last)
            .map(|(_, (w, a, _))| (w, a))
            .collect();
        if self.prune_stale && kind == ReadKind::Lock {
            stale::prune_blocked_acquires(&st.g, loc, &mut ok);
        }
        let split = ok.len() > 1;
        self.v.enter_branch(&mut self.rec, ok.len());
        for (i, (w, accepted)) in ok.iter().rev().enumerate() {
            if self.stop_before(i as u32) {
                break;
            }
            let child = Child {
                i: i as u32,
                n: ok.len() as u32,
            };
            self.v.child(&mut self.rec, child);
            if !self.v.enter(&self.rec.stats, child, split) {
                continue;
            }
            let at = hbs
                .iter()
                .position(|(s, _)| s == w)
                .expect("an accepted source");
            // First child: `r` already reads `w` (the candidates' loop ended with it,
            // and nothing changed the graph since).
            if current != Some(*w) {
                let hb = hbs.swap_remove(at).1;
                step::set_known_source(&mut st.g, r, *w, ord, hb);
                debug_assert!(
                    st.g.label(r).hb == self.model.hb_view(&st.g, r),
                    "a kept hb view differs from the model's"
                );
            }
            current = None;
            accepted.install(&mut st.g, base.as_ref());
            st.g.label_mut(r).added_max = i == 0;
            self.branch(st, i as u32, i + 1 == ok.len(), Branch::ContinueRead(r));
            if !self.abandoned() {
                st.truncate(stamp + 1);
                st.ts[t as usize].truncate(r.idx as usize);
            }
            self.v.leave(&self.rec.stats, split);
        }
        self.v.leave_branch(&mut self.rec);
        self.truncate(st, stamp);
    }

    /// Goes on after read `r` (its thread's last event, source fixed, no state pushed).
    /// `check_symmetry`: an RMW's write part is checked against the symmetry order
    /// ([`symmetry`]: after a non-maximal source or a backward revisit, as GenMC's
    /// revisit check does).
    fn continue_read(&mut self, st: &mut State<P>, r: EventId, check_symmetry: bool) {
        if self.report_errors(&st.g, r) {
            return;
        }
        match step::after_read(st, self.model, r) {
            AfterRead::Continue | AfterRead::Blocked => self.visit(st),
            AfterRead::Ended => {
                let e = st.g.last_of(r.tid).unwrap();
                self.rec.error_event(&st.g, e);
                if !self.rec.stopped() {
                    self.visit(st);
                }
            }
            AfterRead::WritePart(val) => {
                let w = step::add_write_part(st, self.model, r, val);
                let atomic = !atomicity::violated_by(&st.g, w);
                // An RMW whose source another RMW already took is dropped, but its
                // backward revisits are still performed (each is checked on its own).
                // rf mode's exact check includes atomicity, so it is only asked of an
                // atomic graph; co mode's incremental check leaves atomicity out.
                let check = self.co.tracked() || atomic;
                if check && !self.co.check(&mut st.g, w) {
                    return;
                }
                if self.sr && check_symmetry && !symmetry::consistent(&st.g, w) {
                    return;
                }
                if atomic && self.report_errors(&st.g, w) {
                    return;
                }
                if atomic {
                    let (revisits, n) = self.backward_revisits(st, w);
                    self.after_revisits(st, revisits, n);
                } else {
                    self.backward_revisits(st, w);
                    self.v.leave_branch(&mut self.rec);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn write(
        &mut self,
        st: &mut State<P>,
        t: Tid,
        (loc, bytes): (Loc, u8),
        val: Val,
        ord: MemOrder,
        kind: WriteKind,
        src: SrcLoc,
    ) {
        let stamp = st.g.len();
        let w = step::add_event(
            st,
            self.model,
            t,
            LabelKind::Write {
                loc,
                bytes,
                ord,
                val,
                kind,
            },
            src,
        );
        st.push_resumed(t, 0);
        let n = st.g.co(loc).len();
        if !self.co.tracked() {
            // rf mode: no co choice; the model derives co.
            st.g.co_insert(w, n + 1);
            if self.co.check(&mut st.g, w) && !self.report_errors(&st.g, w) {
                self.placed(st, w);
            }
            self.truncate(st, stamp);
            return;
        }
        let mut ok = Vec::new();
        // Places co-before a write the new one observes are incoherent.
        let floor = self.model.co_floor(&st.g, loc, &st.g.label(w).hb);
        for pos in floor + 1..=n + 1 {
            if self.rec.stopped() {
                break;
            }
            st.g.co_insert(w, pos);
            if !atomicity::splits_rmw(&st.g, w) && self.model.consistent_with(&st.g, w) {
                ok.push((pos, !self.sr || symmetry::consistent(&st.g, w)));
            }
            st.g.co_remove(w);
        }
        // The co-last place is kept whatever the symmetry order says ([`symmetry`]).
        let last = ok.len().saturating_sub(1);
        let ok: Vec<usize> = (ok.into_iter().enumerate())
            .filter(|&(i, (_, symmetric))| symmetric || i == last)
            .map(|(_, (pos, _))| pos)
            .collect();
        if !ok.is_empty() {
            self.report_errors(&st.g, w);
        }
        let split = ok.len() > 1;
        self.v.enter_branch(&mut self.rec, ok.len());
        for (i, &pos) in ok.iter().rev().enumerate() {
            if self.stop_before(i as u32) {
                break;
            }
            let child = Child {
                i: i as u32,
                n: ok.len() as u32,
            };
            self.v.child(&mut self.rec, child);
            if !self.v.enter(&self.rec.stats, child, split) {
                continue;
            }
            st.g.co_insert(w, pos);
            st.g.label_mut(w).added_max = i == 0;
            self.branch(st, i as u32, i + 1 == ok.len(), Branch::Placed(w));
            if !self.abandoned() {
                st.truncate(stamp + 1);
                st.g.co_remove(w);
            }
            self.v.leave(&self.rec.stats, split);
        }
        self.v.leave_branch(&mut self.rec);
        self.truncate(st, stamp);
    }

    /// Every backward revisit of write `w` (the newest event, placed in co) that TruSt's
    /// maximality rule allows. Leaves `st` as it found it: each revisit restricts it in
    /// place ([`State::remove_outside`]) and puts it back after ([`Revisit::undo`]), so
    /// nested revisits hold each event once (in the graph or in one removal record)
    /// instead of a copy of the graph each.
    /// It opens a branch point ([`BranchVisitor::enter_branch`]) with one child per
    /// candidate read and a last one for the caller's forward exploration, which the
    /// caller enters and leaves ([`Optimal::after_revisits`]). Returns whether there
    /// was a revisit (then the revisits and the continuation without one are the
    /// children of a real branch point, [`Filter::enter`]) and the number of children.
    fn backward_revisits(&mut self, st: &mut State<P>, w: EventId) -> (bool, u32) {
        let g = &st.g;
        let loc = g.label(w).loc().unwrap();
        let reads = revisit_candidates(g, loc, &g.label(w).porf);
        let n = reads.len() as u32 + 1;
        self.v.enter_branch(&mut self.rec, n as usize);
        let mut any = false;
        for (j, r) in reads.into_iter().enumerate() {
            if self.stop_before(j as u32) {
                return (any, n);
            }
            let child = Child { i: j as u32, n };
            self.v.child(&mut self.rec, child);
            // Decided before the revisit is applied: a revisit leaving `w` non-atomic,
            // and (without the maximality rule) one to a state already explored.
            if revisit_breaks_atomicity(&st.g, r, w) {
                continue;
            }
            let keep = revisit_view(&st.g, r, w);
            if self.maximality && !maximal_extension(&st.g, r, w, &keep) {
                continue;
            }
            let key = if self.maximality {
                None
            } else {
                let k = self.keys.key(&st.g, self.co.equiv, r, w, &keep);
                if self.revisited.contains(k) {
                    continue;
                }
                Some(Box::<[u32]>::from(k))
            };
            let rev = Revisit::apply(st, self.model, self.co, r, w, &keep);
            debug_assert!(
                key.as_ref()
                    .is_none_or(|k| *k == compact_state_key(&st.g, self.co.equiv)),
                "RevisitKeys::key differs from the key of the revisited state"
            );
            debug_assert!(
                !(st.g.label(w).is_exclusive_write() && atomicity::violated_by(&st.g, w)),
                "revisit_breaks_atomicity missed a violation"
            );
            if !self.co.check(&mut st.g, r) || (self.sr && !symmetry::consistent(&st.g, r)) {
                rev.undo(st);
                continue;
            }
            if let Some(key) = key {
                self.revisited.insert(key);
            }
            any = true;
            if self.v.enter(&self.rec.stats, child, true) {
                let len = st.g.len();
                self.branch(st, j as u32, false, Branch::Revisit { r, w });
                self.truncate(st, len);
                self.v.leave(&self.rec.stats, true);
            }
            if self.abandoned() {
                return (any, n);
            }
            rev.undo(st);
        }
        (any, n)
    }
}

/// A backward revisit of read `r` by write `w` applied to a state in place, and how
/// to undo it: the events outside the kept view moved out, `r`'s thread state after
/// it, `r`'s source and the fields of its label a revisit changes, the reads marked
/// not revisitable, and (rf mode) the co lists the check may replace.
struct Revisit<T> {
    r: EventId,
    taken: Taken<T>,
    after_r: Vec<Snap<T>>,
    rf: RfUndo,
    label: (LabelKind, View, bool),
    marked: Vec<EventId>,
    co: Option<CoWitness>,
}

impl<T> Revisit<T> {
    /// Restricts `st` to `keep` and makes `r` read from `w`, marking `w`'s
    /// porf-prefix not revisitable (the revisit's state, before its consistency
    /// check).
    fn apply<P: Program<Thread = T>>(
        st: &mut State<P>,
        model: &dyn MemoryModel,
        co: Coherence,
        r: EventId,
        w: EventId,
        keep: &View,
    ) -> Revisit<T> {
        let taken = st.remove_outside(keep);
        let after_r = st.ts[r.tid as usize].split_off(r.idx as usize);
        let lab = st.g.label(r);
        let label = (lab.kind.clone(), lab.hb.clone(), lab.added_max);
        // The order the read's action asked for (a failed compare-exchange lowered it).
        let ord = step::access_order(st, r);
        let rf = st.g.set_rf_undoable(r, Some(w));
        step::fix_source(model, &mut st.g, r, ord);
        let loc = st.g.label(w).loc().unwrap();
        let is_max = st.g.co_max(loc) == Some(w);
        st.g.label_mut(r).added_max = is_max;
        let wp = st.g.label(w).porf.clone();
        let mut marked = Vec::new();
        for t in 0..st.g.num_threads() {
            for i in 0..wp.get(t).min(st.g.thread_len(t)) {
                let e = EventId::new(t, i);
                let lab = st.g.label_mut(e);
                if lab.revisitable {
                    lab.revisitable = false;
                    marked.push(e);
                }
            }
        }
        Revisit {
            r,
            taken,
            after_r,
            rf,
            label,
            marked,
            co: co.snapshot(&st.g),
        }
    }

    /// Puts the state back as it was before [`Revisit::apply`]. Events added since
    /// must have been removed.
    fn undo<P: Program<Thread = T>>(self, st: &mut State<P>) {
        let r = self.r;
        if let Some(co) = &self.co {
            rf::install(&mut st.g, co);
        }
        for e in self.marked {
            st.g.label_mut(e).revisitable = true;
        }
        st.g.unset_rf(self.rf);
        let (kind, hb, added_max) = self.label;
        let lab = st.g.label_mut(r);
        lab.kind = kind;
        lab.hb = hb;
        lab.added_max = added_max;
        let ts = &mut st.ts[r.tid as usize];
        ts.truncate(r.idx as usize);
        ts.extend(self.after_r);
        st.restore(self.taken);
    }
}

/// The reads of `loc` outside `wporf` (a new write's porf-prefix) that a backward
/// revisit may still change, newest first. Found through the location's per-thread
/// index: of each thread, only the reads outside `wporf` are looked at.
fn revisit_candidates(g: &Graph, loc: Loc, wporf: &View) -> Vec<EventId> {
    let info = g.loc_info(loc);
    let candidate = |r: EventId| {
        let l = g.label(r);
        l.is_read() && l.revisitable && !wporf.contains(r)
    };
    // A short list is cheaper to scan than the index is to search (the order of
    // `accesses` is the insertion order).
    if info.accesses.len() <= porf_graph::SCAN_BELOW {
        return info
            .accesses
            .iter()
            .rev()
            .copied()
            .filter(|&r| candidate(r))
            .collect();
    }
    let mut reads = Vec::new();
    for t in 0..info.thread_slots() {
        for c in [AccessClass::NaRead, AccessClass::AtomicRead] {
            for &i in info.thread_accesses(t, c, wporf.get(t)) {
                let r = EventId::new(t, i);
                if g.label(r).revisitable {
                    reads.push(r);
                }
            }
        }
    }
    reads.sort_by_key(|&r| std::cmp::Reverse(g.label(r).stamp));
    reads
}

/// The events a backward revisit of `r` by `w` keeps: those added no later than `r`,
/// and `w`'s porf-prefix.
fn revisit_view(g: &Graph, r: EventId, w: EventId) -> View {
    let s = g.label(r).stamp;
    let mut v = g.label(w).porf.clone();
    for t in 0..g.num_threads() {
        let n = g.thread(t).partition_point(|l| l.stamp <= s) as u32;
        if n > v.get(t) {
            v.set(t, n);
        }
    }
    v
}

/// Whether the backward revisit of `r` by `w` leaves `w`, an exclusive write, sharing
/// its source with another RMW ([`atomicity::violated_by`] of the revisited graph),
/// decided on `g` before the revisit is applied. Exact: the revisit keeps the events
/// added no later than `r` and `w`'s porf-prefix ([`revisit_view`]) and changes no
/// source but `r`'s (no kept read reads from a deleted write, see
/// [`RevisitKeys::key`]); `w`'s read part and its source are in `w`'s porf-prefix, so
/// kept; the other RMWs reading that source in the revisited graph are those of `g`
/// other than `r` (which reads from `w` then) whose write part is kept.
fn revisit_breaks_atomicity(g: &Graph, r: EventId, w: EventId) -> bool {
    if !g.label(w).is_exclusive_write() {
        return false;
    }
    let rw = atomicity::read_part(w);
    let LabelKind::Read { loc, rf, .. } = g.label(rw).kind else {
        return false;
    };
    let (s, wporf) = (g.label(r).stamp, &g.label(w).porf);
    let kept = |e: EventId| g.label(e).stamp <= s || wporf.contains(e);
    g.readers(loc, rf)
        .iter()
        .any(|&o| o != rw && o != r && atomicity::has_write_part(g, o) && kept(o.next()))
}

/// TruSt's condition for `w` to revisit `r` keeping `keep`: the revisit must not
/// differ from another one only in where `w` sits in co, and `r` and every deleted
/// event must have been added maximally, reading from (or being) a write with no kept
/// co-successor other than `w`, and not itself reading from a deleted later write.
fn maximal_extension(g: &Graph, r: EventId, w: EventId, keep: &View) -> bool {
    let wl = g.label(w);
    let loc = wl.loc().unwrap();
    if !wl.is_exclusive_write() {
        if let Some(s) = g.co_next(loc, Some(w)) {
            if !keep.contains(s) {
                return false;
            }
        }
    }
    // Every event outside `keep` was added after `r` (`keep` holds all events added
    // no later than `r`), so only the insertion order from `r` on is scanned.
    for &e in &g.insertion_order()[g.label(r).stamp as usize..] {
        if keep.contains(e) && e != r {
            continue;
        }
        let lab = g.label(e);
        if !lab.revisitable {
            return false;
        }
        if matches!(lab.kind, LabelKind::Choice { .. }) && !lab.added_max {
            return false;
        }
        if !lab.is_access() {
            continue;
        }
        if !lab.added_max {
            return false;
        }
        let eloc = lab.loc().unwrap();
        let src = if lab.is_read() { lab.rf() } else { Some(e) };
        let after = &g.co(eloc)[g.co_pos(src)..];
        if after.iter().any(|&s| s != w && keep.contains(s)) {
            return false;
        }
        if let Some(s) = lab.rf() {
            if !keep.contains(s) && g.label(s).stamp > lab.stamp {
                return false;
            }
        }
    }
    true
}
