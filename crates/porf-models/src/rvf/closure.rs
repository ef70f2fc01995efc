//! The closure of a VerifySC-rvf instance (§4.2 of "Stateless Model Checking under a
//! Reads-Value-From Equivalence"): the weakest partial order `P` containing po and
//! sync such that, for every read `r` of `x` with `Cl(r) = GoodW(r) ∩ VisibleW_P(r)`:
//!
//! 1. `Cl(r) ≠ ∅`;
//! 2. if `Cl(r)` has a `P`-least element `w`, then `w <P r`;
//! 3. if `Cl(r)` has a `P`-greatest element `w`, every other write `w̄` of `x` not in
//!    `GoodW(r)` with `w̄ <P r` has `w̄ <P w`;
//! 4. every write `w̄` of `x` not in `GoodW(r)` with `w <P w̄` for all `w ∈ Cl(r)` has
//!    `r <P w̄`;
//!
//! plus, as porf's events need: a `last` read comes after every write of its location,
//! and an RMW's read part `r` and write part `u` are adjacent in every witness, so
//! `e <P u ⇒ e <P r` and `r <P e ⇒ u <P e`. The initialisation is a virtual write
//! `P`-before every event. Every rule only adds pairs every witness orders that way,
//! so every witness respects `P`, and when no `P` exists (a rule fails or a cycle
//! closes) there is no witness.
//!
//! Representation: `P` contains po, so it is stored as one vector clock per event
//! (per thread, how many of its events are `≤P` the event). Adding a pair costs
//! O(n·k) for `n` events and `k` threads.

use super::instance::{Compiled, Id, K};
use super::search::Interrupted;

/// A partial order containing po, as vector clocks.
///
/// Invariant: `clocks[e·k + t]` is the number of events of thread `t` that are `≤P e`.
pub(super) struct Order {
    k: usize,
    clocks: Vec<u32>,
}

/// A rule failed or a pair would close a cycle: no witness.
#[derive(Debug)]
pub(super) struct Refuted;

impl Order {
    fn po(c: &Compiled) -> Order {
        let k = c.k;
        let mut clocks = vec![0; c.n() * k];
        for (i, e) in c.ev.iter().enumerate() {
            clocks[i * k + e.tid as usize] = e.idx + 1;
        }
        Order { k, clocks }
    }
    /// Per thread, how many of its events are `≤P e`.
    pub fn clock(&self, e: Id) -> &[u32] {
        let i = e as usize * self.k;
        &self.clocks[i..i + self.k]
    }
    /// `a ≤P b` (reflexive).
    pub fn le(&self, c: &Compiled, a: Id, b: Id) -> bool {
        self.clock(b)[c.tid(a)] > c.idx(a)
    }
    /// `a <P b` with the initialisation (`None`) before every write.
    fn lt_opt(&self, c: &Compiled, a: Option<Id>, b: Option<Id>) -> bool {
        match (a, b) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(a), Some(b)) => a != b && self.le(c, a, b),
        }
    }
    fn lt(&self, c: &Compiled, a: Id, b: Id) -> bool {
        a != b && self.le(c, a, b)
    }
    /// Adds `a <P b` and what transitivity implies; `Ok(true)` iff `P` grew.
    fn add(&mut self, c: &Compiled, a: Id, b: Id) -> Result<bool, Refuted> {
        if self.le(c, a, b) {
            return Ok(false);
        }
        if self.le(c, b, a) {
            return Err(Refuted);
        }
        let ca = self.clock(a).to_vec();
        let (bt, bi) = (c.tid(b), c.idx(b));
        // The events `≥P b` of each thread are a po-suffix: walk it from the end.
        for t in 0..self.k {
            for idx in (0..c.len[t]).rev() {
                let x = c.at(t, idx) as usize * self.k;
                if self.clocks[x + bt] <= bi {
                    break;
                }
                for (cl, &m) in self.clocks[x..x + self.k].iter_mut().zip(&ca) {
                    *cl = (*cl).max(m);
                }
            }
        }
        Ok(true)
    }
    /// The first event of thread `t` that is `≥P e`, if any.
    fn first_after(&self, c: &Compiled, e: Id, t: usize) -> Option<Id> {
        let (et, ei) = (c.tid(e), c.idx(e));
        let after = |idx: u32| self.clock(c.at(t, idx))[et] > ei;
        let (mut lo, mut hi) = (0, c.len[t]);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if after(mid) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        (lo < c.len[t]).then(|| c.at(t, lo))
    }
}

/// The closure of `c`, or `None` when it has none (then no witness exists).
pub(super) fn closure(c: &Compiled) -> Option<Order> {
    // Without `stop`, saturation is never interrupted: `Err` is a refutation.
    saturate(c, None).ok()
}

/// Why [`saturate`] gave no order.
enum Cut {
    /// The closure does not exist: no witness exists.
    Refuted,
    /// `stop` said to give up (a time limit): nothing is known.
    Interrupted,
}

impl From<Refuted> for Cut {
    fn from(_: Refuted) -> Cut {
        Cut::Refuted
    }
}

/// The closure of `c` as [`closure`] computes it, asking `stop` before each read of
/// every saturation round (a round is quadratic in the length of a thread, so a time
/// limit must be able to cut it): `Err(Interrupted)` if `stop` said to give up.
pub(super) fn closure_until(
    c: &Compiled,
    stop: Option<&dyn Fn() -> bool>,
) -> Result<Option<Order>, Interrupted> {
    match saturate(c, stop) {
        Ok(p) => Ok(Some(p)),
        Err(Cut::Refuted) => Ok(None),
        Err(Cut::Interrupted) => Err(Interrupted),
    }
}

fn saturate(c: &Compiled, stop: Option<&dyn Fn() -> bool>) -> Result<Order, Cut> {
    let mut p = Order::po(c);
    for e in 0..c.n() as Id {
        match c.kind[e as usize] {
            K::Spawn { child } if c.len[child as usize] > 0 => {
                p.add(c, e, c.at(child as usize, 0))?;
            }
            K::Join { child } if c.len[child as usize] > 0 => {
                let ch = child as usize;
                p.add(c, c.at(ch, c.len[ch] - 1), e)?;
            }
            _ => {}
        }
    }
    let reads: Vec<(Id, u32, bool, bool)> = (0..c.n() as Id)
        .filter_map(|r| match c.kind[r as usize] {
            K::Read { loc, last, rmw, .. } => Some((r, loc, last, rmw)),
            _ => None,
        })
        .collect();
    for &(r, loc, last, _) in &reads {
        if last {
            for &w in &c.writes_of[loc as usize] {
                p.add(c, w, r)?;
            }
        }
    }
    let mut cl: Vec<Option<Id>> = Vec::new();
    loop {
        let mut grew = false;
        for &(r, loc, _, _) in &reads {
            if stop.is_some_and(|f| f()) {
                return Err(Cut::Interrupted);
            }
            let ws = &c.writes_of[loc as usize];
            let good = &c.good[r as usize];
            let visible = |p: &Order, w: Option<Id>| match w {
                None => !ws.iter().any(|&w2| p.lt(c, w2, r)),
                Some(w) => !p.lt(c, r, w) && !ws.iter().any(|&w2| p.lt(c, w, w2) && p.lt(c, w2, r)),
            };
            cl.clear();
            cl.extend(good.iter().copied().filter(|&w| visible(&p, w)));
            if cl.is_empty() {
                return Err(Cut::Refuted);
            }
            let le = |p: &Order, a: Option<Id>, b: Option<Id>| a == b || p.lt_opt(c, a, b);
            if let Some(&Some(w)) = cl.iter().find(|&&a| cl.iter().all(|&b| le(&p, a, b))) {
                grew |= p.add(c, w, r)?;
            }
            let greatest = cl
                .iter()
                .copied()
                .find(|&a| cl.iter().all(|&b| le(&p, b, a)));
            for &wb in ws {
                if good.contains(&Some(wb)) {
                    continue;
                }
                if let Some(g) = greatest {
                    if p.lt(c, wb, r) {
                        match g {
                            None => return Err(Cut::Refuted),
                            Some(g) => grew |= p.add(c, wb, g)?,
                        }
                    }
                }
                if cl.iter().all(|&w| p.lt_opt(c, w, Some(wb))) {
                    grew |= p.add(c, r, wb)?;
                }
            }
        }
        for &(r, _, _, rmw) in &reads {
            if !rmw {
                continue;
            }
            let u = r + 1;
            let own = c.tid(r);
            for t in (0..c.k).filter(|&t| t != own) {
                let before = p.clock(u)[t];
                if before > 0 {
                    grew |= p.add(c, c.at(t, before - 1), r)?;
                }
                if let Some(x) = p.first_after(c, r, t) {
                    grew |= p.add(c, u, x)?;
                }
            }
        }
        if !grew {
            return Ok(p);
        }
    }
}

/// The reads every witness makes read one and the same write: those `r` whose
/// `Cl(r) = GoodW(r) ∩ VisibleW_P(r)` is a single write under the closure `p` (every
/// witness respects `P`, so a write `P` hides from `r` is never the one it reads).
pub(super) fn forced(c: &Compiled, p: &Order) -> Vec<(Id, Option<Id>)> {
    let mut out = Vec::new();
    for r in 0..c.n() as Id {
        let K::Read { loc, .. } = c.kind[r as usize] else {
            continue;
        };
        let ws = &c.writes_of[loc as usize];
        let visible = |w: Option<Id>| match w {
            None => !ws.iter().any(|&w2| p.lt(c, w2, r)),
            Some(w) => !p.lt(c, r, w) && !ws.iter().any(|&w2| p.lt(c, w, w2) && p.lt(c, w2, r)),
        };
        let mut cl = c.good[r as usize].iter().copied().filter(|&w| visible(w));
        if let (Some(w), None) = (cl.next(), cl.next()) {
            out.push((r, w));
        }
    }
    out
}
