//! Registers and pure expressions over them.
//!
//! Invariants:
//! * A [`Reg`] belongs to exactly one thread (the one whose builder created it) and is
//!   only meaningful there; the builder rejects registers of other threads.
//! * Evaluation is total and deterministic: arithmetic wraps, comparisons and the logical
//!   operators yield `1` (true) or `0` (false), and any non-zero value counts as true.

use std::fmt;
use std::ops;

use porf_graph::Val;

/// A thread-local register. `index` is its position in the thread's register file
/// (registers are numbered in creation order); `thread` is the owning thread's entry
/// number ([`Reg::MAIN_THREAD`] for the main thread).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Reg {
    pub thread: u32,
    pub index: u32,
}

impl Reg {
    /// The `thread` of registers that belong to the generated main thread.
    pub const MAIN_THREAD: u32 = u32::MAX;
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}", self.index)
    }
}

/// A pure expression over constants and the registers of one thread.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Expr {
    Const(Val),
    Reg(Reg),
    /// Wrapping addition.
    Add(Box<Expr>, Box<Expr>),
    /// Wrapping subtraction.
    Sub(Box<Expr>, Box<Expr>),
    Eq(Box<Expr>, Box<Expr>),
    Ne(Box<Expr>, Box<Expr>),
    /// Signed less-than.
    Lt(Box<Expr>, Box<Expr>),
    /// Logical not: `1` iff the operand is `0`.
    Not(Box<Expr>),
    /// Logical and (both operands are always evaluated; there are no side effects).
    And(Box<Expr>, Box<Expr>),
    /// Logical or.
    Or(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Evaluates the expression; `reg` gives the current value of a register.
    pub fn eval(&self, reg: &impl Fn(Reg) -> Val) -> Val {
        let b = |c: bool| Val::from(c);
        match self {
            Expr::Const(v) => *v,
            Expr::Reg(r) => reg(*r),
            Expr::Add(a, c) => a.eval(reg).wrapping_add(c.eval(reg)),
            Expr::Sub(a, c) => a.eval(reg).wrapping_sub(c.eval(reg)),
            Expr::Eq(a, c) => b(a.eval(reg) == c.eval(reg)),
            Expr::Ne(a, c) => b(a.eval(reg) != c.eval(reg)),
            Expr::Lt(a, c) => b(a.eval(reg) < c.eval(reg)),
            Expr::Not(a) => b(a.eval(reg) == 0),
            Expr::And(a, c) => b(a.eval(reg) != 0 && c.eval(reg) != 0),
            Expr::Or(a, c) => b(a.eval(reg) != 0 || c.eval(reg) != 0),
        }
    }

    /// Calls `f` on every register the expression mentions.
    pub fn for_each_reg(&self, f: &mut impl FnMut(Reg)) {
        match self {
            Expr::Const(_) => {}
            Expr::Reg(r) => f(*r),
            Expr::Not(a) => a.for_each_reg(f),
            Expr::Add(a, c)
            | Expr::Sub(a, c)
            | Expr::Eq(a, c)
            | Expr::Ne(a, c)
            | Expr::Lt(a, c)
            | Expr::And(a, c)
            | Expr::Or(a, c) => {
                a.for_each_reg(f);
                c.for_each_reg(f);
            }
        }
    }
}

impl From<Val> for Expr {
    fn from(v: Val) -> Expr {
        Expr::Const(v)
    }
}

impl From<i32> for Expr {
    fn from(v: i32) -> Expr {
        Expr::Const(Val::from(v))
    }
}

impl From<Reg> for Expr {
    fn from(r: Reg) -> Expr {
        Expr::Reg(r)
    }
}

fn bin(a: impl Into<Expr>, b: impl Into<Expr>) -> (Box<Expr>, Box<Expr>) {
    (Box::new(a.into()), Box::new(b.into()))
}

/// `a + b` (wrapping).
pub fn add(a: impl Into<Expr>, b: impl Into<Expr>) -> Expr {
    let (a, b) = bin(a, b);
    Expr::Add(a, b)
}
/// `a - b` (wrapping).
pub fn sub(a: impl Into<Expr>, b: impl Into<Expr>) -> Expr {
    let (a, b) = bin(a, b);
    Expr::Sub(a, b)
}
/// `a == b`.
pub fn eq(a: impl Into<Expr>, b: impl Into<Expr>) -> Expr {
    let (a, b) = bin(a, b);
    Expr::Eq(a, b)
}
/// `a != b`.
pub fn ne(a: impl Into<Expr>, b: impl Into<Expr>) -> Expr {
    let (a, b) = bin(a, b);
    Expr::Ne(a, b)
}
/// `a < b` (signed).
pub fn lt(a: impl Into<Expr>, b: impl Into<Expr>) -> Expr {
    let (a, b) = bin(a, b);
    Expr::Lt(a, b)
}
/// `!a` (logical).
pub fn not(a: impl Into<Expr>) -> Expr {
    Expr::Not(Box::new(a.into()))
}
/// `a && b` (logical).
pub fn and(a: impl Into<Expr>, b: impl Into<Expr>) -> Expr {
    let (a, b) = bin(a, b);
    Expr::And(a, b)
}
/// `a || b` (logical).
pub fn or(a: impl Into<Expr>, b: impl Into<Expr>) -> Expr {
    let (a, b) = bin(a, b);
    Expr::Or(a, b)
}

impl<T: Into<Expr>> ops::Add<T> for Expr {
    type Output = Expr;
    fn add(self, rhs: T) -> Expr {
        add(self, rhs)
    }
}
impl<T: Into<Expr>> ops::Sub<T> for Expr {
    type Output = Expr;
    fn sub(self, rhs: T) -> Expr {
        sub(self, rhs)
    }
}
impl<T: Into<Expr>> ops::Add<T> for Reg {
    type Output = Expr;
    fn add(self, rhs: T) -> Expr {
        add(self, rhs)
    }
}
impl<T: Into<Expr>> ops::Sub<T> for Reg {
    type Output = Expr;
    fn sub(self, rhs: T) -> Expr {
        sub(self, rhs)
    }
}
impl ops::Not for Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        not(self)
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (op, a, b) = match self {
            Expr::Const(v) => return write!(f, "{v}"),
            Expr::Reg(r) => return write!(f, "{r}"),
            Expr::Not(a) => return write!(f, "!{}", Paren(a)),
            Expr::Add(a, b) => ("+", a, b),
            Expr::Sub(a, b) => ("-", a, b),
            Expr::Eq(a, b) => ("==", a, b),
            Expr::Ne(a, b) => ("!=", a, b),
            Expr::Lt(a, b) => ("<", a, b),
            Expr::And(a, b) => ("&&", a, b),
            Expr::Or(a, b) => ("||", a, b),
        };
        write!(f, "{} {op} {}", Paren(a), Paren(b))
    }
}

/// Displays an operand, parenthesised unless it is atomic.
struct Paren<'a>(&'a Expr);

impl fmt::Display for Paren<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Expr::Const(_) | Expr::Reg(_) => write!(f, "{}", self.0),
            e => write!(f, "({e})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_and_display() {
        let r0 = Reg {
            thread: 0,
            index: 0,
        };
        let r1 = Reg {
            thread: 0,
            index: 1,
        };
        let regs = |r: Reg| [7, -2][r.index as usize];
        assert_eq!((r0 + 1).eval(&regs), 8);
        assert_eq!((r1 - r0).eval(&regs), -9);
        assert_eq!(eq(r0, 7).eval(&regs), 1);
        assert_eq!(ne(r0, 7).eval(&regs), 0);
        assert_eq!(lt(r1, 0).eval(&regs), 1);
        assert_eq!(and(r0, 0).eval(&regs), 0);
        assert_eq!(or(r0, 0).eval(&regs), 1);
        assert_eq!((!eq(r0, 1)).eval(&regs), 1);
        assert_eq!((Expr::from(Val::MAX) + 1).eval(&regs), Val::MIN);
        assert_eq!(
            or(eq(r0, 1), lt(r1, 2)).to_string(),
            "(r0 == 1) || (r1 < 2)"
        );
    }
}
