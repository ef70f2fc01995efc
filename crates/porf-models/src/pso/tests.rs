//! PSO against its operational definition: the axiomatic model must allow exactly the
//! executions of the store-buffer machine ([`machine`]) on every test program, whose
//! counts therefore come from that brute force and are never written down. The machine
//! itself is checked the same way against TSO.

use super::machine::{self, Buffers};
use super::*;
use crate::relation::testkit::{self, prog, Expect, Op, Prog};
use crate::tso::Tso;
use porf_graph::MemOrder::{Acquire, Relaxed, Release, SeqCst};

#[test]
fn litmus_shapes() {
    testkit::check_shapes(
        &Pso,
        Expect {
            sb: true,
            sb_sc: false,
            mp: true,
            mp_fences: false,
            sb_fences: false,
            lb: false,
            corr: false,
            two_plus_two_w: true,
        },
    );
}

/// Programs whose outcomes tell PSO's store-store barriers and full fences apart.
pub(crate) fn pso_programs() -> Vec<(&'static str, Prog)> {
    use testkit::{X, Y, Z};
    use Op::*;
    vec![
        (
            "mp_rel",
            prog(&[
                &[W(X, Relaxed), W(Y, Release)],
                &[R(Y, Relaxed), R(X, Relaxed)],
            ]),
        ),
        (
            "mp_rel_first",
            prog(&[
                &[W(X, Release), W(Y, Relaxed)],
                &[R(Y, Relaxed), R(X, Relaxed)],
            ]),
        ),
        (
            "mp_across_rel",
            prog(&[
                &[W(X, Relaxed), W(Y, Release), W(Z, Relaxed)],
                &[R(Z, Relaxed), R(Y, Relaxed), R(X, Relaxed)],
            ]),
        ),
        (
            "mp_rel_fence_3",
            prog(&[
                &[W(X, Relaxed), F(Release), W(Y, Relaxed), W(Z, Relaxed)],
                &[R(Z, Acquire), R(Y, Relaxed), R(X, Relaxed)],
            ]),
        ),
        (
            "mp_sc_store",
            prog(&[
                &[W(X, Relaxed), W(Y, SeqCst)],
                &[R(Y, Relaxed), R(X, Relaxed)],
            ]),
        ),
        (
            "mp_faa",
            prog(&[
                &[W(X, Relaxed), Faa(Z, Relaxed), W(Y, Relaxed)],
                &[R(Y, Relaxed), R(X, Relaxed)],
            ]),
        ),
        (
            "2+2w_rel",
            prog(&[
                &[W(X, Relaxed), W(Y, Release)],
                &[W(Y, Relaxed), W(X, Release)],
            ]),
        ),
        (
            "coww_corr",
            prog(&[
                &[W(X, Relaxed), W(X, Relaxed)],
                &[R(X, Relaxed), R(X, Relaxed)],
            ]),
        ),
        (
            "sb_forwarding",
            prog(&[
                &[W(X, Relaxed), R(X, Relaxed), R(Y, Relaxed)],
                &[W(Y, Relaxed), R(Y, Relaxed), R(X, Relaxed)],
            ]),
        ),
        (
            "rmw_after_buffered",
            prog(&[
                &[W(X, Relaxed), Faa(Y, Relaxed)],
                &[Faa(Y, Relaxed), R(X, Relaxed)],
            ]),
        ),
    ]
}

#[test]
fn the_machine_is_tso_with_one_buffer_per_thread() {
    for (name, p) in testkit::program_list() {
        let axiomatic = testkit::brute_force(&Tso, &p);
        let operational = machine::executions(&Tso, &p, Buffers::PerThread);
        assert_eq!(axiomatic, operational, "tso: {name}");
    }
}

#[test]
fn pso_is_the_machine_with_one_buffer_per_location() {
    for (name, p) in testkit::program_list().into_iter().chain(pso_programs()) {
        let axiomatic = testkit::brute_force(&Pso, &p);
        let operational = machine::executions(&Pso, &p, Buffers::PerLocation);
        assert_eq!(axiomatic, operational, "pso: {name}");
        // The incremental check agrees with the declarative one at every step.
        testkit::check_programs(&Pso, &[(name, p, operational.len())]);
    }
}

#[test]
fn pso_allows_every_tso_execution_and_more() {
    let mut weaker = Vec::new();
    for (name, p) in testkit::program_list().into_iter().chain(pso_programs()) {
        let tso = testkit::brute_force(&Tso, &p);
        let pso = testkit::brute_force(&Pso, &p);
        assert!(tso.is_subset(&pso), "{name}");
        if pso.len() > tso.len() {
            weaker.push(name);
        }
    }
    // A release store orders the stores before it, not those after it.
    for name in [
        "mp",
        "2+2w",
        "mp_rel_first",
        "mp_across_rel",
        "mp_rel_fence_3",
    ] {
        assert!(weaker.contains(&name), "{name} should be weaker under pso");
    }
    for name in ["mp_rel", "mp_sc_store", "mp_faa", "sb", "2+2w_rel"] {
        assert!(!weaker.contains(&name), "{name} should be as under tso");
    }
}
