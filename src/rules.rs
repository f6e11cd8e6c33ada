//! The game rules as pure functions over [`Position`]s.
//!
//! A position is the player's square plus the set of squares holding boxes. [`Position::step`]
//! returns a new position and never touches its input; [`Position::undo`] reverses a step given
//! the [`Move`] it made. Successors come in the fixed order up, right, down, left.

use fixedbitset::FixedBitSet;

use crate::level::{Dir, Level, RawBoard, Square};

/// One unit move: a direction and whether it pushed a box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// The direction the player moved.
    pub dir: Dir,
    /// Whether the move pushed a box.
    pub push: bool,
}

impl Move {
    /// The LURD letter: lowercase for a walk, uppercase for a push.
    pub fn letter(self) -> char {
        let c = self.dir.letter();
        if self.push { c.to_ascii_uppercase() } else { c }
    }
}

/// Why a step is not possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Blocked {
    #[error("a wall is in the way")]
    /// The player would walk into a wall.
    Wall,
    #[error("the box cannot move: a wall or another box is behind it")]
    /// The box would be pushed into a wall or another box.
    BoxBlocked,
}

/// A game position: where the player stands and which squares hold boxes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    player: Square,
    boxes: FixedBitSet,
}

impl Position {
    /// The level's start position.
    pub fn start(level: &Level) -> Position {
        let mut boxes = FixedBitSet::with_capacity(level.square_count());
        for b in level.boxes() {
            boxes.insert(b.index());
        }
        Position { player: level.player(), boxes }
    }

    /// A position from parts. Boxes are square indices of `level`.
    ///
    /// # Panics
    ///
    /// If a box square is not one of `level`'s squares (an index of at least
    /// [`Level::square_count`]).
    pub fn from_parts(level: &Level, player: Square, boxes: impl IntoIterator<Item = Square>) -> Position {
        let mut set = FixedBitSet::with_capacity(level.square_count());
        for b in boxes {
            set.insert(b.index());
        }
        Position { player, boxes: set }
    }

    /// The player's square.
    pub fn player(&self) -> Square {
        self.player
    }
    /// This position drawn on its level's board, for the writers (`format::write_raw`).
    pub fn to_raw(&self, level: &Level) -> RawBoard {
        level.raw_with(|s| self.has_box(s), self.player)
    }
    /// Whether a box stands on `s`.
    pub fn has_box(&self, s: Square) -> bool {
        self.boxes.contains(s.index())
    }
    /// Box squares in index order.
    pub fn boxes(&self) -> impl Iterator<Item = Square> + '_ {
        self.boxes.ones().map(Square::new)
    }

    /// The position after moving one step, or why that is impossible. Never mutates `self`.
    ///
    /// # Panics
    ///
    /// If the position or a square comes from another level (a square index beyond this level's
    /// squares): positions and squares belong to the level that made them.
    pub fn step(&self, level: &Level, dir: Dir) -> Result<(Position, Move), Blocked> {
        let to = level.neighbor(self.player, dir).ok_or(Blocked::Wall)?;
        if !self.has_box(to) {
            let next = Position { player: to, boxes: self.boxes.clone() };
            return Ok((next, Move { dir, push: false }));
        }
        let beyond = level.neighbor(to, dir).ok_or(Blocked::BoxBlocked)?;
        if self.has_box(beyond) {
            return Err(Blocked::BoxBlocked);
        }
        let mut boxes = self.boxes.clone();
        boxes.set(to.index(), false);
        boxes.insert(beyond.index());
        Ok((Position { player: to, boxes }, Move { dir, push: true }))
    }

    /// The position before `mv` was made from it. Returns `None` if `mv` cannot have led here.
    ///
    /// # Panics
    ///
    /// If the position or a square comes from another level (a square index beyond this level's
    /// squares): positions and squares belong to the level that made them.
    pub fn undo(&self, level: &Level, mv: Move) -> Option<Position> {
        let back = mv.dir.opposite();
        let from = level.neighbor(self.player, back)?;
        if self.has_box(from) {
            return None;
        }
        let mut boxes = self.boxes.clone();
        if mv.push {
            let pushed = level.neighbor(self.player, mv.dir)?;
            if !self.has_box(pushed) || self.has_box(self.player) {
                return None;
            }
            boxes.set(pushed.index(), false);
            boxes.insert(self.player.index());
        }
        Some(Position { player: from, boxes })
    }

    /// Legal successors in the order up, right, down, left.
    ///
    /// # Panics
    ///
    /// If the position or a square comes from another level (a square index beyond this level's
    /// squares): positions and squares belong to the level that made them.
    pub fn successors(&self, level: &Level) -> Vec<(Move, Position)> {
        Dir::ALL.iter().filter_map(|&d| self.step(level, d).ok().map(|(p, m)| (m, p))).collect()
    }

    /// Number of boxes on goals.
    ///
    /// # Panics
    ///
    /// If the position or a square comes from another level (a square index beyond this level's
    /// squares): positions and squares belong to the level that made them.
    pub fn boxes_on_goals(&self, level: &Level) -> usize {
        self.boxes().filter(|&b| level.is_goal(b)).count()
    }

    /// Whether the level is solved under its rule.
    ///
    /// # Panics
    ///
    /// If the position or a square comes from another level (a square index beyond this level's
    /// squares): positions and squares belong to the level that made them.
    pub fn is_solved(&self, level: &Level) -> bool {
        level.rule().is_solved(self.boxes.count_ones(..), level.goals().len(), self.boxes_on_goals(level))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn push_and_blocked_moves() {
        let level = parse_levels("#######\n#@$$. #\n#   . #\n#######\n").unwrap().remove(0);
        let start = Position::start(&level);
        assert_eq!(start.step(&level, Dir::Right), Err(Blocked::BoxBlocked));
        assert_eq!(start.step(&level, Dir::Up), Err(Blocked::Wall));
        let (down, mv) = start.step(&level, Dir::Down).unwrap();
        assert!(!mv.push);
        assert_eq!(down.undo(&level, mv), Some(start.clone()));
        let succ = start.successors(&level);
        assert_eq!(succ.len(), 1);
        assert_eq!(succ[0].0.dir, Dir::Down);
    }
}
