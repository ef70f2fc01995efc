//! The progress line (`porf_cli`'s `progress.rs`) is for terminals only: a run whose
//! stderr is a pipe, as here, prints none, with or without `--no-progress`, and its
//! verdict and stderr are the same either way.

mod common;
use common::example;
use common::porf;

#[test]
fn no_progress_line_when_stderr_is_not_a_terminal() {
    let mp = example("mp.c");
    let (code, out, err) = porf(&["verify", &mp]);
    let (code2, out2, err2) = porf(&["verify", "--no-progress", &mp]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(code, code2, "{out2}{err2}");
    assert_eq!(err, err2);
    assert_eq!(out.lines().next(), out2.lines().next());
    assert!(!err.contains("executions,"), "{err}");
    assert!(!err.contains("in all (estimate"), "{err}");
}

#[test]
fn no_progress_is_a_flag_of_every_exploring_command() {
    let (code, out, err) = porf(&["example", "--no-progress", "sb"]);
    assert!(code == 0 || code == 42, "{out}{err}");
    assert!(!err.contains("unexpected argument"), "{err}");
}
