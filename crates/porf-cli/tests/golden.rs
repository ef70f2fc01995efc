//! Golden outputs: the exact text a user sees for a set of commands.
//!
//! Each case is a file `tests/golden/<name>.txt` that starts with one command line
//! `$ porf ARGS` (run from `crates/porf-cli/tests`, so paths in the output are short and
//! stable), followed by the expected `--- stdout`, `--- stderr` and `--- exit N` sections.
//! Timings and machine-dependent figures are normalised by [`normalise`] before comparing.
//!
//! The expected sections are written by porf itself and reviewed by hand once:
//! `scripts/bless_golden.sh` (or `PORF_BLESS=1 cargo test -p porf-cli --test golden`)
//! rewrites every case from the current binary; `git diff` then shows what a user would
//! see change. A new case is a file holding only its `$ porf ...` line, blessed once.

mod common;

use common::normalise;
use std::fs;
use std::path::{Path, PathBuf};

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

struct Case {
    command: String,
    stdout: String,
    stderr: String,
    exit: i32,
}

/// Splits `$ porf ARGS` into its arguments: whitespace-separated, `'...'` quoting one.
fn args_of(command: &str) -> Vec<String> {
    let rest = command
        .strip_prefix("$ porf ")
        .unwrap_or_else(|| panic!("a golden case starts with `$ porf `: {command}"));
    common::shell_words(rest)
}

fn run(command: &str) -> Case {
    let args = args_of(command);
    let tests = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_porf"))
        .args(&args)
        .current_dir(&tests)
        .env_remove("PORF_THREADS")
        .output()
        .expect("cannot run porf");
    Case {
        command: command.to_string(),
        stdout: normalise(&String::from_utf8_lossy(&out.stdout)),
        stderr: normalise(&String::from_utf8_lossy(&out.stderr)),
        exit: out.status.code().unwrap_or(-1),
    }
}

fn render(c: &Case) -> String {
    let mut s = format!("{}\n--- stdout\n{}", c.command, c.stdout);
    if !c.stdout.is_empty() {
        s.push('\n');
    }
    s.push_str("--- stderr\n");
    s.push_str(&c.stderr);
    if !c.stderr.is_empty() {
        s.push('\n');
    }
    s.push_str(&format!("--- exit {}\n", c.exit));
    s
}

fn cases() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(golden_dir())
        .expect("tests/golden")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    v.sort();
    v
}

fn check(path: &Path, bless: bool) -> Option<String> {
    let text = fs::read_to_string(path).unwrap();
    let command = text.lines().next().unwrap_or_default().to_string();
    let got = render(&run(&command));
    if bless {
        if got != text {
            fs::write(path, &got).unwrap();
        }
        return None;
    }
    (got != text).then(|| {
        format!(
            "{}: output differs (re-bless with scripts/bless_golden.sh and review the diff)\n\
             --- expected\n{text}--- got\n{got}",
            path.display()
        )
    })
}

#[test]
fn golden_outputs_match() {
    let bless = std::env::var_os("PORF_BLESS").is_some();
    let failures: Vec<String> = cases().iter().filter_map(|p| check(p, bless)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn arguments_split_like_a_shell() {
    assert_eq!(
        args_of("$ porf verify 'a b.c'  -DN=2"),
        vec!["verify", "a b.c", "-DN=2"]
    );
}
