//! A forward over-approximation that removes what no run can do, even with reads
//! unconstrained by the memory: a read of value `v` at `x` needs a write of `v` to `x`
//! by some thread, and a local state needs a path from the thread's initial state.
//! Iterated to a fixpoint. Only transitions that no run of the program under any
//! memory system can take are removed, so the decision is unchanged.

use crate::system::{Label, System};
use std::collections::HashSet;

/// Which (location, value) pairs some reachable transition writes.
fn writable(sys: &System, reach: &[Vec<bool>]) -> HashSet<(u8, u8)> {
    let mut out = HashSet::new();
    for (t, th) in sys.threads.iter().enumerate() {
        for (s, ts) in th.trans.iter().enumerate() {
            if !reach[t][s] {
                continue;
            }
            for (l, _) in ts {
                match *l {
                    Label::Write { loc, val } => {
                        out.insert((loc, val));
                    }
                    Label::Rmw { loc, write, .. } => {
                        out.insert((loc, write));
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

fn enabled(l: &Label, w: &HashSet<(u8, u8)>) -> bool {
    match *l {
        Label::Read { loc, val } => w.contains(&(loc, val)),
        Label::Rmw { loc, read, .. } => w.contains(&(loc, read)),
        _ => true,
    }
}

/// Removes the transitions no run can take and reports how many were removed.
pub fn prune(sys: &mut System) -> usize {
    let mut removed = 0;
    loop {
        let reach: Vec<Vec<bool>> = sys
            .threads
            .iter()
            .map(|th| {
                let mut seen = vec![false; th.len()];
                let mut stack = vec![th.init as usize];
                seen[th.init as usize] = true;
                while let Some(s) = stack.pop() {
                    for &(_, t) in &th.trans[s] {
                        if !std::mem::replace(&mut seen[t as usize], true) {
                            stack.push(t as usize);
                        }
                    }
                }
                seen
            })
            .collect();
        let w = writable(sys, &reach);
        let mut changed = false;
        for (t, th) in sys.threads.iter_mut().enumerate() {
            for (s, ts) in th.trans.iter_mut().enumerate() {
                let before = ts.len();
                if !reach[t][s] {
                    ts.clear();
                } else {
                    ts.retain(|(l, _)| enabled(l, &w));
                }
                if ts.len() != before {
                    removed += before - ts.len();
                    changed = true;
                }
            }
        }
        if !changed {
            return removed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::system::ThreadLts;

    #[test]
    fn reads_of_values_nobody_writes_are_removed() {
        // T0: write x=1. T1: read x=1 -> s1, read x=2 -> s2 (nobody writes 2).
        let t0 = ThreadLts {
            init: 0,
            trans: vec![vec![(Label::Write { loc: 0, val: 1 }, 1)], vec![]],
        };
        let t1 = ThreadLts {
            init: 0,
            trans: vec![
                vec![
                    (Label::Read { loc: 0, val: 1 }, 1),
                    (Label::Read { loc: 0, val: 2 }, 2),
                ],
                vec![],
                vec![(Label::Write { loc: 0, val: 3 }, 1)],
            ],
        };
        let mut sys = System {
            threads: vec![t0, t1],
            locs: 1,
            vals: 4,
            gate: false,
            gate_done: vec![],
            targets: vec![],
        };
        assert_eq!(prune(&mut sys), 2);
        assert_eq!(sys.threads[1].trans[0].len(), 1);
        // State 2 is unreachable now, so its write of 3 is gone too.
        assert!(sys.threads[1].trans[2].is_empty());
    }
}
