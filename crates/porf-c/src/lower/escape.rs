//! Which locals of a function may be reached from another thread: an escape analysis
//! over names (the front end has no types here, so it over-approximates).
//!
//! The *values* an expression can yield carry items: `&x` (also `&x.f`, `&x[i]`)
//! carries `&x`, x's address; a bare `x` (also `x.f`) carries `x`: x's content, and
//! x's address if x is an array or a record (an array, or an array member, decays);
//! `*p`, `p[i]` and `p->f` yield what memory holds, so they carry nothing of `p` (but
//! `&p[i]` and `&p->f` carry `p`). Values flow: `v = e` and `T v = e` with `v`
//! declared in the body make `e`'s items flow into v's content. Sinks, where a value may reach another thread: an assignment to
//! anything but a body local (a global, `*q`, `s.f`, `a[i]`), a `return` value, every
//! argument of a call to a function that is not a recognised builtin, and the
//! arguments of a builtin other than those that only name the object it works on (the
//! first argument of an atomic builtin, the `expected` argument of a compare-exchange,
//! the arguments of a non-atomic library builtin such as `memcpy` or `printf`, except
//! `pthread_create`'s thread argument). A name escapes if its values can flow into a
//! sink, and x's content escapes when `x` or `&x` does (whoever has x's address can
//! read it). [`is_shared`] reads the result: a local in memory that it rejects never has its address stored where
//! another thread could read it. Over-approximating only costs events (escaping locals
//! live in an engine block, see `ir::Function::shared_size`), never meaning.

use super::builtins::is_builtin;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lang_c::visit::{self, Visit};
use std::collections::{HashMap, HashSet};

/// Whether a local `name` (a scalar if `scalar`) must live in shared memory, given the
/// items [`escaping_names`] found: its address escapes, or it is an array or a record
/// whose bare name escapes.
pub(crate) fn is_shared(escapes: &HashSet<String>, name: &str, scalar: bool) -> bool {
    escapes.contains(&format!("&{name}")) || (!scalar && escapes.contains(name))
}

/// The items (`&x`: x's address; `x`: x's content, and its address for aggregates)
/// that may escape in a function body.
pub(crate) fn escaping_names(body: &Node<Statement>) -> HashSet<String> {
    let mut v = Escapes::default();
    v.visit_statement(&body.node, &body.span);
    // Close the sinks under "flows into": a name escapes if it flows into one that does.
    let mut escaped = v.sinks;
    let mut changed = true;
    while changed {
        changed = false;
        for (dst, srcs) in &v.flows {
            let sink = escaped.contains(dst)
                || escaped.contains(&format!("&{dst}"))
                || !v.locals.contains(dst);
            if sink {
                for s in srcs {
                    changed |= escaped.insert(s.clone());
                }
            }
        }
    }
    escaped
}

#[derive(Default)]
struct Escapes {
    /// Names reaching a sink directly.
    sinks: HashSet<String>,
    /// Names declared in the body.
    locals: HashSet<String>,
    /// Destination name → names flowing into it.
    flows: HashMap<String, HashSet<String>>,
}

/// The names the value of an expression can carry.
fn value_names(e: &Node<Expression>) -> HashSet<String> {
    let mut n = Names {
        out: HashSet::new(),
        addr: false,
        deref: 0,
    };
    n.visit_expression(&e.node, &e.span);
    n.out
}

/// Collects the names an expression's value carries (see the module doc).
struct Names {
    out: HashSet<String>,
    /// Inside `&`'s operand path: names reached are carried.
    addr: bool,
    /// Inside a dereferenced operand: bare names are not carried.
    deref: u32,
}

impl Names {
    fn walk(&mut self, e: &Node<Expression>, addr: bool, deref: u32) {
        let saved = (self.addr, self.deref);
        (self.addr, self.deref) = (addr, deref);
        self.visit_expression(&e.node, &e.span);
        (self.addr, self.deref) = saved;
    }
}

impl<'ast> Visit<'ast> for Names {
    fn visit_identifier(&mut self, id: &'ast Identifier, _: &'ast Span) {
        if self.addr {
            self.out.insert(format!("&{}", id.name));
        } else if self.deref == 0 {
            self.out.insert(id.name.clone());
        }
    }

    fn visit_unary_operator_expression(
        &mut self,
        u: &'ast UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        match u.operator.node {
            UnaryOperator::Address => self.walk(&u.operand, true, self.deref),
            UnaryOperator::Indirection if !self.addr => {
                self.walk(&u.operand, false, self.deref + 1)
            }
            _ => visit::visit_unary_operator_expression(self, u, span),
        }
    }

    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast Span,
    ) {
        if b.operator.node == BinaryOperator::Index && !self.addr {
            self.walk(&b.lhs, false, self.deref + 1);
            self.walk(&b.rhs, false, self.deref);
            return;
        }
        if b.operator.node == BinaryOperator::Index {
            self.walk(&b.lhs, true, self.deref);
            self.walk(&b.rhs, false, self.deref);
            return;
        }
        visit::visit_binary_operator_expression(self, b, span);
    }

    fn visit_member_expression(&mut self, m: &'ast MemberExpression, _: &'ast Span) {
        let arrow = m.operator.node == MemberOperator::Indirect;
        if arrow && !self.addr {
            self.walk(&m.expression, false, self.deref + 1);
        } else {
            self.walk(&m.expression, self.addr, self.deref);
        }
    }

    fn visit_call_expression(&mut self, _: &'ast CallExpression, _: &'ast Span) {
        // A call's value is its result: what it carries is the callee's business, and
        // its arguments are sinks (collected by `Escapes`).
    }

    fn visit_sizeofval(&mut self, _: &'ast SizeOfVal, _: &'ast Span) {}
}

impl Escapes {
    fn sink(&mut self, e: &Node<Expression>) {
        self.sinks.extend(value_names(e));
    }

    /// `dst = e` for a name `dst`.
    fn flow(&mut self, dst: &str, e: &Node<Expression>) {
        self.flows
            .entry(dst.to_string())
            .or_default()
            .extend(value_names(e));
    }
}

/// Whether argument `i` of builtin `name` only names an object the builtin works on
/// (so passing a local's address there lets nobody else see it).
fn names_object(name: &str, i: usize) -> bool {
    let atomic = name.contains("atomic") || name.starts_with("__sync");
    if name == "pthread_create" {
        return i != 3;
    }
    if !atomic {
        return true;
    }
    i == 0 || (i == 1 && name.contains("compare_exchange"))
}

impl<'ast> Visit<'ast> for Escapes {
    fn visit_call_expression(&mut self, c: &'ast CallExpression, span: &'ast Span) {
        let builtin = match &c.callee.node {
            Expression::Identifier(id) if is_builtin(&id.node.name) => Some(&id.node.name),
            _ => None,
        };
        for (i, a) in c.arguments.iter().enumerate() {
            if builtin.is_none_or(|n| !names_object(n, i)) {
                self.sink(a);
            }
        }
        visit::visit_call_expression(self, c, span);
    }

    fn visit_binary_operator_expression(
        &mut self,
        b: &'ast BinaryOperatorExpression,
        span: &'ast Span,
    ) {
        if b.operator.node == BinaryOperator::Assign {
            match &b.lhs.node {
                Expression::Identifier(id) => self.flow(&id.node.name, &b.rhs),
                _ => self.sink(&b.rhs),
            }
        }
        visit::visit_binary_operator_expression(self, b, span);
    }

    fn visit_init_declarator(&mut self, d: &'ast InitDeclarator, span: &'ast Span) {
        let name = super::decl::declarator_name(&d.declarator.node).map(|(n, _)| n);
        if let Some(n) = &name {
            self.locals.insert(n.clone());
        }
        if let Some(init) = &d.initializer {
            let mut exprs = Vec::new();
            initializer_exprs(&init.node, &mut exprs);
            for e in exprs {
                match &name {
                    Some(n) => self.flow(n, e),
                    None => self.sink(e),
                }
            }
        }
        visit::visit_init_declarator(self, d, span);
    }

    fn visit_statement(&mut self, s: &'ast Statement, span: &'ast Span) {
        if let Statement::Return(Some(e)) = s {
            self.sink(e);
        }
        visit::visit_statement(self, s, span);
    }
}

/// The expressions of an initializer (all leaves of a braced list).
fn initializer_exprs<'a>(i: &'a Initializer, out: &mut Vec<&'a Node<Expression>>) {
    match i {
        Initializer::Expression(e) => out.push(e),
        Initializer::List(items) => {
            for it in items {
                initializer_exprs(&it.node.initializer.node, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lang_c::driver::{parse_preprocessed, Config};

    fn escapes(body: &str) -> Vec<String> {
        let src = format!("void f(void) {body}");
        let unit = parse_preprocessed(&Config::default(), src)
            .expect("parses")
            .unit;
        let ExternalDeclaration::FunctionDefinition(fd) = &unit.0[0].node else {
            panic!("a function")
        };
        // The names that would be shared, taking every name as an array.
        let items = escaping_names(&fd.node.statement);
        let mut v: Vec<String> = items
            .iter()
            .map(|i| i.trim_start_matches('&').to_string())
            .filter(|n| is_shared(&items, n, false))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn scalars_escape_by_address_only() {
        let src = "void f(void) { int l = 3; int *p = &l; *p = 4; g = &m; return l; }";
        let unit = parse_preprocessed(&Config::default(), src.to_string())
            .expect("parses")
            .unit;
        let ExternalDeclaration::FunctionDefinition(fd) = &unit.0[0].node else {
            panic!("a function")
        };
        let items = escaping_names(&fd.node.statement);
        assert!(!is_shared(&items, "l", true));
        assert!(is_shared(&items, "l", false));
        assert!(is_shared(&items, "m", true));
    }

    #[test]
    fn stores_calls_and_returns_escape_object_arguments_do_not() {
        assert_eq!(escapes("{ int x; g = &x; }"), ["x"]);
        // A local pointer holding &x lets x escape only if the pointer does.
        assert_eq!(
            escapes("{ int x; int *p = &x; *p = 1; }"),
            Vec::<String>::new()
        );
        assert_eq!(
            escapes("{ int x; int *p = &x; int *q; q = p; g = q; }"),
            ["p", "q", "x"].map(String::from)
        );
        assert_eq!(escapes("{ int a[2]; return a[0]; }"), Vec::<String>::new());
        assert_eq!(escapes("{ int a[2]; return &a[1]; }"), ["a"]);
        assert_eq!(escapes("{ struct s v; h(v.f); }"), ["v"]);
        assert_eq!(escapes("{ int x; p->f = &x; }"), ["x"]);
        assert_eq!(
            escapes("{ struct s v = { .p = &x }; g = v.p; }"),
            ["v", "x"].map(String::from)
        );
        assert_eq!(escapes("{ int a[2]; h(a); }"), ["a"]);
        assert_eq!(escapes("{ int a; return &a; }"), ["a"]);
        assert_eq!(
            escapes("{ int e; atomic_compare_exchange_strong(&v, &e, 1); }"),
            Vec::<String>::new()
        );
        assert_eq!(escapes("{ int x; atomic_store(&p, &x); }"), ["x"]);
        assert_eq!(
            escapes("{ int s[2]; memset(&s, 0, 8); }"),
            Vec::<String>::new()
        );
        assert_eq!(
            escapes("{ long t; int x; pthread_create(&t, 0, w, &x); }"),
            ["x"]
        );
        assert_eq!(
            escapes("{ int x; x = 1; *(&x) = 2; }"),
            Vec::<String>::new()
        );
    }
}
