//! A Sokoban library: levels, rules, move strings, an independent verifier and solvers.
//!
//! ```
//! use sokoban::{format::parse_levels, verify::verify};
//!
//! let levels = parse_levels("#####\n#@$.#\n#####\n")?;
//! let report = verify(&levels[0], "R");
//! assert!(report.is_valid_solution());
//! # Ok::<(), sokoban::Error>(())
//! ```

#![warn(missing_docs)]

pub mod analysis;
pub mod error;
pub mod format;
pub mod level;
pub mod lurd;
pub mod metrics;
pub mod moves;
pub mod optimize;
pub mod rules;
pub mod sok;
pub mod solutions;
pub mod solver;
pub mod system;
pub mod verify;

/// The README's code blocks, compiled and run as doctests (its Rust example must stay true).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use error::{Error, MoveParseError, ParseError, ParseErrorKind};
pub use level::{Dir, Level, SolvedRule, Square};
pub use rules::{Move, Position};
