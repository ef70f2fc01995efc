//! A witness execution graph as Graphviz: one cluster per thread, po edges within a
//! thread, rf edges (green), co edges between consecutive writes (red, dashed), and
//! spawn/join edges; values by name where the trace shows them so (`&obj#0.0`).
//!
//! For an error ([`error_dot`]): the events it involves filled red and labelled with
//! their role (`write`, `read`, `access`, `free`; the freed block's `allocation` in
//! orange;
//! for other errors their kind: the failing assertion's `assertion`);
//! every rf edge between the threads involved drawn bold and labelled whether it
//! synchronises (`rf, sw`, blue) or not (`rf, no sw`, orange), as do the edges
//! [`super::why`] names; the graph's label names the error and the file, and events
//! of that file show `line:col` only.

use super::trace::{describe, location, Names};
use super::why;
use porf_explore::ErrorReport;
use porf_graph::{EventId, Graph, LabelKind, Program, Tid};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

fn node(e: EventId) -> String {
    format!("\"e{}_{}\"", e.tid, e.idx)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The Graphviz text of `err`'s witness, the error marked (module docs).
pub fn error_dot<P: Program>(prog: &P, err: &ErrorReport) -> String {
    render(prog, &err.witness, Some(err))
}

/// What marks an error in the drawing.
#[derive(Default)]
struct Marks {
    /// Role of each event the error involves.
    roles: HashMap<EventId, String>,
    /// Events shown for context (the freed block's allocation), with their role.
    context: HashMap<EventId, String>,
    /// The threads the error involves: rf edges between two of them are labelled.
    threads: HashSet<Tid>,
    /// Edges the explanation names that are not rf edges between those threads.
    extra: Vec<(EventId, EventId, &'static str)>,
    /// The file events are shown relative to.
    file: Option<u32>,
    title: String,
}

fn marks<P: Program>(prog: &P, err: &ErrorReport) -> Marks {
    let g = &err.witness;
    let mut m = Marks {
        file: err
            .events
            .iter()
            .map(|(_, s)| s)
            .find(|s| s.line > 0)
            .map(|s| s.file),
        ..Marks::default()
    };
    let what = super::describe(err.class);
    let mut title = format!("{what}!\n{}", err.message);
    if let Some(f) = m.file {
        let _ = write!(title, "\nfile: {}", prog.source_file(f));
    }
    match why::explain(prog, err) {
        Some(w) => {
            for p in &w.parts {
                m.roles.insert(p.event, p.role.clone());
                m.threads.insert(p.event.tid);
            }
            // The freed block: its allocation marked too.
            for p in &w.parts {
                let freed = match g.label(p.event).kind {
                    LabelKind::Free { base, .. } => g.block(base).and_then(|b| b.malloc),
                    _ => None,
                };
                if let Some((a, _)) = freed.filter(|(a, _)| !m.roles.contains_key(a)) {
                    m.context.insert(a, "allocation".into());
                }
            }
            for r in &w.reasons {
                if let (Some((x, y)), Some(k)) = (r.edge, r.edge_kind) {
                    let between = m.threads.contains(&x.tid) && m.threads.contains(&y.tid);
                    if k != "rf" || !between {
                        m.extra.push((x, y, k));
                    }
                }
            }
            for r in &w.reasons {
                let _ = write!(title, "\n{}", r.text);
            }
        }
        None => {
            for (e, _) in &err.events {
                if e.tid < g.num_threads() && e.idx < g.thread_len(e.tid) {
                    m.roles.insert(*e, err.class.verdict().into());
                }
            }
        }
    }
    m.title = title;
    m
}

/// Whether rf edge `x → y` synchronises: `y` learns more of `x`'s thread than its
/// po-predecessor knew, or an acquire fence after `y` does and no other read between
/// them reads from that thread (so what the fence learns comes through `y`).
fn synchronises(g: &Graph, x: EventId, y: EventId) -> bool {
    let before = |e: EventId| e.prev().map_or(0, |p| g.label(p).hb.get(x.tid));
    if g.label(y).hb.get(x.tid) > before(y) {
        return true;
    }
    for i in y.idx + 1..g.thread_len(y.tid) {
        let e = EventId::new(y.tid, i);
        match g.label(e).kind {
            LabelKind::Fence { ord } if ord.is_acquire() => {
                return g.label(e).hb.get(x.tid) > before(y);
            }
            LabelKind::Read { rf: Some(w), .. } if w.tid == x.tid => return false,
            _ => {}
        }
    }
    false
}

fn render<P: Program>(prog: &P, g: &Graph, err: Option<&ErrorReport>) -> String {
    let m = err.map(|e| marks(prog, e)).unwrap_or_default();
    let mut s = String::from("digraph witness {\n  node [shape=box, fontname=\"monospace\"];\n");
    if err.is_some() {
        let _ = writeln!(
            s,
            "  label=\"{}\\l\";\n  labelloc=t;\n  labeljust=l;",
            escape(&m.title).replace('\n', "\\l")
        );
    }
    let mut uses_init = false;
    let names = Names::new(prog, g);
    for t in 0..g.num_threads() {
        let _ = writeln!(s, "  subgraph cluster_t{t} {{\n    label=\"thread {t}\";");
        for idx in 0..g.thread_len(t) {
            let e = EventId::new(t, idx);
            let (what, val) = describe(&names, g, e);
            let mut label = what;
            let shown = match (&g.label(e).kind, val) {
                (
                    LabelKind::Read { loc, bytes, .. } | LabelKind::Write { loc, bytes, .. },
                    Some(v),
                ) => names.value(*loc, *bytes, v),
                _ => None,
            };
            match (shown, val) {
                (Some(n), _) => {
                    let _ = write!(label, " = {n}");
                }
                (None, Some(v)) => {
                    let _ = write!(label, " = {v}");
                }
                _ => {}
            }
            if let Some(role) = m.roles.get(&e).or_else(|| m.context.get(&e)) {
                label = format!("[{role}] {label}");
            }
            let mut label = escape(&label);
            let src = g.label(e).src;
            let loc = if m.file == Some(src.file) && src.line > 0 {
                format!("{}:{}", src.line, src.col)
            } else {
                location(prog, src)
            };
            if !loc.is_empty() {
                let _ = write!(label, "\\n{}", escape(&loc));
            }
            let mark = if m.roles.contains_key(&e) {
                ", style=\"filled,bold\", fillcolor=\"#ffd0d0\", color=red, penwidth=2"
            } else if m.context.contains_key(&e) {
                ", style=filled, fillcolor=\"#fff0d0\", color=orange"
            } else {
                ""
            };
            let _ = writeln!(s, "    {} [label=\"{label}\"{mark}];", node(e));
            if idx > 0 {
                let _ = writeln!(s, "    {} -> {};", node(EventId::new(t, idx - 1)), node(e));
            }
        }
        s.push_str("  }\n");
    }
    for (e, lab) in g.events() {
        match &lab.kind {
            LabelKind::Read { rf, .. } => {
                let from = match rf {
                    Some(w) => node(*w),
                    None => {
                        uses_init = true;
                        "\"init\"".to_string()
                    }
                };
                let marked = rf.filter(|w| {
                    w.tid != e.tid && m.threads.contains(&w.tid) && m.threads.contains(&e.tid)
                });
                let style = match marked {
                    Some(w) if synchronises(g, w, e) => {
                        "color=blue, penwidth=2, label=\"rf, sw\"".to_string()
                    }
                    Some(_) => "color=orange, penwidth=2, label=\"rf, no sw\"".to_string(),
                    None => "color=green, label=\"rf\"".to_string(),
                };
                let _ = writeln!(s, "  {from} -> {} [{style}, constraint=false];", node(e));
            }
            LabelKind::Start { parent: Some(p) } => {
                let _ = writeln!(
                    s,
                    "  {} -> {} [style=dotted, label=\"spawn\"];",
                    node(*p),
                    node(e)
                );
            }
            LabelKind::Join { child } => {
                if let Some(l) = g.last_of(*child) {
                    let _ = writeln!(
                        s,
                        "  {} -> {} [style=dotted, label=\"join\"];",
                        node(l),
                        node(e)
                    );
                }
            }
            _ => {}
        }
    }
    for (_, info) in g.locations() {
        for pair in info.co.windows(2) {
            let _ = writeln!(
                s,
                "  {} -> {} [color=red, style=dashed, label=\"co\", constraint=false];",
                node(pair[0]),
                node(pair[1])
            );
        }
    }
    for &(x, y, k) in &m.extra {
        let (color, label) = match k {
            "rf" if synchronises(g, x, y) => ("blue", "rf, sw"),
            "rf" => ("orange", "rf, no sw"),
            k => ("blue", k),
        };
        let _ = writeln!(
            s,
            "  {} -> {} [color={color}, penwidth=2, label=\"{label}\", constraint=false];",
            node(x),
            node(y)
        );
    }
    if uses_init {
        s.push_str("  \"init\" [shape=ellipse];\n");
    }
    s.push_str("}\n");
    s
}
