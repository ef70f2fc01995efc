//! Checks shared by the differential tests, and their environment variables.
#![allow(dead_code)]

use porf_explore::{FinalState, Stats};
use std::collections::BTreeSet;

/// The value of the environment variable `var` as a number, or `default`.
pub fn env(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// The threads' registers of each final state of complete executions.
pub fn registers(s: &Stats) -> BTreeSet<Vec<(u32, Vec<i64>)>> {
    s.final_states
        .iter()
        .map(|f: &FinalState| f.registers.clone())
        .collect()
}

/// The optimal explorer's default run (stale blocks skipped, `porf_explore::stale`)
/// against its run with them explored (`full`): the same complete executions, final
/// states and errors; the skipped subtrees hold executions in which a thread is
/// blocked for good, which are blocked (or, with keep-going, erroneous when another
/// thread failed), so those two counts may only drop. Returns what differs.
pub fn stale_diffs(pruned: &Stats, full: &Stats) -> Vec<String> {
    let mut diffs = Vec::new();
    if pruned.complete != full.complete {
        diffs.push(format!(
            "stale blocks skipped: complete {} vs {} with them explored",
            pruned.complete, full.complete
        ));
    }
    if pruned.blocked > full.blocked || pruned.erroneous > full.erroneous {
        diffs.push(format!(
            "stale blocks skipped: blocked / erroneous {} / {} vs {} / {} with them explored",
            pruned.blocked, pruned.erroneous, full.blocked, full.erroneous
        ));
    }
    if pruned.final_states != full.final_states {
        diffs.push("stale blocks skipped: final states differ".into());
    }
    if pruned.error_keys() != full.error_keys() {
        diffs.push(format!(
            "stale blocks skipped: errors {:?} vs {:?} with them explored",
            pruned.error_keys(),
            full.error_keys()
        ));
    }
    diffs
}
