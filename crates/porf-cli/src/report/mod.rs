//! Results for people and for programs: GenMC's lines (so users can compare line by
//! line), a JSON object, a Graphviz witness, and the exit code.

pub mod dot;
pub mod json;
pub mod liveness;
pub mod trace;

use porf_explore::{ErrorClass, Stats};
use porf_graph::Program;

/// Exit code of a run that found no error but was cut by `--timeout` or
/// `--max-executions`: not a proof, so not 0.
pub const EXIT_INCOMPLETE: u8 = 4;

/// The exit codes, as `--help` shows them (keep in sync with [`exit_code`] and the
/// README).
pub const EXIT_CODES_HELP: &str = "Exit codes:
  0   no error found, every execution explored
  4   no error found, but --timeout or --max-executions stopped the exploration
      (incomplete: not a proof)
  42  an error was found (as GenMC), also when a limit stopped the exploration later
  2   usage error
  3   unsupported or malformed input";

/// 3 when the program did something porf does not model (no verdict is possible),
/// 42 (as GenMC) when an error was found (errors are definitive, limit or not),
/// [`EXIT_INCOMPLETE`] when none was found but a limit cut the exploration, 0 when
/// none was found in a complete exploration.
pub fn exit_code(s: &Stats) -> u8 {
    if s.errors.iter().any(|e| e.class == ErrorClass::Unsupported) {
        3
    } else if !s.errors.is_empty() {
        42
    } else if s.partial() {
        EXIT_INCOMPLETE
    } else {
        0
    }
}

/// The verdict word: the class of the first error; else `incomplete` if a limit cut
/// the exploration; else `safe`.
pub fn verdict(s: &Stats) -> &'static str {
    match s.errors.first() {
        Some(e) => e.class.verdict(),
        None if s.partial() => "incomplete",
        None => "safe",
    }
}

/// The user's bounds that cut executions short (both block with
/// `BlockReason::LoopBound` and count in `Stats::bound_cut`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Bounds {
    /// `--unroll N`, if given.
    pub unroll: Option<u32>,
    /// The recursion limit in force (C programs: `--recursion-limit`, or its default).
    pub recursion: Option<u32>,
}

impl Bounds {
    /// Bounds with only a loop bound (programs without function calls to bound).
    pub fn unroll(unroll: Option<u32>) -> Bounds {
        Bounds {
            unroll,
            recursion: None,
        }
    }

    /// "the --unroll N loop bound", "the --recursion-limit N recursion bound", both
    /// joined by "or", or "a loop bound" when none is known.
    fn describe(&self) -> String {
        let mut d = Vec::new();
        if let Some(n) = self.unroll {
            d.push(format!("the --unroll {n} loop bound"));
        }
        if let Some(n) = self.recursion {
            d.push(format!("the --recursion-limit {n} recursion bound"));
        }
        match d.is_empty() {
            true => "the --unroll loop bound".to_string(),
            false => d.join(" or "),
        }
    }
}

/// Warnings about a result that looks better than it is: no execution ran to its end
/// (every one blocked, or the limit came first), or some execution was cut by a bound
/// (`bounds`: the loop and recursion bounds in force).
pub fn warnings(s: &Stats, bounds: Bounds) -> Vec<String> {
    let mut w = Vec::new();
    if s.complete == 0 && s.errors.is_empty() {
        let why = if s.blocked > 0 {
            let mut by = vec!["by failed assumes".to_string()];
            if !s.spin_blocked.is_empty() {
                by.push("by spin loops assumed to exit (see --check-liveness)".into());
            }
            if bounds.unroll.is_some() || s.bound_cut > 0 {
                by.push(format!("by {}", bounds.describe()));
            }
            let by = match by.len() {
                1 => by.remove(0),
                _ => {
                    let last = by.pop().unwrap_or_default();
                    format!("{} or {last}", by.join(", "))
                }
            };
            let all = match s.blocked {
                1 => "the only execution explored was".to_string(),
                n => format!("all {n} executions explored were"),
            };
            format!("{all} blocked ({by})")
        } else if let Some(r) = s.stopped_by {
            format!("{r} stopped the exploration before any execution ended")
        } else {
            "the exploration found no execution".to_string()
        };
        w.push(format!(
            "no complete execution: {why}; the program never ran to its end"
        ));
    }
    if s.bound_cut > 0 {
        w.push(format!(
            "{} {} reached {} and {} not explored further: \
             the result holds only up to the bound",
            s.bound_cut,
            plural(s.bound_cut, "execution", "executions"),
            bounds.describe(),
            plural(s.bound_cut, "was", "were"),
        ));
    }
    w
}

/// Prints each of [`warnings`] on stderr.
pub fn print_warnings(s: &Stats, bounds: Bounds) {
    for w in warnings(s, bounds) {
        eprintln!("warning: {w}");
    }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Writes `text` to stdout; a closed pipe (`porf ... | head`) is not an error.
pub fn emit(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Prints GenMC's result lines, each error with its witness interleaving.
pub fn print_human<P: Program>(s: &Stats, prog: &P, stats: bool) {
    emit(&human(s, prog, stats));
}

/// GenMC's result lines, each error with its witness interleaving.
pub fn human<P: Program>(s: &Stats, prog: &P, stats: bool) -> String {
    let blocks: Vec<String> = s.errors.iter().map(|e| error_block(e, prog)).collect();
    human_with(s, &blocks, stats)
}

/// The lines [`human`] prints for one error: what, where, and the witness interleaving.
pub fn error_block<P: Program>(err: &porf_explore::ErrorReport, prog: &P) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(o, "Error: {}!", describe(err.class));
    let _ = writeln!(o, "{}", err.message);
    for (_, src) in &err.events {
        let loc = trace::location(prog, *src);
        if !loc.is_empty() {
            let _ = writeln!(o, "  at {loc}");
        }
    }
    let _ = writeln!(
        o,
        "Trace ((thread, event), what, value, reads from, location):"
    );
    for st in trace::steps(prog, &err.witness) {
        for text in &st.printed {
            let _ = writeln!(o, "  T{:<7} printed {:?}", st.thread, text);
        }
        let val = match (&st.shown, st.value) {
            (Some(s), _) => s.clone(),
            (None, v) => v.map_or(String::new(), |v| v.to_string()),
        };
        let id = format!("({}, {})", st.thread, st.index);
        let from = st.reads_from.as_deref().unwrap_or("");
        let _ = writeln!(
            o,
            "  {:<8} {:<32} {:>6} {:<8}  {}",
            id, st.event, val, from, st.location
        );
    }
    o
}

/// [`human`] with the errors' lines given ([`error_block`] of each of `s.errors`, in
/// order): `porf merge` prints errors rendered by the shards.
pub fn human_with(s: &Stats, blocks: &[String], stats: bool) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    if s.errors.is_empty() {
        if s.partial() {
            let _ = writeln!(
                o,
                "No errors were detected in the executions explored (incomplete)."
            );
        } else {
            let _ = writeln!(o, "No errors were detected.");
        }
    }
    for b in blocks {
        o.push_str(b);
    }
    if let Some(r) = s.stopped_by {
        let so = if s.errors.is_empty() {
            "this is not a proof that the program is correct"
        } else {
            "the errors above are real, but others may have been missed"
        };
        let _ = writeln!(
            o,
            "Exploration incomplete: stopped by {r} after {} complete {}; {so}.",
            s.complete,
            plural(s.complete, "execution", "executions")
        );
    }
    let _ = writeln!(o, "Number of complete executions explored: {}", s.complete);
    if s.blocked > 0 {
        let _ = writeln!(o, "Number of blocked executions seen: {}", s.blocked);
        if s.bound_cut > 0 {
            let _ = writeln!(
                o,
                "  of which cut by the --unroll or --recursion-limit bound: {}",
                s.bound_cut
            );
        }
    }
    let _ = writeln!(o, "Total wall-clock time: {:.2}s", s.elapsed.as_secs_f64());
    if stats {
        let _ = writeln!(o, "Peak graph size: {} events", s.peak_graph_size);
        let p = &s.parallel;
        if let Some(why) = p.one_thread_reason {
            let _ = writeln!(o, "Explored on one thread (--threads ignored): {why}");
        } else if p.workers > 1 {
            let _ = writeln!(
                o,
                "Explored on {} threads ({} subtrees handed between them; {:.2}s spent waiting for one, all threads together)",
                p.workers,
                p.tasks,
                p.waited.as_secs_f64()
            );
        }
        if s.revisit_states > 0 {
            let _ = writeln!(
                o,
                "Backward-revisit graphs recorded (rf mode): {}",
                s.revisit_states
            );
        }
        let m = &s.smc;
        if m.calls > 0 {
            let _ = writeln!(o, "Traces explored (RF-SMC calls): {}", m.calls);
            let _ = writeln!(
                o,
                "Mutations proposed: {} ({} already scheduled)",
                m.mutations, m.duplicates
            );
            let w = &m.witness;
            let _ = writeln!(
                o,
                "Realisability tests: {} run, {} failed ({} by a local pre-check, {} by the closure)",
                w.tests, w.failed, w.by_precheck, w.by_closure
            );
            let _ = writeln!(o, "Most schedules pending at once: {}", m.peak_pending);
            if s.repeated_classes > 0 {
                let _ = writeln!(
                    o,
                    "Traces of a class explored before (counted once): {}",
                    s.repeated_classes
                );
            }
        }
        if let Some(r) = s.rvf {
            let _ = writeln!(o, "RVF traces explored: {}", r.traces);
            let _ = writeln!(o, "RVF classes: {}", r.classes);
            let _ = writeln!(
                o,
                "Witnesses tried (VerifySC calls): {} ({} failed, {} refuted by the closure)",
                r.witness_calls, r.witness_failed, r.closure_refuted
            );
            let _ = writeln!(
                o,
                "Per-class error searches: {} ({} found a witness)",
                r.error_searches, r.error_searches_found
            );
        }
        let _ = match peak_rss_kib() {
            Some(k) => writeln!(o, "Peak resident memory: {k} KiB"),
            None => writeln!(o, "Peak resident memory: unknown"),
        };
    }
    o
}

fn describe(c: ErrorClass) -> &'static str {
    use porf_explore::ErrorClass::*;
    match c {
        Assertion => "Safety violation",
        Abort => "Program aborted",
        Memory => "Memory error",
        Race => "Non-atomic race",
        Deadlock => "Deadlock",
        Lock => "Invalid unlock() operation",
        Unsupported => "Unsupported construct",
        Liveness => "Liveness violation",
    }
}

/// The process's peak resident set size (VmHWM), where the OS reports it.
pub fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
