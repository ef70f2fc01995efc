//! The assembly machine driven by hand: each test answers the machine's loads itself
//! and checks the actions and their hardware facts (dependencies counted in the
//! thread's reads: 0 is its first load or RMW).

use super::layout::{Layout, BASE};
use super::machine::AsmProgram;
use super::*;
use porf_graph::hw::{BarrierTypes, Domain, FenceKind, Hw, Tags};
use porf_graph::{Action, ErrorKind, MemOrder, Program, ThreadMachine};

/// Thread P0 of a one-thread `arch` test with initial state `init` and `code`, its
/// registers `regs` observed.
fn thread(
    arch: &str,
    init: &str,
    code: &[&str],
    regs: &[&str],
) -> (AsmProgram, super::machine::AsmMachine) {
    thread_unrolled(arch, init, code, regs, None)
}

/// [`thread`] with loops cut where they would start iteration `unroll + 1`.
fn thread_unrolled(
    arch: &str,
    init: &str,
    code: &[&str],
    regs: &[&str],
    unroll: Option<u32>,
) -> (AsmProgram, super::machine::AsmMachine) {
    let rows: String = code.iter().map(|c| format!(" {c} ;\n")).collect();
    let text = format!("{arch} t\n{{ {init} }}\n P0 ;\n{rows}exists (x=0)\n");
    let t = parse_asm("t.litmus", &text).unwrap_or_else(|e| panic!("{e}"));
    let layout = Layout::new(&t).unwrap();
    let observed = vec![regs
        .iter()
        .map(|r| t.arch.parse_reg(r).unwrap().0)
        .collect()];
    let p = AsmProgram::new(t, layout, observed, unroll);
    let m = p.spawn(1, 0, 0);
    (p, m)
}

/// Runs `m` to its end: each load and RMW reads `answer(ordinal)`, each choice takes
/// `choice`. The actions with their facts, and the registers at the end.
fn run(
    m: &mut super::machine::AsmMachine,
    answer: &dyn Fn(u32) -> i64,
    choice: i64,
) -> (Vec<(Action, Option<Hw>)>, Vec<i64>) {
    let mut out = Vec::new();
    let mut reads = 0;
    loop {
        let a = m.peek();
        assert_eq!(m.peeked(), Some(a.clone()));
        out.push((a.clone(), m.hw()));
        match a {
            Action::Finish { .. } | Action::Error { .. } | Action::Block { .. } => {
                return (out, m.registers())
            }
            Action::Load { .. } | Action::Rmw { .. } => {
                m.resume(answer(reads));
                reads += 1;
            }
            Action::Choose { .. } => m.resume(choice),
            _ => m.resume(0),
        }
    }
}

fn deps(h: &Option<Hw>) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    let d = &h.as_ref().expect("an access has facts").deps;
    (d.addr.clone(), d.data.clone(), d.ctrl.clone())
}

#[test]
fn address_and_data_dependencies_follow_the_registers() {
    // herd's addr idiom (EOR of a read with itself) and a data dependency through ADD.
    let (p, mut m) = thread(
        "AArch64",
        "0:X1=x; 0:X4=y; 0:X6=z;",
        &[
            "LDR W0,[X1]",
            "EOR W2,W0,W0",
            "LDR W3,[X4,W2,SXTW]",
            "ADD W5,W3,#1",
            "STR W5,[X6]",
            "MOV W7,#2",
            "STR W7,[X6]",
        ],
        &["X3"],
    );
    let (acts, regs) = run(&mut m, &|k| [7, 4][k as usize], 0);
    let y = p.layout().addr_of("y").unwrap();
    let z = p.layout().addr_of("z").unwrap();
    assert!(matches!(acts[0].0, Action::Load { .. }));
    assert_eq!(deps(&acts[0].1), (vec![], vec![], vec![]));
    // The address x ^ x = 0 added to y: y itself, depending on read 0.
    assert!(matches!(acts[1].0, Action::Load { loc, .. } if loc.0 == y));
    assert_eq!(deps(&acts[1].1), (vec![0], vec![], vec![]));
    assert!(
        matches!(acts[2].0, Action::Store { loc, val: 5, ord: MemOrder::Relaxed, .. } if loc.0 == z)
    );
    assert_eq!(deps(&acts[2].1), (vec![], vec![1], vec![]));
    // An immediate depends on nothing.
    assert_eq!(deps(&acts[3].1), (vec![], vec![], vec![]));
    assert!(matches!(acts[4].0, Action::Finish { .. }));
    assert_eq!(regs, vec![4]);
}

#[test]
fn a_conditional_branch_makes_every_later_event_depend_on_its_reads() {
    let (_, mut m) = thread(
        "AArch64",
        "0:X1=x; 0:X3=y;",
        &[
            "LDR W0,[X1]",
            "B L1",
            "L1: LDR W4,[X3]",
            "CBNZ W0,L0",
            "L0: MOV W2,#1",
            "STR W2,[X3]",
            "DMB ISHLD",
            "CMP W4,#1",
            "B.EQ L2",
            "L2: ISB",
        ],
        &[],
    );
    let (acts, _) = run(&mut m, &|_| 0, 0);
    // The unconditional B adds nothing: the second load has no ctrl.
    assert_eq!(deps(&acts[1].1), (vec![], vec![], vec![]));
    // After CBNZ on read 0, taken or not: the store and the fence.
    assert_eq!(deps(&acts[2].1), (vec![], vec![], vec![0]));
    let fence = acts[3].1.as_ref().unwrap();
    assert_eq!(
        fence.fence,
        Some(FenceKind::Dmb(Domain::Ish, BarrierTypes::Ld))
    );
    assert_eq!(fence.deps.ctrl, vec![0]);
    assert!(matches!(
        acts[3].0,
        Action::Fence {
            ord: MemOrder::AcqRel,
            ..
        }
    ));
    // B.EQ on the flags of CMP W4: read 1 joins; ctrl;isb.
    let isb = acts[4].1.as_ref().unwrap();
    assert_eq!(isb.fence, Some(FenceKind::Isb));
    assert_eq!(isb.deps.ctrl, vec![0, 1]);
}

#[test]
fn full_barriers_are_seq_cst_fences() {
    for (arch, f) in [
        ("AArch64", "DMB SY"),
        ("PPC", "sync"),
        ("RISCV", "fence rw,rw"),
        ("X86", "MFENCE"),
    ] {
        let (_, mut m) = thread(arch, "", &[f], &[]);
        let (acts, _) = run(&mut m, &|_| 0, 0);
        assert!(
            matches!(
                acts[0].0,
                Action::Fence {
                    ord: MemOrder::SeqCst,
                    ..
                }
            ),
            "{f}: {:?}",
            acts[0]
        );
    }
    let (_, mut m) = thread("PPC", "", &["lwsync"], &[]);
    let (acts, _) = run(&mut m, &|_| 0, 0);
    assert!(matches!(
        acts[0].0,
        Action::Fence {
            ord: MemOrder::AcqRel,
            ..
        }
    ));
    assert_eq!(acts[0].1.as_ref().unwrap().fence, Some(FenceKind::Lwsync));
}

const INC: [&str; 3] = ["LDXR W0,[X1]", "ADD W2,W0,#1", "STXR W3,W2,[X1]"];

#[test]
fn a_store_exclusive_that_succeeds_pairs_with_its_load_exclusive() {
    let (p, mut m) = thread("AArch64", "0:X1=x;", &INC, &["X3", "X2"]);
    let (acts, regs) = run(&mut m, &|_| 5, 1);
    let x = p.layout().addr_of("x").unwrap();
    assert!(matches!(acts[0].0, Action::Load { .. }));
    assert_eq!(acts[0].1.as_ref().unwrap().tags, Tags::EXCL);
    assert!(matches!(acts[1].0, Action::Choose { lo: 0, hi: 1, .. }));
    assert!(matches!(acts[2].0, Action::Store { loc, val: 6, .. } if loc.0 == x));
    let h = acts[2].1.as_ref().unwrap();
    assert_eq!(h.tags, Tags::EXCL);
    assert_eq!(h.excl_read, Some(0));
    assert_eq!(h.deps.data, vec![0]);
    assert!(matches!(acts[3].0, Action::Finish { .. }));
    // Status 0: success.
    assert_eq!(regs, vec![0, 6]);
}

/// A choice's facts name what its existence depends on: the branches taken (none
/// here) and both addresses compared, the reservation's (which depends on the first
/// load, source 0) and the store-exclusive's (which depends on nothing).
#[test]
fn a_store_exclusive_choice_depends_on_both_addresses() {
    let code = [
        "LDR W5,[X4]",
        "EOR W6,W5,W5",
        "ADD X7,X1,W6,SXTW",
        "LDXR W0,[X7]",
        "STXR W3,W0,[X1]",
    ];
    let (_, mut m) = thread("AArch64", "0:X1=x; 0:X4=y;", &code, &["X3"]);
    let (acts, _) = run(&mut m, &|_| 5, 0);
    assert!(matches!(acts[2].0, Action::Choose { .. }), "{acts:?}");
    let h = acts[2].1.as_ref().expect("a choice's facts");
    assert_eq!(h.deps.addr, vec![0]);
    assert!(h.deps.data.is_empty() && h.deps.ctrl.is_empty());
    assert_eq!(h.excl_read, None);
}

#[test]
fn a_store_exclusive_may_fail_and_then_writes_nothing() {
    let (_, mut m) = thread("AArch64", "0:X1=x;", &INC, &["X3"]);
    let (acts, regs) = run(&mut m, &|_| 5, 0);
    assert_eq!(acts.len(), 3, "{acts:?}");
    assert!(matches!(acts[1].0, Action::Choose { .. }));
    assert!(matches!(acts[2].0, Action::Finish { .. }));
    assert_eq!(regs, vec![1]);
}

#[test]
fn a_store_exclusive_without_a_matching_reservation_fails_without_a_choice() {
    // No load-exclusive; another address; a reservation used up by an earlier
    // store-exclusive; a different size (AArch64).
    for code in [
        vec!["STXR W3,W2,[X1]"],
        vec!["LDXR W0,[X4]", "STXR W3,W2,[X1]"],
        vec!["LDXR W0,[X1]", "STXR W5,W2,[X1]", "STXR W3,W2,[X1]"],
        vec!["LDXR W0,[X1]", "STXR W3,X2,[X1]"],
    ] {
        // `x` is 64-bit: the X-sized store-exclusive is within it (the W and X sizes
        // make the test mixed-size, whose accesses must lie within their location's type).
        let (_, mut m) = thread("AArch64", "uint64_t x; 0:X1=x; 0:X4=y;", &code, &["X3"]);
        // Choices, if any, fail: the last store-exclusive cannot succeed anyway.
        let (acts, regs) = run(&mut m, &|_| 0, 0);
        assert!(
            acts.iter().all(|(a, _)| !matches!(a, Action::Store { .. })),
            "{code:?}: {acts:?}"
        );
        let choices = acts
            .iter()
            .filter(|(a, _)| matches!(a, Action::Choose { .. }))
            .count();
        assert_eq!(choices, usize::from(code.len() == 3), "{code:?}");
        assert_eq!(regs, vec![1], "{code:?}");
    }
}

#[test]
fn ppc_stwcx_sets_cr0_eq_on_success() {
    let code = [
        "lwarx r4,r0,r3",
        "stwcx. r5,r0,r3",
        "bne Fail",
        "li r6,1",
        "Fail:",
    ];
    for (choice, r6) in [(1, 1), (0, 0)] {
        let (_, mut m) = thread("PPC", "0:r3=x; 0:r5=2;", &code, &["r6"]);
        let (_, regs) = run(&mut m, &|_| 0, choice);
        assert_eq!(regs, vec![r6], "choice {choice}");
    }
}

#[test]
fn a_risc_v_store_conditional_success_carries_the_address_dependencies() {
    let (_, mut m) = thread(
        "RISCV",
        "0:x10=y; 0:x6=x; 0:x12=z;",
        &[
            "lw x9,0(x10)",
            "xor x11,x9,x9",
            "add x6,x6,x11",
            "lr.w x5,0(x6)",
            "sc.w x7,x8,0(x6)",
            "bnez x7,L",
            "L: sw x8,0(x12)",
        ],
        &["x7"],
    );
    let (acts, regs) = run(&mut m, &|_| 0, 1);
    let sc = acts.iter().find(|(a, h)| {
        matches!(a, Action::Store { .. }) && h.as_ref().is_some_and(|h| h.excl_read.is_some())
    });
    assert_eq!(sc.unwrap().1.as_ref().unwrap().excl_read, Some(1));
    // The branch on the status: on the address's read (ordinal 0) and on the sc's
    // store itself (ordinal 2, after the lw and the lr), RVWMO's dependency through
    // sc's destination register.
    let last = &acts[acts.len() - 2];
    assert_eq!(deps(&last.1).2, vec![0, 2], "{acts:?}");
    assert_eq!(regs, vec![0]);
}

#[test]
fn a_successful_store_exclusive_counts_as_a_dependency_source_on_every_architecture() {
    // AArch64: STXR's status carries no dependency (herd7's AArch64 default), but the
    // store still takes an ordinal: the LDR after it is the thread's source 2.
    let (_, mut m) = thread(
        "AArch64",
        "0:X1=x; 0:X5=y;",
        &[
            "LDXR W0,[X1]",
            "STXR W3,W0,[X1]",
            "EOR W4,W3,W3",
            "LDR W6,[X5,W4,SXTW]",
            "EOR W8,W6,W6",
            "LDR W7,[X5,W8,SXTW]",
        ],
        &[],
    );
    let (acts, _) = run(&mut m, &|_| 0, 1);
    let loads: Vec<_> = acts
        .iter()
        .filter(|(a, _)| matches!(a, Action::Load { .. }))
        .collect();
    assert_eq!(deps(&loads[1].1).0, Vec::<u32>::new(), "{acts:?}");
    assert_eq!(deps(&loads[2].1).0, vec![2], "{acts:?}");
    // RISC-V: sc's status depends on its store (ordinal 1).
    let (_, mut m) = thread(
        "RISCV",
        "0:x1=x; 0:x5=y;",
        &[
            "lr.w x2,0(x1)",
            "sc.w x3,x2,0(x1)",
            "add x6,x5,x3",
            "lw x7,0(x6)",
        ],
        &[],
    );
    let (acts, _) = run(&mut m, &|_| 0, 1);
    assert_eq!(deps(&acts[acts.len() - 2].1).0, vec![1], "{acts:?}");
}

#[test]
fn atomic_rmws_are_one_action_and_their_old_value_a_read() {
    let (_, mut m) = thread(
        "AArch64",
        "0:X1=x; 0:X3=y;",
        &[
            "MOV W2,#3",
            "SWPAL W2,W0,[X1]",
            "STR W0,[X3]",
            "LDADD W2,W4,[X1]",
        ],
        &["X0", "X4"],
    );
    let (acts, regs) = run(&mut m, &|k| [9, 3][k as usize], 0);
    assert!(matches!(
        acts[0].0,
        Action::Rmw {
            op: porf_graph::RmwOp::Xchg(3),
            ord: MemOrder::AcqRel,
            ..
        }
    ));
    assert_eq!(
        acts[0].1.as_ref().unwrap().tags,
        Tags::ACQ | Tags::REL | Tags::AMO
    );
    assert!(matches!(acts[1].0, Action::Store { val: 9, .. }));
    assert_eq!(deps(&acts[1].1).1, vec![0]);
    assert!(matches!(
        acts[2].0,
        Action::Rmw {
            op: porf_graph::RmwOp::Add(3, _),
            ..
        }
    ));
    assert_eq!(regs, vec![9, 3]);
}

/// herd's mixed-size tests write a scalar in parts (`STR W0,[X1,#4]` into a 64-bit
/// `x`) and read it whole in the condition: porf does not compose the parts, so the
/// access is refused rather than `x+4` taken for a location of its own.
#[test]
fn a_part_of_a_scalar_is_refused_as_mixed_size() {
    let (_, mut m) = thread("AArch64", "0:X1=x;", &["MOV W0,#1", "STR W0,[X1,#4]"], &[]);
    let (acts, _) = run(&mut m, &|_| 0, 0);
    let Action::Error { kind, msg, .. } = &acts[0].0 else {
        panic!("{acts:?}")
    };
    assert_eq!(*kind, ErrorKind::Unsupported);
    assert!(msg.contains("mixed-size accesses"), "{msg}");
}

/// A mixed-size test (sizes W and X: 4-byte units) splits each 64-bit access into two
/// unit events, low address first, the second tagged `SAME_INSTR`; a split load's
/// register is the units' little-endian composition and depends on both reads.
#[test]
fn mixed_size_accesses_are_split_into_units() {
    let (_, mut m) = thread(
        "AArch64",
        "uint64_t x; 0:X1=x; 0:X0=0x300000001;",
        &[
            "LDR W3,[X1,#4]",
            "STR X0,[X1]",
            "LDR X2,[X1]",
            "STR W2,[X1,#4]",
        ],
        &["X2"],
    );
    // Reads 0, 1, 2 answer 5, 7, 9: the 64-bit load reads 7 (x) and 9 (x+4).
    let (acts, regs) = run(&mut m, &|i| [5, 7, 9][i as usize], 0);
    assert_eq!(regs, vec![(9 << 32) | 7]);
    let accesses: Vec<(u64, u8, Option<i64>, bool)> = acts
        .iter()
        .filter_map(|(a, hw)| {
            let same = hw
                .as_ref()
                .is_some_and(|h| h.tags.contains(Tags::SAME_INSTR));
            match a {
                Action::Load { loc, bytes, .. } => Some((loc.0, *bytes, None, same)),
                Action::Store {
                    loc, bytes, val, ..
                } => Some((loc.0, *bytes, Some(*val), same)),
                _ => None,
            }
        })
        .collect();
    let x = BASE;
    assert_eq!(
        accesses,
        vec![
            (x + 4, 4, None, false),
            (x, 4, Some(1), false),
            (x + 4, 4, Some(3), true),
            (x, 4, None, false),
            (x + 4, 4, None, true),
            (x + 4, 4, Some(7), false),
        ]
    );
    // The last store's data depends on both reads of the split load (reads 1 and 2).
    let last = acts
        .iter()
        .rev()
        .find_map(|(a, hw)| matches!(a, Action::Store { .. }).then_some(hw));
    assert_eq!(last.unwrap().as_ref().unwrap().deps.data, vec![1, 2]);
}

#[test]
fn what_porf_cannot_run_ends_the_thread_with_a_positioned_error() {
    let (_, mut m) = thread("AArch64", "0:X1=x;", &["MOV W0,#1", "LDR X2,[X1,#4]"], &[]);
    let (acts, _) = run(&mut m, &|_| 0, 0);
    let Action::Error { kind, msg, src } = &acts[0].0 else {
        panic!("{acts:?}")
    };
    assert_eq!(*kind, ErrorKind::Unsupported);
    assert!(msg.contains("beyond the 8 bytes of `x`"), "{msg}");
    assert_eq!((src.line, src.col), (5, 2));
    let (_, mut m) = thread("X86", "", &["L0:", "JMP L0"], &[]);
    let (acts, _) = run(&mut m, &|_| 0, 0);
    assert!(
        matches!(
            acts[0].0,
            Action::Error {
                kind: ErrorKind::NonTermination,
                ..
            }
        ),
        "{acts:?}"
    );
}

#[test]
fn a_loop_is_cut_where_it_would_start_its_iteration_past_the_bound() {
    // Spins while x reads 0: with --unroll 2, the second backward jump would start a
    // third iteration, so the thread blocks after two loads.
    let (_, mut m) = thread_unrolled(
        "AArch64",
        "0:X1=x;",
        &["L0: LDR W0,[X1]", "CBZ W0,L0"],
        &[],
        Some(2),
    );
    let (acts, _) = run(&mut m, &|_| 0, 0);
    assert_eq!(acts.len(), 3, "{acts:?}");
    assert!(matches!(
        acts[2].0,
        Action::Block {
            reason: porf_graph::BlockReason::LoopBound,
            ..
        }
    ));
    // Reading 1 the second time, the loop ends within the bound.
    let (_, mut m) = thread_unrolled(
        "AArch64",
        "0:X1=x;",
        &["L0: LDR W0,[X1]", "CBZ W0,L0"],
        &["X0"],
        Some(2),
    );
    let (acts, regs) = run(&mut m, &|k| k as i64, 0);
    assert!(matches!(acts[2].0, Action::Finish { .. }), "{acts:?}");
    assert_eq!(regs, vec![1]);
}

/// Backward jumps are counted per target label, as herd7 counts them (`mem.ml`'s
/// `fetch_addr` keys its count by the target's address): two branches back to `L0`
/// share one count. The loop reads x, goes back from the first branch when x is 0
/// and from the second when x is 1, so with reads 0, 1, 0, ... and --unroll 3 the
/// thread jumps back twice (after reads 0 and 1) and is cut at the third jump (after
/// read 2): three loads, then the block. Counted per branch, each branch would have
/// been taken at most twice and the cut would come only after the fifth load.
#[test]
fn backward_jumps_to_one_label_share_one_count() {
    let (_, mut m) = thread_unrolled(
        "AArch64",
        "0:X1=x;",
        &["L0: LDR W0,[X1]", "CBZ W0,L0", "CMP W0,#1", "B.EQ L0"],
        &[],
        Some(3),
    );
    let (acts, _) = run(&mut m, &|k| (k % 2) as i64, 0);
    let loads = acts
        .iter()
        .filter(|(a, _)| matches!(a, Action::Load { .. }))
        .count();
    assert_eq!(loads, 3, "{acts:?}");
    assert!(matches!(
        acts.last().unwrap().0,
        Action::Block {
            reason: porf_graph::BlockReason::LoopBound,
            ..
        }
    ));
}

/// A 64-bit SWP in a test with 4-byte units is one unit RMW per unit, low address
/// first, the second tagged `SAME_INSTR`, each swapping in its unit of the source;
/// the register is the units' old values composed and depends on both unit reads.
/// A 64-bit LDADD, whose carry crosses units, is refused.
#[test]
fn wide_swaps_are_split_into_unit_rmws_and_wide_adds_refused() {
    let (_, mut m) = thread(
        "AArch64",
        "uint64_t x; 0:X1=x; 0:X0=0x300000001;",
        &["LDR W5,[X1,#4]", "SWP X0,X2,[X1]", "STR X2,[X1]"],
        &["X2"],
    );
    // Read 0 is the LDR; the SWP's unit reads (1, 2) answer 7 and 9.
    let (acts, regs) = run(&mut m, &|i| [5, 7, 9][i as usize], 0);
    assert_eq!(regs, vec![(9 << 32) | 7]);
    let rmws: Vec<(u64, porf_graph::RmwOp, bool)> = acts
        .iter()
        .filter_map(|(a, hw)| match a {
            Action::Rmw { loc, op, bytes, .. } => {
                assert_eq!(*bytes, 4);
                let h = hw.as_ref().unwrap();
                assert!(h.tags.contains(Tags::AMO));
                Some((loc.0, *op, h.tags.contains(Tags::SAME_INSTR)))
            }
            _ => None,
        })
        .collect();
    use porf_graph::RmwOp::Xchg;
    assert_eq!(
        rmws,
        vec![(BASE, Xchg(1), false), (BASE + 4, Xchg(3), true)]
    );
    let last = acts
        .iter()
        .rev()
        .find_map(|(a, hw)| matches!(a, Action::Store { .. }).then_some(hw));
    assert_eq!(last.unwrap().as_ref().unwrap().deps.data, vec![1, 2]);

    let (_, mut m) = thread(
        "AArch64",
        "uint64_t x; 0:X1=x; 0:X0=1;",
        &["LDR W5,[X1,#4]", "LDADD X0,X2,[X1]"],
        &[],
    );
    let (acts, _) = run(&mut m, &|_| 0, 0);
    let Action::Error { kind, msg, .. } = &acts[1].0 else {
        panic!("{acts:?}")
    };
    assert_eq!(*kind, ErrorKind::Unsupported);
    assert!(
        msg.contains("crosses the test's 4-byte access units"),
        "{msg}"
    );
}

/// A 64-bit exclusive pair in a test with 4-byte units: the load-exclusive is two
/// unit reads, the successful store-exclusive two unit writes, each paired
/// (`excl_read`) with the same unit's read (ordinals 1 and 2 after the plain read 0).
#[test]
fn wide_exclusive_pairs_pair_unit_by_unit() {
    let (_, mut m) = thread(
        "AArch64",
        "uint64_t x; 0:X1=x; 0:X0=0x300000001;",
        &["LDR W5,[X1,#4]", "LDXR X2,[X1]", "STXR W3,X0,[X1]"],
        &["X3"],
    );
    let (acts, regs) = run(&mut m, &|_| 0, 1);
    assert_eq!(regs, vec![0], "the store-exclusive succeeded");
    let stores: Vec<(u64, i64, Option<u32>, bool)> = acts
        .iter()
        .filter_map(|(a, hw)| match a {
            Action::Store { loc, val, .. } => {
                let h = hw.as_ref().unwrap();
                assert!(h.tags.contains(Tags::EXCL));
                Some((loc.0, *val, h.excl_read, h.tags.contains(Tags::SAME_INSTR)))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        stores,
        vec![(BASE, 1, Some(1), false), (BASE + 4, 3, Some(2), true)]
    );
}
