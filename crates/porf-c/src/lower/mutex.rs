//! `pthread_mutex_{lock,trylock,unlock,init}` with mutex types (normal, recursive,
//! error-checking), lowered inline at the call site.
//!
//! Layout (must match the bundled `<pthread.h>`): `pthread_mutex_t` is
//! `{ int __lock; int __kind; }`: the lock word (the location of the engine's `Lock`,
//! `TryLock` and `Unlock` actions) at offset 0 and the type at offset [`KIND_OFFSET`];
//! `pthread_mutexattr_t` starts with `int __kind` (its other fields are read by no
//! one here).
//!
//! Ownership is thread-local knowledge: the calling thread's private store
//! (`Builtin::PrivateGet`/`PrivateSet`, no events) holds, under the mutex's address,
//! how many times the thread holds it (0 or 1 except for recursive mutexes). The type
//! is read (a non-atomic load, one event) only when the answer depends on it: a lock or
//! trylock of a mutex the thread holds, an unlock of one it does not hold. So a normal
//! mutex used correctly costs exactly the events it cost before. Behaviour:
//! * lock, not held: the engine's `Lock`. Held: recursive → count + 1, returns 0;
//!   error-checking → returns EDEADLK; normal → the engine's `Lock`, which waits for
//!   the thread itself (reported as a deadlock).
//! * trylock, not held: the engine's `TryLock` (0 or EBUSY). Held: recursive → count
//!   + 1, returns 0; otherwise EBUSY.
//! * unlock, held once: the engine's `Unlock`; held more (recursive): count − 1.
//!   Not held: recursive or error-checking → returns EPERM; normal → the engine's
//!   `Unlock`, which reports the invalid unlock.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, BlockId, Builtin, InstKind, Operand, Reg, Scalar};
use crate::types::{CType, IntTy};
use lang_c::ast::Expression;
use lang_c::span::Node;
use porf_graph::MemOrder;

/// Offset of `__kind` in `pthread_mutex_t`.
pub const KIND_OFFSET: i64 = 4;
/// `PTHREAD_MUTEX_RECURSIVE`.
pub const RECURSIVE: i64 = 1;
/// `PTHREAD_MUTEX_ERRORCHECK`.
pub const ERRORCHECK: i64 = 2;
const EPERM: i64 = 1;
const EBUSY: i64 = 16;
const EDEADLK: i64 = 35;

impl Cx<'_> {
    /// The calling thread's hold count of the mutex at `m`.
    fn held(&mut self, m: Operand) -> Operand {
        let h = self.b.reg();
        self.b.emit(InstKind::Builtin {
            dst: Some(h),
            which: Builtin::PrivateGet,
            args: vec![m],
        });
        Operand::Reg(h)
    }

    fn set_held(&mut self, m: Operand, v: Operand) {
        self.b.emit(InstKind::Builtin {
            dst: None,
            which: Builtin::PrivateSet,
            args: vec![m, v],
        });
    }

    /// The mutex's type (a non-atomic load of `__kind`).
    fn kind(&mut self, m: Operand) -> Operand {
        let a = self
            .b
            .bin(BinOp::Add, m, Operand::Const(KIND_OFFSET), Scalar::PTR);
        self.b.load(a, Scalar::INT, MemOrder::NonAtomic)
    }

    /// Branches on `a == k`.
    fn branch_eq(&mut self, a: Operand, k: i64) -> (u32, u32) {
        let c = self.b.bin(BinOp::Eq, a, Operand::Const(k), Scalar::LONG);
        let (t, e) = (self.b.new_block(), self.b.new_block());
        self.b.branch(c, t, e);
        (t, e)
    }

    fn set_result(&mut self, res: Reg, v: Operand) {
        self.b.emit(InstKind::Copy { dst: res, src: v });
    }

    /// In a block where the caller already holds mutex `m` (`h` times): a recursive
    /// mutex counts one more hold and jumps to `end`; otherwise control continues in a
    /// new current block. Returns the mutex's kind, for further tests there.
    fn relock_if_recursive(&mut self, m: Operand, h: Operand, end: BlockId) -> Operand {
        let k = self.kind(m);
        let (rec, other) = self.branch_eq(k, RECURSIVE);
        self.b.set_block(rec);
        let n = self.b.bin(BinOp::Add, h, Operand::Const(1), Scalar::INT);
        self.set_held(m, n);
        self.b.jump(end);
        self.b.set_block(other);
        k
    }

    /// `pthread_mutex_lock`, `_trylock` or `_unlock` of the mutex at `m` (the source
    /// position is set); the `int` result.
    pub(super) fn mutex_op(&mut self, name: &str, m: Operand) -> Val {
        self.b.begin_lib(match name {
            "pthread_mutex_lock" => "pthread_mutex_lock",
            "pthread_mutex_trylock" => "pthread_mutex_trylock",
            _ => "pthread_mutex_unlock",
        });
        let res = self.b.reg();
        self.set_result(res, Operand::Const(0));
        let end = self.b.new_block();
        let h = self.held(m);
        match name {
            "pthread_mutex_lock" => {
                let (free, held) = self.branch_eq(h, 0);
                self.b.set_block(free);
                self.b.emit(InstKind::Lock { addr: m });
                self.set_held(m, Operand::Const(1));
                self.b.jump(end);
                self.b.set_block(held);
                let k = self.relock_if_recursive(m, h, end);
                let (chk, normal) = self.branch_eq(k, ERRORCHECK);
                self.b.set_block(chk);
                self.set_result(res, Operand::Const(EDEADLK));
                self.b.jump(end);
                self.b.set_block(normal);
                self.b.emit(InstKind::Lock { addr: m });
                self.b.jump(end);
            }
            "pthread_mutex_trylock" => {
                let (free, held) = self.branch_eq(h, 0);
                self.b.set_block(free);
                self.b.emit(InstKind::TryLock { dst: res, addr: m });
                let got = self.b.new_block();
                let ok = self
                    .b
                    .bin(BinOp::Eq, Operand::Reg(res), Operand::Const(0), Scalar::INT);
                self.b.branch(ok, got, end);
                self.b.set_block(got);
                self.set_held(m, Operand::Const(1));
                self.b.jump(end);
                self.b.set_block(held);
                self.relock_if_recursive(m, h, end);
                self.set_result(res, Operand::Const(EBUSY));
                self.b.jump(end);
            }
            _ => {
                let (once, other) = self.branch_eq(h, 1);
                self.b.set_block(once);
                self.b.emit(InstKind::Unlock { addr: m });
                self.set_held(m, Operand::Const(0));
                self.b.jump(end);
                self.b.set_block(other);
                let (none, more) = self.branch_eq(h, 0);
                self.b.set_block(more);
                let n = self.b.bin(BinOp::Sub, h, Operand::Const(1), Scalar::INT);
                self.set_held(m, n);
                self.b.jump(end);
                self.b.set_block(none);
                let k = self.kind(m);
                let (normal, typed) = self.branch_eq(k, 0);
                self.b.set_block(typed);
                self.set_result(res, Operand::Const(EPERM));
                self.b.jump(end);
                self.b.set_block(normal);
                self.b.emit(InstKind::Unlock { addr: m });
                self.b.jump(end);
            }
        }
        self.b.set_block(end);
        self.b.end_lib();
        Val::R(Operand::Reg(res), CType::int(IntTy::Int))
    }

    /// `pthread_mutex_init(m, attr)`: the engine's `MutexInit`, then `__kind` from
    /// `attr->__kind` (0, normal, when `attr` is null).
    pub(super) fn mutex_init(&mut self, args: &[Node<Expression>], off: usize) -> R<Val> {
        let name = "pthread_mutex_init";
        self.argc(name, args, 2, off)?;
        let (m, _) = self.pointer_arg(&args[0], name)?;
        let (a, _) = self.rvalue(&args[1])?;
        self.at(off);
        let kind = self.b.reg();
        self.b.begin_lib("pthread_mutex_init");
        self.set_result(kind, Operand::Const(0));
        self.b.emit(InstKind::MutexInit { addr: m });
        let (null, given) = self.branch_eq(a, 0);
        self.b.set_block(given);
        let k = self.b.load(a, Scalar::INT, MemOrder::NonAtomic);
        self.set_result(kind, k);
        self.b.jump(null);
        self.b.set_block(null);
        let ka = self
            .b
            .bin(BinOp::Add, m, Operand::Const(KIND_OFFSET), Scalar::PTR);
        self.b
            .store(ka, Operand::Reg(kind), Scalar::INT, MemOrder::NonAtomic);
        self.set_held(m, Operand::Const(0));
        self.b.end_lib();
        Ok(Val::R(Operand::Const(0), CType::int(IntTy::Int)))
    }
}
