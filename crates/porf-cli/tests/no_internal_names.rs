//! No trace shows porf's internals (issue 26): `porf verify` on the conformance
//! programs (`../shared/conformance`, skipped with one line when absent) and on this
//! crate's `tests/c` and `tests/errors` programs prints traces (the error's witness, or
//! with `--print-execution` a complete execution) in which no line names an internal
//! cell: nothing spelled with `__` (C reserves such identifiers for the
//! implementation; porf's bundled headers use them for their internal members, e.g.
//! a condition variable's `__w`). Lines of error events are exempt: their message may
//! name a function the user called (`__VERIFIER_assert`, `__builtin_clz`).
//!
//! Also: a folded library operation keeps its events in `--json` (`operation`,
//! `last_index`, `events`).

mod common;

use common::porf;
use std::path::{Path, PathBuf};

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// The trace lines of `porf verify` on `file` that show a `__` name.
fn internal_lines(file: &Path) -> Vec<String> {
    let f = file.display().to_string();
    let (_, out, _) = porf(&[
        "verify",
        &f,
        "--print-execution",
        "--max-executions",
        "5",
        "--timeout",
        "5",
        "--threads",
        "1",
        "--no-progress",
    ]);
    out.lines()
        .filter(|l| l.starts_with("  (") && l.contains("__") && !l.contains(" error: "))
        .map(|l| format!("{f}: {l}"))
        .collect()
}

fn check(files: &[PathBuf]) {
    let bad: Vec<String> = files.iter().flat_map(|f| internal_lines(f)).collect();
    assert!(
        bad.is_empty(),
        "internal names in traces:\n{}",
        bad.join("\n")
    );
}

#[test]
fn conformance_traces_show_no_internal_names() {
    if common::shared_absent("conformance/expected.tsv") {
        return;
    }
    let dir = common::shared_dir().join("conformance");
    let files = common::c_files(&dir);
    assert!(files.len() >= 20, "{}", files.len());
    check(&files);
}

#[test]
fn test_program_traces_show_no_internal_names() {
    let mut files = common::c_files(&tests_dir().join("c"));
    files.extend(common::c_files(&tests_dir().join("errors")));
    files.sort();
    assert!(files.len() >= 100, "{}", files.len());
    check(&files);
}

#[test]
fn print_execution_shows_a_library_operation_folded() {
    let f = tests_dir()
        .join("c/pthreads/rwlock.c")
        .display()
        .to_string();
    let (code, out, _) = porf(&["verify", &f, "--print-execution", "--threads", "1"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("A complete execution:"), "{out}");
    assert!(out.contains(" rdlock l "), "{out}");
    assert!(out.contains(" wrlock l "), "{out}");
}

#[test]
fn json_steps_keep_the_folded_events() {
    let f = tests_dir().join("c/ops/condvar.c").display().to_string();
    let (_, v, _) = common::verify_json(&[&f, "--threads", "1"]);
    let trace = v["errors"][0]["trace"].as_array().unwrap();
    let signal = trace
        .iter()
        .find(|s| s["operation"] == "pthread_cond_signal")
        .expect("a signal step");
    assert_eq!(signal["event"], "signal c → wakes T1", "{signal}");
    let events = signal["events"].as_array().unwrap();
    let (first, last) = (
        signal["index"].as_u64().unwrap(),
        signal["last_index"].as_u64().unwrap(),
    );
    assert_eq!(events.len() as u64, last - first + 1, "{signal}");
    assert!(events
        .iter()
        .any(|e| e["event"].as_str().unwrap().starts_with("RMW-W c ")));
    // Every event number of a thread appears in exactly one step.
    for t in 0..3u64 {
        let mut next = 1;
        for s in trace.iter().filter(|s| s["thread"] == t) {
            assert_eq!(s["index"].as_u64().unwrap(), next, "{s}");
            next = s["last_index"].as_u64().unwrap() + 1;
        }
    }
}
