//! The integer-grid format of the UCLA CS161 course: a Lisp list of rows, top to bottom, each a
//! list of cell codes: 0 floor, 1 wall, 2 box, 3 player, 4 goal, 5 box on goal, 6 player on goal.
//!
//! ```text
//! ;(80,7)
//! (setq p1 '((1 1 1 1 1)
//!            (1 3 2 4 1)
//!            (1 1 1 1 1)))
//! ```
//!
//! A file holds either one bare grid (`((1 1 1) …)`, optionally quoted) or any number of named
//! problems `(setq NAME '(…))` (also `defparameter`, `defvar`, `defconstant`); the name becomes
//! the level's title. `;` line comments and `#| … |#` block comments are skipped; the run of `;`
//! comment lines directly above a problem becomes its [`Meta::comments`], except a `Title: X` line,
//! which overrides the title (the writer uses it for titles that are not Lisp symbols). Other Lisp
//! forms (`defun`, other variables) are skipped, so a whole homework file can be read.
//!
//! Beyond the grid everything counts as wall ([`crate::level::Edges::Walled`]); a row shorter than
//! the longest is padded with wall. The module owns reading (s-expressions to [`RawBoard`]s),
//! writing, and [`stated_depth`], which reads the optimal solution depth from a problem's comment.

use super::Picked;
use crate::error::{ParseError, ParseErrorKind};
use crate::level::{BuildOptions, Level, Meta, RawBoard, RawCell, Tile};

/// 1-based (line, column).
type Pos = (usize, usize);

/// A Lisp datum as far as this format needs it.
#[derive(Debug)]
enum Sexp {
    /// A symbol or number, as written (`|…|` symbols unescaped).
    Atom(String, Pos),
    List(Vec<Sexp>, Pos),
    /// `'x`.
    Quote(Box<Sexp>, Pos),
}

impl Sexp {
    fn pos(&self) -> Pos {
        match self {
            Sexp::Atom(_, p) | Sexp::List(_, p) | Sexp::Quote(_, p) => *p,
        }
    }
    /// The datum under a `'x` or `(quote x)`, or the datum itself.
    fn unquoted(&self) -> &Sexp {
        match self {
            Sexp::Quote(inner, _) => inner.unquoted(),
            Sexp::List(items, _) if items.len() == 2 && items[0].is_symbol("quote") => items[1].unquoted(),
            other => other,
        }
    }
    fn is_symbol(&self, name: &str) -> bool {
        matches!(self, Sexp::Atom(a, _) if a.eq_ignore_ascii_case(name))
    }
    /// A non-empty list whose items are all lists: the shape of a grid.
    fn is_grid_shaped(&self) -> bool {
        matches!(self, Sexp::List(items, _) if !items.is_empty() && items.iter().all(|i| matches!(i, Sexp::List(..))))
    }
}

/// What the reader returns: top-level forms and the `;` comments that stand alone on their line.
struct Read {
    forms: Vec<Sexp>,
    /// (line, text without the leading semicolons, trimmed).
    comment_lines: Vec<(usize, String)>,
}

fn syntax(msg: impl Into<String>, (line, col): Pos) -> ParseError {
    ParseError::new(ParseErrorKind::Syntax(msg.into()), line, col)
}

/// Deepest nesting of lists and quotes accepted; grids need 4, code rarely more than 30.
const MAX_DEPTH: usize = 256;

/// The characters of a text with their positions, and a cursor: the lexical half of [`read`].
struct Chars {
    chars: Vec<char>,
    /// Each character's position, and one past the end.
    positions: Vec<Pos>,
    /// The next character.
    i: usize,
}

impl Chars {
    fn new(text: &str) -> Chars {
        let chars: Vec<char> = text.chars().collect();
        let mut positions = Vec::with_capacity(chars.len() + 1);
        let (mut line, mut col) = (1, 1);
        for &ch in &chars {
            positions.push((line, col));
            if ch == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        positions.push((line, col));
        Chars { chars, positions, i: 0 }
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).copied()
    }

    /// Skips a `;` comment up to the end of its line; its text.
    fn line_comment(&mut self) -> String {
        let start = self.i;
        while self.peek(0).is_some_and(|c| c != '\n') {
            self.i += 1;
        }
        self.chars[start..self.i].iter().collect()
    }

    /// Skips a `#| … |#` block comment (they nest, as in Common Lisp) that starts at `pos`.
    fn block_comment(&mut self, pos: Pos) -> Result<(), ParseError> {
        let mut depth = 0usize;
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some('#'), Some('|')) => {
                    depth += 1;
                    self.i += 2;
                }
                (Some('|'), Some('#')) => {
                    depth -= 1;
                    self.i += 2;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                (Some(_), _) => self.i += 1,
                (None, _) => return Err(syntax("a `#|` block comment is never closed with `|#`", pos)),
            }
        }
    }

    /// A string (only found in code forms) that starts at `pos`, kept with its quotes.
    fn string(&mut self, pos: Pos) -> Result<String, ParseError> {
        let mut atom = String::from('"');
        self.i += 1;
        loop {
            match self.peek(0) {
                Some('\\') => {
                    let i = self.i;
                    atom.extend(self.chars.get(i..i + 2).unwrap_or(&self.chars[i..]));
                    self.i += 2;
                }
                Some('"') => {
                    atom.push('"');
                    self.i += 1;
                    return Ok(atom);
                }
                Some(c) => {
                    atom.push(c);
                    self.i += 1;
                }
                None => return Err(syntax("a string is never closed with `\"`", pos)),
            }
        }
    }

    /// A symbol or number, up to a blank or a delimiter; `|…|` quotes any characters into it.
    fn symbol(&mut self) -> Result<String, ParseError> {
        let mut atom = String::new();
        while let Some(c) = self.peek(0) {
            if c.is_whitespace() || "()';\"".contains(c) {
                break;
            }
            if c == '|' {
                self.bars(&mut atom)?;
                continue;
            }
            atom.push(c);
            self.i += 1;
        }
        Ok(atom)
    }

    /// The `|…|` part of a symbol, onto `atom`: any characters, `\` escaping inside.
    fn bars(&mut self, atom: &mut String) -> Result<(), ParseError> {
        let open = self.positions[self.i];
        self.i += 1;
        loop {
            match self.peek(0) {
                Some('\\') if self.i + 1 < self.chars.len() => {
                    atom.push(self.chars[self.i + 1]);
                    self.i += 2;
                }
                Some('|') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(c) => {
                    atom.push(c);
                    self.i += 1;
                }
                None => return Err(syntax("a `|` symbol is never closed", open)),
            }
        }
    }
}

/// An open list or quote while [`read`] reads.
enum Frame {
    List(Vec<Sexp>, Pos),
    Quote(Pos),
}

/// Hands a finished datum to the enclosing quote or list, or makes it a top-level form.
fn complete(mut datum: Sexp, stack: &mut Vec<Frame>, forms: &mut Vec<Sexp>) {
    loop {
        match stack.last_mut() {
            Some(Frame::Quote(p)) => {
                let p = *p;
                stack.pop();
                datum = Sexp::Quote(Box::new(datum), p);
            }
            Some(Frame::List(items, _)) => {
                items.push(datum);
                return;
            }
            None => {
                forms.push(datum);
                return;
            }
        }
    }
}

/// Reads the s-expressions of a text without recursion, and with bounded nesting so that nothing
/// later (matching, dropping) can overflow the stack.
fn read(text: &str) -> Result<Read, ParseError> {
    let mut chars = Chars::new(text);
    let mut forms = Vec::new();
    let mut comment_lines = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // Whether only blanks precede the current character on its line.
    let mut line_blank_so_far = true;
    while let Some(ch) = chars.peek(0) {
        let pos = chars.positions[chars.i];
        if ch == '\n' {
            line_blank_so_far = true;
            chars.i += 1;
            continue;
        }
        if ch.is_whitespace() {
            chars.i += 1;
            continue;
        }
        let was_blank = line_blank_so_far;
        line_blank_so_far = false;
        match ch {
            ';' => {
                let body = chars.line_comment();
                if was_blank {
                    comment_lines.push((pos.0, body.trim_start_matches(';').trim().to_string()));
                }
            }
            '#' if chars.peek(1) == Some('|') => chars.block_comment(pos)?,
            '(' | '\'' if stack.len() >= MAX_DEPTH => {
                return Err(syntax(format!("nested more than {MAX_DEPTH} levels deep"), pos));
            }
            '(' => {
                stack.push(Frame::List(Vec::new(), pos));
                chars.i += 1;
            }
            ')' => {
                match stack.pop() {
                    Some(Frame::List(items, p)) => complete(Sexp::List(items, p), &mut stack, &mut forms),
                    Some(Frame::Quote(_)) => return Err(syntax("`'` must be followed by a datum, not `)`", pos)),
                    None => return Err(syntax("unbalanced parentheses: this `)` closes nothing", pos)),
                }
                chars.i += 1;
            }
            '\'' => {
                stack.push(Frame::Quote(pos));
                chars.i += 1;
            }
            _ => {
                let atom = if ch == '"' { chars.string(pos)? } else { chars.symbol()? };
                complete(Sexp::Atom(atom, pos), &mut stack, &mut forms);
            }
        }
    }
    // Report the innermost construct left open.
    match stack.pop() {
        Some(Frame::List(_, p)) => Err(syntax("unbalanced parentheses: this `(` is never closed", p)),
        Some(Frame::Quote(p)) => Err(syntax("`'` at the end of the text quotes nothing", p)),
        None => Ok(Read { forms, comment_lines }),
    }
}

/// A problem found in the text: its name, the grid datum and the line where its form starts.
struct Problem<'a> {
    name: Option<String>,
    /// Where the name is written (or the form starts).
    at: Pos,
    grid: &'a Sexp,
    line: usize,
}

/// Picks the problems out of the top-level forms, skipping code.
fn problems(forms: &[Sexp]) -> Result<Vec<Problem<'_>>, ParseError> {
    const DEFINERS: [&str; 5] = ["setq", "setf", "defparameter", "defvar", "defconstant"];
    let mut out = Vec::new();
    for form in forms {
        let line = form.pos().0;
        let inner = form.unquoted();
        match inner {
            Sexp::List(items, _) if items.first().is_some_and(|h| DEFINERS.iter().any(|d| h.is_symbol(d))) => {
                // (setq a 'x b 'y …) or (defparameter a 'x [doc]).
                let pairs = if items[0].is_symbol("setq") || items[0].is_symbol("setf") {
                    items[1..].chunks(2).collect::<Vec<_>>()
                } else {
                    items.get(1..3).into_iter().collect()
                };
                for pair in pairs {
                    if let [Sexp::Atom(name, at), value] = pair
                        && value.unquoted().is_grid_shaped()
                    {
                        out.push(Problem { name: Some(name.clone()), at: *at, grid: value.unquoted(), line });
                    }
                }
            }
            Sexp::List(items, _) if items.first().is_some_and(|h| matches!(h, Sexp::List(..))) => {
                out.push(Problem { name: None, at: form.pos(), grid: inner, line });
            }
            Sexp::List(items, p) => match items.first() {
                None => return Err(ParseError::new(ParseErrorKind::Empty, p.0, p.1)),
                Some(Sexp::Atom(a, ap)) if a.parse::<i64>().is_ok() => {
                    return Err(syntax(
                        "expected a grid, a list of rows such as ((1 1 1) (1 3 1)), not a single row",
                        *ap,
                    ));
                }
                // Code such as (defun …): not a level.
                _ => {}
            },
            Sexp::Atom(a, p) => return Err(syntax(format!("expected a grid or (setq NAME '(…)), found `{a}`"), *p)),
            // `unquoted` has removed every quote.
            Sexp::Quote(..) => {}
        }
    }
    Ok(out)
}

fn cell_of(code: &str) -> Option<RawCell> {
    let (wall, goal, box_, player) = match code {
        "0" => (false, false, false, false),
        "1" => (true, false, false, false),
        "2" => (false, false, true, false),
        "3" => (false, false, false, true),
        "4" => (false, true, false, false),
        "5" => (false, true, true, false),
        "6" => (false, true, false, true),
        _ => return None,
    };
    Some(RawCell { wall, goal, box_, player })
}

/// The raw board of a grid datum; rows shorter than the longest are padded with wall.
fn board(grid: &Sexp) -> Result<RawBoard, ParseError> {
    let Sexp::List(rows, gp) = grid else {
        return Err(syntax("expected a grid, a list of rows", grid.pos()));
    };
    let mut raw = RawBoard::default();
    for row in rows {
        let Sexp::List(cells, _) = row else {
            return Err(syntax("a grid row must be a list of cell codes", row.pos()));
        };
        let mut out = Vec::with_capacity(cells.len());
        let mut at = Vec::with_capacity(cells.len());
        for cell in cells {
            match cell {
                Sexp::Atom(token, p) => match cell_of(token) {
                    Some(c) => {
                        out.push(c);
                        at.push(*p);
                    }
                    None => return Err(ParseError::new(ParseErrorKind::UnknownToken(token.clone()), p.0, p.1)),
                },
                other => return Err(syntax("a grid cell must be a code from 0 to 6", other.pos())),
            }
        }
        raw.rows.push(out);
        raw.positions.push(at);
    }
    let width = raw.rows.iter().map(Vec::len).max().unwrap_or(0);
    if width == 0 {
        return Err(ParseError::new(ParseErrorKind::Empty, gp.0, gp.1));
    }
    for row in &mut raw.rows {
        row.resize(width, RawCell { wall: true, ..RawCell::default() });
    }
    Ok(raw)
}

/// The `;` lines directly above `line` (no blank line between), top to bottom, and a `Title:`
/// among them.
fn comments_above(comment_lines: &[(usize, String)], line: usize) -> Meta {
    let mut block = Vec::new();
    let mut want = line;
    for (l, text) in comment_lines.iter().rev().skip_while(|(l, _)| *l >= line) {
        if *l + 1 != want {
            break;
        }
        block.push(text.clone());
        want = *l;
    }
    block.reverse();
    let mut meta = Meta::default();
    for text in block {
        match text.split_once(':') {
            Some((k, v)) if k.trim().eq_ignore_ascii_case("title") => meta.title = Some(v.trim().to_string()),
            _ => meta.comments.push(text),
        }
    }
    meta
}

/// Parses every problem of an integer-grid text.
pub fn parse(text: &str, opts: BuildOptions) -> Result<Vec<Level>, ParseError> {
    parse_each(text, opts)?.into_iter().collect()
}

/// Parses an integer-grid text problem by problem. The outer error is for text that cannot be
/// read as s-expressions at all (unbalanced parentheses, an unclosed comment) or holds no grid.
pub fn parse_each(text: &str, opts: BuildOptions) -> Result<Vec<Result<Level, ParseError>>, ParseError> {
    Ok(parse_where(text, opts, &mut |_| true)?.into_levels())
}

/// Like [`parse_each`], but builds only the problems whose 0-based index `keep` accepts.
pub fn parse_where(text: &str, opts: BuildOptions, keep: &mut dyn FnMut(usize) -> bool) -> Result<Picked, ParseError> {
    let text = &*super::normalize(text);
    let read = read(text)?;
    let found = problems(&read.forms)?;
    if found.is_empty() {
        return Err(ParseError::new(ParseErrorKind::Empty, text.split('\n').count().max(1), 1));
    }
    let count = found.len();
    let levels = found
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep(*i))
        .map(|(i, p)| {
            let level = (|| {
                let mut meta = comments_above(&read.comment_lines, p.line);
                if let Some(name) = &p.name
                    && name.chars().any(char::is_control)
                {
                    let msg = "a problem name holds a line break or another control character";
                    return Err(syntax(msg, p.at));
                }
                if meta.title.is_none() {
                    meta.title = p.name;
                }
                Level::from_raw(board(p.grid)?, meta, opts)
            })();
            (i, level)
        })
        .collect();
    Ok(Picked { count, levels })
}

/// The cell code of a position's cell; walls and the outside are 1.
fn code(level: &Level, cell: RawCell, row: usize, col: usize) -> u8 {
    if level.tile(row, col) == Tile::Outside {
        return 1;
    }
    match (cell.wall, cell.goal, cell.box_, cell.player) {
        (true, ..) => 1,
        (_, true, true, _) => 5,
        (_, true, _, true) => 6,
        (_, true, ..) => 4,
        (_, _, true, _) => 2,
        (_, _, _, true) => 3,
        _ => 0,
    }
}

/// The rows of a board as `(1 0 2 4 1)` strings.
fn rows(level: &Level, raw: &RawBoard) -> Vec<String> {
    raw.rows
        .iter()
        .enumerate()
        .map(|(r, row)| {
            let codes: Vec<String> =
                row.iter().enumerate().map(|(c, &cell)| code(level, cell, r, c).to_string()).collect();
            format!("({})", codes.join(" "))
        })
        .collect()
}

/// The start position as one line, `((1 1 1 1 1)(1 0 2 4 1)…)`, without title or comments.
pub fn write(level: &Level) -> String {
    write_raw(level, &level.to_raw())
}

/// A board of a level (the start or any position drawn with `rules::Position::to_raw`) as one
/// line, in the shape of [`write()`].
pub fn write_raw(level: &Level, raw: &RawBoard) -> String {
    format!("({})", rows(level, raw).concat())
}

/// Whether a title can be written as a plain Lisp symbol (and read back unchanged).
fn is_plain_symbol(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else { return false };
    let symbol_char = |c: char| c.is_ascii_alphanumeric() || "-_*+/<>=!?%&".contains(c);
    let number_like =
        first.is_ascii_digit() || ("+-".contains(first) && chars.next().is_some_and(|c| c.is_ascii_digit()));
    s.chars().all(symbol_char) && !number_like
}

/// A title as a Lisp symbol: plain when it can be, else `|…|` with `\` before `|` and `\`.
fn symbol(title: &str) -> String {
    if is_plain_symbol(title) {
        return title.to_string();
    }
    let mut out = String::from("|");
    for c in title.chars() {
        if c == '|' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('|');
    out
}

/// Writes levels one per form, separated by blank lines: a titled level as `(setq NAME '(…))`,
/// NAME its title (a `|…|` symbol when it is not a plain one), an untitled level as a bare grid
/// `'(…)`, so reading the text back gives equal levels. Comments become `;` lines above the
/// form. Titles must not hold line breaks (the grid reader refuses such names).
pub fn write_all(levels: &[Level]) -> String {
    let mut out = String::new();
    for (i, level) in levels.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        for c in level.comments() {
            out.push_str(&format!("; {c}\n"));
        }
        let head = match level.title() {
            Some(t) => format!("(setq {} '(", symbol(t)),
            None => "'(".to_string(),
        };
        let indent = " ".repeat(head.chars().count());
        out.push_str(&head);
        out.push_str(&rows(level, &level.to_raw()).join(&format!("\n{indent}")));
        out.push_str(if level.title().is_some() { "))\n" } else { ")\n" });
    }
    out
}

/// The optimal solution depth a problem's comment states, as the CS161 problems do with
/// `;(nodes,depth)` (e.g. `;(80,7)`; `(??,25)` also counts) or as text like `depth 7`. The
/// comments are searched first, then the title (the XSB conversion keeps the pair there).
pub fn stated_depth(level: &Level) -> Option<usize> {
    level.comments().iter().map(String::as_str).chain(level.title()).find_map(depth_in)
}

fn depth_in(text: &str) -> Option<usize> {
    // A "(a,b)" pair whose second item is a number.
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        rest = &rest[open + 1..];
        if let Some(close) = rest.find(')')
            && let Some((_, depth)) = rest[..close].split_once(',')
            && let Ok(n) = depth.trim().parse()
        {
            return Some(n);
        }
    }
    // "depth 7", "depth: 7", "depth=7".
    let lower = text.to_ascii_lowercase();
    lower.match_indices("depth").find_map(|(i, w)| {
        let after = lower[i + w.len()..].trim_start_matches(|c: char| c.is_whitespace() || c == ':' || c == '=');
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{Edges, SolvedRule, SourceFormat};

    fn opts() -> BuildOptions {
        BuildOptions { rule: SolvedRule::AllBoxesOnGoals, edges: Edges::Walled, format: SourceFormat::Grid }
    }

    #[test]
    fn bare_grid_parses_and_writes_back() {
        let text = "((1 1 1 1 1)(1 0 0 4 1)(1 0 2 0 1)(1 0 3 0 1)(1 0 0 0 1)(1 1 1 1 1))";
        let levels = parse(text, opts()).unwrap();
        assert_eq!(levels.len(), 1);
        assert_eq!(levels[0].title(), None);
        assert_eq!(write(&levels[0]), text);
    }

    #[test]
    fn named_problems_keep_names_and_comments() {
        let text = ";; header\n\n#| block\n ; not a comment line |#\n;(80,7)\n;second\n(setq p1 '((1 1 1)\n (1 3 1)))\n(defun f (x) \"doc (\" x)\n(setq p2 '((3 4 2)))\n";
        let levels = parse(text, opts()).unwrap();
        assert_eq!(levels.len(), 2);
        assert_eq!(levels[0].title(), Some("p1"));
        assert_eq!(levels[0].comments(), ["(80,7)", "second"]);
        assert_eq!(stated_depth(&levels[0]), Some(7));
        assert_eq!(levels[1].title(), Some("p2"));
        assert!(levels[1].comments().is_empty());
    }

    #[test]
    fn short_rows_are_padded_with_wall() {
        let level = parse("((1 1 1 1)(1 3 1)(1 1 1 1))", opts()).unwrap().remove(0);
        assert_eq!(level.width(), 4);
        assert_eq!(level.tile(1, 3), Tile::Wall);
    }

    #[test]
    fn errors_point_at_the_offending_character() {
        let at = |t: &str| parse(t, opts()).map(|_| ()).unwrap_err();
        let e = at("((1 1 1)\n (1 3 x 1))");
        assert_eq!((e.kind, e.line, e.column), (ParseErrorKind::UnknownToken("x".into()), 2, 7));
        let e = at("((1 1 1)\n (1 3 1)))");
        assert_eq!((e.line, e.column), (2, 10));
        let e = at("(setq p1 '((1 1 1)\n (1 3 1))");
        assert_eq!((e.line, e.column), (1, 1));
        let e = at("#| open\n((3))");
        assert_eq!((e.line, e.column), (1, 1));
        let e = at("(1 3 1)");
        assert_eq!((e.line, e.column), (1, 2));
        assert_eq!(at("; nothing\n").kind, ParseErrorKind::Empty);
        let e = at("((3 3))");
        assert!(matches!(e.kind, ParseErrorKind::TwoPlayers { .. }));
        assert_eq!((e.line, e.column), (1, 5));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = "(".repeat(100_000);
        assert!(parse(&text, opts()).is_err());
        let text = format!("{}{}", "(".repeat(100_000), ")".repeat(100_000));
        assert!(parse(&text, opts()).is_err());
    }

    #[test]
    fn write_all_round_trips_odd_titles() {
        let mut a = parse("((1 1 1 1)(1 3 2 4))", opts()).unwrap().remove(0);
        a.set_title(Some("Level 1 (hard)".into()));
        let mut b = a.clone();
        b.set_title(Some("p1".into()));
        let text = write_all(&[a.clone(), b.clone()]);
        assert_eq!(parse(&text, opts()).unwrap(), vec![a, b]);
    }

    #[test]
    fn depth_forms() {
        assert_eq!(depth_in("(80,7)"), Some(7));
        assert_eq!(depth_in("(??,25)"), Some(25));
        assert_eq!(depth_in("(??,??)"), None);
        assert_eq!(depth_in("p1  (nodes,depth)=(80,7)"), Some(7));
        assert_eq!(depth_in("optimal depth: 12"), Some(12));
    }
}
