//! The independent checker: replays a move string on a level and says whether it is legal and
//! solves the level.
//!
//! It deliberately shares no code with [`crate::rules`] or the solver: it works on its own
//! copy of the board as a grid of bytes in row/column coordinates, so a bug in the squares,
//! neighbour tables or search cannot hide itself by also being in the check. Every solution a
//! test or benchmark reports goes through [`verify`].

use crate::level::Level;

/// Why a move was illegal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalReason {
    #[error("the character {0:?} is not a move")]
    /// A character that is not one of `lurdLURD`.
    NotAMove(char),
    #[error("walks into a wall")]
    /// The player would walk into a wall.
    IntoWall,
    #[error("pushes a box into a wall or another box")]
    /// The box would be pushed into a wall or another box.
    BoxBlocked,
}

/// The first illegal move of a replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Illegal {
    /// 0-based index among the move letters (white space not counted).
    pub index: usize,
    /// Why it was illegal.
    pub reason: IllegalReason,
}

/// The outcome of replaying a move string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Moves made before the end or the first illegal move.
    pub moves: usize,
    /// Pushes among those moves.
    pub pushes: usize,
    /// The final position solves the level (false when a move was illegal).
    pub solved: bool,
    /// The first illegal move, if any.
    pub illegal: Option<Illegal>,
    /// Index of the first letter whose case disagrees with what happened (a walk written in
    /// uppercase, or a push in lowercase).
    pub first_case_mismatch: Option<usize>,
    /// The board after the last legal move, as XSB rows (trailing spaces removed).
    pub final_rows: Vec<String>,
}

/// What a replay proves about a move string as a solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Legal and solving (with every letter's case right, when case is checked).
    Valid,
    /// A move was illegal.
    Illegal(Illegal),
    /// Every move was legal but the level is not solved at the end.
    Unsolved,
    /// Legal and solving, but the letter at this index has the wrong case.
    CaseMismatch(usize),
}

impl Verdict {
    /// `valid` or `invalid`, as reports print it.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Illegal(_) | Verdict::Unsolved | Verdict::CaseMismatch(_) => "invalid",
        }
    }
}

impl Report {
    /// Legal, solving, and every letter's case right.
    pub fn is_valid_solution(&self) -> bool {
        self.verdict(true) == Verdict::Valid
    }

    /// The verdict, checking letter case when `check_case` is set.
    pub fn verdict(&self, check_case: bool) -> Verdict {
        match (self.illegal, self.solved, self.first_case_mismatch) {
            (Some(illegal), _, _) => Verdict::Illegal(illegal),
            (None, false, _) => Verdict::Unsolved,
            (None, true, Some(i)) if check_case => Verdict::CaseMismatch(i),
            (None, true, _) => Verdict::Valid,
        }
    }
}

const WALL: u8 = b'#';
const BOX: u8 = 1;
const GOAL: u8 = 2;

/// Replays `moves` (LURD, either case, white space ignored) from the level's start.
pub fn verify(level: &Level, moves: &str) -> Report {
    let (h, w) = (level.height() as isize, level.width() as isize);
    let raw = level.to_raw();
    let mut grid: Vec<u8> = Vec::with_capacity((h * w) as usize);
    let (mut pr, mut pc) = (0isize, 0isize);
    for (r, row) in raw.rows.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let mut v = if cell.wall { WALL } else { 0 };
            if cell.box_ {
                v |= BOX;
            }
            if cell.goal {
                v |= GOAL;
            }
            if cell.player {
                (pr, pc) = (r as isize, c as isize);
            }
            grid.push(v);
        }
    }
    let at =
        |r: isize, c: isize| -> Option<usize> { (r >= 0 && c >= 0 && r < h && c < w).then(|| (r * w + c) as usize) };
    let mut report =
        Report { moves: 0, pushes: 0, solved: false, illegal: None, first_case_mismatch: None, final_rows: vec![] };
    let outside: Vec<bool> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (r, c)))
        .map(|(r, c)| level.tile(r as usize, c as usize) == crate::level::Tile::Outside)
        .collect();
    let rows = |grid: &[u8], pr: isize, pc: isize| -> Vec<String> {
        (0..h)
            .map(|r| {
                let row: String = (0..w)
                    .map(|c| {
                        let i = (r * w + c) as usize;
                        let player = (r, c) == (pr, pc);
                        match (grid[i], player) {
                            _ if outside[i] => ' ',
                            (WALL, _) => '#',
                            (v, true) if v & GOAL != 0 => '+',
                            (_, true) => '@',
                            (v, _) if v & BOX != 0 && v & GOAL != 0 => '*',
                            (v, _) if v & BOX != 0 => '$',
                            (v, _) if v & GOAL != 0 => '.',
                            _ => ' ',
                        }
                    })
                    .collect();
                row.trim_end().to_string()
            })
            .collect()
    };
    for (index, ch) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let (dr, dc) = match ch.to_ascii_lowercase() {
            'u' => (-1, 0),
            'd' => (1, 0),
            'l' => (0, -1),
            'r' => (0, 1),
            _ => {
                report.illegal = Some(Illegal { index, reason: IllegalReason::NotAMove(ch) });
                report.final_rows = rows(&grid, pr, pc);
                return report;
            }
        };
        let fail = |reason| Some(Illegal { index, reason });
        let Some(next) = at(pr + dr, pc + dc).filter(|&i| grid[i] != WALL) else {
            report.illegal = fail(IllegalReason::IntoWall);
            report.final_rows = rows(&grid, pr, pc);
            return report;
        };
        let pushed = grid[next] & BOX != 0;
        if pushed {
            let Some(beyond) = at(pr + 2 * dr, pc + 2 * dc).filter(|&i| grid[i] != WALL && grid[i] & BOX == 0) else {
                report.illegal = fail(IllegalReason::BoxBlocked);
                report.final_rows = rows(&grid, pr, pc);
                return report;
            };
            grid[next] &= !BOX;
            grid[beyond] |= BOX;
            report.pushes += 1;
        }
        if pushed != ch.is_ascii_uppercase() && report.first_case_mismatch.is_none() {
            report.first_case_mismatch = Some(index);
        }
        (pr, pc) = (pr + dr, pc + dc);
        report.moves += 1;
    }
    let cells = grid.iter().filter(|&&v| v != WALL);
    let boxes = cells.clone().filter(|&&v| v & BOX != 0).count();
    let goals = cells.clone().filter(|&&v| v & GOAL != 0).count();
    let on_goal = cells.filter(|&&v| v & BOX != 0 && v & GOAL != 0).count();
    report.solved = level.rule().is_solved(boxes, goals, on_goal);
    report.final_rows = rows(&grid, pr, pc);
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn verifies_and_finds_the_first_illegal_move() {
        let level = parse_levels("#####\n#@$.#\n#####\n").unwrap().remove(0);
        let ok = verify(&level, "R");
        assert!(ok.is_valid_solution());
        assert_eq!((ok.moves, ok.pushes), (1, 1));
        let case = verify(&level, "r");
        assert!(case.solved && !case.is_valid_solution());
        assert_eq!(case.first_case_mismatch, Some(0));
        let bad = verify(&level, "RR");
        assert_eq!(bad.illegal, Some(Illegal { index: 1, reason: IllegalReason::BoxBlocked }));
        assert_eq!(verify(&level, "u").illegal.unwrap().reason, IllegalReason::IntoWall);
        assert_eq!(verify(&level, "x").illegal.unwrap().reason, IllegalReason::NotAMove('x'));
    }
}
