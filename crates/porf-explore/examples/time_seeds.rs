//! Debug aid: `cargo run --release -p porf-explore --example time_seeds -- MODEL N`
//! times both explorers on the first N random programs and prints the slowest.

use porf_explore::{explore, Config, Strategy};
use porf_toy::{random_program, GenConfig};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = porf_models::by_name(&args[1]).expect("model");
    let n: u64 = args[2].parse().expect("count");
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        ..Config::default()
    };
    let mut times = Vec::new();
    for seed in 0..n {
        let prog = random_program(seed, &GenConfig::default());
        let t = Instant::now();
        let o = explore(Strategy::Optimal, &prog, model.as_ref(), &cfg);
        let to = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let r = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
        let tr = t.elapsed().as_secs_f64();
        times.push((tr, to, seed, o.complete + o.blocked, r.complete + r.blocked));
    }
    let total: f64 = times.iter().map(|t| t.0).sum();
    let total_o: f64 = times.iter().map(|t| t.1).sum();
    println!("reference {total:.2}s, optimal {total_o:.2}s");
    times.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    for t in times.iter().take(8) {
        println!(
            "seed {:>5}: reference {:.3}s optimal {:.4}s executions {} / {}",
            t.2, t.0, t.1, t.3, t.4
        );
    }
}
