//! `locations`, `filter` and the final condition: herd's proposition grammar.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn constraints(&mut self) -> R<Constraints> {
        let mut locations = Vec::new();
        let (t, _) = self.peek()?;
        if t == Tok::Ident("locations".into()) {
            self.next()?;
            self.expect("[", "after `locations`")?;
            loop {
                let (t, off) = self.peek()?;
                match t {
                    Tok::Punct("]") => {
                        self.next()?;
                        break;
                    }
                    Tok::Punct(";") => {
                        self.next()?;
                    }
                    Tok::Eof => return self.err_at(off, "`locations [` is never closed"),
                    _ => {
                        let l = self.loc()?;
                        locations.push((l, self.at(off)));
                        // An optional type annotation: `x int*`.
                        while let (Tok::Ident(_) | Tok::Punct("*"), _) = self.peek()? {
                            self.next()?;
                        }
                    }
                }
            }
        }
        let mut filter = None;
        if self.peek()?.0 == Tok::Ident("filter".into()) {
            self.next()?;
            filter = Some(self.prop()?);
        }
        let (t, off) = self.next()?;
        let cond = match t {
            Tok::Ident(k) if k == "exists" || k == "final" => Cond {
                quant: Quant::Exists,
                prop: self.prop()?,
            },
            Tok::Ident(k) if k == "forall" => Cond {
                quant: Quant::Forall,
                prop: self.prop()?,
            },
            Tok::Punct("~") => {
                let (t2, off2) = self.next()?;
                if t2 != Tok::Ident("exists".into()) {
                    return self.err_at(off2, format!("expected `exists` after `~`, found {t2}"));
                }
                Cond {
                    quant: Quant::NotExists,
                    prop: self.prop()?,
                }
            }
            Tok::Punct("(") => {
                self.pos = off;
                Cond {
                    quant: Quant::Exists,
                    prop: self.prop()?,
                }
            }
            Tok::Eof => Cond {
                quant: Quant::Forall,
                prop: Prop::And(vec![]),
            },
            Tok::Ident(k) if thread_name(&k).is_some() => {
                return self.err_at(off, format!("expected `(` after `{k}`"));
            }
            _ => {
                return self.err_at(
                    off,
                    format!(
                        "expected the final condition (`exists`, `~exists` or `forall`), found {t}"
                    ),
                )
            }
        };
        if self.peek()?.0 == Tok::Punct(";") {
            self.next()?;
        }
        let kinds = if self.peek()?.0 == Tok::Ident("with".into()) {
            self.next()?;
            self.kinds()?
        } else {
            Vec::new()
        };
        let (t, off) = self.next()?;
        if t != Tok::Eof {
            return self.err_at(off, format!("unexpected {t} after the final condition"));
        }
        Ok((locations, filter, cond, kinds))
    }

    /// herd's `with NAME: exists; NAME: ~exists; NAME: forall;` after a condition: the
    /// verdict some other model expects, information only.
    pub(super) fn kinds(&mut self) -> R<Vec<(String, Quant)>> {
        let mut kinds = Vec::new();
        loop {
            let (t, off) = self.next()?;
            let Tok::Ident(name) = t else {
                if kinds.is_empty() {
                    return self.err_at(
                        off,
                        format!("expected `NAME: exists` after `with`, found {t}"),
                    );
                }
                self.pos = off;
                return Ok(kinds);
            };
            self.expect(":", "after the name of a `with` item")?;
            let (q, qo) = self.next()?;
            let quant = match q {
                Tok::Ident(k) if k == "exists" => Quant::Exists,
                Tok::Ident(k) if k == "forall" => Quant::Forall,
                Tok::Punct("~") if self.peek()?.0 == Tok::Ident("exists".into()) => {
                    self.next()?;
                    Quant::NotExists
                }
                _ => {
                    return self.err_at(
                        qo,
                        format!("expected `exists`, `~exists` or `forall`, found {q}"),
                    )
                }
            };
            kinds.push((name, quant));
            if self.peek()?.0 == Tok::Punct(";") {
                self.next()?;
            }
        }
    }

    /// `or := and ('\/' and)*`
    pub(super) fn prop(&mut self) -> R<Prop> {
        let mut ps = vec![self.prop_and()?];
        while self.peek()?.0 == Tok::Punct("\\/") {
            self.next()?;
            ps.push(self.prop_and()?);
        }
        Ok(fold(ps, Prop::Or))
    }

    /// `and := imp ('/\' imp)*`
    pub(super) fn prop_and(&mut self) -> R<Prop> {
        let mut ps = vec![self.prop_imp()?];
        while self.peek()?.0 == Tok::Punct("/\\") {
            self.next()?;
            ps.push(self.prop_imp()?);
        }
        Ok(fold(ps, Prop::And))
    }

    /// `imp := not ('=>' imp)?`
    pub(super) fn prop_imp(&mut self) -> R<Prop> {
        let a = self.prop_not()?;
        if self.peek()?.0 == Tok::Punct("=>") {
            self.next()?;
            let b = self.prop_imp()?;
            return Ok(Prop::Implies(Box::new(a), Box::new(b)));
        }
        Ok(a)
    }

    pub(super) fn prop_not(&mut self) -> R<Prop> {
        let (t, off) = self.peek()?;
        match t {
            Tok::Punct("~") => {
                self.next()?;
                Ok(Prop::Not(Box::new(self.prop_not()?)))
            }
            Tok::Ident(k) if k == "not" => {
                self.next()?;
                Ok(Prop::Not(Box::new(self.prop_not()?)))
            }
            Tok::Ident(k) if k == "true" => {
                self.next()?;
                Ok(Prop::And(vec![]))
            }
            Tok::Ident(k) if k == "false" => {
                self.next()?;
                Ok(Prop::Or(vec![]))
            }
            Tok::Punct("(") => {
                self.next()?;
                let p = self.prop()?;
                let (t, o) = self.next()?;
                if t != Tok::Punct(")") {
                    return self.err_at(o, format!("expected `)` or an operator, found {t}"));
                }
                Ok(p)
            }
            Tok::Eof => self.err_at(off, "unexpected end of file: expected a proposition"),
            _ => self.atom(),
        }
    }

    /// A location: `x`, `[x]`, `0:r0` (or `P0:r0`).
    pub(super) fn loc(&mut self) -> R<Loc> {
        let (t, off) = self.next()?;
        match t {
            Tok::Punct("[") => {
                let (x, xo) = self.next()?;
                let Tok::Ident(x) = x else {
                    return self
                        .err_at(xo, format!("expected a location name after `[`, found {x}"));
                };
                self.expect("]", "closing the location")?;
                Ok(Loc::Global(x))
            }
            Tok::Num(_) | Tok::Ident(_) if self.peek()?.0 == Tok::Punct(":") => {
                let id = self.thread_id(&t, off)?;
                self.next()?;
                let (r, ro) = self.next()?;
                let Tok::Ident(r) = r else {
                    return self
                        .err_at(ro, format!("expected a register name after `:`, found {r}"));
                };
                Ok(Loc::Reg(id, r))
            }
            Tok::Ident(x) if !is_keyword(&x) => Ok(Loc::Global(x)),
            _ => self.err_at(
                off,
                format!("expected a location (`x`, `[x]` or `0:r0`), found {t}"),
            ),
        }
    }

    pub(super) fn atom(&mut self) -> R<Prop> {
        let (_, off) = self.peek()?;
        let pos = self.at(off);
        let l = self.loc()?;
        let (t, eo) = self.next()?;
        let negate = match t {
            Tok::Punct("=") | Tok::Punct("==") => false,
            Tok::Punct("!=") => true,
            _ => return self.err_at(eo, format!("expected `=` after `{l}`, found {t}")),
        };
        let (t, vo) = self.peek()?;
        let atom = match t {
            Tok::Num(_) if self.is_reg_next(vo)? => Atom::EqLoc(l, self.loc()?),
            Tok::Num(v) => {
                self.next()?;
                Atom::Eq(l, Value::Int(v))
            }
            Tok::Punct("[") => Atom::EqLoc(l, self.loc()?),
            Tok::Punct("*") => {
                self.next()?;
                Atom::EqLoc(l, self.loc()?)
            }
            Tok::Ident(_) if self.is_reg_next(vo)? => Atom::EqLoc(l, self.loc()?),
            Tok::Ident(x) if !is_keyword(&x) => {
                self.next()?;
                Atom::Eq(l, Value::Addr(x))
            }
            _ => {
                return self.err_at(
                    vo,
                    format!("expected a value (an integer or a location) after `=`, found {t}"),
                )
            }
        };
        let a = Prop::Atom(atom, pos);
        Ok(if negate { Prop::Not(Box::new(a)) } else { a })
    }

    /// Whether the token at `off` is followed by `:` (a register `T:reg`).
    pub(super) fn is_reg_next(&mut self, off: usize) -> R<bool> {
        let save = self.pos;
        self.pos = off;
        self.next()?;
        let colon = self.peek()?.0 == Tok::Punct(":");
        self.pos = save;
        Ok(colon)
    }
}
