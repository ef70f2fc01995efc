//! A fast, deterministic hasher for small integer keys (locations, block bases, event
//! ids), for the graph's per-location maps, which are read on every event.
//!
//! Invariants: hashing is a pure function of the key's bytes (no per-process seed), so
//! iteration order of a map is a function of its insertion history; the hash mixes
//! every input bit into the high bits (hashbrown's control tags) and the low bits (its
//! bucket index), so keys differing only in their alignment bits (addresses that are
//! multiples of 8) still spread over all buckets. Not resistant to adversarial keys:
//! keys come from the program under test, never from an untrusted network peer.

use std::hash::{BuildHasherDefault, Hasher};

/// `HashMap<K, V, FastBuild>`: a map with [`FastHasher`].
pub type FastBuild = BuildHasherDefault<FastHasher>;

/// A `std::collections::HashMap` hashing with [`FastHasher`].
pub type FastMap<K, V> = std::collections::HashMap<K, V, FastBuild>;

/// A multiply-and-fold hasher (in the style of rustc's FxHasher, with a final fold).
#[derive(Default, Clone, Copy)]
pub struct FastHasher {
    hash: u64,
}

const K: u64 = 0xf135_7aea_2e62_a9c5;

impl FastHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(K);
    }
}

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // The product's high bits depend on every input bit, its low bits only on the
        // input's low bits: fold the high half down.
        self.hash ^ (self.hash >> 32)
    }
}

/// FNV-1a, 64 bits: a stable digest (the same on every build and machine) for
/// fingerprints that are written out and compared later (shard reports and plans, the
/// bundled headers' directory name). Feed it bytes with [`Fnv1a::write`].
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Adds `bytes`.
    pub fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    /// The digest of everything written so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

/// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014): a small deterministic generator whose sequence is a pure
/// function of its seed, on every build and machine — for choices that separate
/// processes must make alike (a shard plan's probes) and for reproducible tests.
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A value below `n` (`n > 0`; the modulo bias is below `n / 2^64`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Shuffles `xs` in place (Fisher–Yates: every order equally likely, up to
    /// [`Self::below`]'s bias).
    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            xs.swap(i, self.below(i as u64 + 1) as usize);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of splitmix64 from seed 1234567, as Rosetta Code's
    /// "Pseudo-random numbers/Splitmix64" task lists them.
    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        let mut r = SplitMix64(1234567);
        let got: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(
            got,
            vec![
                6457827717110365317,
                3203168211198807973,
                9817491932198370423
            ]
        );
    }

    #[test]
    fn shuffle_permutes() {
        let mut r = SplitMix64(7);
        let mut xs: Vec<u32> = (0..20).collect();
        r.shuffle(&mut xs);
        assert_ne!(xs, (0..20).collect::<Vec<_>>());
        xs.sort_unstable();
        assert_eq!(xs, (0..20).collect::<Vec<_>>());
        let mut empty: [u8; 0] = [];
        r.shuffle(&mut empty);
    }

    /// The published FNV-1a 64-bit test vectors ("" and "a" and "foobar").
    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        let digest = |parts: &[&[u8]]| {
            let mut h = Fnv1a::default();
            for p in parts {
                h.write(p);
            }
            h.finish()
        };
        assert_eq!(digest(&[]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(digest(&[b"a"]), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(digest(&[b"foobar"]), 0x8594_4171_f739_67e8);
        assert_eq!(digest(&[b"foo", b"bar"]), digest(&[b"foobar"]));
    }
    use std::hash::{BuildHasher, Hash};

    fn h<T: Hash>(x: T) -> u64 {
        FastBuild::default().hash_one(x)
    }

    #[test]
    fn deterministic_and_spread() {
        assert_eq!(h(12345u64), h(12345u64));
        // Aligned addresses land in distinct low-bit buckets and distinct high tags.
        let mut low = std::collections::HashSet::new();
        let mut high = std::collections::HashSet::new();
        for i in 0..64u64 {
            let x = h(0x1000_0000 + 8 * i);
            low.insert(x & 63);
            high.insert(x >> 57);
        }
        assert!(low.len() > 32, "{} low buckets", low.len());
        assert!(high.len() > 32, "{} high tags", high.len());
    }

    #[test]
    fn byte_writes_match_lengths() {
        assert_ne!(h([1u8, 2, 3].as_slice()), h([1u8, 2, 3, 0].as_slice()));
        let mut m: FastMap<u64, u32> = FastMap::default();
        for i in 0..1000 {
            m.insert(i * 16, i as u32);
        }
        assert!((0..1000).all(|i| m[&(i * 16)] == i as u32));
    }
}
