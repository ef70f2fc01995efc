//! Directories of C programs that state, in comments, what `porf verify` must answer
//! (the C-surface, libc, pthreads and C-construct suites). The expectations are
//! written by hand from the C standard, POSIX, GCC's or GenMC's documentation and the
//! reasoning in each file's header, never pasted from porf's output:
//!
//! - `// args: ARGS`: extra arguments of `porf verify` for every run of the file;
//! - `// expect MODELS [| FLAGS]: safe N [blocked B]`: no error in a complete
//!   exploration, exit code 0, N complete executions (and, if given, B blocked ones;
//!   none cut by a bound);
//! - `// expect MODELS [| FLAGS]: incomplete N [blocked B] [cut C] [by LIMIT]`: no
//!   error, but a bound cut executions: verdict `incomplete`, exit code 4, N complete
//!   executions (and, if given, B blocked ones, C of them cut by a bound, and
//!   `stopped_by` LIMIT, one word: `loop` for `loop bound`, `recursion` for
//!   `recursion limit`);
//! - `// expect MODELS [| FLAGS]: KIND ["message part"]`: the first error has this kind
//!   (and its message contains the part), exit code 42;
//! - `// expect MODELS [| FLAGS]: rejected "message part"`: exit code 3 with a message
//!   containing the part and the suite's position mark;
//! - `// expect-stderr: text`: stderr contains the text (e.g. a warning).
//!
//! MODELS may be empty (`// expect: ...`): rc11 and sc. FLAGS are added to that line's
//! runs only.

use super::porf;
use std::path::PathBuf;

enum Want {
    /// Complete executions, and optionally blocked ones and bound cuts.
    Safe(u64, Option<u64>, Option<u64>),
    /// The same counts of a run cut by a bound, and optionally the limit's name.
    Incomplete(u64, Option<u64>, Option<u64>, Option<String>),
    Error(String, Option<String>),
    Rejected(String),
}

struct Expect {
    models: Vec<String>,
    flags: Vec<String>,
    want: Want,
}

/// What one file asks for.
struct Spec {
    args: Vec<String>,
    expects: Vec<Expect>,
    stderr: Vec<String>,
}

/// `N [blocked B] [cut C] [by LIMIT]` after `safe` (`complete` false: no `cut` but
/// 0, no `by`) or `incomplete`.
fn counts(what: &str, path: &str, complete: bool) -> Want {
    let words: Vec<&str> = what.split_whitespace().collect();
    let num = |s: &str| -> u64 { s.parse().unwrap_or_else(|_| panic!("{path}: count {s}")) };
    let (mut blocked, mut cut, mut by) = (None, None, None);
    for pair in words[1..].chunks(2) {
        match pair {
            ["blocked", n] => blocked = Some(num(n)),
            ["cut", n] if !complete || num(n) == 0 => cut = Some(num(n)),
            ["by", "loop"] if !complete => by = Some("loop bound".to_string()),
            ["by", "recursion"] if !complete => by = Some("recursion limit".to_string()),
            _ => panic!("{path}: bad expectation {what}"),
        }
    }
    if complete {
        Want::Safe(num(words[0]), blocked, Some(0))
    } else {
        Want::Incomplete(num(words[0]), blocked, cut, by)
    }
}

fn spec(text: &str, path: &str) -> Spec {
    let mut s = Spec {
        args: Vec::new(),
        expects: Vec::new(),
        stderr: Vec::new(),
    };
    for line in text.lines() {
        let line = line.trim();
        if let Some(a) = line.strip_prefix("// args:") {
            s.args.extend(a.split_whitespace().map(String::from));
            continue;
        }
        if let Some(e) = line.strip_prefix("// expect-stderr:") {
            s.stderr.push(e.trim().to_string());
            continue;
        }
        let Some(rest) = line.strip_prefix("// expect") else {
            continue;
        };
        let (head, what) = rest
            .split_once(':')
            .unwrap_or_else(|| panic!("{path}: bad expectation {line}"));
        let (models, flags) = head.split_once('|').unwrap_or((head, ""));
        let mut models: Vec<String> = models.split_whitespace().map(String::from).collect();
        if models.is_empty() {
            models = vec!["rc11".into(), "sc".into()];
        }
        let flags = flags.split_whitespace().map(String::from).collect();
        let what = what.trim();
        let quoted = |s: &str| s.trim().trim_matches('"').to_string();
        let want = if let Some(n) = what.strip_prefix("safe ") {
            counts(n, path, true)
        } else if let Some(n) = what.strip_prefix("incomplete ") {
            counts(n, path, false)
        } else if let Some(m) = what.strip_prefix("rejected ") {
            Want::Rejected(quoted(m))
        } else {
            match what.split_once(' ') {
                Some((kind, msg)) => Want::Error(kind.into(), Some(quoted(msg))),
                None => Want::Error(what.into(), None),
            }
        };
        s.expects.push(Expect {
            models,
            flags,
            want,
        });
    }
    assert!(!s.expects.is_empty(), "{path}: no expectation");
    s
}

/// Checks one run against `want`; returns why it does not match. A rejection's
/// message must contain `reject_mark` (e.g. `.c:` for a position in the program,
/// `: unsupported:` where the position may lie in a bundled header).
fn check(want: &Want, reject_mark: &str, code: i32, out: &str, err: &str) -> Option<String> {
    if let Want::Rejected(part) = want {
        let ok = code == 3 && err.contains(part.as_str()) && err.contains(reject_mark);
        return (!ok).then(|| format!("want rejected `{part}`, exit {code}"));
    }
    let v: serde_json::Value = match serde_json::from_str(out.trim()) {
        Ok(v) => v,
        Err(e) => return Some(format!("no JSON ({e})")),
    };
    match want {
        Want::Safe(n, blocked, cut) => {
            let ok = code == 0
                && v["verdict"] == "safe"
                && v["complete"].as_u64() == Some(*n)
                && blocked.is_none_or(|b| v["blocked"].as_u64() == Some(b))
                && cut.is_none_or(|c| v["bound_cut"].as_u64() == Some(c));
            (!ok).then(|| {
                format!(
                    "want safe with {n} complete, {blocked:?} blocked, {cut:?} cut, exit {code}"
                )
            })
        }
        Want::Incomplete(n, blocked, cut, by) => {
            let ok = code == 4
                && v["verdict"] == "incomplete"
                && v["complete"].as_u64() == Some(*n)
                && blocked.is_none_or(|b| v["blocked"].as_u64() == Some(b))
                && cut.is_none_or(|c| v["bound_cut"].as_u64() == Some(c))
                && by
                    .as_ref()
                    .is_none_or(|b| v["stopped_by"].as_str() == Some(b.as_str()));
            (!ok).then(|| {
                format!(
                    "want incomplete with {n} complete, {blocked:?} blocked, {cut:?} cut, \
                     stopped by {by:?}, exit {code}"
                )
            })
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
            (!ok).then(|| format!("want {kind} {part:?}, exit {code}"))
        }
        Want::Rejected(_) => unreachable!(),
    }
}

/// Runs every `.c` file of `dir` (relative to the crate) under each model its
/// expectations name and checks the answers; `at_least` guards against a missing
/// directory. Panics with every mismatch.
pub fn run_dir(dir: &str, at_least: usize, reject_mark: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(
        files.len() >= at_least,
        "the programs of {} are missing",
        dir.display()
    );
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        let s = spec(&std::fs::read_to_string(f).unwrap(), &path);
        for e in &s.expects {
            for model in &e.models {
                let mut args: Vec<&str> = vec!["verify", &path, "--json", "--model", model];
                args.extend(["--timeout", "60"]);
                args.extend(s.args.iter().chain(&e.flags).map(String::as_str));
                let (code, out, err) = porf(&args);
                for part in &s.stderr {
                    if !err.contains(part.as_str()) {
                        failures.push(format!("{path} {model}: stderr lacks `{part}`: {err}"));
                    }
                }
                if let Some(why) = check(&e.want, reject_mark, code, &out, &err) {
                    failures.push(format!("{}: {why}\n{out}{err}", args.join(" ")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
