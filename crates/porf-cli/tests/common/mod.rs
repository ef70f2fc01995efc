//! Helpers shared by the CLI integration tests.
#![allow(dead_code)]

pub mod expect;

use std::path::PathBuf;
use std::process::Command;

/// Runs the `porf` binary with `args`: (exit code, stdout, stderr).
pub fn porf(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_porf"))
        .args(args)
        .output()
        .expect("cannot run porf");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The shared data directory (`../shared` beside the repository), checked to hold
/// `tool` (e.g. `tools/conformance.py`).
pub fn shared(tool: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    assert!(
        dir.join(tool).is_file(),
        "the shared data is missing: expected {}",
        dir.join(tool).display()
    );
    dir
}
