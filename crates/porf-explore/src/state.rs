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
//!
//! Thread states are also remembered ([`Node`]): a state keeps the state it was last
//! resumed to, with the answer it was resumed with, already peeked. A thread machine is
//! a deterministic function of its state and the answers it is given
//! ([`ThreadMachine`]), so resuming a state again with the same answer — what a search
//! does for every thread but the one whose choice changed when it goes back to a branch
//! point and extends the graph again — takes the remembered state instead of copying,
//! resuming and running the machine to its next action. Only machines that give their
//! peeked action without changing ([`ThreadMachine::peeked`]) are remembered, so a
//! remembered state is never cloned to be peeked. Memory: a state keeps at most one
//! successor, which keeps at most one of its own, so every remembered state is a
//! successor chain of a live state, no longer than its thread. Workers never share a
//! state: each detaches the states it is handed ([`State::detach`]).

use porf_graph::{
    Action, EventId, Graph, LabelKind, Program, Removed, ThreadMachine, Tid, Val, View,
};
use porf_models::MemoryModel;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A thread state in [`State::ts`], shared between the states and events that have it.
pub type Snap<T> = Arc<Node<T>>;

/// A thread state and the state it was last resumed to ([`State::push_resumed`]).
pub struct Node<T> {
    m: T,
    next: Mutex<Option<(Answer, Snap<T>)>>,
    /// The last answer of [`State::blocks_after`] for this state, packed by
    /// [`BlocksAfter`]: a function of the state and the value read, so it stays true
    /// when the remembered successor is replaced by another answer's.
    blocks: AtomicU64,
}

/// [`Node::blocks`]'s packing of (value read, whether the thread then blocks) in one
/// word, so that a reader never sees the two halves of different answers: the value
/// shifted by two, the answer in the low bits (`0`: nothing cached). Values outside
/// 62 bits are not cached.
struct BlocksAfter;

impl BlocksAfter {
    const EMPTY: u64 = 0;

    fn pack(v: Val, blocks: bool) -> Option<u64> {
        let fits = (v << 2) >> 2 == v;
        fits.then_some(((v << 2) as u64) | if blocks { 2 } else { 1 })
    }

    fn lookup(word: u64, v: Val) -> Option<bool> {
        let tag = word & 3;
        (tag != 0 && ((word as i64) >> 2) == v).then_some(tag == 2)
    }
}

/// How a thread state was resumed.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Answer {
    /// [`ThreadMachine::resume`] with this value.
    Val(Val),
    /// [`ThreadMachine::resume_uninit`].
    Uninit,
}

impl<T> Node<T> {
    pub fn new(m: T) -> Node<T> {
        Node {
            m,
            next: Mutex::new(None),
            blocks: AtomicU64::new(BlocksAfter::EMPTY),
        }
    }

    /// The cached [`State::blocks_after`] answer for value `v`, if it is the one cached.
    fn blocks_after(&self, v: Val) -> Option<bool> {
        BlocksAfter::lookup(self.blocks.load(Ordering::Relaxed), v)
    }

    fn cache_blocks_after(&self, v: Val, blocks: bool) {
        if let Some(word) = BlocksAfter::pack(v, blocks) {
            self.blocks.store(word, Ordering::Relaxed);
        }
    }

    /// The state this one was last resumed to with `answer`, if that is remembered.
    fn next(&self, answer: Answer) -> Option<Snap<T>> {
        let next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        next.as_ref()
            .filter(|(a, _)| *a == answer)
            .map(|(_, s)| Snap::clone(s))
    }

    fn remember(&self, answer: Answer, s: &Snap<T>) {
        let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
        *next = Some((answer, Snap::clone(s)));
    }
}

/// A copy forgets the remembered successor (a copy is made to be changed).
impl<T: Clone> Clone for Node<T> {
    fn clone(&self) -> Self {
        Node::new(self.m.clone())
    }
}

impl<T> std::ops::Deref for Node<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.m
    }
}

/// What [`State::remove_outside`] took out of a state.
pub struct Taken<T> {
    graph: Removed,
    /// Per thread slot: the removed states (those after the thread's kept events).
    snaps: Vec<Vec<Snap<T>>>,
    /// The number of thread slots before.
    slots: usize,
}

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
/// parent spawned before): the same child gets the same tid whenever it is spawned
/// again in one exploration lineage.
///
/// Invariant: ids are `1..=len` in the order their keys were first met, and an id is
/// never given to two keys while both entries are present. The optimal explorer scopes
/// the registry to its search tree ([`TidRegistry::mark`] before a branch,
/// [`TidRegistry::reset`] after it), so a tid is a function of the path from the root
/// to the node — the same whatever the number of worker threads and whichever worker
/// explores the node; within one lineage entries are only added, so a thread deleted
/// by a backward revisit and spawned again gets its old id. The other explorers keep
/// one registry for the whole exploration (ids in discovery order).
#[derive(Default, Debug, Clone)]
pub struct TidRegistry {
    keys: Vec<(Tid, u32)>,
}

impl TidRegistry {
    pub fn child(&mut self, parent: Tid, nth: u32) -> Tid {
        let key = (parent, nth);
        match self.keys.iter().position(|&k| k == key) {
            Some(i) => i as Tid + 1,
            None => {
                self.keys.push(key);
                self.keys.len() as Tid
            }
        }
    }

    /// The registry's size, to [`TidRegistry::reset`] to when a branch is left.
    pub fn mark(&self) -> usize {
        self.keys.len()
    }

    /// Forgets every key met since `mark`.
    pub fn reset(&mut self, mark: usize) {
        self.keys.truncate(mark);
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
            ts: vec![vec![Snap::new(Node::new(prog.main_thread()))]],
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
        let a = self.peek(t);
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

    /// The thread to step next when threads are held back ([`crate::bam`]), the
    /// lowest-numbered of: the threads about to block (a block ends its thread at
    /// once, so a block decided by a stale read is seen before anything else is
    /// explored: [`crate::stale`]); else the threads whose awaited load
    /// ([`ThreadMachine::awaited`], with `awaits`) finds its value in the co-latest
    /// write of its location; else the threads that can step and are not held; else
    /// the threads that can step. A thread is held when its next action is an awaited
    /// load whose value is not there yet, or (with `spins`) a load after which, reading
    /// the co-latest write of its location, it would block at once ([`State::blocks_after`]:
    /// a spin loop's or an assume's wait, GenMC's in-place revisiting's case). A
    /// function of the state, as [`State::next_action`] is.
    pub fn next_action_held(
        &mut self,
        prog: &P,
        awaits: bool,
        spins: bool,
    ) -> Option<(Tid, Action)> {
        let mut ready = None;
        let mut free = None;
        let mut held = None;
        for t in 0..self.g.num_threads() {
            let Some(a) = self.enabled_action(t) else {
                continue;
            };
            if let Action::Block { .. } = a {
                return Some((t, a));
            }
            let slot = match a {
                Action::Load {
                    loc, bytes, copy, ..
                } => {
                    let awaited = match awaits {
                        true => self.ts[t as usize].last().and_then(|m| m.awaited()),
                        false => None,
                    };
                    // Once a lower thread is free, this one's being free or held
                    // changes nothing (only a block, which needs no trial run, could
                    // still come first): the trial run is skipped.
                    match awaited {
                        Some(v) if crate::bam::ready(&self.g, loc, v) => &mut ready,
                        Some(_) => &mut held,
                        None if spins
                            && !copy
                            && free.is_none()
                            && self.blocks_after(prog, t, loc, bytes) =>
                        {
                            &mut held
                        }
                        None => &mut free,
                    }
                }
                _ => &mut free,
            };
            slot.get_or_insert((t, a));
        }
        ready.or(free).or(held)
    }

    /// Whether thread `t`, whose next action is a load of `bytes` bytes at `loc`, would
    /// block right after it if it read the co-latest write of `loc` (the initial value
    /// of a location not accessed yet). The state it would
    /// resume to is remembered ([`Node`]), so the load, when it reads that write, takes
    /// it without running the machine again; the answer is cached in the thread's state
    /// ([`Node::blocks`]), so asking again with the same value runs nothing and locks
    /// nothing, even after the remembered successor was replaced.
    fn blocks_after(&mut self, prog: &P, t: Tid, loc: porf_graph::Loc, bytes: u8) -> bool {
        let v = if self.g.knows_loc(loc) {
            self.g.co_latest_val(loc, bytes)
        } else {
            // Not accessed yet: the initial value, unless the location is in a heap
            // block (whose cells may be uninitialised).
            prog.block_of(loc).is_none().then(|| prog.init_value(loc))
        };
        let Some(v) = v else {
            return false;
        };
        let answer = Answer::Val(v);
        let parent = self.ts[t as usize].last().unwrap();
        if let Some(blocks) = parent.blocks_after(v) {
            return blocks;
        }
        let next = match parent.next(answer) {
            Some(s) => s.peeked(),
            None => {
                let mut s = P::Thread::clone(parent);
                s.resume(v);
                let a = s.peek();
                let s = Snap::new(Node::new(s));
                if s.peeked().is_some() {
                    parent.remember(answer, &s);
                }
                Some(a)
            }
        };
        let blocks = matches!(next, Some(Action::Block { .. }));
        parent.cache_blocks_after(v, blocks);
        blocks
    }

    /// Thread `t`'s newest machine, to be changed (`peek` caches what it computes):
    /// cloned first if another state or event shares it.
    pub fn machine_mut(&mut self, t: Tid) -> &mut P::Thread {
        &mut Snap::make_mut(self.ts[t as usize].last_mut().unwrap()).m
    }

    /// Thread `t`'s next action ([`ThreadMachine::peek`] of its newest machine), read
    /// without a copy when the machine already has it ([`ThreadMachine::peeked`]).
    pub fn peek(&mut self, t: Tid) -> Action {
        match self.ts[t as usize].last().unwrap().peeked() {
            Some(a) => a,
            None => self.machine_mut(t).peek(),
        }
    }

    /// Pushes the state of thread `t` after its newest action, which returned `ret`.
    pub fn push_resumed(&mut self, t: Tid, ret: Val) {
        self.push_after(t, Answer::Val(ret));
    }
    /// Pushes the state of thread `t` after its newest action, a copy load that read an
    /// uninitialised cell ([`ThreadMachine::resume_uninit`]).
    pub fn push_resumed_uninit(&mut self, t: Tid) {
        self.push_after(t, Answer::Uninit);
    }
    /// Pushes thread `t`'s current state resumed with `answer`: the remembered
    /// successor ([`Node`]) if there is one, else a copy resumed and peeked, which is
    /// remembered if the machine gives its peeked action without changing.
    fn push_after(&mut self, t: Tid, answer: Answer) {
        let ts = &mut self.ts[t as usize];
        let parent = ts.last().unwrap();
        if let Some(s) = parent.next(answer) {
            ts.push(s);
            return;
        }
        let mut s = P::Thread::clone(parent);
        match answer {
            Answer::Val(v) => s.resume(v),
            Answer::Uninit => s.resume_uninit(),
        }
        s.peek();
        let s = Snap::new(Node::new(s));
        if s.peeked().is_some() {
            parent.remember(answer, &s);
        }
        ts.push(s);
    }
    /// Gives every thread state a copy of its own, remembering nothing: a worker
    /// does this to a state handed over by another ([`crate::parallel`]), so that
    /// the two never lock the same state ([`Node`]); sharing them cost more than
    /// re-running the machines (nw1r N=8 on two workers, `ci` build: 0.29–0.78 s
    /// shared, 0.27–0.29 s detached).
    pub fn detach(&mut self) {
        for t in &mut self.ts {
            for s in t.iter_mut() {
                *s = Snap::new(Node::clone(s));
            }
        }
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

    /// Restricts the state in place to `keep` (as [`State::restricted`] would copy
    /// it), returning what was removed for [`State::restore`]: the graph's removed
    /// events ([`Graph::remove_outside`]) and their threads' states, moved out.
    pub fn remove_outside(&mut self, keep: &View) -> Taken<P::Thread> {
        let graph = self.g.remove_outside(keep);
        let slots = self.ts.len();
        let snaps = self
            .ts
            .iter_mut()
            .enumerate()
            .map(|(t, ts)| {
                let n = (self.g.thread_len(t as Tid) as usize).min(ts.len());
                ts.split_off(n)
            })
            .collect();
        self.ts.truncate(self.g.num_threads() as usize);
        Taken {
            graph,
            snaps,
            slots,
        }
    }

    /// Puts back what [`State::remove_outside`] removed; the state must be as that
    /// call left it (see [`Graph::restore`]).
    pub fn restore(&mut self, taken: Taken<P::Thread>) {
        let Taken {
            graph,
            snaps,
            slots,
        } = taken;
        self.g.restore(graph);
        if self.ts.len() < slots {
            self.ts.resize_with(slots, Vec::new);
        }
        for (ts, back) in self.ts.iter_mut().zip(snaps) {
            ts.extend(back);
        }
        debug_assert!(
            (0..self.ts.len()).all(|t| self.ts[t].len() == self.g.thread_len(t as Tid) as usize)
        );
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
        self.ts[c].push(Snap::new(Node::new(machine)));
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

#[cfg(test)]
mod tests {
    use super::{BlocksAfter, Snap, State, TidRegistry};
    use porf_graph::Val;

    /// A cached blocks-after answer is found for its own value only, both answers and
    /// values of either sign round-trip, and values outside 62 bits are not cached.
    #[test]
    fn blocks_after_answers_pack_into_one_word() {
        assert_eq!(BlocksAfter::lookup(BlocksAfter::EMPTY, 0), None);
        for v in [0, 1, -1, 7, -(1 << 61), (1 << 61) - 1] {
            for blocks in [false, true] {
                let word = BlocksAfter::pack(v, blocks).unwrap();
                assert_eq!(BlocksAfter::lookup(word, v), Some(blocks));
                assert_eq!(BlocksAfter::lookup(word, v ^ 1), None);
            }
        }
        for v in [1 << 61, -(1 << 61) - 1, Val::MAX, Val::MIN] {
            assert_eq!(BlocksAfter::pack(v, true), None);
        }
    }
    use porf_graph::{LabelKind, MemOrder, SrcLoc, ThreadMachine};
    use porf_models::rc11::Rc11;
    use porf_toy::ProgramBuilder;

    /// Resuming a state again with the same answer gives the remembered state (the
    /// same one, not a copy); another answer gives a new one, equal to what resuming a
    /// copy gives, and is remembered instead.
    #[test]
    fn a_state_remembers_its_last_successor() {
        let mut b = ProgramBuilder::new();
        let x = b.loc("x");
        b.thread(|t| {
            t.store(x, 1, MemOrder::Relaxed);
        });
        let prog = b.build();
        let mut st = State::new(&prog, &Rc11);
        let first = st.peek(0);
        let step = |st: &mut State<_>, ret| {
            let fence = LabelKind::Fence {
                ord: MemOrder::SeqCst,
            };
            st.g.add(0, fence, SrcLoc::UNKNOWN);
            st.push_resumed(0, ret);
            Snap::clone(st.ts[0].last().unwrap())
        };
        let a = step(&mut st, 7);
        st.truncate(1);
        let again = step(&mut st, 7);
        assert!(Snap::ptr_eq(&a, &again), "the same answer reuses the state");
        st.truncate(1);
        let other = step(&mut st, 8);
        assert!(!Snap::ptr_eq(&a, &other));
        let mut copy = porf_toy::ToyThread::clone(&st.ts[0][0]);
        assert_eq!(copy.peek(), first);
        copy.resume(8);
        assert_eq!(other.peeked(), Some(copy.peek()));
        st.truncate(1);
        assert!(
            !Snap::ptr_eq(&a, &step(&mut st, 7)),
            "only the last is kept"
        );
    }

    /// Ids follow the order keys are met on the path from the root; a branch's keys
    /// are forgotten when it is left, so a sibling branch numbers its own spawns from
    /// the same point; a key met again on the same path keeps its id.
    #[test]
    fn tids_are_scoped_to_the_search_tree() {
        let mut r = TidRegistry::default();
        assert_eq!(r.child(0, 0), 1);
        let m = r.mark();
        assert_eq!(r.child(1, 0), 2);
        assert_eq!(r.child(0, 1), 3);
        assert_eq!(r.child(1, 0), 2, "spawned again on the same path");
        r.reset(m);
        assert_eq!(r.child(0, 1), 2, "a sibling branch meets (0, 1) first");
        assert_eq!(r.child(0, 0), 1);
    }
}
