//! Every event at the expression that performs it.
//!
//! The programs of `tests/positions/` mark each access with a comment right before the
//! token where porf must report it: `/*R*/` a load, `/*W*/` a store, `/*U*/` a
//! read-modify-write (compare-exchange included), `/*L*/` a lock, `/*T*/` a trylock,
//! `/*N*/` an unlock, `/*S*/` a spawn, `/*J*/` a join, `/*M*/` a malloc, `/*F*/` a
//! free, `/*C*/` a fence (blanks and further marks between a mark and its token are
//! skipped: `/*R*/ /*W*/g++` marks both at `g`). A token performs an access when it starts the innermost
//! expression doing it: an lvalue read or written (`x`, `q->count`, `a[i]`), a
//! prefix `++`/`--` (read and write), a call (for the library's events, reported at
//! the user's call).
//!
//! Each program runs once, sequentially (a spawned thread runs to its end at once;
//! memory returns the last value stored), and the check is strict both ways: every
//! event's `line:col` and kind is a marked one, and every mark is met by an event.

use porf_c::{compile_file, CProgram, FrontOptions, RunOptions};
use porf_graph::{Action, Loc, Program, ThreadMachine, Val};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

type Mark = (u32, u32, char);

/// The marks of `text`: `(line, column of the token after the comment, kind)`.
fn marks(text: &str) -> BTreeSet<Mark> {
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(k) = line[from..].find("/*") {
            let at = from + k;
            let rest = &line[at + 2..];
            if let Some(end) = rest.find("*/") {
                let body = &rest[..end];
                if body.len() == 1 && "RWULTNSJMFC".contains(body) {
                    let col = token_after(line, at + 2 + end + 2) + 1;
                    out.insert((i as u32 + 1, col as u32, body.chars().next().unwrap()));
                }
                from = at + 2 + end + 2;
            } else {
                break;
            }
        }
    }
    out
}

/// The byte column (0-based) of the first token at or after `from` in `line`, skipping
/// blanks and other marks.
fn token_after(line: &str, mut from: usize) -> usize {
    loop {
        let rest = &line[from..];
        let trimmed = rest.trim_start();
        from += rest.len() - trimmed.len();
        match trimmed.strip_prefix("/*").and_then(|r| r.find("*/")) {
            Some(end) if end == 1 => from += 2 + end + 2,
            _ => return from,
        }
    }
}

fn kind(a: &Action) -> Option<char> {
    Some(match a {
        Action::Load { .. } => 'R',
        Action::Store { .. } => 'W',
        Action::Rmw { .. } => 'U',
        Action::Lock { .. } => 'L',
        Action::TryLock { .. } => 'T',
        Action::Unlock { .. } => 'N',
        Action::Spawn { .. } => 'S',
        Action::Join { .. } => 'J',
        Action::Malloc { .. } => 'M',
        Action::Free { .. } => 'F',
        Action::Fence { .. } => 'C',
        _ => return None,
    })
}

/// Runs `prog` sequentially; the events of every thread, `(line, col, kind)`, and any
/// thread's error.
fn run(prog: &CProgram) -> (Vec<Mark>, Vec<String>) {
    let mut mem: HashMap<u64, Val> = HashMap::new();
    let mut sizes: HashMap<u64, u64> = HashMap::new();
    let mut events = Vec::new();
    let mut errors = Vec::new();
    let mut results: HashMap<u32, Val> = HashMap::new();
    let mut next_tid = 1u32;
    let mut stack = vec![(0u32, prog.main_thread())];
    while let Some((tid, mut m)) = stack.pop() {
        loop {
            let a = m.peek();
            if let Some(k) = kind(&a) {
                let s = a.src();
                assert_eq!(s.file, 0, "{a:?} outside the program");
                events.push((s.line, s.col, k));
            }
            let get = |mem: &HashMap<u64, Val>, l: Loc| {
                mem.get(&l.0).copied().unwrap_or_else(|| prog.init_value(l))
            };
            let ret = match a {
                Action::Load { loc, .. } => get(&mem, loc),
                Action::Store { loc, val, .. } => {
                    mem.insert(loc.0, val);
                    0
                }
                Action::Rmw { loc, op, .. } => {
                    let old = get(&mem, loc);
                    if let Some(new) = op.apply(old) {
                        mem.insert(loc.0, new);
                    }
                    old
                }
                Action::Lock { loc, .. } | Action::TryLock { loc, .. } => {
                    let old = get(&mem, loc);
                    if old == 0 {
                        mem.insert(loc.0, 1);
                    }
                    old
                }
                Action::Unlock { loc, .. } | Action::MutexInit { loc, .. } => {
                    mem.insert(loc.0, 0);
                    0
                }
                Action::Malloc { base, size, .. } => {
                    sizes.insert(base.0, size);
                    0
                }
                Action::BlockSize { base, .. } => sizes.get(&base.0).copied().unwrap_or(0) as Val,
                Action::Choose { lo, .. } => lo,
                Action::Spawn { entry, arg, .. } => {
                    let t = next_tid;
                    next_tid += 1;
                    m.resume(t as Val);
                    stack.push((tid, m));
                    stack.push((t, prog.spawn(t, entry, arg)));
                    break;
                }
                Action::Join { tid: t, .. } => results.get(&t).copied().unwrap_or(0),
                Action::Finish { ret, .. } => {
                    results.insert(tid, ret);
                    break;
                }
                Action::Error { msg, .. } => {
                    errors.push(msg);
                    break;
                }
                Action::Block { .. } => {
                    errors.push(format!("thread {tid} blocked"));
                    break;
                }
                _ => 0,
            };
            m.resume(ret);
        }
    }
    (events, errors)
}

fn check(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let expected = marks(&text);
    let module = compile_file(path, &FrontOptions::default()).unwrap_or_else(|d| panic!("{d}"));
    let prog = CProgram::new(module, RunOptions::default());
    let (events, errors) = run(&prog);
    let lines: Vec<&str> = text.lines().collect();
    let show = |(l, c, k): Mark| {
        let src = lines.get(l as usize - 1).unwrap_or(&"");
        format!("{}:{l}:{c} {k}  | {}", path.display(), src.trim_start())
    };
    let mut bad: Vec<String> = errors
        .iter()
        .map(|e| format!("{}: {e}", path.display()))
        .collect();
    let seen: BTreeSet<Mark> = events.iter().copied().collect();
    for &e in &seen {
        if !expected.contains(&e) {
            bad.push(format!("event not marked: {}", show(e)));
        }
    }
    for &m in &expected {
        if !seen.contains(&m) {
            bad.push(format!("mark without an event: {}", show(m)));
        }
    }
    assert!(!expected.is_empty(), "{}: no marks", path.display());
    bad
}

#[test]
fn every_event_is_at_the_expression_performing_it() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/positions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 3);
    let bad: Vec<String> = files.iter().flat_map(|f| check(f)).collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
