//! A witness graph as a readable interleaving: one line per event, in an order that
//! respects program order, reads-from, spawn and join (a linearisation of porf).

use porf_graph::{
    BlockReason, EventId, Graph, LabelKind, Loc, Program, ReadKind, SrcLoc, Val, WriteKind,
};
use std::collections::HashMap;

/// One step of a witness interleaving.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    pub thread: u32,
    /// The event's number within its thread: `(thread, number)` is how error messages
    /// (e.g. races) name events.
    pub index: u32,
    /// For a read: the write it reads from, `(thread, number)`, or `INIT`.
    pub reads_from: Option<String>,
    /// Short description, e.g. `W x rlx`, `R y acq`, `spawn T1`.
    pub event: String,
    /// The value read or written, where the event has one.
    pub value: Option<Val>,
    /// The value by name where the program gives one (a pointer as `&x`).
    pub shown: Option<String>,
    /// `file:line:col`, or empty when the event has no source position.
    pub location: String,
    /// Text the thread printed (`printf`) between its previous event and this one.
    pub printed: Vec<String>,
    /// The step stands for the thread's events `index..=last` (a lock's acquire and its
    /// write part; the events of one library operation), else `last == index`.
    pub last: u32,
    /// The library function whose events the step folds ([`super::ops`]).
    pub operation: Option<String>,
    /// A folded step's events, one step each.
    pub raw: Vec<TraceStep>,
}

impl TraceStep {
    /// `(thread, number)`, or `(thread, first-last)` for a step of several events.
    pub fn id(&self) -> String {
        if self.last > self.index {
            format!("({}, {}-{})", self.thread, self.index, self.last)
        } else {
            format!("({}, {})", self.thread, self.index)
        }
    }
}

/// `file:line:col` of `src` in `prog`'s sources (empty for unknown positions).
pub fn location<P: Program>(prog: &P, src: SrcLoc) -> String {
    if src.line == 0 {
        return String::new();
    }
    let file = prog.source_file(src.file);
    let file = if file.is_empty() { "<program>" } else { file };
    format!("{file}:{}:{}", src.line, src.col)
}

/// The events of `g` (without thread starts) in an order where every event comes after
/// its po-predecessor, the write it reads from, the spawn that started its thread and
/// the last event of a thread it joins. Among ready events the earliest-added goes first.
/// An event `b` that is ready right after `a` with `together(a, b)` comes next (the
/// events of one library operation stay together where they can).
pub fn linearize_with(g: &Graph, together: impl Fn(EventId, EventId) -> bool) -> Vec<EventId> {
    let n = g.num_threads();
    let mut next = vec![0u32; n as usize];
    let mut done = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(g.len());
    let ready = |e: EventId, done: &std::collections::HashSet<EventId>| -> bool {
        match &g.label(e).kind {
            LabelKind::Read { rf: Some(w), .. } => done.contains(w),
            LabelKind::Start { parent: Some(p) } => done.contains(p),
            LabelKind::Join { child } => g.last_of(*child).is_none_or(|l| done.contains(&l)),
            _ => true,
        }
    };
    while out.len() < g.len() {
        let after = out.last().copied().filter(|&a: &EventId| {
            let t = a.tid as usize;
            next[t] < g.thread_len(a.tid) && {
                let b = EventId::new(a.tid, next[t]);
                ready(b, &done) && together(a, b)
            }
        });
        if let Some(a) = after {
            let b = EventId::new(a.tid, next[a.tid as usize]);
            next[a.tid as usize] += 1;
            done.insert(b);
            out.push(b);
            continue;
        }
        let mut best: Option<EventId> = None;
        let mut fallback: Option<EventId> = None;
        for t in 0..n {
            if next[t as usize] >= g.thread_len(t) {
                continue;
            }
            let e = EventId::new(t, next[t as usize]);
            let stamp = g.label(e).stamp;
            if fallback.is_none_or(|f| g.label(f).stamp > stamp) {
                fallback = Some(e);
            }
            if ready(e, &done) && best.is_none_or(|b| g.label(b).stamp > stamp) {
                best = Some(e);
            }
        }
        let Some(e) = best.or(fallback) else { break };
        next[e.tid as usize] += 1;
        done.insert(e);
        out.push(e);
    }
    out.retain(|e| !matches!(g.label(*e).kind, LabelKind::Start { .. }));
    out
}

/// How one witness names memory: the program's names, told where each block of the
/// execution was allocated (so heap memory can be named by type and field).
pub struct Names<'a, P> {
    pub prog: &'a P,
    /// The source location of each block's `malloc`, by block base.
    sites: HashMap<Loc, SrcLoc>,
}

impl<'a, P: Program> Names<'a, P> {
    pub fn new(prog: &'a P, g: &Graph) -> Self {
        let mut sites = HashMap::new();
        for t in 0..g.num_threads() {
            for idx in 0..g.thread_len(t) {
                let lab = g.label(EventId::new(t, idx));
                if let LabelKind::Malloc { base, .. } = lab.kind {
                    sites.insert(base, lab.src);
                }
            }
        }
        Names { prog, sites }
    }

    fn site(&self, l: Loc) -> Option<SrcLoc> {
        self.prog
            .block_of(l)
            .and_then(|b| self.sites.get(&b).copied())
    }

    /// The name of location `l` ([`public_name`]).
    pub fn loc(&self, l: Loc) -> String {
        public_name(self.prog.loc_name_in(l, &|x| self.site(x)))
    }

    /// The name of the block allocated at `base` ([`public_name`]).
    pub fn block(&self, base: Loc) -> String {
        public_name(self.prog.block_name_in(base, &|x| self.site(x)))
    }

    /// How the end of the life of the block at `base` reads when it is no `free`
    /// (a function's frame: `worker() returns`).
    pub fn block_end(&self, base: Loc) -> Option<String> {
        self.prog.block_end_in(base, &|x| self.site(x))
    }

    /// Value `v` read from or written to `l` by name, when it is better shown so
    /// ([`public_name`]).
    pub fn value(&self, l: Loc, bytes: u8, v: Val) -> Option<String> {
        self.prog
            .show_value_in(l, bytes, v, &|x| self.site(x))
            .map(public_name)
    }
}

/// A name as a witness shows it: without trailing members whose names begin with `__`
/// (identifiers C reserves for the implementation: the internal cells of porf's
/// bundled headers, e.g. a condition variable's `c.__w` is `c`, a `pthread_once_t`'s
/// `o.__m.__lock` is `o`), and with the bundled `errno`'s variable named `errno`.
pub fn public_name(name: String) -> String {
    let mut name = match name.strip_prefix("__porf_errno") {
        Some(rest) => format!("errno{rest}"),
        None => name,
    };
    // Each trailing `.__member` (the component after the last dot).
    while let Some(i) = name.rfind(".__") {
        let tail = &name[i + 3..];
        if tail.is_empty() || tail.contains(['.', '[']) {
            break;
        }
        name.truncate(i);
    }
    name
}

/// Short description of an event and its value.
pub fn describe<P: Program>(names: &Names<P>, g: &Graph, e: EventId) -> (String, Option<Val>) {
    let lab = g.label(e);
    match &lab.kind {
        LabelKind::Start { .. } => ("start".into(), None),
        LabelKind::Read { loc, ord, kind, .. } => {
            let what = match kind {
                ReadKind::Plain | ReadKind::Copy => "R",
                ReadKind::Rmw(_) => "RMW-R",
                ReadKind::Lock => return (format!("lock {}", mutex_name(names, *loc)), None),
                ReadKind::TryLock => {
                    let got = g.read_val(e) == 0;
                    let how = if got { "acquired" } else { "failed" };
                    return (format!("trylock {} ({how})", mutex_name(names, *loc)), None);
                }
            };
            let name = names.loc(*loc);
            (
                format!("{what} {name} {}", ord.short()),
                Some(g.read_val(e)),
            )
        }
        LabelKind::Write {
            loc,
            ord,
            val,
            kind,
            ..
        } => {
            let what = match kind {
                WriteKind::Plain => "W",
                WriteKind::Exclusive => "RMW-W",
                WriteKind::Unlock => return (format!("unlock {}", mutex_name(names, *loc)), None),
                WriteKind::MutexDestroy => {
                    return (format!("destroy {}", mutex_name(names, *loc)), None)
                }
            };
            let name = names.loc(*loc);
            (format!("{what} {name} {}", ord.short()), Some(*val))
        }
        LabelKind::Fence { ord } => (format!("fence {}", ord.short()), None),
        LabelKind::Spawn { child, .. } => (format!("spawn T{child}"), None),
        LabelKind::Join { child } => (format!("join T{child}"), None),
        LabelKind::Finish { ret } => ("finish".into(), Some(*ret)),
        LabelKind::Block { reason } => (
            match reason {
                BlockReason::Assume => "blocked (assume failed)",
                BlockReason::LoopBound => {
                    "blocked (loop bound reached: --unroll or __VERIFIER_loop_bound)"
                }
                BlockReason::RecursionLimit => "blocked (--recursion-limit reached)",
                BlockReason::Lock => "blocked (lock taken)",
                BlockReason::SpinLoop { .. } => "blocked (spin loop iteration without effect)",
                BlockReason::Uninit => "blocked (read of an uninitialised location)",
                BlockReason::Wait => "blocked (waiting: condition variable or read-write lock)",
                BlockReason::Confined => "blocked (confined to the witness run)",
            }
            .into(),
            None,
        ),
        LabelKind::Error { msg, .. } => (format!("error: {msg}"), None),
        LabelKind::Malloc { base, size, zeroed } => {
            let f = match (*zeroed, names.block_end(*base).is_some()) {
                (_, true) => "alloc",
                (true, false) => "calloc",
                (false, false) => "malloc",
            };
            (format!("{f} {} ({size} bytes)", names.block(*base)), None)
        }
        LabelKind::Free { base, retire } => {
            if let Some(end) = names.block_end(*base).filter(|_| !*retire) {
                return (format!("{end} (frame released)"), None);
            }
            let f = if *retire { "hp_retire" } else { "free" };
            (format!("{f} {}", names.block(*base)), None)
        }
        LabelKind::Note {
            note: porf_graph::Note::HpProtect { hp, block },
        } => (
            match block {
                Some(b) => format!("hp_protect {} with {}", names.block(*b), names.loc(*hp)),
                None => format!("hp_protect (no heap block) with {}", names.loc(*hp)),
            },
            None,
        ),
        LabelKind::Note {
            note: porf_graph::Note::FinalWrite { loc },
        } => (format!("final write of {}", names.loc(*loc)), None),
        LabelKind::Choice { val } => ("nondet".into(), Some(*val)),
        LabelKind::BlockSize { base, size } => (
            format!("block size of {}", names.block(*base)),
            Some(*size as porf_graph::Val),
        ),
    }
}

/// A mutex's name: its cell's name without the bundled headers' internal field.
fn mutex_name<P: Program>(names: &Names<P>, loc: Loc) -> String {
    let name = names.loc(loc);
    match name.strip_suffix(".__lock") {
        Some(m) => m.to_string(),
        None => name,
    }
}

/// Whether `e` is the write part of a lock acquire or a successful trylock: the
/// acquire's line already says it, so the trace shows both in one step.
fn is_lock_write(g: &Graph, e: EventId) -> bool {
    matches!(
        g.label(e).kind,
        LabelKind::Write {
            kind: WriteKind::Exclusive,
            ..
        }
    ) && e.prev().is_some_and(|p| {
        matches!(
            g.label(p).kind,
            LabelKind::Read {
                kind: ReadKind::Lock | ReadKind::TryLock,
                ..
            }
        )
    })
}

/// `(thread, number)`, as error messages name events.
pub fn event_name(e: EventId) -> String {
    format!("({}, {})", e.tid, e.idx)
}

/// The witness interleaving of `g` as steps: one per event, but a lock's write part
/// joins its acquire's step and the events of one library operation ([`super::ops`])
/// one step (per run of them no other thread's event interrupts).
pub fn steps<P: Program>(prog: &P, g: &Graph) -> Vec<TraceStep> {
    let mut printed: std::collections::HashMap<EventId, Vec<String>> = Default::default();
    for (e, text) in porf_explore::replay::printed(prog, g) {
        printed.entry(e).or_default().push(text);
    }
    let names = Names::new(prog, g);
    let calls = super::ops::Calls::new(g, porf_explore::replay::operations(prog, g));
    let call_of = |e: EventId| calls.of.get(&e).copied();
    let together = |a: EventId, b: EventId| {
        (is_lock_write(g, b) && b.prev() == Some(a))
            || call_of(a).is_some_and(|k| call_of(b) == Some(k))
    };
    let order = linearize_with(g, together);
    let mut out: Vec<TraceStep> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let e = order[i];
        if let Some(key) = call_of(e) {
            let mut j = i + 1;
            while j < order.len() && call_of(order[j]) == Some(key) {
                j += 1;
            }
            let seg = &order[i..j];
            let raw: Vec<TraceStep> = seg
                .iter()
                .map(|&e| raw_step(prog, &names, g, e, printed.remove(&e).unwrap_or_default()))
                .collect();
            let last = seg[seg.len() - 1].idx;
            out.push(TraceStep {
                thread: e.tid,
                index: e.idx,
                reads_from: None,
                event: calls.describe(&names, g, key, seg),
                value: None,
                shown: None,
                location: raw[0].location.clone(),
                printed: raw.iter().flat_map(|r| r.printed.clone()).collect(),
                last,
                operation: calls.name(key).map(str::to_string),
                raw,
            });
            i = j;
            continue;
        }
        i += 1;
        if is_lock_write(g, e) {
            if let Some(prev) = out
                .last_mut()
                .filter(|p| p.thread == e.tid && p.last + 1 == e.idx)
            {
                prev.last = e.idx;
                continue;
            }
        }
        out.push(raw_step(
            prog,
            &names,
            g,
            e,
            printed.remove(&e).unwrap_or_default(),
        ));
    }
    out
}

/// The step of event `e` alone.
fn raw_step<P: Program>(
    prog: &P,
    names: &Names<P>,
    g: &Graph,
    e: EventId,
    printed: Vec<String>,
) -> TraceStep {
    let (event, value) = describe(names, g, e);
    let reads_from = match g.label(e).kind {
        LabelKind::Read {
            kind: ReadKind::Plain | ReadKind::Copy | ReadKind::Rmw(_),
            rf,
            ..
        } => Some(rf.map_or("INIT".to_string(), event_name)),
        _ => None,
    };
    let shown = match (&g.label(e).kind, value) {
        (LabelKind::Read { loc, bytes, .. } | LabelKind::Write { loc, bytes, .. }, Some(v)) => {
            names.value(*loc, *bytes, v)
        }
        _ => None,
    };
    TraceStep {
        shown,
        thread: e.tid,
        index: e.idx,
        reads_from,
        event,
        value,
        location: location(prog, g.label(e).src),
        printed,
        last: e.idx,
        operation: None,
        raw: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use porf_explore::{explore, Config, Strategy};

    #[test]
    fn witness_reads_come_after_their_writes() {
        let prog = porf_toy::catalog::by_name("mp", 1).unwrap();
        let model = porf_models::by_name("rc11").unwrap();
        let s = explore(Strategy::Optimal, &prog, model.as_ref(), &Config::default());
        let g = &s.errors[0].witness;
        let order = linearize_with(g, |_, _| false);
        let pos = |e: EventId| order.iter().position(|x| *x == e);
        for &e in &order {
            if let LabelKind::Read { rf: Some(w), .. } = g.label(e).kind {
                assert!(pos(w) < pos(e), "{g}");
            }
            if let Some(p) = e.prev().filter(|p| p.idx > 0) {
                assert!(pos(p) < pos(e));
            }
        }
        assert_eq!(order.len() + g.num_threads() as usize, g.len());
    }
}
