//! SC per location (herd's `uniproc`): `acyclic(po-loc ∪ rf ∪ co ∪ fr)`, the
//! coherence axiom of the hardware and kernel models (the LKMM's `coherence`, Alglave
//! et al., ASPLOS 2018, §3).
//!
//! Every edge of `po-loc ∪ rf ∪ co ∪ fr` joins two accesses of one location, so the
//! relation is the disjoint union of its restrictions to each location, and it is
//! acyclic iff each restriction is: [`holds_at`] decides one location. `po-loc` is
//! taken within a thread only (not through spawn and join): a subset of the model's
//! `po-loc`, so [`holds_at`] failing implies the axiom fails — what an explorer that
//! prunes by it needs (it only drops graphs the model rejects).

use porf_graph::{EventId, Graph, Loc};

/// Whether `po-loc ∪ rf ∪ co ∪ fr` restricted to `loc`'s accesses (`po-loc` within
/// each thread) is acyclic in `g` with the co and rf it holds.
pub fn holds_at(g: &Graph, loc: Loc) -> bool {
    let mut acc: Vec<EventId> = g.loc_info(loc).accesses.clone();
    acc.sort_unstable();
    let n = acc.len();
    let index = |e: EventId| acc.binary_search(&e).ok();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 1..n {
        if acc[i - 1].tid == acc[i].tid {
            succ[i - 1].push(i);
        }
    }
    let co = g.co(loc);
    for w in co.windows(2) {
        if let (Some(a), Some(b)) = (index(w[0]), index(w[1])) {
            succ[a].push(b);
        }
    }
    for (i, &e) in acc.iter().enumerate() {
        let l = g.label(e);
        if !l.is_read() {
            continue;
        }
        let src = l.rf();
        if let Some(w) = src.and_then(index) {
            succ[w].push(i);
        }
        // fr: the read before its source's immediate co-successor (the rest follow by co).
        let next = match src {
            None => co.first().copied(),
            Some(w) if g.label(w).loc() == Some(loc) => g.co_next(loc, Some(w)),
            Some(_) => None,
        };
        if let Some(j) = next.and_then(index) {
            succ[i].push(j);
        }
    }
    crate::relation::successors_acyclic(&succ)
}

/// Whether the axiom holds at every location of `g`.
pub fn holds(g: &Graph) -> bool {
    g.locations().all(|(&loc, _)| holds_at(g, loc))
}

#[cfg(test)]
mod tests {
    use super::holds;
    use crate::hwgen::{hw_executions, random_hw_graph, HwArch, HwShape};
    use crate::{by_name, HW_MODEL_NAMES, MODEL_NAMES};

    /// The models that claim `uniproc`, with the graphs they are checked on.
    const CLAIMS: [(&str, HwArch); 5] = [
        ("lkmm", HwArch::Kernel),
        ("armv8", HwArch::Arm),
        ("imm", HwArch::Arm),
        ("riscv", HwArch::RiscV),
        ("power", HwArch::Power),
    ];

    /// Each claim holds on every execution (up to a limit) of random graphs: the model
    /// accepts none failing SC per location; some executions fail it (the check is
    /// exercised) and the model accepts some.
    #[test]
    fn claims_hold_on_random_graphs() {
        for (name, arch) in CLAIMS {
            let model = by_name(name).unwrap();
            assert!(model.uniproc());
            let (mut consistent, mut failing) = (0u64, 0u64);
            for seed in 0..400 {
                let g = random_hw_graph(seed, &HwShape::random(seed, arch));
                for x in hw_executions(&g, 32, seed) {
                    let ok = holds(&x);
                    failing += !ok as u64;
                    if model.is_consistent(&x) {
                        consistent += 1;
                        assert!(
                            ok,
                            "{name} accepts a graph failing uniproc (seed {seed}):\n{x:?}"
                        );
                    }
                }
            }
            assert!(
                consistent > 0 && failing > 0,
                "{name}: {consistent} {failing}"
            );
        }
    }

    /// Only the models listed in [`CLAIMS`] claim it.
    #[test]
    fn only_checked_models_claim_it() {
        for name in MODEL_NAMES.iter().chain(HW_MODEL_NAMES) {
            let claims = by_name(name).unwrap().uniproc();
            assert_eq!(claims, CLAIMS.iter().any(|(n, _)| n == name), "{name}");
        }
    }
}
