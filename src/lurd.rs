//! LURD move strings: `l u r d` walk, `L U R D` push.
//!
//! [`decode`] accepts either case and skips white space (solutions are often wrapped), so a
//! caller can replay a string written without push marks and learn afterwards whether the case
//! matched what happened.
//!
//! Run-length encoding (as YSokoban, YASC and JSoko paste and export it) is accepted
//! everywhere a LURD string is read: a count before a letter repeats it (`3l2U` is `lllUU`), and
//! a count before a parenthesised group repeats the group (`2(lU)` is `lUlU`; groups nest).
//! [`expand`] writes such a string out in full and [`compress`] writes runs as counts.

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

/// The most letters [`expand`] writes out (a guard against `999999999l`).
pub const MAX_EXPANDED: usize = 50_000_000;

/// Whether `text` uses run-length encoding (holds a digit or a parenthesis).
pub fn is_rle(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit() || c == '(' || c == ')')
}

/// Writes a run-length encoded LURD string out in full, white space dropped. Letters other than
/// `lurdLURD` are kept (the replay reports them); errors give the 0-based index, among the
/// characters that are not white space, of a count with nothing to repeat, an unmatched
/// parenthesis, or the count that would pass [`MAX_EXPANDED`] letters.
pub fn expand(text: &str) -> Result<String, MoveParseError> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut pos = 0;
    let out = expand_group(&chars, &mut pos, 0)?;
    if pos < chars.len() {
        return Err(MoveParseError { index: pos, found: chars[pos].to_string() });
    }
    Ok(out)
}

/// Expands `chars[*pos..]` up to the `)` closing a group at `depth` > 0 (consumed) or the end.
fn expand_group(chars: &[char], pos: &mut usize, depth: usize) -> Result<String, MoveParseError> {
    let bad = |index: usize, found: &str| MoveParseError { index, found: found.to_string() };
    let mut out = String::new();
    while *pos < chars.len() {
        let start = *pos;
        let mut count: Option<usize> = None;
        while *pos < chars.len() && chars[*pos].is_ascii_digit() {
            let d = chars[*pos].to_digit(10).unwrap_or(0) as usize;
            let v = count.unwrap_or(0).saturating_mul(10).saturating_add(d);
            count = Some(v.min(MAX_EXPANDED + 1));
            *pos += 1;
        }
        let Some(&ch) = chars.get(*pos) else {
            return Err(bad(start, "a count with nothing after it"));
        };
        *pos += 1;
        let piece = match ch {
            '(' => expand_group(chars, pos, depth + 1)?,
            ')' if count.is_none() && depth > 0 => return Ok(out),
            ')' => return Err(bad(*pos - 1, ")")),
            c => c.to_string(),
        };
        let times = count.unwrap_or(1);
        if out.len().saturating_add(piece.len().saturating_mul(times)) > MAX_EXPANDED {
            return Err(bad(start, "a run longer than the move limit"));
        }
        for _ in 0..times {
            out.push_str(&piece);
        }
    }
    if depth > 0 {
        return Err(bad(chars.len(), "a missing )"));
    }
    Ok(out)
}

/// Writes runs of one letter as a count and the letter (`lllUU` becomes `3l2U`); single letters
/// stay as they are. White space is dropped.
pub fn compress(lurd: &str) -> String {
    let mut out = String::new();
    let mut chars = lurd.chars().filter(|c| !c.is_whitespace()).peekable();
    while let Some(c) = chars.next() {
        let mut n = 1;
        while chars.next_if_eq(&c).is_some() {
            n += 1;
        }
        if n > 1 {
            out.push_str(&n.to_string());
        }
        out.push(c);
    }
    out
}

/// Decodes a LURD string, skipping white space; run-length encoding is expanded first.
pub fn decode(text: &str) -> Result<Vec<Letter>, MoveParseError> {
    if is_rle(text) {
        return decode(&expand(text)?);
    }
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
    fn run_length_encoding() {
        assert_eq!(expand("3l2U").unwrap(), "lllUU");
        assert_eq!(expand("2(lU)r").unwrap(), "lUlUr");
        assert_eq!(expand("2(u2(Rd))").unwrap(), "uRdRduRdRd");
        assert_eq!(expand("1 2\nl").unwrap(), "llllllllllll");
        assert_eq!(expand("uRd").unwrap(), "uRd");
        assert_eq!(expand("3").unwrap_err().index, 0);
        assert_eq!(expand("l(u").unwrap_err().index, 3);
        assert_eq!(expand("lu)").unwrap_err().index, 2);
        assert!(expand("999999999999l").is_err());
        assert_eq!(compress("lllUUrD"), "3l2UrD");
        assert_eq!(compress(""), "");
        assert_eq!(decode("2lR").unwrap().len(), 3);
        assert!(decode("2").is_err());
    }

    #[test]
    fn encode_marks_pushes() {
        let moves = [Move { dir: Dir::Left, push: false }, Move { dir: Dir::Up, push: true }];
        assert_eq!(encode(&moves), "lU");
    }
}
