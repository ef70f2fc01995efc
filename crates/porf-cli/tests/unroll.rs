//! `--unroll` bounds every cycle of the control flow — loops written with `goto`,
//! irreducible ones, cycles through a loop statement that bypass its body — and a run
//! in which a bound cut an execution is not a proof: "No errors were detected up to
//! the bound", JSON verdict `incomplete` with `stopped_by` naming the bound, exit
//! code 4 (`tests/c/unroll/*.c`, each with its counts derived by hand in its header,
//! in the comment format of `common/expect.rs`); the same verdict from `porf merge`
//! and `porf litmus`; spin-assume sees goto loops and irreducible ones.

mod common;
use common::porf;

use serde_json::Value;
use std::path::PathBuf;

fn test_c(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(rel)
        .display()
        .to_string()
}

fn json(out: &str) -> Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn goto_and_irreducible_loops_give_the_stated_answers() {
    common::expect::run_dir("tests/c/unroll", 6, ".c:");
}

/// The human lines of a cut run, with and without an error, and `--help`.
#[test]
fn a_cut_run_says_up_to_the_bound() {
    let f = test_c("unroll/goto_poll_bug.c");
    let (code, out, err) = porf(&["verify", "--unroll", "2", &f]);
    assert_eq!(code, 4, "{out}{err}");
    assert!(
        out.starts_with("No errors were detected up to the bound.\n"),
        "{out}"
    );
    assert!(
        out.contains("\n  of which cut by the loop bound (--unroll): 1\n"),
        "{out}"
    );
    assert!(
        err.contains("warning: 1 execution reached the --unroll 2 loop bound"),
        "{err}"
    );
    // An error is still the verdict (42), whatever the bound cut.
    let (code, out, _) = porf(&["verify", "--unroll", "3", &f]);
    assert_eq!(code, 42, "{out}");
    // Without a bound the goto loop is explored without end; a time limit stops it
    // (incomplete for another reason: stopped_by names the limit that stopped it).
    let (code, out, _) = porf(&["verify", "--json", "--timeout", "1", &f]);
    let v = json(&out);
    assert_eq!(code, 4, "{v}");
    assert_eq!(v["stopped_by"], "timeout", "{v}");
    assert_eq!(v["partial"], true, "{v}");
    let (code, help, _) = porf(&["verify", "--help"]);
    assert_eq!(code, 0);
    assert!(help.contains("the --unroll loop bound or the"), "{help}");
    assert!(
        help.contains("--recursion-limit cut some execution"),
        "{help}"
    );
}

/// Recursion cut by the recursion limit is named as such; with both bounds cutting,
/// the loop bound is named and both counts are given.
#[test]
fn recursion_cuts_name_the_recursion_limit() {
    let f = test_c("constructs/recursion_limit.c");
    let (code, out, _) = porf(&["verify", "--recursion-limit", "3", &f]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.starts_with("No errors were detected up to the bound.\n"),
        "{out}"
    );
    assert!(
        out.contains("\n  of which cut by the recursion limit (--recursion-limit): 1\n"),
        "{out}"
    );
    let (_, out, _) = porf(&["verify", "--json", "--recursion-limit", "3", &f]);
    let v = json(&out);
    assert_eq!(v["stopped_by"], "recursion limit", "{v}");
    assert_eq!(
        (v["bound_cut"].as_u64(), v["recursion_cut"].as_u64()),
        (Some(1), Some(1))
    );
}

/// `porf merge` of a cut run: the same verdict and exit code as the unsharded run.
#[test]
fn merged_shards_of_a_cut_run_are_incomplete() {
    let f = test_c("unroll/goto_into_while.c");
    let dir = std::env::temp_dir().join(format!("porf-unroll-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut reports = Vec::new();
    for i in 0..2 {
        let shard = format!("{i}/2");
        let (code, out, err) = porf(&["verify", "--shard", &shard, "--unroll", "2", &f]);
        assert_eq!(code, 0, "{err}");
        let p = dir.join(format!("{i}.json"));
        std::fs::write(&p, out).unwrap();
        reports.push(p.display().to_string());
    }
    let mut args = vec!["merge", "--json"];
    args.extend(reports.iter().map(String::as_str));
    let (code, out, err) = porf(&args);
    let v = json(&out);
    assert_eq!(code, 4, "{v}{err}");
    assert_eq!(v["verdict"], "incomplete", "{v}");
    assert_eq!(v["stopped_by"], "loop bound", "{v}");
    assert_eq!(
        (v["blocked"].as_u64(), v["bound_cut"].as_u64()),
        (Some(4), Some(4))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Spin-assume watches loops written with goto and irreducible ones
/// (`tests/c/spin/goto_waits.c`; before, the irreducible one was not watched and the
/// run never ended): a waiting loop whose iteration only reads and changes nothing
/// blocks as a spin loop (no bound needed, nothing cut), and `--stats` lists both.
/// By hand: main waits for flag = 1 at label L (a natural loop made with goto), then
/// for flag2 = 1 in the loop A/B (entered at A: `never` stays 0); setter stores flag
/// then flag2. Main's reads: L reads 0 (the iteration repeats itself: blocked at L),
/// or 1 and then B reads 0 (blocked at B) or 1 (complete; once B reads 1 it leaves).
/// So 1 complete execution, every blocked one blocked at one of the two loops, none
/// cut, under every model; the blocked count itself depends on which stale blocks
/// the graph explorer skips (README, "Blocked executions porf does not count").
#[test]
fn spin_assume_sees_goto_and_irreducible_loops() {
    let f = test_c("spin/goto_waits.c");
    for model in ["sc", "tso", "pso", "ra", "rc11", "rc11-genmc", "wra", "sra"] {
        let (code, out, err) = porf(&["verify", "--json", "--model", model, &f]);
        let v = json(&out);
        assert_eq!(code, 0, "{model}: {v}{err}");
        assert_eq!(v["verdict"], "safe", "{model}: {v}");
        assert_eq!(v["complete"], 1, "{model}: {v}");
        assert_eq!(v["bound_cut"], 0, "{model}: {v}");
        let loops = v["spin_loops"].as_array().unwrap();
        assert_eq!(loops.len(), 2, "{model}: {v}");
        let blocked: u64 = loops.iter().map(|l| l["blocked"].as_u64().unwrap()).sum();
        assert_eq!(blocked, v["blocked"].as_u64().unwrap(), "{model}: {v}");
    }
    let (code, out, _) = porf(&["verify", "--stats", &f]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Loops watched by spin-assume (--disable-spin-assume to explore them): 2"),
        "{out}"
    );
    // Without spin-assume the waits need a bound, and the run is incomplete.
    let (code, out, _) = porf(&[
        "verify",
        "--json",
        "--disable-spin-assume",
        "--unroll",
        "2",
        &f,
    ]);
    let v = json(&out);
    assert_eq!(code, 4, "{v}");
    assert_eq!(v["stopped_by"], "loop bound", "{v}");
}

/// `porf litmus`: a test whose executions the bound cut is answered only up to the
/// bound (herd's `Loop` prefix), and the run exits with 4.
#[test]
fn litmus_cut_by_the_bound_exits_4() {
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../porf-litmus/tests/litmus/spin.litmus")
        .display()
        .to_string();
    let (code, out, err) = porf(&["litmus", "--json", "--unroll", "2", &f]);
    let v = json(&out);
    assert_eq!(code, 4, "{v}{err}");
    assert_eq!(v["incomplete"], true, "{v}");
    assert_eq!(v["stopped_by"], "loop bound", "{v}");
    assert!(v["bound_cut"].as_u64().unwrap() > 0, "{v}");
    let (code, out, _) = porf(&["litmus", "--unroll", "2", &f]);
    assert_eq!(code, 4);
    assert!(out.contains("\nLoop Ok\n"), "{out}");
    // A test without loops is never cut: complete, exit 0.
    let sb = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../porf-litmus/tests/litmus/sb.litmus")
        .display()
        .to_string();
    let (code, out, _) = porf(&["litmus", "--json", "--unroll", "2", &sb]);
    let v = json(&out);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["incomplete"], false, "{v}");
    assert_eq!(v["stopped_by"], Value::Null, "{v}");
    // Both: the run is incomplete.
    let (code, _, _) = porf(&["litmus", "--unroll", "2", &sb, &f]);
    assert_eq!(code, 4);
}
