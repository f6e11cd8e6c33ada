//! The textbook baseline: breadth-first search over unit moves with a visited set, pushes tried
//! before walks, and only corner deadlocks pruned. Kept to measure the real search against, and
//! as an oracle for move-optimal solutions on small levels.
//!
//! Positions are stored packed in an arena of fixed-size chunks (`Store`): the box set as
//! `words` 64-bit words, the player square, the parent's index, the move that led here and the
//! position's hash. The arena is also the queue (positions are expanded in the order they were
//! stored) and the parent map, so nothing is stored twice and no position owns a heap
//! allocation. The visited set is an open-addressing table of arena indices. Memory grows one
//! chunk or one table doubling at a time, each checked against the memory limit *before* it is
//! allocated; the doubling's rehash reads the stored hashes (no position is hashed again) and
//! checks the clock and the cancel flag as it goes, so a deadline is kept even while it moves
//! hundreds of millions of entries.

use super::budget::{Budget, Stop};
use super::config::Config;
use super::expand::cost_of;
use super::report::{Optimality, Solution, SolveError, Stats};
use crate::level::{Dir, Level, SolvedRule, Square};
use crate::rules::Move;

/// A non-goal square with walls on two perpendicular sides: a box there can never leave.
fn is_dead_corner(level: &Level, s: Square) -> bool {
    let wall = |d| level.neighbor(s, d).is_none();
    !level.is_goal(s) && (wall(Dir::Up) || wall(Dir::Down)) && (wall(Dir::Left) || wall(Dir::Right))
}

/// Frees the search's tables on a helper thread, so a time limit or Ctrl-C never waits for the
/// allocator. Freed in place if no thread can be started.
fn release<T: Send + 'static>(tables: T) {
    // On a spawn error the closure, and the tables with it, are dropped here.
    let _ = std::thread::Builder::new().name("bfs-free".into()).spawn(move || drop(tables));
}

/// No square / no parent.
const NONE: u32 = u32::MAX;
/// Bytes a chunk of the arena aims at (the last chunk is the most memory held but unused): a
/// 64th of the memory limit, between these bounds.
const CHUNK_BYTES: (usize, usize) = (64 << 10, 4 << 20);
/// Entries the rehash moves between two clock checks.
const REHASH_CHECK: usize = 1 << 18;

/// The hash of a position: its box words and player square (FxHash steps, then a final mix so
/// that the low bits, which pick the table slot, depend on every word).
fn hash(words: &[u64], player: u32) -> u32 {
    let mut h = u64::from(player).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for &w in words {
        h = (h.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h as u32
}

/// One chunk of the arena: `states` positions at most.
struct Chunk {
    boxes: Vec<u64>,
    player: Vec<u32>,
    parent: Vec<u32>,
    /// The move that led here: direction index, plus 4 for a push.
    step: Vec<u8>,
    hash: Vec<u32>,
}

/// The arena of positions and the visited table over it.
struct Store {
    /// Words per box set.
    words: usize,
    /// Positions per chunk (a power of two) and its log.
    shift: u32,
    chunks: Vec<Chunk>,
    len: usize,
    /// Arena index + 1 per slot, 0 for an empty slot; the length is a power of two.
    table: Vec<u32>,
}

impl Store {
    fn new(words: usize, memory_limit: usize) -> Store {
        let per_state = Store::state_bytes(words);
        let target = (memory_limit / 64).clamp(CHUNK_BYTES.0, CHUNK_BYTES.1);
        let shift = (target / per_state).max(1).ilog2();
        Store { words, shift, chunks: Vec::new(), len: 0, table: Vec::new() }
    }

    fn state_bytes(words: usize) -> usize {
        words * 8 + 4 + 4 + 1 + 4
    }

    fn chunk_states(&self) -> usize {
        1 << self.shift
    }

    fn chunk_bytes(&self) -> usize {
        self.chunk_states() * Store::state_bytes(self.words)
    }

    /// Bytes held: every chunk at full size (they are allocated so) and the table.
    fn bytes(&self) -> usize {
        self.chunks.len() * self.chunk_bytes()
            + self.table.len() * 4
            + self.chunks.capacity() * std::mem::size_of::<Chunk>()
    }

    fn at(&self, i: usize) -> (&Chunk, usize) {
        (&self.chunks[i >> self.shift], i & (self.chunk_states() - 1))
    }

    fn boxes(&self, i: usize) -> &[u64] {
        let (c, k) = self.at(i);
        &c.boxes[k * self.words..(k + 1) * self.words]
    }

    fn player(&self, i: usize) -> u32 {
        let (c, k) = self.at(i);
        c.player[k]
    }

    fn link(&self, i: usize) -> (u32, u8) {
        let (c, k) = self.at(i);
        (c.parent[k], c.step[k])
    }

    fn hash_of(&self, i: usize) -> u32 {
        let (c, k) = self.at(i);
        c.hash[k]
    }

    /// The stored index of a position, or the slot where it would go.
    fn find(&self, words: &[u64], player: u32, h: u32) -> Result<usize, usize> {
        let mask = self.table.len() - 1;
        let mut slot = h as usize & mask;
        loop {
            match self.table[slot] {
                0 => return Err(slot),
                e => {
                    let i = e as usize - 1;
                    if self.hash_of(i) == h && self.player(i) == player && self.boxes(i) == words {
                        return Ok(i);
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Whether storing one more position needs a new chunk or a bigger table, and the bytes
    /// that would then be allocated (held together with what is held now).
    fn growth(&self) -> usize {
        let chunk = if self.len == self.chunks.len() * self.chunk_states() { self.chunk_bytes() } else { 0 };
        // Keep the table at most half full (a doubling allocates the new table next to the old).
        let table = if (self.len + 1) * 2 > self.table.len() { (self.table.len() * 2).max(1024) * 4 } else { 0 };
        chunk + table
    }

    /// Makes room for one more position (after [`Store::growth`] was checked): a new chunk,
    /// a doubled table. The rehash checks the time and cancel limits.
    fn grow(&mut self, budget: &mut Budget) -> Result<(), Stop> {
        if self.len >= NONE as usize - 1 {
            return Err(Stop::Memory);
        }
        if self.len == self.chunks.len() * self.chunk_states() {
            let n = self.chunk_states();
            self.chunks.push(Chunk {
                boxes: Vec::with_capacity(n * self.words),
                player: Vec::with_capacity(n),
                parent: Vec::with_capacity(n),
                step: Vec::with_capacity(n),
                hash: Vec::with_capacity(n),
            });
        }
        if (self.len + 1) * 2 > self.table.len() {
            let size = (self.table.len() * 2).max(1024);
            if size > 1 << 32 {
                return Err(Stop::Memory);
            }
            // Zeroed pages come from the system untouched: no time is spent writing them.
            let mut table = vec![0u32; size];
            let mask = size - 1;
            for i in 0..self.len {
                if i % REHASH_CHECK == REHASH_CHECK - 1 {
                    budget.check_now()?;
                }
                let mut slot = self.hash_of(i) as usize & mask;
                while table[slot] != 0 {
                    slot = (slot + 1) & mask;
                }
                table[slot] = i as u32 + 1;
            }
            self.table = table;
        }
        Ok(())
    }

    /// Stores a position at `slot` (from [`Store::find`], after [`Store::grow`]).
    fn push(&mut self, words: &[u64], player: u32, parent: u32, step: u8, h: u32) -> usize {
        let i = self.len;
        let c = &mut self.chunks[i >> self.shift];
        c.boxes.extend_from_slice(words);
        c.player.push(player);
        c.parent.push(parent);
        c.step.push(step);
        c.hash.push(h);
        self.len += 1;
        i
    }

    /// Stores a position not seen before; `Ok(false)` when it was.
    fn insert(&mut self, words: &[u64], player: u32, parent: u32, step: u8, budget: &mut Budget) -> Result<bool, Stop> {
        let h = hash(words, player);
        if !self.table.is_empty() && self.find(words, player, h).is_ok() {
            return Ok(false);
        }
        let growth = self.growth();
        if growth > 0 {
            if !budget.fits(self.bytes() + growth) {
                return Err(Stop::Memory);
            }
            self.grow(budget)?;
        }
        let Err(slot) = self.find(words, player, h) else { unreachable!("checked above") };
        let i = self.push(words, player, parent, step, h);
        self.table[slot] = i as u32 + 1;
        Ok(true)
    }
}

/// Breadth-first search over unit moves.
pub fn solve(level: &Level, config: &Config) -> Result<Solution, SolveError> {
    let mut budget = Budget::new(config);
    let mut stats = Stats::default();
    let prune = !(level.rule() == SolvedRule::AllGoalsCovered && level.boxes().len() > level.goals().len());
    let n = level.square_count();
    let words = n.div_ceil(64).max(1);
    let neighbors: Vec<[u32; 4]> =
        level.squares().map(|s| Dir::ALL.map(|d| level.neighbor(s, d).map_or(NONE, |t| t.index() as u32))).collect();
    let dead: Vec<bool> = level.squares().map(|s| is_dead_corner(level, s)).collect();
    let mut goal_mask = vec![0u64; words];
    for g in level.goals() {
        goal_mask[g.index() / 64] |= 1 << (g.index() % 64);
    }
    let (box_count, goal_count) = (level.boxes().len(), level.goals().len());
    let mut store = Store::new(words, config.memory_limit.unwrap_or(usize::MAX));
    let mut start = vec![0u64; words];
    for b in level.boxes() {
        start[b.index() / 64] |= 1 << (b.index() % 64);
    }
    let stop = |store: Store, stats: Stats, stop: Stop, budget: &Budget| {
        let error = budget.error(stop, stats, store.len, store.bytes());
        release(store);
        error
    };
    if let Err(s) = store.insert(&start, level.player().index() as u32, NONE, 0, &mut budget) {
        return Err(stop(store, stats, s, &budget));
    }
    let has = |w: &[u64], s: u32| w[s as usize / 64] >> (s % 64) & 1 != 0;
    let mut cur = vec![0u64; words];
    let mut next = vec![0u64; words];
    let mut found = None;
    let mut head = 0;
    while head < store.len {
        cur.copy_from_slice(store.boxes(head));
        let player = store.player(head);
        let on_goals: usize = cur.iter().zip(&goal_mask).map(|(b, g)| (b & g).count_ones() as usize).sum();
        if level.rule().is_solved(box_count, goal_count, on_goals) {
            found = Some(head);
            break;
        }
        stats.expanded += 1;
        if let Err(s) = budget.tick(stats.expanded) {
            return Err(stop(store, stats, s, &budget));
        }
        // Pushes first, then walks, each in the order up, right, down, left.
        for push in [true, false] {
            for (d, &to) in neighbors[player as usize].iter().enumerate() {
                if to == NONE || has(&cur, to) != push {
                    continue;
                }
                next.copy_from_slice(&cur);
                if push {
                    let beyond = neighbors[to as usize][d];
                    if beyond == NONE || has(&cur, beyond) {
                        continue;
                    }
                    if prune && dead[beyond as usize] {
                        stats.pruned_dead_square += 1;
                        continue;
                    }
                    next[to as usize / 64] &= !(1 << (to % 64));
                    next[beyond as usize / 64] |= 1 << (beyond % 64);
                }
                stats.generated += 1;
                let step = d as u8 | if push { 4 } else { 0 };
                match store.insert(&next, to, head as u32, step, &mut budget) {
                    Ok(true) => {}
                    Ok(false) => stats.duplicates += 1,
                    Err(s) => return Err(stop(store, stats, s, &budget)),
                }
            }
        }
        stats.peak_bytes = stats.peak_bytes.max(store.bytes() as u64);
        head += 1;
    }
    let stats = budget.finish(stats, store.len, store.bytes());
    let Some(mut at) = found else {
        release(store);
        return Err(SolveError::Unsolvable(stats));
    };
    let mut moves = Vec::new();
    loop {
        let (parent, step) = store.link(at);
        if parent == NONE {
            break;
        }
        moves.push(Move { dir: Dir::ALL[usize::from(step & 3)], push: step & 4 != 0 });
        at = parent as usize;
    }
    moves.reverse();
    release(store);
    let weights = config.weights.clone().unwrap_or_else(|| level.weights().to_vec());
    let cost = cost_of(level, &weights, &moves);
    Ok(Solution::from_moves(moves, cost, Some(Optimality::Moves), stats).credited("bfs"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn the_store_finds_what_it_stored_and_grows_past_its_first_table() {
        let config = Config::optimal(None);
        let mut budget = Budget::new(&config);
        let mut store = Store::new(2, usize::MAX);
        for i in 0..5000u64 {
            assert_eq!(store.insert(&[i, !i], (i % 7) as u32, NONE, 0, &mut budget), Ok(true));
        }
        assert!(store.table.len() >= 10_000);
        for i in 0..5000u64 {
            assert_eq!(store.insert(&[i, !i], (i % 7) as u32, NONE, 0, &mut budget), Ok(false));
            assert_eq!(store.boxes(i as usize), [i, !i]);
        }
        assert_eq!(store.insert(&[1, !1], 2, NONE, 0, &mut budget), Ok(true));
        assert_eq!(store.len, 5001);
    }

    #[test]
    fn growth_past_the_memory_limit_is_refused_before_it_is_allocated() {
        let config = Config { memory_limit: Some(1 << 20), ..Config::optimal(None) };
        let mut budget = Budget::new(&config);
        let mut store = Store::new(1, 1 << 20);
        let mut stopped = None;
        for i in 0..1_000_000u64 {
            if let Err(s) = store.insert(&[i], 0, NONE, 0, &mut budget) {
                stopped = Some(s);
                break;
            }
        }
        assert_eq!(stopped, Some(Stop::Memory));
        assert!(store.bytes() <= 1 << 20, "{}", store.bytes());
        assert!(store.len > 10_000, "{}", store.len);
    }

    #[test]
    fn finds_a_move_optimal_solution_that_verifies() {
        let level = parse_levels("#######\n#@$ . #\n# $.  #\n#######\n").unwrap().remove(0);
        let solution = solve(&level, &Config::optimal(None)).unwrap();
        assert!(crate::verify::verify(&level, &solution.lurd).is_valid_solution());
        // Three pushes right and three walks to get behind the other box (`RRlldR` or
        // `dRluRR`): fewer is impossible, as the player starts behind only one box.
        assert_eq!(solution.moves.len(), 6, "{}", solution.lurd);
        assert_eq!(solution.pushes, 3);
    }
}
