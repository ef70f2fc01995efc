//! `porf litmus`: the 115 Dat3M C11 litmus tests against herd7's rc11.cat verdicts
//! (`../shared/litmus`, run by `../shared/tools/litmus.py`), and the command's output
//! lines, JSON and exit codes.

mod common;
use common::porf;

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
        ("not_c.litmus", ":1:1: error: "),
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
    let (code, _, _) = porf(&["litmus", "--model", "power", &good]);
    assert_eq!(code, 2);
}
