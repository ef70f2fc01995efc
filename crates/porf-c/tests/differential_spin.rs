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

mod common;

use common::{compile, outcome_diffs, seeds, verify_spin_run, Campaign};
use porf_c::random_spin::random_spin_program;
use porf_c::RunOptions;
use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;

/// The time limit of one exploration; a program whose run with or without the
/// reductions hits it is not compared (at most a quarter of them may).
const LIMIT_SECS: u64 = 30;

/// `text` as `porf verify --model MODEL --unroll UNROLL` runs it, with the reductions
/// (`zne`) or without.
fn program(text: &str, tag: &str, model: &str, zne: bool, unroll: u32) -> porf_c::CProgram {
    let run = RunOptions {
        disable_zne_spin_assume: !zne,
        ..verify_spin_run(model, unroll)
    };
    compile(text, "diff-spin", tag, run)
}

fn diffs(on: &Stats, off: &Stats) -> Vec<String> {
    let mut d = outcome_diffs("on / off", on, off);
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
    let seeds = seeds("PORF_DIFF_SPIN", 20);
    let n = seeds.end - seeds.start;
    let unroll = common::env("PORF_DIFF_SPIN_UNROLL", 3) as u32;
    let mut campaign = Campaign::new(model_name);
    let (mut on_n, mut off_n, mut errs) = (0u64, 0u64, 0usize);
    for seed in seeds {
        let text = random_spin_program(seed);
        let run = |zne: bool, side: &str| {
            let tag = format!("{model_name}-{seed}-{side}");
            let prog = program(&text, &tag, model_name, zne, unroll);
            explore(Strategy::Optimal, &prog, model.as_ref(), &cfg)
        };
        let (on, off) = (run(true, "on"), run(false, "off"));
        if on.stopped_by.is_some() || off.stopped_by.is_some() {
            // Too big to compare within the limit (wra's co-mode executions multiply
            // with the orders of the writes); a few such programs are expected.
            campaign.stopped(seed);
            continue;
        }
        on_n += on.complete;
        off_n += off.complete;
        errs += on.errors.len();
        campaign.check(format!("seed {seed}"), &text, diffs(&on, &off));
    }
    campaign.finish(
        &format!(
            "{n} programs, complete {on_n} with the reductions, {off_n} without; {errs} errors"
        ),
        n,
        Some(4),
    );
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
