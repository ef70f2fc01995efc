//! `porf reach FILE.toy`: decide whether a toy program (the language of Lahav and
//! Boker, TOPLAS 2022, §2.1) can fail an assertion under SRA or WRA, for loops of any
//! length — the backward reachability of porf-wsts over loSRA/loWRA — and confirm a
//! "reachable" answer by replaying its witness under the declarative model.
//!
//! `--model ra` is decided as SRA when porf can show every SRA execution free of
//! write/write races (Cor. 8.9 of the paper, via Theorem 3.12); see [`race_free`].

mod race_free;
mod replay;
mod system;

use crate::report;
use clap::Args;
use porf_explore::{Config, Strategy};
use porf_toylang::{Program, RunOptions, ToyLangProgram};
use porf_wsts::{Label, Limits, Model, Outcome, Progress, Witness};
use replay::{Expect, Guided};
use serde_json::json;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct ReachArgs {
    /// The toy program (`.toy`).
    file: PathBuf,
    /// The causal model: `sra`, `wra`, or `ra` (only for programs porf shows free of
    /// write/write races under SRA).
    #[arg(long, default_value = "sra", value_parser = ["sra", "wra", "ra"])]
    model: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Give up after this many seconds (the answer is then "unknown", exit 4).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Give up when the antichain of minimal states grows past N elements.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    max_basis: usize,
}

/// Runs the command; returns the exit code (0 unreachable, 42 reachable, 4 unknown, 2
/// usage, 3 malformed or unsupported input).
pub fn run(a: ReachArgs) -> u8 {
    let start = Instant::now();
    if a.file.extension().is_none_or(|e| e != "toy") {
        eprintln!(
            "error: porf reach takes programs of the toy language (`.toy`), not {}; check C programs with `porf verify`",
            a.file.display()
        );
        return 3;
    }
    let prog = match porf_toylang::parse_file(&a.file) {
        Ok(p) => p,
        Err(d) => {
            eprintln!("{d}");
            return 3;
        }
    };
    let file = a.file.display().to_string();
    let deadline = match a.timeout {
        Some(t) if t.is_finite() && t > 0.0 => Some(start + Duration::from_secs_f64(t)),
        Some(_) => {
            eprintln!("error: --timeout must be a positive number of seconds");
            return 2;
        }
        None => None,
    };
    let built = match system::build(&prog) {
        Ok(b) => b,
        Err(msg) => {
            eprintln!("{file}: unsupported: {msg}");
            return 3;
        }
    };
    let model = match a.model.as_str() {
        "wra" => Model::Wra,
        "sra" => Model::Sra,
        _ => match race_free::check(&prog, &built.sys) {
            Ok(()) => Model::Sra,
            Err(why) => {
                eprintln!(
                    "{file}: unsupported: --model ra is decided only for programs whose \
                     SRA executions porf shows free of write/write races (Lahav and \
                     Boker, Cor. 8.9); {why}. Use --model sra or --model wra."
                );
                return 3;
            }
        },
    };
    let interactive = !a.json && std::io::stderr().is_terminal();
    let mut last = Instant::now();
    let mut progress = |p: &Progress| {
        if interactive && last.elapsed() >= Duration::from_millis(500) {
            last = Instant::now();
            eprint!(
                "\r{} iterations, {} minimal states, {} pending, {:.1} s   ",
                p.iterations,
                p.basis,
                p.pending,
                p.elapsed.as_secs_f64()
            );
        }
    };
    let limits = Limits {
        max_basis: a.max_basis,
        deadline,
        progress: Some(&mut progress),
    };
    let outcome = porf_wsts::decide(&built.sys, model, limits);
    if interactive {
        eprint!("\r{:70}\r", "");
    }
    let elapsed = start.elapsed().as_secs_f64();
    match outcome {
        Outcome::Unreachable {
            basis,
            iterations,
            max_size,
        } => {
            if a.json {
                println!(
                    "{}",
                    json!({"file": file, "model": a.model, "result": "unreachable",
                           "basis": basis, "iterations": iterations,
                           "max_options": max_size, "time_s": round(elapsed)})
                );
            } else {
                println!(
                    "{file}: unreachable under {}: no assertion can fail.",
                    a.model
                );
                println!(
                    "Fixpoint: {basis} minimal states after {iterations} iterations \
                     (largest: {max_size} options), {elapsed:.2} s."
                );
            }
            0
        }
        Outcome::Unknown {
            reason,
            iterations,
            basis,
        } => {
            if a.json {
                println!(
                    "{}",
                    json!({"file": file, "model": a.model, "result": "unknown",
                           "reason": reason, "basis": basis, "iterations": iterations,
                           "time_s": round(elapsed)})
                );
            } else {
                println!(
                    "{file}: unknown under {}: {reason} ({basis} minimal states, \
                     {iterations} iterations). Not a proof either way.",
                    a.model
                );
            }
            report::EXIT_INCOMPLETE
        }
        Outcome::Reachable {
            witness,
            iterations,
            basis,
        } => reachable(&a, &file, &prog, &built, &witness, iterations, basis, start),
    }
}

fn round(t: f64) -> f64 {
    (t * 1e4).round() / 1e4
}

/// Reports a reachable answer after replaying its witness under the declarative
/// model; a witness that does not replay is an internal error, never a verdict.
#[allow(clippy::too_many_arguments)]
fn reachable(
    a: &ReachArgs,
    file: &str,
    prog: &Program,
    built: &system::Built,
    witness: &Witness,
    iterations: u64,
    basis: usize,
    start: Instant,
) -> u8 {
    let run = run_lines(prog, built, witness);
    // The memory accesses each toy thread makes in the witness.
    let mut guide: Vec<Vec<Expect>> = vec![Vec::new(); prog.threads.len()];
    for s in witness.steps.iter().filter(|s| s.thread > 0) {
        let e = match s.label {
            Label::Silent => continue,
            Label::Read { val, .. } => Some(i64::from(val)),
            Label::Write { .. } => None,
            Label::Rmw { read, .. } => Some(i64::from(read)),
        };
        guide[s.thread - 1].push(e);
    }
    let decl = match porf_models::by_name(&a.model) {
        Some(m) => m,
        None => {
            eprintln!("error: no declarative model named {}", a.model);
            return 2;
        }
    };
    let guided = Guided {
        inner: ToyLangProgram::new(prog.clone(), RunOptions::default()),
        guide: Arc::new(guide),
    };
    let cfg = Config::default();
    let stats = porf_explore::explore(Strategy::Optimal, &guided, decl.as_ref(), &cfg);
    let elapsed = start.elapsed().as_secs_f64();
    if stats.errors.is_empty() {
        eprintln!(
            "{file}: internal error: the decision procedure found a run that fails an \
             assertion under {}, but it does not replay under the declarative model. \
             No verdict is given; please report this.",
            a.model
        );
        for l in &run {
            eprintln!("  {l}");
        }
        return 3;
    }
    if a.json {
        let replay = report::json::to_json(&stats, &guided, &a.model, "co", &[]);
        println!(
            "{}",
            json!({"file": file, "model": a.model, "result": "reachable",
                   "basis": basis, "iterations": iterations, "time_s": round(elapsed),
                   "run": run, "replay": replay})
        );
    } else {
        println!(
            "{file}: reachable under {}: an assertion can fail.",
            a.model
        );
        println!(
            "Found after {iterations} iterations ({basis} minimal states), {elapsed:.2} s. \
             The run (thread: instruction, values):"
        );
        for l in &run {
            println!("  {l}");
        }
        println!("Replayed under the declarative {} model:", a.model);
        report::print_human(&stats, &guided, false);
    }
    42
}

/// The witness run as lines `thread: instruction  [label]`.
fn run_lines(prog: &Program, built: &system::Built, w: &Witness) -> Vec<String> {
    let name = |x: u8| prog.locations[usize::from(x)].clone();
    w.steps
        .iter()
        .map(|s| {
            let what = match s.label {
                Label::Silent => String::new(),
                Label::Read { loc, val } => format!("  [reads {} = {val}]", name(loc)),
                Label::Write { loc, val } => format!("  [writes {} = {val}]", name(loc)),
                Label::Rmw { loc, read, write } => {
                    format!("  [reads {} = {read}, writes {write}]", name(loc))
                }
            };
            if s.thread == 0 {
                return format!("init:{what}");
            }
            let k = s.thread - 1;
            let th = &prog.threads[k];
            let pc = built.states[k][s.from as usize].pc as usize;
            let text = th
                .code
                .get(pc)
                .map_or(String::new(), |st| prog.instr_text(k, &st.instr));
            format!("{}: {text}{what}", th.name)
        })
        .collect()
}
