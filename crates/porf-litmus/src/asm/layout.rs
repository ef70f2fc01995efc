//! Where an assembly test's locations live and what they and the registers hold at
//! the start: the initial state of [`super::machine`].
//!
//! Invariants:
//! - every location the test names (initial state, code, `locations`, filter,
//!   condition, address values) has one region `[base, base + size)`, `size` from its
//!   declared type (arrays `T x[N]`: `N` elements; scalars 8 bytes); regions are
//!   disjoint, ordered by first mention, and start at [`BASE`] with [`STRIDE`]-aligned
//!   bases, so an address names at most one location and every base is below 2³¹
//!   (an address survives a 32-bit register, as X86 tests keep them);
//! - a location's initial value is the one the initial state gives (an integer, or the
//!   base of the location named), else 0, as herd's; a register's likewise.
//! - a *mixed-size* AArch64 test (accesses of several sizes, or one at a nonzero
//!   immediate offset: herd7's `-variant mixed` tests) has an access [`Layout::unit`]:
//!   herd's `machsize auto` choice, the smallest access size of the test. Memory is
//!   then a sequence of units, little-endian: the unit at `x + k·unit` holds bytes
//!   `k·unit ..` of `x`'s value (its initial value sliced so), and `x`'s value is the
//!   composition of the units its declared type covers ([`Region::value_bytes`]).

use super::ir::{Arch, Reg, Size};
use super::AsmLitmus;
use crate::ast::{Loc, Pos, Value};
use crate::parse::LitmusError;
use porf_graph::Val;
use std::collections::BTreeMap;

/// The base address of the first location.
pub const BASE: u64 = 0x1000_0000;
/// Location bases are multiples of this.
pub const STRIDE: u64 = 0x1_0000;

/// One location of the test.
#[derive(Clone, Debug)]
pub struct Region {
    pub name: String,
    pub base: u64,
    pub size: u64,
    /// Declared as an array (`T x[N]`): its elements are accessed at offsets. A scalar
    /// is one value, accessed at its base only (see [`super::machine`]).
    pub array: bool,
    /// The size of a scalar's type (`uint32_t x`: 4): herd's default `int`, 4 bytes,
    /// when the test declares none (8 when its initial value is an address); `None`
    /// for arrays.
    pub value_bytes: Option<u64>,
}

/// The locations of a test, their initial values, and each thread's initial registers.
#[derive(Clone, Debug)]
pub struct Layout {
    pub regions: Vec<Region>,
    /// Initial values of memory by address (absent: 0).
    pub memory: BTreeMap<u64, Val>,
    /// Per thread, the initial values of the registers the initial state sets.
    pub registers: Vec<Vec<(Reg, Val)>>,
    /// The access unit of a mixed-size test (see the module docs), `None` otherwise.
    pub unit: Option<u64>,
}

fn elem_size(ty: &str) -> u64 {
    let t = ty.trim();
    if t.ends_with('*') {
        return 8;
    }
    match t {
        "char" | "int8_t" | "uint8_t" | "unsigned char" | "signed char" => 1,
        "short" | "int16_t" | "uint16_t" | "unsigned short" => 2,
        "int" | "int32_t" | "uint32_t" | "unsigned" | "unsigned int" => 4,
        _ => 8,
    }
}

/// The declared size of a location of type `ty` (`uint8_t[128]`: 128).
fn size_of(ty: Option<&str>) -> u64 {
    let Some(ty) = ty else { return 8 };
    if let Some((elem, n)) = ty.strip_suffix(']').and_then(|t| t.split_once('[')) {
        let n: u64 = n.trim().parse().unwrap_or(1);
        return (elem_size(elem) * n).max(1);
    }
    elem_size(ty).max(8)
}

impl Layout {
    /// The layout of `t`.
    pub fn new(t: &AsmLitmus) -> Result<Layout, LitmusError> {
        let err = |p: Pos, m: String| LitmusError {
            file: t.file.clone(),
            line: p.line,
            col: p.col,
            message: m,
        };
        // Names in order of first mention, with their declared type if any.
        let mut names: Vec<(String, Option<String>)> = Vec::new();
        let mut mention = |n: &str, ty: Option<&str>| {
            if let Some(e) = names.iter_mut().find(|(m, _)| m == n) {
                if e.1.is_none() {
                    e.1 = ty.map(str::to_string);
                }
            } else {
                names.push((n.to_string(), ty.map(str::to_string)));
            }
        };
        for it in &t.init {
            if let Loc::Global(x) = &it.loc {
                mention(x, it.ty.as_deref());
            }
            if let Value::Addr(x) = &it.value {
                mention(x, None);
            }
        }
        for th in &t.threads {
            for ins in &th.code {
                if let Some(x) = op_sym(&ins.op) {
                    mention(x, None);
                }
            }
        }
        let mut locs: Vec<(Loc, Pos)> = t.locations.clone();
        let mut addrs = Vec::new();
        if let Some(f) = &t.filter {
            f.locs(&mut locs);
            f.addrs(&mut addrs);
        }
        t.cond.prop.locs(&mut locs);
        t.cond.prop.addrs(&mut addrs);
        for (l, _) in &locs {
            if let Loc::Global(x) = l {
                mention(x, None);
            }
        }
        for (x, _) in &addrs {
            mention(x, None);
        }
        let addr_valued: Vec<String> = t
            .init
            .iter()
            .filter_map(|it| match (&it.loc, &it.value) {
                (Loc::Global(x), Value::Addr(_)) => Some(x.clone()),
                _ => None,
            })
            .collect();
        let mut regions = Vec::new();
        let mut next = BASE;
        for (name, ty) in names {
            let size = size_of(ty.as_deref());
            let array = ty.as_deref().is_some_and(|t| t.trim_end().ends_with(']'));
            let value_bytes = match ty.as_deref() {
                _ if array => None,
                Some(ty) => Some(elem_size(ty)),
                None if addr_valued.contains(&name) => Some(8),
                None => Some(4),
            };
            regions.push(Region {
                name,
                base: next,
                size,
                array,
                value_bytes,
            });
            next += size.div_ceil(STRIDE).max(1) * STRIDE + STRIDE;
            if next >= 1 << 31 {
                return Err(err(
                    Pos { line: 1, col: 1 },
                    "the test's locations do not fit below 2^31 bytes".into(),
                ));
            }
        }
        let unit = mixed_unit(t, &regions);
        let mut l = Layout {
            regions,
            memory: BTreeMap::new(),
            registers: vec![Vec::new(); t.threads.len()],
            unit,
        };
        for it in &t.init {
            let v = match &it.value {
                Value::Int(i) => *i,
                Value::Addr(x) => l.addr_of(x).expect("every name has a region") as Val,
            };
            match &it.loc {
                Loc::Global(x) => {
                    let a = l.addr_of(x).expect("every name has a region");
                    l.memory.insert(a, v);
                }
                Loc::Reg(th, r) => {
                    let Some((reg, size)) = t.arch.parse_reg(r) else {
                        return Err(err(it.pos, format!("`{r}` is not a {} register", t.arch)));
                    };
                    let Some(regs) = l.registers.get_mut(*th as usize) else {
                        return Err(err(it.pos, format!("the test has no thread P{th}")));
                    };
                    if reg == Reg::Flags {
                        return Err(err(it.pos, format!("`{r}` cannot be initialised")));
                    }
                    if reg != Reg::Zero {
                        regs.push((reg, narrow_reg(t.arch, size, v)));
                    }
                }
            }
        }
        Ok(l)
    }

    /// The base address of location `name`.
    pub fn addr_of(&self, name: &str) -> Option<u64> {
        self.regions.iter().find(|r| r.name == name).map(|r| r.base)
    }

    /// The location `a` lies in, with its offset there.
    pub fn region_at(&self, a: u64) -> Option<(&Region, u64)> {
        self.regions
            .iter()
            .find(|r| a >= r.base && a < r.base + r.size)
            .map(|r| (r, a - r.base))
    }

    /// herd's name of address `a`: `x`, or `x+4` inside `x`.
    pub fn name_of(&self, a: u64) -> Option<String> {
        let (r, off) = self.region_at(a)?;
        Some(if off == 0 {
            r.name.clone()
        } else {
            format!("{}+{off}", r.name)
        })
    }

    /// The name of the location whose base is value `v`, if any (how herd prints an
    /// address held in a register or a location).
    pub fn symbol_of_value(&self, v: Val) -> Option<&str> {
        self.regions
            .iter()
            .find(|r| r.base as Val == v)
            .map(|r| r.name.as_str())
    }

    /// The initial value at address `a` (in a mixed-size test, of the unit at `a`).
    pub fn init_value(&self, a: u64) -> Val {
        if let (Some(unit), Some((r, off))) = (self.unit, self.region_at(a)) {
            if !r.array {
                let v = self.memory.get(&r.base).copied().unwrap_or(0) as u64;
                let bytes = r.value_bytes.unwrap_or(r.size);
                if off >= bytes {
                    return 0;
                }
                return (low_bytes(v, bytes) >> (8 * off)) as Val
                    & low_bytes(u64::MAX, unit) as Val;
            }
        }
        self.memory.get(&a).copied().unwrap_or(0)
    }
}

/// The low `n` bytes of `v` (all of it from 8 on).
pub fn low_bytes(v: u64, n: u64) -> u64 {
    if n >= 8 {
        v
    } else {
        v & ((1u64 << (8 * n)) - 1)
    }
}

/// The access unit of a mixed-size test (see the module docs): AArch64 tests whose
/// accesses have several sizes, or, in a test without arrays, one at a nonzero
/// immediate offset (a part of a scalar; offsets into arrays are elements).
fn mixed_unit(t: &AsmLitmus, regions: &[Region]) -> Option<u64> {
    use super::ir::Op;
    if t.arch != Arch::AArch64 {
        return None;
    }
    let mut sizes = Vec::new();
    let mut offset = false;
    for ins in t.threads.iter().flat_map(|th| &th.code) {
        let (addr, size) = match &ins.op {
            Op::Load { addr, size, .. }
            | Op::Store { addr, size, .. }
            | Op::StoreEx { addr, size, .. }
            | Op::Rmw { addr, size, .. }
            | Op::Cas { addr, size, .. } => (addr, *size),
            // A pair's second access is at offset `size`.
            Op::LoadPair { addr, size, .. } | Op::StorePair { addr, size, .. } => {
                sizes.push(size.bytes() as u64);
                offset = true;
                (addr, *size)
            }
            _ => continue,
        };
        sizes.push(size.bytes() as u64);
        offset |= addr.offset != 0;
    }
    let min = sizes.iter().copied().min()?;
    let offset = offset && !regions.iter().any(|r| r.array);
    (offset || sizes.iter().any(|&s| s != min)).then_some(min)
}

/// The location an instruction names directly (X86 `[x]`).
fn op_sym(op: &super::ir::Op) -> Option<&str> {
    use super::ir::Op;
    let a = match op {
        Op::Load { addr, .. }
        | Op::Store { addr, .. }
        | Op::StoreEx { addr, .. }
        | Op::LoadPair { addr, .. }
        | Op::StorePair { addr, .. }
        | Op::Rmw { addr, .. }
        | Op::Cas { addr, .. } => addr,
        _ => return None,
    };
    a.sym.as_deref()
}

/// `v` as a write of register view `size` leaves the register: a 32-bit view
/// zero-extends (AArch64 `W`, X86's 32-bit registers), except on RISC-V, whose 32-bit
/// operations sign-extend.
pub fn narrow_reg(arch: Arch, size: Size, v: Val) -> Val {
    match (arch, size) {
        (_, Size::Double) => v,
        (Arch::RiscV, s) => sext(v, s),
        (_, s) => zext(v, s),
    }
}

/// The low `size` bytes of `v`, zero-extended.
pub fn zext(v: Val, size: Size) -> Val {
    match size {
        Size::Byte => v as u8 as Val,
        Size::Half => v as u16 as Val,
        Size::Word => v as u32 as Val,
        Size::Double => v,
    }
}

/// The low `size` bytes of `v`, sign-extended.
pub fn sext(v: Val, size: Size) -> Val {
    match size {
        Size::Byte => v as i8 as Val,
        Size::Half => v as i16 as Val,
        Size::Word => v as i32 as Val,
        Size::Double => v,
    }
}
