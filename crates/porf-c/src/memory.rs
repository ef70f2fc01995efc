//! porf's address space: how a 64-bit pointer value names global, heap, thread-private
//! (stack) or function memory, and the checks every access goes through.
//!
//! Layout (all constants of [`crate::ir::addr`] plus the encodings chosen here):
//!
//! | region | addresses | engine location? |
//! |---|---|---|
//! | null page | `[0, GLOBAL_BASE)` | no: "null pointer dereference" |
//! | globals | `[GLOBAL_BASE, Module::globals_end)`, one [`Cell`] per scalar | yes, `Loc(addr)` |
//! | heap | `HEAP_BASE + tid·2^34 + block·2^20 + offset` | yes, `Loc(addr)` |
//! | stack | `STACK_BASE + tid·2^32 + offset` | no: private to `tid` |
//! | functions | `FUNC_BASE + id` | no: only callable |
//!
//! Invariants:
//! * Every address is a pure function of the allocating thread's own history (its tid,
//!   how many blocks it allocated before, how deep its stack is), never of a global
//!   counter, so replaying a thread from a snapshot yields the same addresses.
//! * Heap addresses are never reused. A block's data starts at offset [`HEAP_DATA`] of
//!   its slot, which is the pointer `malloc` returns and the block's base for the
//!   engine ([`block_base`]); offsets below `HEAP_DATA` are a guard: any access there
//!   is out of bounds.
//! * Stack offsets are byte offsets into the owning thread's private byte stack.

use crate::ir::{addr, Cell, FuncId, Module, Scalar};
use porf_graph::{ErrorKind, Tid, Val};

/// Thread ids `0..MAX_THREADS` can own heap blocks and stack memory.
pub const MAX_THREADS: u32 = 1 << 10;
/// Bits of a heap address naming the block within its thread.
pub const HEAP_BLOCK_BITS: u32 = 14;
/// Bits of a heap address naming the byte within its block.
pub const HEAP_OFFSET_BITS: u32 = 20;
/// Blocks per thread.
pub const MAX_HEAP_BLOCKS: u32 = 1 << HEAP_BLOCK_BITS;
/// Offset of a block's user data in its slot (`[0, HEAP_DATA)` is a guard).
pub const HEAP_DATA: u32 = 8;
/// The largest `malloc` size.
pub const MAX_MALLOC: u32 = (1 << HEAP_OFFSET_BITS) - HEAP_DATA;
/// Bits of a stack address naming the byte within its thread's stack.
pub const STACK_OFFSET_BITS: u32 = 32;
/// The largest private stack of one thread, in bytes.
pub const MAX_STACK: usize = 1 << 28;

const HEAP_TID_SHIFT: u32 = HEAP_BLOCK_BITS + HEAP_OFFSET_BITS;

/// What an address points into.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Region {
    /// `[0, GLOBAL_BASE)`: null or a member of a null struct pointer.
    Null,
    /// `[GLOBAL_BASE, globals_end)`.
    Global,
    /// Byte `off` of block number `block` allocated by thread `tid`.
    Heap { tid: Tid, block: u32, off: u32 },
    /// Byte `off` of thread `tid`'s private stack.
    Stack { tid: Tid, off: u32 },
    /// The function with this id (which may not exist).
    Func(u32),
    /// Anything else (between regions, negative, ...).
    Invalid,
}

/// Decodes an address.
pub fn classify(a: Val, globals_end: Val) -> Region {
    if (0..addr::GLOBAL_BASE).contains(&a) {
        Region::Null
    } else if (addr::GLOBAL_BASE..globals_end).contains(&a) {
        Region::Global
    } else if (addr::HEAP_BASE..addr::STACK_BASE).contains(&a) {
        let rel = (a - addr::HEAP_BASE) as u64;
        Region::Heap {
            tid: (rel >> HEAP_TID_SHIFT) as Tid,
            block: ((rel >> HEAP_OFFSET_BITS) & (MAX_HEAP_BLOCKS as u64 - 1)) as u32,
            off: (rel & ((1 << HEAP_OFFSET_BITS) - 1)) as u32,
        }
    } else if (addr::STACK_BASE..addr::FUNC_BASE).contains(&a) {
        let rel = (a - addr::STACK_BASE) as u64;
        Region::Stack {
            tid: (rel >> STACK_OFFSET_BITS) as Tid,
            off: rel as u32,
        }
    } else if (addr::FUNC_BASE..=addr::FUNC_BASE + u32::MAX as Val).contains(&a) {
        Region::Func((a - addr::FUNC_BASE) as u32)
    } else {
        Region::Invalid
    }
}

/// The address of byte `off` of heap block `block` of thread `tid`
/// (requires `tid < MAX_THREADS`, `block < MAX_HEAP_BLOCKS`, `off < 2^HEAP_OFFSET_BITS`).
pub fn heap_addr(tid: Tid, block: u32, off: u32) -> Val {
    debug_assert!(tid < MAX_THREADS && block < MAX_HEAP_BLOCKS && off < 1 << HEAP_OFFSET_BITS);
    addr::HEAP_BASE
        + ((tid as Val) << HEAP_TID_SHIFT)
        + ((block as Val) << HEAP_OFFSET_BITS)
        + off as Val
}

/// The base (data start) of the heap block address `a` lies in, if `a` is a heap address.
pub fn block_base(a: Val) -> Option<Val> {
    match classify(a, 0) {
        Region::Heap { tid, block, .. } => Some(heap_addr(tid, block, HEAP_DATA)),
        _ => None,
    }
}

/// The address of byte `off` of thread `tid`'s private stack (requires `tid < MAX_THREADS`).
pub fn stack_addr(tid: Tid, off: u32) -> Val {
    debug_assert!(tid < MAX_THREADS);
    addr::STACK_BASE + ((tid as Val) << STACK_OFFSET_BITS) + off as Val
}

/// The value of a pointer to function `f`.
pub fn func_addr(f: FuncId) -> Val {
    addr::FUNC_BASE + f as Val
}

/// A human name for an address, for witnesses: the global cell's C path,
/// `heap#<tid>.<block>+<offset>` (offset from the pointer `malloc` returned; negative
/// in the guard before the data), `stack#<tid>+<offset>`, or the raw address.
pub fn name_of(m: &Module, a: Val) -> String {
    match classify(a, m.globals_end) {
        Region::Global => match m.cells.range(..=a).next_back() {
            Some((&start, c)) if start == a => c.name.clone(),
            Some((&start, c)) => format!("{}+{}", c.name, a - start),
            None => format!("{a:#x}"),
        },
        Region::Heap { tid, block, off } => {
            format!("heap#{tid}.{block}+{}", off as i64 - HEAP_DATA as i64)
        }
        Region::Stack { tid, off } => format!("stack#{tid}+{off}"),
        Region::Func(f) => match m.funcs.get(f as usize) {
            Some(func) => format!("&{}", func.name),
            None => format!("{a:#x}"),
        },
        Region::Null | Region::Invalid => format!("{a:#x}"),
    }
}

/// A non-null pointer value by name: `&x`, `&pool[1].next`, `&heap#1.0+8`,
/// `&stack#0+16`, `&f` (a function), or the number in hex when it points nowhere.
pub fn pointer_name(m: &Module, v: Val) -> String {
    let n = name_of(m, v);
    if n.starts_with('&') || n.starts_with("0x") {
        n
    } else {
        format!("&{n}")
    }
}

/// A value stored at `a` (an access of `bytes` bytes) shown as a pointer (`&x`,
/// `&heap#1.0+8`, `&f`, `NULL`), when it is one: the cell at `a` is declared a pointer,
/// or `a` is in the heap (untyped), the access is 8 bytes wide and the value lies in
/// the heap, a stack or the functions (ranges no integer of a test program reaches by
/// accident). A global cell of integer type is never shown by name.
pub fn show_value(m: &Module, a: Val, bytes: u8, val: Val) -> Option<String> {
    let named = |v: Val| {
        if v == 0 {
            "NULL".to_string()
        } else {
            pointer_name(m, v)
        }
    };
    match classify(a, m.globals_end) {
        Region::Global => match m.cells.get(&a) {
            Some(c) if c.pointer => Some(named(val)),
            // A floating cell's bit pattern as its value (shortest round-trip digits).
            Some(c) if c.ty.float && c.ty.size == bytes => {
                Some(crate::interp::float::show_bits(val, c.ty))
            }
            _ => None,
        },
        Region::Heap { .. } if bytes == 8 && val >= addr::HEAP_BASE => {
            match classify(val, m.globals_end) {
                Region::Heap { .. } | Region::Stack { .. } | Region::Func(_) => Some(named(val)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A run-time error found by the interpreter (becomes an `Action::Error`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fault {
    pub kind: ErrorKind,
    pub msg: String,
}

impl Fault {
    pub fn memory(msg: impl Into<String>) -> Fault {
        Fault {
            kind: ErrorKind::Memory,
            msg: msg.into(),
        }
    }
    pub fn unsupported(msg: impl Into<String>) -> Fault {
        Fault {
            kind: ErrorKind::Unsupported,
            msg: msg.into(),
        }
    }
}

/// The global cell an access of width `size` at `a` (inside the global area) touches;
/// `None` for `size` means "any width" (mutexes). A global access is valid only at a
/// cell's first byte and with the cell's width.
pub fn global_cell(m: &Module, a: Val, size: Option<u8>) -> Result<&Cell, Fault> {
    match (m.cells.get(&a), size) {
        (Some(c), None) => Ok(c),
        (Some(c), Some(s)) if s == c.ty.size => Ok(c),
        _ => Err(Fault::unsupported(format!(
            "mixed-size or misaligned access to global memory at {}",
            name_of(m, a)
        ))),
    }
}

/// Reads a `ty` value at byte `off` of private memory (little-endian), normalised.
/// Requires `off + ty.size <= mem.len()`.
pub fn read_private(mem: &[u8], off: usize, ty: Scalar) -> Val {
    let mut b = [0u8; 8];
    let n = ty.size as usize;
    b[..n].copy_from_slice(&mem[off..off + n]);
    ty.normalize(i64::from_le_bytes(b))
}

/// Writes the low `ty.size` bytes of `v` at byte `off` of private memory.
/// Requires `off + ty.size <= mem.len()`.
pub fn write_private(mem: &mut [u8], off: usize, ty: Scalar, v: Val) {
    let n = ty.size as usize;
    mem[off..off + n].copy_from_slice(&v.to_le_bytes()[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module() -> Module {
        let mut m = Module {
            globals_end: addr::GLOBAL_BASE + 16,
            ..Module::default()
        };
        for (i, name) in ["x", "y"].iter().enumerate() {
            m.cells.insert(
                addr::GLOBAL_BASE + 8 * i as Val,
                Cell {
                    name: name.to_string(),
                    ty: Scalar::INT,
                    init: 0,
                    atomic: false,
                    pointer: false,
                },
            );
        }
        m
    }

    #[test]
    fn encodings_round_trip() {
        let a = heap_addr(
            MAX_THREADS - 1,
            MAX_HEAP_BLOCKS - 1,
            MAX_MALLOC + HEAP_DATA - 1,
        );
        assert!(a < addr::STACK_BASE);
        assert_eq!(
            classify(a, 0),
            Region::Heap {
                tid: MAX_THREADS - 1,
                block: MAX_HEAP_BLOCKS - 1,
                off: MAX_MALLOC + HEAP_DATA - 1
            }
        );
        let s = stack_addr(3, 17);
        assert_eq!(classify(s, 0), Region::Stack { tid: 3, off: 17 });
        assert_eq!(classify(func_addr(7), 0), Region::Func(7));
        assert_eq!(classify(0, 0), Region::Null);
        assert_eq!(classify(8, 0), Region::Null);
        assert_eq!(classify(-8, 0), Region::Invalid);
        assert_eq!(
            classify(addr::GLOBAL_BASE + 16, addr::GLOBAL_BASE + 16),
            Region::Invalid
        );
        assert_eq!(
            classify(addr::GLOBAL_BASE, addr::GLOBAL_BASE + 16),
            Region::Global
        );
    }

    #[test]
    fn global_checks_and_names() {
        let m = module();
        let x = addr::GLOBAL_BASE;
        assert_eq!(global_cell(&m, x, Some(4)).unwrap().name, "x");
        assert!(global_cell(&m, x, None).is_ok());
        let e = global_cell(&m, x, Some(1)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Unsupported);
        assert_eq!(
            e.msg,
            "mixed-size or misaligned access to global memory at x"
        );
        let e = global_cell(&m, x + 9, Some(4)).unwrap_err();
        assert!(e.msg.ends_with("at y+1"), "{}", e.msg);
        assert_eq!(name_of(&m, heap_addr(2, 5, HEAP_DATA + 4)), "heap#2.5+4");
        assert_eq!(name_of(&m, heap_addr(2, 5, 0)), "heap#2.5+-8");
        assert_eq!(
            block_base(heap_addr(2, 5, 99)),
            Some(heap_addr(2, 5, HEAP_DATA))
        );
        assert_eq!(block_base(x), None);
        assert_eq!(name_of(&m, stack_addr(1, 4)), "stack#1+4");
    }

    #[test]
    fn private_bytes_are_little_endian_and_normalised() {
        let mut mem = vec![0u8; 16];
        write_private(&mut mem, 0, Scalar::LONG, -2);
        assert_eq!(read_private(&mem, 0, Scalar::LONG), -2);
        assert_eq!(read_private(&mem, 0, Scalar::CHAR), -2);
        assert_eq!(read_private(&mem, 0, Scalar::BOOL), 0xfe);
        write_private(&mut mem, 8, Scalar::INT, 0x1234_5678);
        assert_eq!(read_private(&mem, 9, Scalar::CHAR), 0x56);
        assert_eq!(read_private(&mem, 12, Scalar::INT), 0);
    }
}
