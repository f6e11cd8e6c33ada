//! The errors of reading and writing levels and moves.
//!
//! Every fallible public function returns [`crate::Error`] or one of its parts, and each part
//! converts into it, so `?` works in a function that returns [`crate::Error`]. The parts in
//! this module belong to the lowest layers (levels, formats, move strings) and use nothing else
//! of the crate; [`crate::Error`] itself lives at the crate's root, above every module, since
//! it also wraps the solver's errors. Parse errors carry the 1-based line and column of the
//! offending character so a user can find it in an editor; [`crate::read_levels`] and the
//! binary add the file name. Nothing in the library panics on bad input.

use std::fmt;

/// What went wrong while reading a level file. Each kind names one mistake a user can fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseErrorKind {
    /// The input holds no level at all (empty, or only comments).
    #[error("no level found in the input")]
    Empty,
    /// A board row holds a character that is not part of the format.
    #[error("unknown character {0:?} in a board row")]
    UnknownCharacter(char),
    /// The level has no player (`@` or `+`).
    #[error("the level has no player (`@` or `+`)")]
    NoPlayer,
    /// The level has more than one player; the position is that of the second.
    #[error("the level has a second player (the first is at line {first_line}, column {first_column})")]
    TwoPlayers {
        /// Line of the first player.
        first_line: usize,
        /// Column of the first player.
        first_column: usize,
    },
    /// The player can walk off the edge of the board: the walls do not enclose it.
    #[error("the board is not closed by walls: the player can walk off the map here")]
    OpenBoard,
    /// The player and a box on the same cell (possible in JSON grids); no format can write it.
    #[error("the player stands on a box: a cell holds either the player or a box")]
    PlayerOnBox,
    /// A row between board rows with no wall and no square: all of it lies outside the walls, so
    /// it would split the board in two when written (an empty run-length row, say).
    #[error("a board row with no wall inside a board (an empty run-length row?): it would split the board in two")]
    BlankRow,
    /// A box or goal lies outside the walls, where the player can never go.
    #[error("a {0} lies outside the walls, where the player cannot reach it")]
    OutsideWalls(&'static str),
    /// Under the standard rule the number of boxes must equal the number of goals.
    #[error(
        "the level has {} but {} (the standard rule needs them equal)",
        counted(*boxes, "box", "boxes"),
        counted(*goals, "goal", "goals")
    )]
    BoxGoalMismatch {
        /// Boxes on the board.
        boxes: usize,
        /// Goals on the board.
        goals: usize,
    },
    /// A row or the whole board is larger than the solver supports.
    #[error("the board is too large: {what} is {actual}, the limit is {limit}")]
    TooLarge {
        /// What is too large (a row's width, the number of squares, …).
        what: &'static str,
        /// Its size.
        actual: usize,
        /// The largest size supported.
        limit: usize,
    },
    /// A malformed run-length encoded row, such as a count with nothing after it.
    #[error("bad run-length encoding: {0}")]
    BadRle(&'static str),
    /// Text that is not valid in a structured format (integer grid, JSON, weights line).
    #[error("syntax error: {0}")]
    Syntax(String),
    /// An integer-grid cell that is not one of the codes 0 to 6.
    #[error(
        "unknown token {0:?} in an integer grid (cells are 0 floor, 1 wall, 2 box, 3 player, 4 goal, 5 box on goal, 6 player on goal)"
    )]
    UnknownToken(String),
    /// A JSON grid cell names an object other than `wall`, `computer`, `target` or `player`.
    #[error("unknown object {0:?} in a JSON grid cell (expected \"wall\", \"computer\", \"target\" or \"player\")")]
    UnknownObject(String),
    /// A warehouse file's first line is neither box weights, a quoted title, nor blank.
    #[error("bad weights line: {0}")]
    BadWeights(String),
    /// A warehouse weights line whose count differs from the number of boxes.
    #[error("the weights line gives {weights} weights for {boxes} boxes")]
    WeightCount {
        /// Weights on the line.
        weights: usize,
        /// Boxes on the board.
        boxes: usize,
    },
}

/// A parse error with the 1-based line and column where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What is wrong.
    pub kind: ParseErrorKind,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
}

impl ParseError {
    /// An error of `kind` at `line` and `column` (both 1-based).
    pub fn new(kind: ParseErrorKind, line: usize, column: usize) -> Self {
        ParseError { kind, line, column }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.kind)
    }
}

impl std::error::Error for ParseError {}

/// A move string that is not LURD.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {index} (0-based) is {found:?}, not a direction (l u r d in either case, or up/right/down/left)")]
pub struct MoveParseError {
    /// 0-based index of the offending move: among the non-blank characters of a LURD string, or
    /// among the items of a JSON array or word list.
    pub index: usize,
    /// What stands there: the character, word or JSON value.
    pub found: String,
}

/// Why a level cannot be written in a format. Writers never drop information silently: what the
/// target format cannot hold is reported here instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// The format holds exactly one level per file (JSON, warehouse) but more were given.
    #[error("the {format} format holds one level per file, but {count} levels were given")]
    TooManyLevels {
        /// The format's name.
        format: &'static str,
        /// Levels given.
        count: usize,
    },
    /// A one-level format was asked to write no level at all.
    #[error("the {format} format needs exactly one level, but none was given")]
    NoLevel {
        /// The format's name.
        format: &'static str,
    },
    /// Part of the level has no spelling in the format, such as box weights in XSB.
    #[error("the {format} format cannot represent {what}")]
    CannotRepresent {
        /// The format's name.
        format: &'static str,
        /// What it cannot hold.
        what: String,
    },
}

/// `n` with the singular or plural noun, as messages say it ("1 goal", "2 boxes").
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
