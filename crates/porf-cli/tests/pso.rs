//! `--model pso` on the shared conformance programs. Their `pso` rows are reads-from
//! counts (Nidhugg's RF-SMC fork), which porf's co mode cannot match exactly, but
//! they still bound it: every rf class holds at least one (rf, co) execution, so the co
//! count is at least the rf count, and the verdict is the program's. Every TSO
//! execution is a PSO execution, so the TSO count is at most the PSO count.

mod common;
use common::porf;

use std::collections::HashMap;

/// Rows of `conformance/expected.tsv` as column → value maps.
fn rows() -> Vec<HashMap<String, String>> {
    let dir = common::shared("conformance/expected.tsv").join("conformance");
    let text = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    lines
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            header
                .iter()
                .zip(l.split('\t'))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// `porf verify --json --model M [defines] FILE` on a conformance program: (verdict,
/// complete executions).
fn verify(model: &str, row: &HashMap<String, String>) -> (String, u64) {
    let dir = common::shared("conformance/expected.tsv").join("conformance");
    let file = dir.join(&row["file"]).display().to_string();
    let mut args = vec!["verify", "--json", "--model", model];
    args.extend(row["defines"].split_whitespace());
    args.push(&file);
    let (_, out, err) = porf(&args);
    let v: serde_json::Value =
        serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out} {err}"));
    (
        v["verdict"].as_str().unwrap().to_string(),
        v["complete"].as_u64().unwrap(),
    )
}

fn verdict_matches(expected: &str, got: &str) -> bool {
    if expected == "unsafe" {
        got != "safe"
    } else {
        expected == got
    }
}

#[test]
fn pso_rows_bound_the_co_counts() {
    if common::shared_absent("conformance/expected.tsv") {
        return;
    }
    let mut checked = 0;
    for row in rows().iter().filter(|r| r["model"] == "pso") {
        let name = format!("{} {}", row["file"], row["defines"]);
        // Keep the test fast: the largest programs take seconds.
        if row["complete"].parse::<u64>().is_ok_and(|n| n > 2000) {
            continue;
        }
        let (verdict, pso) = verify("pso", row);
        assert!(
            verdict_matches(&row["verdict"], &verdict),
            "{name}: pso verdict {verdict}, table {}",
            row["verdict"]
        );
        if verdict != "safe" {
            continue;
        }
        let rf: u64 = row["complete"].parse().unwrap();
        assert!(pso >= rf, "{name}: {pso} co executions < {rf} rf classes");
        let (tso_verdict, tso) = verify("tso", row);
        assert_eq!(tso_verdict, "safe", "{name}");
        assert!(tso <= pso, "{name}: tso {tso} > pso {pso}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} rows checked");
}

/// Relaxed message passing fails under PSO but not under TSO; relaxed store buffering
/// fails under both (the verdicts of the table's pso and tso rows).
#[test]
fn mp_is_weak_under_pso_only_and_sb_under_both() {
    if common::shared_absent("conformance/expected.tsv") {
        return;
    }
    let rows = rows();
    let row = |file: &str, model: &str, equiv: &str| {
        rows.iter()
            .find(|r| r["file"] == file && r["model"] == model && r["equiv"] == equiv)
            .unwrap_or_else(|| panic!("no {file} {model} {equiv} row"))
    };
    for file in ["mp_rlx_assert.c", "sb_rlx_assert.c"] {
        for (model, equiv) in [("pso", "rf"), ("tso", "co")] {
            let r = row(file, model, equiv);
            let (verdict, _) = verify(model, r);
            assert!(
                verdict_matches(&r["verdict"], &verdict),
                "{file} under {model}: {verdict}, table {}",
                r["verdict"]
            );
        }
    }
    assert_ne!(row("mp_rlx_assert.c", "pso", "rf")["verdict"], "safe");
    assert_eq!(row("mp_rlx_assert.c", "tso", "co")["verdict"], "safe");
    assert_ne!(row("sb_rlx_assert.c", "pso", "rf")["verdict"], "safe");
    assert_ne!(row("sb_rlx_assert.c", "tso", "co")["verdict"], "safe");
}
