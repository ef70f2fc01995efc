//! The progress line on stderr during a long exploration: executions, blocked, rate,
//! elapsed and the estimate of the total ([`porf_explore::progress`] says how it is
//! computed). Shown only when stderr is a terminal, without `--json` and without
//! `--no-progress` ([`wanted`]); drawn by indicatif, which redraws one line in place,
//! rate-limits redraws and clears the line at the end.
//!
//! A display thread reads the shared atomic counters four times a second; the
//! explorers never wait for it.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use porf_explore::progress::Progress;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the line is redrawn.
const TICK: Duration = Duration::from_millis(250);
/// The line appears only after this much time (short runs print nothing extra).
const QUIET: Duration = Duration::from_millis(500);

/// The share of the tree that must be done before an estimate of the total is shown
/// (before, it rests on too few subtrees to mean anything).
const MIN_SHARE: f64 = 0.01;

/// Whether a run shows the progress line: not with `--json` or `--no-progress`, and
/// only when stderr is a terminal.
pub fn wanted(json: bool, no_progress: bool) -> bool {
    !json && !no_progress && std::io::stderr().is_terminal()
}

/// Runs [`porf_explore::explore`], showing the progress line while it runs if
/// `cfg.progress` is set (elapsed time counted from `cfg.clock_start`).
pub fn explore<P: porf_graph::Program + Sync>(
    strategy: porf_explore::Strategy,
    prog: &P,
    model: &dyn porf_models::MemoryModel,
    cfg: &porf_explore::Config,
) -> porf_explore::Stats {
    let start = cfg.clock_start.unwrap_or_else(Instant::now);
    let _display = cfg.progress.clone().map(|p| Display::start(p, start));
    porf_explore::explore(strategy, prog, model, cfg)
}

/// The display thread; dropping it stops the thread and clears the line.
pub struct Display {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Display {
    /// Starts showing `p`, counting elapsed time from `start`.
    pub fn start(p: Arc<Progress>, start: Instant) -> Display {
        let stop = Arc::new(AtomicBool::new(false));
        let s = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("porf-progress".into())
            .stack_size(256 * 1024)
            .spawn(move || show(&p, start, &s))
            .ok();
        Display { stop, thread }
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

fn show(p: &Progress, start: Instant, stop: &AtomicBool) {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    while !stop.load(Ordering::Relaxed) {
        std::thread::park_timeout(TICK);
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let elapsed = start.elapsed();
        if elapsed < QUIET {
            continue;
        }
        bar.set_message(line(p, elapsed));
        bar.tick();
    }
    bar.finish_and_clear();
}

/// The text of the line.
pub fn line(p: &Progress, elapsed: Duration) -> String {
    let (complete, blocked) = (p.complete(), p.blocked());
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 {
        (complete + blocked) as f64 / secs
    } else {
        0.0
    };
    let mut s = format!(
        "{} executions, {} blocked, {}/s, {}",
        count(complete as f64),
        count(blocked as f64),
        count(rate),
        clock(secs)
    );
    let f = p.fraction_done();
    if let Some(total) = p.estimated_total().filter(|_| f >= MIN_SHARE) {
        s.push_str(&format!(
            ", ~{} in all (estimate, {:.1}% of the tree done)",
            count(total),
            100.0 * f
        ));
        if f > 0.0 && f < 1.0 {
            let left = secs * (1.0 - f) / f;
            s.push_str(&format!(", ~{} left", clock(left)));
        }
    }
    s
}

/// `1234567` as `1.23M`, small numbers as they are.
fn count(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2}G", x / 1e9),
        x if x >= 1e6 => format!("{:.2}M", x / 1e6),
        x if x >= 1e4 => format!("{:.1}k", x / 1e3),
        x => format!("{}", x.round() as u64),
    }
}

/// Seconds as `1h02m03s`, `2m03s` or `3.4s`.
fn clock(secs: f64) -> String {
    if !secs.is_finite() || secs > 1e9 {
        return "a very long time".into();
    }
    let s = secs.round() as u64;
    match s {
        s if s >= 3600 => format!("{}h{:02}m{:02}s", s / 3600, s / 60 % 60, s % 60),
        s if s >= 60 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{secs:.1}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_times_read_well() {
        assert_eq!(count(999.0), "999");
        assert_eq!(count(12_345.0), "12.3k");
        assert_eq!(count(3_600_000.0), "3.60M");
        assert_eq!(clock(3.44), "3.4s");
        assert_eq!(clock(123.0), "2m03s");
        assert_eq!(clock(3723.0), "1h02m03s");
    }

    #[test]
    fn the_line_without_an_estimate() {
        let p = Progress::default();
        let l = line(&p, Duration::from_secs(2));
        assert_eq!(l, "0 executions, 0 blocked, 0/s, 2.0s");
    }
}
