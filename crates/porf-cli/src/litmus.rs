//! `porf litmus FILE.litmus...`: herd's C11 litmus tests, explored with porf's engine,
//! with herd7's verdict lines (or one JSON object per file with `--json`).

use clap::Args;
use porf_litmus::{check_file, herd_text, Options, Outcome};
use serde_json::json;
use std::path::PathBuf;

#[derive(Args)]
pub struct LitmusArgs {
    /// Litmus tests in herd's C format.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Memory model.
    #[arg(long, default_value = "rc11", value_parser = porf_models::MODEL_NAMES.to_vec())]
    model: String,
    /// Print one JSON object per file (one per line) instead of herd's lines.
    #[arg(long)]
    json: bool,
    /// Cut executions in which a loop would start its (N+1)th iteration (herd7's
    /// `-unroll`); without it, a loop that spins is explored without end.
    #[arg(long, value_name = "N")]
    unroll: Option<u32>,
    /// Run every test as Lahav and Boker's causal models read it: every load acquire,
    /// every store release, every RMW acq_rel, non-atomic accesses included.
    #[arg(long)]
    all_release_acquire: bool,
    /// Explore on this many threads (default: the number of cores); the outcome does
    /// not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

fn to_json(o: &Outcome) -> serde_json::Value {
    let (wp, wn) = o.witnesses();
    let states: Vec<String> = o.states.iter().map(|s| s.line()).collect();
    let state_executions: Vec<u64> = o.states.iter().map(|s| s.executions).collect();
    let races: Vec<serde_json::Value> = o
        .races
        .iter()
        .map(|(a, b)| json!({"first": a, "second": b}))
        .collect();
    json!({
        "name": o.name,
        "file": o.file,
        "model": o.model,
        "kind": o.cond.quant.kind(),
        "condition": o.cond.to_string(),
        "verdict": o.verdict(),
        "observation": o.observation(),
        "positive": o.positive,
        "negative": o.negative,
        "witnesses": {"positive": wp, "negative": wn},
        "states": states,
        "state_executions": state_executions,
        "complete": o.executions(),
        "undefined": !o.races.is_empty(),
        "races": races,
        "loop_cut": o.loop_cut,
        "errors": o.errors,
        "time_s": (o.elapsed.as_secs_f64() * 1e4).round() / 1e4,
    })
}

/// Runs the command; returns the exit code (3 if some file could not be checked).
pub fn run(a: LitmusArgs) -> u8 {
    let model = porf_models::by_name(&a.model).expect("clap checked the model name");
    let threads = match a.threads {
        Some(0) => {
            eprintln!("error: --threads must be at least 1");
            return 2;
        }
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let opts = Options {
        threads,
        unroll: a.unroll,
        all_release_acquire: a.all_release_acquire,
    };
    let mut code = 0;
    for f in &a.files {
        match check_file(f, model.as_ref(), &a.model, &opts) {
            Ok(o) => {
                if o.loop_cut {
                    eprintln!(
                        "{}: warning: unrolling limit exceeded, legal outcomes may be missing",
                        o.file
                    );
                }
                for (x, y) in &o.races {
                    eprintln!(
                        "{}: note: data race (undefined behaviour under {}) between {x} and {y}",
                        o.file, a.model
                    );
                }
                for e in &o.errors {
                    eprintln!("{}: note: error in some execution: {e}", o.file);
                }
                if a.json {
                    crate::report::emit(&format!("{}\n", to_json(&o)));
                } else {
                    crate::report::emit(&herd_text(&o));
                }
            }
            Err(e) => {
                eprintln!("{e}");
                code = 3;
            }
        }
    }
    code
}
