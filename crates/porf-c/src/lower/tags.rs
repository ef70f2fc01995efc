//! Struct, union and enum specifiers: tags, scoping and definitions.
//!
//! A tag reference finds the innermost visible tag or declares an incomplete one in
//! the current scope; a definition completes a tag of the current scope or declares a
//! new one. Bit-fields are unsupported; an empty struct or union (a GNU extension)
//! has size 0, as in gcc; a flexible array member is
//! laid out as a zero-length array;
//! enumerators must fit in `int`.

use super::{Binding, Cx, Tag, R};
use crate::types::{CType, IntTy, Kind};
use lang_c::ast::*;
use lang_c::span::Node;

impl Cx<'_> {
    pub fn struct_type(&mut self, st: &Node<StructType>) -> R<CType> {
        let union = st.node.kind.node == StructKind::Union;
        let kw = if union { "union" } else { "struct" };
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let o = st.span.start;
        let check_kind = |cx: &Self, t: Tag| -> R<usize> {
            match t {
                Tag::Record(r) if cx.types.record(r).union == union => Ok(r),
                _ => cx.err(
                    o,
                    format!(
                        "`{}` defined as the wrong kind of tag",
                        tag.as_deref().unwrap_or("")
                    ),
                ),
            }
        };
        let Some(decls) = &st.node.declarations else {
            // A reference (or forward declaration).
            let name = tag.clone().unwrap_or_default();
            let id = match self.lookup_tag(&name) {
                Some(t) => check_kind(self, t)?,
                None => {
                    let id = self.types.new_record(union, tag.clone());
                    self.bind_tag(&name, Tag::Record(id));
                    id
                }
            };
            return Ok(CType::new(Kind::Record(id)));
        };
        let id = match tag.as_deref().and_then(|t| self.lookup_tag_here(t)) {
            Some(t) => {
                let id = check_kind(self, t)?;
                if self.types.record(id).def.is_some() {
                    return self.err(
                        o,
                        format!("redefinition of `{kw} {}`", tag.as_deref().unwrap_or("")),
                    );
                }
                id
            }
            None => {
                let id = self.types.new_record(union, tag.clone());
                if let Some(t) = &tag {
                    self.bind_tag(t, Tag::Record(id));
                }
                id
            }
        };
        let mut fields: Vec<(Option<String>, CType, Option<u32>)> = Vec::new();
        // A flexible array member (`T a[];`, C11 6.7.2.1p18) must be the last member; it
        // is laid out as a zero-length array (GCC's `T a[0]`): no bytes of its own, the
        // element's alignment, its elements wherever the allocation extends.
        let mut flexible = false;
        for d in decls {
            let f = match &d.node {
                StructDeclaration::Field(f) => f,
                StructDeclaration::StaticAssert(sa) => {
                    self.static_assert(sa)?;
                    continue;
                }
            };
            let base = self.spec_quals(&f.node.specifiers, f.span.start)?;
            if f.node.declarators.is_empty() && base.is_record() {
                fields.push((None, base.clone(), None));
            }
            for sd in &f.node.declarators {
                let width = match &sd.node.bit_width {
                    None => None,
                    Some(w) => match self.const_int(w)? {
                        Some((v, _)) if (0..=64).contains(&v) => Some(v as u32),
                        Some(_) => return self.err(w.span.start, "invalid bit-field width"),
                        None => {
                            return self
                                .err(w.span.start, "bit-field width is not an integer constant")
                        }
                    },
                };
                let Some(decl) = &sd.node.declarator else {
                    if width.is_some() {
                        fields.push((None, base.clone(), width));
                    }
                    continue;
                };
                let mut r = self.declarator(base.clone(), decl)?;
                let name = r.name.clone().unwrap_or_default();
                if flexible {
                    return self.err(r.off, "flexible array member is not the last member");
                }
                if let Kind::Array(e, None) = &r.ty.kind {
                    if union || fields.is_empty() {
                        return self.err(
                            r.off,
                            format!(
                                "flexible array member `{name}` in a {kw} without other members"
                            ),
                        );
                    }
                    flexible = true;
                    r.ty = CType::new(Kind::Array(e.clone(), Some(0)));
                }
                if let Kind::Func(_) = &r.ty.kind {
                    return self.err(r.off, format!("field `{name}` declared as a function"));
                }
                if fields.iter().any(|(n, _, _)| n.as_deref() == Some(&name)) {
                    return self.err(r.off, format!("duplicate member `{name}`"));
                }
                if !self.types.is_complete(&r.ty) {
                    return self.err(
                        r.off,
                        format!("field `{name}` has incomplete type `{}`", self.show(&r.ty)),
                    );
                }
                fields.push((Some(name), r.ty, width));
            }
        }
        match self.types.define_record_bits(id, fields) {
            Ok(()) => {}
            Err((m, true)) => return self.unsup(o, m),
            Err((m, false)) => return self.err(o, m),
        }
        Ok(CType::new(Kind::Record(id)))
    }

    pub fn enum_type(&mut self, et: &Node<EnumType>) -> R<CType> {
        let o = et.span.start;
        let tag = et.node.identifier.as_ref().map(|i| i.node.name.clone());
        if let Some(t) = &tag {
            match self.lookup_tag(t) {
                Some(Tag::Record(_)) => {
                    return self.err(o, format!("`{t}` defined as the wrong kind of tag"))
                }
                Some(Tag::Enum) => {}
                None => self.bind_tag(t, Tag::Enum),
            }
        }
        let mut next: i64 = 0;
        for e in &et.node.enumerators {
            let name = &e.node.identifier.node.name;
            let eo = e.node.identifier.span.start;
            let v = match &e.node.expression {
                Some(x) => match self.const_int(x)? {
                    Some((v, _)) => v,
                    None => {
                        return self
                            .err(x.span.start, "enumerator value is not an integer constant")
                    }
                },
                None => next,
            };
            if i32::try_from(v).is_err() {
                return self.unsup(eo, format!("enumerator `{name}` does not fit in `int`"));
            }
            if self.lookup_here(name).is_some() {
                return self.err(eo, format!("redefinition of `{name}`"));
            }
            self.bind(name, Binding::Enum(v));
            next = v + 1;
        }
        Ok(CType::int(IntTy::Int))
    }
}
