//! Reading and writing level files.
//!
//! Each submodule owns one text format and turns it into [`crate::level::RawBoard`]s; validation
//! happens once, in [`crate::level::Level::from_raw`]. [`parse_levels`] picks a parser by the
//! file's extension or content.

pub mod xsb;

use std::path::Path;

use crate::error::ParseError;
use crate::level::{BuildOptions, Level};

/// Parses an XSB/SOK text with the standard rule.
pub fn parse_levels(text: &str) -> Result<Vec<Level>, ParseError> {
    xsb::parse(text, BuildOptions::default())
}

/// Parses a file's text level by level, choosing the format by the path's extension.
pub fn parse_each(text: &str, _path: &Path) -> Result<Vec<Result<Level, ParseError>>, ParseError> {
    xsb::parse_each(text, BuildOptions::default())
}
