//! The feature space: each state is projected onto a small vector of domain features, and the
//! search gives every non-empty cell of that space a turn.
//!
//! - **packing**: the length of the longest prefix of the packing plan whose goals all hold a
//!   box (progress in the planned order);
//! - **connectivity**: the number of regions the boxes cut the free floor into (fewer means
//!   the player can reach more of the level), capped at [`MAX_REGIONS`];
//! - **filled** (only in searches that ask for it): the number of boxes on goals, in any
//!   order. The second pass's distance advice fills goals out of the plan's order; without
//!   this feature all those states share the cell of the plan prefix they hold, and a state
//!   that has filled most goals waits behind cheaper ones that filled few.
//!
//! - **blocked** (only in searches that ask for it, the third pass of `super`): whether boxes
//!   stand on the cheapest way to the plan's next goal (see `super::way`), 1 or 0. Clearing a
//!   way takes a line of moves that pack nothing and often raise the matching bound (boxes go
//!   far off, as the opener advisor moves them); in the cell of their packing prefix such
//!   states wait behind cheaper ones that keep the way shut, and with cells of their own the
//!   clearing line gets a turn every round. A child's value is estimated from its
//!   parent's way (`super::way::Way::blocked_after`). Counting the boxes on the way instead
//!   (capped at 2, 3 or 8) split the cells finer and cost more levels than it gained.
//!
//! - **astray** (only in searches that ask for it: the first two passes and the passes after a
//!   long limit's first round, see `super`): 1 when some goal the plan has yet to fill has no
//!   box left that can reach it in its turn (see `super::plan_reach`). Such a state can still
//!   be solved in another order, but not along the plan, and its matching bound is often the
//!   lowest around (the box it spent was the nearest): sharing a cell with the states that can
//!   follow the plan, it would take their turns. The lead cell (see `super::search`) is one that
//!   follows the plan, when any does.
//!
//! - **branch** (only in searches that ask for it: the staging pass, see `super`): which of the
//!   root's moves the state's line starts with: each move an advisor names at the root a
//!   branch of its own (up to [`MAX_BRANCHES`] `- 1` of them), the moves none names one
//!   together. A level whose first moves decide it (a box beside the start pushed one way
//!   shuts the level, pushed the other opens it, each named by an advisor) leaves the
//!   search's cells to the line that packs most and advisors keep cheap, dead or not; with
//!   cells of its own each named opening gets a turn every round. The unnamed ones share a
//!   branch: each in cells of its own, they took so many turns from the named lines that a
//!   level solved along the first of those was lost. It is the one feature that depends on
//!   the state's line, not its boxes: a state keeps the branch of the line that first reached
//!   it.
//!
//! A cell is the whole vector; but for the branch, a state's cell depends on its boxes alone.
//! Boxes on doorways (articulation squares of the floor) and obstructed links between rooms
//! (FESS's room connectivity) were tried as cell dimensions and solved no more levels.

use super::macros::MacroMove;
use super::packing::PackingPlan;
use crate::analysis::region::Labels;
use crate::analysis::{Analysis, NO_SQUARE, Sq};

/// Connectivity values above this share one cell. States whose boxes cut the floor into many
/// pockets are rarely on a solution's path, and giving each such count its own cell handed
/// them a large share of the expansions (each cell gets one per round): at a fixed budget the
/// cap of 4 solves more levels than no cap, or a cap of 2 or 6 (see docs/benchmark-log.md).
pub const MAX_REGIONS: u16 = 4;

/// The branches the branch feature tells apart (numbered from 1; the root is 0): the first
/// `MAX_BRANCHES - 1` moves an advisor names at the root one each, the others together in the
/// last.
pub const MAX_BRANCHES: u8 = 15;

/// A feature-space cell: (packing, connectivity, filled, blocked, astray, branch; 0 when not
/// counted). [`Features::cell`] leaves the branch 0: the search sets it from the state's line.
pub type Cell = [u16; 6];

/// Scratch for the region labelling, and whether cells count the boxes on goals.
pub struct Features {
    /// The regions of the last full flood (regions are found in index order).
    labels: Labels,
    /// The region of the player in the last full flood, `None` before one.
    player_region: Option<usize>,
    filled: bool,
    blocked: bool,
}

/// The regions of the free floor of one state.
pub struct Regions {
    /// Number of regions.
    pub count: u16,
    /// Lowest square index of the region of the queried square (the normalised player).
    pub player: u16,
}

impl Features {
    /// Scratch for the level of `a`; `filled` says whether cells count the boxes on goals,
    /// `blocked` whether they say that boxes block the way to the plan's next goal.
    pub fn new(a: &Analysis, filled: bool, blocked: bool) -> Features {
        Features { labels: Labels::new(a.squares()), player_region: None, filled, blocked }
    }

    /// Floods the free floor (squares with `occupied == 0`) and returns the number of regions
    /// and the lowest index of the region holding `player`.
    pub fn regions(&mut self, a: &Analysis, occupied: &[u8], player: usize) -> Regions {
        let count = self.labels.fill(a, |t| occupied[t] == 0) as u16;
        self.player_region = self.labels.region_of(Sq::new(player));
        let player = self.player_region.map_or(NO_SQUARE, |r| self.labels.seed(r).index() as u16);
        Regions { count, player }
    }

    /// Whether the player reaches `s` in the position of the last [`Features::regions`]: the
    /// expansion reads its player's region from the labels instead of flooding it again.
    #[inline]
    pub fn reaches(&self, s: Sq) -> bool {
        self.player_region.is_some() && self.labels.region_of(s) == self.player_region
    }

    /// The regions of the last [`Features::regions`], and the player's among them.
    pub fn labels(&self) -> (&Labels, Option<usize>) {
        (&self.labels, self.player_region)
    }

    /// The number of squares the player reaches in the position of the last
    /// [`Features::regions`].
    pub fn reach_size(&self) -> usize {
        self.player_region.map_or(0, |r| self.labels.size(r))
    }

    /// The regions of a child of the last fully flooded position (the parent, `count` regions)
    /// after move `m`: only the squares round `from` are looked at for the count; the player's
    /// region comes with the move (the box search worked it out, see [`MacroMove::player`]).
    pub fn child_regions(&self, a: &Analysis, count: u16, m: MacroMove) -> Regions {
        // Freeing `from` merges the parent regions around it into one (or makes a new one).
        let k = self.labels.regions_beside(a, m.from);
        // Then the box on `to` splits its region into `splits` parts.
        let total = (count as usize + 1 - k - 1 + m.splits as usize) as u16;
        Regions { count: total, player: m.player }
    }

    /// The cell of a state (boxes marked in `occupied`, `on_goals` of them on goals) whose
    /// floor has `regions` regions; `blocked(packed)` says whether boxes stand on the way to
    /// the plan's next goal once `packed` steps of it are done (asked only when cells say so),
    /// `astray(packed)` whether the state cannot follow the plan from there (asked always:
    /// the caller knows whether it looks).
    pub fn cell(
        &self,
        plan: &PackingPlan,
        occupied: &[u8],
        (regions, on_goals): (u16, usize),
        blocked: impl FnOnce(u16) -> bool,
        astray: impl FnOnce(u16) -> bool,
    ) -> Cell {
        let packed = plan.packed(occupied);
        let filled = if self.filled { on_goals as u16 } else { 0 };
        let blocked = u16::from(self.blocked && blocked(packed));
        [packed, regions.min(MAX_REGIONS), filled, blocked, u16::from(astray(packed)), 0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;
    use crate::solver::fast::packing::Peel;
    use crate::solver::fast::packing::start_squares;

    #[test]
    fn regions_count_the_parts_of_the_floor() {
        let level = parse_levels("#######\n#  #  #\n# @$. #\n#  #  #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut occupied = vec![0u8; a.squares()];
        let b = a.sq(level.boxes()[0]).index();
        occupied[b] = 1;
        let mut f = Features::new(&a, false, false);
        let p = a.sq(level.player()).index();
        let r = f.regions(&a, &occupied, p);
        assert_eq!(r.count, 2);
        let r2 = f.regions(&a, &occupied, p);
        assert_eq!((r2.count, r2.player), (2, r.player), "repeatable");
        occupied[b] = 0;
        assert_eq!(f.regions(&a, &occupied, p).count, 1);
    }

    #[test]
    fn the_filled_feature_counts_boxes_on_goals_in_any_order() {
        // A corridor of three goals filled from the right: the plan fills the leftmost first.
        let level = parse_levels("########\n#...$$$@#\n########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let plan = PackingPlan::peeled(&a, &starts, a.sq(level.player()).index(), true, Peel::OneByOne, &mut || false)
            .expect("never stopped");
        // One box on the rightmost goal: no progress in the plan's order, one goal filled.
        let mut occupied = vec![0u8; a.squares()];
        let right = a.sq(level.square_at(1, 3).unwrap()).index();
        occupied[right] = 1;
        assert_eq!(plan.packed(&occupied), 0);
        assert_eq!(
            Features::new(&a, true, false).cell(&plan, &occupied, (1, 1), |_| true, |_| false),
            [0, 1, 1, 0, 0, 0]
        );
        assert_eq!(
            Features::new(&a, false, false).cell(&plan, &occupied, (1, 1), |_| true, |_| false),
            [0, 1, 0, 0, 0, 0]
        );
        assert_eq!(
            Features::new(&a, false, true).cell(&plan, &occupied, (1, 1), |_| true, |_| true),
            [0, 1, 0, 1, 1, 0]
        );
        assert_eq!(
            Features::new(&a, false, true).cell(&plan, &occupied, (1, 1), |_| false, |_| false),
            [0, 1, 0, 0, 0, 0]
        );
    }

    #[test]
    fn child_regions_agree_with_a_full_flood_for_every_macro_move() {
        use crate::solver::fast::macros::Macros;
        let text = "  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########\n";
        let level = parse_levels(text).unwrap().remove(0);
        let level2 = parse_levels("#######\n#.$ $.#\n# $@$ #\n#.   .#\n#######\n").unwrap().remove(0);
        for level in [level, level2] {
            let a = Analysis::new(&level);
            let mut occupied = vec![0u8; a.squares()];
            let boxes: Vec<usize> = level.boxes().iter().map(|&b| a.sq(b).index()).collect();
            for &b in &boxes {
                occupied[b] = 1;
            }
            let player = a.sq(level.player()).index();
            let mut f = Features::new(&a, false, false);
            let mut reach = Features::new(&a, false, false);
            let parent = f.regions(&a, &occupied, player);
            let mut moves: Vec<MacroMove> = Vec::new();
            let mut macros = Macros::new(a.squares());
            let reached: Vec<bool> = {
                let r = reach.regions(&a, &occupied, player);
                (0..a.squares())
                    .map(|s| occupied[s] == 0 && reach.regions(&a, &occupied, s).player == r.player)
                    .collect()
            };
            macros.moves(&a, &mut occupied, &|s| reached[s], &mut boxes.iter().copied(), &mut moves, &mut || false);
            assert!(!moves.is_empty());
            for m in moves {
                let (from, to) = (m.from.index(), m.to.index());
                occupied[from] = 0;
                occupied[to] = 1;
                let p = m.player_square(&a).index();
                let quick = f.child_regions(&a, parent.count, m);
                let full = reach.regions(&a, &occupied, p);
                assert_eq!((quick.count, quick.player), (full.count, full.player), "{m:?}");
                occupied[to] = 0;
                occupied[from] = 1;
            }
        }
    }
}
