//! Corral deadlocks: a fenced-off area the player cannot reach, proven hopeless by a small
//! search on its boxes alone.
//!
//! Take the area `C` of empty squares next to a given set of barrier boxes that the player
//! cannot reach, and the boxes `S` touching `C` (the barrier and the boxes inside). Remove every
//! other box and search the unit pushes of the `S` boxes. The state is dead when that search is
//! exhausted without reaching a position where the player can step into `C` or every `S` box is
//! on a goal.
//!
//! Why that is sound: removing boxes never makes a push illegal, so any solution of the real
//! position, restricted to its pushes of `S` boxes, replays in the reduced one. Along it the
//! player either steps into `C` at some point (and can in the reduced position too, where it
//! walks more freely), or never does, and then the solution ends with every box, `S` included,
//! on a goal. Pruning inside the small search uses the rules that hold with fewer boxes (dead
//! squares, freeze), and a search that hits its state budget proves nothing.

use std::collections::HashSet;

use crate::analysis::region::{Flood, Step, spread};
use crate::analysis::{Analysis, Sq};
use crate::level::Dir;
use crate::solver::deadlock;

/// Reusable scratch for corral checks.
pub struct CorralCheck {
    in_c: Vec<bool>,
    occupied: Vec<u8>,
    /// The player's reach in the position being looked at, and a second one for its
    /// children's normalised player squares.
    reach: Flood,
    reach2: Flood,
    /// The flood of the corral's area.
    queue: Vec<Sq>,
    path: Vec<crate::analysis::Sq>,
    /// Most states one check may visit.
    pub budget: usize,
}

impl CorralCheck {
    pub fn new(n: usize) -> CorralCheck {
        CorralCheck {
            in_c: vec![false; n],
            occupied: vec![0; n],
            reach: Flood::new(n),
            reach2: Flood::new(n),
            queue: Vec::new(),
            path: Vec::new(),
            budget: 500,
        }
    }

    /// Whether the corral behind `barrier` (in the position `occupied`, the player on `player`
    /// and reaching the squares where `reached` holds) is a deadlock. `false` when unsure.
    pub fn is_dead(
        &mut self,
        a: &Analysis,
        occupied: &[u8],
        reached: impl Fn(usize) -> bool,
        player: usize,
        barrier: &[u16],
    ) -> bool {
        let n = a.squares();
        // The area C and the boxes S touching it.
        self.in_c.fill(false);
        self.queue.clear();
        let mut in_s = vec![false; n];
        let mut s_boxes: Vec<u16> = Vec::new();
        for &b in barrier {
            if !in_s[b as usize] {
                in_s[b as usize] = true;
                s_boxes.push(b);
            }
            for d in Dir::ALL {
                let Some(t) = a.neighbor(Sq::new(usize::from(b)), d) else { continue };
                if occupied[t] == 0 && !reached(t.index()) && !self.in_c[t] {
                    self.in_c[t] = true;
                    self.queue.push(t);
                }
            }
        }
        let in_c = &mut self.in_c;
        spread(
            a,
            &mut self.queue,
            |_, _| true,
            |_, _, t| {
                if occupied[t] != 0 {
                    if !in_s[t.index()] {
                        in_s[t.index()] = true;
                        s_boxes.push(t.index() as u16);
                    }
                    Step::Skip
                } else if !in_c[t] && !reached(t.index()) {
                    in_c[t] = true;
                    Step::Enter
                } else {
                    Step::Skip
                }
            },
        );
        if self.queue.is_empty() || s_boxes.iter().all(|&b| (b as usize) < a.goals()) {
            return false;
        }
        s_boxes.sort_unstable();
        // Breadth-first over unit pushes of the S boxes.
        let mut seen: HashSet<(Vec<u16>, u16)> = HashSet::new();
        let mut frontier: Vec<(Vec<u16>, u16)> = Vec::new();
        let start_player = self.lowest(a, &s_boxes, player);
        seen.insert((s_boxes.clone(), start_player));
        frontier.push((s_boxes, start_player));
        let mut head = 0;
        while head < frontier.len() {
            if seen.len() > self.budget {
                return false;
            }
            let (boxes, player) = frontier[head].clone();
            head += 1;
            // Flood of the player; an escape when it steps into C.
            self.fill_reach(a, &boxes, player as usize);
            if (0..n).any(|s| self.reach.contains(Sq::new(s)) && self.in_c[s]) {
                self.clear(&boxes);
                return false;
            }
            for (i, &b) in boxes.iter().enumerate() {
                for d in Dir::ALL {
                    let bs = Sq::new(usize::from(b));
                    let (Some(t), Some(p)) = (a.neighbor(bs, d), a.neighbor(bs, d.opposite())) else { continue };
                    if !self.reach.contains(p) || self.occupied[t] != 0 || !a.is_live(t) {
                        continue;
                    }
                    self.occupied[bs] = 0;
                    self.occupied[t] = 1;
                    let dead = deadlock::block_2x2(a, &self.occupied, t)
                        || deadlock::freeze(a, &self.occupied, t, &mut self.path);
                    self.occupied[t] = 0;
                    self.occupied[bs] = 1;
                    if dead {
                        continue;
                    }
                    let t = t.index();
                    let mut next = boxes.clone();
                    next[i] = t as u16;
                    next.sort_unstable();
                    if next.iter().all(|&x| (x as usize) < a.goals()) {
                        self.clear(&boxes);
                        return false;
                    }
                    self.occupied[bs] = 0;
                    self.occupied[t] = 1;
                    let np = self.lowest_on_board(a, bs.index());
                    self.occupied[t] = 0;
                    self.occupied[bs] = 1;
                    if seen.insert((next.clone(), np)) {
                        frontier.push((next, np));
                    }
                }
            }
            self.clear(&boxes);
        }
        true
    }

    /// Marks `boxes` in the scratch board and floods the player's reach from `player`;
    /// returns the lowest square reached.
    fn fill_reach(&mut self, a: &Analysis, boxes: &[u16], player: usize) -> u16 {
        for &b in boxes {
            self.occupied[b as usize] = 1;
        }
        self.reach.player(a, &self.occupied, Sq::new(player)).index() as u16
    }

    fn clear(&mut self, boxes: &[u16]) {
        for &b in boxes {
            self.occupied[b as usize] = 0;
        }
    }

    /// The lowest square the player reaches from `player` with `boxes` on the board.
    fn lowest(&mut self, a: &Analysis, boxes: &[u16], player: usize) -> u16 {
        let lowest = self.fill_reach(a, boxes, player);
        self.clear(boxes);
        lowest
    }

    /// The lowest square reachable from `player` on the current scratch board, flooded with a
    /// second set of marks so the caller's reach stays intact.
    fn lowest_on_board(&mut self, a: &Analysis, player: usize) -> u16 {
        self.reach2.player(a, &self.occupied, Sq::new(player)).index() as u16
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashSet, VecDeque};

    use super::*;
    use crate::format::xsb;
    use crate::level::{BuildOptions, Level};
    use crate::rules::Position;
    use crate::solver::corral::Corrals;
    use crate::solver::{Config, Mode, astar};

    /// Every position the check calls dead, among the positions reachable in small Microban
    /// levels, is confirmed unsolvable by the exhaustive pushes search.
    #[test]
    fn every_corral_deadlock_is_confirmed_by_exhaustive_search() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/microban.xsb");
        let levels = xsb::parse(&std::fs::read_to_string(path).unwrap(), BuildOptions::default()).unwrap();
        let mut confirmed = 0;
        for level in levels.iter().take(12) {
            let a = Analysis::new(level);
            let n = a.squares();
            let mut corrals = Corrals::new(n);
            let mut check = CorralCheck::new(n);
            let mut seen = HashSet::new();
            let mut queue = VecDeque::from([Position::start(level)]);
            seen.insert(Position::start(level));
            while let Some(pos) = queue.pop_front() {
                if seen.len() > 1500 {
                    break;
                }
                let mut occupied = vec![0u8; n];
                for b in pos.boxes() {
                    occupied[a.sq(b).index()] = 1;
                }
                let mut flood = Flood::new(n);
                flood.player(&a, &occupied, a.sq(pos.player()));
                let reach: Vec<bool> = a.all().map(|s| flood.contains(s)).collect();
                let unreached = a.squares() - flood.squares().len() - pos.boxes().count();
                let barrier: Option<Vec<u16>> = corrals
                    .pi_corral(&a, &occupied, |s| reach[s.index()], unreached, true)
                    .map(|b| b.iter().map(|s| s.index() as u16).collect());
                if let Some(barrier) = barrier
                    && check.is_dead(&a, &occupied, |s| reach[s], a.sq(pos.player()).index(), &barrier)
                {
                    let at = Level::from_raw(pos.to_raw(level), level.meta().clone(), BuildOptions::default())
                        .expect("a reachable position is a valid level");
                    let config = Config { mode: Mode::Pushes, node_limit: Some(100_000), ..Config::default() };
                    let verdict = astar::solve(&at, &Analysis::new(&at), &config, crate::solver::Objective::Pushes);
                    match verdict {
                        Ok(_) => panic!("called dead but solvable:\n{}", xsb::write(&at)),
                        Err(crate::solver::SolveError::Unsolvable(_)) => confirmed += 1,
                        Err(_) => {}
                    }
                }
                for (_, next) in pos.successors(level) {
                    if seen.insert(next.clone()) {
                        queue.push_back(next);
                    }
                }
            }
        }
        assert!(confirmed > 0, "the sample holds corral deadlocks proven by exhaustion");
    }
}
