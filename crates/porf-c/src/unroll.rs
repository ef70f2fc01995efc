//! `--unroll N` for every loop of the control-flow graph, not only loop statements:
//! which edges the interpreter counts, so that no execution runs around a loop
//! forever, whether the loop was written with `while`, `for`, `do` or `goto`, natural
//! or irreducible.
//!
//! # The rule
//!
//! Loop statements keep their own counter: `LoopEnter` resets it before the loop and
//! `LoopIter`, at each start of the body, blocks the (N+1)th (a loop whose body runs
//! exactly N times is not cut). On top of that, take one depth-first search of each
//! function's control-flow graph ([`crate::cfg`]). Every block `h` that is the target
//! of a retreating edge gets a counter in each activation of the function (zero when
//! the activation starts):
//!
//! * taking a retreating edge `u → h` adds one to `count[h]`, and blocks the thread
//!   (`BlockReason::LoopBound`, at `u`'s terminator) when the count reaches `N` — the
//!   (N+1)th start of `h` since control last came to it from outside (`--unroll 0`
//!   counts as 1 here: `h`'s first start cannot be cut without cutting the code that
//!   merely reaches it);
//! * taking any other edge into `h` sets `count[h]` to 0.
//!
//! Two kinds of targets the front end marks ([`LoopHead`]) are treated differently:
//!
//! * a loop statement's back-edge target ([`LoopHead::Statement`]: a `while`/`for`
//!   condition, a `do` body's start) blocks only when its count reaches `N + 1`. On a
//!   path that stays inside the statement, the statement's `LoopIter` blocks first (it
//!   runs between two arrivals at the target), so the statement's own semantics is
//!   unchanged; the counter only catches cycles that reach the target around its
//!   `LoopIter`, e.g. `while (c) { M: ... } ... goto M;`, where the search may find
//!   no other retreating edge on the cycle;
//! * the head of a loop the front end generated that ends by itself
//!   ([`LoopHead::Finite`], `realloc`'s copy loop) is not counted.
//!
//! In a `goto`-free function the retreating edges are exactly the loop statements'
//! back edges ([`crate::cfg`]), so `--unroll` means what it always meant there.
//!
//! # Why every infinite run is cut
//!
//! A thread that runs forever either calls ever deeper (the recursion limit stops it)
//! or has an activation that, from some point on, is never popped and runs infinitely
//! many of its own terminators: an infinite path through its control-flow graph. Let
//! `S` be the blocks that path visits infinitely often and `h` the one of them the
//! search discovered first. From some point on the path stays inside `S`, so every
//! block of `S` is reachable from `h` through blocks of `S`, all undiscovered when the
//! search discovered `h`: by the white-path theorem they are all descendants of `h` in
//! the search tree, so every edge the path takes into `h` from then on is retreating.
//! `count[h]` is then never reset and grows by one at each of the infinitely many
//! arrivals at `h`, so it reaches its bound — unless `h` is a [`LoopHead::Finite`]
//! head; but such a loop has one entry (its head, which it can only leave through),
//! only its own latch reaches the head from inside, and its counter grows towards a
//! fixed limit, so no path takes its back edge infinitely often.
//!
//! A cut is a `BlockReason::LoopBound` block: the execution is counted as blocked and
//! as cut by the bound, and the run's verdict says "up to the bound".
//!
//! Invariants: `FuncEdges::edges[b][i]` is about successor `i` of block `b`'s
//! terminator; counters are numbered `0..counters`, one per counted target; every
//! retreating edge of a reachable block whose target is not [`LoopHead::Finite`] is a
//! [`Edge::Count`] and every other edge into a counted target is an [`Edge::Reset`].

use crate::cfg::Cfg;
use crate::ir::{Function, LoopHead, Module};

/// What taking one edge does to the loop-bound counters of the running activation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Edge {
    /// Nothing.
    #[default]
    None,
    /// An edge into a counted target that is not retreating: its counter restarts.
    Reset(u32),
    /// A retreating edge: its target's counter counts one more arrival, and the edge
    /// blocks when the count reaches `max(N, 1) + slack` (`slack` is 1 for a loop
    /// statement's own target, else 0).
    Count { counter: u32, slack: u8 },
}

/// The counted edges of one function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FuncEdges {
    /// Counters each activation needs (after its registers and loop-statement
    /// counters).
    pub counters: u32,
    /// For each block, what its terminator's edges do (`[then, else]`, or
    /// `[target, None]` for a jump).
    pub edges: Vec<[Edge; 2]>,
}

impl FuncEdges {
    /// What taking successor `slot` of block `b`'s terminator does.
    #[inline]
    pub fn edge(&self, b: u32, slot: usize) -> Edge {
        self.edges.get(b as usize).map_or(Edge::None, |e| e[slot])
    }
}

/// The counted edges of every function of `m`, indexed like `m.funcs`.
pub fn analyze(m: &Module) -> Vec<FuncEdges> {
    m.funcs.iter().map(analyze_func).collect()
}

/// Whether an edge taken `count` times blocks under `--unroll unroll`.
#[inline]
pub fn blocks(count: u64, unroll: u32, slack: u8) -> bool {
    count >= unroll.max(1) as u64 + slack as u64
}

fn analyze_func(f: &Function) -> FuncEdges {
    let g = Cfg::of(f);
    let head = |b: u32| {
        f.loop_heads
            .binary_search_by_key(&b, |h| h.0)
            .ok()
            .map(|i| f.loop_heads[i].1)
    };
    let n = f.blocks.len();
    let mut counter: Vec<Option<u32>> = vec![None; n];
    let mut counters = 0;
    for (_, _, h) in g.retreating_edges() {
        if head(h) != Some(LoopHead::Finite) && counter[h as usize].is_none() {
            counter[h as usize] = Some(counters);
            counters += 1;
        }
    }
    let mut edges = vec![[Edge::None; 2]; n];
    for (b, e) in edges.iter_mut().enumerate() {
        if !g.reachable[b] {
            continue;
        }
        for (slot, &h) in g.succ[b].iter().enumerate() {
            let Some(c) = counter[h as usize] else {
                continue;
            };
            e[slot] = if g.retreating[b][slot] {
                let slack = (head(h) == Some(LoopHead::Statement)) as u8;
                Edge::Count { counter: c, slack }
            } else {
                Edge::Reset(c)
            };
        }
    }
    FuncEdges { counters, edges }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compile_file, FrontOptions};

    /// The counted edges of `func` in `src`, compiled from file `name`.
    fn edges_of(name: &str, src: &str, func: &str) -> (Function, FuncEdges) {
        let dir = std::env::temp_dir().join(format!("porf-unroll-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.c"));
        std::fs::write(&path, src).unwrap();
        let m = compile_file(&path, &FrontOptions::default()).unwrap();
        let i = m.funcs.iter().position(|f| f.name == func).unwrap();
        let e = analyze(&m).swap_remove(i);
        (m.funcs[i].clone(), e)
    }

    fn counts(e: &FuncEdges) -> Vec<(u32, u8)> {
        let mut v: Vec<(u32, u8)> = e
            .edges
            .iter()
            .flatten()
            .filter_map(|e| match e {
                Edge::Count { counter, slack } => Some((*counter, *slack)),
                _ => None,
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn loop_statements_count_with_slack_and_goto_loops_without() {
        let src = "int f(int n) {\n\
                   while (n) n--;\n\
                   do n++; while (n < 3);\n\
                   for (int i = 0; i < n; i++) ;\n\
                   again: n--; if (n) goto again;\n\
                   return n; }\n\
                   int main(void) { return f(2); }\n";
        let (f, e) = edges_of("kinds", src, "f");
        assert_eq!(f.loop_heads.len(), 3, "{:?}", f.loop_heads);
        assert_eq!(e.counters, 4);
        // Three statements (slack 1) and the goto loop (slack 0), one edge each.
        let slacks: Vec<u8> = counts(&e).iter().map(|c| c.1).collect();
        let mut sorted = slacks.clone();
        sorted.sort();
        assert_eq!(sorted, [0, 1, 1, 1], "{e:?}");
    }

    #[test]
    fn realloc_copy_loops_are_not_counted() {
        let src = "#include <stdlib.h>\n\
                   int main(void) { int *p = malloc(8); p = realloc(p, 16); free(p); return 0; }\n";
        let (f, e) = edges_of("realloc", src, "main");
        assert_eq!(f.loop_heads.len(), 1, "{:?}", f.loop_heads);
        assert_eq!(f.loop_heads[0].1, LoopHead::Finite);
        assert_eq!(e.counters, 0, "{e:?}");
    }

    #[test]
    fn a_goto_into_a_loop_body_is_counted_on_the_cycle_it_makes() {
        // `goto M` after the loop makes a cycle head → exit → M → next → head that
        // never starts the body: the while's target counts it (slack 1).
        let src = "int g(int c) {\n\
                   int k = 0;\n\
                   while (c) { M: k++; c = 0; }\n\
                   if (k < 100) goto M;\n\
                   return k; }\n\
                   int main(void) { return g(1); }\n";
        let (_, e) = edges_of("into", src, "g");
        assert!(!counts(&e).is_empty(), "{e:?}");
        let resets = e
            .edges
            .iter()
            .flatten()
            .filter(|e| matches!(e, Edge::Reset(_)))
            .count();
        assert!(resets > 0, "{e:?}");
    }

    #[test]
    fn the_bound_counts_starts() {
        // A goto loop may start N times (N - 1 retreating arrivals); a statement's
        // target one more; --unroll 0 counts as 1.
        assert!(!blocks(2, 3, 0) && blocks(3, 3, 0));
        assert!(!blocks(3, 3, 1) && blocks(4, 3, 1));
        assert!(blocks(1, 0, 0) && !blocks(1, 0, 1));
    }
}
