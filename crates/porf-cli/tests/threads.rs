//! `--threads N`: the JSON result (counts, verdict, errors with their witness traces
//! and thread ids, spin-loop rows) is the same for every N; only the timing differs.
//! Programs with and without errors, with and without `--keep-going`, with thread
//! spawns that depend on values read (`tests/c/threads/`), and conformance programs.

mod common;
use common::conformance;
use common::porf;

use std::path::PathBuf;

fn own(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c/threads")
        .join(name)
        .display()
        .to_string()
}

/// The output with the timing field removed and the bundled headers' temporary
/// directory (named after the process) made fixed.
fn normalise(out: &str) -> String {
    let mut s = String::new();
    let mut rest = out;
    while let Some(i) = rest.find("\"time_s\":") {
        s.push_str(&rest[..i]);
        let tail = &rest[i + "\"time_s\":".len()..];
        let end = tail.find([',', '}']).unwrap_or(tail.len());
        rest = &tail[end..];
    }
    s.push_str(rest);
    let mut out = String::new();
    let mut rest = s.as_str();
    while let Some(i) = rest.find("porf-headers-") {
        out.push_str(&rest[..i + "porf-headers-".len()]);
        rest = rest[i + "porf-headers-".len()..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// Runs `porf verify --json ARGS` at 1, 2 and 4 threads; checks the outputs and exit
/// codes are equal, returns the exit code.
fn same_output(args: &[&str]) -> i32 {
    let run = |n: &str| {
        let mut a = vec!["verify", "--json", "--threads", n];
        a.extend_from_slice(args);
        let (code, out, err) = porf(&a);
        (code, normalise(&out), normalise(&err))
    };
    let one = run("1");
    assert!(one.1.starts_with('{'), "{args:?}: {one:?}");
    for n in ["2", "4"] {
        assert_eq!(
            one,
            run(n),
            "{args:?}: --threads 1 and --threads {n} differ"
        );
    }
    one.0
}

#[test]
fn own_programs_give_the_same_output_at_every_thread_count() {
    for f in ["cond_spawn.c", "late_errors.c", "racy_late.c"] {
        let f = own(f);
        for model in ["sc", "rc11"] {
            let code = same_output(&["--model", model, &f]);
            assert_eq!(code, 42, "{f} has an error under {model}");
            assert_eq!(same_output(&["--model", model, "--keep-going", &f]), 42);
        }
    }
}

#[test]
fn conformance_programs_give_the_same_output_at_every_thread_count() {
    for (f, d) in [
        ("nw1r.c", "-DN=6"),
        ("ainc.c", "-DN=6"),
        ("readers.c", "-DN=8"),
        ("treiber.c", "-DN=2"),
        ("racy_counter.c", "-DN=1"),
        ("iriw_acq_assert.c", "-DN=1"),
    ] {
        let f = conformance(f);
        for model in ["tso", "rc11"] {
            same_output(&["--model", model, d, &f]);
            same_output(&["--model", model, "--keep-going", d, &f]);
        }
    }
}

#[test]
fn threads_zero_is_a_usage_error() {
    let (code, _, err) = porf(&["verify", "--threads", "0", &own("cond_spawn.c")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--threads must be at least 1"), "{err}");
}

/// `--stats` says how many threads explored, or why one did.
#[test]
fn stats_say_how_many_threads_explored() {
    let f = conformance("nw1r.c");
    let (_, out, _) = porf(&["verify", "--stats", "--threads", "2", "-DN=6", &f]);
    assert!(out.contains("Explored on 2 threads"), "{out}");
    let (_, out, _) = porf(&[
        "verify",
        "--stats",
        "--threads",
        "2",
        "--equiv",
        "rf",
        "-DN=6",
        &f,
    ]);
    assert!(out.contains("Explored on one thread"), "{out}");
}
