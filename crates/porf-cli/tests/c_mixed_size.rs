//! Mixed-size accesses (`tests/c/mixed_size/*.c`): private unions punned byte-accurately
//! (good and buggy programs), and every access whose bytes overlap another access with
//! a different (address, width) pair — in the heap, in locals shared with other
//! threads, across threads, over a mutex's lock word — rejected with exit 3 and a
//! message naming both accesses (`porf-explore/src/mixed_size.rs`); global unions read
//! through another member rejected by the front end with their position; ordinary heap
//! use (struct copies, memset/memcpy, calloc, realloc(NULL, n), mutexes in heap structs)
//! not rejected.
//!
//! Each file states what porf must answer, in the comment format of
//! `common/expect.rs` (written by hand, never pasted from porf's output).

mod common;

#[test]
fn mixed_size_programs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/mixed_size", 12, ".c:");
}
