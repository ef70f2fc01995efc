//! Seeded random toy programs for differential testing.
//!
//! Invariants of [`random_program`]:
//! * The same seed and config give the same program (a [`StdRng`] seeded with
//!   `seed_from_u64`; the `Cargo.lock` pins the generator).
//! * The thread functions hold at most `max_events` memory-event instructions in total,
//!   counting both arms of every branch (an RMW, a fence, a lock, an unlock, a malloc, a
//!   free, a mutex init or destroy count one each); see [`ToyProgram::event_count`].
//! * Programs are loop-free. Mutex sections are `lock(m); 1–2 accesses; unlock(m)` in
//!   straight-line code (never split by a branch), and the mutex location is used for
//!   nothing else — unless [`GenConfig::lock_misuse`] adds stray operations on `m`.
//! * With [`GenConfig::heap`], the block `b` (2 cells) is allocated by exactly one
//!   `malloc`, at the top level of one thread (so at most once per execution).
//! * Features switched off in [`GenConfig`] never appear, and with `heap` and
//!   `lock_misuse` off the generator draws exactly the random numbers it drew before
//!   they existed, so every seed gives the same program as then.

use porf_graph::{Loc, MemOrder, Val};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::builder::{ProgramBuilder, ThreadBuilder};
use crate::expr::{eq, ne, or, Expr, Reg};
use crate::interp::{ToyBlock, ToyProgram};

use MemOrder::{AcqRel, Acquire, NonAtomic, Relaxed, Release, SeqCst};

/// What [`random_program`] may generate.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Number of thread functions (besides main), inclusive range.
    pub min_threads: usize,
    pub max_threads: usize,
    /// Upper bound on memory events across all thread functions.
    pub max_events: usize,
    /// Number of ordinary shared locations (the mutex, if any, comes on top).
    pub min_locs: usize,
    pub max_locs: usize,
    pub mutexes: bool,
    pub assumes: bool,
    pub asserts: bool,
    pub non_atomics: bool,
    pub rmws: bool,
    pub fences: bool,
    pub branches: bool,
    /// Dynamic memory: one heap block `b` of 2 cells whose cells join the locations
    /// accesses pick from, one top-level `malloc(b, 1 or 2)` in a random thread at a
    /// random position (size 1 makes `b[1]` out of bounds) and 0–2 `free(b)` anywhere
    /// (top level or inside branches, in any threads). The malloc and frees count in
    /// `max_events` (needs `max_events >= 1`).
    pub heap: bool,
    /// Mutex misuse (needs `mutexes`; only in programs that declare the mutex): now and
    /// then a stray `unlock(m)`, a re-lock `lock(m); lock(m)` or a `mutex_destroy(m)`
    /// anywhere, and maybe a `mutex_init(m)` at the start of a thread. These count in
    /// `max_events`.
    pub lock_misuse: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            min_threads: 2,
            max_threads: 4,
            max_events: 8,
            min_locs: 1,
            max_locs: 3,
            mutexes: true,
            assumes: true,
            asserts: true,
            non_atomics: true,
            rmws: true,
            fences: true,
            branches: true,
            heap: false,
            lock_misuse: false,
        }
    }
}

/// The name and cell count of the heap block of [`GenConfig::heap`].
const HEAP_BLOCK: (&str, u32) = ("b", 2);

/// A random program; deterministic in `seed` and `cfg`.
pub fn random_program(seed: u64, cfg: &GenConfig) -> ToyProgram {
    assert!(cfg.min_threads <= cfg.max_threads && cfg.min_locs <= cfg.max_locs);
    assert!(cfg.max_locs >= 1, "random programs need a location");
    let mut rng = StdRng::seed_from_u64(seed);
    let nthreads = rng.random_range(cfg.min_threads..=cfg.max_threads);
    let nlocs = rng.random_range(cfg.min_locs.max(1)..=cfg.max_locs);
    const NAMES: [&str; 4] = ["x", "y", "z", "w"];
    // The builder numbers locations Loc(1), Loc(2), ... in declaration order; the
    // mutex (declared only if some thread uses it) comes after the ordinary ones.
    let locs: Vec<Loc> = (1..=nlocs as u64).map(Loc).collect();
    let p_mutex = if cfg.lock_misuse { 0.5 } else { 0.35 };
    let mutex = (cfg.mutexes && rng.random_bool(p_mutex)).then_some(Loc(nlocs as u64 + 1));

    // Events reserved for the heap and misuse operations, placed once the threads'
    // bodies exist. (No random numbers are drawn here when both switches are off.)
    let heap = (cfg.heap && nthreads > 0 && cfg.max_events >= 1).then(|| {
        let size = rng.random_range(1..=2u64);
        let frees = rng.random_range(0..=2usize).min(cfg.max_events - 1);
        let zeroed = rng.random_bool(0.5);
        (ToyBlock::new(0, HEAP_BLOCK.1), size, frees, zeroed)
    });
    let mut reserved = heap.map_or(0, |(_, _, frees, _)| 1 + frees);
    let mut misuse = Vec::new();
    if cfg.lock_misuse && nthreads > 0 && mutex.is_some() {
        if rng.random_bool(0.7) {
            misuse.push(match rng.random_range(0..3) {
                0 => Misuse::StrayUnlock,
                1 => Misuse::Relock,
                _ => Misuse::Destroy,
            });
        }
        if rng.random_bool(0.3) {
            misuse.push(Misuse::Init);
        }
        misuse.retain(|op| {
            let fits = reserved + op.cost() <= cfg.max_events;
            reserved += if fits { op.cost() } else { 0 };
            fits
        });
    }
    let avail = cfg.max_events - reserved;

    // Usually the whole budget; every thread gets one event when possible, the rest is
    // spread at random.
    let total = if rng.random_bool(0.6) {
        avail
    } else {
        rng.random_range(nthreads.min(avail)..=avail)
    };
    let mut budgets: Vec<usize> = (0..nthreads).map(|i| usize::from(i < total)).collect();
    for _ in nthreads.min(total)..total {
        budgets[rng.random_range(0..nthreads)] += 1;
    }

    // Accesses pick among the ordinary locations and the heap block's cells.
    let mut pool = locs.clone();
    if let Some((block, _, _, _)) = heap {
        pool.extend((0..block.cells()).map(|i| block.cell(i)));
    }
    let mut g = Gen {
        rng,
        cfg,
        locs: pool,
        mutex,
    };
    let mut bodies = Vec::with_capacity(nthreads);
    let mut uses_mutex = false;
    for (entry, budget) in budgets.into_iter().enumerate() {
        let mut th = ThreadGen {
            entry: entry as u32,
            regs: 0,
            extras: 2,
            uses_mutex: false,
        };
        let mut body = g.block(&mut th, budget, 0);
        if th.regs > 0 {
            if cfg.asserts && g.rng.random_bool(0.3) {
                body.push(Stmt::Assert(g.assert_cond(&th)));
            } else if cfg.assumes && g.rng.random_bool(0.15) {
                body.push(Stmt::Assume(g.assume_cond(&th)));
            }
        }
        uses_mutex |= th.uses_mutex;
        bodies.push(body);
    }

    if let Some((block, size, frees, zeroed)) = heap {
        // Often first, so that the thread's own accesses are mostly allocated (and
        // others can be, through synchronisation).
        let t = g.rng.random_range(0..nthreads);
        let at = if g.rng.random_bool(0.5) {
            0
        } else {
            g.rng.random_range(0..=bodies[t].len())
        };
        bodies[t].insert(at, Stmt::Malloc(block, size, zeroed));
        for _ in 0..frees {
            g.insert_anywhere(&mut bodies, &[Stmt::Free(block)], 0.5);
        }
    }
    if let Some(m) = mutex.filter(|_| !misuse.is_empty()) {
        uses_mutex = true;
        for op in misuse {
            match op {
                Misuse::StrayUnlock => g.insert_anywhere(&mut bodies, &[Stmt::Unlock(m)], 0.0),
                Misuse::Relock => {
                    g.insert_anywhere(&mut bodies, &[Stmt::Lock(m), Stmt::Lock(m)], 0.0)
                }
                Misuse::Destroy => g.insert_anywhere(&mut bodies, &[Stmt::MutexDestroy(m)], 0.0),
                Misuse::Init => {
                    let t = g.rng.random_range(0..nthreads);
                    bodies[t].insert(0, Stmt::MutexInit(m));
                }
            }
        }
    }

    let mut p = ProgramBuilder::new();
    for (i, &l) in locs.iter().enumerate() {
        let declared = p.loc(NAMES.get(i).copied().unwrap_or("v"));
        debug_assert_eq!(declared, l);
    }
    if uses_mutex {
        let declared = p.loc("m");
        debug_assert_eq!(Some(declared), g.mutex);
    }
    if let Some((block, _, _, _)) = heap {
        let declared = p.block(HEAP_BLOCK.0, HEAP_BLOCK.1);
        debug_assert_eq!(declared, block);
    }
    for body in &bodies {
        p.thread(|t| lower(t, body));
    }
    p.build()
}

/// A misuse of the mutex ([`GenConfig::lock_misuse`]).
#[derive(Copy, Clone, Debug)]
enum Misuse {
    /// `unlock(m)` anywhere (usually without holding `m`).
    StrayUnlock,
    /// `lock(m); lock(m)` anywhere: the thread gets stuck on its own mutex.
    Relock,
    /// `mutex_destroy(m)` anywhere.
    Destroy,
    /// `mutex_init(m)` at the start of a thread.
    Init,
}

impl Misuse {
    /// Memory events.
    fn cost(self) -> usize {
        match self {
            Misuse::Relock => 2,
            _ => 1,
        }
    }
}

/// A generated statement; registers are numbered as the builder will number them.
#[derive(Clone, Debug)]
enum Stmt {
    Load(Reg, Loc, MemOrder),
    Store(Loc, Expr, MemOrder),
    FetchAdd(Reg, Loc, Val, MemOrder),
    Xchg(Reg, Loc, Val, MemOrder),
    Cas(Reg, Loc, Val, Val, MemOrder, MemOrder),
    Fence(MemOrder),
    Lock(Loc),
    Unlock(Loc),
    MutexInit(Loc),
    MutexDestroy(Loc),
    /// Block, size, zero-filled.
    Malloc(ToyBlock, u64, bool),
    Free(ToyBlock),
    IfEq(Reg, Val, Vec<Stmt>, Vec<Stmt>),
    Assume(Expr),
    Assert(Expr),
}

fn lower(t: &mut ThreadBuilder, stmts: &[Stmt]) {
    for s in stmts {
        let got = match s {
            Stmt::Load(r, l, o) => Some((*r, t.load(*l, *o))),
            Stmt::Store(l, v, o) => {
                t.store(*l, v.clone(), *o);
                None
            }
            Stmt::FetchAdd(r, l, v, o) => Some((*r, t.fetch_add(*l, *v, *o))),
            Stmt::Xchg(r, l, v, o) => Some((*r, t.exchange(*l, *v, *o))),
            Stmt::Cas(r, l, e, n, o, f) => Some((*r, t.cas(*l, *e, *n, *o, *f))),
            Stmt::Fence(o) => {
                t.fence(*o);
                None
            }
            Stmt::Lock(l) => {
                t.lock(*l);
                None
            }
            Stmt::Unlock(l) => {
                t.unlock(*l);
                None
            }
            Stmt::MutexInit(l) => {
                t.mutex_init(*l);
                None
            }
            Stmt::MutexDestroy(l) => {
                t.mutex_destroy(*l);
                None
            }
            Stmt::Malloc(b, size, zeroed) => {
                if *zeroed {
                    t.calloc(*b, *size);
                } else {
                    t.malloc(*b, *size);
                }
                None
            }
            Stmt::Free(b) => {
                t.free(*b);
                None
            }
            Stmt::IfEq(r, c, a, b) => {
                t.if_eq(*r, *c, |t| lower(t, a), |t| lower(t, b));
                None
            }
            Stmt::Assume(e) => {
                t.assume(e.clone());
                None
            }
            Stmt::Assert(e) => {
                t.assert(e.clone());
                None
            }
        };
        if let Some((planned, built)) = got {
            debug_assert_eq!(
                planned, built,
                "generator and builder disagree on registers"
            );
        }
    }
}

struct Gen<'a> {
    rng: StdRng,
    cfg: &'a GenConfig,
    locs: Vec<Loc>,
    mutex: Option<Loc>,
}

/// Per-thread generation state.
struct ThreadGen {
    entry: u32,
    /// Registers created so far.
    regs: u32,
    /// Zero-cost statements (assume/assert) still allowed inside blocks.
    extras: u32,
    /// Whether a mutex section was generated.
    uses_mutex: bool,
}

impl ThreadGen {
    fn new_reg(&mut self) -> Reg {
        self.regs += 1;
        Reg {
            thread: self.entry,
            index: self.regs - 1,
        }
    }
}

#[derive(Copy, Clone)]
enum Kind {
    Load,
    Store,
    Rmw,
    Fence,
    Branch,
    Mutex,
    Assume,
    Assert,
}

impl Gen<'_> {
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.rng.random_range(0..xs.len())]
    }

    fn loc(&mut self) -> Loc {
        let locs = std::mem::take(&mut self.locs);
        let l = self.pick(&locs);
        self.locs = locs;
        l
    }

    /// Inserts `stmts` (which create no registers) in a random thread at a random point:
    /// uniformly among the positions of its statement lists, branch arms included, or
    /// with `p_nested` only among those inside branch arms (if it has any).
    fn insert_anywhere(&mut self, bodies: &mut [Vec<Stmt>], stmts: &[Stmt], p_nested: f64) {
        fn points(list: &[Stmt]) -> usize {
            let nested: usize = list
                .iter()
                .map(|s| match s {
                    Stmt::IfEq(_, _, a, b) => points(a) + points(b),
                    _ => 0,
                })
                .sum();
            list.len() + 1 + nested
        }
        /// Inserts at point `k` (< `points(list)`); returns the rest of `k` otherwise.
        fn insert(list: &mut Vec<Stmt>, mut k: usize, stmts: &[Stmt]) -> Option<usize> {
            if k <= list.len() {
                list.splice(k..k, stmts.iter().cloned());
                return None;
            }
            k -= list.len() + 1;
            for s in list.iter_mut() {
                if let Stmt::IfEq(_, _, a, b) = s {
                    k = insert(a, k, stmts)?;
                    k = insert(b, k, stmts)?;
                }
            }
            Some(k)
        }
        let t = self.rng.random_range(0..bodies.len());
        let (top, all) = (bodies[t].len() + 1, points(&bodies[t]));
        let k = if all > top && self.rng.random_bool(p_nested) {
            self.rng.random_range(top..all)
        } else {
            self.rng.random_range(0..all)
        };
        let rest = insert(&mut bodies[t], k, stmts);
        debug_assert!(rest.is_none());
    }

    fn reg(&mut self, th: &ThreadGen) -> Reg {
        Reg {
            thread: th.entry,
            index: self.rng.random_range(0..th.regs),
        }
    }

    fn na(&mut self, p: f64) -> bool {
        self.cfg.non_atomics && self.rng.random_bool(p)
    }

    /// Statements using exactly `budget` memory events.
    fn block(&mut self, th: &mut ThreadGen, budget: usize, depth: u32) -> Vec<Stmt> {
        let mut out = Vec::new();
        let mut left = budget;
        while left > 0 {
            let mut kinds = vec![(Kind::Load, 3), (Kind::Store, 3)];
            if self.cfg.rmws {
                kinds.push((Kind::Rmw, 2));
            }
            if self.cfg.fences {
                kinds.push((Kind::Fence, 1));
            }
            if self.cfg.branches && th.regs > 0 && depth < 2 {
                kinds.push((Kind::Branch, 2));
            }
            if self.mutex.is_some() && left >= 3 {
                kinds.push((Kind::Mutex, 2));
            }
            if th.regs > 0 && th.extras > 0 {
                if self.cfg.assumes {
                    kinds.push((Kind::Assume, 1));
                }
                if self.cfg.asserts {
                    kinds.push((Kind::Assert, 1));
                }
            }
            let total: u32 = kinds.iter().map(|k| k.1).sum();
            let mut x = self.rng.random_range(0..total);
            let kind = kinds
                .iter()
                .find(|k| {
                    let hit = x < k.1;
                    x = x.saturating_sub(k.1);
                    hit
                })
                .map_or(Kind::Load, |k| k.0);
            match kind {
                Kind::Load | Kind::Store | Kind::Rmw => {
                    let s = self.access(th, kind, 0.2);
                    out.push(s);
                    left -= 1;
                }
                Kind::Fence => {
                    let ord = self.pick(&[Acquire, Release, AcqRel, SeqCst]);
                    out.push(Stmt::Fence(ord));
                    left -= 1;
                }
                Kind::Branch => {
                    let r = self.reg(th);
                    let c = self.rng.random_range(0..=2);
                    let b1 = self.rng.random_range(1..=left.min(3));
                    let b2 = self.rng.random_range(0..=(left - b1).min(2));
                    let then = self.block(th, b1, depth + 1);
                    let els = self.block(th, b2, depth + 1);
                    out.push(Stmt::IfEq(r, c, then, els));
                    left -= b1 + b2;
                }
                Kind::Mutex => {
                    let m = self.mutex.expect("mutex kind without a mutex");
                    th.uses_mutex = true;
                    let k = self.rng.random_range(1..=(left - 2).min(2));
                    out.push(Stmt::Lock(m));
                    for _ in 0..k {
                        let kind = if self.cfg.rmws {
                            self.pick(&[Kind::Load, Kind::Store, Kind::Rmw])
                        } else {
                            self.pick(&[Kind::Load, Kind::Store])
                        };
                        let s = self.access(th, kind, 0.5);
                        out.push(s);
                    }
                    out.push(Stmt::Unlock(m));
                    left -= k + 2;
                }
                Kind::Assume => {
                    th.extras -= 1;
                    out.push(Stmt::Assume(self.assume_cond(th)));
                }
                Kind::Assert => {
                    th.extras -= 1;
                    out.push(Stmt::Assert(self.assert_cond(th)));
                }
            }
        }
        out
    }

    /// One load, store or RMW on an ordinary location; plain loads and stores are
    /// non-atomic with probability `p_na` (when allowed).
    fn access(&mut self, th: &mut ThreadGen, kind: Kind, p_na: f64) -> Stmt {
        let loc = self.loc();
        match kind {
            Kind::Load => {
                let ord = if self.na(p_na) {
                    NonAtomic
                } else {
                    self.pick(&[Relaxed, Acquire, SeqCst])
                };
                Stmt::Load(th.new_reg(), loc, ord)
            }
            Kind::Store => {
                let ord = if self.na(p_na) {
                    NonAtomic
                } else {
                    self.pick(&[Relaxed, Release, SeqCst])
                };
                let val = if th.regs > 0 && self.rng.random_bool(0.25) {
                    self.reg(th) + self.rng.random_range(1..=2 as Val)
                } else {
                    Expr::Const(self.rng.random_range(1..=3))
                };
                Stmt::Store(loc, val, ord)
            }
            _ => {
                let ord = self.pick(&[Relaxed, Acquire, Release, AcqRel, SeqCst]);
                match self.rng.random_range(0..3) {
                    0 => Stmt::FetchAdd(th.new_reg(), loc, self.rng.random_range(1..=2), ord),
                    1 => Stmt::Xchg(th.new_reg(), loc, self.rng.random_range(1..=3), ord),
                    _ => {
                        let mut fails = vec![Relaxed];
                        if ord.is_acquire() {
                            fails.push(Acquire);
                        }
                        if ord.is_sc() {
                            fails.push(SeqCst);
                        }
                        let fail = self.pick(&fails);
                        let expected = self.rng.random_range(0..=2);
                        let new = self.rng.random_range(1..=3);
                        Stmt::Cas(th.new_reg(), loc, expected, new, ord, fail)
                    }
                }
            }
        }
    }

    fn assume_cond(&mut self, th: &ThreadGen) -> Expr {
        let r = self.reg(th);
        eq(r, self.rng.random_range(0..=2 as Val))
    }

    fn assert_cond(&mut self, th: &ThreadGen) -> Expr {
        let r = self.reg(th);
        let c: Val = self.rng.random_range(0..=2);
        match self.rng.random_range(0..4) {
            0 => ne(r, c),
            1 => eq(r, c),
            2 => crate::expr::lt(r, c + 1),
            _ => {
                let r2 = self.reg(th);
                or(eq(r, c), ne(r2, self.rng.random_range(0..=2 as Val)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::Instr;
    use crate::ToyThread;
    use porf_graph::{Action, Program, ThreadMachine};

    fn all_instrs(p: &ToyProgram) -> impl Iterator<Item = &Instr> {
        (0..p.num_threads() as u32).flat_map(|e| &p.thread_code(e).instrs)
    }

    #[test]
    fn deterministic_per_seed() {
        let cfg = GenConfig::default();
        for seed in 0..50 {
            let a = random_program(seed, &cfg).to_string();
            let b = random_program(seed, &cfg).to_string();
            assert_eq!(a, b);
        }
        let distinct: std::collections::HashSet<String> = (0..50)
            .map(|s| random_program(s, &cfg).to_string())
            .collect();
        assert!(distinct.len() > 40);
    }

    #[test]
    fn respects_bounds() {
        let cfg = GenConfig::default();
        for seed in 0..2000 {
            let p = random_program(seed, &cfg);
            assert!(p.event_count() <= cfg.max_events, "seed {seed}:\n{p}");
            assert!((2..=4).contains(&p.num_threads()));
            let ordinary = p.locations().iter().filter(|d| d.name != "m").count();
            assert!((1..=3).contains(&ordinary));
        }
        let small = GenConfig {
            max_events: 3,
            min_threads: 4,
            max_threads: 4,
            ..GenConfig::default()
        };
        for seed in 0..300 {
            assert!(random_program(seed, &small).event_count() <= 3);
        }
    }

    /// Statically: every lock is followed by 1–2 plain accesses and an unlock of the
    /// same mutex, with no control flow in between, and the mutex is used only by
    /// lock/unlock.
    #[test]
    fn mutex_sections_well_nested() {
        let cfg = GenConfig::default();
        let mut seen = 0;
        for seed in 0..2000 {
            let p = random_program(seed, &cfg);
            let m = p.locations().iter().find(|d| d.name == "m").map(|d| d.loc);
            for e in 0..p.num_threads() as u32 {
                let code = &p.thread_code(e).instrs;
                let mut i = 0;
                while i < code.len() {
                    match &code[i] {
                        Instr::Lock { loc, .. } => {
                            assert_eq!(Some(*loc), m);
                            let inner = code[i + 1..]
                                .iter()
                                .take_while(|x| {
                                    matches!(
                                        x,
                                        Instr::Load { .. }
                                            | Instr::Store { .. }
                                            | Instr::Rmw { .. }
                                            | Instr::Cas { .. }
                                    )
                                })
                                .count();
                            assert!((1..=2).contains(&inner), "seed {seed}:\n{p}");
                            assert!(
                                matches!(code.get(i + 1 + inner), Some(Instr::Unlock { loc, .. }) if Some(*loc) == m),
                                "seed {seed}:\n{p}"
                            );
                            seen += 1;
                            i += inner + 2;
                        }
                        Instr::Unlock { .. } => panic!("unmatched unlock, seed {seed}:\n{p}"),
                        Instr::Load { loc, .. }
                        | Instr::Store { loc, .. }
                        | Instr::Rmw { loc, .. }
                        | Instr::Cas { loc, .. } => {
                            assert_ne!(Some(*loc), m);
                            i += 1;
                        }
                        _ => i += 1,
                    }
                }
            }
        }
        assert!(seen > 50, "mutex sections too rare: {seen}");
    }

    /// Dynamically: along any path (random read values), locks and unlocks alternate
    /// and the thread ends unlocked (or blocked/errored).
    #[test]
    fn mutex_sections_balanced_on_every_path() {
        let cfg = GenConfig::default();
        let mut rng = StdRng::seed_from_u64(7);
        for seed in 0..500 {
            let p = random_program(seed, &cfg);
            for e in 0..p.num_threads() as u32 {
                for _ in 0..4 {
                    let mut t: ToyThread = p.spawn(1, e, 0);
                    let mut held = false;
                    for _ in 0..100 {
                        match t.peek() {
                            Action::Lock { .. } => {
                                assert!(!held);
                                held = true;
                            }
                            Action::Unlock { .. } => {
                                assert!(held);
                                held = false;
                            }
                            Action::Finish { .. } => {
                                assert!(!held);
                                break;
                            }
                            Action::Block { .. } | Action::Error { .. } => break,
                            _ => {}
                        }
                        t.resume(rng.random_range(0..=3));
                    }
                    assert!(matches!(
                        t.peek(),
                        Action::Finish { .. } | Action::Block { .. } | Action::Error { .. }
                    ));
                }
            }
        }
    }

    #[test]
    fn features_appear_and_can_be_disabled() {
        let cfg = GenConfig::default();
        let has = |f: &dyn Fn(&Instr) -> bool| {
            (0..500).any(|s| all_instrs(&random_program(s, &cfg)).any(f))
        };
        assert!(has(&|i| matches!(i, Instr::Lock { .. })));
        assert!(has(&|i| matches!(i, Instr::Assume { .. })));
        assert!(has(&|i| matches!(i, Instr::Assert { .. })));
        assert!(has(&|i| matches!(i, Instr::Cas { .. })));
        assert!(has(&|i| matches!(i, Instr::Rmw { .. })));
        assert!(has(&|i| matches!(i, Instr::Fence { .. })));
        assert!(has(&|i| matches!(i, Instr::BranchIfZero { .. })));
        assert!(has(&|i| i.ord() == Some(NonAtomic)));
        assert!(has(&|i| matches!(
            i,
            Instr::Store {
                val: Expr::Add(..),
                ..
            }
        )));

        // The heap and misuse switches are off by default.
        for s in 0..500 {
            let p = random_program(s, &cfg);
            assert!(p.blocks().is_empty());
            assert!(!all_instrs(&p).any(|i| matches!(
                i,
                Instr::Malloc { .. }
                    | Instr::Free { .. }
                    | Instr::MutexInit { .. }
                    | Instr::MutexDestroy { .. }
            )));
        }

        let off = GenConfig {
            mutexes: false,
            assumes: false,
            asserts: false,
            non_atomics: false,
            rmws: false,
            fences: false,
            branches: false,
            ..GenConfig::default()
        };
        for s in 0..500 {
            let p = random_program(s, &off);
            for i in all_instrs(&p) {
                assert!(
                    matches!(i, Instr::Load { .. } | Instr::Store { .. }),
                    "seed {s}: {i:?}"
                );
                assert!(i.ord().unwrap().is_atomic());
            }
            assert!(p.locations().iter().all(|d| d.name != "m"));
        }
    }

    fn heap_and_misuse() -> GenConfig {
        GenConfig {
            heap: true,
            lock_misuse: true,
            ..GenConfig::default()
        }
    }

    /// Whether instruction `i` of `code` runs unconditionally (no forward jump skips it).
    fn top_level(code: &[Instr], i: usize) -> bool {
        code[..i].iter().all(|x| match x {
            Instr::BranchIfZero { target, .. } | Instr::Jump { target } => *target <= i,
            _ => true,
        })
    }

    #[test]
    fn heap_switch_allocates_once_at_top_level() {
        let cfg = GenConfig {
            heap: true,
            ..GenConfig::default()
        };
        let (mut sizes, mut frees_per_prog) = (std::collections::BTreeSet::new(), [0; 3]);
        let (mut nested_free, mut foreign_free, mut oob_cell) = (0, 0, 0);
        for seed in 0..1000 {
            let p = random_program(seed, &cfg);
            assert!(p.event_count() <= cfg.max_events, "seed {seed}:\n{p}");
            assert_eq!(p.blocks().len(), 1);
            let b = p.blocks()[0].block;
            assert_eq!((p.blocks()[0].name.as_str(), b.cells()), ("b", 2));
            let mut mallocs = Vec::new();
            let mut frees = Vec::new();
            for e in 0..p.num_threads() as u32 {
                let code = &p.thread_code(e).instrs;
                for (i, instr) in code.iter().enumerate() {
                    match instr {
                        Instr::Malloc { base, size, .. } => {
                            assert_eq!(*base, b.base());
                            assert!(top_level(code, i), "seed {seed}:\n{p}");
                            sizes.insert(*size);
                            mallocs.push((e, *size));
                        }
                        Instr::Free { base, .. } => {
                            assert_eq!(*base, b.base());
                            frees.push((e, top_level(code, i)));
                        }
                        _ => {}
                    }
                }
            }
            assert_eq!(mallocs.len(), 1, "seed {seed}:\n{p}");
            assert!(frees.len() <= 2, "seed {seed}:\n{p}");
            frees_per_prog[frees.len()] += 1;
            nested_free += frees.iter().filter(|f| !f.1).count();
            foreign_free += frees.iter().filter(|f| f.0 != mallocs[0].0).count();
            if mallocs[0].1 == 1 {
                let touches_cell1 = all_instrs(&p).any(|i| {
                    matches!(i, Instr::Load { loc, .. } | Instr::Store { loc, .. }
                        | Instr::Rmw { loc, .. } | Instr::Cas { loc, .. } if *loc == b.cell(1))
                });
                oob_cell += usize::from(touches_cell1);
            }
        }
        assert_eq!(sizes.into_iter().collect::<Vec<_>>(), vec![1, 2]);
        assert!(
            frees_per_prog.iter().all(|&n| n > 100),
            "{frees_per_prog:?}"
        );
        assert!(
            nested_free > 50 && foreign_free > 200 && oob_cell > 100,
            "{nested_free} {foreign_free} {oob_cell}"
        );
    }

    /// Dynamically: along any path, the malloc runs at most once (in the one thread
    /// that has it), whatever the read values.
    #[test]
    fn heap_malloc_runs_at_most_once_on_every_path() {
        let cfg = heap_and_misuse();
        let mut rng = StdRng::seed_from_u64(11);
        for seed in 0..300 {
            let p = random_program(seed, &cfg);
            for e in 0..p.num_threads() as u32 {
                for _ in 0..4 {
                    let mut t: ToyThread = p.spawn(1, e, 0);
                    let mut mallocs = 0;
                    loop {
                        match t.peek() {
                            Action::Malloc { .. } => mallocs += 1,
                            Action::Finish { .. } | Action::Block { .. } | Action::Error { .. } => {
                                break
                            }
                            _ => {}
                        }
                        t.resume(rng.random_range(0..=3));
                    }
                    assert!(mallocs <= 1, "seed {seed}:\n{p}");
                }
            }
        }
    }

    #[test]
    fn lock_misuse_switch_generates_each_misuse() {
        let cfg = heap_and_misuse();
        let (mut stray, mut relock, mut destroy, mut init) = (0, 0, 0, 0);
        for seed in 0..1000 {
            let p = random_program(seed, &cfg);
            assert!(p.event_count() <= cfg.max_events, "seed {seed}:\n{p}");
            let m = p.locations().iter().find(|d| d.name == "m").map(|d| d.loc);
            for e in 0..p.num_threads() as u32 {
                let code = &p.thread_code(e).instrs;
                let (mut locks, mut unlocks) = (0, 0);
                for (i, instr) in code.iter().enumerate() {
                    match instr {
                        Instr::MutexInit { loc, .. } => {
                            assert_eq!(Some(*loc), m);
                            assert_eq!(i, 0, "init not first, seed {seed}:\n{p}");
                            init += 1;
                        }
                        Instr::MutexDestroy { loc, .. } => {
                            assert_eq!(Some(*loc), m);
                            destroy += 1;
                        }
                        Instr::Lock { .. } => {
                            locks += 1;
                            relock +=
                                usize::from(matches!(code.get(i + 1), Some(Instr::Lock { .. })));
                        }
                        Instr::Unlock { .. } => unlocks += 1,
                        _ => {}
                    }
                }
                stray += usize::from(unlocks > locks);
            }
        }
        assert!(
            stray > 30 && relock > 30 && destroy > 30 && init > 30,
            "{stray} {relock} {destroy} {init}"
        );
    }

    #[test]
    fn switches_respect_small_budgets_and_are_deterministic() {
        for max_events in 0..=4 {
            let cfg = GenConfig {
                max_events,
                ..heap_and_misuse()
            };
            for seed in 0..300 {
                let p = random_program(seed, &cfg);
                assert!(p.event_count() <= max_events, "seed {seed}:\n{p}");
                let mallocs = all_instrs(&p)
                    .filter(|i| matches!(i, Instr::Malloc { .. }))
                    .count();
                assert_eq!(mallocs, usize::from(max_events > 0), "seed {seed}:\n{p}");
                assert_eq!(p.to_string(), random_program(seed, &cfg).to_string());
            }
        }
    }
}
