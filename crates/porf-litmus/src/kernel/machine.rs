//! The kernel test as a porf [`Program`]: a main thread spawning one thread per `Pn`,
//! each interpreting its compiled body. Every register holds a value and the set of
//! the thread's reads it was computed from (read ordinals: 0 = the thread's first read
//! event), so each access reports its address, data and control dependencies
//! ([`ThreadMachine::hw`]) exactly as the program's data flow has them.

use super::compile::{Code, Inst, Pure, Ret, RmwKind};
use porf_graph::hw::{Deps, FenceKind, Hw, Tags};
use porf_graph::{
    Action, BlockReason, ErrorKind, Loc, MemOrder, Program, RmwOp, SrcLoc, Symmetry, ThreadMachine,
    Tid, Val, Wrap,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A value, the reads it depends on (herd's dependencies), and the further reads
/// control flow chose it by (conditions of the `if`s that set a register on the way:
/// [`Deps::value`]); each sorted, no duplicates.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Dv {
    v: Val,
    deps: Vec<u32>,
    flow: Vec<u32>,
}

impl Dv {
    fn read(v: Val, read: u32) -> Dv {
        Dv {
            v,
            deps: vec![read],
            flow: vec![],
        }
    }
    /// Every read `self` was computed or chosen from.
    fn sources(&self) -> Vec<u32> {
        union(&self.deps, &self.flow)
    }
}

fn union(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out: Vec<u32> = a.iter().chain(b).copied().collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The whole test: compiled threads, locations and their initial values.
pub struct KernelProgram {
    pub threads: Arc<Vec<ThreadCode>>,
    /// Location address → initial value.
    pub init: BTreeMap<i64, Val>,
    /// The test's file, the one source file of every [`SrcLoc`].
    pub file: String,
}

/// One thread's code, initial register values, and the source line of each
/// instruction.
pub struct ThreadCode {
    pub code: Code,
    pub init_regs: Vec<Val>,
    pub src: Vec<SrcLoc>,
}

#[derive(Clone)]
pub enum KernelThread {
    /// The main thread: spawns the test's threads in order, then finishes.
    Main {
        next: u32,
        count: u32,
    },
    Worker(Box<Worker>),
}

#[derive(Clone)]
pub struct Worker {
    threads: Arc<Vec<ThreadCode>>,
    locs: Arc<Vec<i64>>,
    t: usize,
    pc: usize,
    regs: Vec<Dv>,
    /// The conditions of the enclosing branches, with their dependencies.
    ctrl: Vec<Dv>,
    reads: u32,
    /// A lock read a taken lock: the execution is not one of the program's.
    blocked: bool,
    /// The action at `pc`, once computed, and its hardware facts.
    pending: Option<(Action, Hw)>,
}

impl Program for KernelProgram {
    type Thread = KernelThread;
    fn main_thread(&self) -> KernelThread {
        KernelThread::Main {
            next: 0,
            count: self.threads.len() as u32,
        }
    }
    fn spawn(&self, _tid: Tid, entry: u32, _arg: Val) -> KernelThread {
        let tc = &self.threads[entry as usize];
        let regs = tc
            .init_regs
            .iter()
            .map(|&v| Dv { v, ..Dv::default() })
            .collect();
        KernelThread::Worker(Box::new(Worker {
            threads: self.threads.clone(),
            locs: Arc::new(self.init.keys().copied().collect()),
            t: entry as usize,
            pc: 0,
            regs,
            ctrl: Vec::new(),
            reads: 0,
            blocked: false,
            pending: None,
        }))
    }
    fn init_value(&self, loc: Loc) -> Val {
        self.init.get(&(loc.0 as i64)).copied().unwrap_or(0)
    }
    fn source_file(&self, _file: u32) -> &str {
        &self.file
    }
}

impl ThreadMachine for KernelThread {
    fn peek(&mut self) -> Action {
        match self {
            KernelThread::Main { next, count } => {
                if next < count {
                    Action::Spawn {
                        entry: *next,
                        arg: 0,
                        symmetric: Symmetry::Asymmetric,
                        src: SrcLoc::UNKNOWN,
                    }
                } else {
                    Action::Finish { ret: 0 }
                }
            }
            KernelThread::Worker(w) => w.peek(),
        }
    }
    fn resume(&mut self, ret: Val) {
        match self {
            KernelThread::Main { next, .. } => *next += 1,
            KernelThread::Worker(w) => w.resume(ret),
        }
    }
    fn registers(&self) -> Vec<Val> {
        match self {
            KernelThread::Main { .. } => Vec::new(),
            KernelThread::Worker(w) => w.regs.iter().map(|d| d.v).collect(),
        }
    }
    fn hw(&self) -> Option<Hw> {
        match self {
            KernelThread::Worker(w) => w.pending.as_ref().map(|(_, h)| h.clone()),
            KernelThread::Main { .. } => None,
        }
    }
}

fn eval(e: &Pure, regs: &[Dv]) -> Dv {
    match e {
        Pure::Const(v) => Dv {
            v: *v,
            ..Dv::default()
        },
        Pure::Reg(r) => regs[*r].clone(),
        Pure::Unary(op, a) => {
            let a = eval(a, regs);
            let v = match *op {
                "!" => (a.v == 0) as Val,
                "-" => a.v.wrapping_neg(),
                "~" => !a.v,
                _ => unreachable!("unary {op}"),
            };
            Dv {
                v,
                deps: a.deps,
                flow: a.flow,
            }
        }
        Pure::Binary(op, a, b) => {
            let a = eval(a, regs);
            let b = eval(b, regs);
            let (x, y) = (a.v, b.v);
            let v = match *op {
                "+" => x.wrapping_add(y),
                "-" => x.wrapping_sub(y),
                "*" => x.wrapping_mul(y),
                "/" => x.checked_div(y).unwrap_or(0),
                "%" => x.checked_rem(y).unwrap_or(0),
                "&" => x & y,
                "|" => x | y,
                "^" => x ^ y,
                "<<" => x.wrapping_shl(y as u32),
                ">>" => x.wrapping_shr(y as u32),
                "==" => (x == y) as Val,
                "!=" => (x != y) as Val,
                "<" => (x < y) as Val,
                ">" => (x > y) as Val,
                "<=" => (x <= y) as Val,
                ">=" => (x >= y) as Val,
                "&&" => (x != 0 && y != 0) as Val,
                "||" => (x != 0 || y != 0) as Val,
                _ => unreachable!("binary {op}"),
            };
            // herd's dependencies are syntactic: the result depends on both operands.
            Dv {
                v,
                deps: union(&a.deps, &b.deps),
                flow: union(&a.flow, &b.flow),
            }
        }
    }
}

impl Worker {
    fn code(&self) -> &ThreadCode {
        &self.threads[self.t]
    }

    fn ctrl(&self) -> Vec<u32> {
        self.ctrl
            .iter()
            .fold(Vec::new(), |acc, d| union(&acc, &d.deps))
    }

    /// The control-flow sources of an access ([`Deps::value`]): those of its operands
    /// `parts` and of the enclosing conditions.
    fn flow(&self, parts: &[&Dv]) -> Vec<u32> {
        let enclosing = self
            .ctrl
            .iter()
            .fold(Vec::new(), |acc, d| union(&acc, &d.flow));
        parts.iter().fold(enclosing, |acc, d| union(&acc, &d.flow))
    }

    fn src(&self) -> SrcLoc {
        self.code()
            .src
            .get(self.pc)
            .copied()
            .unwrap_or(SrcLoc::UNKNOWN)
    }

    /// The address `a` as a location of the test, or the error of an access elsewhere.
    fn loc(&self, a: &Dv) -> Result<Loc, Action> {
        if self.locs.binary_search(&a.v).is_ok() {
            Ok(Loc(a.v as u64))
        } else {
            Err(Action::Error {
                kind: ErrorKind::Unsupported,
                msg: format!(
                    "an access to address {}, which is no location of the test",
                    a.v
                ),
                src: self.src(),
            })
        }
    }

    fn peek(&mut self) -> Action {
        if let Some((a, _)) = &self.pending {
            return a.clone();
        }
        let (a, hw) = self.step();
        self.pending = Some((a.clone(), hw));
        a
    }

    /// Runs local instructions up to the next action.
    fn step(&mut self) -> (Action, Hw) {
        if self.blocked {
            return (
                Action::Block {
                    reason: BlockReason::Assume,
                    src: self.src(),
                },
                Hw::default(),
            );
        }
        loop {
            let threads = self.threads.clone();
            let Some(inst) = threads[self.t].code.insts.get(self.pc) else {
                return (Action::Finish { ret: 0 }, Hw::default());
            };
            let src = self.src();
            let access = |tags: Tags, addr: &Dv, data: Vec<u32>, ctrl: Vec<u32>, value| Hw {
                deps: Deps {
                    addr: addr.deps.clone(),
                    data,
                    ctrl,
                    value,
                },
                tags,
                fence: None,
                excl_read: None,
            };
            match inst {
                Inst::Set(r, e) => {
                    self.regs[*r] = eval(e, &self.regs);
                    self.pc += 1;
                }
                Inst::Branch { cond, else_to } => {
                    let c = eval(cond, &self.regs);
                    let taken = c.v != 0;
                    self.ctrl.push(c);
                    self.pc = if taken { self.pc + 1 } else { *else_to };
                }
                Inst::Jump(to) => self.pc = *to,
                Inst::Join { assigned } => {
                    // The arms' registers hold what the condition chose.
                    let c = self.ctrl.pop().map(|c| c.sources()).unwrap_or_default();
                    for &r in assigned {
                        self.regs[r].flow = union(&self.regs[r].flow, &c);
                    }
                    self.pc += 1;
                }
                Inst::Load {
                    addr, tags, ord, ..
                } => {
                    let a = eval(addr, &self.regs);
                    let loc = match self.loc(&a) {
                        Ok(l) => l,
                        Err(e) => return (e, Hw::default()),
                    };
                    let hw = access(*tags, &a, vec![], self.ctrl(), self.flow(&[&a]));
                    return (
                        Action::Load {
                            loc,
                            bytes: 8,
                            ord: *ord,
                            copy: false,
                            src,
                        },
                        hw,
                    );
                }
                Inst::Store {
                    addr,
                    val,
                    tags,
                    ord,
                    ..
                } => {
                    let a = eval(addr, &self.regs);
                    let v = eval(val, &self.regs);
                    let loc = match self.loc(&a) {
                        Ok(l) => l,
                        Err(e) => return (e, Hw::default()),
                    };
                    let flow = self.flow(&[&a, &v]);
                    let hw = access(*tags, &a, v.deps, self.ctrl(), flow);
                    return (
                        Action::Store {
                            loc,
                            bytes: 8,
                            val: v.v,
                            ord: *ord,
                            src,
                        },
                        hw,
                    );
                }
                Inst::Unlock { addr, .. } => {
                    let a = eval(addr, &self.regs);
                    let loc = match self.loc(&a) {
                        Ok(l) => l,
                        Err(e) => return (e, Hw::default()),
                    };
                    let hw = access(
                        Tags::REL | Tags::UL,
                        &a,
                        vec![],
                        self.ctrl(),
                        self.flow(&[&a]),
                    );
                    return (
                        Action::Store {
                            loc,
                            bytes: 8,
                            val: 0,
                            ord: MemOrder::Release,
                            src,
                        },
                        hw,
                    );
                }
                Inst::Lock { addr, .. } | Inst::TryLock { addr, .. } => {
                    let a = eval(addr, &self.regs);
                    let loc = match self.loc(&a) {
                        Ok(l) => l,
                        Err(e) => return (e, Hw::default()),
                    };
                    let hw = access(
                        Tags::ACQ | Tags::LKR | Tags::LKW,
                        &a,
                        vec![],
                        self.ctrl(),
                        self.flow(&[&a]),
                    );
                    let op = RmwOp::Cas {
                        expected: 0,
                        new: 1,
                        fail_ord: MemOrder::Relaxed,
                    };
                    return (
                        Action::Rmw {
                            loc,
                            bytes: 8,
                            op,
                            ord: MemOrder::Acquire,
                            src,
                        },
                        hw,
                    );
                }
                Inst::Rmw {
                    addr,
                    kind,
                    args,
                    tags,
                    ord,
                    ..
                } => {
                    let a = eval(addr, &self.regs);
                    let vals: Vec<Dv> = args.iter().map(|e| eval(e, &self.regs)).collect();
                    let loc = match self.loc(&a) {
                        Ok(l) => l,
                        Err(e) => return (e, Hw::default()),
                    };
                    let mut parts: Vec<&Dv> = vals.iter().collect();
                    parts.push(&a);
                    let flow = self.flow(&parts);
                    let hw = if *kind == RmwKind::AddUnless {
                        // herd: the added value flows into the write (data), the
                        // compared one decides whether it happens (ctrl).
                        let ctrl = union(&self.ctrl(), &vals[1].deps);
                        access(*tags, &a, vals[0].deps.clone(), ctrl, flow)
                    } else {
                        let data = vals.iter().fold(Vec::new(), |acc, d| union(&acc, &d.deps));
                        access(*tags, &a, data, self.ctrl(), flow)
                    };
                    let op = match kind {
                        RmwKind::Xchg => RmwOp::Xchg(vals[0].v),
                        RmwKind::Cmpxchg => RmwOp::Cas {
                            expected: vals[0].v,
                            new: vals[1].v,
                            fail_ord: MemOrder::Relaxed,
                        },
                        RmwKind::Add => RmwOp::Add(vals[0].v, Wrap::NONE),
                        RmwKind::Sub => RmwOp::Sub(vals[0].v, Wrap::NONE),
                        RmwKind::AddUnless => RmwOp::AddUnless {
                            add: vals[0].v,
                            unless: vals[1].v,
                        },
                    };
                    return (
                        Action::Rmw {
                            loc,
                            bytes: 8,
                            op,
                            ord: *ord,
                            src,
                        },
                        hw,
                    );
                }
                Inst::SyncSrcu { addr, .. } => {
                    let a = eval(addr, &self.regs);
                    let loc = match self.loc(&a) {
                        Ok(l) => l,
                        Err(e) => return (e, Hw::default()),
                    };
                    let kind = porf_graph::hw::KernelFence::SyncSrcu(loc.0);
                    return (
                        Action::Fence {
                            ord: MemOrder::SeqCst,
                            src,
                        },
                        Hw {
                            fence: Some(FenceKind::Kernel(kind)),
                            ..Hw::default()
                        },
                    );
                }
                Inst::Fence { kind, .. } => {
                    let ord = match kind {
                        porf_graph::hw::KernelFence::Rmb => MemOrder::Acquire,
                        porf_graph::hw::KernelFence::Wmb => MemOrder::Release,
                        _ => MemOrder::SeqCst,
                    };
                    return (
                        Action::Fence { ord, src },
                        Hw {
                            fence: Some(FenceKind::Kernel(*kind)),
                            ..Hw::default()
                        },
                    );
                }
            }
        }
    }

    fn resume(&mut self, ret: Val) {
        let Some((action, _)) = self.pending.take() else {
            panic!("resume without peek");
        };
        let threads = self.threads.clone();
        let inst = &threads[self.t].code.insts[self.pc];
        let me = self.reads;
        let read = |v: Val| Dv::read(v, me);
        match inst {
            Inst::Load { dst, .. } => {
                self.regs[*dst] = read(ret);
                self.reads += 1;
            }
            Inst::Lock { .. } => {
                self.reads += 1;
                self.blocked = ret != 0;
            }
            Inst::TryLock { dst, .. } => {
                self.regs[*dst] = Dv::read((ret == 0) as Val, me);
                self.reads += 1;
            }
            Inst::Rmw {
                dst, args, ret: r, ..
            } => {
                let Action::Rmw { op, .. } = action else {
                    unreachable!()
                };
                let new = op.apply(ret).unwrap_or(ret);
                // The operand the result is computed with: the added value, or for
                // `atomic_add_unless`'s success flag the compared one.
                let operand_at = usize::from(*r == Ret::Wrote);
                let operand = args
                    .get(operand_at)
                    .map(|e| eval(e, &self.regs))
                    .unwrap_or_default();
                let computed = |v: Val| Dv {
                    v,
                    deps: union(&[me], &operand.deps),
                    flow: operand.flow.clone(),
                };
                self.regs[*dst] = match r {
                    Ret::Old => read(ret),
                    Ret::New => computed(new),
                    Ret::NewIsZero => computed((new == 0) as Val),
                    Ret::Wrote => computed(op.apply(ret).is_some() as Val),
                };
                self.reads += 1;
            }
            _ => {}
        }
        self.pc += 1;
    }
}
