//! Declaration specifiers, declarators and declarations.
//!
//! A declarator's derived parts come from `lang-c` in source order: the pointer
//! prefixes first (applied in order), then the array/function suffixes (applied from
//! the last to the first), then the nested declarator, which receives the type built
//! so far. Parameters are adjusted (arrays and functions become pointers). `long
//! double`, atomic floating types, VLAs other than block-scope `T a[n]` (`vla`), K&R
//! parameter lists and atomic structs porf cannot hold as one cell
//! (`Types::atomic_record`) are
//! unsupported; `_Alignas` sets the alignment the object is laid out with.

use super::{Binding, Cx, FuncDecl, R};
use crate::types::{CType, FloatTy, FuncSig, IntTy, Kind};
use lang_c::ast::*;
use lang_c::span::Node;
use std::rc::Rc;

/// Declaration specifiers, resolved.
pub(crate) struct Specs {
    pub ty: CType,
    pub storage: Option<StorageClassSpecifier>,
    /// `_Thread_local` (or GNU `__thread`) was among the specifiers.
    pub thread_local: bool,
    /// The strictest `_Alignas` among the specifiers (1 without one).
    pub align: u64,
}

/// A parameter of a function declarator.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub name: Option<String>,
    pub ty: CType,
    pub off: usize,
}

/// The result of a declarator.
pub(crate) struct Declared {
    pub name: Option<String>,
    pub off: usize,
    pub ty: CType,
    /// Parameters of the outermost function type constructor, if the type is one.
    pub params: Option<Vec<Param>>,
}

/// The identifier a declarator declares, with its offset.
pub(crate) fn declarator_name(d: &Declarator) -> Option<(String, usize)> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some((id.node.name.clone(), id.span.start)),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

impl Cx<'_> {
    pub fn specs(&mut self, list: &[Node<DeclarationSpecifier>], off: usize) -> R<Specs> {
        let mut storage: Option<StorageClassSpecifier> = None;
        let mut thread_local = false;
        let mut tys = Vec::new();
        let mut atomic = false;
        let mut align = 1;
        for s in list {
            match &s.node {
                DeclarationSpecifier::StorageClass(sc) => {
                    if sc.node == StorageClassSpecifier::ThreadLocal {
                        thread_local = true;
                        continue;
                    }
                    if storage.is_some() {
                        return self.err(
                            sc.span.start,
                            "more than one storage class in a declaration",
                        );
                    }
                    storage = Some(sc.node.clone());
                }
                DeclarationSpecifier::TypeSpecifier(t) => tys.push(t),
                DeclarationSpecifier::TypeQualifier(q) => atomic |= q.node == TypeQualifier::Atomic,
                DeclarationSpecifier::Function(_) | DeclarationSpecifier::Extension(_) => {}
                DeclarationSpecifier::Alignment(a) => align = align.max(self.alignas(a)?),
            }
        }
        let ty = self.base_type(&tys, atomic, off)?;
        Ok(Specs {
            ty,
            storage,
            thread_local,
            align,
        })
    }

    /// `_Alignas(T)` or `_Alignas(N)` (C11 6.7.5): the alignment it asks for; 0 asks
    /// for none (1 here). A constant must be 0 or a power of two.
    fn alignas(&mut self, a: &Node<AlignmentSpecifier>) -> R<u64> {
        let o = a.span.start;
        match &a.node {
            AlignmentSpecifier::Type(tn) => {
                let t = self.type_name(tn)?;
                match self.types.align_of(&t) {
                    Some(n) => Ok(n),
                    None => self.err(
                        o,
                        format!("`_Alignas` of incomplete type `{}`", self.show(&t)),
                    ),
                }
            }
            AlignmentSpecifier::Constant(e) => match self.const_int(e)? {
                Some((0, _)) => Ok(1),
                Some((n, _)) if n > 0 && (n as u64).is_power_of_two() && n <= 1 << 12 => {
                    Ok(n as u64)
                }
                Some((n, _)) => self.err(
                    o,
                    format!("requested alignment {n} is not a positive power of two up to 4096"),
                ),
                None => self.err(o, "`_Alignas` needs an integer constant expression"),
            },
        }
    }

    /// The type of a type name (casts, `sizeof`, `_Atomic(...)`).
    pub fn type_name(&mut self, tn: &Node<TypeName>) -> R<CType> {
        let base = self.spec_quals(&tn.node.specifiers, tn.span.start)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.declarator(base, d)?.ty),
            None => Ok(base),
        }
    }

    pub fn spec_quals(&mut self, list: &[Node<SpecifierQualifier>], off: usize) -> R<CType> {
        let mut tys = Vec::new();
        let mut atomic = false;
        for s in list {
            match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => tys.push(t),
                SpecifierQualifier::TypeQualifier(q) => atomic |= q.node == TypeQualifier::Atomic,
                SpecifierQualifier::Extension(_) => {}
            }
        }
        self.base_type(&tys, atomic, off)
    }

    fn base_type(&mut self, tys: &[&Node<TypeSpecifier>], atomic: bool, off: usize) -> R<CType> {
        let (mut void, mut char, mut short, mut int, mut long, mut signed, mut unsigned, mut bool_) =
            (0, 0, 0, 0, 0, 0, 0, 0);
        let (mut float, mut double) = (0, 0);
        let mut other: Option<CType> = None;
        let mut at = off;
        for t in tys {
            at = at.min(t.span.start);
            let o = t.span.start;
            let named = |cx: &mut Self, ty: CType| -> R<Option<CType>> {
                if other.is_some() {
                    return cx.err(o, "two or more data types in declaration specifiers");
                }
                Ok(Some(ty))
            };
            match &t.node {
                TypeSpecifier::Void => void += 1,
                TypeSpecifier::Char => char += 1,
                TypeSpecifier::Short => short += 1,
                TypeSpecifier::Int => int += 1,
                TypeSpecifier::Long => long += 1,
                TypeSpecifier::Signed => signed += 1,
                TypeSpecifier::Unsigned => unsigned += 1,
                TypeSpecifier::Bool => bool_ += 1,
                TypeSpecifier::Float => float += 1,
                TypeSpecifier::Double => double += 1,
                TypeSpecifier::TS18661Float(_) => {
                    if let Some(u) = self.map.int128_at(o) {
                        // `__int128` with at most `signed`/`unsigned` beside it.
                        let others = tys.iter().filter(|t| {
                            !matches!(
                                t.node,
                                TypeSpecifier::Unsigned
                                    | TypeSpecifier::Signed
                                    | TypeSpecifier::TS18661Float(_)
                            )
                        });
                        let unsigned = tys
                            .iter()
                            .filter(|t| matches!(t.node, TypeSpecifier::Unsigned))
                            .count();
                        let signed = tys
                            .iter()
                            .filter(|t| matches!(t.node, TypeSpecifier::Signed))
                            .count();
                        if others.count() > 0
                            || unsigned + signed > 1
                            || (u && unsigned + signed > 0)
                        {
                            return self.err(o, "invalid combination of type specifiers");
                        }
                        let it = if u || unsigned > 0 {
                            IntTy::UInt128
                        } else {
                            IntTy::Int128
                        };
                        let mut ty = CType::int(it);
                        if atomic {
                            ty = self.make_atomic(ty, o)?;
                        }
                        return Ok(ty);
                    }
                    return self.unsup(o, "TS 18661 floating types are not supported");
                }
                TypeSpecifier::Complex => return self.unsup(o, "complex types are not supported"),
                TypeSpecifier::Atomic(tn) => {
                    let inner = self.type_name(tn)?;
                    let ty = self.make_atomic(inner, o)?;
                    other = named(self, ty)?;
                }
                TypeSpecifier::Struct(st) => {
                    let ty = self.struct_type(st)?;
                    other = named(self, ty)?;
                }
                TypeSpecifier::Enum(et) => {
                    let ty = self.enum_type(et)?;
                    other = named(self, ty)?;
                }
                TypeSpecifier::TypedefName(id) => {
                    let ty = match self.lookup(&id.node.name) {
                        Some(Binding::Typedef(t)) => t.clone(),
                        Some(Binding::Poison(d)) => return Err((**d).clone()),
                        _ if id.node.name == "__builtin_va_list" => super::varargs::va_list_type(),
                        _ => return self.err(o, format!("unknown type name `{}`", id.node.name)),
                    };
                    other = named(self, ty)?;
                }
                TypeSpecifier::TypeOf(to) => {
                    let ty = match &to.node {
                        TypeOf::Type(tn) => self.type_name(tn)?,
                        TypeOf::Expression(e) => self.expr_type(e)?,
                    };
                    other = named(self, ty)?;
                }
            }
        }
        use IntTy::*;
        let basic = void + char + short + int + long + signed + unsigned + bool_ + float + double;
        let bad = || "invalid combination of type specifiers".to_string();
        let ty = if let Some(t) = other {
            if basic > 0 {
                return self.err(at, bad());
            }
            t
        } else {
            if basic == 0 {
                return self.err(at, "type specifier missing (implicit `int` is not C11)");
            }
            if signed + unsigned > 1 || int > 1 || long > 2 || (short > 0 && long > 0) {
                return self.err(at, bad());
            }
            let sized = char + short + long;
            if float + double > 0 {
                if float + double > 1 || basic > float + double + long {
                    return self.err(at, bad());
                }
                match (float, long) {
                    (1, 0) => CType::new(Kind::Float(FloatTy::Float)),
                    (0, 0) => CType::new(Kind::Float(FloatTy::Double)),
                    (0, 1) => return self.unsup(at, "`long double` is not supported"),
                    _ => return self.err(at, bad()),
                }
            } else if void > 0 {
                if basic > 1 {
                    return self.err(at, bad());
                }
                CType::void()
            } else if bool_ > 0 {
                if basic > 1 {
                    return self.err(at, bad());
                }
                CType::int(Bool)
            } else if char > 0 {
                if char > 1 || int > 0 || sized > 1 {
                    return self.err(at, bad());
                }
                CType::int(match (signed, unsigned) {
                    (1, _) => SChar,
                    (_, 1) => UChar,
                    _ => Char,
                })
            } else {
                let t = match (short, long) {
                    (1, _) => Short,
                    (_, 1) => Long,
                    (_, 2) => LongLong,
                    _ => Int,
                };
                CType::int(if unsigned > 0 { t.to_unsigned() } else { t })
            }
        };
        if atomic {
            return self.make_atomic(ty, at);
        }
        Ok(ty)
    }

    fn make_atomic(&self, mut ty: CType, off: usize) -> R<CType> {
        match ty.kind {
            Kind::Float(_) => {
                return self.unsup(
                    off,
                    format!(
                        "atomic floating-point objects (`_Atomic {}`) are not supported",
                        self.show(&ty)
                    ),
                )
            }
            Kind::Record(_) => {
                if let Err(why) = self.types.atomic_record(&ty) {
                    return self.unsup(
                        off,
                        format!("`_Atomic {}` is not supported: {why}", self.show(&ty)),
                    );
                }
            }
            Kind::Array(..) | Kind::Func(_) | Kind::Void => {
                return self.err(
                    off,
                    format!("`_Atomic` cannot qualify `{}`", self.show(&ty)),
                );
            }
            _ => {}
        }
        ty.atomic = true;
        Ok(ty)
    }

    pub fn declarator(&mut self, base: CType, d: &Node<Declarator>) -> R<Declared> {
        let derived = &d.node.derived;
        let split = derived
            .iter()
            .position(|x| !matches!(x.node, DerivedDeclarator::Pointer(_)))
            .unwrap_or(derived.len());
        let mut ty = base;
        let mut params = None;
        for p in &derived[..split] {
            if let DerivedDeclarator::Pointer(quals) = &p.node {
                ty = CType::ptr(ty);
                let atomic = quals.iter().any(|q| {
                    matches!(&q.node, PointerQualifier::TypeQualifier(t) if t.node == TypeQualifier::Atomic)
                });
                if atomic {
                    ty.atomic = true;
                }
            }
        }
        for s in derived[split..].iter().rev() {
            let o = s.span.start;
            match &s.node {
                DerivedDeclarator::Pointer(_) => {
                    return self.err(o, "unexpected pointer declarator")
                }
                DerivedDeclarator::Array(a) => ty = self.array_of(ty, &a.node.size, o)?,
                DerivedDeclarator::Function(fd) => {
                    if ty.is_array() || matches!(ty.kind, Kind::Func(_)) {
                        return self.err(o, "a function cannot return an array or a function");
                    }
                    let (ps, variadic) = self.params(&fd.node)?;
                    let sig = FuncSig {
                        ret: ty.unqual(),
                        params: ps.iter().map(|p| p.ty.clone()).collect(),
                        variadic,
                        prototyped: true,
                    };
                    ty = CType::new(Kind::Func(Rc::new(sig)));
                    params = Some(ps);
                }
                DerivedDeclarator::KRFunction(ids) => {
                    if let Some(id) = ids.first() {
                        return self
                            .unsup(id.span.start, "K&R-style parameter lists are not supported");
                    }
                    let sig = FuncSig {
                        ret: ty.unqual(),
                        params: Vec::new(),
                        variadic: false,
                        prototyped: false,
                    };
                    ty = CType::new(Kind::Func(Rc::new(sig)));
                    params = Some(Vec::new());
                }
                DerivedDeclarator::Block(_) => {
                    return self.unsup(o, "block pointers are not supported")
                }
            }
        }
        match &d.node.kind.node {
            DeclaratorKind::Abstract => Ok(Declared {
                name: None,
                off: d.span.start,
                ty,
                params,
            }),
            DeclaratorKind::Identifier(id) => Ok(Declared {
                name: Some(id.node.name.clone()),
                off: id.span.start,
                ty,
                params,
            }),
            DeclaratorKind::Declarator(inner) => {
                let mut r = self.declarator(ty, inner)?;
                if r.params.is_none() {
                    r.params = params;
                }
                Ok(r)
            }
        }
    }

    fn array_of(&mut self, elem: CType, size: &ArraySize, off: usize) -> R<CType> {
        if matches!(elem.kind, Kind::Func(_)) || elem.is_void() {
            return self.err(off, format!("array of `{}`", self.show(&elem)));
        }
        if !self.types.is_complete(&elem) {
            return self.err(
                off,
                format!("array has incomplete element type `{}`", self.show(&elem)),
            );
        }
        let n = match size {
            ArraySize::Unknown => None,
            ArraySize::VariableUnknown => {
                return self.unsup(off, "this variable-length array is not supported (porf supports block-scope `T a[n]` without initializer)");
            }
            ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => {
                match self.const_int(e)? {
                    None => {
                        return self.unsup(e.span.start, "this variable-length array is not supported (porf supports block-scope `T a[n]` without initializer)")
                    }
                    Some((v, t)) => {
                        let neg = v < 0 && t.int_ty().is_some_and(|i| i.signed());
                        if neg {
                            return self.err(e.span.start, "array size is negative");
                        }
                        Some(v as u64)
                    }
                }
            }
        };
        let arr = CType::new(Kind::Array(Rc::new(elem), n));
        if n.is_some()
            && self
                .types
                .size_of(&arr)
                .is_none_or(|s| s > crate::types::MAX_OBJECT)
        {
            return self.unsup(off, "array is too large");
        }
        Ok(arr)
    }

    /// Parameters of a prototype (in their own scope); `(void)` is no parameters.
    pub fn params(&mut self, fd: &FunctionDeclarator) -> R<(Vec<Param>, bool)> {
        self.push_scope();
        let r = self.params_in_scope(fd);
        self.pop_scope();
        r
    }

    fn params_in_scope(&mut self, fd: &FunctionDeclarator) -> R<(Vec<Param>, bool)> {
        let mut out = Vec::new();
        let n = fd.parameters.len();
        for p in &fd.parameters {
            let o = p.span.start;
            let specs = self.specs(&p.node.specifiers, o)?;
            if matches!(&specs.storage, Some(s) if *s != StorageClassSpecifier::Register) {
                return self.err(o, "invalid storage class for a parameter");
            }
            let (name, off, ty) = match &p.node.declarator {
                Some(d) => {
                    let r = self.declarator(specs.ty, d)?;
                    (r.name, r.off, r.ty)
                }
                None => (None, o, specs.ty),
            };
            if ty.is_void() {
                if n == 1 && name.is_none() && fd.ellipsis == Ellipsis::None {
                    return Ok((Vec::new(), false));
                }
                return self.err(o, "parameter has type `void`");
            }
            let ty = match &ty.kind {
                Kind::Array(e, _) => CType::ptr((**e).clone()),
                Kind::Func(_) => CType::ptr(ty),
                _ => ty,
            };
            out.push(Param { name, ty, off });
        }
        Ok((out, fd.ellipsis == Ellipsis::Some))
    }

    /// A declaration at file scope (`file_scope`) or in a block.
    pub fn declaration(&mut self, d: &Node<Declaration>, file_scope: bool) -> R<()> {
        let specs = self.specs(&d.node.specifiers, d.span.start)?;
        self.align_req = specs.align;
        let r = self.declarators(d, &specs, file_scope);
        self.align_req = 1;
        r
    }

    fn declarators(&mut self, d: &Node<Declaration>, specs: &Specs, file_scope: bool) -> R<()> {
        for id in &d.node.declarators {
            if let (false, None, None, Some((name, o, e))) = (
                file_scope,
                &specs.storage,
                &id.node.initializer,
                super::vla::vla_shape(&id.node.declarator.node),
            ) {
                if self.const_int(e)?.is_none() && !specs.thread_local {
                    self.vla_local(&name, specs.ty.clone(), e, o)?;
                    continue;
                }
            }
            let decl = self.declarator(specs.ty.clone(), &id.node.declarator)?;
            let Some(name) = decl.name.clone() else {
                return self.err(decl.off, "declaration without a name");
            };
            let init = id.node.initializer.as_ref();
            if let (Some(i), true) = (
                init,
                matches!(specs.storage, Some(StorageClassSpecifier::Typedef)),
            ) {
                return self.err(i.span.start, format!("typedef `{name}` is initialized"));
            }
            if specs.storage == Some(StorageClassSpecifier::Typedef) {
                self.typedef(&name, decl.ty, decl.off)?;
                continue;
            }
            if let Kind::Func(sig) = &decl.ty.kind {
                if let Some(i) = init {
                    return self.err(
                        i.span.start,
                        format!("function `{name}` is initialized like a variable"),
                    );
                }
                let fi = self.declare_func(&name, sig.clone(), decl.off)?;
                self.bind(&name, Binding::Func(fi));
                continue;
            }
            if decl.ty.is_void() {
                return self.err(decl.off, format!("variable `{name}` declared `void`"));
            }
            let storage = specs.storage.clone();
            if specs.thread_local {
                match (file_scope, &storage) {
                    (_, Some(StorageClassSpecifier::Typedef))
                    | (_, Some(StorageClassSpecifier::Auto | StorageClassSpecifier::Register))
                    | (false, None) => {
                        return self.err(
                            decl.off,
                            format!("`_Thread_local` variable `{name}` must have static storage (file scope, `static` or `extern`)"),
                        );
                    }
                    _ => {}
                }
            }
            let tls = specs.thread_local;
            match (file_scope, storage) {
                (true, Some(StorageClassSpecifier::Auto | StorageClassSpecifier::Register)) => {
                    return self.err(
                        d.span.start,
                        "file-scope declaration with `auto` or `register`",
                    );
                }
                (true, s) => {
                    let ext = s == Some(StorageClassSpecifier::Extern);
                    self.global_var(&name, decl.ty, ext, tls, init, decl.off)?;
                }
                (false, Some(StorageClassSpecifier::Static)) => {
                    self.static_local(&name, decl.ty, tls, init, decl.off)?;
                }
                (false, Some(StorageClassSpecifier::Extern)) => {
                    if let Some(i) = init {
                        return self.err(
                            i.span.start,
                            format!("block-scope `extern` variable `{name}` is initialized"),
                        );
                    }
                    self.global_var(&name, decl.ty, true, tls, None, decl.off)?;
                }
                (false, _) => self.local_var(&name, decl.ty, init, decl.off)?,
            }
        }
        Ok(())
    }

    fn typedef(&mut self, name: &str, ty: CType, off: usize) -> R<()> {
        match self.lookup_here(name) {
            Some(Binding::Typedef(t)) if self.types.compatible(t, &ty) => Ok(()),
            Some(_) => self.err(off, format!("conflicting redefinition of `{name}`")),
            None => {
                self.bind(name, Binding::Typedef(ty));
                Ok(())
            }
        }
    }

    /// Declares (or redeclares) function `name`; returns its index in `funcs`.
    pub fn declare_func(&mut self, name: &str, sig: Rc<FuncSig>, off: usize) -> R<usize> {
        if let Some(&fi) = self.func_names.get(name) {
            let old = CType::new(Kind::Func(self.funcs[fi].sig.clone()));
            let new = CType::new(Kind::Func(sig.clone()));
            if !super::builtins::is_builtin(name) && !self.types.compatible(&old, &new) {
                return self.err(off, format!("conflicting types for `{name}`"));
            }
            if sig.prototyped && !self.funcs[fi].sig.prototyped {
                self.funcs[fi].sig = sig;
            }
            return Ok(fi);
        }
        if self.global_names.contains_key(name)
            || matches!(self.scopes[0].names.get(name), Some(b) if !matches!(b, Binding::Func(_)))
        {
            return self.err(
                off,
                format!("`{name}` redeclared as a different kind of symbol"),
            );
        }
        self.funcs.push(FuncDecl {
            name: name.to_string(),
            sig,
            def: self.def_ids.get(name).copied(),
        });
        let fi = self.funcs.len() - 1;
        self.func_names.insert(name.to_string(), fi);
        self.scopes[0]
            .names
            .insert(name.to_string(), Binding::Func(fi));
        Ok(fi)
    }

    pub fn static_assert(&mut self, sa: &Node<StaticAssert>) -> R<()> {
        let e = &sa.node.expression;
        match self.const_int(e)? {
            None => self.err(
                e.span.start,
                "static assertion expression is not an integer constant",
            ),
            Some((0, _)) => {
                let msg = sa.node.message.node.join("");
                self.err(sa.span.start, format!("static assertion failed: {msg}"))
            }
            Some(_) => Ok(()),
        }
    }
}
