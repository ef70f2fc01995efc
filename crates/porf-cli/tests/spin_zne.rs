//! Spin-assume's zero-net-effect reductions (`--disable-zne-spin-assume` turns them
//! off): value-preserving RMWs and failed trylocks in an iteration, a pre-loop read
//! that gives the loop's exit value (rule (c)), and stores into the thread's own
//! unpublished node (Treiber's push). Programs under `tests/c/spin/zne/`; the counts
//! are derived by hand below or taken from the brute-force reference explorer.

mod common;

use common::{complete, json};
use std::path::PathBuf;

fn file(rel: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/spin/zne");
    root.join(rel).display().to_string()
}

const LOCKS: [&str; 4] = ["-DTAS", "-DXCHG", "-DCAS", "-DTRYLOCK"];

/// N threads take a lock, each once. A failed attempt (a test-and-set or exchange
/// reading 1 and writing 1 back, a failed compare-exchange, a failed trylock) ends an
/// iteration in the state it began in, so it blocks; a complete execution is one in
/// which every attempt succeeds at once, each reading the previous holder's release:
/// one per order of the critical sections, N!. The lock's co is fixed by that order and
/// the counter's accesses are ordered by the lock. (Under wra, where co plays no role,
/// the count is the reference explorer's.)
#[test]
fn spin_locks_end_with_one_execution_per_order() {
    let path = file("locks.c");
    for lock in LOCKS {
        for (n, fact) in [("-DN=2", 2), ("-DN=3", 6)] {
            for model in ["sc", "tso", "pso", "ra", "rc11", "sra"] {
                let args = [lock, n, "--model", model, &path];
                assert_eq!(complete(&args), fact, "{args:?}");
            }
        }
        let args = [lock, "-DN=3", "--model", "wra", &path];
        let reference = [
            &args[..],
            &["--explorer", "reference", "--explore-stale-blocks"],
        ]
        .concat();
        assert_eq!(complete(&args), complete(&reference), "{args:?}");
    }
}

/// The lock given back before the store: a lost update, found under every lock.
#[test]
fn a_lost_update_is_still_found() {
    let path = file("locks.c");
    for lock in LOCKS {
        for model in ["sc", "rc11"] {
            let (code, v) = json(&[lock, "-DBUG", "--model", model, &path]);
            assert_eq!(code, 42, "{lock} {model}: {v}");
            assert_eq!(v["verdict"], "assertion", "{lock} {model}: {v}");
        }
    }
}

/// Without the reductions the failed attempts repeat: at a loop bound the run is
/// incomplete (exit 4), and it also counts the complete executions in which an
/// attempt failed before one succeeded (more than the N! above). A failed
/// compare-exchange was a read before these reductions: that lock ends either way.
#[test]
fn without_the_reductions_the_loops_repeat() {
    let path = file("locks.c");
    assert_eq!(complete(&["-DCAS", "--disable-zne-spin-assume", &path]), 2);
    for lock in ["-DTAS", "-DXCHG", "-DTRYLOCK"] {
        let (code, v) = json(&[lock, "--disable-zne-spin-assume", "--unroll", "3", &path]);
        assert_eq!(code, 4, "{lock}: {v}");
        assert!(v["complete"].as_u64().unwrap() > 2, "{lock}: {v}");
    }
}

/// `r = flag; if (!r) { while (!r) r = flag; }` against a writer of the flag. The
/// reader's first load reads 1 (complete) or 0; then the loop's load reads 0 (the
/// iteration repeats its start: blocked) or 1, leaving the loop in the state the
/// first load reading 1 gives (rule (c): blocked). One complete execution; without
/// the reductions, two (0 then 1 completes).
#[test]
fn a_read_before_the_loop_stands_for_the_loop() {
    let path = file("peek_then_spin.c");
    for model in ["sc", "tso", "pso", "ra", "rc11", "wra", "sra"] {
        assert_eq!(complete(&["--model", model, &path]), 1, "{model}");
        assert_eq!(
            complete(&["--model", model, "--disable-zne-spin-assume", &path]),
            2,
            "{model}"
        );
        let (code, v) = json(&["--model", model, "-DBUG", &path]);
        assert_eq!(
            (code, &v["verdict"]),
            (42, &"assertion".into()),
            "{model}: {v}"
        );
    }
}

/// `u = tick; r = flag; while (!r) { while ((v = tick) == u) ; u = v; r = flag; }`
/// against a writer of tick = 1, then flag = 1. `r = flag` reading 1 skips the loop:
/// complete, with `u` 0 or 1 (two executions). Reading 0 enters it: with `u` = 1 the
/// inner loop can only read 1 again (its iteration repeats its start: blocked); with
/// `u` = 0 it reads 0 (blocked likewise) or 1, then the outer load reads 0 (a second
/// outer iteration waits for a tick that never changes again: blocked; rule (b) does
/// not apply, `u` changed) or 1, and the visit exits with the state `r = flag` reading
/// 1 would give (`u` is dead after the loop). Rule (c) would block that exit; it is
/// not tried on a visit that entered another loop (GenMC explores a loop around a
/// spin loop), so it completes: three complete executions, as without the reductions
/// and as the reference explorer counts.
#[test]
fn a_loop_around_a_spin_loop_is_explored() {
    let path = file("peek_then_nested.c");
    for model in ["sc", "tso", "pso", "ra", "rc11", "wra", "sra"] {
        assert_eq!(complete(&["--model", model, &path]), 3, "{model}");
        assert_eq!(
            complete(&["--model", model, "--disable-zne-spin-assume", &path]),
            3,
            "{model}"
        );
    }
    let reference = ["--explorer", "reference", "--explore-stale-blocks", &path];
    assert_eq!(complete(&reference), 3);
}

/// Cancelling fetch_sub/fetch_add pairs are not taken for no-ops: under rc11 a reader
/// that sees `done` may read an earlier iteration's -1 (found with a loop bound);
/// under sc it cannot (the run is only cut by the bound).
#[test]
fn cancelling_rmws_are_explored() {
    let path = file("fai_cancel.c");
    let (code, v) = json(&["--model", "rc11", "--unroll", "2", &path]);
    assert_eq!((code, &v["verdict"]), (42, &"assertion".into()), "{v}");
    let (code, v) = json(&["--model", "sc", "--unroll", "2", &path]);
    assert_eq!(code, 4, "{v}");
}

/// Runs that need a cancelling iteration's intermediate value to be read, by another
/// thread's RMW (`fai_seen.c`) or by a load while a lower-numbered thread already
/// waits for the spinner's later store (`fai_order.c`): both assertions fail under
/// every model (each program's comment says how), and porf finds them.
#[test]
fn intermediate_values_of_cancelling_pairs_are_seen() {
    for prog in ["fai_seen.c", "fai_order.c"] {
        let path = file(prog);
        for model in ["sc", "tso", "pso", "ra", "rc11", "sra", "wra"] {
            let (code, v) = json(&["--model", model, "--unroll", "3", &path]);
            assert_eq!(
                (code, &v["verdict"]),
                (42, &"assertion".into()),
                "{prog} {model}: {v}"
            );
        }
    }
}

/// Treiber pushes: a failed compare-exchange after storing `top` into the thread's own
/// unpublished node blocks. Each push then succeeds at once reading the previous
/// push's top: one execution per order of the pushes, N!, under every model but pso
/// and wra (where the reduction is off: the count is the reference explorer's).
#[test]
fn treiber_pushes_end() {
    let path = file("treiber_push.c");
    for (n, fact) in [("-DN=2", 2), ("-DN=3", 6)] {
        for model in ["sc", "tso", "ra", "rc11", "sra"] {
            assert_eq!(complete(&["--model", model, n, &path]), fact, "{model} {n}");
        }
    }
    for model in ["pso", "wra"] {
        let args = ["--model", model, &path];
        let reference = [
            &args[..],
            &["--explorer", "reference", "--explore-stale-blocks"],
        ]
        .concat();
        let on = complete(&args);
        assert!(on > 2, "{model}: {on}");
        assert_eq!(on, complete(&reference), "{model}");
    }
    for model in ["sc", "rc11", "pso"] {
        let (code, v) = json(&["--model", model, "--unroll", "3", "-DBUG", &path]);
        assert_eq!(
            (code, &v["verdict"]),
            (42, &"assertion".into()),
            "{model}: {v}"
        );
    }
}
