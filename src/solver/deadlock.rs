//! Deadlock rules applied to the box just pushed, on the solver's square numbering.
//!
//! `occupied[s.index()] != 0` marks a box on solver square `s`. Both rules are only sound when
//! every box must end on a goal; the caller checks [`Analysis::pruning`] first. The engines reach
//! these rules through the successor generator ([`super::successors`]), which is the one place
//! where pruning runs.

use crate::analysis::{Analysis, Sq};
use crate::level::Dir;

/// A 2×2 block of boxes and walls containing `t` with at least one box off its goal.
pub fn block_2x2(a: &Analysis, occupied: &[u8], t: Sq) -> bool {
    let solid = |s: Option<Sq>| s.is_none_or(|s| occupied[s.index()] != 0);
    let off_goal_box = |s: Option<Sq>| s.is_some_and(|s| occupied[s.index()] != 0 && !a.is_goal(s));
    for dx in [Dir::Left, Dir::Right] {
        for dy in [Dir::Up, Dir::Down] {
            let x = a.neighbor(t, dx);
            let y = a.neighbor(t, dy);
            let diagonal = match (x, y) {
                (Some(x), _) => a.neighbor(x, dy),
                (None, Some(y)) => a.neighbor(y, dx),
                (None, None) => continue,
            };
            let off_goal = !a.is_goal(t) || off_goal_box(x) || off_goal_box(y) || off_goal_box(diagonal);
            if solid(x) && solid(y) && solid(diagonal) && off_goal {
                return true;
            }
        }
    }
    false
}

/// A freeze deadlock: the box on `t` can never move again (walls, pairs of dead squares and other
/// frozen boxes hold it on both axes), and it or one of the boxes holding it is off its goal.
///
/// `path` is scratch space; boxes on it are the ones being examined, assumed frozen (treated as
/// walls) while their neighbours are checked, which makes mutually blocking chains terminate.
pub fn freeze(a: &Analysis, occupied: &[u8], t: Sq, path: &mut Vec<Sq>) -> bool {
    path.clear();
    frozen(a, occupied, t, path) == Some(true)
}

/// Whether the box on `t` is frozen (it and the boxes holding it may all be on goals): it can
/// never move again without a deadlock.
pub fn is_frozen(a: &Analysis, occupied: &[u8], t: Sq, path: &mut Vec<Sq>) -> bool {
    path.clear();
    frozen(a, occupied, t, path).is_some()
}

/// `Some(off_goal)` if the box on `b` is frozen; `off_goal` says whether it or a box in its
/// support is off its goal.
fn frozen(a: &Analysis, occupied: &[u8], b: Sq, path: &mut Vec<Sq>) -> Option<bool> {
    path.push(b);
    let result = axis_blocked(a, occupied, b, Dir::Left, path)
        .and_then(|h| axis_blocked(a, occupied, b, Dir::Up, path).map(|v| h || v || !a.is_goal(b)));
    path.pop();
    result
}

fn axis_blocked(a: &Analysis, occupied: &[u8], b: Sq, d: Dir, path: &mut Vec<Sq>) -> Option<bool> {
    let (Some(n1), Some(n2)) = (a.neighbor(b, d), a.neighbor(b, d.opposite())) else {
        return Some(false);
    };
    if path.contains(&n1) || path.contains(&n2) {
        return Some(false);
    }
    if !a.is_live(n1) && !a.is_live(n2) {
        return Some(false);
    }
    for n in [n1, n2] {
        if occupied[n.index()] != 0
            && let Some(off) = frozen(a, occupied, n, path)
        {
            return Some(off);
        }
    }
    None
}
