//! A kernel thread body as straight code: the kernel's primitives resolved to memory
//! instructions with their LKMM annotations, nested calls hoisted into temporaries in
//! evaluation order (left to right), `if` as a branch whose condition's dependencies
//! hold for the accesses of both arms (herd's `ctrl`) until the arms join, where the
//! registers either arm sets take the condition as a control-flow source of their
//! values (not a herd dependency: [`porf_graph::hw::Deps::value`]).

use super::syntax::{Expr, Stmt};
use porf_graph::hw::{KernelFence, Tags};
use porf_graph::MemOrder;
use std::collections::BTreeMap;

/// An expression without memory accesses over registers.
#[derive(Clone, Debug, PartialEq)]
pub enum Pure {
    Const(i64),
    Reg(usize),
    Unary(&'static str, Box<Pure>),
    Binary(&'static str, Box<Pure>, Box<Pure>),
}

/// The operation of an RMW primitive, on the evaluated arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RmwKind {
    /// `xchg(p, v)`
    Xchg,
    /// `cmpxchg(p, old, new)`
    Cmpxchg,
    /// add the argument (sub: the front end negates)
    Add,
    Sub,
    /// `atomic_add_unless(p, a, u)`: add `a` unless the value is `u` (then no write).
    AddUnless,
}

/// What an RMW primitive returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ret {
    Old,
    New,
    /// `atomic_*_and_test`: the new value is 0.
    NewIsZero,
    /// `atomic_add_unless`: 1 when the RMW wrote, 0 when it did not.
    Wrote,
}

/// One instruction; `at` is the byte offset of the primitive's call.
#[derive(Clone, Debug, PartialEq)]
pub enum Inst {
    Set(usize, Pure),
    Load {
        dst: usize,
        addr: Pure,
        tags: Tags,
        ord: MemOrder,
        at: usize,
    },
    Store {
        addr: Pure,
        val: Pure,
        tags: Tags,
        ord: MemOrder,
        at: usize,
    },
    Rmw {
        dst: usize,
        addr: Pure,
        kind: RmwKind,
        args: Vec<Pure>,
        ret: Ret,
        tags: Tags,
        ord: MemOrder,
        at: usize,
    },
    Fence {
        kind: KernelFence,
        at: usize,
    },
    /// `spin_lock`: an acquire compare-exchange 0 → 1 (`LKR`, `LKW`); an execution in
    /// which it reads a taken lock is not one of the program's (herd's locks succeed).
    Lock {
        addr: Pure,
        at: usize,
    },
    /// `spin_trylock`: as [`Inst::Lock`], but a taken lock gives 0 in `dst` (the read
    /// of a failed RMW, unordered), success 1.
    TryLock {
        dst: usize,
        addr: Pure,
        at: usize,
    },
    /// `spin_unlock`: a release write of 0 (`UL`).
    Unlock {
        addr: Pure,
        at: usize,
    },
    /// `synchronize_srcu(s)`: a grace period of the SRCU domain at `addr`.
    SyncSrcu {
        addr: Pure,
        at: usize,
    },
    /// Evaluates the condition, pushes its dependencies on the control stack, and
    /// goes on at `else_to` if it is 0.
    Branch {
        cond: Pure,
        else_to: usize,
    },
    Jump(usize),
    /// The end of an `if`: pops the control stack; the registers either arm sets
    /// (`assigned`) now hold values chosen by the condition.
    Join {
        assigned: Vec<usize>,
    },
}

/// A compiled thread: code and register names (declared registers first, then
/// temporaries named `$n`), which registers were declared as pointers.
#[derive(Clone, Debug, Default)]
pub struct Code {
    pub insts: Vec<Inst>,
    pub regs: Vec<String>,
    pub ptr: Vec<bool>,
}

/// A refusal at a byte offset.
#[derive(Clone, Debug)]
pub struct CompileError {
    pub at: usize,
    pub message: String,
}

type Res<T> = Result<T, CompileError>;

struct Compiler<'a> {
    code: Code,
    by_name: BTreeMap<String, usize>,
    /// Parameters and locations: names bound to addresses.
    addr_of: &'a dyn Fn(&str) -> Option<i64>,
}

/// Compiles a thread body; `params` are the thread's parameters, `init_regs` the
/// registers the initial state sets, `addr_of` the address of a location by name.
pub fn compile(
    body: &[Stmt],
    params: &[String],
    init_regs: &[String],
    addr_of: &dyn Fn(&str) -> Option<i64>,
) -> Result<Code, CompileError> {
    let mut c = Compiler {
        code: Code::default(),
        by_name: BTreeMap::new(),
        addr_of,
    };
    // herd's registers are thread-wide: declare every one first.
    // herd also takes an assigned name that is no parameter for a register.
    fn decls(s: &[Stmt], out: &mut Vec<(String, bool)>) {
        for st in s {
            match st {
                Stmt::Decl { name, ptr, .. } => out.push((name.clone(), *ptr)),
                Stmt::Assign { name, .. } => out.push((name.clone(), false)),
                Stmt::If(_, a, b) => {
                    decls(a, out);
                    decls(b, out);
                }
                Stmt::Block(b) => decls(b, out),
                _ => {}
            }
        }
    }
    // Registers the initial state sets (`0:r1 = z`) exist even if the body never
    // assigns them.
    let mut ds: Vec<(String, bool)> = init_regs.iter().map(|r| (r.clone(), false)).collect();
    decls(body, &mut ds);
    for (n, ptr) in ds {
        if params.contains(&n) {
            continue;
        }
        if let Some(&r) = c.by_name.get(&n) {
            c.code.ptr[r] |= ptr;
        } else {
            c.by_name.insert(n.clone(), c.code.regs.len());
            c.code.regs.push(n);
            c.code.ptr.push(ptr);
        }
    }
    c.stmts(body)?;
    Ok(c.code)
}

fn pure_reads(e: &Pure, out: &mut Vec<usize>) {
    match e {
        Pure::Const(_) => {}
        Pure::Reg(r) => out.push(*r),
        Pure::Unary(_, a) => pure_reads(a, out),
        Pure::Binary(_, a, b) => {
            pure_reads(a, out);
            pure_reads(b, out);
        }
    }
}

/// The registers instruction `i` reads and the one it writes.
fn uses(i: &Inst) -> (Vec<usize>, Option<usize>) {
    let mut r = Vec::new();
    let w = match i {
        Inst::Set(d, e) => {
            pure_reads(e, &mut r);
            Some(*d)
        }
        Inst::Load { dst, addr, .. } => {
            pure_reads(addr, &mut r);
            Some(*dst)
        }
        Inst::Store { addr, val, .. } => {
            pure_reads(addr, &mut r);
            pure_reads(val, &mut r);
            None
        }
        Inst::Rmw {
            dst, addr, args, ..
        } => {
            pure_reads(addr, &mut r);
            args.iter().for_each(|a| pure_reads(a, &mut r));
            Some(*dst)
        }
        Inst::TryLock { dst, addr, .. } => {
            pure_reads(addr, &mut r);
            Some(*dst)
        }
        Inst::Lock { addr, .. } | Inst::Unlock { addr, .. } | Inst::SyncSrcu { addr, .. } => {
            pure_reads(addr, &mut r);
            None
        }
        Inst::Branch { cond, .. } => {
            pure_reads(cond, &mut r);
            None
        }
        Inst::Fence { .. } | Inst::Jump(_) | Inst::Join { .. } => None,
    };
    (r, w)
}

fn refuse<T>(at: usize, msg: impl Into<String>) -> Res<T> {
    Err(CompileError {
        at,
        message: msg.into(),
    })
}

/// How a primitive's arguments and result are read.
enum Prim {
    Load(Tags, MemOrder),
    Store(Tags, MemOrder),
    /// A store followed by `smp_mb()` (`smp_store_mb`).
    StoreMb,
    Fence(KernelFence),
    Rmw {
        kind: RmwKind,
        ret: Ret,
        tags: Tags,
        ord: MemOrder,
        /// The location is the last argument (`atomic_add(i, v)`), not the first.
        loc_last: bool,
        /// A constant operand (`atomic_inc`: 1).
        imm: Option<i64>,
    },
    Lock,
    TryLock,
    Unlock,
    /// `synchronize_srcu(s)`
    SyncSrcu,
    /// A compiler barrier: no event.
    Nothing,
}

/// The kernel primitive called `name`, and whether its location argument is an
/// lvalue `*p` (`READ_ONCE(*p)`) rather than a pointer (`smp_load_acquire(p)`).
fn primitive(name: &str) -> Option<(Prim, bool)> {
    use MemOrder::{Acquire, Relaxed, Release};
    let once = Tags::ONCE;
    Some(match name {
        "READ_ONCE" => (Prim::Load(once, Relaxed), true),
        "rcu_dereference" => (Prim::Load(once | Tags::RCU_DEREF, Relaxed), true),
        "smp_load_acquire" => (Prim::Load(Tags::ACQ, Acquire), false),
        "atomic_read" => (Prim::Load(once, Relaxed), false),
        "atomic_read_acquire" => (Prim::Load(Tags::ACQ, Acquire), false),
        "WRITE_ONCE" => (Prim::Store(once, Relaxed), true),
        "rcu_assign_pointer" => (Prim::Store(Tags::REL | Tags::RCU_ASSIGN, Release), true),
        "smp_store_release" => (Prim::Store(Tags::REL, Release), false),
        "atomic_set" => (Prim::Store(once, Relaxed), false),
        "atomic_set_release" => (Prim::Store(Tags::REL, Release), false),
        "smp_store_mb" => (Prim::StoreMb, true),
        "smp_mb" => (Prim::Fence(KernelFence::Mb), false),
        "smp_rmb" => (Prim::Fence(KernelFence::Rmb), false),
        "smp_wmb" => (Prim::Fence(KernelFence::Wmb), false),
        "smp_mb__before_atomic" => (Prim::Fence(KernelFence::BeforeAtomic), false),
        "smp_mb__after_atomic" => (Prim::Fence(KernelFence::AfterAtomic), false),
        "smp_mb__after_spinlock" => (Prim::Fence(KernelFence::AfterSpinlock), false),
        "smp_mb__after_unlock_lock" => (Prim::Fence(KernelFence::AfterUnlockLock), false),
        "rcu_read_lock" => (Prim::Fence(KernelFence::RcuLock), false),
        "rcu_read_unlock" => (Prim::Fence(KernelFence::RcuUnlock), false),
        "synchronize_rcu" | "synchronize_rcu_expedited" => {
            (Prim::Fence(KernelFence::SyncRcu), false)
        }
        // SRCU (herd's `linux-kernel.def`): the lock reads the `srcu_struct`, its value
        // (an index) goes back to the struct with the matching unlock.
        "srcu_read_lock" | "srcu_down_read" => (Prim::Load(Tags::SRCU_LOCK, Relaxed), false),
        "srcu_read_unlock" | "srcu_up_read" => (Prim::Store(Tags::SRCU_UNLOCK, Relaxed), false),
        "synchronize_srcu" | "synchronize_srcu_expedited" => (Prim::SyncSrcu, false),
        "smp_mb__after_srcu_read_unlock" => (Prim::Fence(KernelFence::AfterSrcuReadUnlock), false),
        "barrier" => (Prim::Nothing, false),
        "spin_lock" => (Prim::Lock, false),
        "spin_unlock" => (Prim::Unlock, false),
        "spin_trylock" => (Prim::TryLock, false),
        _ => return rmw_primitive(name).map(|p| (p, false)),
    })
}

/// `xchg`, `cmpxchg` and the `atomic_*` RMWs, with their ordering suffixes.
fn rmw_primitive(name: &str) -> Option<Prim> {
    use MemOrder::{Acquire, Relaxed, Release, SeqCst};
    let (base, tags, ord) = if let Some(b) = name.strip_suffix("_relaxed") {
        (b, Tags::ONCE, Relaxed)
    } else if let Some(b) = name.strip_suffix("_acquire") {
        (b, Tags::ACQ, Acquire)
    } else if let Some(b) = name.strip_suffix("_release") {
        (b, Tags::REL, Release)
    } else {
        (name, Tags::MB, SeqCst)
    };
    let suffixed = base.len() != name.len();
    let rmw = |kind, ret, loc_last, imm| Prim::Rmw {
        kind,
        ret,
        tags,
        ord,
        loc_last,
        imm,
    };
    Some(match base {
        "xchg" | "atomic_xchg" => rmw(RmwKind::Xchg, Ret::Old, false, None),
        "cmpxchg" | "atomic_cmpxchg" => rmw(RmwKind::Cmpxchg, Ret::Old, false, None),
        "atomic_add_return" => rmw(RmwKind::Add, Ret::New, true, None),
        "atomic_sub_return" => rmw(RmwKind::Sub, Ret::New, true, None),
        "atomic_inc_return" => rmw(RmwKind::Add, Ret::New, false, Some(1)),
        "atomic_dec_return" => rmw(RmwKind::Sub, Ret::New, false, Some(1)),
        "atomic_fetch_add" => rmw(RmwKind::Add, Ret::Old, true, None),
        "atomic_fetch_sub" => rmw(RmwKind::Sub, Ret::Old, true, None),
        "atomic_fetch_inc" => rmw(RmwKind::Add, Ret::Old, false, Some(1)),
        "atomic_fetch_dec" => rmw(RmwKind::Sub, Ret::Old, false, Some(1)),
        "atomic_sub_and_test" if !suffixed => rmw(RmwKind::Sub, Ret::NewIsZero, true, None),
        "atomic_dec_and_test" if !suffixed => rmw(RmwKind::Sub, Ret::NewIsZero, false, Some(1)),
        "atomic_inc_and_test" if !suffixed => rmw(RmwKind::Add, Ret::NewIsZero, false, Some(1)),
        "atomic_add_unless" if !suffixed => rmw(RmwKind::AddUnless, Ret::Wrote, false, None),
        // Non-value-returning RMWs: unordered, their reads `Noreturn`.
        "atomic_add" | "atomic_sub" | "atomic_inc" | "atomic_dec" if !suffixed => {
            let (kind, imm, loc_last) = match base {
                "atomic_add" => (RmwKind::Add, None, true),
                "atomic_sub" => (RmwKind::Sub, None, true),
                "atomic_inc" => (RmwKind::Add, Some(1), false),
                _ => (RmwKind::Sub, Some(1), false),
            };
            Prim::Rmw {
                kind,
                ret: Ret::Old,
                tags: Tags::ONCE | Tags::NORETURN,
                ord: Relaxed,
                loc_last,
                imm,
            }
        }
        _ => return None,
    })
}

impl Compiler<'_> {
    fn emit(&mut self, i: Inst) {
        self.code.insts.push(i);
    }
    fn temp(&mut self) -> usize {
        let r = self.code.regs.len();
        self.code.regs.push(format!("${r}"));
        self.code.ptr.push(false);
        r
    }
    fn reg(&self, name: &str, at: usize) -> Res<usize> {
        match self.by_name.get(name) {
            Some(&r) => Ok(r),
            None => refuse(at, format!("`{name}` is not a register of this thread")),
        }
    }

    fn stmts(&mut self, s: &[Stmt]) -> Res<()> {
        for st in s {
            self.stmt(st)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Res<()> {
        match s {
            Stmt::Decl { name, init, at, .. } => {
                if let Some(e) = init {
                    let r = self.reg(name, *at)?;
                    let v = self.expr(e)?;
                    self.emit(Inst::Set(r, v));
                }
            }
            Stmt::Assign { name, value, at } => {
                let r = self.reg(name, *at)?;
                let v = self.expr(value)?;
                self.emit(Inst::Set(r, v));
            }
            Stmt::Store { addr, value, at } => {
                let addr = self.expr(addr)?;
                let val = self.expr(value)?;
                self.emit(Inst::Store {
                    addr,
                    val,
                    tags: Tags::NONE,
                    ord: MemOrder::Relaxed,
                    at: *at,
                });
            }
            Stmt::Expr(e) => {
                if let Expr::Call(..) = e {
                    self.call(e, false)?;
                } else {
                    let _ = self.expr(e)?;
                }
            }
            Stmt::Block(b) => self.stmts(b)?,
            Stmt::If(c, a, b) => {
                let cond = self.expr(c)?;
                let br = self.code.insts.len();
                self.emit(Inst::Branch { cond, else_to: 0 });
                self.stmts(a)?;
                let jump = self.code.insts.len();
                self.emit(Inst::Jump(0));
                let else_at = self.code.insts.len();
                self.stmts(b)?;
                let join = self.code.insts.len();
                let mut assigned: Vec<usize> = self.code.insts[br..join]
                    .iter()
                    .filter_map(|i| uses(i).1)
                    .collect();
                assigned.sort_unstable();
                assigned.dedup();
                self.emit(Inst::Join { assigned });
                self.code.insts[br] = match std::mem::replace(
                    &mut self.code.insts[br],
                    Inst::Join { assigned: vec![] },
                ) {
                    Inst::Branch { cond, .. } => Inst::Branch {
                        cond,
                        else_to: else_at,
                    },
                    _ => unreachable!(),
                };
                self.code.insts[jump] = Inst::Jump(join);
            }
        }
        Ok(())
    }

    /// An expression as a pure one; the primitives it calls are emitted first, in
    /// order, their results in temporaries.
    fn expr(&mut self, e: &Expr) -> Res<Pure> {
        Ok(match e {
            Expr::Int(v) => Pure::Const(*v),
            Expr::Name(n, at) => {
                if let Some(&r) = self.by_name.get(n) {
                    Pure::Reg(r)
                } else if n == "NULL" || n == "false" {
                    Pure::Const(0)
                } else if n == "true" {
                    Pure::Const(1)
                } else if let Some(a) = (self.addr_of)(n) {
                    // A parameter: the address of its location.
                    Pure::Const(a)
                } else {
                    return refuse(*at, format!("unknown name `{n}`"));
                }
            }
            Expr::Call(..) => match self.call(e, true)? {
                Some(r) => Pure::Reg(r),
                None => return refuse(e.at(), "this primitive has no value"),
            },
            // A plain read (no tag: herd's `Plain`).
            Expr::Unary("*", p, at) => {
                let addr = self.expr(p)?;
                let dst = self.temp();
                self.emit(Inst::Load {
                    dst,
                    addr,
                    tags: Tags::NONE,
                    ord: MemOrder::Relaxed,
                    at: *at,
                });
                Pure::Reg(dst)
            }
            Expr::Unary("&", inner, at) => match &**inner {
                Expr::Name(n, _) if !self.by_name.contains_key(n) => match (self.addr_of)(n) {
                    Some(a) => Pure::Const(a),
                    None => return refuse(*at, format!("unknown location `{n}`")),
                },
                Expr::Unary("*", p, _) => self.expr(p)?,
                _ => return refuse(*at, "unsupported: the address of a register"),
            },
            Expr::Unary(op, inner, _) => Pure::Unary(op, Box::new(self.expr(inner)?)),
            Expr::Binary(op, a, b, _) => {
                let a = self.expr(a)?;
                let b = self.expr(b)?;
                Pure::Binary(op, Box::new(a), Box::new(b))
            }
        })
    }

    /// The address a location argument names: `*p` for lvalue primitives, `p` for
    /// pointer ones.
    fn location(&mut self, arg: &Expr, lvalue: bool, name: &str) -> Res<Pure> {
        if lvalue {
            match arg {
                Expr::Unary("*", p, _) => self.expr(p),
                _ => refuse(
                    arg.at(),
                    format!("`{name}` takes a location `*p` as its first argument"),
                ),
            }
        } else {
            self.expr(arg)
        }
    }

    /// Emits a primitive call; returns the register holding its value, if it has one.
    fn call(&mut self, e: &Expr, want_value: bool) -> Res<Option<usize>> {
        let Expr::Call(name, args, at) = e else {
            unreachable!()
        };
        let at = *at;
        let Some((prim, lvalue)) = primitive(name) else {
            return refuse(
                at,
                format!("unsupported: `{name}`: not a kernel primitive porf models"),
            );
        };
        let arity = |n: usize| -> Res<()> {
            if args.len() == n {
                Ok(())
            } else {
                refuse(
                    at,
                    format!("`{name}` takes {n} argument(s), not {}", args.len()),
                )
            }
        };
        let out = match prim {
            Prim::Load(tags, ord) => {
                arity(1)?;
                let addr = self.location(&args[0], lvalue, name)?;
                let dst = self.temp();
                self.emit(Inst::Load {
                    dst,
                    addr,
                    tags,
                    ord,
                    at,
                });
                Some(dst)
            }
            Prim::Store(tags, ord) => {
                arity(2)?;
                let addr = self.location(&args[0], lvalue, name)?;
                let val = self.expr(&args[1])?;
                self.emit(Inst::Store {
                    addr,
                    val,
                    tags,
                    ord,
                    at,
                });
                None
            }
            Prim::StoreMb => {
                arity(2)?;
                let addr = self.location(&args[0], lvalue, name)?;
                let val = self.expr(&args[1])?;
                self.emit(Inst::Store {
                    addr,
                    val,
                    tags: Tags::ONCE,
                    ord: MemOrder::Relaxed,
                    at,
                });
                self.emit(Inst::Fence {
                    kind: KernelFence::Mb,
                    at,
                });
                None
            }
            Prim::Fence(kind) => {
                arity(0)?;
                self.emit(Inst::Fence { kind, at });
                None
            }
            Prim::Nothing => {
                arity(0)?;
                None
            }
            Prim::SyncSrcu => {
                arity(1)?;
                let addr = self.expr(&args[0])?;
                self.emit(Inst::SyncSrcu { addr, at });
                None
            }
            Prim::Lock | Prim::Unlock | Prim::TryLock => {
                arity(1)?;
                let addr = self.expr(&args[0])?;
                match prim {
                    Prim::Lock => {
                        self.emit(Inst::Lock { addr, at });
                        None
                    }
                    Prim::Unlock => {
                        self.emit(Inst::Unlock { addr, at });
                        None
                    }
                    _ => {
                        let dst = self.temp();
                        self.emit(Inst::TryLock { dst, addr, at });
                        Some(dst)
                    }
                }
            }
            Prim::Rmw {
                kind,
                ret,
                tags,
                ord,
                loc_last,
                imm,
            } => {
                let want = match kind {
                    RmwKind::Cmpxchg | RmwKind::AddUnless => 3,
                    _ if imm.is_some() => 1,
                    _ => 2,
                };
                arity(want)?;
                let (loc_arg, rest): (&Expr, Vec<&Expr>) = if loc_last {
                    (&args[want - 1], args[..want - 1].iter().collect())
                } else {
                    (&args[0], args[1..].iter().collect())
                };
                // Evaluate in source order.
                let mut vals = Vec::new();
                let addr;
                if loc_last {
                    for a in &rest {
                        vals.push(self.expr(a)?);
                    }
                    addr = self.expr(loc_arg)?;
                } else {
                    addr = self.expr(loc_arg)?;
                    for a in &rest {
                        vals.push(self.expr(a)?);
                    }
                }
                if let Some(v) = imm {
                    vals.push(Pure::Const(v));
                }
                let dst = self.temp();
                self.emit(Inst::Rmw {
                    dst,
                    addr,
                    kind,
                    args: vals,
                    ret,
                    tags,
                    ord,
                    at,
                });
                let no_value = tags.contains(Tags::NORETURN);
                (!no_value).then_some(dst)
            }
        };
        if want_value && out.is_none() {
            return refuse(at, format!("`{name}` has no value"));
        }
        Ok(out)
    }
}
