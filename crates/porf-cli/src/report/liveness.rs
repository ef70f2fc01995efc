//! The liveness warning: threads that spin forever ([`Stats::spin_forever`]), found in
//! every run and reported as errors only with `--check-liveness`.

use porf_explore::Stats;
use porf_graph::SrcLoc;

/// A thread that spins forever in a loop in some executions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hang {
    pub thread: u32,
    /// The loop's `file:line:col`.
    pub location: String,
    /// The function the loop is in (empty if unknown).
    pub function: String,
    /// Whether main had finished in those executions.
    pub main_finished: bool,
    /// The executions in which it spins forever there.
    pub executions: u64,
}

/// The hangs of `s`, by thread, loop position and whether main had finished; `loops`
/// names each loop's function and `name` gives a position's text.
pub fn hangs(s: &Stats, loops: &[(SrcLoc, String)], name: impl Fn(SrcLoc) -> String) -> Vec<Hang> {
    let mut keys: Vec<_> = s.spin_forever.iter().collect();
    keys.sort_by_key(|(k, _)| (k.tid, k.src.file, k.src.line, k.src.col, k.main_finished));
    keys.into_iter()
        .map(|(k, &executions)| Hang {
            thread: k.tid,
            location: name(k.src),
            function: loops
                .iter()
                .find(|(l, _)| *l == k.src)
                .map_or(String::new(), |(_, f)| f.clone()),
            main_finished: k.main_finished,
            executions,
        })
        .collect()
}

/// One warning line per hang: the thread, the loop, in how many of the executions
/// explored, whether the program then never terminates or main had returned, and how
/// to get the error and its trace.
///
/// When every execution has a thread spinning forever but no one line says "every",
/// one more line says so.
pub fn warnings(hangs: &[Hang], s: &Stats) -> Vec<String> {
    let total = s.complete + s.blocked + s.erroneous;
    let every = |n: u64| n == total && !s.partial();
    let mut w: Vec<String> = hangs
        .iter()
        .map(|h| {
            let within = match h.function.as_str() {
                "" => String::new(),
                f => format!(" in {f}"),
            };
            let how_often = if every(h.executions) {
                match total {
                    1 => "in the only execution".to_string(),
                    n => format!("in every execution ({n})"),
                }
            } else {
                format!("in {} of {total} executions", h.executions)
            };
            let (when, why) = if h.main_finished {
                (
                    ", once main has finished",
                    " (in C, main's return ends the process, a pthread_exit does not; \
                     --check-liveness reports it as a liveness violation)",
                )
            } else {
                (
                    "",
                    ", so the program never ends (a liveness violation; --check-liveness \
                     reports it as an error, with its trace)",
                )
            };
            format!(
                "thread {} spins forever in the loop at {}{within} {how_often}{when}: \
                 nothing will change what it reads{why}",
                h.thread, h.location
            )
        })
        .collect();
    if total > 0 && every(s.hung) && !hangs.iter().any(|h| every(h.executions)) {
        w.push(format!(
            "in every execution ({total}) some thread spins forever (the lines above)"
        ));
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_or_some_executions() {
        let s = Stats {
            complete: 2,
            blocked: 3,
            ..Stats::default()
        };
        let h = |n, main_finished| Hang {
            thread: 1,
            location: "a.c:4:2".into(),
            function: "waiter".into(),
            main_finished,
            executions: n,
        };
        let s = Stats { hung: 5, ..s };
        let w = warnings(&[h(5, false), h(2, true)], &s);
        assert!(
            w[0].starts_with(
                "thread 1 spins forever in the loop at a.c:4:2 in waiter in every \
                 execution (5): nothing will change what it reads, so the program never \
                 ends "
            ),
            "{}",
            w[0]
        );
        assert!(
            w[1].contains(" in 2 of 5 executions, once main has finished: "),
            "{}",
            w[1]
        );
        assert_eq!(w.len(), 2);
        let w = warnings(&[h(3, false), h(2, false)], &s);
        assert_eq!(
            w[2],
            "in every execution (5) some thread spins forever (the lines above)"
        );
    }
}
