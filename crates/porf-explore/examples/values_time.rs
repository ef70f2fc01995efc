use porf_explore::{explore, Config, Strategy};
use porf_toy::{random_program, GenConfig};
use std::time::{Duration, Instant};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = porf_models::by_name(&args[1]).expect("model");
    let n: u64 = args[2].parse().unwrap();
    let ev: usize = args[3].parse().unwrap();
    let cfg = Config {
        keep_going: true,
        collect_final_states: true,
        timeout: Some(Duration::from_secs(2)),
        ..Config::default()
    };
    let gen = GenConfig {
        max_events: ev,
        ..GenConfig::default()
    };
    let mut times = Vec::new();
    for seed in 0..n {
        let prog = random_program(seed, &gen);
        let t = Instant::now();
        let v = explore(Strategy::Values, &prog, model.as_ref(), &cfg);
        let tv = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let r = explore(Strategy::Reference, &prog, model.as_ref(), &cfg);
        let tr = t.elapsed().as_secs_f64();
        let same = v.complete == r.complete
            && v.blocked == r.blocked
            && v.final_states == r.final_states
            && v.error_keys() == r.error_keys();
        if !same && tv < 1.9 && tr < 1.9 {
            println!(
                "seed {seed} DIFF: values {} {} {} {:?} ref {} {} {} {:?}\n{prog}",
                v.complete,
                v.blocked,
                v.erroneous,
                v.error_keys(),
                r.complete,
                r.blocked,
                r.erroneous,
                r.error_keys()
            );
        }
        times.push((tv, tr, seed));
    }
    let tv: f64 = times.iter().map(|t| t.0).sum();
    let tr: f64 = times.iter().map(|t| t.1).sum();
    println!("values {tv:.2}s reference {tr:.2}s");
    times.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    for t in times.iter().take(5) {
        println!("seed {} values {:.3} ref {:.3}", t.2, t.0, t.1);
    }
}
