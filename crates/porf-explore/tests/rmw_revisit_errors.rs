//! Regression: an RMW whose read part first takes a source another RMW already read
//! becomes consistent only through a backward revisit (the other RMW then reads its
//! write part). Its write part's races must be checked in that revisit graph: here a
//! non-atomic read races with it only in that execution. The optimal explorer (co and
//! rf modes) must report the errors the reference explorer (brute force) reports.

use porf_explore::{explore, Config, Equiv, ErrorClass, Strategy};
use porf_models::by_name;
use porf_toy::{random_program, GenConfig};

#[test]
fn optimal_checks_the_write_part_of_a_revisiting_rmw() {
    let gen = GenConfig {
        max_events: 10,
        max_locs: 2,
        ..GenConfig::default()
    };
    // Seed 3835: `r0 = load(y, na)` in one thread; `fetch_add(y, 1, rlx)` in another
    // after it read `x == 1` from a non-atomic store po-after that load.
    let prog = random_program(3835, &gen);
    let model = by_name("sc").unwrap();
    for equiv in [Equiv::Co, Equiv::Rf] {
        let cfg = Config {
            keep_going: true,
            equiv,
            ..Config::default()
        };
        let opt = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
        let reff = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
        assert_eq!(opt.error_keys(), reff.error_keys(), "{equiv:?}\n{prog}");
        let races = reff
            .errors
            .iter()
            .filter(|e| e.class == ErrorClass::Race)
            .count();
        assert!(
            races >= 5,
            "{equiv:?}: the program has five racy pairs\n{prog}"
        );
    }
}
