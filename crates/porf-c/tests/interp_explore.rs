//! The interpreter under both explorers, on IR built by hand: store buffering, N
//! threads doing fetch_add, join return values feeding an assertion, and heap frees
//! across threads. Counts are GenMC's (see porf-explore's `genmc_counts.rs`).

use porf_c::ir::{
    addr, Block, Builtin, Cell, FuncId, Function, Inst, InstKind, Module, Operand, Reg, RmwKind,
    Scalar, Terminator,
};
use porf_c::{CProgram, RunOptions};
use porf_explore::{explore, Config, ErrorClass, Stats, Strategy};
use porf_graph::{MemOrder, SrcLoc, Val};
use porf_models::{by_name, MODEL_NAMES};

const RLX: MemOrder = MemOrder::Relaxed;

fn r(x: Reg) -> Operand {
    Operand::Reg(x)
}

fn c(v: Val) -> Operand {
    Operand::Const(v)
}

/// A one-block function: `insts` (numbered from source line `line0 + 1`), then
/// `return ret`.
fn func(
    name: &str,
    nparams: u32,
    nregs: u32,
    line0: u32,
    insts: Vec<InstKind>,
    ret: Option<Operand>,
) -> Function {
    let insts = insts
        .into_iter()
        .enumerate()
        .map(|(i, kind)| Inst {
            kind,
            src: SrcLoc::line(line0 + i as u32 + 1),
            lib: None,
        })
        .collect();
    Function {
        name: name.into(),
        nparams,
        variadic: false,
        nregs,
        nloops: 0,
        frame_size: 0,
        shared_size: 0,
        blocks: vec![Block {
            insts,
            term: Terminator::Return(ret),
            term_src: SrcLoc::UNKNOWN,
        }],
        loop_heads: Vec::new(),
        src: SrcLoc::line(line0),
        locals: Vec::new(),
    }
}

/// A module with `globals` (INT cells, 8 bytes apart, at `GLOBAL_BASE + 8 i`) and
/// `funcs`; `main` is the last function.
fn module(globals: &[&str], funcs: Vec<Function>) -> Module {
    let mut m = Module {
        main: funcs.len() as FuncId - 1,
        funcs,
        globals_end: addr::GLOBAL_BASE + 8 * globals.len() as Val,
        files: vec!["hand.c".into()],
        ..Module::default()
    };
    for (i, name) in globals.iter().enumerate() {
        m.cells.insert(
            global(i),
            Cell {
                name: name.to_string(),
                ty: Scalar::INT,
                init: 0,
                atomic: true,
                pointer: false,
            },
        );
    }
    m
}

fn global(i: usize) -> Val {
    addr::GLOBAL_BASE + 8 * i as Val
}

fn fptr(f: FuncId) -> Operand {
    c(addr::FUNC_BASE + f as Val)
}

/// `main` spawning each of `entries` (argument 0), joining them in order, and then
/// running `tail` with the join results in registers `n .. 2n`.
fn main_fn(entries: &[FuncId], tail: Vec<InstKind>) -> Function {
    let n = entries.len() as Reg;
    let mut insts = Vec::new();
    for (i, &e) in entries.iter().enumerate() {
        insts.push(InstKind::Spawn {
            dst: i as Reg,
            func: fptr(e),
            arg: c(0),
            symm: None,
            auto: false,
        });
    }
    for i in 0..n {
        insts.push(InstKind::Join {
            dst: n + i,
            tid: r(i),
        });
    }
    insts.extend(tail);
    func("main", 0, 2 * n + 1, 100, insts, Some(c(0)))
}

/// Store buffering, relaxed: `x = 1; a = y` || `y = 1; b = x`; each thread returns what
/// it read. With `check`, main asserts `a + b != 0` (false only in the weak outcome).
fn sb(check: bool) -> CProgram {
    let thread = |name: &str, mine: usize, other: usize, line0: u32| {
        func(
            name,
            1,
            2,
            line0,
            vec![
                InstKind::Store {
                    addr: c(global(mine)),
                    val: c(1),
                    ty: Scalar::INT,
                    ord: RLX,
                },
                InstKind::Load {
                    dst: 1,
                    addr: c(global(other)),
                    ty: Scalar::INT,
                    ord: RLX,
                },
            ],
            Some(r(1)),
        )
    };
    let tail = if check {
        vec![
            InstKind::Binary {
                dst: 4,
                op: porf_c::ir::BinOp::Add,
                a: r(2),
                b: r(3),
                ty: Scalar::INT,
            },
            InstKind::Assert {
                cond: r(4),
                msg: "a + b != 0".into(),
            },
        ]
    } else {
        Vec::new()
    };
    let m = module(
        &["x", "y"],
        vec![
            thread("t0", 0, 1, 10),
            thread("t1", 1, 0, 20),
            main_fn(&[0, 1], tail),
        ],
    );
    CProgram::new(m, RunOptions::default())
}

/// `n` threads each doing `atomic_fetch_add(&x, 1)` with order `ord`.
fn fetch_adds(n: usize, ord: MemOrder) -> CProgram {
    let t = func(
        "inc",
        1,
        2,
        10,
        vec![InstKind::Rmw {
            dst: 1,
            addr: c(global(0)),
            op: RmwKind::Add,
            val: c(1),
            ty: Scalar::INT,
            ord,
        }],
        None,
    );
    let m = module(&["x"], vec![t, main_fn(&vec![0; n], Vec::new())]);
    CProgram::new(m, RunOptions::default())
}

/// Explores every execution (errors included) with `strategy`.
fn run(strategy: Strategy, p: &CProgram, model: &str) -> Stats {
    let m = by_name(model).unwrap();
    let cfg = Config {
        keep_going: true,
        ..Config::default()
    };
    explore(strategy, p, m.as_ref(), &cfg)
}

/// Runs both explorers; checks they agree and returns the optimal one's stats.
fn both(p: &CProgram, model: &str) -> Stats {
    let opt = run(Strategy::Optimal, p, model);
    let reff = run(Strategy::Reference, p, model);
    assert_eq!(opt.complete, reff.complete, "complete under {model}");
    assert_eq!(opt.blocked, reff.blocked, "blocked under {model}");
    assert_eq!(opt.error_keys(), reff.error_keys(), "errors under {model}");
    opt
}

#[test]
fn store_buffering_counts() {
    let p = sb(false);
    for (model, want) in [("sc", 3), ("tso", 4), ("ra", 4), ("rc11", 4)] {
        let s = both(&p, model);
        assert!(s.errors.is_empty(), "{model}: {:?}", s.errors);
        assert_eq!(s.complete, want, "SB under {model}");
        assert_eq!(s.blocked, 0);
    }
}

#[test]
fn store_buffering_weak_outcome_fails_the_assertion() {
    let p = sb(true);
    let s = both(&p, "sc");
    assert!(s.errors.is_empty());
    assert_eq!(s.complete, 3);
    for model in ["tso", "ra", "rc11"] {
        let s = both(&p, model);
        assert_eq!(s.errors.len(), 1, "{model}");
        assert_eq!((s.complete, s.erroneous), (3, 1), "{model}");
        assert_eq!(s.errors[0].class, ErrorClass::Assertion);
        assert_eq!(s.errors[0].events[0].1, SrcLoc::line(106));
    }
}

#[test]
fn fetch_add_threads_give_n_factorial() {
    for n in 1..=4 {
        let want: u64 = (1..=n as u64).product();
        for ord in [RLX, MemOrder::SeqCst] {
            let p = fetch_adds(n, ord);
            for &model in MODEL_NAMES {
                let s = both(&p, model);
                assert!(s.errors.is_empty(), "{model}: {:?}", s.errors);
                assert_eq!(s.complete, want, "{n} fetch_adds ({ord:?}) under {model}");
            }
        }
    }
}

/// main mallocs a block and publishes it in `p`; two threads each take a lock, read `p`
/// and free it; with `locked` false they free without the lock.
fn two_frees(locked: bool) -> CProgram {
    // Globals: 0 = p (a pointer), 1 = the mutex.
    let p = global(0);
    let l = global(1);
    let mut body = Vec::new();
    if locked {
        body.push(InstKind::Lock { addr: c(l) });
    }
    body.push(InstKind::Load {
        dst: 1,
        addr: c(p),
        ty: Scalar::PTR,
        ord: MemOrder::NonAtomic,
    });
    body.push(InstKind::Builtin {
        dst: None,
        which: Builtin::Free,
        args: vec![r(1)],
    });
    if locked {
        body.push(InstKind::Unlock { addr: c(l) });
    }
    let t = func("freer", 1, 2, 10, body, None);
    let mut main = func(
        "main",
        0,
        5,
        100,
        vec![
            InstKind::Builtin {
                dst: Some(4),
                which: Builtin::Malloc,
                args: vec![c(16)],
            },
            InstKind::Store {
                addr: c(p),
                val: r(4),
                ty: Scalar::PTR,
                ord: MemOrder::NonAtomic,
            },
        ],
        Some(c(0)),
    );
    let spawns = main_fn(&[0, 0], Vec::new());
    main.blocks[0]
        .insts
        .extend(spawns.blocks[0].insts.iter().cloned());
    let mut m = module(&["p", "l"], vec![t, main]);
    m.cells.get_mut(&p).unwrap().ty = Scalar::PTR;
    CProgram::new(m, RunOptions::default())
}

#[test]
fn double_free_across_threads() {
    let cfg = Config {
        keep_going: true,
        ..Config::default()
    };
    for &model in MODEL_NAMES {
        let m = by_name(model).unwrap();
        // Ordered by the mutex or not: two frees of one block are a double free
        // (never a race: a free is not an access).
        for ordered in [true, false] {
            for strategy in [Strategy::Optimal, Strategy::Reference] {
                let s = explore(strategy, &two_frees(ordered), m.as_ref(), &cfg);
                let errs: Vec<_> = s.errors.iter().map(|e| (e.class, &e.message)).collect();
                assert_eq!(
                    errs,
                    [(ErrorClass::Memory, &"double free".to_string())],
                    "{model} {ordered}"
                );
                assert_eq!(s.errors[0].events.len(), 2);
                if ordered {
                    // Either thread frees second. Under WRA co plays no role, so every
                    // co of the mutex's writes counts (an acquire's write part right
                    // after the unlock it reads): the other thread's unlock goes last
                    // or between the first thread's lock and unlock — 2 per order.
                    let per_order = if model == "wra" { 2 } else { 1 };
                    assert_eq!(
                        s.complete,
                        2 * per_order,
                        "{model}: either thread frees second"
                    );
                }
            }
        }
    }
}

/// The engine's answer to joining a thread id nobody spawned: the thread waits forever
/// and the execution is reported as a deadlock (never a panic).
#[test]
fn join_of_a_never_spawned_thread_is_a_deadlock() {
    let main = func(
        "main",
        0,
        1,
        100,
        vec![InstKind::Join { dst: 0, tid: c(5) }],
        Some(c(0)),
    );
    let p = CProgram::new(module(&[], vec![main]), RunOptions::default());
    for strategy in [Strategy::Optimal, Strategy::Reference] {
        let s = run(strategy, &p, "rc11");
        assert_eq!(s.complete, 0);
        let classes: Vec<_> = s.errors.iter().map(|e| e.class).collect();
        assert_eq!(classes, [ErrorClass::Deadlock]);
        assert_eq!(s.errors[0].events[0].1, SrcLoc::line(101));
    }
}
