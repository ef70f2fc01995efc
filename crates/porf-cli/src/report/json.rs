//! The `--json` result: one object per run.
//!
//! `{"verdict", "complete", "blocked", "bound_cut", "recursion_cut", "partial",
//! "stopped_by", "errors": [{"kind", "message", "location", "events": [{"thread",
//! "index", "location"}], "trace": [{"thread", "index", "last_index", "event",
//! "value", "reads_from", "location", "operation", "events"?}], "why": {"events":
//! [{"role", "thread", "index", "event", "location"}], "question", "reasons": [{"kind",
//! "text", "from", "to", "edge"}]}}], "warnings", "time_s", "model", "equiv"}` (`why` for
//! races and memory errors between events, [`super::why`]), and with
//! `--equiv rvf` `"rvf": {"traces", "classes", "witness_calls", "witness_failed",
//! "closure_refuted", "error_searches", "error_searches_found"}` (the explorer's
//! counters).
//!
//! `verdict` is an error class, `incomplete` (no error found, and the exploration was
//! not complete) or `safe` (no error found in a complete exploration), by
//! [`super::judge`]. `stopped_by` names what kept the exploration from being
//! complete, null when it was: a limit that stopped it (`timeout`, `max-executions`;
//! `partial` is then true: the counts are lower bounds), else the bound that cut
//! executions (`loop bound`, or `recursion limit` when it cut every cut execution;
//! `bound_cut` executions were cut, `recursion_cut` of them by the recursion limit).
//! `warnings` holds the lines `porf` also prints on stderr.

use super::trace;
use porf_explore::{ErrorReport, Stats};
use porf_graph::Program;
use serde_json::{json, Value};

/// The JSON object describing `s`.
pub fn to_json<P: Program>(
    s: &Stats,
    prog: &P,
    model: &str,
    equiv: &str,
    warnings: &[String],
) -> Value {
    let errors = s.errors.iter().map(|e| error_json(e, prog)).collect();
    to_json_with(s, errors, model, equiv, warnings)
}

/// One element of `errors`: what, where, and the witness interleaving.
pub fn error_json<P: Program>(e: &ErrorReport, prog: &P) -> Value {
    let location = e
        .events
        .first()
        .map_or(String::new(), |(_, src)| trace::location(prog, *src));
    let steps: Vec<Value> = trace::steps(prog, &e.witness)
        .iter()
        .map(step_json)
        .collect();
    // Every event the error involves (both events of a race).
    let events: Vec<Value> = e
        .events
        .iter()
        .map(|(id, src)| {
            json!({"thread": id.tid, "index": id.idx,
                   "location": trace::location(prog, *src)})
        })
        .collect();
    let mut v = json!({"kind": e.class.verdict(), "message": e.message, "location": location,
           "events": events, "trace": steps});
    if let Some(w) = super::why::explain(prog, e) {
        v["why"] = why_json(&w);
    }
    v
}

/// The `why` of an error ([`super::why::explain`]).
fn why_json(w: &super::why::Why) -> Value {
    let ev = |e: porf_graph::EventId| json!({"thread": e.tid, "index": e.idx});
    let parts: Vec<Value> = w
        .parts
        .iter()
        .map(|p| {
            json!({"role": p.role, "thread": p.event.tid, "index": p.event.idx,
                   "event": p.what, "location": p.location})
        })
        .collect();
    let reasons: Vec<Value> = w
        .reasons
        .iter()
        .map(|r| {
            json!({"kind": r.kind.name(), "text": r.text,
                   "from": r.edge.map(|(x, _)| ev(x)), "to": r.edge.map(|(_, y)| ev(y)),
                   "edge": r.edge_kind})
        })
        .collect();
    json!({"events": parts, "question": w.question, "reasons": reasons})
}

/// One element of `trace`; a step folding several events ([`trace::TraceStep::last`])
/// names its `operation` (the library function, or null) and lists its `events`.
fn step_json(st: &trace::TraceStep) -> Value {
    let mut v = json!({"thread": st.thread, "index": st.index, "event": st.event,
           "value": st.value, "reads_from": st.reads_from,
           "location": st.location, "printed": st.printed,
           "value_shown": st.shown, "last_index": st.last,
           "operation": st.operation});
    if !st.raw.is_empty() {
        v["events"] = st.raw.iter().map(step_json).collect();
    }
    v
}

/// [`to_json`] with the `errors` elements given ([`error_json`] of each of `s.errors`,
/// in order): `porf merge` prints errors rendered by the shards.
pub fn to_json_with(
    s: &Stats,
    errors: Vec<Value>,
    model: &str,
    equiv: &str,
    warnings: &[String],
) -> Value {
    let verdict = super::judge(s);
    let mut v = json!({
        "verdict": verdict.word,
        "complete": s.complete,
        "blocked": s.blocked,
        "bound_cut": s.bound_cut,
        "recursion_cut": s.recursion_cut,
        "partial": s.partial(),
        "stopped_by": verdict.limit.map(|l| l.name()),
        "errors": errors,
        "warnings": warnings,
        "time_s": (s.elapsed.as_secs_f64() * 1e4).round() / 1e4,
        "model": model,
        "equiv": equiv,
    });
    if let Some(r) = s.rvf {
        v["rvf"] = json!({
            "traces": r.traces,
            "classes": r.classes,
            "witness_calls": r.witness_calls,
            "witness_failed": r.witness_failed,
            "closure_refuted": r.closure_refuted,
            "error_searches": r.error_searches,
            "error_searches_found": r.error_searches_found,
        });
    }
    v
}
