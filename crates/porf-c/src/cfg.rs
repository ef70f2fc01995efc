//! Control-flow facts of one IR function that spin-assume ([`crate::spin`]) and the
//! loop bound ([`crate::unroll`]) share: successors and a depth-first search's
//! retreating edges.
//!
//! A depth-first search from the entry block, visiting each block's successors in
//! order (`then` before `els`), classifies every edge `u → v` it explores: *retreating*
//! when `v` is on the search's stack at that moment (an ancestor of `u` in the search
//! tree, `u` itself for a self-loop), otherwise a tree, forward or cross edge (Aho,
//! Lam, Sethi and Ullman, "Compilers", §9.6.3). Two facts make retreating edges the
//! right notion of "back edge" for both users:
//!
//! * every cycle of the graph contains a retreating edge (a cycle's block with the
//!   smallest discovery time is an ancestor of all its other blocks, by the white-path
//!   theorem, so the cycle's edge into it is retreating), natural loops and irreducible
//!   ones (loops with two entries, built with `goto`) alike;
//! * in a reducible graph (every `goto`-free C function) the retreating edges are
//!   exactly the back edges of natural loops, the edges whose target dominates their
//!   source, for every depth-first order (Hecht and Ullman's characterisation of
//!   reducibility).
//!
//! Invariants: `succ[b]` lists a block's successors in terminator order (`then`, then
//! `els`; a branch with equal targets lists it twice); `retreating[b][i]` is about
//! `succ[b][i]`; blocks unreachable from the entry have no retreating edges and
//! `reachable[b]` false.

use crate::ir::{BlockId, Function, Terminator};

/// The successors of a terminator, in order.
pub fn successors(t: &Terminator) -> Vec<BlockId> {
    match t {
        Terminator::Jump(b) => vec![*b],
        Terminator::Branch { then, els, .. } => vec![*then, *els],
        Terminator::Return(_) | Terminator::Unreachable => Vec::new(),
    }
}

/// A function's control-flow graph and one depth-first search of it.
pub struct Cfg {
    /// Successors of each block ([`successors`]).
    pub succ: Vec<Vec<BlockId>>,
    /// Predecessors of each block (with repetitions for branches with equal targets).
    pub preds: Vec<Vec<BlockId>>,
    /// Whether each block is reachable from the entry.
    pub reachable: Vec<bool>,
    /// For each block, whether each of its successor edges is retreating.
    pub retreating: Vec<Vec<bool>>,
}

impl Cfg {
    /// The graph of `f` and its depth-first search from block 0 (iterative: functions
    /// may have many blocks).
    pub fn of(f: &Function) -> Cfg {
        let n = f.blocks.len();
        let succ: Vec<Vec<BlockId>> = f.blocks.iter().map(|b| successors(&b.term)).collect();
        let mut preds: Vec<Vec<BlockId>> = vec![Vec::new(); n];
        for (b, ss) in succ.iter().enumerate() {
            for &s in ss {
                preds[s as usize].push(b as BlockId);
            }
        }
        let mut retreating: Vec<Vec<bool>> = succ.iter().map(|s| vec![false; s.len()]).collect();
        // White: not `seen`; grey: `on_stack`; black: seen and off the stack.
        let mut seen = vec![false; n];
        let mut on_stack = vec![false; n];
        if n > 0 {
            let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
            seen[0] = true;
            on_stack[0] = true;
            while let Some(&mut (b, ref mut i)) = stack.last_mut() {
                match succ[b].get(*i) {
                    Some(&s) => {
                        let slot = *i;
                        *i += 1;
                        let s = s as usize;
                        if on_stack[s] {
                            retreating[b][slot] = true;
                        } else if !seen[s] {
                            seen[s] = true;
                            on_stack[s] = true;
                            stack.push((s, 0));
                        }
                    }
                    None => {
                        on_stack[b] = false;
                        stack.pop();
                    }
                }
            }
        }
        Cfg {
            succ,
            preds,
            reachable: seen,
            retreating,
        }
    }

    /// The retreating edges `(source, successor slot, target)`, by source block.
    pub fn retreating_edges(&self) -> impl Iterator<Item = (BlockId, usize, BlockId)> + '_ {
        self.retreating.iter().enumerate().flat_map(move |(b, r)| {
            r.iter()
                .enumerate()
                .filter(|(_, &x)| x)
                .map(move |(i, _)| (b as BlockId, i, self.succ[b][i]))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, Operand};
    use porf_graph::SrcLoc;

    /// A function whose block `b` ends in `terms[b]`.
    fn func(terms: Vec<Terminator>) -> Function {
        Function {
            name: "f".into(),
            nparams: 0,
            variadic: false,
            nregs: 1,
            nloops: 0,
            frame_size: 0,
            shared_size: 0,
            blocks: terms
                .into_iter()
                .map(|term| Block {
                    insts: Vec::new(),
                    term,
                    term_src: SrcLoc::UNKNOWN,
                })
                .collect(),
            loop_heads: Vec::new(),
            src: SrcLoc::UNKNOWN,
            locals: Vec::new(),
        }
    }

    fn br(then: BlockId, els: BlockId) -> Terminator {
        Terminator::Branch {
            cond: Operand::Reg(0),
            then,
            els,
        }
    }

    #[test]
    fn a_natural_loop_has_one_retreating_edge() {
        // 0 → 1; 1 → 2 | 3; 2 → 1; 3 returns.
        let f = func(vec![
            Terminator::Jump(1),
            br(2, 3),
            Terminator::Jump(1),
            Terminator::Return(None),
        ]);
        let g = Cfg::of(&f);
        assert_eq!(g.retreating_edges().collect::<Vec<_>>(), [(2, 0, 1)]);
        assert!(g.reachable.iter().all(|&r| r));
    }

    #[test]
    fn an_irreducible_loop_has_a_retreating_edge_and_no_back_edge_dominates() {
        // 0 → 1 | 2; 1 → 2; 2 → 1 | 3: the cycle 1 ⇄ 2 has two entries.
        let f = func(vec![
            br(1, 2),
            Terminator::Jump(2),
            br(1, 3),
            Terminator::Return(None),
        ]);
        let g = Cfg::of(&f);
        assert_eq!(g.retreating_edges().collect::<Vec<_>>(), [(2, 0, 1)]);
    }

    #[test]
    fn self_loops_retreat_and_unreachable_blocks_do_not() {
        // 0 → 0 | 1; 1 returns; 2 → 2 (unreachable).
        let f = func(vec![
            br(0, 1),
            Terminator::Return(None),
            Terminator::Jump(2),
        ]);
        let g = Cfg::of(&f);
        assert_eq!(g.retreating_edges().collect::<Vec<_>>(), [(0, 0, 0)]);
        assert_eq!(g.reachable, [true, true, false]);
    }

    #[test]
    fn a_branch_with_equal_targets_is_one_edge_twice() {
        // 0 → 1 | 1; 1 → 0 | 0.
        let f = func(vec![br(1, 1), br(0, 0)]);
        let g = Cfg::of(&f);
        assert_eq!(g.retreating[0], [false, false]);
        assert_eq!(g.retreating[1], [true, true]);
    }
}
