//! Differential testing of rf mode (executions are (events, rf)): on random programs,
//! under every model,
//! * the optimal explorer's rf-mode count equals the number of distinct reads-from
//!   projections of the co-mode complete executions (the definition of the
//!   equivalence), and equals the reference explorer's rf-mode count;
//! * blocked counts agree between the two rf-mode explorers;
//! * errors (they depend on rf and hb only) are the same in rf and co mode;
//! * final states projected on registers (memory's final values depend on a co, which
//!   rf mode does not fix) are the same in rf and co mode.
//!
//! `PORF_DIFF_RF_PROGRAMS` sets the number of programs per model (default 2000), and
//! `PORF_DIFF_RF_HEAP_PROGRAMS` that of the runs on programs with heap blocks and
//! mutex misuse (default 500).

mod common;

use common::{env, registers};

use porf_explore::{explore, Config, Equiv, Stats, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};

fn programs_per_model() -> u64 {
    env("PORF_DIFF_RF_PROGRAMS", 2000)
}

fn heap_programs_per_model() -> u64 {
    env("PORF_DIFF_RF_HEAP_PROGRAMS", 500)
}

fn compare(co: &Stats, opt: &Stats, reff: &Stats) -> Vec<String> {
    let mut diffs = Vec::new();
    let classes = co.rf_classes.len() as u64;
    if opt.complete != classes || reff.complete != classes {
        diffs.push(format!(
            "complete: rf optimal {}, rf reference {}, rf classes of co mode {classes}",
            opt.complete, reff.complete
        ));
    }
    if opt.blocked != reff.blocked {
        diffs.push(format!(
            "blocked: rf optimal {} vs rf reference {}",
            opt.blocked, reff.blocked
        ));
    }
    if opt.error_keys() != reff.error_keys() || opt.error_keys() != co.error_keys() {
        diffs.push(format!(
            "errors: rf optimal {:?}, rf reference {:?}, co mode {:?}",
            opt.error_keys(),
            reff.error_keys(),
            co.error_keys()
        ));
    }
    if registers(opt) != registers(co) || registers(reff) != registers(co) {
        diffs.push(format!(
            "final registers: rf optimal {:?}, rf reference {:?}, co mode {:?}",
            registers(opt),
            registers(reff),
            registers(co)
        ));
    }
    diffs
}

fn differential_rf(model_name: &str) {
    run(model_name, &GenConfig::default(), programs_per_model(), "");
}

/// Programs with a heap block (malloc/free, accesses in and out of bounds) and mutex
/// misuse, as in the co-mode heap differential tests.
fn differential_rf_heap(model_name: &str) {
    let gen = GenConfig {
        heap: true,
        lock_misuse: true,
        max_events: 11,
        max_locs: 2,
        ..GenConfig::default()
    };
    run(model_name, &gen, heap_programs_per_model(), " heap");
}

fn run(model_name: &str, gen: &GenConfig, n: u64, what: &str) {
    let model = by_name(model_name).unwrap();
    let base = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let co_cfg = Config {
        collect_rf_classes: true,
        ..base.clone()
    };
    let rf_cfg = Config {
        equiv: Equiv::Rf,
        ..base
    };
    let mut failures = Vec::new();
    let (mut co_total, mut rf_total) = (0u64, 0u64);
    for seed in 0..n {
        let prog = random_program(seed, gen);
        let co = explore(Strategy::Optimal, &prog, model.as_ref(), &co_cfg);
        let opt = explore(Strategy::Optimal, &prog, model.as_ref(), &rf_cfg);
        let reff = explore(Strategy::Reference, &prog, model.as_ref(), &rf_cfg);
        co_total += co.complete;
        rf_total += opt.complete;
        let diffs = compare(&co, &opt, &reff);
        if !diffs.is_empty() {
            failures.push(format!(
                "model {model_name}, seed {seed}:\n  {}\nprogram:\n{prog}",
                diffs.join("\n  ")
            ));
        }
    }
    println!(
        "differential rf{what} {model_name}: {n} programs, {} agreed ({co_total} co-mode executions, {rf_total} rf classes)",
        n - failures.len() as u64
    );
    assert!(
        failures.is_empty(),
        "{} of {n} programs disagree under {model_name}; first:\n{}",
        failures.len(),
        failures[0]
    );
}

#[test]
fn differential_rf_sc() {
    differential_rf("sc");
}

#[test]
fn differential_rf_tso() {
    differential_rf("tso");
}

#[test]
fn differential_rf_pso() {
    differential_rf("pso");
}

#[test]
fn differential_rf_ra() {
    differential_rf("ra");
}

#[test]
fn differential_rf_rc11() {
    differential_rf("rc11");
}

#[test]
fn differential_rf_heap_sc() {
    differential_rf_heap("sc");
}

#[test]
fn differential_rf_heap_tso() {
    differential_rf_heap("tso");
}

#[test]
fn differential_rf_heap_ra() {
    differential_rf_heap("ra");
}

#[test]
fn differential_rf_heap_rc11() {
    differential_rf_heap("rc11");
}

#[test]
fn differential_rf_heap_pso() {
    differential_rf_heap("pso");
}
