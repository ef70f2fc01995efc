//! Memory accesses: each address is checked (see [`crate::memory`]) and either served
//! from the thread's private memory, without an event, or turned into an engine action
//! on `Loc(address)`.

use super::{arith, Cont, Machine, Pending};
use crate::ir::{Module, Reg, RmwKind, Scalar};
use crate::memory::{
    classify, global_cell, name_of, read_private, write_private, Fault, Region, HEAP_DATA,
};
use porf_graph::{Action, Loc, MemOrder, RmwOp, SrcLoc, Val};

/// Where a checked access goes.
enum Target {
    /// Byte offset in the thread's private memory.
    Private(usize),
    /// An engine location (global or heap).
    Shared(Loc),
}

type Step = Result<Option<Pending>, Fault>;

impl Machine {
    /// Checks an access of width `size` (`None`: a mutex, any width) at address `a`.
    fn resolve(&self, code: &Module, a: Val, size: Option<u8>) -> Result<Target, Fault> {
        match classify(a, code.globals_end) {
            Region::Null => Err(Fault::memory("null pointer dereference")),
            Region::Global => {
                global_cell(code, a, size)?;
                Ok(Target::Shared(Loc(a as u64)))
            }
            Region::Heap { off, .. } | Region::Frame { off, .. } => {
                self.check_heap(code, a, off, size.unwrap_or(1))?;
                Ok(Target::Shared(Loc(a as u64)))
            }
            Region::Stack { tid, off } => {
                if tid != self.tid {
                    return Err(Fault::unsupported(
                        "access to another thread's local variable",
                    ));
                }
                if off as usize + size.unwrap_or(1) as usize > self.stack.len() {
                    return Err(Fault::memory(
                        "access to a local variable of a function that has returned",
                    ));
                }
                Ok(Target::Private(off as usize))
            }
            Region::Func(_) | Region::Invalid => Err(Fault::memory("invalid address")),
        }
    }

    /// Checks what the address alone says of a heap or shared-frame access of `size`
    /// bytes (a power of two) at byte `off` of a block: not before the block's data, aligned
    /// (to at most 8 bytes: a block's data is 8-aligned, and a 16-byte atomic struct's cell
    /// is named by its first byte whatever its alignment; overlaps are the engine's
    /// mixed-size check). Whether the
    /// block is allocated, not freed and large enough depends on other threads: the
    /// engine checks it (`porf_models::lifetime`).
    fn check_heap(&self, code: &Module, a: Val, off: u32, size: u8) -> Result<(), Fault> {
        if off < HEAP_DATA {
            return Err(Fault::memory("out-of-bounds heap access"));
        }
        if off & (size.min(8) as u32 - 1) != 0 {
            return Err(Fault::unsupported(format!(
                "misaligned access to heap memory at {}",
                name_of(code, a)
            )));
        }
        Ok(())
    }

    /// A string literal's array is read-only (C11 6.4.5p7: modifying one is undefined).
    fn check_writable(&self, code: &Module, a: Val) -> Result<(), Fault> {
        if code.is_readonly(a) {
            return Err(Fault::memory(format!(
                "write to a string literal at {}",
                name_of(code, a)
            )));
        }
        Ok(())
    }

    /// The location of a mutex at `a` (global or heap memory only).
    pub(super) fn mutex(&self, code: &Module, a: Val) -> Result<Loc, Fault> {
        match self.resolve(code, a, None)? {
            Target::Shared(loc) => Ok(loc),
            Target::Private(_) => Err(Fault::unsupported(
                "mutex in a local variable (porf needs mutexes in global or heap memory)",
            )),
        }
    }

    pub(super) fn load(
        &mut self,
        code: &Module,
        dst: Reg,
        a: Val,
        ty: Scalar,
        ord: MemOrder,
        src: SrcLoc,
    ) -> Step {
        match self.resolve(code, a, Some(ty.size))? {
            Target::Private(off) => {
                self.check_init(code, off, ty)?;
                let v = read_private(&self.stack, off, ty);
                self.finish_local(dst, v)
            }
            Target::Shared(loc) => {
                let cont = Cont::Value {
                    dst: Some(dst),
                    ty: Some(ty),
                };
                let bytes = ty.size;
                let action = Action::Load {
                    loc,
                    bytes,
                    ord,
                    copy: false,
                    src,
                };
                Ok(Some(Pending::new(action, cont)))
            }
        }
    }

    /// Requires `v` normalised to `ty`.
    pub(super) fn store(
        &mut self,
        code: &Module,
        a: Val,
        v: Val,
        ty: Scalar,
        ord: MemOrder,
        src: SrcLoc,
    ) -> Step {
        self.check_writable(code, a)?;
        match self.resolve(code, a, Some(ty.size))? {
            Target::Private(off) => {
                write_private(&mut self.stack, off, ty, v);
                self.undef.set(off..off + ty.size as usize, false);
                self.advance();
                Ok(None)
            }
            Target::Shared(loc) => Ok(Some(Pending::plain(Action::Store {
                loc,
                bytes: ty.size,
                val: v,
                ord,
                src,
            }))),
        }
    }

    /// Requires `v` normalised to `ty`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn rmw(
        &mut self,
        code: &Module,
        dst: Reg,
        a: Val,
        op: RmwKind,
        v: Val,
        ty: Scalar,
        ord: MemOrder,
        src: SrcLoc,
    ) -> Step {
        if ty.size == 16 && op != RmwKind::Xchg {
            // The engine's arithmetic RMWs compute on values, and a 16-byte value is a
            // code (`crate::wide`): only exchanges and compare-exchanges are exact.
            return Err(Fault::unsupported(format!(
                "atomic {op:?} on a 128-bit object is not supported (only load, store, exchange and compare-exchange)"
            )));
        }
        self.check_writable(code, a)?;
        match self.resolve(code, a, Some(ty.size))? {
            Target::Private(off) => {
                self.check_init(code, off, ty)?;
                let old = read_private(&self.stack, off, ty);
                write_private(&mut self.stack, off, ty, arith::rmw(op, old, v, ty));
                self.finish_local(dst, old)
            }
            Target::Shared(loc) => {
                let op = arith::engine_rmw(op, v, ty);
                let cont = Cont::Value {
                    dst: Some(dst),
                    ty: Some(ty),
                };
                let action = Action::Rmw {
                    loc,
                    bytes: ty.size,
                    op,
                    ord,
                    src,
                };
                Ok(Some(Pending::new(action, cont)))
            }
        }
    }

    /// A compare-exchange `op` (an `RmwOp::Cas` with operands normalised to `ty`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cas(
        &mut self,
        code: &Module,
        dst: Reg,
        a: Val,
        op: RmwOp,
        ty: Scalar,
        ord: MemOrder,
        src: SrcLoc,
    ) -> Step {
        self.check_writable(code, a)?;
        match self.resolve(code, a, Some(ty.size))? {
            Target::Private(off) => {
                self.check_init(code, off, ty)?;
                let old = read_private(&self.stack, off, ty);
                if let Some(new) = op.apply(old) {
                    write_private(&mut self.stack, off, ty, new);
                }
                self.finish_local(dst, old)
            }
            Target::Shared(loc) => {
                let cont = Cont::Value {
                    dst: Some(dst),
                    ty: Some(ty),
                };
                let action = Action::Rmw {
                    loc,
                    bytes: ty.size,
                    op,
                    ord,
                    src,
                };
                Ok(Some(Pending::new(action, cont)))
            }
        }
    }

    /// A cell copy's load ([`crate::ir::InstKind::CopyLoad`]): a private cell with an
    /// uninitialised byte, or a shared cell no write of which is visible, gives 0 and
    /// "not written" instead of an error.
    pub(super) fn copy_load(
        &mut self,
        code: &Module,
        (dst, written): (Reg, Reg),
        a: Val,
        ty: Scalar,
        ord: MemOrder,
        src: SrcLoc,
    ) -> Step {
        match self.resolve(code, a, Some(ty.size))? {
            Target::Private(off) => {
                let init = !self.undef.any(off..off + ty.size as usize);
                let v = if init {
                    read_private(&self.stack, off, ty)
                } else {
                    0
                };
                self.set(written, init as Val);
                self.finish_local(dst, v)
            }
            Target::Shared(loc) => {
                let action = Action::Load {
                    loc,
                    bytes: ty.size,
                    ord,
                    copy: true,
                    src,
                };
                Ok(Some(Pending::new(action, Cont::Copy { dst, written, ty })))
            }
        }
    }

    /// A cell copy's store ([`crate::ir::InstKind::CopyStore`]) of `v` (normalised to
    /// `ty`), which `written` says was initialised. An uninitialised value makes a
    /// private cell uninitialised, is not stored into a shared frame (a local's cell
    /// keeps what it had: nothing, unless it was written before), and is stored as is
    /// (0) into global and heap memory.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn copy_store(
        &mut self,
        code: &Module,
        a: Val,
        v: Val,
        written: bool,
        ty: Scalar,
        ord: MemOrder,
        src: SrcLoc,
    ) -> Step {
        self.check_writable(code, a)?;
        match self.resolve(code, a, Some(ty.size))? {
            Target::Private(off) if !written => {
                let r = off..off + ty.size as usize;
                self.stack[r.clone()].fill(0);
                self.undef.set(r, true);
                self.advance();
                Ok(None)
            }
            Target::Shared(_) if !written && matches!(classify(a, 0), Region::Frame { .. }) => {
                self.advance();
                Ok(None)
            }
            _ => self.store(code, a, v, ty, ord, src),
        }
    }

    /// Checks that the `ty` cell at byte `off` of private memory is initialised, else
    /// the error naming the local it belongs to.
    fn check_init(&self, code: &Module, off: usize, ty: Scalar) -> Result<(), Fault> {
        if !self.undef.any(off..off + ty.size as usize) {
            return Ok(());
        }
        // The frame holding `off`: the last one starting at or before it.
        let name = self
            .frames
            .iter()
            .rev()
            .find(|f| f.sp as usize <= off)
            .and_then(|f| code.funcs[f.func as usize].local_name(off as u32 - f.sp, false));
        Err(match name {
            Some(n) => super::exec::uninit_local(&n),
            None => Fault::memory("read of an uninitialised local variable"),
        })
    }

    fn finish_local(&mut self, dst: Reg, v: Val) -> Step {
        self.set(dst, v);
        self.advance();
        Ok(None)
    }
}
