//! LURD move strings: `l u r d` walk, `L U R D` push.
//!
//! [`decode`] accepts either case and skips white space (solutions are often wrapped), so a
//! caller can replay a string written without push marks and learn afterwards whether the case
//! matched what happened.

use crate::error::MoveParseError;
use crate::level::Dir;
use crate::rules::Move;

/// A decoded letter: its direction and whether it was uppercase (claimed to push).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Letter {
    /// The direction of the move.
    pub dir: Dir,
    /// Written in uppercase (a push in LURD).
    pub upper: bool,
}

/// Decodes a LURD string, skipping white space.
pub fn decode(text: &str) -> Result<Vec<Letter>, MoveParseError> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .map(|(index, ch)| {
            let dir = match ch.to_ascii_lowercase() {
                'u' => Dir::Up,
                'r' => Dir::Right,
                'd' => Dir::Down,
                'l' => Dir::Left,
                _ => return Err(MoveParseError { index, found: ch.to_string() }),
            };
            Ok(Letter { dir, upper: ch.is_ascii_uppercase() })
        })
        .collect()
}

/// Encodes moves as LURD.
pub fn encode(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// Number of moves and pushes (uppercase letters) of a LURD string, white space ignored.
pub fn counts(text: &str) -> (usize, usize) {
    let letters = text.chars().filter(|c| !c.is_whitespace());
    letters.fold((0, 0), |(m, p), c| (m + 1, p + usize::from(c.is_ascii_uppercase())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_reports_bad_letters_and_case() {
        let d = decode("uR\n dL").unwrap();
        assert_eq!(d.len(), 4);
        assert!(d[1].upper && !d[0].upper);
        assert_eq!(decode("uRx").unwrap_err(), MoveParseError { index: 2, found: "x".into() });
        assert_eq!(counts("uRdL"), (4, 2));
    }

    #[test]
    fn encode_marks_pushes() {
        let moves = [Move { dir: Dir::Left, push: false }, Move { dir: Dir::Up, push: true }];
        assert_eq!(encode(&moves), "lU");
    }
}
