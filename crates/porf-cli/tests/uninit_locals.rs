//! Reads of uninitialised local variables (`tests/uninit/*.c`, buggy programs and
//! their `_fixed` variants): register locals, struct members, array elements,
//! locals whose address reaches another thread (plain reads and RMWs), out-parameters
//! in the caller's private frame, locals re-declared in a loop, and copies of partly
//! initialised structs (which are not errors themselves).
//!
//! Each file states, in `// porf-expect MODELS: ...` lines written by hand from the
//! program's semantics (`ALL` = every model), the error kinds porf must report with a
//! part of each message, or `safe`. Every explorer that applies must agree, with
//! `--keep-going`: the graph explorer in co and rf mode and the reference explorer
//! under every model, RF-SMC and RF-partSMC under sc, tso and pso, RVF-SMC under sc;
//! each error with a witness trace; a safe program with complete executions and exit
//! code 0, a buggy one with exit code 42.

mod common;
use common::porf;

use std::collections::BTreeSet;
use std::path::PathBuf;

const MODELS: [&str; 8] = ["sc", "tso", "pso", "ra", "rc11", "rc11-genmc", "wra", "sra"];

struct Expect {
    models: Vec<String>,
    /// (kind, message part) pairs; empty = safe.
    errors: Vec<(String, String)>,
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
                    let (kind, msg) = e.trim().split_once(' ').expect("KIND \"message part\"");
                    (kind.to_string(), msg.trim().trim_matches('"').to_string())
                })
                .collect()
        };
        out.push(Expect { models, errors });
    }
    assert!(!out.is_empty(), "{}: no porf-expect line", path.display());
    out
}

/// The explorer configurations that apply under `model`.
fn configs(model: &str) -> Vec<Vec<&'static str>> {
    let mut v = vec![
        vec!["--explorer", "graph"],
        vec!["--explorer", "graph", "--equiv", "rf"],
        vec!["--explorer", "reference"],
    ];
    if matches!(model, "sc" | "tso" | "pso") {
        v.push(vec!["--explorer", "rf-smc", "--equiv", "rf"]);
        v.push(vec!["--explorer", "rf-part-smc", "--equiv", "rf"]);
    }
    if model == "sc" {
        v.push(vec!["--equiv", "rvf"]);
    }
    v
}

fn check(path: &str, model: &str, config: &[&str], exp: &Expect) -> Result<(), String> {
    let mut args = vec!["verify", path, "--json", "--keep-going", "--model", model];
    args.extend_from_slice(config);
    let (code, out, err) = porf(&args);
    let v: serde_json::Value =
        serde_json::from_str(out.trim()).map_err(|e| format!("{e}: {out} {err}"))?;
    let errors = v["errors"].as_array().unwrap();
    let got: BTreeSet<&str> = errors.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    let want: BTreeSet<&str> = exp.errors.iter().map(|(k, _)| k.as_str()).collect();
    if got != want {
        return Err(format!("error kinds {got:?}, expected {want:?}: {v}"));
    }
    if want.is_empty() {
        if code != 0 || v["complete"].as_u64() == Some(0) {
            return Err(format!("expected safe with complete executions: {v}"));
        }
        return Ok(());
    }
    if code != 42 {
        return Err(format!("exit code {code}, expected 42: {v}"));
    }
    for (kind, part) in &exp.errors {
        let found = errors
            .iter()
            .any(|e| e["kind"] == kind.as_str() && e["message"].as_str().unwrap().contains(part));
        if !found {
            return Err(format!("no {kind} error mentioning {part:?}: {v}"));
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

#[test]
fn uninitialised_locals_are_reported_by_every_explorer_under_every_model() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/uninit");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    let (mut buggy, mut runs) = (0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        let mut covered = BTreeSet::new();
        for exp in parse_expectations(f) {
            for model in &exp.models {
                covered.insert(model.clone());
                for config in configs(model) {
                    runs += 1;
                    if let Err(e) = check(&path, model, &config, &exp) {
                        failures.push(format!("{path} under {model} {config:?}: {e}"));
                    }
                }
            }
        }
        assert_eq!(
            covered,
            MODELS.map(String::from).into(),
            "{path}: every model needs an expectation"
        );
        if !path.ends_with("_fixed.c") {
            buggy += 1;
            let fixed = f.with_file_name(format!(
                "{}_fixed.c",
                f.file_stem().unwrap().to_str().unwrap()
            ));
            assert!(fixed.is_file(), "{path} has no fixed variant");
        }
    }
    assert!(buggy >= 2, "at least two buggy programs");
    println!("uninitialised locals: {buggy} buggy programs and their fixed variants, {runs} runs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
