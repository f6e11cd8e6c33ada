//! The way to the next goal of the plan, and the boxes standing in it (the "opener" advisor).
//!
//! When packing stalls, the next goal of the plan usually cannot take a box because other boxes
//! stand on every way to it. This module finds the way that is cheapest to clear: a
//! shortest-path search over one box's pushes on the bare board (walls only, boxes may enter
//! live squares only), starting from every box not yet packed, where entering a square that
//! holds another box, or needing the player on one, costs one. The boxes on the best way (on
//! its squares or on the squares the player pushes from) are the obstacles; the advisor moves
//! one of them off the way, to the square farthest from the goal it can reach (the search's
//! `opener_score`: parked far off, a box is out of the way for good). It uses nothing but the
//! plan and the board, so it applies to any level whose next step is a goal.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::packing::PackingPlan;
use crate::analysis::{Analysis, NO_SQUARE, Sq};
use crate::level::Dir;

/// Scratch for the way search, reused across expansions.
pub struct Way {
    cost: Vec<u32>,
    parent: Vec<u16>,
    generation: Vec<u32>,
    current: u32,
    /// The box each way starts from.
    origin: Vec<u16>,
    /// `kept[s]`: a packed box stands on `s`, this generation.
    kept: Vec<u32>,
    heap: BinaryHeap<Reverse<(u32, u16)>>,
    /// The player's walk: boxes passed to reach each square, the square before, this generation.
    walk_cost: Vec<u32>,
    walk_parent: Vec<u16>,
    walked: Vec<u32>,
    deque: VecDeque<u16>,
    /// `on_way[s]`: square `s` is on the way (box squares and push squares), this generation.
    on_way: Vec<u32>,
    /// `blocking[s]`: the box on `s` is an obstacle, this generation.
    blocking: Vec<u32>,
}

/// What one way search found.
pub struct Found {
    /// How many boxes stand in the way (0: the way is clear of boxes).
    pub obstacles: u32,
}

impl Way {
    pub fn new(n: usize) -> Way {
        Way {
            cost: vec![0; n],
            parent: vec![NO_SQUARE; n],
            generation: vec![0; n],
            current: 0,
            origin: vec![0; n],
            kept: vec![0; n],
            heap: BinaryHeap::new(),
            walk_cost: vec![0; n],
            walk_parent: vec![NO_SQUARE; n],
            walked: vec![0; n],
            deque: VecDeque::new(),
            on_way: vec![0; n],
            blocking: vec![0; n],
        }
    }

    /// Searches the cheapest way to the plan's next goal for the position with boxes marked in
    /// `occupied`, the player on `player` and `packed` steps of the plan done. The way includes
    /// the player's walk to the first push, so boxes that fence the player off count too.
    /// `None` when the next step is not a goal (a parking step), the plan is complete, or no
    /// box can reach the goal at all.
    pub fn search(
        &mut self,
        a: &Analysis,
        plan: &PackingPlan,
        packed: u16,
        occupied: &[u8],
        player: usize,
    ) -> Option<Found> {
        let step = *plan.steps.get(packed as usize)?;
        if step.square != step.goal {
            return None;
        }
        let goal = step.goal as usize;
        let now = self.next_generation();
        // The boxes already packed stay; every other box may be the one that goes.
        for s in &plan.steps[..packed as usize] {
            for q in [s.square, s.goal] {
                if occupied[q as usize] != 0 {
                    self.kept[q as usize] = now;
                }
            }
        }
        self.walk(a, occupied, player);
        let obstacles = self.pushes(a, occupied, goal)?;
        self.mark_way(a, occupied, goal);
        Some(Found { obstacles })
    }

    /// Starts a search: a new generation stamp (clearing the stamps when they run out).
    fn next_generation(&mut self) -> u32 {
        if self.current >= u32::MAX - 2 {
            self.generation.fill(0);
            self.on_way.fill(0);
            self.blocking.fill(0);
            self.kept.fill(0);
            self.walked.fill(0);
            self.current = 0;
        }
        self.current += 1;
        self.current
    }

    fn kept(&self, s: usize) -> bool {
        self.kept[s] == self.current
    }

    /// The player's walk from `player`, passing through unpacked boxes at a cost of one each
    /// (a 0-1 breadth-first search): `walk_cost` and `walk_parent` of every square walked.
    fn walk(&mut self, a: &Analysis, occupied: &[u8], player: usize) {
        let now = self.current;
        self.deque.clear();
        self.deque.push_back(player as u16);
        self.walked[player] = now;
        self.walk_cost[player] = 0;
        self.walk_parent[player] = NO_SQUARE;
        while let Some(q) = self.deque.pop_front() {
            let q = q as usize;
            for d in Dir::ALL {
                let Some(t) = a.neighbor(Sq::new(q), d).map(Sq::index) else { continue };
                if self.kept(t) {
                    continue;
                }
                let step = u32::from(occupied[t] != 0);
                let cost = self.walk_cost[q] + step;
                if self.walked[t] != now || cost < self.walk_cost[t] {
                    self.walked[t] = now;
                    self.walk_cost[t] = cost;
                    self.walk_parent[t] = q as u16;
                    if step == 0 {
                        self.deque.push_front(t as u16);
                    } else {
                        self.deque.push_back(t as u16);
                    }
                }
            }
        }
    }

    /// The cheapest way of any unpacked box to `goal` (Dijkstra over the box's squares, each
    /// other box on a square the box or the player must pass costing one, the first push the
    /// player's walk to it): its cost, or `None` when no box gets there.
    fn pushes(&mut self, a: &Analysis, occupied: &[u8], goal: usize) -> Option<u32> {
        let now = self.current;
        self.heap.clear();
        for (s, &box_here) in occupied.iter().enumerate().take(a.live()) {
            if box_here != 0 && !self.kept(s) && a.distance(goal, Sq::new(s)).is_some() {
                self.generation[s] = now;
                self.cost[s] = 0;
                self.parent[s] = NO_SQUARE;
                self.origin[s] = s as u16;
                self.heap.push(Reverse((0, s as u16)));
            }
        }
        while let Some(Reverse((c, s))) = self.heap.pop() {
            let s = s as usize;
            if self.cost[s] != c {
                continue;
            }
            if s == goal {
                return Some(c);
            }
            let origin = self.origin[s] as usize;
            // Another box on `x`: it must move first (the moving box has left its own square).
            let blocked = |x: usize| u32::from(occupied[x] != 0 && x != origin);
            for d in Dir::ALL {
                let here = Sq::new(s);
                let (Some(t), Some(p)) = (a.neighbor(here, d), a.neighbor(here, d.opposite())) else { continue };
                if !a.is_live(t) {
                    continue;
                }
                let (t, p) = (t.index(), p.index());
                if self.kept(t) || self.kept(p) {
                    continue;
                }
                // The first push needs the player's walk; later ones a free push square.
                let first = self.parent[s] == NO_SQUARE;
                let behind = if !first {
                    blocked(p)
                } else if self.walked[p] == now {
                    self.walk_cost[p]
                } else {
                    continue;
                };
                let cost = c + blocked(t) + behind;
                if self.generation[t] != now || cost < self.cost[t] {
                    self.generation[t] = now;
                    self.cost[t] = cost;
                    self.parent[t] = s as u16;
                    self.origin[t] = origin as u16;
                    self.heap.push(Reverse((cost, t as u16)));
                }
            }
        }
        None
    }

    /// Walks the way [`Way::pushes`] found to `goal` back, marking its squares (the box's, its
    /// push squares, the player's walk to the first push) and the other boxes on them.
    fn mark_way(&mut self, a: &Analysis, occupied: &[u8], goal: usize) {
        let now = self.current;
        let origin = self.origin[goal] as usize;
        let mut s = goal;
        loop {
            self.on_way[s] = now;
            let from = self.parent[s];
            if from == NO_SQUARE {
                break;
            }
            let from = from as usize;
            // The push square: behind `from`, seen from `s`.
            let from_sq = Sq::new(from);
            if let Some(d) = Dir::ALL.into_iter().find(|&d| a.neighbor(from_sq, d) == Some(Sq::new(s))) {
                let p = a.neighbor(from_sq, d.opposite()).expect("a push square").index();
                self.on_way[p] = now;
                if occupied[p] != 0 && p != origin {
                    self.blocking[p] = now;
                }
                if from == origin {
                    // The player's walk to the first push.
                    let mut q = self.walk_parent[p];
                    while q != NO_SQUARE {
                        let w = q as usize;
                        self.on_way[w] = now;
                        if occupied[w] != 0 && w != origin {
                            self.blocking[w] = now;
                        }
                        q = self.walk_parent[w];
                    }
                }
            }
            if occupied[s] != 0 && s != origin {
                self.blocking[s] = now;
            }
            s = from;
        }
    }

    /// Whether the box on `s` stands in the way found by the last search.
    pub fn blocks(&self, s: usize) -> bool {
        self.blocking[s] == self.current
    }

    /// Whether `s` is on the way found by the last search.
    pub fn on_way(&self, s: usize) -> bool {
        self.on_way[s] == self.current
    }

    /// Whether boxes still stand on the way the last search found (with `obstacles` boxes on
    /// it) once the box on `from` moves to `to` without packing: one fewer when that box
    /// leaves the way, one more when another box moves onto it. An estimate of the way a
    /// search of the new position would find, for the features of a state's children (a
    /// search per child would cost as much as the rest of the expansion).
    pub fn blocked_after(&self, obstacles: u32, from: usize, to: usize) -> bool {
        let off = self.blocks(from) && !self.on_way(to);
        let on = !self.blocks(from) && self.on_way(to);
        obstacles + u32::from(on) > u32::from(off)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;
    use crate::solver::fast::packing::Peel;
    use crate::solver::fast::packing::start_squares;

    fn setup(text: &str) -> (crate::level::Level, Analysis, PackingPlan, Vec<u8>) {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let starts = start_squares(&level, &a);
        let occupied: Vec<u8> = starts.iter().map(|&s| u8::from(s)).collect();
        let plan = PackingPlan::peeled(&a, &starts, a.sq(level.player()).index(), true, Peel::OneByOne, &mut || false)
            .expect("never stopped");
        (level, a, plan, occupied)
    }

    #[test]
    fn a_box_on_the_push_square_is_in_the_way() {
        // Boxes on columns 4 and 5 of a corridor to the goal on column 1: whichever goes
        // first, the other stands where the player must be (or where the box must pass).
        let (level, a, plan, occupied) = setup("#########\n#.  $  @#\n#########\n#########\n");
        let mut way = Way::new(a.squares());
        let player = a.sq(level.player()).index();
        let found = way.search(&a, &plan, 0, &occupied, player).expect("a way exists");
        assert_eq!(found.obstacles, 0, "one box alone is never in its own way");

        let (level, a, plan, occupied) = setup("#########\n#..  $$@#\n#########\n");
        let player = a.sq(level.player()).index();
        let found = way.search(&a, &plan, 0, &occupied, player).expect("a way exists");
        assert_eq!(found.obstacles, 1);
        let blocking: Vec<usize> = level.boxes().iter().map(|b| a.sq(*b).index()).filter(|&s| way.blocks(s)).collect();
        assert_eq!(blocking.len(), 1, "exactly one of the two boxes is in the other's way");
        assert!(way.on_way(blocking[0]));
    }

    #[test]
    fn a_move_off_the_way_unblocks_it_and_one_onto_it_blocks_it() {
        // Whichever box goes first, the other stands on its way; column 8 is off the way.
        let (level, a, plan, occupied) = setup("##########\n#..  $$@ #\n##########\n");
        let mut way = Way::new(a.squares());
        let player = a.sq(level.player()).index();
        let found = way.search(&a, &plan, 0, &occupied, player).expect("a way exists");
        assert_eq!(found.obstacles, 1);
        let boxes: Vec<usize> = level.boxes().iter().map(|b| a.sq(*b).index()).collect();
        let (blocking, mover) = if way.blocks(boxes[0]) { (boxes[0], boxes[1]) } else { (boxes[1], boxes[0]) };
        let (off, on) = (a.sq(level.square_at(1, 8).unwrap()).index(), a.sq(level.square_at(1, 3).unwrap()).index());
        assert!(!way.on_way(off) && way.on_way(on));
        assert!(!way.blocked_after(1, blocking, off), "the obstacle left the way");
        assert!(way.blocked_after(1, blocking, on), "the obstacle moved along the way");
        assert!(way.blocked_after(1, mover, off), "the obstacle stays");
        assert!(way.blocked_after(0, mover, on), "a box moved onto a clear way blocks it");
        assert!(!way.blocked_after(0, mover, off));
    }

    #[test]
    fn a_box_fencing_the_player_off_counts() {
        // The box on row 1 could go left at no cost, but the player must first get past the
        // box in the doorway below it.
        let (level, a, plan, occupied) = setup("########\n#..$   #\n#####$##\n    #@ #\n    ####\n");
        let mut way = Way::new(a.squares());
        let player = a.sq(level.player()).index();
        let found = way.search(&a, &plan, 0, &occupied, player).expect("a way exists");
        assert_eq!(found.obstacles, 1);
    }

    #[test]
    fn no_way_when_the_plan_is_complete() {
        let (level, a, plan, occupied) = setup("#######\n#@$ .#\n#######\n");
        let mut way = Way::new(a.squares());
        let player = a.sq(level.player()).index();
        assert!(way.search(&a, &plan, plan.steps.len() as u16, &occupied, player).is_none());
    }
}
