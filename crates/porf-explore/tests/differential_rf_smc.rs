//! Differential testing of RF-SMC (`Strategy::RfSmc`) against the graph explorer in rf
//! mode, on random programs with RMWs (fetch-add, exchange, CAS), mutexes, assumes,
//! assertions, fences, non-atomics and branches (and, in the heap runs, a heap block
//! and mutex misuse), under `sc`, `tso` and `pso`:
//! * the same reads-from classes of complete executions (hence the same count), and the
//!   same number of blocked executions — both explorers count a maximal graph as
//!   blocked by the same definition (`outcome.rs`), including a lock acquire that read
//!   a taken lock;
//! * the same errors and the same final registers;
//! * exploration optimality on programs without RMWs and mutexes (the `plain` runs):
//!   RF-SMC never explores two traces of one reads-from class (`Stats::repeated_classes`
//!   counts maximal traces of any outcome whose class was seen before). With them,
//!   RF-SMC may reach a class twice but counts it once; the runs print how often.
//!
//!
//!
//! RF-partSMC (`Strategy::RfPartSmc`, the space-optimal variant) is checked the same
//! way, on programs with RMWs and mutexes, and must never explore a class twice.
//!
//! `PORF_DIFF_SMC_PROGRAMS` sets the number of programs per model (default 2000),
//! `PORF_DIFF_FIRST` the first seed, and
//! `PORF_DIFF_SMC_HEAP_PROGRAMS` that of the runs on programs with heap blocks and
//! mutex misuse (default 500).

mod common;

use common::{env, registers};

use porf_explore::{explore, Config, Equiv, Stats, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};

fn compare(graph: &Stats, smc: &Stats, optimal: bool) -> Vec<String> {
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
    if optimal && smc.repeated_classes != 0 {
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

/// Compares on `n` programs from `gen`; `optimal`: RF-SMC must explore no class twice.
fn run(model_name: &str, gen: &GenConfig, n: u64, what: &str, optimal: bool) {
    run_with(Strategy::RfSmc, model_name, gen, n, what, optimal);
}

fn run_with(
    strategy: Strategy,
    model_name: &str,
    gen: &GenConfig,
    n: u64,
    what: &str,
    optimal: bool,
) {
    let model = by_name(model_name).unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        collect_rf_classes: true,
        equiv: Equiv::Rf,
        ..Config::default()
    };
    let mut failures = Vec::new();
    let (mut classes, mut traces, mut repeats) = (0u64, 0u64, 0u64);
    let first: u64 = env("PORF_DIFF_FIRST", 0);
    for seed in first..first + n {
        let prog = random_program(seed, gen);
        let graph = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
        let smc = explore(strategy, &prog, model.as_ref(), &cfg);
        classes += graph.complete + graph.blocked;
        traces += smc.smc.calls;
        repeats += smc.repeated_classes;
        let diffs = compare(&graph, &smc, optimal);
        if !diffs.is_empty() {
            if std::env::var("PORF_DIFF_VERBOSE").is_ok() {
                println!("seed {seed}: {}", diffs.join(" | "));
                if std::env::var("PORF_DIFF_WITNESS").is_ok() {
                    let sk = smc.error_keys();
                    for e in &graph.errors {
                        let (c, l, m) = e.key();
                        let l: Vec<_> = l.iter().map(|s| (s.file, s.line, s.col)).collect();
                        if !sk.contains(&(c, l, m.to_string())) {
                            println!(
                                "missing {:?} {}\n{}\nprogram:\n{prog}",
                                e.class, e.message, e.witness
                            );
                        }
                    }
                }
            }
            failures.push(format!(
                "model {model_name}, seed {seed}:\n  {}\nprogram:\n{prog}",
                diffs.join("\n  ")
            ));
        }
    }
    println!(
        "differential {strategy:?}{what} {model_name}: {n} programs, {} agreed ({classes} complete or blocked classes, {traces} rf-smc traces, {repeats} of them repeats)",
        n - failures.len() as u64
    );
    assert!(
        failures.is_empty(),
        "{} of {n} programs disagree under {model_name}; first:\n{}",
        failures.len(),
        failures[0]
    );
}

/// Programs with RMWs and mutexes (RF-SMC counts each class once but may reach one
/// twice: see `rf_smc`'s documentation).
fn differential(model_name: &str) {
    let n = env("PORF_DIFF_SMC_PROGRAMS", 2000);
    run(model_name, &GenConfig::default(), n, "", false);
}

/// Programs without RMWs and mutexes: RF-SMC explores each class once.
fn differential_plain(model_name: &str) {
    let n = env("PORF_DIFF_SMC_PROGRAMS", 2000);
    let gen = GenConfig {
        rmws: false,
        mutexes: false,
        ..GenConfig::default()
    };
    run(model_name, &gen, n, " plain", true);
}

/// Programs with a heap block (malloc/free, accesses in and out of bounds) and mutex
/// misuse.
fn differential_heap(model_name: &str) {
    let gen = GenConfig {
        heap: true,
        lock_misuse: true,
        max_events: 11,
        max_locs: 2,
        ..GenConfig::default()
    };
    let n = env("PORF_DIFF_SMC_HEAP_PROGRAMS", 500);
    run(model_name, &gen, n, " heap", false);
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
fn rf_smc_plain_sc() {
    differential_plain("sc");
}

#[test]
fn rf_smc_plain_tso() {
    differential_plain("tso");
}

#[test]
fn rf_smc_plain_pso() {
    differential_plain("pso");
}

/// RF-partSMC (`--low-memory`) on programs with RMWs and mutexes: each class once.
fn differential_part(model_name: &str) {
    let n = env("PORF_DIFF_SMC_PROGRAMS", 2000);
    run_with(
        Strategy::RfPartSmc,
        model_name,
        &GenConfig::default(),
        n,
        "",
        true,
    );
}

/// RF-partSMC on the heap and mutex-misuse programs.
fn differential_part_heap(model_name: &str) {
    let gen = GenConfig {
        heap: true,
        lock_misuse: true,
        max_events: 11,
        max_locs: 2,
        ..GenConfig::default()
    };
    let n = env("PORF_DIFF_SMC_HEAP_PROGRAMS", 500);
    run_with(Strategy::RfPartSmc, model_name, &gen, n, " heap", true);
}

#[test]
fn rf_part_smc_heap_sc() {
    differential_part_heap("sc");
}

#[test]
fn rf_part_smc_heap_tso() {
    differential_part_heap("tso");
}

#[test]
fn rf_part_smc_heap_pso() {
    differential_part_heap("pso");
}

#[test]
fn rf_part_smc_sc() {
    differential_part("sc");
}

#[test]
fn rf_part_smc_tso() {
    differential_part("tso");
}

#[test]
fn rf_part_smc_pso() {
    differential_part("pso");
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
