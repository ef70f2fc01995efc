//! Random loop-free toy programs, as source text, for differential tests: a small
//! number of threads, each a few reads, writes, FADDs, CASes, asserts and forward
//! `if`s over a couple of locations, some of them initialised, and sometimes a final
//! assertion. Deterministic in the seed (a hand-rolled SplitMix64, so the generator
//! needs no dependency and its output never changes with a library's version).

use std::fmt::Write as _;

/// The shape of generated programs.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Threads per program: between `threads.0` and `threads.1` (inclusive).
    pub threads: (u32, u32),
    /// Instructions per thread: between `instrs.0` and `instrs.1` (inclusive).
    pub instrs: (u32, u32),
    /// Number of locations (named `x`, `y`, `z`, `w`, then `l4`, `l5`, ...).
    pub locations: u32,
    /// The value domain size (`values N`, at least 2).
    pub values: u32,
    /// Percentage of locations initialised by `init`.
    pub init_percent: u32,
    /// Percentage of programs with a `final assert`.
    pub final_percent: u32,
    /// Litmus style: the final assertion forbids one complete outcome (a value for
    /// every register read), as litmus tests do, so weak behaviours decide it.
    pub final_all: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            threads: (2, 3),
            instrs: (1, 3),
            locations: 2,
            values: 3,
            init_percent: 60,
            final_percent: 60,
            final_all: false,
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators").
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `lo..=hi` (`lo <= hi`).
    fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + (self.next() % (u64::from(hi - lo) + 1)) as u32
    }
    fn percent(&mut self, p: u32) -> bool {
        self.range(0, 99) < p
    }
}

fn loc_name(i: u32) -> String {
    match i {
        0 => "x".into(),
        1 => "y".into(),
        2 => "z".into(),
        3 => "w".into(),
        _ => format!("l{i}"),
    }
}

/// A random loop-free program (source text in the toy format) for `seed`.
pub fn random_program(seed: u64, cfg: &GenConfig) -> String {
    let mut rng = Rng(seed);
    let n = cfg.values.max(2);
    let nlocs = cfg.locations.max(1);
    let locs: Vec<String> = (0..nlocs).map(loc_name).collect();
    let mut out = String::new();
    let _ = writeln!(out, "# random program, seed {seed}");
    let _ = writeln!(out, "values {n}");
    let _ = writeln!(out, "locations {}", locs.join(" "));
    let mut inits: Vec<String> = Vec::new();
    for l in &locs {
        if rng.percent(cfg.init_percent) {
            inits.push(format!("{l} = {}", rng.range(0, n - 1)));
        }
    }
    if !inits.is_empty() {
        let _ = writeln!(out, "init {}", inits.join(", "));
    }
    let nthreads = rng.range(
        cfg.threads.0.max(1),
        cfg.threads.1.max(cfg.threads.0.max(1)),
    );
    let mut thread_regs: Vec<u32> = Vec::new();
    for t in 0..nthreads {
        let _ = writeln!(out, "thread T{}", t + 1);
        let len = rng.range(cfg.instrs.0, cfg.instrs.1.max(cfg.instrs.0));
        let mut regs = 0u32;
        for i in 0..len {
            let loc = &locs[rng.range(0, nlocs - 1) as usize];
            let lit = |rng: &mut Rng| rng.range(0, n - 1);
            // An operand: a literal, or a register already read.
            let operand = |rng: &mut Rng, regs: u32| -> String {
                if regs > 0 && rng.percent(40) {
                    let r = rng.range(0, regs - 1);
                    if rng.percent(50) {
                        format!("r{r}")
                    } else {
                        format!("r{r} + {}", lit(rng))
                    }
                } else {
                    lit(rng).to_string()
                }
            };
            let line = match rng.range(0, 9) {
                0..=2 => {
                    regs += 1;
                    format!("r{} := {loc}", regs - 1)
                }
                3..=4 => format!("{loc} := {}", operand(&mut rng, regs)),
                5 => {
                    let v = operand(&mut rng, regs);
                    regs += 1;
                    format!("r{} := FADD({loc}, {v})", regs - 1)
                }
                6 => {
                    let (e, w) = (lit(&mut rng), operand(&mut rng, regs));
                    regs += 1;
                    format!("r{} := CAS({loc}, {e}, {w})", regs - 1)
                }
                7 if regs > 0 => {
                    let r = rng.range(0, regs - 1);
                    format!("assert r{r} != {}", lit(&mut rng))
                }
                8 if regs > 0 && i + 1 < len => {
                    let r = rng.range(0, regs - 1);
                    let target = rng.range(i + 2, len);
                    format!("if r{r} == {} goto {target}", lit(&mut rng))
                }
                _ => format!("{loc} := {}", lit(&mut rng)),
            };
            let _ = writeln!(out, "  {line}");
        }
        thread_regs.push(regs);
    }
    let candidates: Vec<(u32, u32)> = thread_regs
        .iter()
        .enumerate()
        .flat_map(|(t, &k)| (0..k).map(move |r| (t as u32, r)))
        .collect();
    if !candidates.is_empty() && rng.percent(cfg.final_percent) {
        let conj: Vec<String> = if cfg.final_all {
            candidates
                .iter()
                .map(|(t, r)| format!("T{}.r{r} == {}", t + 1, rng.range(0, n - 1)))
                .collect()
        } else {
            let k = rng.range(1, candidates.len().min(3) as u32);
            (0..k)
                .map(|_| {
                    let (t, r) = candidates[rng.range(0, candidates.len() as u32 - 1) as usize];
                    format!("T{}.r{r} == {}", t + 1, rng.range(0, n - 1))
                })
                .collect()
        };
        let _ = writeln!(out, "final assert !({})", conj.join(" && "));
    }
    out
}
