//! The parallel optimal explorer (`Config::threads`) gives the sequential result: on
//! random programs, under several models, with and without keep-going, the counts, the
//! final states, the thread outcomes, the peak graph size and the errors (their order
//! and their witness graphs, thread ids included) are those of one thread. Subtrees are
//! handed over eagerly (`Config::eager_split`), so that small programs hand over many
//! and the first error is often found after a later one.
//!
//! `PORF_PAR_PROGRAMS` overrides the number of programs per model (default 300).

mod common;

use common::env;

use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};

fn programs() -> u64 {
    env("PORF_PAR_PROGRAMS", 300)
}

/// A witness graph's events and co lists. The graph's table of locations may keep a
/// location whose accesses were all removed when the explorer backtracked (it is
/// history, not part of the execution: `Graph::locations` leaves it out), and
/// `Display` prints such a location as an empty co list; those lines are dropped.
fn witness(g: &porf_graph::Graph) -> String {
    let accessed: Vec<String> = g.locations().map(|(l, _)| format!("co {l}:")).collect();
    g.to_string()
        .lines()
        .filter(|l| !l.starts_with("co ") || accessed.iter().any(|a| l.starts_with(a.as_str())))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Everything the result says, witnesses printed, for comparison.
fn summary(s: &Stats) -> String {
    let errors: Vec<String> = s
        .errors
        .iter()
        .map(|e| {
            format!(
                "{:?} {} {:?}\n{}",
                e.class,
                e.message,
                e.events,
                witness(&e.witness)
            )
        })
        .collect();
    format!(
        "complete {} blocked {} bound_cut {} erroneous {} peak {} stopped {:?}\nfinal {:?}\noutcomes {:?}\nerrors:\n{}",
        s.complete,
        s.blocked,
        s.bound_cut,
        s.erroneous,
        s.peak_graph_size,
        s.stopped_by,
        s.final_states,
        s.thread_outcomes,
        errors.join("\n")
    )
}

fn same_for_every_thread_count(model_name: &str, keep_going: bool) {
    let model = by_name(model_name).unwrap();
    let gen = GenConfig::default();
    let mut handed = 0;
    for seed in 0..programs() {
        let prog = random_program(seed, &gen);
        let cfg = Config {
            keep_going,
            collect_final_states: true,
            collect_thread_outcomes: true,
            ..Config::default()
        };
        let one = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
        assert_eq!(one.parallel.workers, 1);
        for threads in [2, 3] {
            let cfg = Config {
                threads,
                eager_split: true,
                ..cfg.clone()
            };
            let par = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
            assert_eq!(par.parallel.workers, threads);
            handed += par.parallel.tasks;
            assert_eq!(
                summary(&one),
                summary(&par),
                "model {model_name}, keep-going {keep_going}, seed {seed}, {threads} threads:\n{prog}"
            );
        }
    }
    assert!(
        handed > programs(),
        "too few subtrees handed over: {handed}"
    );
}

#[test]
fn parallel_equals_sequential_sc() {
    same_for_every_thread_count("sc", false);
    same_for_every_thread_count("sc", true);
}

#[test]
fn parallel_equals_sequential_rc11() {
    same_for_every_thread_count("rc11", false);
    same_for_every_thread_count("rc11", true);
}

#[test]
fn parallel_equals_sequential_tso() {
    same_for_every_thread_count("tso", false);
}

#[test]
fn parallel_equals_sequential_ra() {
    same_for_every_thread_count("ra", true);
}

/// Configurations whose search shares state across subtrees run on one thread and say
/// why (rf mode's revisit set; `max_executions`, which counts in the sequential order).
#[test]
fn shared_state_configurations_run_on_one_thread() {
    let model = by_name("sc").unwrap();
    let prog = random_program(1, &GenConfig::default());
    for cfg in [
        Config {
            threads: 2,
            equiv: porf_explore::Equiv::Rf,
            ..Config::default()
        },
        Config {
            threads: 2,
            max_executions: Some(1),
            ..Config::default()
        },
    ] {
        let s = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
        assert_eq!(s.parallel.workers, 1);
        assert!(s.parallel.one_thread_reason.is_some());
    }
}
