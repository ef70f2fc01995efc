//! Unsupported constructs are errors only where an execution reaches them.
//!
//! A construct porf cannot lower (a `DiagKind::Unsupported` diagnostic: an unknown
//! builtin, `long double`, inline assembly, ...) does not reject the program. It
//! becomes an `ir::InstKind::Unsupported` instruction carrying the diagnostic's
//! message at the diagnostic's position, so an execution that reaches it stops with
//! the unsupported error (exit 3) and one that never does is explored as usual.
//! Malformed input (syntax and type errors, undeclared names) stays a compile-time
//! error.
//!
//! Granularity, from the finest that keeps the rest of the program well-defined:
//! - a **statement**: its code is rolled back ([`super::builder::FnBuilder::rollback`])
//!   and replaced by the instruction;
//! - a **declaration** in a block: if its names were bound before the failure, as a
//!   statement; otherwise the instruction ends the block (the later items, which may
//!   use those names, are not lowered);
//! - a **function body**, when the failing statement or the skipped items define a
//!   label (a `goto` or `switch` elsewhere may jump there, so no part of the body can
//!   be dropped alone), or the failure is in the parameters;
//! - a **file-scope declaration** (a global, a prototype, a typedef, a function
//!   signature): its names are *poisoned* ([`super::Binding::Poison`]), so each use of
//!   one is the original diagnostic, lazy in turn where the use is; a function whose
//!   signature fails gets a body that is that error.
//!
//! Invariant: rolled-back code is unreachable, since nothing outside the rolled-back
//! statement names a block made inside it (labels are the only such names, and a
//! statement with a label is never rolled back alone); so every execution runs
//! exactly the code of a program in which each unsupported construct was replaced by
//! a statement that stops with its error.

use super::builder::{FnBuilder, Mark};
use super::{Binding, Cx, R};
use crate::diag::{DiagKind, Diagnostic};
use crate::ir::{self, InstKind, Terminator};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::Visit;
use porf_graph::SrcLoc;
use std::rc::Rc;

/// What [`Cx::lazy_mark`] saves besides the builder's mark.
#[derive(Clone, Copy)]
pub(crate) struct LazyMark {
    b: Mark,
    scopes: usize,
    switches: usize,
    warnings: usize,
}

/// Whether a statement defines a label (named, `case` or `default`).
struct HasLabel(bool);

impl<'ast> Visit<'ast> for HasLabel {
    fn visit_labeled_statement(&mut self, _: &'ast LabeledStatement, _: &'ast Span) {
        self.0 = true;
    }
}

fn has_label(s: &Node<Statement>) -> bool {
    let mut v = HasLabel(false);
    v.visit_statement(&s.node, &s.span);
    v.0
}

fn items_have_label(items: &[Node<BlockItem>]) -> bool {
    let mut v = HasLabel(false);
    for i in items {
        v.visit_block_item(&i.node, &i.span);
    }
    v.0
}

/// The names a declaration declares.
pub(crate) fn declared_names(d: &Declaration) -> Vec<String> {
    d.declarators
        .iter()
        .filter_map(|id| super::decl::declarator_name(&id.node.declarator.node).map(|(n, _)| n))
        .collect()
}

/// Parameters of a function definition's declarator, as the AST spells them (`(void)`
/// is none), for a body that replaces one whose signature failed.
fn param_count(d: &Declarator) -> u32 {
    for dd in &d.derived {
        if let DerivedDeclarator::Function(f) = &dd.node {
            let ps = &f.node.parameters;
            let void_only = ps.len() == 1
                && ps[0].node.declarator.is_none()
                && matches!(
                    ps[0].node.specifiers.as_slice(),
                    [Node {
                        node: DeclarationSpecifier::TypeSpecifier(Node {
                            node: TypeSpecifier::Void,
                            ..
                        }),
                        ..
                    }]
                );
            return if void_only { 0 } else { ps.len() as u32 };
        }
    }
    0
}

impl Cx<'_> {
    pub(crate) fn lazy_mark(&self) -> LazyMark {
        LazyMark {
            b: self.b.mark(),
            scopes: self.scopes.len(),
            switches: self.f.switches.len(),
            warnings: self.warnings.len(),
        }
    }

    fn lazy_rollback(&mut self, m: LazyMark) {
        self.b.rollback(m.b);
        self.scopes.truncate(m.scopes);
        self.f.switches.truncate(m.switches);
        self.warnings.truncate(m.warnings);
        self.last_alloc = None;
    }

    /// The position of a diagnostic as a source location of this unit.
    fn diag_loc(&self, d: &Diagnostic) -> SrcLoc {
        let file = self
            .map
            .files()
            .iter()
            .position(|f| *f == d.file)
            .unwrap_or(0) as u32;
        SrcLoc {
            file,
            line: d.line,
            col: d.col,
        }
    }

    /// Emits the run-time form of the unsupported diagnostic `d`.
    fn emit_unsupported(&mut self, d: &Diagnostic) {
        let saved = self.b.loc;
        self.b.loc = self.diag_loc(d);
        self.b.emit(InstKind::Unsupported {
            msg: d.message.clone(),
        });
        self.b.loc = saved;
    }

    /// Lowers statement `s`; an unsupported construct in it (outside a label's reach)
    /// becomes a run-time error in its place.
    pub(crate) fn lazy_statement(&mut self, s: &Node<Statement>) -> R<()> {
        let m = self.lazy_mark();
        match self.statement_now(s) {
            Err(d) if d.kind == DiagKind::Unsupported && !has_label(s) => {
                self.lazy_rollback(m);
                self.emit_unsupported(&d);
                Ok(())
            }
            r => r,
        }
    }

    /// Lowers the block items, declarations lazily as the module docs say.
    pub(crate) fn lazy_block_items(&mut self, items: &[Node<BlockItem>]) -> R<()> {
        for (k, i) in items.iter().enumerate() {
            match &i.node {
                BlockItem::Declaration(d) => {
                    let m = self.lazy_mark();
                    match self.declaration(d, false) {
                        Ok(()) => {}
                        Err(e) if e.kind == DiagKind::Unsupported => {
                            let bound = declared_names(&d.node)
                                .iter()
                                .all(|n| self.lookup_here(n).is_some());
                            let rest = &items[k + 1..];
                            if !bound && items_have_label(rest) {
                                return Err(e);
                            }
                            self.lazy_rollback(m);
                            self.emit_unsupported(&e);
                            if !bound {
                                return Ok(());
                            }
                        }
                        Err(e) => return Err(e),
                    }
                }
                BlockItem::StaticAssert(sa) => self.static_assert(sa)?,
                BlockItem::Statement(s) => self.lazy_statement(s)?,
            }
        }
        Ok(())
    }

    /// Binds `names` at file scope to the unsupported diagnostic `d`.
    pub(crate) fn poison(&mut self, names: &[String], d: &Diagnostic) {
        let d = Rc::new(d.clone());
        for n in names {
            self.scopes[0]
                .names
                .insert(n.clone(), Binding::Poison(d.clone()));
        }
    }

    /// Whether `name`'s file-scope binding is poisoned.
    pub(crate) fn poisoned(&self, name: &str) -> bool {
        matches!(self.scopes[0].names.get(name), Some(Binding::Poison(_)))
    }

    /// A file-scope declaration: lowered, or on an unsupported construct its names
    /// poisoned. A redeclaration of a poisoned name keeps it poisoned.
    pub(crate) fn file_declaration(&mut self, d: &Node<Declaration>) -> R<()> {
        let names = declared_names(&d.node);
        if let Some(p) = names
            .iter()
            .find_map(|n| match self.scopes[0].names.get(n) {
                Some(Binding::Poison(p)) => Some(p.clone()),
                _ => None,
            })
        {
            self.poison(&names, &p);
            return Ok(());
        }
        match self.declaration(d, true) {
            Err(e) if e.kind == DiagKind::Unsupported && !names.is_empty() => {
                self.scopes.truncate(1);
                self.poison(&names, &e);
                Ok(())
            }
            r => r,
        }
    }

    /// Installs, for function definition `fd` (pre-scanned as `id`), a body that is
    /// the unsupported error `d`, and poisons its name when its signature failed.
    pub(crate) fn unsupported_function(
        &mut self,
        fd: &Node<FunctionDefinition>,
        id: ir::FuncId,
        name: &str,
        nparams: Option<u32>,
        d: &Diagnostic,
    ) {
        let nparams = match nparams {
            Some(n) => n,
            None => {
                self.poison(&[name.to_string()], d);
                self.stubs.insert(id);
                param_count(&fd.node.declarator.node)
            }
        };
        let mut b = FnBuilder::new(nparams);
        b.loc = self.diag_loc(d);
        b.emit(InstKind::Unsupported {
            msg: d.message.clone(),
        });
        let src = b.loc;
        let f = b.finish(name.to_string(), nparams, src, Terminator::Unreachable);
        self.install(id, f, Vec::new());
        self.f = super::FnState::default();
        self.fname = None;
        self.scopes.truncate(1);
    }
}
