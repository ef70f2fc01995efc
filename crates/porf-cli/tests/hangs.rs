//! Programs that hang: without `--check-liveness`, a thread that spins forever (a
//! liveness violation, `porf_explore::liveness`) is a warning line naming the thread,
//! the loop and how many executions, and an entry of the JSON `warnings` (plus
//! `spin_forever`), under every model, equivalence and explorer; with it, an error.
//! Correct spin-loop programs get no such warning.
//!
//! The programs are in `tests/c/spin/hang/`; each one's header derives by hand which
//! executions hang.

mod common;

use common::porf;
use serde_json::Value;
use std::path::PathBuf;

fn file(rel: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/spin");
    root.join(rel).display().to_string()
}

/// Every (model, extra flags) a C program can be verified with: each model in co
/// mode and in rf mode, the reference explorer, RF-SMC and RF-partSMC where they
/// apply, and RVF under sc.
fn configurations() -> Vec<Vec<String>> {
    let mut c = Vec::new();
    for m in porf_models::MODEL_NAMES {
        c.push(vec!["--model".to_string(), m.to_string()]);
        c.push(vec![
            "--model".into(),
            m.to_string(),
            "--equiv".into(),
            "rf".into(),
        ]);
    }
    for m in ["sc", "tso", "pso"] {
        for x in ["rf-smc", "rf-part-smc"] {
            c.push(
                ["--model", m, "--equiv", "rf", "--explorer", x]
                    .map(String::from)
                    .to_vec(),
            );
        }
    }
    c.push(
        ["--model", "sc", "--equiv", "rvf"]
            .map(String::from)
            .to_vec(),
    );
    c.push(
        ["--model", "ra", "--explorer", "reference"]
            .map(String::from)
            .to_vec(),
    );
    c.push(
        ["--model", "rc11", "--threads", "2"]
            .map(String::from)
            .to_vec(),
    );
    c
}

/// `porf verify --json CONFIG ARGS`: (exit code, the JSON object).
fn json(config: &[String], args: &[&str]) -> (i32, Value) {
    let mut a = vec!["verify", "--json"];
    a.extend(config.iter().map(String::as_str));
    a.extend_from_slice(args);
    let (code, out, err) = porf(&a);
    let v = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{a:?}: {e}: {out}{err}"));
    (code, v)
}

/// (thread, location suffix, function, main_finished, executions) of `spin_forever`.
fn hangs(v: &Value) -> Vec<(u64, String, String, bool, u64)> {
    v["spin_forever"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|h| {
                    let loc = h["location"].as_str().unwrap();
                    (
                        h["thread"].as_u64().unwrap(),
                        loc.rsplit('/').next().unwrap().to_string(),
                        h["function"].as_str().unwrap().to_string(),
                        h["main_finished"].as_bool().unwrap(),
                        h["executions"].as_u64().unwrap(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn warnings(v: &Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

fn has(ws: &[String], needle: &str) -> bool {
    ws.iter().any(|w| w.contains(needle))
}

/// A waiter spins on a flag nobody sets while main joins it: the only execution hangs.
#[test]
fn a_waiter_nobody_wakes_hangs_in_every_execution() {
    let f = file("hang/join_never_set.c");
    for c in configurations() {
        let (code, v) = json(&c, &[&f]);
        assert_eq!(code, 0, "{c:?}: {v}");
        assert_eq!(
            (v["complete"].as_u64(), v["blocked"].as_u64()),
            (Some(0), Some(1)),
            "{c:?}: {v}"
        );
        assert_eq!(
            hangs(&v),
            [(1, "join_never_set.c:11:2".into(), "waiter".into(), false, 1)],
            "{c:?}: {v}"
        );
        let ws = warnings(&v);
        assert!(
            has(&ws, "thread 1 spins forever in the loop at ")
                && has(
                    &ws,
                    "join_never_set.c:11:2 in waiter in the only execution: "
                )
                && has(&ws, "so the program never ends"),
            "{c:?}: {ws:?}"
        );
    }
    // The human output: the warning on stderr, the verdict unchanged.
    let (code, out, err) = porf(&["verify", &f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("No errors were detected."), "{out}");
    assert!(
        err.lines().any(
            |l| l.starts_with("warning: thread 1 spins forever in the loop at ")
                && l.contains("join_never_set.c:11:2")
        ),
        "{err}"
    );
    // With the check: an error, and no warning for it.
    let (code, v) = json(&[], &["--check-liveness", &f]);
    assert_eq!((code, v["verdict"].as_str()), (42, Some("liveness")), "{v}");
    assert!(!has(&warnings(&v), "spins forever"), "{v}");
    assert!(hangs(&v).is_empty(), "{v}");
}

/// A spinlock nobody releases: in each of the two executions the loser spins forever.
/// No thread hangs in every execution, but every execution hangs: one more line says so.
#[test]
fn a_lock_never_released_hangs_one_thread_per_execution() {
    let f = file("hang/lock_never_released.c");
    for c in configurations() {
        let (code, v) = json(&c, &[&f]);
        assert_eq!(code, 0, "{c:?}: {v}");
        assert_eq!(
            (v["complete"].as_u64(), v["blocked"].as_u64()),
            (Some(0), Some(2)),
            "{c:?}: {v}"
        );
        let at = "lock_never_released.c:16:2".to_string();
        assert_eq!(
            hangs(&v),
            [
                (1, at.clone(), "worker".into(), false, 1),
                (2, at, "worker".into(), false, 1)
            ],
            "{c:?}: {v}"
        );
        let ws = warnings(&v);
        assert!(has(&ws, "in 1 of 2 executions"), "{c:?}: {ws:?}");
        assert!(
            has(&ws, "in every execution (2) some thread spins forever"),
            "{c:?}: {ws:?}"
        );
    }
}

/// main waits for a flag set only if the setter saw x = 1: one execution hangs, others
/// complete.
#[test]
fn a_flag_set_only_sometimes_hangs_in_some_executions() {
    let f = file("hang/set_if_seen.c");
    for c in configurations() {
        let (code, v) = json(&c, &[&f]);
        assert_eq!(code, 0, "{c:?}: {v}");
        assert!(v["complete"].as_u64() >= Some(1), "{c:?}: {v}");
        assert_eq!(
            hangs(&v),
            [(0, "set_if_seen.c:30:2".into(), "main".into(), false, 1)],
            "{c:?}: {v}"
        );
        let ws = warnings(&v);
        let total = v["complete"].as_u64().unwrap() + v["blocked"].as_u64().unwrap();
        assert!(
            has(&ws, &format!(" in main in 1 of {total} executions: ")),
            "{c:?}: {ws:?}"
        );
        assert!(!has(&ws, "every execution"), "{c:?}: {ws:?}");
    }
    let (code, v) = json(&[], &["--check-liveness", &f]);
    assert_eq!((code, v["verdict"].as_str()), (42, Some("liveness")), "{v}");
}

/// GenMC's loop-peel test: main returns without joining, and in one execution the
/// reader is left spinning on the writer's last value. In C, main's return ends the
/// process; the warning says when main had finished.
#[test]
fn a_thread_left_spinning_after_main_returned() {
    let (code, v) = json(&[], &[&file("genmc/peeled.c")]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(
        hangs(&v),
        [(2, "peeled.c:18:2".into(), "reader".into(), true, 1)],
        "{v}"
    );
    assert!(has(&warnings(&v), ", once main has finished: "), "{v}");
}

/// Correct spin-loop programs (every spinning thread is eventually released): no
/// warning in any configuration, and no error with `--check-liveness` (under wra too,
/// where a retry may read a co-earlier write: porf used to report the compare-exchange
/// lock's waiter as spinning forever there).
#[test]
fn correct_spin_loops_do_not_warn() {
    let conformance = |n: &str| common::conformance(n);
    let programs: Vec<(String, Vec<&str>)> = vec![
        (file("mp_spin_ok.c"), vec![]),
        (file("cas_counter.c"), vec![]),
        (file("nested.c"), vec![]),
        (file("genmc/cas_lock.c"), vec!["-DN=3"]),
        (file("genmc/cas_reread.c"), vec![]),
        (file("genmc/two_flags.c"), vec![]),
        (common::example("lock_counter.c"), vec![]),
        (conformance("spinlock_cas.c"), vec!["-DN=3"]),
        (conformance("ticketlock.c"), vec!["-DN=3"]),
    ];
    let mut runs = 0;
    for (f, defines) in &programs {
        for c in configurations() {
            let mut args = defines.clone();
            args.push(f);
            let (code, v) = json(&c, &args);
            if code == 3 {
                // e.g. a construct an rf-mode explorer does not support.
                continue;
            }
            assert_eq!(code, 0, "{f} {c:?}: {v}");
            assert!(hangs(&v).is_empty(), "{f} {c:?}: {v}");
            assert!(!has(&warnings(&v), "spins forever"), "{f} {c:?}: {v}");
            runs += 1;
            if !c.iter().any(|a| a == "--equiv") {
                let mut args = vec!["--check-liveness"];
                args.extend(defines.iter());
                args.push(f);
                let (code, v) = json(&c, &args);
                assert_eq!(code, 0, "{f} {c:?} --check-liveness: {v}");
            }
        }
    }
    assert!(runs > 150, "{runs} runs");
}

/// `--shard` reports carry the hangs, and `porf merge` warns as the unsharded run does.
#[test]
fn sharded_runs_merge_the_hangs() {
    let f = file("hang/lock_never_released.c");
    let (_, whole) = json(&[], &[&f]);
    let dir = std::env::temp_dir().join(format!("porf-hangs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut reports = Vec::new();
    for i in 0..2 {
        let (code, out, err) = porf(&["verify", "--shard", &format!("{i}/2"), &f]);
        assert_eq!(code, 0, "{err}");
        let p = dir.join(format!("{i}.json"));
        std::fs::write(&p, out).unwrap();
        reports.push(p.display().to_string());
    }
    let (code, out, err) = porf(&["merge", "--json", &reports[0], &reports[1]]);
    assert_eq!(code, 0, "{err}");
    let merged: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(hangs(&merged), hangs(&whole), "{merged}");
    assert_eq!(warnings(&merged), warnings(&whole), "{merged}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Deadlocks under WRA, where co plays no role: a lock is held for good only if every
/// other write of it happens before the taken value the acquire read (a retry could
/// read any write not hb-overwritten, a co-earlier unlock included). The pthread
/// programs' verdicts do not depend on the memory model (their shared data is accessed
/// under locks), so wra must give rc11's and sra's verdict on each, in co and rf mode
/// and with the reference explorer. porf used to report correct ones (a counter under
/// a mutex, condition variables, a recursive mutex) as deadlocks under wra.
#[test]
fn wra_deadlocks_are_those_of_the_other_models() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/pthreads");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".c"))
        .collect();
    files.push(common::example("lock_counter.c"));
    files.sort();
    let verdict = |args: &[&str], f: &str| {
        let c: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (_, v) = json(&c, &[f]);
        v["verdict"].as_str().unwrap().to_string()
    };
    let (mut safe, mut deadlocks) = (0, 0);
    for f in &files {
        let want = verdict(&["--model", "rc11"], f);
        assert_eq!(verdict(&["--model", "sra"], f), want, "{f}");
        for args in [
            &["--model", "wra"][..],
            &["--model", "wra", "--equiv", "rf"],
            &["--model", "wra", "--explorer", "reference"],
        ] {
            assert_eq!(verdict(args, f), want, "{f} {args:?}");
        }
        safe += usize::from(want == "safe");
        deadlocks += usize::from(want == "deadlock");
    }
    assert!(
        safe >= 10 && deadlocks >= 4,
        "{safe} safe, {deadlocks} deadlocks"
    );
}
