//! The size limits of a run: `--memory-limit SIZE` (parsed here, with its default, a
//! share of the machine's memory) and `--max-events-per-execution N`'s default; and
//! the line that says what grew when one of them stopped a run, and the early note
//! when an execution grows past a tenth of `--max-events-per-execution`
//! ([`explore_watching`]).

use porf_explore::Stats;
use porf_graph::SrcLoc;

/// `--max-events-per-execution`'s default: far more than any execution of a
/// terminating test needs, and few enough that the explorers' memory (a few
/// kilobytes per event along the path explored, stack included) stays small.
pub const DEFAULT_MAX_EVENTS: u64 = 100_000;

/// The default memory limit is this share (numerator, denominator) of the smaller of
/// the machine's memory and the cgroup's limit (see [`default_memory_limit`]).
pub const DEFAULT_SHARE: (u64, u64) = (3, 4);

/// What `--memory-limit` says: a number of bytes, or no limit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    Bytes(u64),
    Unlimited,
}

/// `SIZE`: a number with an optional unit, `K`, `M`, `G` or `T` (powers of 1024,
/// optionally followed by `iB` or `B`, any case), e.g. `512M`, `1G`, `2GiB`,
/// `1.5G`, `1048576`; or `none` (no limit). At least 1 MiB.
pub fn parse_memory_limit(s: &str) -> Result<MemoryLimit, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("none") {
        return Ok(MemoryLimit::Unlimited);
    }
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let unit = unit.trim().to_ascii_lowercase();
    let shift = match unit.trim_end_matches("ib").trim_end_matches('b') {
        "" => 0,
        "k" => 10,
        "m" => 20,
        "g" => 30,
        "t" => 40,
        _ => {
            return Err(format!(
                "`{s}`: unknown unit `{unit}` (use K, M, G or T, e.g. 512M or 2GiB, or `none`)"
            ))
        }
    };
    let n: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` is not a size (e.g. 512M, 1G, 2GiB or bytes)"))?;
    let bytes = n * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("`{s}` is too large"));
    }
    if bytes < (1u64 << 20) as f64 {
        return Err(format!(
            "`{s}` is less than 1 MiB (porf itself needs more; K, M, G, T are units)"
        ));
    }
    Ok(MemoryLimit::Bytes(bytes as u64))
}

/// The memory porf may use when no `--memory-limit` is given: [`DEFAULT_SHARE`] of the
/// smaller of the machine's physical memory and the memory limit of porf's cgroup (v1
/// or v2, the cgroup and its ancestors), or `None` when neither is known.
pub fn default_memory_limit() -> Option<u64> {
    let total = [physical_memory(), cgroup_limit()]
        .into_iter()
        .flatten()
        .min()?;
    Some(total / DEFAULT_SHARE.1 * DEFAULT_SHARE.0)
}

/// `MemTotal` of `/proc/meminfo`, in bytes.
fn physical_memory() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = s.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The smallest memory limit of porf's cgroup and its ancestors: `memory.max`
/// (cgroup v2) or `memory.limit_in_bytes` (v1); `None` if none is set.
fn cgroup_limit() -> Option<u64> {
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mut best: Option<u64> = None;
    for line in groups.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let (root, file) = if controllers.is_empty() {
            ("/sys/fs/cgroup", "memory.max")
        } else if controllers.split(',').any(|c| c == "memory") {
            ("/sys/fs/cgroup/memory", "memory.limit_in_bytes")
        } else {
            continue;
        };
        let mut dir = path.trim_end_matches('/');
        loop {
            let limit = std::fs::read_to_string(format!("{root}{dir}/{file}"))
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                // "max" (v2) does not parse; v1 says "no limit" with a huge number.
                .filter(|&n| n < 1 << 60);
            if let Some(n) = limit {
                best = Some(best.map_or(n, |b| b.min(n)));
            }
            if dir.is_empty() {
                break;
            }
            dir = &dir[..dir.rfind('/').unwrap_or(0)];
        }
    }
    best
}

/// When a size limit stopped the run ([`porf_explore::StopReason::is_size`]): what
/// grew — the largest execution graph, its longest thread and where that thread's
/// newest event comes from (`loc` names a source location), and the search's own
/// records when it keeps some — with what to do about it.
pub fn growth_line(s: &Stats, loc: impl Fn(SrcLoc) -> String) -> Option<String> {
    let r = s.stopped_by.filter(|r| r.is_size())?;
    let g = s.largest?;
    let place = loc(g.last);
    let at = if place.is_empty() {
        String::new()
    } else {
        format!(", the newest at {place}")
    };
    let mut line = format!(
        "{r} reached: the largest execution explored has {} events; thread {} has {} of them{at}",
        g.events, g.thread, g.thread_events
    );
    if s.smc.peak_pending > 0 {
        line.push_str(&format!(
            "; {} schedules were pending at most",
            s.smc.peak_pending
        ));
    }
    if s.revisit_states > 0 {
        line.push_str(&format!(
            "; {} backward-revisit graphs were recorded",
            s.revisit_states
        ));
    }
    line.push_str(
        ". If a loop there never ends, bound it with --unroll N (the result then holds up to the bound)",
    );
    Some(line)
}

/// The note printed (once per run, on stderr) when an execution first reaches
/// `porf_explore::growth::threshold` events: what grew and where, with `--unroll`.
/// `loc` names a source position, `func` the function there.
pub fn growth_note(
    g: &porf_explore::Growth,
    max: u64,
    loc: impl Fn(SrcLoc) -> String,
    func: Option<String>,
) -> String {
    let place = loc(g.last);
    let within = func.map_or(String::new(), |f| format!(" in {f}()"));
    let at = if place.is_empty() {
        String::new()
    } else {
        format!(", the newest at {place}{within}")
    };
    format!(
        "note: an execution has reached {} events (thread {} has {} of them{at}): if a \
         loop there never ends, bound it with --unroll N; the exploration goes on up to \
         --max-events-per-execution {max}",
        g.events, g.thread, g.thread_events
    )
}

/// [`crate::progress::explore`], printing `note` of the first execution that reaches
/// `cfg.growth`'s threshold on stderr as soon as one does (a watcher thread polls it
/// every 100 ms; the exploration never waits for it), or at the end.
pub fn explore_watching<P: porf_graph::Program + Sync>(
    strategy: porf_explore::Strategy,
    prog: &P,
    model: &dyn porf_models::MemoryModel,
    cfg: &porf_explore::Config,
    note: &(dyn Fn(&porf_explore::Growth) -> String + Sync),
) -> Stats {
    let Some(watch) = cfg.growth.as_deref() else {
        return crate::progress::explore(strategy, prog, model, cfg);
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    let printed = std::sync::atomic::AtomicBool::new(false);
    let print_once = || {
        if let Some(g) = watch.seen() {
            if !printed.swap(true, std::sync::atomic::Ordering::Relaxed) {
                eprintln!("{}", note(&g));
            }
        }
    };
    std::thread::scope(|s| {
        let watcher = std::thread::Builder::new()
            .name("porf-growth".into())
            .stack_size(256 * 1024)
            .spawn_scoped(s, || {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    print_once();
                    std::thread::park_timeout(std::time::Duration::from_millis(100));
                }
            })
            .ok();
        let r = crate::progress::explore(strategy, prog, model, cfg);
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(w) = watcher {
            w.thread().unpark();
            let _ = w.join();
        }
        print_once();
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        let b = |s| match parse_memory_limit(s) {
            Ok(MemoryLimit::Bytes(n)) => n,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(b("512M"), 512 << 20);
        assert_eq!(b("1G"), 1 << 30);
        assert_eq!(b("2GiB"), 2 << 30);
        assert_eq!(b("2gb"), 2 << 30);
        assert_eq!(b("1.5G"), 3 << 29);
        assert_eq!(b("1048576"), 1 << 20);
        assert_eq!(b("4096K"), 4 << 20);
        assert_eq!(parse_memory_limit("none"), Ok(MemoryLimit::Unlimited));
        for bad in ["", "G", "12Q", "1k", "-1G", "1e3G", "x"] {
            assert!(parse_memory_limit(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_default_is_a_share_of_the_machine() {
        let d = default_memory_limit().expect("Linux reports MemTotal");
        let total = physical_memory().unwrap();
        assert!(d <= total / 4 * 3 && d > 0);
    }
}
