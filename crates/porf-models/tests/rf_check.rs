//! `MemoryModel::rf_check` keeps its contract for every model: its witness is `Some`
//! exactly when `rf_consistent`'s is, only refutations are decided by a pre-check or a
//! closure, and those refutations are right (brute force over coherence orders finds
//! none). Prints, per model, the `RfStats` of the tests (`--nocapture`).

use porf_models::rf::{self, DecidedBy, RandomGraph, RfStats};
use porf_models::{by_name, MODEL_NAMES};

/// Small shapes, so that brute force stays fast.
fn shapes() -> Vec<RandomGraph> {
    let mut v = Vec::new();
    for threads in 2..=3 {
        for events_per_thread in 2..=4 {
            for locs in 1..=2 {
                for (sc, rmws) in [(false, false), (true, true)] {
                    v.push(RandomGraph {
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
    v
}

fn orders(g: &porf_graph::Graph) -> u64 {
    g.locations()
        .map(|(_, i)| (1..=i.co.len() as u64).product::<u64>())
        .product()
}

#[test]
fn rf_check_agrees_with_rf_consistent_and_brute_force() {
    let shapes = shapes();
    for name in MODEL_NAMES {
        let m = by_name(name).unwrap();
        let mut stats = RfStats::default();
        for seed in 0..1500u64 {
            let shape = &shapes[seed as usize % shapes.len()];
            let g = rf::random_graph(seed, shape, m.as_ref());
            if orders(&g) > 1 << 12 {
                continue;
            }
            let c = m.rf_check(&g);
            stats.record(&c);
            let truth = rf::brute_force(m.as_ref(), &g).is_some();
            assert_eq!(c.witness.is_some(), truth, "{name} seed {seed}\n{g}");
            assert_eq!(
                m.rf_consistent(&g).is_some(),
                truth,
                "{name} seed {seed}\n{g}"
            );
            if c.witness.is_some() {
                assert_eq!(c.decided_by, DecidedBy::Search, "{name} seed {seed}");
            }
        }
        println!("{name}: {stats:?}");
        assert!(stats.by_precheck + stats.by_closure <= stats.failed);
        assert!(
            stats.failed > 0 && stats.failed < stats.tests,
            "{name}: {stats:?}"
        );
        if ["sc", "tso", "pso"].contains(name) {
            assert!(stats.by_closure > 0, "{name}: the closure never decided");
        }
    }
}
