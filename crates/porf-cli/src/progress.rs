//! The progress line on stderr during a long exploration: executions, blocked, rate,
//! elapsed and the estimate of the total ([`porf_explore::progress`] says how it is
//! computed). Shown only when stderr is a terminal, without `--json` and without
//! `--no-progress` ([`wanted`]); drawn by indicatif, which redraws one line in place,
//! rate-limits redraws and clears the line at the end.
//!
//! A display thread reads the shared atomic counters four times a second; the
//! explorers never wait for it.
//!
//! The time left is shown only under [`Eta`]'s rule: never while the tree keeps
//! growing (the estimate of the total still moving, no subtree finishing, or an
//! execution still growing), so the line never claims "~1 s left" of a run that goes
//! on and on.

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
    let mut eta = Eta::default();
    while !stop.load(Ordering::Relaxed) {
        std::thread::park_timeout(TICK);
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let elapsed = start.elapsed();
        if elapsed < QUIET {
            continue;
        }
        bar.set_message(line(p, elapsed, &mut eta));
        bar.tick();
    }
    bar.finish_and_clear();
}

/// Ticks an estimate must have been stable before the time left is shown (2 s).
const WINDOW: usize = 8;
/// How much the estimated total may move within the window (a ratio) and still count
/// as stable.
const STABLE: f64 = 1.10;

/// One reading of the counters for [`Eta`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// The share of the tree done ([`Progress::fraction_done`]).
    pub done: f64,
    /// The estimated total ([`Progress::estimated_total`]), once there is one.
    pub total: Option<f64>,
    /// The largest execution so far ([`Progress::peak_events`]).
    pub peak: u64,
}

/// The rule for showing the time left. It is shown only when each of the last
/// [`WINDOW`] readings (one per tick) had at least [`MIN_SHARE`] of the tree done and
/// an estimated total, and over those readings
/// * the estimated total stayed within a factor [`STABLE`] (it is not still rising or
///   falling: the tree is not found to be ever larger),
/// * the share done grew (subtrees keep finishing; a share that stands still makes any
///   time left a guess), and
/// * the largest execution did not grow (an execution that keeps growing, e.g. a loop
///   that never ends, is a subtree whose size nobody knows yet).
///
/// Otherwise the line shows the estimated total (when there is one) without a time.
#[derive(Debug, Default)]
pub struct Eta {
    window: std::collections::VecDeque<Sample>,
}

impl Eta {
    /// Adds the reading of one tick; whether the time left may be shown now.
    pub fn observe(&mut self, s: Sample) -> bool {
        if self.window.len() == WINDOW {
            self.window.pop_front();
        }
        self.window.push_back(s);
        if self.window.len() < WINDOW {
            return false;
        }
        let totals: Vec<f64> = self
            .window
            .iter()
            .filter(|s| s.done >= MIN_SHARE)
            .filter_map(|s| s.total)
            .collect();
        if totals.len() < WINDOW {
            return false;
        }
        let lo = totals.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = totals.iter().copied().fold(0.0, f64::max);
        let (first, last) = (self.window[0], self.window[WINDOW - 1]);
        lo > 0.0 && hi <= lo * STABLE && last.done > first.done && last.peak == first.peak
    }
}

/// The text of the line (`eta`: the readings of the ticks before, [`Eta`]).
pub fn line(p: &Progress, elapsed: Duration, eta: &mut Eta) -> String {
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
    let settled = eta.observe(Sample {
        done: f,
        total: p.estimated_total(),
        peak: p.peak_events(),
    });
    if let Some(total) = p.estimated_total().filter(|_| f >= MIN_SHARE) {
        s.push_str(&format!(
            ", ~{} in all (estimate, {:.1}% of the tree done)",
            count(total),
            100.0 * f
        ));
        if settled && f > 0.0 && f < 1.0 {
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
        let l = line(&p, Duration::from_secs(2), &mut Eta::default());
        assert_eq!(l, "0 executions, 0 blocked, 0/s, 2.0s");
    }

    fn sample(done: f64, total: f64, peak: u64) -> Sample {
        Sample {
            done,
            total: Some(total),
            peak,
        }
    }

    /// A steady exploration: the share grows, the total and the largest execution
    /// stay; the time left appears only once the whole window is steady.
    #[test]
    fn the_time_left_needs_a_full_steady_window() {
        let mut eta = Eta::default();
        for i in 0..WINDOW {
            let shown = eta.observe(sample(0.1 + 0.01 * i as f64, 1000.0, 50));
            assert_eq!(shown, i + 1 == WINDOW, "tick {i}");
        }
        assert!(eta.observe(sample(0.2, 1020.0, 50)));
    }

    /// A tree found to be ever larger (the estimate of the total doubling tick after
    /// tick): never a time left, however much is "done".
    #[test]
    fn no_time_left_while_the_estimate_keeps_rising() {
        let mut eta = Eta::default();
        for i in 0..3 * WINDOW {
            let total = 100.0 * 2f64.powi(i as i32);
            assert!(!eta.observe(sample(0.5 + 0.01 * i as f64, total, 50)));
        }
    }

    /// An execution that keeps growing (a loop that never ends): no time left, even
    /// with a steady estimate; nor while no subtree finishes.
    #[test]
    fn no_time_left_while_an_execution_grows_or_nothing_finishes() {
        let mut eta = Eta::default();
        for i in 0..3 * WINDOW {
            assert!(!eta.observe(sample(0.5 + 0.01 * i as f64, 1000.0, 50 + i as u64)));
        }
        let mut eta = Eta::default();
        for _ in 0..3 * WINDOW {
            assert!(!eta.observe(sample(0.5, 1000.0, 50)));
        }
    }

    /// Before MIN_SHARE of the tree is done, or without an estimate, no time left.
    #[test]
    fn no_time_left_before_enough_is_done() {
        let mut eta = Eta::default();
        for i in 0..3 * WINDOW {
            assert!(!eta.observe(sample(0.001 + 0.0001 * i as f64, 1000.0, 50)));
        }
        let mut eta = Eta::default();
        for i in 0..3 * WINDOW {
            let s = Sample {
                done: 0.5 + 0.01 * i as f64,
                total: None,
                peak: 50,
            };
            assert!(!eta.observe(s));
        }
    }
}
