//! Initializers (C11 6.7.9): flattening an initializer into scalar assignments, then
//! storing them (locals) or evaluating them as constants (globals, in `globals`).
//!
//! Flattening follows the standard's "current object" walk with brace elision and
//! designators (`.f`, `[i]`, GCC's ranges `[lo ... hi]`), later assignments overriding
//! earlier ones. A range repeats its initializer for every index; the initializer must
//! then be free of side effects and memory reads (it emits no code), so that repeating
//! it is the same as evaluating it once. Not supported (diagnosed): a range whose
//! initializer reads memory or has side effects, a list continuing after a nested
//! designator, designating a member inside an anonymous member. A character array
//! initialized from a string literal gets the literal's characters (6.7.9p14).
//! Locals are fully initialised: leaves no initializer names are stored as zero.

use super::{Binding, Cx, Home, R};
use crate::ir::{InstKind, Operand, Scalar};
use crate::types::{CType, Kind};
use lang_c::ast::{Designator, Expression, Initializer, InitializerListItem};
use lang_c::span::Node;

/// Bytes of frame memory a function may use.
pub const FRAME_LIMIT: u64 = 1 << 24;

pub(crate) enum InitVal<'a> {
    Expr(&'a Node<Expression>),
    Zero,
    /// A constant (a character of a string literal initializing a `char` array).
    Const(i64),
}

/// "Store `val` (converted to `ty`) at byte `offset` of the object."
pub(crate) struct InitItem<'a> {
    pub offset: u64,
    pub ty: CType,
    pub val: InitVal<'a>,
    /// Source offset for diagnostics.
    pub off: usize,
}

impl Cx<'_> {
    /// Flattens `init` for an object of type `ty`; returns the type completed by the
    /// initializer (`int a[] = {1, 2}` has 2 elements) and the assignments.
    pub fn flatten<'a>(
        &mut self,
        ty: &CType,
        init: &'a Node<Initializer>,
    ) -> R<(CType, Vec<InitItem<'a>>)> {
        let mut out = Vec::new();
        if let Kind::Array(e, None) = &ty.kind {
            if let Some(s) = Self::string_of(init) {
                if let Some(n) = self.string_init(ty, s, 0, &mut out)? {
                    return Ok((CType::new(Kind::Array(e.clone(), Some(n))), out));
                }
            }
            let Initializer::List(items) = &init.node else {
                return self.array_from_expr(init);
            };
            let mut pos = 0;
            // `T a[] = {}` is GCC's zero-length array.
            let n = self.fill(ty, items, &mut pos, 0, &mut out, true, None)?;
            let full = CType::new(Kind::Array(e.clone(), Some(n)));
            if self
                .types
                .size_of(&full)
                .is_none_or(|s| s > crate::types::MAX_OBJECT)
            {
                return self.unsup(init.span.start, "array is too large");
            }
            return Ok((full, out));
        }
        self.init_object(ty, init, 0, &mut out)?;
        Ok((ty.clone(), out))
    }

    /// The string literal a character array's initializer is: `"abc"` or `{"abc"}`.
    fn string_of(init: &Node<Initializer>) -> Option<&Node<Expression>> {
        let e = match &init.node {
            Initializer::Expression(e) => e,
            Initializer::List(items) => match items.as_slice() {
                [it] if it.node.designation.is_empty() => match &it.node.initializer.node {
                    Initializer::Expression(e) => e,
                    _ => return None,
                },
                _ => return None,
            },
        };
        matches!(e.node, Expression::StringLiteral(_)).then_some(&**e)
    }

    /// A character array of type `ty` at byte `base` initialized from string literal
    /// `e` (C11 6.7.9p14): one item per character, and the terminating zero if there
    /// is room (an array of unknown size gets exactly the literal's length plus one).
    /// Returns the array's length, or `None` when `ty` is not an array of a
    /// character type or `e` not a string literal (the caller's other rules apply).
    fn string_init<'a>(
        &mut self,
        ty: &CType,
        e: &'a Node<Expression>,
        base: u64,
        out: &mut Vec<InitItem<'a>>,
    ) -> R<Option<u64>> {
        let (Expression::StringLiteral(lit), Kind::Array(el, n)) = (&e.node, &ty.kind) else {
            return Ok(None);
        };
        if !el.is_integer() || self.types.size_of(el) != Some(1) {
            return Ok(None);
        }
        let o = e.span.start;
        if lit
            .node
            .iter()
            .any(|p| !p.starts_with('"') && !p.starts_with("u8\""))
        {
            return self.unsup(o, "wide string literals are not supported");
        }
        let Some(mut bytes) = super::literals::string_value(&lit.node) else {
            return self.err(o, "malformed string literal");
        };
        bytes.push(0);
        let len = match *n {
            Some(n) if bytes.len() as u64 - 1 > n => {
                return self.err(o, "initializer-string for the array is too long");
            }
            Some(n) => n.min(bytes.len() as u64),
            None => bytes.len() as u64,
        };
        let s = el.scalar().expect("a character type");
        for (i, &b) in bytes.iter().take(len as usize).enumerate() {
            out.push(InitItem {
                offset: base + i as u64,
                ty: (**el).clone(),
                val: InitVal::Const(s.normalize(b as i64)),
                off: o,
            });
        }
        Ok(Some(n.unwrap_or(len)))
    }

    fn array_from_expr<T>(&self, init: &Node<Initializer>) -> R<T> {
        if let Initializer::Expression(e) = &init.node {
            if matches!(e.node, Expression::StringLiteral(_)) {
                return self.err(
                    e.span.start,
                    "array of a type other than a character type initialized from a string literal",
                );
            }
        }
        self.err(
            init.span.start,
            "array initializer must be an initializer list",
        )
    }

    fn init_object<'a>(
        &mut self,
        ty: &CType,
        init: &'a Node<Initializer>,
        base: u64,
        out: &mut Vec<InitItem<'a>>,
    ) -> R<()> {
        let o = init.span.start;
        match (&init.node, &ty.kind) {
            (Initializer::Expression(e), Kind::Array(..)) => {
                match self.string_init(ty, e, base, out)? {
                    Some(_) => Ok(()),
                    None => self.array_from_expr(init),
                }
            }
            (Initializer::Expression(e), _) => {
                out.push(InitItem {
                    offset: base,
                    ty: ty.clone(),
                    val: InitVal::Expr(e),
                    off: e.span.start,
                });
                Ok(())
            }
            (Initializer::List(items), Kind::Array(..) | Kind::Record(_)) => {
                let mut pos = 0;
                self.fill(ty, items, &mut pos, base, out, true, None)?;
                Ok(())
            }
            (Initializer::List(items), _) => match items.as_slice() {
                [] => {
                    out.push(InitItem {
                        offset: base,
                        ty: ty.clone(),
                        val: InitVal::Zero,
                        off: o,
                    });
                    Ok(())
                }
                [one] if one.node.designation.is_empty() => {
                    self.init_object(ty, &one.node.initializer, base, out)
                }
                [one] => self.err(one.span.start, "designator in a scalar initializer"),
                [_, extra, ..] => {
                    self.err(extra.span.start, "excess elements in scalar initializer")
                }
            },
        }
    }

    /// Number of members an aggregate initializer walks (`None`: unbounded array).
    fn member_count(&self, ty: &CType) -> Option<u64> {
        match &ty.kind {
            Kind::Array(_, n) => *n,
            Kind::Record(r) => Some(
                self.types
                    .record(*r)
                    .def
                    .as_ref()
                    .map_or(0, |d| d.fields.len()) as u64,
            ),
            _ => Some(0),
        }
    }

    /// Type and byte offset of member `idx` of aggregate `ty`.
    fn member(&self, ty: &CType, idx: u64, off: usize) -> R<(CType, u64)> {
        match &ty.kind {
            Kind::Array(e, n) => {
                if n.is_some_and(|n| idx >= n) {
                    return self.err(off, "array index in initializer exceeds array bounds");
                }
                let es = self.types.size_of(e).unwrap_or(0);
                Ok(((**e).clone(), idx * es))
            }
            Kind::Record(r) => {
                let def = self.types.record(*r).def.as_ref();
                match def.and_then(|d| d.fields.get(idx as usize)) {
                    Some(f) => Ok((f.ty.clone(), f.offset)),
                    None => self.err(off, "excess elements in struct initializer"),
                }
            }
            _ => self.err(off, "initializer for a non-aggregate"),
        }
    }

    /// A struct with bit-fields is initialized by a list only as `{0}` (or `{}`): its
    /// members in a list are its storage units, not its bit-fields.
    fn check_bits_list(
        &mut self,
        ty: &CType,
        items: &[Node<InitializerListItem>],
        pos: usize,
        braced: bool,
    ) -> R<()> {
        let Kind::Record(r) = &ty.kind else {
            return Ok(());
        };
        if self
            .types
            .record(*r)
            .def
            .as_ref()
            .is_none_or(|d| d.bits.is_empty())
        {
            return Ok(());
        }
        let zero = match &items[pos.min(items.len())..] {
            [] => true,
            [it] if braced && it.node.designation.is_empty() => match &it.node.initializer.node {
                Initializer::Expression(e) => matches!(self.const_int(e)?, Some((0, _))),
                Initializer::List(_) => false,
            },
            _ => false,
        };
        if zero {
            return Ok(());
        }
        let o = items.get(pos).map_or(0, |i| i.span.start);
        self.unsup(
            o,
            format!(
                "an initializer list for `{}`, which has bit-fields, other than `{{0}}` is not supported (assign the members)",
                self.show(ty)
            ),
        )
    }

    /// Member index a designator selects in `ty`.
    fn designator_index(&mut self, ty: &CType, d: &Node<Designator>) -> R<u64> {
        let o = d.span.start;
        match (&d.node, &ty.kind) {
            (Designator::Index(e), Kind::Array(..)) => match self.const_int(e)? {
                Some((v, _)) if v >= 0 => Ok(v as u64),
                Some(_) => self.err(e.span.start, "array designator index is negative"),
                None => self.err(e.span.start, "array designator is not an integer constant"),
            },
            (Designator::Member(id), Kind::Record(r)) => {
                let name = &id.node.name;
                let fields = self
                    .types
                    .record(*r)
                    .def
                    .as_ref()
                    .map(|d| d.fields.clone())
                    .unwrap_or_default();
                if let Some(i) = fields.iter().position(|f| f.name.as_deref() == Some(name)) {
                    return Ok(i as u64);
                }
                if self.types.field(*r, name).is_some() {
                    return self.unsup(o, "designators naming members of anonymous structs or unions are not supported");
                }
                self.err(
                    o,
                    format!("no member named `{name}` in `{}`", self.show(ty)),
                )
            }
            (Designator::Range(r), _) => {
                let (lo, hi) = self.range_bounds(ty, d, &r.node)?;
                if lo != hi {
                    return self.unsup(
                        o,
                        "a range designator after the first designator of an item is not supported",
                    );
                }
                Ok(lo)
            }
            (Designator::Index(_), _) => self.err(o, "array designator in a non-array initializer"),
            (Designator::Member(_), _) => {
                self.err(o, "member designator in a non-struct initializer")
            }
        }
    }

    /// The bounds `lo ..= hi` of GCC's range designator `[lo ... hi]` in array `ty`.
    fn range_bounds(
        &mut self,
        ty: &CType,
        d: &Node<Designator>,
        r: &lang_c::ast::RangeDesignator,
    ) -> R<(u64, u64)> {
        if !matches!(ty.kind, Kind::Array(..)) {
            return self.err(d.span.start, "array designator in a non-array initializer");
        }
        let mut bound = |e: &Node<Expression>| match self.const_int(e)? {
            Some((v, _)) if v >= 0 => Ok(v as u64),
            Some(_) => self.err(e.span.start, "array designator index is negative"),
            None => self.err(e.span.start, "array designator is not an integer constant"),
        };
        let (lo, hi) = (bound(&r.from)?, bound(&r.to)?);
        if hi < lo {
            return self.err(d.span.start, "empty range in array designator");
        }
        Ok((lo, hi))
    }

    /// A range designator repeats its initializer: when it covers more than one index
    /// (`repeated`), the initializer must be an expression that emits no code (no
    /// memory read, no side effect), so repeating it equals evaluating it once.
    fn check_repeatable(&mut self, init: &Node<Initializer>, repeated: bool) -> R<()> {
        if !repeated {
            return Ok(());
        }
        let pure = match &init.node {
            Initializer::Expression(e) => self.scratch(|cx| cx.rvalue(e).map(|_| ()))?.1,
            Initializer::List(_) => false,
        };
        if pure {
            return Ok(());
        }
        self.unsup(
            init.span.start,
            "a range designator whose initializer is a braced list, reads memory or has side effects is not supported",
        )
    }

    /// Walks `items` from `*pos` filling aggregate `ty` at `base`. A `braced` list
    /// must be consumed entirely; an elided one stops when `ty` is full or at a
    /// designator (which belongs to an enclosing list), except that the designator of
    /// item `applied` was already applied by the caller. Returns one past the highest
    /// member index initialised.
    #[allow(clippy::too_many_arguments)]
    fn fill<'a>(
        &mut self,
        ty: &CType,
        items: &'a [Node<InitializerListItem>],
        pos: &mut usize,
        base: u64,
        out: &mut Vec<InitItem<'a>>,
        braced: bool,
        applied: Option<usize>,
    ) -> R<u64> {
        self.check_bits_list(ty, items, *pos, braced)?;
        let count = self.member_count(ty);
        let union = matches!(&ty.kind, Kind::Record(r) if self.types.record(*r).union);
        let (mut cur, mut end) = (0u64, 0u64);
        let mut after_nested = false;
        while *pos < items.len() {
            let item = &items[*pos];
            let io = item.span.start;
            let desig = &item.node.designation;
            if !desig.is_empty() && applied != Some(*pos) {
                if !braced {
                    break;
                }
                if let Designator::Range(r) = &desig[0].node {
                    let (lo, hi) = self.range_bounds(ty, &desig[0], &r.node)?;
                    self.check_repeatable(&item.node.initializer, lo < hi)?;
                    for idx in lo..=hi {
                        let (sub, off) = self.member(ty, idx, io)?;
                        self.designated(
                            &sub,
                            &desig[1..],
                            &item.node.initializer,
                            base + off,
                            out,
                        )?;
                    }
                    *pos += 1;
                    cur = hi + 1;
                    end = end.max(cur);
                    after_nested = desig.len() > 1;
                    continue;
                }
                cur = self.designator_index(ty, &desig[0])?;
                after_nested = false;
                if desig.len() > 1 {
                    let (sub, off) = self.member(ty, cur, io)?;
                    self.designated(&sub, &desig[1..], &item.node.initializer, base + off, out)?;
                    *pos += 1;
                    cur += 1;
                    end = end.max(cur);
                    after_nested = true;
                    if union {
                        cur = count.unwrap_or(0);
                    }
                    continue;
                }
            } else if after_nested {
                return self.unsup(
                    io,
                    "an initializer list continuing after a nested designator is not supported",
                );
            }
            if count.is_some_and(|c| cur >= c) {
                if braced {
                    return self.err(io, "excess elements in initializer");
                }
                break;
            }
            let (sub, off) = self.member(ty, cur, io)?;
            match &item.node.initializer.node {
                Initializer::List(_) => {
                    self.init_object(&sub, &item.node.initializer, base + off, out)?;
                    *pos += 1;
                }
                Initializer::Expression(e) => {
                    let aggregate = matches!(sub.kind, Kind::Array(..) | Kind::Record(_));
                    if self.string_init(&sub, e, base + off, out)?.is_some() {
                        *pos += 1;
                    } else if aggregate && !self.is_record_of(e, &sub)? {
                        let before = *pos;
                        self.fill(&sub, items, pos, base + off, out, false, Some(*pos))?;
                        if *pos == before {
                            return self.err(io, "invalid initializer");
                        }
                    } else {
                        out.push(InitItem {
                            offset: base + off,
                            ty: sub,
                            val: InitVal::Expr(e),
                            off: e.span.start,
                        });
                        *pos += 1;
                    }
                }
            }
            cur += 1;
            end = end.max(cur);
            if union {
                cur = count.unwrap_or(0);
            }
        }
        Ok(end)
    }

    /// Applies the remaining designators `rest` of an item, then its initializer.
    fn designated<'a>(
        &mut self,
        ty: &CType,
        rest: &[Node<Designator>],
        init: &'a Node<Initializer>,
        base: u64,
        out: &mut Vec<InitItem<'a>>,
    ) -> R<()> {
        let Some(first) = rest.first() else {
            if let (Initializer::Expression(e), Kind::Array(..) | Kind::Record(_)) =
                (&init.node, &ty.kind)
            {
                if !self.is_record_of(e, ty)? {
                    return self.unsup(
                        init.span.start,
                        "a designated aggregate must be initialized with a braced list",
                    );
                }
            }
            return self.init_object(ty, init, base, out);
        };
        let idx = self.designator_index(ty, first)?;
        let (sub, off) = self.member(ty, idx, first.span.start)?;
        self.designated(&sub, &rest[1..], init, base + off, out)
    }

    /// Whether `e` is an expression of record type `ty` (a struct copy, not elision).
    fn is_record_of(&mut self, e: &Node<Expression>, ty: &CType) -> R<bool> {
        if !ty.is_record() {
            return Ok(false);
        }
        let t = self.expr_type(e)?;
        Ok(t.kind == ty.kind)
    }

    /// The constant value of a global's initializer item.
    pub fn const_init_value(&mut self, item: &InitItem) -> R<i64> {
        let e = match item.val {
            InitVal::Zero => return Ok(0),
            InitVal::Const(c) => return Ok(c),
            InitVal::Expr(e) => e,
        };
        if item.ty.is_record() {
            return self.unsup(
                e.span.start,
                "initializer of a global must be a constant expression",
            );
        }
        let ty = item.ty.clone();
        let (v, pure) = self.scratch(|cx| {
            let (v, t) = cx.rvalue(e)?;
            cx.assign_convert(v, &t, &ty, e.span.start)
        })?;
        match (v, pure) {
            (Operand::Const(c), true) => Ok(c),
            _ => self.unsup(
                e.span.start,
                "initializer of a global must be a constant expression",
            ),
        }
    }

    /// A block-scope automatic variable.
    pub fn local_var(
        &mut self,
        name: &str,
        ty: CType,
        init: Option<&Node<Initializer>>,
        off: usize,
    ) -> R<()> {
        self.fresh_local(name, off)?;
        if ty.is_scalar() && !self.f.addr_taken.contains(name) {
            let r = self.b.reg();
            self.bind(
                name,
                Binding::Local {
                    ty: ty.clone(),
                    home: Home::Reg(r),
                },
            );
            // Indeterminate from here (and before: a `goto` may jump past the
            // declaration) until written, even in its own initializer; with an
            // initializer, the data flow of `crate::uninit` sees the write at once.
            self.at(off);
            self.b.emit(InstKind::Indeterminate {
                reg: r,
                name: name.to_string(),
            });
            if let Some(i) = init {
                let (_, items) = self.flatten(&ty, i)?;
                let v = match items.first().map(|i| &i.val) {
                    Some(InitVal::Expr(e)) => {
                        let (v, t) = self.rvalue(e)?;
                        self.assign_convert(v, &t, &ty, e.span.start)?
                    }
                    Some(InitVal::Const(c)) => Operand::Const(*c),
                    _ => Operand::Const(0),
                };
                self.at(off);
                self.b.emit(InstKind::Copy { dst: r, src: v });
            }
            return Ok(());
        }
        let (ty, items) = match init {
            Some(i) => {
                let (t, items) = self.flatten(&ty, i)?;
                (t, Some(items))
            }
            None => (ty, None),
        };
        let (Some(size), Some(align)) = (self.types.size_of(&ty), self.types.align_of(&ty)) else {
            return self.err(
                off,
                format!("variable `{name}` has incomplete type `{}`", self.show(&ty)),
            );
        };
        self.at(off);
        let shared = super::escape::is_shared(&self.f.escapes, name, ty.is_scalar());
        // Inside a loop, or where a `goto` may come back: the declaration can be
        // reached again in this activation, each time making a new object.
        let again = !self.b.targets.continues.is_empty() || !self.f.labels.is_empty();
        if shared && again && items.is_none() {
            if size > crate::memory::MAX_MALLOC as u64 {
                return self.unsup(off, format!("local variable `{name}` is too large"));
            }
            let var = self.note_own_block_local(name, &ty, size);
            let r = self.b.reg();
            self.b.emit(InstKind::LocalBlock {
                dst: r,
                var,
                len: None,
            });
            self.bind(
                name,
                Binding::Local {
                    ty: ty.clone(),
                    home: Home::Own(r),
                },
            );
            return Ok(());
        }
        let align = align.max(self.align_req);
        let Some((home, addr)) = self.local_memory(name, ty.is_scalar(), size, align) else {
            return self.unsup(
                off,
                format!("local variables need more than {FRAME_LIMIT} bytes"),
            );
        };
        self.bind(
            name,
            Binding::Local {
                ty: ty.clone(),
                home,
            },
        );
        self.note_local(name, &ty, home);
        match (items, home) {
            (Some(items), Home::Frame(o)) => {
                // The whole object is initialised (padding and union tails to 0, as
                // C11 6.7.9p10 has it for the members no initializer names): one
                // `FrameInit`, then the items.
                self.b.emit(InstKind::FrameInit {
                    offset: o,
                    size: size as u32,
                    defined: true,
                });
                self.store_items_over_zeros(addr, &items)?;
            }
            (Some(items), _) => self.store_items(addr, &ty, &items)?,
            // The value is indeterminate each time the declaration is reached.
            (None, Home::Frame(o)) => self.b.emit(InstKind::FrameInit {
                offset: o,
                size: size as u32,
                defined: false,
            }),
            // A shared frame is uninitialised when allocated (and a declaration that
            // can be reached again has a block of its own, above).
            (None, _) => {}
        }
        Ok(())
    }

    /// Memory for local `name` (a scalar if `scalar`) of `size` bytes at `align`: in
    /// the shared frame if its address may escape to another thread (`escape`), else
    /// in the private frame. Returns where it lives and its address (emitted at the
    /// current position); `None` if the frame would exceed [`FRAME_LIMIT`].
    pub(super) fn local_memory(
        &mut self,
        name: &str,
        scalar: bool,
        size: u64,
        align: u64,
    ) -> Option<(Home, Operand)> {
        if super::escape::is_shared(&self.f.escapes, name, scalar) {
            let o = self.b.alloc_shared(size, align, FRAME_LIMIT)?;
            Some((Home::Shared(o), self.b.shared_addr(o)))
        } else {
            let o = self.b.alloc_frame(size, align, FRAME_LIMIT)?;
            Some((Home::Frame(o), self.b.frame_addr(o)))
        }
    }

    /// A compound literal `(T){ ... }` in a function (C11 6.5.2.5): an unnamed object
    /// of automatic storage in the function's frame (one per literal, so a literal
    /// evaluated again, e.g. in a loop, re-initialises the same object, as C says),
    /// fully initialised where it is evaluated. The value is the object (an lvalue).
    /// Outside functions (a global's initializer) it is not a constant and the global
    /// is rejected as such.
    pub fn compound_literal(
        &mut self,
        cl: &lang_c::ast::CompoundLiteral,
        span: lang_c::span::Span,
        off: usize,
    ) -> R<super::expr::Val> {
        let ty = self.type_name(&cl.type_name)?;
        if matches!(ty.kind, Kind::Func(_)) || ty.is_void() {
            return self.err(
                off,
                format!("compound literal of type `{}`", self.show(&ty)),
            );
        }
        let init = Node::new(Initializer::List(cl.initializer_list.clone()), span);
        let (ty, items) = self.flatten(&ty, &init)?;
        let (Some(size), Some(align)) = (self.types.size_of(&ty), self.types.align_of(&ty)) else {
            return self.err(
                off,
                format!("compound literal of incomplete type `{}`", self.show(&ty)),
            );
        };
        let Some(fo) = self.b.alloc_frame(size, align, FRAME_LIMIT) else {
            return self.unsup(
                off,
                format!("local variables need more than {FRAME_LIMIT} bytes"),
            );
        };
        self.at(off);
        let addr = self.b.frame_addr(fo);
        self.b.emit(InstKind::FrameInit {
            offset: fo,
            size: size as u32,
            defined: true,
        });
        self.store_items_over_zeros(addr, &items)?;
        Ok(super::expr::Val::Mem(addr, ty))
    }

    /// Stores a flattened initializer into the object at `addr`: zero into every leaf
    /// no item covers, then the items in order.
    fn store_items(&mut self, addr: Operand, ty: &CType, items: &[InitItem]) -> R<()> {
        self.zero_uncovered(addr, ty, items);
        self.store_items_over_zeros(addr, items)
    }

    /// Zero into every leaf of the object at `addr` that no item covers.
    fn zero_uncovered(&mut self, addr: Operand, ty: &CType, items: &[InitItem]) {
        let mut ranges: Vec<(u64, u64)> = items
            .iter()
            .map(|i| (i.offset, i.offset + self.types.size_of(&i.ty).unwrap_or(1)))
            .collect();
        ranges.sort_unstable();
        let mut leaves = Vec::new();
        self.types.leaves(ty, 0, "", &mut leaves);
        for l in &leaves {
            let end = l.offset + l.scalar.size as u64;
            let k = ranges.partition_point(|r| r.0 < end);
            let covered = ranges[..k].iter().any(|r| r.1 > l.offset);
            if !covered {
                let a = self.offset_addr(addr, l.offset);
                self.b
                    .store(a, Operand::Const(0), l.scalar, super::ops::ord_of(l.atomic));
            }
        }
    }

    /// Stores the items of a flattened initializer, in order, into the object at
    /// `addr`, whose other bytes already are 0.
    fn store_items_over_zeros(&mut self, addr: Operand, items: &[InitItem]) -> R<()> {
        for item in items {
            let a = self.offset_addr(addr, item.offset);
            match item.val {
                InitVal::Const(c) => {
                    let s = item.ty.scalar().unwrap_or(Scalar::INT);
                    self.b
                        .store(a, Operand::Const(c), s, super::ops::ord_of(item.ty.atomic));
                }
                InitVal::Zero => {
                    let s = item.ty.scalar().unwrap_or(Scalar::INT);
                    self.b
                        .store(a, Operand::Const(0), s, super::ops::ord_of(item.ty.atomic));
                }
                InitVal::Expr(e) if item.ty.is_record() => {
                    let src = self.record_address(e, &item.ty)?;
                    self.copy_object_from(a, src, &item.ty, e.span.start, Some(e.span.start))?;
                }
                InitVal::Expr(e) => {
                    let (v, t) = self.rvalue(e)?;
                    let v = self.assign_convert(v, &t, &item.ty, e.span.start)?;
                    let s = item.ty.scalar().unwrap_or(Scalar::INT);
                    self.b.store(a, v, s, super::ops::ord_of(item.ty.atomic));
                }
            }
        }
        Ok(())
    }

    /// `addr + offset` as a pointer.
    pub fn offset_addr(&mut self, addr: Operand, offset: u64) -> Operand {
        if offset == 0 {
            return addr;
        }
        self.b.bin(
            crate::ir::BinOp::Add,
            addr,
            Operand::Const(offset as i64),
            Scalar::PTR,
        )
    }
}
