//! Test support shared by the model modules.
//!
//! * [`Lit`]: builds a graph by hand (main thread 0 = Start, Spawn 1..=n; children
//!   started), filling in each event's hb view with the model, as the explorer does.
//! * Litmus shapes ([`check_shapes`]): the weak outcome of classic tests, checked with
//!   the declarative check and, on the last event, the incremental one.
//! * [`check_counts`]: for small straight-line programs, the set of consistent
//!   executions found by brute force over all rf/co choices (declarative check only)
//!   must equal the set reached by adding events one by one (pruning with the
//!   declarative check and asserting at every step that the incremental check agrees),
//!   and its size must match the expected count for the model.

use crate::orders::permutations;
use crate::{atomicity, MemoryModel};
use porf_graph::{
    EventId, Graph, LabelKind, Loc, MemOrder, ReadKind, RmwOp, SrcLoc, Tid, WriteKind,
};
use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;
use MemOrder::{Acquire, NonAtomic, Relaxed, Release, SeqCst};

pub(crate) const X: Loc = Loc(1);
pub(crate) const Y: Loc = Loc(2);
pub(crate) const Z: Loc = Loc(3);

/// A hand-built graph; `last` is the most recently added event.
pub(crate) struct Lit<'m> {
    pub g: Graph,
    pub m: &'m dyn MemoryModel,
    pub last: EventId,
}

impl<'m> Lit<'m> {
    /// Main thread 0 spawning `children` threads, all started; locations X, Y, Z = 0.
    pub fn new(m: &'m dyn MemoryModel, children: u32) -> Lit<'m> {
        let mut l = Lit {
            g: Graph::new(),
            m,
            last: EventId::new(0, 0),
        };
        for loc in [X, Y, Z] {
            l.g.ensure_loc(loc, 0, None);
        }
        l.push(0, LabelKind::Start { parent: None });
        let spawns: Vec<_> = (1..=children)
            .map(|c| {
                l.push(
                    0,
                    LabelKind::Spawn {
                        child: c,
                        entry: 0,
                        arg: 0,
                        symm: None,
                    },
                )
            })
            .collect();
        for (c, s) in (1..).zip(spawns) {
            l.push(c, LabelKind::Start { parent: Some(s) });
        }
        l
    }
    /// Adds an event (writes go last in co) and sets its hb view.
    pub fn push(&mut self, t: Tid, kind: LabelKind) -> EventId {
        let is_write = matches!(kind, LabelKind::Write { .. });
        let loc = match kind {
            LabelKind::Write { loc, .. } => Some(loc),
            _ => None,
        };
        let e = self.g.add(t, kind, SrcLoc::UNKNOWN);
        if is_write {
            let pos = self.g.co(loc.unwrap()).len() + 1;
            self.g.co_insert(e, pos);
        }
        self.g.label_mut(e).hb = self.m.hb_view(&self.g, e);
        self.last = e;
        e
    }
    pub fn write(&mut self, t: Tid, loc: Loc, ord: MemOrder) -> EventId {
        let pos = self.g.co(loc).len() + 1;
        self.write_at(t, loc, ord, pos)
    }
    /// A plain write of 1 placed at co position `pos` (1 = first after init).
    pub fn write_at(&mut self, t: Tid, loc: Loc, ord: MemOrder, pos: usize) -> EventId {
        let kind = LabelKind::Write {
            loc,
            bytes: 8,
            ord,
            val: 1,
            kind: WriteKind::Plain,
        };
        let e = self.g.add(t, kind, SrcLoc::UNKNOWN);
        self.g.co_insert(e, pos);
        self.g.label_mut(e).hb = self.m.hb_view(&self.g, e);
        self.last = e;
        e
    }
    pub fn read(&mut self, t: Tid, loc: Loc, ord: MemOrder, rf: Option<EventId>) -> EventId {
        let kind = ReadKind::Plain;
        self.push(
            t,
            LabelKind::Read {
                loc,
                bytes: 8,
                ord,
                kind,
                rf,
            },
        )
    }
    pub fn fence(&mut self, t: Tid, ord: MemOrder) -> EventId {
        self.push(t, LabelKind::Fence { ord })
    }
    /// The declarative verdict, after asserting that the incremental check of the last
    /// event (plus atomicity) agrees with it.
    pub fn check(&self) -> bool {
        let dec = self.m.is_consistent(&self.g);
        let inc = self.m.consistent_with(&self.g, self.last) && atomicity::holds(&self.g);
        assert_eq!(
            inc,
            dec,
            "{}: incremental vs declarative on {:?}",
            self.m.name(),
            self.g
        );
        dec
    }
}

/// Whether the weak outcome of each litmus shape is consistent.
pub(crate) struct Expect {
    pub sb: bool,
    pub sb_sc: bool,
    pub mp: bool,
    pub mp_fences: bool,
    pub sb_fences: bool,
    pub lb: bool,
    pub corr: bool,
    pub two_plus_two_w: bool,
}

/// SB: `x = 1; [F]; r = y || y = 1; [F]; r = x`, both reads reading the initialisation.
fn sb(m: &dyn MemoryModel, w: MemOrder, r: MemOrder, fence: Option<MemOrder>) -> bool {
    let mut l = Lit::new(m, 2);
    l.write(1, X, w);
    if let Some(f) = fence {
        l.fence(1, f);
    }
    l.read(1, Y, r, None);
    assert!(l.check(), "SB prefix must be consistent");
    l.write(2, Y, w);
    if let Some(f) = fence {
        l.fence(2, f);
    }
    l.read(2, X, r, None);
    l.check()
}

/// MP: `d = 1; [F_rel]; f = 1 || f == 1; [F_acq]; d == 0`.
fn mp(m: &dyn MemoryModel, data: MemOrder, wf: MemOrder, rf: MemOrder, fences: bool) -> bool {
    let mut l = Lit::new(m, 2);
    l.write(1, X, data);
    if fences {
        l.fence(1, Release);
    }
    let f = l.write(1, Y, wf);
    l.read(2, Y, rf, Some(f));
    if fences {
        l.fence(2, Acquire);
    }
    l.read(2, X, data, None);
    l.check()
}

/// LB: `r = x; y = 1 || r = y; x = 1`, both reads reading the other thread's write.
/// Built with `set_rf` at the end, so the last read is not porf-maximal: only the
/// declarative check is meaningful (SC and TSO's DFS also sees the cycle).
fn lb(m: &dyn MemoryModel) -> bool {
    let mut l = Lit::new(m, 2);
    let rx = l.read(1, X, Relaxed, None);
    let wy = l.write(1, Y, Relaxed);
    l.read(2, Y, Relaxed, Some(wy));
    let wx = l.write(2, X, Relaxed);
    l.g.set_rf(rx, Some(wx));
    for e in [rx, wy] {
        l.g.label_mut(e).hb = m.hb_view(&l.g, e);
    }
    let dec = m.is_consistent(&l.g);
    if matches!(m.name(), "sc" | "tso") {
        assert!(!m.consistent_with(&l.g, rx));
    }
    dec
}

/// CoRR: `x = 1 || x == 1; x == 0`.
fn corr(m: &dyn MemoryModel) -> bool {
    let mut l = Lit::new(m, 2);
    let w = l.write(1, X, Relaxed);
    l.read(2, X, Relaxed, Some(w));
    l.read(2, X, Relaxed, None);
    l.check()
}

/// 2+2W: `x = 1; y = 2 || y = 1; x = 2` with final x = 1 and y = 1.
fn two_plus_two_w(m: &dyn MemoryModel) -> bool {
    let mut l = Lit::new(m, 2);
    l.write_at(1, X, Relaxed, 1);
    l.write_at(1, Y, Relaxed, 1);
    l.write_at(2, Y, Relaxed, 2);
    assert!(l.check());
    l.write_at(2, X, Relaxed, 1);
    l.check()
}

/// Checks the weak outcome of every litmus shape against `want`.
pub(crate) fn check_shapes(m: &dyn MemoryModel, want: Expect) {
    let name = m.name();
    assert_eq!(sb(m, Relaxed, Relaxed, None), want.sb, "{name}: SB");
    assert_eq!(sb(m, SeqCst, SeqCst, None), want.sb_sc, "{name}: SB sc");
    let sbf = sb(m, Relaxed, Relaxed, Some(SeqCst));
    assert_eq!(sbf, want.sb_fences, "{name}: SB + sc fences");
    assert_eq!(
        mp(m, Relaxed, Relaxed, Relaxed, false),
        want.mp,
        "{name}: MP"
    );
    let mpf = mp(m, Relaxed, Relaxed, Relaxed, true);
    assert_eq!(mpf, want.mp_fences, "{name}: MP + fences");
    assert!(
        !mp(m, NonAtomic, Release, Acquire, false),
        "{name}: MP rel/acq"
    );
    assert_eq!(lb(m), want.lb, "{name}: LB");
    assert_eq!(corr(m), want.corr, "{name}: CoRR");
    assert_eq!(two_plus_two_w(m), want.two_plus_two_w, "{name}: 2+2W");
}

/// An instruction of a straight-line test program.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Op {
    W(Loc, MemOrder),
    R(Loc, MemOrder),
    F(MemOrder),
    /// fetch_add(1): an exclusive read followed by an exclusive write.
    Faa(Loc, MemOrder),
}

/// One event a thread adds.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Step {
    Read(Loc, MemOrder, ReadKind),
    Write(Loc, MemOrder, WriteKind),
    Fence(MemOrder),
    Join(Tid),
    Finish,
}

/// Threads `1..` run `threads`; if `post` is non-empty, main joins them all and runs it.
#[derive(Clone)]
pub(crate) struct Prog {
    threads: Vec<Vec<Op>>,
    post: Vec<Op>,
}

pub(crate) fn prog(threads: &[&[Op]]) -> Prog {
    Prog {
        threads: threads.iter().map(|t| t.to_vec()).collect(),
        post: Vec::new(),
    }
}

/// The test programs of [`check_counts`], by name.
pub(crate) fn program_list() -> Vec<(&'static str, Prog)> {
    programs().into_iter().map(|(n, p, _)| (n, p)).collect()
}

/// Test programs with the expected number of consistent executions under
/// `[sc, tso, ra, rc11]`.
fn programs() -> Vec<(&'static str, Prog, [usize; 4])> {
    use Op::*;
    let iriw = |w, r| {
        prog(&[
            &[W(X, w)],
            &[W(Y, w)],
            &[R(X, r), R(Y, r)],
            &[R(Y, r), R(X, r)],
        ])
    };
    vec![
        (
            "sb",
            prog(&[
                &[W(X, Relaxed), R(Y, Relaxed)],
                &[W(Y, Relaxed), R(X, Relaxed)],
            ]),
            [3, 4, 4, 4],
        ),
        (
            "sb_sc",
            prog(&[&[W(X, SeqCst), R(Y, SeqCst)], &[W(Y, SeqCst), R(X, SeqCst)]]),
            [3, 3, 4, 3],
        ),
        (
            "sb_fences",
            prog(&[
                &[W(X, Relaxed), F(SeqCst), R(Y, Relaxed)],
                &[W(Y, Relaxed), F(SeqCst), R(X, Relaxed)],
            ]),
            [3, 3, 4, 3],
        ),
        (
            "sb_faa",
            prog(&[
                &[W(X, Relaxed), Faa(Z, Relaxed), R(Y, Relaxed)],
                &[W(Y, Relaxed), Faa(Z, Relaxed), R(X, Relaxed)],
            ]),
            [4, 4, 8, 8],
        ),
        (
            "mp",
            prog(&[
                &[W(X, Relaxed), W(Y, Relaxed)],
                &[R(Y, Relaxed), R(X, Relaxed)],
            ]),
            [3, 3, 4, 4],
        ),
        (
            "mp_w",
            prog(&[
                &[W(X, Relaxed), W(Y, Relaxed)],
                &[R(Y, Relaxed), W(Z, Relaxed), R(X, Relaxed)],
            ]),
            [3, 3, 4, 4],
        ),
        (
            "mp_ra",
            prog(&[
                &[W(X, NonAtomic), W(Y, Release)],
                &[R(Y, Acquire), R(X, NonAtomic)],
            ]),
            [3, 3, 3, 3],
        ),
        (
            "mp_fences",
            prog(&[
                &[W(X, Relaxed), F(Release), W(Y, Relaxed)],
                &[R(Y, Relaxed), F(Acquire), R(X, Relaxed)],
            ]),
            [3, 3, 3, 3],
        ),
        (
            "rseq",
            prog(&[
                &[W(X, NonAtomic), W(Y, Release)],
                &[Faa(Y, Relaxed)],
                &[R(Y, Acquire), R(X, NonAtomic)],
            ]),
            [9, 9, 9, 9],
        ),
        (
            "lb",
            prog(&[
                &[R(X, Relaxed), W(Y, Relaxed)],
                &[R(Y, Relaxed), W(X, Relaxed)],
            ]),
            [3, 3, 3, 3],
        ),
        (
            "corr",
            prog(&[&[W(X, Relaxed)], &[R(X, Relaxed), R(X, Relaxed)]]),
            [3, 3, 3, 3],
        ),
        (
            "2+2w",
            prog(&[
                &[W(X, Relaxed), W(Y, Relaxed)],
                &[W(Y, Relaxed), W(X, Relaxed)],
            ]),
            [3, 3, 4, 4],
        ),
        ("iriw", iriw(Relaxed, Relaxed), [15, 15, 16, 16]),
        ("iriw_sc", iriw(SeqCst, SeqCst), [15, 15, 16, 15]),
        ("iriw_acq", iriw(Release, Acquire), [15, 15, 16, 16]),
        (
            "faa2",
            prog(&[&[Faa(X, Relaxed)], &[Faa(X, Relaxed)]]),
            [2, 2, 2, 2],
        ),
        (
            "join",
            Prog {
                threads: vec![vec![W(X, Relaxed)]],
                post: vec![R(X, Relaxed)],
            },
            [1, 1, 1, 1],
        ),
    ]
}

fn op_steps(ops: &[Op]) -> Vec<Step> {
    let mut out = Vec::new();
    for &op in ops {
        match op {
            Op::W(loc, ord) => out.push(Step::Write(loc, ord, WriteKind::Plain)),
            Op::R(loc, ord) => out.push(Step::Read(loc, ord, ReadKind::Plain)),
            Op::F(ord) => out.push(Step::Fence(ord)),
            Op::Faa(loc, ord) => {
                out.push(Step::Read(
                    loc,
                    ord,
                    ReadKind::Rmw(RmwOp::Add(1, porf_graph::Wrap::NONE)),
                ));
                out.push(Step::Write(loc, ord, WriteKind::Exclusive));
            }
        }
    }
    out
}

/// The steps of every thread after its `Start` (main: after its spawns).
pub(crate) fn steps(p: &Prog) -> Vec<Vec<Step>> {
    let mut main = Vec::new();
    if !p.post.is_empty() {
        main.extend((1..=p.threads.len() as Tid).map(Step::Join));
        main.extend(op_steps(&p.post));
    }
    let mut all = vec![main];
    for t in &p.threads {
        let mut s = op_steps(t);
        s.push(Step::Finish);
        all.push(s);
    }
    all
}

fn step_kind(s: Step, rf: Option<EventId>) -> LabelKind {
    match s {
        Step::Read(loc, ord, kind) => LabelKind::Read {
            loc,
            bytes: 8,
            ord,
            kind,
            rf,
        },
        Step::Write(loc, ord, kind) => LabelKind::Write {
            loc,
            bytes: 8,
            ord,
            val: 1,
            kind,
        },
        Step::Fence(ord) => LabelKind::Fence { ord },
        Step::Join(child) => LabelKind::Join { child },
        Step::Finish => LabelKind::Finish { ret: 0 },
    }
}

/// Thread lengths, rf of every read and co of every location.
pub(crate) fn signature(g: &Graph) -> String {
    let mut s = String::new();
    for t in 0..g.num_threads() {
        write!(s, "{}|", g.thread_len(t)).unwrap();
    }
    for (e, lab) in g.events() {
        if lab.is_read() {
            write!(s, "{e}<-{:?};", lab.rf()).unwrap();
        }
    }
    let mut cos: Vec<_> = g.locations().map(|(l, i)| (*l, i.co.clone())).collect();
    cos.sort();
    write!(s, "{cos:?}").unwrap();
    s
}

/// The graph of every step of `p` (children first, then main's steps; reads of the
/// initialisation, writes in insertion order in co), with the event of each step:
/// `ids[t][k]` is the event of `steps(p)[t][k]`.
pub(crate) fn skeleton(m: &dyn MemoryModel, p: &Prog) -> (Graph, Vec<Vec<EventId>>) {
    let steps = steps(p);
    let mut l = Lit::new(m, p.threads.len() as u32);
    let mut ids = vec![Vec::new(); steps.len()];
    for (t, ss) in steps.iter().enumerate().skip(1) {
        for &s in ss {
            ids[t].push(l.push(t as Tid, step_kind(s, None)));
        }
    }
    for &s in &steps[0] {
        ids[0].push(l.push(0, step_kind(s, None)));
    }
    (l.g, ids)
}

/// Consistent executions by brute force: every rf choice and every co permutation.
pub(crate) fn brute_force(m: &dyn MemoryModel, p: &Prog) -> BTreeSet<String> {
    let (mut g, _) = skeleton(m, p);
    let reads: Vec<(EventId, Loc)> = g
        .events()
        .filter(|(_, lab)| lab.is_read())
        .map(|(e, lab)| (e, lab.loc().unwrap()))
        .collect();
    let locs = [X, Y, Z];
    let writes: Vec<Vec<EventId>> = locs.iter().map(|&x| g.co(x).to_vec()).collect();
    let src_choices: Vec<Vec<Option<EventId>>> = reads
        .iter()
        .map(|&(_, x)| {
            let ws = &writes[locs.iter().position(|&y| y == x).unwrap()];
            std::iter::once(None)
                .chain(ws.iter().copied().map(Some))
                .collect()
        })
        .collect();
    let co_choices: Vec<Vec<Vec<EventId>>> = writes.iter().map(|ws| permutations(ws)).collect();
    let mut out = BTreeSet::new();
    let mut choices: Vec<Vec<usize>> = vec![Vec::new()];
    for n in src_choices
        .iter()
        .map(Vec::len)
        .chain(co_choices.iter().map(Vec::len))
    {
        choices = choices
            .into_iter()
            .flat_map(|c| {
                (0..n).map(move |i| {
                    let mut c = c.clone();
                    c.push(i);
                    c
                })
            })
            .collect();
    }
    for c in choices {
        for (k, &(r, _)) in reads.iter().enumerate() {
            g.set_rf(r, src_choices[k][c[k]]);
        }
        for (k, perm) in co_choices.iter().enumerate() {
            let perm = &perm[c[reads.len() + k]];
            for &w in perm {
                g.co_remove(w);
            }
            for (i, &w) in perm.iter().enumerate() {
                g.co_insert(w, i + 1);
            }
        }
        if m.is_consistent(&g) {
            out.insert(signature(&g));
        }
    }
    out
}

/// Consistent executions reached by adding events one at a time in every order,
/// reads reading any existing write and writes going anywhere in co; asserts at each
/// step that the incremental check agrees with the declarative one.
fn incremental(m: &dyn MemoryModel, p: &Prog) -> BTreeSet<String> {
    struct Ctx<'a> {
        m: &'a dyn MemoryModel,
        steps: Vec<Vec<Step>>,
        seen: HashSet<String>,
        out: BTreeSet<String>,
    }
    fn agree(m: &dyn MemoryModel, g: &Graph, e: EventId) -> bool {
        let dec = m.is_consistent(g);
        let inc = m.consistent_with(g, e) && atomicity::holds(g);
        assert_eq!(
            inc,
            dec,
            "{}: incremental vs declarative at {e} on {g:?}",
            m.name()
        );
        dec
    }
    fn go(cx: &mut Ctx, g: &mut Graph, pcs: &mut Vec<usize>) {
        if !cx.seen.insert(signature(g)) {
            return;
        }
        let mut done = true;
        for t in 0..pcs.len() {
            let Some(&s) = cx.steps[t].get(pcs[t]) else {
                continue;
            };
            if let Step::Join(c) = s {
                if pcs[c as usize] < cx.steps[c as usize].len() {
                    continue;
                }
            }
            done = false;
            let tid = t as Tid;
            // Reads: 0 = the initialisation, i = co[i - 1]. Writes: the co position.
            let options = match s {
                Step::Read(loc, ..) => 0..g.co(loc).len() + 1,
                Step::Write(loc, ..) => 1..g.co(loc).len() + 2,
                _ => 0..1,
            };
            for o in options {
                let e = match s {
                    Step::Read(loc, ..) => {
                        let rf = o.checked_sub(1).map(|i| g.co(loc)[i]);
                        g.add(tid, step_kind(s, rf), SrcLoc::UNKNOWN)
                    }
                    Step::Write(..) => {
                        let e = g.add(tid, step_kind(s, None), SrcLoc::UNKNOWN);
                        g.co_insert(e, o);
                        e
                    }
                    _ => g.add(tid, step_kind(s, None), SrcLoc::UNKNOWN),
                };
                g.label_mut(e).hb = cx.m.hb_view(g, e);
                if agree(cx.m, g, e) {
                    pcs[t] += 1;
                    go(cx, g, pcs);
                    pcs[t] -= 1;
                }
                g.pop_last();
            }
        }
        if done {
            cx.out.insert(signature(g));
        }
    }
    let l = Lit::new(m, p.threads.len() as u32);
    let mut g = l.g;
    let mut cx = Ctx {
        m,
        steps: steps(p),
        seen: HashSet::new(),
        out: BTreeSet::new(),
    };
    let mut pcs = vec![0; cx.steps.len()];
    go(&mut cx, &mut g, &mut pcs);
    cx.out
}

/// Brute force and incremental exploration agree on every test program, and find the
/// expected number of consistent executions. `rc11-genmc` expects `rc11`'s numbers:
/// none of these programs has a release sequence continued by a plain store or a
/// seq_cst event that GenMC 0.11's psc orders differently.
pub(crate) fn check_counts(m: &dyn MemoryModel) {
    let name = if m.name() == "rc11-genmc" {
        "rc11"
    } else {
        m.name()
    };
    let col = ["sc", "tso", "ra", "rc11"]
        .iter()
        .position(|&n| n == name)
        .unwrap();
    let progs: Vec<_> = programs()
        .into_iter()
        .map(|(name, p, want)| (name, p, want[col]))
        .collect();
    check_programs(m, &progs);
}

/// Brute force and incremental exploration agree on every test program (for models
/// with no expected counts here: the sets must be equal, whatever their size).
pub(crate) fn check_agreement(m: &dyn MemoryModel) {
    for (name, p) in program_list() {
        let bf = brute_force(m, &p);
        assert_eq!(
            bf,
            incremental(m, &p),
            "{}: {name}: brute force vs incremental",
            m.name()
        );
    }
}

/// Brute force and incremental exploration agree on each program, and find its
/// expected number of consistent executions.
pub(crate) fn check_programs(m: &dyn MemoryModel, progs: &[(&str, Prog, usize)]) {
    for (name, p, want) in progs {
        let bf = brute_force(m, p);
        let inc = incremental(m, p);
        assert_eq!(bf, inc, "{}: {name}: brute force vs incremental", m.name());
        assert_eq!(
            bf.len(),
            *want,
            "{}: {name}: number of executions",
            m.name()
        );
    }
}
