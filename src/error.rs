//! The crate's error type: every failure a user can cause is reported as a
//! clear message (the CLI prints it and exits non-zero), never as a panic.

use std::fmt;

/// An error with a message meant for the user of the program.
#[derive(Debug)]
pub enum Error {
    /// The input (a flag, a value, a file) is not acceptable; the text says what is accepted.
    InvalidInput(String),
    /// The requested computation would need more memory than the machine allows.
    TooLarge(String),
    /// Reading or writing a file failed.
    Io { path: String, source: std::io::Error },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidInput(msg) => write!(f, "invalid input: {msg}"),
            Error::TooLarge(msg) => write!(f, "too large: {msg}"),
            Error::Io { path, source } => write!(f, "cannot write or read {path}: {source}"),
        }
    }
}

impl std::error::Error for Error {}

impl Error {
    /// The error with `place` (a file, a line of it) put before its message.
    pub fn at(self, place: &str) -> Error {
        match self {
            Error::InvalidInput(msg) => Error::InvalidInput(format!("{place}: {msg}")),
            Error::TooLarge(msg) => Error::TooLarge(format!("{place}: {msg}")),
            io @ Error::Io { .. } => io,
        }
    }
}

/// Shorthand used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Builds an [`Error::InvalidInput`] from anything printable.
pub fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidInput(msg.into())
}
