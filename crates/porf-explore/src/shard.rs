//! Sharding one exploration across processes (`porf verify --shard i/N`, `porf merge`).
//!
//! With TruSt's maximality rule the optimal explorer's search tree has independent
//! subtrees: a branch (a read's source, a write's co place, a backward revisit, the
//! continuation after a write's revisits, a `choose` value) is explored from a copy or
//! a truncation of its parent's state, and what one subtree does never changes what
//! another one does. The exploration is a deterministic depth-first walk.
//!
//! **Split.** The *depth* of a node is the number of real branches (points with at
//! least two children) on its path from the root. A cheap pre-pass ([`probe`]) walks
//! only the top of the tree to find the split depth `D`: the smallest depth with at
//! least [`NODES_PER_SHARD`]`·N` nodes (or, if the tree is shallower, the depth with
//! the most nodes; `D = 0` when the tree has no branch at all). The nodes at depth `D`
//! (the *frontier*) are numbered `k = 0, 1, …` in depth-first order. Shard `i` of `N`
//! walks the whole top of the tree and explores frontier node `k` iff [`owner`]`(k, N)
//! == i`; it skips the others.
//!
//! **Segments.** The depth-first order of the run cut at the frontier nodes gives
//! *segments* numbered by an ordinal: `2k` is the part of the top walked after frontier
//! node `k-1` and before node `k` (after the last node: `2K`), `2k+1` is the inside of
//! node `k`. Every leaf and every error of the unsharded run lies in exactly one
//! segment. An inside segment is explored by its owner only; top segments are walked
//! by every shard, but only shard 0 counts their leaves and its records of them are the
//! authoritative ones (the other shards' top records are ignored by [`merge`]).
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
use crate::{Config, Stats, StopReason, Strategy};
use porf_graph::{Program, SrcLoc};
use porf_models::MemoryModel;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The pre-pass looks for a depth with at least this many nodes per shard: the more
/// subtrees per shard, the closer each shard's share is to `1/N` of the work.
pub const NODES_PER_SHARD: u64 = 32;

/// The deepest split depth the pre-pass tries.
const MAX_DEPTH: u32 = 256;

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

/// Which shard explores frontier node `k`: round robin.
pub fn owner(k: u64, count: u32) -> u32 {
    (k % u64::from(count)) as u32
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
    pub erroneous: u64,
    /// Blocked executions per spin loop ([`Stats::spin_blocked`]), in no order.
    pub spin_blocked: Vec<(SrcLoc, u64)>,
}

impl Counters {
    fn of(s: &Stats) -> Counters {
        Counters {
            complete: s.complete,
            blocked: s.blocked,
            bound_cut: s.bound_cut,
            erroneous: s.erroneous,
            spin_blocked: s.spin_blocked.iter().map(|(l, n)| (*l, *n)).collect(),
        }
    }

    /// `self - before` (counters only grow).
    fn since(&self, before: &Counters) -> Counters {
        let old: HashMap<SrcLoc, u64> = before.spin_blocked.iter().copied().collect();
        Counters {
            complete: self.complete - before.complete,
            blocked: self.blocked - before.blocked,
            bound_cut: self.bound_cut - before.bound_cut,
            erroneous: self.erroneous - before.erroneous,
            spin_blocked: self
                .spin_blocked
                .iter()
                .map(|(l, n)| (*l, n - old.get(l).copied().unwrap_or(0)))
                .filter(|(_, n)| *n > 0)
                .collect(),
        }
    }

    pub fn is_zero(&self) -> bool {
        self.complete == 0
            && self.blocked == 0
            && self.bound_cut == 0
            && self.erroneous == 0
            && self.spin_blocked.is_empty()
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
        self.erroneous += o.erroneous;
        for (l, n) in &o.spin_blocked {
            match self.spin_blocked.iter_mut().find(|(m, _)| m == l) {
                Some((_, k)) => *k += n,
                None => self.spin_blocked.push((*l, *n)),
            }
        }
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
    /// The split depth `D` and the number of frontier nodes `K` at it.
    pub depth: u32,
    pub frontier: u64,
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

/// What the optimal explorer asks at every branch. `All` lets everything through at
/// the cost of one comparison.
#[derive(Debug)]
enum Mode {
    All,
    /// Count the nodes at depth `cutoff` and explore nothing below them.
    Probe {
        cutoff: u32,
        nodes: u64,
    },
    Shard {
        split: Split,
        depth: u32,
    },
}

/// The optimal explorer's branch filter (see the module docs). Contract: the explorer
/// calls [`Filter::enter`] before exploring a child of a branch point (`split`: the
/// point has at least two children) and skips the child if it returns false; after
/// exploring it, it calls [`Filter::leave`] with the same `split`. It counts a maximal
/// execution only if [`Filter::counts_leaf`].
#[derive(Debug)]
pub struct Filter {
    mode: Mode,
    /// Real branches on the current path.
    depth: u32,
    /// Frontier nodes met so far.
    frontier: u64,
    /// Inside an owned frontier node.
    inside: bool,
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
            frontier: 0,
            inside: false,
            mark: Counters::default(),
            mark_errors: 0,
            segments: Vec::new(),
        }
    }

    /// The filter of an unsharded run: everything is explored.
    pub fn all() -> Filter {
        Filter::new(Mode::All)
    }

    /// Whether to explore the child of a branch point about to be entered.
    #[inline]
    pub fn enter(&mut self, split: bool, stats: &Stats) -> bool {
        if matches!(self.mode, Mode::All) || !split {
            return true;
        }
        let d = self.depth + 1;
        match &mut self.mode {
            Mode::All => unreachable!(),
            Mode::Probe { cutoff, nodes } => {
                if d == *cutoff {
                    *nodes += 1;
                    return false;
                }
            }
            Mode::Shard { split: sh, depth } => {
                if d == *depth {
                    let k = self.frontier;
                    let sh = *sh;
                    self.frontier += 1;
                    // The top segment before node k ends here.
                    self.close(2 * k, stats);
                    if owner(k, sh.count) != sh.index {
                        return false;
                    }
                    self.inside = true;
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
        if let Mode::Shard { depth, .. } = self.mode {
            if self.depth == depth {
                let k = self.frontier - 1;
                self.close(2 * k + 1, stats);
                self.inside = false;
            }
        }
        self.depth -= 1;
    }

    /// Whether a maximal execution reached now is counted by this run.
    #[inline]
    pub fn counts_leaf(&self) -> bool {
        match &self.mode {
            Mode::All => true,
            Mode::Probe { .. } => false,
            Mode::Shard { split, .. } => self.inside || split.index == 0,
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
        if let Mode::Shard { .. } = self.mode {
            let ordinal = if self.inside {
                2 * (self.frontier - 1) + 1
            } else {
                2 * self.frontier
            };
            self.close(ordinal, stats);
        }
    }
}

/// The number of nodes at depth `cutoff` (walking only the top of the tree, without
/// limits and collecting every error, so that every shard finds the same number).
pub fn probe<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config, cutoff: u32) -> u64 {
    let cfg = Config {
        keep_going: true,
        timeout: None,
        max_executions: None,
        ..cfg.clone()
    };
    let filter = Filter::new(Mode::Probe { cutoff, nodes: 0 });
    match optimal::explore_filtered(prog, model, &cfg, filter).1.mode {
        Mode::Probe { nodes, .. } => nodes,
        _ => unreachable!(),
    }
}

/// The split depth for `count` shards and the number of frontier nodes there (see the
/// module docs).
pub fn split_depth<P: Program>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    count: u32,
) -> (u32, u64) {
    let target = NODES_PER_SHARD * u64::from(count);
    let mut best = (0, 0);
    for d in 1..=MAX_DEPTH {
        let n = probe(prog, model, cfg, d);
        if n == 0 {
            break;
        }
        if n > best.1 {
            best = (d, n);
        }
        if n >= target {
            break;
        }
    }
    best
}

/// Explores shard `split` of `prog` (see the module docs), on a thread with a large
/// stack. Call [`supported`] first.
pub fn explore_shard<P: Program + Sync>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    split: Split,
) -> ShardRun {
    const STACK: usize = 1 << 30;
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("porf-explore".into())
            .stack_size(STACK)
            .spawn_scoped(s, || run_shard(prog, model, cfg, split))
            .expect("cannot start the exploration thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

fn run_shard<P: Program>(
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    split: Split,
) -> ShardRun {
    let start = Instant::now();
    let (depth, frontier) = split_depth(prog, model, cfg, split.count);
    let probe = start.elapsed();
    let filter = Filter::new(Mode::Shard { split, depth });
    if let Some(p) = &cfg.progress {
        // The filter skips subtrees the tree weights count.
        p.disable_estimate();
    }
    let (mut stats, filter) = optimal::explore_filtered(prog, model, cfg, filter);
    stats.elapsed = start.elapsed();
    ShardRun {
        split,
        stats,
        depth,
        frontier,
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
            ..Counters::default()
        };
        let mut b = a.clone();
        b.add(&a);
        assert_eq!(b.since(&a), a);
        assert_eq!(b.executions(), 14);
    }
}
