//! Inline assembly: the memory-barrier instructions porf reads as C11 fences, and the
//! empty compiler barrier. Anything else is refused where an execution reaches it.
//!
//! # The rule
//!
//! An instruction maps to a C11 fence `F` only when the standard compilation of `F` to
//! that architecture (the mappings collected by Sewell et al., "C/C++11 mappings to
//! processors", and the RISC-V ISA manual's Table A.6) *is* that instruction, or an
//! instruction with the same ordering on ordinary memory. Then the program with `F` in
//! place of the instruction compiles back to the program with the instruction, and since
//! those compilations are correct (every behaviour of the compiled program on the
//! hardware is a behaviour of the C11 program), checking the C11 program misses no
//! behaviour of the hardware. When several fences compile to the same instruction, the
//! one matching the instruction's purpose is chosen:
//!
//! | instruction | fence | why |
//! |---|---|---|
//! | x86 `mfence`, `lock; addl $0,N(%rsp)` (also `lock addl`, `addq`, `orl`, `%esp`) | `seq_cst` | `seq_cst` fences compile to `mfence`; a locked RMW that writes back the value of a thread's own stack slot is a full barrier, as `mfence` is on ordinary memory (Linux's `smp_mb` on x86-64) |
//! | x86 `lfence` | `acquire` | acquire, release and acq_rel fences compile to nothing on x86, and x86-TSO (Sewell et al., CACM 2010) treats `lfence`/`sfence` as no-ops on ordinary memory; `acquire` is the fence for a load barrier |
//! | x86 `sfence` | `release` | as `lfence`; `release` is the fence for a store barrier (under `pso` it is the store-store barrier) |
//! | ARMv8 `dmb ish`, `dmb sy`, `dmb`, `dsb ish`, `dsb sy` | `seq_cst` | `seq_cst` (and release, acq_rel) fences compile to `dmb ish`; the others order at least as much |
//! | ARMv8 `dmb ishld`, `dmb ld` | `acquire` | acquire fences compile to `dmb ishld` |
//! | RISC-V `fence rw,rw`, `fence iorw,iorw`, `fence` | `seq_cst` | `seq_cst` fences compile to `fence rw,rw` |
//! | RISC-V `fence r,rw` | `acquire` | acquire fences compile to it |
//! | RISC-V `fence rw,w` | `release` | release fences compile to it |
//! | RISC-V `fence.tso` | `acq_rel` | acq_rel fences compile to it |
//! | Power `sync`, `hwsync` | `seq_cst` | `seq_cst` fences compile to `hwsync` |
//! | Power `lwsync` | `acq_rel` | acquire, release and acq_rel fences all compile to `lwsync`; `acq_rel` is the one ordering what `lwsync` orders in both roles |
//!
//! Under porf's `sc` and `tso` models, acquire, release and acq_rel fences are no-ops
//! and `seq_cst` fences full fences: for the x86 instructions that is exactly x86-TSO.
//!
//! Refused (no C11 fence compiles to them, and the nearest stronger fence would hide
//! behaviours the hardware allows): ARM `dmb ishst`/`dmb st` (store-store only: C11
//! has no store-store fence, a release fence also orders loads before stores), RISC-V
//! `fence` forms other than those above (`fence w,w`, `fence r,r`, ...), Power `isync`
//! and `eieio`, several instructions in one statement, a fence with operands, and an
//! extended asm fence without a `"memory"` clobber (the compiler may move accesses
//! across it, so it orders nothing reliably).
//!
//! An empty template (with or without a `"memory"` clobber) is a compiler barrier: porf
//! never reorders a thread's accesses, and a compiler barrier orders nothing between
//! threads (like `atomic_signal_fence`), so it has no event.

use crate::ir::InstKind;
use porf_graph::MemOrder;

/// What an asm statement does.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Meaning {
    /// No event (an empty template: a compiler barrier).
    Nothing,
    /// A C11 fence of this order.
    Fence(MemOrder),
}

/// The shape of an asm statement, besides its template.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// Extended asm (with colons): `%%` in the template is one `%`.
    pub extended: bool,
    /// It has input or output operands.
    pub operands: bool,
    /// Its clobbers include `"memory"`.
    pub memory_clobber: bool,
}

/// The meaning of an asm statement with template `template`, or why it is refused.
pub fn meaning(template: &str, form: Form) -> Result<Meaning, String> {
    let text = if form.extended {
        template.replace("%%", "%")
    } else {
        template.to_string()
    };
    let canon = canonical(&text);
    if canon.is_empty() && !form.operands {
        return Ok(Meaning::Nothing);
    }
    let shown = text.trim();
    let Some(ord) = fence(&canon) else {
        return Err(format!(
            "inline assembly `{shown}` is not supported: porf reads only single \
             memory-barrier instructions as C11 fences (mfence, lfence, sfence, \
             `lock; addl $0,(%rsp)`, dmb ish/ishld/sy, RISC-V fence rw,rw / r,rw / rw,w / \
             fence.tso, Power sync/lwsync) and the empty compiler barrier{}",
            refusal_note(&canon)
        ));
    };
    if form.operands {
        return Err(format!(
            "inline assembly `{shown}` with operands is not supported (porf reads a \
             barrier instruction as a C11 fence only without operands)"
        ));
    }
    if form.extended && !form.memory_clobber {
        return Err(format!(
            "inline assembly `{shown}` without a \"memory\" clobber is not supported: the \
             compiler may move memory accesses across it, so it orders nothing reliably \
             (write `asm volatile(\"{shown}\" ::: \"memory\")`)"
        ));
    }
    Ok(Meaning::Fence(ord))
}

/// Why a known barrier is refused, for the message (empty if it is not one).
fn refusal_note(canon: &str) -> &'static str {
    match canon {
        "dmb ishst" | "dmb st" | "dmb oshst" | "dmb nshst" => {
            ": it orders stores only, C11 has no store-store fence, and a release fence \
             would also order loads before stores, hiding behaviours the hardware allows"
        }
        "isync" | "eieio" => ": no C11 fence compiles to it",
        c if c.starts_with("fence ") => {
            ": no C11 fence compiles to this RISC-V fence (seq_cst: fence rw,rw; \
             acquire: fence r,rw; release: fence rw,w; acq_rel: fence.tso)"
        }
        _ => "",
    }
}

/// The template in a canonical spelling: lower case, instructions separated by `;`
/// (newlines and `;` alike), single spaces between words, none around `,`, `(`, `)`.
fn canonical(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::new();
    for part in lower.split(['\n', ';']) {
        let words: Vec<&str> = part.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(';');
        }
        let joined = words.join(" ");
        let mut s = String::new();
        for c in joined.chars() {
            if matches!(c, ',' | '(' | ')') && s.ends_with(' ') {
                s.pop();
            }
            if c == ' ' && (s.ends_with(',') || s.ends_with('(')) {
                continue;
            }
            s.push(c);
        }
        out.push_str(&s);
    }
    // `lock; addl ...`: the prefix written as its own statement.
    out.replace("lock;", "lock ")
}

/// The fence a canonical template maps to (see the module's table).
fn fence(canon: &str) -> Option<MemOrder> {
    use MemOrder::*;
    Some(match canon {
        "mfence" => SeqCst,
        "lfence" => Acquire,
        "sfence" => Release,
        "dmb ish" | "dmb sy" | "dmb" | "dsb ish" | "dsb sy" | "dsb" => SeqCst,
        "dmb ishld" | "dmb ld" => Acquire,
        "fence" | "fence rw,rw" | "fence iorw,iorw" => SeqCst,
        "fence r,rw" => Acquire,
        "fence rw,w" => Release,
        "fence.tso" => AcqRel,
        "sync" | "hwsync" | "sync 0" => SeqCst,
        "lwsync" | "sync 1" => AcqRel,
        c if locked_stack_nop(c) => SeqCst,
        _ => return None,
    })
}

/// `lock addl $0,N(%rsp)` and its spellings: a locked add or or of 0 to a slot of the
/// thread's own stack (writes back the value it read: a full barrier without effect).
fn locked_stack_nop(c: &str) -> bool {
    let Some(rest) = c.strip_prefix("lock ") else {
        return false;
    };
    let Some((op, operands)) = rest.split_once(' ') else {
        return false;
    };
    if !matches!(op, "add" | "addl" | "addq" | "or" | "orl" | "orq") {
        return false;
    }
    let Some(mem) = operands
        .strip_prefix("$0,")
        .or_else(|| operands.strip_prefix("$0x0,"))
    else {
        return false;
    };
    let Some(disp) = mem
        .strip_suffix("(%rsp)")
        .or_else(|| mem.strip_suffix("(%esp)"))
    else {
        return false;
    };
    let digits = disp.strip_prefix('-').unwrap_or(disp);
    let digits = digits.strip_prefix("0x").unwrap_or(digits);
    digits.chars().all(|c| c.is_ascii_hexdigit())
}

impl super::Cx<'_> {
    /// Lowers an asm statement at `off` with template `template`: a fence, nothing, or
    /// an unsupported-input error when an execution reaches it.
    pub(super) fn asm(&mut self, template: &str, form: Form, off: usize) {
        self.at(off);
        match meaning(template, form) {
            Ok(Meaning::Nothing) => {}
            Ok(Meaning::Fence(ord)) => self.b.emit(InstKind::Fence { ord }),
            Err(msg) => self.b.emit(InstKind::Unsupported { msg }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use MemOrder::*;

    const EXT: Form = Form {
        extended: true,
        operands: false,
        memory_clobber: true,
    };
    const BASIC: Form = Form {
        extended: false,
        operands: false,
        memory_clobber: false,
    };

    #[test]
    fn barriers_map_to_the_fences_that_compile_to_them() {
        for (t, o) in [
            ("mfence", SeqCst),
            ("  mfence\n\t", SeqCst),
            ("lfence", Acquire),
            ("sfence", Release),
            ("lock; addl $0,(%%rsp)", SeqCst),
            ("lock addl $0,0(%%rsp)", SeqCst),
            ("lock; addl $0, -4(%%rsp)", SeqCst),
            ("lock; orl $0,(%%esp)", SeqCst),
            ("dmb ish", SeqCst),
            ("DMB ISH", SeqCst),
            ("dmb sy", SeqCst),
            ("dmb ishld", Acquire),
            ("fence rw,rw", SeqCst),
            ("fence rw, rw", SeqCst),
            ("fence r,rw", Acquire),
            ("fence rw,w", Release),
            ("fence.tso", AcqRel),
            ("sync", SeqCst),
            ("lwsync", AcqRel),
        ] {
            assert_eq!(meaning(t, EXT), Ok(Meaning::Fence(o)), "{t}");
        }
        // Basic asm: `%` is literal.
        assert_eq!(
            meaning("lock; addl $0,(%rsp)", BASIC),
            Ok(Meaning::Fence(SeqCst))
        );
        assert!(meaning("lock; addl $0,(%%rsp)", BASIC).is_err());
    }

    #[test]
    fn empty_templates_are_compiler_barriers() {
        assert_eq!(meaning("", EXT), Ok(Meaning::Nothing));
        assert_eq!(meaning(" \n ", BASIC), Ok(Meaning::Nothing));
        let no_clobber = Form {
            memory_clobber: false,
            ..EXT
        };
        assert_eq!(meaning("", no_clobber), Ok(Meaning::Nothing));
    }

    #[test]
    fn other_asm_is_refused_with_a_reason() {
        for t in [
            "dmb ishst",
            "fence w,w",
            "fence r,r",
            "isync",
            "nop",
            "mfence; mfence",
            "lock; addl $1,(%%rsp)",
            "lock; addl $0,(%%rax)",
            "xchg %0, %1",
        ] {
            let e = meaning(t, EXT).unwrap_err();
            assert!(e.contains("is not supported"), "{t}: {e}");
        }
        assert!(meaning("dmb ishst", EXT)
            .unwrap_err()
            .contains("store-store"));
        let ops = Form {
            operands: true,
            ..EXT
        };
        assert!(meaning("mfence", ops).unwrap_err().contains("operands"));
        let no_clobber = Form {
            memory_clobber: false,
            ..EXT
        };
        assert!(meaning("mfence", no_clobber)
            .unwrap_err()
            .contains("\"memory\" clobber"));
    }
}
