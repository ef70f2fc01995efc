//! Differential test of spin-assume's zero-net-effect reductions: random spin-loop
//! programs ([`porf_c::random_spin`]: test-and-set, exchange, compare-exchange,
//! trylock and fetch_sub/fetch_add locks, flags polled by a load before the loop and
//! in it or by `fetch_or(0)`, Treiber pushes into a `malloc`'d node, relaxed to
//! seq_cst) explored under every model with the reductions on and off
//! (`RunOptions::disable_zne_spin_assume`; `spin_private_writes` as `porf verify`
//! sets it), both with spin-assume's other rules and
//! the same `--unroll` bound. The reductions only drop executions that have a
//! counterpart with fewer loop iterations (`interp::spin`'s module docs), so at the
//! same bound both runs must reach the same final states of complete executions and
//! the same errors (class and source locations); only counts may differ. Every
//! complete execution of the reduced run is one of the other's, so its complete count
//! is at most the other's.
//!
//! A program whose exploration hits the time limit (30 s) either way is not compared
//! (listed; at most a quarter may be).
//!
//! `PORF_DIFF_SPIN_PROGRAMS` sets the number of programs per model (default 20),
//! `PORF_DIFF_SPIN_FIRST` the first seed (default 0), `PORF_DIFF_SPIN_UNROLL` the
//! bound (default 3). A failure prints the model, the seed and the program; `porf
//! verify FILE --model M --keep-going --unroll 3`, with and without
//! `--disable-zne-spin-assume`, reproduces it.

use porf_c::random_spin::random_spin_program;
use porf_c::{compile_file, CProgram, FrontOptions, RunOptions};
use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;

/// The time limit of one exploration; a program whose run with or without the
/// reductions hits it is not compared (at most a quarter of them may).
const LIMIT_SECS: u64 = 30;

fn env(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn compile(text: &str, tag: &str, model: &str, zne: bool, unroll: u32) -> CProgram {
    let path = std::env::temp_dir().join(format!("porf-diff-spin-{}-{tag}.c", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let module = compile_file(&path, &FrontOptions::default());
    let _ = std::fs::remove_file(&path);
    let module = module.unwrap_or_else(|d| panic!("{d}\n{text}"));
    let run = RunOptions {
        spin_assume: true,
        disable_zne_spin_assume: !zne,
        // As `porf verify` sets it.
        spin_private_writes: !matches!(model, "pso" | "wra"),
        unroll: Some(unroll),
        ..RunOptions::default()
    };
    CProgram::new(module, run)
}

fn diffs(on: &Stats, off: &Stats) -> Vec<String> {
    let mut d = Vec::new();
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
    if on.complete > off.complete {
        d.push(format!("complete {} > {}", on.complete, off.complete));
    }
    if on.stopped_by.is_some() || off.stopped_by.is_some() {
        d.push(format!(
            "stopped: {:?} / {:?}",
            on.stopped_by, off.stopped_by
        ));
    }
    d
}

fn differential(model_name: &str) {
    let model = by_name(model_name).unwrap();
    let cfg = Config {
        timeout: Some(std::time::Duration::from_secs(LIMIT_SECS)),
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let first = env("PORF_DIFF_SPIN_FIRST", 0);
    let n = env("PORF_DIFF_SPIN_PROGRAMS", 20);
    let unroll = env("PORF_DIFF_SPIN_UNROLL", 3) as u32;
    let mut failures = Vec::new();
    let mut stopped = Vec::new();
    let (mut on_n, mut off_n, mut errs) = (0u64, 0u64, 0usize);
    for seed in first..first + n {
        let text = random_spin_program(seed);
        let on = explore(
            Strategy::Optimal,
            &compile(
                &text,
                &format!("{model_name}-{seed}-on"),
                model_name,
                true,
                unroll,
            ),
            model.as_ref(),
            &cfg,
        );
        let off = explore(
            Strategy::Optimal,
            &compile(
                &text,
                &format!("{model_name}-{seed}-off"),
                model_name,
                false,
                unroll,
            ),
            model.as_ref(),
            &cfg,
        );
        if on.stopped_by.is_some() || off.stopped_by.is_some() {
            // Too big to compare within the limit (wra's co-mode executions multiply
            // with the orders of the writes); a few such programs are expected.
            stopped.push(seed);
            continue;
        }
        on_n += on.complete;
        off_n += off.complete;
        errs += on.errors.len();
        let d = diffs(&on, &off);
        if !d.is_empty() {
            failures.push(format!(
                "model {model_name}, seed {seed}:\n  {}\n{text}",
                d.join("\n  ")
            ));
        }
    }
    eprintln!(
        "{model_name}: {n} programs, complete {on_n} with the reductions, {off_n} without; \
         {errs} errors; not compared (time limit): {stopped:?}"
    );
    assert!(
        stopped.len() as u64 * 4 <= n,
        "{model_name}: too many programs hit the time limit: {stopped:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn zne_spin_assume_sc() {
    differential("sc");
}

#[test]
fn zne_spin_assume_tso() {
    differential("tso");
}

#[test]
fn zne_spin_assume_pso() {
    differential("pso");
}

#[test]
fn zne_spin_assume_ra() {
    differential("ra");
}

#[test]
fn zne_spin_assume_rc11() {
    differential("rc11");
}

#[test]
fn zne_spin_assume_rc11_genmc() {
    differential("rc11-genmc");
}

#[test]
fn zne_spin_assume_wra() {
    differential("wra");
}

#[test]
fn zne_spin_assume_sra() {
    differential("sra");
}
