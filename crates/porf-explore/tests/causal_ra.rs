//! The release/acquire model RA of Lahav and Boker ("What's Decidable About Causally
//! Consistent Shared Memory?", TOPLAS 2022, §3, Table 1) is porf's `ra` (GenMC's RA,
//! RC11 without psc) on programs whose accesses are all release/acquire.
//!
//! The paper's RA is written here as a small declarative oracle, straight from Table
//! 1 with hb = `(po ∪ rf ∪ sync)⁺` (every read synchronises):
//! irr-hb, write-coherence (`mo; hb` irreflexive: hb between writes of a location is
//! followed by mo), read-coherence (`mo; hb; rf⁻¹` irreflexive) and atomicity (an
//! RMW's write part immediately mo-after its source). The reference explorer runs it
//! on random programs made all-release/acquire ([`AllReleaseAcquire`]); porf's `ra`,
//! with the optimal explorer, must find the same numbers of complete, blocked and
//! erroneous executions, the same final states and the same errors.
//!
//! `PORF_DIFF_CAUSAL_PROGRAMS` sets the number of programs (default 1000).

mod common;

use common::env;

use porf_explore::{explore, Config, Stats, Strategy};
use porf_graph::{AllReleaseAcquire, EventId, Graph, LabelKind, View};
use porf_models::relation::Base;
use porf_models::{atomicity, by_name, MemoryModel};
use porf_toy::{random_program, GenConfig};

/// The paper's RA, declaratively (a test oracle: its incremental check is the whole
/// check).
struct PaperRa;

impl MemoryModel for PaperRa {
    fn name(&self) -> &'static str {
        "paper-ra"
    }
    /// hb = porf: every read acquires, every write releases.
    fn hb_view(&self, g: &Graph, e: EventId) -> View {
        g.label(e).porf.clone()
    }
    fn consistent_with(&self, g: &Graph, _e: EventId) -> bool {
        self.is_consistent(g)
    }
    fn is_consistent(&self, g: &Graph) -> bool {
        let b = Base::new(g);
        let hb = b.porf().closure();
        let irr_hb = hb.is_irreflexive();
        let write_coherence = b.co.compose(&hb).is_irreflexive();
        let read_coherence = b.co.compose(&hb).compose(&b.rf.inverse()).is_irreflexive();
        // The initialisation is mo-before every write: a read of it must not be
        // hb-after a write of its location.
        let init_reads = (0..b.len()).all(|i| match b.idx.label(g, i).kind {
            LabelKind::Read { loc, rf: None, .. } => g
                .loc_info(loc)
                .accesses
                .iter()
                .all(|&w| !g.label(w).is_write() || !hb.contains(b.idx.of(w), i)),
            _ => true,
        });
        irr_hb && write_coherence && read_coherence && init_reads && atomicity::holds(g)
    }
}

fn programs() -> u64 {
    env("PORF_DIFF_CAUSAL_PROGRAMS", 1000)
}

fn diffs(ra: &Stats, paper: &Stats) -> Vec<String> {
    let mut d = Vec::new();
    for (what, a, b) in [
        ("complete", ra.complete, paper.complete),
        ("blocked", ra.blocked, paper.blocked),
        ("erroneous", ra.erroneous, paper.erroneous),
    ] {
        if a != b {
            d.push(format!("{what}: ra {a} vs paper's RA {b}"));
        }
    }
    if ra.final_states != paper.final_states {
        d.push(format!(
            "final states: ra {:?}\n paper's RA {:?}",
            ra.final_states, paper.final_states
        ));
    }
    if ra.error_keys() != paper.error_keys() {
        d.push(format!(
            "errors: ra {:?} vs paper's RA {:?}",
            ra.error_keys(),
            paper.error_keys()
        ));
    }
    d
}

#[test]
fn porf_ra_is_the_papers_ra_on_release_acquire_programs() {
    let ra = by_name("ra").unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let gen = GenConfig::default();
    let n = programs();
    let start = std::time::Instant::now();
    let (mut complete, mut blocked) = (0, 0);
    let mut failures = Vec::new();
    for seed in 0..n {
        let prog = AllReleaseAcquire(random_program(seed, &gen));
        // Stale blocks explored (`porf_explore::stale`), so that blocked counts
        // compare with the reference explorer's (the default run skips them;
        // `differential.rs` checks that this changes nothing else).
        let full = Config {
            explore_stale_blocks: true,
            ..cfg.clone()
        };
        let porf = explore(Strategy::Optimal, &prog, ra.as_ref(), &full);
        let paper = explore(Strategy::Reference, &prog, &PaperRa, &cfg);
        complete += paper.complete;
        blocked += paper.blocked;
        let d = diffs(&porf, &paper);
        if !d.is_empty() {
            failures.push(format!(
                "seed {seed}:\n  {}\nprogram:\n{}",
                d.join("\n  "),
                prog.0
            ));
        }
    }
    println!(
        "paper's RA vs ra: {n} all-release/acquire programs, {} agreed ({complete} complete, {blocked} blocked executions) in {:.1?}",
        n - failures.len() as u64,
        start.elapsed()
    );
    assert!(
        failures.is_empty(),
        "{} of {n} programs disagree; first:\n{}",
        failures.len(),
        failures[0]
    );
}
