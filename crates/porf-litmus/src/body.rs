//! Thread bodies: making registers thread-wide.
//!
//! herd's registers are the locals of a thread, whatever block declares them, and a
//! register never assigned is 0 at the end. porf records a register's final value by
//! storing it into a dedicated global when the thread ends, so the register must be in
//! scope there: every declaration of a register the test observes is turned into an
//! assignment (the type words and declarator stars are blanked out, so line and column
//! positions do not move), and the register is declared once, zero-initialised, at the
//! top of the thread function.

use std::collections::BTreeMap;

/// A C token of a body: byte range and kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Ident,
    Number,
    Literal,
    Punct,
}

#[derive(Clone, Copy, Debug)]
struct Tok {
    kind: Kind,
    start: usize,
    end: usize,
}

/// Multi-character C punctuators (longest first).
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "^=", "|=",
];

fn lex(s: &str) -> Vec<Tok> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i = s[i + 2..].find("*/").map_or(b.len(), |k| i + 2 + k + 2);
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let st = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok {
                kind: Kind::Ident,
                start: st,
                end: i,
            });
        } else if c.is_ascii_digit() {
            let st = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'.') {
                i += 1;
            }
            out.push(Tok {
                kind: Kind::Number,
                start: st,
                end: i,
            });
        } else if c == b'"' || c == b'\'' {
            let st = i;
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            out.push(Tok {
                kind: Kind::Literal,
                start: st,
                end: i,
            });
        } else {
            let len = PUNCTS
                .iter()
                .find(|p| b[i..].starts_with(p.as_bytes()))
                .map_or(1, |p| p.len());
            // A multi-byte UTF-8 character is one (invalid) punctuator.
            let len = if c >= 0x80 {
                s[i..].chars().next().map_or(1, char::len_utf8)
            } else {
                len
            };
            out.push(Tok {
                kind: Kind::Punct,
                start: i,
                end: i + len,
            });
            i += len;
        }
    }
    out
}

/// Words that may start a declaration: type specifiers, qualifiers, storage classes,
/// `atomic_*` and `*_t` type names.
fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "int"
            | "long"
            | "short"
            | "char"
            | "unsigned"
            | "signed"
            | "_Bool"
            | "bool"
            | "volatile"
            | "const"
            | "register"
            | "auto"
            | "static"
            | "_Atomic"
            | "float"
            | "double"
            | "void"
    ) || (w.starts_with("atomic_") && w.len() > 7)
        || (w.ends_with("_t") && w.len() > 2)
}

/// A body with the declarations of observed registers turned into assignments.
#[derive(Clone, Debug, Default)]
pub struct Rewritten {
    /// The body text (same length and line structure as the original).
    pub text: String,
    /// Registers to declare at the top of the thread: name → C type (first
    /// declaration wins).
    pub hoisted: BTreeMap<String, String>,
}

/// Rewrites `body` (the text between a thread's braces, starting at byte `base` of the
/// file) so that the registers `tracked` accepts are declared at the thread's top.
/// An error is `(file offset, message)`.
pub fn rewrite(
    body: &str,
    base: usize,
    tracked: &dyn Fn(&str) -> bool,
) -> Result<Rewritten, (usize, String)> {
    let toks = lex(body);
    let text = |t: &Tok| &body[t.start..t.end];
    let is = |i: usize, p: &str| toks.get(i).is_some_and(|t| text(t) == p);
    let mut out = body.as_bytes().to_vec();
    let mut hoisted = BTreeMap::new();
    let mut i = 0;
    while i < toks.len() {
        let stmt_start = i == 0
            || ["{", "}", ";"].iter().any(|p| is(i - 1, p))
            || (is(i - 1, "(") && i >= 2 && is(i - 2, "for"));
        let t = toks[i];
        if !(stmt_start && t.kind == Kind::Ident && is_type_word(text(&t))) {
            i += 1;
            continue;
        }
        // The type words, then a declarator (`*` or a name) must follow.
        let mut j = i;
        while j < toks.len() && toks[j].kind == Kind::Ident && is_type_word(text(&toks[j])) {
            j += 1;
        }
        let declares = toks
            .get(j)
            .is_some_and(|n| n.kind == Kind::Ident || (n.kind == Kind::Punct && text(n) == "*"));
        if !declares {
            i += 1;
            continue;
        }
        let words: Vec<&str> = toks[i..j].iter().map(&text).collect();
        // The declarators, up to the `;` (or `)` of a `for`) at depth 0.
        let mut decls: Vec<(Vec<usize>, Option<usize>, bool)> = Vec::new();
        let mut k = j;
        let mut depth = 0i32;
        let mut cur: (Vec<usize>, Option<usize>, bool) = (Vec::new(), None, false);
        let mut seen_eq = false;
        while k < toks.len() {
            let s = text(&toks[k]);
            match s {
                "(" | "[" | "{" => {
                    if depth == 0 && !seen_eq {
                        cur.2 = true; // array or function declarator
                    }
                    depth += 1;
                }
                ")" | "]" | "}" if depth > 0 => depth -= 1,
                ")" | "}" => break,
                ";" if depth == 0 => break,
                "," if depth == 0 => {
                    decls.push(std::mem::take(&mut cur));
                    seen_eq = false;
                    k += 1;
                    continue;
                }
                "=" if depth == 0 => seen_eq = true,
                "*" if depth == 0 && !seen_eq && cur.1.is_none() => cur.0.push(k),
                _ if depth == 0 && !seen_eq && cur.1.is_none() && toks[k].kind == Kind::Ident => {
                    cur.1 = Some(k)
                }
                _ => {}
            }
            k += 1;
        }
        decls.push(cur);
        let hit = decls
            .iter()
            .any(|d| d.1.is_some_and(|n| tracked(text(&toks[n]))));
        if hit {
            if words.contains(&"static") {
                return Err((
                    base + t.start,
                    "a `static` register cannot be observed in the final state".into(),
                ));
            }
            let base_ty: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| !matches!(*w, "register" | "auto" | "const"))
                .collect();
            for (stars, name, complex) in &decls {
                let Some(n) = name else {
                    return Err((base + t.start, "malformed declaration".into()));
                };
                let nm = text(&toks[*n]);
                if *complex {
                    return Err((
                        base + toks[*n].start,
                        format!(
                            "register `{nm}` must be a scalar to be observed in the final state"
                        ),
                    ));
                }
                for &s in stars {
                    out[toks[s].start] = b' ';
                }
                let ty = format!("{}{}", base_ty.join(" "), "*".repeat(stars.len()));
                hoisted.entry(nm.to_string()).or_insert(ty);
            }
            for w in &toks[i..j] {
                out[w.start..w.end].fill(b' ');
            }
        }
        i = k.max(i + 1);
    }
    let text = String::from_utf8(out).expect("only ASCII bytes were replaced");
    Ok(Rewritten { text, hoisted })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rw(body: &str, regs: &[&str]) -> Rewritten {
        rewrite(body, 0, &|n| regs.contains(&n)).unwrap()
    }

    #[test]
    fn nested_declarations_become_assignments() {
        let b = "\n  int r0 = atomic_load_explicit(x, memory_order_relaxed);\n  if (r0) {\n    int r1 = *y;\n  }\n";
        let r = rw(b, &["r0", "r1"]);
        assert_eq!(r.text.len(), b.len());
        assert!(
            r.text.contains("      r0 = atomic_load_explicit"),
            "{}",
            r.text
        );
        assert!(r.text.contains("        r1 = *y;"), "{}", r.text);
        assert_eq!(r.hoisted.get("r0").map(String::as_str), Some("int"));
        assert_eq!(r.hoisted.get("r1").map(String::as_str), Some("int"));
    }

    #[test]
    fn untracked_declarations_and_calls_stay() {
        let b = " int t = 1; atomic_store_explicit(x, t, memory_order_relaxed); ";
        let r = rw(b, &["r0"]);
        assert_eq!(r.text, b);
        assert!(r.hoisted.is_empty());
    }

    #[test]
    fn pointers_lists_and_for_loops() {
        let b = " int *p = x, r = 2; for (int i = 0; i < 2; i++) { } const long q; ";
        let r = rw(b, &["r", "i", "q"]);
        assert_eq!(
            r.text,
            "      p = x, r = 2; for (    i = 0; i < 2; i++) { }            q; "
        );
        assert_eq!(r.hoisted.get("p").map(String::as_str), Some("int*"));
        assert_eq!(r.hoisted.get("r").map(String::as_str), Some("int"));
        assert_eq!(r.hoisted.get("i").map(String::as_str), Some("int"));
        assert_eq!(r.hoisted.get("q").map(String::as_str), Some("long"));
    }

    #[test]
    fn arrays_cannot_be_observed() {
        let e = rewrite(" int a[2] = {0, 1}; ", 10, &|n| n == "a").unwrap_err();
        assert_eq!(e.0, 15);
        assert!(e.1.contains("scalar"), "{}", e.1);
    }

    #[test]
    fn comments_and_literals_are_skipped() {
        let b = " /* int r0 = 1; */ // int r0\n char *s = \"int r0 = 2;\"; ";
        let r = rw(b, &["r0"]);
        assert_eq!(r.text, b);
    }
}
