//! The C library and compiler surface real programs use (`tests/c/surface/*.c`):
//! thread-local storage, string literals, barriers, spin locks, GenMC's interface,
//! GCC builtins, `asm` compiler barriers, `memset`/`memcpy`, libc headers.
//!
//! Each file states what porf must answer in lines written by hand from the C
//! standard, POSIX, GCC's or GenMC's documentation and the reasoning in the file's
//! header (never pasted from porf's output):
//!
//! - `// expect MODELS: safe N`: no error, exit code 0, N complete executions;
//! - `// expect MODELS: KIND "message part"`: the first error has this kind (and its
//!   message contains the part), exit code 42;
//! - `// expect: rejected "message part"`: exit code 3 with a `file:line:col` message
//!   containing the part, under every model;
//! - `// expect-stderr: text`: stderr contains the text (e.g. a warning).

mod common;
use common::porf;

use std::path::PathBuf;

enum Want {
    Safe(u64),
    Error(String, Option<String>),
    Rejected(String),
}

fn expectations(text: &str, path: &str) -> (Vec<(Vec<String>, Want)>, Vec<String>) {
    let mut out = Vec::new();
    let mut stderr = Vec::new();
    for line in text.lines() {
        if let Some(s) = line.trim().strip_prefix("// expect-stderr:") {
            stderr.push(s.trim().to_string());
            continue;
        }
        let Some(rest) = line.trim().strip_prefix("// expect") else {
            continue;
        };
        let (models, what) = rest
            .split_once(':')
            .unwrap_or_else(|| panic!("{path}: bad expectation {line}"));
        let mut models: Vec<String> = models.split_whitespace().map(String::from).collect();
        if models.is_empty() {
            models = vec!["rc11".into(), "sc".into()];
        }
        let what = what.trim();
        let quoted = |s: &str| s.trim().trim_matches('"').to_string();
        let want = if let Some(n) = what.strip_prefix("safe ") {
            Want::Safe(n.trim().parse().expect("a count"))
        } else if let Some(m) = what.strip_prefix("rejected ") {
            Want::Rejected(quoted(m))
        } else {
            match what.split_once(' ') {
                Some((kind, msg)) => Want::Error(kind.into(), Some(quoted(msg))),
                None => Want::Error(what.into(), None),
            }
        };
        out.push((models, want));
    }
    assert!(!out.is_empty(), "{path}: no expectation");
    (out, stderr)
}

#[test]
fn surface_programs_give_the_stated_answers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/surface");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the surface programs are missing");
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        let (wants, stderr_parts) = expectations(&std::fs::read_to_string(f).unwrap(), &path);
        for (models, want) in &wants {
            for model in models {
                let (code, out, err) = porf(&[
                    "verify",
                    &path,
                    "--json",
                    "--model",
                    model,
                    "--timeout",
                    "60",
                ]);
                for part in &stderr_parts {
                    if !err.contains(part.as_str()) {
                        failures.push(format!("{path} {model}: stderr lacks `{part}`: {err}"));
                    }
                }
                let fail = |why: String| format!("{path} {model}: {why}\n{out}{err}");
                match want {
                    Want::Rejected(part) => {
                        if code != 3 || !err.contains(part.as_str()) || !err.contains(".c:") {
                            failures.push(fail(format!("want rejected `{part}`, exit {code}")));
                        }
                    }
                    Want::Safe(n) => {
                        let v: serde_json::Value = match serde_json::from_str(out.trim()) {
                            Ok(v) => v,
                            Err(e) => {
                                failures.push(fail(format!("no JSON ({e})")));
                                continue;
                            }
                        };
                        if code != 0 || v["complete"].as_u64() != Some(*n) {
                            failures
                                .push(fail(format!("want safe with {n} complete, exit {code}")));
                        }
                    }
                    Want::Error(kind, part) => {
                        let v: serde_json::Value = match serde_json::from_str(out.trim()) {
                            Ok(v) => v,
                            Err(e) => {
                                failures.push(fail(format!("no JSON ({e})")));
                                continue;
                            }
                        };
                        let first = &v["errors"][0];
                        let ok = code == 42
                            && first["kind"].as_str() == Some(kind.as_str())
                            && part.as_ref().is_none_or(|p| {
                                first["message"]
                                    .as_str()
                                    .is_some_and(|m| m.contains(p.as_str()))
                            });
                        if !ok {
                            failures.push(fail(format!("want {kind} {part:?}, exit {code}")));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
