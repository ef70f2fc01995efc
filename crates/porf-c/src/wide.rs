//! Values of 16 bytes (an `_Atomic` struct of 16 bytes, the textbook ABA fix's
//! `{ pointer, tag }` pair; GCC's `__int128` and `unsigned __int128`) carried as one
//! 64-bit [`Val`]: an *encoding* of the 128-bit pattern (the bytes, little-endian, read
//! as an `i128`).
//!
//! The engine's values are 64 bits (`porf_graph::Val`), and everything it does with a
//! 16-byte value is take it from a write to a read and compare two values for equality
//! (a compare-exchange's success, an RMW writing back what it read); porf-c refuses the
//! engine's arithmetic RMWs on 16-byte objects. So the encoding only has to be a
//! bijection between the patterns met so far and their codes, with 0 for 0 (the
//! engine's initial value 0 is the all-zero 16 bytes):
//! - a pattern `x` with `-2^62 <= x < 2^63` is its own code (`x as i64`): small
//!   integers, and structs whose high 8 bytes are zero, read as themselves;
//! - any other pattern gets an *interned* code in `[-2^63, -2^62)`, from a process-wide
//!   table: the same pattern always the same code, different patterns different codes.
//!
//! The two ranges are disjoint, so codes are equal exactly when the patterns are, and
//! every equality the engine decides on codes is the equality of the 16 bytes: exactly
//! C11's compare-exchange on such an object (7.17.7.4 compares object representations;
//! porf's atomic structs have no padding). The interpreter computes on patterns only
//! ([`decode`], [`encode`]): 128-bit arithmetic decodes its operands and encodes its
//! result, a struct's members are packed and unpacked ([`pack`], [`half`]).
//!
//! Interned codes depend on the order patterns were first met (with `--threads N`, on
//! the workers' timing), never the executions, the counts or the errors: witnesses
//! show the pattern ([`show`]), not the code.

use porf_graph::Val;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The smallest pattern that is its own code.
const SELF_LO: i128 = -(1 << 62);

#[derive(Default)]
struct Table {
    codes: HashMap<i128, Val>,
    /// `pats[i]` has code `i64::MIN + i`.
    pats: Vec<i128>,
}

fn table() -> &'static Mutex<Table> {
    static T: OnceLock<Mutex<Table>> = OnceLock::new();
    T.get_or_init(Default::default)
}

/// The code of the 128-bit pattern `x`.
pub fn encode(x: i128) -> Val {
    if (SELF_LO..=i64::MAX as i128).contains(&x) {
        return x as Val;
    }
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&c) = t.codes.get(&x) {
        return c;
    }
    let c = i64::MIN + t.pats.len() as Val;
    assert!(
        (c as i128) < SELF_LO,
        "more than 2^62 distinct 16-byte values"
    );
    t.pats.push(x);
    t.codes.insert(x, c);
    c
}

/// The 128-bit pattern of code `c`. A code in the interned range that [`encode`] never
/// returned (only arithmetic on codes could make one, and porf-c does none) is a bug.
pub fn decode(c: Val) -> i128 {
    if c as i128 >= SELF_LO {
        return c as i128;
    }
    let t = table().lock().unwrap_or_else(|e| e.into_inner());
    *t.pats
        .get((c - i64::MIN) as usize)
        .unwrap_or_else(|| panic!("{c} is not the code of a 16-byte value"))
}

/// The code of the pattern whose low and high 8 bytes are `lo` and `hi`.
pub fn pack(lo: Val, hi: Val) -> Val {
    encode(((lo as u64 as u128) | ((hi as u64 as u128) << 64)) as i128)
}

/// Half `k` (0: bytes 0..8, 1: bytes 8..16) of the pattern of code `c`.
pub fn half(c: Val, k: Val) -> Val {
    ((decode(c) as u128) >> (64 * (k & 1))) as u64 as Val
}

/// How a witness shows the pattern of code `c`: one hexadecimal 128-bit integer.
pub fn show(c: Val) -> String {
    let v = decode(c) as u128;
    if v >> 64 == 0 {
        format!("{:#x}", v as u64)
    } else {
        format!("0x{:x}_{:016x}", (v >> 64) as u64, v as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_a_bijection_small_patterns_their_own() {
        assert_eq!(encode(0), 0);
        assert_eq!(decode(0), 0);
        assert_eq!(encode(-1), -1);
        assert_eq!(encode(i64::MAX as i128), i64::MAX);
        let big = 1i128 << 64;
        let a = encode(big);
        assert!((a as i128) < SELF_LO);
        assert_eq!(encode(big), a);
        assert_eq!(decode(a), big);
        let m = encode(i64::MIN as i128);
        assert_ne!(m, i64::MIN, "below the window: interned");
        assert_eq!(decode(m), i64::MIN as i128);
        let p = pack(1, 2);
        assert_ne!(p, pack(2, 1));
        assert_eq!((half(p, 0), half(p, 1)), (1, 2));
        assert_eq!(pack(5, 0), 5);
        let c = pack(-1, i64::MIN);
        assert_eq!((half(c, 0), half(c, 1)), (-1, i64::MIN));
        assert_eq!(show(p), "0x2_0000000000000001");
        assert_eq!(show(5), "0x5");
    }
}
