//! The translation of a litmus test into a C program for porf's front end.
//!
//! ```c
//! #define _Atomic                 // herd: atomicity is per access, not per object
//! #include <stdatomic.h>  ...
//! #line 1 "<litmus harness>"
//! int x = 0; int *p = &x;         // one global per location (litmus names)
//! int __porf_reg_1_r0;            // one global per observed register
//! void __porf_P1                  // each thread: its parameter list and body verbatim,
//! #line 9 "test.litmus"           // line for line, so positions map back to the file;
//!    (atomic_int* x, int* y) { int r0 = 0;    // observed registers hoisted after
//!   ... body ...                              // the `{` (see `body`), their final
//! __porf_reg_1_r0 = r0; }                     // values stored before the `}`
//! #line 1 "<litmus harness>"
//! void *__porf_run1(void *a) { __porf_P1((void *)&x, (void *)&y); return NULL; }
//! int main(void) {                // spawn every thread and join them; main reads
//!   ...                           // nothing, so it adds no event that could
//! }                               // multiply or restrict the executions
//! ```
//!
//! The filter and the condition are not part of the program: [`crate::run`] evaluates
//! them on each execution's final state, where a location's value is that of its
//! co-last write (as herd7 computes it). A read in `main` after the joins would not
//! do: under a model where co does not constrain reads (`wra`), it may read a write
//! other than the co-last one.
//!
//! `_Atomic` is defined away because herd's C has no atomic objects: a plain `*x` is a
//! non-atomic access even when `x` is an `atomic_int*`, and only the `atomic_*`
//! operations are atomic accesses, with the orders they name. porf's front end accepts
//! those operations on any integer or pointer object.

use crate::ast::*;
use crate::body;
use crate::parse::LitmusError;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The pseudo file name of the harness code around the litmus text.
pub const HARNESS: &str = "<litmus harness>";

/// A translated test.
#[derive(Clone, Debug)]
pub struct Translation {
    /// The C program.
    pub c: String,
    /// Every shared location and its C type.
    pub globals: BTreeMap<String, String>,
    /// For each observed location, the name of the global cell holding its final
    /// value and whether it holds a pointer.
    pub cells: BTreeMap<Loc, (String, bool)>,
}

/// The global cell holding register `r` of thread `t` at the end.
pub fn reg_cell(t: u32, r: &str) -> String {
    format!("__porf_reg_{t}_{r}")
}

const C_KEYWORDS: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "_Bool", "_Atomic", "main", "bool", "NULL",
];

struct Tx<'a> {
    l: &'a Litmus,
    lines: Vec<usize>,
}

impl Tx<'_> {
    fn err<T>(&self, p: Pos, msg: impl Into<String>) -> Result<T, LitmusError> {
        Err(LitmusError {
            file: self.l.file.clone(),
            line: p.line,
            col: p.col,
            message: msg.into(),
        })
    }

    fn pos(&self, off: usize) -> Pos {
        let line = self.lines.partition_point(|&s| s <= off);
        Pos {
            line: line as u32,
            col: (off - self.lines[line - 1] + 1) as u32,
        }
    }
}

/// A C string literal for a `#line` directive.
fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A type without qualifiers that would stop a global from being written.
fn global_type(t: &str) -> String {
    t.split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "static" | "register"))
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" *", "*")
}

fn c_value(v: &Value) -> String {
    match v {
        Value::Int(i) if *i == i64::MIN => format!("({} - 1)", i + 1),
        Value::Int(i) => format!("({i})"),
        Value::Addr(x) => format!("(&{x})"),
    }
}

/// Translates `l` into a C program (see the module documentation).
pub fn translate(l: &Litmus) -> Result<Translation, LitmusError> {
    let tx = Tx {
        l,
        lines: std::iter::once(0)
            .chain(l.text.match_indices('\n').map(|(i, _)| i + 1))
            .collect(),
    };
    // Shared locations, with the position that introduced each.
    let mut names: BTreeMap<String, Pos> = BTreeMap::new();
    let mut add = |n: &str, p: Pos| {
        names.entry(n.to_string()).or_insert(p);
    };
    for i in &l.init {
        if let Loc::Global(x) = &i.loc {
            add(x, i.pos);
        }
        if let Value::Addr(x) = &i.value {
            add(x, i.pos);
        }
    }
    for t in &l.threads {
        for p in &t.params {
            add(&p.name, p.pos);
        }
    }
    let mut mentioned: Vec<(Loc, Pos)> = l.locations.clone();
    l.cond.prop.locs(&mut mentioned);
    if let Some(f) = &l.filter {
        f.locs(&mut mentioned);
    }
    for (loc, p) in &mentioned {
        if let Loc::Global(x) = loc {
            add(x, *p);
        }
    }
    let mut addrs = Vec::new();
    l.cond.prop.addrs(&mut addrs);
    if let Some(f) = &l.filter {
        f.addrs(&mut addrs);
    }
    for (x, p) in &addrs {
        add(x, *p);
    }
    for (n, p) in &names {
        if n.starts_with("__porf") || C_KEYWORDS.contains(&n.as_str()) {
            return tx.err(*p, format!("`{n}` cannot be used as a location name"));
        }
        if n.starts_with('P') && n[1..].bytes().all(|c| c.is_ascii_digit()) && n.len() > 1 {
            return tx.err(*p, format!("`{n}` names a thread, not a location"));
        }
    }
    // Types: declared in the init block, else the first parameter's pointee type, else
    // `int*` for a location holding an address, else `int`.
    let init_of = |x: &str| l.init.iter().find(|i| i.loc == Loc::Global(x.to_string()));
    let mut globals: BTreeMap<String, String> = BTreeMap::new();
    for n in names.keys() {
        let from_init = init_of(n).and_then(|i| i.ty.clone());
        let from_param = || {
            l.threads
                .iter()
                .flat_map(|t| &t.params)
                .find(|p| &p.name == n)
                .map(|p| p.pointee())
        };
        let is_addr = init_of(n).is_some_and(|i| matches!(i.value, Value::Addr(_)));
        let ty = from_init
            .or_else(from_param)
            .unwrap_or_else(|| if is_addr { "int*" } else { "int" }.to_string());
        globals.insert(n.clone(), global_type(&ty));
    }
    for i in &l.init {
        if let (Loc::Global(x), Value::Addr(y)) = (&i.loc, &i.value) {
            if !globals[x].ends_with('*') {
                return tx.err(
                    i.pos,
                    format!(
                        "`{x}` has type `{}`, which cannot hold the address of `{y}`",
                        globals[x]
                    ),
                );
            }
        }
    }

    // Registers: observed ones and those the init block sets, per thread.
    let mut regs: Vec<BTreeMap<String, (Option<Value>, Pos)>> =
        vec![BTreeMap::new(); l.threads.len()];
    for (loc, p) in &mentioned {
        if let Loc::Reg(t, r) = loc {
            regs[*t as usize].entry(r.clone()).or_insert((None, *p));
        }
    }
    for i in &l.init {
        if let Loc::Reg(t, r) = &i.loc {
            regs[*t as usize].insert(r.clone(), (Some(i.value.clone()), i.pos));
        }
    }

    let file = c_string(&l.file);
    let harness = c_string(HARNESS);
    let mut c = String::new();
    let _ = writeln!(c, "/* porf: the litmus test {} as a C program */", l.name);
    c.push_str("#define _Atomic\n#include <stdatomic.h>\n#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <pthread.h>\n");
    let _ = writeln!(c, "#line 1 {harness}");
    for (n, ty) in &globals {
        let _ = writeln!(c, "extern {ty} {n};");
    }
    for (n, ty) in &globals {
        let v = init_of(n).map_or("0".to_string(), |i| c_value(&i.value));
        let _ = writeln!(c, "{ty} {n} = {v};");
    }

    let mut cells: BTreeMap<Loc, (String, bool)> = BTreeMap::new();
    for (n, ty) in &globals {
        cells.insert(Loc::Global(n.clone()), (n.clone(), ty.ends_with('*')));
    }
    let mut threads_c = String::new();
    for (t, th) in l.threads.iter().enumerate() {
        let tregs = &regs[t];
        let is_param = |r: &str| th.params.iter().any(|p| p.name == r);
        let body_text = &l.text[th.body_start..th.body_end];
        let rw = body::rewrite(body_text, th.body_start, &|n| {
            tregs.contains_key(n) && !is_param(n)
        })
        .map_err(|(off, msg)| {
            let p = tx.pos(off);
            LitmusError {
                file: l.file.clone(),
                line: p.line,
                col: p.col,
                message: msg,
            }
        })?;
        let mut hoist = String::new();
        let mut capture = String::new();
        for (r, (init, p)) in tregs {
            let cell = reg_cell(t as u32, r);
            let ty = if let Some(param) = th.params.iter().find(|q| &q.name == r) {
                if init.is_some() {
                    return tx.err(
                        *p,
                        format!("`{t}:{r}` is a parameter of P{t}: it cannot be initialised"),
                    );
                }
                global_type(&param.ty)
            } else {
                let ty = rw.hoisted.get(r).cloned().unwrap_or_else(|| "int".into());
                let v = init.as_ref().map_or("0".to_string(), c_value);
                let _ = write!(hoist, " {ty} {r} = {v};");
                global_type(&ty)
            };
            let _ = writeln!(c, "{ty} {cell};");
            let _ = write!(capture, " {cell} = {r};");
            cells.insert(Loc::Reg(t as u32, r.clone()), (cell, ty.ends_with('*')));
        }
        // One output line per litmus line, so that the front end maps every token
        // back to its line and column: the hoisted declarations follow the `{`, the
        // captures precede the `}`, on the same lines.
        let open = tx.pos(th.params_start);
        let _ = writeln!(threads_c, "void __porf_P{t}");
        let _ = writeln!(threads_c, "#line {} {file}", open.line);
        threads_c.push_str(&" ".repeat(open.col as usize - 1));
        threads_c.push_str(&l.text[th.params_start..th.body_start]);
        threads_c.push_str(&hoist);
        threads_c.push_str(&rw.text);
        threads_c.push_str(&capture);
        threads_c.push_str("}\n");
    }
    c.push_str(&threads_c);
    let _ = writeln!(c, "#line 1 {harness}");
    for (t, th) in l.threads.iter().enumerate() {
        let args: Vec<String> = th
            .params
            .iter()
            .map(|p| format!("(void *)&{}", p.name))
            .collect();
        let _ = writeln!(
            c,
            "void *__porf_run{t}(void *__porf_arg) {{ __porf_P{t}({}); return NULL; }}",
            args.join(", ")
        );
    }
    c.push_str("int main(void) {\n");
    for t in 0..l.threads.len() {
        let _ = writeln!(c, "  pthread_t __porf_t{t};");
    }
    for t in 0..l.threads.len() {
        let _ = writeln!(
            c,
            "  pthread_create(&__porf_t{t}, NULL, __porf_run{t}, NULL);"
        );
    }
    for t in 0..l.threads.len() {
        let _ = writeln!(c, "  pthread_join(__porf_t{t}, NULL);");
    }
    c.push_str("  return 0;\n}\n");
    Ok(Translation { c, globals, cells })
}
