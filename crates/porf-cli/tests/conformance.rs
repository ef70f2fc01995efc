//! The shared conformance suite (`../shared/conformance`, GenMC 0.11 counts and
//! verdicts) run through `porf verify` by the shared script, as the README's test
//! command. Each run must end with `N passed, 0 failed`.

mod common;

use std::path::PathBuf;
use std::process::Command;

fn shared() -> PathBuf {
    common::shared("tools/conformance.py")
}

/// Runs conformance.py with `args`; returns its last line after checking 0 failures.
fn run(args: &[&str]) -> String {
    let script = shared().join("tools/conformance.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["--porf", env!("CARGO_BIN_EXE_porf")])
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
    let last = run(&["--equiv", "co"]);
    assert!(!last.starts_with("0 passed"), "{last}");
}

#[test]
fn reference_explorer_matches_genmc_on_small_co_rows() {
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
