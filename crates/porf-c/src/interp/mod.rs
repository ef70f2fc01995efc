//! The IR interpreter: one [`CThread`] per engine thread, implementing
//! [`ThreadMachine`].
//!
//! A thread runs local instructions (arithmetic, control flow, calls, accesses to its own
//! private memory) until it reaches one that needs the engine — a shared-memory access,
//! fence, thread or mutex operation, or an end (finish, block, error) — and caches that
//! [`Action`] with a continuation saying how [`ThreadMachine::resume`] applies the
//! engine's answer.
//!
//! Invariants:
//! * `pending` is `Some` exactly when local execution already ran up to the next action;
//!   `peek` then returns a clone of it, so `peek` is idempotent and never re-executes an
//!   instruction. `resume` consumes it (or, for two-event operations such as `free`,
//!   replaces it by the second action).
//! * While an action is pending, the top frame's program counter points at the
//!   instruction that produced it; `resume` writes its result and moves past it.
//! * A thread without frames (it could not even start) always has an ending action
//!   pending, as does a finished, blocked or failed thread.
//! * Every register holds a value normalised to its C type; values written to shared
//!   memory are normalised to the access type (see [`crate::memory`] for addresses).
//!
//! Snapshot cost: the engine clones a thread after every event. A clone copies an `Arc`,
//! a small struct, and a few `Vec`s of which usually only two are non-empty (frames and
//! the flat register file); private stack bytes (with their shadow, a bit per byte),
//! joined threads and locals with blocks of their own are empty for most threads and
//! then cost nothing to clone (about 60 ns per clone of a one-frame thread, release
//! build).
//!
//! # Errors the interpreter raises
//!
//! Memory errors (`ErrorKind::Memory`): null dereference (any address below
//! `GLOBAL_BASE`), invalid address (between regions, function addresses), access to a
//! local of a function that returned (beyond the live stack; a dangling pointer into a
//! *re-used* stack range is not detected), division or remainder by zero and
//! out-of-range shift counts, calls and `pthread_create` through a non-function
//! pointer, join of an invalid thread (not `0..MAX_THREADS`, the caller itself, or
//! already joined by the caller; a thread id nobody ever spawns is left to the engine,
//! which reports the waiting thread as a deadlock), `free` of a pointer that is not the
//! start of a heap block ("invalid free", also for shared frames), accesses before a
//! block's data (the guard below `HEAP_DATA`), and reads of uninitialised locals
//! ([`uninit_local_message`]): a load, RMW or compare-exchange of a private byte no
//! store initialised since its frame was entered or its declaration last reached
//! ([`shadow`]), and a register local's failed [`crate::ir::InstKind::CheckInit`].
//! (A shared frame's cell that a read sees no write of is the engine's uninitialised
//! read, named by [`crate::memory::uninit_read_message`].)
//!
//! Everything else about the heap is the engine's (`porf_models::lifetime`): `malloc`
//! and `free` are [`Action::Malloc`] and [`Action::Free`] events, and every access to a
//! heap block, by any thread, is checked against them with happens-before: access to
//! freed or non-allocated memory, out-of-bounds accesses, double frees, frees of
//! non-allocated memory. Not detected: mixed-size accesses to heap cells (each byte
//! address is its own location; accesses must be aligned to their width), leaks.
//!
//! Unsupported input (`ErrorKind::Unsupported`): mixed-size or misaligned global
//! accesses, misaligned heap accesses, another thread's private memory, mutexes in
//! private memory, `malloc` beyond `MAX_MALLOC` or `MAX_HEAP_BLOCKS` blocks per thread,
//! more than `MAX_THREADS` threads, call depth beyond [`MAX_CALL_DEPTH`].
//!
//! Non-termination (`ErrorKind::NonTermination`, [`nonterm`]): a run of local
//! instructions whose state repeats (a loop that never ends), or that reaches
//! [`LOCAL_STEP_LIMIT`] instructions without an action (said to be the budget).
//!
//! Engine RMWs wrap to the location's type (`arith::engine_rmw` passes the width as a
//! `porf_graph::Wrap`), so memory always holds normalised values.

mod access;
pub(crate) mod arith;
mod exec;
pub(crate) mod float;
mod heap;
mod locate;
mod nonterm;
mod print;
mod print_float;
mod shadow;
mod spin;

#[cfg(test)]
pub(crate) mod build;
#[cfg(test)]
mod tests;

use crate::ir::{BlockId, FuncId, Module, Reg, Scalar};
use crate::memory::{stack_addr, Fault, MAX_THREADS};
use crate::RunOptions;
use porf_graph::{Action, SrcLoc, ThreadMachine, Tid, Val};
use std::sync::Arc;

/// Local instructions a thread may run between two actions before porf gives up on it
/// with a non-termination error that names the budget (a loop that touches no shared
/// memory and whose state never repeats would otherwise hang the explorer).
pub const LOCAL_STEP_LIMIT: u64 = 10_000_000;
/// The deepest call stack a thread may build (deeper means unbounded recursion).
pub const MAX_CALL_DEPTH: usize = 10_000;

/// A thread of a C program, ready to `peek` its next action.
#[derive(Clone, Debug)]
pub struct CThread {
    code: Arc<Module>,
    m: Machine,
    pending: Option<Pending>,
}

/// The mutable state of a running thread (everything but the code).
#[derive(Clone, Debug)]
struct Machine {
    tid: Tid,
    /// The `--unroll` bound (`u32::MAX` when unbounded).
    unroll: u32,
    /// The most activations of one function at once (`--recursion-limit`).
    recursion_limit: u32,
    /// `--nondet-range` ([`RunOptions::nondet_range`]).
    nondet: Option<(Val, Val)>,
    /// The call stack; the last frame is running.
    frames: Vec<Frame>,
    /// All frames' registers and loop counters, frame by frame: a frame owns
    /// `vals[base .. base + nregs + nloops + counters]`: registers, then the loop
    /// statements' counters, then the counters of the retreating edges' targets
    /// (`counters` of the function's [`crate::unroll::FuncEdges`], 0 without
    /// `--unroll`).
    vals: Vec<Val>,
    /// Private memory (address-taken locals), frame by frame: a frame owns
    /// `stack[sp .. sp + frame_size]`, uninitialised (and 0) on entry, dropped on return.
    stack: Vec<u8>,
    /// Which bytes of `stack` are uninitialised (as long as `stack`).
    undef: shadow::Shadow,
    /// Number of heap blocks this thread allocated (the next block's number).
    heap_blocks: u32,
    /// Number of shared frames and blocks of locals with a block of their own this
    /// thread allocated (the next one's number).
    frame_blocks: u32,
    /// The live blocks of locals with a block of their own
    /// ([`crate::ir::InstKind::LocalBlock`]), in allocation order (`None` when there
    /// are none: most threads never have one, and a snapshot then copies one word).
    own: Option<Box<[OwnBlock]>>,
    /// Threads this thread joined.
    joined: Vec<Tid>,
    /// The thread-private store (`Builtin::PrivateGet`/`PrivateSet`): `(key, value)`
    /// pairs with nonzero values, so equal stores have equal vectors up to order
    /// (entries are never reordered: a key keeps its position until it is removed).
    private: Vec<(Val, Val)>,
    /// Spin-assume bookkeeping ([`spin`]).
    spin: spin::Spin,
    /// What the thread printed so far ([`print`]).
    printed: Option<Arc<print::Printed>>,
    /// The variadic arguments of the activations on the stack, frame by frame
    /// (`Frame::va`, `Frame::nva`); empty unless a variadic function runs.
    varargs: Vec<Val>,
    /// The text of the last `sprintf`/`snprintf` ([`crate::ir::Builtin::FormattedByte`]):
    /// rewritten by each before its copy loop reads it, dead after.
    formatted: Vec<u8>,
    /// The open SV-COMP atomic section, if any ([`Section`]).
    section: Option<Section>,
    /// [`crate::RunOptions::abort_blocks`].
    abort_blocks: bool,
    /// Activations entered so far (the next one's [`Frame::serial`]). Spin-assume's
    /// state comparison ignores it, as it ignores each frame's serial: it names calls
    /// for witnesses only.
    calls: u64,
    /// The number (from `calls`) of the last library call lowered inline that began
    /// ([`crate::ir::LibMark::begin`]), likewise for witnesses only.
    inline_call: u64,
    /// The value the next action, a load, awaits ([`crate::ir::Builtin::Awaits`]):
    /// set by `__porf_awaits`, cleared when any action is resumed. Always `None` at a
    /// loop's back edge, so spin-assume's state comparison leaves it out.
    awaits: Option<Val>,
    /// How many `__porf_final_begin()` are open ([`crate::ir::Builtin::FinalBegin`]):
    /// while positive, each write is followed by a `Note::FinalWrite` event.
    final_depth: u32,
}

/// An open atomic section: where it was opened, and whether the thread has performed
/// an action inside it since. Only a started section excludes other threads
/// ([`ThreadMachine::in_atomic_section`]): between the opening and the first action
/// inside, the thread has done nothing other threads could observe, so they may
/// still run then (a section that excluded them from its opening would lose the
/// interleavings where another thread runs between the thread's previous action and
/// the section).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Section {
    src: SrcLoc,
    started: bool,
}

/// A live block of a local with a block of its own: the frame (index in `frames`), the
/// local (index in `Function::locals`), the block's base.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct OwnBlock {
    depth: u32,
    var: u32,
    base: Val,
}

/// One activation of a function.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Frame {
    func: FuncId,
    block: BlockId,
    /// Index of the next instruction in `block`; `insts.len()` means the terminator.
    inst: u32,
    /// Start of the frame's registers in `Machine::vals`.
    base: u32,
    /// Start of the frame's private memory in `Machine::stack`.
    sp: u32,
    /// The caller's register receiving the return value.
    ret: Option<Reg>,
    /// The base of the activation's shared frame block (`Function::shared_size`), 0
    /// before it is allocated and after it is freed.
    shared: Val,
    /// The function has a shared frame and the activation has not allocated it yet:
    /// its first action is that `Malloc`.
    needs_shared: bool,
    /// The activation's variadic arguments: `Machine::varargs[va .. va + nva]`.
    va: u32,
    nva: u32,
    /// The activation's number in its thread ([`Machine::calls`] when it was entered):
    /// names one call of a bundled library function for witnesses
    /// ([`ThreadMachine::operation`]).
    serial: u64,
}

/// An action waiting for the engine and what to do with its answer.
#[derive(Clone, Debug)]
struct Pending {
    action: Action,
    cont: Cont,
}

/// How `resume` applies the engine's answer to the pending action.
#[derive(Copy, Clone, Debug)]
enum Cont {
    /// A thread-ending action: `resume` is never called.
    End,
    /// Write the answer (normalised to `ty`, if given) to `dst`, if given, and move on.
    Value {
        dst: Option<Reg>,
        ty: Option<Scalar>,
    },
    /// `pthread_mutex_trylock`: 0 if acquired, else EBUSY.
    TryLock { dst: Reg },
    /// A cell copy's load ([`crate::ir::InstKind::CopyLoad`]): the value to `dst`, 1 to
    /// `written`; an uninitialised cell (`resume_uninit`) gives 0 and 0.
    Copy { dst: Reg, written: Reg, ty: Scalar },
    /// `pthread_join` of `tid`: remember it, write the return value.
    Join { dst: Reg, tid: Tid },
    /// `malloc` allocated block number `heap_blocks`: count it, return its address.
    Malloc { dst: Option<Reg> },
    /// The running frame's shared block (frame number `frame_blocks`) is allocated:
    /// count it, record it in the frame, stay at the current instruction.
    SharedAlloc,
    /// The shared block of frame `depth` (index in `frames`) is freed: forget it, stay
    /// at the current instruction (a return or thread exit, which runs again).
    SharedFree { depth: u32 },
    /// A block of local `var` of the running frame is allocated (frame number
    /// `frame_blocks`): count it, record it, write its address to `dst`, move on.
    OwnAlloc { dst: Reg, var: u32 },
    /// Own block `index` (in `own`) is freed: forget it, stay at the current
    /// instruction (a `LocalBlock`, return or thread exit, which runs again).
    OwnFree { index: u32 },
    /// A `Note::FinalWrite` that follows a write inside `__VERIFIER_final_write`:
    /// nothing to write back; the program counter is already past the write.
    Note,
}

impl Pending {
    fn new(action: Action, cont: Cont) -> Pending {
        Pending { action, cont }
    }
    /// An action with no result to write back.
    fn plain(action: Action) -> Pending {
        Pending::new(
            action,
            Cont::Value {
                dst: None,
                ty: None,
            },
        )
    }
    fn end(action: Action) -> Pending {
        Pending::new(action, Cont::End)
    }
    fn fault(f: Fault, src: SrcLoc) -> Pending {
        Pending::end(Action::Error {
            kind: f.kind,
            msg: f.msg,
            src,
        })
    }
}

/// The message of a read of local variable `name` (a C path: `flag`, `s.next`, `a[3]`)
/// while it is uninitialised, whichever memory the local lives in.
pub fn uninit_local_message(name: &str) -> String {
    format!("read of an uninitialised local variable `{name}`")
}

/// EBUSY, what `pthread_mutex_trylock` returns for a taken mutex.
pub const EBUSY: Val = 16;

impl CThread {
    /// Thread `tid` about to run function `func` with arguments `args` (missing
    /// parameters are 0, extra arguments are ignored: used for thread entry points).
    /// Requires a module satisfying [`crate::program::validate`]; a thread that cannot
    /// start (unknown function, too many threads) starts with an "unsupported" error
    /// pending.
    pub fn new(
        code: Arc<Module>,
        run: &RunOptions,
        tid: Tid,
        func: FuncId,
        args: &[Val],
    ) -> CThread {
        CThread::start(code, run, tid, func, args, &[])
    }

    /// Thread 0 about to run `main(argc, argv)` with `argc = 1` and
    /// `argv = {argv0, NULL}`, both in the thread's private memory below main's frame
    /// (`argv0` is the NUL-terminated `name`).
    pub fn main(code: Arc<Module>, run: &RunOptions, name: &str) -> CThread {
        let argv = stack_addr(0, 0);
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&stack_addr(0, 16).to_le_bytes());
        bytes.extend_from_slice(&0i64.to_le_bytes());
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
        bytes.resize(bytes.len().div_ceil(8) * 8, 0);
        let main = code.main;
        CThread::start(code, run, 0, main, &[1, argv], &bytes)
    }

    /// A thread whose private memory starts with `stack` (below the entry frame).
    fn start(
        code: Arc<Module>,
        run: &RunOptions,
        tid: Tid,
        func: FuncId,
        args: &[Val],
        stack: &[u8],
    ) -> CThread {
        let mut m = Machine {
            tid,
            unroll: run.unroll.unwrap_or(u32::MAX),
            recursion_limit: run.recursion_limit(),
            nondet: run.nondet_range,
            frames: Vec::new(),
            vals: Vec::new(),
            stack: stack.to_vec(),
            undef: shadow::Shadow::default(),
            heap_blocks: 0,
            frame_blocks: 0,
            own: None,
            joined: Vec::new(),
            private: Vec::new(),
            spin: spin::Spin::default(),
            printed: None,
            varargs: Vec::new(),
            formatted: Vec::new(),
            section: None,
            abort_blocks: run.abort_blocks,
            calls: 0,
            inline_call: 0,
            awaits: None,
            final_depth: 0,
        };
        m.undef.resize(0, stack.len(), false);
        m.spin.active = !code.loops.is_empty();
        m.spin.zne = !run.disable_zne_spin_assume;
        m.spin.private_ok = m.spin.zne && run.spin_private_writes;
        let pending = if tid >= MAX_THREADS {
            Some(Fault::unsupported(format!(
                "thread {tid}: porf supports at most {MAX_THREADS} threads"
            )))
        } else if let Some(f) = code.funcs.get(func as usize) {
            let n = f.nparams as usize;
            let mut full = args[..n.min(args.len())].to_vec();
            full.resize(n, 0);
            m.enter(&code, func, &full, None).err()
        } else {
            Some(Fault::unsupported(format!(
                "thread entry {func} is not a function"
            )))
        };
        let pending = pending.map(|f| {
            let src = code
                .funcs
                .get(func as usize)
                .map_or(SrcLoc::UNKNOWN, |f| f.src);
            Pending::fault(f, src)
        });
        CThread { code, m, pending }
    }

    /// The thread's id.
    pub fn tid(&self) -> Tid {
        self.m.tid
    }

    /// The action `peek` returned (computed now if `peek` was not called), which the
    /// engine has just performed.
    fn take_pending(&mut self) -> Pending {
        match self.pending.take() {
            Some(p) => p,
            None => self.m.run_located(&self.code),
        }
    }
}

impl Machine {
    /// Inside `__VERIFIER_final_write` ([`Machine::final_depth`]), the note that
    /// follows write `action` (answered with `ret`): for a store, and for an RMW that
    /// wrote (not a failed compare-exchange), a `Note::FinalWrite` of its location.
    fn final_note(&self, action: &Action, ret: Val) -> Option<Pending> {
        if self.final_depth == 0 {
            return None;
        }
        let (loc, src) = match *action {
            Action::Store { loc, src, .. } => (loc, src),
            Action::Rmw { loc, op, src, .. } if op.apply(ret).is_some() => (loc, src),
            _ => return None,
        };
        let note = porf_graph::Note::FinalWrite { loc };
        Some(Pending::new(Action::Note { note, src }, Cont::Note))
    }

    /// The live blocks of locals with a block of their own.
    fn own(&self) -> &[OwnBlock] {
        self.own.as_deref().unwrap_or(&[])
    }

    /// Replaces the live blocks of locals with a block of their own by `f` of them
    /// (a rare change: kept as a boxed slice, one word in every snapshot).
    fn edit_own(&mut self, f: impl FnOnce(&mut Vec<OwnBlock>)) {
        let mut v = self.own.take().map_or_else(Vec::new, |b| b.into_vec());
        f(&mut v);
        self.own = (!v.is_empty()).then(|| v.into_boxed_slice());
    }
}

impl ThreadMachine for CThread {
    fn peek(&mut self) -> Action {
        let code = &self.code;
        let m = &mut self.m;
        self.pending
            .get_or_insert_with(|| m.run_located(code))
            .action
            .clone()
    }

    fn peeked(&self) -> Option<Action> {
        self.pending.as_ref().map(|p| p.action.clone())
    }

    fn resume(&mut self, ret: Val) {
        let p = self.take_pending();
        self.pending = match p.cont {
            Cont::End => Some(p),
            cont => {
                self.m.awaits = None;
                self.m.observe(&self.code, &p.action, cont, ret);
                self.m.resume(cont, ret);
                if let Some(s) = &mut self.m.section {
                    s.started = true;
                }
                // A spawn past the thread limit ends the spawning thread too, at the
                // call: a loop creating thousands of threads stops at the first one
                // porf cannot run (the new thread reports the same limit).
                if let Action::Spawn { src, .. } = p.action {
                    if ret >= MAX_THREADS as Val {
                        let f = Fault::unsupported(format!(
                            "pthread_create: thread {ret} would exceed the {MAX_THREADS} threads porf supports"
                        ));
                        self.pending = Some(Pending::fault(f, src));
                        return;
                    }
                }
                self.m.final_note(&p.action, ret)
            }
        };
    }

    /// Only a cell copy's load ([`Cont::Copy`]) reads uninitialised memory without an
    /// error; it then leaves 0 in both its registers.
    fn resume_uninit(&mut self) {
        let p = self.take_pending();
        match p.cont {
            Cont::Copy { dst, written, .. } => {
                self.m.awaits = None;
                self.m.observe(&self.code, &p.action, p.cont, 0);
                self.m.set(dst, 0);
                self.m.set(written, 0);
                self.m.advance();
            }
            _ => {
                debug_assert!(false, "resume_uninit of an action that is not a copy load");
                self.pending = Some(p);
                self.resume(0);
            }
        }
    }

    fn printed(&self) -> Vec<String> {
        print::lines(&self.m.printed)
    }

    fn in_atomic_section(&self) -> bool {
        self.m.section.is_some_and(|s| s.started)
    }

    fn operation(&self) -> Option<porf_graph::LibCall> {
        let p = self.pending.as_ref()?;
        self.m.operation(&self.code, &p.action)
    }

    fn awaited(&self) -> Option<Val> {
        match self.pending.as_ref()?.action {
            Action::Load { .. } => self.m.awaits,
            _ => None,
        }
    }
}
