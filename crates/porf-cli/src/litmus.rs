//! `porf litmus FILE.litmus...`: herd's litmus tests, C11 and assembly (AArch64,
//! RISCV, PPC, X86), explored with porf's engine, with herd7's verdict lines (or one
//! JSON object per file with `--json`). Without `--model`/`--model-file` a C test
//! runs under `rc11` and an assembly test under its architecture's model
//! (`porf_litmus::Test::default_model`); a model this build does not have, or one
//! porf has no explorer for, is an error for that file (exit code 3).
//!
//! A test's answer (herd's `Ok`/`No`, `Never`/`Sometimes`/`Always`) is a fact about
//! its executions, not an error, so it does not change the exit code. The one rule for
//! limits applies as in `porf verify`: an answer computed while `--unroll` cut some
//! execution holds only up to the bound (herd's `Loop` prefix, a warning, and in JSON
//! `"incomplete": true`, `"stopped_by": "loop bound"` and `"bound_cut"`), and the run
//! exits with code 4 unless a file could not be checked at all (3).

use clap::Args;
use porf_litmus::{check_test, herd_text, read_test, Options, Outcome, Test};
use serde_json::json;
use std::collections::HashMap;
use std::path::PathBuf;

/// `porf litmus`'s exit codes, as `--help` shows them.
pub const EXIT_CODES_HELP: &str = "Exit codes:
  0   every test was checked, every exploration complete
  4   every test was checked, but --unroll cut executions of some test: its answer
      holds only up to the bound (herd's \"Loop\" prefix; not a proof)
  3   some test could not be checked (malformed, or unsupported by porf)
  2   usage error";

/// The models `porf litmus` offers: every model, the hardware ones included.
fn litmus_models() -> Vec<&'static str> {
    let names = porf_models::MODEL_NAMES
        .iter()
        .chain(porf_models::HW_MODEL_NAMES);
    names.copied().collect()
}

#[derive(Args)]
pub struct LitmusArgs {
    /// Litmus tests in herd's C, AArch64, RISCV, PPC or X86 format.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Memory model [default: rc11 for C tests, lkmm for tests of the Linux kernel's
    /// primitives; for assembly tests the architecture's: armv8 for AArch64, riscv for
    /// RISCV, power for PPC, tso for X86]
    #[arg(long, value_parser = litmus_models())]
    model: Option<String>,
    #[arg(long, value_name = "FILE.cat", conflicts_with = "model", help = crate::model_file::HELP)]
    model_file: Option<PathBuf>,
    /// Print one JSON object per file (one per line) instead of herd's lines.
    #[arg(long)]
    json: bool,
    /// Cut executions in which a loop would start its (N+1)th iteration; in assembly
    /// tests, where a thread would jump back to one label for the Nth time, which is
    /// herd7's `-unroll N-1` (herd's default 2 is `--unroll 3`; herd does not count a
    /// backward branch on constants, porf does). Without it, a loop
    /// that spins is explored without end. A test whose executions were cut answers
    /// only up to the bound (herd's `Loop` prefix), and the run exits with code 4.
    #[arg(long, value_name = "N")]
    unroll: Option<u32>,
    /// Run every test as Lahav and Boker's causal models read it: every load acquire,
    /// every store release, every RMW acq_rel, non-atomic accesses included.
    #[arg(long)]
    all_release_acquire: bool,
    /// Exploration strategy [default: graph; values for a model that allows load
    /// buffering]; `deferred` is the graph explorer for such models.
    #[arg(long, value_enum)]
    explorer: Option<crate::Explorer>,
    /// Explore on this many threads (default: the number of cores); the outcome does
    /// not depend on it.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Values explorer: try every rf and every co of each candidate execution, asking
    /// the model at the leaves, instead of cutting the choices RMW atomicity and SC
    /// per location rule out (for comparing; the outcome does not depend on it).
    #[arg(long)]
    disable_candidate_pruning: bool,
    /// Give no verdict for a test whose exploration has an execution of more than N
    /// events (a loop with no --unroll bound; exit code 3).
    #[arg(long, value_name = "N", default_value_t = crate::limits::DEFAULT_MAX_EVENTS,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_events_per_execution: u64,
    /// Give no verdict for a test whose exploration makes porf's resident memory reach
    /// SIZE (as `porf verify --memory-limit`; exit code 3).
    #[arg(long, value_name = "SIZE", value_parser = crate::limits::parse_memory_limit)]
    memory_limit: Option<crate::limits::MemoryLimit>,
    /// Only parse the tests, run nothing: C tests (a test of the Linux kernel's
    /// primitives down to its thread machine's code, so what it refuses shows) and
    /// herd's AArch64, RISCV, PPC and X86 assembly tests (into porf's typed
    /// instructions). Prints one line per file
    /// (`--json`: one object), errors on stderr; exit code 3 if some file does not
    /// parse.
    #[arg(long)]
    parse_only: bool,
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
        "flags": o.flags,
        "races": races,
        "loop_cut": o.loop_cut,
        "bound_cut": o.bound_cut,
        "incomplete": o.loop_cut,
        "stopped_by": o.loop_cut.then_some("loop bound"),
        "errors": o.errors,
        "time_s": (o.elapsed.as_secs_f64() * 1e4).round() / 1e4,
    })
}

/// Runs the command; returns the exit code: 3 if some file could not be checked, else
/// [`crate::report::EXIT_INCOMPLETE`] if the loop bound cut some test's executions,
/// else 0.
pub fn run(a: LitmusArgs) -> u8 {
    if a.parse_only {
        return parse_only(&a.files, a.json);
    }
    // The cat model of --model-file, else each named model once, as files ask for it.
    let file_model = match &a.model_file {
        Some(f) => match crate::model_file::choose("", Some(f)) {
            Ok(c) => Some(c),
            Err(msg) => {
                eprintln!("{msg}");
                return 3;
            }
        },
        None => None,
    };
    let mut named: HashMap<String, Result<crate::model_file::Chosen, String>> = HashMap::new();
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
        explorer: a.explorer.map(crate::Explorer::strategy),
        disable_candidate_pruning: a.disable_candidate_pruning,
        max_events_per_execution: Some(a.max_events_per_execution),
        memory_limit: match a.memory_limit {
            Some(crate::limits::MemoryLimit::Bytes(n)) => Some(n),
            Some(crate::limits::MemoryLimit::Unlimited) => None,
            None => crate::limits::default_memory_limit(),
        },
    };
    let mut code = 0;
    for f in &a.files {
        let test = match read_test(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{e}");
                code = 3;
                continue;
            }
        };
        let chosen = match &file_model {
            Some(c) => c,
            None => {
                let name = a.model.as_deref().unwrap_or(test.default_model());
                let c = named
                    .entry(name.to_string())
                    .or_insert_with(|| named_model(name, &test, a.model.is_some()));
                match c {
                    Ok(c) => c,
                    Err(msg) => {
                        eprintln!("{msg}");
                        code = 3;
                        continue;
                    }
                }
            }
        };
        match check_test(&test, chosen.model.as_ref(), &chosen.name, &opts) {
            Ok(_) if chosen.runtime_error().is_some() => {
                eprintln!("{}", chosen.runtime_error().unwrap_or_default());
                return 3;
            }
            Ok(o) => {
                if o.loop_cut {
                    eprintln!(
                        "{}: warning: unrolling limit exceeded, legal outcomes may be missing \
                         ({} {} cut by the --unroll loop bound: the answer holds only up to \
                         the bound)",
                        o.file,
                        o.bound_cut,
                        if o.bound_cut == 1 {
                            "execution"
                        } else {
                            "executions"
                        }
                    );
                    if code == 0 {
                        code = crate::report::EXIT_INCOMPLETE;
                    }
                }
                for (x, y) in &o.races {
                    eprintln!(
                        "{}: note: data race (undefined behaviour under {}) between {x} and {y}",
                        o.file, o.model
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

/// The model named `name` for `test` (`given`: by `--model`, else the test's
/// default); the error names what is missing.
fn named_model(name: &str, test: &Test, given: bool) -> Result<crate::model_file::Chosen, String> {
    crate::model_file::choose(name, None).map_err(|e| {
        if given {
            return e;
        }
        let kind = match test {
            Test::C(_) => "C".to_string(),
            Test::Asm(t) => t.arch.name().to_string(),
        };
        format!(
            "{}:1:1: error: {kind} tests run under `{name}` by default, and this build of \
             porf has no model `{name}`; choose one with --model or --model-file",
            test.file()
        )
    })
}

/// `--parse-only`: parses each file and prints what it holds.
fn parse_only(files: &[PathBuf], json: bool) -> u8 {
    let mut code = 0;
    for f in files {
        let shown = f.display().to_string();
        let r = match std::fs::read(f) {
            Err(e) => Err(format!("{shown}: error: cannot read {shown}: {e}")),
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                if porf_litmus::arch_of(&text).is_some() {
                    porf_litmus::parse_asm(&shown, &text)
                        .map(|t| {
                            let n: usize = t.threads.iter().map(|th| th.code.len()).sum();
                            (t.arch.name().to_string(), t.name, t.threads.len(), Some(n))
                        })
                        .map_err(|e| e.to_string())
                } else {
                    porf_litmus::parse(&shown, &text)
                        .map_err(|e| e.to_string())
                        .and_then(|t| {
                            // A kernel test's bodies are compiled too: what its
                            // machine refuses (SRCU, loops, ...) is found here.
                            if porf_litmus::kernel::is_kernel(&t) {
                                porf_litmus::kernel::compile_test(&t).map_err(|e| e.to_string())?;
                            }
                            Ok(("C".to_string(), t.name, t.threads.len(), None))
                        })
                }
            }
        };
        match r {
            Ok((arch, name, threads, instrs)) => {
                let line = if json {
                    format!(
                        "{}\n",
                        json!({"file": shown, "parsed": true, "arch": arch, "name": name,
                               "threads": threads, "instructions": instrs})
                    )
                } else {
                    let n = instrs.map_or(String::new(), |n| format!(", {n} instructions"));
                    format!("{shown}: parsed {arch} {name} ({threads} threads{n})\n")
                };
                crate::report::emit(&line);
            }
            Err(e) => {
                eprintln!("{e}");
                if json {
                    crate::report::emit(&format!(
                        "{}\n",
                        json!({"file": shown, "parsed": false, "error": e})
                    ));
                }
                code = 3;
            }
        }
    }
    code
}
