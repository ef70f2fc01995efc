//! Running an assembly test: its [`AsmProgram`] explored under a model, the final
//! states counted and the condition read off them as for C tests ([`crate::run`]).
//!
//! A register's final value is the value its thread left in it, read through the
//! view the condition names (`W0` is the low 32 bits of `X0`); a location's is that
//! of its co-last write, or its initial value. A value that is the base address of a
//! location prints as the location's name, as herd prints it.

use super::ir::{Arch, Reg};
use super::layout::{low_bytes, narrow_reg, Layout};
use super::machine::AsmProgram;
use super::AsmLitmus;
use crate::ast::{needed, observed, Loc, Value};
use crate::run::{
    chosen_strategy, config, raised_flags, sees_exclusive_pairs, sort_errors, tally, CheckError,
    Options, Outcome, Reading,
};
use porf_explore::ErrorClass;
use porf_models::MemoryModel;
use std::collections::HashMap;
use std::time::Instant;

/// Why the native model `name` cannot answer for a test of `arch`, if it cannot: each
/// architecture's model (`armv8`, `riscv`, `power`, `tso`) reads only its own
/// architecture's barriers and annotations, so under another one a test's barriers
/// would be ignored (herd7 refuses such combinations too), and `lkmm` reads the
/// kernel's primitives only. Architecture-independent models (`sc`, the C11-style ones,
/// cat files) are the user's choice.
pub fn foreign_model(arch: Arch, name: &str) -> Option<String> {
    let own = [Arch::AArch64, Arch::RiscV, Arch::Ppc, Arch::X86]
        .into_iter()
        .find(|a| a.model() == name);
    match own {
        Some(a) if a != arch => Some(format!(
            "model `{name}` is {}'s and reads only its barriers and annotations; this is an {} test (its model is `{}`)",
            a.name(),
            arch.name(),
            arch.model()
        )),
        None if name == "lkmm" => Some(format!(
            "model `lkmm` reads the Linux kernel's primitives; this is an {} test (its model is `{}`)",
            arch.name(),
            arch.model()
        )),
        _ => None,
    }
}

/// Why porf cannot run a mixed-size test (access unit `unit`) exactly under
/// model `model`, if it cannot: the split accesses' `si` is read by the native
/// `armv8` and by cat models only, and a location the condition reads must have a
/// declared type of whole units (its value is their composition).
fn mixed_size_supported(
    layout: &Layout,
    unit: u64,
    model: &str,
    needed: &[Loc],
) -> Result<(), String> {
    if model != "armv8" && !model.starts_with("cat:") {
        return Err(format!(
            "a mixed-size test (accesses of several sizes to one location) runs under `armv8` \
             or a cat model, which read the split accesses' `si`; `{model}` would let them tear"
        ));
    }
    for loc in needed {
        let Loc::Global(x) = loc else { continue };
        let a = layout.addr_of(x).expect("every name has a region");
        match layout.region_at(a) {
            Some((r, _)) if r.array => {
                return Err(format!("the mixed-size test's condition reads array `{x}`"))
            }
            Some((r, _)) => match r.value_bytes {
                Some(b) if b >= unit && b.is_multiple_of(unit) => {}
                Some(b) => {
                    return Err(format!(
                        "`{x}` ({b} bytes) is not made of the test's {unit}-byte access units"
                    ))
                }
                None => unreachable!("a scalar has a value size"),
            },
            None => {}
        }
    }
    Ok(())
}

/// Checks the assembly test `t` under `model`.
pub fn check_asm(
    t: &AsmLitmus,
    model: &dyn MemoryModel,
    model_name: &str,
    opts: &Options,
) -> Result<Outcome, CheckError> {
    let start = Instant::now();
    if let Some(why) = foreign_model(t.arch, model.name()) {
        return Err(CheckError::Unsupported(format!(
            "{}:1:1: unsupported: {why}",
            t.file
        )));
    }
    let strategy = chosen_strategy(model, model_name, opts)
        .map_err(|m| CheckError::Unsupported(format!("{}:1:1: unsupported: {m}", t.file)))?;
    if let Some((ins, th)) = t.threads.iter().find_map(|th| {
        th.code
            .iter()
            .find(|i| matches!(i.op, super::ir::Op::StoreEx { .. }))
            .map(|i| (i, th.id))
    }) {
        if let Err(why) = sees_exclusive_pairs(model, model_name, strategy) {
            return Err(CheckError::Unsupported(format!(
                "{}:{}:{}: unsupported: `{}` (P{th}) is a store-exclusive and {why}: \
                 no verdict rather than one that ignores the pair's atomicity",
                t.file, ins.pos.line, ins.pos.col, ins.text
            )));
        }
    }
    if opts.all_release_acquire {
        return Err(CheckError::Unsupported(format!(
            "{}:1:1: unsupported: --all-release-acquire reads C programs; an {} test's \
             accesses have the orderings its instructions give",
            t.file, t.arch
        )));
    }
    let layout = Layout::new(t).map_err(CheckError::Litmus)?;
    let needed = needed(&t.locations, &t.cond, t.filter.as_ref());
    if let Some(unit) = layout.unit {
        mixed_size_supported(&layout, unit, model.name(), &needed)
            .map_err(|m| CheckError::Unsupported(format!("{}:1:1: unsupported: {m}", t.file)))?;
    }
    let observed = observed(&t.locations, &t.cond);
    // Each needed register: its thread, its index in the thread's reported
    // registers, and the view's size.
    let mut regs: Vec<Vec<Reg>> = vec![Vec::new(); t.threads.len()];
    let mut where_reg: HashMap<Loc, (u32, usize, super::ir::Size)> = HashMap::new();
    for loc in &needed {
        let Loc::Reg(th, name) = loc else { continue };
        let (reg, size) = t
            .arch
            .parse_reg(name)
            .expect("the parser checked the condition's registers");
        let list = &mut regs[*th as usize];
        let i = list.iter().position(|r| *r == reg).unwrap_or_else(|| {
            list.push(reg);
            list.len() - 1
        });
        where_reg.insert(loc.clone(), (*th, i, size));
    }
    let prog = AsmProgram::new(t.clone(), layout, regs, opts.unroll);
    let layout = prog.layout();
    let stats = porf_explore::explore(strategy, &prog, model, &config(opts));
    let (races, errors) = sort_errors(&t.file, &prog, &stats, &[ErrorClass::NonTermination])?;

    let addr_value = |v: &Value| match v {
        Value::Int(i) => *i,
        Value::Addr(x) => layout.addr_of(x).map_or(-1, |a| a as i64),
    };
    let val = |fs: &porf_explore::FinalState, loc: &Loc| match loc {
        Loc::Reg(..) => {
            let (th, i, size) = where_reg[loc];
            let v = fs
                .registers
                .iter()
                .find(|(tid, _)| *tid == th + 1)
                .and_then(|(_, vs)| vs.get(i).copied())
                .unwrap_or(0);
            narrow_reg(t.arch, size, v)
        }
        Loc::Global(x) => {
            let a = layout.addr_of(x).expect("every name has a region");
            let at = |a: u64| {
                fs.memory
                    .iter()
                    .find(|&&(m, _)| m == a)
                    .map_or_else(|| layout.init_value(a), |&(_, v)| v)
            };
            match (
                layout.unit,
                layout.region_at(a).and_then(|(r, _)| r.value_bytes),
            ) {
                // The units the declared type covers, composed little-endian.
                (Some(unit), Some(bytes)) => (0..bytes / unit).fold(0u64, |v, k| {
                    v | (low_bytes(at(a + k * unit) as u64, unit) << (8 * k * unit))
                }) as i64,
                _ => at(a),
            }
        }
    };
    let show = |_: &Loc, v: i64| match layout.symbol_of_value(v) {
        Some(n) => n.to_string(),
        None => v.to_string(),
    };
    let reading = Reading {
        val: &val,
        addr_value: &addr_value,
        show: &show,
    };
    let (states, positive, negative) = tally(
        &stats.final_state_counts,
        &observed,
        t.filter.as_ref(),
        &t.cond.prop,
        &reading,
    );
    Ok(Outcome {
        name: t.name.clone(),
        file: t.file.clone(),
        model: model_name.to_string(),
        cond: t.cond.clone(),
        states,
        positive,
        negative,
        races,
        errors,
        flags: raised_flags(&stats.flags, t.filter.as_ref(), &reading),
        loop_cut: stats.bound_cut > 0,
        bound_cut: stats.bound_cut,
        elapsed: start.elapsed(),
    })
}
