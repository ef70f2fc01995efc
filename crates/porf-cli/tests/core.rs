//! The repository's own reference programs (`tests/core/`), which a fresh clone checks
//! without `../shared`: the small rows of the conformance table (co, rf and rvf counts
//! and verdicts from GenMC 0.11 and Nidhugg) through `porf verify`, and C11 litmus
//! tests with hand-derived RC11 answers through `porf litmus`. When `../shared` is
//! present, the copies must equal it, so the two never drift apart.

mod common;

use std::collections::HashMap;
use std::path::PathBuf;

fn core() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/core")
}

/// The rows of a tab-separated table with a header line (`#` lines are comments).
fn rows(path: &std::path::Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split('\t'))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// Every small row (every model, co, rf and rvf): the verdict, and for safe programs
/// the number of complete executions (at most the reference's for `atmost` rows), as
/// `../shared/tools/conformance.py` compares them.
#[test]
fn small_conformance_rows_give_the_reference_counts_and_verdicts() {
    let dir = core().join("conformance");
    let mut failures = Vec::new();
    let mut checked = 0;
    for row in rows(&dir.join("expected.tsv")) {
        if row["size"] != "small" {
            continue;
        }
        let file = dir.join(&row["file"]).display().to_string();
        let mut args = vec!["--model", &row["model"], "--equiv", &row["equiv"]];
        args.extend(row["defines"].split_whitespace());
        args.push(&file);
        let (_, v, err) = common::verify_json(&args);
        let label = format!("{} {} {}", row["file"], row["defines"], args[..4].join(" "));
        let verdict = v["verdict"].as_str().unwrap_or_default();
        let ok_verdict = match row["verdict"].as_str() {
            "unsafe" => verdict != "safe",
            want => verdict == want,
        };
        let complete = v["complete"].as_u64();
        let ok_count = row["verdict"] != "safe"
            || row["complete"] == "-"
            || match (row["compare"].as_str(), complete) {
                (_, None) => false,
                ("atmost", Some(c)) => c <= row["complete"].parse().unwrap(),
                (_, Some(c)) => c == row["complete"].parse::<u64>().unwrap(),
            };
        if !(ok_verdict && ok_count) {
            failures.push(format!(
                "{label}: expected {} {}, got {verdict} {complete:?} {err}",
                row["verdict"], row["complete"]
            ));
        }
        checked += 1;
    }
    println!("{checked} small conformance rows checked");
    assert!(checked >= 100, "only {checked} small rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The repository's litmus tests give their hand-derived RC11 answers (herd's
/// observation line: verdict and the numbers of executions satisfying the condition
/// or not).
#[test]
fn own_litmus_tests_give_the_hand_derived_rc11_answers() {
    let dir = core().join("litmus");
    let table = rows(&dir.join("expected-rc11.tsv"));
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.ends_with(".litmus").then_some(name)
        })
        .collect();
    files.sort();
    let mut listed: Vec<String> = table.iter().map(|r| r["file"].clone()).collect();
    listed.sort();
    assert_eq!(files, listed, "every litmus file has exactly one row");
    let mut failures = Vec::new();
    for row in &table {
        let path = dir.join(&row["file"]).display().to_string();
        let (code, out, err) = common::porf(&["litmus", "--model", "rc11", &path]);
        let obs = out
            .lines()
            .find(|l| l.starts_with("Observation "))
            .unwrap_or_default();
        let got: Vec<&str> = obs.split_whitespace().skip(2).collect();
        let want = [&row["verdict"], &row["positive"], &row["negative"]];
        if code != 0 || got != want {
            failures.push(format!(
                "{}: expected {want:?}, got {obs:?} {err}",
                row["file"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The copies in `tests/core/conformance` are byte-identical to `../shared/conformance`
/// (programs and table), and every program there has its copy.
#[test]
fn conformance_copies_equal_the_shared_data() {
    if common::shared_absent("conformance/expected.tsv") {
        return;
    }
    let shared = common::shared("conformance/expected.tsv").join("conformance");
    let ours = core().join("conformance");
    let mut names = Vec::new();
    for e in std::fs::read_dir(&shared).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".c") || name == "expected.tsv" {
            names.push(name);
        }
    }
    let mut differ = Vec::new();
    for name in &names {
        let a = std::fs::read(shared.join(name)).unwrap();
        if std::fs::read(ours.join(name)).ok().as_deref() != Some(&a[..]) {
            differ.push(name.clone());
        }
    }
    assert!(
        differ.is_empty(),
        "tests/core/conformance differs from ../shared/conformance in {differ:?}: copy them over"
    );
    let own = std::fs::read_dir(&ours).unwrap().count();
    assert_eq!(
        own,
        names.len(),
        "tests/core/conformance holds files ../shared lacks"
    );
}

/// Without the shared data (`PORF_SHARED` pointing nowhere) a test that needs it passes
/// with the one line `scripts/test.sh` collects, and `PORF_REQUIRE_SHARED` (CI) turns
/// that into a failure.
#[test]
fn a_test_needing_the_shared_data_skips_with_one_line_when_it_is_absent() {
    let run = |require: bool| {
        let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
        cmd.args([
            "conformance_copies_equal_the_shared_data",
            "--exact",
            "--nocapture",
        ])
        .env("PORF_SHARED", "/nonexistent/porf-shared")
        .env_remove("PORF_REQUIRE_SHARED");
        if require {
            cmd.env("PORF_REQUIRE_SHARED", "1");
        }
        cmd.output().expect("cannot rerun the test binary")
    };
    let out = run(false);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let skips: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("skipped: "))
        .collect();
    assert_eq!(
        skips,
        ["skipped: ../shared/conformance/expected.tsv is absent \
             (core::conformance_copies_equal_the_shared_data)"],
        "{stdout}"
    );
    assert!(
        !run(true).status.success(),
        "PORF_REQUIRE_SHARED must fail the test"
    );
}
