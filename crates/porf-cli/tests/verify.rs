//! `porf verify` end to end: output lines, JSON, Graphviz, exit codes, limits.
//! Expected counts come from the reference explorer run by the same binary.

mod common;
use common::{json, porf};

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn file(rel: &str) -> String {
    root().join(rel).display().to_string()
}

fn complete_line(out: &str) -> String {
    out.lines()
        .find(|l| l.starts_with("Number of complete executions explored:"))
        .unwrap_or_else(|| panic!("no count line in {out}"))
        .to_string()
}

#[test]
fn examples_agree_with_the_reference_explorer() {
    for (f, extra) in [
        ("examples/mp.c", &[][..]),
        ("examples/lock_counter.c", &["-D", "N=3"][..]),
        ("examples/dekker_tso.c", &["--model", "sc"][..]),
    ] {
        for model in ["sc", "tso", "ra", "rc11"] {
            let path = file(f);
            let mut a = vec!["verify", path.as_str(), "--model", model];
            a.extend_from_slice(extra);
            let (c1, graph, _) = porf(&a);
            a.extend_from_slice(&["--explorer", "reference"]);
            let (c2, reference, _) = porf(&a);
            assert_eq!(c1, c2, "{f} {model}: {graph} vs {reference}");
            if c1 == 0 {
                assert_eq!(
                    complete_line(&graph),
                    complete_line(&reference),
                    "{f} {model}"
                );
            }
        }
    }
}

#[test]
fn safe_program_prints_genmc_lines() {
    let (code, out, err) = porf(&["verify", &file("examples/mp.c")]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("No errors were detected."), "{out}");
    assert!(
        out.contains("Number of complete executions explored: "),
        "{out}"
    );
    assert!(out.contains("Total wall-clock time: "), "{out}");
}

#[test]
fn error_prints_kind_location_and_trace() {
    let path = file("examples/dekker_tso.c");
    let (code, out, _) = porf(&["verify", &path, "--model", "tso"]);
    assert_eq!(code, 42, "{out}");
    assert!(out.contains("Error: Safety violation!"), "{out}");
    assert!(
        out.contains("Trace ((thread, event), what, value, reads from, location):"),
        "{out}"
    );
    assert!(out.contains("dekker_tso.c:"), "{out}");
    // Dekker's weak outcome under TSO: each thread's read of the other's flag reads
    // the initial value.
    assert!(
        out.lines()
            .any(|l| l.contains("R flag1") && l.contains(" INIT ")),
        "{out}"
    );
    let (code, _, _) = porf(&["verify", &path, "--model", "sc"]);
    assert_eq!(code, 0);
}

#[test]
fn json_has_every_field() {
    let (code, v) = json(&["--model", "tso", &file("examples/dekker_tso.c")]);
    assert_eq!(code, 42);
    assert_eq!(v["verdict"], "assertion");
    for k in [
        "complete",
        "blocked",
        "partial",
        "stopped_by",
        "errors",
        "warnings",
        "time_s",
        "model",
        "equiv",
    ] {
        assert!(v.get(k).is_some(), "missing {k} in {v}");
    }
    assert_eq!(v["model"], "tso");
    assert_eq!(v["equiv"], "co");
    let e = &v["errors"][0];
    assert_eq!(e["kind"], "assertion");
    assert!(
        e["location"].as_str().unwrap().contains("dekker_tso.c:"),
        "{e}"
    );
    assert!(!e["trace"].as_array().unwrap().is_empty(), "{e}");
    let (code, v) = json(&[&file("examples/mp.c")]);
    assert_eq!(code, 0);
    assert_eq!(v["verdict"], "safe");
    assert_eq!(v["partial"], false);
    assert_eq!(v["stopped_by"], serde_json::Value::Null);
}

#[test]
fn dot_writes_the_witness_graph() {
    let out = std::env::temp_dir().join(format!("porf-witness-{}.dot", std::process::id()));
    let o = out.display().to_string();
    let (code, _, _) = porf(&[
        "verify",
        "--model",
        "tso",
        "--dot",
        &o,
        &file("examples/dekker_tso.c"),
    ]);
    assert_eq!(code, 42);
    let text = std::fs::read_to_string(&out).expect("no dot file written");
    assert!(text.starts_with("digraph"), "{text}");
    assert!(text.contains("rf"), "{text}");
    let _ = std::fs::remove_file(out);
}

#[test]
fn keep_going_collects_every_error() {
    let path = file("crates/porf-cli/tests/c/two_bugs.c");
    let (code, v) = json(&["--keep-going", &path]);
    assert_eq!(code, 42);
    let kinds: Vec<&str> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"race") && kinds.contains(&"assertion"),
        "{v}"
    );
    let (_, v) = json(&[&path]);
    assert_eq!(v["errors"].as_array().unwrap().len(), 1, "{v}");
}

/// The waiter reads flag = 1 (complete) or 0 (its loop blocks). The blocked execution
/// is stale when the waiter's read of 0 was added after main's store (README, "Blocked
/// executions porf does not count"), so the blocked counts compare with the reference
/// explorer's, which counts every execution, under `--explore-stale-blocks`.
#[test]
fn unroll_bounds_spin_loops() {
    let path = file("crates/porf-cli/tests/c/spin_unroll.c");
    let (code, v) = json(&["--unroll", "2", "--explore-stale-blocks", &path]);
    assert_eq!(code, 0, "{v}");
    assert!(v["complete"].as_u64().unwrap() >= 1, "{v}");
    assert!(v["blocked"].as_u64().unwrap() >= 1, "{v}");
    let (_, r) = json(&["--unroll", "2", "--explorer", "reference", &path]);
    assert_eq!(v["complete"], r["complete"]);
    assert_eq!(v["blocked"], r["blocked"]);
    let (code, d) = json(&["--unroll", "2", &path]);
    assert_eq!(code, 0, "{d}");
    assert_eq!(d["complete"], r["complete"]);
    assert!(d["blocked"].as_u64() <= r["blocked"].as_u64(), "{d}");
}

/// `examples/unroll_bug.c`: main's loop test reads flag = 0 or 1 (the setter's store);
/// each 0 starts the body once more. By hand, with `--unroll 1`: flag = 1 at once
/// (complete, polls = 0), flag = 0 then 1 (complete, polls = 1), flag = 0 twice (the
/// second body start blocks): 2 complete, 1 blocked, the assertion never fails, but
/// the cut makes the run incomplete (exit 4, "up to the bound"). With `--unroll 2`,
/// flag = 0, 0, 1 leaves polls = 2 and the assertion after the loop fails.
#[test]
fn unroll_blocks_instead_of_completing() {
    let path = file("examples/unroll_bug.c");
    let (code, v) = json(&["--unroll", "1", &path]);
    assert_eq!(code, 4, "{v}");
    assert_eq!(
        (v["complete"].as_u64(), v["blocked"].as_u64()),
        (Some(2), Some(1)),
        "{v}"
    );
    assert_eq!(v["verdict"], "incomplete", "{v}");
    assert_eq!(v["stopped_by"], "loop bound", "{v}");
    assert_eq!(
        (v["bound_cut"].as_u64(), v["partial"].as_bool()),
        (Some(1), Some(false))
    );
    let (code, out, _) = porf(&["verify", "--unroll", "1", &path]);
    assert_eq!(code, 4, "{out}");
    assert!(
        out.starts_with("No errors were detected up to the bound.\n"),
        "{out}"
    );
    let (code, v) = json(&["--unroll", "2", &path]);
    assert_eq!(code, 42, "{v}");
    assert_eq!(v["verdict"], "assertion", "{v}");
}

#[test]
fn limits_make_the_result_incomplete() {
    let path = file("examples/lock_counter.c");
    let (code, v) = json(&["-D", "N=4", "--max-executions", "5", &path]);
    assert_eq!(code, 4, "{v}");
    assert_eq!(v["verdict"], "incomplete");
    assert_eq!(v["partial"], true);
    assert_eq!(v["stopped_by"], "max-executions");
    assert_eq!(v["complete"], 5);
}

#[test]
fn memory_errors_are_reported() {
    for f in ["double_free.c", "use_after_free.c"] {
        let (code, v) = json(&[&file(&format!("crates/porf-cli/tests/c/{f}"))]);
        assert_eq!(code, 42, "{f}: {v}");
        assert_eq!(v["verdict"], "memory", "{f}: {v}");
    }
}

#[test]
fn bad_input_exits_3_with_a_position() {
    let path = file("crates/porf-cli/tests/c/bad_syntax.c");
    let (code, out, err) = porf(&["verify", &path]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("bad_syntax.c:5:"), "{err}");
    let (code, _, err) = porf(&["verify", "/no/such/file.c"]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("/no/such/file.c"), "{err}");
}

#[test]
fn usage_errors_exit_2() {
    let mp = file("examples/mp.c");
    // RVF-SMC is an SC algorithm with one explorer.
    let (code, _, err) = porf(&["verify", "--equiv", "rvf", "--model", "tso", &mp]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--equiv rvf is implemented for --model sc only"),
        "{err}"
    );
    let (code, _, err) = porf(&[
        "verify",
        "--equiv",
        "rvf",
        "--model",
        "sc",
        "--explorer",
        "reference",
        &mp,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--equiv rvf"), "{err}");
    for args in [
        &["verify", "--model", "no-such-model", mp.as_str()][..],
        &["verify", "--timeout", "-1", mp.as_str()],
        &["verify", "--unroll", "x", mp.as_str()],
        &["verify"],
    ] {
        let (code, _, err) = porf(args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

#[test]
fn every_rejected_input_exits_3_with_its_position() {
    let dir = root().join("crates/porf-c/tests/bad");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the bad inputs") {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("c") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // First line: `// expect: <kind> LINE:COL`.
        let pos = text
            .lines()
            .next()
            .and_then(|l| l.split_whitespace().last())
            .unwrap_or_else(|| panic!("{}: no expectation line", path.display()));
        let p = path.display().to_string();
        let (code, out, err) = porf(&["verify", &p]);
        assert_eq!(code, 3, "{p}: {out}{err}");
        assert!(
            err.contains(&format!("{p}:{pos}:")),
            "{p}: expected {pos} in {err}"
        );
        assert!(!err.contains("panicked"), "{p}: {err}");
        n += 1;
    }
    assert!(n >= 20, "only {n} rejected inputs");
}

/// Nw1r (N writers, one reader of one location) has N + 1 reads-from classes — the
/// reader reads the initial value or one of the N writes — under every model, against
/// (N+1)! executions in co mode.
#[test]
fn nw1r_has_n_plus_one_rf_classes() {
    let nw1r = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/core/conformance/nw1r.c")
        .display()
        .to_string();
    for model in ["sc", "tso", "pso", "ra", "rc11"] {
        for n in [3u64, 100] {
            let d = format!("N={n}");
            let (code, v) = json(&["--equiv", "rf", "--model", model, "-D", &d, &nw1r]);
            assert_eq!(code, 0, "{model} N={n}: {v}");
            assert_eq!(v["complete"], n + 1, "{model} N={n}: {v}");
            assert_eq!(v["equiv"], "rf");
        }
    }
}

/// `--explorer rf-smc` implies `--equiv rf` (another `--equiv` is refused), needs one
/// of its models, and handles RMWs: two threads each incrementing a counter once have
/// two reads-from classes.
#[test]
fn rf_smc_flags_and_rmws() {
    let mp = file("examples/mp.c");
    let (code, _, err) = porf(&["verify", "--explorer", "rf-smc", "--equiv", "co", &mp]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--equiv rf"), "{err}");
    let (code, out, err) = porf(&["verify", "--explorer", "rf-smc", "--model", "sc", &mp]);
    assert_eq!(code, 0, "--equiv rf implied: {out}{err}");
    let args = [
        "verify",
        "--explorer",
        "rf-smc",
        "--equiv",
        "rf",
        "--model",
        "ra",
        &mp,
    ];
    let (code, _, err) = porf(&args);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("sc, tso, pso"), "{err}");
    for m in ["sc", "tso", "pso"] {
        let args = [
            "verify",
            "--explorer",
            "rf-smc",
            "--equiv",
            "rf",
            "--model",
            m,
            &mp,
        ];
        let (code, out, err) = porf(&args);
        assert_eq!(code, 0, "{m}: {out}{err}");
    }
    let ainc = std::env::temp_dir().join(format!("porf-rf-smc-{}.c", std::process::id()));
    std::fs::write(
        &ainc,
        "#include <stdatomic.h>\n#include <pthread.h>\natomic_int x;\n\
         void *t(void *a) { atomic_fetch_add(&x, 1); return 0; }\n\
         int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); t(0); pthread_join(a, 0); return 0; }\n",
    )
    .unwrap();
    let path = ainc.to_str().unwrap();
    let args = [
        "verify",
        "--explorer",
        "rf-smc",
        "--equiv",
        "rf",
        "--model",
        "tso",
        "--json",
        path,
    ];
    let (code, out, err) = porf(&args);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\"complete\":2"), "{out}");
    let low = [
        "verify",
        "--explorer",
        "rf-smc",
        "--low-memory",
        "--equiv",
        "rf",
        "--model",
        "sc",
        "--json",
        path,
    ];
    let (code, out, err) = porf(&low);
    let _ = std::fs::remove_file(&ainc);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\"complete\":2"), "{out}");
    let (code, _, err) = porf(&["verify", "--low-memory", &mp]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--low-memory"), "{err}");
}

/// `--equiv rvf` runs RVF-SMC under SC: the JSON says so and carries its counters,
/// `--stats` prints them, and an assertion violation is found.
#[test]
fn rvf_runs_under_sc() {
    let mp = file("examples/mp.c");
    let (code, v) = json(&["--equiv", "rvf", "--model", "sc", &mp]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["equiv"], "rvf");
    assert_eq!(v["verdict"], "safe");
    let r = &v["rvf"];
    assert!(
        r["traces"].as_u64().unwrap() >= v["complete"].as_u64().unwrap(),
        "{v}"
    );
    assert_eq!(r["traces"], r["classes"], "{v}");
    let (code, out, err) = porf(&["verify", "--equiv", "rvf", "--model", "sc", "--stats", &mp]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "RVF traces explored:",
        "RVF classes:",
        "Witnesses tried (VerifySC calls):",
    ] {
        assert!(out.contains(line), "{line} missing in {out}");
    }
    for (f, d) in [
        ("examples/dekker_tso.c", "N=1"),
        ("examples/lock_counter.c", "N=3"),
    ] {
        let f = file(f);
        let (c1, co) = json(&["--equiv", "co", "--model", "sc", "-D", d, &f]);
        let (c2, rvf) = json(&["--equiv", "rvf", "--model", "sc", "-D", d, &f]);
        assert_eq!((c1, &co["verdict"]), (c2, &rvf["verdict"]), "{co} {rvf}");
        assert!(
            rvf["complete"].as_u64() <= co["complete"].as_u64(),
            "{co} {rvf}"
        );
    }
}

/// `examples/same_value.c` is the program of Figure 1 of "Stateless Model Checking
/// under a Reads-Value-From Equivalence" (with joins): the paper counts 9 reads-from
/// classes and a single reads-value-from class.
#[test]
fn rvf_merges_reads_of_equal_values() {
    let f = file("examples/same_value.c");
    let (code, rf) = json(&["--equiv", "rf", "--model", "sc", &f]);
    assert_eq!((code, rf["complete"].as_u64()), (0, Some(9)), "{rf}");
    let (code, rvf) = json(&["--equiv", "rvf", "--model", "sc", &f]);
    assert_eq!((code, rvf["complete"].as_u64()), (0, Some(1)), "{rvf}");
}

/// Limits work in rvf mode as in the others: the result is partial and says which
/// limit cut it.
#[test]
fn rvf_honours_limits() {
    let f = file("examples/lock_counter.c");
    let (code, v) = json(&[
        "--equiv",
        "rvf",
        "--model",
        "sc",
        "-D",
        "N=4",
        "--max-executions",
        "2",
        &f,
    ]);
    assert_eq!(code, 4, "{v}");
    assert_eq!(v["verdict"], "incomplete", "{v}");
    assert_eq!(v["stopped_by"], "max-executions", "{v}");
    assert_eq!(v["complete"], 2, "{v}");
}

/// Readable witnesses: events named as error messages name them, each read with the
/// write it reads from, mutexes as `lock m` / `unlock m` (no internal cells), and both
/// events of a race in the JSON.
#[test]
fn witnesses_name_events_sources_and_mutexes() {
    let dir = std::env::temp_dir().join(format!("porf-witness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("race.c");
    std::fs::write(
        &path,
        r#"#include <pthread.h>
int x;
pthread_mutex_t m;
void *t(void *a) { pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }
void *u(void *a) { int r = x; return 0; }
int main() {
  pthread_t a, b;
  pthread_create(&a, 0, t, 0);
  pthread_create(&b, 0, u, 0);
  pthread_join(a, 0); pthread_join(b, 0);
  return 0;
}
"#,
    )
    .unwrap();
    let p = path.display().to_string();
    let (code, out, _) = porf(&["verify", &p]);
    assert_eq!(code, 42, "{out}");
    // The race message names (1, 3) and (2, 1): the write of x and the read of x.
    let msg = out
        .lines()
        .find(|l| l.starts_with("Non-atomic race"))
        .unwrap();
    for l in out.lines().filter(|l| l.contains(" x na")) {
        let id = l.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        assert!(msg.contains(&id), "{id} not in {msg}\n{out}");
    }
    assert!(out.contains("lock m "), "{out}");
    assert!(out.contains("unlock m "), "{out}");
    assert!(!out.contains("__lock"), "{out}");
    let read = out.lines().find(|l| l.contains("R x na")).unwrap();
    let write = out.lines().find(|l| l.contains("W x na")).unwrap();
    let wid = write
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(read.contains(&wid) || read.contains("INIT"), "{out}");
    let (_, v) = json(&[&p]);
    let events = v["errors"][0]["events"].as_array().unwrap();
    assert_eq!(events.len(), 2, "{v}");
}

#[test]
fn witnesses_show_printed_text_and_pointers_by_name() {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/witness_print.c");
    let (code, out, _) = porf(&["verify", p]);
    assert_eq!(code, 42, "{out}");
    // The text main printed before spawning comes right before the spawn; %p and the
    // pointer cell p show `&g`, the string literal argument its text.
    let lines: Vec<&str> = out.lines().collect();
    let first = lines
        .iter()
        .position(|l| l.contains(r#"printed "main: p=&g begins    42|a  |z\n""#))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(lines[first + 1].contains("spawn T1"), "{out}");
    assert!(out.contains(r#"printed "main: read 1\n""#), "{out}");
    assert!(out.contains(r#"printed "main: checking\n""#), "{out}");
    let store_p = lines.iter().find(|l| l.contains("W p na")).unwrap();
    assert!(store_p.contains("&g"), "{out}");
    // q points to a heap block allocated as `int *` (its pointer was converted to
    // `int **`): the block is `int*#0.0`, and the global address stored there is a
    // pointer cell's value, shown by name.
    let store_q = lines.iter().find(|l| l.contains("W q na")).unwrap();
    assert!(store_q.contains("&int*#0.0"), "{out}");
    let store_heap = lines.iter().find(|l| l.contains("W int*#0.0 na")).unwrap();
    assert!(store_heap.contains("&g"), "{out}");
    let (_, v) = json(&[p]);
    let trace = v["errors"][0]["trace"].as_array().unwrap();
    let spawn = trace
        .iter()
        .find(|s| s["event"].as_str().unwrap().starts_with("spawn"))
        .unwrap();
    assert_eq!(
        spawn["printed"][0].as_str().unwrap(),
        "main: p=&g begins    42|a  |z\n"
    );
}

#[test]
fn witnesses_name_heap_memory_by_type_and_field() {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/witness_heap_names.c");
    let (code, out, _) = porf(&["verify", p]);
    assert_eq!(code, 42, "{out}");
    let line = |what: &str| -> String {
        out.lines()
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no `{what}` in {out}"))
            .to_string()
    };
    // Blocks 0, 1, 2 of thread 0: a, b (both `struct node`), arr (`int`, 4 of them).
    assert!(line("malloc node#0.0 (16 bytes)").contains("witness_heap_names.c:16"));
    assert!(line("malloc node#0.1 (16 bytes)").contains("witness_heap_names.c:17"));
    assert!(line("calloc int#0.2 (16 bytes)").contains("witness_heap_names.c:18"));
    assert!(line("W node#0.0.val na").contains(" 1 "), "{out}");
    assert!(line("W node#0.0.next na").contains("NULL"), "{out}");
    assert!(line("W node#0.1.next na").contains("&node#0.0 "), "{out}");
    assert!(line("W int#0.2[2] na").contains(" 7 "), "{out}");
    assert!(line("W head na").contains("&node#0.1 "), "{out}");
    let (_, v) = json(&[p]);
    let trace = v["errors"][0]["trace"].as_array().unwrap();
    let next = trace
        .iter()
        .find(|s| s["event"] == "W node#0.1.next na")
        .unwrap();
    assert_eq!(next["value_shown"], "&node#0.0");
}
