//! Potentials: finite non-empty sets of option lists, ordered by the Hoare order
//! (Def. 5.8): `B ⊑ B'` iff every list of `B` is a subsequence of some list of `B'`.
//!
//! Invariant of [`Potential`]: its lists are sorted, distinct, and form an antichain
//! under subsequence (a list that is a subsequence of another adds nothing to the
//! upward closure), and there is at least one list. Normalising keeps the state's
//! upward closure unchanged.

use crate::option::{subseq, Opt};

pub type List = Vec<Opt>;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Potential(Vec<List>);

impl Potential {
    /// `{ε}`, the least potential.
    pub fn empty() -> Potential {
        Potential(vec![Vec::new()])
    }

    /// The normal form of a non-empty set of lists.
    pub fn new(mut lists: Vec<List>) -> Potential {
        if lists.is_empty() {
            return Potential::empty();
        }
        // Longest first: a list can only be subsumed by one at least as long.
        lists.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        lists.dedup();
        let mut kept: Vec<List> = Vec::with_capacity(lists.len());
        for l in lists {
            if !kept.iter().any(|k| subseq(&l, k)) {
                kept.push(l);
            }
        }
        kept.sort();
        Potential(kept)
    }

    pub fn lists(&self) -> &[List] {
        &self.0
    }

    /// `self ⊑ other` (Hoare order).
    pub fn below(&self, other: &Potential) -> bool {
        self.0.iter().all(|l| other.0.iter().any(|m| subseq(l, m)))
    }

    /// Whether every list is empty (the potential is `{ε}`).
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|l| l.is_empty())
    }

    /// The total number of options, a size measure.
    pub fn size(&self) -> usize {
        self.0.iter().map(|l| l.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::option::read;

    #[test]
    fn normal_form_drops_subsumed_lists() {
        let (a, b) = (read(0, 0, 0, 0), read(0, 1, 0, 0));
        let p = Potential::new(vec![vec![a], vec![a, b], vec![], vec![a, b]]);
        assert_eq!(p.lists(), &[vec![a, b]]);
        assert!(Potential::empty().below(&p));
        assert!(!p.below(&Potential::empty()));
        let q = Potential::new(vec![vec![b], vec![a]]);
        assert!(q.below(&p));
        assert!(!p.below(&q));
    }
}
