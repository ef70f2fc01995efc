//! `porf example`: the Rust-built catalogue of classic programs.

use crate::{report, ExploreArgs};
use clap::Args;

#[derive(Args)]
pub struct ExampleArgs {
    /// The example's name.
    #[arg(required_unless_present = "list")]
    name: Option<String>,
    /// List the bundled examples.
    #[arg(long)]
    list: bool,
    /// Size parameter of parametric examples.
    #[arg(short = 'n', long, default_value_t = 3)]
    n: u32,
    #[command(flatten)]
    explore: ExploreArgs,
    /// Also print peak graph size and peak resident memory.
    #[arg(long)]
    stats: bool,
}

/// Runs the command; returns the exit code.
pub fn run(mut a: ExampleArgs) -> u8 {
    if a.list {
        for (name, about) in porf_toy::catalog::NAMES {
            println!("{name:<12} {about}");
        }
        return 0;
    }
    let name = a.name.unwrap_or_default();
    let Some(prog) = porf_toy::catalog::by_name(&name, a.n) else {
        eprintln!("error: unknown example `{name}` (try `porf example --list`)");
        return 2;
    };
    let mut cfg = match a.explore.config(porf_explore::Equiv::Co) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    if crate::progress::wanted(false, a.explore.no_progress) {
        cfg.progress = Some(Default::default());
    }
    let chosen = match crate::model_file::choose(&a.explore.model, a.explore.model_file.as_deref())
    {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("{msg}");
            return 3;
        }
    };
    let model = &chosen.model;
    a.explore.pick_default(model.as_ref());
    if let Err(msg) = porf_explore::supported(a.explore.strategy(), model.as_ref(), cfg.equiv) {
        eprintln!("error: {msg}");
        return 2;
    }
    let result = if a.explore.all_release_acquire {
        crate::progress::explore(
            a.explore.strategy(),
            &porf_graph::AllReleaseAcquire(prog.clone()),
            model.as_ref(),
            &cfg,
        )
    } else {
        crate::progress::explore(a.explore.strategy(), &prog, model.as_ref(), &cfg)
    };
    if let Some(e) = chosen.runtime_error() {
        eprintln!("{e}");
        return 3;
    }
    report::print_warnings(&result, report::Bounds::default());
    if let Some(g) = crate::limits::growth_line(&result, |s| report::trace::location(&prog, s)) {
        eprintln!("warning: {g}");
    }
    report::print_human(&result, &prog, a.stats);
    report::judge(&result).exit
}
