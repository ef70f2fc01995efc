//! The decision procedure on straight-line programs built by hand, against the
//! outcomes Lahav and Boker state for their examples (TOPLAS 2022, Examples 3.3–3.8,
//! 3.10): each test builds the program's threads as transition systems whose states
//! remember the values read, and asks whether the annotated outcome is reachable.

use porf_wsts::{decide, Label, Limits, Model, Outcome, System, ThreadLts};
use std::collections::HashMap;

#[derive(Clone, Copy)]
enum Op {
    W(u8, u8),
    R(u8),
    Cas(u8, u8, u8),
    Fadd(u8, u8),
}

/// A thread's LTS: states are (pc, values read so far); returns the LTS and the
/// state id of every (pc, reads).
fn thread(ops: &[Op], vals: u8) -> (ThreadLts, HashMap<(usize, Vec<u8>), u32>) {
    let mut ids: HashMap<(usize, Vec<u8>), u32> = HashMap::new();
    let mut trans: Vec<Vec<(Label, u32)>> = Vec::new();
    let mut stack = vec![(0usize, Vec::new())];
    ids.insert((0, Vec::new()), 0);
    trans.push(Vec::new());
    while let Some((pc, reads)) = stack.pop() {
        let me = ids[&(pc, reads.clone())];
        if pc == ops.len() {
            continue;
        }
        let mut succ: Vec<(Label, Vec<u8>)> = Vec::new();
        match ops[pc] {
            Op::W(x, v) => succ.push((Label::Write { loc: x, val: v }, reads.clone())),
            Op::R(x) => {
                for v in 0..vals {
                    let mut r = reads.clone();
                    r.push(v);
                    succ.push((Label::Read { loc: x, val: v }, r));
                }
            }
            Op::Cas(x, e, n) => {
                for v in 0..vals {
                    let mut r = reads.clone();
                    r.push(v);
                    let l = if v == e {
                        Label::Rmw {
                            loc: x,
                            read: v,
                            write: n,
                        }
                    } else {
                        Label::Read { loc: x, val: v }
                    };
                    succ.push((l, r));
                }
            }
            Op::Fadd(x, k) => {
                for v in 0..vals {
                    let mut r = reads.clone();
                    r.push(v);
                    succ.push((
                        Label::Rmw {
                            loc: x,
                            read: v,
                            write: (v + k) % vals,
                        },
                        r,
                    ));
                }
            }
        }
        for (l, r) in succ {
            let key = (pc + 1, r.clone());
            let id = match ids.get(&key) {
                Some(&id) => id,
                None => {
                    let id = trans.len() as u32;
                    ids.insert(key, id);
                    trans.push(Vec::new());
                    stack.push((pc + 1, r));
                    id
                }
            };
            trans[me as usize].push((l, id));
        }
    }
    (ThreadLts { init: 0, trans }, ids)
}

/// Is the outcome (per thread, the values it reads) reachable? `init` writes run
/// first in an initialisation thread.
fn reachable(
    model: Model,
    init: &[(u8, u8)],
    threads: &[&[Op]],
    outcome: &[&[u8]],
    vals: u8,
) -> bool {
    let init_ops: Vec<Op> = init.iter().map(|&(x, v)| Op::W(x, v)).collect();
    let (t0, ids0) = thread(&init_ops, vals);
    let mut lts = vec![t0];
    let mut target = vec![Some(ids0[&(init_ops.len(), Vec::new())])];
    let mut locs = 0u8;
    for (ops, out) in threads.iter().zip(outcome) {
        for op in ops.iter() {
            let x = match *op {
                Op::W(x, _) | Op::R(x) | Op::Cas(x, _, _) | Op::Fadd(x, _) => x,
            };
            locs = locs.max(x + 1);
        }
        let (t, ids) = thread(ops, vals);
        target.push(Some(ids[&(ops.len(), out.to_vec())]));
        lts.push(t);
    }
    let sys = System {
        threads: lts,
        locs,
        vals,
        gate: true,
        gate_done: vec![ids0[&(init_ops.len(), Vec::new())]],
        targets: vec![target],
    };
    let t = std::time::Instant::now();
    let out = decide(&sys, model, Limits::default());
    if std::env::var("WSTS_DEBUG").is_ok() {
        match &out {
            Outcome::Reachable {
                iterations, basis, ..
            } => eprintln!(
                "{model:?} reachable: {iterations} iterations, basis {basis}, {:?}",
                t.elapsed()
            ),
            Outcome::Unreachable {
                iterations, basis, ..
            } => eprintln!(
                "{model:?} unreachable: {iterations} iterations, basis {basis}, {:?}",
                t.elapsed()
            ),
            _ => {}
        }
    }
    match out {
        Outcome::Reachable { witness, .. } => {
            if std::env::var("WSTS_DEBUG").is_ok() {
                for st in &witness.steps {
                    eprintln!("{st:?}");
                }
            }
            true
        }
        Outcome::Unreachable { .. } => false,
        Outcome::Unknown { reason, .. } => panic!("undecided: {reason}"),
    }
}

use Model::{Sra, Wra};
use Op::*;
const X: u8 = 0;
const Y: u8 = 1;
const Z: u8 = 2;

#[test]
fn sb_weak_outcome_is_allowed() {
    // Example 3.3: allowed by all three models.
    for m in [Sra, Wra] {
        assert!(reachable(
            m,
            &[(X, 0), (Y, 0)],
            &[&[W(X, 1), R(Y)], &[W(Y, 1), R(X)]],
            &[&[0], &[0]],
            2
        ));
    }
}

#[test]
fn mp_weak_outcome_is_forbidden() {
    // Example 3.4: disallowed under each model; the strong outcomes are allowed.
    for m in [Sra, Wra] {
        let t: [&[Op]; 2] = [&[W(X, 1), W(Y, 1)], &[R(Y), R(X)]];
        assert!(!reachable(m, &[(X, 0), (Y, 0)], &t, &[&[], &[1, 0]], 2));
        assert!(reachable(m, &[(X, 0), (Y, 0)], &t, &[&[], &[1, 1]], 2));
        assert!(reachable(m, &[(X, 0), (Y, 0)], &t, &[&[], &[0, 0]], 2));
    }
}

#[test]
fn mp_trans_weak_outcome_is_forbidden() {
    // Example 3.4 (MP through a third thread).
    for m in [Sra, Wra] {
        let t: [&[Op]; 3] = [&[W(X, 1)], &[R(X), W(Y, 1)], &[R(Y), R(X)]];
        assert!(!reachable(
            m,
            &[(X, 0), (Y, 0)],
            &t,
            &[&[], &[1], &[1, 0]],
            2
        ));
    }
}

#[test]
fn iriw_weak_outcome_is_allowed() {
    // Example 3.5: non-multi-copy-atomic, allowed under all three.
    for m in [Sra, Wra] {
        let t: [&[Op]; 4] = [&[W(X, 1)], &[R(X), R(Y)], &[R(Y), R(X)], &[W(Y, 1)]];
        assert!(reachable(
            m,
            &[(X, 0), (Y, 0)],
            &t,
            &[&[], &[1, 0], &[1, 0], &[]],
            2
        ));
    }
}

#[test]
fn two_plus_two_w_separates_sra_from_wra() {
    // Example 3.6: allowed by RA (hence WRA), disallowed by SRA.
    let t: [&[Op]; 2] = [&[W(X, 1), W(Y, 2), R(Y)], &[W(Y, 1), W(X, 2), R(X)]];
    assert!(!reachable(Sra, &[(X, 0), (Y, 0)], &t, &[&[1], &[1]], 3));
    assert!(reachable(Wra, &[(X, 0), (Y, 0)], &t, &[&[1], &[1]], 3));
}

#[test]
fn ww_is_weak_only_under_wra() {
    // Example 3.7 (WW): x:=1; a:=x //2 || x:=2; b:=x //1 — WRA only.
    let t: [&[Op]; 2] = [&[W(X, 1), R(X)], &[W(X, 2), R(X)]];
    assert!(reachable(Wra, &[], &t, &[&[2], &[1]], 3));
    assert!(!reachable(Sra, &[], &t, &[&[2], &[1]], 3));
}

#[test]
fn two_rmws_never_read_one_write() {
    // Example 3.8: both CAS(x, 0, 1) reading 0 is forbidden everywhere.
    for m in [Sra, Wra] {
        let t: [&[Op]; 2] = [&[Cas(X, 0, 1)], &[Cas(X, 0, 1)]];
        assert!(!reachable(m, &[(X, 0)], &t, &[&[0], &[0]], 2));
        assert!(reachable(m, &[(X, 0)], &t, &[&[0], &[1]], 2));
    }
}

#[test]
fn rmw_fences_forbid_sb() {
    // Example 3.9: FADD(z, 0) between the write and the read forbids SB's outcome.
    for m in [Sra, Wra] {
        let t: [&[Op]; 2] = [&[W(X, 1), Fadd(Z, 0), R(Y)], &[W(Y, 1), Fadd(Z, 0), R(X)]];
        assert!(!reachable(
            m,
            &[(X, 0), (Y, 0), (Z, 0)],
            &t,
            &[&[0, 0], &[0, 0]],
            2
        ));
    }
}

#[test]
fn uninitialised_reads_block() {
    // Remark 1: with no write to x, no read of x can happen.
    for m in [Sra, Wra] {
        assert!(!reachable(m, &[], &[&[R(X)]], &[&[0]], 2));
    }
}

#[test]
fn example_5_4_needs_several_lists_per_thread() {
    // Example 5.4: the annotated outcome is allowed under SRA (and so under WRA); it
    // needs potentials with more than one list.
    let t: [&[Op]; 6] = [
        &[W(X, 0), W(X, 1), R(Z), R(Y)],
        &[W(Y, 0), W(Y, 1), R(X), R(Z)],
        &[W(Z, 0), W(Z, 1), R(Y), R(X)],
        &[R(X), R(Y), R(Z)],
        &[R(Y), R(Z), R(X)],
        &[R(Z), R(X), R(Y)],
    ];
    let out: [&[u8]; 6] = [
        &[1, 0],
        &[1, 0],
        &[1, 0],
        &[1, 1, 0],
        &[1, 1, 0],
        &[1, 1, 0],
    ];
    for m in [Sra, Wra] {
        assert!(reachable(m, &[], &t, &out, 2));
    }
}

#[test]
fn example_5_5_two_mp_is_forbidden_under_sra() {
    // Example 5.5 (2MP): T1: x:=0; x:=1; z:=1 || T2: y:=0; y:=1; z:=1 ||
    // T3: a:=z //1; b:=x //0; w:=1 || T4: c:=w //1; d:=y //0 — disallowed under SRA.
    const W_: u8 = 3;
    let t: [&[Op]; 4] = [
        &[W(X, 0), W(X, 1), W(Z, 1)],
        &[W(Y, 0), W(Y, 1), W(Z, 1)],
        &[R(Z), R(X), W(W_, 1)],
        &[R(W_), R(Y)],
    ];
    assert!(!reachable(Sra, &[], &t, &[&[], &[], &[1, 0], &[1, 0]], 2));
}
