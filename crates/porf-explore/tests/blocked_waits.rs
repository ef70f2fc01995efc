//! Programs where a thread waits on a value a later write brings (a spin-assume or
//! failed-`assume` block on its last read, the write arriving after it), run by the
//! optimal explorer at its defaults against the brute-force reference explorer, under
//! every model: the same complete executions and final states, and at most as many
//! blocked ones. They are the programs on which two attempts at GenMC's in-place
//! revisiting duplicated or lost complete executions (porf has none), kept so that any
//! scheme touching waiting reads is checked on them first. Then a random search of the
//! same kind: toy programs without assertions (so that no error hides a complete
//! execution), the default run against the one exploring stale blocks.

use porf_explore::{explore, Config, Stats, Strategy};
use porf_graph::MemOrder::Relaxed;
use porf_models::by_name;
use porf_toy::{eq, random_program, GenConfig, ProgramBuilder, ToyProgram};

const MODELS: [&str; 6] = ["sc", "tso", "pso", "ra", "rc11", "rc11-genmc"];

fn config(keep_going: bool) -> Config {
    Config {
        keep_going,
        collect_final_states: true,
        ..Config::default()
    }
}

/// The default optimal run against `reff`: returns what differs.
fn diffs(opt: &Stats, reff: &Stats) -> Option<String> {
    (opt.complete != reff.complete
        || opt.blocked > reff.blocked
        || opt.erroneous > reff.erroneous
        || opt.final_states != reff.final_states)
        .then(|| {
            format!(
                "complete {} vs {}, blocked {} vs {}, erroneous {} vs {}, final states {} vs {}",
                opt.complete,
                reff.complete,
                opt.blocked,
                reff.blocked,
                opt.erroneous,
                reff.erroneous,
                opt.final_states.len(),
                reff.final_states.len()
            )
        })
}

fn against_reference(prog: &ToyProgram) {
    for m in MODELS {
        let model = by_name(m).unwrap();
        for keep_going in [false, true] {
            let cfg = config(keep_going);
            let opt = explore(Strategy::Optimal, prog, model.as_ref(), &cfg);
            let reff = explore(Strategy::Reference, prog, model.as_ref(), &cfg);
            if let Some(d) = diffs(&opt, &reff) {
                panic!("{m}, keep-going {keep_going}: {d}\n{prog}");
            }
        }
    }
}

/// `P0` blocked on 3 and re-read after `x = 2` was counted again when `x = 2`
/// revisited `P1`'s read (3 complete executions under SC, 4 with it).
#[test]
fn waiting_read_before_a_revisited_read() {
    let mut b = ProgramBuilder::new();
    let x = b.loc("x");
    b.thread(|t| {
        let r = t.load(x, Relaxed);
        t.assume(eq(r, 0));
    });
    b.thread(|t| {
        t.store(x, 3, Relaxed);
        let _ = t.load(x, Relaxed);
    });
    b.thread(|t| t.store(x, 2, Relaxed));
    against_reference(&b.build());
}

/// Lost executions and final states (46 complete executions, 12 final states under
/// SC; 32 and 10 with it).
#[test]
fn waiting_read_among_rmws() {
    let mut b = ProgramBuilder::new();
    let x = b.loc("x");
    b.thread(|t| t.store(x, 3, Relaxed));
    b.thread(|t| {
        let r = t.load(x, Relaxed);
        t.assume(eq(r, 2));
    });
    b.thread(|t| {
        t.store(x, 1, Relaxed);
        let _ = t.cas(x, 1, 2, Relaxed, Relaxed);
    });
    b.thread(|t| {
        t.store(x, 2, Relaxed);
        let _ = t.fetch_add(x, 1, Relaxed);
    });
    against_reference(&b.build());
}

/// porf-explore's differential test's seed 412 (ra): every execution fails an
/// assertion, and the duplicated ones were counted as erroneous (715 against 610).
#[test]
fn differential_seed_412() {
    against_reference(&random_program(412, &GenConfig::default()));
}

/// Random toy programs without assertions (the generator's default and a larger,
/// lock-free one): the default run against the one exploring stale blocks, under SC
/// and RA. `PORF_WAIT_PROGRAMS` overrides the number of programs (default 600 each).
#[test]
fn random_waits() {
    let n: u64 = std::env::var("PORF_WAIT_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let gens = [
        GenConfig {
            asserts: false,
            ..GenConfig::default()
        },
        GenConfig {
            asserts: false,
            max_events: 10,
            mutexes: false,
            ..GenConfig::default()
        },
    ];
    let mut failures = Vec::new();
    for gen in &gens {
        for m in ["sc", "ra"] {
            let model = by_name(m).unwrap();
            for seed in 0..n {
                let prog = random_program(seed, gen);
                let cfg = config(true);
                let full = Config {
                    explore_stale_blocks: true,
                    ..cfg.clone()
                };
                let opt = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
                let all = explore(Strategy::Optimal, &prog, model.as_ref(), &full);
                if let Some(d) = diffs(&opt, &all) {
                    failures.push(format!("{m}, seed {seed}: {d}\n{prog}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} programs differ; first:\n{}",
        failures.len(),
        failures[0]
    );
}
