//! An order for filling the squares a plan fills first, in which the player is never shut
//! out of a square it must push from later.
//!
//! The backward search of `bases.rs` may leave some boxes where they stand (a room's boxes
//! that no pull takes away), and forwards those come first, in no order of their own. Filled
//! in the wrong order, the last of them can only be pushed in from the side that leaves the
//! player shut in: in a goal room with two ways in (XSokoban 50: one at the bottom, one at
//! the top), the bottom entrance's goal filled from below while the goals above it are
//! full leaves the player below, and every later box comes in from the top. Filled from
//! above instead (the box pushed past the entrance and back down), it leaves the player
//! above, where the rest of the plan needs it.
//!
//! The check is relaxed: only the filled squares stand, the other boxes are ignored, so the
//! player's part of the floor after a push is the most it could ever walk to from there on
//! (filled squares never empty again). An order is kept when, after each push, every square
//! still to be filled, these and the plan's later steps, has a push onto it whose player
//! square the player can walk to and whose box square is free. A depth-first search finds
//! the first such order, the given order first at each choice (so a plan whose order passes
//! keeps it), remembering the (filled set, player part) pairs that failed. When no order
//! passes, or [`BUDGET`] pushes have been tried, the longest order that passed so far comes
//! first and the rest keep their given order.

use hashbrown::HashSet;

use super::packing::push_onto;
use crate::analysis::region::Flood;
use crate::analysis::{Analysis, Sq};
use crate::level::Dir;

/// The pushes the search may try before it settles for the longest order that passed.
pub const BUDGET: usize = 20_000;

/// The order (a permutation of `first`) in which to fill the squares `first`, the plan's
/// `later` steps' squares to be filled after them (see the module docs): the first order that
/// passes the check within `budget` pushes tried, else the longest that passed followed by
/// the rest in the given order.
pub fn fill_order(a: &Analysis, first: &[u16], later: &[u16], budget: usize) -> Vec<u16> {
    let n = a.squares();
    let mut search = OrderSearch {
        a,
        first,
        later,
        filled: vec![0; n],
        done: vec![false; first.len()],
        order: Vec::with_capacity(first.len()),
        longest: Vec::new(),
        failed: HashSet::new(),
        flood: Flood::new(n),
        budget,
    };
    // Before the first push the player may stand anywhere: the check reads every square.
    let anywhere = vec![true; n];
    if search.next(&anywhere, u16::MAX) == Some(true) {
        return search.order;
    }
    // No order passes: the longest prefix that does, the rest in the given order.
    let mut order = search.longest;
    order.extend(first.iter().filter(|s| !order.contains(s)).collect::<Vec<_>>());
    order
}

/// The depth-first search's state.
struct OrderSearch<'a> {
    a: &'a Analysis,
    first: &'a [u16],
    later: &'a [u16],
    /// The filled squares (nonzero).
    filled: Vec<u8>,
    /// Which of `first` are filled.
    done: Vec<bool>,
    order: Vec<u16>,
    /// The longest order that passed so far.
    longest: Vec<u16>,
    /// (filled squares of `first`, lowest square of the player's part) pairs known to fail.
    failed: HashSet<(Vec<bool>, u16)>,
    flood: Flood,
    budget: usize,
}

impl OrderSearch<'_> {
    /// Whether the squares of `first` not filled yet can be filled in some order, the player
    /// in the part `reach` (lowest square `part`); `None` when the budget is spent.
    fn next(&mut self, reach: &[bool], part: u16) -> Option<bool> {
        if self.order.len() == self.first.len() {
            return Some(true);
        }
        if self.failed.contains(&(self.done.clone(), part)) {
            return Some(false);
        }
        for i in 0..self.first.len() {
            if self.done[i] {
                continue;
            }
            let g = Sq::new(usize::from(self.first[i]));
            for d in Dir::ALL {
                let Some(from) = self.pushable(g, d, reach) else { continue };
                self.budget = self.budget.checked_sub(1)?;
                self.filled[g.index()] = 1;
                let lowest = self.flood.player(self.a, &self.filled, from);
                let after: Vec<bool> = self.a.all().map(|s| self.flood.contains(s)).collect();
                self.done[i] = true;
                let found = match self.rest_pushable(&after) {
                    true => {
                        self.order.push(g.index() as u16);
                        if self.order.len() > self.longest.len() {
                            self.longest.clone_from(&self.order);
                        }
                        let found = self.next(&after, lowest.index() as u16);
                        if found != Some(true) {
                            self.order.pop();
                        }
                        found
                    }
                    false => Some(false),
                };
                self.done[i] = false;
                self.filled[g.index()] = 0;
                match found {
                    Some(false) => {}
                    found => return found,
                }
            }
        }
        self.failed.insert((self.done.clone(), part));
        Some(false)
    }

    /// The square the box stands on before a push in direction `d` onto `s` (where the player
    /// stands after it), when that square and the player's before it are free and the player's
    /// square lies in `reach`.
    fn pushable(&self, s: Sq, d: Dir, reach: &[bool]) -> Option<Sq> {
        let (from, player) = push_onto(self.a, &self.filled, s, d)?;
        reach[player.index()].then_some(from)
    }

    /// Whether every square still to be filled (of `first` and `later`) has a push onto it
    /// from the player's part `reach`.
    fn rest_pushable(&self, reach: &[bool]) -> bool {
        let open = |s: u16| {
            let s = Sq::new(usize::from(s));
            self.filled[s.index()] != 0 || Dir::ALL.into_iter().any(|d| self.pushable(s, d, reach).is_some())
        };
        let first = self.first.iter().zip(&self.done).filter(|&(_, &done)| !done).map(|(&s, _)| s);
        first.chain(self.later.iter().copied()).all(open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;
    use crate::level::Level;

    fn sq(level: &Level, a: &Analysis, row: usize, col: usize) -> u16 {
        a.sq(level.square_at(row, col).expect("floor")).index() as u16
    }

    /// Two goals one above the other (`upper`, `lower`) join a top part of the floor to the
    /// bottom, where the boxes are; a third goal lies in the top part. Filled upper first,
    /// either the player stays above and the lower goal can no longer be pushed onto, or it
    /// stays below and the top goal cannot: the lower goal goes first, pushed in from above
    /// (the box taken up through both and back down), which leaves the player above.
    #[test]
    fn a_goal_that_would_shut_the_player_out_waits_for_the_one_below_it() {
        let text = "\
#########
#       #
# .     #
####.####
####.####
#  $ $  #
#   $ @ #
#########
";
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let (top, upper, lower) = (sq(&level, &a, 2, 2), sq(&level, &a, 3, 4), sq(&level, &a, 4, 4));
        assert_eq!(fill_order(&a, &[upper, lower], &[top], BUDGET), vec![lower, upper]);
        // In the order that passes, nothing changes.
        assert_eq!(fill_order(&a, &[lower, upper], &[top], BUDGET), vec![lower, upper]);
        // With no pushes to try, the given order.
        assert_eq!(fill_order(&a, &[upper, lower], &[top], 0), vec![upper, lower]);
    }
}
