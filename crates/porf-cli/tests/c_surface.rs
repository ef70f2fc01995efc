//! The C library and compiler surface real programs use (`tests/c/surface/*.c`):
//! thread-local storage, string literals, barriers, spin locks, GenMC's interface,
//! GCC builtins, `asm` compiler barriers, `memset`/`memcpy`, libc headers.
//!
//! Each file states what porf must answer, in the comment format of
//! `common/expect.rs` (written by hand, never pasted from porf's output).

mod common;

#[test]
fn surface_programs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/surface", 20, ".c:");
}

/// Errors raised inside porf's bundled library code (C in `headers/*.h`: barriers,
/// read-write locks, string functions) are reported at the user's call, never inside
/// porf's temporary header directory; errors of porf's own checks name the library
/// function. Positions: the line and column of the call in each file (read off the
/// files by hand).
#[test]
fn errors_in_bundled_headers_are_reported_at_the_users_call() {
    let cases = [
        (
            "tests/c/surface/barrier_uninit.c",
            "10:2",
            Some("(in porf's pthread_barrier_wait)"),
        ),
        (
            "tests/c/surface/barrier_reinit.c",
            "12:2",
            Some("(in porf's pthread_barrier_init)"),
        ),
        (
            "tests/c/pthreads/rwlock_bad_unlock.c",
            "9:2",
            Some("(in porf's pthread_rwlock_unlock)"),
        ),
        // An engine error (out of bounds) on an access inside strlen's loop.
        ("tests/c/libc/strlen_oob.c", "12:14", None),
    ];
    for (file, at, suffix) in cases {
        let f = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file);
        let (code, out, err) = common::porf(&["verify", &f.display().to_string()]);
        let all = format!("{out}{err}");
        assert_eq!(code, 42, "{file}: {all}");
        let want = format!("at {}:{at}\n", f.display());
        assert!(all.contains(&want), "{file}: want {want}: {all}");
        assert!(!all.contains("porf-headers"), "{file}: {all}");
        if let Some(s) = suffix {
            assert!(all.contains(s), "{file}: {all}");
        }
    }
}

/// A C++ source is refused by its name, with a message that says why (not the C
/// preprocessor's "atomic: No such file"), at file:1:1, exit 3; a C file is not.
#[test]
fn cxx_sources_are_refused_by_name() {
    let cpp = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/cxx/spinlock.cpp");
    // The same source named `.cc`, in a directory of its own.
    let dir = std::env::temp_dir().join(format!("porf-cxx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cc = dir.join("spinlock.cc");
    std::fs::copy(&cpp, &cc).unwrap();
    for f in [&cpp, &cc] {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let f = f.display().to_string();
        let (code, out, err) = common::porf(&["verify", &f]);
        assert_eq!(code, 3, "{name}: {out}{err}");
        assert!(
            err.contains(&format!("{f}:1:1"))
                && err.contains("porf checks C programs; C++ is not supported"),
            "{name}: {err}"
        );
        assert!(!err.contains("No such file"), "{name}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let mp = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/mp.c");
    let (code, out, err) = common::porf(&["verify", &mp.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}");
}

/// Unsupported constructs are errors only where an execution reaches them
/// (`tests/c/lazy/*.c`, issue 25 item 2): never-called functions and untaken branches
/// are fine; a reached construct is the unsupported error at its own position, exit
/// code 3, on stderr (`file:line:col: unsupported: ...`) and in the verdict. Positions
/// read off the files by hand.
#[test]
fn unsupported_constructs_are_errors_where_reached() {
    common::expect::run_dir("tests/c/lazy", 5, ".c:");
    let cases = [
        ("called_on_one_branch.c", "9:44", "__builtin_bswap32"),
        ("in_main.c", "14:2", "inline assembly"),
        ("global_used.c", "8:1", "`long double` is not supported"),
        (
            "../surface/int128_fetch_add.c",
            "10:2",
            "atomic Add on a 128-bit object is not supported",
        ),
        (
            "../surface/atomic_struct_member.c",
            "11:9",
            "member `a` of an atomic struct",
        ),
    ];
    for (file, at, what) in cases {
        let f = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/c/lazy")
            .join(file);
        let f = f.display().to_string();
        let (code, out, err) = common::porf(&["verify", &f]);
        assert_eq!(code, 3, "{file}: {out}{err}");
        assert!(
            err.contains(&format!("{f}:{at}: unsupported: ")) && err.contains(what),
            "{file}: {err}"
        );
        assert!(out.contains(&format!("at {f}:{at}\n")), "{file}: {out}");
    }
}

/// C language constructs of issue 25 item 5 (`tests/c/lang/*.c`): `__func__`,
/// string literals as read-only data, bit-fields, variable-length arrays,
/// `_Generic`, `_Alignas`/`_Alignof`/`_Noreturn`, `__int128`, `_Atomic` structs; a good
/// and, where it applies, a buggy program each.
#[test]
fn language_constructs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/lang", 4, ".c:");
}
