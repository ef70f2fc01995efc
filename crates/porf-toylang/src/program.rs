//! A parsed toy program: the value domain, locations, threads as instruction lists,
//! and the final assertion. Built only by [`crate::parse`], which checks every
//! invariant below; everything else reads it.
//!
//! Invariants (established by the parser):
//! * `values >= 2`, every literal of every expression lies in `0..values`.
//! * Every location index is `< locations.len()`, every register index of thread `t`'s
//!   code is `< threads[t].regs.len()`; the final assertion's variables index
//!   [`Program::final_vars`], whose entries name existing threads and registers.
//! * Jump targets are arbitrary indices: a target `>= code.len()` terminates the
//!   thread (Lahav and Boker, §2.1: "the execution of a sequential program terminates
//!   when pc reaches a value that is not in the domain").

use std::fmt;

/// A value of the domain `0..Program::values` (and of porf's `Val`).
pub type Value = i64;

/// A 1-based source position (line, column).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Pos {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Binary operators. Arithmetic is modulo the domain size; comparisons and the
/// logical connectives yield 0 or 1 (any non-zero value counts as true).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Binding strength: higher binds tighter.
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 3,
            BinOp::Add | BinOp::Sub => 4,
            BinOp::Mul => 5,
        }
    }

    /// `a op b` in the domain `0..n` (`a`, `b` in the domain, `n >= 2`).
    pub fn apply(self, a: Value, b: Value, n: Value) -> Value {
        let bit = |c: bool| c as Value;
        match self {
            BinOp::Add => (a + b).rem_euclid(n),
            BinOp::Sub => (a - b).rem_euclid(n),
            BinOp::Mul => (a * b).rem_euclid(n),
            BinOp::Eq => bit(a == b),
            BinOp::Ne => bit(a != b),
            BinOp::Lt => bit(a < b),
            BinOp::Le => bit(a <= b),
            BinOp::Gt => bit(a > b),
            BinOp::Ge => bit(a >= b),
            BinOp::And => bit(a != 0 && b != 0),
            BinOp::Or => bit(a != 0 || b != 0),
        }
    }
}

/// An expression over variables (a thread's registers, or for the final assertion the
/// entries of [`Program::final_vars`]) and literals of the domain.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Expr {
    Lit(Value),
    Var(usize),
    Not(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// The value of the expression with variable `i` worth `vars[i]`, in `0..n`.
    pub fn eval(&self, vars: &[Value], n: Value) -> Value {
        match self {
            Expr::Lit(v) => *v,
            Expr::Var(i) => vars[*i],
            Expr::Not(e) => (e.eval(vars, n) == 0) as Value,
            Expr::Bin(op, a, b) => op.apply(a.eval(vars, n), b.eval(vars, n), n),
        }
    }

    /// Writes the expression with `name(i)` for variable `i`, parenthesised only where
    /// precedence requires (operators are left-associative).
    pub fn write(
        &self,
        f: &mut dyn fmt::Write,
        name: &dyn Fn(usize) -> String,
        outer: u8,
    ) -> fmt::Result {
        match self {
            Expr::Lit(v) => write!(f, "{v}"),
            Expr::Var(i) => write!(f, "{}", name(*i)),
            Expr::Not(e) => {
                write!(f, "!")?;
                e.write(f, name, 6)
            }
            Expr::Bin(op, a, b) => {
                let p = op.precedence();
                let paren = p < outer;
                if paren {
                    write!(f, "(")?;
                }
                a.write(f, name, p)?;
                write!(f, " {} ", op.symbol())?;
                b.write(f, name, p + 1)?;
                if paren {
                    write!(f, ")")?;
                }
                Ok(())
            }
        }
    }

    /// The expression as text, with `name(i)` for variable `i`.
    pub fn to_text(&self, name: &dyn Fn(usize) -> String) -> String {
        let mut s = String::new();
        self.write(&mut s, name, 0).expect("writing to a String");
        s
    }
}

/// One instruction of a thread (Lahav and Boker, Fig. 1, plus `assume`/`assert`).
/// Locations and registers are indices.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Instr {
    /// `r := e` (no memory access).
    Assign { dst: usize, val: Expr },
    /// `if e goto n`: continue at `target` iff `e` is not 0.
    If { cond: Expr, target: usize },
    /// `goto n` (sugar for `if 1 goto n`).
    Goto { target: usize },
    /// `x := e`.
    Write { loc: usize, val: Expr },
    /// `r := x`.
    Read { dst: usize, loc: usize },
    /// `r := FADD(x, e)`: atomically adds `e` modulo the domain size; `r` gets the old value.
    Fadd { dst: usize, loc: usize, val: Expr },
    /// `r := XCHG(x, e)`: atomically writes `e`; `r` gets the old value.
    Xchg { dst: usize, loc: usize, val: Expr },
    /// `r := CAS(x, e_R, e_W)`: `r` gets the old value; writes `e_W` iff it was `e_R`
    /// (a failed CAS is a plain read).
    Cas {
        dst: usize,
        loc: usize,
        expected: Expr,
        new: Expr,
    },
    /// `assume e`: the thread blocks for good if `e` is 0.
    Assume { cond: Expr },
    /// `assert e`: an assertion failure (an error) if `e` is 0.
    Assert { cond: Expr },
}

impl Instr {
    /// The location the instruction accesses, if any.
    pub fn loc(&self) -> Option<usize> {
        match self {
            Instr::Write { loc, .. }
            | Instr::Read { loc, .. }
            | Instr::Fadd { loc, .. }
            | Instr::Xchg { loc, .. }
            | Instr::Cas { loc, .. } => Some(*loc),
            _ => None,
        }
    }
}

/// An instruction with its source position and text (for messages).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Stmt {
    pub instr: Instr,
    pub pos: Pos,
    /// The instruction's source text (without labels and comments).
    pub text: String,
}

/// One thread: its name, its registers (in order of first mention; every register
/// starts at 0) and its code.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Thread {
    pub name: String,
    pub pos: Pos,
    pub regs: Vec<String>,
    pub code: Vec<Stmt>,
}

/// `final assert e`: checked once every thread has terminated.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FinalAssert {
    pub cond: Expr,
    pub pos: Pos,
    pub text: String,
}

/// A parsed toy program.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Program {
    /// The source file's path (for messages and witnesses).
    pub file: String,
    /// The size of the value domain: values are `0..values`.
    pub values: Value,
    /// Location names, indexed `0..L`.
    pub locations: Vec<String>,
    /// The `init` writes in source order: (location, value, position). Each location
    /// at most once; a location absent here is uninitialised.
    pub init: Vec<(usize, Value, Pos)>,
    pub threads: Vec<Thread>,
    /// The variables of the final assertion: `final_vars[i] = (thread, register)`.
    pub final_vars: Vec<(usize, usize)>,
    pub final_assert: Option<FinalAssert>,
}

impl Program {
    /// The initial value of location `loc`, or `None` if it is uninitialised (a read
    /// of it blocks until some thread writes it: Lahav and Boker, Remark 1).
    pub fn init_value(&self, loc: usize) -> Option<Value> {
        self.init.iter().find(|i| i.0 == loc).map(|i| i.1)
    }

    /// The registers of thread `tid` the final assertion reads, in the order of
    /// [`Program::final_vars`] restricted to `tid`: (register, index in `final_vars`).
    pub fn final_regs_of(&self, tid: usize) -> Vec<(usize, usize)> {
        self.final_vars
            .iter()
            .enumerate()
            .filter(|(_, (t, _))| *t == tid)
            .map(|(i, (_, r))| (*r, i))
            .collect()
    }

    /// The text of expression `e` of thread `tid`.
    pub fn expr_text(&self, tid: usize, e: &Expr) -> String {
        let t = &self.threads[tid];
        e.to_text(&|i| t.regs[i].clone())
    }

    /// The text of the final assertion's condition.
    pub fn final_text(&self, e: &Expr) -> String {
        e.to_text(&|i| {
            let (t, r) = self.final_vars[i];
            format!("{}.{}", self.threads[t].name, self.threads[t].regs[r])
        })
    }

    /// Instruction `ins` of thread `tid` as text, with jump targets as indices.
    pub fn instr_text(&self, tid: usize, ins: &Instr) -> String {
        let t = &self.threads[tid];
        let r = |i: usize| t.regs[i].clone();
        let l = |i: usize| self.locations[i].clone();
        let e = |e: &Expr| self.expr_text(tid, e);
        match ins {
            Instr::Assign { dst, val } => format!("{} := {}", r(*dst), e(val)),
            Instr::If { cond, target } => format!("if {} goto {target}", e(cond)),
            Instr::Goto { target } => format!("goto {target}"),
            Instr::Write { loc, val } => format!("{} := {}", l(*loc), e(val)),
            Instr::Read { dst, loc } => format!("{} := {}", r(*dst), l(*loc)),
            Instr::Fadd { dst, loc, val } => {
                format!("{} := FADD({}, {})", r(*dst), l(*loc), e(val))
            }
            Instr::Xchg { dst, loc, val } => {
                format!("{} := XCHG({}, {})", r(*dst), l(*loc), e(val))
            }
            Instr::Cas {
                dst,
                loc,
                expected,
                new,
            } => format!(
                "{} := CAS({}, {}, {})",
                r(*dst),
                l(*loc),
                e(expected),
                e(new)
            ),
            Instr::Assume { cond } => format!("assume {}", e(cond)),
            Instr::Assert { cond } => format!("assert {}", e(cond)),
        }
    }
}

/// The listing: a program text in the toy format (it parses back to an equivalent
/// program), jump targets as instruction indices, each instruction numbered in a
/// comment — for witnesses.
impl fmt::Display for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "values {}", self.values)?;
        if !self.locations.is_empty() {
            writeln!(f, "locations {}", self.locations.join(" "))?;
        }
        if !self.init.is_empty() {
            let inits: Vec<String> = self
                .init
                .iter()
                .map(|(l, v, _)| format!("{} = {v}", self.locations[*l]))
                .collect();
            writeln!(f, "init {}", inits.join(", "))?;
        }
        for (tid, t) in self.threads.iter().enumerate() {
            writeln!(f, "thread {}", t.name)?;
            for (i, s) in t.code.iter().enumerate() {
                let text = self.instr_text(tid, &s.instr);
                writeln!(f, "  {text:<32} # {i}")?;
            }
        }
        if let Some(fa) = &self.final_assert {
            writeln!(f, "final assert {}", self.final_text(&fa.cond))?;
        }
        Ok(())
    }
}
