//! Builder and interpreter tests: threads are driven by hand through `peek`/`resume`.

use porf_graph::MemOrder::{Acquire, NonAtomic, Relaxed as Rlx, Release, SeqCst};
use porf_graph::{Action, ErrorKind, Loc, Program, RmwOp, SrcLoc, ThreadMachine, Val};

use crate::{
    and, eq, lt, ne, ProgramBuilder, ToyProgram, ToyThread, BLOCK_BASE, BLOCK_STRIDE, CELL_BYTES,
};

fn load(loc: Loc, ord: porf_graph::MemOrder, line: u32) -> Action {
    Action::Load {
        loc,
        bytes: CELL_BYTES,
        ord,
        copy: false,
        src: SrcLoc::line(line),
    }
}

fn store(loc: Loc, val: Val, ord: porf_graph::MemOrder, line: u32) -> Action {
    Action::Store {
        loc,
        bytes: CELL_BYTES,
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
        symmetric: porf_graph::Symmetry::Asymmetric,
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
        bytes: CELL_BYTES,
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
            reason: porf_graph::BlockReason::Assume,
            src: SrcLoc::line(2)
        }
    );
    assert_eq!(
        t.peek(),
        Action::Block {
            reason: porf_graph::BlockReason::Assume,
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

/// A program with two heap blocks (declared around an ordinary location) and a mutex
/// that is initialised and destroyed.
fn heap_and_mutex() -> (ToyProgram, crate::ToyBlock, crate::ToyBlock, Loc, Loc) {
    let mut p = ProgramBuilder::new();
    let b = p.block("b", 2);
    let x = p.loc("x");
    let c = p.block("c", 3);
    let m = p.loc("m");
    p.thread(|t| {
        t.mutex_init(m); // 1
        t.malloc(b, 1); // 2
        t.store(b.cell(0), 4, NonAtomic); // 3
        let r = t.load(b.cell(1), Rlx); // 4
        t.if_eq(r, 0, |t| t.free(b), |_| {}); // 5
        t.mutex_destroy(m); // 6
    });
    p.thread(|t| {
        t.calloc(c, 3); // 7
        t.fetch_add(c.cell(2), 1, Rlx); // 8
        t.free(c); // 9
        t.store(x, 1, Rlx); // 10
    });
    (p.build(), b, c, x, m)
}

#[test]
fn blocks_are_placed_in_their_region() {
    let (p, b, c, x, m) = heap_and_mutex();
    assert_eq!((x, m), (Loc(1), Loc(2)));
    assert_eq!(b.base(), Loc(BLOCK_BASE));
    assert_eq!(c.base(), Loc(BLOCK_BASE + BLOCK_STRIDE));
    assert_eq!((b.cells(), c.cells()), (2, 3));
    assert_eq!(b.cell(1), Loc(BLOCK_BASE + 1));
    assert_eq!(c.cell(2), Loc(BLOCK_BASE + BLOCK_STRIDE + 2));
    assert_eq!((b.index(), c.index()), (0, 1));
    assert_eq!(p.blocks().len(), 2);
    assert_eq!(p.locations().len(), 2);

    // block_of: a pure function of the address, over each block's whole region.
    assert_eq!(p.block_of(b.cell(0)), Some(b.base()));
    assert_eq!(p.block_of(b.cell(1)), Some(b.base()));
    assert_eq!(p.block_of(Loc(BLOCK_BASE + 7)), Some(b.base()));
    assert_eq!(p.block_of(c.cell(2)), Some(c.base()));
    assert_eq!(p.block_of(Loc(BLOCK_BASE + 2 * BLOCK_STRIDE)), None);
    assert_eq!(p.block_of(x), None);
    assert_eq!(p.block_of(m), None);
    assert_eq!(p.block_of(Loc(BLOCK_BASE - 1)), None);

    assert_eq!(p.loc_name(b.cell(1)), "b[1]");
    assert_eq!(p.loc_name(c.cell(0)), "c[0]");
    assert_eq!(p.loc_name(x), "x");
    assert_eq!(p.init_value(c.cell(2)), 0);
    // Every instruction but the branch's jumps is a memory event.
    assert_eq!(p.event_count(), 10);
}

#[test]
fn heap_and_mutex_instructions_yield_their_actions() {
    let (p, b, c, x, m) = heap_and_mutex();
    let src = SrcLoc::line;
    let t0 = p.spawn(1, 0, 0);
    let mut t = t0.clone();
    step(
        &mut t,
        Action::MutexInit {
            loc: m,
            src: src(1),
        },
        0,
    );
    step(
        &mut t,
        Action::Malloc {
            base: b.base(),
            size: 1,
            zeroed: false,
            src: src(2),
        },
        0,
    );
    step(&mut t, store(b.cell(0), 4, NonAtomic, 3), 0);
    let after_store = t.clone();
    step(&mut t, load(b.cell(1), Rlx, 4), 0);
    step(
        &mut t,
        Action::Free {
            base: b.base(),
            src: src(5),
        },
        0,
    );
    step(
        &mut t,
        Action::MutexDestroy {
            loc: m,
            src: src(6),
        },
        0,
    );
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
    // The other arm skips the free.
    let mut t = after_store;
    step(&mut t, load(b.cell(1), Rlx, 4), 3);
    step(
        &mut t,
        Action::MutexDestroy {
            loc: m,
            src: src(6),
        },
        0,
    );
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
    assert_eq!(t.registers(), vec![3]);

    let mut t = p.spawn(2, 1, 0);
    step(
        &mut t,
        Action::Malloc {
            base: c.base(),
            size: 3,
            zeroed: true,
            src: src(7),
        },
        0,
    );
    step(
        &mut t,
        Action::Rmw {
            loc: c.cell(2),
            bytes: CELL_BYTES,
            op: RmwOp::Add(1, porf_graph::Wrap::NONE),
            ord: Rlx,
            src: src(8),
        },
        0,
    );
    step(
        &mut t,
        Action::Free {
            base: c.base(),
            src: src(9),
        },
        0,
    );
    step(&mut t, store(x, 1, Rlx, 10), 0);
    assert_eq!(t.peek(), Action::Finish { ret: 0 });
}

#[test]
fn display_lists_blocks_and_heap_instructions() {
    let (p, _, _, _, _) = heap_and_mutex();
    let s = p.to_string();
    for needle in [
        "locations: x=0 m=0\n",
        "blocks: b[2] c[3]\n",
        "mutex_init(m)",
        "malloc(b, 1)",
        "store(b[0], 4, na)",
        "r0 = load(b[1], rlx)",
        "free(b)",
        "mutex_destroy(m)",
        "calloc(c, 3)",
        "r0 = fetch_add(c[2], 1, rlx)",
        "free(c)",
    ] {
        assert!(s.contains(needle), "missing {needle:?} in\n{s}");
    }
    // Programs without blocks have no blocks line.
    let (p, _, _) = sb_with_branch();
    assert!(!p.to_string().contains("blocks:"));
}

#[test]
#[should_panic(expected = "not a location or block cell declared")]
fn cells_beyond_a_block_are_rejected() {
    let mut p = ProgramBuilder::new();
    let b = p.block("b", 2);
    p.thread(|t| t.store(porf_graph::Loc(b.base().0 + 2), 1, Rlx));
}

#[test]
#[should_panic(expected = "cell 2 of a block of 2 cells")]
fn cell_index_is_checked() {
    let mut p = ProgramBuilder::new();
    p.block("b", 2).cell(2);
}

#[test]
#[should_panic(expected = "is not declared before this thread")]
fn blocks_declared_later_are_rejected() {
    let mut p = ProgramBuilder::new();
    p.block("b", 1);
    let mut other = ProgramBuilder::new();
    other.block("a", 1);
    let second = other.block("b", 1);
    p.thread(|t| t.free(second));
}
