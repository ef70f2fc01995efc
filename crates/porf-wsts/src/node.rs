//! States of the concurrent system P ‖ loXRA (Def. 4.3): a program state (one local
//! state per thread) and a potential per thread, ordered by ⊑ (§8.3): equal program
//! states and pointwise Hoare order. A thread's program state may be [`WILD`] — any
//! state — so that one element stands for "thread 1 fails its assertion, whatever the
//! others do"; `a ⊑ b` then needs `a`'s state to be `WILD` or equal to `b`'s.

use crate::potential::Potential;

/// Any local state.
pub const WILD: u32 = u32::MAX;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    pub prog: Vec<u32>,
    pub mem: Vec<Potential>,
}

impl Node {
    /// `self ⊑ other`.
    pub fn below(&self, other: &Node) -> bool {
        self.prog
            .iter()
            .zip(&other.prog)
            .all(|(&a, &b)| a == WILD || a == b)
            && self.mem.iter().zip(&other.mem).all(|(a, b)| a.below(b))
    }

    /// A size measure (options in all potentials), for statistics.
    pub fn size(&self) -> usize {
        self.mem.iter().map(Potential::size).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::option::read;

    #[test]
    fn wildcards_and_potentials_order_nodes() {
        let p = Potential::new(vec![vec![read(0, 0, 1, 0)]]);
        let a = Node {
            prog: vec![WILD, 3],
            mem: vec![Potential::empty(), Potential::empty()],
        };
        let b = Node {
            prog: vec![2, 3],
            mem: vec![p.clone(), Potential::empty()],
        };
        assert!(a.below(&b));
        assert!(!b.below(&a));
        let c = Node {
            prog: vec![2, 4],
            mem: vec![p, Potential::empty()],
        };
        assert!(!a.below(&c));
    }
}
