//! Differential testing of the RVF explorer (`Equiv::Rvf`, RVF-SMC) under SC, on random
//! programs with RMWs, assumes, assertions, mutexes and non-atomic accesses:
//! * errors (keep-going: every distinct error) are exactly co mode's, so the verdict
//!   is too;
//! * every thread-local outcome (values read, how the thread ended) that rf mode
//!   reaches in some maximal execution, RVF reaches too (the paper's soundness: every
//!   reachable thread-local state is discovered);
//! * RVF's complete count is at most rf mode's (the partition is coarser);
//! * no two maximal traces RVF explores are in one RVF class (at most one trace per
//!   class), by the class keys it records.
//!
//! `PORF_DIFF_N` sets the number of programs (default 2000), `PORF_DIFF_HEAP_N` that
//! of the runs on programs with a heap block and mutex misuse (default 400), and
//! `PORF_DIFF_DENSE_N` that of denser programs (default 300).

mod common;

use common::env;

use porf_explore::{explore, Config, Equiv, Stats, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};
use std::collections::HashSet;

fn compare(co: &Stats, rf: &Stats, rvf: &Stats) -> Vec<String> {
    let mut diffs = Vec::new();
    if rvf.error_keys() != co.error_keys() {
        diffs.push(format!(
            "errors: rvf {:?}, co mode {:?}",
            rvf.error_keys(),
            co.error_keys()
        ));
    }
    if rvf.complete > rf.complete {
        diffs.push(format!(
            "complete: rvf {} > rf {}",
            rvf.complete, rf.complete
        ));
    }
    let missing: Vec<_> = rf
        .thread_outcomes
        .difference(&rvf.thread_outcomes)
        .collect();
    if !missing.is_empty() {
        diffs.push(format!(
            "thread outcomes rf mode reaches and rvf not: {missing:?}"
        ));
    }
    let mut seen = HashSet::new();
    let dups = rvf
        .rvf_class_keys
        .iter()
        .filter(|k| !seen.insert(*k))
        .count();
    if dups > 0 {
        diffs.push(format!(
            "{dups} traces repeat an RVF class ({} traces)",
            rvf.rvf_class_keys.len()
        ));
    }
    let r = rvf.rvf.expect("RVF counters");
    if r.traces != rvf.rvf_class_keys.len() as u64 || r.classes != seen.len() as u64 {
        diffs.push(format!(
            "counters {r:?} vs {} keys",
            rvf.rvf_class_keys.len()
        ));
    }
    diffs
}

fn run(gen: &GenConfig, n: u64, what: &str) {
    let model = by_name("sc").unwrap();
    let base = Config {
        keep_going: true,
        collect_thread_outcomes: true,
        ..Config::default()
    };
    let co_cfg = base.clone();
    let rf_cfg = Config {
        equiv: Equiv::Rf,
        ..base.clone()
    };
    let rvf_cfg = Config {
        equiv: Equiv::Rvf,
        collect_rvf_classes: true,
        ..base
    };
    let mut failures = Vec::new();
    let (mut rf_total, mut rvf_total, mut errors) = (0u64, 0u64, 0usize);
    for seed in 0..n {
        let prog = random_program(seed, gen);
        let co = explore(Strategy::Optimal, &prog, model.as_ref(), &co_cfg);
        let rf = explore(Strategy::Optimal, &prog, model.as_ref(), &rf_cfg);
        let rvf = explore(Strategy::Optimal, &prog, model.as_ref(), &rvf_cfg);
        rf_total += rf.complete;
        rvf_total += rvf.complete;
        errors += co.errors.len();
        let diffs = compare(&co, &rf, &rvf);
        if !diffs.is_empty() {
            failures.push(format!(
                "seed {seed}:\n  {}\nprogram:\n{prog}",
                diffs.join("\n  ")
            ));
        }
    }
    println!(
        "differential rvf{what} sc: {n} programs, {} agreed ({rf_total} rf classes, {rvf_total} rvf classes complete, {errors} errors)",
        n - failures.len() as u64
    );
    assert!(
        failures.is_empty(),
        "{} of {n} programs disagree; first:\n{}",
        failures.len(),
        failures[0]
    );
}

#[test]
fn differential_rvf_sc() {
    run(&GenConfig::default(), env("PORF_DIFF_N", 2000), "");
}

#[test]
fn differential_rvf_heap_sc() {
    let gen = GenConfig {
        heap: true,
        lock_misuse: true,
        max_events: 11,
        max_locs: 2,
        ..GenConfig::default()
    };
    run(&gen, env("PORF_DIFF_HEAP_N", 400), " heap");
}

/// Denser programs: more events over fewer locations, so more reads share values
/// and more RMWs and lock acquires compete (where backtrack signals matter most).
#[test]
fn differential_rvf_dense_sc() {
    let gen = GenConfig {
        max_events: 10,
        max_locs: 2,
        ..GenConfig::default()
    };
    run(&gen, env("PORF_DIFF_DENSE_N", 300), " dense");
}
