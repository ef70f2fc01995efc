//! The expectations of the error suites (`tests/errors`, `tests/uninit`): lines
//! `// porf-expect MODELS: safe` or `// porf-expect MODELS: KIND "message part"; KIND`
//! (`ALL` = every model), written by hand from the program's semantics, and the check
//! of a `porf verify --json --keep-going` answer against one.

use std::collections::BTreeSet;
use std::path::Path;

/// Every memory model, for `ALL`.
pub const MODELS: [&str; 8] = ["sc", "tso", "pso", "ra", "rc11", "rc11-genmc", "wra", "sra"];

/// One `porf-expect` line.
pub struct Expect {
    pub models: Vec<String>,
    /// (kind, message part) pairs; empty = safe.
    pub errors: Vec<(String, Option<String>)>,
}

/// The `porf-expect` lines of `path` (at least one).
pub fn parse(path: &Path) -> Vec<Expect> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("// porf-expect ") else {
            continue;
        };
        let (models, what) = rest
            .split_once(':')
            .unwrap_or_else(|| panic!("{}: bad expectation {line}", path.display()));
        let models = models
            .split_whitespace()
            .flat_map(|m| match m {
                "ALL" => MODELS.map(String::from).to_vec(),
                m => vec![m.to_string()],
            })
            .collect();
        let what = what.trim();
        let errors = if what == "safe" {
            Vec::new()
        } else {
            what.split(';')
                .map(|e| {
                    let e = e.trim();
                    match e.split_once(' ') {
                        Some((kind, msg)) => (
                            kind.to_string(),
                            Some(msg.trim().trim_matches('"').to_string()),
                        ),
                        None => (e.to_string(), None),
                    }
                })
                .collect()
        };
        out.push(Expect { models, errors });
    }
    assert!(!out.is_empty(), "{}: no porf-expect line", path.display());
    out
}

/// The kinds of the errors of a JSON answer.
pub fn kinds(v: &serde_json::Value) -> BTreeSet<String> {
    v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect()
}

/// Whether the answer (`code`, `v`) of a `--keep-going` run is what `exp` says: exactly
/// its error kinds, each message part in an error of its kind, every error with a
/// witness trace; exit code 42 if there are errors, else 0 with complete executions.
pub fn check_answer(code: i32, v: &serde_json::Value, exp: &Expect) -> Result<(), String> {
    let got = kinds(v);
    let want: BTreeSet<String> = exp.errors.iter().map(|(k, _)| k.clone()).collect();
    if got != want {
        return Err(format!("error kinds {got:?}, expected {want:?}: {v}"));
    }
    if want.is_empty() {
        if code != 0 || v["complete"].as_u64() == Some(0) {
            return Err(format!("expected safe with complete executions: {v}"));
        }
    } else if code != 42 {
        return Err(format!("exit code {code}, expected 42: {v}"));
    }
    let errors = v["errors"].as_array().unwrap();
    for (kind, part) in &exp.errors {
        if let Some(part) = part {
            let found = errors.iter().any(|e| {
                e["kind"] == kind.as_str() && e["message"].as_str().unwrap().contains(part)
            });
            if !found {
                return Err(format!("no {kind} error mentioning {part:?}: {v}"));
            }
        }
    }
    if let Some(e) = errors
        .iter()
        .find(|e| e["trace"].as_array().is_none_or(|t| t.is_empty()))
    {
        return Err(format!("error without a witness trace: {e}"));
    }
    Ok(())
}
