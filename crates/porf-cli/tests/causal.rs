//! The causal models `wra` and `sra` and `--all-release-acquire` (Lahav and Boker,
//! "What's Decidable About Causally Consistent Shared Memory?", TOPLAS 2022): the
//! paper's verdicts on its examples from the command line, and `porf litmus` on the
//! shared C11 litmus tests, where Proposition 3.2 (SRA ⊆ RA ⊆ WRA) must hold of the
//! allowed final states of every test.

mod common;
use common::example;
use common::porf;

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn c_file(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(name)
        .display()
        .to_string()
}

/// `porf verify --json` on the file at path `f` under `model` (with `extra` flags):
/// (exit code, verdict).
fn verdict(f: &str, model: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["verify", "--json", "--model", model, &f];
    args.extend(extra);
    let (code, out, err) = porf(&args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v["verdict"].as_str().unwrap().to_string())
}

/// Ex. 3.6: 2+2W's outcome is allowed by RA and WRA and forbidden by SRA.
#[test]
fn two_plus_two_w_separates_ra_from_sra() {
    let ra = ["--all-release-acquire"];
    assert_eq!(
        verdict(&example("two_plus_two_w.c"), "ra", &ra),
        (42, "assertion".into())
    );
    assert_eq!(
        verdict(&example("two_plus_two_w.c"), "wra", &ra),
        (42, "assertion".into())
    );
    assert_eq!(
        verdict(&example("two_plus_two_w.c"), "sra", &ra),
        (0, "safe".into())
    );
    // The causal models read every access as release/acquire anyway.
    assert_eq!(
        verdict(&example("two_plus_two_w.c"), "sra", &[]),
        (0, "safe".into())
    );
    for equiv in ["rf", "co"] {
        let args = ["--all-release-acquire", "--equiv", equiv, "--keep-going"];
        assert_eq!(
            verdict(&example("two_plus_two_w.c"), "sra", &args).1,
            "safe"
        );
        assert_eq!(
            verdict(&example("two_plus_two_w.c"), "wra", &args).1,
            "assertion"
        );
    }
}

/// Ex. 3.4: message passing works under every causal model; relaxed MP under
/// RC11's RA does not, until the flag makes its accesses release/acquire.
#[test]
fn all_release_acquire_makes_message_passing_work() {
    assert_eq!(
        verdict(&c_file("mp_relaxed.c"), "ra", &[]),
        (42, "assertion".into())
    );
    let ra = ["--all-release-acquire"];
    for m in ["ra", "wra", "sra", "rc11"] {
        assert_eq!(
            verdict(&c_file("mp_relaxed.c"), m, &ra),
            (0, "safe".into()),
            "{m}"
        );
    }
    for m in ["wra", "sra"] {
        assert_eq!(
            verdict(&c_file("mp_relaxed.c"), m, &[]),
            (0, "safe".into()),
            "{m}"
        );
    }
}

/// Under the causal models nothing races: no data race, so no `Undef`.
#[test]
fn no_races_under_causal_models() {
    let racy = std::env::temp_dir()
        .join(format!("porf-causal-racy-{}.c", std::process::id()))
        .display()
        .to_string();
    std::fs::write(
        &racy,
        "#include <pthread.h>\nint x;\nvoid *t(void *a) { x = 1; return 0; }\n\
         int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); x = 2;\n\
         pthread_join(a, 0); return 0; }\n",
    )
    .unwrap();
    let (code, _, _) = porf(&["verify", "--model", "ra", &racy]);
    assert_ne!(code, 0, "a plain write/write race under ra");
    for m in ["wra", "sra"] {
        let (code, out, err) = porf(&["verify", "--model", m, &racy]);
        assert_eq!(code, 0, "{m}: {out}{err}");
    }
    let (code, _, _) = porf(&["verify", "--model", "ra", "--all-release-acquire", &racy]);
    assert_eq!(code, 0, "no race once every access is release/acquire");
    let _ = std::fs::remove_file(&racy);
}

/// Every litmus file's JSON line under `model`, by file.
fn litmus(model: &str, flag: bool) -> BTreeMap<String, Value> {
    let dir = common::shared("litmus/expected-rc11.tsv").join("litmus/c11");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path().display().to_string())
        .filter(|p| p.ends_with(".litmus"))
        .collect();
    files.sort();
    assert!(files.len() > 100, "{} litmus files", files.len());
    let mut args = vec!["litmus", "--json", "--unroll", "2", "--model", model];
    if flag {
        args.push("--all-release-acquire");
    }
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = porf(&args);
    assert_eq!(code, 0, "{model}: {err}");
    let lines: BTreeMap<String, Value> = out
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["file"].as_str().unwrap().to_string(), v)
        })
        .collect();
    assert_eq!(lines.len(), files.len(), "{model}: one line per file");
    lines
}

fn states(v: &Value) -> BTreeSet<String> {
    v["states"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Proposition 3.2 on the shared litmus tests run as the paper reads them: the final
/// states SRA allows are among RA's, and RA's among WRA's. wra and sra ignore memory
/// orders, so the flag changes nothing for them; and nothing races under them.
#[test]
fn litmus_outcomes_nest_sra_ra_wra() {
    if common::shared_absent("litmus/expected-rc11.tsv") {
        return;
    }
    let sra = litmus("sra", true);
    let ra = litmus("ra", true);
    let wra = litmus("wra", true);
    let (mut sra_lt_ra, mut ra_lt_wra) = (0, 0);
    for (file, s) in &sra {
        let (s, r, w) = (states(s), states(&ra[file]), states(&wra[file]));
        assert!(s.is_subset(&r), "{file}: sra {s:?} ⊄ ra {r:?}");
        assert!(r.is_subset(&w), "{file}: ra {r:?} ⊄ wra {w:?}");
        sra_lt_ra += usize::from(s != r);
        ra_lt_wra += usize::from(r != w);
        for (m, v) in [("sra", &sra[file]), ("ra", &ra[file]), ("wra", &wra[file])] {
            assert_eq!(v["undefined"], false, "{m}: {file}");
        }
    }
    println!(
        "litmus: {} tests, sra ⊆ ra ⊆ wra on each ({sra_lt_ra} with fewer states under sra than ra, {ra_lt_wra} under ra than wra)",
        sra.len()
    );
    for (m, with) in [("sra", &sra), ("wra", &wra)] {
        let without = litmus(m, false);
        for (file, v) in &without {
            assert_eq!(states(v), states(&with[file]), "{m}: {file}");
            assert_eq!(v["undefined"], false, "{m}: {file}");
        }
    }
}
