//! The JSON object grid of the MIT 6.101 "Snekoban" lab: a list of rows, top to bottom, each a
//! list of cells, each a list of the objects on it among `"wall"`, `"computer"` (a box),
//! `"target"` (a goal) and `"player"`, in any order:
//!
//! ```text
//! [[["wall"], ["wall"], ["wall"], ["wall"]],
//!  [["wall"], ["player"], ["computer"], ["target"]],
//!  [["wall"], ["wall"], ["wall"], ["wall"]]]
//! ```
//!
//! A file holds exactly one level and no metadata. Beyond the grid everything counts as wall
//! ([`crate::level::Edges::Walled`]), so the empty cells the lab writes outside the walls are
//! (unreachable) squares. The module owns reading (syntax checked by `serde_json`, then the shape
//! checked here, with the line and column of the offending value) and writing compact JSON with
//! objects in the fixed order wall, target, computer, player, and the outside written as `[]`.

use serde_json::Value;

use crate::error::{ParseError, ParseErrorKind};
use crate::level::{BuildOptions, Level, Meta, RawBoard, RawCell, Tile};

/// 1-based (line, column).
type Pos = (usize, usize);

/// Calls `found` with the array path and position of every value that starts inside nested
/// arrays only (the top-level value has the empty path); stops when `found` returns true. The
/// text must be valid JSON.
fn scan(text: &str, mut found: impl FnMut(&[usize], Pos) -> bool) {
    // One entry per open container: `Some(index)` for arrays, `None` for objects.
    let mut open: Vec<Option<usize>> = Vec::new();
    let mut path: Vec<usize> = Vec::new();
    let mut value_next = true;
    let (mut in_string, mut escaped) = (false, false);
    let (mut line, mut col) = (1, 0);
    for ch in text.chars() {
        if ch == '\n' {
            line += 1;
            col = 0;
        } else {
            col += 1;
        }
        if in_string {
            match (escaped, ch) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if ch.is_whitespace() {
            continue;
        }
        if value_next && ch != ']' {
            value_next = false;
            if open.iter().all(Option::is_some) && found(&path, (line, col)) {
                return;
            }
        }
        match ch {
            '[' => {
                open.push(Some(0));
                path.push(0);
                value_next = true;
            }
            '{' => open.push(None),
            ']' => {
                open.pop();
                path.pop();
                value_next = false;
            }
            '}' => {
                open.pop();
            }
            ',' => {
                if let Some(Some(i)) = open.last_mut() {
                    *i += 1;
                    if let Some(last) = path.last_mut() {
                        *last = *i;
                    }
                    value_next = true;
                }
            }
            '"' => in_string = true,
            _ => {}
        }
    }
}

/// Where the value at an array path starts, or (1, 1) if it cannot be found.
fn locate(text: &str, target: &[usize]) -> Pos {
    let mut at = (1, 1);
    scan(text, |path, pos| {
        let hit = path == target;
        if hit {
            at = pos;
        }
        hit
    });
    at
}

/// Where every cell (a value two arrays deep) starts, by row.
fn cell_positions(text: &str) -> Vec<Vec<Pos>> {
    let mut rows: Vec<Vec<Pos>> = Vec::new();
    scan(text, |path, pos| {
        if let [r, _] = *path {
            if rows.len() <= r {
                rows.resize(r + 1, Vec::new());
            }
            rows[r].push(pos);
        }
        false
    });
    rows
}

fn syntax(msg: impl Into<String>, (line, col): Pos) -> ParseError {
    ParseError::new(ParseErrorKind::Syntax(msg.into()), line, col)
}

/// Parses a JSON grid into its single level.
pub fn parse(text: &str, opts: BuildOptions) -> Result<Vec<Level>, ParseError> {
    parse_each(text, opts)?.into_iter().collect()
}

/// Parses a JSON grid. The outer error is for an empty text or invalid JSON; a well-formed JSON
/// value that is not a valid level gives one inner error.
pub fn parse_each(text: &str, opts: BuildOptions) -> Result<Vec<Result<Level, ParseError>>, ParseError> {
    let text = &*super::normalize(text);
    if text.trim().is_empty() {
        return Err(ParseError::new(ParseErrorKind::Empty, text.split('\n').count().max(1), 1));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        let message = e.to_string();
        // serde_json appends " at line L column C"; the position is reported separately.
        let message = message.split(" at line ").next().unwrap_or(&message).to_string();
        syntax(format!("invalid JSON: {message}"), (e.line().max(1), e.column().max(1)))
    })?;
    Ok(vec![level(&value, text, opts)])
}

fn level(value: &Value, text: &str, opts: BuildOptions) -> Result<Level, ParseError> {
    let Value::Array(rows) = value else {
        return Err(syntax("a JSON level is a list of rows", locate(text, &[])));
    };
    let mut raw = RawBoard::default();
    for (r, row) in rows.iter().enumerate() {
        let Value::Array(cells) = row else {
            return Err(syntax(format!("row {} is not a list of cells", r + 1), locate(text, &[r])));
        };
        let mut out = Vec::with_capacity(cells.len());
        for (c, cell) in cells.iter().enumerate() {
            let Value::Array(objects) = cell else {
                let msg = format!("the cell at row {}, column {} is not a list of objects", r + 1, c + 1);
                return Err(syntax(msg, locate(text, &[r, c])));
            };
            let mut raw_cell = RawCell::default();
            for (k, object) in objects.iter().enumerate() {
                let flag = match object.as_str() {
                    Some("wall") => &mut raw_cell.wall,
                    Some("computer") => &mut raw_cell.box_,
                    Some("target") => &mut raw_cell.goal,
                    Some("player") => &mut raw_cell.player,
                    Some(other) => {
                        let (l, col) = locate(text, &[r, c, k]);
                        return Err(ParseError::new(ParseErrorKind::UnknownObject(other.to_string()), l, col));
                    }
                    None => {
                        let msg = format!("objects are named by strings, not {object}");
                        return Err(syntax(msg, locate(text, &[r, c, k])));
                    }
                };
                *flag = true;
            }
            if raw_cell.wall && (raw_cell.box_ || raw_cell.goal || raw_cell.player) {
                return Err(syntax("a wall cannot share its cell with other objects", locate(text, &[r, c])));
            }
            out.push(raw_cell);
        }
        raw.rows.push(out);
    }
    let width = raw.rows.iter().map(Vec::len).max().unwrap_or(0);
    if width == 0 {
        let (l, c) = locate(text, &[]);
        return Err(ParseError::new(ParseErrorKind::Empty, l, c));
    }
    for row in &mut raw.rows {
        row.resize(width, RawCell { wall: true, ..RawCell::default() });
    }
    raw.positions = cell_positions(text);
    raw.positions.resize(raw.rows.len(), Vec::new());
    Level::from_raw(raw, Meta::default(), opts)
}

/// The start position as compact JSON, one level in the lab's shape.
pub fn write(level: &Level) -> String {
    write_raw(level, &level.to_raw())
}

/// A board of a level (the start or any position drawn with `rules::Position::to_raw`) as
/// compact JSON: `[[["wall"],[]],…]`.
pub fn write_raw(level: &Level, raw: &RawBoard) -> String {
    let rows: Vec<String> = raw
        .rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let cells: Vec<String> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| {
                    let mut names = Vec::new();
                    if level.tile(r, c) != Tile::Outside {
                        for (present, name) in [
                            (cell.wall, "\"wall\""),
                            (cell.goal, "\"target\""),
                            (cell.box_, "\"computer\""),
                            (cell.player, "\"player\""),
                        ] {
                            if present {
                                names.push(name);
                            }
                        }
                    }
                    format!("[{}]", names.join(","))
                })
                .collect();
            format!("[{}]", cells.join(","))
        })
        .collect();
    format!("[{}]", rows.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Edges, SolvedRule, SourceFormat};

    fn opts() -> BuildOptions {
        BuildOptions { rule: SolvedRule::AllGoalsCovered, edges: Edges::Walled, format: SourceFormat::Json }
    }

    #[test]
    fn parses_in_any_object_order_and_writes_a_fixed_one() {
        let text = r#"[[["wall"],["wall"],["wall"]],[["player"],["computer","target"],["target"]],[[],["wall"],[]]]"#;
        let level = parse(text, opts()).unwrap().remove(0);
        assert_eq!(level.boxes().len(), 1);
        assert_eq!(level.goals().len(), 2);
        let written = write(&level);
        assert_eq!(
            written,
            r#"[[["wall"],["wall"],["wall"]],[["player"],["target","computer"],["target"]],[[],["wall"],[]]]"#
        );
        assert_eq!(parse(&written, opts()).unwrap().remove(0), level);
    }

    #[test]
    fn unknown_objects_are_located() {
        let text = "[\n  [[\"wall\"], [\"player\"]],\n  [[], [\"target\", \"crate\"]]\n]";
        let e = parse(text, opts()).unwrap_err();
        assert_eq!((e.kind, e.line, e.column), (ParseErrorKind::UnknownObject("crate".into()), 3, 19));
    }

    #[test]
    fn shape_and_syntax_errors() {
        let e = parse("[[[\"player\"]], 3]", opts()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 16));
        let e = parse("[[[\"player\"], {\"a\": [1]}]]", opts()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 15));
        let e = parse("[[[\"wall\", \"player\"]]]", opts()).unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        let e = parse("[[[\"player\"]]\n,", opts()).unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::Syntax(_)));
        assert_eq!(e.line, 2);
        assert_eq!(parse("  ", opts()).unwrap_err().kind, ParseErrorKind::Empty);
        assert_eq!(parse("[]", opts()).unwrap_err().kind, ParseErrorKind::Empty);
        let e = parse("[[[\"player\"], [\"player\"]]]", opts()).unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::TwoPlayers { .. }));
        assert_eq!((e.line, e.column), (1, 15));
    }
}
