//! Limits end to end: a run cut by `--timeout` or `--max-executions` is "incomplete"
//! (exit code 4), never a proof; an error found before the limit is still an error;
//! `--timeout` stops on time; a run in which no execution completes says so.

mod common;
use common::conformance;
use common::{porf, verify_json};

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The exit code of a run that found no error but was cut by a limit (README,
/// `porf verify --help`).
const INCOMPLETE: i32 = 4;

/// Timed runs take the lock, so that they do not compete with each other for the CPU.
static TIMING: Mutex<()> = Mutex::new(());

fn file(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
        .display()
        .to_string()
}

/// Runs porf: (wall time, exit code, stdout, stderr).
fn timed(args: &[&str]) -> (Duration, i32, String, String) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_porf"))
        .args(args)
        .output()
        .expect("cannot run porf");
    (
        start.elapsed(),
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// porf's fixed cost around an exploration on this machine, under its current load:
/// process start, compiling a small program, printing and exit (the slowest of a few
/// runs).
fn startup_allowance() -> Duration {
    let mp = file("examples/mp.c");
    (0..3)
        .map(|_| timed(&["verify", &mp]).0)
        .max()
        .unwrap_or_default()
}

/// Every explorer stops on time. The precise figure (within 10% of the limit, measured
/// over the whole process on long runs) is `scripts/bench.py --timeouts`'s; a test on a
/// loaded machine asserts two bounds that do not depend on the load: porf's own
/// exploration time (`time_s`, measured by the explorer from its start, which is after
/// compiling: the limit counts from the command's start) is within the limit plus 10%,
/// and the process's wall time within the limit plus 10% plus the start-up allowance
/// (process start, compiling, printing, measured here) plus one second of slack for
/// a descheduled process.
#[test]
fn timeout_stops_within_ten_percent_with_an_incomplete_verdict() {
    let _one_at_a_time = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let allowance = startup_allowance();
    let explorers: [&[&str]; 5] = [
        &["--explorer", "graph"],
        &["--explorer", "reference"],
        &["--explorer", "rf-smc", "--equiv", "rf", "--model", "sc"],
        &[
            "--explorer",
            "rf-part-smc",
            "--equiv",
            "rf",
            "--model",
            "tso",
        ],
        &["--equiv", "rvf", "--model", "sc"],
    ];
    // A long exploration of short executions, and one whose executions keep growing
    // (three loops that keep each other going).
    let progs = [
        file("crates/porf-cli/tests/c/sc_stress.c"),
        file("bench/unending_rounds.c"),
    ];
    for (prog, flags) in progs
        .iter()
        .flat_map(|p| explorers.iter().map(move |f| (p, f)))
    {
        let name = format!("{} {prog}", flags.join(" "));
        let mut args = vec!["verify", "--json", "--timeout", "1"];
        args.extend_from_slice(flags);
        args.push(prog);
        let (wall, code, out, err) = timed(&args);
        let v: Value =
            serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{name}: {e}: {out} {err}"));
        assert_eq!(code, INCOMPLETE, "{name}: {v} {err}");
        assert_eq!(v["verdict"], "incomplete", "{name}: {v}");
        assert_eq!(v["stopped_by"], "timeout", "{name}: {v}");
        assert_eq!(v["partial"], true, "{name}: {v}");
        let explored = v["time_s"].as_f64().unwrap_or(f64::MAX);
        assert!(
            explored <= 1.1,
            "{name}: --timeout 1 explored for {explored} s (porf's own figure)"
        );
        let bound = Duration::from_secs_f64(2.1) + allowance;
        assert!(
            wall < bound,
            "{name}: --timeout 1 took {wall:?} (bound {bound:?}, startup allowance {allowance:?})"
        );
    }
}

#[test]
fn a_timed_out_run_does_not_claim_a_proof() {
    let _one_at_a_time = TIMING.lock().unwrap_or_else(|e| e.into_inner());
    let prog = file("crates/porf-cli/tests/c/sc_stress.c");
    let (code, out, _) = porf(&["verify", "--timeout", "0.3", &prog]);
    assert_eq!(code, INCOMPLETE, "{out}");
    assert!(
        !out.lines().any(|l| l == "No errors were detected."),
        "{out}"
    );
    assert!(
        out.contains("No errors were detected in the executions explored (incomplete)."),
        "{out}"
    );
    assert!(
        out.contains("Exploration incomplete: stopped by --timeout 0.3 after "),
        "{out}"
    );
    assert!(
        out.contains("this is not a proof that the program is correct"),
        "{out}"
    );
}

#[test]
fn max_executions_is_incomplete_in_both_explorers() {
    let prog = conformance("nw1r.c");
    for explorer in ["graph", "reference"] {
        let (code, v, _) = verify_json(&[
            "-D",
            "N=5",
            "--max-executions",
            "3",
            "--explorer",
            explorer,
            &prog,
        ]);
        assert_eq!(code, INCOMPLETE, "{explorer}: {v}");
        assert_eq!(v["verdict"], "incomplete", "{explorer}: {v}");
        assert_eq!(v["stopped_by"], "max-executions", "{explorer}: {v}");
        assert_eq!(v["partial"], true, "{explorer}: {v}");
        assert_eq!(v["complete"], 3, "{explorer}: {v}");
        let (code, out, _) = porf(&[
            "verify",
            "-D",
            "N=5",
            "--max-executions",
            "3",
            "--explorer",
            explorer,
            &prog,
        ]);
        assert_eq!(code, INCOMPLETE, "{explorer}: {out}");
        assert!(
            out.contains(
                "Exploration incomplete: stopped by --max-executions 3 after 3 complete \
                 executions; this is not a proof that the program is correct."
            ),
            "{explorer}: {out}"
        );
    }
}

#[test]
fn a_limit_above_the_count_leaves_a_complete_verdict() {
    let prog = conformance("nw1r.c");
    let (code, full, _) = verify_json(&["-D", "N=4", &prog]);
    assert_eq!(code, 0, "{full}");
    let n = full["complete"].as_u64().unwrap();
    let more = (n + 1).to_string();
    let (code, v, _) = verify_json(&[
        "-D",
        "N=4",
        "--max-executions",
        &more,
        "--timeout",
        "600",
        &prog,
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["verdict"], "safe", "{v}");
    assert_eq!(v["stopped_by"], Value::Null, "{v}");
    assert_eq!(v["complete"], n, "{v}");
}

#[test]
fn an_error_before_the_limit_is_still_an_error() {
    let prog = file("examples/dekker_tso.c");
    let (code, v, _) = verify_json(&[
        "--model",
        "tso",
        "--max-executions",
        "1000000",
        "--timeout",
        "600",
        &prog,
    ]);
    assert_eq!(code, 42, "{v}");
    assert_eq!(v["verdict"], "assertion", "{v}");
    // With keep-going and a limit that cuts the run, the errors found stay errors.
    let prog = file("crates/porf-cli/tests/c/two_bugs.c");
    let (code, v, _) = verify_json(&["--keep-going", "--max-executions", "1", &prog]);
    assert_eq!(code, 42, "{v}");
    assert_ne!(v["verdict"], "incomplete", "{v}");
    assert_ne!(v["verdict"], "safe", "{v}");
}

#[test]
fn no_complete_execution_is_a_warning() {
    let prog = file("crates/porf-cli/tests/c/all_blocked.c");
    for explorer in ["graph", "reference"] {
        let (code, v, err) = verify_json(&["--explorer", explorer, &prog]);
        assert_eq!(code, 0, "{explorer}: {v}");
        assert_eq!(v["complete"], 0, "{explorer}: {v}");
        let blocked = v["blocked"].as_u64().unwrap();
        assert!(blocked > 0, "{explorer}: {v}");
        let warnings = v["warnings"].as_array().unwrap();
        assert_eq!(warnings.len(), 1, "{explorer}: {v}");
        let w = warnings[0].as_str().unwrap();
        assert!(w.starts_with("no complete execution: "), "{w}");
        assert!(w.contains("failed assumes"), "{w}");
        assert!(err.contains(&format!("warning: {w}")), "{explorer}: {err}");
    }
    let spin = file("crates/porf-cli/tests/c/spin_forever.c");
    let (code, out, err) = porf(&["verify", "--unroll", "2", &spin]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("warning: no complete execution: "), "{err}");
    assert!(err.contains("--unroll 2"), "{err}");
    // Programs that complete do not warn.
    let (_, v, err) = verify_json(&[&file("examples/mp.c")]);
    assert_eq!(v["warnings"], serde_json::json!([]), "{v}");
    assert!(!err.contains("warning"), "{err}");
}

#[test]
fn bad_limits_are_usage_errors() {
    let mp = file("examples/mp.c");
    for t in ["0", "-1", "nan", "inf", "1e300", "1e-12", "x"] {
        let (code, _, err) = porf(&["verify", "--timeout", t, &mp]);
        assert_eq!(code, 2, "--timeout {t}: {err}");
        assert!(!err.contains("panicked"), "--timeout {t}: {err}");
    }
    let (code, _, err) = porf(&["verify", "--max-executions", "-3", &mp]);
    assert_eq!(code, 2, "{err}");
}
