//! porf's native hardware models against the cat interpreter running porf's own cat
//! files of the same models, on random *hardware* graphs (dependencies, fence kinds,
//! exclusive pairs, reads from po-later writes): `power` against `cat/power.cat`,
//! `imm` against `cat/imm.cat`, `tso` against `cat/tso.cat`. On each graph the native
//! declarative check (`MemoryModel::is_consistent`) and the cat file's verdict agree,
//! and so do the incremental check (`consistent_with` of the last event, with porf's
//! RMW atomicity) and the cat file on the execution without non-adjacent RMW pairs.
//!
//! Each model runs on 10⁴ graphs: 5000 of this file's generator ([`hw_graph`]:
//! coherent per location most of the time, C11 orders for IMM) and 5000 of
//! `porf_models::hwgen` (random rf and co, the architecture's annotations);
//! `PORF_HW_GRAPHS` sets the number per generator.

use porf_cat::build::{from_graph, from_graph_without_atomicity};
use porf_cat::{evaluate, load_file};
use porf_graph::hash::SplitMix64;
use porf_graph::hw::{Deps, FenceKind, Hw, Tags};
use porf_graph::{
    EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, Wrap, WriteKind,
};
use porf_models::hwgen::{random_hw_graph, HwArch, HwShape};
use porf_models::{atomicity, by_name, MemoryModel};
use std::path::PathBuf;

fn graphs() -> u64 {
    std::env::var("PORF_HW_GRAPHS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5_000)
}

fn cat_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("cat")
        .join(name)
}

/// The architecture a random graph imitates: which fence kinds it uses.
#[derive(Copy, Clone)]
enum Arch {
    Ppc,
    X86,
    /// C11 orders on every access and fence, with dependencies (IMM).
    C11,
}

/// A random hardware graph: main spawns 2–3 threads of 2–5 events over 2 locations:
/// reads, writes, fences of the architecture's kinds, exclusive pairs (PPC, C11) and
/// atomic RMWs; each access depends (addr, data) on random earlier reads of its
/// thread, and a random branch makes every later event control-depend on a read; each
/// read reads a random write of its location, po-later ones and other threads' later
/// ones included, or the initial value; co is random per location.
fn hw_graph(seed: u64, arch: Arch, model: &dyn MemoryModel) -> Graph {
    let mut rng = SplitMix64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x4a5d);
    let mut g = Graph::new();
    let locs = [Loc(1), Loc(2)];
    for l in locs {
        g.ensure_loc(l, 0, None);
    }
    g.add(0, LabelKind::Start { parent: None }, SrcLoc::UNKNOWN);
    let threads = 2 + rng.below(2) as u32;
    for c in 1..=threads {
        let spawn = LabelKind::Spawn {
            child: c,
            entry: 0,
            arg: 0,
            symm: None,
        };
        let s = g.add(0, spawn, SrcLoc::UNKNOWN);
        g.add(c, LabelKind::Start { parent: Some(s) }, SrcLoc::UNKNOWN);
    }
    let orders = [
        MemOrder::NonAtomic,
        MemOrder::Relaxed,
        MemOrder::Acquire,
        MemOrder::Release,
        MemOrder::AcqRel,
        MemOrder::SeqCst,
    ];
    for t in 1..=threads {
        let len = 2 + rng.below(4);
        let mut thread_reads: Vec<u32> = Vec::new();
        let mut ctrl: Vec<u32> = Vec::new();
        let mut excl: Option<u32> = None;
        for _ in 0..len {
            let loc = locs[rng.below(2) as usize];
            if !thread_reads.is_empty() && rng.below(6) == 0 {
                let r = thread_reads[rng.below(thread_reads.len() as u64) as usize];
                if !ctrl.contains(&r) {
                    ctrl.push(r);
                    ctrl.sort();
                }
            }
            let pick_deps = |rng: &mut SplitMix64, reads: &[u32]| -> Vec<u32> {
                reads
                    .iter()
                    .copied()
                    .filter(|_| rng.below(3) == 0)
                    .collect()
            };
            let mut hw = Hw {
                deps: Deps {
                    ctrl: ctrl.clone(),
                    ..Default::default()
                },
                ..Default::default()
            };
            let ord = match arch {
                Arch::C11 => orders[rng.below(6) as usize],
                _ => MemOrder::Relaxed,
            };
            let choice = rng.below(10);
            let read = |ord| LabelKind::Read {
                loc,
                bytes: 8,
                ord,
                kind: ReadKind::Plain,
                rf: None,
            };
            let write = |ord, kind| LabelKind::Write {
                loc,
                bytes: 8,
                ord,
                val: 1,
                kind,
            };
            match choice {
                0..=2 => {
                    hw.deps.addr = pick_deps(&mut rng, &thread_reads);
                    let e = g.add(t, read(ord), SrcLoc::UNKNOWN);
                    g.set_hw(e, Some(hw));
                    thread_reads.push(e.idx);
                }
                3..=5 => {
                    hw.deps.addr = pick_deps(&mut rng, &thread_reads);
                    hw.deps.data = pick_deps(&mut rng, &thread_reads);
                    let e = g.add(t, write(ord, WriteKind::Plain), SrcLoc::UNKNOWN);
                    g.set_hw(e, Some(hw));
                }
                6 | 7 => {
                    let kinds: &[Option<FenceKind>] = match arch {
                        Arch::Ppc => &[
                            Some(FenceKind::Sync),
                            Some(FenceKind::Lwsync),
                            Some(FenceKind::Lwsync),
                            Some(FenceKind::Eieio),
                            Some(FenceKind::Isync),
                            Some(FenceKind::Isync),
                        ],
                        Arch::X86 => &[
                            Some(FenceKind::Mfence),
                            Some(FenceKind::Lfence),
                            Some(FenceKind::Sfence),
                        ],
                        Arch::C11 => &[None],
                    };
                    hw.fence = kinds[rng.below(kinds.len() as u64) as usize];
                    let ord = match arch {
                        Arch::C11 => orders[1 + rng.below(5) as usize],
                        _ => orders[rng.below(6) as usize],
                    };
                    let e = g.add(t, LabelKind::Fence { ord }, SrcLoc::UNKNOWN);
                    g.set_hw(e, Some(hw));
                }
                8 if !matches!(arch, Arch::X86) => {
                    // A load-exclusive, or a store-exclusive pairing with the last one.
                    match excl.take() {
                        Some(r) if g.label(EventId::new(t, r)).loc() == Some(loc) => {
                            hw.tags = Tags::EXCL;
                            hw.excl_read = Some(r);
                            hw.deps.data = pick_deps(&mut rng, &thread_reads);
                            let e = g.add(t, write(ord, WriteKind::Plain), SrcLoc::UNKNOWN);
                            g.set_hw(e, Some(hw));
                        }
                        _ => {
                            hw.tags = Tags::EXCL;
                            let e = g.add(t, read(ord), SrcLoc::UNKNOWN);
                            g.set_hw(e, Some(hw));
                            thread_reads.push(e.idx);
                            excl = Some(e.idx);
                        }
                    }
                }
                _ => {
                    // An atomic RMW (PPC has none; it still is an RMW of porf's).
                    hw.tags = Tags::AMO;
                    hw.deps.addr = pick_deps(&mut rng, &thread_reads);
                    let kind = ReadKind::Rmw(RmwOp::Add(1, Wrap::NONE));
                    let r = g.add(
                        t,
                        LabelKind::Read {
                            loc,
                            bytes: 8,
                            ord,
                            kind,
                            rf: None,
                        },
                        SrcLoc::UNKNOWN,
                    );
                    g.set_hw(r, Some(hw.clone()));
                    thread_reads.push(r.idx);
                    let w = g.add(t, write(ord, WriteKind::Exclusive), SrcLoc::UNKNOWN);
                    g.set_hw(w, Some(hw));
                }
            }
        }
    }
    // Most graphs are "tidy": co keeps each thread's writes of a location in po order
    // and a read reads the initial value or another thread's write unless its thread
    // wrote the location before it (then that write or another thread's), so that
    // SC per location rarely decides and the subtler axioms have to.
    let tidy = rng.below(8) != 0;
    for loc in locs {
        let mut ws: Vec<EventId> = g
            .events()
            .filter(|(_, l)| l.is_write() && l.loc() == Some(loc))
            .map(|(e, _)| e)
            .collect();
        rng.shuffle(&mut ws);
        if tidy {
            for t in 1..=threads {
                let mut own: Vec<EventId> = ws.iter().copied().filter(|w| w.tid == t).collect();
                own.sort();
                let slots: Vec<usize> = (0..ws.len()).filter(|&i| ws[i].tid == t).collect();
                for (slot, w) in slots.into_iter().zip(own) {
                    ws[slot] = w;
                }
            }
        }
        g.set_co(loc, ws);
    }
    // A tidy graph's reads keep each thread's view of each location monotone in co:
    // a read reads at or after the co position its thread last wrote or read, and
    // before every po-later write of its own thread (SC per location holds then).
    let mut floor = std::collections::HashMap::<(u32, Loc), usize>::new();
    let pos = |g: &Graph, w: EventId| {
        let loc = g.label(w).loc().unwrap();
        1 + g.co(loc).iter().position(|&x| x == w).unwrap()
    };
    let events: Vec<EventId> = g.events().map(|(e, _)| e).collect();
    for e in events {
        let lab = g.label(e);
        let Some(loc) = lab.loc() else {
            continue;
        };
        let f = floor.get(&(e.tid, loc)).copied().unwrap_or(0);
        if lab.is_write() {
            let p = pos(&g, e);
            floor.insert((e.tid, loc), f.max(p));
            continue;
        }
        let ws = g.co(loc).to_vec();
        let rmw = g.contains(e.next()) && g.label(e.next()).is_exclusive_write();
        let q = if rmw && rng.below(4) != 0 {
            // An RMW's read part reads the write co-before its write part, mostly.
            pos(&g, e.next()) - 1
        } else if tidy {
            let ceiling = ws
                .iter()
                .filter(|w| w.tid == e.tid && w.idx > e.idx)
                .map(|&w| pos(&g, w))
                .min()
                .unwrap_or(ws.len() + 1);
            // Half the reads read as old a value as they may: the stale reads the
            // fences and dependencies of the models' subtler axioms forbid.
            let mut options = vec![f.min(ceiling - 1)];
            options.extend((f + 1..ceiling).filter(|&q| ws[q - 1].tid != e.tid));
            if rng.below(2) == 0 {
                options[0]
            } else {
                options[rng.below(options.len() as u64) as usize]
            }
        } else {
            rng.below(ws.len() as u64 + 1) as usize
        };
        floor.insert((e.tid, loc), q);
        g.set_rf(e, q.checked_sub(1).map(|k| ws[k]));
    }
    let events: Vec<EventId> = g.events().map(|(e, _)| e).collect();
    for e in events {
        let hb = model.hb_view(&g, e);
        g.label_mut(e).hb = hb;
    }
    g
}

/// `whole`: the model's incremental check is its whole-graph check but porf's RMW
/// atomicity (power, imm), compared with the cat file on the execution without
/// non-adjacent RMW pairs; tso's incremental check looks for cycles through the new
/// event only, under a contract random graphs do not meet.
fn differential(native: &str, file: &str, arch: Arch, theirs: HwArch, whole: bool) {
    let model = by_name(native).unwrap();
    let cat = load_file(&cat_file(file), &[]).unwrap_or_else(|e| panic!("{e}"));
    let n = graphs();
    for (generator, gen) in [("hw_graph", 0), ("hwgen", 1)] {
        let graph = |seed: u64| match gen {
            0 => hw_graph(seed, arch, model.as_ref()),
            _ => random_hw_graph(seed, &HwShape::random(seed, theirs)),
        };
        run(
            native,
            file,
            model.as_ref(),
            &cat,
            generator,
            n,
            graph,
            whole,
        );
    }
}

/// One generator's graphs `0..n` under one model and its cat file.
#[allow(clippy::too_many_arguments)]
fn run(
    native: &str,
    file: &str,
    model: &dyn MemoryModel,
    cat: &porf_cat::load::Loaded,
    generator: &str,
    n: u64,
    graph: impl Fn(u64) -> Graph,
    whole: bool,
) {
    let mut consistent = 0;
    // Graphs forbidden by one check alone, by its name.
    let mut sole = std::collections::BTreeMap::<String, usize>::new();
    // Graphs each check forbids, by its name.
    let mut any = std::collections::BTreeMap::<String, usize>::new();
    for seed in 0..n {
        let g = graph(seed);
        let want = model.is_consistent(&g);
        let verdict = evaluate(cat, &from_graph(&g), false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            verdict.allowed(),
            want,
            "seed {seed}: native {native} says {want}, {file} says {:?}\n{g}",
            verdict.violated
        );
        consistent += usize::from(want);
        for v in &verdict.violated {
            *any.entry(v.clone()).or_default() += 1;
        }
        if let [only] = verdict.violated.as_slice() {
            *sole.entry(only.clone()).or_default() += 1;
        }
        if !whole {
            continue;
        }
        let last = g.events().map(|(e, _)| e).last().unwrap();
        let inc = model.consistent_with(&g, last);
        let x = from_graph_without_atomicity(&g);
        let inc_cat = evaluate(cat, &x, false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            inc_cat.allowed(),
            inc,
            "seed {seed}: incremental {native} says {inc}, {file} says {:?}\n{g}",
            inc_cat.violated
        );
        assert!(
            !want || inc,
            "seed {seed}: consistent but refused incrementally"
        );
        assert_eq!(want, inc && atomicity::holds(&g), "seed {seed}");
    }
    // Both answers are common, so the agreement is not a trivial one.
    let total = n as usize;
    eprintln!("{native} on {generator}: {consistent} of {total} consistent; forbidden by: {any:?}; by one check alone: {sole:?}");
    assert!(
        consistent > total / 20 && consistent < total * 19 / 20,
        "{consistent} of {total} {generator} graphs consistent under {native}"
    );
}

#[test]
fn power_cat_agrees_with_native_power() {
    differential("power", "power.cat", Arch::Ppc, HwArch::Power, true);
}

#[test]
fn imm_cat_agrees_with_native_imm() {
    differential("imm", "imm.cat", Arch::C11, HwArch::Power, true);
}

#[test]
fn tso_cat_agrees_with_native_tso_on_x86_graphs() {
    differential("tso", "tso.cat", Arch::X86, HwArch::X86, false);
}
