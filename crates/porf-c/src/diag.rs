//! Diagnostics for C input porf cannot verify: malformed programs, constructs outside
//! the supported subset, and unreadable files. Each carries a source position.

use std::fmt;

/// Why the input was rejected.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum DiagKind {
    /// Not valid C (preprocessor or syntax error, type error, undeclared name, ...).
    Malformed,
    /// Valid C that uses a construct outside porf's subset.
    Unsupported,
    /// The file (or an included one) could not be read, or the preprocessor failed
    /// to run at all.
    Io,
}

/// A rejection with the position it refers to, printed as `file:line:col: error: msg`.
/// `line` and `col` are 1-based positions in the original (not preprocessed) file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub kind: DiagKind,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn new(
        kind: DiagKind,
        file: impl Into<String>,
        line: u32,
        col: u32,
        msg: impl Into<String>,
    ) -> Self {
        Diagnostic {
            kind,
            file: file.into(),
            line,
            col,
            message: msg.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            // A file that cannot be read has no position to point at; the message
            // names the file.
            DiagKind::Io => return write!(f, "error: {}", self.message),
            DiagKind::Malformed => "error",
            DiagKind::Unsupported => "unsupported",
        };
        write!(
            f,
            "{}:{}:{}: {what}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for Diagnostic {}
