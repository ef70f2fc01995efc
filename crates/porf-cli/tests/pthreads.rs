//! The pthreads and C11 `<threads.h>` surface (`tests/c/pthreads/*.c`): mutex types
//! (recursive, error-checking), condition variables, read-write locks, `pthread_once`,
//! thread-specific data, and the C11 wrappers.
//!
//! Each file states what porf must answer, in the comment format of
//! `common/expect.rs` (written by hand, never pasted from porf's output).

mod common;

#[test]
fn pthreads_programs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/pthreads", 20, ": unsupported:");
}
