//! Differential test of in-place revisiting (`porf_explore::revisit_in_place`, GenMC's
//! IPR): random programs whose threads wait for values threads spawned after them
//! write ([`porf_c::random_await`]: ticket locks, relays, flags with racing setters),
//! and random spin-loop programs ([`porf_c::random_spin`]: locks by test-and-set,
//! exchange, compare-exchange, trylock and fetch_sub/fetch_add, flags polled by loads,
//! Treiber pushes), with spin-assume as `porf verify` runs it, explored under every
//! model with `Config::disable_ipr` off and on, without keep-going (which turns it
//! off). In-place revisiting drops only blocked executions (the module's docs), so
//! both runs must find an error or both none, and when none, reach the same final
//! states of complete executions and the same number of complete executions, the run
//! with it at most as many blocked ones. In-place revisiting is off for now (not exact
//! as implemented: porf-explore's `tests/in_place.rs` has programs it gets wrong, which
//! these generators did not produce), so both runs are the plain exploration; the test
//! stays for its rework.
//!
//! A program whose exploration hits the time limit (30 s) either way is not compared
//! (listed; at most a quarter may be).
//!
//! `PORF_DIFF_IPR_PROGRAMS` sets the number of programs of each kind per model (default 20),
//! `PORF_DIFF_IPR_FIRST` the first seed (default 0), `PORF_DIFF_IPR_UNROLL` the bound
//! (default 3). A failure prints the model, the seed and the program; `porf verify FILE
//! --model M --keep-going --unroll 3`, with and without `--disable-ipr`, reproduces it.

use porf_c::random_await::random_await_program;
use porf_c::random_spin::random_spin_program;
use porf_c::{compile_file, CProgram, FrontOptions, RunOptions};
use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;

/// The time limit of one exploration; a program whose run with or without in-place
/// revisiting hits it is not compared (at most a quarter of them may).
const LIMIT_SECS: u64 = 30;

fn env(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn compile(text: &str, tag: &str, model: &str, unroll: u32) -> CProgram {
    let path = std::env::temp_dir().join(format!("porf-diff-ipr-{}-{tag}.c", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let module = compile_file(&path, &FrontOptions::default());
    let _ = std::fs::remove_file(&path);
    let module = module.unwrap_or_else(|d| panic!("{d}\n{text}"));
    let run = RunOptions {
        spin_assume: true,
        // As `porf verify` sets it.
        spin_private_writes: !matches!(model, "pso" | "wra"),
        unroll: Some(unroll),
        ..RunOptions::default()
    };
    CProgram::new(module, run)
}

fn diffs(on: &Stats, off: &Stats) -> Vec<String> {
    let mut d = Vec::new();
    // Without keep-going a run stops at its first error, which depends on the order
    // of exploration: then both must find one.
    if !on.errors.is_empty() || !off.errors.is_empty() {
        if on.errors.is_empty() != off.errors.is_empty() {
            d.push(format!(
                "errors\n    on  {:?}\n    off {:?}",
                on.error_keys(),
                off.error_keys()
            ));
        }
        return d;
    }
    if on.final_states != off.final_states {
        d.push(format!(
            "final states\n    on  {:?}\n    off {:?}",
            on.final_states, off.final_states
        ));
    }
    if on.error_keys() != off.error_keys() {
        d.push(format!(
            "errors\n    on  {:?}\n    off {:?}",
            on.error_keys(),
            off.error_keys()
        ));
    }
    if on.complete != off.complete {
        d.push(format!("complete {} != {}", on.complete, off.complete));
    }
    if on.blocked > off.blocked {
        d.push(format!("blocked {} > {}", on.blocked, off.blocked));
    }
    d
}

fn differential(model_name: &str) {
    let model = by_name(model_name).unwrap();
    let cfg = |disable_ipr| Config {
        timeout: Some(std::time::Duration::from_secs(LIMIT_SECS)),
        // In-place revisiting is off with keep-going (`Config::disable_ipr`).
        keep_going: false,
        collect_final_states: true,
        disable_ipr,
        ..Config::default()
    };
    let first = env("PORF_DIFF_IPR_FIRST", 0);
    let n = env("PORF_DIFF_IPR_PROGRAMS", 20);
    let unroll = env("PORF_DIFF_IPR_UNROLL", 3) as u32;
    let mut failures = Vec::new();
    let mut stopped = Vec::new();
    let (mut complete, mut blocked_on, mut blocked_off, mut errs) = (0u64, 0u64, 0u64, 0usize);
    let programs = (first..first + n).flat_map(|seed| {
        [
            (seed, random_await_program(seed)),
            (seed, random_spin_program(seed)),
        ]
    });
    for (seed, text) in programs {
        let prog = compile(&text, &format!("{model_name}-{seed}"), model_name, unroll);
        let on = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg(false));
        let off = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg(true));
        if on.stopped_by.is_some() || off.stopped_by.is_some() {
            stopped.push(text.lines().next().unwrap_or_default().to_string());
            continue;
        }
        complete += off.complete;
        blocked_on += on.blocked;
        blocked_off += off.blocked;
        errs += off.errors.len();
        let d = diffs(&on, &off);
        if !d.is_empty() {
            failures.push(format!("model {model_name}:\n  {}\n{text}", d.join("\n  ")));
        }
    }
    eprintln!(
        "{model_name}: {n} + {n} programs, {complete} complete executions, blocked {blocked_on} \
         with in-place revisiting and {blocked_off} without; {errs} errors; not compared \
         (time limit): {stopped:?}"
    );
    assert!(
        stopped.len() as u64 * 4 <= 2 * n,
        "{model_name}: too many programs hit the time limit: {stopped:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn ipr_sc() {
    differential("sc");
}

#[test]
fn ipr_tso() {
    differential("tso");
}

#[test]
fn ipr_pso() {
    differential("pso");
}

#[test]
fn ipr_ra() {
    differential("ra");
}

#[test]
fn ipr_rc11() {
    differential("rc11");
}

#[test]
fn ipr_rc11_genmc() {
    differential("rc11-genmc");
}

#[test]
fn ipr_wra() {
    differential("wra");
}

#[test]
fn ipr_sra() {
    differential("sra");
}
