//! Pointer-to-integer conversions under `--data-model ilp32`, where porf's pointers
//! keep their 8-byte representation (an address names a thread's heap block or
//! stack in its upper bits, `crate::memory`) but `int`, `long` and glibc's
//! `uintptr_t` have 4 bytes.
//!
//! Invariant: such a conversion never silently drops address bits. A pointer
//! converted to an integer type narrower than 8 bytes keeps its value when the value
//! fits the type (the null pointer, a global's address, `&((T *)0)->member`); then
//! converting the integer back yields the same pointer, as on a 32-bit target, and
//! the integer's value is porf's address, which a program cannot tell from another
//! target's layout (addresses are not fixed by C). When the value does not fit (a heap
//! or stack address), the conversion is an unsupported error where an execution
//! reaches it, never a truncated address that a later conversion back would turn into
//! a pointer to other memory.

use super::Cx;
use crate::ir::{BinOp, InstKind, Operand, Scalar, Terminator};
use crate::types::{data_model, CType, DataModel, IntTy, Kind};

impl Cx<'_> {
    /// Guards the conversion of pointer `v` (type `from`) to integer type `to`: under
    /// ILP32, when `to` is narrower than a pointer, a run-time check that `v` fits
    /// `to`, with an unsupported error (at `off`) otherwise.
    pub(super) fn ilp32_pointer_to_int(
        &mut self,
        v: Operand,
        from: &CType,
        to: &CType,
        off: usize,
    ) {
        if data_model() != DataModel::Ilp32 || !from.is_ptr() {
            return;
        }
        let Some(t) = to.int_ty() else { return };
        let s = t.scalar();
        if s.size >= Scalar::PTR.size || t == IntTy::Bool {
            return;
        }
        if let Operand::Const(c) = v {
            if s.normalize(c) == c {
                return;
            }
        }
        // Fits iff the value, shifted right by the type's value bits, is 0 (a
        // pointer is never negative in porf's address space).
        let bits = (s.size as i64) * 8 - i64::from(s.signed);
        let high = self
            .b
            .bin(BinOp::Shr, v, Operand::Const(bits), Scalar::int(8, false));
        let bad = self.b.new_block();
        let ok = self.b.new_block();
        self.b.branch(high, bad, ok);
        self.b.set_block(bad);
        self.at(off);
        self.b.emit(InstKind::Unsupported {
            msg: format!(
                "a pointer converted to `{}` ({} bytes) under --data-model ilp32: porf's \
                 pointers have 8 bytes, and this address does not fit in {} bytes",
                self.show(to),
                s.size,
                s.size
            ),
        });
        self.b.terminate(Terminator::Unreachable);
        self.b.set_block(ok);
    }
}

/// Where the lowering is, for the `sizeof` rule of [`Cx::ilp32_size_of`].
#[derive(Default)]
pub(crate) struct Ilp32State {
    /// Depth of [`Cx::scratch`] evaluations (constant expressions, types).
    pub scratch: u32,
    /// Depth of arguments of calls that take a byte count (`malloc`, `memcpy`, ...).
    pub size_args: u32,
    /// `sizeof`s of pointer-width-dependent types met inside `scratch` evaluations.
    pub seen: u32,
}

/// Library functions whose arguments count bytes of objects porf lays out itself:
/// a `sizeof` there is exact with porf's 8-byte pointers (the block it sizes is laid
/// out, filled or compared with the same layout).
pub(super) const SIZE_FUNCTIONS: &[&str] = &[
    "malloc",
    "calloc",
    "realloc",
    "alloca",
    "__builtin_alloca",
    "memset",
    "memcpy",
    "memmove",
    "memcmp",
    "bzero",
];

impl Cx<'_> {
    /// Whether `t`'s size differs between porf's 8-byte pointers and ILP32's 4-byte
    /// ones: it is or contains a pointer.
    fn pointer_width_dependent(&self, t: &CType) -> bool {
        match &t.kind {
            Kind::Ptr(_) => true,
            Kind::Array(e, _) => self.pointer_width_dependent(e),
            Kind::Record(r) => self
                .types
                .record(*r)
                .def
                .as_ref()
                .is_some_and(|d| d.fields.iter().any(|f| self.pointer_width_dependent(&f.ty))),
            _ => false,
        }
    }

    /// Under ILP32, `sizeof` of a type whose size depends on the pointer width is
    /// porf's size (8-byte pointers), not a 32-bit target's. That is exact where the
    /// value counts bytes of an object porf lays out (a `malloc`/`memcpy`-like
    /// argument, `SIZE_FUNCTIONS`) and in declarations (array bounds, layouts: porf's
    /// objects use porf's layout throughout); anywhere else in executable code (a
    /// comparison, arithmetic, a variable) the program could tell the difference, so
    /// the `sizeof` is an unsupported error where an execution reaches it. Inside a
    /// constant evaluation it is counted (`seen`), so that [`Cx::const_int_exec`]
    /// does not fold a condition built on it.
    pub(super) fn ilp32_size_of(&mut self, t: &CType, off: usize) {
        if data_model() != DataModel::Ilp32
            || self.ilp32.size_args > 0
            || !self.pointer_width_dependent(t)
        {
            return;
        }
        if self.ilp32.scratch > 0 {
            self.ilp32.seen += 1;
            return;
        }
        let saved = self.b.loc;
        self.at(off);
        self.b.emit(InstKind::Unsupported {
            msg: format!(
                "`sizeof` of `{}` under --data-model ilp32: porf's pointers have 8 bytes, \
                 so its size is not the 32-bit one (porf accepts it only as the size \
                 argument of malloc, calloc, realloc, memset, memcpy, memmove or memcmp)",
                self.show(t)
            ),
        });
        self.b.loc = saved;
    }
}
