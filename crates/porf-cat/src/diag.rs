//! Positions in cat files and the errors that name them (`file:line:col: message`).

use std::fmt;
use std::sync::Arc;

/// A position in a cat file: the file as named when loaded, line and column from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub file: Arc<str>,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// An error in a cat model: a syntax error, something porf's interpreter does not
/// support, a type error, or a missing file, at a position when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatError {
    pub span: Option<Span>,
    pub msg: String,
}

impl CatError {
    pub fn at(span: &Span, msg: impl Into<String>) -> CatError {
        CatError {
            span: Some(span.clone()),
            msg: msg.into(),
        }
    }
    pub fn nowhere(msg: impl Into<String>) -> CatError {
        CatError {
            span: None,
            msg: msg.into(),
        }
    }
}

impl fmt::Display for CatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.span {
            Some(s) => write!(f, "{s}: error: {}", self.msg),
            None => write!(f, "error: {}", self.msg),
        }
    }
}

impl std::error::Error for CatError {}
