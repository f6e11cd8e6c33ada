//! Hotspots: boxes that stand in other boxes' way to the goals (after FESS).
//!
//! Worked out once per level: a square `y` is a *hotspot for* a square `x` when a box on `x`
//! can reach fewer goals with another box fixed on `y` than without. Reach is relaxed here: a
//! push needs the square behind the box and the square ahead free, but the player's way
//! round to the square behind is not checked, so the table is a cheap picture of which squares
//! lie on other boxes' ways, not a proof of anything.
//!
//! During the search a box is a hotspot when it is a hotspot for some box that is not on a goal
//! yet; the hotspot advisor names the move that frees the most such boxes. Only the squares a
//! box's pushes use can change its reach, so each square's pushes are searched once without
//! obstacle and once per square they use.

use crate::analysis::region::relaxed_pushes;
use crate::analysis::{Analysis, Sq};

/// Levels with more live squares than this get no table (its cost grows with the square of
/// the live squares times their pushes); the advisor then stays silent.
const MAX_LIVE: usize = 400;

/// The per-level hotspot relation over live squares.
pub struct Hotspots {
    live: usize,
    /// Bit `x * live + y`: `y` is a hotspot for `x`.
    bits: Vec<u64>,
}

impl Hotspots {
    /// An empty table: no square is a hotspot for any other.
    pub fn empty(a: &Analysis) -> Hotspots {
        Hotspots { live: a.live(), bits: Vec::new() }
    }

    /// Builds the table; `None` when `stop` asked to stop first. A level with more than
    /// [`MAX_LIVE`] live squares gets an empty table.
    pub fn new(a: &Analysis, stop: &mut dyn FnMut() -> bool) -> Option<Hotspots> {
        let live = a.live();
        let mut hot = Hotspots::empty(a);
        if live > MAX_LIVE {
            return Some(hot);
        }
        hot.bits = vec![0; (live * live).div_ceil(64)];
        let mut reach = BoxReach { seen: vec![false; live], used: vec![false; a.squares()], queue: Vec::new() };
        let mut used = Vec::new();
        for x in a.goals()..live {
            if stop() {
                return None;
            }
            let base = reach.goals(a, x, usize::MAX);
            used.clear();
            // Boxes stand on live squares only.
            used.extend((0..live).filter(|&s| reach.used[s] && s != x));
            for &y in &used {
                if reach.goals(a, x, y) != base {
                    let bit = x * live + y;
                    hot.bits[bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        Some(hot)
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        self.bits.capacity() * 8
    }

    /// Whether a box on `y` is a hotspot for a box on `x` (both live squares).
    #[inline]
    pub fn blocks(&self, x: usize, y: usize) -> bool {
        if self.bits.is_empty() {
            return false;
        }
        let bit = x * self.live + y;
        self.bits[bit / 64] >> (bit % 64) & 1 != 0
    }

    /// How many of `boxes` are hotspots for some box of `boxes` that is not on a goal (solver
    /// indices below `goals`). `counts` is scratch: afterwards `counts[i]` holds how many such
    /// boxes box `i` blocks.
    pub fn count(&self, boxes: &[u16], goals: usize, counts: &mut Vec<u32>) -> u32 {
        counts.clear();
        counts.resize(boxes.len(), 0);
        if self.bits.is_empty() {
            return 0;
        }
        for &x in boxes.iter().filter(|&&x| x as usize >= goals) {
            for (i, &y) in boxes.iter().enumerate() {
                if y != x && self.blocks(x as usize, y as usize) {
                    counts[i] += 1;
                }
            }
        }
        counts.iter().filter(|&&c| c > 0).count() as u32
    }

    /// The hotspot count after box `row` of `boxes` moves to `to`, from the counts `count`
    /// left for `boxes`, in O(boxes).
    pub fn moved(&self, boxes: &[u16], goals: usize, counts: &[u32], row: usize, to: usize) -> u32 {
        if self.bits.is_empty() {
            return 0;
        }
        let from = boxes[row] as usize;
        let mut hot = 0;
        let mut own = 0;
        for (i, &y) in boxes.iter().enumerate() {
            if i == row {
                continue;
            }
            let y = y as usize;
            let mut c = counts[i];
            if from >= goals && self.blocks(from, y) {
                c -= 1;
            }
            if to >= goals && self.blocks(to, y) {
                c += 1;
            }
            hot += u32::from(c > 0);
            if y >= goals && self.blocks(y, to) {
                own += 1;
            }
        }
        hot + u32::from(own > 0)
    }
}

/// Scratch for the relaxed push search of one box.
struct BoxReach {
    seen: Vec<bool>,
    /// Squares the last search's pushes used (box squares and the squares behind them).
    used: Vec<bool>,
    queue: Vec<Sq>,
}

impl BoxReach {
    /// The goals a box on `x` reaches with `blocked` (or nothing, when out of range) taken,
    /// marking in `used` the squares the pushes used.
    fn goals(&mut self, a: &Analysis, x: usize, blocked: usize) -> usize {
        self.seen.fill(false);
        self.used.fill(false);
        self.queue.clear();
        self.queue.push(Sq::new(x));
        self.seen[x] = true;
        self.used[x] = true;
        let mut goals = usize::from(x < a.goals());
        let BoxReach { seen, used, queue } = self;
        relaxed_pushes(
            a,
            queue,
            |_, _| true,
            |_, t, behind| {
                let (t, behind) = (t.index(), behind.index());
                if t >= a.live() || t == blocked || behind == blocked || seen[t] {
                    return false;
                }
                seen[t] = true;
                used[t] = true;
                used[behind] = true;
                goals += usize::from(t < a.goals());
                true
            },
        );
        goals
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    fn analysis(text: &str) -> (crate::level::Level, Analysis) {
        let level = parse_levels(text).expect("parses").remove(0);
        let a = Analysis::new(&level);
        (level, a)
    }

    #[test]
    fn a_box_in_a_corridor_blocks_the_box_behind_it() {
        // Corridor: the box on the left can reach the goal only through the squares to its right.
        let (level, a) = analysis("#########\n#@$  $..#\n#########\n");
        let hot = Hotspots::new(&a, &mut || false).expect("not stopped");
        let boxes: Vec<u16> = level.boxes().iter().map(|&b| a.sq(b).index() as u16).collect();
        let (left, right) = (boxes[0] as usize, boxes[1] as usize);
        assert!(hot.blocks(left, right), "the right box stands in the left one's way");
        assert!(!hot.blocks(right, left), "the left box is not on the right one's way");
    }

    const XSOKOBAN_1: &str = r"    #####
    #   #
    #$  #
  ###  $##
  #  $ $ #
### # ## #   ######
#   # ## #####  ..#
# $  $          ..#
##### ### #@##  ..#
    #     #########
    #######
";

    #[test]
    fn incremental_count_matches_a_full_recount() {
        let (level, a) = analysis(XSOKOBAN_1);
        let hot = Hotspots::new(&a, &mut || false).expect("not stopped");
        let mut boxes: Vec<u16> = level.boxes().iter().map(|&b| a.sq(b).index() as u16).collect();
        boxes.sort_unstable();
        let mut counts = Vec::new();
        let mut scratch = Vec::new();
        hot.count(&boxes, a.goals(), &mut counts);
        for row in 0..boxes.len() {
            for to in 0..a.live() {
                if boxes.contains(&(to as u16)) {
                    continue;
                }
                let fast = hot.moved(&boxes, a.goals(), &counts, row, to);
                let mut moved = boxes.clone();
                moved[row] = to as u16;
                assert_eq!(fast, hot.count(&moved, a.goals(), &mut scratch), "row {row} to {to}");
            }
        }
    }
}
