//! herd's assembly litmus tests at the command line: `porf litmus --parse-only` reads
//! them (and C tests) into porf's IR and runs nothing; `porf litmus` without it refuses
//! them with a positioned error; `scripts/dat3m_litmus.py` tallies a corpus laid out
//! as Dat3M's (here a small one of our own, in a temporary directory).

mod common;

use common::porf;
use std::path::PathBuf;
use std::process::Command;

fn asm(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../porf-litmus/tests/asm")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn parse_only_reads_assembly_and_c_tests() {
    let c = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../porf-litmus/tests/litmus/sb.litmus")
        .display()
        .to_string();
    let (code, out, err) = porf(&[
        "litmus",
        "--parse-only",
        &asm("lb_ctrl.litmus"),
        &asm("sb_fence.litmus"),
        &c,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    // P0 has 4 instructions (the label `L0:` is none), P1 has 4; 4 + 4 in SB+fences.
    assert!(
        lines[0].ends_with("parsed AArch64 LB+ctrl+data (2 threads, 8 instructions)"),
        "{out}"
    );
    assert!(
        lines[1].ends_with("parsed RISCV SB+fences (2 threads, 8 instructions)"),
        "{out}"
    );
    assert!(lines[2].contains("parsed C "), "{out}");
}

#[test]
fn parse_only_names_the_unsupported_construct_with_its_position() {
    let f = asm("unsupported.litmus");
    let (code, out, err) = porf(&["litmus", "--parse-only", "--json", &f]);
    assert_eq!(code, 3, "{out}{err}");
    let want = format!("{f}:5:2: error: unsupported PPC instruction `stmw` (in `stmw r1,0(r2)`)");
    assert_eq!(err.trim(), want);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["parsed"], false);
    assert_eq!(v["error"], want.as_str());
}

#[test]
fn running_an_assembly_test_is_refused_with_a_positioned_error() {
    let f = asm("lb_ctrl.litmus");
    let (code, out, err) = porf(&["litmus", &f]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.contains(&format!(
            "{f}:1:1: error: `AArch64` tests are not supported"
        )),
        "{err}"
    );
    assert!(err.contains("--parse-only"), "{err}");
}

#[test]
fn the_corpus_script_tallies_each_folder() {
    let dir = std::env::temp_dir().join(format!("porf-dat3m-litmus-{}", std::process::id()));
    for (arch, name) in [
        ("AARCH64", "lb_ctrl.litmus"),
        ("RISCV", "sb_fence.litmus"),
        ("PPC", "unsupported.litmus"),
    ] {
        let d = dir.join("litmus").join(arch).join("sub");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::copy(asm(name), d.join(name)).unwrap();
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/dat3m_litmus.py");
    let out = Command::new("python3")
        .arg(script)
        .args(["--porf", env!("CARGO_BIN_EXE_porf")])
        .arg("--dat3m")
        .arg(&dir)
        .args(["--arch", "AARCH64", "--arch", "RISCV", "--arch", "PPC"])
        .output()
        .expect("cannot run python3");
    std::fs::remove_dir_all(&dir).ok();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The PPC folder (one test, unsupported) is below the 99.5 % target: exit 1.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    for l in [
        "AARCH64: 1 tests, 1 parsed (100.00%), 0 unsupported, 0 errors",
        "RISCV: 1 tests, 1 parsed (100.00%), 0 unsupported, 0 errors",
        "PPC: 1 tests, 0 parsed (0.00%), 1 unsupported, 0 errors  BELOW TARGET",
        "       1  unsupported PPC instruction `stmw`",
        "  litmus/PPC/sub/unsupported.litmus: unsupported PPC instruction `stmw` (in `stmw r1,0(r2)`)",
    ] {
        assert!(stdout.lines().any(|x| x == l), "no line {l:?} in:\n{stdout}");
    }
}
