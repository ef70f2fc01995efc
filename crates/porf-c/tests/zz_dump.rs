#[test]
fn dump() {
    let n: u64 = std::env::var("N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let acc: u32 = std::env::var("ACC")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(8);
    let dir = std::env::var("DIR").unwrap_or("/tmp/dc/gen".into());
    let gen = porf_c::random::GenConfig {
        max_accesses: acc,
        ..Default::default()
    };
    std::fs::create_dir_all(&dir).unwrap();
    for seed in 0..n {
        std::fs::write(
            format!("{dir}/p{seed}.c"),
            porf_c::random::random_program(seed, &gen),
        )
        .unwrap();
    }
}
