//! Differential testing of the values explorer's candidate pruning
//! (`porf_explore::values`, "Pruning": rf and co choices cut by RMW atomicity and, for
//! `lkmm`, SC per location): on random kernel litmus tests with `spin_lock` /
//! `spin_unlock` critical sections (some locks never released), `spin_trylock`,
//! `xchg` and `cmpxchg` RMWs, `READ_ONCE`, `WRITE_ONCE` (of constants and of read
//! values), plain accesses and fences, run under `lkmm` with pruning and without
//! (`Options::disable_candidate_pruning`), both must print the same herd text: the
//! final states with their execution counts, the witness counts and the observation.
//!
//! `PORF_DIFF_PRUNING_PROGRAMS` overrides the number of tests (default 200),
//! `PORF_DIFF_PRUNING_SEED` shifts the seeds.

mod common;

use common::{env, Rng};
use porf_litmus::run::{check_test, herd_text, Options, Test};

const LOCS: [&str; 2] = ["x", "y"];
const LOCKS: [&str; 2] = ["l0", "l1"];

/// One thread's statements; `regs` counts the registers it declared.
fn body(rng: &mut Rng, depth: usize, regs: &mut usize) -> Vec<String> {
    let mut out = Vec::new();
    // Small: without pruning a lock location of k writes has k! co orders.
    let n = if depth == 0 {
        1 + rng.below(2) as usize
    } else {
        1
    };
    for _ in 0..n {
        let l = LOCS[rng.below(2) as usize];
        let v = 1 + rng.below(2);
        let last = (*regs > 0).then(|| rng.below(*regs as u64) as usize);
        match rng.below(10) {
            0 | 1 if depth == 0 => {
                let lk = LOCKS[rng.below(2) as usize];
                out.push(format!("spin_lock({lk});"));
                out.extend(body(rng, 1, regs));
                // A lock held to the end now and then: other acquirers must wait.
                if rng.below(6) != 0 {
                    out.push(format!("spin_unlock({lk});"));
                }
            }
            2 if depth == 0 => {
                let lk = LOCKS[rng.below(2) as usize];
                out.push(format!("r{} = spin_trylock({lk});", *regs));
                let r = *regs;
                *regs += 1;
                out.push(format!(
                    "if (r{r}) {{ WRITE_ONCE(*{l}, {v}); spin_unlock({lk}); }}"
                ));
            }
            3 | 4 => {
                out.push(format!("r{} = READ_ONCE(*{l});", *regs));
                *regs += 1;
            }
            5 => {
                out.push(format!("r{} = xchg({l}, {v});", *regs));
                *regs += 1;
            }
            6 => {
                out.push(format!("r{} = cmpxchg_relaxed({l}, 0, {v});", *regs));
                *regs += 1;
            }
            7 => match last {
                Some(j) => out.push(format!("WRITE_ONCE(*{l}, r{j});")),
                None => out.push(format!("*{l} = {v};")),
            },
            8 => out.push(["smp_mb();", "smp_wmb();", "smp_rmb();"][rng.below(3) as usize].into()),
            _ => out.push(format!("WRITE_ONCE(*{l}, {v});")),
        }
    }
    out
}

/// A random kernel test as litmus text.
fn test_text(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let threads = 2 + rng.below(2) as usize;
    let mut s = format!("C R{seed}\n{{}}\n\n");
    let mut cond = vec!["x=0".to_string(), "y=0".to_string()];
    for t in 0..threads {
        let mut regs = 0;
        let lines = body(&mut rng, 0, &mut regs);
        s += &format!("P{t}(int *x, int *y, spinlock_t *l0, spinlock_t *l1)\n{{\n");
        for k in 0..regs {
            s += &format!("\tint r{k};\n");
            cond.push(format!("{t}:r{k}=0"));
        }
        for line in lines {
            s += &format!("\t{line}\n");
        }
        s += "}\n\n";
    }
    s + &format!("exists ({})\n", cond.join(" /\\ "))
}

#[test]
fn pruning_keeps_every_outcome() {
    let n = env("PORF_DIFF_PRUNING_PROGRAMS", 200);
    let base = env("PORF_DIFF_PRUNING_SEED", 0);
    let model = porf_models::by_name("lkmm").unwrap();
    let mut failures = Vec::new();
    let (mut compared, mut executions, mut locked) = (0, 0, 0);
    for seed in base..base + n {
        let text = test_text(seed);
        let test = Test::C(
            porf_litmus::parse("random.litmus", &text).unwrap_or_else(|e| panic!("{e}\n{text}")),
        );
        let run = |disable: bool| {
            let opts = Options {
                threads: 1,
                disable_candidate_pruning: disable,
                ..Options::default()
            };
            check_test(&test, model.as_ref(), "lkmm", &opts).map(|o| {
                let text = herd_text(&o);
                let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("Time ")).collect();
                (o.executions(), lines.join("\n"))
            })
        };
        match (run(false), run(true)) {
            (Ok((k, p)), Ok((_, f))) => {
                compared += 1;
                executions += k;
                locked += text.contains("spin_lock") as u64;
                if p != f {
                    failures.push(format!("{text}\n--- pruned\n{p}\n--- full\n{f}"));
                }
            }
            (p, f) => failures.push(format!("{text}\n--- pruned\n{p:?}\n--- full\n{f:?}")),
        }
    }
    eprintln!("{compared} of {n} tests compared ({executions} executions, {locked} with locks)");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(compared == n && locked * 2 >= n, "too few tests with locks");
}
