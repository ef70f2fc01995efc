//! Why an error happens (issue 26, items 1, 2 and 5): the explanation `porf verify`
//! prints below a race or memory error, `--json`'s `errors[].why`, and `--dot`'s marks.
//! The exact texts are golden cases (`tests/golden/why_*.txt`); these tests check
//! properties over the buggy programs of `tests/errors/` and the JSON fields.

mod common;
use common::porf;

use serde_json::Value;
use std::path::PathBuf;

fn tests_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests")
}

fn json(path: &str, model: &str) -> Value {
    let (_, out, err) = porf(&["verify", path, "--json", "--keep-going", "--model", model]);
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{path}: {e}: {out} {err}"))
}

/// Every race and every use after free, double free and non-allocated access that
/// the buggy programs of `tests/errors/` show under rc11 comes with an explanation:
/// the error's events among its parts, each part with a role and a position, and at
/// least one reason naming an rf, spawn or join edge when it has one.
#[test]
fn every_race_and_lifetime_error_of_the_error_programs_is_explained() {
    let mut explained = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir(tests_dir().join("errors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter(|p| !p.to_string_lossy().ends_with("_fixed.c"))
        .collect();
    files.sort();
    for f in files {
        let v = json(f.to_str().unwrap(), "rc11");
        for e in v["errors"].as_array().unwrap() {
            let msg = e["message"].as_str().unwrap();
            let explainable = e["kind"] == "race"
                || msg.starts_with("access to freed memory")
                || msg.starts_with("double free")
                || msg.starts_with("access to non-allocated memory")
                || msg.starts_with("free of non-allocated memory");
            if !explainable {
                continue;
            }
            let why = &e["why"];
            assert!(why.is_object(), "{}: {msg}: no why: {e}", f.display());
            let parts = why["events"].as_array().unwrap();
            for ev in e["events"].as_array().unwrap() {
                assert!(
                    parts
                        .iter()
                        .any(|p| p["thread"] == ev["thread"] && p["index"] == ev["index"]),
                    "{}: event {ev} not among the parts {parts:?}",
                    f.display()
                );
            }
            for p in parts {
                assert!(!p["role"].as_str().unwrap().is_empty());
                assert!(!p["location"].as_str().unwrap().is_empty(), "{p}");
            }
            let reasons = why["reasons"].as_array().unwrap();
            assert!(!reasons.is_empty(), "{}: {why}", f.display());
            for r in reasons {
                assert_eq!(r["from"].is_null(), r["edge"].is_null(), "{r}");
                assert!(!r["text"].as_str().unwrap().is_empty());
            }
            explained += 1;
        }
    }
    // The directory holds races and each kind of lifetime error.
    assert!(explained >= 4, "only {explained} errors explained");
}

/// The JSON of the relaxed message-passing race: the reason is the rf edge from
/// T1's relaxed store of `flag` (event (1, 2)) to T2's acquire read (2, 1), and it
/// lacks the release (the program's lines 7 and 10).
#[test]
fn json_names_the_edge_that_does_not_synchronise() {
    let path = tests_dir().join("c/why/relaxed_flag.c");
    let v = json(path.to_str().unwrap(), "rc11");
    let why = &v["errors"][0]["why"];
    assert_eq!(why["question"], "neither happens before the other");
    assert_eq!(why["events"][0]["role"], "write");
    assert_eq!(why["events"][1]["role"], "read");
    let r = &why["reasons"][0];
    assert_eq!(r["kind"], "no_synchronisation");
    assert_eq!(r["edge"], "rf");
    assert_eq!(
        (&r["from"]["thread"], &r["from"]["index"]),
        (&1.into(), &2.into())
    );
    assert_eq!(
        (&r["to"]["thread"], &r["to"]["index"]),
        (&2.into(), &1.into())
    );
    assert!(r["text"]
        .as_str()
        .unwrap()
        .contains("at 10 reads T1's relaxed store at 7"));
    // Under sc every atomic reads-from synchronises: no race.
    let v = json(path.to_str().unwrap(), "sc");
    assert_eq!(v["verdict"], "safe");
}

/// A local handed to another thread is named by its thread and function, in the
/// trace and in the explanation, and its release is the function's return.
#[test]
fn a_shared_local_is_named_by_its_frame() {
    let path = tests_dir().join("c/why/stack_frame.c");
    let (code, out, _) = porf(&["verify", path.to_str().unwrap()]);
    assert_eq!(code, 42, "{out}");
    assert!(out.contains("W T1 publish()'s frame: node.val na"), "{out}");
    assert!(out.contains("publish() returns (frame released)"), "{out}");
    assert!(
        out.contains("The frame release (1, 5): T1's frame release as publish() returns"),
        "{out}"
    );
    assert!(!out.contains("free locals of"), "{out}");
}
