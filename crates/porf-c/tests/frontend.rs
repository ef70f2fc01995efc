//! Front-end tests: the conformance programs compile (with every `-D` set the
//! reference table uses), each file of `tests/bad/` is rejected with the kind and
//! position its first line announces (an unsupported construct where the execution
//! reaches it: at compile time, or as the run's unsupported error), the bundled
//! headers compile, and gcc agrees that the conformance programs are valid C.

use porf_c::{compile_file, CProgram, DiagKind, FrontOptions, RunOptions};
use porf_explore::{explore, Config, ErrorClass, Strategy};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn conformance_dir() -> PathBuf {
    manifest().join("../porf-cli/tests/core/conformance")
}

fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    v.sort();
    v
}

/// `(file, defines)` pairs of `expected.tsv`, plus every `.c` file without defines.
fn conformance_cases() -> BTreeSet<(String, Vec<String>)> {
    let dir = conformance_dir();
    let table = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let mut cases = BTreeSet::new();
    for line in table.lines().skip(1) {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let defs = cols[1]
            .split_whitespace()
            .map(|d| d.trim_start_matches("-D").to_string())
            .collect();
        cases.insert((cols[0].to_string(), defs));
    }
    for f in c_files(&dir) {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        cases.insert((name, Vec::new()));
    }
    cases
}

#[test]
fn conformance_programs_compile() {
    let dir = conformance_dir();
    let cases = conformance_cases();
    assert!(cases.len() > 40, "expected.tsv lists the conformance runs");
    for (file, defines) in cases {
        let opts = FrontOptions {
            defines: defines.clone(),
            include_dirs: Vec::new(),
            ..Default::default()
        };
        let m = compile_file(&dir.join(&file), &opts)
            .unwrap_or_else(|d| panic!("{file} {defines:?}: {d}"));
        assert!(m.funcs[m.main as usize].name == "main", "{file}");
        assert!(
            m.files[0].ends_with(&file),
            "{file}: files[0] = {}",
            m.files[0]
        );
    }
}

/// The `// expect: (error|unsupported) LINE:COL` line of a bad test file.
fn expectation(path: &Path) -> (DiagKind, u32, u32) {
    let text = std::fs::read_to_string(path).unwrap();
    let first = text.lines().next().unwrap_or_default();
    let spec = first
        .strip_prefix("// expect: ")
        .unwrap_or_else(|| panic!("{}: no `// expect:` line", path.display()));
    let (kind, pos) = spec.split_once(' ').expect("kind and position");
    let kind = match kind {
        "error" => DiagKind::Malformed,
        "unsupported" => DiagKind::Unsupported,
        "io" => DiagKind::Io,
        k => panic!("{}: unknown kind {k}", path.display()),
    };
    let (l, c) = pos.trim().split_once(':').expect("LINE:COL");
    (kind, l.parse().unwrap(), c.parse().unwrap())
}

#[test]
fn bad_programs_are_rejected_at_the_right_place() {
    let files = c_files(&manifest().join("tests/bad"));
    assert!(files.len() >= 25, "at least 25 bad programs");
    let mut failures = Vec::new();
    for f in &files {
        let (kind, line, col) = expectation(f);
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        match compile_file(f, &FrontOptions::default()) {
            Ok(m) if kind == DiagKind::Unsupported => {
                // Unsupported constructs are errors where an execution reaches them.
                let prog = CProgram::new(m, RunOptions::default());
                let model = porf_models::by_name("sc").expect("sc");
                let s = explore(Strategy::Optimal, &prog, model.as_ref(), &Config::default());
                let e = s.errors.first();
                let at = e
                    .and_then(|e| e.events.last())
                    .map(|(_, l)| (l.line, l.col));
                if e.map(|e| e.class) != Some(ErrorClass::Unsupported) || at != Some((line, col)) {
                    failures.push(format!(
                        "{name}: compiled and ran to {:?} at {at:?}, expected unsupported at {line}:{col}",
                        e.map(|e| (e.class, e.message.clone()))
                    ));
                }
            }
            Ok(_) => failures.push(format!(
                "{name}: compiled, expected {kind:?} at {line}:{col}"
            )),
            Err(d) => {
                let shown = d.to_string();
                let ok = d.kind == kind
                    && (d.line, d.col) == (line, col)
                    && d.file.ends_with(&name)
                    && !d.message.trim().is_empty()
                    && !d.message.contains('\n');
                if !ok {
                    failures.push(format!(
                        "{name}: expected {kind:?} at {line}:{col}, got {shown}"
                    ));
                }
                let word = if kind == DiagKind::Unsupported {
                    "unsupported"
                } else {
                    "error"
                };
                assert!(
                    shown.starts_with(&format!("{}:{line}:{col}: {word}: ", d.file)),
                    "{shown}"
                );
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unreadable_files_are_io_errors() {
    let d = compile_file(
        Path::new("/nonexistent/dir/prog.c"),
        &FrontOptions::default(),
    )
    .unwrap_err();
    assert_eq!(d.kind, DiagKind::Io);
    assert_eq!(d.file, "/nonexistent/dir/prog.c");
    let d = compile_file(&manifest().join("tests"), &FrontOptions::default()).unwrap_err();
    assert_eq!(d.kind, DiagKind::Io);
}

#[test]
fn every_bundled_header_compiles() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("headers_alone");
    std::fs::create_dir_all(&dir).unwrap();
    let mut all = String::new();
    // The headers, and those of subdirectories (`sys/types.h`) by their path.
    let mut names = Vec::new();
    for h in std::fs::read_dir(manifest().join("headers")).unwrap() {
        let h = h.unwrap();
        let name = h.file_name().to_string_lossy().into_owned();
        if h.file_type().unwrap().is_dir() {
            for s in std::fs::read_dir(h.path()).unwrap() {
                names.push(format!(
                    "{name}/{}",
                    s.unwrap().file_name().to_string_lossy()
                ));
            }
        } else {
            names.push(name);
        }
    }
    for name in names {
        all.push_str(&format!("#include <{name}>\n"));
        let f = dir.join(format!("{}.c", name.replace('/', "_")));
        std::fs::write(
            &f,
            format!("#include <{name}>\n#include <{name}>\nint main(void) {{ return 0; }}\n"),
        )
        .unwrap();
        compile_file(&f, &FrontOptions::default()).unwrap_or_else(|d| panic!("<{name}>: {d}"));
    }
    let f = dir.join("all.c");
    std::fs::write(&f, format!("{all}int main(void) {{ return 0; }}\n")).unwrap();
    compile_file(&f, &FrontOptions::default()).unwrap_or_else(|d| panic!("all headers: {d}"));
}

#[test]
fn defines_and_include_dirs_are_passed() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("includes");
    std::fs::create_dir_all(dir.join("inc")).unwrap();
    std::fs::write(dir.join("inc/config.h"), "#define LIMIT (N + 1)\n").unwrap();
    let f = dir.join("main.c");
    std::fs::write(
        &f,
        "#include \"config.h\"\nint a[LIMIT];\nint main(void) { return 0; }\n",
    )
    .unwrap();
    let opts = FrontOptions {
        defines: vec!["N=4".into()],
        include_dirs: vec![dir.join("inc")],
        ..Default::default()
    };
    let m = compile_file(&f, &opts).unwrap();
    assert_eq!(m.cells.len(), 5);
    let d = compile_file(&f, &FrontOptions::default()).unwrap_err();
    assert_eq!((d.kind, d.line), (DiagKind::Malformed, 1));
}

#[test]
fn nesting_and_garbage_do_not_panic() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("garbage");
    std::fs::create_dir_all(&dir).unwrap();
    let deep = format!(
        "int main(void) {{ return {}0{}; }}\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    let inputs = [
        ("deep.c", deep),
        ("binary.c", "\u{1}\u{2}\u{0}int main".to_string()),
        ("empty.c", String::new()),
        ("unterminated.c", "int main(void) { return 0;".to_string()),
        (
            "unicode.c",
            "int main(void) { int é = 1; return é; }".to_string(),
        ),
    ];
    for (name, text) in inputs {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        let d = compile_file(&f, &FrontOptions::default()).unwrap_err();
        assert!(!d.message.is_empty(), "{name}");
    }
}

#[test]
fn gcc_accepts_the_conformance_programs() {
    if Command::new("gcc").arg("--version").output().is_err() {
        eprintln!("gcc not found; skipping");
        return;
    }
    let dir = conformance_dir();
    for (file, defines) in conformance_cases() {
        let mut cmd = Command::new("gcc");
        cmd.args([
            "-std=c11",
            "-fsyntax-only",
            "-pthread",
            "-Werror=implicit-function-declaration",
        ]);
        for d in &defines {
            cmd.arg(format!("-D{d}"));
        }
        let out = cmd.arg(dir.join(&file)).output().unwrap();
        assert!(
            out.status.success(),
            "gcc rejects {file} {defines:?}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
