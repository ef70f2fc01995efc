//! porf's native models against the cat interpreter running porf's own cat files of
//! the same models (`cat/sc.cat`, `cat/tso.cat`, `cat/rc11.cat`): on 10⁴ random
//! execution graphs per model, the native declarative check
//! (`MemoryModel::is_consistent`) and the cat file's verdict agree.
//!
//! The graphs are `porf_models::rf::random_graph`'s (events, po, rf) over 2–4 threads
//! of up to 6 events, 1–3 locations, every memory order, fences, RMWs and failed compare-exchanges; half
//! of them keep the writes' insertion order as co, the other half get a random co per
//! location (so that atomicity and coherence are both exercised). Another 10⁴ per
//! model come from [`fenced_graph`], which weighs fences and seq_cst accesses up.

use porf_cat::{build::from_graph, evaluate, load_file};
use porf_graph::hash::SplitMix64;
use porf_graph::{Graph, Loc};
use porf_models::rf::{random_graph, RandomGraph};
use porf_models::{by_name, MemoryModel};
use std::path::PathBuf;

/// Graphs per generator and model; `PORF_CAT_GRAPHS` overrides it.
fn graphs() -> u64 {
    std::env::var("PORF_CAT_GRAPHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

fn cat_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("cat")
        .join(name)
}

/// Random graph number `seed`: its shape, and co shuffled for odd seeds.
fn graph(seed: u64, model: &dyn MemoryModel) -> Graph {
    let mut rng = SplitMix64(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0xca7);
    let shape = RandomGraph {
        threads: 2 + rng.below(3) as u32,
        events_per_thread: 2 + rng.below(5) as u32,
        locs: 1 + rng.below(3),
        sc: rng.below(4) != 0,
        rmws: rng.below(4) != 0,
    };
    let mut g = random_graph(seed, &shape, model);
    if seed % 2 == 1 {
        let locs: Vec<Loc> = g.locations().map(|(&l, _)| l).collect();
        for loc in locs {
            let mut order = g.co(loc).to_vec();
            rng.shuffle(&mut order);
            g.set_co(loc, order);
        }
    }
    g
}

/// A random graph biased towards what the models' subtler axioms need: 2–3 threads of
/// 3–5 events over 2 locations, a third of them fences (half of those seq_cst), the
/// rest reads, writes and RMWs of random orders (seq_cst weighted up); each read reads
/// the latest write added or a random one (or the initial value); co is the order of
/// insertion, or for a quarter of the graphs random per location.
fn fenced_graph(seed: u64, model: &dyn MemoryModel) -> Graph {
    use porf_graph::{LabelKind, MemOrder::*, ReadKind, RmwOp, SrcLoc, Wrap, WriteKind};
    let mut rng = SplitMix64(seed ^ 0xfe2c_ed00);
    let mut g = Graph::new();
    let locs = [Loc(1), Loc(2)];
    for l in locs {
        g.ensure_loc(l, 0, None);
    }
    let add = |g: &mut Graph, t: u32, kind: LabelKind| {
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        if let Some(loc) = g.label(e).loc().filter(|_| g.label(e).is_write()) {
            let n = g.co(loc).len();
            g.co_insert(e, n + 1);
        }
        g.label_mut(e).hb = model.hb_view(g, e);
        e
    };
    add(&mut g, 0, LabelKind::Start { parent: None });
    let threads = 2 + rng.below(2) as u32;
    let mut left = Vec::new();
    for c in 1..=threads {
        let spawn = LabelKind::Spawn {
            child: c,
            entry: 0,
            arg: 0,
            symm: None,
        };
        let s = add(&mut g, 0, spawn);
        add(&mut g, c, LabelKind::Start { parent: Some(s) });
        left.push((c, 3 + rng.below(3)));
    }
    let mut val = 1;
    while !left.is_empty() {
        let i = rng.below(left.len() as u64) as usize;
        let t = left[i].0;
        left[i].1 -= 1;
        if left[i].1 == 0 {
            left.swap_remove(i);
        }
        let loc = locs[rng.below(2) as usize];
        let pick = |rng: &mut SplitMix64, xs: &[porf_graph::MemOrder]| {
            xs[rng.below(xs.len() as u64) as usize]
        };
        // Half the reads read the latest write (as in an interleaving), so that many
        // graphs are consistent but for the one pattern a subtle axiom forbids.
        let source = |rng: &mut SplitMix64, g: &Graph| {
            let ws = g.co(loc);
            let k = if rng.below(2) == 0 {
                ws.len()
            } else {
                rng.below(ws.len() as u64 + 1) as usize
            };
            (k > 0).then(|| ws[k - 1])
        };
        val += 1;
        match rng.below(9) {
            0..=2 => {
                let ord = pick(
                    &mut rng,
                    &[SeqCst, SeqCst, SeqCst, Acquire, Release, AcqRel],
                );
                add(&mut g, t, LabelKind::Fence { ord });
            }
            3 | 4 => {
                let ord = pick(&mut rng, &[NonAtomic, Relaxed, Acquire, SeqCst, SeqCst]);
                let rf = source(&mut rng, &g);
                let kind = ReadKind::Plain;
                add(
                    &mut g,
                    t,
                    LabelKind::Read {
                        loc,
                        bytes: 8,
                        ord,
                        kind,
                        rf,
                    },
                );
            }
            5..=7 => {
                let ord = pick(&mut rng, &[NonAtomic, Relaxed, Release, SeqCst, SeqCst]);
                let kind = WriteKind::Plain;
                add(
                    &mut g,
                    t,
                    LabelKind::Write {
                        loc,
                        bytes: 8,
                        ord,
                        val,
                        kind,
                    },
                );
            }
            _ => {
                let ord = pick(&mut rng, &[Relaxed, Acquire, Release, AcqRel, SeqCst]);
                let rf = source(&mut rng, &g);
                let kind = ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE));
                add(
                    &mut g,
                    t,
                    LabelKind::Read {
                        loc,
                        bytes: 8,
                        ord,
                        kind,
                        rf,
                    },
                );
                let kind = WriteKind::Exclusive;
                add(
                    &mut g,
                    t,
                    LabelKind::Write {
                        loc,
                        bytes: 8,
                        ord,
                        val,
                        kind,
                    },
                );
            }
        }
    }
    if rng.below(4) == 0 {
        for loc in locs {
            let mut order = g.co(loc).to_vec();
            rng.shuffle(&mut order);
            g.set_co(loc, order);
        }
    }
    g
}

fn differential(native: &str, file: &str) {
    let model = by_name(native).unwrap();
    let cat = load_file(&cat_file(file), &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut consistent = 0;
    let n = graphs();
    for seed in 0..2 * n {
        let g = if seed < n {
            graph(seed, model.as_ref())
        } else {
            fenced_graph(seed, model.as_ref())
        };
        let want = model.is_consistent(&g);
        let verdict = evaluate(&cat, &from_graph(&g), false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            verdict.allowed(),
            want,
            "seed {seed}: native {native} says {want}, {file} says {:?}\n{g}",
            verdict.violated
        );
        consistent += usize::from(want);
    }
    // Both answers are common, so the agreement is not a trivial one.
    let total = 2 * n as usize;
    assert!(
        consistent > total / 10 && consistent < total * 9 / 10,
        "{consistent} of {total} consistent under {native}"
    );
}

#[test]
fn sc_cat_agrees_with_native_sc() {
    differential("sc", "sc.cat");
}

#[test]
fn tso_cat_agrees_with_native_tso() {
    differential("tso", "tso.cat");
}

#[test]
fn rc11_cat_agrees_with_native_rc11() {
    differential("rc11", "rc11.cat");
}

/// One event of a hand-written shape: a write, read, fence or RMW (fetch-add) of
/// location 1 or 2 with a memory order.
#[derive(Clone, Copy)]
enum Spec {
    W(u64, porf_graph::MemOrder),
    R(u64, porf_graph::MemOrder),
    F(porf_graph::MemOrder),
    U(u64, porf_graph::MemOrder),
}

/// Every graph of `shape` (threads added one after the other): each read and RMW
/// reads the initial value or any write of its location added before it; co is the
/// order of insertion.
fn all_graphs(shape: &[Vec<Spec>], model: &dyn MemoryModel) -> Vec<Graph> {
    use porf_graph::{LabelKind, ReadKind, RmwOp, SrcLoc, Wrap, WriteKind};
    let mut g = Graph::new();
    for l in [Loc(1), Loc(2)] {
        g.ensure_loc(l, 0, None);
    }
    let add = |g: &mut Graph, t: u32, kind: LabelKind| {
        let e = g.add(t, kind, SrcLoc::UNKNOWN);
        if let Some(loc) = g.label(e).loc().filter(|_| g.label(e).is_write()) {
            let n = g.co(loc).len();
            g.co_insert(e, n + 1);
        }
        g.label_mut(e).hb = model.hb_view(g, e);
    };
    add(&mut g, 0, LabelKind::Start { parent: None });
    for c in 1..=shape.len() as u32 {
        let spawn = LabelKind::Spawn {
            child: c,
            entry: 0,
            arg: 0,
            symm: None,
        };
        add(&mut g, 0, spawn);
        let s = porf_graph::EventId::new(0, c);
        add(&mut g, c, LabelKind::Start { parent: Some(s) });
    }
    let steps: Vec<(u32, Spec)> = shape
        .iter()
        .enumerate()
        .flat_map(|(t, evs)| evs.iter().map(move |&e| (t as u32 + 1, e)))
        .collect();
    let mut out = Vec::new();
    let mut stack = vec![(g, 0usize)];
    while let Some((mut g, k)) = stack.pop() {
        let Some(&(t, spec)) = steps.get(k) else {
            out.push(g);
            continue;
        };
        let val = k as i64 + 1;
        match spec {
            Spec::W(l, ord) => {
                let kind = WriteKind::Plain;
                add(
                    &mut g,
                    t,
                    LabelKind::Write {
                        loc: Loc(l),
                        bytes: 8,
                        ord,
                        val,
                        kind,
                    },
                );
                stack.push((g, k + 1));
            }
            Spec::F(ord) => {
                add(&mut g, t, LabelKind::Fence { ord });
                stack.push((g, k + 1));
            }
            Spec::R(l, ord) | Spec::U(l, ord) => {
                let sources: Vec<_> = std::iter::once(None)
                    .chain(g.co(Loc(l)).iter().copied().map(Some))
                    .collect();
                for rf in sources {
                    let mut h = g.clone();
                    let rmw = matches!(spec, Spec::U(..));
                    let kind = if rmw {
                        ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE))
                    } else {
                        ReadKind::Plain
                    };
                    add(
                        &mut h,
                        t,
                        LabelKind::Read {
                            loc: Loc(l),
                            bytes: 8,
                            ord,
                            kind,
                            rf,
                        },
                    );
                    if rmw {
                        let kind = WriteKind::Exclusive;
                        add(
                            &mut h,
                            t,
                            LabelKind::Write {
                                loc: Loc(l),
                                bytes: 8,
                                ord,
                                val,
                                kind,
                            },
                        );
                    }
                    stack.push((h, k + 1));
                }
            }
        }
    }
    out
}

/// Litmus shapes whose verdicts rest on the models' rarer clauses (release and acquire
/// fences, release sequences through RMW chains, seq_cst fences, store buffering),
/// every rf choice: the native models and the cat files agree on each graph.
#[test]
fn litmus_shapes_agree() {
    use porf_graph::MemOrder::*;
    use Spec::*;
    let (x, y) = (1, 2);
    let shapes: Vec<Vec<Vec<Spec>>> = vec![
        // MP with release and acquire fences.
        vec![
            vec![W(y, Relaxed), F(Release), W(x, Relaxed)],
            vec![R(x, Relaxed), F(Acquire), R(y, Relaxed)],
        ],
        // MP through a release sequence of two RMWs.
        vec![
            vec![W(y, NonAtomic), W(x, Release)],
            vec![U(x, Relaxed)],
            vec![U(x, Relaxed)],
            vec![R(x, Acquire), R(y, NonAtomic)],
        ],
        // MP, the release write followed by a relaxed write in its release sequence.
        vec![
            vec![W(y, Relaxed), W(x, Release), W(x, Relaxed)],
            vec![R(x, Acquire), R(y, Relaxed)],
        ],
        // SB with seq_cst fences, and with seq_cst accesses.
        vec![
            vec![W(x, Relaxed), F(SeqCst), R(y, Relaxed)],
            vec![W(y, Relaxed), F(SeqCst), R(x, Relaxed)],
        ],
        vec![
            vec![W(x, SeqCst), R(y, SeqCst)],
            vec![W(y, SeqCst), R(x, SeqCst)],
        ],
        // IRIW-like with seq_cst fences between the readers' reads.
        vec![
            vec![W(x, Relaxed)],
            vec![W(y, Relaxed)],
            vec![R(x, Relaxed), F(SeqCst), R(y, Relaxed)],
            vec![R(y, Relaxed), F(SeqCst), R(x, Relaxed)],
        ],
        // A fence pair with eco between (the RC11 paper's fence rule).
        vec![
            vec![W(x, Relaxed), F(SeqCst), W(y, Relaxed)],
            vec![W(y, Relaxed), F(SeqCst), R(x, Relaxed)],
        ],
        // Store buffering around RMWs (x86's locked instructions).
        vec![
            vec![W(x, Relaxed), U(y, Relaxed), R(y, Relaxed)],
            vec![W(y, Relaxed), R(x, Relaxed)],
        ],
    ];
    for (native, file) in [("sc", "sc.cat"), ("tso", "tso.cat"), ("rc11", "rc11.cat")] {
        let model = by_name(native).unwrap();
        let cat = load_file(&cat_file(file), &[]).unwrap_or_else(|e| panic!("{e}"));
        let (mut graphs, mut consistent) = (0, 0);
        for shape in &shapes {
            for g in all_graphs(shape, model.as_ref()) {
                let want = model.is_consistent(&g);
                let got = evaluate(&cat, &from_graph(&g), false).unwrap().allowed();
                assert_eq!(got, want, "{native} vs {file}:\n{g}");
                graphs += 1;
                consistent += usize::from(want);
            }
        }
        assert!(
            consistent > 0 && consistent < graphs,
            "{native}: {consistent} of {graphs}"
        );
    }
}
