//! RF-partSMC: the space-optimal variant of RF-SMC ("The Reads-From Equivalence for the
//! TSO and PSO Memory Models", App. C, Algorithm 4).
//!
//! A call extends its trace by every event that is not a read, then, thread by thread,
//! takes the thread's next read `r` and, for every write `r` may read from that the
//! *causal map* does not forbid, tests the trace extended by `r` reading that write for
//! realisability and recurses on it at once (nothing is stored for later). After a
//! thread is done, the causal map records, for `r`, how long every thread's local trace
//! was: a later sibling (or its descendants) must not make `r` read a write among
//! those, which this thread's branch already tried. A call with no read left to add is
//! a maximal trace and is counted.
//!
//! Space: one trace (truncated back after each child) plus one causal map, with at most
//! one entry per read of the trace, shared by the levels of the recursion: each level
//! sees its parent's map with its own entries added (the paper's copy per call), which
//! an undo log takes back when the level returns — linear in the length of the trace,
//! whatever the number of classes. The price is calls on partial traces
//! (`SmcStats::calls` counts them too).
//!
//! The realisability test is the graph explorer's rf-mode check
//! ([`crate::coherence::Coherence::check`]): the previous witness extended by the new
//! read (the model's incremental check), else the model's exact check (VerifySC,
//! VerifyTSO, VerifyPSO). RMWs and lock acquires: the read's write part (or block) is
//! added with the read, and must sit right after its source (atomicity). The initialisation counts as a write of
//! its own pseudo-thread, of length one.

use super::extend::Extender;
use crate::coherence::{Coherence, Equiv};
use crate::mixed_size;
use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::step::{self, Access, AfterRead, Step};
use crate::{Config, Stats};
use porf_graph::{AccessClass, Action, EventId, Program, Tid};
use porf_models::{atomicity, MemoryModel};
use std::collections::HashMap;

/// The causal map: for a read, the length of every thread's local trace when its
/// sources were last tried (and whether the initialisation was among them); sources
/// among those are forbidden. The entries changed since a [`CausalMap::mark`] are
/// logged with their old values, so that [`CausalMap::rollback`] gives a call's
/// caller its map back as it was (as if the call had worked on a copy).
#[derive(Default)]
struct CausalMap {
    map: HashMap<EventId, Tried>,
    log: Vec<(EventId, Option<Tried>)>,
}

impl CausalMap {
    fn get(&self, r: &EventId) -> Option<&Tried> {
        self.map.get(r)
    }
    fn insert(&mut self, r: EventId, t: Tried) {
        let old = self.map.insert(r, t);
        self.log.push((r, old));
    }
    fn mark(&self) -> usize {
        self.log.len()
    }
    /// Undoes every insertion since `mark`.
    fn rollback(&mut self, mark: usize) {
        while self.log.len() > mark {
            let (r, old) = self.log.pop().expect("log longer than the mark");
            match old {
                Some(t) => self.map.insert(r, t),
                None => self.map.remove(&r),
            };
        }
    }
}

#[derive(Clone, Debug, Default)]
struct Tried {
    lens: Vec<u32>,
    init: bool,
}

/// Runs RF-partSMC. The model must be one of [`super::MODELS`].
pub fn explore<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let mut ex = Part {
        prog,
        model,
        co: Coherence::new(model, Equiv::Rf),
        rec: Recorder::new(cfg, model),
        tids: TidRegistry::default(),
    };
    let mut st = State::new(prog, model);
    ex.call(&mut st, &mut CausalMap::default());
    ex.rec.finish()
}

struct Part<'a, 'c, P: Program> {
    prog: &'a P,
    model: &'a dyn MemoryModel,
    co: Coherence<'a>,
    rec: Recorder<'c>,
    tids: TidRegistry,
}

impl<'a, 'c, P: Program> Part<'a, 'c, P> {
    fn extender(&mut self) -> Extender<'a, '_, 'c, P> {
        Extender {
            prog: self.prog,
            model: self.model,
            co: self.co,
            rec: &mut self.rec,
            tids: &mut self.tids,
        }
    }

    /// One call of Algorithm 4 on the (realisable) trace `st`, whose co is a witness,
    /// with the causal map `cmap` (given back as it was). Leaves events behind: the
    /// caller truncates.
    fn call(&mut self, st: &mut State<P>, cmap: &mut CausalMap) {
        let mark = cmap.mark();
        self.call_here(st, cmap);
        cmap.rollback(mark);
    }

    fn call_here(&mut self, st: &mut State<P>, cmap: &mut CausalMap) {
        self.rec.stats.smc.calls += 1;
        // Line 1: extend by every event that is not a read.
        loop {
            self.rec.tick(&st.g);
            if self.rec.stopped() {
                return;
            }
            let next = (0..st.g.num_threads()).find_map(|t| {
                let a = st.enabled_action(t)?;
                // A read mixed with the graph's accesses is performed as its error.
                (!is_read(&a) || mixed_size::violation(&st.g, &a).is_some()).then_some((t, a))
            });
            let Some((t, a)) = next else { break };
            self.rec.tick(&st.g);
            self.extender().step_thread(st, t, a);
        }
        if self.rec.stopped() {
            return;
        }
        let reads: Vec<(Tid, Action)> = (0..st.g.num_threads())
            .filter_map(|t| st.enabled_action(t).map(|a| (t, a)))
            .collect();
        if reads.is_empty() {
            self.rec.maximal(self.prog, st, &self.co);
            return;
        }
        let stamp = st.g.len();
        for (t, action) in reads {
            let r = EventId::new(t, st.g.thread_len(t));
            let loc = match action {
                Action::Load { loc, .. }
                | Action::Rmw { loc, .. }
                | Action::Lock { loc, .. }
                | Action::TryLock { loc, .. } => loc,
                _ => unreachable!("not a read: {action:?}"),
            };
            let tried = cmap.get(&r).cloned().unwrap_or_default();
            let allowed = |w: Option<EventId>| match w {
                None => !tried.init,
                Some(w) => w.idx >= tried.lens.get(w.tid as usize).copied().unwrap_or(0),
            };
            st.g.ensure_loc(loc, self.prog.init_value(loc), self.prog.block_of(loc));
            // The allowed sources: of each thread, the writes beyond the length the
            // causal map recorded (found through the location's per-thread index), in
            // insertion order.
            let info = st.g.loc_info(loc);
            let mut writes: Vec<EventId> = Vec::new();
            for u in 0..info.thread_slots() {
                let from = tried.lens.get(u as usize).copied().unwrap_or(0);
                for c in [AccessClass::NaWrite, AccessClass::AtomicWrite] {
                    writes.extend(
                        info.thread_accesses(u, c, from)
                            .iter()
                            .map(|&i| EventId::new(u, i)),
                    );
                }
            }
            writes.sort_by_key(|&w| st.g.label(w).stamp);
            let sources: Vec<Option<EventId>> = std::iter::once(None)
                .chain(writes.into_iter().map(Some))
                .filter(|&w| allowed(w))
                .collect();
            for w in sources {
                if self.rec.stopped() {
                    return;
                }
                self.rec.stats.smc.mutations += 1;
                if self.add_read(st, t, action.clone(), w) {
                    let fresh = st.g.insertion_order()[stamp..].to_vec();
                    for e in fresh {
                        self.extender().report(st, e);
                    }
                    self.call(st, cmap);
                }
                st.truncate(stamp);
            }
            // Lines 12–14: `r`'s sources among the current local traces are done.
            let lens = (0..st.g.num_threads())
                .map(|t| st.g.thread_len(t))
                .collect();
            cmap.insert(r, Tried { lens, init: true });
        }
    }

    /// Adds thread `t`'s next action, a read, reading from `w`, with what follows from
    /// it, and tests the result for realisability (installing the witness). False if it
    /// is not realisable (the caller truncates either way).
    fn add_read(&mut self, st: &mut State<P>, t: Tid, action: Action, w: Option<EventId>) -> bool {
        let Step::Access(a @ Access::Read { ord, .. }) =
            step::perform(st, self.prog, self.model, &mut self.tids, t, action)
        else {
            unreachable!("the next action of T{t} is not a read")
        };
        let r = st.g.add(t, a.label(), a.src());
        step::set_source(self.model, &mut st.g, r, w, ord);
        // The previous witness extended by `r` (the model's incremental check), else
        // the exact check; then the write part, which must sit right after its source.
        let stats = &mut self.rec.stats.smc.witness;
        self.co.check_counted(&mut st.g, r, stats)
            && match step::after_read(st, self.model, r) {
                AfterRead::WritePart(val) => {
                    let wp = step::add_write_part(st, self.model, r, val);
                    !atomicity::violated_by(&st.g, wp)
                        && self.co.check_counted(&mut st.g, wp, stats)
                }
                _ => true,
            }
    }
}

/// Whether an action is a read (a load, an RMW, a lock or trylock acquire).
fn is_read(a: &Action) -> bool {
    matches!(
        a,
        Action::Load { .. } | Action::Rmw { .. } | Action::Lock { .. } | Action::TryLock { .. }
    )
}
