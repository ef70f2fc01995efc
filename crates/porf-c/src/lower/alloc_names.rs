//! What each allocation site allocates, for witnesses only: when the pointer a
//! `malloc`/`calloc` call returns is converted (by assignment, initialisation,
//! argument passing or a cast) to a pointer to a complete object type right after
//! the call, the site's [`HeapType`] records that type's name and scalar leaves, so
//! that a witness says `node#1.0.next` where it would say `heap#1.0+8`.
//!
//! Invariant: this never changes what a program does. The shape is a guess about
//! the block's use (a block may be used as another type): names built from it say
//! where an address is in terms of that type, and an address that is not a leaf's
//! first byte is named `+offset` from the nearest leaf before it.

use super::Cx;
use crate::ir::{HeapLeaf, HeapType, Operand};
use crate::types::{CType, Kind, Leaf};

impl Cx<'_> {
    /// Called on every pointer conversion of `v` to `to`: records the allocation
    /// site of `v` when `v` is the result of the last allocation call.
    pub(super) fn note_alloc_type(&mut self, v: &Operand, to: &CType) {
        let (Some((reg, site)), Operand::Reg(r)) = (self.last_alloc, v) else {
            return;
        };
        if reg != *r || self.alloc_types.contains_key(&site) {
            return;
        }
        let Some(elem) = to.pointee() else { return };
        if elem.is_void() || matches!(elem.kind, Kind::Func(_)) {
            return;
        }
        let Some(size) = self.types.size_of(elem).filter(|&s| s > 0) else {
            return;
        };
        let mut leaves: Vec<Leaf> = Vec::new();
        self.types.leaves(elem, 0, "", &mut leaves);
        if leaves.is_empty() {
            return;
        }
        let name = match &elem.kind {
            Kind::Record(r) => self.types.record(*r).tag.clone(),
            _ => None,
        }
        .unwrap_or_else(|| self.show(&elem.unqual()).replace(' ', ""));
        let flex = match &elem.kind {
            Kind::Record(r) => self
                .types
                .record(*r)
                .def
                .as_ref()
                .and_then(|d| d.fields.last())
                .and_then(|f| match (&f.ty.kind, &f.name) {
                    (Kind::Array(e, Some(0)), Some(n)) => {
                        let es = self.types.size_of(e).filter(|&s| s > 0)?;
                        let scalar = e.scalar()?;
                        let leaf = HeapLeaf {
                            offset: f.offset,
                            path: format!(".{n}"),
                            scalar,
                            pointer: e.is_ptr(),
                        };
                        Some((leaf, es))
                    }
                    _ => None,
                }),
            _ => None,
        };
        self.alloc_types.insert(
            site,
            HeapType {
                name,
                size,
                flex,
                leaves: leaves
                    .into_iter()
                    .map(|l| HeapLeaf {
                        offset: l.offset,
                        path: l.path,
                        scalar: l.scalar,
                        pointer: l.pointer,
                    })
                    .collect(),
            },
        );
    }
}
