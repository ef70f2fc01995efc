//! `porf verify --shard I/N` (one shard's JSON report) and `porf merge REPORTS...`
//! (the whole run's result from all N reports). The split itself is
//! `porf_explore::shard`; this module writes and reads reports and prints the merged
//! result as `porf verify` prints a result.
//!
//! A report (`"porf_shard_report": 1`) holds what merge needs and checks: porf's
//! version, the program file and its FNV-1a hash, the exploration flags (`config`),
//! the shard `I/N`, the split (deepest subtree depth, number of subtrees, the plan's
//! fingerprint, which merge requires equal in every report; the pre-pass's probe depth,
//! nodes walked and time), per segment its counters and
//! the indices of the errors found in it, each error as `porf verify` prints it (human
//! lines and JSON) with its identity key, the spin loops, the bounds, the limit that
//! stopped the shard if one did, and the shard's own work (executions, time).

use crate::report::{self, Bounds};
use crate::verify::{self, Format, Rendered};
use clap::Args;
use porf_explore::shard::{self, Counters, Part, PartSegment, ShardRun, Split};
use porf_explore::{Config, ErrorClass, ErrorReport, SpinForever, Stats, StopReason};
use porf_graph::{Graph, Program, SrcLoc};
use porf_models::MemoryModel;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The report format's version.
const FORMAT: u64 = 1;

/// What identifies the exploration a shard belongs to.
pub struct Identity<'a> {
    pub file: &'a Path,
    /// The exploration flags (equal in every shard of one run).
    pub config: Value,
    pub bounds: Bounds,
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> String {
    let mut h = porf_graph::hash::Fnv1a::default();
    h.write(bytes);
    format!("{:016x}", h.finish())
}

fn src(s: SrcLoc) -> Value {
    json!([s.file, s.line, s.col])
}

/// Explores shard `split` and prints its report on stdout; returns the exit code (0:
/// the report was written, whatever it found; the verdict is `porf merge`'s).
pub fn run<P: Program + Sync>(
    id: &Identity,
    prog: &P,
    model: &dyn MemoryModel,
    cfg: &Config,
    loops: &[(SrcLoc, String)],
    split: Split,
    budget: u64,
) -> u8 {
    let hash = match std::fs::read(id.file) {
        Ok(b) => fnv1a(&b),
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", id.file.display());
            return 2;
        }
    };
    let r: ShardRun = shard::explore_shard_with(prog, model, cfg, split, budget);
    let loc = |s: SrcLoc| report::trace::location(prog, s);
    let errors: Vec<Value> = r
        .stats
        .errors
        .iter()
        .map(|e| {
            let unsupported =
                (e.class == ErrorClass::Unsupported).then(|| verify::unsupported_line(prog, e));
            if let Some(l) = &unsupported {
                eprintln!("{l}");
            }
            json!({"key": format!("{:?}", e.key()), "kind": e.class.verdict(),
                   "tally_key": shard::tally_key(&e.owned_key()),
                   "message": e.message, "text": report::error_block(e, prog),
                   "json": report::json::error_json(e, prog), "unsupported": unsupported})
        })
        .collect();
    let segments: Vec<Value> = r
        .segments
        .iter()
        .map(|s| {
            let c = &s.counters;
            let spin: Vec<Value> = c
                .spin_blocked
                .iter()
                .map(|(l, n)| json!({"src": src(*l), "location": loc(*l), "blocked": n}))
                .collect();
            let forever: Vec<Value> = c
                .spin_forever
                .iter()
                .map(|(k, n)| {
                    json!({"thread": k.tid, "src": src(k.src), "location": loc(k.src),
                           "main_finished": k.main_finished, "executions": n})
                })
                .collect();
            json!({"ordinal": s.ordinal, "complete": c.complete, "blocked": c.blocked,
                   "bound_cut": c.bound_cut, "recursion_cut": c.recursion_cut,
                   "erroneous": c.erroneous,
                   "spin_blocked": spin, "spin_forever": forever, "hung": c.hung,
                   "leaks": c.leaks.iter().map(|(l, n)| json!({"src": src(*l),
                       "location": loc(*l), "function": prog.function_at(*l),
                       "executions": n})).collect::<Vec<_>>(),
                   "error_counts": c.error_counts.iter()
                       .map(|(k, n)| json!({"key": k, "executions": n})).collect::<Vec<_>>(),
                   "errors": s.errors})
        })
        .collect();
    let loops: Vec<Value> = loops
        .iter()
        .map(|(l, f)| json!({"src": src(*l), "location": loc(*l), "function": f}))
        .collect();
    let v = json!({
        "porf_shard_report": FORMAT,
        "porf_version": env!("CARGO_PKG_VERSION"),
        "program": {"file": id.file.display().to_string(), "fnv1a64": hash},
        "config": id.config,
        "shard": {"index": split.index, "count": split.count},
        "split": {"depth": r.depth, "subtrees": r.frontier,
                  "plan": format!("{:016x}", r.plan.fingerprint()),
                  "probe_depth": r.plan.probe_depth, "probe_nodes": r.plan.probe_nodes,
                  "probe_s": r.probe.as_secs_f64()},
        "bounds": {"unroll": id.bounds.unroll, "recursion": id.bounds.recursion,
                   "hints": id.bounds.hints},
        "segments": segments,
        "errors": errors,
        "spin_loops": loops,
        "stopped_by": r.stats.stopped_by.map(|s| s.name()),
        "stop": r.stats.stopped_by.map(stop_json),
        "probe_stopped": r.probe_stopped,
        "largest": r.stats.largest.map(|g| json!({
            "events": g.events, "thread": g.thread, "thread_events": g.thread_events,
            "src": src(g.last), "location": loc(g.last)})),
        "timeout_s": cfg.timeout.map(|t| t.as_secs_f64()),
        "peak_graph_size": r.stats.peak_graph_size,
        "executions": r.executions(),
        "time_s": r.stats.elapsed.as_secs_f64(),
    });
    report::emit(&format!("{v}\n"));
    0
}

/// A limit as a report holds it: `{"kind", "value"}`.
fn stop_json(r: StopReason) -> Value {
    let (kind, value) = match r {
        StopReason::Timeout(d) => ("timeout", json!(d.as_secs_f64())),
        StopReason::MaxExecutions(n) => ("max-executions", json!(n)),
        StopReason::Memory(n) => ("memory", json!(n)),
        StopReason::Stack(n) => ("stack", json!(n)),
        StopReason::MaxEvents(n) => ("max-events-per-execution", json!(n)),
    };
    json!({"kind": kind, "value": value})
}

/// The limit a report's `stop` names.
fn stop_of(v: &Value) -> Option<StopReason> {
    let n = v["value"].as_u64();
    Some(match v["kind"].as_str()? {
        "timeout" => StopReason::Timeout(Duration::try_from_secs_f64(v["value"].as_f64()?).ok()?),
        "max-executions" => StopReason::MaxExecutions(n?),
        "memory" => StopReason::Memory(n?),
        "stack" => StopReason::Stack(n?),
        "max-events-per-execution" => StopReason::MaxEvents(n?),
        _ => return None,
    })
}

#[derive(Args)]
pub struct MergeArgs {
    /// The N reports of `porf verify --shard I/N` (I = 0 .. N-1), in any order.
    #[arg(required = true, value_name = "REPORT")]
    reports: Vec<PathBuf>,
    /// Print one JSON object instead of GenMC's lines.
    #[arg(long)]
    json: bool,
    /// Also print the spin-loop table and each shard's work.
    #[arg(long)]
    stats: bool,
}

/// A loaded report.
struct Report {
    path: PathBuf,
    v: Value,
}

impl Report {
    fn u64(&self, ptr: &str) -> Result<u64, String> {
        self.v
            .pointer(ptr)
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("{}: malformed report (no {ptr})", self.path.display()))
    }
    fn arr(&self, ptr: &str) -> Result<&Vec<Value>, String> {
        self.v
            .pointer(ptr)
            .and_then(Value::as_array)
            .ok_or_else(|| format!("{}: malformed report (no {ptr})", self.path.display()))
    }
}

fn load(path: &Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let v: Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("{}: not a porf shard report ({e})", path.display()))?;
    match v.get("porf_shard_report").and_then(Value::as_u64) {
        Some(FORMAT) => Ok(Report {
            path: path.to_path_buf(),
            v,
        }),
        Some(n) => Err(format!(
            "{}: shard report format {n}, this porf reads format {FORMAT}",
            path.display()
        )),
        None => Err(format!(
            "{}: not a porf shard report (write one with `porf verify --shard I/N`)",
            path.display()
        )),
    }
}

fn triple(v: &Value) -> Option<SrcLoc> {
    let a = v.as_array()?;
    let n = |i: usize| a.get(i)?.as_u64().and_then(|x| u32::try_from(x).ok());
    Some(SrcLoc {
        file: n(0)?,
        line: n(1)?,
        col: n(2)?,
    })
}

const CLASSES: [ErrorClass; 9] = [
    ErrorClass::Assertion,
    ErrorClass::Abort,
    ErrorClass::Memory,
    ErrorClass::Race,
    ErrorClass::Deadlock,
    ErrorClass::Lock,
    ErrorClass::Unsupported,
    ErrorClass::Liveness,
    ErrorClass::NonTermination,
];

/// `porf merge`: returns the exit code (that of `porf verify` on the whole run, or 2
/// when the reports do not make up one run).
pub fn merge(a: MergeArgs) -> u8 {
    match merge_reports(&a) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("error: {msg}");
            2
        }
    }
}

fn merge_reports(a: &MergeArgs) -> Result<u8, String> {
    let reports: Vec<Report> = a
        .reports
        .iter()
        .map(|p| load(p))
        .collect::<Result<_, _>>()?;
    let first = &reports[0];
    for r in &reports[1..] {
        for (ptr, what) in [
            ("/porf_version", "porf versions"),
            ("/program", "programs"),
            ("/config", "flags"),
            ("/shard/count", "numbers of shards"),
            ("/split", "splits"),
        ] {
            let (x, y) = (first.v.pointer(ptr), r.v.pointer(ptr));
            // The pre-pass's cost is not part of the split; a shard whose pre-pass a
            // limit stopped has none.
            let stopped = |r: &Report| r.v["probe_stopped"].as_bool() == Some(true);
            let same = if ptr == "/split" && (stopped(first) || stopped(r)) {
                true
            } else if ptr == "/split" {
                ["depth", "subtrees", "plan"]
                    .iter()
                    .all(|k| x.and_then(|x| x.get(k)) == y.and_then(|y| y.get(k)))
            } else {
                x == y
            };
            if !same && ptr == "/config" {
                return Err(format!(
                    "{} and {} are shards of different runs (different flags: {})",
                    first.path.display(),
                    r.path.display(),
                    differing_flags(x, y)
                ));
            }
            if !same {
                return Err(format!(
                    "{} and {} are shards of different runs (different {what}: {} vs {})",
                    first.path.display(),
                    r.path.display(),
                    x.unwrap_or(&Value::Null),
                    y.unwrap_or(&Value::Null)
                ));
            }
        }
    }
    let count = first.u64("/shard/count")?;
    let mut by_index: Vec<Option<&Report>> = vec![None; count as usize];
    for r in &reports {
        let i = r.u64("/shard/index")?;
        let slot = by_index
            .get_mut(i as usize)
            .ok_or_else(|| format!("{}: shard {i}/{count} out of range", r.path.display()))?;
        if let Some(o) = slot {
            return Err(format!(
                "shard {i}/{count} given twice ({} and {})",
                o.path.display(),
                r.path.display()
            ));
        }
        *slot = Some(r);
    }
    let missing: Vec<String> = (0..count)
        .filter(|&i| by_index[i as usize].is_none())
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing shard(s) {}", missing.join(", ")));
    }
    let config = first.v.get("config").cloned().unwrap_or(Value::Null);
    let keep_going = config["keep_going"].as_bool().unwrap_or(false);
    // Every error of every report, addressed by (report, index).
    let mut parts = Vec::new();
    let mut names: HashMap<SrcLoc, String> = HashMap::new();
    let mut funcs: HashMap<SrcLoc, String> = HashMap::new();
    let mut largest = None;
    for (ri, r) in reports.iter().enumerate() {
        let errors = r.arr("/errors")?;
        let mut segments = Vec::new();
        for s in r.arr("/segments")? {
            let n = |k: &str| s[k].as_u64().unwrap_or(0);
            let mut spin = Vec::new();
            for e in s["spin_blocked"].as_array().into_iter().flatten() {
                let l = triple(&e["src"])
                    .ok_or_else(|| format!("{}: malformed spin_blocked entry", r.path.display()))?;
                names.insert(l, e["location"].as_str().unwrap_or("").to_string());
                spin.push((l, e["blocked"].as_u64().unwrap_or(0)));
            }
            let mut forever = Vec::new();
            for e in s["spin_forever"].as_array().into_iter().flatten() {
                let (Some(l), Some(t)) = (triple(&e["src"]), e["thread"].as_u64()) else {
                    return Err(format!(
                        "{}: malformed spin_forever entry",
                        r.path.display()
                    ));
                };
                names.insert(l, e["location"].as_str().unwrap_or("").to_string());
                let key = SpinForever {
                    tid: t as u32,
                    src: l,
                    main_finished: e["main_finished"].as_bool().unwrap_or(false),
                };
                forever.push((key, e["executions"].as_u64().unwrap_or(0)));
            }
            let mut leaks = Vec::new();
            for e in s["leaks"].as_array().into_iter().flatten() {
                let l = triple(&e["src"])
                    .ok_or_else(|| format!("{}: malformed leaks entry", r.path.display()))?;
                names.insert(l, e["location"].as_str().unwrap_or("").to_string());
                if let Some(f) = e["function"].as_str() {
                    funcs.insert(l, f.to_string());
                }
                leaks.push((l, e["executions"].as_u64().unwrap_or(0)));
            }
            let mut counts = Vec::new();
            for e in s["error_counts"].as_array().into_iter().flatten() {
                let k = e["key"]
                    .as_str()
                    .ok_or_else(|| format!("{}: malformed error_counts entry", r.path.display()))?;
                counts.push((k.to_string(), e["executions"].as_u64().unwrap_or(0)));
            }
            let mut errs = Vec::new();
            for i in s["errors"].as_array().into_iter().flatten() {
                let i = i.as_u64().unwrap_or(u64::MAX) as usize;
                let e = errors
                    .get(i)
                    .ok_or_else(|| format!("{}: malformed report (error {i})", r.path.display()))?;
                let key = e["key"].as_str().unwrap_or("").to_string();
                errs.push((key, (ri, i)));
            }
            segments.push(PartSegment {
                ordinal: s["ordinal"].as_u64().unwrap_or(0),
                counters: Counters {
                    complete: n("complete"),
                    blocked: n("blocked"),
                    bound_cut: n("bound_cut"),
                    recursion_cut: n("recursion_cut"),
                    erroneous: n("erroneous"),
                    spin_blocked: spin,
                    spin_forever: forever,
                    hung: n("hung"),
                    error_counts: counts,
                    leaks,
                },
                errors: errs,
            });
        }
        let stopped_by = match (r.v["stopped_by"].as_str(), r.v.get("stop")) {
            (None, _) => None,
            (Some(_), Some(stop)) if !stop.is_null() => Some(
                stop_of(stop)
                    .ok_or_else(|| format!("{}: unknown stop reason {stop}", r.path.display()))?,
            ),
            (Some("timeout"), _) => Some(StopReason::Timeout(Duration::from_secs_f64(
                r.v["timeout_s"].as_f64().unwrap_or(0.0),
            ))),
            (Some(other), _) => {
                return Err(format!("{}: unknown stop reason {other}", r.path.display()))
            }
        };
        if let Some(l) = r.v.get("largest").filter(|l| !l.is_null()) {
            let g = porf_explore::Growth {
                events: l["events"].as_u64().unwrap_or(0),
                thread: l["thread"].as_u64().unwrap_or(0) as u32,
                thread_events: l["thread_events"].as_u64().unwrap_or(0),
                last: triple(&l["src"]).unwrap_or_default(),
            };
            names.insert(g.last, l["location"].as_str().unwrap_or("").to_string());
            if largest.is_none_or(|b: porf_explore::Growth| g.events > b.events) {
                largest = Some(g);
            }
        }
        parts.push(Part {
            index: r.u64("/shard/index")? as u32,
            segments,
            stopped_by,
        });
    }
    let m = shard::merge(&parts, keep_going);
    let error = |(ri, i): (usize, usize)| &reports[ri].v["errors"][i];
    let mut errors = Vec::new();
    for &e in &m.errors {
        let e = error(e);
        let class = CLASSES
            .into_iter()
            .find(|c| Some(c.verdict()) == e["kind"].as_str())
            .ok_or_else(|| format!("malformed report: error kind {}", e["kind"]))?;
        errors.push(ErrorReport {
            class,
            message: e["message"].as_str().unwrap_or("").to_string(),
            events: Vec::new(),
            witness: Graph::new(),
        });
        if let Some(l) = e["unsupported"].as_str() {
            eprintln!("{l}");
        }
    }
    let times: Vec<f64> = reports
        .iter()
        .map(|r| r.v["time_s"].as_f64().unwrap_or(0.0))
        .collect();
    let longest = times.iter().copied().fold(0.0, f64::max);
    let c = &m.counters;
    let result = Stats {
        complete: c.complete,
        blocked: c.blocked,
        bound_cut: c.bound_cut,
        recursion_cut: c.recursion_cut,
        erroneous: c.erroneous,
        spin_blocked: c.spin_blocked.iter().copied().collect(),
        leaks: c.leaks.iter().copied().collect(),
        spin_forever: c.spin_forever.iter().copied().collect(),
        hung: c.hung,
        errors,
        elapsed: Duration::from_secs_f64(longest),
        stopped_by: m.stopped_by,
        peak_graph_size: reports
            .iter()
            .filter_map(|r| r.v["peak_graph_size"].as_u64())
            .max()
            .unwrap_or(0) as usize,
        largest,
        ..Stats::default()
    };
    let mut loops = Vec::new();
    for l in first.arr("/spin_loops")? {
        let s = triple(&l["src"]).ok_or("malformed report: spin loop")?;
        names.insert(s, l["location"].as_str().unwrap_or("").to_string());
        loops.push((s, l["function"].as_str().unwrap_or("").to_string()));
    }
    let out = Rendered {
        blocks: m
            .errors
            .iter()
            .map(|&e| error(e)["text"].as_str().unwrap_or("").to_string())
            .collect(),
        json: m.errors.iter().map(|&e| error(e)["json"].clone()).collect(),
        counts: m
            .errors
            .iter()
            .map(|&e| {
                keep_going.then(|| {
                    m.counters
                        .executions_with(error(e)["tally_key"].as_str().unwrap_or(""))
                })
            })
            .collect(),
        leaks: verify::leak_rows(
            &result,
            |s| names.get(&s).cloned().unwrap_or_default(),
            |s| funcs.get(&s).cloned(),
        ),
        rows: verify::spin_rows(&result, &loops, |s| {
            names.get(&s).cloned().unwrap_or_default()
        }),
        growth: crate::limits::growth_line(&result, |s| names.get(&s).cloned().unwrap_or_default()),
        hangs: report::liveness::hangs(&result, &loops, |s| {
            names.get(&s).cloned().unwrap_or_default()
        }),
    };
    let bounds = Bounds {
        unroll: first.v["bounds"]["unroll"].as_u64().map(|n| n as u32),
        recursion: first.v["bounds"]["recursion"].as_u64().map(|n| n as u32),
        hints: first.v["bounds"]["hints"].as_bool().unwrap_or(false),
    };
    let (lines, shards) = work(&reports, &by_index, a.stats);
    let how = Format {
        json: a.json,
        stats: a.stats,
        model: config["model"].as_str().unwrap_or(""),
        equiv: config["equiv"].as_str().unwrap_or(""),
        bounds,
    };
    Ok(verify::print_result(
        &result,
        &out,
        &how,
        Some((lines, "shards", shards)),
    ))
}

/// Each shard's work: executions it counted and its time; the largest over the mean.
/// Human lines (only with `--stats`) and the JSON field `shards`.
fn work(reports: &[Report], by_index: &[Option<&Report>], stats: bool) -> (String, Value) {
    use std::fmt::Write;
    let per: Vec<(u64, f64)> = by_index
        .iter()
        .flatten()
        .map(|r| {
            (
                r.v["executions"].as_u64().unwrap_or(0),
                r.v["time_s"].as_f64().unwrap_or(0.0),
            )
        })
        .collect();
    let n = per.len().max(1) as f64;
    let ratio = |xs: Vec<f64>| {
        let mean = xs.iter().sum::<f64>() / n;
        let max = xs.iter().copied().fold(0.0, f64::max);
        if mean > 0.0 {
            max / mean
        } else {
            1.0
        }
    };
    let exec_ratio = ratio(per.iter().map(|p| p.0 as f64).collect());
    let time_ratio = ratio(per.iter().map(|p| p.1).collect());
    let total: f64 = per.iter().map(|p| p.1).sum();
    let first = &reports[0].v["split"];
    let v = json!({
        "count": per.len(),
        "split_depth": first["depth"],
        "subtrees": first["subtrees"],
        "probe_depth": first["probe_depth"],
        "probe_nodes": first["probe_nodes"],
        "probe_s": by_index.iter().flatten()
            .map(|r| r.v["split"]["probe_s"].as_f64().unwrap_or(0.0)).fold(0.0, f64::max),
        "per_shard": per.iter().enumerate()
            .map(|(i, (e, t))| json!({"index": i, "executions": e, "time_s": t}))
            .collect::<Vec<_>>(),
        "executions_max_over_mean": (exec_ratio * 1e3).round() / 1e3,
        "time_max_over_mean": (time_ratio * 1e3).round() / 1e3,
        "time_total_s": (total * 1e4).round() / 1e4,
    });
    let mut o = String::new();
    if stats {
        let _ = writeln!(
            o,
            "Shards: {} (deepest subtree at depth {}, {} subtrees); largest over mean: executions {exec_ratio:.2}, time {time_ratio:.2}; time of all shards {total:.2}s",
            per.len(),
            first["depth"],
            first["subtrees"]
        );
        for (i, (e, t)) in per.iter().enumerate() {
            let _ = writeln!(o, "  shard {i}: {e} executions, {t:.2}s");
        }
    }
    (o, v)
}

/// The flags two shard reports' `config` objects disagree on, as `--flag: a vs b`.
fn differing_flags(x: Option<&Value>, y: Option<&Value>) -> String {
    let empty = serde_json::Map::new();
    let (a, b) = (
        x.and_then(Value::as_object).unwrap_or(&empty),
        y.and_then(Value::as_object).unwrap_or(&empty),
    );
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| {
            let show = |v: Option<&Value>| v.map_or("(unset)".to_string(), |v| v.to_string());
            let flag = match k.as_str() {
                "defines" => "-D".to_string(),
                "include" => "-I".to_string(),
                k => format!("--{}", k.replace('_', "-")),
            };
            format!("{flag}: {} vs {}", show(a.get(k)), show(b.get(k)))
        })
        .collect::<Vec<_>>()
        .join(", ")
}
