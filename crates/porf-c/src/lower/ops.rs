//! Operators: binary arithmetic with the usual arithmetic conversions, pointer
//! arithmetic, comparisons, assignment, compound assignment, increment/decrement,
//! implicit and explicit conversions, and struct copies.
//!
//! Integer arithmetic is computed in the promoted/common type and stored with the
//! destination's type; with a floating operand, in the common floating type
//! (`float`). On an `_Atomic` object in memory, `++`, `--`, `+=`, `-=`,
//! `&=`, `|=` and `^=` are single seq_cst read-modify-writes, as C11 specifies; the
//! other compound assignments are rejected (they would need a CAS loop).

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{BinOp, InstKind, Operand, RmwKind, Scalar, UnOp};
use crate::types::{common, promote, CType, IntTy, Kind};
use lang_c::ast::{BinaryOperator, BinaryOperatorExpression, Expression};
use lang_c::span::Node;
use porf_graph::MemOrder;

/// Most scalar cells a struct copy may move.
const MAX_COPY_LEAVES: u64 = 1 << 16;

/// The order of a plain access to an object: seq_cst if it is `_Atomic`.
pub fn ord_of(atomic: bool) -> MemOrder {
    if atomic {
        MemOrder::SeqCst
    } else {
        MemOrder::NonAtomic
    }
}

/// Whether `v` of type `t` is a null pointer constant (a constant 0 of integer or
/// `void *` type).
pub fn is_null_const(v: &Operand, t: &CType) -> bool {
    *v == Operand::Const(0) && (t.is_integer() || t.pointee().is_some_and(CType::is_void))
}

fn arith_of(op: &BinaryOperator) -> Option<BinOp> {
    use BinaryOperator as B;
    Some(match op {
        B::Multiply | B::AssignMultiply => BinOp::Mul,
        B::Divide | B::AssignDivide => BinOp::Div,
        B::Modulo | B::AssignModulo => BinOp::Rem,
        B::Plus | B::AssignPlus => BinOp::Add,
        B::Minus | B::AssignMinus => BinOp::Sub,
        B::ShiftLeft | B::AssignShiftLeft => BinOp::Shl,
        B::ShiftRight | B::AssignShiftRight => BinOp::Shr,
        B::Less => BinOp::Lt,
        B::Greater => BinOp::Gt,
        B::LessOrEqual => BinOp::Le,
        B::GreaterOrEqual => BinOp::Ge,
        B::Equals => BinOp::Eq,
        B::NotEquals => BinOp::Ne,
        B::BitwiseAnd | B::AssignBitwiseAnd => BinOp::And,
        B::BitwiseXor | B::AssignBitwiseXor => BinOp::Xor,
        B::BitwiseOr | B::AssignBitwiseOr => BinOp::Or,
        _ => return None,
    })
}

fn op_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::Rem => "%",
        BinOp::And => "&",
        BinOp::Or => "|",
        BinOp::Xor => "^",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
        BinOp::Eq => "==",
        BinOp::Ne => "!=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
    }
}

fn is_cmp(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

impl Cx<'_> {
    pub fn binary(&mut self, b: &BinaryOperatorExpression, off: usize) -> R<Val> {
        use BinaryOperator as B;
        let (l, r) = (&b.lhs, &b.rhs);
        match &b.operator.node {
            B::Index => self.index(l, r, off),
            B::LogicalAnd | B::LogicalOr => self.logical_value(b),
            B::Assign => self.assign(l, r, off),
            op => {
                let bop = arith_of(op).expect("arithmetic operator");
                let is_assign = !matches!(
                    op,
                    B::Multiply
                        | B::Divide
                        | B::Modulo
                        | B::Plus
                        | B::Minus
                        | B::ShiftLeft
                        | B::ShiftRight
                        | B::Less
                        | B::Greater
                        | B::LessOrEqual
                        | B::GreaterOrEqual
                        | B::Equals
                        | B::NotEquals
                        | B::BitwiseAnd
                        | B::BitwiseXor
                        | B::BitwiseOr
                );
                if is_assign {
                    return self.compound_assign(bop, l, r, off);
                }
                let a = self.rvalue(l)?;
                let c = self.rvalue(r)?;
                self.at(off);
                let (v, t) = self.arith(bop, a, c, off)?;
                Ok(Val::R(v, t))
            }
        }
    }

    /// `a op b` on rvalues, with C's conversions and pointer arithmetic.
    pub fn arith(
        &mut self,
        op: BinOp,
        (a, ta): (Operand, CType),
        (b, tb): (Operand, CType),
        off: usize,
    ) -> R<(Operand, CType)> {
        let int = CType::int(IntTy::Int);
        let bad = |cx: &Self| {
            cx.err(
                off,
                format!(
                    "invalid operands to binary `{}` (`{}` and `{}`)",
                    op_name(op),
                    cx.show(&ta),
                    cx.show(&tb)
                ),
            )
        };
        if ta.is_float() || tb.is_float() {
            return match self.float_arith(op, (&a, &ta), (&b, &tb)) {
                Some(r) => Ok(r),
                None => bad(self),
            };
        }
        match (&ta.kind, &tb.kind) {
            (Kind::Int(x), Kind::Int(y)) => {
                if matches!(op, BinOp::Shl | BinOp::Shr) {
                    let rt = promote(*x);
                    let a = self.b.conv(a, x.scalar(), rt.scalar());
                    let b = self.b.conv(b, y.scalar(), promote(*y).scalar());
                    let b = self.b.conv(b, promote(*y).scalar(), rt.scalar());
                    return Ok((self.b.bin(op, a, b, rt.scalar()), CType::int(rt)));
                }
                let ct = common(*x, *y);
                let a = self.b.conv(a, x.scalar(), ct.scalar());
                let b = self.b.conv(b, y.scalar(), ct.scalar());
                let v = self.b.bin(op, a, b, ct.scalar());
                Ok((v, if is_cmp(op) { int } else { CType::int(ct) }))
            }
            (Kind::Ptr(e), Kind::Int(_)) if matches!(op, BinOp::Add | BinOp::Sub) => {
                let e = (**e).clone();
                self.check_arith_pointee(&e, off)?;
                let v = self.ptr_offset(a, &e, b, &tb, op == BinOp::Sub, off)?;
                Ok((v, ta.unqual()))
            }
            (Kind::Int(_), Kind::Ptr(e)) if op == BinOp::Add => {
                let e = (**e).clone();
                self.check_arith_pointee(&e, off)?;
                let v = self.ptr_offset(b, &e, a, &ta, false, off)?;
                Ok((v, tb.unqual()))
            }
            (Kind::Ptr(e), Kind::Ptr(_)) if op == BinOp::Sub => {
                let e = (**e).clone();
                self.check_arith_pointee(&e, off)?;
                let size = self.types.size_of(&e).unwrap_or(1).max(1) as i64;
                let d = self.b.bin(BinOp::Sub, a, b, Scalar::LONG);
                let d = if size == 1 {
                    d
                } else {
                    self.b
                        .bin(BinOp::Div, d, Operand::Const(size), Scalar::LONG)
                };
                Ok((d, CType::int(IntTy::Long)))
            }
            (Kind::Ptr(_), Kind::Ptr(_)) if is_cmp(op) => {
                Ok((self.b.bin(op, a, b, Scalar::PTR), int))
            }
            (Kind::Ptr(_), Kind::Int(_)) if is_cmp(op) && is_null_const(&b, &tb) => {
                Ok((self.b.bin(op, a, Operand::Const(0), Scalar::PTR), int))
            }
            (Kind::Int(_), Kind::Ptr(_)) if is_cmp(op) && is_null_const(&a, &ta) => {
                Ok((self.b.bin(op, Operand::Const(0), b, Scalar::PTR), int))
            }
            (Kind::Ptr(_), Kind::Int(y)) if is_cmp(op) => {
                let b = self.int_as_pointer(b, *y, (&ta, &tb), off);
                Ok((self.b.bin(op, a, b, Scalar::PTR), int))
            }
            (Kind::Int(x), Kind::Ptr(_)) if is_cmp(op) => {
                let a = self.int_as_pointer(a, *x, (&ta, &tb), off);
                Ok((self.b.bin(op, a, b, Scalar::PTR), int))
            }
            _ => bad(self),
        }
    }

    /// The integer operand `v` (of type `ty`) of a comparison with a pointer, converted
    /// to the pointer's width as a cast would, with gcc's warning (gcc accepts
    /// `p == 1` and `p < n` with "comparison between pointer and integer"): the two
    /// are then compared as addresses.
    fn int_as_pointer(
        &mut self,
        v: Operand,
        ty: IntTy,
        (ta, tb): (&CType, &CType),
        off: usize,
    ) -> Operand {
        let msg = format!(
            "comparison between pointer and integer (`{}` and `{}`): the integer is \
             converted to a pointer and the two compared as addresses",
            self.show(ta),
            self.show(tb)
        );
        self.warn(off, msg);
        self.b.conv(v, ty.scalar(), Scalar::PTR)
    }

    fn check_arith_pointee(&self, e: &CType, off: usize) -> R<()> {
        if matches!(e.kind, Kind::Func(_)) {
            return self.err(off, "arithmetic on a pointer to a function");
        }
        if !e.is_void() && !self.types.is_complete(e) {
            return self.err(
                off,
                format!(
                    "arithmetic on a pointer to incomplete type `{}`",
                    self.show(e)
                ),
            );
        }
        Ok(())
    }

    /// Implicit conversion of `v: from` for assignment to an object of type `to`
    /// (C11 6.5.16.1): arithmetic to arithmetic, pointer to pointer or `_Bool`, and a
    /// null pointer constant to a pointer.
    pub fn assign_convert(
        &mut self,
        v: Operand,
        from: &CType,
        to: &CType,
        off: usize,
    ) -> R<Operand> {
        self.note_alloc_type(&v, to);
        if let Some(v) = self.float_convert(v, from, to, off)? {
            return Ok(v);
        }
        match (&from.kind, &to.kind) {
            (Kind::Int(f), Kind::Int(IntTy::Bool)) if *f != IntTy::Bool => Ok(self.b.bool_of(v)),
            (Kind::Int(f), Kind::Int(t)) => Ok(self.b.conv(v, f.scalar(), t.scalar())),
            (Kind::Ptr(_), Kind::Int(IntTy::Bool)) => Ok(self.b.bool_of(v)),
            (Kind::Ptr(_), Kind::Ptr(_)) => Ok(v),
            (Kind::Int(_), Kind::Ptr(_)) if is_null_const(&v, from) => Ok(Operand::Const(0)),
            (Kind::Int(f), Kind::Ptr(_)) => {
                // gcc accepts this with a warning (-Wint-conversion): the integer's
                // value becomes the pointer's.
                let msg = format!(
                    "`{}` converted to pointer `{}` without a cast",
                    self.show(from),
                    self.show(to)
                );
                self.warn(off, msg);
                Ok(self.b.conv(v, f.scalar(), Scalar::PTR))
            }
            (Kind::Ptr(_), Kind::Int(t)) => {
                // gcc accepts this with a warning (-Wint-conversion): the address is
                // truncated to the integer type.
                let msg = format!(
                    "pointer `{}` converted to integer `{}` without a cast",
                    self.show(from),
                    self.show(to)
                );
                self.warn(off, msg);
                self.ilp32_pointer_to_int(v, from, to, off);
                Ok(self.b.conv(v, Scalar::PTR, t.scalar()))
            }
            _ => self.err(
                off,
                format!(
                    "incompatible types: `{}` cannot be converted to `{}`",
                    self.show(from),
                    self.show(to)
                ),
            ),
        }
    }

    /// Explicit cast conversion between scalar types.
    pub fn cast_convert(&mut self, v: Operand, from: &CType, to: &CType, off: usize) -> R<Operand> {
        self.note_alloc_type(&v, to);
        if (from.is_float() || to.is_float()) && from.is_scalar() && to.is_scalar() {
            if !from.is_arithmetic() || !to.is_arithmetic() {
                return self.err(
                    off,
                    format!("cannot cast `{}` to `{}`", self.show(from), self.show(to)),
                );
            }
            return Ok(self
                .float_convert(v, from, to, off)?
                .expect("a floating type"));
        }
        match (from.scalar(), to.scalar()) {
            (Some(_), Some(_)) if to.int_ty() == Some(IntTy::Bool) => {
                if from.int_ty() == Some(IntTy::Bool) {
                    Ok(v)
                } else {
                    Ok(self.b.bool_of(v))
                }
            }
            (Some(f), Some(t)) => {
                self.ilp32_pointer_to_int(v, from, to, off);
                Ok(self.b.conv(v, f, t))
            }
            _ if from.is_void() && to.is_void() => Ok(v),
            _ => self.err(
                off,
                format!("cannot cast `{}` to `{}`", self.show(from), self.show(to)),
            ),
        }
    }

    /// An lvalue for writing: a register or a scalar/record object in memory.
    fn lvalue(&mut self, e: &Node<Expression>) -> R<Val> {
        let v = self.expr(e)?;
        match &v {
            Val::Reg(..) | Val::Bits(..) => Ok(v),
            Val::Mem(_, t) if t.is_scalar() || t.is_record() => Ok(v),
            Val::Mem(_, t) if t.is_array() => {
                self.err(e.span.start, "array type is not assignable")
            }
            _ => self.err(e.span.start, "expression is not assignable"),
        }
    }

    fn assign(&mut self, l: &Node<Expression>, r: &Node<Expression>, off: usize) -> R<Val> {
        let lv = self.lvalue(l)?;
        let lt = self.val_type(&lv);
        if lt.is_record() {
            let Val::Mem(dst, _) = lv else { unreachable!() };
            let src = self.record_address(r, &lt)?;
            self.at(off);
            self.copy_object_from(dst, src, &lt, off, Some(r.span.start))?;
            return Ok(Val::Mem(dst, lt));
        }
        let (v, t) = self.rvalue(r)?;
        let v = self.assign_convert(v, &t, &lt, r.span.start)?;
        self.at(off);
        self.store_to(&lv, v, off)?;
        Ok(self.assigned_value(&lv, v, lt.unqual()))
    }

    fn compound_assign(
        &mut self,
        op: BinOp,
        l: &Node<Expression>,
        r: &Node<Expression>,
        off: usize,
    ) -> R<Val> {
        let lv = self.lvalue(l)?;
        let lt = self.val_type(&lv);
        if lt.is_record() {
            return self.err(
                off,
                format!(
                    "invalid operands to `{}=` (`{}`)",
                    op_name(op),
                    self.show(&lt)
                ),
            );
        }
        if let (Val::Mem(addr, _), true) = (&lv, lt.atomic) {
            let addr = *addr;
            let (v, t) = self.rvalue(r)?;
            let (kind, val) = self.atomic_operand(op, &lt, v, &t, off)?;
            self.at(off);
            let ty = lt.scalar().expect("scalar");
            let old = self.seq_cst_rmw(addr, kind, val, ty);
            let new = self.b.bin(op, Operand::Reg(old), val, ty);
            return Ok(Val::R(new, lt.unqual()));
        }
        let cur = self.load(lv.clone(), l.span.start)?;
        let rv = self.rvalue(r)?;
        self.at(off);
        let (v, t) = self.arith(op, cur, rv, off)?;
        let v = if lt.is_integer() && t.is_integer() {
            self.cast_convert(v, &t, &lt, off)?
        } else {
            self.assign_convert(v, &t, &lt, off)?
        };
        self.store_to(&lv, v, off)?;
        Ok(self.assigned_value(&lv, v, lt.unqual()))
    }

    /// The RMW kind and operand implementing `obj op= v` on an atomic object.
    fn atomic_operand(
        &mut self,
        op: BinOp,
        lt: &CType,
        v: Operand,
        t: &CType,
        off: usize,
    ) -> R<(RmwKind, Operand)> {
        let kind = match op {
            BinOp::Add => RmwKind::Add,
            BinOp::Sub => RmwKind::Sub,
            BinOp::And => RmwKind::And,
            BinOp::Or => RmwKind::Or,
            BinOp::Xor => RmwKind::Xor,
            _ => {
                return self.unsup(off, format!("`{}=` on an atomic object is not supported (it is not a single read-modify-write)", op_name(op)));
            }
        };
        match (&lt.kind, &t.kind) {
            (Kind::Int(IntTy::Bool), _) => self.unsup(
                off,
                "compound assignment to an atomic `_Bool` is not supported",
            ),
            (Kind::Int(x), Kind::Int(y)) => Ok((kind, self.b.conv(v, y.scalar(), x.scalar()))),
            (Kind::Ptr(e), Kind::Int(_)) if matches!(kind, RmwKind::Add | RmwKind::Sub) => {
                let e = (**e).clone();
                self.check_arith_pointee(&e, off)?;
                let scaled = self.ptr_offset(Operand::Const(0), &e, v, t, false, off)?;
                Ok((kind, scaled))
            }
            _ => self.err(
                off,
                format!(
                    "invalid operands to `{}=` (`{}` and `{}`)",
                    op_name(op),
                    self.show(lt),
                    self.show(t)
                ),
            ),
        }
    }

    /// A plain C read-modify-write of an `_Atomic` object (`x += v`, `x++`): one
    /// seq_cst RMW, as C11 specifies. Returns the register holding the old value.
    fn seq_cst_rmw(
        &mut self,
        addr: Operand,
        op: RmwKind,
        val: Operand,
        ty: Scalar,
    ) -> crate::ir::Reg {
        let old = self.b.reg();
        self.b.emit(InstKind::Rmw {
            dst: old,
            addr,
            op,
            val,
            ty,
            ord: MemOrder::SeqCst,
        });
        old
    }

    pub fn incdec(&mut self, x: &Node<Expression>, inc: bool, post: bool, off: usize) -> R<Val> {
        let lv = self.lvalue(x)?;
        let lt = self.val_type(&lv);
        let Some(ty) = lt.scalar() else {
            return self.err(
                off,
                format!("cannot increment or decrement `{}`", self.show(&lt)),
            );
        };
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        if let (Val::Mem(addr, _), true) = (&lv, lt.atomic) {
            let addr = *addr;
            let (kind, val) = match (&lt.kind, inc) {
                (Kind::Int(IntTy::Bool), true) => (RmwKind::Xchg, Operand::Const(1)),
                (Kind::Int(IntTy::Bool), false) => (RmwKind::Xor, Operand::Const(1)),
                _ => {
                    self.atomic_operand(op, &lt, Operand::Const(1), &CType::int(IntTy::Int), off)?
                }
            };
            self.at(off);
            let old = self.seq_cst_rmw(addr, kind, val, ty);
            let new = match kind {
                RmwKind::Xchg => Operand::Const(1),
                RmwKind::Xor => self.b.bin(BinOp::Xor, Operand::Reg(old), val, ty),
                _ => self.b.bin(op, Operand::Reg(old), val, ty),
            };
            let v = if post { Operand::Reg(old) } else { new };
            return Ok(Val::R(v, lt.unqual()));
        }
        // The read and the write at the increment or decrement itself.
        let (cur, ct) = self.load(lv.clone(), off)?;
        self.at(off);
        let new = if lt.int_ty() == Some(IntTy::Bool) {
            if inc {
                Operand::Const(1)
            } else {
                self.b.un(UnOp::LogNot, cur, Scalar::BOOL)
            }
        } else {
            let (v, t) = self.arith(
                op,
                (cur, ct.clone()),
                (Operand::Const(1), CType::int(IntTy::Int)),
                off,
            )?;
            self.cast_convert(v, &t, &lt, off)?
        };
        self.store_to(&lv, new, off)?;
        if post {
            return Ok(Val::R(cur, ct));
        }
        Ok(match self.assigned_value(&lv, new, ct.clone()) {
            Val::R(v, _) => Val::R(v, ct),
            v => v,
        })
    }

    /// Copies an object of type `ty` from `src` to `dst` leaf by leaf.
    pub fn copy_object(
        &mut self,
        dst: crate::ir::Operand,
        src: Operand,
        ty: &CType,
        off: usize,
    ) -> R<()> {
        self.copy_object_from(dst, src, ty, off, None)
    }

    /// [`Self::copy_object`], its reads at `read_at` (the source expression) when given,
    /// its writes at the current position.
    pub fn copy_object_from(
        &mut self,
        dst: crate::ir::Operand,
        src: Operand,
        ty: &CType,
        off: usize,
        read_at: Option<usize>,
    ) -> R<()> {
        if !self.types.uniform_layout(ty) {
            return self.unsup(
                off,
                "copying a union whose members have different layouts is not supported",
            );
        }
        if self.types.leaf_count(ty) > MAX_COPY_LEAVES {
            return self.unsup(off, "object is too large to copy");
        }
        if ty.atomic && ty.is_record() {
            // Its one cell would be copied to or from a plain struct's members.
            return self.unsup(
                off,
                format!(
                    "reading or assigning an `_Atomic {}` as a whole is not supported: use atomic_load, atomic_store or atomic_init",
                    self.show(&ty.unqual())
                ),
            );
        }
        let mut leaves = Vec::new();
        self.types.leaves(ty, 0, "", &mut leaves);
        // Cell copies: copying a member no write initialised is not an error (C11
        // 6.2.6.1p6: a struct's value is never a trap), it stays uninitialised.
        for l in leaves {
            let s = self.offset_addr(src, l.offset);
            let d = self.offset_addr(dst, l.offset);
            let saved = self.b.loc;
            if let Some(r) = read_at {
                self.at(r);
            }
            let v = self.b.copy_load(s, l.scalar, ord_of(l.atomic));
            self.b.loc = saved;
            self.b.copy_store(d, v, l.scalar, ord_of(l.atomic));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_constants() {
        assert!(is_null_const(&Operand::Const(0), &CType::int(IntTy::Int)));
        assert!(is_null_const(&Operand::Const(0), &CType::void_ptr()));
        assert!(!is_null_const(
            &Operand::Const(0),
            &CType::ptr(CType::int(IntTy::Int))
        ));
        assert!(!is_null_const(&Operand::Const(1), &CType::int(IntTy::Int)));
        assert_eq!(arith_of(&BinaryOperator::AssignPlus), Some(BinOp::Add));
        assert_eq!(arith_of(&BinaryOperator::Assign), None);
    }
}
