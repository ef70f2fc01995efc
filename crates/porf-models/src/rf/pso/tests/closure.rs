//! The closure of VerifyPSO (`closure.rs`) is sound: it never refutes a graph that
//! brute force over coherence orders (PSO's declarative definition) finds consistent —
//! on thousands of `rf::random_graph`s and of redirected random PSO runs, counting how
//! many it refutes so that the test shows it does something. Also: the answer does not
//! depend on whether the closure runs, and the closure is much cheaper than the search
//! on the graphs it refutes.

use super::super::{check_with, closure, instance::Instance, Dedup, Options};
use super::runs;
use crate::pso::Pso;
use crate::relation::testkit::{Lit, X, Y};
use crate::rf::{self, brute_force, DecidedBy, RandomGraph};
use porf_graph::Graph;
use porf_graph::MemOrder::{Relaxed, Release};
use std::time::Instant;

/// Coherence orders brute force would try.
fn orders(g: &Graph) -> u64 {
    g.locations()
        .map(|(_, i)| (1..=i.co.len() as u64).product::<u64>())
        .product()
}

/// Whether the closure refutes `g` (false when the local pre-check already does).
fn refutes(g: &Graph) -> bool {
    Instance::new(g).is_some_and(|inst| !closure::closure_exists(&inst))
}

/// Checks the closure on `g` against brute force, and that VerifyPSO answers alike
/// with and without it; whether the closure refuted `g`.
fn sound_on(g: &Graph, what: &str) -> bool {
    let truth = brute_force(&Pso, g).is_some();
    let refuted = refutes(g);
    assert!(
        !(truth && refuted),
        "{what}: the closure refutes a consistent graph\n{g}"
    );
    let with = check_with(g, Options::default()).0;
    let without = check_with(
        g,
        Options {
            dedup: Dedup::FenceMap,
            closure: false,
        },
    )
    .0;
    assert_eq!(with.witness.is_some(), truth, "{what}: with closure\n{g}");
    assert_eq!(without.witness.is_some(), truth, "{what}: without\n{g}");
    assert_eq!(with.decided_by == DecidedBy::Closure, refuted, "{what}");
    refuted
}

/// MP with a release flag: `x = 1; y =rel 1 || y == 1; x == 0`. The barrier orders
/// the memory-writes, the reader's po and rf order the rest: a cycle.
#[test]
fn closure_refutes_message_passing_with_a_release_flag() {
    let mut l = Lit::new(&Pso, 2);
    l.write(1, X, Relaxed);
    let wy = l.write(1, Y, Release);
    l.read(2, Y, Relaxed, Some(wy));
    l.read(2, X, Relaxed, None);
    assert!(sound_on(&l.g, "MP+rel"));
    // With a relaxed flag PSO allows it, and the closure must not object.
    let mut l = Lit::new(&Pso, 2);
    l.write(1, X, Relaxed);
    let wy = l.write(1, Y, Relaxed);
    l.read(2, Y, Relaxed, Some(wy));
    l.read(2, X, Relaxed, None);
    assert!(!sound_on(&l.g, "MP"));
}

/// `rf::random_graph` under PSO over every shape of 2–4 threads, 2–4 events, 1–3
/// locations, with and without seq_cst accesses and RMWs (`PORF_PSO_CLOSURE_GRAPHS`
/// sets the number, default 6000); then redirected random PSO runs, richer in
/// store-store barriers (`PORF_PSO_CLOSURE_RUNS`, default 3000).
#[test]
fn closure_is_sound_on_random_graphs() {
    let env = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let mut shapes = Vec::new();
    for threads in 2..=4 {
        for events_per_thread in 2..=4 {
            for locs in 1..=3 {
                for (sc, rmws) in [(false, false), (true, false), (false, true), (true, true)] {
                    shapes.push(RandomGraph {
                        threads,
                        events_per_thread,
                        locs,
                        sc,
                        rmws,
                    });
                }
            }
        }
    }
    let n = env("PORF_PSO_CLOSURE_GRAPHS", 6000);
    let (mut checked, mut inconsistent, mut refuted, mut pre) = (0, 0, 0, 0);
    for seed in 0u64.. {
        if checked == n {
            break;
        }
        let shape = &shapes[seed as usize % shapes.len()];
        let g = rf::random_graph(seed, shape, &Pso);
        if orders(&g) > 1 << 14 {
            continue;
        }
        checked += 1;
        inconsistent += brute_force(&Pso, &g).is_none() as usize;
        pre += Instance::new(&g).is_none() as usize;
        refuted += sound_on(&g, &format!("seed {seed}, {shape:?}")) as usize;
    }
    println!(
        "random graphs: {checked}, {inconsistent} inconsistent: {pre} refuted by the \
         pre-check, {refuted} by the closure"
    );
    assert!(refuted * 20 > inconsistent, "{refuted} of {inconsistent}");

    let n = env("PORF_PSO_CLOSURE_RUNS", 3000);
    let (mut checked, mut inconsistent2, mut refuted2, mut pre2) = (0, 0, 0, 0);
    for seed in 1u64.. {
        if checked == n {
            break;
        }
        let shape = runs::Shape {
            threads: 2 + (seed % 3) as u32,
            events: 2 + (seed / 3 % 3) as u32,
            locs: 1 + seed / 9 % 3,
        };
        let g = runs::redirect_one_read(seed, &runs::random_run(seed, &shape));
        if orders(&g) > 5040 {
            continue;
        }
        checked += 1;
        inconsistent2 += brute_force(&Pso, &g).is_none() as usize;
        pre2 += Instance::new(&g).is_none() as usize;
        refuted2 += sound_on(&g, &format!("run {seed}")) as usize;
    }
    println!(
        "redirected runs: {checked}, {inconsistent2} inconsistent: {pre2} refuted by the \
         pre-check, {refuted2} by the closure"
    );
    assert!(
        refuted2 * 20 > inconsistent2,
        "{refuted2} of {inconsistent2}"
    );
}

/// On redirected random runs of about 50 events, VerifyPSO answers alike with and
/// without the closure; on the graphs the closure refutes, the closure alone is timed
/// against the search without it, and over all graphs VerifyPSO with the closure
/// against VerifyPSO without. Prints the times (`--show-output`).
#[test]
fn closure_versus_search_on_fifty_events() {
    let shape = runs::Shape {
        threads: 4,
        events: 8,
        locs: 3,
    };
    let no_closure = Options {
        dedup: Dedup::FenceMap,
        closure: false,
    };
    let (mut graphs, mut refuted, mut failed) = (0, 0, 0);
    let (mut t_closure, mut t_search) = (0.0f64, 0.0f64);
    let (mut t_with, mut t_without) = (0.0f64, 0.0f64);
    for seed in 0..200 {
        let g = runs::redirect_one_read(seed, &runs::random_run(seed, &shape));
        graphs += 1;
        let t = Instant::now();
        let with = check_with(&g, Options::default()).0;
        t_with += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let without = check_with(&g, no_closure).0;
        let searched = t.elapsed().as_secs_f64();
        t_without += searched;
        assert_eq!(
            with.witness.is_some(),
            without.witness.is_some(),
            "seed {seed}"
        );
        failed += with.witness.is_none() as usize;
        if with.decided_by == DecidedBy::Closure {
            refuted += 1;
            t_search += searched;
            let t = Instant::now();
            assert!(refutes(&g));
            t_closure += t.elapsed().as_secs_f64();
        }
    }
    println!(
        "{graphs} graphs of ~50 events, {failed} inconsistent, {refuted} refuted by the closure: \
         closure {:.3} ms per refuted graph, search without closure {:.3} ms; over all \
         graphs, VerifyPSO with the closure {:.3} ms per graph, without {:.3} ms",
        t_closure * 1e3 / refuted.max(1) as f64,
        t_search * 1e3 / refuted.max(1) as f64,
        t_with * 1e3 / graphs as f64,
        t_without * 1e3 / graphs as f64
    );
    assert!(refuted > 0);
}

/// Not complete: the example of VerifyTSO's `closure_is_incomplete`, with seq_cst
/// writes (locked steps under PSO too, so PSO is SC here). x: a1 (T1) read by r1 (T3),
/// a2 (T2) read by r2 (T4); y: b1 (T3) read by s1 (T1), b2 (T4) read by s2 (T2);
/// messages on private locations order both a's before both s's and both b's before
/// both r's. Either r1 < a2 or r2 < a1, and each leads to a contradiction, but the
/// closure orders none of these pairs: only the search refutes the graph.
#[test]
fn closure_is_incomplete() {
    use porf_graph::{Loc, MemOrder::SeqCst};
    let mut l = Lit::new(&Pso, 4);
    let (c, d) = ([Loc(4), Loc(5)], [Loc(6), Loc(7)]);
    for loc in c.into_iter().chain(d) {
        l.g.ensure_loc(loc, 0, None);
    }
    let (a1, a2) = (l.write(1, X, SeqCst), l.write(2, X, SeqCst));
    let (b1, b2) = (l.write(3, Y, SeqCst), l.write(4, Y, SeqCst));
    let c1 = l.write(1, c[0], SeqCst);
    let c2 = l.write(2, c[1], SeqCst);
    let d1 = l.write(3, d[0], SeqCst);
    let d2 = l.write(4, d[1], SeqCst);
    l.read(1, c[1], Relaxed, Some(c2));
    l.read(2, c[0], Relaxed, Some(c1));
    l.read(3, d[1], Relaxed, Some(d2));
    l.read(4, d[0], Relaxed, Some(d1));
    for (t, loc, w) in [(1, Y, b1), (2, Y, b2), (3, X, a1), (4, X, a2)] {
        l.read(t, loc, Relaxed, Some(w));
    }
    assert!(!sound_on(&l.g, "closure_is_incomplete"));
    let c = check_with(&l.g, Options::default()).0;
    assert_eq!((c.witness, c.decided_by), (None, DecidedBy::Search));
}
