//! Which bytes of a thread's private memory are uninitialised: one bit per byte of
//! `Machine::stack`, set while the byte holds no value (a frame's bytes on entry, an
//! object whose declaration without initializer was reached, a copy of an
//! uninitialised cell). Uninitialised bytes always hold 0, so two machines agree on a
//! range of private memory when their bytes and their bits agree there.
//!
//! The engine clones a thread after every event, so the first [`INLINE`] words live in
//! the struct itself: a thread whose private memory is at most `64 * INLINE` bytes (the
//! usual case for threads other than `main`, whose `argv` comes first) clones its
//! shadow without allocating. The length is the owner's (`Machine::stack`'s), not
//! kept here.

/// Words kept inline.
const INLINE: usize = 2;

/// A bit per byte; bit `i` set: byte `i` is uninitialised. Bits at or past the
/// owner's length are 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Shadow {
    inline: [u64; INLINE],
    /// Words `INLINE..`.
    spill: Vec<u64>,
}

impl Shadow {
    fn word(&self, w: usize) -> u64 {
        match w.checked_sub(INLINE) {
            None => self.inline[w],
            Some(s) => self.spill[s],
        }
    }

    fn word_mut(&mut self, w: usize) -> &mut u64 {
        match w.checked_sub(INLINE) {
            None => &mut self.inline[w],
            Some(s) => &mut self.spill[s],
        }
    }

    /// Grows or shrinks from `old` to `len` bytes; new bytes are uninitialised when
    /// `undef`.
    pub(super) fn resize(&mut self, old: usize, len: usize, undef: bool) {
        if len < old {
            // Clear the bits past the new end, so that bits past `len` stay 0.
            self.set(len..old, false);
            self.spill.truncate(len.div_ceil(64).saturating_sub(INLINE));
            return;
        }
        self.spill
            .resize(len.div_ceil(64).saturating_sub(INLINE), 0);
        if undef {
            self.set(old..len, true);
        }
    }

    /// Marks bytes `r` uninitialised (`undef`) or initialised. Requires `r.end` within
    /// the owner's length.
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
            let word = self.word_mut(w);
            if undef {
                *word |= mask;
            } else {
                *word &= !mask;
            }
            i += n;
        }
    }

    /// The bits of `r` (at most 64 of them) starting at bit `i`, as the low bits.
    fn bits(&self, i: usize, n: usize) -> u64 {
        let word = self.word(i / 64) >> (i % 64);
        if n == 64 {
            word
        } else {
            word & ((1u64 << n) - 1)
        }
    }

    /// Whether any byte of `r` is uninitialised. Requires `r.end` within the owner's
    /// length.
    pub(super) fn any(&self, r: std::ops::Range<usize>) -> bool {
        let mut i = r.start;
        while i < r.end {
            let n = (64 - i % 64).min(r.end - i);
            if self.bits(i, n) != 0 {
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
            let n = (64 - i % 64).min(r.end - i);
            if self.bits(i, n) != o.bits(i, n) {
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
    fn ranges_across_words_and_the_inline_boundary() {
        let mut s = Shadow::default();
        s.resize(0, 400, true);
        assert!(s.any(0..400));
        s.set(3..350, false);
        assert!(!s.any(3..350));
        assert!(s.any(2..4));
        assert!(s.any(349..351));
        assert!(s.any(350..351));
        let mut t = s.clone();
        assert!(t.same(&s, 0..400));
        t.set(64..65, true);
        t.set(300..301, true);
        assert!(!t.same(&s, 0..400));
        assert!(t.same(&s, 0..64));
        assert!(t.same(&s, 65..300));
        assert!(t.same(&s, 301..400));
        // Shrinking forgets the bits past the end; growing adds initialised bytes.
        t.resize(400, 70, false);
        t.resize(70, 330, false);
        assert!(t.any(64..65));
        assert!(!t.any(65..330));
        assert!(s.any(350..400));
        // A shadow that never outgrows the inline words allocates nothing.
        let mut u = Shadow::default();
        u.resize(0, 64 * INLINE, true);
        assert!(u.spill.is_empty());
        assert!(u.any(64 * INLINE - 1..64 * INLINE));
    }
}
