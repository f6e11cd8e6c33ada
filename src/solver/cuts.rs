//! Articulation points of the free floor: a depth-first search with discovery order, low links
//! and subtree sizes (Hopcroft and Tarjan), so that the part of the floor a square falls in once
//! a box stands on another square is known without a flood. The fast engine's macro moves read
//! the sides of each square a box reaches; its backward search and A*'s successors read the
//! player's region after a move.

use crate::analysis::{Analysis, Sq};
use crate::level::Dir;

/// No square: a wall beside a square, or no parent in the search.
const NONE: u16 = u16::MAX;

/// The square beside `s` in direction `d`, or [`NONE`] for a wall.
#[inline]
fn nb(a: &Analysis, s: usize, d: Dir) -> u16 {
    a.neighbor(Sq::new(s), d).map_or(NONE, |t| t.index() as u16)
}

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
    /// The squares in discovery order, and the lowest square before and from each position
    /// of that order.
    order: Vec<u16>,
    before: Vec<u16>,
    after: Vec<u16>,
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
            order: Vec::new(),
            before: Vec::new(),
            after: Vec::new(),
            generation: 0,
        }
    }

    /// Like [`Cuts::run`] under a generation this search keeps itself (one more than the last,
    /// the stamps cleared when it wraps), which it returns: for a caller with no generations of
    /// its own. Not to be mixed with [`Cuts::run`] on the same search.
    pub(crate) fn run_next(&mut self, a: &Analysis, occupied: &[u8], root: usize) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.forget();
            self.generation = 1;
        }
        self.run(a, occupied, root, self.generation);
        self.generation
    }

    /// Runs the search from `root` over the squares free in `occupied`, marking them with
    /// `generation`.
    #[inline]
    pub(crate) fn run(&mut self, a: &Analysis, occupied: &[u8], root: usize, generation: u32) {
        let mut counter = 0u32;
        self.order.clear();
        self.order.push(root as u16);
        self.stamp[root] = generation;
        self.lowest[root] = root as u16;
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
        let n = self.order.len();
        self.before.clear();
        self.before.push(NONE);
        let mut low = NONE;
        self.before.extend(self.order.iter().map(|&s| {
            low = low.min(s);
            low
        }));
        self.after.clear();
        self.after.resize(n + 1, NONE);
        let mut low = NONE;
        for (slot, &s) in self.after[..n].iter_mut().zip(&self.order).rev() {
            low = low.min(s);
            *slot = low;
        }
    }

    /// The child of `pos` in whose subtree the descendant `t` lies.
    #[inline]
    fn child_towards(&self, a: &Analysis, pos: usize, t: usize) -> Option<usize> {
        Dir::ALL.iter().map(|&e| nb(a, pos, e)).find_map(|c| {
            let c = c as usize;
            let holds = c != NONE as usize
                && self.stamp[c] == self.stamp[pos]
                && self.parent[c] as usize == pos
                && self.disc[c] <= self.disc[t]
                && self.disc[t] < self.disc[c] + self.size[c];
            holds.then_some(c)
        })
    }

    /// The child of `pos` whose subtree, cut off from the rest by a box on `pos`, holds the
    /// reached square `t`; `None` when `t` is in the part above `pos`.
    #[inline]
    fn cut_off_child(&self, a: &Analysis, pos: usize, t: usize) -> Option<usize> {
        if self.disc[t] <= self.disc[pos] {
            return None;
        }
        self.child_towards(a, pos, t).filter(|&c| self.cuts_off(pos, c))
    }

    /// Whether `pos` cuts the subtree of its child `c` off from the rest.
    #[inline]
    fn cuts_off(&self, pos: usize, c: usize) -> bool {
        self.low[c] >= self.disc[pos]
    }

    /// Forgets every search so far: no square counts as reached under any generation (for a
    /// caller whose generations start again).
    pub(crate) fn forget(&mut self) {
        self.stamp.fill(0);
    }

    /// Whether the last search (run with `generation`) reached `s`.
    #[inline]
    pub(crate) fn reached(&self, s: usize, generation: u32) -> bool {
        self.stamp[s] == generation
    }

    /// The lowest square of the part of the last search's floor that holds the free square
    /// `t` (reached, not `pos`), once a box stands on `pos`.
    #[inline]
    pub(crate) fn lowest_beside(&self, a: &Analysis, occupied: &[u8], pos: usize, t: usize) -> u16 {
        self.part(a, occupied, pos, t).1
    }

    /// The part of the last search's floor that holds the reached square `t` (not `pos`) once
    /// a box stands on `pos`, as (a key equal for squares of the same part, its lowest square).
    #[inline]
    pub(crate) fn part(&self, a: &Analysis, occupied: &[u8], pos: usize, t: usize) -> (u32, u16) {
        if let Some(c) = self.cut_off_child(a, pos, t) {
            return (c as u32, self.lowest[c]);
        }
        // The part above `pos`: everything outside its subtree, with the subtrees of the
        // children that have a way round.
        let (first, end) = (self.disc[pos] as usize, (self.disc[pos] + self.size[pos]) as usize);
        let lowest = self
            .children_round(a, occupied, pos)
            .fold(self.before[first].min(self.after[end]), |low, c| low.min(self.lowest[c]));
        (u32::MAX, lowest)
    }

    /// The children of `pos` whose subtrees have a way round it (they stay joined to the part
    /// above `pos` once a box stands there).
    #[inline]
    fn children_round(&self, a: &Analysis, occupied: &[u8], pos: usize) -> impl Iterator<Item = usize> {
        Dir::ALL.into_iter().filter_map(move |e| {
            let c = nb(a, pos, e);
            if c == NONE || occupied[c as usize] != 0 {
                return None;
            }
            let c = c as usize;
            (self.stamp[c] == self.stamp[pos] && self.parent[c] as usize == pos && !self.cuts_off(pos, c)).then_some(c)
        })
    }

    /// The side groups of `pos` (the fast engine's `Macros::side_groups`: the sides of `pos`
    /// that stay joined once a box stands there share a label) from the last search, which
    /// reached `pos`: a side in the subtree of a child that `pos` cuts off is a group of its
    /// own; every other side (the parent, the ancestors, the subtrees with a way round) is one.
    #[inline]
    pub(crate) fn groups(&self, a: &Analysis, occupied: &[u8], pos: usize) -> [u8; 4] {
        const UP: u32 = u32::MAX;
        let mut keys = [u32::MAX - 1; 4];
        for d in Dir::ALL {
            let t = nb(a, pos, d);
            if t == NONE || occupied[t as usize] != 0 {
                continue;
            }
            keys[d.index()] = self.cut_off_child(a, pos, t as usize).map_or(UP, |c| c as u32);
        }
        // Labels in side order, as the flood gives them.
        let mut labels = [u8::MAX; 4];
        let mut next = 0u8;
        for i in 0..4 {
            if keys[i] == u32::MAX - 1 || labels[i] != u8::MAX {
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
}
