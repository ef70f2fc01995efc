//! [`Chunked`]: a growable sequence stored in fixed-size chunks, for a thread's events.
//!
//! A `Vec` that doubles copies all of its elements at once: for a thread of a million
//! events that is a few hundred megabytes copied and as many newly touched, one step
//! that no time or memory limit can interrupt and that briefly needs the old and the
//! new buffer together. A `Chunked` never moves an element once its first chunk is
//! full: it grows by one chunk of [`CHUNK`] elements at a time, so the largest single
//! growth step costs O([`CHUNK`]) whatever the length, and the memory it holds is at
//! most one chunk more than its elements need.
//!
//! Invariants: every chunk but the last holds exactly [`CHUNK`] elements; the last holds
//! at least one (no empty chunk is kept); element `i` is `chunks[i / CHUNK][i % CHUNK]`.
//! The first chunk grows like a `Vec` (a short thread costs what a `Vec` costs); later
//! chunks are allocated with their full capacity.

use std::ops::{Index, IndexMut, RangeBounds};

/// Elements per chunk (a power of two).
pub const CHUNK: usize = 1 << SHIFT;
const SHIFT: u32 = 12;
const MASK: usize = CHUNK - 1;

/// A sequence of `T` in chunks of [`CHUNK`] (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Chunked<T> {
    pub const fn new() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, x: T) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < CHUNK => c.push(x),
            _ => {
                let mut c = if self.chunks.is_empty() {
                    Vec::new()
                } else {
                    Vec::with_capacity(CHUNK)
                };
                c.push(x);
                self.chunks.push(c);
            }
        }
        self.len += 1;
    }

    pub fn pop(&mut self) -> Option<T> {
        let c = self.chunks.last_mut()?;
        let x = c.pop();
        if c.is_empty() {
            self.chunks.pop();
        }
        self.len -= 1;
        x
    }

    pub fn get(&self, i: usize) -> Option<&T> {
        self.chunks.get(i >> SHIFT)?.get(i & MASK)
    }

    pub fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.chunks.get_mut(i >> SHIFT)?.get_mut(i & MASK)
    }

    pub fn first(&self) -> Option<&T> {
        self.chunks.first()?.first()
    }

    pub fn last(&self) -> Option<&T> {
        self.chunks.last()?.last()
    }

    /// The number of leading elements for which `pred` holds (it must hold for a
    /// prefix and not after, as for [`slice::partition_point`]). O(log n).
    pub fn partition_point(&self, mut pred: impl FnMut(&T) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if pred(&self[mid]) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Keeps the first `n` elements.
    pub fn truncate(&mut self, n: usize) {
        if n >= self.len {
            return;
        }
        let full = n >> SHIFT;
        let rest = n & MASK;
        self.chunks.truncate(full + usize::from(rest > 0));
        if rest > 0 {
            self.chunks[full].truncate(rest);
        }
        self.len = n;
    }

    /// Removes the elements from `n` on and returns them in order.
    pub fn split_off(&mut self, n: usize) -> Vec<T> {
        if n >= self.len {
            return Vec::new();
        }
        let first = n >> SHIFT;
        if first + 1 == self.chunks.len() {
            // Within the last chunk (every thread shorter than a chunk): its tail.
            let out = self.chunks[first].split_off(n & MASK);
            if self.chunks[first].is_empty() {
                self.chunks.pop();
            }
            self.len = n;
            return out;
        }
        let mut out = Vec::with_capacity(self.len - n);
        let mut tail = self.chunks.split_off(first);
        let head = tail[0].split_off(n & MASK);
        if !tail[0].is_empty() {
            self.chunks.push(std::mem::take(&mut tail[0]));
        }
        out.extend(head);
        for c in tail.into_iter().skip(1) {
            out.extend(c);
        }
        self.len = n;
        out
    }

    /// The elements in order.
    pub fn iter(&self) -> Iter<'_, T> {
        self.range(..)
    }

    /// The elements in order, to change.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.chunks.iter_mut().flatten()
    }

    /// The elements of `range`, in order. Panics if it is out of bounds.
    pub fn range(&self, range: impl RangeBounds<usize>) -> Iter<'_, T> {
        use std::ops::Bound::*;
        let lo = match range.start_bound() {
            Included(&a) => a,
            Excluded(&a) => a + 1,
            Unbounded => 0,
        };
        let hi = match range.end_bound() {
            Included(&b) => b + 1,
            Excluded(&b) => b,
            Unbounded => self.len,
        };
        assert!(
            lo <= hi && hi <= self.len,
            "range {lo}..{hi} of {}",
            self.len
        );
        let mut it = Iter {
            front: [].iter(),
            mid: [].iter(),
            back: [].iter(),
            len: hi - lo,
        };
        if lo == hi {
            return it;
        }
        let (c0, c1) = (lo >> SHIFT, (hi - 1) >> SHIFT);
        let end = ((hi - 1) & MASK) + 1;
        if c0 == c1 {
            it.front = self.chunks[c0][lo & MASK..end].iter();
        } else {
            it.front = self.chunks[c0][lo & MASK..].iter();
            it.mid = self.chunks[c0 + 1..c1].iter();
            it.back = self.chunks[c1][..end].iter();
        }
        it
    }

    /// A copy of the first `n` elements.
    pub fn prefix(&self, n: usize) -> Chunked<T>
    where
        T: Clone,
    {
        let mut c = Chunked::new();
        c.extend(self.range(..n.min(self.len)).cloned());
        c
    }
}

impl<T> Extend<T> for Chunked<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for x in iter {
            self.push(x);
        }
    }
}

impl<T> Index<usize> for Chunked<T> {
    type Output = T;
    #[inline]
    fn index(&self, i: usize) -> &T {
        &self.chunks[i >> SHIFT][i & MASK]
    }
}

impl<T> IndexMut<usize> for Chunked<T> {
    #[inline]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.chunks[i >> SHIFT][i & MASK]
    }
}

impl<'a, T> IntoIterator for &'a Chunked<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;
    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

/// The elements of a range of a [`Chunked`]: the rest of the first chunk, the whole
/// chunks between, and the start of the last chunk.
#[derive(Clone, Debug)]
pub struct Iter<'a, T> {
    front: std::slice::Iter<'a, T>,
    mid: std::slice::Iter<'a, Vec<T>>,
    back: std::slice::Iter<'a, T>,
    len: usize,
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;
    #[inline]
    fn next(&mut self) -> Option<&'a T> {
        loop {
            if let Some(x) = self.front.next() {
                self.len -= 1;
                return Some(x);
            }
            match self.mid.next() {
                Some(c) => self.front = c.iter(),
                None => {
                    let x = self.back.next()?;
                    self.len -= 1;
                    return Some(x);
                }
            }
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

impl<T> DoubleEndedIterator for Iter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(x) = self.back.next_back() {
                self.len -= 1;
                return Some(x);
            }
            match self.mid.next_back() {
                Some(c) => self.back = c.iter(),
                None => {
                    let x = self.front.next_back()?;
                    self.len -= 1;
                    return Some(x);
                }
            }
        }
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation against a `Vec` doing the same, across chunk boundaries.
    #[test]
    fn behaves_like_a_vec() {
        let mut c = Chunked::new();
        let mut v = Vec::new();
        let mut seed = 7u64;
        let mut next = |m: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % m
        };
        for step in 0..4000 {
            match next(8) {
                0..=3 => {
                    for _ in 0..next(3 * CHUNK) {
                        c.push(step);
                        v.push(step);
                    }
                }
                4 => {
                    assert_eq!(c.pop(), v.pop());
                }
                5 => {
                    let n = next(v.len() + 1);
                    c.truncate(n);
                    v.truncate(n);
                }
                6 => {
                    let n = next(v.len() + 1);
                    assert_eq!(c.split_off(n), v.split_off(n));
                }
                _ => {
                    let extra: Vec<usize> = (0..next(CHUNK + 2)).collect();
                    c.extend(extra.iter().copied());
                    v.extend(extra);
                }
            }
            assert_eq!(c.len(), v.len());
            assert_eq!(c.last(), v.last());
            assert_eq!(c.first(), v.first());
            if !v.is_empty() {
                let i = next(v.len());
                assert_eq!(c[i], v[i]);
                let j = next(v.len() + 1);
                let (a, b) = (i.min(j), i.max(j));
                assert!(c.range(a..b).eq(v[a..b].iter()));
                assert!(c.range(a..b).rev().eq(v[a..b].iter().rev()));
                assert_eq!(c.range(a..b).len(), b - a);
                assert!(c.prefix(j).iter().eq(v[..j].iter()));
            }
            assert!(c.iter().eq(v.iter()));
            assert_eq!(c.chunks.iter().filter(|k| k.is_empty()).count(), 0);
        }
    }

    #[test]
    fn partition_point_is_the_slices() {
        for n in [0, 1, CHUNK - 1, CHUNK, 3 * CHUNK + 5] {
            let mut c = Chunked::new();
            c.extend((0..n).map(|i| i / 3));
            let v: Vec<usize> = c.iter().copied().collect();
            for p in 0..n / 3 + 2 {
                assert_eq!(c.partition_point(|&x| x < p), v.partition_point(|&x| x < p));
            }
        }
    }
}
