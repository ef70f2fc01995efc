//! Execution counts of classic programs, written with the builder API, against the
//! figures measured with GenMC 0.11 in co mode (`--disable-sr --disable-ipr
//! --disable-spin-assume --disable-estimation --disable-mm-detector`), as listed in the
//! engine issue and in `shared/conformance/expected.tsv`. Closed forms (N!, (N+1)!) are
//! computed, not pasted.

use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;
use porf_toy::catalog;
use porf_toy::ToyProgram;

fn run(prog: &ToyProgram, model: &str) -> Stats {
    let m = by_name(model).unwrap();
    explore(Strategy::Optimal, prog, m.as_ref(), &Config::default())
}

fn check(name: &str, prog: &ToyProgram, expected: [(&str, u64); 4]) {
    for (model, want) in expected {
        let s = run(prog, model);
        assert!(
            s.errors.is_empty(),
            "{name} under {model}: unexpected errors"
        );
        assert_eq!(s.complete, want, "{name} under {model}");
    }
}

fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

#[test]
fn store_buffering() {
    let p = catalog::sb(porf_graph::MemOrder::Relaxed);
    check("SB", &p, [("sc", 3), ("tso", 4), ("ra", 4), ("rc11", 4)]);
}

#[test]
fn two_plus_two_w() {
    let p = catalog::two_plus_two_w();
    check("2+2W", &p, [("sc", 3), ("tso", 3), ("ra", 4), ("rc11", 4)]);
}

#[test]
fn iriw() {
    let p = catalog::iriw();
    check(
        "IRIW",
        &p,
        [("sc", 15), ("tso", 15), ("ra", 16), ("rc11", 16)],
    );
}

#[test]
fn corr() {
    let p = catalog::corr();
    check(
        "CoRR",
        &p,
        [("sc", 72), ("tso", 72), ("ra", 72), ("rc11", 72)],
    );
}

#[test]
fn fetch_add_threads() {
    for n in 1..=5u32 {
        let want = factorial(n as u64);
        let p = catalog::ainc(n);
        check(
            &format!("ainc({n})"),
            &p,
            [("sc", want), ("tso", want), ("ra", want), ("rc11", want)],
        );
    }
}

#[test]
fn n_writers_one_reader() {
    for n in 1..=5u32 {
        let want = factorial(n as u64 + 1);
        let p = catalog::nw1r(n);
        check(
            &format!("nw1r({n})"),
            &p,
            [("sc", want), ("tso", want), ("ra", want), ("rc11", want)],
        );
    }
}

#[test]
fn load_buffering_is_never_allowed() {
    let p = catalog::lb();
    check("LB", &p, [("sc", 3), ("tso", 3), ("ra", 3), ("rc11", 3)]);
}

#[test]
fn mutex_counter_counts_lock_orders() {
    for n in 1..=4u32 {
        let want = factorial(n as u64);
        let p = catalog::mutex_counter(n);
        check(
            &format!("mutex({n})"),
            &p,
            [("sc", want), ("tso", want), ("ra", want), ("rc11", want)],
        );
    }
}

#[test]
fn errors_are_found() {
    use porf_explore::ErrorClass;
    type Expected<'a> = &'a [(&'a str, Option<ErrorClass>)];
    let cases: [(&str, ToyProgram, Expected); 4] = [
        (
            "mp",
            catalog::mp(porf_graph::MemOrder::Relaxed, porf_graph::MemOrder::Relaxed),
            &[
                ("sc", None),
                ("tso", None),
                // GenMC 0.11 (mp_rlx_assert.c in ../shared/conformance): a relaxed flag
                // does not synchronise under its RA either.
                ("ra", Some(ErrorClass::Assertion)),
                ("rc11", Some(ErrorClass::Assertion)),
            ],
        ),
        (
            "sb-sc",
            catalog::sb_assert(porf_graph::MemOrder::SeqCst),
            &[
                ("sc", None),
                ("tso", None),
                ("ra", Some(ErrorClass::Assertion)),
                ("rc11", None),
            ],
        ),
        (
            "racy",
            catalog::racy_counter(),
            &[
                ("sc", Some(ErrorClass::Race)),
                ("rc11", Some(ErrorClass::Race)),
            ],
        ),
        (
            "deadlock",
            catalog::deadlock(),
            &[
                ("sc", Some(ErrorClass::Deadlock)),
                ("rc11", Some(ErrorClass::Deadlock)),
            ],
        ),
    ];
    for (name, p, want) in cases.iter() {
        for (model, class) in want.iter() {
            let s = run(p, model);
            let got = s.errors.first().map(|e| e.class);
            assert_eq!(got, *class, "{name} under {model}");
        }
    }
}
