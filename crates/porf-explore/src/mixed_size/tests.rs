use super::*;
use porf_graph::{MemOrder, ThreadMachine, Tid, Val, View};

const SRC: SrcLoc = SrcLoc {
    file: 0,
    line: 8,
    col: 3,
};

/// Thread 0 only: a graph with a start event and registered locations.
fn graph() -> Graph {
    let mut g = Graph::new();
    g.add(0, LabelKind::Start { parent: None }, SrcLoc::UNKNOWN);
    g
}

fn write(g: &mut Graph, t: Tid, loc: u64, bytes: u8) -> EventId {
    g.ensure_loc(Loc(loc), 0, None);
    let w = g.add(
        t,
        LabelKind::Write {
            loc: Loc(loc),
            bytes,
            ord: MemOrder::NonAtomic,
            val: 1,
            kind: WriteKind::Plain,
        },
        SRC,
    );
    let n = g.co(Loc(loc)).len();
    g.co_insert(w, n + 1);
    w
}

fn read(g: &mut Graph, loc: u64, bytes: u8, kind: ReadKind) -> EventId {
    g.ensure_loc(Loc(loc), 0, None);
    g.add(
        0,
        LabelKind::Read {
            loc: Loc(loc),
            bytes,
            ord: MemOrder::Acquire,
            kind,
            rf: None,
        },
        SRC,
    )
}

#[test]
fn overlapping_ranges_with_other_pairs_mix() {
    let mut g = graph();
    let w = write(&mut g, 0, 100, 4); // bytes 100..104
    assert_eq!(overlapping(&g, Loc(100), 4), None, "the same cell");
    assert_eq!(overlapping(&g, Loc(101), 1), Some(w), "a byte inside");
    assert_eq!(overlapping(&g, Loc(103), 1), Some(w), "the last byte");
    assert_eq!(
        overlapping(&g, Loc(100), 2),
        Some(w),
        "same start, narrower"
    );
    assert_eq!(overlapping(&g, Loc(100), 8), Some(w), "same start, wider");
    assert_eq!(
        overlapping(&g, Loc(97), 4),
        Some(w),
        "covers the first byte"
    );
    assert_eq!(overlapping(&g, Loc(93), 8), Some(w), "8 bytes from 7 below");
    assert_eq!(overlapping(&g, Loc(96), 4), None, "ends where it starts");
    assert_eq!(overlapping(&g, Loc(104), 4), None, "starts where it ends");
    assert_eq!(
        overlapping(&g, Loc(92), 8),
        None,
        "ends where it starts (8 bytes)"
    );
}

#[test]
fn mutex_operations_are_widthless() {
    let mut g = graph();
    let lock = read(&mut g, 200, WIDTHLESS, ReadKind::Lock);
    assert_eq!(
        overlapping(&g, Loc(200), 4),
        None,
        "a store to the lock word"
    );
    assert_eq!(overlapping(&g, Loc(200), 1), None);
    assert_eq!(
        overlapping(&g, Loc(201), 4),
        None,
        "the lock touches one byte"
    );
    assert_eq!(overlapping(&g, Loc(199), 1), None);
    assert_eq!(
        overlapping(&g, Loc(198), 4),
        Some(lock),
        "covers the lock's byte"
    );
    // A sized access at the lock word fixes the cell's width for the others.
    let w = write(&mut g, 0, 200, 4);
    assert_eq!(overlapping(&g, Loc(200), WIDTHLESS), None);
    assert_eq!(overlapping(&g, Loc(200), 4), None);
    assert_eq!(
        overlapping(&g, Loc(200), 2),
        Some(w),
        "not the lock: the store"
    );
    assert_eq!(
        overlapping(&g, Loc(202), WIDTHLESS),
        Some(w),
        "a mutex inside"
    );
}

#[test]
fn removed_events_do_not_count() {
    let mut g = graph();
    let stamp = g.len();
    write(&mut g, 0, 300, 4);
    assert!(overlapping(&g, Loc(301), 1).is_some());
    g.truncate(stamp);
    assert_eq!(
        overlapping(&g, Loc(301), 1),
        None,
        "the location stays registered"
    );
    assert_eq!(overlapping(&g, Loc(300), 2), None);
    // The width is that of the oldest access still there.
    read(&mut g, 300, WIDTHLESS, ReadKind::Lock);
    let stamp = g.len();
    write(&mut g, 0, 300, 2);
    assert!(overlapping(&g, Loc(300), 4).is_some());
    g.truncate(stamp);
    assert_eq!(overlapping(&g, Loc(300), 4), None);
}

#[test]
fn restricted_graphs_recount() {
    let mut g = graph();
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
    let keep_before = g.last_of(1).unwrap();
    write(&mut g, 1, 400, 8);
    let w0 = write(&mut g, 0, 408, 1);
    let mut keep = View::new();
    keep.include(w0);
    keep.include(keep_before);
    let h = g.restricted(&keep);
    assert_eq!(
        overlapping(&h, Loc(404), 4),
        None,
        "thread 1's store is gone"
    );
    assert_eq!(overlapping(&h, Loc(405), 4), Some(w0));
    assert_eq!(overlapping(&g, Loc(404), 4).map(|e| e.tid), Some(1));
}

#[derive(Clone)]
struct Idle;
impl ThreadMachine for Idle {
    fn peek(&mut self) -> Action {
        Action::Finish { ret: 0 }
    }
    fn resume(&mut self, _: Val) {}
}
struct Named;
impl Program for Named {
    type Thread = Idle;
    fn main_thread(&self) -> Idle {
        Idle
    }
    fn spawn(&self, _: Tid, _: u32, _: Val) -> Idle {
        Idle
    }
    fn loc_name(&self, loc: Loc) -> String {
        format!("heap+{}", loc.0 - 100)
    }
    fn source_file(&self, _: u32) -> &str {
        "t.c"
    }
}

#[test]
fn violations_name_both_accesses() {
    let mut g = graph();
    write(&mut g, 0, 100, 4);
    let load = Action::Load {
        loc: Loc(101),
        bytes: 1,
        ord: MemOrder::NonAtomic,
        copy: false,
        src: SrcLoc {
            file: 0,
            line: 12,
            col: 5,
        },
    };
    let v = violation(&g, &load).unwrap();
    assert_eq!(
        message(&Named, &g, &load, v),
        "mixed-size accesses: 1-byte load at heap+1 (t.c:12:5) overlaps 4-byte store at \
         heap+0 (T0, event 1, t.c:8:3)"
    );
    let lock = Action::Lock {
        loc: Loc(100),
        src: SRC,
    };
    assert_eq!(
        violation(&g, &lock),
        None,
        "a lock of the word the store wrote"
    );
    let wide = Action::Store {
        loc: Loc(500),
        bytes: 32,
        val: 0,
        ord: MemOrder::NonAtomic,
        src: SRC,
    };
    assert_eq!(violation(&g, &wide), Some(Violation::BadWidth(32)));
    assert_eq!(violation(&g, &Action::Finish { ret: 0 }), None);
}
