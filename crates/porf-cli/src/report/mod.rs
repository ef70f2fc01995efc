//! Results for people and for programs: GenMC's lines (so users can compare line by
//! line), a JSON object, a Graphviz witness, and the exit code.

pub mod dot;
pub mod json;
pub mod trace;

use porf_explore::{ErrorClass, Stats};
use porf_graph::Program;

/// 0 when no error was found, 3 when the program did something porf does not model
/// (no verdict is possible), 42 (as GenMC) when an error was found.
pub fn exit_code(s: &Stats) -> u8 {
    if s.errors.iter().any(|e| e.class == ErrorClass::Unsupported) {
        3
    } else if s.errors.is_empty() {
        0
    } else {
        42
    }
}

/// The verdict word: `safe`, or the class of the first error.
pub fn verdict(s: &Stats) -> &'static str {
    s.errors.first().map_or("safe", |e| e.class.verdict())
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
    use std::fmt::Write;
    let mut o = String::new();
    if s.errors.is_empty() {
        let _ = writeln!(o, "No errors were detected.");
    }
    for err in &s.errors {
        let _ = writeln!(o, "Error: {}!", describe(err.class));
        let _ = writeln!(o, "{}", err.message);
        for (_, src) in &err.events {
            let loc = trace::location(prog, *src);
            if !loc.is_empty() {
                let _ = writeln!(o, "  at {loc}");
            }
        }
        let _ = writeln!(o, "Trace (thread, event, value, location):");
        for st in trace::steps(prog, &err.witness) {
            let val = st.value.map_or(String::new(), |v| v.to_string());
            let _ = writeln!(
                o,
                "  T{:<3} {:<32} {:>6}  {}",
                st.thread, st.event, val, st.location
            );
        }
    }
    if let Some(r) = s.stopped_by {
        let _ = writeln!(
            o,
            "Exploration stopped early by {r}: the counts below are partial."
        );
    }
    let _ = writeln!(o, "Number of complete executions explored: {}", s.complete);
    if s.blocked > 0 {
        let _ = writeln!(o, "Number of blocked executions seen: {}", s.blocked);
    }
    let _ = writeln!(o, "Total wall-clock time: {:.2}s", s.elapsed.as_secs_f64());
    if stats {
        let _ = writeln!(o, "Peak graph size: {} events", s.peak_graph_size);
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
        Unsupported => "Unsupported construct",
    }
}

/// The process's peak resident set size (VmHWM), where the OS reports it.
fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
