//! Checks shared by the differential tests.

use porf_explore::Stats;

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
