//! The names of the objects in a function's frames (`ir::Function::locals`), so that
//! a read of an uninitialised byte names the local and the member it lies in
//! (`s.next`, `a[3]`), and witnesses name the cells of shared frames.
//!
//! Invariant: names never change what a program does.

use super::{Cx, Home};
use crate::ir::{LocalVar, Shape};
use crate::types::{CType, Kind};

impl Cx<'_> {
    /// Records that local `name` of type `ty` lives at `home` (nothing for registers,
    /// which carry their names in their markers).
    pub(super) fn note_local(&mut self, name: &str, ty: &CType, home: Home) {
        let (offset, shared) = match home {
            Home::Reg(_) | Home::Own(_) => return,
            Home::Frame(o) => (o, false),
            Home::Shared(o) => (o, true),
        };
        let size = self.types.size_of(ty).unwrap_or(1).max(1);
        self.b.locals.push(LocalVar {
            name: name.to_string(),
            offset,
            size: size.min(u32::MAX as u64) as u32,
            shared,
            shape: self.shape(ty),
            site: None,
        });
    }

    /// Records local `name` of type `ty` with a block of its own per declaration
    /// (`ir::InstKind::LocalBlock`), declared at the current position; returns its
    /// index in `Function::locals`.
    pub(super) fn note_own_block_local(&mut self, name: &str, ty: &CType, size: u64) -> u32 {
        self.b.locals.push(LocalVar {
            name: name.to_string(),
            offset: 0,
            size: size.clamp(1, u32::MAX as u64) as u32,
            shared: true,
            shape: self.shape(ty),
            site: Some(self.b.loc),
        });
        self.b.locals.len() as u32 - 1
    }

    /// The layout of `ty` as a [`Shape`].
    fn shape(&self, ty: &CType) -> Shape {
        let size = |t: &CType| self.types.size_of(t).unwrap_or(0).min(u32::MAX as u64) as u32;
        match &ty.kind {
            Kind::Array(e, Some(n)) => Shape::Array {
                elem: Box::new(self.shape(e)),
                stride: size(e),
                len: (*n).min(u32::MAX as u64) as u32,
            },
            Kind::Record(r) => {
                let fields = self
                    .types
                    .record(*r)
                    .def
                    .as_ref()
                    .map(|d| {
                        d.fields
                            .iter()
                            .map(|f| {
                                let path =
                                    f.name.as_ref().map_or(String::new(), |n| format!(".{n}"));
                                (path, f.offset as u32, size(&f.ty), self.shape(&f.ty))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                Shape::Record(fields)
            }
            _ => Shape::Scalar,
        }
    }
}
