//! `porf verify --shard I/N` and `porf merge` end to end: for N = 1, 2, 3 and 7 the
//! merged result equals the unsharded run of the same binary (counts, verdict, errors
//! with their witness traces, warnings, spin-loop table, exit code) — an equivalence
//! test, so the expected values are the unsharded run's — on safe programs, programs
//! with blocked executions, an assertion failure, a data race, nondeterministic
//! choices, with and without --keep-going; and `porf merge` refuses reports that do
//! not make up one run.

mod common;
use common::conformance;
use common::porf;

use serde_json::Value;
use std::path::{Path, PathBuf};

fn own(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c/shard")
        .join(name)
        .display()
        .to_string()
}

/// A scratch directory for one test's reports.
fn scratch(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("porf-shard-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Writes the N shard reports of `args`; returns their paths.
fn shards(dir: &Path, tag: &str, args: &[&str], n: u32) -> Vec<String> {
    (0..n)
        .map(|i| {
            let shard = format!("{i}/{n}");
            let mut a = vec!["verify", "--shard", &shard];
            a.extend_from_slice(args);
            let (code, out, err) = porf(&a);
            assert_eq!(code, 0, "shard {shard} of {args:?}: {err}");
            let path = dir.join(format!("{tag}-{i}-of-{n}.json"));
            std::fs::write(&path, out).unwrap();
            path.display().to_string()
        })
        .collect()
}

/// The result without what differs between runs (times) and what only merge adds.
fn comparable(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    o.remove("time_s");
    o.remove("shards");
    v
}

fn json(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Sharded and merged equals unsharded, for N = 1, 2, 3, 7, in JSON and in GenMC's
/// lines (but the time line).
fn same_as_unsharded(tag: &str, args: &[&str]) {
    let dir = scratch(tag);
    let mut a = vec!["verify", "--json"];
    a.extend_from_slice(args);
    let (code, out, _) = porf(&a);
    let whole = comparable(json(&out));
    let mut a = vec!["verify"];
    a.extend_from_slice(args);
    let (_, human, _) = porf(&a);
    let strip = |s: &str| {
        s.lines()
            .filter(|l| !l.starts_with("Total wall-clock time"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for n in [1, 2, 3, 7] {
        let reports = shards(&dir, tag, args, n);
        let mut m = vec!["merge", "--json"];
        m.extend(reports.iter().map(String::as_str));
        let (mcode, mout, merr) = porf(&m);
        let merged = json(&mout);
        assert_eq!(
            merged["shards"]["count"], n,
            "{tag} N = {n}: {}",
            merged["shards"]
        );
        assert_eq!(
            comparable(merged),
            whole,
            "{tag} with N = {n} shards: {merr}"
        );
        assert_eq!(mcode, code, "{tag} with N = {n} shards: exit code");
        let mut m = vec!["merge"];
        m.extend(reports.iter().map(String::as_str));
        let (_, mhuman, _) = porf(&m);
        assert_eq!(
            strip(&mhuman),
            strip(&human),
            "{tag} with N = {n}: human output"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn safe_programs() {
    same_as_unsharded("nw1r", &["-DN=5", &conformance("nw1r.c")]);
    same_as_unsharded(
        "treiber",
        &["-DN=2", "--model", "tso", &conformance("treiber.c")],
    );
    same_as_unsharded("seqlock", &["--model", "sc", &conformance("seqlock.c")]);
}

#[test]
fn programs_with_blocked_executions() {
    same_as_unsharded("mutex", &["-DN=3", &conformance("mutex_counter.c")]);
    same_as_unsharded("ticket", &[&conformance("ticketlock.c")]);
    same_as_unsharded(
        "spinlock",
        &["--model", "ra", &conformance("spinlock_cas.c")],
    );
}

/// One of porf's own test programs.
fn test_c(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn spin_loops_bounds_and_warnings() {
    same_as_unsharded("cas", &[&test_c("spin/cas_counter.c")]);
    same_as_unsharded("nested", &[&test_c("spin/nested.c")]);
    same_as_unsharded("unroll", &["--unroll", "2", &test_c("spin_unroll.c")]);
    // Runs cut by the loop bound (a goto loop) and by the recursion limit: incomplete.
    same_as_unsharded(
        "goto-unroll",
        &["--unroll", "2", &test_c("unroll/goto_poll_bug.c")],
    );
    same_as_unsharded(
        "recursion",
        &[
            "--recursion-limit",
            "3",
            &test_c("constructs/recursion_limit.c"),
        ],
    );
    same_as_unsharded("all-blocked", &[&test_c("all_blocked.c")]);
    same_as_unsharded(
        "liveness",
        &[
            "--check-liveness",
            "--keep-going",
            &test_c("spin_forever.c"),
        ],
    );
}

#[test]
fn programs_with_errors() {
    same_as_unsharded("two-bugs", &[&test_c("two_bugs.c")]);
    same_as_unsharded("two-bugs-kg", &["--keep-going", &test_c("two_bugs.c")]);
    same_as_unsharded("uaf", &["--keep-going", &test_c("use_after_free.c")]);
    same_as_unsharded("race", &[&conformance("racy_counter.c")]);
    same_as_unsharded("race-kg", &["--keep-going", &conformance("racy_counter.c")]);
    same_as_unsharded("mp", &[&conformance("mp_rlx_assert.c")]);
    same_as_unsharded("peterson", &["--keep-going", &conformance("peterson_ra.c")]);
}

#[test]
fn nondeterministic_choices_assumes_and_an_assertion() {
    let p = own("nondet_assert.c");
    same_as_unsharded("nondet", &["--nondet-range", "0..3", &p]);
    same_as_unsharded("nondet-kg", &["--keep-going", "--nondet-range", "0..3", &p]);
}

#[test]
fn merge_refuses_reports_of_different_runs() {
    let dir = scratch("refuse");
    let nw1r = conformance("nw1r.c");
    let a = shards(&dir, "a", &["-DN=3", &nw1r], 3);
    let b = shards(&dir, "b", &["-DN=4", &nw1r], 3);
    let c = shards(&dir, "c", &["-DN=3", &nw1r], 2);
    let refused = |args: &[&str], why: &str| {
        let mut m = vec!["merge"];
        m.extend_from_slice(args);
        let (code, out, err) = porf(&m);
        assert_eq!(code, 2, "merge {args:?}: {out}{err}");
        assert!(
            err.contains(why),
            "merge {args:?}: expected `{why}` in: {err}"
        );
        assert!(out.is_empty(), "merge {args:?} printed {out}");
    };
    refused(&[&a[0], &a[1]], "missing shard(s) 2/3");
    refused(&[&a[0], &a[1], &a[1], &a[2]], "shard 1/3 given twice");
    refused(
        &[&a[0], &a[1], &b[2]],
        "different flags: -D: [\"N=3\"] vs [\"N=4\"]",
    );
    refused(&[&a[0], &a[1], &c[1]], "different numbers of shards");
    let other = dir.join("other.json");
    std::fs::write(&other, "{\"complete\": 3}").unwrap();
    refused(
        &[&a[0], &a[1], other.to_str().unwrap()],
        "not a porf shard report",
    );
    refused(&[&a[0], "/nonexistent/report.json"], "cannot read");
    // A report of the same run cut differently (its plan's fingerprint changed).
    let mut v = json(&std::fs::read_to_string(&a[2]).unwrap());
    assert!(v["split"]["plan"].is_string(), "no plan in {v}");
    v["split"]["plan"] = Value::from("0000000000000000");
    let recut = dir.join("recut.json");
    std::fs::write(&recut, format!("{v}\n")).unwrap();
    refused(&[&a[0], &a[1], recut.to_str().unwrap()], "different splits");
    // The three right ones do merge, in any order, into the unsharded run's count.
    let (code, out, _) = porf(&["merge", "--json", &a[2], &a[0], &a[1]]);
    assert_eq!(code, 0);
    let (_, whole, _) = porf(&["verify", "--json", "-DN=3", &nw1r]);
    assert_eq!(json(&out)["complete"], json(&whole)["complete"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shard_rejects_what_it_cannot_split() {
    let p = conformance("nw1r.c");
    for (args, why) in [
        (vec!["--equiv", "rf"], "--equiv co"),
        (vec!["--explorer", "reference"], "explorer"),
        (vec!["--max-executions", "5"], "--max-executions"),
        (vec!["--model", "wra"], "wra"),
        (vec!["--dot", "/tmp/x.dot"], "--dot"),
    ] {
        let mut a = vec!["verify", "--shard", "0/2", p.as_str()];
        a.extend(args.iter().copied());
        let (code, out, err) = porf(&a);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("unsupported"), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
    }
    for bad in ["2/2", "0/0", "1", "x/3"] {
        let (code, _, err) = porf(&["verify", "--shard", bad, p.as_str()]);
        assert_eq!(code, 2, "--shard {bad}: {err}");
    }
}

/// `--shard-probe NODES` changes how the tree is cut, not the merged result; shards cut
/// with different budgets do not merge.
#[test]
fn the_probe_budget_changes_only_the_cut() {
    let dir = scratch("probe");
    let prog = conformance("lastzero.c");
    let args = ["--json", "-DN=6", &prog];
    let mut a = vec!["verify"];
    a.extend_from_slice(&args);
    let (_, out, _) = porf(&a);
    let whole = comparable(json(&out));
    let mut plans = Vec::new();
    for budget in ["1", "64", "100000"] {
        let mut sharded = vec!["--shard-probe", budget];
        sharded.extend_from_slice(&args[1..]);
        let reports = shards(&dir, &format!("b{budget}"), &sharded, 3);
        let mut m = vec!["merge", "--json"];
        m.extend(reports.iter().map(String::as_str));
        let (code, mout, merr) = porf(&m);
        assert_eq!(code, 0, "budget {budget}: {merr}");
        assert_eq!(comparable(json(&mout)), whole, "budget {budget}");
        plans.push(reports);
    }
    let (code, _, err) = porf(&["merge", &plans[0][0], &plans[2][1], &plans[2][2]]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("different flags"), "{err}");
    let (code, _, err) = porf(&["verify", "--shard-probe", "10", &prog]);
    assert_eq!(code, 2, "--shard-probe without --shard: {err}");
    let _ = std::fs::remove_dir_all(&dir);
}
