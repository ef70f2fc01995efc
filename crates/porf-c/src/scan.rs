//! Byte-level scanning of C text for the passes that rewrite or check it before the
//! parser (`comments`, `dollar`, `int128`, `front`'s nesting check): string and
//! character literals are skipped whole, so nothing inside one is taken for code.

/// The offset just past the string or character literal whose opening quote is at
/// `i`: past its closing quote, or past the end of the line (or text) when it is not
/// closed there. A backslash escapes the byte after it.
pub(crate) fn skip_quoted(b: &[u8], i: usize) -> usize {
    let q = b[i];
    let mut i = i + 1;
    while i < b.len() && b[i] != q && b[i] != b'\n' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_end_at_their_closing_quote_or_line() {
        let t = br#"a "x\"y" 'c' "open
z"#;
        assert_eq!(skip_quoted(t, 2), 8);
        assert_eq!(skip_quoted(t, 9), 12);
        // Unclosed: past the newline.
        assert_eq!(skip_quoted(t, 13), 19);
    }
}
