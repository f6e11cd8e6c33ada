//! The feature space: each state is projected onto a small vector of domain features, and the
//! search gives every non-empty cell of that space a turn.
//!
//! - **packing**: the length of the longest prefix of the packing plan whose goals all hold a
//!   box (progress in the planned order);
//! - **out of plan**: boxes on goals beyond that prefix (packed out of order, which may block
//!   the goals still to fill);
//! - **connectivity**: the number of regions the boxes cut the free floor into (fewer means
//!   the player can reach more of the level);
//! - **room connectivity**: the number of doorways (free squares of the floor that join two
//!   parts of the level, found once per level) blocked by a box.
//!
//! A cell is the whole vector; a state's cell depends on its boxes alone.

use super::packing::PackingPlan;
use crate::analysis::{Analysis, NONE};
use crate::level::Dir;

/// A feature-space cell: (packing, out of plan, connectivity, room connectivity).
pub type Cell = [u16; 4];

/// Scratch for the region flood fill and the per-level doorway table.
pub struct Features {
    label: Vec<u32>,
    generation: u32,
    queue: Vec<u16>,
    /// Squares whose removal from the empty floor disconnects it (articulation points).
    doorway: Vec<bool>,
}

/// The regions of the free floor of one state.
pub struct Regions {
    /// Number of regions.
    pub count: u16,
    /// Lowest square index of the region of the queried square (the normalised player).
    pub player: u16,
}

impl Features {
    pub fn new(a: &Analysis) -> Features {
        let n = a.squares();
        Features { label: vec![0; n], generation: 0, queue: Vec::new(), doorway: articulation_points(a) }
    }

    /// Floods the free floor (squares with `occupied == 0`) and returns the number of regions
    /// and the lowest index of the region holding `player`.
    pub fn regions(&mut self, a: &Analysis, occupied: &[u8], player: usize) -> Regions {
        // Each region gets its own generation number; start fresh when they could overflow.
        if self.generation > u32::MAX - a.squares() as u32 - 2 {
            self.label.fill(0);
            self.generation = 0;
        }
        let base = self.generation;
        let mut count = 0u16;
        let mut player_region = NONE;
        for s in 0..a.squares() {
            if occupied[s] != 0 || self.label[s] > base {
                continue;
            }
            count += 1;
            self.generation += 1;
            let g = self.generation;
            self.label[s] = g;
            self.queue.clear();
            self.queue.push(s as u16);
            let mut head = 0;
            while head < self.queue.len() {
                let q = self.queue[head] as usize;
                head += 1;
                if q == player {
                    player_region = s as u16;
                }
                for d in Dir::ALL {
                    let t = a.neighbor(q, d);
                    if t != NONE && occupied[t as usize] == 0 && self.label[t as usize] <= base {
                        self.label[t as usize] = g;
                        self.queue.push(t);
                    }
                }
            }
        }
        Regions { count, player: player_region }
    }

    /// The cell of a state with boxes on `boxes` (solver indices, marked in `occupied`).
    pub fn cell(&self, plan: &PackingPlan, occupied: &[u8], boxes: &[u16], regions: u16) -> Cell {
        let packed = plan.order.iter().take_while(|&&g| occupied[g as usize] != 0).count() as u16;
        let on_goals = boxes.iter().filter(|&&b| (b as usize) < plan.order.len()).count() as u16;
        let blocked = boxes.iter().filter(|&&b| self.doorway[b as usize]).count() as u16;
        [packed, on_goals - packed, regions, blocked]
    }
}

/// Articulation points of the floor graph (iterative Tarjan), by solver index.
fn articulation_points(a: &Analysis) -> Vec<bool> {
    let n = a.squares();
    let mut disc = vec![0u32; n];
    let mut low = vec![0u32; n];
    let mut cut = vec![false; n];
    let mut time = 0u32;
    // Stack frames: (square, parent, next direction to try).
    let mut stack: Vec<(usize, usize, usize)> = Vec::new();
    for root in 0..n {
        if disc[root] != 0 {
            continue;
        }
        time += 1;
        disc[root] = time;
        low[root] = time;
        let mut root_children = 0;
        stack.push((root, usize::MAX, 0));
        while let Some(&mut (s, parent, ref mut next)) = stack.last_mut() {
            if *next < 4 {
                let d = Dir::ALL[*next];
                *next += 1;
                let t = a.neighbor(s, d);
                if t == NONE {
                    continue;
                }
                let t = t as usize;
                if disc[t] == 0 {
                    time += 1;
                    disc[t] = time;
                    low[t] = time;
                    if s == root {
                        root_children += 1;
                    }
                    stack.push((t, s, 0));
                } else if t != parent {
                    low[s] = low[s].min(disc[t]);
                }
            } else {
                stack.pop();
                if parent != usize::MAX {
                    low[parent] = low[parent].min(low[s]);
                    if parent != root && low[s] >= disc[parent] {
                        cut[parent] = true;
                    }
                }
            }
        }
        if root_children > 1 {
            cut[root] = true;
        }
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn a_corridor_between_two_rooms_is_made_of_doorways() {
        let level = parse_levels("##########\n#  #     #\n#    $. @#\n#  #     #\n##########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let cuts = articulation_points(&a);
        let at = |r, c| cuts[a.index_of(level.square_at(r, c).unwrap())];
        assert!(at(2, 3), "the gap in the wall joins the two rooms");
        assert!(!at(2, 5) && !at(1, 1));
    }

    #[test]
    fn regions_count_the_parts_of_the_floor() {
        let level = parse_levels("#######\n#  #  #\n# @$. #\n#  #  #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut occupied = vec![0u8; a.squares()];
        let b = a.index_of(level.boxes()[0]);
        occupied[b] = 1;
        let mut f = Features::new(&a);
        let p = a.index_of(level.player());
        let r = f.regions(&a, &occupied, p);
        assert_eq!(r.count, 2);
        let r2 = f.regions(&a, &occupied, p);
        assert_eq!((r2.count, r2.player), (2, r.player), "repeatable");
        occupied[b] = 0;
        assert_eq!(f.regions(&a, &occupied, p).count, 1);
    }
}
