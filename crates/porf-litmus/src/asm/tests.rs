//! The assembly parser on small tests written for these checks.

use super::*;
use crate::ast::{Loc, Value};

fn ok(text: &str) -> AsmLitmus {
    match parse_asm("t.litmus", text) {
        Ok(t) => t,
        Err(e) => panic!("{e}"),
    }
}

fn err(text: &str) -> (u32, u32, String) {
    let e = parse_asm("t.litmus", text).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("t.litmus:{}:{}: error: {}", e.line, e.col, e.message)
    );
    (e.line, e.col, e.message)
}

/// The ops of thread `t`.
fn ops(l: &AsmLitmus, t: usize) -> Vec<Op> {
    l.threads[t].code.iter().map(|i| i.op.clone()).collect()
}

/// A one-thread test with `code` as its rows.
fn one(arch: &str, init: &str, code: &[&str]) -> AsmLitmus {
    let rows: String = code.iter().map(|c| format!(" {c} ;\n")).collect();
    ok(&format!(
        "{arch} t\n{{ {init} }}\n P0 ;\n{rows}exists (x=0)\n"
    ))
}

fn one_op(arch: &str, init: &str, code: &str) -> Op {
    let l = one(arch, init, &[code]);
    assert_eq!(l.threads[0].code.len(), 1, "{code}");
    l.threads[0].code[0].op.clone()
}

fn base(r: u8) -> Addr {
    Addr {
        base: Some(Reg::Gpr(r)),
        ..Addr::default()
    }
}

const ACQ: Annot = Annot {
    acq: Acq::Acquire,
    rel: false,
};
const REL: Annot = Annot {
    acq: Acq::No,
    rel: true,
};
const ACQ_REL: Annot = Annot {
    acq: Acq::Acquire,
    rel: true,
};

const MP: &str = r#"AArch64 MP+dmb+addr
"A message-passing shape, written for porf's tests"
Cycle=Rfe DMB.SYdWW Fre
Prefetch=
Note={ not the init }
{
0:X1=x; 0:X3=y;
1:X1=y; 1:X3=x; uint64_t z; x=1;
}
 P0          | P1                  ;
 MOV W0,#1   | LDR W0,[X1]         ;
 STR W0,[X1] | EOR W2,W0,W0        ;
 DMB SY      | LDR W4,[X3,W2,SXTW] ;
 MOV W2,#1   | CBNZ W4,L0          ;
 STR W2,[X3] | L0:                 ;
             | ISB                 ;
locations [z;]
exists (1:X0=1 /\ 1:X4=1)
"#;

#[test]
fn parses_a_whole_aarch64_test() {
    let l = ok(MP);
    assert_eq!(l.arch, Arch::AArch64);
    assert_eq!(l.name, "MP+dmb+addr");
    assert_eq!(
        l.doc.as_deref(),
        Some("A message-passing shape, written for porf's tests")
    );
    assert_eq!(
        l.info,
        vec![
            ("Cycle".into(), "Rfe DMB.SYdWW Fre".into()),
            ("Prefetch".into(), "".into()),
            ("Note".into(), "{ not the init }".into())
        ]
    );
    let init: Vec<(Loc, Option<&str>, Value)> = l
        .init
        .iter()
        .map(|i| (i.loc.clone(), i.ty.as_deref(), i.value.clone()))
        .collect();
    assert_eq!(
        init[0],
        (Loc::Reg(0, "X1".into()), None, Value::Addr("x".into()))
    );
    assert_eq!(
        init[4],
        (Loc::Global("z".into()), Some("uint64_t"), Value::Int(0))
    );
    assert_eq!(init[5], (Loc::Global("x".into()), None, Value::Int(1)));
    assert_eq!(l.threads.len(), 2);
    assert_eq!(l.threads[1].pos, Pos { line: 10, col: 16 });
    assert_eq!(
        ops(&l, 0),
        vec![
            Op::Mov {
                dst: Reg::Gpr(0),
                src: Operand::Imm(1),
                width: Size::Word
            },
            Op::Store {
                src: Operand::Reg(Reg::Gpr(0)),
                addr: base(1),
                size: Size::Word,
                ann: Annot::PLAIN
            },
            Op::Fence(Fence::Dmb(Domain::Sy, BarrierTypes::All)),
            Op::Mov {
                dst: Reg::Gpr(2),
                src: Operand::Imm(1),
                width: Size::Word
            },
            Op::Store {
                src: Operand::Reg(Reg::Gpr(2)),
                addr: base(3),
                size: Size::Word,
                ann: Annot::PLAIN
            },
        ]
    );
    let p1 = &l.threads[1];
    assert_eq!(p1.code.len(), 5);
    assert_eq!(p1.labels, vec![("L0".to_string(), 4)]);
    assert_eq!(p1.code[2].text, "LDR W4,[X3,W2,SXTW]");
    assert_eq!(p1.code[2].pos, Pos { line: 13, col: 16 });
    let Op::Load { addr, .. } = &p1.code[2].op else {
        panic!()
    };
    assert_eq!(
        addr.index,
        Some(Index {
            reg: Reg::Gpr(2),
            extend: Extend::Sxtw,
            shift: 0
        })
    );
    // The dependency chain: LDR writes X0, EOR reads it, the LDR's address reads X2.
    assert_eq!(p1.code[0].op.writes(), vec![Reg::Gpr(0)]);
    assert_eq!(
        p1.code[1].op.uses(),
        vec![(Reg::Gpr(0), Use::Arith), (Reg::Gpr(0), Use::Arith)]
    );
    assert_eq!(
        p1.code[2].op.uses(),
        vec![(Reg::Gpr(3), Use::Addr), (Reg::Gpr(2), Use::Addr)]
    );
    assert_eq!(p1.code[3].op.uses(), vec![(Reg::Gpr(4), Use::Ctrl)]);
    assert!(matches!(
        p1.code[3].op,
        Op::Branch {
            jump: Jump::Regs {
                cond: CmpCond::Ne,
                ..
            },
            target: 4,
            ..
        }
    ));
    assert_eq!(p1.code[4].op, Op::Fence(Fence::Isb));
    assert_eq!(l.locations.len(), 1);
    assert_eq!(l.cond.to_string(), "exists (1:X0=1 /\\ 1:X4=1)");
}

#[test]
fn aarch64_acquire_release_exclusive_and_atomics() {
    let i = "0:X1=x;";
    let load = |t: &str| one_op("AArch64", i, t);
    assert!(matches!(
        load("LDAR W0,[X1]"),
        Op::Load {
            ann: ACQ,
            exclusive: false,
            size: Size::Word,
            ..
        }
    ));
    assert!(matches!(
        load("LDAPR X0,[X1]"),
        Op::Load {
            ann: Annot {
                acq: Acq::AcquirePc,
                rel: false
            },
            size: Size::Double,
            ..
        }
    ));
    assert!(matches!(
        load("LDAXR W0,[X1]"),
        Op::Load {
            ann: ACQ,
            exclusive: true,
            ..
        }
    ));
    assert!(matches!(
        load("LDRB W0,[X1,#3]"),
        Op::Load {
            size: Size::Byte,
            addr: Addr { offset: 3, .. },
            ..
        }
    ));
    assert!(matches!(load("STLR W0,[X1]"), Op::Store { ann: REL, .. }));
    let stx = load("STLXR W5,W0,[X1]");
    assert!(matches!(
        stx,
        Op::StoreEx {
            status: Reg::Gpr(5),
            src: Reg::Gpr(0),
            ann: REL,
            ..
        }
    ));
    assert_eq!(stx.writes(), vec![Reg::Gpr(5)]);
    assert_eq!(
        load("SWPAL W2,W3,[X1]"),
        Op::Rmw {
            op: RmwOp::Swap,
            dst: Reg::Gpr(3),
            src: Operand::Reg(Reg::Gpr(2)),
            addr: base(1),
            size: Size::Word,
            ann: ACQ_REL,
            clobbers_flags: false
        }
    );
    assert!(matches!(
        load("LDADDAH W2,W3,[X1]"),
        Op::Rmw {
            op: RmwOp::Add,
            size: Size::Half,
            ann: ACQ,
            ..
        }
    ));
    let st = load("STCLRL X2,[X1]");
    assert!(matches!(
        st,
        Op::Rmw {
            op: RmwOp::Clr,
            dst: Reg::Zero,
            ann: REL,
            ..
        }
    ));
    assert_eq!(st.writes(), vec![]);
    let cas = load("CASA W2,W3,[X1]");
    assert!(matches!(
        cas,
        Op::Cas {
            expected: Reg::Gpr(2),
            new: Reg::Gpr(3),
            ann: ACQ,
            ..
        }
    ));
    assert_eq!(
        cas.uses(),
        vec![
            (Reg::Gpr(2), Use::Expected),
            (Reg::Gpr(3), Use::Data),
            (Reg::Gpr(1), Use::Addr)
        ]
    );
    assert_eq!(cas.writes(), vec![Reg::Gpr(2)]);
    // The zero register is neither read nor written.
    let z = load("STR WZR,[X1]");
    assert_eq!(z.uses(), vec![(Reg::Gpr(1), Use::Addr)]);
}

#[test]
fn aarch64_barriers_and_branches() {
    for (t, f) in [
        ("DMB ISH", Fence::Dmb(Domain::Ish, BarrierTypes::All)),
        ("DMB ISHLD", Fence::Dmb(Domain::Ish, BarrierTypes::Ld)),
        ("DMB ST", Fence::Dmb(Domain::Sy, BarrierTypes::St)),
        ("DSB ISHST", Fence::Dsb(Domain::Ish, BarrierTypes::St)),
        ("ISB", Fence::Isb),
    ] {
        assert_eq!(one_op("AArch64", "", t), Op::Fence(f), "{t}");
    }
    let l = one(
        "AArch64",
        "",
        &["CMP W0,#1", "B.NE L1", "ADD X4,X3,W0,SXTW", "B L1", "L1:"],
    );
    let c = ops(&l, 0);
    assert_eq!(c[0].writes(), vec![Reg::Flags]);
    assert_eq!(c[1].uses(), vec![(Reg::Flags, Use::Ctrl)]);
    assert!(matches!(
        c[1],
        Op::Branch {
            jump: Jump::Flags(CmpCond::Ne),
            target: 4,
            ..
        }
    ));
    assert!(matches!(
        &c[2],
        Op::Alu {
            b: Operand::Ext(Index {
                extend: Extend::Sxtw,
                ..
            }),
            width: Size::Double,
            ..
        }
    ));
    assert!(matches!(
        c[3],
        Op::Branch {
            jump: Jump::Always,
            ..
        }
    ));
}

#[test]
fn riscv_instructions() {
    let i = "0:x6=x; 0:a0=y;";
    let op = |t: &str| one_op("RISCV", i, t);
    assert_eq!(
        op("ori x5,x0,1"),
        Op::Alu {
            op: AluOp::Or,
            dst: Reg::Gpr(5),
            a: Operand::Reg(Reg::Zero),
            b: Operand::Imm(1),
            width: Size::Double,
            clobbers_flags: false
        }
    );
    assert_eq!(op("ori x5,x0,1").uses(), vec![]);
    assert!(matches!(
        op("sw.rl x5,0(x6)"),
        Op::Store {
            ann: REL,
            size: Size::Word,
            ..
        }
    ));
    assert!(matches!(
        op("lw.aq x5,4(a0)"),
        Op::Load {
            ann: ACQ,
            signed: true,
            addr: Addr {
                offset: 4,
                base: Some(Reg::Gpr(10)),
                ..
            },
            ..
        }
    ));
    assert!(matches!(
        op("lr.d.aq.rl t1,(x6)"),
        Op::Load {
            ann: ACQ_REL,
            exclusive: true,
            size: Size::Double,
            dst: Reg::Gpr(6),
            ..
        }
    ));
    assert!(matches!(
        op("sc.w x7,x5,0(x6)"),
        Op::StoreEx {
            status: Reg::Gpr(7),
            ..
        }
    ));
    let amo = op("amoswap.w.aq x0,x5,(x6)");
    assert!(matches!(
        amo,
        Op::Rmw {
            op: RmwOp::Swap,
            dst: Reg::Zero,
            ann: ACQ,
            ..
        }
    ));
    assert_eq!(amo.writes(), vec![]);
    let rw = FenceSet {
        r: true,
        w: true,
        ..FenceSet::default()
    };
    let r = FenceSet {
        r: true,
        ..FenceSet::default()
    };
    assert_eq!(
        op("fence r,rw"),
        Op::Fence(Fence::RiscV { pred: r, succ: rw })
    );
    assert_eq!(op("fence.tso"), Op::Fence(Fence::Tso));
    assert_eq!(op("fence.i"), Op::Fence(Fence::FenceI));
    let l = one("RISCV", "", &["bne x5,x0,LC00", "LC00:"]);
    assert_eq!(
        l.threads[0].code[0].op.uses(),
        vec![(Reg::Gpr(5), Use::Ctrl)]
    );
}

#[test]
fn ppc_instructions() {
    let l = ok("PPC t
{ 0:r2=x; 1:r3=y; }
 P0            | P1              ;
 lwz r1,0(r2)  | Loop:           ;
 cmpw r1,r1    | lwarx r4,r0,r3  ;
 beq LC00      | stwcx. r4,r0,r3 ;
 LC00:         | bne Loop        ;
 isync         | lwsync          ;
 stwx r1,r2,r3 | sync            ;
exists (0:r1=1)
");
    let p0 = ops(&l, 0);
    assert!(matches!(
        p0[0],
        Op::Load {
            size: Size::Word,
            signed: false,
            ..
        }
    ));
    assert_eq!(p0[1].writes(), vec![Reg::Flags]);
    assert!(matches!(
        p0[2],
        Op::Branch {
            jump: Jump::Flags(CmpCond::Eq),
            target: 3,
            ..
        }
    ));
    assert_eq!(p0[3], Op::Fence(Fence::Isync));
    assert_eq!(
        p0[4].uses(),
        vec![
            (Reg::Gpr(1), Use::Data),
            (Reg::Gpr(2), Use::Addr),
            (Reg::Gpr(3), Use::Addr)
        ]
    );
    let p1 = ops(&l, 1);
    // `r0` as the base is 0: only r3 is read.
    assert!(matches!(
        &p1[0],
        Op::Load {
            exclusive: true,
            addr: Addr { base: None, .. },
            ..
        }
    ));
    assert_eq!(p1[0].uses(), vec![(Reg::Gpr(3), Use::Addr)]);
    assert_eq!(p1[1].writes(), vec![Reg::Flags]);
    assert!(matches!(p1[2], Op::Branch { target: 0, .. }));
    assert_eq!(p1[3], Op::Fence(Fence::Lwsync));
    assert_eq!(p1[4], Op::Fence(Fence::Sync));
    assert_eq!(l.threads[1].labels, vec![("Loop".to_string(), 0)]);
}

#[test]
fn x86_instructions_and_old_style_conditions() {
    let l = ok("X86 t (tex) \"a doc\"
{x = 0; y = 0; P1:EAX = 1};

 P0           | P1            ;
 MOV [x],$1   | xchg [y], EAX ;
 MFENCE       | mov EBX, [x]  ;
 MOV EAX,[y]  | LOCK XADD [x],ECX ;
 CMP EAX,$1   |               ;
 JNE L        |               ;
 L:           |               ;

final (P0:EAX = 0 /\\ P1:EBX = 0);
with
tso: ~exists;
cc: exists;
<<
show 0
>>
");
    assert_eq!(l.doc.as_deref(), Some("a doc"));
    assert_eq!(l.cond.to_string(), "exists (0:EAX=0 /\\ 1:EBX=0)");
    assert_eq!(
        l.kinds,
        vec![
            ("tso".into(), Quant::NotExists),
            ("cc".into(), Quant::Exists)
        ]
    );
    let p0 = ops(&l, 0);
    assert_eq!(
        p0[0],
        Op::Store {
            src: Operand::Imm(1),
            addr: Addr {
                sym: Some("x".into()),
                ..Addr::default()
            },
            size: Size::Word,
            ann: Annot::PLAIN
        }
    );
    assert_eq!(p0[1], Op::Fence(Fence::Mfence));
    assert!(matches!(
        p0[2],
        Op::Load {
            dst: Reg::Gpr(0),
            ..
        }
    ));
    assert!(matches!(
        p0[4],
        Op::Branch {
            jump: Jump::Flags(CmpCond::Ne),
            target: 5,
            ..
        }
    ));
    let p1 = ops(&l, 1);
    assert!(matches!(
        p1[0],
        Op::Rmw {
            op: RmwOp::Swap,
            dst: Reg::Gpr(0),
            ..
        }
    ));
    assert!(matches!(
        p1[2],
        Op::Rmw {
            op: RmwOp::Add,
            dst: Reg::Gpr(2),
            ..
        }
    ));
    assert_eq!(p1[2].writes(), vec![Reg::Gpr(2), Reg::Flags]);
    assert_eq!(p1[0].writes(), vec![Reg::Gpr(0)]);
}

#[test]
fn empty_cells_and_arrays() {
    let l = ok("AArch64 t
{ uint8_t x[16]; 0:X1=x; }
P0 | P1 ;
   | MOV W0,#1 ;
exists (1:X0=1)
");
    assert!(l.threads[0].code.is_empty());
    assert_eq!(l.threads[1].code.len(), 1);
    assert_eq!(l.init[0].ty.as_deref(), Some("uint8_t[16]"));
    // A test without a condition is herd's `forall (true)`.
    let l = ok("RISCV t\n{ }\n P0 ;\n li x5,1 ;\n");
    assert_eq!(l.cond.to_string(), "forall (true)");
    assert_eq!(arch_of("(* c *) PPC t\n"), Some(Arch::Ppc));
    assert_eq!(arch_of("C t\n"), None);
}

/// `LDP`/`STP` with an immediate offset are pairs of two registers of one width.
#[test]
fn load_and_store_pairs_parse() {
    let t = |code: &str| format!("AArch64 t\n{{ 0:X1=x; }}\n P0 ;\n {code} ;\nexists (x=1)\n");
    let addr = Addr {
        base: Some(Reg::Gpr(1)),
        offset: 8,
        ..Addr::default()
    };
    let t1 = ok(&t("LDP W0,W2,[X1,#8]"));
    assert_eq!(
        t1.threads[0].code[0].op,
        Op::LoadPair {
            dst: [Reg::Gpr(0), Reg::Gpr(2)],
            addr: addr.clone(),
            size: Size::Word
        }
    );
    let t2 = ok(&t("STP X3,X4,[X1,#8]"));
    assert_eq!(
        t2.threads[0].code[0].op,
        Op::StorePair {
            src: [Reg::Gpr(3), Reg::Gpr(4)],
            addr,
            size: Size::Double
        }
    );
}

#[test]
fn errors_name_the_file_line_column_and_construct() {
    let t = |code: &str| format!("AArch64 t\n{{ 0:X1=x; }}\n P0 ;\n {code} ;\nexists (x=1)\n");
    assert_eq!(
        err(&t("LDNP W0,W1,[X1]")),
        (
            4,
            2,
            "unsupported AArch64 instruction `LDNP` (in `LDNP W0,W1,[X1]`)".into()
        )
    );
    assert_eq!(
        err(&t("LDR W0,[X1],#4")),
        (
            4,
            13,
            "unsupported AArch64 pre- or post-indexed addressing (writes the base register) (in `LDR W0,[X1],#4`)"
                .into()
        )
    );
    assert_eq!(
        err(&t("LDR W0,[Q1]")),
        (
            4,
            10,
            "expected a AArch64 register in `LDR W0,[Q1]`, found `Q1`".into()
        )
    );
    assert_eq!(
        err(&t("DMB XY")),
        (
            4,
            6,
            "expected a barrier option (SY, ISH, ISHLD, ISHST, LD, ST, OSH..., NSH...) after `DMB`, found `XY`".into()
        )
    );
    assert_eq!(
        err(&t("MOV W0,#1 W2")),
        (
            4,
            12,
            "unexpected `W2` after the operands of `MOV W0,#1 W2`".into()
        )
    );
    assert_eq!(
        err(&t("CBZ W0,Nowhere")),
        (4, 2, "label `Nowhere` is not defined in P0".into())
    );
    assert_eq!(
        err(&t("L: | L:")),
        (
            4,
            5,
            "this row has 2 columns but the test has 1 thread(s)".into()
        )
    );
    assert_eq!(
        err("AArch64 t\n{ }\n P0 ;\n L: ;\n L: ;\n"),
        (5, 2, "label `L` is defined twice in P0".into())
    );
    assert_eq!(
        err("AArch64 t\n{ }\n P0 | P2 ;\n"),
        (
            3,
            7,
            "expected `P1` in the header row of the thread table, found `P2`".into()
        )
    );
    assert_eq!(
        err("AArch64 t\n{ }\n P0 ;\n MOV W0,#1\nexists (x=1)"),
        (
            4,
            2,
            "expected `;` ending this row of the thread table".into()
        )
    );
    assert_eq!(
        err("AArch64 t\n{ 1:X0=1; }\n P0 ;\nexists (x=1)"),
        (
            2,
            3,
            "`1:X0` names thread P1, but the test has 1 thread(s)".into()
        )
    );
    assert_eq!(
        err("RISCV t\n{ }\n P0 ;\nexists (0:X0=1)"),
        (4, 9, "`X0` is not a RISCV register".into())
    );
    assert_eq!(
        err("RISCV t\n{ }\n P0 ;\n amocas.w x1,x2,(x3) ;\n"),
        (
            4,
            2,
            "unsupported RISCV instruction `amocas.w` (in `amocas.w x1,x2,(x3)`)".into()
        )
    );
    assert_eq!(
        err("RISCV t\n{ }\n P0 ;\n lr.w x1,4(x3) ;\n"),
        (
            4,
            10,
            "`lr.w x1,4(x3)` takes no address offset (`0(rs)` or `(rs)`)".into()
        )
    );
    assert_eq!(
        err("X86 t\n{ }\n P0 ;\n MOV [x],[y] ;\n"),
        (4, 10, "`MOV` cannot move from memory to memory".into())
    );
    assert_eq!(
        err("PPC t\n{ }\n P0 ;\n stw r1,0(r2) @ ;\n"),
        (4, 15, "unexpected character `@` in an instruction".into())
    );
    assert_eq!(
        err("ARM t\n{ }\n"),
        (
            1,
            1,
            "`ARM` is not an assembly architecture porf reads (AArch64, RISCV, PPC, X86)".into()
        )
    );
    assert_eq!(
        err("PPC t\n(* never closed\n{ }\n"),
        (2, 1, "unterminated comment `(*`".into())
    );
    assert_eq!(
        err("PPC t\n{ x = ; }\n"),
        (2, 5, "expected a value after `=`".into())
    );
    assert_eq!(
        err("X86 t\n{ }\n P0 ;\n MOV EAX,$1 ;\nexists (0:EAX=)"),
        (
            5,
            15,
            "expected a value (an integer or a location) after `=`, found `)`".into()
        )
    );
}

/// Every prefix of a test, and the test with a byte replaced by each of a few
/// troublesome characters at every position, parses or gives an error: never a panic.
#[test]
fn malformed_inputs_give_errors_not_panics() {
    let x86 = "X86 t \"d\"\n{x = 0; P1:EAX = 1};\n P0 | P1 ;\n MOV [x],$1 | XCHG [x],EAX ;\n L: JMP L | ;\nfinal (1:EAX = 0); with tso: ~exists;\n<< show 0 >>\n";
    let riscv = "RISCV t\n(* c *)\n{ 0:x6=x; }\n P0 ;\n lr.w.aq x5,(x6) ;\n sc.w x7,x5,0(x6) ;\n fence r,rw ;\nexists (0:x7=0)\n";
    let ppc = "PPC t\n{ 0:r2=x; }\n P0 ;\n lwarx r1,r0,r2 ;\n stwcx. r1,r0,r2 ;\n bne L ;\n L: ;\nexists ([x]=1)\n";
    for text in [MP, x86, riscv, ppc] {
        for end in 0..=text.len() {
            if text.is_char_boundary(end) {
                let _ = parse_asm("t.litmus", &text[..end]);
            }
        }
        for i in 0..text.len() {
            for rep in ["é", ";", "|", "[", "(*", "#", "~", ":", "\u{a0}"] {
                let mut s = text.as_bytes()[..i].to_vec();
                s.extend_from_slice(rep.as_bytes());
                s.extend_from_slice(&text.as_bytes()[i + 1..]);
                let _ = parse_asm("t.litmus", &String::from_utf8_lossy(&s));
            }
        }
    }
}
