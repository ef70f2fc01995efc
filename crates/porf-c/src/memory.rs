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
//! | shared frames | `FRAME_BASE + tid·2^34 + frame·2^20 + offset` | yes, `Loc(addr)` |
//!
//! Invariants:
//! * Every address is a pure function of the allocating thread's own history (its tid,
//!   how many blocks it allocated before, how deep its stack is), never of a global
//!   counter, so replaying a thread from a snapshot yields the same addresses.
//! * Heap addresses are never reused. A block's data starts at offset [`HEAP_DATA`] of
//!   its slot, which is the pointer `malloc` returns and the block's base for the
//!   engine ([`block_base`]); offsets below `HEAP_DATA` are a guard: any access there
//!   is out of bounds. Shared frames are blocks of their own region laid out the same
//!   way (numbered per thread apart from heap blocks), so the address alone says that
//!   a cell is a local's: `free` of it is an invalid free, and a read of it that sees
//!   no write is named as a local's ([`uninit_read_message`]).
//! * Stack offsets are byte offsets into the owning thread's private byte stack.

use crate::ir::{addr, Cell, FuncId, Module, Scalar};
use porf_graph::{ErrorKind, SrcLoc, Tid, Val};

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
    /// Byte `off` of the shared frame number `block` of thread `tid` (laid out like a
    /// heap block: data from [`HEAP_DATA`]).
    Frame { tid: Tid, block: u32, off: u32 },
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
        let (tid, block, off) = split_block_addr((a - addr::HEAP_BASE) as u64);
        Region::Heap { tid, block, off }
    } else if (addr::STACK_BASE..addr::FUNC_BASE).contains(&a) {
        let rel = (a - addr::STACK_BASE) as u64;
        Region::Stack {
            tid: (rel >> STACK_OFFSET_BITS) as Tid,
            off: rel as u32,
        }
    } else if (addr::FUNC_BASE..=addr::FUNC_BASE + u32::MAX as Val).contains(&a) {
        Region::Func((a - addr::FUNC_BASE) as u32)
    } else if (addr::FRAME_BASE..addr::FRAME_BASE + addr::HEAP_BASE).contains(&a) {
        let (tid, block, off) = split_block_addr((a - addr::FRAME_BASE) as u64);
        Region::Frame { tid, block, off }
    } else {
        Region::Invalid
    }
}

/// (thread, block, offset) of an address relative to the heap's or the shared
/// frames' base.
fn split_block_addr(rel: u64) -> (Tid, u32, u32) {
    (
        (rel >> HEAP_TID_SHIFT) as Tid,
        ((rel >> HEAP_OFFSET_BITS) & (MAX_HEAP_BLOCKS as u64 - 1)) as u32,
        (rel & ((1 << HEAP_OFFSET_BITS) - 1)) as u32,
    )
}

/// `tid`, `block`, `off` relative to a region base.
fn block_rel(tid: Tid, block: u32, off: u32) -> Val {
    debug_assert!(tid < MAX_THREADS && block < MAX_HEAP_BLOCKS && off < 1 << HEAP_OFFSET_BITS);
    ((tid as Val) << HEAP_TID_SHIFT) + ((block as Val) << HEAP_OFFSET_BITS) + off as Val
}

/// The address of byte `off` of heap block `block` of thread `tid`
/// (requires `tid < MAX_THREADS`, `block < MAX_HEAP_BLOCKS`, `off < 2^HEAP_OFFSET_BITS`).
pub fn heap_addr(tid: Tid, block: u32, off: u32) -> Val {
    addr::HEAP_BASE + block_rel(tid, block, off)
}

/// The address of byte `off` of shared frame `block` of thread `tid` (requirements
/// as for [`heap_addr`]).
pub fn frame_addr(tid: Tid, block: u32, off: u32) -> Val {
    addr::FRAME_BASE + block_rel(tid, block, off)
}

/// The base (data start) of the heap block or shared frame address `a` lies in, if
/// `a` is such an address.
pub fn block_base(a: Val) -> Option<Val> {
    match classify(a, 0) {
        Region::Heap { tid, block, .. } => Some(heap_addr(tid, block, HEAP_DATA)),
        Region::Frame { tid, block, .. } => Some(frame_addr(tid, block, HEAP_DATA)),
        _ => None,
    }
}

/// What a block of the shared-frame region allocated at `site` (its `Malloc`'s
/// source location) holds.
enum FrameBlock<'m> {
    /// An activation's shared frame (allocated at the function's position).
    Activation(&'m crate::ir::Function),
    /// A local with a block of its own per declaration (allocated at the declaration).
    Local(&'m crate::ir::Function, &'m crate::ir::LocalVar),
}

fn frame_block(m: &Module, site: SrcLoc) -> Option<FrameBlock<'_>> {
    if let Some(f) = m.funcs.iter().find(|f| f.shared_size > 0 && f.src == site) {
        return Some(FrameBlock::Activation(f));
    }
    m.funcs.iter().find_map(|f| {
        let v = f.locals.iter().find(|v| v.site == Some(site))?;
        Some(FrameBlock::Local(f, v))
    })
}

/// The activation a shared frame is, as witnesses name it: `T1 worker()'s frame`
/// (the thread, the function), with the thread's frame number when it is not the
/// thread's first shared frame (`T1 worker()'s frame#2`), so two activations of one
/// execution never share a name.
fn frame_owner(f: &crate::ir::Function, tid: Tid, block: u32) -> String {
    if block == 0 {
        format!("T{tid} {}()'s frame", f.name)
    } else {
        format!("T{tid} {}()'s frame#{block}", f.name)
    }
}

/// The local at byte `off` (from the block's data start) of a frame-region block
/// allocated at `site` (`None` outside named locals): its full name
/// (`T0 main()'s frame: ids[1]`, `T1 f()'s frame: s.next`, or for a local with a
/// block of its own, a new object each time its declaration is reached,
/// `T1 f()'s frame: x#B`) and its name as a C path (`ids[1]`).
fn frame_local(
    m: &Module,
    tid: Tid,
    block: u32,
    off: u32,
    site: SrcLoc,
) -> Option<(String, String)> {
    let rel = off.checked_sub(HEAP_DATA)?;
    match frame_block(m, site)? {
        FrameBlock::Activation(f) => {
            let var = f.local_name(rel, true)?;
            Some((format!("{}: {var}", frame_owner(f, tid, block)), var))
        }
        FrameBlock::Local(f, v) => {
            let mut path = String::new();
            v.shape.path(rel, &mut path);
            let full = format!("{}: {}#{block}{path}", own_frame(f, tid), v.name);
            Some((full, format!("{}{path}", v.name)))
        }
    }
}

/// The name of a local at shared-frame address `a` whose block was allocated at
/// `site`; `None` outside frame-region blocks or named locals.
fn frame_cell_name(m: &Module, a: Val, site: Option<SrcLoc>) -> Option<String> {
    let Region::Frame { tid, block, off } = classify(a, m.globals_end) else {
        return None;
    };
    frame_local(m, tid, block, off, site?).map(|(full, _)| full)
}

/// The message of a read of shared-frame cell `a` (whose frame was allocated at
/// `site`) that sees no write: "read of an uninitialised local variable `x`", as the
/// interpreter says of private locals. `None` outside shared frames.
pub fn uninit_read_message(m: &Module, a: Val, site: Option<SrcLoc>) -> Option<String> {
    let Region::Frame { tid, block, off } = classify(a, m.globals_end) else {
        return None;
    };
    let var = site
        .and_then(|s| frame_local(m, tid, block, off, s))
        .map(|(_, var)| var);
    Some(match var {
        Some(v) => crate::interp::uninit_local_message(&v),
        None => "read of an uninitialised local variable".to_string(),
    })
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
        Region::Frame { tid, block, off } => {
            format!("frame#{tid}.{block}+{}", off as i64 - HEAP_DATA as i64)
        }
        Region::Func(f) => match m.funcs.get(f as usize) {
            Some(func) => format!("&{}", func.name),
            None => format!("{a:#x}"),
        },
        Region::Null | Region::Invalid => format!("{a:#x}"),
    }
}

/// [`name_of`] knowing the allocation site of `a`'s block (`site`): heap memory of a
/// site whose type the front end saw ([`Module::alloc_types`]) is named by that type,
/// block and field, `node#1.0.next` (`node#1.0[2].next` for the third object of an
/// array block; `+k` after the path for a byte inside a scalar). With `object`, an
/// address at the start of an object is named by the object alone (`node#1.0`, as a
/// pointer to it reads), else by its first scalar (`node#1.0.val`, as an access there).
pub fn name_in(m: &Module, a: Val, site: Option<SrcLoc>, object: bool) -> String {
    match (classify(a, m.globals_end), site) {
        (Region::Frame { .. }, site) => {
            frame_cell_name(m, a, site).unwrap_or_else(|| name_of(m, a))
        }
        (Region::Heap { tid, block, off }, Some(site)) if off >= HEAP_DATA => {
            match (m.alloc_types.get(&site), heap_leaf(m, a, site)) {
                (Some(ht), Some((idx, path, within, _))) => {
                    let start = heap_offset(a).is_some_and(|o| {
                        if ht.flex.is_some() {
                            o == 0
                        } else {
                            o % ht.size == 0
                        }
                    });
                    let path = if object && start { String::new() } else { path };
                    let idx = if idx > 0 {
                        format!("[{idx}]")
                    } else {
                        String::new()
                    };
                    let plus = if within > 0 {
                        format!("+{within}")
                    } else {
                        String::new()
                    };
                    format!("{}#{tid}.{block}{idx}{path}{plus}", ht.name)
                }
                _ => name_of(m, a),
            }
        }
        _ => name_of(m, a),
    }
}

/// The frame of a local with a block of its own: the thread and the function alone
/// (the block number goes with the local, whose every instance is a block).
fn own_frame(f: &crate::ir::Function, tid: Tid) -> String {
    format!("T{tid} {}()'s frame", f.name)
}

/// The name of the block allocated at `base` (its allocation at `site`): a heap
/// block as [`name_in`] names the object there (`node#1.0`), a shared frame as
/// `T1 f()'s frame`, a local's own block as `T1 f()'s frame: x#B`.
pub fn block_name_in(m: &Module, base: Val, site: Option<SrcLoc>) -> String {
    match (
        classify(base, m.globals_end),
        site.and_then(|s| frame_block(m, s)),
    ) {
        (Region::Frame { tid, block, .. }, Some(FrameBlock::Activation(f))) => {
            frame_owner(f, tid, block)
        }
        (Region::Frame { tid, block, .. }, Some(FrameBlock::Local(f, v))) => {
            format!("{}: {}#{block}", own_frame(f, tid), v.name)
        }
        _ => name_in(m, base, site, true),
    }
}

/// How the end of the life of the frame-region block at `base` (allocated at `site`)
/// reads in a witness, where its `Free` event is no `free` call: an activation's
/// frame is released as its function returns (`worker() returns`), a local's own
/// block when its declaration is reached again or its function returns
/// (`x#B goes out of scope`). `None` outside frame-region blocks.
pub fn block_end_in(m: &Module, base: Val, site: Option<SrcLoc>) -> Option<String> {
    match (
        classify(base, m.globals_end),
        site.and_then(|s| frame_block(m, s))?,
    ) {
        (Region::Frame { .. }, FrameBlock::Activation(f)) => Some(format!("{}() returns", f.name)),
        (Region::Frame { block, .. }, FrameBlock::Local(_, v)) => {
            Some(format!("{}#{block} goes out of scope", v.name))
        }
        _ => None,
    }
}

/// Where heap address `a` lies in the objects of its block's allocation site:
/// (object index, leaf path, bytes past the leaf's start, whether the leaf is a
/// pointer). `None` when the site has no recorded type or `a` is before the data.
fn heap_leaf(m: &Module, a: Val, site: SrcLoc) -> Option<(u64, String, u64, Scalar)> {
    let ht = m.alloc_types.get(&site)?;
    let rel = heap_offset(a)?;
    if let Some((leaf, es)) = ht.flex.as_ref().filter(|(l, _)| rel >= l.offset) {
        let (k, within) = ((rel - leaf.offset) / es, (rel - leaf.offset) % es);
        return Some((0, format!("{}[{k}]", leaf.path), within, leaf.scalar));
    }
    let i = leaf_index(ht, a)?;
    let (idx, at) = (rel / ht.size, rel % ht.size);
    let l = &ht.leaves[i];
    Some((idx, l.path.clone(), at - l.offset, l.scalar))
}

/// Index in `ht.leaves` of the leaf heap address `a` lies in (the last leaf starting
/// at or before it).
fn leaf_index(ht: &crate::ir::HeapType, a: Val) -> Option<usize> {
    let at = heap_offset(a)? % ht.size;
    ht.leaves.partition_point(|l| l.offset <= at).checked_sub(1)
}

/// Whether heap address `a` is in a pointer leaf of its site's type.
fn pointer_leaf(m: &Module, a: Val, site: SrcLoc) -> bool {
    let Some(ht) = m.alloc_types.get(&site) else {
        return false;
    };
    match (&ht.flex, heap_offset(a)) {
        (Some((leaf, _)), Some(rel)) if rel >= leaf.offset => leaf.pointer,
        _ => leaf_index(ht, a).is_some_and(|i| ht.leaves[i].pointer),
    }
}

/// The offset of heap address `a` from its block's data start (`None`: not in a
/// block's data).
fn heap_offset(a: Val) -> Option<u64> {
    match classify(a, 0) {
        Region::Heap { off, .. } => off.checked_sub(HEAP_DATA).map(u64::from),
        _ => None,
    }
}

/// [`show_value`] knowing the allocation sites of blocks (`site(a)`: the site of the
/// block `a` lies in): a heap cell that is a pointer field of its site's type shows
/// every value by name (`NULL`, `&g`, `&node#1.0.next`), a floating field as a number,
/// an integer field never; pointers into typed blocks are named by [`name_in`].
pub fn show_value_in(
    m: &Module,
    a: Val,
    bytes: u8,
    val: Val,
    site: &dyn Fn(Val) -> Option<SrcLoc>,
) -> Option<String> {
    let named = |v: Val| {
        if v == 0 {
            "NULL".to_string()
        } else {
            let n = name_in(m, v, site(v), true);
            if n.starts_with('&') || n.starts_with("0x") {
                n
            } else {
                format!("&{n}")
            }
        }
    };
    if let Some(s) = site(a) {
        if let Some((_, _, 0, leaf)) = heap_leaf(m, a, s) {
            return match leaf {
                _ if leaf.size != bytes => None,
                _ if leaf.float => Some(crate::interp::float::show_bits(val, leaf)),
                _ if pointer_leaf(m, a, s) => Some(named(val)),
                _ => None,
            };
        }
    }
    match classify(a, m.globals_end) {
        // Global cells: pointers by (site-aware) name, floats as numbers.
        Region::Global => match m.cells.get(&a) {
            Some(c) if c.pointer => Some(named(val)),
            _ => show_value(m, a, bytes, val),
        },
        // Untyped heap: the values that can only be addresses.
        _ => show_value(m, a, bytes, val).map(|_| named(val)),
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
    if bytes == 16 {
        return Some(crate::wide::show(val));
    }
    match classify(a, m.globals_end) {
        Region::Global => match m.cells.get(&a) {
            Some(c) if c.pointer => Some(named(val)),
            // A floating cell's bit pattern as its value (shortest round-trip digits).
            Some(c) if c.ty.float && c.ty.size == bytes => {
                Some(crate::interp::float::show_bits(val, c.ty))
            }
            _ => None,
        },
        Region::Heap { .. } | Region::Frame { .. } if bytes == 8 && val >= addr::HEAP_BASE => {
            match classify(val, m.globals_end) {
                Region::Heap { .. }
                | Region::Stack { .. }
                | Region::Func(_)
                | Region::Frame { .. } => Some(named(val)),
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
    if ty.size == 16 {
        let b: [u8; 16] = mem[off..off + 16].try_into().expect("16 bytes");
        return crate::wide::encode(i128::from_le_bytes(b));
    }
    let mut b = [0u8; 8];
    let n = ty.size as usize;
    b[..n].copy_from_slice(&mem[off..off + n]);
    ty.normalize(i64::from_le_bytes(b))
}

/// Writes the low `ty.size` bytes of `v` at byte `off` of private memory.
/// Requires `off + ty.size <= mem.len()`.
pub fn write_private(mem: &mut [u8], off: usize, ty: Scalar, v: Val) {
    if ty.size == 16 {
        mem[off..off + 16].copy_from_slice(&crate::wide::decode(v).to_le_bytes());
        return;
    }
    let n = ty.size as usize;
    mem[off..off + n].copy_from_slice(&v.to_le_bytes()[..n]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{HeapLeaf, HeapType};

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
    fn heap_names_follow_the_allocation_sites_type() {
        let mut m = module();
        let site = SrcLoc::line(3);
        m.alloc_types.insert(
            site,
            HeapType {
                name: "node".into(),
                size: 16,
                leaves: vec![
                    HeapLeaf {
                        offset: 0,
                        path: ".val".into(),
                        scalar: Scalar::INT,
                        pointer: false,
                    },
                    HeapLeaf {
                        offset: 8,
                        path: ".next".into(),
                        scalar: Scalar::PTR,
                        pointer: true,
                    },
                ],
                flex: None,
            },
        );
        let at = |off: u32| heap_addr(1, 2, HEAP_DATA + off);
        assert_eq!(name_in(&m, at(0), Some(site), false), "node#1.2.val");
        assert_eq!(name_in(&m, at(0), Some(site), true), "node#1.2");
        assert_eq!(name_in(&m, at(8), Some(site), true), "node#1.2.next");
        assert_eq!(name_in(&m, at(2), Some(site), false), "node#1.2.val+2");
        assert_eq!(name_in(&m, at(24), Some(site), false), "node#1.2[1].next");
        assert_eq!(name_in(&m, at(16), Some(site), true), "node#1.2[1]");
        // A struct with a flexible array member: bytes past the fixed part are the
        // array's elements, not further structs.
        let ring = SrcLoc::line(5);
        m.alloc_types.insert(
            ring,
            HeapType {
                name: "ring".into(),
                size: 8,
                leaves: vec![HeapLeaf {
                    offset: 0,
                    path: ".n".into(),
                    scalar: Scalar::INT,
                    pointer: false,
                }],
                flex: Some((
                    HeapLeaf {
                        offset: 8,
                        path: ".slot".into(),
                        scalar: Scalar::PTR,
                        pointer: true,
                    },
                    8,
                )),
            },
        );
        assert_eq!(name_in(&m, at(0), Some(ring), false), "ring#1.2.n");
        assert_eq!(name_in(&m, at(0), Some(ring), true), "ring#1.2");
        assert_eq!(name_in(&m, at(8), Some(ring), true), "ring#1.2.slot[0]");
        assert_eq!(name_in(&m, at(24), Some(ring), false), "ring#1.2.slot[2]");
        // No site, or a site of unknown type: the untyped name.
        assert_eq!(name_in(&m, at(8), None, false), "heap#1.2+8");
        assert_eq!(
            name_in(&m, at(8), Some(SrcLoc::line(4)), false),
            "heap#1.2+8"
        );
        // The guard before the data has no field.
        assert_eq!(
            name_in(&m, heap_addr(1, 2, 0), Some(site), false),
            "heap#1.2+-8"
        );
        let sites = |a: Val| block_base(a).map(|_| site);
        // A pointer field shows any value by name, an integer field never.
        let x = addr::GLOBAL_BASE;
        assert_eq!(
            show_value_in(&m, at(8), 8, x, &sites).as_deref(),
            Some("&x")
        );
        assert_eq!(
            show_value_in(&m, at(8), 8, 0, &sites).as_deref(),
            Some("NULL")
        );
        assert_eq!(
            show_value_in(&m, at(8), 8, at(16), &sites).as_deref(),
            Some("&node#1.2[1]")
        );
        assert_eq!(show_value_in(&m, at(0), 4, 5, &sites), None);
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
