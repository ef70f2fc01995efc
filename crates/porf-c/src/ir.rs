//! The intermediate representation between the C front end and the interpreter.
//!
//! A [`Module`] is a set of [`Function`]s, each a control-flow graph of [`Block`]s
//! holding three-address [`Inst`]s over virtual registers, plus the layout and initial
//! image of global memory. The front end (`lower`) produces it; the interpreter
//! (`interp`) runs it one thread at a time under the engine's Action contract.
//!
//! Invariants the front end guarantees and the interpreter relies on:
//! - Every register is an `i64` holding a value already normalised to the C type it
//!   was computed at (sign- or zero-extended from its width, `_Bool` is 0 or 1).
//!   Arithmetic instructions carry the [`Scalar`] type whose wrap-around they obey.
//! - Every address is a byte address in porf's address space (see [`addr`]). Global
//!   variables live at the addresses the module's layout gives them; the interpreter
//!   owns the encoding of heap, stack-frame and function addresses.
//! - A memory access names the [`Scalar`] it reads or writes. Accesses to thread-private
//!   memory (address-taken locals, see [`InstKind::FrameAddr`]) never become events;
//!   every other access is one engine event.
//! - A local holds no value until something is stored in it: a register local's
//!   declaration leaves an [`InstKind::Indeterminate`] marker (replaced by
//!   [`crate::uninit::instrument`] before the module is complete), private frame bytes
//!   are uninitialised on entry and after [`InstKind::FrameInit`] with `defined: false`,
//!   shared frames are engine blocks allocated uninitialised. Loads, RMWs and
//!   compare-exchanges of uninitialised private bytes are memory errors; cell copies
//!   ([`InstKind::CopyLoad`], [`InstKind::CopyStore`]) carry the uninitialised state
//!   instead.
//! - Functions may recurse: calls are interpreted with a real frame stack, bounded by
//!   `RunOptions::recursion_limit`.
//! - Every block ends in exactly one [`Terminator`].

use porf_graph::{MemOrder, SrcLoc, Val};
use std::collections::BTreeMap;

/// Index of a function in [`Module::funcs`].
pub type FuncId = u32;
/// Index of a block in [`Function::blocks`].
pub type BlockId = u32;
/// A virtual register of the current frame, `0..Function::nregs`.
pub type Reg = u32;
/// Per-function loop identifier, `0..Function::nloops`.
pub type LoopId = u32;

/// Address-space layout shared by the front end and the interpreter.
pub mod addr {
    /// The null pointer.
    pub const NULL: i64 = 0;
    /// Global variables occupy `[GLOBAL_BASE, HEAP_BASE)`.
    pub const GLOBAL_BASE: i64 = 0x1000;
    /// Heap blocks start here (encoding chosen by the interpreter).
    pub const HEAP_BASE: i64 = 1 << 44;
    /// Thread-private stack memory starts here (encoding chosen by the interpreter).
    pub const STACK_BASE: i64 = 1 << 45;
    /// Function "addresses" (values of function pointers) start here: `FUNC_BASE + id`.
    pub const FUNC_BASE: i64 = 1 << 46;
    /// Shared frames (the locals other threads may reach, see
    /// [`super::Function::shared_size`]) start here (encoding chosen by the
    /// interpreter).
    pub const FRAME_BASE: i64 = 1 << 47;
}

/// A scalar C type as the machine sees it: width in bytes, signedness and float-ness.
/// `bool` is `Scalar { size: 1, signed: false, float: false }` and pointers are
/// `Scalar::PTR`. `float` and `double` are [`Scalar::F32`] and [`Scalar::F64`]: their
/// values are IEEE 754 binary32 / binary64 bit patterns (a `float`'s in the low 32 bits,
/// zero-extended), so memory and the engine move them like unsigned integers of their
/// width, and only arithmetic, comparisons and [`InstKind::FloatConvert`] look at them
/// as numbers.
/// `unsigned char` has the same `Scalar` as `bool`, so the front end never emits
/// [`InstKind::Convert`] to it (whose `BOOL` target means "!= 0"): conversions to
/// `unsigned char` are a `Binary And 0xff` instead.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Scalar {
    /// 1, 2, 4 or 8; or 16 for the object of an `_Atomic` struct of 16 bytes, whose
    /// values are codes of 16-byte patterns ([`crate::wide`]): moved and compared for
    /// equality only, never computed with.
    pub size: u8,
    /// False for floating types.
    pub signed: bool,
    /// An IEEE floating type (size 4 or 8).
    pub float: bool,
}

impl Scalar {
    pub const BOOL: Scalar = Scalar {
        size: 1,
        signed: false,
        float: false,
    };
    pub const CHAR: Scalar = Scalar {
        size: 1,
        signed: true,
        float: false,
    };
    pub const INT: Scalar = Scalar {
        size: 4,
        signed: true,
        float: false,
    };
    pub const LONG: Scalar = Scalar {
        size: 8,
        signed: true,
        float: false,
    };
    pub const PTR: Scalar = Scalar {
        size: 8,
        signed: false,
        float: false,
    };

    /// `float` (binary32).
    pub const F32: Scalar = Scalar {
        size: 4,
        signed: false,
        float: true,
    };
    /// `double` (binary64).
    pub const F64: Scalar = Scalar {
        size: 8,
        signed: false,
        float: true,
    };

    /// An integer type of `size` bytes.
    pub const fn int(size: u8, signed: bool) -> Scalar {
        Scalar {
            size,
            signed,
            float: false,
        }
    }

    /// The unsigned integer type of the same width: how byte-level code (`memset`,
    /// `memcmp`) treats a value's bits, floating or not.
    pub fn bits(self) -> Scalar {
        if self.float {
            Scalar::int(self.size, false)
        } else {
            self
        }
    }

    /// `v` wrapped to this type's width and sign- or zero-extended back to 64 bits
    /// (for floats: the bit pattern, a `float`'s zero-extended).
    pub fn normalize(self, v: Val) -> Val {
        porf_graph::Wrap {
            bytes: self.size,
            signed: self.signed,
        }
        .apply(v)
    }
}

/// An instruction operand.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Operand {
    Reg(Reg),
    Const(Val),
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum UnOp {
    /// Arithmetic negation (for a floating type: the sign bit flipped).
    Neg,
    /// Bitwise complement `~`.
    BitNot,
    /// Logical `!`: 1 if the operand is 0 (for a floating type: +0.0 or -0.0), else 0.
    LogNot,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Division; the interpreter raises a memory-class error
    /// "division by zero" on a zero divisor.
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    /// Arithmetic shift for signed types, logical for unsigned.
    Shr,
    // Comparisons produce 0 or 1; signedness of `ty` selects signed or unsigned compare,
    // a floating `ty` IEEE comparison (false when either operand is a NaN, except `Ne`;
    // -0.0 == 0.0). On a floating `ty` only `Add Sub Mul Div` and the comparisons occur
    // (IEEE arithmetic rounding to nearest, ties to even; division by zero gives an
    // infinity or a NaN, as Annex F specifies).
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Read-modify-write operations of `<stdatomic.h>` (compare-exchange is separate).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RmwKind {
    Add,
    Sub,
    And,
    Or,
    Xor,
    Xchg,
    /// Fetch-and-maximum / minimum (clang's `__sync_fetch_and_max`, `_min`, `_umax`,
    /// `_umin`): compared signed (`Max`, `Min`) or unsigned (`UMax`, `UMin`) at the
    /// location's width, whatever the location's own signedness.
    Max,
    Min,
    UMax,
    UMin,
}

/// Library calls the front end recognises by name and the interpreter implements.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Builtin {
    /// `malloc(size)`: one argument, the byte size; the block's bytes are
    /// uninitialised until written.
    Malloc,
    /// `calloc(n, size)`: two arguments, `n` and `size`; the block of `n * size` bytes
    /// starts out as zeros.
    Calloc,
    /// `exit(code)`: one argument. In `main`'s thread, the thread finishes with `code`
    /// (C11 5.1.2.2.3: returning from `main` is calling `exit`, so porf treats both
    /// alike; other threads run on, as after `main` returns). In another thread, the
    /// thread ends as with `pthread_exit(NULL)` (its frames freed) and the others run
    /// on: what GenMC 0.11 does (its `exit` pops the caller's stack only).
    Exit,
    /// `free(ptr)`; `free(NULL)` is a no-op; a pointer that is not the start of a heap
    /// block is an "invalid free"; the engine checks double frees and use after free.
    Free,
    /// `__porf_block_size(ptr)` (used by the lowering of `realloc`): the size in bytes
    /// of the heap block `ptr` starts, as its `malloc` recorded it, whichever thread
    /// allocated it ([`porf_graph::Action::BlockSize`]). A pointer that is not the start
    /// of a heap block is the "invalid free" error of [`Builtin::Free`]; a block whose
    /// malloc does not happen-before the call, or that was freed before it, is the
    /// engine's free of non-allocated memory or double free.
    BlockSize,
    /// GenMC's `__VERIFIER_hazptr_protect(hp, p)` (the protect of
    /// `__VERIFIER_hp_protect`): two arguments; a `Note::HpProtect` event naming the
    /// heap block `p` points into.
    HpProtect,
    /// GenMC's `__VERIFIER_hazptr_retire(p)` (`__VERIFIER_hp_retire`): a free
    /// ([`Builtin::Free`]'s checks) that exempts hazard-pointer-protected accesses
    /// from the use-after-free check ([`porf_graph::Action::Retire`]).
    HpRetire,
    /// `__porf_final_begin()` / `__porf_final_end()` (GenMC's `__VERIFIER_final_write`
    /// and `__VERIFIER_final_CAS` in porf's `genmc.h`): between them, each write the
    /// thread performs is followed by a `Note::FinalWrite` event of its location. No
    /// arguments.
    FinalBegin,
    FinalEnd,
    /// `__VERIFIER_nondet_<type>()`: no arguments; a value of type `ty`, chosen by the
    /// engine ([`porf_graph::Action::Choose`]) among `{0, 1}` if `boolean` (`_Bool`,
    /// whose `Scalar` is that of `unsigned char`), else among the values of
    /// [`crate::RunOptions::nondet_range`] `ty` can hold (no range, or none of its
    /// values fits: an unsupported-input error at the call).
    Nondet {
        ty: Scalar,
        boolean: bool,
    },
    /// `pthread_self()`: the engine thread id of the caller.
    ThreadSelf,
    /// GCC's bit builtins on a value of `width` bytes (two arguments: the value and
    /// `width`; the value is taken as unsigned): `__builtin_ffs*` (1 + index of the
    /// lowest set bit, 0 for 0), `__builtin_clz*` / `__builtin_ctz*` (leading /
    /// trailing zeros; 0 is undefined in GCC and a memory-class error here),
    /// `__builtin_popcount*` (set bits).
    Bits(BitOp),
    /// `__porf_private_get(key)`: the value the calling thread last stored under `key`
    /// with [`Builtin::PrivateSet`] (0 if none). The thread-private store is interpreter
    /// state, not memory: no events. porf's bundled library code keeps per-thread
    /// facts in it (how often the thread holds a mutex or a read-write lock, its
    /// `pthread_setspecific` values).
    PrivateGet,
    /// `__porf_private_set(key, val)`: two arguments; stores `val` under `key` for the
    /// calling thread.
    PrivateSet,
    /// `__porf_is_global(ptr)` (used by porf's bundled library code): 1 if `ptr`
    /// points into the global area (globals, static locals, thread-locals: objects that
    /// exist, zero-initialised unless initialised otherwise, for the whole run), 0
    /// otherwise (heap blocks and shared frames, whose bytes are uninitialised until
    /// written; private locals, a new object each time their block is entered). No
    /// events.
    IsGlobal,
    /// `__porf_await(cond)`: blocks the thread with `BlockReason::Wait` when `cond` is
    /// 0. Contract for library code: the thread's last event before it is the read
    /// whose value `cond` was computed from (the wait is for a later write there).
    Await,
    /// `__porf_awaits(val)`: no event; announces that the thread's next action is a
    /// load after which it blocks unless the load reads `val` (porf's barrier wait):
    /// [`porf_graph::ThreadMachine::awaited`] says so while that load is pending. A
    /// scheduling hint only; the blocking itself is the library code's own assume.
    Awaits,
    /// `__builtin_va_start(ap, last)` (`va_start`): no arguments; the `va_list` value
    /// naming the running activation's first variadic argument: `(depth + 1) << 32 |
    /// index` with `depth` the activation's place in the call stack. Only in a
    /// variadic function (the front end checks).
    VaStart,
    /// `__builtin_va_arg(ap, T)` (`va_arg`): one argument, a `va_list` value; the
    /// variadic argument it names (its bits as passed; the front end converts). A
    /// value naming no live activation's argument (past the last, or of an activation
    /// that returned) is a memory-class error (undefined behaviour).
    VaArg,
    /// `sprintf`/`snprintf` (one argument `i`): byte `i` of the text the thread's last
    /// [`InstKind::Print`] with `to_buffer` formatted (the front end's copy loop asks
    /// only for bytes below its length).
    FormattedByte,
    /// `__porf_choose(n)`: a value in `0..n` chosen by the engine
    /// ([`porf_graph::Action::Choose`]), for library code that must explore every
    /// choice: which waiter a condition-variable signal wakes, its only use (the refusal
    /// of explorers that do not branch names that construct). `n == 1` is 0 without an
    /// event; `n < 1` is a fault (porf's own library never asks for it).
    Choose,
    /// `__VERIFIER_loop_bound(n)` (Dat3M's per-loop bound hint): one argument `n`; the
    /// result is `n + 1`, for the next loop statement's [`InstKind::LoopHint`]. `n < 0`
    /// is an unsupported-input error.
    LoopBound,
    /// Two arguments `lo`, `hi`: the code ([`crate::wide`]) of the 16-byte value whose
    /// low and high 8 bytes they are (an `_Atomic` struct of 16 bytes built from its
    /// members).
    WidePack,
    /// Two arguments `id`, `k`: half `k` (0: bytes 0..8, 1: bytes 8..16) of the 16-byte
    /// value of code `id` ([`crate::wide`]), as 64 bits.
    WideHalf,
    /// One argument: the value converted from `from` to `to`, one of them a 128-bit
    /// integer type (`interp::arith::wide_convert`).
    WideConvert {
        from: Scalar,
        to: Scalar,
    },
}

/// One piece of a `printf` format, after the front end parsed it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PrintPiece {
    /// Text printed as is (`%%` already turned into `%`).
    Text(String),
    /// A conversion of the next argument: `conv` is the conversion character
    /// (`d i u x X o c p s`), `spec` the whole directive (`%-8ld`) for flags and width,
    /// `size` the argument's byte width (after the default promotions).
    Conv { conv: char, spec: String, size: u8 },
}

/// The operation of [`Builtin::Bits`].
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BitOp {
    Ffs,
    Clz,
    Ctz,
    Popcount,
}

#[derive(Clone, PartialEq, Debug)]
pub enum InstKind {
    /// `dst = src`
    Copy { dst: Reg, src: Operand },
    /// `dst = op a`, wrapped to `ty`.
    Unary {
        dst: Reg,
        op: UnOp,
        a: Operand,
        ty: Scalar,
    },
    /// `dst = a op b` computed on values of type `ty` and wrapped to `ty`
    /// (comparisons yield 0/1 and compare as `ty`).
    Binary {
        dst: Reg,
        op: BinOp,
        a: Operand,
        b: Operand,
        ty: Scalar,
    },
    /// `dst = (to) a`: conversion between integer types (and pointers, which are
    /// `Scalar::PTR`). `to == Scalar::BOOL` means "a != 0". Never a floating type.
    Convert { dst: Reg, a: Operand, to: Scalar },
    /// `dst = (to) a` where `from` or `to` is floating (`a` normalised to `from`):
    /// integer to floating rounds to nearest (ties to even), `double` to `float`
    /// too, `float` to `double` is exact; floating to integer truncates toward zero,
    /// and a NaN or a truncated value `to` cannot represent is undefined in C: the
    /// interpreter raises a memory-class error. An integer `to` is never `_Bool` (the
    /// front end compares with 0.0 instead), so `Scalar::BOOL` here is `unsigned char`.
    FloatConvert {
        dst: Reg,
        a: Operand,
        from: Scalar,
        to: Scalar,
    },
    /// `dst = address of byte `offset` of the current frame's private memory`.
    /// The frame has [`Function::frame_size`] bytes, uninitialised on entry (see
    /// [`InstKind::FrameInit`]).
    FrameAddr { dst: Reg, offset: u32 },
    /// Bytes `offset .. offset + size` of the current frame's private memory become 0
    /// and initialised (`defined`, an object with an initializer, before its items are
    /// stored) or uninitialised (a declaration without initializer is reached: the
    /// object's value is indeterminate again, C11 6.8p3). Reading an uninitialised
    /// private byte with a load, RMW or compare-exchange is a memory error naming the
    /// object ([`Function::locals`]).
    FrameInit {
        offset: u32,
        size: u32,
        defined: bool,
    },
    /// `dst = address of byte `offset` of the current activation's shared frame: the
    /// locals another thread may reach ([`Function::shared_size`] bytes, an engine
    /// block allocated, uninitialised, on entry and freed on return, see `interp`).
    SharedAddr { dst: Reg, offset: u32 },
    /// `dst = address of the current thread's copy of thread-local template offset
    /// `offset` (see [`TlsLayout`]).
    TlsAddr { dst: Reg, offset: u32 },
    /// `dst = FUNC_BASE + func`, a function pointer value.
    FuncAddr { dst: Reg, func: FuncId },
    /// `dst = *(ty*)addr`. `ord` is `NonAtomic` for plain accesses to non-atomic
    /// objects and the C11 order otherwise (plain accesses to `_Atomic` objects are
    /// `SeqCst`). Private addresses are served locally without an event.
    Load {
        dst: Reg,
        addr: Operand,
        ty: Scalar,
        ord: MemOrder,
    },
    /// `dst = *(ty*)addr` as a cell copy (`realloc`, struct copies, `memcpy`): reading
    /// a cell no write has initialised (a heap or shared-frame cell no write is visible
    /// to, a private byte not initialised) is not an error; then `dst = 0` and
    /// `written = 0`, else `written = 1`.
    CopyLoad {
        dst: Reg,
        written: Reg,
        addr: Operand,
        ty: Scalar,
        ord: MemOrder,
    },
    /// The store of a cell copy: `*(ty*)addr = val` when `written != 0`. Otherwise the
    /// copied value is indeterminate: private memory becomes uninitialised (0, like a
    /// declaration without initializer); a shared frame's cell is not written (it
    /// stays uninitialised unless it was written before: the engine cannot make a
    /// location uninitialised again); global and heap memory is written `val` (0) all
    /// the same, so that the write stays visible to race detection (C makes such a
    /// value unspecified, not undefined, for an object whose address is taken).
    CopyStore {
        addr: Operand,
        val: Operand,
        written: Operand,
        ty: Scalar,
        ord: MemOrder,
    },
    /// `*(ty*)addr = val` (val already normalised to `ty`).
    Store {
        addr: Operand,
        val: Operand,
        ty: Scalar,
        ord: MemOrder,
    },
    /// `dst = atomic_fetch_<op>(addr, val)`: returns the old value.
    Rmw {
        dst: Reg,
        addr: Operand,
        op: RmwKind,
        val: Operand,
        ty: Scalar,
        ord: MemOrder,
    },
    /// Compare-exchange on `addr`: `dst = old value`; the write happens iff
    /// `old == expected`. The front end emits the comparison and the write-back of
    /// `old` into the C `expected` object itself. `weak` never fails spuriously.
    Cas {
        dst: Reg,
        addr: Operand,
        expected: Operand,
        new: Operand,
        ty: Scalar,
        succ: MemOrder,
        fail: MemOrder,
        weak: bool,
    },
    /// `atomic_thread_fence(ord)`.
    Fence { ord: MemOrder },
    /// Direct call; `dst` receives the return value (if any).
    Call {
        dst: Option<Reg>,
        func: FuncId,
        args: Vec<Operand>,
    },
    /// Call through a function pointer value; a value that is not a function address
    /// is a memory error.
    CallIndirect {
        dst: Option<Reg>,
        target: Operand,
        args: Vec<Operand>,
    },
    /// `pthread_create`: spawn a thread running `func(arg)`; `dst` = the new thread id.
    /// `func` is a function pointer value. `symm`: the thread id the new thread is
    /// declared symmetric to (`__VERIFIER_spawn_symmetric`). `auto`: the spawn may be
    /// found symmetric to its parent's previous one (`__VERIFIER_spawn`, which returns
    /// the id; `pthread_create` stores it through a pointer, a memory access between
    /// two spawns, after which GenMC detects no symmetry either).
    Spawn {
        dst: Reg,
        func: Operand,
        arg: Operand,
        symm: Option<Operand>,
        auto: bool,
    },
    /// `pthread_join(tid, ...)`: `dst` = the thread's return value. A tid that names
    /// no spawned thread is a memory error "join of an invalid thread".
    Join { dst: Reg, tid: Operand },
    /// `pthread_exit(val)`: the thread finishes with `val`.
    ThreadExit { val: Operand },
    /// `pthread_mutex_lock(addr)`.
    Lock { addr: Operand },
    /// `pthread_mutex_trylock(addr)`: `dst` = 0 on success, nonzero (EBUSY=16) if taken.
    TryLock { dst: Reg, addr: Operand },
    /// `pthread_mutex_unlock(addr)`.
    Unlock { addr: Operand },
    /// `pthread_mutex_init(addr, attr)`: the mutex becomes unlocked (a non-atomic write).
    MutexInit { addr: Operand },
    /// `pthread_mutex_destroy(addr)`: later locks of it are errors.
    MutexDestroy { addr: Operand },
    /// `__VERIFIER_assume(cond)`: blocks the execution when `cond` is 0.
    Assume { cond: Operand },
    /// `assert(cond)`: an assertion error with `msg` when `cond` is 0.
    Assert { cond: Operand, msg: String },
    /// `__porf_check(cond, "msg")` (used by porf's bundled library code): a memory-class
    /// error with message `msg` when `cond` is 0, e.g. a wait on a destroyed barrier.
    Check { cond: Operand, msg: String },
    /// `abort()`: an abort error.
    Abort,
    /// Opens an SV-COMP atomic section (`__VERIFIER_atomic_begin()`, or the entry of a
    /// call of a `__VERIFIER_atomic_*` function): an error if one is open.
    AtomicBegin,
    /// Closes the open atomic section: an error if none is open.
    AtomicEnd,
    /// Raise a runtime "unsupported" error (construct accepted by the parser whose
    /// dynamic behaviour porf does not model, e.g. a non-constant memory order).
    Unsupported { msg: String },
    /// `printf(format, args...)` and its relatives: the text is formatted at run time
    /// and kept with the thread's state (see [`PrintPiece`]); nothing is printed
    /// during exploration. `dst` receives the number of bytes formatted. With
    /// `to_buffer` (`sprintf`, `snprintf`), the text is not printed but kept for
    /// [`Builtin::FormattedByte`], and only exactly formatted text is accepted (a
    /// conversion porf shows by name, a `%p`, a `%s` of a string that is not a string
    /// literal: an unsupported error).
    Print {
        dst: Option<Reg>,
        pieces: Vec<PrintPiece>,
        args: Vec<Operand>,
        to_buffer: bool,
    },
    /// Library call implemented by the interpreter.
    Builtin {
        dst: Option<Reg>,
        which: Builtin,
        args: Vec<Operand>,
    },
    /// The declaration of `Function::locals[var]` is reached: a local other threads
    /// may reach (see [`Function::shared_size`]), declared without initializer where
    /// it can be reached again in the same activation (in a loop, or in a function
    /// with labels), so each time it is a new object, uninitialised (C11 6.2.4p6,
    /// 6.8p3). The activation's previous instance of it, if any, is freed
    /// (`Action::Free`), a new engine block of its size is allocated (`Action::Malloc`,
    /// uninitialised, at this instruction's position) and `dst` receives its address.
    /// The activation frees its live instances when it returns or its thread exits
    /// (but `main`'s own, like its shared frame). A variable-length array's block has
    /// `len` elements of `LocalVar::size` bytes (`len` evaluated when the declaration
    /// is reached; at most the largest `malloc` in all, else an unsupported error).
    LocalBlock {
        dst: Reg,
        var: u32,
        len: Option<Operand>,
    },
    /// Marker left by the front end where the declaration without initializer of
    /// register local `name` (`reg`) is reached: its value is indeterminate from here
    /// until `reg` is next written. [`crate::uninit::instrument`] replaces the markers
    /// by the run-time checks they need; the interpreter treats one as a no-op.
    Indeterminate { reg: Reg, name: String },
    /// A memory error "read of an uninitialised local variable `name`" when register
    /// `flag` is 0 (the shadow of a register local, see [`crate::uninit`]).
    CheckInit { flag: Reg, name: String },
    /// Reset the iteration counter of loop `id` (emitted right before the loop).
    LoopEnter { id: LoopId },
    /// Count one more iteration of loop `id` (emitted at the start of each body
    /// execution); with `--unroll N`, the (N+1)th iteration blocks the execution.
    /// Cycles that bypass it (built with `goto`) are bounded at their retreating
    /// edges instead ([`Function::loop_heads`], `crate::unroll`).
    LoopIter { id: LoopId },
    /// Right after loop `id`'s `LoopEnter`: a `__VERIFIER_loop_bound(n)` hint (Dat3M's
    /// convention) for this loop. `bound` holds `n + 1` ([`Builtin::LoopBound`]), or 0
    /// when the hint's call was not executed on the way here (then nothing happens).
    /// Otherwise the loop's counter starts so that its `LoopIter` blocks the
    /// `(min(n, unroll) + 1)`th iteration (`unroll`: the `--unroll` bound, unbounded
    /// without it): the smaller of the two bounds cuts, as an `--unroll` cut does.
    LoopHint { id: LoopId, bound: Operand },
}

impl InstKind {
    /// Calls `f` on every operand the instruction reads.
    pub fn uses(&self, mut f: impl FnMut(Operand)) {
        use InstKind::*;
        match self {
            Copy { src, .. } => f(*src),
            Unary { a, .. } | Convert { a, .. } | FloatConvert { a, .. } => f(*a),
            Binary { a, b, .. } => {
                f(*a);
                f(*b)
            }
            FrameAddr { .. }
            | FrameInit { .. }
            | SharedAddr { .. }
            | TlsAddr { .. }
            | FuncAddr { .. }
            | Fence { .. }
            | Abort
            | AtomicBegin
            | AtomicEnd
            | Unsupported { .. }
            | Indeterminate { .. }
            | LocalBlock { len: None, .. }
            | LoopEnter { .. }
            | LoopIter { .. } => {}
            LocalBlock { len: Some(b), .. } => f(*b),
            LoopHint { bound, .. } => f(*bound),
            CheckInit { flag, .. } => f(Operand::Reg(*flag)),
            Load { addr, .. } | CopyLoad { addr, .. } => f(*addr),
            Store { addr, val, .. } | Rmw { addr, val, .. } => {
                f(*addr);
                f(*val)
            }
            CopyStore {
                addr, val, written, ..
            } => {
                f(*addr);
                f(*val);
                f(*written)
            }
            Cas {
                addr,
                expected,
                new,
                ..
            } => {
                f(*addr);
                f(*expected);
                f(*new)
            }
            Call { args, .. } | Builtin { args, .. } | Print { args, .. } => {
                args.iter().copied().for_each(f)
            }
            CallIndirect { target, args, .. } => {
                f(*target);
                args.iter().copied().for_each(f)
            }
            Spawn {
                func, arg, symm, ..
            } => {
                f(*func);
                f(*arg);
                symm.iter().copied().for_each(f)
            }
            Join { tid, .. } => f(*tid),
            ThreadExit { val } => f(*val),
            Lock { addr }
            | TryLock { addr, .. }
            | Unlock { addr }
            | MutexInit { addr }
            | MutexDestroy { addr } => f(*addr),
            Assume { cond } | Assert { cond, .. } | Check { cond, .. } => f(*cond),
        }
    }

    /// Calls `f` on every register the instruction writes (a `CopyLoad` writes two).
    pub fn defs(&self, mut f: impl FnMut(Reg)) {
        use InstKind::*;
        match self {
            Copy { dst, .. }
            | Unary { dst, .. }
            | Binary { dst, .. }
            | Convert { dst, .. }
            | FloatConvert { dst, .. }
            | FrameAddr { dst, .. }
            | SharedAddr { dst, .. }
            | TlsAddr { dst, .. }
            | FuncAddr { dst, .. }
            | Load { dst, .. }
            | Rmw { dst, .. }
            | Cas { dst, .. }
            | Spawn { dst, .. }
            | Join { dst, .. }
            | TryLock { dst, .. }
            | LocalBlock { dst, .. } => f(*dst),
            CopyLoad { dst, written, .. } => {
                f(*dst);
                f(*written)
            }
            Call { dst, .. }
            | CallIndirect { dst, .. }
            | Builtin { dst, .. }
            | Print { dst, .. } => {
                if let Some(d) = dst {
                    f(*d)
                }
            }
            _ => {}
        }
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct Inst {
    pub kind: InstKind,
    pub src: SrcLoc,
    /// The library call lowered inline whose code this is (`pthread_mutex_lock` and the
    /// like, [`crate::lower`]'s `mutex.rs`), for witnesses: its actions are that call's
    /// steps (`porf_graph::ThreadMachine::operation`). No effect on execution.
    pub lib: Option<LibMark>,
}

/// An instruction of a library call lowered inline ([`Inst::lib`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct LibMark {
    /// The function the user called.
    pub name: &'static str,
    /// The call's first instruction (a local one, run once per call): a new call
    /// begins there.
    pub begin: bool,
}

#[derive(Clone, PartialEq, Debug)]
pub enum Terminator {
    Jump(BlockId),
    /// Go to `then` if `cond != 0`, else to `els`.
    Branch {
        cond: Operand,
        then: BlockId,
        els: BlockId,
    },
    /// Return from the function (the value, if any, is normalised to the return type).
    /// Returning from a thread's entry function finishes the thread with that value
    /// (0 if none).
    Return(Option<Operand>),
    /// Control reached a point the program cannot reach in C (e.g. the end of a
    /// non-void function without return): returns 0.
    Unreachable,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Block {
    pub insts: Vec<Inst>,
    pub term: Terminator,
    /// Source location of the terminator.
    pub term_src: SrcLoc,
}

#[derive(Clone, PartialEq, Debug)]
pub struct Function {
    pub name: String,
    /// Parameters arrive in registers `0..nparams`, normalised by the caller.
    pub nparams: u32,
    /// A variadic function (`...`): a call passes arguments beyond `nparams` (after
    /// the default argument promotions), which the interpreter keeps with the
    /// activation for [`Builtin::VaArg`].
    pub variadic: bool,
    pub nregs: u32,
    pub nloops: u32,
    /// Bytes of thread-private memory per activation (address-taken locals).
    pub frame_size: u32,
    /// Bytes of shared frame per activation: the locals whose address may reach
    /// another thread (the front end's escape analysis). When nonzero, each activation
    /// allocates them as an engine block (`Action::Malloc`, uninitialised) before its first
    /// instruction and frees it (`Action::Free`) when it returns or its thread exits,
    /// so accesses by other threads are events checked like heap accesses: after the
    /// owner returned they are use-after-free errors (as GenMC reports them).
    pub shared_size: u32,
    /// `blocks[0]` is the entry block.
    pub blocks: Vec<Block>,
    /// The targets of the back edges of the loops the front end built itself, with
    /// what bounds them (sorted by block, one entry per block). `--unroll` bounds every
    /// other retreating edge of the control-flow graph as a `goto` loop
    /// (`crate::unroll`).
    pub loop_heads: Vec<(BlockId, LoopHead)>,
    pub src: SrcLoc,
    /// The named objects of the private and shared frames, for messages and witnesses
    /// (a read of an uninitialised byte names the object and the member it lies in).
    pub locals: Vec<LocalVar>,
}

impl Function {
    /// Whether the function has a `__VERIFIER_loop_bound` hint ([`InstKind::LoopHint`]).
    pub fn has_loop_hints(&self) -> bool {
        self.blocks.iter().any(|b| {
            b.insts
                .iter()
                .any(|i| matches!(i.kind, InstKind::LoopHint { .. }))
        })
    }

    /// The name of byte `offset` of the private frame (`shared`: of the shared frame)
    /// as a C path: `s.next`, `a[3]`, `m[1][2].f` (the innermost object that has it;
    /// `None` if no named object does).
    pub fn local_name(&self, offset: u32, shared: bool) -> Option<String> {
        let v = self.locals.iter().rev().find(|v| {
            v.shared == shared
                && v.site.is_none()
                && (v.offset..v.offset + v.size).contains(&offset)
        })?;
        let mut path = v.name.clone();
        v.shape.path(offset - v.offset, &mut path);
        Some(path)
    }
}

/// An object of a function's frame (a local variable, a parameter's copy, a call's
/// struct result), for names only.
#[derive(Clone, PartialEq, Debug)]
pub struct LocalVar {
    /// The C name (`flag`), or the expression of a temporary (`f()`).
    pub name: String,
    /// Byte offset in the private frame, or in the shared frame when `shared`.
    pub offset: u32,
    /// `sizeof` the object (> 0).
    pub size: u32,
    pub shared: bool,
    pub shape: Shape,
    /// For a local with an engine block of its own per declaration
    /// ([`InstKind::LocalBlock`]): the declaration's position, which its blocks'
    /// `Malloc`s carry (`offset` is then 0 in that block).
    pub site: Option<SrcLoc>,
}

/// The layout of an object, for naming the scalar a byte lies in.
#[derive(Clone, PartialEq, Debug)]
pub enum Shape {
    Scalar,
    /// `len` elements of `stride` bytes.
    Array {
        elem: Box<Shape>,
        stride: u32,
        len: u32,
    },
    /// Members in declaration order: the path piece (`.f`, empty for an anonymous
    /// member), offset, size and shape; a union's members all start at 0.
    Record(Vec<(String, u32, u32, Shape)>),
}

impl Shape {
    /// Appends to `out` the path of the scalar holding byte `off` (relative to the
    /// object): `[2].next`; nothing more once `off` falls in padding.
    pub fn path(&self, off: u32, out: &mut String) {
        match self {
            Shape::Scalar => {}
            Shape::Array { elem, stride, len } => {
                let i = off / (*stride).max(1);
                if i < *len {
                    out.push_str(&format!("[{i}]"));
                    elem.path(off - i * stride, out);
                }
            }
            Shape::Record(fields) => {
                if let Some((name, o, _, s)) = fields
                    .iter()
                    .find(|(_, o, n, _)| (*o..o + n).contains(&off))
                {
                    out.push_str(name);
                    s.path(off - o, out);
                }
            }
        }
    }
}

/// How a loop the front end built is bounded (see [`Function::loop_heads`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum LoopHead {
    /// The target of a `while` or `for` statement's back edge (its condition) or of a
    /// `do` statement's (its body's start): the statement's [`InstKind::LoopIter`]
    /// counts its iterations, and every path around the loop that stays inside the
    /// statement passes it.
    Statement,
    /// The head of a loop the front end generated that ends by itself: its counter
    /// register is set before the loop, only the loop's latch increments it, and the
    /// head leaves the loop once it reaches a limit computed before the loop
    /// (`realloc`'s copy loop). No label lies inside such a loop.
    Finite,
}

/// How many threads get a copy of the thread-local globals (threads `0..TLS_THREADS`);
/// a thread with a larger id that takes the address of one is an unsupported error.
pub const TLS_THREADS: u32 = 64;

/// Where each thread's copy of the thread-local globals lives: thread `t`'s copy of
/// template offset `o` is at `base + t·stride + o` (inside the global area).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct TlsLayout {
    pub base: i64,
    /// 0 when the program has no thread-local globals.
    pub stride: i64,
}

impl TlsLayout {
    /// Thread `t`'s copy of template offset `offset` (requires `t < TLS_THREADS`).
    pub fn addr(self, t: u32, offset: i64) -> i64 {
        self.base + t as i64 * self.stride + offset
    }
}

/// One scalar cell of global memory.
#[derive(Clone, PartialEq, Debug)]
pub struct Cell {
    /// A C-like path naming the cell, e.g. `pool[1].next`.
    pub name: String,
    pub ty: Scalar,
    /// Initial value (already normalised).
    pub init: Val,
    /// Whether the cell is `_Atomic` (plain accesses are then seq_cst).
    pub atomic: bool,
    /// Whether the cell holds a pointer (its values print as `&name` in witnesses).
    pub pointer: bool,
}

#[derive(Clone, PartialEq, Debug, Default)]
pub struct Module {
    pub funcs: Vec<Function>,
    /// `main`'s function id.
    pub main: FuncId,
    /// Every global scalar, keyed by its byte address. Addresses of different cells
    /// never overlap; an access to a global address that is not a cell's start, or
    /// with a different width, is reported as an unsupported mixed-size access.
    pub cells: BTreeMap<i64, Cell>,
    /// First address past the global area.
    pub globals_end: i64,
    /// The per-thread copies of the thread-local globals (part of the global area).
    pub tls: TlsLayout,
    /// Source file names; `SrcLoc::file` indexes this.
    pub files: Vec<String>,
    /// Which of `files` are porf's bundled headers (indexed like `files`; missing
    /// entries are not): the interpreter reports actions of code defined there at the
    /// user's call (`interp::locate`).
    pub bundled: Vec<bool>,
    /// Front-end warnings, each `file:line:col: warning: message` (constructs accepted
    /// the way gcc and clang accept them, e.g. an invalid compare-exchange failure order).
    pub warnings: Vec<String>,
    /// Spin-assume: the natural loops of each function, indexed like `funcs`
    /// ([`crate::spin::analyze`]). Empty (the front end's output) turns spin-assume off;
    /// [`crate::CProgram`] fills it when [`crate::RunOptions::spin_assume`] is set.
    pub loops: Vec<crate::spin::FuncLoops>,
    /// `--unroll`: the counted edges of each function, indexed like `funcs`
    /// ([`crate::unroll::analyze`]). Empty (the front end's output) leaves loops built
    /// with `goto` unbounded; [`crate::CProgram`] fills it when
    /// [`crate::RunOptions::unroll`] is set.
    pub back_edges: Vec<crate::unroll::FuncEdges>,
    /// Symmetry reduction: whether threads running each function (indexed like
    /// `funcs`) may be taken as interchangeable ([`crate::symmetric::oblivious`]).
    /// Empty (the front end's output) says so of none; [`crate::CProgram`] fills it.
    pub oblivious: Vec<bool>,
    /// What each allocation site allocates, when the front end saw the block's pointer
    /// converted to a pointer to a complete type right after the call
    /// (`struct node *n = malloc(sizeof *n)`): witnesses then name heap memory by type
    /// and field (`node#1.0.next`). Keyed by the allocation call's source location
    /// (the `Malloc` action's `src`); a site converted to two types keeps the first.
    pub alloc_types: std::collections::HashMap<SrcLoc, HeapType>,
    /// The string literals' arrays, as sorted disjoint address ranges `[start, end)`:
    /// read-only, a store, RMW or copy into one is a memory error (C11 6.4.5p7).
    pub readonly: Vec<(i64, i64)>,
}

impl Module {
    /// Whether address `a` lies in a string literal's array.
    pub fn is_readonly(&self, a: i64) -> bool {
        let k = self.readonly.partition_point(|r| r.0 <= a);
        k > 0 && a < self.readonly[k - 1].1
    }
}

/// The type of the objects an allocation site allocates, for names only.
#[derive(Clone, PartialEq, Debug)]
pub struct HeapType {
    /// The type's short name: a struct or union tag (`node`), else the C type (`int`).
    pub name: String,
    /// `sizeof` the type (> 0): a larger block is an array of it.
    pub size: u64,
    /// The scalar leaves of one object, in address order.
    pub leaves: Vec<HeapLeaf>,
    /// For a struct whose last member is a flexible (or zero-length) array of
    /// scalars: that member's leaf (its `offset`, and `path` such as `.ring`) and its
    /// element size. Bytes from `offset` on are its elements (`.ring[3]`), never
    /// further objects of the struct.
    pub flex: Option<(HeapLeaf, u64)>,
}

/// A scalar of an allocation site's type, for names only.
#[derive(Clone, PartialEq, Debug)]
pub struct HeapLeaf {
    /// Byte offset in the object.
    pub offset: u64,
    /// Appended to the object's name: `.next`, `[1]`, empty for a scalar type.
    pub path: String,
    pub scalar: Scalar,
    /// Whether the leaf holds a pointer.
    pub pointer: bool,
}

impl Module {
    /// `file:line:col` of a source location of this module.
    pub fn show_src(&self, s: porf_graph::SrcLoc) -> String {
        let file = self.files.get(s.file as usize).map_or("?", |f| f.as_str());
        format!("{file}:{}:{}", s.line, s.col)
    }

    /// Whether some function announces awaited loads ([`Builtin::Awaits`]).
    pub fn has_awaits(&self) -> bool {
        self.funcs.iter().any(|f| {
            f.blocks.iter().any(|b| {
                b.insts.iter().any(|i| {
                    matches!(
                        i.kind,
                        InstKind::Builtin {
                            which: Builtin::Awaits,
                            ..
                        }
                    )
                })
            })
        })
    }

    /// Whether some function opens an atomic section ([`InstKind::AtomicBegin`]).
    pub fn has_atomic_sections(&self) -> bool {
        self.funcs.iter().any(|f| {
            f.blocks.iter().any(|b| {
                b.insts
                    .iter()
                    .any(|i| matches!(i.kind, InstKind::AtomicBegin))
            })
        })
    }
}
