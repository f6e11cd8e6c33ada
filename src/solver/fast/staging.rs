//! Staging: boxes that stand in each other's way at the start, and where one of each pair
//! should step aside (the staging advisor).
//!
//! Two boxes are *in each other's way* when each stands on a square the other needs to reach
//! the goals: on a shortest way of its pushes to the nearest goal (on the bare board), or on a
//! square the player pushes it from along such a way. Boxes in a row in a corridor are the
//! common case: the front box cannot be pushed on with the one behind it standing where the
//! player must be, and the one behind cannot pass the front one. Neither can go first, so one
//! has to step aside before either reaches its goal. The packing plan, worked out backwards
//! from the solved position, cannot see this (it moves one box at a time, the others on their
//! goals), and the packing advisor keeps the search on lines that try the plan's first goals
//! from the start position.
//!
//! For each such pair the box farther from the goals (it goes later anyway) is sent to the
//! square it can reach with the fewest pushes that is off its partner's way, no goal, and does
//! not cut the floor in two. The search's staging advisor names that move while no goal of
//! the plan is filled yet, in the first pass under limits above 10 s (under 10 s it delays
//! the plan's direct attempts more than it helps). Advice only: the plan does not wait for
//! it: made steps of the plan instead (the packing feature counting them), they would hold
//! back every level whose pairs are only apparent until they were made.
//!
//! Everything here is static and relaxed (the player may stand anywhere the walls and the
//! moving box allow): the moves are advice, the search decides.

use super::packing::SideFlood;
use crate::analysis::region::relaxed_pushes;
use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::level::Dir;

/// The squares a box may be tried on before it is given up (each try floods the floor): a
/// bound on the work in huge levels of corridors, well above the tries any level in `data/`
/// needs for all its boxes together.
const MAX_FLOODS: usize = 256;

/// A box that should step aside: from the square it starts on to the square it should wait on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aside {
    pub from: Sq,
    pub to: Sq,
}

/// The staging moves for the boxes on the squares marked in `starts`: for each box farther
/// from the goals than a partner it stands in each other's way with, where it should go, in
/// the order it should go (the farthest first). Boxes on goals are left alone.
pub fn staging_moves(a: &Analysis, starts: &[bool]) -> Vec<Aside> {
    let n = a.squares();
    let goals = a.goals();
    let nearest: Vec<u16> = (0..n)
        .map(|s| (0..goals).map(|g| a.distance(g, Sq::new(s)).unwrap_or(UNREACHABLE)).min().unwrap_or(UNREACHABLE))
        .collect();
    let boxes: Vec<usize> = (goals..n).filter(|&s| starts[s] && nearest[s] != UNREACHABLE).collect();
    let mut scratch = BoxSearch::new(n);
    let ways: Vec<Vec<bool>> = boxes.iter().map(|&b| way_of(a, &nearest, b, &mut scratch)).collect();
    // The boxes to stage (indices into `boxes`), each with the partners whose way it is in.
    let mut staged: Vec<(usize, Vec<usize>)> = Vec::new();
    for (i, &x) in boxes.iter().enumerate() {
        for (j, &y) in boxes.iter().enumerate().skip(i + 1) {
            if !(ways[i][y] && ways[j][x]) {
                continue;
            }
            let (far, partner) = if (nearest[x], x) > (nearest[y], y) { (i, j) } else { (j, i) };
            match staged.iter_mut().find(|(k, _)| *k == far) {
                Some((_, partners)) => partners.push(partner),
                None => staged.push((far, vec![partner])),
            }
        }
    }
    staged.sort_by_key(|&(k, _)| (std::cmp::Reverse(nearest[boxes[k]]), boxes[k]));
    // Each box steps aside with the earlier ones where they were sent.
    let mut occupied: Vec<bool> = starts.to_vec();
    let mut moves = Vec::new();
    for (k, partners) in staged {
        let b = boxes[k];
        let off = |s: usize| partners.iter().all(|&p| !ways[p][s]);
        occupied[b] = false;
        let mut floods = 0;
        let to = scratch.nearest_square(a, &nearest, &occupied, b, |s, occupied, search| {
            if s == b || s < goals || !off(s) {
                return Some(false);
            }
            floods += 1;
            (floods <= MAX_FLOODS).then(|| !search.sides.cuts(a, occupied, s))
        });
        match to {
            Some(t) => {
                occupied[t] = true;
                moves.push(Aside { from: Sq::new(b), to: Sq::new(t) });
            }
            None => occupied[b] = true,
        }
    }
    moves
}

/// The squares box `b` needs on its way to the nearest goal: every square on a shortest way of
/// its pushes (on the bare board) but its own, and the squares the player pushes from.
fn way_of(a: &Analysis, nearest: &[u16], b: usize, scratch: &mut BoxSearch) -> Vec<bool> {
    let n = a.squares();
    let from_b = scratch.bare_distances(a, b);
    let on_path =
        |s: usize| from_b[s] != UNREACHABLE && nearest[s] != UNREACHABLE && from_b[s] + nearest[s] == nearest[b];
    let mut way = vec![false; n];
    for s in (0..n).filter(|&s| on_path(s)) {
        if s != b {
            way[s] = true;
        }
        for d in Dir::ALL {
            let here = Sq::new(s);
            let (Some(t), Some(p)) = (a.neighbor(here, d), a.neighbor(here, d.opposite())) else { continue };
            let (t, p) = (t.index(), p.index());
            if on_path(t) && from_b[t] == from_b[s] + 1 && nearest[t] + 1 == nearest[s] && p != b {
                way[p] = true;
            }
        }
    }
    way
}

/// Scratch for the box searches.
struct BoxSearch {
    dist: Vec<u16>,
    queue: Vec<Sq>,
    sides: SideFlood,
}

impl BoxSearch {
    fn new(n: usize) -> BoxSearch {
        BoxSearch { dist: vec![UNREACHABLE; n], queue: Vec::new(), sides: SideFlood::new(n) }
    }

    /// Pushes from `b` to every square on the bare board (the player anywhere).
    fn bare_distances(&mut self, a: &Analysis, b: usize) -> Vec<u16> {
        let mut dist = vec![UNREACHABLE; a.squares()];
        dist[b] = 0;
        self.queue.clear();
        self.queue.push(Sq::new(b));
        relaxed_pushes(
            a,
            &mut self.queue,
            |_, _| true,
            |s, t, _| {
                let fresh = a.is_live(t) && dist[t] == UNREACHABLE;
                if fresh {
                    dist[t] = dist[s] + 1;
                }
                fresh
            },
        );
        dist
    }

    /// The square, fewest pushes first (then the lowest index), that the box on `b` (not
    /// marked in `occupied`) can be pushed to over live squares free of boxes, the player
    /// standing wherever a wall does not (relaxed), for which `fits` says `Some(true)` (it is
    /// asked with the box on the square, marked in the occupancy it is given); `None` from
    /// `fits` ends the search without a square.
    fn nearest_square(
        &mut self,
        a: &Analysis,
        nearest: &[u16],
        occupied: &[bool],
        b: usize,
        mut fits: impl FnMut(usize, &[bool], &mut Self) -> Option<bool>,
    ) -> Option<usize> {
        let mut occ = occupied.to_vec();
        self.dist.fill(UNREACHABLE);
        self.dist[b] = 0;
        let mut layer = vec![b];
        while !layer.is_empty() {
            layer.sort_unstable();
            for &s in &layer {
                occ[s] = true;
                let fit = fits(s, &occ, self);
                occ[s] = false;
                match fit {
                    Some(true) => return Some(s),
                    Some(false) => {}
                    None => return None,
                }
            }
            let mut next = Vec::new();
            for &s in &layer {
                for d in Dir::ALL {
                    let here = Sq::new(s);
                    let (Some(t), Some(_)) = (a.neighbor(here, d), a.neighbor(here, d.opposite())) else { continue };
                    if occ[t] || nearest[t] == UNREACHABLE {
                        continue;
                    }
                    if self.dist[t] == UNREACHABLE {
                        self.dist[t] = self.dist[s] + 1;
                        next.push(t.index());
                    }
                }
            }
            layer = next;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;
    use crate::solver::fast::packing::start_squares;

    /// The staging moves of `text`'s first level, as (row, column) pairs of level squares.
    fn moves_of(text: &str) -> Vec<((usize, usize), (usize, usize))> {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        staging_moves(&a, &starts)
            .into_iter()
            .map(|m| (level.coords(a.square(m.from)), level.coords(a.square(m.to))))
            .collect()
    }

    #[test]
    fn the_box_behind_steps_aside_off_its_partners_way() {
        // The box on column 3 goes left into the goal room, pushed from column 4, where the
        // other box stands, whose own shortest way runs through column 3: neither can go
        // first. The farther one (column 4) steps aside, up or right, and the way is free.
        let moves = moves_of("########\n#      #\n#      #\n#..$$ @#\n#      #\n########\n");
        assert_eq!(moves.len(), 1, "{moves:?}");
        let (from, to) = moves[0];
        assert_eq!(from, (3, 4));
        assert!([(2, 4), (3, 5)].contains(&to), "{to:?} is one push away and off the other's way");
    }

    #[test]
    fn boxes_that_can_go_one_after_the_other_stay() {
        // The box on column 5 needs column 3, but the one there can go first: no pair.
        assert_eq!(moves_of("########\n#      #\n#      #\n#..$ $@#\n#      #\n########\n"), vec![]);
        // Nor is a box alone, or one beside a box on a goal.
        assert_eq!(moves_of("#######\n#.$  @#\n#######\n"), vec![]);
        assert_eq!(moves_of("########\n#*.$  @#\n########\n"), vec![]);
    }

    #[test]
    fn a_box_that_cannot_step_aside_gets_no_move() {
        // Two boxes in a row in a corridor: a pair, but the farther box has nowhere to go
        // (right of it a dead corner, below a niche it cannot be pushed into).
        assert_eq!(moves_of("#########\n#..  $$ #\n###### ##\n     #@#\n     ###\n"), vec![]);
    }
}
