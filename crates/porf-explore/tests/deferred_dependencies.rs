//! Property P2 of the deferred explorer (`porf_explore::deferred`, module docs), per
//! model: no consistent execution has a cycle of rf and the dependencies the explorer
//! waits for. Checked on every execution (up to a limit) of random hardware graphs of
//! `porf_models::hwgen`, load buffering included, under each model that allows load
//! buffering and claims it (`MemoryModel::forbids_dependency_cycles`): `armv8` and
//! `imm` on AArch64 graphs, `riscv` on RISC-V graphs, `power` on POWER graphs; `lkmm`
//! does not claim it, and a consistent cyclic execution shows why. Cyclic executions are counted so that a
//! generator that stopped producing them shows: each model must reject some.
//!
//! `PORF_DEFERRED_P2_GRAPHS` overrides the number of graphs per model (default 2000).

mod common;

use common::env;
use porf_explore::deferred::dependency_cycle;
use porf_models::by_name;
use porf_models::hwgen::{hw_executions, random_hw_graph, HwArch, HwShape};

fn check(model_name: &str, arch: HwArch) {
    let model = by_name(model_name).unwrap();
    assert!(model.allows_load_buffering() && model.forbids_dependency_cycles());
    let n = env("PORF_DEFERRED_P2_GRAPHS", 2000);
    let (mut consistent, mut cyclic) = (0u64, 0u64);
    for seed in 0..n {
        let g = random_hw_graph(seed, &HwShape::random(seed, arch));
        for x in hw_executions(&g, 64, seed) {
            let cycle = dependency_cycle(&x);
            cyclic += cycle as u64;
            if model.is_consistent(&x) {
                consistent += 1;
                assert!(
                    !cycle,
                    "{model_name} accepts an execution with a cycle of rf and dependencies \
                     (seed {seed}):\n{x:?}"
                );
            }
        }
    }
    eprintln!("{model_name}: {consistent} consistent executions, {cyclic} with a dependency cycle (all rejected)");
    assert!(consistent > 0 && cyclic > 0);
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

/// LKMM does not order plain accesses, so it accepts some execution with a cycle of
/// rf and dependencies through them (a flagged data race): it does not claim P2, and
/// the deferred explorer refuses it (`porf_explore::supported`).
#[test]
fn lkmm_accepts_a_cycle_and_does_not_claim_p2() {
    let model = by_name("lkmm").unwrap();
    assert!(!model.forbids_dependency_cycles());
    let found = (0..env("PORF_DEFERRED_P2_GRAPHS", 2000)).any(|seed| {
        let g = random_hw_graph(seed, &HwShape::random(seed, HwArch::Kernel));
        hw_executions(&g, 64, seed)
            .iter()
            .any(|x| dependency_cycle(x) && model.is_consistent(x))
    });
    assert!(found, "no consistent cyclic execution under lkmm");
}
