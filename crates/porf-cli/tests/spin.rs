//! Spin-assume (on by default, `--disable-spin-assume`) and `--check-liveness`.
//!
//! Two kinds of expectations: counts GenMC v0.11 reports on its own spin-loop tests
//! (programs under `tests/c/spin/genmc/`, each rewritten for porf after the GenMC test
//! it names; the numbers are copied from that test's `expected.rc11.mo.in`, GenMC's
//! default being spin-assume on), and counts of porf's own programs derived by hand
//! in the comments below.

mod common;

use common::{complete, json, porf};
use std::path::PathBuf;

fn file(rel: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/spin");
    root.join(rel).display().to_string()
}

/// GenMC v0.11's complete-execution counts (rc11, `expected.rc11.mo.in` of the test
/// named in each program's header), with the flags its `args.rc11.mo.in` passes.
const GENMC: &[(&str, &[&str], u64)] = &[
    // saver/spin-cas2
    ("genmc/cas_reread.c", &[], 42),
    // saver/spin-cas3, variants -DN=3 and -DN=4
    ("genmc/cas_lock.c", &["-DN=3"], 6),
    ("genmc/cas_lock.c", &["-DN=4"], 24),
    // saver/spin+phi-header
    ("genmc/flag_poll.c", &[], 42),
    // saver/spin-dowhile1
    ("genmc/dowhile.c", &[], 2),
    // saver/loop-peel
    ("genmc/peeled.c", &[], 2),
    // saver/spin-cas-res
    ("genmc/cas_retry_branches.c", &[], 3),
    // liveness/doubleloop (run with -check-liveness)
    ("genmc/two_flags.c", &["--check-liveness"], 4),
];

#[test]
fn counts_match_genmc_on_its_spin_tests() {
    for &(f, flags, want) in GENMC {
        let path = file(f);
        let mut args = flags.to_vec();
        args.push(&path);
        assert_eq!(complete(&args), want, "{f} {flags:?}");
    }
}

/// GenMC's tests/wrong/liveness/simple: a liveness violation in thread 0.
#[test]
fn liveness_violation_of_genmc_test() {
    let (code, v) = json(&["--check-liveness", &file("genmc/wait_own_flag.c")]);
    assert_eq!(code, 42, "{v}");
    assert_eq!(v["verdict"], "liveness", "{v}");
    assert!(
        v["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("thread 0"),
        "{v}"
    );
}

/// The reader spins until it sees the flag, then reads the data. With spin-assume,
/// each iteration that reads flag = 0 blocks: 1 complete execution (flag = 1, so data
/// = 1 by release/acquire) and 1 blocked (flag = 0 read from the initialisation, the
/// writer's flag = 1 coming after) with `--disable-ipr`. By default the reader, whose
/// load of the co-latest flag (0) would block it, waits while the writer can step: it
/// then reads flag = 1, and reading the initial 0 instead is a stale block, not
/// explored: 1 complete, 0 blocked (GenMC 0.11, with in-place revisiting: 0 blocked).
#[test]
fn spin_wait_message_passing() {
    let (code, v) = json(&["--disable-ipr", &file("mp_spin_ok.c")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["complete"].as_u64(), v["blocked"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(v["spin_loops"][0]["blocked"], 1, "{v}");
    let (code, v) = json(&[&file("mp_spin_ok.c")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["complete"].as_u64(), v["blocked"].as_u64()),
        (Some(1), Some(0))
    );
    assert_eq!(v["spin_loops"][0]["blocked"], 0, "{v}");
    assert_eq!(v["spin_loops"][0]["function"], "main", "{v}");
    // Relaxed accesses: the assertion after the loop can fail.
    let (code, v) = json(&[&file("mp_spin_bug.c")]);
    assert_eq!(code, 42, "{v}");
    assert_eq!(v["verdict"], "assertion", "{v}");
}

/// N threads increment with `old = c; while (!cas(&c, &old, old + 1));`. With
/// spin-assume, a complete execution is one where every CAS succeeds at once, i.e.
/// each thread's load reads the CAS-write just before its own in co (the values 0..N-1
/// name the writes): one execution per order of the N increments, N!. Without it,
/// failed attempts multiply the executions (but each failure reads a new value, so
/// the exploration still ends).
#[test]
fn cas_retry_counter() {
    let path = file("cas_counter.c");
    for (n, fact) in [("N=2", 2), ("N=3", 6), ("N=4", 24)] {
        assert_eq!(complete(&["-D", n, &path]), fact, "{n}");
        assert!(
            complete(&["-D", n, "--disable-spin-assume", &path]) > fact,
            "{n}"
        );
    }
}

/// A loop that writes in its body, and a loop whose iterations change a live local,
/// must not be assumed to exit: each assertion fails only after two failed iterations,
/// and spin-assume must not hide it.
#[test]
fn loops_with_effects_are_not_assumed_to_exit() {
    let path = file("writes_in_body.c");
    for define in [&["-D", "UNUSED"][..], &["-D", "COUNTER"][..]] {
        let mut args = vec!["--unroll", "3"];
        args.extend_from_slice(define);
        args.push(&path);
        let (code, v) = json(&args);
        assert_eq!(code, 42, "{define:?}: {v}");
        assert_eq!(v["verdict"], "assertion", "{define:?}: {v}");
    }
}

/// `while (!b) { while (!a); }` against a writer of a, then b. The outer loop's
/// iteration that reads b = 0, then a = 1, only read: it blocks too. Left: b = 1 at
/// once (complete), and two blocked executions (a = 0 in the inner loop; b = 0, a = 1
/// in the outer one) with `--disable-ipr`. By default the inner loop's load of a = 0,
/// which would block, waits for the writer, so only the outer one's block is left: 1
/// complete, 1 blocked (as GenMC's in-place revisiting). With --check-liveness: no
/// violation (the blocked iterations read values the writer overwrites).
#[test]
fn nested_spin_loops() {
    let (code, v) = json(&["--check-liveness", "--disable-ipr", &file("nested.c")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["complete"].as_u64(), v["blocked"].as_u64()),
        (Some(1), Some(2))
    );
    let (code, v) = json(&["--check-liveness", &file("nested.c")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["complete"].as_u64(), v["blocked"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(v["spin_loops"].as_array().unwrap().len(), 2, "{v}");
}

/// A flag nobody sets: a liveness violation with --check-liveness; without it, one
/// blocked execution and no error. A flag that is set: no violation.
#[test]
fn liveness() {
    let path = file("never_set.c");
    let (code, v) = json(&["--check-liveness", &path]);
    assert_eq!(code, 42, "{v}");
    assert_eq!(v["verdict"], "liveness", "{v}");
    let trace = v["errors"][0]["trace"].as_array().unwrap();
    assert!(
        trace
            .iter()
            .any(|s| s["event"].as_str().is_some_and(|e| e.contains("spin loop"))),
        "{v}"
    );
    let (code, v) = json(&[&path]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["complete"].as_u64(), v["blocked"].as_u64()),
        (Some(0), Some(1))
    );
    let (code, v) = json(&["--check-liveness", &file("mp_spin_ok.c")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "safe", "{v}");
    // An iteration that made a nondeterministic choice may run differently again.
    let (code, v) = json(&["--check-liveness", &file("nondet_loop.c")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        (v["complete"].as_u64(), v["blocked"].as_u64()),
        (Some(1), Some(1)),
        "{v}"
    );
    // Not defined for reads-from classes.
    let (code, _, err) = porf(&["verify", "--check-liveness", "--equiv", "rf", &path]);
    assert_eq!(code, 2, "{err}");
}

/// --stats lists each loop spin-assume watches with its blocked executions.
#[test]
fn stats_list_the_loops() {
    let path = file("mp_spin_ok.c");
    let (code, out, _) = porf(&["verify", "--stats", "--disable-ipr", &path]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Loops watched by spin-assume (--disable-spin-assume to explore them): 1"),
        "{out}"
    );
    assert!(
        out.contains("mp_spin_ok.c:21:2 in main: 1 blocked execution\n"),
        "{out}"
    );
    let (_, out, _) = porf(&[
        "verify",
        "--stats",
        "--disable-spin-assume",
        "--unroll",
        "2",
        &path,
    ]);
    assert!(!out.contains("spin-assume"), "{out}");
}
