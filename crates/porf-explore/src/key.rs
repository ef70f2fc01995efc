//! Keys identifying executions, for deduplication.
//!
//! [`execution_key`]: an execution up to insertion order — every thread's events with
//! their rf sources, and co in co mode. Two graphs with equal keys are the same
//! execution of the equivalence. [`rvf_class_key`]: a trace's reads-value-from class.

use crate::coherence::Equiv;
use porf_graph::{
    BlockReason, EventId, Graph, Label, LabelKind, Note, ReadKind, Tid, View, WriteKind,
};

/// A key identifying an execution up to insertion order: every thread's events with
/// their rf sources, and (in co mode) co per location.
pub fn execution_key(g: &Graph, equiv: Equiv) -> Vec<i64> {
    let mut k = Vec::with_capacity(g.len() * 4);
    for t in 0..g.num_threads() {
        k.push(-1 - t as i64);
        for lab in g.thread(t) {
            let rf = match lab.kind {
                LabelKind::Read { rf, .. } => {
                    rf.map_or(-1, |w| ((w.tid as i64) << 32) | w.idx as i64)
                }
                _ => 0,
            };
            encode(&mut k, &lab.kind, rf);
        }
    }
    if equiv == Equiv::Rf {
        return k;
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

/// The reads-value-from class of a trace ("Stateless Model Checking under a
/// Reads-Value-From Equivalence", §3): its events, the value each read reads, and the
/// causal order restricted to reads — for each read, how many reads of each thread
/// are in its porf-prefix (porf: po, spawn, join and rf, the paper's causal order with
/// thread creation and joins as program order). Two traces have equal keys iff they
/// are RVF-equivalent.
pub fn rvf_class_key(g: &Graph) -> Vec<i64> {
    let n = g.num_threads();
    // reads_below[t][i]: the number of reads among thread t's first i events.
    let reads_below: Vec<Vec<i64>> = (0..n)
        .map(|t| {
            let mut v = vec![0];
            for l in g.thread(t) {
                v.push(v.last().unwrap() + l.is_read() as i64);
            }
            v
        })
        .collect();
    let mut k = Vec::with_capacity(g.len() * 4);
    for t in 0..n {
        k.push(-1 - t as i64);
        for (i, lab) in g.thread(t).iter().enumerate() {
            let val = match lab.kind {
                LabelKind::Read { .. } => g.read_val(porf_graph::EventId::new(t, i as u32)),
                _ => 0,
            };
            encode(&mut k, &lab.kind, val);
            if lab.is_read() {
                for (u, below) in reads_below.iter().enumerate() {
                    let m = (lab.porf.get(u as u32) as usize).min(below.len() - 1);
                    k.push(below[m]);
                }
            }
        }
    }
    k
}

/// Appends the code of one event; `read` stands for a read's source (or value).
fn encode(k: &mut Vec<i64>, kind: &LabelKind, read: i64) {
    match kind {
        LabelKind::Start { parent } => {
            k.push(1);
            k.push(parent.map_or(-1, |p| ((p.tid as i64) << 32) | p.idx as i64));
        }
        LabelKind::Read {
            loc,
            bytes,
            ord,
            kind,
            ..
        } => {
            k.extend([2, loc.0 as i64, *bytes as i64, *ord as i64]);
            k.push(read_kind_code(*kind));
            k.push(read);
        }
        LabelKind::Write {
            loc,
            bytes,
            ord,
            val,
            kind,
        } => {
            k.extend([3, loc.0 as i64, *bytes as i64, *ord as i64, *val]);
            k.push(write_kind_code(*kind));
        }
        LabelKind::Fence { ord } => k.extend([4, *ord as i64]),
        LabelKind::Spawn { child, .. } => k.extend([5, *child as i64]),
        LabelKind::Join { child } => k.extend([6, *child as i64]),
        LabelKind::Finish { ret } => k.extend([7, *ret]),
        LabelKind::Block { reason } => k.extend(match reason {
            BlockReason::Assume => [8, 0, 0],
            BlockReason::LoopBound => [8, 1, 0],
            BlockReason::Lock => [8, 2, 0],
            BlockReason::Uninit => [8, 3, 0],
            BlockReason::Wait => [8, 6, 0],
            BlockReason::Confined => [8, 8, 0],
            BlockReason::RecursionLimit => [8, 7, 0],
            BlockReason::SpinLoop { reads, repeats } => [8, 4 + *repeats as i64, *reads as i64],
        }),
        LabelKind::Error { .. } => k.push(9),
        LabelKind::Malloc { base, size, zeroed } => {
            k.extend([10, base.0 as i64, *size as i64, *zeroed as i64])
        }
        LabelKind::Free { base, retire } => k.extend([11, base.0 as i64, *retire as i64]),
        LabelKind::Note {
            note: Note::HpProtect { hp, block },
        } => k.extend([14, hp.0 as i64, block.map_or(-1, |b| b.0 as i64)]),
        LabelKind::Note {
            note: Note::FinalWrite { loc },
        } => k.extend([15, loc.0 as i64]),
        LabelKind::Choice { val } => k.extend([12, *val]),
        LabelKind::BlockSize { base, size } => k.extend([13, base.0 as i64, *size as i64]),
    }
}

fn read_kind_code(k: ReadKind) -> i64 {
    match k {
        ReadKind::Plain => 0,
        ReadKind::Rmw(_) => 1,
        ReadKind::Lock => 2,
        ReadKind::TryLock => 3,
        ReadKind::Copy => 4,
    }
}

fn write_kind_code(k: WriteKind) -> i64 {
    match k {
        WriteKind::Plain => 0,
        WriteKind::Exclusive => 1,
        WriteKind::Unlock => 2,
        WriteKind::MutexDestroy => 3,
    }
}

/// A compact key of an execution's reads-from class: per thread, its length, the source
/// of every read and how it ends. Threads are deterministic, so the sources of the
/// reads determine every event: two graphs of one program with equal keys are the same
/// (events, rf) execution.
pub fn rf_class_key(g: &Graph) -> Vec<u64> {
    let code = |e: porf_graph::EventId| ((e.tid as u64) << 32) | e.idx as u64;
    let mut k = Vec::new();
    for t in 0..g.num_threads() {
        k.push(u64::MAX - 1 - g.thread_len(t) as u64);
        for lab in g.thread(t) {
            if let LabelKind::Read { rf, .. } = lab.kind {
                k.push(rf.map_or(u64::MAX, code));
            }
        }
    }
    k
}

/// A compact key of an execution of `equiv`, for sets of executions: per thread, its
/// parent (the spawning event) and length, the source of every read and the value of
/// every nondeterministic choice, and in co mode the co order of every location.
/// Threads are deterministic given their start and what they read and choose, and
/// porf is acyclic, so equal keys are equal executions ([`execution_key`]) of one
/// program. Tokens are 32-bit (an event, a length or a location takes one unless
/// large), so a key takes about a word per two reads.
pub fn compact_execution_key(g: &Graph, equiv: Equiv) -> Box<[u32]> {
    let mut k = CompactKey::default();
    execution_tokens(&mut k, None, g, equiv, &Whole);
    k.0.into_boxed_slice()
}

/// The key of an optimal-explorer state: the execution ([`compact_execution_key`])
/// and, per event in thread order, its insertion stamp and whether it may still be
/// revisited — everything the exploration below the state depends on.
pub fn compact_state_key(g: &Graph, equiv: Equiv) -> Box<[u32]> {
    let mut k = CompactKey::default();
    state_tokens(&mut k, &mut CompactKey::default(), g, equiv, &Whole);
    k.0.into_boxed_slice()
}

/// [`compact_state_key`]s of the states backward revisits would make of a graph,
/// computed without changing it, so that a revisit to a state already explored is
/// skipped before it is applied. Holds the buffers the keys are built in.
#[derive(Default)]
pub struct RevisitKeys {
    key: CompactKey,
    /// The order section of `key`, before it is appended.
    order: CompactKey,
    /// Per thread of the revisited graph: its first event added after the revisited
    /// read, where its kept events from there on start in `later`, and its length.
    from: Vec<(u32, u32, u32)>,
    /// The new stamps of the kept events added after the revisited read, thread by
    /// thread, in program order.
    later: Vec<u32>,
}

impl RevisitKeys {
    /// [`compact_state_key`] of the state the backward revisit of read `r` by write
    /// `w` makes of `g`: `g` restricted to `keep` ([`Graph::remove_outside`]: the
    /// events outside it removed, trailing threads left empty dropped, the kept
    /// events' stamps renumbered in insertion order), `r` reading from `w`, and `w`'s
    /// porf-prefix no longer revisitable.
    ///
    /// `keep` must be a backward revisit's view: every event added no later than `r`,
    /// and `w`'s porf-prefix (a prefix of each thread). Then every kept read's source
    /// is kept (a read added no later than `r` reads from an earlier event, a read in
    /// `w`'s porf-prefix from a write in it), so no read loses its source.
    pub fn key(&mut self, g: &Graph, equiv: Equiv, r: EventId, w: EventId, keep: &View) -> &[u32] {
        let s = g.label(r).stamp;
        let threads = (0..g.num_threads())
            .rev()
            .find(|&t| keep.get(t).min(g.thread_len(t)) > 0)
            .map_or(0, |t| t + 1);
        self.from.clear();
        let mut at = 0;
        for t in 0..threads {
            let from = g.thread(t).partition_point(|l| l.stamp <= s) as u32;
            let len = keep.get(t).min(g.thread_len(t));
            self.from.push((from, at, len));
            at += len.saturating_sub(from);
        }
        self.later.clear();
        self.later.resize(at as usize, 0);
        let mut next = s + 1;
        for &e in &g.insertion_order()[s as usize + 1..] {
            if keep.contains(e) {
                let (from, at, _) = self.from[e.tid as usize];
                self.later[(at + e.idx - from) as usize] = next;
                next += 1;
            }
        }
        let lens = Revisited {
            r,
            w,
            keep,
            wporf: &g.label(w).porf,
            threads,
            last_kept_stamp: s,
            from: &self.from,
            later: &self.later,
        };
        self.key.0.clear();
        state_tokens(&mut self.key, &mut self.order, g, equiv, &lens);
        &self.key.0
    }
}

/// The tokens of [`compact_state_key`] of the graph `lens` sees in `g`: those of
/// [`compact_execution_key`], then the order section, collected in `order` in the
/// same pass over the events.
fn state_tokens(
    k: &mut CompactKey,
    order: &mut CompactKey,
    g: &Graph,
    equiv: Equiv,
    lens: &impl Lens,
) {
    order.0.clear();
    execution_tokens(k, Some(order), g, equiv, lens);
    k.tag(Tag::Order);
    k.0.extend_from_slice(&order.0);
}

/// The tokens of [`compact_execution_key`] of the graph `lens` sees in `g`; with
/// `order`, the order section of [`compact_state_key`] in it.
fn execution_tokens(
    k: &mut CompactKey,
    mut order: Option<&mut CompactKey>,
    g: &Graph,
    equiv: Equiv,
    lens: &impl Lens,
) {
    for t in 0..lens.num_threads(g) {
        k.tag(Tag::Thread);
        let n = lens.thread_len(g, t);
        let parent = match g.thread(t).first().filter(|_| n > 0).map(|l| &l.kind) {
            Some(LabelKind::Start { parent }) => *parent,
            _ => None,
        };
        k.event(parent);
        k.num(u64::from(n));
        for (i, lab) in g.thread(t).iter().take(n as usize).enumerate() {
            let e = EventId::new(t, i as u32);
            match lab.kind {
                LabelKind::Read { rf, .. } => k.event(lens.source(e, rf)),
                LabelKind::Choice { val } => {
                    k.tag(Tag::Choice);
                    k.num(val as u64);
                }
                _ => {}
            }
            if let Some(o) = order.as_deref_mut() {
                let (stamp, revisitable) = lens.order(e, lab);
                o.num((u64::from(stamp) << 1) | u64::from(revisitable));
            }
        }
    }
    if equiv != Equiv::Rf {
        let mut locs: Vec<_> = (g.locations())
            .filter(|(_, i)| i.accesses.iter().any(|&e| lens.keeps(e)))
            .map(|(l, i)| (l.0, &i.co))
            .collect();
        locs.sort_by_key(|(l, _)| *l);
        for (l, co) in locs {
            k.tag(Tag::Location);
            k.num(l);
            let kept = || co.iter().copied().filter(|&w| lens.keeps(w));
            k.num(kept().count() as u64);
            for w in kept() {
                k.event(Some(w));
            }
        }
    }
}

/// The graph a key is taken of, as seen in a [`Graph`]: the graph itself ([`Whole`])
/// or the state a backward revisit would make of it ([`Revisited`]).
trait Lens {
    /// The number of thread slots.
    fn num_threads(&self, g: &Graph) -> u32;
    /// The number of events of thread `t`: a prefix of its events in `g`.
    fn thread_len(&self, g: &Graph, t: Tid) -> u32;
    /// Whether event `e` of `g` is in the graph.
    fn keeps(&self, e: EventId) -> bool;
    /// The source of read `e`, whose source in `g` is `rf`.
    fn source(&self, e: EventId, rf: Option<EventId>) -> Option<EventId>;
    /// The insertion stamp and revisitability of event `e`, whose label in `g` is
    /// `lab`.
    fn order(&self, e: EventId, lab: &Label) -> (u32, bool);
}

/// A graph as it is.
struct Whole;

impl Lens for Whole {
    fn num_threads(&self, g: &Graph) -> u32 {
        g.num_threads()
    }
    fn thread_len(&self, g: &Graph, t: Tid) -> u32 {
        g.thread_len(t)
    }
    fn keeps(&self, _: EventId) -> bool {
        true
    }
    fn source(&self, _: EventId, rf: Option<EventId>) -> Option<EventId> {
        rf
    }
    fn order(&self, _: EventId, lab: &Label) -> (u32, bool) {
        (lab.stamp, lab.revisitable)
    }
}

/// The state a backward revisit of `r` by `w` keeping `keep` makes of a graph (see
/// [`RevisitKeys::key`]).
struct Revisited<'v> {
    r: EventId,
    w: EventId,
    keep: &'v View,
    /// `w`'s porf-prefix, made not revisitable.
    wporf: &'v View,
    /// Thread slots left: trailing threads with no kept event are dropped.
    threads: u32,
    /// `r`'s stamp: the kept events up to it keep theirs.
    last_kept_stamp: u32,
    /// See [`RevisitKeys`].
    from: &'v [(u32, u32, u32)],
    later: &'v [u32],
}

impl Lens for Revisited<'_> {
    fn num_threads(&self, _: &Graph) -> u32 {
        self.threads
    }
    fn thread_len(&self, _: &Graph, t: Tid) -> u32 {
        self.from[t as usize].2
    }
    fn keeps(&self, e: EventId) -> bool {
        self.keep.contains(e)
    }
    fn source(&self, e: EventId, rf: Option<EventId>) -> Option<EventId> {
        if e == self.r {
            Some(self.w)
        } else {
            rf.filter(|&s| self.keep.contains(s))
        }
    }
    fn order(&self, e: EventId, lab: &Label) -> (u32, bool) {
        let stamp = if lab.stamp <= self.last_kept_stamp {
            lab.stamp
        } else {
            let (from, at, _) = self.from[e.tid as usize];
            self.later[(at + e.idx - from) as usize]
        };
        (stamp, lab.revisitable && !self.wporf.contains(e))
    }
}

/// Separators of [`CompactKey`]'s sections, the top token values (a small number or
/// event is always below them).
#[derive(Copy, Clone)]
#[repr(u32)]
enum Tag {
    Thread = 0xFFFF_FFF0,
    Choice,
    Location,
    Order,
    /// A number or event too large for one token follows in two (high, low).
    Wide,
    /// No event (a read of the initial value, the main thread's parent).
    None,
}

/// A key under construction: self-delimiting 32-bit tokens.
#[derive(Default)]
struct CompactKey(Vec<u32>);

impl CompactKey {
    #[inline]
    fn tag(&mut self, t: Tag) {
        self.0.push(t as u32);
    }

    #[inline]
    fn num(&mut self, n: u64) {
        if n < u64::from(Tag::Thread as u32) {
            self.0.push(n as u32);
        } else {
            self.tag(Tag::Wide);
            self.0.push((n >> 32) as u32);
            self.0.push(n as u32);
        }
    }

    #[inline]
    fn event(&mut self, e: Option<porf_graph::EventId>) {
        match e {
            // Thread below 2^8 and index below 2^23: one token below the tags.
            Some(e) if e.tid < (1 << 8) && e.idx < (1 << 23) => self.0.push((e.tid << 23) | e.idx),
            Some(e) => {
                self.tag(Tag::Wide);
                self.0.push(e.tid);
                self.0.push(e.idx);
            }
            None => self.tag(Tag::None),
        }
    }
}
