//! `porf verify FILE.toy` end to end: the toy language of Lahav and Boker, "What's
//! Decidable About Causally Consistent Shared Memory?" — verdicts, blocking reads of
//! uninitialised locations, loop bounds, and diagnostics for malformed files (exit
//! code 3, `file:line:col: error: ...`, never a panic). The full table of the paper's
//! examples per model is `crates/porf-toylang/tests/seed_examples.rs`.

mod common;
use common::example;
use common::{json, porf};

/// Writes `src` to a fresh `.toy` file and returns its path.
fn toy_file(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("porf-toylang-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{name}.toy"));
    std::fs::write(&path, src).unwrap();
    path.display().to_string()
}

#[test]
fn store_buffering_is_safe_under_sc_and_fails_under_ra() {
    // Lahav and Boker, Example 3.3: the weak outcome is allowed under RA; under SC it
    // is forbidden (the standard SB test).
    let sb = example("causal/sb.toy");
    let (code, out, err) = porf(&["verify", &sb, "--model", "sc"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("No errors were detected."), "{out}");
    let (code, out, _) = porf(&["verify", &sb, "--model", "ra"]);
    assert_eq!(code, 42, "{out}");
    assert!(
        out.contains("Final assertion `!(T1.a == 0 && T2.b == 0)' failed"),
        "{out}"
    );
    assert!(out.contains("sb.toy:18:1"), "{out}");
    assert!(out.contains("R y acq"), "{out}");
    assert!(out.contains("W x rel"), "{out}");
}

#[test]
fn bundled_example_is_safe_under_every_model() {
    for model in porf_models::MODEL_NAMES {
        for equiv in ["co", "rf"] {
            let (code, v) = json(&[&example("mp.toy"), "--model", model, "--equiv", equiv]);
            assert_eq!(code, 0, "{model} {equiv}: {v}");
            assert_eq!(v["verdict"], "safe");
            assert!(v["complete"].as_u64().unwrap() > 0);
        }
    }
}

#[test]
fn assertion_failures_name_the_assert() {
    let f = toy_file(
        "assert",
        "values 3\nlocations x\ninit x = 0\nthread T1\n  x := 2\nthread T2\n  a := x\n  assert a != 2\n",
    );
    let (code, out, _) = porf(&["verify", &f, "--model", "sc"]);
    assert_eq!(code, 42, "{out}");
    assert!(out.contains("Assertion `a != 2' failed"), "{out}");
    assert!(out.contains("assert.toy:8:3"), "{out}");
}

#[test]
fn reading_an_uninitialised_location_blocks() {
    // Remark 1 of the paper: the read of x can only block, so the assert is never reached.
    let f = toy_file(
        "uninit",
        "values 2\nlocations x\nthread T\n  a := x\n  assert 0\n",
    );
    let (code, v) = json(&[&f, "--model", "ra"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["complete"], 0);
    assert_eq!(v["blocked"], 1);
    // An RMW on it blocks too, and writes nothing another thread could read.
    let f = toy_file(
        "uninit_rmw",
        "values 3\nlocations x\nthread T1\n  a := FADD(x, 1)\nthread T2\n  b := x\n  assert 0\nthread T3\n  c := XCHG(x, 2)\n",
    );
    let (code, v) = json(&[&f, "--model", "sc"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["complete"], 0);
    // With an initialisation, the reads proceed.
    let f = toy_file(
        "init_rmw",
        "values 3\nlocations x\ninit x = 0\nthread T1\n  a := FADD(x, 2)\n  b := FADD(x, 2)\nfinal assert T1.b != 2\n",
    );
    let (code, out, _) = porf(&["verify", &f]);
    assert_eq!(code, 42, "{out}");
}

#[test]
fn loops_are_bounded_by_unroll_and_silent_loops_block() {
    let spin = toy_file(
        "spin",
        "values 2\nlocations x\ninit x = 0\nthread T1\nL: a := x\n  if a == 0 goto L\nthread T2\n  x := 1\n",
    );
    let (code, v) = json(&[&spin, "--unroll", "3", "--model", "ra"]);
    // A run with cut executions is incomplete: exit 4.
    assert_eq!(code, 4, "{v}");
    assert_eq!(v["verdict"], "incomplete", "{v}");
    assert_eq!(v["stopped_by"], "loop bound", "{v}");
    assert!(v["bound_cut"].as_u64().unwrap() > 0, "{v}");
    assert!(v["complete"].as_u64().unwrap() > 0, "{v}");
    let silent = toy_file("silent", "values 2\nthread T\nL: goto L\n");
    let (code, v) = json(&[&silent]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["blocked"], 1);
}

#[test]
fn malformed_files_are_diagnosed_with_positions() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "no_values",
            "locations x\nthread T\n  a := x\n",
            ":2:1: error: missing `values N`",
        ),
        (
            "literal",
            "values 2\nthread T\n  a := 2\n",
            ":3:8: error: literal 2 is outside the value domain 0..1",
        ),
        (
            "label",
            "values 2\nthread T\n  if 1 goto nowhere\n",
            ":3:13: error: unknown label `nowhere`",
        ),
        (
            "dup_thread",
            "values 2\nthread T\nthread T\n",
            ":3:8: error: duplicate thread `T`",
        ),
        (
            "undeclared",
            "values 2\nthread T\n  a := CAS(q, 0, 1)\n",
            ":3:12: error: `q` is not a declared location",
        ),
        (
            "bad_final",
            "values 2\nthread T\n  a := 1\nfinal assert T.z == 1\n",
            ":4:16: error: thread `T` has no register `z`",
        ),
        (
            "garbage",
            "values 2\nthread T\n  a := 1 ?\n",
            ":3:10: error: unexpected character `?`",
        ),
    ];
    for (name, src, want) in cases {
        let f = toy_file(name, src);
        let (code, out, err) = porf(&["verify", &f]);
        assert_eq!(code, 3, "{name}: {out}{err}");
        assert!(
            err.starts_with(&f) && err.contains(want),
            "{name}: want `{want}`, got `{err}`"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let f = toy_file("binary", "");
    std::fs::write(&f, [0xff, 0xfe, 0x00]).unwrap();
    let (code, _, err) = porf(&["verify", &f]);
    assert_eq!(code, 3);
    assert!(
        err.contains(":1:1: error: the file is not valid UTF-8"),
        "{err}"
    );
    // A missing file: no fake position, the file named once.
    let (code, _, err) = porf(&["verify", "/nonexistent/x.toy"]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with("error: cannot read /nonexistent/x.toy: "),
        "{err}"
    );
    let (code, _, err) = porf(&["verify", "/nonexistent/x.c"]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with("error: cannot read /nonexistent/x.c: "),
        "{err}"
    );
}

#[test]
fn c_only_flags_are_refused_for_toy_programs() {
    let (code, _, err) = porf(&["verify", &example("mp.toy"), "-D", "N=2"]);
    assert_eq!(code, 2);
    assert!(err.contains("-D and -I apply to C files"), "{err}");
}
