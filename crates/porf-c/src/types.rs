//! C types with x86-64 LP64 layout (or ILP32's 4-byte `long`, [`DataModel`]): `_Bool` and `char` 1 byte, `short` 2, `int` 4,
//! `long`, `long long` and pointers 8; `char` is signed; `float` is IEEE binary32 (4
//! bytes) and `double` binary64 (8 bytes); `long double` is not supported. Structs lay fields out in
//! order at their alignment and round the size up to the largest alignment; unions
//! overlay their members. Enums are `int`.
//!
//! Only the `_Atomic` qualifier is kept (`const`, `volatile` and `restrict` change
//! nothing porf models). Records (structs and unions) live in a [`Types`] table and are
//! compared by identity.

use crate::ir::Scalar;
use std::fmt::Write;
use std::rc::Rc;

/// Index of a struct or union in [`Types`].
pub type RecordId = usize;

/// Largest object porf lays out (bytes).
pub const MAX_OBJECT: u64 = 1 << 40;

/// A (possibly `_Atomic`) C type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CType {
    pub kind: Kind,
    pub atomic: bool,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    Void,
    Int(IntTy),
    /// `float` or `double`.
    Float(FloatTy),
    Ptr(Rc<CType>),
    /// Element type and length (`None`: `[]`, incomplete).
    Array(Rc<CType>, Option<u64>),
    Func(Rc<FuncSig>),
    Record(RecordId),
}

/// The data model a compilation lays `long` out with (`--data-model`).
///
/// `Ilp32` makes `long` and `unsigned long` 4 bytes (their arithmetic wraps at 32
/// bits and `sizeof(long) == 4`), as in SV-COMP's `data_model: ILP32` tasks. Pointers
/// keep porf's 8-byte representation in both models (an address names a thread's
/// heap block in its upper bits, see `memory`), so under `Ilp32` `sizeof(void *)` is
/// still 8 and a pointer converted to a 4-byte integer keeps only its low 32 bits.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum DataModel {
    #[default]
    Lp64,
    Ilp32,
}

thread_local! {
    /// The data model of the compilation running on this thread: set by
    /// [`with_data_model`] around one compilation (lowering fixes every size, so the
    /// interpreter never asks).
    static DATA_MODEL: std::cell::Cell<DataModel> = const { std::cell::Cell::new(DataModel::Lp64) };
}

/// Runs `f` with `m` as this thread's data model, restoring the previous one after.
pub fn with_data_model<T>(m: DataModel, f: impl FnOnce() -> T) -> T {
    let old = DATA_MODEL.with(|d| d.replace(m));
    let r = f();
    DATA_MODEL.with(|d| d.set(old));
    r
}

/// The data model of the compilation running on this thread.
pub fn data_model() -> DataModel {
    DATA_MODEL.with(|d| d.get())
}

/// The size of `long` in the data model in force.
fn long_size() -> u8 {
    match DATA_MODEL.with(|d| d.get()) {
        DataModel::Lp64 => 8,
        DataModel::Ilp32 => 4,
    }
}

/// The integer types, `_Bool` included.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum IntTy {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    /// GCC's `__int128` (`crate::int128`): values travel as codes (`crate::wide`).
    Int128,
    /// GCC's `unsigned __int128`.
    UInt128,
}

impl IntTy {
    pub fn scalar(self) -> Scalar {
        use IntTy::*;
        let (size, signed) = match self {
            Bool => return Scalar::BOOL,
            Char | SChar => (1, true),
            UChar => (1, false),
            Short => (2, true),
            UShort => (2, false),
            Int => (4, true),
            UInt => (4, false),
            Long => (long_size(), true),
            ULong => (long_size(), false),
            LongLong => (8, true),
            ULongLong => (8, false),
            Int128 => (16, true),
            UInt128 => (16, false),
        };
        Scalar::int(size, signed)
    }

    /// Integer conversion rank (C11 6.3.1.1).
    pub fn rank(self) -> u8 {
        use IntTy::*;
        match self {
            Bool => 1,
            Char | SChar | UChar => 2,
            Short | UShort => 3,
            Int | UInt => 4,
            Long | ULong => 5,
            LongLong | ULongLong => 6,
            Int128 | UInt128 => 7,
        }
    }

    pub fn signed(self) -> bool {
        self.scalar().signed
    }

    /// The unsigned type of the same rank.
    pub fn to_unsigned(self) -> IntTy {
        use IntTy::*;
        match self {
            Char | SChar => UChar,
            Short => UShort,
            Int => UInt,
            Long => ULong,
            LongLong => ULongLong,
            Int128 => UInt128,
            t => t,
        }
    }

    pub fn name(self) -> &'static str {
        use IntTy::*;
        match self {
            Bool => "_Bool",
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
            Int128 => "__int128",
            UInt128 => "unsigned __int128",
        }
    }
}

/// The floating types porf supports.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum FloatTy {
    Float,
    Double,
}

impl FloatTy {
    pub fn scalar(self) -> Scalar {
        match self {
            FloatTy::Float => Scalar::F32,
            FloatTy::Double => Scalar::F64,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FloatTy::Float => "float",
            FloatTy::Double => "double",
        }
    }
}

/// A function type.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FuncSig {
    pub ret: CType,
    pub params: Vec<CType>,
    pub variadic: bool,
    /// False for `f()` declarations, which say nothing about parameters.
    pub prototyped: bool,
}

impl CType {
    pub fn new(kind: Kind) -> CType {
        CType {
            kind,
            atomic: false,
        }
    }
    pub fn int(t: IntTy) -> CType {
        CType::new(Kind::Int(t))
    }
    pub fn void() -> CType {
        CType::new(Kind::Void)
    }
    pub fn ptr(to: CType) -> CType {
        CType::new(Kind::Ptr(Rc::new(to)))
    }
    /// `void *`
    pub fn void_ptr() -> CType {
        CType::ptr(CType::void())
    }
    /// The type without `_Atomic` (what an lvalue conversion yields).
    pub fn unqual(&self) -> CType {
        CType::new(self.kind.clone())
    }
    pub fn is_void(&self) -> bool {
        matches!(self.kind, Kind::Void)
    }
    pub fn int_ty(&self) -> Option<IntTy> {
        match self.kind {
            Kind::Int(t) => Some(t),
            _ => None,
        }
    }
    pub fn is_integer(&self) -> bool {
        self.int_ty().is_some()
    }
    pub fn float_ty(&self) -> Option<FloatTy> {
        match self.kind {
            Kind::Float(t) => Some(t),
            _ => None,
        }
    }
    pub fn is_float(&self) -> bool {
        self.float_ty().is_some()
    }
    /// Integer or floating (C's arithmetic types, without complex ones).
    pub fn is_arithmetic(&self) -> bool {
        self.is_integer() || self.is_float()
    }
    pub fn pointee(&self) -> Option<&CType> {
        match &self.kind {
            Kind::Ptr(t) => Some(t),
            _ => None,
        }
    }
    pub fn is_ptr(&self) -> bool {
        self.pointee().is_some()
    }
    /// Integer, floating or pointer.
    pub fn is_scalar(&self) -> bool {
        self.scalar().is_some()
    }
    pub fn is_record(&self) -> bool {
        matches!(self.kind, Kind::Record(_))
    }
    pub fn is_array(&self) -> bool {
        matches!(self.kind, Kind::Array(..))
    }
    /// Machine representation of a scalar type.
    pub fn scalar(&self) -> Option<Scalar> {
        match &self.kind {
            Kind::Int(t) => Some(t.scalar()),
            Kind::Float(t) => Some(t.scalar()),
            Kind::Ptr(_) => Some(Scalar::PTR),
            _ => None,
        }
    }
}

/// A struct or union.
#[derive(Clone, Debug)]
pub struct Record {
    pub union: bool,
    pub tag: Option<String>,
    pub def: Option<RecordDef>,
}

#[derive(Clone, Debug)]
pub struct RecordDef {
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    /// The named bit-fields. Each run of adjacent bit-fields (one C11 memory location,
    /// 3.14) is also a field of `fields`: an unnamed-to-C unsigned scalar named
    /// `a|b|c` after its bit-fields, their *storage unit*, which every access to one
    /// of them reads and writes whole.
    pub bits: Vec<BitField>,
}

/// A run of adjacent bit-fields being laid out: its bits `lo..hi`, its named
/// bit-fields (names, indices into `RecordDef::bits`) and where its storage unit goes
/// among the fields.
struct Run {
    lo: u64,
    hi: u64,
    names: Vec<String>,
    idx: Vec<usize>,
    at: usize,
}

/// A named bit-field: `width` bits at bit `shift` of the storage unit at byte
/// `unit_offset` of the record, declared with type `ty`.
#[derive(Clone, Debug)]
pub struct BitField {
    pub name: String,
    pub ty: CType,
    pub unit_offset: u64,
    pub unit: Scalar,
    pub shift: u32,
    pub width: u32,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// `None` for an anonymous struct or union member.
    pub name: Option<String>,
    pub ty: CType,
    pub offset: u64,
}

/// A scalar piece of an object: where it is, what it is, and a C-like path to it.
#[derive(Clone, PartialEq, Debug)]
pub struct Leaf {
    pub offset: u64,
    pub scalar: Scalar,
    pub atomic: bool,
    /// Whether the leaf is a pointer (its values print as `&name` in witnesses).
    pub pointer: bool,
    /// Appended to the object's name, e.g. `[1].next`.
    pub path: String,
}

/// The record table.
#[derive(Default, Debug)]
pub struct Types {
    records: Vec<Record>,
}

impl Types {
    pub fn new_record(&mut self, union: bool, tag: Option<String>) -> RecordId {
        self.records.push(Record {
            union,
            tag,
            def: None,
        });
        self.records.len() - 1
    }

    pub fn record(&self, id: RecordId) -> &Record {
        &self.records[id]
    }

    /// Lays out and completes record `id`. Every field type must be complete.
    pub fn define_record(
        &mut self,
        id: RecordId,
        fields: Vec<(Option<String>, CType)>,
    ) -> Result<(), String> {
        let union = self.records[id].union;
        let (mut size, mut align) = (0u64, 1u64);
        let mut out = Vec::with_capacity(fields.len());
        for (name, ty) in fields {
            let (fs, fa) = match (self.size_of(&ty), self.align_of(&ty)) {
                (Some(s), Some(a)) => (s, a),
                _ => {
                    let n = name.as_deref().unwrap_or("<anonymous>");
                    return Err(format!(
                        "field `{n}` has incomplete type `{}`",
                        self.show(&ty)
                    ));
                }
            };
            let offset = if union { 0 } else { size.next_multiple_of(fa) };
            size = if union { size.max(fs) } else { offset + fs };
            align = align.max(fa);
            if size > MAX_OBJECT {
                return Err("struct is too large".into());
            }
            out.push(Field { name, ty, offset });
        }
        self.records[id].def = Some(RecordDef {
            fields: out,
            size: size.next_multiple_of(align),
            align,
            bits: Vec::new(),
        });
        Ok(())
    }

    /// Lays out struct `id` whose fields may be bit-fields (`Some(width)`), as GCC
    /// does on x86-64 (System V ABI): a bit-field follows the previous one unless it
    /// would cross a boundary of its declared type's size, then it starts at the
    /// next; a zero-width one ends the run and moves to its type's alignment; named
    /// bit-fields give the struct their type's alignment. Each run of adjacent
    /// bit-fields gets as its storage unit the smallest naturally aligned 1, 2, 4 or
    /// 8 bytes holding all its bits (`RecordDef::bits`). `Err((message,
    /// unsupported))`: a unit that would be larger than 8 bytes or overlap another
    /// member, a bit-field in a union, and bit-fields of non-integer type or too
    /// wide are refused.
    pub fn define_record_bits(
        &mut self,
        id: RecordId,
        fields: Vec<(Option<String>, CType, Option<u32>)>,
    ) -> Result<(), (String, bool)> {
        if fields.iter().all(|f| f.2.is_none()) {
            let plain = fields.into_iter().map(|(n, t, _)| (n, t)).collect();
            return self.define_record(id, plain).map_err(|m| (m, false));
        }
        if self.records[id].union {
            return Err(("bit-fields in unions are not supported".into(), true));
        }
        let (mut bit, mut align) = (0u64, 1u64);
        let mut out: Vec<Field> = Vec::new();
        let mut bits: Vec<BitField> = Vec::new();
        // Members that are not bit-fields, as byte ranges; the current run of
        // bit-fields: (first bit, end bit, names, indices into `bits`).
        let mut plain: Vec<(u64, u64)> = Vec::new();
        let mut runs: Vec<Run> = Vec::new();
        let mut open = false;
        for (name, ty, width) in fields {
            let n = name.as_deref().unwrap_or("<anonymous>").to_string();
            let (Some(fs), Some(fa)) = (self.size_of(&ty), self.align_of(&ty)) else {
                return Err((
                    format!("field `{n}` has incomplete type `{}`", self.show(&ty)),
                    false,
                ));
            };
            let Some(w) = width else {
                let offset = bit.div_ceil(8).next_multiple_of(fa);
                plain.push((offset, offset + fs));
                bit = (offset + fs) * 8;
                align = align.max(fa);
                out.push(Field { name, ty, offset });
                open = false;
                if offset + fs > MAX_OBJECT {
                    return Err(("struct is too large".into(), false));
                }
                continue;
            };
            if !ty.is_integer() || ty.atomic {
                return Err((
                    format!(
                        "bit-field `{n}` has type `{}`, not a (non-atomic) integer type",
                        self.show(&ty)
                    ),
                    false,
                ));
            }
            let tb = fs * 8;
            if w as u64 > tb {
                return Err((
                    format!("width of bit-field `{n}` exceeds its type's {tb} bits"),
                    false,
                ));
            }
            if w == 0 {
                if name.is_some() {
                    return Err((format!("named bit-field `{n}` has zero width"), false));
                }
                bit = bit.next_multiple_of(fa * 8);
                open = false;
                continue;
            }
            if bit % tb + w as u64 > tb {
                bit = bit.next_multiple_of(tb);
            }
            if !open {
                runs.push(Run {
                    lo: bit,
                    hi: bit,
                    names: Vec::new(),
                    idx: Vec::new(),
                    at: out.len(),
                });
                open = true;
            }
            let run = runs.last_mut().expect("open run");
            run.hi = bit + w as u64;
            if let Some(nm) = &name {
                align = align.max(fa);
                run.names.push(nm.clone());
                run.idx.push(bits.len());
                bits.push(BitField {
                    name: nm.clone(),
                    ty,
                    unit_offset: 0,
                    unit: Scalar::INT,
                    shift: bit as u32,
                    width: w,
                });
            }
            bit += w as u64;
        }
        let size = bit.div_ceil(8).next_multiple_of(align);
        // Storage units, inserted before the member that followed their run.
        let mut units: Vec<(u64, u64)> = Vec::new();
        for Run {
            lo,
            hi,
            names,
            idx,
            at,
        } in runs.into_iter().rev()
        {
            if names.is_empty() {
                continue; // padding only
            }
            let (lb, hb) = (lo / 8, hi.div_ceil(8));
            let Some(us) = [1u64, 2, 4, 8]
                .into_iter()
                .find(|&s| lb / s == (hb - 1) / s)
            else {
                return Err((
                    format!(
                        "the bit-fields `{}` span more than 8 aligned bytes",
                        names.join("`, `")
                    ),
                    true,
                ));
            };
            let uo = lb / us * us;
            let overlaps = |a: u64, b: u64| a < uo + us && uo < b;
            if uo + us > size
                || plain.iter().any(|&(a, b)| overlaps(a, b))
                || units.iter().any(|&(a, b)| overlaps(a, b))
            {
                return Err((
                    format!(
                        "the storage unit of the bit-fields `{}` would overlap another member",
                        names.join("`, `")
                    ),
                    true,
                ));
            }
            units.push((uo, uo + us));
            let unit = Scalar {
                size: us as u8,
                signed: false,
                float: false,
            };
            for i in idx {
                bits[i].unit_offset = uo;
                bits[i].unit = unit;
                bits[i].shift -= (uo * 8) as u32;
            }
            let ut = CType::int(match us {
                1 => IntTy::UChar,
                2 => IntTy::UShort,
                4 => IntTy::UInt,
                _ => IntTy::ULong,
            });
            out.insert(
                at,
                Field {
                    name: Some(names.join("|")),
                    ty: ut,
                    offset: uo,
                },
            );
        }
        if size > MAX_OBJECT {
            return Err(("struct is too large".into(), false));
        }
        self.records[id].def = Some(RecordDef {
            fields: out,
            size,
            align,
            bits,
        });
        Ok(())
    }

    /// The bit-field `name` of record `id` (not inside anonymous members).
    pub fn bitfield(&self, id: RecordId, name: &str) -> Option<&BitField> {
        self.records[id]
            .def
            .as_ref()?
            .bits
            .iter()
            .find(|b| b.name == name)
    }

    /// Size in bytes; `None` for incomplete types, `void` and functions.
    pub fn size_of(&self, t: &CType) -> Option<u64> {
        match &t.kind {
            Kind::Void | Kind::Func(_) => None,
            Kind::Int(i) => Some(i.scalar().size as u64),
            Kind::Float(f) => Some(f.scalar().size as u64),
            Kind::Ptr(_) => Some(8),
            Kind::Array(e, n) => n.and_then(|n| n.checked_mul(self.size_of(e)?)),
            Kind::Record(r) => self.records[*r].def.as_ref().map(|d| d.size),
        }
    }

    pub fn align_of(&self, t: &CType) -> Option<u64> {
        if t.atomic && t.is_record() {
            // GCC aligns an atomic object of 1, 2, 4, 8 or 16 bytes to its size.
            if let Ok((s, _)) = self.atomic_record(t) {
                return Some(s.size as u64);
            }
        }
        match &t.kind {
            Kind::Void | Kind::Func(_) => None,
            Kind::Int(_) | Kind::Float(_) | Kind::Ptr(_) => self.size_of(t),
            Kind::Array(e, _) => self.align_of(e),
            Kind::Record(r) => self.records[*r].def.as_ref().map(|d| d.align),
        }
    }

    pub fn is_complete(&self, t: &CType) -> bool {
        self.size_of(t).is_some()
    }

    /// Finds member `name` of record `id`, looking into anonymous members:
    /// `(offset, type)`.
    pub fn field(&self, id: RecordId, name: &str) -> Option<(u64, CType)> {
        let def = self.records[id].def.as_ref()?;
        for f in &def.fields {
            match (&f.name, &f.ty.kind) {
                (Some(n), _) if n == name => return Some((f.offset, f.ty.clone())),
                (None, Kind::Record(inner)) => {
                    if let Some((o, t)) = self.field(*inner, name) {
                        return Some((f.offset + o, t));
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// How porf holds an `_Atomic` struct object of type `t`: one cell of the returned
    /// scalar (its size the struct's; 16 bytes: codes of `crate::wide`), whose value is
    /// the struct's bytes, little-endian, made of the struct's own leaves (returned
    /// too, offsets from the struct's start). Refused (the reason): unions, incomplete
    /// structs, sizes other than 1, 2, 4, 8 and 16 bytes, and structs with padding
    /// bytes (C11 compares object representations, padding included, and porf does not
    /// model padding contents) or a member straddling an 8-byte boundary.
    pub fn atomic_record(&self, t: &CType) -> Result<(Scalar, Vec<Leaf>), String> {
        let Kind::Record(r) = &t.kind else {
            return Err("not a struct".into());
        };
        let rec = &self.records[*r];
        let Some(def) = &rec.def else {
            return Err("the struct is incomplete".into());
        };
        if rec.union {
            return Err("unions cannot be atomic objects in porf".into());
        }
        if ![1, 2, 4, 8, 16].contains(&def.size) {
            return Err(format!(
                "its size is {} bytes (porf's atomic objects have 1, 2, 4, 8 or 16)",
                def.size
            ));
        }
        let mut leaves = Vec::new();
        self.leaves(&t.unqual(), 0, "", &mut leaves);
        let mut end = 0;
        for l in &leaves {
            let n = l.scalar.size as u64;
            if l.offset != end {
                return Err("it has padding bytes".into());
            }
            if l.offset / 8 != (l.offset + n - 1) / 8 {
                return Err("a member straddles an 8-byte boundary".into());
            }
            end += n;
        }
        if end != def.size {
            return Err("it has padding bytes".into());
        }
        let scalar = if def.size == 16 {
            Scalar {
                size: 16,
                signed: false,
                float: false,
            }
        } else {
            Scalar::int(def.size as u8, false)
        };
        Ok((scalar, leaves))
    }

    /// The scalar leaves of an object of type `t` at offset `base`, in address order.
    /// A union contributes its first member's leaves; an `_Atomic` struct is one leaf
    /// ([`Types::atomic_record`]).
    pub fn leaves(&self, t: &CType, base: u64, path: &str, out: &mut Vec<Leaf>) {
        if t.atomic && t.is_record() {
            if let Ok((scalar, _)) = self.atomic_record(t) {
                out.push(Leaf {
                    offset: base,
                    scalar,
                    atomic: true,
                    pointer: false,
                    path: path.to_string(),
                });
                return;
            }
        }
        match &t.kind {
            Kind::Int(_) | Kind::Float(_) | Kind::Ptr(_) => out.push(Leaf {
                offset: base,
                scalar: t.scalar().expect("scalar"),
                atomic: t.atomic,
                pointer: matches!(t.kind, Kind::Ptr(_)),
                path: path.to_string(),
            }),
            Kind::Array(e, Some(n)) => {
                let es = self.size_of(e).unwrap_or(0);
                for i in 0..*n {
                    self.leaves(e, base + i * es, &format!("{path}[{i}]"), out);
                }
            }
            Kind::Record(r) => {
                let rec = &self.records[*r];
                let Some(def) = &rec.def else { return };
                let fields = if rec.union {
                    &def.fields[..def.fields.len().min(1)]
                } else {
                    &def.fields[..]
                };
                for f in fields {
                    let p = match &f.name {
                        Some(n) => format!("{path}.{n}"),
                        None => path.to_string(),
                    };
                    self.leaves(&f.ty, base + f.offset, &p, out);
                }
            }
            Kind::Void | Kind::Func(_) | Kind::Array(_, None) => {}
        }
    }

    /// Number of scalar leaves (saturating), to bound work before enumerating them.
    pub fn leaf_count(&self, t: &CType) -> u64 {
        if t.atomic && t.is_record() && self.atomic_record(t).is_ok() {
            return 1;
        }
        match &t.kind {
            Kind::Int(_) | Kind::Float(_) | Kind::Ptr(_) => 1,
            Kind::Array(e, Some(n)) => n.saturating_mul(self.leaf_count(e)),
            Kind::Record(r) => {
                let rec = &self.records[*r];
                let Some(def) = &rec.def else { return 0 };
                let n = if rec.union {
                    def.fields.len().min(1)
                } else {
                    def.fields.len()
                };
                def.fields[..n]
                    .iter()
                    .fold(0u64, |a, f| a.saturating_add(self.leaf_count(&f.ty)))
            }
            _ => 0,
        }
    }

    /// Whether every member of union `t` (recursively) has the leaf layout of its
    /// first member, so that copying the first member's leaves copies the union.
    pub fn uniform_layout(&self, t: &CType) -> bool {
        match &t.kind {
            Kind::Array(e, _) => self.uniform_layout(e),
            Kind::Record(r) => {
                let rec = &self.records[*r];
                let Some(def) = &rec.def else { return true };
                if !def.fields.iter().all(|f| self.uniform_layout(&f.ty)) {
                    return false;
                }
                if !rec.union || def.fields.len() < 2 {
                    return true;
                }
                let shape = |f: &Field| {
                    let mut v = Vec::new();
                    self.leaves(&f.ty, 0, "", &mut v);
                    v.into_iter()
                        .map(|l| (l.offset, l.scalar))
                        .collect::<Vec<_>>()
                };
                let first = shape(&def.fields[0]);
                def.fields[1..].iter().all(|f| shape(f) == first)
            }
            _ => true,
        }
    }

    /// C's type compatibility (6.2.7), used for redeclarations: integer types by name,
    /// pointers by pointee, arrays by element (and length when both known), functions
    /// by return and (when both prototyped) parameter types, records by identity.
    pub fn compatible(&self, a: &CType, b: &CType) -> bool {
        if a.atomic != b.atomic {
            return false;
        }
        match (&a.kind, &b.kind) {
            (Kind::Void, Kind::Void) => true,
            (Kind::Int(x), Kind::Int(y)) => x == y,
            (Kind::Float(x), Kind::Float(y)) => x == y,
            (Kind::Ptr(x), Kind::Ptr(y)) => self.compatible(x, y),
            (Kind::Array(x, n), Kind::Array(y, m)) => {
                self.compatible(x, y) && (n.is_none() || m.is_none() || n == m)
            }
            (Kind::Func(f), Kind::Func(g)) => {
                self.compatible(&f.ret, &g.ret)
                    && (!f.prototyped
                        || !g.prototyped
                        || (f.variadic == g.variadic
                            && f.params.len() == g.params.len()
                            && f.params
                                .iter()
                                .zip(&g.params)
                                .all(|(x, y)| self.compatible(x, y))))
            }
            (Kind::Record(x), Kind::Record(y)) => x == y,
            _ => false,
        }
    }

    /// A readable spelling of `t`, e.g. `_Atomic int`, `struct node *`, `int [4]`.
    pub fn show(&self, t: &CType) -> String {
        let mut s = String::new();
        if t.atomic {
            s.push_str("_Atomic ");
        }
        match &t.kind {
            Kind::Void => s.push_str("void"),
            Kind::Int(i) => s.push_str(i.name()),
            Kind::Float(f) => s.push_str(f.name()),
            Kind::Ptr(p) => {
                let inner = self.show(p);
                let _ = write!(s, "{inner}{}*", if inner.ends_with('*') { "" } else { " " });
            }
            Kind::Array(e, n) => {
                let _ = match n {
                    Some(n) => write!(s, "{} [{n}]", self.show(e)),
                    None => write!(s, "{} []", self.show(e)),
                };
            }
            Kind::Func(f) => {
                let ps: Vec<String> = f.params.iter().map(|p| self.show(p)).collect();
                let _ = write!(s, "{} ({})", self.show(&f.ret), ps.join(", "));
            }
            Kind::Record(r) => {
                let rec = &self.records[*r];
                let kw = if rec.union { "union" } else { "struct" };
                let _ = write!(s, "{kw} {}", rec.tag.as_deref().unwrap_or("<anonymous>"));
            }
        }
        s
    }
}

/// The usual arithmetic conversions (C11 6.3.1.8) when `a` or `b` is floating:
/// `double` if either is `double`, else `float`. `None` if neither is floating.
pub fn common_float(a: &CType, b: &CType) -> Option<FloatTy> {
    match (a.float_ty(), b.float_ty()) {
        (None, None) => None,
        (Some(FloatTy::Double), _) | (_, Some(FloatTy::Double)) => Some(FloatTy::Double),
        _ => Some(FloatTy::Float),
    }
}

/// Integer promotion (C11 6.3.1.1): types of rank below `int` become `int`.
pub fn promote(t: IntTy) -> IntTy {
    if t.rank() < IntTy::Int.rank() {
        IntTy::Int
    } else {
        t
    }
}

/// The usual arithmetic conversions (C11 6.3.1.8) for integer operands.
pub fn common(a: IntTy, b: IntTy) -> IntTy {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.signed() == b.signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (u, s) = if a.signed() { (b, a) } else { (a, b) };
    if u.rank() >= s.rank() {
        u
    } else if s.scalar().size > u.scalar().size {
        s
    } else {
        s.to_unsigned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use IntTy::*;

    #[test]
    fn arithmetic_conversions() {
        assert_eq!(promote(Char), Int);
        assert_eq!(promote(UShort), Int);
        assert_eq!(promote(Bool), Int);
        assert_eq!(common(Int, UInt), UInt);
        assert_eq!(common(Long, UInt), Long);
        assert_eq!(common(LongLong, ULong), ULongLong);
        assert_eq!(common(ULong, Int), ULong);
        assert_eq!(common(Char, Short), Int);
    }

    #[test]
    fn struct_layout() {
        let mut t = Types::default();
        let r = t.new_record(false, Some("s".into()));
        let fields = vec![
            (Some("c".into()), CType::int(Char)),
            (Some("l".into()), CType::int(Long)),
            (Some("i".into()), CType::int(Int)),
        ];
        t.define_record(r, fields).unwrap();
        let s = CType::new(Kind::Record(r));
        assert_eq!(t.size_of(&s), Some(24));
        assert_eq!(t.align_of(&s), Some(8));
        assert_eq!(t.field(r, "i").unwrap().0, 16);
        let arr = CType::new(Kind::Array(Rc::new(s.clone()), Some(2)));
        let mut leaves = Vec::new();
        t.leaves(&arr, 0, "a", &mut leaves);
        let names: Vec<_> = leaves.iter().map(|l| (l.path.as_str(), l.offset)).collect();
        assert_eq!(names[3], ("a[1].c", 24));
        assert_eq!(names[5], ("a[1].i", 40));
        assert_eq!(t.leaf_count(&arr), 6);
    }

    #[test]
    fn unions_overlay() {
        let mut t = Types::default();
        let u = t.new_record(true, None);
        t.define_record(
            u,
            vec![
                (Some("a".into()), CType::int(Int)),
                (Some("b".into()), CType::int(Long)),
            ],
        )
        .unwrap();
        let ut = CType::new(Kind::Record(u));
        assert_eq!(t.size_of(&ut), Some(8));
        assert!(!t.uniform_layout(&ut));
        let mut leaves = Vec::new();
        t.leaves(&ut, 0, "u", &mut leaves);
        assert_eq!(leaves.len(), 1);
        assert_eq!(leaves[0].path, "u.a");
    }

    #[test]
    fn show_and_compat() {
        let t = Types::default();
        let p = CType::ptr(CType::int(Int));
        assert_eq!(t.show(&p), "int *");
        assert_eq!(t.show(&CType::ptr(p.clone())), "int **");
        let mut a = CType::int(Int);
        a.atomic = true;
        assert_eq!(t.show(&a), "_Atomic int");
        assert!(!t.compatible(&a, &CType::int(Int)));
        assert!(!t.compatible(&CType::int(Long), &CType::int(LongLong)));
        let inc = CType::new(Kind::Array(Rc::new(CType::int(Int)), None));
        let three = CType::new(Kind::Array(Rc::new(CType::int(Int)), Some(3)));
        assert!(t.compatible(&inc, &three));
    }
}
