//! PI-corral pruning for the push-optimal search.
//!
//! A **corral** is a connected area of empty squares the player cannot reach; its **barrier** is
//! the set of boxes next to it. A corral is a *PI-corral* when every push of a barrier box that
//! could ever happen before some barrier box moves goes into the corral (I), and the player can
//! reach, right now, the square behind every such push (P). If, in addition, some barrier box is
//! off its goal or the corral holds a goal, every solution must push a barrier box sometime, and
//! only pushes of barrier boxes need to be generated.
//!
//! Why this keeps push-optimality: take an optimal solution and its first push `X` of a barrier
//! box. The pushes before `X` move other boxes only, and none of them can touch the corral (its
//! border is walls and unmoved barrier boxes). By (I), `X` goes into the corral, so its target is
//! empty now; by (P) its player square is reachable now, so `X` is legal now. Doing `X` first and
//! then the earlier pushes is legal too (they never used the corral, and `X` only freed a square
//! outside it) and ends in the same position after the same number of pushes.
//!
//! A push counts as impossible until a barrier box moves when its target is a wall, a barrier box
//! or a dead square, or its player square is a wall, a barrier box or inside the corral. Any
//! other push out of the corral, or into it from a square the player cannot reach now, disqualifies
//! the corral (the rule errs on the side of not pruning).
//!
//! The reordering argument counts pushes only, so the rule is used in the pushes mode alone.

use crate::analysis::region::{Step, spread};
use crate::analysis::{Analysis, Sq};
use crate::level::Dir;

/// Reusable scratch for finding PI-corrals, sized to the level's squares.
#[derive(Debug, Clone)]
pub struct Corrals {
    /// Corral id per square (ids grow across calls, so nothing is cleared between states).
    mark: Vec<u32>,
    /// Id of the corral a box was last collected into as a barrier box.
    barrier_of: Vec<u32>,
    next: u32,
    /// The id of the first corral of the last call.
    first: u32,
    queue: Vec<Sq>,
    /// The squares of the last call's corrals, one corral after another, and where each ends.
    squares: Vec<Sq>,
    ends: Vec<usize>,
    barrier: Vec<Sq>,
    best: Vec<Sq>,
}

impl Corrals {
    /// Scratch for a level with `squares` squares.
    pub fn new(squares: usize) -> Corrals {
        Corrals {
            mark: vec![0; squares],
            barrier_of: vec![0; squares],
            next: 0,
            first: 1,
            queue: Vec::new(),
            squares: Vec::new(),
            ends: Vec::new(),
            barrier: Vec::new(),
            best: Vec::new(),
        }
    }

    /// The barrier boxes of the PI-corral with the fewest barrier boxes, if the position has one.
    /// `occupied[i] != 0` marks a box, `reached(s)` the player's region. `fill_goals` says every
    /// goal must end covered (as many boxes as goals), so a corral holding a goal must be entered.
    /// `unreached` counts the free squares outside the player's region (the squares of all the
    /// corrals: the squares less the region's and the boxes'): the scan for corrals ends once it
    /// has flooded them all.
    pub fn pi_corral(
        &mut self,
        a: &Analysis,
        occupied: &[u8],
        reached: impl Fn(Sq) -> bool,
        mut unreached: usize,
        fill_goals: bool,
    ) -> Option<&[Sq]> {
        let n = a.squares();
        if self.next > u32::MAX - n as u32 - 2 {
            self.mark.fill(0);
            self.barrier_of.fill(0);
            self.next = 0;
        }
        debug_assert_eq!(
            unreached,
            a.all().filter(|&s| occupied[s.index()] == 0 && !reached(s)).count(),
            "`unreached` counts the free squares outside the region"
        );
        let first_id = self.next + 1;
        self.first = first_id;
        self.squares.clear();
        self.ends.clear();
        self.best.clear();
        let mut found = false;
        for start in a.all() {
            if unreached == 0 {
                break;
            }
            if occupied[start.index()] != 0 || reached(start) || self.mark[start.index()] >= first_id {
                continue;
            }
            self.next += 1;
            let id = self.next;
            // Flood the corral and collect its barrier.
            self.queue.clear();
            self.barrier.clear();
            self.queue.push(start);
            self.mark[start.index()] = id;
            let mut has_goal = false;
            let (mark, barrier_of, barrier) = (&mut self.mark, &mut self.barrier_of, &mut self.barrier);
            spread(
                a,
                &mut self.queue,
                |s, _| {
                    has_goal |= a.is_goal(s);
                    true
                },
                |_, _, t| {
                    if occupied[t] != 0 {
                        if barrier_of[t] != id {
                            barrier_of[t] = id;
                            barrier.push(t);
                        }
                        Step::Skip
                    } else if mark[t] != id {
                        mark[t] = id;
                        Step::Enter
                    } else {
                        Step::Skip
                    }
                },
            );
            unreached -= self.queue.len();
            self.squares.extend_from_slice(&self.queue);
            self.ends.push(self.squares.len());
            let must_enter = self.barrier.iter().any(|&b| !a.is_goal(b)) || (has_goal && fill_goals);
            if !must_enter || (found && self.barrier.len() >= self.best.len()) {
                continue;
            }
            if self.is_pi(a, occupied, &reached, id) {
                found = true;
                self.best.clone_from(&self.barrier);
            }
        }
        found.then_some(&self.best[..])
    }

    /// The squares of the corral that holds `s` among those the last [`Corrals::pi_corral`]
    /// found (it finds them all): `s` must be a free square outside the player's region then.
    pub fn corral_holding(&self, s: Sq) -> &[Sq] {
        let id = self.mark[s.index()];
        debug_assert!(id >= self.first, "square {s:?} is in no corral of the last search");
        let k = (id - self.first) as usize;
        &self.squares[if k == 0 { 0 } else { self.ends[k - 1] }..self.ends[k]]
    }

    /// Whether corral `id` (with its barrier in `self.barrier`) meets the P and I conditions.
    fn is_pi(&self, a: &Analysis, occupied: &[u8], reached: &impl Fn(Sq) -> bool, id: u32) -> bool {
        let barrier_box = |s: Sq| occupied[s.index()] != 0 && self.barrier_of[s.index()] == id;
        let inside = |s: Sq| occupied[s.index()] == 0 && self.mark[s.index()] == id;
        for &b in &self.barrier {
            for d in Dir::ALL {
                let (Some(t), Some(q)) = (a.neighbor(b, d), a.neighbor(b, d.opposite())) else {
                    continue;
                };
                let never = barrier_box(t) || barrier_box(q) || inside(q) || !a.is_live(t);
                if never {
                    continue;
                }
                if !(inside(t) && reached(q)) {
                    return false;
                }
            }
        }
        true
    }
}
