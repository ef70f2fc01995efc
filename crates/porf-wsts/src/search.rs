//! Backward reachability (Lahav and Boker, §8; the WSTS coverability algorithm):
//! start from a basis of the bad states, repeatedly add finite bases of predecessor
//! sets, keep only ⊑-minimal elements (an antichain), and stop when an element covers
//! an initial state (reachable) or nothing new is found (the fixpoint: unreachable).
//!
//! Termination rests on ⊑ being a well-quasi-order (Higman's and Dickson's lemmas),
//! so the fixpoint exists but may be large: [`Limits`] bound the search, and a
//! stopped search answers [`Outcome::Unknown`].
//!
//! Initial states: loSRA starts with `{ε}` for every thread, so an element covers an
//! initial state iff all its lists are empty; loWRA starts with lists of write
//! options only (Def. 6.5), so an element covers one iff it has no read option. In
//! both, every thread must be at its initial local state (or be a wildcard).

use crate::gate;
use crate::node::{Node, WILD};
use crate::option;
use crate::potential::Potential;
use crate::pred::{self, Alphabet};
use crate::prune::prune;
use crate::system::{Label, Model, System};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::{Duration, Instant};

/// Bounds on the search.
pub struct Limits<'a> {
    /// The most elements the antichain may hold.
    pub max_basis: usize,
    pub deadline: Option<Instant>,
    /// Called now and then with the search's state.
    pub progress: Option<&'a mut dyn FnMut(&Progress)>,
}

impl Default for Limits<'_> {
    fn default() -> Self {
        Limits {
            max_basis: 2_000_000,
            deadline: None,
            progress: None,
        }
    }
}

/// A snapshot for progress reports.
#[derive(Clone, Debug)]
pub struct Progress {
    pub iterations: u64,
    pub basis: usize,
    pub pending: usize,
    pub elapsed: Duration,
}

/// One step of a witness run: thread `thread` moves from local state `from` to `to`
/// performing `label`; for reads, the thread whose write the read option names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessStep {
    pub thread: usize,
    pub from: u32,
    pub to: u32,
    pub label: Label,
    pub writer: Option<u8>,
}

/// A run from the initial state to a bad state, in order.
#[derive(Clone, Debug, Default)]
pub struct Witness {
    pub steps: Vec<WitnessStep>,
}

#[derive(Clone, Debug)]
pub enum Outcome {
    Reachable {
        witness: Witness,
        iterations: u64,
        basis: usize,
    },
    Unreachable {
        /// Elements of the final antichain.
        basis: usize,
        /// Elements taken from the work list.
        iterations: u64,
        /// The most options in one element.
        max_size: usize,
    },
    Unknown {
        reason: String,
        iterations: u64,
        basis: usize,
    },
}

struct Entry {
    node: Node,
    alive: bool,
    /// The element this one steps to, and the step (forward direction).
    next: Option<(usize, WitnessStep)>,
}

struct Search<'s> {
    sys: &'s System,
    model: Model,
    ab: Alphabet,
    /// `rev[t][s']`: the transitions of thread `t` into `s'`, as `(s, label)`.
    rev: Vec<Vec<Vec<(u32, Label)>>>,
    /// `writes[t][s]`: the (location, value) pairs thread `t` writes on some path from
    /// its initial state to `s`; `writes[t][len]`: all it may write at all.
    writes: Vec<Vec<Vec<bool>>>,
    entries: Vec<Entry>,
    by_prog: HashMap<Vec<u32>, Vec<usize>>,
    /// The work list, best first: elements closer to an initial state (threads near
    /// their initial states, few read options) are expanded first, so a witness is
    /// found early; the fixpoint does not depend on the order.
    queue: BinaryHeap<(Reverse<usize>, usize)>,
    /// `dist[t][s]`: the length of a shortest path from thread `t`'s initial state to `s`.
    dist: Vec<Vec<usize>>,
    alive: usize,
}

/// Decides whether some target of `sys` is reachable under `model`.
pub fn decide(sys: &System, model: Model, mut limits: Limits) -> Outcome {
    let start = Instant::now();
    let (mut sys, flag) = if sys.gate {
        let (s, f) = gate::encode(sys);
        (s, Some(f))
    } else {
        (sys.clone(), None)
    };
    prune(&mut sys);
    let rev = sys
        .threads
        .iter()
        .map(|th| {
            let mut r = vec![Vec::new(); th.len()];
            for (s, ts) in th.trans.iter().enumerate() {
                for &(l, t) in ts {
                    r[t as usize].push((s as u32, l));
                }
            }
            r
        })
        .collect();
    let ab = Alphabet::new(&sys, model);
    let writes = writes_before(&sys);
    let dist = distances(&sys);
    let mut search = Search {
        sys: &sys,
        writes,
        model,
        ab,
        rev,
        entries: Vec::new(),
        by_prog: HashMap::new(),
        queue: BinaryHeap::new(),
        dist,
        alive: 0,
    };
    let n = sys.threads.len();
    for t in &sys.targets {
        let node = Node {
            prog: t.iter().map(|s| s.unwrap_or(WILD)).collect(),
            mem: vec![Potential::empty(); n],
        };
        search.insert(node, None);
    }
    let mut iterations = 0u64;
    while let Some((_, i)) = search.queue.pop() {
        if !search.entries[i].alive {
            continue;
        }
        iterations += 1;
        if search.is_initial(&search.entries[i].node) {
            let w = search.witness(i);
            return Outcome::Reachable {
                witness: match flag {
                    Some(f) => gate::decode(w, f),
                    None => w,
                },
                iterations,
                basis: search.alive,
            };
        }
        if iterations.is_multiple_of(256) {
            if let Some(p) = limits.progress.as_mut() {
                p(&Progress {
                    iterations,
                    basis: search.alive,
                    pending: search.queue.len(),
                    elapsed: start.elapsed(),
                });
            }
            if limits.deadline.is_some_and(|d| Instant::now() >= d) {
                return Outcome::Unknown {
                    reason: "the time limit was reached".into(),
                    iterations,
                    basis: search.alive,
                };
            }
        }
        if search.alive > limits.max_basis {
            return Outcome::Unknown {
                reason: format!(
                    "the antichain grew past {} elements (--max-basis)",
                    limits.max_basis
                ),
                iterations,
                basis: search.alive,
            };
        }
        search.expand(i);
    }
    let max_size = search
        .entries
        .iter()
        .filter(|e| e.alive)
        .map(|e| e.node.size())
        .max()
        .unwrap_or(0);
    Outcome::Unreachable {
        basis: search.alive,
        iterations,
        max_size,
    }
}

impl Search<'_> {
    fn is_initial(&self, node: &Node) -> bool {
        let prog_ok = node
            .prog
            .iter()
            .zip(&self.sys.threads)
            .all(|(&s, th)| s == WILD || s == th.init);
        prog_ok
            && node.mem.iter().all(|p| match self.model {
                Model::Sra => p.is_empty(),
                Model::Wra => p.lists().iter().flatten().all(|&o| option::is_write(o)),
            })
    }

    /// Adds `node` unless an element below it is known; removes the elements above it
    /// with the same program state.
    fn insert(&mut self, node: Node, next: Option<(usize, WitnessStep)>) {
        if self.hopeless(&node) || self.covered(&node) {
            return;
        }
        if let Some(ids) = self.by_prog.get_mut(&node.prog) {
            ids.retain(|&j| self.entries[j].alive);
            for &j in ids.iter() {
                if node.below(&self.entries[j].node) {
                    self.entries[j].alive = false;
                    self.alive -= 1;
                }
            }
        }
        let id = self.entries.len();
        self.by_prog.entry(node.prog.clone()).or_default().push(id);
        self.entries.push(Entry {
            node,
            alive: true,
            next,
        });
        self.alive += 1;
        let h = self.heuristic(&self.entries[id].node);
        self.queue.push((Reverse(h), id));
    }

    /// How far `node` looks from an initial state: the threads' distances from their
    /// initial states plus the read options still to be removed.
    fn heuristic(&self, node: &Node) -> usize {
        let d: usize = node
            .prog
            .iter()
            .enumerate()
            .map(|(t, &s)| {
                if s == WILD {
                    0
                } else {
                    self.dist[t][s as usize]
                }
            })
            .sum();
        let reads = node
            .mem
            .iter()
            .flat_map(|p| p.lists().iter().flatten())
            .filter(|&&o| !option::is_write(o))
            .count();
        d + reads
    }

    /// Whether thread `w`, at its state in `prog`, has a write of `v` to `x` on some
    /// path from its initial state.
    fn can_still_write(&self, prog: &[u32], w: u8, x: u8, v: u8) -> bool {
        let w = usize::from(w);
        let at = match prog[w] {
            WILD => self.writes[w].len() - 1,
            s => s as usize,
        };
        self.writes[w][at][usize::from(x) * usize::from(self.sys.vals) + usize::from(v)]
    }

    /// Whether no initial state can reach `node`: a read option can only be removed,
    /// going backwards, by its writer's write of that value, so an option whose writer
    /// has no such write left on any path to its current state stays forever.
    fn hopeless(&self, node: &Node) -> bool {
        node.mem.iter().any(|p| {
            p.lists().iter().flatten().any(|&o| {
                !option::is_write(o)
                    && !self.can_still_write(
                        &node.prog,
                        option::tid(o),
                        option::loc(o),
                        option::val(o),
                    )
            })
        })
    }

    /// Whether a live element is ⊑ `node`: its program state equals `node`'s where it
    /// is not a wildcard.
    fn covered(&self, node: &Node) -> bool {
        let concrete: Vec<usize> = (0..node.prog.len())
            .filter(|&i| node.prog[i] != WILD)
            .collect();
        let mut key = node.prog.clone();
        for mask in 0u64..(1u64 << concrete.len()) {
            for (b, &i) in concrete.iter().enumerate() {
                key[i] = if mask >> b & 1 == 1 {
                    WILD
                } else {
                    node.prog[i]
                };
            }
            if let Some(ids) = self.by_prog.get(&key) {
                if ids
                    .iter()
                    .any(|&j| self.entries[j].alive && self.entries[j].node.below(node))
                {
                    return true;
                }
            }
        }
        false
    }

    /// Adds the predecessors of element `i` by every thread's every step.
    fn expand(&mut self, i: usize) {
        let node = self.entries[i].node.clone();
        for tau in 0..node.prog.len() {
            for (pre_prog, from, to, label) in self.program_preds(&node, tau) {
                let this: &Self = self;
                let viable = |x: u8, v: u8| {
                    let pre = &pre_prog;
                    move |w: u8| this.can_still_write(pre, w, x, v)
                };
                let mems: Vec<pred::Pred> = match label {
                    Label::Silent => vec![(node.mem.clone(), None)],
                    Label::Read { loc, val } => {
                        pred::read(&node.mem, &this.ab, tau, loc, val, &viable(loc, val))
                    }
                    Label::Write { loc, val } => {
                        pred::write(this.model, &node.mem, &this.ab, tau, loc, val)
                    }
                    Label::Rmw { loc, read, write } => pred::rmw(
                        this.model,
                        &node.mem,
                        &this.ab,
                        tau,
                        loc,
                        read,
                        write,
                        &viable(loc, read),
                    ),
                };
                for (mem, writer) in mems {
                    let step = WitnessStep {
                        thread: tau,
                        from,
                        to,
                        label,
                        writer,
                    };
                    self.insert(
                        Node {
                            prog: pre_prog.clone(),
                            mem,
                        },
                        Some((i, step)),
                    );
                }
            }
        }
    }

    /// The program-level predecessors of `node` by a step of `tau`: the predecessor
    /// program state, the step's source and target, and its label. Applies the
    /// initialisation gate: other threads wait for thread 0 to finish.
    fn program_preds(&self, node: &Node, tau: usize) -> Vec<(Vec<u32>, u32, u32, Label)> {
        let sys = self.sys;
        let mut out = Vec::new();
        let bases = [node.prog.clone()];
        let th = &sys.threads[tau];
        for base in bases {
            let to = base[tau];
            if to == WILD {
                for (s, ts) in th.trans.iter().enumerate() {
                    let mut seen: Vec<Label> = Vec::new();
                    for &(l, t) in ts {
                        if !seen.contains(&l) {
                            seen.push(l);
                            let mut p = base.clone();
                            p[tau] = s as u32;
                            out.push((p, s as u32, t, l));
                        }
                    }
                }
            } else {
                for &(s, l) in &self.rev[tau][to as usize] {
                    let mut p = base.clone();
                    p[tau] = s;
                    out.push((p, s, to, l));
                }
            }
        }
        out
    }

    fn witness(&self, mut i: usize) -> Witness {
        let mut steps = Vec::new();
        while let Some((j, step)) = &self.entries[i].next {
            steps.push(step.clone());
            i = *j;
        }
        Witness { steps }
    }
}

/// `writes[t][s][x * vals + v]`: whether thread `t` writes `v` to `x` on some path from
/// its initial state to `s`; the extra last row is every pair the thread writes.
fn writes_before(sys: &System) -> Vec<Vec<Vec<bool>>> {
    let nv = usize::from(sys.vals);
    let width = usize::from(sys.locs) * nv;
    sys.threads
        .iter()
        .map(|th| {
            let mut w = vec![vec![false; width]; th.len() + 1];
            let mut changed = true;
            while changed {
                changed = false;
                for s in 0..th.len() {
                    for &(l, t) in &th.trans[s] {
                        let own = match l {
                            Label::Write { loc, val } => Some((loc, val)),
                            Label::Rmw { loc, write, .. } => Some((loc, write)),
                            _ => None,
                        };
                        let t = t as usize;
                        let own = own.map(|(x, v)| usize::from(x) * nv + usize::from(v));
                        let add: Vec<usize> = (0..width)
                            .filter(|&k| (w[s][k] || own == Some(k)) && !w[t][k])
                            .collect();
                        for k in add {
                            w[t][k] = true;
                            changed = true;
                        }
                    }
                }
            }
            let all: Vec<bool> = (0..width).map(|k| (0..th.len()).any(|s| w[s][k])).collect();
            w[th.len()] = all;
            w
        })
        .collect()
}

/// Shortest distances from each thread's initial state (unreachable: `usize::MAX / 4`).
fn distances(sys: &System) -> Vec<Vec<usize>> {
    sys.threads
        .iter()
        .map(|th| {
            let mut d = vec![usize::MAX / 4; th.len()];
            let mut q = std::collections::VecDeque::from([th.init as usize]);
            d[th.init as usize] = 0;
            while let Some(s) = q.pop_front() {
                for &(_, t) in &th.trans[s] {
                    if d[t as usize] > d[s] + 1 {
                        d[t as usize] = d[s] + 1;
                        q.push_back(t as usize);
                    }
                }
            }
            d
        })
        .collect()
}
