//! The deferred explorer's prefix check (`porf_explore::deferred::prefix`), per model:
//! a decided prefix it rejects has no consistent extension. Checked on every execution
//! (up to a limit) of random hardware graphs of `porf_models::hwgen`: for random
//! subsets of an execution's accesses taken as decided (a read whose source is not
//! decided is pending; the decided writes keep the execution's co order), whenever
//! the check fails at some location the model must reject the execution. Under each
//! model the deferred explorer supports: `armv8` and `imm` on AArch64 graphs, `riscv`
//! on RISC-V graphs, `power` on POWER graphs. Rejected prefixes are counted so that a
//! check that stopped rejecting shows.
//!
//! `PORF_DEFERRED_PREFIX_GRAPHS` overrides the number of graphs per model (default 600).

mod common;

use common::env;
use porf_explore::deferred::prefix::{consistent, Access};
use porf_graph::hash::SplitMix64;
use porf_graph::{EventId, Graph};
use porf_models::by_name;
use porf_models::hwgen::{hw_executions, random_hw_graph, HwArch, HwShape};

/// The subsets' random bits: one splitmix64 step from `x`.
fn mix(x: u64) -> u64 {
    SplitMix64(x).next_u64()
}

/// Whether the prefix of `x` made of the accesses `decided` keeps fails the check at
/// some location.
fn prefix_rejected(x: &Graph, decided: &dyn Fn(EventId) -> bool, uniproc: bool) -> bool {
    x.locations().any(|(_, info)| {
        let mut acc: Vec<(EventId, Access)> = info
            .accesses
            .iter()
            .filter(|&&e| decided(e))
            .map(|&e| {
                let l = x.label(e);
                let a = if l.is_read() {
                    let src = match l.rf() {
                        None => Some(None),
                        Some(w) if decided(w) => Some(Some(w)),
                        Some(_) => None,
                    };
                    Access::Read { src }
                } else {
                    Access::Write {
                        exclusive: l.is_exclusive_write(),
                    }
                };
                (e, a)
            })
            .collect();
        acc.sort_by_key(|&(e, _)| e);
        let co: Vec<EventId> = info.co.iter().copied().filter(|&w| decided(w)).collect();
        !consistent(&acc, &co, uniproc)
    })
}

fn check(model_name: &str, arch: HwArch) {
    let model = by_name(model_name).unwrap();
    let n = env("PORF_DEFERRED_PREFIX_GRAPHS", 600);
    let (mut accepted, mut rejected) = (0u64, 0u64);
    for seed in 0..n {
        let g = random_hw_graph(seed, &HwShape::random(seed, arch));
        for (k, x) in hw_executions(&g, 32, seed).iter().enumerate() {
            let ok = model.is_consistent(x);
            accepted += ok as u64;
            for round in 0..4u64 {
                let bits = mix(seed << 20 ^ (k as u64) << 4 ^ round);
                // Round 0 decides everything; the others a random half or more.
                let decided = |e: EventId| {
                    round == 0 || !mix(bits ^ (e.tid as u64) << 32 ^ e.idx as u64).is_multiple_of(3)
                };
                if prefix_rejected(x, &decided, model.uniproc()) {
                    rejected += 1;
                    assert!(
                        !ok,
                        "{model_name} accepts an execution whose prefix the deferred explorer \
                         prunes (seed {seed}, round {round}):\n{x:?}"
                    );
                }
            }
        }
    }
    eprintln!("{model_name}: {accepted} consistent executions, {rejected} rejected prefixes");
    assert!(accepted > 0 && rejected > 0);
}

#[test]
fn armv8() {
    check("armv8", HwArch::Arm);
}

#[test]
fn imm() {
    check("imm", HwArch::Arm);
}

#[test]
fn riscv() {
    check("riscv", HwArch::RiscV);
}

#[test]
fn power() {
    check("power", HwArch::Power);
}
