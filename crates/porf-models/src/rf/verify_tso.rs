//! VerifyTSO: the exact reads-from consistency check for porf's `tso`, after "The
//! Reads-From Equivalence for the TSO and PSO Memory Models" (Bui, Chatterjee, Gautam,
//! Pavlogiannis, Toman, OOPSLA 2021): Algorithm 1 over two-phase writes (§2.1), with
//! the closure of §4.3 as a pre-check that also prunes the search.
//!
//! The question: given (events, po, rf), is there an x86-TSO trace whose reads read
//! from exactly those writes? If so the order of the trace's memory events per location
//! is a coherence order under which [`Tso`](crate::tso::Tso)'s `is_consistent` holds
//! (x86-TSO's operational and axiomatic definitions agree: "A Better x86 Memory Model:
//! x86-TSO", Owens, Sarkar, Sewell, TPHOLs 2009), and that is the returned witness. The
//! acceptance test (`tests/rf_tso.rs`) checks the answer against brute force over
//! coherence orders with porf's declarative check.
//!
//! # porf's graph as a TSO trace
//!
//! Every porf event is a *thread event*, executed by its thread in po order. A porf
//! write is two-phase: its thread event is the *buffer event* (enqueue in the thread's
//! FIFO store buffer) and it has a *memory event* (dequeue into shared memory), which
//! is when other threads can see it. A read reads its thread's po-latest buffered write
//! of its location if one is still in the buffer, else memory. Mapping porf's `tso`
//! (see [`crate::tso`]) onto these traces:
//!
//! * barriers — seq_cst fences, seq_cst writes (`xchg`), both parts of RMWs, locks and
//!   trylocks (also the read of a failed compare-exchange or of a taken lock), and the
//!   thread-structure and allocation events (`Start`, `Spawn`, `Join`, `Finish`,
//!   `Block`, `Error`, `Malloc`, `Free`) — wait until their thread's buffer is empty;
//!   a barrier write's memory event also precedes its thread's next thread event, so
//!   it goes straight to memory. Non-seq_cst fences constrain nothing;
//! * non-atomic accesses are plain accesses: TSO does not distinguish memory orders
//!   beyond the above;
//! * an RMW (read part then exclusive write part) is atomic: once its read part has
//!   run, its location is reserved for its write part's memory event. A read part with
//!   no write part (failed compare-exchange) is a barrier read;
//! * a spawn precedes its child's `Start`, and a thread's last event precedes every
//!   `Join` of it, as in porf's `sync`; spawn, start and join are barriers, so these
//!   synchronise like fences (a joined thread's buffer is drained by its `Finish`);
//! * a read of the initialisation (`rf = None`) reads memory before any memory event of
//!   its location, with no write of its own thread to the location before it.
//!
//! The `co` lists stored in the graph are ignored; hb views are not used.
//!
//! # Cost
//!
//! Theorem 3.1 of the paper: O(k · n^(k+1)) for n events and k threads — at most
//! n^k lower sets of memory events, k successors each, O(n) to saturate one. Here a
//! lower set is a vector of per-thread buffer prefixes, so the states are at most
//! ∏ₜ (writesₜ + 1). The closure is polynomial: over N nodes (events plus writes) each
//! of at most N² added pairs costs O(N²/64), and each round of its fixpoint checks
//! every (read, write of its location) pair.

mod closure;
mod instance;
mod search;
#[cfg(test)]
mod tests;

use super::CoWitness;
use porf_graph::Graph;

/// Which heuristics to use (the answer never depends on them).
#[derive(Copy, Clone, Debug)]
pub struct Options {
    /// Compute the closure of §4.3 first: reject at once if it has a cycle, and
    /// restrict the search to traces that respect it.
    pub closure: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { closure: true }
    }
}

pub use super::DecidedBy;

/// The answer with how it was reached.
#[derive(Clone, Debug)]
pub struct Report {
    /// A coherence order of a witness trace, if there is one.
    pub witness: Option<CoWitness>,
    pub decided_by: DecidedBy,
    /// Lower sets of memory events the search explored.
    pub states: usize,
}

/// [`verify_tso_with`] with the default options, as an [`RfCheck`](super::RfCheck).
pub fn verify_tso_check(g: &Graph) -> super::RfCheck {
    let r = verify_tso_with(g, Options::default());
    super::RfCheck {
        witness: r.witness,
        decided_by: r.decided_by,
    }
}

/// Some coherence order under which `g` is consistent under porf's `tso`, if there is
/// one (exact: agrees with [`super::brute_force`]).
pub fn verify_tso(g: &Graph) -> Option<CoWitness> {
    verify_tso_with(g, Options::default()).witness
}

/// [`verify_tso`] with explicit [`Options`], reporting how the answer was reached.
pub fn verify_tso_with(g: &Graph, opts: Options) -> Report {
    let report = |witness, decided_by, states| Report {
        witness,
        decided_by,
        states,
    };
    let Some(inst) = instance::build(g) else {
        return report(None, DecidedBy::Precheck, 0);
    };
    let needs = if opts.closure {
        let Some(p) = closure::closure(&inst) else {
            return report(None, DecidedBy::Closure, 0);
        };
        let pairs = (0..p.size()).flat_map(|a| p.successors(a).map(move |b| (a, b)));
        search::Needs::new(&inst.nodes, pairs.collect::<Vec<_>>())
    } else {
        search::Needs::new(&inst.nodes, inst.base.iter().copied())
    };
    let out = search::run(&inst, &needs);
    let witness = out.trace.map(|trace| {
        let mut co: CoWitness = inst.locs.iter().map(|&l| (l, Vec::new())).collect();
        for w in trace {
            let w = &inst.writes[w];
            co[w.loc].1.push(w.event);
        }
        co
    });
    report(witness, DecidedBy::Search, out.states)
}
