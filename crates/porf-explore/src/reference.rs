//! The brute-force reference explorer: from every reachable partial execution, every
//! thread that can step is stepped, with every rf choice for a read and every co
//! position for a write; graphs the model's *declarative* check rejects are dropped
//! (the models are prefix-closed, so no consistent execution is lost), and graphs are
//! deduplicated by their events, rf and co (insertion order does not matter). Each
//! maximal consistent graph is classified once. Exponential, and meant to be: it is
//! the ground truth the optimal explorer is tested against on small programs.

use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::step::{self, Access, AfterRead, Step};
use crate::{Config, Stats};
use porf_graph::{Action, Graph, LabelKind, Loc, Program, ReadKind, Tid, WriteKind};
use porf_models::{race, MemoryModel};
use std::collections::hash_map::{Entry, HashMap};

pub fn explore<P: Program>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let mut ex = Reference {
        prog,
        model,
        rec: Recorder::new(cfg),
        tids: TidRegistry::default(),
        seen: HashMap::new(),
    };
    let mut st = State::new(prog, model);
    ex.dfs(&mut st, Vec::new());
    ex.rec.finish()
}

/// What a thread's next action touches, for deciding whether two steps commute.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Footprint {
    /// No shared state (fences, spawns, blocks, errors): commutes with every other
    /// thread's step.
    Local,
    /// A read (`write == false`) or a write / RMW / lock operation of `loc`.
    Access { loc: Loc, write: bool },
    /// Waits for thread `child` to finish.
    Join(Tid),
    /// Ends the thread (enables joins of it).
    Finish,
}

fn footprint(a: &Action) -> Footprint {
    match *a {
        Action::Load { loc, .. } => Footprint::Access { loc, write: false },
        Action::Store { loc, .. }
        | Action::Rmw { loc, .. }
        | Action::Lock { loc, .. }
        | Action::TryLock { loc, .. }
        | Action::Unlock { loc, .. } => Footprint::Access { loc, write: true },
        Action::Join { tid, .. } => Footprint::Join(tid),
        Action::Finish { .. } => Footprint::Finish,
        Action::Fence { .. } | Action::Spawn { .. } | Action::Block { .. } | Action::Error { .. } => {
            Footprint::Local
        }
    }
}

/// Whether thread `t` doing `a` and thread `u` doing `b` (t != u) commute: either
/// order yields the same set of graphs. Reads can only read from writes already
/// present, so a read and a write of the same location do not commute; a finish does
/// not commute with a join of that thread. Everything else does: co positions are
/// enumerated in full whatever the order in which writes are added, and the models
/// are closed under removing a thread's last event.
fn independent(t: Tid, a: Footprint, u: Tid, b: Footprint) -> bool {
    match (a, b) {
        (Footprint::Access { loc: l1, write: w1 }, Footprint::Access { loc: l2, write: w2 }) => {
            l1 != l2 || !(w1 || w2)
        }
        (Footprint::Join(c), Footprint::Finish) => c != u,
        (Footprint::Finish, Footprint::Join(c)) => c != t,
        _ => true,
    }
}

/// A sleeping thread: explored from an ancestor state already, and its next action
/// commutes with every step taken since (sleep sets, Godefroid 1996).
type Sleep = Vec<(Tid, Footprint)>;

struct Reference<'a, 'c, P: Program> {
    prog: &'a P,
    model: &'a dyn MemoryModel,
    rec: Recorder<'c>,
    tids: TidRegistry,
    /// Every partial graph visited, with the sleep set it was explored under.
    seen: HashMap<Vec<i64>, Vec<Tid>>,
}

impl<P: Program> Reference<'_, '_, P> {
    /// Explores every extension of `st`, except steps of threads in `sleep`. With
    /// state caching: a graph seen before is explored again only for the threads that
    /// slept then but are awake now (so no extension is lost).
    fn dfs(&mut self, st: &mut State<P>, mut sleep: Sleep) {
        if self.rec.stop {
            return;
        }
        let enabled: Vec<Tid> = (0..st.g.num_threads())
            .filter(|&t| st.enabled_action(t).is_some())
            .collect();
        let asleep = |sleep: &Sleep, t: Tid| sleep.iter().any(|(s, _)| *s == t);
        let todo: Vec<Tid> = match self.seen.entry(graph_key(&st.g)) {
            Entry::Occupied(mut o) => {
                let stored = o.get_mut();
                let todo: Vec<Tid> = stored.iter().copied().filter(|&t| !asleep(&sleep, t)).collect();
                stored.retain(|&t| asleep(&sleep, t));
                todo
            }
            Entry::Vacant(v) => {
                v.insert(sleep.iter().map(|(t, _)| *t).collect());
                self.rec.tick(&st.g);
                if enabled.is_empty() {
                    self.at_maximal(st);
                    return;
                }
                enabled.iter().copied().filter(|&t| !asleep(&sleep, t)).collect()
            }
        };
        for t in todo {
            let action = st.enabled_action(t).unwrap();
            let fp = footprint(&action);
            let child_sleep: Sleep = sleep
                .iter()
                .copied()
                .filter(|&(u, b)| independent(t, fp, u, b))
                .collect();
            let stamp = st.g.len();

            match step::perform(st, self.prog, self.model, &mut self.tids, t, action) {
                Step::Done(_) => self.check_and_go(st, &child_sleep),
                Step::Access(Access::Read {
                    loc,
                    ord,
                    kind,
                    src,
                }) => {
                    let n = st.g.co(loc).len();
                    for pos in 0..=n {
                        let w = (pos > 0).then(|| st.g.co(loc)[pos - 1]);
                        let r = st.g.add(
                            t,
                            LabelKind::Read {
                                loc,
                                ord,
                                kind,
                                rf: w,
                            },
                            src,
                        );
                        let val = st.g.read_val(r);
                        if let LabelKind::Read { ord: o, .. } = &mut st.g.label_mut(r).kind {
                            *o = step::read_order(kind, ord, val);
                        }
                        st.g.label_mut(r).hb = self.model.hb_view(&st.g, r);
                        if let AfterRead::WritePart(v) = step::after_read(st, self.model, r) {
                            step::add_write_part(st, self.model, r, v);
                        }
                        self.check_and_go(st, &child_sleep);
                        st.truncate(stamp);
                    }
                }
                Step::Access(Access::Write {
                    loc,
                    val,
                    ord,
                    kind,
                    src,
                }) => {
                    let n = st.g.co(loc).len();
                    for pos in 1..=n + 1 {
                        let w = step::add_event(
                            st,
                            self.model,
                            t,
                            LabelKind::Write {
                                loc,
                                ord,
                                val,
                                kind,
                            },
                            src,
                        );
                        st.g.co_insert(w, pos);
                        st.push_resumed(t, 0);
                        self.check_and_go(st, &child_sleep);
                        st.truncate(stamp);
                    }
                }
            }
            st.truncate(stamp);
            sleep.push((t, fp));
        }
    }

    fn check_and_go(&mut self, st: &mut State<P>, sleep: &Sleep) {
        if self.model.is_consistent(&st.g) {
            self.dfs(st, sleep.clone());
        }
    }

    fn at_maximal(&mut self, st: &mut State<P>) {
        let errors: Vec<_> =
            st.g.events()
                .filter(|(_, l)| matches!(l.kind, LabelKind::Error { .. }))
                .map(|(e, _)| e)
                .collect();
        for e in errors {
            self.rec.error_event(&st.g, e);
        }
        for (a, b) in race::all_races(&st.g) {
            self.rec.race(&st.g, a, b);
        }
        self.rec.maximal(st);
    }
}

/// A key identifying a graph up to insertion order: every thread's events with their
/// rf sources, and co per location.
pub fn graph_key(g: &Graph) -> Vec<i64> {
    let mut k = Vec::with_capacity(g.len() * 4);
    for t in 0..g.num_threads() {
        k.push(-1 - t as i64);
        for lab in g.thread(t) {
            match &lab.kind {
                LabelKind::Start { parent } => {
                    k.push(1);
                    k.push(parent.map_or(-1, |p| ((p.tid as i64) << 32) | p.idx as i64));
                }
                LabelKind::Read {
                    loc, ord, kind, rf, ..
                } => {
                    k.extend([2, loc.0 as i64, *ord as i64, read_kind_code(*kind)]);
                    k.push(rf.map_or(-1, |w| ((w.tid as i64) << 32) | w.idx as i64));
                }
                LabelKind::Write {
                    loc,
                    ord,
                    val,
                    kind,
                } => k.extend([3, loc.0 as i64, *ord as i64, *val, write_kind_code(*kind)]),
                LabelKind::Fence { ord } => k.extend([4, *ord as i64]),
                LabelKind::Spawn { child } => k.extend([5, *child as i64]),
                LabelKind::Join { child } => k.extend([6, *child as i64]),
                LabelKind::Finish { ret } => k.extend([7, *ret]),
                LabelKind::Block => k.push(8),
                LabelKind::Error { .. } => k.push(9),
            }
        }
    }
    let mut locs: Vec<_> = g.locations().map(|(l, i)| (l.0, &i.co)).collect();
    locs.sort_by_key(|(l, _)| *l);
    for (l, co) in locs {
        k.push(i64::MIN);
        k.push(l as i64);
        k.extend(co.iter().map(|w| ((w.tid as i64) << 32) | w.idx as i64));
    }
    k
}

fn read_kind_code(k: ReadKind) -> i64 {
    match k {
        ReadKind::Plain => 0,
        ReadKind::Rmw(_) => 1,
        ReadKind::Lock => 2,
        ReadKind::TryLock => 3,
    }
}

fn write_kind_code(k: WriteKind) -> i64 {
    match k {
        WriteKind::Plain => 0,
        WriteKind::Exclusive => 1,
        WriteKind::Unlock => 2,
    }
}
