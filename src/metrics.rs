//! Solution metrics: the numbers players and other Sokoban programs (YASC, JSoko) use to compare
//! solutions of the same level, computed by replaying the moves with [`crate::rules`] (never
//! with the solver).
//!
//! Definitions (following the Sokoban wiki and the programs' optimizers; a "push" is a move that
//! moves a box, a "walk" one that does not):
//!
//! - **moves**: every step of the player, walks and pushes alike.
//! - **pushes**: the steps that move a box.
//! - **box lines**: maximal runs of consecutive pushes in the same direction (with no walk in
//!   between; such a run always moves one box along a straight line). A push after a walk, or
//!   in a new direction, starts a new box line.
//! - **box changes**: how many times the player starts pushing a box other than the one pushed
//!   last; the first box pushed counts as one, so a solution that pushes only one box has 1 box
//!   change (and one with no push has 0).
//! - **pushing sessions**: maximal runs of consecutive pushes (uninterrupted by walks), whatever
//!   their directions or boxes.
//! - **player lines**: maximal runs of consecutive steps in the same direction (walks and pushes
//!   alike): the straight segments of the player's path.
//!
//! A solution with no move has every metric 0.

use crate::level::{Dir, Level, Square};
use crate::rules::{Blocked, Position};

/// The metrics of a move sequence (see the module documentation for the definitions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Metrics {
    /// Steps of the player.
    pub moves: usize,
    /// Steps that moved a box.
    pub pushes: usize,
    /// Maximal runs of consecutive pushes in one direction.
    pub box_lines: usize,
    /// Times the pushed box differs from the box pushed before (the first box counts).
    pub box_changes: usize,
    /// Maximal runs of consecutive pushes.
    pub pushing_sessions: usize,
    /// Maximal runs of consecutive steps in one direction.
    pub player_lines: usize,
}

/// A step that the rules do not allow, and its 0-based index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalStep {
    /// 0-based index of the step.
    pub index: usize,
    /// Why the step is impossible.
    pub reason: Blocked,
}

/// The metrics of walking `dirs` from the level's start (whether the moves solve the level is
/// not checked here; [`crate::verify::verify`] does that).
pub fn measure(level: &Level, dirs: impl IntoIterator<Item = Dir>) -> Result<Metrics, IllegalStep> {
    let mut m = Metrics::default();
    let mut pos = Position::start(level);
    // The previous step: its direction and whether it pushed.
    let mut prev: Option<(Dir, bool)> = None;
    // Where the box pushed last stands now.
    let mut last_box: Option<Square> = None;
    for (index, dir) in dirs.into_iter().enumerate() {
        let (next, mv) = pos.step(level, dir).map_err(|reason| IllegalStep { index, reason })?;
        m.moves += 1;
        if prev.map(|p| p.0) != Some(dir) {
            m.player_lines += 1;
        }
        if mv.push {
            m.pushes += 1;
            // The box stood where the player now stands and moved one square further.
            let from = next.player();
            let to = level.neighbor(from, dir);
            if prev != Some((dir, true)) {
                m.box_lines += 1;
            }
            if !prev.is_some_and(|p| p.1) {
                m.pushing_sessions += 1;
            }
            if last_box != Some(from) {
                m.box_changes += 1;
            }
            last_box = to;
        }
        prev = Some((dir, mv.push));
        pos = next;
    }
    Ok(m)
}

/// The metrics of a LURD string (either case, white space ignored, run-length encoding
/// accepted); `None` when it does not decode or a step is illegal.
pub fn measure_lurd(level: &Level, lurd: &str) -> Option<Metrics> {
    let letters = crate::lurd::decode(lurd).ok()?;
    measure(level, letters.into_iter().map(|l| l.dir)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    fn metrics(board: &str, lurd: &str) -> Option<Metrics> {
        let level = parse_levels(board).unwrap().remove(0);
        measure_lurd(&level, lurd)
    }

    fn m(moves: usize, pushes: usize, box_lines: usize, box_changes: usize, sessions: usize, lines: usize) -> Metrics {
        Metrics { moves, pushes, box_lines, box_changes, pushing_sessions: sessions, player_lines: lines }
    }

    #[test]
    fn a_straight_push_is_one_of_everything() {
        let board = "######\n#@$ .#\n######\n";
        assert_eq!(metrics(board, "RR"), Some(m(2, 2, 1, 1, 1, 1)));
        assert_eq!(metrics(board, ""), Some(Metrics::default()));
        // Illegal: the third push meets the wall.
        assert_eq!(metrics(board, "RRR"), None);
    }

    #[test]
    fn hand_counted_paths() {
        let room = "#######\n#.   .#\n# $@$ #\n#     #\n#######\n";
        // R pushes the right box; l walks back; L pushes the left box: two boxes, two
        // sessions, two box lines, and the path R | l L has two straight segments.
        assert_eq!(metrics(room, "RlL"), Some(m(3, 2, 2, 2, 2, 2)));
        // R, then round the same box (u r) and push it down: one box, two lines, two
        // sessions; the path turns at every step.
        assert_eq!(metrics(room, "RurD"), Some(m(4, 2, 2, 1, 2, 4)));
        // Walking only: no push metric counts.
        assert_eq!(metrics(room, "ullrrd"), Some(m(6, 0, 0, 0, 0, 4)));
        // Two pushes in one direction without a walk are one box line and one session; a walk
        // in the same direction continues the player line.
        let corridor = "########\n#@ $  .#\n########\n";
        assert_eq!(metrics(corridor, "rRRR"), Some(m(4, 3, 1, 1, 1, 1)));
        // Pushing box A, then box B directly (no walk between) is one session but two box
        // changes and two box lines.
        let two = "#######\n# .   #\n# $   #\n#.$@  #\n#######\n";
        // L pushes the lower box left onto its goal; U pushes the box now above the player.
        assert_eq!(metrics(two, "LU"), Some(m(2, 2, 2, 2, 1, 2)));
    }
}
