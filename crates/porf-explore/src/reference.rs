//! The brute-force reference explorer: sequences of thread steps, with every rf choice
//! for a read and every co position for a write; graphs the model's *declarative*
//! check rejects are dropped (the models are prefix-closed, so no consistent execution
//! is lost), and maximal graphs are deduplicated by their events, rf and co, so each
//! maximal consistent graph is classified once.
//!
//! Sequences that differ only in the order of commuting steps build the same graph,
//! so the sequences are pruned with dynamic partial-order reduction (Flanagan and
//! Godefroid 2005) and sleep sets: a node explores a second thread only when some
//! explored sequence showed that thread's step racing with an earlier dependent step.
//! Partial graphs are cached: a graph reached again is not re-explored (only threads
//! asleep the first time but awake now are), and the steps recorded below it stand in
//! for the races its subtree would have reported ([`Cached`]). This needs nothing of
//! the algorithm of [`crate::optimal`] (no revisits, no maximality): it is the ground
//! truth the optimal explorer is tested against.
//!
//! **Atomic sections** (SV-COMP's `__VERIFIER_atomic_*`, programs whose
//! [`Program::atomic_sections`] is true; `sc` and co mode only, see
//! [`crate::supported_sections`]): no other thread's event may come between a
//! section's first and last event. Such programs run as interleavings under SC's
//! operational semantics: every read reads the co-latest write and every write is
//! placed co-latest, so a path's order of steps is a linearisation of its graph
//! (po ∪ rf ∪ co ∪ fr agree with it), and while a thread is inside a section it has
//! started ([`porf_graph::ThreadMachine::in_atomic_section`]) only it may step; if it
//! ends there (a failed assume, an error), no one else steps. Every path's graph is
//! then an execution of the program with atomic sections (its path is the witness
//! interleaving), and every execution is the graph of the path that steps its events
//! in a witness interleaving's order; a thread blocked inside a section ends its
//! execution, as a failed assume cuts an SV-COMP path. Partial-order reduction is off
//! (every enabled thread is explored at every node), because the exclusion makes
//! steps that touch different locations no longer commute; a partial graph reached
//! again is not re-explored, since with these choices the graph (events, rf, co)
//! determines the threads' states and the memory, hence the whole subtree.

use crate::coherence::Coherence;
use crate::key::execution_key;
use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::step::{self, Access, AfterRead, Step};
use crate::{Config, Stats};
use porf_graph::{Action, LabelKind, Loc, Program, ThreadMachine, Tid};
use porf_models::{lifetime, race, MemoryModel};
use std::collections::{HashMap, HashSet};

pub fn explore<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let mut ex = Reference {
        prog,
        model,
        co: Coherence::new(model, cfg.equiv),
        rec: Recorder::new(cfg, model),
        tids: TidRegistry::default(),
        path: Vec::new(),
        nodes: Vec::new(),
        seen: HashSet::new(),
        cache: HashMap::new(),
        child_summary: HashSet::new(),
        sections: prog.atomic_sections(),
    };
    let mut st = State::new(prog, model);
    ex.nodes.push(Node::default());
    ex.dfs(&mut st);
    let stats = ex.rec.finish();
    if stats.partial() {
        // The caches of a long run hold hundreds of MB whose freeing would delay the
        // answer past the limit: free them off the caller's path.
        let caches = (ex.seen, ex.cache);
        let _ = std::thread::Builder::new()
            .name("porf-free".into())
            .spawn(move || drop(caches));
    }
    stats
}

/// What a step touches, for deciding whether two steps of different threads commute.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
enum Footprint {
    /// No shared state (fences, blocks, errors).
    Local,
    /// A read (`write == false`) or a write / RMW / lock operation of `loc`.
    Access { loc: Loc, write: bool },
    /// Starts thread `child`, which enables all of the child's steps.
    Spawn(Tid),
    /// Waits for thread `child` to finish.
    Join(Tid),
    /// Ends the thread (enables joins of it).
    Finish,
}

/// The footprint of `a`, a step of a thread (a spawn's child is filled in once known).
fn footprint(a: &Action) -> Footprint {
    match *a {
        Action::Load { loc, .. } => Footprint::Access { loc, write: false },
        Action::Store { loc, .. }
        | Action::Rmw { loc, .. }
        | Action::Lock { loc, .. }
        | Action::TryLock { loc, .. }
        | Action::Unlock { loc, .. }
        | Action::MutexInit { loc, .. }
        | Action::MutexDestroy { loc, .. } => Footprint::Access { loc, write: true },
        Action::Join { tid, .. } => Footprint::Join(tid),
        Action::Finish { .. } => Footprint::Finish,
        // A malloc or free adds an event whatever the order, and the lifetime errors
        // it takes part in depend only on hb: it commutes with every other thread. So
        // does a block-size query, whose answer depends only on hb-before events.
        Action::Spawn { .. }
        | Action::Malloc { .. }
        | Action::Free { .. }
        | Action::Retire { .. }
        | Action::Note { .. }
        | Action::BlockSize { .. }
        | Action::Fence { .. }
        | Action::Choose { .. }
        | Action::Block { .. }
        | Action::Error { .. } => Footprint::Local,
    }
}

/// Whether step `a` of thread `t` and step `b` of thread `u` are dependent: the same
/// thread; accesses of one location unless both are reads (a read can only read from
/// writes already present, and a write's co position is chosen among the writes
/// already present); a spawn and any step of its child; a finish and a join of that
/// thread. Everything else commutes: either order yields the same graphs, and every
/// constraint on the order of adding events (po, rf, spawn, join) is a dependency.
fn dependent(t: Tid, a: Footprint, u: Tid, b: Footprint) -> bool {
    if t == u {
        return true;
    }
    match (a, b) {
        (Footprint::Access { loc: l1, write: w1 }, Footprint::Access { loc: l2, write: w2 }) => {
            l1 == l2 && (w1 || w2)
        }
        (Footprint::Spawn(c), _) => c == u,
        (_, Footprint::Spawn(c)) => c == t,
        (Footprint::Join(c), Footprint::Finish) => c == u,
        (Footprint::Finish, Footprint::Join(c)) => c == t,
        _ => false,
    }
}

/// A step on the current path, with its happens-before clock: `clock[q]` is one more
/// than the index of the last step of thread `q` that happens before this step (the
/// transitive closure of "earlier and dependent"), 0 if none.
struct PathStep {
    tid: Tid,
    fp: Footprint,
    clock: Vec<u32>,
}

/// DPOR bookkeeping of the state before path step `i` (node `i`).
#[derive(Default)]
struct Node {
    /// Threads enabled here.
    enabled: Vec<Tid>,
    /// Threads that must be explored from here.
    backtrack: Vec<Tid>,
    /// Threads explored from here, with the footprint of their step (they join the
    /// sleep set of later siblings).
    done: Vec<(Tid, Footprint)>,
    /// Steps explored from an ancestor that commute with everything since.
    sleep: Vec<(Tid, Footprint)>,
    /// Every step explored from here or below (for cache hits, see [`Cached`]).
    summary: HashSet<(Tid, Footprint)>,
}

/// A fully explored state: the threads its sleep set held (so not explored from it),
/// and every step explored below it. When a later path reaches the same graph, the
/// state is not explored again (Godefroid's rule: only the threads asleep then but
/// awake now are); the summary stands in for the races the skipped subtree would have
/// reported against the new path, conservatively (every dependent step of another
/// thread not ordered before the summarised step's thread counts as a race).
struct Cached {
    sleep: Vec<Tid>,
    summary: HashSet<(Tid, Footprint)>,
}

struct Reference<'a, 'c, P: Program> {
    prog: &'a P,
    model: &'a dyn MemoryModel,
    co: Coherence<'a>,
    rec: Recorder<'c>,
    tids: TidRegistry,
    path: Vec<PathStep>,
    /// `nodes[i]` is the state before `path[i]`; the last node is the current state.
    nodes: Vec<Node>,
    /// Maximal graphs already classified.
    seen: HashSet<Vec<i64>>,
    /// Partial graphs already explored.
    cache: HashMap<Vec<i64>, Cached>,
    /// Steps explored below the children of the step being explored.
    child_summary: HashSet<(Tid, Footprint)>,
    /// The program has atomic sections: interleavings under SC's operational
    /// semantics, without partial-order reduction (module docs).
    sections: bool,
}

impl<P: Program> Reference<'_, '_, P> {
    /// Whether path step `i` happens before the last step of thread `p` on the path.
    /// (A thread with no step yet starts after its spawn.)
    fn happens_before_thread(&self, i: usize, p: Tid) -> bool {
        let last = self
            .path
            .iter()
            .rposition(|s| s.tid == p)
            .or_else(|| self.path.iter().rposition(|s| s.fp == Footprint::Spawn(p)));
        let Some(last) = last else {
            return false;
        };
        if last == i {
            return true;
        }
        let q = self.path[i].tid as usize;
        self.path[last]
            .clock
            .get(q)
            .is_some_and(|&c| c as usize > i)
    }

    /// DPOR: for the next step `fp` of thread `p`, the latest path step `i` of another
    /// thread it races with (dependent, could run in either order, not already
    /// ordered before `p`) marks the node before `i`, where the threads that can lead
    /// to `p`'s step running first must also be explored: `p` itself and every thread
    /// with a step after `i` that happens before `p`'s step (all of them, so that a
    /// sleeping one does not hide the others), or, if none can run there, every
    /// enabled thread (Flanagan and Godefroid 2005, Fig. 4).
    fn add_backtrack_points(&mut self, p: Tid, fp: Footprint) {
        let found = (0..self.path.len()).rev().find(|&i| {
            let s = &self.path[i];
            let never_coenabled = fp == Footprint::Join(s.tid) && s.fp == Footprint::Finish;
            s.tid != p
                && !never_coenabled
                && dependent(p, fp, s.tid, s.fp)
                && !self.happens_before_thread(i, p)
        });
        let Some(i) = found else { return };
        let before_next = self.clock_of(p, fp);
        let node = &self.nodes[i];
        let leads: Vec<Tid> = node
            .enabled
            .iter()
            .copied()
            .filter(|&q| {
                q == p
                    || before_next
                        .get(q as usize)
                        .is_some_and(|&c| c as usize > i + 1)
            })
            .collect();
        let add = if leads.is_empty() {
            node.enabled.clone()
        } else {
            leads
        };
        let node = &mut self.nodes[i];
        for q in add {
            if !node.backtrack.contains(&q) {
                node.backtrack.push(q);
            }
        }
    }

    /// For a step `fp` of thread `p` somewhere below a cached state: every path step of
    /// another thread it depends on and that is not ordered before `p` marks its node,
    /// where every enabled thread is then explored.
    fn add_conservative_backtracks(&mut self, p: Tid, fp: Footprint) {
        for i in 0..self.path.len() {
            let s = &self.path[i];
            let never_coenabled = fp == Footprint::Join(s.tid) && s.fp == Footprint::Finish;
            if s.tid == p
                || never_coenabled
                || !dependent(p, fp, s.tid, s.fp)
                || self.happens_before_thread(i, p)
            {
                continue;
            }
            let node = &mut self.nodes[i];
            for q in node.enabled.clone() {
                if !node.backtrack.contains(&q) {
                    node.backtrack.push(q);
                }
            }
        }
    }

    /// The clock of a new step `fp` of thread `t` appended to the path.
    fn clock_of(&self, t: Tid, fp: Footprint) -> Vec<u32> {
        let mut clock: Vec<u32> = Vec::new();
        for s in &self.path {
            if dependent(t, fp, s.tid, s.fp) {
                if clock.len() < s.clock.len() {
                    clock.resize(s.clock.len(), 0);
                }
                for (c, &d) in clock.iter_mut().zip(&s.clock) {
                    *c = (*c).max(d);
                }
            }
        }
        if clock.len() <= t as usize {
            clock.resize(t as usize + 1, 0);
        }
        clock[t as usize] = self.path.len() as u32 + 1;
        clock
    }

    /// Explores the current node (the last of `self.nodes`).
    fn dfs(&mut self, st: &mut State<P>) {
        if self.rec.stopped() {
            return;
        }
        let mut enabled: Vec<Tid> = (0..st.g.num_threads())
            .filter(|&t| st.enabled_action(t).is_some())
            .collect();
        if self.sections {
            let inside = (0..st.g.num_threads()).find(|&t| {
                st.g.thread_exists(t) && st.ts[t as usize].last().unwrap().in_atomic_section()
            });
            if let Some(t) = inside {
                enabled.retain(|&u| u == t);
            }
        }
        if enabled.is_empty() {
            if self.seen.insert(execution_key(&st.g, self.co.equiv)) {
                self.rec.tick(&st.g);
                self.at_maximal(st);
            }
            return;
        }
        self.rec.tick(&st.g);
        if !self.sections {
            for &p in &enabled {
                let fp = footprint(&st.enabled_action(p).unwrap());
                self.add_backtrack_points(p, fp);
            }
        }
        let k = self.nodes.len() - 1;
        self.nodes[k].enabled = enabled.clone();
        let key = execution_key(&st.g, self.co.equiv);
        let asleep = |sleep: &[(Tid, Footprint)], t: Tid| sleep.iter().any(|(s, _)| *s == t);
        if let Some(c) = self.cache.get_mut(&key) {
            let todo: Vec<Tid> = c
                .sleep
                .iter()
                .copied()
                .filter(|&t| !asleep(&self.nodes[k].sleep, t))
                .collect();
            c.sleep.retain(|&t| asleep(&self.nodes[k].sleep, t));
            let summary: Vec<(Tid, Footprint)> = c.summary.iter().copied().collect();
            for &(p, fp) in &summary {
                self.add_conservative_backtracks(p, fp);
            }
            self.nodes[k].summary.extend(summary);
            if todo.is_empty() {
                return;
            }
            self.nodes[k].backtrack = todo;
        } else {
            let sleep = self.nodes[k].sleep.iter().map(|(t, _)| *t).collect();
            self.cache.insert(
                key.clone(),
                Cached {
                    sleep,
                    summary: HashSet::new(),
                },
            );
            let node = &mut self.nodes[k];
            if self.sections {
                node.backtrack = enabled.clone();
            } else if let Some(&first) = enabled.iter().find(|&&t| !asleep(&node.sleep, t)) {
                node.backtrack.push(first);
            }
        }
        loop {
            if self.rec.stopped() {
                break;
            }
            let node = &self.nodes[k];
            let next = node.backtrack.iter().copied().find(|&t| {
                !node.done.iter().any(|(d, _)| *d == t) && !node.sleep.iter().any(|(s, _)| *s == t)
            });
            let Some(t) = next else { break };
            let action = st.enabled_action(t).unwrap();
            let mut fp = footprint(&action);
            if let Action::Spawn { .. } = action {
                fp = Footprint::Spawn(self.tids.child(t, st.spawns_of(t)));
            }
            let node = &self.nodes[k];
            let child_sleep: Vec<(Tid, Footprint)> = node
                .sleep
                .iter()
                .chain(&node.done)
                .copied()
                .filter(|&(u, b)| !dependent(t, fp, u, b))
                .collect();
            self.nodes[k].done.push((t, fp));
            let clock = self.clock_of(t, fp);
            self.path.push(PathStep { tid: t, fp, clock });
            let sleep = if self.sections {
                Vec::new()
            } else {
                child_sleep
            };
            let stamp = st.g.len();

            if let Action::Choose { lo, hi, src, .. } = action {
                // A choice touches no memory: one child per value.
                for val in lo..=hi {
                    if self.rec.stopped() {
                        break;
                    }
                    step::add_choice(st, self.model, t, val, src);
                    self.check_and_go(st, &sleep);
                    st.truncate(stamp);
                }
            } else {
                match step::perform(st, self.prog, self.model, &mut self.tids, t, action) {
                    Step::Done(_) => self.check_and_go(st, &sleep),
                    Step::Access(Access::Read {
                        loc,
                        bytes,
                        ord,
                        kind,
                        src,
                    }) => {
                        let mut sources = self.co.read_sources(&st.g, loc);
                        if self.sections {
                            // Operational SC: the co-latest write.
                            sources.drain(..sources.len() - 1);
                        }
                        for w in sources {
                            let r = st.g.add(
                                t,
                                LabelKind::Read {
                                    loc,
                                    bytes,
                                    ord,
                                    kind,
                                    rf: w,
                                },
                                src,
                            );
                            step::fix_source(self.model, &mut st.g, r, ord);
                            if let AfterRead::WritePart(v) = step::after_read(st, self.model, r) {
                                step::add_write_part(st, self.model, r, v);
                            }
                            self.check_and_go(st, &sleep);
                            st.truncate(stamp);
                        }
                    }
                    Step::Access(Access::Write {
                        loc,
                        bytes,
                        val,
                        ord,
                        kind,
                        src,
                    }) => {
                        // co mode: every co position; rf mode: co is the model's to derive.
                        let n = st.g.co(loc).len();
                        let first = if self.co.tracked() && !self.sections {
                            1
                        } else {
                            n + 1
                        };
                        for pos in first..=n + 1 {
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
                            st.g.co_insert(w, pos);
                            st.push_resumed(t, 0);
                            self.check_and_go(st, &sleep);
                            st.truncate(stamp);
                        }
                    }
                }
            }
            st.truncate(stamp);
            self.path.pop();
            let below = std::mem::take(&mut self.child_summary);
            let node = &mut self.nodes[k];
            node.summary.insert((t, fp));
            node.summary.extend(below);
        }
        if let Some(c) = self.cache.get_mut(&key) {
            c.summary.extend(self.nodes[k].summary.iter().copied());
        }
    }

    fn check_and_go(&mut self, st: &mut State<P>, sleep: &[(Tid, Footprint)]) {
        if self.rec.stopped() {
            return;
        }
        if self.co.check_whole(&mut st.g) {
            self.nodes.push(Node {
                sleep: sleep.to_vec(),
                ..Node::default()
            });
            self.dfs(st);
            let node = self.nodes.pop().expect("the child's node");
            self.child_summary.extend(node.summary);
        }
    }

    fn at_maximal(&mut self, st: &mut State<P>) {
        classify_maximal(&mut self.rec, self.prog, st, &self.co);
    }
}

/// Classifies a maximal graph. Its errors are reported in the order an explorer
/// adding the events in insertion order meets them (an error event when added, a
/// race when its second access is added), as GenMC reports the first one it meets.
pub(crate) fn classify_maximal<P: Program>(
    rec: &mut Recorder,
    prog: &P,
    st: &mut State<P>,
    co: &Coherence,
) {
    enum Found {
        Event(porf_graph::EventId),
        Race(porf_graph::EventId, porf_graph::EventId),
        Lifetime(lifetime::LifetimeError),
    }
    let stamp = |e| st.g.label(e).stamp;
    let mut found: Vec<(u32, Found)> =
        st.g.events()
            .filter(|(_, l)| matches!(l.kind, LabelKind::Error { .. }))
            .map(|(e, l)| (l.stamp, Found::Event(e)))
            .collect();
    for (a, b) in race::all_races(&st.g) {
        found.push((stamp(a).max(stamp(b)), Found::Race(a, b)));
    }
    for (s, err) in lifetime::all_errors(&st.g) {
        found.push((s, Found::Lifetime(err)));
    }
    found.sort_by_key(|(s, _)| *s);
    for (_, f) in found {
        match f {
            Found::Event(e) => rec.error_event(&st.g, e),
            Found::Race(a, b) => rec.race(&st.g, a, b),
            Found::Lifetime(err) => rec.lifetime(prog, &st.g, &err),
        }
    }
    rec.maximal(prog, st, co);
}
