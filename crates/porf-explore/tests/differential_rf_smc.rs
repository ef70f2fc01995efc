//! Differential testing of RF-SMC (`Strategy::RfSmc`) against the graph explorer in rf
//! mode, on random programs with assumes, assertions, fences, non-atomics and branches
//! (and, in the heap runs, a heap block), under `sc`, `tso` and `pso`:
//! * the same reads-from classes of complete executions (hence the same count), and the
//!   same number of blocked executions — both explorers count a maximal graph as
//!   blocked by the same definition (`outcome.rs`), including a lock acquire that read
//!   a taken lock;
//! * the same errors and the same final registers;
//! * exploration optimality: RF-SMC never explores two traces of one reads-from class
//!   (`Stats::repeated_classes`, which counts maximal traces of any outcome whose class
//!   was seen before).
//!
//!
//! RF-SMC does not handle read-modify-writes and mutexes yet; on programs with them
//! (the `_rmw` runs) it must stop with an `Unsupported` error whenever it meets one,
//! and otherwise agree as above: it never answers wrongly.
//!
//! `PORF_DIFF_SMC_PROGRAMS` sets the number of programs per model (default 2000; the
//! `_rmw` runs take a quarter), `PORF_DIFF_FIRST` the first seed, and
//! `PORF_DIFF_SMC_HEAP_PROGRAMS` that of the runs on programs with heap blocks and
//! mutex misuse (default 500).

use porf_explore::{explore, Config, Equiv, ErrorClass, FinalState, Stats, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};
use std::collections::BTreeSet;

fn env_or(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn registers(s: &Stats) -> BTreeSet<Vec<(u32, Vec<i64>)>> {
    s.final_states
        .iter()
        .map(|f: &FinalState| f.registers.clone())
        .collect()
}

fn compare(graph: &Stats, smc: &Stats) -> Vec<String> {
    let mut diffs = Vec::new();
    if smc.complete != graph.complete || smc.rf_classes != graph.rf_classes {
        diffs.push(format!(
            "complete: rf-smc {} ({} classes), graph explorer {} ({} classes)",
            smc.complete,
            smc.rf_classes.len(),
            graph.complete,
            graph.rf_classes.len()
        ));
    }
    if smc.blocked != graph.blocked {
        diffs.push(format!(
            "blocked: rf-smc {} vs graph explorer {}",
            smc.blocked, graph.blocked
        ));
    }
    if smc.repeated_classes != 0 {
        diffs.push(format!(
            "rf-smc explored {} traces of classes it had explored before",
            smc.repeated_classes
        ));
    }
    if smc.error_keys() != graph.error_keys() {
        diffs.push(format!(
            "errors: rf-smc {:?}, graph explorer {:?}",
            smc.error_keys(),
            graph.error_keys()
        ));
    }
    if registers(smc) != registers(graph) {
        diffs.push(format!(
            "final registers: rf-smc {:?}, graph explorer {:?}",
            registers(smc),
            registers(graph)
        ));
    }
    diffs
}

fn run(model_name: &str, gen: &GenConfig, n: u64, what: &str) {
    let model = by_name(model_name).unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        collect_rf_classes: true,
        equiv: Equiv::Rf,
        ..Config::default()
    };
    let mut failures = Vec::new();
    let (mut classes, mut traces, mut refused) = (0u64, 0u64, 0u64);
    let first: u64 = env_or("PORF_DIFF_FIRST", 0);
    for seed in first..first + n {
        let prog = random_program(seed, gen);
        let graph = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
        let smc = explore(Strategy::RfSmc, &prog, model.as_ref(), &cfg);
        if smc
            .errors
            .iter()
            .any(|e| e.class == ErrorClass::Unsupported)
        {
            refused += 1;
            continue;
        }
        classes += graph.complete + graph.blocked;
        traces += smc.smc.calls;
        let diffs = compare(&graph, &smc);
        if !diffs.is_empty() {
            if std::env::var("PORF_DIFF_VERBOSE").is_ok() {
                println!("seed {seed}: {}", diffs.join(" | "));
            }
            failures.push(format!(
                "model {model_name}, seed {seed}:\n  {}\nprogram:\n{prog}",
                diffs.join("\n  ")
            ));
        }
    }
    println!(
        "differential rf-smc{what} {model_name}: {n} programs, {refused} refused (RMW or mutex), {} agreed ({classes} complete or blocked classes, {traces} rf-smc traces)",
        n - refused - failures.len() as u64
    );
    assert!(
        failures.is_empty(),
        "{} of {n} programs disagree under {model_name}; first:\n{}",
        failures.len(),
        failures[0]
    );
}

fn differential(model_name: &str) {
    let n = env_or("PORF_DIFF_SMC_PROGRAMS", 2000);
    let gen = GenConfig {
        rmws: false,
        mutexes: false,
        ..GenConfig::default()
    };
    run(model_name, &gen, n, "");
}

/// Programs with RMWs and mutexes: RF-SMC refuses or agrees.
fn differential_rmw(model_name: &str) {
    let n = env_or("PORF_DIFF_SMC_PROGRAMS", 2000) / 4;
    run(model_name, &GenConfig::default(), n, " rmw");
}

/// Programs with a heap block (malloc/free, accesses in and out of bounds).
fn differential_heap(model_name: &str) {
    let gen = GenConfig {
        heap: true,
        rmws: false,
        mutexes: false,
        max_events: 11,
        max_locs: 2,
        ..GenConfig::default()
    };
    let n = env_or("PORF_DIFF_SMC_HEAP_PROGRAMS", 500);
    run(model_name, &gen, n, " heap");
}

#[test]
fn rf_smc_sc() {
    differential("sc");
}

#[test]
fn rf_smc_tso() {
    differential("tso");
}

#[test]
fn rf_smc_pso() {
    differential("pso");
}

#[test]
fn rf_smc_rmw_sc() {
    differential_rmw("sc");
}

#[test]
fn rf_smc_rmw_tso() {
    differential_rmw("tso");
}

#[test]
fn rf_smc_rmw_pso() {
    differential_rmw("pso");
}

#[test]
fn rf_smc_heap_sc() {
    differential_heap("sc");
}

#[test]
fn rf_smc_heap_tso() {
    differential_heap("tso");
}

#[test]
fn rf_smc_heap_pso() {
    differential_heap("pso");
}
