//! Helpers shared by the CLI integration tests.
#![allow(dead_code)]

pub mod blocking;
pub mod expect;
pub mod porf_expect;

use std::path::{Path, PathBuf};
use std::process::Command;

/// Replaces what varies from run to run or machine to machine (times, memory, rates)
/// with fixed placeholders: the golden outputs (`tests/golden.rs`) and the README's
/// sample outputs (`tests/readme.rs`) are compared after it.
pub fn normalise(text: &str) -> String {
    text.lines()
        .map(|line| {
            for prefix in [
                "Total wall-clock time: ",
                "Peak resident memory: ",
                "Explored on ",
            ] {
                if let Some(i) = line.find(prefix) {
                    return format!("{}{prefix}<varies>", &line[..i]);
                }
            }
            // herd's `Time NAME SECONDS` line of `porf litmus`.
            if let Some(rest) = line.strip_prefix("Time ") {
                if let Some((name, _)) = rest.rsplit_once(' ') {
                    return format!("Time {name} <varies>");
                }
            }
            seconds_varied(line)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` with every duration `D.DD s` / `D.DDs` (a decimal number followed by `s` and
/// no other letter) replaced by `<varies> s`.
fn seconds_varied(line: &str) -> String {
    let b = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphanumeric());
        if starts {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if j + 1 < b.len() && b[j] == b'.' && b[j + 1].is_ascii_digit() {
                let mut k = j + 1;
                while k < b.len() && b[k].is_ascii_digit() {
                    k += 1;
                }
                let s = if b.get(k) == Some(&b' ') { k + 1 } else { k };
                let unit_ends = s + 1 >= b.len() || !b[s + 1].is_ascii_alphanumeric();
                if b.get(s) == Some(&b's') && unit_ends {
                    out.push_str("<varies> s");
                    i = s + 1;
                    continue;
                }
            }
            out.push_str(&line[i..j]);
            i = j;
            continue;
        }
        let c = line[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Splits a command line into words: whitespace-separated, `'...'` quoting one.
pub fn shell_words(line: &str) -> Vec<String> {
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    args.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        args.push(cur);
    }
    args
}

/// The `.c` files below `dir`, sorted (each directory's entries by name).
pub fn c_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "c") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out
}

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

/// Runs the repository's `scripts/NAME` with python3, `--porf` this build's binary and
/// `args`, asserts that it exited with 0, and returns its stdout.
pub fn run_script(name: &str, args: &[&str]) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../scripts")
        .join(name);
    let out = Command::new("python3")
        .arg(script)
        .args(["--porf", env!("CARGO_BIN_EXE_porf")])
        .args(args)
        .output()
        .expect("cannot run python3");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}{stderr}");
    stdout
}

/// The first line of `text` that starts with `prefix` (a table's row).
pub fn row<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no row in:\n{text}"))
}

/// The shared data directory: `PORF_SHARED` if set, else `../shared` beside the
/// repository (CI has it; a fresh clone need not).
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("PORF_SHARED") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared"),
    }
}

/// The shared data directory, checked to hold `tool` (e.g. `tools/conformance.py`).
/// A test calls [`shared_absent`] first, so that it skips when the data is absent.
pub fn shared(tool: &str) -> PathBuf {
    let dir = shared_dir();
    assert!(
        dir.join(tool).is_file(),
        "the shared data is missing: expected {}",
        dir.join(tool).display()
    );
    dir
}

/// Whether the shared data lacks `tool`; if so, prints the one line
/// `skipped: ../shared/TOOL is absent (TEST)` that `scripts/test.sh` collects, and the
/// test returns. With `PORF_REQUIRE_SHARED` set (CI, `.ci/run`) absence is a failure.
pub fn shared_absent(tool: &str) -> bool {
    let dir = shared_dir();
    if dir.join(tool).is_file() {
        return false;
    }
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let bin = std::env::args()
        .next()
        .and_then(|a| {
            let stem = PathBuf::from(a).file_stem()?.to_string_lossy().into_owned();
            Some(
                stem.rsplit_once('-')
                    .map_or(stem.clone(), |(s, _)| s.to_string()),
            )
        })
        .unwrap_or_default();
    assert!(
        std::env::var_os("PORF_REQUIRE_SHARED").is_none(),
        "PORF_REQUIRE_SHARED is set but {} is absent ({bin}::{test})",
        dir.join(tool).display()
    );
    println!("skipped: ../shared/{tool} is absent ({bin}::{test})");
    true
}

/// The conformance program `name`: the repository's copy
/// (`crates/porf-cli/tests/core/conformance/`, kept equal to `../shared/conformance/`
/// by `tests/core.rs`), so tests that use one as a workload run in a fresh clone.
pub fn conformance(name: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/core/conformance")
        .join(name);
    assert!(p.is_file(), "no repository copy of {name}: {}", p.display());
    p.display().to_string()
}

/// Runs `porf verify --json ARGS`: (exit code, the JSON object, stderr).
pub fn verify_json(args: &[&str]) -> (i32, serde_json::Value, String) {
    let mut a = vec!["verify", "--json"];
    a.extend_from_slice(args);
    let (code, out, err) = porf(&a);
    let v = serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (code, v, err)
}

/// [`verify_json`] without stderr: (exit code, the JSON object).
pub fn json(args: &[&str]) -> (i32, serde_json::Value) {
    let (code, v, _) = verify_json(args);
    (code, v)
}

/// The complete executions of `porf verify --json ARGS`, which must exit with 0.
pub fn complete(args: &[&str]) -> u64 {
    let (code, v) = json(args);
    assert_eq!(code, 0, "{args:?}: {v}");
    v["complete"].as_u64().unwrap()
}

/// A file of the repository, `rel` from its root.
pub fn repo_file(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
        .display()
        .to_string()
}

/// The bundled example `rel` (`examples/` at the repository's root).
pub fn example(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(rel)
        .display()
        .to_string()
}

/// The thread counts the shared suites run at: `PORF_TEST_THREADS` (comma-separated,
/// e.g. `1,2,4`), by default 1 and 2 — the results must not depend on it.
pub fn test_threads() -> Vec<usize> {
    let spec = std::env::var("PORF_TEST_THREADS").unwrap_or_else(|_| "1,2".into());
    let v: Vec<usize> = spec
        .split(',')
        .map(|s| {
            s.trim()
                .parse()
                .expect("PORF_TEST_THREADS: comma-separated numbers")
        })
        .collect();
    assert!(v.iter().all(|&n| n > 0), "PORF_TEST_THREADS: {spec}");
    v
}

/// A `porf` for scripts that take `--porf PATH`: a shell script that runs the porf
/// binary with `--threads n` after the subcommand.
pub fn porf_with_threads(n: usize) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("porf-threads-{n}"));
    let script = format!(
        "#!/bin/sh\ncmd=\"$1\"\nshift\nexec '{}' \"$cmd\" --threads {n} \"$@\"\n",
        env!("CARGO_BIN_EXE_porf")
    );
    // Each call writes its own copy and renames it into place, so that tests running
    // at once (in this process or another) never run a half-written script.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("{}-{k}.tmp", std::process::id()));
    std::fs::write(&tmp, script).expect("cannot write the porf wrapper");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
            .expect("cannot make the porf wrapper executable");
    }
    std::fs::rename(&tmp, &path).expect("cannot install the porf wrapper");
    path
}
