//! The backward search: pulls from the solved position towards the start.
//!
//! Many levels are hard forwards and easy backwards: the goal area is where boxes jam, and
//! pulling boxes out of it one at a time never jams (a pulled box can always be pushed back).
//! Before the feature-space search, best-first searches pull boxes off the goals: their roots
//! are the solved box set with the player in each region of the free floor, a move is one pull
//! (the player steps back from a box and drags it along), and states are ranked by the cheapest
//! matching of boxes to the start squares (pushes from each start square on an empty board, so
//! a box pulled where no start box could be pushed is never queued), either greedily or within
//! feature cells taken in turn ([`Order`]). The orders are fast on different levels (backward
//! alone on Sasquatch: 37 takes 0.3 s greedy and 2.3 s in cells; 12 and 39 fall only in
//! cells), so the engine runs both, each with a tree of its own. Their states keep
//! the forward search's keys (box bitset over the live squares, lowest square of the player's
//! region), and every state they reach is solved by undoing its pulls, so
//! - reaching the start position solves the level outright, and
//! - a forward state equal to one of their states finishes the forward search (they meet).
//!
//! Each tree is kept whole for the meeting; its size is the share of the limits it was given
//! (the memory share counts the open list too while it grows).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::ops::Bound;

use hashbrown::HashTable;

use super::raw::{NONE, RawIndex};
use super::search::{Reach, hash_key, spread};
use crate::analysis::Analysis;
use crate::level::{Dir, Level};
use crate::solver::Stats;
use crate::solver::expand::Push;
use crate::solver::hungarian::{FORBIDDEN, Hungarian};

const ROOT: u32 = u32::MAX;

#[derive(Debug, Clone, Copy)]
struct PullNode {
    parent: u32,
    /// The pulled box's square after the pull (unused for a root).
    to: u16,
    /// The pull's direction (the box's and the player's step), as an index into [`Dir::ALL`].
    dir: u8,
    /// Normalised player square: the lowest index of the player's region.
    player: u16,
}

/// The states the backward search reached, by full key, with their pulls back to the solved
/// position.
pub struct PullTree {
    stride: usize,
    nodes: Vec<PullNode>,
    keys: Vec<u64>,
    table: HashTable<(u32, u32)>,
    /// The state equal to the start position, when the search reached it.
    reached: Option<u32>,
}

impl PullTree {
    /// A tree with no states: meets nothing.
    pub fn empty(a: &Analysis) -> PullTree {
        PullTree {
            stride: a.live().div_ceil(64).max(1),
            nodes: Vec::new(),
            keys: Vec::new(),
            table: HashTable::new(),
            reached: None,
        }
    }

    fn key(&self, node: u32) -> &[u64] {
        let i = node as usize * self.stride;
        &self.keys[i..i + self.stride]
    }

    /// The state with box bitset `words` and normalised player `player` (hashed by
    /// [`hash_key`]), if the search reached it.
    pub fn find(&self, words: &[u64], player: u16, hash: u32) -> Option<u32> {
        self.table
            .find(spread(hash), |&(n, h)| h == hash && self.nodes[n as usize].player == player && self.key(n) == words)
            .map(|&(n, _)| n)
    }

    fn insert(&mut self, words: &[u64], node: PullNode, hash: u32) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.keys.extend_from_slice(words);
        self.table.insert_unique(spread(hash), (id, hash), |&(_, h)| spread(h));
        id
    }

    /// States stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.keys.capacity() * 8 + self.nodes.capacity() * std::mem::size_of::<PullNode>() + self.table.capacity() * 9
    }

    /// The state equal to the start position, when the search reached it.
    pub fn reached(&self) -> Option<u32> {
        self.reached
    }

    /// The pushes that take state `id` to the solved position: its pulls undone, last first.
    pub fn pushes_from(&self, a: &Analysis, id: u32) -> Vec<Push> {
        let mut pushes = Vec::new();
        let mut at = id;
        while at != ROOT {
            let node = self.nodes[at as usize];
            if node.parent == ROOT {
                break;
            }
            let dir = Dir::ALL[node.dir as usize].opposite();
            pushes.push(Push { from: a.square_of(node.to as usize), dir });
            at = node.parent;
        }
        pushes
    }
}

/// The order in which a backward search takes its open states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// The smallest matching first (ties to the newest state): dives straight at the start,
    /// and fills the first dead end that looks close to it.
    Greedy,
    /// Feature cells (boxes pulled off the goals, boxes on start squares), visited in turn,
    /// each giving its smallest matching (ties to the newest): every stage of unpacking the
    /// goals and packing the start squares keeps moving, as in the forward search.
    Cells,
}

/// A cell of [`Order::Cells`]: boxes off the goals, boxes on start squares.
type PullCell = (u16, u16);

type Queue = BinaryHeap<Reverse<(u32, Reverse<u32>)>>;

/// The open states in one [`Order`].
struct Open {
    order: Order,
    greedy: Queue,
    cells: BTreeMap<PullCell, Queue>,
    /// The cell visited last.
    cursor: Option<PullCell>,
    /// Entries in the cells' heaps.
    queued: usize,
}

impl Open {
    fn new(order: Order) -> Open {
        Open { order, greedy: Queue::new(), cells: BTreeMap::new(), cursor: None, queued: 0 }
    }

    fn push(&mut self, h: u32, cell: PullCell, id: u32) {
        let entry = Reverse((h, Reverse(id)));
        match self.order {
            Order::Greedy => self.greedy.push(entry),
            Order::Cells => {
                self.cells.entry(cell).or_default().push(entry);
                self.queued += 1;
            }
        }
    }

    /// Bytes held: the greedy heap's, or the cells' entries (twice, for the heaps' spare
    /// room) plus 64 per cell.
    fn bytes(&self) -> usize {
        let entry = std::mem::size_of::<Reverse<(u32, Reverse<u32>)>>();
        self.greedy.capacity() * entry + self.queued * entry * 2 + self.cells.len() * 64
    }

    fn pop(&mut self) -> Option<u32> {
        let Reverse((_, Reverse(id))) = match self.order {
            Order::Greedy => self.greedy.pop()?,
            Order::Cells => {
                let after = self.cursor.map_or(Bound::Unbounded, Bound::Excluded);
                let next = self.cells.range((after, Bound::Unbounded)).next().or_else(|| self.cells.iter().next());
                let cell = *next?.0;
                self.cursor = Some(cell);
                let queue = self.cells.get_mut(&cell)?;
                let entry = queue.pop()?;
                self.queued -= 1;
                if queue.is_empty() {
                    self.cells.remove(&cell);
                }
                entry
            }
        };
        Some(id)
    }
}

/// Pushes from each start square to each square on an empty board (`NONE` where none reach):
/// row `t` is start box `t`'s.
fn start_distances(a: &Analysis, starts: &[u16]) -> Vec<u16> {
    let n = a.squares();
    let mut dist = vec![NONE; starts.len() * n];
    let mut queue = Vec::new();
    for (t, &s) in starts.iter().enumerate() {
        let row = &mut dist[t * n..(t + 1) * n];
        row[s as usize] = 0;
        queue.clear();
        queue.push(s);
        let mut head = 0;
        while head < queue.len() {
            let b = queue[head] as usize;
            head += 1;
            for d in Dir::ALL {
                let behind = a.nb(b, d.opposite());
                let ahead = a.nb(b, d);
                if behind != NONE && ahead != NONE && row[ahead as usize] == NONE {
                    row[ahead as usize] = row[b] + 1;
                    queue.push(ahead);
                }
            }
        }
    }
    dist
}

/// Grows the backward search until it reaches the start position, has expanded `expansions`
/// states, holds more than `max_bytes` (tree and open list), or `stop` says so. Expansions and generated
/// states are added to `stats`. The level must have as many boxes as goals, all on live
/// squares (the caller checks).
pub fn grow(
    level: &Level,
    a: &Analysis,
    order: Order,
    expansions: u64,
    max_bytes: usize,
    stats: &mut Stats,
    stop: &mut impl FnMut() -> bool,
) -> PullTree {
    let n = a.squares();
    let mut tree = PullTree::empty(a);
    let words = tree.stride;
    let mut starts: Vec<u16> = level.boxes().iter().map(|&b| a.index_of(b) as u16).collect();
    starts.sort_unstable();
    let k = starts.len();
    if k == 0 || k != a.goals() || starts.iter().any(|&s| s as usize >= a.live()) {
        return tree;
    }
    let dist = start_distances(a, &starts);
    let cost = |s: usize, t: usize| match dist[t * n + s] {
        NONE => FORBIDDEN,
        d => i64::from(d),
    };
    // The start position's key: the target.
    let mut occupied = vec![0u8; n];
    let mut target = vec![0u64; words];
    for &s in &starts {
        occupied[s as usize] = 1;
        target[s as usize / 64] |= 1 << (s % 64);
    }
    let mut reach = Reach::new(n);
    let target_player = reach.flood(a, &occupied, a.index_of(level.player()));
    occupied.fill(0);

    let mut hungarian = Hungarian::default();
    let mut open = Open::new(order);
    // The roots: every box on a goal, the player in each region of the free floor.
    let mut key = vec![0u64; words];
    let mut boxes: Vec<u16> = (0..a.goals() as u16).collect();
    for &b in &boxes {
        occupied[b as usize] = 1;
        key[b as usize / 64] |= 1 << (b % 64);
    }
    let Some(h) = hungarian.solve(k, k, |r, t| cost(boxes[r] as usize, t)) else {
        return tree;
    };
    let mut seen = vec![false; n];
    for s in 0..n {
        if occupied[s] != 0 || seen[s] {
            continue;
        }
        let player = reach.flood(a, &occupied, s);
        for (q, seen) in seen.iter_mut().enumerate() {
            *seen |= reach.has(q);
        }
        let root = PullNode { parent: ROOT, to: 0, dir: 0, player };
        let hash = hash_key(&key, player);
        let id = tree.insert(&key, root, hash);
        if key == target && player == target_player {
            tree.reached = Some(id);
            return tree;
        }
        open.push(h as u32, (0, 0), id);
    }
    occupied.fill(0);

    let mut child = vec![0u64; words];
    let mut rows: Vec<u16> = Vec::with_capacity(k);
    // A state's pulls: (row, the box's new square, the player's, direction).
    let mut pulls: Vec<(usize, usize, usize, u8)> = Vec::new();
    let mut solved_for = ROOT;
    let mut done = 0u64;
    while let Some(id) = open.pop() {
        if done >= expansions || tree.bytes() + open.bytes() > max_bytes || stop() {
            break;
        }
        done += 1;
        stats.expanded += 1;
        key.copy_from_slice(tree.key(id));
        boxes.clear();
        for (w, &word) in key.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                boxes.push((w * 64 + bits.trailing_zeros() as usize) as u16);
                bits &= bits - 1;
            }
        }
        for &b in &boxes {
            occupied[b as usize] = 1;
        }
        // The matching's duals: re-solved from the parent's in O(boxes²) when the parent was
        // the state expanded last (greedy goes on from it more often than not), else from
        // scratch in O(boxes³). The rows keep the order of the duals they were solved with.
        let node = tree.nodes[id as usize];
        let moved = (node.parent != ROOT && node.parent == solved_for)
            .then(|| {
                let from = a.nb(node.to as usize, Dir::ALL[node.dir as usize].opposite());
                rows.iter().position(|&b| b == from)
            })
            .flatten();
        let matched = match moved {
            Some(row) => {
                rows[row] = node.to;
                hungarian.resolve_row(k, row, |r, t| cost(rows[r] as usize, t))
            }
            None => {
                rows.clone_from(&boxes);
                hungarian.solve(k, k, |r, t| cost(rows[r] as usize, t))
            }
        };
        solved_for = if matched.is_some() { id } else { ROOT };
        if matched.is_some() {
            hungarian.save();
            let player = tree.nodes[id as usize].player as usize;
            reach.flood(a, &occupied, player);
            // The pulls: the player stands next to a box and steps away from it, dragging it.
            pulls.clear();
            // In box order (the rows' order depends on which states were expanded before).
            for &b in &boxes {
                let row = rows.iter().position(|&r| r == b).unwrap_or(0);
                for (di, d) in Dir::ALL.into_iter().enumerate() {
                    let to = a.nb(b as usize, d);
                    if to == NONE || !reach.has(to as usize) {
                        continue;
                    }
                    let step = a.nb(to as usize, d);
                    if step == NONE || occupied[step as usize] != 0 || to as usize >= a.live() {
                        continue;
                    }
                    pulls.push((row, to as usize, step as usize, di as u8));
                }
            }
            for &(row, to, step, di) in &pulls {
                let from = rows[row] as usize;
                let Some(h) =
                    hungarian.resolve_row(k, row, |r, t| cost(if r == row { to } else { rows[r] as usize }, t))
                else {
                    continue;
                };
                occupied[from] = 0;
                occupied[to] = 1;
                // The parent's region marks are no longer needed: the pulls are listed.
                let player = reach.flood(a, &occupied, step);
                occupied[to] = 0;
                occupied[from] = 1;
                child.copy_from_slice(&key);
                child[from / 64] &= !(1 << (from % 64));
                child[to / 64] |= 1 << (to % 64);
                let hash = hash_key(&child, player);
                if tree.find(&child, player, hash).is_some() {
                    stats.duplicates += 1;
                    continue;
                }
                stats.generated += 1;
                let node = PullNode { parent: id, to: to as u16, dir: di, player };
                let kid = tree.insert(&child, node, hash);
                if child == target && player == target_player {
                    tree.reached = Some(kid);
                    return tree;
                }
                let off_goals = boxes.iter().filter(|&&b| b as usize >= a.goals()).count()
                    + usize::from(from < a.goals())
                    - usize::from(to < a.goals());
                let on_starts: u32 = child.iter().zip(&target).map(|(x, y)| (x & y).count_ones()).sum();
                open.push(h as u32, (off_goals as u16, on_starts as u16), kid);
            }
        }
        for &b in &boxes {
            occupied[b as usize] = 0;
        }
    }
    tree
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    /// The solution the backward search finds in `order`, verified.
    fn backwards(text: &str, order: Order) -> Option<String> {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut stats = Stats::default();
        let tree = grow(&level, &a, order, 100_000, usize::MAX, &mut stats, &mut || false);
        let start = tree.reached()?;
        let pushes = tree.pushes_from(&a, start);
        let moves = crate::solver::expand::pushes_to_moves(&level, &pushes).expect("legal pushes");
        let lurd = crate::lurd::encode(&moves);
        assert!(crate::verify::verify(&level, &lurd).is_valid_solution(), "{lurd}");
        Some(lurd)
    }

    /// The solution of both orders, which must agree on whether there is one.
    fn solve_backwards(text: &str) -> Option<String> {
        let greedy = backwards(text, Order::Greedy);
        assert_eq!(greedy.is_some(), backwards(text, Order::Cells).is_some());
        greedy
    }

    #[test]
    fn pulling_the_boxes_off_the_goals_reaches_the_start() {
        // Two boxes in a room; the player must go round to push the second one.
        let lurd = solve_backwards("#######\n#.  # #\n#  $  #\n# #$@ #\n#.    #\n#######\n");
        assert!(lurd.is_some());
        // Microban 1 (David W. Skinner).
        assert!(solve_backwards("####\n# .#\n#  ###\n#*@  #\n#  $ #\n#  ###\n####\n").is_some());
    }

    #[test]
    fn the_start_is_matched_with_the_player_in_its_own_region() {
        // The box is on its goal already, but the player stands on the other side of it: the
        // roots include every region, so one of them is the start itself (no pushes).
        let lurd = solve_backwards("######\n#@*  #\n######\n");
        assert_eq!(lurd.as_deref(), Some(""));
    }

    #[test]
    fn the_memory_bound_holds() {
        // Sasquatch 5 (David W. Skinner) is not solved backwards in a few thousand states.
        let text = include_str!("../../../data/sasquatch.xsb");
        let level = parse_levels(text).unwrap().remove(4);
        let a = Analysis::new(&level);
        for order in [Order::Greedy, Order::Cells] {
            let mut stats = Stats::default();
            let max = 64 * 1024;
            let tree = grow(&level, &a, order, u64::MAX, max, &mut stats, &mut || false);
            assert!(tree.reached().is_none());
            assert!(stats.expanded > 0 && stats.expanded < 100_000, "{stats:?}");
            // Checked before each expansion; a table that doubles can overshoot once.
            assert!(tree.bytes() <= 2 * max + 16 * 1024, "{}", tree.bytes());
        }
    }

    #[test]
    fn an_unsolvable_level_is_never_reached() {
        // The box can only be pushed away from its goal.
        assert!(solve_backwards("######\n#.@$ #\n######\n").is_none());
    }
}
