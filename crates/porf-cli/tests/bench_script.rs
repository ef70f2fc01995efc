//! `scripts/bench.py` (the benchmark harness, not a timed test) runs: one medium row,
//! once, its table and summary lines printed and its count checked against the shared
//! table (a WRONG row makes the exit status 1). `scripts/genmc_bench.py` (porf side by
//! side with GenMC 0.11's recorded times) runs on one tiny row.

mod common;

#[test]
fn bench_script_runs_on_one_small_row() {
    if common::shared_absent("conformance/expected.tsv") {
        return;
    }
    common::shared("conformance/expected.tsv");
    let stdout = common::run_script(
        "bench.py",
        &[
            "--medium",
            "--no-bigger",
            "--repeat",
            "1",
            "--filter",
            "readers.c -DN=8 rc11 co",
        ],
    );
    let row = common::row(&stdout, "readers.c -DN=8 rc11 co");
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
    let stdout = common::run_script(
        "genmc_bench.py",
        &["--timeout", "30", "--filter", "ainc.c -DN=7"],
    );
    let row = common::row(&stdout, "ainc.c -DN=7 ");
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
