//! The values explorer (`porf_explore::values`) under cat models that allow load
//! buffering, on the LB shapes, with the outcomes derived by hand below.
//!
//! The programs are litmus-like straight-line threads of a tiny machine written here
//! that reports its dependencies as porf's hardware facts (`ThreadMachine::hw`): a
//! store of a register has a data dependency on the read that loaded it. Two models:
//! `COHERENCE` (a cat file of our own: SC per location and RMW atomicity, nothing
//! else, so it allows load buffering), and `NoThinAir`, the same with "rf ∪ the
//! dependencies are acyclic" added in Rust (porf-cat's `addr`/`data`/`ctrl` are
//! empty until porf's events carry them to the cat builder).

use porf_cat::load::load_str;
use porf_cat::CatModel;
use porf_explore::{explore, Config, ErrorClass, Stats, Strategy};
use porf_graph::hw::{Deps, Hw};
use porf_graph::{
    Action, EventId, Graph, Loc, MemOrder, Program, SrcLoc, Symmetry, ThreadMachine, Tid, Val,
};
use porf_models::MemoryModel;
use std::collections::BTreeSet;
use std::path::Path;

/// SC per location and atomicity: load buffering is allowed.
const COHERENCE: &str = r#""coherence only"
acyclic po-loc | rf | co | fr as uniproc
empty rmw & (fr ; co) as atomicity
"#;

fn coherence() -> CatModel {
    let m = load_str(Path::new("coherence.cat"), COHERENCE, &[]).unwrap();
    CatModel::new(m, "cat:coherence").unwrap()
}

#[derive(Clone, Debug)]
enum Ins {
    /// `reg = [loc]`
    Load(usize, u64),
    /// `[loc] = val`
    Store(u64, Val),
    /// `[loc] = reg` (a data dependency on the read that loaded `reg`)
    StoreReg(u64, usize),
}

#[derive(Clone)]
struct Litmus(Vec<Vec<Ins>>);

#[derive(Clone)]
struct Machine {
    /// `None`: the main thread, which spawns every thread and joins them.
    code: Option<Vec<Ins>>,
    threads: usize,
    pc: usize,
    /// Register values and the read ordinal that loaded each.
    regs: Vec<(Val, Option<u32>)>,
    reads: u32,
}

const NREGS: usize = 2;

impl Program for Litmus {
    type Thread = Machine;
    fn main_thread(&self) -> Machine {
        Machine {
            code: None,
            threads: self.0.len(),
            pc: 0,
            regs: vec![(0, None); NREGS],
            reads: 0,
        }
    }
    fn spawn(&self, _tid: Tid, entry: u32, _arg: Val) -> Machine {
        Machine {
            code: Some(self.0[entry as usize].clone()),
            threads: 0,
            pc: 0,
            regs: vec![(0, None); NREGS],
            reads: 0,
        }
    }
}

impl ThreadMachine for Machine {
    fn peek(&mut self) -> Action {
        let src = SrcLoc::UNKNOWN;
        let Some(code) = &self.code else {
            let n = self.threads;
            return if self.pc < n {
                Action::Spawn {
                    entry: self.pc as u32,
                    arg: 0,
                    symmetric: Symmetry::Asymmetric,
                    src,
                }
            } else if self.pc < 2 * n {
                Action::Join {
                    tid: (self.pc - n + 1) as Tid,
                    src,
                }
            } else {
                Action::Finish { ret: 0 }
            };
        };
        let store = |loc, val| Action::Store {
            loc: Loc(loc),
            bytes: 4,
            val,
            ord: MemOrder::Relaxed,
            src,
        };
        match code.get(self.pc) {
            None => Action::Finish { ret: 0 },
            Some(Ins::Load(_, loc)) => Action::Load {
                loc: Loc(*loc),
                bytes: 4,
                ord: MemOrder::Relaxed,
                copy: false,
                src,
            },
            Some(Ins::Store(loc, v)) => store(*loc, *v),
            Some(Ins::StoreReg(loc, r)) => store(*loc, self.regs[*r].0),
        }
    }
    fn resume(&mut self, ret: Val) {
        if let Some(Some(Ins::Load(r, _))) = self.code.as_ref().map(|c| c.get(self.pc)) {
            self.regs[*r] = (ret, Some(self.reads));
            self.reads += 1;
        }
        self.pc += 1;
    }
    fn registers(&self) -> Vec<Val> {
        self.regs.iter().map(|r| r.0).collect()
    }
    fn hw(&self) -> Option<Hw> {
        let data = match self.code.as_ref().and_then(|c| c.get(self.pc)) {
            Some(Ins::StoreReg(_, r)) => self.regs[*r].1.into_iter().collect(),
            _ => Vec::new(),
        };
        Some(Hw {
            deps: Deps {
                data,
                ..Deps::default()
            },
            ..Hw::default()
        })
    }
}

/// [`coherence`] with rf ∪ data dependencies acyclic (no value out of thin air).
struct NoThinAir(CatModel);

impl MemoryModel for NoThinAir {
    fn name(&self) -> &'static str {
        "coherence+no-thin-air"
    }
    fn hb_view(&self, g: &Graph, e: EventId) -> porf_graph::View {
        self.0.hb_view(g, e)
    }
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        self.0.consistent_with(g, e) && !dependency_cycle(g)
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        self.0.is_consistent(g) && !dependency_cycle(g)
    }
    fn allows_load_buffering(&self) -> bool {
        true
    }
}

/// Whether rf and the data dependencies have a cycle (events of the test's threads
/// only have these edges).
fn dependency_cycle(g: &Graph) -> bool {
    let edges: Vec<(EventId, EventId)> = g
        .events()
        .flat_map(|(e, l)| {
            let mut v: Vec<(EventId, EventId)> = l.rf().map(|w| (w, e)).into_iter().collect();
            if let Some(hw) = &l.hw {
                v.extend(hw.deps.data.iter().map(|&i| (EventId::new(e.tid, i), e)));
            }
            v
        })
        .collect();
    // Remove sources until none is left; a cycle stays.
    let mut live: BTreeSet<EventId> = g.events().map(|(e, _)| e).collect();
    loop {
        let src = live
            .iter()
            .copied()
            .find(|&e| !edges.iter().any(|&(a, b)| b == e && live.contains(&a)));
        match src {
            Some(e) => {
                live.remove(&e);
            }
            None => return !live.is_empty(),
        }
    }
}

fn run(p: &Litmus, model: &dyn MemoryModel) -> Stats {
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    explore(Strategy::Values, p, model, &cfg)
}

/// The registers `r0` of threads 1 and 2 in each complete execution's final state.
fn outcomes(s: &Stats) -> BTreeSet<(Val, Val)> {
    s.final_states
        .iter()
        .map(|f| {
            let r = |t: u32| f.registers.iter().find(|(u, _)| *u == t).unwrap().1[0];
            (r(1), r(2))
        })
        .collect()
}

const X: u64 = 8;
const Y: u64 = 16;

/// LB: `r0 = x; y = 1 || r0 = y; x = 1`.
fn lb() -> Litmus {
    Litmus(vec![
        vec![Ins::Load(0, X), Ins::Store(Y, 1)],
        vec![Ins::Load(0, Y), Ins::Store(X, 1)],
    ])
}

/// LB+datas: `r0 = x; y = r0 || r0 = y; x = r0`.
fn lb_datas() -> Litmus {
    Litmus(vec![
        vec![Ins::Load(0, X), Ins::StoreReg(Y, 0)],
        vec![Ins::Load(0, Y), Ins::StoreReg(X, 0)],
    ])
}

#[test]
fn the_models_allow_load_buffering() {
    assert!(coherence().allows_load_buffering());
    let m = coherence();
    assert!(porf_explore::supported(Strategy::Optimal, &m, Default::default()).is_err());
    assert!(porf_explore::supported(Strategy::Reference, &m, Default::default()).is_err());
    assert!(porf_explore::supported(Strategy::Values, &m, Default::default()).is_ok());
    assert_eq!(porf_explore::default_strategy(&m), Strategy::Values);
}

/// LB under coherence only: each read reads the initial 0 or the other thread's
/// store of 1, and each location has one write, so co is fixed and coherence holds
/// in all four rf choices (no po-loc edge exists): four executions, four outcomes,
/// (1, 1) among them (each read reads the write po-after the other read).
#[test]
fn lb_allowed_under_coherence() {
    let s = run(&lb(), &coherence());
    assert!(s.errors.is_empty(), "{:?}", s.error_keys());
    assert_eq!(s.complete, 4);
    let all: BTreeSet<(Val, Val)> = [(0, 0), (0, 1), (1, 0), (1, 1)].into();
    assert_eq!(outcomes(&s), all);
    // The same four under the no-thin-air model: LB has no dependency.
    let s = run(&lb(), &NoThinAir(coherence()));
    assert_eq!(s.complete, 4);
    assert_eq!(outcomes(&s), all);
}

/// LB under a model that forbids load buffering (porf's RC11, and rc11.cat): the
/// (1, 1) execution needs a po ∪ rf cycle, so three executions remain.
#[test]
fn lb_forbidden_under_rc11() {
    let three: BTreeSet<(Val, Val)> = [(0, 0), (0, 1), (1, 0)].into();
    let rc11 = porf_models::by_name("rc11").unwrap();
    let s = run(&lb(), rc11.as_ref());
    assert_eq!((s.complete, outcomes(&s)), (3, three.clone()));
    let cat = porf_cat::model_from_file(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("cat/rc11.cat"),
        &[],
    )
    .unwrap();
    assert!(!cat.allows_load_buffering());
    let s = run(&lb(), &cat);
    assert_eq!((s.complete, outcomes(&s)), (3, three));
}

/// LB+datas without thin-air values: the stores write what the loads read, so the
/// only values are the initial 0s; each read reads the initial 0 or the other
/// thread's store (of 0), but both reading the stores is an rf ∪ data cycle: three
/// executions, all with outcome (0, 0).
#[test]
fn lb_datas_without_thin_air() {
    let s = run(&lb_datas(), &NoThinAir(coherence()));
    assert!(s.errors.is_empty(), "{:?}", s.error_keys());
    assert_eq!(s.complete, 3);
    assert_eq!(outcomes(&s), [(0, 0)].into());
}

/// LB+datas under coherence only: the execution in which each read reads the other
/// thread's store is consistent, and its values justify themselves (any value would
/// do): the explorer cannot enumerate those, and says so.
#[test]
fn lb_datas_thin_air_is_unsupported() {
    let s = run(&lb_datas(), &coherence());
    assert!(
        s.errors.iter().any(|e| e.class == ErrorClass::Unsupported
            && e.message.contains("justify themselves")),
        "{:?}",
        s.error_keys()
    );
}

/// Coherence is kept: `x = 1; r0 = x || x = 2; r0 = x`. A thread reads its own write
/// or a co-later one (reading a co-earlier write closes po-loc ; fr). co 1 → 2: thread
/// 1 reads 1 or 2, thread 2 reads 2; co 2 → 1: thread 1 reads 1, thread 2 reads 2 or
/// 1. Four executions; outcomes (1, 2), (2, 2), (1, 1), never (2, 1).
#[test]
fn coherence_still_holds() {
    let p = Litmus(vec![
        vec![Ins::Store(X, 1), Ins::Load(0, X)],
        vec![Ins::Store(X, 2), Ins::Load(0, X)],
    ]);
    let s = run(&p, &coherence());
    assert_eq!(s.complete, 4);
    assert_eq!(outcomes(&s), [(1, 1), (1, 2), (2, 2)].into());
}
