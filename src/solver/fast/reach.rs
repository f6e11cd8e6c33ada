//! The player's reach in one position: a breadth-first flood over the free squares from the
//! player's square, with boxes as walls. It owns its marks and queue, so a caller that floods
//! once per state allocates nothing; a flood also returns the region's lowest square, the
//! normalised player square of the state keys.

use super::raw::{NONE, RawIndex, Stamps};
use crate::analysis::Analysis;
use crate::level::Dir;

/// A player-reach flood.
pub struct Reach {
    mark: Stamps,
    queue: Vec<u16>,
}

impl Reach {
    pub fn new(n: usize) -> Reach {
        Reach { mark: Stamps::new(n), queue: Vec::new() }
    }

    /// Marks the free squares reachable from `start` (boxes marked in `occupied`); returns
    /// the lowest of them, the region's normalised player square.
    pub fn flood(&mut self, a: &Analysis, occupied: &[u8], start: usize) -> u16 {
        self.mark.clear();
        self.queue.clear();
        self.queue.push(start as u16);
        self.mark.mark(start);
        let mut lowest = start as u16;
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head] as usize;
            head += 1;
            for d in Dir::ALL {
                let t = a.nb(s, d);
                if t != NONE && occupied[t as usize] == 0 && !self.mark.has(t as usize) {
                    self.mark.mark(t as usize);
                    lowest = lowest.min(t);
                    self.queue.push(t);
                }
            }
        }
        lowest
    }

    pub fn has(&self, s: usize) -> bool {
        self.mark.has(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn a_box_walls_off_the_squares_behind_it() {
        let level = parse_levels("#######\n#  @$ .#\n########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut occupied = vec![0u8; a.squares()];
        let at = |x| a.index_of(level.square_at(1, x).unwrap());
        occupied[at(4)] = 1;
        let mut reach = Reach::new(a.squares());
        let lowest = reach.flood(&a, &occupied, at(3));
        assert!(reach.has(at(1)) && reach.has(at(3)));
        assert!(!reach.has(at(4)) && !reach.has(at(5)));
        assert_eq!(usize::from(lowest), [at(1), at(2), at(3)].into_iter().min().unwrap());
    }
}
