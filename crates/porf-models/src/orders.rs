//! Every total order of a finite set: the brute-force enumeration of coherence orders
//! that oracles (rf mode's ground truth, the value-enumeration explorer, random
//! hardware executions and the models' own tests) share.
//!
//! **Invariant**: both functions visit each of the `n!` orders of `xs` exactly once.
//! [`permutations`] lists them in lexicographic order of positions in `xs` (the first
//! element varies slowest), so callers that index into the list see a stable order.

/// Every order of `xs`, in lexicographic order of positions (`[a, b]` gives `[a, b]`
/// then `[b, a]`); one empty order for an empty `xs`.
pub fn permutations<T: Clone>(xs: &[T]) -> Vec<Vec<T>> {
    if xs.len() <= 1 {
        return vec![xs.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..xs.len() {
        let mut rest = xs.to_vec();
        let x = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, x.clone());
            out.push(p);
        }
    }
    out
}

/// Calls `f` on every order of `xs` until it returns true; true when some call did.
/// Unlike [`permutations`] it builds no list, so a search can stop at its first witness.
pub fn any_permutation<T: Clone>(xs: &[T], f: &mut dyn FnMut(&[T]) -> bool) -> bool {
    fn go<T>(v: &mut [T], k: usize, f: &mut dyn FnMut(&[T]) -> bool) -> bool {
        if k == v.len() {
            return f(v);
        }
        for j in k..v.len() {
            v.swap(k, j);
            if go(v, k + 1, f) {
                return true;
            }
            v.swap(k, j);
        }
        false
    }
    let mut v = xs.to_vec();
    go(&mut v, 0, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn each_order_once() {
        for n in 0..6usize {
            let xs: Vec<usize> = (0..n).collect();
            let all = permutations(&xs);
            let fact: usize = (1..=n).product();
            assert_eq!(all.len(), fact);
            let distinct: BTreeSet<_> = all.iter().cloned().collect();
            assert_eq!(distinct.len(), fact);
            let mut seen = BTreeSet::new();
            assert!(!any_permutation(&xs, &mut |p| {
                assert!(seen.insert(p.to_vec()));
                false
            }));
            assert_eq!(seen, distinct);
        }
        assert_eq!(permutations(&[1, 2]), vec![vec![1, 2], vec![2, 1]]);
    }

    #[test]
    fn stops_at_first_witness() {
        let mut calls = 0;
        assert!(any_permutation(&[1, 2, 3], &mut |p| {
            calls += 1;
            p[0] == 1
        }));
        assert_eq!(calls, 1);
    }
}
