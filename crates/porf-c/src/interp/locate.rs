//! Where a user sees an action of porf's bundled library code: a position inside one
//! of porf's own headers (`crate::headers`, materialised in a temporary directory) says
//! nothing to the user, so an action of code defined in a bundled header is reported
//! at the user's call of it: the call site in the innermost caller frame whose
//! position is outside the bundled headers. An error's message then names the library
//! function the user called ("(in porf's pthread_barrier_wait)"). Witnesses also ask
//! which library call an action belongs to ([`Machine::operation`]), to show one line
//! per call instead of its internal steps.
//!
//! Invariant: only positions change (and error messages gain that suffix); the action
//! itself, and so the exploration, is the same. A thread whose every frame is bundled
//! code (none is a user's) keeps the bundled position.

use super::{Frame, Machine};
use crate::ir::Module;
use porf_graph::{Action, LibCall, SrcLoc, Val};

impl Machine {
    /// Moves `action`'s position out of the bundled headers, if it is in one (see the
    /// module doc). Requires the frames to be those of the instruction that produced
    /// `action`.
    pub(super) fn locate(&self, code: &Module, action: &mut Action) {
        let bundled = |s: SrcLoc| code.bundled.get(s.file as usize).copied() == Some(true);
        let src = action.src();
        if !bundled(src) || self.frames.is_empty() {
            return;
        }
        let mut at = src;
        let mut callee = None;
        let mut j = self.frames.len() - 1;
        while bundled(at) && j > 0 {
            callee = Some(self.frames[j].func);
            match call_site(code, &self.frames[j - 1]) {
                Some(s) => at = s,
                None => return,
            }
            j -= 1;
        }
        if bundled(at) {
            return;
        }
        let name = callee.map(|f| code.funcs[f as usize].name.as_str());
        set_src(action, at, name);
    }
}

impl Machine {
    /// The library call the running instruction, which produced `action`, belongs
    /// to: when the running function is defined in a bundled header, the outermost
    /// activation of bundled code above the innermost user frame (the function the
    /// user called), with its number and first two arguments; in user code, the call
    /// lowered inline that the instruction belongs to ([`crate::ir::Inst::lib`]), with
    /// the action's location as its argument. `None` for other user code (a user
    /// function a library function calls back, e.g. `pthread_once`'s routine, is the
    /// user's) and for threads with no user frame.
    pub(super) fn operation(&self, code: &Module, action: &Action) -> Option<LibCall> {
        let bundled = |f: &Frame| {
            let file = code.funcs[f.func as usize].src.file as usize;
            code.bundled.get(file).copied() == Some(true)
        };
        let mut j = self.frames.len().checked_sub(1)?;
        if !bundled(&self.frames[j]) {
            let fr = &self.frames[j];
            let block = &code.funcs[fr.func as usize].blocks[fr.block as usize];
            let mark = block.insts.get(fr.inst as usize)?.lib?;
            let loc = match *action {
                Action::Load { loc, .. }
                | Action::Store { loc, .. }
                | Action::Rmw { loc, .. }
                | Action::Lock { loc, .. }
                | Action::TryLock { loc, .. }
                | Action::Unlock { loc, .. }
                | Action::MutexInit { loc, .. }
                | Action::MutexDestroy { loc, .. } => loc.0 as Val,
                _ => 0,
            };
            return Some(LibCall {
                name: mark.name.to_string(),
                call: self.inline_call,
                args: [loc, 0],
            });
        }
        while j > 0 && bundled(&self.frames[j - 1]) {
            j -= 1;
        }
        if j == 0 {
            return None;
        }
        let f = &self.frames[j];
        let func = &code.funcs[f.func as usize];
        let arg = |i: u32| {
            (i < func.nparams)
                .then(|| self.vals.get((f.base + i) as usize).copied())
                .flatten()
                .unwrap_or(0)
        };
        Some(LibCall {
            name: func.name.clone(),
            call: f.serial,
            args: [arg(0), arg(1)],
        })
    }
}

/// The position of the call a caller frame is in: its program counter has moved past
/// the call instruction (`call` advances before pushing the callee's frame).
fn call_site(code: &Module, caller: &Frame) -> Option<SrcLoc> {
    let block = &code.funcs[caller.func as usize].blocks[caller.block as usize];
    let i = (caller.inst as usize).checked_sub(1)?;
    block.insts.get(i).map(|inst| inst.src)
}

/// Sets `action`'s position to `at`; an error's message gets "(in porf's `name`)".
fn set_src(action: &mut Action, at: SrcLoc, name: Option<&str>) {
    if let Some(src) = action.src_mut() {
        *src = at;
    }
    if let (Action::Error { msg, .. }, Some(n)) = (action, name) {
        msg.push_str(&format!(" (in porf's {n})"));
    }
}
