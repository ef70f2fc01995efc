//! The typed instructions of an assembly litmus test, one IR for AArch64, RISC-V, PPC
//! and X86.
//!
//! Invariants:
//! - every register an instruction reads is in [`Op::uses`] with the role of the read
//!   (address, data, control, arithmetic, compare value); every register it writes is in
//!   [`Op::writes`]. The zero register ([`Reg::Zero`]: AArch64 `XZR`/`WZR`, RISC-V `x0`)
//!   is in neither: it reads as 0 and writes to it are discarded. PPC's `r0` as a base
//!   register is the constant 0 (the ISA's `(RA|0)`) and is not a read either.
//! - [`Reg::Flags`] is the condition register (AArch64 NZCV, PPC CR0, X86 EFLAGS): a
//!   [`Op::Cmp`] sets it to the comparison of its two operands, a branch
//!   [`Jump::Flags`] reads it, PPC's `stwcx.` sets it to "equal" exactly when the
//!   store succeeded, and X86 arithmetic ([`Op::Alu`] with `clobbers_flags`) leaves
//!   it holding a value this IR does not describe, as does X86 `LOCK` arithmetic
//!   ([`Op::Rmw`] with `clobbers_flags`; a consumer must refuse a branch on such flags).
//! - every access has its size in bytes; an address is `sym + base + ext(index) << shift
//!   + offset`, all parts optional.
//! - a branch's target is an index into its thread's code (`code.len()` for a label
//!   at the end), resolved and checked at parse time.

use crate::ast::Pos;
use std::fmt;

/// The four assembly architectures of herd's litmus format.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Arch {
    AArch64,
    RiscV,
    Ppc,
    X86,
}

impl Arch {
    /// The architecture named by a test's first word (`AArch64`, `RISCV`, `PPC`, `X86`).
    pub fn from_header(word: &str) -> Option<Arch> {
        match word {
            "AArch64" => Some(Arch::AArch64),
            "RISCV" => Some(Arch::RiscV),
            "PPC" => Some(Arch::Ppc),
            "X86" => Some(Arch::X86),
            _ => None,
        }
    }

    /// herd's spelling of the architecture.
    pub fn name(self) -> &'static str {
        match self {
            Arch::AArch64 => "AArch64",
            Arch::RiscV => "RISCV",
            Arch::Ppc => "PPC",
            Arch::X86 => "X86",
        }
    }

    /// The memory model `porf litmus` runs a test of this architecture under when
    /// none is given: the architecture's own.
    pub fn model(self) -> &'static str {
        match self {
            Arch::AArch64 => "armv8",
            Arch::RiscV => "riscv",
            Arch::Ppc => "power",
            Arch::X86 => "tso",
        }
    }

    /// The size of a general-purpose register.
    pub fn reg_size(self) -> Size {
        match self {
            Arch::X86 => Size::Word,
            _ => Size::Double,
        }
    }

    /// A register by its name in this architecture, with the width of that view of it
    /// (AArch64 `W3` is the 32-bit view of `X3`; both are `Gpr(3)`).
    pub fn parse_reg(self, s: &str) -> Option<(Reg, Size)> {
        let num = |d: &str, max: u8| -> Option<u8> {
            if d.is_empty() || d.len() > 2 || !d.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            if d.len() == 2 && d.starts_with('0') {
                return None;
            }
            d.parse::<u8>().ok().filter(|&n| n <= max)
        };
        match self {
            Arch::AArch64 => match s {
                "XZR" | "xzr" => Some((Reg::Zero, Size::Double)),
                "WZR" | "wzr" => Some((Reg::Zero, Size::Word)),
                _ => {
                    let (w, d) = s.split_at(1.min(s.len()));
                    let size = match w {
                        "X" | "x" => Size::Double,
                        "W" | "w" => Size::Word,
                        _ => return None,
                    };
                    Some((Reg::Gpr(num(d, 30)?), size))
                }
            },
            Arch::RiscV => {
                let n = if let Some(d) = s.strip_prefix('x') {
                    num(d, 31)?
                } else {
                    let abi = |p: &str, base: &[u8]| -> Option<u8> {
                        let i = num(s.strip_prefix(p)?, base.len() as u8 - 1)?;
                        Some(base[i as usize])
                    };
                    match s {
                        "zero" => 0,
                        "ra" => 1,
                        "sp" => 2,
                        "gp" => 3,
                        "tp" => 4,
                        "fp" => 8,
                        _ => abi("t", &[5, 6, 7, 28, 29, 30, 31])
                            .or_else(|| abi("s", &[8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]))
                            .or_else(|| abi("a", &[10, 11, 12, 13, 14, 15, 16, 17]))?,
                    }
                };
                Some((if n == 0 { Reg::Zero } else { Reg::Gpr(n) }, Size::Double))
            }
            Arch::Ppc => {
                let d = s.strip_prefix('r')?;
                Some((Reg::Gpr(num(d, 31)?), Size::Double))
            }
            Arch::X86 => {
                let i = X86_REGS.iter().position(|r| r.eq_ignore_ascii_case(s))?;
                Some((Reg::Gpr(i as u8), Size::Word))
            }
        }
    }

    /// The canonical name of a register (`X3`, `x5`, `r2`, `EAX`).
    pub fn reg_name(self, r: Reg) -> String {
        match (self, r) {
            (_, Reg::Flags) => match self {
                Arch::AArch64 => "NZCV".into(),
                Arch::RiscV => "flags".into(),
                Arch::Ppc => "CR0".into(),
                Arch::X86 => "EFLAGS".into(),
            },
            (Arch::AArch64, Reg::Zero) => "XZR".into(),
            (Arch::AArch64, Reg::Gpr(n)) => format!("X{n}"),
            (Arch::RiscV, Reg::Zero) => "x0".into(),
            (Arch::RiscV, Reg::Gpr(n)) => format!("x{n}"),
            (Arch::Ppc, Reg::Zero) => "0".into(),
            (Arch::Ppc, Reg::Gpr(n)) => format!("r{n}"),
            (Arch::X86, Reg::Zero) => "0".into(),
            (Arch::X86, Reg::Gpr(n)) => X86_REGS.get(n as usize).unwrap_or(&"?").to_string(),
        }
    }
}

const X86_REGS: [&str; 8] = ["EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP"];

impl fmt::Display for Arch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A register of a thread.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Reg {
    /// A general-purpose register, by number (X86: EAX=0, EBX, ECX, EDX, ESI, EDI, EBP,
    /// ESP=7).
    Gpr(u8),
    /// The zero register: reads 0, writes discarded.
    Zero,
    /// The condition flags (see the module invariants).
    Flags,
}

/// The size of an access or of an operation, in bytes.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Size {
    Byte,
    Half,
    Word,
    Double,
}

impl Size {
    pub fn bytes(self) -> u32 {
        match self {
            Size::Byte => 1,
            Size::Half => 2,
            Size::Word => 4,
            Size::Double => 8,
        }
    }
}

/// A source operand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Operand {
    Reg(Reg),
    Imm(i64),
    /// A register extended, then shifted left (AArch64 `W2,SXTW`, `X2,LSL #3`).
    Ext(Index),
}

/// How an index register is extended before its shift (AArch64 `SXTW`, `UXTW`).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Extend {
    /// The whole register.
    None,
    /// Its low 32 bits, sign-extended.
    Sxtw,
    /// Its low 32 bits, zero-extended.
    Uxtw,
}

/// An index register of an address.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Index {
    pub reg: Reg,
    pub extend: Extend,
    pub shift: u8,
}

/// An address: `sym + base + (extend(index) << shift) + offset`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Addr {
    /// A shared location named directly (X86 `[x]`).
    pub sym: Option<String>,
    pub base: Option<Reg>,
    pub index: Option<Index>,
    pub offset: i64,
}

impl Addr {
    /// The registers the address reads.
    pub fn regs(&self) -> Vec<Reg> {
        let mut v: Vec<Reg> = self.base.into_iter().collect();
        v.extend(self.index.as_ref().map(|i| i.reg));
        v.retain(|r| *r != Reg::Zero);
        v
    }
}

/// The acquire side of an access's ordering annotation.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Acq {
    No,
    /// AArch64 `LDAR`/`LDAXR`/`SWPA`..., RISC-V `.aq`.
    Acquire,
    /// AArch64 `LDAPR` (acquire-PC, the RCpc flavour).
    AcquirePc,
}

/// An access's ordering annotation: acquire part and release part (RISC-V `.aq.rl`
/// has both).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Annot {
    pub acq: Acq,
    pub rel: bool,
}

impl Annot {
    pub const PLAIN: Annot = Annot {
        acq: Acq::No,
        rel: false,
    };
}

/// A register-to-register operation.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum AluOp {
    Add,
    Sub,
    And,
    Or,
    Xor,
}

/// The operation of an atomic read-modify-write: the new value from the old one and
/// the source operand.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum RmwOp {
    /// new = src (AArch64 SWP, RISC-V amoswap, X86 XCHG)
    Swap,
    Add,
    /// new = old & !src (AArch64 LDCLR)
    Clr,
    And,
    Or,
    Xor,
    Smax,
    Smin,
    Umax,
    Umin,
}

/// A comparison: how a conditional branch decides.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum CmpCond {
    Eq,
    Ne,
    /// Signed comparisons.
    Lt,
    Ge,
    Gt,
    Le,
    /// Unsigned comparisons.
    Ltu,
    Geu,
    Gtu,
    Leu,
}

/// When a branch is taken.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Jump {
    Always,
    /// On the flags: `a cond b` for the operands of the last [`Op::Cmp`].
    Flags(CmpCond),
    /// On registers directly (AArch64 CBZ/CBNZ, RISC-V beq/bne/...): `a cond b`.
    Regs {
        cond: CmpCond,
        a: Operand,
        b: Operand,
    },
}

/// AArch64 barriers' shareability domains and access types are porf-graph's, which
/// the events of a run carry ([`porf_graph::hw::FenceKind`]).
pub use porf_graph::hw::{BarrierTypes, Domain};

/// A set of RISC-V fence operands: device input, device output, memory reads,
/// memory writes.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct FenceSet {
    pub i: bool,
    pub o: bool,
    pub r: bool,
    pub w: bool,
}

/// Every fence and barrier of the four architectures.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Fence {
    Dmb(Domain, BarrierTypes),
    Dsb(Domain, BarrierTypes),
    Isb,
    /// RISC-V `fence pred,succ`.
    RiscV {
        pred: FenceSet,
        succ: FenceSet,
    },
    /// RISC-V `fence.tso`.
    Tso,
    /// RISC-V `fence.i`.
    FenceI,
    Sync,
    Lwsync,
    Isync,
    Eieio,
    Mfence,
    Lfence,
    Sfence,
}

/// How an instruction uses a register it reads.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Use {
    /// Computes an access's address (address dependencies).
    Addr,
    /// The value an access writes (data dependencies).
    Data,
    /// The value a compare-and-swap compares memory with.
    Expected,
    /// Decides a branch (control dependencies).
    Ctrl,
    /// An operand of a move, an arithmetic operation or a comparison: flows into the
    /// registers the instruction writes.
    Arith,
}

/// One instruction.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Op {
    Nop,
    /// dst := src, at `width` (a 32-bit AArch64 write zero-extends).
    Mov {
        dst: Reg,
        src: Operand,
        width: Size,
    },
    /// dst := a op b.
    Alu {
        op: AluOp,
        dst: Reg,
        a: Operand,
        b: Operand,
        width: Size,
        /// X86 arithmetic also writes the flags (see the module invariants).
        clobbers_flags: bool,
    },
    /// Flags := the comparison of a with b.
    Cmp {
        a: Operand,
        b: Operand,
        width: Size,
    },
    /// dst := memory at addr (`signed`: sign-extended from `size`, else zero-extended).
    /// `exclusive`: a load-exclusive / load-reserved, opening a pair with the next
    /// [`Op::StoreEx`].
    Load {
        dst: Reg,
        addr: Addr,
        size: Size,
        signed: bool,
        ann: Annot,
        exclusive: bool,
    },
    /// memory at addr := src.
    Store {
        src: Operand,
        addr: Addr,
        size: Size,
        ann: Annot,
    },
    /// AArch64 `LDP`: `dst[0]` := memory at addr, `dst[1]` := memory at addr + size,
    /// two accesses of one instruction (herd: neither `po`- nor `si`-related).
    LoadPair {
        dst: [Reg; 2],
        addr: Addr,
        size: Size,
    },
    /// AArch64 `STP`: memory at addr := `src[0]`, memory at addr + size := `src[1]`.
    StorePair {
        src: [Reg; 2],
        addr: Addr,
        size: Size,
    },
    /// A store-exclusive / store-conditional: memory at addr := src if the
    /// reservation holds. `status` := 0 on success, 1 on failure (AArch64 STXR, RISC-V
    /// sc: herd's values; RISC-V's ISA only says non-zero), or [`Reg::Flags`] :=
    /// "equal" exactly on success (PPC stwcx.).
    StoreEx {
        status: Reg,
        src: Reg,
        addr: Addr,
        size: Size,
        ann: Annot,
    },
    /// An atomic read-modify-write: dst := old; memory := op(old, src).
    Rmw {
        op: RmwOp,
        dst: Reg,
        src: Operand,
        addr: Addr,
        size: Size,
        ann: Annot,
        /// X86 `LOCK` arithmetic also writes the flags (see the module invariants).
        clobbers_flags: bool,
    },
    /// Compare-and-swap (AArch64 CAS Rs,Rt,[Xn]): old := memory; if old == expected
    /// then memory := new; expected := old. The write happens only on success.
    Cas {
        expected: Reg,
        new: Reg,
        addr: Addr,
        size: Size,
        ann: Annot,
    },
    Fence(Fence),
    /// Jump to `target` (an index into the thread's code) when `jump` holds.
    Branch {
        jump: Jump,
        label: String,
        target: usize,
    },
}

impl Op {
    /// The registers the instruction reads, each with how it is used, in operand
    /// order; never [`Reg::Zero`].
    pub fn uses(&self) -> Vec<(Reg, Use)> {
        let mut v = Vec::new();
        let op = |v: &mut Vec<(Reg, Use)>, o: &Operand, u: Use| match o {
            Operand::Reg(r) | Operand::Ext(Index { reg: r, .. }) => v.push((*r, u)),
            Operand::Imm(_) => {}
        };
        let addr = |v: &mut Vec<(Reg, Use)>, a: &Addr| {
            v.extend(a.regs().into_iter().map(|r| (r, Use::Addr)));
        };
        match self {
            Op::Nop | Op::Fence(_) => {}
            Op::Mov { src, .. } => op(&mut v, src, Use::Arith),
            Op::Alu { a, b, .. } | Op::Cmp { a, b, .. } => {
                op(&mut v, a, Use::Arith);
                op(&mut v, b, Use::Arith);
            }
            Op::Load { addr: a, .. } | Op::LoadPair { addr: a, .. } => addr(&mut v, a),
            Op::StorePair { src, addr: a, .. } => {
                v.extend(src.iter().map(|r| (*r, Use::Data)));
                addr(&mut v, a);
            }
            Op::Store { src, addr: a, .. } | Op::Rmw { src, addr: a, .. } => {
                op(&mut v, src, Use::Data);
                addr(&mut v, a);
            }
            Op::StoreEx { src, addr: a, .. } => {
                v.push((*src, Use::Data));
                addr(&mut v, a);
            }
            Op::Cas {
                expected,
                new,
                addr: a,
                ..
            } => {
                v.push((*expected, Use::Expected));
                v.push((*new, Use::Data));
                addr(&mut v, a);
            }
            Op::Branch { jump, .. } => match jump {
                Jump::Always => {}
                Jump::Flags(_) => v.push((Reg::Flags, Use::Ctrl)),
                Jump::Regs { a, b, .. } => {
                    op(&mut v, a, Use::Ctrl);
                    op(&mut v, b, Use::Ctrl);
                }
            },
        }
        v.retain(|(r, _)| *r != Reg::Zero);
        v
    }

    /// The registers the instruction writes; never [`Reg::Zero`].
    pub fn writes(&self) -> Vec<Reg> {
        let mut v = match self {
            Op::Nop
            | Op::Fence(_)
            | Op::Store { .. }
            | Op::StorePair { .. }
            | Op::Branch { .. } => {
                vec![]
            }
            Op::LoadPair { dst, .. } => dst.to_vec(),
            Op::Mov { dst, .. } | Op::Load { dst, .. } => vec![*dst],
            Op::Rmw {
                dst,
                clobbers_flags,
                ..
            } => {
                let mut v = vec![*dst];
                if *clobbers_flags {
                    v.push(Reg::Flags);
                }
                v
            }
            Op::Alu {
                dst,
                clobbers_flags,
                ..
            } => {
                let mut v = vec![*dst];
                if *clobbers_flags {
                    v.push(Reg::Flags);
                }
                v
            }
            Op::Cmp { .. } => vec![Reg::Flags],
            Op::StoreEx { status, .. } => vec![*status],
            Op::Cas { expected, .. } => vec![*expected],
        };
        v.retain(|r| *r != Reg::Zero);
        v
    }

    /// The access's size, for instructions that access memory.
    pub fn access_size(&self) -> Option<Size> {
        match self {
            Op::Load { size, .. }
            | Op::Store { size, .. }
            | Op::StoreEx { size, .. }
            | Op::LoadPair { size, .. }
            | Op::StorePair { size, .. }
            | Op::Rmw { size, .. }
            | Op::Cas { size, .. } => Some(*size),
            _ => None,
        }
    }
}

/// An instruction where it stands in the test.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Instr {
    pub op: Op,
    pub pos: Pos,
    /// The instruction as written (comments removed, blanks trimmed).
    pub text: String,
}

/// A thread of an assembly test.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AsmThread {
    pub id: u32,
    /// The position of `Pn` in the table's header row.
    pub pos: Pos,
    pub code: Vec<Instr>,
    /// Each label with the index of the instruction it precedes (`code.len()` at the
    /// end).
    pub labels: Vec<(String, usize)>,
}
