//! Acceptance test of VerifySC (`Sc::rf_consistent`): on random (events, po, rf)
//! graphs of many shapes it must agree with brute force over coherence orders, and its
//! witness must make the graph consistent.
//!
//! Two families: `rf::random_graph` (each read's source uniformly random among the
//! writes already added) and *perturbed SC traces* ([`sc_trace`]: a random SC execution
//! in which some reads are re-pointed to an older write), which are more often
//! consistent only through a coherence order unlike the insertion order, and make the
//! search branch.
//!
//! `PORF_VERIFY_SC_GRAPHS` sets the number of graphs per shape (default: fifty thousand
//! graphs in all). Graphs with more coherence orders than brute force may try are
//! skipped and counted. `cost_on_fifty_event_graphs` (ignored; run it with
//! `--ignored --nocapture`) measures VerifySC on larger graphs.

use porf_graph::{
    EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, Wrap, WriteKind,
};
use porf_models::rf::verify_sc::{verify_sc_with_stats, SearchStats};
use porf_models::rf::{self, RandomGraph};
use porf_models::sc::Sc;
use porf_models::MemoryModel;
use std::time::{Duration, Instant};

/// The shapes: 2–4 threads, 2–4 events per thread, 1–3 locations, with and without
/// RMWs.
fn shapes() -> Vec<RandomGraph> {
    let mut v = Vec::new();
    for threads in 2..=4 {
        for events_per_thread in 2..=4 {
            for locs in 1..=3 {
                for rmws in [false, true] {
                    v.push(RandomGraph {
                        threads,
                        events_per_thread,
                        locs,
                        sc: true,
                        rmws,
                    });
                }
            }
        }
    }
    v
}

/// How many coherence orders brute force would try on `g` (saturating).
fn coherence_orders(g: &Graph) -> u64 {
    g.locations()
        .map(|(&loc, _)| {
            g.events()
                .filter(|(_, lab)| lab.is_write() && lab.loc() == Some(loc))
                .count() as u64
        })
        .fold(1u64, |acc, w| (1..=w).fold(acc, |a, k| a.saturating_mul(k)))
}

#[test]
fn verify_sc_agrees_with_brute_force() {
    let shapes = shapes();
    let per_shape = std::env::var("PORF_VERIFY_SC_GRAPHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50_000usize.div_ceil(shapes.len()) as u64);
    let (mut consistent, mut inconsistent, mut skipped, mut rmw_graphs) = (0, 0, 0, 0);
    let (mut t_verify, mut t_brute) = (0.0, 0.0);
    for (i, shape) in shapes.iter().enumerate() {
        for s in 0..per_shape {
            let seed = (i as u64) << 32 | s;
            let g = rf::random_graph(seed, shape, &Sc);
            if coherence_orders(&g) > rf::BRUTE_FORCE_LIMIT {
                skipped += 1;
                continue;
            }
            let t0 = Instant::now();
            let got = Sc.rf_consistent(&g);
            let t1 = Instant::now();
            let want = rf::brute_force(&Sc, &g);
            t_verify += (t1 - t0).as_secs_f64();
            t_brute += t1.elapsed().as_secs_f64();
            assert_eq!(
                got.is_some(),
                want.is_some(),
                "seed {seed}, {shape:?}: VerifySC {got:?}, brute force {want:?}\n{g}"
            );
            if g.events().any(|(_, l)| l.is_exclusive_write()) {
                rmw_graphs += 1;
            }
            match got {
                Some(co) => {
                    consistent += 1;
                    let mut h = g.clone();
                    rf::install(&mut h, &co);
                    assert!(Sc.is_consistent(&h), "seed {seed}: witness {co:?}\n{g}");
                }
                None => inconsistent += 1,
            }
        }
    }
    eprintln!(
        "VerifySC vs brute force: {} graphs ({consistent} consistent, {inconsistent} \
         inconsistent, {rmw_graphs} with RMWs), {skipped} skipped; VerifySC {t_verify:.3} s, \
         brute force {t_brute:.3} s",
        consistent + inconsistent
    );
    assert!(consistent > 0 && inconsistent > 0);
}

/// splitmix64, so that the test needs no RNG crate.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

/// Shape of [`sc_trace`]'s graphs.
#[derive(Clone, Debug)]
struct Trace {
    threads: u32,
    /// Memory events per thread (exactly).
    events_per_thread: u32,
    locs: u64,
    /// Whether fetch-adds may appear.
    rmws: bool,
    /// Percentage of reads re-pointed to a random write of their location added
    /// earlier (or the initialisation) instead of the latest one.
    perturb: u64,
}

/// A random SC execution as an (events, po, rf) graph: main spawns the threads, whose
/// events are added in a random interleaving, each read reading the latest write of
/// its location — except the perturbed ones (the graph is then often inconsistent).
/// porf stays acyclic: every source was added before its reader.
fn sc_trace(seed: u64, shape: &Trace) -> Graph {
    let mut rng = Rng(seed ^ 0x7ace_5eed);
    let mut g = Graph::new();
    for l in 1..=shape.locs {
        g.ensure_loc(Loc(l), 0, None);
    }
    let add = |g: &mut Graph, t: u32, kind: LabelKind| {
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        if let Some(loc) = g.label(e).loc().filter(|_| g.label(e).is_write()) {
            let n = g.co(loc).len();
            g.co_insert(e, n + 1);
        }
        g.label_mut(e).hb = Sc.hb_view(g, e);
        e
    };
    add(&mut g, 0, LabelKind::Start { parent: None });
    let mut left = Vec::new();
    for c in 1..=shape.threads {
        let s = add(
            &mut g,
            0,
            LabelKind::Spawn {
                child: c,
                entry: 0,
                arg: 0,
                symm: None,
            },
        );
        add(&mut g, c, LabelKind::Start { parent: Some(s) });
        left.push((c, shape.events_per_thread));
    }
    let write = |loc, kind| LabelKind::Write {
        loc,
        bytes: 8,
        ord: MemOrder::SeqCst,
        val: 1,
        kind,
    };
    while !left.is_empty() {
        let i = rng.below(left.len() as u64) as usize;
        let t = left[i].0;
        left[i].1 -= 1;
        if left[i].1 == 0 {
            left.swap_remove(i);
        }
        let loc = Loc(1 + rng.below(shape.locs));
        let op = rng.below(if shape.rmws { 5 } else { 4 });
        if op < 2 {
            add(&mut g, t, write(loc, WriteKind::Plain));
            continue;
        }
        let ws = g.co(loc);
        let rf: Option<EventId> = if op == 2 && rng.below(100) < shape.perturb {
            let i = rng.below(ws.len() as u64 + 1) as usize;
            (i > 0).then(|| ws[i - 1])
        } else {
            ws.last().copied()
        };
        let kind = if op == 4 {
            ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE))
        } else {
            ReadKind::Plain
        };
        let read = LabelKind::Read {
            loc,
            bytes: 8,
            ord: MemOrder::SeqCst,
            kind,
            rf,
        };
        add(&mut g, t, read);
        if op == 4 {
            add(&mut g, t, write(loc, WriteKind::Exclusive));
        }
    }
    g
}

#[test]
fn verify_sc_agrees_with_brute_force_on_perturbed_sc_traces() {
    let per_shape = std::env::var("PORF_VERIFY_SC_GRAPHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600u64);
    let mut shapes = Vec::new();
    for (threads, events_per_thread) in [(2, 5), (3, 3), (3, 4), (4, 3)] {
        for locs in 1..=3 {
            for rmws in [false, true] {
                shapes.push(Trace {
                    threads,
                    events_per_thread,
                    locs,
                    rmws,
                    perturb: 30,
                });
            }
        }
    }
    let (mut consistent, mut inconsistent, mut skipped, mut branched) = (0, 0, 0, 0);
    for (i, shape) in shapes.iter().enumerate() {
        for s in 0..per_shape {
            let seed = (i as u64) << 32 | s;
            let g = sc_trace(seed, shape);
            if coherence_orders(&g) > rf::BRUTE_FORCE_LIMIT / 16 {
                skipped += 1;
                continue;
            }
            let mut stats = SearchStats::default();
            let got = verify_sc_with_stats(&g, &mut stats);
            let want = rf::brute_force(&Sc, &g);
            assert_eq!(got.is_some(), want.is_some(), "seed {seed}, {shape:?}\n{g}");
            branched += usize::from(stats.states > 1);
            match got {
                Some(co) => {
                    consistent += 1;
                    let mut h = g.clone();
                    rf::install(&mut h, &co);
                    assert!(Sc.is_consistent(&h), "seed {seed}: witness {co:?}\n{g}");
                }
                None => inconsistent += 1,
            }
        }
    }
    eprintln!(
        "perturbed SC traces: {} graphs ({consistent} consistent, {inconsistent} \
         inconsistent, {branched} needing more than one search state), {skipped} skipped",
        consistent + inconsistent
    );
    assert!(consistent > 0 && inconsistent > 0 && branched > 0);
}

/// Time (median, 99th percentile, max) and search states (mean, max) of VerifySC on
/// `count` graphs from `gen`.
fn measure(name: &str, count: u64, gen: impl Fn(u64) -> Graph) {
    let mut times = Vec::new();
    let (mut events, mut states, mut max_states, mut consistent) = (0, 0, 0, 0);
    for seed in 0..count {
        let g = gen(seed);
        events += g.len();
        let mut stats = SearchStats::default();
        let t = Instant::now();
        let got = verify_sc_with_stats(&g, &mut stats);
        times.push(t.elapsed());
        states += stats.states;
        max_states = max_states.max(stats.states);
        consistent += usize::from(got.is_some());
    }
    times.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    eprintln!(
        "{name}: {count} graphs, {:.1} events on average, {consistent} consistent; \
         VerifySC median {:.1} µs, p99 {:.1} µs, max {:.1} µs; states mean {:.1}, max \
         {max_states}",
        events as f64 / count as f64,
        us(times[times.len() / 2]),
        us(times[times.len() * 99 / 100]),
        us(times[times.len() - 1]),
        states as f64 / count as f64,
    );
}

#[test]
#[ignore = "a measurement, not a check: run with --ignored --nocapture"]
fn cost_on_fifty_event_graphs() {
    let count = 2000;
    for (threads, per) in [(4, 10), (8, 5), (2, 24), (4, 50)] {
        for locs in [1, 3, 8] {
            for perturb in [0, 5, 30] {
                let shape = Trace {
                    threads,
                    events_per_thread: per,
                    locs,
                    rmws: true,
                    perturb,
                };
                let name = format!("SC traces {threads}x{per}, {locs} locs, {perturb}% re-pointed");
                measure(&name, count, |s| sc_trace(s, &shape));
            }
        }
    }
    let shape = RandomGraph {
        threads: 4,
        events_per_thread: 20,
        locs: 3,
        sc: true,
        rmws: true,
    };
    measure("rf::random_graph 4x(1..=20), 3 locs", count, |s| {
        rf::random_graph(s, &shape, &Sc)
    });
}
