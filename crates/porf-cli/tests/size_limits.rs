//! The size limits end to end: an execution that grows without end (a loop that never
//! exits, `tests/c/limits/*.c`) stops the run at `--max-events-per-execution` (default
//! 100,000) or `--memory-limit`, under every model and explorer, with verdict
//! `incomplete`, `stopped_by` naming the limit, exit code 4 and a warning that names
//! the thread that grew and suggests `--unroll`; the memory limit holds within 10%;
//! `--unroll` makes the same programs complete up to the bound; bad sizes are usage
//! errors. (Before these limits, each program here ran until the machine's memory ran
//! out.)

mod common;
use common::{porf, repo_file as prog, verify_json};

use porf_models::MODEL_NAMES;
use serde_json::Value;
use std::sync::Mutex;

const INCOMPLETE: i32 = 4;

/// Runs that use a lot of memory take the lock, so that they do not add up.
static BIG: Mutex<()> = Mutex::new(());

/// `bench/grow_forever.c` is also `scripts/bench.py --sizes`' program.
const GROWING: [&str; 2] = [
    "bench/grow_forever.c",
    "crates/porf-cli/tests/c/limits/grow_two.c",
];

/// The verdict of a run stopped by a size limit named `limit`.
fn assert_stopped_by(what: &str, code: i32, v: &Value, err: &str, limit: &str) {
    assert_eq!(code, INCOMPLETE, "{what}: {v} {err}");
    assert_eq!(v["verdict"], "incomplete", "{what}: {v}");
    assert_eq!(v["stopped_by"], limit, "{what}: {v}");
    assert_eq!(v["partial"], true, "{what}: {v}");
    let warnings = v["warnings"].to_string();
    assert!(warnings.contains("--unroll"), "{what}: {warnings}");
    assert!(
        warnings.contains("reached: the largest execution explored has"),
        "{what}: {warnings}"
    );
    assert!(err.contains("--unroll"), "{what}: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
}

#[test]
fn an_unending_execution_stops_at_the_event_limit_under_every_model() {
    for name in GROWING {
        let f = prog(name);
        for model in MODEL_NAMES {
            for equiv in ["co", "rf"] {
                let what = format!("{name} --model {model} --equiv {equiv}");
                let (code, v, err) = verify_json(&[
                    "--model",
                    model,
                    "--equiv",
                    equiv,
                    "--max-events-per-execution",
                    "300",
                    &f,
                ]);
                assert_stopped_by(&what, code, &v, &err, "max-events-per-execution");
                assert!(
                    err.contains("--max-events-per-execution 300 reached"),
                    "{what}: {err}"
                );
            }
        }
    }
}

#[test]
fn every_explorer_stops_at_the_event_limit() {
    let f = prog("crates/porf-cli/tests/c/limits/grow_two.c");
    // The reference explorer checks whole graphs at every step (its cost grows fast
    // with the length): a smaller limit.
    let explorers: [&[&str]; 5] = [
        &[
            "--explorer",
            "reference",
            "--max-events-per-execution",
            "100",
        ],
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
        &["--threads", "2"],
    ];
    for flags in explorers {
        let what = flags.join(" ");
        let mut args = flags.to_vec();
        if !flags.contains(&"--max-events-per-execution") {
            args.extend(["--max-events-per-execution", "2000"]);
        }
        args.push(&f);
        let (code, v, err) = verify_json(&args);
        assert_stopped_by(&what, code, &v, &err, "max-events-per-execution");
    }
}

/// Without any flag the default event limit stops the run (before, it ran until the
/// machine's memory ran out), and the human lines say it is not a proof.
#[test]
fn the_default_event_limit_stops_an_unending_execution() {
    let _big = BIG.lock().unwrap_or_else(|e| e.into_inner());
    let f = prog("bench/grow_forever.c");
    let (code, out, err) = porf(&["verify", &f]);
    assert_eq!(code, INCOMPLETE, "{out}{err}");
    assert!(
        out.contains("Exploration incomplete: stopped by --max-events-per-execution 100000"),
        "{out}"
    );
    assert!(out.contains("this is not a proof"), "{out}");
    assert!(
        err.contains("thread 0 has 100001 of them, the newest at ")
            && err.contains("grow_forever.c:11:"),
        "{err}"
    );
}

/// A loop bound makes the same programs finite: complete up to the bound.
#[test]
fn a_loop_bound_makes_them_finite() {
    for name in GROWING {
        let (code, v, err) = verify_json(&["--unroll", "3", &prog(name)]);
        assert_eq!(code, INCOMPLETE, "{name}: {v} {err}");
        assert_eq!(v["stopped_by"], "loop bound", "{name}: {v}");
        assert_eq!(v["partial"], false, "{name}: {v}");
        assert!(v["bound_cut"].as_u64().unwrap_or(0) > 0, "{name}: {v}");
    }
}

/// `--memory-limit` stops a run whose execution grows without bound, its peak
/// resident memory (porf's own figure, `--stats`) within 10% of the limit.
#[test]
fn the_memory_limit_stops_within_ten_percent() {
    let _big = BIG.lock().unwrap_or_else(|e| e.into_inner());
    const LIMIT_MIB: u64 = 256;
    for name in GROWING {
        for flags in [&[][..], &["--equiv", "rf"][..]] {
            let what = format!("{name} {}", flags.join(" "));
            let mut args = flags.to_vec();
            let limit = format!("{LIMIT_MIB}M");
            let f = prog(name);
            args.extend([
                "--stats",
                "--memory-limit",
                &limit,
                "--max-events-per-execution",
                "1000000000",
                &f,
            ]);
            let (code, v, err) = verify_json(&args);
            assert_stopped_by(&what, code, &v, &err, "memory");
            assert!(
                err.contains("--memory-limit 256 MiB reached"),
                "{what}: {err}"
            );
            let peak_kib = v["stats"]["peak_rss_kib"]
                .as_u64()
                .or_else(|| v["peak_rss_kib"].as_u64())
                .unwrap_or_else(|| panic!("{what}: no peak_rss_kib in {v}"));
            assert!(
                peak_kib * 10 <= LIMIT_MIB * 1024 * 11,
                "{what}: peak {peak_kib} KiB over {LIMIT_MIB} MiB + 10%"
            );
        }
    }
}

#[test]
fn bad_sizes_are_usage_errors() {
    let f = prog("bench/grow_forever.c");
    for bad in ["12Q", "", "G", "-1G", "1k", "x"] {
        let (code, _, err) = porf(&["verify", "--memory-limit", bad, &f]);
        assert_eq!(code, 2, "--memory-limit {bad:?}: {err}");
        assert!(err.starts_with("error: "), "--memory-limit {bad:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    for bad in ["0", "-5", "x"] {
        let (code, _, err) = porf(&["verify", "--max-events-per-execution", bad, &f]);
        assert_eq!(code, 2, "--max-events-per-execution {bad:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (code, out, _) = porf(&["verify", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--memory-limit <SIZE>"), "{out}");
    assert!(out.contains("--max-events-per-execution <N>"), "{out}");
}
