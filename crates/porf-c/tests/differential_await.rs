//! Differential test of waiting threads against the reference explorer: random
//! programs whose threads wait for values threads spawned after them write
//! ([`porf_c::random_await`]: ticket locks, relays, flags with racing setters), and
//! random spin-loop programs ([`porf_c::random_spin`]: locks by test-and-set,
//! exchange, compare-exchange, trylock and fetch_sub/fetch_add, flags polled by loads,
//! Treiber pushes), with spin-assume as `porf verify` runs it, explored under every
//! model without keep-going by the optimal explorer at its defaults (stale blocked
//! subtrees skipped, barrier-aware scheduling) and by the reference explorer (brute
//! force, the ground truth). Both must find an error or both none, and when none,
//! reach the same final states of complete executions and the same number of complete
//! executions (blocked counts differ: the optimal explorer skips stale ones). The
//! optimal explorer with `disable_ipr` (threads whose next load would block them not
//! held back, [`porf_explore::bam`]) must agree with it the same way.
//!
//! A program whose optimal exploration hits its time limit (30 s) is not compared
//! (listed; at most a quarter may be); the reference explorer's time-outs (5 s) are
//! only counted.
//!
//! `PORF_DIFF_AWAIT_PROGRAMS` sets the number of programs of each kind per model
//! (default 20: 320 programs over the eight models), `PORF_DIFF_AWAIT_FIRST` the first
//! seed (default 0), `PORF_DIFF_AWAIT_UNROLL` the bound (default 3). A failure prints
//! the model, the seed and the program; `porf verify FILE --model M --unroll 3`, with
//! and without `--explorer reference`, reproduces it.

mod common;

use common::{compile, env, outcome_diffs, seeds, verify_spin_run, Campaign};
use porf_c::random_await::random_await_program;
use porf_c::random_spin::random_spin_program;
use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;
use std::time::Duration;

/// The optimal explorer's time limit; a program that hits it is not compared.
const LIMIT_SECS: u64 = 30;
/// The reference explorer's time limit (it is exponential: larger programs are not
/// compared).
const REFERENCE_SECS: u64 = 5;

/// What the optimal run `a` and the reference run `b` disagree on.
fn diffs(a: &Stats, b: &Stats) -> Vec<String> {
    // Without keep-going a run stops at its first error, which depends on the order
    // of exploration: then both must find one.
    if !a.errors.is_empty() || !b.errors.is_empty() {
        if a.errors.is_empty() != b.errors.is_empty() {
            return vec![format!(
                "optimal / reference: errors\n    {:?}\n    {:?}",
                a.error_keys(),
                b.error_keys()
            )];
        }
        return Vec::new();
    }
    let mut d = outcome_diffs("optimal / reference", a, b);
    if a.complete != b.complete {
        d.push(format!(
            "optimal / reference: complete {} != {}",
            a.complete, b.complete
        ));
    }
    d
}

fn differential(model_name: &str) {
    let model = by_name(model_name).unwrap();
    let cfg = |secs| Config {
        timeout: Some(Duration::from_secs(secs)),
        keep_going: false,
        collect_final_states: true,
        ..Config::default()
    };
    let unroll = env("PORF_DIFF_AWAIT_UNROLL", 3) as u32;
    let seeds = seeds("PORF_DIFF_AWAIT", 20);
    let n = seeds.end - seeds.start;
    let mut campaign = Campaign::new(model_name);
    let (mut complete, mut compared, mut ref_stopped) = (0u64, 0u64, 0u64);
    let programs = seeds.flat_map(|seed| {
        [
            (format!("await seed {seed}"), random_await_program(seed)),
            (format!("spin seed {seed}"), random_spin_program(seed)),
        ]
    });
    for (which, text) in programs {
        let tag = format!("{model_name}-{}", which.replace(' ', "-"));
        let prog = compile(
            &text,
            "diff-await",
            &tag,
            verify_spin_run(model_name, unroll),
        );
        let optimal = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg(LIMIT_SECS));
        if optimal.stopped_by.is_some() {
            campaign.stopped(&which);
            continue;
        }
        let reference = explore(
            Strategy::Reference,
            &prog,
            model.as_ref(),
            &cfg(REFERENCE_SECS),
        );
        if reference.stopped_by.is_some() {
            ref_stopped += 1;
            continue;
        }
        // The same exploration without holding back threads whose next load would
        // block them (`--disable-ipr`): same outcomes, errors and complete count.
        let plain = explore(
            Strategy::Optimal,
            &prog,
            model.as_ref(),
            &Config {
                disable_ipr: true,
                ..cfg(LIMIT_SECS)
            },
        );
        compared += 1;
        complete += optimal.complete;
        let mut d = diffs(&optimal, &reference);
        if plain.stopped_by.is_none() {
            d.extend(
                diffs(&optimal, &plain)
                    .into_iter()
                    .map(|m| m.replace("optimal / reference", "held / --disable-ipr")),
            );
        }
        campaign.check(&which, &text, d);
    }
    campaign.finish(
        &format!(
            "{n} + {n} programs, {compared} compared with the reference explorer \
             ({complete} complete executions); reference explorer out of time on {ref_stopped}"
        ),
        2 * n,
        Some(4),
    );
}

#[test]
fn await_sc() {
    differential("sc");
}

#[test]
fn await_tso() {
    differential("tso");
}

#[test]
fn await_pso() {
    differential("pso");
}

#[test]
fn await_ra() {
    differential("ra");
}

#[test]
fn await_rc11() {
    differential("rc11");
}

#[test]
fn await_rc11_genmc() {
    differential("rc11-genmc");
}

#[test]
fn await_wra() {
    differential("wra");
}

#[test]
fn await_sra() {
    differential("sra");
}
