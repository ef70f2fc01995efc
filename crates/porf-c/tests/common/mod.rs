//! What the differential tests of random C programs share: their environment
//! variables, compiling a generated text through a temporary file, the run options of
//! `porf verify` with spin-assume, the comparisons of two explorations they have in
//! common, and a [`Campaign`] that gathers the failures of a model's programs and
//! asserts at its end.
#![allow(dead_code)]

use porf_c::{compile_file, CProgram, FrontOptions, RunOptions};
use porf_explore::Stats;
use std::fmt::{Debug, Display};
use std::ops::Range;

/// The value of the environment variable `var` as a number, or `default`.
pub fn env(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The seeds of a run: from `{prefix}_FIRST` (default 0), `{prefix}_PROGRAMS` of them
/// (default `programs`).
pub fn seeds(prefix: &str, programs: u64) -> Range<u64> {
    let first = env(&format!("{prefix}_FIRST"), 0);
    first..first + env(&format!("{prefix}_PROGRAMS"), programs)
}

/// Compiles `text` with porf's front end through the temporary file
/// `porf-{kind}-{pid}-{tag}.c` (removed again); the diagnostic as text if it is
/// rejected.
pub fn try_compile(text: &str, kind: &str, tag: &str, run: RunOptions) -> Result<CProgram, String> {
    let path = std::env::temp_dir().join(format!("porf-{kind}-{}-{tag}.c", std::process::id()));
    std::fs::write(&path, text).map_err(|e| e.to_string())?;
    let module = compile_file(&path, &FrontOptions::default());
    let _ = std::fs::remove_file(&path);
    module
        .map(|m| CProgram::new(m, run))
        .map_err(|d| d.to_string())
}

/// [`try_compile`] of a text that must compile: panics with the diagnostic and the
/// text.
pub fn compile(text: &str, kind: &str, tag: &str, run: RunOptions) -> CProgram {
    try_compile(text, kind, tag, run).unwrap_or_else(|d| panic!("{d}\n{text}"))
}

/// The run options `porf verify --model MODEL --unroll UNROLL` sets: spin-assume, its
/// private-write rule except under pso and wra, and the loop bound.
pub fn verify_spin_run(model: &str, unroll: u32) -> RunOptions {
    RunOptions {
        spin_assume: true,
        spin_private_writes: !matches!(model, "pso" | "wra"),
        unroll: Some(unroll),
        ..RunOptions::default()
    }
}

/// Adds to `d` the difference between `a` and `b` named `what`, if they differ.
pub fn differ<T: PartialEq + Debug>(d: &mut Vec<String>, what: &str, a: &T, b: &T) {
    if a != b {
        d.push(format!("{what}\n    {a:?}\n    {b:?}"));
    }
}

/// Where `a` and `b` (`what`: which runs, e.g. `"on / off"`) reach other final states
/// of complete executions or other errors (class and source locations).
pub fn outcome_diffs(what: &str, a: &Stats, b: &Stats) -> Vec<String> {
    let mut d = Vec::new();
    differ(
        &mut d,
        &format!("{what}: final states"),
        &a.final_states,
        &b.final_states,
    );
    differ(
        &mut d,
        &format!("{what}: errors"),
        &a.error_keys(),
        &b.error_keys(),
    );
    d
}

/// The failures of one model's programs, and the programs not compared because an
/// exploration hit its time limit.
pub struct Campaign {
    model: String,
    failures: Vec<String>,
    stopped: Vec<String>,
}

impl Campaign {
    pub fn new(model: &str) -> Campaign {
        Campaign {
            model: model.to_string(),
            failures: Vec::new(),
            stopped: Vec::new(),
        }
    }

    /// Program `which` is not compared: one of its explorations hit the time limit.
    pub fn stopped(&mut self, which: impl Display) {
        self.stopped.push(which.to_string());
    }

    /// Records the differences `d` found on program `which` (`text`), if any.
    pub fn check(&mut self, which: impl Display, text: &str, d: Vec<String>) {
        if !d.is_empty() {
            self.failures.push(format!(
                "model {}, {which}:\n  {}\n{text}",
                self.model,
                d.join("\n  ")
            ));
        }
    }

    /// Prints `summary` and, if programs may go uncompared (`one_in` is given), which
    /// were not; then asserts that at most one in `one_in` of the `programs` was not
    /// compared and that no program failed.
    pub fn finish(self, summary: &str, programs: u64, one_in: Option<u64>) {
        let model = &self.model;
        let stopped = &self.stopped;
        if one_in.is_none() {
            eprintln!("{model}: {summary}");
        } else {
            eprintln!("{model}: {summary}; not compared (time limit): {stopped:?}");
        }
        if let Some(k) = one_in {
            assert!(
                stopped.len() as u64 * k <= programs,
                "{model}: too many programs hit the time limit: {stopped:?}"
            );
        }
        assert!(self.failures.is_empty(), "{}", self.failures.join("\n\n"));
    }
}
