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

pub use error::{MoveParseError, ParseError, ParseErrorKind, WriteError};

use std::path::{Path, PathBuf};

/// Any error the library reports: each module's error converts into it, so `?` works in a
/// function returning it.
///
/// ```
/// fn shortest(path: &std::path::Path) -> Result<usize, sokoban::Error> {
///     let level = sokoban::read_levels(path)?.remove(0);
///     let solution = sokoban::solver::solve(&level, &sokoban::solver::Config::default())?;
///     Ok(solution.pushes)
/// }
/// let err = shortest(std::path::Path::new("no/such/file.xsb")).unwrap_err();
/// assert!(matches!(err, sokoban::Error::File { .. }));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A level that cannot be parsed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// A move string that cannot be parsed.
    #[error(transparent)]
    Moves(#[from] MoveParseError),
    /// A level that cannot be written in a format.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// A solutions file (TSV or JSON lines) that cannot be read.
    #[error("line {line}: {message}")]
    Solutions {
        /// 1-based line in the solutions file.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// A solve that ended without a solution (see [`solver::SolveError`]: a limit, a
    /// cancellation, or a proof that there is none), boxed: it carries the search's counters.
    #[error(transparent)]
    Solve(Box<solver::SolveError>),
    /// A solution the optimizer cannot take.
    #[error(transparent)]
    Optimize(#[from] optimize::OptimizeError),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// An error in a file, with the file's path (from [`read_levels`]).
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// What went wrong in it.
        source: Box<Error>,
    },
}

impl From<solver::SolveError> for Error {
    fn from(e: solver::SolveError) -> Error {
        Error::Solve(Box::new(e))
    }
}

/// Reads and parses every level of a file, in the format [`format::detect`] finds from its
/// extension and content (XSB/SOK, integer grid, JSON grid or warehouse), each with its
/// format's solved rule. Errors name the file (and, for a parse error, the line and column);
/// the first bad level fails the whole file (see [`format::parse_each`] to go on past it).
///
/// ```
/// let levels = sokoban::read_levels("data/microban.xsb")?;
/// assert_eq!(levels.len(), 155);
/// # Ok::<(), sokoban::Error>(())
/// ```
pub fn read_levels(path: impl AsRef<Path>) -> Result<Vec<Level>, Error> {
    let path = path.as_ref();
    let in_file = |source: Error| Error::File { path: path.to_path_buf(), source: Box::new(source) };
    let text = std::fs::read_to_string(path).map_err(|e| in_file(e.into()))?;
    let format = format::detect(path, &text);
    format::parse_as(&text, format).map_err(|e| in_file(e.into()))
}
pub use level::{Dir, Level, SolvedRule, Square};
pub use rules::{Move, Position};

#[cfg(test)]
mod tests {
    #[test]
    fn read_levels_takes_a_byte_order_mark_and_crlf_and_names_the_file_in_errors() {
        let dir = std::env::temp_dir().join(format!("sokoban-read-levels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("crlf.xsb");
        std::fs::write(&good, "\u{feff}#####\r\n#@$.#\r\n#####\r\n").unwrap();
        assert_eq!(super::read_levels(&good).unwrap().len(), 1);
        let bad = dir.join("bad.xsb");
        std::fs::write(&bad, "#####\n#@$x#\n#####\n").unwrap();
        let message = super::read_levels(&bad).unwrap_err().to_string();
        assert!(message.contains("bad.xsb") && message.contains("line 2, column 4"), "{message}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
