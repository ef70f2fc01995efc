//! `--explorer values` (value enumeration, `porf_explore::values`) and the choice of
//! explorer for models that allow load buffering.
//!
//! * Under porf's models (no load buffering) it agrees with `--explorer reference`.
//! * A cat model without an `acyclic` check over po and rf (`c/values/coherence.cat`)
//!   allows load buffering: `values` is then the default explorer, `--explorer graph`
//!   is refused (exit 2), `porf litmus` refuses the model (exit 3), and the values
//!   explorer says "unsupported" (exit 3) where it cannot be exact: `c/values/lb.c`'s
//!   load-buffering execution has non-atomic accesses.

mod common;

use common::{porf, verify_json};

fn file(name: &str) -> String {
    common::repo_file(&format!("crates/porf-cli/tests/c/values/{name}"))
}

#[test]
fn values_agrees_with_reference() {
    let lock = common::repo_file("examples/lock_counter.c");
    let mp = common::repo_file("examples/mp.c");
    let lb = file("lb.c");
    for (prog, extra) in [
        (lock.as_str(), &["-D", "N=2"][..]),
        (mp.as_str(), &[][..]),
        (lb.as_str(), &[][..]),
    ] {
        for model in ["sc", "tso", "ra", "rc11"] {
            let run = |explorer: &str| {
                let mut args = vec![prog, "--keep-going", "--model", model];
                args.extend_from_slice(&["--explorer", explorer]);
                args.extend_from_slice(extra);
                let (code, v, err) = verify_json(&args);
                (code, v["complete"].clone(), v["blocked"].clone(), err)
            };
            let (vals, reff) = (run("values"), run("reference"));
            assert_eq!(
                (&vals.0, &vals.1, &vals.2),
                (&reff.0, &reff.1, &reff.2),
                "{prog} {model}: {}",
                vals.3
            );
        }
    }
}

/// LB under rc11 (no load buffering): three executions, the assertion holds.
#[test]
fn lb_under_rc11_has_three_executions() {
    let (code, v, err) = verify_json(&[&file("lb.c"), "--explorer", "values"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["complete"], 3);
}

#[test]
fn a_model_with_load_buffering_gets_the_values_explorer() {
    let cat = file("coherence.cat");
    let lb = file("lb.c");
    let (code, _, err) = porf(&["verify", "--model-file", &cat, "--explorer", "graph", &lb]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("allows load buffering"), "{err}");
    // By default: the values explorer, which cannot give the non-atomic accesses of
    // the po ∪ rf cycle their hb views.
    let (code, out, err) = porf(&["verify", "--model-file", &cat, &lb]);
    assert_eq!(code, 3, "{out}{err}");
    assert!(out.contains("load-buffering execution"), "{out}");
    // porf litmus runs such a model with the values explorer too, but C11 tests,
    // whose accesses carry no hardware facts, are refused under it.
    let c11 = common::repo_file("crates/porf-litmus/tests/litmus/2+2w_rel.litmus");
    let (code, _, err) = porf(&["litmus", "--model-file", &cat, &c11]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("C11 tests do not run under"), "{err}");
}

/// porf's own cat files forbid load buffering (an `acyclic` over po and rf): they keep
/// the graph explorer.
#[test]
fn porfs_cat_files_keep_the_graph_explorer() {
    for name in ["sc.cat", "tso.cat", "rc11.cat"] {
        let cat = common::repo_file(&format!("crates/porf-cat/cat/{name}"));
        let (code, _, err) = porf(&[
            "verify",
            "--model-file",
            &cat,
            "--explorer",
            "graph",
            &file("lb.c"),
        ]);
        assert_eq!(code, 0, "{name}: {err}");
    }
}
