//! porf's native `lkmm` (`porf_models::lkmm`) against the cat interpreter running
//! porf's own `cat/lkmm.cat`, both written from Alglave et al., ASPLOS 2018: on 10⁴
//! random kernel hardware graphs (`porf_models::hwgen`, `HwArch::Kernel`: Once,
//! Acquire, Release, fully ordered, relaxed and non-returning RMWs, failed
//! compare-exchanges, every kernel fence including RCU's, address, data and control
//! dependencies, plain (unannotated) reads and writes, rf and co random, load
//! buffering included), the axioms each side finds violated are the same, and on the
//! consistent graphs so is the `data-race` flag. Every axiom and the flag must be
//! seen failing or raised somewhere, so the test exercises all of them. `PORF_CAT_GRAPHS` overrides the number of graphs.

use porf_cat::{build::from_graph, evaluate, load_file};
use porf_models::hwgen::{random_hw_graph, HwArch, HwShape};
use porf_models::lkmm::{data_races, failed_axioms};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn graphs() -> u64 {
    std::env::var("PORF_CAT_GRAPHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

#[test]
fn native_lkmm_agrees_with_lkmm_cat() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cat/lkmm.cat");
    let cat = load_file(&file, &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut seen: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut allowed = 0;
    let n = graphs();
    for seed in 0..n {
        let mut shape = HwShape::random(seed, HwArch::Kernel);
        // Every fourth graph is larger, for the RCU axiom's longer paths.
        if seed % 4 == 3 {
            shape.events_per_thread += 2;
        }
        let g = random_hw_graph(seed, &shape);
        let native = failed_axioms(&g);
        let verdict = evaluate(&cat, &from_graph(&g), false).unwrap_or_else(|e| panic!("{e}"));
        let mut cat_failed = verdict.violated.clone();
        cat_failed.sort();
        let mut native_sorted: Vec<String> = native.iter().map(|s| s.to_string()).collect();
        native_sorted.sort();
        assert_eq!(
            native_sorted, cat_failed,
            "seed {seed}: native and lkmm.cat disagree on {g:?}"
        );
        // The data-race flag is herd's on consistent executions only.
        if native.is_empty() {
            let native_race = !data_races(&g).is_empty();
            let cat_race = verdict.flags.iter().any(|f| f == "data-race");
            assert_eq!(
                native_race, cat_race,
                "seed {seed}: native and lkmm.cat disagree on the data-race flag of {g:?}"
            );
            if native_race {
                *seen.entry("data-race").or_default() += 1;
            }
        }
        for a in native {
            *seen.entry(a).or_default() += 1;
        }
        allowed += u64::from(verdict.violated.is_empty());
    }
    eprintln!("{n} graphs, {allowed} allowed; failures by axiom: {seen:?}");
    if n >= 10_000 {
        for axiom in [
            "coherence",
            "atomic",
            "happens-before",
            "propagation",
            "rcu",
            "plain-coherence",
            "data-race",
        ] {
            assert!(seen.contains_key(axiom), "no graph fails {axiom}: {seen:?}");
        }
    }
}
