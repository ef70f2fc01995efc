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
