//! RF-SMC: the exploration-optimal reads-from stateless model checker of "The
//! Reads-From Equivalence for the TSO and PSO Memory Models" (Bui, Chatterjee, Gautam,
//! Pavlogiannis, Toman, OOPSLA 2021, Algorithm 3, §5), for `sc`, `tso` and `pso`.
//!
//! Each call takes a trace σ that realises a desired reads-from function, extends it
//! to a maximal trace ([`extend`]), counts it, and proposes *mutations* ([`mutation`]):
//! for every unmarked read `r` and every other write `w` of its location (only writes
//! of the extension when `r` precedes it), the events before `r`, the causal past of
//! `w` after `r`, and `r` reading `w`. A mutation new to the schedule set of `r` is
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
//! Invariant (exploration optimality): each reads-from class of maximal traces is
//! explored by exactly one call; [`crate::Config::collect_rf_classes`] lets tests count
//! repeats (`Stats::repeated_classes`).
//!
//! Read-modify-writes, compare-exchanges and locks are not handled yet: the first one
//! an extension meets ends the exploration with an `Unsupported` error (see
//! [`extend`]). Everything else porf models is: assumes (blocked traces counted as
//! blocked), spawn and join, assertion failures, data races and heap errors (reported
//! as each event is added, exactly as the graph explorers do), fences.

mod extend;
mod mutation;

use crate::coherence::{Coherence, Equiv};
use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::{Config, Stats};
use extend::{Extended, Extender};
use porf_graph::{EventId, Graph, LabelKind, Program};
use porf_models::rf::{self, DecidedBy, RfCheck};
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
    let mut ex = RfSmc {
        prog,
        model,
        co: Coherence::new(model, Equiv::Rf),
        rec: Recorder::new(cfg),
        tids: TidRegistry::default(),
        sets: Vec::new(),
        pending: 0,
    };
    let root = Schedule {
        st: State::new(prog, model),
        fresh: 0,
        marked: HashSet::new(),
        slots: HashMap::new(),
    };
    ex.call(root);
    ex.rec.finish()
}

/// A scheduled call: a trace realising a mutation (its co lists a witness).
struct Schedule<P: Program> {
    st: State<P>,
    /// Events with stamp `>= fresh` (the mutated read and what followed it) have not
    /// had their errors reported.
    fresh: usize,
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
            fresh,
            marked,
            mut slots,
        } = sched;
        self.rec.stats.smc.calls += 1;
        let fresh_events = st.g.insertion_order()[fresh..].to_vec();
        for e in fresh_events {
            self.extender().report(&st, e);
        }
        // The mutated read's consequences (its write part) belong to the extension.
        let base = fresh + 1;
        if self.extender().run_to_maximal(&mut st) == Extended::Stopped {
            return;
        }
        self.rec.maximal(&mut st, &self.co);
        if self.rec.stopped() {
            return;
        }
        let first = self.sets.len();
        let ext_reads: Vec<EventId> = st.g.insertion_order()[base..]
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
        self.mutate(&st, base, &marked, &slots);
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
    /// `st` (whose events from stamp `base` on are the extension) and schedules the
    /// realisable new ones.
    fn mutate(
        &mut self,
        st: &State<P>,
        base: usize,
        marked: &HashSet<EventId>,
        slots: &HashMap<EventId, usize>,
    ) {
        let g = &st.g;
        for (pos, &r) in g.insertion_order().iter().enumerate() {
            let LabelKind::Read { loc, rf: cur, .. } = g.label(r).kind else {
                continue;
            };
            if marked.contains(&r) {
                continue;
            }
            let in_ext = pos >= base;
            let writes = g.loc_info(loc).accesses.iter().copied().filter(|&w| {
                let l = g.label(w);
                l.is_write() && (in_ext || l.stamp as usize >= base)
            });
            let cands = in_ext
                .then_some(None)
                .into_iter()
                .chain(writes.map(Some))
                .filter(|&w| w != cur);
            for w in cands {
                if self.rec.stopped() {
                    return;
                }
                self.rec.stats.smc.mutations += 1;
                if let Some(m) = mutation::direct(g, r, w) {
                    self.schedule(st, m, marked, slots);
                }
            }
        }
    }

    /// Lines 17–21 for one mutation: if it is new to its read's schedule set and
    /// realisable, schedules it with the witness.
    fn schedule(
        &mut self,
        st: &State<P>,
        m: mutation::Mutation,
        marked: &HashSet<EventId>,
        slots: &HashMap<EventId, usize>,
    ) {
        let g = &st.g;
        let slot = slots[&m.r];
        if !self.sets[slot].seen.insert(mutation::key(g, &m)) {
            self.rec.stats.smc.duplicates += 1;
            return;
        }
        let mut g2 = mutation::graph(g, self.model, &m);
        if !self.realisable(&mut g2, m.r) {
            return;
        }
        let (st2, fresh) = mutation::with_threads(st, g2, &m);
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
            fresh,
            marked: marked2,
            slots: slots2,
        });
        self.pending += 1;
        self.rec.stats.smc.peak_pending = self.rec.stats.smc.peak_pending.max(self.pending);
    }
}

impl<P: Program> RfSmc<'_, '_, P> {
    /// The realisability test (line 18), counted: the model's cheap staleness check of
    /// the mutated read `r`, then its exact check (VerifySC / VerifyTSO / VerifyPSO,
    /// each with its closure first); installs the witness.
    fn realisable(&mut self, g: &mut Graph, r: EventId) -> bool {
        let check = if self.model.reads_stale(g, r) {
            RfCheck::refuted(DecidedBy::Precheck)
        } else {
            self.model.rf_check(g)
        };
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
