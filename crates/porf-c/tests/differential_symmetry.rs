//! Differential test of symmetry reduction (`porf_explore::symmetry`): random programs
//! whose `main` spawns two or three copies of one thread function on one argument —
//! declared symmetric (`__VERIFIER_spawn_symmetric`) or left to the automatic
//! detection (`__VERIFIER_spawn`, no joins) — and sometimes one other thread, explored
//! under every co-mode model with the reduction on and off and by the reference
//! explorer. The reduction keeps one of each pair of executions that differ by
//! swapping symmetric threads, so all three must reach the same final memory states
//! of complete executions and the same errors (class and source locations), with the
//! threads' registers compared as a multiset (a thread's registers may be its twin's);
//! the reduced complete count is at most the unreduced one, which equals the
//! reference explorer's.
//!
//! `PORF_DIFF_SR_PROGRAMS` sets the number of programs per model (default 12),
//! `PORF_DIFF_SR_FIRST` the first seed (default 0). A failure prints the model, the
//! seed and the program; `porf verify FILE --model M --keep-going`, with and without
//! `--disable-sr`, reproduces it.

mod common;

use common::{compile, differ, seeds, Campaign};
use porf_c::RunOptions;
use porf_explore::{explore, Config, Stats, Strategy};
use porf_graph::hash::SplitMix64;
use porf_models::by_name;
use std::collections::BTreeSet;

/// One of `xs`, drawn from `rng`.
fn pick<'a>(rng: &mut SplitMix64, xs: &[&'a str]) -> &'a str {
    xs[rng.below(xs.len() as u64) as usize]
}

const ORDS: &[&str] = &[
    "memory_order_relaxed",
    "memory_order_acquire",
    "memory_order_release",
    "memory_order_seq_cst",
];
const VARS: &[&str] = &["x", "y"];

/// A thread body of two to four statements over `x` and `y`, with registers
/// `r0..`; sometimes an assertion over what it read.
fn body(rng: &mut SplitMix64, name: &str) -> String {
    let n = 2 + rng.below(3);
    let mut s = format!("void *{name}(void *arg)\n{{\n");
    let mut regs = 0;
    for _ in 0..n {
        let v = pick(rng, VARS);
        let load_ord = [
            "memory_order_relaxed",
            "memory_order_acquire",
            "memory_order_seq_cst",
        ][rng.below(3) as usize];
        let store_ord = [
            "memory_order_relaxed",
            "memory_order_release",
            "memory_order_seq_cst",
        ][rng.below(3) as usize];
        let rmw_ord = pick(rng, ORDS);
        match rng.below(5) {
            0 | 1 => {
                s += &format!("\tint r{regs} = atomic_load_explicit(&{v}, {load_ord});\n");
                regs += 1;
            }
            2 => {
                let val = if regs > 0 {
                    format!("r{} + 1", rng.below(regs))
                } else {
                    format!("{}", 1 + rng.below(2))
                };
                s += &format!("\tatomic_store_explicit(&{v}, {val}, {store_ord});\n");
            }
            3 => {
                s += &format!("\tint r{regs} = atomic_fetch_add_explicit(&{v}, 1, {rmw_ord});\n");
                regs += 1;
            }
            _ => {
                s += &format!(
                    "\tint r{regs} = 0;\n\tatomic_compare_exchange_strong_explicit(&{v}, &r{regs}, {}, {rmw_ord}, memory_order_relaxed);\n",
                    1 + rng.below(2)
                );
                regs += 1;
            }
        }
    }
    if regs > 0 && rng.below(3) == 0 {
        s += &format!("\tassert(r{} != {});\n", rng.below(regs), 1 + rng.below(2));
    }
    s += "\treturn NULL;\n}\n";
    s
}

/// A random program: `main` spawns two or three copies of `f` (declared symmetric or
/// not), and maybe a thread `g`, before or after them.
fn program(seed: u64) -> String {
    let mut rng = SplitMix64(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed);
    let copies = 2 + rng.below(2);
    let declared = rng.below(2) == 0;
    let other = rng.below(3);
    let mut s = String::from(
        "#include <stdatomic.h>\n#include <assert.h>\n#include <genmc.h>\n\natomic_int x, y;\n\n",
    );
    s += &body(&mut rng, "f");
    if other > 0 {
        s += &body(&mut rng, "g");
    }
    s += "\nint main(void)\n{\n";
    if other == 1 {
        s += "\t__VERIFIER_spawn(g, NULL);\n";
    }
    s += "\t__VERIFIER_thread_t t0 = __VERIFIER_spawn(f, NULL);\n";
    for i in 1..copies {
        if declared {
            s += &format!(
                "\t__VERIFIER_thread_t t{i} = __VERIFIER_spawn_symmetric(f, NULL, t{});\n",
                i - 1
            );
        } else {
            s += &format!("\t__VERIFIER_thread_t t{i} = __VERIFIER_spawn(f, NULL);\n");
        }
    }
    if other == 2 {
        s += "\t__VERIFIER_spawn(g, NULL);\n";
    }
    s += "\treturn 0;\n}\n";
    s
}

/// A final state up to which thread holds which registers: the threads' registers
/// sorted, and the memory.
type Outcome = (Vec<Vec<i64>>, Vec<(u64, i64)>);

/// The final states up to which thread holds which registers.
fn outcomes(s: &Stats) -> BTreeSet<Outcome> {
    s.final_states
        .iter()
        .map(|f| {
            let mut regs: Vec<Vec<i64>> = f.registers.iter().map(|(_, r)| r.clone()).collect();
            regs.sort();
            (regs, f.memory.clone())
        })
        .collect()
}

fn differential(model_name: &str) {
    let model = by_name(model_name).unwrap();
    let cfg = |disable_sr| Config {
        keep_going: true,
        collect_final_states: true,
        disable_sr,
        ..Config::default()
    };
    let seeds = seeds("PORF_DIFF_SR", 12);
    let n = seeds.end - seeds.start;
    let mut campaign = Campaign::new(model_name);
    let (mut on_n, mut off_n, mut errs) = (0u64, 0u64, 0usize);
    for seed in seeds {
        let text = program(seed);
        let tag = format!("{model_name}-{seed}");
        let prog = compile(&text, "diff-sr", &tag, RunOptions::default());
        let on = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg(false));
        let off = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg(true));
        let reference = explore(Strategy::Reference, &prog, model.as_ref(), &cfg(true));
        let mut d = Vec::new();
        for (what, a, b) in [
            ("on / off", &on, &off),
            ("off / reference", &off, &reference),
        ] {
            differ(
                &mut d,
                &format!("{what}: final states"),
                &outcomes(a),
                &outcomes(b),
            );
            differ(
                &mut d,
                &format!("{what}: errors"),
                &a.error_keys(),
                &b.error_keys(),
            );
        }
        if on.complete > off.complete || off.complete != reference.complete {
            d.push(format!(
                "complete: on {}, off {}, reference {}",
                on.complete, off.complete, reference.complete
            ));
        }
        on_n += on.complete;
        off_n += off.complete;
        errs += on.errors.len();
        campaign.check(format!("seed {seed}"), &text, d);
    }
    campaign.finish(
        &format!(
            "{n} programs, complete executions {on_n} with symmetry reduction, {off_n} without; {errs} errors"
        ),
        n,
        None,
    );
    assert!(
        on_n < off_n,
        "the programs exercise the reduction ({on_n} against {off_n})"
    );
}

#[test]
fn symmetry_reduction_keeps_outcomes_and_errors_sc() {
    differential("sc");
}

#[test]
fn symmetry_reduction_keeps_outcomes_and_errors_tso() {
    differential("tso");
}

#[test]
fn symmetry_reduction_keeps_outcomes_and_errors_ra() {
    differential("ra");
}

#[test]
fn symmetry_reduction_keeps_outcomes_and_errors_rc11() {
    differential("rc11");
}
