//! The optimal explorer's one hook at its branch points: a [`BranchVisitor`] is told
//! when a branch point is entered and left, asked before each child whether to stop,
//! told which child is reached, asked whether to explore it, whether to hand it to
//! another worker, and told when it returns. The concerns that watch the search tree
//! are implementations, composed into one [`Visitors`] the explorer carries:
//! [`ProgressTree`] (the share of the tree done, [`crate::progress`]), the shard
//! [`Filter`] ([`crate::shard`]) and the parallel [`Worker`] ([`crate::parallel`]).
//!
//! Contract (what the explorer guarantees): branch points nest — each
//! [`BranchVisitor::enter_branch`] is matched by one [`BranchVisitor::leave_branch`],
//! branch points entered in between are left before; within a branch point children
//! come in increasing index order; a child [`BranchVisitor::enter`] lets through is
//! [`BranchVisitor::leave`]n before the next child is reached, and between the two,
//! [`BranchVisitor::hand_off`] is asked once, and unless it took the child,
//! [`BranchVisitor::returned`] is called after the child's subtree.

use crate::optimal::Branch;
use crate::parallel::Worker;
use crate::progress;
use crate::record::Recorder;
use crate::shard::{Child, Filter};
use crate::state::{State, TidRegistry};
use crate::Stats;
use porf_graph::Program;

/// A hook at the optimal explorer's branch points (see the module docs for the order
/// of the calls). Every method but `enter_branch`/`leave_branch` concerns one child of
/// the innermost branch point entered and not left.
pub(crate) trait BranchVisitor<P: Program> {
    /// Entering a branch point with `n` candidate children.
    fn enter_branch(&mut self, _rec: &mut Recorder<'_>, _n: usize) {}

    /// Whether to stop before child `i`, with every later one.
    fn stop_before(&mut self, _i: u32) -> bool {
        false
    }

    /// Child `c` is reached: every child before it is done (explored, skipped or not a
    /// candidate after all).
    fn child(&mut self, _rec: &mut Recorder<'_>, _c: Child) {}

    /// Whether to explore child `c` (`split`: the branch point has at least two
    /// children the explorer offers).
    fn enter(&mut self, _stats: &Stats, _c: Child, _split: bool) -> bool {
        true
    }

    /// Whether child `i`, its state `st` set up for `branch`, is handed elsewhere
    /// rather than explored here (`last`: it is the branch point's last child).
    fn hand_off(&mut self, _at: HandOff<'_, '_, '_, P>) -> bool {
        false
    }

    /// After exploring a child [`BranchVisitor::hand_off`] kept.
    fn returned(&mut self, _rec: &Recorder<'_>) {}

    /// After a child [`BranchVisitor::enter`] let through (explored or handed off).
    fn leave(&mut self, _stats: &Stats, _split: bool) {}

    /// Leaving the branch point: all of it is done.
    fn leave_branch(&mut self, _rec: &mut Recorder<'_>) {}

    /// A maximal execution is reached: whether this run counts it.
    fn counts_leaf(&mut self) -> bool {
        true
    }
}

/// A child that may be handed off: its index, the state set up for `branch`, and
/// what a subtree explored elsewhere needs.
pub(crate) struct HandOff<'s, 'r, 'c, P: Program> {
    pub(crate) st: &'s State<P>,
    pub(crate) i: u32,
    pub(crate) last: bool,
    pub(crate) branch: Branch,
    pub(crate) tids: &'s TidRegistry,
    pub(crate) rec: &'r mut Recorder<'c>,
}

/// The progress tree ([`crate::progress::Tree`], kept by the [`Recorder`]): the
/// branch points on the current path.
#[derive(Default)]
pub(crate) struct ProgressTree {
    open: Vec<progress::Branch>,
}

impl<P: Program> BranchVisitor<P> for ProgressTree {
    #[inline]
    fn enter_branch(&mut self, rec: &mut Recorder<'_>, n: usize) {
        self.open.push(rec.branch(n));
    }

    #[inline]
    fn child(&mut self, rec: &mut Recorder<'_>, c: Child) {
        rec.child(self.open.last().expect("a branch point"), c.i as usize);
    }

    #[inline]
    fn leave_branch(&mut self, rec: &mut Recorder<'_>) {
        rec.end_branch(self.open.pop().expect("a branch point"));
    }
}

/// The shard filter: children outside the shard are skipped, leaves outside it not
/// counted.
impl<P: Program> BranchVisitor<P> for Filter {
    #[inline]
    fn enter(&mut self, stats: &Stats, c: Child, split: bool) -> bool {
        Filter::enter(self, split, c, stats)
    }

    #[inline]
    fn leave(&mut self, stats: &Stats, split: bool) {
        Filter::leave(self, split, stats)
    }

    #[inline]
    fn counts_leaf(&mut self) -> bool {
        Filter::counts_leaf(self)
    }
}

/// Parallel exploration: children after the first error found are not explored; a
/// child other than the last is handed to an idle worker; the worker's path follows
/// the children explored here.
impl<P: Program> BranchVisitor<P> for Option<Worker<'_, P>> {
    #[inline]
    fn stop_before(&mut self, i: u32) -> bool {
        self.as_mut().is_some_and(|w| w.beyond_bound(i))
    }

    #[inline]
    fn hand_off(&mut self, at: HandOff<'_, '_, '_, P>) -> bool {
        let Some(w) = self else { return false };
        // Handing over the last child would leave this worker idle: it would only
        // cost a copy of the state.
        if !at.last && w.donate(at.st, at.i, at.branch, at.tids, at.rec) {
            return true;
        }
        w.path.push(at.i);
        false
    }

    #[inline]
    fn returned(&mut self, rec: &Recorder<'_>) {
        if let Some(w) = self {
            w.note_error(rec);
            w.path.pop();
        }
    }
}

/// The optimal explorer's visitor: the progress tree, the shard filter and the
/// parallel worker, told in that order on the way in and in the reverse order on the
/// way out; a child is explored if every one lets it through (the filter of an
/// unsharded run lets everything through; a sequential run has no worker).
pub(crate) struct Visitors<'a, P: Program> {
    pub(crate) progress: ProgressTree,
    pub(crate) shard: Filter,
    pub(crate) par: Option<Worker<'a, P>>,
}

impl<'a, P: Program> Visitors<'a, P> {
    pub(crate) fn new(par: Option<Worker<'a, P>>) -> Self {
        Visitors {
            progress: ProgressTree::default(),
            shard: Filter::all(),
            par,
        }
    }
}

impl<P: Program> BranchVisitor<P> for Visitors<'_, P> {
    #[inline]
    fn enter_branch(&mut self, rec: &mut Recorder<'_>, n: usize) {
        BranchVisitor::<P>::enter_branch(&mut self.progress, rec, n);
        BranchVisitor::<P>::enter_branch(&mut self.shard, rec, n);
        self.par.enter_branch(rec, n);
    }

    #[inline]
    fn stop_before(&mut self, i: u32) -> bool {
        BranchVisitor::<P>::stop_before(&mut self.progress, i)
            || BranchVisitor::<P>::stop_before(&mut self.shard, i)
            || self.par.stop_before(i)
    }

    #[inline]
    fn child(&mut self, rec: &mut Recorder<'_>, c: Child) {
        BranchVisitor::<P>::child(&mut self.progress, rec, c);
        BranchVisitor::<P>::child(&mut self.shard, rec, c);
        self.par.child(rec, c);
    }

    #[inline]
    fn enter(&mut self, stats: &Stats, c: Child, split: bool) -> bool {
        BranchVisitor::<P>::enter(&mut self.progress, stats, c, split)
            && BranchVisitor::<P>::enter(&mut self.shard, stats, c, split)
            && self.par.enter(stats, c, split)
    }

    #[inline]
    fn hand_off(&mut self, at: HandOff<'_, '_, '_, P>) -> bool {
        // Only the worker hands children off.
        self.par.hand_off(at)
    }

    #[inline]
    fn returned(&mut self, rec: &Recorder<'_>) {
        BranchVisitor::<P>::returned(&mut self.progress, rec);
        BranchVisitor::<P>::returned(&mut self.shard, rec);
        self.par.returned(rec);
    }

    #[inline]
    fn leave(&mut self, stats: &Stats, split: bool) {
        self.par.leave(stats, split);
        BranchVisitor::<P>::leave(&mut self.shard, stats, split);
        BranchVisitor::<P>::leave(&mut self.progress, stats, split);
    }

    #[inline]
    fn leave_branch(&mut self, rec: &mut Recorder<'_>) {
        self.par.leave_branch(rec);
        BranchVisitor::<P>::leave_branch(&mut self.shard, rec);
        BranchVisitor::<P>::leave_branch(&mut self.progress, rec);
    }

    #[inline]
    fn counts_leaf(&mut self) -> bool {
        BranchVisitor::<P>::counts_leaf(&mut self.progress)
            && BranchVisitor::<P>::counts_leaf(&mut self.shard)
            && self.par.counts_leaf()
    }
}
