//! Macro moves: one box pushed along a path, the player walking between its pushes, to any
//! square it can reach while the other boxes stay where they are.
//!
//! A breadth-first search runs over (box square, direction of the last push) pairs: after a
//! push in direction `d` the player stands behind the box, and from there it can push again
//! in direction `e` when it can walk to the square behind the box for `e` with the box where
//! it is. Which sides of a square are connected around the box, and the normalised player of
//! each move (the lowest square of the player's region once the box stands at the end, which
//! the child's key needs), come from one depth-first search over the free floor per expanded
//! state, with every box in place ([`Cuts::grow_tree`]): its discovery order, low links
//! and subtree sizes say which parts a box on any square cuts the floor into (the
//! articulation points of Hopcroft and Tarjan), and the square the moved box left joins the
//! parts beside it ([`Cuts::lifted_sides`]). The search grows only the parts of the floor
//! beside a box that can move. A search per box, with that box lifted, gives the same answers
//! but walks the whole player region again for every box.
//! Boxes never enter dead squares (no goal can be reached from them). Every (square, direction)
//! pair found is a move; the first time a pair is reached uses the fewest pushes.
//!
//! The same search, rerun from the same position, rebuilds the pushes of a chosen move, so the
//! search tree only stores the move's end points.

use crate::analysis::region::next_round;
use crate::analysis::{Analysis, Sq};
use crate::level::Dir;
use crate::solver::cuts::{Cuts, distinct_sides};

/// One macro move: the box on `from` ends on `to`, pushed last in direction `dir` (the player
/// stands on the square before `to`), after `pushes` pushes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MacroMove {
    pub from: Sq,
    pub to: Sq,
    pub dir: u8,
    pub pushes: u16,
    /// How many separate groups the free sides of `to` form once the box is there (the
    /// number of parts the box cuts its floor region into).
    pub splits: u8,
    /// The lowest square of the player's region after the move (the normalised player).
    pub player: u16,
}

impl MacroMove {
    /// The square the player stands on after the move (behind the box, seen from `to`).
    pub fn player_square(&self, a: &Analysis) -> Sq {
        let back = Dir::ALL[usize::from(self.dir)].opposite();
        a.neighbor(self.to, back).expect("the last push came from behind")
    }
}

const NO_PARENT: u32 = u32::MAX;

/// The search node of a box on `s` pushed last in direction `d`.
#[inline]
fn node_of(s: Sq, d: Dir) -> usize {
    s.index() * 4 + d.index()
}

/// The square and direction of a search node.
#[inline]
fn split(node: usize) -> (Sq, Dir) {
    (Sq::new(node / 4), Dir::ALL[node % 4])
}

/// Reusable scratch for the box searches.
pub struct Macros {
    seen: Vec<u32>,
    generation: u32,
    parent: Vec<u32>,
    dist: Vec<u16>,
    queue: Vec<u32>,
    group_stamp: Vec<u32>,
    groups: Vec<[u8; 4]>,
    /// The lowest square of the part of the floor each side of a square opens on, with the
    /// box there (see [`Cuts::lifted_sides`]).
    lows: Vec<[u16; 4]>,
    cuts: Cuts,
}

impl Macros {
    pub fn new(n: usize) -> Macros {
        Macros {
            seen: vec![0; n * 4],
            generation: 0,
            parent: vec![NO_PARENT; n * 4],
            dist: vec![0; n * 4],
            queue: Vec::new(),
            group_stamp: vec![0; n],
            groups: vec![[u8::MAX; 4]; n],
            lows: vec![[u16::MAX; 4]; n],
            cuts: Cuts::new(n),
        }
    }

    fn next_generation(&mut self) {
        next_round(&mut self.generation, || {
            self.seen.fill(0);
            self.group_stamp.fill(0);
        });
    }

    /// Labels the free sides of `pos` (the box on `lifted` moved onto `pos`, as `occupied`
    /// marks) by the player region they belong to; `u8::MAX` for a wall or a box. The lowest
    /// square of each region goes into `lows`.
    fn side_groups(&mut self, a: &Analysis, occupied: &[u8], lifted: usize, pos: usize) -> [u8; 4] {
        if self.group_stamp[pos] == self.generation {
            return self.groups[pos];
        }
        let (labels, lows) = self.cuts.lifted_sides(a, occupied, lifted, pos);
        self.group_stamp[pos] = self.generation;
        self.groups[pos] = labels;
        self.lows[pos] = lows;
        labels
    }

    /// Runs the box search for the box on `b`, in a forest of this position started with
    /// [`Cuts::start_forest`]; `reached(s)` says whether the player can walk to `s` now.
    /// `occupied` marks the boxes (nonzero) and is restored on return.
    fn search(&mut self, a: &Analysis, occupied: &mut [u8], reached: &dyn Fn(usize) -> bool, b: usize) {
        self.next_generation();
        self.queue.clear();
        occupied[b] = 0;
        let bs = Sq::new(b);
        // Where a box may go: a live square free of boxes.
        let to = |t: Option<Sq>, occupied: &[u8]| t.filter(|&t| a.is_live(t) && occupied[t] == 0);
        for d in Dir::ALL {
            let behind = a.neighbor(bs, d.opposite()).filter(|p| reached(p.index()));
            let (Some(_), Some(t)) = (behind, to(a.neighbor(bs, d), occupied)) else { continue };
            let node = node_of(t, d);
            self.seen[node] = self.generation;
            self.parent[node] = NO_PARENT;
            self.dist[node] = 1;
            self.queue.push(node as u32);
        }
        // A box that cannot move needs no search of the floor (most boxes on packed goals);
        // one that can moves within the parts beside it.
        if !self.queue.is_empty() {
            occupied[b] = 1;
            for t in a.neighbor_indices(bs) {
                if usize::from(t) < occupied.len() && occupied[usize::from(t)] == 0 {
                    self.cuts.grow_tree(a, occupied, usize::from(t));
                }
            }
            occupied[b] = 0;
        }
        let mut head = 0;
        while head < self.queue.len() {
            let node = self.queue[head] as usize;
            head += 1;
            let (pos, d) = split(node);
            occupied[pos] = 1;
            let groups = self.side_groups(a, occupied, b, pos.index());
            occupied[pos] = 0;
            let here = groups[d.opposite().index()];
            for e in Dir::ALL {
                if groups[e.opposite().index()] != here {
                    continue;
                }
                let Some(t) = to(a.neighbor(pos, e), occupied) else { continue };
                let next = node_of(t, e);
                if self.seen[next] != self.generation {
                    self.seen[next] = self.generation;
                    self.parent[next] = node as u32;
                    self.dist[next] = self.dist[node].saturating_add(1);
                    self.queue.push(next as u32);
                }
            }
        }
        occupied[b] = 1;
    }

    /// Appends every macro move of each box of `boxes` to `out`, box after box, until
    /// `stop()` says so after one. One search of the free floor serves every box (see
    /// [`Cuts::lifted_sides`]).
    pub fn moves(
        &mut self,
        a: &Analysis,
        occupied: &mut [u8],
        reached: &dyn Fn(usize) -> bool,
        boxes: &mut dyn Iterator<Item = usize>,
        out: &mut Vec<MacroMove>,
        stop: &mut dyn FnMut() -> bool,
    ) {
        self.cuts.start_forest();
        for b in boxes {
            self.box_moves(a, occupied, reached, b, out);
            if stop() {
                return;
            }
        }
    }

    /// Appends every macro move of the box on `b` to `out`.
    fn box_moves(
        &mut self,
        a: &Analysis,
        occupied: &mut [u8],
        reached: &dyn Fn(usize) -> bool,
        b: usize,
        out: &mut Vec<MacroMove>,
    ) {
        self.search(a, occupied, reached, b);
        for &node in &self.queue {
            let (pos, d) = split(node as usize);
            if pos.index() != b {
                // Every square reached had its side groups worked out by this search.
                let groups = self.groups[pos];
                let splits = distinct_sides(groups, u8::MAX);
                out.push(MacroMove {
                    from: Sq::new(b),
                    to: pos,
                    dir: d.index() as u8,
                    pushes: self.dist[node as usize],
                    splits: splits as u8,
                    player: self.lows[pos][d.opposite().index()],
                });
            }
        }
    }

    /// The pushes of move `m` as (box square before the push, direction), or `None` if the
    /// position does not allow it.
    pub fn pushes(
        &mut self,
        a: &Analysis,
        occupied: &mut [u8],
        reached: &dyn Fn(usize) -> bool,
        m: MacroMove,
    ) -> Option<Vec<(u16, Dir)>> {
        self.cuts.start_forest();
        self.search(a, occupied, reached, m.from.index());
        let mut node = node_of(m.to, Dir::ALL[usize::from(m.dir)]);
        if self.seen[node] != self.generation {
            return None;
        }
        let mut out = Vec::new();
        loop {
            let (pos, d) = split(node);
            let behind = a.neighbor(pos, d.opposite()).expect("a push came from behind");
            out.push((behind.index() as u16, d));
            match self.parent[node] {
                NO_PARENT => break,
                p => node = p as usize,
            }
        }
        out.reverse();
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::UNREACHABLE;
    use crate::format::parse_levels;

    #[test]
    fn a_box_reaches_every_live_square_around_the_room_and_pushes_rebuild() {
        let level = parse_levels("######\n#    #\n# $  #\n#@  .#\n######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut occupied = vec![0u8; a.squares()];
        let b = a.sq(level.boxes()[0]).index();
        occupied[b] = 1;
        let mut m = Macros::new(a.squares());
        let mut out = Vec::new();
        m.moves(&a, &mut occupied, &|s| occupied_free(s), &mut std::iter::once(b), &mut out, &mut || false);
        let goal_moves: Vec<_> = out.iter().filter(|mv| mv.to == Sq::new(0)).collect();
        assert!(!goal_moves.is_empty(), "the box can reach the goal");
        let best = goal_moves.iter().map(|mv| mv.pushes).min().unwrap();
        assert_eq!(
            best,
            a.distance(0, Sq::new(b)).unwrap_or(UNREACHABLE),
            "fewest pushes equal the empty-board distance"
        );
        let mv = **goal_moves.iter().find(|mv| mv.pushes == best).unwrap();
        let pushes = m.pushes(&a, &mut occupied, &|s| occupied_free(s), mv).unwrap();
        assert_eq!(pushes.len(), best as usize);
        assert_eq!(pushes[0].0 as usize, b);
        assert_eq!(occupied[b], 1, "occupancy restored");

        fn occupied_free(_: usize) -> bool {
            true
        }
    }
}
