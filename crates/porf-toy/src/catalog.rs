//! Classic programs of the weak-memory literature, written with the builder: the
//! bundled examples of `porf example` and the programs of the engine's count tests.
//! Parametric ones take a size `n`.

use crate::builder::ProgramBuilder;
use crate::expr::eq;
use crate::interp::ToyProgram;
use porf_graph::MemOrder::{self, *};

/// Names and one-line descriptions of the catalog's programs.
pub const NAMES: &[(&str, &str)] = &[
    ("sb", "store buffering, relaxed"),
    (
        "sb-sc",
        "store buffering, seq_cst, asserting the weak outcome is absent",
    ),
    ("mp", "message passing, relaxed, asserting the data is seen"),
    (
        "mp-relacq",
        "message passing, release/acquire, asserting the data is seen",
    ),
    ("lb", "load buffering, relaxed"),
    ("iriw", "independent reads of independent writes, relaxed"),
    (
        "2+2w",
        "two threads each writing two locations in opposite orders, relaxed",
    ),
    ("corr", "2 writers of x, 2 readers reading x twice, relaxed"),
    ("ainc", "n threads each doing one relaxed fetch_add"),
    (
        "nw1r",
        "n relaxed writers and one relaxed reader of one location",
    ),
    (
        "mutex",
        "n threads incrementing a plain counter under a mutex",
    ),
    (
        "racy",
        "two threads incrementing a plain counter without a lock",
    ),
    (
        "deadlock",
        "two threads taking two mutexes in opposite orders",
    ),
];

/// The program called `name` with size `n`, if the catalog has it.
pub fn by_name(name: &str, n: u32) -> Option<ToyProgram> {
    Some(match name {
        "sb" => sb(Relaxed),
        "sb-sc" => sb_assert(SeqCst),
        "mp" => mp(Relaxed, Relaxed),
        "mp-relacq" => mp(Release, Acquire),
        "lb" => lb(),
        "iriw" => iriw(),
        "2+2w" => two_plus_two_w(),
        "corr" => corr(),
        "ainc" => ainc(n),
        "nw1r" => nw1r(n),
        "mutex" => mutex_counter(n),
        "racy" => racy_counter(),
        "deadlock" => deadlock(),
        _ => return None,
    })
}

/// SB: `x = 1; a = y || y = 1; b = x`.
pub fn sb(ord: MemOrder) -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let (x, y) = (p.loc("x"), p.loc("y"));
    p.thread(|t| {
        t.store(x, 1, ord);
        t.load(y, ord);
    });
    p.thread(|t| {
        t.store(y, 1, ord);
        t.load(x, ord);
    });
    p.build()
}

/// SB where each thread asserts it did not miss the other's write when it read 0 twice.
pub fn sb_assert(ord: MemOrder) -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let (x, y, seen) = (p.loc("x"), p.loc("y"), p.loc("zero_seen"));
    for (a, b) in [(x, y), (y, x)] {
        p.thread(|t| {
            t.store(a, 1, ord);
            let r = t.load(b, ord);
            t.if_eq(
                r,
                0,
                |t| {
                    let old = t.fetch_add(seen, 1, SeqCst);
                    t.assert(eq(old, 0));
                },
                |_| {},
            );
        });
    }
    p.build()
}

/// MP: `data = 1; flag = 1 || if flag == 1 { assert data == 1 }`.
pub fn mp(w: MemOrder, r: MemOrder) -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let (data, flag) = (p.loc("data"), p.loc("flag"));
    p.thread(|t| {
        t.store(data, 1, Relaxed);
        t.store(flag, 1, w);
    });
    p.thread(|t| {
        let f = t.load(flag, r);
        t.if_eq(
            f,
            1,
            |t| {
                let d = t.load(data, Relaxed);
                t.assert(eq(d, 1));
            },
            |_| {},
        );
    });
    p.build()
}

/// LB: `a = x; y = 1 || b = y; x = 1`.
pub fn lb() -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let (x, y) = (p.loc("x"), p.loc("y"));
    p.thread(|t| {
        t.load(x, Relaxed);
        t.store(y, 1, Relaxed);
    });
    p.thread(|t| {
        t.load(y, Relaxed);
        t.store(x, 1, Relaxed);
    });
    p.build()
}

/// IRIW: two writers of x and y, two readers reading them in opposite orders.
pub fn iriw() -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let (x, y) = (p.loc("x"), p.loc("y"));
    p.thread(|t| t.store(x, 1, Relaxed));
    p.thread(|t| t.store(y, 1, Relaxed));
    p.thread(|t| {
        t.load(x, Relaxed);
        t.load(y, Relaxed);
    });
    p.thread(|t| {
        t.load(y, Relaxed);
        t.load(x, Relaxed);
    });
    p.build()
}

/// 2+2W: `x = 1; y = 2 || y = 1; x = 2`.
pub fn two_plus_two_w() -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let (x, y) = (p.loc("x"), p.loc("y"));
    p.thread(|t| {
        t.store(x, 1, Relaxed);
        t.store(y, 2, Relaxed);
    });
    p.thread(|t| {
        t.store(y, 1, Relaxed);
        t.store(x, 2, Relaxed);
    });
    p.build()
}

/// CoRR: two writers of x, two threads reading x twice.
pub fn corr() -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    p.thread(|t| t.store(x, 1, Relaxed));
    p.thread(|t| t.store(x, 2, Relaxed));
    for _ in 0..2 {
        p.thread(|t| {
            t.load(x, Relaxed);
            t.load(x, Relaxed);
        });
    }
    p.build()
}

/// `n` threads each doing one relaxed fetch_add on one counter.
pub fn ainc(n: u32) -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    for _ in 0..n {
        p.thread(|t| {
            t.fetch_add(x, 1, Relaxed);
        });
    }
    p.build()
}

/// Nw1r: `n` relaxed writers (writing 1..=n) and one relaxed reader of x; main does
/// not join them.
pub fn nw1r(n: u32) -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let x = p.loc("x");
    for i in 1..=n {
        p.thread(|t| t.store(x, i as i64, Relaxed));
    }
    p.thread(|t| {
        t.load(x, Relaxed);
    });
    p.no_join();
    p.build()
}

/// `n` threads each incrementing a plain counter under one mutex.
pub fn mutex_counter(n: u32) -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let (m, c) = (p.loc("lock"), p.loc("counter"));
    for _ in 0..n {
        p.thread(|t| {
            t.lock(m);
            let v = t.load(c, NonAtomic);
            t.store(c, crate::expr::add(v, 1), NonAtomic);
            t.unlock(m);
        });
    }
    p.build()
}

/// Two threads incrementing a plain counter with no synchronisation (a data race).
pub fn racy_counter() -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let c = p.loc("counter");
    for _ in 0..2 {
        p.thread(|t| {
            let v = t.load(c, NonAtomic);
            t.store(c, crate::expr::add(v, 1), NonAtomic);
        });
    }
    p.build()
}

/// Two threads taking mutexes a and b in opposite orders.
pub fn deadlock() -> ToyProgram {
    let mut p = ProgramBuilder::new();
    let (a, b) = (p.loc("a"), p.loc("b"));
    for (first, second) in [(a, b), (b, a)] {
        p.thread(|t| {
            t.lock(first);
            t.lock(second);
            t.unlock(second);
            t.unlock(first);
        });
    }
    p.build()
}
