//! The VerifySC instance of a graph: its events numbered densely, each classified by
//! what it means for a witness trace.
//!
//! Invariants: ids are dense, thread by thread in po order (`first[t]..first[t] +
//! len[t]` are thread `t`'s events); locations are dense (`0..locs.len()`, sorted by
//! [`Loc`]); a read's `src` is a write of the same location, or `None` for the
//! initialisation; `readers[l][0]` lists the reads of location `l`'s initialisation and
//! `Write::readers` those of a write. The `co` lists stored in the graph are never read.

use porf_graph::{EventId, Graph, LabelKind, Loc};

/// A dense event id.
pub(super) type Id = u32;

/// What an event means for a trace.
#[derive(Clone, Debug)]
pub(super) enum Ev {
    /// Constrains the order only through po and sync (start, spawn, join, finish,
    /// fence, block, error, malloc, free).
    Other,
    /// A read of location `loc` that must see `src` (`None` = the initialisation). If
    /// `rmw`, its po-successor is its exclusive write part, which must follow it
    /// immediately in the trace.
    Read {
        loc: u32,
        src: Option<Id>,
        rmw: bool,
    },
    /// A write of location `loc`; `exclusive` for the write part of an RMW (or lock
    /// acquire), which only ever enters a trace together with its read part.
    Write {
        loc: u32,
        exclusive: bool,
        readers: Vec<Id>,
    },
}

/// A graph seen as a VerifySC instance.
pub(super) struct Instance {
    /// Thread id → its first dense id.
    pub first: Vec<Id>,
    /// Thread id → its number of events.
    pub len: Vec<u32>,
    /// Dense id → event.
    pub events: Vec<EventId>,
    /// Dense id → class.
    pub ev: Vec<Ev>,
    /// Dense location → location.
    pub locs: Vec<Loc>,
    /// Dense location → the reads of its initialisation.
    pub init_readers: Vec<Vec<Id>>,
    /// Dense location → its writes.
    pub writes: Vec<Vec<Id>>,
    /// Sync edges (spawn → child's start, child's last event → join) as (from, to).
    pub sync: Vec<(Id, Id)>,
}

impl Instance {
    pub fn new(g: &Graph) -> Instance {
        let k = g.num_threads() as usize;
        let mut first = Vec::with_capacity(k);
        let mut len = Vec::with_capacity(k);
        let mut events = Vec::with_capacity(g.len());
        for t in 0..g.num_threads() {
            first.push(events.len() as Id);
            len.push(g.thread_len(t));
            events.extend((0..g.thread_len(t)).map(|i| EventId::new(t, i)));
        }
        let mut locs: Vec<Loc> = g.locations().map(|(l, _)| *l).collect();
        locs.sort();
        let mut inst = Instance {
            first,
            len,
            events,
            ev: Vec::new(),
            init_readers: vec![Vec::new(); locs.len()],
            writes: vec![Vec::new(); locs.len()],
            locs,
            sync: Vec::new(),
        };
        let loc_of = |inst: &Instance, l: Loc| {
            inst.locs
                .binary_search(&l)
                .expect("access of an unlisted location") as u32
        };
        let mut ev = Vec::with_capacity(inst.events.len());
        for (i, &e) in inst.events.iter().enumerate() {
            let i = i as Id;
            let lab = g.label(e);
            ev.push(match lab.kind {
                LabelKind::Read { loc, rf, .. } => {
                    let l = loc_of(&inst, loc);
                    if rf.is_none() {
                        inst.init_readers[l as usize].push(i);
                    }
                    Ev::Read {
                        loc: l,
                        src: rf.map(|w| inst.id(w)),
                        rmw: crate::atomicity::has_write_part(g, e),
                    }
                }
                LabelKind::Write { loc, .. } => {
                    let l = loc_of(&inst, loc);
                    inst.writes[l as usize].push(i);
                    Ev::Write {
                        loc: l,
                        exclusive: lab.is_exclusive_write(),
                        readers: lab.readers.iter().map(|&r| inst.id(r)).collect(),
                    }
                }
                LabelKind::Start { parent: Some(p) } => {
                    inst.sync.push((inst.id(p), i));
                    Ev::Other
                }
                LabelKind::Join { child } => {
                    if let Some(fin) = g.last_of(child) {
                        inst.sync.push((inst.id(fin), i));
                    }
                    Ev::Other
                }
                _ => Ev::Other,
            });
        }
        inst.ev = ev;
        inst
    }
    /// Number of events.
    pub fn n(&self) -> usize {
        self.events.len()
    }
    /// Number of thread slots.
    pub fn k(&self) -> usize {
        self.len.len()
    }
    /// The dense id of `e`.
    pub fn id(&self, e: EventId) -> Id {
        self.first[e.tid as usize] + e.idx
    }
    /// The dense id of the `idx`-th event of thread `t`.
    pub fn at(&self, t: usize, idx: u32) -> Id {
        self.first[t] + idx
    }
    /// The reads that must see `src` at location `loc`.
    pub fn readers_of(&self, loc: u32, src: Option<Id>) -> &[Id] {
        match src {
            None => &self.init_readers[loc as usize],
            Some(w) => match &self.ev[w as usize] {
                Ev::Write { readers, .. } => readers,
                _ => unreachable!("a read's source is a write"),
            },
        }
    }
}
