//! Differential testing of the deferred-read explorer (`porf_explore::deferred`)
//! against the values explorer, the brute-force reference for models that allow load
//! buffering: on random litmus tests (AArch64 under `armv8` and `imm`, RISC-V under
//! `riscv`, PPC under `power`, kernel C under `lkmm`) with loads, stores of constants
//! and of loaded values (data dependencies), stores under a branch on a loaded value
//! (control dependencies), loads at an address computed from a loaded value (address
//! dependencies), fences, single-instruction RMWs and exclusive pairs (a
//! load-exclusive then a store-exclusive of the same address, which may succeed or
//! fail: the explorers try both; sometimes at an address depending on a loaded value,
//! sometimes followed by a store only when the store-exclusive succeeded), both must
//! print the same herd
//! text: the final states with their execution counts, the positive and negative
//! witness counts and the observation.
//!
//! The same tests check candidate pruning: each explorer with pruning on and off must
//! print the same text (`pruning_keeps_every_outcome`).
//!
//! `PORF_DIFF_DEFERRED_PROGRAMS` overrides the number of tests per model (default 150),
//! `PORF_DIFF_HW_PRUNING_PROGRAMS` the number of pruning tests per model (default 30, one in thirty for the deferred explorer),
//! `PORF_DIFF_DEFERRED_SEED` shifts the seeds.

mod common;

use common::{env, Rng};
use porf_explore::Strategy;
use porf_litmus::run::{check_test, herd_text, Options, Test};
use porf_litmus::{arch_of, parse, parse_asm};

#[derive(Copy, Clone, Debug)]
enum Op {
    /// Load number `k` of the thread, from location `l`.
    Load {
        k: usize,
        l: usize,
    },
    /// Load `k` from location `l` at an address depending on load `j`.
    AddrLoad {
        k: usize,
        l: usize,
        j: usize,
    },
    Store {
        l: usize,
        v: u64,
    },
    /// A store of load `j`'s value.
    DataStore {
        l: usize,
        j: usize,
    },
    /// A store of `v` when load `j` read non-zero.
    CtrlStore {
        l: usize,
        j: usize,
        v: u64,
    },
    Fence(usize),
    /// An exchange (`add` false) or fetch-and-add of `v`, its old value load `k`.
    Rmw {
        k: usize,
        l: usize,
        v: u64,
        add: bool,
    },
    /// A load-exclusive of `l` into load `k`, then a store-exclusive of `v` to `l`
    /// with its status in register `k + 1` (0: success); both addresses depend on
    /// load `dep` if set; `then` stores `v` to the other location if it succeeded.
    Excl {
        k: usize,
        l: usize,
        v: u64,
        dep: Option<usize>,
        then: bool,
    },
}

#[derive(Copy, Clone, PartialEq, Debug)]
enum Lang {
    AArch64,
    RiscV,
    Ppc,
    Kernel,
}

fn ops(rng: &mut Rng, lang: Lang, n: usize) -> Vec<Op> {
    let mut out = Vec::new();
    let mut loads = 0;
    for _ in 0..n {
        let l = rng.below(2) as usize;
        let v = 1 + rng.below(2);
        let j = (loads > 0).then(|| rng.below(loads as u64) as usize);
        let op = match (rng.below(9), j) {
            (0 | 1, _) => Op::Load { k: loads, l },
            (2, Some(j)) if lang != Lang::Kernel => Op::AddrLoad { k: loads, l, j },
            (3, Some(j)) => Op::DataStore { l, j },
            (4, Some(j)) => Op::CtrlStore { l, j, v },
            (5, _) => Op::Fence(rng.below(3) as usize),
            (6, _) if lang != Lang::Ppc => Op::Rmw {
                k: loads,
                l,
                v,
                add: lang != Lang::Kernel && rng.below(2) == 0,
            },
            (7, _) if lang != Lang::Kernel => Op::Excl {
                k: loads,
                l,
                v,
                dep: j.filter(|_| rng.below(3) == 0),
                then: rng.below(2) == 0,
            },
            _ => Op::Store { l, v },
        };
        loads += width(&op);
        out.push(op);
    }
    out
}

const LOCS: [&str; 2] = ["x", "y"];

/// One thread's instructions (assembly) or statements (kernel C).
fn body(lang: Lang, t: usize, ops: &[Op]) -> Vec<String> {
    let mut out = Vec::new();
    for (n, op) in ops.iter().enumerate() {
        let label = format!("LC{t}{n}");
        match lang {
            Lang::AArch64 => {
                let a = |l: usize| ["X1", "X3"][l];
                match *op {
                    Op::Load { k, l } => out.push(format!("LDR W{},[{}]", 10 + k, a(l))),
                    Op::AddrLoad { k, l, j } => {
                        out.push(format!("EOR W20,W{0},W{0}", 10 + j));
                        out.push(format!("LDR W{},[{},W20,SXTW]", 10 + k, a(l)));
                    }
                    Op::Store { l, v } => {
                        out.push(format!("MOV W9,#{v}"));
                        out.push(format!("STR W9,[{}]", a(l)));
                    }
                    Op::DataStore { l, j } => out.push(format!("STR W{},[{}]", 10 + j, a(l))),
                    Op::CtrlStore { l, j, v } => {
                        out.push(format!("CBZ W{},{label}", 10 + j));
                        out.push(format!("MOV W9,#{v}"));
                        out.push(format!("STR W9,[{}]", a(l)));
                        out.push(format!("{label}:"));
                    }
                    Op::Fence(f) => out.push(["DMB ISH", "DMB ISHLD", "DMB ISHST"][f].into()),
                    Op::Rmw { k, l, v, add } => {
                        out.push(format!("MOV W9,#{v}"));
                        let op = if add { "LDADD" } else { "SWP" };
                        out.push(format!("{op} W9,W{},[{}]", 10 + k, a(l)));
                    }
                    Op::Excl { k, l, v, dep, then } => {
                        out.push(format!("MOV W9,#{v}"));
                        let mut base = a(l);
                        if let Some(j) = dep {
                            out.push(format!("EOR W20,W{0},W{0}", 10 + j));
                            out.push(format!("ADD X21,{},W20,SXTW", a(l)));
                            base = "X21";
                        }
                        out.push(format!("LDXR W{},[{base}]", 10 + k));
                        out.push(format!("STXR W{},W9,[{base}]", 11 + k));
                        if then {
                            out.push(format!("CBNZ W{},{label}", 11 + k));
                            out.push(format!("STR W9,[{}]", a(1 - l)));
                            out.push(format!("{label}:"));
                        }
                    }
                }
            }
            Lang::RiscV => {
                let a = |l: usize| ["x6", "x7"][l];
                match *op {
                    Op::Load { k, l } => out.push(format!("lw x{},0({})", 10 + k, a(l))),
                    Op::AddrLoad { k, l, j } => {
                        out.push(format!("xor x20,x{0},x{0}", 10 + j));
                        out.push(format!("add x21,{},x20", a(l)));
                        out.push(format!("lw x{},0(x21)", 10 + k));
                    }
                    Op::Store { l, v } => {
                        out.push(format!("ori x9,x0,{v}"));
                        out.push(format!("sw x9,0({})", a(l)));
                    }
                    Op::DataStore { l, j } => out.push(format!("sw x{},0({})", 10 + j, a(l))),
                    Op::CtrlStore { l, j, v } => {
                        out.push(format!("beq x{},x0,{label}", 10 + j));
                        out.push(format!("ori x9,x0,{v}"));
                        out.push(format!("sw x9,0({})", a(l)));
                        out.push(format!("{label}:"));
                    }
                    Op::Fence(f) => out.push(["fence rw,rw", "fence r,rw", "fence rw,w"][f].into()),
                    Op::Rmw { k, l, v, add } => {
                        out.push(format!("ori x9,x0,{v}"));
                        let op = if add { "amoadd.w" } else { "amoswap.w" };
                        out.push(format!("{op} x{},x9,({})", 10 + k, a(l)));
                    }
                    Op::Excl { k, l, v, dep, then } => {
                        out.push(format!("ori x9,x0,{v}"));
                        let mut base = a(l);
                        if let Some(j) = dep {
                            out.push(format!("xor x20,x{0},x{0}", 10 + j));
                            out.push(format!("add x21,{},x20", a(l)));
                            base = "x21";
                        }
                        out.push(format!("lr.w x{},0({base})", 10 + k));
                        out.push(format!("sc.w x{},x9,0({base})", 11 + k));
                        if then {
                            out.push(format!("bne x{},x0,{label}", 11 + k));
                            out.push(format!("sw x9,0({})", a(1 - l)));
                            out.push(format!("{label}:"));
                        }
                    }
                }
            }
            Lang::Ppc => {
                let a = |l: usize| ["r6", "r7"][l];
                match *op {
                    Op::Load { k, l } => out.push(format!("lwz r{},0({})", 10 + k, a(l))),
                    Op::AddrLoad { k, l, j } => {
                        out.push(format!("xor r20,r{0},r{0}", 10 + j));
                        out.push(format!("lwzx r{},r20,{}", 10 + k, a(l)));
                    }
                    Op::Store { l, v } => {
                        out.push(format!("li r9,{v}"));
                        out.push(format!("stw r9,0({})", a(l)));
                    }
                    Op::DataStore { l, j } => out.push(format!("stw r{},0({})", 10 + j, a(l))),
                    Op::CtrlStore { l, j, v } => {
                        out.push(format!("cmpwi r{},0", 10 + j));
                        out.push(format!("beq {label}"));
                        out.push(format!("li r9,{v}"));
                        out.push(format!("stw r9,0({})", a(l)));
                        out.push(format!("{label}:"));
                    }
                    Op::Fence(f) => out.push(["sync", "lwsync", "isync"][f].into()),
                    Op::Rmw { .. } => unreachable!("no PPC RMW is generated"),
                    Op::Excl { k, l, v, dep, then } => {
                        out.push(format!("li r9,{v}"));
                        out.push(format!("li r{},1", 11 + k));
                        let mut index = "r0";
                        if let Some(j) = dep {
                            out.push(format!("xor r20,r{0},r{0}", 10 + j));
                            index = "r20";
                        }
                        out.push(format!("lwarx r{},{index},{}", 10 + k, a(l)));
                        out.push(format!("stwcx. r9,{index},{}", a(l)));
                        out.push(format!("bne {label}"));
                        out.push(format!("li r{},0", 11 + k));
                        if then {
                            out.push(format!("stw r9,0({})", a(1 - l)));
                        }
                        out.push(format!("{label}:"));
                    }
                }
            }
            Lang::Kernel => match *op {
                Op::Load { k, l } => out.push(format!("r{k} = READ_ONCE(*{});", LOCS[l])),
                Op::AddrLoad { .. } => unreachable!("no kernel address dependency is generated"),
                Op::Store { l, v } => out.push(format!("WRITE_ONCE(*{}, {v});", LOCS[l])),
                Op::DataStore { l, j } => out.push(format!("WRITE_ONCE(*{}, r{j});", LOCS[l])),
                Op::CtrlStore { l, j, v } => {
                    out.push(format!("if (r{j}) WRITE_ONCE(*{}, {v});", LOCS[l]))
                }
                Op::Fence(f) => out.push(["smp_mb();", "smp_rmb();", "smp_wmb();"][f].into()),
                Op::Rmw { k, l, v, .. } => {
                    out.push(format!("r{k} = xchg_relaxed({}, {v});", LOCS[l]))
                }
                Op::Excl { .. } => unreachable!("no kernel exclusive pair is generated"),
            },
        }
    }
    out
}

/// How many load registers `op` sets.
fn width(op: &Op) -> usize {
    match op {
        Op::Load { .. } | Op::AddrLoad { .. } | Op::Rmw { .. } => 1,
        Op::Excl { .. } => 2,
        _ => 0,
    }
}

fn loads(ops: &[Op]) -> usize {
    ops.iter().map(width).sum()
}

/// A random test of `lang` as litmus text.
fn test_text(seed: u64, lang: Lang) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let threads = 2 + rng.below(2) as usize;
    let per = if threads == 2 { 4 } else { 3 };
    let progs: Vec<Vec<Op>> = (0..threads)
        .map(|_| {
            let n = 1 + rng.below(per) as usize;
            ops(&mut rng, lang, n)
        })
        .collect();
    let name = format!("R{seed}");
    let mut cond: Vec<String> = vec!["x=0".into(), "y=0".into()];
    for (t, p) in progs.iter().enumerate() {
        for k in 0..loads(p) {
            cond.push(match lang {
                Lang::AArch64 => format!("{t}:X{}=0", 10 + k),
                Lang::RiscV => format!("{t}:x{}=0", 10 + k),
                Lang::Ppc => format!("{t}:r{}=0", 10 + k),
                Lang::Kernel => format!("{t}:r{k}=0"),
            });
        }
    }
    let cond = format!("exists ({})\n", cond.join(" /\\ "));
    if lang == Lang::Kernel {
        let mut s = format!("C {name}\n{{}}\n\n");
        for (t, p) in progs.iter().enumerate() {
            s += &format!("P{t}(int *x, int *y)\n{{\n");
            for k in 0..loads(p) {
                s += &format!("\tint r{k};\n");
            }
            for line in body(lang, t, p) {
                s += &format!("\t{line}\n");
            }
            s += "}\n\n";
        }
        return s + &cond;
    }
    let (head, regs) = match lang {
        Lang::AArch64 => ("AArch64", ["X1", "X3"]),
        Lang::RiscV => ("RISCV", ["x6", "x7"]),
        _ => ("PPC", ["r6", "r7"]),
    };
    let mut s = format!("{head} {name}\n{{\n");
    for t in 0..threads {
        s += &format!("{t}:{}=x; {t}:{}=y;\n", regs[0], regs[1]);
    }
    s += "}\n";
    let bodies: Vec<Vec<String>> = progs
        .iter()
        .enumerate()
        .map(|(t, p)| body(lang, t, p))
        .collect();
    let rows = bodies.iter().map(Vec::len).max().unwrap_or(0);
    let cells: Vec<String> = (0..threads).map(|t| format!(" P{t}")).collect();
    s += &format!("{} ;\n", cells.join(" |"));
    for r in 0..rows {
        let cells: Vec<String> = bodies
            .iter()
            .map(|b| format!(" {}", b.get(r).map_or("", String::as_str)))
            .collect();
        s += &format!("{} ;\n", cells.join(" |"));
    }
    s + &cond
}

fn parse_test(text: &str) -> Test {
    if arch_of(text).is_some() {
        Test::Asm(parse_asm("random.litmus", text).unwrap_or_else(|e| panic!("{e}\n{text}")))
    } else {
        Test::C(parse("random.litmus", text).unwrap_or_else(|e| panic!("{e}\n{text}")))
    }
}

fn without_time(s: &str) -> String {
    s.lines()
        .filter(|l| !l.starts_with("Time "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn differential(lang: Lang, model_name: &str) {
    let n = env("PORF_DIFF_DEFERRED_PROGRAMS", 150);
    let base = env("PORF_DIFF_DEFERRED_SEED", 0);
    let model = porf_models::by_name(model_name).unwrap();
    let mut failures = Vec::new();
    let (mut compared, mut executions, mut refused) = (0, 0, 0);
    for seed in base..base + n {
        let text = test_text(seed, lang);
        let test = parse_test(&text);
        let run = |s: Strategy| {
            let opts = Options {
                threads: 1,
                explorer: Some(s),
                ..Options::default()
            };
            check_test(&test, model.as_ref(), model_name, &opts)
        };
        match (run(Strategy::Values), run(Strategy::Deferred)) {
            (Ok(v), Ok(d)) => {
                compared += 1;
                executions += v.executions();
                let (v, d) = (without_time(&herd_text(&v)), without_time(&herd_text(&d)));
                if v != d {
                    failures.push(format!("{text}\n--- values\n{v}\n--- deferred\n{d}"));
                }
            }
            (Err(e), Err(_)) => eprintln!("seed {seed}: both refuse: {e:?}"),
            // The kernel machine's events after an `if` move when the branch changes
            // (LKMM's `ctrl` ends with the `if`): the deferred explorer sees it and
            // refuses (its module docs, P1).
            (Ok(_), Err(e))
                if lang == Lang::Kernel && format!("{e:?}").contains("changed when") =>
            {
                refused += 1
            }
            // A store-exclusive whose address depends on a read the search has not
            // decided (the deferred explorer's module docs, "Choices").
            (Ok(_), Err(e)) if format!("{e:?}").contains("waits for a read its address") => {
                refused += 1
            }
            (v, d) => failures.push(format!(
                "{text}\n--- values\n{:?}\n--- deferred\n{:?}",
                v.map(|o| herd_text(&o)),
                d.map(|o| herd_text(&o))
            )),
        }
    }
    eprintln!(
        "{model_name}: {compared} of {n} tests compared ({executions} executions), {refused} \
         refused by the deferred explorer"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(compared * 4 >= n * 3, "too few tests compared");
}

#[test]
fn armv8() {
    differential(Lang::AArch64, "armv8");
}

#[test]
fn imm() {
    differential(Lang::AArch64, "imm");
}

#[test]
fn riscv() {
    differential(Lang::RiscV, "riscv");
}

#[test]
fn power() {
    differential(Lang::Ppc, "power");
}

/// Candidate pruning (RMW atomicity for every model; SC per location for the models
/// that claim it, as `armv8`, `imm`, `riscv` and `power` do) drops no outcome: each
/// explorer prints the same herd text with pruning on and off
/// (`Options::disable_candidate_pruning`), on the same random tests.
fn pruning_differential(lang: Lang, model_name: &str, strategies: &[Strategy], n: u64) {
    let base = env("PORF_DIFF_DEFERRED_SEED", 0);
    let model = porf_models::by_name(model_name).unwrap();
    let mut failures = Vec::new();
    let mut compared = 0;
    for seed in base..base + n {
        let text = test_text(seed, lang);
        let test = parse_test(&text);
        for &s in strategies {
            let run = |disable_candidate_pruning: bool| {
                let opts = Options {
                    threads: 1,
                    explorer: Some(s),
                    disable_candidate_pruning,
                    ..Options::default()
                };
                check_test(&test, model.as_ref(), model_name, &opts)
                    .map(|o| without_time(&herd_text(&o)))
                    .map_err(|e| format!("{e:?}"))
            };
            let (on, off) = (run(false), run(true));
            compared += usize::from(on.is_ok());
            if on != off {
                failures.push(format!(
                    "{text}\n--- {s:?}, pruning on\n{on:?}\n--- pruning off\n{off:?}"
                ));
            }
        }
    }
    eprintln!("{model_name}: pruning on and off compared on {compared} runs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        compared as u64 * 2 >= n * strategies.len() as u64,
        "too few tests compared"
    );
}

/// The values explorer (the default for these models) on `PORF_DIFF_HW_PRUNING_PROGRAMS`
/// tests per model (default 30); the deferred explorer, whose search without pruning is
/// much slower, on one in thirty.
#[test]
fn pruning_keeps_every_outcome() {
    let n = env("PORF_DIFF_HW_PRUNING_PROGRAMS", 30);
    for (lang, model) in [
        (Lang::AArch64, "armv8"),
        (Lang::AArch64, "imm"),
        (Lang::RiscV, "riscv"),
        (Lang::Ppc, "power"),
    ] {
        pruning_differential(lang, model, &[Strategy::Values], n);
        pruning_differential(lang, model, &[Strategy::Deferred], n.div_ceil(30));
    }
}

/// LKMM may accept a cycle of rf and dependencies through plain accesses (see
/// `porf-explore/tests/deferred_dependencies.rs`), so the deferred explorer refuses it;
/// the values explorer answers.
#[test]
fn lkmm_is_refused() {
    let model = porf_models::by_name("lkmm").unwrap();
    let test = parse_test(&test_text(0, Lang::Kernel));
    let run = |s: Strategy| {
        let opts = Options {
            threads: 1,
            explorer: Some(s),
            ..Options::default()
        };
        check_test(&test, model.as_ref(), "lkmm", &opts)
    };
    assert!(run(Strategy::Values).is_ok());
    let e = run(Strategy::Deferred).unwrap_err();
    assert!(
        format!("{e:?}").contains("cycle of rf and dependencies"),
        "{e:?}"
    );
}
