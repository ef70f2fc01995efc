//! Diagnostics for rejected toy programs, printed as `file:line:col: error: message`
//! (the style of porf's C front end).

use crate::program::Pos;
use std::fmt;

/// A rejection with the 1-based position it refers to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &str, pos: Pos, msg: impl Into<String>) -> Diagnostic {
        Diagnostic {
            file: file.to_string(),
            line: pos.line,
            col: pos.col,
            message: msg.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Line 0: no position (a file that cannot be read; the message names it).
        if self.line == 0 {
            return write!(f, "error: {}", self.message);
        }
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for Diagnostic {}
