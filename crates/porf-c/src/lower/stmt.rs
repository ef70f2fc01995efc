//! Function definitions and statements.
//!
//! Control flow becomes blocks: `if` and the loops branch on conditions with
//! short-circuiting; every loop emits `LoopEnter` before it and `LoopIter` at the start
//! of each execution of its body, and records its back edge's target as a
//! `LoopHead::Statement` (for `crate::unroll`); `switch` becomes a chain of comparisons against the
//! case values (in source order) jumping into the body, so fall-through is preserved;
//! `goto` jumps to per-function label blocks. A pre-pass over each body collects the
//! names whose address is taken (`&x`): such locals, and all arrays, structs and
//! unions, live in frame memory (in the shared frame when their address may reach
//! another thread, `escape`); other scalar locals live in registers.

use super::expr::Val;
use super::{Binding, Cx, FnState, Home, R};
use crate::ir::{BinOp, BlockId, InstKind, Operand, Terminator};
use crate::types::{promote, CType, Kind};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};
use std::collections::{HashMap, HashSet};

/// Names `&x` is applied to in a function body.
struct AddrTaken(HashSet<String>);

impl<'ast> Visit<'ast> for AddrTaken {
    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        if u.operator.node == UnaryOperator::Address {
            if let Expression::Identifier(id) = &u.operand.node {
                self.0.insert(id.node.name.clone());
            }
        }
        visit::visit_unary_operator_expression(self, u, span);
    }
}

/// Case and default labels of a switch body (not of nested switches), in order.
struct Cases<'a>(Vec<&'a Node<Label>>);

impl<'a> Cases<'a> {
    fn collect(&mut self, s: &'a Node<Statement>) {
        match &s.node {
            Statement::Labeled(l) => {
                if !matches!(l.node.label.node, Label::Identifier(_)) {
                    self.0.push(&l.node.label);
                }
                self.collect(&l.node.statement);
            }
            Statement::Compound(items) => {
                for i in items {
                    if let BlockItem::Statement(s) = &i.node {
                        self.collect(s);
                    }
                }
            }
            Statement::If(i) => {
                self.collect(&i.node.then_statement);
                if let Some(e) = &i.node.else_statement {
                    self.collect(e);
                }
            }
            Statement::While(w) => self.collect(&w.node.statement),
            Statement::DoWhile(w) => self.collect(&w.node.statement),
            Statement::For(f) => self.collect(&f.node.statement),
            _ => {}
        }
    }
}

impl Cx<'_> {
    /// A function definition; an unsupported construct in its signature or (where a
    /// statement cannot be replaced alone, see `lazy`) its body makes the whole body
    /// that run-time error.
    pub fn function_definition(&mut self, fd: &Node<FunctionDefinition>) -> R<()> {
        let Some((name, _)) = super::decl::declarator_name(&fd.node.declarator.node) else {
            return self.err(fd.span.start, "function definition without a name");
        };
        let id = self.def_ids[&name];
        if self.poisoned(&name) {
            let d = match self.scopes[0].names.get(&name) {
                Some(Binding::Poison(d)) => (**d).clone(),
                _ => unreachable!("poisoned"),
            };
            self.unsupported_function(fd, id, &name, None, &d);
            return Ok(());
        }
        let mut nparams = None;
        match self.function_definition_now(fd, &mut nparams) {
            Err(d) if d.kind == crate::diag::DiagKind::Unsupported => {
                self.unsupported_function(fd, id, &name, nparams, &d);
                Ok(())
            }
            r => r,
        }
    }

    fn function_definition_now(
        &mut self,
        fd: &Node<FunctionDefinition>,
        nparams_out: &mut Option<u32>,
    ) -> R<()> {
        let specs = self.specs(&fd.node.specifiers, fd.span.start)?;
        if let Some(d) = fd.node.declarations.first() {
            return self.unsup(
                d.span.start,
                "K&R-style function definitions are not supported",
            );
        }
        if matches!(
            specs.storage,
            Some(
                StorageClassSpecifier::Typedef
                    | StorageClassSpecifier::Auto
                    | StorageClassSpecifier::Register
            )
        ) {
            return self.err(fd.span.start, "invalid storage class for a function");
        }
        let decl = self.declarator(specs.ty, &fd.node.declarator)?;
        let (Some(name), Kind::Func(sig)) = (decl.name.clone(), &decl.ty.kind) else {
            return self.err(
                decl.off,
                "function definition without a function declarator",
            );
        };
        let sig = sig.clone();
        let params = decl.params.clone().unwrap_or_default();
        let off = decl.off;
        if sig.variadic && sig.ret.is_record() {
            return self.unsup(
                off,
                "a variadic function returning a struct or union is not supported",
            );
        }
        if !sig.ret.is_void() && !self.types.is_complete(&sig.ret) {
            return self.err(off, "function returns an incomplete type");
        }
        self.declare_func(&name, sig.clone(), off)?;
        let id = self.def_ids[&name];
        let fi = self.func_names[&name];
        if sig.prototyped {
            // Later calls check against the definition (an `f()` definition keeps an
            // earlier prototype).
            self.funcs[fi].sig = sig.clone();
        }
        let is_main = name == "main";
        // A record result's address arrives as a hidden last parameter (`byval`).
        let sret = sig.ret.is_record().then_some(params.len() as u32);
        let nparams = params.len() as u32 + sret.is_some() as u32;
        *nparams_out = Some(nparams);
        let mut taken = AddrTaken(HashSet::new());
        taken.visit_statement(&fd.node.statement.node, &fd.node.statement.span);
        self.b = super::builder::FnBuilder::new(nparams);
        self.f = FnState {
            ret: Some(sig.ret.clone()),
            is_main,
            addr_taken: taken.0,
            escapes: super::escape::escaping_names(&fd.node.statement),
            sret,
            ..FnState::default()
        };
        self.fname = Some(name.clone());
        self.at(off);
        let src = self.b.loc;
        self.push_scope();
        let r = self.function_body(fd, &params);
        self.pop_scope();
        r?;
        self.unused_loop_hint();
        if let Some((l, (_, _, o))) = self.f.labels.iter().find(|(_, v)| !v.1) {
            let (l, o) = (l.clone(), *o);
            return self.err(o, format!("use of undeclared label `{l}`"));
        }
        let fallthrough = self.fallthrough();
        let mut b = std::mem::replace(&mut self.b, super::builder::FnBuilder::new(0));
        let calls = std::mem::take(&mut b.calls);
        let mut f = b.finish(name, nparams, src, fallthrough);
        f.variadic = sig.variadic;
        crate::uninit::instrument(&mut f);
        self.install(id, f, calls);
        self.f = FnState::default();
        self.fname = None;
        Ok(())
    }

    fn function_body(
        &mut self,
        fd: &Node<FunctionDefinition>,
        params: &[super::decl::Param],
    ) -> R<()> {
        // Parameters are registers 0..n; `main(argc, argv)` gets them from the
        // interpreter (`CThread::main`).
        for (i, p) in params.iter().enumerate() {
            let reg = i as u32;
            let Some(pname) = &p.name else { continue };
            if self.lookup_here(pname).is_some() {
                return self.err(p.off, format!("redefinition of parameter `{pname}`"));
            }
            let home = if p.ty.is_record() {
                self.record_param(reg, &p.ty, pname, p.off)?
            } else if self.f.addr_taken.contains(pname) {
                let size = self.types.size_of(&p.ty).unwrap_or(8);
                let Some((home, a)) = self.local_memory(pname, true, size, size) else {
                    return self.unsup(p.off, "local variables need too much memory");
                };
                self.note_local(pname, &p.ty, home);
                let s = p.ty.scalar().expect("parameters are scalars");
                self.b
                    .store(a, Operand::Reg(reg), s, super::ops::ord_of(p.ty.atomic));
                home
            } else {
                Home::Reg(reg)
            };
            self.bind(
                pname,
                Binding::Local {
                    ty: p.ty.clone(),
                    home,
                },
            );
        }
        match &fd.node.statement.node {
            Statement::Compound(items) => self.block_items(items),
            _ => self.err(
                fd.node.statement.span.start,
                "function body must be a compound statement",
            ),
        }
    }

    fn block_items(&mut self, items: &[Node<BlockItem>]) -> R<()> {
        self.lazy_block_items(items)
    }

    /// A GNU statement expression `({ items })`: the items run in a scope of their
    /// own; the value is that of the last item when it is an expression statement
    /// (as an rvalue: a scalar, or a pointer for an array or function), else void.
    pub(super) fn statement_expr(&mut self, s: &Node<Statement>, off: usize) -> R<Val> {
        let Statement::Compound(items) = &s.node else {
            return self.err(off, "a statement expression needs braces: `({ ... })`");
        };
        self.push_scope();
        let r = self.statement_expr_items(items);
        self.pop_scope();
        r
    }

    fn statement_expr_items(&mut self, items: &[Node<BlockItem>]) -> R<Val> {
        let Some((last, init)) = items.split_last() else {
            return Ok(Val::Void);
        };
        self.block_items(init)?;
        match &last.node {
            BlockItem::Statement(Node {
                node: Statement::Expression(Some(e)),
                ..
            }) => {
                let v = self.expr(e)?;
                match v {
                    Val::Void => Ok(Val::Void),
                    Val::Mem(_, ref t) if t.is_record() => self.unsup(
                        e.span.start,
                        "a statement expression whose value is a struct or union is not supported",
                    ),
                    _ => {
                        let (o, t) = self.load(v, e.span.start)?;
                        Ok(Val::R(o, t))
                    }
                }
            }
            _ => {
                self.block_items(std::slice::from_ref(last))?;
                Ok(Val::Void)
            }
        }
    }

    fn statement(&mut self, s: &Node<Statement>) -> R<()> {
        self.lazy_statement(s)
    }

    /// Lowers statement `s`; an unsupported construct in it is an error now.
    pub(super) fn statement_now(&mut self, s: &Node<Statement>) -> R<()> {
        let off = s.span.start;
        self.at(off);
        match &s.node {
            Statement::Compound(items) => {
                self.push_scope();
                let r = self.block_items(items);
                self.pop_scope();
                r
            }
            Statement::Expression(None) => Ok(()),
            Statement::Expression(Some(e)) => self.expr(e).map(drop),
            Statement::If(i) => {
                let (t, f, join) = (self.b.new_block(), self.b.new_block(), self.b.new_block());
                self.branch_on(&i.node.condition, t, f)?;
                self.b.set_block(t);
                self.statement(&i.node.then_statement)?;
                self.b.jump(join);
                self.b.set_block(f);
                if let Some(e) = &i.node.else_statement {
                    self.statement(e)?;
                }
                self.b.jump(join);
                self.b.set_block(join);
                Ok(())
            }
            Statement::While(w) => self.loop_stmt(
                None,
                Some(&w.node.expression),
                None,
                &w.node.statement,
                false,
            ),
            Statement::DoWhile(w) => self.loop_stmt(
                None,
                Some(&w.node.expression),
                None,
                &w.node.statement,
                true,
            ),
            Statement::For(f) => {
                self.push_scope();
                let r = self.loop_stmt(
                    Some(&f.node.initializer),
                    f.node.condition.as_deref(),
                    f.node.step.as_deref(),
                    &f.node.statement,
                    false,
                );
                self.pop_scope();
                r
            }
            Statement::Switch(sw) => self.switch(&sw.node, off),
            Statement::Labeled(l) => self.labeled(&l.node, off),
            Statement::Goto(id) => {
                let b = self.label_block(&id.node.name, id.span.start);
                self.b.jump(b);
                Ok(())
            }
            Statement::Continue => match self.b.targets.continues.last() {
                Some(&b) => {
                    self.b.jump(b);
                    Ok(())
                }
                None => self.err(off, "`continue` outside a loop"),
            },
            Statement::Break => match self.b.targets.breaks.last() {
                Some(&b) => {
                    self.b.jump(b);
                    Ok(())
                }
                None => self.err(off, "`break` outside a loop or switch"),
            },
            Statement::Return(e) => self.return_stmt(e.as_deref(), off),
            Statement::Asm(a) => {
                // Barrier instructions are C11 fences, an empty template a compiler
                // barrier (no event); other asm is refused where it is reached (`asm`).
                let text = |s: &lang_c::ast::StringLiteral| {
                    String::from_utf8_lossy(&super::literals::string_value(s).unwrap_or_default())
                        .into_owned()
                };
                let (template, form) = match &a.node {
                    lang_c::ast::AsmStatement::GnuBasic(t) => (
                        text(&t.node),
                        super::asm::Form {
                            extended: false,
                            operands: false,
                            memory_clobber: false,
                        },
                    ),
                    lang_c::ast::AsmStatement::GnuExtended(x) => (
                        text(&x.template.node),
                        super::asm::Form {
                            extended: true,
                            operands: !x.outputs.is_empty() || !x.inputs.is_empty(),
                            memory_clobber: x.clobbers.iter().any(|c| text(&c.node) == "memory"),
                        },
                    ),
                };
                self.asm(&template, form, off);
                Ok(())
            }
        }
    }

    fn return_stmt(&mut self, e: Option<&Node<Expression>>, off: usize) -> R<()> {
        let ret = self.f.ret.clone().unwrap_or_else(CType::void);
        let t = match (e, ret.is_void()) {
            (None, true) => Terminator::Return(None),
            (None, false) => return self.err(off, "non-void function must return a value"),
            (Some(e), true) => match self.expr(e)? {
                Val::Void => Terminator::Return(None),
                _ => return self.err(e.span.start, "void function returns a value"),
            },
            (Some(e), false) if ret.is_record() => {
                let sret = self.f.sret.expect("a record-returning function has sret");
                self.return_record(e, &ret, sret, off)?;
                Terminator::Return(None)
            }
            (Some(e), false) => {
                let (v, t) = self.rvalue(e)?;
                let v = self.assign_convert(v, &t, &ret, e.span.start)?;
                Terminator::Return(Some(v))
            }
        };
        self.at(off);
        self.b.terminate(t);
        Ok(())
    }

    /// `while` (`do_while` false), `do ... while` and `for` loops.
    fn loop_stmt(
        &mut self,
        init: Option<&Node<ForInitializer>>,
        cond: Option<&Node<Expression>>,
        step: Option<&Node<Expression>>,
        body: &Node<Statement>,
        do_while: bool,
    ) -> R<()> {
        if let Some(i) = init {
            match &i.node {
                ForInitializer::Empty => {}
                ForInitializer::Expression(e) => {
                    self.expr(e)?;
                }
                ForInitializer::Declaration(d) => self.declaration(d, false)?,
                ForInitializer::StaticAssert(sa) => self.static_assert(sa)?,
            }
        }
        let id = self.b.new_loop();
        self.b.emit(InstKind::LoopEnter { id });
        self.take_loop_hint(id);
        let (head, start, next, exit) = (
            self.b.new_block(),
            self.b.new_block(),
            self.b.new_block(),
            self.b.new_block(),
        );
        self.b.jump(if do_while { start } else { head });
        // The back edge's target: `next` jumps to `head`, whose test enters `start`.
        let back = if do_while { start } else { head };
        self.b.loop_head(back, crate::ir::LoopHead::Statement);
        self.b.set_block(head);
        match cond {
            Some(c) => self.branch_on(c, start, exit)?,
            None => self.b.jump(start),
        }
        self.b.set_block(start);
        self.at(body.span.start);
        self.b.emit(InstKind::LoopIter { id });
        self.b.targets.breaks.push(exit);
        self.b.targets.continues.push(next);
        let r = self.statement(body);
        self.b.targets.breaks.pop();
        self.b.targets.continues.pop();
        r?;
        self.b.jump(next);
        self.b.set_block(next);
        if let Some(s) = step {
            self.expr(s)?;
        }
        self.b.jump(head);
        self.b.set_block(exit);
        Ok(())
    }

    fn switch(&mut self, sw: &SwitchStatement, off: usize) -> R<()> {
        let (v, t) = self.rvalue(&sw.expression)?;
        let Some(it) = t.int_ty() else {
            return self.err(
                sw.expression.span.start,
                format!("switch on a non-integer (`{}`)", self.show(&t)),
            );
        };
        let pt = promote(it);
        let ty = pt.scalar();
        let v = self.b.conv(v, it.scalar(), ty);
        let mut cases = Cases(Vec::new());
        cases.collect(&sw.statement);
        let exit = self.b.new_block();
        let mut blocks = HashMap::new();
        let mut default = None;
        let mut seen: HashMap<i64, usize> = HashMap::new();
        for l in &cases.0 {
            let blk = self.b.new_block();
            blocks.insert(l.span.start, blk);
            let lo = l.span.start;
            let (lo_v, hi_v) = match &l.node {
                Label::Default => {
                    if default.replace(blk).is_some() {
                        return self.err(lo, "multiple default labels in one switch");
                    }
                    continue;
                }
                Label::Case(e) => {
                    let c = self.case_value(e, pt)?;
                    (c, c)
                }
                Label::CaseRange(r) => (
                    self.case_value(&r.node.low, pt)?,
                    self.case_value(&r.node.high, pt)?,
                ),
                Label::Identifier(_) => continue,
            };
            if lo_v == hi_v && seen.insert(lo_v, lo).is_some() {
                return self.err(lo, format!("duplicate case value {lo_v}"));
            }
            self.at(lo);
            let next = self.b.new_block();
            let hit = if lo_v == hi_v {
                self.b.bin(BinOp::Eq, v, Operand::Const(lo_v), ty)
            } else {
                let a = self.b.bin(BinOp::Ge, v, Operand::Const(lo_v), ty);
                let b = self.b.bin(BinOp::Le, v, Operand::Const(hi_v), ty);
                self.b.bin(BinOp::And, a, b, ty)
            };
            self.b.branch(hit, blk, next);
            self.b.set_block(next);
        }
        self.at(off);
        self.b.jump(default.unwrap_or(exit));
        self.f.switches.push(blocks);
        self.b.targets.breaks.push(exit);
        let r = self.statement(&sw.statement);
        self.b.targets.breaks.pop();
        self.f.switches.pop();
        r?;
        self.b.jump(exit);
        self.b.set_block(exit);
        Ok(())
    }

    fn case_value(&mut self, e: &Node<Expression>, pt: crate::types::IntTy) -> R<i64> {
        match self.const_int(e)? {
            Some((v, t)) => {
                let from = t.scalar().expect("integer");
                Ok(pt.scalar().normalize(from.normalize(v)))
            }
            None => self.err(
                e.span.start,
                "case label is not an integer constant expression",
            ),
        }
    }

    fn labeled(&mut self, l: &LabeledStatement, off: usize) -> R<()> {
        let blk = match &l.label.node {
            Label::Identifier(id) => {
                let name = &id.node.name;
                let b = self.label_block(name, id.span.start);
                let entry = self.f.labels.get_mut(name).expect("label");
                if std::mem::replace(&mut entry.1, true) {
                    return self.err(id.span.start, format!("redefinition of label `{name}`"));
                }
                b
            }
            _ => match self
                .f
                .switches
                .last()
                .and_then(|m| m.get(&l.label.span.start))
            {
                Some(&b) => b,
                None => return self.err(off, "case label not within a switch statement"),
            },
        };
        self.b.jump(blk);
        self.b.set_block(blk);
        self.statement(&l.statement)
    }

    fn label_block(&mut self, name: &str, off: usize) -> BlockId {
        if let Some(&(b, _, _)) = self.f.labels.get(name) {
            return b;
        }
        let b = self.b.new_block();
        self.f.labels.insert(name.to_string(), (b, false, off));
        b
    }
}
