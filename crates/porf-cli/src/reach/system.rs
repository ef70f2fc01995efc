//! A toy program as the decision procedure's input: each thread's local semantics
//! enumerated into a finite transition system, the `init` writes as an initialisation
//! thread gated before the others, and the bad states (a failing `assert`, or all
//! threads terminated with the final assertion false) as targets.

use porf_toylang::{LocalLabel, Program, ThreadState};
use porf_wsts::{Label, System, Target, ThreadLts};
use std::collections::HashMap;

/// The most local states one thread may have (pc × register values).
pub const MAX_LOCAL_STATES: usize = 1_000_000;
/// The most bad global states a final assertion may expand to.
pub const MAX_FINAL_TARGETS: usize = 200_000;

/// The system and, per toy thread, its local states by index (thread 0 of the system
/// is the initialisation thread; toy thread `k` is system thread `k + 1`).
pub struct Built {
    pub sys: System,
    pub states: Vec<Vec<ThreadState>>,
}

fn small(what: &str, v: usize, limit: usize) -> Result<u8, String> {
    u8::try_from(v)
        .ok()
        .filter(|&b| usize::from(b) < limit)
        .ok_or_else(|| format!("porf reach supports at most {limit} {what}"))
}

fn label(l: LocalLabel) -> Result<Label, String> {
    let loc = |x| small("locations", x, 255);
    let val = |v| small("values", v as usize, 256);
    Ok(match l {
        LocalLabel::Silent => Label::Silent,
        LocalLabel::Read { loc: x, val: v } => Label::Read {
            loc: loc(x)?,
            val: val(v)?,
        },
        LocalLabel::Write { loc: x, val: v } => Label::Write {
            loc: loc(x)?,
            val: val(v)?,
        },
        LocalLabel::Rmw {
            loc: x,
            read,
            write,
        } => Label::Rmw {
            loc: loc(x)?,
            read: val(read)?,
            write: val(write)?,
        },
    })
}

/// Enumerates thread `tid`'s reachable local states (every read value allowed).
fn enumerate(p: &Program, tid: usize) -> Result<(ThreadLts, Vec<ThreadState>), String> {
    let init = p.initial_state(tid);
    let mut ids: HashMap<ThreadState, u32> = HashMap::from([(init.clone(), 0)]);
    let mut states = vec![init];
    let mut trans: Vec<Vec<(Label, u32)>> = vec![Vec::new()];
    let mut i = 0;
    while i < states.len() {
        let succ = p.successors(tid, &states[i]);
        for (l, s) in succ {
            let id = match ids.get(&s) {
                Some(&id) => id,
                None => {
                    if states.len() >= MAX_LOCAL_STATES {
                        return Err(format!(
                            "thread {} has more than {MAX_LOCAL_STATES} local states \
                             (program counter × register values); porf reach needs \
                             finite-state threads of a manageable size",
                            p.threads[tid].name
                        ));
                    }
                    let id = states.len() as u32;
                    ids.insert(s.clone(), id);
                    states.push(s);
                    trans.push(Vec::new());
                    id
                }
            };
            trans[i].push((label(l)?, id));
        }
        i += 1;
    }
    Ok((ThreadLts { init: 0, trans }, states))
}

/// Builds the decision procedure's input for `p`.
pub fn build(p: &Program) -> Result<Built, String> {
    small("values", p.values as usize, 257)?;
    // Thread 0: the init writes in order.
    let mut t0 = ThreadLts::default();
    for (i, &(x, v, _)) in p.init.iter().enumerate() {
        t0.trans.push(vec![(
            label(LocalLabel::Write { loc: x, val: v })?,
            i as u32 + 1,
        )]);
    }
    t0.trans.push(Vec::new());
    let done = p.init.len() as u32;
    let mut threads = vec![t0];
    let mut states = Vec::new();
    for tid in 0..p.threads.len() {
        let (lts, st) = enumerate(p, tid)?;
        threads.push(lts);
        states.push(st);
    }
    let n = threads.len();
    let mut targets: Vec<Target> = Vec::new();
    for (tid, st) in states.iter().enumerate() {
        for (i, s) in st.iter().enumerate() {
            if p.assertion_failure(tid, s).is_some() {
                let mut t = vec![None; n];
                t[tid + 1] = Some(i as u32);
                targets.push(t);
            }
        }
    }
    if p.final_assert.is_some() {
        final_targets(p, &states, done, &mut targets)?;
    }
    let sys = System {
        threads,
        locs: small("locations", p.locations.len(), 255)?,
        vals: p.values as u8,
        gate: true,
        gate_done: vec![done],
        targets,
    };
    Ok(Built { sys, states })
}

/// Every global state with all threads terminated and the final assertion false.
fn final_targets(
    p: &Program,
    states: &[Vec<ThreadState>],
    done: u32,
    out: &mut Vec<Target>,
) -> Result<(), String> {
    // The terminated states of each thread.
    let per: Vec<Vec<(u32, ThreadState)>> = states
        .iter()
        .enumerate()
        .map(|(tid, st)| {
            st.iter()
                .enumerate()
                .filter(|(_, s)| p.is_terminated(tid, s))
                .map(|(i, s)| (i as u32, s.clone()))
                .collect()
        })
        .collect();
    let total: usize = per
        .iter()
        .map(Vec::len)
        .try_fold(1usize, |a, b| a.checked_mul(b))
        .unwrap_or(usize::MAX);
    if total > MAX_FINAL_TARGETS {
        return Err(format!(
            "the final assertion expands to {total} terminated global states (more than \
             {MAX_FINAL_TARGETS}); porf reach cannot decide it — assert inside a thread \
             instead"
        ));
    }
    let mut idx = vec![0usize; per.len()];
    if per.iter().any(Vec::is_empty) {
        return Ok(());
    }
    loop {
        let combo: Vec<ThreadState> = idx.iter().zip(&per).map(|(&i, v)| v[i].1.clone()).collect();
        if p.final_assertion_fails(&combo) {
            let mut t: Target = vec![Some(done)];
            t.extend(idx.iter().zip(&per).map(|(&i, v)| Some(v[i].0)));
            out.push(t);
        }
        let mut c = 0;
        loop {
            if c == idx.len() {
                return Ok(());
            }
            idx[c] += 1;
            if idx[c] < per[c].len() {
                break;
            }
            idx[c] = 0;
            c += 1;
        }
    }
}
