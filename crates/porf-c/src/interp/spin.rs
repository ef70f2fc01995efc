//! Dynamic half of spin-assume: deciding, at a loop's back edge, that the iteration
//! just run changed nothing that matters, and blocking the execution instead of
//! repeating it.
//!
//! GenMC 0.11 (`SpinAssumePass` and the driver's spin-start handling) blocks an
//! iteration when the path from the header to the latch has no side effect and the
//! header's φ-nodes only carry values re-read from memory. porf decides on the
//! machine state instead, which needs no pattern matching on the code and is exact:
//!
//! **Rule.** A thread is about to take a back edge `latch → header` of a loop
//! (`crate::spin`: a retreating edge of the control-flow graph, natural loop or not),
//! in a visit of the loop begun by entering its header (from outside, or by a back
//! edge the bookkeeping did not see begin).
//! It blocks (`BlockReason::SpinLoop`) when the events the thread added since a point
//! `P` of this visit are only reads (loads, failed compare-exchanges, failed
//! `pthread_mutex_trylock`s), fences, nondeterministic choices and *value-preserving RMWs* (an RMW whose write
//! holds the value its read part read: an exchange of the value already there,
//! `fetch_add(0)`, a `fetch_or` of bits already set, a test-and-set of a set flag, a
//! compare-exchange writing its expected value; not in rule (b), see below),
//! and the state at the header now equals, on everything live there (registers and
//! frame slots live at the header, the whole frame if a frame address escapes, every
//! caller frame, the private stack below, the heap-block and shared-frame counts, the
//! joined threads, the thread-private store; the running frame's `--unroll` counters, of
//! loop statements and of `crate::unroll`'s heads, are ignored: with one iteration fewer
//! they are lower, so that execution goes at least as far before a bound), either
//! * (a) the state at `P` = the start of the current iteration; or
//! * (b) the state obtained by resuming, at `P` = the last read `R0` before the loop
//!   (a load, with no action between it and the loop's entry), with the value of a read
//!   `R1` since `P` of the same location, width and order (a failed compare-exchange
//!   counts with its failure order), and running locally up to the header.
//!
//! **Why this loses no behaviour.** Let `E` be an execution that goes on past the back
//! edge. In case (a), removing the iteration's events (reads, fences and choices of this thread,
//! which no event reads from) leaves a graph whose relations are restrictions of
//! `E`'s; every model porf has (SC, TSO, PSO, RA, RC11, WRA, SRA) forbids cycles or
//! reflexive edges in unions of relations that only shrink when events are removed, so
//! it is consistent; and the thread, in the same state, continues identically. So every
//! continuation of `E` is a continuation of an execution with one iteration fewer. In
//! case (b), the same holds for `E` with `R0` and every read and fence up to the back
//! edge removed but `R1` kept, in `R0`'s place: it has `R0`'s label (same location,
//! width and order) and the thread reaches the header in the same state. Blocked
//! executions therefore only prune repetitions; errors raised by the blocked
//! iteration's own events are still reported (they are added before the block).
//!
//! **Value-preserving RMWs** (Kokologiannakis, Ren and Vafeiadis, "Dynamic Partial
//! Order Reductions for Spinloops", FMCAD 2021, call them ineffective). Let `w` be
//! the write part of such an RMW of the iteration, `w'` the write its read part reads
//! (same value; if `w'` is itself such an RMW of the iteration, follow the chain to
//! the first write outside it). Remove the iteration's events and make every read of
//! `w` read `w'` instead. Values are unchanged, so every thread behaves the same.
//! The relations of the new graph are contained in `E`'s: co and fr are restrictions
//! (the readers of `w` were fr-before exactly the writes co-after `w`, which are
//! co-after `w'`); the new rf edge `w' → r` is in `co;rf` (so in eco, and in TSO's
//! and PSO's `co;rfe`, as `r`, outside the iteration, is of another thread or
//! po-after it, where rfi is not needed) and in `rf;po;rf` (so in `po ∪ rf`);
//! atomicity holds, since `w` was co-immediately after `w'` and an RMW that read `w`
//! is now co-immediately after `w'`; a release sequence containing `w'` contained
//! `w` (an RMW reading from `w'`), under C11's and C++20's definitions, so every
//! synchronisation `w' → r` gives already synchronised with `r` through `w` in `E`,
//! and hb only shrinks. Every model porf has (`sc`, `tso`, `pso`, `ra`, `rc11`,
//! `rc11-genmc`, `wra`, `sra`) is an acyclicity or irreflexivity condition on unions
//! of these relations (psc's `scb` and `psc_F` are monotone in hb, co, fr and eco),
//! so the new graph is consistent. Rule (b) moves `R1` into `R0`'s place, where a
//! read of the iteration's write would be a po-later read; so a value-preserving RMW
//! drops the visit's candidate `R0` and only rule (a) applies to it.
//!
//! **Private writes** (`RunOptions::spin_private_writes`). In rule (a) the iteration
//! may also store to a heap block `B` the thread allocated with no *publishing*
//! action since (anything but loads, failed compare-exchanges and trylocks, fences,
//! nondeterministic choices, joins, allocations and such stores: a write another
//! thread could read, a spawn, an unlock, a free all publish every block allocated so
//! far), provided each such store `w` (to `l`) is one of the loop's
//! `NatLoop::prefix_stores` and the iteration read no location it stores to this way.
//! Let `E` go on past the back edge. The next iteration starts in the same state, so
//! it runs the same prefix from the header: fences, loads at the same addresses (not
//! `l`) and stores at the same addresses, so it stores to `l` again (`w''`, co-after
//! `w`, po-after it) before any publishing action of the thread. A read `r` of `w` by
//! another thread either has the allocation of `B` hb-before it or not. If not, `r`
//! is a lifetime error ("not allocated before"), and it is one wherever it reads: take
//! the first such read in `E`; its po ∪ rf prefix reads no write of the iteration and
//! is in the reduced graph below, and the read added to it reading the co-latest write
//! is consistent (maximal extensions are), so the error is reported there. If it
//! has, hb from the allocation to another thread starts at a publishing action of the
//! thread, which comes after `w''` in po: so `w''` is hb-before `r`, and `r`
//! cannot read `w` (coherence: `w` co `w''` hb `r`; in `wra`, `w` is hb-overwritten).
//! The thread's own later reads of `l` come after `w''` (the prefix's loads before it
//! are at the addresses the iteration read, not `l`), so they do not read `w` either.
//! So no read outside the iteration reads its private writes, and removing the
//! iteration leaves a graph whose relations are restrictions of `E`'s, as in case (a).
//! That hb contains po up to the first publishing action holds in every model porf
//! has; under `pso` a plain store's later stores to other locations may become visible
//! first, so a reader synchronised by them could still read `w`: there the front end
//! leaves this off. Under `wra` too: no read sees `w` there either, but `wra`'s co
//! need not follow po, so `w` can be the co-last write of `l` and so a final value. (GenMC's `WriteLabel::isObservable` makes the same kind of
//! exception for stores to fresh allocations with no release action since; porf's
//! notion of publishing counts every write, and requires the overwrite.)
//!
//! A failed trylock is a read of the lock word with no write part (`ReadKind::
//! TryLock`, the value read says taken), so `while (pthread_mutex_trylock(&m));`
//! and `while (atomic_exchange(&lk, 1));` end like `while (lk);` does.
//! `RunOptions::disable_zne_spin_assume` turns both off.
//!
//! This covers GenMC's static cases (`while (!x);`, `do r = x; while (!r);`, a CAS loop
//! resetting its expected value, `r = x; while (!cas(&x, &r, v));`, whose φ of `r` is a
//! re-read) and the iterations its dynamic check blocks when the path has effects that
//! a given iteration did not perform. It blocks less than GenMC where GenMC's rule is
//! not exact: a value read before the loop that is also kept elsewhere, and
//! fetch-add/fetch-sub pairs that cancel out ("FAI ZNE") and lock/unlock pairs, whose
//! intermediate write another thread may read (a read that is causally after the
//! thread's later events may even read it under `rc11`, when every access is
//! relaxed), are not treated as no-ops.

use super::{Cont, Machine, Pending};
use crate::ir::{BlockId, Module};
use crate::spin::FuncLoops;
use porf_graph::{Action, BlockReason, Loc, MemOrder, RmwOp, Val};
use std::sync::Arc;

/// Local steps a re-run from a pre-loop read may take before reaching the header.
const RERUN_LIMIT: u32 = 100_000;

/// Spin-assume bookkeeping of a running thread (empty and inactive in snapshots).
#[derive(Clone, Debug, Default)]
pub(super) struct Spin {
    /// Whether this machine tracks loops (the program has a loop analysis, and this is
    /// not a snapshot).
    pub(super) active: bool,
    /// Whether value-preserving RMWs and failed trylocks count as reads
    /// (`RunOptions::disable_zne_spin_assume` unset).
    pub(super) zne: bool,
    /// Whether writes to unpublished heap blocks may be part of a blocked iteration
    /// (`RunOptions::spin_private_writes`).
    pub(super) private_ok: bool,
    /// The heap blocks this thread allocated since its last publishing action
    /// (`[base, end)`): no other thread can access them without an error.
    private: Vec<(u64, u64)>,
    /// The state just before the last action was resumed, if that action was a load:
    /// a candidate `R0` for rule (b).
    last_read: Option<Arc<PreRead>>,
    /// The loop visits in progress, innermost last.
    watches: Vec<Watch>,
}

/// A load about to be resumed: the machine state and how it was to be resumed.
#[derive(Debug)]
struct PreRead {
    m: Machine,
    cont: Cont,
    key: (Loc, u8, MemOrder),
}

impl PreRead {
    /// The machine resumed from this read with each distinct value of `reads` of its
    /// location, width and order: the re-runs rules (b) and (c) compare.
    fn resumed_with<'a>(
        &'a self,
        reads: &'a [((Loc, u8, MemOrder), Val)],
    ) -> impl Iterator<Item = Machine> + 'a {
        let mut tried: Vec<Val> = Vec::new();
        reads.iter().filter_map(move |&(key, v)| {
            if key != self.key || tried.contains(&v) {
                return None;
            }
            tried.push(v);
            let mut m = self.m.snapshot();
            m.resume(self.cont, v);
            Some(m)
        })
    }
}

/// What an action the engine performed is, for the rules.
#[derive(Clone, Copy)]
enum Seen {
    /// A load or failed compare-exchange: a read with a key for rule (b).
    Read((Loc, u8, MemOrder)),
    /// A read that is no candidate `R1` of rule (b): a failed trylock.
    KeylessRead,
    /// An RMW that wrote back the value it read: a read for rule (a); rule (b)'s
    /// candidate `R0` is dropped.
    Preserving,
    Fence,
    /// A nondeterministic choice: no effect, like a fence, but a re-run may choose
    /// differently.
    Choice,
    /// A store to an unpublished heap block of the thread.
    PrivateWrite(Loc),
    /// Anything else: the iteration has an effect.
    Effect,
}

/// One visit of a loop.
#[derive(Clone, Debug)]
struct Watch {
    /// Frame depth (number of frames) of the loop's function activation.
    depth: usize,
    /// Index of the loop in its function's `FuncLoops::loops`.
    lp: usize,
    /// The state at the start of the current iteration (at the header).
    start: Arc<Machine>,
    /// No event but reads and fences since `start`.
    clean: bool,
    /// Read events since `start`.
    reads: u32,
    /// A nondeterministic choice since `start`.
    chose: bool,
    /// The read just before the loop's entry, while only reads and fences followed.
    pre: Option<Arc<PreRead>>,
    /// The reads since `pre`: location, width, order, value.
    pre_reads: Vec<((Loc, u8, MemOrder), Val)>,
    /// The iteration's writes to unpublished heap blocks (all made by
    /// `NatLoop::prefix_stores`), and the locations it read.
    private_writes: Vec<Loc>,
    read_locs: Vec<Loc>,
    /// Another loop visit began during this one (an inner loop, here or in a callee):
    /// rule (c) is then not tried (see [`Machine::leave`]).
    nested: bool,
}

impl Machine {
    /// A copy of the machine without spin-assume bookkeeping.
    pub(super) fn snapshot(&self) -> Machine {
        Machine {
            tid: self.tid,
            unroll: self.unroll,
            recursion_limit: self.recursion_limit,
            nondet: self.nondet,
            frames: self.frames.clone(),
            vals: self.vals.clone(),
            stack: self.stack.clone(),
            undef: self.undef.clone(),
            heap_blocks: self.heap_blocks,
            frame_blocks: self.frame_blocks,
            own: self.own.clone(),
            joined: self.joined.clone(),
            private: self.private.clone(),
            spin: Spin::default(),
            printed: self.printed.clone(),
            varargs: self.varargs.clone(),
            formatted: self.formatted.clone(),
            section: self.section,
            abort_blocks: self.abort_blocks,
            calls: self.calls,
            inline_call: self.inline_call,
            awaits: self.awaits,
            final_depth: self.final_depth,
        }
    }

    /// Notes that the engine performed `action` (with answer `ret`), before the machine
    /// applies it.
    pub(super) fn observe(&mut self, code: &Module, action: &Action, cont: Cont, ret: Val) {
        if !self.spin.active {
            return;
        }
        let norm = |v: Val| match cont {
            Cont::Value { ty: Some(t), .. } => t.normalize(v),
            _ => v,
        };
        let seen = self.classify(action, ret, norm(ret));
        let depth = self.frames.len();
        let here = self
            .frames
            .last()
            .map(|f| (f.func as usize, f.block, f.inst));
        for w in &mut self.spin.watches {
            let seen = match seen {
                // Only a store of the loop's own prefix, in the loop's frame.
                Seen::PrivateWrite(loc)
                    if w.depth == depth
                        && here.is_some_and(|(func, b, i)| {
                            code.loops.get(func).is_some_and(|fl| {
                                fl.loops[w.lp].prefix_stores.binary_search(&(b, i)).is_ok()
                            })
                        }) =>
                {
                    Seen::PrivateWrite(loc)
                }
                Seen::PrivateWrite(_) => Seen::Effect,
                s => s,
            };
            match seen {
                Seen::Effect => {
                    w.clean = false;
                    w.pre = None;
                    w.pre_reads.clear();
                }
                Seen::Fence => {}
                Seen::Choice => w.chose = true,
                Seen::Read(key) => {
                    w.reads += 1;
                    w.read_locs.push(key.0);
                    if w.pre.is_some() {
                        w.pre_reads.push((key, norm(ret)));
                    }
                }
                Seen::KeylessRead => w.reads += 1,
                Seen::Preserving | Seen::PrivateWrite(_) => {
                    if let Seen::PrivateWrite(loc) = seen {
                        w.private_writes.push(loc);
                    } else {
                        w.reads += 1;
                        if let Action::Rmw { loc, .. } = action {
                            w.read_locs.push(*loc);
                        }
                    }
                    w.pre = None;
                    w.pre_reads.clear();
                }
            }
        }
        // What other threads may now reach: every block allocated so far.
        match (action, seen) {
            (Action::Malloc { base, size, .. }, _) if self.spin.private_ok => {
                self.spin
                    .private
                    .push((base.0, base.0.saturating_add(*size)));
            }
            (
                Action::Load { .. }
                | Action::Fence { .. }
                | Action::Choose { .. }
                | Action::BlockSize { .. }
                | Action::Join { .. }
                | Action::Malloc { .. },
                _,
            )
            | (_, Seen::Read(_) | Seen::KeylessRead | Seen::PrivateWrite(_)) => {}
            _ => self.spin.private.clear(),
        }
        self.spin.last_read = match action {
            Action::Load {
                loc, bytes, ord, ..
            } if self.in_loop_function(code) => Some(Arc::new(PreRead {
                m: self.snapshot(),
                cont,
                key: (*loc, *bytes, *ord),
            })),
            _ => None,
        };
    }

    /// What `action`, answered with `raw` (the value the engine read; `ret` is it
    /// normalised to the access's type), is for the rules: see the module docs.
    fn classify(&self, action: &Action, raw: Val, ret: Val) -> Seen {
        match *action {
            Action::Load {
                loc, bytes, ord, ..
            } => Seen::Read((loc, bytes, ord)),
            Action::Rmw {
                loc,
                bytes,
                op: RmwOp::Cas {
                    expected, fail_ord, ..
                },
                ..
            } if ret != expected => Seen::Read((loc, bytes, fail_ord)),
            // A nondeterministic choice (`__VERIFIER_nondet_*`, an optional block's
            // entry) touches no memory and is in no relation: like a fence, removing it
            // with the iteration leaves the other relations unchanged.
            Action::Fence { .. } => Seen::Fence,
            Action::Choose { .. } => Seen::Choice,
            Action::Store { loc, .. } if self.spin.private_ok && self.is_private(loc) => {
                Seen::PrivateWrite(loc)
            }
            // The engine wrote `op.apply(raw)` (`ReadKind::write_part`): the graph's
            // write holds the value its read part read.
            Action::Rmw { op, .. } if self.spin.zne && op.apply(raw) == Some(raw) => {
                Seen::Preserving
            }
            // A failed trylock (EBUSY) is a read of the lock word and nothing else.
            Action::TryLock { .. } if self.spin.zne && ret != 0 => Seen::KeylessRead,
            _ => Seen::Effect,
        }
    }

    /// Whether `loc` lies in an unpublished heap block of this thread.
    fn is_private(&self, loc: Loc) -> bool {
        self.spin
            .private
            .iter()
            .any(|&(b, e)| (b..e).contains(&loc.0))
    }

    /// Whether a function on the call stack has loops.
    fn in_loop_function(&self, code: &Module) -> bool {
        self.frames.iter().any(|f| {
            code.loops
                .get(f.func as usize)
                .is_some_and(|l| !l.loops.is_empty())
        })
    }

    /// Forgets loop visits of frames that returned.
    pub(super) fn spin_popped(&mut self) {
        let d = self.frames.len();
        self.spin.watches.retain(|w| w.depth <= d);
    }

    /// The running frame just jumped from block `from` to the start of block `to`.
    /// Starts a loop visit if `to` is a header
    /// entered from outside; at a back edge, blocks the execution if the rule holds,
    /// else starts the next iteration.
    pub(super) fn arrive(&mut self, code: &Module, from: BlockId, to: BlockId) -> Option<Pending> {
        if !self.spin.active {
            return None;
        }
        let depth = self.frames.len();
        let func = self.top().func as usize;
        let fl = code.loops.get(func)?;
        if let Some(p) = self.leave(code, fl, depth, from, to) {
            return Some(p);
        }
        let lp = fl.at_header(to)?;
        let back = fl.loops[lp].latches.binary_search(&from).is_ok();
        let w = self
            .spin
            .watches
            .iter()
            .position(|w| w.depth == depth && w.lp == lp);
        match w {
            Some(i) if back => {
                let w = &self.spin.watches[i];
                let private_ok = w.private_writes.iter().all(|l| !w.read_locs.contains(l));
                let repeats = w.clean && private_ok && same_state(fl, lp, &w.start, self);
                if repeats
                    || w.pre.as_ref().is_some_and(|pre| {
                        self.rereads_to_here(code, fl, lp, depth, pre, &w.pre_reads)
                    })
                {
                    let reads = w.reads;
                    // The loop's position, so blocks are counted per loop.
                    return Some(Pending::end(Action::Block {
                        // `repeats` tells `--check-liveness` that a re-run reading the
                        // same values runs the same way: not after a choice.
                        reason: BlockReason::SpinLoop {
                            reads,
                            repeats: repeats && !w.chose,
                        },
                        src: fl.loops[lp].src,
                    }));
                }
                let start = Arc::new(self.snapshot());
                let w = &mut self.spin.watches[i];
                w.start = start;
                w.clean = true;
                w.reads = 0;
                w.chose = false;
                w.private_writes.clear();
                w.read_locs.clear();
            }
            _ => {
                // Entering the loop (or a back edge of a visit begun before the
                // bookkeeping could see it): a new visit.
                if let Some(i) = w {
                    self.spin.watches.remove(i);
                }
                let pre = self.spin.last_read.clone();
                let start = Arc::new(self.snapshot());
                for w in &mut self.spin.watches {
                    w.nested = true;
                }
                self.spin.watches.push(Watch {
                    depth,
                    lp,
                    start,
                    clean: true,
                    reads: 0,
                    chose: false,
                    pre,
                    pre_reads: Vec::new(),
                    private_writes: Vec::new(),
                    read_locs: Vec::new(),
                    nested: false,
                });
            }
        }
        None
    }

    /// The jump `from → to` of the frame at `depth` leaves the loops whose body holds
    /// `from` and not `to`: their visits end. Rule (c) for the innermost one with a
    /// pre-loop read: blocks if some value a read of the visit returned, given to
    /// that read, leads to the same state where the two paths meet. Not for a visit
    /// during which another loop visit began: GenMC's spin-assume blocks only loops
    /// without inner loops (and a loop around a spin loop, as twalock's slow path, is
    /// explored there), so such visits are explored here too and counts stay GenMC's;
    /// trying rule (c) less only keeps more executions.
    fn leave(
        &mut self,
        code: &Module,
        fl: &FuncLoops,
        depth: usize,
        from: BlockId,
        to: BlockId,
    ) -> Option<Pending> {
        let mut block = None;
        while let Some(i) = self
            .spin
            .watches
            .iter()
            .rposition(|w| w.depth == depth && fl.in_body(w.lp, from) && !fl.in_body(w.lp, to))
        {
            let w = self.spin.watches.remove(i);
            if block.is_some() || !self.spin.zne || w.nested {
                continue;
            }
            if let Some(pre) = &w.pre {
                if self.rereads_to_exit(code, fl, depth, to, pre, &w.pre_reads) {
                    block = Some(Pending::end(Action::Block {
                        reason: BlockReason::SpinLoop {
                            reads: w.reads,
                            repeats: false,
                        },
                        src: fl.loops[w.lp].src,
                    }));
                }
            }
        }
        block
    }

    /// Rule (c): whether resuming `pre` with the value of one of `reads` (not the one
    /// it read) and running locally reaches a block start at `depth` that this
    /// machine, run locally from the start of `to`, reaches too, in the same state.
    fn rereads_to_exit(
        &self,
        code: &Module,
        fl: &FuncLoops,
        depth: usize,
        to: BlockId,
        pre: &PreRead,
        reads: &[((Loc, u8, MemOrder), Val)],
    ) -> bool {
        // The block starts this machine passes before its next action, in order.
        let mut ahead = vec![to];
        let mut me = self.snapshot();
        for _ in 0..RERUN_LIMIT {
            match me.step_local(code) {
                Some(true) if me.frames.len() == depth => {
                    let b = me.top().block;
                    if ahead.contains(&b) {
                        break;
                    }
                    ahead.push(b);
                }
                Some(_) => {}
                None => break,
            }
        }
        for mut m in pre.resumed_with(reads) {
            let Some(meet) = m.run_to_any(code, depth, &ahead) else {
                continue;
            };
            let mut me = self.snapshot();
            if !me.run_to(code, depth, meet) {
                continue;
            }
            let live = &fl.block_live[meet as usize];
            if same_state_at(fl, meet, &live.regs, &live.slots, &m, &me) {
                return true;
            }
        }
        false
    }

    /// One local step: `Some(true)` if it ended at the start of a block, `Some(false)`
    /// if not; `None` at an action, an error, or with no frame.
    fn step_local(&mut self, code: &Module) -> Option<bool> {
        let fr = self.frames.last().copied()?;
        let block = &code.funcs[fr.func as usize].blocks[fr.block as usize];
        let step = match block.insts.get(fr.inst as usize) {
            Some(inst) => self.exec(code, fr, inst),
            None => self.terminate(code, fr, &block.term),
        };
        if !matches!(step, Ok(None)) {
            return None;
        }
        Some(self.frames.last().is_some_and(|f| f.inst == 0))
    }

    /// Runs local instructions until the frame at `depth` is at the start of one of
    /// `blocks`; that block, or `None` if an action, an error or the step limit comes
    /// first.
    fn run_to_any(&mut self, code: &Module, depth: usize, blocks: &[BlockId]) -> Option<BlockId> {
        for _ in 0..RERUN_LIMIT {
            let fr = self.frames.last().copied()?;
            if self.frames.len() == depth && fr.inst == 0 && blocks.contains(&fr.block) {
                return Some(fr.block);
            }
            self.step_local(code)?;
        }
        None
    }

    /// Rule (b): whether resuming `pre` with the value of one of `reads` of the same
    /// location, width and order, and running to the header, gives this state.
    fn rereads_to_here(
        &self,
        code: &Module,
        fl: &FuncLoops,
        lp: usize,
        depth: usize,
        pre: &PreRead,
        reads: &[((Loc, u8, MemOrder), Val)],
    ) -> bool {
        let header = fl.loops[lp].header;
        for mut m in pre.resumed_with(reads) {
            if m.run_to(code, depth, header) && same_state(fl, lp, &m, self) {
                return true;
            }
        }
        false
    }

    /// Runs local instructions until the frame at `depth` is at the start of `header`;
    /// false if an action, an error or the step limit comes first.
    fn run_to(&mut self, code: &Module, depth: usize, header: BlockId) -> bool {
        for _ in 0..RERUN_LIMIT {
            let Some(fr) = self.frames.last().copied() else {
                return false;
            };
            if self.frames.len() == depth && fr.block == header && fr.inst == 0 {
                return true;
            }
            let block = &code.funcs[fr.func as usize].blocks[fr.block as usize];
            let step = match block.insts.get(fr.inst as usize) {
                Some(inst) => self.exec(code, fr, inst),
                None => self.terminate(code, fr, &block.term),
            };
            if !matches!(step, Ok(None)) {
                return false;
            }
        }
        false
    }
}

/// Whether two thread-private stores hold the same pairs.
fn same_private(a: &[(Val, Val)], b: &[(Val, Val)]) -> bool {
    a.len() == b.len() && a.iter().all(|p| b.contains(p))
}

/// Whether two machines at the header of loop `lp` (running frame) agree on everything
/// live there.
fn same_state(fl: &FuncLoops, lp: usize, a: &Machine, b: &Machine) -> bool {
    let l = &fl.loops[lp];
    same_state_at(fl, l.header, &l.live_regs, &l.live_slots, a, b)
}

/// Whether two machines at the start of block `block` (running frame) agree on
/// everything live there (`regs`, `slots`: the running frame's live registers and
/// frame slots).
fn same_state_at(
    fl: &FuncLoops,
    block: BlockId,
    regs: &[u64],
    slots: &[usize],
    a: &Machine,
    b: &Machine,
) -> bool {
    let (Some(fa), Some(_)) = (a.frames.last(), b.frames.last()) else {
        return false;
    };
    if a.frames.len() != b.frames.len()
        || a.vals.len() != b.vals.len()
        || a.stack.len() != b.stack.len()
        || a.heap_blocks != b.heap_blocks
        || a.frame_blocks != b.frame_blocks
        || a.own() != b.own()
        || a.joined != b.joined
        || !same_private(&a.private, &b.private)
        || a.varargs != b.varargs
    {
        return false;
    }
    let same_frames = a.frames.iter().zip(&b.frames).all(|(x, y)| {
        x.func == y.func
            && x.block == y.block
            && x.inst == y.inst
            && x.base == y.base
            && x.sp == y.sp
            && x.ret == y.ret
    });
    if !same_frames || fa.block != block || fa.inst != 0 {
        return false;
    }
    let (base, sp) = (fa.base as usize, fa.sp as usize);
    if a.vals[..base] != b.vals[..base]
        || a.stack[..sp] != b.stack[..sp]
        || !a.undef.same(&b.undef, 0..sp)
    {
        return false;
    }
    let live = |r: usize| regs.get(r / 64).is_some_and(|w| w >> (r % 64) & 1 == 1);
    let nregs = regs.len() * 64;
    for r in 0..nregs.min(a.vals.len() - base) {
        if live(r) && a.vals[base + r] != b.vals[base + r] {
            return false;
        }
    }
    // Private bytes agree when their values and their initialisation agree.
    if fl.frame_escapes {
        return a.stack[sp..] == b.stack[sp..] && a.undef.same(&b.undef, sp..a.stack.len());
    }
    slots.iter().all(|&k| {
        let (off, n) = fl.slots[k];
        let r = sp + off as usize..sp + off as usize + n as usize;
        r.end > a.stack.len()
            || (a.stack[r.clone()] == b.stack[r.clone()] && a.undef.same(&b.undef, r))
    })
}
