//! Unit tests: parsing, diagnostics, the local semantics, the listing, random programs.

use crate::*;

const EXAMPLE: &str = "\
# the format's example
values 4                 # Val = {0,1,2,3}
locations x y
init x = 0, y = 0
thread T1
  x := 1
  a := y
  if a == 0 goto 5
  b := FADD(x, 1)
  c := CAS(x, 1, 2)
  assume a != 0
  assert b == 0
  goto L
L: a := a + 1
thread T2
  d := XCHG(y, 3)
final assert !(T1.a == 2 && T2.d == 0)
";

fn p(src: &str) -> Program {
    match parse("t.toy", src) {
        Ok(p) => p,
        Err(d) => panic!("{d}"),
    }
}

fn err(src: &str) -> String {
    match parse("t.toy", src) {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(d) => d.to_string(),
    }
}

fn st(pc: u32, regs: &[Value]) -> ThreadState {
    ThreadState {
        pc,
        regs: regs.to_vec().into_boxed_slice(),
    }
}

#[test]
fn parses_the_format_example() {
    let prog = p(EXAMPLE);
    assert_eq!(prog.values, 4);
    assert_eq!(prog.locations, vec!["x", "y"]);
    assert_eq!(prog.init_value(0), Some(0));
    assert_eq!(prog.threads.len(), 2);
    let t1 = &prog.threads[0];
    assert_eq!(t1.regs, vec!["a", "b", "c"]);
    assert_eq!(t1.code.len(), 9);
    assert_eq!(
        t1.code[2].instr,
        Instr::If {
            cond: Expr::Bin(BinOp::Eq, Box::new(Expr::Var(0)), Box::new(Expr::Lit(0))),
            target: 5
        }
    );
    assert_eq!(t1.code[7].instr, Instr::Goto { target: 8 });
    assert_eq!(t1.code[1].pos, Pos { line: 7, col: 3 });
    assert_eq!(t1.code[8].pos, Pos { line: 14, col: 4 });
    assert_eq!(t1.code[8].text, "a := a + 1");
    assert_eq!(prog.final_vars, vec![(0, 0), (1, 0)]);
    assert!(matches!(prog.threads[1].code[0].instr, Instr::Xchg { .. }));
}

#[test]
fn listing_parses_back_to_the_same_program() {
    let prog = p(EXAMPLE);
    let listing = prog.to_string();
    let again = p(&listing);
    assert_eq!(again.values, prog.values);
    assert_eq!(again.locations, prog.locations);
    assert_eq!(again.final_vars, prog.final_vars);
    assert_eq!(
        again.final_assert.as_ref().map(|f| &f.cond),
        prog.final_assert.as_ref().map(|f| &f.cond)
    );
    for (a, b) in again.threads.iter().zip(&prog.threads) {
        assert_eq!(a.regs, b.regs);
        let ia: Vec<_> = a.code.iter().map(|s| &s.instr).collect();
        let ib: Vec<_> = b.code.iter().map(|s| &s.instr).collect();
        assert_eq!(ia, ib);
    }
    assert_eq!(again.to_string(), listing);
    assert!(listing.contains("if a == 0 goto 5"), "{listing}");
}

#[test]
fn expressions_are_modular_with_precedence() {
    let prog = p("values 4\nthread T\n a := 3 + 2 * 3\n b := 0 - 1\n c := !(a == 1) || 2 < 1 && 1\n d := 1 - 2 - 3\n");
    let mut s = prog.initial_state(0);
    for _ in 0..4 {
        let succ = prog.successors(0, &s);
        assert_eq!(succ.len(), 1);
        assert_eq!(succ[0].0, LocalLabel::Silent);
        s = succ[0].1.clone();
    }
    // 3 + 6 = 9 = 1 (mod 4); 0 - 1 = 3; !(1 == 1) || (0 && 1) = 0; (1 - 2) - 3 = 3 - 3 = 0.
    assert_eq!(&*s.regs, &[1, 3, 0, 0]);
    assert!(prog.is_terminated(0, &s));
    assert!(prog.successors(0, &s).is_empty());
}

#[test]
fn reads_and_rmws_enumerate_the_domain() {
    let prog = p("values 3\nlocations x\nthread T\n a := x\n b := FADD(x, 2)\n c := CAS(x, 1, a)\n d := XCHG(x, 2)\n x := a + 1\n");
    let s0 = prog.initial_state(0);
    let reads = prog.successors(0, &s0);
    assert_eq!(reads.len(), 3);
    for (v, (l, s)) in reads.iter().enumerate() {
        assert_eq!(
            *l,
            LocalLabel::Read {
                loc: 0,
                val: v as Value
            }
        );
        assert_eq!(*s, st(1, &[v as Value, 0, 0, 0]));
    }
    let s1 = st(1, &[2, 0, 0, 0]);
    let fadd = prog.successors(0, &s1);
    assert_eq!(
        fadd.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![
            LocalLabel::Rmw {
                loc: 0,
                read: 0,
                write: 2
            },
            LocalLabel::Rmw {
                loc: 0,
                read: 1,
                write: 0
            },
            LocalLabel::Rmw {
                loc: 0,
                read: 2,
                write: 1
            },
        ]
    );
    let cas = prog.successors(0, &st(2, &[2, 0, 0, 0]));
    assert_eq!(
        cas.iter().map(|x| x.0).collect::<Vec<_>>(),
        vec![
            LocalLabel::Read { loc: 0, val: 0 },
            LocalLabel::Rmw {
                loc: 0,
                read: 1,
                write: 2
            },
            LocalLabel::Read { loc: 0, val: 2 },
        ]
    );
    assert_eq!(cas[1].1, st(3, &[2, 0, 1, 0]));
    let xchg = prog.successors(0, &st(3, &[2, 0, 0, 0]));
    assert!(xchg.iter().enumerate().all(|(v, (l, _))| *l
        == LocalLabel::Rmw {
            loc: 0,
            read: v as Value,
            write: 2
        }));
    let w = prog.successors(0, &st(4, &[2, 0, 0, 0]));
    assert_eq!(
        w,
        vec![(LocalLabel::Write { loc: 0, val: 0 }, st(5, &[2, 0, 0, 0]))]
    );
}

#[test]
fn jumps_assume_and_assert() {
    let prog = p("values 2\nthread T\n if a == 0 goto end\n assume 0\nend:\nthread U\n assert a == 1\n goto 0\nfinal assert T.a == 1 || U.a == 0\n");
    let s = prog.initial_state(0);
    let succ = prog.successors(0, &s);
    assert_eq!(succ, vec![(LocalLabel::Silent, st(2, &[0]))]);
    assert!(prog.is_terminated(0, &succ[0].1));
    // assume 0: no successor, not bad.
    assert!(prog.successors(0, &st(1, &[1])).is_empty());
    assert_eq!(prog.assertion_failure(0, &st(1, &[1])), None);
    // assert a == 1 with a = 0: no successor, bad, with message and position.
    let u0 = prog.initial_state(1);
    assert!(prog.successors(1, &u0).is_empty());
    let (msg, pos) = prog.assertion_failure(1, &u0).unwrap();
    assert_eq!(msg, "Assertion `a == 1' failed");
    assert_eq!(pos, Pos { line: 7, col: 2 });
    assert_eq!(prog.assertion_failure(1, &st(0, &[1])), None);
    assert_eq!(
        prog.successors(1, &st(1, &[1])),
        vec![(LocalLabel::Silent, st(0, &[1]))]
    );
    // Final assertion: T.a == 1 || U.a == 0, over terminated states only.
    let done = |a: Value| st(5, &[a]);
    assert!(prog.final_assertion_fails(&[done(0), done(1)]));
    assert!(!prog.final_assertion_fails(&[done(1), done(1)]));
    assert!(!prog.final_assertion_fails(&[done(0), done(0)]));
    assert!(!prog.final_assertion_fails(&[done(0), st(1, &[1])]));
}

#[test]
fn states_are_ordered_and_hashable() {
    let mut set = std::collections::BTreeSet::new();
    set.insert(st(1, &[0]));
    set.insert(st(0, &[2]));
    set.insert(st(1, &[0]));
    assert_eq!(set.len(), 2);
    let hs: std::collections::HashSet<_> = set.into_iter().collect();
    assert!(hs.contains(&st(0, &[2])));
}

#[test]
fn diagnostics_have_positions_and_reasons() {
    let cases: &[(&str, &str)] = &[
        ("thread T\n a := 1\n", "t.toy:1:1: error: missing `values N` before the first thread"),
        ("locations x\n", "t.toy:1:1: error: missing `values N`"),
        ("values 4\n", "no threads"),
        ("values 1\nthread T\n", "t.toy:1:8: error: `values 1`: the domain size must be between 2"),
        ("values 99999999999999999999\nthread T\n", "domain size must be between"),
        ("values 4\nvalues 4\n", "t.toy:2:1: error: duplicate `values` (first at 1:1)"),
        ("values 4\nlocations x x\n", "t.toy:2:13: error: duplicate location `x` (first declared at 2:11)"),
        ("values 4\nlocations x\nthread T\nthread T\n", "t.toy:4:8: error: duplicate thread `T`"),
        ("values 4\nthread T\n a := 4\n", "t.toy:3:7: error: literal 4 is outside the value domain 0..3"),
        ("values 4\nlocations x\ninit x = 7\nthread T\n", "t.toy:3:10: error: literal 7 is outside"),
        ("values 4\ninit q = 0\nthread T\n", "t.toy:2:6: error: `q` is not a declared location"),
        ("values 4\nlocations x\ninit x = 0, x = 1\nthread T\n", "t.toy:3:13: error: `x` is initialised twice"),
        ("values 4\nthread T\n a := FADD(q, 1)\n", "t.toy:3:12: error: `q` is not a declared location"),
        ("values 4\nthread T\n goto L\n", "t.toy:3:7: error: unknown label `L` in thread `T`"),
        ("values 4\nthread T\nL: a := 1\nL: a := 2\n", "t.toy:4:1: error: duplicate label `L`"),
        ("values 4\nlocations x y\nthread T\n a := x + 1\n", "t.toy:4:7: error: location `x` in an expression"),
        ("values 4\nlocations x y\nthread T\n x := y\n", "copies memory to memory"),
        ("values 4\nthread T\n a := 1 b := 2\n", "t.toy:3:9: error: unexpected `b` after the instruction"),
        ("values 4\nthread T\n a = 1\n", "t.toy:3:4: error: expected `:=`, found `=`"),
        ("values 4\nthread T\n if a goto\n", "t.toy:3:11: error: expected an instruction index or a label, found the end of the line"),
        ("values 4\nthread T\n a := (1 + 2\n", "expected `)`"),
        ("values 4\nthread T\n a := -1\n", "no unary minus"),
        ("values 4\nthread T\n a := 1 $ 2\n", "t.toy:3:9: error: unexpected character `$`"),
        ("values 4\nthread T\n thread := 1\n", "t.toy:3:9: error: expected a thread name, found `:=`"),
        ("values 4\nthread T\n assert := 1\n", "t.toy:3:9: error: expected an expression, found `:=`"),
        ("values 4\nthread T\n goto := 1\n", "t.toy:3:7: error: expected an instruction index or a label, found `:=`"),
        ("values 4\nlocations if\nthread T\n", "t.toy:2:11: error: `if` is a keyword and cannot name a location"),
        ("values 4\nthread T\n CAS := 1\n", "`CAS` is a keyword and cannot name a register or a location"),
        ("values 4\nthread T\n a := 1\nlocations x\n", "t.toy:4:1: error: `locations` declarations must come before the first thread"),
        ("values 4\n a := 1\n", "t.toy:2:2: error: expected `values`, `locations`, `init` or `thread`, found `a`"),
        ("values 4\nthread T\n a := 1\nfinal assert T.b == 0\n", "t.toy:4:16: error: thread `T` has no register `b` (its registers: a)"),
        ("values 4\nthread T\n a := 1\nfinal assert U.a == 0\n", "unknown thread `U`"),
        ("values 4\nthread T\n a := 1\nfinal assert a == 0\n", "t.toy:4:14: error: unknown thread `a`: the final assertion names registers as THREAD.REGISTER"),
        ("values 4\nthread T\n a := 1\nfinal assert T == 0\n", "t.toy:4:16: error: expected `.` and a register of `T`"),
        ("values 4\nfinal assert 1\n", "`final assert` comes after the threads"),
        ("values 4\nthread T\nfinal assert 1\nthread U\n", "nothing may follow the `final assert` line"),
        ("values 4\nthread T\n a := CAS(x, 1)\n", "`x` is not a declared location"),
        ("values 4\nlocations x\nthread T\n a := CAS(x, 1)\n", "expected `,`, found `)`"),
        ("values 4\nlocations x\nthread T\n a := FADD x\n", "expected `(` after `FADD`"),
        ("values 4\nthread T\n if 1 goto 99999999999\n", "jump target too large"),
        ("values 4\nlocations x\nthread T\n x := FADD(x, 1)\n", "t.toy:4:2: error: `x` is a location: the old value FADD returns goes into a register"),
    ];
    for (src, want) in cases {
        let got = err(src);
        assert!(
            got.contains(want),
            "for\n{src}\nwant `{want}`\ngot  `{got}`"
        );
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let src = format!(
        "values 2\nthread T\n a := {}1{}\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert!(err(&src).contains("nested more than"));
    let src = format!("values 2\nthread T\n a := {}1\n", "!".repeat(100_000));
    assert!(err(&src).contains("nested more than"));
}

#[test]
fn final_registers_must_fit_in_a_return_value() {
    let mut src = String::from("values 65536\nthread T\n");
    let regs: Vec<String> = (0..5).map(|i| format!("r{i}")).collect();
    for r in &regs {
        src.push_str(&format!(" {r} := 1\n"));
    }
    let cond: Vec<String> = regs.iter().map(|r| format!("T.{r} == 0")).collect();
    src.push_str(&format!("final assert {}\n", cond.join(" || ")));
    assert!(err(&src).contains("do not fit"), "{}", err(&src));
    // Three registers of 16 bits fit in 62 bits (four would need 64).
    let three = src.replace(" || T.r3 == 0 || T.r4 == 0", "");
    assert!(parse("t.toy", &three).is_ok());
}

#[test]
fn random_programs_parse_and_are_loop_free() {
    let cfg = GenConfig::default();
    let mut kinds = std::collections::HashSet::new();
    for seed in 0..500 {
        let src = random_program(seed, &cfg);
        assert_eq!(src, random_program(seed, &cfg), "deterministic");
        let prog = match parse("r.toy", &src) {
            Ok(p) => p,
            Err(d) => panic!("seed {seed}: {d}\n{src}"),
        };
        assert_eq!(prog.values, 3);
        assert!((2..=3).contains(&prog.threads.len()));
        for t in &prog.threads {
            assert!((1..=3).contains(&t.code.len()), "{src}");
            for (i, s) in t.code.iter().enumerate() {
                if let Instr::If { target, .. } | Instr::Goto { target } = s.instr {
                    assert!(target > i, "backward jump in\n{src}");
                }
                kinds.insert(std::mem::discriminant(&s.instr));
            }
        }
    }
    // Reads, writes, FADD, CAS, assert and if all occur.
    assert_eq!(kinds.len(), 6);
}

#[test]
fn mutated_programs_never_panic() {
    // Random programs with random edits: the parser accepts or rejects, never panics,
    // and whatever it accepts has a well-defined local semantics.
    const PIECES: [&str; 16] = [
        " ", "\n", ":", ":=", "(", ")", "#", "goto", "if", "x", "T1.", "9", "!", "-", "é", ",",
    ];
    let cfg = GenConfig::default();
    let mut accepted = 0;
    for seed in 0..300u64 {
        let mut src: Vec<char> = random_program(seed, &cfg).chars().collect();
        let mut r = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut next = |m: usize| {
            r ^= r << 13;
            r ^= r >> 7;
            r ^= r << 17;
            (r % m as u64) as usize
        };
        for _ in 0..1 + next(4) {
            let at = next(src.len() + 1);
            if next(2) == 0 && at < src.len() {
                src.remove(at);
            } else {
                let piece: Vec<char> = PIECES[next(PIECES.len())].chars().collect();
                src.splice(at..at, piece);
            }
        }
        let text: String = src.into_iter().collect();
        if let Ok(prog) = parse("m.toy", &text) {
            accepted += 1;
            for t in 0..prog.threads.len() {
                let mut frontier = vec![prog.initial_state(t)];
                for _ in 0..10 {
                    let Some(s) = frontier.pop() else { break };
                    let _ = prog.assertion_failure(t, &s);
                    frontier.extend(prog.successors(t, &s).into_iter().map(|x| x.1));
                }
            }
            let listing = prog.to_string();
            let again = parse("m.toy", &listing).unwrap_or_else(|d| panic!("{d}\n{listing}"));
            assert_eq!(again.to_string(), listing);
        }
    }
    assert!(accepted > 10, "{accepted}");
}
