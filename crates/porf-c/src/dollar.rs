//! `$` in identifiers (a GNU C extension gcc accepts by default: `main$tmp_guard0`,
//! `x$w_buff0`, as SV-COMP's `pthread-wmm` tasks write them), which the `lang-c`
//! parser does not know. Before parsing, each `$` inside an identifier is replaced,
//! in the parser's copy of the preprocessed text only, by `_`; offsets and line
//! structure are unchanged, so positions stay exact.
//!
//! Invariant: the replacement never merges two names. If a rewritten name equals
//! another identifier of the text (`a$b` next to `a_b`), or two names rewrite to the
//! same one, the program is refused as unsupported at the first such name, never
//! read with the two names joined. The original spelling of each rewritten name is
//! kept ([`Disguised::original`]) so that witnesses name globals as the source does.

use std::collections::{HashMap, HashSet};

/// The parser's copy of a text and the rewritten names.
pub(crate) struct Disguised {
    pub text: String,
    /// Rewritten name → original name.
    pub original: HashMap<String, String>,
}

/// Rewrites `$` in the identifiers of `text`; `Err(offset, name)` names the first
/// identifier whose rewritten form would clash with another name.
pub(crate) fn disguise(text: &str) -> Result<Disguised, (usize, String)> {
    if !text.contains('$') {
        return Ok(Disguised {
            text: text.to_string(),
            original: HashMap::new(),
        });
    }
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut plain: HashSet<&str> = HashSet::new();
    // Rewritten name → (original, offset of its first occurrence).
    let mut rewritten: HashMap<String, (String, usize)> = HashMap::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = crate::scan::skip_quoted(b, i),
            c if c.is_ascii_alphabetic() || c == b'_' || c == b'$' => {
                let start = i;
                while i < b.len() && ident(b[i]) {
                    i += 1;
                }
                let name = &text[start..i];
                if !name.contains('$') {
                    plain.insert(name);
                    continue;
                }
                let new = name.replace('$', "_");
                out[start..i].copy_from_slice(new.as_bytes());
                match rewritten.get(&new) {
                    Some((orig, at)) if orig != name => return Err((*at, orig.clone())),
                    Some(_) => {}
                    None => {
                        rewritten.insert(new, (name.to_string(), start));
                    }
                }
            }
            c if c.is_ascii_digit() => {
                while i < b.len() && (ident(b[i]) || b[i] == b'.') {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    let mut clash: Vec<(usize, String)> = rewritten
        .iter()
        .filter(|(new, _)| plain.contains(new.as_str()))
        .map(|(_, (orig, at))| (*at, orig.clone()))
        .collect();
    clash.sort();
    if let Some(first) = clash.into_iter().next() {
        return Err(first);
    }
    Ok(Disguised {
        text: String::from_utf8(out).expect("ASCII replaced by ASCII"),
        original: rewritten.into_iter().map(|(n, (o, _))| (n, o)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_in_identifiers_are_replaced_in_place() {
        let src = "int x$a = 1; char *s = \"$x\"; int $y; int z = x$a + $y + 0x1;";
        let d = disguise(src).unwrap();
        assert_eq!(d.text.len(), src.len());
        assert_eq!(
            d.text,
            "int x_a = 1; char *s = \"$x\"; int _y; int z = x_a + _y + 0x1;"
        );
        assert_eq!(d.original["x_a"], "x$a");
        assert_eq!(d.original["_y"], "$y");
    }

    #[test]
    fn a_clash_with_another_name_is_refused() {
        let src = "int a_b; int a$b;";
        assert_eq!(disguise(src).err(), Some((13, "a$b".to_string())));
        let src = "int a$_; int a_$;";
        assert!(disguise(src).is_err());
    }

    #[test]
    fn text_without_dollars_is_unchanged() {
        let d = disguise("int x;").unwrap();
        assert_eq!(d.text, "int x;");
        assert!(d.original.is_empty());
    }
}
