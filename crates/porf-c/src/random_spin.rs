//! Random small C programs built around spin loops, as source text, for the
//! differential test of spin-assume's reductions (`tests/differential_spin.rs`: the
//! same program with and without `RunOptions::disable_zne_spin_assume`): locks taken
//! by test-and-set, exchange, compare-exchange, `pthread_mutex_trylock` and
//! `fetch_sub`/`fetch_add` retry (in the loop's condition, or Linux's read-write lock
//! shape: a `fetch_sub` before the loop, given back and retried after a polling inner
//! loop), `pthread_mutex_lock`, flags polled by a load before the loop and in it, by a
//! `fetch_or(0)`, or under a mutex, and compare-exchange retry
//! pushes into a `malloc`'d node (Treiber's stack), with relaxed, acquire/release and
//! seq_cst orders, and sometimes a bug (a lock given back before the critical
//! section's store, a push that publishes the node before filling it).
//!
//! Invariants of [`random_spin_program`]:
//! * The text is a function of the seed (drawn through `random_gen`).
//! * Every program is in porf's C subset; its loops may spin forever (the tests run
//!   them with `--unroll`), except `main`'s walk over the stack, which has at most
//!   as many iterations as there are pushes (at most three).

use crate::random_gen::{threads_and_main, Gen};
use std::fmt::Write as _;

/// How the program's lock is taken.
#[derive(Clone, Copy, Debug)]
enum LockKind {
    TestAndSet,
    Exchange,
    Cas,
    TryLock,
    FetchSub,
    /// Linux's `read_lock`: `fetch_sub`; while it failed, give back, poll, retry.
    RwFetchSub,
    Mutex,
}

/// A random spin-loop program for `seed`.
pub fn random_spin_program(seed: u64) -> String {
    let mut g = Gen::new(seed ^ 0x5a17_e000);
    let mut workers: Vec<Vec<String>> = Vec::new();
    let mut main_end: Vec<String> = Vec::new();
    let shape = g.below(3);
    match shape {
        // Lockers: 2 or 3 workers increment a counter in a critical section.
        0 => {
            let kind = match g.below(7) {
                0 => LockKind::TestAndSet,
                1 => LockKind::Exchange,
                2 => LockKind::Cas,
                3 => LockKind::TryLock,
                4 => LockKind::FetchSub,
                5 => LockKind::RwFetchSub,
                _ => LockKind::Mutex,
            };
            // Without the reductions, cancelling fetch_sub/fetch_add pairs repeat up to
            // the bound: two lockers.
            let n = match kind {
                LockKind::FetchSub | LockKind::RwFetchSub => 2,
                _ => 2 + g.below(2),
            };
            let bug = g.chance(25);
            let plain = g.chance(30);
            for i in 0..n {
                let acq = g.order("rmw");
                let rel = g.order("rel");
                let mut body = Vec::new();
                body.extend(acquire(kind, acq));
                let (load, store) = if plain {
                    ("int r = d;".to_string(), "d = r + 1;".to_string())
                } else {
                    (
                        "int r = atomic_load_explicit(&c, memory_order_relaxed);".to_string(),
                        "atomic_store_explicit(&c, r + 1, memory_order_relaxed);".to_string(),
                    )
                };
                body.push(load);
                if bug && i == 0 {
                    body.extend(release(kind, rel));
                    body.push(store);
                } else {
                    body.push(store);
                    body.extend(release(kind, rel));
                }
                workers.push(body);
            }
            if g.chance(50) {
                // An observer of the lock word: an intermediate value (a fetch_sub's
                // -1, a taken lock) shows in the final state.
                let var = match kind {
                    LockKind::TestAndSet | LockKind::TryLock | LockKind::Mutex => "flag",
                    LockKind::Exchange | LockKind::Cas => "lk",
                    LockKind::FetchSub | LockKind::RwFetchSub => "sem",
                };
                let ord = g.order("acq");
                workers.push(if matches!(kind, LockKind::TryLock | LockKind::Mutex) {
                    // A trylock that finds the mutex taken reads a locker's
                    // intermediate write.
                    vec![
                        "int o = pthread_mutex_trylock(&m);".into(),
                        "if (!o) pthread_mutex_unlock(&m);".into(),
                        "atomic_store_explicit(&data, o != 0, memory_order_relaxed);".into(),
                    ]
                } else {
                    vec![
                        format!("int o = atomic_load_explicit(&{var}, {ord});"),
                        "atomic_store_explicit(&data, o, memory_order_relaxed);".into(),
                    ]
                });
            }
            if plain {
                main_end.push(format!("assert(d == {n});"));
            } else {
                main_end.push(format!(
                    "assert(atomic_load_explicit(&c, memory_order_relaxed) == {n});"
                ));
            }
        }
        // A flag set by one worker, polled by the others.
        1 => {
            let set = g.order("rel");
            let n = 1 + g.below(2);
            let mut setter = vec!["atomic_store_explicit(&data, 7, memory_order_relaxed);".into()];
            setter.push(format!("atomic_store_explicit(&flag, 1, {set});"));
            workers.push(setter);
            for _ in 0..n {
                let ord = g.order("acq");
                let mut body = Vec::new();
                match g.below(5) {
                    0 => {
                        body.push(format!("int r = atomic_load_explicit(&flag, {ord});"));
                        // Dat3M's CLH lock puts the loop behind an `if`.
                        let guard = if g.chance(50) { "if (!r) " } else { "" };
                        body.push(format!(
                            "{guard}while (!r) r = atomic_load_explicit(&flag, {ord});"
                        ));
                    }
                    // The loop carries a value the pre-loop read does not give.
                    1 => {
                        body.push(format!("int r = atomic_load_explicit(&flag, {ord});"));
                        body.push("int k = 0;".into());
                        body.push(format!(
                            "while (!r) {{ k = 1; r = atomic_load_explicit(&flag, {ord}); }}"
                        ));
                        body.push("atomic_store_explicit(&c, k, memory_order_relaxed);".into());
                    }
                    2 => {
                        let rmw = g.order("rmw");
                        body.push(format!(
                            "while (atomic_fetch_or_explicit(&flag, 0, {rmw}) == 0) ;"
                        ));
                    }
                    // Polled under a mutex: a poll that sees 0 takes and releases it.
                    3 => {
                        body.push("int r = 0;".into());
                        body.push(format!(
                            "while (!r) {{ pthread_mutex_lock(&m); r = atomic_load_explicit(&flag, {ord}); pthread_mutex_unlock(&m); }}"
                        ));
                    }
                    _ => {
                        let rmw = g.order("rmw");
                        body.push(format!(
                            "while (atomic_fetch_add_explicit(&flag, 0, {rmw}) == 0) ;"
                        ));
                    }
                }
                body.push("int v = atomic_load_explicit(&data, memory_order_relaxed);".into());
                if g.chance(50) {
                    body.push("assert(v == 7);".into());
                } else {
                    body.push("atomic_store_explicit(&c, v, memory_order_relaxed);".into());
                }
                workers.push(body);
            }
        }
        // Pushers onto a Treiber stack; main walks it.
        _ => {
            let n = 2 + g.below(2);
            let bug = g.chance(25);
            for i in 0..n {
                let ld = g.order("acq");
                let cas = g.order("rmw");
                let mut body = vec![
                    "struct node *n = malloc(sizeof *n);".to_string(),
                    "struct node *t;".to_string(),
                ];
                let fill = format!("n->v = {};", i + 1);
                if !(bug && i == 0) {
                    body.push(fill.clone());
                }
                body.push("do {".into());
                body.push(format!("  t = atomic_load_explicit(&top, {ld});"));
                body.push("  atomic_store_explicit(&n->next, t, memory_order_relaxed);".into());
                body.push(format!(
                    "}} while (!atomic_compare_exchange_strong_explicit(&top, &t, n, {cas}, memory_order_relaxed));"
                ));
                if bug && i == 0 {
                    body.push(fill);
                }
                workers.push(body);
            }
            main_end.push("int sum = 0;".into());
            main_end.push(
                "for (struct node *p = atomic_load(&top); p; p = atomic_load(&p->next)) sum += p->v;"
                    .into(),
            );
            main_end.push(format!("assert(sum == {});", n * (n + 1) / 2));
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "// random_spin_program({seed})");
    s.push_str(
        "#include <stdatomic.h>\n#include <pthread.h>\n#include <stdlib.h>\n#include <assert.h>\n\n\
         atomic_int lk;\natomic_flag fl = ATOMIC_FLAG_INIT;\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\natomic_int sem = 1;\n\
         atomic_int flag;\natomic_int data;\natomic_int c;\nint d;\n\
         struct node { int v; _Atomic(struct node *) next; };\n\
         _Atomic(struct node *) top;\n\n",
    );
    threads_and_main(&mut s, &workers, &main_end);
    s
}

/// The statements taking the lock.
fn acquire(kind: LockKind, ord: &str) -> Vec<String> {
    match kind {
        LockKind::TestAndSet => {
            vec![format!("while (atomic_flag_test_and_set_explicit(&fl, {ord})) ;")]
        }
        LockKind::Exchange => vec![format!("while (atomic_exchange_explicit(&lk, 1, {ord})) ;")],
        LockKind::Cas => vec![
            "int e = 0;".into(),
            format!(
                "while (!atomic_compare_exchange_strong_explicit(&lk, &e, 1, {ord}, memory_order_relaxed)) e = 0;"
            ),
        ],
        LockKind::TryLock => vec!["while (pthread_mutex_trylock(&m) != 0) ;".into()],
        LockKind::FetchSub => vec![format!(
            "while (atomic_fetch_sub_explicit(&sem, 1, {ord}) <= 0) atomic_fetch_add_explicit(&sem, 1, memory_order_relaxed);"
        )],
        LockKind::RwFetchSub => vec![
            format!("int p = atomic_fetch_sub_explicit(&sem, 1, {ord});"),
            format!(
                "while (p <= 0) {{ atomic_fetch_add_explicit(&sem, 1, memory_order_relaxed); while (atomic_load_explicit(&sem, memory_order_relaxed) <= 0) ; p = atomic_fetch_sub_explicit(&sem, 1, {ord}); }}"
            ),
        ],
        LockKind::Mutex => vec!["pthread_mutex_lock(&m);".into()],
    }
}

/// The statements giving the lock back.
fn release(kind: LockKind, ord: &str) -> Vec<String> {
    match kind {
        LockKind::TestAndSet => vec![format!("atomic_flag_clear_explicit(&fl, {ord});")],
        LockKind::Exchange | LockKind::Cas => {
            vec![format!("atomic_store_explicit(&lk, 0, {ord});")]
        }
        LockKind::TryLock | LockKind::Mutex => vec!["pthread_mutex_unlock(&m);".into()],
        LockKind::FetchSub | LockKind::RwFetchSub => {
            vec![format!("atomic_fetch_add_explicit(&sem, 1, {ord});")]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_compile() {
        for seed in 0..40 {
            let text = random_spin_program(seed);
            let dir = std::env::temp_dir().join(format!("porf-rspin-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join(format!("s{seed}.c"));
            std::fs::write(&path, &text).unwrap();
            if let Err(e) = crate::compile_file(&path, &crate::FrontOptions::default()) {
                panic!("seed {seed}: {e}\n{text}");
            }
        }
    }
}
