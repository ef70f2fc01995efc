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
use common::porf_expect::{check_answer, parse, Expect, MODELS};

use std::collections::BTreeSet;
use std::path::PathBuf;

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
    check_answer(code, &v, exp)
}

#[test]
fn uninitialised_locals_are_reported_by_every_explorer_under_every_model() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/uninit");
    let files = common::c_files(&dir);
    let (mut buggy, mut runs) = (0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        let mut covered = BTreeSet::new();
        for exp in parse(f) {
            assert!(
                exp.errors.iter().all(|(_, part)| part.is_some()),
                "{path}: every error is KIND \"message part\""
            );
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
