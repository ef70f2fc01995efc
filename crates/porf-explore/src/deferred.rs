//! The deferred-read explorer (`--explorer deferred`): an exact graph explorer for
//! models that allow load buffering (po ∪ rf cycles), where a read may read from a
//! write added after it. It adds events out of program order along their
//! *dependencies*, as HMC does (Kokologiannakis and Vafeiadis, "HMC: Model Checking
//! for Hardware Memory Models", ASPLOS 2020): an event waits for the reads it depends
//! on, not for its po-predecessors.
//!
//! **The algorithm.** A *decision* is taken for access events one at a time. A write
//! is decided with its location and value; a read with its *source*: the
//! initialisation, a write decided before it, or *pending* (a write decided later).
//! When a write is decided, each pending read of its location either takes it as its
//! source or stays pending (every subset is tried). A read is *resolved* when its
//! source is not pending. At each node the program is run from the start (threads in
//! a fixed order, [`crate::values::script`]'s way): a resolved read returns its
//! source's value, any other read its location's initial value (a placeholder). An
//! access is *ready* when every read it depends on is resolved: for a read, those of
//! its address and control dependencies ([`porf_graph::hw::Deps`]); for a write,
//! those of its address, data and control dependencies and, for an RMW's write part
//! whose value or existence depends on the value read (every RMW but an exchange),
//! its read part. The next decision is for the lowest (thread, index) ready access
//! not yet decided. When no access is ready the node is a leaf: if every access of
//! the run is decided and no read is pending, the run (which now returns real values
//! only) with the decided sources is a candidate execution, and every co of it is
//! tried and kept when the model accepts it ([`crate::values`]'s candidates: the
//! graph replayed or patched, the model's whole check, the dependency-cycle check);
//! otherwise the branch ends. Every run checks that each decided event is still there
//! with the same location, value and dependencies. Memory: the search keeps one
//! decision map and one run per level of the recursion, whose depth is the number of
//! accesses; besides, the rf of each complete leaf is kept to check that none comes
//! twice, and the values explorer's candidates keep a key per execution (so memory is
//! linear in the number of executions, not yet in one graph).
//!
//! **What it needs.** (P1) *Independence*, a property of the thread machines: an
//! access of a thread is the same event (index, location, value, dependencies)
//! whatever the values of the reads it does not depend on, as long as the thread
//! reaches it. The assembly machine (`porf-litmus` `asm/machine.rs`) and the kernel
//! machine (`kernel/machine.rs`) give it by construction: each register carries the
//! set of reads its value came from, an address, stored value or branch condition
//! carries its registers' sets, and a taken conditional branch adds its set to the
//! control dependencies of every later event. Machines that give no dependencies (C11
//! front ends, `Hw` = `None`) are refused. A run that breaks P1 is caught when a
//! decided event changes, and ends the exploration with an unsupported error.
//! (P2) *No dependency cycles*, a property of the model: no consistent execution has
//! a cycle of rf and the dependencies above. A model claims it with
//! [`porf_models::MemoryModel::forbids_dependency_cycles`], and [`crate::supported`]
//! refuses this explorer for a model that does not. ARMv8, RISC-V, POWER and IMM
//! claim it through their dependency-ordering axioms: ARMv8's `dob` (Pulte et al.,
//! POPL 2018) holds `addr`, `data`, `ctrl;[W]`, `(addr|data);rfi` and its `aob` the
//! RMW pairs, RISC-V's ppo rules 9–11 and atomicity, POWER's `ppo` (its
//! `ii`/`ic`/`ci`/`cc` fixpoint holds `addr`, `data` and `ctrl` to writes), IMM's `ppo`
//! (`deps`, `rfi`, `rmw`); each is checked on random graphs by `porf-explore`'s test
//! `deferred_dependencies`. LKMM does not: it leaves plain accesses out of its
//! ordering, and that test finds a consistent cycle through them. The values explorer,
//! which needs the property too,
//! checks every consistent candidate and refuses one with such a cycle.
//!
//! **Why it is exact.** Fix a consistent complete execution G (events, rf, co). Call
//! a node *on G* when every decision agrees with G (a read decided pending has its G
//! source undecided). At a node on G the resolved reads return their G values, so
//! by P1 every ready access of the run is G's event at that place; the next decision
//! is a function of the node, and exactly one of its branches stays on G (a read's
//! G source if it is decided, else pending; a write resolves exactly the pending
//! reads G gives it). So at most one leaf is on G, and different leaves differ in
//! some read's source: no (rf, co) is produced twice. A node on G with an undecided G
//! access is not a leaf: otherwise every such access depends on an unresolved read,
//! whose G source is undecided (a decided one would have been taken), so it too
//! depends on an unresolved read, and so on: in finite G that is a cycle of rf and
//! dependencies, which P2 forbids. A thread whose run stopped at an error or a block
//! after a read that is not resolved may hide accesses G has: such a leaf ends the
//! exploration with an unsupported error rather than a guess. So the leaf on G is
//! complete and G is found, with its co among those tried.
//!
//! **Not supported** (an unsupported error ends the exploration): programs whose
//! accesses carry no dependencies; nondeterministic choices (store-exclusives whose
//! success is a choice, `Action::Choose`); lock, trylock and cell-copy reads; heap
//! blocks; block-size queries. The co of each candidate is enumerated whole, as the
//! values explorer does: this is a search over rf, not yet GenMC's incremental
//! co with consistency-pruned revisits.

use crate::step::{self, Access, Step};
use crate::values::script::{
    answer, set_hw, unsupported_event, unsupported_message, Guess, Script, ScriptStep,
};
use crate::values::Values;
use crate::{Config, Stats};
use porf_graph::hw::Hw;
use porf_graph::{
    Action, EventId, Graph, LabelKind, Loc, Program, ReadKind, RmwOp, ThreadMachine, Val,
};
use porf_models::MemoryModel;
use std::collections::{BTreeMap, HashSet};

/// At most this many events in one run of the program.
pub const MAX_EVENTS: u32 = 100_000;
/// At most this many reads pending on one location when a write of it is decided
/// (each subset is a branch).
pub const MAX_PENDING: usize = 16;

/// Where a decided read reads from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Source {
    /// A write decided later.
    Pending,
    /// The location's initialisation.
    Init,
    /// This decided write.
    Write(EventId),
}

/// A decision about an access event, with what the event was when decided.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Decided {
    loc: Loc,
    /// `Some(val)` for a write, `None` for a read.
    val: Option<Val>,
    hw: Option<Box<Hw>>,
    src: Source,
}

pub fn explore<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let mut ex = Deferred {
        v: Values::new(prog, model, cfg),
        decided: BTreeMap::new(),
        leaves: HashSet::new(),
    };
    ex.visit();
    ex.v.rec.finish()
}

struct Deferred<'a, 'c, P: Program> {
    /// The candidates' machinery, recorder and limits of the values explorer.
    v: Values<'a, 'c, P>,
    decided: BTreeMap<EventId, Decided>,
    /// The rf of every complete leaf so far: a second leaf with one of them would break
    /// the exactly-once argument (module docs) and ends the exploration loudly rather
    /// than being deduplicated in silence. (The values explorer's candidates keep a
    /// set of the executions too.)
    leaves: HashSet<Vec<(EventId, Option<EventId>)>>,
}

impl<P: Program> Deferred<'_, '_, P> {
    fn refuse(&mut self, msg: String, g: &Graph) {
        self.v.refuse(
            format!("{msg} (the deferred explorer cannot enumerate executions of such a program)"),
            g,
        );
    }

    /// The value read `r` (of `loc`, initially `init`) returns in a run.
    fn value_of(&self, r: EventId, init: Val) -> Val {
        match self.decided.get(&r).map(|d| d.src) {
            Some(Source::Write(w)) => self.decided[&w].val.expect("a decided write"),
            _ => init,
        }
    }

    fn resolved(&self, r: EventId) -> bool {
        self.decided
            .get(&r)
            .is_some_and(|d| d.val.is_none() && d.src != Source::Pending)
    }

    /// The program run from the start, each read answered by [`Self::value_of`];
    /// `None` if the exploration must end.
    fn run(&mut self) -> Option<Script<P>> {
        let mut s = Script {
            st: self.v.initial(),
            steps: Vec::new(),
        };
        loop {
            if s.st.g.len() as u64 > MAX_EVENTS as u64 {
                let msg = format!("a run of more than {MAX_EVENTS} events");
                self.refuse(msg, &s.st.g);
                return None;
            }
            let Some((t, action)) = s.st.next_action() else {
                return Some(s);
            };
            let first = s.st.g.thread_len(t);
            let hw = s.st.ts[t as usize].last().unwrap().hw();
            let mut guess = None;
            match action {
                Action::Choose { what, .. } => {
                    let msg = format!("a nondeterministic choice ({what})");
                    self.refuse(msg, &s.st.g);
                    return None;
                }
                Action::BlockSize { .. } => {
                    self.refuse("a block-size query".into(), &s.st.g);
                    return None;
                }
                _ => {}
            }
            let (prog, model) = (self.v.prog, self.v.model);
            match step::perform(&mut s.st, prog, model, &mut self.v.tids, t, action) {
                Step::Done(_) => {}
                Step::Access(a @ Access::Write { .. }) => {
                    step::add_write_last(&mut s.st, model, t, &a);
                }
                Step::Access(Access::Read {
                    loc,
                    bytes,
                    ord,
                    kind,
                    src,
                }) => {
                    if !matches!(kind, ReadKind::Plain | ReadKind::Rmw(_)) {
                        let msg = format!("a {kind:?} read");
                        self.refuse(msg, &s.st.g);
                        return None;
                    }
                    let r = EventId::new(t, first);
                    let val = self.value_of(r, s.st.g.loc_info(loc).init_val);
                    let kind_read = LabelKind::Read {
                        loc,
                        bytes,
                        ord: step::read_order(kind, ord, val),
                        kind,
                        rf: None,
                    };
                    step::add_event(&mut s.st, model, t, kind_read, src);
                    answer(&mut s.st, model, r, kind, Guess::Val(val));
                    guess = Some(Guess::Val(val));
                }
            }
            let len = s.st.g.thread_len(t) - first;
            set_hw(&mut s.st.g, t, first, len, &hw);
            for i in first..first + len {
                if matches!(
                    s.st.g.label(EventId::new(t, i)).kind,
                    LabelKind::Malloc { .. } | LabelKind::Free { .. }
                ) {
                    self.refuse("a heap block".into(), &s.st.g);
                    return None;
                }
            }
            s.steps.push(ScriptStep {
                tid: t,
                first,
                len,
                guess,
            });
        }
    }

    fn visit(&mut self) {
        if self.v.stop() {
            return;
        }
        let Some(s) = self.run() else { return };
        self.v.rec.tick(&s.st.g);
        let g = &s.st.g;
        if let Some(e) = self.changed(g) {
            let msg = format!(
                "event {e:?} changed when reads it does not depend on changed value: the \
                 program's dependencies are incomplete"
            );
            self.refuse(msg, &s.st.g);
            return;
        }
        let mut next = None;
        'threads: for t in 0..g.num_threads() {
            for i in 0..g.thread_len(t) {
                let e = EventId::new(t, i);
                let l = g.label(e);
                if !(l.is_read() || l.is_write()) || self.decided.contains_key(&e) {
                    continue;
                }
                if l.hw.is_none() {
                    let msg = format!("an access without dependencies ({e:?})");
                    self.refuse(msg, &s.st.g);
                    return;
                }
                if deps(g, e).iter().all(|&r| self.resolved(r)) {
                    next = Some(e);
                    break 'threads;
                }
            }
        }
        match next {
            Some(e) => {
                let l = g.label(e);
                let d = Decided {
                    loc: l.loc().expect("an access"),
                    val: match l.kind {
                        LabelKind::Write { val, .. } => Some(val),
                        _ => None,
                    },
                    hw: l.hw.clone(),
                    src: Source::Pending,
                };
                drop(s);
                if d.val.is_some() {
                    self.decide_write(e, d);
                } else {
                    self.decide_read(e, d);
                }
            }
            None => self.leaf(s),
        }
    }

    /// The first decided event the run `g` no longer has as decided.
    fn changed(&self, g: &Graph) -> Option<EventId> {
        self.decided
            .iter()
            .find(|(e, d)| {
                if e.tid >= g.num_threads() || e.idx >= g.thread_len(e.tid) {
                    return true;
                }
                let l = g.label(**e);
                let same = match (&l.kind, d.val) {
                    (LabelKind::Read { loc, .. }, None) => *loc == d.loc,
                    (LabelKind::Write { loc, val, .. }, Some(v)) => *loc == d.loc && *val == v,
                    _ => false,
                };
                !same || l.hw != d.hw
            })
            .map(|(e, _)| *e)
    }

    fn decide_read(&mut self, r: EventId, d: Decided) {
        let mut sources = vec![Source::Init];
        sources.extend(
            self.decided
                .iter()
                .filter(|(_, w)| w.val.is_some() && w.loc == d.loc)
                .map(|(&w, _)| Source::Write(w)),
        );
        sources.push(Source::Pending);
        for src in sources {
            self.decided.insert(r, Decided { src, ..d.clone() });
            self.visit();
            if self.v.stop() {
                break;
            }
        }
        self.decided.remove(&r);
    }

    fn decide_write(&mut self, w: EventId, d: Decided) {
        let pending: Vec<EventId> = self
            .decided
            .iter()
            .filter(|(_, r)| r.val.is_none() && r.loc == d.loc && r.src == Source::Pending)
            .map(|(&r, _)| r)
            .collect();
        if pending.len() > MAX_PENDING {
            let msg =
                format!("more than {MAX_PENDING} reads of one location waiting for a later write");
            self.refuse(msg, &Graph::new());
            return;
        }
        self.decided.insert(w, d);
        for mask in 0u32..1 << pending.len() {
            for (k, r) in pending.iter().enumerate() {
                let src = if mask >> k & 1 == 1 {
                    Source::Write(w)
                } else {
                    Source::Pending
                };
                self.decided.get_mut(r).unwrap().src = src;
            }
            self.visit();
            if self.v.stop() {
                break;
            }
        }
        for r in &pending {
            self.decided.get_mut(r).unwrap().src = Source::Pending;
        }
        self.decided.remove(&w);
    }

    /// A node where no access is ready (module docs).
    fn leaf(&mut self, s: Script<P>) {
        let g = &s.st.g;
        let pending = self
            .decided
            .values()
            .any(|d| d.val.is_none() && d.src == Source::Pending);
        let all_decided = g
            .events()
            .all(|(e, l)| !(l.is_read() || l.is_write()) || self.decided.contains_key(&e));
        if !pending && all_decided {
            if let Some(e) =
                (0..g.num_threads()).find_map(|t| unsupported_event(g, t, 0, g.thread_len(t)))
            {
                let msg = unsupported_message(g, e);
                self.refuse(msg, &s.st.g);
                return;
            }
            let rf: Vec<(EventId, Option<EventId>)> = s
                .steps
                .iter()
                .filter(|step| step.guess.is_some())
                .map(|step| {
                    let r = EventId::new(step.tid, step.first);
                    match self.decided[&r].src {
                        Source::Write(w) => (r, Some(w)),
                        _ => (r, None),
                    }
                })
                .collect();
            if !self.leaves.insert(rf.clone()) {
                let msg = "internal error: the deferred explorer reached one rf twice".into();
                self.refuse(msg, &s.st.g);
                return;
            }
            self.v.candidate(&s, &rf);
            return;
        }
        // A thread that stopped early after a read that is not resolved may hide
        // accesses a complete execution has.
        for t in 0..g.num_threads() {
            let Some(last) = g.last_of(t) else { continue };
            if !matches!(
                g.label(last).kind,
                LabelKind::Error { .. } | LabelKind::Block { .. }
            ) {
                continue;
            }
            let unresolved = (0..last.idx)
                .map(|i| EventId::new(t, i))
                .any(|e| g.label(e).is_read() && !self.resolved(e));
            if unresolved {
                let msg = format!(
                    "thread {t} stopped (error or block) after a read whose value is not \
                     decided yet; what it does with the real value is not known"
                );
                self.refuse(msg, &s.st.g);
                return;
            }
        }
    }
}

/// The reads access `e` of `g` waits for (module docs): for a read those of its
/// address and control dependencies; for a write those of its address, data and
/// control dependencies and, for an RMW's write part other than an exchange's, its
/// read part.
pub fn deps(g: &Graph, e: EventId) -> Vec<EventId> {
    let l = g.label(e);
    let hw = l.hw.clone().unwrap_or_default();
    let d = &hw.deps;
    let mut out: Vec<u32> = d.addr.iter().chain(&d.ctrl).copied().collect();
    if l.is_write() {
        out.extend(&d.data);
    }
    if l.is_exclusive_write() {
        let read = EventId::new(e.tid, e.idx - 1);
        if !matches!(
            g.label(read).read_kind(),
            Some(ReadKind::Rmw(RmwOp::Xchg(_)))
        ) {
            out.push(read.idx);
        }
    }
    out.into_iter().map(|i| EventId::new(e.tid, i)).collect()
}

/// Whether `g` has a cycle of rf and [`deps`]: what property P2 (module docs) forbids
/// in a consistent execution.
pub fn dependency_cycle(g: &Graph) -> bool {
    let mut ids: Vec<EventId> = g.events().map(|(e, _)| e).collect();
    ids.sort();
    let index = |e: EventId| ids.binary_search(&e).expect("an event of g");
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    for &e in &ids {
        let l = g.label(e);
        if !(l.is_read() || l.is_write()) {
            continue;
        }
        for d in deps(g, e) {
            succ[index(d)].push(index(e));
        }
        if let Some(w) = l.rf() {
            succ[index(w)].push(index(e));
        }
    }
    // Kahn's algorithm: a cycle leaves some event with a predecessor.
    let mut preds = vec![0usize; ids.len()];
    for s in &succ {
        for &j in s {
            preds[j] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..ids.len()).filter(|&i| preds[i] == 0).collect();
    let mut seen = 0;
    while let Some(i) = ready.pop() {
        seen += 1;
        for &j in &succ[i] {
            preds[j] -= 1;
            if preds[j] == 0 {
                ready.push(j);
            }
        }
    }
    seen < ids.len()
}
