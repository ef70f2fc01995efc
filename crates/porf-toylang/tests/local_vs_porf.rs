//! Two independent readings of the same toy programs must agree under SC: porf's
//! graph explorer running [`ToyLangProgram`] (the `Action` machine), and a direct
//! interleaving semantics built on the crate's local LTS ([`Program::successors`])
//! with an SC memory (a map from location to its last value; a read of a location
//! nobody has written has no step, Lahav and Boker's Remark 1). On random loop-free
//! programs: the same reachable assertion failures (by position, final assertion
//! included) and the same final register files of executions that run to the end.
//! Also: whatever SC reaches, RA reaches (SC-consistent executions are
//! RA-consistent).

use porf_explore::{Config, Equiv, ErrorClass, Strategy};
use porf_toylang::{
    parse, random_program, GenConfig, LocalLabel, Pos, Program, RunOptions, ThreadState,
    ToyLangProgram, Value,
};
use std::collections::{BTreeSet, HashSet};

type Outcomes = (BTreeSet<Pos>, BTreeSet<Vec<Vec<Value>>>);

/// Every interleaving of the local LTS over an SC memory: the positions of reachable
/// assertion failures and the register files of all-terminated states whose final
/// assertion holds.
fn sc_by_interleaving(p: &Program) -> Outcomes {
    let mem0: Vec<Option<Value>> = (0..p.locations.len()).map(|l| p.init_value(l)).collect();
    let start: Vec<ThreadState> = (0..p.threads.len()).map(|t| p.initial_state(t)).collect();
    let mut seen = HashSet::new();
    let mut stack = vec![(start, mem0)];
    let (mut errors, mut finals) = (BTreeSet::new(), BTreeSet::new());
    while let Some((ts, mem)) = stack.pop() {
        if !seen.insert((ts.clone(), mem.clone())) {
            continue;
        }
        if ts.iter().enumerate().all(|(t, s)| p.is_terminated(t, s)) {
            if p.final_assertion_fails(&ts) {
                errors.insert(p.final_assert.as_ref().unwrap().pos);
            } else {
                finals.insert(ts.iter().map(|s| s.regs.to_vec()).collect());
            }
            continue;
        }
        for t in 0..ts.len() {
            if let Some((_, pos)) = p.assertion_failure(t, &ts[t]) {
                errors.insert(pos);
            }
            for (label, next) in p.successors(t, &ts[t]) {
                let mut mem = mem.clone();
                let ok = match label {
                    LocalLabel::Silent => true,
                    LocalLabel::Write { loc, val } => {
                        mem[loc] = Some(val);
                        true
                    }
                    LocalLabel::Read { loc, val } => mem[loc] == Some(val),
                    LocalLabel::Rmw { loc, read, write } => {
                        let ok = mem[loc] == Some(read);
                        mem[loc] = Some(write);
                        ok
                    }
                };
                if ok {
                    let mut ts = ts.clone();
                    ts[t] = next;
                    stack.push((ts, mem));
                }
            }
        }
    }
    (errors, finals)
}

fn by_porf(p: &Program, model: &str, equiv: Equiv) -> Outcomes {
    let prog = ToyLangProgram::new(p.clone(), RunOptions::default());
    let m = porf_models::by_name(model).unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        equiv,
        ..Config::default()
    };
    let stats = porf_explore::explore(Strategy::Optimal, &prog, m.as_ref(), &cfg);
    let mut errors = BTreeSet::new();
    for e in &stats.errors {
        assert_eq!(e.class, ErrorClass::Assertion, "{}", e.message);
        let s = e.events[0].1;
        errors.insert(Pos {
            line: s.line,
            col: s.col,
        });
    }
    let n = p.threads.len() as u32;
    let finals = stats
        .final_states
        .iter()
        .map(|f| {
            (1..=n)
                .map(|tid| {
                    f.registers
                        .iter()
                        .find(|(t, _)| *t == tid)
                        .map(|(_, r)| r.clone())
                        .expect("every thread's registers")
                })
                .collect()
        })
        .collect();
    (errors, finals)
}

#[test]
fn porf_under_sc_agrees_with_the_local_lts_on_random_programs() {
    let cfg = GenConfig::default();
    let (mut with_errors, mut with_finals) = (0, 0);
    for seed in 0..1000 {
        let src = random_program(seed, &cfg);
        let p = parse("random.toy", &src).unwrap_or_else(|d| panic!("{d}\n{src}"));
        let want = sc_by_interleaving(&p);
        for equiv in [Equiv::Co, Equiv::Rf] {
            let got = by_porf(&p, "sc", equiv);
            assert_eq!(got, want, "seed {seed} ({equiv:?}):\n{src}");
        }
        let ra = by_porf(&p, "ra", Equiv::Co);
        assert!(
            want.0.is_subset(&ra.0) && want.1.is_subset(&ra.1),
            "seed {seed}: SC reaches more than RA:\n{src}"
        );
        with_errors += usize::from(!want.0.is_empty());
        with_finals += usize::from(!want.1.is_empty());
    }
    println!("{with_errors} programs with reachable failures, {with_finals} with complete runs");
    // The generator is not degenerate: both kinds of outcome occur often.
    assert!(
        with_errors > 150 && with_finals > 500,
        "{with_errors} {with_finals}"
    );
}
