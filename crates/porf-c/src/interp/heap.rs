//! `malloc`, `free` and the block-size query of `realloc`. Heap blocks are numbered per thread (see [`crate::memory`]);
//! both are engine events ([`Action::Malloc`], [`Action::Free`]), so that the engine
//! can check every access and free of a block, by any thread, against the block's
//! allocation and frees (`porf_models::lifetime`).

use super::{Cont, Machine, Pending};
use crate::ir::{Module, Reg};
use crate::memory::{classify, heap_addr, Fault, Region, HEAP_DATA, MAX_HEAP_BLOCKS, MAX_MALLOC};
use porf_graph::{Action, Loc, SrcLoc, Val};

type Step = Result<Option<Pending>, Fault>;

impl Machine {
    /// `malloc(size)` (`calloc` if `zeroed`): allocates the thread's next block and
    /// returns its data address. A `size` of 2^63 or more (negative here) is a memory
    /// error; sizes beyond [`MAX_MALLOC`] are unsupported.
    pub(super) fn malloc(
        &mut self,
        dst: Option<Reg>,
        size: Val,
        zeroed: bool,
        src: SrcLoc,
    ) -> Step {
        if size < 0 {
            // A `size_t` of 2^63 or more (a negative `int` converted, an overflowing
            // calloc product): GenMC reports "Invalid size in malloc()" as an error.
            return Err(Fault::memory(format!(
                "invalid size in {}(): {} bytes",
                if zeroed { "calloc" } else { "malloc" },
                size as u64
            )));
        }
        if size > MAX_MALLOC as Val {
            return Err(Fault::unsupported(format!(
                "malloc of {size} bytes: porf's heap blocks hold at most {MAX_MALLOC} bytes"
            )));
        }
        let block = self.heap_blocks;
        if block >= MAX_HEAP_BLOCKS {
            return Err(Fault::unsupported(format!(
                "more than {MAX_HEAP_BLOCKS} heap blocks allocated by one thread"
            )));
        }
        let action = Action::Malloc {
            base: Loc(heap_addr(self.tid, block, HEAP_DATA) as u64),
            size: size as u64,
            zeroed,
            src,
        };
        Ok(Some(Pending::new(action, Cont::Malloc { dst })))
    }

    /// `__porf_block_size(p)`: the engine's answer about the block `p` starts (see
    /// [`crate::ir::Builtin::BlockSize`]); a pointer that is not the start of a heap
    /// block is an invalid free, as in [`Machine::free`].
    pub(super) fn block_size(
        &mut self,
        code: &Module,
        dst: Option<Reg>,
        p: Val,
        src: SrcLoc,
    ) -> Step {
        match classify(p, code.globals_end) {
            Region::Heap { off, .. } if off == HEAP_DATA => {
                let action = Action::BlockSize {
                    base: Loc(p as u64),
                    src,
                };
                Ok(Some(Pending::new(action, Cont::Value { dst, ty: None })))
            }
            _ => Err(Fault::memory(
                "invalid free: the pointer is not the start of a heap block",
            )),
        }
    }

    /// GenMC's `__VERIFIER_hazptr_retire(p)`: [`Self::free`] with the engine's `Retire`.
    pub(super) fn retire(&mut self, code: &Module, p: Val, src: SrcLoc) -> Step {
        let step = self.free(code, p, src)?;
        Ok(step.map(|pend| match pend.action {
            Action::Free { base, src } => Pending::plain(Action::Retire { base, src }),
            _ => pend,
        }))
    }

    /// `free(p)`: `free(NULL)` does nothing; a pointer that is not the start of a heap
    /// block is an invalid free; anything else is the engine's `Free` of the block.
    pub(super) fn free(&mut self, code: &Module, p: Val, src: SrcLoc) -> Step {
        if p == 0 {
            self.advance();
            return Ok(None);
        }
        match classify(p, code.globals_end) {
            Region::Heap { off, .. } if off == HEAP_DATA => {
                let action = Action::Free {
                    base: Loc(p as u64),
                    src,
                };
                Ok(Some(Pending::plain(action)))
            }
            _ => Err(Fault::memory(
                "invalid free: the pointer is not the start of a heap block",
            )),
        }
    }
}
