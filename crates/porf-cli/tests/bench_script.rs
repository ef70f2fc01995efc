//! `scripts/bench.py` (the benchmark harness, not a timed test) runs: one medium row,
//! once, its table and summary lines printed and its count checked against the shared
//! table (a WRONG row makes the exit status 1). `scripts/genmc_bench.py` (porf side by
//! side with GenMC 0.11's recorded times) runs on one tiny row.

mod common;

use std::path::PathBuf;
use std::process::Command;

#[test]
fn bench_script_runs_on_one_small_row() {
    if common::shared_absent("conformance/expected.tsv") {
        return;
    }
    common::shared("conformance/expected.tsv");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/bench.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["--porf", env!("CARGO_BIN_EXE_porf")])
        .args(["--medium", "--no-bigger", "--repeat", "1"])
        .args(["--filter", "readers.c -DN=8 rc11 co"])
        .output()
        .expect("cannot run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    let row = stdout
        .lines()
        .find(|l| l.starts_with("readers.c -DN=8 rc11 co"))
        .unwrap_or_else(|| panic!("no row in:\n{stdout}"));
    // readers N=8: the writer's one store and 8 readers, each reading the initial value
    // or the store: 2^8 = 256 complete executions (the table's figure from GenMC).
    assert_eq!(row.split_whitespace().nth(4), Some("256"), "{row}");
    assert!(
        stdout.contains("ratio porf wall / ref_time_s over 1 rows"),
        "{stdout}"
    );
    assert!(
        stdout.contains("acceptance (porf <= half ref_time_s"),
        "{stdout}"
    );
}

#[test]
fn genmc_bench_script_runs_on_one_tiny_row() {
    if common::shared_absent("bench/genmc-0.11-times.tsv") {
        return;
    }
    common::shared("bench/genmc-0.11-times.tsv");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/genmc_bench.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["--porf", env!("CARGO_BIN_EXE_porf")])
        .args(["--timeout", "30", "--filter", "ainc.c -DN=7"])
        .output()
        .expect("cannot run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    let row = stdout
        .lines()
        .find(|l| l.starts_with("ainc.c -DN=7 "))
        .unwrap_or_else(|| panic!("no row in:\n{stdout}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    // ainc N=7: seven relaxed fetch-adds on one location, one execution per order of
    // them: 7! = 5040 complete, porf's (cell 2) as GenMC's recorded count (cell 6).
    assert_eq!(cells.get(2), Some(&"5040"), "{row}");
    assert_eq!(cells.get(6), Some(&"5040"), "{row}");
    assert_eq!(cells.get(5), Some(&"safe"), "{row}");
    assert!(!row.contains("DIFF"), "{row}");
    assert!(
        stdout.contains("summary: 1 rows, 1 with a ratio; geometric mean porf/GenMC "),
        "{stdout}"
    );
}
