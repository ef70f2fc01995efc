//! A realisability test's answer with what decided it ([`RfCheck`], the answer of
//! [`MemoryModel::rf_check`](crate::MemoryModel::rf_check)), and counters an explorer
//! can keep over many of them ([`RfStats`]).
//!
//! Invariant: `RfCheck::witness` is exactly what the model's
//! [`rf_consistent`](crate::MemoryModel::rf_consistent) answers; `decided_by` is
//! [`DecidedBy::Search`] whenever the witness is `Some` (only refutations can come
//! from a pre-check or a closure).

use super::CoWitness;

/// What decided a realisability test.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum DecidedBy {
    /// A check local to one thread or one RMW (e.g. a read of its own thread's write
    /// that is not the po-latest one of its location), before any closure or search.
    Precheck,
    /// The closure, a partial order every witness trace must respect, has a cycle.
    Closure,
    /// The exact search (or, for models without a closure, the whole test).
    Search,
}

/// The answer of a realisability test and what decided it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RfCheck {
    /// A coherence order making the graph consistent, if there is one.
    pub witness: Option<CoWitness>,
    pub decided_by: DecidedBy,
}

impl RfCheck {
    /// A refutation by `decided_by`.
    pub fn refuted(decided_by: DecidedBy) -> RfCheck {
        RfCheck {
            witness: None,
            decided_by,
        }
    }
    /// The search's answer.
    pub fn searched(witness: Option<CoWitness>) -> RfCheck {
        RfCheck {
            witness,
            decided_by: DecidedBy::Search,
        }
    }
}

/// Counters over realisability tests. Invariant: `by_precheck + by_closure <= failed
/// <= tests`.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct RfStats {
    /// Tests run.
    pub tests: u64,
    /// Tests that found no witness.
    pub failed: u64,
    /// Failed tests decided by a local pre-check.
    pub by_precheck: u64,
    /// Failed tests decided by the closure alone (no search).
    pub by_closure: u64,
}

impl RfStats {
    /// Counts one test.
    pub fn record(&mut self, c: &RfCheck) {
        self.tests += 1;
        if c.witness.is_none() {
            self.failed += 1;
            match c.decided_by {
                DecidedBy::Precheck => self.by_precheck += 1,
                DecidedBy::Closure => self.by_closure += 1,
                DecidedBy::Search => {}
            }
        }
    }
    /// Adds another set of counters (e.g. from another worker).
    pub fn merge(&mut self, o: &RfStats) {
        self.tests += o.tests;
        self.failed += o.failed;
        self.by_precheck += o.by_precheck;
        self.by_closure += o.by_closure;
    }
}
