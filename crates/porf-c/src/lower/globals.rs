//! Global variables: declarations, layout and the initial memory image.
//!
//! Globals are laid out from [`ir::addr::GLOBAL_BASE`] in declaration order, each at
//! its alignment, as soon as their type is complete. Their initializers must be
//! constant; the values go into `Cx::image` by address. At the end every scalar leaf
//! of every defined global becomes a [`ir::Cell`] named by its C path (`pool[1].next`,
//! block-scope statics as `f::x`). A union's cells are those of its first member.
//!
//! Thread-local globals (`_Thread_local`, GNU `__thread`) are laid out in a separate
//! template (offsets from 0). After the ordinary globals, the global area holds one
//! copy of the template per possible thread ([`ir::TLS_THREADS`] of them), each with
//! the template's initial values: C11 7.26.5 / 6.2.4p4 give every thread its own
//! object, initialised as a static one before the thread starts. The copies are
//! ordinary shared memory (a thread may hand out the address of its copy); the cells
//! of thread `t`'s copy are named `x@T<t>`.

use super::{Binding, Cx, Global, R};
use crate::ir::{self, Cell};
use crate::types::{CType, Leaf};
use lang_c::ast::Initializer;
use lang_c::span::Node;
use std::collections::{BTreeMap, HashMap};

/// Most global scalar cells porf lays out.
pub const MAX_CELLS: u64 = 1 << 22;

impl Cx<'_> {
    /// A file-scope declaration of variable `name` (or a block-scope `extern` one).
    pub fn global_var(
        &mut self,
        name: &str,
        ty: CType,
        is_extern: bool,
        tls: bool,
        init: Option<&Node<Initializer>>,
        off: usize,
    ) -> R<()> {
        let gi = match self.global_names.get(name) {
            Some(&gi) => {
                if self.globals[gi].tls != tls {
                    return self.err(
                        off,
                        format!("`{name}` is declared both thread-local and not thread-local"),
                    );
                }
                let old = &self.globals[gi].ty;
                if !self.types.compatible(old, &ty) {
                    return self.err(off, format!("conflicting types for `{name}`"));
                }
                if !self.types.is_complete(old) && self.types.is_complete(&ty) {
                    self.globals[gi].ty = ty;
                }
                let a = self.globals[gi].align.max(self.align_req);
                if a != self.globals[gi].align && self.globals[gi].addr.is_some() {
                    return self.unsup(off, format!("`_Alignas` of `{name}` after its definition"));
                }
                self.globals[gi].align = a;
                gi
            }
            None => {
                if self.func_names.contains_key(name)
                    || matches!(self.scopes[0].names.get(name), Some(b) if !matches!(b, Binding::Global(_)))
                {
                    return self.err(
                        off,
                        format!("`{name}` redeclared as a different kind of symbol"),
                    );
                }
                self.globals.push(Global {
                    name: self.map.source_name(name).to_string(),
                    ty,
                    addr: None,
                    defined: false,
                    initialized: false,
                    used: false,
                    span: off,
                    tls,
                    align: self.align_req,
                });
                self.global_names
                    .insert(name.to_string(), self.globals.len() - 1);
                self.globals.len() - 1
            }
        };
        self.bind(name, Binding::Global(gi));
        if !is_extern {
            self.globals[gi].defined = true;
        }
        match init {
            Some(i) => {
                if self.globals[gi].initialized {
                    return self.err(off, format!("redefinition of `{name}`"));
                }
                self.globals[gi].initialized = true;
                self.globals[gi].defined = true;
                self.init_global(gi, i)
            }
            None => self.alloc_if_complete(gi),
        }
    }

    /// A block-scope `static` variable: a global named `function::name`.
    pub fn static_local(
        &mut self,
        name: &str,
        ty: CType,
        tls: bool,
        init: Option<&Node<Initializer>>,
        off: usize,
    ) -> R<()> {
        let full = format!("{}::{name}", self.fname.as_deref().unwrap_or(""));
        self.globals.push(Global {
            name: full,
            ty,
            addr: None,
            defined: true,
            initialized: init.is_some(),
            used: false,
            span: off,
            tls,
            align: self.align_req,
        });
        let gi = self.globals.len() - 1;
        self.bind(name, Binding::Global(gi));
        match init {
            Some(i) => self.init_global(gi, i),
            None => {
                if !self.types.is_complete(&self.globals[gi].ty) {
                    return self.err(off, format!("`{name}` has incomplete type"));
                }
                self.alloc_if_complete(gi)
            }
        }
    }

    /// A new defined, zero-initialised global with static storage (laid out now).
    pub fn new_static(&mut self, full_name: &str, ty: CType, off: usize) -> R<usize> {
        self.globals.push(Global {
            name: full_name.to_string(),
            ty,
            addr: None,
            defined: true,
            initialized: false,
            used: true,
            span: off,
            tls: false,
            align: 1,
        });
        let gi = self.globals.len() - 1;
        self.alloc_if_complete(gi)?;
        Ok(gi)
    }

    fn alloc_if_complete(&mut self, gi: usize) -> R<()> {
        let g = &self.globals[gi];
        if g.addr.is_some() {
            return Ok(());
        }
        let (Some(size), Some(align)) = (self.types.size_of(&g.ty), self.types.align_of(&g.ty))
        else {
            return Ok(());
        };
        let align = align.max(g.align);
        let mut cells = self.types.leaf_count(&g.ty);
        if g.tls {
            cells = cells.saturating_mul(ir::TLS_THREADS as u64);
        }
        self.cell_count = self.cell_count.saturating_add(cells);
        if self.cell_count > MAX_CELLS {
            return self.unsup(
                g.span,
                format!("global data is too large (more than {MAX_CELLS} scalar cells)"),
            );
        }
        if g.tls {
            let addr = (self.tls_size as u64).next_multiple_of(align);
            let end = addr + size.max(1);
            if end >= 1 << 24 {
                return self.unsup(g.span, "thread-local data is too large");
            }
            self.globals[gi].addr = Some(addr as i64);
            self.tls_size = end as i64;
            return Ok(());
        }
        let addr = (self.next_addr as u64).next_multiple_of(align);
        let end = addr + size.max(1);
        if end >= ir::addr::HEAP_BASE as u64 {
            return self.unsup(g.span, "global data is too large");
        }
        self.globals[gi].addr = Some(addr as i64);
        self.next_addr = end as i64;
        Ok(())
    }

    /// Evaluates the constant initializer of global `gi` into the image.
    fn init_global(&mut self, gi: usize, init: &Node<Initializer>) -> R<()> {
        let ty = self.globals[gi].ty.clone();
        let (ty, items) = self.flatten(&ty, init)?;
        if self.globals[gi].addr.is_none() {
            self.globals[gi].ty = ty.clone();
            self.alloc_if_complete(gi)?;
        }
        let Some(addr) = self.globals[gi].addr else {
            let name = self.globals[gi].name.clone();
            return self.err(init.span.start, format!("`{name}` has incomplete type"));
        };
        let mut leaves = Vec::new();
        self.types.leaves(&ty, 0, "", &mut leaves);
        let by_off: HashMap<u64, &Leaf> = leaves.iter().map(|l| (l.offset, l)).collect();
        // The packed values of `_Atomic` struct cells (`Types::atomic_record`): their
        // members' bytes, little-endian, by the cell's offset.
        let mut packed: HashMap<u64, (u128, crate::ir::Scalar)> = HashMap::new();
        for item in &items {
            let v = self.const_init_value(item)?;
            let scalar = item.ty.scalar();
            let cell = leaves.iter().find(|l| {
                l.atomic
                    && (l.offset..l.offset + l.scalar.size as u64).contains(&item.offset)
                    && Some(l.scalar) != scalar
            });
            if let (Some(l), Some(s)) = (cell, scalar) {
                let bits = (v as u64 as u128) & (u128::MAX >> (128 - 8 * s.size as u32));
                let e = packed.entry(l.offset).or_insert((0, l.scalar));
                e.0 |= bits << (8 * (item.offset - l.offset));
                continue;
            }
            match by_off.get(&item.offset) {
                Some(l) if Some(l.scalar) == scalar => {
                    let image = if self.globals[gi].tls {
                        &mut self.tls_image
                    } else {
                        &mut self.image
                    };
                    image.insert(addr + item.offset as i64, v);
                }
                _ => {
                    return self.unsup(
                        item.off,
                        "only the first member of a global union can be initialized",
                    );
                }
            }
        }
        for (o, (bits, s)) in packed {
            let v = if s.size == 16 {
                crate::wide::encode(bits as i128)
            } else {
                s.normalize(bits as u64 as i64)
            };
            let image = if self.globals[gi].tls {
                &mut self.tls_image
            } else {
                &mut self.image
            };
            image.insert(addr + o as i64, v);
        }
        Ok(())
    }

    /// The cells of all defined globals (thread-local ones once per possible thread),
    /// the end of the global area and the thread-local layout.
    pub fn global_cells(&self) -> R<(BTreeMap<i64, Cell>, i64, ir::TlsLayout)> {
        let mut cells = BTreeMap::new();
        let tls = ir::TlsLayout {
            base: (self.next_addr as u64).next_multiple_of(16) as i64,
            stride: (self.tls_size as u64).next_multiple_of(16) as i64,
        };
        let mut end = self.next_addr;
        if tls.stride > 0 {
            end = tls.base + tls.stride * ir::TLS_THREADS as i64;
            if end >= ir::addr::HEAP_BASE {
                return self.unsup(0, "thread-local data is too large");
            }
        }
        for g in &self.globals {
            let addr = match (g.addr, g.defined) {
                (Some(addr), true) => addr,
                (None, true) => {
                    return self.err(
                        g.span,
                        format!("`{}` has incomplete type `{}`", g.name, self.show(&g.ty)),
                    );
                }
                (_, false) if g.used => {
                    return self.unsup(
                        g.span,
                        format!(
                            "`{}` is declared `extern` but not defined in this file",
                            g.name
                        ),
                    );
                }
                (_, false) => continue,
            };
            let mut leaves = Vec::new();
            self.types.leaves(&g.ty, 0, "", &mut leaves);
            for l in leaves {
                let a = addr + l.offset as i64;
                if g.tls {
                    let init = self.tls_image.get(&a).map_or(0, |&v| l.scalar.normalize(v));
                    for t in 0..ir::TLS_THREADS {
                        cells.insert(
                            tls.addr(t, a),
                            Cell {
                                name: format!("{}{}@T{t}", g.name, l.path),
                                ty: l.scalar,
                                init,
                                atomic: l.atomic,
                                pointer: l.pointer,
                            },
                        );
                    }
                    continue;
                }
                let init = self.image.get(&a).map_or(0, |&v| l.scalar.normalize(v));
                cells.insert(
                    a,
                    Cell {
                        name: format!("{}{}", g.name, l.path),
                        ty: l.scalar,
                        init,
                        atomic: l.atomic,
                        pointer: l.pointer,
                    },
                );
            }
        }
        Ok((cells, end, tls))
    }
}
