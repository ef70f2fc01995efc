//! GCC's 128-bit integer types (`__int128`, `unsigned __int128`, `__int128_t`,
//! `__uint128_t`), which the `lang-c` parser does not know (it would report a syntax
//! error at the declared name). Before parsing, each such keyword is replaced, in the
//! parser's copy of the preprocessed text only, by a TS 18661 floating type keyword
//! of the same length the parser accepts where a type specifier goes (`_Float32`,
//! padded with spaces, for the signed ones; `_Float64x` for `__uint128_t`), and its
//! offset is recorded: the lowering reads a `_Float32`/`_Float64x` specifier at a
//! recorded offset as the 128-bit type (a genuine `_Float32` elsewhere is still that
//! type). Offsets and line structure are unchanged, so positions stay exact.
//!
//! The lowering makes them the integer types `IntTy::Int128`/`UInt128`, 16 bytes wide,
//! whose values travel as codes of `crate::wide` (porf's values are 64-bit).

/// The parser's copy of `text` and the offsets of the 128-bit type keywords in it,
/// each with whether it is `__uint128_t` (unsigned by itself).
pub(crate) fn disguise(text: &str) -> (String, Vec<(usize, bool)>) {
    let b = text.as_bytes();
    let mut out = text.as_bytes().to_vec();
    let mut found = Vec::new();
    let mut i = 0;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = crate::scan::skip_quoted(b, i),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && ident(b[i]) {
                    i += 1;
                }
                let (with, unsigned): (&[u8], bool) = match &b[start..i] {
                    b"__int128" => (b"_Float32", false),
                    b"__int128_t" => (b"_Float32  ", false),
                    b"__uint128_t" => (b"_Float64x  ", true),
                    _ => continue,
                };
                out[start..i].copy_from_slice(with);
                found.push((start, unsigned));
            }
            c if c.is_ascii_digit() => {
                while i < b.len() && (ident(b[i]) || b[i] == b'.') {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    let out = String::from_utf8(out).expect("ASCII replaced by ASCII");
    (out, found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_replaced_in_place() {
        let src = "unsigned __int128 x; __uint128_t y; char *s = \"__int128\"; int __int128z;";
        let (out, found) = disguise(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(
            out,
            "unsigned _Float32 x; _Float64x   y; char *s = \"__int128\"; int __int128z;"
        );
        assert_eq!(found, vec![(9, false), (21, true)]);
    }
}
