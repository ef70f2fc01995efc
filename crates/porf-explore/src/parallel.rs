//! The optimal explorer on several threads ([`Config::threads`]).
//!
//! With TruSt's maximality rule the optimal explorer keeps no state across its search
//! tree: every child of a node — each source of a read, each co place of a write, each
//! backward revisit, each value of a choice — is explored from the node's state alone
//! (and the tid registry, which is scoped to the tree: [`TidRegistry`]). So a subtree
//! can be explored by any worker, given a copy of its root's state.
//!
//! **Positions.** Every node has a *path*: the indices of the children taken from the
//! root (at a placed write, its backward revisits come first, in the order of the
//! candidate reads, and the continuation last). The sequential explorer visits nodes in
//! the lexicographic order of their paths (a path comes before its extensions).
//!
//! **Work sharing.** Each worker runs the sequential explorer on a [`Task`] (a subtree
//! root: state, path, tid registry, what to do there). At every branch, when some
//! worker waits and the queue is empty, the worker hands the child it is about to
//! explore to the pool instead ([`Worker::donate`]); waiting workers take the task
//! with the shortest path (the likely largest subtree). A `Mutex<Vec>` and a `Condvar`
//! suffice: a task is handed over only when a worker waits, so the lock is cold.
//!
//! **Exact results.** A worker cuts its results into *segments* at each donation: a
//! task's log is its segments with the donated tasks between them, exactly where the
//! sequential explorer would have explored those subtrees. Walking the logs from the
//! root task lists the segments in the sequential order, a partition of it. Merging
//! them in that order ([`Stats::merge`]) gives the sequential result: the same counts,
//! the same sets, each error's first occurrence (its witness included), in the order
//! the sequential explorer met them.
//!
//! **First error (no keep-going).** A worker that finds an error stops its task and
//! lowers a shared *bound* to the error's path (kept the minimum). Every worker skips
//! children and tasks whose path comes after the bound but explores everything before
//! it (an earlier error may be there). When all is done the bound is the first error in
//! the sequential order; the merge stops after the segment that holds it, which ends at
//! the error (its worker stopped there), so the counts are the sequential explorer's at
//! its first error. Work done after the bound is discarded.
//!
//! **Limits.** `--timeout` stops every worker (each polls the deadline); what was
//! explored by then depends on the scheduling, so partial results may differ between
//! runs. Configurations whose exploration shares state across subtrees run on one
//! thread ([`one_thread_reason`]).

use crate::optimal::{Branch, Optimal};
use crate::record::Recorder;
use crate::state::{State, TidRegistry};
use crate::{Config, Stats};
use porf_graph::Program;
use porf_models::MemoryModel;
use std::cmp::Ordering as Cmp;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// Why a configuration is explored on one thread whatever [`Config::threads`] says:
/// its exploration keeps state across subtrees, or a limit counts in the sequential
/// order. `maximality`: whether the optimal explorer uses TruSt's rule.
pub fn one_thread_reason(cfg: &Config, maximality: bool) -> Option<&'static str> {
    if !maximality {
        Some("the set of revisit graphs (rf mode, or a model without maximal extensions) spans the whole search")
    } else if cfg.max_executions.is_some() {
        Some("--max-executions counts executions in the sequential order")
    } else if cfg.collect_rf_classes {
        Some("reads-from classes are deduplicated across the whole search")
    } else {
        None
    }
}

/// A subtree handed to a worker: its root's state, path and tid registry, and what to
/// do there.
pub(crate) struct Task<P: Program> {
    id: usize,
    path: Vec<u32>,
    st: State<P>,
    tids: TidRegistry,
    branch: Branch,
}

/// One entry of a task's log, in the sequential order.
enum Item {
    /// What the task's worker recorded between two donations.
    Segment(Box<Stats>),
    /// A donated task, explored in its place.
    Child(usize),
}

struct Queue<P: Program> {
    tasks: Vec<Task<P>>,
    /// Set when every worker waits on an empty queue: the exploration is over.
    done: bool,
}

/// What the workers share.
pub(crate) struct Pool<P: Program> {
    workers: usize,
    eager: bool,

    queue: Mutex<Queue<P>>,
    wake: Condvar,
    /// Workers waiting for a task (changed under the queue's lock).
    idle: AtomicUsize,
    /// Tasks in the queue (changed under the queue's lock, read without it).
    queued: AtomicUsize,
    next_id: AtomicUsize,
    /// The smallest path at which an error was found (no keep-going), and a counter
    /// bumped at every change so that workers read the bound only when it moved.
    bound: Mutex<Option<Vec<u32>>>,
    bound_version: AtomicU64,
    logs: Mutex<HashMap<usize, Vec<Item>>>,
    /// Nanoseconds workers spent waiting for a task, in total.
    waited_ns: AtomicU64,
}

impl<P: Program> Pool<P> {
    /// Whether a worker waits for work that is not there: then a branch is donated.
    /// (With [`Config::eager_split`]: while fewer tasks than workers are queued.)
    fn hungry(&self) -> bool {
        let queued = self.queued.load(Ordering::Relaxed);
        if self.eager {
            return queued < self.workers;
        }
        self.idle.load(Ordering::Relaxed) > 0 && queued == 0
    }

    fn push(&self, task: Task<P>) {
        let mut q = self.queue.lock().unwrap();
        q.tasks.push(task);
        self.queued.fetch_add(1, Ordering::Relaxed);
        drop(q);
        self.wake.notify_one();
    }

    /// The next task (the shortest path first, then the earliest), or `None` when
    /// every worker waits on an empty queue.
    fn pop(&self) -> Option<Task<P>> {
        let mut q = self.queue.lock().unwrap();
        loop {
            let best = (0..q.tasks.len()).min_by(|&a, &b| {
                let (pa, pb) = (&q.tasks[a].path, &q.tasks[b].path);
                pa.len().cmp(&pb.len()).then_with(|| pa.cmp(pb))
            });
            if let Some(i) = best {
                self.queued.fetch_sub(1, Ordering::Relaxed);
                return Some(q.tasks.swap_remove(i));
            }
            if q.done {
                return None;
            }
            if self.idle.fetch_add(1, Ordering::Relaxed) + 1 == self.workers {
                q.done = true;
                self.wake.notify_all();
                return None;
            }
            let since = Instant::now();
            q = self.wake.wait(q).unwrap();
            self.idle.fetch_sub(1, Ordering::Relaxed);
            let waited = since.elapsed().as_nanos() as u64;
            self.waited_ns.fetch_add(waited, Ordering::Relaxed);
        }
    }

    /// Lowers the bound to `path` if it is smaller.
    fn lower_bound(&self, path: &[u32]) {
        let mut b = self.bound.lock().unwrap();
        if b.as_ref().is_none_or(|b| path < b.as_slice()) {
            *b = Some(path.to_vec());
            self.bound_version.fetch_add(1, Ordering::Release);
        }
    }

    fn finish(&self, id: usize, items: Vec<Item>) {
        self.logs.lock().unwrap().insert(id, items);
    }
}

/// A worker's side of the parallel exploration, carried by its explorer.
pub(crate) struct Worker<'a, P: Program> {
    pool: &'a Pool<P>,
    /// The path of the node being explored.
    pub(crate) path: Vec<u32>,
    /// The current task's log so far.
    items: Vec<Item>,
    /// The bound as last read, and its version.
    bound: Option<Vec<u32>>,
    bound_seen: u64,
    /// Whether the current task's error was reported to the pool.
    error_noted: bool,
}

impl<P: Program> Worker<'_, P> {
    /// Hands child `i` of the current node (state `st`, set up for `branch`) to the
    /// pool if a worker waits for work; true if it did. The task takes its place in
    /// this task's log, after the results recorded so far.
    pub(crate) fn donate(
        &mut self,
        st: &State<P>,
        i: u32,
        branch: Branch,
        tids: &TidRegistry,
        rec: &mut Recorder<'_>,
    ) -> bool {
        if !self.pool.hungry() {
            return false;
        }
        let id = self.pool.next_id.fetch_add(1, Ordering::Relaxed);
        self.items.push(Item::Segment(Box::new(rec.take_segment())));
        self.items.push(Item::Child(id));
        let mut path = self.path.clone();
        path.push(i);
        self.pool.push(Task {
            id,
            path,
            st: st.clone(),
            tids: tids.clone(),
            branch,
        });
        true
    }

    /// Whether child `i` of the current node comes after the first error found so far
    /// (in the sequential order), so that it need not be explored.
    pub(crate) fn beyond_bound(&mut self, i: u32) -> bool {
        let v = self.pool.bound_version.load(Ordering::Acquire);
        if v == 0 {
            return false;
        }
        if v != self.bound_seen {
            self.bound = self.pool.bound.lock().unwrap().clone();
            self.bound_seen = v;
        }
        let b = self.bound.as_deref().unwrap_or_default();
        self.path.iter().chain(std::iter::once(&i)).cmp(b.iter()) == Cmp::Greater
    }

    /// Whether a subtree rooted at `path` comes after the first error found so far.
    fn task_beyond_bound(&self, path: &[u32]) -> bool {
        let b = self.pool.bound.lock().unwrap();
        b.as_ref().is_some_and(|b| path > b.as_slice())
    }

    /// After an error stopped the exploration (no keep-going), called while the path
    /// is still the error's node: lowers the pool's bound to it, once per task.
    pub(crate) fn note_error(&mut self, rec: &Recorder<'_>) {
        if rec.error_stopped() && !self.error_noted {
            self.error_noted = true;
            self.pool.lower_bound(&self.path);
        }
    }
}

/// Explores `prog` on `cfg.threads` workers; the result is the sequential one.
pub fn explore<P: Program + Sync>(prog: &P, model: &dyn MemoryModel, cfg: &Config) -> Stats {
    let start = Instant::now();
    if let Some(p) = &cfg.progress {
        // A handed-over subtree's recorder does not know its weight in the tree.
        p.disable_estimate();
    }
    let workers = cfg.threads.max(1);
    let pool = Pool {
        workers,
        eager: cfg.eager_split,

        queue: Mutex::new(Queue {
            tasks: vec![Task {
                id: 0,
                path: Vec::new(),
                st: State::new(prog, model),
                tids: TidRegistry::default(),
                branch: Branch::Visit,
            }],
            done: false,
        }),
        wake: Condvar::new(),
        idle: AtomicUsize::new(0),
        queued: AtomicUsize::new(1),
        next_id: AtomicUsize::new(1),
        bound: Mutex::new(None),
        bound_version: AtomicU64::new(0),
        logs: Mutex::new(HashMap::new()),
        waited_ns: AtomicU64::new(0),
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|k| {
                let pool = &pool;
                std::thread::Builder::new()
                    .name(format!("porf-worker-{k}"))
                    .stack_size(crate::STACK)
                    .spawn_scoped(s, move || {
                        crate::memory::enter_exploration_thread(crate::STACK);
                        work(pool, prog, model, cfg)
                    })
                    .expect("cannot start an exploration thread")
            })
            .collect();
        for h in handles {
            if let Err(e) = h.join() {
                std::panic::resume_unwind(e);
            }
        }
    });
    let tasks = pool.next_id.load(Ordering::Relaxed);
    let logs = std::mem::take(&mut *pool.logs.lock().unwrap());
    let mut stats = merge(logs, cfg.keep_going);
    stats.elapsed = start.elapsed();
    stats.parallel.workers = workers;
    stats.parallel.tasks = tasks as u64 - 1;
    stats.parallel.waited = std::time::Duration::from_nanos(pool.waited_ns.into_inner());
    stats
}

/// One worker: takes tasks until the exploration is over.
fn work<P: Program>(pool: &Pool<P>, prog: &P, model: &dyn MemoryModel, cfg: &Config) {
    let worker = Worker {
        pool,
        path: Vec::new(),
        items: Vec::new(),
        bound: None,
        bound_seen: 0,
        error_noted: false,
    };
    let mut ex = Optimal::new(prog, model, cfg, Some(worker));
    while let Some(task) = pool.pop() {
        let w = ex.v.par.as_mut().expect("a worker");
        if w.task_beyond_bound(&task.path) {
            pool.finish(task.id, Vec::new());
            continue;
        }
        w.path = task.path;
        w.error_noted = false;
        ex.tids = task.tids;
        ex.rec.clear_error_stop();
        let mut st = task.st;
        st.detach();
        ex.run(&mut st, task.branch);
        let w = ex.v.par.as_mut().expect("a worker");
        w.note_error(&ex.rec);
        let mut items = std::mem::take(&mut w.items);
        items.push(Item::Segment(Box::new(ex.rec.take_segment())));
        pool.finish(task.id, items);
    }
}

/// The segments of every task in the sequential order, merged; without keep-going,
/// up to the first one holding an error (it ends at the error).
fn merge(mut logs: HashMap<usize, Vec<Item>>, keep_going: bool) -> Stats {
    let mut out = Stats::default();
    let mut stack = vec![logs.remove(&0).unwrap_or_default().into_iter()];
    while let Some(top) = stack.last_mut() {
        match top.next() {
            None => {
                stack.pop();
            }
            Some(Item::Segment(s)) => {
                let error = !s.errors.is_empty();
                out.merge(*s);
                if error && !keep_going {
                    break;
                }
            }
            Some(Item::Child(c)) => {
                stack.push(logs.remove(&c).unwrap_or_default().into_iter());
            }
        }
    }
    out
}
