//! Exploring under a cat model: on random toy programs (`porf_toy::random_program`:
//! 2–4 threads, up to 8 events, mutexes, RMWs, fences, branches, assumes and asserts),
//! porf's graph explorer under `CatModel` (porf's own `sc.cat`, `tso.cat`, `rc11.cat`)
//! finds the same complete executions, final states and errors as
//! * the reference explorer under the same cat model (blocked executions too), and
//! * the graph explorer under the native model of the same name.
//!
//! Data races are not reported under a cat model, so race detection is off in every
//! run. `PORF_CAT_PROGRAMS` overrides the number of programs per model (default 100).

use porf_cat::model_from_file;
use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};
use std::path::PathBuf;

fn programs() -> u64 {
    std::env::var("PORF_CAT_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100)
}

fn diffs(what: &str, a: &Stats, b: &Stats, blocked: bool) -> Vec<String> {
    let mut d = Vec::new();
    if a.complete != b.complete {
        d.push(format!("{what}: complete {} vs {}", a.complete, b.complete));
    }
    if blocked && a.blocked != b.blocked {
        d.push(format!("{what}: blocked {} vs {}", a.blocked, b.blocked));
    }
    if a.final_states != b.final_states {
        d.push(format!(
            "{what}: final states {:?} vs {:?}",
            a.final_states, b.final_states
        ));
    }
    if a.error_keys() != b.error_keys() {
        d.push(format!(
            "{what}: errors {:?} vs {:?}",
            a.error_keys(),
            b.error_keys()
        ));
    }
    d
}

fn run(native: &str) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("cat")
        .join(format!("{native}.cat"));
    let cat = model_from_file(&file, &[]).unwrap_or_else(|e| panic!("{e}"));
    let native_model = by_name(native).unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        disable_race_detection: true,
        explore_stale_blocks: true,
        ..Config::default()
    };
    let gen = GenConfig::default();
    let mut failures = Vec::new();
    let (mut complete, mut errors) = (0, 0);
    for seed in 0..programs() {
        let prog = random_program(seed, &gen);
        let graph = explore(Strategy::Optimal, &prog, &cat, &cfg);
        let reference = explore(Strategy::Reference, &prog, &cat, &cfg);
        let native_run = explore(Strategy::Optimal, &prog, native_model.as_ref(), &cfg);
        assert!(cat.runtime_error().is_none(), "{:?}", cat.runtime_error());
        let mut d = diffs("cat graph vs cat reference", &graph, &reference, true);
        d.extend(diffs(
            "cat graph vs native graph",
            &graph,
            &native_run,
            false,
        ));
        if !d.is_empty() {
            failures.push(format!("seed {seed}:\n  {}\n{prog}", d.join("\n  ")));
        }
        complete += graph.complete;
        errors += graph.errors.len();
    }
    println!(
        "{native}.cat: {} programs, {complete} complete executions, {errors} errors",
        programs()
    );
    assert!(
        failures.is_empty(),
        "{} programs disagree under {native}.cat; first:\n{}",
        failures.len(),
        failures[0]
    );
}

#[test]
fn sc_cat_explores_as_native_sc() {
    run("sc");
}

#[test]
fn tso_cat_explores_as_native_tso() {
    run("tso");
}

#[test]
fn rc11_cat_explores_as_native_rc11() {
    run("rc11");
}
