//! A parsed [`Program`] as a porf program: [`ToyLangProgram`] implements
//! `porf_graph::Program`, [`ToyLangThread`] implements `ThreadMachine`.
//!
//! * Thread 0 (main) performs the `init` writes in source order, spawns every thread in
//!   declaration order (entry `i` is thread `i`, porf tid `i + 1`), joins them all, then
//!   evaluates the final assertion. So the `init` writes happen-before every access of
//!   every thread, and the final assertion is checked only in executions where every
//!   thread terminated.
//! * Every access is release/acquire, as in Lahav and Boker's models: reads are
//!   `acquire`, writes `release`, FADD/XCHG/CAS `acq_rel` (a failed CAS reads with
//!   `acquire`).
//! * A location is one cell (`Loc(index + 1)`). Its porf initial value is
//!   [`UNINIT`], outside every domain and never written: the `init` writes are real
//!   events of main. A thread that reads [`UNINIT`] (a plain read, or the read part of
//!   an RMW, which then fails and writes nothing — FADD and XCHG use
//!   `RmwOp::AddMod`/`XchgMod`, a CAS's expected value is in the domain) blocks with
//!   `BlockReason::Uninit` (Remark 1: reading an uninitialised location blocks).
//! * At join, a thread hands main the registers the final assertion reads as one
//!   number: `Σ reg_k · values^k` over [`Program::final_regs_of`] (the parser checks it
//!   fits in 62 bits). `ThreadMachine::registers` is the whole register file.
//! * `--unroll N`: a backward jump (target ≤ its own index) taken for the N-th time by
//!   the same instruction blocks the thread with `BlockReason::LoopBound` (so a loop
//!   body runs at most N times; the count is cumulative per jump instruction).
//! * A thread that loops forever without touching memory (its local state repeats
//!   between two memory accesses) can never act again: it blocks
//!   (`BlockReason::Assume`), like a failed assume.

use crate::program::{Instr, Program, Value};
use crate::ThreadState;
use porf_graph::{
    Action, BlockReason, ErrorKind, Loc, MemOrder, RmwOp, SrcLoc, ThreadMachine, Tid, Val,
};
use std::collections::HashSet;
use std::sync::Arc;

/// The initial value porf gives every location: not in any value domain, and never
/// written (every written value is in the domain). Reading it means the location is
/// uninitialised.
pub const UNINIT: Val = -1;

/// The width of a toy location's cell.
const CELL_BYTES: u8 = 1;

/// After this many silent steps in one `peek`, the thread starts recording its local
/// states to detect a silent infinite loop.
const SILENT_STEPS_BEFORE_CHECK: u32 = 10_000;

/// Run-time options.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// `--unroll N`: see the module documentation.
    pub unroll: Option<u32>,
}

/// A toy program as a `porf_graph::Program`.
#[derive(Clone, Debug)]
pub struct ToyLangProgram {
    prog: Arc<Program>,
    run: RunOptions,
}

impl ToyLangProgram {
    pub fn new(prog: Program, run: RunOptions) -> ToyLangProgram {
        ToyLangProgram {
            prog: Arc::new(prog),
            run,
        }
    }

    pub fn program(&self) -> &Program {
        &self.prog
    }

    /// The porf location of location index `loc`.
    pub fn loc(loc: usize) -> Loc {
        Loc(loc as u64 + 1)
    }
}

fn src(p: crate::Pos) -> SrcLoc {
    SrcLoc {
        file: 0,
        line: p.line,
        col: p.col,
    }
}

/// Thread 0's progress.
#[derive(Clone, Debug, PartialEq, Eq)]
enum MainStep {
    Init(usize),
    Spawn(usize),
    Join(usize),
    Final,
}

#[derive(Clone, Debug)]
struct MainState {
    step: MainStep,
    children: Vec<Tid>,
    /// The final assertion's variables, filled at the joins.
    finals: Vec<Value>,
}

#[derive(Clone, Debug)]
struct WorkerState {
    tid: usize,
    state: ThreadState,
    /// Per instruction, how many times its backward jump was taken (only with `unroll`).
    back_jumps: Vec<u32>,
    /// Set when the thread blocked for good: by `resume` when a read returned
    /// [`UNINIT`], by `peek` on a loop bound or a silent infinite loop. `peek` then
    /// returns it again (it is idempotent).
    blocked: Option<(BlockReason, SrcLoc)>,
}

#[derive(Clone, Debug)]
enum Role {
    Main(MainState),
    Worker(WorkerState),
}

/// One thread of a [`ToyLangProgram`].
#[derive(Clone, Debug)]
pub struct ToyLangThread {
    prog: Arc<Program>,
    run: RunOptions,
    role: Role,
}

impl porf_graph::Program for ToyLangProgram {
    type Thread = ToyLangThread;

    fn main_thread(&self) -> ToyLangThread {
        let step = if self.prog.init.is_empty() {
            MainStep::Spawn(0)
        } else {
            MainStep::Init(0)
        };
        ToyLangThread {
            prog: self.prog.clone(),
            run: self.run,
            role: Role::Main(MainState {
                step,
                children: Vec::new(),
                finals: vec![0; self.prog.final_vars.len()],
            }),
        }
    }

    fn spawn(&self, _tid: Tid, entry: u32, _arg: Val) -> ToyLangThread {
        let tid = entry as usize;
        let back_jumps = match self.run.unroll {
            Some(_) => vec![0; self.prog.threads[tid].code.len()],
            None => Vec::new(),
        };
        ToyLangThread {
            prog: self.prog.clone(),
            run: self.run,
            role: Role::Worker(WorkerState {
                tid,
                state: self.prog.initial_state(tid),
                back_jumps,
                blocked: None,
            }),
        }
    }

    fn init_value(&self, _loc: Loc) -> Val {
        UNINIT
    }

    fn loc_name(&self, loc: Loc) -> String {
        match (loc.0 as usize)
            .checked_sub(1)
            .and_then(|i| self.prog.locations.get(i))
        {
            Some(name) => name.clone(),
            None => loc.to_string(),
        }
    }

    fn source_file(&self, _file: u32) -> &str {
        &self.prog.file
    }
}

impl ToyLangThread {
    fn main_peek(prog: &Program, m: &mut MainState) -> Action {
        loop {
            match m.step {
                MainStep::Init(i) => {
                    let Some(&(loc, val, pos)) = prog.init.get(i) else {
                        m.step = MainStep::Spawn(0);
                        continue;
                    };
                    return Action::Store {
                        loc: ToyLangProgram::loc(loc),
                        bytes: CELL_BYTES,
                        val,
                        ord: MemOrder::Release,
                        src: src(pos),
                    };
                }
                MainStep::Spawn(i) => {
                    let Some(t) = prog.threads.get(i) else {
                        m.step = MainStep::Join(0);
                        continue;
                    };
                    return Action::Spawn {
                        entry: i as u32,
                        arg: 0,
                        symmetric: porf_graph::Symmetry::Asymmetric,
                        src: src(t.pos),
                    };
                }
                MainStep::Join(i) => {
                    let Some(&tid) = m.children.get(i) else {
                        m.step = MainStep::Final;
                        continue;
                    };
                    return Action::Join {
                        tid,
                        src: src(prog.threads[i].pos),
                    };
                }
                MainStep::Final => {
                    return match &prog.final_assert {
                        Some(fa) if fa.cond.eval(&m.finals, prog.values) == 0 => Action::Error {
                            kind: ErrorKind::Assertion,
                            msg: format!("Final assertion `{}' failed", fa.text),
                            src: src(fa.pos),
                        },
                        _ => Action::Finish { ret: 0 },
                    };
                }
            }
        }
    }

    fn main_resume(prog: &Program, m: &mut MainState, ret: Val) {
        m.step = match m.step {
            MainStep::Init(i) => MainStep::Init(i + 1),
            MainStep::Spawn(i) => {
                m.children.push(ret as Tid);
                MainStep::Spawn(i + 1)
            }
            MainStep::Join(i) => {
                let mut code = ret;
                for (_, slot) in prog.final_regs_of(i) {
                    m.finals[slot] = code.rem_euclid(prog.values);
                    code = code.div_euclid(prog.values);
                }
                MainStep::Join(i + 1)
            }
            MainStep::Final => MainStep::Final,
        };
    }

    fn worker_peek(prog: &Program, run: RunOptions, w: &mut WorkerState) -> Action {
        let code = &prog.threads[w.tid].code;
        let n = prog.values;
        if let Some((reason, src)) = w.blocked {
            return Action::Block { reason, src };
        }
        let mut silent = 0u32;
        let mut seen: HashSet<ThreadState> = HashSet::new();
        loop {
            let pc = w.state.pc as usize;
            let Some(stmt) = code.get(pc) else {
                let mut ret: Val = 0;
                for (r, _) in prog.final_regs_of(w.tid).iter().rev() {
                    ret = ret * n + w.state.regs[*r];
                }
                return Action::Finish { ret };
            };
            let at = src(stmt.pos);
            let eval = |e: &crate::Expr| e.eval(&w.state.regs, n);
            let jump = |w: &mut WorkerState, target: usize| -> Option<Action> {
                if let Some(bound) = run.unroll {
                    if target <= pc {
                        w.back_jumps[pc] += 1;
                        if w.back_jumps[pc] >= bound.max(1) {
                            w.blocked = Some((BlockReason::LoopBound, at));
                            return Some(Action::Block {
                                reason: BlockReason::LoopBound,
                                src: at,
                            });
                        }
                    }
                }
                w.state.pc = u32::try_from(target).unwrap_or(u32::MAX);
                None
            };
            match &stmt.instr {
                Instr::Assign { dst, val } => {
                    let v = eval(val);
                    w.state.regs[*dst] = v;
                    w.state.pc += 1;
                }
                Instr::If { cond, target } => {
                    if eval(cond) != 0 {
                        if let Some(a) = jump(w, *target) {
                            return a;
                        }
                    } else {
                        w.state.pc += 1;
                    }
                }
                Instr::Goto { target } => {
                    if let Some(a) = jump(w, *target) {
                        return a;
                    }
                }
                Instr::Assume { cond } => {
                    if eval(cond) == 0 {
                        return Action::Block {
                            reason: BlockReason::Assume,
                            src: at,
                        };
                    }
                    w.state.pc += 1;
                }
                Instr::Assert { cond } => {
                    if eval(cond) == 0 {
                        return Action::Error {
                            kind: ErrorKind::Assertion,
                            msg: format!("Assertion `{}' failed", prog.expr_text(w.tid, cond)),
                            src: at,
                        };
                    }
                    w.state.pc += 1;
                }
                Instr::Write { loc, val } => {
                    return Action::Store {
                        loc: ToyLangProgram::loc(*loc),
                        bytes: CELL_BYTES,
                        val: eval(val),
                        ord: MemOrder::Release,
                        src: at,
                    }
                }
                Instr::Read { loc, .. } => {
                    return Action::Load {
                        loc: ToyLangProgram::loc(*loc),
                        bytes: CELL_BYTES,
                        ord: MemOrder::Acquire,
                        copy: false,
                        src: at,
                    }
                }
                Instr::Fadd { loc, val, .. } => {
                    return Action::Rmw {
                        loc: ToyLangProgram::loc(*loc),
                        bytes: CELL_BYTES,
                        op: RmwOp::AddMod {
                            add: eval(val),
                            modulus: n,
                        },
                        ord: MemOrder::AcqRel,
                        src: at,
                    }
                }
                Instr::Xchg { loc, val, .. } => {
                    return Action::Rmw {
                        loc: ToyLangProgram::loc(*loc),
                        bytes: CELL_BYTES,
                        op: RmwOp::XchgMod {
                            val: eval(val),
                            modulus: n,
                        },
                        ord: MemOrder::AcqRel,
                        src: at,
                    }
                }
                Instr::Cas {
                    loc, expected, new, ..
                } => {
                    return Action::Rmw {
                        loc: ToyLangProgram::loc(*loc),
                        bytes: CELL_BYTES,
                        op: RmwOp::Cas {
                            expected: eval(expected),
                            new: eval(new),
                            fail_ord: MemOrder::Acquire,
                        },
                        ord: MemOrder::AcqRel,
                        src: at,
                    }
                }
            }
            silent += 1;
            if silent > SILENT_STEPS_BEFORE_CHECK && !seen.insert(w.state.clone()) {
                w.blocked = Some((BlockReason::Assume, at));
                return Action::Block {
                    reason: BlockReason::Assume,
                    src: at,
                };
            }
        }
    }

    fn worker_resume(prog: &Program, w: &mut WorkerState, ret: Val) {
        let code = &prog.threads[w.tid].code;
        let Some(stmt) = code.get(w.state.pc as usize) else {
            return;
        };
        if let Some(dst) = match &stmt.instr {
            Instr::Read { dst, .. }
            | Instr::Fadd { dst, .. }
            | Instr::Xchg { dst, .. }
            | Instr::Cas { dst, .. } => Some(*dst),
            _ => None,
        } {
            if !(0..prog.values).contains(&ret) {
                // Only UNINIT lies outside the domain.
                w.blocked = Some((BlockReason::Uninit, src(stmt.pos)));
            } else {
                w.state.regs[dst] = ret;
            }
        }
        w.state.pc += 1;
    }
}

impl ThreadMachine for ToyLangThread {
    fn peek(&mut self) -> Action {
        match &mut self.role {
            Role::Main(m) => Self::main_peek(&self.prog, m),
            Role::Worker(w) => Self::worker_peek(&self.prog, self.run, w),
        }
    }

    fn resume(&mut self, ret: Val) {
        match &mut self.role {
            Role::Main(m) => Self::main_resume(&self.prog, m, ret),
            Role::Worker(w) => Self::worker_resume(&self.prog, w, ret),
        }
    }

    fn registers(&self) -> Vec<Val> {
        match &self.role {
            Role::Main(m) => m.finals.clone(),
            Role::Worker(w) => w.state.regs.to_vec(),
        }
    }
}
