//! AArch64 instructions: moves and arithmetic, loads and stores (plain, acquire,
//! acquire-PC, release, exclusive), the ARMv8.1 atomics (SWP, CAS, LD<op>, ST<op>),
//! DMB/DSB/ISB, and branches (B, B.cond, CBZ, CBNZ).

use super::cell::Cursor;
use super::ir::*;
use crate::parse::LitmusError;

type R<T> = Result<T, LitmusError>;

/// The instruction whose (upper-case) mnemonic is `m`.
pub(super) fn instr(c: &mut Cursor, m: &str) -> R<Op> {
    let op = match m {
        "NOP" => Op::Nop,
        "MOV" => c.mov(Cursor::operand)?,
        "ADD" | "SUB" | "EOR" | "AND" | "ORR" => {
            let op = match m {
                "ADD" => AluOp::Add,
                "SUB" => AluOp::Sub,
                "EOR" => AluOp::Xor,
                "AND" => AluOp::And,
                _ => AluOp::Or,
            };
            let (dst, width) = c.reg_sized()?;
            c.comma()?;
            let a = Operand::Reg(c.reg()?);
            c.comma()?;
            let b = c.operand()?;
            let b = match b {
                Operand::Reg(reg) if c.eat(',') => Operand::Ext(extension(c, reg)?),
                b => b,
            };
            Op::Alu {
                op,
                dst,
                a,
                b,
                width,
                clobbers_flags: false,
            }
        }
        "CMP" => {
            let (a, width) = c.reg_sized()?;
            c.comma()?;
            let b = c.operand()?;
            if c.eat(',') {
                return c.unsupported(c.off(), "shifted or extended operand");
            }
            Op::Cmp {
                a: Operand::Reg(a),
                b,
                width,
            }
        }
        "B" => {
            let (label, _) = c.label()?;
            branch(Jump::Always, label)
        }
        "CBZ" | "CBNZ" => {
            let r = c.reg()?;
            c.comma()?;
            let (label, _) = c.label()?;
            let cond = if m == "CBZ" { CmpCond::Eq } else { CmpCond::Ne };
            branch(
                Jump::Regs {
                    cond,
                    a: Operand::Reg(r),
                    b: Operand::Imm(0),
                },
                label,
            )
        }
        "ISB" => Op::Fence(Fence::Isb),
        "DMB" | "DSB" => {
            let opt_off = c.off();
            let opt = c.ident().unwrap_or_default();
            let (d, t) = match opt.to_ascii_uppercase().as_str() {
                "SY" => (Domain::Sy, BarrierTypes::All),
                "LD" => (Domain::Sy, BarrierTypes::Ld),
                "ST" => (Domain::Sy, BarrierTypes::St),
                "ISH" => (Domain::Ish, BarrierTypes::All),
                "ISHLD" => (Domain::Ish, BarrierTypes::Ld),
                "ISHST" => (Domain::Ish, BarrierTypes::St),
                "OSH" => (Domain::Osh, BarrierTypes::All),
                "OSHLD" => (Domain::Osh, BarrierTypes::Ld),
                "OSHST" => (Domain::Osh, BarrierTypes::St),
                "NSH" => (Domain::Nsh, BarrierTypes::All),
                "NSHLD" => (Domain::Nsh, BarrierTypes::Ld),
                "NSHST" => (Domain::Nsh, BarrierTypes::St),
                _ => {
                    return c.src.err(
                        opt_off,
                        format!("expected a barrier option (SY, ISH, ISHLD, ISHST, LD, ST, OSH..., NSH...) after `{m}`, found `{opt}`"),
                    )
                }
            };
            if m == "DMB" {
                Op::Fence(Fence::Dmb(d, t))
            } else {
                Op::Fence(Fence::Dsb(d, t))
            }
        }
        _ => {
            if let Some(b) = m.strip_prefix("B.") {
                let cond = cond(b).map_or_else(|| c.unsupported(c.at, "branch condition"), Ok)?;
                let (label, _) = c.label()?;
                return Ok(branch(Jump::Flags(cond), label));
            }
            return memory(c, m);
        }
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

fn cond(s: &str) -> Option<CmpCond> {
    Some(match s {
        "EQ" => CmpCond::Eq,
        "NE" => CmpCond::Ne,
        "LT" => CmpCond::Lt,
        "GE" => CmpCond::Ge,
        "GT" => CmpCond::Gt,
        "LE" => CmpCond::Le,
        "LO" | "CC" => CmpCond::Ltu,
        "HS" | "CS" => CmpCond::Geu,
        "HI" => CmpCond::Gtu,
        "LS" => CmpCond::Leu,
        _ => return None,
    })
}

/// Splits a trailing `B`/`H` size suffix; `None` if there is none.
fn size_suffix(s: &str) -> (&str, Option<Size>) {
    if let Some(r) = s.strip_suffix('B') {
        (r, Some(Size::Byte))
    } else if let Some(r) = s.strip_suffix('H') {
        (r, Some(Size::Half))
    } else {
        (s, None)
    }
}

/// Splits an ordering suffix `A`, `L`, `AL` (longest first).
fn order_suffix(s: &str) -> (&str, Annot) {
    let acq = Annot {
        acq: Acq::Acquire,
        rel: false,
    };
    let rel = Annot {
        acq: Acq::No,
        rel: true,
    };
    if let Some(r) = s.strip_suffix("AL") {
        (
            r,
            Annot {
                acq: Acq::Acquire,
                rel: true,
            },
        )
    } else if let Some(r) = s.strip_suffix('A') {
        (r, acq)
    } else if let Some(r) = s.strip_suffix('L') {
        (r, rel)
    } else {
        (s, Annot::PLAIN)
    }
}

fn rmw_op(s: &str) -> Option<RmwOp> {
    Some(match s {
        "ADD" => RmwOp::Add,
        "CLR" => RmwOp::Clr,
        "EOR" => RmwOp::Xor,
        "SET" => RmwOp::Or,
        "SMAX" => RmwOp::Smax,
        "SMIN" => RmwOp::Smin,
        "UMAX" => RmwOp::Umax,
        "UMIN" => RmwOp::Umin,
        _ => return None,
    })
}

/// The size of an access through register view `width`, or the B/H suffix.
fn access_size(suffix: Option<Size>, width: Size) -> Size {
    suffix.unwrap_or(width)
}

/// Loads, stores, exclusives and atomics.
fn memory(c: &mut Cursor, m: &str) -> R<Op> {
    let (stem, suffix) = size_suffix(m);
    // Plain, acquire, acquire-PC loads and their exclusive forms.
    let load = match stem {
        "LDR" | "LDUR" => Some((Acq::No, false)),
        "LDAR" => Some((Acq::Acquire, false)),
        "LDAPR" => Some((Acq::AcquirePc, false)),
        "LDXR" => Some((Acq::No, true)),
        "LDAXR" => Some((Acq::Acquire, true)),
        _ => None,
    };
    if let Some((acq, exclusive)) = load {
        let (dst, width) = c.reg_sized()?;
        if suffix.is_some() && width != Size::Word {
            return c.fail("a W register");
        }
        c.comma()?;
        let addr = mem(c, !exclusive && acq == Acq::No)?;
        return Ok(Op::Load {
            dst,
            addr,
            size: access_size(suffix, width),
            signed: false,
            ann: Annot { acq, rel: false },
            exclusive,
        });
    }
    match stem {
        // LDP/STP Rt1, Rt2, [Xn{, #imm}] (no writeback, no sign-extending LDPSW).
        "LDP" | "STP" if suffix.is_none() => {
            let (r1, width) = c.reg_sized()?;
            c.comma()?;
            let (r2, width2) = c.reg_sized()?;
            if width2 != width {
                return c.fail("two registers of one width");
            }
            c.comma()?;
            let addr = mem(c, true)?;
            if addr.index.is_some() {
                return c.unsupported(c.off(), "addressing mode (a pair takes `[Xn{, #imm}]`)");
            }
            let size = width;
            return Ok(if stem == "LDP" {
                Op::LoadPair {
                    dst: [r1, r2],
                    addr,
                    size,
                }
            } else {
                Op::StorePair {
                    src: [r1, r2],
                    addr,
                    size,
                }
            });
        }
        "STR" | "STUR" | "STLR" => {
            let (src, width) = c.reg_sized()?;
            if suffix.is_some() && width != Size::Word {
                return c.fail("a W register");
            }
            c.comma()?;
            let addr = mem(c, stem != "STLR")?;
            return Ok(Op::Store {
                src: Operand::Reg(src),
                addr,
                size: access_size(suffix, width),
                ann: Annot {
                    acq: Acq::No,
                    rel: stem == "STLR",
                },
            });
        }
        "STXR" | "STLXR" => {
            let status = c.reg()?;
            c.comma()?;
            let (src, width) = c.reg_sized()?;
            c.comma()?;
            let addr = mem(c, false)?;
            return Ok(Op::StoreEx {
                status,
                src,
                addr,
                size: access_size(suffix, width),
                ann: Annot {
                    acq: Acq::No,
                    rel: stem == "STLXR",
                },
            });
        }
        _ => {}
    }
    // SWP{A,L,AL}, CAS{A,L,AL}, LD<op>{A,L,AL}: Rs, Rt, [Xn]; ST<op>{L}: Rs, [Xn].
    let (base, ann) = order_suffix(stem);
    let rmw = if base == "SWP" {
        Some(RmwOp::Swap)
    } else {
        base.strip_prefix("LD").and_then(rmw_op)
    };
    if base == "CAS" || rmw.is_some() {
        let (rs, width) = c.reg_sized()?;
        c.comma()?;
        let (rt, _) = c.reg_sized()?;
        c.comma()?;
        let addr = mem(c, false)?;
        let size = access_size(suffix, width);
        return Ok(match rmw {
            None => Op::Cas {
                expected: rs,
                new: rt,
                addr,
                size,
                ann,
            },
            Some(op) => Op::Rmw {
                op,
                dst: rt,
                src: Operand::Reg(rs),
                addr,
                size,
                ann,
                clobbers_flags: false,
            },
        });
    }
    if let Some(op) = base.strip_prefix("ST").and_then(rmw_op) {
        if ann.acq != Acq::No {
            return c.unsupported(c.at, "instruction");
        }
        let (rs, width) = c.reg_sized()?;
        c.comma()?;
        let addr = mem(c, false)?;
        return Ok(Op::Rmw {
            op,
            dst: Reg::Zero,
            src: Operand::Reg(rs),
            addr,
            size: access_size(suffix, width),
            ann,
            clobbers_flags: false,
        });
    }
    c.unsupported(c.at, &format!("instruction `{m}`"))
}

/// `[Xn]`, and when `offsets`: `[Xn,#imm]`, `[Xn,Xm]`, `[Xn,Wm,SXTW]`,
/// `[Xn,Xm,LSL #k]`, `[Xn,Wm,UXTW #k]`.
fn mem(c: &mut Cursor, offsets: bool) -> R<Addr> {
    c.expect('[')?;
    let base = c.reg()?;
    let mut a = Addr {
        base: Some(base),
        ..Addr::default()
    };
    if c.eat(',') {
        if !offsets {
            return c.unsupported(c.off(), "addressing mode (this instruction takes `[Xn]`)");
        }
        if c.at_imm() {
            a.offset = c.imm()?;
        } else {
            let reg = c.reg()?;
            a.index = Some(if c.eat(',') {
                extension(c, reg)?
            } else {
                Index {
                    reg,
                    extend: Extend::None,
                    shift: 0,
                }
            });
        }
    }
    c.expect(']')?;
    let off = c.off();
    if c.eat('!') || c.eat(',') {
        return c.unsupported(
            off,
            "pre- or post-indexed addressing (writes the base register)",
        );
    }
    Ok(a)
}

/// After `Rm,`: `SXTW`, `UXTW` or `LSL`, with an optional shift (required for `LSL`)
/// from 0 to 4.
fn extension(c: &mut Cursor, reg: Reg) -> R<Index> {
    let off = c.off();
    let e = c.ident().unwrap_or_default();
    let extend = match e.to_ascii_uppercase().as_str() {
        "SXTW" => Extend::Sxtw,
        "UXTW" => Extend::Uxtw,
        "LSL" => Extend::None,
        _ => return c.unsupported(off, &format!("register extension `{e}`")),
    };
    let mut shift = 0;
    if c.at_imm() {
        let off = c.off();
        let k = c.imm()?;
        if !(0..=4).contains(&k) {
            return c.src.err(off, format!("shift {k} out of range (0 to 4)"));
        }
        shift = k as u8;
    } else if extend == Extend::None {
        return c.fail("a shift amount");
    }
    Ok(Index { reg, extend, shift })
}
