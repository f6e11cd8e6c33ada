//! `.sok` files: level collections with their solutions, as YASC, JSoko and the Sokoban wiki's
//! file format describe them.
//!
//! The layout [`write`](fn@write) produces, one block per level, blocks separated by a blank line:
//!
//! ```text
//! Level title                      <- title line: the text line right before the board
//! #####
//! #@$.#
//! #####
//!                                  <- blank line
//! Solution (moves 1, pushes 1)     <- a solution's title, metrics in the name
//! R                                <- its moves in LURD (one line, never run-length encoded)
//! ```
//!
//! A title that could be read as a board row or as a `Solution` title, that starts with `{`
//! (which would make the file read as JSON lines), or that a text line would not give back
//! unchanged (one starting with `;` or `Title:`), is written as a
//! `Title: …` line right after the board instead; a level without a title gets `Level N` (its
//! number in the file), so no text line of the block before can be taken for its title. A level
//! without a solution has no `Solution` section.
//!
//! [`read_solutions`] reads every `Solution` section of a `.sok` file (from any program): a
//! line starting with `Solution` (any case, anything after it: `Solution 2`,
//! `Solution (moves 230, pushes 97)`, `Solution/Pushes`), then the lines of moves after it up to a
//! blank line or another text line, joined. The solution belongs to the board above it: level N
//! is the Nth board of the file, so a `.sok` file serves as its own level file
//! (`sokoban verify out.sok out.sok`). Saved games and other notes are left alone.

use crate::level::Level;

/// A solution read from a `.sok` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The number of the board above it (1-based).
    pub level: usize,
    /// Its moves, LURD (run-length encoding written out, when it expands).
    pub lurd: String,
    /// 1-based line of its `Solution` title.
    pub line: usize,
}

/// The solutions of a `.sok` file, and the `Solution` sections that gave none (line, why).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Read {
    /// The solutions, in file order.
    pub entries: Vec<Found>,
    /// The sections without a solution: their line and why.
    pub skipped: Vec<(usize, String)>,
}

/// One level to write and its solutions (LURD).
pub struct Block<'a> {
    /// The level's 1-based number (named in the title of a level without one).
    pub number: usize,
    /// The level.
    pub level: &'a Level,
    /// Its solutions, each in LURD.
    pub solutions: Vec<String>,
}

/// Whether a line is a board row of a `.sok` file (starts with a wall after optional spaces
/// and holds only board characters), as the level parser reads boards.
fn is_board_row(line: &str) -> bool {
    crate::format::xsb::is_board_line(line)
}

/// Whether a line starts a solution section: `Solution`, any case, followed by nothing or by
/// something other than a letter.
fn is_solution_title(line: &str) -> bool {
    let t = line.trim();
    t.get(..8).is_some_and(|head| head.eq_ignore_ascii_case("solution"))
        && !t[8..].chars().next().is_some_and(|c| c.is_alphanumeric())
}

/// Whether a line holds moves: LURD letters, run-length counts and groups, white space.
fn is_moves_line(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.chars().all(|c| "lurdLURD()".contains(c) || c.is_ascii_digit() || c.is_whitespace())
}

/// Whether `text` looks like a `.sok` file rather than JSON lines or TSV: it has a board row
/// without a tab.
pub fn looks_like_sok(text: &str) -> bool {
    text.lines().any(|l| !l.contains('\t') && is_board_row(l.trim_end_matches('\r')))
}

/// Writes levels and their solutions as a `.sok` file (layout in the module documentation).
pub fn write(blocks: &[Block]) -> String {
    let mut out = String::new();
    for (i, b) in blocks.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let title = b.level.title().filter(|t| !t.trim().is_empty()).map(str::trim);
        // A title starting with `{` would make the file read as JSON lines (`solutions::read`);
        // one starting with `;` or `Title:` would read back as less than itself.
        let title_after = title.filter(|t| {
            is_board_row(t) || is_solution_title(t) || t.starts_with('{') || !crate::format::xsb::reads_as_title(t)
        });
        match (title, title_after) {
            (Some(t), None) => out.push_str(&format!("{t}\n")),
            (None, _) => out.push_str(&format!("Level {}\n", b.number)),
            (Some(_), Some(_)) => {}
        }
        for row in crate::format::xsb::board_rows(b.level) {
            out.push_str(&row);
            out.push('\n');
        }
        if let Some(t) = title_after {
            out.push_str(&format!("Title: {t}\n"));
        }
        for lurd in &b.solutions {
            let (moves, pushes) = crate::lurd::counts(lurd);
            out.push_str(&format!("\nSolution (moves {moves}, pushes {pushes})\n{lurd}\n"));
        }
    }
    out
}

/// Reads the `Solution` sections of a `.sok` file; the level number of each is the number of
/// the board above it. A section before any board, or one without moves, is reported as
/// skipped.
pub fn read_solutions(text: &str) -> Read {
    let mut out = Read::default();
    let mut boards = 0usize;
    let mut in_board = false;
    // The solution being read: the line of its title and its moves so far.
    let mut open: Option<(usize, String)> = None;
    let close = |open: &mut Option<(usize, String)>, boards: usize, out: &mut Read| {
        if let Some((line, moves)) = open.take() {
            // Run-length encoding written out first: `()` or `0l` is no move at all.
            let lurd = if crate::lurd::is_rle(&moves) { crate::lurd::expand(&moves).unwrap_or(moves) } else { moves };
            if boards == 0 {
                out.skipped.push((line, "a solution before any board".into()));
            } else if lurd.is_empty() {
                out.skipped.push((line, "a Solution section without moves".into()));
            } else {
                out.entries.push(Found { level: boards, lurd, line });
            }
        }
    };
    for (i, raw) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() {
            in_board = false;
            close(&mut open, boards, &mut out);
            continue;
        }
        if is_board_row(line) {
            close(&mut open, boards, &mut out);
            if !in_board {
                boards += 1;
                in_board = true;
            }
            continue;
        }
        in_board = false;
        match &mut open {
            Some((_, moves)) if is_moves_line(line) => {
                moves.extend(line.chars().filter(|c| !c.is_whitespace()));
            }
            _ => {
                close(&mut open, boards, &mut out);
                if is_solution_title(line) {
                    open = Some((line_no, String::new()));
                }
            }
        }
    }
    close(&mut open, boards, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn reads_solutions_of_other_programs_layouts() {
        let text = "Collection: test\n\nOne\n#####\n#@$.#\n#####\nAuthor: someone\n\nSolution (moves 1, pushes 1)\nR\n\n\
                    Save\nr\n\nTwo\n######\n#@$ .#\n######\n\nSolution\nr\nR\nSolution/Pushes\n2R\n";
        let read = read_solutions(text);
        let got: Vec<(usize, &str, usize)> = read.entries.iter().map(|e| (e.level, e.lurd.as_str(), e.line)).collect();
        assert_eq!(got, [(1, "R", 9), (2, "rR", 20), (2, "RR", 23)]);
        assert!(read.skipped.is_empty());
        let early = read_solutions("Solution\nR\n\n#####\n#@$.#\n#####\n");
        assert_eq!((early.entries.len(), early.skipped[0].0), (0, 1));
        let empty = read_solutions("#####\n#@$.#\n#####\n\nSolution\n\n");
        assert_eq!(empty.skipped[0].1, "a Solution section without moves");
        // Moves that expand to nothing are no moves either.
        let nothing = read_solutions("#####\n#@$.#\n#####\n\nSolution\n\t( )\n0R\n");
        assert_eq!((nothing.entries.len(), nothing.skipped[0].1.as_str()), (0, "a Solution section without moves"));
        assert!(!is_solution_title("Solutions are below"));
        assert!(is_solution_title("solution: 1"));
    }

    #[test]
    fn written_files_read_back_with_titles_and_solutions() {
        let levels = parse_levels(
            "; First\n#####\n#@$.#\n#####\n\n#######\n#@ $ .#\n#######\n\nTitle: #3\n#####\n#.$@#\n#####\n",
        )
        .unwrap();
        let blocks = vec![
            Block { number: 1, level: &levels[0], solutions: vec!["R".into()] },
            Block { number: 2, level: &levels[1], solutions: vec![] },
            Block { number: 3, level: &levels[2], solutions: vec!["L".into(), "rlL".into()] },
        ];
        let text = write(&blocks);
        assert!(text.starts_with("First\n#####\n"), "{text}");
        assert!(text.contains("\nLevel 2\n#######\n"), "{text}");
        assert!(text.contains("#####\nTitle: #3\n"), "{text}");
        assert!(text.contains("\nSolution (moves 3, pushes 1)\nrlL\n"), "{text}");
        let read = read_solutions(&text);
        let got: Vec<(usize, &str)> = read.entries.iter().map(|e| (e.level, e.lurd.as_str())).collect();
        assert_eq!(got, [(1, "R"), (3, "L"), (3, "rlL")]);
        // The file is also a level collection: the same boards and titles come back.
        let back = parse_levels(&text).unwrap();
        assert_eq!(back.len(), 3);
        for (a, b) in levels.iter().zip(&back) {
            assert_eq!(crate::format::xsb::board_rows(a), crate::format::xsb::board_rows(b));
        }
        assert_eq!(back[0].title(), Some("First"));
        assert_eq!(back[2].title(), Some("#3"));
    }
}
