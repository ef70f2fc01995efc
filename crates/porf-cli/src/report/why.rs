//! Why an error happens, read off its witness graph: which events are involved (the
//! racing read and write, the access and the free, the malloc and the access), and
//! why happens-before does not order them — the synchronisation missing on the way
//! from one to the other.
//!
//! Every sentence states a fact of the witness graph (its reads-from, spawn and join
//! edges, memory orders and fences, and the hb views the model stored). To say why
//! `a` does not happen before `b` (`a ∉ hb(b)`), with `A`, `B` their threads:
//! * same thread: `b` comes before `a` in program order;
//! * `b` happens before `a` (a use after a free that happens before it);
//! * otherwise the edges into `B` from other threads: a reads-from edge `x → y`, a
//!   spawn of `B` or a join by `B`. An edge with `a` happens-before `x` and `y` at or
//!   before `b` in `B` would order `a` before `b` if it synchronised, so it does not
//!   (hb is transitive and contains po); for such an edge the sentence says which
//!   side lacks what RC11's synchronises-with needs (a non-atomic side; no release:
//!   `x` is not a release write and no release fence lies between `a` and `x`; no
//!   acquire: `y` is not an acquire read and no acquire fence lies between `y` and
//!   `b`). Without one, the near misses: an edge from `A` that leaves before `a`
//!   ("`a` comes later"), an edge from after `a` that arrives after `b` ("only
//!   after"); without those, that no event of `B` up to `b` reads from `a` or after.
//!
//! The report ([`super::error_block`], `--json`, `--dot`) uses the witness graph the
//! error carries; the explorer and the front end know nothing of this.

use super::trace::{location, Names};
use porf_explore::{ErrorClass, ErrorReport};
use porf_graph::{
    EventId, Graph, LabelKind, MemOrder, Program, ReadKind, RmwOp, SrcLoc, WriteKind,
};

/// One event the error involves, with its role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// `write`, `read`, `access`, `free`, `frame release`, `malloc`, `first free`, ...
    pub role: String,
    pub event: EventId,
    /// `T1's non-atomic write of `data``.
    pub what: String,
    /// `file:line:col`.
    pub location: String,
}

/// What kind of fact a [`Reason`] states.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ReasonKind {
    /// An edge placed to order the two events that does not synchronise.
    NoSync,
    /// An edge from the first event's thread that leaves it before the first event.
    TooEarly,
    /// An edge from after the first event that arrives after the second.
    TooLate,
    /// No edge from the first event on reaches the second's thread before it.
    NoPath,
    /// Both events in one thread, the second first in program order.
    ProgramOrder,
    /// The second event happens before the first.
    HappensAfter,
    /// The block has no allocation in the execution.
    NoMalloc,
    /// The block is freed twice.
    DoubleFree,
}

impl ReasonKind {
    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            ReasonKind::NoSync => "no_synchronisation",
            ReasonKind::TooEarly => "too_early",
            ReasonKind::TooLate => "too_late",
            ReasonKind::NoPath => "no_path",
            ReasonKind::ProgramOrder => "program_order",
            ReasonKind::HappensAfter => "happens_after",
            ReasonKind::NoMalloc => "no_malloc",
            ReasonKind::DoubleFree => "double_free",
        }
    }
}

/// One sentence of the explanation, with the edge it is about (`from → to`: a
/// reads-from, spawn or join edge), if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub kind: ReasonKind,
    pub text: String,
    pub edge: Option<(EventId, EventId)>,
    /// The edge's kind: `rf`, `spawn` or `join`.
    pub edge_kind: Option<&'static str>,
}

/// The explanation of one error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    pub parts: Vec<Part>,
    /// `neither happens before the other`, `the access does not happen before the free`.
    pub question: String,
    pub reasons: Vec<Reason>,
}

impl Why {
    /// The lines the text report adds below the error's positions.
    pub fn lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .parts
            .iter()
            .map(|p| {
                format!(
                    "The {} {}: {} at {}",
                    p.role,
                    super::trace::event_name(p.event),
                    p.what,
                    p.location
                )
            })
            .collect();
        if !self.reasons.is_empty() {
            out.push(format!("Why {}:", self.question));
            out.extend(self.reasons.iter().map(|r| format!("  {}", r.text)));
        }
        out
    }
}

/// The explanation of `err`, for races and memory errors between events of the graph
/// (`None` for other errors).
pub fn explain<P: Program>(prog: &P, err: &ErrorReport) -> Option<Why> {
    let g = &err.witness;
    let names = Names::new(prog, g);
    let file = err.events.first().map_or(0, |(_, s)| s.file);
    let cx = Cx {
        g,
        names: &names,
        file,
    };
    let ev: Vec<EventId> = err.events.iter().map(|(e, _)| *e).collect();
    let known = |e: &EventId| e.tid < g.num_threads() && e.idx < g.thread_len(e.tid);
    if !ev.iter().all(known) {
        return None;
    }
    match (err.class, ev.as_slice()) {
        (ErrorClass::Race, &[a, b]) => {
            let role = |e: EventId, other: EventId| {
                let w = |e| g.label(e).is_write();
                match (w(e), w(other)) {
                    (true, true) if e == a => "first write",
                    (true, true) => "second write",
                    (true, false) => "write",
                    _ => "read",
                }
            };
            Some(Why {
                parts: vec![cx.part(role(a, b), a), cx.part(role(b, a), b)],
                question: "neither happens before the other".into(),
                reasons: cx.unordered(a, b),
            })
        }
        (ErrorClass::Memory, &[a, f]) => {
            let free = |e: EventId| matches!(g.label(e).kind, LabelKind::Free { .. });
            if free(a) && free(f) {
                return Some(cx.double_free(a, f));
            }
            if !(g.label(a).is_access() && free(f)) || g.label(f).hb.contains(a) {
                return None;
            }
            let role = cx.free_role(f);
            Some(Why {
                parts: vec![cx.part("access", a), cx.part(&role, f)],
                question: format!("the access does not happen before the {role}"),
                reasons: cx.not_before(a, f),
            })
        }
        (ErrorClass::Memory, &[e]) => {
            let lab = g.label(e);
            let is_free = matches!(lab.kind, LabelKind::Free { .. });
            if !(lab.is_access() || is_free) {
                return None;
            }
            let base = match lab.loc() {
                Some(l) => g.loc_info(l).block,
                None => lab.block(),
            }?;
            let role = if is_free {
                cx.free_role(e)
            } else {
                "access".into()
            };
            match g.block(base).and_then(|b| b.malloc) {
                Some((m, _)) if lab.hb.contains(m) => None,
                Some((m, _)) => Some(Why {
                    parts: vec![cx.part("allocation", m), cx.part(&role, e)],
                    question: format!("the allocation does not happen before the {role}"),
                    reasons: cx.not_before(m, e),
                }),
                None => Some(Why {
                    parts: vec![cx.part(&role, e)],
                    question: format!("the {role} touches no allocated block"),
                    reasons: vec![Reason {
                        kind: ReasonKind::NoMalloc,
                        text: format!(
                            "no event of this execution allocates `{}`",
                            names.block(base)
                        ),
                        edge: None,
                        edge_kind: None,
                    }],
                }),
            }
        }
        _ => None,
    }
}

/// An edge into a thread from another: reads-from, spawn or join.
#[derive(Copy, Clone, Debug)]
struct Edge {
    from: EventId,
    to: EventId,
    kind: &'static str,
}

struct Cx<'a, P> {
    g: &'a Graph,
    names: &'a Names<'a, P>,
    /// The file positions in sentences are relative to (the first event's).
    file: u32,
}

impl<P: Program> Cx<'_, P> {
    fn part(&self, role: &str, e: EventId) -> Part {
        Part {
            role: role.to_string(),
            event: e,
            what: self.desc(e, true),
            location: location(self.names.prog, self.g.label(e).src),
        }
    }

    /// `free`, or `frame release` for a function's frame.
    fn free_role(&self, f: EventId) -> String {
        match self.g.label(f).kind {
            LabelKind::Free {
                base,
                retire: false,
            } if self.names.block_end(base).is_some() => "frame release".into(),
            _ => "free".into(),
        }
    }

    /// `at 8` (the line in the first event's file), `at other.h:8`, or empty.
    fn at(&self, e: EventId) -> String {
        let src: SrcLoc = self.g.label(e).src;
        if src.line == 0 {
            return String::new();
        }
        if src.file == self.file {
            format!(" at {}", src.line)
        } else {
            let f = self.names.prog.source_file(src.file);
            format!(" at {f}:{}", src.line)
        }
    }

    /// `T1's relaxed store of `flag`` (without the location unless `with_loc`).
    fn desc(&self, e: EventId, with_loc: bool) -> String {
        let g = self.g;
        let lab = g.label(e);
        let of = |loc: porf_graph::Loc| {
            if with_loc {
                format!(" of `{}`", self.names.loc(loc))
            } else {
                String::new()
            }
        };
        let mutex = |loc: porf_graph::Loc| {
            if with_loc {
                let n = self.names.loc(loc);
                format!(" of `{}`", n.strip_suffix(".__lock").unwrap_or(&n))
            } else {
                String::new()
            }
        };
        let what = match lab.kind {
            LabelKind::Read { loc, ord, kind, .. } => match kind {
                ReadKind::Plain | ReadKind::Copy => format!("{} read{}", order(ord), of(loc)),
                ReadKind::Rmw(op) => format!("{} {}{}", order(ord), rmw_name(op), of(loc)),
                ReadKind::Lock => format!("lock{}", mutex(loc)),
                ReadKind::TryLock => format!("trylock{}", mutex(loc)),
            },
            LabelKind::Write { loc, ord, kind, .. } => match kind {
                WriteKind::Plain if ord.is_atomic() => format!("{} store{}", order(ord), of(loc)),
                WriteKind::Plain => format!("non-atomic write{}", of(loc)),
                WriteKind::Exclusive => match e.prev().and_then(|p| g.label(p).read_kind()) {
                    Some(ReadKind::Rmw(op)) => {
                        format!("{} {}{}", order(ord), rmw_name(op), of(loc))
                    }
                    Some(ReadKind::Lock) => format!("lock{}", mutex(loc)),
                    Some(ReadKind::TryLock) => format!("trylock{}", mutex(loc)),
                    _ => format!("{} write{}", order(ord), of(loc)),
                },
                WriteKind::Unlock => format!("unlock{}", mutex(loc)),
                WriteKind::MutexDestroy => format!("destroy{}", mutex(loc)),
            },
            LabelKind::Free { base, retire } => match self.names.block_end(base) {
                Some(end) if !retire => format!("frame release as {end}"),
                _ => {
                    let f = if retire { "hp_retire" } else { "free" };
                    format!("{f} of `{}`", self.names.block(base))
                }
            },
            LabelKind::Malloc { base, .. } => format!("allocation of `{}`", self.names.block(base)),
            LabelKind::Fence { ord } => format!("{} fence", order(ord)),
            LabelKind::Spawn { child, .. } => format!("spawn of T{child}"),
            LabelKind::Join { child } => format!("join of T{child}"),
            _ => super::trace::describe(self.names, g, e).0,
        };
        format!("T{}'s {what}", e.tid)
    }

    /// Why neither of `a` and `b` (different threads, unordered) happens before the
    /// other: the edges of both directions that fail to synchronise; else the near
    /// misses of both; else that neither thread reads from the other.
    fn unordered(&self, a: EventId, b: EventId) -> Vec<Reason> {
        let (fwd, back) = (self.edges(a, b), self.edges(b, a));
        let fwd_sync = self.no_sync(a, b, &fwd.0);
        let back_sync = self.no_sync(b, a, &back.0);
        if !fwd_sync.is_empty() || !back_sync.is_empty() {
            return fwd_sync.into_iter().chain(back_sync).collect();
        }
        let mut out = self.near_misses(a, b, &fwd);
        out.extend(self.near_misses(b, a, &back));
        if out.is_empty() {
            out.push(self.no_path(a, b, ", nor the other way round"));
        }
        out
    }

    /// `its non-atomic write` (of `e`, in a sentence about its thread).
    fn its(&self, e: EventId) -> String {
        let d = self.desc(e, false);
        let prefix = format!("T{}'s ", e.tid);
        format!("its {}", d.strip_prefix(&prefix).unwrap_or(&d))
    }

    /// Why `a` does not happen before `b` (`a ∉ hb(b)`).
    fn not_before(&self, a: EventId, b: EventId) -> Vec<Reason> {
        let g = self.g;
        if a.tid == b.tid {
            return vec![Reason {
                kind: ReasonKind::ProgramOrder,
                text: format!(
                    "{}{} comes after {}{} in T{}'s program order",
                    self.desc(a, true),
                    self.at(a),
                    self.desc(b, true),
                    self.at(b),
                    a.tid
                ),
                edge: None,
                edge_kind: None,
            }];
        }
        if g.label(a).hb.contains(b) {
            return vec![Reason {
                kind: ReasonKind::HappensAfter,
                text: format!(
                    "{}{} happens after {}{}",
                    self.desc(a, true),
                    self.at(a),
                    self.desc(b, true),
                    self.at(b)
                ),
                edge: None,
                edge_kind: None,
            }];
        }
        let edges = self.edges(a, b);
        let sync = self.no_sync(a, b, &edges.0);
        if !sync.is_empty() {
            return sync;
        }
        let out = self.near_misses(a, b, &edges);
        if !out.is_empty() {
            return out;
        }
        vec![self.no_path(
            a,
            b,
            " (or from anything that follows it in happens-before)",
        )]
    }

    /// The last resort: no event of `b`'s thread up to `b` reads from `a`'s thread at
    /// or after `a`; `qualifier` follows that statement.
    fn no_path(&self, a: EventId, b: EventId, qualifier: &str) -> Reason {
        Reason {
            kind: ReasonKind::NoPath,
            text: format!(
                "no event of T{} up to {}{} reads from T{} at or after {}{}{qualifier}: \
                 nothing synchronises them",
                b.tid,
                self.its(b),
                self.at(b),
                a.tid,
                self.its(a),
                self.at(a),
            ),
            edge: None,
            edge_kind: None,
        }
    }

    /// The edges into `b`'s thread from other threads, split into those that could
    /// order `a` before `b` (from an event `a` happens before, to `b` or an event
    /// before it; the race's own pair excepted) and the others.
    fn edges(&self, a: EventId, b: EventId) -> (Vec<Edge>, Vec<Edge>) {
        let g = self.g;
        let t = b.tid;
        let mut all = Vec::new();
        for idx in 0..g.thread_len(t) {
            let y = EventId::new(t, idx);
            match g.label(y).kind {
                LabelKind::Read { rf: Some(x), .. } if x.tid != t => all.push(Edge {
                    from: x,
                    to: y,
                    kind: "rf",
                }),
                LabelKind::Start { parent: Some(p) } => all.push(Edge {
                    from: p,
                    to: y,
                    kind: "spawn",
                }),
                LabelKind::Join { child } => {
                    if let Some(l) = g.last_of(child) {
                        all.push(Edge {
                            from: l,
                            to: y,
                            kind: "join",
                        })
                    }
                }
                _ => {}
            }
        }
        let (placed, other) = all
            .into_iter()
            .filter(|e| !(e.from == a && e.to == b))
            .partition(|e| self.after(a, e.from) && e.to.idx <= b.idx);
        (placed, other)
    }

    /// `a` happens before `x` (or is `x`).
    fn after(&self, a: EventId, x: EventId) -> bool {
        self.g.label(x).hb.contains(a)
    }

    /// One sentence per placed edge (see [`Self::edges`]): none synchronises, and
    /// each says which side lacks what.
    fn no_sync(&self, a: EventId, b: EventId, placed: &[Edge]) -> Vec<Reason> {
        let g = self.g;
        placed
            .iter()
            .filter(|e| e.kind == "rf")
            .take(3)
            .map(|e| {
                let (x, y) = (e.from, e.to);
                let (xo, yo) = (g.label(x).ord(), g.label(y).ord());
                let na = xo.is_some_and(|o| !o.is_atomic()) || yo.is_some_and(|o| !o.is_atomic());
                let rel = xo.is_some_and(MemOrder::is_release)
                    || (0..x.idx).any(|i| {
                        let f = EventId::new(x.tid, i);
                        is_fence(g, f, MemOrder::is_release) && self.after(a, f)
                    });
                let acq = yo.is_some_and(MemOrder::is_acquire)
                    || (y.idx + 1..b.idx)
                        .any(|i| is_fence(g, EventId::new(y.tid, i), MemOrder::is_acquire));
                let why = if na {
                    "a non-atomic access does not synchronise"
                } else {
                    match (rel, acq) {
                        (false, false) if xo == Some(MemOrder::Relaxed) && xo == yo => {
                            "both relaxed, so no synchronisation"
                        }
                        (false, false) => "neither release nor acquire, so no synchronisation",
                        (false, true) => "no release, so no synchronisation",
                        (true, false) => "no acquire, so no synchronisation",
                        (true, true) => "yet they do not synchronise",
                    }
                };
                Reason {
                    kind: ReasonKind::NoSync,
                    text: format!(
                        "{}{} reads {}{}: {}",
                        self.desc(y, true),
                        self.at(y),
                        self.desc(x, false),
                        self.at(x),
                        why
                    ),
                    edge: Some((x, y)),
                    edge_kind: Some("rf"),
                }
            })
            .collect()
    }

    /// The near misses of `a` before `b`: the po-latest edge from `a`'s thread that
    /// leaves before `a` (and arrives by `b`), and the earliest edge from `a` on that
    /// arrives after `b`.
    fn near_misses(&self, a: EventId, b: EventId, edges: &(Vec<Edge>, Vec<Edge>)) -> Vec<Reason> {
        let mut out = Vec::new();
        let early = edges
            .1
            .iter()
            .filter(|e| e.from.tid == a.tid && !self.after(a, e.from) && e.to.idx <= b.idx)
            .max_by_key(|e| (e.from.idx, e.to.idx));
        if let Some(e) = early {
            out.push(Reason {
                kind: ReasonKind::TooEarly,
                text: format!(
                    "{}, but {}{} comes later in T{}",
                    self.edge_text(e),
                    self.desc(a, true),
                    self.at(a),
                    a.tid
                ),
                edge: Some((e.from, e.to)),
                edge_kind: Some(e.kind),
            });
        }
        let late = edges
            .1
            .iter()
            .filter(|e| self.after(a, e.from) && e.to.idx > b.idx)
            .min_by_key(|e| e.to.idx);
        if let Some(e) = late {
            out.push(Reason {
                kind: ReasonKind::TooLate,
                text: format!(
                    "{}, but only after {}{}",
                    self.edge_text(e),
                    self.desc(b, true),
                    self.at(b)
                ),
                edge: Some((e.from, e.to)),
                edge_kind: Some(e.kind),
            });
        }
        out
    }

    /// `T2's acquire read of `flag` at 8 reads T1's release store at 5`, `T0 spawns
    /// T1 at 10`, `T0 joins T1 at 12`.
    fn edge_text(&self, e: &Edge) -> String {
        match e.kind {
            "spawn" => format!("T{} spawns T{}{}", e.from.tid, e.to.tid, self.at(e.from)),
            "join" => format!("T{} joins T{}{}", e.to.tid, e.from.tid, self.at(e.to)),
            _ => format!(
                "{}{} reads {}{}",
                self.desc(e.to, true),
                self.at(e.to),
                self.desc(e.from, false),
                self.at(e.from)
            ),
        }
    }

    fn double_free(&self, a: EventId, f: EventId) -> Why {
        let (first, second) = if self.g.label(a).stamp <= self.g.label(f).stamp {
            (a, f)
        } else {
            (f, a)
        };
        let block = self
            .g
            .label(a)
            .block()
            .map(|b| self.names.block(b))
            .unwrap_or_default();
        Why {
            parts: vec![
                self.part(&format!("first {}", self.free_role(first)), first),
                self.part(&format!("second {}", self.free_role(second)), second),
            ],
            question: "this is a double free".into(),
            reasons: vec![Reason {
                kind: ReasonKind::DoubleFree,
                text: format!(
                    "`{block}` is freed twice: {}, then {}",
                    self.by(first),
                    self.by(second)
                ),
                edge: None,
                edge_kind: None,
            }],
        }
    }
}

impl<P: Program> Cx<'_, P> {
    /// `by T1 at 11`, or `as f() returns in T1 at 14` for a frame's release.
    fn by(&self, f: EventId) -> String {
        match self.g.label(f).kind {
            LabelKind::Free {
                base,
                retire: false,
            } => match self.names.block_end(base) {
                Some(end) => format!("as {end} in T{}{}", f.tid, self.at(f)),
                None => format!("by T{}{}", f.tid, self.at(f)),
            },
            _ => format!("by {}{}", self.desc(f, false), self.at(f)),
        }
    }
}

fn is_fence(g: &Graph, e: EventId, what: fn(MemOrder) -> bool) -> bool {
    matches!(g.label(e).kind, LabelKind::Fence { ord } if what(ord))
}

/// C11's name of a memory order, as a sentence uses it.
fn order(o: MemOrder) -> &'static str {
    match o {
        MemOrder::NonAtomic => "non-atomic",
        MemOrder::Relaxed => "relaxed",
        MemOrder::Acquire => "acquire",
        MemOrder::Release => "release",
        MemOrder::AcqRel => "acq_rel",
        MemOrder::SeqCst => "seq_cst",
    }
}

/// The C11 name of an RMW.
fn rmw_name(op: RmwOp) -> &'static str {
    match op {
        RmwOp::Add(..) | RmwOp::AddMod { .. } => "fetch_add",
        RmwOp::Sub(..) => "fetch_sub",
        RmwOp::And(_) => "fetch_and",
        RmwOp::Or(_) => "fetch_or",
        RmwOp::Xor(_) => "fetch_xor",
        RmwOp::Xchg(_) | RmwOp::XchgMod { .. } => "exchange",
        RmwOp::Cas { .. } => "compare_exchange",
        RmwOp::Max(..) => "fetch_max",
        RmwOp::Min(..) => "fetch_min",
        RmwOp::AddUnless { .. } => "atomic_add_unless",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use porf_c::{CProgram, FrontOptions, RunOptions};
    use porf_explore::{explore, Config, Strategy};
    use std::sync::atomic::{AtomicU32, Ordering};

    const HEAD: &str = "#include <pthread.h>\n#include <stdatomic.h>\n#include <stdlib.h>\n";

    /// `src` compiled, explored under `model`, and its first error with the program.
    fn first_error(src: &str, model: &str) -> (CProgram, ErrorReport) {
        static N: AtomicU32 = AtomicU32::new(0);
        let path = std::env::temp_dir().join(format!(
            "porf-why-{}-{}.c",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::write(&path, format!("{HEAD}{src}")).unwrap();
        let module = porf_c::compile_file(&path, &FrontOptions::default()).unwrap();
        let _ = std::fs::remove_file(&path);
        let prog = CProgram::new(module, RunOptions::default());
        let model = porf_models::by_name(model).unwrap();
        let s = explore(Strategy::Optimal, &prog, model.as_ref(), &Config::default());
        let err = s.errors.into_iter().next().expect("an error");
        (prog, err)
    }

    fn why(src: &str) -> Why {
        let (prog, err) = first_error(src, "rc11");
        explain(&prog, &err).expect("an explanation")
    }

    fn kinds(w: &Why) -> Vec<ReasonKind> {
        w.reasons.iter().map(|r| r.kind).collect()
    }

    const MP_MAIN: &str = "int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); \
                           pthread_create(&b, 0, t2, 0); return 0; }\n";

    /// Message passing whose store is relaxed: the acquire read's edge is placed to
    /// order the accesses and lacks the release (lines count from the file's start:
    /// the three includes are lines 1-3).
    #[test]
    fn a_relaxed_flag_lacks_the_release() {
        let w = why(&format!(
            "int data; atomic_int flag; int v;\n\
             void *t1(void *a) {{ data = 1; atomic_store_explicit(&flag, 1, memory_order_relaxed); return 0; }}\n\
             void *t2(void *a) {{ if (atomic_load_explicit(&flag, memory_order_acquire)) v = data; return 0; }}\n\
             {MP_MAIN}"
        ));
        assert_eq!(w.question, "neither happens before the other");
        let roles: Vec<&str> = w.parts.iter().map(|p| p.role.as_str()).collect();
        assert_eq!(roles, ["write", "read"]);
        assert_eq!(w.parts[0].what, "T1's non-atomic write of `data`");
        assert_eq!(kinds(&w), [ReasonKind::NoSync]);
        assert_eq!(
            w.reasons[0].text,
            "T2's acquire read of `flag` at 6 reads T1's relaxed store at 5: \
             no release, so no synchronisation"
        );
        assert_eq!(w.reasons[0].edge_kind, Some("rf"));
    }

    /// A release fence before the relaxed store is the release; the relaxed read
    /// without an acquire fence lacks the acquire.
    #[test]
    fn a_release_fence_counts_and_the_acquire_is_missing() {
        let w = why(&format!(
            "int data; atomic_int flag; int v;\n\
             void *t1(void *a) {{ data = 1; atomic_thread_fence(memory_order_release); \
             atomic_store_explicit(&flag, 1, memory_order_relaxed); return 0; }}\n\
             void *t2(void *a) {{ if (atomic_load_explicit(&flag, memory_order_relaxed)) v = data; return 0; }}\n\
             {MP_MAIN}"
        ));
        assert_eq!(kinds(&w), [ReasonKind::NoSync]);
        assert!(
            w.reasons[0]
                .text
                .ends_with("no acquire, so no synchronisation"),
            "{:?}",
            w.reasons
        );
    }

    /// A chain through a third thread: the edge that fails is the third thread's
    /// relaxed store, not one from the writer's thread.
    #[test]
    fn the_failing_edge_may_come_from_a_third_thread() {
        let w = why(
            "int data; atomic_int f1, f2; int v;\n\
             void *t1(void *a) { data = 1; atomic_store_explicit(&f1, 1, memory_order_release); return 0; }\n\
             void *t3(void *a) { if (atomic_load_explicit(&f1, memory_order_acquire)) \
             atomic_store_explicit(&f2, 1, memory_order_relaxed); return 0; }\n\
             void *t2(void *a) { if (atomic_load_explicit(&f2, memory_order_acquire)) v = data; return 0; }\n\
             int main(void) { pthread_t a, b, c; pthread_create(&a, 0, t1, 0); \
             pthread_create(&c, 0, t3, 0); pthread_create(&b, 0, t2, 0); return 0; }\n",
        );
        assert_eq!(kinds(&w), [ReasonKind::NoSync]);
        let (x, y) = w.reasons[0].edge.unwrap();
        assert_eq!((x.tid, y.tid), (2, 3), "{:?}", w.reasons);
        assert!(
            w.reasons[0]
                .text
                .contains("T2's relaxed store at 6: no release"),
            "{:?}",
            w.reasons
        );
    }

    /// Writes on both sides of a critical section: the lock reads the unlock, but the
    /// other thread's write comes after its unlock; main's write after the spawn.
    #[test]
    fn a_lock_reading_an_earlier_unlock_is_a_near_miss() {
        let w = why(
            "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
             void *t(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); x = 2; return 0; }\n\
             int main(void) { pthread_t a; pthread_create(&a, 0, t, 0);\n\
             pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }\n",
        );
        assert_eq!(kinds(&w), [ReasonKind::TooEarly, ReasonKind::TooEarly]);
        let texts: Vec<&str> = w.reasons.iter().map(|r| r.text.as_str()).collect();
        assert!(
            texts.contains(
                &"T0 spawns T1 at 6, but T0's non-atomic write of `x` at 7 comes later in T0"
            ),
            "{texts:?}"
        );
        assert!(
            texts.contains(
                &"T0's lock of `m` at 7 reads T1's unlock at 5, but T1's non-atomic write of `x` at 5 comes later in T1"
            ),
            "{texts:?}"
        );
    }

    /// Two threads that share nothing but the racy location.
    #[test]
    fn no_edge_either_way() {
        let w = why(
            "int x;\n\
             void *t(void *a) { x = 2; return 0; }\n\
             void *u(void *a) { x = 3; return 0; }\n\
             int main(void) { pthread_t a, b; pthread_create(&a, 0, t, 0); pthread_create(&b, 0, u, 0); return 0; }\n",
        );
        let roles: Vec<&str> = w.parts.iter().map(|p| p.role.as_str()).collect();
        assert_eq!(roles, ["first write", "second write"]);
        assert_eq!(kinds(&w), [ReasonKind::NoPath]);
    }

    /// Reference counting with relaxed decrements: the access and the free named, the
    /// fetch_subs both relaxed.
    #[test]
    fn a_relaxed_refcount_names_the_access_and_the_free() {
        let w = why(
            "struct obj { atomic_int refs; int a; }; struct obj *o;\n\
             void *own(void *arg) { if (arg) o->a = 1; \
             if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_relaxed) == 1) free(o); return 0; }\n\
             int main(void) { pthread_t t1, t2; o = malloc(sizeof(struct obj)); atomic_init(&o->refs, 2);\n\
             pthread_create(&t1, 0, own, 0); pthread_create(&t2, 0, own, (void *)1); return 0; }\n",
        );
        assert_eq!(w.question, "the access does not happen before the free");
        assert_eq!(w.parts[1].role, "free");
        assert_eq!(kinds(&w), [ReasonKind::NoSync]);
        assert!(
            w.reasons[0]
                .text
                .contains("relaxed fetch_sub of `obj#0.0.refs` at 5 reads T")
                && w.reasons[0]
                    .text
                    .ends_with("both relaxed, so no synchronisation"),
            "{:?}",
            w.reasons
        );
    }

    /// Two threads free one block: both frees named, in the order they were added.
    #[test]
    fn a_double_free_names_both_frees() {
        let w = why("int *p;\n\
             void *t(void *a) { free(p); return 0; }\n\
             int main(void) { pthread_t a, b; p = malloc(4); pthread_create(&a, 0, t, 0); \
             pthread_create(&b, 0, t, 0); return 0; }\n");
        let roles: Vec<&str> = w.parts.iter().map(|p| p.role.as_str()).collect();
        assert_eq!(roles, ["first free", "second free"]);
        assert_eq!(kinds(&w), [ReasonKind::DoubleFree]);
        assert_eq!(
            w.reasons[0].text,
            "`int#0.0` is freed twice: by T1 at 5, then by T2 at 5"
        );
    }

    /// A block published with a relaxed store: its allocation does not happen before
    /// the reader's access.
    #[test]
    fn a_non_allocated_access_names_the_allocation() {
        let w = why(
            "int *_Atomic p;\n\
             void *t1(void *a) { int *q = malloc(sizeof(int)); \
             atomic_store_explicit(&p, q, memory_order_relaxed); return 0; }\n\
             void *t2(void *a) { int *q = atomic_load_explicit(&p, memory_order_relaxed); \
             if (q) *q = 1; return 0; }\n\
             int main(void) { pthread_t a, b; pthread_create(&a, 0, t1, 0); pthread_create(&b, 0, t2, 0); return 0; }\n",
        );
        let roles: Vec<&str> = w.parts.iter().map(|p| p.role.as_str()).collect();
        assert_eq!(roles, ["allocation", "access"]);
        assert_eq!(kinds(&w), [ReasonKind::NoSync]);
        assert!(w.reasons[0]
            .text
            .ends_with("both relaxed, so no synchronisation"));
    }

    /// A local handed to another thread: named by its frame, its release is the
    /// function's return, and the access after it is explained.
    #[test]
    fn a_stack_object_is_named_by_its_frame() {
        let w = why(
            "struct node { int val; struct node *next; }; struct node *_Atomic shared;\n\
             void *reader(void *a) { struct node *n = atomic_load_explicit(&shared, memory_order_acquire); \
             if (n) return (void *)(long)n->val; return 0; }\n\
             void publish(void) { struct node node; node.val = 1; node.next = 0; \
             atomic_store_explicit(&shared, &node, memory_order_release); }\n\
             void *worker(void *a) { publish(); return 0; }\n\
             int main(void) { pthread_t a, b; pthread_create(&a, 0, worker, 0); \
             pthread_create(&b, 0, reader, 0); return 0; }\n",
        );
        assert_eq!(w.parts[0].role, "access");
        assert_eq!(
            w.parts[0].what,
            "T2's non-atomic read of `T1 publish()'s frame: node.val`"
        );
        assert_eq!(w.parts[1].role, "frame release");
        assert_eq!(w.parts[1].what, "T1's frame release as publish() returns");
        assert_eq!(
            w.question,
            "the access does not happen before the frame release"
        );
    }

    /// `--dot` marks the racing events, labels the rf edges between their threads
    /// by whether they synchronise, and names the file once.
    #[test]
    fn dot_marks_the_error() {
        let src = format!(
            "int data; atomic_int flag; int v;\n\
             void *t1(void *a) {{ data = 1; atomic_store_explicit(&flag, 1, memory_order_relaxed); return 0; }}\n\
             void *t2(void *a) {{ if (atomic_load_explicit(&flag, memory_order_acquire)) v = data; return 0; }}\n\
             {MP_MAIN}"
        );
        let (prog, err) = first_error(&src, "rc11");
        let dot = super::super::dot::error_dot(&prog, &err);
        assert!(dot.contains("[write] W data na = 1\\n5:"), "{dot}");
        assert!(dot.contains("[read] R data na = 1\\n6:"), "{dot}");
        assert!(dot.contains("label=\"rf, no sw\""), "{dot}");
        assert!(!dot.contains("label=\"rf, sw\""), "{dot}");
        assert_eq!(dot.matches("porf-why-").count(), 1, "{dot}");
        assert!(dot.contains("no release, so no synchronisation"), "{dot}");
        // A lock reading an unlock synchronises.
        let (prog, err) = first_error(
            "int x; pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
             void *t(void *a) { pthread_mutex_lock(&m); pthread_mutex_unlock(&m); x = 2; return 0; }\n\
             int main(void) { pthread_t a; pthread_create(&a, 0, t, 0);\n\
             pthread_mutex_lock(&m); x = 1; pthread_mutex_unlock(&m); return 0; }\n",
            "rc11",
        );
        let dot = super::super::dot::error_dot(&prog, &err);
        assert!(dot.contains("label=\"rf, sw\""), "{dot}");
        assert!(dot.contains("label=\"spawn\", constraint=false"), "{dot}");
    }

    /// Errors that are not about two events' order are not explained.
    #[test]
    fn an_assertion_is_not_explained() {
        let (prog, err) = first_error(
            "#include <assert.h>\nint main(void) { assert(0); return 0; }\n",
            "rc11",
        );
        assert!(explain(&prog, &err).is_none());
    }
}
