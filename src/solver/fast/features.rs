//! The feature space: each state is projected onto a small vector of domain features, and the
//! search gives every non-empty cell of that space a turn.
//!
//! - **packing**: the length of the longest prefix of the packing plan whose goals all hold a
//!   box (progress in the planned order);
//! - **connectivity**: the number of regions the boxes cut the free floor into (fewer means
//!   the player can reach more of the level).
//!
//! A cell is the whole vector; a state's cell depends on its boxes alone. Two more features of
//! the FESS paper were tried as cell dimensions, boxes on goals out of plan order and boxes
//! on doorways (articulation squares of the floor, a stand-in for room connectivity): on
//! XSokoban 1–30 and Sasquatch 1–25 at 2 s they solved no more levels and split the states
//! over several times as many cells, so they are left out.

use super::packing::PackingPlan;
use super::raw::{NONE, RawIndex};
use crate::analysis::Analysis;
use crate::level::Dir;

/// A feature-space cell: (packing, connectivity).
pub type Cell = [u16; 2];

/// Scratch for the region flood fill and the per-level doorway table.
pub struct Features {
    label: Vec<u32>,
    generation: u32,
    queue: Vec<u16>,
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
        Features { label: vec![0; n], generation: 0, queue: Vec::new() }
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
                    let t = a.nb(q, d);
                    if t != NONE && occupied[t as usize] == 0 && self.label[t as usize] <= base {
                        self.label[t as usize] = g;
                        self.queue.push(t);
                    }
                }
            }
        }
        Regions { count, player: player_region }
    }

    /// The cell of a state (boxes marked in `occupied`) whose floor has `regions` regions.
    pub fn cell(&self, plan: &PackingPlan, occupied: &[u8], regions: u16) -> Cell {
        let packed = plan.order.iter().take_while(|&&g| occupied[g as usize] != 0).count() as u16;
        [packed, regions]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

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
