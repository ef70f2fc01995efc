//! `malloc` and `free`: heap blocks are numbered per thread (see [`crate::memory`]);
//! each has a hidden header location that `malloc` writes [`HEAP_LIVE`] to and `free`
//! reads and overwrites with [`HEAP_POISON`], both non-atomically, so that frees by
//! any thread meet in the engine's graph.

use super::{Cont, Machine, Pending};
use crate::ir::{Module, Reg};
use crate::memory::{
    classify, heap_addr, Fault, Region, HEAP_DATA, HEAP_LIVE, MAX_HEAP_BLOCKS, MAX_MALLOC,
};
use porf_graph::{Action, Loc, MemOrder, SrcLoc, Val};

type Step = Result<Option<Pending>, Fault>;

impl Machine {
    /// `malloc(size)`: writes the new block's header (an engine event, so that frees by
    /// other threads can check it) and returns the block's data address.
    pub(super) fn malloc(&mut self, dst: Option<Reg>, size: Val, src: SrcLoc) -> Step {
        if !(0..=MAX_MALLOC as Val).contains(&size) {
            return Err(Fault::unsupported(format!(
                "malloc of {size} bytes: porf's heap blocks hold at most {MAX_MALLOC} bytes"
            )));
        }
        let block = self.heap.len() as u32;
        if block >= MAX_HEAP_BLOCKS {
            return Err(Fault::unsupported(format!(
                "more than {MAX_HEAP_BLOCKS} heap blocks allocated by one thread"
            )));
        }
        let action = Action::Store {
            loc: Loc(heap_addr(self.tid, block, 0) as u64),
            val: HEAP_LIVE,
            ord: MemOrder::NonAtomic,
            src,
        };
        let cont = Cont::Malloc {
            dst,
            size: size as u32,
        };
        Ok(Some(Pending::new(action, cont)))
    }

    /// `free(p)`: checks what it can locally, then reads the block's header.
    pub(super) fn free(&mut self, code: &Module, p: Val, src: SrcLoc) -> Step {
        if p == 0 {
            self.advance();
            return Ok(None);
        }
        let Region::Heap { tid, block, off } = classify(p, code.globals_end) else {
            return Err(Fault::memory("invalid free"));
        };
        if off != HEAP_DATA {
            return Err(Fault::memory("invalid free"));
        }
        if tid == self.tid {
            match self.heap.get(block as usize) {
                None => return Err(Fault::memory("invalid free")),
                Some(b) if b.freed => return Err(Fault::memory("double free")),
                Some(_) => {}
            }
        } else if self.freed_foreign.contains(&(tid, block)) {
            return Err(Fault::memory("double free"));
        }
        let action = Action::Load {
            loc: Loc(heap_addr(tid, block, 0) as u64),
            ord: MemOrder::NonAtomic,
            src,
        };
        Ok(Some(Pending::new(action, Cont::FreeHeader { tid, block })))
    }
}
