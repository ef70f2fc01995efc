//! PPC instructions: `li`, `mr`, arithmetic, loads and stores (`d(rA)` and indexed
//! `rA,rB` forms, `rA` = `r0` meaning 0 as the ISA's `(RA|0)`), `lwarx`/`stwcx.`,
//! `sync`/`lwsync`/`isync`/`eieio`, `cmpw`/`cmpwi` and branches on CR0.

use super::cell::Cursor;
use super::ir::*;
use crate::parse::LitmusError;

type R<T> = Result<T, LitmusError>;

/// The instruction whose mnemonic is `m`.
pub(super) fn instr(c: &mut Cursor, m: &str) -> R<Op> {
    let op = match m {
        "nop" => Op::Nop,
        "sync" | "hwsync" => Op::Fence(Fence::Sync),
        "lwsync" => Op::Fence(Fence::Lwsync),
        "isync" => Op::Fence(Fence::Isync),
        "eieio" => Op::Fence(Fence::Eieio),
        "li" => c.mov(Cursor::imm_operand)?,
        "mr" => c.mov(Cursor::reg_operand)?,
        "add" | "sub" | "subf" | "xor" | "and" | "or" => {
            let dst = c.reg()?;
            c.comma()?;
            let a = Operand::Reg(c.reg()?);
            c.comma()?;
            let b = Operand::Reg(c.reg()?);
            let (op, a, b) = match m {
                "add" => (AluOp::Add, a, b),
                "sub" => (AluOp::Sub, a, b),
                // subf rD,rA,rB is rB - rA.
                "subf" => (AluOp::Sub, b, a),
                "xor" => (AluOp::Xor, a, b),
                "and" => (AluOp::And, a, b),
                _ => (AluOp::Or, a, b),
            };
            alu(op, dst, a, b)
        }
        "addi" => {
            let dst = c.reg()?;
            c.comma()?;
            let a = ra_or_zero(c.reg()?);
            c.comma()?;
            let b = Operand::Imm(c.imm()?);
            let a = a.map_or(Operand::Imm(0), Operand::Reg);
            alu(AluOp::Add, dst, a, b)
        }
        "xori" | "ori" => {
            let dst = c.reg()?;
            c.comma()?;
            let a = Operand::Reg(c.reg()?);
            c.comma()?;
            let b = Operand::Imm(c.imm()?);
            let op = if m == "xori" { AluOp::Xor } else { AluOp::Or };
            alu(op, dst, a, b)
        }
        "cmpw" | "cmpwi" | "cmpd" | "cmpdi" => {
            let a = Operand::Reg(c.reg()?);
            c.comma()?;
            let b = if m.ends_with('i') {
                Operand::Imm(c.imm()?)
            } else {
                Operand::Reg(c.reg()?)
            };
            let width = if m.starts_with("cmpw") {
                Size::Word
            } else {
                Size::Double
            };
            Op::Cmp { a, b, width }
        }
        "b" | "beq" | "bne" | "blt" | "bge" | "bgt" | "ble" => {
            let (label, _) = c.label()?;
            let jump = match m {
                "b" => Jump::Always,
                "beq" => Jump::Flags(CmpCond::Eq),
                "bne" => Jump::Flags(CmpCond::Ne),
                "blt" => Jump::Flags(CmpCond::Lt),
                "bge" => Jump::Flags(CmpCond::Ge),
                "bgt" => Jump::Flags(CmpCond::Gt),
                _ => Jump::Flags(CmpCond::Le),
            };
            Op::Branch {
                jump,
                label,
                target: usize::MAX,
            }
        }
        _ => return memory(c, m),
    };
    Ok(op)
}

fn alu(op: AluOp, dst: Reg, a: Operand, b: Operand) -> Op {
    Op::Alu {
        op,
        dst,
        a,
        b,
        width: Size::Double,
        clobbers_flags: false,
    }
}

/// `r0` as a base is the value 0 (`(RA|0)`).
fn ra_or_zero(r: Reg) -> Option<Reg> {
    (r != Reg::Gpr(0)).then_some(r)
}

fn memory(c: &mut Cursor, m: &str) -> R<Op> {
    let (kind, size, indexed) = match m {
        "lbz" => ("load", Size::Byte, false),
        "lhz" => ("load", Size::Half, false),
        "lwz" => ("load", Size::Word, false),
        "ld" => ("load", Size::Double, false),
        "lbzx" => ("load", Size::Byte, true),
        "lhzx" => ("load", Size::Half, true),
        "lwzx" => ("load", Size::Word, true),
        "ldx" => ("load", Size::Double, true),
        "stb" => ("store", Size::Byte, false),
        "sth" => ("store", Size::Half, false),
        "stw" => ("store", Size::Word, false),
        "std" => ("store", Size::Double, false),
        "stbx" => ("store", Size::Byte, true),
        "sthx" => ("store", Size::Half, true),
        "stwx" => ("store", Size::Word, true),
        "stdx" => ("store", Size::Double, true),
        "lwarx" => ("larx", Size::Word, true),
        "ldarx" => ("larx", Size::Double, true),
        "stwcx." => ("stcx", Size::Word, true),
        "stdcx." => ("stcx", Size::Double, true),
        _ => return c.unsupported(c.at, &format!("instruction `{m}`")),
    };
    let rt = c.reg()?;
    c.comma()?;
    let addr = if indexed {
        let ra = ra_or_zero(c.reg()?);
        c.comma()?;
        let rb = c.reg()?;
        Addr {
            base: ra,
            index: Some(Index {
                reg: rb,
                extend: Extend::None,
                shift: 0,
            }),
            ..Addr::default()
        }
    } else {
        let offset = c.imm()?;
        c.expect('(')?;
        let ra = ra_or_zero(c.reg()?);
        c.expect(')')?;
        Addr {
            base: ra,
            offset,
            ..Addr::default()
        }
    };
    Ok(match kind {
        "load" | "larx" => Op::Load {
            dst: rt,
            addr,
            size,
            signed: false,
            ann: Annot::PLAIN,
            exclusive: kind == "larx",
        },
        "store" => Op::Store {
            src: Operand::Reg(rt),
            addr,
            size,
            ann: Annot::PLAIN,
        },
        _ => Op::StoreEx {
            status: Reg::Flags,
            src: rt,
            addr,
            size,
            ann: Annot::PLAIN,
        },
    })
}
