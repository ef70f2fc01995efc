//! Acceptance test of VerifyPSO (`Pso::rf_consistent`): on random (events, po, rf)
//! graphs it must say "consistent" exactly when brute force over every coherence order
//! finds one under PSO's declarative definition, and its witness coherence order must
//! make the graph consistent.
//!
//! `PORF_VERIFY_PSO_GRAPHS` sets the number of graphs (default 10000), spread over
//! shapes of 2–4 threads of up to 2–4 events over 1–3 locations, with and without RMWs
//! and seq_cst accesses (graphs with more than 2^16 coherence orders are skipped, to
//! keep brute force fast). VerifyPSO with the exact deduplication is checked too.

use porf_models::pso::Pso;
use porf_models::rf::pso::{verify_with, Dedup};
use porf_models::rf::{self, RandomGraph};
use porf_models::MemoryModel;
use std::time::Instant;

fn graphs() -> u64 {
    std::env::var("PORF_VERIFY_PSO_GRAPHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

/// Every combination of 2–4 threads, 2–4 events, 1–3 locations, RMWs or not and
/// seq_cst or not.
fn shapes() -> Vec<RandomGraph> {
    let mut out = Vec::new();
    for threads in 2..=4 {
        for events_per_thread in 2..=4 {
            for locs in 1..=3 {
                for (sc, rmws) in [(false, false), (true, false), (false, true), (true, true)] {
                    out.push(RandomGraph {
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
    out
}

/// Coherence orders brute force would try, at most.
fn orders(g: &porf_graph::Graph) -> u64 {
    g.locations()
        .map(|(_, i)| (1..=i.co.len() as u64).product::<u64>())
        .product()
}

#[test]
fn verify_pso_agrees_with_brute_force() {
    let n = graphs();
    let shapes = shapes();
    let (mut consistent, mut events) = (0u64, 0usize);
    let (mut t_verify, mut t_brute) = (0.0f64, 0.0f64);
    let start = Instant::now();
    let (mut checked, mut skipped) = (0u64, 0u64);
    for seed in 0.. {
        if checked == n {
            break;
        }
        let shape = &shapes[seed as usize % shapes.len()];
        let g = rf::random_graph(seed, shape, &Pso);
        // Keep brute force within its limit (rarely hit: many writes to one location).
        if orders(&g) > 1 << 16 {
            skipped += 1;
            continue;
        }
        checked += 1;
        events += g.len();
        let t = Instant::now();
        let fast = Pso.rf_consistent(&g);
        t_verify += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let slow = rf::brute_force(&Pso, &g);
        t_brute += t.elapsed().as_secs_f64();
        assert_eq!(
            fast.is_some(),
            slow.is_some(),
            "seed {seed}, {shape:?}: VerifyPSO {:?}, brute force {:?}\n{g}",
            fast,
            slow
        );
        let exact = verify_with(&g, Dedup::Exact).0;
        assert_eq!(exact.is_some(), slow.is_some(), "seed {seed}: exact dedup");
        if let Some(co) = fast {
            consistent += 1;
            let mut g = g.clone();
            rf::install(&mut g, &co);
            assert!(Pso.is_consistent(&g), "seed {seed}: witness {co:?}\n{g}");
        }
    }
    println!(
        "VerifyPSO: {n} graphs ({consistent} consistent, {:.1} events on average, {skipped} \
         skipped) in {:.2?}: VerifyPSO {t_verify:.3} s, brute force {t_brute:.3} s",
        events as f64 / n as f64,
        start.elapsed()
    );
    // Both answers must be common for the comparison to mean something.
    assert!(
        consistent * 20 >= n && consistent * 20 <= 19 * n,
        "{consistent} of {n}"
    );
}
