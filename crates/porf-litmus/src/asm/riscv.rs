//! RISC-V instructions (RV64): `li`, `mv`, register and immediate arithmetic, loads
//! and stores with herd's `.aq`/`.rl` annotations, `lr`/`sc`, the AMOs, `fence`
//! (`pred,succ`, `.tso`, `.i`) and branches.

use super::cell::Cursor;
use super::ir::*;
use crate::parse::LitmusError;

type R<T> = Result<T, LitmusError>;

/// The instruction whose mnemonic is `m`.
pub(super) fn instr(c: &mut Cursor, m: &str) -> R<Op> {
    let op = match m {
        "nop" => Op::Nop,
        "li" => c.mov(Cursor::imm_operand)?,
        "mv" => c.mov(Cursor::reg_operand)?,
        "add" | "sub" | "and" | "or" | "xor" | "addw" | "subw" => alu(c, m, false)?,
        "addi" | "andi" | "ori" | "xori" | "addiw" => alu(c, m, true)?,
        "fence" => {
            if c.peek().is_none() {
                let all = FenceSet {
                    i: true,
                    o: true,
                    r: true,
                    w: true,
                };
                Op::Fence(Fence::RiscV {
                    pred: all,
                    succ: all,
                })
            } else {
                let pred = fence_set(c)?;
                c.comma()?;
                let succ = fence_set(c)?;
                Op::Fence(Fence::RiscV { pred, succ })
            }
        }
        "fence.tso" => Op::Fence(Fence::Tso),
        "fence.i" => Op::Fence(Fence::FenceI),
        "j" => {
            let (label, _) = c.label()?;
            branch(Jump::Always, label)
        }
        "beq" | "bne" | "blt" | "bge" | "bltu" | "bgeu" => {
            let a = Operand::Reg(c.reg()?);
            c.comma()?;
            let b = Operand::Reg(c.reg()?);
            c.comma()?;
            let (label, _) = c.label()?;
            let cond = match m {
                "beq" => CmpCond::Eq,
                "bne" => CmpCond::Ne,
                "blt" => CmpCond::Lt,
                "bge" => CmpCond::Ge,
                "bltu" => CmpCond::Ltu,
                _ => CmpCond::Geu,
            };
            branch(Jump::Regs { cond, a, b }, label)
        }
        "beqz" | "bnez" => {
            let a = Operand::Reg(c.reg()?);
            c.comma()?;
            let (label, _) = c.label()?;
            let cond = if m == "beqz" {
                CmpCond::Eq
            } else {
                CmpCond::Ne
            };
            branch(
                Jump::Regs {
                    cond,
                    a,
                    b: Operand::Imm(0),
                },
                label,
            )
        }
        _ => return memory(c, m),
    };
    Ok(op)
}

fn branch(jump: Jump, label: String) -> Op {
    Op::Branch {
        jump,
        label,
        target: usize::MAX,
    }
}

fn alu(c: &mut Cursor, m: &str, imm: bool) -> R<Op> {
    let op = match m.trim_end_matches('w').trim_end_matches('i') {
        "add" => AluOp::Add,
        "sub" => AluOp::Sub,
        "and" => AluOp::And,
        "or" => AluOp::Or,
        _ => AluOp::Xor,
    };
    let width = if m.ends_with('w') {
        Size::Word
    } else {
        Size::Double
    };
    let dst = c.reg()?;
    c.comma()?;
    let a = Operand::Reg(c.reg()?);
    c.comma()?;
    let b = if imm {
        Operand::Imm(c.imm()?)
    } else {
        Operand::Reg(c.reg()?)
    };
    Ok(Op::Alu {
        op,
        dst,
        a,
        b,
        width,
        clobbers_flags: false,
    })
}

/// A fence operand set: a non-empty word of `i`, `o`, `r`, `w`.
fn fence_set(c: &mut Cursor) -> R<FenceSet> {
    let off = c.off();
    let Some(s) = c.ident() else {
        return c.fail("a fence set (`r`, `w`, `rw`, ...)");
    };
    let mut f = FenceSet::default();
    for ch in s.chars() {
        let b = match ch {
            'i' => &mut f.i,
            'o' => &mut f.o,
            'r' => &mut f.r,
            'w' => &mut f.w,
            _ => {
                return c.src.err(
                    off,
                    format!("expected a fence set (`r`, `w`, `rw`, ...), found `{s}`"),
                )
            }
        };
        *b = true;
    }
    Ok(f)
}

/// Splits `.aq`, `.rl`, `.aq.rl` off a mnemonic.
fn annot(m: &str) -> (&str, Annot) {
    let (m, rel) = match m.strip_suffix(".rl") {
        Some(r) => (r, true),
        None => (m, false),
    };
    let (m, acq) = match m.strip_suffix(".aq") {
        Some(r) => (r, Acq::Acquire),
        None => (m, Acq::No),
    };
    (m, Annot { acq, rel })
}

fn width(s: &str) -> Option<Size> {
    match s {
        "w" => Some(Size::Word),
        "d" => Some(Size::Double),
        _ => None,
    }
}

fn memory(c: &mut Cursor, m: &str) -> R<Op> {
    let (stem, ann) = annot(m);
    let load = match stem {
        "lb" => Some((Size::Byte, true)),
        "lh" => Some((Size::Half, true)),
        "lw" => Some((Size::Word, true)),
        "ld" => Some((Size::Double, true)),
        "lbu" => Some((Size::Byte, false)),
        "lhu" => Some((Size::Half, false)),
        "lwu" => Some((Size::Word, false)),
        _ => None,
    };
    if let Some((size, signed)) = load {
        let dst = c.reg()?;
        c.comma()?;
        let addr = mem(c)?;
        return Ok(Op::Load {
            dst,
            addr,
            size,
            signed,
            ann,
            exclusive: false,
        });
    }
    let store = match stem {
        "sb" => Some(Size::Byte),
        "sh" => Some(Size::Half),
        "sw" => Some(Size::Word),
        "sd" => Some(Size::Double),
        _ => None,
    };
    if let Some(size) = store {
        let src = c.reg()?;
        c.comma()?;
        let addr = mem(c)?;
        return Ok(Op::Store {
            src: Operand::Reg(src),
            addr,
            size,
            ann,
        });
    }
    if let Some(size) = stem.strip_prefix("lr.").and_then(width) {
        let dst = c.reg()?;
        c.comma()?;
        let addr = mem_no_offset(c)?;
        return Ok(Op::Load {
            dst,
            addr,
            size,
            signed: true,
            ann,
            exclusive: true,
        });
    }
    if let Some(size) = stem.strip_prefix("sc.").and_then(width) {
        let status = c.reg()?;
        c.comma()?;
        let src = c.reg()?;
        c.comma()?;
        let addr = mem_no_offset(c)?;
        return Ok(Op::StoreEx {
            status,
            src,
            addr,
            size,
            ann,
        });
    }
    if let Some(rest) = stem.strip_prefix("amo") {
        if let Some((name, w)) = rest.split_once('.') {
            let op = match name {
                "swap" => Some(RmwOp::Swap),
                "add" => Some(RmwOp::Add),
                "and" => Some(RmwOp::And),
                "or" => Some(RmwOp::Or),
                "xor" => Some(RmwOp::Xor),
                "max" => Some(RmwOp::Smax),
                "min" => Some(RmwOp::Smin),
                "maxu" => Some(RmwOp::Umax),
                "minu" => Some(RmwOp::Umin),
                _ => None,
            };
            if let (Some(op), Some(size)) = (op, width(w)) {
                let dst = c.reg()?;
                c.comma()?;
                let src = c.reg()?;
                c.comma()?;
                let addr = mem_no_offset(c)?;
                return Ok(Op::Rmw {
                    op,
                    dst,
                    src: Operand::Reg(src),
                    addr,
                    size,
                    ann,
                    clobbers_flags: false,
                });
            }
        }
    }
    c.unsupported(c.at, &format!("instruction `{m}`"))
}

/// `off(rs)` or `(rs)`.
fn mem(c: &mut Cursor) -> R<Addr> {
    let offset = if c.at_imm() { c.imm()? } else { 0 };
    c.expect('(')?;
    let base = c.reg()?;
    c.expect(')')?;
    Ok(Addr {
        base: Some(base),
        offset,
        ..Addr::default()
    })
}

/// `(rs)` or `0(rs)` (lr, sc and AMOs take no offset).
fn mem_no_offset(c: &mut Cursor) -> R<Addr> {
    let off = c.off();
    let a = mem(c)?;
    if a.offset != 0 {
        return c.src.err(
            off,
            format!(
                "`{}` takes no address offset (`0(rs)` or `(rs)`)",
                c.mnemonic
            ),
        );
    }
    Ok(a)
}
