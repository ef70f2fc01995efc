//! Differential testing: on thousands of random small programs, the optimal explorer
//! and the brute-force reference explorer must agree, under every model, on the number
//! of complete and blocked executions, the set of final states and the set of errors.
//!
//! `PORF_DIFF_PROGRAMS` overrides the number of programs per model (default 2000).

use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};

fn programs_per_model() -> u64 {
    std::env::var("PORF_DIFF_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000)
}

fn compare(model: &str, seed: u64, opt: &Stats, reff: &Stats) -> Result<(), String> {
    let mut diffs = Vec::new();
    if opt.complete != reff.complete {
        diffs.push(format!(
            "complete: optimal {} vs reference {}",
            opt.complete, reff.complete
        ));
    }
    if opt.blocked != reff.blocked {
        diffs.push(format!(
            "blocked: optimal {} vs reference {}",
            opt.blocked, reff.blocked
        ));
    }
    if opt.final_states != reff.final_states {
        diffs.push(format!(
            "final states differ: optimal {:?}\n reference {:?}",
            opt.final_states, reff.final_states
        ));
    }
    if opt.error_keys() != reff.error_keys() {
        diffs.push(format!(
            "errors differ: optimal {:?} vs reference {:?}",
            opt.error_keys(),
            reff.error_keys()
        ));
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "model {model}, seed {seed}:\n  {}",
            diffs.join("\n  ")
        ))
    }
}

fn differential(model_name: &str) {
    let model = by_name(model_name).unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let gen = GenConfig::default();
    let n = programs_per_model();
    let mut failures = Vec::new();
    let (mut complete, mut blocked, mut errors) = (0u64, 0u64, 0usize);
    for seed in 0..n {
        let prog = random_program(seed, &gen);
        let opt = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
        let reff = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
        complete += reff.complete;
        blocked += reff.blocked;
        errors += reff.errors.len();
        if let Err(e) = compare(model_name, seed, &opt, &reff) {
            failures.push(format!("{e}\nprogram:\n{prog}"));
        }
    }
    println!(
        "differential {model_name}: {n} programs, {} agreed ({complete} complete, {blocked} blocked executions, {errors} errors in total)",
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
fn differential_sc() {
    differential("sc");
}

#[test]
fn differential_tso() {
    differential("tso");
}

#[test]
fn differential_ra() {
    differential("ra");
}

#[test]
fn differential_rc11() {
    differential("rc11");
}

#[test]
fn differential_rc11_genmc() {
    differential("rc11-genmc");
}
