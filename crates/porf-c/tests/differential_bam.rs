//! Differential test of barrier-aware exploration (`porf_explore::bam`): random
//! barrier programs ([`porf_c::random_barrier`]: two or three workers, sometimes
//! `main`, one or two barriers, one to three rounds, shared atomics and a plain
//! variable between the waits, `PTHREAD_BARRIER_SERIAL_THREAD` counted, sometimes a
//! barrier of the wrong size or a thread waiting one round fewer) explored by the
//! graph explorer under several models
//! * with BAM and without (`Config::disable_bam`), stale blocks explored
//!   (`Config::explore_stale_blocks`): BAM only changes the order in which events are
//!   added, so both explore the same maximal executions: equal complete, blocked and
//!   erroneous counts, final states and errors;
//! * with BAM and without, at their defaults: equal complete counts, final states and
//!   errors; BAM's blocked count at most the other's (its blocked executions left are
//!   stale ones, skipped);
//! * with BAM against the reference explorer (brute force, the ground truth): equal
//!   complete count, final states and errors (for programs it explores within the
//!   time limit);
//! * with BAM on two threads (subtrees handed over eagerly): the one-thread result.
//!
//! A program whose exploration hits the time limit (30 s) in a BAM comparison is not
//! compared (listed; at most a tenth may be); the reference explorer's time-outs (5 s)
//! are only counted.
//!
//! `PORF_DIFF_BAM_PROGRAMS` sets the number of programs per model (default 12),
//! `PORF_DIFF_BAM_FIRST` the first seed (default 0). A failure prints the model, the
//! seed and the program; `porf verify FILE --model M --keep-going`, with and without
//! `--disable-bam` (and `--explore-stale-blocks`, `--explorer reference`), reproduces
//! it.

mod common;

use common::{compile, outcome_diffs, seeds, Campaign};
use porf_c::random_barrier::random_barrier_program;
use porf_c::RunOptions;
use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;

const LIMIT_SECS: u64 = 30;
/// The reference explorer's time limit (it is exponential: larger programs are only
/// compared between the graph explorer's runs).
const REFERENCE_SECS: u64 = 5;

/// What `a` and `b` disagree on: complete counts, final states and errors always;
/// blocked and erroneous counts when `all`.
fn diffs(what: &str, a: &Stats, b: &Stats, all: bool) -> Vec<String> {
    let mut d = Vec::new();
    if a.complete != b.complete {
        d.push(format!("{what}: complete {} / {}", a.complete, b.complete));
    }
    if all && (a.blocked, a.erroneous) != (b.blocked, b.erroneous) {
        d.push(format!(
            "{what}: blocked, erroneous {:?} / {:?}",
            (a.blocked, a.erroneous),
            (b.blocked, b.erroneous)
        ));
    }
    d.extend(outcome_diffs(what, a, b));
    d
}

fn differential(model_name: &str) {
    let model = by_name(model_name).unwrap();
    let base = Config {
        timeout: Some(std::time::Duration::from_secs(LIMIT_SECS)),
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let off = Config {
        disable_bam: true,
        ..base.clone()
    };
    let stale = Config {
        explore_stale_blocks: true,
        ..base.clone()
    };
    let stale_off = Config {
        disable_bam: true,
        ..stale.clone()
    };
    let reference_cfg = Config {
        timeout: Some(std::time::Duration::from_secs(REFERENCE_SECS)),
        ..stale.clone()
    };
    let two = Config {
        threads: 2,
        eager_split: true,
        ..base.clone()
    };
    let seeds = seeds("PORF_DIFF_BAM", 12);
    let n = seeds.end - seeds.start;
    let mut campaign = Campaign::new(model_name);
    let mut ref_stopped = 0;
    let (mut complete, mut blocked_on, mut blocked_off, mut errors) = (0, 0, 0, 0);
    for seed in seeds {
        let text = random_barrier_program(seed);
        let spin_assume = RunOptions {
            spin_assume: true,
            ..RunOptions::default()
        };
        let prog = compile(
            &text,
            "diff-bam",
            &format!("{model_name}-{seed}"),
            spin_assume,
        );
        let run = |cfg: &Config| explore(Strategy::Optimal, &prog, model.as_ref(), cfg);
        let (on, no) = (run(&base), run(&off));
        let (st_on, st_off) = (run(&stale), run(&stale_off));
        if [&on, &no, &st_on, &st_off]
            .iter()
            .any(|s| s.stopped_by.is_some())
        {
            campaign.stopped(seed);
            continue;
        }
        let mut d = diffs("BAM on / off", &on, &no, false);
        if on.blocked > no.blocked {
            d.push(format!("blocked {} > {}", on.blocked, no.blocked));
        }
        d.extend(diffs(
            "stale blocks explored, BAM on / off",
            &st_on,
            &st_off,
            true,
        ));
        d.extend(diffs("one thread / two", &on, &run(&two), true));
        let reference = explore(Strategy::Reference, &prog, model.as_ref(), &reference_cfg);
        if reference.stopped_by.is_some() {
            ref_stopped += 1;
        } else {
            d.extend(diffs("BAM / reference", &on, &reference, false));
        }
        complete += on.complete;
        blocked_on += on.blocked;
        blocked_off += no.blocked;
        errors += on.errors.len();
        campaign.check(format!("seed {seed}"), &text, d);
    }
    campaign.finish(
        &format!(
            "{n} programs, {complete} complete executions, blocked {blocked_on} with BAM \
             and {blocked_off} without; {errors} errors; reference explorer out of time on \
             {ref_stopped}"
        ),
        n,
        Some(10),
    );
}

#[test]
fn bam_sc() {
    differential("sc");
}

#[test]
fn bam_tso() {
    differential("tso");
}

#[test]
fn bam_rc11() {
    differential("rc11");
}
