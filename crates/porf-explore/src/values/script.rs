//! Scripts: the program run with every combination of guessed read values (module
//! docs of [`crate::values`]).
//!
//! Invariant: a script's graph holds the events the threads perform given the
//! guesses, each read with no source (`rf` = `None`, whatever its guess) and each
//! write last in co; [`Script::steps`] lists the actions in the order they were
//! performed, with the answer each read was given.

use super::{Domain, Values};
use crate::state::State;
use crate::step::{self, Access, Step};
use porf_graph::{
    Action, BlockReason, ErrorKind, EventId, Graph, LabelKind, Program, ReadKind, ThreadMachine,
    Tid, Val,
};

/// What a read was answered in a script.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub(crate) enum Guess {
    /// The read returned this value.
    Val(Val),
    /// A lock acquire read a destroyed mutex (an error event follows).
    Destroyed,
    /// A cell copy read an uninitialised heap cell.
    Uninit,
}

/// One action of a script.
#[derive(Copy, Clone, Debug)]
pub(crate) struct ScriptStep {
    pub tid: Tid,
    /// The index of the action's first event in its thread.
    pub first: u32,
    /// How many events of its thread the action added.
    pub len: u32,
    /// A read's answer; `None` for other actions (a choice's value is its event's).
    pub guess: Option<Guess>,
}

pub(crate) struct Script<P: Program> {
    pub st: State<P>,
    pub steps: Vec<ScriptStep>,
}

impl<P: Program> Values<'_, '_, P> {
    /// Runs `leaf` on every script under `domain` (until it returns false); false if
    /// the exploration must end.
    pub(crate) fn scripts(
        &mut self,
        domain: &Domain,
        leaf: &mut dyn FnMut(&mut Self, &mut Script<P>) -> bool,
    ) -> bool {
        let mut s = Script {
            st: self.initial(),
            steps: Vec::new(),
        };
        self.dfs(domain, &mut s, leaf)
    }

    fn dfs(
        &mut self,
        domain: &Domain,
        s: &mut Script<P>,
        leaf: &mut dyn FnMut(&mut Self, &mut Script<P>) -> bool,
    ) -> bool {
        if self.stop() {
            return false;
        }
        self.rec.tick(&s.st.g);
        let Some((t, action)) = s.st.next_action() else {
            return leaf(self, s);
        };
        let stamp = s.st.g.len();
        let first = s.st.g.thread_len(t);
        let hw = s.st.ts[t as usize].last().unwrap().hw();
        // An unsupported construct the thread itself reports is decided by its own run
        // (the values it read), not by the order events are added in: it is kept in
        // the script and refused only if a consistent candidate holds it
        // (`Values::accept`). Those [`step::perform`] raises against the graph
        // (mixed-size accesses) are refused here.
        let own_error = matches!(
            action,
            Action::Error {
                kind: ErrorKind::Unsupported,
                ..
            }
        );
        let mut go = |ex: &mut Self, s: &mut Script<P>, guess: Option<Guess>| -> bool {
            let len = s.st.g.thread_len(t) - first;
            set_hw(&mut s.st.g, t, first, len, &hw);
            if let Some(e) = unsupported_event(&s.st.g, t, first, len).filter(|_| !own_error) {
                let msg = format!(
                    "{} (the values explorer cannot enumerate executions of such a program)",
                    unsupported_message(&s.st.g, e)
                );
                ex.refuse(msg, &s.st.g);
                return false;
            }
            s.steps.push(ScriptStep {
                tid: t,
                first,
                len,
                guess,
            });
            let go_on = ex.dfs(domain, s, leaf);
            s.steps.pop();
            s.st.truncate(stamp);
            go_on
        };
        if let Action::Choose { lo, hi, src, .. } = action {
            for val in lo..=hi {
                step::add_choice(&mut s.st, self.model, t, val, src);
                if !go(self, s, None) {
                    return false;
                }
            }
            return true;
        }
        if let Action::BlockSize { .. } = action {
            let msg = "a block-size query (its answer depends on the order events are added \
                       in): the values explorer does not support it"
                .to_string();
            self.refuse(msg, &s.st.g);
            return false;
        }
        match step::perform(&mut s.st, self.prog, self.model, &mut self.tids, t, action) {
            Step::Done(_) => go(self, s, None),
            Step::Access(a @ Access::Write { .. }) => {
                step::add_write_last(&mut s.st, self.model, t, &a);
                go(self, s, None)
            }
            Step::Access(Access::Read {
                loc,
                bytes,
                ord,
                kind,
                src,
            }) => {
                let init = s.st.g.loc_info(loc).init_val;
                let mut guesses: Vec<Guess> = domain
                    .values(loc, init)
                    .into_iter()
                    .map(Guess::Val)
                    .collect();
                if matches!(kind, ReadKind::Lock | ReadKind::TryLock) {
                    guesses.push(Guess::Destroyed);
                }
                if kind == ReadKind::Copy {
                    guesses.push(Guess::Uninit);
                }
                for guess in guesses {
                    let val = match guess {
                        Guess::Val(v) => v,
                        Guess::Destroyed => porf_graph::MUTEX_DESTROYED,
                        Guess::Uninit => init,
                    };
                    let r = step::add_event(
                        &mut s.st,
                        self.model,
                        t,
                        LabelKind::Read {
                            loc,
                            bytes,
                            ord: step::read_order(kind, ord, val),
                            kind,
                            rf: None,
                        },
                        src,
                    );
                    answer(&mut s.st, self.model, r, kind, guess);
                    if !go(self, s, Some(guess)) {
                        return false;
                    }
                }
                true
            }
        }
    }
}

/// Pushes the state of read `r`'s thread after `r` answered `guess`, and adds what
/// follows it, as [`step::after_read`] does for a read of a write of that value.
pub(crate) fn answer<P: Program>(
    st: &mut State<P>,
    model: &dyn porf_models::MemoryModel,
    r: EventId,
    kind: ReadKind,
    guess: Guess,
) {
    let src = st.g.label(r).src;
    match guess {
        Guess::Destroyed => {
            st.push_same(r.tid);
            let err = LabelKind::Error {
                kind: ErrorKind::Memory,
                msg: "lock of a destroyed mutex (it reads uninitialised memory)".into(),
            };
            step::add_event(st, model, r.tid, err, src);
            st.push_same(r.tid);
        }
        Guess::Uninit => st.push_resumed_uninit(r.tid),
        Guess::Val(v) if kind == ReadKind::Lock && v != 0 => {
            st.push_same(r.tid);
            let block = LabelKind::Block {
                reason: BlockReason::Lock,
            };
            step::add_event(st, model, r.tid, block, src);
            st.push_same(r.tid);
        }
        Guess::Val(v) => {
            st.push_resumed(r.tid, v);
            if let Some(w) = kind.write_part(v) {
                step::add_write_part(st, model, r, w);
            }
        }
    }
}

/// Gives the `len` events of thread `t` from `first` (one action's) the action's
/// hardware facts ([`translate_hw`]). A choice event gets none: a choice's facts say
/// what its existence depends on, which is the explorer's business, not the model's.
pub(crate) fn set_hw(g: &mut Graph, t: Tid, first: u32, len: u32, hw: &Option<porf_graph::hw::Hw>) {
    let Some(hw) = hw else { return };
    let h = translate_hw(g, t, first, hw);
    for i in first..first + len {
        let e = EventId::new(t, i);
        if !matches!(g.label(e).kind, LabelKind::Choice { .. }) {
            g.set_hw(e, Some(h.clone()));
        }
    }
}

/// The facts `hw` of an action of thread `t` whose first event is at `first`, its
/// dependencies translated from dependency-source ordinals
/// ([`porf_graph::Label::is_dep_source`]) to event indices.
pub(crate) fn translate_hw(
    g: &Graph,
    t: Tid,
    first: u32,
    hw: &porf_graph::hw::Hw,
) -> porf_graph::hw::Hw {
    let sources: Vec<u32> = (0..first)
        .filter(|&i| g.label(EventId::new(t, i)).is_dep_source())
        .collect();
    let tr = |v: &[u32]| -> Vec<u32> {
        let mut out: Vec<u32> = v
            .iter()
            .filter_map(|&k| sources.get(k as usize).copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    };
    let mut h = hw.clone();
    h.deps.addr = tr(&hw.deps.addr);
    h.deps.data = tr(&hw.deps.data);
    h.deps.ctrl = tr(&hw.deps.ctrl);
    h.deps.value = tr(&hw.deps.value);
    h.excl_read = hw.excl_read.and_then(|k| sources.get(k as usize).copied());
    h
}

/// An error event marked unsupported among the `len` events of thread `t` from
/// `first`.
pub(crate) fn unsupported_event(g: &Graph, t: Tid, first: u32, len: u32) -> Option<EventId> {
    (first..first + len).map(|i| EventId::new(t, i)).find(|&e| {
        matches!(
            g.label(e).kind,
            LabelKind::Error {
                kind: ErrorKind::Unsupported,
                ..
            }
        )
    })
}

pub(crate) fn unsupported_message(g: &Graph, e: EventId) -> String {
    match &g.label(e).kind {
        LabelKind::Error { msg, .. } => msg.clone(),
        _ => unreachable!(),
    }
}

/// Whether script `s` is *grounded*: its events can be performed one by one, each
/// after what it rests on, each read after a performed write of its guessed value of
/// its location (or at once if it guessed the initial value). What an event rests
/// on: its po-predecessor, a start its spawn, a join the joined thread's last event;
/// with `deps` (a model that allows load buffering), an event with hardware facts
/// rests on the reads of its dependencies (and an exclusive write on its read part)
/// instead of its po-predecessor. Performing greedily finds such an order if there is
/// one. Every consistent execution's script (and every script the exactness argument
/// of [`crate::values`] extends a prefix of one to) is grounded: the scripts whose
/// writes grow the domain.
pub(crate) fn grounded<P: Program>(s: &Script<P>, deps: bool) -> bool {
    let g = &s.st.g;
    let mut guessed: Vec<(EventId, Option<Val>)> = s
        .steps
        .iter()
        .filter_map(|step| {
            let val = match step.guess? {
                Guess::Val(v) => Some(v),
                Guess::Destroyed => Some(porf_graph::MUTEX_DESTROYED),
                Guess::Uninit => None,
            };
            Some((EventId::new(step.tid, step.first), val))
        })
        .collect();
    guessed.sort();
    let mut ids: Vec<EventId> = g.events().map(|(e, _)| e).collect();
    ids.sort();
    let mut done = vec![false; ids.len()];
    let is_done = |done: &[bool], e: EventId| ids.binary_search(&e).is_ok_and(|i| done[i]);
    let mut left = ids.len();
    loop {
        let mut progress = false;
        for i in 0..ids.len() {
            if done[i] {
                continue;
            }
            let e = ids[i];
            let l = g.label(e);
            let mut ready = match (&l.hw, deps) {
                (Some(hw), true) => {
                    let d = &hw.deps;
                    d.addr
                        .iter()
                        .chain(&d.data)
                        .chain(&d.ctrl)
                        .all(|&r| is_done(&done, EventId::new(e.tid, r)))
                        && (!l.is_exclusive_write()
                            || is_done(&done, EventId::new(e.tid, e.idx - 1)))
                }
                _ => e.prev().is_none_or(|p| is_done(&done, p)),
            };
            match l.kind {
                LabelKind::Start { parent: Some(p) } => ready &= is_done(&done, p),
                LabelKind::Join { child } => {
                    ready &= g.last_of(child).is_some_and(|f| is_done(&done, f))
                }
                LabelKind::Read { loc, .. } => {
                    if let Ok(k) = guessed.binary_search_by_key(&e, |x| x.0) {
                        if let Some(val) = guessed[k].1 {
                            let info = g.loc_info(loc);
                            ready &= info.init_val == val
                                || info.co.iter().any(|&w| {
                                    is_done(&done, w)
                                        && matches!(g.label(w).kind, LabelKind::Write { val: v, .. } if v == val)
                                });
                        }
                    }
                }
                _ => {}
            }
            if ready {
                done[i] = true;
                left -= 1;
                progress = true;
            }
        }
        if left == 0 {
            return true;
        }
        if !progress {
            return false;
        }
    }
}
