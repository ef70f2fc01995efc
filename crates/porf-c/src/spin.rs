//! Static half of spin-assume: the natural loops of every function and what of a
//! thread's local state is live at their headers.
//!
//! GenMC's `SpinAssumePass` (v0.11, `src/Static/Transforms/SpinAssumePass.cpp`) finds
//! natural loops whose path from the header to a latch has no side effect, and turns
//! the latch's back edge into an assume of the loop's exit condition; loops with
//! effects on the path are checked at run time ("dynamic spin detection": no
//! observable write since the last visit of the header). porf does the whole decision
//! at run time, in the interpreter (`interp::spin`), from what this module computes
//! once per program:
//!
//! * the loops: a header with all its latches, the sources of the retreating edges
//!   into it of one depth-first search ([`crate::cfg`]). For a reducible graph (every
//!   `goto`-free function, and most with `goto`) these are exactly the natural loops
//!   (Aho, Lam, Sethi and Ullman, "Compilers", §9.6: back edges `latch → header`
//!   whose target dominates their source), however the loop was written (`while`,
//!   `for`, `do`, a backward `goto`). An irreducible cycle (two entries, made with
//!   `goto`) has no such back edge, but it has a retreating edge, so it is watched
//!   too, at that edge's target; the run-time rule (`interp::spin`) compares machine
//!   states at one program point and its argument does not depend on the loop's
//!   shape. (GenMC leaves irreducible cycles alone.) A loop whose header is the entry
//!   block is skipped (the interpreter sees loop entries only as jumps).
//! * register and frame-slot liveness at each header (classic backward data flow): a
//!   register that is not live at the header is redefined on every path from it before
//!   being read, so two machine states that differ only there behave the same.
//!
//! Invariants: `FuncLoops::loops` is sorted by header and has at most one entry per
//! header; `live_regs` and `live_slots` are a superset of what is live (the analysis
//! errs on the live side); when a frame address escapes (is used other than as the
//! address of a plain load or store, or slots overlap), `frame_escapes` is set and the
//! whole frame counts as live.

use crate::cfg::{successors, Cfg};
use crate::ir::{BlockId, Function, InstKind, Module, Operand, Reg, Terminator};
use porf_graph::SrcLoc;
use std::collections::HashMap;

/// The natural loops of one function and the liveness facts at their headers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FuncLoops {
    pub loops: Vec<NatLoop>,
    /// Frame slots `(offset, bytes)` of the function (liveness variables after the
    /// registers); empty when `frame_escapes`.
    pub slots: Vec<(u32, u8)>,
    /// Some frame address is used other than as the address of a load or store: all
    /// frame bytes count as live.
    pub frame_escapes: bool,
    /// What is live on entry to each block (indexed by block), for comparing states
    /// where a loop's exit and a path around the loop meet (`interp::spin`'s rule (c)).
    pub block_live: Vec<Live>,
}

/// Registers and frame slots live at a program point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Live {
    /// Bit `r` of word `r / 64`: register `r` is live.
    pub regs: Vec<u64>,
    /// Indices into [`FuncLoops::slots`].
    pub slots: Vec<usize>,
}

impl Live {
    /// Whether register `r` is live.
    pub fn reg(&self, r: Reg) -> bool {
        self.regs
            .get(r as usize / 64)
            .is_some_and(|w| w >> (r % 64) & 1 == 1)
    }
}

/// A loop: a header and the blocks that jump back to it (retreating edges).
#[derive(Clone, Debug, PartialEq)]
pub struct NatLoop {
    pub header: BlockId,
    /// Sources of the back edges, sorted.
    pub latches: Vec<BlockId>,
    /// The loop's blocks (the header and the blocks reaching a latch without passing
    /// it), sorted.
    pub body: Vec<BlockId>,
    /// Stores every iteration makes first, at an address that depends on no value the
    /// iteration read (`(block, instruction)`, sorted): the straight-line code from the
    /// header, through unconditional jumps, holding only local computations, fences,
    /// loads at such addresses and such stores, up to the first other instruction.
    /// From equal states at the header, two iterations run these instructions in the
    /// same order at the same addresses (`interp::spin`, private writes).
    pub prefix_stores: Vec<(BlockId, u32)>,
    /// Registers live on entry to the header (bit `r` of word `r / 64`).
    pub live_regs: Vec<u64>,
    /// Indices into [`FuncLoops::slots`] of the frame slots live at the header.
    pub live_slots: Vec<usize>,
    /// Where the loop is in the source: the `while`/`do`/`for` statement when the
    /// front end marked it (`LoopEnter` right before the loop), else the header.
    pub src: SrcLoc,
}

impl NatLoop {
    /// Whether register `r` is live at the header.
    pub fn reg_live(&self, r: Reg) -> bool {
        self.live_regs
            .get(r as usize / 64)
            .is_some_and(|w| w >> (r % 64) & 1 == 1)
    }
}

impl FuncLoops {
    /// Whether block `b` is in loop `lp`.
    pub fn in_body(&self, lp: usize, b: BlockId) -> bool {
        self.loops[lp].body.binary_search(&b).is_ok()
    }

    /// The loop whose header is `b`, if any.
    pub fn at_header(&self, b: BlockId) -> Option<usize> {
        self.loops.binary_search_by_key(&b, |l| l.header).ok()
    }
}

/// The natural loops of every function of `m`, indexed like `m.funcs`.
pub fn analyze(m: &Module) -> Vec<FuncLoops> {
    m.funcs.iter().map(analyze_func).collect()
}

/// Calls `f` on every operand an instruction reads.
pub(crate) fn uses(k: &InstKind, f: impl FnMut(Operand)) {
    k.uses(f)
}

/// The registers an instruction writes.
fn defs(k: &InstKind, f: impl FnMut(Reg)) {
    k.defs(f)
}

/// Frame slots: which registers hold frame addresses, and the slot each plain access
/// through one touches. `None` when a frame address escapes.
struct Slots {
    /// Register → frame offset it holds.
    addr_of: HashMap<Reg, u32>,
    /// Slot `(offset, bytes)` → index.
    index: HashMap<(u32, u8), usize>,
    list: Vec<(u32, u8)>,
}

impl Slots {
    fn of(&self, addr: Operand, bytes: u8) -> Option<usize> {
        match addr {
            Operand::Reg(r) => self
                .addr_of
                .get(&r)
                .and_then(|&o| self.index.get(&(o, bytes)).copied()),
            Operand::Const(_) => None,
        }
    }
}

fn frame_slots(f: &Function) -> Option<Slots> {
    let mut addr_of: HashMap<Reg, u32> = HashMap::new();
    let mut other_def = vec![false; f.nregs as usize];
    for b in &f.blocks {
        for i in &b.insts {
            match &i.kind {
                InstKind::FrameAddr { dst, offset } => {
                    if *addr_of.entry(*dst).or_insert(*offset) != *offset {
                        return None;
                    }
                }
                k => defs(k, |d| {
                    if let Some(o) = other_def.get_mut(d as usize) {
                        *o = true;
                    }
                }),
            }
        }
    }
    // Parameters are defined by the caller.
    if addr_of
        .keys()
        .any(|&r| r < f.nparams || other_def.get(r as usize).copied().unwrap_or(true))
    {
        return None;
    }
    let mut index = HashMap::new();
    let mut list = Vec::new();
    let is_frame = |o: &Operand| matches!(o, Operand::Reg(r) if addr_of.contains_key(r));
    for b in &f.blocks {
        for i in &b.insts {
            let (addr, bytes, rest_ok) = match &i.kind {
                InstKind::Load { addr, ty, .. } | InstKind::CopyLoad { addr, ty, .. } => {
                    (Some(*addr), ty.size, true)
                }
                InstKind::Store { addr, val, ty, .. } => (Some(*addr), ty.size, !is_frame(val)),
                InstKind::CopyStore {
                    addr,
                    val,
                    written,
                    ty,
                    ..
                } => (Some(*addr), ty.size, !is_frame(val) && !is_frame(written)),
                k => {
                    let mut escapes = false;
                    uses(k, |o| escapes |= is_frame(&o));
                    if escapes {
                        return None;
                    }
                    continue;
                }
            };
            if !rest_ok {
                return None;
            }
            if let Some(Operand::Reg(r)) = addr {
                if let Some(&off) = addr_of.get(&r) {
                    index.entry((off, bytes)).or_insert_with(|| {
                        list.push((off, bytes));
                        list.len() - 1
                    });
                }
            }
        }
        let escapes = match &b.term {
            Terminator::Branch { cond, .. } => is_frame(cond),
            Terminator::Return(Some(v)) => is_frame(v),
            _ => false,
        };
        if escapes {
            return None;
        }
    }
    // Overlapping slots of different shapes: give up on slot precision.
    let mut sorted = list.clone();
    sorted.sort();
    if sorted.windows(2).any(|w| w[0].0 + w[0].1 as u32 > w[1].0) {
        return None;
    }
    Some(Slots {
        addr_of,
        index,
        list,
    })
}

/// A bit set over liveness variables (registers, then frame slots).
#[derive(Clone, PartialEq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64).max(1)])
    }
    fn set(&mut self, i: usize, on: bool) {
        let (w, b) = (i / 64, i % 64);
        if on {
            self.0[w] |= 1 << b;
        } else {
            self.0[w] &= !(1 << b);
        }
    }
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn union_with(&mut self, o: &Bits) {
        for (a, b) in self.0.iter_mut().zip(&o.0) {
            *a |= b;
        }
    }
}

/// Registers and slots live on entry to each block.
fn liveness(f: &Function, slots: Option<&Slots>) -> Vec<Bits> {
    let nregs = f.nregs as usize;
    let nvars = nregs + slots.map_or(0, |s| s.list.len());
    let n = f.blocks.len();
    let mut live_in = vec![Bits::new(nvars); n];
    let transfer = |b: usize, out: &Bits| {
        let blk = &f.blocks[b];
        let mut live = out.clone();
        let use_op = |live: &mut Bits, o: Operand| {
            if let Operand::Reg(r) = o {
                if (r as usize) < nregs {
                    live.set(r as usize, true);
                }
            }
        };
        match &blk.term {
            Terminator::Branch { cond, .. } => use_op(&mut live, *cond),
            Terminator::Return(Some(v)) => use_op(&mut live, *v),
            _ => {}
        }
        for i in blk.insts.iter().rev() {
            defs(&i.kind, |d| {
                if (d as usize) < nregs {
                    live.set(d as usize, false);
                }
            });
            if let Some(s) = slots {
                match &i.kind {
                    InstKind::Store { addr, ty, .. } | InstKind::CopyStore { addr, ty, .. } => {
                        if let Some(k) = s.of(*addr, ty.size) {
                            live.set(nregs + k, false);
                        }
                    }
                    InstKind::Load { addr, ty, .. } | InstKind::CopyLoad { addr, ty, .. } => {
                        if let Some(k) = s.of(*addr, ty.size) {
                            live.set(nregs + k, true);
                        }
                    }
                    // Rewrites every slot inside the range.
                    InstKind::FrameInit { offset, size, .. } => {
                        for (k, &(o, n)) in s.list.iter().enumerate() {
                            if o >= *offset && o + n as u32 <= offset + size {
                                live.set(nregs + k, false);
                            }
                        }
                    }
                    _ => {}
                }
            }
            uses(&i.kind, |o| use_op(&mut live, o));
        }
        live
    };
    let succ: Vec<Vec<BlockId>> = f.blocks.iter().map(|b| successors(&b.term)).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let mut out = Bits::new(nvars);
            for &s in &succ[b] {
                out.union_with(&live_in[s as usize]);
            }
            let new = transfer(b, &out);
            if new != live_in[b] {
                live_in[b] = new;
                changed = true;
            }
        }
    }
    live_in
}

/// [`NatLoop::prefix_stores`] of the loop headed by `h`.
fn prefix_stores(f: &Function, h: BlockId) -> Vec<(BlockId, u32)> {
    // Registers whose value may depend on a value read in the iteration.
    let mut tainted: Vec<bool> = vec![false; f.nregs as usize];
    let is_tainted = |t: &[bool], o: &Operand| match o {
        Operand::Reg(r) => t.get(*r as usize).copied().unwrap_or(true),
        Operand::Const(_) => false,
    };
    let mut out = Vec::new();
    let mut seen = vec![false; f.blocks.len()];
    let mut b = h;
    loop {
        if std::mem::replace(&mut seen[b as usize], true) {
            break;
        }
        let blk = &f.blocks[b as usize];
        for (k, i) in blk.insts.iter().enumerate() {
            match &i.kind {
                InstKind::Store { addr, .. } if !is_tainted(&tainted, addr) => {
                    out.push((b, k as u32));
                }
                InstKind::Load { addr, dst, .. } if !is_tainted(&tainted, addr) => {
                    if let Some(t) = tainted.get_mut(*dst as usize) {
                        *t = true;
                    }
                }
                InstKind::Fence { .. } | InstKind::LoopEnter { .. } | InstKind::LoopIter { .. } => {
                }
                k @ (InstKind::Copy { .. }
                | InstKind::Unary { .. }
                | InstKind::Binary { .. }
                | InstKind::Convert { .. }
                | InstKind::FloatConvert { .. }
                | InstKind::FrameAddr { .. }
                | InstKind::SharedAddr { .. }
                | InstKind::TlsAddr { .. }
                | InstKind::FuncAddr { .. }) => {
                    let mut t = false;
                    uses(k, |o| t |= is_tainted(&tainted, &o));
                    defs(k, |d| {
                        if let Some(x) = tainted.get_mut(d as usize) {
                            *x = t;
                        }
                    });
                }
                _ => return out,
            }
        }
        match blk.term {
            Terminator::Jump(next) => b = next,
            _ => break,
        }
    }
    out
}

fn analyze_func(f: &Function) -> FuncLoops {
    let n = f.blocks.len();
    let g = Cfg::of(f);
    let preds = &g.preds;
    let mut latches: std::collections::BTreeMap<BlockId, Vec<BlockId>> = Default::default();
    for (b, _, h) in g.retreating_edges() {
        if h != 0 {
            latches.entry(h).or_default().push(b);
        }
    }
    if latches.is_empty() {
        return FuncLoops::default();
    }
    let slots = frame_slots(f);
    let live = liveness(f, slots.as_ref());
    let nregs = f.nregs as usize;
    let nslots = slots.as_ref().map_or(0, |s| s.list.len());
    let to_live = |l: &Bits| {
        let mut regs = vec![0u64; nregs.div_ceil(64).max(1)];
        for r in 0..nregs {
            if l.get(r) {
                regs[r / 64] |= 1 << (r % 64);
            }
        }
        Live {
            regs,
            slots: (0..nslots).filter(|&k| l.get(nregs + k)).collect(),
        }
    };
    let loops = latches
        .into_iter()
        .map(|(h, mut ls)| {
            ls.sort();
            ls.dedup();
            // The loop body: blocks reaching a latch without passing the header.
            let mut body = vec![false; n];
            body[h as usize] = true;
            let mut work: Vec<BlockId> = ls.clone();
            while let Some(b) = work.pop() {
                if !std::mem::replace(&mut body[b as usize], true) {
                    work.extend(preds[b as usize].iter().copied());
                }
            }
            let hb = &f.blocks[h as usize];
            let src = preds[h as usize]
                .iter()
                .filter(|&&p| !body[p as usize])
                .find_map(|&p| match f.blocks[p as usize].insts.last() {
                    Some(i)
                        if matches!(
                            i.kind,
                            InstKind::LoopEnter { .. } | InstKind::LoopHint { .. }
                        ) =>
                    {
                        Some(i.src)
                    }
                    _ => None,
                })
                .or_else(|| hb.insts.first().map(|i| i.src))
                .unwrap_or(hb.term_src);
            let Live {
                regs: live_regs,
                slots: live_slots,
            } = to_live(&live[h as usize]);
            NatLoop {
                header: h,
                latches: ls,
                body: (0..n as BlockId).filter(|&b| body[b as usize]).collect(),
                prefix_stores: prefix_stores(f, h),
                live_regs,
                live_slots,
                src,
            }
        })
        .collect();
    FuncLoops {
        loops,
        block_live: live.iter().map(to_live).collect(),
        frame_escapes: slots.is_none(),
        slots: slots.map_or(Vec::new(), |s| s.list),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compile_file, FrontOptions};

    /// The loops of `func` in `src` (a `main` is appended), compiled from file `name`.
    fn loops_of(name: &str, src: &str, func: &str) -> FuncLoops {
        let dir = std::env::temp_dir().join(format!("porf-spin-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.c"));
        std::fs::write(&path, format!("{src}\nint main(void) {{ return 0; }}\n")).unwrap();
        let m = compile_file(&path, &FrontOptions::default()).unwrap();
        let i = m.funcs.iter().position(|f| f.name == func).unwrap();
        analyze(&m).swap_remove(i)
    }

    #[test]
    fn while_do_for_and_goto_loops_are_natural_loops() {
        let src = "#include <stdatomic.h>\natomic_int x;\nint f(void) {\n\
                   while (!x) ;\n\
                   do { } while (!x);\n\
                   for (int i = 0; i < 3; i++) ;\n\
                   again: if (!x) goto again;\n\
                   return 0; }\n";
        let l = loops_of("natural", src, "f");
        assert_eq!(l.loops.len(), 4, "{l:?}");
        // The first three are marked by the front end: their position is the statement.
        let lines: Vec<u32> = l.loops.iter().map(|n| n.src.line).collect();
        assert!(
            lines.contains(&4) && lines.contains(&5) && lines.contains(&6),
            "{lines:?}"
        );
    }

    #[test]
    fn an_irreducible_goto_loop_is_watched_at_one_header() {
        // A and B are both entered from outside; the search reaches B first (the
        // `goto B` is the if's `then`), so the loop's header is B and A its latch.
        let src = "#include <stdatomic.h>\natomic_int x;\nint f(void) {\n\
                   if (x) goto B;\n\
                   A: ;\n\
                   B: if (!x) goto A;\n\
                   return 0; }\n";
        let l = loops_of("irreducible", src, "f");
        assert_eq!(l.loops.len(), 1, "{l:?}");
        assert_eq!(l.loops[0].latches.len(), 1, "{l:?}");
    }

    #[test]
    fn a_counter_is_live_at_its_header_a_reread_value_is_not() {
        let src = "#include <stdatomic.h>\natomic_int x;\nint f(void) {\n\
                   int n = 0;\n\
                   while (!x) n++;\n\
                   return n; }\n\
                   int g(void) { int r; while ((r = x) == 0) ; return r; }\n";
        let f = loops_of("counter", src, "f");
        assert!(f.loops[0].live_regs.iter().any(|&w| w != 0), "{f:?}");
        let g = loops_of("counter", src, "g");
        assert!(g.loops[0].live_regs.iter().all(|&w| w == 0), "{g:?}");
    }

    #[test]
    fn a_frame_slot_rewritten_before_use_is_dead() {
        // `expected` is address-taken (frame memory) and reset at the top of the body.
        let src = "#include <stdatomic.h>\natomic_int x;\nvoid f(void) {\n\
                   int done = 0;\n\
                   while (!done) { int expected = 0; \
                   done = atomic_compare_exchange_strong(&x, &expected, 1); } }\n";
        let f = loops_of("slot", src, "f");
        assert!(!f.frame_escapes, "{f:?}");
        assert!(f.loops[0].live_slots.is_empty(), "{f:?}");
    }
}
