//! Acceptance test of VerifyTSO (`porf_models::rf::verify_tso`): on random (events, po,
//! rf) graphs of many shapes it must agree with brute force over coherence orders
//! (`rf::brute_force`, the definition), with and without the closure heuristic, and
//! every witness it returns must make `Tso::is_consistent` hold once installed.
//!
//! Two families: `rf::random_graph` (each read reads an earlier-added write, so porf is
//! acyclic) and the same graphs *rewired* (some reads re-pointed at any write of their
//! location, po-later and own-thread ones included: porf cycles, stale own reads,
//! shared RMW sources). `PORF_RF_TSO_GRAPHS` sets the number of graphs of the first
//! family (default 20000, spread evenly over the shapes; the second has half as many).
//! Graphs with more than [`MAX_CO_ORDERS`] coherence orders are skipped (brute force
//! would be too slow) and counted.
//!
//! Also: graphs recorded from random runs of operational x86-TSO (store buffers) are
//! always realisable; and, ignored by default, the cost of VerifyTSO on ~50-event
//! graphs (`cargo test --release -p porf-models --test rf_tso -- --ignored
//! --nocapture`).

use porf_graph::{
    EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, Tid, Wrap, WriteKind,
};
use porf_models::rf::verify_tso::{verify_tso_with, DecidedBy, Options};
use porf_models::rf::{self, RandomGraph};
use porf_models::tso::Tso;
use porf_models::MemoryModel;
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// Brute force tries at most this many coherence orders per graph here (8!).
const MAX_CO_ORDERS: u64 = 40320;

/// The number of coherence orders brute force ranges over.
fn co_orders(g: &Graph) -> u64 {
    g.locations()
        .map(|(_, i)| {
            let n = i
                .accesses
                .iter()
                .filter(|&&e| g.label(e).is_write())
                .count() as u64;
            (1..=n).product::<u64>()
        })
        .product()
}

/// Every shape: 2–4 threads, 2–4 events per thread, 1–3 locations, with and without
/// seq_cst accesses and fences, with and without RMWs.
fn shapes() -> Vec<RandomGraph> {
    let mut v = Vec::new();
    for threads in 2..=4 {
        for events_per_thread in 2..=4 {
            for locs in 1..=3 {
                for (sc, rmws) in [(false, false), (true, false), (false, true), (true, true)] {
                    v.push(RandomGraph {
                        threads,
                        events_per_thread,
                        locs,
                        sc,
                        rmws,
                    });
                }
            }
        }
    }
    v
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

/// `g` with each read, with probability 1/3, re-pointed at a random write of its
/// location or the initialisation (porf views of other events go stale: neither the
/// brute force nor VerifyTSO reads them).
fn rewired(g: &Graph, seed: u64) -> Graph {
    let mut rng = Rng::new(seed);
    let mut g = g.clone();
    let reads: Vec<EventId> = g
        .events()
        .filter(|(_, l)| l.is_read())
        .map(|(e, _)| e)
        .collect();
    for r in reads {
        if rng.below(3) != 0 {
            continue;
        }
        let loc = g.label(r).loc().unwrap();
        let ws = g.co(loc).to_vec();
        let i = rng.below(ws.len() as u64 + 1) as usize;
        g.set_rf(r, (i > 0).then(|| ws[i - 1]));
    }
    g
}

#[derive(Default, Debug)]
struct Tally {
    graphs: usize,
    consistent: usize,
    skipped: usize,
    /// How the inconsistent ones were found out (with the closure).
    by_precheck: usize,
    by_closure: usize,
    by_search: usize,
}

/// Checks one graph; panics with the graph on any disagreement.
fn check(g: &Graph, what: &str, tally: &mut Tally) {
    if co_orders(g) > MAX_CO_ORDERS {
        tally.skipped += 1;
        return;
    }
    tally.graphs += 1;
    let truth = rf::brute_force(&Tso, g).is_some();
    tally.consistent += truth as usize;
    for closure in [true, false] {
        let r = verify_tso_with(g, Options { closure });
        assert_eq!(
            r.witness.is_some(),
            truth,
            "{what}, closure {closure}: VerifyTSO says {}, brute force {truth}\n{g}",
            r.witness.is_some()
        );
        if let Some(co) = &r.witness {
            let mut g2 = g.clone();
            rf::install(&mut g2, co);
            assert!(Tso.is_consistent(&g2), "{what}: bad witness {co:?}\n{g}");
        } else if closure {
            match r.decided_by {
                DecidedBy::Precheck => tally.by_precheck += 1,
                DecidedBy::Closure => tally.by_closure += 1,
                DecidedBy::Search => tally.by_search += 1,
            }
        }
    }
    assert_eq!(Tso.rf_consistent(g).is_some(), truth, "{what}\n{g}");
}

#[test]
fn verify_tso_agrees_with_brute_force() {
    let total: usize = std::env::var("PORF_RF_TSO_GRAPHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let shapes = shapes();
    let per_shape = total.div_ceil(shapes.len()) as u64;
    let start = Instant::now();
    let (mut plain, mut wired) = (Tally::default(), Tally::default());
    for shape in &shapes {
        for seed in 0..per_shape {
            let g = rf::random_graph(seed, shape, &Tso);
            check(&g, &format!("seed {seed} of {shape:?}"), &mut plain);
            if seed % 2 == 0 {
                let what = format!("seed {seed} of {shape:?}, rewired");
                check(&rewired(&g, seed), &what, &mut wired);
            }
        }
    }
    println!(
        "random graphs: {plain:?}\nrewired: {wired:?}\nin {:?}",
        start.elapsed()
    );
    for t in [&plain, &wired] {
        // Both answers are well represented, and few graphs are skipped.
        let inconsistent = t.graphs - t.consistent;
        assert!(t.skipped * 100 <= t.graphs, "{t:?}");
        assert!(t.consistent * 10 >= t.graphs, "{t:?}");
        assert!(inconsistent * 10 >= t.graphs, "{t:?}");
    }
    assert!(plain.graphs >= total * 9 / 10, "{plain:?}");
}

/// An instruction of [`tso_run`]'s random programs.
#[derive(Copy, Clone, Debug)]
enum Op {
    Write(Loc, MemOrder),
    Read(Loc),
    FenceSc,
    FetchAdd(Loc),
    /// A compare-exchange that fails.
    FailedCas(Loc),
}

impl Op {
    /// Does it wait for its thread's store buffer to drain?
    fn drains(self) -> bool {
        !matches!(self, Op::Read(_) | Op::Write(_, MemOrder::Relaxed))
    }
}

/// The graph of a random run of operational x86-TSO: `threads` children of main, each
/// with `ops` random instructions over `locs` locations, stepped in a random order, with
/// FIFO store buffers flushed at random moments. Always realisable.
fn tso_run(seed: u64, threads: u32, ops: u32, locs: u64) -> Graph {
    let mut rng = Rng::new(seed);
    let mut g = Graph::new();
    for l in 1..=locs {
        g.ensure_loc(Loc(l), 0, None);
    }
    let add = |g: &mut Graph, t: Tid, kind: LabelKind| {
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        if let Some(loc) = g.label(e).loc().filter(|_| g.label(e).is_write()) {
            let n = g.co(loc).len();
            g.co_insert(e, n + 1);
        }
        g.label_mut(e).hb = Tso.hb_view(g, e);
        e
    };
    add(&mut g, 0, LabelKind::Start { parent: None });
    let mut progs: Vec<VecDeque<Op>> = vec![VecDeque::new()];
    for c in 1..=threads {
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
        let prog = (0..ops).map(|_| {
            let loc = Loc(1 + rng.below(locs));
            match rng.below(12) {
                0..=3 => Op::Write(loc, MemOrder::Relaxed),
                4..=8 => Op::Read(loc),
                9 => Op::FetchAdd(loc),
                10 => [Op::FenceSc, Op::FailedCas(loc)][rng.below(2) as usize],
                _ => Op::Write(loc, MemOrder::SeqCst),
            }
        });
        progs.push(prog.collect());
    }
    let mut memory: Vec<Option<EventId>> = vec![None; locs as usize + 1];
    let mut buffers: Vec<VecDeque<EventId>> = vec![VecDeque::new(); progs.len()];
    let read = |loc: Loc, kind, rf| LabelKind::Read {
        loc,
        bytes: 8,
        ord: MemOrder::Relaxed,
        kind,
        rf,
    };
    let write = |loc: Loc, ord, kind| LabelKind::Write {
        loc,
        bytes: 8,
        ord,
        val: 1,
        kind,
    };
    loop {
        // A thread's next instruction (if it can run) or the oldest entry of its buffer.
        let mut steps: Vec<(usize, bool)> = Vec::new();
        for t in 1..progs.len() {
            let drained = buffers[t].is_empty();
            if progs[t].front().is_some_and(|op| !op.drains() || drained) {
                steps.push((t, false));
            }
            if !drained {
                steps.push((t, true));
            }
        }
        if steps.is_empty() {
            return g;
        }
        let (t, flush) = steps[rng.below(steps.len() as u64) as usize];
        if flush {
            let w = buffers[t].pop_front().unwrap();
            memory[g.label(w).loc().unwrap().0 as usize] = Some(w);
            continue;
        }
        let tid = t as Tid;
        match progs[t].pop_front().unwrap() {
            Op::Write(loc, ord) => {
                let w = add(&mut g, tid, write(loc, ord, WriteKind::Plain));
                if ord == MemOrder::SeqCst {
                    memory[loc.0 as usize] = Some(w);
                } else {
                    buffers[t].push_back(w);
                }
            }
            Op::Read(loc) => {
                let own = buffers[t]
                    .iter()
                    .rev()
                    .find(|&&w| g.label(w).loc() == Some(loc));
                let rf = own.copied().or(memory[loc.0 as usize]);
                add(&mut g, tid, read(loc, ReadKind::Plain, rf));
            }
            Op::FenceSc => {
                add(
                    &mut g,
                    tid,
                    LabelKind::Fence {
                        ord: MemOrder::SeqCst,
                    },
                );
            }
            Op::FetchAdd(loc) => {
                let rf = memory[loc.0 as usize];
                let op = RmwOp::Add(1, Wrap::NONE);
                add(&mut g, tid, read(loc, ReadKind::Rmw(op), rf));
                let w = add(
                    &mut g,
                    tid,
                    write(loc, MemOrder::Relaxed, WriteKind::Exclusive),
                );
                memory[loc.0 as usize] = Some(w);
            }
            Op::FailedCas(loc) => {
                let rf = memory[loc.0 as usize];
                let old = g.write_val(loc, rf);
                let op = RmwOp::Cas {
                    expected: old.wrapping_add(1),
                    new: 0,
                    fail_ord: MemOrder::Relaxed,
                };
                add(&mut g, tid, read(loc, ReadKind::Rmw(op), rf));
            }
        }
    }
}

#[test]
fn operational_tso_runs_are_realisable() {
    for seed in 0..300 {
        let (threads, ops) = (2 + seed as u32 % 3, 3 + seed as u32 % 10);
        let g = tso_run(seed, threads, ops, 1 + seed % 3);
        for closure in [true, false] {
            let co = verify_tso_with(&g, Options { closure }).witness;
            let co = co.unwrap_or_else(|| panic!("seed {seed}: a TSO run is realisable\n{g}"));
            let mut g2 = g.clone();
            rf::install(&mut g2, &co);
            assert!(Tso.is_consistent(&g2), "seed {seed}: witness {co:?}\n{g}");
        }
    }
}

/// Mean and max of `f` over `graphs` (timed `reps` times each), and mean/max states.
fn measure(graphs: &[Graph], opts: Options) -> String {
    let reps = 20;
    let (mut sum, mut max) = (Duration::ZERO, Duration::ZERO);
    let (mut states, mut max_states, mut some) = (0, 0, 0);
    for g in graphs {
        let t = Instant::now();
        let mut r = None;
        for _ in 0..reps {
            r = Some(verify_tso_with(g, opts));
        }
        let d = t.elapsed() / reps;
        let r = r.unwrap();
        sum += d;
        max = max.max(d);
        states += r.states;
        max_states = max_states.max(r.states);
        some += r.witness.is_some() as usize;
    }
    let n = graphs.len();
    format!(
        "closure {:5}: {some}/{n} realisable, mean {:?}, max {max:?}, states mean {} max {max_states}",
        opts.closure,
        sum / n as u32,
        states / n
    )
}

/// The unrealisable graph of the unit test `closure_is_incomplete` (two interlocked
/// choices the closure cannot resolve), after `pad` relaxed writes of fresh locations
/// in each of its four threads: the search must try every lower set of memory
/// events before giving up, (pad + 3)⁴ of them at least.
fn padded_gadget(pad: u32) -> Graph {
    let mut g = Graph::new();
    for l in (1..=7).chain((0..4 * pad as u64).map(|i| 100 + i)) {
        g.ensure_loc(Loc(l), 0, None);
    }
    let add = |g: &mut Graph, t: Tid, kind: LabelKind| {
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        if let Some(loc) = g.label(e).loc().filter(|_| g.label(e).is_write()) {
            let n = g.co(loc).len();
            g.co_insert(e, n + 1);
        }
        g.label_mut(e).hb = Tso.hb_view(g, e);
        e
    };
    let write = |loc: u64, ord| LabelKind::Write {
        loc: Loc(loc),
        bytes: 8,
        ord,
        val: 1,
        kind: WriteKind::Plain,
    };
    let read = |loc: u64, rf| LabelKind::Read {
        loc: Loc(loc),
        bytes: 8,
        ord: MemOrder::Relaxed,
        kind: ReadKind::Plain,
        rf: Some(rf),
    };
    add(&mut g, 0, LabelKind::Start { parent: None });
    for c in 1..=4 {
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
        for i in 0..pad as u64 {
            let loc = 100 + (c as u64 - 1) * pad as u64 + i;
            add(&mut g, c, write(loc, MemOrder::Relaxed));
        }
    }
    // T1: a1 = x; c1; read c2; s1 = y ← b1   T3: b1 = y; d1; read d2; r1 = x ← a1
    // T2: a2 = x; c2; read c1; s2 = y ← b2   T4: b2 = y; d2; read d1; r2 = x ← a2
    let sc = MemOrder::SeqCst;
    let a: Vec<EventId> = [1, 2].map(|t| add(&mut g, t, write(1, sc))).to_vec();
    let b: Vec<EventId> = [3, 4].map(|t| add(&mut g, t, write(2, sc))).to_vec();
    let m: Vec<EventId> = [(1, 4), (2, 5), (3, 6), (4, 7)]
        .map(|(t, l)| add(&mut g, t, write(l, sc)))
        .to_vec();
    for (t, l, w) in [(1, 5, m[1]), (2, 4, m[0]), (3, 7, m[3]), (4, 6, m[2])] {
        add(&mut g, t, read(l, w));
    }
    for (t, l, w) in [(1, 2, b[0]), (2, 2, b[1]), (3, 1, a[0]), (4, 1, a[1])] {
        add(&mut g, t, read(l, w));
    }
    g
}

#[test]
#[ignore]
fn cost_on_fifty_event_graphs() {
    for pad in [0, 4, 8] {
        let g = padded_gadget(pad);
        assert!(rf::brute_force(&Tso, &g).is_none());
        println!(
            "closure-incomplete gadget padded by {pad}: {} events",
            g.len()
        );
        for opts in [Options { closure: true }, Options { closure: false }] {
            println!("  {}", measure(std::slice::from_ref(&g), opts));
        }
    }
    for (threads, ops, locs) in [(4, 12, 3), (5, 9, 3), (6, 7, 2), (8, 5, 3)] {
        let runs: Vec<Graph> = (0..50).map(|s| tso_run(s, threads, ops, locs)).collect();
        let wired: Vec<Graph> = runs.iter().zip(0..).map(|(g, s)| rewired(g, s)).collect();
        let events = runs.iter().map(Graph::len).sum::<usize>() / runs.len();
        let writes = runs
            .iter()
            .map(|g| g.events().filter(|(_, l)| l.is_write()).count())
            .sum::<usize>()
            / runs.len();
        println!("{threads} threads × {ops} instructions, {locs} locations: {events} events, {writes} writes on average");
        for opts in [Options { closure: true }, Options { closure: false }] {
            println!("  runs     {}", measure(&runs, opts));
            println!("  rewired  {}", measure(&wired, opts));
        }
    }
}
