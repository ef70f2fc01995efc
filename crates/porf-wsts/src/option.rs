//! Options and option lists (Defs. 5.7 and 6.4).
//!
//! An option is packed in a `u32`: a read option `O_R(w, x, v, tag)` — the writing
//! thread `w`, location `x`, value `v`, and `tag`: under loSRA the RMW flag (0 = R,
//! 1 = RMW), under loWRA the RMW thread identifier — or a write option `O_W(x)`
//! (loWRA only). Lists compare by (not necessarily contiguous) subsequence.

/// A packed option.
pub type Opt = u32;

const WRITE_BIT: u32 = 1 << 31;

/// `O_R(w, x, v, tag)`.
pub fn read(w: u8, x: u8, v: u8, tag: u8) -> Opt {
    (u32::from(w) << 24) | (u32::from(x) << 16) | (u32::from(v) << 8) | u32::from(tag)
}

/// `O_W(x)`.
pub fn write(x: u8) -> Opt {
    WRITE_BIT | (u32::from(x) << 16)
}

pub fn is_write(o: Opt) -> bool {
    o & WRITE_BIT != 0
}

pub fn loc(o: Opt) -> u8 {
    (o >> 16) as u8
}

/// The writing thread of a read option.
pub fn tid(o: Opt) -> u8 {
    ((o >> 24) & 0x7f) as u8
}

pub fn val(o: Opt) -> u8 {
    (o >> 8) as u8
}

pub fn tag(o: Opt) -> u8 {
    o as u8
}

/// Whether `a` is a subsequence of `b`.
pub fn subseq(a: &[Opt], b: &[Opt]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut i = 0;
    for &o in b {
        if i < a.len() && a[i] == o {
            i += 1;
        }
    }
    i == a.len()
}

/// A readable rendering, for witnesses and debugging.
pub fn show(o: Opt) -> String {
    if is_write(o) {
        format!("W(x{})", loc(o))
    } else {
        format!("R(T{},x{},{},{})", tid(o), loc(o), val(o), tag(o))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let o = read(5, 3, 7, 1);
        assert!(!is_write(o));
        assert_eq!((tid(o), loc(o), val(o), tag(o)), (5, 3, 7, 1));
        let w = write(9);
        assert!(is_write(w));
        assert_eq!(loc(w), 9);
    }

    #[test]
    fn subsequences() {
        let (a, b, c) = (read(0, 0, 0, 0), read(1, 0, 1, 0), read(1, 1, 1, 0));
        assert!(subseq(&[], &[a]));
        assert!(subseq(&[a, c], &[a, b, c]));
        assert!(!subseq(&[c, a], &[a, b, c]));
        assert!(!subseq(&[a, a], &[a]));
    }
}
