//! Expressions with control flow: `?:`, `&&`, `||`, and branching on a condition.
//!
//! A condition is lowered to branches directly (short-circuiting `&&`, `||` and `!`)
//! rather than to a 0/1 value. When the first operand of `?:`, `&&` or `||` is an
//! integer constant expression, the operator is decided at compile time — which keeps
//! constant expressions constant — and the skipped operand is only type-checked.

use super::expr::Val;
use super::{Cx, R};
use crate::ir::{InstKind, Operand};
use crate::types::{CType, IntTy, Kind};
use lang_c::ast::*;
use lang_c::span::Node;

impl Cx<'_> {
    pub fn conditional(&mut self, c: &ConditionalExpression, off: usize) -> R<Val> {
        // A constant condition selects a branch at compile time (keeping constant
        // expressions constant); the other branch is only type-checked.
        if let Some((k, _)) = self.const_int_exec(&c.condition)? {
            let (live, dead) = if k != 0 {
                (&c.then_expression, &c.else_expression)
            } else {
                (&c.else_expression, &c.then_expression)
            };
            let (dv, dt) = self.scratch(|cx| cx.branch_value(dead))?.0;
            let (lv, lt) = self.branch_value(live)?;
            let rt = if k != 0 {
                self.cond_type(&lv, &lt, &dv, &dt, off)?
            } else {
                self.cond_type(&dv, &dt, &lv, &lt, off)?
            };
            if rt.is_void() {
                return Ok(Val::Void);
            }
            let v = self.cast_convert(lv, &lt, &rt, off)?;
            return Ok(Val::R(v, rt));
        }
        let (t, f, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.branch_on(&c.condition, t, f)?;
        self.b.set_block(t);
        let (va, ta) = self.branch_value(&c.then_expression)?;
        let t_end = self.b.cur();
        self.b.set_block(f);
        let (vb, tb) = self.branch_value(&c.else_expression)?;
        let f_end = self.b.cur();
        let rt = self.cond_type(&va, &ta, &vb, &tb, off)?;
        let r = self.b.reg();
        for (end, v, t) in [(t_end, va, ta), (f_end, vb, tb)] {
            self.b.set_block(end);
            if !rt.is_void() {
                let v = self.cast_convert(v, &t, &rt, off)?;
                self.b.emit(InstKind::Copy { dst: r, src: v });
            }
            self.b.jump(join);
        }
        self.b.set_block(join);
        Ok(if rt.is_void() {
            Val::Void
        } else {
            Val::R(Operand::Reg(r), rt)
        })
    }

    /// A conditional branch's value (void allowed).
    fn branch_value(&mut self, e: &Node<Expression>) -> R<(Operand, CType)> {
        match self.expr(e)? {
            Val::Void => Ok((Operand::Const(0), CType::void())),
            v if self.val_type(&v).is_record() => self.unsup(
                e.span.start,
                "conditional expressions of struct or union type are not supported",
            ),
            v => self.load(v, e.span.start),
        }
    }

    /// The type of `c ? a : b` (C11 6.5.15).
    fn cond_type(
        &self,
        va: &Operand,
        ta: &CType,
        vb: &Operand,
        tb: &CType,
        off: usize,
    ) -> R<CType> {
        let null = |v: &Operand, t: &CType| super::ops::is_null_const(v, t);
        Ok(match (&ta.kind, &tb.kind) {
            (Kind::Int(x), Kind::Int(y)) => CType::int(crate::types::common(*x, *y)),
            _ if ta.is_arithmetic() && tb.is_arithmetic() => {
                let f = crate::types::common_float(ta, tb).expect("one is floating");
                CType::new(Kind::Float(f))
            }
            (Kind::Void, Kind::Void) => CType::void(),
            (Kind::Ptr(x), Kind::Ptr(y)) => {
                if null(va, ta) || (y.is_void() && !null(vb, tb) && !x.is_void()) {
                    tb.clone()
                } else {
                    ta.clone()
                }
            }
            (Kind::Ptr(_), Kind::Int(_)) if null(vb, tb) => ta.clone(),
            (Kind::Int(_), Kind::Ptr(_)) if null(va, ta) => tb.clone(),
            _ => {
                return self.err(
                    off,
                    format!(
                        "type mismatch in conditional expression (`{}` and `{}`)",
                        self.show(ta),
                        self.show(tb)
                    ),
                );
            }
        })
    }

    /// Branches to `t` if `e` is nonzero, else to `f`, short-circuiting `&&`, `||`, `!`.
    pub fn branch_on(&mut self, e: &Node<Expression>, t: u32, f: u32) -> R<()> {
        match &e.node {
            Expression::BinaryOperator(b) if is_logical(&b.node) => {
                self.branch_logical(&b.node, t, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.branch_on(&u.node.operand, f, t)
            }
            _ => {
                let (v, ty) = self.rvalue(e)?;
                if !ty.is_scalar() {
                    return self.err(
                        e.span.start,
                        format!("`{}` used as a condition", self.show(&ty)),
                    );
                }
                self.at(e.span.start);
                let v = self.truth(v, &ty);
                self.b.branch(v, t, f);
                Ok(())
            }
        }
    }

    fn branch_logical(&mut self, b: &BinaryOperatorExpression, t: u32, f: u32) -> R<()> {
        let mid = self.b.new_block();
        if b.operator.node == BinaryOperator::LogicalAnd {
            self.branch_on(&b.lhs, mid, f)?;
        } else {
            self.branch_on(&b.lhs, t, mid)?;
        }
        self.b.set_block(mid);
        self.branch_on(&b.rhs, t, f)
    }

    /// `a && b` / `a || b` as a value (0 or 1).
    pub fn logical_value(&mut self, b: &BinaryOperatorExpression) -> R<Val> {
        let and = b.operator.node == BinaryOperator::LogicalAnd;
        let (lhs, rhs) = (&b.lhs, &b.rhs);
        let int = CType::int(IntTy::Int);
        if let Some((k, _)) = self.const_int_exec(lhs)? {
            let decided = if and { k == 0 } else { k != 0 };
            if decided {
                self.scratch(|cx| cx.rvalue(rhs))?;
                return Ok(Val::R(Operand::Const(!and as i64), int));
            }
            let (v, t) = self.rvalue(rhs)?;
            if !t.is_scalar() {
                return self.err(
                    rhs.span.start,
                    format!("`{}` used as a condition", self.show(&t)),
                );
            }
            let v = self.truth(v, &t);
            return Ok(Val::R(self.b.bool_of(v), int));
        }
        let (t, f, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
        self.branch_logical(b, t, f)?;
        let r = self.b.reg();
        for (blk, val) in [(t, 1), (f, 0)] {
            self.b.set_block(blk);
            self.b.emit(InstKind::Copy {
                dst: r,
                src: Operand::Const(val),
            });
            self.b.jump(join);
        }
        self.b.set_block(join);
        Ok(Val::R(Operand::Reg(r), int))
    }
}

fn is_logical(b: &BinaryOperatorExpression) -> bool {
    matches!(
        b.operator.node,
        BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
    )
}
