//! The shape of the IR the front end produces for small programs: memory orders,
//! atomic read-modify-writes, private locals, global cells, compare-exchange, loops,
//! threads and source locations.

use porf_c::ir::{addr, BinOp, InstKind, Module, Operand, RmwKind, Scalar, Terminator};
use porf_c::{compile_file, FrontOptions};
use porf_graph::MemOrder;
use std::path::PathBuf;

fn compile(name: &str, src: &str) -> Module {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ir_shape");
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join(format!("{name}.c"));
    std::fs::write(&f, src).unwrap();
    compile_file(&f, &FrontOptions::default()).unwrap_or_else(|d| panic!("{d}"))
}

fn insts<'a>(m: &'a Module, func: &str) -> Vec<&'a InstKind> {
    let f = m.funcs.iter().find(|f| f.name == func).expect("function");
    f.blocks
        .iter()
        .flat_map(|b| b.insts.iter().map(|i| &i.kind))
        .collect()
}

fn cell_addr(m: &Module, name: &str) -> i64 {
    *m.cells.iter().find(|(_, c)| c.name == name).expect(name).0
}

const INT: Scalar = Scalar::INT;

#[test]
fn explicit_orders_and_plain_atomic_accesses() {
    let m = compile(
        "orders",
        "#include <stdatomic.h>\natomic_int x;\nint y;\n\
         int main(void) {\n\
           int a = atomic_load_explicit(&x, memory_order_relaxed);\n\
           int b = atomic_load_explicit(&x, memory_order_consume);\n\
           x++;\n\
           y = x;\n\
           atomic_thread_fence(memory_order_relaxed);\n\
           atomic_thread_fence(memory_order_seq_cst);\n\
           return a + b;\n}\n",
    );
    let x = Operand::Const(cell_addr(&m, "x"));
    let y = Operand::Const(cell_addr(&m, "y"));
    let is = insts(&m, "main");
    let loads: Vec<MemOrder> = is
        .iter()
        .filter_map(|k| match k {
            InstKind::Load { addr, ord, ty, .. } if *addr == x && *ty == INT => Some(*ord),
            _ => None,
        })
        .collect();
    assert_eq!(
        loads,
        [MemOrder::Relaxed, MemOrder::Acquire, MemOrder::SeqCst]
    );
    assert!(is.iter().any(|k| matches!(k,
        InstKind::Rmw { addr, op: RmwKind::Add, val: Operand::Const(1), ord: MemOrder::SeqCst, .. } if *addr == x)));
    assert!(is.iter().any(|k| matches!(k,
        InstKind::Store { addr, ord: MemOrder::NonAtomic, .. } if *addr == y)));
    let fences: Vec<&InstKind> = is
        .iter()
        .copied()
        .filter(|k| matches!(k, InstKind::Fence { .. }))
        .collect();
    assert_eq!(
        fences,
        [&InstKind::Fence {
            ord: MemOrder::SeqCst
        }]
    );
    assert!(m.cells[&cell_addr(&m, "x")].atomic);
    assert!(!m.cells[&cell_addr(&m, "y")].atomic);
}

#[test]
fn register_and_frame_locals() {
    let m = compile(
        "locals",
        "void use(int *p);\n\
         int twice(int v) { int r = v * 2; return r; }\n\
         int viaframe(void) { int l = 3; int *p = &l; *p = 4; return l; }\n\
         int main(void) { int arr[2] = {1}; return twice(arr[1]) + viaframe(); }\n",
    );
    let t = insts(&m, "twice");
    assert!(t.iter().all(|k| !matches!(
        k,
        InstKind::Load { .. } | InstKind::Store { .. } | InstKind::FrameAddr { .. }
    )));
    let f = m.funcs.iter().find(|f| f.name == "viaframe").unwrap();
    assert_eq!(f.frame_size, 4);
    assert!(insts(&m, "viaframe")
        .iter()
        .any(|k| matches!(k, InstKind::FrameAddr { offset: 0, .. })));
    let main = m.funcs.iter().find(|f| f.name == "main").unwrap();
    assert_eq!(main.frame_size, 8);
    // `{1}` zero-fills and initialises the whole array, then stores 1.
    let is = insts(&m, "main");
    let stores = is
        .iter()
        .filter(|k| matches!(k, InstKind::Store { .. }))
        .count();
    assert_eq!(stores, 1);
    assert!(is.iter().any(|k| matches!(
        k,
        InstKind::FrameInit {
            offset: 0,
            size: 8,
            defined: true
        }
    )));
}

#[test]
fn global_cells_are_named_and_initialised() {
    let m = compile(
        "cells",
        "#include <pthread.h>\n#include <stdatomic.h>\n\
         struct node { int value; atomic_int next; };\n\
         struct node pool[2] = {[1] = {.next = 7, .value = 3}};\n\
         pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
         int grid[2][2] = {1, 2, 3};\n\
         long *p = (long *)&grid[1][0];\n\
         unsigned char uc = 300;\n\
         int counter(void) { static int n = 5; return n++; }\n\
         int main(void) { return counter(); }\n",
    );
    let by_name = |n: &str| m.cells[&cell_addr(&m, n)].clone();
    assert_eq!(by_name("pool[1].value").init, 3);
    assert_eq!(by_name("pool[1].next").init, 7);
    assert!(by_name("pool[1].next").atomic);
    assert_eq!(by_name("pool[0].next").init, 0);
    assert_eq!(by_name("m.__lock").init, 0);
    assert_eq!(by_name("grid[1][0]").init, 3);
    assert_eq!(by_name("grid[1][1]").init, 0);
    assert_eq!(by_name("p").init, cell_addr(&m, "grid[1][0]"));
    assert_eq!(by_name("p").ty, Scalar::PTR);
    assert_eq!(by_name("uc").init, 44);
    assert_eq!(by_name("counter::n").init, 5);
    assert_eq!(cell_addr(&m, "pool[0].value"), addr::GLOBAL_BASE);
    assert_eq!(cell_addr(&m, "pool[1].next"), addr::GLOBAL_BASE + 12);
    assert!(m.globals_end > *m.cells.keys().last().unwrap());
}

#[test]
fn compare_exchange_shape() {
    let m = compile(
        "cas",
        "#include <stdatomic.h>\natomic_int x;\n\
         int main(void) { int e = 0;\n\
           return atomic_compare_exchange_strong_explicit(&x, &e, 1, memory_order_acq_rel, memory_order_acquire); }\n",
    );
    let is = insts(&m, "main");
    let pos = |f: &dyn Fn(&InstKind) -> bool| is.iter().position(|k| f(k)).expect("instruction");
    let load = pos(&|k| {
        matches!(
            k,
            InstKind::Load {
                ord: MemOrder::NonAtomic,
                ..
            }
        )
    });
    let cas = pos(
        &|k| matches!(k, InstKind::Cas { succ: MemOrder::AcqRel, fail: MemOrder::Acquire, weak: false, ty, .. } if *ty == INT),
    );
    let cmp = pos(&|k| matches!(k, InstKind::Binary { op: BinOp::Eq, .. }));
    let store = is
        .iter()
        .rposition(|k| {
            matches!(
                k,
                InstKind::Store {
                    val: Operand::Reg(_),
                    ..
                }
            )
        })
        .unwrap();
    assert!(load < cas && cas < cmp && cmp < store, "{is:?}");
}

#[test]
fn loops_threads_and_locations() {
    let m = compile(
        "threads",
        "#include <pthread.h>\n#include <assert.h>\n\
         int data;\n\
         void *work(void *arg) { data = (int)(long)arg; return NULL; }\n\
         int main(int argc, char **argv) {\n\
           pthread_t t[2];\n\
           for (int i = 0; i < 2; i++)\n\
             pthread_create(&t[i], NULL, work, (void *)(long)i);\n\
           int i = 0;\n\
           while (i < 2) pthread_join(t[i++], NULL);\n\
           assert(data >= 0);\n\
           return argc;\n}\n",
    );
    let main = m.funcs.iter().find(|f| f.name == "main").unwrap();
    assert_eq!(m.funcs[m.main as usize].name, "main");
    assert_eq!((main.nparams, main.nloops), (2, 2));
    let work = m.funcs.iter().position(|f| f.name == "work").unwrap() as i64;
    let is = insts(&m, "main");
    assert_eq!(
        is.iter()
            .filter(|k| matches!(k, InstKind::LoopEnter { .. }))
            .count(),
        2
    );
    assert_eq!(
        is.iter()
            .filter(|k| matches!(k, InstKind::LoopIter { .. }))
            .count(),
        2
    );
    assert!(is.iter().any(|k| matches!(k, InstKind::Spawn { func: Operand::Const(f), .. } if *f == addr::FUNC_BASE + work)));
    assert!(is.iter().any(|k| matches!(
        k,
        InstKind::Store {
            ty: Scalar {
                size: 8,
                signed: false,
                float: false
            },
            ..
        }
    )));
    assert!(is.iter().any(|k| matches!(k, InstKind::Join { .. })));
    assert!(is.iter().any(
        |k| matches!(k, InstKind::Assert { msg, .. } if msg == "Assertion `data >= 0' failed")
    ));
    // Locations: the store in `work` is on line 4 of the main file.
    let w = m.funcs.iter().find(|f| f.name == "work").unwrap();
    let store = w
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .find(|i| matches!(i.kind, InstKind::Store { .. }))
        .unwrap();
    assert_eq!((store.src.file, store.src.line, store.src.col), (0, 4, 25));
    assert!(m.files[0].ends_with("threads.c"));
    assert!(m.files.iter().any(|f| f.ends_with("pthread.h")));
    let last = main
        .blocks
        .iter()
        .find(|b| matches!(b.term, Terminator::Return(_)))
        .unwrap();
    assert_eq!(last.term_src.line, 12);
}

#[test]
fn main_locals_handed_to_threads_live_in_its_shared_frame() {
    let m = compile(
        "shared_local",
        "#include <pthread.h>\n\
         void *f(void *a) { return a; }\n\
         int main(void) {\n\
           pthread_t t;\n\
           int ids[2] = {7, 8};\n\
           int priv[2] = {1, 2};\n\
           pthread_create(&t, NULL, f, &ids[1]);\n\
           return priv[0];\n}\n",
    );
    assert!(!m.cells.values().any(|c| c.name.contains("ids")));
    let main = m.funcs.iter().find(|f| f.name == "main").unwrap();
    assert_eq!(main.shared_size, 8); // `ids`
    assert_eq!(main.frame_size, 16); // `t` and `priv`
    let is = insts(&m, "main");
    assert!(is
        .iter()
        .any(|k| matches!(k, InstKind::SharedAddr { offset: 0, .. })));
    assert!(is.iter().any(|k| matches!(
        k,
        InstKind::Store {
            val: Operand::Const(8),
            ord: MemOrder::NonAtomic,
            ..
        }
    )));
    let ids = main.locals.iter().find(|v| v.name == "ids").unwrap();
    assert!(ids.shared);
    assert_eq!(main.local_name(4, true).as_deref(), Some("ids[1]"));
    assert_eq!(main.local_name(12, false).as_deref(), Some("priv[1]"));
    assert_eq!(main.local_name(0, false).as_deref(), Some("t"));
}

#[test]
fn switch_fallthrough_and_returns() {
    let m = compile(
        "switch",
        "int f(int v) { int r = 0; switch (v) { case 1: r = 1; case 2: r += 2; break; default: r = 9; } return r; }\n\
         int g(int v) { if (v) return 1; }\n\
         int main(void) { return f(1) + g(0); }\n",
    );
    let eqs = insts(&m, "f")
        .into_iter()
        .filter(|k| matches!(k, InstKind::Binary { op: BinOp::Eq, .. }))
        .count();
    assert_eq!(eqs, 2);
    let g = m.funcs.iter().find(|f| f.name == "g").unwrap();
    assert!(g.blocks.iter().any(|b| b.term == Terminator::Unreachable));
    let main = m.funcs.iter().find(|f| f.name == "main").unwrap();
    assert!(main
        .blocks
        .iter()
        .all(|b| b.term != Terminator::Unreachable));
}

#[test]
fn unsigned_char_conversion_is_not_a_bool_conversion() {
    let m = compile(
        "uchar",
        "unsigned char c;\n_Bool b;\nint main(int argc, char **argv) { c = argc + 255; b = argc + 2; return c + b; }\n",
    );
    let is = insts(&m, "main");
    assert!(is.iter().any(|k| matches!(
        k,
        InstKind::Binary {
            op: BinOp::And,
            b: Operand::Const(0xff),
            ..
        }
    )));
    let bools = is
        .iter()
        .filter(|k| matches!(k, InstKind::Convert { to, .. } if *to == Scalar::BOOL))
        .count();
    assert_eq!(bools, 1);
}
