//! `porf`: a stateless model checker for concurrent programs under weak memory models.
//!
//! **Architecture invariant**: the binary parses flags, picks a front end, a model and
//! an explorer, and prints results; it reads graphs only to print witnesses
//! (`report/`), and decides nothing about executions itself.
//!
//! **API boundary**: the command line (`porf verify`, `porf merge`, `porf litmus`, `porf example`, `porf reach`), its
//! output lines, `--json` objects and exit codes (0, 2, 3, 4, 42).

mod example;
mod limits;
mod litmus;
mod model_file;
mod progress;
mod reach;
mod report;
mod shard;
mod verify;

use clap::{Args, Parser, Subcommand, ValueEnum};
use porf_explore::{Config, Equiv, Strategy};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// mimalloc: the explorers allocate and free many small vectors per event (views,
/// snapshots of thread states); the system allocator was a third of the profile.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "porf",
    version,
    about = "Stateless model checking under weak memory models"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Command,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum Explorer {
    /// GenMC-style optimal exploration of execution graphs.
    Graph,
    /// Brute-force enumeration (exponential; for small programs).
    Reference,
    /// RF-SMC, the trace-based reads-from explorer of Bui et al. (OOPSLA 2021); needs
    /// `--equiv rf` and `--model sc`, `tso` or `pso`.
    RfSmc,
    /// RF-partSMC, the space-optimal variant of RF-SMC (the same as `--explorer rf-smc
    /// --low-memory`).
    RfPartSmc,
    /// Value enumeration, herd7's way: every read's value guessed, every rf and co
    /// (exponential; for small loop-bounded programs). The default for models that
    /// allow load buffering.
    Values,
    /// The deferred-read graph explorer for models that allow load buffering: a read
    /// may read from a write added later, events wait for the reads they depend on
    /// (programs whose accesses carry dependencies: assembly and kernel litmus tests).
    Deferred,
}

impl Explorer {
    /// The strategy this explorer names (`rf-smc` without `--low-memory`).
    pub fn strategy(self) -> Strategy {
        match self {
            Explorer::Values => Strategy::Values,
            Explorer::Deferred => Strategy::Deferred,
            Explorer::Graph => Strategy::Optimal,
            Explorer::Reference => Strategy::Reference,
            Explorer::RfSmc => Strategy::RfSmc,
            Explorer::RfPartSmc => Strategy::RfPartSmc,
        }
    }
}

/// Flags shared by every command that explores a program.
#[derive(Args)]
pub struct ExploreArgs {
    /// Memory model.
    #[arg(long, default_value = "rc11", value_parser = porf_models::MODEL_NAMES.to_vec())]
    model: String,
    #[arg(long, value_name = "FILE.cat", conflicts_with = "model", help = model_file::HELP)]
    model_file: Option<std::path::PathBuf>,
    /// Exploration strategy [default: graph; values for a model that allows load
    /// buffering (po ∪ rf cycles), which no other explorer enumerates].
    #[arg(long, value_enum)]
    explorer: Option<Explorer>,
    /// Keep exploring after an error: count everything, collect every distinct error.
    #[arg(long)]
    keep_going: bool,
    /// With --explorer rf-smc: RF-partSMC, the space-optimal variant (memory
    /// polynomial in the length of an execution, at the price of calls on partial
    /// traces).
    #[arg(long)]
    low_memory: bool,
    /// Stop after this many complete executions. If no error was found by then, the
    /// result is "incomplete" (exit code 4): not a proof.
    #[arg(long, value_name = "N")]
    max_executions: Option<u64>,
    /// Stop after this many seconds of wall time (compiling included). If no error was
    /// found by then, the result is "incomplete" (exit code 4): not a proof.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Stop when porf's resident memory reaches SIZE (512M, 4G, 2GiB, or bytes; K, M,
    /// G, T are powers of 1024; `none`: no limit). If no error was found by then, the
    /// result is "incomplete" (exit code 4), with a warning naming what grew. Default:
    /// three quarters of the machine's memory, or of porf's cgroup limit if smaller.
    #[arg(long, value_name = "SIZE", value_parser = limits::parse_memory_limit)]
    memory_limit: Option<limits::MemoryLimit>,
    /// Stop when one execution has more than N events (a loop that never exits would
    /// otherwise grow it until memory runs out). If no error was found by then, the
    /// result is "incomplete" (exit code 4), with a warning naming the thread that grew
    /// and where; bound such loops with --unroll.
    #[arg(long, value_name = "N", default_value_t = limits::DEFAULT_MAX_EVENTS,
          value_parser = clap::value_parser!(u64).range(1..))]
    max_events_per_execution: u64,
    /// Run the program as Lahav and Boker's causal models read it: every load
    /// acquire, every store release, every RMW acq_rel, non-atomic accesses included
    /// (so `--model ra`, `wra` and `sra` compare on one program).
    #[arg(long)]
    all_release_acquire: bool,
    /// Explore on this many threads (default: the number of cores). The result does
    /// not depend on it (see the README's "--threads"); a few configurations run on
    /// one thread whatever it says (`--stats` says why).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Do not show the progress line (executions, blocked, rate, elapsed, estimated
    /// total) that a run shows on stderr when stderr is a terminal (never with
    /// --json). The estimated total (graph explorer) is the executions so far divided
    /// by the share of the exploration tree done, a share weighted as Knuth's random
    /// probes would enter it: an estimate, exact only on evenly shaped trees.
    #[arg(long)]
    no_progress: bool,
}

impl ExploreArgs {
    /// The explorer configuration, or a usage error message.
    fn config(&self, equiv: Equiv) -> Result<Config, String> {
        if self.low_memory && self.explorer() != Explorer::RfSmc {
            return Err("--low-memory applies to --explorer rf-smc only".into());
        }
        if matches!(self.explorer(), Explorer::RfSmc | Explorer::RfPartSmc) {
            if equiv != Equiv::Rf {
                let name = self
                    .explorer()
                    .to_possible_value()
                    .expect("a named explorer");
                return Err(format!(
                    "--explorer {} explores reads-from classes: it needs --equiv rf",
                    name.get_name()
                ));
            }
            if !porf_explore::rf_smc::MODELS.contains(&self.model.as_str()) {
                return Err(format!(
                    "--explorer rf-smc is defined for --model {}, not {}",
                    porf_explore::rf_smc::MODELS.join(", "),
                    self.model
                ));
            }
        }
        let timeout = match self.timeout {
            Some(t) if t.is_finite() && t > 0.0 => match Duration::try_from_secs_f64(t) {
                Ok(d) if !d.is_zero() => Some(d),
                Ok(_) => return Err("--timeout must be at least a nanosecond".into()),
                Err(_) => return Err(format!("--timeout {t} is too large")),
            },
            Some(_) => return Err("--timeout must be a positive number of seconds".into()),
            None => None,
        };
        let threads = match self.threads {
            Some(0) => return Err("--threads must be at least 1".into()),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        Ok(Config {
            threads,
            keep_going: self.keep_going,
            max_executions: self.max_executions,
            timeout,
            memory_limit: match self.memory_limit {
                Some(limits::MemoryLimit::Bytes(n)) => Some(n),
                Some(limits::MemoryLimit::Unlimited) => None,
                None => limits::default_memory_limit(),
            },
            max_events_per_execution: Some(self.max_events_per_execution),
            // The time limit covers everything from here: compiling and exploring.
            clock_start: Some(Instant::now()),
            equiv,
            ..Config::default()
        })
    }

    /// The explorer asked for, or the default before a model is chosen
    /// ([`ExploreArgs::pick_default`]).
    fn explorer(&self) -> Explorer {
        self.explorer.unwrap_or(Explorer::Graph)
    }

    /// Fills in the default explorer for `model` unless one was asked for:
    /// [`porf_explore::default_strategy`].
    fn pick_default(&mut self, model: &dyn porf_models::MemoryModel) {
        if self.explorer.is_none() {
            self.explorer = Some(match porf_explore::default_strategy(model) {
                Strategy::Values => Explorer::Values,
                Strategy::Deferred => Explorer::Deferred,
                _ => Explorer::Graph,
            });
        }
    }

    fn strategy(&self) -> Strategy {
        match self.explorer() {
            Explorer::Values => Strategy::Values,
            Explorer::Deferred => Strategy::Deferred,
            Explorer::Graph => Strategy::Optimal,
            Explorer::Reference => Strategy::Reference,
            Explorer::RfSmc if self.low_memory => Strategy::RfPartSmc,
            Explorer::RfSmc => Strategy::RfSmc,
            Explorer::RfPartSmc => Strategy::RfPartSmc,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Verify a C program (pthreads and C11 atomics), as GenMC does.
    #[command(after_help = report::EXIT_CODES_HELP)]
    Verify(verify::VerifyArgs),
    /// Explore one of porf's bundled Rust-built example programs (see --list).
    #[command(after_help = report::EXIT_CODES_HELP)]
    Example(example::ExampleArgs),
    /// Add up the reports of `porf verify --shard I/N` (I = 0 .. N-1) into the whole
    /// run's result, printed as `porf verify` prints it.
    #[command(after_help = report::EXIT_CODES_HELP)]
    Merge(shard::MergeArgs),
    /// Run herd's litmus tests (C11, AArch64, RISCV, PPC, X86) and print herd7's verdicts.
    #[command(after_help = litmus::EXIT_CODES_HELP)]
    Litmus(litmus::LitmusArgs),
    /// Decide whether a toy program (`.toy`) can fail an assertion under SRA or WRA,
    /// for loops of any length (Lahav and Boker's backward reachability).
    Reach(reach::ReachArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let code = match cli.cmd {
        Command::Verify(a) => verify::run(a),
        Command::Example(a) => example::run(a),
        Command::Merge(a) => shard::merge(a),
        Command::Litmus(a) => litmus::run(a),
        Command::Reach(a) => reach::run(a),
    };
    ExitCode::from(code)
}
