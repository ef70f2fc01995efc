//! Reads of uninitialised register locals: the static half.
//!
//! A scalar local whose address is never taken lives in a register; declared without
//! an initializer, its value is indeterminate until it is assigned, and again each
//! time its declaration is reached (C11 6.8p3). Reading it then is undefined behaviour
//! (C11 6.3.2.1p2: it could have been declared `register`), so porf reports the read
//! as a memory error, "read of an uninitialised local variable `NAME`".
//!
//! The front end leaves an [`InstKind::Indeterminate`] marker where each such
//! declaration is reached. [`instrument`] runs a forward "maybe uninitialised" data
//! flow over the function's control-flow graph (the gen set: the markers; the kill
//! set: every instruction writing the register; at the entry every marked register is
//! maybe uninitialised, since a `goto` may jump past a declaration) and gives a run-time
//! shadow only to the registers some read of which may see them uninitialised: a flag
//! register, 0 (uninitialised) at the entry (registers start at 0) and at the marker,
//! set to 1 after each write that may be the first since the marker, and tested by an
//! [`InstKind::CheckInit`] right before each such read (terminators included). Along
//! any run, the first write after the last marker is one where the register may be
//! uninitialised, so the flag is 1 exactly when the register was written since its
//! declaration was last reached. A read also counts as a write for the data flow: past
//! it, the register was initialised (or the check ended the thread). Registers every
//! read of which is preceded by a write on every path cost nothing: their markers are
//! removed.
//!
//! Invariant: after [`instrument`], a function holds no `Indeterminate` marker, and
//! every read of a marked register either follows a write on every path or is preceded
//! by a check of its flag.

use crate::ir::{Block, Function, Inst, InstKind, Operand, Reg, Terminator};
use std::collections::HashMap;

/// Replaces the function's [`InstKind::Indeterminate`] markers by the flags and checks
/// their registers need (see the module documentation).
pub fn instrument(f: &mut Function) {
    let mut tracked: Vec<(Reg, String)> = Vec::new();
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::Indeterminate { reg, name } = &i.kind {
                if !tracked.iter().any(|(r, _)| r == reg) {
                    tracked.push((*reg, name.clone()));
                }
            }
        }
    }
    if tracked.is_empty() {
        return;
    }
    let index: HashMap<Reg, usize> = tracked
        .iter()
        .enumerate()
        .map(|(i, (r, _))| (*r, i))
        .collect();
    let entry = maybe_uninit_at_entry(f, &index);
    // The registers some read of which may see them uninitialised.
    let mut needed = vec![false; tracked.len()];
    for (b, blk) in f.blocks.iter().enumerate() {
        let mut st = entry[b].clone();
        for i in &blk.insts {
            i.kind.uses(|o| {
                if let Some(k) = tracked_reg(&index, o) {
                    needed[k] |= st.get(k);
                }
            });
            step(&mut st, &i.kind, &index);
        }
        term_uses(&blk.term, |o| {
            if let Some(k) = tracked_reg(&index, o) {
                needed[k] |= st.get(k);
            }
        });
    }
    let mut flags: Vec<Option<Reg>> = vec![None; tracked.len()];
    for (k, n) in needed.iter().enumerate() {
        if *n {
            flags[k] = Some(f.nregs);
            f.nregs += 1;
        }
    }
    for (b, blk) in f.blocks.iter_mut().enumerate() {
        let mut st = entry[b].clone();
        let old = std::mem::take(&mut blk.insts);
        let mut out = Vec::with_capacity(old.len());
        for i in old {
            let mut checks: Vec<usize> = Vec::new();
            i.kind.uses(|o| {
                if let Some(k) = tracked_reg(&index, o) {
                    if st.get(k) && flags[k].is_some() && !checks.contains(&k) {
                        checks.push(k);
                    }
                }
            });
            for k in checks {
                out.push(check(&tracked[k].1, flags[k], i.src));
            }
            let mut sets: Vec<Reg> = Vec::new();
            i.kind.defs(|r| {
                if let Some(&k) = index.get(&r) {
                    if st.get(k) {
                        sets.extend(flags[k]);
                    }
                }
            });
            step(&mut st, &i.kind, &index);
            match &i.kind {
                InstKind::Indeterminate { reg, .. } => {
                    if let Some(flag) = flags[index[reg]] {
                        out.push(copy(flag, 0, i.src));
                    }
                }
                _ => {
                    let src = i.src;
                    out.push(i);
                    out.extend(sets.into_iter().map(|flag| copy(flag, 1, src)));
                }
            }
        }
        let mut checks: Vec<usize> = Vec::new();
        term_uses(&blk.term, |o| {
            if let Some(k) = tracked_reg(&index, o) {
                if st.get(k) && flags[k].is_some() && !checks.contains(&k) {
                    checks.push(k);
                }
            }
        });
        for k in checks {
            out.push(check(&tracked[k].1, flags[k], blk.term_src));
        }
        blk.insts = out;
    }
}

fn check(name: &str, flag: Option<Reg>, src: porf_graph::SrcLoc) -> Inst {
    Inst {
        lib: None,
        kind: InstKind::CheckInit {
            flag: flag.expect("a checked register has a flag"),
            name: name.to_string(),
        },
        src,
    }
}

fn copy(dst: Reg, v: i64, src: porf_graph::SrcLoc) -> Inst {
    Inst {
        lib: None,
        kind: InstKind::Copy {
            dst,
            src: Operand::Const(v),
        },
        src,
    }
}

fn tracked_reg(index: &HashMap<Reg, usize>, o: Operand) -> Option<usize> {
    match o {
        Operand::Reg(r) => index.get(&r).copied(),
        Operand::Const(_) => None,
    }
}

fn term_uses(t: &Terminator, mut f: impl FnMut(Operand)) {
    match t {
        Terminator::Branch { cond, .. } => f(*cond),
        Terminator::Return(Some(v)) => f(*v),
        _ => {}
    }
}

/// The transfer function of one instruction: a marker makes its register maybe
/// uninitialised; a write makes it initialised, and so does a read (a read of an
/// uninitialised register is checked and ends the thread with the error).
fn step(st: &mut Bits, k: &InstKind, index: &HashMap<Reg, usize>) {
    if let InstKind::Indeterminate { reg, .. } = k {
        st.set(index[reg], true);
    }
    k.uses(|o| {
        if let Some(i) = tracked_reg(index, o) {
            st.set(i, false);
        }
    });
    k.defs(|r| {
        if let Some(&i) = index.get(&r) {
            st.set(i, false);
        }
    });
}

/// The tracked registers that may be uninitialised on entry to each block.
fn maybe_uninit_at_entry(f: &Function, index: &HashMap<Reg, usize>) -> Vec<Bits> {
    let n = f.blocks.len();
    let mut entry = vec![Bits::new(index.len()); n];
    entry[0] = Bits::full(index.len());
    let mut work: Vec<usize> = (0..n).rev().collect();
    let mut queued = vec![true; n];
    while let Some(b) = work.pop() {
        queued[b] = false;
        let mut st = entry[b].clone();
        for i in &f.blocks[b].insts {
            step(&mut st, &i.kind, index);
        }
        for s in successors(&f.blocks[b]) {
            if entry[s].union_with(&st) && !queued[s] {
                queued[s] = true;
                work.push(s);
            }
        }
    }
    entry
}

fn successors(b: &Block) -> Vec<usize> {
    match b.term {
        Terminator::Jump(t) => vec![t as usize],
        Terminator::Branch { then, els, .. } => vec![then as usize, els as usize],
        Terminator::Return(_) | Terminator::Unreachable => Vec::new(),
    }
}

/// A set of tracked registers (bit `i` of word `i / 64`).
#[derive(Clone, PartialEq, Debug)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn full(n: usize) -> Bits {
        let mut b = Bits::new(n);
        for i in 0..n {
            b.set(i, true);
        }
        b
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn set(&mut self, i: usize, on: bool) {
        if on {
            self.0[i / 64] |= 1 << (i % 64);
        } else {
            self.0[i / 64] &= !(1 << (i % 64));
        }
    }
    /// Adds `o`'s members; true if that added any.
    fn union_with(&mut self, o: &Bits) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interp::build::{c, r, FnB};
    use crate::ir::{BinOp, Scalar};

    fn marker(reg: Reg, name: &str) -> InstKind {
        InstKind::Indeterminate {
            reg,
            name: name.into(),
        }
    }

    fn kinds(f: &Function) -> Vec<Vec<InstKind>> {
        f.blocks
            .iter()
            .map(|b| b.insts.iter().map(|i| i.kind.clone()).collect())
            .collect()
    }

    #[test]
    fn a_local_written_before_every_read_costs_nothing() {
        // int x; x = 1; return x + 1;
        let mut b = FnB::new("f", 0);
        let x = b.reg();
        let t = b.reg();
        b.i(marker(x, "x"));
        b.i(InstKind::Copy { dst: x, src: c(1) });
        b.i(InstKind::Binary {
            dst: t,
            op: BinOp::Add,
            a: r(x),
            b: c(1),
            ty: Scalar::INT,
        });
        b.term(Terminator::Return(Some(r(t))));
        let mut f = b.done();
        let nregs = f.nregs;
        instrument(&mut f);
        assert_eq!(f.nregs, nregs);
        assert_eq!(kinds(&f)[0].len(), 2);
        assert!(!kinds(&f)[0]
            .iter()
            .any(|k| matches!(k, InstKind::Indeterminate { .. })));
    }

    #[test]
    fn a_read_on_a_path_without_write_is_checked() {
        // int x; if (p) x = 1; return x;
        let mut b = FnB::new("f", 1);
        let x = b.reg();
        let then = b.block();
        let join = b.block();
        b.i(marker(x, "x"));
        b.term(Terminator::Branch {
            cond: r(0),
            then,
            els: join,
        });
        b.at(then);
        b.i(InstKind::Copy { dst: x, src: c(1) });
        b.term(Terminator::Jump(join));
        b.at(join);
        b.term(Terminator::Return(Some(r(x))));
        let mut f = b.done();
        instrument(&mut f);
        let flag = x + 1;
        assert_eq!(f.nregs, flag + 1);
        let k = kinds(&f);
        assert_eq!(
            k[0],
            vec![InstKind::Copy {
                dst: flag,
                src: c(0)
            }]
        );
        assert_eq!(
            k[1],
            vec![
                InstKind::Copy { dst: x, src: c(1) },
                InstKind::Copy {
                    dst: flag,
                    src: c(1)
                }
            ]
        );
        assert_eq!(
            k[2],
            vec![InstKind::CheckInit {
                flag,
                name: "x".into()
            }]
        );
    }

    #[test]
    fn a_declaration_in_a_loop_makes_the_local_indeterminate_each_time() {
        // for (;;) { int x; if (p) x = 1; use(x); x = 2; }
        let mut b = FnB::new("f", 1);
        let x = b.reg();
        let t = b.reg();
        let head = b.block();
        let then = b.block();
        let rest = b.block();
        b.term(Terminator::Jump(head));
        b.at(head);
        b.i(marker(x, "x"));
        b.term(Terminator::Branch {
            cond: r(0),
            then,
            els: rest,
        });
        b.at(then);
        b.i(InstKind::Copy { dst: x, src: c(1) });
        b.term(Terminator::Jump(rest));
        b.at(rest);
        b.i(InstKind::Copy { dst: t, src: r(x) });
        b.i(InstKind::Copy { dst: x, src: c(2) });
        b.term(Terminator::Jump(head));
        let mut f = b.done();
        instrument(&mut f);
        let flag = t + 1;
        let k = kinds(&f);
        // The marker resets the flag on every iteration; the write after the checked
        // read needs no flag (past the check, x is initialised).
        assert_eq!(
            k[1],
            vec![InstKind::Copy {
                dst: flag,
                src: c(0)
            }]
        );
        assert_eq!(
            k[3],
            vec![
                InstKind::CheckInit {
                    flag,
                    name: "x".into()
                },
                InstKind::Copy { dst: t, src: r(x) },
                InstKind::Copy { dst: x, src: c(2) },
            ]
        );
    }

    #[test]
    fn a_jump_past_the_declaration_reads_an_uninitialised_local() {
        // if (p) goto l; int x = 1; l: return x;
        let mut b = FnB::new("f", 1);
        let x = b.reg();
        let decl = b.block();
        let l = b.block();
        b.term(Terminator::Branch {
            cond: r(0),
            then: l,
            els: decl,
        });
        b.at(decl);
        b.i(marker(x, "x"));
        b.i(InstKind::Copy { dst: x, src: c(1) });
        b.term(Terminator::Jump(l));
        b.at(l);
        b.term(Terminator::Return(Some(r(x))));
        let mut f = b.done();
        instrument(&mut f);
        let flag = x + 1;
        let k = kinds(&f);
        // The flag is 0 on entry (registers start at 0) and set by the initialisation.
        assert_eq!(
            k[1],
            vec![
                InstKind::Copy {
                    dst: flag,
                    src: c(0)
                },
                InstKind::Copy { dst: x, src: c(1) },
                InstKind::Copy {
                    dst: flag,
                    src: c(1)
                },
            ]
        );
        assert_eq!(
            k[2],
            vec![InstKind::CheckInit {
                flag,
                name: "x".into()
            }]
        );
    }
}
