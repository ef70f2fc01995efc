//! Dat3M's conventions (the functions its `include/dat3m.h` and `lkmm.h` declare),
//! when the program does not define a function of that name.
//!
//! * `__VERIFIER_loop_bound(n)`: a bound for the next loop statement (`while`, `do`,
//!   `for`) the function's text has after the call, as in Dat3M, where the annotation
//!   belongs to the next loop in program order. porf cuts that loop as `--unroll n`
//!   would cut it: the body about to start its `(n+1)`th run blocks the execution
//!   (`BlockReason::LoopBound`), and a run in which that happens is incomplete ("up to
//!   the bound", exit 4). `n` is evaluated where the call is (`ir::Builtin::LoopBound`);
//!   if the loop is entered without passing the call (a `goto`), it has no hint. With
//!   `--unroll N` as well, the smaller bound cuts. Dat3M's bound `k` lets the body run
//!   `k` times and cuts at the end of the `k`th run, so porf explores at least what
//!   Dat3M explores with the same `k`. A hint followed by no loop statement in its
//!   function, or replaced by a second hint before a loop, is reported with a warning
//!   (Dat3M warns about the second case too); loops built with `goto` take no hint.
//! * `__VERIFIER_assert(c)`: an assertion (Dat3M's "user assertion").
//! * `__VERIFIER_tid()`: the caller's thread id, the value `pthread_self()` returns
//!   (Dat3M implements both by the same intrinsic).
//! * `__VERIFIER_loop_begin()`, `__VERIFIER_spin_start()`, `__VERIFIER_spin_end(c)`
//!   (the `await_while` macro): annotations for Dat3M's spin-loop detection with no
//!   effect on the program's meaning; no event (porf's spin-assume finds spin loops by
//!   itself). The argument of `__VERIFIER_spin_end` is evaluated.
//! * `__LKMM_*` (Dat3M's Linux-kernel memory model intrinsics): porf has no model of
//!   the LKMM, so a call is an unsupported-input error where an execution reaches it.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{Builtin, InstKind, Operand};
use crate::types::{CType, IntTy};
use lang_c::ast::Expression;
use lang_c::span::Node;

const NAMES: &[&str] = &[
    "__VERIFIER_loop_bound",
    "__VERIFIER_assert",
    "__VERIFIER_tid",
    "__VERIFIER_loop_begin",
    "__VERIFIER_spin_start",
    "__VERIFIER_spin_end",
];

/// Whether `name` is one of Dat3M's functions the front end handles.
pub fn is_dat3m(name: &str) -> bool {
    NAMES.contains(&name) || name.starts_with("__LKMM_")
}

impl Cx<'_> {
    /// A call of Dat3M's function `name` (one [`is_dat3m`] accepts).
    pub(super) fn dat3m_builtin(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        off: usize,
    ) -> R<Val> {
        if name.starts_with("__LKMM_") {
            for a in args {
                self.rvalue(a)?;
            }
            self.at(off);
            self.b.emit(InstKind::Unsupported {
                msg: format!(
                    "`{name}` (Dat3M's Linux-kernel memory model intrinsics, lkmm.h) is not \
                     supported: porf has no model of the LKMM"
                ),
            });
            return Ok(Val::R(Operand::Const(0), CType::int(IntTy::Long)));
        }
        match name {
            "__VERIFIER_loop_bound" => {
                self.argc(name, args, 1, off)?;
                let (v, t) = self.rvalue(&args[0])?;
                if !t.is_integer() {
                    return self.err(
                        args[0].span.start,
                        format!(
                            "`__VERIFIER_loop_bound` takes an integer (got `{}`)",
                            self.show(&t)
                        ),
                    );
                }
                let v = self.assign_convert(v, &t, &CType::int(IntTy::Long), off)?;
                self.at(off);
                let dst = self.b.reg();
                self.b.emit(InstKind::Builtin {
                    dst: Some(dst),
                    which: Builtin::LoopBound,
                    args: vec![v],
                });
                if self.f.loop_hint.is_some() {
                    self.warn(
                        off,
                        "`__VERIFIER_loop_bound` replaces an earlier hint that no loop \
                         statement took",
                    );
                }
                self.f.loop_hint = Some((Operand::Reg(dst), off));
                Ok(Val::Void)
            }
            "__VERIFIER_assert" => {
                self.argc(name, args, 1, off)?;
                let cond = self.cond_operand(&args[0])?;
                self.at(off);
                self.b.emit(InstKind::Assert {
                    cond,
                    msg: "`__VERIFIER_assert` failed".to_string(),
                });
                Ok(Val::Void)
            }
            "__VERIFIER_tid" => {
                // `pthread_self()`, as an `unsigned int` (Dat3M's signature).
                self.argc(name, args, 0, off)?;
                let tid = self.thread_self(off);
                let v = self
                    .b
                    .conv(tid, IntTy::ULong.scalar(), IntTy::UInt.scalar());
                Ok(Val::R(v, CType::int(IntTy::UInt)))
            }
            "__VERIFIER_loop_begin" | "__VERIFIER_spin_start" => {
                self.argc(name, args, 0, off)?;
                Ok(Val::Void)
            }
            "__VERIFIER_spin_end" => {
                self.argc(name, args, 1, off)?;
                self.rvalue(&args[0])?;
                Ok(Val::Void)
            }
            _ => unreachable!("`{name}` is not one of Dat3M's functions"),
        }
    }

    /// At a loop statement's entry, right after its `LoopEnter`: the pending
    /// `__VERIFIER_loop_bound` hint, if any, becomes the loop's.
    pub(super) fn take_loop_hint(&mut self, id: crate::ir::LoopId) {
        if let Some((bound, _)) = self.f.loop_hint.take() {
            self.b.emit(InstKind::LoopHint { id, bound });
        }
    }

    /// At the end of a function: a hint no loop statement took is reported.
    pub(super) fn unused_loop_hint(&mut self) {
        if let Some((_, off)) = self.f.loop_hint.take() {
            self.warn(
                off,
                "`__VERIFIER_loop_bound` is followed by no loop statement in this function \
                 (porf applies it to the next `while`, `do` or `for`): ignored",
            );
        }
    }
}
