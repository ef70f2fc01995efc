//! Hand-written toy programs with heap blocks and mutex misuse: both explorers agree
//! under every model and report exactly the expected kinds of errors.

use porf_explore::{explore, Config, ErrorClass, Stats, Strategy};
use porf_graph::MemOrder::{Acquire, NonAtomic as Na, Relaxed as Rlx, Release};
use porf_models::by_name;
use porf_toy::{ProgramBuilder, ToyProgram};

const MODELS: [&str; 4] = ["sc", "tso", "ra", "rc11"];

/// Explores `prog` with both explorers under `model`, checks they agree and returns the
/// optimal explorer's stats.
fn run(prog: &ToyProgram, model: &str) -> Stats {
    let m = by_name(model).unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let o = explore(Strategy::Optimal, prog, m.as_ref(), &cfg);
    let r = explore(Strategy::Reference, prog, m.as_ref(), &cfg);
    assert_eq!(
        (o.complete, o.blocked, &o.final_states, o.error_keys()),
        (r.complete, r.blocked, &r.final_states, r.error_keys()),
        "explorers disagree under {model} on\n{prog}"
    );
    o
}

/// The (class, message up to a colon) of every error, sorted and deduplicated.
fn errors(s: &Stats) -> Vec<(ErrorClass, String)> {
    let mut v: Vec<(ErrorClass, String)> = s
        .errors
        .iter()
        .map(|e| {
            // Memory messages up to their explanation; races by class only.
            let short = match e.class {
                ErrorClass::Race => "",
                _ => e.message.split(':').next().unwrap(),
            };
            (e.class, short.to_string())
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

fn expect(prog: &ToyProgram, models: &[&str], want: &[(ErrorClass, &str)]) {
    for model in models {
        let s = run(prog, model);
        let want: Vec<(ErrorClass, String)> =
            want.iter().map(|(c, m)| (*c, m.to_string())).collect();
        assert_eq!(errors(&s), want, "under {model}:\n{prog}");
    }
}

#[test]
fn message_passing_publishes_the_allocation() {
    let mut p = ProgramBuilder::new();
    let f = p.loc("f");
    let b = p.block("b", 2);
    p.thread(|t| {
        t.malloc(b, 2);
        t.store(b.cell(0), 1, Na);
        t.store(b.cell(1), 2, Na);
        t.store(f, 1, Release);
    });
    p.thread(|t| {
        let r = t.load(f, Acquire);
        t.if_eq(
            r,
            1,
            |t| {
                t.load(b.cell(1), Na);
                t.free(b);
            },
            |_| {},
        );
    });
    let prog = p.build();
    expect(&prog, &MODELS, &[]);
    assert_eq!(run(&prog, "rc11").complete, 2);
}

#[test]
fn unsynchronised_use_is_not_allocated_and_races() {
    let mut p = ProgramBuilder::new();
    let f = p.loc("f");
    let b = p.block("b", 2);
    p.thread(|t| {
        t.malloc(b, 2);
        t.store(b.cell(0), 1, Na);
        t.store(f, 1, Rlx);
    });
    p.thread(|t| {
        let r = t.load(f, Rlx);
        t.if_eq(
            r,
            1,
            |t| {
                t.load(b.cell(0), Na);
            },
            |_| {},
        );
    });
    let prog = p.build();
    // Under sc and tso reading from a write orders it before the reader; under ra and
    // rc11 (C11 modes kept) a relaxed flag publishes nothing.
    expect(&prog, &["sc", "tso"], &[]);
    expect(
        &prog,
        &["ra", "rc11"],
        &[
            (ErrorClass::Memory, "access to non-allocated memory"),
            (ErrorClass::Race, ""),
        ],
    );
}

#[test]
fn out_of_bounds_double_free_and_use_after_free() {
    let mut p = ProgramBuilder::new();
    let b = p.block("b", 2);
    p.thread(|t| {
        t.malloc(b, 1);
        t.store(b.cell(0), 1, Rlx);
        t.store(b.cell(1), 1, Rlx);
        t.free(b);
        t.free(b);
        t.load(b.cell(0), Rlx);
    });
    expect(
        &p.build(),
        &MODELS,
        &[
            (ErrorClass::Memory, "access to freed memory"),
            (ErrorClass::Memory, "double free"),
            (ErrorClass::Memory, "out-of-bounds heap access"),
        ],
    );
}

#[test]
fn mutex_misuse() {
    // A stray unlock.
    let mut p = ProgramBuilder::new();
    let m = p.loc("m");
    p.thread(|t| {
        t.mutex_init(m);
        t.lock(m);
        t.unlock(m);
        t.unlock(m);
    });
    expect(&p.build(), &MODELS, &[(ErrorClass::Lock, "invalid unlock")]);

    // A re-lock: the thread waits for itself.
    let mut p = ProgramBuilder::new();
    let m = p.loc("m");
    p.thread(|t| {
        t.lock(m);
        t.lock(m);
    });
    let prog = p.build();
    for model in MODELS {
        let s = run(&prog, model);
        assert_eq!(s.errors.len(), 1, "{:?}", s.errors);
        assert_eq!(s.errors[0].class, ErrorClass::Deadlock);
        assert!(
            s.errors[0].message.contains("re-locks"),
            "{}",
            s.errors[0].message
        );
    }

    // A lock of a destroyed mutex.
    let mut p = ProgramBuilder::new();
    let m = p.loc("m");
    p.thread(|t| {
        t.lock(m);
        t.unlock(m);
        t.mutex_destroy(m);
        t.lock(m);
    });
    expect(
        &p.build(),
        &MODELS,
        &[(
            ErrorClass::Memory,
            "lock of a destroyed mutex (it reads uninitialised memory)",
        )],
    );
}
