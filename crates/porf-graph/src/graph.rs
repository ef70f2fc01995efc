//! The execution graph: events per thread, reads-from, coherence order per location,
//! insertion stamps and porf views.
//!
//! Invariants kept by every method:
//! * thread `t` exists iff `threads[t]` is non-empty; its event 0 is a `Start`;
//! * `order[s]` is the event with stamp `s`, and stamps are dense (`0..order.len()`);
//! * each read's `rf` exists in the graph (or is `None`, the initialisation), and the
//!   write's `readers` (or the location's `init_readers`) lists the read;
//! * `LocInfo::co` lists every write of the location exactly once, in coherence order,
//!   after the (implicit) initialisation write, and `co[i]`'s label has `co_idx == i`
//!   (so that [`Graph::co_pos`] is O(1));
//! * `porf` of every event is its porf-prefix, computed when the event was added;
//! * `blocks[b].malloc` / `.frees` are exactly the graph's `Malloc` / `Free` events of
//!   block `b`, and `blocks[b].locs` every registered location with `block == Some(b)`;
//! * `loc_order` holds exactly the keys of `locs` (registered locations, in address
//!   order, for neighbourhood queries: [`Graph::locs_between`]);
//! * `LocInfo::sized` counts the location's accesses with a width (`bytes > 0`) and
//!   `LocInfo::width` is the width of the oldest of them (when `sized > 0`).
//! * `sc_fences` is the number of seq_cst fences (a fence's order is never changed
//!   after it is added), and `Label::sc_fences_upto` the number in the label's thread
//!   up to and including it; `final_notes` the number of `Note::FinalWrite` events.
//! * `joins[c]` lists the graph's `Join { child: c }` events, in insertion order (so
//!   that [`Graph::joins_of`] is O(1) for the models' incremental checks).
//! * `LocInfo::by_thread[t][c]` lists the indices of thread `t`'s accesses of the
//!   location of [`AccessClass`] `c` (as classified when they were added), in program
//!   order: the same events as `accesses`, indexed so that "the accesses of thread `t`
//!   outside a view" is a suffix found by binary search ([`LocInfo::thread_accesses`]).

use crate::action::{Loc, Tid, Val};
use crate::chunked::Chunked;
use crate::hash::FastMap;
use crate::label::{EventId, Label, LabelKind};
use crate::view::View;
use crate::SrcLoc;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Per-location bookkeeping.
#[derive(Clone, Debug, Default)]
pub struct LocInfo {
    /// Writes in coherence order (the initialisation write is implicitly first).
    pub co: Vec<EventId>,
    /// Reads reading from the initialisation write.
    pub init_readers: Vec<EventId>,
    /// The initial value.
    pub init_val: Val,
    /// Every read and write of the location, in insertion order.
    pub accesses: Vec<EventId>,
    /// The dynamically allocated block the location belongs to (its base), if any.
    pub block: Option<Loc>,
    /// How many of `accesses` have a width (`bytes > 0`: every access but the
    /// width-less mutex operations).
    pub sized: u32,
    /// The width of the oldest access counted by `sized` (meaningless when `sized` is
    /// 0). Events leave the graph newest first, so it stays the oldest one's until
    /// the count drops to 0.
    pub width: u8,
    /// Per thread, per [`AccessClass`]: the indices of the thread's accesses of the
    /// location, in program order (see [`LocInfo::thread_accesses`]).
    by_thread: Vec<[Vec<u32>; 4]>,
}

/// Below this many accesses of a location, scanning its `accesses` list is cheaper than
/// searching the per-thread index ([`LocInfo::thread_accesses`]); users pick the
/// cheaper way, with the same result.
pub const SCAN_BELOW: usize = 64;

/// What kind of access an event is, for the per-thread index of a location's
/// accesses ([`LocInfo::thread_accesses`]): a read or a write, non-atomic or atomic.
///
/// The class is fixed when the event is added. Explorers may later change an
/// access's order only between atomic orders, or make it stronger (a failed
/// compare-exchange reads with its failure order; tests strengthen orders to
/// `seq_cst`), so a class `NaRead`/`NaWrite` may name an access that is atomic now,
/// never the other way round: users filter on the label when it matters.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum AccessClass {
    NaRead = 0,
    AtomicRead = 1,
    NaWrite = 2,
    AtomicWrite = 3,
}

impl AccessClass {
    /// Every class.
    pub const ALL: [AccessClass; 4] = [
        AccessClass::NaRead,
        AccessClass::AtomicRead,
        AccessClass::NaWrite,
        AccessClass::AtomicWrite,
    ];
    /// The class of `lab` (`None` if it is not a read or a write).
    pub fn of(lab: &Label) -> Option<AccessClass> {
        let na = lab.ord().is_some_and(|o| !o.is_atomic());
        match (&lab.kind, na) {
            (LabelKind::Read { .. }, true) => Some(AccessClass::NaRead),
            (LabelKind::Read { .. }, false) => Some(AccessClass::AtomicRead),
            (LabelKind::Write { .. }, true) => Some(AccessClass::NaWrite),
            (LabelKind::Write { .. }, false) => Some(AccessClass::AtomicWrite),
            _ => None,
        }
    }
    /// True for the two read classes.
    pub fn is_read(self) -> bool {
        matches!(self, AccessClass::NaRead | AccessClass::AtomicRead)
    }
}

impl LocInfo {
    fn note_access(&mut self, e: EventId, bytes: u8, class: AccessClass) {
        self.accesses.push(e);
        let t = e.tid as usize;
        if self.by_thread.len() <= t {
            self.by_thread.resize_with(t + 1, Default::default);
        }
        self.by_thread[t][class as usize].push(e.idx);
        if bytes > 0 {
            if self.sized == 0 {
                self.width = bytes;
            }
            self.sized += 1;
        }
    }

    /// The indices of thread `t`'s accesses of class `class` whose index is at least
    /// `from`, in program order: with `from = view.get(t)`, those outside `view`.
    /// O(log n).
    pub fn thread_accesses(&self, t: Tid, class: AccessClass, from: u32) -> &[u32] {
        match self.by_thread.get(t as usize) {
            Some(lists) => {
                let l = &lists[class as usize];
                &l[l.partition_point(|&i| i < from)..]
            }
            None => &[],
        }
    }

    /// One more than the highest tid with an access of the location (0 if none).
    pub fn thread_slots(&self) -> u32 {
        self.by_thread.len() as u32
    }
}

/// What [`Graph::remove_outside`] took out of a graph, for [`Graph::restore`]: the
/// removed events themselves and where each left a list.
#[derive(Debug)]
pub struct Removed {
    /// Per thread slot: the removed suffix of the thread's events, labels as they were
    /// (stamps, co indices and readers lists included).
    events: Vec<Vec<Label>>,
    /// The number of thread slots before the removal.
    slots: usize,
    /// The stamp of the oldest removed event (the order before it did not change).
    from: usize,
    /// The list removals, in the order they were made (undone in reverse).
    log: Vec<Undo>,
    /// The seq_cst fences removed.
    sc_fences: u32,
    /// The `Note::FinalWrite` events removed.
    final_notes: u32,
}

impl Removed {
    /// The number of events removed.
    pub fn len(&self) -> usize {
        self.events.iter().map(Vec::len).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One list removal of [`Graph::remove_outside`].
#[derive(Debug)]
enum Undo {
    /// Read `r` left position `at` of the readers of `w` (`None`: `loc`'s
    /// initialisation).
    Reader {
        loc: Loc,
        w: Option<EventId>,
        at: u32,
        r: EventId,
    },
    /// Kept read `r`'s source `w` was removed: `r` was made to read the
    /// initialisation (appended to its readers; `w` still lists `r`).
    Dangling {
        loc: Loc,
        r: EventId,
        w: EventId,
    },
    /// Write `w` left position `at` of `loc`'s co.
    Co {
        loc: Loc,
        at: u32,
        w: EventId,
    },
    /// Access `e` (`bytes` wide) left position `at` of `loc`'s accesses and the end of
    /// its thread's list of class `class`.
    Access {
        loc: Loc,
        at: u32,
        e: EventId,
        class: AccessClass,
        bytes: u8,
    },
    Malloc {
        base: Loc,
        was: Option<(EventId, u64)>,
    },
    Free {
        base: Loc,
        at: u32,
        e: EventId,
    },
    Join {
        child: Tid,
        at: u32,
        e: EventId,
    },
}

/// What [`Graph::set_rf_undoable`] changed: read `r` read `old`, at position `at` of
/// its readers, with porf view `porf`.
#[derive(Debug)]
pub struct RfUndo {
    r: EventId,
    old: Option<EventId>,
    at: u32,
    porf: View,
}

/// Per dynamically allocated block, keyed by its base address.
#[derive(Clone, Debug, Default)]
pub struct BlockInfo {
    /// The block's `Malloc` event and size, if this graph allocates it.
    pub malloc: Option<(EventId, u64)>,
    /// The block's `Free` events, in insertion order (two or more: a double free).
    pub frees: Vec<EventId>,
    /// The registered locations inside the block (accessed in this graph or not).
    pub locs: Vec<Loc>,
}

#[derive(Clone, Debug, Default)]
pub struct Graph {
    threads: Vec<Chunked<Label>>,
    locs: FastMap<Loc, LocInfo>,
    blocks: FastMap<Loc, BlockInfo>,
    /// Shared between a graph and its copies ([`Graph::restricted`], `clone`):
    /// locations are registered rarely, copies are made per backward revisit.
    loc_order: Arc<BTreeSet<Loc>>,
    order: Vec<EventId>,
    sc_fences: u32,
    final_notes: u32,
    joins: Vec<Vec<EventId>>,
}

impl Graph {
    pub fn new() -> Graph {
        Graph::default()
    }

    /// Number of thread slots (some may be empty, i.e. threads not spawned in this graph).
    pub fn num_threads(&self) -> u32 {
        self.threads.len() as u32
    }
    pub fn thread_exists(&self, t: Tid) -> bool {
        self.threads.get(t as usize).is_some_and(|v| !v.is_empty())
    }
    /// Number of events of thread `t` (0 if it does not exist).
    pub fn thread_len(&self, t: Tid) -> u32 {
        self.threads.get(t as usize).map_or(0, |v| v.len() as u32)
    }
    /// Thread `t`'s events in program order (none if it does not exist).
    pub fn thread(&self, t: Tid) -> &Chunked<Label> {
        static NONE: Chunked<Label> = Chunked::new();
        self.threads.get(t as usize).unwrap_or(&NONE)
    }
    pub fn last_of(&self, t: Tid) -> Option<EventId> {
        let n = self.thread_len(t);
        (n > 0).then(|| EventId::new(t, n - 1))
    }
    pub fn contains(&self, e: EventId) -> bool {
        e.idx < self.thread_len(e.tid)
    }
    #[inline]
    pub fn label(&self, e: EventId) -> &Label {
        &self.threads[e.tid as usize][e.idx as usize]
    }
    #[inline]
    pub fn label_mut(&mut self, e: EventId) -> &mut Label {
        &mut self.threads[e.tid as usize][e.idx as usize]
    }
    /// Number of events.
    pub fn len(&self) -> usize {
        self.order.len()
    }
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
    /// Number of seq_cst fences in the graph (O(1): RC11's incremental psc check
    /// takes its fast path only without them).
    pub fn sc_fences(&self) -> u32 {
        self.sc_fences
    }
    /// Number of seq_cst fences among the first `n` events of thread `t` (O(1): each
    /// label counts those of its po-prefix, a function of the prefix that removing
    /// later events or restricting the graph to a prefix keeps).
    #[inline]
    pub fn sc_fences_before(&self, t: Tid, n: u32) -> u32 {
        match n {
            0 => 0,
            n => self.label(EventId::new(t, n - 1)).sc_fences_upto,
        }
    }

    /// Whether the graph has a `Note::FinalWrite` event (GenMC's final-write
    /// annotation), so that the checks of writes can skip looking for one.
    pub fn has_final_notes(&self) -> bool {
        self.final_notes > 0
    }
    /// The `Join` events waiting for thread `child`, in insertion order.
    pub fn joins_of(&self, child: Tid) -> &[EventId] {
        self.joins.get(child as usize).map_or(&[], |v| v.as_slice())
    }
    /// Events in insertion order (index = stamp).
    pub fn insertion_order(&self) -> &[EventId] {
        &self.order
    }
    /// All events, thread by thread.
    pub fn events(&self) -> impl Iterator<Item = (EventId, &Label)> {
        self.threads.iter().enumerate().flat_map(|(t, evs)| {
            evs.iter()
                .enumerate()
                .map(move |(i, l)| (EventId::new(t as Tid, i as u32), l))
        })
    }

    /// Registers location `loc` with initial value `init`, inside the dynamically
    /// allocated block at `block` if given (no-op if known).
    pub fn ensure_loc(&mut self, loc: Loc, init: Val, block: Option<Loc>) {
        if self.locs.contains_key(&loc) {
            return;
        }
        Arc::make_mut(&mut self.loc_order).insert(loc);
        self.locs.insert(
            loc,
            LocInfo {
                init_val: init,
                block,
                ..LocInfo::default()
            },
        );
        if let Some(b) = block {
            self.blocks.entry(b).or_default().locs.push(loc);
        }
    }
    /// Whether `loc` is registered ([`Graph::ensure_loc`]).
    pub fn knows_loc(&self, loc: Loc) -> bool {
        self.locs.contains_key(&loc)
    }
    pub fn loc_info(&self, loc: Loc) -> &LocInfo {
        &self.locs[&loc]
    }
    /// The registered locations `l` with `lo <= l < hi`, in address order (accessed in
    /// this graph or not), found through an ordered index: O(log n + answer).
    pub fn locs_between(&self, lo: Loc, hi: Loc) -> impl Iterator<Item = (Loc, &LocInfo)> {
        let range = if lo < hi { lo..hi } else { lo..lo };
        self.loc_order
            .range(range)
            .map(move |l| (*l, &self.locs[l]))
    }
    /// What the graph knows of the dynamically allocated block at `base`.
    pub fn block(&self, base: Loc) -> Option<&BlockInfo> {
        self.blocks.get(&base)
    }
    /// Every dynamically allocated block the graph knows, with its base (in no
    /// particular order).
    pub fn blocks(&self) -> impl Iterator<Item = (Loc, &BlockInfo)> + '_ {
        self.blocks.iter().map(|(b, i)| (*b, i))
    }
    /// Every read and write of a location inside the block at `base`.
    pub fn block_accesses(&self, base: Loc) -> impl Iterator<Item = EventId> + '_ {
        self.blocks
            .get(&base)
            .into_iter()
            .flat_map(|b| b.locs.iter())
            .flat_map(|l| self.locs[l].accesses.iter().copied())
    }
    /// The locations some event of this graph accesses. (A location registered by
    /// [`Graph::ensure_loc`] stays registered after truncation; it is not listed here
    /// once no event accesses it.)
    pub fn locations(&self) -> impl Iterator<Item = (&Loc, &LocInfo)> {
        self.locs.iter().filter(|(_, i)| !i.accesses.is_empty())
    }
    /// The writes of `loc` in coherence order (without the initialisation).
    pub fn co(&self, loc: Loc) -> &[EventId] {
        self.locs.get(&loc).map_or(&[], |i| i.co.as_slice())
    }
    /// Position of a write in its location's coherence order: 0 for the initialisation
    /// (`None`), `i + 1` for `co[i]`.
    pub fn co_pos(&self, w: Option<EventId>) -> usize {
        match w {
            None => 0,
            Some(w) => {
                let lab = self.label(w);
                let loc = lab.loc().expect("co_pos of a non-write");
                let i = lab.co_idx as usize;
                assert!(self.co(loc).get(i) == Some(&w), "write {w} not in co");
                i + 1
            }
        }
    }
    /// The co-latest write of `loc` (`None` = the initialisation).
    pub fn co_max(&self, loc: Loc) -> Option<EventId> {
        self.co(loc).last().copied()
    }
    /// The immediate co-successor of `w` (`None` = initialisation) at `loc`.
    pub fn co_next(&self, loc: Loc, w: Option<EventId>) -> Option<EventId> {
        let co = self.co(loc);
        let pos = match w {
            None => 0,
            Some(w) => {
                let i = self.label(w).co_idx as usize;
                assert!(co.get(i) == Some(&w), "write {w} not in co of {loc}");
                i + 1
            }
        };
        co.get(pos).copied()
    }
    /// The value written by `w` (`None` = initialisation of `loc`).
    pub fn write_val(&self, loc: Loc, w: Option<EventId>) -> Val {
        match w {
            None => self.locs[&loc].init_val,
            Some(w) => match self.label(w).kind {
                LabelKind::Write { val, .. } => val,
                _ => panic!("write_val of a non-write"),
            },
        }
    }
    /// The value a read returns.
    pub fn read_val(&self, r: EventId) -> Val {
        match self.label(r).kind {
            LabelKind::Read { loc, rf, .. } => self.write_val(loc, rf),
            _ => panic!("read_val of a non-read"),
        }
    }
    /// Readers of `w` (`None` = initialisation of `loc`).
    pub fn readers(&self, loc: Loc, w: Option<EventId>) -> &[EventId] {
        match w {
            None => &self.locs[&loc].init_readers,
            Some(w) => &self.label(w).readers,
        }
    }
    /// The final value of `loc`: that of its co-latest write.
    pub fn final_val(&self, loc: Loc) -> Val {
        self.write_val(loc, self.co_max(loc))
    }
    /// The value a read of `bytes` bytes at `loc` gets from the co-latest write of the
    /// location (its maximal source), when the location is registered and its accesses
    /// have that width; `None` otherwise.
    pub fn co_latest_val(&self, loc: Loc, bytes: u8) -> Option<Val> {
        let info = self.locs.get(&loc)?;
        (info.sized == 0 || info.width == bytes).then(|| self.final_val(loc))
    }

    /// Appends an event to thread `tid` (creating the thread if `kind` is `Start`).
    /// A read is linked to its `rf`; a write is *not* placed in co yet: call
    /// [`Graph::co_insert`] next. The event's porf view is computed here; its hb view
    /// is left empty for the memory model to fill in.
    pub fn add(&mut self, tid: Tid, kind: LabelKind, src: SrcLoc) -> EventId {
        let t = tid as usize;
        if self.threads.len() <= t {
            self.threads.resize_with(t + 1, Chunked::new);
        }
        let idx = self.threads[t].len() as u32;
        debug_assert_eq!(idx == 0, matches!(kind, LabelKind::Start { .. }));
        let e = EventId::new(tid, idx);
        let mut porf = match e.prev() {
            Some(p) => self.label(p).porf.clone(),
            None => View::new(),
        };
        porf.include(e);
        match &kind {
            LabelKind::Start { parent: Some(p) } => porf.join(&self.label(*p).porf),
            LabelKind::Read { loc, rf, bytes, .. } => {
                if let Some(w) = rf {
                    porf.join(&self.label(*w).porf);
                }
                self.link_reader(*loc, *rf, e);
                let class = if ord_is_na(&kind) {
                    AccessClass::NaRead
                } else {
                    AccessClass::AtomicRead
                };
                self.locs
                    .get_mut(loc)
                    .expect("unknown location")
                    .note_access(e, *bytes, class);
            }
            LabelKind::Write { loc, bytes, .. } => {
                let class = if ord_is_na(&kind) {
                    AccessClass::NaWrite
                } else {
                    AccessClass::AtomicWrite
                };
                self.locs
                    .get_mut(loc)
                    .expect("unknown location")
                    .note_access(e, *bytes, class);
            }
            LabelKind::Join { child } => {
                let fin = self.last_of(*child).expect("join of a missing thread");
                porf.join(&self.label(fin).porf);
                let c = *child as usize;
                if self.joins.len() <= c {
                    self.joins.resize_with(c + 1, Vec::new);
                }
                self.joins[c].push(e);
            }
            LabelKind::Malloc { base, size, .. } => {
                let b = self.blocks.entry(*base).or_default();
                debug_assert!(b.malloc.is_none(), "block {base} allocated twice");
                b.malloc = Some((e, *size));
            }
            LabelKind::Free { base, .. } => self.blocks.entry(*base).or_default().frees.push(e),
            _ => {}
        }
        if let Some(v) = self.symmetric_porf(e, &kind) {
            porf.join(&v);
        }
        let sc_fence = is_sc_fence(&kind);
        if sc_fence {
            self.sc_fences += 1;
        }
        if is_final_note(&kind) {
            self.final_notes += 1;
        }
        let sc_fences_upto = self.sc_fences_before(tid, idx) + sc_fence as u32;
        let stamp = self.order.len() as u32;
        self.order.push(e);
        self.threads[t].push(Label {
            kind,
            stamp,
            added_max: true,
            revisitable: true,
            porf,
            hb: View::new(),
            readers: Vec::new(),
            src,
            co_idx: 0,
            sc_fences_upto,
            hw: None,
        });
        e
    }

    /// Attaches the hardware facts of event `e` ([`crate::hw`]; its dependencies as
    /// `idx` of po-earlier dependency sources of `e`'s thread, [`Label::is_dep_source`]).
    pub fn set_hw(&mut self, e: EventId, hw: Option<crate::hw::Hw>) {
        debug_assert!(hw.as_ref().is_none_or(|h| {
            let deps = &h.deps;
            [&deps.addr, &deps.data, &deps.ctrl].iter().all(|s| {
                s.windows(2).all(|w| w[0] < w[1])
                    && s.iter()
                        .all(|&i| i < e.idx && self.label(EventId::new(e.tid, i)).is_dep_source())
            })
        }));
        self.label_mut(e).hw = hw.map(Box::new);
    }

    fn link_reader(&mut self, loc: Loc, w: Option<EventId>, r: EventId) {
        match w {
            None => self.locs.get_mut(&loc).unwrap().init_readers.push(r),
            Some(w) => self.label_mut(w).readers.push(r),
        }
    }
    fn unlink_reader(&mut self, loc: Loc, w: Option<EventId>, r: EventId) {
        let list = match w {
            None => &mut self.locs.get_mut(&loc).unwrap().init_readers,
            Some(w) => &mut self.threads[w.tid as usize][w.idx as usize].readers,
        };
        // Readers leave newest first (truncation), so `r` is usually the last one;
        // the order of the others is kept.
        if let Some(i) = list.iter().rposition(|&x| x == r) {
            list.remove(i);
        }
    }

    /// Places write `w` at position `pos` of its location's co (1 = just after the
    /// initialisation, `co.len() + 1` = last). `w` must not be in co yet.
    pub fn co_insert(&mut self, w: EventId, pos: usize) {
        let loc = self.label(w).loc().unwrap();
        let co = &mut self.locs.get_mut(&loc).unwrap().co;
        debug_assert!(!co.contains(&w));
        co.insert(pos - 1, w);
        Self::renumber_co(&mut self.threads, co, pos - 1);
    }
    /// Restores `co_idx` of `co[from..]`.
    fn renumber_co(threads: &mut [Chunked<Label>], co: &[EventId], from: usize) {
        for (i, w) in co.iter().enumerate().skip(from) {
            threads[w.tid as usize][w.idx as usize].co_idx = i as u32;
        }
    }
    /// Removes `w` from `co` (if there) and renumbers the writes after it.
    fn remove_from_co(threads: &mut [Chunked<Label>], co: &mut Vec<EventId>, w: EventId) {
        let i = threads[w.tid as usize][w.idx as usize].co_idx as usize;
        if co.get(i) == Some(&w) {
            co.remove(i);
            Self::renumber_co(threads, co, i);
        }
    }
    /// Replaces the coherence order of `loc` by `order`, which must list every write of
    /// `loc` in the graph exactly once (rf mode installs a model's witness this way).
    pub fn set_co(&mut self, loc: Loc, order: Vec<EventId>) {
        let info = self.locs.get_mut(&loc).expect("unknown location");
        debug_assert_eq!(info.co.len(), order.len(), "set_co must keep the writes");
        info.co = order;
        Self::renumber_co(&mut self.threads, &info.co, 0);
    }
    /// Removes `w` from its location's co.
    pub fn co_remove(&mut self, w: EventId) {
        let loc = self.label(w).loc().unwrap();
        let co = &mut self.locs.get_mut(&loc).unwrap().co;
        Self::remove_from_co(&mut self.threads, co, w);
    }

    /// Makes read `r` read from `w` and recomputes its porf view. Only valid when no
    /// other event has `r` in its porf-prefix (r is porf-maximal).
    pub fn set_rf(&mut self, r: EventId, w: Option<EventId>) {
        let (loc, old) = match self.label(r).kind {
            LabelKind::Read { loc, rf, .. } => (loc, rf),
            _ => panic!("set_rf on a non-read"),
        };
        self.unlink_reader(loc, old, r);
        self.link_reader(loc, w, r);
        let mut porf = match r.prev() {
            Some(p) => self.label(p).porf.clone(),
            None => View::new(),
        };
        porf.include(r);
        if let Some(w) = w {
            porf.join(&self.label(w).porf);
        }
        if let Some(v) = self.symmetric_porf(r, &self.label(r).kind) {
            porf.join(&v);
        }
        let lab = self.label_mut(r);
        if let LabelKind::Read { rf, .. } = &mut lab.kind {
            *rf = w;
        }
        lab.porf = porf;
    }

    /// Makes read `r` read from `w` (`None`: the initialisation) where `w` may be
    /// po- or porf-after `r`: for graphs built whole (test generators of hardware
    /// graphs with load buffering, a po ∪ rf cycle), whose reads are added reading
    /// anything and given their sources once every event is there. Only the rf link
    /// and the readers lists change: no porf view is recomputed, so in a graph built
    /// this way the porf views mean nothing (no model that allows load buffering
    /// reads them). Explorers use [`Graph::set_rf`].
    pub fn set_rf_unordered(&mut self, r: EventId, w: Option<EventId>) {
        let (loc, old) = match self.label(r).kind {
            LabelKind::Read { loc, rf, .. } => (loc, rf),
            _ => panic!("set_rf_unordered on a non-read"),
        };
        self.unlink_reader(loc, old, r);
        self.link_reader(loc, w, r);
        if let LabelKind::Read { rf, .. } = &mut self.label_mut(r).kind {
            *rf = w;
        }
    }

    /// [`Graph::set_rf`], returning what [`Graph::unset_rf`] needs to undo it exactly
    /// (the read's place in its old source's readers and its old porf view).
    pub fn set_rf_undoable(&mut self, r: EventId, w: Option<EventId>) -> RfUndo {
        let (loc, old) = match self.label(r).kind {
            LabelKind::Read { loc, rf, .. } => (loc, rf),
            _ => panic!("set_rf on a non-read"),
        };
        let at = self
            .readers(loc, old)
            .iter()
            .rposition(|&x| x == r)
            .expect("a read is listed by its source") as u32;
        let porf = self.label(r).porf.clone();
        self.set_rf(r, w);
        RfUndo { r, old, at, porf }
    }

    /// Undoes [`Graph::set_rf_undoable`]: the read reads its old source again, at its
    /// old place among that source's readers, with its old porf view. The read must
    /// read what `set_rf_undoable` gave it, and be its source's newest reader.
    pub fn unset_rf(&mut self, u: RfUndo) {
        let RfUndo { r, old, at, porf } = u;
        let LabelKind::Read { loc, rf, .. } = self.label(r).kind else {
            panic!("unset_rf on a non-read")
        };
        self.unlink_reader(loc, rf, r);
        self.reader_list(loc, old).insert(at as usize, r);
        let lab = self.label_mut(r);
        if let LabelKind::Read { rf, .. } = &mut lab.kind {
            *rf = old;
        }
        lab.porf = porf;
    }

    /// The readers of `w` (`None`: the initialisation of `loc`), to change.
    fn reader_list(&mut self, loc: Loc, w: Option<EventId>) -> &mut Vec<EventId> {
        match w {
            None => &mut self.locs.get_mut(&loc).unwrap().init_readers,
            Some(w) => &mut self.threads[w.tid as usize][w.idx as usize].readers,
        }
    }

    /// Removes the most recently added event, which must be the last of its thread.
    pub fn pop_last(&mut self) {
        let e = self.order.pop().expect("pop_last on an empty graph");
        let t = e.tid as usize;
        debug_assert_eq!(self.threads[t].len() as u32, e.idx + 1);
        if let LabelKind::Write { loc, .. } = self.threads[t].last().unwrap().kind {
            let co = &mut self.locs.get_mut(&loc).unwrap().co;
            Self::remove_from_co(&mut self.threads, co, e);
        }
        let lab = self.threads[t].pop().unwrap();
        if is_sc_fence(&lab.kind) {
            self.sc_fences -= 1;
        }
        if is_final_note(&lab.kind) {
            self.final_notes -= 1;
        }
        match lab.kind {
            LabelKind::Read { loc, rf, bytes, .. } => {
                self.unlink_reader(loc, rf, e);
                self.pop_access(loc, e, bytes);
            }
            LabelKind::Write { loc, bytes, .. } => self.pop_access(loc, e, bytes),
            LabelKind::Malloc { base, .. } => {
                if let Some(b) = self.blocks.get_mut(&base) {
                    b.malloc = None;
                }
            }
            LabelKind::Free { base, .. } => {
                if let Some(b) = self.blocks.get_mut(&base) {
                    if let Some(i) = b.frees.iter().rposition(|&x| x == e) {
                        b.frees.remove(i);
                    }
                }
            }
            LabelKind::Join { child } => {
                let js = &mut self.joins[child as usize];
                if let Some(i) = js.iter().rposition(|&x| x == e) {
                    js.remove(i);
                }
            }
            _ => {}
        }
        while self.threads.last().is_some_and(|v| v.is_empty()) {
            self.threads.pop();
        }
    }
    fn pop_access(&mut self, loc: Loc, e: EventId, bytes: u8) {
        let info = self.locs.get_mut(&loc).unwrap();
        if let Some(i) = info.accesses.iter().rposition(|&x| x == e) {
            info.accesses.remove(i);
            if bytes > 0 {
                info.sized -= 1;
            }
        }
        // `e` is its thread's newest event: the last entry of one of its lists.
        if let Some(lists) = info.by_thread.get_mut(e.tid as usize) {
            if let Some(l) = lists.iter_mut().find(|l| l.last() == Some(&e.idx)) {
                l.pop();
            }
        }
    }

    /// Removes every event with stamp `>= stamp`, newest first. Costs O(what is removed).
    pub fn truncate(&mut self, stamp: usize) {
        while self.order.len() > stamp {
            self.pop_last();
        }
    }

    /// Restricts the graph in place to the events in `keep` (under the same conditions
    /// as [`Graph::restricted`], with the same result), returning what was removed for
    /// [`Graph::restore`] to put back. The removed events are moved out, not copied,
    /// and each list they leave is logged by position, so the record costs memory in
    /// proportion to what was removed: a chain of nested restrictions (backward
    /// revisits inside backward revisits) holds every event once, in the graph or in
    /// one record. Time: O(events added after the oldest removed one), plus the
    /// lengths of the co lists that lose writes.
    pub fn remove_outside(&mut self, keep: &View) -> Removed {
        let n: Vec<u32> = (0..self.num_threads())
            .map(|t| keep.get(t).min(self.thread_len(t)))
            .collect();
        let gone = |e: EventId| e.idx >= n[e.tid as usize];
        let from = (0..self.num_threads())
            .filter(|&t| n[t as usize] < self.thread_len(t))
            .map(|t| self.threads[t as usize][n[t as usize] as usize].stamp as usize)
            .min()
            .unwrap_or(self.order.len());
        let mut log = Vec::new();
        let mut sc = 0;
        let mut fin = 0;
        for s in (from..self.order.len()).rev() {
            let e = self.order[s];
            if !gone(e) {
                continue;
            }
            let lab = self.label(e);
            match lab.kind {
                LabelKind::Read { loc, rf, .. } => {
                    if rf.is_none_or(|w| !gone(w)) {
                        let list = self.reader_list(loc, rf);
                        let at = list.iter().rposition(|&x| x == e).expect("linked read");
                        list.remove(at);
                        log.push(Undo::Reader {
                            loc,
                            w: rf,
                            at: at as u32,
                            r: e,
                        });
                    }
                    self.take_access(loc, e, &mut log);
                }
                LabelKind::Write { loc, .. } => {
                    let kept: Vec<EventId> =
                        lab.readers.iter().copied().filter(|&r| !gone(r)).collect();
                    for r in kept {
                        if let LabelKind::Read { rf, .. } = &mut self.label_mut(r).kind {
                            *rf = None;
                        }
                        self.reader_list(loc, None).push(r);
                        log.push(Undo::Dangling { loc, r, w: e });
                    }
                    let i = self.label(e).co_idx as usize;
                    let info = self.locs.get_mut(&loc).unwrap();
                    if info.co.get(i) == Some(&e) {
                        info.co.remove(i);
                        Self::renumber_co(&mut self.threads, &info.co, i);
                        log.push(Undo::Co {
                            loc,
                            at: i as u32,
                            w: e,
                        });
                    }
                    self.take_access(loc, e, &mut log);
                }
                LabelKind::Malloc { base, .. } => {
                    if let Some(b) = self.blocks.get_mut(&base) {
                        log.push(Undo::Malloc {
                            base,
                            was: b.malloc.take(),
                        });
                    }
                }
                LabelKind::Free { base, .. } => {
                    if let Some(b) = self.blocks.get_mut(&base) {
                        if let Some(at) = b.frees.iter().rposition(|&x| x == e) {
                            b.frees.remove(at);
                            log.push(Undo::Free {
                                base,
                                at: at as u32,
                                e,
                            });
                        }
                    }
                }
                LabelKind::Join { child } => {
                    let js = &mut self.joins[child as usize];
                    if let Some(at) = js.iter().rposition(|&x| x == e) {
                        js.remove(at);
                        log.push(Undo::Join {
                            child,
                            at: at as u32,
                            e,
                        });
                    }
                }
                ref k if is_sc_fence(k) => sc += 1,
                ref k if is_final_note(k) => fin += 1,
                _ => {}
            }
        }
        // The order without the removed events, kept events renumbered.
        let mut next = from;
        for s in from..self.order.len() {
            let e = self.order[s];
            if !gone(e) {
                self.order[next] = e;
                self.threads[e.tid as usize][e.idx as usize].stamp = next as u32;
                next += 1;
            }
        }
        self.order.truncate(next);
        self.sc_fences -= sc;
        self.final_notes -= fin;
        let slots = self.threads.len();
        let events = self
            .threads
            .iter_mut()
            .zip(&n)
            .map(|(evs, &k)| evs.split_off(k as usize))
            .collect();
        while self.threads.last().is_some_and(|v| v.is_empty()) {
            self.threads.pop();
        }
        Removed {
            events,
            slots,
            from,
            log,
            sc_fences: sc,
            final_notes: fin,
        }
    }

    /// Takes access `e` out of its location's lists, logging where it was.
    fn take_access(&mut self, loc: Loc, e: EventId, log: &mut Vec<Undo>) {
        let bytes = self.label(e).bytes().unwrap_or(0);
        let info = self.locs.get_mut(&loc).unwrap();
        let Some(at) = info.accesses.iter().rposition(|&x| x == e) else {
            return;
        };
        info.accesses.remove(at);
        if bytes > 0 {
            info.sized -= 1;
        }
        // Events leave their thread newest first: `e` ends one of its thread's lists.
        let lists = &mut info.by_thread[e.tid as usize];
        let class = AccessClass::ALL
            .into_iter()
            .find(|&c| lists[c as usize].last() == Some(&e.idx))
            .expect("an access is in its thread's index");
        lists[class as usize].pop();
        log.push(Undo::Access {
            loc,
            at: at as u32,
            e,
            class,
            bytes,
        });
    }

    /// Puts back what [`Graph::remove_outside`] removed. The graph must have the
    /// events it had right after that call, with the same rf and co (events added
    /// since removed again, sources and co lists changed since changed back); it then
    /// is the graph as it was before the call, lists in the same order.
    pub fn restore(&mut self, rm: Removed) {
        let Removed {
            events,
            slots,
            from,
            log,
            sc_fences,
            final_notes,
        } = rm;
        if self.threads.len() < slots {
            self.threads.resize_with(slots, Chunked::new);
        }
        let mut back: Vec<(u32, EventId)> = Vec::new();
        for (t, evs) in events.into_iter().enumerate() {
            let n = self.threads[t].len() as u32;
            back.extend(
                evs.iter()
                    .enumerate()
                    .map(|(i, l)| (l.stamp, EventId::new(t as Tid, n + i as u32))),
            );
            self.threads[t].extend(evs);
        }
        back.sort_unstable();
        // The removed events at their old stamps; the kept ones fill the gaps in their
        // order.
        let kept = self.order.split_off(from);
        let mut kept = kept.into_iter();
        let mut back = back.into_iter().peekable();
        let total = from + kept.len() + back.len();
        for s in from..total {
            let e = match back.peek() {
                Some(&(stamp, e)) if stamp as usize == s => {
                    back.next();
                    e
                }
                _ => {
                    let e = kept.next().expect("stamps of the removed events");
                    self.label_mut(e).stamp = s as u32;
                    e
                }
            };
            self.order.push(e);
        }
        for u in log.into_iter().rev() {
            match u {
                Undo::Reader { loc, w, at, r } => {
                    self.reader_list(loc, w).insert(at as usize, r);
                }
                Undo::Dangling { loc, r, w } => {
                    let list = self.reader_list(loc, None);
                    if let Some(i) = list.iter().rposition(|&x| x == r) {
                        list.remove(i);
                    }
                    if let LabelKind::Read { rf, .. } = &mut self.label_mut(r).kind {
                        *rf = Some(w);
                    }
                }
                Undo::Co { loc, at, w } => {
                    let co = &mut self.locs.get_mut(&loc).unwrap().co;
                    co.insert(at as usize, w);
                    Self::renumber_co(&mut self.threads, co, at as usize);
                }
                Undo::Access {
                    loc,
                    at,
                    e,
                    class,
                    bytes,
                } => {
                    let info = self.locs.get_mut(&loc).unwrap();
                    info.accesses.insert(at as usize, e);
                    info.by_thread[e.tid as usize][class as usize].push(e.idx);
                    if bytes > 0 {
                        if info.sized == 0 {
                            info.width = bytes;
                        }
                        info.sized += 1;
                    }
                }
                Undo::Malloc { base, was } => {
                    self.blocks.entry(base).or_default().malloc = was;
                }
                Undo::Free { base, at, e } => {
                    self.blocks
                        .entry(base)
                        .or_default()
                        .frees
                        .insert(at as usize, e);
                }
                Undo::Join { child, at, e } => {
                    self.joins[child as usize].insert(at as usize, e);
                }
            }
        }
        self.sc_fences += sc_fences;
        self.final_notes += final_notes;
    }

    /// A copy of the graph restricted to the events in `keep` (which must be closed
    /// under porf-predecessors, except that a kept read may read from a write that is
    /// not kept: it is then left reading from the initialisation, for the caller — a
    /// backward revisit of that very read — to give it its new source), with the
    /// insertion order preserved and stamps renumbered.
    pub fn restricted(&self, keep: &View) -> Graph {
        let mut g = Graph {
            threads: Vec::with_capacity(self.threads.len()),
            locs: FastMap::default(),
            blocks: FastMap::default(),
            loc_order: Arc::clone(&self.loc_order),
            order: Vec::with_capacity(self.order.len()),
            sc_fences: 0,
            final_notes: 0,
            joins: self
                .joins
                .iter()
                .map(|js| js.iter().copied().filter(|j| keep.contains(*j)).collect())
                .collect(),
        };
        for (t, evs) in self.threads.iter().enumerate() {
            let n = keep.get(t as Tid).min(evs.len() as u32) as usize;
            g.threads.push(evs.prefix(n));
        }
        while g.threads.last().is_some_and(|v| v.is_empty()) {
            g.threads.pop();
        }
        for &e in &self.order {
            if keep.contains(e) && g.contains(e) {
                if is_sc_fence(&g.label(e).kind) {
                    g.sc_fences += 1;
                }
                if is_final_note(&g.label(e).kind) {
                    g.final_notes += 1;
                }
                let s = g.order.len() as u32;
                g.label_mut(e).stamp = s;
                g.order.push(e);
            }
        }
        let mut dangling = Vec::new();
        for (t, evs) in g.threads.iter_mut().enumerate() {
            for (i, lab) in evs.iter_mut().enumerate() {
                if !lab.readers.is_empty() {
                    lab.readers.retain(|r| keep.contains(*r));
                }
                if let LabelKind::Read { rf, loc, .. } = &mut lab.kind {
                    if rf.is_some_and(|w| !keep.contains(w)) {
                        *rf = None;
                        dangling.push((*loc, EventId::new(t as Tid, i as u32)));
                    }
                }
            }
        }
        // Copies of the maps (no rehashing), then filtered in place: a location or
        // block none of whose events was dropped keeps its lists as they are.
        let mut locs = self.locs.clone();
        for info in locs.values_mut() {
            let before = (info.co.len(), info.accesses.len());
            info.co.retain(|w| keep.contains(*w));
            info.init_readers.retain(|r| keep.contains(*r));
            info.accesses.retain(|r| keep.contains(*r));
            if info.accesses.len() != before.1 {
                let mut widths = info
                    .accesses
                    .iter()
                    .map(|&e| g.label(e).bytes().unwrap_or(0))
                    .filter(|&b| b > 0);
                info.width = widths.next().unwrap_or(0);
                info.sized = u32::from(info.width > 0) + widths.count() as u32;
            }
            if info.co.len() != before.0 {
                Self::renumber_co(&mut g.threads, &info.co, 0);
            }
            for (t, lists) in info.by_thread.iter_mut().enumerate() {
                let n = keep.get(t as Tid).min(g.thread_len(t as Tid));
                for l in lists.iter_mut() {
                    l.truncate(l.partition_point(|&i| i < n));
                }
            }
        }
        for (loc, r) in dangling {
            locs.get_mut(&loc).unwrap().init_readers.push(r);
        }
        g.locs = locs;
        let mut blocks = self.blocks.clone();
        for b in blocks.values_mut() {
            b.malloc = b.malloc.filter(|(e, _)| keep.contains(*e));
            b.frees.retain(|f| keep.contains(*f));
        }
        g.blocks = blocks;
        g
    }
}

/// Whether a read's or write's order is non-atomic.
fn ord_is_na(kind: &LabelKind) -> bool {
    matches!(kind, LabelKind::Read { ord, .. } | LabelKind::Write { ord, .. } if !ord.is_atomic())
}

fn is_sc_fence(kind: &LabelKind) -> bool {
    matches!(kind, LabelKind::Fence { ord } if ord.is_sc())
}

fn is_final_note(kind: &LabelKind) -> bool {
    matches!(
        kind,
        LabelKind::Note {
            note: crate::label::Note::FinalWrite { .. }
        }
    )
}

impl std::fmt::Display for Graph {
    /// One line per event (`tid.idx [stamp] kind`), then co per location.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (e, lab) in self.events() {
            let flags = format!(
                "{}{}",
                if lab.added_max { "" } else { " !max" },
                if lab.revisitable { "" } else { " !rev" }
            );
            let k = match &lab.kind {
                LabelKind::Read {
                    loc, ord, kind, rf, ..
                } => {
                    let src = rf.map_or("init".to_string(), |w| w.to_string());
                    format!(
                        "R{kind:?} {loc} {} <- {src} = {}",
                        ord.short(),
                        self.read_val(e)
                    )
                }
                LabelKind::Write {
                    loc,
                    ord,
                    val,
                    kind,
                    ..
                } => {
                    format!("W{kind:?} {loc} {} := {val}", ord.short())
                }
                other => format!("{other:?}"),
            };
            writeln!(f, "{}.{} [{}] {k}{flags}", e.tid, e.idx, lab.stamp)?;
        }
        let mut locs: Vec<_> = self.locs.iter().collect();
        locs.sort_by_key(|(l, _)| **l);
        for (l, i) in locs {
            let co: Vec<String> = i.co.iter().map(|w| w.to_string()).collect();
            writeln!(f, "co {l}: init {}", co.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{MemOrder, ReadKind, WriteKind};

    const X: Loc = Loc(1);

    fn write(g: &mut Graph, t: Tid, val: Val, pos: usize) -> EventId {
        let w = g.add(
            t,
            LabelKind::Write {
                loc: X,
                bytes: 8,
                ord: MemOrder::Relaxed,
                val,
                kind: WriteKind::Plain,
            },
            SrcLoc::UNKNOWN,
        );
        g.co_insert(w, pos);
        w
    }
    fn read(g: &mut Graph, t: Tid, rf: Option<EventId>) -> EventId {
        g.add(
            t,
            LabelKind::Read {
                loc: X,
                bytes: 8,
                ord: MemOrder::Relaxed,
                kind: ReadKind::Plain,
                rf,
            },
            SrcLoc::UNKNOWN,
        )
    }

    fn two_threads() -> Graph {
        let mut g = Graph::new();
        g.ensure_loc(X, 7, None);
        g.add(0, LabelKind::Start { parent: None }, SrcLoc::UNKNOWN);
        let s = g.add(
            0,
            LabelKind::Spawn {
                child: 1,
                entry: 0,
                arg: 0,
                symm: None,
            },
            SrcLoc::UNKNOWN,
        );
        g.add(1, LabelKind::Start { parent: Some(s) }, SrcLoc::UNKNOWN);
        g
    }

    #[test]
    fn add_read_write_and_truncate() {
        let mut g = two_threads();
        let w = write(&mut g, 1, 3, 1);
        let r = read(&mut g, 0, Some(w));
        assert_eq!(g.read_val(r), 3);
        assert!(g.label(r).porf.contains(w));
        assert_eq!(g.readers(X, Some(w)), &[r]);
        g.set_rf(r, None);
        assert_eq!(g.read_val(r), 7);
        assert!(!g.label(r).porf.contains(w));
        g.truncate(3);
        assert_eq!(g.len(), 3);
        assert!(g.co(X).is_empty());
        assert!(g.loc_info(X).init_readers.is_empty());
    }

    /// The per-thread seq_cst fence counts follow every prefix: other fences and
    /// accesses do not count, truncation and restriction keep the kept prefix's.
    #[test]
    fn sc_fences_before_counts_each_thread_prefix() {
        let mut g = two_threads();
        let fence = |g: &mut Graph, t, ord| g.add(t, LabelKind::Fence { ord }, SrcLoc::UNKNOWN);
        fence(&mut g, 1, MemOrder::SeqCst);
        write(&mut g, 1, 1, 1);
        fence(&mut g, 1, MemOrder::AcqRel);
        let stamp = g.len();
        fence(&mut g, 1, MemOrder::SeqCst);
        fence(&mut g, 0, MemOrder::SeqCst);
        let counts = |g: &Graph, t| -> Vec<u32> {
            (0..=g.thread_len(t))
                .map(|n| g.sc_fences_before(t, n))
                .collect()
        };
        assert_eq!(counts(&g, 1), vec![0, 0, 1, 1, 1, 2]);
        assert_eq!(counts(&g, 0), vec![0, 0, 0, 1]);
        let mut keep = View::new();
        keep.set(0, 2);
        keep.set(1, 3);
        let r = g.restricted(&keep);
        assert_eq!(counts(&r, 1), vec![0, 0, 1, 1]);
        assert_eq!(r.sc_fences(), 1);
        g.truncate(stamp);
        assert_eq!(counts(&g, 1), vec![0, 0, 1, 1, 1]);
        assert_eq!(g.sc_fences(), 1);
    }

    #[test]
    fn co_positions() {
        let mut g = two_threads();
        let a = write(&mut g, 1, 1, 1);
        let b = write(&mut g, 0, 2, 1);
        assert_eq!(g.co(X), &[b, a]);
        assert_eq!(g.co_pos(Some(a)), 2);
        assert_eq!(g.co_next(X, None), Some(b));
        assert_eq!(g.final_val(X), 1);
    }

    #[test]
    fn location_index_and_widths() {
        let mut g = two_threads();
        for l in [9, 2, 5] {
            g.ensure_loc(Loc(l), 0, None);
        }
        let between: Vec<Loc> = g.locs_between(Loc(2), Loc(9)).map(|(l, _)| l).collect();
        assert_eq!(between, vec![Loc(2), Loc(5)]);
        assert_eq!(g.locs_between(Loc(9), Loc(2)).count(), 0);
        // X = 1 holds 8-byte accesses: the oldest fixes the width until it is removed.
        let stamp = g.len();
        let w = write(&mut g, 1, 3, 1);
        read(&mut g, 0, Some(w));
        assert_eq!((g.loc_info(X).sized, g.loc_info(X).width), (2, 8));
        g.truncate(stamp);
        assert_eq!(g.loc_info(X).sized, 0);
        let w = write(&mut g, 1, 3, 1);
        let h = g.restricted(&View::new());
        assert_eq!(h.loc_info(X).sized, 0);
        assert_eq!(h.locs_between(Loc(0), Loc(10)).count(), 4);
        let mut keep = View::new();
        keep.include(w);
        assert_eq!(g.restricted(&keep).loc_info(X).sized, 1);
    }

    #[test]
    fn restriction_keeps_order_and_renumbers() {
        let mut g = two_threads();
        let w1 = write(&mut g, 1, 1, 1);
        let r = read(&mut g, 0, Some(w1));
        let _w2 = write(&mut g, 1, 2, 2);
        let mut keep = View::new();
        keep.include(r);
        keep.include(w1);
        let h = g.restricted(&keep);
        assert_eq!(h.len(), 5);
        assert_eq!(h.co(X), &[w1]);
        assert_eq!(h.label(r).stamp, 4);
        assert_eq!(h.readers(X, Some(w1)), &[r]);
    }
}
