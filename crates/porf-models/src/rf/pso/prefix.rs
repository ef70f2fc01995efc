//! Witness prefixes of VerifyPSO: a trace σ of thread events and memory-writes,
//! represented by what its future depends on.
//!
//! Invariants of every [`Prefix`] the search builds (σ realises the reads it executed):
//! * a write is *flushed* (its memory-write is in σ) only after its buffer-write, and
//!   after every earlier buffered write of its thread to its location or from before a
//!   store-store barrier that precedes it (the lower set of its memory-write);
//! * `last[x]` is the last write to reach `x` in memory; if some read not yet executed
//!   reads from it, `x` is *held*, and nothing else is written to `x` until that read
//!   has executed — so every flushed write with a pending reader is `last` of its
//!   location;
//! * a write is flushed while one of its readers in another thread is still to come
//!   only if that reader's own earlier writes to the location are all flushed (else the
//!   reader would read its own buffer).

use super::instance::{Instance, ReadId, Src, StepKind, Wait, WriteId};

#[derive(Clone, Debug)]
pub(super) struct Prefix {
    /// Per thread: number of steps executed.
    pub done: Vec<u32>,
    /// Per write: whether its memory-write is in σ.
    pub flushed: Vec<bool>,
    /// Per location: the last write to reach memory.
    pub last: Vec<Src>,
    /// The memory-writes of σ in order (per location, the witness coherence order).
    pub memory: Vec<WriteId>,
}

impl Prefix {
    /// The empty trace.
    pub fn new(inst: &Instance) -> Prefix {
        Prefix {
            done: vec![0; inst.threads()],
            flushed: vec![false; inst.writes.len()],
            last: vec![Src::Init; inst.locs.len()],
            memory: Vec::new(),
        }
    }

    fn read_done(&self, inst: &Instance, r: ReadId) -> bool {
        let rd = &inst.reads[r];
        self.done[rd.thread] > rd.step
    }

    /// The readers of `src` not executed yet.
    pub fn remaining<'a>(
        &'a self,
        inst: &'a Instance,
        src: Src,
        loc: usize,
    ) -> impl Iterator<Item = ReadId> + 'a {
        inst.readers_of(src, loc)
            .iter()
            .copied()
            .filter(move |&r| !self.read_done(inst, r))
    }

    /// Is `loc` held: does a read still to come read its last write?
    pub fn held(&self, inst: &Instance, loc: usize) -> bool {
        self.remaining(inst, self.last[loc], loc).next().is_some()
    }

    /// Is `w` in a buffer: its buffer-write executed, its memory-write not?
    pub fn is_pending(&self, inst: &Instance, w: WriteId) -> bool {
        let wr = &inst.writes[w];
        !wr.locked && !self.flushed[w] && self.done[wr.thread] > wr.step
    }

    /// The buffered writes of thread `t`, in po order.
    pub fn pending<'a>(
        &'a self,
        inst: &'a Instance,
        t: usize,
    ) -> impl Iterator<Item = WriteId> + 'a {
        let done = self.done[t];
        inst.buffered[t]
            .iter()
            .copied()
            .take_while(move |&w| inst.writes[w].step < done)
            .filter(|&w| !self.flushed[w])
    }

    /// Are the writes of `w`'s lower set flushed: every earlier buffered write of its
    /// thread to its location or with fewer store-store barriers before it?
    fn lower_set_flushed(&self, inst: &Instance, w: WriteId) -> bool {
        let wr = &inst.writes[w];
        self.pending(inst, wr.thread)
            .take_while(|&o| o != w)
            .all(|o| inst.writes[o].loc != wr.loc && inst.writes[o].barriers >= wr.barriers)
    }

    /// May the memory-write of `w` be appended to σ now (PSO-executable)? Besides its
    /// lower set (for a buffered write), its location must not be held, and each reader
    /// of `w` still to come in another thread must have its own earlier writes to the
    /// location flushed.
    fn can_write(&self, inst: &Instance, w: WriteId) -> bool {
        let wr = &inst.writes[w];
        !self.held(inst, wr.loc)
            && self.remaining(inst, Src::Write(w), wr.loc).all(|r| {
                let rd = &inst.reads[r];
                rd.thread == wr.thread || rd.own_before.is_none_or(|o| self.flushed[o])
            })
    }

    fn can_flush(&self, inst: &Instance, w: WriteId) -> bool {
        self.is_pending(inst, w) && self.lower_set_flushed(inst, w) && self.can_write(inst, w)
    }

    fn write_memory(&mut self, inst: &Instance, w: WriteId) {
        let loc = inst.writes[w].loc;
        self.flushed[w] = true;
        self.last[loc] = Src::Write(w);
        self.memory.push(w);
    }

    /// Flushes every spurious write that can be (Alg. 2, line 4): a buffered write no
    /// read still to come reads from.
    pub fn flush_spurious(&mut self, inst: &Instance) {
        loop {
            let next = (0..inst.threads()).find_map(|t| {
                self.pending(inst, t).find(|&w| {
                    self.remaining(inst, Src::Write(w), inst.writes[w].loc)
                        .next()
                        .is_none()
                        && self.can_flush(inst, w)
                })
            });
            match next {
                Some(w) => self.write_memory(inst, w),
                None => return,
            }
        }
    }

    /// Flushes every buffered write of thread `t` (for a fence), if possible.
    fn drain(&mut self, inst: &Instance, t: usize) -> bool {
        let pending: Vec<WriteId> = self.pending(inst, t).collect();
        pending
            .into_iter()
            .all(|w| self.flush(inst, w, &mut Vec::new()))
    }

    /// The buffered writes of `w`'s thread that must reach memory before `w`: the
    /// earlier ones to its location or with fewer store-store barriers (in po order).
    fn lower_set(&self, inst: &Instance, w: WriteId) -> Vec<WriteId> {
        let wr = &inst.writes[w];
        self.pending(inst, wr.thread)
            .take_while(|&o| o != w)
            .filter(|&o| inst.writes[o].loc == wr.loc || inst.writes[o].barriers < wr.barriers)
            .collect()
    }

    /// The last writes before them of `w`'s readers still to come in other threads, to
    /// its location: they must reach memory before `w`, or the readers would read
    /// their own buffers.
    fn readers_own_writes(&self, inst: &Instance, w: WriteId) -> Vec<Option<WriteId>> {
        let wr = &inst.writes[w];
        self.remaining(inst, Src::Write(w), wr.loc)
            .filter(|&r| inst.reads[r].thread != wr.thread)
            .map(|r| inst.reads[r].own_before)
            .collect()
    }

    /// Flushes `w` (if it is not in memory yet) at the moment it is needed, with what
    /// must precede it: its lower set, and its readers' own earlier writes (each
    /// flushed the same way). `stack` holds the writes being flushed, to stop on a
    /// cyclic need. False if some of it cannot be flushed now; σ may then be partly
    /// changed, so callers work on a copy.
    fn flush(&mut self, inst: &Instance, w: WriteId, stack: &mut Vec<WriteId>) -> bool {
        if self.flushed[w] {
            return true;
        }
        if !self.is_pending(inst, w) || stack.contains(&w) {
            return false;
        }
        stack.push(w);
        let before = self.lower_set(inst, w);
        let own = self.readers_own_writes(inst, w);
        let ok = before.into_iter().all(|o| self.flush(inst, o, stack))
            && own
                .into_iter()
                .all(|o| o.is_none_or(|o| self.flush(inst, o, stack)))
            && self.can_write(inst, w);
        stack.pop();
        if ok {
            self.write_memory(inst, w);
        }
        ok
    }

    /// σ with a spurious write that [`Prefix::flush_spurious`] could not flush because
    /// a store-store barrier puts before it a write of another location that some read
    /// still needs — flushed now with its lower set, so that it may precede writes
    /// that will hold its location for long. One prefix per such write that can be
    /// flushed. (Without store-store barriers there are none: a lower set is then the
    /// earlier writes of the same location, which a needed one would keep held.)
    pub fn early_flushes(&self, inst: &Instance) -> Vec<Prefix> {
        let mut out = Vec::new();
        for t in 0..inst.threads() {
            for w in self.pending(inst, t) {
                let wanted = |o: WriteId| {
                    let loc = inst.writes[o].loc;
                    self.remaining(inst, Src::Write(o), loc).next().is_some()
                };
                let other_loc = |o: &WriteId| inst.writes[*o].loc != inst.writes[w].loc;
                let mut before = self.lower_set(inst, w).into_iter();
                if wanted(w) || !before.any(|o| other_loc(&o) && wanted(o)) {
                    continue;
                }
                let mut q = self.clone();
                if q.flush(inst, w, &mut Vec::new()) {
                    q.flush_spurious(inst);
                    out.push(q);
                }
            }
        }
        out
    }

    /// Executes read `r` (of the next step of its thread), flushing its source first if
    /// it is another thread's buffered write; false if σ cannot be extended with it.
    fn read(&mut self, inst: &Instance, r: ReadId) -> bool {
        let rd = &inst.reads[r];
        let w = match rd.src {
            Src::Init => return self.last[rd.loc] == Src::Init,
            Src::Write(w) => w,
        };
        let wr = &inst.writes[w];
        if wr.thread == rd.thread {
            // Its own last write (checked by the instance): from the buffer, or from
            // memory, where nothing can have overwritten it.
            return !self.flushed[w] || self.last[rd.loc] == Src::Write(w);
        }
        rd.own_before
            .is_none_or(|o| self.flush(inst, o, &mut Vec::new()))
            && self.flush(inst, w, &mut Vec::new())
            && self.last[rd.loc] == Src::Write(w)
    }

    /// Flushes the earlier writes of `w`'s readers in other threads (for a locked
    /// write, before its step).
    fn flush_readers_own_writes(&mut self, inst: &Instance, w: WriteId) -> bool {
        let own = self.readers_own_writes(inst, w);
        own.into_iter()
            .all(|o| o.is_none_or(|o| self.flush(inst, o, &mut Vec::new())))
    }

    /// Can thread `t`'s next step start: are the events it waits for executed?
    fn ready(&self, inst: &Instance, t: usize) -> bool {
        let Some(step) = inst.steps[t].get(self.done[t] as usize) else {
            return false;
        };
        match step.wait {
            Wait::None => true,
            Wait::Spawn(p) => {
                let pt = p.tid as usize;
                self.done[pt] > inst.step_of[pt][p.idx as usize]
            }
            Wait::Thread(c) => self.done[c] as usize == inst.steps[c].len(),
        }
    }

    /// σ extended with thread `t`'s next step and the memory-writes it needs first
    /// (Alg. 2, lines 8–15), if that step is PSO-executable in σ.
    pub fn execute(&self, inst: &Instance, t: usize) -> Option<Prefix> {
        if !self.ready(inst, t) {
            return None;
        }
        let mut p = self.clone();
        let ok = match inst.steps[t][p.done[t] as usize].kind {
            StepKind::Nop | StepKind::StoreBarrier | StepKind::Write(_) => true,
            StepKind::Fence => p.drain(inst, t),
            StepKind::Read(r) => p.read(inst, r),
            StepKind::Locked { read, write } => {
                // Everything that must precede the write reaches memory first: the
                // read and the write are one step, with no memory-write between.
                p.drain(inst, t)
                    && write.is_none_or(|w| p.flush_readers_own_writes(inst, w))
                    && read.is_none_or(|r| p.read(inst, r))
                    && {
                        p.done[t] += 1;
                        let ok = write.is_none_or(|w| p.can_write(inst, w));
                        if let (true, Some(w)) = (ok, write) {
                            p.write_memory(inst, w);
                        }
                        p.done[t] -= 1;
                        ok
                    }
            }
        };
        p.done[t] += 1;
        ok.then_some(p)
    }

    /// Is σ a witness: every step executed and every write in memory?
    pub fn complete(&self, inst: &Instance) -> bool {
        (0..inst.threads()).all(|t| self.done[t] as usize == inst.steps[t].len())
            && self.flushed.iter().all(|&f| f)
    }

    /// The reads to come before `loc` is free, into `v`, as per thread one plus the
    /// largest step index of such a read (0: none): the readers of the write holding
    /// it and, when one of them is an RMW, which holds `loc` as soon as it has read,
    /// the readers of its write part, and so on.
    fn wait_for(&self, inst: &Instance, loc: usize, v: &mut [u32]) {
        let mut holder = Some(self.last[loc]);
        while let Some(h) = holder.take() {
            for r in self.remaining(inst, h, loc) {
                let rd = &inst.reads[r];
                v[rd.thread] = v[rd.thread].max(rd.step + 1);
                // Atomicity: at most one RMW reads a write.
                holder = holder.or(rd.rmw_write.map(Src::Write));
            }
        }
    }

    /// The fence map of σ, generalised to store-store barriers: for each thread `t`
    /// and each of its store-store barriers executed so far, and for "all of `t`'s
    /// buffers" (the paper's FMap, what a full fence needs), the reads that must be
    /// executed before `t`'s buffered writes preceding that point can reach memory
    /// ([`Prefix::wait_for`] their locations), as per thread `t'` one plus the largest
    /// step index of such a read of `t'` (0: none). Preceded by the writes holding
    /// locations, which store-store barriers make depend on the past: a write some
    /// read needs may have been flushed early, in the lower set of another.
    pub fn fence_map(&self, inst: &Instance, out: &mut Vec<u32>) {
        let k = inst.threads();
        out.extend((0..inst.locs.len()).map(|loc| match self.last[loc] {
            _ if !self.held(inst, loc) => 0,
            Src::Init => 1,
            Src::Write(w) => 2 + w as u32,
        }));
        let mut wait = vec![0u32; inst.locs.len() * k];
        for (loc, v) in wait.chunks_mut(k).enumerate() {
            self.wait_for(inst, loc, v);
        }
        for t in 0..k {
            let levels = inst.barriers_after[t][self.done[t] as usize];
            for level in 1..=levels + 1 {
                let at = out.len();
                out.resize(at + k, 0);
                for w in self.pending(inst, t) {
                    let wr = &inst.writes[w];
                    if wr.barriers < level {
                        let v = &wait[wr.loc * k..(wr.loc + 1) * k];
                        for (n, x) in out[at..].iter_mut().zip(v) {
                            *n = (*n).max(*x);
                        }
                    }
                }
            }
        }
    }
}
