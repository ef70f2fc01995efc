//! rf mode for SRA: is there a co making an (events, rf) graph SRA-consistent?
//!
//! By the proof of Thm. 4.9 of Lahav and Boker (TOPLAS 2022), a graph is
//! SRA-consistent iff some linearisation `L` of `hb ∪ mo` exists, mo being the order
//! in which `L` lists each location's writes. Without a given mo this reads: some
//! linearisation `L` of hb such that
//!
//! 1. (read-coherence) for each read `r` of a write `w` of `x`, every other write of
//!    `x` in hb before `r` comes before `w` in `L` — a fixed set of precedence edges
//!    between writes (a read of the initialisation with such a write refutes at once);
//! 2. (atomicity) an RMW's write part comes right after its source among the writes
//!    of its location: when `L` reaches it, its source is the latest write of `x`.
//!
//! Then mo := `L` per location is a witness ((hb ∪ mo) ⊆ L is acyclic), and
//! conversely any linearisation of a consistent `hb ∪ mo` satisfies both. The search
//! builds `L` thread prefix by thread prefix: events other than writes are scheduled
//! greedily (they change neither the latest writes nor the precedences, so
//! scheduling one never hurts), writes are branched on, and failed states — (thread
//! prefixes, latest write per location) — are remembered. The number of states is
//! polynomial for a fixed number of threads (and locations).

use crate::atomicity;
use crate::rf::CoWitness;
use porf_graph::{EventId, Graph, LabelKind, Loc};
use std::collections::{HashMap, HashSet};

/// Some co under which `g` is SRA-consistent, or `None`. Uses the hb views stored in
/// `g` (hb = porf); ignores its co lists.
pub(crate) fn search(g: &Graph) -> Option<CoWitness> {
    let mut s = Search::new(g)?;
    let nthreads = g.num_threads() as usize;
    let mut sched = vec![0u32; nthreads];
    let mut latest: HashMap<Loc, Option<EventId>> = s.locs.iter().map(|&l| (l, None)).collect();
    let mut order = Vec::new();
    if !s.go(&mut sched, &mut latest, &mut order) {
        return None;
    }
    let mut co: CoWitness = s.locs.iter().map(|&l| (l, Vec::new())).collect();
    for w in order {
        let loc = g.label(w).loc().unwrap();
        let i = s.locs.binary_search(&loc).unwrap();
        co[i].1.push(w);
    }
    Some(co)
}

struct Search<'g> {
    g: &'g Graph,
    /// The locations with writes, sorted.
    locs: Vec<Loc>,
    /// Writes that must come before each write (read-coherence).
    before: HashMap<EventId, Vec<EventId>>,
    /// The source of each RMW write part (`None` = the initialisation).
    source: HashMap<EventId, Option<EventId>>,
    /// The RMW write part reading each source, per location.
    rmw_of: HashMap<(Loc, Option<EventId>), EventId>,
    failed: HashSet<(Vec<u32>, Vec<Option<EventId>>)>,
}

impl<'g> Search<'g> {
    /// The precedences; `None` if they already refute the graph (a read of the
    /// initialisation after a write of its location, or two RMWs on one source).
    fn new(g: &'g Graph) -> Option<Search<'g>> {
        let mut locs: Vec<Loc> = g.locations().map(|(l, _)| *l).collect();
        locs.sort();
        let mut before: HashMap<EventId, Vec<EventId>> = HashMap::new();
        let mut source = HashMap::new();
        let mut rmw_of = HashMap::new();
        for (e, lab) in g.events() {
            let LabelKind::Read { loc, rf, .. } = lab.kind else {
                continue;
            };
            let hb_writes = g
                .loc_info(loc)
                .accesses
                .iter()
                .copied()
                .filter(|&w| Some(w) != rf && g.label(w).is_write() && lab.hb.contains(w));
            match rf {
                None => {
                    if hb_writes.count() > 0 {
                        return None;
                    }
                }
                Some(w) => before.entry(w).or_default().extend(hb_writes),
            }
            if atomicity::has_write_part(g, e) {
                let xw = e.next();
                source.insert(xw, rf);
                if rmw_of.insert((loc, rf), xw).is_some() {
                    return None;
                }
            }
        }
        Some(Search {
            g,
            locs,
            before,
            source,
            rmw_of,
            failed: HashSet::new(),
        })
    }

    /// Whether `e` (the next event of its thread) may be scheduled: its strict hb
    /// prefix is scheduled and, for a write, its precedences and atomicity hold.
    fn ready(&self, e: EventId, sched: &[u32], latest: &HashMap<Loc, Option<EventId>>) -> bool {
        let lab = self.g.label(e);
        let hb_done =
            (0..sched.len() as u32).all(|t| t == e.tid || lab.hb.get(t) <= sched[t as usize]);
        if !hb_done {
            return false;
        }
        let Some(loc) = lab.loc().filter(|_| lab.is_write()) else {
            return true;
        };
        let done = |w: &EventId| w.idx < sched[w.tid as usize];
        if !self.before.get(&e).is_none_or(|ws| ws.iter().all(done)) {
            return false;
        }
        let last = latest[&loc];
        match self.source.get(&e) {
            Some(&src) => src == last,
            // A plain write must not come between a write and the RMW reading it.
            None => !self.rmw_of.contains_key(&(loc, last)),
        }
    }

    /// Extends the schedule to every event; `order` collects the writes scheduled.
    fn go(
        &mut self,
        sched: &mut Vec<u32>,
        latest: &mut HashMap<Loc, Option<EventId>>,
        order: &mut Vec<EventId>,
    ) -> bool {
        let g = self.g;
        let saved = sched.clone();
        // Greedy: every ready event that is not a write.
        loop {
            let mut moved = false;
            for t in 0..sched.len() {
                while sched[t] < g.thread_len(t as u32) {
                    let e = EventId::new(t as u32, sched[t]);
                    if g.label(e).is_write() || !self.ready(e, sched, latest) {
                        break;
                    }
                    sched[t] += 1;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        if (0..sched.len()).all(|t| sched[t] == g.thread_len(t as u32)) {
            return true;
        }
        let key = (sched.clone(), self.locs.iter().map(|l| latest[l]).collect());
        if !self.failed.contains(&key) {
            for t in 0..sched.len() {
                if sched[t] == g.thread_len(t as u32) {
                    continue;
                }
                let w = EventId::new(t as u32, sched[t]);
                if !g.label(w).is_write() || !self.ready(w, sched, latest) {
                    continue;
                }
                let loc = g.label(w).loc().unwrap();
                let prev = latest.insert(loc, Some(w)).unwrap();
                sched[t] += 1;
                order.push(w);
                if self.go(sched, latest, order) {
                    return true;
                }
                order.pop();
                sched[t] -= 1;
                latest.insert(loc, prev);
            }
            self.failed.insert(key);
        }
        *sched = saved;
        false
    }
}
