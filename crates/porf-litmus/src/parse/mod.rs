//! The parser of herd's C litmus format.
//!
//! ```text
//! C NAME
//! "optional doc string"            (* comments: (* *), //, /* */ *)
//! { [x] = 0; y = 1; int* p = &x; 0:r0 = 2; }
//! P0 (atomic_int* x, int* y) { ...C... }
//! P1 (...) { ...C... }
//! locations [x; 1:r0;]              (optional)
//! filter PROP                       (optional)
//! exists PROP  |  ~exists PROP  |  forall PROP
//! ```
//!
//! PROP: `/\`, `\/`, `=>`, `~` or `not`, parentheses, `true`, `false`, and atoms
//! `T:reg=V`, `x=V`, `[x]=V` (`==` too, `!=` for a negated atom), where V is an integer
//! or a location name (its address), and `x=*y`, `[x]=[y]`, `x=1:r0` (equal values).
//! Precedence as herd's: `~` binds tightest, then `=>` (right-associative), then `/\`,
//! then `\/`.
//!
//! Thread bodies are C: the parser only finds their extent (skipping comments, string
//! and character literals); the C front end parses them after translation.

mod cond;
mod lex;
mod sections;

use crate::ast::*;
use std::fmt;

/// A malformed litmus file: `file:line:col: error: message`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LitmusError {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for LitmusError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for LitmusError {}

type R<T> = Result<T, LitmusError>;

/// The `locations` items, the filter, the condition and herd's `with` kinds.
pub(crate) type Constraints = (Vec<(Loc, Pos)>, Option<Prop>, Cond, Vec<(String, Quant)>);

/// Parses the litmus test `text`, read from `file`.
pub fn parse(file: &str, text: &str) -> R<Litmus> {
    let mut p = Parser {
        file: file.to_string(),
        text,
        pos: 0,
        lines: line_starts(text),
        arrays: false,
    };
    p.litmus()
}

/// The initial state of an assembly test: the block opening with the `{` at byte `at`
/// of `text`, arrays `T x[N]` allowed (their type is `T[N]`, their cells 0); returns
/// its items and the offset just past its `}`.
pub(crate) fn init_block(file: &str, text: &str, at: usize) -> R<(Vec<InitItem>, usize)> {
    let mut p = Parser {
        file: file.to_string(),
        text,
        pos: at,
        lines: line_starts(text),
        arrays: true,
    };
    let items = p.init()?;
    Ok((items, p.pos))
}

/// The constraints of a test in any of herd's formats: `locations`, `filter`, the
/// condition and `with` kinds, from byte `at` to the end of `text` (the caller cuts
/// what herd ignores, its `<<` configuration blocks).
pub(crate) fn constraints_at(file: &str, text: &str, at: usize) -> R<Constraints> {
    let mut p = Parser {
        file: file.to_string(),
        text,
        pos: at,
        lines: line_starts(text),
        arrays: false,
    };
    p.constraints()
}

fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// A token of the non-C parts (init block, `locations`, conditions).
#[derive(Clone, PartialEq, Eq, Debug)]
enum Tok {
    Ident(String),
    Num(i64),
    Punct(&'static str),
    Eof,
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "`{s}`"),
            Tok::Num(n) => write!(f, "`{n}`"),
            Tok::Punct(p) => write!(f, "`{p}`"),
            Tok::Eof => f.write_str("end of file"),
        }
    }
}

const PUNCTS: &[&str] = &[
    "/\\", "\\/", "=>", "==", "!=", "~", "=", ":", ";", ",", "(", ")", "[", "]", "{", "}", "*", "&",
];

struct Parser<'a> {
    file: String,
    text: &'a str,
    pos: usize,
    lines: Vec<usize>,
    /// Accept array declarations `uint8_t x[128]` in the initial state (assembly
    /// tests; the C translation has no arrays).
    arrays: bool,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The `n` of a thread name `Pn`.
fn thread_name(s: &str) -> Option<u32> {
    let d = s.strip_prefix('P')?;
    if d.is_empty() || !d.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    d.parse().ok()
}

fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "exists" | "forall" | "not" | "true" | "false" | "final" | "filter" | "locations"
    )
}

fn fold(mut ps: Vec<Prop>, mk: fn(Vec<Prop>) -> Prop) -> Prop {
    if ps.len() == 1 {
        ps.pop().expect("one element")
    } else {
        // herd's parser is binary and left-associative: `a /\ b /\ c` is
        // `And [And [a; b]; c]`, printed without parentheses.
        let mut it = ps.into_iter();
        let first = it.next().expect("non-empty");
        it.fold(first, |acc, p| mk(vec![acc, p]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SB: &str = "C SB+rlx
\"Store buffering\"
(* a herd comment *)
Hash=0123abcd
{ [x] = 0; y = 1; int* p = &x; atomic_int z; 1:r1 = 5; }

P0 (atomic_int* x, atomic_int *y) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
}

P1 (atomic_int* x, atomic_int* y) { // a C comment with a } brace
  atomic_store_explicit(y, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(x, memory_order_relaxed); /* } */
}

locations [x; 1:r1; p int*;]
exists (0:r0=0 /\\ 1:r0=0)
";

    fn err(text: &str) -> (u32, u32, String) {
        let e = parse("t.litmus", text).unwrap_err();
        assert_eq!(e.file, "t.litmus");
        assert_eq!(
            e.to_string(),
            format!("t.litmus:{}:{}: error: {}", e.line, e.col, e.message)
        );
        (e.line, e.col, e.message)
    }

    fn cond(c: &str) -> Cond {
        let text =
            format!("C t\n{{ x = 0; }}\nP0 (int* x) {{ *x = 1; }}\nP1 (int* x) {{ }}\n{c}\n");
        parse("t.litmus", &text).unwrap().cond
    }

    #[test]
    fn parses_a_whole_test() {
        let l = parse("sb.litmus", SB).unwrap();
        assert_eq!(l.name, "SB+rlx");
        assert_eq!(l.doc.as_deref(), Some("Store buffering"));
        let init: Vec<(Loc, Option<&str>, Value)> = l
            .init
            .iter()
            .map(|i| (i.loc.clone(), i.ty.as_deref(), i.value.clone()))
            .collect();
        assert_eq!(
            init,
            vec![
                (Loc::Global("x".into()), None, Value::Int(0)),
                (Loc::Global("y".into()), None, Value::Int(1)),
                (
                    Loc::Global("p".into()),
                    Some("int*"),
                    Value::Addr("x".into())
                ),
                (Loc::Global("z".into()), Some("atomic_int"), Value::Int(0)),
                (Loc::Reg(1, "r1".into()), None, Value::Int(5)),
            ]
        );
        assert_eq!(l.init[1].pos, Pos { line: 5, col: 12 });
        assert_eq!(l.threads.len(), 2);
        let p0 = &l.threads[0];
        assert_eq!(p0.pos, Pos { line: 7, col: 1 });
        let params: Vec<(&str, &str)> = p0
            .params
            .iter()
            .map(|p| (p.ty.as_str(), p.name.as_str()))
            .collect();
        assert_eq!(params, vec![("atomic_int*", "x"), ("atomic_int *", "y")]);
        assert_eq!(p0.params[1].pointee(), "atomic_int");
        assert_eq!(p0.params[1].pos, Pos { line: 7, col: 32 });
        let body = &SB[p0.body_start..p0.body_end];
        assert!(body.trim().starts_with("atomic_store_explicit(x"), "{body}");
        let b1 = &SB[l.threads[1].body_start..l.threads[1].body_end];
        assert!(b1.trim_end().ends_with("/* } */"), "{b1}");
        assert_eq!(
            l.locations
                .iter()
                .map(|(l, _)| l.to_string())
                .collect::<Vec<_>>(),
            vec!["[x]", "1:r1", "[p]"]
        );
        assert_eq!(l.cond.quant, Quant::Exists);
        assert_eq!(l.cond.to_string(), "exists (0:r0=0 /\\ 1:r0=0)");
        let obs: Vec<String> = l.observed().iter().map(|l| l.to_string()).collect();
        assert_eq!(obs, vec!["0:r0", "1:r0", "1:r1", "[p]", "[x]"]);
    }

    /// herd's splitter skips the text between the header line and the init block:
    /// a second header line, notes.
    #[test]
    fn free_text_before_the_init_block_is_skipped() {
        let l = parse(
            "t.litmus",
            "C first-name\nC second name\nnote: 2 threads.\n{ x = 0; }\nP0 (int* x) { *x = 1; }\nexists (x=1)\n",
        )
        .unwrap();
        assert_eq!(l.name, "first-name");
        assert_eq!(l.threads.len(), 1);
    }

    #[test]
    fn forall_and_not_exists() {
        let c = cond("forall (x=1 \\/ x=2)");
        assert_eq!(c.quant, Quant::Forall);
        assert_eq!(c.quant.kind(), "Required");
        assert_eq!(c.to_string(), "forall ([x]=1 \\/ [x]=2)");
        let c = cond("~exists (0:r0=1 /\\ ~x=0)");
        assert_eq!(c.quant, Quant::NotExists);
        assert_eq!(c.quant.kind(), "Forbidden");
        assert_eq!(c.to_string(), "~exists (0:r0=1 /\\ not ([x]=0))");
        let c = cond("~ exists x=1");
        assert_eq!(c.quant, Quant::NotExists);
        // An empty condition is herd's `forall (true)`.
        let c = cond("");
        assert_eq!(
            (c.quant, c.to_string()),
            (Quant::Forall, "forall (true)".into())
        );
        // A bare parenthesised proposition is an `exists`.
        assert_eq!(cond("(x=1)").quant, Quant::Exists);
        // herd's old `final P; with NAME: KIND;` is an `exists`; the kinds are
        // information only.
        let c = cond("final (x=1);\nwith\ntso: ~exists;\ncc: exists;");
        assert_eq!(c.to_string(), "exists ([x]=1)");
    }

    #[test]
    fn precedence_and_printing_follow_herd() {
        // `~` > `=>` > `/\` > `\/`.
        let c = cond("exists (x=1 \\/ x=2 /\\ 0:r0=1)");
        assert_eq!(c.to_string(), "exists ([x]=1 \\/ [x]=2 /\\ 0:r0=1)");
        let Prop::Or(ps) = &c.prop else {
            panic!("{c:?}")
        };
        assert!(matches!(ps[1], Prop::And(_)));
        let c = cond("exists ((x=1 \\/ x=2) /\\ 0:r0=1)");
        assert_eq!(c.to_string(), "exists (([x]=1 \\/ [x]=2) /\\ 0:r0=1)");
        let c = cond("exists (x=1 /\\ x=2 => 0:r0=1 => true)");
        // herd parenthesises an implication under a conjunction.
        assert_eq!(
            c.to_string(),
            "exists ([x]=1 /\\ ([x]=2 => 0:r0=1 => true))"
        );
        let Prop::And(ps) = &c.prop else {
            panic!("{c:?}")
        };
        assert!(matches!(ps[1], Prop::Implies(..)));
        let c = cond("exists (not x=1 \\/ false)");
        assert_eq!(c.to_string(), "exists (not ([x]=1) \\/ false)");
        let c = cond("exists (x != 1 /\\ [x] == 2 /\\ P1:r0=-3 /\\ 0:r0=0x10)");
        assert_eq!(
            c.to_string(),
            "exists (not ([x]=1) /\\ [x]=2 /\\ 1:r0=-3 /\\ 0:r0=16)"
        );
    }

    #[test]
    fn atoms_with_locations_on_the_right() {
        let c = cond("exists (x=y /\\ x=*y /\\ [x]=[y] /\\ x=1:r0)");
        let Prop::And(a) = &c.prop else { panic!() };
        let Prop::And(b) = &a[0] else { panic!() };
        let Prop::And(d) = &b[0] else { panic!() };
        assert!(matches!(&d[0], Prop::Atom(Atom::Eq(_, Value::Addr(y)), _) if y == "y"));
        assert!(matches!(&d[1], Prop::Atom(Atom::EqLoc(_, Loc::Global(y)), _) if y == "y"));
        assert!(matches!(
            &b[1],
            Prop::Atom(Atom::EqLoc(_, Loc::Global(_)), _)
        ));
        assert!(matches!(
            &a[1],
            Prop::Atom(Atom::EqLoc(_, Loc::Reg(1, _)), _)
        ));
    }

    #[test]
    fn evaluation() {
        let c = cond("exists (x=1 /\\ ~(0:r0=2) \\/ x=0:r0)");
        let eval = |x: i64, r: i64| {
            c.prop.eval(
                &|l: &Loc| if *l == Loc::Global("x".into()) { x } else { r },
                &|v: &Value| match v {
                    Value::Int(i) => *i,
                    Value::Addr(_) => -1,
                },
            )
        };
        assert!(eval(1, 0));
        assert!(!eval(1, 2));
        assert!(eval(3, 3));
        assert!(!eval(0, 1));
    }

    #[test]
    fn errors_carry_positions() {
        assert_eq!(
            err("AArch64 foo\n{}\n"),
            (
                1,
                1,
                "`AArch64` tests are not supported: porf reads C litmus tests (`C NAME`)".into()
            )
        );
        assert_eq!(err("  \n"), (2, 1, "empty file: expected `C NAME`".into()));
        assert_eq!(
            err("C\n"),
            (1, 2, "expected the test name after `C`".into())
        );
        assert_eq!(
            err("C t\nP0(int *x) {\n}\n"),
            (2, 1, "expected `{` starting the initial state".into())
        );
        assert_eq!(
            err("C t\n{ x = 0; x = 1; }\nP0 (int* x) { }\nexists (x=1)"),
            (
                2,
                10,
                "`[x]` is initialised twice (first at line 2, column 3)".into()
            )
        );
        assert_eq!(
            err("C t\n{ x = ; }\nP0 (int* x) { }\nexists (x=1)"),
            (2, 5, "expected a value after `=`".into())
        );
        assert_eq!(
            err("C t\n{ x = 0 }\nP0 (int x) { }\nexists (x=1)"),
            (
                3,
                9,
                "parameter `x` of P0 must be a pointer to a location (e.g. `int* x`)".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) {\n  *x = 1;\n\nexists (x=1)\n"),
            (3, 13, "`{` is never closed".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nP2 (int* x) { }\nexists (x=1)"),
            (
                4,
                1,
                "threads must be numbered P0, P1, ... without gaps (P1 is missing)".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nP0 (int* x) { }\nexists (x=1)"),
            (4, 1, "thread P0 is defined twice (first at line 3)".into())
        );
        assert_eq!(
            err("C t\n{ }\nexists (x=1)"),
            (3, 1, "expected a thread `P0 (...) { ... }`".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1 /\\ 0:r0=)"),
            (
                4,
                21,
                "expected a value (an integer or a location) after `=`, found `)`".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1 /\\ 1:r0=0)"),
            (
                4,
                16,
                "`1:r0` names thread P1, but the test has 1 thread(s)".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1))"),
            (4, 13, "unexpected `)` after the final condition".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1"),
            (
                4,
                12,
                "expected `)` or an operator, found end of file".into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nmaybe (x=1)"),
            (
                4,
                1,
                "expected the final condition (`exists`, `~exists` or `forall`), found `maybe`"
                    .into()
            )
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\n~forall (x=1)"),
            (4, 2, "expected `exists` after `~`, found `forall`".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { }\nexists (x=1 /\\ y@2)"),
            (4, 17, "unexpected character `@`".into())
        );
        assert_eq!(
            err("C t\n(* never closed\n{ }"),
            (2, 1, "unterminated comment `(*`".into())
        );
        assert_eq!(
            err("C t\n{ }\nP0 (int* x) { char *s = \"}\n\"; }\nexists (x=1)"),
            (3, 25, "unterminated literal".into())
        );
    }
}
