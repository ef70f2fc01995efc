//! SV-COMP's conventions (`tests/c/svcomp/*.c`, README "SV-COMP tasks"): error
//! functions, atomic sections, nondet functions, the ILP32 data model, and `.i`
//! (already preprocessed) input. Each `.c` file states what porf must answer
//! (`common/expect.rs`), derived by hand in its header.

mod common;

use std::path::PathBuf;

#[test]
fn svcomp_programs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/svcomp", 21, ".c:");
}

fn test_file(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

/// A `.i` file is not preprocessed (gcc's rule): glibc's declarations (unions as
/// pthread types, `__attribute__`s, `__extension__`, `__restrict`, `__inline`, a
/// statement expression in `reach_error`'s body) are read as they are, and the
/// library functions are still recognised by name. Under ILP32 `long` has 4 bytes:
/// the mutex-protected counter reaches 2 and `reach_error()` is unreachable (2
/// complete executions: the two orders of the critical sections); under LP64 the
/// size check calls it, at line 57 (from the file's `# 40` line marker), column 26.
#[test]
fn preprocessed_input_is_read_as_is() {
    let f = test_file("tests/c/svcomp_i/glibc_style.i");
    let (code, v, err) =
        common::verify_json(&["--model", "sc", "--data-model", "ilp32", f.as_str()]);
    assert_eq!(code, 0, "{v} {err}");
    assert_eq!(v["complete"], 2, "{v}");
    let (code, out, err) = common::porf(&["verify", "--model", "sc", f.as_str()]);
    assert_eq!(code, 42, "{out}{err}");
    assert!(out.contains("reach_error() is called"), "{out}");
    assert!(out.contains("glibc_style.c:57:26"), "{out}");
}

/// Errors of the atomic-section convention are reported at the offending call:
/// positions read off the files by hand.
#[test]
fn section_errors_have_positions() {
    for (file, at) in [
        ("tests/c/svcomp/section_nested.c", "section_nested.c:16:2:"),
        (
            "tests/c/svcomp/section_end_without_begin.c",
            "section_end_without_begin.c:10:2:",
        ),
        (
            "tests/c/svcomp/section_unfinished.c",
            "section_unfinished.c:11:2:",
        ),
    ] {
        let f = test_file(file);
        let (code, out, err) = common::porf(&["verify", "--model", "sc", f.as_str()]);
        assert_eq!(code, 3, "{file}: {out}{err}");
        assert!(err.contains(at), "{file}: want {at}: {err}");
    }
}

/// Sections of one event each change nothing (one event is atomic anyway): the
/// reference explorer running the sections' interleavings must find the executions
/// the optimal explorer (and the reference explorer's own graph search) find on the
/// same program without the markers, for litmus shapes with several threads, RMWs and
/// a mutex; the complete counts and the exit codes are compared.
#[test]
fn one_event_sections_agree_with_the_graph_explorers() {
    let programs = [
        // SB with an RMW: 4 complete executions under SC minus the forbidden one.
        "atomic_int x, y; int a, b;
         void *t1(void *p) { S(atomic_store(&x, 1)); S(a = atomic_load(&y)); return 0; }
         void *t2(void *p) { S(atomic_fetch_add(&y, 1)); S(b = atomic_load(&x)); return 0; }",
        // IRIW, four threads.
        "atomic_int x, y;
         void *t1(void *p) { S(atomic_store(&x, 1)); return 0; }
         void *t2(void *p) { S(atomic_store(&y, 1)); return 0; }
         void *t3(void *p) { int r; S(r = atomic_load(&x)); S(r = atomic_load(&y)); return 0; }
         void *t4(void *p) { int r; S(r = atomic_load(&y)); S(r = atomic_load(&x)); return 0; }",
        // A mutex and a CAS.
        "pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER; atomic_int x; int c;
         void *t1(void *p) { pthread_mutex_lock(&m); c++; pthread_mutex_unlock(&m); S(atomic_store(&x, 2)); return 0; }
         void *t2(void *p) { int e = 0; S(atomic_compare_exchange_strong(&x, &e, 1)); pthread_mutex_lock(&m); c++; pthread_mutex_unlock(&m); return 0; }",
    ];
    let dir = std::env::temp_dir().join(format!("porf-svcomp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, body) in programs.iter().enumerate() {
        let nthreads = body.matches("void *t").count();
        let spawn: String = (1..=nthreads)
            .map(|k| format!("pthread_create(&t[{k}], 0, t{k}, 0);"))
            .collect();
        let join: String = (1..=nthreads)
            .map(|k| format!("pthread_join(t[{k}], 0);"))
            .collect();
        let text = format!(
            "#include <pthread.h>\n#include <stdatomic.h>\n{body}\nint main(void) {{ pthread_t t[8]; {spawn} {join} return 0; }}\n"
        );
        let f = dir.join(format!("p{i}.c"));
        std::fs::write(&f, text).unwrap();
        let f = f.display().to_string();
        let run = |extra: &[&str]| {
            let mut args = vec!["--model", "sc", "--keep-going"];
            args.extend_from_slice(extra);
            args.push(&f);
            let (code, v, err) = common::verify_json(&args);
            (code, v["complete"].clone(), v["blocked"].clone(), err)
        };
        let sections = run(&["-DS(e)=__VERIFIER_atomic_begin(); e; __VERIFIER_atomic_end()"]);
        assert!(sections.3.contains("atomic sections"), "{}", sections.3);
        let optimal = run(&["-DS(e)=e"]);
        let reference = run(&["-DS(e)=e", "--explorer", "reference"]);
        assert_eq!(
            (&sections.0, &sections.1),
            (&optimal.0, &optimal.1),
            "program {i}: sections {sections:?}, optimal {optimal:?}"
        );
        assert_eq!(
            (&sections.0, &sections.1),
            (&reference.0, &reference.1),
            "program {i}: sections {sections:?}, reference {reference:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `.i` file may hold comments (SV-COMP's newer `.i` tasks open with `//` license
/// lines; gcc reads them as white space): they are blanked out, positions unchanged.
/// The program's count is derived in its header (3 complete executions, no error).
#[test]
fn comments_in_preprocessed_input_are_white_space() {
    let f = test_file("tests/c/svcomp_i/comments.i");
    let (code, v, err) =
        common::verify_json(&["--model", "sc", "--disable-race-detection", f.as_str()]);
    assert_eq!(code, 0, "{v} {err}");
    assert_eq!(v["complete"], 3, "{v}");
}
