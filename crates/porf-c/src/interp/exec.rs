//! Running a thread's local instructions up to its next action, and applying the
//! engine's answer to it.

use super::{
    arith, nonterm, Cont, Frame, Machine, Pending, EBUSY, LOCAL_STEP_LIMIT, MAX_CALL_DEPTH,
};
use crate::ir::{Builtin, FuncId, Inst, InstKind, Module, Operand, Reg, Scalar, Terminator};
use crate::memory::{
    classify, frame_addr, func_addr, heap_addr, stack_addr, Fault, Region, HEAP_DATA,
    MAX_HEAP_BLOCKS, MAX_MALLOC, MAX_STACK, MAX_THREADS,
};
use porf_graph::{
    Action, BlockReason, ErrorKind, Loc, MemOrder, Note, RmwOp, SrcLoc, Symmetry, Tid, Val,
};

/// What executing one instruction did.
type Step = Result<Option<Pending>, Fault>;

impl Machine {
    /// Runs local instructions until the next action (at most [`LOCAL_STEP_LIMIT`]; a
    /// run whose state repeats ends earlier, [`super::nonterm`]). Requires a frame.
    pub(super) fn run(&mut self, code: &Module) -> Pending {
        for _ in 0..nonterm::DETECT_FROM {
            if let Some(p) = self.step(code) {
                return p;
            }
        }
        let mut cycle = nonterm::Cycle::new(self, code);
        for _ in nonterm::DETECT_FROM..LOCAL_STEP_LIMIT {
            if let Some(p) = self.step(code) {
                return p;
            }
            if let Some(v) = cycle.step(code, self, self.cur_src(code)) {
                return self.nonterminating(code, v);
            }
        }
        let at = self.cur_src(code);
        self.nonterminating(code, nonterm::Verdict::Budget { at })
    }

    /// The non-termination error of verdict `v`.
    fn nonterminating(&self, code: &Module, v: nonterm::Verdict) -> Pending {
        let (msg, src) = self.nonterm_message(code, &v);
        // Only a repeated state is certain; a spent budget is no verdict (unsupported).
        let kind = match v {
            nonterm::Verdict::Forever { .. } => ErrorKind::NonTermination,
            nonterm::Verdict::Budget { .. } => ErrorKind::Unsupported,
        };
        Pending::fault(Fault { kind, msg }, src)
    }

    /// Runs one local instruction: the pending action it reached, if any.
    #[inline]
    fn step(&mut self, code: &Module) -> Option<Pending> {
        let fr = *self.top();
        if fr.needs_shared {
            return Some(self.alloc_shared(code, fr));
        }
        let block = &code.funcs[fr.func as usize].blocks[fr.block as usize];
        let (step, src) = match block.insts.get(fr.inst as usize) {
            Some(inst) => {
                if inst.lib.is_some_and(|l| l.begin) {
                    self.inline_call = self.calls;
                    self.calls += 1;
                }
                (self.exec(code, fr, inst), inst.src)
            }
            None => (self.terminate(code, fr, &block.term), block.term_src),
        };
        match step {
            Ok(None) => None,
            Ok(Some(p)) => Some(p),
            Err(f) => Some(Pending::fault(f, src)),
        }
    }

    /// [`Machine::run`], with the action's position moved out of porf's bundled
    /// headers ([`super::locate`]).
    pub(super) fn run_located(&mut self, code: &Module) -> Pending {
        let mut p = self.run(code);
        self.locate(code, &mut p.action);
        if let Some(s) = self.section {
            match &mut p.action {
                // Accesses inside a section are atomic (SV-COMP: they do not race
                // with each other); under `sc` the order changes nothing else.
                Action::Load {
                    ord, copy: false, ..
                }
                | Action::Store { ord, .. }
                    if *ord == MemOrder::NonAtomic =>
                {
                    *ord = MemOrder::SeqCst
                }
                Action::Finish { .. } => {
                    let src = if self.frames.is_empty() {
                        SrcLoc::UNKNOWN
                    } else {
                        self.cur_src(code)
                    };
                    let msg = format!(
                        "the thread finishes inside the atomic section opened at {}",
                        code.show_src(s.src)
                    );
                    return Pending::fault(Fault::unsupported(msg), src);
                }
                _ => {}
            }
        }
        p
    }

    pub(super) fn top(&self) -> &Frame {
        self.frames.last().expect("a running thread has a frame")
    }

    fn top_mut(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("a running thread has a frame")
    }

    /// Moves past the current instruction.
    pub(super) fn advance(&mut self) {
        self.top_mut().inst += 1;
    }

    /// The source location of the current instruction (or terminator).
    pub(super) fn cur_src(&self, code: &Module) -> SrcLoc {
        let fr = self.top();
        let block = &code.funcs[fr.func as usize].blocks[fr.block as usize];
        block
            .insts
            .get(fr.inst as usize)
            .map_or(block.term_src, |i| i.src)
    }

    #[inline]
    fn get(&self, base: u32, o: Operand) -> Val {
        match o {
            Operand::Reg(r) => self.vals[(base + r) as usize],
            Operand::Const(c) => c,
        }
    }

    #[inline]
    pub(super) fn set(&mut self, r: Reg, v: Val) {
        let base = self.top().base;
        self.vals[(base + r) as usize] = v;
    }

    /// Sets `dst` and moves on: the end of every local instruction with a result.
    fn set_next(&mut self, dst: Reg, v: Val) -> Step {
        self.set(dst, v);
        self.advance();
        Ok(None)
    }

    pub(super) fn exec(&mut self, code: &Module, fr: Frame, inst: &Inst) -> Step {
        let src = inst.src;
        let val = |o: &Operand| self.get(fr.base, *o);
        match &inst.kind {
            InstKind::Copy { dst, src } => self.set_next(*dst, val(src)),
            InstKind::Unary { dst, op, a, ty } => {
                self.set_next(*dst, arith::unary(*op, val(a), *ty))
            }
            InstKind::Binary { dst, op, a, b, ty } => {
                let v = arith::binary(*op, val(a), val(b), *ty)?;
                self.set_next(*dst, v)
            }
            InstKind::Convert { dst, a, to } => self.set_next(*dst, arith::convert(val(a), *to)),
            InstKind::FloatConvert { dst, a, from, to } => {
                let v = super::float::convert(val(a), *from, *to)?;
                self.set_next(*dst, v)
            }
            InstKind::FrameAddr { dst, offset } => {
                self.set_next(*dst, stack_addr(self.tid, fr.sp + offset))
            }
            InstKind::SharedAddr { dst, offset } => self.set_next(*dst, fr.shared + *offset as Val),
            InstKind::TlsAddr { dst, offset } => {
                if self.tid >= crate::ir::TLS_THREADS {
                    return Err(Fault::unsupported(format!(
                        "thread {}: thread-local variables are supported in threads 0 to {} only",
                        self.tid,
                        crate::ir::TLS_THREADS - 1
                    )));
                }
                self.set_next(*dst, code.tls.addr(self.tid, *offset as i64))
            }
            InstKind::FuncAddr { dst, func } => self.set_next(*dst, func_addr(*func)),
            InstKind::Load { dst, addr, ty, ord } => {
                self.load(code, *dst, val(addr), *ty, *ord, src)
            }
            InstKind::CopyLoad {
                dst,
                written,
                addr,
                ty,
                ord,
            } => self.copy_load(code, (*dst, *written), val(addr), *ty, *ord, src),
            InstKind::CopyStore {
                addr,
                val: v,
                written,
                ty,
                ord,
            } => {
                let v = ty.normalize(val(v));
                self.copy_store(code, val(addr), v, val(written) != 0, *ty, *ord, src)
            }
            InstKind::FrameInit {
                offset,
                size,
                defined,
            } => {
                let r = (fr.sp + offset) as usize..(fr.sp + offset + size) as usize;
                self.stack[r.clone()].fill(0);
                self.undef.set(r, !*defined);
                self.advance();
                Ok(None)
            }
            InstKind::LocalBlock { dst, var, len } => {
                let len = len.as_ref().map(val);
                self.local_block(code, fr, *dst, *var, len, src)
            }
            InstKind::Indeterminate { .. } => {
                self.advance();
                Ok(None)
            }
            InstKind::CheckInit { flag, name } => {
                if self.get(fr.base, Operand::Reg(*flag)) == 0 {
                    return Err(uninit_local(name));
                }
                self.advance();
                Ok(None)
            }
            InstKind::Store {
                addr,
                val: v,
                ty,
                ord,
            } => self.store(code, val(addr), ty.normalize(val(v)), *ty, *ord, src),
            InstKind::Rmw {
                dst,
                addr,
                op,
                val: v,
                ty,
                ord,
            } => self.rmw(
                code,
                *dst,
                val(addr),
                *op,
                ty.normalize(val(v)),
                *ty,
                *ord,
                src,
            ),
            InstKind::Cas {
                dst,
                addr,
                expected,
                new,
                ty,
                succ,
                fail,
                weak: _,
            } => {
                let op = RmwOp::Cas {
                    expected: ty.normalize(val(expected)),
                    new: ty.normalize(val(new)),
                    fail_ord: *fail,
                };
                self.cas(code, *dst, val(addr), op, *ty, *succ, src)
            }
            InstKind::Fence { ord } => Ok(Some(Pending::plain(Action::Fence { ord: *ord, src }))),
            InstKind::Call { dst, func, args } => self.call(code, *func, args, *dst, src),
            InstKind::CallIndirect { dst, target, args } => {
                let f = func_target(
                    code,
                    val(target),
                    "call through an invalid function pointer",
                )?;
                let callee = &code.funcs[f as usize];
                let n = callee.nparams as usize;
                if args.len() != n && !(callee.variadic && args.len() > n) {
                    return Err(Fault::unsupported(format!(
                        "call through a function pointer with {} arguments to `{}`, \
                         which takes {}",
                        args.len(),
                        callee.name,
                        callee.nparams
                    )));
                }
                self.call(code, f, args, *dst, src)
            }
            InstKind::Spawn {
                dst,
                func,
                arg,
                symm,
                auto,
            } => {
                let f = func_target(
                    code,
                    val(func),
                    "pthread_create of an invalid function pointer",
                )?;
                let entry = &code.funcs[f as usize];
                if entry.nparams > 1 {
                    return Err(Fault::unsupported(format!(
                        "thread function `{}` takes {} parameters",
                        entry.name, entry.nparams
                    )));
                }
                // A value naming no thread declares no symmetry.
                let symmetric = match symm.map(|o| val(&o)) {
                    Some(v) if (0..MAX_THREADS as Val).contains(&v) => Symmetry::Declared(v as Tid),
                    Some(_) => Symmetry::Asymmetric,
                    None if *auto && code.oblivious.get(f as usize) == Some(&true) => {
                        Symmetry::Auto
                    }
                    None => Symmetry::Asymmetric,
                };
                let action = Action::Spawn {
                    entry: f,
                    arg: val(arg),
                    symmetric,
                    src,
                };
                let cont = Cont::Value {
                    dst: Some(*dst),
                    ty: None,
                };
                Ok(Some(Pending::new(action, cont)))
            }
            InstKind::Join { dst, tid } => {
                let tid = self.joinable(val(tid))?;
                let cont = Cont::Join { dst: *dst, tid };
                Ok(Some(Pending::new(Action::Join { tid, src }, cont)))
            }
            InstKind::ThreadExit { val: v } => {
                // Every activation's own blocks and shared frame die with the thread,
                // innermost first.
                if let Some(p) = self
                    .free_own(None, src)
                    .or_else(|| self.free_shared(None, src))
                {
                    return Ok(Some(p));
                }
                Ok(Some(Pending::end(Action::Finish { ret: val(v) })))
            }
            InstKind::Lock { addr } => {
                let loc = self.mutex(code, val(addr))?;
                Ok(Some(Pending::plain(Action::Lock { loc, src })))
            }
            InstKind::TryLock { dst, addr } => {
                let loc = self.mutex(code, val(addr))?;
                let cont = Cont::TryLock { dst: *dst };
                Ok(Some(Pending::new(Action::TryLock { loc, src }, cont)))
            }
            InstKind::Unlock { addr } => {
                let loc = self.mutex(code, val(addr))?;
                Ok(Some(Pending::plain(Action::Unlock { loc, src })))
            }
            InstKind::MutexInit { addr } => {
                let loc = self.mutex(code, val(addr))?;
                Ok(Some(Pending::plain(Action::MutexInit { loc, src })))
            }
            InstKind::MutexDestroy { addr } => {
                let loc = self.mutex(code, val(addr))?;
                Ok(Some(Pending::plain(Action::MutexDestroy { loc, src })))
            }
            InstKind::Assume { cond } => {
                if val(cond) == 0 {
                    return Ok(Some(Pending::end(Action::Block {
                        reason: BlockReason::Assume,
                        src,
                    })));
                }
                self.advance();
                Ok(None)
            }
            InstKind::Assert { cond, msg } => {
                if val(cond) == 0 {
                    let f = Fault {
                        kind: ErrorKind::Assertion,
                        msg: msg.clone(),
                    };
                    return Ok(Some(Pending::fault(f, src)));
                }
                self.advance();
                Ok(None)
            }
            InstKind::Check { cond, msg } => {
                if val(cond) == 0 {
                    return Ok(Some(Pending::fault(Fault::memory(msg), src)));
                }
                self.advance();
                Ok(None)
            }
            InstKind::Abort if self.abort_blocks => Ok(Some(Pending::end(Action::Block {
                reason: BlockReason::Assume,
                src,
            }))),
            InstKind::Abort => Ok(Some(Pending::fault(
                Fault {
                    kind: ErrorKind::Abort,
                    msg: "abort() called".into(),
                },
                src,
            ))),
            InstKind::Unsupported { msg } => Err(Fault::unsupported(msg.clone())),
            InstKind::AtomicBegin => {
                if let Some(s) = self.section {
                    return Err(Fault::unsupported(format!(
                        "nested atomic section: the section opened at {} is still open \
                         (SV-COMP's atomic sections do not nest)",
                        code.show_src(s.src)
                    )));
                }
                self.section = Some(super::Section {
                    src,
                    started: false,
                });
                self.advance();
                Ok(None)
            }
            InstKind::AtomicEnd => {
                if self.section.take().is_none() {
                    return Err(Fault::unsupported(
                        "`__VERIFIER_atomic_end()` without an open atomic section",
                    ));
                }
                self.advance();
                Ok(None)
            }
            InstKind::Print {
                dst,
                pieces,
                args,
                to_buffer,
            } => {
                let vals: Vec<Val> = args.iter().map(val).collect();
                let n;
                if *to_buffer {
                    let text = super::print::format_exact(code, pieces, &vals)
                        .map_err(Fault::unsupported)?;
                    n = text.len() as Val;
                    self.formatted = text.into_bytes();
                } else {
                    let text = super::print::format(code, pieces, &vals);
                    n = text.len() as Val;
                    super::print::push(&mut self.printed, text);
                }
                if let Some(d) = dst {
                    self.set(*d, n);
                }
                self.advance();
                Ok(None)
            }
            InstKind::Builtin { dst, which, args } => {
                let arg = args.first().map_or(0, val);
                match which {
                    Builtin::WideConvert { from, to } => {
                        let r = arith::wide_convert(arg, *from, *to);
                        if let Some(d) = dst {
                            self.set(*d, r);
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::WidePack | Builtin::WideHalf => {
                        let b = args.get(1).map_or(0, val);
                        let r = if *which == Builtin::WidePack {
                            crate::wide::pack(arg, b)
                        } else {
                            crate::wide::half(arg, b)
                        };
                        if let Some(d) = dst {
                            self.set(*d, r);
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::LoopBound => {
                        if arg < 0 {
                            return Err(Fault::unsupported(format!(
                                "`__VERIFIER_loop_bound({arg})`: a loop bound must be at least 0"
                            )));
                        }
                        if let Some(d) = dst {
                            self.set(*d, arg.saturating_add(1));
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::ThreadSelf => {
                        if let Some(d) = dst {
                            self.set(*d, self.tid as Val);
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::Nondet { ty, boolean } => {
                        let (lo, hi) = self.nondet_domain(*ty, *boolean)?;
                        let action = Action::Choose {
                            lo,
                            hi,
                            src,
                            what: "a nondeterministic value (`__VERIFIER_nondet_*`)",
                        };
                        let cont = Cont::Value {
                            dst: *dst,
                            ty: Some(*ty),
                        };
                        Ok(Some(Pending::new(action, cont)))
                    }
                    Builtin::Choose => {
                        if arg < 1 {
                            return Err(Fault::unsupported(format!(
                                "internal: __porf_choose({arg}) has no value to choose"
                            )));
                        }
                        if arg == 1 {
                            if let Some(d) = dst {
                                self.set(*d, 0);
                            }
                            self.advance();
                            return Ok(None);
                        }
                        // `__porf_choose` serves pthread.h's signal alone (see ir.rs).
                        let action = Action::Choose {
                            lo: 0,
                            hi: arg - 1,
                            src,
                            what: "the choice of which waiter a condition-variable signal \
                                   (pthread_cond_signal, cnd_signal) wakes",
                        };
                        let cont = Cont::Value {
                            dst: *dst,
                            ty: Some(Scalar::LONG),
                        };
                        Ok(Some(Pending::new(action, cont)))
                    }
                    Builtin::PrivateGet => {
                        let v = self.private.iter().find(|p| p.0 == arg).map_or(0, |p| p.1);
                        if let Some(d) = dst {
                            self.set(*d, v);
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::PrivateSet => {
                        let v = args.get(1).map_or(0, val);
                        let i = self.private.iter().position(|p| p.0 == arg);
                        match (i, v) {
                            (Some(i), 0) => {
                                self.private.remove(i);
                            }
                            (Some(i), v) => self.private[i].1 = v,
                            (None, 0) => {}
                            (None, v) => self.private.push((arg, v)),
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::IsGlobal => {
                        let global = classify(arg, code.globals_end) == Region::Global;
                        if let Some(d) = dst {
                            self.set(*d, global as Val);
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::Await => {
                        if arg == 0 {
                            return Ok(Some(Pending::end(Action::Block {
                                reason: BlockReason::Wait,
                                src,
                            })));
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::Awaits => {
                        self.awaits = Some(arg);
                        self.advance();
                        Ok(None)
                    }
                    Builtin::Malloc => self.malloc(*dst, arg, false, src),
                    Builtin::Calloc => {
                        let size = args.get(1).map_or(0, val);
                        // Both factors are `size_t`s: an overflowing product is no size.
                        let total = (arg as u64)
                            .checked_mul(size as u64)
                            .map_or(-1, |t| t as Val);
                        self.malloc(*dst, total, true, src)
                    }
                    Builtin::Exit => {
                        if self.tid != 0 {
                            // GenMC 0.11's `exit`: the calling thread's frames are popped
                            // and it ends; the other threads run on (as after main's
                            // return). A joiner gets NULL.
                            if let Some(p) = self
                                .free_own(None, src)
                                .or_else(|| self.free_shared(None, src))
                            {
                                return Ok(Some(p));
                            }
                            return Ok(Some(Pending::end(Action::Finish { ret: 0 })));
                        }
                        Ok(Some(Pending::end(Action::Finish { ret: arg })))
                    }
                    Builtin::Free => self.free(code, arg, src),
                    Builtin::HpRetire => self.retire(code, arg, src),
                    Builtin::HpProtect => {
                        let p = args.get(1).map_or(0, val);
                        let note = Note::HpProtect {
                            hp: Loc(arg as u64),
                            block: crate::memory::block_base(p).map(|b| Loc(b as u64)),
                        };
                        Ok(Some(Pending::plain(Action::Note { note, src })))
                    }
                    Builtin::FinalBegin => {
                        self.final_depth += 1;
                        self.advance();
                        Ok(None)
                    }
                    Builtin::FinalEnd => {
                        self.final_depth = self.final_depth.saturating_sub(1);
                        self.advance();
                        Ok(None)
                    }
                    Builtin::FormattedByte => {
                        let b = usize::try_from(arg)
                            .ok()
                            .and_then(|i| self.formatted.get(i))
                            .map_or(0, |&b| b as i8 as Val);
                        if let Some(d) = dst {
                            self.set(*d, b);
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::VaStart => {
                        let depth = self.frames.len() as Val - 1;
                        if let Some(d) = dst {
                            self.set(*d, (depth + 1) << 32);
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::VaArg => {
                        let (depth, i) = ((arg >> 32) - 1, arg & 0xffff_ffff);
                        let fr = usize::try_from(depth).ok().and_then(|d| self.frames.get(d));
                        let Some(fr) = fr.filter(|f| i < f.nva as Val) else {
                            return Err(Fault::memory(
                                "va_arg beyond the variadic arguments passed, or with a \
                                 va_list of a function that returned (undefined behaviour)",
                            ));
                        };
                        let v = self.varargs[fr.va as usize + i as usize];
                        if let Some(d) = dst {
                            self.set(*d, v);
                        }
                        self.advance();
                        Ok(None)
                    }
                    Builtin::BlockSize => self.block_size(code, *dst, arg, src),
                    Builtin::Bits(op) => {
                        let width = args.get(1).map_or(8, val).clamp(1, 8) as u32 * 8;
                        let v = (arg as u64) & (u64::MAX >> (64 - width));
                        let r = match op {
                            crate::ir::BitOp::Ffs if v == 0 => 0,
                            crate::ir::BitOp::Ffs => v.trailing_zeros() + 1,
                            crate::ir::BitOp::Popcount => v.count_ones(),
                            _ if v == 0 => {
                                return Err(Fault::memory(
                                    "__builtin_clz/__builtin_ctz of 0 (undefined behaviour)",
                                ))
                            }
                            crate::ir::BitOp::Clz => v.leading_zeros() - (64 - width),
                            crate::ir::BitOp::Ctz => v.trailing_zeros(),
                        };
                        if let Some(d) = dst {
                            self.set(*d, r as Val);
                        }
                        self.advance();
                        Ok(None)
                    }
                }
            }
            InstKind::LoopEnter { id } => {
                let i = self.loop_slot(code, fr, *id);
                self.vals[i] = 0;
                self.advance();
                Ok(None)
            }
            InstKind::LoopHint { id, bound } => {
                // `bound` is n + 1, or 0 when no hint was executed (`ir::InstKind::LoopHint`).
                let v = val(bound);
                if v > 0 {
                    let limit = ((v - 1) as u64).min(self.unroll as u64);
                    let i = self.loop_slot(code, fr, *id);
                    self.vals[i] = (self.unroll as u64 - limit) as Val;
                }
                self.advance();
                Ok(None)
            }
            InstKind::LoopIter { id } => {
                let i = self.loop_slot(code, fr, *id);
                let n = self.vals[i].saturating_add(1);
                self.vals[i] = n;
                if n > self.unroll as Val {
                    return Ok(Some(Pending::end(Action::Block {
                        reason: BlockReason::LoopBound,
                        src,
                    })));
                }
                self.advance();
                Ok(None)
            }
        }
    }

    /// The values a nondet call of type `ty` chooses from: `{0, 1}` for `_Bool`, else
    /// the values of `--nondet-range` that `ty` can hold.
    fn nondet_domain(&self, ty: Scalar, boolean: bool) -> Result<(Val, Val), Fault> {
        if boolean {
            return Ok((0, 1));
        }
        let Some((lo, hi)) = self.nondet else {
            return Err(Fault::unsupported(
                "`__VERIFIER_nondet_*` of a type other than `_Bool` needs a finite domain: pass \
                 --nondet-range LO..HI to explore every value in that range",
            ));
        };
        let bits = 8 * ty.size as u32;
        let (tmin, tmax) = match (ty.signed, bits) {
            (true, _) => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            (false, _) => (0, (1i128 << bits) - 1),
        };
        let (a, b) = ((lo as i128).max(tmin), (hi as i128).min(tmax));
        if a > b {
            return Err(Fault::unsupported(format!(
                "no value of --nondet-range {lo}..{hi} fits the nondet call's type"
            )));
        }
        // Both ends fit the type and `Val`: `b <= hi` and `a >= lo`.
        Ok((a as Val, b as Val))
    }

    /// Index in `vals` of loop `id`'s counter in frame `fr`.
    fn loop_slot(&self, code: &Module, fr: Frame, id: u32) -> usize {
        (fr.base + code.funcs[fr.func as usize].nregs + id) as usize
    }

    /// `--unroll` at a jump along successor `slot` of frame `fr`'s block
    /// ([`crate::unroll`]): restarts or advances the target's counter; a retreating
    /// edge taken once too often blocks the execution, at the terminator.
    fn count_edge(&mut self, code: &Module, fr: Frame, slot: usize) -> Option<Pending> {
        let edges = code.back_edges.get(fr.func as usize)?;
        let f = &code.funcs[fr.func as usize];
        let at = |c: u32| (fr.base + f.nregs + f.nloops + c) as usize;
        match edges.edge(fr.block, slot) {
            crate::unroll::Edge::None => None,
            crate::unroll::Edge::Reset(c) => {
                self.vals[at(c)] = 0;
                None
            }
            crate::unroll::Edge::Count { counter, slack } => {
                let i = at(counter);
                let n = self.vals[i].saturating_add(1);
                if crate::unroll::blocks(n as u64, self.unroll, slack) {
                    let src = f.blocks[fr.block as usize].term_src;
                    return Some(Pending::end(Action::Block {
                        reason: BlockReason::LoopBound,
                        src,
                    }));
                }
                self.vals[i] = n;
                None
            }
        }
    }

    /// Runs the running frame's block terminator `term`. A jump is seen by
    /// spin-assume first (a loop iteration without effect blocks as a spin loop
    /// whatever the bound), then counted for `--unroll`.
    pub(super) fn terminate(&mut self, code: &Module, fr: Frame, term: &Terminator) -> Step {
        let goto = |m: &mut Machine, b: u32, slot: usize| {
            let top = m.top_mut();
            top.block = b;
            top.inst = 0;
            if let Some(p) = m.arrive(code, fr.block, b) {
                return Ok(Some(p));
            }
            Ok(m.count_edge(code, fr, slot))
        };
        match term {
            Terminator::Jump(b) => goto(self, *b, 0),
            Terminator::Branch { cond, then, els } => {
                if self.get(fr.base, *cond) != 0 {
                    goto(self, *then, 0)
                } else {
                    goto(self, *els, 1)
                }
            }
            Terminator::Return(_) | Terminator::Unreachable
                if !self.is_main_entry(self.frames.len() - 1)
                    && (fr.shared != 0 || self.has_own(self.frames.len() - 1)) =>
            {
                let depth = self.frames.len() - 1;
                let src = code.funcs[fr.func as usize].blocks[fr.block as usize].term_src;
                Ok(self
                    .free_own(Some(depth), src)
                    .or_else(|| self.free_shared(Some(depth), src)))
            }
            Terminator::Return(v) => {
                let v = v.map_or(0, |o| self.get(fr.base, o));
                Ok(self.ret(v))
            }
            Terminator::Unreachable => Ok(self.ret(0)),
        }
    }

    /// Returns `v` from the running frame: finishes the thread when it is the entry frame.
    fn ret(&mut self, v: Val) -> Option<Pending> {
        if self.frames.len() == 1 {
            return Some(Pending::end(Action::Finish { ret: v }));
        }
        let fr = self.frames.pop().expect("a running thread has a frame");
        let depth = self.frames.len() as u32;
        if self.own().iter().any(|b| b.depth >= depth) {
            self.edit_own(|own| own.retain(|b| b.depth < depth));
        }
        self.vals.truncate(fr.base as usize);
        self.varargs.truncate(fr.va as usize);
        self.undef.resize(self.stack.len(), fr.sp as usize, true);
        self.stack.truncate(fr.sp as usize);
        self.spin_popped();
        if let Some(dst) = fr.ret {
            self.set(dst, v);
        }
        None
    }

    /// Calls `func` with `args` evaluated in the running frame; `dst` receives the result.
    /// A call that would make `func` active more than `recursion_limit` times at once
    /// blocks the execution instead (`BlockReason::RecursionLimit`, a cut like an
    /// `--unroll` one).
    fn call(
        &mut self,
        code: &Module,
        func: FuncId,
        args: &[Operand],
        dst: Option<Reg>,
        src: SrcLoc,
    ) -> Step {
        let active = self.frames.iter().filter(|f| f.func == func).count();
        if active >= self.recursion_limit as usize {
            return Ok(Some(Pending::end(Action::Block {
                reason: BlockReason::RecursionLimit,
                src,
            })));
        }
        let caller = self.top().base;
        self.advance();
        let base = self.vals.len();
        let np = code.funcs[func as usize].nparams as usize;
        for a in args.iter().take(np) {
            let v = self.get(caller, *a);
            self.vals.push(v);
        }
        let va = self.varargs.len();
        for a in args.iter().skip(np) {
            let v = self.get(caller, *a);
            self.varargs.push(v);
        }
        self.push_frame(code, func, base, dst)?;
        let top = self.frames.last_mut().expect("pushed");
        top.va = va as u32;
        top.nva = (self.varargs.len() - va) as u32;
        Ok(None)
    }

    /// Pushes the first frame of the thread, running `func(args)`
    /// (`args.len() == nparams`).
    pub(super) fn enter(
        &mut self,
        code: &Module,
        func: FuncId,
        args: &[Val],
        ret: Option<Reg>,
    ) -> Result<(), Fault> {
        let base = self.vals.len();
        self.vals.extend_from_slice(args);
        self.push_frame(code, func, base, ret)
    }

    /// Pushes a frame for `func` whose arguments are `vals[base..]`.
    fn push_frame(
        &mut self,
        code: &Module,
        func: FuncId,
        base: usize,
        ret: Option<Reg>,
    ) -> Result<(), Fault> {
        let f = &code.funcs[func as usize];
        if self.frames.len() >= MAX_CALL_DEPTH {
            return Err(Fault::unsupported(format!(
                "call depth exceeds {MAX_CALL_DEPTH} (unbounded recursion?)"
            )));
        }
        let sp = self.stack.len();
        let end = sp + f.frame_size as usize;
        if end > MAX_STACK {
            return Err(Fault::unsupported(format!(
                "thread-private memory exceeds {MAX_STACK} bytes (stack overflow?)"
            )));
        }
        let counters = code.back_edges.get(func as usize).map_or(0, |e| e.counters);
        self.vals
            .resize(base + (f.nregs + f.nloops + counters) as usize, 0);
        self.stack.resize(end, 0);
        self.undef.resize(sp, end, true);
        self.frames.push(Frame {
            func,
            block: 0,
            inst: 0,
            base: base as u32,
            sp: sp as u32,
            ret,
            shared: 0,
            needs_shared: f.shared_size > 0,
            va: self.varargs.len() as u32,
            nva: 0,
            serial: self.calls,
        });
        self.calls += 1;
        Ok(())
    }

    /// The `Malloc` of frame `fr`'s shared block. Unlike private frames (zeroed), its
    /// bytes are uninitialised until written, like `malloc`'s: a read of a local
    /// nobody initialised is GenMC's "read from uninitialized memory" error.
    fn alloc_shared(&mut self, code: &Module, fr: Frame) -> Pending {
        let f = &code.funcs[fr.func as usize];
        let block = self.frame_blocks;
        let size = f.shared_size;
        let fault = if block >= MAX_HEAP_BLOCKS {
            Some(format!(
                "more than {MAX_HEAP_BLOCKS} shared frames (activations with locals other threads may reach) allocated by one thread"
            ))
        } else if size > MAX_MALLOC {
            Some(format!(
                "locals shared with other threads need {size} bytes; porf's blocks hold at most {MAX_MALLOC}"
            ))
        } else {
            None
        };
        if let Some(msg) = fault {
            return Pending::fault(Fault::unsupported(msg), f.src);
        }
        let action = Action::Malloc {
            base: Loc(frame_addr(self.tid, block, HEAP_DATA) as u64),
            size: size as u64,
            zeroed: false,
            src: f.src,
        };
        Pending::new(action, Cont::SharedAlloc)
    }

    /// Whether frame `depth` is `main`'s own activation. Its shared frame is never
    /// freed: returning from `main` ends the program in C (`exit`), so no thread can
    /// observe main's locals die; porf lets the other threads run on, and they may
    /// still use them (as the `main` locals handed to `pthread_create`, which are
    /// static, see `lower::stmt`).
    fn is_main_entry(&self, depth: usize) -> bool {
        self.tid == 0 && depth == 0
    }

    /// The `Free` of a live shared block: of frame `depth`, or (`None`) of the
    /// innermost frame that has one (but `main`'s own, see [`Self::is_main_entry`]).
    /// `None` if there is nothing to free.
    fn free_shared(&self, depth: Option<usize>, src: SrcLoc) -> Option<Pending> {
        let depth = match depth {
            Some(d) => d,
            None => self
                .frames
                .iter()
                .enumerate()
                .rposition(|(d, f)| f.shared != 0 && !self.is_main_entry(d))?,
        };
        let base = self.frames[depth].shared;
        (base != 0).then(|| {
            Pending::new(
                Action::Free {
                    base: Loc(base as u64),
                    src,
                },
                Cont::SharedFree {
                    depth: depth as u32,
                },
            )
        })
    }

    /// Whether frame `depth` has a live local with a block of its own.
    fn has_own(&self, depth: usize) -> bool {
        self.own().iter().any(|b| b.depth as usize == depth)
    }

    /// The `Free` of a live block of a local with a block of its own
    /// ([`crate::ir::InstKind::LocalBlock`]): the last one of frame `depth`, or
    /// (`None`) of the innermost frame that has one (but `main`'s own).
    fn free_own(&self, depth: Option<usize>, src: SrcLoc) -> Option<Pending> {
        let i = match depth {
            Some(d) => self.own().iter().rposition(|b| b.depth as usize == d)?,
            None => {
                let (i, _) = self
                    .own()
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| !self.is_main_entry(b.depth as usize))
                    .max_by_key(|(i, b)| (b.depth, *i))?;
                i
            }
        };
        let base = Loc(self.own()[i].base as u64);
        let cont = Cont::OwnFree { index: i as u32 };
        Some(Pending::new(Action::Free { base, src }, cont))
    }

    /// [`crate::ir::InstKind::LocalBlock`] for `Function::locals[var]` of frame `fr`:
    /// the `Free` of the frame's previous instance of it, else the `Malloc` of a new
    /// one.
    fn local_block(
        &mut self,
        code: &Module,
        fr: Frame,
        dst: Reg,
        var: u32,
        len: Option<Val>,
        src: SrcLoc,
    ) -> Step {
        let depth = self.frames.len() as u32 - 1;
        if let Some(i) = self
            .own()
            .iter()
            .position(|b| b.depth == depth && b.var == var)
        {
            let base = Loc(self.own()[i].base as u64);
            let cont = Cont::OwnFree { index: i as u32 };
            return Ok(Some(Pending::new(Action::Free { base, src }, cont)));
        }
        let elem = code.funcs[fr.func as usize].locals[var as usize].size;
        let size = match len {
            None => elem,
            Some(n) if n <= 0 => {
                return Err(Fault::memory(format!(
                    "variable-length array of length {n} (C11 6.7.6.2p5: it must be positive)"
                )))
            }
            Some(n) => match (n as u64).checked_mul(elem as u64) {
                Some(b) if b <= crate::memory::MAX_MALLOC as u64 => b as u32,
                _ => {
                    return Err(Fault::unsupported(format!(
                        "a variable-length array of {n} elements of {elem} bytes (porf's \
                         largest block is {} bytes)",
                        crate::memory::MAX_MALLOC
                    )))
                }
            },
        };
        let block = self.frame_blocks;
        if block >= MAX_HEAP_BLOCKS {
            return Err(Fault::unsupported(format!(
                "more than {MAX_HEAP_BLOCKS} shared frames and blocks of locals other threads \
                 may reach allocated by one thread"
            )));
        }
        let action = Action::Malloc {
            base: Loc(frame_addr(self.tid, block, HEAP_DATA) as u64),
            size: size as u64,
            zeroed: false,
            src,
        };
        Ok(Some(Pending::new(action, Cont::OwnAlloc { dst, var })))
    }

    /// The thread id `v` names if this thread may join it: a thread id other than its
    /// own that it has not joined before.
    fn joinable(&self, v: Val) -> Result<Tid, Fault> {
        if (0..MAX_THREADS as Val).contains(&v)
            && v as Tid != self.tid
            && !self.joined.contains(&(v as Tid))
        {
            Ok(v as Tid)
        } else {
            Err(Fault::memory("join of an invalid thread"))
        }
    }

    /// Applies the engine's answer `ret` to the pending action's continuation and moves
    /// past the instruction.
    pub(super) fn resume(&mut self, cont: Cont, ret: Val) {
        match cont {
            Cont::End => unreachable!("ending actions are kept pending"),
            Cont::Value { dst, ty } => {
                if let Some(d) = dst {
                    self.set(d, ty.map_or(ret, |t| t.normalize(ret)));
                }
            }
            Cont::TryLock { dst } => self.set(dst, if ret == 0 { 0 } else { EBUSY }),
            Cont::Copy { dst, written, ty } => {
                self.set(dst, ty.normalize(ret));
                self.set(written, 1);
            }
            Cont::Join { dst, tid } => {
                self.joined.push(tid);
                self.set(dst, ret);
            }
            Cont::Malloc { dst } => {
                let block = self.heap_blocks;
                self.heap_blocks += 1;
                if let Some(d) = dst {
                    self.set(d, heap_addr(self.tid, block, HEAP_DATA));
                }
            }
            Cont::SharedAlloc => {
                let block = self.frame_blocks;
                self.frame_blocks += 1;
                let base = frame_addr(self.tid, block, HEAP_DATA);
                let top = self.top_mut();
                top.shared = base;
                top.needs_shared = false;
                return;
            }
            Cont::SharedFree { depth } => {
                self.frames[depth as usize].shared = 0;
                return;
            }
            Cont::OwnAlloc { dst, var } => {
                let block = self.frame_blocks;
                self.frame_blocks += 1;
                let base = frame_addr(self.tid, block, HEAP_DATA);
                let depth = self.frames.len() as u32 - 1;
                self.edit_own(|own| own.push(super::OwnBlock { depth, var, base }));
                self.set(dst, base);
            }
            Cont::OwnFree { index } => {
                self.edit_own(|own| {
                    own.remove(index as usize);
                });
                return;
            }
            Cont::Note => return,
        }
        self.advance();
    }
}

/// The error of a read of local variable `name` (a C path: `s.next`, `a[3]`) while
/// it is uninitialised.
pub(crate) fn uninit_local(name: &str) -> Fault {
    Fault::memory(super::uninit_local_message(name))
}

/// The function a function-pointer value names, or a memory error `msg`.
fn func_target(code: &Module, v: Val, msg: &str) -> Result<FuncId, Fault> {
    match classify(v, code.globals_end) {
        Region::Func(f) if (f as usize) < code.funcs.len() => Ok(f),
        _ => Err(Fault::memory(msg)),
    }
}
