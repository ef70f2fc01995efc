//! Buggy programs and their fixed variants (`tests/errors/*.c`): memory errors across
//! threads, mutex misuse, `main(argc, argv)`.
//!
//! Each file states what porf must answer, per model, in lines of the form
//! `// porf-expect MODELS: safe` or `// porf-expect MODELS: KIND "message part"; KIND`,
//! written by hand from the program's semantics (never pasted from porf's output).
//! With `--keep-going`, the set of error kinds porf reports must be exactly the
//! expected one, each expected message part must appear in an error of its kind, and
//! every error must come with a witness trace; a safe program must have at least one
//! complete execution. The reference explorer, and rf mode, must report the same error
//! kinds.

mod common;
use common::porf;

use std::collections::BTreeSet;
use std::path::PathBuf;

struct Expect {
    models: Vec<String>,
    /// (kind, message part) pairs; empty = safe.
    errors: Vec<(String, Option<String>)>,
}

fn parse_expectations(path: &PathBuf) -> Vec<Expect> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("// porf-expect ") else {
            continue;
        };
        let (models, what) = rest
            .split_once(':')
            .unwrap_or_else(|| panic!("{}: bad expectation {line}", path.display()));
        let models = models.split_whitespace().map(String::from).collect();
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

fn run(path: &str, model: &str, explorer: &str) -> (i32, serde_json::Value) {
    let (code, out, err) = porf(&[
        "verify",
        path,
        "--json",
        "--keep-going",
        "--model",
        model,
        "--explorer",
        explorer,
    ]);
    let v = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("{path} {model}: {e}: {out} {err}"));
    (code, v)
}

/// The same run with `--equiv rf` (errors depend on rf and hb only, so rf mode must
/// report the same kinds).
fn run_rf(path: &str, model: &str) -> (i32, serde_json::Value) {
    let args = [
        "verify",
        path,
        "--json",
        "--keep-going",
        "--model",
        model,
        "--equiv",
        "rf",
    ];
    let (code, out, err) = porf(&args);
    let v = serde_json::from_str(out.trim())
        .unwrap_or_else(|e| panic!("{path} {model} rf: {e}: {out} {err}"));
    (code, v)
}

fn kinds(v: &serde_json::Value) -> BTreeSet<String> {
    v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_string())
        .collect()
}

fn check(path: &str, model: &str, exp: &Expect) -> Result<(), String> {
    let (code, v) = run(path, model, "graph");
    let got = kinds(&v);
    let want: BTreeSet<String> = exp.errors.iter().map(|(k, _)| k.clone()).collect();
    if got != want {
        return Err(format!("error kinds {got:?}, expected {want:?}: {v}"));
    }
    if want.is_empty() {
        if code != 0 || v["complete"].as_u64() == Some(0) {
            return Err(format!("expected safe with complete executions: {v}"));
        }
    } else if code != 42 {
        return Err(format!("exit code {code}, expected 42"));
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
    let (_, r) = run(path, model, "reference");
    if kinds(&r) != got {
        return Err(format!(
            "the reference explorer reports {:?}: {r}",
            kinds(&r)
        ));
    }
    let (_, r) = run_rf(path, model);
    if kinds(&r) != got {
        return Err(format!("rf mode reports {:?}: {r}", kinds(&r)));
    }
    Ok(())
}

#[test]
fn buggy_programs_are_caught_and_fixed_ones_proved_safe() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/errors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    let (mut buggy, mut fixed) = (0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        let mut covered = BTreeSet::new();
        for exp in parse_expectations(f) {
            for model in &exp.models {
                covered.insert(model.clone());
                if let Err(e) = check(&path, model, &exp) {
                    failures.push(format!("{path} under {model}: {e}"));
                }
            }
        }
        assert_eq!(
            covered,
            ["ra", "rc11", "sc", "tso"].map(String::from).into(),
            "{path}: every model needs an expectation"
        );
        if path.ends_with("_fixed.c") {
            fixed += 1;
        } else {
            buggy += 1;
            assert!(
                dir.join(f.file_stem().unwrap().to_str().unwrap().to_string() + "_fixed.c")
                    .is_file(),
                "{path} has no fixed variant"
            );
        }
    }
    println!("errors: {buggy} buggy programs, {fixed} fixed variants, 4 models each");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
