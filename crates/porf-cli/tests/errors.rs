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
use common::porf_expect::{check_answer, kinds, parse, Expect};

use std::collections::BTreeSet;
use std::path::PathBuf;

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

fn check(path: &str, model: &str, exp: &Expect) -> Result<(), String> {
    let (code, v) = run(path, model, "graph");
    check_answer(code, &v, exp)?;
    let got = kinds(&v);
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
    let files = common::c_files(&dir);
    let (mut buggy, mut fixed) = (0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let path = f.display().to_string();
        let mut covered = BTreeSet::new();
        for exp in parse(f) {
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
