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

/// The per-level hotspot relation over live squares, as bit rows both ways round: a child's
/// count is a few word operations over the rows of the square its box moved to (see
/// [`Moving`]) rather than a look-up per box.
pub struct Hotspots {
    /// Words per row: a bit for each live square.
    words: usize,
    /// Row `x`, bit `y`: `y` is a hotspot for `x`.
    rows: Vec<u64>,
    /// Row `y`, bit `x`: `y` is a hotspot for `x` (the rows above, transposed).
    cols: Vec<u64>,
}

/// The children of a state that move one box (row `row` of its boxes), worked out once for
/// the box by [`Hotspots::moving`]: after the box leaves its square, how many of the other
/// boxes are hotspots for some box off its goal (`base`), which of them are not (`idle`: a
/// box that the moved box blocks from its new square makes one), and which stand off their
/// goals (`off_goals`: the moved box on a hotspot of one of them is one itself).
#[derive(Debug, Clone, Default)]
pub struct Moving {
    row: Option<usize>,
    base: u32,
    idle: Vec<u64>,
    off_goals: Vec<u64>,
}

impl Moving {
    /// Forgets the box worked out: the next state's children need their own.
    pub fn clear(&mut self) {
        self.row = None;
    }
}

impl Hotspots {
    /// An empty table: no square is a hotspot for any other.
    pub fn empty(a: &Analysis) -> Hotspots {
        Hotspots { words: a.live().div_ceil(64), rows: Vec::new(), cols: Vec::new() }
    }

    /// Builds the table; `None` when `stop` asked to stop first. A level with more than
    /// [`MAX_LIVE`] live squares gets an empty table.
    pub fn new(a: &Analysis, stop: &mut dyn FnMut() -> bool) -> Option<Hotspots> {
        let live = a.live();
        let mut hot = Hotspots::empty(a);
        if live > MAX_LIVE {
            return Some(hot);
        }
        hot.rows = vec![0; live * hot.words];
        hot.cols = vec![0; live * hot.words];
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
                    hot.rows[x * hot.words + y / 64] |= 1 << (y % 64);
                    hot.cols[y * hot.words + x / 64] |= 1 << (x % 64);
                }
            }
        }
        Some(hot)
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> usize {
        (self.rows.capacity() + self.cols.capacity()) * 8
    }

    /// Whether a box on `y` is a hotspot for a box on `x` (both live squares).
    #[inline]
    pub fn blocks(&self, x: usize, y: usize) -> bool {
        if self.rows.is_empty() {
            return false;
        }
        self.rows[x * self.words + y / 64] >> (y % 64) & 1 != 0
    }

    /// How many of `boxes` are hotspots for some box of `boxes` that is not on a goal (solver
    /// indices below `goals`). `counts` is scratch: afterwards `counts[i]` holds how many such
    /// boxes box `i` blocks.
    pub fn count(&self, boxes: &[u16], goals: usize, counts: &mut Vec<u32>) -> u32 {
        counts.clear();
        counts.resize(boxes.len(), 0);
        if self.rows.is_empty() {
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

    /// Works out `moving` for the children that move box `row` of `boxes` (whose counts
    /// [`Hotspots::count`] left in `counts`), unless it holds that box already, in O(boxes).
    pub fn moving(&self, boxes: &[u16], goals: usize, counts: &[u32], row: usize, moving: &mut Moving) {
        if moving.row == Some(row) {
            return;
        }
        moving.row = Some(row);
        moving.base = 0;
        moving.idle.clear();
        moving.idle.resize(self.words, 0);
        moving.off_goals.clear();
        moving.off_goals.resize(self.words, 0);
        if self.rows.is_empty() {
            return;
        }
        let from = boxes[row] as usize;
        for (i, &y) in boxes.iter().enumerate() {
            let y = y as usize;
            if i == row {
                continue;
            }
            let left = counts[i] - u32::from(from >= goals && self.blocks(from, y));
            match left {
                0 => moving.idle[y / 64] |= 1 << (y % 64),
                _ => moving.base += 1,
            }
            if y >= goals {
                moving.off_goals[y / 64] |= 1 << (y % 64);
            }
        }
    }

    /// The hotspot count after the box [`Hotspots::moving`] worked out moves to `to`:
    /// [`Hotspots::count`] of the child, in O(live squares / 64).
    pub fn moved_to(&self, moving: &Moving, goals: usize, to: usize) -> u32 {
        if self.rows.is_empty() {
            return 0;
        }
        let span = to * self.words..(to + 1) * self.words;
        let newly: u32 = match to >= goals {
            true => self.rows[span.clone()].iter().zip(&moving.idle).map(|(r, i)| (r & i).count_ones()).sum(),
            false => 0,
        };
        let own = self.cols[span].iter().zip(&moving.off_goals).any(|(c, o)| c & o != 0);
        moving.base + newly + u32::from(own)
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
                let mut moving = Moving::default();
                hot.moving(&boxes, a.goals(), &counts, row, &mut moving);
                let fast = hot.moved_to(&moving, a.goals(), to);
                let mut moved = boxes.clone();
                moved[row] = to as u16;
                assert_eq!(fast, hot.count(&moved, a.goals(), &mut scratch), "row {row} to {to}");
            }
        }
    }
}
