//! Mapping byte offsets of preprocessed text back to original `file:line:col`.
//!
//! Lines come from the `# N "file" flags` markers of the preprocessor output: after a
//! marker, the next line is line `N` of `file`. Columns need more care, since the
//! preprocessor collapses whitespace, drops comments and expands macros: each
//! preprocessed line is tokenised and aligned (longest common subsequence of token
//! texts) with the tokens of its original line. A token that survives preprocessing
//! gets its exact original column; a token produced by a macro expansion gets the
//! column of the unmatched original token in its place (the macro's name), as
//! compilers report expansions. If the original file cannot be read, the preprocessed
//! column is used.
//!
//! Invariants: file index 0 is the main file, named as given to [`SrcMap::new`];
//! lines and columns are 1-based; columns count bytes.

use crate::diag::{DiagKind, Diagnostic};
use porf_graph::SrcLoc;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A preprocessed line: where it starts and which original line it is.
#[derive(Clone, Copy, Debug)]
struct PpLine {
    start: usize,
    file: u32,
    line: u32,
}

/// Tokens of one line: `(byte column 0-based, text)`.
type LineToks = Vec<(usize, String)>;
/// A pp token's `(start column, end column, original column)`, 0-based.
type Aligned = (usize, usize, usize);

pub struct SrcMap {
    text: String,
    files: Vec<String>,
    lines: Vec<PpLine>,
    originals: RefCell<HashMap<u32, Option<Rc<Vec<LineToks>>>>>,
    aligned: RefCell<HashMap<usize, Rc<Vec<Aligned>>>>,
    /// Offsets of GCC's 128-bit integer type keywords, each with whether it is
    /// unsigned by itself (`crate::int128`).
    int128: Vec<(usize, bool)>,
    /// Names the parser read with `_` for `$` → their spelling (`crate::dollar`).
    dollar_names: HashMap<String, String>,
}

impl SrcMap {
    /// Indexes the preprocessed `text` of the file named `main`.
    pub fn new(text: String, main: &str) -> SrcMap {
        let mut files = vec![main.to_string()];
        let mut lines = Vec::new();
        let (mut file, mut line) = (0u32, 1u32);
        let mut start = 0;
        for raw in text.split_inclusive('\n') {
            if let Some((n, name)) = parse_marker(raw) {
                file = match files.iter().position(|f| *f == name) {
                    Some(i) => i as u32,
                    None => {
                        files.push(name);
                        files.len() as u32 - 1
                    }
                };
                lines.push(PpLine {
                    start,
                    file,
                    line: n.saturating_sub(1),
                });
                line = n;
            } else {
                lines.push(PpLine { start, file, line });
                line = line.saturating_add(1);
            }
            start += raw.len();
        }
        SrcMap {
            text,
            files,
            lines,
            originals: RefCell::default(),
            aligned: RefCell::default(),
            int128: Vec::new(),
            dollar_names: HashMap::new(),
        }
    }

    /// Records the offsets of the 128-bit integer type keywords (`crate::int128`).
    pub fn set_int128(&mut self, found: Vec<(usize, bool)>) {
        self.int128 = found;
    }

    /// Whether a 128-bit integer type keyword starts at `offset`: `Some(unsigned by
    /// itself)`.
    pub fn int128_at(&self, offset: usize) -> Option<bool> {
        self.int128
            .binary_search_by_key(&offset, |&(o, _)| o)
            .ok()
            .map(|i| self.int128[i].1)
    }

    /// Records the names rewritten by `crate::dollar` (rewritten → original).
    pub fn set_dollar_names(&mut self, names: HashMap<String, String>) {
        self.dollar_names = names;
    }

    /// How `name`, as the parser read it, is spelled in the source (`x$y` for a
    /// name the parser read as `x_y`, `crate::dollar`).
    pub fn source_name<'n>(&'n self, name: &'n str) -> &'n str {
        self.dollar_names.get(name).map_or(name, |s| s.as_str())
    }

    /// The preprocessed text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// File names; [`SrcLoc::file`] indexes this.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// Original position of byte `offset` of the preprocessed text.
    pub fn loc(&self, offset: usize) -> SrcLoc {
        let offset = offset.min(self.text.len());
        let idx = match self.lines.binary_search_by(|l| l.start.cmp(&offset)) {
            Ok(i) => i,
            Err(0) => {
                return SrcLoc {
                    file: 0,
                    line: 1,
                    col: 1,
                }
            }
            Err(i) => i - 1,
        };
        let pl = self.lines[idx];
        let pp_col = offset - pl.start;
        let col = self.original_column(idx, pl, pp_col).unwrap_or(pp_col);
        SrcLoc {
            file: pl.file,
            line: pl.line.max(1),
            col: col as u32 + 1,
        }
    }

    /// A diagnostic at `offset`.
    pub fn diag(&self, kind: DiagKind, offset: usize, msg: impl Into<String>) -> Diagnostic {
        let l = self.loc(offset);
        Diagnostic::new(
            kind,
            self.files[l.file as usize].clone(),
            l.line,
            l.col,
            msg,
        )
    }

    fn line_text(&self, idx: usize) -> &str {
        let end = self.lines.get(idx + 1).map_or(self.text.len(), |l| l.start);
        self.text[self.lines[idx].start..end].trim_end_matches(['\n', '\r'])
    }

    /// The 0-based original column of preprocessed column `pp_col` on line `idx`.
    fn original_column(&self, idx: usize, pl: PpLine, pp_col: usize) -> Option<usize> {
        let map = self.alignment(idx, pl)?;
        let k = map.partition_point(|t| t.0 <= pp_col);
        if k == 0 {
            return map.first().map(|t| t.2);
        }
        let (s, e, o) = map[k - 1];
        if pp_col < e {
            return Some(o + (pp_col - s));
        }
        Some(map.get(k).map_or(o + (pp_col - s), |t| t.2))
    }

    fn alignment(&self, idx: usize, pl: PpLine) -> Option<Rc<Vec<Aligned>>> {
        if let Some(a) = self.aligned.borrow().get(&idx) {
            return Some(a.clone());
        }
        let orig = self.original(pl.file)?;
        let otoks = orig.get((pl.line as usize).checked_sub(1)?)?;
        let mut in_comment = false;
        let ptoks = tokenize(self.line_text(idx), &mut in_comment);
        let pairs = align(&ptoks, otoks);
        let a = Rc::new(pairs);
        self.aligned.borrow_mut().insert(idx, a.clone());
        Some(a)
    }

    fn original(&self, file: u32) -> Option<Rc<Vec<LineToks>>> {
        if let Some(o) = self.originals.borrow().get(&file) {
            return o.clone();
        }
        let toks = std::fs::read(&self.files[file as usize]).ok().map(|bytes| {
            let text = String::from_utf8_lossy(&bytes);
            let mut in_comment = false;
            Rc::new(
                text.split('\n')
                    .map(|l| tokenize(l, &mut in_comment))
                    .collect::<Vec<_>>(),
            )
        });
        self.originals.borrow_mut().insert(file, toks.clone());
        toks
    }
}

/// For every pp token, its start and end columns and the original column it
/// corresponds to.
fn align(p: &LineToks, o: &LineToks) -> Vec<Aligned> {
    let (n, m) = (p.len(), o.len());
    let mut matched: Vec<Option<usize>> = vec![None; n];
    if n * m <= 1 << 22 {
        // lcs[i][j] = LCS length of p[i..] and o[j..].
        let w = m + 1;
        let mut lcs = vec![0u32; (n + 1) * w];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i * w + j] = if p[i].1 == o[j].1 {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n && j < m {
            if p[i].1 == o[j].1 && lcs[i * w + j] == lcs[(i + 1) * w + j + 1] + 1 {
                matched[i] = Some(j);
                i += 1;
                j += 1;
            } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
                i += 1;
            } else {
                j += 1;
            }
        }
    } else {
        let mut j = 0;
        for (i, t) in p.iter().enumerate() {
            if j < m && t.1 == o[j].1 {
                matched[i] = Some(j);
                j += 1;
            }
        }
    }
    // Unmatched pp tokens: the first unmatched original token between the
    // neighbouring matches, else the previous match, else the pp column.
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let col = match matched[i] {
            Some(j) => o[j].0,
            None => {
                let prev = matched[..i].iter().rev().flatten().next().copied();
                let next = matched[i + 1..].iter().flatten().next().copied();
                let lo = prev.map_or(0, |j| j + 1);
                let hi = next.unwrap_or(m);
                if lo < hi {
                    o[lo].0
                } else if let Some(j) = prev {
                    o[j].0
                } else {
                    p[i].0
                }
            }
        };
        out.push((p[i].0, p[i].0 + p[i].1.len(), col));
    }
    out
}

/// Splits a line into C tokens (comments skipped; `in_comment` carries an open
/// `/* ... */` across lines).
fn tokenize(line: &str, in_comment: &mut bool) -> LineToks {
    let b = line.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if *in_comment {
            match line[i..].find("*/") {
                Some(k) => {
                    i += k + 2;
                    *in_comment = false;
                }
                None => break,
            }
            continue;
        }
        let c = b[i];
        let start = i;
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line[i..].starts_with("//") {
            break;
        }
        if line[i..].starts_with("/*") {
            *in_comment = true;
            i += 2;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            while i < b.len() {
                let d = b[i];
                let exp_sign =
                    (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if exp_sign || d.is_ascii_alphanumeric() || d == b'_' || d == b'.' {
                    i += 1;
                } else {
                    break;
                }
            }
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
        } else {
            i += punct_len(&b[i..]);
        }
        while !line.is_char_boundary(i) {
            i += 1;
        }
        toks.push((start, line[start..i].to_string()));
    }
    toks
}

fn punct_len(b: &[u8]) -> usize {
    const THREE: [&[u8]; 3] = [b"<<=", b">>=", b"..."];
    const TWO: [&[u8]; 19] = [
        b"->", b"++", b"--", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"*=", b"/=",
        b"%=", b"+=", b"-=", b"&=", b"^=", b"|=",
    ];
    if THREE.iter().any(|t| b.starts_with(t)) {
        3
    } else if TWO.iter().any(|t| b.starts_with(t)) || b.starts_with(b"##") {
        2
    } else {
        1
    }
}

/// Parses a line marker `# N "file" flags...`, returning `N` and the unescaped name.
fn parse_marker(line: &str) -> Option<(u32, String)> {
    let rest = line.strip_prefix("# ")?;
    let sp = rest.find(' ')?;
    let n: u32 = rest[..sp].parse().ok()?;
    let rest = rest[sp + 1..].strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = rest.chars();
    loop {
        match chars.next()? {
            '"' => break,
            '\\' => {
                let c = chars.next()?;
                if c.is_digit(8) {
                    // Octal escape (up to three digits).
                    let mut v = c.to_digit(8)?;
                    let look = chars.clone().take(2).take_while(|d| d.is_digit(8)).count();
                    for _ in 0..look {
                        v = v * 8 + chars.next()?.to_digit(8)?;
                    }
                    name.push(char::from_u32(v).unwrap_or('?'));
                } else {
                    name.push(c);
                }
            }
            c => name.push(c),
        }
    }
    Some((n, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers() {
        assert_eq!(
            parse_marker("# 12 \"a b.c\" 1 3\n"),
            Some((12, "a b.c".into()))
        );
        assert_eq!(
            parse_marker("# 1 \"x\\\\y\\\"z\""),
            Some((1, "x\\y\"z".into()))
        );
        assert_eq!(parse_marker("#pragma once"), None);
        assert_eq!(parse_marker("# x \"f\""), None);
    }

    #[test]
    fn lines_follow_markers() {
        let text = "# 1 \"m.c\"\nint a;\n# 1 \"h.h\" 1\nint b;\n\n# 3 \"m.c\" 2\nint c;\n";
        let m = SrcMap::new(text.to_string(), "m.c");
        let at = |s: &str| m.loc(text.find(s).unwrap());
        assert_eq!((at("a;").file, at("a;").line), (0, 1));
        assert_eq!((at("b;").file, at("b;").line), (1, 1));
        assert_eq!((at("c;").file, at("c;").line), (0, 3));
        assert_eq!(m.files(), &["m.c".to_string(), "h.h".to_string()]);
    }

    #[test]
    fn columns_survive_comments_and_macros() {
        let dir = std::env::temp_dir().join(format!("porf-srcmap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("c.c");
        let orig = "int  a /* c */ =   N + zz;\n\tint b = F(a) + yy;\n";
        std::fs::write(&path, orig).unwrap();
        let p = path.display().to_string();
        let text = format!("# 1 \"{p}\"\nint a = 3 + zz;\n int b = ((a)+1) + yy;\n");
        let m = SrcMap::new(text.clone(), &p);
        // Search below the marker line (whose path contains the pid's digits).
        let body = text.find('\n').unwrap();
        let col = |s: &str| m.loc(body + text[body..].find(s).unwrap()).col;
        assert_eq!(col("zz"), 24);
        assert_eq!(col("3"), 20); // the expansion of N
        assert_eq!(col("yy"), 17);
        assert_eq!(col("((a)"), 10); // the expansion of F(a)
        assert_eq!(col("b ="), 6);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tokenizer() {
        let mut c = false;
        let t: Vec<String> = tokenize("a<<=b->c /* x */ 1.5e+3 \"s\\\"\" 'c' /* open", &mut c)
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(
            t,
            ["a", "<<=", "b", "->", "c", "1.5e+3", "\"s\\\"\"", "'c'"]
        );
        assert!(c);
        assert!(tokenize("still */ x", &mut c).iter().any(|t| t.1 == "x"));
    }
}
