//! Skipping stale blocks (`porf_explore::stale`, on by default; `--explore-stale-blocks`
//! turns it off) changes nothing but the number of blocked executions: on every C test
//! program of the repository and the shared conformance programs that block (locks, assumes,
//! spin loops), under rc11 and tso, with `--keep-going`, both runs give the same
//! verdict, the same complete executions and the same set of errors, and the default
//! run counts at most as many blocked executions. Where a program sets flags in its
//! header (`--nondet-range`, `-D`) this runs it without them: the property holds for
//! any program, and a program that needs them is rejected the same way by both runs.

mod common;

use common::blocking::pairs;

#[test]
fn skipping_stale_blocks_changes_only_the_blocked_count() {
    let flag = "--explore-stale-blocks";
    let (pairs, skipped) = pairs(&["--keep-going"], flag);
    let compared = pairs.len();
    let mut fewer = 0;
    let mut failures = Vec::new();
    for pair in &pairs {
        let (pruned, full) = (&pair.default, &pair.flagged);
        fewer += u32::from(pruned.blocked < full.blocked);
        if pruned.code != full.code
            || pruned.verdict != full.verdict
            || pruned.complete != full.complete
            || pruned.errors != full.errors
            || pruned.blocked > full.blocked
        {
            failures.push(pair.describe(flag));
        }
    }
    println!(
        "stale blocks: {compared} runs compared ({fewer} with fewer blocked executions by default), {skipped} cut by the time limit"
    );
    assert!(fewer > 0, "no program had a stale block");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
