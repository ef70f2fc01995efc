//! Debug aid: `cargo run --release -p porf-explore --example diff_seed -- MODEL SEED
//! [heap]` prints a random program and where the optimal and reference explorers
//! disagree (`heap`: the generator settings of the `differential_heap_*` tests, with
//! their default event and location bounds).

use porf_explore::{explore, Config, Strategy};
use porf_toy::{random_program, GenConfig};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = porf_models::by_name(&args[1]).expect("model");
    let seed: u64 = args[2].parse().expect("seed");
    let gen = if args.get(3).is_some_and(|a| a == "heap") {
        GenConfig {
            heap: true,
            lock_misuse: true,
            max_events: 11,
            max_locs: 2,
            ..GenConfig::default()
        }
    } else {
        GenConfig::default()
    };
    let prog = random_program(seed, &gen);
    println!("{prog}");
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let o = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
    let r = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
    println!(
        "optimal: complete {} blocked {} erroneous {}",
        o.complete, o.blocked, o.erroneous
    );
    println!(
        "reference: complete {} blocked {} erroneous {}",
        r.complete, r.blocked, r.erroneous
    );
    for s in o.final_states.difference(&r.final_states) {
        println!("only optimal: {s:?}");
    }
    for s in r.final_states.difference(&o.final_states) {
        println!("only reference: {s:?}");
    }
    println!(
        "errors optimal {:?}\nerrors reference {:?}",
        o.error_keys(),
        r.error_keys()
    );
}
