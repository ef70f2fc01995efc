//! Builder and interpreter tests: threads are driven by hand through `peek`/`resume`.

use porf_graph::MemOrder::{Acquire, NonAtomic, Relaxed as Rlx, Release, SeqCst};
use porf_graph::{Action, ErrorKind, Loc, Program, RmwOp, SrcLoc, ThreadMachine, Val};

use crate::{and, eq, lt, ne, ProgramBuilder, ToyProgram, ToyThread};

fn load(loc: Loc, ord: porf_graph::MemOrder, line: u32) -> Action {
    Action::Load {
        loc,
        ord,
        src: SrcLoc::line(line),
    }
}

fn store(loc: Loc, val: Val, ord: porf_graph::MemOrder, line: u32) -> Action {
    Action::Store {
        loc,
        val,
        ord,
        src: SrcLoc::line(line),
    }
}

/// Peeks (twice, to check idempotence) and resumes with `ret`.
fn step(t: &mut ToyThread, expected: Action, ret: Val) {
    assert_eq!(t.peek(), expected);
    assert_eq!(t.peek(), expected);
    t.resume(ret);
}

fn sb_with_branch() -> (ToyProgram, Loc, Loc) {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    let y = p.loc_init("y", 5);
    p.thread(|t| {
        t.store(x, 1, Rlx); // line 1
        t.load(y, Rlx); // line 2
    });
    p.thread(|t| {
        t.store(y, 1, Rlx); // line 3
        let b = t.load(x, Rlx); // line 4
        t.if_eq(
            b,
            1,
            |t| t.store(x, 2, Rlx),          // line 5
            |t| t.store(y, b + 10, Release), // line 6
        );
        t.fence(SeqCst); // line 7
    });
    (p.build(), x, y)
}

#[test]
fn locations_and_names() {
    let (p, x, y) = sb_with_branch();
    assert_eq!((x, y), (Loc(1), Loc(2)));
    assert_eq!(p.init_value(x), 0);
    assert_eq!(p.init_value(y), 5);
    assert_eq!(p.init_value(Loc(99)), 0);
    assert_eq!(p.loc_name(y), "y");
    assert_eq!(p.loc_name(Loc(99)), "@99");
    assert_eq!(p.event_count(), 7);
}

#[test]
fn straight_line_thread() {
    let (p, x, y) = sb_with_branch();
    let mut t = p.spawn(1, 0, 0);
    assert_eq!(t.registers(), vec![0]);
    step(&mut t, store(x, 1, Rlx, 1), 0);
    step(&mut t, load(y, Rlx, 2), 5);
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
    assert_eq!(t.registers(), vec![5]);
}

#[test]
fn branches_take_the_right_arm() {
    let (p, x, y) = sb_with_branch();
    let mut t = p.spawn(1, 1, 0);
    step(&mut t, store(y, 1, Rlx, 3), 0);
    let fork = t.clone();
    // Then-arm.
    step(&mut t, load(x, Rlx, 4), 1);
    step(&mut t, store(x, 2, Rlx, 5), 0);
    step(
        &mut t,
        Action::Fence {
            ord: SeqCst,
            src: SrcLoc::line(7),
        },
        0,
    );
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
    assert_eq!(t.registers(), vec![1]);
    // Else-arm, from a clone taken before the load.
    let mut t = fork;
    step(&mut t, load(x, Rlx, 4), 2);
    step(&mut t, store(y, 12, Release, 6), 0);
    step(
        &mut t,
        Action::Fence {
            ord: SeqCst,
            src: SrcLoc::line(7),
        },
        0,
    );
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
}

#[test]
fn main_spawns_and_joins() {
    let (p, _, _) = sb_with_branch();
    let mut m = p.main_thread();
    let spawn = |entry, line| Action::Spawn {
        entry,
        arg: 0,
        src: SrcLoc::line(line),
    };
    let join = |tid, line| Action::Join {
        tid,
        src: SrcLoc::line(line),
    };
    step(&mut m, spawn(0, 8), 4);
    step(&mut m, spawn(1, 9), 9);
    step(&mut m, join(4, 10), 0);
    step(&mut m, join(9, 11), 0);
    assert_eq!(m.peek(), Action::Finish { ret: 0 });
    assert!(m.registers().is_empty());
}

#[test]
fn no_join_finishes_after_spawning() {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    p.thread(|t| t.store(x, 1, Rlx));
    p.thread(|t| {
        t.load(x, Rlx);
    });
    p.no_join();
    let p = p.build();
    let mut m = p.main_thread();
    assert!(matches!(m.peek(), Action::Spawn { entry: 0, .. }));
    m.resume(1);
    assert!(matches!(m.peek(), Action::Spawn { entry: 1, .. }));
    m.resume(2);
    assert_eq!(m.peek(), Action::Finish { ret: 0 });
}

#[test]
fn rmws_and_cas_return_old_values() {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    p.thread(|t| {
        let a = t.fetch_add(x, 2, Acquire);
        let b = t.exchange(x, a + 1, Rlx);
        let c = t.cas(x, 3, b, SeqCst, Acquire);
        t.fetch_sub(x, 1, Rlx);
        t.fetch_and(x, 6, Rlx);
        t.fetch_or(x, 1, Rlx);
        t.fetch_xor(x, c, Release);
    });
    let p = p.build();
    let mut t = p.spawn(1, 0, 0);
    let rmw = |op, ord, line| Action::Rmw {
        loc: x,
        op,
        ord,
        src: SrcLoc::line(line),
    };
    step(
        &mut t,
        rmw(RmwOp::Add(2, porf_graph::Wrap::NONE), Acquire, 1),
        10,
    );
    step(&mut t, rmw(RmwOp::Xchg(11), Rlx, 2), 12);
    let cas = RmwOp::Cas {
        expected: 3,
        new: 12,
        fail_ord: Acquire,
    };
    step(&mut t, rmw(cas, SeqCst, 3), 7); // failed: old value 7
    step(
        &mut t,
        rmw(RmwOp::Sub(1, porf_graph::Wrap::NONE), Rlx, 4),
        0,
    );
    step(&mut t, rmw(RmwOp::And(6), Rlx, 5), 0);
    step(&mut t, rmw(RmwOp::Or(1), Rlx, 6), 0);
    step(&mut t, rmw(RmwOp::Xor(7), Release, 7), 0);
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
    assert_eq!(t.registers(), vec![10, 12, 7, 0, 0, 0, 0]);
}

#[test]
fn assume_blocks_and_assert_errors() {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    p.thread(|t| {
        let a = t.load(x, NonAtomic); // line 1
        t.assume(ne(a, 0)); // line 2
        t.assert(and(lt(a, 5), !eq(a, 3))); // line 3
        t.store(x, 9, NonAtomic); // line 4
    });
    let p = p.build();
    let t0 = p.spawn(1, 0, 0);

    let mut t = t0.clone();
    step(&mut t, load(x, NonAtomic, 1), 0);
    assert_eq!(
        t.peek(),
        Action::Block {
            src: SrcLoc::line(2)
        }
    );
    assert_eq!(
        t.peek(),
        Action::Block {
            src: SrcLoc::line(2)
        }
    );

    let mut t = t0.clone();
    step(&mut t, load(x, NonAtomic, 1), 3);
    match t.peek() {
        Action::Error { kind, msg, src } => {
            assert_eq!(kind, ErrorKind::Assertion);
            assert_eq!(src, SrcLoc::line(3));
            assert!(msg.contains("r0 < 5"), "{msg}");
        }
        a => panic!("expected an assertion error, got {a:?}"),
    }

    let mut t = t0;
    step(&mut t, load(x, NonAtomic, 1), 2);
    step(&mut t, store(x, 9, NonAtomic, 4), 0);
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
}

#[test]
fn locks_and_nested_ifs() {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    let m = p.loc("m");
    p.thread(|t| {
        let r = t.trylock(m); // 1
        t.if_(
            eq(r, 0),
            |t| {
                let v = t.load(x, Rlx); // 2
                t.if_eq(v, 0, |t| t.store(x, 1, Rlx), |_| {}); // 3
                t.unlock(m); // 4
            },
            |t| {
                t.lock(m); // 5
                t.unlock(m); // 6
            },
        );
    });
    let p = p.build();
    let src = SrcLoc::line;
    let t0 = p.spawn(1, 0, 0);

    let mut t = t0.clone();
    step(
        &mut t,
        Action::TryLock {
            loc: m,
            src: src(1),
        },
        0,
    );
    step(&mut t, load(x, Rlx, 2), 0);
    step(&mut t, store(x, 1, Rlx, 3), 0);
    step(
        &mut t,
        Action::Unlock {
            loc: m,
            src: src(4),
        },
        0,
    );
    assert_eq!(t.peek(), Action::Finish { ret: 0 });

    let mut t = t0.clone();
    step(
        &mut t,
        Action::TryLock {
            loc: m,
            src: src(1),
        },
        0,
    );
    step(&mut t, load(x, Rlx, 2), 1);
    step(
        &mut t,
        Action::Unlock {
            loc: m,
            src: src(4),
        },
        0,
    );
    assert_eq!(t.peek(), Action::Finish { ret: 0 });

    let mut t = t0;
    step(
        &mut t,
        Action::TryLock {
            loc: m,
            src: src(1),
        },
        1,
    );
    step(
        &mut t,
        Action::Lock {
            loc: m,
            src: src(5),
        },
        0,
    );
    step(
        &mut t,
        Action::Unlock {
            loc: m,
            src: src(6),
        },
        0,
    );
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
    assert_eq!(t.registers(), vec![1, 0]);
}

#[test]
fn source_locations_are_distinct() {
    let (p, _, _) = sb_with_branch();
    let mut lines: Vec<u32> = std::iter::once(p.main_code())
        .chain((0..2).map(|e| p.thread_code(e)))
        .flat_map(|c| &c.instrs)
        .filter_map(|i| match i {
            crate::Instr::BranchIfZero { .. } | crate::Instr::Jump { .. } => None,
            crate::Instr::Join { src, .. } | crate::Instr::Spawn { src, .. } => Some(src.line),
            i => {
                assert!(i.is_memory_event());
                Some(match i {
                    crate::Instr::Load { src, .. }
                    | crate::Instr::Store { src, .. }
                    | crate::Instr::Fence { src, .. } => src.line,
                    _ => unreachable!(),
                })
            }
        })
        .collect();
    let n = lines.len();
    lines.sort_unstable();
    lines.dedup();
    assert_eq!(lines.len(), n);
    assert!(lines.iter().all(|&l| l > 0));
}

#[test]
fn display_lists_threads_and_orders() {
    let (p, _, _) = sb_with_branch();
    let s = p.to_string();
    for needle in [
        "locations: x=0 y=5",
        "main:",
        "r0 = spawn(P0)",
        "join(r1)",
        "P1:",
        "r0 = load(x, rlx)",
        "if !(r0 == 1) goto",
        "store(y, r0 + 10, rel)",
        "fence(sc)",
    ] {
        assert!(s.contains(needle), "missing {needle:?} in\n{s}");
    }
}

#[test]
#[should_panic(expected = "used in thread")]
fn foreign_registers_are_rejected() {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    let mut leaked = None;
    p.thread(|t| leaked = Some(t.load(x, Rlx)));
    let r = leaked.unwrap();
    p.thread(|t| t.store(x, r, Rlx));
}
