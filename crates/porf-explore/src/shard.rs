//! Sharding one exploration across processes (`porf verify --shard i/N`, `porf merge`).
//!
//! With TruSt's maximality rule the optimal explorer's search tree has independent
//! subtrees: a branch (a read's source, a write's co place, a backward revisit, the
//! continuation after a write's revisits, a `choose` value) is explored from a copy or
//! a truncation of its parent's state, and what one subtree does never changes what
//! another one does. The exploration is a deterministic depth-first walk.
//!
//! **Split.** The *depth* of a node is the number of real branches (points with at
//! least two children) on its path from the root; a node is named by the child taken
//! at each real branch on that path, children counted in the order the explorer
//! offers them. Every shard first runs the same deterministic pre-pass ([`plan`]),
//! under a node budget ([`PROBE_NODES_PER_SHARD`]`·N`, counting every walk and probe):
//! it walks the top of the tree in a growing `Reach` — limited discrepancy search:
//! first the paths that always take the first child offered, then those with one
//! other choice, and so on, each deeper and deeper, because under TruSt's maximality
//! rule the heavy subtrees hang below the maximal choices — each walk entering only
//! the subtrees the previous one did not see whole. The last walk probes below every
//! node it stops at with random descents (Knuth's estimator, [`PROBES_PER_NODE`]
//! each, from a fixed-seed generator). That walk is then cut (`Plan::cut`): each
//! subtree is weighed by the leaves the walk saw in it plus the probes' estimates of
//! the nodes it stopped at, and starting from the root's children the heaviest
//! subtree is split into its children while it weighs more than `1/(`[`SPLIT_FACTOR`]`·N)`
//! of the whole or there are fewer than [`NODES_PER_SHARD`]`·N` subtrees. The split
//! nodes are *expanded*, the others are the *frontier*: an antichain at variable
//! depths, numbered `k = 0, 1, …` in depth-first order, under which every maximal
//! execution below a real branch lies (`K = 0` when the tree has no real branch). The
//! frontier nodes are dealt heaviest first, each to the least loaded shard
//! ([`Plan::owner`]). Shard `i` explores the frontier nodes it owns and skips the
//! others; shard 0 walks every expanded node, the other shards only
//! those with a node of theirs below. A branch point the plan does not foresee (the
//! walks are deterministic, so it cannot happen) stops the shard with a panic rather
//! than a wrong count. [`Plan::fingerprint`] identifies the plan, so that merging
//! shards of different plans can be refused.
//!
//! **Segments.** The depth-first order of the run cut at the frontier nodes gives
//! *segments* numbered by an ordinal: `2k` is the part of the top walked after frontier
//! node `k-1` and before node `k` (after the last node: `2K`), `2k+1` is the inside of
//! node `k`. Every leaf and every error of the unsharded run lies in exactly one
//! segment. An inside segment is explored by its owner only; top segments are walked
//! by shard 0 (and in part by the others), only shard 0 counts their leaves and its
//! records of them are the authoritative ones (the other shards' top records are
//! ignored by [`merge`]).
//!
//! **Invariant**: the sum over shards of the counters of the segments each shard is
//! authoritative for equals the unsharded run's counts, and each shard's list of
//! segments records, per segment, its counters and the errors it added, in
//! depth-first order. Without keep-going a run stops at its first error; each shard
//! stops at its own first error, and [`merge`] keeps the segments up to the first
//! error by ordinal — exactly what the unsharded run had explored when it stopped.
//!
//! Explorers and modes with state shared across subtrees (the revisit set of rf mode
//! and of models without the maximality rule, RF-SMC, RVF, the reference explorer)
//! and `--max-executions` (a count shared by all subtrees) are rejected by
//! [`supported`].

use crate::coherence::Equiv;
use crate::optimal;
use crate::{Config, SpinForever, Stats, StopReason, Strategy};
use porf_graph::hash::SplitMix64;
use porf_graph::{Program, SrcLoc};
use porf_models::MemoryModel;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::{Duration, Instant};

/// The plan has at least this many subtrees per shard (if the pre-pass saw as many
/// leaves): the more subtrees per shard, the closer each shard's share is to `1/N`.
pub const NODES_PER_SHARD: u64 = 32;

/// The plan splits every subtree estimated to weigh more than `1/(SPLIT_FACTOR·N)` of
/// the whole (if the pre-pass saw below it).
pub const SPLIT_FACTOR: u64 = 8;

/// The pre-pass's walks and probes enter at most this many nodes per shard ...
pub const PROBE_NODES_PER_SHARD: u64 = 4096;

/// ... and at most this many in all, whatever the number of shards.
pub const PROBE_NODES_MAX: u64 = 1 << 20;

/// Random probes (Knuth's estimator) below each node the last walk stopped at.
pub const PROBES_PER_NODE: u32 = 4;

/// The most walks the pre-pass makes.
const MAX_WALKS: u32 = 4096;

/// Shard `index` of `count` (`--shard index/count`, `index < count`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Split {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for Split {
    type Err = String;
    /// `i/N` with `0 <= i < N`.
    fn from_str(s: &str) -> Result<Split, String> {
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is not a shard I/N (e.g. 0/4)"))?;
        let num = |x: &str| {
            x.trim()
                .parse::<u32>()
                .map_err(|e| format!("`{x}` in --shard {s}: {e}"))
        };
        let (index, count) = (num(i)?, num(n)?);
        if count == 0 || index >= count {
            return Err(format!(
                "--shard {s}: the shard number must be below the number of shards (0/{count} .. {}/{count})",
                count.saturating_sub(1)
            ));
        }
        Ok(Split { index, count })
    }
}

/// Whether `strategy` can be sharded on `model` under `cfg`; the reason if not.
pub fn supported(strategy: Strategy, model: &dyn MemoryModel, cfg: &Config) -> Result<(), String> {
    if strategy != Strategy::Optimal {
        return Err(
            "--shard is unsupported with this explorer (its subtrees share state): use the default --explorer graph"
                .into(),
        );
    }
    if cfg.equiv != Equiv::Co {
        return Err(
            "--shard is unsupported with --equiv rf or rvf (the explorer keeps a set of revisit graphs shared by all subtrees): use --equiv co"
                .into(),
        );
    }
    if !model.maximal_extensions_consistent() {
        return Err(format!(
            "--shard is unsupported with --model {} (without TruSt's maximality rule the explorer keeps a set of revisit graphs shared by all subtrees)",
            model.name()
        ));
    }
    if cfg.max_executions.is_some() {
        return Err(
            "--shard is unsupported with --max-executions (the count is shared by all subtrees); use --timeout"
                .into(),
        );
    }
    Ok(())
}

/// Counters of one segment (or of a sum of segments).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub complete: u64,
    pub blocked: u64,
    pub bound_cut: u64,
    /// Of `bound_cut`, those cut by the recursion limit ([`Stats::recursion_cut`]).
    pub recursion_cut: u64,
    pub erroneous: u64,
    /// Blocked executions per spin loop ([`Stats::spin_blocked`]), in no order.
    pub spin_blocked: Vec<(SrcLoc, u64)>,
    /// Executions per (thread, spin loop) in which the thread spins forever
    /// ([`Stats::spin_forever`]), in no order.
    pub spin_forever: Vec<(SpinForever, u64)>,
    /// [`Stats::hung`].
    pub hung: u64,
    /// [`Stats::error_counts`], each key as [`tally_key`] writes it, in no order.
    pub error_counts: Vec<(String, u64)>,
    /// [`Stats::leaks`], in no order.
    pub leaks: Vec<(SrcLoc, u64)>,
}

/// An error key ([`crate::ErrorReport::owned_key`]) as text: what shard reports
/// record per-error execution counts under.
pub fn tally_key(k: &crate::stats::ErrorKey) -> String {
    format!("{k:?}")
}

impl Counters {
    fn of(s: &Stats) -> Counters {
        Counters {
            complete: s.complete,
            blocked: s.blocked,
            bound_cut: s.bound_cut,
            recursion_cut: s.recursion_cut,
            erroneous: s.erroneous,
            spin_blocked: s.spin_blocked.iter().map(|(l, n)| (*l, *n)).collect(),
            spin_forever: s.spin_forever.iter().map(|(k, n)| (*k, *n)).collect(),
            hung: s.hung,
            error_counts: s
                .error_counts
                .iter()
                .map(|(k, n)| (tally_key(k), *n))
                .collect(),
            leaks: s.leaks.iter().map(|(l, n)| (*l, *n)).collect(),
        }
    }

    /// `self - before` (counters only grow).
    fn since(&self, before: &Counters) -> Counters {
        let old: HashMap<SrcLoc, u64> = before.spin_blocked.iter().copied().collect();
        let old_leaks: HashMap<SrcLoc, u64> = before.leaks.iter().copied().collect();
        let old_forever: HashMap<SpinForever, u64> = before.spin_forever.iter().copied().collect();
        let old_counts: HashMap<&str, u64> = before
            .error_counts
            .iter()
            .map(|(k, n)| (k.as_str(), *n))
            .collect();
        Counters {
            complete: self.complete - before.complete,
            blocked: self.blocked - before.blocked,
            bound_cut: self.bound_cut - before.bound_cut,
            recursion_cut: self.recursion_cut - before.recursion_cut,
            erroneous: self.erroneous - before.erroneous,
            spin_blocked: self
                .spin_blocked
                .iter()
                .map(|(l, n)| (*l, n - old.get(l).copied().unwrap_or(0)))
                .filter(|(_, n)| *n > 0)
                .collect(),
            spin_forever: self
                .spin_forever
                .iter()
                .map(|(k, n)| (*k, n - old_forever.get(k).copied().unwrap_or(0)))
                .filter(|(_, n)| *n > 0)
                .collect(),
            hung: self.hung - before.hung,
            error_counts: self
                .error_counts
                .iter()
                .map(|(k, n)| {
                    (
                        k.clone(),
                        n - old_counts.get(k.as_str()).copied().unwrap_or(0),
                    )
                })
                .filter(|(_, n)| *n > 0)
                .collect(),
            leaks: self
                .leaks
                .iter()
                .map(|(l, n)| (*l, n - old_leaks.get(l).copied().unwrap_or(0)))
                .filter(|(_, n)| *n > 0)
                .collect(),
        }
    }

    pub fn is_zero(&self) -> bool {
        self.complete == 0
            && self.blocked == 0
            && self.bound_cut == 0
            && self.recursion_cut == 0
            && self.erroneous == 0
            && self.spin_blocked.is_empty()
            && self.spin_forever.is_empty()
            && self.hung == 0
            && self.error_counts.is_empty()
            && self.leaks.is_empty()
    }

    /// Maximal executions counted (complete, blocked, erroneous): the work measure.
    pub fn executions(&self) -> u64 {
        self.complete + self.blocked + self.erroneous
    }

    /// Adds `o` field by field.
    pub fn add(&mut self, o: &Counters) {
        self.complete += o.complete;
        self.blocked += o.blocked;
        self.bound_cut += o.bound_cut;
        self.recursion_cut += o.recursion_cut;
        self.erroneous += o.erroneous;
        for (l, n) in &o.spin_blocked {
            match self.spin_blocked.iter_mut().find(|(m, _)| m == l) {
                Some((_, k)) => *k += n,
                None => self.spin_blocked.push((*l, *n)),
            }
        }
        for (k, n) in &o.spin_forever {
            match self.spin_forever.iter_mut().find(|(m, _)| m == k) {
                Some((_, c)) => *c += n,
                None => self.spin_forever.push((*k, *n)),
            }
        }
        self.hung += o.hung;
        for (k, n) in &o.error_counts {
            match self.error_counts.iter_mut().find(|(m, _)| m == k) {
                Some((_, c)) => *c += n,
                None => self.error_counts.push((k.clone(), *n)),
            }
        }
        for (l, n) in &o.leaks {
            match self.leaks.iter_mut().find(|(m, _)| m == l) {
                Some((_, k)) => *k += n,
                None => self.leaks.push((*l, *n)),
            }
        }
    }

    /// The executions containing the error with [`tally_key`] `key`.
    pub fn executions_with(&self, key: &str) -> u64 {
        self.error_counts
            .iter()
            .find(|(k, _)| k == key)
            .map_or(0, |(_, n)| *n)
    }
}

/// One segment a shard recorded: its ordinal (see the module docs), its counters and
/// the errors added during it (indices into the shard's [`Stats::errors`], in the
/// order they were found).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    pub ordinal: u64,
    pub counters: Counters,
    pub errors: Vec<usize>,
}

/// What a shard's exploration returns.
#[derive(Debug)]
pub struct ShardRun {
    pub split: Split,
    /// The shard's own totals (its errors are the ones [`Segment::errors`] index).
    pub stats: Stats,
    /// The deepest frontier node's depth and the number of frontier nodes `K`.
    pub depth: u32,
    pub frontier: u64,
    /// The plan every shard computed ([`Plan::fingerprint`] identifies it).
    pub plan: Plan,
    /// A limit (time, memory, execution size) stopped the pre-pass: there is no plan
    /// (`plan` is empty), no segment, and `stats.stopped_by` says which limit.
    pub probe_stopped: bool,
    /// Time the pre-pass took.
    pub probe: Duration,
    /// Segments with something recorded, by increasing ordinal.
    pub segments: Vec<Segment>,
}

impl ShardRun {
    /// The executions this shard counted in the segments it is authoritative for.
    pub fn executions(&self) -> u64 {
        self.segments
            .iter()
            .filter(|s| authoritative(s.ordinal, self.split.index))
            .map(|s| s.counters.executions())
            .sum()
    }
}

/// Whether shard `index`'s record of segment `ordinal` counts: inside segments (odd)
/// are recorded only by their owner; top segments (even) by shard 0.
pub fn authoritative(ordinal: u64, index: u32) -> bool {
    ordinal % 2 == 1 || index == 0
}

/// One node of the top of the search tree, as a pre-pass walk saw it (nodes are
/// numbered in depth-first preorder; the root, depth 0, is node 0).
#[derive(Clone, Debug)]
struct TopNode {
    /// Real branches on the path from the root.
    depth: u32,
    /// The children of its branch point, in the order the explorer offers them (empty:
    /// no real branch below it, or not walked into).
    children: Vec<u32>,
    /// The walk stopped at this node (beyond its [`Reach`]) instead of walking it.
    cut: bool,
    /// A node the walk stopped at: the mean of the random probes below it (Knuth's
    /// estimate of its leaves), if it was probed.
    est: Option<f64>,
}

/// Which nodes a pre-pass walk enters. A node's *discrepancies* are the children on its
/// path taken other than the first one offered (Harvey and Ginsberg, "Limited
/// Discrepancy Search", 1995): under TruSt's maximality rule the first child (the
/// maximal choice, the newest revisit) is the one with revisits still to come below it,
/// and the heavy part of a tree lies along paths with few discrepancies. A walk enters a
/// node with `disc` discrepancies at depth `depth` iff `disc < k`, or `disc == k` and
/// `depth <= d`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reach {
    k: u32,
    d: u32,
}

impl Reach {
    fn enters(self, disc: u32, depth: u32) -> bool {
        disc < self.k || (disc == self.k && depth <= self.d)
    }

    /// The next, larger reach: twice as deep at `k` if the walk stopped some node with
    /// `k` discrepancies for its depth, else one discrepancy more.
    fn next(self, depth_cut: bool) -> Reach {
        if depth_cut {
            Reach {
                k: self.k,
                d: self.d.saturating_mul(2),
            }
        } else {
            Reach {
                k: self.k + 1,
                d: 1,
            }
        }
    }
}

/// Child `i` of the `n` candidates of a branch point (candidates the explorer then finds
/// inconsistent or redundant are never offered; `i < n`).
#[derive(Clone, Copy, Debug)]
pub struct Child {
    pub i: u32,
    pub n: u32,
}

/// Random probes below the nodes a walk stops at (Knuth, "Estimating the efficiency of
/// backtrack programs", 1975): each probe descends taking one child at random at every
/// branch point, and the product of the inverse probabilities of its choices is an
/// unbiased estimate of the leaves below where it started. At a branch point with `n`
/// candidates a probe draws `x` uniformly below `n` and takes the first child offered
/// whose candidate index is at least `x`: a child offered at index `i` after one at
/// index `j` (or first, `j = -1`) is taken with probability `(i - j)/n`, so candidates
/// the explorer does not offer (revisits it finds redundant) do not kill probes; where
/// every candidate is offered this is Knuth's uniform choice. The `c` probes at a node
/// draw together and those that take the same child share its walk. The draws come
/// from one [`SplitMix64`] sequence consumed in depth-first order, so every shard draws
/// alike.
#[derive(Debug)]
struct Dive {
    per_node: u32,
    /// Nodes the probes may enter in all; once they have entered as many, no new node
    /// is probed.
    limit: u64,
    /// The nodes the walk will stop at (the previous walk's), those offered to
    /// [`Dive::start`] so far, and those probed: the first ones are probed until an
    /// eighth of the budget is spent, then one in `stride`, spread so that the budget
    /// lasts to the end of the walk.
    cuts: u64,
    offered: u64,
    probed: u64,
    calibration: u64,
    /// Once striding: one in `stride` of the nodes from the `from`-th on is probed.
    stride: u64,
    from: u64,
    rng: SplitMix64,
    /// The probes' path below the probed node: per node, the probes through it, the
    /// product of the inverse probabilities of the choices above it, and, once drawn,
    /// the probes' draws at its branch point (ascending) with the candidate index of the
    /// last child offered there.
    frames: Vec<Frame>,
    node: u32,
    /// The sum of the probes' estimates.
    sum: f64,
    /// Nodes the probes entered.
    entered: u64,
}

#[derive(Debug)]
struct Frame {
    c: u32,
    p: f64,
    draws: Option<Vec<u32>>,
    last: Option<u32>,
}

impl Dive {
    fn new(per_node: u32, limit: u64, cuts: u64) -> Dive {
        Dive {
            per_node,
            limit,
            cuts,
            offered: 0,
            probed: 0,
            calibration: limit / 8,
            stride: 0,
            from: 0,
            rng: SplitMix64(0x5ba2_d0c5_7f1e_0001),
            frames: Vec::new(),
            node: 0,
            sum: 0.0,
            entered: 0,
        }
    }

    /// No probes (the walks before the last one).
    fn none() -> Dive {
        Dive::new(0, 0, 0)
    }

    fn active(&self) -> bool {
        !self.frames.is_empty()
    }

    /// Nodes the probes may still enter.
    fn left(&self) -> u64 {
        self.limit.saturating_sub(self.entered)
    }

    /// Starts the probes below `node`, if it is one to probe and there is budget left.
    fn start(&mut self, node: u32) -> bool {
        if self.per_node == 0 || self.left() == 0 {
            return false;
        }
        let k = self.offered;
        self.offered += 1;
        if self.entered >= self.calibration {
            if self.stride == 0 {
                // Nodes entered per probed node so far, for the nodes still to come.
                let per = self.entered.div_ceil(self.probed.max(1)).max(1);
                let rest = self.cuts.saturating_sub(k).max(1);
                self.stride = (rest * per).div_ceil(self.left()).max(1);
                self.from = k;
            }
            if !(k - self.from).is_multiple_of(self.stride) {
                return false;
            }
        }
        self.probed += 1;
        self.node = node;
        self.sum = 0.0;
        self.frames.push(Frame {
            c: self.per_node,
            p: 1.0,
            draws: None,
            last: None,
        });
        true
    }

    /// Whether some probe takes `child` of the current node's branch point.
    fn enter(&mut self, child: Child) -> bool {
        let f = self.frames.last_mut().expect("a probe");
        let n = child.n.max(child.i.saturating_add(1));
        let draws = f.draws.get_or_insert_with(|| {
            let mut d: Vec<u32> = (0..f.c)
                .map(|_| self.rng.below(u64::from(n)) as u32)
                .collect();
            d.sort_unstable();
            d
        });
        // The draws in (last, i] take this child.
        let lo = f.last.map_or(0, |j| j + 1);
        if child.i < lo {
            return false;
        }
        let c = draws.iter().filter(|&&x| lo <= x && x <= child.i).count() as u32;
        f.last = Some(child.i);
        if c == 0 {
            return false;
        }
        let p = f.p * f64::from(n) / f64::from(child.i - lo + 1);
        self.entered += 1;
        self.frames.push(Frame {
            c,
            p,
            draws: None,
            last: None,
        });
        true
    }

    /// Leaves the current node; returns the probed node and its estimate when the
    /// probes are done.
    fn leave(&mut self) -> Option<(u32, f64)> {
        self.frames.pop();
        (!self.active()).then(|| (self.node, self.estimate()))
    }

    /// The probed node's estimate: the mean of its probes' (a probe that reached no
    /// leaf estimates 0).
    fn estimate(&self) -> f64 {
        self.sum / f64::from(self.per_node)
    }

    /// A maximal execution the probes reached.
    fn leaf(&mut self) {
        if let Some(f) = self.frames.last() {
            self.sum += f64::from(f.c) * f.p;
        }
    }
}

/// What one pre-pass walk found: the top of the tree within `reach`.
#[derive(Debug)]
struct Top {
    nodes: Vec<TopNode>,
    path: Vec<Step>,
    reach: Reach,
    /// The walk stopped some node with `reach.k` discrepancies for its depth.
    depth_cut: bool,
    /// Nodes entered so far (probes aside).
    walked: u64,
    /// The previous walk (a smaller reach): subtrees it saw whole (no node it stopped
    /// at below them) are copied from it instead of walked again.
    prev: Option<Prev>,
    dive: Dive,
}

/// A node on the walk's current path.
#[derive(Debug)]
struct Step {
    /// Its index in `nodes`.
    node: u32,
    /// Its node in `prev`, if it has one.
    old: Option<u32>,
    disc: u32,
    /// Its children offered so far (the index of the next one, here and in `prev`).
    offered: u32,
}

impl Top {
    /// The walk's answer to [`Filter::enter`] at depth `d`.
    fn enter(&mut self, d: u32, child: Child) -> bool {
        if self.dive.active() {
            return self.dive.enter(child);
        }
        let id = self.nodes.len() as u32;
        let step = self.path.last_mut().expect("probe path");
        let (parent, index) = (step.node, step.offered);
        let disc = step.disc + u32::from(index > 0);
        step.offered += 1;
        // This child's node in the previous walk.
        let old = match (step.old, &self.prev) {
            (Some(p), Some(prev)) => Some(
                *prev.nodes[p as usize]
                    .children
                    .get(index as usize)
                    .expect("pre-pass walks differ"),
            ),
            _ => None,
        };
        self.nodes[parent as usize].children.push(id);
        if let (Some(c), Some(prev)) = (old, &self.prev) {
            if !prev.open[c as usize] {
                // Seen whole: copy it.
                let (c, n) = (c as usize, prev.size[c as usize] as usize);
                for y in c..c + n {
                    let t = &prev.nodes[y];
                    self.nodes.push(TopNode {
                        depth: t.depth,
                        children: t.children.iter().map(|&z| z - c as u32 + id).collect(),
                        cut: false,
                        est: None,
                    });
                }
                return false;
            }
        }
        let cut = !self.reach.enters(disc, d);
        self.nodes.push(TopNode {
            depth: d,
            children: Vec::new(),
            cut,
            est: None,
        });
        if cut {
            self.depth_cut |= disc == self.reach.k;
            return self.dive.start(id);
        }
        self.walked += 1;
        // Below a node the previous walk stopped at, it has nothing.
        let old = old.filter(|&c| self.prev.as_ref().is_some_and(|p| !p.nodes[c as usize].cut));
        self.path.push(Step {
            node: id,
            old,
            disc,
            offered: 0,
        });
        true
    }

    /// After a child [`Top::enter`] let through.
    fn leave(&mut self) {
        if self.dive.active() {
            if let Some((node, est)) = self.dive.leave() {
                self.nodes[node as usize].est = Some(est);
            }
            return;
        }
        self.path.pop();
    }
}

#[derive(Debug)]
struct Prev {
    nodes: Vec<TopNode>,
    /// Per node: the size of its subtree (in preorder, the subtree of `x` is
    /// `x .. x + size[x]`) and whether a node the walk stopped at lies in it.
    size: Vec<u32>,
    open: Vec<bool>,
}

impl Prev {
    fn of(top: Top) -> Prev {
        let n = top.nodes.len();
        let (mut size, mut open) = (vec![1u32; n], vec![false; n]);
        for x in (0..n).rev() {
            let t = &top.nodes[x];
            size[x] = 1 + t.children.iter().map(|&c| size[c as usize]).sum::<u32>();
            open[x] = t.cut || t.children.iter().any(|&c| open[c as usize]);
        }
        Prev {
            nodes: top.nodes,
            size,
            open,
        }
    }

    /// The nodes a walk of a larger reach enters again: the open ones but the root.
    fn next_cost(&self) -> u64 {
        self.open.iter().skip(1).filter(|&&o| o).count() as u64
    }
}

/// How the top of the tree is cut into subtrees and which shard explores each. Every
/// shard computes the same plan (the pre-pass is deterministic): the *expanded* nodes
/// are walked by the shards, each of their children is expanded too or is a *frontier*
/// node, and the frontier nodes (numbered `k = 0, 1, …` in depth-first order) are an
/// antichain that every maximal execution below a real branch lies under.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    nodes: Vec<PlanNode>,
    /// The owner of each frontier node, by ordinal.
    owners: Vec<u32>,
    /// The depth of the deepest node the pre-pass walked, and the number of nodes its
    /// walks and probes entered (its cost).
    pub probe_depth: u32,
    pub probe_nodes: u64,
    /// The estimated weight (see [`Plan::cut`]) of each frontier node, by ordinal.
    weights: Vec<u64>,
}

#[derive(Clone, Debug)]
struct PlanNode {
    depth: u32,
    /// Plan nodes of the children (expanded nodes only).
    children: Vec<u32>,
    /// The ordinal of a frontier node.
    frontier: Option<u64>,
    /// The ordinal of the first frontier node after this node's subtree.
    end: u64,
}

impl Plan {
    /// The plan of a tree without real branches: no frontier, everything is top.
    fn flat() -> Plan {
        Plan {
            nodes: vec![PlanNode {
                depth: 0,
                children: Vec::new(),
                frontier: None,
                end: 0,
            }],
            owners: Vec::new(),
            probe_depth: 0,
            probe_nodes: 0,
            weights: Vec::new(),
        }
    }

    /// Cuts `top` for `count` shards: starting from the root's children, splits the
    /// heaviest subtree into its children while it weighs more than
    /// `1/(`[`SPLIT_FACTOR`]`·count)` of the whole or there are fewer than
    /// [`NODES_PER_SHARD`]`·count` subtrees, then deals the subtrees to the shards,
    /// heaviest first, each to the least loaded shard (ties: the lower shard; subtrees
    /// of equal weight in depth-first order). A subtree's weight is the sum of its
    /// leaves' and stopped nodes' weights: a leaf of the walk (a node without a branch
    /// below it) weighs 1, a node the walk stopped at its probes' estimate, or, if it
    /// was not probed, the estimate of the probed node of its depth nearest to it in
    /// preorder (without one, the mean estimate; without any probe, as much as the walk
    /// saw per stopped node).
    fn cut(top: &Top, count: u32) -> Plan {
        let t = &top.nodes;
        if t[0].children.is_empty() {
            return Plan::flat();
        }
        // An estimate as a weight: at least 1, and at most 2^40, so that sums cannot
        // overflow.
        let weight_of = |e: f64| e.clamp(1.0, (1u64 << 40) as f64).round() as u64;
        let probed: Vec<f64> = t.iter().filter_map(|n| n.est).collect();
        let unknown = if probed.is_empty() {
            let live = t.iter().filter(|n| n.cut).count() as u64;
            (top.walked.max(t.len() as u64) / live.max(1)).max(1)
        } else {
            weight_of(probed.iter().sum::<f64>() / probed.len() as f64)
        };
        // Per depth, the probed nodes in preorder with their estimates.
        let mut by_depth: HashMap<u32, Vec<(usize, f64)>> = HashMap::new();
        for (x, n) in t.iter().enumerate() {
            if let Some(e) = n.est {
                by_depth.entry(n.depth).or_default().push((x, e));
            }
        }
        // An unprobed node: the estimate of the nearest probed node of its depth in
        // preorder (its siblings and cousins first), else the mean.
        let guess = |x: usize| -> u64 {
            let Some(v) = by_depth.get(&t[x].depth) else {
                return unknown;
            };
            let i = v.partition_point(|&(y, _)| y < x);
            let near = [i.checked_sub(1), (i < v.len()).then_some(i)]
                .into_iter()
                .flatten()
                .min_by_key(|&j| v[j].0.abs_diff(x));
            near.map_or(unknown, |j| weight_of(v[j].1))
        };
        // Children come after their parent in preorder.
        let weigh = |cap: u64| {
            let mut weight = vec![0u64; t.len()];
            for x in (0..t.len()).rev() {
                weight[x] = if t[x].cut {
                    t[x].est.map_or_else(|| guess(x), weight_of).min(cap)
                } else if t[x].children.is_empty() {
                    1
                } else {
                    t[x].children.iter().map(|&c| weight[c as usize]).sum()
                };
            }
            weight
        };
        // A stopped node's estimate comes from a few descents, and one descent that met
        // many branch points can make it huge: no stopped node weighs more than the
        // split threshold (what the cut would split, could it).
        let whole = weigh(u64::MAX)[0];
        let weight = weigh((whole / (SPLIT_FACTOR * u64::from(count))).max(1));
        let total = weight[0];
        let n = u64::from(count);
        let mut expanded = vec![false; t.len()];
        expanded[0] = true;
        // Max-heap on (weight, earlier in preorder first).
        let mut open: BinaryHeap<(u64, Reverse<u32>)> = t[0]
            .children
            .iter()
            .map(|&c| (weight[c as usize], Reverse(c)))
            .collect();
        let mut units: Vec<u32> = Vec::new();
        while let Some(&(w, Reverse(x))) = open.peek() {
            let heavy = u128::from(w) * u128::from(SPLIT_FACTOR * n) > u128::from(total);
            let few = ((open.len() + units.len()) as u64) < NODES_PER_SHARD * n;
            if !heavy && !few {
                break;
            }
            open.pop();
            if t[x as usize].children.is_empty() {
                units.push(x);
            } else {
                expanded[x as usize] = true;
                for &c in &t[x as usize].children {
                    open.push((weight[c as usize], Reverse(c)));
                }
            }
        }
        units.extend(open.into_iter().map(|(_, Reverse(x))| x));
        // Deal, heaviest first.
        let mut by_weight = units.clone();
        by_weight.sort_by_key(|&x| (Reverse(weight[x as usize]), x));
        let mut load = vec![0u64; count as usize];
        let mut owner_of: HashMap<u32, u32> = HashMap::new();
        for x in by_weight {
            let i = (0..count)
                .min_by_key(|&i| (load[i as usize], i))
                .unwrap_or(0);
            load[i as usize] += weight[x as usize];
            owner_of.insert(x, i);
        }
        // The plan's nodes: the expanded ones and the frontier, in preorder.
        units.sort_unstable();
        let is_unit: std::collections::HashSet<u32> = units.iter().copied().collect();
        let mut index = vec![u32::MAX; t.len()];
        let mut nodes: Vec<PlanNode> = Vec::new();
        let mut owners = Vec::new();
        let mut weights = Vec::new();
        for x in 0..t.len() {
            if !expanded[x] && !is_unit.contains(&(x as u32)) {
                continue;
            }
            index[x] = nodes.len() as u32;
            let frontier = is_unit.contains(&(x as u32)).then(|| {
                owners.push(owner_of[&(x as u32)]);
                weights.push(weight[x]);
                owners.len() as u64 - 1
            });
            nodes.push(PlanNode {
                depth: t[x].depth,
                children: Vec::new(),
                frontier,
                end: 0,
            });
        }
        for x in 0..t.len() {
            if expanded[x] {
                let children = t[x]
                    .children
                    .iter()
                    .map(|&c| index[c as usize])
                    .collect::<Vec<u32>>();
                debug_assert!(children.iter().all(|&c| c != u32::MAX));
                nodes[index[x] as usize].children = children;
            }
        }
        // `end`: in reverse preorder, a node's subtree ends where its last child's does.
        for i in (0..nodes.len()).rev() {
            nodes[i].end = match (nodes[i].frontier, nodes[i].children.last()) {
                (Some(k), _) => k + 1,
                (None, Some(&c)) => nodes[c as usize].end,
                (None, None) => 0,
            };
        }
        Plan {
            nodes,
            owners,
            probe_depth: t
                .iter()
                .filter(|n| !n.cut)
                .map(|n| n.depth)
                .max()
                .unwrap_or(0),
            probe_nodes: top.walked + top.dive.entered,
            weights,
        }
    }

    /// The number of frontier nodes.
    pub fn frontier(&self) -> u64 {
        self.owners.len() as u64
    }

    /// The deepest frontier node's depth.
    pub fn depth(&self) -> u32 {
        self.nodes
            .iter()
            .filter(|n| n.frontier.is_some())
            .map(|n| n.depth)
            .max()
            .unwrap_or(0)
    }

    /// The shard that explores frontier node `k`.
    pub fn owner(&self, k: u64) -> u32 {
        self.owners[k as usize]
    }

    /// The estimated weight of frontier node `k` (see the module docs).
    pub fn weight(&self, k: u64) -> u64 {
        self.weights[k as usize]
    }

    /// FNV-1a of the plan's shape (each node's number of children and frontier
    /// ordinal, in preorder) and owners: equal plans, equal fingerprints.
    pub fn fingerprint(&self) -> u64 {
        let mut h = porf_graph::hash::Fnv1a::default();
        let mut eat = |x: u64| h.write(&x.to_le_bytes());
        for n in &self.nodes {
            eat(n.children.len() as u64);
            eat(n.frontier.map_or(u64::MAX, |k| k));
        }
        for &o in &self.owners {
            eat(u64::from(o));
        }
        h.finish()
    }

    /// Per plan node: whether its subtree holds a frontier node shard `index` owns.
    fn holds(&self, index: u32) -> Vec<bool> {
        let mut h = vec![false; self.nodes.len()];
        for i in (0..self.nodes.len()).rev() {
            let n = &self.nodes[i];
            h[i] = match n.frontier {
                Some(k) => self.owners[k as usize] == index,
                None => n.children.iter().any(|&c| h[c as usize]),
            };
        }
        h
    }
}

/// What the optimal explorer asks at every branch. `All` lets everything through at
/// the cost of one comparison.
#[derive(Debug)]
enum Mode {
    All,
    /// Walk the top of the tree down to a depth (the pre-pass).
    Probe(Top),
    Shard(Walk),
}

/// A shard's walk through the plan.
#[derive(Debug)]
struct Walk {
    split: Split,
    plan: Plan,
    /// Per plan node: its subtree holds a frontier node this shard owns.
    holds: Vec<bool>,
    /// The expanded plan nodes on the current path, each with the number of its
    /// children offered so far.
    path: Vec<(u32, u32)>,
    /// The ordinal of the next frontier node in depth-first order.
    next: u64,
    /// The depth of the owned frontier node the walk is inside, if it is.
    inside: Option<u32>,
}

/// The optimal explorer's branch filter (see the module docs). Contract: the explorer
/// calls [`Filter::enter`] before exploring a child of a branch point (`split`: the
/// point has at least two children; the children of one branch point are offered one
/// after the other, each left before the next is offered, each with its index among
/// the point's candidates in increasing order, [`Child`]) and skips the child if it
/// returns false; after exploring it, it calls [`Filter::leave`] with the same
/// `split`. It asks [`Filter::counts_leaf`] at every maximal execution and counts it
/// only if that returns true.
#[derive(Debug)]
pub struct Filter {
    mode: Mode,
    /// Real branches on the current path.
    depth: u32,
    /// Counters and number of errors at the last segment boundary.
    mark: Counters,
    mark_errors: usize,
    segments: Vec<Segment>,
}

impl Filter {
    fn new(mode: Mode) -> Filter {
        Filter {
            mode,
            depth: 0,
            mark: Counters::default(),
            mark_errors: 0,
            segments: Vec::new(),
        }
    }

    /// The filter of an unsharded run: everything is explored.
    pub fn all() -> Filter {
        Filter::new(Mode::All)
    }

    /// Whether to explore `child` of a branch point, about to be entered.
    #[inline]
    pub fn enter(&mut self, split: bool, child: Child, stats: &Stats) -> bool {
        if matches!(self.mode, Mode::All) || !split {
            return true;
        }
        let d = self.depth + 1;
        match &mut self.mode {
            Mode::All => unreachable!(),
            Mode::Probe(top) => {
                if !top.enter(d, child) {
                    return false;
                }
            }
            Mode::Shard(w) => {
                if w.inside.is_none() {
                    let (parent, offered) = w.path.last_mut().expect("shard path");
                    let children = &w.plan.nodes[*parent as usize].children;
                    let c = *children.get(*offered as usize).unwrap_or_else(|| {
                        panic!(
                            "shard plan mismatch: a branch point at depth {d} offers more than {} children",
                            children.len()
                        )
                    });
                    *offered += 1;
                    let node = &w.plan.nodes[c as usize];
                    debug_assert_eq!(node.depth, d, "shard plan mismatch");
                    match node.frontier {
                        Some(k) => {
                            debug_assert_eq!(k, w.next, "shard plan mismatch");
                            w.next = k + 1;
                            let mine = w.plan.owners[k as usize] == w.split.index;
                            // The top segment before node k ends here.
                            self.close(2 * k, stats);
                            if !mine {
                                return false;
                            }
                            if let Mode::Shard(w) = &mut self.mode {
                                w.inside = Some(d);
                            }
                        }
                        None => {
                            // Shard 0 walks the whole top (it records the top
                            // segments); the others only what leads to their nodes.
                            if w.split.index != 0 && !w.holds[c as usize] {
                                debug_assert!(node.end >= w.next, "shard plan mismatch");
                                w.next = node.end;
                                return false;
                            }
                            w.path.push((c, 0));
                        }
                    }
                }
            }
        }
        self.depth = d;
        true
    }

    /// After exploring a child [`Filter::enter`] let through.
    #[inline]
    pub fn leave(&mut self, split: bool, stats: &Stats) {
        if matches!(self.mode, Mode::All) || !split {
            return;
        }
        match &mut self.mode {
            Mode::All => unreachable!(),
            Mode::Probe(top) => top.leave(),
            Mode::Shard(w) => match w.inside {
                Some(d) if d == self.depth => {
                    w.inside = None;
                    let k = w.next - 1;
                    self.close(2 * k + 1, stats);
                }
                Some(_) => {}
                None => {
                    w.path.pop();
                }
            },
        }
        self.depth -= 1;
    }

    /// A maximal execution is reached: whether this run counts it.
    #[inline]
    pub fn counts_leaf(&mut self) -> bool {
        match &mut self.mode {
            Mode::All => true,
            Mode::Probe(top) => {
                top.dive.leaf();
                false
            }
            Mode::Shard(w) => w.inside.is_some() || w.split.index == 0,
        }
    }

    /// Ends segment `ordinal`: records what was counted and found since the last
    /// boundary.
    fn close(&mut self, ordinal: u64, stats: &Stats) {
        let now = Counters::of(stats);
        let counters = now.since(&self.mark);
        let errors: Vec<usize> = (self.mark_errors..stats.errors.len()).collect();
        if !counters.is_zero() || !errors.is_empty() {
            self.segments.push(Segment {
                ordinal,
                counters,
                errors,
            });
        }
        self.mark = now;
        self.mark_errors = stats.errors.len();
    }

    /// After the exploration: closes the segment the run ended in (the last top
    /// segment, or the node it stopped in).
    pub(crate) fn finish(&mut self, stats: &Stats) {
        if let Mode::Shard(w) = &self.mode {
            let ordinal = match w.inside {
                Some(_) => 2 * (w.next - 1) + 1,
                None => 2 * w.next,
            };
            self.close(ordinal, stats);
        }
    }
}

/// Walks the top of the tree within `reach`, copying what `prev` saw whole and probing
/// below the nodes it stops at as `dive` says (collecting every error and without the
/// execution count, so that every shard walks the same). The run's time, memory and
/// execution-size limits apply: the walk's statistics say whether one stopped it.
fn probe<P: Program>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    reach: Reach,
    prev: Option<Prev>,
    dive: Dive,
) -> (Top, Stats) {
    let cfg = Config {
        keep_going: true,
        max_executions: None,
        progress: None,
        ..cfg.clone()
    };
    let top = Top {
        nodes: vec![TopNode {
            depth: 0,
            children: Vec::new(),
            cut: false,
            est: None,
        }],
        path: vec![Step {
            node: 0,
            old: prev.as_ref().map(|_| 0),
            disc: 0,
            offered: 0,
        }],
        reach,
        depth_cut: false,
        walked: 0,
        prev,
        dive,
    };
    let (stats, filter) =
        optimal::explore_filtered(prog, model, &cfg, Filter::new(Mode::Probe(top)));
    match filter.mode {
        Mode::Probe(top) => (top, stats),
        _ => unreachable!(),
    }
}

/// The pre-pass's node budget for `count` shards: [`PROBE_NODES_PER_SHARD`]`·count`,
/// at most [`PROBE_NODES_MAX`].
pub fn budget(count: u32) -> u64 {
    (PROBE_NODES_PER_SHARD * u64::from(count)).min(PROBE_NODES_MAX)
}

/// The pre-pass: walks the top of the tree within a growing `Reach` (each walk
/// enters only what the previous one did not see whole) while some node lies beyond
/// the reach and the walks, the next one included, enter at most half of `budget`
/// nodes in all; then walks the last reach once more, probing below each node it stops
/// at ([`PROBES_PER_NODE`] probes, while the rest of the budget lasts), and cuts that
/// walk into the plan for `count` shards (see the module docs). `Err`: a limit
/// stopped a walk (the walk's statistics say which); there is no plan then.
pub fn plan<P: Program>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    count: u32,
    budget: u64,
) -> Result<Plan, Box<Stats>> {
    let walks = (budget / 2).max(1);
    let mut reach = Reach { k: 0, d: 1 };
    let walk = |reach, prev, dive| match probe(prog, model, cfg, reach, prev, dive) {
        (_, stats) if stats.stopped_by.is_some() => Err(Box::new(stats)),
        (top, _) => Ok(top),
    };
    let mut best = walk(reach, None, Dive::none())?;
    let mut spent = best.walked;
    for _ in 0..MAX_WALKS {
        if !best.nodes.iter().any(|n| n.cut) {
            break;
        }
        let next = reach.next(best.depth_cut);
        let prev = Prev::of(best);
        let cost = prev.next_cost();
        if spent + cost > walks {
            // The walk enters the open nodes again and probes below the stopped ones.
            let cuts = prev.nodes.iter().filter(|n| n.cut).count() as u64;
            let rewalk = cost.saturating_sub(cuts);
            let probes = budget.saturating_sub(spent + rewalk).max(budget / 4).max(1);
            let dive = Dive::new(PROBES_PER_NODE, probes, cuts);
            best = walk(reach, Some(prev), dive)?;
            spent += best.walked + best.dive.entered;
            break;
        }
        best = walk(next, Some(prev), Dive::none())?;
        reach = next;
        spent += best.walked;
    }
    let mut p = Plan::cut(&best, count);
    p.probe_nodes = spent;
    Ok(p)
}

/// Explores shard `split` of `prog` (see the module docs), on a thread with a large
/// stack. Call [`supported`] first.
pub fn explore_shard<P: Program + Sync>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    split: Split,
) -> ShardRun {
    explore_shard_with(prog, model, cfg, split, budget(split.count))
}

/// [`explore_shard`] with the pre-pass's node budget `budget` instead of
/// [`budget`]`(N)` (every shard of one run must use the same).
pub fn explore_shard_with<P: Program + Sync>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    split: Split,
    budget: u64,
) -> ShardRun {
    crate::on_large_stack(|| run_shard(prog, model, cfg, split, budget))
}

fn run_shard<P: Program>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    split: Split,
    budget: u64,
) -> ShardRun {
    let start = Instant::now();
    // The time limit counts from the same instant in the pre-pass's walks and after.
    let cfg = &Config {
        clock_start: Some(cfg.clock_start.unwrap_or(start)),
        ..cfg.clone()
    };
    let plan = match plan(prog, model, cfg, split.count, budget) {
        Ok(p) => p,
        Err(stats) => {
            // A limit stopped the pre-pass: this shard explored nothing it owns.
            let mut stats = *stats;
            stats.elapsed = start.elapsed();
            stats.errors.clear();
            return ShardRun {
                split,
                stats,
                depth: 0,
                frontier: 0,
                plan: Plan::default(),
                probe_stopped: true,
                probe: start.elapsed(),
                segments: Vec::new(),
            };
        }
    };
    let probe = start.elapsed();
    let walk = Walk {
        split,
        holds: plan.holds(split.index),
        plan: plan.clone(),
        path: vec![(0, 0)],
        next: 0,
        inside: None,
    };
    if let Some(p) = &cfg.progress {
        // The filter skips subtrees the tree weights count.
        p.disable_estimate();
    }
    let (mut stats, filter) =
        optimal::explore_filtered(prog, model, cfg, Filter::new(Mode::Shard(walk)));
    stats.elapsed = start.elapsed();
    ShardRun {
        split,
        stats,
        depth: plan.depth(),
        frontier: plan.frontier(),
        plan,
        probe_stopped: false,
        probe,
        segments: filter.segments,
    }
}

/// One shard's record, as [`merge`] needs it: `E` is an error as the caller keeps it,
/// with its identity `key` (equal keys: the same error, [`crate::ErrorReport::key`]).
#[derive(Clone, Debug)]
pub struct Part<E> {
    pub index: u32,
    pub segments: Vec<PartSegment<E>>,
    pub stopped_by: Option<StopReason>,
}

#[derive(Clone, Debug)]
pub struct PartSegment<E> {
    pub ordinal: u64,
    pub counters: Counters,
    pub errors: Vec<(String, E)>,
}

/// The result of [`merge`]: the unsharded run's counts and errors (first error first).
#[derive(Clone, Debug)]
pub struct Merged<E> {
    pub counters: Counters,
    pub errors: Vec<E>,
    pub stopped_by: Option<StopReason>,
}

/// Adds up the shards' records (one per shard, any order). Without `keep_going` the
/// result stops at the first error in depth-first order, with the counts the unsharded
/// run had when it found it; with it, every error (first occurrence of each key, in
/// depth-first order) and the full counts. If a limit stopped some shard, the result
/// is partial (`stopped_by`): counts are then lower bounds.
pub fn merge<E: Clone>(parts: &[Part<E>], keep_going: bool) -> Merged<E> {
    let mut segs: Vec<&PartSegment<E>> = parts
        .iter()
        .flat_map(|p| {
            p.segments
                .iter()
                .filter(move |s| authoritative(s.ordinal, p.index))
        })
        .collect();
    segs.sort_by_key(|s| s.ordinal);
    let mut counters = Counters::default();
    let mut errors: Vec<E> = Vec::new();
    let mut keys: Vec<&str> = Vec::new();
    for s in segs {
        counters.add(&s.counters);
        for (k, e) in &s.errors {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
                errors.push(e.clone());
            }
        }
        if !keep_going && !errors.is_empty() {
            errors.truncate(1);
            break;
        }
    }
    let stopped_by = parts.iter().find_map(|p| p.stopped_by);
    Merged {
        counters,
        errors,
        stopped_by,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_parses_and_rejects() {
        assert_eq!("1/3".parse(), Ok(Split { index: 1, count: 3 }));
        assert!("3/3".parse::<Split>().is_err());
        assert!("0/0".parse::<Split>().is_err());
        assert!("1".parse::<Split>().is_err());
        assert!("a/2".parse::<Split>().is_err());
    }

    fn seg(ordinal: u64, complete: u64, errors: &[&str]) -> PartSegment<String> {
        PartSegment {
            ordinal,
            counters: Counters {
                complete,
                ..Counters::default()
            },
            errors: errors
                .iter()
                .map(|e| (e.to_string(), format!("{e}@{ordinal}")))
                .collect(),
        }
    }

    #[test]
    fn merge_stops_at_the_first_error_by_ordinal() {
        // Shard 0 owns nodes 0, 2 (ordinals 1, 5) and the top (even ordinals); shard 1
        // owns node 1 (ordinal 3), where the first error is, after 2 executions in it.
        let p0 = Part {
            index: 0,
            segments: vec![seg(0, 1, &[]), seg(1, 10, &[]), seg(5, 7, &["b"])],
            stopped_by: None,
        };
        let p1 = Part {
            index: 1,
            // Shard 1's top records (ordinal 4) are ignored.
            segments: vec![seg(3, 2, &["a"]), seg(4, 100, &["c"])],
            stopped_by: None,
        };
        let m = merge(&[p1.clone(), p0.clone()], false);
        assert_eq!(m.counters.complete, 1 + 10 + 2);
        assert_eq!(m.errors, vec!["a@3".to_string()]);
        let m = merge(&[p0, p1], true);
        assert_eq!(m.counters.complete, 20);
        assert_eq!(m.errors, vec!["a@3".to_string(), "b@5".to_string()]);
    }

    #[test]
    fn merge_keeps_the_first_occurrence_of_a_key() {
        let p0 = Part {
            index: 0,
            segments: vec![seg(2, 0, &["x", "y"]), seg(5, 0, &["x"])],
            stopped_by: None,
        };
        let p1 = Part {
            index: 1,
            segments: vec![seg(1, 0, &["y"])],
            stopped_by: None,
        };
        let m = merge(&[p0, p1], true);
        assert_eq!(m.errors, vec!["y@1".to_string(), "x@2".to_string()]);
    }

    #[test]
    fn reach_grows_in_depth_then_in_discrepancies() {
        let r = Reach { k: 1, d: 4 };
        assert!(r.enters(0, 1000), "fewer discrepancies: any depth");
        assert!(r.enters(1, 4) && !r.enters(1, 5) && !r.enters(2, 1));
        assert_eq!(r.next(true), Reach { k: 1, d: 8 });
        assert_eq!(r.next(false), Reach { k: 2, d: 1 });
    }

    /// Drives `dive` over a tree given as, per node in preorder, its number of
    /// children (all offered, in order), the explorer's way; returns the estimate.
    fn probe_tree(dive: &mut Dive, tree: &[u32]) -> f64 {
        fn walk(dive: &mut Dive, tree: &[u32], x: &mut usize) {
            let n = tree[*x];
            if n == 0 {
                dive.leaf();
                return;
            }
            for i in 0..n {
                *x += 1;
                let start = *x;
                if dive.enter(Child { i, n }) {
                    walk(dive, tree, x);
                    assert!(dive.leave().is_none());
                } else {
                    // Skip the child's subtree.
                    let mut open = 1;
                    while open > 0 {
                        open += tree[*x] as i64 - 1;
                        if open > 0 {
                            *x += 1;
                        }
                    }
                }
                debug_assert!(*x >= start);
            }
        }
        assert!(dive.start(0));
        let mut x = 0;
        walk(dive, tree, &mut x);
        let (node, est) = dive.leave().expect("probes done");
        assert_eq!(node, 0);
        est
    }

    #[test]
    fn probes_are_exact_on_uniform_trees_and_average_right() {
        // A complete binary tree of depth 3: every probe sees 2·2·2.
        let binary3 = [2, 2, 2, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0, 0];
        let mut d = Dive::new(4, 1000, 1);
        assert_eq!(probe_tree(&mut d, &binary3), 8.0);
        assert!(d.entered > 0 && d.entered <= 4 * 3);
        // A comb: the root's first child is a leaf, the second a binary node; Knuth's
        // estimate is 2·1 or 2·2, 3 on average over many probes.
        let comb = [2, 0, 2, 0, 0];
        let mut sum = 0.0;
        for seed in 0..2000u64 {
            let mut d = Dive::new(1, 100, 1);
            d.rng = SplitMix64(seed);
            sum += probe_tree(&mut d, &comb);
        }
        let mean = sum / 2000.0;
        assert!((mean - 3.0).abs() < 0.1, "mean {mean}");
        // Candidates the explorer does not offer: the root has 4 candidates of which
        // only 1 and 3 are offered, each a leaf; every probe sees 2 leaves exactly.
        let mut d = Dive::new(4, 100, 1);
        assert!(d.start(0));
        for i in [1, 3] {
            if d.enter(Child { i, n: 4 }) {
                d.leaf();
                assert!(d.leave().is_none());
            }
        }
        assert_eq!(d.leave(), Some((0, 2.0)));
        // No budget: nothing is probed.
        assert!(!Dive::new(4, 0, 1).start(0));
    }

    #[test]
    fn counters_add_and_subtract() {
        let l = SrcLoc {
            file: 0,
            line: 3,
            col: 1,
        };
        let a = Counters {
            complete: 5,
            blocked: 2,
            spin_blocked: vec![(l, 2)],
            spin_forever: vec![(
                SpinForever {
                    tid: 1,
                    src: l,
                    main_finished: false,
                },
                1,
            )],
            hung: 1,
            ..Counters::default()
        };
        let mut b = a.clone();
        b.add(&a);
        assert_eq!(b.since(&a), a);
        assert_eq!(b.executions(), 14);
    }
}
