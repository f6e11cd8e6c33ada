//! Bad input gets a clear error with its kind and position, never a panic.

use sokoban::format::{parse_levels, xsb};
use sokoban::level::BuildOptions;
use sokoban::{ParseError, ParseErrorKind};

fn err(text: &str) -> ParseError {
    parse_levels(text).expect_err("should be rejected")
}

fn at(text: &str) -> (ParseErrorKind, usize, usize) {
    let e = err(text);
    (e.kind, e.line, e.column)
}

#[test]
fn unknown_character() {
    assert_eq!(at("; t\n#####\n#@$.#\n#x  #\n#####\n"), (ParseErrorKind::UnknownCharacter('x'), 4, 2));
}

#[test]
fn no_player() {
    assert_eq!(at("\n#####\n# $.#\n#####\n"), (ParseErrorKind::NoPlayer, 2, 1));
}

#[test]
fn two_players() {
    let kind = ParseErrorKind::TwoPlayers { first_line: 2, first_column: 2 };
    assert_eq!(at("######\n#@$.@#\n######\n"), (kind, 2, 5));
}

#[test]
fn open_board() {
    assert_eq!(at("#####\n#@$. \n#####\n"), (ParseErrorKind::OpenBoard, 2, 5));
    // A gap in the top wall.
    assert_eq!(at("## ##\n#@$.#\n#####\n").kind_only(), ParseErrorKind::OpenBoard);
}

#[test]
fn box_goal_mismatch() {
    let kind = ParseErrorKind::BoxGoalMismatch { boxes: 2, goals: 1 };
    assert_eq!(at("######\n#@$$.#\n######\n"), (kind, 1, 1));
}

#[test]
fn box_or_goal_outside_the_walls() {
    assert_eq!(at("#####   \n#@$.#  $\n#####   \n"), (ParseErrorKind::OutsideWalls("box"), 2, 8));
    assert_eq!(at("#####  .\n#@$.#\n#####\n"), (ParseErrorKind::OutsideWalls("goal"), 1, 8));
}

#[test]
fn empty_files() {
    assert_eq!(at("").0, ParseErrorKind::Empty);
    assert_eq!(at("; only a comment\n\n").0, ParseErrorKind::Empty);
}

#[test]
fn a_100_000_character_row() {
    let row = "#".repeat(100_000);
    let e = err(&format!("{row}\n#@$.#\n#####\n"));
    assert!(matches!(e.kind, ParseErrorKind::TooLarge { .. }), "{e}");
    assert_eq!(e.line, 1);
    let e = err(&format!("#####\n#@$.#{}\n#####\n", " ".repeat(100_000)));
    assert!(matches!(e.kind, ParseErrorKind::TooLarge { .. }), "{e}");
}

#[test]
fn bad_move_strings() {
    let e = sokoban::lurd::decode("uuRRx").unwrap_err();
    assert_eq!((e.index, e.found.as_str()), (4, "x"));
    let level = parse_levels("#####\n#@$.#\n#####\n").unwrap().remove(0);
    let r = sokoban::verify::verify(&level, "R1");
    assert_eq!(r.illegal.map(|i| i.index), Some(1));
}

#[test]
fn errors_name_line_and_column_in_display() {
    let text = err("#####\n#@$.#\n#?  #\n#####\n").to_string();
    assert!(text.contains("line 3, column 2"), "{text}");
    assert!(text.contains("'?'"), "{text}");
}

#[test]
fn one_bad_level_keeps_the_rest() {
    let each = xsb::parse_each("####\n#@.#\n####\n\n#####\n#@$.#\n#####\n", BuildOptions::default()).unwrap();
    assert!(each[0].is_err() && each[1].is_ok());
}

trait KindOnly {
    fn kind_only(self) -> ParseErrorKind;
}
impl KindOnly for (ParseErrorKind, usize, usize) {
    fn kind_only(self) -> ParseErrorKind {
        self.0
    }
}
