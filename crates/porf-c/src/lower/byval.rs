//! Structs and unions passed and returned by value.
//!
//! Calling convention (porf's own; nothing outside the module sees it):
//! * A record argument is passed as the address of the caller's object (an lvalue, or
//!   the frame temporary of a call that returned a record). The callee's entry copies
//!   it into its own frame, before any other code of the callee runs, and binds the
//!   parameter there: the callee works on a copy, as C requires. (The copy happens at
//!   entry rather than among the caller's argument evaluations; nothing of the thread
//!   runs in between, so it is one of the orders C allows.)
//! * A function returning a record takes one hidden parameter after the declared ones:
//!   the address of a temporary in the caller's frame (one per call site). `return e;`
//!   copies `e` there and returns nothing; the call expression denotes that temporary.

use super::expr::Val;
use super::{Cx, Home, R};
use crate::ir::{Operand, Reg};
use crate::types::CType;
use lang_c::ast::Expression;
use lang_c::span::Node;

impl Cx<'_> {
    /// Frame memory for an object of type `ty` (a call's record result or a record
    /// parameter's copy); returns its frame offset.
    pub(super) fn frame_object(&mut self, ty: &CType, off: usize) -> R<u32> {
        let (Some(size), Some(align)) = (self.types.size_of(ty), self.types.align_of(ty)) else {
            return self.err(
                off,
                format!("incomplete type `{}` passed by value", self.show(ty)),
            );
        };
        match self.b.alloc_frame(size, align, super::init::FRAME_LIMIT) {
            Some(fo) => Ok(fo),
            None => self.unsup(off, "local variables need too much memory"),
        }
    }

    /// The callee's entry copy of record parameter `name: ty` that arrived (as an
    /// address) in register `reg`: returns where the parameter lives.
    pub(super) fn record_param(&mut self, reg: Reg, ty: &CType, name: &str, off: usize) -> R<Home> {
        let (Some(size), Some(align)) = (self.types.size_of(ty), self.types.align_of(ty)) else {
            return self.err(
                off,
                format!("incomplete type `{}` passed by value", self.show(ty)),
            );
        };
        let Some((home, dst)) = self.local_memory(name, false, size, align) else {
            return self.unsup(off, "local variables need too much memory");
        };
        self.note_local(name, ty, home);
        self.copy_object(dst, Operand::Reg(reg), ty, off)?;
        Ok(home)
    }

    /// The operand passing record argument `a` of parameter type `ty`: its address.
    pub(super) fn record_arg(&mut self, a: &Node<Expression>, ty: &CType) -> R<Operand> {
        self.record_address(a, ty)
    }

    /// For a call to a function returning `ret`: if it is a record, a fresh frame
    /// temporary (named `what`, the call as written: `f()`) whose address is pushed as
    /// the hidden last argument; the call's value is then that temporary.
    pub(super) fn record_result(
        &mut self,
        ret: &CType,
        args: &mut Vec<Operand>,
        what: &str,
        off: usize,
    ) -> R<Option<Val>> {
        if !ret.is_record() {
            return Ok(None);
        }
        let fo = self.frame_object(ret, off)?;
        self.note_local(what, ret, Home::Frame(fo));
        let a = self.b.frame_addr(fo);
        args.push(a);
        Ok(Some(Val::Mem(a, ret.clone())))
    }

    /// `return e;` in a function returning record `ret` whose hidden result address is
    /// in register `sret`.
    pub(super) fn return_record(
        &mut self,
        e: &Node<Expression>,
        ret: &CType,
        sret: Reg,
        off: usize,
    ) -> R<()> {
        let src = self.record_address(e, ret)?;
        self.at(off);
        self.copy_object(Operand::Reg(sret), src, ret, off)
    }
}
