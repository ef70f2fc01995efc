//! Running a litmus test: a C test translated and compiled with porf's C front end
//! (an assembly test: [`crate::asm::check`]), explored with porf's engine under the
//! explorer [`strategy_for`] chooses, and counted as herd counts ([`tally`], shared by
//! both kinds of test).
//!
//! herd's `Positive` and `Negative` count *executions* (consistent candidate
//! executions whose final state does / does not satisfy the condition's proposition),
//! and `States` lists the distinct final states restricted to the observed locations.
//! porf explores each (events, rf, co) execution once, as herd enumerates them, and
//! counts the complete executions per final state (`Config::count_final_states`).
//! Everything is then read off those final states, so the listed states, the filter
//! and the condition see the same values: a location's final value is that of its
//! co-last write in the execution (as herd computes it; under `wra`, where co plays no
//! role in consistency, every co is an execution of its own), a register's is the
//! value its thread left in it. An execution the filter rejects is not counted; the
//! others count as positive or negative by the proposition on their final state.
//!
//! Data races are herd's undefined behaviour (`undefined_unless empty dr` in
//! rc11.cat): porf explores with keep-going, so racy executions are counted like the
//! others, and every race porf reports is returned.

use crate::ast::*;
use crate::parse::{parse, LitmusError};
use crate::translate::{translate, Translation};
use porf_c::{CProgram, Diagnostic, FrontOptions, RunOptions};
use porf_explore::{Config, ErrorClass, Stats, Strategy};
use porf_graph::{AllReleaseAcquire, Program, SrcLoc};
use porf_models::MemoryModel;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// How to run a test.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Bound loops as `porf verify --unroll N` does: an execution in which a loop
    /// would start its (N+1)th iteration is cut (herd7 cuts at its `-unroll` bound,
    /// 2 by default). Without a bound a spinning loop is explored without end.
    pub unroll: Option<u32>,
    /// Make every access release/acquire ([`porf_graph::AllReleaseAcquire`]), as
    /// Lahav and Boker's causal models read a program.
    pub all_release_acquire: bool,
    /// Worker threads for the exploration ([`Config::threads`]); the outcome does not
    /// depend on it.
    pub threads: usize,
    /// The exploration's size limits ([`Config::max_events_per_execution`],
    /// [`Config::memory_limit`]): a test whose exploration one of them stops has no
    /// verdict ([`CheckError::Limit`]).
    pub max_events_per_execution: Option<u64>,
    pub memory_limit: Option<u64>,
    /// The explorer to run instead of the model's default ([`strategy_for`]).
    pub explorer: Option<Strategy>,
    /// Turn off the values explorer's candidate pruning
    /// ([`Config::disable_candidate_pruning`]); the outcome does not depend on it.
    pub disable_candidate_pruning: bool,
}

/// Why a test has no verdict. Each prints as `file:line:col: ...`.
#[derive(Clone, Debug)]
pub enum CheckError {
    /// The litmus file is malformed.
    Litmus(LitmusError),
    /// The C front end rejected a thread body (or the file could not be read).
    Front(Diagnostic),
    /// The program did something porf does not model (e.g. a mixed-size access).
    Unsupported(String),
    /// A size limit stopped the exploration (an execution that grows without bound:
    /// a loop with no `--unroll` bound), so the states found are not all of them.
    Limit(String),
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Litmus(e) => e.fmt(f),
            CheckError::Front(d) => d.fmt(f),
            CheckError::Unsupported(m) | CheckError::Limit(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for CheckError {}

/// One distinct final state: the observed locations' values (herd's spelling),
/// whether the condition's proposition holds, and how many of the executions the
/// filter keeps end in it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FinalState {
    pub values: Vec<(Loc, String)>,
    pub satisfies: bool,
    pub executions: u64,
}

impl FinalState {
    /// herd's line: `1:r0=0; [x]=1;`.
    pub fn line(&self) -> String {
        self.values
            .iter()
            .map(|(l, v)| format!("{l}={v};"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The result of a litmus test.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub name: String,
    pub file: String,
    pub model: String,
    pub cond: Cond,
    /// Distinct final states, in herd's order.
    pub states: Vec<FinalState>,
    /// Executions whose final state satisfies the proposition.
    pub positive: u64,
    /// Executions whose final state does not.
    pub negative: u64,
    /// Data races (undefined behaviour): the two racing accesses' `file:line:col`.
    pub races: Vec<(String, String)>,
    /// Other errors porf found in some execution (assertions, memory errors).
    pub errors: Vec<String>,
    /// herd's flags some execution raises (the LKMM's `data-race`): printed as herd
    /// does (`Flag data-race`), they leave the verdict alone.
    pub flags: Vec<String>,
    /// Some execution was cut by the loop bound (herd's `Loop` prefix): outcomes may
    /// be missing.
    pub loop_cut: bool,
    /// How many executions the bound cut (`Stats::bound_cut` of the first
    /// exploration): `loop_cut` is `bound_cut > 0`.
    pub bound_cut: u64,
    pub elapsed: Duration,
}

impl Outcome {
    /// herd's `Ok` / `No` (before undefined behaviour is taken into account).
    pub fn ok(&self) -> bool {
        match self.cond.quant {
            Quant::Exists => self.positive > 0,
            Quant::NotExists => self.positive == 0,
            Quant::Forall => self.negative == 0,
        }
    }

    /// herd's result line: `Undef` if some execution has a data race, else `Ok`/`No`.
    pub fn verdict(&self) -> &'static str {
        if !self.races.is_empty() {
            "Undef"
        } else if self.ok() {
            "Ok"
        } else {
            "No"
        }
    }

    /// herd's `Never` / `Sometimes` / `Always` (of the proposition).
    pub fn observation(&self) -> &'static str {
        if self.positive == 0 {
            "Never"
        } else if self.negative == 0 {
            "Always"
        } else {
            "Sometimes"
        }
    }

    /// herd's `Witnesses` numbers: w.r.t. the proposition, swapped for `~exists`.
    pub fn witnesses(&self) -> (u64, u64) {
        match self.cond.quant {
            Quant::NotExists => (self.negative, self.positive),
            _ => (self.positive, self.negative),
        }
    }

    /// Every complete execution.
    pub fn executions(&self) -> u64 {
        self.positive + self.negative
    }
}

/// A parsed test: herd's C format or one of its assembly formats.
#[derive(Clone, Debug)]
pub enum Test {
    C(Litmus),
    Asm(crate::asm::AsmLitmus),
}

impl Test {
    pub fn file(&self) -> &str {
        match self {
            Test::C(l) => &l.file,
            Test::Asm(t) => &t.file,
        }
    }

    /// The model `porf litmus` runs the test under when none is given: `lkmm` for tests
    /// of the Linux kernel's primitives ([`crate::kernel::is_kernel`]), `rc11` for other
    /// C tests, the architecture's model for assembly tests ([`crate::asm::Arch::model`]).
    pub fn default_model(&self) -> &'static str {
        match self {
            Test::C(l) if crate::kernel::is_kernel(l) => "lkmm",
            Test::C(_) => "rc11",
            Test::Asm(t) => t.arch.model(),
        }
    }
}

/// Reads and parses the litmus file `path`: an assembly test if its first word is
/// one of herd's architectures ([`crate::asm::arch_of`]), else a C test.
pub fn read_test(path: &Path) -> Result<Test, CheckError> {
    let shown = path.display().to_string();
    let text = std::fs::read(path).map_err(|e| {
        CheckError::Front(Diagnostic::new(
            porf_c::DiagKind::Io,
            shown.clone(),
            1,
            1,
            format!("cannot read {shown}: {e}"),
        ))
    })?;
    let text = String::from_utf8_lossy(&text);
    if crate::asm::arch_of(&text).is_some() {
        return crate::asm::parse_asm(&shown, &text)
            .map(Test::Asm)
            .map_err(CheckError::Litmus);
    }
    parse(&shown, &text)
        .map(Test::C)
        .map_err(CheckError::Litmus)
}

/// Checks the parsed test `t` under `model`.
pub fn check_test(
    t: &Test,
    model: &dyn MemoryModel,
    model_name: &str,
    opts: &Options,
) -> Result<Outcome, CheckError> {
    match t {
        Test::C(l) => check(l, model, model_name, opts),
        Test::Asm(a) => crate::asm::check::check_asm(a, model, model_name, opts),
    }
}

/// Reads, parses and checks the litmus file `path` under `model`.
pub fn check_file(
    path: &Path,
    model: &dyn MemoryModel,
    model_name: &str,
    opts: &Options,
) -> Result<Outcome, CheckError> {
    check_test(&read_test(path)?, model, model_name, opts)
}

/// The explorer for `model`: porf's optimal graph explorer for models that keep
/// po ∪ rf acyclic; for a model that allows load buffering
/// ([`MemoryModel::allows_load_buffering`]), the values explorer, which reaches reads
/// from po-later writes ([`porf_explore::default_strategy`]). The one place a litmus
/// test's explorer is chosen; an `Err` would name what is missing.
pub fn strategy_for(model: &dyn MemoryModel, _model_name: &str) -> Result<Strategy, String> {
    Ok(porf_explore::default_strategy(model))
}

/// The explorer `opts` asks for ([`Options::explorer`]) if it can explore `model`,
/// else [`strategy_for`]'s.
pub fn chosen_strategy(
    model: &dyn MemoryModel,
    model_name: &str,
    opts: &Options,
) -> Result<Strategy, String> {
    match opts.explorer {
        Some(s) => porf_explore::supported(s, model, Default::default()).map(|()| s),
        None => strategy_for(model, model_name),
    }
}

/// Whether exploring with `strategy` hands the model each event's hardware facts
/// (`ThreadMachine::hw` copied into the graph with `Graph::set_hw`). The values
/// explorer does; the others do not yet. (Every strategy is listed: a new
/// one must say.)
pub fn records_hw(strategy: Strategy) -> bool {
    match strategy {
        Strategy::Values | Strategy::Deferred => true,
        Strategy::Optimal | Strategy::Reference | Strategy::RfSmc | Strategy::RfPartSmc => false,
    }
}

/// The models that read the events' hardware facts (`porf_graph::hw`): the hardware
/// and kernel models by name, and models written in cat (their `lxsx`, `addr`, ...).
const HW_MODELS: &[&str] = &["armv8", "riscv", "power", "imm", "lkmm"];

/// Whether `model`, explored by `strategy`, sees which load-exclusive each successful
/// store-exclusive pairs with (`Hw::excl_read`, herd's `rmw`): only then is the pair's
/// atomicity part of the answer. The reason if not.
pub fn sees_exclusive_pairs(
    model: &dyn MemoryModel,
    model_name: &str,
    strategy: Strategy,
) -> Result<(), String> {
    let reads = HW_MODELS.contains(&model.name()) || model.name().starts_with("cat:");
    if !reads {
        Err(format!(
            "model `{model_name}` does not read which load-exclusive a store-exclusive pairs with"
        ))
    } else if !records_hw(strategy) {
        Err(format!(
            "the explorer porf uses for model `{model_name}` does not record the events' \
             hardware facts (`ThreadMachine::hw`), which pair a store-exclusive with its \
             load-exclusive"
        ))
    } else {
        Ok(())
    }
}

/// A temporary C file, removed when dropped.
struct TempC(PathBuf);

impl Drop for TempC {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn temp_c(text: &str) -> Result<TempC, CheckError> {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("porf-litmus-{}-{n}.c", std::process::id()));
    std::fs::write(&path, text).map_err(|e| {
        CheckError::Front(Diagnostic::new(
            porf_c::DiagKind::Io,
            path.display().to_string(),
            1,
            1,
            format!("cannot write the translated program: {e}"),
        ))
    })?;
    Ok(TempC(path))
}

/// Compiles the translation of `l`.
pub fn compile(l: &Litmus, tr: &Translation) -> Result<porf_c::ir::Module, CheckError> {
    let tmp = temp_c(&tr.c)?;
    porf_c::compile_file(&tmp.0, &FrontOptions::default()).map_err(|mut d| {
        if d.file == tmp.0.display().to_string() || d.file == crate::translate::HARNESS {
            // An error in porf's own glue code: report it at the test's first line.
            d.message = format!(
                "porf could not translate this test ({}:{}: {})",
                d.line, d.col, d.message
            );
            d.file = l.file.clone();
            d.line = 1;
            d.col = 1;
        }
        CheckError::Front(d)
    })
}

fn explore(
    module: &porf_c::ir::Module,
    strategy: Strategy,
    model: &dyn MemoryModel,
    opts: &Options,
) -> (Stats, CProgram) {
    let prog = CProgram::new(
        module.clone(),
        RunOptions {
            unroll: opts.unroll,
            spin_assume: false,
            disable_zne_spin_assume: false,
            spin_private_writes: false,
            recursion_limit: None,
            nondet_range: None,
            abort_blocks: false,
        },
    );
    let cfg = config(opts);
    if opts.all_release_acquire {
        let ra = AllReleaseAcquire(prog);
        let stats = porf_explore::explore(strategy, &ra, model, &cfg);
        (stats, ra.0)
    } else {
        let stats = porf_explore::explore(strategy, &prog, model, &cfg);
        (stats, prog)
    }
}

/// The exploration's configuration: keep going after errors, count executions per
/// final state, and the limits of `opts`.
pub(crate) fn config(opts: &Options) -> Config {
    Config {
        keep_going: true,
        count_final_states: true,
        threads: opts.threads,
        max_events_per_execution: opts.max_events_per_execution,
        memory_limit: opts.memory_limit,
        disable_candidate_pruning: opts.disable_candidate_pruning,
        ..Config::default()
    }
}

/// [`CheckError::Limit`] if a limit stopped the exploration that gave `stats`.
fn limited(file: &str, stats: &Stats) -> Result<(), CheckError> {
    match stats.stopped_by {
        Some(r) => Err(CheckError::Limit(format!(
            "{file}:1:1: no verdict: {r} stopped the exploration (an execution with {} events); \
             if a loop never ends, bound it with --unroll N",
            stats.peak_graph_size
        ))),
        None => Ok(()),
    }
}

pub(crate) fn location<P: Program>(prog: &P, s: SrcLoc) -> String {
    if s.line == 0 {
        return String::new();
    }
    format!("{}:{}:{}", prog.source_file(s.file), s.line, s.col)
}

/// Data races: the two racing accesses' `file:line:col` each.
pub(crate) type Races = Vec<(String, String)>;

/// Data races and other errors of the exploration that gave `stats` of `prog`
/// (test file `file`), each at its `file:line:col`; no verdict
/// ([`CheckError::Unsupported`]) if some execution did something porf does not
/// model, or one of the classes `fatal`, and none ([`CheckError::Limit`]) if a limit
/// stopped the exploration.
pub(crate) fn sort_errors<P: Program>(
    file: &str,
    prog: &P,
    stats: &Stats,
    fatal: &[ErrorClass],
) -> Result<(Races, Vec<String>), CheckError> {
    if let Some(e) = stats
        .errors
        .iter()
        .find(|e| e.class == ErrorClass::Unsupported || fatal.contains(&e.class))
    {
        let at = e
            .events
            .first()
            .map(|(_, s)| location(prog, *s))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| format!("{file}:1:1"));
        let what = if e.class == ErrorClass::Unsupported {
            "unsupported"
        } else {
            "error"
        };
        return Err(CheckError::Unsupported(format!(
            "{at}: {what}: {}",
            e.message
        )));
    }
    limited(file, stats)?;
    let mut races = Vec::new();
    let mut errors = Vec::new();
    for e in &stats.errors {
        let locs: Vec<String> = e.events.iter().map(|(_, s)| location(prog, *s)).collect();
        if e.class == ErrorClass::Race {
            let a = locs.first().cloned().unwrap_or_default();
            let b = locs.get(1).cloned().unwrap_or_default();
            races.push((a, b));
        } else {
            errors.push(format!("{}: {}", locs.join(", "), e.message));
        }
    }
    Ok((races, errors))
}

/// How one test reads a final state: each needed location's value, the number of an
/// address value, and herd's spelling of a location's value.
pub(crate) struct Reading<'a> {
    pub val: &'a dyn Fn(&porf_explore::FinalState, &Loc) -> i64,
    pub addr_value: &'a dyn Fn(&Value) -> i64,
    pub show: &'a dyn Fn(&Loc, i64) -> String,
}

/// herd's flags some complete execution raised, among those the filter keeps (herd
/// evaluates a flag only on the executions that pass the test's `filter`).
pub(crate) fn raised_flags(
    flags: &BTreeMap<&'static str, std::collections::BTreeSet<porf_explore::FinalState>>,
    filter: Option<&Prop>,
    r: &Reading,
) -> Vec<String> {
    flags
        .iter()
        .filter(|(_, states)| {
            states.iter().any(|fs| {
                filter.is_none_or(|f| f.eval(&|loc: &Loc| (r.val)(fs, loc), r.addr_value))
            })
        })
        .map(|(f, _)| f.to_string())
        .collect()
}

/// The distinct final states of `final_states` projected on `observed` (in herd's
/// order), each with whether `prop` holds there and how many executions the filter
/// keeps end there; then the positive and negative execution counts.
pub(crate) fn tally(
    final_states: &BTreeMap<porf_explore::FinalState, u64>,
    observed: &[Loc],
    filter: Option<&Prop>,
    prop: &Prop,
    r: &Reading,
) -> (Vec<FinalState>, u64, u64) {
    // Per distinct projection on the observed locations: whether the proposition
    // holds (a function of the projection, since the condition's locations are
    // observed) and how many executions end there.
    let mut distinct: BTreeMap<Vec<i64>, (bool, u64)> = BTreeMap::new();
    for (fs, &n) in final_states {
        let val = |loc: &Loc| (r.val)(fs, loc);
        if filter.is_some_and(|f| !f.eval(&val, r.addr_value)) {
            continue;
        }
        let sat = prop.eval(&val, r.addr_value);
        let key: Vec<i64> = observed.iter().map(val).collect();
        distinct.entry(key).or_insert((sat, 0)).1 += n;
    }
    let states: Vec<FinalState> = distinct
        .iter()
        .map(|(vals, &(satisfies, executions))| FinalState {
            values: observed
                .iter()
                .zip(vals)
                .map(|(loc, &v)| (loc.clone(), (r.show)(loc, v)))
                .collect(),
            satisfies,
            executions,
        })
        .collect();
    let positive = states
        .iter()
        .filter(|s| s.satisfies)
        .map(|s| s.executions)
        .sum();
    let negative = states
        .iter()
        .filter(|s| !s.satisfies)
        .map(|s| s.executions)
        .sum();
    (states, positive, negative)
}

/// Checks the parsed test `l` under `model`.
pub fn check(
    l: &Litmus,
    model: &dyn MemoryModel,
    model_name: &str,
    opts: &Options,
) -> Result<Outcome, CheckError> {
    if crate::kernel::is_kernel(l) {
        return crate::kernel::check(l, model, model_name, opts);
    }
    if model.allows_load_buffering() {
        return Err(CheckError::Unsupported(format!(
            "{}:1:1: unsupported: C11 tests do not run under `{model_name}`",
            l.file
        )));
    }
    let start = Instant::now();
    let tr = translate(l).map_err(CheckError::Litmus)?;
    let module = compile(l, &tr)?;
    let addr_of: HashMap<&str, i64> = module
        .cells
        .iter()
        .map(|(&a, c)| (c.name.as_str(), a))
        .collect();
    let cell = |name: &str| -> Result<i64, CheckError> {
        addr_of.get(name).copied().ok_or_else(|| {
            CheckError::Unsupported(format!(
                "{}:1:1: unsupported: porf found no global cell for `{name}`",
                l.file
            ))
        })
    };
    let needed = l.needed();
    let observed = l.observed();
    let mut cells: BTreeMap<Loc, (i64, bool)> = BTreeMap::new();
    for loc in &needed {
        let (name, ptr) = &tr.cells[loc];
        cells.insert(loc.clone(), (cell(name)?, *ptr));
    }
    let mut addrs: BTreeMap<String, i64> = BTreeMap::new();
    for n in tr.globals.keys() {
        addrs.insert(n.clone(), cell(n)?);
    }
    let names_by_addr: HashMap<i64, &str> = addrs.iter().map(|(n, &a)| (a, n.as_str())).collect();

    let strategy = chosen_strategy(model, model_name, opts)
        .map_err(|m| CheckError::Unsupported(format!("{}:1:1: unsupported: {m}", l.file)))?;
    let (stats, prog) = explore(&module, strategy, model, opts);
    let (races, errors) = sort_errors(&l.file, &prog, &stats, &[])?;

    let init_of = |a: i64| module.cells.get(&a).map_or(0, |c| c.init);
    let addr_value = |v: &Value| match v {
        Value::Int(i) => *i,
        Value::Addr(x) => addrs.get(x).copied().unwrap_or(-1),
    };
    let val = |fs: &porf_explore::FinalState, loc: &Loc| {
        let a = cells[loc].0;
        fs.memory
            .iter()
            .find(|&&(m, _)| m as i64 == a)
            .map_or_else(|| init_of(a), |&(_, v)| v)
    };
    let show = |loc: &Loc, v: i64| match (cells[loc].1, names_by_addr.get(&v)) {
        (true, Some(n)) => n.to_string(),
        _ => v.to_string(),
    };
    let reading = Reading {
        val: &val,
        addr_value: &addr_value,
        show: &show,
    };
    let (states, positive, negative) = tally(
        &stats.final_state_counts,
        &observed,
        l.filter.as_ref(),
        &l.cond.prop,
        &reading,
    );
    let loop_cut = stats.bound_cut > 0;
    Ok(Outcome {
        name: l.name.clone(),
        file: l.file.clone(),
        model: model_name.to_string(),
        cond: l.cond.clone(),
        states,
        positive,
        negative,
        races,
        errors,
        flags: raised_flags(&stats.flags, l.filter.as_ref(), &reading),
        loop_cut,
        bound_cut: stats.bound_cut,
        elapsed: start.elapsed(),
    })
}

/// herd's output for `o` (without herd's `Hash=` line, which porf cannot compute).
pub fn herd_text(o: &Outcome) -> String {
    let mut s = String::new();
    let (wp, wn) = o.witnesses();
    s.push_str(&format!("Test {} {}\n", o.name, o.cond.quant.kind()));
    s.push_str(&format!("States {}\n", o.states.len()));
    for st in &o.states {
        s.push_str(&st.line());
        s.push('\n');
    }
    if o.loop_cut {
        s.push_str("Loop ");
    }
    s.push_str(o.verdict());
    s.push('\n');
    s.push_str("Witnesses\n");
    s.push_str(&format!("Positive: {wp} Negative: {wn}\n"));
    if !o.races.is_empty() {
        s.push_str("Flag *undef*\n");
    }
    for f in &o.flags {
        s.push_str(&format!("Flag {f}\n"));
    }
    s.push_str(&format!("Condition {}\n", o.cond));
    s.push_str(&format!(
        "Observation {} {} {} {}\n",
        o.name,
        o.observation(),
        o.positive,
        o.negative
    ));
    s.push_str(&format!("Time {} {:.2}\n", o.name, o.elapsed.as_secs_f64()));
    s.push('\n');
    s
}
