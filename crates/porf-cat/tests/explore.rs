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

/// `sc.cat` with two flags that some executions raise and others do not.
const FLAGGED: &str =
    "include \"sc.cat\"\nflag ~empty (rf & ext) as rfe\nflag ~empty (co & ext) as coe\n";

/// A cat model whose flags are evaluated afresh on each graph
/// ([`porf_cat::CatModel::verdict`]), with no reuse of the consistency question's
/// evaluation: the oracle of [`flags_are_those_a_fresh_evaluation_raises`].
#[derive(Debug)]
struct FreshFlags(porf_cat::CatModel);

impl porf_models::MemoryModel for FreshFlags {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn hb_view(&self, g: &porf_graph::Graph, e: porf_graph::EventId) -> porf_graph::View {
        self.0.hb_view(g, e)
    }
    fn consistent_with(&self, g: &porf_graph::Graph, e: porf_graph::EventId) -> bool {
        self.0.consistent_with(g, e)
    }
    fn is_consistent(&self, g: &porf_graph::Graph) -> bool {
        self.0.is_consistent(g)
    }
    fn reads_stale(&self, g: &porf_graph::Graph, r: porf_graph::EventId) -> bool {
        self.0.reads_stale(g, r)
    }
    fn maximal_extensions_consistent(&self) -> bool {
        self.0.maximal_extensions_consistent()
    }
    fn has_data_races(&self) -> bool {
        self.0.has_data_races()
    }
    fn allows_load_buffering(&self) -> bool {
        self.0.allows_load_buffering()
    }
    fn flags(&self, g: &porf_graph::Graph) -> Vec<&'static str> {
        let v = self.0.verdict(g).unwrap_or_else(|e| panic!("{e}"));
        let mut out: Vec<&'static str> = Vec::new();
        if v.allowed() {
            for f in v.flags {
                out.push(Box::leak(f.into_boxed_str()));
            }
        }
        out
    }
}

/// The flags a cat model raises on each complete execution (kept from the
/// consistency question that allowed it) are those a fresh evaluation of the model
/// raises, on random toy programs (at most 40), by both explorers.
#[test]
fn flags_are_those_a_fresh_evaluation_raises() {
    let dir = std::env::temp_dir().join(format!("porf-cat-flagged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cat_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("cat");
    std::fs::copy(cat_dir.join("sc.cat"), dir.join("sc.cat")).unwrap();
    let file = dir.join("flagged.cat");
    std::fs::write(&file, FLAGGED).unwrap();
    let cat = model_from_file(&file, &[]).unwrap_or_else(|e| panic!("{e}"));
    let fresh = FreshFlags(model_from_file(&file, &[]).unwrap_or_else(|e| panic!("{e}")));
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        disable_race_detection: true,
        ..Config::default()
    };
    let gen = GenConfig::default();
    let mut raised = 0;
    for seed in 0..programs().min(40) {
        let prog = random_program(seed, &gen);
        for strategy in [Strategy::Optimal, Strategy::Reference] {
            let kept = explore(strategy, &prog, &cat, &cfg);
            let evaluated = explore(strategy, &prog, &fresh, &cfg);
            assert_eq!(kept.complete, evaluated.complete, "seed {seed}\n{prog}");
            assert_eq!(kept.flags, evaluated.flags, "seed {seed}\n{prog}");
            raised += kept.flags.len();
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(raised > 0, "no program raised a flag");
}
