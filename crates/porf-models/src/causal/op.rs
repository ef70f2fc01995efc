//! The operational memory systems opWRA and opSRA of Lahav and Boker, "What's
//! Decidable About Causally Consistent Shared Memory?" (TOPLAS 2022, §4), as a checker
//! independent of the declarative definitions: does some run of the memory system
//! build a given execution graph?
//!
//! A state of opWRA/opSRA is an execution graph; a step appends one event to a
//! thread, under the preconditions of §4 (for thread τ, "τ is aware of a" means `a`
//! is in the hb prefix of τ's latest event — `hb?; [E^τ]`):
//!
//! * opWRA — WRITE: always. READ of `w`: τ is aware of no write `w'` of the location
//!   with `w hb w'` (the initialisation is hb-before every write). RMW: as READ, and
//!   no RMW already read `w`.
//! * opSRA — WRITE: placed mo-after every write of its location so far. READ of `w`:
//!   τ is aware of no write mo-after `w`. RMW: `w` is the mo-latest write of its
//!   location; placed mo-after every write so far.
//!
//! porf's graphs have more than the paper's: an RMW is a read part and a write part
//! (added here in one step, as the paper's single RMW event), a failed CAS is a plain
//! read, and spawns, joins, fences, mallocs, finishes, blocks and errors are silent
//! steps that add their event once its sync sources are there (a thread starts after
//! its spawn, a join after the child's last event). hb is (po ∪ rf ∪ sync)⁺: the
//! porf views the graph itself maintains (the hb views models store are not read).
//! The initialisation is a write present in the initial state, mo-first.
//!
//! Since a run's state is the sub-graph of the target induced by the events added so
//! far (opSRA's WRITE order must be the target's co, so its mo is the target's too),
//! a state is a vector of thread prefix lengths: [`accepts`] searches them depth
//! first, each visited once. Plain reads and silent steps are taken greedily when
//! enabled: they change no other thread's preconditions and their own stay enabled.

use crate::atomicity;
use porf_graph::{EventId, Graph, LabelKind};
use std::collections::HashSet;

/// Which memory system.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum System {
    /// opWRA: the graph's events and rf (its co is not read).
    OpWra,
    /// opSRA: the graph's events, rf and co (as mo).
    OpSra,
}

/// Whether some run of `sys` generates `g` (for opSRA, with mo = `g`'s co).
pub fn accepts(sys: System, g: &Graph) -> bool {
    let mut m = Machine {
        sys,
        g,
        seen: HashSet::new(),
    };
    let mut st = vec![0u32; g.num_threads() as usize];
    m.run(&mut st)
}

struct Machine<'g> {
    sys: System,
    g: &'g Graph,
    /// States already explored (all failed).
    seen: HashSet<Vec<u32>>,
}

/// What the next event of a thread is, as a step of the memory system.
enum Step {
    Silent,
    Write,
    Read,
    /// An RMW: the read part (the thread's next event) and its write part.
    Rmw,
}

impl Machine<'_> {
    fn added(st: &[u32], e: EventId) -> bool {
        e.idx < st[e.tid as usize]
    }

    fn kind(&self, e: EventId) -> Step {
        match self.g.label(e).kind {
            LabelKind::Read { .. } if atomicity::has_write_part(self.g, e) => Step::Rmw,
            LabelKind::Read { .. } => Step::Read,
            LabelKind::Write { .. } => Step::Write,
            _ => Step::Silent,
        }
    }

    /// Whether thread `tid`'s latest added event is hb-after-or-equal `a` (τ is aware
    /// of `a`).
    fn aware(&self, st: &[u32], tid: u32, a: EventId) -> bool {
        let n = st[tid as usize];
        if n == 0 {
            return false;
        }
        let last = EventId::new(tid, n - 1);
        self.hb(a, last)
    }

    /// `a hb? b`: `a` is in `b`'s porf prefix (reflexive).
    fn hb(&self, a: EventId, b: EventId) -> bool {
        self.g.label(b).porf.contains(a)
    }

    /// The writes of `e`'s location added so far.
    fn added_writes<'a>(&'a self, st: &'a [u32], e: EventId) -> impl Iterator<Item = EventId> + 'a {
        let loc = self.g.label(e).loc().unwrap();
        self.g
            .loc_info(loc)
            .accesses
            .iter()
            .copied()
            .filter(move |&w| self.g.label(w).is_write() && Self::added(st, w))
    }

    /// co position (0 = initialisation).
    fn pos(&self, w: Option<EventId>) -> usize {
        self.g.co_pos(w)
    }

    /// Whether the next event `e` of its thread can be added in state `st`.
    fn enabled(&self, st: &[u32], e: EventId) -> bool {
        let g = self.g;
        let lab = g.label(e);
        // Sync sources.
        match lab.kind {
            LabelKind::Start { parent: Some(p) } if !Self::added(st, p) => return false,
            LabelKind::Join { child } => {
                let Some(fin) = g.last_of(child) else {
                    return false;
                };
                if !Self::added(st, fin) {
                    return false;
                }
            }
            _ => {}
        }
        match self.kind(e) {
            Step::Silent => true,
            Step::Write => self.write_ok(st, e),
            Step::Read | Step::Rmw => {
                let w = lab.rf();
                if w.is_some_and(|w| !Self::added(st, w)) {
                    return false;
                }
                let rmw = matches!(self.kind(e), Step::Rmw);
                match self.sys {
                    System::OpWra => {
                        // w ∉ dom(hb|loc; [W]; hb?; [E^τ]).
                        let overwritten = self.added_writes(st, e).any(|w2| {
                            Some(w2) != w
                                && self.aware(st, e.tid, w2)
                                && w.is_none_or(|w| self.hb(w, w2))
                        });
                        // w ∉ dom(rf; [RMW]).
                        let taken = rmw
                            && g.readers(lab.loc().unwrap(), w).iter().any(|&o| {
                                o != e && Self::added(st, o) && atomicity::has_write_part(g, o)
                            });
                        !overwritten && !taken
                    }
                    System::OpSra if rmw => {
                        // w = max_mo W_x, and the write part goes mo-last.
                        let p = self.pos(w);
                        self.added_writes(st, e).all(|w2| self.pos(Some(w2)) <= p)
                            && self.write_ok(st, e.next())
                    }
                    System::OpSra => {
                        // w ∉ dom(mo; hb?; [E^τ]).
                        let p = self.pos(w);
                        !self
                            .added_writes(st, e)
                            .any(|w2| self.pos(Some(w2)) > p && self.aware(st, e.tid, w2))
                    }
                }
            }
        }
    }

    /// A WRITE step adding `w`: in opSRA it goes mo-after every write of its location
    /// so far, which must make the target's co: the writes added so far are exactly
    /// its co-predecessors.
    fn write_ok(&self, st: &[u32], w: EventId) -> bool {
        match self.sys {
            System::OpWra => true,
            System::OpSra => {
                let p = self.pos(Some(w));
                let loc = self.g.label(w).loc().unwrap();
                self.g
                    .co(loc)
                    .iter()
                    .enumerate()
                    .all(|(i, &w2)| w2 == w || (i + 1 < p) == Self::added(st, w2))
            }
        }
    }

    /// Takes the step of thread `t` (its next event, and for an RMW the write part).
    fn step(&self, st: &mut [u32], t: usize) {
        let e = EventId::new(t as u32, st[t]);
        st[t] += if matches!(self.kind(e), Step::Rmw) {
            2
        } else {
            1
        };
    }

    fn done(&self, st: &[u32]) -> bool {
        (0..st.len()).all(|t| st[t] == self.g.thread_len(t as u32))
    }

    fn run(&mut self, st: &mut [u32]) -> bool {
        // Greedy: silent steps and plain reads.
        loop {
            let mut moved = false;
            for t in 0..st.len() {
                while st[t] < self.g.thread_len(t as u32) {
                    let e = EventId::new(t as u32, st[t]);
                    if !matches!(self.kind(e), Step::Silent | Step::Read) || !self.enabled(st, e) {
                        break;
                    }
                    self.step(st, t);
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        if self.done(st) {
            return true;
        }
        if !self.seen.insert(st.to_vec()) {
            return false;
        }
        for t in 0..st.len() {
            if st[t] == self.g.thread_len(t as u32) {
                continue;
            }
            let e = EventId::new(t as u32, st[t]);
            if !self.enabled(st, e) {
                continue;
            }
            let mut next = st.to_vec();
            self.step(&mut next, t);
            if self.run(&mut next) {
                return true;
            }
        }
        false
    }
}
