//! The sections of an assembly test: header, preamble, initial state, the thread
//! table (rows, columns, labels, instructions) and the constraints.

use super::cell::{lex, Cursor, Src, Tok};
use super::ir::*;
use super::AsmLitmus;
use crate::ast::{Cond, Loc, Pos, Prop, Quant};
use crate::parse::{constraints_at, init_block, LitmusError};

type R<T> = Result<T, LitmusError>;

/// herd's words that end the thread table and start the constraints.
const CONSTRAINT_WORDS: &[&str] = &[
    "exists",
    "forall",
    "final",
    "locations",
    "filter",
    "observed",
    "Observed",
    "cases",
];

pub(super) fn parse(file: &str, text: &str) -> R<AsmLitmus> {
    let src = Src {
        file,
        text,
        lines: std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect(),
    };
    let b = text.as_bytes();
    let mut pos = skip_blank_and_comments(&src, 0)?;
    if pos >= b.len() {
        return src.err(
            pos,
            "empty file: expected `AArch64 NAME`, `RISCV NAME`, `PPC NAME` or `X86 NAME`",
        );
    }
    let word_end = pos
        + text[pos..]
            .find(char::is_whitespace)
            .unwrap_or(text.len() - pos);
    let word = &text[pos..word_end];
    let Some(arch) = Arch::from_header(word) else {
        return src.err(
            pos,
            format!(
                "`{word}` is not an assembly architecture porf reads (AArch64, RISCV, PPC, X86)"
            ),
        );
    };
    pos = word_end;
    while pos < b.len() && matches!(b[pos], b' ' | b'\t' | b'\r') {
        pos += 1;
    }
    let name_end = pos
        + text[pos..]
            .find(char::is_whitespace)
            .unwrap_or(text.len() - pos);
    if name_end == pos {
        return src.err(pos, format!("expected the test name after `{word}`"));
    }
    let name = text[pos..name_end].to_string();
    let (doc, info, brace) = preamble(&src, name_end)?;
    let (init, init_end) = init_block(file, text, brace)?;
    let cons = constraints_start(&src, init_end)?;
    let table_end = cons.unwrap_or(text.len());
    let threads = threads(&src, arch, init_end, table_end)?;
    let (locations, filter, cond, kinds) = match cons {
        Some(at) => {
            let cut = config_start(&src, at)?;
            constraints_at(file, &text[..cut], at)?
        }
        None => (
            Vec::new(),
            None,
            Cond {
                quant: Quant::Forall,
                prop: Prop::And(vec![]),
            },
            Vec::new(),
        ),
    };
    let t = AsmLitmus {
        arch,
        file: file.to_string(),
        name,
        doc,
        info,
        init,
        threads,
        locations,
        filter,
        cond,
        kinds,
    };
    check_registers(&src, &t)?;
    Ok(t)
}

/// Skips whitespace and `(* *)` comments (nested) from `pos`.
fn skip_blank_and_comments(src: &Src, mut pos: usize) -> R<usize> {
    let b = src.text.as_bytes();
    loop {
        while pos < b.len() && b[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if b[pos..].starts_with(b"(*") {
            pos = comment_end(src, pos)?;
        } else {
            return Ok(pos);
        }
    }
}

/// The offset just past the `(* *)` comment opening at `start` (nested comments).
fn comment_end(src: &Src, start: usize) -> R<usize> {
    let b = src.text.as_bytes();
    let mut depth = 0;
    let mut i = start;
    while i < b.len() {
        if b[i..].starts_with(b"(*") {
            depth += 1;
            i += 2;
        } else if b[i..].starts_with(b"*)") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return Ok(i);
            }
        } else {
            i += 1;
        }
    }
    src.err(start, "unterminated comment `(*`")
}

/// The doc string, the `Key=value` lines and the offset of the `{`.
type Preamble = (Option<String>, Vec<(String, String)>, usize);

/// From the end of the test name to the `{` opening the initial state: the doc
/// string (the first quoted string), herd's `Key=value` lines, and text herd skips.
fn preamble(src: &Src, mut pos: usize) -> R<Preamble> {
    let text = src.text;
    let b = text.as_bytes();
    let mut doc = None;
    let mut info = Vec::new();
    let mut line_start = true;
    while pos < b.len() {
        match b[pos] {
            b'{' => return Ok((doc, info, pos)),
            b'\n' => {
                line_start = true;
                pos += 1;
            }
            b'"' => {
                let Some(len) = text[pos + 1..].find('"') else {
                    return src.err(pos, "unterminated doc string");
                };
                if doc.is_none() {
                    doc = Some(text[pos + 1..pos + 1 + len].to_string());
                }
                pos += len + 2;
                line_start = false;
            }
            b'(' if b[pos..].starts_with(b"(*") => {
                pos = comment_end(src, pos)?;
            }
            c if c.is_ascii_whitespace() => pos += 1,
            c if line_start && c.is_ascii_alphabetic() => {
                let end = text[pos..].find('\n').map_or(b.len(), |i| pos + i);
                let line = &text[pos..end];
                let key_len = line
                    .bytes()
                    .take_while(|&c| c.is_ascii_alphanumeric() || b"_/.-".contains(&c))
                    .count();
                // The whole line is the value, `{` included, as herd reads it.
                if let Some(v) = line[key_len..].trim_start().strip_prefix('=') {
                    info.push((line[..key_len].to_string(), v.trim().to_string()));
                    pos = end;
                    continue;
                }
                line_start = false;
            }
            _ => {
                line_start = false;
                pos += 1;
            }
        }
    }
    src.err(
        pos,
        "unexpected end of file: expected `{` starting the initial state",
    )
}

/// Where the constraints start: the first of herd's constraint words (or `~exists`)
/// outside comments after `from`, as a whole name; `None` if there is none.
fn constraints_start(src: &Src, from: usize) -> R<Option<usize>> {
    let text = src.text;
    let b = text.as_bytes();
    let is_name = |c: u8| c.is_ascii_alphanumeric() || b"_/.-".contains(&c);
    let mut i = from;
    while i < b.len() {
        let c = b[i];
        if b[i..].starts_with(b"(*") {
            i = comment_end(src, i)?;
        } else if c == b'~' {
            let mut j = i + 1;
            while j < b.len() && matches!(b[j], b' ' | b'\t') {
                j += 1;
            }
            if b[j..].starts_with(b"exists") && !b.get(j + 6).copied().is_some_and(is_name) {
                return Ok(Some(i));
            }
            i += 1;
        } else if c.is_ascii_alphabetic() {
            let mut j = i;
            while j < b.len() && is_name(b[j]) {
                j += 1;
            }
            if CONSTRAINT_WORDS.contains(&&text[i..j]) {
                return Ok(Some(i));
            }
            i = j;
        } else if c.is_ascii_digit() || c == b'_' {
            while i < b.len() && is_name(b[i]) {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    Ok(None)
}

/// Where herd's configuration blocks (`<<`) start after the constraints at `from`,
/// or the end of the file.
fn config_start(src: &Src, from: usize) -> R<usize> {
    let b = src.text.as_bytes();
    let mut i = from;
    while i < b.len() {
        if b[i..].starts_with(b"(*") {
            i = comment_end(src, i)?;
        } else if b[i..].starts_with(b"<<") {
            return Ok(i);
        } else {
            i += 1;
        }
    }
    Ok(b.len())
}

/// The thread table between `start` and `end`.
fn threads(src: &Src, arch: Arch, start: usize, end: usize) -> R<Vec<AsmThread>> {
    // The table with its comments blanked out (offsets unchanged).
    let mut clean: Vec<u8> = src.text.as_bytes()[start..end].to_vec();
    let mut i = 0;
    while i < clean.len() {
        if clean[i..].starts_with(b"(*") {
            let e = comment_end(src, start + i)? - start;
            for c in &mut clean[i..e] {
                if *c != b'\n' {
                    *c = b' ';
                }
            }
            i = e;
        } else {
            i += 1;
        }
    }
    let clean = String::from_utf8_lossy(&clean).into_owned();
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let mut row_start = 0;
    for (k, _) in clean.match_indices(';') {
        rows.push((start + row_start, &clean[row_start..k]));
        row_start = k + 1;
    }
    let rest = &clean[row_start..];
    if !rest.trim().is_empty() {
        let lead = rest.len() - rest.trim_start().len();
        let off = start + row_start + lead;
        return if rows.is_empty() {
            src.err(
                off,
                "expected the thread table (`P0 | P1 ;` and rows ending with `;`)",
            )
        } else {
            src.err(off, "expected `;` ending this row of the thread table")
        };
    }
    // herd accepts a `;` before the header row.
    while rows.first().is_some_and(|(_, r)| r.trim().is_empty()) {
        rows.remove(0);
    }
    let Some(&(h_off, header)) = rows.first() else {
        let off = skip_blank_and_comments(src, start)?;
        return src.err(off, "expected the thread table (`P0 | P1 ;`)");
    };
    let mut threads: Vec<AsmThread> = Vec::new();
    for (k, (c_off, cell)) in split_cells(h_off, header).into_iter().enumerate() {
        let lead = cell.len() - cell.trim_start().len();
        let name = cell.trim();
        let off = c_off + lead;
        if name != format!("P{k}") {
            return src.err(
                off,
                format!("expected `P{k}` in the header row of the thread table, found `{name}`"),
            );
        }
        threads.push(AsmThread {
            id: k as u32,
            pos: src.at(off),
            code: Vec::new(),
            labels: Vec::new(),
        });
    }
    for &(r_off, row) in &rows[1..] {
        let cells = split_cells(r_off, row);
        if cells.len() > threads.len() {
            let (c_off, _) = cells[threads.len()];
            return src.err(
                c_off - 1,
                format!(
                    "this row has {} columns but the test has {} thread(s)",
                    cells.len(),
                    threads.len()
                ),
            );
        }
        for (k, (c_off, cell)) in cells.into_iter().enumerate() {
            cell_into(src, arch, &mut threads[k], c_off, cell)?;
        }
    }
    for t in &mut threads {
        for ins in &mut t.code {
            if let Op::Branch { label, target, .. } = &mut ins.op {
                match t.labels.iter().find(|(l, _)| l == label) {
                    Some((_, i)) => *target = *i,
                    None => {
                        return Err(LitmusError {
                            file: src.file.to_string(),
                            line: ins.pos.line,
                            col: ins.pos.col,
                            message: format!("label `{label}` is not defined in P{}", t.id),
                        })
                    }
                }
            }
        }
    }
    Ok(threads)
}

/// The cells of a row (split at `|`), each with its offset.
fn split_cells(off: usize, row: &str) -> Vec<(usize, &str)> {
    let mut v = Vec::new();
    let mut s = 0;
    for (k, _) in row.match_indices('|') {
        v.push((off + s, &row[s..k]));
        s = k + 1;
    }
    v.push((off + s, &row[s..]));
    v
}

/// Parses one cell (labels, then at most one instruction) into thread `t`.
fn cell_into(src: &Src, arch: Arch, t: &mut AsmThread, off: usize, cell: &str) -> R<()> {
    let toks = lex(src, cell, off)?;
    let mut i = 0;
    while let (Some((Tok::Ident(l), l_off)), Some((Tok::Punct(':'), _))) =
        (toks.get(i), toks.get(i + 1))
    {
        if t.labels.iter().any(|(m, _)| m == l) {
            return src.err(*l_off, format!("label `{l}` is defined twice in P{}", t.id));
        }
        t.labels.push((l.clone(), t.code.len()));
        i += 2;
    }
    let Some((first, m_off)) = toks.get(i) else {
        return Ok(());
    };
    let Tok::Ident(m) = first else {
        return src.err(*m_off, format!("expected an instruction, found {first}"));
    };
    let text = cell[m_off - off..].trim().to_string();
    let mut c = Cursor {
        src,
        arch,
        toks: toks[i + 1..].to_vec(),
        i: 0,
        end: off + cell.trim_end().len(),
        mnemonic: text.clone(),
        at: *m_off,
    };
    let op = match arch {
        Arch::AArch64 => super::aarch64::instr(&mut c, &m.to_ascii_uppercase())?,
        Arch::RiscV => super::riscv::instr(&mut c, &m.to_ascii_lowercase())?,
        Arch::Ppc => super::ppc::instr(&mut c, &m.to_ascii_lowercase())?,
        Arch::X86 => super::x86::instr(&mut c, &m.to_ascii_uppercase())?,
    };
    c.done()?;
    t.code.push(Instr {
        op,
        pos: src.at(*m_off),
        text,
    });
    Ok(())
}

/// Registers named in the initial state, `locations`, the filter and the condition
/// belong to an existing thread and are registers of the architecture.
fn check_registers(src: &Src, t: &AsmLitmus) -> R<()> {
    let mut locs: Vec<(Loc, Pos)> = t.locations.clone();
    if let Some(f) = &t.filter {
        f.locs(&mut locs);
    }
    t.cond.prop.locs(&mut locs);
    locs.extend(t.init.iter().map(|i| (i.loc.clone(), i.pos)));
    let n = t.threads.len() as u32;
    for (loc, p) in locs {
        let Loc::Reg(th, r) = &loc else { continue };
        let msg = if *th >= n {
            format!("`{loc}` names thread P{th}, but the test has {n} thread(s)")
        } else if t.arch.parse_reg(r).is_none() {
            format!("`{r}` is not a {} register", t.arch.name())
        } else {
            continue;
        };
        return Err(LitmusError {
            file: src.file.to_string(),
            line: p.line,
            col: p.col,
            message: msg,
        });
    }
    Ok(())
}
