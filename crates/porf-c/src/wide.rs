//! Values of 16 bytes (an `_Atomic` struct of 16 bytes, the textbook ABA fix's
//! `{ pointer, tag }` pair) carried as one 64-bit [`Val`]: an *interned id*.
//!
//! The engine's values are 64 bits (`porf_graph::Val`), and everything it does with a
//! value is take it from a write to a read, and compare two values for equality (a
//! compare-exchange's success, an RMW writing back what it read). So a 16-byte value
//! travels as the id of the 128-bit integer its bytes make (little-endian), from a
//! process-wide table: the same 128-bit value always gets the same id and different
//! values get different ids (the table is a bijection between the values interned so
//! far and `1..=n`; the all-zero value is id 0, so zero-initialised memory — the
//! engine's initial value 0 — holds the all-zero 16 bytes). Hence every equality the
//! engine decides on ids is the equality of the 16-byte values, which is exactly C11's
//! compare-exchange on such an object (7.17.7.4: a comparison of the object
//! representations, as `memcmp`; porf's atomic structs have no padding bytes, so the
//! representation is the members' bytes). No arithmetic is ever done on an id: the
//! interpreter turns ids into their 16 bytes ([`value`]) where the program looks at
//! the members, and back ([`intern`]) where it builds a value.
//!
//! The numbers of the ids depend on the order values were first interned (with
//! `--threads N`, on the workers' timing), never the executions, the counts or the
//! errors: witnesses show the 16 bytes ([`show`]), not the id.

use porf_graph::Val;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

#[derive(Default)]
struct Table {
    ids: HashMap<u128, Val>,
    /// `vals[i]` has id `i + 1`.
    vals: Vec<u128>,
}

fn table() -> &'static Mutex<Table> {
    static T: OnceLock<Mutex<Table>> = OnceLock::new();
    T.get_or_init(Default::default)
}

/// The id of the 16-byte value `v` (0 for 0).
pub fn intern(v: u128) -> Val {
    if v == 0 {
        return 0;
    }
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&id) = t.ids.get(&v) {
        return id;
    }
    t.vals.push(v);
    let id = t.vals.len() as Val;
    t.ids.insert(v, id);
    id
}

/// The 16-byte value of id `id`. An id no [`intern`] returned (only a program's own
/// arithmetic could make one, and the front end emits none on ids) is a bug.
pub fn value(id: Val) -> u128 {
    if id == 0 {
        return 0;
    }
    let t = table().lock().unwrap_or_else(|e| e.into_inner());
    *usize::try_from(id - 1)
        .ok()
        .and_then(|i| t.vals.get(i))
        .unwrap_or_else(|| panic!("{id} is not an interned 16-byte value"))
}

/// The id of the value whose low and high 8 bytes are `lo` and `hi`.
pub fn pack(lo: Val, hi: Val) -> Val {
    intern((lo as u64 as u128) | ((hi as u64 as u128) << 64))
}

/// Half `k` (0: bytes 0..8, 1: bytes 8..16) of the value of id `id`.
pub fn half(id: Val, k: Val) -> Val {
    (value(id) >> (64 * (k & 1))) as u64 as Val
}

/// How a witness shows the 16 bytes of id `id`: as one hexadecimal 128-bit
/// little-endian integer (bytes 8..16 first).
pub fn show(id: Val) -> String {
    let v = value(id);
    format!("0x{:016x}_{:016x}", (v >> 64) as u64, v as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_a_bijection_with_zero_fixed() {
        assert_eq!(intern(0), 0);
        assert_eq!(value(0), 0);
        let a = pack(1, 2);
        let b = pack(2, 1);
        assert_ne!(a, b);
        assert_ne!(a, 0);
        assert_eq!(pack(1, 2), a);
        assert_eq!((half(a, 0), half(a, 1)), (1, 2));
        let c = pack(-1, i64::MIN);
        assert_eq!((half(c, 0), half(c, 1)), (-1, i64::MIN));
        assert_eq!(value(c), (u128::MAX >> 1) + 1 + u64::MAX as u128);
        assert_eq!(show(a), "0x0000000000000002_0000000000000001");
    }
}
