//! Sets and relations over the events `0..n` of one execution, as bit vectors and bit
//! matrices (64 events a word); a relation is porf-models' [`Relation`].
//!
//! Invariant: every [`Set`] and [`Rel`] combined by an operation has the same `n`
//! (the evaluator builds them all from one execution). Costs: a row operation is
//! O(n/64); composition and transitive closure O(n³/64) (Warshall on bit rows), so a
//! model of a few dozen operations over a few hundred events stays in milliseconds.

use porf_models::relation::Relation;

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

/// A binary relation on events: porf-models' bit-matrix [`Relation`] under the names
/// of cat's operators.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Rel(Relation);

impl Rel {
    pub fn empty(n: usize) -> Rel {
        Rel(Relation::empty(n))
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
        Rel(Relation::identity(s.n, |i| s.contains(i)))
    }
    /// `a * b`: the cartesian product.
    pub fn product(a: &Set, b: &Set) -> Rel {
        let mut r = Rel::empty(a.n);
        for i in a.iter() {
            r.0.add_row(i, &b.bits);
        }
        r
    }
    pub fn size(&self) -> usize {
        self.0.size()
    }
    pub fn add(&mut self, a: usize, b: usize) {
        self.0.add(a, b);
    }
    pub fn contains(&self, a: usize, b: usize) -> bool {
        self.0.contains(a, b)
    }
    pub fn successors(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        self.0.successors(a)
    }
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.0.pairs()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn union(&self, o: &Rel) -> Rel {
        Rel(self.0.union(&o.0))
    }
    pub fn inter(&self, o: &Rel) -> Rel {
        Rel(self.0.intersect(&o.0))
    }
    pub fn diff(&self, o: &Rel) -> Rel {
        Rel(self.0.minus(&o.0))
    }
    pub fn complement(&self) -> Rel {
        let all = Set::full(self.size());
        Rel::product(&all, &all).diff(self)
    }
    /// `self ; o`.
    pub fn seq(&self, o: &Rel) -> Rel {
        Rel(self.0.compose(&o.0))
    }
    /// `self⁺` (Warshall's algorithm on bit rows).
    pub fn plus(&self) -> Rel {
        Rel(self.0.closure())
    }
    /// `self?`.
    pub fn opt(&self) -> Rel {
        Rel(self.0.reflexive())
    }
    /// `self*`.
    pub fn star(&self) -> Rel {
        Rel(self.0.star())
    }
    /// `self^-1`.
    pub fn inverse(&self) -> Rel {
        Rel(self.0.inverse())
    }
    pub fn domain(&self) -> Set {
        Set::from_fn(self.size(), |a| self.0.row(a).iter().any(|&w| w != 0))
    }
    pub fn range(&self) -> Set {
        let mut s = Set::empty(self.size());
        for a in 0..self.size() {
            for (x, y) in s.bits.iter_mut().zip(self.0.row(a)) {
                *x |= y;
            }
        }
        s
    }
    pub fn is_irreflexive(&self) -> bool {
        self.0.is_irreflexive()
    }
    /// A cycle of the relation, as the events along it, if there is one.
    pub fn find_cycle(&self) -> Option<Vec<usize>> {
        self.0.find_cycle()
    }
    pub fn is_acyclic(&self) -> bool {
        self.0.is_acyclic()
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
