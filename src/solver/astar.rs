//! A* over pushes, shared by the pushes, moves and cost modes.
//!
//! Storage follows varisat's arena style: every state is a `u32` handle into `nodes` (parent,
//! cost, player, the push that made it) and into `keys` (the box bitsets, `stride` words per
//! state). The closed table holds `(handle, hash)` pairs; lookups compare the full key in the
//! arena, so two states are never merged on a hash collision. The open list is a binary heap on
//! (f ascending, g descending), with stale entries skipped when popped.
//!
//! The matching bound reads its push distances from the table of the state's boxes frozen on
//! goals ([`FrozenTables`]); the table id lives in the node, and a child changes it only when
//! the push freezes its box on a goal.
//!
//! Expansion keeps mutable scratch (the occupancy array, the player BFS with a generation stamp,
//! the Hungarian buffers) in [`Scratch`], reused across states.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::atomic;
use std::time::Instant;

use hashbrown::HashTable;

use super::corral::Corrals;
use super::expand::{Push, pushes_to_moves};
use super::frozen::FrozenTables;
use super::hungarian::{FORBIDDEN, Hungarian};
use super::{Config, Heuristic, Mode, Optimality, Solution, SolveError, Stats, cost_of, deadlock};
use crate::analysis::{Analysis, NONE};
use crate::level::{Dir, Level, SolvedRule};

/// Moves-mode costs are `moves << MOVE_SHIFT | pushes`, so one number orders (moves, pushes).
const MOVE_SHIFT: u32 = 24;

#[derive(Debug, Clone, Copy)]
struct Node {
    g: u64,
    h: u64,
    parent: u32,
    player: u16,
    /// Solver index the pushed box came from (`NONE` for the root).
    from: u16,
    dir: u8,
    expanded: bool,
    /// The distance table of this state's frozen goal boxes (see [`FrozenTables`]).
    table: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    f: u64,
    g: u64,
    node: u32,
}

impl Ord for Entry {
    /// The max-heap pops the smallest f, then the largest g.
    fn cmp(&self, other: &Entry) -> Ordering {
        other.f.cmp(&self.f).then(self.g.cmp(&other.g)).then(other.node.cmp(&self.node))
    }
}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Entry) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Reusable per-search scratch.
struct Scratch {
    /// Box class + 1 on each solver square, 0 when empty.
    occupied: Vec<u8>,
    stamp: Vec<u32>,
    generation: u32,
    dist: Vec<u32>,
    queue: Vec<u16>,
    child_stamp: Vec<u32>,
    child_generation: u32,
    child_queue: Vec<u16>,
    path: Vec<u16>,
    hungarian: Hungarian,
    corrals: Corrals,
    /// The barrier boxes of the PI-corral found for the state being expanded.
    only: Vec<u16>,
}

impl Scratch {
    /// Marks the player's region from `start`; with `distances`, also walking distances.
    /// Returns the lowest square index of the region.
    fn reach(&mut self, a: &Analysis, start: usize, distances: bool) -> usize {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        self.queue.clear();
        self.queue.push(start as u16);
        self.stamp[start] = generation;
        self.dist[start] = 0;
        let mut lowest = start;
        let mut head = 0;
        while head < self.queue.len() {
            let s = self.queue[head] as usize;
            head += 1;
            for d in Dir::ALL {
                let t = a.neighbor(s, d);
                if t == NONE {
                    continue;
                }
                let t = t as usize;
                if self.stamp[t] != generation && self.occupied[t] == 0 {
                    self.stamp[t] = generation;
                    if distances {
                        self.dist[t] = self.dist[s] + 1;
                    }
                    lowest = lowest.min(t);
                    self.queue.push(t as u16);
                }
            }
        }
        lowest
    }

    /// The lowest square index reachable from `start`, with its own marks so the parent's
    /// region from [`Scratch::reach`] stays intact.
    fn lowest_reachable(&mut self, a: &Analysis, start: usize) -> usize {
        self.child_generation = self.child_generation.wrapping_add(1);
        if self.child_generation == 0 {
            self.child_stamp.fill(0);
            self.child_generation = 1;
        }
        let generation = self.child_generation;
        self.child_queue.clear();
        self.child_queue.push(start as u16);
        self.child_stamp[start] = generation;
        let mut lowest = start;
        let mut head = 0;
        while head < self.child_queue.len() {
            let s = self.child_queue[head] as usize;
            head += 1;
            for d in Dir::ALL {
                let t = a.neighbor(s, d);
                if t != NONE && self.child_stamp[t as usize] != generation && self.occupied[t as usize] == 0 {
                    self.child_stamp[t as usize] = generation;
                    lowest = lowest.min(t as usize);
                    self.child_queue.push(t);
                }
            }
        }
        lowest
    }

    fn reached(&self, s: usize) -> bool {
        self.stamp[s] == self.generation
    }
}

/// Search-wide constants derived from the level and the config.
struct Setup {
    mode: Mode,
    heuristic: Heuristic,
    normalize: bool,
    prune: bool,
    /// Words per state key: one bitset over the live squares per weight class.
    stride: usize,
    /// Weight of each class.
    class_weight: Vec<u32>,
    cover_goals: bool,
    /// Restrict expansions to PI-corral barriers (pushes mode with deadlock pruning).
    corrals: bool,
    /// Every goal must end covered, so a corral holding a goal must be entered.
    fill_goals: bool,
    /// Switch to distance tables with boxes frozen on goals as walls.
    frozen_goals: bool,
}

impl Setup {
    fn edge_cost(&self, walk: u32, class: usize) -> u64 {
        match self.mode {
            Mode::Pushes => 1,
            Mode::Moves => (u64::from(walk) + 1) << MOVE_SHIFT | 1,
            _ => u64::from(walk) + 1 + u64::from(self.class_weight[class]),
        }
    }
}

struct Search<'a> {
    a: &'a Analysis,
    s: Setup,
    nodes: Vec<Node>,
    keys: Vec<u64>,
    table: HashTable<(u32, u32)>,
    open: BinaryHeap<Entry>,
    tables: FrozenTables,
    stats: Stats,
    memory_limit: usize,
}

fn hash_key(words: &[u64], player: u16) -> u32 {
    let mut h: u64 = u64::from(player).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for &w in words {
        h = (h.rotate_left(26) ^ w).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    (h >> 32) as u32
}

fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Search<'_> {
    fn key(&self, node: u32) -> &[u64] {
        let i = node as usize * self.s.stride;
        &self.keys[i..i + self.s.stride]
    }

    fn bytes(&self) -> usize {
        self.keys.capacity() * 8
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.table.capacity() * 9
            + self.open.capacity() * std::mem::size_of::<Entry>()
            + self.tables.bytes()
    }

    /// Whether one more state fits: if a structure is full, its growth (old and new buffers
    /// live at once) must stay within the limit.
    fn fits(&self) -> bool {
        let growth = |len: usize, cap: usize, unit: usize| if len == cap { cap.max(4) * 2 * unit } else { 0 };
        let extra = growth(self.keys.len(), self.keys.capacity(), 8).max(growth(
            self.nodes.len(),
            self.nodes.capacity(),
            std::mem::size_of::<Node>(),
        ));
        let table_growth =
            if self.table.len() * 8 >= self.table.capacity() * 7 { self.table.capacity().max(4) * 2 * 9 } else { 0 };
        let heap_growth = growth(self.open.len(), self.open.capacity(), std::mem::size_of::<Entry>());
        self.bytes() + extra.max(table_growth).max(heap_growth) <= self.memory_limit
    }

    fn find(&self, words: &[u64], player: u16, hash: u32) -> Option<u32> {
        self.table
            .find(spread(hash), |&(n, h)| h == hash && self.nodes[n as usize].player == player && self.key(n) == words)
            .map(|&(n, _)| n)
    }

    fn insert(&mut self, words: &[u64], node: Node, hash: u32) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(node);
        self.keys.extend_from_slice(words);
        self.table.insert_unique(spread(hash), (id, hash), |&(_, h)| spread(h));
        self.open.push(Entry { f: node.g + node.h, g: node.g, node: id });
        id
    }

    fn finish_stats(&mut self, started: Instant) -> Stats {
        let mut st = self.stats.clone();
        st.stored_states = self.nodes.len() as u64;
        st.frozen_tables = self.tables.count() as u64 - 1;
        st.peak_bytes = st.peak_bytes.max(self.bytes() as u64);
        st.bytes_per_state = if self.nodes.is_empty() { 0.0 } else { self.bytes() as f64 / self.nodes.len() as f64 };
        st.seconds = started.elapsed().as_secs_f64();
        st
    }
}

impl Setup {
    /// Pushes scaled to the mode's cost units.
    fn scale(&self, pushes: u64) -> u64 {
        if self.mode == Mode::Moves { pushes << MOVE_SHIFT | pushes } else { pushes }
    }

    /// What one push of a box of `class` costs at least.
    fn push_weight(&self, class: u8) -> i64 {
        if self.mode == Mode::Cost { 1 + i64::from(self.class_weight[class as usize]) } else { 1 }
    }

    /// Whether child bounds can be re-solved from the parent's matching (one row changes): the
    /// matching bound on a square problem.
    fn incremental(&self, a: &Analysis, boxes: usize) -> bool {
        self.heuristic == Heuristic::Hungarian && !self.cover_goals && boxes == a.goals()
    }
}

/// The matching cost of box `b` (an index into `boxes`) to goal `g` over distance table `dist`.
fn pair_cost(a: &Analysis, dist: &[u16], s: &Setup, boxes: &[(u16, u8)], b: usize, g: usize) -> i64 {
    let (sq, class) = boxes[b];
    match dist[g * a.squares() + sq as usize] {
        NONE => FORBIDDEN,
        d => i64::from(d) * s.push_weight(class),
    }
}

/// The lower bound for a set of boxes, scaled to the mode's cost units; `None` if no box-to-goal
/// matching exists (a deadlock).
fn heuristic(a: &Analysis, dist: &[u16], s: &Setup, boxes: &[(u16, u8)], hungarian: &mut Hungarian) -> Option<u64> {
    match s.heuristic {
        Heuristic::Zero => Some(0),
        Heuristic::Boxes => {
            if s.cover_goals {
                let covered = boxes.iter().filter(|&&(b, _)| (b as usize) < a.goals()).count();
                return Some(s.scale(a.goals().saturating_sub(covered) as u64));
            }
            let off: i64 =
                boxes.iter().filter(|&&(b, _)| b as usize >= a.goals()).map(|&(_, c)| s.push_weight(c)).sum();
            Some(s.scale(off as u64))
        }
        Heuristic::Hungarian => {
            let cost = |b: usize, g: usize| pair_cost(a, dist, s, boxes, b, g);
            let total = if s.cover_goals {
                hungarian.solve(a.goals(), boxes.len(), |g, b| cost(b, g))?
            } else {
                hungarian.solve(boxes.len(), a.goals(), cost)?
            };
            Some(s.scale(total as u64))
        }
    }
}

/// A new child found while scanning a parent's pushes, waiting for its bound.
struct Pending {
    g: u64,
    hash: u32,
    player: u16,
    from: u16,
    dir: u8,
    /// Index of the moved box in the parent's box list, and where it went.
    bi: usize,
    t: usize,
    table: u32,
}

/// Bounds of a parent's children, which differ from the parent in one box each. On a square
/// matching problem the parent's matching is solved once and each child re-solves one row.
struct ChildBounds {
    incremental: bool,
    /// The parent's matching is saved in the Hungarian scratch.
    saved: bool,
}

impl ChildBounds {
    #[allow(clippy::too_many_arguments)]
    fn bound(
        &mut self,
        a: &Analysis,
        dist: &[u16],
        s: &Setup,
        parent: &[(u16, u8)],
        child: &[(u16, u8)],
        moved: usize,
        hungarian: &mut Hungarian,
    ) -> Option<u64> {
        if self.incremental && !self.saved {
            let n = parent.len();
            if hungarian.solve(n, n, |b, g| pair_cost(a, dist, s, parent, b, g)).is_some() {
                hungarian.save();
                self.saved = true;
            } else {
                self.incremental = false;
            }
        }
        if !self.incremental {
            return heuristic(a, dist, s, child, hungarian);
        }
        let total = hungarian.resolve_row(child.len(), moved, |b, g| pair_cost(a, dist, s, child, b, g))?;
        Some(s.scale(total as u64))
    }
}

/// Runs A* on `level` with the given analysis.
pub fn solve(level: &Level, a: &Analysis, config: &Config) -> Result<Solution, SolveError> {
    let started = Instant::now();
    let n_boxes = level.boxes().len();
    let n_goals = level.goals().len();
    let rule = level.rule();
    let level_weights: Vec<u32> = config.weights.clone().unwrap_or_else(|| level.weights().to_vec());
    // Impossible by counting alone.
    let impossible = match rule {
        SolvedRule::Standard => n_boxes != n_goals,
        SolvedRule::AllBoxesOnGoals => n_boxes > n_goals,
        SolvedRule::AllGoalsCovered => n_goals == 0 || n_boxes < n_goals,
    };
    if impossible {
        return Err(SolveError::Unsolvable(Stats::default()));
    }
    // Weight classes: boxes of equal weight are interchangeable.
    let mut class_weight: Vec<u32> = Vec::new();
    let mut box_class = Vec::with_capacity(n_boxes);
    for i in 0..n_boxes {
        let w = if config.mode == Mode::Cost { level_weights.get(i).copied().unwrap_or(0) } else { 0 };
        let c = class_weight.iter().position(|&x| x == w).unwrap_or_else(|| {
            class_weight.push(w);
            class_weight.len() - 1
        });
        box_class.push(c as u8);
    }
    if class_weight.is_empty() {
        class_weight.push(0);
    }
    if class_weight.len() > 250 {
        // Classes are stored as u8; a level with this many distinct weights is not realistic.
        return Err(SolveError::Unsolvable(Stats::default()));
    }
    let prune = a.pruning();
    let words = a.live().div_ceil(64).max(1);
    let setup = Setup {
        mode: config.mode,
        heuristic: config.heuristic,
        normalize: config.mode == Mode::Pushes,
        prune,
        stride: words * class_weight.len(),
        class_weight,
        cover_goals: rule == SolvedRule::AllGoalsCovered,
        corrals: config.corral_pruning && config.mode == Mode::Pushes && prune,
        fill_goals: n_boxes == n_goals,
        frozen_goals: config.frozen_goals && prune && config.heuristic == Heuristic::Hungarian,
    };
    let n = a.squares();
    let mut scratch = Scratch {
        occupied: vec![0; n],
        stamp: vec![0; n],
        generation: 0,
        dist: vec![0; n],
        queue: Vec::with_capacity(n),
        child_stamp: vec![0; n],
        child_generation: 0,
        child_queue: Vec::with_capacity(n),
        path: Vec::new(),
        hungarian: Hungarian::default(),
        corrals: Corrals::new(n),
        only: Vec::new(),
    };
    let mut search = Search {
        a,
        s: setup,
        nodes: Vec::new(),
        keys: Vec::new(),
        table: HashTable::new(),
        open: BinaryHeap::new(),
        tables: FrozenTables::new(a),
        stats: Stats::default(),
        memory_limit: config.memory_limit.unwrap_or(usize::MAX),
    };

    // The root.
    let mut root_key = vec![0u64; search.s.stride];
    let mut root_boxes = Vec::with_capacity(n_boxes);
    for (i, b) in level.boxes().iter().enumerate() {
        let s = a.index_of(*b);
        if s >= a.live() {
            return Err(SolveError::Unsolvable(search.finish_stats(started)));
        }
        let c = box_class[i] as usize;
        root_key[c * words + s / 64] |= 1 << (s % 64);
        root_boxes.push((s as u16, c as u8));
        scratch.occupied[s] = c as u8 + 1;
    }
    let player = a.index_of(level.player());
    let root_player = if search.s.normalize { scratch.reach(a, player, false) } else { player };
    let mut frozen_set = vec![0u64; a.goals().div_ceil(64).max(1)];
    let root_table = if search.s.frozen_goals {
        frozen_table(a, &mut search.tables, &scratch.occupied, &root_boxes, &mut frozen_set, &mut scratch.path)
    } else {
        0
    };
    for &(b, _) in &root_boxes {
        scratch.occupied[b as usize] = 0;
    }
    let Some(h) = heuristic(a, search.tables.table(root_table), &search.s, &root_boxes, &mut scratch.hungarian) else {
        return Err(SolveError::Unsolvable(search.finish_stats(started)));
    };
    let root = Node {
        g: 0,
        h,
        parent: u32::MAX,
        player: root_player as u16,
        from: NONE,
        dir: 0,
        expanded: false,
        table: root_table,
    };
    let hash = hash_key(&root_key, root.player);
    search.insert(&root_key, root, hash);

    let mut boxes: Vec<(u16, u8)> = Vec::with_capacity(n_boxes);
    let mut child_boxes: Vec<(u16, u8)> = Vec::with_capacity(n_boxes);
    let mut child_key = vec![0u64; search.s.stride];
    let mut pending: Vec<Pending> = Vec::new();
    let mut pending_keys: Vec<u64> = Vec::new();
    while let Some(entry) = search.open.pop() {
        let node = search.nodes[entry.node as usize];
        if node.expanded || node.g != entry.g {
            continue;
        }
        search.nodes[entry.node as usize].expanded = true;
        search.stats.expanded += 1;
        if search.stats.expanded.is_multiple_of(256) {
            if config.time_limit.is_some_and(|t| started.elapsed() >= t) {
                return Err(SolveError::Timeout(search.finish_stats(started)));
            }
            if config.cancel.as_ref().is_some_and(|c| c.load(atomic::Ordering::Relaxed)) {
                return Err(SolveError::Cancelled(search.finish_stats(started)));
            }
            if let Some(p) = &config.progress {
                p.store(search.stats.expanded, atomic::Ordering::Relaxed);
            }
        }
        if config.node_limit.is_some_and(|l| search.stats.expanded > l) {
            return Err(SolveError::NodeLimit(search.finish_stats(started)));
        }

        // Load the boxes.
        boxes.clear();
        {
            let key = search.key(entry.node);
            for c in 0..search.s.class_weight.len() {
                for w in 0..words {
                    let mut bits = key[c * words + w];
                    while bits != 0 {
                        let s = w * 64 + bits.trailing_zeros() as usize;
                        bits &= bits - 1;
                        boxes.push((s as u16, c as u8));
                    }
                }
            }
        }
        let solved = if search.s.cover_goals {
            boxes.iter().filter(|&&(b, _)| (b as usize) < a.goals()).count() == a.goals()
        } else {
            boxes.iter().all(|&(b, _)| (b as usize) < a.goals())
        };
        if solved {
            return finish(level, &search, entry.node, &level_weights, started);
        }
        for &(b, c) in &boxes {
            scratch.occupied[b as usize] = c + 1;
        }
        let distances = search.s.mode != Mode::Pushes;
        scratch.reach(a, node.player as usize, distances);
        let mut bounds = ChildBounds { incremental: search.s.incremental(a, boxes.len()), saved: false };
        scratch.only.clear();
        let restricted = search.s.corrals && {
            let Scratch { corrals, occupied, stamp, generation, only, .. } = &mut scratch;
            let reached = |i: usize| stamp[i] == *generation;
            match corrals.pi_corral(a, occupied, reached, search.s.fill_goals) {
                Some(barrier) => {
                    only.extend_from_slice(barrier);
                    true
                }
                None => false,
            }
        };
        search.stats.corral_cuts += u64::from(restricted);

        for (bi, &(b, class)) in boxes.iter().enumerate() {
            if restricted && !scratch.only.contains(&b) {
                continue;
            }
            let b = b as usize;
            for d in Dir::ALL {
                let t = a.neighbor(b, d);
                let p = a.neighbor(b, d.opposite());
                if t == NONE || p == NONE || scratch.occupied[t as usize] != 0 || !scratch.reached(p as usize) {
                    continue;
                }
                let t = t as usize;
                let walk = scratch.dist[p as usize];
                if search.s.prune && t >= a.live() {
                    search.stats.pruned_dead_square += 1;
                    continue;
                }
                scratch.occupied[b] = 0;
                scratch.occupied[t] = class + 1;
                let verdict = if !search.s.prune {
                    None
                } else if deadlock::block_2x2(a, &scratch.occupied, t) {
                    Some(&mut search.stats.pruned_2x2)
                } else if deadlock::freeze(a, &scratch.occupied, t, &mut scratch.path) {
                    Some(&mut search.stats.pruned_freeze)
                } else {
                    None
                };
                if let Some(counter) = verdict {
                    *counter += 1;
                    scratch.occupied[t] = 0;
                    scratch.occupied[b] = class + 1;
                    continue;
                }
                search.stats.generated += 1;
                // A box frozen on a goal changes the distance table; otherwise the frozen set is
                // the parent's (see `frozen`).
                let table = if search.s.frozen_goals
                    && t < a.goals()
                    && deadlock::is_frozen(a, &scratch.occupied, t, &mut scratch.path)
                {
                    child_boxes.clear();
                    child_boxes.extend_from_slice(&boxes);
                    child_boxes[bi].0 = t as u16;
                    frozen_table(
                        a,
                        &mut search.tables,
                        &scratch.occupied,
                        &child_boxes,
                        &mut frozen_set,
                        &mut scratch.path,
                    )
                } else {
                    node.table
                };
                child_key.copy_from_slice(search.key(entry.node));
                let base = class as usize * words;
                child_key[base + b / 64] &= !(1 << (b % 64));
                child_key[base + t / 64] |= 1 << (t % 64);
                let child_player = if !search.s.normalize {
                    b
                } else if !scratch.reached(t)
                    && Dir::ALL.iter().filter(|&&e| e != d && e != d.opposite()).all(|&e| {
                        let n = a.neighbor(b, e);
                        n == NONE || scratch.occupied[n as usize] != 0 || scratch.reached(n as usize)
                    })
                {
                    // The box went somewhere the player could not reach, and the square it left
                    // opens onto nothing new: the region is the parent's plus that square.
                    (node.player as usize).min(b)
                } else {
                    scratch.lowest_reachable(a, b)
                };
                let g = node.g + search.s.edge_cost(walk, class as usize);
                let hash = hash_key(&child_key, child_player as u16);
                match search.find(&child_key, child_player as u16, hash) {
                    Some(existing) => {
                        let old = &mut search.nodes[existing as usize];
                        if !old.expanded && g < old.g {
                            old.g = g;
                            old.parent = entry.node;
                            old.from = b as u16;
                            old.dir = d as u8;
                            let e = Entry { f: g + old.h, g, node: existing };
                            search.open.push(e);
                        } else {
                            search.stats.duplicates += 1;
                        }
                    }
                    None => {
                        pending_keys.extend_from_slice(&child_key);
                        pending.push(Pending {
                            g,
                            hash,
                            player: child_player as u16,
                            from: b as u16,
                            dir: d as u8,
                            bi,
                            t,
                            table,
                        });
                    }
                }
                scratch.occupied[t] = 0;
                scratch.occupied[b] = class + 1;
            }
        }
        for &(b, _) in &boxes {
            scratch.occupied[b as usize] = 0;
        }
        // New children get their bounds here, after the sibling scan, so the parent's matching
        // is solved (for incremental re-solving) only when at least two children need it.
        bounds.incremental &= pending.len() >= 2;
        for (k, c) in pending.iter().enumerate() {
            let key = &pending_keys[k * search.s.stride..(k + 1) * search.s.stride];
            child_boxes.clear();
            child_boxes.extend_from_slice(&boxes);
            child_boxes[c.bi].0 = c.t as u16;
            let bound = if c.table == node.table {
                bounds.bound(
                    a,
                    search.tables.table(node.table),
                    &search.s,
                    &boxes,
                    &child_boxes,
                    c.bi,
                    &mut scratch.hungarian,
                )
            } else {
                heuristic(a, search.tables.table(c.table), &search.s, &child_boxes, &mut scratch.hungarian)
            };
            match bound {
                None => search.stats.pruned_no_matching += 1,
                Some(h) => {
                    if !search.fits() {
                        return Err(SolveError::MemoryLimit(search.finish_stats(started)));
                    }
                    let child = Node {
                        g: c.g,
                        h,
                        parent: entry.node,
                        player: c.player,
                        from: c.from,
                        dir: c.dir,
                        expanded: false,
                        table: c.table,
                    };
                    search.insert(key, child, c.hash);
                }
            }
        }
        pending.clear();
        pending_keys.clear();
        let bytes = search.bytes() as u64;
        search.stats.peak_bytes = search.stats.peak_bytes.max(bytes);
    }
    Err(SolveError::Unsolvable(search.finish_stats(started)))
}

/// The distance table of the boxes frozen on goals in `boxes` (placed in `occupied`).
fn frozen_table(
    a: &Analysis,
    tables: &mut FrozenTables,
    occupied: &[u8],
    boxes: &[(u16, u8)],
    set: &mut [u64],
    path: &mut Vec<u16>,
) -> u32 {
    set.fill(0);
    for &(b, _) in boxes {
        let b = b as usize;
        if b < a.goals() && deadlock::is_frozen(a, occupied, b, path) {
            set[b / 64] |= 1 << (b % 64);
        }
    }
    tables.id(a, set)
}

/// Rebuilds the push path to `goal`, expands it into moves and packages the solution.
fn finish(
    level: &Level,
    search: &Search,
    goal: u32,
    weights: &[u32],
    started: Instant,
) -> Result<Solution, SolveError> {
    let a = search.a;
    let mut pushes = Vec::new();
    let mut at = goal;
    while search.nodes[at as usize].parent != u32::MAX {
        let node = search.nodes[at as usize];
        pushes.push(Push { from: a.square(node.from as usize), dir: Dir::ALL[node.dir as usize] });
        at = node.parent;
    }
    pushes.reverse();
    let moves = pushes_to_moves(level, &pushes).expect("the search only makes legal pushes");
    let mut stats = search.stats.clone();
    stats.stored_states = search.nodes.len() as u64;
    stats.frozen_tables = search.tables.count() as u64 - 1;
    stats.peak_bytes = stats.peak_bytes.max(search.bytes() as u64);
    stats.bytes_per_state = search.bytes() as f64 / search.nodes.len().max(1) as f64;
    stats.seconds = started.elapsed().as_secs_f64();
    let optimal = match search.s.mode {
        Mode::Pushes => Optimality::Pushes,
        Mode::Moves => Optimality::Moves,
        _ => Optimality::Cost,
    };
    Ok(Solution {
        lurd: crate::lurd::encode(&moves),
        pushes: pushes.len(),
        cost: cost_of(level, weights, &moves),
        moves,
        optimal: Some(optimal),
        stats,
    })
}
