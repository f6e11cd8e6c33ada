//! The warehouse text of the QUT CAB320 assignment (weighted-boxes edition): one XSB board per
//! file, `!` being the player on a goal, under an optional header line:
//!
//! ```text
//! 2 6
//!  ####
//!  # .#
//!  #  ###
//!  #*@  #
//!  #  $ #
//!  #  ###
//!  ####
//! ```
//!
//! The first line is the header when it is blank, a list of whole-number box weights (in reading
//! order of the boxes, one per box), or a quoted title (`'Lockdown'`). A first line that is a board
//! row means there is no header. Missing weights mean weight 0 for every box. The board may be
//! indented (the common indentation is removed, as are trailing blanks) and may have CRLF line
//! ends. Every bundled
//! warehouse has as many boxes as goals, so the default rule is the standard one.
//!
//! The module owns reading, the format sniffing [`looks_like`], and writing: the header line
//! holds the weights when any is nonzero, else the quoted title, else nothing; board rows are
//! padded with spaces to the board's width, as the course's `Warehouse.__str__` prints them.

use super::xsb::cell_of;
use crate::error::{ParseError, ParseErrorKind};
use crate::level::{BuildOptions, Level, Meta, RawBoard, RawCell};

/// A line is a board row when it starts (after blanks) with `#`, or is made only of board
/// characters with a `#` among them.
fn is_board_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with('#') || (t.contains('#') && t.chars().all(|c| cell_of(c).is_some()))
}

/// What the first line says.
enum Header {
    /// Blank, or absent (the first line is already a board row).
    None,
    Title(String),
    /// The weights and the column where the first one starts.
    Weights(Vec<u32>, usize),
}

fn lines(text: &str) -> impl Iterator<Item = &str> {
    text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l))
}

/// Reads the header line (line 1). Returns whether it is a header (false: a board row).
fn header(first: &str) -> Result<(Header, bool), ParseError> {
    let trimmed = first.trim();
    if trimmed.is_empty() {
        return Ok((Header::None, true));
    }
    if let Some(quote) = trimmed.chars().next().filter(|&q| q == '\'' || q == '"') {
        let inner = &trimmed[1..];
        let inner = inner.strip_suffix(quote).unwrap_or(inner);
        return Ok((Header::Title(inner.to_string()), true));
    }
    if is_board_line(first) {
        return Ok((Header::None, false));
    }
    let mut weights = Vec::new();
    let mut first_col = None;
    let mut col = 1;
    for word in first.split(' ') {
        // Columns count characters; split on single spaces so they stay exact.
        if !word.trim().is_empty() {
            let start = col + word.chars().take_while(|c| c.is_whitespace()).count();
            first_col.get_or_insert(start);
            match word.trim().parse::<u32>() {
                Ok(w) => weights.push(w),
                Err(_) => {
                    let msg = format!("`{}` is not a whole-number box weight", word.trim());
                    return Err(ParseError::new(ParseErrorKind::BadWeights(msg), 1, start));
                }
            }
        }
        col += word.chars().count() + 1;
    }
    Ok((Header::Weights(weights, first_col.unwrap_or(1)), true))
}

/// The board rows after the header: one block of board lines, de-indented.
fn board(text: &str, skip: usize) -> Result<Option<RawBoard>, ParseError> {
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let mut ended = false;
    for (i, line) in lines(text).enumerate().skip(skip) {
        let line_no = i + 1;
        if line.trim().is_empty() {
            ended = !rows.is_empty();
            continue;
        }
        if ended {
            let col = line.chars().take_while(|c| c.is_whitespace()).count() + 1;
            let msg = "a warehouse file holds one board, but more text follows it after a blank line";
            return Err(ParseError::new(ParseErrorKind::Syntax(msg.into()), line_no, col));
        }
        if line.chars().count() > crate::level::MAX_SIDE * 4 {
            let kind = ParseErrorKind::TooLarge {
                what: "the line length",
                actual: line.chars().count(),
                limit: crate::level::MAX_SIDE * 4,
            };
            return Err(ParseError::new(kind, line_no, crate::level::MAX_SIDE + 1));
        }
        // Trailing blanks are outside cells, the same as no cells at all.
        rows.push((line_no, line.trim_end()));
    }
    if rows.is_empty() {
        return Ok(None);
    }
    let indent = rows.iter().map(|(_, l)| l.chars().take_while(|&c| c == ' ').count()).min().unwrap_or(0);
    let mut raw = RawBoard::default();
    for (line_no, line) in rows {
        let mut cells = Vec::new();
        let mut at = Vec::new();
        for (i, ch) in line.chars().enumerate().skip(indent) {
            let cell =
                cell_of(ch).ok_or_else(|| ParseError::new(ParseErrorKind::UnknownCharacter(ch), line_no, i + 1))?;
            cells.push(cell);
            at.push((line_no, i + 1));
        }
        raw.rows.push(cells);
        raw.positions.push(at);
    }
    Ok(Some(raw))
}

/// Parses a warehouse text into its single level.
pub fn parse(text: &str, opts: BuildOptions) -> Result<Vec<Level>, ParseError> {
    parse_each(text, opts)?.into_iter().collect()
}

/// Parses a warehouse text. The outer error is for a text without a board; a bad header or board
/// gives one inner error.
pub fn parse_each(text: &str, opts: BuildOptions) -> Result<Vec<Result<Level, ParseError>>, ParseError> {
    let text = &*super::normalize(text);
    if text.trim().is_empty() {
        return Err(ParseError::new(ParseErrorKind::Empty, lines(text).count().max(1), 1));
    }
    let first = lines(text).next().unwrap_or("");
    let (header, is_header) = match header(first) {
        Ok(h) => h,
        Err(e) => return Ok(vec![Err(e)]),
    };
    let raw = match board(text, usize::from(is_header)) {
        Ok(Some(raw)) => raw,
        Ok(None) => return Err(ParseError::new(ParseErrorKind::Empty, lines(text).count().max(1), 1)),
        Err(e) => return Ok(vec![Err(e)]),
    };
    let mut meta = Meta::default();
    match header {
        Header::None => {}
        Header::Title(t) => meta.title = Some(t),
        Header::Weights(weights, col) => {
            let boxes = raw.rows.iter().flatten().filter(|c| c.box_).count();
            if weights.len() != boxes {
                let kind = ParseErrorKind::WeightCount { weights: weights.len(), boxes };
                return Ok(vec![Err(ParseError::new(kind, 1, col))]);
            }
            meta.weights = weights;
        }
    }
    Ok(vec![Level::from_raw(raw, meta, opts)])
}

/// Whether a text is shaped like a warehouse file: a first line that is blank, starts with a digit
/// (weights; a bad weights line still counts, so that its error is the one reported), is a quoted
/// title or is a board row, then one block of board rows.
pub fn looks_like(text: &str) -> bool {
    let text = &*super::normalize(text);
    let mut all = lines(text);
    let first = all.next().unwrap_or("");
    let t = first.trim();
    let first_ok =
        t.is_empty() || t.starts_with(|c: char| c.is_ascii_digit() || c == '\'' || c == '"') || is_board_line(first);
    if !first_ok {
        return false;
    }
    let rest: Vec<&str> = if is_board_line(first) { lines(text).collect() } else { all.collect() };
    let nonblank: Vec<usize> = (0..rest.len()).filter(|&i| !rest[i].trim().is_empty()).collect();
    match (nonblank.first(), nonblank.last()) {
        (Some(&a), Some(&b)) => (a..=b).all(|i| is_board_line(rest[i])),
        _ => false,
    }
}

/// The header line to write: weights when any is nonzero, else the quoted title, else empty.
/// A level with both a title and weights loses its title (the format has one header line).
pub fn header_line(level: &Level) -> String {
    if level.weights().iter().any(|&w| w != 0) {
        let words: Vec<String> = level.weights().iter().map(u32::to_string).collect();
        words.join(" ")
    } else {
        level.title().map(|t| format!("'{t}'")).unwrap_or_default()
    }
}

/// The board rows of a board of this level (the start or any position drawn with
/// `rules::Position::to_raw`), `!` for the player on a goal and the outside as spaces, every row
/// padded to the board's width as the course prints boards. The board must be closed (see
/// [`crate::format::write`], which adds a wall ring to open boards).
pub fn raw_rows(level: &Level, raw: &RawBoard) -> Vec<String> {
    let spell = |cell: RawCell| if cell.goal && cell.player { '!' } else { super::xsb::cell_char(cell) };
    padded(super::xsb::rows_with(level, raw, spell))
}

/// Rows padded with spaces to the longest, as the course's `Warehouse.__str__` prints a board
/// (`'####  \n# .#  \n…'`); the reader ignores trailing blanks, so this reads back the same.
pub(crate) fn padded(rows: Vec<String>) -> Vec<String> {
    let width = rows.iter().map(|r| r.chars().count()).max().unwrap_or(0);
    rows.into_iter().map(|r| format!("{r:<width$}")).collect()
}

/// Writes a closed level: the header line, then the board.
pub fn write(level: &Level) -> String {
    let mut out = header_line(level);
    out.push('\n');
    for row in raw_rows(level, &level.to_raw()) {
        out.push_str(&row);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Edges, SolvedRule, SourceFormat};

    fn opts() -> BuildOptions {
        BuildOptions { rule: SolvedRule::Standard, edges: Edges::MustBeClosed, format: SourceFormat::Warehouse }
    }

    const BOARD: &str = " ####\n # .#\n #  ###\n #*@  #\n #  $ #\n #  ###\n ####\n";

    #[test]
    fn headers() {
        let plain = parse(&format!(" \n{BOARD}"), opts()).unwrap().remove(0);
        assert_eq!(plain.weights(), [0, 0]);
        assert_eq!(plain.width(), 6, "the common indentation is removed");
        let weighted = parse(&format!("2 6  \r\n{}", BOARD.replace('\n', "\r\n")), opts()).unwrap().remove(0);
        assert_eq!(weighted.weights(), [2, 6]);
        let titled = parse(&format!(" 'Lockdown'\n\n{BOARD}"), opts()).unwrap().remove(0);
        assert_eq!(titled.title(), Some("Lockdown"));
        let bare = parse(BOARD, opts()).unwrap().remove(0);
        assert_eq!(bare, plain);
    }

    #[test]
    fn round_trip() {
        for head in ["", "2 6", "'T'"] {
            let level = parse(&format!("{head}\n{BOARD}"), opts()).unwrap().remove(0);
            assert_eq!(parse(&write(&level), opts()).unwrap().remove(0), level);
        }
        let on_goal = parse("\n#####\n#!$ #\n#####\n", opts()).unwrap().remove(0);
        assert_eq!(write(&on_goal), "\n#####\n#!$ #\n#####\n");
    }

    #[test]
    fn header_errors() {
        let e = parse(&format!("1 x 3\n{BOARD}"), opts()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        assert!(matches!(e.kind, ParseErrorKind::BadWeights(_)));
        let e = parse(&format!("  1 2 3\n{BOARD}"), opts()).unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (ParseErrorKind::WeightCount { weights: 3, boxes: 2 }, 1, 3));
        let e = parse(&format!("\n{BOARD}\n####\n"), opts()).unwrap_err();
        assert_eq!((e.line, e.column), (10, 1));
        let e = parse("\n####\n#@x#\n####\n", opts()).unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (ParseErrorKind::UnknownCharacter('x'), 3, 3));
    }

    #[test]
    fn sniffing() {
        assert!(looks_like(&format!(" \n{BOARD}")));
        assert!(looks_like(&format!("1 x\n{BOARD}")));
        assert!(!looks_like(&format!("Level 1\n{BOARD}")));
        assert!(looks_like(&format!("3 4\n{BOARD}")));
        assert!(!looks_like(&format!("; Level 1\n{BOARD}")));
        assert!(!looks_like(&format!("\n{BOARD}\n{BOARD}")));
    }
}
