//! In-place revisiting (`porf_explore::revisit_in_place`) is off for now: as
//! implemented it is not exact (it loses and duplicates complete executions on some
//! programs; porf-explore's `tests/in_place.rs`), so these tests are ignored until a
//! rework turns it on again. They check that it (on by default; `--disable-ipr` turns
//! it off) changes nothing but the number of blocked executions: on
//! every C test program of the repository and the shared conformance programs that
//! block (locks, assumes, spin loops), under rc11 and tso (without `--keep-going`, which
//! turns it off), both runs give the same exit code, and where no error stopped them the
//! same verdict and complete executions, the default run at most as many blocked ones. Where a program sets flags
//! in its header (`--nondet-range`, `-D`) this runs it without them: the property holds
//! for any program, and a program that needs them is rejected the same way by both runs.
//! And the ticket lock of the shared conformance programs with 7 threads has 7! complete
//! executions (one per order of the tickets) and, as with GenMC 0.11
//! (`../shared/bench/genmc-0.11-times.tsv`), no blocked one.

mod common;

use common::porf;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            c_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "c") {
            out.push(p);
        }
    }
}

/// What both runs must agree on, and the blocked count.
struct Run {
    code: i32,
    verdict: String,
    complete: u64,
    errors: BTreeSet<String>,
    blocked: u64,
    partial: bool,
}

fn run(args: &[&str]) -> Run {
    // In-place revisiting is off with --keep-going.
    let mut a = vec!["verify", "--json", "--threads", "1"];
    a.extend_from_slice(args);
    let (code, out, err) = porf(&a);
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&out) else {
        // Rejected before exploring (unsupported construct, bad input): the error text.
        return Run {
            code,
            verdict: err,
            complete: 0,
            errors: BTreeSet::new(),
            blocked: 0,
            partial: false,
        };
    };
    Run {
        code,
        verdict: v["verdict"].to_string(),
        complete: v["complete"].as_u64().unwrap_or(0),
        errors: v["errors"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| e["message"].to_string())
            .collect(),
        blocked: v["blocked"].as_u64().unwrap_or(0),
        partial: v["partial"].as_bool().unwrap_or(false),
    }
}

#[test]
#[ignore = "in-place revisiting is off: not exact as implemented (porf-explore revisit_in_place.rs)"]
fn in_place_revisiting_changes_only_the_blocked_count() {
    let mut files = Vec::new();
    c_files(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c"),
        &mut files,
    );
    let conf = PathBuf::from(common::conformance("mutex_counter.c"))
        .parent()
        .unwrap()
        .to_path_buf();
    let mut cases: Vec<(PathBuf, Vec<&str>)> = files.into_iter().map(|f| (f, vec![])).collect();
    for (f, d) in [
        ("mutex_counter.c", "-DN=4"),
        ("mutex_counter.c", "-DN=3 -DK=2"),
        ("ticketlock.c", "-DN=3"),
        ("spinlock_cas.c", "-DN=3"),
        ("seqlock.c", "-DN=2"),
        ("peterson_sc.c", "-DN=2"),
        ("peterson_ra.c", "-DN=2"),
    ] {
        cases.push((conf.join(f), d.split(' ').collect()));
    }
    let (mut compared, mut fewer, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for (path, defines) in &cases {
        for model in ["rc11", "tso"] {
            let p = path.display().to_string();
            let mut args = vec!["--model", model, "--timeout", "3"];
            args.extend_from_slice(defines);
            args.push(&p);
            let pruned = run(&args);
            args.insert(0, "--disable-ipr");
            let full = run(&args);
            if pruned.partial || full.partial {
                skipped += 1;
                continue;
            }
            compared += 1;
            fewer += u32::from(pruned.blocked < full.blocked);
            // Without --keep-going a run stops at its first error: the verdicts must
            // agree, the counts only when no error stopped it.
            let safe = full.code == 0 && pruned.code == 0;
            if pruned.code != full.code
                || (safe
                    && (pruned.verdict != full.verdict
                        || pruned.complete != full.complete
                        || pruned.blocked > full.blocked))
            {
                failures.push(format!(
                    "{p} {defines:?} {model}: default: exit {}, {}, {} complete, {} blocked, errors {:?}; --disable-ipr: exit {}, {}, {} complete, {} blocked, errors {:?}",
                    pruned.code, pruned.verdict, pruned.complete, pruned.blocked, pruned.errors,
                    full.code, full.verdict, full.complete, full.blocked, full.errors
                ));
            }
        }
    }
    println!(
        "in-place revisiting: {compared} runs compared ({fewer} with fewer blocked executions by default), {skipped} cut by the time limit"
    );
    assert!(fewer > 0, "no program had a thread waiting on a value");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[ignore = "in-place revisiting is off: not exact as implemented (porf-explore revisit_in_place.rs)"]
fn ticket_lock_has_no_blocked_execution() {
    let p = common::conformance("ticketlock.c");
    let on = run(&["-DN=7", &p]);
    let off = run(&["--disable-ipr", "-DN=7", &p]);
    // 7! orders of the tickets.
    assert_eq!((on.code, on.complete, on.blocked), (0, 5040, 0));
    assert_eq!((off.code, off.complete), (0, 5040));
    assert!(
        off.blocked > 0,
        "without in-place revisiting, waiters block"
    );
}
