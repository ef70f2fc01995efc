//! herd's C litmus tests with the Linux kernel's primitives (`READ_ONCE`,
//! `smp_store_release`, `smp_mb`, `xchg_acquire`, `atomic_*`, `spin_lock`,
//! `rcu_read_lock`, `synchronize_rcu`, ...), run under porf's `lkmm` model
//! (`porf_models::lkmm`, the LKMM of Alglave et al., ASPLOS 2018).
//!
//! **Why an interpreter of its own, not a translation to C for `porf-c`**: the LKMM
//! orders accesses by their address, data and control dependencies, so the machine
//! running a thread must know which reads each value was computed from. porf-c's
//! interpreter does not track that (its registers hold values only, and its compiler
//! may fold or move computations, which changes syntactic dependencies). herd's
//! dependencies are syntactic facts of the litmus body, so the body is interpreted
//! directly: [`syntax`] parses the small C fragment kernel tests use, [`compile`]
//! turns it into straight code with the primitives resolved to annotated accesses,
//! and [`machine`] runs it as a porf [`porf_graph::ThreadMachine`] whose registers
//! hold (value, read set) pairs and whose [`porf_graph::ThreadMachine::hw`] reports
//! each access's dependencies, tags and fence kind. The test's header, initial
//! state and condition come from porf-litmus's C parser ([`crate::parse`]); the final
//! states are counted as for C11 tests ([`crate::run`]'s [`Outcome`]).
//!
//! Invariants: a register's read set is exactly the reads its value was computed
//! from, through registers and operators (herd's `addr`/`data` are syntactic: `r & 0`
//! still depends on `r`); an access inside an `if` arm depends by control on the
//! condition's reads, until the arms join; a register either arm sets then has the
//! condition's reads as control-flow sources of its value, which the accesses using
//! it report apart from their dependencies ([`porf_graph::hw::Deps::value`], for the
//! values explorer's dependency-cycle check, not for the model). Plain accesses (`*p = e`, `*p` in an
//! expression) are untagged reads and writes (the model's `Plain`), and the model's
//! `data-race` flag is printed as herd prints it (`Flag data-race`), leaving the
//! verdict alone. SRCU's lock is a marked read of the `srcu_struct` and its unlock a
//! marked write of the lock's value back (herd's `linux-kernel.def`), its grace period
//! a fence with the struct's address. Loops are refused with their position, never
//! answered.

pub mod compile;
pub mod machine;
pub mod syntax;

use crate::ast::{Litmus, Loc, Value};
use crate::parse::LitmusError;
use crate::run::{config, raised_flags, sort_errors, tally, CheckError, Options, Outcome, Reading};
use compile::Code;
use machine::{KernelProgram, ThreadCode};
use porf_explore::Strategy;
use porf_graph::SrcLoc;
use porf_models::MemoryModel;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

/// Names only kernel tests use: a test calling one (or declaring an `atomic_t` or
/// `spinlock_t` parameter) is a kernel test.
const KERNEL_MARKS: &[&str] = &[
    "READ_ONCE",
    "WRITE_ONCE",
    "smp_mb",
    "smp_rmb",
    "smp_wmb",
    "smp_load_acquire",
    "smp_store_release",
    "smp_store_mb",
    "smp_mb__before_atomic",
    "smp_mb__after_atomic",
    "smp_mb__after_spinlock",
    "smp_mb__after_unlock_lock",
    "rcu_read_lock",
    "rcu_read_unlock",
    "synchronize_rcu",
    "rcu_dereference",
    "rcu_assign_pointer",
    "spin_lock",
    "spin_unlock",
    "spin_trylock",
    "xchg",
    "xchg_relaxed",
    "xchg_acquire",
    "xchg_release",
    "cmpxchg",
    "cmpxchg_relaxed",
    "cmpxchg_acquire",
    "cmpxchg_release",
    "atomic_read",
    "atomic_set",
    "atomic_inc",
    "atomic_dec",
    "atomic_add_return",
    "atomic_sub_return",
    "atomic_inc_return",
    "atomic_dec_return",
    "atomic_cmpxchg",
    "atomic_xchg",
    "atomic_add_unless",
    "atomic_dec_and_test",
    "atomic_sub_and_test",
    "srcu_read_lock",
    "srcu_read_unlock",
    "synchronize_srcu",
    "synchronize_srcu_expedited",
    "srcu_down_read",
    "srcu_up_read",
    "smp_mb__after_srcu_read_unlock",
];

/// Whether `l` is a test of the Linux kernel's primitives.
pub fn is_kernel(l: &Litmus) -> bool {
    l.threads.iter().any(|t| {
        t.params
            .iter()
            .any(|p| matches!(p.pointee().as_str(), "atomic_t" | "spinlock_t"))
            || words(&l.text[t.body_start..t.body_end]).any(|w| KERNEL_MARKS.contains(&w))
    })
}

/// Whether the file at `path` parses as a test of the Linux kernel's primitives.
pub fn is_kernel_file(path: &std::path::Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    crate::asm::arch_of(&text).is_none()
        && crate::parse(&path.display().to_string(), &text).is_ok_and(|l| is_kernel(&l))
}

fn words(s: &str) -> impl Iterator<Item = &str> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

fn error_at(l: &Litmus, at: usize, message: String) -> CheckError {
    let p = syntax::pos_of(&l.text, at);
    CheckError::Litmus(LitmusError {
        file: l.file.clone(),
        line: p.line,
        col: p.col,
        message,
    })
}

/// A kernel test, compiled: the program and the address of each location.
pub struct Compiled {
    pub program: KernelProgram,
    pub addrs: BTreeMap<String, i64>,
}

/// Parses the bodies of `l` and compiles them.
pub fn compile_test(l: &Litmus) -> Result<Compiled, CheckError> {
    // Locations: the initial state's and the parameters', addressed 8 bytes apart.
    let mut names: Vec<String> = l
        .init
        .iter()
        .filter_map(|i| match &i.loc {
            Loc::Global(x) => Some(x.clone()),
            Loc::Reg(..) => None,
        })
        .chain(
            l.threads
                .iter()
                .flat_map(|t| t.params.iter().map(|p| p.name.clone())),
        )
        // A name as an initial value (`x1 = y1;`, `int *p = &y;`) is a location too.
        .chain(l.init.iter().filter_map(|i| match &i.value {
            Value::Addr(x) => Some(x.clone()),
            Value::Int(_) => None,
        }))
        .collect();
    names.sort();
    names.dedup();
    let addrs: BTreeMap<String, i64> = names
        .iter()
        .enumerate()
        .map(|(k, n)| (n.clone(), 0x1000 + 8 * k as i64))
        .collect();
    let value = |v: &Value, pos: crate::ast::Pos| -> Result<i64, CheckError> {
        match v {
            Value::Int(i) => Ok(*i),
            Value::Addr(x) => addrs.get(x).copied().ok_or_else(|| {
                CheckError::Litmus(LitmusError {
                    file: l.file.clone(),
                    line: pos.line,
                    col: pos.col,
                    message: format!("`{x}` is not a location of the test"),
                })
            }),
        }
    };
    let mut init = BTreeMap::new();
    for a in addrs.values() {
        init.insert(*a, 0);
    }
    for i in &l.init {
        if let Loc::Global(x) = &i.loc {
            init.insert(addrs[x], value(&i.value, i.pos)?);
        }
    }
    let mut threads = Vec::new();
    for t in &l.threads {
        let body = syntax::parse_body(&l.text, t.body_start, t.body_end)
            .map_err(|e| error_at(l, e.at, e.message))?;
        let params: Vec<String> = t.params.iter().map(|p| p.name.clone()).collect();
        let addr_of = |n: &str| {
            if params.iter().any(|p| p == n) {
                addrs.get(n).copied()
            } else {
                None
            }
        };
        let set_regs: Vec<String> = l
            .init
            .iter()
            .filter_map(|i| match &i.loc {
                Loc::Reg(tid, r) if *tid == t.id => Some(r.clone()),
                _ => None,
            })
            .collect();
        let code: Code = compile::compile(&body, &params, &set_regs, &addr_of)
            .map_err(|e| error_at(l, e.at, e.message))?;
        let mut init_regs = vec![0; code.regs.len()];
        for i in &l.init {
            if let Loc::Reg(tid, r) = &i.loc {
                if *tid == t.id {
                    if let Some(k) = code.regs.iter().position(|n| n == r) {
                        init_regs[k] = value(&i.value, i.pos)?;
                    }
                }
            }
        }
        let src = code
            .insts
            .iter()
            .map(|i| {
                let at = match i {
                    compile::Inst::Load { at, .. }
                    | compile::Inst::Store { at, .. }
                    | compile::Inst::Rmw { at, .. }
                    | compile::Inst::Fence { at, .. }
                    | compile::Inst::Lock { at, .. }
                    | compile::Inst::TryLock { at, .. }
                    | compile::Inst::Unlock { at, .. }
                    | compile::Inst::SyncSrcu { at, .. } => *at,
                    _ => return SrcLoc::UNKNOWN,
                };
                let p = syntax::pos_of(&l.text, at);
                SrcLoc {
                    file: 0,
                    line: p.line,
                    col: p.col,
                }
            })
            .collect();
        threads.push(ThreadCode {
            code,
            init_regs,
            src,
        });
    }
    Ok(Compiled {
        program: KernelProgram {
            threads: Arc::new(threads),
            init,
            file: l.file.clone(),
        },
        addrs,
    })
}

/// The explorer that runs `model` exactly on kernel programs: value enumeration
/// ([`Strategy::Values`]) for models that allow load buffering, as `lkmm` does.
/// Values is exact for a model that forbids cycles of rf and dependencies; the LKMM
/// does (`rfe`, `addr`, `(addr | data | ctrl); [W]` and `(addr | data); rfi` are all
/// in its acyclic `hb`, and `rfi` alone in `coherence`).
fn strategy_for(model: &dyn MemoryModel) -> Strategy {
    porf_explore::default_strategy(model)
}

/// Checks the kernel test `l` under `model`. Only `lkmm` gives the kernel's
/// semantics (RCU, dependencies, the kernel's barriers); other models are refused.
pub fn check(
    l: &Litmus,
    model: &dyn MemoryModel,
    model_name: &str,
    opts: &Options,
) -> Result<Outcome, CheckError> {
    if model.name() != "lkmm" {
        return Err(CheckError::Unsupported(format!(
            "{}:1:1: unsupported: a test of the Linux kernel's primitives runs under \
             --model lkmm only (got `{model_name}`)",
            l.file
        )));
    }
    let strategy = match opts.explorer {
        Some(s) => porf_explore::supported(s, model, Default::default())
            .map(|()| s)
            .map_err(|m| CheckError::Unsupported(format!("{}:1:1: unsupported: {m}", l.file)))?,
        None => strategy_for(model),
    };
    check_with(l, model, model_name, strategy, opts)
}

/// [`check`] with the explorer chosen by the caller (tests run the machine under
/// other models and explorers).
pub fn check_with(
    l: &Litmus,
    model: &dyn MemoryModel,
    model_name: &str,
    strategy: Strategy,
    opts: &Options,
) -> Result<Outcome, CheckError> {
    let start = Instant::now();
    let c = compile_test(l)?;
    let stats = porf_explore::explore(strategy, &c.program, model, &config(opts));
    let (races, errors) = sort_errors(&l.file, &c.program, &stats, &[])?;

    let observed = l.observed();
    let names_by_addr: HashMap<i64, &str> = c.addrs.iter().map(|(n, &a)| (a, n.as_str())).collect();
    let threads = &c.program.threads;
    let addr_value = |v: &Value| match v {
        Value::Int(i) => *i,
        Value::Addr(x) => c.addrs.get(x).copied().unwrap_or(i64::MIN),
    };
    let val = |fs: &porf_explore::FinalState, loc: &Loc| -> i64 {
        match loc {
            Loc::Global(x) => c.addrs.get(x).map_or(0, |a| {
                fs.memory
                    .iter()
                    .find(|&&(m, _)| m as i64 == *a)
                    .map(|&(_, v)| v)
                    .unwrap_or_else(|| c.program.init.get(a).copied().unwrap_or(0))
            }),
            // Thread `Pk` is the (k+1)th thread main spawns: tid k + 1.
            Loc::Reg(t, r) => {
                let Some(k) = l.threads.iter().position(|th| th.id == *t) else {
                    return 0;
                };
                let idx = threads[k].code.regs.iter().position(|n| n == r);
                let vals = fs
                    .registers
                    .iter()
                    .find(|(tid, _)| *tid == k as u32 + 1)
                    .map(|(_, v)| v);
                match (idx, vals) {
                    (Some(i), Some(vals)) => vals.get(i).copied().unwrap_or(0),
                    _ => 0,
                }
            }
        }
    };
    let is_ptr = |loc: &Loc| match loc {
        Loc::Reg(t, r) => l
            .threads
            .iter()
            .position(|th| th.id == *t)
            .and_then(|k| {
                let code = &threads[k].code;
                code.regs.iter().position(|n| n == r).map(|i| code.ptr[i])
            })
            .unwrap_or(false),
        Loc::Global(x) => {
            l.init
                .iter()
                .any(|i| i.loc == *loc && matches!(i.value, Value::Addr(_)))
                || l.init.iter().any(|i| {
                    i.loc == Loc::Global(x.clone())
                        && i.ty.as_deref().is_some_and(|t| t.contains('*'))
                })
        }
    };
    let show = |loc: &Loc, v: i64| match (is_ptr(loc), names_by_addr.get(&v)) {
        (true, Some(n)) => n.to_string(),
        _ => v.to_string(),
    };
    let reading = Reading {
        val: &val,
        addr_value: &addr_value,
        show: &show,
    };
    let (states, positive, negative) = tally(
        &stats.final_state_counts,
        &observed,
        l.filter.as_ref(),
        &l.cond.prop,
        &reading,
    );
    Ok(Outcome {
        name: l.name.clone(),
        file: l.file.clone(),
        model: model_name.to_string(),
        cond: l.cond.clone(),
        states,
        positive,
        negative,
        races,
        errors,
        flags: raised_flags(&stats.flags, l.filter.as_ref(), &reading),
        loop_cut: false,
        bound_cut: stats.bound_cut,
        elapsed: start.elapsed(),
    })
}

#[cfg(test)]
mod tests;
