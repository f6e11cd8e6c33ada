//! The XSB/SOK text format: `#` wall, `$` box, `.` goal, `@` player, `*` box on goal, `+` player
//! on goal, space, `-` or `_` floor.
//!
//! A file holds any number of levels. A level is a run of board rows; a blank line or a text line
//! ends it. Text lines before a board (usually `;` comments) belong to that board: the last one is
//! its title unless a `Title:` line says otherwise. `Key: value` lines right after a board (the
//! style of some collections) belong to the board above. Rows may be indented and of different
//! lengths. Run-length encoded rows are accepted: a decimal count repeats the next character and
//! `|` separates rows (`4#|#.@#|#$ #|4#`).
//!
//! A line is taken as a board row when its first non-blank character is `#`, or when it is made
//! only of board characters (and digits and `|` for RLE) with at least one `#`. Inside a board row
//! any other character is an error reported with its line and column.

use super::Picked;
use crate::error::{ParseError, ParseErrorKind};
use crate::level::{BuildOptions, Level, Meta, RawBoard, RawCell, Tile};

const BOARD_CHARS: &str = "#$.@*+ -_!";

/// The cell an XSB board character stands for (shared with the warehouse format).
pub(crate) fn cell_of(ch: char) -> Option<RawCell> {
    let (wall, goal, box_, player) = match ch {
        '#' => (true, false, false, false),
        ' ' | '-' | '_' => (false, false, false, false),
        '.' => (false, true, false, false),
        '$' => (false, false, true, false),
        '*' => (false, true, true, false),
        '@' => (false, false, false, true),
        // `!` is the warehouse format's spelling of a player on a goal.
        '+' | '!' => (false, true, false, true),
        _ => return None,
    };
    Some(RawCell { wall, goal, box_, player })
}

pub(crate) fn is_board_line(line: &str) -> bool {
    let t = line.trim_start();
    let Some(first) = t.chars().next() else { return false };
    if first == '#' {
        return true;
    }
    let rle_ok = t.chars().all(|c| BOARD_CHARS.contains(c) || c.is_ascii_digit() || c == '|');
    rle_ok && t.contains('#')
}

/// A row of a board line: the column where it starts, and its (char, 1-based column) cells.
type ExpandedRow = (usize, Vec<(char, usize)>);

/// Splits a board line (possibly run-length encoded) into rows of (char, 1-based column), each
/// with the column where it starts (for an empty row, the only position it has).
fn expand_line(line: &str, line_no: usize) -> Result<Vec<ExpandedRow>, ParseError> {
    let mut starts = vec![1];
    let mut rows = vec![Vec::new()];
    let mut count: Option<(usize, usize)> = None; // (value, column where it started)
    for (i, ch) in line.chars().enumerate() {
        let col = i + 1;
        if ch.is_ascii_digit() {
            let v = count.map_or(0, |(v, _)| v) * 10 + ch.to_digit(10).unwrap_or(0) as usize;
            if v > crate::level::MAX_SIDE * 4 {
                let kind =
                    ParseErrorKind::TooLarge { what: "a run length", actual: v, limit: crate::level::MAX_SIDE * 4 };
                return Err(ParseError::new(kind, line_no, col));
            }
            count = Some((v, count.map_or(col, |(_, c)| c)));
            continue;
        }
        if ch == '|' {
            if let Some((_, c)) = count {
                return Err(ParseError::new(ParseErrorKind::BadRle("a count before `|`"), line_no, c));
            }
            rows.push(Vec::new());
            starts.push(col + 1);
            continue;
        }
        if cell_of(ch).is_none() {
            return Err(ParseError::new(ParseErrorKind::UnknownCharacter(ch), line_no, col));
        }
        let n = match count.take() {
            Some((0, c)) => return Err(ParseError::new(ParseErrorKind::BadRle("a count of zero"), line_no, c)),
            Some((v, _)) => v,
            None => 1,
        };
        let row = rows.last_mut().expect("rows is never empty");
        row.extend(std::iter::repeat_n((ch, col), n));
        if row.len() > crate::level::MAX_SIDE {
            let kind = ParseErrorKind::TooLarge {
                what: "the row length",
                actual: line.chars().count().max(row.len()),
                limit: crate::level::MAX_SIDE,
            };
            return Err(ParseError::new(kind, line_no, crate::level::MAX_SIDE + 1));
        }
    }
    if let Some((_, c)) = count {
        return Err(ParseError::new(ParseErrorKind::BadRle("a count with nothing after it"), line_no, c));
    }
    Ok(starts.into_iter().zip(rows).collect())
}

/// Splits "Key: value" lines; the key is a single word.
fn key_value(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once(':')?;
    let k = k.trim();
    (!k.is_empty() && k.chars().all(|c| c.is_alphanumeric() || c == '_') && !line.trim_start().starts_with(';'))
        .then_some((k, v.trim()))
}

/// Whether a text line right before a board reads back as exactly `title` (no `;` to strip, no
/// surrounding blanks, not a `Title:` line that would give only its value).
pub(crate) fn reads_as_title(title: &str) -> bool {
    comment_text(title) == title && !key_value(title).is_some_and(|(k, _)| k.eq_ignore_ascii_case("title"))
}

fn comment_text(line: &str) -> String {
    let t = line.trim();
    let t = t.strip_prefix(';').unwrap_or(t);
    t.strip_prefix(' ').unwrap_or(t).trim_end().to_string()
}

fn meta_from(pending: Vec<String>) -> Meta {
    let mut meta = Meta::default();
    let mut free = Vec::new();
    for line in pending {
        match key_value(&line) {
            Some((k, v)) if k.eq_ignore_ascii_case("title") => meta.title = Some(v.to_string()),
            _ => free.push(comment_text(&line)),
        }
    }
    if meta.title.is_none() {
        meta.title = free.pop().filter(|t| !t.is_empty());
    }
    meta.comments = free;
    meta
}

/// Parses every level of an XSB text.
pub fn parse(text: &str, opts: BuildOptions) -> Result<Vec<Level>, ParseError> {
    parse_each(text, opts)?.into_iter().collect()
}

/// Parses an XSB text level by level: one bad level does not hide the others. The outer error is
/// for a text with no level at all or an absurdly long line.
pub fn parse_each(text: &str, opts: BuildOptions) -> Result<Vec<Result<Level, ParseError>>, ParseError> {
    Ok(parse_where(text, opts, &mut |_| true)?.into_levels())
}

/// Like [`parse_each`], but builds only the levels whose 0-based index `keep` accepts (the others
/// are counted, not built, so picking one level of a huge file stays cheap).
pub fn parse_where(text: &str, opts: BuildOptions, keep: &mut dyn FnMut(usize) -> bool) -> Result<Picked, ParseError> {
    let text = &*super::normalize(text);
    // Kept boards: (index, board, metadata, the first error of its rows).
    let mut boards: Vec<(usize, RawBoard, Meta, Option<ParseError>)> = Vec::new();
    let mut count = 0;
    let mut pending: Vec<String> = Vec::new();
    // The board being read: whether it is kept (its rows are only read then).
    let mut current: Option<bool> = None;
    // Whether the last board ended at a text line, so `Key: value` lines belong to it.
    let mut after_board = false;

    for (i, raw_line) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let line = raw_line.strip_suffix('\r').unwrap_or(raw_line);
        if line.chars().count() > crate::level::MAX_SIDE * 64 {
            let kind = ParseErrorKind::TooLarge {
                what: "the line length",
                actual: line.chars().count(),
                limit: crate::level::MAX_SIDE * 64,
            };
            return Err(ParseError::new(kind, line_no, crate::level::MAX_SIDE * 64 + 1));
        }
        if line.trim().is_empty() {
            current = None;
            after_board = false;
            continue;
        }
        if is_board_line(line) {
            if current.is_none() {
                let meta = meta_from(std::mem::take(&mut pending));
                count += 1;
                let kept = keep(count - 1);
                if kept {
                    boards.push((count - 1, RawBoard::default(), meta, None));
                }
                current = Some(kept);
            }
            if current != Some(true) {
                continue;
            }
            let (_, board, _, broken) = boards.last_mut().expect("a kept board was pushed");
            match expand_line(line, line_no) {
                Ok(rows) => {
                    for (start, row) in rows {
                        board.rows.push(row.iter().map(|&(ch, _)| cell_of(ch).unwrap_or_default()).collect());
                        let at: Vec<(usize, usize)> = if row.is_empty() {
                            vec![(line_no, start)]
                        } else {
                            row.iter().map(|&(_, col)| (line_no, col)).collect()
                        };
                        board.positions.push(at);
                    }
                }
                Err(e) => {
                    broken.get_or_insert(e);
                }
            }
            continue;
        }
        if current.take().is_some() {
            after_board = true;
        }
        // `Key: value` lines right after a board belong to it (when it is kept).
        match (after_board, key_value(line)) {
            (true, Some((k, v))) => {
                if let Some((index, _, meta, _)) = boards.last_mut()
                    && *index + 1 == count
                {
                    if k.eq_ignore_ascii_case("title") {
                        meta.title = Some(v.to_string());
                    } else {
                        meta.comments.push(line.trim().to_string());
                    }
                }
            }
            _ => {
                after_board = false;
                pending.push(line.to_string());
            }
        }
    }
    if count == 0 {
        let lines = text.split('\n').count();
        return Err(ParseError::new(ParseErrorKind::Empty, lines.max(1), 1));
    }
    let levels = boards
        .into_iter()
        .map(|(i, raw, meta, broken)| match broken {
            Some(e) => (i, Err(e)),
            None => (i, Level::from_raw(raw, meta, opts)),
        })
        .collect();
    Ok(Picked { count, levels })
}

/// The XSB character for a cell of the start position.
pub fn cell_char(cell: RawCell) -> char {
    match (cell.wall, cell.goal, cell.box_, cell.player) {
        (true, ..) => '#',
        (_, true, true, _) => '*',
        (_, true, _, true) => '+',
        (_, true, ..) => '.',
        (_, _, true, _) => '$',
        (_, _, _, true) => '@',
        _ => ' ',
    }
}

/// The board rows of a level's start position in XSB, trailing spaces removed.
pub fn board_rows(level: &Level) -> Vec<String> {
    raw_rows(level, &level.to_raw())
}

/// The XSB rows of a board of this level, trailing spaces removed: the start position
/// ([`Level::to_raw`]) or any other (`rules::Position::to_raw`).
pub fn raw_rows(level: &Level, raw: &RawBoard) -> Vec<String> {
    rows_with(level, raw, cell_char)
}

/// The rows of a board of this level with each cell spelled by `spell` and the outside as
/// spaces, trailing spaces removed.
pub(crate) fn rows_with(level: &Level, raw: &RawBoard, spell: impl Fn(RawCell) -> char) -> Vec<String> {
    raw.rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let s: String = row
                .iter()
                .enumerate()
                .map(|(c, &cell)| if level.tile(r, c) == Tile::Outside { ' ' } else { spell(cell) })
                .collect();
            s.trim_end().to_string()
        })
        .collect()
}

/// The lines written above a board for its comments and title, so that reading them back gives
/// the same title: comments as `;` lines, then the title as the last `;` line (`Title:` when it
/// is empty), or, for an untitled level with comments, an empty `;` line (which the reader does
/// not take as a title).
pub(crate) fn meta_lines(level: &Level) -> Vec<String> {
    let mut lines: Vec<String> = level.comments().iter().map(|c| format!("; {c}")).collect();
    match level.title() {
        Some("") => lines.push("Title:".to_string()),
        Some(t) => lines.push(format!("; {t}")),
        None if !lines.is_empty() => lines.push(";".to_string()),
        None => {}
    }
    lines
}

/// Writes one level: its comments and title as `;` lines, then the board.
pub fn write(level: &Level) -> String {
    let mut out = String::new();
    for line in meta_lines(level) {
        out.push_str(&line);
        out.push('\n');
    }
    for row in board_rows(level) {
        out.push_str(&row);
        out.push('\n');
    }
    out
}

/// Writes a collection, levels separated by blank lines.
pub fn write_all(levels: &[Level]) -> String {
    levels.iter().map(write).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::SolvedRule;

    fn one(text: &str) -> Result<Level, ParseError> {
        parse(text, BuildOptions::default()).map(|mut v| v.remove(0))
    }

    #[test]
    fn parses_titles_and_comments() {
        let text = "; header\n; Level A\n####\n#@$.#\n####\n\nTitle: B\n#####\n#.$@#\n#####\n";
        let levels = parse(text, BuildOptions::default()).unwrap();
        assert_eq!(levels.len(), 2);
        assert_eq!(levels[0].title(), Some("Level A"));
        assert_eq!(levels[0].comments(), ["header"]);
        assert_eq!(levels[1].title(), Some("B"));
    }

    #[test]
    fn title_after_board_belongs_to_it() {
        let text = "####\n#@$.#\n#####\nTitle: First\nAuthor: X\n\n#####\n#.$@#\n#####\nTitle: Second\n";
        let levels = parse(text, BuildOptions::default()).unwrap();
        assert_eq!(levels[0].title(), Some("First"));
        assert_eq!(levels[1].title(), Some("Second"));
    }

    #[test]
    fn rle_rows_expand() {
        let plain = one("#####\n#@$.#\n#####\n").unwrap();
        let rle = one("5#|#@$.#|5#\n").unwrap();
        assert_eq!(board_rows(&plain), board_rows(&rle));
        let split = one("5#\n#@$.#\n5#\n").unwrap();
        assert_eq!(board_rows(&plain), board_rows(&split));
    }

    #[test]
    fn rle_errors_have_columns() {
        let e = one("5#|#@$.#|5#3\n").unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (ParseErrorKind::BadRle("a count with nothing after it"), 1, 12));
    }

    #[test]
    fn a_bad_level_does_not_hide_the_others() {
        let text = "#####\n#@$.#\n#####\n\n#####\n#@X.#\n#####\n\n#####\n#.$@#\n#####\n";
        let each = parse_each(text, BuildOptions::default()).unwrap();
        assert_eq!(each.len(), 3);
        assert!(each[0].is_ok() && each[2].is_ok());
        let e = each[1].as_ref().unwrap_err();
        assert_eq!((&e.kind, e.line, e.column), (&ParseErrorKind::UnknownCharacter('X'), 6, 3));
    }

    #[test]
    fn write_parse_round_trip() {
        let text = "; T\n  ####\n###  #\n#@$ .#\n######\n";
        let l = one(text).unwrap();
        assert_eq!(one(&write(&l)).unwrap(), l);
        assert_eq!(l.rule(), SolvedRule::Standard);
    }
}
