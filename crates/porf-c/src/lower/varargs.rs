//! Variadic functions: `<stdarg.h>`'s `va_start`, `va_arg`, `va_end` and `va_copy`
//! (GCC's `__builtin_va_*`, which the bundled header expands to).
//!
//! A `va_list` is a `long` naming an activation and the index of its next variadic
//! argument ([`Builtin::VaStart`]); the interpreter keeps the arguments a call passes
//! beyond the callee's parameters, after the default argument promotions, with the
//! activation. `va_arg(ap, T)` reads the argument `ap` names ([`Builtin::VaArg`]),
//! takes its bits as a `T` (a promoted integer converted, a `double` as is) and
//! advances `ap`. Invariant: `va_start` is accepted only in a variadic function, and
//! `va_arg` only of a scalar type (a struct passed by value as a variadic argument is
//! rejected at the call).

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, Builtin, InstKind, Operand, Scalar};
use crate::types::{CType, IntTy};
use lang_c::ast::{Expression, VaArgExpression};
use lang_c::span::Node;

/// The type of a `va_list` (`__builtin_va_list`).
pub fn va_list_type() -> CType {
    CType::int(IntTy::Long)
}

/// The builtins of this module.
pub const NAMES: &[&str] = &[
    "__builtin_va_start",
    "__builtin_va_end",
    "__builtin_va_copy",
];

impl Cx<'_> {
    /// A `va_list` lvalue argument of `name`.
    fn va_list_lvalue(&mut self, e: &Node<Expression>, name: &str) -> R<Val> {
        let lv = self.expr(e)?;
        let t = self.val_type(&lv);
        if !matches!(lv, Val::Reg(..) | Val::Mem(..)) || t.unqual() != va_list_type() {
            return self.err(
                e.span.start,
                format!("argument of `{name}` must be a `va_list` variable"),
            );
        }
        Ok(lv)
    }

    /// `__builtin_va_start(ap, last)`, `__builtin_va_end(ap)`, `__builtin_va_copy(d, s)`.
    pub(super) fn va_builtin(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        off: usize,
    ) -> R<Val> {
        match name {
            "__builtin_va_start" => {
                self.argc("va_start", args, 2, off)?;
                let variadic = self
                    .fname
                    .as_ref()
                    .and_then(|f| self.func_names.get(f))
                    .is_some_and(|&i| self.funcs[i].sig.variadic);
                if !variadic {
                    return self.err(off, "`va_start` used in a function with fixed arguments");
                }
                let ap = self.va_list_lvalue(&args[0], "va_start")?;
                // The second argument names the last parameter; only its presence matters.
                self.expr(&args[1])?;
                self.at(off);
                let v = self.b.reg();
                self.b.emit(InstKind::Builtin {
                    dst: Some(v),
                    which: Builtin::VaStart,
                    args: vec![],
                });
                self.store_to(&ap, Operand::Reg(v), off)?;
            }
            "__builtin_va_copy" => {
                self.argc("va_copy", args, 2, off)?;
                let d = self.va_list_lvalue(&args[0], "va_copy")?;
                self.va_list_lvalue(&args[1], "va_copy")?;
                let (s, _) = self.rvalue(&args[1])?;
                self.at(off);
                self.store_to(&d, s, off)?;
            }
            _ => {
                self.argc("va_end", args, 1, off)?;
                self.va_list_lvalue(&args[0], "va_end")?;
            }
        }
        Ok(Val::Void)
    }

    /// `__builtin_va_arg(ap, T)`.
    pub(super) fn va_arg(&mut self, v: &VaArgExpression, off: usize) -> R<Val> {
        let ap = self.va_list_lvalue(&v.va_list, "va_arg")?;
        let t = self.type_name(&v.type_name)?;
        let Some(s) = t.scalar() else {
            return self.unsup(
                off,
                format!(
                    "`va_arg` of type `{}` (porf passes scalars only)",
                    self.show(&t)
                ),
            );
        };
        if s == Scalar::F32 {
            return self.err(
                off,
                "`va_arg` of `float`: a `float` argument is passed as a `double` (undefined behaviour)",
            );
        }
        let (cur, _) = self.load(ap.clone(), off)?;
        self.at(off);
        let raw = self.b.reg();
        self.b.emit(InstKind::Builtin {
            dst: Some(raw),
            which: Builtin::VaArg,
            args: vec![cur],
        });
        let next = self.b.bin(BinOp::Add, cur, Operand::Const(1), Scalar::LONG);
        self.store_to(&ap, next, off)?;
        // Integers arrive promoted (at least `int`): the bits of a narrower type are
        // its low bytes. Floating values arrive as `double` bits.
        let val = if s.float {
            Operand::Reg(raw)
        } else {
            self.b.conv(Operand::Reg(raw), Scalar::LONG, s)
        };
        Ok(Val::R(val, t.unqual()))
    }
}
