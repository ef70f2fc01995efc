//! `--model-file FILE.cat`: porf's own cat files (`crates/porf-cat/cat/`) as models.
//!
//! * `porf litmus --model-file rc11.cat` gives herd7's verdicts (observation and the
//!   numbers of positive and negative executions, `../shared/litmus/expected-rc11.tsv`)
//!   on the shared C11 litmus tests, and the same final states as `--model rc11`;
//! * `porf verify --model-file tso.cat` finds the error `--model tso` finds;
//! * `--model-file` excludes `--model`; a broken cat file is an error at its position.

mod common;

use common::{porf, verify_json};
use serde_json::Value;
use std::collections::BTreeMap;

fn cat(name: &str) -> String {
    common::repo_file(&format!("crates/porf-cat/cat/{name}"))
}

/// Every shared litmus file's JSON line under the model flags `model`, by file name.
fn litmus(model: &[&str]) -> BTreeMap<String, Value> {
    let dir = common::shared("litmus/expected-rc11.tsv").join("litmus/c11");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".litmus"))
        .collect();
    files.sort();
    let mut args = vec!["litmus", "--json"];
    args.extend_from_slice(model);
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = porf(&args);
    assert_eq!(code, 0, "{model:?}: {err}");
    out.lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let file = v["file"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string();
            (file, v)
        })
        .collect()
}

#[test]
fn litmus_rc11_cat_gives_herds_verdicts() {
    if common::shared_absent("litmus/expected-rc11.tsv") {
        return;
    }
    let rc11_cat = cat("rc11.cat");
    let by_cat = litmus(&["--model-file", &rc11_cat]);
    let native = litmus(&["--model", "rc11"]);
    let table = common::shared("litmus/expected-rc11.tsv").join("litmus/expected-rc11.tsv");
    let table = std::fs::read_to_string(table).unwrap();
    let mut rows = 0;
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, obs, pos, neg) = (cols[0], cols[1], cols[2], cols[3]);
        let got = by_cat
            .get(file)
            .unwrap_or_else(|| panic!("no answer for {file}"));
        assert_eq!(got["observation"], obs, "{file}");
        assert_eq!(got["positive"].to_string(), pos, "{file}");
        assert_eq!(got["negative"].to_string(), neg, "{file}");
        assert_eq!(got["states"], native[file]["states"], "{file}");
        assert_eq!(got["model"], "cat:rc11", "{file}");
        rows += 1;
    }
    assert!(rows > 100, "only {rows} rows");
}

#[test]
fn verify_tso_cat_finds_what_tso_finds() {
    let prog = common::example("dekker_tso.c");
    let tso_cat = cat("tso.cat");
    let (code_n, native, _) = verify_json(&["--model", "tso", &prog]);
    let (code_c, by_cat, err) = verify_json(&["--model-file", &tso_cat, &prog]);
    assert_eq!(code_c, code_n, "{err}");
    assert_eq!(by_cat["verdict"], native["verdict"]);
    assert_eq!(by_cat["complete"], native["complete"]);
    assert_eq!(by_cat["model"], "cat:tso");
    // Under SC, Dekker's algorithm is correct.
    let (code, sc, err) = verify_json(&["--model-file", &cat("sc.cat"), &prog]);
    assert_eq!((code, sc["verdict"].as_str()), (0, Some("safe")), "{err}");
}

#[test]
fn model_file_excludes_model() {
    let prog = common::example("mp.c");
    let sc_cat = cat("sc.cat");
    for sub in ["verify", "litmus"] {
        let (code, _, err) = porf(&[sub, "--model", "sc", "--model-file", &sc_cat, &prog]);
        assert_eq!(code, 2, "{sub}: {err}");
        assert!(err.contains("cannot be used with"), "{sub}: {err}");
    }
}

#[test]
fn broken_cat_files_are_errors_at_their_position() {
    let dir = std::env::temp_dir().join(format!("porf-cat-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let prog = common::example("mp.c");
    for (text, want) in [
        (
            "\"m\"\nlet x = po |\n",
            "bad.cat:3:1: error: expected an expression",
        ),
        (
            "\"m\"\nacyclic po | nope\n",
            "bad.cat:2:14: error: unbound name `nope`",
        ),
        (
            "\"m\"\nacyclic po ; R\n",
            "bad.cat:2:12: error: `;` needs two relations",
        ),
        (
            "\"m\"\ninclude \"missing.cat\"\n",
            "bad.cat:2:1: error: cannot find included file",
        ),
    ] {
        let bad = dir.join("bad.cat");
        std::fs::write(&bad, text).unwrap();
        let (code, _, err) = porf(&["verify", "--model-file", bad.to_str().unwrap(), &prog]);
        assert_eq!(code, 3, "{text}: {err}");
        assert!(err.contains(want), "{text}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
