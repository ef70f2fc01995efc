//! `scripts/bench.py` (the benchmark harness, not a timed test) runs: one medium row,
//! once, its table and summary lines printed and its count checked against the shared
//! table (a WRONG row makes the exit status 1).

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
