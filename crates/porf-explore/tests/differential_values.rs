//! Differential testing of the values explorer (`porf_explore::values`): on random
//! small programs, under every model of `porf_models::MODEL_NAMES` (none allows load
//! buffering, so both explorers enumerate the same executions), it must agree with
//! the brute-force reference explorer on the number of complete, blocked and
//! erroneous executions, the set of final states and the set of errors, in co mode
//! and in rf mode.
//!
//! `PORF_DIFF_VALUES_PROGRAMS` overrides the number of programs per model and
//! equivalence (default 150), `PORF_DIFF_VALUES_EVENTS` the event bound of the random
//! programs (default 6: value enumeration tries every rf and co of every script, so
//! it grows faster than the other explorers). `PORF_DIFF_VALUES_SEED` shifts the
//! seeds. The heap run (co mode) uses programs with a heap block and mutex misuse
//! (`GenConfig::heap`, `lock_misuse`: uninitialised reads, frees, destroyed mutexes),
//! `PORF_DIFF_VALUES_HEAP_PROGRAMS` of them per model (default 150), of
//! `PORF_DIFF_VALUES_HEAP_EVENTS` events (default 7).

mod common;

use common::env;
use porf_explore::{explore, Config, Equiv, Stats, Strategy};
use porf_models::{by_name, MODEL_NAMES};
use porf_toy::{random_program, GenConfig};
use std::time::Instant;

fn compare(vals: &Stats, reff: &Stats) -> Vec<String> {
    let mut diffs = Vec::new();
    let counts = |s: &Stats| (s.complete, s.blocked, s.erroneous);
    if counts(vals) != counts(reff) {
        diffs.push(format!(
            "complete, blocked, erroneous: values {:?} vs reference {:?}",
            counts(vals),
            counts(reff)
        ));
    }
    if vals.final_states != reff.final_states {
        diffs.push(format!(
            "final states differ: values {:?}\n reference {:?}",
            vals.final_states, reff.final_states
        ));
    }
    if vals.error_keys() != reff.error_keys() {
        diffs.push(format!(
            "errors differ: values {:?} vs reference {:?}",
            vals.error_keys(),
            reff.error_keys()
        ));
    }
    diffs
}

fn differential(equiv: Equiv, heap: bool) {
    let (n, gen) = if heap {
        let gen = GenConfig {
            max_events: env("PORF_DIFF_VALUES_HEAP_EVENTS", 7) as usize,
            heap: true,
            lock_misuse: true,
            ..GenConfig::default()
        };
        (env("PORF_DIFF_VALUES_HEAP_PROGRAMS", 150), gen)
    } else {
        let gen = GenConfig {
            max_events: env("PORF_DIFF_VALUES_EVENTS", 6) as usize,
            ..GenConfig::default()
        };
        (env("PORF_DIFF_VALUES_PROGRAMS", 150), gen)
    };
    let base = env("PORF_DIFF_VALUES_SEED", 0);
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        equiv,
        ..Config::default()
    };
    let start = Instant::now();
    let mut failures = Vec::new();
    let (mut complete, mut blocked, mut errors) = (0u64, 0u64, 0usize);
    for name in MODEL_NAMES {
        let model = by_name(name).unwrap();
        assert!(!model.allows_load_buffering());
        for seed in base..base + n {
            let prog = random_program(seed, &gen);
            let vals = explore(Strategy::Values, &prog, model.as_ref(), &cfg);
            let reff = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
            complete += reff.complete;
            blocked += reff.blocked;
            errors += reff.errors.len();
            let d = compare(&vals, &reff);
            if !d.is_empty() {
                failures.push(format!(
                    "model {name}, seed {seed}:\n  {}\nprogram:\n{prog}",
                    d.join("\n  ")
                ));
            }
        }
    }
    println!(
        "differential values ({}{}): {n} programs per model, {} models, {:.1} s, {} disagree \
         ({complete} complete, {blocked} blocked executions, {errors} errors in total)",
        equiv.name(),
        if heap { ", heap" } else { "" },
        MODEL_NAMES.len(),
        start.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements; first:\n{}",
        failures.len(),
        failures[0]
    );
}

#[test]
fn differential_values_co() {
    differential(Equiv::Co, false);
}

#[test]
fn differential_values_heap() {
    differential(Equiv::Co, true);
}

#[test]
fn differential_values_rf() {
    differential(Equiv::Rf, false);
}
