//! The kernel front end: parsing, dependencies reported by the machine, refusals.

use super::*;
use porf_graph::hw::{KernelFence, Tags};
use porf_graph::{Action, Program, ThreadMachine};

fn litmus(text: &str) -> Litmus {
    crate::parse("t.litmus", text).expect("parses")
}

const MP_DEP: &str = "C MP+dep
{
int *p = &a;
}
P0(int **p, int *x, int *a)
{
	WRITE_ONCE(*x, 1);
	rcu_assign_pointer(*p, x);
}
P1(int **p, int *x, int *a)
{
	int *r0;
	int r1;
	int r2 = 0;
	r0 = rcu_dereference(*p);
	r1 = READ_ONCE(*r0);
	if (r1 == 1) {
		WRITE_ONCE(*a, r1 + 2);
	}
	smp_mb();
	r2 = xchg_acquire(a, r1);
}
exists (1:r0=x /\\ 1:r1=0)
";

/// Steps thread `k` of `l`, answering every read with `values` in turn; returns each
/// action with its hardware facts.
fn run_thread(l: &Litmus, k: u32, values: &[i64]) -> Vec<(Action, Option<porf_graph::Hw>)> {
    let c = compile_test(l).unwrap();
    let mut t = c.program.spawn(k + 1, k, 0);
    let mut out = Vec::new();
    let mut vals = values.iter();
    loop {
        let a = t.peek();
        assert_eq!(t.peek(), a, "peek is idempotent");
        let hw = t.hw();
        let ret = match &a {
            Action::Load { .. } | Action::Rmw { .. } => *vals.next().expect("a value"),
            Action::Finish { .. } | Action::Block { .. } | Action::Error { .. } => {
                out.push((a, hw));
                return out;
            }
            _ => 0,
        };
        out.push((a, hw));
        t.resume(ret);
    }
}

#[test]
fn kernel_tests_are_recognised() {
    assert!(is_kernel(&litmus(MP_DEP)));
    let c11 = "C c11\n{}\nP0(atomic_int* x) { atomic_store_explicit(x, 1, memory_order_relaxed); }\nexists (x=1)\n";
    assert!(!is_kernel(&litmus(c11)));
}

#[test]
fn dependencies_follow_the_data_flow() {
    let l = litmus(MP_DEP);
    let c = compile_test(&l).unwrap();
    let x = c.addrs["x"];
    // P1 reads p = &x, then x = 1: the write to a happens under the branch.
    let acts = run_thread(&l, 1, &[x, 1, 5]);
    let hws: Vec<porf_graph::Hw> = acts.iter().filter_map(|(_, h)| h.clone()).collect();
    // read p: no deps, Once|RCU_DEREF.
    assert_eq!(hws[0].tags, Tags::ONCE | Tags::RCU_DEREF);
    assert!(hws[0].deps.is_empty());
    // read *r0: address dependency on read 0.
    assert_eq!(hws[1].deps.addr, vec![0]);
    // write a = r1 + 2: data on read 1, control on read 1 (the condition).
    assert_eq!(hws[2].deps.data, vec![1]);
    assert_eq!(hws[2].deps.ctrl, vec![1]);
    assert!(matches!(acts[2].0, Action::Store { val: 3, .. }));
    // smp_mb: a kernel fence.
    assert_eq!(
        hws[3].fence,
        Some(porf_graph::FenceKind::Kernel(KernelFence::Mb))
    );
    // xchg_acquire after the if: no control dependency (the arms joined), data on r1.
    assert_eq!(hws[4].tags, Tags::ACQ);
    assert!(hws[4].deps.ctrl.is_empty());
    assert_eq!(hws[4].deps.data, vec![1]);
    assert!(matches!(acts.last().unwrap().0, Action::Finish { .. }));
    // The registers: r0, r1, r2 first, temporaries after.
    assert_eq!(&c.program.threads[1].code.regs[..3], ["r0", "r1", "r2"]);
}

#[test]
fn a_taken_spin_lock_blocks_the_execution() {
    let l = litmus(
        "C L\n{}\nP0(spinlock_t *l, int *x)\n{\n\tspin_lock(l);\n\tWRITE_ONCE(*x, 1);\n\tspin_unlock(l);\n}\nexists (x=1)\n",
    );
    let acts = run_thread(&l, 0, &[1]);
    assert!(matches!(acts[0].0, Action::Rmw { .. }));
    assert!(acts[0].1.as_ref().unwrap().tags.contains(Tags::LKW));
    assert!(matches!(acts[1].0, Action::Block { .. }));
    let acts = run_thread(&l, 0, &[0]);
    assert!(matches!(acts[1].0, Action::Store { val: 1, .. }));
    let unlock = acts[2].1.as_ref().unwrap();
    assert_eq!(unlock.tags, Tags::REL | Tags::UL);
}

fn refusal(text: &str) -> String {
    match compile_test(&litmus(text)) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn unsupported_constructs_are_refused_with_their_position() {
    let e =
        refusal("C S\n{}\nP0(int *x)\n{\n\tint r0 = srcu_read_lock_fast(x);\n}\nexists (x=1)\n");
    assert!(
        e.starts_with("t.litmus:5:11:") && e.contains("unsupported: `srcu_read_lock_fast`"),
        "{e}"
    );
    let e = refusal("C W\n{}\nP0(int *x)\n{\n\twhile (1) { READ_ONCE(*x); }\n}\nexists (x=1)\n");
    assert!(e.starts_with("t.litmus:5:2:") && e.contains("while"), "{e}");
}

/// herd's C lexer reserves `if`, `else` and `while` only: `continue`, `break`, ...
/// assigned are registers. Hand derivation: P0 runs its body once (`continue` starts
/// at 1), writes x = 1 and clears `continue`; P1's `continue` is set to 0, so it does
/// nothing: x = 1 and 0:continue = 0 in the one execution (`Ok`).
#[test]
fn unreserved_words_assigned_are_registers() {
    let (verdict, _) = lkmm_verdict(
        "C K\n{\n0:continue = 1;\n1:continue = 0;\n}\nP0(int *x)\n{\n\tif (continue) {\n\t\tWRITE_ONCE(*x, 1);\n\t\tcontinue = 0;\n\t}\n}\nP1(int *x)\n{\n\tif (continue) {\n\t\tWRITE_ONCE(*x, 2);\n\t}\n}\nexists (x=1 /\\ 0:continue=0)\n",
    );
    assert_eq!(verdict, "Ok");
    let e = refusal("C B\n{}\nP0(int *x)\n{\n\tbreak;\n}\nexists (x=1)\n");
    assert!(
        e.starts_with("t.litmus:5:2:") && e.contains("`break`"),
        "{e}"
    );
}

#[test]
fn other_models_are_refused() {
    let l = litmus(MP_DEP);
    let opts = crate::Options::default();
    let e = check(&l, &porf_models::sc::Sc, "sc", &opts).unwrap_err();
    assert!(e.to_string().contains("--model lkmm only"), "{e}");
}

/// Under SC (the machine's own semantics, with the optimal explorer): the classic
/// shapes' SC outcomes, derived by hand.
#[test]
fn the_machine_under_sc() {
    let sb = litmus(
        "C SB\n{}\nP0(int *x, int *y)\n{\n\tint r0;\n\tWRITE_ONCE(*x, 1);\n\tr0 = READ_ONCE(*y);\n}\nP1(int *x, int *y)\n{\n\tint r0;\n\tWRITE_ONCE(*y, 1);\n\tr0 = READ_ONCE(*x);\n}\nexists (0:r0=0 /\\ 1:r0=0)\n",
    );
    let o = check_with(
        &sb,
        &porf_models::sc::Sc,
        "sc",
        Strategy::Optimal,
        &crate::Options::default(),
    )
    .unwrap();
    // Executions are rf choices (one write per location, so co is fixed): each read
    // reads the initial value or the other thread's write; SC forbids (0, 0) only.
    assert_eq!(o.positive, 0);
    assert_eq!(o.negative, 3);
    assert_eq!(o.states.len(), 3);
    // An RMW chain: two atomic_inc_return; the results are 1 and 2 in some order.
    let inc = litmus(
        "C INC\n{}\nP0(atomic_t *v)\n{\n\tint r0 = atomic_inc_return(v);\n}\nP1(atomic_t *v)\n{\n\tint r0 = atomic_inc_return(v);\n}\nexists (0:r0=1 /\\ 1:r0=1)\n",
    );
    let o = check_with(
        &inc,
        &porf_models::sc::Sc,
        "sc",
        Strategy::Optimal,
        &crate::Options::default(),
    )
    .unwrap();
    assert_eq!((o.positive, o.negative), (0, 2));
    let text = crate::herd_text(&o);
    assert!(
        text.contains("0:r0=1; 1:r0=2;") && text.contains("0:r0=2; 1:r0=1;"),
        "{text}"
    );
}

/// `PORF_LKMM_CORPUS=DIR`: compiles every kernel test under DIR and prints the
/// refusals by message (a survey, not a check; nothing runs without the variable).
#[test]
fn corpus_survey() {
    let Some(dir) = std::env::var_os("PORF_LKMM_CORPUS") else {
        return;
    };
    fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "litmus") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(std::path::Path::new(&dir), &mut files);
    let mut by_msg: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut ok = 0;
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).to_string();
        let r = crate::parse(&f.display().to_string(), &text)
            .map_err(|e| e.message)
            .and_then(|l| {
                compile_test(&l).map_err(|e| match e {
                    CheckError::Litmus(e) => e.message,
                    e => e.to_string(),
                })
            });
        match r {
            Ok(_) => ok += 1,
            Err(m) => {
                let key: String = m.chars().take(70).collect();
                let e = by_msg.entry(key).or_insert((0, f.display().to_string()));
                e.0 += 1;
            }
        }
    }
    eprintln!("{ok} of {} compile", files.len());
    for (m, (n, f)) in by_msg {
        eprintln!("{n:5} {m}  (e.g. {f})");
    }
}

const BRANCH_SET: &str = "C B\n{}\nP0(int *x, int *y)\n{\n\tint r1;\n\tr1 = 1;\n\t\
                          if (READ_ONCE(*x) == 0)\n\t\tr1 = 0;\n\tWRITE_ONCE(*y, r1);\n}\n\
                          P1(int *x)\n{\n\tWRITE_ONCE(*x, 1);\n}\nexists (y=1)\n";

/// A register set in an `if` arm and read after the join: herd's dependencies end at
/// the join (the write of `r1` depends on no read), but the value was chosen by the
/// condition, which the write reports as a control-flow source (`Deps::value`) for
/// the values explorer's dependency-cycle check.
#[test]
fn values_chosen_by_a_branch_carry_the_condition_as_a_source() {
    let l = litmus(BRANCH_SET);
    for (x, r1) in [(0, 0), (1, 1)] {
        let acts = run_thread(&l, 0, &[x]);
        assert!(matches!(acts[1].0, Action::Store { val, .. } if val == r1));
        let w = acts[1].1.as_ref().unwrap();
        assert!(w.deps.is_empty(), "{:?}", w.deps);
        assert_eq!(w.deps.value, vec![0]);
    }
}

/// Hand derivations: in `BRANCH_SET` P0 writes y = 1 exactly when it reads P1's
/// x = 1, so `y=1` is reachable (`Ok`) and `0:r1=1 /\ y=0` is not (`No`). In the
/// load-buffering shape P0 writes y = 1 when it read x = 1 and P1 copies y to x:
/// herd has no dependency from P0's read to its write (the value comes from a
/// branch), so the LKMM accepts the self-justifying execution x = y = 1, which the
/// values explorer cannot enumerate: it refuses the test (never guesses).
#[test]
fn branch_chosen_values_are_answered_or_refused() {
    assert_eq!(lkmm_verdict(BRANCH_SET).0, "Ok");
    let never = BRANCH_SET.replace("exists (y=1)", "exists (0:r1=1 /\\ y=0)");
    assert_eq!(lkmm_verdict(&never).0, "No");
    let lb = "C LB\n{}\nP0(int *x, int *y)\n{\n\tint r0;\n\tint r1;\n\t\
              r0 = READ_ONCE(*x);\n\tr1 = 0;\n\tif (r0 == 1)\n\t\tr1 = 1;\n\t\
              WRITE_ONCE(*y, r1);\n}\nP1(int *x, int *y)\n{\n\tint r2;\n\t\
              r2 = READ_ONCE(*y);\n\tWRITE_ONCE(*x, r2);\n}\nexists (0:r0=1 /\\ 1:r2=1)\n";
    let e = match check(
        &litmus(lb),
        &porf_models::lkmm::Lkmm,
        "lkmm",
        &crate::Options::default(),
    ) {
        Err(e) => e,
        Ok(_) => panic!("answered"),
    };
    assert!(e.to_string().contains("values justify themselves"), "{e}");
}

/// `(verdict, flags)` of `text` under lkmm.
fn lkmm_verdict(text: &str) -> (&'static str, Vec<String>) {
    let o = check(
        &litmus(text),
        &porf_models::lkmm::Lkmm,
        "lkmm",
        &crate::Options::default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    (o.verdict(), o.flags)
}

/// Plain accesses (`*x = 1`, `r = *x`) are herd's `Plain` events: they take no part
/// in hb, and a plain access unordered with a conflicting one of another thread
/// raises the `data-race` flag without changing the verdict. Hand derivations:
/// * no barrier: P1 may read y = 1 and then the initial x (nothing orders the two
///   reads, nor the two writes): `Ok`; in that execution the plain read of x and the
///   plain write of x are unordered (`rw-race`): flag.
/// * release/acquire: when r0 = 1, `*x = 1` is `po-rel` before the release, whose
///   value the acquire reads (`rfe`), and the acquire is `acq-po` before `*x`: the
///   write is visible to the read (`wr-vis`), so reading the initial x would be
///   `rw-incoh` (plain-coherence): `No`; when r0 = 0 P1 reads no x: no race.
#[test]
fn plain_accesses_and_the_data_race_flag() {
    let racy = "C MP+plain\n{}\nP0(int *x, int *y)\n{\n\t*x = 1;\n\tWRITE_ONCE(*y, 1);\n}\n\
                P1(int *x, int *y)\n{\n\tint r0 = READ_ONCE(*y);\n\tint r1 = *x;\n}\n\
                exists (1:r0=1 /\\ 1:r1=0)\n";
    assert_eq!(lkmm_verdict(racy), ("Ok", vec!["data-race".to_string()]));
    let ordered = "C MP+rel-acq+plain\n{}\nP0(int *x, int *y)\n{\n\t*x = 1;\n\t\
                   smp_store_release(y, 1);\n}\nP1(int *x, int *y)\n{\n\tint r1 = 1;\n\t\
                   int r0 = smp_load_acquire(y);\n\tif (r0) {\n\t\tr1 = *x;\n\t}\n}\n\
                   exists (1:r0=1 /\\ 1:r1=0)\n";
    assert_eq!(lkmm_verdict(ordered), ("No", vec![]));
}

const SRCU: &str =
    "C S\n{}\nP0(int *x, struct srcu_struct *s)\n{\n\tint i = srcu_read_lock(s);\n\t\
                    WRITE_ONCE(*x, i);\n\tsrcu_read_unlock(s, i);\n\tsynchronize_srcu(s);\n\t\
                    smp_mb__after_srcu_read_unlock();\n}\nexists (x=1)\n";

/// herd's `linux-kernel.def`: `srcu_read_lock(s)` is a read of `*s` tagged
/// `Srcu-lock`, `srcu_read_unlock(s, i)` a write of `i` to `*s` tagged `Srcu-unlock`
/// (its data dependency on the lock is what matches the two), `synchronize_srcu(s)`
/// a grace period of the domain `s`.
#[test]
fn srcu_events_and_their_domain() {
    let l = litmus(SRCU);
    let c = compile_test(&l).unwrap();
    let s = c.addrs["s"];
    let acts = run_thread(&l, 0, &[7]);
    assert!(matches!(acts[0].0, Action::Load { loc, .. } if loc.0 as i64 == s));
    assert_eq!(acts[0].1.as_ref().unwrap().tags, Tags::SRCU_LOCK);
    assert!(matches!(acts[2].0, Action::Store { loc, val: 7, .. } if loc.0 as i64 == s));
    let unlock = acts[2].1.as_ref().unwrap();
    assert_eq!(
        (unlock.tags, unlock.deps.data.clone()),
        (Tags::SRCU_UNLOCK, vec![0])
    );
    let fence = |k: usize| acts[k].1.as_ref().unwrap().fence;
    assert_eq!(
        fence(3),
        Some(porf_graph::FenceKind::Kernel(KernelFence::SyncSrcu(
            s as u64
        )))
    );
    assert_eq!(
        fence(4),
        Some(porf_graph::FenceKind::Kernel(
            KernelFence::AfterSrcuReadUnlock
        ))
    );
}

/// SRCU's read-side critical sections are matched by the data flow of the lock's
/// index (herd's `srcu-rscs`). Hand derivation: P0's two reads are unordered but for
/// the grace period; the `srcu-mp` shape (`tests/kernel/srcu-mp.litmus`) is
/// forbidden when P0's unlock writes back the lock's index (the grace period's chain
/// `gp; link; srcu-rscs⁻¹` reaches P0's lock, and P0's read of y reading 0 closes
/// `rb`), allowed when it writes a constant: that unlock matches no lock, so there is
/// no critical section for the grace period to wait for.
#[test]
fn srcu_critical_sections_are_matched_by_the_index() {
    let shape = |unlock_value: &str| {
        format!(
            "C S\n{{}}\nP0(int *x, int *y, struct srcu_struct *s)\n{{\n\tint r0;\n\tint r1;\n\t\
             int i = srcu_read_lock(s);\n\tr0 = READ_ONCE(*x);\n\tr1 = READ_ONCE(*y);\n\t\
             srcu_read_unlock(s, {unlock_value});\n}}\nP1(int *x, int *y, struct srcu_struct *s)\n\
             {{\n\tWRITE_ONCE(*y, 1);\n\tsynchronize_srcu(s);\n\tWRITE_ONCE(*x, 1);\n}}\n\
             exists (0:r0=1 /\\ 0:r1=0)\n"
        )
    };
    assert_eq!(lkmm_verdict(&shape("i")), ("No", vec![]));
    assert_eq!(lkmm_verdict(&shape("0")), ("Ok", vec![]));
}

/// `atomic_add_unless(z, 1, u)` between two writes (herd's `__atomic_add_unless{MB}`):
/// a fully ordered RMW when it adds, an unordered read when it finds `u` (herd's
/// `FailedRMW` loses its `Mb`). Hand derivation: P1's reads are ordered by `smp_mb`;
/// when the RMW adds (z is 0, never 5) it acts as `smp_mb` between P0's writes, so
/// P1 cannot see y = 1 and then x = 0 (`No`); when it fails (z is 0 = u) nothing
/// orders P0's writes and the outcome is allowed (`Ok`).
#[test]
fn atomic_add_unless_orders_only_when_it_adds() {
    let shape = |unless: i64| {
        format!(
            "C A\n{{}}\nP0(atomic_t *x, atomic_t *y, atomic_t *z)\n{{\n\tint r0;\n\t\
             atomic_set(x, 1);\n\tr0 = atomic_add_unless(z, 1, {unless});\n\t\
             atomic_set(y, 1);\n}}\nP1(atomic_t *x, atomic_t *y)\n{{\n\tint r0;\n\tint r1;\n\t\
             r0 = atomic_read(y);\n\tsmp_mb();\n\tr1 = atomic_read(x);\n}}\n\
             exists (1:r0=1 /\\ 1:r1=0)\n"
        )
    };
    assert_eq!(lkmm_verdict(&shape(5)), ("No", vec![]));
    assert_eq!(lkmm_verdict(&shape(0)), ("Ok", vec![]));
}

/// The machine's `atomic_add_unless(x, a, u)`: one conditional RMW whose write
/// depends on `a` by data and on `u` by control, its result (did it add?) on the read
/// and on `u`.
#[test]
fn atomic_add_unless_is_a_conditional_rmw() {
    let l = litmus(
        "C A\n{}\nP0(atomic_t *x, int *a, int *u)\n{\n\tint r0 = READ_ONCE(*a);\n\t\
         int r1 = READ_ONCE(*u);\n\tint r2 = atomic_add_unless(x, r0, r1);\n\t\
         WRITE_ONCE(*a, r2);\n}\nexists (x=1)\n",
    );
    for (old, wrote) in [(4, 1), (3, 0)] {
        let acts = run_thread(&l, 0, &[2, 3, old]);
        let Action::Rmw { op, .. } = acts[2].0 else {
            panic!("{:?}", acts[2].0)
        };
        assert_eq!(op, porf_graph::RmwOp::AddUnless { add: 2, unless: 3 });
        let rmw = acts[2].1.as_ref().unwrap();
        assert_eq!(
            (rmw.deps.data.clone(), rmw.deps.ctrl.clone()),
            (vec![0], vec![1])
        );
        assert!(matches!(acts[3].0, Action::Store { val, .. } if val == wrote));
        assert_eq!(acts[3].1.as_ref().unwrap().deps.data, vec![1, 2]);
    }
}
