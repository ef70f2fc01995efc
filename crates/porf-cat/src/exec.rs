//! The execution a cat model is evaluated over: events `0..n`, named sets of events
//! (herd's tags: `R`, `W`, `F`, `IW`, `C11`'s `NA`, `RLX`, ...) and named base
//! relations (`po`, `rf`, `co`, `loc`, `int`, `rmw`, ...).
//!
//! A front end fills in the *base* names with [`Execution::set`] and
//! [`Execution::rel`]; [`Execution::finish`] then derives the names herd defines from
//! them for every execution, the same way for every front end:
//! `M = R | W`, `ext = ~int`, `fr = rf^-1; co`, `po-loc = po & loc`, the internal and
//! external parts `rfi`, `rfe`, `coi`, `coe`, `fri`, `fre`, and empty defaults for
//! whatever the front end does not provide (see [`Execution::finish`]'s list).
//! Invariants: `IW` holds one initial write per location, co-first; `rf` relates
//! every read to exactly one write (initial writes included); `int` is an equivalence.

use crate::rel::{Rel, Set};
use std::collections::BTreeMap;

/// Base sets a front end may provide; [`Execution::finish`] makes the missing ones
/// empty. `B` (branches), `X` (atomic/locked events), `EX` (exclusives, LL/SC),
/// `RMW` (single-event RMWs), the C11 orders, and herd's fence sets of x86.
pub const OPTIONAL_SETS: &[&str] = &[
    "B", "X", "EX", "RMW", "A", "NA", "RLX", "ACQ", "REL", "ACQ_REL", "SC", "MFENCE", "LFENCE",
    "SFENCE",
];

/// Base relations a front end may provide; [`Execution::finish`] makes the missing
/// ones empty. `addr`, `data` and `ctrl` (dependencies), `amo` and `lxsx` (the two
/// kinds of RMW pairs).
pub const OPTIONAL_RELS: &[&str] = &["addr", "data", "ctrl", "amo", "lxsx", "rmw"];

/// Base names every front end must provide.
pub const REQUIRED_SETS: &[&str] = &["R", "W", "F", "IW", "FW"];
pub const REQUIRED_RELS: &[&str] = &["po", "rf", "co", "loc", "int"];

/// One execution: `n` events with named sets and relations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    n: usize,
    sets: BTreeMap<String, Set>,
    rels: BTreeMap<String, Rel>,
}

impl Execution {
    pub fn new(n: usize) -> Execution {
        Execution {
            n,
            sets: BTreeMap::new(),
            rels: BTreeMap::new(),
        }
    }
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// Names a set of events.
    pub fn set(&mut self, name: &str, s: Set) {
        assert_eq!(s.size(), self.n, "set {name} over the wrong events");
        self.sets.insert(name.to_string(), s);
    }
    /// Names a relation.
    pub fn rel(&mut self, name: &str, r: Rel) {
        assert_eq!(r.size(), self.n, "relation {name} over the wrong events");
        self.rels.insert(name.to_string(), r);
    }
    pub fn get_set(&self, name: &str) -> Option<&Set> {
        self.sets.get(name)
    }
    pub fn get_rel(&self, name: &str) -> Option<&Rel> {
        self.rels.get(name)
    }
    /// Every named set and relation.
    pub fn sets(&self) -> impl Iterator<Item = (&str, &Set)> {
        self.sets.iter().map(|(k, v)| (k.as_str(), v))
    }
    pub fn rels(&self) -> impl Iterator<Item = (&str, &Rel)> {
        self.rels.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Derives herd's standard names from the base ones (panics if a
    /// [`REQUIRED_SETS`] or [`REQUIRED_RELS`] name is missing: a front end's bug):
    /// `_`-free names only — the universe `_`, `0` and `id` are the evaluator's.
    /// * sets: `M = R | W`, and [`OPTIONAL_SETS`] empty unless given;
    /// * relations: [`OPTIONAL_RELS`] empty unless given (`rmw` defaults to
    ///   `amo | lxsx`), `ext = ~int`, `fr = rf^-1; co`, `po-loc = po & loc`,
    ///   `rfe`/`rfi`, `coe`/`coi`, `fre`/`fri` (`& ext` / `& int`).
    pub fn finish(&mut self) {
        for name in REQUIRED_SETS {
            assert!(
                self.sets.contains_key(*name),
                "execution without set {name}"
            );
        }
        for name in REQUIRED_RELS {
            assert!(
                self.rels.contains_key(*name),
                "execution without relation {name}"
            );
        }
        let n = self.n;
        for name in OPTIONAL_SETS {
            self.sets
                .entry(name.to_string())
                .or_insert_with(|| Set::empty(n));
        }
        for name in OPTIONAL_RELS {
            if *name != "rmw" {
                self.rels
                    .entry(name.to_string())
                    .or_insert_with(|| Rel::empty(n));
            }
        }
        if !self.rels.contains_key("rmw") {
            let rmw = self.rels["amo"].union(&self.rels["lxsx"]);
            self.rels.insert("rmw".into(), rmw);
        }
        let m = self.sets["R"].union(&self.sets["W"]);
        self.sets.insert("M".into(), m);
        let int = self.rels["int"].clone();
        let ext = int.complement();
        let fr = self.rels["rf"].inverse().seq(&self.rels["co"]);
        let po_loc = self.rels["po"].inter(&self.rels["loc"]);
        for (base, r) in [("rf", None), ("co", None), ("fr", Some(fr))] {
            let r = r.unwrap_or_else(|| self.rels[base].clone());
            self.rels.insert(format!("{base}e"), r.inter(&ext));
            self.rels.insert(format!("{base}i"), r.inter(&int));
            self.rels.insert(base.to_string(), r);
        }
        self.rels.insert("po-loc".into(), po_loc);
        self.rels.insert("ext".into(), ext);
    }
}
