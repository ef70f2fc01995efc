//! Unit tests of the interpreter on hand-built modules.

use super::build::{c, r, FnB, ModB};
use super::{CThread, EBUSY, LOCAL_STEP_LIMIT};
use crate::ir::{
    BinOp, Builtin, InstKind as K, Module, Operand, Reg, RmwKind, Scalar, Terminator, UnOp,
};
use crate::memory::{heap_addr, stack_addr, HEAP_DATA};
use crate::{CProgram, RunOptions};
use porf_graph::{
    Action, BlockReason, ErrorKind, Loc, MemOrder, Program, RmwOp, SrcLoc, ThreadMachine, Val,
};
use std::collections::BTreeMap;
use std::sync::Arc;

const NA: MemOrder = MemOrder::NonAtomic;
const RLX: MemOrder = MemOrder::Relaxed;
const UINT: Scalar = Scalar::int(4, false);

fn load(dst: Reg, a: Operand, ty: Scalar, ord: MemOrder) -> K {
    K::Load {
        dst,
        addr: a,
        ty,
        ord,
    }
}

fn store(a: Operand, v: Operand, ty: Scalar, ord: MemOrder) -> K {
    K::Store {
        addr: a,
        val: v,
        ty,
        ord,
    }
}

fn bin(dst: Reg, op: BinOp, a: Operand, b: Operand) -> K {
    K::Binary {
        dst,
        op,
        a,
        b,
        ty: Scalar::INT,
    }
}

/// `dst = a + b` on pointers.
fn padd(dst: Reg, a: Operand, b: Val) -> K {
    K::Binary {
        dst,
        op: BinOp::Add,
        a,
        b: c(b),
        ty: Scalar::PTR,
    }
}

fn builtin(dst: Option<Reg>, which: Builtin, args: Vec<Operand>) -> K {
    K::Builtin { dst, which, args }
}

fn prog(m: Module) -> CProgram {
    CProgram::new(m, RunOptions::default())
}

fn loc(a: Val) -> Loc {
    Loc(a as u64)
}

/// Whether `a` ends its thread.
fn ends(a: &Action) -> bool {
    matches!(
        a,
        Action::Finish { .. } | Action::Block { .. } | Action::Error { .. }
    )
}

/// Runs `t` alone against a sequential memory: loads read the latest store (or the
/// program's initial value), spawns return tids 1, 2, ..., joins return 0, locks are
/// 0/1 cells. Returns every action up to and including the ending one, and the memory.
fn seq(p: &CProgram, mut t: CThread) -> (Vec<Action>, BTreeMap<Loc, Val>) {
    let mut mem = BTreeMap::new();
    let mut trace = Vec::new();
    let mut spawned = 0;
    loop {
        let a = t.peek();
        assert_eq!(t.peek(), a, "peek is idempotent");
        trace.push(a.clone());
        if ends(&a) {
            return (trace, mem);
        }
        let mut read = |l: Loc| *mem.entry(l).or_insert_with(|| p.init_value(l));
        let ret = match a {
            Action::Load { loc, .. } => read(loc),
            Action::Store { loc, val, .. } => {
                mem.insert(loc, val);
                0
            }
            Action::Rmw { loc, op, .. } => {
                let old = read(loc);
                if let Some(new) = op.apply(old) {
                    mem.insert(loc, new);
                }
                old
            }
            Action::Lock { loc, .. } | Action::TryLock { loc, .. } => {
                let old = read(loc);
                mem.insert(loc, 1);
                old
            }
            Action::Unlock { loc, .. } => {
                mem.insert(loc, 0);
                0
            }
            Action::Spawn { .. } => {
                spawned += 1;
                spawned
            }
            _ => 0,
        };
        t.resume(ret);
    }
}

/// Runs `main` sequentially.
fn run_main(m: Module) -> (Vec<Action>, BTreeMap<Loc, Val>) {
    let p = prog(m);
    let t = p.main_thread();
    seq(&p, t)
}

fn last(trace: &[Action]) -> &Action {
    trace.last().unwrap()
}

/// The kind and message of the error a trace ends in.
fn error_of(trace: &[Action]) -> (ErrorKind, &str) {
    match last(trace) {
        Action::Error { kind, msg, .. } => (*kind, msg.as_str()),
        a => panic!("expected an error, got {a:?} after {trace:?}"),
    }
}

/// `main` runs `body` (given the module builder, to add globals) and returns 0.
fn main_with(body: impl FnOnce(&mut ModB, &mut FnB)) -> Module {
    let mut mb = ModB::new();
    let mut f = FnB::new("main", 0);
    body(&mut mb, &mut f);
    let id = mb.func(f);
    mb.build(id)
}

#[test]
fn loop_arithmetic_and_store() {
    // s = 0; i = 1; while (i <= 10) { s += i; i++; } x = s;
    let mut x = 0;
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::INT, 0);
        let (s, i, t) = (f.reg(), f.reg(), f.reg());
        f.i(K::Copy { dst: s, src: c(0) });
        f.i(K::Copy { dst: i, src: c(1) });
        let (head, body, exit) = (f.block(), f.block(), f.block());
        f.term(Terminator::Jump(head));
        f.at(head);
        f.i(bin(t, BinOp::Le, r(i), c(10)));
        f.term(Terminator::Branch {
            cond: r(t),
            then: body,
            els: exit,
        });
        f.at(body);
        f.i(bin(s, BinOp::Add, r(s), r(i)));
        f.i(bin(i, BinOp::Add, r(i), c(1)));
        f.term(Terminator::Jump(head));
        f.at(exit);
        f.i(store(c(x), r(s), Scalar::INT, NA));
        f.term(Terminator::Return(Some(c(3))));
    });
    let (trace, mem) = run_main(m);
    assert_eq!(trace.len(), 2);
    assert_eq!(mem[&loc(x)], 55);
    assert_eq!(trace[1], Action::Finish { ret: 3 });
}

#[test]
fn unary_convert_and_wrapping_registers() {
    let mut x = 0;
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::LONG, 0);
        let (a, b) = (f.reg(), f.reg());
        f.i(K::Unary {
            dst: a,
            op: UnOp::Neg,
            a: c(1),
            ty: UINT,
        });
        f.i(K::Convert {
            dst: b,
            a: r(a),
            to: Scalar::CHAR,
        });
        f.i(store(c(x), r(a), Scalar::LONG, NA));
        f.i(store(c(x), r(b), Scalar::LONG, NA));
    });
    let (trace, _) = run_main(m);
    let vals: Vec<Val> = trace
        .iter()
        .filter_map(|a| match a {
            Action::Store { val, .. } => Some(*val),
            _ => None,
        })
        .collect();
    assert_eq!(vals, [u32::MAX as Val, -1]);
}

#[test]
fn calls_recursion_and_function_pointers() {
    // fact(n) = n <= 1 ? 1 : n * fact(n - 1); x = fact(5); y = (*&fact)(4)
    let mut mb = ModB::new();
    let x = mb.global("x", Scalar::INT, 0);
    let y = mb.global("y", Scalar::INT, 0);
    let fact = mb.declare("fact");
    let mut f = FnB::new("fact", 1);
    let (t, u) = (f.reg(), f.reg());
    let (base, rec) = (f.block(), f.block());
    f.i(bin(t, BinOp::Le, r(0), c(1)));
    f.term(Terminator::Branch {
        cond: r(t),
        then: base,
        els: rec,
    });
    f.at(base);
    f.term(Terminator::Return(Some(c(1))));
    f.at(rec);
    f.i(bin(u, BinOp::Sub, r(0), c(1)));
    f.i(K::Call {
        dst: Some(u),
        func: fact,
        args: vec![r(u)],
    });
    f.i(bin(u, BinOp::Mul, r(0), r(u)));
    f.term(Terminator::Return(Some(r(u))));
    mb.set(fact, f);
    let mut main = FnB::new("main", 0);
    let (v, fp, w) = (main.reg(), main.reg(), main.reg());
    main.i(K::Call {
        dst: Some(v),
        func: fact,
        args: vec![c(5)],
    });
    main.i(store(c(x), r(v), Scalar::INT, NA));
    main.i(K::FuncAddr {
        dst: fp,
        func: fact,
    });
    main.i(K::CallIndirect {
        dst: Some(w),
        target: r(fp),
        args: vec![c(4)],
    });
    main.i(store(c(y), r(w), Scalar::INT, NA));
    main.i(K::CallIndirect {
        dst: None,
        target: c(12345),
        args: vec![],
    });
    let id = mb.func(main);
    let (trace, mem) = run_main(mb.build(id));
    assert_eq!(mem[&loc(x)], 120);
    assert_eq!(mem[&loc(y)], 24);
    assert_eq!(
        error_of(&trace),
        (
            ErrorKind::Memory,
            "call through an invalid function pointer"
        )
    );
}

#[test]
fn unbounded_recursion_is_cut_by_the_recursion_limit() {
    // g() { g(); }, run as the entry: with limit N, g is active N times and the
    // (N+1)th call blocks; beyond MAX_CALL_DEPTH it is an unsupported error.
    let mut mb = ModB::new();
    let g = mb.declare("g");
    let mut f = FnB::new("g", 0);
    let line = f.i(K::Call {
        dst: None,
        func: g,
        args: vec![],
    });
    mb.set(g, f);
    let m = mb.build(g);
    for limit in [None, Some(1), Some(5)] {
        let p = CProgram::new(
            m.clone(),
            RunOptions {
                recursion_limit: limit,
                ..RunOptions::default()
            },
        );
        let mut t = p.main_thread();
        assert_eq!(
            t.peek(),
            Action::Block {
                reason: BlockReason::RecursionLimit,
                src: SrcLoc::line(line)
            }
        );
        assert_eq!(
            t.m.frames.len() as u32,
            limit.unwrap_or(crate::DEFAULT_RECURSION_LIMIT)
        );
    }
    let p = CProgram::new(
        m,
        RunOptions {
            recursion_limit: Some(u32::MAX),
            ..RunOptions::default()
        },
    );
    let (trace, _) = seq(&p, p.main_thread());
    let (kind, msg) = error_of(&trace);
    assert_eq!(kind, ErrorKind::Unsupported);
    assert!(msg.starts_with("call depth exceeds"), "{msg}");
}

#[test]
fn loads_and_rmws_normalise_engine_values() {
    let mut x = 0;
    let mut y = 0;
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::INT, 0);
        y = mb.global("y", Scalar::LONG, 0);
        let (a, b, d) = (f.reg(), f.reg(), f.reg());
        f.i(load(a, c(x), Scalar::INT, RLX));
        f.i(store(c(y), r(a), Scalar::LONG, NA));
        f.i(K::Rmw {
            dst: b,
            addr: c(x),
            op: RmwKind::Add,
            val: c(1),
            ty: Scalar::INT,
            ord: MemOrder::SeqCst,
        });
        f.i(store(c(y), r(b), Scalar::LONG, NA));
        f.i(K::Cas {
            dst: d,
            addr: c(x),
            expected: c(-1),
            new: c(1 << 40),
            ty: UINT,
            succ: MemOrder::AcqRel,
            fail: MemOrder::Acquire,
            weak: false,
        });
        f.i(store(c(y), r(d), Scalar::LONG, NA));
        f.i(store(c(x), c(1 << 33 | 7), Scalar::INT, NA));
    });
    let p = prog(m);
    let mut t = p.main_thread();
    assert_eq!(
        t.peek(),
        Action::Load {
            loc: loc(x),
            bytes: 4,
            ord: RLX,
            copy: false,
            src: SrcLoc::line(1)
        }
    );
    t.resume(0x1_8000_0005);
    assert!(matches!(t.peek(), Action::Store { val, .. } if val == 0x8000_0005u32 as i32 as Val));
    t.resume(0);
    assert_eq!(
        t.peek(),
        Action::Rmw {
            loc: loc(x),
            bytes: 4,
            op: RmwOp::Add(
                1,
                porf_graph::Wrap {
                    bytes: 4,
                    signed: true
                }
            ),
            ord: MemOrder::SeqCst,
            src: SrcLoc::line(3)
        }
    );
    // Values from the engine are normalised again on the way in.
    t.resume(1 << 31);
    assert!(matches!(t.peek(), Action::Store { val, .. } if val == i32::MIN as Val));
    t.resume(0);
    assert_eq!(
        t.peek(),
        Action::Rmw {
            loc: loc(x),
            bytes: 4,
            op: RmwOp::Cas {
                expected: u32::MAX as Val,
                new: 0,
                fail_ord: MemOrder::Acquire
            },
            ord: MemOrder::AcqRel,
            src: SrcLoc::line(5)
        }
    );
    t.resume(-1);
    assert!(matches!(t.peek(), Action::Store { val, .. } if val == u32::MAX as Val));
    t.resume(0);
    assert!(matches!(t.peek(), Action::Store { val: 7, .. }));
}

#[test]
fn private_memory_makes_no_actions() {
    // int a[2] = {0}; a[1] = 0x1ff; char b = ((char*)a)[4]; fetch_add(&a[0], 5);
    // cas(&a[0], 5, 9); cas(&a[0], 5, 11) (fails); x = b; y = a[0]; z = old of failing cas
    let mut g = [0; 3];
    let m = main_with(|mb, f| {
        g = [
            mb.global("x", Scalar::INT, 0),
            mb.global("y", Scalar::INT, 0),
            mb.global("z", Scalar::INT, 0),
        ];
        let off = f.frame(8);
        let (p, q, b, o1, o2, o3, a0) = (
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
        );
        f.i(K::FrameInit {
            offset: off,
            size: 8,
            defined: true,
        });
        f.i(K::FrameAddr {
            dst: p,
            offset: off,
        });
        f.i(K::Binary {
            dst: q,
            op: BinOp::Add,
            a: r(p),
            b: c(4),
            ty: Scalar::PTR,
        });
        f.i(store(r(q), c(0x1ff), Scalar::INT, NA));
        f.i(load(b, r(q), Scalar::CHAR, NA));
        f.i(K::Rmw {
            dst: o1,
            addr: r(p),
            op: RmwKind::Add,
            val: c(5),
            ty: Scalar::INT,
            ord: MemOrder::SeqCst,
        });
        for (dst, new) in [(o2, 9), (o3, 11)] {
            f.i(K::Cas {
                dst,
                addr: r(p),
                expected: c(5),
                new: c(new),
                ty: Scalar::INT,
                succ: MemOrder::SeqCst,
                fail: MemOrder::SeqCst,
                weak: true,
            });
        }
        f.i(load(a0, r(p), Scalar::INT, MemOrder::SeqCst));
        f.i(store(c(g[0]), r(b), Scalar::INT, NA));
        f.i(store(c(g[1]), r(a0), Scalar::INT, NA));
        f.i(store(c(g[2]), r(o3), Scalar::INT, NA));
        f.i(bin(o1, BinOp::Add, r(o1), r(o2)));
        f.term(Terminator::Return(Some(r(o1))));
    });
    let (trace, mem) = run_main(m);
    assert_eq!(
        trace.len(),
        4,
        "only the global stores are actions: {trace:?}"
    );
    assert_eq!(mem[&loc(g[0])], -1);
    assert_eq!(mem[&loc(g[1])], 9);
    assert_eq!(mem[&loc(g[2])], 9);
    assert_eq!(trace[3], Action::Finish { ret: 5 });
}

#[test]
fn private_memory_errors() {
    // A dangling pointer to a returned function's local, and another thread's local.
    let mut mb = ModB::new();
    let mut leak = FnB::new("leak", 0);
    let off = leak.frame(4);
    let p = leak.reg();
    leak.i(K::FrameAddr {
        dst: p,
        offset: off,
    });
    leak.term(Terminator::Return(Some(r(p))));
    let leak = mb.func(leak);
    let mut main = FnB::new("main", 0);
    let (q, v) = (main.reg(), main.reg());
    main.i(K::Call {
        dst: Some(q),
        func: leak,
        args: vec![],
    });
    main.i(load(v, r(q), Scalar::INT, NA));
    let id = mb.func(main);
    let (trace, _) = run_main(mb.build(id));
    assert_eq!(
        error_of(&trace),
        (
            ErrorKind::Memory,
            "access to a local variable of a function that has returned"
        )
    );
    let m = main_with(|_, f| {
        let v = f.reg();
        f.i(load(v, c(stack_addr(1, 0)), Scalar::INT, NA));
    });
    let (trace, _) = run_main(m);
    assert_eq!(
        error_of(&trace),
        (
            ErrorKind::Unsupported,
            "access to another thread's local variable"
        )
    );
}

#[test]
fn address_errors() {
    let cases: [(Val, u8, ErrorKind, &str); 5] = [
        (0, 4, ErrorKind::Memory, "null pointer dereference"),
        (8, 4, ErrorKind::Memory, "null pointer dereference"),
        (-4, 4, ErrorKind::Memory, "invalid address"),
        (
            crate::ir::addr::GLOBAL_BASE,
            1,
            ErrorKind::Unsupported,
            "mixed-size or misaligned access to global memory at x",
        ),
        (
            crate::ir::addr::GLOBAL_BASE + 8,
            4,
            ErrorKind::Memory,
            "invalid address",
        ),
    ];
    for (a, size, kind, msg) in cases {
        let m = main_with(|mb, f| {
            mb.global("x", Scalar::INT, 0);
            let v = f.reg();
            f.i(load(v, c(a), Scalar::int(size, true), NA));
        });
        let (trace, _) = run_main(m);
        assert_eq!(error_of(&trace), (kind, msg), "address {a:#x}");
    }
}

#[test]
fn store_values_are_normalised() {
    let mut x = 0;
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::BOOL, 0);
        f.i(store(c(x), c(300), Scalar::BOOL, MemOrder::Release));
    });
    let (trace, _) = run_main(m);
    assert_eq!(
        trace[0],
        Action::Store {
            loc: loc(x),
            bytes: 1,
            val: 44,
            ord: MemOrder::Release,
            src: SrcLoc::line(1)
        }
    );
}

#[test]
fn threads_fences_and_mutexes() {
    let mut mb = ModB::new();
    let l = mb.global("l", Scalar::INT, 0);
    let x = mb.global("x", Scalar::LONG, 0);
    let mut child = FnB::new("child", 1);
    let s = child.reg();
    child.i(builtin(Some(s), Builtin::ThreadSelf, vec![]));
    child.i(store(c(x), r(s), Scalar::LONG, NA));
    child.i(K::ThreadExit { val: r(0) });
    let child = mb.func(child);
    let mut main = FnB::new("main", 2);
    let (fp, t, ret, tl) = (main.reg(), main.reg(), main.reg(), main.reg());
    main.i(K::FuncAddr {
        dst: fp,
        func: child,
    });
    main.i(K::Spawn {
        dst: t,
        func: r(fp),
        arg: c(42),
        symm: None,
        auto: false,
    });
    main.i(K::Fence {
        ord: MemOrder::SeqCst,
    });
    main.i(K::Join {
        dst: ret,
        tid: r(t),
    });
    main.i(K::Lock { addr: c(l) });
    main.i(K::TryLock {
        dst: tl,
        addr: c(l),
    });
    main.i(K::Unlock { addr: c(l) });
    main.i(bin(ret, BinOp::Add, r(ret), r(tl)));
    main.i(bin(ret, BinOp::Add, r(ret), r(t)));
    main.i(bin(ret, BinOp::Add, r(ret), r(0)));
    main.i(bin(ret, BinOp::Add, r(ret), r(1)));
    main.term(Terminator::Return(Some(r(ret))));
    let id = mb.func(main);
    let p = prog(mb.build(id));
    let mut t = p.main_thread();
    let expect = [
        Action::Spawn {
            entry: child,
            arg: 42,
            symmetric: porf_graph::Symmetry::Asymmetric,
            src: SrcLoc::line(2),
        },
        Action::Fence {
            ord: MemOrder::SeqCst,
            src: SrcLoc::line(3),
        },
        Action::Join {
            tid: 7,
            src: SrcLoc::line(4),
        },
        Action::Lock {
            loc: loc(l),
            src: SrcLoc::line(5),
        },
        Action::TryLock {
            loc: loc(l),
            src: SrcLoc::line(6),
        },
        Action::Unlock {
            loc: loc(l),
            src: SrcLoc::line(7),
        },
    ];
    let answers = [7, 0, 100, 0, 1, 0];
    for (a, ret) in expect.iter().zip(answers) {
        assert_eq!(&t.peek(), a);
        t.resume(ret);
    }
    // join's 100 + trylock's EBUSY + tid 7 + argc 1 + argv (the bottom of main's
    // stack, 2^45, which is 0 in the `int` additions)
    assert_eq!(stack_addr(0, 0) as i32, 0);
    assert_eq!(
        t.peek(),
        Action::Finish {
            ret: 100 + EBUSY + 7 + 1
        }
    );

    let (trace, mem) = seq(&p, p.spawn(5, child, 42));
    assert_eq!(mem[&loc(x)], 5);
    assert_eq!(last(&trace), &Action::Finish { ret: 42 });
}

#[test]
fn invalid_spawns_and_joins() {
    let spawn_of = |target: Val| {
        main_with(|_, f| {
            let t = f.reg();
            f.i(K::Spawn {
                dst: t,
                func: c(target),
                arg: c(0),
                symm: None,
                auto: false,
            });
        })
    };
    let (trace, _) = run_main(spawn_of(0));
    assert_eq!(
        error_of(&trace),
        (
            ErrorKind::Memory,
            "pthread_create of an invalid function pointer"
        )
    );
    let (trace, _) = run_main(spawn_of(crate::memory::func_addr(0)));
    assert!(matches!(trace[0], Action::Spawn { entry: 0, .. }));
    for tids in [vec![-1], vec![0], vec![1 << 40], vec![3, 3]] {
        let m = main_with(|_, f| {
            let d = f.reg();
            for &t in &tids {
                f.i(K::Join { dst: d, tid: c(t) });
            }
        });
        let (trace, _) = run_main(m);
        assert_eq!(
            error_of(&trace),
            (ErrorKind::Memory, "join of an invalid thread"),
            "{tids:?}"
        );
    }
}

#[test]
fn assume_assert_abort_unsupported_division() {
    let ends_with = |kind: K| {
        let m = main_with(|_, f| {
            f.reg();
            f.i(K::Assume { cond: c(1) });
            f.i(K::Assert {
                cond: c(2),
                msg: "fine".into(),
            });
            f.i(kind);
        });
        last(&run_main(m).0).clone()
    };
    assert_eq!(
        ends_with(K::Assume { cond: c(0) }),
        Action::Block {
            reason: BlockReason::Assume,
            src: SrcLoc::line(3)
        }
    );
    assert_eq!(
        ends_with(K::Assert {
            cond: c(0),
            msg: "x == 1".into()
        }),
        Action::Error {
            kind: ErrorKind::Assertion,
            msg: "x == 1".into(),
            src: SrcLoc::line(3)
        }
    );
    assert!(matches!(
        ends_with(K::Abort),
        Action::Error {
            kind: ErrorKind::Abort,
            ..
        }
    ));
    assert_eq!(
        ends_with(K::Unsupported { msg: "vla".into() }),
        Action::Error {
            kind: ErrorKind::Unsupported,
            msg: "vla".into(),
            src: SrcLoc::line(3)
        }
    );
    assert_eq!(
        ends_with(bin(0, BinOp::Div, c(1), c(0))),
        Action::Error {
            kind: ErrorKind::Memory,
            msg: "division by zero".into(),
            src: SrcLoc::line(3)
        }
    );
}

/// `while (1) { r = x; }` with the loop instrumented for `--unroll`.
fn spin_module() -> (Module, Val, u32) {
    let mut x = 0;
    let mut iter_line = 0;
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::INT, 0);
        let (v, id) = (f.reg(), f.loop_id());
        let body = f.block();
        f.loop_head(body);
        f.i(K::LoopEnter { id });
        f.term(Terminator::Jump(body));
        f.at(body);
        iter_line = f.i(K::LoopIter { id });
        f.i(load(v, c(x), Scalar::INT, RLX));
        f.term(Terminator::Jump(body));
    });
    (m, x, iter_line)
}

#[test]
fn unroll_blocks_the_extra_iteration() {
    let (m, _, iter_line) = spin_module();
    let p = CProgram::new(
        m.clone(),
        RunOptions {
            unroll: Some(3),
            ..RunOptions::default()
        },
    );
    let (trace, _) = seq(&p, p.main_thread());
    assert_eq!(trace.len(), 4);
    assert_eq!(
        last(&trace),
        &Action::Block {
            reason: BlockReason::LoopBound,
            src: SrcLoc::line(iter_line)
        }
    );
    let p = CProgram::new(
        m.clone(),
        RunOptions {
            unroll: Some(0),
            ..RunOptions::default()
        },
    );
    assert_eq!(seq(&p, p.main_thread()).0.len(), 1);
    // Without a bound the loop keeps asking for loads.
    let p = prog(m);
    let mut t = p.main_thread();
    for _ in 0..1000 {
        assert!(matches!(t.peek(), Action::Load { .. }));
        t.resume(0);
    }
}

/// `for (i = 0; i < 2; i++) { for (j = 0; j < 2; j++) r = x; }`: each loop is entered
/// with its own counter, reset on every entry.
#[test]
fn loop_counters_reset_on_entry() {
    let mut x = 0;
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::INT, 0);
        let (i, j, t, v) = (f.reg(), f.reg(), f.reg(), f.reg());
        let (outer, inner) = (f.loop_id(), f.loop_id());
        let (oh, ob, ih, ib, inext, done) = (
            f.block(),
            f.block(),
            f.block(),
            f.block(),
            f.block(),
            f.block(),
        );
        f.loop_head(oh);
        f.loop_head(ih);
        f.i(K::Copy { dst: i, src: c(0) });
        f.i(K::LoopEnter { id: outer });
        f.term(Terminator::Jump(oh));
        f.at(oh);
        f.i(bin(t, BinOp::Lt, r(i), c(2)));
        f.term(Terminator::Branch {
            cond: r(t),
            then: ob,
            els: done,
        });
        f.at(ob);
        f.i(K::LoopIter { id: outer });
        f.i(K::Copy { dst: j, src: c(0) });
        f.i(K::LoopEnter { id: inner });
        f.term(Terminator::Jump(ih));
        f.at(ih);
        f.i(bin(t, BinOp::Lt, r(j), c(2)));
        f.term(Terminator::Branch {
            cond: r(t),
            then: ib,
            els: inext,
        });
        f.at(ib);
        f.i(K::LoopIter { id: inner });
        f.i(load(v, c(x), Scalar::INT, RLX));
        f.i(bin(j, BinOp::Add, r(j), c(1)));
        f.term(Terminator::Jump(ih));
        f.at(inext);
        f.i(bin(i, BinOp::Add, r(i), c(1)));
        f.term(Terminator::Jump(oh));
        f.at(done);
        f.term(Terminator::Return(Some(c(0))));
    });
    for (unroll, loads, end) in [
        (2, 4, Action::Finish { ret: 0 }),
        (
            1,
            1,
            Action::Block {
                reason: BlockReason::LoopBound,
                src: SrcLoc::line(12),
            },
        ),
    ] {
        let p = CProgram::new(
            m.clone(),
            RunOptions {
                unroll: Some(unroll),
                ..RunOptions::default()
            },
        );
        let (trace, _) = seq(&p, p.main_thread());
        assert_eq!(trace.len(), loads + 1, "unroll {unroll}: {trace:?}");
        assert_eq!(last(&trace), &end);
    }
}

#[test]
fn runaway_local_loop_is_reported() {
    let m = main_with(|_, f| {
        let b = f.block();
        f.term(Terminator::Jump(b));
        f.at(b);
        f.term(Terminator::Jump(b));
    });
    let (trace, _) = run_main(m);
    let (kind, msg) = error_of(&trace);
    assert_eq!(kind, ErrorKind::NonTermination);
    // The state repeats after one step: certain, and said to be.
    assert!(msg.contains("runs forever"), "{msg}");
    assert!(msg.contains("its state repeats every 1 steps"), "{msg}");
}

/// A local loop whose state repeats only every 5 iterations (`i = (i + 1) % 5`) is
/// found to run forever; one whose state never repeats within the budget
/// (`i = i + 1` on 64 bits) is reported as having run out of the budget, which is
/// not claimed to be certain.
#[test]
fn local_loops_repeating_or_out_of_budget() {
    let m = main_with(|_, f| {
        let i = f.reg();
        let b = f.block();
        f.term(Terminator::Jump(b));
        f.at(b);
        f.i(bin(i, BinOp::Add, r(i), c(1)));
        f.i(bin(i, BinOp::Rem, r(i), c(5)));
        f.term(Terminator::Jump(b));
    });
    let (trace, _) = run_main(m);
    let (kind, msg) = error_of(&trace);
    assert_eq!(kind, ErrorKind::NonTermination);
    assert!(msg.contains("runs forever"), "{msg}");
    let m = main_with(|_, f| {
        let i = f.reg();
        let b = f.block();
        f.term(Terminator::Jump(b));
        f.at(b);
        f.i(bin(i, BinOp::Add, r(i), c(1)));
        f.term(Terminator::Jump(b));
    });
    let (trace, _) = run_main(m);
    let (kind, msg) = error_of(&trace);
    assert_eq!(kind, ErrorKind::Unsupported);
    assert!(
        msg.contains(&format!("did not end within {LOCAL_STEP_LIMIT} steps")),
        "{msg}"
    );
    assert!(!msg.contains("forever"), "{msg}");
}

/// `L: r = x; goto L;` (a loop without a loop statement): with `--unroll N` the
/// retreating edge blocks the N-th time it is taken, at the jump, so L starts N times
/// (N loads); `--unroll 0` counts as 1 there.
#[test]
fn unroll_bounds_a_goto_loop_at_its_retreating_edge() {
    let mut jump_line = 0;
    let m = main_with(|mb, f| {
        let x = mb.global("x", Scalar::INT, 0);
        let v = f.reg();
        let l = f.block();
        f.term(Terminator::Jump(l));
        f.at(l);
        f.i(load(v, c(x), Scalar::INT, RLX));
        jump_line = f.term(Terminator::Jump(l));
    });
    for (unroll, loads) in [(3, 3), (1, 1), (0, 1)] {
        let p = CProgram::new(
            m.clone(),
            RunOptions {
                unroll: Some(unroll),
                ..RunOptions::default()
            },
        );
        let (trace, _) = seq(&p, p.main_thread());
        assert_eq!(trace.len(), loads + 1, "unroll {unroll}: {trace:?}");
        assert_eq!(
            last(&trace),
            &Action::Block {
                reason: BlockReason::LoopBound,
                src: SrcLoc::line(jump_line)
            }
        );
    }
}

/// A local goto loop (no action at all) is cut by `--unroll` instead of running into
/// the step budget; without a bound it still is that non-termination error.
#[test]
fn unroll_cuts_a_local_goto_loop_before_the_step_limit() {
    let m = main_with(|_, f| {
        let i = f.reg();
        let b = f.block();
        f.term(Terminator::Jump(b));
        f.at(b);
        f.i(bin(i, BinOp::Add, r(i), c(1)));
        f.term(Terminator::Jump(b));
    });
    let p = CProgram::new(
        m.clone(),
        RunOptions {
            unroll: Some(3),
            ..RunOptions::default()
        },
    );
    let (trace, _) = seq(&p, p.main_thread());
    assert!(
        matches!(
            trace[..],
            [Action::Block {
                reason: BlockReason::LoopBound,
                ..
            }]
        ),
        "{trace:?}"
    );
    let (trace, _) = run_main(m);
    assert!(error_of(&trace).1.contains("did not end within"));
}

/// An irreducible loop, 0 → 1 | 2, 1 → 2, 2 → 1 | 3 (two entries; each block loads
/// x, and 2 leaves when it reads 1): the search's retreating edge 2 → 1 is counted,
/// so reading 0 forever is cut; the entry 0 → 2 resets nothing that matters.
#[test]
fn unroll_bounds_an_irreducible_loop() {
    let m = main_with(|mb, f| {
        let x = mb.global("x", Scalar::INT, 0);
        let (v, w) = (f.reg(), f.reg());
        let (b1, b2, b3) = (f.block(), f.block(), f.block());
        f.i(load(v, c(x), Scalar::INT, RLX));
        f.term(Terminator::Branch {
            cond: r(v),
            then: b1,
            els: b2,
        });
        f.at(b1);
        f.i(load(w, c(x), Scalar::INT, RLX));
        f.term(Terminator::Jump(b2));
        f.at(b2);
        f.i(load(w, c(x), Scalar::INT, RLX));
        f.term(Terminator::Branch {
            cond: r(w),
            then: b3,
            els: b1,
        });
        f.at(b3);
        f.term(Terminator::Return(Some(c(0))));
    });
    let p = CProgram::new(
        m,
        RunOptions {
            unroll: Some(2),
            ..RunOptions::default()
        },
    );
    // x stays 0 (`seq` answers with memory): 0 → 2 → 1 → 2 → 1 (cut: the 2nd
    // retreating arrival at 1).
    let (trace, _) = seq(&p, p.main_thread());
    let loads = trace
        .iter()
        .filter(|a| matches!(a, Action::Load { .. }))
        .count();
    assert_eq!(loads, 4, "{trace:?}");
    assert!(matches!(
        last(&trace),
        Action::Block {
            reason: BlockReason::LoopBound,
            ..
        }
    ));
}

#[test]
fn peek_is_idempotent_and_clones_are_independent() {
    // a = x; y = a * 10 + (private counter, initialised to 0, incremented before the load)
    let mut x = 0;
    let mut y = 0;
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::INT, 0);
        y = mb.global("y", Scalar::INT, 0);
        let off = f.frame(4);
        let (p, k, a) = (f.reg(), f.reg(), f.reg());
        f.i(K::FrameInit {
            offset: off,
            size: 4,
            defined: true,
        });
        f.i(K::FrameAddr {
            dst: p,
            offset: off,
        });
        f.i(K::Rmw {
            dst: k,
            addr: r(p),
            op: RmwKind::Add,
            val: c(1),
            ty: Scalar::INT,
            ord: MemOrder::SeqCst,
        });
        f.i(load(k, r(p), Scalar::INT, NA));
        f.i(load(a, c(x), Scalar::INT, RLX));
        f.i(bin(a, BinOp::Mul, r(a), c(10)));
        f.i(bin(a, BinOp::Add, r(a), r(k)));
        f.i(store(c(y), r(a), Scalar::INT, NA));
    });
    let p = prog(m);
    let mut t = p.main_thread();
    let first = t.peek();
    for _ in 0..3 {
        assert_eq!(t.peek(), first);
    }
    let mut u = t.clone();
    t.resume(1);
    u.resume(2);
    let stored = |t: &mut CThread| match t.peek() {
        Action::Store { val, .. } => val,
        a => panic!("{a:?}"),
    };
    assert_eq!(stored(&mut t), 11);
    assert_eq!(stored(&mut u), 21);
    let mut v = u.clone();
    u.resume(0);
    assert_eq!(u.peek(), Action::Finish { ret: 0 });
    assert_eq!(stored(&mut v), 21);
}

/// `main` mallocs `size` bytes into register 0 and then runs `rest`.
fn with_block(size: Val, rest: impl FnOnce(&mut FnB, Reg)) -> Module {
    main_with(|_, f| {
        let p = f.reg();
        f.i(builtin(Some(p), Builtin::Malloc, vec![c(size)]));
        rest(f, p);
    })
}

#[test]
fn malloc_and_free_are_engine_events() {
    let m = with_block(12, |f, p| {
        let (q, v) = (f.reg(), f.reg());
        f.i(K::Binary {
            dst: q,
            op: BinOp::Add,
            a: r(p),
            b: c(8),
            ty: Scalar::PTR,
        });
        f.i(store(r(q), c(5), Scalar::INT, NA));
        f.i(load(v, r(q), Scalar::INT, NA));
        f.i(builtin(None, Builtin::Free, vec![r(p)]));
        f.i(builtin(None, Builtin::Free, vec![c(0)]));
        f.i(load(v, r(q), Scalar::INT, NA));
    });
    let (trace, _) = run_main(m);
    let base = heap_addr(0, 0, HEAP_DATA);
    let data = loc(base + 8);
    assert_eq!(
        trace,
        [
            Action::Malloc {
                base: loc(base),
                size: 12,
                zeroed: false,
                src: SrcLoc::line(1)
            },
            Action::Store {
                loc: data,
                bytes: 4,
                val: 5,
                ord: NA,
                src: SrcLoc::line(3)
            },
            Action::Load {
                loc: data,
                bytes: 4,
                ord: NA,
                copy: false,
                src: SrcLoc::line(4)
            },
            Action::Free {
                base: loc(base),
                src: SrcLoc::line(5)
            },
            // The use after free is the engine's to find: the access still happens.
            Action::Load {
                loc: data,
                bytes: 4,
                ord: NA,
                copy: false,
                src: SrcLoc::line(7)
            },
            Action::Finish { ret: 0 },
        ]
    );
    let p = prog(with_block(4, |_, _| {}));
    assert_eq!(p.block_of(data), Some(loc(base)));
    assert_eq!(p.block_of(loc(base)), Some(loc(base)));
    assert_eq!(p.block_of(loc(crate::ir::addr::GLOBAL_BASE)), None);
}

#[test]
fn heap_errors_the_address_alone_shows() {
    let err = |size: Val, rest: fn(&mut FnB, Reg)| {
        let (trace, _) = run_main(with_block(size, rest));
        let (k, m) = error_of(&trace);
        (k, m.to_string())
    };
    let invalid_free = (
        ErrorKind::Memory,
        "invalid free: the pointer is not the start of a heap block".to_string(),
    );
    assert_eq!(
        err(8, |f, p| {
            let q = f.reg();
            f.i(padd(q, r(p), 4));
            f.i(builtin(None, Builtin::Free, vec![r(q)]));
        }),
        invalid_free
    );
    assert_eq!(
        err(8, |f, _| {
            f.i(builtin(
                None,
                Builtin::Free,
                vec![c(crate::ir::addr::GLOBAL_BASE)],
            ));
        }),
        invalid_free
    );
    assert_eq!(
        err(8, |f, p| {
            let v = f.reg();
            f.i(padd(v, r(p), -8));
            f.i(load(v, r(v), Scalar::LONG, NA));
        }),
        (ErrorKind::Memory, "out-of-bounds heap access".to_string())
    );
    let (kind, msg) = err(8, |f, p| {
        let v = f.reg();
        f.i(padd(v, r(p), 2));
        f.i(load(v, r(v), Scalar::INT, NA));
    });
    assert_eq!(kind, ErrorKind::Unsupported);
    assert_eq!(msg, "misaligned access to heap memory at heap#0.0+2");
    let (kind, msg) = err(1 << 21, |_, _| {});
    assert_eq!(kind, ErrorKind::Unsupported);
    assert!(msg.starts_with("malloc of 2097152 bytes"), "{msg}");
}

#[test]
fn frees_and_accesses_of_other_threads_blocks_are_engine_events() {
    // Thread 3 uses thread 1's block 0, frees it, uses it again: no local checks.
    let b = heap_addr(1, 0, HEAP_DATA);
    let m = main_with(|_, f| {
        let v = f.reg();
        f.i(load(v, c(b), Scalar::INT, NA));
        f.i(builtin(None, Builtin::Free, vec![c(b)]));
        f.i(load(v, c(b), Scalar::INT, NA));
        f.i(builtin(None, Builtin::Free, vec![c(b)]));
    });
    let p = prog(m);
    let main = p.module().main;
    let (trace, _) = seq(&p, p.spawn(3, main, 0));
    let kinds: Vec<&str> = trace
        .iter()
        .map(|a| match a {
            Action::Load { .. } => "load",
            Action::Free { .. } => "free",
            Action::Finish { .. } => "finish",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["load", "free", "load", "free", "finish"]);
}

#[test]
fn main_gets_argc_and_argv() {
    // main(argc, argv): store argc, argv[0][0] and argv[1] to globals.
    let mut mb = ModB::new();
    let (ga, gc, gn) = (
        mb.global("a", Scalar::INT, 0),
        mb.global("c", Scalar::CHAR, 0),
        mb.global("n", Scalar::PTR, 7),
    );
    let mut f = FnB::new("main", 2);
    let (p0, ch, p1, tmp) = (f.reg(), f.reg(), f.reg(), f.reg());
    f.i(store(c(ga), r(0), Scalar::INT, NA));
    f.i(load(p0, r(1), Scalar::PTR, NA));
    f.i(load(ch, r(p0), Scalar::CHAR, NA));
    f.i(store(c(gc), r(ch), Scalar::CHAR, NA));
    f.i(padd(tmp, r(1), 8));
    f.i(load(p1, r(tmp), Scalar::PTR, NA));
    f.i(store(c(gn), r(p1), Scalar::PTR, NA));
    let main = mb.func(f);
    let (_, mem) = run_main(mb.build(main));
    assert_eq!(mem[&loc(ga)], 1);
    assert_eq!(
        mem[&loc(gc)],
        b't' as Val,
        "argv[0] is the file name test.c"
    );
    assert_eq!(mem[&loc(gn)], 0, "argv[1] is NULL");
}

#[test]
fn mutex_in_private_memory_is_unsupported() {
    let m = main_with(|_, f| {
        let off = f.frame(8);
        let p = f.reg();
        f.i(K::FrameAddr {
            dst: p,
            offset: off,
        });
        f.i(K::Lock { addr: r(p) });
    });
    let (trace, _) = run_main(m);
    assert_eq!(error_of(&trace).0, ErrorKind::Unsupported);
}

#[test]
fn program_names_and_initial_values() {
    let mut mb = ModB::new();
    let x = mb.global("pool[1].next", Scalar::PTR, 0);
    let y = mb.global("y", Scalar::INT, -3);
    let f = mb.func(FnB::new("main", 0));
    let p = prog(mb.build(f));
    assert_eq!(p.loc_name(loc(x)), "pool[1].next");
    assert_eq!(p.init_value(loc(y)), -3);
    assert_eq!(p.init_value(loc(heap_addr(1, 2, 16))), 0);
    assert_eq!(
        p.loc_name(loc(heap_addr(1, 2, HEAP_DATA + 16))),
        "heap#1.2+16"
    );
    assert_eq!(p.source_file(0), "test.c");
    assert_eq!(p.source_file(9), "");
    let mut t = p.spawn(2000, f, 0);
    assert_eq!(t.peek().src(), SrcLoc::line(0));
    assert!(matches!(
        t.peek(),
        Action::Error {
            kind: ErrorKind::Unsupported,
            ..
        }
    ));
}

#[test]
fn invalid_ir_is_rejected() {
    let m = main_with(|_, f| {
        f.i(K::Copy { dst: 5, src: c(0) });
    });
    let e = CProgram::try_new(m, RunOptions::default()).unwrap_err();
    assert!(e.contains("register 5 out of range"), "{e}");
    let mut m = main_with(|mb, _| {
        mb.global("x", Scalar::LONG, 0);
    });
    m.cells
        .get_mut(&crate::ir::addr::GLOBAL_BASE)
        .unwrap()
        .ty
        .size = 16;
    let e = CProgram::try_new(m, RunOptions::default()).unwrap_err();
    assert!(e.contains("cell x"), "{e}");
}

#[test]
fn shared_frames_are_allocated_on_entry_and_freed_on_return() {
    // g() { *shared = 7; return; } with a 4-byte shared frame, called twice from a
    // thread entry that also has one: each activation mallocs (uninitialised) before its first
    // instruction and frees its block when it returns; the entry's block is freed
    // before the thread finishes. As thread 0's entry (main) it is never freed.
    let mut mb = ModB::new();
    let g = mb.declare("g");
    let mut f = FnB::new("g", 0);
    f.shared(4);
    let a = f.reg();
    f.i(K::SharedAddr { dst: a, offset: 0 });
    f.i(store(r(a), c(7), Scalar::INT, NA));
    mb.set(g, f);
    let mut entry = FnB::new("entry", 0);
    entry.shared(8);
    for _ in 0..2 {
        entry.i(K::Call {
            dst: None,
            func: g,
            args: vec![],
        });
    }
    let e = mb.func(entry);
    let m = Arc::new(mb.build(e));
    let run = RunOptions::default();
    // Shared frames are blocks of their own region, numbered apart from heap blocks.
    let block = |tid, n| Loc(crate::memory::frame_addr(tid, n, HEAP_DATA) as u64);
    let kinds = |trace: &[Action]| -> Vec<String> {
        trace
            .iter()
            .map(|a| match a {
                Action::Malloc {
                    base, size, zeroed, ..
                } => {
                    format!("malloc {:#x} {size} {zeroed}", base.0)
                }
                Action::Free { base, .. } => format!("free {:#x}", base.0),
                Action::Store { loc, val, .. } => format!("store {:#x} {val}", loc.0),
                Action::Finish { .. } => "finish".into(),
                other => format!("{other:?}"),
            })
            .collect()
    };
    let p = CProgram::new((*m).clone(), run.clone());
    let t = CThread::new(m.clone(), &run, 1, e, &[]);
    let (trace, _) = seq(&p, t);
    let (b0, b1, b2) = (block(1, 0), block(1, 1), block(1, 2));
    assert_eq!(
        kinds(&trace),
        [
            format!("malloc {:#x} 8 false", b0.0),
            format!("malloc {:#x} 4 false", b1.0),
            format!("store {:#x} 7", b1.0),
            format!("free {:#x}", b1.0),
            format!("malloc {:#x} 4 false", b2.0),
            format!("store {:#x} 7", b2.0),
            format!("free {:#x}", b2.0),
            format!("free {:#x}", b0.0),
            "finish".to_string(),
        ]
    );
    let t = CThread::new(m, &run, 0, e, &[]);
    let (trace, _) = seq(&p, t);
    let k = kinds(&trace);
    assert_eq!(k.len(), 8, "{k:?}");
    assert_eq!(k[6], format!("free {:#x}", block(0, 2).0));
    assert_eq!(k[7], "finish");
}

/// The domain a nondet call asks the engine for: `{0, 1}` for `_Bool` whatever the
/// range, else the range cut to the type (`unsigned char`, whose `Scalar` is `_Bool`'s,
/// gets 0..=255); no range is an unsupported-input error.
#[test]
fn nondet_domains() {
    let first = |ty: Scalar, boolean: bool, range: Option<(Val, Val)>| {
        let m = main_with(|_, f| {
            let d = f.reg();
            f.i(builtin(Some(d), Builtin::Nondet { ty, boolean }, vec![]));
        });
        let p = CProgram::new(
            m,
            RunOptions {
                nondet_range: range,
                ..RunOptions::default()
            },
        );
        p.main_thread().peek()
    };
    let choose = |lo, hi| Action::Choose {
        lo,
        hi,
        src: SrcLoc::UNKNOWN,
        what: "a nondeterministic value (`__VERIFIER_nondet_*`)",
    };
    let strip = |a: Action| match a {
        Action::Choose { lo, hi, .. } => choose(lo, hi),
        a => a,
    };
    assert_eq!(strip(first(Scalar::BOOL, true, None)), choose(0, 1));
    assert_eq!(strip(first(Scalar::BOOL, true, Some((5, 9)))), choose(0, 1));
    assert_eq!(
        strip(first(Scalar::BOOL, false, Some((-5, 300)))),
        choose(0, 255)
    );
    assert_eq!(
        strip(first(Scalar::INT, false, Some((-5, 300)))),
        choose(-5, 300)
    );
    assert_eq!(
        strip(first(Scalar::CHAR, false, Some((100, 200)))),
        choose(100, 127)
    );
    let u64_ = Scalar::int(8, false);
    assert_eq!(strip(first(u64_, false, Some((i64::MIN, 3)))), choose(0, 3));
    for (ty, range) in [(Scalar::INT, None), (Scalar::CHAR, Some((200, 300)))] {
        match first(ty, false, range) {
            Action::Error {
                kind: ErrorKind::Unsupported,
                ..
            } => {}
            a => panic!("{a:?}"),
        }
    }
}

/// The thread-private store: per thread, 0 when unset, no actions; `Await` blocks with
/// `BlockReason::Wait` on 0 and goes on otherwise.
#[test]
fn private_store_and_await() {
    let mut mb = ModB::new();
    let x = mb.global("x", Scalar::INT, 0);
    let mut main = FnB::new("main", 0);
    let (a, b, v) = (main.reg(), main.reg(), main.reg());
    main.i(builtin(Some(a), Builtin::PrivateGet, vec![c(5)]));
    main.i(builtin(None, Builtin::PrivateSet, vec![c(5), c(9)]));
    main.i(builtin(None, Builtin::PrivateSet, vec![c(-2), c(4)]));
    main.i(builtin(None, Builtin::PrivateSet, vec![c(-2), c(0)]));
    main.i(builtin(Some(b), Builtin::PrivateGet, vec![c(5)]));
    main.i(bin(b, BinOp::Add, r(b), r(a)));
    main.i(builtin(None, Builtin::Await, vec![r(b)]));
    main.i(load(v, c(x), Scalar::INT, RLX));
    main.i(builtin(None, Builtin::Await, vec![r(v)]));
    main.term(Terminator::Return(Some(r(b))));
    let id = mb.func(main);
    let p = prog(mb.build(id));
    let mut t = p.main_thread();
    // The store's operations and the first (satisfied) await are local.
    assert!(matches!(t.peek(), Action::Load { .. }));
    t.resume(0);
    assert_eq!(
        t.peek(),
        Action::Block {
            reason: BlockReason::Wait,
            src: SrcLoc::line(9),
        }
    );
    // Resumed with a nonzero value, the await passes and main returns 9.
    let mut t = p.main_thread();
    t.peek();
    t.resume(1);
    assert_eq!(t.peek(), Action::Finish { ret: 9 });
}

/// `__porf_choose(n)`: a `Choose` over `0..n` for `n > 1`, 0 without an action for
/// `n == 1`, an unsupported fault below.
#[test]
fn library_choice() {
    let run = |n: Val| {
        let m = main_with(|_, f| {
            let d = f.reg();
            f.i(builtin(Some(d), Builtin::Choose, vec![c(n)]));
            f.term(Terminator::Return(Some(r(d))));
        });
        prog(m).main_thread()
    };
    let mut t = run(3);
    assert!(matches!(t.peek(), Action::Choose { lo: 0, hi: 2, .. }));
    t.resume(2);
    assert_eq!(t.peek(), Action::Finish { ret: 2 });
    assert_eq!(run(1).peek(), Action::Finish { ret: 0 });
    assert!(matches!(
        run(0).peek(),
        Action::Error {
            kind: ErrorKind::Unsupported,
            ..
        }
    ));
}

#[test]
fn block_size_asks_the_engine_about_heap_block_starts_only() {
    // A block start (of another thread's block too) is an engine query whose answer
    // lands in the destination register; anything else is an invalid free.
    let b = heap_addr(1, 0, HEAP_DATA);
    let m = main_with(|_, f| {
        let s = f.reg();
        f.i(builtin(Some(s), Builtin::BlockSize, vec![c(b)]));
        f.i(builtin(Some(s), Builtin::BlockSize, vec![c(b + 4)]));
    });
    let (trace, _) = run_main(m);
    assert_eq!(
        trace[0],
        Action::BlockSize {
            base: loc(b),
            src: SrcLoc::line(1)
        }
    );
    assert_eq!(
        error_of(&trace),
        (
            ErrorKind::Memory,
            "invalid free: the pointer is not the start of a heap block"
        )
    );
}

/// A struct `{ int a; long *b; }` named `name` at `offset` of a frame.
fn pair_local(name: &str, offset: u32, shared: bool) -> crate::ir::LocalVar {
    use crate::ir::Shape;
    crate::ir::LocalVar {
        name: name.into(),
        offset,
        size: 16,
        shared,
        shape: Shape::Record(vec![
            (".a".into(), 0, 4, Shape::Scalar),
            (".b".into(), 8, 8, Shape::Scalar),
        ]),
        site: None,
    }
}

#[test]
fn private_reads_of_uninitialised_bytes_are_errors_naming_the_local() {
    // struct { int a; long *b; } s; s.a = 1; x = s.a; y = s.b;
    let mut x = 0;
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::INT, 0);
        let off = f.frame(16);
        f.local(pair_local("s", off, false));
        let (p, q, v) = (f.reg(), f.reg(), f.reg());
        f.i(K::FrameAddr {
            dst: p,
            offset: off,
        });
        f.i(padd(q, r(p), 8));
        f.i(store(r(p), c(1), Scalar::INT, NA));
        f.i(load(v, r(p), Scalar::INT, NA));
        f.i(store(c(x), r(v), Scalar::INT, NA));
        f.i(load(v, r(q), Scalar::LONG, NA));
    });
    let (trace, mem) = run_main(m);
    assert_eq!(mem[&loc(x)], 1);
    assert_eq!(
        error_of(&trace),
        (
            ErrorKind::Memory,
            "read of an uninitialised local variable `s.b`"
        )
    );
    // A byte of the `int` that is written, and one that is not: 2 bytes of `s.a`
    // are read as a `short`, one past it (padding) is no named member.
    let m = main_with(|_, f| {
        let off = f.frame(16);
        f.local(pair_local("s", off, false));
        let (p, q, v) = (f.reg(), f.reg(), f.reg());
        f.i(K::FrameAddr {
            dst: p,
            offset: off,
        });
        f.i(store(r(p), c(1), Scalar::int(2, true), NA));
        f.i(load(v, r(p), Scalar::int(2, true), NA));
        f.i(padd(q, r(p), 2));
        f.i(load(v, r(q), Scalar::int(2, true), NA));
    });
    let (trace, _) = run_main(m);
    assert_eq!(
        error_of(&trace).1,
        "read of an uninitialised local variable `s.a`"
    );
}

#[test]
fn frame_init_initialises_or_forgets_an_object() {
    // int v; v = 5; (declaration reached again) y = v;   and   int w[2] = {0}; y = w[1];
    let m = main_with(|_, f| {
        let off = f.frame(8);
        f.local(crate::ir::LocalVar {
            name: "w".into(),
            offset: off,
            size: 8,
            shared: false,
            shape: crate::ir::Shape::Array {
                elem: Box::new(crate::ir::Shape::Scalar),
                stride: 4,
                len: 2,
            },
            site: None,
        });
        let (p, v) = (f.reg(), f.reg());
        f.i(K::FrameAddr {
            dst: p,
            offset: off,
        });
        f.i(K::FrameInit {
            offset: off,
            size: 8,
            defined: true,
        });
        f.i(padd(p, r(p), 4));
        f.i(load(v, r(p), Scalar::INT, NA));
        f.i(K::FrameInit {
            offset: off,
            size: 8,
            defined: false,
        });
        f.i(load(v, r(p), Scalar::INT, NA));
    });
    let (trace, _) = run_main(m);
    assert_eq!(
        error_of(&trace).1,
        "read of an uninitialised local variable `w[1]`"
    );
}

#[test]
fn cell_copies_keep_uninitialised_cells_uninitialised() {
    // struct pair s, t; s.a = 7; t = s (cell copies); x = t.a; y = written(s.b); t.b;
    let (mut x, mut y) = (0, 0);
    let m = main_with(|mb, f| {
        x = mb.global("x", Scalar::INT, 0);
        y = mb.global("y", Scalar::INT, 1);
        let so = f.frame(16);
        let to = f.frame(16);
        f.local(pair_local("s", so, false));
        f.local(pair_local("t", to, false));
        let (ps, pt, v, w, v2, w2, tb, o) = (
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
            f.reg(),
        );
        f.i(K::FrameAddr {
            dst: ps,
            offset: so,
        });
        f.i(K::FrameAddr {
            dst: pt,
            offset: to,
        });
        f.i(store(r(ps), c(7), Scalar::INT, NA));
        f.i(K::CopyLoad {
            dst: v,
            written: w,
            addr: r(ps),
            ty: Scalar::INT,
            ord: NA,
        });
        f.i(K::CopyStore {
            addr: r(pt),
            val: r(v),
            written: r(w),
            ty: Scalar::INT,
            ord: NA,
        });
        f.i(padd(o, r(ps), 8));
        f.i(K::CopyLoad {
            dst: v2,
            written: w2,
            addr: r(o),
            ty: Scalar::LONG,
            ord: NA,
        });
        f.i(padd(tb, r(pt), 8));
        f.i(K::CopyStore {
            addr: r(tb),
            val: r(v2),
            written: r(w2),
            ty: Scalar::LONG,
            ord: NA,
        });
        f.i(load(v, r(pt), Scalar::INT, NA));
        f.i(store(c(x), r(v), Scalar::INT, NA));
        f.i(store(c(y), r(w2), Scalar::INT, NA));
        f.i(load(v, r(tb), Scalar::LONG, NA));
    });
    let (trace, mem) = run_main(m);
    assert_eq!(mem[&loc(x)], 7);
    assert_eq!(mem[&loc(y)], 0, "the copy read saw an uninitialised cell");
    assert_eq!(
        error_of(&trace).1,
        "read of an uninitialised local variable `t.b`"
    );
}

#[test]
fn register_checks_raise_the_error_of_their_local() {
    for (flag, fails) in [(0, true), (1, false)] {
        let m = main_with(|_, f| {
            let g = f.reg();
            f.i(K::Copy {
                dst: g,
                src: c(flag),
            });
            f.i(K::CheckInit {
                flag: g,
                name: "flag".into(),
            });
            f.i(K::Indeterminate {
                reg: g,
                name: "flag".into(),
            });
        });
        let (trace, _) = run_main(m);
        if fails {
            assert_eq!(
                error_of(&trace),
                (
                    ErrorKind::Memory,
                    "read of an uninitialised local variable `flag`"
                )
            );
        } else {
            assert_eq!(trace, [Action::Finish { ret: 0 }]);
        }
    }
}

#[test]
fn a_local_with_a_block_of_its_own_gets_a_new_block_per_declaration() {
    // g() { for 2 times { int v; (address escapes) v = 1; } } called by thread 1:
    // malloc, store, free (the next declaration), malloc, store, free (the return).
    let mut mb = ModB::new();
    let mut g = FnB::new("g", 0);
    let var = g.local(crate::ir::LocalVar {
        name: "v".into(),
        offset: 0,
        size: 4,
        shared: true,
        shape: crate::ir::Shape::Scalar,
        site: Some(SrcLoc::line(40)),
    });
    let a = g.reg();
    for _ in 0..2 {
        g.i(K::LocalBlock {
            dst: a,
            var,
            len: None,
        });
        g.i(store(r(a), c(1), Scalar::INT, NA));
    }
    let gid = mb.func(g);
    let mut entry = FnB::new("entry", 0);
    entry.i(K::Call {
        dst: None,
        func: gid,
        args: vec![],
    });
    let e = mb.func(entry);
    let m = mb.build(e);
    let p = prog(m.clone());
    let t = CThread::new(Arc::new(m), &RunOptions::default(), 1, e, &[]);
    let (trace, _) = seq(&p, t);
    let b = |n| crate::memory::frame_addr(1, n, HEAP_DATA) as u64;
    let kinds: Vec<String> = trace
        .iter()
        .map(|a| match a {
            Action::Malloc { base, size, .. } => format!("malloc {:#x} {size}", base.0),
            Action::Free { base, .. } => format!("free {:#x}", base.0),
            Action::Store { loc, .. } => format!("store {:#x}", loc.0),
            Action::Finish { .. } => "finish".into(),
            a => format!("{a:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            format!("malloc {:#x} 4", b(0)),
            format!("store {:#x}", b(0)),
            format!("free {:#x}", b(0)),
            format!("malloc {:#x} 4", b(1)),
            format!("store {:#x}", b(1)),
            format!("free {:#x}", b(1)),
            "finish".into(),
        ]
    );
    // The blocks' cells are named by the local and the instance.
    let site = |_: Loc| Some(SrcLoc::line(40));
    assert_eq!(p.loc_name_in(Loc(b(1)), &site), "T1 g()'s frame: v#1");
    assert_eq!(
        p.block_end_in(Loc(b(1)), &site).as_deref(),
        Some("v#1 goes out of scope")
    );
    assert_eq!(
        p.uninit_read_message(Loc(b(1)), &site).as_deref(),
        Some("read of an uninitialised local variable `v`")
    );
}

#[test]
fn shared_frames_are_not_heap_blocks() {
    // free(&shared_local) is an invalid free, not the frame's free.
    let m = main_with(|_, f| {
        f.shared(8);
        let a = f.reg();
        f.i(K::SharedAddr { dst: a, offset: 0 });
        f.i(builtin(None, Builtin::Free, vec![r(a)]));
    });
    let (trace, _) = run_main(m);
    assert!(matches!(trace[0], Action::Malloc { .. }));
    assert_eq!(
        error_of(&trace),
        (
            ErrorKind::Memory,
            "invalid free: the pointer is not the start of a heap block"
        )
    );
}

/// `int s; for (;;) { if (x) break; s = 0; } y = s;` under spin-assume: the first
/// iteration leaves `s` holding 0 as before, but initialised, so it is no repetition
/// (a later exit reads `s` without error); the second one is.
#[test]
fn spin_assume_compares_the_initialisation_of_private_bytes() {
    let m = main_with(|mb, f| {
        let x = mb.global("x", Scalar::INT, 0);
        let y = mb.global("y", Scalar::INT, 0);
        let off = f.frame(4);
        let (p, v, w) = (f.reg(), f.reg(), f.reg());
        let (body, exit) = (f.block(), f.block());
        f.i(K::FrameAddr {
            dst: p,
            offset: off,
        });
        f.i(K::FrameInit {
            offset: off,
            size: 4,
            defined: false,
        });
        f.term(Terminator::Jump(body));
        f.at(body);
        f.i(load(v, c(x), Scalar::INT, RLX));
        let store_block = f.block();
        f.term(Terminator::Branch {
            cond: r(v),
            then: exit,
            els: store_block,
        });
        f.at(store_block);
        f.i(store(r(p), c(0), Scalar::INT, NA));
        f.term(Terminator::Jump(body));
        f.at(exit);
        f.i(load(w, r(p), Scalar::INT, NA));
        f.i(store(c(y), r(w), Scalar::INT, NA));
    });
    let p = CProgram::new(
        m,
        RunOptions {
            spin_assume: true,
            ..RunOptions::default()
        },
    );
    let (trace, _) = seq(&p, p.main_thread());
    let loads = trace
        .iter()
        .filter(|a| matches!(a, Action::Load { .. }))
        .count();
    assert_eq!(loads, 2, "{trace:?}");
    assert!(matches!(
        last(&trace),
        Action::Block {
            reason: BlockReason::SpinLoop { .. },
            ..
        }
    ));
}
