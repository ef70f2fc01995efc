//! Barrier-aware exploration (BAM) and spin waits: the optimal explorer's order of adding
//! events when threads announce awaited loads ([`ThreadMachine::awaited`]) or would block
//! on their next load's value.
//!
//! Barriers: the order when
//! threads announce awaited loads ([`ThreadMachine::awaited`]), after GenMC's BAM
//! (Kokologiannakis and Vafeiadis, "BAM: Efficient Model Checking of Barriers", NETYS
//! 2021; GenMC's `-disable-bam`), but keeping every arrival order.
//!
//! A barrier wait (porf-c's bundled `pthread.h`) is an arrival, an acq_rel fetch-add
//! of the barrier's counter, then, unless it was the last arrival of its round, an
//! acquire load that must read the round's last arrival (an assume). In the plain
//! order (lowest-numbered thread first) a thread that arrives early adds its load at
//! once: it reads its own arrival (the co-latest write), and blocks. Each later arrival
//! then revisits that load, and under TruSt's maximality rule a load walks the
//! fetch-add chain one arrival at a time, so every arrival but the last leaves a
//! subtree whose executions end with a thread blocked at the barrier: for `N` threads
//! meeting once, 9 blocked executions beside the 6 complete ones at `N = 3`, 825
//! beside 120 at `N = 5`.
//!
//! With BAM a thread whose next action is an awaited load is *held back* until the
//! co-latest write of the load's location has the awaited value ([`ready`]: the
//! round's last arrival), and then it steps before every other thread: its load reads
//! that write, its maximal source, and passes. Held back, the thread has no load in
//! the graph for the other arrivals to revisit. When no other thread can step, a
//! held-back thread steps anyway (its load then reads a co-earlier value and blocks,
//! as in the plain order): a round that never completes still ends blocked.
//! [`State::next_action_held`](crate::state::State::next_action_held) is the
//! rule. Arrival orders are untouched: the fetch-adds are added and revisited as
//! before, so the complete executions (each arrival order, with its
//! `PTHREAD_BARRIER_SERIAL_THREAD` thread) are the plain order's. GenMC's BAM also
//! stops arrivals from revisiting each other, which explores one arrival order per
//! round (GenMC counts 1 execution where porf counts `N!`).
//!
//! Why it is exact: the optimal explorer (GenMC's, PLDI 2019, with TruSt's maximality
//! rule, POPL 2022) is parametric in `next_P(G)`, the event to add next, which may be
//! any deterministic function of the current graph: every consistent maximal
//! execution is still reached exactly once whatever the function (GenMC exposes the
//! choice as `--schedule-policy`). The rule above is such a function: the threads'
//! states, hence their next actions and awaited values, are functions of the graph
//! (the values their reads returned), and so is the co-latest write. It only changes
//! which enabled thread steps, never whether a thread can step, so the set of maximal
//! executions (complete, blocked, erroneous) is the plain order's; the blocked ones
//! explored are fewer because their subtrees are no longer entered (a held-back load
//! is not in the graph when the other arrivals are added). The parallel explorer and
//! shards ask the same rule, so their trees are the same function of the path.
//! `tests/differential_bam.rs` (porf-c) compares outcomes, errors and counts with it
//! on and off on random programs with barriers.
//!
//! **Spin waits** (`Config::disable_ipr` turns this off). The same rule holds back a
//! thread whose next action is a load that, reading the co-latest write of its
//! location (the initial value of a location not accessed yet), would leave the
//! thread blocked at once: its very next action is a block (a spin-assume block, a
//! failed `__VERIFIER_assume`), [`State::blocks_after`](crate::state::State) asks the
//! machine. GenMC's in-place revisiting (IPR) spares the same explorations by
//! re-reading such a load in place when a new write arrives; porf does not move the
//! load at all until the value it would read has changed or no other thread can step.
//! It is a function of the graph (the threads' states and the co-latest writes), so the
//! argument above applies unchanged: same maximal executions, fewer blocked ones
//! entered. Ticket locks with 7 threads (`ticketlock.c -DN=7`): 5,040 complete and 0
//! blocked executions, 96,402 blocked without it (GenMC 0.11: 0).
//! `tests/differential_await.rs` (porf-c) compares outcomes, errors and complete counts
//! with the reference explorer and with the rule off on random waiting and spinning
//! programs.
//!
//! [`ThreadMachine::awaited`]: porf_graph::ThreadMachine::awaited

use porf_graph::{Graph, Loc, Val};

/// Whether the co-latest write of `loc` has value `val`: a load awaiting `val` at `loc`
/// reads it as its maximal source. The initialisation does not count (a barrier's
/// last arrival is a write).
pub fn ready(g: &Graph, loc: Loc, val: Val) -> bool {
    g.co_max(loc)
        .is_some_and(|w| g.write_val(loc, Some(w)) == val)
}

#[cfg(test)]
mod tests {
    use super::*;
    use porf_graph::{LabelKind, MemOrder, SrcLoc, WriteKind};

    #[test]
    fn ready_when_the_co_latest_write_has_the_value() {
        let x = Loc(8);
        let mut g = Graph::new();
        g.ensure_loc(x, 2, None);
        g.add(0, LabelKind::Start { parent: None }, SrcLoc::UNKNOWN);
        assert!(!ready(&g, x, 2), "the initialisation does not count");
        let write = |g: &mut Graph, val| {
            let w = g.add(
                0,
                LabelKind::Write {
                    loc: x,
                    bytes: 4,
                    ord: MemOrder::Relaxed,
                    val,
                    kind: WriteKind::Plain,
                },
                SrcLoc::UNKNOWN,
            );
            let n = g.co(x).len();
            g.co_insert(w, n + 1);
        };
        write(&mut g, 1);
        assert!(!ready(&g, x, 2));
        write(&mut g, 2);
        assert!(ready(&g, x, 2));
        write(&mut g, 3);
        assert!(!ready(&g, x, 2), "only the co-latest write counts");
    }
}
