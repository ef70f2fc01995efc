//! The pthreads and C11 `<threads.h>` surface (`tests/c/pthreads/*.c`): mutex types
//! (recursive, error-checking), condition variables, read-write locks, `pthread_once`,
//! thread-specific data, and the C11 wrappers.
//!
//! Each file states what porf must answer in lines written by hand from POSIX, the C
//! standard and the reasoning in the file's header (never pasted from porf's output):
//!
//! - `// expect MODELS: safe N`: no error, exit code 0, N complete executions;
//! - `// expect MODELS: KIND "message part"`: the first error has this kind (and its
//!   message contains the part), exit code 42;
//! - `// expect MODELS: rejected "message part"`: exit code 3 and a `file:line:col:
//!   unsupported:` message containing the part (the position may be in porf's bundled
//!   header that implements the function).

mod common;
use common::porf;

use std::path::PathBuf;

enum Want {
    Safe(u64),
    Error(String, Option<String>),
    Rejected(String),
}

fn expectations(text: &str, path: &str) -> Vec<(Vec<String>, Want)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("// expect") else {
            continue;
        };
        let (models, what) = rest
            .split_once(':')
            .unwrap_or_else(|| panic!("{path}: bad expectation {line}"));
        let models: Vec<String> = models.split_whitespace().map(String::from).collect();
        assert!(!models.is_empty(), "{path}: no models in {line}");
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
    out
}

#[test]
fn pthreads_programs_give_the_stated_answers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/pthreads");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the pthreads programs are missing");
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        for (models, want) in &expectations(&std::fs::read_to_string(f).unwrap(), &path) {
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
                let fail = |why: String| format!("{path} {model}: {why}\n{out}{err}");
                if let Want::Rejected(part) = want {
                    if code != 3 || !err.contains(part.as_str()) || !err.contains(": unsupported:")
                    {
                        failures.push(fail(format!("want rejected `{part}`, exit {code}")));
                    }
                    continue;
                }
                let v: serde_json::Value = match serde_json::from_str(out.trim()) {
                    Ok(v) => v,
                    Err(e) => {
                        failures.push(fail(format!("no JSON ({e})")));
                        continue;
                    }
                };
                match want {
                    Want::Safe(n) => {
                        if code != 0 || v["complete"].as_u64() != Some(*n) {
                            failures
                                .push(fail(format!("want safe with {n} complete, exit {code}")));
                        }
                    }
                    Want::Error(kind, part) => {
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
                    Want::Rejected(_) => unreachable!(),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
