//! C constructs beyond the basic subset (`tests/c/constructs/*.c`): recursion bounded
//! by `--recursion-limit`, integer/pointer conversions without a cast (warnings), GCC
//! range designators, structs and unions passed and returned by value, compound
//! literals, zero-length arrays and flexible array members, and locals another thread
//! reaches through a pointer (an access after the owner returned is a memory error).
//!
//! Each file states what porf must answer, in the comment format of
//! `common/expect.rs` (written by hand, never pasted from porf's output).

mod common;

#[test]
fn construct_programs_give_the_stated_answers() {
    common::expect::run_dir("tests/c/constructs", 10, ".c:");
}
