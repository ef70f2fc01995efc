//! Sets and relations over the events `0..n` of one execution, as bit vectors and bit
//! matrices (64 events a word).
//!
//! Invariant: every [`Set`] and [`Rel`] combined by an operation has the same `n`
//! (the evaluator builds them all from one execution). Costs: a row operation is
//! O(n/64); composition and transitive closure O(n³/64) (Warshall on bit rows), so a
//! model of a few dozen operations over a few hundred events stays in milliseconds.

/// A set of events.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Set {
    n: usize,
    bits: Vec<u64>,
}

impl Set {
    pub fn empty(n: usize) -> Set {
        Set {
            n,
            bits: vec![0; n.div_ceil(64)],
        }
    }
    pub fn full(n: usize) -> Set {
        let mut s = Set::empty(n);
        for i in 0..n {
            s.add(i);
        }
        s
    }
    pub fn from_fn(n: usize, f: impl Fn(usize) -> bool) -> Set {
        let mut s = Set::empty(n);
        for i in (0..n).filter(|&i| f(i)) {
            s.add(i);
        }
        s
    }
    pub fn size(&self) -> usize {
        self.n
    }
    pub fn add(&mut self, i: usize) {
        self.bits[i / 64] |= 1 << (i % 64);
    }
    pub fn contains(&self, i: usize) -> bool {
        self.bits[i / 64] >> (i % 64) & 1 == 1
    }
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        ones(&self.bits)
    }
    pub fn union(&self, o: &Set) -> Set {
        self.zip(o, |a, b| a | b)
    }
    pub fn inter(&self, o: &Set) -> Set {
        self.zip(o, |a, b| a & b)
    }
    pub fn diff(&self, o: &Set) -> Set {
        self.zip(o, |a, b| a & !b)
    }
    pub fn complement(&self) -> Set {
        Set::full(self.n).diff(self)
    }
    fn zip(&self, o: &Set, f: impl Fn(u64, u64) -> u64) -> Set {
        debug_assert_eq!(self.n, o.n);
        Set {
            n: self.n,
            bits: self
                .bits
                .iter()
                .zip(&o.bits)
                .map(|(&a, &b)| f(a, b))
                .collect(),
        }
    }
}

/// The positions of the one bits of `words`, increasing.
fn ones(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(w, &word)| {
        let mut word = word;
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let b = word.trailing_zeros() as usize;
                word &= word - 1;
                w * 64 + b
            })
        })
    })
}

/// A binary relation on events, row-major: row `a` holds the `b` with `(a, b)`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Rel {
    n: usize,
    words: usize,
    bits: Vec<u64>,
}

impl Rel {
    pub fn empty(n: usize) -> Rel {
        let words = n.div_ceil(64);
        Rel {
            n,
            words,
            bits: vec![0; n * words],
        }
    }
    pub fn from_pairs(n: usize, pairs: impl IntoIterator<Item = (usize, usize)>) -> Rel {
        let mut r = Rel::empty(n);
        for (a, b) in pairs {
            r.add(a, b);
        }
        r
    }
    /// `[s]`: the identity on `s`.
    pub fn id(s: &Set) -> Rel {
        Rel::from_pairs(s.n, s.iter().map(|i| (i, i)))
    }
    /// `a * b`: the cartesian product.
    pub fn product(a: &Set, b: &Set) -> Rel {
        let mut r = Rel::empty(a.n);
        for i in a.iter() {
            r.row_mut(i).copy_from_slice(&b.bits);
        }
        r
    }
    pub fn size(&self) -> usize {
        self.n
    }
    fn row(&self, i: usize) -> &[u64] {
        &self.bits[i * self.words..(i + 1) * self.words]
    }
    fn row_mut(&mut self, i: usize) -> &mut [u64] {
        &mut self.bits[i * self.words..(i + 1) * self.words]
    }
    pub fn add(&mut self, a: usize, b: usize) {
        self.bits[a * self.words + b / 64] |= 1 << (b % 64);
    }
    pub fn contains(&self, a: usize, b: usize) -> bool {
        self.bits[a * self.words + b / 64] >> (b % 64) & 1 == 1
    }
    pub fn successors(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        ones(self.row(a))
    }
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n).flat_map(move |a| self.successors(a).map(move |b| (a, b)))
    }
    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }
    pub fn union(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a | b)
    }
    pub fn inter(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a & b)
    }
    pub fn diff(&self, o: &Rel) -> Rel {
        self.zip(o, |a, b| a & !b)
    }
    pub fn complement(&self) -> Rel {
        Rel::product(&Set::full(self.n), &Set::full(self.n)).diff(self)
    }
    fn zip(&self, o: &Rel, f: impl Fn(u64, u64) -> u64) -> Rel {
        debug_assert_eq!(self.n, o.n);
        Rel {
            n: self.n,
            words: self.words,
            bits: self
                .bits
                .iter()
                .zip(&o.bits)
                .map(|(&a, &b)| f(a, b))
                .collect(),
        }
    }
    /// `self ; o`.
    pub fn seq(&self, o: &Rel) -> Rel {
        let mut r = Rel::empty(self.n);
        for a in 0..self.n {
            let dst = a * self.words;
            for b in self.successors(a) {
                let src = b * self.words;
                for w in 0..self.words {
                    r.bits[dst + w] |= o.bits[src + w];
                }
            }
        }
        r
    }
    /// `self⁺` (Warshall's algorithm on bit rows).
    pub fn plus(&self) -> Rel {
        let mut r = self.clone();
        let mut row_k = vec![0u64; self.words];
        for k in 0..self.n {
            row_k.copy_from_slice(r.row(k));
            for i in 0..self.n {
                if r.contains(i, k) {
                    for (x, y) in r.row_mut(i).iter_mut().zip(&row_k) {
                        *x |= y;
                    }
                }
            }
        }
        r
    }
    /// `self?`.
    pub fn opt(&self) -> Rel {
        let mut r = self.clone();
        for i in 0..self.n {
            r.add(i, i);
        }
        r
    }
    /// `self*`.
    pub fn star(&self) -> Rel {
        self.plus().opt()
    }
    /// `self^-1`.
    pub fn inverse(&self) -> Rel {
        Rel::from_pairs(self.n, self.pairs().map(|(a, b)| (b, a)))
    }
    pub fn domain(&self) -> Set {
        Set::from_fn(self.n, |a| self.row(a).iter().any(|&w| w != 0))
    }
    pub fn range(&self) -> Set {
        let mut s = Set::empty(self.n);
        for a in 0..self.n {
            for (x, y) in s.bits.iter_mut().zip(self.row(a)) {
                *x |= y;
            }
        }
        s
    }
    pub fn is_irreflexive(&self) -> bool {
        (0..self.n).all(|i| !self.contains(i, i))
    }
    /// A cycle of the relation, as the events along it, if there is one (iterative
    /// three-colour depth-first search, O(n²/64 + |R|)).
    pub fn find_cycle(&self) -> Option<Vec<usize>> {
        // 0 = unvisited, 1 = on the stack, 2 = done.
        let mut colour = vec![0u8; self.n];
        for root in 0..self.n {
            if colour[root] != 0 {
                continue;
            }
            colour[root] = 1;
            let mut stack: Vec<(usize, Vec<usize>)> = vec![(root, self.successors(root).collect())];
            while let Some((_, succs)) = stack.last_mut() {
                match succs.pop() {
                    Some(s) => match colour[s] {
                        0 => {
                            colour[s] = 1;
                            let next = self.successors(s).collect();
                            stack.push((s, next));
                        }
                        1 => {
                            let from = stack.iter().position(|(v, _)| *v == s).unwrap_or(0);
                            return Some(stack[from..].iter().map(|(v, _)| *v).collect());
                        }
                        _ => {}
                    },
                    None => {
                        let (node, _) = stack.pop().expect("non-empty");
                        colour[node] = 2;
                    }
                }
            }
        }
        None
    }
    pub fn is_acyclic(&self) -> bool {
        self.find_cycle().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closure_and_cycles_across_words() {
        let r = Rel::from_pairs(70, [(0, 1), (1, 65), (65, 3)]);
        let c = r.plus();
        assert!(c.contains(0, 3) && c.contains(1, 3) && !c.contains(3, 0));
        assert!(r.is_acyclic() && c.is_irreflexive());
        let cyc = r.union(&Rel::from_pairs(70, [(3, 0)]));
        assert_eq!(cyc.find_cycle().map(|c| c.len()), Some(4));
        assert!(!cyc.plus().is_irreflexive());
    }

    #[test]
    fn algebra() {
        let a = Rel::from_pairs(4, [(0, 1), (2, 3)]);
        let b = Rel::from_pairs(4, [(1, 2), (3, 0)]);
        assert_eq!(a.seq(&b), Rel::from_pairs(4, [(0, 2), (2, 0)]));
        assert_eq!(a.inverse(), Rel::from_pairs(4, [(1, 0), (3, 2)]));
        let s = Set::from_fn(4, |i| i < 2);
        assert_eq!(Rel::id(&s).seq(&a), Rel::from_pairs(4, [(0, 1)]));
        assert_eq!(Rel::product(&s, &s).pairs().count(), 4);
        assert_eq!(a.domain(), Set::from_fn(4, |i| i == 0 || i == 2));
        assert_eq!(a.range(), Set::from_fn(4, |i| i == 1 || i == 3));
        assert_eq!(a.complement().pairs().count(), 14);
        assert_eq!(s.complement(), Set::from_fn(4, |i| i >= 2));
        assert_eq!(a.union(&b).diff(&b), a);
        assert!(a.inter(&b).is_empty());
    }
}
