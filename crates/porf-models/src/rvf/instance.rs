//! A VerifySC-rvf instance ([`Instance`]) and its dense compiled form ([`Compiled`]).
//!
//! Invariants of a well-formed instance (checked by [`Compiled::new`], which returns
//! `None` otherwise): a thread's events are listed in po order; a spawned thread's
//! first event is spawned by exactly one `Spawn` event; an `exclusive` write directly
//! follows (in po) a read of the same location, its read part; good writes are writes
//! of the read's location (or `None`, the initialisation).

use porf_graph::{EventId, Graph, LabelKind, Loc, Tid};
use std::collections::HashMap;

/// What an event means for a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A read of `loc` that must read one of `good` (`None`: the initialisation). If
    /// `last`, it must also come after every write of `loc`.
    Read {
        loc: Loc,
        good: Vec<Option<EventId>>,
        atomic: bool,
        last: bool,
    },
    /// A write of `loc`; an `exclusive` one is the write part of the read before it.
    Write {
        loc: Loc,
        atomic: bool,
        exclusive: bool,
    },
    /// Spawns thread `child`, whose first event it precedes.
    Spawn { child: Tid },
    /// Waits for thread `child`'s last event.
    Join { child: Tid },
    /// Constrains nothing but po (start, finish, fence, block, error, malloc, free).
    Other,
}

/// Events per thread (index = tid, position = index in the thread).
#[derive(Clone, Debug, Default)]
pub struct Instance {
    pub threads: Vec<Vec<Kind>>,
}

impl Instance {
    /// The events of `g` (its rf and co are ignored), with good writes `good(r)` for
    /// each read `r`.
    pub fn from_graph(g: &Graph, good: impl Fn(EventId) -> Vec<Option<EventId>>) -> Instance {
        let mut threads = Vec::with_capacity(g.num_threads() as usize);
        for t in 0..g.num_threads() {
            let mut ks = Vec::with_capacity(g.thread_len(t) as usize);
            for (i, lab) in g.thread(t).iter().enumerate() {
                let e = EventId::new(t, i as u32);
                ks.push(match lab.kind {
                    LabelKind::Read { loc, ord, .. } => Kind::Read {
                        loc,
                        good: good(e),
                        atomic: ord.is_atomic(),
                        last: false,
                    },
                    LabelKind::Write { loc, ord, .. } => Kind::Write {
                        loc,
                        atomic: ord.is_atomic(),
                        exclusive: lab.is_exclusive_write(),
                    },
                    LabelKind::Spawn { child, .. } => Kind::Spawn { child },
                    LabelKind::Join { child } => Kind::Join { child },
                    _ => Kind::Other,
                });
            }
            threads.push(ks);
        }
        Instance { threads }
    }
}

/// A dense event id.
pub(super) type Id = u32;

/// An event class with dense locations and ids.
#[derive(Clone, Debug)]
pub(super) enum K {
    Read {
        loc: u32,
        atomic: bool,
        last: bool,
        /// Its po-successor is its exclusive write part.
        rmw: bool,
    },
    Write {
        loc: u32,
        atomic: bool,
        exclusive: bool,
    },
    Spawn {
        child: u32,
    },
    Join {
        child: u32,
    },
    Other,
}

/// The instance with dense ids (thread by thread, in po order) and dense locations.
pub(super) struct Compiled {
    pub k: usize,
    pub first: Vec<Id>,
    pub len: Vec<u32>,
    pub ev: Vec<EventId>,
    pub kind: Vec<K>,
    /// Reads: their good writes (dense; `None` = initialisation). Empty for others.
    pub good: Vec<Vec<Option<Id>>>,
    pub nlocs: usize,
    /// Dense location → its reads.
    pub reads_of: Vec<Vec<Id>>,
    /// Dense location → its writes.
    pub writes_of: Vec<Vec<Id>>,
    /// Thread → whether a `Spawn` in the instance starts it.
    pub spawned: Vec<bool>,
}

impl Compiled {
    pub fn new(inst: &Instance) -> Option<Compiled> {
        let k = inst.threads.len();
        let mut first = Vec::with_capacity(k);
        let mut len = Vec::with_capacity(k);
        let mut ev = Vec::new();
        for (t, ks) in inst.threads.iter().enumerate() {
            first.push(ev.len() as Id);
            len.push(ks.len() as u32);
            ev.extend((0..ks.len()).map(|i| EventId::new(t as Tid, i as u32)));
        }
        let mut locs: HashMap<Loc, u32> = HashMap::new();
        let mut dense = |l: Loc| {
            let n = locs.len() as u32;
            *locs.entry(l).or_insert(n)
        };
        let id = |e: EventId| -> Option<Id> {
            let t = e.tid as usize;
            (t < k && e.idx < len[t]).then(|| first[t] + e.idx)
        };
        let mut kind = Vec::with_capacity(ev.len());
        let mut good = Vec::with_capacity(ev.len());
        let mut spawned = vec![false; k];
        for ks in &inst.threads {
            for (i, kd) in ks.iter().enumerate() {
                let (kk, gw) = match kd {
                    Kind::Read {
                        loc,
                        good: gs,
                        atomic,
                        last,
                    } => {
                        let rmw = matches!(ks.get(i + 1), Some(Kind::Write { exclusive: true, loc: l2, .. }) if l2 == loc);
                        let mut gw = Vec::with_capacity(gs.len());
                        for w in gs {
                            gw.push(match w {
                                None => None,
                                Some(w) => Some(id(*w)?),
                            });
                        }
                        (
                            K::Read {
                                loc: dense(*loc),
                                atomic: *atomic,
                                last: *last,
                                rmw,
                            },
                            gw,
                        )
                    }
                    Kind::Write {
                        loc,
                        atomic,
                        exclusive,
                    } => {
                        if *exclusive {
                            let ok = i > 0
                                && matches!(&ks[i - 1], Kind::Read { loc: l2, .. } if l2 == loc);
                            if !ok {
                                return None;
                            }
                        }
                        (
                            K::Write {
                                loc: dense(*loc),
                                atomic: *atomic,
                                exclusive: *exclusive,
                            },
                            Vec::new(),
                        )
                    }
                    Kind::Spawn { child } => {
                        let c = *child as usize;
                        if c >= k || spawned[c] || c == 0 {
                            return None;
                        }
                        spawned[c] = true;
                        (K::Spawn { child: *child }, Vec::new())
                    }
                    Kind::Join { child } => {
                        if *child as usize >= k {
                            return None;
                        }
                        (K::Join { child: *child }, Vec::new())
                    }
                    Kind::Other => (K::Other, Vec::new()),
                };
                kind.push(kk);
                good.push(gw);
            }
        }
        let nlocs = locs.len();
        let mut reads_of = vec![Vec::new(); nlocs];
        let mut writes_of = vec![Vec::new(); nlocs];
        for (i, kk) in kind.iter().enumerate() {
            match kk {
                K::Read { loc, .. } => reads_of[*loc as usize].push(i as Id),
                K::Write { loc, .. } => writes_of[*loc as usize].push(i as Id),
                _ => {}
            }
        }
        // Good writes must be writes of the read's location.
        for (i, gw) in good.iter().enumerate() {
            if let K::Read { loc, .. } = kind[i] {
                for w in gw.iter().flatten() {
                    match kind[*w as usize] {
                        K::Write { loc: l, .. } if l == loc => {}
                        _ => return None,
                    }
                }
            }
        }
        Some(Compiled {
            k,
            first,
            len,
            ev,
            kind,
            good,
            nlocs,
            reads_of,
            writes_of,
            spawned,
        })
    }

    pub fn n(&self) -> usize {
        self.ev.len()
    }
    pub fn tid(&self, e: Id) -> usize {
        self.ev[e as usize].tid as usize
    }
    pub fn idx(&self, e: Id) -> u32 {
        self.ev[e as usize].idx
    }
    pub fn at(&self, t: usize, idx: u32) -> Id {
        self.first[t] + idx
    }
    pub fn id(&self, e: EventId) -> Option<Id> {
        let t = e.tid as usize;
        (t < self.k && e.idx < self.len[t]).then(|| self.first[t] + e.idx)
    }
    pub fn is_atomic_write(&self, e: Id) -> bool {
        matches!(self.kind[e as usize], K::Write { atomic: true, .. })
    }
}
