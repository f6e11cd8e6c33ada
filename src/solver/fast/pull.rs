//! The backward search: pulls from the solved position towards the start.
//!
//! Many levels are hard forwards and easy backwards: the goal area is where boxes jam, and
//! pulling boxes out of it one at a time never jams (a pulled box can always be pushed back).
//! Beside the feature-space search, best-first searches pull boxes off the goals: their roots
//! are the solved box set with the player in each region of the free floor, a move is one pull
//! (the player steps back from a box and drags it along), and states are ranked by the cheapest
//! matching of boxes to the start squares (pushes from each start square on an empty board,
//! the player walking round the box, so a box pulled where no start box could be pushed is
//! never queued), either greedily or within
//! feature cells taken in turn ([`Order`]). The orders are fast on different levels (backward
//! alone on Sasquatch, greedy is the quicker on 37, while 12 and 39 fall only in cells), so
//! the engine runs both, each with a tree of its own. Their states keep
//! the forward search's keys (box bitset over the live squares, lowest square of the player's
//! region), and every state they reach is solved by undoing its pulls, so
//! - reaching the start position solves the level outright, and
//! - a forward state equal to one of their states finishes the search (they meet): each new
//!   forward state is looked up in the backward trees, each new backward state in the forward
//!   table.
//!
//! As in the forward search, a child is queued under a lower bound of its matching worked
//! out in O(boxes) from its parent's duals, and gets the exact matching only when it is picked
//! (going back to the queue if that is higher): the order exact bounds give, at a fraction of
//! the cost, since most children are never picked. A picked state's matching is re-solved from
//! the last one's, one changed box at a time (O(boxes²) each), so a greedy line and its
//! siblings never pay for a matching from scratch.
//!
//! A [`Puller`] is resumable, and [`Backward`] runs both beside the forward search, a slice at
//! a time, so that each takes a tenth of the search's time (a fortieth past the first 10 s of a
//! long limit, which the forward passes need more; or, without a time limit, a fixed
//! number of expansions per forward expansion, which keeps the search deterministic). Run
//! before the forward search instead, they would cost every level the forward search solves
//! quickly their whole share. Each tree is kept whole for the meeting; its size, open
//! list included, is held to a tenth of the memory limit.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::ops::Bound;
use std::time::{Duration, Instant};

use super::keyed::{self, Keyed, hash_key};
use crate::analysis::region::{Flood, relaxed_pushes};
use crate::analysis::{Analysis, Sq, UNREACHABLE};
use crate::level::{Dir, Level};
use crate::solver::cuts::Cuts;
use crate::solver::expand::Push;
use crate::solver::frozen::player_aware_from;
use crate::solver::hungarian::{FORBIDDEN, Hungarian};
use crate::solver::{Config, Stats};

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

impl keyed::Node for PullNode {
    fn player(&self) -> u16 {
        self.player
    }
}

/// The states the backward search reached, by full key, with their pulls back to the solved
/// position.
pub struct PullTree {
    states: Keyed<PullNode>,
}

impl PullTree {
    /// A tree with no states: meets nothing.
    pub fn empty(a: &Analysis) -> PullTree {
        PullTree { states: Keyed::new(a) }
    }

    fn key(&self, node: u32) -> &[u64] {
        self.states.key(node)
    }

    /// The state with box bitset `words` and normalised player `player` (`hash` is
    /// [`hash_key`] of `words`), if the search reached it.
    pub fn find(&self, words: &[u64], player: u16, hash: u32) -> Option<u32> {
        self.states.find(words, player, hash)
    }

    /// See [`Keyed::prefetch`].
    pub fn prefetch(&self, hash: u32) {
        self.states.prefetch(hash);
    }

    fn insert(&mut self, words: &[u64], node: PullNode, hash: u32) -> u32 {
        self.states.insert(words, node, hash)
    }

    /// States stored.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.states.bytes()
    }

    /// The pushes that take state `id` to the solved position: its pulls undone, last first.
    pub fn pushes_from(&self, a: &Analysis, id: u32) -> Vec<Push> {
        let mut pushes = Vec::new();
        let mut at = id;
        while at != ROOT {
            let node = self.states.nodes[at as usize];
            if node.parent == ROOT {
                break;
            }
            let dir = Dir::ALL[node.dir as usize].opposite();
            pushes.push(Push { from: a.square(Sq::new(node.to as usize)), dir });
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
    /// The cell visited last, and the one before it.
    cursor: Option<PullCell>,
    before: Option<PullCell>,
    /// Entries in the cells' heaps.
    queued: usize,
}

impl Open {
    fn new(order: Order) -> Open {
        Open { order, greedy: Queue::new(), cells: BTreeMap::new(), cursor: None, before: None, queued: 0 }
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

    /// The next state: (its key, its cell, its id).
    fn pop(&mut self) -> Option<(u32, PullCell, u32)> {
        let (Reverse((h, Reverse(id))), cell) = match self.order {
            Order::Greedy => (self.greedy.pop()?, (0, 0)),
            Order::Cells => {
                let after = self.cursor.map_or(Bound::Unbounded, Bound::Excluded);
                let next = self.cells.range((after, Bound::Unbounded)).next().or_else(|| self.cells.iter().next());
                let cell = *next?.0;
                self.before = self.cursor;
                self.cursor = Some(cell);
                let queue = self.cells.get_mut(&cell)?;
                let entry = queue.pop()?;
                self.queued -= 1;
                if queue.is_empty() {
                    self.cells.remove(&cell);
                }
                (entry, cell)
            }
        };
        Some((h, cell, id))
    }

    /// Takes back the turn of the last pop's cell: its state was dropped or put back.
    fn undo_turn(&mut self) {
        self.cursor = self.before;
    }
}

/// Pushes from each start square to each square on an empty board ([`UNREACHABLE`] where none
/// reach): row `t` is start box `t`'s. With `aware` the player walks round the box
/// ([`player_aware_from`]), else the pushes are relaxed (the square behind the box only has to be
/// floor).
pub(super) fn start_distances(a: &Analysis, starts: &[u16], aware: bool) -> Vec<u16> {
    if aware {
        let squares: Vec<Sq> = starts.iter().map(|&s| Sq::new(s as usize)).collect();
        return player_aware_from(a, &squares);
    }
    let n = a.squares();
    let mut dist = vec![UNREACHABLE; starts.len() * n];
    let mut queue = Vec::new();
    for (t, &s) in starts.iter().enumerate() {
        let row = &mut dist[t * n..(t + 1) * n];
        row[s as usize] = 0;
        queue.clear();
        queue.push(Sq::new(s as usize));
        relaxed_pushes(
            a,
            &mut queue,
            |_, _| true,
            |b, ahead, _| {
                let fresh = row[ahead] == UNREACHABLE;
                if fresh {
                    row[ahead] = row[b] + 1;
                }
                fresh
            },
        );
    }
    dist
}

/// What a step of the backward search found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Its state `id` is the start position: undoing its pulls solves the level.
    Start(u32),
    /// Its new state `id` is the forward search's state `node`: the forward line to `node`,
    /// then the undone pulls, solve the level.
    Forward { id: u32, node: u32 },
}

/// One backward search in one [`Order`], resumable: [`Puller::step`] grows it a number of
/// expansions at a time, so that it can run beside the forward search.
pub struct Puller {
    tree: PullTree,
    open: Open,
    /// Boxes (and goals).
    k: usize,
    /// [`start_distances`] of the sorted start squares: row `t` of the matching is start box `t`.
    dist: Vec<u16>,
    /// The start position's key and normalised player square.
    target: Vec<u64>,
    target_player: u16,
    /// A root that is the start position.
    at_root: Option<u32>,
    /// Whether the search can grow no more (its open list ran dry or its memory share is full).
    finished: bool,
    expanded: u64,
    /// The expanded state nearest the start by its exact matching (ties to the first), roots
    /// aside, among those whose player reaches every free square: the backward line's
    /// farthest reach that a forward line joins wherever it leaves the player, as (matching,
    /// state); `best_any` the same among all.
    best: Option<(i64, u32)>,
    best_any: Option<(i64, u32)>,
    /// The roots' matching: the start's distance from the goals as the searches see it.
    root_h: i64,
    // Scratch, reused by every expansion.
    occupied: Vec<u8>,
    reach: Flood,
    /// The articulation points of the expanded state's region, for the children's regions.
    cuts: Cuts,
    hungarian: Hungarian,
    key: Vec<u64>,
    child: Vec<u64>,
    boxes: Vec<u16>,
    /// The boxes in the order of the matching's rows, as last solved.
    rows: Vec<u16>,
    /// An expansion's pulls: (row, the box's new square, the player's, direction, the
    /// child's hash).
    pulls: Vec<(usize, usize, usize, u8, u32)>,
    /// Whether `hungarian` holds a saved matching of the boxes in `rows`.
    saved: bool,
    /// Scratch for [`Puller::match_rows`]: marks per square, the rows whose box left, the
    /// boxes that came.
    mark: Vec<bool>,
    gone: Vec<usize>,
    came: Vec<u16>,
}

impl Puller {
    /// The backward search of `level` in `order`, its roots queued: every box on a goal, the
    /// player in each region of the free floor. A level without as many boxes as goals, all
    /// on live squares, gets a search that is finished at once and meets nothing. With
    /// `aware`, the distances from the start squares follow the player
    /// ([`player_aware_from`]), else they are the relaxed ones.
    pub fn new(level: &Level, a: &Analysis, order: Order, aware: bool) -> Puller {
        let n = a.squares();
        let tree = PullTree::empty(a);
        let words = keyed::words(a);
        let mut starts: Vec<u16> = level.boxes().iter().map(|&b| a.sq(b).index() as u16).collect();
        starts.sort_unstable();
        let k = starts.len();
        let mut puller = Puller {
            tree,
            open: Open::new(order),
            k,
            dist: Vec::new(),
            target: vec![0; words],
            target_player: 0,
            at_root: None,
            finished: true,
            expanded: 0,
            best: None,
            best_any: None,
            root_h: 0,
            occupied: vec![0; n],
            reach: Flood::new(n),
            cuts: Cuts::new(n),
            hungarian: Hungarian::default(),
            key: vec![0; words],
            child: vec![0; words],
            boxes: Vec::with_capacity(k),
            rows: Vec::with_capacity(k),
            pulls: Vec::new(),
            saved: false,
            mark: vec![false; n],
            gone: Vec::new(),
            came: Vec::new(),
        };
        if k == 0 || k != a.goals() || starts.iter().any(|&s| s as usize >= a.live()) {
            return puller;
        }
        let p = &mut puller;
        p.dist = start_distances(a, &starts, aware);
        for &s in &starts {
            p.occupied[s as usize] = 1;
            p.target[s as usize / 64] |= 1 << (s % 64);
        }
        p.target_player = p.reach.player(a, &p.occupied, Sq::new(a.sq(level.player()).index())).index() as u16;
        p.occupied.fill(0);
        p.boxes.extend(0..a.goals() as u16);
        for &b in &p.boxes {
            p.occupied[b as usize] = 1;
            p.key[b as usize / 64] |= 1 << (b % 64);
        }
        let (dist, boxes) = (&p.dist, &p.boxes);
        let Some(h) = p.hungarian.solve(k, k, |r, t| cost(dist, n, boxes[r] as usize, t)) else {
            return puller;
        };
        p.finished = false;
        p.root_h = h;
        let mut seen = vec![false; n];
        for s in 0..n {
            if p.occupied[s] != 0 || seen[s] {
                continue;
            }
            let player = p.reach.player(a, &p.occupied, Sq::new(s)).index() as u16;
            for (q, seen) in seen.iter_mut().enumerate() {
                *seen |= p.reach.contains(Sq::new(q));
            }
            let root = PullNode { parent: ROOT, to: 0, dir: 0, player };
            let id = p.tree.insert(&p.key, root, hash_key(&p.key));
            if p.key == p.target && player == p.target_player {
                p.at_root = Some(id);
            }
            p.open.push(h as u32, (0, 0), id);
        }
        p.occupied.fill(0);
        puller
    }

    /// The states reached.
    pub fn tree(&self) -> &PullTree {
        &self.tree
    }

    /// States expanded so far.
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// Whether the search can grow no more.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Bytes held: the tree and the open list.
    pub fn bytes(&self) -> usize {
        self.tree.bytes() + self.open.bytes()
    }

    /// Expands up to `expansions` states, until it finds the start position or a state of the
    /// forward search (`forward` looks a key up in its table: box bitset, normalised player
    /// square and [`hash_key`]), `stop` says so, or it is finished: its open list is empty or
    /// it holds more than `max_bytes`. Expansions and generated states are added to `stats`.
    pub fn step(
        &mut self,
        a: &Analysis,
        expansions: u64,
        max_bytes: usize,
        stats: &mut Stats,
        stop: &mut impl FnMut() -> bool,
        forward: impl Fn(&[u64], u16, u32) -> Option<u32>,
    ) -> Option<Found> {
        if let Some(id) = self.at_root {
            return Some(Found::Start(id));
        }
        let (n, k) = (a.squares(), self.k);
        let mut done = 0;
        while done < expansions {
            if self.finished || stop() {
                break;
            }
            if self.bytes() > max_bytes {
                self.finished = true;
                break;
            }
            let Some((h, cell, id)) = self.open.pop() else {
                self.finished = true;
                break;
            };
            let p = &mut *self;
            p.key.copy_from_slice(p.tree.key(id));
            keyed::boxes_of(&p.key, &mut p.boxes);
            for &b in &p.boxes {
                p.occupied[b as usize] = 1;
            }
            // States are queued under a lower bound of their matching (see `expand`): a state
            // whose exact matching is higher goes back under it, one without any is dropped,
            // and neither uses up its cell's turn. States leave in the order exact bounds give.
            let exact = p.match_rows(k, n);
            if exact.is_none_or(|e| e > i64::from(h)) {
                for &b in &p.boxes {
                    p.occupied[b as usize] = 0;
                }
                if let Some(e) = exact {
                    p.open.push(e as u32, cell, id);
                }
                p.open.undo_turn();
                continue;
            }
            done += 1;
            p.expanded += 1;
            if let Some(e) = exact
                && p.tree.states.nodes[id as usize].parent != ROOT
            {
                if p.best_any.is_none_or(|(b, _)| e < b) {
                    p.best_any = Some((e, id));
                }
                if p.best.is_none_or(|(b, _)| e < b) && p.one_region(a, id) {
                    p.best = Some((e, id));
                }
            }
            stats.expanded += 1;
            let found = p.expand(a, id, n, k, stats, &forward);
            for &b in &p.boxes {
                p.occupied[b as usize] = 0;
            }
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// Whether the player of state `id` (loaded: its boxes marked in `occupied`) reaches every
    /// free square.
    fn one_region(&mut self, a: &Analysis, id: u32) -> bool {
        self.reach.player(a, &self.occupied, Sq::new(usize::from(self.tree.states.nodes[id as usize].player)));
        (0..a.squares()).all(|s| self.occupied[s] != 0 || self.reach.contains(Sq::new(s)))
    }

    /// The matching of the loaded state (`boxes`, marked in `occupied`) to the start squares,
    /// saved in `hungarian` with its boxes in `rows`, or `None` when there is none (then
    /// nothing is saved). Re-solved from the saved matching (`saved`) one changed row at a
    /// time when fewer than half the boxes moved, else from scratch: the same optimum either
    /// way, so the search does not depend on which.
    fn match_rows(&mut self, k: usize, n: usize) -> Option<i64> {
        let dist = &self.dist;
        let cost = |s: usize, t: usize| cost(dist, n, s, t);
        if self.saved {
            self.gone.clear();
            self.gone.extend((0..k).filter(|&r| self.occupied[self.rows[r] as usize] == 0));
            if self.gone.len() * 2 < k {
                for &b in &self.rows {
                    self.mark[b as usize] = true;
                }
                self.came.clear();
                self.came.extend(self.boxes.iter().copied().filter(|&b| !self.mark[b as usize]));
                for &b in &self.rows {
                    self.mark[b as usize] = false;
                }
                let mut value = self.hungarian.saved_value();
                for (&row, &b) in self.gone.iter().zip(&self.came) {
                    self.rows[row] = b;
                    let rows = &self.rows;
                    value = self.hungarian.resolve_row(k, row, |r, t| cost(rows[r] as usize, t));
                    if value.is_none() {
                        break;
                    }
                    self.hungarian.save();
                }
                if value.is_some() {
                    return value;
                }
            }
        }
        self.rows.clone_from(&self.boxes);
        let rows = &self.rows;
        let value = self.hungarian.solve(k, k, |r, t| cost(rows[r] as usize, t));
        self.saved = value.is_some();
        if self.saved {
            self.hungarian.save();
        }
        value
    }

    /// Expands state `id` (loaded into `key`, `boxes` and `occupied`).
    fn expand(
        &mut self,
        a: &Analysis,
        id: u32,
        n: usize,
        k: usize,
        stats: &mut Stats,
        forward: &impl Fn(&[u64], u16, u32) -> Option<u32>,
    ) -> Option<Found> {
        // `hungarian` holds the state's matching (see `step`), with its boxes in `rows`.
        let node = self.tree.states.nodes[id as usize];
        let dist = &self.dist;
        let cost = |s: usize, t: usize| cost(dist, n, s, t);
        // The depth-first search of the player's region lists the pulls (a box next to a
        // square it reached) and gives the children's regions.
        let generation = self.cuts.run_next(a, &self.occupied, node.player as usize);
        // The pulls: the player stands next to a box and steps away from it, dragging it.
        // In box order (the rows' order depends on which states were expanded before).
        self.pulls.clear();
        for &b in &self.boxes {
            let row = self.rows.iter().position(|&r| r == b).unwrap_or(0);
            for (di, d) in Dir::ALL.into_iter().enumerate() {
                let Some(to) = a.neighbor(Sq::new(usize::from(b)), d) else { continue };
                if !self.cuts.reached(to.index(), generation) {
                    continue;
                }
                let Some(step) = a.neighbor(to, d) else { continue };
                if self.occupied[step] != 0 || !a.is_live(to) {
                    continue;
                }
                keyed::moved(&self.key, usize::from(b), to.index(), &mut self.child);
                let hash = hash_key(&self.child);
                // Loaded while the pulls before it are worked out (see keyed.rs).
                self.tree.prefetch(hash);
                self.pulls.push((row, to.index(), step.index(), di as u8, hash));
            }
        }
        let off_goals = self.boxes.iter().filter(|&&b| b as usize >= a.goals()).count();
        for &(row, to, step, di, hash) in &self.pulls {
            let rows = &self.rows;
            let from = rows[row] as usize;
            // A lower bound of the child's matching in O(boxes) from this state's duals; made
            // exact if the child is ever picked. Most children never are.
            let bound = self.hungarian.row_bound(k, row, |r, t| cost(if r == row { to } else { rows[r] as usize }, t));
            let Some(h) = bound.filter(|&h| h < FORBIDDEN) else {
                continue;
            };
            // The child's region: the part of this region round `step` once the box stands on
            // `to`, joined by `from` (and the parts it touches) when `from` touches it.
            self.occupied[from] = 0;
            self.occupied[to] = 1;
            let (part, lowest) = self.cuts.part(a, to, step);
            let opened = self.cuts.opened(a, &self.occupied, from, to);
            let player = match (opened.keys.contains(&part), opened.whole) {
                (false, _) => lowest,
                (true, true) => opened.low,
                // Another region joins through `from`: its squares are not in the cuts.
                (true, false) => self.reach.player(a, &self.occupied, Sq::new(step)).index() as u16,
            };
            debug_assert_eq!(player, Flood::new(n).player(a, &self.occupied, Sq::new(step)).index() as u16);
            self.occupied[to] = 0;
            self.occupied[from] = 1;
            let child = &mut self.child;
            keyed::moved(&self.key, from, to, child);
            if self.tree.find(child, player, hash).is_some() {
                stats.duplicates += 1;
                continue;
            }
            stats.generated += 1;
            let node = PullNode { parent: id, to: to as u16, dir: di, player };
            let kid = self.tree.insert(child, node, hash);
            if *child == self.target && player == self.target_player {
                return Some(Found::Start(kid));
            }
            if let Some(node) = forward(child, player, hash) {
                return Some(Found::Forward { id: kid, node });
            }
            let off_goals = off_goals + usize::from(from < a.goals()) - usize::from(to < a.goals());
            let on_starts: u32 = child.iter().zip(&self.target).map(|(x, y)| (x & y).count_ones()).sum();
            self.open.push(h.clamp(0, i64::from(u32::MAX)) as u32, (off_goals as u16, on_starts as u16), kid);
        }
        None
    }
}

/// The matching cost of a box on square `s` for start box `t` over [`start_distances`] `dist`
/// of a level with `n` squares.
fn cost(dist: &[u16], n: usize, s: usize, t: usize) -> i64 {
    match dist[t * n + s] {
        UNREACHABLE => FORBIDDEN,
        d => i64::from(d),
    }
}

/// The backward searches, one per [`Order`], run beside the forward search at a share of its
/// pace, so a level the forward search solves quickly pays little for them:
/// - under a time limit (and no node limit), each runs in slices of [`SLICE`] expansions
///   whenever its time is under a tenth ([`SHARE`]) of the time since they started, counting
///   only a fortieth ([`LATE_SHARE`]) of the time past the first 10 s of a long limit;
/// - otherwise each runs [`PACE`] expansions per forward expansion, up to a tenth of the node
///   limit, so the search is deterministic for a given node limit.
///
/// Either way each holds at most a tenth of the memory limit.
pub struct Backward {
    pullers: Vec<Puller>,
    /// Each search's time so far, when paced by the clock.
    clock: Option<(Instant, Vec<Duration>)>,
    /// Forward expansions so far.
    forward: u64,
    /// Expansions per search.
    max_expansions: u64,
    /// Bytes per search.
    max_bytes: usize,
    stats: Stats,
}

/// Each backward search's share of the limits, as a divisor: the forward passes solve the
/// hardest levels they solve late, and would lose them to a larger share.
const SHARE: u32 = 10;
/// Each backward search's share of a long limit's time past its first round
/// ([`super::FIRST_ROUND`]), as a divisor: under long limits the forward passes solve the
/// late levels, and need the time more.
const LATE_SHARE: u32 = 40;

/// Each search's time allowed once `elapsed` has passed since they started: a [`SHARE`] of
/// the first round, a [`LATE_SHARE`] of the rest.
fn allowed(elapsed: Duration) -> Duration {
    let first = elapsed.min(super::FIRST_ROUND);
    first / SHARE + (elapsed - first) / LATE_SHARE
}

/// The backward state a forward search may aim at (see [`Backward::best`]) is at most a
/// `NEAR`th of the goals' distance from the start. Farther, the midpoint's forward part is
/// about as hard as the level itself, and the share of the limits it takes from the second
/// pass is worth more there.
const NEAR: i64 = 3;

/// Expansions per slice when paced by the clock (a millisecond or so).
const SLICE: u64 = 128;
/// Expansions of each backward search per forward expansion when paced by nodes (a backward
/// expansion costs a tenth to a twentieth of a forward one).
const PACE: u64 = 2;

impl Backward {
    /// No backward search: meets nothing.
    pub fn none() -> Backward {
        Backward {
            pullers: Vec::new(),
            clock: None,
            forward: 0,
            max_expansions: 0,
            max_bytes: 0,
            stats: Stats::default(),
        }
    }

    /// The backward searches of `level` (both orders), paced and limited by `config`.
    pub fn new(level: &Level, a: &Analysis, config: &Config) -> Backward {
        let share = u64::from(SHARE);
        Backward {
            pullers: [Order::Greedy, Order::Cells].map(|order| Puller::new(level, a, order, config.fast.aware)).into(),
            clock: (config.time_limit.is_some() && config.node_limit.is_none())
                .then(|| (Instant::now(), vec![Duration::ZERO; 2])),
            forward: 0,
            max_expansions: config.node_limit.map_or(u64::MAX, |n| n / share),
            max_bytes: config.memory_limit.map_or(usize::MAX, |m| m / SHARE as usize),
            stats: Stats::default(),
        }
    }

    /// The expansions the searches may take out of the node limit.
    pub fn reserved(&self) -> u64 {
        if self.max_expansions == u64::MAX { 0 } else { self.max_expansions * self.pullers.len() as u64 }
    }

    /// Called once per forward expansion: grows the searches that are behind their pace.
    /// `forward` looks a state up in the forward search's table (see [`Puller::step`]).
    /// Returns the search that found a solution and what it found.
    pub fn advance(
        &mut self,
        a: &Analysis,
        stop: &mut impl FnMut() -> bool,
        forward: impl Fn(&[u64], u16, u32) -> Option<u32>,
    ) -> Option<(usize, Found)> {
        self.forward += 1;
        for (i, puller) in self.pullers.iter_mut().enumerate() {
            let left = self.max_expansions.saturating_sub(puller.expanded());
            let budget = match &mut self.clock {
                Some((started, spent)) => {
                    if spent[i] >= allowed(started.elapsed()) {
                        continue;
                    }
                    SLICE
                }
                None => (self.forward * PACE).saturating_sub(puller.expanded()),
            };
            if puller.finished() || left == 0 || budget == 0 {
                continue;
            }
            let began = Instant::now();
            let found = puller.step(a, budget.min(left), self.max_bytes, &mut self.stats, stop, &forward);
            if let Some((_, spent)) = &mut self.clock {
                spent[i] += began.elapsed();
            }
            if found.is_some() {
                return found.map(|f| (i, f));
            }
        }
        None
    }

    /// Loads the slots where the searches keep states with hash `hash`, for a [`Self::find`]
    /// soon after.
    pub fn prefetch(&self, hash: u32) {
        for p in &self.pullers {
            p.tree().prefetch(hash);
        }
    }

    /// A state one of the searches reached: (search, state).
    pub fn find(&self, words: &[u64], player: u16, hash: u32) -> Option<(usize, u32)> {
        self.pullers.iter().enumerate().find_map(|(i, p)| Some((i, p.tree().find(words, player, hash)?)))
    }

    /// The pushes that take state `id` of search `i` to the solved position.
    pub fn pushes_from(&self, a: &Analysis, i: usize, id: u32) -> Vec<Push> {
        self.pullers[i].tree().pushes_from(a, id)
    }

    /// The backward state to aim at (see [`Puller::best`]): the nearest to the start by its
    /// matching, of either search, among those where the player reaches all the free floor,
    /// or among all when there is none such, as (search, matching, state). Only a state at
    /// most a [`NEAR`]th as far from the start as the goals are (by the matchings) counts:
    /// the backward search did most of the work, and the forward part left is short.
    pub fn best(&self) -> Option<(usize, i64, u32)> {
        let pick = |f: fn(&Puller) -> Option<(i64, u32)>| {
            let near = |p: &Puller, (h, id): (i64, u32)| (NEAR * h <= p.root_h).then_some((h, id));
            let all = self
                .pullers
                .iter()
                .enumerate()
                .filter_map(|(i, p)| f(p).and_then(|b| near(p, b)).map(|(h, id)| (i, h, id)));
            all.min_by_key(|&(i, h, _)| (h, i))
        };
        pick(|p| p.best).or_else(|| pick(|p| p.best_any))
    }

    /// Stops the searches until [`Backward::resume`] (their trees stay, for meetings), which
    /// takes what this returns.
    pub fn pause(&mut self) -> u64 {
        std::mem::replace(&mut self.max_expansions, 0)
    }

    /// Lets the searches grow again after [`Backward::pause`], which gave `paused`.
    pub fn resume(&mut self, paused: u64) {
        self.max_expansions = paused;
    }

    /// The boxes of state `id` of search `i`, as sorted squares, and its normalised player.
    pub fn state(&self, i: usize, id: u32, boxes: &mut Vec<u16>) -> u16 {
        let tree = &self.pullers[i].tree;
        keyed::boxes_of(tree.key(id), boxes);
        tree.states.nodes[id as usize].player
    }

    /// What the searches did so far.
    pub fn stats(&self) -> Stats {
        Stats { stored_states: self.pullers.iter().map(|p| p.tree().len() as u64).sum(), ..self.stats.clone() }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.pullers.iter().map(Puller::bytes).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    /// A tenth of the first 10 s, a fortieth of the rest.
    #[test]
    fn the_share_shrinks_past_the_first_round() {
        assert_eq!(allowed(Duration::from_secs(5)), Duration::from_millis(500));
        assert_eq!(allowed(Duration::from_secs(10)), Duration::from_secs(1));
        assert_eq!(allowed(Duration::from_secs(50)), Duration::from_secs(2));
    }

    #[test]
    fn paused_searches_grow_again_once_resumed() {
        let level = parse_levels("#######\n#.  # #\n#  $  #\n# #$@ #\n#.    #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let config = Config { node_limit: Some(10_000), ..Config::default() };
        let mut backward = Backward::new(&level, &a, &config);
        let advance = |backward: &mut Backward| {
            for _ in 0..10 {
                let _ = backward.advance(&a, &mut || false, |_, _, _| None);
            }
            backward.stats().expanded
        };
        let paused = backward.pause();
        assert_eq!(advance(&mut backward), 0, "paused");
        backward.resume(paused);
        assert!(advance(&mut backward) > 0, "resumed");
    }

    /// The solution the backward search finds in `order`, verified.
    fn backwards(text: &str, order: Order) -> Option<String> {
        let level = parse_levels(text).unwrap().remove(0);
        let a = Analysis::new(&level);
        let mut puller = Puller::new(&level, &a, order, true);
        let found = puller.step(&a, 100_000, usize::MAX, &mut Stats::default(), &mut || false, |_, _, _| None);
        let Some(Found::Start(start)) = found else {
            assert!(puller.finished(), "{found:?}");
            return None;
        };
        let pushes = puller.tree().pushes_from(&a, start);
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
            let mut puller = Puller::new(&level, &a, order, true);
            let found = puller.step(&a, u64::MAX, max, &mut stats, &mut || false, |_, _, _| None);
            assert_eq!(found, None);
            assert!(puller.finished());
            assert!(stats.expanded > 0 && stats.expanded < 100_000, "{stats:?}");
            // Checked before each expansion; a table that doubles can overshoot once.
            assert!(puller.bytes() <= 2 * max + 16 * 1024, "{}", puller.bytes());
        }
    }

    #[test]
    fn the_warm_matching_equals_a_fresh_one() {
        // States of a grown tree, in the order they were made (consecutive ones differ by a
        // box or a few), then in an order that jumps around it (most differ by many): the
        // matching re-solved from the last one's duals, or from scratch, equals a fresh solve
        // every time, including when there is none.
        let text = include_str!("../../../data/sasquatch.xsb");
        let level = parse_levels(text).unwrap().remove(4);
        let a = Analysis::new(&level);
        let mut p = Puller::new(&level, &a, Order::Greedy, true);
        p.step(&a, 2_000, usize::MAX, &mut Stats::default(), &mut || false, |_, _, _| None);
        let (n, k) = (a.squares(), p.k);
        let states = p.tree().len();
        assert!(states > 1_000);
        let mut fresh = Hungarian::default();
        for id in (0..300).chain((0..300).map(|i| i * 7919 % states)) {
            let id = id as u32;
            let key = p.tree.key(id).to_vec();
            keyed::boxes_of(&key, &mut p.boxes);
            for &b in &p.boxes {
                p.occupied[b as usize] = 1;
            }
            let warm = p.match_rows(k, n);
            let expected = fresh.solve(k, k, |r, t| cost(&p.dist, n, p.boxes[r] as usize, t));
            assert_eq!(warm, expected, "state {id}");
            for &b in &p.boxes {
                p.occupied[b as usize] = 0;
            }
        }
    }

    #[test]
    fn an_unsolvable_level_is_never_reached() {
        // The box can only be pushed away from its goal.
        assert!(solve_backwards("######\n#.@$ #\n######\n").is_none());
    }
}
