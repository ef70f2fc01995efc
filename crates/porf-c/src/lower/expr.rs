//! Expressions: values, lvalues, identifiers, constants, member access, calls, casts,
//! `sizeof`/`offsetof`. Arithmetic and assignment are in `ops`, `?:`, `&&`, `||` and
//! conditions in `cond`.
//!
//! Invariants: an rvalue operand is normalised to its (unqualified) type; reading an
//! lvalue of `_Atomic` type is a seq_cst load, of any other type a non-atomic one;
//! reading a register local copies it, so a later write to the variable within the
//! same expression cannot change a value already read.

use super::literals::{char_value, int_constant_type};
use super::{Binding, Cx, Home, R};
use crate::ir::{addr, BinOp, InstKind, Operand, Reg, Scalar, UnOp};
use crate::types::{promote, CType, FuncSig, IntTy, Kind};
use lang_c::ast::*;
use lang_c::span::Node;

/// The value of an expression before lvalue conversion.
#[derive(Clone, Debug)]
pub(crate) enum Val {
    /// A value.
    R(Operand, CType),
    /// An object in memory at the address.
    Mem(Operand, CType),
    /// A register local (an lvalue).
    Reg(Reg, CType),
    /// A bit-field (an lvalue): the address of its storage unit, and where in the
    /// unit it is (`bitfield`).
    Bits(Operand, Box<crate::types::BitField>),
    /// A function designator (`funcs` index).
    Func(usize),
    /// The "value" of a void expression.
    Void,
}

impl Cx<'_> {
    /// The type of a value before lvalue conversion.
    pub fn val_type(&self, v: &Val) -> CType {
        match v {
            Val::R(_, t) | Val::Mem(_, t) | Val::Reg(_, t) => t.clone(),
            Val::Bits(_, bf) => bf.ty.unqual(),
            Val::Func(fi) => CType::new(Kind::Func(self.funcs[*fi].sig.clone())),
            Val::Void => CType::void(),
        }
    }

    /// The type of `e` without evaluating it (its code is discarded).
    pub fn expr_type(&mut self, e: &Node<Expression>) -> R<CType> {
        let (t, _) = self.scratch(|cx| {
            let v = cx.expr(e)?;
            Ok(cx.val_type(&v))
        })?;
        Ok(t)
    }

    /// `_Generic(e, T1: e1, ..., default: d)` (C11 6.5.1.1): `e` is not evaluated; its
    /// type after lvalue conversion (C17: `_Atomic` dropped), array-to-pointer and
    /// function-to-pointer conversion selects the one association of a compatible
    /// type, else `default`; the result is the selected expression itself (an lvalue
    /// if it is one).
    fn generic(&mut self, g: &GenericSelection, off: usize) -> R<Val> {
        let t = self.expr_type(&g.expression)?;
        let t = match &t.kind {
            Kind::Array(e, _) => CType::ptr((**e).clone()),
            Kind::Func(_) => CType::ptr(t),
            _ => CType { atomic: false, ..t },
        };
        let mut chosen = None;
        let mut default = None;
        for a in &g.associations {
            match &a.node {
                GenericAssociation::Type(at) => {
                    let ty = self.type_name(&at.node.type_name)?;
                    if self.types.compatible(&ty, &t) {
                        if chosen.is_some() {
                            return self.err(
                                at.node.type_name.span.start,
                                format!(
                                    "`_Generic` has two associations compatible with `{}`",
                                    self.show(&t)
                                ),
                            );
                        }
                        chosen = Some(&at.node.expression);
                    }
                }
                GenericAssociation::Default(e) => default = Some(e),
            }
        }
        match chosen.or(default) {
            Some(e) => self.expr(e),
            None => self.err(
                off,
                format!(
                    "`_Generic` selector of type `{}` matches no association",
                    self.show(&t)
                ),
            ),
        }
    }

    /// `e` as an integer constant expression: `None` if it is not one.
    pub fn const_int(&mut self, e: &Node<Expression>) -> R<Option<(i64, CType)>> {
        let ((v, t), pure) = self.scratch(|cx| cx.rvalue(e))?;
        match (v, pure, t.is_integer()) {
            (Operand::Const(c), true, true) => Ok(Some((c, t))),
            _ => Ok(None),
        }
    }

    /// `e` as an integer constant expression where a condition may fold (`?:`,
    /// `&&`, `||`): as [`Cx::const_int`], but in executable code `None` when its value
    /// depends on porf's pointer width under ILP32 (`ilp32`), so that the code is
    /// emitted and its `sizeof` checked at run time.
    pub fn const_int_exec(&mut self, e: &Node<Expression>) -> R<Option<(i64, CType)>> {
        let seen = self.ilp32.seen;
        let r = self.const_int(e)?;
        Ok(r.filter(|_| self.ilp32.scratch > 0 || self.ilp32.seen == seen))
    }

    /// Evaluates `e` as a scalar value.
    pub fn rvalue(&mut self, e: &Node<Expression>) -> R<(Operand, CType)> {
        let v = self.expr(e)?;
        self.load(v, e.span.start)
    }

    /// Lvalue conversion, array and function decay.
    pub fn load(&mut self, v: Val, off: usize) -> R<(Operand, CType)> {
        match v {
            Val::R(o, t) => Ok((o, t)),
            Val::Reg(r, t) => {
                // At the read itself: a check of an uninitialised register local
                // (`crate::uninit`) reports this position.
                let saved = self.b.loc;
                self.at(off);
                let v = self.b.copy(Operand::Reg(r));
                self.b.loc = saved;
                Ok((Operand::Reg(v), t.unqual()))
            }
            Val::Mem(a, t) => match &t.kind {
                Kind::Array(e, _) => Ok((a, CType::ptr((**e).clone()))),
                Kind::Func(_) => Ok((a, CType::ptr(t.clone()))),
                Kind::Int(_) | Kind::Float(_) | Kind::Ptr(_) => {
                    // At the lvalue read, not at the expression using its value.
                    let saved = self.b.loc;
                    self.at(off);
                    let s = t.scalar().expect("scalar");
                    let v = self.b.load(a, s, super::ops::ord_of(t.atomic));
                    self.b.loc = saved;
                    Ok((v, t.unqual()))
                }
                Kind::Record(_) => self.err(
                    off,
                    format!("`{}` used where a scalar is required", self.show(&t)),
                ),
                Kind::Void => self.err(off, "void value not ignored as it ought to be"),
            },
            Val::Func(fi) => {
                let f = &self.funcs[fi];
                let t = CType::ptr(CType::new(Kind::Func(f.sig.clone())));
                match f.def {
                    Some(id) => Ok((Operand::Const(addr::FUNC_BASE + id as i64), t)),
                    None => {
                        let n = f.name.clone();
                        self.unsup(
                            off,
                            format!("function `{n}` has no definition porf can run"),
                        )
                    }
                }
            }
            Val::Bits(a, bf) => Ok(self.load_bits(a, &bf)),
            Val::Void => self.err(off, "void value not ignored as it ought to be"),
        }
    }

    /// Writes scalar `v` (already converted) into lvalue `lv`.
    pub fn store_to(&mut self, lv: &Val, v: Operand, off: usize) -> R<()> {
        match lv {
            Val::Reg(r, _) => {
                self.b.emit(InstKind::Copy { dst: *r, src: v });
                Ok(())
            }
            Val::Mem(a, t) if t.is_scalar() => {
                let s = t.scalar().expect("scalar");
                self.b.store(*a, v, s, super::ops::ord_of(t.atomic));
                Ok(())
            }
            Val::Bits(a, bf) => {
                self.store_bits(*a, bf, v);
                Ok(())
            }
            _ => self.err(off, "expression is not assignable"),
        }
    }

    /// The address of `e`, which must be an object of record type `ty`.
    pub fn record_address(&mut self, e: &Node<Expression>, ty: &CType) -> R<Operand> {
        match self.expr(e)? {
            Val::Mem(a, t) if t.kind == ty.kind => Ok(a),
            v => {
                let t = self.val_type(&v);
                self.err(
                    e.span.start,
                    format!(
                        "incompatible types: `{}` expected, `{}` given",
                        self.show(ty),
                        self.show(&t)
                    ),
                )
            }
        }
    }

    pub fn expr(&mut self, e: &Node<Expression>) -> R<Val> {
        let saved = self.b.loc;
        let off = e.span.start;
        self.at(off);
        let r = self.expr_inner(e, off);
        self.b.loc = saved;
        r
    }

    fn expr_inner(&mut self, e: &Node<Expression>, off: usize) -> R<Val> {
        use Expression as E;
        match &e.node {
            E::Identifier(id) => self.identifier(&id.node.name, off),
            E::Constant(c) => self.constant(&c.node, off),
            E::StringLiteral(s) => self.string_literal(&s.node, off),
            E::Member(m) => self.member_access(&m.node, off),
            E::Call(c) => self.call(&c.node, off),
            E::SizeOfTy(s) => {
                let t = self.type_name(&s.node.0)?;
                self.size_of(&t, off)
            }
            E::SizeOfVal(s) => {
                if let Some(v) = self.vla_sizeof(&s.node.0) {
                    return Ok(v);
                }
                let t = self.expr_type(&s.node.0)?;
                self.size_of(&t, off)
            }
            E::AlignOf(a) => {
                let t = self.type_name(&a.node.0)?;
                match self.types.align_of(&t) {
                    Some(n) => Ok(Val::R(Operand::Const(n as i64), CType::int(IntTy::ULong))),
                    None => self.err(
                        off,
                        format!("`_Alignof` applied to incomplete type `{}`", self.show(&t)),
                    ),
                }
            }
            E::UnaryOperator(u) => self.unary(&u.node, off),
            E::Cast(c) => self.cast(&c.node, off),
            E::BinaryOperator(b) => self.binary(&b.node, off),
            E::Conditional(c) => self.conditional(&c.node, off),
            E::Comma(items) => {
                let mut last = Val::Void;
                for (i, x) in items.iter().enumerate() {
                    let v = self.expr(x)?;
                    if i + 1 == items.len() {
                        last = match v {
                            // The comma operator yields a value, not an lvalue.
                            Val::Reg(..) | Val::Mem(..) if !self.val_type(&v).is_record() => {
                                let (o, t) = self.load(v, x.span.start)?;
                                Val::R(o, t)
                            }
                            v => v,
                        };
                    }
                }
                Ok(last)
            }
            E::OffsetOf(o) => self.offset_of(&o.node),
            E::GenericSelection(g) => self.generic(&g.node, off),
            E::CompoundLiteral(cl) => self.compound_literal(&cl.node, e.span, off),
            E::VaArg(v) => self.va_arg(&v.node, off),
            E::Statement(s) => self.statement_expr(s, off),
        }
    }

    /// A string literal: an array of `char` with static storage holding the bytes and
    /// a terminating zero (C11 6.4.5p6), one object per distinct contents (6.4.5p7
    /// leaves sharing unspecified). Its cells are named `str#N[i]`.
    fn string_literal(&mut self, pieces: &[String], off: usize) -> R<Val> {
        if pieces
            .iter()
            .any(|p| !p.starts_with('"') && !p.starts_with("u8\""))
        {
            return self.unsup(off, "wide string literals are not supported");
        }
        let Some(bytes) = super::literals::string_value(pieces) else {
            return self.err(off, "malformed string literal");
        };
        self.string_object(bytes, off)
    }

    /// The static array of a string literal with contents `bytes` (without the final
    /// zero), shared by every literal with the same contents; read-only
    /// (`Module::readonly`).
    fn string_object(&mut self, mut bytes: Vec<u8>, off: usize) -> R<Val> {
        bytes.push(0);
        let ty = CType::new(Kind::Array(
            std::rc::Rc::new(CType::int(IntTy::Char)),
            Some(bytes.len() as u64),
        ));
        let gi = match self.strings.get(&bytes) {
            Some(&gi) => gi,
            None => {
                let name = format!("str#{}", self.strings.len());
                let gi = self.new_static(&name, ty.clone(), off)?;
                let base = self.globals[gi]
                    .addr
                    .expect("a char array is laid out at once");
                for (i, &b) in bytes.iter().enumerate() {
                    self.image.insert(base + i as i64, b as i8 as i64);
                }
                self.strings.insert(bytes, gi);
                gi
            }
        };
        let base = self.globals[gi].addr.expect("laid out");
        Ok(Val::Mem(Operand::Const(base), ty))
    }

    fn identifier(&mut self, name: &str, off: usize) -> R<Val> {
        match self.lookup(name).cloned() {
            Some(Binding::Local { ty, home }) => Ok(match home {
                Home::Reg(r) => Val::Reg(r, ty),
                Home::Frame(o) => Val::Mem(self.b.frame_addr(o), ty),
                Home::Shared(o) => Val::Mem(self.b.shared_addr(o), ty),
                Home::Own(r) => Val::Mem(Operand::Reg(r), ty),
            }),
            Some(Binding::Global(gi)) => {
                self.globals[gi].used = true;
                let g = &self.globals[gi];
                match g.addr {
                    Some(a) if g.tls => {
                        let ty = g.ty.clone();
                        Ok(Val::Mem(self.b.tls_addr(a as u32), ty))
                    }
                    Some(a) => Ok(Val::Mem(Operand::Const(a), g.ty.clone())),
                    None => self.unsup(off, format!("`{name}` is used before its size is known")),
                }
            }
            Some(Binding::Func(_)) if super::builtins::is_atomic_function(name) => self.unsup(
                off,
                format!("`{name}` used other than in a direct call: an atomic section (SV-COMP's `__VERIFIER_atomic_*` functions) is supported only as a direct call"),
            ),
            Some(Binding::Func(fi)) => Ok(Val::Func(fi)),
            Some(Binding::Enum(v)) => Ok(Val::R(Operand::Const(v), CType::int(IntTy::Int))),
            Some(Binding::Typedef(_)) => self.err(off, format!("unexpected type name `{name}`")),
            Some(Binding::Poison(d)) => Err((*d).clone()),
            // C11 6.4.2.2: `__func__` is `static const char __func__[] = "name";`
            // (GCC's `__FUNCTION__` and, in C, `__PRETTY_FUNCTION__` are the same).
            None if matches!(name, "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__")
                && self.fname.is_some() =>
            {
                let f = self.fname.clone().unwrap_or_default();
                self.string_object(f.into_bytes(), off)
            }
            None if super::builtins::is_builtin(name) => {
                self.unsup(off, format!("`{name}` can only be called directly"))
            }
            None => self.err(off, format!("use of undeclared identifier `{name}`")),
        }
    }

    fn constant(&mut self, c: &Constant, off: usize) -> R<Val> {
        match c {
            Constant::Float(f) => self.float_constant(f, off),
            Constant::Integer(i) => {
                if i.suffix.imaginary {
                    return self.unsup(off, "imaginary constants are not supported");
                }
                let radix = match i.base {
                    IntegerBase::Decimal => 10,
                    IntegerBase::Octal => 8,
                    IntegerBase::Hexadecimal => 16,
                    IntegerBase::Binary => 2,
                };
                let Ok(v) = u64::from_str_radix(&i.number, radix) else {
                    return self.err(off, "integer constant is too large");
                };
                let t = int_constant_type(
                    v,
                    i.base == IntegerBase::Decimal,
                    i.suffix.unsigned,
                    i.suffix.size,
                );
                Ok(Val::R(
                    Operand::Const(t.scalar().normalize(v as i64)),
                    CType::int(t),
                ))
            }
            Constant::Character(s) => match char_value(s) {
                Some(v) => Ok(Val::R(Operand::Const(v), CType::int(IntTy::Int))),
                None => self.unsup(off, format!("character constant {s} is not supported")),
            },
        }
    }

    fn size_of(&mut self, t: &CType, off: usize) -> R<Val> {
        self.ilp32_size_of(t, off);
        match (&t.kind, self.types.size_of(t)) {
            (Kind::Func(_), _) => self.err(off, "`sizeof` applied to a function type"),
            (_, Some(n)) => Ok(Val::R(Operand::Const(n as i64), CType::int(IntTy::ULong))),
            (_, None) => self.err(
                off,
                format!("`sizeof` applied to incomplete type `{}`", self.show(t)),
            ),
        }
    }

    fn offset_of(&mut self, o: &OffsetOfExpression) -> R<Val> {
        let mut t = self.type_name(&o.type_name)?;
        let base = &o.designator.node.base;
        let mut total = self.offset_step(&mut t, &base.node.name, base.span.start)?;
        for m in &o.designator.node.members {
            match &m.node {
                OffsetMember::Member(id) => {
                    total += self.offset_step(&mut t, &id.node.name, id.span.start)?
                }
                OffsetMember::IndirectMember(id) => {
                    return self.err(id.span.start, "`->` in `offsetof`")
                }
                OffsetMember::Index(e) => {
                    let Kind::Array(el, _) = t.kind.clone() else {
                        return self.err(e.span.start, "`offsetof` subscript of a non-array");
                    };
                    let Some((i, _)) = self.const_int(e)? else {
                        return self
                            .err(e.span.start, "`offsetof` index is not an integer constant");
                    };
                    let es = self.types.size_of(&el).unwrap_or(0);
                    total = total.wrapping_add((i as u64).wrapping_mul(es));
                    t = (*el).clone();
                }
            }
        }
        Ok(Val::R(
            Operand::Const(total as i64),
            CType::int(IntTy::ULong),
        ))
    }

    /// Offset of member `name` of record type `*t`; moves `*t` to the member's type.
    fn offset_step(&mut self, t: &mut CType, name: &str, at: usize) -> R<u64> {
        let Kind::Record(r) = t.kind else {
            return self.err(at, "`offsetof` of a member of a non-struct type");
        };
        match self.types.field(r, name) {
            Some((fo, ft)) => {
                *t = ft;
                Ok(fo)
            }
            None => self.err(at, format!("no member named `{name}`")),
        }
    }

    fn member_access(&mut self, m: &MemberExpression, off: usize) -> R<Val> {
        let name = &m.identifier.node.name;
        let (base, rt) = match m.operator.node {
            MemberOperator::Direct => match self.expr(&m.expression)? {
                Val::Mem(a, t) if t.is_record() => (a, t),
                v => {
                    let t = self.val_type(&v);
                    return self.err(
                        off,
                        format!(
                            "member `{name}` of `{}`, which is not a struct or union",
                            self.show(&t)
                        ),
                    );
                }
            },
            MemberOperator::Indirect => {
                let (p, t) = self.rvalue(&m.expression)?;
                match t.pointee() {
                    Some(r) if r.is_record() => (p, r.clone()),
                    _ => {
                        return self.err(
                            off,
                            format!(
                                "`->{name}` on `{}`, which is not a pointer to a struct or union",
                                self.show(&t)
                            ),
                        );
                    }
                }
            }
        };
        let Kind::Record(r) = rt.kind else {
            unreachable!()
        };
        if self.types.record(r).def.is_none() {
            return self.err(
                off,
                format!("member access into incomplete type `{}`", self.show(&rt)),
            );
        }
        if rt.atomic {
            // C11 6.5.2.3p5: accessing a member of an atomic structure is undefined.
            return self.unsup(
                off,
                format!(
                    "member `{name}` of an atomic struct (`{}`): undefined behaviour (C11 6.5.2.3p5); load it with atomic_load",
                    self.show(&rt)
                ),
            );
        }
        match self.types.field(r, name) {
            Some((fo, ft)) => {
                self.at(m.identifier.span.start);
                Ok(Val::Mem(self.offset_addr(base, fo), ft))
            }
            None if self.types.bitfield(r, name).is_some() => {
                let bf = Box::new(self.types.bitfield(r, name).expect("bit-field").clone());
                self.at(m.identifier.span.start);
                let unit = self.offset_addr(base, bf.unit_offset);
                Ok(Val::Bits(unit, bf))
            }
            None => self.err(
                m.identifier.span.start,
                format!("no member named `{name}` in `{}`", self.show(&rt)),
            ),
        }
    }

    fn call(&mut self, c: &CallExpression, off: usize) -> R<Val> {
        let args = &c.arguments;
        if let Expression::Identifier(id) = &c.callee.node {
            let name = &id.node.name;
            let co = c.callee.span.start;
            let global = matches!(self.lookup(name), None | Some(Binding::Func(_)));
            if global && super::builtins::ERROR_FUNCTIONS.contains(&name.as_str()) {
                return self.builtin(name, args, off);
            }
            let atomic = global && super::builtins::is_atomic_function(name);
            if atomic && matches!(self.lookup(name), Some(Binding::Func(_))) {
                // SV-COMP: the whole call of a `__VERIFIER_atomic_*` function is one
                // atomic section (its arguments are evaluated before it opens).
                let fi = match self.lookup(name) {
                    Some(Binding::Func(fi)) => *fi,
                    _ => unreachable!(),
                };
                if let Some(id) = self.funcs[fi].def {
                    let sig = self.funcs[fi].sig.clone();
                    let argv = self.call_args(&sig, args, name, off)?;
                    if sig.ret.is_record() {
                        return self.unsup(off, "an atomic-section function returning a struct or union is not supported");
                    }
                    self.at(off);
                    self.b.emit(InstKind::AtomicBegin);
                    self.b.calls.push((id, off, argv.len()));
                    let dst = (!sig.ret.is_void()).then(|| self.b.reg());
                    self.b.emit(InstKind::Call {
                        dst,
                        func: id,
                        args: argv,
                    });
                    self.b.emit(InstKind::AtomicEnd);
                    return Ok(match dst {
                        Some(r) => Val::R(Operand::Reg(r), sig.ret.clone()),
                        None => Val::Void,
                    });
                }
            }
            match self.lookup(name) {
                None if super::builtins::is_builtin(name) => return self.builtin(name, args, off),
                None if self.def_ids.contains_key(name) => {
                    return self.err(co, format!("implicit declaration of function `{name}` (declare it before its first use)"));
                }
                None => {
                    return self.unsup(
                        co,
                        format!(
                        "call to undeclared function `{name}` (porf has no definition it can run)"
                    ),
                    )
                }
                Some(Binding::Func(fi)) => {
                    let fi = *fi;
                    let (sig, def) = (self.funcs[fi].sig.clone(), self.funcs[fi].def);
                    return match def {
                        None if super::builtins::is_builtin(name) => self.builtin(name, args, off),
                        None => self.unsup(
                            co,
                            format!("function `{name}` has no definition porf can run"),
                        ),
                        Some(id) => {
                            let mut argv = self.call_args(&sig, args, name, off)?;
                            self.at(off);
                            let what = format!("{name}()");
                            let record = self.record_result(&sig.ret, &mut argv, &what, off)?;
                            self.b.calls.push((id, off, argv.len()));
                            let dst =
                                (!sig.ret.is_void() && record.is_none()).then(|| self.b.reg());
                            self.b.emit(InstKind::Call {
                                dst,
                                func: id,
                                args: argv,
                            });
                            if let Some(v) = record {
                                return Ok(v);
                            }
                            Ok(dst.map_or(Val::Void, |d| Val::R(Operand::Reg(d), sig.ret.clone())))
                        }
                    };
                }
                Some(_) => {}
            }
        }
        let (target, t) = self.rvalue(&c.callee)?;
        let sig = match t.pointee().map(|p| &p.kind) {
            Some(Kind::Func(s)) => s.clone(),
            _ => {
                return self.err(
                    c.callee.span.start,
                    format!(
                        "called object of type `{}` is not a function",
                        self.show(&t)
                    ),
                )
            }
        };
        let mut argv = self.call_args(&sig, args, "function pointer", off)?;
        self.at(off);
        let record = self.record_result(&sig.ret, &mut argv, "(*f)()", off)?;
        let dst = (!sig.ret.is_void() && record.is_none()).then(|| self.b.reg());
        self.b.emit(InstKind::CallIndirect {
            dst,
            target,
            args: argv,
        });
        if let Some(v) = record {
            return Ok(v);
        }
        Ok(dst.map_or(Val::Void, |d| Val::R(Operand::Reg(d), sig.ret.clone())))
    }

    fn call_args(
        &mut self,
        sig: &FuncSig,
        args: &[Node<Expression>],
        name: &str,
        off: usize,
    ) -> R<Vec<Operand>> {
        let np = sig.params.len();
        if sig.prototyped && (args.len() < np || (args.len() > np && !sig.variadic)) {
            let which = if args.len() < np { "few" } else { "many" };
            return self.err(
                off,
                format!(
                    "too {which} arguments to `{name}` (expected {np}, have {})",
                    args.len()
                ),
            );
        }
        let mut out = Vec::with_capacity(args.len() + 1);
        for (i, a) in args.iter().enumerate() {
            if let Some(p) = sig.params.get(i).filter(|p| p.is_record()) {
                let p = p.clone();
                out.push(self.record_arg(a, &p)?);
                continue;
            }
            if sig.params.get(i).is_none() && self.expr_type(a)?.is_record() {
                return self.unsup(
                    a.span.start,
                    "passing a struct or union by value as a variadic argument is not supported",
                );
            }
            let (v, t) = self.rvalue(a)?;
            let v = match sig.params.get(i) {
                Some(p) => self.assign_convert(v, &t, p, a.span.start)?,
                // The default argument promotions (C11 6.5.2.2p6).
                None => match (t.int_ty(), t.float_ty()) {
                    (Some(it), _) => self.b.conv(v, it.scalar(), promote(it).scalar()),
                    (_, Some(ft)) => self.b.conv(v, ft.scalar(), Scalar::F64),
                    _ => v,
                },
            };
            out.push(v);
        }
        Ok(out)
    }

    fn unary(&mut self, u: &UnaryOperatorExpression, off: usize) -> R<Val> {
        use UnaryOperator as U;
        let x = &u.operand;
        match u.operator.node {
            U::PostIncrement => self.incdec(x, true, true, off),
            U::PostDecrement => self.incdec(x, false, true, off),
            U::PreIncrement => self.incdec(x, true, false, off),
            U::PreDecrement => self.incdec(x, false, false, off),
            U::Address => match self.expr(x)? {
                Val::Mem(a, t) => Ok(Val::R(a, CType::ptr(t))),
                v @ Val::Func(_) => {
                    let (o, t) = self.load(v, off)?;
                    Ok(Val::R(o, t))
                }
                Val::Reg(..) => self.unsup(off, "internal: address of a register variable"),
                v @ Val::Bits(..) => self.no_bits_address(&v, off).map(|()| Val::Void),
                _ => self.err(off, "cannot take the address of an rvalue"),
            },
            U::Indirection => {
                let (p, t) = self.rvalue(x)?;
                match t.pointee() {
                    Some(f) if matches!(f.kind, Kind::Func(_)) => Ok(Val::R(p, t)),
                    Some(pt) => Ok(Val::Mem(p, pt.clone())),
                    None => self.err(
                        off,
                        format!(
                            "indirection requires a pointer operand (`{}` is not a pointer)",
                            self.show(&t)
                        ),
                    ),
                }
            }
            U::Plus | U::Minus | U::Complement => {
                let (v, t) = self.rvalue(x)?;
                if let (Some(ft), false) = (t.float_ty(), u.operator.node == U::Complement) {
                    let v = match u.operator.node {
                        U::Minus => self.b.un(UnOp::Neg, v, ft.scalar()),
                        _ => v,
                    };
                    return Ok(Val::R(v, t.unqual()));
                }
                let Some(it) = t.int_ty() else {
                    return self.err(
                        off,
                        format!("invalid operand to unary operator (`{}`)", self.show(&t)),
                    );
                };
                let pt = promote(it);
                let v = self.b.conv(v, it.scalar(), pt.scalar());
                let v = match u.operator.node {
                    U::Plus => v,
                    U::Minus => self.b.un(UnOp::Neg, v, pt.scalar()),
                    _ => self.b.un(UnOp::BitNot, v, pt.scalar()),
                };
                Ok(Val::R(v, CType::int(pt)))
            }
            U::Negate => {
                let (v, t) = self.rvalue(x)?;
                let Some(s) = t.scalar() else {
                    return self.err(off, format!("invalid operand to `!` (`{}`)", self.show(&t)));
                };
                Ok(Val::R(
                    self.b.un(UnOp::LogNot, v, s),
                    CType::int(IntTy::Int),
                ))
            }
        }
    }

    fn cast(&mut self, c: &CastExpression, off: usize) -> R<Val> {
        let to = self.type_name(&c.type_name)?;
        if to.is_void() {
            self.expr(&c.expression)?;
            return Ok(Val::Void);
        }
        let (v, t) = self.rvalue(&c.expression)?;
        let v = self.cast_convert(v, &t, &to, off)?;
        Ok(Val::R(v, to.unqual()))
    }

    /// Index `a[i]`.
    pub fn index(&mut self, a: &Node<Expression>, i: &Node<Expression>, off: usize) -> R<Val> {
        let (va, ta) = self.rvalue(a)?;
        let (vi, ti) = self.rvalue(i)?;
        let (p, pt, n, nt) = if ta.is_ptr() {
            (va, ta, vi, ti)
        } else {
            (vi, ti, va, ta)
        };
        let Some(elem) = pt.pointee().cloned() else {
            return self.err(
                off,
                format!(
                    "subscripted value `{}` is not an array or pointer",
                    self.show(&pt)
                ),
            );
        };
        if !nt.is_integer() {
            return self.err(
                off,
                format!("array subscript is not an integer (`{}`)", self.show(&nt)),
            );
        }
        let addr = self.ptr_offset(p, &elem, n, &nt, false, off)?;
        Ok(Val::Mem(addr, elem))
    }

    /// `p ± n` for a pointer `p` to `elem` (scaled by the element size).
    pub fn ptr_offset(
        &mut self,
        p: Operand,
        elem: &CType,
        n: Operand,
        nt: &CType,
        sub: bool,
        off: usize,
    ) -> R<Operand> {
        let size = match (&elem.kind, self.types.size_of(elem)) {
            (Kind::Void, _) => 1,
            (_, Some(s)) => s,
            _ => {
                return self.err(
                    off,
                    format!(
                        "arithmetic on a pointer to incomplete type `{}`",
                        self.show(elem)
                    ),
                )
            }
        };
        let s = nt.scalar().unwrap_or(Scalar::LONG);
        let n = self.b.conv(n, s, Scalar::LONG);
        let scaled = self
            .b
            .bin(BinOp::Mul, n, Operand::Const(size as i64), Scalar::LONG);
        let op = if sub { BinOp::Sub } else { BinOp::Add };
        Ok(self.b.bin(op, p, scaled, Scalar::PTR))
    }
}
