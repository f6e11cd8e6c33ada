//! Move lists in the three spellings users meet: LURD (`luRD`), a JSON array of direction names
//! (`["left", "up"]`) and comma-separated words (`Left, Up`).
//!
//! [`parse`] detects the spelling from the text, so `sokoban apply --moves` takes any of them;
//! [`write()`] spells a solution in the one the user asked for. Only LURD marks pushes (by case);
//! the other two name directions, and whether a step pushes is up to the board.

use crate::error::MoveParseError;
use crate::level::Dir;
use crate::lurd::{self, Letter};
use crate::rules::Move;

/// How a move list is spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MoveFormat {
    /// `l u r d` walk, `L U R D` push.
    #[default]
    Lurd,
    /// A JSON array of `"up"`, `"right"`, `"down"`, `"left"`.
    Json,
    /// `Up, Right, Down, Left` words separated by commas.
    Words,
}

/// The direction named by a word, any case: `up`, `Right`, `DOWN`, ….
fn dir_of_word(word: &str) -> Option<Dir> {
    Dir::ALL.into_iter().find(|d| d.name().eq_ignore_ascii_case(word))
}

/// Which spelling `text` uses: a leading `[` means JSON; a comma or a direction word (`up`,
/// `Left`, …) means words; anything else is LURD. No direction word is spelled with LURD letters
/// alone, so the two never overlap.
pub fn detect(text: &str) -> MoveFormat {
    let t = text.trim_start();
    if t.starts_with('[') {
        MoveFormat::Json
    } else if t.contains(',') || t.split_whitespace().any(|w| dir_of_word(w).is_some()) {
        MoveFormat::Words
    } else {
        MoveFormat::Lurd
    }
}

/// Parses a move list in any of the three spellings. JSON and words never claim a push
/// (`upper` is false), so replaying them checks legality only.
///
/// Errors give the 0-based index of the offending move and what was found there.
pub fn parse(text: &str) -> Result<Vec<Letter>, MoveParseError> {
    match detect(text) {
        MoveFormat::Lurd => lurd::decode(text),
        MoveFormat::Json => {
            let bad = |index: usize, found: String| MoveParseError { index, found };
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| bad(0, format!("not a JSON array of directions ({e})")))?;
            let items = value.as_array().ok_or_else(|| bad(0, value.to_string()))?;
            items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let dir = v.as_str().and_then(dir_of_word).ok_or_else(|| bad(i, v.to_string()))?;
                    Ok(Letter { dir, upper: false })
                })
                .collect()
        }
        MoveFormat::Words => text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .enumerate()
            .map(|(index, w)| {
                let dir = dir_of_word(w).ok_or_else(|| MoveParseError { index, found: w.to_string() })?;
                Ok(Letter { dir, upper: false })
            })
            .collect(),
    }
}

/// Spells `moves` in `format`.
pub fn write(moves: &[Move], format: MoveFormat) -> String {
    match format {
        MoveFormat::Lurd => lurd::encode(moves),
        MoveFormat::Json => {
            let names: Vec<&str> = moves.iter().map(|m| m.dir.name()).collect();
            serde_json::to_string(&names).unwrap_or_default()
        }
        MoveFormat::Words => {
            let words: Vec<String> = moves.iter().map(|m| capitalized(m.dir.name())).collect();
            words.join(", ")
        }
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(text: &str) -> Vec<Dir> {
        parse(text).unwrap().into_iter().map(|l| l.dir).collect()
    }

    #[test]
    fn the_three_spellings_mean_the_same() {
        let want = vec![Dir::Left, Dir::Down, Dir::Right, Dir::Up];
        assert_eq!(dirs("ldRU"), want);
        assert_eq!(dirs(r#"["left", "down", "RIGHT", "up"]"#), want);
        assert_eq!(dirs("Left, Down, Right, Up"), want);
        assert_eq!(dirs("left down right up"), want);
        assert_eq!(dirs("L"), vec![Dir::Left]);
        assert_eq!(dirs("Left"), vec![Dir::Left]);
        assert!(dirs("").is_empty());
        assert!(dirs("[]").is_empty());
    }

    #[test]
    fn errors_name_the_move() {
        let e = parse("Left, Sideways").unwrap_err();
        assert_eq!((e.index, e.found.as_str()), (1, "Sideways"));
        let e = parse(r#"["up", 3]"#).unwrap_err();
        assert_eq!((e.index, e.found.as_str()), (1, "3"));
        assert_eq!(parse("[up").unwrap_err().index, 0);
        assert_eq!(parse("urx").unwrap_err().found, "x");
    }

    #[test]
    fn write_round_trips() {
        let moves = [Move { dir: Dir::Left, push: false }, Move { dir: Dir::Up, push: true }];
        assert_eq!(write(&moves, MoveFormat::Lurd), "lU");
        assert_eq!(write(&moves, MoveFormat::Json), r#"["left","up"]"#);
        assert_eq!(write(&moves, MoveFormat::Words), "Left, Up");
        for f in [MoveFormat::Lurd, MoveFormat::Json, MoveFormat::Words] {
            let back: Vec<Dir> = dirs(&write(&moves, f));
            assert_eq!(back, vec![Dir::Left, Dir::Up]);
        }
    }
}
