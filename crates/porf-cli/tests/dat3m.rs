//! Dat3M's conventions (`tests/c/dat3m/*.c`, programs of our own): inline-asm barriers
//! read as C11 fences and other asm refused where it runs, `__VERIFIER_loop_bound`
//! hints cutting their loop as `--unroll` does, pointer/integer comparisons with a
//! warning, clang's `__LITTLE_ENDIAN__`, `__VERIFIER_assert`, `__VERIFIER_tid`, the
//! spin-loop annotations, and the refused LKMM intrinsics.
//!
//! Each file states what porf must answer, in the comment format of
//! `common/expect.rs` (derived by hand in each file's header, never pasted from
//! porf's output).

mod common;

#[test]
fn dat3m_convention_programs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/dat3m", 25, ".c:");
}
