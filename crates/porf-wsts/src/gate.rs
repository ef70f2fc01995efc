//! The initialisation gate, encoded as Lahav and Boker's Remark 1 suggests: thread 0
//! writes the initial values, then sets a fresh *start* location, and every other
//! thread begins by reading it. The start read makes thread 0's writes happen-before
//! every other event (as a spawn does), in every model, with no change to the memory
//! systems. The start location is uninitialised, so the read blocks until the flag is
//! set.

use crate::search::Witness;
use crate::system::{Label, System};

/// The encoded system and the start location.
pub fn encode(sys: &System) -> (System, u8) {
    let start = sys.locs;
    let mut out = sys.clone();
    out.locs += 1;
    out.vals = out.vals.max(2);
    out.gate = false;
    // Thread 0: from every done state, the flag write to a new final state.
    let t0 = &mut out.threads[0];
    let fin = t0.trans.len() as u32;
    t0.trans.push(Vec::new());
    for &d in &sys.gate_done {
        t0.trans[d as usize].push((Label::Write { loc: start, val: 1 }, fin));
    }
    // Other threads: a new initial state reading the flag.
    let mut new_init = vec![0u32; out.threads.len()];
    for (j, th) in out.threads.iter_mut().enumerate().skip(1) {
        let s = th.trans.len() as u32;
        th.trans
            .push(vec![(Label::Read { loc: start, val: 1 }, th.init)]);
        new_init[j] = s;
        th.init = s;
    }
    let mut targets = Vec::new();
    for t in &sys.targets {
        // Thread 0 at a done state: before or after its flag write.
        let mut variants = vec![t.clone()];
        if t[0].is_some_and(|s0| sys.gate_done.contains(&s0)) {
            let mut after = t.clone();
            after[0] = Some(fin);
            variants.push(after);
        }
        // A thread required at its initial state may not have read the flag yet.
        for j in 1..t.len() {
            if t[j] == Some(sys.threads[j].init) {
                let more: Vec<_> = variants
                    .iter()
                    .map(|v| {
                        let mut v = v.clone();
                        v[j] = Some(new_init[j]);
                        v
                    })
                    .collect();
                variants.extend(more);
            }
        }
        targets.extend(variants);
    }
    out.targets = targets;
    (out, start)
}

/// The witness without the steps on the start location.
pub fn decode(w: Witness, start: u8) -> Witness {
    Witness {
        steps: w
            .steps
            .into_iter()
            .filter(|s| {
                !matches!(s.label,
                    Label::Read { loc, .. } | Label::Write { loc, .. } if loc == start)
            })
            .collect(),
    }
}
