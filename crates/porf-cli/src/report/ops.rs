//! Library operations in witnesses: the events one call of a bundled synchronisation
//! function performs (condition variables, read-write locks, barriers, `pthread_once`,
//! semaphores, spin locks: C code over porf's atomics, with internal cells such as
//! `__w` and `__state` holding packed values) shown as the operation the user called,
//! with what matters about it: whom a signal woke, whether a trylock succeeded, that a
//! wait is blocked.
//!
//! Invariant: a folded line stands for consecutive events of one call of one thread
//! (`(t, a-b)`: events `a` to `b`), so every event number of a thread appears in
//! exactly one line, and `(t, i)` names in error messages stay valid. Error events are
//! never folded. Only the functions [`short_name`] lists are folded (others, e.g.
//! `strlen`, access the user's memory, which a witness must show); the texts read the
//! cells' encodings documented in porf-c's bundled `pthread.h` and `semaphore.h`.

use super::trace::Names;
use porf_graph::{
    BlockReason, EventId, Graph, LabelKind, LibCall, Loc, Program, ReadKind, Tid, Val, WriteKind,
};
use std::collections::HashMap;

/// C11's `<threads.h>` functions as the pthread functions they call (the bundled
/// `threads.h` wraps them), for reading their events; others unchanged.
fn canonical(name: &str) -> &str {
    match name {
        "mtx_lock" => "pthread_mutex_lock",
        "mtx_trylock" => "pthread_mutex_trylock",
        "mtx_unlock" => "pthread_mutex_unlock",
        "mtx_init" => "pthread_mutex_init",
        "cnd_wait" => "pthread_cond_wait",
        "cnd_signal" => "pthread_cond_signal",
        "cnd_broadcast" => "pthread_cond_broadcast",
        "cnd_init" => "pthread_cond_init",
        "cnd_destroy" => "pthread_cond_destroy",
        n => n,
    }
}

/// The name a witness gives a folded library function, `None` for functions whose
/// events are shown one by one.
pub fn short_name(name: &str) -> Option<&'static str> {
    Some(match canonical(name) {
        "pthread_cond_wait" => "cond_wait",
        "pthread_cond_signal" => "signal",
        "pthread_cond_broadcast" => "broadcast",
        "pthread_cond_init" => "cond_init",
        "pthread_cond_destroy" => "cond_destroy",
        "pthread_rwlock_rdlock" => "rdlock",
        "pthread_rwlock_wrlock" => "wrlock",
        "pthread_rwlock_tryrdlock" => "tryrdlock",
        "pthread_rwlock_trywrlock" => "trywrlock",
        "pthread_rwlock_unlock" => "unlock",
        "pthread_rwlock_init" => "rwlock_init",
        "pthread_rwlock_destroy" => "rwlock_destroy",
        "pthread_barrier_wait" => "barrier_wait",
        "pthread_barrier_init" => "barrier_init",
        "pthread_barrier_destroy" => "barrier_destroy",
        "pthread_once" => "pthread_once",
        "pthread_spin_lock" => "spin_lock",
        "pthread_spin_trylock" => "spin_trylock",
        "pthread_spin_unlock" => "spin_unlock",
        "pthread_spin_init" => "spin_init",
        "pthread_spin_destroy" => "spin_destroy",
        "sem_wait" => "sem_wait",
        "sem_trywait" => "sem_trywait",
        "sem_post" => "sem_post",
        "sem_init" => "sem_init",
        "sem_destroy" => "sem_destroy",
        "sem_getvalue" => "sem_getvalue",
        "pthread_mutex_lock" => "lock",
        "pthread_mutex_trylock" => "trylock",
        "pthread_mutex_unlock" => "unlock",
        "pthread_mutex_init" => "mutex_init",
        "pthread_create" => "pthread_create",
        "pthread_attr_init" => "attr_init",
        "pthread_attr_setdetachstate" => "attr_setdetachstate",
        "pthread_attr_getdetachstate" => "attr_getdetachstate",
        "pthread_attr_setstacksize" => "attr_setstacksize",
        "pthread_attr_getstacksize" => "attr_getstacksize",
        "pthread_attr_setguardsize" => "attr_setguardsize",
        "pthread_attr_getguardsize" => "attr_getguardsize",
        "pthread_attr_setscope" => "attr_setscope",
        "pthread_attr_getscope" => "attr_getscope",
        "pthread_attr_setinheritsched" => "attr_setinheritsched",
        "pthread_attr_getinheritsched" => "attr_getinheritsched",
        "pthread_attr_setschedpolicy" => "attr_setschedpolicy",
        "pthread_attr_getschedpolicy" => "attr_getschedpolicy",
        "pthread_mutexattr_init" => "mutexattr_init",
        "pthread_mutexattr_settype" => "mutexattr_settype",
        "pthread_mutexattr_gettype" => "mutexattr_gettype",
        "pthread_mutexattr_setprotocol" => "mutexattr_setprotocol",
        "pthread_mutexattr_getprotocol" => "mutexattr_getprotocol",
        "pthread_mutexattr_setprioceiling" => "mutexattr_setprioceiling",
        "pthread_mutexattr_getprioceiling" => "mutexattr_getprioceiling",
        "pthread_mutexattr_setpshared" => "mutexattr_setpshared",
        "pthread_mutexattr_getpshared" => "mutexattr_getpshared",
        "pthread_rwlockattr_init" => "rwlockattr_init",
        "pthread_rwlockattr_setpshared" => "rwlockattr_setpshared",
        "pthread_rwlockattr_getpshared" => "rwlockattr_getpshared",
        _ => return None,
    })
}

/// The folded calls of a witness: for each event of one, its call's key.
pub struct Calls {
    /// Every folded event's call: `(thread, call number)`.
    pub of: HashMap<EventId, (Tid, u64)>,
    /// Each call: the function, its arguments and its events in program order.
    calls: HashMap<(Tid, u64), Call>,
}

struct Call {
    /// The function's pthread name ([`canonical`]).
    name: String,
    /// The function the user called.
    called: String,
    args: [Val; 2],
    events: Vec<EventId>,
}

impl Calls {
    /// The calls of folded functions among `ops` (from `porf_explore::replay`), error
    /// events left out.
    pub fn new(g: &Graph, ops: HashMap<EventId, LibCall>) -> Calls {
        let mut of = HashMap::new();
        let mut calls: HashMap<(Tid, u64), Call> = HashMap::new();
        let mut ids: Vec<_> = ops.into_iter().collect();
        ids.sort_by_key(|(e, _)| (e.tid, e.idx));
        for (e, op) in ids {
            if short_name(&op.name).is_none() || matches!(g.label(e).kind, LabelKind::Error { .. })
            {
                continue;
            }
            let key = (e.tid, op.call);
            of.insert(e, key);
            calls
                .entry(key)
                .or_insert_with(|| Call {
                    name: canonical(&op.name).to_string(),
                    called: op.name,
                    args: op.args,
                    events: Vec::new(),
                })
                .events
                .push(e);
        }
        Calls { of, calls }
    }

    /// The library function of call `key`.
    pub fn name(&self, key: (Tid, u64)) -> Option<&str> {
        self.calls.get(&key).map(|c| c.called.as_str())
    }

    /// The line of `seg`, consecutive events of call `key` (in program order).
    pub fn describe<P: Program>(
        &self,
        names: &Names<P>,
        g: &Graph,
        key: (Tid, u64),
        seg: &[EventId],
    ) -> String {
        let call = &self.calls[&key];
        let short = short_name(&call.name).unwrap_or("call");
        let obj = object(names, call.args[0]);
        let first = seg.first() == call.events.first();
        let mut parts: Vec<String> = Vec::new();
        let has_write = |evs: &[EventId]| evs.iter().any(|&e| is_rmw_write(g, e));
        match short {
            "cond_wait" => {
                let mutex = object(names, call.args[1]);
                for &e in seg {
                    match &g.label(e).kind {
                        LabelKind::Write {
                            kind: WriteKind::Unlock,
                            ..
                        } => parts.push(format!("unlock {mutex}")),
                        LabelKind::Read {
                            kind: ReadKind::Lock,
                            ..
                        } => parts.push(format!("lock {mutex}")),
                        LabelKind::Read {
                            kind: ReadKind::Plain,
                            ..
                        } => {
                            let bit = waiter_bit(g, &call.events).unwrap_or(0);
                            let waker = (g.read_val(e) & bit != 0)
                                .then(|| self.waker(g, call, bit))
                                .flatten();
                            parts.push(match waker {
                                Some(w) => format!("woken by T{w}"),
                                None => "not woken".into(),
                            });
                        }
                        _ => {}
                    }
                }
            }
            "signal" | "broadcast" => {
                let woken = self.woken(g, call);
                let text = if woken.is_empty() {
                    if has_write(&call.events) {
                        format!("{short} {obj}")
                    } else {
                        format!("{short} {obj} (no waiter)")
                    }
                } else {
                    let ts: Vec<String> = woken.iter().map(|t| format!("T{t}")).collect();
                    format!("{short} {obj} → wakes {}", ts.join(", "))
                };
                return with_blocks(g, if first { text } else { cont(&text) }, seg);
            }
            "tryrdlock" | "trywrlock" | "sem_trywait" | "spin_trylock" => {
                let got = has_write(&call.events) || call.events.iter().any(|&e| trylock_got(g, e));
                let how = if got { "acquired" } else { "busy" };
                let text = format!("{short} {obj} ({how})");
                return if first { text } else { cont(&text) };
            }
            "lock" | "trylock" | "unlock" if call.name.starts_with("pthread_mutex_") => {
                let kind = seg.iter().find_map(|&e| match g.label(e).kind {
                    LabelKind::Read {
                        kind: ReadKind::Plain,
                        ..
                    } => Some(g.read_val(e)),
                    _ => None,
                });
                let tried = seg.iter().find(|&&e| {
                    matches!(
                        g.label(e).kind,
                        LabelKind::Read {
                            kind: ReadKind::TryLock,
                            ..
                        }
                    )
                });
                let note = match (short, kind) {
                    (_, None) => None,
                    ("unlock", Some(0)) => Some("not held by this thread"),
                    ("unlock", Some(_)) => Some("not held by this thread: EPERM"),
                    (_, Some(1)) => Some("recursive, held again"),
                    ("lock", Some(2)) => Some("error-checking, already held: EDEADLK"),
                    ("lock", Some(_)) => Some("already held by this thread"),
                    (_, Some(_)) => Some("busy: held by this thread"),
                };
                let got = tried.map(|&e| {
                    if trylock_got(g, e) {
                        "acquired"
                    } else {
                        "busy"
                    }
                });
                let text = match note.or(got) {
                    Some(n) => format!("{short} {obj} ({n})"),
                    None => format!("{short} {obj}"),
                };
                return with_blocks(g, if first { text } else { cont(&text) }, seg);
            }
            "pthread_create" => {
                let detached = seg.iter().find_map(|&e| match g.label(e).kind {
                    LabelKind::Read { .. } => Some(g.read_val(e) == 1),
                    _ => None,
                });
                let how = if detached == Some(true) {
                    "detached"
                } else {
                    "joinable"
                };
                return format!("pthread_create: {obj} says {how}");
            }
            "mutex_init" => {
                let kind = seg.iter().rev().find_map(|&e| match g.label(e).kind {
                    LabelKind::Write {
                        kind: WriteKind::Plain,
                        val,
                        ..
                    } => Some(val),
                    _ => None,
                });
                let text = match kind {
                    Some(1) => format!("{short} {obj} (recursive)"),
                    Some(2) => format!("{short} {obj} (error-checking)"),
                    _ => format!("{short} {obj}"),
                };
                return if first { text } else { cont(&text) };
            }
            "barrier_wait" => {
                // Its reads: the barrier's size (non-atomic), the arrival (a fetch-add
                // of the arrivals), the wait for the round's last arrival (acquire).
                let size = call.events.iter().find_map(|&e| match g.label(e).kind {
                    LabelKind::Read {
                        kind: ReadKind::Plain,
                        ord: porf_graph::MemOrder::NonAtomic,
                        ..
                    } => Some(g.read_val(e)),
                    _ => None,
                });
                let blocked = seg
                    .iter()
                    .any(|&e| matches!(g.label(e).kind, LabelKind::Block { .. }));
                for &e in seg {
                    match g.label(e).kind {
                        LabelKind::Read {
                            kind: ReadKind::Rmw(_),
                            ..
                        } => {
                            let k = g.read_val(e) + 1;
                            if size.is_some_and(|n| n > 0 && k % n == 0) {
                                parts.push("last to arrive".into());
                            }
                        }
                        LabelKind::Read {
                            kind: ReadKind::Plain,
                            ord,
                            ..
                        } if ord.is_acquire() && !blocked => parts.push("all arrived".into()),
                        _ => {}
                    }
                }
            }
            "pthread_once" => {
                for &e in seg {
                    if let LabelKind::Read {
                        kind: ReadKind::Plain,
                        ..
                    } = g.label(e).kind
                    {
                        parts.push(
                            if g.read_val(e) == 0 {
                                "runs the routine"
                            } else {
                                "already done"
                            }
                            .into(),
                        );
                    }
                }
                if !first && parts.is_empty() && seg.iter().any(|&e| is_unlock(g, e)) {
                    parts.push("done".into());
                }
            }
            _ => {}
        }
        let head = format!("{short} {obj}");
        let text = if parts.is_empty() {
            if first {
                head
            } else {
                cont(&head)
            }
        } else {
            format!("{head}: {}", parts.join(", "))
        };
        with_blocks(g, text, seg)
    }

    /// The thread whose signal or broadcast set `bit`, the waiter bit of `wait`.
    fn waker(&self, g: &Graph, wait: &Call, bit: Val) -> Option<Tid> {
        self.calls.iter().find_map(|((t, _), c)| {
            let wakes = matches!(
                c.name.as_str(),
                "pthread_cond_signal" | "pthread_cond_broadcast"
            ) && c.args[0] == wait.args[0]
                && c.events.iter().any(|&w| newly_set(g, w) & bit != 0);
            wakes.then_some(*t)
        })
    }

    /// The threads a signal or broadcast woke: the waits on the same condition variable
    /// whose bits its write set.
    fn woken(&self, g: &Graph, call: &Call) -> Vec<Tid> {
        let bits: Val = call
            .events
            .iter()
            .map(|&w| newly_set(g, w))
            .fold(0, |a, b| a | b);
        let mut out: Vec<Tid> = self
            .calls
            .iter()
            .filter(|(_, c)| c.name == "pthread_cond_wait" && c.args[0] == call.args[0])
            .filter(|(_, c)| waiter_bit(g, &c.events).is_some_and(|b| b & bits != 0))
            .map(|((t, _), _)| *t)
            .collect();
        out.sort_unstable();
        out
    }
}

/// A later part of a call another thread's events interrupted.
fn cont(text: &str) -> String {
    format!("{text} (continued)")
}

/// `text` with the segment's blocking end, if it has one.
fn with_blocks(g: &Graph, text: String, seg: &[EventId]) -> String {
    let why = seg.iter().find_map(|&e| match &g.label(e).kind {
        LabelKind::Block { reason } => Some(match reason {
            BlockReason::Lock => "blocked: lock taken",
            BlockReason::Wait | BlockReason::Assume => "blocked: waits for good",
            BlockReason::LoopBound => "blocked: loop bound reached",
            BlockReason::RecursionLimit => "blocked: recursion limit reached",
            BlockReason::SpinLoop { .. } => "blocked: spin loop iteration without effect",
            BlockReason::Uninit => "blocked: read of an uninitialised location",
            BlockReason::Confined => "blocked: confined to the witness run",
        }),
        _ => None,
    });
    match (why, text.strip_suffix(')')) {
        (Some(w), Some(open)) => format!("{open}; {w})"),
        (Some(w), None) => format!("{text} ({w})"),
        (None, _) => text,
    }
}

/// The name of the object at address `a`: its first cell's name without the bundled
/// headers' internal members (`c.__w` is `c`, `o.__m.__lock` is `o`).
fn object<P: Program>(names: &Names<P>, a: Val) -> String {
    let mut name = names.loc(Loc(a as u64));
    while let Some(i) = name.rfind(".__") {
        name.truncate(i);
    }
    name
}

/// The waiter bit of a condition-variable wait: its registration (the first event, a
/// fetch-add of `1 << 32` on `__w`) read the number of earlier waits, `i`; its bit is
/// `1 << i`.
fn waiter_bit(g: &Graph, evs: &[EventId]) -> Option<Val> {
    let &first = evs.first()?;
    match g.label(first).kind {
        LabelKind::Read {
            kind: ReadKind::Rmw(_),
            ..
        } => {
            let i = g.read_val(first) >> 32;
            (0..32).contains(&i).then(|| 1 << i)
        }
        _ => None,
    }
}

/// The bits an exclusive write set that its read part did not hold (0 for other
/// events).
fn newly_set(g: &Graph, w: EventId) -> Val {
    if !is_rmw_write(g, w) {
        return 0;
    }
    match (&g.label(w).kind, w.prev()) {
        (LabelKind::Write { val, .. }, Some(r)) => val & !g.read_val(r),
        _ => 0,
    }
}

fn is_rmw_write(g: &Graph, e: EventId) -> bool {
    matches!(
        g.label(e).kind,
        LabelKind::Write {
            kind: WriteKind::Exclusive,
            bytes: 1..,
            ..
        }
    )
}

fn is_unlock(g: &Graph, e: EventId) -> bool {
    matches!(
        g.label(e).kind,
        LabelKind::Write {
            kind: WriteKind::Unlock,
            ..
        }
    )
}

/// A mutex trylock (a spin lock's) that acquired.
fn trylock_got(g: &Graph, e: EventId) -> bool {
    matches!(
        g.label(e).kind,
        LabelKind::Read {
            kind: ReadKind::TryLock,
            ..
        }
    ) && g.read_val(e) == 0
}
