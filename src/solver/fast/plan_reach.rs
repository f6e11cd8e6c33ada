//! Whether a position can still follow the packing plan: every goal the plan has yet to fill
//! needs a box of its own that can reach it once the goals before it in the plan hold theirs.
//!
//! Filling goals shuts off ways: a goal late in the plan is often reachable, once the goals
//! before it are filled, only from a few squares (the far end of a corridor whose near end
//! the plan fills first, say). A box that could reach it from there, spent on an earlier goal,
//! leaves it without a box along the plan. Such a position can still be solved in another
//! order, so it is not a deadlock; but the plan's advice leads nowhere from it, while its
//! matching bound is often the lowest around (the spent box was the nearest). Its cell (see
//! `features.rs`) says so, and the packing advisor does not lead into it from a position that
//! can follow the plan, so the positions that can keep their own turn and their advice.
//!
//! For goal step `k` of the plan (in plan order, parking steps left out), bit `k` of
//! `reach[s]` says that a box alone on square `s` can be pushed onto the step's goal with the
//! goals of the steps before it as walls, the player walking round the box (the player-aware
//! distances of [`crate::solver::frozen`]). A position with `packed` steps done can follow the
//! plan when each goal step from there on can be given a box of its own, not on a goal of a
//! step done, whose square's bit allows it: a bipartite matching, found by augmenting paths
//! from the boxes' side, each box's row of steps read straight off `reach` (a row per step
//! would first need a bit set per box and step). A move that leaves the steps done as they
//! were is judged without a matching where the moved box's reach decides it
//! ([`PlanReach::keeps_reach`], [`PlanReach::keeps_astray`]); other children are judged from
//! their parent's maximum matching ([`PlanReach::child_follows`]): a child's graph differs
//! from its parent's in the moved box's row, so an augmenting path or two decide it, where a
//! matching afresh takes a path per box (on large levels this was a tenth of the search).
//! The test sees neither the other boxes nor the player, and it misses some positions that are
//! astray. It asks each box to reach its goal step from where it stands, with the goals before
//! that step as walls, so it can call astray a position that a plan with parking steps would
//! lead on: a box that parks first leaves through floor the later goals close (XSokoban 50's
//! first plan takes the start area's boxes out through the goal room's bottom entrance, which
//! its tenth step fills, and the start itself is astray there). Giving such a box the walls of
//! its first step instead solved fewer levels at a fixed budget (the benchmark log has the
//! figures), so the walls stay those of the goal step.

use super::packing::PackingPlan;
use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::solver::frozen::player_aware_to;

/// Plans with more goal steps than this are not checked (every position follows them).
pub const MAX_STEPS: usize = 128;

/// A set of goal steps (or of boxes), one bit each.
type Bits = u128;

/// The squares from which a box can reach each goal step of one plan in its turn.
pub struct PlanReach {
    /// Bit `k` of `reach[s]`: a box on square `s` can reach goal step `k` in its turn.
    reach: Vec<Bits>,
    /// The plan's step index of each goal step, in order.
    steps: Vec<u16>,
    /// `step_of[g]`: the goal step that fills goal `g`.
    step_of: Vec<u16>,
}

impl PlanReach {
    /// The reach of `plan`'s goal steps on the level of `a`; `None` when the plan has more
    /// than [`MAX_STEPS`] goal steps or `stop` says so (it is asked once a goal).
    pub fn new(a: &Analysis, plan: &PackingPlan, stop: &mut impl FnMut() -> bool) -> Option<PlanReach> {
        let goal_steps: Vec<(usize, u16)> =
            plan.steps.iter().enumerate().filter(|(_, s)| s.square == s.goal).map(|(i, s)| (i, s.goal)).collect();
        if goal_steps.len() > MAX_STEPS {
            return None;
        }
        let mut reach: Vec<Bits> = vec![0; a.squares()];
        let mut step_of = vec![u16::MAX; a.goals()];
        let mut walls = vec![0u8; a.squares()];
        for (k, &(_, goal)) in goal_steps.iter().enumerate() {
            if stop() {
                return None;
            }
            let pushes = player_aware_to(a, &walls, Sq::new(goal as usize), stop)?;
            for (bits, &d) in reach.iter_mut().zip(&pushes).take(a.live()) {
                if d != UNREACHABLE {
                    *bits |= 1 << k;
                }
            }
            step_of[goal as usize] = k as u16;
            walls[goal as usize] = 1;
        }
        let steps = goal_steps.iter().map(|&(i, _)| i as u16).collect();
        Some(PlanReach { reach, steps, step_of })
    }

    /// Whether a box moved from `from` to `to` can reach every goal step from `packed` on that
    /// it could reach before: then a position that could follow the plan with `packed` steps
    /// done still can after the move, when the move leaves `packed` as it was (most moves;
    /// the box keeps its step in the matching).
    pub fn keeps_reach(&self, from: u16, to: u16, packed: u16) -> bool {
        let (_, before, after) = self.moved_reach(from, to, packed);
        before & !after == 0
    }

    /// Whether a box moved from `from` to `to` can reach no goal step from `packed` on that it
    /// could not reach before, and was a free box before (not on the goal of a step done):
    /// then a position that could not follow the plan with `packed` steps done still cannot
    /// after the move, when the move leaves `packed` as it was (the graph of free boxes and
    /// steps left only loses edges).
    pub fn keeps_astray(&self, from: u16, to: u16, packed: u16) -> bool {
        let (first, before, after) = self.moved_reach(from, to, packed);
        !self.done(from, first) && after & !before == 0
    }

    /// Whether the position with boxes on the solver squares `boxes` and `packed` steps of
    /// the plan done can follow the rest of it (see the module docs).
    pub fn follows(&self, boxes: &[u16], packed: u16) -> bool {
        let first = self.first_left(packed);
        let left = self.steps.len() - first;
        if left == 0 {
            return true;
        }
        // Each free box's goal steps from `first` on, a bit each: the box's row of the graph,
        // read straight off `reach` (a row per step would take a bit per box and step).
        let mut rows = [0 as Bits; MAX_STEPS];
        let mut free = 0;
        for &b in boxes.iter().filter(|&&b| !self.done(b, first)).take(MAX_STEPS) {
            rows[free] = self.reach[usize::from(b)] >> first;
            free += 1;
        }
        covers(&rows, free, left)
    }

    /// Whether the expanded position with boxes on `boxes` and `packed` steps done can follow
    /// the rest of the plan, as [`PlanReach::follows`] says; its matching goes to `m` for
    /// [`PlanReach::child_follows`].
    pub fn match_parent(&self, boxes: &[u16], packed: u16, m: &mut Matchings) -> bool {
        m.other.valid = false;
        self.match_position(boxes, packed, &mut m.own)
    }

    /// Whether the child of the position `m` matched (boxes on `boxes`) that moves its box
    /// `row` to square `to`, `packed` steps done, can follow the rest of the plan; `None` for a
    /// position of more than [`MAX_STEPS`] boxes. The child's graph differs in the moved box's
    /// row alone from the parent's with the same goal steps left (the parent's own, or one made
    /// for the child's steps left, kept for the siblings that share them: the moves of a box off
    /// a step done), so the parent's matching without that box grows to a maximum one by two
    /// augmenting paths at most.
    pub fn child_follows(
        &self,
        boxes: &[u16],
        m: &mut Matchings,
        (row, to): (usize, u16),
        packed: u16,
    ) -> Option<bool> {
        // No matching is kept for so many boxes (see `match_position`).
        if boxes.len() > MAX_STEPS {
            return None;
        }
        let first = self.first_left(packed);
        let m = if m.own.valid && m.own.first == first {
            &mut m.own
        } else {
            if !(m.other.valid && m.other.first == first) {
                self.match_position(boxes, packed, &mut m.other);
            }
            &mut m.other
        };
        if !m.valid {
            return None;
        }
        if m.left == 0 {
            return Some(true);
        }
        // A box can add one step to the parent's maximum matching at most.
        if m.size + 1 < m.left {
            return Some(false);
        }
        let mut matching = m.matching.clone();
        let size = m.size - usize::from(matching.release(row));
        let before = m.rows[row];
        m.rows[row] = self.reach[usize::from(to)] >> m.first;
        let movable = (m.movable & !(1 << row)) | (Bits::from(m.rows[row] != 0) << row);
        let size = matching.grow(&m.rows, (movable, row), size, m.left);
        m.rows[row] = before;
        Some(size == m.left)
    }

    /// Whether the position with boxes on `boxes` and `packed` steps done can follow the rest
    /// of the plan, with a maximum matching of its boxes (by their place in `boxes`) to the
    /// steps left in `m` (none over [`MAX_STEPS`] boxes).
    fn match_position(&self, boxes: &[u16], packed: u16, m: &mut Matched) -> bool {
        m.valid = false;
        if boxes.len() > MAX_STEPS {
            return self.follows(boxes, packed);
        }
        let first = self.first_left(packed);
        m.left = self.steps.len() - first;
        m.matching = Matching::new();
        m.movable = 0;
        for (b, &s) in boxes.iter().enumerate() {
            m.rows[b] = if self.done(s, first) { 0 } else { self.reach[usize::from(s)] >> first };
            if m.rows[b] != 0 {
                m.movable |= 1 << b;
            }
        }
        let mut size = 0;
        for b in 0..boxes.len() {
            if size < m.left && m.rows[b] != 0 && m.matching.augment(b, &m.rows, &mut 0) {
                size += 1;
            }
        }
        (m.size, m.first, m.valid) = (size, first, true);
        size == m.left
    }

    /// The first goal step not done when `packed` steps of the plan are.
    fn first_left(&self, packed: u16) -> usize {
        self.steps.partition_point(|&i| i < packed)
    }

    /// Whether square `s` is the goal of a step done (one before goal step `first`).
    fn done(&self, s: u16, first: usize) -> bool {
        self.step_of.get(usize::from(s)).is_some_and(|&k| usize::from(k) < first)
    }

    /// For a box moved from `from` to `to` with `packed` steps done: the first goal step
    /// left, and the steps from there on the box could reach before and can after.
    fn moved_reach(&self, from: u16, to: u16, packed: u16) -> (usize, Bits, Bits) {
        let first = self.first_left(packed);
        (first, self.reach[usize::from(from)] >> first, self.reach[usize::from(to)] >> first)
    }
}

/// Whether the boxes `0..free`, box `b` able to take the steps of `rows[b]`, can give each of
/// the `left` steps a box of its own. A maximum matching from the boxes' side covers every
/// step when it matches as many boxes as there are steps; once more boxes have failed than
/// there are spare ones, it cannot.
fn covers(rows: &[Bits; MAX_STEPS], free: usize, left: usize) -> bool {
    let Some(mut spare) = free.checked_sub(left) else { return false };
    let mut matching = Matching::new();
    let mut matched = 0;
    for b in 0..free {
        if matched == left {
            break;
        }
        if matching.augment(b, rows, &mut 0) {
            matched += 1;
        } else if spare == 0 {
            return false;
        } else {
            spare -= 1;
        }
    }
    matched == left
}

/// The lowest bit of `bits`, taken off it.
fn pop_lowest(bits: &mut Bits) -> Option<usize> {
    let b = (*bits != 0).then(|| bits.trailing_zeros() as usize)?;
    *bits &= *bits - 1;
    Some(b)
}

/// An expanded position's matchings of its boxes to the goal steps left (see
/// [`PlanReach::child_follows`]): for its own steps left, and for those of the last child
/// that had others.
#[derive(Default)]
pub struct Matchings {
    own: Matched,
    other: Matched,
}

/// A maximum matching of one position's boxes to the goal steps it has left, made by
/// [`PlanReach::match_position`], for judging its children.
struct Matched {
    /// Whether the rest holds a position's matching (not when it had too many boxes).
    valid: bool,
    /// The first goal step left, and how many are left.
    first: usize,
    left: usize,
    /// Box `b`'s steps from `first` on (none for a box on the goal of a step done).
    rows: [Bits; MAX_STEPS],
    /// The boxes with a step they can take.
    movable: Bits,
    matching: Matching,
    /// The steps the matching gives a box.
    size: usize,
}

impl Default for Matched {
    fn default() -> Matched {
        let matching = Matching::new();
        Matched { valid: false, first: 0, left: 0, rows: [0; MAX_STEPS], movable: 0, matching, size: 0 }
    }
}

/// The steps given to the boxes so far: `owner[k]` is the box that holds step `k`, `taken`
/// has a bit for each step held, `holders` a bit for each box that holds one.
#[derive(Clone)]
struct Matching {
    owner: [u8; MAX_STEPS],
    taken: Bits,
    holders: Bits,
}

impl Matching {
    fn new() -> Matching {
        Matching { owner: [u8::MAX; MAX_STEPS], taken: 0, holders: 0 }
    }

    /// Takes box `b`'s step from it; whether it held one.
    fn release(&mut self, b: usize) -> bool {
        if self.holders >> b & 1 == 0 {
            return false;
        }
        let mut taken = self.taken;
        while let Some(k) = pop_lowest(&mut taken) {
            if usize::from(self.owner[k]) == b {
                self.owner[k] = u8::MAX;
                self.taken &= !(1 << k);
                break;
            }
        }
        self.holders &= !(1 << b);
        true
    }

    /// Gives box `b` a step among `rows[b]`, not one of `seen`, moving the box that holds it
    /// on to another step when that box can have one.
    fn augment(&mut self, b: usize, rows: &[Bits; MAX_STEPS], seen: &mut Bits) -> bool {
        let candidates = rows[b] & !*seen;
        // A step no box holds ends the path at once (most boxes find one).
        let free = candidates & !self.taken;
        if free != 0 {
            self.give(free.trailing_zeros() as usize, b);
            return true;
        }
        *seen |= candidates;
        let mut held = candidates;
        while let Some(k) = pop_lowest(&mut held) {
            if self.augment(usize::from(self.owner[k]), rows, seen) {
                self.give(k, b);
                return true;
            }
        }
        false
    }

    /// Augments the matching, which gives `size` steps, until it gives `left` or no box of
    /// `movable` without a step can have one, box `first` tried first in each sweep; the
    /// steps it gives then.
    fn grow(
        &mut self,
        rows: &[Bits; MAX_STEPS],
        (movable, first): (Bits, usize),
        mut size: usize,
        left: usize,
    ) -> usize {
        while size < left {
            // One sweep of the boxes without a step finds an augmenting path if there is one:
            // the steps a failed try visited lead to no free step later in the sweep either,
            // for the matching does not change.
            let mut seen = 0;
            let free = movable & !self.holders;
            let mut rest = free & !(1 << first);
            let mut next = (free >> first & 1 == 1).then_some(first);
            let mut grown = false;
            while let Some(b) = next.take().or_else(|| pop_lowest(&mut rest)) {
                if self.augment(b, rows, &mut seen) {
                    grown = true;
                    break;
                }
            }
            if !grown {
                return size;
            }
            size += 1;
        }
        size
    }

    fn give(&mut self, k: usize, b: usize) {
        self.owner[k] = b as u8;
        self.taken |= 1 << k;
        self.holders |= 1 << b;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;
    use crate::solver::fast::packing::Step;

    /// The plan filling `goals` (level squares, in order) of `level`'s analysis.
    fn plan_of(a: &Analysis, goals: &[usize]) -> PackingPlan {
        let order: Vec<u16> = goals.iter().map(|&g| a.sq(crate::level::Square::new(g)).index() as u16).collect();
        let mut rank = vec![0; a.goals()];
        for (i, &g) in order.iter().enumerate() {
            rank[usize::from(g)] = i as u16;
        }
        let steps = order.iter().map(|&g| Step::new(g, g)).collect();
        PackingPlan { order, rank, steps, waits_in_place: false, staged: None }
    }

    #[test]
    fn a_goal_reachable_only_past_an_earlier_one_needs_its_own_box_there() {
        // A corridor with goals on columns 1 and 2, boxes coming from the right: the plan that
        // fills column 2 first leaves column 1 unreachable, whichever box is left; filling
        // column 1 first, the box on column 3 can still take column 2.
        let level = parse_levels("#######\n#..$$@#\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let at = |c: usize| level.square_at(1, c).unwrap().index();
        let sq = |c: usize| a.sq(level.square_at(1, c).unwrap()).index() as u16;
        let boxes = [sq(3), sq(4)];
        let near_first = plan_of(&a, &[at(2), at(1)]);
        let reach = PlanReach::new(&a, &near_first, &mut || false).unwrap();
        assert!(!reach.follows(&boxes, 0), "column 1 can only be reached through column 2");
        let far_first = plan_of(&a, &[at(1), at(2)]);
        let reach = PlanReach::new(&a, &far_first, &mut || false).unwrap();
        assert!(reach.follows(&boxes, 0));
        // One box on column 1 (step done), the other still to come: it can reach column 2.
        assert!(reach.follows(&[sq(1), sq(4)], 1));
        // A box on column 2 that is not a step done (the plan's first step is column 1)
        // still counts as free, and the boxes are matched in either order.
        assert!(reach.follows(&[sq(2), sq(4)], 0));
    }

    #[test]
    fn a_move_the_shortcuts_judge_keeps_the_verdict_of_the_full_test() {
        // Every placement of three boxes on a small board, every box moved to every free
        // square, with no step done and with the first step done: where `keeps_reach` or
        // `keeps_astray` answers for the child, the full test agrees.
        let level = parse_levels("#######\n#.. $ #\n#. $  #\n#  $@ #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let goals: Vec<usize> =
            [(1, 2), (1, 1), (2, 1)].iter().map(|&(r, c)| level.square_at(r, c).unwrap().index()).collect();
        let reach = PlanReach::new(&a, &plan_of(&a, &goals), &mut || false).unwrap();
        let first_goal = a.sq(level.square_at(1, 2).unwrap()).index() as u16;
        let live = a.live() as u16;
        let (mut kept, mut judged) = ([0; 2], 0);
        let placements = (0..live).flat_map(|x| (x + 1..live).flat_map(move |y| (y + 1..live).map(move |z| [x, y, z])));
        for boxes in placements {
            // Each box moved to each free square, the others staying.
            let moves = (0..3).flat_map(|i| (0..live).filter(move |t| !boxes.contains(t)).map(move |to| (i, to)));
            for packed in [0, u16::from(boxes.contains(&first_goal))] {
                let before = reach.follows(&boxes, packed);
                let mut matched = Matchings::default();
                assert_eq!(reach.match_parent(&boxes, packed, &mut matched), before);
                for (i, to) in moves.clone() {
                    let (from, mut moved) = (boxes[i], boxes);
                    moved[i] = to;
                    let after = reach.follows(&moved, packed);
                    assert_eq!(reach.child_follows(&boxes, &mut matched, (i, to), packed), Some(after));
                    if before && reach.keeps_reach(from, to, packed) {
                        assert!(after, "{boxes:?} -> {moved:?}, {packed} done");
                        kept[0] += 1;
                    }
                    if !before && reach.keeps_astray(from, to, packed) {
                        assert!(!after, "{boxes:?} -> {moved:?}, {packed} done");
                        kept[1] += 1;
                    }
                    judged += 1;
                }
            }
        }
        assert!(
            kept[0] > 100 && kept[1] > 100 && kept[0] + kept[1] < judged,
            "{kept:?} of {judged} judged by the shortcuts"
        );
    }

    #[test]
    fn a_child_judged_from_its_parents_matching_gets_the_full_tests_verdict() {
        // Six boxes on a room with six goals, the plan filling them in reading order; random
        // positions (some boxes on goals) and every move of every box to every free square,
        // the child's steps done mostly the parent's.
        let level = parse_levels(concat!(
            "#########\n",
            "#...  $ #\n",
            "#.## $  #\n",
            "#..  $$ #\n",
            "#   #  $#\n",
            "#  $ @  #\n",
            "#########\n"
        ))
        .unwrap()
        .remove(0);
        let a = Analysis::new(&level);
        let goals: Vec<usize> = level.goals().iter().map(|g| g.index()).collect();
        let reach = PlanReach::new(&a, &plan_of(&a, &goals), &mut || false).unwrap();
        let live = a.live() as u64;
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut random = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let (mut judged, mut astray, mut back) = (0, 0, 0);
        for _ in 0..300 {
            let mut boxes: Vec<u16> = Vec::new();
            while boxes.len() < 6 {
                let s = random(live) as u16;
                if !boxes.contains(&s) {
                    boxes.push(s);
                }
            }
            let packed = random(3) as u16;
            let mut matched = Matchings::default();
            let before = reach.match_parent(&boxes, packed, &mut matched);
            assert_eq!(before, reach.follows(&boxes, packed));
            for i in 0..boxes.len() {
                for to in (0..live as u16).filter(|t| !boxes.contains(t)) {
                    let mut moved = boxes.clone();
                    moved[i] = to;
                    // Mostly the parent's steps done, sometimes others.
                    let done = if random(4) == 0 { random(3) as u16 } else { packed };
                    let after = reach.follows(&moved, done);
                    let judged_from_parent = reach.child_follows(&boxes, &mut matched, (i, to), done);
                    assert_eq!(judged_from_parent, Some(after), "{boxes:?} -> {moved:?}, {done} done");
                    judged += 1;
                    astray += usize::from(!after);
                    back += usize::from(!before && after);
                }
            }
        }
        assert!(astray > judged / 50 && astray < judged && back > 10, "{astray} of {judged} astray, {back} back");
    }

    #[test]
    fn the_matching_moves_a_step_to_another_box_when_needed() {
        // Two boxes, two goal steps: the first box can take either step, the second only the
        // first; the matching gives the second box the first step and the first the second.
        let mut rows = [0 as Bits; MAX_STEPS];
        rows[0] = 0b11;
        rows[1] = 0b01;
        let mut m = Matching::new();
        assert!(m.augment(0, &rows, &mut 0));
        assert!(m.augment(1, &rows, &mut 0));
        assert_eq!((m.owner[0], m.owner[1]), (1, 0));
        rows[0] = 0b01;
        let mut m = Matching::new();
        assert!(m.augment(0, &rows, &mut 0));
        assert!(!m.augment(1, &rows, &mut 0), "both boxes can only take the first step");
        assert!(!covers(&rows, 2, 2));
        assert!(covers(&rows, 2, 1), "one step, two boxes for it");
    }

    /// Whether every step can have a box of its own, trying every assignment (`boxes_for[k]`:
    /// the boxes step `k` may take).
    fn brute_force(boxes_for: &[Bits], boxes: usize, taken: Bits) -> bool {
        let Some((first, rest)) = boxes_for.split_first() else { return true };
        (0..boxes).any(|b| first >> b & 1 == 1 && taken >> b & 1 == 0 && brute_force(rest, boxes, taken | 1 << b))
    }

    proptest::proptest! {
        #[test]
        fn the_matching_finds_one_whenever_there_is_one(
            steps in 1usize..7,
            boxes in 1usize..8,
            masks in proptest::collection::vec(0u8..=255, 8),
        ) {
            // Box `b` may take the steps of `rows[b]`; the steps' side of the same graph.
            let mut rows = [0 as Bits; MAX_STEPS];
            for b in 0..boxes {
                rows[b] = Bits::from(masks[b]) & ((1 << steps) - 1);
            }
            let boxes_for: Vec<Bits> =
                (0..steps).map(|k| (0..boxes).filter(|&b| rows[b] >> k & 1 == 1).map(|b| 1 << b).sum()).collect();
            let found = covers(&rows, boxes, steps);
            proptest::prop_assert_eq!(found, brute_force(&boxes_for, boxes, 0));
            // A maximum matching built box by box holds each step with a box that may take it,
            // and no box holds two steps.
            let mut m = Matching::new();
            for b in 0..boxes {
                m.augment(b, &rows, &mut 0);
            }
            let held: Vec<usize> = (0..steps).filter(|&k| m.taken >> k & 1 == 1).collect();
            proptest::prop_assert_eq!(held.len() == steps, found);
            let mut holders: Vec<u8> = held.iter().map(|&k| m.owner[k]).collect();
            for &k in &held {
                proptest::prop_assert!(rows[usize::from(m.owner[k])] >> k & 1 == 1);
            }
            holders.sort_unstable();
            holders.dedup();
            proptest::prop_assert_eq!(holders.len(), held.len());
        }
    }
}
