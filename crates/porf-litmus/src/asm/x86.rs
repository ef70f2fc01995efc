//! X86 (32-bit, Intel operand order) instructions: `MOV` between registers, memory
//! `[x]`/`[reg]` and immediates (`$1` or `1`), `XCHG` with memory, `LOCK`-prefixed
//! `ADD`/`SUB`/`AND`/`OR`/`XOR`/`XADD` on memory, register arithmetic, `MFENCE`,
//! `LFENCE`, `SFENCE`, `CMP` and the jumps `JMP`, `JE`/`JZ`, `JNE`/`JNZ`.

use super::cell::{Cursor, Tok};
use super::ir::*;
use crate::parse::LitmusError;

type R<T> = Result<T, LitmusError>;

/// A MOV/XCHG operand.
enum Arg {
    /// A register or an immediate.
    Val(Operand),
    Mem(Addr),
}

fn arg(c: &mut Cursor) -> R<Arg> {
    if c.eat('[') {
        let a = if c.at_reg() {
            Addr {
                base: Some(c.reg()?),
                ..Addr::default()
            }
        } else {
            match c.ident() {
                Some(x) => Addr {
                    sym: Some(x),
                    ..Addr::default()
                },
                None => return c.fail("a location or a register"),
            }
        };
        c.expect(']')?;
        Ok(Arg::Mem(a))
    } else {
        Ok(Arg::Val(c.operand()?))
    }
}

/// The instruction whose (upper-cased) mnemonic is `m`.
pub(super) fn instr(c: &mut Cursor, m: &str) -> R<Op> {
    let w = Size::Word;
    let op = match m {
        "NOP" => Op::Nop,
        "MFENCE" => Op::Fence(Fence::Mfence),
        "LFENCE" => Op::Fence(Fence::Lfence),
        "SFENCE" => Op::Fence(Fence::Sfence),
        "MOV" => {
            let d_off = c.off();
            let d = arg(c)?;
            c.comma()?;
            let s_off = c.off();
            let s = arg(c)?;
            match (d, s) {
                (Arg::Val(Operand::Reg(dst)), Arg::Val(src)) => Op::Mov { dst, src, width: w },
                (Arg::Val(Operand::Reg(dst)), Arg::Mem(addr)) => Op::Load {
                    dst,
                    addr,
                    size: w,
                    signed: false,
                    ann: Annot::PLAIN,
                    exclusive: false,
                },
                (Arg::Mem(addr), Arg::Val(src)) => Op::Store {
                    src,
                    addr,
                    size: w,
                    ann: Annot::PLAIN,
                },
                (Arg::Mem(_), Arg::Mem(_)) => {
                    return c.src.err(s_off, "`MOV` cannot move from memory to memory")
                }
                (Arg::Val(_), _) => {
                    return c
                        .src
                        .err(d_off, "the destination of `MOV` cannot be an immediate")
                }
            }
        }
        "XCHG" => {
            let a_off = c.off();
            let a = arg(c)?;
            c.comma()?;
            let b = arg(c)?;
            let (addr, r) = match (a, b) {
                (Arg::Mem(addr), Arg::Val(Operand::Reg(r)))
                | (Arg::Val(Operand::Reg(r)), Arg::Mem(addr)) => (addr, r),
                _ => {
                    return c.unsupported(
                        a_off,
                        "`XCHG` form (porf takes one memory and one register operand)",
                    )
                }
            };
            Op::Rmw {
                op: RmwOp::Swap,
                dst: r,
                src: Operand::Reg(r),
                addr,
                size: w,
                ann: Annot::PLAIN,
                clobbers_flags: false,
            }
        }
        "LOCK" => {
            let off = c.off();
            let Some(inner) = c.ident().map(|s| s.to_ascii_uppercase()) else {
                return c.fail("an instruction after `LOCK`");
            };
            let op = match inner.as_str() {
                "ADD" | "XADD" => RmwOp::Add,
                "AND" => RmwOp::And,
                "OR" => RmwOp::Or,
                "XOR" => RmwOp::Xor,
                "XCHG" => RmwOp::Swap,
                _ => return c.unsupported(off, &format!("locked instruction `LOCK {inner}`")),
            };
            let a = arg(c)?;
            let Arg::Mem(addr) = a else {
                return c
                    .src
                    .err(off, format!("`LOCK {inner}` needs a memory destination"));
            };
            c.comma()?;
            let src = c.operand()?;
            // XADD and XCHG return the old value in their register; the others
            // discard it.
            let dst = match (&src, inner.as_str()) {
                (Operand::Reg(r), "XADD" | "XCHG") => *r,
                (_, "XADD" | "XCHG") => return c.fail("a register"),
                _ => Reg::Zero,
            };
            Op::Rmw {
                op,
                dst,
                src,
                addr,
                size: w,
                ann: Annot::PLAIN,
                // XCHG leaves the flags alone; the arithmetic sets them.
                clobbers_flags: op != RmwOp::Swap,
            }
        }
        "ADD" | "SUB" | "AND" | "OR" | "XOR" => {
            let off = c.off();
            if c.peek() == Some(&Tok::Punct('[')) {
                return c.unsupported(
                    off,
                    "memory operand of an arithmetic instruction without `LOCK`",
                );
            }
            let dst = c.reg()?;
            c.comma()?;
            if c.peek() == Some(&Tok::Punct('[')) {
                return c.unsupported(c.off(), "memory operand of an arithmetic instruction");
            }
            let b = c.operand()?;
            let op = match m {
                "ADD" => AluOp::Add,
                "SUB" => AluOp::Sub,
                "AND" => AluOp::And,
                "OR" => AluOp::Or,
                _ => AluOp::Xor,
            };
            Op::Alu {
                op,
                dst,
                a: Operand::Reg(dst),
                b,
                width: w,
                clobbers_flags: true,
            }
        }
        "CMP" => {
            if c.peek() == Some(&Tok::Punct('[')) {
                return c.unsupported(c.off(), "memory operand of `CMP`");
            }
            let a = Operand::Reg(c.reg()?);
            c.comma()?;
            if c.peek() == Some(&Tok::Punct('[')) {
                return c.unsupported(c.off(), "memory operand of `CMP`");
            }
            let b = c.operand()?;
            Op::Cmp { a, b, width: w }
        }
        "JMP" | "JE" | "JZ" | "JNE" | "JNZ" => {
            let (label, _) = c.label()?;
            let jump = match m {
                "JMP" => Jump::Always,
                "JE" | "JZ" => Jump::Flags(CmpCond::Eq),
                _ => Jump::Flags(CmpCond::Ne),
            };
            Op::Branch {
                jump,
                label,
                target: usize::MAX,
            }
        }
        _ => return c.unsupported(c.at, &format!("instruction `{m}`")),
    };
    Ok(op)
}
