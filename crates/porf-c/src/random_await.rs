//! Random small C programs whose threads wait for values that threads spawned after
//! them write, as source text: the input of `tests/differential_await.rs` (the
//! optimal explorer against the reference explorer). The waiters come first, so the explorer (lowest thread first) finds them
//! blocked on a stale value when the write they wait for arrives. Shapes:
//! * ticket locks: a relaxed `fetch_add` takes a ticket, a load loop (or
//!   `__VERIFIER_assume`) awaits the turn, the turn is handed on by a store (of the
//!   ticket plus one, or of a re-read owner plus one); sometimes with a bug (the turn
//!   handed on before the critical section's store);
//! * relays: each worker waits for the value the next one writes, then writes its own;
//! * flags: pollers (a load loop, a load before the loop and in it, or an assume), then
//!   one or two setters, the second racing with the first (so that the awaited
//!   location has writes in either co order), then a read of the data the first
//!   setter published, asserted or stored.
//!
//! Orders are relaxed, acquire/release or seq_cst; data is atomic or plain (plain data
//! read without synchronisation races).
//!
//! Invariants of [`random_await_program`]: the text is a function of the seed
//! (porf-graph's `SplitMix64`); every program is in porf's C subset; its loops may
//! spin forever (the tests run them with `--unroll`).

use crate::random_gen::{threads_and_main, Gen};
use porf_graph::hash::SplitMix64;
use std::fmt::Write as _;

/// Statements waiting until `cond` (an expression over `v`, the value of `var` read
/// with `ord`) holds: a load loop, a load before the loop and in it, or an assume.
fn await_value(g: &mut Gen, var: &str, ord: &str, cond: &str) -> Vec<String> {
    let load = format!("atomic_load_explicit(&{var}, {ord})");
    match g.below(3) {
        0 => vec![format!("while (!({})) ;", cond.replace('v', &load))],
        1 => vec![
            format!("int v = {load};"),
            format!("while (!({cond})) v = {load};"),
        ],
        _ => vec![format!("__VERIFIER_assume({});", cond.replace('v', &load))],
    }
}

/// The program of `seed` (see the module docs).
pub fn random_await_program(seed: u64) -> String {
    let mut g = Gen {
        rng: SplitMix64(seed ^ 0xa3a1_7000),
    };
    let mut workers: Vec<Vec<String>> = Vec::new();
    let mut main_end: Vec<String> = Vec::new();
    match g.below(3) {
        // Ticket lock.
        0 => {
            let n = 2 + g.below(2);
            let bug = g.chance(20);
            let plain = g.chance(40);
            let reread = g.chance(50);
            for i in 0..n {
                let acq = g.order("acq");
                let rel = g.order("rel");
                let mut body = vec![
                    "int me = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);"
                        .to_string(),
                ];
                body.extend(await_value(&mut g, "owner", acq, "v == me"));
                let (load, store) = if plain {
                    ("int r = d;", "d = r + 1;")
                } else {
                    (
                        "int r = atomic_load_explicit(&c, memory_order_relaxed);",
                        "atomic_store_explicit(&c, r + 1, memory_order_relaxed);",
                    )
                };
                let hand_on = if reread {
                    format!(
                        "atomic_store_explicit(&owner, atomic_load_explicit(&owner, memory_order_relaxed) + 1, {rel});"
                    )
                } else {
                    format!("atomic_store_explicit(&owner, me + 1, {rel});")
                };
                body.push(load.into());
                if bug && i == 0 {
                    body.push(hand_on);
                    body.push(store.into());
                } else {
                    body.push(store.into());
                    body.push(hand_on);
                }
                workers.push(body);
            }
            main_end.push(if plain {
                format!("assert(d == {n});")
            } else {
                format!("assert(atomic_load_explicit(&c, memory_order_relaxed) == {n});")
            });
        }
        // Relay: worker i waits for n - 1 - i, then writes n - i.
        1 => {
            let n = 2 + g.below(2);
            for i in 0..n {
                let acq = g.order("acq");
                let rel = g.order("rel");
                let mut body = await_value(&mut g, "flag", acq, &format!("v == {}", n - 1 - i));
                if g.chance(50) {
                    body.push(format!(
                        "atomic_store_explicit(&data, {}, memory_order_relaxed);",
                        i + 1
                    ));
                } else {
                    body.push("int o = atomic_load_explicit(&data, memory_order_relaxed);".into());
                    body.push("atomic_store_explicit(&c, o, memory_order_relaxed);".into());
                }
                body.push(format!("atomic_store_explicit(&flag, {}, {rel});", n - i));
                workers.push(body);
            }
        }
        // Flags: pollers first, then one or two setters.
        _ => {
            let plain = g.chance(40);
            for _ in 0..1 + g.below(2) {
                let acq = g.order("acq");
                let mut body = await_value(&mut g, "flag", acq, "v != 0");
                body.push(
                    if plain {
                        "int x = d;"
                    } else {
                        "int x = atomic_load_explicit(&data, memory_order_relaxed);"
                    }
                    .into(),
                );
                if g.chance(50) {
                    body.push("assert(x == 7);".into());
                } else {
                    body.push("atomic_store_explicit(&c, x, memory_order_relaxed);".into());
                }
                workers.push(body);
            }
            let rel = g.order("rel");
            workers.push(vec![
                if plain {
                    "d = 7;"
                } else {
                    "atomic_store_explicit(&data, 7, memory_order_relaxed);"
                }
                .into(),
                format!("atomic_store_explicit(&flag, 1, {rel});"),
            ]);
            if g.chance(50) {
                let rel = g.order("rel");
                workers.push(vec![format!("atomic_store_explicit(&flag, 2, {rel});")]);
            }
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "// random_await_program({seed})");
    s.push_str(
        "#include <stdatomic.h>\n#include <pthread.h>\n#include <assert.h>\n#include <stdbool.h>\n\n\
         void __VERIFIER_assume(bool);\n\
         atomic_int next;\natomic_int owner;\natomic_int flag;\natomic_int data;\natomic_int c;\nint d;\n\n",
    );
    threads_and_main(&mut s, &workers, &main_end);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_compile() {
        for seed in 0..40 {
            let text = random_await_program(seed);
            let dir = std::env::temp_dir().join(format!("porf-rawait-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("s{seed}.c"));
            std::fs::write(&path, &text).unwrap();
            if let Err(e) = crate::compile_file(&path, &crate::FrontOptions::default()) {
                panic!("seed {seed}: {e}\n{text}");
            }
        }
    }
}
