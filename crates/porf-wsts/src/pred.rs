//! Finite bases of predecessor sets of the memory systems (Lahav and Boker, §8.3):
//! for a memory state `B'` and a step α of thread τ, states whose upward closure is
//! `↑pred^α(↑{B'})`.
//!
//! * READ of `v` from `x`: prepend a read option `O_R(w, x, v, tag)` to every list of
//!   τ, for every writer `w` and tag.
//! * WRITE of `v` to `x`: for every *index choice* `P` supporting the step (Def. 8.1),
//!   the source `src(B', τ, P)` (Def. 8.3; Prop. 8.4); under loWRA with `O_W(x)`
//!   prepended to τ's lists.
//! * RMW: the WRITE's sources with the read option (tagged RMW, or with τ as RMW
//!   thread under loWRA, followed by `O_W(x)`) prepended to τ's lists.
//!
//! Only index choices that are minimal in effect are enumerated: for a list and a
//! first chosen position, every later matching position the step allows is chosen
//! too, because removing more options gives a ⊑-smaller source, whose upward closure
//! contains the others'. Writers and tags range over [`Alphabet`]: the threads that
//! can write the value, and the RMW tags that can matter — the rest of the alphabet
//! only names options no run can consume differently.

use crate::option::{self, Opt};
use crate::potential::{List, Potential};
use crate::system::{Label, Model, System};

/// The RMW thread identifier of loWRA options that no RMW will consume.
pub const NOBODY: u8 = 0xff;

/// Which option symbols the search needs, per location.
#[derive(Clone, Debug)]
pub struct Alphabet {
    /// `writers[x][v]`: the threads with a transition writing `v` to `x`.
    pub writers: Vec<Vec<Vec<u8>>>,
    /// `tags[x]`: the tags an option on `x` may carry (loSRA: R = 0, RMW = 1, only R
    /// when no thread performs an RMW on `x`; loWRA: the threads performing an RMW on
    /// `x`, and [`NOBODY`]).
    pub tags: Vec<Vec<u8>>,
}

impl Alphabet {
    pub fn new(sys: &System, model: Model) -> Alphabet {
        let (nl, nv) = (usize::from(sys.locs), usize::from(sys.vals));
        let mut writers = vec![vec![Vec::new(); nv]; nl];
        let mut rmw_threads = vec![Vec::new(); nl];
        for (t, th) in sys.threads.iter().enumerate() {
            let t = t as u8;
            for ts in &th.trans {
                for (l, _) in ts {
                    let (loc, val) = match *l {
                        Label::Write { loc, val } => (loc, val),
                        Label::Rmw { loc, write, .. } => {
                            rmw_threads[usize::from(loc)].push(t);
                            (loc, write)
                        }
                        _ => continue,
                    };
                    writers[usize::from(loc)][usize::from(val)].push(t);
                }
            }
        }
        for w in writers.iter_mut().flatten() {
            w.sort();
            w.dedup();
        }
        let tags = rmw_threads
            .into_iter()
            .map(|mut r: Vec<u8>| {
                r.sort();
                r.dedup();
                match model {
                    Model::Sra if r.is_empty() => vec![0],
                    Model::Sra => vec![0, 1],
                    Model::Wra => {
                        r.push(NOBODY);
                        r
                    }
                }
            })
            .collect();
        Alphabet { writers, tags }
    }

    fn writers(&self, x: u8, v: u8) -> &[u8] {
        &self.writers[usize::from(x)][usize::from(v)]
    }
}

/// A predecessor memory state and, for reads, the writer its option names.
pub type Pred = (Vec<Potential>, Option<u8>);

fn prepend(p: &Potential, prefix: &[Opt]) -> Potential {
    Potential::new(
        p.lists()
            .iter()
            .map(|l| prefix.iter().copied().chain(l.iter().copied()).collect())
            .collect(),
    )
}

/// Predecessors for a READ of `v` from `x` by `tau` (§8.3, "Read").
/// `viable(w)`: whether thread `w` can still (going backwards) write `v` to `x`; other
/// writers are skipped, as their option could never be removed.
pub fn read(
    mem: &[Potential],
    ab: &Alphabet,
    tau: usize,
    x: u8,
    v: u8,
    viable: &dyn Fn(u8) -> bool,
) -> Vec<Pred> {
    let mut out = Vec::new();
    for &w in ab.writers(x, v).iter().filter(|&&w| viable(w)) {
        for &tag in &ab.tags[usize::from(x)] {
            let mut m = mem.to_vec();
            m[tau] = prepend(&mem[tau], &[option::read(w, x, v, tag)]);
            out.push((m, Some(w)));
        }
    }
    out
}

/// The candidate index sets of one list `l` of thread `pi` for a write of `v` to `x`
/// by `tau` whose options carry `tag` (loWRA; ignored under loSRA). `None`: no index
/// choice supports the step (loSRA forbids the list as it is).
fn choices(
    model: Model,
    l: &[Opt],
    pi: usize,
    tau: usize,
    x: u8,
    v: u8,
    tag: u8,
) -> Option<Vec<Vec<usize>>> {
    let is_x_read = |o: Opt| !option::is_write(o) && option::loc(o) == x;
    let sra_match =
        |o: Opt| is_x_read(o) && usize::from(option::tid(o)) == tau && option::val(o) == v;
    match model {
        Model::Sra => {
            if pi == tau {
                // Every x-option of τ's own list must be one this write added.
                let p: Vec<usize> = (0..l.len()).filter(|&k| is_x_read(l[k])).collect();
                return p.iter().all(|&k| sra_match(l[k])).then_some(vec![p]);
            }
            let mut out = Vec::new();
            // Positions not chosen: x-options only before the first chosen one, and
            // none flagged RMW.
            if !l.iter().any(|&o| is_x_read(o) && option::tag(o) == 1) {
                out.push(Vec::new());
            }
            for p in 0..l.len() {
                if !sra_match(l[p]) {
                    continue;
                }
                if l[..p].iter().any(|&o| is_x_read(o) && option::tag(o) == 1) {
                    break;
                }
                let rest: Vec<usize> = (p..l.len()).filter(|&k| is_x_read(l[k])).collect();
                if rest.iter().all(|&k| sra_match(l[k])) {
                    out.push(rest);
                }
            }
            Some(out)
        }
        Model::Wra => {
            let ow = option::write(x);
            let wra_match = |o: Opt| sra_match(o) && option::tag(o) == tag;
            let mut out = vec![Vec::new()];
            // τ's own lists: every chosen position before the first O_W(x).
            let first_ow = l.iter().position(|&o| o == ow).unwrap_or(l.len());
            for p in 0..l.len() {
                if !wra_match(l[p]) || (pi == tau && p >= first_ow) {
                    continue;
                }
                let end = l[p..]
                    .iter()
                    .position(|&o| o == ow)
                    .map_or(l.len(), |i| p + i);
                out.push((p..end).filter(|&k| wra_match(l[k])).collect());
            }
            Some(out)
        }
    }
}

/// `l` without the positions `p` (sorted).
fn without(l: &[Opt], p: &[usize]) -> List {
    let mut j = 0;
    let mut out = Vec::with_capacity(l.len() - p.len());
    for (k, &o) in l.iter().enumerate() {
        if j < p.len() && p[j] == k {
            j += 1;
        } else {
            out.push(o);
        }
    }
    out
}

/// The sources `src(B', τ, P)` of a WRITE of `v` to `x` by `tau` over every minimal
/// supporting index choice, with `tau_prefix` prepended to τ's lists (`O_W(x)` under
/// loWRA, and an RMW's read option before it).
fn write_sources(
    model: Model,
    mem: &[Potential],
    ab: &Alphabet,
    tau: usize,
    x: u8,
    v: u8,
    tau_prefix: &dyn Fn() -> Vec<List>,
) -> Vec<Vec<Potential>> {
    let tags: Vec<u8> = match model {
        Model::Sra => vec![0],
        Model::Wra => ab.tags[usize::from(x)].clone(),
    };
    let mut out = Vec::new();
    for tag in tags {
        // Per (thread, list): the candidate index sets.
        let mut cands: Vec<(usize, &List, Vec<Vec<usize>>)> = Vec::new();
        let mut possible = true;
        for (pi, pot) in mem.iter().enumerate() {
            for l in pot.lists() {
                match choices(model, l, pi, tau, x, v, tag) {
                    Some(c) if !c.is_empty() => cands.push((pi, l, c)),
                    _ => possible = false,
                }
            }
        }
        if !possible {
            continue;
        }
        // Every combination (odometer over the candidate lists).
        let mut idx = vec![0usize; cands.len()];
        'combos: loop {
            let mut lists: Vec<Vec<List>> = vec![Vec::new(); mem.len()];
            let mut justif: Vec<List> = Vec::new();
            for (c, &(pi, l, ref opts)) in cands.iter().enumerate() {
                let p = &opts[idx[c]];
                lists[pi].push(without(l, p));
                if let Some(&first) = p.first() {
                    justif.push(without(
                        &l[first..],
                        &p.iter().map(|k| k - first).collect::<Vec<_>>(),
                    ));
                }
            }
            lists[tau].extend(justif);
            let prefixes = tau_prefix();
            for prefix in &prefixes {
                let mut m: Vec<Potential> = Vec::with_capacity(mem.len());
                for (pi, ls) in lists.iter().enumerate() {
                    let ls = if pi == tau {
                        ls.iter()
                            .map(|l| prefix.iter().chain(l.iter()).copied().collect())
                            .collect()
                    } else {
                        ls.clone()
                    };
                    m.push(Potential::new(ls));
                }
                out.push(m);
            }
            // Next combination.
            let mut c = 0;
            loop {
                if c == cands.len() {
                    break 'combos;
                }
                idx[c] += 1;
                if idx[c] < cands[c].2.len() {
                    break;
                }
                idx[c] = 0;
                c += 1;
            }
        }
    }
    dedup(out)
}

fn dedup(mut v: Vec<Vec<Potential>>) -> Vec<Vec<Potential>> {
    v.sort();
    v.dedup();
    v
}

/// Predecessors for a WRITE of `v` to `x` by `tau` (Prop. 8.4 and Lemma 8.6).
pub fn write(
    model: Model,
    mem: &[Potential],
    ab: &Alphabet,
    tau: usize,
    x: u8,
    v: u8,
) -> Vec<Pred> {
    let prefix = move || match model {
        Model::Sra => vec![Vec::new()],
        Model::Wra => vec![vec![option::write(x)]],
    };
    write_sources(model, mem, ab, tau, x, v, &prefix)
        .into_iter()
        .map(|m| (m, None))
        .collect()
}

/// Predecessors for an RMW reading `r` and writing `w` at `x` by `tau` (§8.3, "RMW");
/// `viable` as for [`read`].
#[allow(clippy::too_many_arguments)]
pub fn rmw(
    model: Model,
    mem: &[Potential],
    ab: &Alphabet,
    tau: usize,
    x: u8,
    r: u8,
    w: u8,
    viable: &dyn Fn(u8) -> bool,
) -> Vec<Pred> {
    let mut out = Vec::new();
    for &writer in ab.writers(x, r).iter().filter(|&&wr| viable(wr)) {
        let prefix = move || match model {
            Model::Sra => vec![vec![option::read(writer, x, r, 1)]],
            Model::Wra => vec![vec![
                option::read(writer, x, r, tau as u8),
                option::write(x),
            ]],
        };
        if model == Model::Wra && !ab.tags[usize::from(x)].contains(&(tau as u8)) {
            continue;
        }
        out.extend(
            write_sources(model, mem, ab, tau, x, w, &prefix)
                .into_iter()
                .map(|m| (m, Some(writer))),
        );
    }
    out
}
