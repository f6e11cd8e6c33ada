//! Articulation points of the free floor: a depth-first search with discovery order, low links
//! and subtree sizes (Hopcroft and Tarjan), so that the part of the floor a square falls in once
//! a box stands on another square is known without a flood. The fast engine's macro moves (and
//! the macro pulls of its bases plan's search) read the sides of each square a box reaches, and
//! the player's region after each move, from one search per state over the whole free floor
//! (a forest, every box in place); its backward search and A*'s successors read the player's
//! region after a move from a search of the player's region. All of them join the parts
//! beside the square the moved box left in one place, [`Cuts::opened`].
//!
//! The search numbers squares in discovery order, so a subtree is a range of numbers: which
//! part of the floor a square falls in once a box stands on `pos` is a comparison with the
//! ranges of `pos`'s children that it cuts off (their low links do not reach above `pos`).

use crate::analysis::region::next_round;
use crate::analysis::{Analysis, Sq};

/// No square: a wall beside a square, or no parent in the search.
const NONE: u16 = u16::MAX;

/// What [`Cuts::lows_with_box_on`] gives for a side that is a wall or a box.
pub(crate) const NO_SQUARE: u16 = NONE;

/// The sides of `s` that are floor free in `occupied`: bit `d` for the side in direction
/// `Dir::ALL[d]`. Read at once for the four, so the search takes a square's free sides without a
/// branch per wall or box.
#[inline]
fn free_sides(a: &Analysis, occupied: &[u8], s: usize) -> u8 {
    let mut sides = 0;
    for (d, t) in a.neighbor_indices(Sq::new(s)).into_iter().enumerate() {
        // A wall's index (`NONE`) is past the end of `occupied`.
        let free = occupied.get(usize::from(t)).is_some_and(|&o| o == 0);
        sides |= u8::from(free) << d;
    }
    sides
}

/// The square beside `s` on side `d` (`Dir::ALL` order), read from the four as one word (an
/// indexed read of the array goes through memory).
#[inline]
fn side(a: &Analysis, s: usize, d: usize) -> u16 {
    let [n0, n1, n2, n3] = a.neighbor_indices(Sq::new(s)).map(u64::from);
    ((n0 | n1 << 16 | n2 << 32 | n3 << 48) >> (16 * d)) as u16
}

/// A depth-first search over the free floor of one box search (the moved box lifted), with
/// discovery order, low links and subtree sizes, so the sides of any square that stay
/// connected once a box stands on it are known without a flood (Hopcroft and Tarjan's
/// articulation points).
#[derive(Debug)]
pub(crate) struct Cuts {
    stamp: Vec<u32>,
    disc: Vec<u32>,
    low: Vec<u32>,
    size: Vec<u32>,
    parent: Vec<u16>,
    stack: Vec<(u16, u8)>,
    /// The lowest square of each subtree.
    lowest: Vec<u16>,
    /// The root of each square's tree (a forest's; see [`Cuts::start_forest`]).
    root: Vec<u16>,
    /// The squares in discovery order, and for each position of that order the lowest square
    /// of its tree before it and after it.
    order: Vec<u16>,
    head: Vec<u16>,
    tail: Vec<u16>,
    /// The generation of the last [`Cuts::run_next`].
    generation: u32,
}

impl Cuts {
    pub(crate) fn new(n: usize) -> Cuts {
        Cuts {
            stamp: vec![0; n],
            disc: vec![0; n],
            low: vec![0; n],
            size: vec![0; n],
            parent: vec![NONE; n],
            stack: Vec::new(),
            lowest: vec![NONE; n],
            root: vec![NONE; n],
            order: Vec::new(),
            head: Vec::new(),
            tail: Vec::new(),
            generation: 0,
        }
    }

    /// Like [`Cuts::run`] under a generation this search keeps itself (one more than the last,
    /// the stamps cleared when it wraps), which it returns: for a caller with no generations of
    /// its own. Not to be mixed with [`Cuts::run`] on the same search.
    pub(crate) fn run_next(&mut self, a: &Analysis, occupied: &[u8], root: usize) -> u32 {
        let generation = self.next_generation();
        self.run(a, occupied, root, generation);
        generation
    }

    /// Starts a forest under a generation of its own (as [`Cuts::run_next`]'s): a search over
    /// the parts of the free floor that [`Cuts::grow_tree`] asks for, one tree each, so that
    /// [`Cuts::lifted_sides`] can answer for a box beside them.
    pub(crate) fn start_forest(&mut self) {
        self.next_generation();
        self.order.clear();
        self.head.clear();
        self.tail.clear();
    }

    /// Adds the tree of the part of the floor free in `occupied` (the same for every tree of
    /// the forest) that holds the free square `s`, unless the forest has it.
    #[inline]
    pub(crate) fn grow_tree(&mut self, a: &Analysis, occupied: &[u8], s: usize) {
        if self.stamp[s] != self.generation {
            let start = self.order.len();
            self.grow(a, occupied, s, self.generation);
            self.fill_minima(start);
        }
    }

    /// One more than the last generation of [`Cuts::run_next`], the stamps cleared when it wraps.
    fn next_generation(&mut self) -> u32 {
        next_round(&mut self.generation, || self.stamp.fill(0))
    }

    /// Runs the search from `root` over the squares free in `occupied`, marking them with
    /// `generation`.
    #[inline]
    pub(crate) fn run(&mut self, a: &Analysis, occupied: &[u8], root: usize, generation: u32) {
        self.order.clear();
        self.head.clear();
        self.tail.clear();
        self.grow(a, occupied, root, generation);
        self.fill_minima(0);
    }

    /// Grows the tree of `root` (not reached yet) over the squares free in `occupied`, its
    /// squares numbered on from those already in `order`.
    #[inline]
    fn grow(&mut self, a: &Analysis, occupied: &[u8], root: usize, generation: u32) {
        let mut counter = self.order.len() as u32;
        self.order.push(root as u16);
        self.stamp[root] = generation;
        self.lowest[root] = root as u16;
        self.root[root] = root as u16;
        self.disc[root] = counter;
        self.low[root] = counter;
        self.parent[root] = NONE;
        counter += 1;
        self.stack.clear();
        self.stack.push((root as u16, free_sides(a, occupied, root)));
        while let Some(top) = self.stack.last_mut() {
            let v = top.0 as usize;
            if top.1 != 0 {
                // The next free side, in `Dir::ALL` order.
                let d = top.1.trailing_zeros() as usize;
                top.1 &= top.1 - 1;
                let t = usize::from(side(a, v, d));
                if self.stamp[t] != generation {
                    self.stamp[t] = generation;
                    self.disc[t] = counter;
                    self.low[t] = counter;
                    self.parent[t] = v as u16;
                    self.lowest[t] = t as u16;
                    self.root[t] = root as u16;
                    self.order.push(t as u16);
                    counter += 1;
                    self.stack.push((t as u16, free_sides(a, occupied, t)));
                } else if t as u16 != self.parent[v] {
                    self.low[v] = self.low[v].min(self.disc[t]);
                }
            } else {
                self.stack.pop();
                self.size[v] = counter - self.disc[v];
                let p = self.parent[v];
                if p != NONE {
                    self.low[p as usize] = self.low[p as usize].min(self.low[v]);
                    self.lowest[p as usize] = self.lowest[p as usize].min(self.lowest[v]);
                }
            }
        }
    }

    /// `head` and `tail` of the positions of `order` from `start` on, one tree's: the lowest
    /// square of the tree before each position, and after it.
    fn fill_minima(&mut self, start: usize) {
        let tree = &self.order[start..];
        let mut low = NONE;
        for &s in tree {
            self.head.push(low);
            low = low.min(s);
        }
        self.tail.resize(self.order.len(), NONE);
        let mut low = NONE;
        for (slot, &s) in self.tail[start..].iter_mut().zip(tree).rev() {
            *slot = low;
            low = low.min(s);
        }
    }

    /// Whether `pos` cuts the subtree of its child `c` off from the rest.
    #[inline]
    fn cuts_off(&self, pos: usize, c: usize) -> bool {
        self.low[c] >= self.disc[pos]
    }

    /// Whether the last search (run with `generation`) reached `s`.
    #[inline]
    pub(crate) fn reached(&self, s: usize, generation: u32) -> bool {
        self.stamp[s] == generation
    }

    /// The part of the last search's floor that holds the reached square `t` (not `pos`) once
    /// a box stands on `pos`, as (a key equal for squares of the same part, its lowest square).
    #[inline]
    pub(crate) fn part(&self, a: &Analysis, pos: usize, t: usize) -> (u32, u16) {
        self.around(a, pos).part(self.disc[t])
    }

    /// The parts of `pos`'s tree once a box stands on `pos` (see [`Around`]).
    #[inline]
    fn around(&self, a: &Analysis, pos: usize) -> Around {
        let (first, end) = (self.disc[pos], self.disc[pos] + self.size[pos]);
        let mut around = Around { first, end, cut: [(0, 0, 0, NONE); 4], cuts: 0, up_low: NONE };
        let mut up_low = self.head[first as usize].min(self.tail[(end - 1) as usize]);
        for c in a.neighbor_indices(Sq::new(pos)) {
            let c = c as usize;
            if c == NONE as usize || self.stamp[c] != self.stamp[pos] || self.parent[c] as usize != pos {
                continue;
            }
            if self.cuts_off(pos, c) {
                around.cut[around.cuts] = (self.disc[c], self.disc[c] + self.size[c], c as u32, self.lowest[c]);
                around.cuts += 1;
            } else {
                up_low = up_low.min(self.lowest[c]);
            }
        }
        around.up_low = up_low;
        around
    }

    /// After [`Cuts::grow_tree`] with every box in place for each free square beside `lifted`,
    /// the box on `lifted` standing on `pos` instead (`occupied` says so): the side groups of
    /// `pos` (sides that stay joined share a label, see [`labels_of`]), and for each free side
    /// the lowest square of the part of the floor it opens on ([`NONE`] for a wall or a box). Two
    /// sides are joined when they are in the forest without `pos`, or when both parts touch
    /// `lifted`, which the box has left.
    #[inline]
    pub(crate) fn lifted_sides(&self, a: &Analysis, occupied: &[u8], lifted: usize, pos: usize) -> ([u8; 4], [u16; 4]) {
        const JOIN: u32 = u32::MAX - 2;
        let free = |t: u16| t != NONE && occupied[t as usize] == 0;
        let mut keys = [NO_SIDE; 4];
        let mut lows = [NONE; 4];
        if pos == lifted {
            // The box is back where the forest has it: each side is in its own tree.
            for (d, t) in a.neighbor_indices(Sq::new(pos)).into_iter().enumerate() {
                if free(t) {
                    let root = self.root[t as usize];
                    (keys[d], lows[d]) = (u32::from(root), self.lowest[root as usize]);
                }
            }
            return (labels_of(keys), lows);
        }
        let around = self.around(a, pos);
        let Opened { keys: joined, low: join_low, .. } = self.opened_around(a, occupied, lifted, pos, &around);
        for (d, t) in a.neighbor_indices(Sq::new(pos)).into_iter().enumerate() {
            if !free(t) {
                continue;
            }
            let (key, low) = match t as usize == lifted {
                true => (JOIN, join_low),
                false => around.part(self.disc[t as usize]),
            };
            (keys[d], lows[d]) = match key == JOIN || joined.contains(&key) {
                true => (JOIN, join_low),
                false => (key, low),
            };
        }
        (labels_of(keys), lows)
    }

    /// [`Cuts::lifted_sides`]'s lowest squares, the box from `lifted` set down on `pos` in
    /// `occupied` for the reading (where `lifted` is free): [`NO_SQUARE`] for a wall or a box.
    #[inline]
    pub(crate) fn lows_with_box_on(&self, a: &Analysis, occupied: &mut [u8], lifted: usize, pos: usize) -> [u16; 4] {
        occupied[pos] = 1;
        let (_, lows) = self.lifted_sides(a, occupied, lifted, pos);
        occupied[pos] = 0;
        lows
    }

    /// What the square `lifted` opens onto once the box that stood on it stands on `pos`
    /// instead (`occupied` shows the box there): see [`Opened`]. `pos` is a square the last
    /// search reached.
    #[inline]
    pub(crate) fn opened(&self, a: &Analysis, occupied: &[u8], lifted: usize, pos: usize) -> Opened {
        self.opened_around(a, occupied, lifted, pos, &self.around(a, pos))
    }

    /// [`Cuts::opened`] with the parts round `pos` read already.
    #[inline]
    fn opened_around(&self, a: &Analysis, occupied: &[u8], lifted: usize, pos: usize, around: &Around) -> Opened {
        let (tree, generation) = (self.root[pos], self.stamp[pos]);
        let mut opened = Opened { keys: [NO_SIDE; 4], low: lifted as u16, whole: true };
        for (e, n) in a.neighbor_indices(Sq::new(lifted)).into_iter().enumerate() {
            let n = usize::from(n);
            if occupied.get(n).is_none_or(|&o| o != 0) {
                continue;
            }
            if self.stamp[n] != generation {
                opened.whole = false;
                continue;
            }
            let root = self.root[n];
            let (key, low) = match root == tree {
                true => around.part(self.disc[n]),
                false => (NO_SIDE, self.lowest[usize::from(root)]),
            };
            opened.keys[e] = key;
            opened.low = opened.low.min(low);
        }
        opened
    }
}

/// The square a box left, once the box stands on another ([`Cuts::opened`]): the square joins
/// the parts of the floor beside it into one.
pub(crate) struct Opened {
    /// For each side of the square left (`Dir::ALL` order), the key of the part it opens onto,
    /// as [`Cuts::part`] gives it ([`NO_SIDE`] for a wall, a box, a side the search did not
    /// reach, or a part of another tree of a forest, which no box cuts).
    pub keys: [u32; 4],
    /// The lowest square of the square left and the parts it joins.
    pub low: u16,
    /// Whether the search reached every free side (else `low` leaves the others out).
    pub whole: bool,
}

/// The key of a side that is a wall or a box, in [`labels_of`].
const NO_SIDE: u32 = u32::MAX - 1;

/// The parts a box on one square cuts its tree into, read once for the square so that each
/// square of the tree finds its part by its discovery number: the subtrees of the children
/// the square cuts off, each a part of its own, and the rest (the part above, [`UP`]).
struct Around {
    /// The square's discovery number and the end of its subtree's.
    first: u32,
    end: u32,
    /// The children cut off: (first and end discovery number of the subtree, key, lowest).
    cut: [(u32, u32, u32, u16); 4],
    cuts: usize,
    /// The lowest square of the part above.
    up_low: u16,
}

/// The key of the part above a square (see [`Around`]).
const UP: u32 = u32::MAX;

impl Around {
    /// The part (key, lowest square) of the square discovered `disc`th, not the square itself.
    #[inline]
    fn part(&self, disc: u32) -> (u32, u16) {
        if disc > self.first && disc < self.end {
            for &(first, end, key, low) in &self.cut[..self.cuts] {
                if disc >= first && disc < end {
                    return (key, low);
                }
            }
        }
        (UP, self.up_low)
    }
}

/// How many distinct values the four sides of a square hold, leaving out `none` (a wall or a
/// box): the parts of the floor a box on the square touches, from its side groups or lows.
#[inline]
pub(crate) fn distinct_sides<T: Copy + PartialEq>(sides: [T; 4], none: T) -> usize {
    (0..4).filter(|&i| sides[i] != none && !sides[..i].contains(&sides[i])).count()
}

/// Side groups from the four sides' part keys ([`NO_SIDE`] for a wall or a box): sides with
/// equal keys share a label, labels numbered in side order as the flood gives them.
#[inline]
fn labels_of(keys: [u32; 4]) -> [u8; 4] {
    let mut labels = [u8::MAX; 4];
    let mut next = 0u8;
    for i in 0..4 {
        if keys[i] == NO_SIDE || labels[i] != u8::MAX {
            continue;
        }
        for j in i..4 {
            if keys[j] == keys[i] {
                labels[j] = next;
            }
        }
        next += 1;
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::region::{self, Flood};
    use crate::format::parse_levels;

    /// Levels for the tests: open floor, a goal room, and boxes that close off parts of the
    /// floor (so that a forest has several trees and a region does not reach every square).
    const TEXTS: [&str; 4] = [
        "  ####\n###  ####\n#     $ #\n# #  #$ #\n# . .#@ #\n#########\n",
        "#######\n#.$ $.#\n# $@$ #\n#.   .#\n#######\n",
        "#########\n#  #.   #\n# $$  $.#\n#@ #  $ #\n##$##.  #\n#.  # . #\n#########\n",
        "    #####\n    #   #\n    #$  #\n  ###  $##\n  #  $ $ #\n### # ## #   ######\n#   # ## #####  ..#\n# $  $          ..#\n##### ### #@##  ..#\n    #     #########\n    #######\n",
    ];

    /// The level of `text`, its analysis, the squares its boxes occupy (1 each) and those
    /// squares in order.
    fn board(text: &str) -> (crate::level::Level, Analysis, Vec<u8>, Vec<usize>) {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut occupied = vec![0u8; a.squares()];
        let boxes: Vec<usize> = level.boxes().iter().map(|&b| a.sq(b).index()).collect();
        for &b in &boxes {
            occupied[b] = 1;
        }
        (level, a, occupied, boxes)
    }

    #[test]
    fn a_square_left_opens_onto_what_a_flood_from_it_finds() {
        // A search of the player's region only (one tree): each box moved one step onto a
        // square of the region, the square it left joins the parts beside it; `whole` exactly
        // when every free side of that square is in the region.
        for text in TEXTS {
            let (level, a, mut occupied, boxes) = board(text);
            let n = a.squares();
            let mut cuts = Cuts::new(n);
            let generation = cuts.run_next(&a, &occupied, a.sq(level.player()).index());
            let mut flood = Flood::new(n);
            for &b in &boxes {
                for to in a.neighbor_indices(Sq::new(b)).map(usize::from) {
                    if to >= n || !cuts.reached(to, generation) {
                        continue;
                    }
                    (occupied[b], occupied[to]) = (0, 1);
                    let opened = cuts.opened(&a, &occupied, b, to);
                    let sides = a.neighbor_indices(Sq::new(b)).map(usize::from);
                    let mut free = sides.into_iter().filter(|&t| t < n && occupied[t] == 0);
                    assert_eq!(opened.whole, free.all(|t| cuts.reached(t, generation)), "box {b} to {to}: whole");
                    if opened.whole {
                        let want = flood.player(&a, &occupied, Sq::new(b)).index() as u16;
                        assert_eq!(opened.low, want, "box {b} to {to}: lowest square");
                    }
                    (occupied[b], occupied[to]) = (1, 0);
                }
            }
        }
    }

    #[test]
    fn lifted_sides_agree_with_floods_for_every_box_and_square() {
        for text in TEXTS {
            let (_, a, mut occupied, boxes) = board(text);
            let n = a.squares();
            let mut cuts = Cuts::new(n);
            cuts.start_forest();
            for s in 0..n {
                if occupied[s] == 0 {
                    cuts.grow_tree(&a, &occupied, s);
                }
            }
            let mut flood = Flood::new(n);
            for &b in &boxes {
                occupied[b] = 0;
                for pos in 0..n {
                    if occupied[pos] != 0 {
                        continue;
                    }
                    occupied[pos] = 1;
                    let (labels, lows) = cuts.lifted_sides(&a, &occupied, b, pos);
                    let want = region::side_groups(&a, &mut flood, Sq::new(pos), |t| occupied[t] == 0);
                    assert_eq!(labels, want, "box {b} on {pos}: groups");
                    for (d, t) in a.neighbor_indices(Sq::new(pos)).into_iter().enumerate() {
                        let free = usize::from(t) < n && occupied[usize::from(t)] == 0;
                        let want = if free {
                            flood.player(&a, &occupied, Sq::new(usize::from(t))).index() as u16
                        } else {
                            NONE
                        };
                        assert_eq!(lows[d], want, "box {b} on {pos}, side {d}: lowest square");
                    }
                    occupied[pos] = 0;
                }
                occupied[b] = 1;
            }
        }
    }
}
