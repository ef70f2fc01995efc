//! What the random C program generators that write one shape of program each
//! (`random_spin`, `random_barrier`, `random_await`) share: their draws (a number
//! below a bound, a percentage chance, a C11 memory order for an access's role) and
//! the layout of a program whose `main` spawns and joins workers.
//!
//! Invariant: every method draws exactly one number from the seed's `SplitMix64`
//! sequence (porf-graph's, Steele, Lea and Flood's "Fast splittable pseudorandom number
//! generators"), so a generator's text is a function of its seed and stays the same
//! for every seed as long as the generator makes the same calls in the same order.

use porf_graph::hash::SplitMix64;
use std::fmt::Write as _;

/// A generator's source of choices.
pub(crate) struct Gen {
    /// The sequence drawn from (public in the crate so that a generator may build
    /// its `Gen` as `Gen { rng: SplitMix64(seed ^ SALT) }`).
    pub(crate) rng: SplitMix64,
}

impl Gen {
    /// A generator whose sequence starts from `seed`.
    pub(crate) fn new(seed: u64) -> Gen {
        Gen {
            rng: SplitMix64(seed),
        }
    }

    /// A number in `0..n` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    /// True with a chance of `percent` in a hundred.
    pub(crate) fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A C11 order for an access whose `role` is `"acq"` (a load), `"rel"` (a store)
    /// or `"rmw"` (a read-modify-write), each strength equally likely: relaxed;
    /// acquire, release or acq_rel; seq_cst.
    ///
    /// # Panics
    /// On any other role (before drawing).
    pub(crate) fn order(&mut self, role: &str) -> &'static str {
        let middle = match role {
            "acq" => "memory_order_acquire",
            "rel" => "memory_order_release",
            "rmw" => "memory_order_acq_rel",
            _ => panic!("Gen::order: unknown role {role:?} (acq, rel or rmw)"),
        };
        match self.below(3) {
            0 => "memory_order_relaxed",
            1 => middle,
            _ => "memory_order_seq_cst",
        }
    }
}

/// Appends to `s` the workers (one statement a line) as `thread1`, `thread2`, … and a
/// `main` that spawns them in that order, joins them all, then runs `main_end`.
pub(crate) fn threads_and_main(s: &mut String, workers: &[Vec<String>], main_end: &[String]) {
    for (i, body) in workers.iter().enumerate() {
        let _ = writeln!(s, "void *thread{}(void *arg) {{", i + 1);
        for l in body {
            let _ = writeln!(s, "  {l}");
        }
        s.push_str("  return 0;\n}\n\n");
    }
    s.push_str("int main(void) {\n");
    let _ = writeln!(s, "  pthread_t t[{}];", workers.len());
    for i in 0..workers.len() {
        let _ = writeln!(s, "  pthread_create(&t[{i}], 0, thread{}, 0);", i + 1);
    }
    for i in 0..workers.len() {
        let _ = writeln!(s, "  pthread_join(t[{i}], 0);");
    }
    for l in main_end {
        let _ = writeln!(s, "  {l}");
    }
    s.push_str("  return 0;\n}\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_one_number_each_and_orders_by_role() {
        let mut g = Gen::new(7);
        let mut raw = SplitMix64(7);
        for role in ["acq", "rel", "rmw"] {
            for _ in 0..50 {
                let want = match (raw.below(3), role) {
                    (0, _) => "memory_order_relaxed",
                    (1, "acq") => "memory_order_acquire",
                    (1, "rel") => "memory_order_release",
                    (1, _) => "memory_order_acq_rel",
                    _ => "memory_order_seq_cst",
                };
                assert_eq!(g.order(role), want);
                assert_eq!(g.chance(30), raw.below(100) < 30);
                assert_eq!(g.below(5), raw.below(5));
            }
        }
    }

    #[test]
    #[should_panic(expected = "unknown role")]
    fn an_unknown_role_is_refused() {
        Gen::new(0).order("load");
    }
}
