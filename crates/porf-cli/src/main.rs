//! `porf`: a stateless model checker for concurrent programs under weak memory models.

mod report;

use clap::{Parser, Subcommand, ValueEnum};
use porf_explore::{Config, Strategy};
use std::process::ExitCode;
use std::time::Duration;

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
enum Explorer {
    /// GenMC-style optimal exploration of execution graphs.
    Graph,
    /// Brute-force enumeration (exponential; for small programs).
    Reference,
}

#[derive(Subcommand)]
enum Command {
    /// Explore one of porf's bundled example programs (see --list).
    Example {
        /// The example's name.
        #[arg(required_unless_present = "list")]
        name: Option<String>,
        /// List the bundled examples.
        #[arg(long)]
        list: bool,
        /// Size parameter of parametric examples.
        #[arg(short = 'n', long, default_value_t = 3)]
        n: u32,
        /// Memory model.
        #[arg(long, default_value = "rc11", value_parser = porf_models::MODEL_NAMES.to_vec())]
        model: String,
        /// Exploration strategy.
        #[arg(long, value_enum, default_value_t = Explorer::Graph)]
        explorer: Explorer,
        /// Keep exploring after an error.
        #[arg(long)]
        keep_going: bool,
        /// Stop after this many complete executions.
        #[arg(long)]
        max_executions: Option<u64>,
        /// Stop after this many seconds.
        #[arg(long)]
        timeout: Option<f64>,
        /// Also print peak graph size and peak resident memory.
        #[arg(long)]
        stats: bool,
    },
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
    match cli.cmd {
        Command::Example {
            name,
            list,
            n,
            model,
            explorer,
            keep_going,
            max_executions,
            timeout,
            stats,
        } => {
            if list {
                for (name, about) in porf_toy::catalog::NAMES {
                    println!("{name:<12} {about}");
                }
                return ExitCode::SUCCESS;
            }
            let name = name.unwrap_or_default();
            let Some(prog) = porf_toy::catalog::by_name(&name, n) else {
                eprintln!("error: unknown example `{name}` (try `porf example --list`)");
                return ExitCode::from(2);
            };
            if let Some(t) = timeout {
                if !(t.is_finite() && t > 0.0) {
                    eprintln!("error: --timeout must be a positive number of seconds");
                    return ExitCode::from(2);
                }
            }
            let model = porf_models::by_name(&model).expect("clap checked the model name");
            let cfg = Config {
                keep_going,
                max_executions,
                timeout: timeout.map(Duration::from_secs_f64),
                collect_final_states: false,
            };
            let strategy = match explorer {
                Explorer::Graph => Strategy::Optimal,
                Explorer::Reference => Strategy::Reference,
            };
            let result = porf_explore::explore(strategy, &prog, model.as_ref(), &cfg);
            report::print_human(&result, &prog, stats);
            ExitCode::from(report::exit_code(&result))
        }
    }
}
