//! Random small C programs built around `pthread_barrier_wait`, as source text, for the
//! differential test of barrier-aware exploration (`tests/differential_bam.rs`: the
//! same program with `porf_explore::Config::disable_bam` off and on, and against the
//! reference explorer): two or three workers, sometimes `main` too, meet at one
//! barrier (sometimes two) for one or two rounds (three, with two workers); between
//! their waits they store to
//! and load from shared atomics (relaxed, release/acquire, seq_cst), write and read a
//! plain shared variable (a race unless a barrier orders the accesses), and count the
//! `PTHREAD_BARRIER_SERIAL_THREAD` returns (which thread arrived last). Sometimes the
//! program is not barrier-well-formed: the barrier's size is one less than the
//! threads that meet there (rounds complete early and the threads of the next one may
//! wait for good), one more (nobody leaves), or a worker waits one round fewer. `main`
//! may assert on what the workers saw (an assertion that fails in some executions).
//!
//! Invariants of [`random_barrier_program`]:
//! * The text is a function of the seed (drawn through `random_gen`).
//! * Every program is in porf's C subset and loop-free but for `main`'s spawn and
//!   join loops (bounded by the number of workers).
//! * What a thread saw is stored in globals, so the final states of complete
//!   executions tell the workers' views apart.

use crate::random_gen::Gen;
use std::fmt::Write as _;

/// One thread's code between its barrier waits: `seen` counts the globals it stores
/// what it read in (`v{tid}_{n}`).
fn segment(g: &mut Gen, tid: usize, value: &mut i64, seen: &mut Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..g.below(3) {
        let var = if g.chance(50) { "x" } else { "y" };
        match g.below(4) {
            0 | 1 => {
                *value += 1;
                let ord = g.order("rel");
                out.push(format!("atomic_store_explicit(&{var}, {value}, {ord});"));
            }
            2 => {
                let name = format!("v{tid}_{}", seen.len());
                let ord = g.order("acq");
                out.push(format!("{name} = atomic_load_explicit(&{var}, {ord});"));
                seen.push(name);
            }
            _ => {
                if g.chance(50) {
                    *value += 1;
                    out.push(format!("d = {value};"));
                } else {
                    let name = format!("v{tid}_{}", seen.len());
                    out.push(format!("{name} = d;"));
                    seen.push(name);
                }
            }
        }
    }
    out
}

/// A random barrier program for `seed`.
pub fn random_barrier_program(seed: u64) -> String {
    let mut g = Gen::new(seed ^ 0xba44_1e00);
    let workers = 2 + g.chance(30) as usize;
    let main_meets = g.chance(25);
    let meeting = workers + main_meets as usize;
    let size = match g.below(100) {
        0..=9 => meeting - 1,
        10..=14 => meeting + 1,
        _ => meeting,
    };
    let two = g.chance(20);
    let rounds = 1 + g.below(2) as usize + (workers == 2 && g.chance(30)) as usize;
    let short = g.chance(10).then(|| g.below(workers as u64) as usize);
    // Thread 0 is main; workers are 1..=workers.
    let mut bodies: Vec<Vec<String>> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut serials: Vec<String> = Vec::new();
    for tid in 0..=workers {
        let mut body = Vec::new();
        if tid == 0 && !main_meets {
            bodies.push(body);
            continue;
        }
        let mut value = 10 * tid as i64;
        let mine = if short == Some(tid.wrapping_sub(1)) && rounds > 1 {
            rounds - 1
        } else {
            rounds
        };
        for round in 0..mine {
            body.extend(segment(&mut g, tid, &mut value, &mut seen));
            let bar = if two && round % 2 == 1 { "b2" } else { "b" };
            if g.chance(40) {
                let name = format!("serial{tid}");
                if !serials.contains(&name) {
                    serials.push(name.clone());
                }
                body.push(format!(
                    "if (pthread_barrier_wait(&{bar}) == PTHREAD_BARRIER_SERIAL_THREAD) {name}++;"
                ));
            } else {
                body.push(format!("pthread_barrier_wait(&{bar});"));
            }
        }
        body.extend(segment(&mut g, tid, &mut value, &mut seen));
        bodies.push(body);
    }
    let mut s = String::new();
    let _ = writeln!(s, "// random_barrier_program({seed})");
    s.push_str("#include <assert.h>\n#include <pthread.h>\n#include <stdatomic.h>\n\n");
    s.push_str("pthread_barrier_t b, b2;\natomic_int x, y;\nint d;\n");
    for v in seen.iter().chain(&serials) {
        let _ = writeln!(s, "int {v};");
    }
    for (tid, body) in bodies.iter().enumerate().skip(1) {
        let _ = writeln!(s, "\nvoid *w{tid}(void *arg)\n{{");
        for line in body {
            let _ = writeln!(s, "\t{line}");
        }
        s.push_str("\treturn 0;\n}\n");
    }
    s.push_str("\nint main(void)\n{\n");
    let _ = writeln!(s, "\tpthread_t t[{workers}];");
    let _ = writeln!(s, "\tpthread_barrier_init(&b, 0, {size});");
    if two {
        let _ = writeln!(s, "\tpthread_barrier_init(&b2, 0, {size});");
    }
    for tid in 1..=workers {
        let _ = writeln!(s, "\tpthread_create(&t[{}], 0, w{tid}, 0);", tid - 1);
    }
    for line in &bodies[0] {
        let _ = writeln!(s, "\t{line}");
    }
    let _ = writeln!(
        s,
        "\tfor (int i = 0; i < {workers}; i++)\n\t\tpthread_join(t[i], 0);"
    );
    if !seen.is_empty() && g.chance(30) {
        let v = &seen[g.below(seen.len() as u64) as usize];
        let _ = writeln!(s, "\tassert({v} != {});", 1 + g.below(30));
    }
    if serials.len() > 1 && g.chance(30) {
        let _ = writeln!(s, "\tassert({} <= {});", serials[0], serials[1]);
    }
    s.push_str("\treturn 0;\n}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_functions_of_the_seed_and_compile() {
        for seed in 0..40 {
            let text = random_barrier_program(seed);
            assert_eq!(text, random_barrier_program(seed));
            assert!(text.contains("pthread_barrier_wait"), "{text}");
            let path = std::env::temp_dir().join(format!(
                "porf-random-barrier-{}-{seed}.c",
                std::process::id()
            ));
            std::fs::write(&path, &text).unwrap();
            let m = crate::compile_file(&path, &crate::FrontOptions::default());
            let _ = std::fs::remove_file(&path);
            if let Err(d) = m {
                panic!("{d}\n{text}");
            }
        }
    }
}
