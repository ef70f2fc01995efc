//! [`super::co_orders`] against brute force: on every execution (up to a limit) of
//! random kernel and AArch64 graphs (`porf_models::hwgen`, RMWs included), the
//! orders it lists for a location are exactly the permutations of its writes in
//! which every exclusive write directly follows its source and, with `uniproc`,
//! SC per location holds there.

use super::co_orders;
use porf_graph::{Graph, Loc};
use porf_models::atomicity::read_part;
use porf_models::hwgen::{hw_executions, random_hw_graph, HwArch, HwShape};
use porf_models::orders::permutations;
use porf_models::uniproc;
use std::collections::BTreeSet;

/// Atomicity's order condition at `loc`: each exclusive write right after its source.
fn atomic_at(g: &Graph, loc: Loc) -> bool {
    g.co(loc).iter().all(|&w| {
        !g.label(w).is_exclusive_write() || g.co_next(loc, g.label(read_part(w)).rf()) == Some(w)
    })
}

fn brute(g: &mut Graph, loc: Loc, uniproc: bool) -> BTreeSet<Vec<porf_graph::EventId>> {
    permutations(g.co(loc))
        .into_iter()
        .filter(|p| {
            g.set_co(loc, p.clone());
            atomic_at(g, loc) && (!uniproc || uniproc::holds_at(g, loc))
        })
        .collect()
}

#[test]
fn co_orders_are_the_allowed_permutations() {
    let (mut compared, mut cut, mut rmws) = (0u64, 0u64, 0u64);
    for arch in [HwArch::Kernel, HwArch::Arm] {
        for seed in 0..300 {
            let g = random_hw_graph(seed, &HwShape::random(seed, arch));
            for mut x in hw_executions(&g, 16, seed) {
                let locs: Vec<Loc> = x.locations().map(|(&l, _)| l).collect();
                for loc in locs {
                    if x.co(loc).len() > 5 {
                        continue;
                    }
                    rmws += x.co(loc).iter().any(|&w| x.label(w).is_exclusive_write()) as u64;
                    for u in [false, true] {
                        let want = brute(&mut x, loc, u);
                        let got: BTreeSet<_> = co_orders(&mut x, loc, u).into_iter().collect();
                        assert_eq!(got, want, "seed {seed}, {loc:?}, uniproc {u}:\n{x:?}");
                        compared += 1;
                        cut += (permutations(x.co(loc)).len() - want.len()) as u64;
                    }
                }
            }
        }
    }
    assert!(
        compared > 1000 && cut > 0 && rmws > 0,
        "{compared} {cut} {rmws}"
    );
}
