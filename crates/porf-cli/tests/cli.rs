//! The `porf` binary end to end: output lines, exit codes, bad flags.

mod common;
use common::porf;

#[test]
fn safe_example_prints_genmc_lines() {
    let (code, out, _) = porf(&["example", "sb", "--model", "tso"]);
    assert_eq!(code, 0);
    assert!(out.contains("No errors were detected."), "{out}");
    assert!(
        out.contains("Number of complete executions explored: 4"),
        "{out}"
    );
    assert!(out.contains("Total wall-clock time: "), "{out}");
}

#[test]
fn error_exits_42_with_the_error_line() {
    let (code, out, _) = porf(&["example", "mp", "--model", "rc11"]);
    assert_eq!(code, 42);
    assert!(out.contains("Error: Safety violation!"), "{out}");
}

#[test]
fn reference_explorer_agrees_on_an_example() {
    let (_, a, _) = porf(&["example", "corr", "--explorer", "reference"]);
    assert!(
        a.contains("Number of complete executions explored: 72"),
        "{a}"
    );
}

#[test]
fn limits_mark_the_result_incomplete() {
    let (code, out, _) = porf(&["example", "nw1r", "-n", "5", "--max-executions", "10"]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.contains("Exploration incomplete: stopped by --max-executions 10 after 10"),
        "{out}"
    );
    assert!(
        out.contains("No errors were detected in the executions explored (incomplete)."),
        "{out}"
    );
    assert!(
        out.contains("Number of complete executions explored: 10"),
        "{out}"
    );
}

#[test]
fn bad_input_is_a_usage_error() {
    for args in [
        &["example", "sb", "--model", "power"][..],
        &["example", "no-such-example"],
        &["example", "sb", "--timeout", "-1"],
        &["frobnicate"],
    ] {
        let (code, _, err) = porf(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(err.contains("error"), "{args:?}: {err}");
    }
}

#[test]
fn list_names_the_examples() {
    let (code, out, _) = porf(&["example", "--list"]);
    assert_eq!(code, 0);
    assert!(out.contains("nw1r") && out.contains("iriw"), "{out}");
}
