//! Acceptance test of the exact rf checks of `ra`, `rc11` and `rc11-genmc`
//! (writes-before plus the seq_cst search, `porf_models::rf::wb`): on random
//! (events, po, rf) graphs they agree with the brute force over every coherence order,
//! and their witnesses make the graph consistent.
//!
//! `PORF_RF_GRAPHS` scales the test: that many graphs per model from
//! `rf::random_graph`, as many again made seq_cst-heavy, and a fiftieth of it graphs on
//! which the seq_cst search had to branch (default 10 000). Run with `--nocapture` for
//! the figures.

use porf_graph::{Graph, LabelKind, MemOrder};
use porf_models::rf::{self, wb, RandomGraph};
use porf_models::{by_name, MemoryModel};
use std::time::Instant;

/// Graphs whose brute force would try more coherence orders than this are skipped
/// (and counted), to bound the test's time.
const ORDERS_CAP: u64 = 720;

fn scale() -> u64 {
    std::env::var("PORF_RF_GRAPHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

/// The shapes cycled through: 2–4 threads, 2–4 events per thread (at most), 1–3
/// locations, with and without RMWs and seq_cst.
fn shapes() -> Vec<RandomGraph> {
    let mut out = Vec::new();
    for (threads, events_per_thread, locs) in [
        (2, 2, 1),
        (2, 4, 1),
        (2, 4, 2),
        (3, 3, 1),
        (3, 4, 2),
        (3, 4, 3),
        (4, 2, 1),
        (4, 3, 2),
        (4, 4, 1),
        (4, 4, 2),
        (4, 4, 3),
    ] {
        for rmws in [false, true] {
            for sc in [false, true] {
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
    out
}

/// The number of coherence orders the brute force would try: Π over locations of
/// (number of writes)!.
fn orders(g: &Graph) -> u64 {
    g.locations()
        .map(|(_, i)| {
            let w = i
                .accesses
                .iter()
                .filter(|&&e| g.label(e).is_write())
                .count() as u64;
            (1..=w).product::<u64>()
        })
        .product()
}

/// `g` with each access and fence made seq_cst with probability 3/4 (deterministic in
/// `seed`), hb views recomputed by `model` in insertion order (a porf order). The
/// generator's seq_cst events are too rare for psc to matter often.
fn sc_heavy(g: &Graph, seed: u64, model: &dyn MemoryModel) -> Graph {
    let mut h = g.clone();
    let mut state = seed ^ 0x5c_4ea5;
    let order = h.insertion_order().to_vec();
    for &e in &order {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if state >> 62 != 0 {
            if let LabelKind::Read { ord, .. }
            | LabelKind::Write { ord, .. }
            | LabelKind::Fence { ord } = &mut h.label_mut(e).kind
            {
                *ord = MemOrder::SeqCst;
            }
        }
    }
    for &e in &order {
        h.label_mut(e).hb = model.hb_view(&h, e);
    }
    h
}

/// Figures of one family of graphs.
#[derive(Default)]
struct Tally {
    compared: u64,
    skipped: u64,
    consistent: u64,
    searched: u64,
    searched_consistent: u64,
    worst_checks: u64,
}

impl Tally {
    /// Compares the exact check with the brute force on `g` (unless the brute force
    /// would be too long) and checks the witness.
    fn compare(&mut self, model: &dyn MemoryModel, psc: wb::Psc, g: &Graph, what: &str) {
        if orders(g) > ORDERS_CAP {
            self.skipped += 1;
            return;
        }
        self.compared += 1;
        let checked = wb::check(g, psc);
        let name = model.name();
        assert_eq!(
            model.rf_consistent(g),
            checked.witness,
            "{name}: not wb::check"
        );
        let truth = rf::brute_force(model, g);
        assert_eq!(
            checked.witness.is_some(),
            truth.is_some(),
            "{name}, {what}: wb says {:?}, brute force {truth:?}\n{g}",
            checked.witness
        );
        if let Some(co) = &checked.witness {
            self.consistent += 1;
            let mut h = g.clone();
            rf::install(&mut h, co);
            assert!(
                model.is_consistent(&h),
                "{name}, {what}: bad witness {co:?}\n{g}"
            );
        }
        if checked.searched() {
            self.searched += 1;
            self.searched_consistent += checked.witness.is_some() as u64;
        }
        self.worst_checks = self.worst_checks.max(checked.psc_checks);
    }

    fn report(&self, name: &str, family: &str, start: Instant) {
        eprintln!(
            "{name}, {family}: {} graphs compared ({} consistent; {} skipped, over \
             {ORDERS_CAP} orders) in {:.2?}; the seq_cst search branched on {} ({} \
             consistent), at most {} psc checks per graph",
            self.compared,
            self.consistent,
            self.skipped,
            start.elapsed(),
            self.searched,
            self.searched_consistent,
            self.worst_checks
        );
    }
}

const MODELS: [(&str, wb::Psc); 3] = [
    ("ra", wb::Psc::Absent),
    ("rc11", wb::Psc::Herd),
    ("rc11-genmc", wb::Psc::Genmc),
];

#[test]
fn wb_agrees_with_brute_force_on_random_graphs() {
    let n = scale();
    let shapes = shapes();
    for (name, psc) in MODELS {
        let model = by_name(name).unwrap();
        let m = model.as_ref();
        for heavy in [false, true] {
            let start = Instant::now();
            let mut tally = Tally::default();
            let mut seed = 0;
            while tally.compared < n {
                let shape = &shapes[(seed % shapes.len() as u64) as usize];
                let mut g = rf::random_graph(seed, shape, m);
                if heavy {
                    g = sc_heavy(&g, seed, m);
                }
                tally.compare(m, psc, &g, &format!("seed {seed}, heavy {heavy}"));
                seed += 1;
            }
            let family = if heavy {
                "seq_cst-heavy"
            } else {
                "random_graph"
            };
            tally.report(name, family, start);
        }
    }
}

/// The seq_cst search itself: seq_cst-heavy graphs of the larger shapes, compared only
/// when the search had to branch (about one graph in 300). Fails if too few branch.
#[test]
fn seq_cst_search_agrees_with_brute_force() {
    let n = (scale() / 50).max(1);
    let shapes: Vec<RandomGraph> = shapes()
        .into_iter()
        .filter(|s| s.threads >= 3 && s.events_per_thread >= 3 && s.locs >= 2)
        .collect();
    for (name, psc) in &MODELS[1..] {
        let model = by_name(name).unwrap();
        let m = model.as_ref();
        let start = Instant::now();
        let mut tally = Tally::default();
        let mut seed = 0;
        while tally.searched < n {
            assert!(seed < n * 3_000, "{name}: the search almost never branches");
            let shape = &shapes[(seed % shapes.len() as u64) as usize];
            let g = sc_heavy(&rf::random_graph(seed, shape, m), seed, m);
            if wb::check(&g, *psc).searched() {
                tally.compare(m, *psc, &g, &format!("seed {seed}"));
            }
            seed += 1;
        }
        tally.report(name, &format!("branching search ({seed} generated)"), start);
    }
}
