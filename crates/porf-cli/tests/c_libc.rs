//! libc functions, nondeterministic values and the race-detection switch
//! (`tests/c/libc/*.c`): `<string.h>` (`strlen`, `strcmp`, `strcpy`, `memcmp`),
//! `calloc`, `realloc(NULL, n)`, `exit`, invalid `malloc` sizes, `sched_yield`,
//! `usleep`, `sleep`, `__VERIFIER_nondet_*` with `--nondet-range`, and
//! `--disable-race-detection`.
//!
//! Each file states what porf must answer in lines written by hand from the C
//! standard, GenMC's behaviour and the reasoning in the file's header (never pasted
//! from porf's output):
//!
//! - `// expect MODELS [| FLAGS]: safe N [blocked B]`: no error, exit code 0, N
//!   complete executions (and B blocked ones);
//! - `// expect MODELS [| FLAGS]: KIND ["message part"]`: the first error has this
//!   kind (and its message contains the part), exit code 42;
//! - `// expect MODELS [| FLAGS]: rejected "message part"`: exit code 3 with a
//!   `file:line:col: unsupported:` message containing the part.

mod common;
use common::porf;

use std::path::PathBuf;

enum Want {
    Safe(u64, Option<u64>),
    Error(String, Option<String>),
    Rejected(String),
}

struct Expect {
    models: Vec<String>,
    flags: Vec<String>,
    want: Want,
}

fn expectations(text: &str, path: &str) -> Vec<Expect> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("// expect ") else {
            continue;
        };
        let (head, what) = rest
            .split_once(": ")
            .unwrap_or_else(|| panic!("{path}: bad expectation {line}"));
        let (models, flags) = head.split_once('|').unwrap_or((head, ""));
        let models: Vec<String> = models.split_whitespace().map(String::from).collect();
        assert!(!models.is_empty(), "{path}: no model in {line}");
        let flags = flags.split_whitespace().map(String::from).collect();
        let what = what.trim();
        let quoted = |s: &str| s.trim().trim_matches('"').to_string();
        let want = if let Some(n) = what.strip_prefix("safe ") {
            let mut it = n.split_whitespace();
            let complete = it.next().expect("a count").parse().expect("a count");
            let blocked = match (it.next(), it.next()) {
                (Some("blocked"), Some(b)) => Some(b.parse().expect("a blocked count")),
                (None, _) => None,
                _ => panic!("{path}: bad expectation {line}"),
            };
            Want::Safe(complete, blocked)
        } else if let Some(m) = what.strip_prefix("rejected ") {
            Want::Rejected(quoted(m))
        } else {
            match what.split_once(' ') {
                Some((kind, msg)) => Want::Error(kind.into(), Some(quoted(msg))),
                None => Want::Error(what.into(), None),
            }
        };
        out.push(Expect {
            models,
            flags,
            want,
        });
    }
    assert!(!out.is_empty(), "{path}: no expectation");
    out
}

/// Checks one run against `want`; the failure, if any.
fn judge(want: &Want, code: i32, out: &str, err: &str) -> Option<String> {
    let json = || serde_json::from_str::<serde_json::Value>(out.trim()).ok();
    match want {
        Want::Rejected(part) => {
            let ok = code == 3 && err.contains(part.as_str()) && err.contains(": unsupported: ");
            (!ok).then(|| format!("want rejected `{part}`, exit {code}"))
        }
        Want::Safe(n, blocked) => {
            let Some(v) = json() else {
                return Some("no JSON".into());
            };
            let ok = code == 0
                && v["complete"].as_u64() == Some(*n)
                && blocked.is_none_or(|b| v["blocked"].as_u64() == Some(b));
            (!ok).then(|| format!("want safe with {n} complete, {blocked:?} blocked, exit {code}"))
        }
        Want::Error(kind, part) => {
            let Some(v) = json() else {
                return Some("no JSON".into());
            };
            let first = &v["errors"][0];
            let ok = code == 42
                && first["kind"].as_str() == Some(kind.as_str())
                && part.as_ref().is_none_or(|p| {
                    first["message"]
                        .as_str()
                        .is_some_and(|m| m.contains(p.as_str()))
                });
            (!ok).then(|| format!("want {kind} {part:?}, exit {code}"))
        }
    }
}

#[test]
fn libc_programs_give_the_stated_answers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/libc");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 16, "the libc programs are missing");
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        for e in expectations(&std::fs::read_to_string(f).unwrap(), &path) {
            for model in &e.models {
                let mut args = vec![
                    "verify",
                    &path,
                    "--json",
                    "--model",
                    model,
                    "--timeout",
                    "60",
                ];
                args.extend(e.flags.iter().map(String::as_str));
                let (code, out, err) = porf(&args);
                if let Some(why) = judge(&e.want, code, &out, &err) {
                    failures.push(format!("{}: {why}\n{out}{err}", args.join(" ")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn nondet_range_is_checked() {
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/libc/nondet_bug.c");
    let f = f.display().to_string();
    for bad in ["3..1", "1-2", "0..99999999", "x..2"] {
        let (code, _, err) = porf(&["verify", &f, "--nondet-range", bad]);
        assert_eq!(code, 2, "--nondet-range {bad}: {err}");
    }
    // A negative low end is a value, not a flag.
    let (code, _, err) = porf(&["verify", &f, "--nondet-range", "-2..0"]);
    assert_eq!(code, 42, "{err}");
}
