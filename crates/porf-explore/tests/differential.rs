//! Differential testing: on thousands of random small programs, the optimal explorer
//! and the brute-force reference explorer must agree, under every model, on the number
//! of complete and blocked executions, the set of final states and the set of errors.
//!
//! The optimal explorer is compared with its stale blocks explored
//! ([`Config::explore_stale_blocks`]); its default run, which skips them
//! (`porf_explore::stale`: e.g. a lock acquire's non-maximal choices that read a taken
//! lock), must then find the same complete executions, final states and errors, and at
//! most as many blocked and erroneous executions ([`common::stale_diffs`]).
//!
//! `PORF_DIFF_PROGRAMS` overrides the number of programs per model (default 2000).
//!
//! The `differential_heap_*` runs use programs with a heap block (malloc, frees, accesses
//! in and out of bounds) and mutex misuse (stray unlocks, re-locks, destroy, init), of
//! up to 11 events (malloc, frees and misuse included) over 1–2 ordinary locations plus
//! the block's 2 cells: the heap and misuse operations take part of the budget and the
//! cells spread accesses over more locations, so the default 8 events would leave few
//! conflicting accesses. `PORF_DIFF_HEAP_PROGRAMS` overrides their number of programs
//! per model (default 2000), `PORF_DIFF_HEAP_EVENTS` and `PORF_DIFF_HEAP_LOCS` the
//! event bound and the number of ordinary locations. They print how many programs had
//! each kind of error and, from 100 programs on, check that every kind of lifetime error
//! and invalid unlocks occurred.

mod common;

use common::env;

use std::collections::BTreeMap;

use porf_explore::{explore, Config, ErrorClass, ErrorReport, Stats, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};

fn programs_per_model() -> u64 {
    env("PORF_DIFF_PROGRAMS", 2000)
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
    if opt.erroneous != reff.erroneous {
        diffs.push(format!(
            "erroneous: optimal {} vs reference {}",
            opt.erroneous, reff.erroneous
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

/// Runs the optimal explorer with its stale blocks explored (the run compared with the
/// reference explorer) and by default (checked against it with
/// [`common::stale_diffs`]);
/// returns the first, and whether pruning dropped any execution.
fn optimal_runs(
    model_name: &str,
    seed: u64,
    prog: &porf_toy::ToyProgram,
    model: &dyn porf_models::MemoryModel,
    cfg: &Config,
    failures: &mut Vec<String>,
) -> (Stats, bool) {
    let full_cfg = Config {
        explore_stale_blocks: true,
        ..cfg.clone()
    };
    let full = explore(Strategy::Optimal, prog, model, &full_cfg);
    let pruned = explore(Strategy::Optimal, prog, model, cfg);
    let fewer = pruned.blocked + pruned.erroneous < full.blocked + full.erroneous;
    let d = common::stale_diffs(&pruned, &full);
    if !d.is_empty() {
        failures.push(format!(
            "model {model_name}, seed {seed}:\n  {}\nprogram:\n{prog}",
            d.join("\n  ")
        ));
    }
    (full, fewer)
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
    let (mut complete, mut blocked, mut errors, mut pruned) = (0u64, 0u64, 0usize, 0u64);
    for seed in 0..n {
        let prog = random_program(seed, &gen);
        let (opt, fewer) =
            optimal_runs(model_name, seed, &prog, model.as_ref(), &cfg, &mut failures);
        pruned += u64::from(fewer);
        let reff = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
        complete += reff.complete;
        blocked += reff.blocked;
        errors += reff.errors.len();
        if let Err(e) = compare(model_name, seed, &opt, &reff) {
            failures.push(format!("{e}\nprogram:\n{prog}"));
        }
    }
    println!(
        "differential {model_name}: {n} programs, {} agreed ({complete} complete, {blocked} blocked executions, {errors} errors in total; {pruned} programs with fewer blocked executions when stale blocks are skipped)",
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
fn differential_pso() {
    differential("pso");
}

#[test]
fn differential_ra() {
    differential("ra");
}

#[test]
fn differential_rc11() {
    differential("rc11");
}

/// The kind of an error for the heap runs' tallies: its class, refined by message for
/// memory errors.
fn error_kind(e: &ErrorReport) -> &'static str {
    let m = e.message.as_str();
    match e.class {
        ErrorClass::Memory if m.starts_with("access to freed") => "memory: access to freed",
        ErrorClass::Memory if m.starts_with("access to non-allocated") => {
            "memory: access to non-allocated"
        }
        ErrorClass::Memory if m.starts_with("out-of-bounds") => "memory: out of bounds",
        ErrorClass::Memory if m.starts_with("double free") => "memory: double free",
        ErrorClass::Memory if m.starts_with("free of non-allocated") => {
            "memory: free of non-allocated"
        }
        ErrorClass::Memory if m.starts_with("read of uninitialised") => {
            "memory: uninitialised read"
        }
        ErrorClass::Memory if m.starts_with("lock of a destroyed") => {
            "memory: lock of a destroyed mutex"
        }
        ErrorClass::Memory => "memory: other",
        ErrorClass::Lock if m.starts_with("invalid unlock") => "lock: invalid unlock",
        ErrorClass::Lock => "lock: other",
        ErrorClass::Assertion => "assertion",
        ErrorClass::Abort => "abort",
        ErrorClass::Race => "race",
        ErrorClass::Deadlock => "deadlock",
        ErrorClass::Unsupported => "unsupported",
        ErrorClass::Liveness => "liveness",
        ErrorClass::NonTermination => "non-termination",
    }
}

/// The error kinds every heap run must exhibit somewhere.
const REQUIRED_HEAP_KINDS: [&str; 7] = [
    "memory: access to freed",
    "memory: uninitialised read",
    "memory: access to non-allocated",
    "memory: out of bounds",
    "memory: double free",
    "memory: free of non-allocated",
    "lock: invalid unlock",
];

/// The differential comparison on programs with heap blocks and mutex misuse, with a
/// tally of the programs exhibiting each kind of error.
fn differential_heap(model_name: &str) {
    let model = by_name(model_name).unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let gen = GenConfig {
        heap: true,
        lock_misuse: true,
        max_events: env("PORF_DIFF_HEAP_EVENTS", 11) as usize,
        max_locs: env("PORF_DIFF_HEAP_LOCS", 2) as usize,
        ..GenConfig::default()
    };
    let n = env("PORF_DIFF_HEAP_PROGRAMS", 2000);
    let mut failures = Vec::new();
    let (mut complete, mut blocked, mut erroneous, mut pruned) = (0u64, 0u64, 0u64, 0u64);
    let mut kinds: BTreeMap<&str, u64> = BTreeMap::new();
    let start = std::time::Instant::now();
    for seed in 0..n {
        let prog = random_program(seed, &gen);
        let (opt, fewer) =
            optimal_runs(model_name, seed, &prog, model.as_ref(), &cfg, &mut failures);
        pruned += u64::from(fewer);
        let reff = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
        complete += reff.complete;
        blocked += reff.blocked;
        erroneous += reff.erroneous;
        let mut seen: Vec<&str> = opt
            .errors
            .iter()
            .chain(&reff.errors)
            .map(error_kind)
            .collect();
        seen.sort_unstable();
        seen.dedup();
        for k in seen {
            *kinds.entry(k).or_default() += 1;
        }
        if let Err(e) = compare(model_name, seed, &opt, &reff) {
            failures.push(format!("{e}\nprogram:\n{prog}"));
        }
    }
    let tally: Vec<String> = kinds.iter().map(|(k, c)| format!("{k}: {c}")).collect();
    println!(
        "differential heap {model_name}: {n} programs in {:.1} s, {} agreed ({complete} complete, {blocked} blocked, {erroneous} erroneous executions; {pruned} programs with fewer when stale blocks are skipped); programs with errors by kind: {}",
        start.elapsed().as_secs_f64(),
        n - failures.len() as u64,
        tally.join(", ")
    );
    assert!(
        failures.is_empty(),
        "{} of {n} programs disagree under {model_name} (heap, lock misuse); first:\n{}",
        failures.len(),
        failures[0]
    );
    if n >= 100 {
        let missing: Vec<&str> = REQUIRED_HEAP_KINDS
            .iter()
            .copied()
            .filter(|k| !kinds.contains_key(k))
            .collect();
        assert!(
            missing.is_empty(),
            "no program had {missing:?} under {model_name}"
        );
    }
}

#[test]
fn differential_heap_sc() {
    differential_heap("sc");
}

#[test]
fn differential_heap_tso() {
    differential_heap("tso");
}

#[test]
fn differential_heap_ra() {
    differential_heap("ra");
}

#[test]
fn differential_heap_rc11() {
    differential_heap("rc11");
}

#[test]
fn differential_rc11_genmc() {
    differential("rc11-genmc");
}

/// Random programs with at least two seq_cst fences, against the reference explorer
/// under both RC11s: the optimal explorer decides psc incrementally
/// (`porf_models::rc11`'s forward search, SC fences included; in debug builds every
/// step is also asserted against the whole-graph check), the reference explorer
/// checks each complete graph declaratively. Programs of up to 9 events over 2–4
/// threads, without mutexes (more room for accesses and fences);
/// `PORF_DIFF_FENCE_PROGRAMS` overrides the number of programs kept per model
/// (default 600).
fn differential_sc_fences(model_name: &str) {
    let model = by_name(model_name).unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let gen = GenConfig {
        max_events: 9,
        mutexes: false,
        ..GenConfig::default()
    };
    let want = env("PORF_DIFF_FENCE_PROGRAMS", 600);
    let (mut kept, mut complete) = (0u64, 0u64);
    let mut failures = Vec::new();
    let mut seed = 0u64;
    while kept < want {
        let s = seed;
        seed += 1;
        let prog = random_program(s, &gen);
        if prog.to_string().matches("fence(sc)").count() < 2 {
            continue;
        }
        kept += 1;
        let (opt, _) = optimal_runs(model_name, s, &prog, model.as_ref(), &cfg, &mut failures);
        let reff = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
        complete += reff.complete;
        if let Err(e) = compare(model_name, s, &opt, &reff) {
            failures.push(format!("{e}\nprogram:\n{prog}"));
        }
    }
    println!("differential with SC fences, {model_name}: {kept} programs ({seed} drawn), {complete} complete executions");
    assert!(
        failures.is_empty(),
        "{} of {kept} programs with SC fences disagree under {model_name}; first:\n{}",
        failures.len(),
        failures[0]
    );
}

#[test]
fn differential_rc11_sc_fences() {
    differential_sc_fences("rc11");
}

#[test]
fn differential_rc11_genmc_sc_fences() {
    differential_sc_fences("rc11-genmc");
}
