//! libc functions, nondeterministic values and the race-detection switch
//! (`tests/c/libc/*.c`): `<string.h>` (`strlen`, `strcmp`, `strcpy`, `memcmp`),
//! `calloc`, `realloc` (NULL, growing, shrinking, 0, across threads, stale pointers), `exit`, invalid `malloc` sizes, `sched_yield`,
//! `usleep`, `sleep`, `__VERIFIER_nondet_*` with `--nondet-range`, and
//! `--disable-race-detection`.
//!
//! Each file states what porf must answer, in the comment format of
//! `common/expect.rs` (written by hand, never pasted from porf's output).

mod common;
use common::porf;

use std::path::PathBuf;

#[test]
fn libc_programs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/libc", 16, ": unsupported: ");
}

#[test]
fn nondet_range_is_checked() {
    let f = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c/libc/nondet_bug.c");
    let f = f.display().to_string();
    for bad in ["3..1", "1-2", "0..99999999", "x..2"] {
        let (code, _, err) = porf(&["verify", &f, "--nondet-range", bad]);
        assert_eq!(code, 2, "--nondet-range {bad}: {err}");
    }
    // A negative low end is a value, not a flag.
    let (code, _, err) = porf(&["verify", &f, "--nondet-range", "-2..0"]);
    assert_eq!(code, 42, "{err}");
}
