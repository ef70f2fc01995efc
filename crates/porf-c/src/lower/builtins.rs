//! Library calls the front end recognises by name (when the program does not define
//! a function of that name): `<stdatomic.h>` operations, pthreads, `malloc`/`calloc`/
//! `free`/`realloc` (`realloc.rs`), `abort`, `assert` (via `__porf_assert` from the bundled `<assert.h>`),
//! `__VERIFIER_assume`, and the printf family (`print.rs`: kept with the thread, shown in witnesses).
//!
//! Memory-order arguments must be integer constant expressions with a value valid for
//! the operation (C11 7.17.7); `memory_order_consume` is treated as acquire and a
//! relaxed fence is a no-op. A compare-exchange loads `*expected` with a normal load,
//! performs the `Cas`, compares, and on failure stores the value read into
//! `*expected`; its result is the comparison.

use super::atomic_record::RecOp;
use super::expr::Val;
use super::literals::string_value;
use super::{Cx, R};
use crate::ir::{BinOp, Builtin, InstKind, Operand, RmwKind, Scalar, Terminator};
use crate::types::{CType, IntTy, Kind};
use lang_c::ast::Expression;
use lang_c::span::Node;
use porf_graph::MemOrder;

const NAMES: &[&str] = &[
    "__porf_assert",
    "__porf_check",
    "__porf_unsupported",
    "memset",
    "memcpy",
    "memmove",
    "__VERIFIER_assume",
    "__VERIFIER_hazptr_protect",
    "__VERIFIER_hazptr_retire",
    "__porf_final_begin",
    "__porf_final_end",
    "atomic_thread_fence",
    "atomic_signal_fence",
    "atomic_init",
    "atomic_is_lock_free",
    "malloc",
    "calloc",
    "free",
    "realloc",
    "abort",
    "exit",
    "memcmp",
    "memcpy_s",
    "printf",
    "fprintf",
    "puts",
    "putchar",
    "fflush",
    "sprintf",
    "snprintf",
    "pthread_create",
    "__porf_spawn_symmetric",
    "__porf_spawn",
    "pthread_join",
    "pthread_exit",
    "pthread_self",
    "pthread_equal",
    "pthread_mutex_init",
    "pthread_mutex_destroy",
    "pthread_mutex_lock",
    "pthread_mutex_trylock",
    "pthread_mutex_unlock",
    "pthread_attr_init",
    "pthread_attr_destroy",
    "__porf_private_get",
    "__porf_private_set",
    "__porf_await",
    "__porf_awaits",
    "__porf_choose",
    "__porf_is_global",
    "reach_error",
    "__VERIFIER_error",
    "__assert_fail",
    "__assert_perror_fail",
    "__assert",
    "__VERIFIER_atomic_begin",
    "__VERIFIER_atomic_end",
];

/// SV-COMP's error functions: a call is an assertion failure at the call, whether or
/// not the program defines the function (SV-COMP's `unreach-call` property asks
/// whether `reach_error()` is called; a definition's body is never run).
pub const ERROR_FUNCTIONS: &[&str] = &["reach_error", "__VERIFIER_error"];

/// Whether a call of `name` is an atomic section of SV-COMP's convention: a function
/// whose name starts with `__VERIFIER_atomic_` (its whole body is one section; the
/// markers `__VERIFIER_atomic_begin`/`_end` are builtins of their own).
pub fn is_atomic_function(name: &str) -> bool {
    name.starts_with("__VERIFIER_atomic_")
        && name != "__VERIFIER_atomic_begin"
        && name != "__VERIFIER_atomic_end"
}

const ORDER_NAMES: [&str; 6] = [
    "memory_order_relaxed",
    "memory_order_consume",
    "memory_order_acquire",
    "memory_order_release",
    "memory_order_acq_rel",
    "memory_order_seq_cst",
];

/// GenMC interface functions porf recognises but does not model: a call evaluates its
/// arguments and is an "unsupported" error when an execution reaches it, with this
/// explanation.
const UNSUPPORTED_API: &[(&str, &str)] = &[
    (
        "__VERIFIER_annotate_begin",
        "GenMC's internal instruction marks are not supported: use genmc.h's macros \
         (`__VERIFIER_final_write`, `__VERIFIER_helped_CAS`, ...)",
    ),
    (
        "__VERIFIER_annotate_end",
        "GenMC's internal instruction marks are not supported: use genmc.h's macros \
         (`__VERIFIER_final_write`, `__VERIFIER_helped_CAS`, ...)",
    ),
    (
        "__VERIFIER_method_begin",
        "GenMC's method markers (linearizability specifications) are not supported",
    ),
    (
        "__VERIFIER_method_end",
        "GenMC's method markers (linearizability specifications) are not supported",
    ),
    (
        "__VERIFIER_palloc",
        "GenMC's persistency (durable storage) is not supported",
    ),
    (
        "__VERIFIER_pbarrier",
        "GenMC's persistency (durable storage) is not supported",
    ),
];

/// Whether calls to `name` are handled by the front end.
pub fn is_builtin(name: &str) -> bool {
    NAMES.contains(&name)
        || GCC_NAMES.contains(&name)
        || super::varargs::NAMES.contains(&name)
        || bit_builtin(name).is_some()
        || UNSUPPORTED_API.iter().any(|(n, _)| *n == name)
        || name.starts_with("__VERIFIER_nondet_")
        || atomic_op(name).is_some()
        || super::dat3m::is_dat3m(name)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum AtomicOp {
    Load,
    Store,
    Exchange,
    Fetch(RmwKind),
    Cas {
        weak: bool,
    },
    FlagTestAndSet,
    FlagClear,
    /// GCC's `__atomic_<op>_fetch` / `__sync_<op>_and_fetch`: the RMW, returning the
    /// new value.
    OpFetch(RmwKind),
}

impl AtomicOp {
    /// Arguments besides the memory orders.
    fn nargs(self) -> usize {
        match self {
            AtomicOp::Load | AtomicOp::FlagTestAndSet | AtomicOp::FlagClear => 1,
            AtomicOp::Cas { .. } => 3,
            _ => 2,
        }
    }
}

/// The type `__VERIFIER_nondet_<suffix>()` returns (SV-COMP's names).
fn nondet_type(suffix: &str) -> Option<(Scalar, IntTy)> {
    let ct = match suffix {
        "bool" => IntTy::Bool,
        "char" => IntTy::Char,
        "uchar" => IntTy::UChar,
        "short" => IntTy::Short,
        "ushort" => IntTy::UShort,
        "int" => IntTy::Int,
        "uint" | "unsigned" => IntTy::UInt,
        "long" => IntTy::Long,
        "ulong" | "size_t" | "sector_t" | "pthread_t" => IntTy::ULong,
        "longlong" | "loff_t" => IntTy::LongLong,
        "ulonglong" => IntTy::ULongLong,
        "u8" => IntTy::UChar,
        "u16" => IntTy::UShort,
        "u32" => IntTy::UInt,
        _ => return None,
    };
    Some((ct.scalar(), ct))
}

/// GCC's `__atomic_*` builtins (orders explicit, `__ATOMIC_*` values equal C11's
/// `memory_order` values) and `__sync_*` builtins (seq_cst: GCC documents them as full
/// barriers), as the C11 operation they perform.
fn gcc_atomic_op(name: &str) -> Option<(AtomicOp, bool)> {
    let kind = |s: &str| match s {
        "add" => Some(RmwKind::Add),
        "sub" => Some(RmwKind::Sub),
        "and" => Some(RmwKind::And),
        "or" => Some(RmwKind::Or),
        "xor" => Some(RmwKind::Xor),
        _ => None,
    };
    // clang's fetch-and-max/min (GenMC supports them): fetch forms only.
    let fetch_kind = |s: &str| {
        kind(s).or(match s {
            "max" => Some(RmwKind::Max),
            "min" => Some(RmwKind::Min),
            "umax" => Some(RmwKind::UMax),
            "umin" => Some(RmwKind::UMin),
            _ => None,
        })
    };
    if let Some(rest) = name.strip_prefix("__atomic_") {
        let op = match rest {
            "load_n" => AtomicOp::Load,
            "store_n" => AtomicOp::Store,
            "exchange_n" => AtomicOp::Exchange,
            "test_and_set" => AtomicOp::FlagTestAndSet,
            "clear" => AtomicOp::FlagClear,
            _ => {
                if let Some(k) = rest.strip_prefix("fetch_").and_then(fetch_kind) {
                    AtomicOp::Fetch(k)
                } else {
                    AtomicOp::OpFetch(rest.strip_suffix("_fetch").and_then(kind)?)
                }
            }
        };
        return Some((op, true));
    }
    let rest = name.strip_prefix("__sync_")?;
    if let Some(k) = rest.strip_prefix("fetch_and_").and_then(fetch_kind) {
        return Some((AtomicOp::Fetch(k), false));
    }
    let k = rest.strip_suffix("_and_fetch").and_then(kind)?;
    Some((AtomicOp::OpFetch(k), false))
}

/// `__builtin_{ffs,clz,ctz,popcount}{,l,ll}`: the operation and the operand type.
fn bit_builtin(name: &str) -> Option<(crate::ir::BitOp, IntTy)> {
    use crate::ir::BitOp;
    let rest = name.strip_prefix("__builtin_")?;
    let (base, ty) = if let Some(b) = rest.strip_suffix("ll") {
        (b, IntTy::ULongLong)
    } else if let Some(b) = rest.strip_suffix('l') {
        (b, IntTy::ULong)
    } else {
        (rest, IntTy::UInt)
    };
    let op = match base {
        "ffs" => BitOp::Ffs,
        "clz" => BitOp::Clz,
        "ctz" => BitOp::Ctz,
        "popcount" => BitOp::Popcount,
        _ => return None,
    };
    // ffs takes a signed argument, the others an unsigned one; the bits are the same.
    Some((op, ty))
}

/// Other GCC builtins the front end handles.
const GCC_NAMES: &[&str] = &[
    "__atomic_compare_exchange_n",
    "__atomic_thread_fence",
    "__atomic_signal_fence",
    "__sync_val_compare_and_swap",
    "__sync_bool_compare_and_swap",
    "__sync_lock_test_and_set",
    "__sync_lock_release",
    "__sync_synchronize",
    "__builtin_expect",
    "__builtin_prefetch",
    "__builtin_memset",
    "__builtin_memcpy",
    "__builtin_memmove",
    "__builtin_memcmp",
    "asm",
    "__asm__",
];

/// `atomic_<op>[_explicit]`: the operation and whether orders are explicit.
fn atomic_op(name: &str) -> Option<(AtomicOp, bool)> {
    if name.starts_with("__") {
        return gcc_atomic_op(name);
    }
    let (base, explicit) = match name.strip_suffix("_explicit") {
        Some(b) => (b, true),
        None => (name, false),
    };
    let op = match base {
        "atomic_load" => AtomicOp::Load,
        "atomic_store" => AtomicOp::Store,
        "atomic_exchange" => AtomicOp::Exchange,
        "atomic_fetch_add" => AtomicOp::Fetch(RmwKind::Add),
        "atomic_fetch_sub" => AtomicOp::Fetch(RmwKind::Sub),
        "atomic_fetch_and" => AtomicOp::Fetch(RmwKind::And),
        "atomic_fetch_or" => AtomicOp::Fetch(RmwKind::Or),
        "atomic_fetch_xor" => AtomicOp::Fetch(RmwKind::Xor),
        "atomic_compare_exchange_strong" => AtomicOp::Cas { weak: false },
        "atomic_compare_exchange_weak" => AtomicOp::Cas { weak: true },
        "atomic_flag_test_and_set" => AtomicOp::FlagTestAndSet,
        "atomic_flag_clear" => AtomicOp::FlagClear,
        _ => return None,
    };
    Some((op, explicit))
}

/// The private-store key under which a thread records that it detached thread `tid`
/// (`__PORF_DETACHED_KEY` of the bundled `<pthread.h>`: below every key porf's
/// library uses for addresses).
fn detached_key(b: &mut super::builder::FnBuilder, tid: Operand) -> Operand {
    b.bin(
        BinOp::Sub,
        Operand::Const(-(1i64 << 50) - 1),
        tid,
        Scalar::PTR,
    )
}

fn mem_order(v: i64) -> MemOrder {
    match v {
        0 => MemOrder::Relaxed,
        1 | 2 => MemOrder::Acquire,
        3 => MemOrder::Release,
        4 => MemOrder::AcqRel,
        _ => MemOrder::SeqCst,
    }
}

impl Cx<'_> {
    pub(super) fn argc(
        &self,
        name: &str,
        args: &[Node<Expression>],
        n: usize,
        off: usize,
    ) -> R<()> {
        if args.len() != n {
            let s = if n == 1 { "" } else { "s" };
            return self.err(
                off,
                format!("`{name}` takes {n} argument{s}, {} given", args.len()),
            );
        }
        Ok(())
    }

    /// A memory-order argument: its C value (0..=5).
    fn order(&mut self, e: &Node<Expression>) -> R<i64> {
        match self.const_int(e)? {
            Some((v, _)) if (0..=5).contains(&v) => Ok(v),
            Some((v, _)) => self.err(e.span.start, format!("invalid memory order value {v}")),
            None => self.unsup(
                e.span.start,
                "memory order arguments must be constant expressions",
            ),
        }
    }

    fn check_order(&self, name: &str, v: i64, allowed: &[i64], e: &Node<Expression>) -> R<()> {
        if !allowed.contains(&v) {
            return self.err(
                e.span.start,
                format!(
                    "`{}` is not a valid memory order for `{name}`",
                    ORDER_NAMES[v as usize]
                ),
            );
        }
        Ok(())
    }

    /// The first argument of an atomic operation: the address and the object's type.
    fn atomic_ptr(&mut self, e: &Node<Expression>, name: &str) -> R<(Operand, CType)> {
        let (p, t) = self.rvalue(e)?;
        match t.pointee() {
            Some(pt) if pt.is_float() => self.unsup(
                e.span.start,
                format!(
                    "`{name}` on a floating-point object (`{}`) is not supported",
                    self.show(&t)
                ),
            ),
            Some(pt) if pt.is_scalar() => Ok((p, pt.clone())),
            // An `_Atomic` struct (`atomic_record.rs`).
            Some(pt) if pt.atomic && pt.is_record() => Ok((p, pt.clone())),
            _ => self.err(
                e.span.start,
                format!("first argument of `{name}` must point to an atomic integer or pointer (got `{}`)", self.show(&t)),
            ),
        }
    }

    /// A pointer argument (address operand, pointee type).
    pub(super) fn pointer_arg(&mut self, e: &Node<Expression>, name: &str) -> R<(Operand, CType)> {
        let (p, t) = self.rvalue(e)?;
        match t.pointee() {
            Some(pt) => Ok((p, pt.clone())),
            None => self.err(
                e.span.start,
                format!(
                    "argument of `{name}` must be a pointer (got `{}`)",
                    self.show(&t)
                ),
            ),
        }
    }

    pub(super) fn cond_operand(&mut self, e: &Node<Expression>) -> R<Operand> {
        let (v, t) = self.rvalue(e)?;
        if !t.is_scalar() {
            return self.err(
                e.span.start,
                format!("`{}` used as a condition", self.show(&t)),
            );
        }
        Ok(self.truth(v, &t))
    }

    fn int_arg(&mut self, e: &Node<Expression>, to: IntTy) -> R<Operand> {
        let (v, t) = self.rvalue(e)?;
        self.assign_convert(v, &t, &CType::int(to), e.span.start)
    }

    /// The running thread's id (`pthread_self()`, an `unsigned long`), at `off`.
    pub(super) fn thread_self(&mut self, off: usize) -> Operand {
        self.at(off);
        let dst = self.b.reg();
        self.b.emit(InstKind::Builtin {
            dst: Some(dst),
            which: Builtin::ThreadSelf,
            args: vec![],
        });
        Operand::Reg(dst)
    }

    pub fn builtin(&mut self, name: &str, args: &[Node<Expression>], off: usize) -> R<Val> {
        // Byte counts of objects porf lays out: `sizeof` is exact there (`ilp32`).
        let sized = super::ilp32::SIZE_FUNCTIONS.contains(&name);
        self.ilp32.size_args += u32::from(sized);
        let r = self.builtin_call_named(name, args, off);
        self.ilp32.size_args -= u32::from(sized);
        r
    }

    fn builtin_call_named(&mut self, name: &str, args: &[Node<Expression>], off: usize) -> R<Val> {
        if let Some((op, explicit)) = atomic_op(name) {
            return self.atomic(op, explicit, name, args, off);
        }
        if super::dat3m::is_dat3m(name) {
            return self.dat3m_builtin(name, args, off);
        }
        if let Some((_, why)) = UNSUPPORTED_API.iter().find(|(n, _)| *n == name) {
            // Reported when an execution reaches the call (never in silence, never for
            // code no execution runs).
            for a in args {
                self.rvalue(a)?;
            }
            self.at(off);
            let msg = if why.contains(&format!("`{name}`")) {
                why.to_string()
            } else {
                format!("`{name}`: {why}")
            };
            self.b.emit(InstKind::Unsupported { msg });
            return Ok(Val::R(Operand::Const(0), CType::void_ptr()));
        }
        let int = |v: Operand| Ok(Val::R(v, CType::int(IntTy::Int)));
        if let Some((op, ty)) = bit_builtin(name) {
            self.argc(name, args, 1, off)?;
            let v = self.int_arg(&args[0], ty)?;
            let width = CType::int(ty).scalar().expect("integer").size as i64;
            self.at(off);
            let dst = self.b.reg();
            self.b.emit(InstKind::Builtin {
                dst: Some(dst),
                which: Builtin::Bits(op),
                args: vec![v, Operand::Const(width)],
            });
            return int(Operand::Reg(dst));
        }
        if super::varargs::NAMES.contains(&name) {
            return self.va_builtin(name, args, off);
        }
        match name {
            "__atomic_compare_exchange_n" => {
                // (ptr, expected, desired, weak, success, failure): C11's explicit
                // compare-exchange with `weak` as a constant.
                self.argc(name, args, 6, off)?;
                let weak = match self.const_int(&args[3])? {
                    Some((v, _)) => v != 0,
                    None => return self.unsup(
                        args[3].span.start,
                        "the `weak` argument of `__atomic_compare_exchange_n` must be a constant",
                    ),
                };
                let rest: Vec<_> = [0, 1, 2, 4, 5].iter().map(|&i| args[i].clone()).collect();
                return self.atomic(AtomicOp::Cas { weak }, true, name, &rest, off);
            }
            "__atomic_thread_fence" => return self.builtin("atomic_thread_fence", args, off),
            "__atomic_signal_fence" => return self.builtin("atomic_signal_fence", args, off),
            "__sync_synchronize" => {
                self.argc(name, args, 0, off)?;
                self.at(off);
                self.b.emit(InstKind::Fence {
                    ord: MemOrder::SeqCst,
                });
                return Ok(Val::Void);
            }
            "__sync_val_compare_and_swap" | "__sync_bool_compare_and_swap" => {
                self.argc(name, args, 3, off)?;
                let (addr, pt) = self.atomic_ptr(&args[0], name)?;
                let ty = pt.scalar().expect("scalar");
                let vt = pt.unqual();
                let (e, et) = self.rvalue(&args[1])?;
                let expected = self.assign_convert(e, &et, &vt, args[1].span.start)?;
                let (n, nt) = self.rvalue(&args[2])?;
                let new = self.assign_convert(n, &nt, &vt, args[2].span.start)?;
                self.at(off);
                let old = self.b.reg();
                self.b.emit(InstKind::Cas {
                    dst: old,
                    addr,
                    expected,
                    new,
                    ty,
                    succ: MemOrder::SeqCst,
                    fail: MemOrder::SeqCst,
                    weak: false,
                });
                if name == "__sync_val_compare_and_swap" {
                    return Ok(Val::R(Operand::Reg(old), vt));
                }
                let ok = self.b.bin(BinOp::Eq, Operand::Reg(old), expected, ty);
                return Ok(Val::R(ok, CType::int(IntTy::Bool)));
            }
            "__sync_lock_test_and_set" => {
                // GCC: "an acquire barrier, not a full barrier".
                self.argc(name, args, 2, off)?;
                let (addr, pt) = self.atomic_ptr(&args[0], name)?;
                let ty = pt.scalar().expect("scalar");
                let vt = pt.unqual();
                let (v, t) = self.rvalue(&args[1])?;
                let val = self.assign_convert(v, &t, &vt, args[1].span.start)?;
                self.at(off);
                let dst = self.b.reg();
                self.b.emit(InstKind::Rmw {
                    dst,
                    addr,
                    op: RmwKind::Xchg,
                    val,
                    ty,
                    ord: MemOrder::Acquire,
                });
                return Ok(Val::R(Operand::Reg(dst), vt));
            }
            "__sync_lock_release" => {
                // GCC: writes 0 with a release barrier.
                self.argc(name, args, 1, off)?;
                let (addr, pt) = self.atomic_ptr(&args[0], name)?;
                let ty = pt.scalar().expect("scalar");
                self.at(off);
                self.b.store(addr, Operand::Const(0), ty, MemOrder::Release);
                return Ok(Val::Void);
            }
            "__builtin_expect" => {
                // The value of the first argument; the second is only a hint.
                self.argc(name, args, 2, off)?;
                let (v, t) = self.rvalue(&args[0])?;
                let v = self.assign_convert(v, &t, &CType::int(IntTy::Long), args[0].span.start)?;
                self.rvalue(&args[1])?;
                return Ok(Val::R(v, CType::int(IntTy::Long)));
            }
            "__builtin_prefetch" => {
                // A cache hint: no effect on the program's meaning. The arguments are
                // evaluated (GCC requires the second and third to be constants).
                if args.is_empty() || args.len() > 3 {
                    return self.err(off, "`__builtin_prefetch` takes 1 to 3 arguments");
                }
                for a in args {
                    self.rvalue(a)?;
                }
                return Ok(Val::Void);
            }
            "asm" | "__asm__" => {
                // `asm("...")` read as a call: basic asm (`asm.rs`).
                let template = match args {
                    [a] => match &a.node {
                        Expression::StringLiteral(s) => string_value(&s.node),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(t) = template else {
                    return self.err(off, "`asm` takes a string literal");
                };
                let form = super::asm::Form {
                    extended: false,
                    operands: false,
                    memory_clobber: false,
                };
                self.asm(&String::from_utf8_lossy(&t), form, off);
                return Ok(Val::Void);
            }
            _ => {}
        }
        match name {
            "atomic_thread_fence" | "atomic_signal_fence" => {
                self.argc(name, args, 1, off)?;
                let v = self.order(&args[0])?;
                if name == "atomic_thread_fence" && v != 0 {
                    self.at(off);
                    self.b.emit(InstKind::Fence { ord: mem_order(v) });
                }
                Ok(Val::Void)
            }
            "atomic_init" => {
                self.argc(name, args, 2, off)?;
                let (p, pt) = self.atomic_ptr(&args[0], name)?;
                if pt.is_record() {
                    let ords = (MemOrder::NonAtomic, MemOrder::NonAtomic);
                    return self.atomic_record_op(RecOp::Init, name, p, &pt, &args[1..], ords, off);
                }
                let (v, t) = self.rvalue(&args[1])?;
                let v = self.assign_convert(v, &t, &pt.unqual(), args[1].span.start)?;
                self.at(off);
                self.b
                    .store(p, v, pt.scalar().expect("scalar"), MemOrder::NonAtomic);
                Ok(Val::Void)
            }
            "atomic_is_lock_free" => {
                self.argc(name, args, 1, off)?;
                self.atomic_ptr(&args[0], name)?;
                Ok(Val::R(Operand::Const(1), CType::int(IntTy::Bool)))
            }
            "memset" | "memcpy" | "memmove" | "memcmp" => self.mem_fn(name, args, off),
            "memcpy_s" => self.memcpy_s(args, off),
            // GCC's builtin spellings of the same functions.
            "__builtin_memset" | "__builtin_memcpy" | "__builtin_memmove" | "__builtin_memcmp" => {
                self.mem_fn(&name["__builtin_".len()..], args, off)
            }
            n if ERROR_FUNCTIONS.contains(&n) => {
                self.argc(name, args, 0, off)?;
                self.at(off);
                self.b.emit(InstKind::Assert {
                    cond: Operand::Const(0),
                    msg: format!("{n}() is called"),
                });
                Ok(Val::Void)
            }
            "__assert_fail" | "__assert_perror_fail" | "__assert" => {
                // glibc's `assert` failure paths: the condition was false. The
                // arguments (text, file, line, function) are string literals and
                // constants; they are not evaluated, the text names the assertion.
                let text = match args.first().map(|a| &a.node) {
                    Some(Expression::StringLiteral(s)) if name != "__assert_perror_fail" => {
                        string_value(&s.node).map(|t| String::from_utf8_lossy(&t).into_owned())
                    }
                    _ => None,
                };
                let msg = match text {
                    Some(t) => format!("Assertion `{t}' failed"),
                    None => format!("assertion failed (`{name}` is called)"),
                };
                self.at(off);
                self.b.emit(InstKind::Assert {
                    cond: Operand::Const(0),
                    msg,
                });
                Ok(Val::Void)
            }
            "__VERIFIER_atomic_begin" | "__VERIFIER_atomic_end" => {
                self.argc(name, args, 0, off)?;
                self.at(off);
                self.b.emit(if name == "__VERIFIER_atomic_begin" {
                    InstKind::AtomicBegin
                } else {
                    InstKind::AtomicEnd
                });
                Ok(Val::Void)
            }

            "__porf_unsupported" => {
                self.argc(name, args, 1, off)?;
                let text = match &args[0].node {
                    Expression::StringLiteral(s) => string_value(&s.node).unwrap_or_default(),
                    _ => {
                        return self.err(args[0].span.start, "`__porf_unsupported` needs a message")
                    }
                };
                self.at(off);
                self.b.emit(InstKind::Unsupported {
                    msg: String::from_utf8_lossy(&text).into_owned(),
                });
                Ok(Val::Void)
            }
            "__porf_check" => {
                self.argc(name, args, 2, off)?;
                let cond = self.cond_operand(&args[0])?;
                let text = match &args[1].node {
                    Expression::StringLiteral(s) => string_value(&s.node).unwrap_or_default(),
                    _ => return self.err(args[1].span.start, "`__porf_check` needs a message"),
                };
                let msg = String::from_utf8_lossy(&text).into_owned();
                self.at(off);
                self.b.emit(InstKind::Check { cond, msg });
                Ok(Val::Void)
            }
            "__porf_assert" => {
                self.argc("assert", args, 2, off)?;
                let cond = self.cond_operand(&args[0])?;
                let text = match &args[1].node {
                    Expression::StringLiteral(s) => string_value(&s.node).unwrap_or_default(),
                    _ => {
                        return self.err(
                            args[1].span.start,
                            "`__porf_assert` needs the assertion text",
                        )
                    }
                };
                let msg = format!("Assertion `{}' failed", String::from_utf8_lossy(&text));
                self.at(off);
                self.b.emit(InstKind::Assert { cond, msg });
                Ok(Val::Void)
            }
            "__VERIFIER_assume" => {
                self.argc(name, args, 1, off)?;
                let cond = self.cond_operand(&args[0])?;
                self.at(off);
                self.b.emit(InstKind::Assume { cond });
                Ok(Val::Void)
            }
            n if n.starts_with("__VERIFIER_nondet_") => {
                let Some((ty, ct)) = nondet_type(&n["__VERIFIER_nondet_".len()..]) else {
                    return self.unsup(
                        off,
                        format!("`{n}`: porf explores nondet values of integer types only (`_bool`, `_char`, `_uchar`, `_short`, `_ushort`, `_int`, `_uint`, `_unsigned`, `_long`, `_ulong`, `_longlong`, `_ulonglong`, `_size_t`, `_loff_t`, `_sector_t`, `_pthread_t`, `_u8`, `_u16`, `_u32`): not pointers, floating values or 128-bit integers"),
                    );
                };
                self.argc(name, args, 0, off)?;
                self.at(off);
                let dst = self.b.reg();
                self.b.emit(InstKind::Builtin {
                    dst: Some(dst),
                    which: Builtin::Nondet {
                        ty,
                        boolean: ct == IntTy::Bool,
                    },
                    args: vec![],
                });
                Ok(Val::R(Operand::Reg(dst), CType::int(ct)))
            }
            "malloc" | "calloc" => {
                // calloc gets both factors: the interpreter checks their product for
                // overflow.
                let n = if name == "malloc" { 1 } else { 2 };
                self.argc(name, args, n, off)?;
                let mut sizes = Vec::new();
                for a in args {
                    sizes.push(self.int_arg(a, IntTy::ULong)?);
                }
                self.at(off);
                let dst = self.b.reg();
                self.b.emit(InstKind::Builtin {
                    dst: Some(dst),
                    which: if n == 1 {
                        Builtin::Malloc
                    } else {
                        Builtin::Calloc
                    },
                    args: sizes,
                });
                self.last_alloc = Some((dst, self.b.loc));
                Ok(Val::R(Operand::Reg(dst), CType::void_ptr()))
            }
            "realloc" => self.realloc(args, off),
            "free" => {
                self.argc(name, args, 1, off)?;
                let (p, _) = self.pointer_arg(&args[0], name)?;
                self.at(off);
                self.b.emit(InstKind::Builtin {
                    dst: None,
                    which: Builtin::Free,
                    args: vec![p],
                });
                Ok(Val::Void)
            }
            "__VERIFIER_hazptr_protect" => {
                self.argc(name, args, 2, off)?;
                let (hp, _) = self.pointer_arg(&args[0], name)?;
                let (p, _) = self.pointer_arg(&args[1], name)?;
                self.at(off);
                self.b.emit(InstKind::Builtin {
                    dst: None,
                    which: Builtin::HpProtect,
                    args: vec![hp, p],
                });
                Ok(Val::Void)
            }
            "__VERIFIER_hazptr_retire" => {
                self.argc(name, args, 1, off)?;
                let (p, _) = self.pointer_arg(&args[0], name)?;
                self.at(off);
                self.b.emit(InstKind::Builtin {
                    dst: None,
                    which: Builtin::HpRetire,
                    args: vec![p],
                });
                Ok(Val::Void)
            }
            "__porf_final_begin" | "__porf_final_end" => {
                self.argc(name, args, 0, off)?;
                self.at(off);
                self.b.emit(InstKind::Builtin {
                    dst: None,
                    which: if name == "__porf_final_begin" {
                        Builtin::FinalBegin
                    } else {
                        Builtin::FinalEnd
                    },
                    args: vec![],
                });
                Ok(Val::Void)
            }
            "exit" => {
                self.argc(name, args, 1, off)?;
                let code = self.int_arg(&args[0], IntTy::Int)?;
                self.at(off);
                self.b.emit(InstKind::Builtin {
                    dst: None,
                    which: Builtin::Exit,
                    args: vec![code],
                });
                self.b.terminate(Terminator::Unreachable);
                Ok(Val::Void)
            }
            "abort" => {
                self.argc(name, args, 0, off)?;
                self.at(off);
                self.b.emit(InstKind::Abort);
                self.b.terminate(Terminator::Unreachable);
                Ok(Val::Void)
            }
            "printf" | "fprintf" | "puts" | "putchar" | "fflush" => {
                self.print_call(name, args, off)
            }
            "sprintf" | "snprintf" => self.sprintf(name, args, off),
            "pthread_create" => self.pthread_create(args, off, Spawned::Pthread),
            "__porf_spawn_symmetric" => self.pthread_create(args, off, Spawned::Symmetric),
            "__porf_spawn" => self.pthread_create(args, off, Spawned::Verifier),
            "pthread_join" => self.pthread_join(args, off),
            "pthread_exit" => {
                self.argc(name, args, 1, off)?;
                let (v, t) = self.rvalue(&args[0])?;
                let val = self.assign_convert(v, &t, &CType::void_ptr(), args[0].span.start)?;
                self.at(off);
                self.b.emit(InstKind::ThreadExit { val });
                self.b.terminate(Terminator::Unreachable);
                Ok(Val::Void)
            }
            "pthread_self" => {
                self.argc(name, args, 0, off)?;
                Ok(Val::R(self.thread_self(off), CType::int(IntTy::ULong)))
            }
            "pthread_equal" => {
                self.argc(name, args, 2, off)?;
                let a = self.int_arg(&args[0], IntTy::ULong)?;
                let b = self.int_arg(&args[1], IntTy::ULong)?;
                int(self.b.bin(BinOp::Eq, a, b, Scalar::PTR))
            }
            "pthread_mutex_lock" | "pthread_mutex_unlock" | "pthread_mutex_trylock" => {
                self.argc(name, args, 1, off)?;
                let (addr, _) = self.pointer_arg(&args[0], name)?;
                self.at(off);
                Ok(self.mutex_op(name, addr))
            }
            "pthread_mutex_init" => self.mutex_init(args, off),
            "pthread_mutex_destroy" => {
                self.argc(name, args, 1, off)?;
                let (addr, _) = self.pointer_arg(&args[0], name)?;
                self.at(off);
                self.b.emit(InstKind::MutexDestroy { addr });
                int(Operand::Const(0))
            }
            "__porf_private_get" | "__porf_await" | "__porf_awaits" | "__porf_choose" => {
                self.argc(name, args, 1, off)?;
                let v = self.int_arg(&args[0], IntTy::LongLong)?;
                self.at(off);
                let dst = self.b.reg();
                let get = !matches!(name, "__porf_await" | "__porf_awaits");
                self.b.emit(InstKind::Builtin {
                    dst: get.then_some(dst),
                    which: match name {
                        "__porf_private_get" => Builtin::PrivateGet,
                        "__porf_choose" => Builtin::Choose,
                        "__porf_awaits" => Builtin::Awaits,
                        _ => Builtin::Await,
                    },
                    args: vec![v],
                });
                if get {
                    return Ok(Val::R(Operand::Reg(dst), CType::int(IntTy::LongLong)));
                }
                Ok(Val::Void)
            }
            "__porf_is_global" => {
                self.argc(name, args, 1, off)?;
                let (p, _) = self.pointer_arg(&args[0], name)?;
                self.at(off);
                let dst = self.b.reg();
                self.b.emit(InstKind::Builtin {
                    dst: Some(dst),
                    which: Builtin::IsGlobal,
                    args: vec![p],
                });
                int(Operand::Reg(dst))
            }
            "__porf_private_set" => {
                self.argc(name, args, 2, off)?;
                let k = self.int_arg(&args[0], IntTy::LongLong)?;
                let v = self.int_arg(&args[1], IntTy::LongLong)?;
                self.at(off);
                self.b.emit(InstKind::Builtin {
                    dst: None,
                    which: Builtin::PrivateSet,
                    args: vec![k, v],
                });
                Ok(Val::Void)
            }
            "pthread_attr_init" | "pthread_attr_destroy" => {
                // Thread attributes: ignored.
                self.argc(name, args, 1, off)?;
                self.rvalue(&args[0])?;
                int(Operand::Const(0))
            }
            _ => unreachable!("`{name}` is in NAMES but has no lowering"),
        }
    }

    /// `pthread_create(t, attr, f, arg)`, or a spawn of porf's bundled genmc.h
    /// ([`Spawned`]).
    fn pthread_create(&mut self, args: &[Node<Expression>], off: usize, how: Spawned) -> R<Val> {
        let symmetric = how == Spawned::Symmetric;
        let name = match how {
            Spawned::Pthread => "pthread_create",
            Spawned::Verifier => "__porf_spawn",
            Spawned::Symmetric => "__porf_spawn_symmetric",
        };
        self.argc(name, args, 4, off)?;
        let (tp, tt) = self.pointer_arg(&args[0], name)?;
        let Some(ts) = tt.scalar().filter(|s| !s.float) else {
            return self.err(
                args[0].span.start,
                "first argument of `pthread_create` must point to a `pthread_t`",
            );
        };
        let (attr, attr_t, symm) = if symmetric {
            let pred = self.int_arg(&args[1], IntTy::ULong)?;
            (Operand::Const(0), CType::void_ptr(), Some(pred))
        } else {
            let (attr, attr_t) = self.rvalue(&args[1])?;
            (attr, attr_t, None)
        };
        let (f, ft) = self.rvalue(&args[2])?;
        if !ft
            .pointee()
            .is_some_and(|p| matches!(p.kind, Kind::Func(_)))
        {
            return self.err(
                args[2].span.start,
                format!(
                    "third argument of `pthread_create` must be a function (got `{}`)",
                    self.show(&ft)
                ),
            );
        }
        let (a, at) = self.rvalue(&args[3])?;
        let arg = self.assign_convert(a, &at, &CType::void_ptr(), args[3].span.start)?;
        self.at(off);
        let dst = self.b.reg();
        self.b.emit(InstKind::Spawn {
            dst,
            func: f,
            arg,
            symm,
            auto: how == Spawned::Verifier,
        });
        let tid = self.b.conv(Operand::Reg(dst), Scalar::PTR, ts);
        self.b.store(tp, tid, ts, super::ops::ord_of(tt.atomic));
        if !super::ops::is_null_const(&attr, &attr_t) {
            self.created_detached(attr, Operand::Reg(dst));
        }
        Ok(Val::R(Operand::Const(0), CType::int(IntTy::Int)))
    }

    /// A thread created with a non-NULL attribute `attr`: when its detach state (the
    /// bundled `pthread_attr_t`'s first `int`) is `PTHREAD_CREATE_DETACHED`, the
    /// creating thread records thread `tid` as detached in its private store, as
    /// `pthread_detach` does (`__PORF_DETACHED_KEY` in the bundled `<pthread.h>`).
    fn created_detached(&mut self, attr: Operand, tid: Operand) {
        let (check, detached, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.b.branch(attr, check, join);
        self.b.set_block(check);
        // The read of the detach state is pthread_create's step for witnesses.
        self.b.begin_lib("pthread_create");
        let begin = self.b.reg();
        self.b.emit(InstKind::Copy {
            dst: begin,
            src: Operand::Const(0),
        });
        let state = self.b.load(attr, Scalar::INT, MemOrder::NonAtomic);
        self.b.end_lib();
        let is = self.b.bin(BinOp::Eq, state, Operand::Const(1), Scalar::INT);
        self.b.branch(is, detached, join);
        self.b.set_block(detached);
        let key = detached_key(&mut self.b, tid);
        self.b.emit(InstKind::Builtin {
            dst: None,
            which: Builtin::PrivateSet,
            args: vec![key, Operand::Const(1)],
        });
        self.b.jump(join);
        self.b.set_block(join);
    }

    fn pthread_join(&mut self, args: &[Node<Expression>], off: usize) -> R<Val> {
        let name = "pthread_join";
        self.argc(name, args, 2, off)?;
        let tid = self.int_arg(&args[0], IntTy::ULong)?;
        let (rp, rt) = self.rvalue(&args[1])?;
        let target = if super::ops::is_null_const(&rp, &rt) {
            None
        } else {
            // A `void *` converts to `void **` implicitly (C11 6.3.2.3p1): the result
            // is stored as a pointer there.
            let pointee = rt.pointee();
            match pointee.and_then(|p| p.scalar().filter(|s| !s.float).map(|s| (s, p.atomic))) {
                Some(st) => Some(st),
                None if pointee.is_some_and(|p| p.is_void()) => Some((Scalar::PTR, false)),
                None => {
                    return self.err(
                        args[1].span.start,
                        format!(
                            "second argument of `pthread_join` must be a `void **` (got `{}`)",
                            self.show(&rt)
                        ),
                    )
                }
            }
        };
        self.at(off);
        // Joining a thread this thread detached is undefined (POSIX): an error.
        let key = detached_key(&mut self.b, tid);
        let flag = self.b.reg();
        self.b.emit(InstKind::Builtin {
            dst: Some(flag),
            which: Builtin::PrivateGet,
            args: vec![key],
        });
        let ok = self.b.bin(
            BinOp::Eq,
            Operand::Reg(flag),
            Operand::Const(0),
            Scalar::PTR,
        );
        self.b.emit(InstKind::Check {
            cond: ok,
            msg: "pthread_join of a thread this thread detached (undefined behaviour)".into(),
        });
        let dst = self.b.reg();
        self.b.emit(InstKind::Join { dst, tid });
        if let Some((s, atomic)) = target {
            let (store, join) = (self.b.new_block(), self.b.new_block());
            self.b.branch(rp, store, join);
            self.b.set_block(store);
            let v = self.b.conv(Operand::Reg(dst), Scalar::PTR, s);
            self.b.store(rp, v, s, super::ops::ord_of(atomic));
            self.b.jump(join);
            self.b.set_block(join);
        }
        Ok(Val::R(Operand::Const(0), CType::int(IntTy::Int)))
    }

    /// [`Cx::atomic`] on an `_Atomic` struct (`atomic_record.rs`): load, store,
    /// exchange and compare-exchange; the orders checked as for scalars.
    #[allow(clippy::too_many_arguments)]
    fn atomic_on_record(
        &mut self,
        op: AtomicOp,
        explicit: bool,
        name: &str,
        args: &[Node<Expression>],
        addr: Operand,
        pt: &CType,
        off: usize,
    ) -> R<Val> {
        let rop = match op {
            AtomicOp::Load => RecOp::Load,
            AtomicOp::Store => RecOp::Store,
            AtomicOp::Exchange => RecOp::Exchange,
            AtomicOp::Cas { .. } => RecOp::Cas,
            _ => {
                return self.err(
                    off,
                    format!(
                        "`{name}` is not defined on a struct (`{}`): C11 7.17.7.5 applies to integer and pointer types",
                        self.show(pt)
                    ),
                )
            }
        };
        let n = op.nargs();
        let ords: Vec<i64> = args[n..].iter().map(|e| self.order(e)).collect::<R<_>>()?;
        let succ = ords.first().copied().unwrap_or(5);
        let mut fail = ords.get(1).copied().unwrap_or(5);
        if explicit {
            let allowed: &[i64] = match rop {
                RecOp::Load => &[0, 1, 2, 5],
                RecOp::Store => &[0, 3, 5],
                _ => &[0, 1, 2, 3, 4, 5],
            };
            self.check_order(name, succ, allowed, &args[n])?;
            if rop == RecOp::Cas {
                if fail == 3 || fail == 4 {
                    return self.err(
                        args[n + 1].span.start,
                        format!(
                            "`{}` is not a valid failure order for `{name}` (C11 7.17.7.4)",
                            ORDER_NAMES[fail as usize]
                        ),
                    );
                }
                self.check_order(name, fail, &[0, 1, 2, 5], &args[n + 1])?;
            }
        } else {
            fail = 5;
        }
        let ords = (mem_order(succ), mem_order(fail));
        self.atomic_record_op(rop, name, addr, pt, &args[1..n], ords, off)
    }

    fn atomic(
        &mut self,
        op: AtomicOp,
        explicit: bool,
        name: &str,
        args: &[Node<Expression>],
        off: usize,
    ) -> R<Val> {
        let nord = match (explicit, op) {
            (false, _) => 0,
            (true, AtomicOp::Cas { .. }) => 2,
            (true, _) => 1,
        };
        let n = op.nargs();
        self.argc(name, args, n + nord, off)?;
        let (addr, pt) = self.atomic_ptr(&args[0], name)?;
        if pt.is_record() {
            return self.atomic_on_record(op, explicit, name, args, addr, &pt, off);
        }
        let ty = pt.scalar().expect("scalar");
        let vt = pt.unqual();
        // The value operand (store, exchange, fetch-op).
        let value = |cx: &mut Self, e: &Node<Expression>| -> R<Operand> {
            let (v, t) = cx.rvalue(e)?;
            cx.assign_convert(v, &t, &vt, e.span.start)
        };
        let ords: Vec<i64> = args[n..].iter().map(|e| self.order(e)).collect::<R<_>>()?;
        let ord0 = ords.first().copied().unwrap_or(5);
        const LOAD_ORDS: &[i64] = &[0, 1, 2, 5];
        const STORE_ORDS: &[i64] = &[0, 3, 5];
        match op {
            AtomicOp::Load => {
                if explicit {
                    self.check_order(name, ord0, LOAD_ORDS, &args[1])?;
                }
                self.at(off);
                let v = self.b.load(addr, ty, mem_order(ord0));
                Ok(Val::R(v, vt))
            }
            AtomicOp::Store | AtomicOp::FlagClear => {
                let v = if op == AtomicOp::Store {
                    value(self, &args[1])?
                } else {
                    Operand::Const(0)
                };
                if explicit {
                    self.check_order(name, ord0, STORE_ORDS, &args[n])?;
                }
                self.at(off);
                self.b.store(addr, v, ty, mem_order(ord0));
                Ok(Val::Void)
            }
            AtomicOp::Exchange
            | AtomicOp::Fetch(_)
            | AtomicOp::OpFetch(_)
            | AtomicOp::FlagTestAndSet => {
                let (kind, v) = match op {
                    AtomicOp::Fetch(k) | AtomicOp::OpFetch(k) if pt.is_ptr() => {
                        // GCC's `__atomic_*`/`__sync_*` on a pointer: "as if the operands
                        // were of the uintptr_t type", not scaled by the pointee's size
                        // (GCC's manual; gcc compiles `__sync_*` so too). C11's
                        // `atomic_fetch_add` on an atomic pointer differs between gcc and
                        // clang (clang scales): not supported.
                        if !name.starts_with("__") {
                            return self
                                .unsup(off, format!("`{name}` on a pointer is not supported"));
                        }
                        let (v, t) = self.rvalue(&args[1])?;
                        let v = if t.is_ptr() {
                            v
                        } else if let Some(it) = t.int_ty() {
                            self.b.conv(v, it.scalar(), Scalar::PTR)
                        } else {
                            return self.err(
                                args[1].span.start,
                                format!(
                                    "second argument of `{name}` must be an integer or a pointer (got `{}`)",
                                    self.show(&t)
                                ),
                            );
                        };
                        (k, v)
                    }
                    AtomicOp::Fetch(k) | AtomicOp::OpFetch(k) => {
                        if pt.int_ty() == Some(IntTy::Bool) {
                            return self.err(off, format!("`{name}` on an atomic `_Bool`"));
                        }
                        (k, value(self, &args[1])?)
                    }
                    AtomicOp::Exchange => (RmwKind::Xchg, value(self, &args[1])?),
                    _ => (RmwKind::Xchg, Operand::Const(1)),
                };
                self.at(off);
                let dst = self.b.reg();
                self.b.emit(InstKind::Rmw {
                    dst,
                    addr,
                    op: kind,
                    val: v,
                    ty,
                    ord: mem_order(ord0),
                });
                let rt = if op == AtomicOp::FlagTestAndSet {
                    CType::int(IntTy::Bool)
                } else {
                    vt
                };
                if let AtomicOp::OpFetch(k) = op {
                    let bop = match k {
                        RmwKind::Add => BinOp::Add,
                        RmwKind::Sub => BinOp::Sub,
                        RmwKind::And => BinOp::And,
                        RmwKind::Or => BinOp::Or,
                        RmwKind::Xor => BinOp::Xor,
                        RmwKind::Xchg
                        | RmwKind::Max
                        | RmwKind::Min
                        | RmwKind::UMax
                        | RmwKind::UMin => unreachable!("no exchange/max/min-and-fetch"),
                    };
                    let new = self.b.bin(bop, Operand::Reg(dst), v, ty);
                    return Ok(Val::R(new, rt));
                }
                Ok(Val::R(Operand::Reg(dst), rt))
            }
            AtomicOp::Cas { weak } => {
                let (ep, et) = self.pointer_arg(&args[1], name)?;
                let sign_only = et
                    .scalar()
                    .is_some_and(|s| s.size == ty.size && s.signed != ty.signed);
                if sign_only {
                    // gcc and clang accept a pointer to the other signedness with a
                    // warning (-Wpointer-sign); the compare and the write-back are of
                    // the same bytes.
                    let msg = format!(
                        "second argument of `{name}` points to `{}`, the atomic is `{}`",
                        self.show(&et),
                        self.show(&vt)
                    );
                    self.warn(args[1].span.start, msg);
                } else if et.scalar() != Some(ty) {
                    return self.err(
                        args[1].span.start,
                        format!("second argument of `{name}` must point to a `{}` (got a pointer to `{}`)", self.show(&vt), self.show(&et)),
                    );
                }
                let new = value(self, &args[2])?;
                let mut fail = ords.get(1).copied().unwrap_or(5);
                if explicit && (fail == 3 || fail == 4) {
                    // C11 7.17.7.4p2 forbids these; gcc and clang accept them with a
                    // warning, and clang (hence GenMC) falls back to relaxed.
                    let d = self.map.diag(
                        crate::DiagKind::Unsupported,
                        args[4].span.start,
                        format!(
                            "`{}` is not a valid failure order for `{name}` (C11 7.17.7.4); porf uses `memory_order_relaxed`, as clang does",
                            ORDER_NAMES[fail as usize]
                        ),
                    );
                    self.warnings.push(format!(
                        "{}:{}:{}: warning: {}",
                        d.file, d.line, d.col, d.message
                    ));
                    fail = 0;
                }
                if explicit {
                    self.check_order(name, fail, LOAD_ORDS, &args[4])?;
                }
                self.at(off);
                let eord = super::ops::ord_of(et.atomic);
                let expected = self.b.load(ep, ty, eord);
                let old = self.b.reg();
                self.b.emit(InstKind::Cas {
                    dst: old,
                    addr,
                    expected,
                    new,
                    ty,
                    succ: mem_order(ord0),
                    fail: mem_order(fail),
                    weak,
                });
                let ok = self.b.bin(BinOp::Eq, Operand::Reg(old), expected, ty);
                let (failed, join) = (self.b.new_block(), self.b.new_block());
                self.b.branch(ok, join, failed);
                self.b.set_block(failed);
                self.b.store(ep, Operand::Reg(old), ty, eord);
                self.b.jump(join);
                self.b.set_block(join);
                Ok(Val::R(ok, CType::int(IntTy::Bool)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert!(is_builtin("atomic_load_explicit"));
        assert!(is_builtin("atomic_compare_exchange_weak"));
        assert!(is_builtin("__VERIFIER_nondet_uint"));
        assert!(is_builtin("pthread_mutex_trylock"));
        assert!(!is_builtin("atomic_frobnicate"));
        assert!(!is_builtin("strlen"));
        assert_eq!(
            atomic_op("atomic_fetch_sub_explicit"),
            Some((AtomicOp::Fetch(RmwKind::Sub), true))
        );
        assert_eq!(mem_order(1), MemOrder::Acquire);
    }

    #[test]
    fn max_and_min_are_fetch_forms_only() {
        assert_eq!(
            atomic_op("__sync_fetch_and_umax"),
            Some((AtomicOp::Fetch(RmwKind::UMax), false))
        );
        assert_eq!(
            atomic_op("__atomic_fetch_min"),
            Some((AtomicOp::Fetch(RmwKind::Min), true))
        );
        assert_eq!(atomic_op("__sync_max_and_fetch"), None);
        assert!(is_builtin("snprintf") && is_builtin("__builtin_va_start"));
    }
}

/// How a thread is spawned.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Spawned {
    /// `pthread_create(t, attr, f, arg)`.
    Pthread,
    /// genmc.h's `__VERIFIER_spawn(f, arg)` (`__porf_spawn(t, attr, f, arg)`): GenMC's
    /// spawn returns the id instead of storing it, so the spawn may be found symmetric
    /// to the previous one (`InstKind::Spawn::auto`).
    Verifier,
    /// genmc.h's `__VERIFIER_spawn_symmetric(f, arg, pred)`
    /// (`__porf_spawn_symmetric(t, pred, f, arg)`): the new thread is declared
    /// interchangeable with thread `pred`.
    Symmetric,
}
