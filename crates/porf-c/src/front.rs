//! The pipeline behind [`crate::compile_file`]: preprocess, map positions, parse
//! (guarded against panics and absurd nesting), lower.

use crate::srcmap::SrcMap;
use crate::{ir, lower, preprocess, DiagKind, Diagnostic, FrontOptions};
use lang_c::driver::{parse_preprocessed, Config, Flavor};
use std::path::Path;

/// Deepest bracket nesting accepted before parsing.
const MAX_NESTING: usize = 256;

pub(crate) fn compile(path: &Path, opts: &FrontOptions) -> Result<ir::Module, Diagnostic> {
    refuse_cxx(path)?;
    let text = preprocess::preprocess(path, opts)?;
    let dollar = crate::dollar::disguise(&text);
    let mut map = SrcMap::new(text, &path.display().to_string());
    let dollar = dollar.map_err(|(at, name)| {
        map.diag(
            DiagKind::Unsupported,
            at,
            format!("`{name}`: porf reads `$` in identifiers as `_`, and that name is also used"),
        )
    })?;
    let (parsed, int128) = crate::int128::disguise(&dollar.text);
    map.set_int128(int128);
    map.set_dollar_names(dollar.original);
    check_nesting(&map)?;
    let unit = parse(&map, parsed)?;
    crate::types::with_data_model(opts.data_model, || lower::lower_unit(&unit, &map))
}

/// File name extensions of C++ sources (as gcc reads them).
const CXX_EXTENSIONS: &[&str] = &[
    "cpp", "cc", "cxx", "c++", "cp", "CPP", "C", "hpp", "hh", "hxx",
];

/// Refuses a C++ source, by its name's extension (gcc's rule), before the C
/// preprocessor would fail on its headers with a message that does not say why.
fn refuse_cxx(path: &Path) -> Result<(), Diagnostic> {
    match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if CXX_EXTENSIONS.contains(&ext) => Err(Diagnostic::new(
            DiagKind::Unsupported,
            path.display().to_string(),
            1,
            1,
            format!("porf checks C programs; C++ is not supported (a `.{ext}` file is C++)"),
        )),
        _ => Ok(()),
    }
}

/// Rejects absurdly deep nesting, which could exhaust the parser's stack. Brackets
/// inside string and character literals do not count.
fn check_nesting(map: &SrcMap) -> Result<(), Diagnostic> {
    let b = map.text().as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                i = crate::scan::skip_quoted(b, i);
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(map.diag(
                        DiagKind::Unsupported,
                        i,
                        format!("nesting deeper than {MAX_NESTING} levels is not supported"),
                    ));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

/// Parses `text` (the preprocessed text, with `crate::int128`'s replacements).
fn parse(map: &SrcMap, text: String) -> Result<lang_c::ast::TranslationUnit, Diagnostic> {
    let cfg = Config {
        cpp_command: String::new(),
        cpp_options: Vec::new(),
        flavor: Flavor::GnuC11,
    };
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        parse_preprocessed(&cfg, text)
    }));
    match r {
        Ok(Ok(p)) => Ok(p.unit),
        Ok(Err(e)) => {
            let rest = &map.text()[e.offset.min(map.text().len())..];
            let tok: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace())
                .take(16)
                .collect();
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort_unstable();
            let after = previous_token_end(map.text(), e.offset.min(map.text().len()));
            let mut msg = match (tok.is_empty(), after) {
                (true, _) => "syntax error: unexpected end of input".to_string(),
                (false, Some(end)) => {
                    let prev = last_token(&map.text()[..end]);
                    format!(
                        "syntax error at the end of this line, after `{prev}` (the next line starts with `{tok}`)"
                    )
                }
                (false, None) => format!("syntax error at `{tok}`"),
            };
            if !expected.is_empty() && expected.len() <= 6 {
                msg.push_str(&format!(", expected {}", expected.join(" or ")));
            }
            Err(map.diag(DiagKind::Malformed, after.unwrap_or(e.offset), msg))
        }
        Err(_) => Err(map.diag(DiagKind::Malformed, 0, "the C parser failed on this input")),
    }
}

/// When the token at `offset` is the first on its line, the offset just after the
/// previous token (preprocessor line markers skipped), where a missing `;` or `)` belongs;
/// `None` when the token shares its line with an earlier one or starts the text.
fn previous_token_end(text: &str, offset: usize) -> Option<usize> {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    if !text[line_start..offset].trim().is_empty() {
        return None;
    }
    let mut end = line_start;
    while end > 0 {
        let start = text[..end - 1].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[start..end - 1];
        let trimmed = line.trim_end();
        if !trimmed.is_empty() && !trimmed.trim_start().starts_with('#') {
            return Some(start + trimmed.len());
        }
        end = start;
    }
    None
}

/// The last whitespace-free word of `text`, at most 16 characters of it.
fn last_token(text: &str) -> String {
    let word = text.rsplit(char::is_whitespace).next().unwrap_or_default();
    let n = word.chars().count();
    word.chars().skip(n.saturating_sub(16)).collect()
}

/// A diagnostic for a panic inside the front end.
pub(crate) fn internal(path: &Path, panic: Box<dyn std::any::Any + Send>) -> Diagnostic {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    Diagnostic::new(
        DiagKind::Unsupported,
        path.display().to_string(),
        1,
        1,
        format!("internal error in porf's C front end: {what}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_starting_a_line_is_reported_after_the_previous_one() {
        let text = "int x = 1\n# 3 \"t.c\"\n\n  return x;";
        let at = text.find("return").unwrap();
        assert_eq!(previous_token_end(text, at), Some(9));
        assert_eq!(last_token(&text[..9]), "1");
        assert_eq!(previous_token_end(text, text.find("x;").unwrap()), None);
        assert_eq!(previous_token_end("  int", 2), None);
    }

    #[test]
    fn brackets_in_literals_do_not_nest() {
        let deep = "(".repeat(300);
        let ok = SrcMap::new(format!("char *s = \"{deep}\\\"\"; char c = '(';\n"), "t.c");
        assert!(check_nesting(&ok).is_ok());
        let bad = SrcMap::new(format!("int x = {deep};\n"), "t.c");
        let d = check_nesting(&bad).unwrap_err();
        assert_eq!((d.kind, d.line, d.col), (DiagKind::Unsupported, 1, 265));
    }
}
