//! Results for people and for programs: GenMC's lines (so users can compare line by
//! line), a JSON object, a Graphviz witness, and the exit code.

pub mod dot;
pub mod json;
pub mod liveness;
pub mod ops;
pub mod trace;
pub mod why;

use porf_explore::{ErrorClass, Limit, Stats};
use porf_graph::Program;

/// Exit code of a run that found no error but whose exploration was incomplete
/// (stopped by a limit, or with executions cut by a bound): not a proof, so not 0.
pub const EXIT_INCOMPLETE: u8 = 4;

/// Exit code of a run whose only errors are non-termination (`ErrorClass::NonTermination`).
pub const EXIT_NONTERMINATION: u8 = 5;

/// The exit codes, as `--help` shows them (keep in sync with [`judge`] and the
/// README).
pub const EXIT_CODES_HELP: &str = "Exit codes:
  0   no error found, and the exploration was complete: every execution explored to
      its end
  4   no error found, but the exploration was incomplete: --timeout or
      --max-executions stopped it, or the --unroll loop bound or the
      --recursion-limit cut some execution (\"No errors were detected up to the
      bound\"; JSON verdict \"incomplete\", stopped_by names the limit): not a proof
  42  an error was found (as GenMC), also when a limit stopped or cut the
      exploration
  5   the only errors found are non-termination: a thread's local loop never
      ends (its state repeats)
  2   usage error
  3   unsupported or malformed input";

/// What a result means: its verdict word, its exit code and the limit that keeps it
/// from being a proof, if one does.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Verdict {
    /// JSON's `verdict`: the first error's class, else `incomplete`, else `safe`.
    pub word: &'static str,
    pub exit: u8,
    /// [`Stats::limit`]: `None` exactly when the exploration was complete.
    pub limit: Option<Limit>,
}

/// The one rule for every limit. An error found is the verdict (exit 42, or 3 when
/// porf met something it does not model: no verdict is possible, or
/// [`EXIT_NONTERMINATION`] when every error is non-termination), limit or not:
/// errors are definitive. Without one, `safe` and exit 0 only when the exploration
/// was complete; when a limit stopped it or a bound cut an execution
/// ([`Stats::limit`]), `incomplete` and [`EXIT_INCOMPLETE`].
pub fn judge(s: &Stats) -> Verdict {
    let limit = s.limit();
    let unsupported = s.errors.iter().any(|e| e.class == ErrorClass::Unsupported);
    let only_nonterm = s
        .errors
        .iter()
        .all(|e| e.class == ErrorClass::NonTermination);
    let (word, exit) = match s.errors.first() {
        Some(e) => (
            e.class.verdict(),
            if unsupported {
                3
            } else if only_nonterm {
                EXIT_NONTERMINATION
            } else {
                42
            },
        ),
        None if limit.is_some() => ("incomplete", EXIT_INCOMPLETE),
        None => ("safe", 0),
    };
    Verdict { word, exit, limit }
}

#[cfg(test)]
mod tests {
    use super::*;
    use porf_explore::{ErrorReport, StopReason};

    fn error(class: ErrorClass) -> ErrorReport {
        ErrorReport {
            class,
            message: String::new(),
            events: Vec::new(),
            witness: porf_graph::Graph::new(),
        }
    }

    /// One rule: safe/0 only for a complete exploration; a stop or a cut without an
    /// error is incomplete/4 naming the limit; an error is the verdict, limit or not.
    #[test]
    fn judge_applies_one_rule_to_every_limit() {
        let mut s = Stats {
            complete: 2,
            blocked: 1,
            ..Stats::default()
        };
        let v = judge(&s);
        assert_eq!((v.word, v.exit, v.limit), ("safe", 0, None));
        s.bound_cut = 1;
        let v = judge(&s);
        assert_eq!((v.word, v.exit), ("incomplete", EXIT_INCOMPLETE));
        assert_eq!(v.limit.map(Limit::name), Some("loop bound"));
        s.recursion_cut = 1;
        assert_eq!(judge(&s).limit.map(Limit::name), Some("recursion limit"));
        s.stopped_by = Some(StopReason::MaxExecutions(2));
        let v = judge(&s);
        assert_eq!((v.word, v.exit), ("incomplete", EXIT_INCOMPLETE));
        assert_eq!(v.limit.map(Limit::name), Some("max-executions"));
        s.errors.push(error(ErrorClass::Assertion));
        let v = judge(&s);
        assert_eq!((v.word, v.exit), ("assertion", 42));
        s.errors.push(error(ErrorClass::Unsupported));
        assert_eq!(judge(&s).exit, 3);
    }

    /// The human line says which kind of limit kept the run from being a proof.
    #[test]
    fn the_first_line_names_the_kind_of_limit() {
        let mut s = Stats {
            complete: 2,
            blocked: 1,
            ..Stats::default()
        };
        assert!(human_with(&s, &[], false, false).starts_with("No errors were detected.\n"));
        s.bound_cut = 1;
        let h = human_with(&s, &[], false, false);
        assert!(
            h.starts_with("No errors were detected up to the bound.\n"),
            "{h}"
        );
        assert!(
            h.contains("  of which cut by the loop bound (--unroll): 1\n"),
            "{h}"
        );
        // A program with __VERIFIER_loop_bound hints: the bound may be a hint's.
        let h = human_with(&s, &[], false, true);
        assert!(
            h.contains(
                "  of which cut by the loop bound (--unroll or a __VERIFIER_loop_bound hint): 1\n"
            ),
            "{h}"
        );
        s.stopped_by = Some(StopReason::MaxExecutions(2));
        let h = human_with(&s, &[], false, false);
        assert!(
            h.starts_with("No errors were detected in the executions explored (incomplete).\n"),
            "{h}"
        );
    }
}

/// The user's bounds that cut executions short (blocks with
/// `BlockReason::LoopBound` and `BlockReason::RecursionLimit`, counted in
/// `Stats::bound_cut`).
#[derive(Copy, Clone, Debug, Default)]
pub struct Bounds {
    /// `--unroll N`, if given.
    pub unroll: Option<u32>,
    /// The recursion limit in force (C programs: `--recursion-limit`, or its default).
    pub recursion: Option<u32>,
    /// The program has `__VERIFIER_loop_bound` hints (Dat3M's per-loop bounds), which
    /// cut loops as `--unroll` does.
    pub hints: bool,
}

impl Bounds {
    /// Bounds with only a loop bound (programs without function calls to bound).
    pub fn unroll(unroll: Option<u32>) -> Bounds {
        Bounds {
            unroll,
            recursion: None,
            hints: false,
        }
    }

    /// "the --unroll N loop bound" (or "the --unroll loop bound" when unknown).
    fn loop_bound(&self) -> String {
        match (self.unroll, self.hints) {
            (Some(n), false) => format!("the --unroll {n} loop bound"),
            (None, false) => "the --unroll loop bound".to_string(),
            (Some(n), true) => {
                format!("the --unroll {n} loop bound or a __VERIFIER_loop_bound hint's")
            }
            (None, true) => "a __VERIFIER_loop_bound hint's loop bound".to_string(),
        }
    }

    /// "the --recursion-limit N recursion bound" (N omitted when unknown).
    fn recursion_bound(&self) -> String {
        match self.recursion {
            Some(n) => format!("the --recursion-limit {n} recursion bound"),
            None => "the --recursion-limit recursion bound".to_string(),
        }
    }

    /// The bounds that cut the executions of `s`: the loop bound, the recursion
    /// bound, or both (the loop bound when some execution was cut without reaching
    /// the recursion limit).
    fn that_cut(&self, s: &Stats) -> String {
        match (s.bound_cut > s.recursion_cut, s.recursion_cut > 0) {
            (true, true) => format!("{} or {}", self.loop_bound(), self.recursion_bound()),
            (false, true) => self.recursion_bound(),
            _ => self.loop_bound(),
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
            if s.bound_cut > 0 {
                by.push(format!("by {}", bounds.that_cut(s)));
            } else if bounds.unroll.is_some() || bounds.hints {
                by.push(format!("by {}", bounds.loop_bound()));
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
            bounds.that_cut(s),
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

/// The line after an error's trace with `--keep-going`: how many of the executions
/// explored contain it (`porf_explore::Stats::error_counts`).
/// An error whose executions were not counted (`n == 0`: found by rf-smc or `--equiv
/// rvf` in a class, or in a subtree the counts skip) says so instead of claiming none.
pub fn found_in(n: u64) -> String {
    if n == 0 {
        return "Found in an execution this exploration does not count one by one.\n".into();
    }
    format!(
        "Found in {n} {} explored.\n",
        plural(n, "execution", "executions")
    )
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
    human_with(s, &blocks, stats, false)
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
    if let Some(why) = why::explain(prog, err) {
        for line in why.lines() {
            let _ = writeln!(o, "{line}");
        }
    }
    o.push_str(&trace_lines(prog, &err.witness));
    o
}

/// The lines of `g`'s witness interleaving, under their heading.
fn trace_lines<P: Program>(prog: &P, g: &porf_graph::Graph) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Trace ((thread, event), what, value, reads from, location):"
    );
    for st in trace::steps(prog, g) {
        for text in &st.printed {
            let _ = writeln!(o, "  T{:<7} printed {:?}", st.thread, text);
        }
        let val = match (&st.shown, st.value) {
            (Some(s), _) => s.clone(),
            (None, v) => v.map_or(String::new(), |v| v.to_string()),
        };
        let id = st.id();
        let from = st.reads_from.as_deref().unwrap_or("");
        let _ = writeln!(
            o,
            "  {:<8} {:<32} {:>6} {:<8}  {}",
            id, st.event, val, from, st.location
        );
    }
    o
}

/// The trace of a complete execution (`porf verify --print-execution`).
pub fn execution_block<P: Program>(prog: &P, g: &porf_graph::Graph) -> String {
    let mut o = String::from("A complete execution:\n");
    o.push_str(&trace_lines(prog, g));
    o
}

/// [`human`] with the errors' lines given ([`error_block`] of each of `s.errors`, in
/// order): `porf merge` prints errors rendered by the shards. `hints`: the program has
/// `__VERIFIER_loop_bound` hints, which cut executions as `--unroll` does.
pub fn human_with(s: &Stats, blocks: &[String], stats: bool, hints: bool) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    if s.errors.is_empty() {
        let _ = match s.limit() {
            None => writeln!(o, "No errors were detected."),
            Some(Limit::Stopped(_)) => writeln!(
                o,
                "No errors were detected in the executions explored (incomplete)."
            ),
            Some(Limit::Cut(_)) => writeln!(o, "No errors were detected up to the bound."),
        };
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
        let (k, r) = (s.bound_cut, s.recursion_cut);
        let _ = match (k, r) {
            (0, _) => Ok(()),
            (k, 0) if hints => writeln!(
                o,
                "  of which cut by the loop bound (--unroll or a __VERIFIER_loop_bound hint): {k}"
            ),
            (k, 0) => writeln!(o, "  of which cut by the loop bound (--unroll): {k}"),
            (k, r) if k == r => writeln!(
                o,
                "  of which cut by the recursion limit (--recursion-limit): {k}"
            ),
            (k, r) => writeln!(
                o,
                "  of which cut by the loop bound or the recursion limit: {k} ({r} by the recursion limit)"
            ),
        };
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
                "Backward-revisit states recorded (rf mode, or a model without maximal extensions): {}",
                s.revisit_states
            );
        }
        if s.repeated_executions > 0 {
            let _ = writeln!(
                o,
                "Executions reached again (counted once): {}",
                s.repeated_executions
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

pub(crate) fn describe(c: ErrorClass) -> &'static str {
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
        NonTermination => "Non-termination",
    }
}

/// The process's peak resident set size (VmHWM), where the OS reports it.
pub fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
