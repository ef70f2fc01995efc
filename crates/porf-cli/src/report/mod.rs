//! Human-readable results, in GenMC's words so that users can compare line by line.

use porf_explore::Stats;
use porf_graph::Program;

/// 0 when no error was found, 42 (as GenMC) otherwise.
pub fn exit_code(s: &Stats) -> u8 {
    if s.errors.is_empty() {
        0
    } else {
        42
    }
}

pub fn print_human<P: Program>(s: &Stats, prog: &P, stats: bool) {
    if s.errors.is_empty() {
        println!("No errors were detected.");
    }
    for err in &s.errors {
        println!("Error: {}!", describe(err.class));
        println!("{}", err.message);
        for (e, src) in &err.events {
            let file = prog.source_file(src.file);
            let file = if file.is_empty() { "<program>" } else { file };
            println!("  event {e} at {file}:{}:{}", src.line, src.col);
        }
    }
    if s.partial {
        println!("Exploration stopped early (limit reached): the counts below are partial.");
    }
    println!("Number of complete executions explored: {}", s.complete);
    if s.blocked > 0 {
        println!("Number of blocked executions seen: {}", s.blocked);
    }
    println!("Total wall-clock time: {:.2}s", s.elapsed.as_secs_f64());
    if stats {
        println!("Peak graph size: {} events", s.peak_graph_size);
        match peak_rss_kib() {
            Some(k) => println!("Peak resident memory: {k} KiB"),
            None => println!("Peak resident memory: unknown"),
        }
    }
}

fn describe(c: porf_explore::ErrorClass) -> &'static str {
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
