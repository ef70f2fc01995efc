//! [`CProgram`]: an IR module as an engine [`Program`].

use crate::interp::CThread;
use crate::ir::{addr, Builtin, Function, InstKind, Module, Operand, Reg, Scalar, Terminator};
use crate::memory::{block_base, name_of};
use crate::RunOptions;
use porf_graph::{Loc, Program, SrcLoc, Tid, Val};
use std::sync::Arc;

/// A lowered C program with its run-time options. Thread 0 runs `main()` (with
/// `argc = 1` and `argv = {path of the C file, NULL}` if it declares them);
/// `pthread_create` starts a thread running a function with one argument.
#[derive(Clone, Debug)]
pub struct CProgram {
    module: Arc<Module>,
    run: RunOptions,
}

impl CProgram {
    /// Wraps `module`.
    ///
    /// # Panics
    /// If `module` breaks the IR invariants [`validate`] checks (a front-end bug).
    pub fn new(module: Module, run: RunOptions) -> CProgram {
        match CProgram::try_new(module, run) {
            Ok(p) => p,
            Err(e) => panic!("porf-c: invalid IR (front-end bug): {e}"),
        }
    }

    /// Wraps `module` if it satisfies the IR invariants.
    pub fn try_new(mut module: Module, run: RunOptions) -> Result<CProgram, String> {
        validate(&module)?;
        module.loops = if run.spin_assume {
            crate::spin::analyze(&module)
        } else {
            Vec::new()
        };
        module.back_edges = if run.unroll.is_some() {
            crate::unroll::analyze(&module)
        } else {
            Vec::new()
        };
        module.oblivious = crate::symmetric::oblivious(&module, &reachable(&module));
        Ok(CProgram {
            module: Arc::new(module),
            run,
        })
    }

    pub fn module(&self) -> &Module {
        &self.module
    }

    /// The natural loops spin-assume watches (none when it is off) in functions the
    /// program can run (reachable from `main` through calls and function addresses, so
    /// unused library code in porf's headers is not listed): each loop's source
    /// position (what `BlockReason::SpinLoop` blocks carry) and its function's name.
    pub fn spin_loops(&self) -> Vec<(porf_graph::SrcLoc, String)> {
        let m = &self.module;
        let live = reachable(m);
        m.loops
            .iter()
            .zip(&m.funcs)
            .enumerate()
            .filter(|(i, _)| live[*i])
            .flat_map(|(_, (l, f))| l.loops.iter().map(|n| (n.src, f.name.clone())))
            .collect()
    }
}

/// Which functions `main` can reach through direct calls and function addresses (a
/// `FuncAddr`, a constant operand that is a function's address — how a function
/// designator such as `pthread_create`'s third argument is lowered — or a global
/// initialised with one).
fn reachable(m: &Module) -> Vec<bool> {
    let n = m.funcs.len();
    let func_of = |v: Val| {
        (addr::FUNC_BASE..addr::FUNC_BASE + n as Val)
            .contains(&v)
            .then(|| (v - addr::FUNC_BASE) as u32)
    };
    let mut live = vec![false; n];
    let mut todo = vec![m.main];
    todo.extend(m.cells.values().filter_map(|c| func_of(c.init)));
    while let Some(f) = todo.pop() {
        let Some(seen) = live.get_mut(f as usize) else {
            continue;
        };
        if std::mem::replace(seen, true) {
            continue;
        }
        for b in &m.funcs[f as usize].blocks {
            for i in &b.insts {
                match i.kind {
                    InstKind::Call { func, .. } | InstKind::FuncAddr { func, .. } => {
                        todo.push(func)
                    }
                    _ => crate::spin::uses(&i.kind, |o| {
                        if let Operand::Const(v) = o {
                            todo.extend(func_of(v));
                        }
                    }),
                }
            }
        }
    }
    live
}

impl Program for CProgram {
    type Thread = CThread;

    fn main_thread(&self) -> CThread {
        let name = self.module.files.first().map_or("program", |f| f.as_str());
        CThread::main(self.module.clone(), &self.run, name)
    }

    fn spawn(&self, tid: Tid, entry: u32, arg: Val) -> CThread {
        CThread::new(self.module.clone(), &self.run, tid, entry, &[arg])
    }

    fn atomic_sections(&self) -> bool {
        self.module.has_atomic_sections()
    }

    fn awaits(&self) -> bool {
        self.module.has_awaits()
    }

    fn is_heap_block(&self, base: Loc) -> bool {
        matches!(
            crate::memory::classify(base.0 as i64, 0),
            crate::memory::Region::Heap { .. }
        )
    }

    fn function_at(&self, src: SrcLoc) -> Option<String> {
        if src == SrcLoc::UNKNOWN {
            return None;
        }
        let live = reachable(&self.module);
        self.module
            .funcs
            .iter()
            .enumerate()
            .filter(|(i, _)| live[*i])
            .find(|(_, f)| {
                f.blocks
                    .iter()
                    .any(|b| b.term_src == src || b.insts.iter().any(|i| i.src == src))
            })
            .map(|(_, f)| f.name.clone())
    }

    fn block_of(&self, loc: Loc) -> Option<Loc> {
        block_base(loc.0 as i64).map(|b| Loc(b as u64))
    }

    fn init_value(&self, loc: Loc) -> Val {
        self.module.cells.get(&(loc.0 as i64)).map_or(0, |c| c.init)
    }

    fn loc_name(&self, loc: Loc) -> String {
        name_of(&self.module, loc.0 as i64)
    }

    fn show_value(&self, loc: Loc, bytes: u8, val: Val) -> Option<String> {
        crate::memory::show_value(&self.module, loc.0 as i64, bytes, val)
    }

    fn loc_name_in(&self, loc: Loc, site: &dyn Fn(Loc) -> Option<SrcLoc>) -> String {
        crate::memory::name_in(&self.module, loc.0 as i64, site(loc), false)
    }

    fn block_name_in(&self, base: Loc, site: &dyn Fn(Loc) -> Option<SrcLoc>) -> String {
        crate::memory::block_name_in(&self.module, base.0 as i64, site(base))
    }

    fn block_end_in(&self, base: Loc, site: &dyn Fn(Loc) -> Option<SrcLoc>) -> Option<String> {
        crate::memory::block_end_in(&self.module, base.0 as i64, site(base))
    }

    fn uninit_read_message(
        &self,
        loc: Loc,
        site: &dyn Fn(Loc) -> Option<SrcLoc>,
    ) -> Option<String> {
        crate::memory::uninit_read_message(&self.module, loc.0 as i64, site(loc))
    }

    fn show_value_in(
        &self,
        loc: Loc,
        bytes: u8,
        val: Val,
        site: &dyn Fn(Loc) -> Option<SrcLoc>,
    ) -> Option<String> {
        let site = |a: Val| site(Loc(a as u64));
        crate::memory::show_value_in(&self.module, loc.0 as i64, bytes, val, &site)
    }

    fn source_file(&self, file: u32) -> &str {
        self.module
            .files
            .get(file as usize)
            .map_or("", |s| s.as_str())
    }
}

/// Checks the structural invariants the interpreter indexes by without further checks:
/// `main` and every called function exist, direct calls pass exactly `nparams`
/// arguments, registers, blocks, loops and frame offsets are in range, builtins have
/// their arity, accesses have a width of 1, 2, 4, 8 or 16 bytes (16: `crate::wide`), and global cells are
/// disjoint scalars inside the global area, which ends before the heap.
pub fn validate(m: &Module) -> Result<(), String> {
    if m.funcs.get(m.main as usize).is_none() {
        return Err(format!("main function {} does not exist", m.main));
    }
    if m.globals_end > addr::HEAP_BASE {
        return Err(format!(
            "globals end at {:#x}, past the heap base",
            m.globals_end
        ));
    }
    let mut prev_end = addr::GLOBAL_BASE;
    for (&a, c) in &m.cells {
        let end = a + c.ty.size as Val;
        if a < prev_end || end > m.globals_end || !matches!(c.ty.size, 1 | 2 | 4 | 8 | 16) {
            return Err(format!(
                "cell {} at {a:#x} is not a scalar in the global area or overlaps another",
                c.name
            ));
        }
        prev_end = end;
    }
    for f in &m.funcs {
        validate_func(m, f).map_err(|e| format!("in function `{}`: {e}", f.name))?;
    }
    Ok(())
}

fn validate_func(m: &Module, f: &Function) -> Result<(), String> {
    if f.blocks.is_empty() {
        return Err("no blocks".into());
    }
    if f.nparams > f.nregs {
        return Err(format!(
            "{} parameters but {} registers",
            f.nparams, f.nregs
        ));
    }
    if f.loop_heads.windows(2).any(|w| w[0].0 >= w[1].0)
        || f.loop_heads
            .last()
            .is_some_and(|h| h.0 as usize >= f.blocks.len())
    {
        return Err("loop heads not sorted, repeated or out of range".into());
    }
    let reg = |r: Reg| {
        if r < f.nregs {
            Ok(())
        } else {
            Err(format!("register {r} out of range"))
        }
    };
    let op = |o: &Operand| match o {
        Operand::Reg(r) => reg(*r),
        Operand::Const(_) => Ok(()),
    };
    let block = |b: u32| {
        if (b as usize) < f.blocks.len() {
            Ok(())
        } else {
            Err(format!("block {b} out of range"))
        }
    };
    let func = |id: u32| {
        m.funcs
            .get(id as usize)
            .ok_or_else(|| format!("function {id} does not exist"))
    };
    let lp = |id: u32| {
        if id < f.nloops {
            Ok(())
        } else {
            Err(format!("loop {id} out of range"))
        }
    };
    for b in &f.blocks {
        for inst in &b.insts {
            use InstKind as K;
            if let K::Load { ty, .. }
            | K::CopyLoad { ty, .. }
            | K::CopyStore { ty, .. }
            | K::Store { ty, .. }
            | K::Rmw { ty, .. }
            | K::Cas { ty, .. } = &inst.kind
            {
                if !matches!(ty.size, 1 | 2 | 4 | 8 | 16) {
                    return Err(format!("access of {} bytes", ty.size));
                }
            }
            let floats: &[Scalar] = match &inst.kind {
                K::Unary { ty, .. } | K::Binary { ty, .. } => &[*ty],
                K::FloatConvert { from, to, .. } if from.float || to.float => &[*from, *to],
                K::FloatConvert { .. } => return Err("FloatConvert between integers".into()),
                _ => &[],
            };
            if let Some(t) = floats.iter().find(|t| t.float && !matches!(t.size, 4 | 8)) {
                return Err(format!("floating type of {} bytes", t.size));
            }
            match &inst.kind {
                K::Copy { dst, src } => reg(*dst).and(op(src))?,
                K::Unary { dst, a, .. }
                | K::Convert { dst, a, .. }
                | K::FloatConvert { dst, a, .. } => reg(*dst).and(op(a))?,
                K::Binary { dst, a, b, .. } => reg(*dst).and(op(a)).and(op(b))?,
                K::FrameAddr { dst, offset } => {
                    reg(*dst)?;
                    if *offset > f.frame_size {
                        return Err(format!("frame offset {offset} out of range"));
                    }
                }
                K::SharedAddr { dst, offset } => {
                    reg(*dst)?;
                    if *offset > f.shared_size {
                        return Err(format!("shared frame offset {offset} out of range"));
                    }
                }
                K::TlsAddr { dst, offset } => {
                    reg(*dst)?;
                    if *offset as i64 >= m.tls.stride {
                        return Err(format!("thread-local offset {offset} out of range"));
                    }
                }
                K::FuncAddr { dst, func: id } => reg(*dst).and(func(*id).map(|_| ()))?,
                K::Load { dst, addr, .. } => reg(*dst).and(op(addr))?,
                K::CopyLoad {
                    dst, written, addr, ..
                } => reg(*dst).and(reg(*written)).and(op(addr))?,
                K::Store { addr, val, .. } => op(addr).and(op(val))?,
                K::CopyStore {
                    addr, val, written, ..
                } => op(addr).and(op(val)).and(op(written))?,
                K::FrameInit { offset, size, .. } => {
                    if *offset as u64 + *size as u64 > f.frame_size as u64 {
                        return Err(format!("frame range {offset}+{size} out of range"));
                    }
                }
                K::Indeterminate { reg: r, .. } | K::CheckInit { flag: r, .. } => reg(*r)?,
                K::LocalBlock { dst, var, len } => {
                    reg(*dst)?;
                    if let Some(b) = len {
                        op(b)?;
                    }
                    if f.locals.get(*var as usize).is_none_or(|v| v.site.is_none()) {
                        return Err(format!("local {var} has no block of its own"));
                    }
                }
                K::Rmw { dst, addr, val, .. } => reg(*dst).and(op(addr)).and(op(val))?,
                K::Cas {
                    dst,
                    addr,
                    expected,
                    new,
                    ..
                } => reg(*dst).and(op(addr)).and(op(expected)).and(op(new))?,
                K::Fence { .. }
                | K::Abort
                | K::AtomicBegin
                | K::AtomicEnd
                | K::Unsupported { .. } => {}
                K::Call {
                    dst,
                    func: id,
                    args,
                } => {
                    dst.map_or(Ok(()), reg)?;
                    args.iter().try_for_each(op)?;
                    let callee = func(*id)?;
                    let n = callee.nparams as usize;
                    if args.len() != n && !(callee.variadic && args.len() > n) {
                        return Err(format!(
                            "call of `{}` with {} arguments, it takes {}",
                            callee.name,
                            args.len(),
                            callee.nparams
                        ));
                    }
                }
                K::CallIndirect { dst, target, args } => {
                    dst.map_or(Ok(()), reg)?;
                    op(target)?;
                    args.iter().try_for_each(op)?;
                }
                K::Spawn {
                    dst,
                    func: fv,
                    arg,
                    symm,
                    ..
                } => {
                    reg(*dst).and(op(fv)).and(op(arg))?;
                    symm.iter().try_for_each(op)?;
                }
                K::Join { dst, tid } => reg(*dst).and(op(tid))?,
                K::ThreadExit { val } => op(val)?,
                K::Lock { addr }
                | K::Unlock { addr }
                | K::MutexInit { addr }
                | K::MutexDestroy { addr } => op(addr)?,
                K::TryLock { dst, addr } => reg(*dst).and(op(addr))?,
                K::Assume { cond } | K::Assert { cond, .. } | K::Check { cond, .. } => op(cond)?,
                K::Print {
                    dst, pieces, args, ..
                } => {
                    dst.map_or(Ok(()), reg)?;
                    args.iter().try_for_each(op)?;
                    let convs = pieces
                        .iter()
                        .filter(|p| matches!(p, crate::ir::PrintPiece::Conv { .. }))
                        .count();
                    if convs != args.len() {
                        return Err(format!(
                            "print with {convs} conversions and {} arguments",
                            args.len()
                        ));
                    }
                }
                K::Builtin { dst, which, args } => {
                    dst.map_or(Ok(()), reg)?;
                    args.iter().try_for_each(op)?;
                    let arity = match which {
                        Builtin::Malloc | Builtin::Free | Builtin::BlockSize | Builtin::Exit => 1,
                        Builtin::Calloc => 2,
                        Builtin::ThreadSelf | Builtin::Nondet { .. } | Builtin::VaStart => 0,
                        Builtin::FinalBegin | Builtin::FinalEnd => 0,
                        Builtin::HpRetire => 1,
                        Builtin::HpProtect => 2,
                        Builtin::VaArg | Builtin::FormattedByte => 1,
                        Builtin::PrivateGet
                        | Builtin::Await
                        | Builtin::Awaits
                        | Builtin::Choose => 1,
                        Builtin::LoopBound | Builtin::WideConvert { .. } => 1,
                        Builtin::IsGlobal => 1,
                        Builtin::PrivateSet => 2,
                        Builtin::Bits(_) | Builtin::WidePack | Builtin::WideHalf => 2,
                    };
                    if args.len() != arity {
                        return Err(format!("{which:?} with {} arguments", args.len()));
                    }
                }
                K::LoopEnter { id } | K::LoopIter { id } => lp(*id)?,
                K::LoopHint { id, bound } => lp(*id).and(op(bound))?,
            }
        }
        match &b.term {
            Terminator::Jump(t) => block(*t)?,
            Terminator::Branch { cond, then, els } => {
                op(cond).and(block(*then)).and(block(*els))?
            }
            Terminator::Return(v) => v.as_ref().map_or(Ok(()), op)?,
            Terminator::Unreachable => {}
        }
    }
    Ok(())
}
