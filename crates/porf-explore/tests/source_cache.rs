//! The SC check of a read's candidate sources through `porf_models::SourceCache`
//! (`MemoryModel::consistent_source`) against the plain incremental check
//! (`MemoryModel::consistent_with`): on random programs, in co and rf mode, every
//! question the optimal explorer asks gets the same answer from both (in any build
//! profile, not only under debug assertions), and the counts equal those of a run
//! that never uses the cache.
//!
//! `PORF_SOURCE_CACHE_PROGRAMS` sets the number of programs (default 1500).

mod common;

use common::env;

use porf_explore::{explore, Config, Equiv, Strategy};
use porf_graph::{EventId, Graph, Loc, View};
use porf_models::rf::{CoWitness, RfCheck};
use porf_models::sc::Sc;
use porf_models::{MemoryModel, SourceCache};
use porf_toy::{random_program, GenConfig};
use std::sync::atomic::{AtomicU64, Ordering};

/// SC, answering each cached question with the cache and with the plain check, and
/// failing if they differ. `plain`: never use the cache (the baseline run).
struct Checked {
    plain: bool,
    asked: AtomicU64,
}

impl MemoryModel for Checked {
    fn name(&self) -> &'static str {
        "sc"
    }
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        Sc.hb_view(g, e)
    }
    fn co_floor(&self, g: &Graph, loc: Loc, view: &View) -> usize {
        Sc.co_floor(g, loc, view)
    }
    fn consistent_with(&self, g: &Graph, e: EventId) -> bool {
        Sc.consistent_with(g, e)
    }
    fn consistent_source(&self, g: &Graph, r: EventId, cache: &mut SourceCache) -> bool {
        let plain = Sc.consistent_with(g, r);
        if self.plain {
            return plain;
        }
        self.asked.fetch_add(1, Ordering::Relaxed);
        let cached = Sc.consistent_source(g, r, cache);
        assert_eq!(cached, plain, "cached SC check of {r:?} in\n{g:?}");
        cached
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        Sc.is_consistent(g)
    }
    fn rf_consistent(&self, g: &Graph) -> Option<CoWitness> {
        Sc.rf_consistent(g)
    }
    fn rf_check(&self, g: &Graph) -> RfCheck {
        Sc.rf_check(g)
    }
}

#[test]
fn cached_sc_checks_agree_with_the_plain_check() {
    let n = env("PORF_SOURCE_CACHE_PROGRAMS", 1500);
    let cached = Checked {
        plain: false,
        asked: AtomicU64::new(0),
    };
    let plain = Checked {
        plain: true,
        asked: AtomicU64::new(0),
    };
    let gens = [
        GenConfig::default(),
        GenConfig {
            heap: true,
            lock_misuse: true,
            max_events: 11,
            max_locs: 2,
            ..GenConfig::default()
        },
    ];
    for equiv in [Equiv::Co, Equiv::Rf] {
        let cfg = Config {
            equiv,
            keep_going: true,
            ..Config::default()
        };
        for seed in 0..n {
            let prog = random_program(seed, &gens[seed as usize % gens.len()]);
            let a = explore(Strategy::Optimal, &prog, &cached, &cfg);
            let b = explore(Strategy::Optimal, &prog, &plain, &cfg);
            assert_eq!(
                (a.complete, a.blocked, a.error_keys()),
                (b.complete, b.blocked, b.error_keys()),
                "{equiv:?} seed {seed}:\n{prog}"
            );
        }
    }
    let asked = cached.asked.load(Ordering::Relaxed);
    println!("source cache: {asked} cached SC checks, all agreeing with the plain check");
    assert!(asked > 0);
}
