//! A script's candidate executions: every rf matching the guessed values, every co;
//! each built as a graph (replayed, or the script's own graph given its sources when
//! po ∪ rf has a cycle) and kept when the model accepts it (module docs of
//! [`crate::values`]).

use super::script::{set_hw, unsupported_event, unsupported_message, Guess, Script, ScriptStep};
use super::{prune, Values};
use crate::key::execution_key;
use crate::reference::classify_maximal;
use crate::state::State;
use crate::step::{self, Access, AfterRead, Step};
use porf_graph::{
    Action, EventId, Graph, LabelKind, Loc, MemOrder, Program, ReadKind, ThreadMachine, WriteKind,
};
use porf_models::atomicity;
use porf_models::orders::permutations;
use std::collections::BTreeMap;

/// A read of a script: its event, its location, whether it has a write part (an
/// exclusive write follows it), and the writes it may read from (`None`: the
/// initialisation).
struct ReadChoice {
    r: EventId,
    loc: Loc,
    rmw: bool,
    sources: Vec<Option<EventId>>,
}

impl<P: Program> Values<'_, '_, P> {
    /// Tries every candidate execution of script `s`.
    pub(crate) fn candidates(&mut self, s: &mut Script<P>) {
        let g = &s.st.g;
        let mut reads = Vec::new();
        for step in &s.steps {
            let Some(guess) = step.guess else { continue };
            let r = EventId::new(step.tid, step.first);
            let loc = g.label(r).loc().unwrap();
            let info = g.loc_info(loc);
            let val = match guess {
                Guess::Val(v) => v,
                Guess::Destroyed => porf_graph::MUTEX_DESTROYED,
                Guess::Uninit => info.init_val,
            };
            let mut sources = Vec::new();
            if info.init_val == val {
                sources.push(None);
            }
            if guess != Guess::Uninit {
                for &w in &info.co {
                    if matches!(g.label(w).kind, LabelKind::Write { val: v, .. } if v == val) {
                        sources.push(Some(w));
                    }
                }
            }
            if sources.is_empty() {
                return;
            }
            let rmw = atomicity::has_write_part(g, r);
            reads.push(ReadChoice {
                r,
                loc,
                rmw,
                sources,
            });
        }
        let mut chosen = Vec::with_capacity(reads.len());
        self.rf_choices(s, &reads, &mut chosen);
    }

    /// Tries every rf extending `chosen` (the sources of `reads`' first reads), except,
    /// with pruning, those in which two reads with write parts share a source
    /// ([`prune::rmw_source_taken`]); false once the exploration must end.
    fn rf_choices(
        &mut self,
        s: &Script<P>,
        reads: &[ReadChoice],
        chosen: &mut Vec<(Loc, Option<EventId>, bool)>,
    ) -> bool {
        let Some(c) = reads.get(chosen.len()) else {
            let rf: Vec<(EventId, Option<EventId>)> = reads
                .iter()
                .zip(chosen.iter())
                .map(|(c, &(_, w, _))| (c.r, w))
                .collect();
            self.candidate(s, &rf);
            return !self.stop();
        };
        for &w in &c.sources {
            if self.prune && c.rmw && prune::rmw_source_taken(chosen, c.loc, w) {
                continue;
            }
            chosen.push((c.loc, w, c.rmw));
            let go_on = self.rf_choices(s, reads, chosen);
            chosen.pop();
            if !go_on {
                return false;
            }
        }
        true
    }

    /// The graph of script `s` with reads-from `rf` (replayed, or patched when po ∪ rf
    /// has a cycle: then `true`); `None` if it is no execution of the script.
    fn graph(
        &mut self,
        s: &Script<P>,
        rf: &[(EventId, Option<EventId>)],
    ) -> Option<(State<P>, bool)> {
        match order(s, rf) {
            Some(order) => self.replay(s, rf, &order).map(|st| (st, false)),
            None if !self.model.allows_load_buffering() => None,
            None => self.patched(s, rf).map(|st| (st, true)),
        }
    }

    /// The candidate of script `s` with reads-from `rf` and, in co mode, the co `co`
    /// (each written location's writes in order), kept when the model accepts it.
    pub(crate) fn candidate_with_co(
        &mut self,
        s: &Script<P>,
        rf: &[(EventId, Option<EventId>)],
        co: &BTreeMap<Loc, Vec<EventId>>,
    ) {
        let Some((mut st, cyclic)) = self.graph(s, rf) else {
            return;
        };
        if self.co.tracked() {
            for (&loc, order) in co {
                debug_assert_eq!(
                    {
                        let mut a = st.g.co(loc).to_vec();
                        a.sort();
                        a
                    },
                    {
                        let mut b = order.clone();
                        b.sort();
                        b
                    },
                    "the given co orders the graph's writes"
                );
                st.g.set_co(loc, order.clone());
            }
        }
        self.rec.tick(&st.g);
        if self.stop() {
            return;
        }
        if (self.prune || atomicity::holds(&st.g)) && self.co.check_whole(&mut st.g) {
            self.accept(&mut st, cyclic);
        }
    }

    /// The candidates of script `s` with reads-from `rf`: every co.
    pub(crate) fn candidate(&mut self, s: &Script<P>, rf: &[(EventId, Option<EventId>)]) {
        let Some((mut st, cyclic)) = self.graph(s, rf) else {
            return;
        };
        if !self.co.tracked() {
            if self.co.check_whole(&mut st.g) {
                self.accept(&mut st, cyclic);
            }
            return;
        }
        let locs = if self.prune {
            let mut locs = Vec::new();
            let written: Vec<Loc> =
                st.g.locations()
                    .filter(|(_, i)| !i.co.is_empty())
                    .map(|(l, _)| *l)
                    .collect();
            for loc in written {
                let orders = prune::co_orders(&mut st.g, loc, self.model.uniproc());
                if orders.is_empty() {
                    return;
                }
                locs.push((loc, orders));
            }
            locs
        } else {
            st.g.locations()
                .filter(|(_, i)| i.co.len() > 1)
                .map(|(l, i)| (*l, permutations(&i.co)))
                .collect()
        };
        let mut pick = vec![0usize; locs.len()];
        loop {
            for ((loc, perms), &i) in locs.iter().zip(&pick) {
                st.g.set_co(*loc, perms[i].clone());
            }
            self.rec.tick(&st.g);
            if self.stop() {
                return;
            }
            // Every model's whole check includes RMW atomicity (MemoryModel::is_consistent):
            // asking it first only spares the model's check; pruned orders satisfy it.
            if (self.prune || atomicity::holds(&st.g)) && self.co.check_whole(&mut st.g) {
                self.accept(&mut st, cyclic);
            }
            if !odometer(&mut pick, |i| locs[i].1.len()) {
                return;
            }
        }
    }

    /// Records a consistent candidate once.
    fn accept(&mut self, st: &mut State<P>, cyclic: bool) {
        if cyclic && dependency_cycle(&st.g) {
            let msg = format!(
                "model {} accepts an execution whose values justify themselves (a cycle of \
                 rf and dependencies): executions with values no write of a run produces \
                 may be consistent too, which the values explorer cannot enumerate",
                self.model.name()
            );
            self.refuse(msg, &st.g);
            return;
        }
        // The scripts keep only the unsupported constructs a thread reports itself
        // (`Values::dfs`): refused once a consistent execution performs one.
        if let Some(e) =
            st.g.events()
                .map(|(e, _)| e)
                .find(|&e| unsupported_event(&st.g, e.tid, e.idx, 1).is_some())
        {
            let msg = format!(
                "{} (a consistent execution makes it)",
                unsupported_message(&st.g, e)
            );
            self.refuse(msg, &st.g);
            return;
        }
        if !self.dedup || self.seen.insert(execution_key(&st.g, self.co.equiv)) {
            classify_maximal(&mut self.rec, self.prog, st, &self.co);
        }
    }

    /// Performs the script's actions again in `order`, each read reading its source
    /// in `rf`, as the reference explorer would; `None` if the threads' runs are not
    /// the script's.
    fn replay(
        &mut self,
        s: &Script<P>,
        rf: &[(EventId, Option<EventId>)],
        order: &[usize],
    ) -> Option<State<P>> {
        let mut st = self.initial();
        for &i in order {
            let ScriptStep { tid: t, first, .. } = s.steps[i];
            if !st.g.thread_exists(t) || st.g.thread_len(t) != first {
                return None;
            }
            let action = st.enabled_action(t)?;
            let hw = st.ts[t as usize].last().unwrap().hw();
            match action {
                Action::Choose { src, .. } => {
                    let LabelKind::Choice { val } = s.st.g.label(EventId::new(t, first)).kind
                    else {
                        return None;
                    };
                    step::add_choice(&mut st, self.model, t, val, src);
                }
                Action::BlockSize { .. } => return None,
                action => {
                    match step::perform(&mut st, self.prog, self.model, &mut self.tids, t, action) {
                        Step::Done(_) => {}
                        Step::Access(a @ Access::Write { .. }) => {
                            step::add_write_last(&mut st, self.model, t, &a);
                        }
                        Step::Access(Access::Read {
                            loc,
                            bytes,
                            ord,
                            kind,
                            src,
                        }) => {
                            let me = EventId::new(t, first);
                            let &(_, w) = rf.iter().find(|(r, _)| *r == me)?;
                            if let Some(w) = w {
                                if !st.g.contains(w) || st.g.label(w).loc() != Some(loc) {
                                    return None;
                                }
                            }
                            let r = st.g.add(
                                t,
                                LabelKind::Read {
                                    loc,
                                    bytes,
                                    ord,
                                    kind,
                                    rf: w,
                                },
                                src,
                            );
                            step::fix_source(self.model, &mut st.g, r, ord);
                            if let AfterRead::WritePart(v) =
                                step::after_read(&mut st, self.model, r)
                            {
                                step::add_write_part(&mut st, self.model, r, v);
                            }
                        }
                    }
                }
            }
            let len = st.g.thread_len(t) - first;
            set_hw(&mut st.g, t, first, len, &hw);
        }
        same_events(&st.g, &s.st.g).then_some(st)
    }

    /// The script's own graph with the sources `rf` (po ∪ rf has a cycle); `None`
    /// after refusing a program whose graph would need hb views.
    fn patched(&mut self, s: &Script<P>, rf: &[(EventId, Option<EventId>)]) -> Option<State<P>> {
        let mut st = s.st.clone();
        for &(r, w) in rf {
            st.g.set_rf(r, w);
        }
        if let Some(e) = needs_hb(&st.g) {
            let msg = format!(
                "a load-buffering execution (a po ∪ rf cycle) of a program with {}: the \
                 values explorer supports such executions only for programs of atomic \
                 accesses, fences, spawns and joins",
                what(&st.g.label(e).kind)
            );
            self.refuse(msg, &st.g);
            return None;
        }
        for &(r, _) in rf {
            st.g.label_mut(r).hb = self.model.hb_view(&st.g, r);
        }
        Some(st)
    }
}

/// An order of the script's actions respecting po, spawn, join and `rf` (each read
/// after its source's action), the script's order among independent actions; `None`
/// if po ∪ rf has a cycle.
fn order<P: Program>(s: &Script<P>, rf: &[(EventId, Option<EventId>)]) -> Option<Vec<usize>> {
    let g = &s.st.g;
    let n = s.steps.len();
    let action_of = |e: EventId| -> Option<usize> {
        if e.idx == 0 {
            // A start event: its parent's spawn action.
            let LabelKind::Start { parent: Some(p) } = g.label(e).kind else {
                return None;
            };
            return s
                .steps
                .iter()
                .position(|x| x.tid == p.tid && x.first <= p.idx && p.idx < x.first + x.len);
        }
        s.steps
            .iter()
            .position(|x| x.tid == e.tid && x.first <= e.idx && e.idx < x.first + x.len)
    };
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut last: Vec<Option<usize>> = Vec::new();
    for (i, x) in s.steps.iter().enumerate() {
        let t = x.tid as usize;
        if last.len() <= t {
            last.resize(t + 1, None);
        }
        match last[t] {
            Some(p) => preds[i].push(p),
            None => preds[i].extend(action_of(EventId::new(x.tid, 0))),
        }
        last[t] = Some(i);
        if let LabelKind::Join { child } = g.label(EventId::new(x.tid, x.first)).kind {
            preds[i].extend(g.last_of(child).and_then(action_of));
        }
    }
    for &(r, w) in rf {
        let Some(w) = w else { continue };
        let (i, j) = (action_of(r)?, action_of(w)?);
        if i != j {
            preds[i].push(j);
        }
    }
    let mut done = vec![false; n];
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let i = (0..n).find(|&i| !done[i] && preds[i].iter().all(|&p| done[p]))?;
        done[i] = true;
        out.push(i);
    }
    Some(out)
}

/// Whether `a` and `b` have the same threads of the same events (reads compared
/// without their sources).
fn same_events(a: &Graph, b: &Graph) -> bool {
    let strip = |k: &LabelKind| match k {
        LabelKind::Read {
            loc,
            bytes,
            ord,
            kind,
            ..
        } => LabelKind::Read {
            loc: *loc,
            bytes: *bytes,
            ord: *ord,
            kind: *kind,
            rf: None,
        },
        k => k.clone(),
    };
    a.num_threads() == b.num_threads()
        && (0..a.num_threads()).all(|t| {
            a.thread_len(t) == b.thread_len(t)
                && (0..a.thread_len(t)).all(|i| {
                    let e = EventId::new(t, i);
                    strip(&a.label(e).kind) == strip(&b.label(e).kind)
                })
        })
}

/// An event whose meaning rests on hb views (a non-atomic access, a heap or mutex
/// operation, a cell copy), if the graph has one.
fn needs_hb(g: &Graph) -> Option<EventId> {
    g.events()
        .find(|(_, l)| match &l.kind {
            LabelKind::Read { ord, kind, .. } => {
                *ord == MemOrder::NonAtomic || !matches!(kind, ReadKind::Plain | ReadKind::Rmw(_))
            }
            LabelKind::Write { ord, kind, .. } => {
                *ord == MemOrder::NonAtomic
                    || !matches!(kind, WriteKind::Plain | WriteKind::Exclusive)
            }
            LabelKind::Malloc { .. } | LabelKind::Free { .. } | LabelKind::BlockSize { .. } => true,
            _ => false,
        })
        .map(|(e, _)| e)
}

fn what(k: &LabelKind) -> &'static str {
    match k {
        LabelKind::Read {
            ord: MemOrder::NonAtomic,
            ..
        }
        | LabelKind::Write {
            ord: MemOrder::NonAtomic,
            ..
        } => "non-atomic accesses",
        LabelKind::Read { .. } | LabelKind::Write { .. } => "mutexes or cell copies",
        _ => "heap blocks",
    }
}

/// Whether `g` has a cycle of rf and dependencies: an event with hardware facts
/// depends on the reads of its address, data and control dependencies and of its
/// control-flow sources ([`porf_graph::hw::Deps::value`]) (and an
/// exclusive write on its read part), an event without them on its po-predecessor,
/// a thread's start on its spawn, a join on the child's last event.
fn dependency_cycle(g: &Graph) -> bool {
    let mut ids: Vec<EventId> = g.events().map(|(e, _)| e).collect();
    ids.sort();
    let index = |e: EventId| ids.binary_search(&e).ok();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); ids.len()];
    let mut edge = |a: EventId, b: EventId| {
        if let (Some(i), Some(j)) = (index(a), index(b)) {
            succ[i].push(j);
        }
    };
    for &e in &ids {
        let l = g.label(e);
        if let Some(w) = l.rf() {
            edge(w, e);
        }
        match &l.kind {
            LabelKind::Start { parent: Some(p) } => edge(*p, e),
            LabelKind::Join { child } => {
                if let Some(f) = g.last_of(*child) {
                    edge(f, e);
                }
            }
            _ => {}
        }
        match &l.hw {
            Some(hw) => {
                let d = &hw.deps;
                for &i in d.addr.iter().chain(&d.data).chain(&d.ctrl).chain(&d.value) {
                    edge(EventId::new(e.tid, i), e);
                }
                if l.is_exclusive_write() {
                    edge(EventId::new(e.tid, e.idx - 1), e);
                }
            }
            None => {
                if let Some(p) = e.prev() {
                    edge(p, e);
                }
            }
        }
    }
    // Iterative three-colour depth-first search.
    let mut colour = vec![0u8; ids.len()];
    for root in 0..ids.len() {
        if colour[root] != 0 {
            continue;
        }
        let mut stack = vec![(root, 0usize)];
        colour[root] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if let Some(&u) = succ[v].get(*k) {
                *k += 1;
                match colour[u] {
                    0 => {
                        colour[u] = 1;
                        stack.push((u, 0));
                    }
                    1 => return true,
                    _ => {}
                }
            } else {
                colour[v] = 2;
                stack.pop();
            }
        }
    }
    false
}

/// Advances the mixed-radix counter `pick` (digit `i` below `radix(i)`); false once
/// it wrapped around.
fn odometer(pick: &mut [usize], radix: impl Fn(usize) -> usize) -> bool {
    for (i, digit) in pick.iter_mut().enumerate() {
        *digit += 1;
        if *digit < radix(i) {
            return true;
        }
        *digit = 0;
    }
    false
}
