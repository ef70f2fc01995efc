//! Hand-written litmus tests (`tests/litmus`, expectations derived by hand in each
//! file's doc string) and malformed ones (`tests/malformed`, rejected with a
//! `file:line:col` message).

use porf_litmus::{check_file, CheckError, Options, Outcome};
use std::path::PathBuf;

fn path(dir: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir)
        .join(name)
}

fn run(name: &str, model: &str) -> Outcome {
    let m = porf_models::by_name(model).unwrap();
    match check_file(
        &path("litmus", name),
        m.as_ref(),
        model,
        &Options::default(),
    ) {
        Ok(o) => o,
        Err(e) => panic!("{name}: {e}"),
    }
}

/// (verdict, observation, positive, negative, final states)
fn summary(o: &Outcome) -> (&'static str, &'static str, u64, u64, Vec<String>) {
    (
        o.verdict(),
        o.observation(),
        o.positive,
        o.negative,
        o.states.iter().map(|s| s.line()).collect(),
    )
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn store_buffering_not_exists() {
    let o = run("sb.litmus", "rc11");
    assert_eq!(
        summary(&o),
        (
            "No",
            "Sometimes",
            1,
            3,
            strs(&[
                "0:r0=0; 1:r0=0;",
                "0:r0=0; 1:r0=1;",
                "0:r0=1; 1:r0=0;",
                "0:r0=1; 1:r0=1;"
            ])
        )
    );
    // `~exists`: herd's witnesses are swapped.
    assert_eq!(o.witnesses(), (3, 1));
    let text = porf_litmus::herd_text(&o);
    assert!(
        text.starts_with("Test SB+rlx Forbidden\nStates 4\n"),
        "{text}"
    );
    assert!(text.contains("\nNo\nWitnesses\nPositive: 3 Negative: 1\nCondition ~exists (0:r0=0 /\\ 1:r0=0)\nObservation SB+rlx Sometimes 1 3\n"), "{text}");
    let sc = run("sb.litmus", "sc");
    assert_eq!((sc.verdict(), sc.positive, sc.negative), ("Ok", 0, 3));
    let tso = run("sb.litmus", "tso");
    assert_eq!((tso.verdict(), tso.positive, tso.negative), ("No", 1, 3));
}

#[test]
fn message_passing_forall_with_a_nested_register() {
    for model in ["rc11", "ra", "tso", "sc"] {
        let o = run("mp_forall.litmus", model);
        assert_eq!(
            summary(&o),
            (
                "Ok",
                "Always",
                2,
                0,
                strs(&["1:r0=0; 1:r1=0;", "1:r0=1; 1:r1=42;"])
            ),
            "{model}"
        );
        assert_eq!(o.cond.quant.kind(), "Required");
    }
}

#[test]
fn pointer_values_print_as_location_names() {
    let o = run("ptr.litmus", "rc11");
    let (v, obs, p, n, mut states) = summary(&o);
    states.sort();
    assert_eq!(
        (v, obs, p, n, states),
        (
            "Ok",
            "Sometimes",
            1,
            1,
            strs(&[
                "1:r0=x; [p]=y; [x]=1; [y]=0;",
                "1:r0=y; [p]=y; [x]=0; [y]=1;"
            ])
        )
    );
}

#[test]
fn compare_exchange_writes_the_expected_location_on_failure() {
    let o = run("cas.litmus", "rc11");
    assert_eq!(
        summary(&o),
        (
            "Ok",
            "Sometimes",
            1,
            1,
            strs(&["0:r0=0; [e]=2;", "0:r0=1; [e]=0;"])
        )
    );
}

#[test]
fn filter_discards_executions() {
    let o = run("sb_filter.litmus", "rc11");
    assert_eq!(
        summary(&o),
        ("Ok", "Sometimes", 1, 1, strs(&["1:r0=0;", "1:r0=1;"]))
    );
    let o = run("sb_filter.litmus", "sc");
    assert_eq!(summary(&o), ("No", "Never", 0, 1, strs(&["1:r0=1;"])));
}

#[test]
fn executions_are_counted_with_coherence() {
    for model in ["rc11", "sc"] {
        let o = run("coherence.litmus", model);
        assert_eq!(
            (o.positive, o.negative, o.states.len()),
            (1, 5, 6),
            "{model}"
        );
        assert_eq!(o.executions(), 6);
    }
}

#[test]
fn races_are_undefined_behaviour() {
    let o = run("racy.litmus", "rc11");
    assert_eq!(
        summary(&o),
        ("Undef", "Sometimes", 1, 1, strs(&["1:r0=0;", "1:r0=1;"]))
    );
    assert_eq!(o.races.len(), 1);
    let (a, b) = &o.races[0];
    assert!(a.ends_with("racy.litmus:7:3"), "{a}");
    assert!(b.contains("racy.litmus:11:"), "{b}");
    let text = porf_litmus::herd_text(&o);
    assert!(
        text.contains("\nUndef\nWitnesses\nPositive: 1 Negative: 1\nFlag *undef*\n"),
        "{text}"
    );
}

#[test]
fn loops_are_cut_at_the_unroll_bound() {
    let m = porf_models::by_name("rc11").unwrap();
    let opts = Options {
        unroll: Some(2),
        ..Options::default()
    };
    let o = check_file(&path("litmus", "spin.litmus"), m.as_ref(), "rc11", &opts).unwrap();
    assert!(o.loop_cut);
    assert_eq!(summary(&o), ("Ok", "Always", 2, 0, strs(&["1:r0=1;"])));
    assert!(porf_litmus::herd_text(&o).contains("\nLoop Ok\n"));
}

#[test]
fn malformed_files_are_rejected_with_positions() {
    let m = porf_models::by_name("rc11").unwrap();
    for (name, line, col, msg) in [
        // An assembly test is parsed as one (herd's AArch64 format), not refused.
        ("not_c.litmus", 3, 1, "expected the thread table"),
        ("bad_cond.litmus", 8, 21, "expected a value"),
        ("bad_thread.litmus", 8, 19, "names thread P1"),
        ("unclosed.litmus", 4, 13, "`{` is never closed"),
        ("not_pointer.litmus", 4, 9, "must be a pointer"),
        ("body_error.litmus", 6, 12, "syntax error"),
    ] {
        let p = path("malformed", name);
        let e = check_file(&p, m.as_ref(), "rc11", &Options::default()).unwrap_err();
        let want = format!("{}:{line}:{col}: error: ", p.display());
        let got = e.to_string();
        assert!(got.starts_with(&want), "{name}: {got}");
        assert!(got.contains(msg), "{name}: {got}");
        let is_c = matches!(e, CheckError::Front(_));
        assert_eq!(is_c, name == "body_error.litmus", "{name}: {e:?}");
    }
}

/// The models with coherence, and wra, which has none (see each file's doc string).
const COHERENT: [&str; 7] = ["sc", "tso", "pso", "ra", "rc11", "rc11-genmc", "sra"];

/// The listed states, the filter and the condition all read each execution's final
/// state, a location's value being its co-last write's: under wra (every co counts)
/// the executions ending with the co-later write satisfy `x=2`.
#[test]
fn condition_reads_the_listed_final_state_under_every_model() {
    for model in COHERENT {
        let o = run("corw.litmus", model);
        assert_eq!(
            summary(&o),
            (
                "No",
                "Never",
                0,
                3,
                strs(&["0:r0=0; [x]=1;", "0:r0=0; [x]=2;", "0:r0=2; [x]=1;"])
            ),
            "{model}"
        );
        let o = run("corw_filter.litmus", model);
        assert_eq!(
            summary(&o),
            ("No", "Never", 0, 1, strs(&["0:r0=0;"])),
            "{model}"
        );
    }
    let o = run("corw.litmus", "wra");
    assert_eq!(
        summary(&o),
        (
            "Ok",
            "Sometimes",
            1,
            3,
            strs(&[
                "0:r0=0; [x]=1;",
                "0:r0=0; [x]=2;",
                "0:r0=2; [x]=1;",
                "0:r0=2; [x]=2;"
            ])
        )
    );
    let o = run("corw_filter.litmus", "wra");
    assert_eq!(
        summary(&o),
        ("Ok", "Sometimes", 1, 1, strs(&["0:r0=0;", "0:r0=2;"]))
    );
}

#[test]
fn two_plus_two_w_with_release_stores_under_every_model() {
    let all = strs(&[
        "[x]=1; [y]=1;",
        "[x]=1; [y]=2;",
        "[x]=2; [y]=1;",
        "[x]=2; [y]=2;",
    ]);
    for model in ["sc", "tso", "pso", "sra"] {
        let o = run("2+2w_rel.litmus", model);
        assert_eq!(
            summary(&o),
            ("No", "Never", 0, 3, all[1..].to_vec()),
            "{model}"
        );
    }
    for model in ["ra", "rc11", "rc11-genmc", "wra"] {
        let o = run("2+2w_rel.litmus", model);
        assert_eq!(
            summary(&o),
            ("Ok", "Sometimes", 1, 3, all.clone()),
            "{model}"
        );
        assert_eq!(
            o.states.iter().map(|s| s.executions).collect::<Vec<_>>(),
            [1, 1, 1, 1],
            "{model}: one execution per pair of co orders"
        );
    }
}
