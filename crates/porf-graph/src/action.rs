//! The contract between a program (a front end) and an explorer.
//!
//! A thread is a deterministic machine: [`ThreadMachine::peek`] says what it wants to do
//! next, the explorer performs that [`Action`] on its execution graph and hands the
//! result back with [`ThreadMachine::resume`]. Given the same sequence of results, a
//! thread always asks for the same actions; that is all an explorer relies on.

use std::fmt;

/// A value in memory or a register. Pointers are values too.
pub type Val = i64;

/// A thread identifier. Thread 0 is the main thread; children are numbered by the
/// explorer in a way that depends only on who spawned them (never on scheduling).
pub type Tid = u32;

/// A shared-memory location (an address).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Loc(pub u64);

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@{}", self.0)
    }
}

/// C11 memory orders, plus non-atomic accesses.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum MemOrder {
    NonAtomic,
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl MemOrder {
    pub fn is_atomic(self) -> bool {
        self != MemOrder::NonAtomic
    }
    /// Acquire, acq_rel or seq_cst.
    pub fn is_acquire(self) -> bool {
        matches!(
            self,
            MemOrder::Acquire | MemOrder::AcqRel | MemOrder::SeqCst
        )
    }
    /// Release, acq_rel or seq_cst.
    pub fn is_release(self) -> bool {
        matches!(
            self,
            MemOrder::Release | MemOrder::AcqRel | MemOrder::SeqCst
        )
    }
    pub fn is_sc(self) -> bool {
        self == MemOrder::SeqCst
    }
    /// The short name used in C11 and herd (`na`, `rlx`, `acq`, `rel`, `acq_rel`, `sc`).
    pub fn short(self) -> &'static str {
        match self {
            MemOrder::NonAtomic => "na",
            MemOrder::Relaxed => "rlx",
            MemOrder::Acquire => "acq",
            MemOrder::Release => "rel",
            MemOrder::AcqRel => "acq_rel",
            MemOrder::SeqCst => "sc",
        }
    }
}

/// Where an action comes from in the program's source, for witnesses.
/// `file` indexes [`Program::source_file`]; line and column are 1-based (0 = unknown).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct SrcLoc {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

impl SrcLoc {
    pub const UNKNOWN: SrcLoc = SrcLoc {
        file: 0,
        line: 0,
        col: 0,
    };
    pub fn line(line: u32) -> SrcLoc {
        SrcLoc {
            file: 0,
            line,
            col: 0,
        }
    }
}

/// The operation of a read-modify-write.
/// The integer width of an arithmetic RMW's location: the result wraps to `bytes`
/// bytes and is sign- or zero-extended back to a [`Val`], so memory always holds
/// values normalised to the location's type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Wrap {
    /// 1, 2, 4 or 8.
    pub bytes: u8,
    pub signed: bool,
}

impl Wrap {
    /// No wrapping beyond [`Val`]'s own 64 bits.
    pub const NONE: Wrap = Wrap {
        bytes: 8,
        signed: true,
    };

    /// `v` wrapped to this width.
    pub fn apply(self, v: Val) -> Val {
        match (self.bytes, self.signed) {
            (1, true) => v as i8 as Val,
            (1, false) => v as u8 as Val,
            (2, true) => v as i16 as Val,
            (2, false) => v as u16 as Val,
            (4, true) => v as i32 as Val,
            (4, false) => v as u32 as Val,
            _ => v,
        }
    }

    /// `a` and `b` compared as integers of this width and signedness.
    pub fn compare(self, a: Val, b: Val) -> std::cmp::Ordering {
        let (a, b) = (
            Wrap {
                signed: true,
                ..self
            }
            .apply(a),
            Wrap {
                signed: true,
                ..self
            }
            .apply(b),
        );
        if self.signed {
            a.cmp(&b)
        } else {
            // Sign-extended values of one width keep their unsigned order as u64s.
            (a as u64).cmp(&(b as u64))
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RmwOp {
    Add(Val, Wrap),
    Sub(Val, Wrap),
    And(Val),
    Or(Val),
    Xor(Val),
    Xchg(Val),
    /// Compare-exchange: writes `new` iff the old value equals `expected`. On failure the
    /// read part has order `fail_ord` and there is no write part.
    Cas {
        expected: Val,
        new: Val,
        fail_ord: MemOrder,
    },
    /// Fetch-and-add over the finite value domain `0..modulus`: writes
    /// `(old + add) mod modulus` (`add` in the domain). An `old` outside the domain —
    /// a front end's reserved "uninitialised" value, never written — makes it fail
    /// like a failed compare-exchange: no write part. For languages with a declared
    /// finite value domain, such as the toy language of Lahav and Boker, "What's
    /// Decidable About Causally Consistent Shared Memory?" (TOPLAS 2022).
    AddMod {
        add: Val,
        modulus: Val,
    },
    /// Exchange over the finite value domain `0..modulus`: writes `val`; an `old`
    /// outside the domain fails as for [`RmwOp::AddMod`].
    XchgMod {
        val: Val,
        modulus: Val,
    },
    /// Fetch-and-maximum (clang's `__sync_fetch_and_max`/`umax`, GenMC's `max`/`umax`
    /// RMW): writes the larger of `old` and the operand, both compared as integers of
    /// the [`Wrap`]'s width and signedness (the operand and `old` are normalised to the
    /// location's type, so the value written is too). Always writes, like a fetch-add.
    Max(Val, Wrap),
    /// Fetch-and-minimum: as [`RmwOp::Max`], the smaller of the two.
    Min(Val, Wrap),
    /// Add unless equal (the Linux kernel's `atomic_add_unless`): writes `old + add`
    /// unless `old == unless`, when it fails like a failed compare-exchange (no write
    /// part; the read keeps the RMW's order).
    AddUnless {
        add: Val,
        unless: Val,
    },
}

impl RmwOp {
    /// The value written when the read part returned `old`, or `None` when the RMW
    /// fails (a compare-exchange whose expected value differs) and writes nothing.
    pub fn apply(self, old: Val) -> Option<Val> {
        Some(match self {
            RmwOp::Add(v, w) => w.apply(old.wrapping_add(v)),
            RmwOp::Sub(v, w) => w.apply(old.wrapping_sub(v)),
            RmwOp::And(v) => old & v,
            RmwOp::Or(v) => old | v,
            RmwOp::Xor(v) => old ^ v,
            RmwOp::Xchg(v) => v,
            RmwOp::Cas { expected, new, .. } => {
                if old == expected {
                    new
                } else {
                    return None;
                }
            }
            RmwOp::AddMod { add, modulus } => {
                if !(0..modulus).contains(&old) {
                    return None;
                }
                (old + add).rem_euclid(modulus)
            }
            RmwOp::XchgMod { val, modulus } => {
                if !(0..modulus).contains(&old) {
                    return None;
                }
                val
            }
            RmwOp::Max(v, w) => {
                if w.compare(v, old).is_gt() {
                    v
                } else {
                    old
                }
            }
            RmwOp::Min(v, w) => {
                if w.compare(v, old).is_lt() {
                    v
                } else {
                    old
                }
            }
            RmwOp::AddUnless { add, unless } => {
                if old == unless {
                    return None;
                }
                old.wrapping_add(add)
            }
        })
    }
}

/// The kinds of program errors a thread can raise itself.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum ErrorKind {
    /// `assert` failed.
    Assertion,
    /// `abort()` was called.
    Abort,
    /// A memory-safety error (null dereference, invalid free, ...; the engine adds
    /// those that depend on other threads: use after free, double free, ...).
    Memory,
    /// A misused mutex (unlock of a mutex the thread does not hold).
    Lock,
    /// The program did something porf does not model (reported to the user as
    /// unsupported input rather than as a bug in the program).
    Unsupported,
    /// The thread's local computation never reaches its next action: its state
    /// repeated (certain), or it ran out of the front end's step budget (the message
    /// says which).
    NonTermination,
}

/// What a spawn says about the new thread's interchangeability with a thread spawned
/// before it by the same parent with the same entry and argument (symmetry reduction,
/// `porf-explore`'s `symmetry.rs`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Symmetry {
    /// Nothing: the thread may tell itself apart from its siblings.
    Asymmetric,
    /// The front end vouches that nothing in the program tells threads running this
    /// entry apart (no thread identity or per-thread address reaches a value, no
    /// join): the nearest such sibling may be taken as its twin, as GenMC does.
    Auto,
    /// The program declares the thread interchangeable with thread `tid` (GenMC's
    /// `__VERIFIER_spawn_symmetric`).
    Declared(Tid),
}

/// What a thread asks the explorer to do next.
///
/// The value handed back by [`ThreadMachine::resume`] is, per action:
/// `Load` the value read; `Rmw` the old value (for a compare-exchange, success is
/// `old == expected`); `Spawn` the child's [`Tid`]; `Join` the child's return value;
/// `TryLock` the lock's old value (0 means it was acquired); `Choose` the value chosen;
/// `BlockSize` the block's size; everything else 0.
/// `Block`, `Error` and `Finish` end the thread: `resume` is never called after them.
///
/// Memory accesses name the first byte they touch (`loc`) and their width (`bytes`, 1 to
/// 16: a front end may carry a 16-byte object's value as a [`Val`] that stands for it,
/// since the engine only moves values and compares them for equality); mutex operations name the first byte of the lock word and have no width. Every
/// location is its own cell holding whole values, which is exact as long as accesses
/// whose byte ranges overlap have the same `(loc, bytes)`. The explorers guarantee it:
/// an access overlapping one already in the execution with a different `(loc, bytes)`
/// (a *mixed-size* access; a mutex operation agrees with any access starting at its
/// byte) ends its thread with an [`ErrorKind::Unsupported`] error naming both, so no
/// answer is ever given from a graph holding such a pair (`porf-explore`'s
/// `mixed_size`). Widths are also used to check accesses to dynamically allocated
/// blocks against their bounds. A front end that keeps thread-private memory itself
/// may give it byte-accurate semantics; a front end that wants mixed-size accesses to
/// globals reported with a source position checks them itself.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    Load {
        loc: Loc,
        bytes: u8,
        ord: MemOrder,
        /// A cell copy ([`crate::ReadKind::Copy`], non-atomic): reading an uninitialised
        /// heap cell is not an error, the thread is resumed with
        /// [`ThreadMachine::resume_uninit`] instead.
        copy: bool,
        src: SrcLoc,
    },
    Store {
        loc: Loc,
        bytes: u8,
        val: Val,
        ord: MemOrder,
        src: SrcLoc,
    },
    Rmw {
        loc: Loc,
        bytes: u8,
        op: RmwOp,
        ord: MemOrder,
        src: SrcLoc,
    },
    /// Allocate the block `[base, base + size)`. The program chooses `base` (see
    /// [`Program::block_of`]) and never allocates the same base twice in one execution.
    /// `zeroed` (calloc): the block starts out as zeros; otherwise reading a byte of it
    /// before any write is a read of uninitialised memory.
    Malloc {
        base: Loc,
        size: u64,
        zeroed: bool,
        src: SrcLoc,
    },
    /// Free the block allocated at `base`. (A pointer that is not the start of a heap
    /// block is the program's own "invalid free" error, never a `Free`.)
    Free {
        base: Loc,
        src: SrcLoc,
    },
    /// Ask for the size of the block allocated at `base`, as its [`Action::Malloc`]
    /// recorded it (e.g. C's `realloc`, which copies the old block's contents, even
    /// when another thread allocated it). The engine resumes the thread with the size
    /// and records the answer as a [`crate::LabelKind::BlockSize`] event. When the graph has no malloc of `base` that happens-before the query, or
    /// has a free of it that does, the thread instead ends with the memory error a
    /// `Free` at this point would get (free of non-allocated memory, double free). The
    /// answer depends only on hb-before events, so it is the same whatever order the
    /// explorer adds events in.
    BlockSize {
        base: Loc,
        src: SrcLoc,
    },
    Fence {
        ord: MemOrder,
        src: SrcLoc,
    },
    /// Start a new thread running `entry(arg)`; see [`Program::spawn`]. `symmetric`:
    /// what the program says about the new thread's interchangeability with an
    /// earlier one, for symmetry reduction ([`Symmetry`]).
    Spawn {
        entry: u32,
        arg: Val,
        symmetric: Symmetry,
        src: SrcLoc,
    },
    /// Wait until thread `tid` has finished.
    Join {
        tid: Tid,
        src: SrcLoc,
    },
    /// Acquire the mutex at `loc`, blocking while another thread holds it.
    Lock {
        loc: Loc,
        src: SrcLoc,
    },
    /// Try to acquire the mutex at `loc` without blocking.
    TryLock {
        loc: Loc,
        src: SrcLoc,
    },
    /// Release the mutex at `loc`.
    Unlock {
        loc: Loc,
        src: SrcLoc,
    },
    /// Initialise the mutex at `loc` (a non-atomic write of 0: unlocked).
    MutexInit {
        loc: Loc,
        src: SrcLoc,
    },
    /// Destroy the mutex at `loc` (a non-atomic write of [`MUTEX_DESTROYED`]); a later
    /// lock that reads it is an error.
    MutexDestroy {
        loc: Loc,
        src: SrcLoc,
    },
    /// GenMC's `__VERIFIER_hp_retire(p)` of the block allocated at `base`: a free
    /// whose use-after-free check exempts hazard-pointer-protected accesses (a
    /// `LabelKind::Free` with `retire`).
    Retire {
        base: Loc,
        src: SrcLoc,
    },
    /// A GenMC annotation event (`LabelKind::Note`); the thread is resumed with 0.
    Note {
        note: crate::label::Note,
        src: SrcLoc,
    },
    /// A nondeterministic choice of a value in `lo..=hi` (requires `lo <= hi`), e.g. C's
    /// `__VERIFIER_nondet_int()` over a declared domain. The explorer resumes the thread
    /// with each value in turn, in increasing order: each value starts its own
    /// executions. The choice touches no memory; its event records the value chosen.
    /// Explorers that do not branch over choices turn it into an
    /// [`ErrorKind::Unsupported`] error.
    Choose {
        lo: Val,
        hi: Val,
        src: SrcLoc,
        /// What the choice decides, named for a user in the refusal of explorers that
        /// do not branch (e.g. "a nondeterministic value (`__VERIFIER_nondet_*`)").
        what: &'static str,
    },
    /// The thread blocks forever and the execution is not counted as complete: a failed
    /// assumption, or a loop bound reached.
    Block {
        reason: BlockReason,
        src: SrcLoc,
    },
    /// The thread hit an error (failed assertion, abort, ...).
    Error {
        kind: ErrorKind,
        msg: String,
        src: SrcLoc,
    },
    /// The thread returned `ret`.
    Finish {
        ret: Val,
    },
}

/// `match $action { <every action with a source position> { src, .. } => $has, Finish
/// => $none }`, for both `&Action` and `&mut Action` (one list of the variants).
macro_rules! match_src {
    ($action:expr, $src:ident => $has:expr, $none:expr) => {
        match $action {
            Action::Load { src: $src, .. }
            | Action::Store { src: $src, .. }
            | Action::Rmw { src: $src, .. }
            | Action::Malloc { src: $src, .. }
            | Action::Free { src: $src, .. }
            | Action::BlockSize { src: $src, .. }
            | Action::MutexInit { src: $src, .. }
            | Action::MutexDestroy { src: $src, .. }
            | Action::Fence { src: $src, .. }
            | Action::Spawn { src: $src, .. }
            | Action::Join { src: $src, .. }
            | Action::Lock { src: $src, .. }
            | Action::TryLock { src: $src, .. }
            | Action::Unlock { src: $src, .. }
            | Action::Choose { src: $src, .. }
            | Action::Retire { src: $src, .. }
            | Action::Note { src: $src, .. }
            | Action::Block { src: $src, .. }
            | Action::Error { src: $src, .. } => $has,
            Action::Finish { .. } => $none,
        }
    };
}

impl Action {
    /// The action's source position, for those that have one (all but `Finish`).
    pub fn src_mut(&mut self) -> Option<&mut SrcLoc> {
        match_src!(self, src => Some(src), None)
    }

    pub fn src(&self) -> SrcLoc {
        match_src!(self, src => *src, SrcLoc::UNKNOWN)
    }
}

/// Why a thread blocks for good.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BlockReason {
    /// A failed `assume`: the execution is not one of the program's.
    Assume,
    /// A loop reached the bound the user set (`--unroll`): the rest of the execution
    /// was not explored.
    LoopBound,
    /// A call would have made a function active more times at once than the recursion
    /// limit allows (`--recursion-limit`): the rest of the execution was not explored.
    RecursionLimit,
    /// A lock acquire read a taken lock (added by the engine, never by a program).
    Lock,
    /// Spin-assume (GenMC's `SpinAssumePass`, done at run time by the C front end): a
    /// loop iteration that wrote nothing and left the thread where an earlier point of
    /// the same loop visit was (same live state, or the state a re-read of the read
    /// just before the loop would give) is about to take its back edge. Every
    /// continuation is also one of an execution without that iteration, so the
    /// execution is blocked ("assume the loop exits"). `reads` is the number of read
    /// events (loads and failed compare-exchanges) the failed iteration added, the last
    /// ones of the thread before this block; `repeats` says that the iteration left the
    /// thread in the state it started in (so, reading the same values, it would run
    /// the same way again): `--check-liveness` asks, of such blocks, whether those
    /// reads all read the co-latest write.
    SpinLoop { reads: u32, repeats: bool },
    /// A read (or RMW) of a location no write has initialised, in a language whose
    /// locations must be initialised explicitly (the toy language of Lahav and Boker,
    /// "What's Decidable About Causally Consistent Shared Memory?", Remark 1: such a
    /// read blocks the thread).
    Uninit,
    /// A blocking wait of a library primitive written over atomics (a condition
    /// variable, a read-write lock): the thread's last event before this block is the
    /// read whose value did not let it go on. It waits for a later write of that
    /// location: if one exists in co the execution where the read sees it is explored
    /// separately (this one is blocked); if none does, the thread waits for good, as a
    /// lock acquire of a lock nobody releases (a deadlock when every unfinished thread
    /// waits so).
    Wait,
    /// A thread held to a given run went beyond it (read another value, or made more
    /// accesses): `porf reach`'s replay of a witness (`porf-cli`'s `reach::replay`).
    /// Like a failed assume, the execution is not one of those asked about.
    Confined,
}

/// The value a destroyed mutex holds (a lock that reads it is an error).
pub const MUTEX_DESTROYED: Val = -1;

/// One thread of a program, as a deterministic machine. `Send + Sync`: a parallel explorer
/// hands thread states (with the graph they belong to) from one worker thread to
/// another, and explorers share unchanged thread states between copies (`Arc`).
pub trait ThreadMachine: Clone + Send + Sync {
    /// The next action. Calling `peek` twice without `resume` yields the same action.
    fn peek(&mut self) -> Action;
    /// The action the next `peek` returns, if the machine already computed it (a
    /// `peek` since the last `resume`) and can give it without changing: then it
    /// equals what `peek` returns. `None` otherwise (the default): the caller peeks.
    /// Explorers share a thread state that answers it between executions without
    /// copying it (`porf-explore`'s `State`).
    fn peeked(&self) -> Option<Action> {
        None
    }
    /// The action returned by the last `peek` was performed and returned `ret`.
    fn resume(&mut self, ret: Val);
    /// The action returned by the last `peek`, a copy load ([`Action::Load`] with
    /// `copy`), read a heap cell no write has initialised. A machine that never issues
    /// copy loads never receives this; wrappers must forward it.
    fn resume_uninit(&mut self) {
        self.resume(0)
    }
    /// The thread's observable registers, for final-state comparisons.
    fn registers(&self) -> Vec<Val> {
        Vec::new()
    }
    /// Whether the thread is inside an atomic section it has started (SV-COMP's
    /// `__VERIFIER_atomic_*`): no other thread may take a step until it leaves it.
    /// Only programs whose [`Program::atomic_sections`] is true have such threads.
    fn in_atomic_section(&self) -> bool {
        false
    }
    /// The text the thread printed so far (C's `printf`), oldest first; witnesses show
    /// it. Printing is not an action: it never affects the exploration.
    fn printed(&self) -> Vec<String> {
        Vec::new()
    }
    /// The library call the action returned by the last `peek` belongs to, when the
    /// program's library is written in the program's own language (porf-c's bundled
    /// headers) and the action is one of its internal steps; witnesses fold the events
    /// of one call into one line. Never affects the exploration.
    fn operation(&self) -> Option<LibCall> {
        None
    }
    /// The value the load returned by the last `peek` awaits: unless it reads this
    /// value, the thread blocks right after it (a barrier's wait for the last arrival
    /// of its round). `None` for every other action. Only programs whose
    /// [`Program::awaits`] is true have such loads. A scheduling hint: explorers may
    /// hold the thread back until a write of that value is there to read, which
    /// changes the order events are added in, never the executions.
    fn awaited(&self) -> Option<Val> {
        None
    }
    /// The hardware facts ([`crate::hw::Hw`]: dependencies counted in the thread's
    /// reads, access annotations, fence kind, exclusive pair) of the action returned
    /// by the last `peek`. `None` (the default) for front ends whose programs run under
    /// C11-style models only; an explorer of a hardware model copies the answer into the
    /// events it adds for the action ([`crate::Graph::set_hw`]).
    fn hw(&self) -> Option<crate::hw::Hw> {
        None
    }
}

/// One call of a library function, as [`ThreadMachine::operation`] reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibCall {
    /// The function the user called (e.g. `pthread_cond_wait`).
    pub name: String,
    /// The call's number within its thread: two actions belong to the same call
    /// exactly when their `call`s are equal.
    pub call: u64,
    /// The call's first two arguments (0 where it has fewer), e.g. the condition
    /// variable and the mutex of a `pthread_cond_wait`.
    pub args: [Val; 2],
}

/// A program: a main thread, a way to start more threads, and initial memory.
pub trait Program {
    type Thread: ThreadMachine;
    /// Thread 0.
    fn main_thread(&self) -> Self::Thread;
    /// Whether threads of this program may enter atomic sections
    /// ([`ThreadMachine::in_atomic_section`]); explorers that cannot honour them refuse
    /// such programs (`porf_explore::supported_sections`).
    fn atomic_sections(&self) -> bool {
        false
    }
    /// Whether threads of this program may announce awaited loads
    /// ([`ThreadMachine::awaited`]).
    fn awaits(&self) -> bool {
        false
    }
    /// A new thread running entry point `entry` with argument `arg`.
    fn spawn(&self, tid: Tid, entry: u32, arg: Val) -> Self::Thread;
    /// The value of `loc` before any write (the initialisation write's value).
    fn init_value(&self, _loc: Loc) -> Val {
        0
    }
    /// The base of the dynamically allocated block `loc` belongs to, if `loc` lies in
    /// memory that exists only between a [`Action::Malloc`] of that base and its
    /// [`Action::Free`] (a pure function of the address). `None` for memory that
    /// always exists (globals).
    fn block_of(&self, _loc: Loc) -> Option<Loc> {
        None
    }
    /// Whether the block allocated at `base` is one the program allocated on request
    /// (C's `malloc`), which a complete execution is expected to free: the blocks a
    /// leak warning is about. `false` for blocks the program manages itself (C's
    /// shared frames of locals). Default: every block.
    fn is_heap_block(&self, _base: Loc) -> bool {
        true
    }
    /// The name of the function whose code is at source position `src`, if the
    /// program knows (for messages naming a loop or a growing thread).
    fn function_at(&self, _src: SrcLoc) -> Option<String> {
        None
    }
    /// A human name for `loc` (a variable name), for witnesses.
    fn loc_name(&self, loc: Loc) -> String {
        loc.to_string()
    }
    /// How a witness shows value `val` read from or written to `loc` with an access of
    /// `bytes` bytes, when it is better shown by name than by number (a pointer as
    /// `&x`). `None`: the number.
    fn show_value(&self, _loc: Loc, _bytes: u8, _val: Val) -> Option<String> {
        None
    }
    /// [`Program::loc_name`] within one execution: `site(l)` is the source location of
    /// the [`Action::Malloc`] of the block `l` lies in (`None` outside allocated
    /// blocks), so a program that knows what each allocation site allocates can name
    /// heap memory by type and field (`node#1.0.next`).
    fn loc_name_in(&self, loc: Loc, _site: &dyn Fn(Loc) -> Option<SrcLoc>) -> String {
        self.loc_name(loc)
    }
    /// The name of the allocated block at `base` within one execution (`site` as for
    /// [`Program::loc_name_in`]): the block, where [`Program::loc_name_in`] may name
    /// the first field at the same address.
    fn block_name_in(&self, base: Loc, site: &dyn Fn(Loc) -> Option<SrcLoc>) -> String {
        self.loc_name_in(base, site)
    }
    /// How the end of the life of the allocated block at `base` reads in a witness
    /// when its [`Action::Free`] is no call to `free` (`site` as for
    /// [`Program::loc_name_in`]): a function's frame released as it returns,
    /// `worker() returns`. `None`: a `free`.
    fn block_end_in(&self, _base: Loc, _site: &dyn Fn(Loc) -> Option<SrcLoc>) -> Option<String> {
        None
    }
    /// The error message of a read of `loc` that reads from no write although the
    /// location lies in an allocated block that was not zero-filled (`site` as for
    /// [`Program::loc_name_in`]), when the program knows better than the engine what
    /// the memory is (a local variable in a block of its own). `None`: the engine's
    /// message for uninitialised heap memory.
    fn uninit_read_message(
        &self,
        _loc: Loc,
        _site: &dyn Fn(Loc) -> Option<SrcLoc>,
    ) -> Option<String> {
        None
    }
    /// [`Program::show_value`] within one execution (`site` as for
    /// [`Program::loc_name_in`]).
    fn show_value_in(
        &self,
        loc: Loc,
        bytes: u8,
        val: Val,
        _site: &dyn Fn(Loc) -> Option<SrcLoc>,
    ) -> Option<String> {
        self.show_value(loc, bytes, val)
    }
    /// The path of source file number `file` of [`SrcLoc`].
    fn source_file(&self, _file: u32) -> &str {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cas_applies_only_on_expected() {
        let cas = RmwOp::Cas {
            expected: 1,
            new: 5,
            fail_ord: MemOrder::Relaxed,
        };
        assert_eq!(cas.apply(1), Some(5));
        assert_eq!(cas.apply(2), None);
        let unless = RmwOp::AddUnless { add: 2, unless: 3 };
        assert_eq!(unless.apply(1), Some(3));
        assert_eq!(unless.apply(3), None);
        let fadd = RmwOp::AddMod { add: 3, modulus: 4 };
        assert_eq!(fadd.apply(0), Some(3));
        assert_eq!(fadd.apply(2), Some(1));
        assert_eq!(fadd.apply(-1), None);
        assert_eq!(fadd.apply(4), None);
        let xchg = RmwOp::XchgMod { val: 2, modulus: 3 };
        assert_eq!(xchg.apply(1), Some(2));
        assert_eq!(xchg.apply(-1), None);
        assert_eq!(
            RmwOp::Add(3, Wrap::NONE).apply(i64::MAX),
            Some(i64::MIN + 2)
        );
        let u8w = Wrap {
            bytes: 1,
            signed: false,
        };
        assert_eq!(RmwOp::Add(3, u8w).apply(254), Some(1));
        let i32w = Wrap {
            bytes: 4,
            signed: true,
        };
        assert_eq!(
            RmwOp::Sub(1, i32w).apply(i32::MIN as i64),
            Some(i32::MAX as i64)
        );
    }

    #[test]
    fn max_and_min_compare_at_their_width_and_signedness() {
        let (i32w, u32w) = (
            Wrap {
                bytes: 4,
                signed: true,
            },
            Wrap {
                bytes: 4,
                signed: false,
            },
        );
        // An `int` holding -1, normalised as -1: as unsigned it is 0xffffffff.
        assert_eq!(RmwOp::Max(42, i32w).apply(-1), Some(42));
        assert_eq!(RmwOp::Max(42, u32w).apply(-1), Some(-1));
        assert_eq!(RmwOp::Min(42, u32w).apply(-1), Some(42));
        assert_eq!(RmwOp::Min(42, i32w).apply(-1), Some(-1));
        // An `unsigned` holding 0xffffffff (zero-extended): as signed it is -1.
        assert_eq!(RmwOp::Max(3, i32w).apply(0xffff_ffff), Some(3));
        assert_eq!(RmwOp::Max(3, u32w).apply(0xffff_ffff), Some(0xffff_ffff));
        let u64w = Wrap {
            bytes: 8,
            signed: false,
        };
        assert_eq!(RmwOp::Max(1, u64w).apply(-5), Some(-5));
        assert_eq!(RmwOp::Max(1, Wrap::NONE).apply(-5), Some(1));
    }

    #[test]
    fn order_strengths() {
        assert!(MemOrder::SeqCst.is_acquire() && MemOrder::SeqCst.is_release());
        assert!(!MemOrder::Relaxed.is_acquire());
        assert!(!MemOrder::NonAtomic.is_atomic());
    }
}
