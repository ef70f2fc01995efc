//! VerifySC-rvf against brute force over every interleaving, on random small
//! instances with RMWs, spawns and joins, `last` reads and hb goals.

use super::*;
use porf_graph::{EventId, Loc};
use std::collections::HashSet;

/// A small deterministic generator (xorshift), to keep the crate free of dependencies.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}

/// A random instance with values: (instance, value of each write).
fn random_instance(seed: u64) -> (Instance, Vec<(EventId, i64)>) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let k = 2 + rng.below(2) as usize;
    let nlocs = 1 + rng.below(2);
    let mut threads: Vec<Vec<Kind>> = vec![Vec::new(); k];
    let mut vals = Vec::new();
    // Accesses first (reads get their good sets afterwards, by value).
    let mut read_vals: Vec<(EventId, i64)> = Vec::new();
    threads[0].push(Kind::Other);
    for c in 1..k {
        threads[0].push(Kind::Spawn { child: c as u32 });
        threads[c].push(Kind::Other);
    }
    let joins = rng.chance(1, 2);
    for (t, th) in threads.iter_mut().enumerate() {
        let n = if t == 0 {
            rng.below(3)
        } else {
            1 + rng.below(3)
        };
        for _ in 0..n {
            let loc = Loc(1 + rng.below(nlocs));
            let atomic = rng.chance(2, 3);
            let e = EventId::new(t as u32, th.len() as u32);
            match rng.below(5) {
                0 | 1 => {
                    let v = rng.below(3) as i64;
                    vals.push((e, v));
                    th.push(Kind::Write {
                        loc,
                        atomic,
                        exclusive: false,
                    });
                }
                2 | 3 => {
                    read_vals.push((e, rng.below(3) as i64));
                    th.push(Kind::Read {
                        loc,
                        good: Vec::new(),
                        atomic,
                        last: rng.chance(1, 8),
                    });
                }
                _ => {
                    read_vals.push((e, rng.below(3) as i64));
                    th.push(Kind::Read {
                        loc,
                        good: Vec::new(),
                        atomic: true,
                        last: false,
                    });
                    let w = EventId::new(t as u32, th.len() as u32);
                    vals.push((w, rng.below(3) as i64));
                    th.push(Kind::Write {
                        loc,
                        atomic: true,
                        exclusive: true,
                    });
                }
            }
        }
        if rng.chance(1, 4) {
            th.push(Kind::Other);
        }
    }
    if joins {
        for c in 1..k {
            threads[0].push(Kind::Join { child: c as u32 });
        }
        if rng.chance(1, 2) {
            let loc = Loc(1);
            let e = EventId::new(0, threads[0].len() as u32);
            read_vals.push((e, rng.below(3) as i64));
            threads[0].push(Kind::Read {
                loc,
                good: Vec::new(),
                atomic: true,
                last: false,
            });
        }
    }
    // Good writes: the writes of the read's location with the wanted value (init = 0).
    for (r, v) in read_vals {
        let loc = match threads[r.tid as usize][r.idx as usize] {
            Kind::Read { loc, .. } => loc,
            _ => unreachable!(),
        };
        let mut good = Vec::new();
        if v == 0 {
            good.push(None);
        }
        for &(w, wv) in &vals {
            if wv == v && w != r.next() {
                if let Kind::Write { loc: l, .. } = threads[w.tid as usize][w.idx as usize] {
                    if l == loc {
                        good.push(Some(w));
                    }
                }
            }
        }
        if let Kind::Read { good: g, .. } = &mut threads[r.tid as usize][r.idx as usize] {
            *g = good;
        }
    }
    (Instance { threads }, vals)
}

/// Whether `trace` is a witness of `inst` meeting `goal` (every condition checked
/// from the definitions).
fn is_witness(inst: &Instance, trace: &[EventId], goal: Option<TaintGoal>) -> bool {
    let n: usize = inst.threads.iter().map(|t| t.len()).sum();
    if trace.len() != n || trace.iter().collect::<HashSet<_>>().len() != n {
        return false;
    }
    let kind = |e: EventId| &inst.threads[e.tid as usize][e.idx as usize];
    let pos = |e: EventId| trace.iter().position(|&x| x == e).unwrap();
    let mut spawner = vec![None; inst.threads.len()];
    for (t, th) in inst.threads.iter().enumerate() {
        for (i, k) in th.iter().enumerate() {
            if let Kind::Spawn { child } = k {
                spawner[*child as usize] = Some(EventId::new(t as u32, i as u32));
            }
        }
    }
    let mut hb: Vec<HashSet<EventId>> = Vec::new();
    let mut last_write: std::collections::HashMap<Loc, EventId> = Default::default();
    for (i, &e) in trace.iter().enumerate() {
        let mut h: HashSet<EventId> = HashSet::new();
        if let Some(p) = e.prev() {
            if pos(p) > i {
                return false;
            }
            h.extend(hb[pos(p)].iter().copied());
        } else if let Some(s) = spawner[e.tid as usize] {
            if pos(s) > i {
                return false;
            }
            h.extend(hb[pos(s)].iter().copied());
        }
        match kind(e) {
            Kind::Join { child } => {
                let len = inst.threads[*child as usize].len();
                if len > 0 {
                    let l = EventId::new(*child, len as u32 - 1);
                    if pos(l) > i {
                        return false;
                    }
                    h.extend(hb[pos(l)].iter().copied());
                }
            }
            Kind::Read {
                loc,
                good,
                atomic,
                last,
            } => {
                let src = last_write.get(loc).copied();
                if !good.contains(&src) {
                    return false;
                }
                if *last {
                    for (j, th) in inst.threads.iter().enumerate() {
                        for (x, k) in th.iter().enumerate() {
                            if matches!(k, Kind::Write { loc: l, .. } if l == loc)
                                && pos(EventId::new(j as u32, x as u32)) > i
                            {
                                return false;
                            }
                        }
                    }
                }
                if let Some(w) = src {
                    if *atomic && matches!(kind(w), Kind::Write { atomic: true, .. }) {
                        h.extend(hb[pos(w)].iter().copied());
                    }
                }
            }
            Kind::Write { loc, exclusive, .. } => {
                if *exclusive && (i == 0 || trace[i - 1] != e.prev().unwrap()) {
                    return false;
                }
                last_write.insert(*loc, e);
            }
            _ => {}
        }
        h.insert(e);
        hb.push(h);
    }
    if let Some(g) = goal {
        let (ps, pg) = (pos(g.source), pos(g.goal));
        if g.source_first && ps > pg {
            return false;
        }
        if hb[pg].contains(&g.source) != g.want {
            return false;
        }
    }
    true
}

/// Whether some interleaving is a witness (brute force; partial interleavings are cut
/// only where po, sync, RMW adjacency or a read's good writes already fail).
fn brute(inst: &Instance, goal: Option<TaintGoal>) -> bool {
    fn allowed(inst: &Instance, trace: &[EventId], e: EventId) -> bool {
        let kind = |e: EventId| &inst.threads[e.tid as usize][e.idx as usize];
        if let Some(&l) = trace.last() {
            if let Kind::Read { .. } = kind(l) {
                let nx = l.next();
                let rmw = matches!(
                    inst.threads[l.tid as usize].get(nx.idx as usize),
                    Some(Kind::Write {
                        exclusive: true,
                        ..
                    })
                );
                if rmw && e != nx {
                    return false;
                }
            }
        }
        if e.idx == 0 {
            for (t, th) in inst.threads.iter().enumerate() {
                for (i, k) in th.iter().enumerate() {
                    if matches!(k, Kind::Spawn { child } if *child == e.tid)
                        && !trace.contains(&EventId::new(t as u32, i as u32))
                    {
                        return false;
                    }
                }
            }
        }
        match kind(e) {
            Kind::Join { child } => {
                let len = inst.threads[*child as usize].len() as u32;
                len == 0 || trace.contains(&EventId::new(*child, len - 1))
            }
            Kind::Read { loc, good, .. } => {
                let src = trace
                    .iter()
                    .rev()
                    .find(|&&w| matches!(kind(w), Kind::Write { loc: l, .. } if l == loc))
                    .copied();
                good.contains(&src)
            }
            _ => true,
        }
    }
    fn go(
        inst: &Instance,
        goal: Option<TaintGoal>,
        pos: &mut Vec<usize>,
        trace: &mut Vec<EventId>,
    ) -> bool {
        let n: usize = inst.threads.iter().map(|t| t.len()).sum();
        if trace.len() == n {
            return is_witness(inst, trace, goal);
        }
        for t in 0..inst.threads.len() {
            if pos[t] < inst.threads[t].len() {
                let e = EventId::new(t as u32, pos[t] as u32);
                if !allowed(inst, trace, e) {
                    continue;
                }
                trace.push(e);
                pos[t] += 1;
                let ok = go(inst, goal, pos, trace);
                pos[t] -= 1;
                trace.pop();
                if ok {
                    return true;
                }
            }
        }
        false
    }
    go(
        inst,
        goal,
        &mut vec![0; inst.threads.len()],
        &mut Vec::new(),
    )
}

fn accesses(inst: &Instance) -> Vec<EventId> {
    let mut out = Vec::new();
    for (t, th) in inst.threads.iter().enumerate() {
        for (i, _) in th.iter().enumerate() {
            out.push(EventId::new(t as u32, i as u32));
        }
    }
    out
}

#[test]
fn agrees_with_brute_force() {
    let mut found = 0;
    let n: u64 = std::env::var("PORF_RVF_VERIFY_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500);
    for seed in 0..n {
        let (inst, _) = random_instance(seed);
        let events = accesses(&inst);
        let mut rng = Rng(seed + 77);
        let mut goals = vec![None];
        for _ in 0..2 {
            let s = events[rng.below(events.len() as u64) as usize];
            let g = events[rng.below(events.len() as u64) as usize];
            let access = matches!(
                inst.threads[g.tid as usize][g.idx as usize],
                Kind::Read { .. } | Kind::Write { .. }
            );
            let first = access && rng.chance(1, 2);
            if s != g {
                goals.push(Some(TaintGoal {
                    source: s,
                    goal: g,
                    want: rng.chance(1, 2),
                    source_first: first,
                }));
            }
        }
        for goal in goals {
            let expect = brute(&inst, goal);
            for closure in [false, true] {
                let q = Query {
                    guide: &[],
                    taint: goal,
                    closure,
                    stop: None,
                };
                let v = verify(&inst, &q);
                match &v {
                    Verdict::Witness(tr) => {
                        assert!(
                            is_witness(&inst, tr, goal),
                            "seed {seed}: not a witness {tr:?}\n{inst:?}\n{goal:?}"
                        );
                        found += 1;
                    }
                    Verdict::NoWitness | Verdict::Refuted => {}
                    Verdict::Malformed | Verdict::Interrupted => {
                        panic!("seed {seed}: {v:?} {inst:?}")
                    }
                }
                assert_eq!(
                    matches!(v, Verdict::Witness(_)),
                    expect,
                    "seed {seed}, closure {closure}, goal {goal:?}: {v:?}\n{inst:?}"
                );
            }
        }
    }
    assert!(found > n / 3, "too few satisfiable instances: {found}");
}

#[test]
fn malformed_instances_are_rejected() {
    let inst = Instance {
        threads: vec![vec![
            Kind::Other,
            Kind::Write {
                loc: Loc(1),
                atomic: true,
                exclusive: true,
            },
        ]],
    };
    assert_eq!(verify(&inst, &Query::default()), Verdict::Malformed);
}

/// Every witness (brute force, all of them) makes each read `forced_sources` names
/// read its named source.
#[test]
fn forced_sources_hold_in_every_witness() {
    fn all(
        inst: &Instance,
        pos: &mut Vec<usize>,
        trace: &mut Vec<EventId>,
        out: &mut Vec<Vec<EventId>>,
    ) {
        let n: usize = inst.threads.iter().map(|t| t.len()).sum();
        if trace.len() == n {
            if is_witness(inst, trace, None) {
                out.push(trace.clone());
            }
            return;
        }
        for t in 0..inst.threads.len() {
            if pos[t] < inst.threads[t].len() {
                trace.push(EventId::new(t as u32, pos[t] as u32));
                pos[t] += 1;
                all(inst, pos, trace, out);
                pos[t] -= 1;
                trace.pop();
            }
        }
    }
    let mut checked = 0;
    for seed in 0..400u64 {
        let (inst, _) = random_instance(seed);
        let n: usize = inst.threads.iter().map(|t| t.len()).sum();
        if n > 11 {
            continue;
        }
        let mut ws = Vec::new();
        all(
            &inst,
            &mut vec![0; inst.threads.len()],
            &mut Vec::new(),
            &mut ws,
        );
        let Some(forced) = forced_sources(&inst) else {
            assert!(ws.is_empty(), "seed {seed}: refuted but has a witness");
            continue;
        };
        for tr in &ws {
            for &(r, src) in &forced {
                let i = tr.iter().position(|&e| e == r).unwrap();
                let read_from = tr[..i].iter().rev().copied().find(|&w| {
                    matches!(
                        (&inst.threads[w.tid as usize][w.idx as usize], &inst.threads[r.tid as usize][r.idx as usize]),
                        (Kind::Write { loc: a, .. }, Kind::Read { loc: b, .. }) if a == b
                    )
                });
                assert_eq!(read_from, src, "seed {seed}: {r:?} in {tr:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// A search told to stop gives up without an answer (or answers before it asks).
#[test]
fn stop_interrupts_the_search() {
    for seed in 0..200u64 {
        let (inst, _) = random_instance(seed);
        let q = Query {
            stop: Some(&|| true),
            ..Query::default()
        };
        match verify(&inst, &q) {
            Verdict::Interrupted => {}
            Verdict::Witness(tr) => assert!(is_witness(&inst, &tr, None)),
            v => assert_eq!(
                v == Verdict::NoWitness || v == Verdict::Refuted,
                !brute(&inst, None)
            ),
        }
    }
}
