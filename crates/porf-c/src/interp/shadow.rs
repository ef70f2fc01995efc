//! Which bytes of a thread's private memory are uninitialised: one bit per byte of
//! `Machine::stack`, set while the byte holds no value (a frame's bytes on entry, an
//! object whose declaration without initializer was reached, a copy of an
//! uninitialised cell). Uninitialised bytes always hold 0, so two machines agree on a
//! range of private memory when their bytes and their bits agree there.

/// A bit per byte; bit `i` set: byte `i` is uninitialised.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Shadow {
    bits: Vec<u64>,
    len: usize,
}

impl Shadow {
    /// Bytes tracked.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Grows or shrinks to `len` bytes; new bytes are uninitialised when `undef`.
    pub(super) fn resize(&mut self, len: usize, undef: bool) {
        if len < self.len {
            self.len = len;
            self.bits.truncate(len.div_ceil(64));
            if !len.is_multiple_of(64) {
                if let Some(w) = self.bits.last_mut() {
                    *w &= (1u64 << (len % 64)) - 1;
                }
            }
            return;
        }
        let old = self.len;
        self.bits.resize(len.div_ceil(64), 0);
        self.len = len;
        self.set(old..len, undef);
    }

    /// Marks bytes `r` uninitialised (`undef`) or initialised. Requires `r.end <= len`.
    pub(super) fn set(&mut self, r: std::ops::Range<usize>, undef: bool) {
        let mut i = r.start;
        while i < r.end {
            let (w, b) = (i / 64, i % 64);
            let n = (64 - b).min(r.end - i);
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << b
            };
            if undef {
                self.bits[w] |= mask;
            } else {
                self.bits[w] &= !mask;
            }
            i += n;
        }
    }

    /// Whether any byte of `r` is uninitialised. Requires `r.end <= len`.
    pub(super) fn any(&self, r: std::ops::Range<usize>) -> bool {
        let mut i = r.start;
        while i < r.end {
            let (w, b) = (i / 64, i % 64);
            let n = (64 - b).min(r.end - i);
            let word = self.bits[w] >> b;
            let word = if n == 64 {
                word
            } else {
                word & ((1u64 << n) - 1)
            };
            if word != 0 {
                return true;
            }
            i += n;
        }
        false
    }

    /// Whether `self` and `o` agree on the bytes of `r` (both must hold them).
    pub(super) fn same(&self, o: &Shadow, r: std::ops::Range<usize>) -> bool {
        let mut i = r.start;
        while i < r.end {
            let (w, b) = (i / 64, i % 64);
            let n = (64 - b).min(r.end - i);
            let mask = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            if (self.bits[w] >> b) & mask != (o.bits[w] >> b) & mask {
                return false;
            }
            i += n;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_across_words() {
        let mut s = Shadow::default();
        s.resize(200, true);
        assert!(s.any(0..200));
        s.set(3..150, false);
        assert!(!s.any(3..150));
        assert!(s.any(2..4));
        assert!(s.any(149..151));
        assert!(s.any(150..151));
        let mut t = s.clone();
        assert!(t.same(&s, 0..200));
        t.set(64..65, true);
        assert!(!t.same(&s, 0..200));
        assert!(t.same(&s, 0..64));
        assert!(t.same(&s, 65..200));
        t.resize(70, false);
        assert_eq!(t.len(), 70);
        t.resize(130, false);
        assert!(t.any(64..65));
        assert!(!t.any(65..130));
        assert!(s.any(150..200));
    }
}
