//! The deferred-read explorer (`--explorer deferred`): an exact graph explorer for
//! models that allow load buffering (po ∪ rf cycles), where a read may read from a
//! write added after it. It adds events out of program order along their
//! *dependencies*, as HMC does (Kokologiannakis and Vafeiadis, "HMC: Model Checking
//! for Hardware Memory Models", ASPLOS 2020): an event waits for the reads it depends
//! on, not for its po-predecessors.
//!
//! **The algorithm.** A *decision* is taken for access and choice events one at a
//! time. A write is decided with its location and value; a read with its *source*: the
//! initialisation, a write decided before it, or *pending* (a write decided later); a
//! choice (whether a store-exclusive succeeds, `Action::Choose`) with its value, each
//! value of its range a branch.
//! When a write is decided, each pending read of its location either takes it as its
//! source or stays pending (every subset is tried), and, in co mode, the write takes
//! each position among the decided writes of its location (co restricted to the
//! decided writes is decided). A branch whose decided part at the location already
//! breaks RMW atomicity or, for a model that claims it, SC per location is not
//! explored ([`prefix`], exact: every edge it sees is an edge of every extension;
//! off with candidate pruning). A read is *resolved* when its
//! source is not pending. At each node the program is run from the start (threads in
//! a fixed order, [`crate::values::script`]'s way): a resolved read returns its
//! source's value, any other read its location's initial value (a placeholder); a
//! decided choice returns its value, any other the lowest of its range (a
//! placeholder). A dependency source is *known* when it is a resolved read or a
//! decided successful store-exclusive (whose status register later instructions may
//! read: the status is fixed by the choice). An access is *ready* when every source it
//! depends on is known and every choice before it in its thread is decided: for a
//! read, the sources of its address and control dependencies
//! ([`porf_graph::hw::Deps`]); for a write, those of its address, data and control
//! dependencies and, for an RMW's write part whose value or existence depends on the
//! value read (every RMW but an exchange), its read part. A choice is ready when the
//! sources its existence depends on are known (the machine's facts for the choice:
//! its control dependencies and, as address dependencies, those of the two addresses
//! a store-exclusive compares, its own and its reservation's; explorers keep these
//! off the graph, so models never see them) and every choice before it in its thread
//! is decided. The next decision is for the lowest (thread, index) ready event not yet
//! decided. When nothing is ready the node is a leaf: if every access and choice of
//! the run is decided and no read is pending, the run (which now returns real values
//! only) with the decided sources and decided co is a candidate execution, kept when
//! the model accepts it ([`crate::values`]'s candidate graph: replayed or patched, the
//! model's whole check, the dependency-cycle check; in rf mode the model's exact check
//! finds a co); otherwise the branch ends. Every run checks that each decided event is
//! still there with the same location, value and dependencies.
//!
//! **Memory.** The search keeps one decision map, one co list per location and one
//! run per level of the recursion, whose depth is the number of accesses and choices:
//! linear in one execution's graph (times its depth), never in the number of
//! executions. No set of executions is kept: by the argument below each leaf is a
//! different execution, so the candidates are classified without the values
//! explorer's seen-set (`Values::dedup` off); debug builds alone keep each leaf's
//! decisions to assert it.
//!
//! **What it needs.** (P1) *Independence*, a property of the thread machines: an
//! access of a thread is the same event (index, location, value, dependencies)
//! whatever the values of the sources it does not depend on, given the values of the
//! choices before it in its thread, as long as the thread reaches it; so is a choice
//! (index, range), given the sources its existence depends on. The assembly machine (`porf-litmus` `asm/machine.rs`) and the kernel
//! machine (`kernel/machine.rs`) give it by construction: each register carries the
//! set of reads its value came from, an address, stored value or branch condition
//! carries its registers' sets, and a taken conditional branch adds its set to the
//! control dependencies of every later event; a store-exclusive's choice exists when
//! the thread reaches it (its control dependencies) holding a reservation of the
//! same address (the two address dependencies), and everything after it in its
//! thread follows its value. Machines that give no dependencies (C11
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
//! **Why it is exact.** Fix a consistent complete execution G (events, rf, co, the
//! values its choices took). Call a node *on G* when every decision agrees with G (a
//! read decided pending has its G source undecided; a choice took its G value). At a
//! node on G the resolved reads return their G values and the decided choices their
//! G values, so by P1 every ready event of the run is G's event at that place; the
//! next decision is a function of the node, and exactly one of its branches stays on
//! G (a read's G source if it is decided, else pending; a write resolves exactly the
//! pending reads G gives it and takes the place G's co gives it among the decided
//! writes; a choice takes its G value), and [`prefix`] never cuts it (G is
//! consistent). So at most one leaf is on G, and different leaves differ in some
//! read's source, some choice's value or the co order of two writes: no (rf, co) is
//! produced twice (debug builds assert it). A node on G
//! with an undecided G event is not a leaf, except as said next: otherwise every such
//! event waits for an unknown source (a read whose G source is undecided, else it
//! would have been taken, or an undecided write) or an undecided choice before it,
//! which in turn waits for the same, and so on: in finite G that is a cycle. Its
//! edges are rf, the dependencies above (a choice's control dependencies are the
//! control dependencies of every later event of its thread, the machine's `ctrl`
//! being cumulative), and from a source of a choice's *address* dependencies to the
//! events after the choice. A cycle of the first two P2 forbids. The third kind is not
//! an ordering the models give in general (ARMv8's `addr;po;[W]` and its RISC-V and
//! POWER counterparts order writes only, and a failed store-exclusive is no event),
//! so a leaf with an undecided choice whose address depends on an unknown source ends
//! the exploration with an unsupported error rather than a guess. Likewise a thread
//! whose run stopped at an error or a block after a read that is not resolved may hide
//! events G has: such a leaf ends the exploration with an unsupported error. So the
//! leaf on G is complete and G is found, with its co.
//!
//! **Not supported** (an unsupported error ends the exploration): programs whose
//! accesses carry no dependencies; choices whose machine gives no facts (C front
//! ends); a leaf left with a store-exclusive choice waiting for its address (above);
//! lock, trylock and cell-copy reads; heap blocks; block-size queries. Prefixes are
//! pruned by atomicity and SC per location only, not by the model's whole check
//! (whose inconsistency adding events may undo, e.g. RISC-V's `po-loc-no-w`), which
//! runs at each leaf.

pub mod prefix;

use crate::step::{self, Access, Step};
use crate::values::script::{
    answer, set_hw, translate_hw, unsupported_event, unsupported_message, Guess, Script, ScriptStep,
};
use crate::values::Values;
use crate::{Config, Stats};
use porf_graph::hw::Hw;
use porf_graph::{
    Action, EventId, Graph, LabelKind, Loc, Program, ReadKind, RmwOp, ThreadMachine, Val,
};
use porf_models::MemoryModel;
use std::collections::BTreeMap;
#[cfg(debug_assertions)]
use std::collections::HashSet;

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

/// What was decided about an event.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Decision {
    /// A read of `loc` and its source.
    Read { loc: Loc, src: Source },
    /// A write of `val` to `loc` (`exclusive`: an RMW's write part).
    Write { loc: Loc, val: Val, exclusive: bool },
    /// A nondeterministic choice (a store-exclusive's success) that took `val`.
    Choice { val: Val },
}

/// A decision about an event, with the event's facts when decided (for a choice, what
/// its existence depends on: [`Run::choices`]).
#[derive(Clone, PartialEq, Eq, Debug)]
struct Decided {
    what: Decision,
    hw: Option<Box<Hw>>,
}

impl Decided {
    fn loc(&self) -> Option<Loc> {
        match self.what {
            Decision::Read { loc, .. } | Decision::Write { loc, .. } => Some(loc),
            Decision::Choice { .. } => None,
        }
    }
}

/// A choice of a run: its range and what its existence depends on (the facts the
/// machine gives it, translated to event indices; never put on the graph).
#[derive(Clone, Debug)]
struct Choice {
    lo: Val,
    hi: Val,
    hw: Hw,
}

/// One run of the program from the start ([`Deferred::run`]).
struct Run<P: Program> {
    s: Script<P>,
    choices: BTreeMap<EventId, Choice>,
}

/// A complete leaf's decisions: every read's source, every choice's value, every
/// location's co (co mode).
#[cfg(debug_assertions)]
type LeafKey = (
    Vec<(EventId, Option<EventId>)>,
    Vec<(EventId, Val)>,
    BTreeMap<Loc, Vec<EventId>>,
);

pub fn explore<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let mut ex = Deferred {
        v: Values::new(prog, model, cfg),
        decided: BTreeMap::new(),
        co: BTreeMap::new(),
        #[cfg(debug_assertions)]
        leaves: HashSet::new(),
    };
    // Each leaf is a different execution (module docs): no set of those kept.
    ex.v.dedup = false;
    ex.visit();
    ex.v.rec.finish()
}

struct Deferred<'a, 'c, P: Program> {
    /// The candidates' machinery, recorder and limits of the values explorer.
    v: Values<'a, 'c, P>,
    decided: BTreeMap<EventId, Decided>,
    /// Co mode: the decided writes of each location in their decided co order.
    co: BTreeMap<Loc, Vec<EventId>>,
    /// Debug builds only: the decisions of every complete leaf so far, to assert the
    /// exactly-once argument (module docs); a repeat ends the exploration loudly.
    #[cfg(debug_assertions)]
    leaves: HashSet<LeafKey>,
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
        match self.decided.get(&r).map(|d| d.what) {
            Some(Decision::Read {
                src: Source::Write(w),
                ..
            }) => match self.decided[&w].what {
                Decision::Write { val, .. } => val,
                _ => unreachable!("a read's source is a decided write"),
            },
            _ => init,
        }
    }

    /// The value choice `c` (ranging from `lo`) takes in a run: its decided value, or
    /// `lo` as a placeholder (nothing after it in its thread is decided then).
    fn choice_of(&self, c: EventId, lo: Val) -> Val {
        match self.decided.get(&c).map(|d| d.what) {
            Some(Decision::Choice { val }) => val,
            _ => lo,
        }
    }

    fn resolved(&self, r: EventId) -> bool {
        self.decided
            .get(&r)
            .is_some_and(|d| matches!(d.what, Decision::Read { src, .. } if src != Source::Pending))
    }

    /// Whether the value dependency source `e` gives is known: a read's once it is
    /// resolved, a successful store-exclusive's (its status) once it is decided.
    fn known(&self, e: EventId) -> bool {
        match self.decided.get(&e).map(|d| d.what) {
            Some(Decision::Write { .. }) => true,
            _ => self.resolved(e),
        }
    }

    fn pending(&self, r: EventId) -> bool {
        self.decided.get(&r).is_some_and(|d| {
            matches!(
                d.what,
                Decision::Read {
                    src: Source::Pending,
                    ..
                }
            )
        })
    }

    /// The program run from the start, each read answered by [`Self::value_of`];
    /// `None` if the exploration must end.
    fn run(&mut self) -> Option<Run<P>> {
        let mut s = Script {
            st: self.v.initial(),
            steps: Vec::new(),
        };
        let mut choices = BTreeMap::new();
        loop {
            if s.st.g.len() as u64 > MAX_EVENTS as u64 {
                let msg = format!("a run of more than {MAX_EVENTS} events");
                self.refuse(msg, &s.st.g);
                return None;
            }
            let Some((t, action)) = s.st.next_action() else {
                return Some(Run { s, choices });
            };
            let first = s.st.g.thread_len(t);
            let hw = s.st.ts[t as usize].last().unwrap().hw();
            let mut guess = None;
            match action {
                Action::Choose { lo, hi, src, what } => {
                    let Some(facts) = &hw else {
                        let msg = format!(
                            "a nondeterministic choice ({what}) whose dependencies are not known"
                        );
                        self.refuse(msg, &s.st.g);
                        return None;
                    };
                    let c = EventId::new(t, first);
                    let hw = translate_hw(&s.st.g, t, first, facts);
                    let val = self.choice_of(c, lo);
                    step::add_choice(&mut s.st, self.v.model, t, val, src);
                    choices.insert(c, Choice { lo, hi, hw });
                    s.steps.push(ScriptStep {
                        tid: t,
                        first,
                        len: 1,
                        guess: None,
                    });
                    continue;
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
        if let Some(run) = self.checked_run() {
            self.expand(&run);
        }
    }

    /// The run of the current node, checked to have every decided event unchanged;
    /// `None` once the exploration must end.
    fn checked_run(&mut self) -> Option<Run<P>> {
        if self.v.stop() {
            return None;
        }
        let run = self.run()?;
        self.v.rec.tick(&run.s.st.g);
        if let Some(e) = self.changed(&run) {
            let msg = format!(
                "event {e:?} changed when reads it does not depend on changed value: the \
                 program's dependencies are incomplete"
            );
            self.refuse(msg, &run.s.st.g);
            return None;
        }
        Some(run)
    }

    /// Takes the next decision of the node whose run is `run`, or ends a leaf.
    fn expand(&mut self, run: &Run<P>) {
        match self.next(run) {
            Err(msg) => self.refuse(msg, &run.s.st.g),
            Ok(Some(e)) => {
                let g = &run.s.st.g;
                let l = g.label(e);
                if let Some(c) = run.choices.get(&e) {
                    let (lo, hi, hw) = (c.lo, c.hi, Some(Box::new(c.hw.clone())));
                    self.decide_choice(e, lo, hi, hw);
                    return;
                }
                let loc = l.loc().expect("an access");
                let hw = l.hw.clone();
                let write = match l.kind {
                    LabelKind::Write { val, .. } => Some(val),
                    _ => None,
                };
                let exclusive = l.is_exclusive_write();
                match write {
                    Some(val) => self.decide_write(
                        e,
                        Decided {
                            what: Decision::Write {
                                loc,
                                val,
                                exclusive,
                            },
                            hw,
                        },
                    ),
                    None => self.decide_read(e, loc, hw),
                }
            }
            Ok(None) => self.leaf(run),
        }
    }

    /// The event to decide next: the lowest (thread, index) ready one (module docs);
    /// `None` at a leaf; an error message if the run cannot be explored.
    fn next(&self, run: &Run<P>) -> Result<Option<EventId>, String> {
        let g = &run.s.st.g;
        for t in 0..g.num_threads() {
            for i in 0..g.thread_len(t) {
                let e = EventId::new(t, i);
                if let Some(c) = run.choices.get(&e) {
                    if self.decided.contains_key(&e) {
                        continue;
                    }
                    // Nothing after an undecided choice is ready: its place and what
                    // it is follow the choice's value.
                    if choice_deps(e, &c.hw).iter().all(|&r| self.known(r)) {
                        return Ok(Some(e));
                    }
                    break;
                }
                let l = g.label(e);
                if !(l.is_read() || l.is_write()) || self.decided.contains_key(&e) {
                    continue;
                }
                if l.hw.is_none() {
                    return Err(format!("an access without dependencies ({e:?})"));
                }
                if deps(g, e).iter().all(|&r| self.known(r)) {
                    return Ok(Some(e));
                }
            }
        }
        Ok(None)
    }

    /// The first decided event the run no longer has as decided.
    fn changed(&self, run: &Run<P>) -> Option<EventId> {
        let g = &run.s.st.g;
        self.decided
            .iter()
            .find(|(e, d)| {
                if e.tid >= g.num_threads() || e.idx >= g.thread_len(e.tid) {
                    return true;
                }
                let l = g.label(**e);
                match (&l.kind, d.what) {
                    (LabelKind::Read { loc, .. }, Decision::Read { loc: dl, .. }) => {
                        *loc != dl || l.hw != d.hw
                    }
                    (
                        LabelKind::Write { loc, val, .. },
                        Decision::Write {
                            loc: dl,
                            val: dv,
                            exclusive,
                        },
                    ) => {
                        *loc != dl
                            || *val != dv
                            || l.is_exclusive_write() != exclusive
                            || l.hw != d.hw
                    }
                    (LabelKind::Choice { val }, Decision::Choice { val: dv }) => {
                        *val != dv || run.choices.get(e).map(|c| &c.hw) != d.hw.as_deref()
                    }
                    _ => true,
                }
            })
            .map(|(e, _)| *e)
    }

    fn decide_choice(&mut self, c: EventId, lo: Val, hi: Val, hw: Option<Box<Hw>>) {
        let choices = (lo..=hi).map(|val| Decision::Choice { val });
        self.try_each(c, choices, hw);
    }

    fn decide_read(&mut self, r: EventId, loc: Loc, hw: Option<Box<Hw>>) {
        let mut sources = vec![Source::Init];
        sources.extend(
            self.decided
                .iter()
                .filter(|(_, w)| matches!(w.what, Decision::Write { loc: l, .. } if l == loc))
                .map(|(&w, _)| Source::Write(w)),
        );
        sources.push(Source::Pending);
        let reads = sources.into_iter().map(|src| Decision::Read { loc, src });
        self.try_each(r, reads, hw);
    }

    /// Explores each of `decisions` for `e` in turn (until the exploration stops),
    /// then leaves `e` undecided.
    fn try_each(
        &mut self,
        e: EventId,
        decisions: impl Iterator<Item = Decision>,
        hw: Option<Box<Hw>>,
    ) {
        for what in decisions {
            let d = Decided {
                what,
                hw: hw.clone(),
            };
            let loc = d.loc();
            self.decided.insert(e, d);
            if loc.is_none_or(|loc| self.prefix_consistent(loc)) {
                self.visit();
            }
            if self.v.stop() {
                break;
            }
        }
        self.decided.remove(&e);
    }

    /// Whether the decided prefix at `loc` may still be consistent ([`prefix`]): always
    /// in rf mode, where co is not decided, and with candidate pruning off.
    fn prefix_consistent(&self, loc: Loc) -> bool {
        if !self.v.co.tracked() || !self.v.prune {
            return true;
        }
        let acc: Vec<(EventId, prefix::Access)> = self
            .decided
            .iter()
            .filter_map(|(&e, d)| match d.what {
                Decision::Read { loc: l, src } if l == loc => {
                    let src = match src {
                        Source::Pending => None,
                        Source::Init => Some(None),
                        Source::Write(w) => Some(Some(w)),
                    };
                    Some((e, prefix::Access::Read { src }))
                }
                Decision::Write {
                    loc: l, exclusive, ..
                } if l == loc => Some((e, prefix::Access::Write { exclusive })),
                _ => None,
            })
            .collect();
        let co = self.co.get(&loc).map_or(&[][..], Vec::as_slice);
        prefix::consistent(&acc, co, self.v.model.uniproc())
    }

    fn set_source(&mut self, r: EventId, to: Source) {
        if let Some(Decided {
            what: Decision::Read { src, .. },
            ..
        }) = self.decided.get_mut(&r)
        {
            *src = to;
        }
    }

    fn decide_write(&mut self, w: EventId, d: Decided) {
        let loc = d.loc();
        let pending: Vec<EventId> = self
            .decided
            .iter()
            .filter(|(&r, rd)| rd.loc() == loc && self.pending(r))
            .map(|(&r, _)| r)
            .collect();
        if pending.len() > MAX_PENDING {
            let msg =
                format!("more than {MAX_PENDING} reads of one location waiting for a later write");
            self.refuse(msg, &Graph::new());
            return;
        }
        let loc = loc.expect("a write's location");
        self.decided.insert(w, d);
        for mask in 0u32..1 << pending.len() {
            for (k, &r) in pending.iter().enumerate() {
                let src = if mask >> k & 1 == 1 {
                    Source::Write(w)
                } else {
                    Source::Pending
                };
                self.set_source(r, src);
            }
            if self.v.co.tracked() {
                // The run does not depend on the write's co position: one for all.
                let Some(run) = self.checked_run() else { break };
                let placed = self.co.get(&loc).map_or(0, Vec::len);
                for at in 0..=placed {
                    self.co.entry(loc).or_default().insert(at, w);
                    if self.prefix_consistent(loc) {
                        self.expand(&run);
                    }
                    self.co.get_mut(&loc).expect("placed").remove(at);
                    if self.v.stop() {
                        break;
                    }
                }
            } else {
                self.visit();
            }
            if self.v.stop() {
                break;
            }
        }
        if self.co.get(&loc).is_some_and(Vec::is_empty) {
            self.co.remove(&loc);
        }
        for &r in &pending {
            self.set_source(r, Source::Pending);
        }
        self.decided.remove(&w);
    }

    /// A node where nothing is ready (module docs).
    fn leaf(&mut self, run: &Run<P>) {
        let g = &run.s.st.g;
        let pending = self.decided.keys().any(|&r| self.pending(r));
        let all_decided = g.events().all(|(e, l)| {
            !(l.is_read() || l.is_write() || run.choices.contains_key(&e))
                || self.decided.contains_key(&e)
        });
        if !pending && all_decided {
            if let Some(e) =
                (0..g.num_threads()).find_map(|t| unsupported_event(g, t, 0, g.thread_len(t)))
            {
                let msg = unsupported_message(g, e);
                self.refuse(msg, g);
                return;
            }
            let rf: Vec<(EventId, Option<EventId>)> = run
                .s
                .steps
                .iter()
                .filter(|step| step.guess.is_some())
                .map(|step| {
                    let r = EventId::new(step.tid, step.first);
                    match self.decided[&r].what {
                        Decision::Read {
                            src: Source::Write(w),
                            ..
                        } => (r, Some(w)),
                        _ => (r, None),
                    }
                })
                .collect();
            #[cfg(debug_assertions)]
            {
                let choices = run
                    .choices
                    .keys()
                    .map(|&c| (c, self.choice_of(c, 0)))
                    .collect();
                if !self.leaves.insert((rf.clone(), choices, self.co.clone())) {
                    let msg = "internal error: the deferred explorer reached one execution twice";
                    self.refuse(msg.into(), g);
                    return;
                }
            }
            if self.v.co.tracked() {
                self.v.candidate_with_co(&run.s, &rf, &self.co);
            } else {
                self.v.candidate(&run.s, &rf);
            }
            return;
        }
        // An undecided choice waiting for a read its address depends on may hide a
        // consistent execution whose rf and dependencies go through that address
        // (module docs: only ctrl reaches every later event).
        for (c, ch) in &run.choices {
            if !self.decided.contains_key(c)
                && ch
                    .hw
                    .deps
                    .addr
                    .iter()
                    .any(|&i| !self.known(EventId::new(c.tid, i)))
            {
                let msg = format!(
                    "a store-exclusive's success ({c:?}) waits for a read its address depends \
                     on, whose value is not decided yet"
                );
                self.refuse(msg, g);
                return;
            }
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
                self.refuse(msg, g);
                return;
            }
        }
    }
}

/// The reads a choice waits for: those its existence depends on (its facts' address
/// and control dependencies, [`Run::choices`]).
fn choice_deps(c: EventId, hw: &Hw) -> Vec<EventId> {
    let d = &hw.deps;
    d.addr
        .iter()
        .chain(&d.ctrl)
        .map(|&i| EventId::new(c.tid, i))
        .collect()
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
    !porf_models::relation::successors_acyclic(&succ)
}
