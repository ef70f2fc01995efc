//! Running the C preprocessor.
//!
//! The command is `$PORF_CPP` (split on whitespace) or, by default,
//! `gcc -E -nostdinc -std=c11 -fdiagnostics-column-unit=byte`; porf appends
//! `-D__PORF__=1`, `-D__thread=_Thread_local` (GNU's spelling of the storage class,
//! which the parser only knows in C11's), `-D__LITTLE_ENDIAN__=1` (clang's byte-order
//! macro, which gcc lacks; porf's memory is little-endian, and programs written for
//! clang, such as Dat3M's benchmarks, test it), `-I <bundled headers>`, the user's `-I` directories and `-D`
//! definitions, and the file. With `-nostdinc` only porf's headers answer `<...>`
//! includes; `"..."` includes search the including file's directory first, then the
//! same list. The output keeps `# N "file"` line markers, which [`crate::srcmap`] uses
//! to map positions back to the original files.
//!
//! A file named `.i` is already preprocessed (gcc's convention, and SV-COMP's tasks):
//! its text is returned without running the preprocessor, its comments blanked out
//! (`crate::comments`).
//!
//! A preprocessor failure (missing include, `#error`, ...) becomes a `Malformed`
//! diagnostic at the position the preprocessor reported; an unreadable input file or a
//! preprocessor that cannot be started becomes an `Io` diagnostic.

use crate::diag::{DiagKind, Diagnostic};
use crate::{headers, FrontOptions};
use std::path::Path;
use std::process::Command;

/// Environment variable overriding the preprocessor command.
pub const CPP_ENV: &str = "PORF_CPP";
const DEFAULT_CPP: &[&str] = &[
    "gcc",
    "-E",
    "-nostdinc",
    "-std=c11",
    "-fdiagnostics-column-unit=byte",
];

/// Preprocesses `path`; returns the preprocessed text (line markers included).
pub fn preprocess(path: &Path, opts: &FrontOptions) -> Result<String, Diagnostic> {
    let shown = path.display().to_string();
    let io = |msg: String| Diagnostic::new(DiagKind::Io, shown.clone(), 1, 1, msg);
    std::fs::read(path).map_err(|e| io(format!("cannot read {shown}: {e}")))?;
    if path.is_dir() {
        return Err(io(format!("{shown} is a directory")));
    }
    if path.extension().is_some_and(|e| e == "i") {
        let bytes = std::fs::read(path).map_err(|e| io(format!("cannot read {shown}: {e}")))?;
        return Ok(crate::comments::blank(&String::from_utf8_lossy(&bytes)));
    }
    let bundled = headers::bundled_dir().map_err(io)?;
    let argv = command();
    let mut cmd = Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .arg("-D__PORF__=1")
        .arg("-D__thread=_Thread_local")
        .arg("-D__LITTLE_ENDIAN__=1")
        .arg("-I")
        .arg(bundled);
    if opts.data_model == crate::DataModel::Ilp32 {
        cmd.arg("-m32");
    }
    if !opts.include_dirs.is_empty() {
        // Lets a bundled header defer to the user's (`headers/lkmm.h`).
        cmd.arg("-D__PORF_USER_INCLUDES=1");
    }
    for dir in &opts.include_dirs {
        cmd.arg("-I").arg(dir);
    }
    for def in &opts.defines {
        cmd.arg(format!("-D{def}"));
    }
    cmd.arg(path).env("LC_ALL", "C");
    let out = cmd
        .output()
        .map_err(|e| io(format!("cannot run the preprocessor `{}`: {e}", argv[0])))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(cpp_error(&stderr, &shown));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The preprocessor command line (without porf's own arguments).
fn command() -> Vec<String> {
    if let Ok(v) = std::env::var(CPP_ENV) {
        let words: Vec<String> = v.split_whitespace().map(String::from).collect();
        if !words.is_empty() {
            return words;
        }
    }
    DEFAULT_CPP.iter().map(|s| s.to_string()).collect()
}

/// Turns the preprocessor's stderr into a diagnostic at the first error it reports
/// (`file:line:col: error: msg` or `file:line: fatal error: msg`).
fn cpp_error(stderr: &str, main: &str) -> Diagnostic {
    for line in stderr.lines() {
        for marker in [": fatal error: ", ": error: "] {
            let Some(at) = line.find(marker) else {
                continue;
            };
            let (head, msg) = (&line[..at], &line[at + marker.len()..]);
            if let Some((file, l, c)) = split_position(head) {
                return Diagnostic::new(DiagKind::Malformed, file, l, c, explain(msg));
            }
        }
    }
    let msg = stderr.trim();
    let msg = if msg.is_empty() {
        "the preprocessor failed without a message".to_string()
    } else {
        format!("preprocessor failed: {}", msg.lines().next().unwrap_or(msg))
    };
    Diagnostic::new(DiagKind::Malformed, main, 1, 1, msg)
}

/// Splits `file:line:col` or `file:line`.
fn split_position(head: &str) -> Option<(&str, u32, u32)> {
    let mut parts = head.rsplitn(3, ':');
    let last: u32 = parts.next()?.parse().ok()?;
    let mid = parts.next()?;
    match (mid.parse::<u32>(), parts.next()) {
        (Ok(line), Some(file)) => Some((file, line, last)),
        _ => {
            // `file:line` (no column): `mid` is the file, `last` the line.
            let file = head.rsplit_once(':')?.0;
            Some((file, last, 1))
        }
    }
}

fn explain(msg: &str) -> String {
    if msg.ends_with("No such file or directory") {
        let names: Vec<&str> = headers::HEADERS.iter().map(|(n, _)| *n).collect();
        format!(
            "{msg} (porf provides only its bundled system headers: {})",
            names.join(", ")
        )
    } else {
        msg.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gcc_errors() {
        let e = cpp_error(
            "t.c:3:10: fatal error: foo.h: No such file or directory\ncompilation terminated.\n",
            "t.c",
        );
        assert_eq!(
            (e.kind, e.file.as_str(), e.line, e.col),
            (DiagKind::Malformed, "t.c", 3, 10)
        );
        assert!(e.message.starts_with("foo.h: No such file"));
        let e = cpp_error(
            "In file included from a.c:1:\nb.h:2:2: error: #error boom\n",
            "a.c",
        );
        assert_eq!((e.file.as_str(), e.line, e.col), ("b.h", 2, 2));
        assert_eq!(e.message, "#error boom");
        let e = cpp_error("x.c:7: error: something\n", "x.c");
        assert_eq!((e.line, e.col), (7, 1));
        let e = cpp_error("weird\n", "m.c");
        assert_eq!((e.file.as_str(), e.line), ("m.c", 1));
    }

    #[test]
    fn unreadable_file_is_io() {
        let e = preprocess(Path::new("/nonexistent/x.c"), &FrontOptions::default()).unwrap_err();
        assert_eq!(e.kind, DiagKind::Io);
    }
}
