//! The closure of a VerifyPSO instance (§4.3 of "The Reads-From Equivalence for the TSO
//! and PSO Memory Models"): a partial order `P` on the nodes of a PSO trace that every
//! witness trace respects, used as a pre-check — if `P` has a cycle there is no witness.
//! Sound, not complete: an acyclic `P` does not mean there is a witness (the search
//! decides).
//!
//! Nodes: one per *step* of the instance (a thread event; the two parts of an RMW are
//! one locked step), then one *memory node* per buffered write (its memory-write). A
//! locked write's memory-write is its step. Base pairs, each true of every trace of
//! [`Instance`]'s semantics (see `prefix.rs`):
//!
//! * program order between consecutive steps of a thread; a spawn before its child's
//!   first step, a child's last step before a join of it;
//! * a buffered write's step before its memory node;
//! * per-location FIFO and store-store barriers: the memory node of an earlier buffered
//!   write of the same thread before that of a later one, if they share the location or
//!   the earlier one has fewer store-store barriers before it;
//! * a full fence or a locked step after the memory nodes of its thread's earlier
//!   buffered writes (it drains the buffers);
//! * a read of another thread's write after that write's memory node, and after the
//!   memory node of its own thread's last earlier write to the location (it reads
//!   memory, so its own buffer for the location is empty).
//!
//! Closure rules, for every read step `r` of `x` whose source has memory node `s` (the
//! initialisation: before everything) and every other memory node `m` of `x` (not the
//! write part of `r`'s own locked step): `m <P r ⇒ m <P s` and `s <P m ⇒ r <P m`
//! ([`crate::rf::closure::implies`]). They hold in every trace: a read of a remote
//! write, or of the initialisation, or a locked read, reads memory, where `s` is the
//! last write of `x`; a read of its own thread's (latest) write `s` either reads its
//! buffer, before `s`'s memory-write — then `m <P r` gives `m < s` and `s < m` gives
//! `r < m` — or reads memory with `s` last. The paper's rule (1)(ii) (a reader's own
//! earlier writes reach memory before its remote source) follows from the base pair
//! and the first rule. RMW atomicity is the same rule: a locked step's write is its
//! read's node, so no memory node of `x` falls between the source and the write.

use super::instance::{Instance, Src, StepKind, Wait, WriteId};
use crate::relation::Relation;
use crate::rf::closure::implies;

/// The nodes of an instance's trace.
struct Nodes {
    /// Per thread: its first step's node.
    step_off: Vec<usize>,
    /// Per write: its memory node (its step's node for a locked write).
    memory: Vec<usize>,
    len: usize,
}

impl Nodes {
    fn new(inst: &Instance) -> Nodes {
        let mut step_off = Vec::with_capacity(inst.threads());
        let mut len = 0;
        for steps in &inst.steps {
            step_off.push(len);
            len += steps.len();
        }
        let mut memory = Vec::with_capacity(inst.writes.len());
        for w in &inst.writes {
            if w.locked {
                memory.push(step_off[w.thread] + w.step as usize);
            } else {
                memory.push(len);
                len += 1;
            }
        }
        Nodes {
            step_off,
            memory,
            len,
        }
    }
    fn step(&self, t: usize, step: u32) -> usize {
        self.step_off[t] + step as usize
    }
}

/// Whether the closure of `inst` exists (`false`: it has a cycle, and no PSO trace
/// realises the instance).
pub(super) fn closure_exists(inst: &Instance) -> bool {
    closure(inst).is_some()
}

/// The closure of `inst` over its nodes, transitively closed, or `None` on a cycle.
fn closure(inst: &Instance) -> Option<Relation> {
    let nodes = Nodes::new(inst);
    let mut base = Relation::empty(nodes.len);
    for (a, b) in base_pairs(inst, &nodes) {
        base.add(a, b);
    }
    let mut p = base.closure();
    if !p.is_irreflexive() {
        return None;
    }
    let mut loc_writes: Vec<Vec<WriteId>> = vec![Vec::new(); inst.locs.len()];
    for (w, wr) in inst.writes.iter().enumerate() {
        loc_writes[wr.loc].push(w);
    }
    loop {
        let mut changed = false;
        for rd in &inst.reads {
            let r = nodes.step(rd.thread, rd.step);
            let s = match rd.src {
                Src::Init => None,
                Src::Write(w) => Some(nodes.memory[w]),
            };
            for &w in &loc_writes[rd.loc] {
                let m = nodes.memory[w];
                if Some(m) == s || m == r {
                    continue;
                }
                changed |= implies(&mut p, s, m, r)?;
            }
        }
        if !changed {
            return Some(p);
        }
    }
}

/// The base pairs (see the module documentation).
fn base_pairs(inst: &Instance, nodes: &Nodes) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (t, steps) in inst.steps.iter().enumerate() {
        for (i, step) in steps.iter().enumerate() {
            let v = nodes.step(t, i as u32);
            if i > 0 {
                out.push((v - 1, v));
            }
            match step.wait {
                Wait::None => {}
                Wait::Spawn(p) => {
                    let pt = p.tid as usize;
                    out.push((nodes.step(pt, inst.step_of[pt][p.idx as usize]), v));
                }
                Wait::Thread(c) => {
                    if let Some(last) = inst.steps[c].len().checked_sub(1) {
                        out.push((nodes.step(c, last as u32), v));
                    }
                }
            }
            if matches!(step.kind, StepKind::Fence | StepKind::Locked { .. }) {
                let before = inst.buffered[t]
                    .iter()
                    .take_while(|&&w| (inst.writes[w].step as usize) < i);
                out.extend(before.map(|&w| (nodes.memory[w], v)));
            }
        }
        let buffered = &inst.buffered[t];
        for (j, &w) in buffered.iter().enumerate() {
            let wr = &inst.writes[w];
            out.push((nodes.step(t, wr.step), nodes.memory[w]));
            for &o in &buffered[..j] {
                let or = &inst.writes[o];
                if or.loc == wr.loc || or.barriers < wr.barriers {
                    out.push((nodes.memory[o], nodes.memory[w]));
                }
            }
        }
    }
    for rd in &inst.reads {
        let Src::Write(s) = rd.src else { continue };
        if inst.writes[s].thread != rd.thread {
            let r = nodes.step(rd.thread, rd.step);
            out.push((nodes.memory[s], r));
            if let Some(o) = rd.own_before {
                out.push((nodes.memory[o], r));
            }
        }
    }
    out
}
