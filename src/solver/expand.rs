//! Turning a push sequence into unit moves: before each push the player walks a shortest path
//! (breadth-first, around the boxes) to the square behind the box.

use std::collections::VecDeque;

use crate::level::{Dir, Level, Square};
use crate::rules::{Move, Position};

/// One push: the box's square before the push and the direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Push {
    /// The box's square before the push.
    pub from: Square,
    /// The direction of the push.
    pub dir: Dir,
}

/// Shortest walk from the position's player to `target`, avoiding boxes.
///
/// # Panics
///
/// If the position comes from another level (its player's square index is beyond this level's
/// squares). A `target` of another level is simply never reached.
pub fn walk(level: &Level, pos: &Position, target: Square) -> Option<Vec<Dir>> {
    let n = level.square_count();
    let mut came: Vec<Option<(Square, Dir)>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut queue = VecDeque::from([pos.player()]);
    seen[pos.player().index()] = true;
    while let Some(s) = queue.pop_front() {
        if s == target {
            let mut path = Vec::new();
            let mut at = s;
            while let Some((prev, d)) = came[at.index()] {
                path.push(d);
                at = prev;
            }
            path.reverse();
            return Some(path);
        }
        for d in Dir::ALL {
            if let Some(t) = level.neighbor(s, d).filter(|&t| !seen[t.index()] && !pos.has_box(t)) {
                seen[t.index()] = true;
                came[t.index()] = Some((s, d));
                queue.push_back(t);
            }
        }
    }
    None
}

/// The unit moves of a push sequence from the level's start, or `None` if a push is impossible
/// (which would be a solver bug; callers treat it as such).
///
/// # Panics
///
/// If a push's square is not one of `level`'s squares.
pub fn pushes_to_moves(level: &Level, pushes: &[Push]) -> Option<Vec<Move>> {
    let mut pos = Position::start(level);
    let mut moves = Vec::new();
    for p in pushes {
        let behind = level.neighbor(p.from, p.dir.opposite())?;
        for d in walk(level, &pos, behind)? {
            let (next, mv) = pos.step(level, d).ok()?;
            moves.push(mv);
            pos = next;
        }
        let (next, mv) = pos.step(level, p.dir).ok()?;
        if !mv.push {
            return None;
        }
        moves.push(mv);
        pos = next;
    }
    Some(moves)
}

/// The pushes among `moves` played from the level's start: the inverse of [`pushes_to_moves`]
/// up to the walks between pushes. `None` if a move leaves the board.
pub fn moves_to_pushes(level: &Level, moves: &[Move]) -> Option<Vec<Push>> {
    let mut at = level.player();
    let mut pushes = Vec::new();
    for m in moves {
        let next = level.neighbor(at, m.dir)?;
        if m.push {
            pushes.push(Push { from: next, dir: m.dir });
        }
        at = next;
    }
    Some(pushes)
}

/// Total cost of a move sequence: 1 per move plus the weight of each pushed box.
pub fn cost_of(level: &Level, weights: &[u32], moves: &[Move]) -> u64 {
    // Track which box is where, by index into the level's box list.
    let mut owner: Vec<Option<usize>> = vec![None; level.square_count()];
    for (i, b) in level.boxes().iter().enumerate() {
        owner[b.index()] = Some(i);
    }
    let mut player = level.player();
    let mut cost = 0u64;
    for m in moves {
        let Some(next) = level.neighbor(player, m.dir) else { break };
        cost += 1;
        if let Some(bi) = owner[next.index()]
            && let Some(beyond) = level.neighbor(next, m.dir)
        {
            owner[beyond.index()] = Some(bi);
            owner[next.index()] = None;
            cost += u64::from(weights.get(bi).copied().unwrap_or(0));
        }
        player = next;
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn moves_give_back_the_pushes_they_were_made_of() {
        let level = parse_levels("#######\n#@ $ .#\n# $. ##\n#######\n").unwrap().remove(0);
        let right = level.square_at(1, 3).unwrap();
        let down_row = level.square_at(2, 2).unwrap();
        let pushes = [Push { from: right, dir: Dir::Right }, Push { from: down_row, dir: Dir::Right }];
        let moves = pushes_to_moves(&level, &pushes).expect("legal pushes");
        assert!(moves.len() > pushes.len());
        assert_eq!(moves_to_pushes(&level, &moves), Some(pushes.to_vec()));
    }
}
