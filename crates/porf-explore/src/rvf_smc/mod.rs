//! RVF-SMC: stateless model checking under the reads-value-from equivalence, for SC
//! ("Stateless Model Checking under a Reads-Value-From Equivalence", Agarwal,
//! Chatterjee, Pathak, Pavlogiannis, Toman, CAV 2021, §5, Alg. 2).
//!
//! Two SC traces are RVF-equivalent when they have the same events, every read reads
//! the same *value*, and the causal order (po, spawn, join, rf) agrees on the reads
//! ([`crate::key::rvf_class_key`]). Each recursive call holds a trace `σ` (realised as
//! a graph, see [`trace`]) satisfying good-writes `GoodW` (per read, the writes of the
//! value it reads, among those it could see when it was added) and a causal map `C`:
//!
//! 1. extend `σ` by every event that is not a read, as long as some thread has one
//!    (writes, fences, spawns, joins, mallocs, frees, finishes, blocks, errors) — `σ~`;
//! 2. *backtrack signals*: every write of the extension (and the write part of the
//!    read that created this call) sets the signal of each ancestor read of its
//!    location in another thread — and so does the read that created this call if it
//!    is exclusive (an RMW's, lock's or trylock's read part; see below);
//! 3. no enabled read: `σ~` is maximal — record it;
//! 4. otherwise take the enabled reads, those outside `dom(C)` first, and for each
//!    read `r` (stopping after an `r ∉ dom(C)` whose signal stayed false: Lemma 1),
//!    group the writes of `σ~` it could see and `C` does not forbid by value; for
//!    each value, `GoodW' = GoodW ∪ {r ↦ group}`, ask VerifySC for a witness of the
//!    events plus `r` (guided by `σ~ · r`, skipped when `σ~ · r` already is one) and
//!    recurse on it; then set `C(r)` to the per-thread lengths of `σ~`, forbidding
//!    those writes to `r` in later siblings.
//!
//! Adaptations to porf's events: an RMW's read and write parts enter together (the
//! write's value is a function of the value read) and stay adjacent in every witness;
//! a lock acquire is an RMW reading 0, or a read of a held lock followed by a `Block`
//! event; a lock or trylock reading a destroyed mutex is an error, so the destroyed
//! marker counts as part of the value. The initialisation is a write every read
//! without an earlier write of its location in its own thread may see, forbidden
//! once `r ∈ dom(C)`.
//!
//! Backtrack signals with RMWs. Lemma 1's proof builds, from a trace where `r` reads a
//! write `w*` outside `σ~`, a trace `σ2 · r · w*` where `r` reads inside `σ~`: it cuts
//! `w*` off as the last event of its thread. When `w*` is the write part of another
//! thread's RMW (or lock acquire), that cut leaves the read part `e` alone, which an
//! atomic RMW cannot be; cutting `e` too gives `σ2 · r · e`, where `e` is an access to
//! `r`'s location but may read another value and write nothing (a lock acquire that
//! now sees the lock taken, a CAS that now fails). So an exclusive read of `r`'s
//! location by another thread signals too, as a write would.
//!
//! Errors are porf's everywhere (assertions, data races, heap lifetime errors,
//! deadlocks, mutex misuse), defined on graphs exactly as for the graph explorer.
//! Error events are local-state facts, found when they are added; each event added
//! is checked for races and lifetime errors in the trace at hand, as the graph
//! explorer does (so without `--keep-going` the first error tends to be the one it
//! reports). Races, lifetime
//! errors and deadlocks depend on hb or on which write a read reads, which differ
//! between traces of one class: [`errors`] checks each maximal trace's graph and
//! then asks VerifySC, for each such error the trace does not show but another trace
//! of the same events and values might, for a witness that shows it.

mod errors;
mod trace;

use crate::coherence::{Coherence, Equiv};
use crate::key::rvf_class_key;
use crate::mixed_size;
use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::step::{self, Access, AfterRead, Step};
use crate::{Config, RvfStats, Stats};
use porf_graph::{EventId, LabelKind, Loc, Program, ReadKind, Tid, WriteKind};
use porf_models::rvf::{self as vsc, Closure, Instance, Kind, Query, Verdict};
use porf_models::MemoryModel;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{Hash, Hasher};
use trace::{instance, is_read_action, realise, Trace};

/// Runs RVF-SMC on `prog` (the model must be SC: the traces are SC traces).
pub fn explore<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let mut ex = Rvf {
        prog,
        model,
        co: Coherence::new(model, Equiv::Rvf),
        rec: Recorder::new(cfg, model),
        cfg,
        tids: TidRegistry::default(),
        ancestors: Vec::new(),
        classes: HashSet::new(),
        counters: RvfStats::default(),
    };
    let mut tr = Trace {
        st: State::new(prog, model),
        good: HashMap::new(),
    };
    ex.call(&mut tr, Vec::new(), Causal::default());
    ex.counters.classes = ex.classes.len() as u64;
    ex.rec.stats.rvf = Some(ex.counters);
    ex.rec.finish()
}

/// The trace a recursive call works on.
enum Child<P: Program> {
    /// The caller's trace, extended in place (the caller truncates it afterwards).
    InPlace(Vec<EventId>),
    /// A new trace (a VerifySC witness), with the events added with the read.
    New(Box<Trace<P>>, Vec<EventId>),
}

/// A read being processed by an ancestor call, with its backtrack signal.
struct Ancestor {
    read: EventId,
    loc: Loc,
    signal: bool,
}

/// The causal map `C`: for a read, per thread, how many of that thread's first events
/// (and the initialisation) it may no longer read from.
#[derive(Clone, Default)]
struct Causal(HashMap<EventId, Vec<u32>>);

impl Causal {
    fn forbids(&self, r: EventId, w: Option<EventId>) -> bool {
        match (self.0.get(&r), w) {
            (None, _) => false,
            (Some(_), None) => true,
            (Some(c), Some(w)) => w.idx < c.get(w.tid as usize).copied().unwrap_or(0),
        }
    }
}

/// What the reads and values of one call share: the instance of `σ~` and its
/// closure, built when first needed.
#[derive(Default)]
struct Node {
    inst: Option<Instance>,
    closure: Option<Option<Closure>>,
}

impl Node {
    /// The instance of `σ~` (callers may extend it, and restore it after).
    fn instance(&mut self, g: &porf_graph::Graph, good: &trace::GoodW) -> &mut Instance {
        self.inst.get_or_insert_with(|| instance(g, good))
    }

    /// Whether every write of `group` is hidden from a new read of `loc` placed after
    /// `pred` in every witness: some other write of `loc` comes after it and no later
    /// than `pred` in the closure of `σ~`'s events (the initialisation: after any).
    /// `stop` is the time limit: if it passes while the closure is computed, the
    /// answer is false (nothing is refuted; the caller's next poll stops the
    /// exploration) and no closure is kept.
    fn all_hidden(
        &mut self,
        g: &porf_graph::Graph,
        good: &trace::GoodW,
        loc: Loc,
        group: &[Option<EventId>],
        pred: EventId,
        stop: &dyn Fn() -> bool,
    ) -> bool {
        if self.closure.is_none() {
            match Closure::new_until(self.instance(g, good), stop) {
                Ok(c) => self.closure = Some(c),
                Err(vsc::Interrupted) => return false,
            }
        }
        let Some(Some(p)) = &self.closure else {
            return false;
        };
        let ws = g.co(loc);
        group.iter().all(|&w| {
            ws.iter()
                .any(|&w2| Some(w2) != w && p.le(w2, pred) && w.is_none_or(|w| p.le(w, w2)))
        })
    }
}

pub(super) struct Rvf<'a, 'c, P: Program> {
    prog: &'a P,
    model: &'a dyn MemoryModel,
    co: Coherence<'a>,
    rec: Recorder<'c>,
    cfg: &'c Config,
    tids: TidRegistry,
    ancestors: Vec<Ancestor>,
    /// Class keys of the maximal traces explored, as 128-bit hashes (the keys are
    /// long; the count is a statistic, and `Config::collect_rvf_classes` keeps the keys
    /// themselves for tests).
    classes: HashSet<(u64, u64)>,
    counters: RvfStats,
}

/// The read a thread is about to perform.
#[derive(Clone, Debug)]
struct ReadAccess {
    loc: Loc,
    bytes: u8,
    ord: porf_graph::MemOrder,
    kind: ReadKind,
    src: porf_graph::SrcLoc,
}

impl<P: Program> Rvf<'_, '_, P> {
    /// One call of Alg. 2 on trace `tr`; `fresh` are the events the parent added with
    /// the read that created this call.
    /// Works on `tr` in place: the caller restores it by truncation.
    fn call(&mut self, tr: &mut Trace<P>, fresh: Vec<EventId>, mut causal: Causal) {
        for &e in &fresh {
            if matches!(tr.st.g.label(e).kind, LabelKind::Error { .. }) {
                self.rec.error_event(&tr.st.g, e);
            } else {
                self.event_errors(&tr.st.g, e);
            }
        }
        if self.rec.stopped() {
            return;
        }
        let from = tr.st.g.len();
        if !self.extend(tr) {
            return;
        }
        self.rec.tick(&tr.st.g);
        // Backtrack signals (lines 2–5): new writes, and new exclusive reads (see
        // the module documentation).
        let g = &tr.st.g;
        for &w in fresh.iter().chain(&g.insertion_order()[from..]) {
            let lab = g.label(w);
            if !lab.is_write() && !lab.is_exclusive_read() {
                continue;
            }
            let loc = lab.loc().unwrap();
            for a in &mut self.ancestors {
                if a.loc == loc && a.read.tid != w.tid {
                    a.signal = true;
                }
            }
        }
        let enabled: Vec<Tid> = (0..tr.st.g.num_threads())
            .filter(|&t| tr.st.enabled_action(t).is_some())
            .collect();
        if enabled.is_empty() {
            return self.maximal(tr);
        }
        // Reads outside dom(C) first (lines 7–13).
        let mut mutate = VecDeque::new();
        for &t in &enabled {
            let r = EventId::new(t, tr.st.g.thread_len(t));
            if causal.0.contains_key(&r) {
                mutate.push_back(t);
            } else {
                mutate.push_front(t);
            }
        }
        let mut node = Node::default();
        let mut backtrack = true;
        while backtrack {
            let Some(t) = mutate.pop_front() else { break };
            if self.rec.stopped() {
                return;
            }
            let r = EventId::new(t, tr.st.g.thread_len(t));
            let acc = self.read_access(tr, t);
            if !causal.0.contains_key(&r) {
                backtrack = false;
            }
            for group in self.value_groups(tr, r, &acc, &causal) {
                if self.rec.stopped() {
                    return;
                }
                let stamp = tr.st.g.len();
                let Some(child) = self.witness(tr, &mut node, r, &acc, group) else {
                    continue;
                };
                self.ancestors.push(Ancestor {
                    read: r,
                    loc: acc.loc,
                    signal: backtrack,
                });
                match child {
                    Child::InPlace(fresh) => {
                        self.call(tr, fresh, causal.clone());
                        tr.truncate(stamp);
                    }
                    Child::New(mut next, fresh) => self.call(&mut next, fresh, causal.clone()),
                }
                backtrack = self.ancestors.pop().unwrap().signal;
            }
            let g = &tr.st.g;
            causal
                .0
                .insert(r, (0..g.num_threads()).map(|u| g.thread_len(u)).collect());
        }
    }

    /// Extends the trace by every event that is not a read (line 1). False if the
    /// exploration must stop.
    fn extend(&mut self, tr: &mut Trace<P>) -> bool {
        loop {
            let mut progress = false;
            let mut t = 0;
            while t < tr.st.g.num_threads() {
                loop {
                    self.rec.tick(&tr.st.g);
                    if self.rec.stopped() {
                        return false;
                    }
                    let Some(a) = tr.st.enabled_action(t) else {
                        break;
                    };
                    // A read mixed with the trace's accesses is performed as its error.
                    if is_read_action(&a) && mixed_size::violation(&tr.st.g, &a).is_none() {
                        break;
                    }
                    let st = &mut tr.st;
                    match step::perform(st, self.prog, self.model, &mut self.tids, t, a) {
                        Step::Done(e) => {
                            if matches!(st.g.label(e).kind, LabelKind::Error { .. }) {
                                self.rec.error_event(&st.g, e);
                            } else {
                                self.event_errors(&st.g, e);
                            }
                        }
                        Step::Access(a @ Access::Write { .. }) => {
                            let w = step::add_write_last(st, self.model, t, &a);
                            self.event_errors(&st.g, w);
                        }
                        Step::Access(Access::Read { .. }) => {
                            unreachable!("a read action performed as a non-read")
                        }
                    }
                    progress = true;
                }
                t += 1;
            }
            if !progress {
                return true;
            }
        }
    }

    /// The read thread `t` is about to perform (registers its location).
    fn read_access(&mut self, tr: &mut Trace<P>, t: Tid) -> ReadAccess {
        let a = tr.st.enabled_action(t).expect("an enabled read");
        match step::perform(&mut tr.st, self.prog, self.model, &mut self.tids, t, a) {
            Step::Access(Access::Read {
                loc,
                bytes,
                ord,
                kind,
                src,
            }) => ReadAccess {
                loc,
                bytes,
                ord,
                kind,
                src,
            },
            _ => unreachable!("a read action yields a read access"),
        }
    }

    /// The writes of the trace read `r` may see and `C` does not forbid, grouped by
    /// the value they write (lines 20–21). A write of `r`'s own thread is hidden by a
    /// later one of the same location, and the initialisation by any.
    fn value_groups(
        &self,
        tr: &Trace<P>,
        r: EventId,
        acc: &ReadAccess,
        causal: &Causal,
    ) -> Vec<Vec<Option<EventId>>> {
        let g = &tr.st.g;
        let own_last = g.thread(r.tid).iter().enumerate().rev().find_map(|(i, l)| {
            (l.is_write() && l.loc() == Some(acc.loc)).then_some(EventId::new(r.tid, i as u32))
        });
        let mut cands: Vec<Option<EventId>> = Vec::new();
        if own_last.is_none() {
            cands.push(None);
        }
        for &w in g.co(acc.loc) {
            if w.tid != r.tid || Some(w) == own_last {
                cands.push(Some(w));
            }
        }
        // (value, reads a destroyed mutex, a copy read reads uninitialised memory) →
        // writes: the thread goes on differently in each case, whatever the value.
        type Group = ((i64, bool, bool), Vec<Option<EventId>>);
        let uninit_init = acc.kind == ReadKind::Copy
            && self
                .prog
                .block_of(acc.loc)
                .and_then(|b| g.block(b))
                .and_then(|b| b.malloc)
                .is_some_and(|(m, _)| {
                    !matches!(g.label(m).kind, LabelKind::Malloc { zeroed: true, .. })
                });
        let mut groups: Vec<Group> = Vec::new();
        for w in cands {
            if causal.forbids(r, w) {
                continue;
            }
            let destroyed =
                w.is_some_and(|w| g.label(w).write_kind() == Some(WriteKind::MutexDestroy));
            let v = (
                g.write_val(acc.loc, w),
                destroyed,
                w.is_none() && uninit_init,
            );
            match groups.iter_mut().find(|(k, _)| *k == v) {
                Some((_, ws)) => ws.push(w),
                None => groups.push((v, vec![w])),
            }
        }
        groups.into_iter().map(|(_, ws)| ws).collect()
    }

    /// A witness trace of the events of `tr` plus read `r` (with what follows it: an
    /// RMW's write part, a `Block` or an error event) in which `r` reads one of
    /// `group` (lines 23–26), and the events added with `r`. `node` caches what is
    /// shared by the reads and values of one call.
    fn witness(
        &mut self,
        tr: &mut Trace<P>,
        node: &mut Node,
        r: EventId,
        acc: &ReadAccess,
        group: Vec<Option<EventId>>,
    ) -> Option<Child<P>> {
        let g = &tr.st.g;
        let latest = g.co_max(acc.loc);
        let direct = group.contains(&latest);
        let w0 = if direct { latest } else { group[0] };
        let val = g.write_val(acc.loc, w0);
        let ord = step::read_order(acc.kind, acc.ord, val);
        let mut order = None;
        if !direct {
            // σ~ · r is no witness: ask VerifySC, after a cheap refutation by the
            // closure of σ~'s events (every witness of the new events respects it).
            self.counters.witness_calls += 1;
            let pred = EventId::new(r.tid, r.idx - 1);
            let stop = || self.rec.limit_passed();
            if node.all_hidden(g, &tr.good, acc.loc, &group, pred, &stop) {
                self.counters.witness_failed += 1;
                self.counters.closure_refuted += 1;
                return None;
            }
            // The node's instance plus `r` (and its write part), popped again below.
            let inst = node.instance(g, &tr.good);
            let th = &mut inst.threads[r.tid as usize];
            debug_assert_eq!(th.len() as u32, r.idx);
            th.push(Kind::Read {
                loc: acc.loc,
                good: group.clone(),
                atomic: ord.is_atomic(),
                last: false,
            });
            if acc.kind.write_part(val).is_some() {
                // As `step::add_write_part` orders it: relaxed for a lock's.
                let lock = matches!(acc.kind, ReadKind::Lock | ReadKind::TryLock);
                th.push(Kind::Write {
                    loc: acc.loc,
                    atomic: lock || ord.is_atomic(),
                    exclusive: true,
                });
            }
            let mut guide = g.insertion_order().to_vec();
            guide.push(r);
            let stop = || self.rec.limit_passed();
            let q = Query {
                stop: Some(&stop),
                guide: &guide,
                taint: None,
                closure: true,
            };
            let verdict = vsc::verify(inst, &q);
            inst.threads[r.tid as usize].truncate(r.idx as usize);
            match verdict {
                Verdict::Witness(o) => order = Some(o),
                Verdict::Refuted => {
                    self.counters.witness_failed += 1;
                    self.counters.closure_refuted += 1;
                    return None;
                }
                Verdict::NoWitness => {
                    self.counters.witness_failed += 1;
                    return None;
                }
                // The time limit passed: the caller's next `stopped()` records it.
                Verdict::Interrupted => return None,
                Verdict::Malformed => unreachable!("a trace's events form a well-formed instance"),
            }
        }
        // Add `r` (and what follows it) to `σ~` in place.
        let stamp = tr.st.g.len();
        let st = &mut tr.st;
        let kind = LabelKind::Read {
            loc: acc.loc,
            bytes: acc.bytes,
            ord,
            kind: acc.kind,
            rf: w0,
        };
        let e = step::add_event(st, self.model, r.tid, kind, acc.src);
        debug_assert_eq!(e, r);
        let mut fresh = vec![r];
        match step::after_read(st, self.model, r) {
            AfterRead::Continue => {}
            AfterRead::WritePart(v) => fresh.push(step::add_write_part(st, self.model, r, v)),
            AfterRead::Blocked | AfterRead::Ended => fresh.push(st.g.last_of(r.tid).unwrap()),
        }
        tr.good.insert(r, group);
        let Some(mut order) = order else {
            // σ~ · r satisfies GoodW': the child goes on from it.
            return Some(Child::InPlace(fresh));
        };
        // A `Block` or error event after `r` touches no memory: it goes last.
        let rest: Vec<EventId> = fresh
            .iter()
            .copied()
            .filter(|e| !order.contains(e))
            .collect();
        order.extend(rest);
        let next = Trace {
            st: State {
                g: realise(&tr.st.g, &order, self.model),
                ts: tr.st.ts.clone(),
            },
            good: tr.good.clone(),
        };
        tr.truncate(stamp);
        Some(Child::New(Box::new(next), fresh))
    }

    /// Records a maximal trace: its class, the errors of its class, its outcome.
    fn maximal(&mut self, tr: &mut Trace<P>) {
        self.counters.traces += 1;
        let key = rvf_class_key(&tr.st.g);
        if self.cfg.collect_rvf_classes {
            self.rec.stats.rvf_class_keys.push(key.clone());
        }
        let hash = |salt: u8| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (salt, &key).hash(&mut h);
            h.finish()
        };
        self.classes.insert((hash(0), hash(1)));
        self.class_errors(tr);
        if self.rec.stopped() {
            return;
        }
        let mut deadlock = self.deadlock_witness(tr);
        let st = deadlock.as_mut().unwrap_or(&mut tr.st);
        debug_assert!(
            self.model.is_consistent(&st.g),
            "RVF explorer reached an inconsistent trace:\n{}",
            st.g
        );
        self.rec.maximal(self.prog, st, &self.co);
    }
}
