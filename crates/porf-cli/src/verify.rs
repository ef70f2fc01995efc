//! `porf verify FILE`: compile a C program with porf's front end, or parse a `.toy`
//! program (the toy language of Lahav and Boker's "What's Decidable About Causally
//! Consistent Shared Memory?", `porf-toylang`), and explore it.

use crate::{report, ExploreArgs};
use clap::Args;
use porf_c::{CProgram, FrontOptions, RunOptions};
use porf_explore::{Config, Equiv};
use porf_graph::{AllReleaseAcquire, Program, SrcLoc};
use std::path::PathBuf;

#[derive(Args)]
pub struct VerifyArgs {
    /// The program to verify: a C file, or a toy program (`.toy`).
    file: PathBuf,
    #[command(flatten)]
    explore: ExploreArgs,
    /// Execution equivalence: `co` counts (events, rf, co) executions as GenMC does;
    /// `rf` counts (events, rf) executions, one per reads-from class; `rvf` explores
    /// one SC trace per reads-value-from class (RVF-SMC; `--model sc` only). Default:
    /// `rf` with `--explorer rf-smc` (which explores reads-from classes), else `co`.
    #[arg(long, value_parser = ["co", "rf", "rvf"])]
    equiv: Option<String>,
    /// Define a preprocessor macro (`NAME` or `NAME=VALUE`).
    #[arg(short = 'D', value_name = "NAME[=VAL]")]
    define: Vec<String>,
    /// Add a directory to the include path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// The C data model: `lp64` (x86-64: `long` has 8 bytes) or `ilp32` (`long` has 4
    /// bytes, as SV-COMP's `data_model: ILP32` tasks; the preprocessor runs with
    /// `-m32`). Pointers keep porf's 8-byte representation in both (C programs).
    #[arg(long, value_name = "MODEL", default_value = "lp64", value_parser = ["lp64", "ilp32"])]
    data_model: String,
    /// Short for `--data-model ilp32` (gcc's spelling).
    #[arg(long = "m32")]
    m32: bool,
    /// Bound every loop: a loop statement's body about to start its (N+1)th run, or a
    /// cycle of the control flow (a loop built with goto) about to start its (N+1)th
    /// round, blocks the execution (blocked, not complete). A run that cuts an
    /// execution is incomplete: "No errors were detected up to the bound", exit code 4.
    #[arg(long, value_name = "N")]
    unroll: Option<u32>,
    /// A call that would make a function active more than N times at once (N nested
    /// recursive calls) blocks the execution, a cut like an --unroll one (the run is
    /// then incomplete, exit code 4) (C programs).
    #[arg(long, value_name = "N", default_value_t = porf_c::DEFAULT_RECURSION_LIMIT,
          value_parser = clap::value_parser!(u32).range(1..))]
    recursion_limit: u32,
    /// Explore spin loops instead of assuming they exit: without this flag, a loop
    /// iteration that wrote nothing and changed nothing live (it only read values that
    /// did not end the loop) blocks the execution instead of repeating (GenMC's
    /// spin-assume; C programs only).
    #[arg(long)]
    disable_spin_assume: bool,
    /// With spin-assume on, count only loads and failed compare-exchanges as reads of
    /// an iteration: an RMW writing back the value it read (an exchange of the value
    /// already there, a test-and-set of a set flag, fetch_add(0)) and a failed
    /// pthread_mutex_trylock then keep the iteration from blocking (C programs only).
    #[arg(long)]
    disable_zne_spin_assume: bool,
    /// Report a liveness violation (an error, exit 42) when, in a maximal execution,
    /// some threads are blocked in spin loops whose last iteration read only the
    /// co-latest values, and every other thread has finished or waits for good: those
    /// threads spin forever. Without it, porf finds the same executions (in rf and rvf
    /// mode, by each class's witness co) and prints a warning per thread and loop.
    #[arg(long)]
    check_liveness: bool,
    /// Also explore and count the blocked executions GenMC drops as "moot": below a lock
    /// acquire that reads a taken lock non-maximally, or a spin-assume block, failed
    /// assume or library wait whose last read was not the co-latest write when added,
    /// every execution is blocked
    /// (complete executions and errors are the same either way; see the README).
    #[arg(long)]
    explore_stale_blocks: bool,
    /// Disable symmetry reduction (GenMC's `-disable-sr`): explore separately the
    /// executions that differ only by swapping two threads spawned by
    /// `__VERIFIER_spawn_symmetric`, or found interchangeable (same function and
    /// argument, nothing telling them apart); see the README.
    #[arg(long)]
    disable_sr: bool,
    /// GenMC's `-disable-ipr`, accepted so that GenMC command lines run; it changes
    /// nothing: porf has no in-place revisiting (see the README), so a thread blocked
    /// in a spin loop or failed assume on the value of its last read is always
    /// revisited by a new write beside an exploration where it stays blocked.
    #[arg(long)]
    disable_ipr: bool,
    /// Add a thread's wait at a barrier as soon as the thread gets there, as any other
    /// load, instead of holding it back until the last thread of its round arrives
    /// (barrier-aware exploration, GenMC's BAM, whose -disable-bam this is): the same
    /// complete executions and errors, more blocked ones (see the README).
    #[arg(long)]
    disable_bam: bool,
    /// `abort()` blocks the execution like a failed assume instead of being an error
    /// (SV-COMP's reading: abort only ends the path; its tasks write `assume(e)` as
    /// `if (!(e)) abort();`) (C programs).
    #[arg(long)]
    abort_blocks: bool,
    /// Do not report non-atomic data races (GenMC's `-disable-race-detection`): a
    /// racy execution goes on and is counted like any other.
    #[arg(long)]
    disable_race_detection: bool,
    /// Report heap blocks never freed in a complete execution (malloc'd, never
    /// free'd, whether or not a global still points to them) as errors (exit 42, with a
    /// trace), one per allocation site; without it each site is a warning (as GenMC's
    /// "Unfreed memory").
    #[arg(long)]
    check_leaks: bool,
    /// The values `__VERIFIER_nondet_<type>()` returns, `LO..HI` inclusive (those the
    /// type can hold): each call branches over them, each value its own executions.
    /// Without it only `__VERIFIER_nondet_bool()` ({0, 1}) may be called (C programs).
    #[arg(long, value_name = "LO..HI", value_parser = parse_range, allow_hyphen_values = true)]
    nondet_range: Option<(i64, i64)>,
    /// Print one JSON object instead of GenMC's lines.
    #[arg(long)]
    json: bool,
    /// When no error is found, also print the trace of the first complete execution
    /// explored (in the error traces' format): what one run of the program does (not
    /// with --json or --shard).
    #[arg(long)]
    print_execution: bool,
    /// Write the first error's witness execution graph to FILE (Graphviz).
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,
    /// Also print peak graph size and peak resident memory (with --json: the key
    /// `peak_rss_kib`, porf's own peak resident memory in KiB).
    #[arg(long)]
    stats: bool,
    /// Explore only shard I of N (0 <= I < N) of the search tree and print a JSON
    /// report for `porf merge` (which gives the counts and verdict of the whole run);
    /// exit code 0 whenever the report was written. For running the shards on a batch
    /// system (see the README).
    #[arg(long, value_name = "I/N")]
    shard: Option<porf_explore::shard::Split>,
    /// With --shard: the most search-tree nodes the pre-pass that cuts the tree into
    /// subtrees may walk (every shard walks them; default 4096 per shard). A larger
    /// budget balances trees whose heavy subtrees show only deep down (README,
    /// "Sharding"), at that cost in every shard.
    #[arg(long, value_name = "NODES", requires = "shard",
          value_parser = clap::value_parser!(u64).range(1..))]
    shard_probe: Option<u64>,
}

impl VerifyArgs {
    /// The `--equiv` asked for, or the explorer's default (`rf` for rf-smc and
    /// rf-part-smc).
    fn equiv_name(&self) -> &str {
        use porf_explore::Strategy;
        match &self.equiv {
            Some(e) => e,
            None if matches!(
                self.explore.strategy(),
                Strategy::RfSmc | Strategy::RfPartSmc
            ) =>
            {
                "rf"
            }
            None => "co",
        }
    }

    /// The data model `--data-model` / `--m32` ask for.
    fn data_model(&self) -> &str {
        if self.m32 {
            "ilp32"
        } else {
            &self.data_model
        }
    }

    /// Everything that decides what an exploration of the file does (for `porf merge`,
    /// which adds up only reports of the same exploration): all flags but the output
    /// ones, `--timeout` and `--memory-limit` (limits of one machine's run).
    fn identity(&self) -> serde_json::Value {
        let e = &self.explore;
        serde_json::json!({
            "max_events_per_execution": e.max_events_per_execution,
            "model": e.model,
            "explorer": "graph",
            "equiv": self.equiv_name(),
            "keep_going": e.keep_going,
            "all_release_acquire": e.all_release_acquire,
            "defines": self.define,
            "include": self.include.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
            "data_model": self.data_model(),
            "unroll": self.unroll,
            "recursion_limit": self.recursion_limit,
            "disable_spin_assume": self.disable_spin_assume,
            "disable_zne_spin_assume": self.disable_zne_spin_assume,
            "check_liveness": self.check_liveness,
            "disable_race_detection": self.disable_race_detection,
            "check_leaks": self.check_leaks,
            "abort_blocks": self.abort_blocks,
            "explore_stale_blocks": self.explore_stale_blocks,
            "disable_sr": self.disable_sr,
            "disable_ipr": self.disable_ipr,
            "disable_bam": self.disable_bam,
            "shard_probe": self.shard_probe,
            "nondet_range": self.nondet_range.map(|(lo, hi)| [lo, hi]),
        })
    }
}

/// The most values `--nondet-range` may give one call.
const MAX_NONDET_VALUES: i128 = 1 << 20;

/// `LO..HI` (inclusive, `LO <= HI`, at most [`MAX_NONDET_VALUES`] values).
fn parse_range(s: &str) -> Result<(i64, i64), String> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| format!("`{s}` is not a range LO..HI"))?;
    let num = |x: &str| {
        x.trim()
            .parse::<i64>()
            .map_err(|e| format!("`{x}` in --nondet-range: {e}"))
    };
    let (lo, hi) = (num(lo)?, num(hi)?);
    if lo > hi {
        return Err(format!("empty range {lo}..{hi} (LO must be at most HI)"));
    }
    if hi as i128 - lo as i128 + 1 > MAX_NONDET_VALUES {
        return Err(format!(
            "{lo}..{hi} has more than {MAX_NONDET_VALUES} values (each is explored)"
        ));
    }
    Ok((lo, hi))
}

/// Runs the command; returns the exit code.
pub fn run(mut a: VerifyArgs) -> u8 {
    let equiv = match a.equiv_name() {
        "co" => Equiv::Co,
        "rf" => Equiv::Rf,
        "rvf" => Equiv::Rvf,
        other => {
            eprintln!("error: unknown --equiv {other} (`co`, `rf` or `rvf`)");
            return 2;
        }
    };
    let chosen = match crate::model_file::choose(&a.explore.model, a.explore.model_file.as_deref())
    {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("{msg}");
            return 3;
        }
    };
    a.explore.model = chosen.name.clone();
    let mut cfg = match a.explore.config(equiv) {
        Ok(c) => c,
        Err(msg) => {
            eprintln!("error: {msg}");
            return 2;
        }
    };
    if a.check_liveness && equiv != Equiv::Co {
        eprintln!(
            "error: --check-liveness needs --equiv co (\"co-latest\" is not defined for a \
             reads-from class)"
        );
        return 2;
    }
    cfg.check_liveness = a.check_liveness;
    if crate::progress::wanted(a.json, a.explore.no_progress) {
        cfg.progress = Some(Default::default());
    }
    cfg.disable_race_detection = a.disable_race_detection;
    cfg.check_leaks = a.check_leaks;
    if let Some(max) = cfg.max_events_per_execution {
        let t = porf_explore::growth::threshold(max);
        cfg.growth = Some(std::sync::Arc::new(porf_explore::growth::GrowthWatch::new(
            t,
        )));
    }
    cfg.explore_stale_blocks = a.explore_stale_blocks;
    cfg.disable_sr = a.disable_sr;
    cfg.disable_ipr = a.disable_ipr;
    cfg.disable_bam = a.disable_bam;
    cfg.keep_sample = a.print_execution;
    let model = &chosen.model;
    a.explore.pick_default(model.as_ref());
    if let Err(msg) = porf_explore::supported(a.explore.strategy(), model.as_ref(), equiv) {
        eprintln!("error: {msg}");
        return 2;
    }
    if a.shard.is_some() {
        if let Err(msg) = porf_explore::shard::supported(a.explore.strategy(), model.as_ref(), &cfg)
        {
            eprintln!("error: {msg}");
            return 2;
        }
        if a.dot.is_some() {
            eprintln!("error: --dot is unsupported with --shard (a shard's report holds the witness trace; `porf merge` prints it)");
            return 2;
        }
    }
    if a.file.extension().is_some_and(|e| e == "toy") {
        if !a.define.is_empty() || !a.include.is_empty() {
            eprintln!("error: -D and -I apply to C files, not to toy programs");
            return 2;
        }
        let prog = match porf_toylang::parse_file(&a.file) {
            Ok(p) => p,
            Err(d) => {
                eprintln!("{d}");
                return 3;
            }
        };
        let run = porf_toylang::RunOptions { unroll: a.unroll };
        let prog = porf_toylang::ToyLangProgram::new(prog, run);
        let bounds = report::Bounds::unroll(a.unroll);
        let strategy = a.explore.strategy();
        return explore_and_report(&a, &prog, &chosen, &cfg, &[], bounds, strategy);
    }
    let front = FrontOptions {
        defines: a.define.clone(),
        include_dirs: a.include.clone(),
        data_model: match a.data_model() {
            "ilp32" => porf_c::DataModel::Ilp32,
            _ => porf_c::DataModel::Lp64,
        },
    };
    let module = match porf_c::compile_file(&a.file, &front) {
        Ok(m) => m,
        Err(d) => {
            eprintln!("{d}");
            return 3;
        }
    };
    for w in &module.warnings {
        eprintln!("{w}");
    }
    let run = RunOptions {
        unroll: a.unroll,
        spin_assume: !a.disable_spin_assume,
        disable_zne_spin_assume: a.disable_zne_spin_assume,
        spin_private_writes: !matches!(a.explore.model.as_str(), "pso" | "wra")
            && chosen.cat.is_none(),
        nondet_range: a.nondet_range,
        recursion_limit: Some(a.recursion_limit),
        abort_blocks: a.abort_blocks,
    };
    let bounds = report::Bounds {
        unroll: a.unroll,
        recursion: Some(a.recursion_limit),
        hints: module.funcs.iter().any(|f| f.has_loop_hints()),
    };
    let prog = CProgram::new(module, run);
    let loops = prog.spin_loops();
    let mut strategy = a.explore.strategy();
    if prog.atomic_sections() {
        // SV-COMP's atomic sections: the reference explorer runs them exactly
        // (porf_explore::supported_sections); the default graph explorer hands over.
        let handed_over = strategy == porf_explore::Strategy::Optimal && a.shard.is_none();
        if handed_over {
            strategy = porf_explore::Strategy::Reference;
        }
        if let Err(msg) = porf_explore::supported_sections(strategy, model.as_ref(), equiv) {
            eprintln!("{}: unsupported: {msg}", a.file.display());
            return 3;
        }
        if handed_over {
            eprintln!(
                "{}: note: the program has atomic sections (`__VERIFIER_atomic_*`): \
                 exploring its interleavings with the reference explorer",
                a.file.display()
            );
        }
    }
    if a.explore.all_release_acquire {
        explore_and_report(
            &a,
            &AllReleaseAcquire(prog),
            &chosen,
            &cfg,
            &loops,
            bounds,
            strategy,
        )
    } else {
        explore_and_report(&a, &prog, &chosen, &cfg, &loops, bounds, strategy)
    }
}

/// The loops spin-assume watches, with the number of blocked executions each ended in
/// (every natural loop of the program, then any other blocked position): `(location,
/// function, blocked)`, in source order; `name` gives a location's text.
pub(crate) fn spin_rows(
    s: &porf_explore::Stats,
    loops: &[(SrcLoc, String)],
    name: impl Fn(SrcLoc) -> String,
) -> Vec<(String, String, u64)> {
    let mut rows: Vec<(SrcLoc, String, u64)> = loops
        .iter()
        .map(|(src, f)| {
            (
                *src,
                f.clone(),
                s.spin_blocked.get(src).copied().unwrap_or(0),
            )
        })
        .collect();
    for (src, n) in &s.spin_blocked {
        if !loops.iter().any(|(l, _)| l == src) {
            rows.push((*src, String::new(), *n));
        }
    }
    rows.sort_by_key(|(s, f, _)| (s.file, s.line, s.col, f.clone()));
    rows.into_iter()
        .map(|(src, f, n)| (name(src), f, n))
        .collect()
}

/// The allocation sites of blocks never freed in complete executions
/// ([`porf_explore::Stats::leaks`]): location, function, executions; by location.
pub(crate) fn leak_rows(
    s: &porf_explore::Stats,
    name: impl Fn(SrcLoc) -> String,
    func: impl Fn(SrcLoc) -> Option<String>,
) -> Vec<(String, Option<String>, u64)> {
    let mut sites: Vec<(&SrcLoc, &u64)> = s.leaks.iter().collect();
    sites.sort_by_key(|(l, _)| (l.file, l.line, l.col));
    sites
        .into_iter()
        .map(|(l, n)| (name(*l), func(*l), *n))
        .collect()
}

/// The warning about one allocation site of [`leak_rows`].
fn leak_warning((loc, func, n): &(String, Option<String>, u64)) -> String {
    let within = func
        .as_ref()
        .map_or(String::new(), |f| format!(" in {f}()"));
    let execs = if *n == 1 { "execution" } else { "executions" };
    format!(
        "unfreed memory: a block allocated at {loc}{within} is never freed, in {n} \
         complete {execs} (--check-leaks makes it an error)"
    )
}

/// Explores `prog` and prints the result; returns the exit code.
fn explore_and_report<P: Program + Sync>(
    a: &VerifyArgs,
    prog: &P,
    chosen: &crate::model_file::Chosen,
    cfg: &Config,
    loops: &[(SrcLoc, String)],
    bounds: report::Bounds,
    strategy: porf_explore::Strategy,
) -> u8 {
    let model = chosen.model.as_ref();
    if let Some(split) = a.shard {
        let id = crate::shard::Identity {
            file: &a.file,
            config: a.identity(),
            bounds,
        };
        let budget = a
            .shard_probe
            .unwrap_or_else(|| porf_explore::shard::budget(split.count));
        return crate::shard::run(&id, prog, model, cfg, loops, split, budget);
    }
    let max = cfg.max_events_per_execution.unwrap_or(0);
    let note = |g: &porf_explore::Growth| {
        crate::limits::growth_note(
            g,
            max,
            |s| report::trace::location(prog, s),
            prog.function_at(g.last),
        )
    };
    let result = crate::limits::explore_watching(strategy, prog, model, cfg, &note);
    if let Some(e) = chosen.runtime_error() {
        eprintln!("{e}");
        return 3;
    }
    for e in result
        .errors
        .iter()
        .filter(|e| e.class == porf_explore::ErrorClass::Unsupported)
    {
        eprintln!("{}", unsupported_line(prog, e));
    }
    if let Some(path) = &a.dot {
        match result.errors.first() {
            Some(e) => {
                if let Err(err) = std::fs::write(path, report::dot::error_dot(prog, e)) {
                    eprintln!("error: cannot write {}: {err}", path.display());
                    return 2;
                }
            }
            None => eprintln!(
                "note: no error, so no witness graph was written to {}",
                path.display()
            ),
        }
    }
    let out = Rendered {
        blocks: result
            .errors
            .iter()
            .map(|e| report::error_block(e, prog))
            .collect(),
        json: result
            .errors
            .iter()
            .map(|e| report::json::error_json(e, prog))
            .collect(),
        counts: result
            .errors
            .iter()
            .map(|e| cfg.keep_going.then(|| result.executions_with(e)))
            .collect(),
        rows: spin_rows(&result, loops, |s| report::trace::location(prog, s)),
        leaks: leak_rows(
            &result,
            |s| report::trace::location(prog, s),
            |s| prog.function_at(s),
        ),
        growth: crate::limits::growth_line(&result, |s| report::trace::location(prog, s)),
        hangs: report::liveness::hangs(&result, loops, |s| report::trace::location(prog, s)),
    };
    let how = Format {
        json: a.json,
        stats: a.stats,
        model: &a.explore.model,
        equiv: a.equiv_name(),
        bounds,
    };
    let code = print_result(&result, &out, &how, None);
    if let (Some(g), true, false) = (&result.sample, result.errors.is_empty(), a.json) {
        report::emit(&report::execution_block(prog, g));
    }
    code
}

/// The line on stderr for an unsupported-construct error: `file:line:col: unsupported: ...`.
pub(crate) fn unsupported_line<P: Program>(prog: &P, e: &porf_explore::ErrorReport) -> String {
    let loc = e
        .events
        .first()
        .map_or(String::new(), |(_, s)| report::trace::location(prog, *s));
    format!("{loc}: unsupported: {}", e.message)
}

/// A result's errors and spin-loop rows, rendered (by `porf verify` from the program,
/// or by `porf merge` from the shards' reports).
pub(crate) struct Rendered {
    /// [`report::error_block`] of each error.
    pub blocks: Vec<String>,
    /// [`report::json::error_json`] of each error.
    pub json: Vec<serde_json::Value>,
    /// With `--keep-going`: for each error, the executions explored that contain it
    /// ([`porf_explore::Stats::error_counts`]); `None` without.
    pub counts: Vec<Option<u64>>,
    /// [`spin_rows`].
    pub rows: Vec<(String, String, u64)>,
    /// [`leak_rows`].
    pub leaks: Vec<(String, Option<String>, u64)>,
    /// When a size limit stopped the run: what grew ([`crate::limits::growth_line`]),
    /// a warning.
    pub growth: Option<String>,
    /// [`report::liveness::hangs`].
    pub hangs: Vec<report::liveness::Hang>,
}

/// How to print a result.
pub(crate) struct Format<'a> {
    pub json: bool,
    pub stats: bool,
    pub model: &'a str,
    pub equiv: &'a str,
    pub bounds: report::Bounds,
}

/// Prints the warnings on stderr and the result (GenMC's lines or one JSON object) on
/// stdout; `extra`: more lines (human) or a field (JSON) to add. Returns the exit code.
pub(crate) fn print_result(
    result: &porf_explore::Stats,
    out: &Rendered,
    how: &Format,
    extra: Option<(String, &str, serde_json::Value)>,
) -> u8 {
    let mut warnings = report::warnings(result, how.bounds);
    warnings.extend(out.growth.clone());
    warnings.extend(out.leaks.iter().map(leak_warning));
    warnings.extend(report::liveness::warnings(&out.hangs, result));
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    let mut json = out.json.clone();
    let mut blocks = out.blocks.clone();
    for (i, n) in out.counts.iter().enumerate() {
        if let Some(n) = *n {
            if let Some(j) = json.get_mut(i) {
                // 0: found where the counts do not reach ([`report::found_in`]).
                j["executions"] = if n == 0 {
                    serde_json::Value::Null
                } else {
                    n.into()
                };
            }
            if let Some(b) = blocks.get_mut(i) {
                b.push_str(&report::found_in(n));
            }
        }
    }
    if how.json {
        let mut v = report::json::to_json_with(result, json, how.model, how.equiv, &warnings);
        if how.stats {
            // porf's own peak (not that of the preprocessor it runs), for benchmarks.
            v["peak_rss_kib"] = report::peak_rss_kib().into();
        }
        if !out.hangs.is_empty() {
            v["spin_forever"] = out
                .hangs
                .iter()
                .map(|h| {
                    serde_json::json!({"thread": h.thread, "location": h.location,
                                       "function": h.function, "main_finished": h.main_finished,
                                       "executions": h.executions})
                })
                .collect();
        }
        if !out.rows.is_empty() {
            v["spin_loops"] = out
                .rows
                .iter()
                .map(|(l, f, n)| serde_json::json!({"location": l, "function": f, "blocked": n}))
                .collect();
        }
        if let Some((_, field, value)) = extra {
            v[field] = value;
        }
        report::emit(&format!("{v}\n"));
    } else {
        report::emit(&report::human_with(
            result,
            &blocks,
            how.stats && extra.is_none(),
            how.bounds.hints,
        ));
        if how.stats && !out.rows.is_empty() {
            println!(
                "Loops watched by spin-assume (--disable-spin-assume to explore them): {}",
                out.rows.len()
            );
            for (l, f, n) in &out.rows {
                let f = if f.is_empty() {
                    String::new()
                } else {
                    format!(" in {f}")
                };
                let plural = if *n == 1 { "" } else { "s" };
                println!("  {l}{f}: {n} blocked execution{plural}");
            }
        }
        if let Some((lines, _, _)) = extra {
            report::emit(&lines);
        }
    }
    report::judge(result).exit
}
