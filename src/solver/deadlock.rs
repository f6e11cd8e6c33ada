//! Deadlock rules applied to the box just pushed, on the solver's square numbering.
//!
//! `occupied[i] != 0` marks a box on solver index `i`. Both rules are only sound when every box
//! must end on a goal; the caller checks [`crate::analysis::Analysis::pruning`] first.

use crate::analysis::{Analysis, NONE};
use crate::level::Dir;

/// A 2×2 block of boxes and walls containing `t` with at least one box off its goal.
pub fn block_2x2(a: &Analysis, occupied: &[u8], t: usize) -> bool {
    let solid = |i: u16| i == NONE || occupied[i as usize] != 0;
    let off_goal_box = |i: u16| i != NONE && occupied[i as usize] != 0 && (i as usize) >= a.goals();
    for dx in [Dir::Left, Dir::Right] {
        for dy in [Dir::Up, Dir::Down] {
            let x = a.neighbor(t, dx);
            let y = a.neighbor(t, dy);
            let diagonal = if x != NONE {
                a.neighbor(x as usize, dy)
            } else if y != NONE {
                a.neighbor(y as usize, dx)
            } else {
                continue;
            };
            let off_goal = t >= a.goals() || off_goal_box(x) || off_goal_box(y) || off_goal_box(diagonal);
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
pub fn freeze(a: &Analysis, occupied: &[u8], t: usize, path: &mut Vec<u16>) -> bool {
    path.clear();
    frozen(a, occupied, t, path) == Some(true)
}

/// Whether the box on `t` is frozen (it and the boxes holding it may all be on goals): it can
/// never move again without a deadlock.
pub fn is_frozen(a: &Analysis, occupied: &[u8], t: usize, path: &mut Vec<u16>) -> bool {
    path.clear();
    frozen(a, occupied, t, path).is_some()
}

/// `Some(off_goal)` if the box on `b` is frozen; `off_goal` says whether it or a box in its
/// support is off its goal.
fn frozen(a: &Analysis, occupied: &[u8], b: usize, path: &mut Vec<u16>) -> Option<bool> {
    path.push(b as u16);
    let result = axis_blocked(a, occupied, b, Dir::Left, path)
        .and_then(|h| axis_blocked(a, occupied, b, Dir::Up, path).map(|v| h || v || b >= a.goals()));
    path.pop();
    result
}

fn axis_blocked(a: &Analysis, occupied: &[u8], b: usize, d: Dir, path: &mut Vec<u16>) -> Option<bool> {
    let n1 = a.neighbor(b, d);
    let n2 = a.neighbor(b, d.opposite());
    if n1 == NONE || n2 == NONE || path.contains(&n1) || path.contains(&n2) {
        return Some(false);
    }
    let dead = |i: u16| i as usize >= a.live();
    if dead(n1) && dead(n2) {
        return Some(false);
    }
    for n in [n1, n2] {
        if occupied[n as usize] != 0
            && let Some(off) = frozen(a, occupied, n as usize, path)
        {
            return Some(off);
        }
    }
    None
}

/// The deadlock rule that prunes a push landing a box on level square `t`, given the boxes after
/// the push, or `None`. This is what the A* engine applies; tests check it against exhaustive
/// search.
pub fn pruned_by(a: &Analysis, boxes: &[crate::level::Square], t: crate::level::Square) -> Option<&'static str> {
    if !a.pruning() {
        return None;
    }
    if a.is_dead(t) {
        return Some("dead square");
    }
    let mut occupied = vec![0u8; a.squares()];
    for &b in boxes {
        occupied[a.index_of(b)] = 1;
    }
    let t = a.index_of(t);
    if block_2x2(a, &occupied, t) {
        return Some("2x2");
    }
    freeze(a, &occupied, t, &mut Vec::new()).then_some("freeze")
}
