//! Unit tests of the lowering on already-preprocessed snippets (no preprocessor):
//! declarations, tags, initializers, statements, conditions and diagnostics.

use super::lower_unit;
use crate::diag::{DiagKind, Diagnostic};
use crate::ir::{BinOp, InstKind, Module, Operand, Terminator};
use crate::srcmap::SrcMap;
use lang_c::driver::{parse_preprocessed, Config, Flavor};

fn lower(src: &str) -> Result<Module, Diagnostic> {
    let cfg = Config {
        cpp_command: String::new(),
        cpp_options: Vec::new(),
        flavor: Flavor::GnuC11,
    };
    let unit = parse_preprocessed(&cfg, src.to_string())
        .expect("parses")
        .unit;
    let map = SrcMap::new(src.to_string(), "t.c");
    lower_unit(&unit, &map)
}

fn ok(src: &str) -> Module {
    lower(src).unwrap_or_else(|d| panic!("{d}"))
}

fn fails(src: &str) -> (DiagKind, u32, u32, String) {
    let d = lower(src).expect_err("rejected");
    (d.kind, d.line, d.col, d.message)
}

/// An unsupported construct: rejected now, or (where lowering makes it lazy) the
/// first run-time `Unsupported` instruction of the module's functions.
fn unsup_at(src: &str) -> (u32, u32, String) {
    match lower(src) {
        Err(d) => {
            assert_eq!(d.kind, DiagKind::Unsupported, "{d}");
            (d.line, d.col, d.message)
        }
        Ok(m) => m
            .funcs
            .iter()
            .flat_map(|f| f.blocks.iter().flat_map(|b| b.insts.iter()))
            .find_map(|i| match &i.kind {
                InstKind::Unsupported { msg } => Some((i.src.line, i.src.col, msg.clone())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no unsupported construct in {src}")),
    }
}

fn cell(m: &Module, name: &str) -> i64 {
    m.cells.values().find(|c| c.name == name).expect(name).init
}

fn insts<'a>(m: &'a Module, f: &str) -> Vec<&'a InstKind> {
    let f = m.funcs.iter().find(|x| x.name == f).unwrap();
    f.blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(|i| &i.kind))
        .collect()
}

#[test]
fn declarators_and_sizes() {
    let m = ok("int *a[3]; int (*b)[3]; int m[2][3]; struct s { char c; long l; } v[2];\n\
                long sa = sizeof a, sb = sizeof b, sm = sizeof m, sv = sizeof v, sm0 = sizeof m[0];\n\
                int main(void) { return 0; }");
    assert_eq!(cell(&m, "sa"), 24);
    assert_eq!(cell(&m, "sb"), 8);
    assert_eq!(cell(&m, "sm"), 24);
    assert_eq!(cell(&m, "sv"), 32);
    assert_eq!(cell(&m, "sm0"), 12);
}

#[test]
fn enums_typedefs_and_scopes() {
    let m = ok(
        "enum color { RED, GREEN = 5, BLUE }; typedef enum color color_t;\n\
                typedef struct node { struct node *next; int v; } node_t;\n\
                int x = 1; int blue = BLUE; long nodesz = sizeof(node_t);\n\
                int main(void) { int x = 2; { int x = 3; } return x; }",
    );
    assert_eq!(cell(&m, "blue"), 6);
    assert_eq!(cell(&m, "nodesz"), 16);
    let main = &m.funcs[m.main as usize];
    assert!(main
        .blocks
        .iter()
        .all(|b| !matches!(b.term, Terminator::Return(Some(Operand::Const(3))))));
}

#[test]
fn constant_expressions() {
    let m = ok("int a[2 ? 3 : 4]; int b = (1 && 0) || 5; unsigned c = -1; long d = (long)&a[1] - (long)&a[0];\n\
                int e = sizeof(int) == 4 ? 7 : 8; _Static_assert(sizeof(long) == 8, \"lp64\");\n\
                int main(void) { return 0; }");
    assert_eq!(cell(&m, "b"), 1);
    assert_eq!(cell(&m, "c"), u32::MAX as i64);
    assert_eq!(cell(&m, "d"), 4);
    assert_eq!(cell(&m, "e"), 7);
    assert_eq!(
        m.cells
            .values()
            .filter(|c| c.name.starts_with("a["))
            .count(),
        3
    );
}

#[test]
fn tags_and_redefinitions() {
    assert_eq!(
        fails("struct s { int a; }; struct s { int b; }; int main(void) { return 0; }").0,
        DiagKind::Malformed
    );
    assert_eq!(
        fails("struct s { int a; int a; }; int main(void) { return 0; }").0,
        DiagKind::Malformed
    );
    // A flexible array member needs another member before it and must be last.
    assert_eq!(
        fails("struct s { int a[]; }; int main(void) { return 0; }").0,
        DiagKind::Malformed
    );
    assert_eq!(
        fails("struct s { int n; int a[]; int b; }; int main(void) { return 0; }").0,
        DiagKind::Malformed
    );
    ok("struct s { int n; int a[]; }; struct z { int n; int a[0]; }; int main(void) { return 0; }");
    assert_eq!(
        fails("union u; struct u *p; int main(void) { return 0; }").0,
        DiagKind::Malformed
    );
    assert_eq!(
        fails("enum e { A = 1L << 40 }; int main(void) { return 0; }").0,
        DiagKind::Unsupported
    );
    ok("struct s; struct s *p; struct s { int a; }; int main(void) { return p->a; }");
}

#[test]
fn diagnostics_point_at_the_construct() {
    let (l, c, _) = unsup_at("int main(void) {\n  long double d;\n  return 0;\n}");
    assert_eq!((l, c), (2, 3));
    let (k, l, c, msg) = fails("int main(void) {\n  return y;\n}");
    assert_eq!((k, l, c), (DiagKind::Malformed, 2, 10));
    assert!(msg.contains("`y`"));
    let (k, l, c, _) = fails("int f(int a) { return a; }\nint main(void) { return f(1, 2); }");
    assert_eq!((k, l, c), (DiagKind::Malformed, 2, 25));
    // gcc accepts a pointer assigned to an integer with a warning, and so does porf.
    let m = ok("int main(void) { int x; x = &x; return 0; }");
    assert_eq!(
        m.warnings,
        ["t.c:1:29: warning: pointer `int *` converted to integer `int` without a cast"]
    );
    let (k, _, _, _) = fails("struct p { int a; }; int main(void) { struct p s; return s + 1; }");
    assert_eq!(k, DiagKind::Malformed);
    let (k, _, _, _) = fails("int main(void) { switch (1) { case 1: case 1: break; } return 0; }");
    assert_eq!(k, DiagKind::Malformed);
    let (k, _, _, _) = fails("int main(void) { case 1: return 0; }");
    assert_eq!(k, DiagKind::Malformed);
    let (k, _, _, _) = fails("void f(void) { return 1; } int main(void) { return 0; }");
    assert_eq!(k, DiagKind::Malformed);
    let (k, _, _, _) = fails("int main(void) { l: l: return 0; }");
    assert_eq!(k, DiagKind::Malformed);
    let (k, _, _, _) = fails("void f(); void f(void) {} int main(void) { f(1); return 0; }");
    assert_eq!(k, DiagKind::Malformed);
}

#[test]
fn short_circuit_conditions_branch() {
    let m = ok("int a, b; int main(void) { if (a && !b || a) return 1; return 0; }");
    let main = &m.funcs[m.main as usize];
    let branches = main
        .blocks
        .iter()
        .filter(|b| matches!(b.term, Terminator::Branch { .. }))
        .count();
    assert_eq!(branches, 3);
    assert!(insts(&m, "main")
        .iter()
        .all(|k| !matches!(k, InstKind::Unary { .. })));
}

#[test]
fn goto_and_loops() {
    let m = ok("int main(void) { int i = 0; again: i++; if (i < 3) goto again;\n\
                do { i--; } while (i > 0); for (;;) { if (i++ == 2) break; else continue; } return i; }");
    let main = &m.funcs[m.main as usize];
    assert_eq!(main.nloops, 2);
}

#[test]
fn pointer_arithmetic_scales() {
    let m = ok("long a[4]; long *p = a; int main(void) { long *q = p + 2; return (int)(q - p); }");
    let is = insts(&m, "main");
    assert!(is.iter().any(|k| matches!(
        k,
        InstKind::Binary {
            op: BinOp::Mul,
            b: Operand::Const(8),
            ..
        }
    ) || matches!(
        k,
        InstKind::Binary {
            op: BinOp::Add,
            b: Operand::Const(16),
            ..
        }
    )));
    assert!(is.iter().any(|k| matches!(
        k,
        InstKind::Binary {
            op: BinOp::Div,
            b: Operand::Const(8),
            ..
        }
    )));
}

#[test]
fn floating_globals_fold_to_their_bit_patterns() {
    // Each initializer is a constant expression folded exactly as the interpreter
    // computes it: rounded to nearest in the object's type.
    let m = ok("double third = 1.0 / 3; float tenth = 0.1; int i = -2.9; \
                double nz = -0.0; float big = 16777217; double h = 0x1.8p1; \
                _Bool b = 0.5; int main(void) { return 0; }");
    assert_eq!(cell(&m, "third"), (1.0f64 / 3.0).to_bits() as i64);
    assert_eq!(cell(&m, "tenth"), 0.1f32.to_bits() as i64);
    assert_eq!(cell(&m, "i"), -2);
    assert_eq!(cell(&m, "nz"), (-0.0f64).to_bits() as i64);
    assert_eq!(cell(&m, "big"), 16777216.0f32.to_bits() as i64);
    assert_eq!(cell(&m, "h"), 3.0f64.to_bits() as i64);
    assert_eq!(cell(&m, "b"), 1);
    // A conversion that is undefined is left to run time, so it is not a constant.
    // (An error where the global is used.)
    unsup_at("int i = 1e10; int main(void) { return i; }");
    // Rejected like gcc rejects them.
    for bad in [
        "double d; int main(void) { return d % 2; }",
        "double d; int main(void) { return d << 1; }",
        "double d; int *p; int main(void) { p = d; return 0; }",
        "double d; int *p; int main(void) { d = (double)p; return 0; }",
        "double d; int main(void) { return ~d; }",
    ] {
        assert_eq!(fails(bad).0, DiagKind::Malformed, "{bad}");
    }
    for bad in [
        "_Atomic float f; int main(void) { return f > 0; }",
        "long double x; int main(void) { return x > 0; }",
        "int main(void) { return 1.0L > 0; }",
        "int main(void) { return 0x1p-1074 > 0; }",
    ] {
        unsup_at(bad);
    }
}
