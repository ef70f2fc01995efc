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

/// A cat model's flags are printed as herd prints them, after the witnesses, and only
/// from executions the test's filter keeps. Hand derivation for SB under SC: its three
/// executions read (0,1), (1,0) and (1,1); the two with a 0 have a read from the
/// initial write while the other thread's write is coherence-later (an external `fr`),
/// the third has none; no execution reads a write of its own thread (no internal `rf`).
#[test]
fn cat_flags_are_printed_for_the_executions_the_filter_keeps() {
    let dir = std::env::temp_dir().join(format!("porf-cat-flags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("flags.cat");
    std::fs::write(
        &model,
        "\"sc with flags\"\ninclude \"sc.cat\"\n\
         flag ~empty (fr & ext) as ext-fr\nflag ~empty (rf & int) as int-rf\n",
    )
    .unwrap();
    let sb = |filter: &str| {
        format!(
            "C SB\n{{}}\n\
             P0(atomic_int* x, atomic_int* y) {{\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n  \
             int r0 = atomic_load_explicit(y, memory_order_relaxed);\n}}\n\
             P1(atomic_int* x, atomic_int* y) {{\n  atomic_store_explicit(y, 1, memory_order_relaxed);\n  \
             int r0 = atomic_load_explicit(x, memory_order_relaxed);\n}}\n\
             {filter}exists (0:r0=0 /\\ 1:r0=0)\n"
        )
    };
    let run = |name: &str, text: String| {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_porf"))
            .args(["litmus", "--model-file", model.to_str().unwrap()])
            .arg(&file)
            .env("PORF_CAT_PATH", common::repo_file("crates/porf-cat/cat"))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let all = run("sb.litmus", sb(""));
    assert!(all.contains("Never 0 3"), "{all}");
    assert!(all.contains("Flag ext-fr\n"), "{all}");
    assert!(!all.contains("int-rf"), "{all}");
    // The filter keeps only the execution reading (1, 1): no flag.
    let kept = run("sb-filter.litmus", sb("filter (0:r0=1 /\\ 1:r0=1)\n"));
    assert!(kept.contains("Never 0 1"), "{kept}");
    assert!(!kept.contains("Flag"), "{kept}");
    std::fs::remove_dir_all(&dir).ok();
}

/// herd's procedures, `forall`, `enum`, tag matches, explicit sets and `let rec ...
/// when`: SC written with all of them (acyclicity of po | rf | co | fr, checked by a
/// procedure over a set of relations and by a `when` test on its closure) gives
/// `--model sc`'s observations and final states on every shared C11 litmus test. The
/// top-level `acyclic po | rf` (implied by SC) is what tells porf the model forbids
/// load buffering, which C11 tests need: checks inside blocks are not read for that.
#[test]
fn sc_through_procedures_gives_what_sc_gives() {
    if common::shared_absent("litmus/expected-rc11.tsv") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("porf-cat-proc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sc-proc.cat");
    let text = "\"sc through procedures\"\n\
                enum Part = 'program || 'communication\n\
                let pick p = match p with 'program -> po || 'communication -> rf | co | fr end\n\
                let rec hb = pick 'program | pick 'communication | hb ; hb when acyclic hb as sc\n\
                procedure all-acyclic(rs) = forall r in rs do acyclic r as each end end\n\
                call all-acyclic({po | rf | co | fr, po-loc | rf | co | fr})\n\
                forall p in Part do acyclic pick p as part end\n\
                acyclic po | rf as no-load-buffering\n";
    std::fs::write(&file, text).unwrap();
    let by_cat = litmus(&["--model-file", file.to_str().unwrap()]);
    let native = litmus(&["--model", "sc"]);
    assert!(native.len() > 100, "only {} tests", native.len());
    for (name, want) in &native {
        let got = &by_cat[name];
        assert_eq!(got["observation"], want["observation"], "{name}");
        assert_eq!(got["states"], want["states"], "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
