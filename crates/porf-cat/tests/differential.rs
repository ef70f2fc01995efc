//! porf's native models against the cat interpreter running porf's own cat files of
//! the same models (`cat/sc.cat`, `cat/tso.cat`, `cat/rc11.cat`): on 10⁴ random
//! execution graphs per model, the native declarative check
//! (`MemoryModel::is_consistent`) and the cat file's verdict agree.
//!
//! The graphs are `porf_models::rf::random_graph`'s (events, po, rf) over 2–4 threads
//! of up to 6 events, 1–3 locations, every memory order, fences, RMWs and failed compare-exchanges; half
//! of them keep the writes' insertion order as co, the other half get a random co per
//! location (so that atomicity and coherence are both exercised).

use porf_cat::{build::from_graph, evaluate, load_file};
use porf_graph::hash::SplitMix64;
use porf_graph::{Graph, Loc};
use porf_models::rf::{random_graph, RandomGraph};
use porf_models::{by_name, MemoryModel};
use std::path::PathBuf;

const GRAPHS: u64 = 10_000;

fn cat_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("cat")
        .join(name)
}

/// Random graph number `seed`: its shape, and co shuffled for odd seeds.
fn graph(seed: u64, model: &dyn MemoryModel) -> Graph {
    let mut rng = SplitMix64(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0xca7);
    let shape = RandomGraph {
        threads: 2 + rng.below(3) as u32,
        events_per_thread: 2 + rng.below(5) as u32,
        locs: 1 + rng.below(3),
        sc: rng.below(4) != 0,
        rmws: rng.below(4) != 0,
    };
    let mut g = random_graph(seed, &shape, model);
    if seed % 2 == 1 {
        let locs: Vec<Loc> = g.locations().map(|(&l, _)| l).collect();
        for loc in locs {
            let mut order = g.co(loc).to_vec();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            g.set_co(loc, order);
        }
    }
    g
}

fn differential(native: &str, file: &str) {
    let model = by_name(native).unwrap();
    let cat = load_file(&cat_file(file), &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut consistent = 0;
    for seed in 0..GRAPHS {
        let g = graph(seed, model.as_ref());
        let want = model.is_consistent(&g);
        let verdict = evaluate(&cat, &from_graph(&g), false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            verdict.allowed(),
            want,
            "seed {seed}: native {native} says {want}, {file} says {:?}\n{g}",
            verdict.violated
        );
        consistent += usize::from(want);
    }
    // Both answers are common, so the agreement is not a trivial one.
    let total = GRAPHS as usize;
    assert!(
        consistent > total / 10 && consistent < total * 9 / 10,
        "{consistent} of {total} consistent under {native}"
    );
}

#[test]
fn sc_cat_agrees_with_native_sc() {
    differential("sc", "sc.cat");
}

#[test]
fn tso_cat_agrees_with_native_tso() {
    differential("tso", "tso.cat");
}

#[test]
fn rc11_cat_agrees_with_native_rc11() {
    differential("rc11", "rc11.cat");
}
