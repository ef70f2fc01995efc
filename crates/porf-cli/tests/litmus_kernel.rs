//! `porf litmus` on tests of the Linux kernel's primitives (`crates/porf-litmus/tests/kernel`,
//! written for porf): they run under `lkmm` by default, with herd's lines and the
//! verdicts the LKMM paper gives (Alglave et al., ASPLOS 2018: MP with smp_wmb and
//! smp_rmb, LB with a control dependency and smp_mb, RCU's grace period forbidden;
//! plain LB allowed); other models are refused.

mod common;
use common::porf;
use std::path::PathBuf;

fn kernel_test(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../porf-litmus/tests/kernel")
        .join(name)
        .display()
        .to_string()
}

/// `Observation NAME WORD` of a run of `porf litmus FILE`, which must exit 0.
fn observation(name: &str) -> String {
    let (code, out, err) = porf(&["litmus", "--threads", "1", &kernel_test(name)]);
    assert_eq!(code, 0, "{out}{err}");
    out.lines()
        .find_map(|l| l.strip_prefix("Observation "))
        .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
        .unwrap_or_else(|| panic!("no observation in {out}"))
}

#[test]
fn the_papers_verdicts() {
    assert_eq!(observation("mp-wmb-rmb.litmus"), "Never");
    assert_eq!(observation("lb-ctrl-mb.litmus"), "Never");
    assert_eq!(observation("rcu-mp.litmus"), "Never");
    assert_eq!(observation("lb.litmus"), "Sometimes");
}

/// SRCU (Linux's `tools/memory-model`): a grace period waits for the critical
/// sections of its own `srcu_struct` only (derivations in the two files).
#[test]
fn srcu_grace_periods_keep_to_their_domain() {
    assert_eq!(observation("srcu-mp.litmus"), "Never");
    assert_eq!(observation("srcu-mp-domains.litmus"), "Sometimes");
}

/// `atomic_add_unless` adds unless it finds the value it is given, and says whether
/// it added (derivation in the file).
#[test]
fn atomic_add_unless_writes_only_when_the_value_differs() {
    assert_eq!(observation("add-unless.litmus"), "Always");
}

#[test]
fn herd_lines_for_load_buffering() {
    let (code, out, err) = porf(&["litmus", "--threads", "1", &kernel_test("lb.litmus")]);
    assert_eq!(code, 0, "{err}");
    // Each read reads 0 or the other thread's 1, each combination one execution.
    for line in [
        "Test lb Allowed",
        "States 4",
        "0:r0=0; 1:r0=0;",
        "0:r0=1; 1:r0=1;",
        "Ok",
        "Positive: 1 Negative: 3",
        "Condition exists (0:r0=1 /\\ 1:r0=1)",
        "Observation lb Sometimes 1 3",
    ] {
        assert!(out.lines().any(|l| l == line), "no `{line}` in\n{out}");
    }
}

#[test]
fn kernel_tests_run_under_lkmm_only() {
    let (code, _, err) = porf(&["litmus", "--model", "sc", &kernel_test("lb.litmus")]);
    assert_eq!(code, 3);
    assert!(err.contains("--model lkmm only"), "{err}");
    let (code, out, _) = porf(&["litmus", "--model", "lkmm", &kernel_test("lb.litmus")]);
    assert_eq!(code, 0);
    assert!(out.contains("Observation lb Sometimes"));
}

/// `--parse-only` compiles a kernel test's thread bodies: a construct the kernel
/// front end refuses is reported with its position before anything runs.
#[test]
fn parse_only_compiles_kernel_bodies() {
    let f = kernel_test("unsupported-loop.litmus");
    let (code, out, err) = porf(&["litmus", "--parse-only", &f]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.trim()
            .starts_with(&format!("{f}:8:2: error: unsupported: `while`")),
        "{err}"
    );
    let (code, out, err) = porf(&["litmus", "--parse-only", &kernel_test("srcu-mp.litmus")]);
    assert_eq!(code, 0, "{out}{err}");
}

/// An access outside the test's locations is refused only when a consistent
/// execution makes it: a guessed run that coherence rules out does not count
/// (derivations in the two files).
#[test]
fn a_bad_address_matters_only_in_a_consistent_execution() {
    let (code, out, err) = porf(&[
        "litmus",
        "--threads",
        "1",
        &kernel_test("deref-init-incoherent.litmus"),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.lines()
            .any(|l| l == "Observation deref-init-incoherent Sometimes 1 1"),
        "{out}"
    );
    let (code, out, err) = porf(&[
        "litmus",
        "--threads",
        "1",
        &kernel_test("deref-init.litmus"),
    ]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.contains("an access to address 0, which is no location of the test (a consistent execution makes it)"),
        "{err}"
    );
}
