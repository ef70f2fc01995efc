//! An exploration state: an execution graph plus, for every thread, the machine state
//! after each of its events.
//!
//! Invariant: `ts[t].len() == g.thread_len(t)` for every thread, except transiently
//! inside an explorer step; `ts[t][i]` is thread `t` ready to `peek` its action after
//! event `i` (for a thread-ending event it is simply the state before it).
//!
//! Thread states are shared ([`Snap`], an `Arc`): a copy of a state (a backward
//! revisit's [`State::restricted`]) and an event that leaves its thread's machine as
//! it was ([`State::push_same`]) share the machines instead of cloning them; a shared
//! machine is cloned only when it is changed ([`State::machine_mut`]).

use porf_graph::{Action, EventId, Graph, LabelKind, Program, ThreadMachine, Tid, Val, View};
use porf_models::MemoryModel;
use std::collections::HashMap;
use std::sync::Arc;

/// A thread state in [`State::ts`], shared between the states and events that have it.
pub type Snap<T> = Arc<T>;

pub struct State<P: Program> {
    pub g: Graph,
    pub ts: Vec<Vec<Snap<P::Thread>>>,
}

impl<P: Program> Clone for State<P> {
    fn clone(&self) -> Self {
        State {
            g: self.g.clone(),
            ts: self.ts.clone(),
        }
    }
}

/// Thread identifiers for spawned threads, a function of (parent, how many threads the
/// parent spawned before): the same child gets the same tid in every execution and in
/// every explorer.
#[derive(Default, Debug)]
pub struct TidRegistry {
    map: HashMap<(Tid, u32), Tid>,
}

impl TidRegistry {
    pub fn child(&mut self, parent: Tid, nth: u32) -> Tid {
        let next = self.map.len() as Tid + 1;
        *self.map.entry((parent, nth)).or_insert(next)
    }
}

impl<P: Program> State<P> {
    /// The initial state: the main thread's start event.
    pub fn new(prog: &P, model: &dyn MemoryModel) -> State<P> {
        let mut g = Graph::new();
        let e = g.add(0, LabelKind::Start { parent: None }, Default::default());
        g.label_mut(e).hb = model.hb_view(&g, e);
        State {
            g,
            ts: vec![vec![Snap::new(prog.main_thread())]],
        }
    }

    /// True iff thread `t`'s last event ends it (finish, block, error).
    pub fn ended(&self, t: Tid) -> bool {
        match self.g.last_of(t) {
            Some(e) => matches!(
                self.g.label(e).kind,
                LabelKind::Finish { .. } | LabelKind::Block { .. } | LabelKind::Error { .. }
            ),
            None => true,
        }
    }

    /// True iff thread `t` exists and finished normally.
    pub fn finished(&self, t: Tid) -> bool {
        self.g
            .last_of(t)
            .is_some_and(|e| matches!(self.g.label(e).kind, LabelKind::Finish { .. }))
    }

    /// The next action of thread `t` if it can take a step now (it exists, has not
    /// ended, and is not waiting to join an unfinished thread).
    pub fn enabled_action(&mut self, t: Tid) -> Option<Action> {
        if !self.g.thread_exists(t) || self.ended(t) {
            return None;
        }
        let a = self.machine_mut(t).peek();
        if let Action::Join { tid, .. } = a {
            if !self.finished(tid) {
                return None;
            }
        }
        Some(a)
    }

    /// The lowest-numbered thread that can take a step, with its action.
    pub fn next_action(&mut self) -> Option<(Tid, Action)> {
        (0..self.g.num_threads()).find_map(|t| self.enabled_action(t).map(|a| (t, a)))
    }

    /// Thread `t`'s newest machine, to be changed (`peek` caches what it computes):
    /// cloned first if another state or event shares it.
    pub fn machine_mut(&mut self, t: Tid) -> &mut P::Thread {
        Snap::make_mut(self.ts[t as usize].last_mut().unwrap())
    }

    /// Pushes the state of thread `t` after its newest action, which returned `ret`.
    pub fn push_resumed(&mut self, t: Tid, ret: Val) {
        let ts = &mut self.ts[t as usize];
        let mut s = P::Thread::clone(ts.last().unwrap());
        s.resume(ret);
        ts.push(Snap::new(s));
    }
    /// Pushes thread `t`'s current state again, shared (for events that end the thread
    /// or that are a second event of the same action).
    pub fn push_same(&mut self, t: Tid) {
        let ts = &mut self.ts[t as usize];
        let s = Snap::clone(ts.last().unwrap());
        ts.push(s);
    }

    /// Removes every event with stamp `>= stamp` and the matching thread states.
    pub fn truncate(&mut self, stamp: usize) {
        self.g.truncate(stamp);
        self.sync_threads();
    }

    fn sync_threads(&mut self) {
        self.ts.truncate(self.g.num_threads() as usize);
        for (t, ts) in self.ts.iter_mut().enumerate() {
            ts.truncate(self.g.thread_len(t as Tid) as usize);
        }
    }

    /// A copy restricted to `keep` (porf-closed); it shares the thread machines.
    pub fn restricted(&self, keep: &View) -> State<P> {
        let g = self.g.restricted(keep);
        let ts = (0..g.num_threads() as usize)
            .map(|t| self.ts[t][..g.thread_len(t as Tid) as usize].to_vec())
            .collect();
        State { g, ts }
    }

    /// Adds thread `child`'s start event (spawned by `spawn`) and its initial state.
    pub fn start_thread(&mut self, child: Tid, spawn: EventId, machine: P::Thread) -> EventId {
        let e = self.g.add(
            child,
            LabelKind::Start {
                parent: Some(spawn),
            },
            Default::default(),
        );
        let c = child as usize;
        if self.ts.len() <= c {
            self.ts.resize_with(c + 1, Vec::new);
        }
        debug_assert!(self.ts[c].is_empty());
        self.ts[c].push(Snap::new(machine));
        e
    }

    /// Number of spawn events of thread `t` so far.
    pub fn spawns_of(&self, t: Tid) -> u32 {
        self.g
            .thread(t)
            .iter()
            .filter(|l| matches!(l.kind, LabelKind::Spawn { .. }))
            .count() as u32
    }
}
