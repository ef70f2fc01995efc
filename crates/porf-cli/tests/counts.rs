//! Counts a user asks for (issue 26, items 6 and 7), against hand derivations written
//! in the programs (`tests/c/counts/`): `--keep-going`'s executions per error, the
//! same for `--threads 1` and 2 and for shards merged; the `--stats` spin-loop table
//! counting executions, not threads; leaks as warnings and `--check-leaks` errors;
//! non-termination's kind and exit code.

mod common;
use common::{porf, verify_json};
use serde_json::Value;
use std::path::PathBuf;

fn own(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c/counts")
        .join(name)
        .display()
        .to_string()
}

/// (kind, executions) of each error, in order.
fn counts(v: &Value) -> Vec<(String, u64)> {
    v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().to_string(),
                e["executions"]
                    .as_u64()
                    .expect("executions with --keep-going"),
            )
        })
        .collect()
}

/// two_errors.c: 12 executions (derivation in the file); the assertion fails in 3,
/// the race is in 8; 9 complete. The same on 1 and 2 threads and from 2 or 3
/// shards merged.
#[test]
fn keep_going_counts_executions_per_error_whatever_the_threads() {
    let want = vec![("assertion".to_string(), 3), ("race".to_string(), 8)];
    for threads in ["1", "2"] {
        let (code, v, _) =
            verify_json(&[&own("two_errors.c"), "--keep-going", "--threads", threads]);
        assert_eq!(code, 42);
        assert_eq!(counts(&v), want, "--threads {threads}");
        assert_eq!(v["complete"], 9);
    }
    let dir = std::env::temp_dir().join(format!("porf-counts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for n in [2, 3] {
        let mut reports = Vec::new();
        for i in 0..n {
            let split = format!("{i}/{n}");
            let (code, out, err) = porf(&[
                "verify",
                &own("two_errors.c"),
                "--keep-going",
                "--shard",
                &split,
            ]);
            assert_eq!(code, 0, "{err}");
            let path = dir.join(format!("s{i}of{n}.json"));
            std::fs::write(&path, out).unwrap();
            reports.push(path.display().to_string());
        }
        let mut args = vec!["merge", "--json"];
        args.extend(reports.iter().map(String::as_str));
        let (code, out, err) = porf(&args);
        assert_eq!(code, 42, "{err}");
        let v: Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(counts(&v), want, "{n} shards");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Without --keep-going there is no count.
    let (_, v, _) = verify_json(&[&own("two_errors.c")]);
    assert!(v["errors"][0].get("executions").is_none());
}

/// two_spinners.c: 3 blocked executions (derivation in the file), one of them with
/// both waiters blocked in the loop: it counts once. The row names the function.
#[test]
fn the_spin_table_counts_executions_and_names_functions() {
    let (code, v, _) = verify_json(&[&own("two_spinners.c"), "--explore-stale-blocks"]);
    assert_eq!(code, 0);
    assert_eq!(
        (v["complete"].as_u64(), v["blocked"].as_u64()),
        (Some(1), Some(3))
    );
    let rows = v["spin_loops"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["blocked"], 3);
    assert_eq!(rows[0]["function"], "waiter");
}

/// leak.c: the last block published is never freed, in each of its 2 complete
/// executions (worker 1 or worker 2 publishes last): a warning naming the site, exit
/// 0; with --check-leaks a memory error at the malloc, exit 42.
#[test]
fn leaks_warn_and_check_leaks_makes_them_errors() {
    let (code, v, err) = verify_json(&[&own("leak.c")]);
    assert_eq!(code, 0);
    assert_eq!(v["complete"], 2);
    let w = "unfreed memory: a block allocated at";
    assert_eq!(err.matches(w).count(), 1, "{err}");
    assert!(err.contains("leak.c:12:11 in worker() is never freed, in 2 complete executions"));
    let (code, v, _) = verify_json(&[&own("leak.c"), "--check-leaks", "--keep-going"]);
    assert_eq!(code, 42);
    assert_eq!(v["errors"].as_array().unwrap().len(), 1);
    assert_eq!(v["errors"][0]["kind"], "memory");
    assert_eq!(v["errors"][0]["executions"], 2);
    // A program that frees what it allocates has no leak.
    let (code, _, err) = porf(&[
        "verify",
        &common::repo_file("crates/porf-cli/tests/c/use_after_free.c"),
    ]);
    assert_ne!(code, 3);
    assert!(!err.contains("unfreed"), "{err}");
}

/// A local loop whose state repeats: non-termination (verdict, exit 5), printed once
/// (nothing on stderr).
#[test]
fn non_termination_has_its_own_kind_and_exit_code() {
    let (code, v, err) = verify_json(&[&own("local_loop.c")]);
    assert_eq!(code, 5);
    assert_eq!(v["verdict"], "non-termination");
    assert!(err.is_empty(), "{err}");
    let (code, out, _) = porf(&["verify", &own("local_loop.c")]);
    assert_eq!(code, 5);
    assert_eq!(out.matches("Error: Non-termination!").count(), 1);
    assert!(out.contains("in worker() runs forever"));
}
