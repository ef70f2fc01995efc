//! C programs run end to end: compiled by the front end, interpreted by `CProgram`,
//! explored by porf-explore.
//!
//! - The small conformance rows of `expected.tsv` (co equivalence; the repository's copy of
//!   `../shared/conformance`, in `porf-cli/tests/core/conformance`)
//!   must give the reference's verdict and, for safe programs, its number of complete
//!   executions. The counts are read from the table, never written here.
//! - The programs of `tests/semantics/` check C semantics with assertions; porf must
//!   find no error under SC, and (when gcc is available) the same program compiled by
//!   gcc must run successfully, so both agree on what the assertions mean.

use porf_c::{compile_file, CProgram, FrontOptions, RunOptions};
use porf_explore::{explore, Config, ErrorClass, Stats, Strategy};
use porf_models::by_name;
use std::path::{Path, PathBuf};
use std::process::Command;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(path: &Path, defines: &[String], model: &str) -> Stats {
    let opts = FrontOptions {
        defines: defines.to_vec(),
        include_dirs: Vec::new(),
        ..Default::default()
    };
    let module = compile_file(path, &opts).unwrap_or_else(|d| panic!("{d}"));
    let prog = CProgram::new(module, RunOptions::default());
    let m = by_name(model).expect("model");
    explore(Strategy::Optimal, &prog, m.as_ref(), &Config::default())
}

fn verdict(s: &Stats) -> &'static str {
    match s.errors.first() {
        None => "safe",
        Some(e) => match e.class {
            ErrorClass::Assertion => "assertion",
            ErrorClass::Race => "race",
            c => c.verdict(),
        },
    }
}

#[test]
fn small_conformance_rows_match_the_reference() {
    let dir = manifest().join("../porf-cli/tests/core/conformance");
    let table = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (f, d, m, eq, c, v, sz) = (
        col("file"),
        col("defines"),
        col("model"),
        col("equiv"),
        col("complete"),
        col("verdict"),
        col("size"),
    );
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in lines {
        let row: Vec<&str> = line.split('\t').collect();
        if row.len() < header.len()
            || row[eq] != "co"
            || row[sz] != "small"
            || by_name(row[m]).is_none()
        {
            continue;
        }
        let defines: Vec<String> = row[d]
            .split_whitespace()
            .map(|x| x.trim_start_matches("-D").to_string())
            .collect();
        let s = run(&dir.join(row[f]), &defines, row[m]);
        let got = verdict(&s);
        let want = row[v];
        let verdict_ok = want == got || (want == "unsafe" && got != "safe");
        let count_ok = row[c] == "-" || row[c].parse::<u64>() == Ok(s.complete);
        if !verdict_ok || !count_ok {
            failures.push(format!(
                "{} {} {}: expected {want} {}, got {got} {}",
                row[f], row[d], row[m], row[c], s.complete
            ));
        }
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} rows checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn semantics_programs_pass_under_porf_and_gcc() {
    let dir = manifest().join("tests/semantics");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 5);
    let gcc = Command::new("gcc").arg("--version").output().is_ok();
    let out_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("semantics");
    std::fs::create_dir_all(&out_dir).unwrap();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let s = run(f, &[], "sc");
        assert!(
            s.errors.is_empty(),
            "{name}: porf reports {}",
            s.errors[0].message
        );
        assert!(s.complete >= 1, "{name}: no complete execution");
        if gcc {
            let exe = out_dir.join(name.trim_end_matches(".c"));
            let st = Command::new("gcc")
                .args(["-std=c11", "-pthread", "-w", "-o"])
                .arg(&exe)
                .arg(f)
                .status()
                .unwrap();
            assert!(st.success(), "gcc cannot compile {name}");
            let run = Command::new(&exe).output().unwrap();
            assert!(
                run.status.success(),
                "{name} fails natively: {}",
                String::from_utf8_lossy(&run.stderr)
            );
        }
    }
}
