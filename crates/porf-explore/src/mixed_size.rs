//! Mixed-size accesses: the check that keeps every explored graph inside what the
//! engine models exactly.
//!
//! The engine's memory is a set of cells, each named by the first byte of the accesses
//! to it ([`porf_graph::Loc`]), and every access carries its width. A cell's value is
//! the value of the write a read reads from, whole: a 4-byte store at `p` followed by
//! a 1-byte load at `p + 1` (or a 2-byte load at `p`) would read a value no real
//! machine gives. So two accesses are **mixed** when their byte ranges
//! `[loc, loc + bytes)` overlap but their `(loc, bytes)` pairs differ. Mutex operations
//! are width-less ([`WIDTHLESS`]): they touch the byte their lock word starts at and
//! agree with any access starting at that byte (a lock word initialised by a 4-byte
//! store, a `memset` or a struct copy is still the same cell); an access that starts
//! elsewhere and covers that byte mixes with them.
//!
//! **The check.** [`violation`] runs when an access is about to become an event (in
//! [`crate::step::perform`], the one path by which every explorer — optimal,
//! reference, rf-smc, rf-partsmc, rvf-smc — turns a thread's action into a read or a
//! write; write parts of RMWs and acquires repeat their read's location and width, and
//! the explorers that re-add events of a graph re-add them into a subset of a graph
//! they were already in). If the graph already holds an access mixed with it, the
//! thread gets an [`ErrorKind::Unsupported`](porf_graph::ErrorKind) error event
//! instead of the access, naming both.
//!
//! **Why this is sound.** (1) Every graph an explorer builds is mixed-free: the only
//! events added without the check are write parts (same cell as their read) and
//! re-additions into subsets of mixed-free graphs, and removing events keeps a graph
//! mixed-free. (2) On a mixed-free graph the cell semantics is the byte semantics:
//! every read overlaps only writes with its own `(loc, bytes)`, so it reads exactly
//! the bytes one write wrote (or the initial bytes), and values, consistency and
//! errors are those of the real program. (3) If some real execution of the program
//! has a mixed pair, take the first event in a porf-respecting order of it that is
//! mixed with an earlier one: the events before it form a mixed-free, consistent,
//! porf-closed graph, which by (2) the cell semantics has too, so the explorers (which
//! are complete for the cell semantics) reach a graph holding it plus the thread
//! about to add that event, and the check fires there; more generally, in any explored
//! run the check fires at the moment the later of a mixed pair is added. So porf
//! either never meets a mixed pair, and then answers from exactly modelled graphs, or
//! reports the program as unsupported (exit 3): it never answers from a graph with a
//! mixed pair.
//!
//! **Cost.** One ordered-index query of the neighbourhood `[loc − 7, loc + bytes)`
//! ([`Graph::locs_between`]) plus O(1) per location found there: since graphs are
//! mixed-free, all accesses with a width at a location share it, and the graph keeps
//! that width and how many such accesses there are ([`porf_graph::LocInfo`]).

use porf_graph::{
    Action, EventId, Graph, LabelKind, Loc, Program, ReadKind, SrcLoc, WriteKind, WIDTHLESS,
};

/// The widest access porf models (bytes); accesses are 1 to 16 bytes wide (16: an
/// atomic object of 16 bytes, e.g. porf-c's `_Atomic` structs, whose values a front
/// end carries as 64-bit codes of 16-byte values).
pub const MAX_BYTES: u8 = 16;

/// Why an access must not be added.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Violation {
    /// The access is mixed with this access of the graph.
    Overlaps(EventId),
    /// The access is wider than [`MAX_BYTES`] or has no width (outside the contract).
    BadWidth(u8),
}

/// The first byte and width an action accesses memory with ([`WIDTHLESS`] for mutex
/// operations); `None` for actions that touch no memory cell.
pub fn span(action: &Action) -> Option<(Loc, u8)> {
    match *action {
        Action::Load { loc, bytes, .. }
        | Action::Store { loc, bytes, .. }
        | Action::Rmw { loc, bytes, .. } => Some((loc, bytes)),
        Action::Lock { loc, .. }
        | Action::TryLock { loc, .. }
        | Action::Unlock { loc, .. }
        | Action::MutexInit { loc, .. }
        | Action::MutexDestroy { loc, .. } => Some((loc, WIDTHLESS)),
        _ => None,
    }
}

/// Whether performing `action` on `g` would add an access mixed with one of `g`'s (or
/// an access of a width outside the contract).
pub fn violation(g: &Graph, action: &Action) -> Option<Violation> {
    let (loc, bytes) = span(action)?;
    let sized = matches!(
        action,
        Action::Load { .. } | Action::Store { .. } | Action::Rmw { .. }
    );
    if sized && (bytes == 0 || bytes > MAX_BYTES) {
        return Some(Violation::BadWidth(bytes));
    }
    overlapping(g, loc, bytes).map(Violation::Overlaps)
}

/// An access of `g` mixed with an access of `bytes` bytes at `loc` ([`WIDTHLESS`]: a
/// mutex operation), if any. `g` must be mixed-free.
pub fn overlapping(g: &Graph, loc: Loc, bytes: u8) -> Option<EventId> {
    let reach = u64::from(bytes.max(1));
    let lo = Loc(loc.0.saturating_sub(u64::from(MAX_BYTES - 1)));
    let hi = Loc(loc.0.saturating_add(reach));
    let width = |e: EventId| g.label(e).bytes().unwrap_or(WIDTHLESS);
    for (l, info) in g.locs_between(lo, hi) {
        if info.accesses.is_empty() {
            continue;
        }
        if l == loc {
            // Same first byte: only two accesses with different widths mix.
            if bytes != WIDTHLESS && info.sized > 0 && info.width != bytes {
                return info
                    .accesses
                    .iter()
                    .copied()
                    .find(|&e| width(e) != WIDTHLESS && width(e) != bytes);
            }
        } else if l < loc {
            // Mixed iff an access at `l` reaches `loc` (width-less ones reach only `l`).
            if info.sized > 0 && l.0 + u64::from(info.width) > loc.0 {
                return info
                    .accesses
                    .iter()
                    .copied()
                    .find(|&e| l.0 + u64::from(width(e)) > loc.0);
            }
        } else {
            // `loc < l < loc + bytes`: every access at `l` starts inside this one.
            return info.accesses.first().copied();
        }
    }
    None
}

/// The error message for `v`, a violation of `action` on `g`.
pub fn message<P: Program>(prog: &P, g: &Graph, action: &Action, v: Violation) -> String {
    let (loc, bytes) = span(action).expect("a violation of a memory access");
    match v {
        Violation::BadWidth(b) => format!(
            "a {b}-byte access at {}: porf models accesses of 1 to {MAX_BYTES} bytes",
            prog.loc_name(loc)
        ),
        Violation::Overlaps(e) => {
            let lab = g.label(e);
            let new_pos = position(prog, action.src());
            let old_pos = position(prog, lab.src);
            format!(
                "mixed-size accesses: {} at {}{} overlaps {} at {} (T{}, event {}{})",
                action_desc(action, bytes),
                prog.loc_name(loc),
                if new_pos.is_empty() {
                    String::new()
                } else {
                    format!(" ({new_pos})")
                },
                label_desc(&lab.kind),
                prog.loc_name(lab.loc().expect("an access")),
                e.tid,
                e.idx,
                if old_pos.is_empty() {
                    String::new()
                } else {
                    format!(", {old_pos}")
                },
            )
        }
    }
}

/// `file:line:col`, or nothing when the position is unknown.
fn position<P: Program>(prog: &P, src: SrcLoc) -> String {
    if src.line == 0 {
        return String::new();
    }
    let file = prog.source_file(src.file);
    let file = if file.is_empty() { "<program>" } else { file };
    format!("{file}:{}:{}", src.line, src.col)
}

fn action_desc(action: &Action, bytes: u8) -> String {
    match action {
        Action::Load { .. } => format!("{bytes}-byte load"),
        Action::Store { .. } => format!("{bytes}-byte store"),
        Action::Rmw { .. } => format!("{bytes}-byte RMW"),
        Action::Lock { .. } => "mutex lock".into(),
        Action::TryLock { .. } => "mutex trylock".into(),
        Action::Unlock { .. } => "mutex unlock".into(),
        Action::MutexInit { .. } => "mutex init".into(),
        Action::MutexDestroy { .. } => "mutex destroy".into(),
        _ => "access".into(),
    }
}

fn label_desc(kind: &LabelKind) -> String {
    match *kind {
        LabelKind::Read { kind, bytes, .. } => match kind {
            ReadKind::Plain | ReadKind::Copy => format!("{bytes}-byte load"),
            ReadKind::Rmw(_) => format!("{bytes}-byte RMW"),
            ReadKind::Lock => "mutex lock".into(),
            ReadKind::TryLock => "mutex trylock".into(),
        },
        LabelKind::Write { kind, bytes, .. } => match kind {
            WriteKind::Plain if bytes == WIDTHLESS => "mutex init".into(),
            WriteKind::Plain => format!("{bytes}-byte store"),
            WriteKind::Exclusive if bytes == WIDTHLESS => "mutex lock".into(),
            WriteKind::Exclusive => format!("{bytes}-byte RMW"),
            WriteKind::Unlock => "mutex unlock".into(),
            WriteKind::MutexDestroy => "mutex destroy".into(),
        },
        _ => "access".into(),
    }
}

#[cfg(test)]
mod tests;
