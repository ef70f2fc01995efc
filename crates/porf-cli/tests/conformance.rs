//! The shared conformance suite (`../shared/conformance`: GenMC 0.11 counts and
//! verdicts for co mode, Nidhugg and RF-SMC counts for rf mode, the RVF-SMC tool's
//! for rvf mode) run through
//! `porf verify` by the shared script, as the README's test command. Each run must end
//! with `N passed, 0 failed`.

mod common;

use std::path::PathBuf;
use std::process::Command;

fn shared() -> PathBuf {
    common::shared("tools/conformance.py")
}

/// Runs conformance.py with `args` at the default thread count; returns its last line
/// after checking 0 failures. For configurations that run on one thread whatever
/// `--threads` says (rf and rvf modes, the reference and RF-SMC explorers).
fn run(args: &[&str]) -> String {
    run_with(env!("CARGO_BIN_EXE_porf").as_ref(), args)
}

/// Runs conformance.py with `args` at every thread count of
/// [`common::test_threads`]; returns the last line of the last run.
fn run_threads(args: &[&str]) -> String {
    let mut last = String::new();
    for n in common::test_threads() {
        println!("--threads {n}");
        last = run_with(&common::porf_with_threads(n), args);
    }
    last
}

fn run_with(porf: &std::path::Path, args: &[&str]) -> String {
    let script = shared().join("tools/conformance.py");
    let out = Command::new("python3")
        .arg(script)
        .arg("--porf")
        .arg(porf)
        .args(args)
        .output()
        .expect("cannot run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("conformance.py {}:\n{stdout}", args.join(" "));
    let last = stdout.lines().last().unwrap_or("").to_string();
    let failed: Option<u64> = last
        .split(", ")
        .find_map(|p| p.strip_suffix(" failed"))
        .and_then(|n| n.parse().ok());
    assert_eq!(failed, Some(0), "conformance failures:\n{stdout}");
    assert!(out.status.success(), "{stdout}");
    last
}

#[test]
fn graph_explorer_matches_genmc_on_every_co_row() {
    if common::shared_absent("tools/conformance.py") {
        return;
    }
    let last = run_threads(&["--equiv", "co"]);
    assert!(!last.starts_with("0 passed"), "{last}");
}

#[test]
fn reference_explorer_matches_genmc_on_small_co_rows() {
    if common::shared_absent("tools/conformance.py") {
        return;
    }
    let last = run(&[
        "--equiv",
        "co",
        "--explorer",
        "reference",
        "--max-complete",
        "200",
    ]);
    assert!(!last.starts_with("0 passed"), "{last}");
}

/// Reads-from counts (`--equiv rf`): Nidhugg's `--rf` for sc, the RF-SMC tool of the
/// TSO/PSO reads-from paper for tso and pso.
#[test]
fn graph_explorer_matches_the_rf_references_on_every_rf_row() {
    if common::shared_absent("tools/conformance.py") {
        return;
    }
    let last = run(&["--equiv", "rf"]);
    assert!(!last.starts_with("0 passed"), "{last}");
}

#[test]
fn reference_explorer_matches_the_rf_references_on_small_rf_rows() {
    if common::shared_absent("tools/conformance.py") {
        return;
    }
    let last = run(&[
        "--equiv",
        "rf",
        "--explorer",
        "reference",
        "--max-complete",
        "200",
    ]);
    assert!(!last.starts_with("0 passed"), "{last}");
}

/// RF-SMC (`--explorer rf-smc`) on every rf row (sc, tso, pso).
#[test]
fn rf_smc_matches_the_rf_references_on_every_rf_row() {
    if common::shared_absent("tools/conformance.py") {
        return;
    }
    let last = run(&["--equiv", "rf", "--explorer", "rf-smc"]);
    assert!(!last.starts_with("0 passed"), "{last}");
}

/// Reads-value-from counts (`--equiv rvf`, sc): at most the RVF-SMC authors' tool's,
/// verdicts equal.
#[test]
fn rvf_explorer_matches_the_rvf_reference_on_every_rvf_row() {
    if common::shared_absent("tools/conformance.py") {
        return;
    }
    let last = run(&["--equiv", "rvf"]);
    assert!(!last.starts_with("0 passed"), "{last}");
}

/// `--model rc11-genmc` is RC11 as GenMC 0.11 checks it, so it must match GenMC on
/// every rc11 row too: the rc11 rows of the shared table, relabelled rc11-genmc.
#[test]
fn genmc_rc11_variant_matches_genmc_on_every_rc11_row() {
    if common::shared_absent("tools/conformance.py") {
        return;
    }
    let dir = shared().join("conformance");
    let table = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let mut rows = 0;
    let mut out = String::new();
    for (i, line) in table.lines().enumerate() {
        let cols: Vec<&str> = line.split('\t').collect();
        if i == 0 {
            assert_eq!(cols.get(2), Some(&"model"), "unexpected header: {line}");
            out.push_str(line);
            out.push('\n');
        } else if cols.get(2) == Some(&"rc11") && cols.get(8) == Some(&"genmc-0.11") {
            let mut c = cols.clone();
            c[2] = "rc11-genmc";
            out.push_str(&c.join("\t"));
            out.push('\n');
            rows += 1;
        }
    }
    assert!(rows > 0, "no rc11 rows from GenMC 0.11 in the shared table");
    let path = std::env::temp_dir().join(format!("porf-rc11-genmc-{}.tsv", std::process::id()));
    std::fs::write(&path, out).expect("cannot write the relabelled table");
    let (d, t) = (dir.display().to_string(), path.display().to_string());
    let last = run_threads(&["--dir", &d, "--table", &t, "--model", "rc11-genmc"]);
    let _ = std::fs::remove_file(&path);
    assert!(last.starts_with(&format!("{rows} passed")), "{last}");
}
