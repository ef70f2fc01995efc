//! Comments in a `.i` file. gcc's compiler proper reads a preprocessed file's
//! comments as white space (`-fpreprocessed` keeps them, and SV-COMP's newer `.i`
//! tasks open with `//` license lines), but the `lang-c` parser expects a
//! preprocessor's output, where none are left. [`blank`] turns every comment into
//! spaces, keeping its newlines, before parsing.
//!
//! Invariant: the text keeps its length and line structure, so every position the
//! front end reports is the file's own (`crate::srcmap`). String and character
//! literals are left alone; a `//` comment whose line ends with a backslash goes on to
//! the next line (translation phase 2 joins them before comments are removed).

/// `text` with its comments replaced by spaces (newlines kept).
pub(crate) fn blank(text: &str) -> String {
    let b = text.as_bytes();
    if !text.contains("//") && !text.contains("/*") {
        return text.to_string();
    }
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => i = crate::scan::skip_quoted(b, i),
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    let continued = b[i] == b'\\' && b.get(i + 1) == Some(&b'\n');
                    out[i] = b' ';
                    i += if continued { 2 } else { 1 };
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                out[i] = b' ';
                out[i + 1] = b' ';
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    if b[i] != b'\n' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
                let end = (i + 2).min(b.len());
                out[i..end].fill(b' ');
                i += 2;
            }
            _ => i += 1,
        }
    }
    // Every byte of a comment but its newlines became a space, so a multi-byte
    // character is replaced whole (its bytes all lie inside the comment or outside).
    String::from_utf8(out).expect("whole characters replaced by spaces")
}

#[cfg(test)]
mod tests {
    use super::blank;

    #[test]
    fn comments_become_spaces_in_place() {
        let src = "// SPDX\nint x; /* a\nb */ int y; // end\nchar *s = \"// no\"; char c = '/';\n";
        let out = blank(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(
            out,
            "       \nint x;     \n     int y;       \nchar *s = \"// no\"; char c = '/';\n"
        );
    }

    #[test]
    fn a_continued_line_comment_goes_on() {
        let src = "// a \\\nstill comment\nint x;\n";
        let out = blank(src);
        assert_eq!(out, "      \n             \nint x;\n");
    }

    #[test]
    fn text_without_comments_is_unchanged() {
        assert_eq!(blank("int x = 1 / 2;"), "int x = 1 / 2;");
    }
}
