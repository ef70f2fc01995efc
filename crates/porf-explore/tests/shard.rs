//! Sharding (`porf_explore::shard`): on random programs (assertions, assumes, RMWs,
//! fences, mutexes, heap errors, mutex misuse) and catalog programs, under several
//! models, for N = 1, 2, 3, 5, 7 shards, the merged shard records equal the unsharded
//! run: the same counts, the same first error (without keep-going, with the counts the
//! unsharded run had when it stopped), the same errors in the same order (with
//! keep-going). And each execution is counted by exactly one shard: the sum over
//! shards of what each counted in its own segments is the unsharded count.
//!
//! `PORF_SHARD_PROGRAMS` overrides the number of random programs per model (default
//! 150).

use porf_explore::shard::{self, merge, Counters, Part, PartSegment, ShardRun, Split};
use porf_explore::{explore, Config, ErrorReport, Stats, Strategy};
use porf_graph::Program;
use porf_models::{by_name, MemoryModel};
use porf_toy::{random_program, GenConfig};

fn key(e: &ErrorReport) -> String {
    format!("{:?}", e.key())
}

fn part(r: &ShardRun) -> Part<String> {
    Part {
        index: r.split.index,
        stopped_by: r.stats.stopped_by,
        segments: r
            .segments
            .iter()
            .map(|s| PartSegment {
                ordinal: s.ordinal,
                counters: s.counters.clone(),
                errors: s
                    .errors
                    .iter()
                    .map(|&i| {
                        let k = key(&r.stats.errors[i]);
                        (k.clone(), k)
                    })
                    .collect(),
            })
            .collect(),
    }
}

fn counters(s: &Stats) -> (u64, u64, u64, u64) {
    (s.complete, s.blocked, s.bound_cut, s.erroneous)
}

fn merged(c: &Counters) -> (u64, u64, u64, u64) {
    (c.complete, c.blocked, c.bound_cut, c.erroneous)
}

/// Checks every N on one program; returns the number of frontier nodes seen at N = 7.
fn check<P: Program + Sync>(
    what: &str,
    prog: &P,
    model: &dyn MemoryModel,
    keep_going: bool,
) -> Result<u64, String> {
    let cfg = Config {
        keep_going,
        ..Config::default()
    };
    let whole = explore(Strategy::Optimal, prog, model, &cfg);
    let mut frontier = 0;
    // The default pre-pass budget (small programs: the pre-pass sees the whole tree)
    // and a tiny one (it stops part way, the plan guesses the weights).
    for (n, budget) in [1, 2, 3, 5, 7]
        .into_iter()
        .flat_map(|n| [(n, shard::budget(n)), (n, 3 * u64::from(n))])
    {
        let runs: Vec<ShardRun> = (0..n)
            .map(|index| {
                shard::explore_shard_with(prog, model, &cfg, Split { index, count: n }, budget)
            })
            .collect();
        let m = merge(&runs.iter().map(part).collect::<Vec<_>>(), keep_going);
        let ctx = format!(
            "{what} under {} with N = {n}, pre-pass budget {budget} (keep-going {keep_going}, depth {}, {} nodes)",
            model.name(),
            runs[0].depth,
            runs[0].frontier
        );
        if merged(&m.counters) != counters(&whole) {
            return Err(format!(
                "{ctx}: merged counts {:?} != unsharded {:?}",
                merged(&m.counters),
                counters(&whole)
            ));
        }
        let keys: Vec<String> = whole.errors.iter().map(key).collect();
        if m.errors != keys {
            return Err(format!(
                "{ctx}: merged errors {:?} != unsharded {keys:?}",
                m.errors
            ));
        }
        if keep_going {
            // Every execution counted by exactly one shard.
            let sum: u64 = runs.iter().map(ShardRun::executions).sum();
            let whole_n = whole.complete + whole.blocked + whole.erroneous;
            if sum != whole_n {
                return Err(format!("{ctx}: shards counted {sum} != {whole_n}"));
            }
        }
        if runs
            .iter()
            .any(|r| r.plan.fingerprint() != runs[0].plan.fingerprint())
        {
            return Err(format!("{ctx}: the shards disagree on the split"));
        }
        if budget == shard::budget(n) {
            frontier = runs[0].frontier;
        }
    }
    Ok(frontier)
}

fn random(model_name: &str, gen: &GenConfig) {
    let model = by_name(model_name).unwrap();
    let n: u64 = std::env::var("PORF_SHARD_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(150);
    let mut split = 0;
    for seed in 0..n {
        let prog = random_program(seed, gen);
        for keep_going in [false, true] {
            match check(&format!("seed {seed}"), &prog, model.as_ref(), keep_going) {
                Ok(k) => split += u64::from(k > 1),
                Err(e) => panic!("{e}\nprogram:\n{prog}"),
            }
        }
    }
    // The test means something only if most programs were actually split.
    assert!(split > n, "only {split} of {} runs were split", 2 * n);
}

#[test]
fn shards_add_up_sc() {
    random("sc", &GenConfig::default());
}

#[test]
fn shards_add_up_tso() {
    random("tso", &GenConfig::default());
}

#[test]
fn shards_add_up_rc11() {
    random("rc11", &GenConfig::default());
}

#[test]
fn shards_add_up_ra_with_heap_errors_and_mutex_misuse() {
    let gen = GenConfig {
        heap: true,
        lock_misuse: true,
        max_events: 10,
        ..GenConfig::default()
    };
    random("ra", &gen);
}

#[test]
fn shards_add_up_on_catalog_programs() {
    for (name, size) in [
        ("nw1r", 4),
        ("ainc", 4),
        ("mutex", 3),
        ("racy", 0),
        ("deadlock", 0),
        ("iriw", 0),
        ("sb-sc", 0),
    ] {
        let prog = porf_toy::catalog::by_name(name, size).unwrap();
        for model in ["sc", "rc11"] {
            let model = by_name(model).unwrap();
            for keep_going in [false, true] {
                if let Err(e) = check(name, &prog, model.as_ref(), keep_going) {
                    panic!("{e}");
                }
            }
        }
    }
}

#[test]
fn unsupported_modes_are_rejected() {
    let cfg = Config::default();
    let rc11 = by_name("rc11").unwrap();
    let wra = by_name("wra").unwrap();
    assert!(shard::supported(Strategy::Optimal, rc11.as_ref(), &cfg).is_ok());
    assert!(shard::supported(Strategy::Reference, rc11.as_ref(), &cfg).is_err());
    assert!(shard::supported(Strategy::Optimal, wra.as_ref(), &cfg).is_err());
    let rf = Config {
        equiv: porf_explore::Equiv::Rf,
        ..Config::default()
    };
    assert!(shard::supported(Strategy::Optimal, rc11.as_ref(), &rf).is_err());
    let max = Config {
        max_executions: Some(3),
        ..Config::default()
    };
    assert!(shard::supported(Strategy::Optimal, rc11.as_ref(), &max).is_err());
}

/// A spine-heavy program: a reader reads `depth` flags in turn and goes on to the next
/// only if it saw the flag set; after the last one it reads `x` `reads` times, each
/// read choosing among `writers` writes. Reading a flag unset ends the run at once, so
/// along the reader's flags one subtree holds nearly all the work.
fn spine(depth: u32, writers: u32, reads: u32) -> porf_toy::ToyProgram {
    use porf_graph::MemOrder::Relaxed;
    let mut p = porf_toy::builder::ProgramBuilder::new();
    let flags: Vec<_> = (0..depth).map(|i| p.loc(&format!("f{i}"))).collect();
    let x = p.loc("x");
    for &f in &flags {
        p.thread(|t| t.store(f, 1, Relaxed));
    }
    for i in 1..=writers {
        p.thread(|t| t.store(x, i64::from(i), Relaxed));
    }
    p.thread(|t| {
        fn rest(
            t: &mut porf_toy::builder::ThreadBuilder,
            flags: &[porf_graph::Loc],
            x: porf_graph::Loc,
            reads: u32,
        ) {
            match flags.split_first() {
                Some((&f, more)) => {
                    let r = t.load(f, Relaxed);
                    t.if_eq(r, 1, |t| rest(t, more, x, reads), |_| {});
                }
                None => {
                    for _ in 0..reads {
                        t.load(x, Relaxed);
                    }
                }
            }
        }
        rest(t, &flags, x, reads);
    });
    p.no_join();
    p.build()
}

/// On a spine-heavy tree the plan splits the spine: for N = 2, 3, 7 the largest shard
/// counts at most twice the mean number of executions (and the shards add up).
#[test]
fn spine_heavy_tree_is_balanced() {
    let prog = spine(6, 4, 3);
    let model = by_name("rc11").unwrap();
    let cfg = Config {
        keep_going: true,
        ..Config::default()
    };
    check("spine", &prog, model.as_ref(), true).unwrap();
    let whole = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
    let total = whole.complete + whole.blocked + whole.erroneous;
    for n in [2u32, 3, 7] {
        let per: Vec<u64> = (0..n)
            .map(|index| {
                shard::explore_shard(&prog, model.as_ref(), &cfg, Split { index, count: n })
                    .executions()
            })
            .collect();
        assert_eq!(per.iter().sum::<u64>(), total);
        let max = *per.iter().max().unwrap();
        assert!(
            max * u64::from(n) <= 2 * total,
            "N = {n}: executions per shard {per:?} (total {total}): the largest is more than twice the mean"
        );
    }
}
