//! Variable-length arrays (C11 6.7.6.2): a block-scope array `T a[n]` whose length
//! is not a constant. The length is evaluated each time the declaration is reached,
//! converted to `long`; the array is an engine block of its own of `n * sizeof(T)`
//! bytes (`ir::InstKind::LocalBlock` with a run-time length), allocated there,
//! uninitialised, freed when the declaration is reached again or the function returns
//! (porf does not free it at the end of its block: an access through a pointer kept
//! past the block is not reported). A length that is not positive is a memory error
//! (6.7.6.2p5 makes it undefined). `sizeof a` is `n * sizeof(T)`, computed at run
//! time from the length saved at the declaration. Only one-dimensional arrays of a
//! complete element type without initializer are supported; others (`int a[n][m]`,
//! `sizeof(int[n])`, VLA parameters, typedefs) stay unsupported.

use super::{Binding, Cx, Home, R};
use crate::ir::{BinOp, InstKind, Operand};
use crate::types::{CType, IntTy, Kind};
use lang_c::ast::*;
use lang_c::span::Node;
use std::rc::Rc;

/// The name, its offset and the length expression of a declarator `a[n]` (one array
/// suffix, nothing else).
pub(super) fn vla_shape(d: &Declarator) -> Option<(String, usize, &Node<Expression>)> {
    let DeclaratorKind::Identifier(id) = &d.kind.node else {
        return None;
    };
    let [dd] = d.derived.as_slice() else {
        return None;
    };
    let DerivedDeclarator::Array(a) = &dd.node else {
        return None;
    };
    match &a.node.size {
        ArraySize::VariableExpression(e) if a.node.qualifiers.is_empty() => {
            Some((id.node.name.clone(), id.span.start, e))
        }
        _ => None,
    }
}

impl Cx<'_> {
    /// Declares `name` as a variable-length array of `elem` with length `len` (not a
    /// constant expression), if `elem` is complete.
    pub(super) fn vla_local(
        &mut self,
        name: &str,
        elem: CType,
        len: &Node<Expression>,
        off: usize,
    ) -> R<()> {
        self.fresh_local(name, off)?;
        let Some(es) = self.types.size_of(&elem).filter(|&s| s > 0) else {
            return self.err(
                off,
                format!("array has incomplete element type `{}`", self.show(&elem)),
            );
        };
        let (n, t) = self.rvalue(len)?;
        if !t.is_integer() {
            return self.err(len.span.start, "size of array has non-integer type");
        }
        let long = CType::int(IntTy::Long);
        let n = self.assign_convert(n, &t, &long, len.span.start)?;
        let n = Operand::Reg(self.b.copy(n));
        self.at(off);
        // The block's naming shape: as many elements as the largest block holds.
        let most = (crate::memory::MAX_MALLOC as u64 / es).max(1);
        let shape_ty = CType::new(Kind::Array(Rc::new(elem.clone()), Some(most)));
        let var = self.note_own_block_local(name, &shape_ty, es);
        let r = self.b.reg();
        self.b.emit(InstKind::LocalBlock {
            dst: r,
            var,
            len: Some(n),
        });
        self.f.vla_len.insert(r, (n, es));
        self.bind(
            name,
            Binding::Local {
                ty: CType::new(Kind::Array(Rc::new(elem), None)),
                home: Home::Own(r),
            },
        );
        Ok(())
    }

    /// `sizeof e` when `e` names a variable-length array: its length times its
    /// element size, at run time.
    pub(super) fn vla_sizeof(&mut self, e: &Node<Expression>) -> Option<super::expr::Val> {
        let Expression::Identifier(id) = &e.node else {
            return None;
        };
        let Some(Binding::Local {
            home: Home::Own(r), ..
        }) = self.lookup(&id.node.name)
        else {
            return None;
        };
        let &(n, es) = self.f.vla_len.get(r)?;
        let ul = CType::int(IntTy::ULong);
        let s = ul.scalar().expect("scalar");
        let v = self.b.bin(BinOp::Mul, n, Operand::Const(es as i64), s);
        Some(super::expr::Val::R(v, ul))
    }
}
