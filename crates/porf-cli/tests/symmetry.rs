//! Symmetry reduction (`porf_explore::symmetry`, on by default; `--disable-sr` turns
//! it off) on porf's own programs in `tests/c/symmetry/`: declared
//! (`__VERIFIER_spawn_symmetric`) and detected (`__VERIFIER_spawn` of an
//! identity-oblivious function) symmetric threads explore fewer executions with the
//! same verdict and errors; `--disable-sr` counts what the reference explorer counts;
//! a declaration porf cannot take changes nothing. And GenMC's own `tests/correct/sr`
//! programs (run from GenMC's repository by `scripts/genmc_bench.py`, never copied
//! here) count what GenMC's test suite expects.

mod common;

use std::collections::BTreeSet;

fn file(name: &str) -> String {
    common::repo_file(&format!("crates/porf-cli/tests/c/symmetry/{name}"))
}

/// Exit code, complete executions and the errors (message and location) of a
/// `--keep-going` run.
fn run(name: &str, extra: &[&str]) -> (i32, u64, BTreeSet<String>) {
    let f = file(name);
    let mut args = vec!["--keep-going", "--threads", "1"];
    args.extend_from_slice(extra);
    args.push(&f);
    let (code, v, _) = common::verify_json(&args);
    let errors = v["errors"]
        .as_array()
        .map(|es| {
            es.iter()
                .map(|e| format!("{} {}", e["message"], e["location"]))
                .collect()
        })
        .unwrap_or_default();
    (code, v["complete"].as_u64().unwrap(), errors)
}

/// With the reduction, fewer complete executions; without it, the reference
/// explorer's count; the same exit code and errors all three ways.
fn reduces(name: &str) {
    let on = run(name, &[]);
    let off = run(name, &["--disable-sr"]);
    let reference = run(name, &["--explorer", "reference"]);
    assert_eq!(
        off, reference,
        "{name}: --disable-sr against the reference explorer"
    );
    assert_eq!((on.0, &on.2), (off.0, &off.2), "{name}: verdict and errors");
    assert!(
        on.1 < off.1,
        "{name}: {} complete with the reduction, {} without",
        on.1,
        off.1
    );
}

#[test]
fn declared_symmetric_threads_are_explored_once_per_twin_class() {
    reduces("counter.c");
}

#[test]
fn identity_oblivious_threads_are_found_symmetric() {
    reduces("counter_auto.c");
}

#[test]
fn an_error_of_symmetric_threads_is_found_with_the_reduction() {
    reduces("lost_update.c");
    let (code, _, errors) = run("lost_update.c", &[]);
    assert_eq!(code, 42);
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn a_declaration_porf_cannot_take_changes_nothing() {
    let on = run("not_symmetric.c", &[]);
    assert_eq!(on, run("not_symmetric.c", &["--disable-sr"]));
    assert_eq!(on, run("not_symmetric.c", &["--explorer", "reference"]));
}

#[test]
fn disable_sr_is_in_the_help() {
    let (code, out, _) = common::porf(&["verify", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--disable-sr"), "{out}");
}

/// GenMC's `tests/correct/sr` programs through `scripts/genmc_bench.py`, which
/// exports them from GenMC's repository into a temporary directory and reads GenMC's
/// expected rc11 count from its test suite (`expected.rc11.mo.in`: 1, 124 and 5,520).
#[test]
fn genmc_sr_tests_count_what_genmc_counts() {
    if common::shared_absent("bench/genmc-0.11-times.tsv")
        || !std::path::Path::new("/work/.mirror/MPI-SWS+genmc/repo").exists()
    {
        return;
    }
    for filter in ["conf-loop", "ainc/ainc0"] {
        let stdout = common::run_script("genmc_bench.py", &["--timeout", "60", "--filter", filter]);
        let rows: Vec<&str> = stdout
            .lines()
            .filter(|l| l.contains(filter) && l.contains(".c"))
            .collect();
        assert!(!rows.is_empty(), "no {filter} row in:\n{stdout}");
        for row in rows {
            let cells: Vec<&str> = row.split_whitespace().collect();
            // porf's complete count (cell 1) is GenMC's (cell 5).
            assert_eq!(cells.get(1), cells.get(5), "{row}");
            assert!(!row.contains("DIFF"), "{row}");
        }
    }
}
