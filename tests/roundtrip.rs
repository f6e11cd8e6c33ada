//! Writers round-trip: for every format F and every level read from F, writing the level in F
//! and reading it back gives an equal level (board, start, weights, rule, title). What no writer
//! could reproduce is refused when it is read. Covers each defect of issue 13 item 5 (the
//! reproductions in `tests/data/repros/`), BOMs and CR-only line ends (item 8), and a proptest
//! over boards rendered in every format with the spellings the readers accept.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use sokoban::format::{self, default_options, parse_each_as, parse_each_with, write};
use sokoban::level::{BuildOptions, RawBoard, RawCell, SourceFormat};
use sokoban::{Level, ParseErrorKind};

fn repro(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/repros").join(name)
}

fn read(name: &str) -> String {
    String::from_utf8_lossy(&std::fs::read(repro(name)).unwrap()).into_owned()
}

/// Writes `level` in `format` and reads it back with the same options: must be equal, and
/// writing again must give the same text.
fn assert_round_trip(level: &Level, format: SourceFormat, opts: BuildOptions) -> Result<(), TestCaseError> {
    let written = write(level, format).map_err(|e| TestCaseError::fail(format!("{format:?}: {e}")))?;
    let back = parse_each_with(&written, opts)
        .map_err(|e| TestCaseError::fail(format!("{format:?}: written text does not parse: {e}\n{written}")))?;
    prop_assert_eq!(back.len(), 1, "{:?}: {}", format, written);
    let back = back.into_iter().next().unwrap().map_err(|e| TestCaseError::fail(format!("{e}\n{written}")))?;
    prop_assert_eq!(&back, level, "{:?}: written as\n{}", format, written);
    prop_assert_eq!(write(&back, format).unwrap(), written);
    Ok(())
}

/// Every level a text gives in `format` round-trips; returns how many there were.
fn all_round_trip(text: &str, format: SourceFormat) -> Result<usize, TestCaseError> {
    let opts = default_options(format);
    let Ok(levels) = parse_each_with(text, opts) else { return Ok(0) };
    let mut n = 0;
    for level in levels.into_iter().flatten() {
        assert_round_trip(&level, format, opts)?;
        // Converting to any other format writes text that reads back (not necessarily an equal
        // level: the rule and the edge treatment are the reader's).
        for other in SourceFormat::ALL {
            if let Ok(text) = write(&level, other) {
                let opts = BuildOptions { rule: level.rule(), ..default_options(other) };
                let back = parse_each_with(&text, opts);
                prop_assert!(back.is_ok_and(|v| v.iter().all(Result::is_ok)), "{:?} to {:?}:\n{}", format, other, text);
            }
        }
        n += 1;
    }
    Ok(n)
}

fn rt(text: &str, format: SourceFormat) -> usize {
    all_round_trip(text, format).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn outside_floor_does_not_change_the_width() {
    // `-##` then `#@ #|###_#_`: the `-` and `_` cells outside the walls are padding.
    let text = read("parse_xsb-A-outside-floor-width-changes.xsb");
    let level = format::parse_levels(&text).unwrap().remove(0);
    assert_eq!((level.width(), level.height()), (5, 3));
    assert_eq!(rt(&text, SourceFormat::Xsb), 1);
}

#[test]
fn a_comment_after_the_board_stays_a_comment() {
    let text = read("parse_xsb-B-comment-becomes-title.xsb");
    let level = format::parse_levels(&text).unwrap().remove(0);
    assert_eq!(level.title(), None);
    assert_eq!(level.comments(), ["A:"]);
    assert_eq!(rt(&text, SourceFormat::Xsb), 1);
    let back = format::parse_levels(&format::xsb::write(&level)).unwrap().remove(0);
    assert_eq!((back.title(), back.comments()), (None, &["A:".to_string()][..]));
}

#[test]
fn titles_and_comments_round_trip_in_xsb() {
    for text in [
        "Title:\n#####\n#@$.#\n#####\n",
        "; a\n;\n; b\n;\n#####\n#@$.#\n#####\n",
        ";  indented title\n#####\n#@$.#\n#####\n",
        "; Title: not a key\n#####\n#@$.#\n#####\nAuthor: me\n",
        "#####\n#@$.#\n#####\nTitle: After\n\n; second\n#####\n#.$@#\n#####\n",
    ] {
        assert!(rt(text, SourceFormat::Xsb) >= 1, "{text}");
    }
}

#[test]
fn an_empty_rle_row_inside_a_board_is_refused() {
    let text = read("parse_xsb-C-empty-rle-row-splits-level-NoPlayer.xsb");
    let e = format::parse_levels(&text).unwrap_err();
    assert_eq!((e.kind, e.line, e.column), (ParseErrorKind::BlankRow, 2, 1));
    // The same with a run of outside floor for the row.
    let e = format::parse_levels("5#|#@$.#|5#|3-|5#\n").unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::BlankRow);
}

#[test]
fn a_trailing_empty_rle_row_does_not_change_the_height() {
    let text = read("parse_xsb-D-trailing-empty-rle-row-height-changes.xsb");
    let level = format::parse_levels(&text).unwrap().remove(0);
    assert_eq!(level.height(), 3);
    assert_eq!(rt(&text, SourceFormat::Xsb), 1);
    let leading = format::parse_levels("|5#|#@$.#|5#|\n").unwrap().remove(0);
    assert_eq!(leading, format::parse_levels("5#\n#@$.#\n5#\n").unwrap().remove(0));
}

#[test]
fn a_lisp_name_with_a_line_break_is_refused() {
    for name in ["parse_formats-newline-in-setq-name-unparseable.lisp", "inject.lisp"] {
        let text = read(name);
        let each = parse_each_as(&text, SourceFormat::Grid).unwrap();
        let e = each[0].as_ref().unwrap_err();
        assert!(matches!(&e.kind, ParseErrorKind::Syntax(m) if m.contains("line break")), "{name}: {e}");
        assert_eq!((e.line, e.column), (1, 7), "{name}");
    }
}

#[test]
fn odd_lisp_names_round_trip_as_bar_symbols() {
    for text in [
        "(setq |Level 1 (hard)| '((1 1 1 1 1)(1 3 2 4 1)(1 1 1 1 1)))",
        "(setq |a\\|b\\\\c| '((1 1 1 1 1)(1 3 2 4 1)(1 1 1 1 1)))",
        "(setq || '((1 1 1 1 1)(1 3 2 4 1)(1 1 1 1 1)))",
        "; c1\n;(80,7)\n((1 1 1 1 1)(1 3 2 4 1)(1 1 1 1 1))",
        "; Title:  spaced \n(setq x '((3 2 4)))",
    ] {
        assert_eq!(rt(text, SourceFormat::Grid), 1, "{text}");
    }
    // An untitled grid stays untitled.
    let level = format::parse_as("((1 1 1 1 1)(1 3 2 4 1)(1 1 1 1 1))", SourceFormat::Grid).unwrap().remove(0);
    assert_eq!(
        format::parse_as(&write(&level, SourceFormat::Grid).unwrap(), SourceFormat::Grid).unwrap()[0].title(),
        None
    );
}

#[test]
fn a_player_on_a_box_is_refused() {
    let text = read("player_on_box.json");
    let e = format::parse_as(&text, SourceFormat::Json).unwrap_err();
    assert_eq!((e.kind, e.line, e.column), (ParseErrorKind::PlayerOnBox, 1, 68));
}

#[test]
fn the_raw_fuzz_crash_input_round_trips_or_is_refused() {
    let text = read("parse_formats-crash.bin");
    for format in SourceFormat::ALL {
        rt(&text, format);
    }
}

#[test]
fn byte_order_marks_are_skipped() {
    let board = format::parse_as(&read("bom_board.xsb"), SourceFormat::Xsb).unwrap().remove(0);
    assert_eq!(board.boxes().len(), 1);
    let path = repro("bom_wh.txt");
    let text = read("bom_wh.txt");
    assert_eq!(format::detect(&path, &text), SourceFormat::Warehouse);
    let wh = format::parse_each(&text, &path).unwrap().remove(0).unwrap();
    assert_eq!(wh.weights(), [1]);
    let json = format::parse_as(
        "\u{feff}[[[\"wall\"],[\"player\"],[\"computer\"],[\"target\"],[\"wall\"]]]",
        SourceFormat::Json,
    );
    assert!(json.is_ok());
    let grid = format::parse_as("\u{feff}((1 1 1 1 1)(1 3 2 4 1)(1 1 1 1 1))", SourceFormat::Grid);
    assert!(grid.is_ok());
}

#[test]
fn cr_only_line_ends_are_line_ends() {
    let lf = "; T\n#####\n#@$.#\n#####\n\n#####\n#.$@#\n#####\n";
    let cr = lf.replace('\n', "\r");
    let crlf = lf.replace('\n', "\r\n");
    let want = format::parse_levels(lf).unwrap();
    assert_eq!(format::parse_levels(&cr).unwrap(), want);
    assert_eq!(format::parse_levels(&crlf).unwrap(), want);
    let e = format::parse_levels(&"#####\n#@$.#\n#x###\n".replace('\n', "\r")).unwrap_err();
    assert_eq!((e.line, e.column), (3, 2));
    let wh = "2\n#####\n#@$.#\n#####\n".replace('\n', "\r");
    let level = format::parse_each(&wh, Path::new("w.txt")).unwrap().remove(0).unwrap();
    assert_eq!(level.weights(), [2]);
    let grid = ";(1,1)\r(setq p '((1 1 1 1 1)\r(1 3 2 4 1)\r(1 1 1 1 1)))\r";
    assert_eq!(format::parse_as(grid, SourceFormat::Grid).unwrap()[0].comments(), ["(1,1)"]);
}

#[test]
fn selecting_levels_builds_only_those() {
    let one = "#####\n#@$.#\n#####\n";
    let text = format!("{one}\n#####\n#@X.#\n#####\n\n{one}");
    let picked = format::parse_where(&text, default_options(SourceFormat::Xsb), &mut |i| i == 2).unwrap();
    assert_eq!(picked.count, 3);
    assert_eq!(picked.levels.len(), 1);
    assert_eq!(picked.levels[0].0, 2);
    assert!(picked.levels[0].1.is_ok());
}

#[test]
fn from_raw_without_positions_does_not_panic() {
    let w = RawCell { wall: true, ..RawCell::default() };
    let f = RawCell::default();
    let p = RawCell { player: true, ..RawCell::default() };
    // Open to the right, no position list: an error, with some position.
    let rows = vec![vec![w, w, w], vec![w, p, f], vec![w, w, w]];
    let raw = RawBoard { rows, positions: vec![vec![(1, 1)]] };
    let e = Level::from_raw(raw, Default::default(), BuildOptions::default()).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::OpenBoard);
    let rows = vec![vec![w, w, w], vec![w, p, w], vec![w, w, w], vec![], vec![w, w, w]];
    let e = Level::from_raw(RawBoard { rows, positions: Vec::new() }, Default::default(), BuildOptions::default());
    assert_eq!(e.unwrap_err().kind, ParseErrorKind::BlankRow);
}

#[test]
fn bundled_level_files_round_trip() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in [data.clone(), data.join("cab320-warehouses"), data.join("snekoban-puzzles")] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() && !path.extension().is_some_and(|e| e == "tsv" || e == "md") {
                files.push(path);
            }
        }
    }
    let mut total = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let format = format::detect(&path, &text);
        let levels = format::parse_each_as(&text, format).unwrap();
        for level in levels.iter().flatten().take(200) {
            assert_round_trip(level, format, default_options(format)).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            total += 1;
        }
    }
    assert!(total > 1000, "{total}");
}

/// A board of grid cell codes (0 floor, 1 wall, 2 box, 3 player, 4 goal, 5 box on goal,
/// 6 player on goal) with one player, rendered in each format with the spellings readers accept.
#[derive(Debug, Clone)]
struct Board {
    rows: Vec<Vec<u8>>,
    /// Picks among equivalent spellings (floor characters, padding, headers).
    spell: Vec<u8>,
}

fn board() -> impl Strategy<Value = Board> {
    (
        1usize..7,
        1usize..8,
        proptest::collection::vec(0u8..12, 64),
        proptest::collection::vec(any::<u8>(), 32),
        any::<u16>(),
    )
        .prop_map(|(h, w, cells, spell, player)| {
            // Walls are likelier than anything else, so closed boards come up often.
            let code = |x: u8| match x {
                0..=3 => 1,
                4..=6 => 0,
                7 => 2,
                8 => 4,
                9 => 5,
                _ => 0,
            };
            let mut rows: Vec<Vec<u8>> =
                (0..h).map(|r| (0..w).map(|c| code(cells[(r * w + c) % cells.len()])).collect()).collect();
            let at = player as usize % (h * w);
            let cell = &mut rows[at / w][at % w];
            *cell = if *cell == 4 { 6 } else { 3 };
            // As many boxes as goals (the standard rule of XSB and warehouse files).
            let count = |rows: &Vec<Vec<u8>>, codes: &[u8]| rows.iter().flatten().filter(|x| codes.contains(x)).count();
            while count(&rows, &[2, 5]) > count(&rows, &[4, 5, 6]) {
                let x = rows.iter_mut().flatten().find(|x| **x == 2).unwrap();
                *x = 0;
            }
            while count(&rows, &[4, 5, 6]) > count(&rows, &[2, 5]) {
                let x = rows.iter_mut().flatten().find(|x| **x == 4 || **x == 6).unwrap();
                *x = if *x == 4 { 0 } else { 3 };
            }
            // Ragged rows.
            if spell[0].is_multiple_of(3) && h > 1 {
                let r = spell[1] as usize % h;
                if !rows[r].contains(&3) && !rows[r].contains(&6) {
                    rows[r].truncate(1 + spell[2] as usize % w);
                }
            }
            Board { rows, spell }
        })
}

impl Board {
    fn pick<'a>(&self, i: usize, options: &[&'a str]) -> &'a str {
        options[self.spell[i % self.spell.len()] as usize % options.len()]
    }

    fn xsb_rows(&self, warehouse: bool) -> Vec<String> {
        let mut rows: Vec<String> = self
            .rows
            .iter()
            .enumerate()
            .map(|(r, row)| {
                let body: String = row
                    .iter()
                    .enumerate()
                    .map(|(c, &x)| match x {
                        0 => self.pick(r * 7 + c, &[" ", "-", "_"]).chars().next().unwrap(),
                        1 => '#',
                        2 => '$',
                        3 => '@',
                        4 => '.',
                        5 => '*',
                        _ if warehouse && self.spell[3].is_multiple_of(2) => '!',
                        _ => '+',
                    })
                    .collect();
                let body = if self.ring() { format!("#{body}#") } else { body };
                format!("{}{body}{}", self.pick(4 + r, &["", "", " ", "-"]), self.pick(10 + r, &["", "", " ", "--"]))
            })
            .collect();
        if self.ring() {
            let wall = "#".repeat(self.rows.iter().map(Vec::len).max().unwrap_or(0) + 2);
            rows.insert(0, wall.clone());
            rows.push(wall);
        }
        rows
    }

    /// Whether the text formats get a ring of wall around the board (so it is closed).
    fn ring(&self) -> bool {
        !self.spell[20].is_multiple_of(4)
    }

    fn xsb(&self) -> String {
        let mut out =
            String::from(self.pick(5, &["", "; title\n", "; c\n;\n", "Title: t\n; c\n", "A: b\n", "x\n; y\n"]));
        let rows = self.xsb_rows(false);
        match self.spell[6] % 4 {
            // Run-length encoded on one line, maybe with empty rows at the ends.
            0 => {
                let line: Vec<String> = rows.iter().map(|r| rle(r)).collect();
                out.push_str(self.pick(7, &["", "|"]));
                out.push_str(&line.join("|"));
                out.push_str(self.pick(8, &["", "|", "||"]));
                out.push('\n');
            }
            _ => {
                for r in rows {
                    out.push_str(&r);
                    out.push('\n');
                }
            }
        }
        out.push_str(self.pick(9, &["", "", "Title: after\n", "Author: x\n", "A:\n"]));
        out
    }

    fn warehouse(&self) -> String {
        let boxes = self.rows.iter().flatten().filter(|&&x| x == 2 || x == 5).count();
        let weights: Vec<String> = (0..boxes).map(|i| (self.spell[(11 + i) % 32] % 4).to_string()).collect();
        let header = match self.spell[12] % 5 {
            0 => String::new(),
            1 => weights.join(" "),
            2 => format!("'{}'", self.pick(13, &["T", "", " x ", "it's"])),
            3 => "\"q\"".to_string(),
            _ => String::from("skip"),
        };
        let mut out = if header == "skip" { String::new() } else { format!("{header}\n") };
        let indent = self.pick(14, &["", " ", "  "]);
        let end = self.pick(15, &["\n", "\r\n"]);
        for r in self.xsb_rows(true) {
            out.push_str(indent);
            out.push_str(&r);
            out.push_str(end);
        }
        out
    }

    fn grid(&self) -> String {
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|r| format!("({})", r.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")))
            .collect();
        let head = self.pick(16, &["", "; c\n", ";(1,2)\n; Title: t t\n"]);
        let name = self.pick(17, &["", "p1", "|a b|", "|x\\|y|", "||", "|-1|"]);
        if name.is_empty() {
            format!("{head}'({})", rows.concat())
        } else {
            format!("{head}(setq {name} '({}))", rows.concat())
        }
    }

    fn json(&self) -> String {
        let rows: Vec<String> = self
            .rows
            .iter()
            .map(|r| {
                let cells: Vec<String> = r
                    .iter()
                    .map(|&x| {
                        let objects: &[&str] = match x {
                            0 => &[],
                            1 => &["wall"],
                            2 => &["computer"],
                            3 => &["player"],
                            4 => &["target"],
                            5 => &["target", "computer"],
                            _ => &["player", "target"],
                        };
                        let quoted: Vec<String> = objects.iter().map(|o| format!("\"{o}\"")).collect();
                        format!("[{}]", quoted.join(","))
                    })
                    .collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        format!("[{}]", rows.join(",\n"))
    }
}

/// A row in run-length encoding (counts for runs longer than one).
fn rle(row: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = row.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let mut j = i;
        while j < chars.len() && chars[j] == chars[i] {
            j += 1;
        }
        if j - i > 1 {
            out.push_str(&(j - i).to_string());
        }
        out.push(if chars[i] == ' ' { '-' } else { chars[i] });
        i = j;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn every_format_round_trips(b in board()) {
        all_round_trip(&b.xsb(), SourceFormat::Xsb)?;
        all_round_trip(&b.warehouse(), SourceFormat::Warehouse)?;
        all_round_trip(&b.grid(), SourceFormat::Grid)?;
        all_round_trip(&b.json(), SourceFormat::Json)?;
    }
}

#[test]
fn size_errors_state_the_limits_that_apply() {
    // A line longer than 65,536 characters.
    let e = format::parse_levels(&format!("#####\n#@$.#{}\n#####\n", " ".repeat(70_000))).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::TooLarge { what: "the line length", actual: 70_005, limit: 65_536 }, "{e}");
    assert_eq!((e.line, e.column), (2, 65_537));
    // A run length above 4096.
    let e = format::parse_levels("5000#\n").unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::TooLarge { what: "a run length", actual: 5000, limit: 4096 }, "{e}");
    assert!(e.to_string().contains("the limit is 4096"));
    // A warehouse line longer than 4096 characters.
    let e = format::parse_as(&format!("\n#####\n#@$.#{}\n#####\n", "-".repeat(5000)), SourceFormat::Warehouse);
    assert!(matches!(e.unwrap_err().kind, ParseErrorKind::TooLarge { limit: 4096, .. }));
}

#[test]
fn writers_refuse_titles_with_line_breaks() {
    let mut level = format::parse_levels("#####\n#@$.#\n#####\n").unwrap().remove(0);
    level.set_title(Some("two\nlines".into()));
    for f in [SourceFormat::Xsb, SourceFormat::Grid, SourceFormat::Warehouse] {
        let e = write(&level, f).unwrap_err();
        assert!(matches!(e, sokoban::error::WriteError::CannotRepresent { .. }), "{f:?}: {e}");
    }
    // JSON holds no title at all, so nothing is lost that the format could hold.
    assert!(write(&level, SourceFormat::Json).is_ok());
}
