//! Which thread functions run *identity-obliviously*, for symmetry reduction's
//! automatic detection (`porf_graph::Symmetry::Auto`, `porf-explore`'s `symmetry.rs`).
//!
//! Two threads running one function on one argument can only be told apart through
//! a value that depends on which thread computed it or through what another thread
//! does with their ids. A function is oblivious when neither it nor any function it
//! calls directly asks for its thread id (`pthread_self`, `__VERIFIER_tid`), takes
//! the address of thread-local storage, allocates memory whose address depends on
//! the thread (heap blocks, shared frames, variable-length and per-declaration
//! blocks), calls through a function pointer, or spawns a thread; and no function
//! `main` can reach joins a thread. Private frame addresses stay in their thread: a
//! local whose address may reach another thread lives in a shared frame
//! (`lower/escape.rs`), which rules its function out. The analysis is conservative:
//! a program it rules out is explored without the automatic reduction, never wrongly.

use crate::ir::{Builtin, InstKind, Module};

/// Per function of `m` (indexed like `m.funcs`): whether threads running it may be
/// taken as interchangeable (the module doc). `live`: the functions `main` can reach.
pub fn oblivious(m: &Module, live: &[bool]) -> Vec<bool> {
    let n = m.funcs.len();
    let joins = m.funcs.iter().zip(live).any(|(f, &l)| {
        l && f.blocks.iter().any(|b| {
            b.insts
                .iter()
                .any(|i| matches!(i.kind, InstKind::Join { .. }))
        })
    });
    if joins {
        return vec![false; n];
    }
    let mut ok: Vec<bool> = m
        .funcs
        .iter()
        .map(|f| {
            f.shared_size == 0
                && f.blocks
                    .iter()
                    .all(|b| b.insts.iter().all(|i| !tells_apart(&i.kind)))
        })
        .collect();
    // The greatest fixpoint of "oblivious and every direct callee is".
    loop {
        let mut changed = false;
        for (i, f) in m.funcs.iter().enumerate() {
            if !ok[i] {
                continue;
            }
            let callees_ok = f.blocks.iter().all(|b| {
                b.insts.iter().all(|i| match i.kind {
                    InstKind::Call { func, .. } => ok.get(func as usize) == Some(&true),
                    _ => true,
                })
            });
            if !callees_ok {
                ok[i] = false;
                changed = true;
            }
        }
        if !changed {
            return ok;
        }
    }
}

/// Whether an instruction may make a value depend on which thread runs it.
fn tells_apart(k: &InstKind) -> bool {
    matches!(
        k,
        InstKind::TlsAddr { .. }
            | InstKind::SharedAddr { .. }
            | InstKind::LocalBlock { .. }
            | InstKind::CallIndirect { .. }
            | InstKind::Spawn { .. }
            | InstKind::Builtin {
                which: Builtin::ThreadSelf | Builtin::Malloc | Builtin::Calloc,
                ..
            }
    )
}
