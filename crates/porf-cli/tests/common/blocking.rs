//! The programs that block (every C test program of the repository and the shared
//! conformance programs with locks, assumes and spin loops) run by `porf verify --json`
//! under rc11 and tso, at the defaults and with one flag: what the tests of options
//! that change only blocked executions (`tests/stale_blocks.rs`) compare. Where a
//! program sets flags in its header (`--nondet-range`, `-D`) it runs without them.

use super::{c_files, conformance, porf};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// What one run answered.
pub struct Run {
    pub code: i32,
    /// The JSON verdict, or the error text of a program rejected before exploring.
    pub verdict: String,
    pub complete: u64,
    /// The errors' messages.
    pub errors: BTreeSet<String>,
    pub blocked: u64,
    /// Whether the time limit cut the exploration.
    pub partial: bool,
}

/// `porf verify --json --threads 1 ARGS`.
pub fn run(args: &[&str]) -> Run {
    let mut a = vec!["verify", "--json", "--threads", "1"];
    a.extend_from_slice(args);
    let (code, out, err) = porf(&a);
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&out) else {
        // Rejected before exploring (unsupported construct, bad input): the error text.
        return Run {
            code,
            verdict: err,
            complete: 0,
            errors: BTreeSet::new(),
            blocked: 0,
            partial: false,
        };
    };
    Run {
        code,
        verdict: v["verdict"].to_string(),
        complete: v["complete"].as_u64().unwrap_or(0),
        errors: v["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| e["message"].to_string())
            .collect(),
        blocked: v["blocked"].as_u64().unwrap_or(0),
        partial: v["partial"].as_bool().unwrap_or(false),
    }
}

/// The programs, each with its `-D` flags.
pub fn programs() -> Vec<(PathBuf, Vec<&'static str>)> {
    let files = c_files(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c"));
    let conf = PathBuf::from(conformance("mutex_counter.c"))
        .parent()
        .unwrap()
        .to_path_buf();
    let mut cases: Vec<(PathBuf, Vec<&str>)> = files.into_iter().map(|f| (f, vec![])).collect();
    for (f, d) in [
        ("mutex_counter.c", "-DN=4"),
        ("mutex_counter.c", "-DN=3 -DK=2"),
        ("ticketlock.c", "-DN=3"),
        ("spinlock_cas.c", "-DN=3"),
        ("seqlock.c", "-DN=2"),
        ("peterson_sc.c", "-DN=2"),
        ("peterson_ra.c", "-DN=2"),
    ] {
        cases.push((conf.join(f), d.split(' ').collect()));
    }
    cases
}

/// One program under one model, at the defaults and with the flag.
pub struct Pair {
    /// The program, its `-D` flags and the model.
    pub what: String,
    pub default: Run,
    pub flagged: Run,
}

impl Pair {
    /// Both runs, for a failure message (`flag` names the second).
    pub fn describe(&self, flag: &str) -> String {
        let (a, b) = (&self.default, &self.flagged);
        format!(
            "{}: default: exit {}, {}, {} complete, {} blocked, errors {:?}; {flag}: exit {}, {}, {} complete, {} blocked, errors {:?}",
            self.what, a.code, a.verdict, a.complete, a.blocked, a.errors,
            b.code, b.verdict, b.complete, b.blocked, b.errors
        )
    }
}

/// Every program of [`programs`] under rc11 and tso with `--timeout 3` and `extra`,
/// at the defaults and with `flag`: the pairs in which neither run hit the time limit,
/// and how many did.
pub fn pairs(extra: &[&str], flag: &str) -> (Vec<Pair>, usize) {
    let (mut pairs, mut skipped) = (Vec::new(), 0);
    for (path, defines) in &programs() {
        for model in ["rc11", "tso"] {
            let p = path.display().to_string();
            let mut args = extra.to_vec();
            args.extend(["--model", model, "--timeout", "3"]);
            args.extend_from_slice(defines);
            args.push(&p);
            let default = run(&args);
            args.insert(0, flag);
            let flagged = run(&args);
            if default.partial || flagged.partial {
                skipped += 1;
                continue;
            }
            pairs.push(Pair {
                what: format!("{p} {defines:?} {model}"),
                default,
                flagged,
            });
        }
    }
    (pairs, skipped)
}
