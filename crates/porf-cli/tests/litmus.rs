//! `porf litmus`: the 115 Dat3M C11 litmus tests against herd7's rc11.cat verdicts
//! (`../shared/litmus`, run by `../shared/tools/litmus.py`), the verdict lines against
//! the listed final states under every model, and the command's output lines, JSON
//! and exit codes.

mod common;
use common::porf;

use porf_litmus::ast::Atom;
use porf_litmus::{Prop, Quant};
use serde_json::Value;
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

fn shared() -> PathBuf {
    common::shared("tools/litmus.py")
}

fn litmus_file(dir: &str, name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../porf-litmus/tests")
        .join(dir)
        .join(name)
        .display()
        .to_string()
}

#[test]
fn dat3m_c11_tests_match_herd_rc11() {
    if common::shared_absent("tools/litmus.py") {
        return;
    }
    for n in common::test_threads() {
        dat3m_at(n);
    }
}

fn dat3m_at(threads: usize) {
    let out = Command::new("python3")
        .arg(shared().join("tools/litmus.py"))
        .arg("--porf")
        .arg(common::porf_with_threads(threads))
        .args(["--model", "rc11"])
        .output()
        .expect("cannot run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("litmus.py --model rc11 (--threads {threads}):\n{stdout}");
    let last = stdout.lines().last().unwrap_or("");
    let failed: Option<u64> = last
        .split(", ")
        .find_map(|p| p.strip_suffix(" failed"))
        .and_then(|n| n.parse().ok());
    assert_eq!(failed, Some(0), "litmus failures:\n{stdout}");
    assert!(!last.starts_with("0 passed"), "{last}");
    assert!(out.status.success(), "{stdout}");
}

#[test]
fn prints_herd_lines() {
    let (code, out, _) = porf(&["litmus", &litmus_file("litmus", "sb.litmus")]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..12],
        [
            "Test SB+rlx Forbidden",
            "States 4",
            "0:r0=0; 1:r0=0;",
            "0:r0=0; 1:r0=1;",
            "0:r0=1; 1:r0=0;",
            "0:r0=1; 1:r0=1;",
            "No",
            "Witnesses",
            "Positive: 3 Negative: 1",
            "Condition ~exists (0:r0=0 /\\ 1:r0=0)",
            "Observation SB+rlx Sometimes 1 3",
            lines[11],
        ]
    );
    assert!(lines[11].starts_with("Time SB+rlx "), "{out}");
}

#[test]
fn json_has_one_object_per_file() {
    let files = [
        litmus_file("litmus", "sb.litmus"),
        litmus_file("litmus", "racy.litmus"),
    ];
    let (code, out, err) = porf(&["litmus", "--json", "--model", "sc", &files[0], &files[1]]);
    assert_eq!(code, 0, "{err}");
    let objs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(objs.len(), 2);
    assert_eq!(objs[0]["name"], "SB+rlx");
    assert_eq!(objs[0]["model"], "sc");
    assert_eq!(objs[0]["observation"], "Never");
    assert_eq!(objs[0]["positive"], 0);
    assert_eq!(objs[0]["negative"], 3);
    assert_eq!(objs[0]["complete"], 3);
    assert_eq!(objs[0]["states"].as_array().map(Vec::len), Some(3));
    assert_eq!(objs[1]["name"], "racy");
    assert_eq!(objs[1]["verdict"], "Undef");
    assert_eq!(objs[1]["undefined"], true);
    assert!(err.contains("data race"), "{err}");
}

#[test]
fn races_print_undef_and_the_flag() {
    let (code, out, err) = porf(&["litmus", &litmus_file("litmus", "racy.litmus")]);
    assert_eq!(code, 0);
    assert!(
        out.contains("\nUndef\nWitnesses\nPositive: 1 Negative: 1\nFlag *undef*\n"),
        "{out}"
    );
    assert!(err.contains("racy.litmus:7:3"), "{err}");
}

#[test]
fn malformed_files_exit_3_with_positions() {
    for (name, pos) in [
        ("bad_cond.litmus", ":8:21: error: "),
        ("body_error.litmus", ":6:12: error: "),
        ("unclosed.litmus", ":4:13: error: "),
        // An assembly test with a malformed table (assembly tests are parsed and run).
        ("not_c.litmus", ":3:1: error: "),
    ] {
        let f = litmus_file("malformed", name);
        let (code, out, err) = porf(&["litmus", &f]);
        assert_eq!(code, 3, "{name}: {err}");
        assert!(out.is_empty(), "{name}: {out}");
        assert!(err.starts_with(&format!("{f}{pos}")), "{name}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // A bad file does not stop the others.
    let good = litmus_file("litmus", "cas.litmus");
    let bad = litmus_file("malformed", "bad_cond.litmus");
    let (code, out, _) = porf(&["litmus", &bad, &good]);
    assert_eq!(code, 3);
    assert!(out.contains("Observation cas Sometimes 1 1"), "{out}");
    let (code, _, _) = porf(&["litmus", "/nonexistent/x.litmus"]);
    assert_eq!(code, 3);
    let (code, _, _) = porf(&["litmus", "--model", "no-such-model", &good]);
    assert_eq!(code, 2);
}

/// A listed state line (`0:r0=1; [x]=2;`) as location → value, both as printed.
fn state_values(line: &str) -> HashMap<String, String> {
    line.split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (l, v) = s.split_once('=').expect("loc=value");
            (l.to_string(), v.to_string())
        })
        .collect()
}

/// `p` on a listed state, by the printed values (`None` if it mentions a location the
/// state does not list).
fn holds(p: &Prop, st: &HashMap<String, String>) -> Option<bool> {
    Some(match p {
        Prop::Atom(Atom::Eq(l, v), _) => st.get(&l.to_string())? == &v.to_string(),
        Prop::Atom(Atom::EqLoc(a, b), _) => st.get(&a.to_string())? == st.get(&b.to_string())?,
        Prop::Not(q) => !holds(q, st)?,
        Prop::And(ps) => {
            let vs: Option<Vec<bool>> = ps.iter().map(|q| holds(q, st)).collect();
            vs?.into_iter().all(|b| b)
        }
        Prop::Or(ps) => {
            let vs: Option<Vec<bool>> = ps.iter().map(|q| holds(q, st)).collect();
            vs?.into_iter().any(|b| b)
        }
        Prop::Implies(a, b) => !holds(a, st)? || holds(b, st)?,
    })
}

/// Checks one `porf litmus --json` line against its test: every listed state's
/// condition recomputed from the state line, weighed by the executions the JSON lists
/// for it, gives the positive and negative counts, the observation, the verdict and the
/// witnesses; every listed state passes the filter (when the state shows its
/// locations). Returns a description of the first disagreement.
fn disagreement(v: &Value) -> Option<String> {
    let file = v["file"].as_str().unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    let l = porf_litmus::parse(file, &text).unwrap();
    let states: Vec<&str> = v["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let counts: Vec<u64> = v["state_executions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    if counts.len() != states.len() || counts.contains(&0) {
        return Some(format!(
            "state_executions {counts:?} for {} states",
            states.len()
        ));
    }
    let (mut pos, mut neg, mut sat_states) = (0, 0, 0);
    for (line, n) in states.iter().zip(&counts) {
        let st = state_values(line);
        if let Some(f) = &l.filter {
            if holds(f, &st) == Some(false) {
                return Some(format!("listed state `{line}` fails the filter"));
            }
        }
        match holds(&l.cond.prop, &st) {
            Some(true) => {
                pos += n;
                sat_states += 1;
            }
            Some(false) => neg += n,
            None => return Some(format!("state `{line}` lacks a location of the condition")),
        }
    }
    let observation = if sat_states == 0 {
        "Never"
    } else if sat_states == states.len() {
        "Always"
    } else {
        "Sometimes"
    };
    let ok = match l.cond.quant {
        Quant::Exists => pos > 0,
        Quant::NotExists => pos == 0,
        Quant::Forall => neg == 0,
    };
    let verdict = if v["undefined"] == true {
        "Undef"
    } else if ok {
        "Ok"
    } else {
        "No"
    };
    let witnesses = match l.cond.quant {
        Quant::NotExists => (neg, pos),
        _ => (pos, neg),
    };
    let want = serde_json::json!({
        "positive": pos, "negative": neg, "complete": pos + neg,
        "observation": observation, "verdict": verdict,
        "witnesses": {"positive": witnesses.0, "negative": witnesses.1},
    });
    let got = serde_json::json!({
        "positive": v["positive"], "negative": v["negative"], "complete": v["complete"],
        "observation": v["observation"], "verdict": v["verdict"], "witnesses": v["witnesses"],
    });
    (want != got).then(|| format!("recomputed from the states {states:?}: {want}, porf: {got}"))
}

/// The shared corpus (when present), porf-litmus's own tests and the repository's
/// `tests/core/litmus` under every model porf has: the
/// verdict lines are functions of the listed final states (each execution's condition
/// and listed state come from the same final state). Own tests include CoRW and 2+2W
/// with release stores, where wra used to disagree.
#[test]
fn verdict_lines_agree_with_the_listed_states_under_every_model() {
    let mut dirs = vec![
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../porf-litmus/tests/litmus"),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/core/litmus"),
    ];
    let with_shared = !common::shared_absent("tools/litmus.py");
    if with_shared {
        dirs.push(shared().join("litmus/c11"));
    }
    let mut files: Vec<String> = Vec::new();
    for dir in dirs {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path().display().to_string();
            if p.ends_with(".litmus") {
                files.push(p);
            }
        }
    }
    files.sort();
    let least = if with_shared { 130 } else { 20 };
    assert!(files.len() >= least, "{} litmus files", files.len());
    let mut checked = 0;
    for model in porf_models::MODEL_NAMES {
        let mut args = vec!["litmus", "--json", "--unroll", "2", "--model", model];
        args.extend(files.iter().map(String::as_str));
        let (code, out, err) = porf(&args);
        let lines: Vec<Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), files.len(), "{model}: one line per file");
        // Exit 4 exactly when the loop bound cut some test (the one verdict rule).
        let cut = lines.iter().any(|v| v["incomplete"] == Value::Bool(true));
        assert_eq!(code, if cut { 4 } else { 0 }, "{model}: {err}");
        for v in &lines {
            if let Some(d) = disagreement(v) {
                panic!("{model}: {}: {d}", v["file"]);
            }
            checked += 1;
        }
    }
    println!("{checked} (test, model) pairs agree with their listed states");
}
