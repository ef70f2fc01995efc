//! RF-SMC: the exploration-optimal reads-from stateless model checker of "The
//! Reads-From Equivalence for the TSO and PSO Memory Models" (Bui, Chatterjee, Gautam,
//! Pavlogiannis, Toman, OOPSLA 2021, Algorithm 3, §5), for `sc`, `tso` and `pso`.
//!
//! Each call takes a trace σ that realises a desired reads-from function, extends it
//! to a maximal trace ([`extend`]), counts it, and proposes *mutations* ([`mutation`]):
//! for every unmarked read `r` and every other write `w` of its location (only writes
//! of the extension when `r` precedes it), the events before `r`, `r` reading `w`, and
//! the causal past of `w` after `r`. A mutation new to the schedule set of `r` is
//! tested for realisability by the model's exact check (VerifySC, VerifyTSO,
//! VerifyPSO) and, if realisable, scheduled with that witness. Finally the schedule
//! sets of the extension's reads are explored, the latest read first.
//!
//! The schedule set of a read lives with the call whose extension introduced the read;
//! descendants that mutate the read again add to that same set, which is why sets are
//! worklists that may grow while they are being explored. Reads that were kept in a
//! mutation only as causes of its write are *marked*: their sources are fixed for the
//! whole subtree.
//!
//! Invariant: every reads-from class of maximal traces is explored and counted once.
//! Exploration optimality (each class reached by exactly one call) holds for programs
//! without exclusive reads; see below for the others.
//!
//! RMWs, compare-exchanges, lock acquires and trylocks are a read followed by its
//! exclusive write part; a mutation of such a read carries the write part with it, and
//! the realisability test includes atomicity. A class where two exclusive reads trade
//! places in a chain is reached by a *swap* ([`mutation::swap`], as in the reads-from
//! SMC tools). The paper's mutations and the swap alone miss classes of programs with
//! RMW chains (porf's differential tests found such programs), so on a location with
//! exclusive reads an unmarked read may be mutated to *any* write of the trace, not
//! only to the extension's. That is complete (checked against the graph explorer on
//! thousands of random programs) but no longer exploration-optimal: the same class can
//! be reached twice. The recorder therefore counts each class once
//! (`Recorder::dedupe_classes`, a compact key per class; `Stats::repeated_classes` says
//! how many traces were repeats). Programs without exclusive reads are explored
//! optimally: no repeats (the differential tests check it).
//!
//! A lock acquire that reads a taken lock blocks its thread, as in the graph
//! explorers, so the blocked executions counted are the same. Assumes (blocked traces
//! counted as blocked), spawn and join, assertion failures, data races and heap errors
//! (reported as each event is added, exactly as the graph explorers do) and fences are
//! handled too.

mod extend;
mod mutation;
pub mod part;

use crate::coherence::{Coherence, Equiv};
use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::{Config, Stats, StopReason};
use extend::{Extended, Extender};
use mutation::Trace;
use porf_graph::{EventId, Graph, LabelKind, Program};
use porf_models::rf;
use porf_models::MemoryModel;
use std::collections::{HashMap, HashSet};

/// The models RF-SMC is defined for.
pub const MODELS: &[&str] = &["sc", "tso", "pso"];

/// Runs RF-SMC. The model must be one of [`MODELS`].
pub fn explore<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    assert!(
        MODELS.contains(&model.name()),
        "RF-SMC is defined for {MODELS:?}, not {}",
        model.name()
    );
    let mut rec = Recorder::new(cfg, model);
    // Mutations on locations with exclusive reads can reach a class twice: count each
    // class once (a compact key per class: the sources of its reads).
    rec.dedupe_classes();
    let mut ex = RfSmc {
        prog,
        model,
        co: Coherence::new(model, Equiv::Rf),
        rec,
        tids: TidRegistry::default(),
        sets: Vec::new(),
        pending: 0,
    };
    let st = State::new(prog, model);
    let root = Schedule {
        tau: st.g.insertion_order().to_vec(),
        st,
        fresh: 0,
        unreported: 0,
        marked: HashSet::new(),
        slots: HashMap::new(),
    };
    ex.call(root);
    if matches!(ex.rec.stats.stopped_by, Some(StopReason::Timeout(_))) {
        // Freeing the schedules still pending takes time in proportion to them (a
        // tenth of a second after a one-second run): past a time limit, it is not
        // spent — the memory is left to the process's exit (a deliberate leak, only
        // when a time limit cut the run).
        std::mem::forget(std::mem::take(&mut ex.sets));
    }
    ex.rec.finish()
}

/// A scheduled call: a trace realising a mutation (its co lists a witness).
struct Schedule<P: Program> {
    st: State<P>,
    /// τ of the trace (see [`mutation`]): a permutation of the graph's events; those
    /// added to the graph after `fresh` are appended to it.
    tau: Vec<EventId>,
    /// The stamp of the mutated read: events after it belong to the extension.
    fresh: usize,
    /// Events with stamp `>= unreported` (a displaced read executed again, the mutated
    /// read and what followed them) have not had their errors reported.
    unreported: usize,
    /// Reads whose source is fixed in this subtree.
    marked: HashSet<EventId>,
    /// The schedule set of every unmarked read of the trace.
    slots: HashMap<EventId, usize>,
}

/// The schedule set of one read: the mutations to explore and every mutation key
/// proposed so far.
struct ScheduleSet<P: Program> {
    todo: Vec<Schedule<P>>,
    seen: HashSet<Vec<u64>>,
}

struct RfSmc<'a, 'c, P: Program> {
    prog: &'a P,
    model: &'a dyn MemoryModel,
    co: Coherence<'a>,
    rec: Recorder<'c>,
    tids: TidRegistry,
    /// Schedule sets, a stack: a call pushes one per read of its extension and pops
    /// them when it returns.
    sets: Vec<ScheduleSet<P>>,
    /// Schedules waiting in `sets`.
    pending: u64,
}

impl<'a, 'c, P: Program> RfSmc<'a, 'c, P> {
    fn extender(&mut self) -> Extender<'a, '_, 'c, P> {
        Extender {
            prog: self.prog,
            model: self.model,
            co: self.co,
            rec: &mut self.rec,
            tids: &mut self.tids,
        }
    }

    /// One call of Algorithm 3.
    fn call(&mut self, sched: Schedule<P>) {
        let Schedule {
            mut st,
            mut tau,
            fresh,
            unreported,
            marked,
            mut slots,
        } = sched;
        self.rec.stats.smc.calls += 1;
        let fresh_events = st.g.insertion_order()[unreported..].to_vec();
        for e in fresh_events {
            self.extender().report(&st, e);
        }
        if self.extender().run_to_maximal(&mut st) == Extended::Stopped {
            return;
        }
        self.rec.maximal(self.prog, &mut st, &self.co);
        if self.rec.stopped() {
            return;
        }
        // The extension: what followed the mutated read in its thread (its write part,
        // a block) and everything the extension added.
        let base = tau.len();
        tau.extend_from_slice(&st.g.insertion_order()[fresh + 1..]);
        let tr = Trace::new(&st, tau);
        let first = self.sets.len();
        let ext_reads: Vec<EventId> = tr.tau[base..]
            .iter()
            .copied()
            .filter(|&e| st.g.label(e).is_read())
            .collect();
        for &r in &ext_reads {
            slots.insert(r, self.sets.len());
            self.sets.push(ScheduleSet {
                todo: Vec::new(),
                seen: HashSet::new(),
            });
        }
        self.mutate(&tr, base, &marked, &slots);
        drop(tr);
        for i in (0..ext_reads.len()).rev() {
            while let Some(child) = self.sets[first + i].todo.pop() {
                self.pending -= 1;
                if self.rec.stopped() {
                    return;
                }
                self.call(child);
            }
        }
        self.sets.truncate(first);
    }

    /// Lines 5–21: proposes every mutation of the unmarked reads of the maximal trace
    /// `tr` (whose events from position `base` of τ on are the extension) and
    /// schedules the realisable new ones.
    fn mutate(
        &mut self,
        tr: &Trace<P>,
        base: usize,
        marked: &HashSet<EventId>,
        slots: &HashMap<EventId, usize>,
    ) {
        let g = tr.g();
        for (pos, &r) in tr.tau.iter().enumerate() {
            let LabelKind::Read { loc, rf: cur, .. } = g.label(r).kind else {
                continue;
            };
            if marked.contains(&r) {
                continue;
            }
            // On a location with exclusive reads, an unmarked read may read any write,
            // not only the extension's (see the module documentation).
            let exclusive = has_exclusive(g, loc);
            let in_ext = pos >= base || exclusive;
            let admit = |e: EventId| in_ext || tr.pos[&e] >= base;
            let writes = g
                .loc_info(loc)
                .accesses
                .iter()
                .copied()
                .filter(|&w| g.label(w).is_write() && admit(w));
            let cands: Vec<Option<EventId>> = in_ext
                .then_some(None)
                .into_iter()
                .chain(writes.map(Some))
                .filter(|&w| w != cur)
                .collect();
            let mut muts = Vec::new();
            // Each proposal costs time linear in the trace (`causes_after`), and a
            // read of a long thread has as many candidates: the limits are polled per
            // proposal, not only per scheduled mutation.
            for w in cands {
                if self.rec.stopped() {
                    return;
                }
                self.rec.stats.smc.mutations += 1;
                muts.extend(mutation::direct(tr, r, w));
            }
            if g.label(r).is_exclusive_read() {
                for d in swap_partners(tr, r, admit) {
                    if self.rec.stopped() {
                        return;
                    }
                    self.rec.stats.smc.mutations += 1;
                    muts.extend(mutation::swap(tr, r, d));
                }
            }
            for m in muts {
                if self.rec.stopped() {
                    return;
                }
                self.schedule(tr, m, marked, slots);
            }
        }
    }

    /// Lines 17–21 for one mutation: if it is new to its read's schedule set and
    /// realisable, schedules it with the witness.
    fn schedule(
        &mut self,
        tr: &Trace<P>,
        m: mutation::Mutation,
        marked: &HashSet<EventId>,
        slots: &HashMap<EventId, usize>,
    ) {
        let g = tr.g();
        let slot = slots[&m.r];
        if !self.sets[slot].seen.insert(mutation::key(tr, &m)) {
            self.rec.stats.smc.duplicates += 1;
            return;
        }
        let (st2, unreported, fresh) = match mutation::plain_graph(tr, self.model, &m) {
            Some(mut g2) => {
                // The kept events with the parent's witness restricted to them are
                // consistent: the cheap check of `r` against that witness comes first.
                if !self
                    .co
                    .check_counted(&mut g2, m.r, &mut self.rec.stats.smc.witness)
                {
                    return;
                }
                let (st2, fresh) = mutation::with_threads(tr.st, g2, &m);
                (st2, fresh, fresh)
            }
            None => {
                let Some((mut st2, unreported, fresh)) =
                    mutation::build(tr, self.prog, self.model, &mut self.tids, &m)
                else {
                    return;
                };
                if !self.realisable(&mut st2.g) {
                    return;
                }
                (st2, unreported, fresh)
            }
        };
        let tau = mutation::tau_of(tr, &m);
        let mut marked2: HashSet<EventId> = marked
            .iter()
            .copied()
            .filter(|&e| st2.g.contains(e) && e != m.r)
            .collect();
        marked2.extend(m.after.iter().copied().filter(|&e| g.label(e).is_read()));
        let slots2 = slots
            .iter()
            .filter(|(e, _)| st2.g.contains(**e) && !marked2.contains(e))
            .map(|(e, s)| (*e, *s))
            .collect();
        self.sets[slot].todo.push(Schedule {
            st: st2,
            tau,
            fresh,
            unreported,
            marked: marked2,
            slots: slots2,
        });
        self.pending += 1;
        self.rec.stats.smc.peak_pending = self.rec.stats.smc.peak_pending.max(self.pending);
    }
}

impl<P: Program> RfSmc<'_, '_, P> {
    /// The realisability test (line 18) of a whole graph, counted: the model's exact
    /// check (VerifySC / VerifyTSO / VerifyPSO, each with its closure first); installs
    /// the witness.
    fn realisable(&mut self, g: &mut Graph) -> bool {
        let check = self.model.rf_check(g);
        self.rec.stats.smc.witness.record(&check);
        match check.witness {
            Some(co) => {
                rf::install(g, &co);
                true
            }
            None => false,
        }
    }
}

/// The exclusive reads `d` of `x`'s location that read a write `x` precedes in P and
/// pass `admit`: the partners of [`mutation::swap`].
fn swap_partners<P: Program>(
    tr: &Trace<P>,
    x: EventId,
    admit: impl Fn(EventId) -> bool,
) -> Vec<EventId> {
    let g = tr.g();
    let loc = g.label(x).loc().unwrap();
    g.loc_info(loc)
        .accesses
        .iter()
        .copied()
        .filter(|&d| {
            let l = g.label(d);
            d != x
                && l.is_exclusive_read()
                && admit(d)
                && l.rf().is_some_and(|s| mutation::precedes(tr, x, s))
        })
        .collect()
}

/// Whether some read of `loc` in `g` is exclusive (an RMW, compare-exchange, lock).
fn has_exclusive(g: &Graph, loc: porf_graph::Loc) -> bool {
    g.loc_info(loc)
        .accesses
        .iter()
        .any(|&e| g.label(e).is_exclusive_read())
}
