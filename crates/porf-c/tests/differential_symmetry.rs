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

use porf_c::{compile_file, CProgram, FrontOptions, RunOptions};
use porf_explore::{explore, Config, Stats, Strategy};
use porf_models::by_name;
use std::collections::BTreeSet;

fn env(var: &str, default: u64) -> u64 {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// A small deterministic generator (SplitMix64).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
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
fn body(rng: &mut Rng, name: &str) -> String {
    let n = 2 + rng.below(3);
    let mut s = format!("void *{name}(void *arg)\n{{\n");
    let mut regs = 0;
    for _ in 0..n {
        let v = rng.pick(VARS);
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
        let rmw_ord = rng.pick(ORDS);
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
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed);
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

fn compile(text: &str, tag: &str) -> CProgram {
    let path = std::env::temp_dir().join(format!("porf-diff-sr-{}-{tag}.c", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let module = compile_file(&path, &FrontOptions::default());
    let _ = std::fs::remove_file(&path);
    let module = module.unwrap_or_else(|d| panic!("{d}\n{text}"));
    CProgram::new(module, RunOptions::default())
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
    let first = env("PORF_DIFF_SR_FIRST", 0);
    let n = env("PORF_DIFF_SR_PROGRAMS", 12);
    let mut failures = Vec::new();
    let (mut on_n, mut off_n, mut errs) = (0u64, 0u64, 0usize);
    for seed in first..first + n {
        let text = program(seed);
        let prog = compile(&text, &format!("{model_name}-{seed}"));
        let on = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg(false));
        let off = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg(true));
        let reference = explore(Strategy::Reference, &prog, model.as_ref(), &cfg(true));
        let mut d = Vec::new();
        if outcomes(&on) != outcomes(&off) || outcomes(&off) != outcomes(&reference) {
            d.push(format!(
                "final states\n    on  {:?}\n    off {:?}\n    ref {:?}",
                outcomes(&on),
                outcomes(&off),
                outcomes(&reference)
            ));
        }
        if on.error_keys() != off.error_keys() || off.error_keys() != reference.error_keys() {
            d.push(format!(
                "errors\n    on  {:?}\n    off {:?}\n    ref {:?}",
                on.error_keys(),
                off.error_keys(),
                reference.error_keys()
            ));
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
        if !d.is_empty() {
            failures.push(format!(
                "model {model_name}, seed {seed}:\n  {}\n{text}",
                d.join("\n  ")
            ));
        }
    }
    eprintln!(
        "{model_name}: {n} programs, complete executions {on_n} with symmetry reduction, {off_n} without; {errs} errors"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
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
