//! Reading and writing level files.
//!
//! Each submodule owns one text format and turns it into [`crate::level::RawBoard`]s; validation
//! happens once, in [`crate::level::Level::from_raw`]:
//!
//! | module | format | levels per file | default rule | edges |
//! |---|---|---|---|---|
//! | [`xsb`] | XSB/SOK text | any | [`SolvedRule::Standard`] | must be closed |
//! | [`grid`] | CS161 integer grid (Lisp) | any | [`SolvedRule::AllBoxesOnGoals`] | walled |
//! | [`json`] | Snekoban JSON object grid | one | [`SolvedRule::AllGoalsCovered`] | walled |
//! | [`warehouse`] | CAB320 weighted warehouse | one | [`SolvedRule::Standard`] | must be closed |
//!
//! This module picks a format ([`detect`]: by extension, then by content) and dispatches reading
//! and writing. Writers refuse what the target cannot hold ([`WriteError`]): box weights outside
//! the warehouse format, several levels in a one-level format. A board whose floor reaches the
//! edge of the map (possible in the walled formats) is given a ring of wall when written as XSB or
//! warehouse, which need closed boards, so conversion between formats always works. The solved
//! rule is not stored in any file: it is the reader's option ([`default_options`]), so a level
//! whose boxes and goals differ in number needs the matching rule when read back.
//!
//! Round trip: a level read from format F, written in F and read again with the same options is
//! equal to the first (`tests/roundtrip.rs` checks it with a proptest). Readers refuse what no
//! writer can reproduce, and writers refuse titles or comments with line breaks (which only
//! [`Level::set_title`] can make). Every reader sees the text through [`normalize`] (no
//! byte-order mark, lone CRs as line ends). This module never uses `rules`: writers of a
//! position take its [`RawBoard`] ([`write_raw`]).

pub mod grid;
pub mod json;
pub mod warehouse;
pub mod xsb;

use std::borrow::Cow;
use std::path::Path;

use crate::error::{ParseError, WriteError};
use crate::level::{BuildOptions, Edges, Level, RawBoard, SolvedRule, SourceFormat, Tile};

/// What a selective parse ([`parse_where`]) returns: how many levels the text holds and the
/// levels it built, each with its 0-based index.
#[derive(Debug)]
pub struct Picked {
    /// How many levels the text holds, built or not.
    pub count: usize,
    /// The built levels, each with its 0-based index, in text order.
    pub levels: Vec<(usize, Result<Level, ParseError>)>,
}

impl Picked {
    /// The built levels (or why each failed), in text order, without their indices.
    pub fn into_levels(self) -> Vec<Result<Level, ParseError>> {
        self.levels.into_iter().map(|(_, l)| l).collect()
    }
}

/// The text as every reader sees it: a leading UTF-8 byte-order mark removed and lone carriage
/// returns (classic Mac line ends) turned into line feeds. CRLF stays (readers strip the CR), so
/// line numbers are those an editor shows; columns on the first line do not count the mark.
pub fn normalize(text: &str) -> Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let lone_cr = |i: usize| bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n');
    if !(0..bytes.len()).any(lone_cr) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(if c == '\r' && chars.peek() != Some(&'\n') { '\n' } else { c });
    }
    Cow::Owned(out)
}

/// Parses an XSB/SOK text with the standard rule.
pub fn parse_levels(text: &str) -> Result<Vec<Level>, ParseError> {
    xsb::parse(text, BuildOptions::default())
}

/// The rule, edge treatment and format tag a format's levels get by default.
pub fn default_options(format: SourceFormat) -> BuildOptions {
    let (rule, edges) = match format {
        SourceFormat::Xsb | SourceFormat::Warehouse => (SolvedRule::Standard, Edges::MustBeClosed),
        SourceFormat::Grid => (SolvedRule::AllBoxesOnGoals, Edges::Walled),
        SourceFormat::Json => (SolvedRule::AllGoalsCovered, Edges::Walled),
    };
    BuildOptions { rule, edges, format }
}

/// The format of a file: by extension first (`.xsb`/`.sok` XSB, `.lisp`/`.lsp` grid, `.json`
/// JSON, `.txt` warehouse when [`warehouse::looks_like`] says so), otherwise by content: a first
/// significant character (after blanks and Lisp comments) of `(` or `'` means grid, `[` JSON, a
/// first line of weights or a quoted title over a single board means warehouse, anything else XSB.
pub fn detect(path: &Path, text: &str) -> SourceFormat {
    let text = &*normalize(text);
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("xsb" | "sok") => SourceFormat::Xsb,
        Some("lisp" | "lsp") => SourceFormat::Grid,
        Some("json") => SourceFormat::Json,
        Some("txt") if warehouse::looks_like(text) => SourceFormat::Warehouse,
        _ => sniff(text),
    }
}

/// The format a text's content suggests.
fn sniff(text: &str) -> SourceFormat {
    match first_significant_char(text) {
        Some('(' | '\'') => return SourceFormat::Grid,
        Some('[') => return SourceFormat::Json,
        _ => {}
    }
    let first = text.split('\n').next().unwrap_or("").trim();
    if first.starts_with(|c: char| c.is_ascii_digit() || c == '\'' || c == '"') && warehouse::looks_like(text) {
        return SourceFormat::Warehouse;
    }
    SourceFormat::Xsb
}

/// The first character that is not blank or inside a `;` line comment or `#| … |#` comment.
fn first_significant_char(text: &str) -> Option<char> {
    let mut rest = text.trim_start();
    loop {
        if let Some(after) = rest.strip_prefix(';') {
            rest = after.split_once('\n').map_or("", |(_, next)| next).trim_start();
        } else if let Some(after) = rest.strip_prefix("#|") {
            rest = after.split_once("|#").map_or("", |(_, next)| next).trim_start();
        } else {
            return rest.chars().next();
        }
    }
}

/// Parses a file's text level by level, in the format [`detect`] chooses.
pub fn parse_each(text: &str, path: &Path) -> Result<Vec<Result<Level, ParseError>>, ParseError> {
    parse_each_as(text, detect(path, text))
}

/// Parses a text level by level in a given format with its [`default_options`]. One bad level
/// does not hide the others; the outer error is for a text with no level at all.
pub fn parse_each_as(text: &str, format: SourceFormat) -> Result<Vec<Result<Level, ParseError>>, ParseError> {
    parse_each_with(text, default_options(format))
}

/// Parses a text level by level in the format `opts.format` with explicit options (another rule,
/// say).
pub fn parse_each_with(text: &str, opts: BuildOptions) -> Result<Vec<Result<Level, ParseError>>, ParseError> {
    Ok(parse_where(text, opts, &mut |_| true)?.levels.into_iter().map(|(_, level)| level).collect())
}

/// Like [`parse_each_with`], but builds only the levels whose 0-based index `keep` accepts; the
/// others are counted, not built (so `--level 1` of a file of 100,000 levels stays cheap).
pub fn parse_where(text: &str, opts: BuildOptions, keep: &mut dyn FnMut(usize) -> bool) -> Result<Picked, ParseError> {
    match opts.format {
        SourceFormat::Xsb => xsb::parse_where(text, opts, keep),
        SourceFormat::Grid => grid::parse_where(text, opts, keep),
        SourceFormat::Json => one_level(json::parse_each(text, opts)?, keep),
        SourceFormat::Warehouse => one_level(warehouse::parse_each(text, opts)?, keep),
    }
}

/// The [`Picked`] of a one-level format.
fn one_level(
    levels: Vec<Result<Level, ParseError>>,
    keep: &mut dyn FnMut(usize) -> bool,
) -> Result<Picked, ParseError> {
    let count = levels.len();
    Ok(Picked { count, levels: levels.into_iter().enumerate().filter(|(i, _)| keep(*i)).collect() })
}

/// Parses every level of a text in a given format; the first error wins.
pub fn parse_as(text: &str, format: SourceFormat) -> Result<Vec<Level>, ParseError> {
    parse_each_as(text, format)?.into_iter().collect()
}

/// Writes a file holding one level, newline-terminated, with the metadata the format can hold
/// (XSB: comments and title; grid: a `(setq NAME '(…))` form with comments; warehouse: weights or
/// title; JSON: none).
pub fn write(level: &Level, format: SourceFormat) -> Result<String, WriteError> {
    write_all(std::slice::from_ref(level), format)
}

/// Writes a board of a level (a position drawn with `rules::Position::to_raw`, or the start from
/// [`Level::to_raw`]): the board alone (no title, comments or weights), newline-terminated.
/// Weights are not written because a position does not track which box is which.
pub fn write_raw(level: &Level, raw: &RawBoard, format: SourceFormat) -> Result<String, WriteError> {
    let text = match format {
        SourceFormat::Xsb | SourceFormat::Warehouse => {
            let rows = closed_rows(level, raw, format)?;
            rows.iter().map(|r| format!("{r}\n")).collect()
        }
        SourceFormat::Grid => grid::write_raw(level, raw) + "\n",
        SourceFormat::Json => json::write_raw(level, raw) + "\n",
    };
    Ok(text)
}

/// Refuses a title or comment the format cannot hold: a line break would end the `;` line (XSB,
/// grid) or the header line (warehouse) and spill into the board; a grid title is a Lisp symbol,
/// which the grid reader refuses to hold any control character.
fn check_meta(level: &Level, format: SourceFormat) -> Result<(), WriteError> {
    let broken = |t: &str| t.contains(['\n', '\r']);
    let what = if level.title().is_some_and(broken) {
        "a title with a line break"
    } else if format == SourceFormat::Grid && level.title().is_some_and(|t| t.chars().any(char::is_control)) {
        "a title with a control character"
    } else if format != SourceFormat::Warehouse && level.comments().iter().any(|c| broken(c)) {
        "a comment with a line break"
    } else {
        return Ok(());
    };
    Err(WriteError::CannotRepresent { format: format.name(), what: what.to_string() })
}

/// Writes a file holding these levels. XSB and grid take any number (levels separated by blank
/// lines); JSON and warehouse exactly one.
pub fn write_all(levels: &[Level], format: SourceFormat) -> Result<String, WriteError> {
    if format != SourceFormat::Warehouse
        && let Some(level) = levels.iter().find(|l| l.weights().iter().any(|&w| w != 0))
    {
        let what = match level.title() {
            Some(t) => format!("box weights (level {t:?} has nonzero weights)"),
            None => "box weights (a level has nonzero weights)".to_string(),
        };
        return Err(WriteError::CannotRepresent { format: format.name(), what });
    }
    if format != SourceFormat::Json {
        for level in levels {
            check_meta(level, format)?;
        }
    }
    match format {
        SourceFormat::Xsb => {
            let texts = levels.iter().map(write_xsb).collect::<Result<Vec<_>, _>>()?;
            Ok(texts.join("\n"))
        }
        SourceFormat::Grid => Ok(grid::write_all(levels)),
        SourceFormat::Json => Ok(json::write(single(levels, format)?) + "\n"),
        SourceFormat::Warehouse => {
            let level = single(levels, format)?;
            let mut out = warehouse::header_line(level);
            out.push('\n');
            for row in closed_rows(level, &level.to_raw(), format)? {
                out.push_str(&row);
                out.push('\n');
            }
            Ok(out)
        }
    }
}

fn single(levels: &[Level], format: SourceFormat) -> Result<&Level, WriteError> {
    match levels {
        [level] => Ok(level),
        [] => Err(WriteError::NoLevel { format: format.name() }),
        _ => Err(WriteError::TooManyLevels { format: format.name(), count: levels.len() }),
    }
}

/// One XSB level in the layout of [`xsb::write`]: comments and title as `;` lines, then the board,
/// closed by a wall ring if needed.
fn write_xsb(level: &Level) -> Result<String, WriteError> {
    let mut out = String::new();
    for line in xsb::meta_lines(level) {
        out.push_str(&line);
        out.push('\n');
    }
    for row in closed_rows(level, &level.to_raw(), SourceFormat::Xsb)? {
        out.push_str(&row);
        out.push('\n');
    }
    Ok(out)
}

/// The XSB (or warehouse) rows of a position, trailing spaces removed. Outside cells and floor
/// the player can never reach from the map's edge are spaces, which read back as the outside;
/// for walled levels, rows and columns made only of such spaces are dropped.
/// When the region connected to the edge holds the player, a box or a goal (so XSB would call the
/// board open), or a row would come out blank between others (which XSB reads as the end of a
/// level), the board is wrapped in a ring of wall.
fn closed_rows(level: &Level, raw: &RawBoard, format: SourceFormat) -> Result<Vec<String>, WriteError> {
    let (w, h) = (level.width(), level.height());
    let chars: Vec<Vec<char>> = raw
        .rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            row.iter()
                .enumerate()
                .map(|(c, &cell)| match level.tile(r, c) {
                    Tile::Outside => ' ',
                    _ if format == SourceFormat::Warehouse && cell.goal && cell.player => '!',
                    _ => xsb::cell_char(cell),
                })
                .collect()
        })
        .collect();

    // Flood the non-wall cells connected to the edge of the map.
    let mut seen = vec![false; w * h];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for r in 0..h {
        for c in 0..w {
            if (r == 0 || c == 0 || r + 1 == h || c + 1 == w) && level.tile(r, c) != Tile::Wall {
                seen[r * w + c] = true;
                stack.push((r, c));
            }
        }
    }
    let mut open = false;
    while let Some((r, c)) = stack.pop() {
        open |= chars[r][c] != ' ';
        let neighbours = [(r.wrapping_sub(1), c), (r + 1, c), (r, c.wrapping_sub(1)), (r, c + 1)];
        for (nr, nc) in neighbours {
            if nr < h && nc < w && !seen[nr * w + nc] && level.tile(nr, nc) != Tile::Wall {
                seen[nr * w + nc] = true;
                stack.push((nr, nc));
            }
        }
    }
    let rows: Vec<String> = chars.iter().map(|row| row.iter().collect::<String>().trim_end().to_string()).collect();
    let first = rows.iter().position(|r| !r.is_empty()).unwrap_or(0);
    let last = rows.iter().rposition(|r| !r.is_empty()).unwrap_or(0);
    let gap = rows[first..=last].iter().any(String::is_empty);
    if !open && !gap {
        let rows = &rows[first..=last];
        // Spaces left of a walled board are floor nobody reaches, not the file's indentation;
        // the warehouse parser removes common indentation, so its writer does too (a fixpoint).
        let indent = match (level.edges(), format) {
            (Edges::Walled, _) | (_, SourceFormat::Warehouse) => {
                rows.iter().filter(|r| !r.is_empty()).map(|r| r.len() - r.trim_start().len()).min()
            }
            (Edges::MustBeClosed, _) => None,
        };
        let rows = rows.iter().map(|r| r.get(indent.unwrap_or(0)..).unwrap_or("").to_string()).collect();
        return Ok(if format == SourceFormat::Warehouse { warehouse::padded(rows) } else { rows });
    }
    if w + 2 > crate::level::MAX_SIDE || h + 2 > crate::level::MAX_SIDE {
        let what = "a board open to the edge at the maximum size (it needs a ring of wall)".to_string();
        return Err(WriteError::CannotRepresent { format: format.name(), what });
    }
    let border = "#".repeat(w + 2);
    let mut out = vec![border.clone()];
    out.extend(chars.iter().map(|row| format!("#{}#", row.iter().collect::<String>())));
    out.push(border);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection() {
        let p = Path::new;
        assert_eq!(detect(p("a.xsb"), "(1)"), SourceFormat::Xsb);
        assert_eq!(detect(p("a.LSP"), ""), SourceFormat::Grid);
        assert_eq!(detect(p("a.json"), ""), SourceFormat::Json);
        assert_eq!(detect(p("a.txt"), " \n ###\n #@#\n ###\n"), SourceFormat::Warehouse);
        assert_eq!(detect(p("a.txt"), "; one\n###\n#@#\n###\n"), SourceFormat::Xsb);
        assert_eq!(detect(p("a"), ";(80,7)\n#| x |#\n(setq p1 '((3)))"), SourceFormat::Grid);
        assert_eq!(detect(p("a"), "  [[[\"player\"]]]"), SourceFormat::Json);
        assert_eq!(detect(p("a"), "1 2\n####\n#@$.#\n####\n"), SourceFormat::Warehouse);
        assert_eq!(detect(p("a"), "; (c) me\n####\n#@$.#\n####\n"), SourceFormat::Xsb);
        assert_eq!(detect(p("a"), "4#|#@$.#|4#"), SourceFormat::Xsb);
    }

    #[test]
    fn open_boards_get_a_wall_ring_in_xsb() {
        let level = grid::parse("((3 2 4))", default_options(SourceFormat::Grid)).unwrap().remove(0);
        let text = write(&level, SourceFormat::Xsb).unwrap();
        assert_eq!(text, "#####\n#@$.#\n#####\n");
        let back = parse_as(&text, SourceFormat::Xsb).unwrap().remove(0);
        assert_eq!(back.square_count(), 3);
    }

    #[test]
    fn unreachable_outside_floor_is_dropped_not_ringed() {
        let text = r#"[[[],["wall"],["wall"],["wall"],["wall"],["wall"]],[[],["wall"],["player"],["computer"],["target"],["wall"]],[[],["wall"],["wall"],["wall"],["wall"],["wall"]],[[],[],[],[],[],[]]]"#;
        let level = parse_as(text, SourceFormat::Json).unwrap().remove(0);
        assert_eq!(write(&level, SourceFormat::Xsb).unwrap(), "#####\n#@$.#\n#####\n");
    }

    #[test]
    fn one_level_formats_refuse_more() {
        let levels = parse_levels("####\n#@$.#\n#####\n\n#####\n#.$@#\n#####\n").unwrap();
        let e = write_all(&levels, SourceFormat::Json).unwrap_err();
        assert_eq!(e, WriteError::TooManyLevels { format: "json", count: 2 });
        assert!(matches!(write_all(&[], SourceFormat::Warehouse), Err(WriteError::NoLevel { .. })));
        assert_eq!(write_all(&levels, SourceFormat::Xsb).unwrap(), xsb::write_all(&levels));
    }

    #[test]
    fn weights_only_fit_the_warehouse_format() {
        let level = parse_as("3\n#####\n#@$.#\n#####\n", SourceFormat::Warehouse).unwrap().remove(0);
        assert_eq!(level.weights(), [3]);
        for format in [SourceFormat::Xsb, SourceFormat::Grid, SourceFormat::Json] {
            assert!(matches!(write(&level, format), Err(WriteError::CannotRepresent { .. })), "{format:?}");
        }
        assert_eq!(write(&level, SourceFormat::Warehouse).unwrap(), "3\n#####\n#@$.#\n#####\n");
    }
}
