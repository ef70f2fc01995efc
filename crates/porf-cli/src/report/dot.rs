//! A witness execution graph as Graphviz: one cluster per thread, po edges within a
//! thread, rf edges (green), co edges between consecutive writes (red, dashed), and
//! spawn/join edges.

use super::trace::{describe, location, Names};
use porf_graph::{EventId, Graph, LabelKind, Program};
use std::fmt::Write;

fn node(e: EventId) -> String {
    format!("\"e{}_{}\"", e.tid, e.idx)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The Graphviz text of `g`.
pub fn to_dot<P: Program>(prog: &P, g: &Graph) -> String {
    let mut s = String::from("digraph witness {\n  node [shape=box, fontname=\"monospace\"];\n");
    let mut uses_init = false;
    let names = Names::new(prog, g);
    for t in 0..g.num_threads() {
        let _ = writeln!(s, "  subgraph cluster_t{t} {{\n    label=\"thread {t}\";");
        for idx in 0..g.thread_len(t) {
            let e = EventId::new(t, idx);
            let (what, val) = describe(&names, g, e);
            let mut label = what;
            if let Some(v) = val {
                let _ = write!(label, " = {v}");
            }
            let mut label = escape(&label);
            let loc = location(prog, g.label(e).src);
            if !loc.is_empty() {
                let _ = write!(label, "\\n{}", escape(&loc));
            }
            let _ = writeln!(s, "    {} [label=\"{label}\"];", node(e));
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
                let _ = writeln!(
                    s,
                    "  {from} -> {} [color=green, label=\"rf\", constraint=false];",
                    node(e)
                );
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
    if uses_init {
        s.push_str("  \"init\" [shape=ellipse];\n");
    }
    s.push_str("}\n");
    s
}
