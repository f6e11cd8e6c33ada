//! Improving a given solution: a vicinity search (the idea YASC and JSoko's optimizers use; this
//! code is our own).
//!
//! The solution's box configurations (the start and the one after each push) form the core of
//! a search space; the vicinity adds every configuration one push away from a core
//! configuration (`radius` 1) and, recursively, `radius` pushes away. A Dijkstra search over
//! (configuration in the vicinity, player square) then finds the cheapest solution inside that
//! space under the chosen metric, ordered lexicographically: (moves, pushes) or (pushes, moves).
//! The given solution lies inside the space, so the result is never worse; it is also replayed
//! by [`crate::verify::verify`] and kept only when valid and strictly better.
//!
//! The search is exact over its space: it removes detours, loops and wasted walks, and finds
//! better push orders whose configurations stay near the original path. It proves nothing
//! about the level as a whole.
//!
//! Push orders far from the given one (a box's whole session made earlier or later, say, where
//! the configurations in between are many pushes from the path) are the reordering's job
//! ([`reorder_pushes`]): a local search over the order of the same pushes, each candidate order
//! replayed with the player's shortest walks. [`optimize_repeated`] alternates the two.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

use crate::analysis::region::next_round;
use crate::level::{Dir, Level, Square};
use crate::rules::Position;

/// What to minimise first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Fewest moves, then fewest pushes.
    Moves,
    /// Fewest pushes, then fewest moves.
    Pushes,
}

/// Limits of one optimisation.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Pushes away from the solution's configurations that the search may go.
    pub radius: usize,
    /// Most configurations in the vicinity (the vicinity stops growing there).
    pub max_configs: usize,
    /// Most search states (configurations times the level's squares, 16 bytes each); the
    /// vicinity stops growing there, and a solution whose own path needs more is kept as given.
    pub max_states: usize,
    /// Give up (keeping the given solution) after this instant.
    pub deadline: Option<Instant>,
    /// Whether the given solution is known to have the fewest pushes possible (the pushes mode
    /// proves it before shortening its walks). Then [`optimize_repeated`] reorders the pushes
    /// right after radius 1 instead of last: no radius can find fewer pushes for the reordering
    /// to lead away from, and it costs about as much as radius 1.
    pub fewest_pushes: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { radius: 1, max_configs: 50_000, max_states: 16_000_000, deadline: None, fewest_pushes: false }
    }
}

/// The outcome: the best solution found (the given one when nothing better was).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Optimized {
    /// The solution, LURD.
    pub lurd: String,
    /// Its moves.
    pub moves: usize,
    /// Its pushes.
    pub pushes: usize,
    /// Whether it is strictly better than the given one.
    pub improved: bool,
    /// Whether the search ran to the end (false: a limit stopped it).
    pub complete: bool,
}

/// Why a solution cannot be optimised.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OptimizeError {
    /// The given moves are not a valid solution of the level.
    #[error("the given moves are not a valid solution: {0}")]
    Invalid(String),
}

type Config = Vec<u32>;

fn key(metric: Metric, moves: usize, pushes: usize) -> (usize, usize) {
    match metric {
        Metric::Moves => (moves, pushes),
        Metric::Pushes => (pushes, moves),
    }
}

/// Improves `lurd` on `level` under `metric` (see the module documentation).
pub fn optimize(level: &Level, lurd: &str, metric: Metric, limits: Limits) -> Result<Optimized, OptimizeError> {
    optimize_within(level, lurd, metric, limits, &mut || false)
}

/// The vicinity search repeated, then [`reorder_pushes`]: at radius 1 as long as it improves
/// (each time around the better solution), then at radius 2, and so on up to `limits.radius`,
/// then the reordering, going back to radius 1 after each improvement by a later step (small
/// searches first: each radius costs far more than the one before). The reordering comes last
/// because it only saves moves: under the pushes metric, a reordered path can leave the vicinity
/// of the fewer-pushes solutions the radii would have found first (on the fast engine's XSokoban
/// solutions, reordering right after radius 1 ended with more pushes on some). Stops at the
/// deadline or when `stop` returns true, keeping the best solution found; `complete` says whether
/// every step ran to its end around the final solution. With [`Limits::fewest_pushes`] the
/// reordering comes right after radius 1.
pub fn optimize_repeated(
    level: &Level,
    lurd: &str,
    metric: Metric,
    limits: Limits,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Optimized, OptimizeError> {
    // The steps: `Some(radius)` a vicinity search, `None` the reordering.
    let radii = (1..=limits.radius.max(1)).map(|r| Some(r.min(limits.radius)));
    let steps: Vec<Option<usize>> = if limits.fewest_pushes {
        radii.clone().take(1).chain([None]).chain(radii.skip(1)).collect()
    } else {
        radii.chain([None]).collect()
    };
    let mut best: Option<Optimized> = None;
    let mut step = 0;
    while step < steps.len() {
        let current = best.as_ref().map_or(lurd, |b| b.lurd.as_str());
        if best.is_some() && (limits.deadline.is_some_and(|d| Instant::now() >= d) || stop()) {
            best.as_mut().into_iter().for_each(|b| b.complete = false);
            break;
        }
        let out = match steps[step] {
            None => reorder_pushes(level, current, metric, limits.deadline, stop)?,
            Some(radius) => optimize_within(level, current, metric, Limits { radius, ..limits }, stop)?,
        };
        match &mut best {
            None => {
                step = usize::from(!out.improved);
                best = Some(out);
            }
            Some(b) if out.improved => {
                *b = Optimized { improved: true, ..out };
                step = 0;
            }
            Some(b) => {
                b.complete &= out.complete;
                step += 1;
            }
        }
    }
    Ok(best.expect("step 0 always runs"))
}

/// `lurd` as an unimproved [`Optimized`], or why it is not a valid solution of `level`.
fn checked(level: &Level, lurd: &str) -> Result<Optimized, OptimizeError> {
    let report = crate::verify::verify(level, lurd);
    if !report.is_valid_solution() {
        let why = match report.verdict(true) {
            crate::verify::Verdict::Illegal(i) => format!("move {} is illegal ({})", i.index, i.reason),
            crate::verify::Verdict::Unsolved => "the moves end without solving the level".to_string(),
            crate::verify::Verdict::CaseMismatch(i) => format!("move {i} has the wrong letter case"),
            crate::verify::Verdict::Valid => String::new(),
        };
        return Err(OptimizeError::Invalid(why));
    }
    Ok(Optimized {
        lurd: lurd.chars().filter(|c| !c.is_whitespace()).collect(),
        moves: report.moves,
        pushes: report.pushes,
        improved: false,
        complete: true,
    })
}

/// Like [`optimize`], and also stops (keeping the best solution found so far, as at the
/// deadline) once `stop` returns true; it is called every few thousand search steps, so a caller
/// can pass its own cancel flag or clock (the pushes mode's second pass does).
pub fn optimize_within(
    level: &Level,
    lurd: &str,
    metric: Metric,
    limits: Limits,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Optimized, OptimizeError> {
    let given = checked(level, lurd)?;
    let letters = crate::lurd::decode(lurd).map_err(|e| OptimizeError::Invalid(e.to_string()))?;
    let nsq = level.square_count().max(1);
    let max_configs = limits.max_configs.min(limits.max_states / nsq);
    let mut vicinity = Vicinity::default();
    vicinity.core(level, &letters)?;
    if vicinity.configs.len() > max_configs {
        return Ok(Optimized { complete: false, ..given });
    }
    let Some(full) = vicinity.grow(level, limits.radius, max_configs, stop) else {
        return Ok(Optimized { complete: false, ..given });
    };
    let (dirs, finished) = vicinity.cheapest(level, metric, limits.deadline, stop);
    let complete = full && finished;
    let Some(dirs) = dirs else { return Ok(Optimized { complete: false, ..given }) };
    let Some(found) = replayed(level, &dirs) else { return Ok(given) };
    Ok(better_or_given(level, metric, given, found, complete))
}

/// `found` when it is a valid solution of `level` better than `given` under `metric`, else
/// `given`; either way with `complete` as the search that found it says.
fn better_or_given(level: &Level, metric: Metric, given: Optimized, found: String, complete: bool) -> Optimized {
    let check = crate::verify::verify(level, &found);
    let better = key(metric, check.moves, check.pushes) < key(metric, given.moves, given.pushes);
    if check.is_valid_solution() && better {
        Optimized { lurd: found, moves: check.moves, pushes: check.pushes, improved: true, complete }
    } else {
        Optimized { complete, ..given }
    }
}

/// The box configurations [`optimize_within`] searches: those the given solution passes
/// through (the core) and those a few pushes from them, each with a number.
#[derive(Default)]
struct Vicinity {
    ids: HashMap<Config, u32>,
    configs: Vec<Config>,
}

impl Vicinity {
    /// The number of configuration `c`, given one if it is new.
    fn intern(&mut self, c: Config) -> u32 {
        let Vicinity { ids, configs } = self;
        *ids.entry(c.clone()).or_insert_with(|| {
            configs.push(c);
            (configs.len() - 1) as u32
        })
    }

    /// Adds the configurations the solution `letters` passes through.
    fn core(&mut self, level: &Level, letters: &[crate::lurd::Letter]) -> Result<(), OptimizeError> {
        let config_of = |p: &Position| -> Config { p.boxes().map(|s| s.index() as u32).collect() };
        let mut pos = Position::start(level);
        self.intern(config_of(&pos));
        for l in letters {
            let (next, mv) = pos.step(level, l.dir).map_err(|e| OptimizeError::Invalid(e.to_string()))?;
            if mv.push {
                self.intern(config_of(&next));
            }
            pos = next;
        }
        Ok(())
    }

    /// Adds the configurations up to `radius` pushes from the core (player reachability is not
    /// checked here; the search only takes legal steps), at most `max_configs` in all. Whether
    /// all of them fit (`Some(true)`), or `None` when `stop` said so.
    fn grow(
        &mut self,
        level: &Level,
        radius: usize,
        max_configs: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<bool> {
        let mut frontier: Vec<u32> = (0..self.configs.len() as u32).collect();
        let mut full = true;
        for _ in 0..radius {
            let mut next_frontier = Vec::new();
            for &id in &frontier {
                if stop() {
                    return None;
                }
                let c = self.configs[id as usize].clone();
                for i in 0..c.len() {
                    for dir in Dir::ALL {
                        // The player needs the square behind the box free (the search checks
                        // that it can get there).
                        let behind = level.neighbor(Square::new(c[i] as usize), dir.opposite());
                        if behind.is_none_or(|s| c.binary_search(&(s.index() as u32)).is_ok()) {
                            continue;
                        }
                        let Some(n) = pushed(level, &c, i, dir) else { continue };
                        if self.ids.contains_key(&n) {
                            continue;
                        }
                        if self.configs.len() >= max_configs {
                            full = false;
                            break;
                        }
                        next_frontier.push(self.intern(n));
                    }
                }
            }
            frontier = next_frontier;
        }
        Some(full)
    }

    /// The cheapest solution under `metric` within the configurations (Dijkstra over
    /// configuration and player square) as the player's steps, and whether the search ran to
    /// its end (`false` when the deadline or `stop` cut it short; then the steps are `None`).
    fn cheapest(
        &self,
        level: &Level,
        metric: Metric,
        deadline: Option<Instant>,
        stop: &mut dyn FnMut() -> bool,
    ) -> (Option<Vec<Dir>>, bool) {
        let nsq = level.square_count().max(1);
        let states = self.configs.len() * nsq;
        let mut best: Vec<(u32, u32)> = vec![(u32::MAX, u32::MAX); states];
        let mut parent: Vec<(u32, u8)> = vec![(u32::MAX, 0); states];
        let start = level.player().index();
        best[start] = (0, 0);
        let mut heap = BinaryHeap::new();
        heap.push(Reverse(((0u32, 0u32), start as u32)));
        let solved = |c: &Config| {
            let p = Position::from_parts(level, level.player(), c.iter().map(|&b| Square::new(b as usize)));
            p.is_solved(level)
        };
        let mut pops = 0u64;
        while let Some(Reverse((cost, state))) = heap.pop() {
            if best[state as usize] != cost {
                continue;
            }
            let (cid, sq) = (state as usize / nsq, state as usize % nsq);
            if solved(&self.configs[cid]) {
                return (Some(steps_to(&parent, start, state as usize)), true);
            }
            pops += 1;
            if pops.is_multiple_of(4096) && (deadline.is_some_and(|d| Instant::now() >= d) || stop()) {
                return (None, false);
            }
            for (d, dir) in Dir::ALL.into_iter().enumerate() {
                let Some(to) = level.neighbor(Square::new(sq), dir) else { continue };
                let t = to.index() as u32;
                let c = &self.configs[cid];
                let (ncid, push) = match c.binary_search(&t) {
                    Err(_) => (cid, false),
                    Ok(i) => {
                        let Some(n) = pushed(level, c, i, dir) else { continue };
                        match self.ids.get(&n) {
                            Some(&id) => (id as usize, true),
                            None => continue,
                        }
                    }
                };
                let step = match (metric, push) {
                    (Metric::Moves, p) => (1, u32::from(p)),
                    (Metric::Pushes, true) => (1, 1),
                    (Metric::Pushes, false) => (0, 1),
                };
                let nc = (cost.0 + step.0, cost.1 + step.1);
                let ns = ncid * nsq + t as usize;
                if nc < best[ns] {
                    best[ns] = nc;
                    parent[ns] = (state, d as u8);
                    heap.push(Reverse((nc, ns as u32)));
                }
            }
        }
        (None, true)
    }
}

/// The player's steps from `start` to `goal` along `parent` (each state's parent and the
/// direction of the step into it).
fn steps_to(parent: &[(u32, u8)], start: usize, goal: usize) -> Vec<Dir> {
    let mut dirs = Vec::new();
    let mut s = goal;
    while s != start {
        let (p, d) = parent[s];
        dirs.push(Dir::ALL[d as usize]);
        s = p as usize;
    }
    dirs.reverse();
    dirs
}

/// The LURD of the player's steps `dirs` from the start, or `None` if one is illegal.
fn replayed(level: &Level, dirs: &[Dir]) -> Option<String> {
    let mut pos = Position::start(level);
    let mut moves = Vec::with_capacity(dirs.len());
    for &dir in dirs {
        let (next, mv) = pos.step(level, dir).ok()?;
        moves.push(mv);
        pos = next;
    }
    Some(crate::lurd::encode(&moves))
}

/// Configuration `c` with its `i`-th box pushed one square towards `dir`, if that square is
/// floor without a box (where the player stands is the caller's concern).
fn pushed(level: &Level, c: &[u32], i: usize, dir: Dir) -> Option<Config> {
    let to = level.neighbor(Square::new(c[i] as usize), dir)?.index() as u32;
    if c.binary_search(&to).is_ok() {
        return None;
    }
    let mut n = c.to_vec();
    n[i] = to;
    n.sort_unstable();
    Some(n)
}

/// Improves the push order of `lurd` (see the module documentation): a box session (the pushes of
/// one box in a row), or its first or last part, moves to another place between sessions where
/// the whole solution stays legal and gets shorter, walks between pushes taken shortest, as long
/// as one such move helps. The pushes stay the same (possibly made by other boxes along the same
/// squares), so only the moves fall; that is better under either metric. A local search: it
/// reaches push orders far from the given one, which the vicinity search does not, and proves
/// nothing. Stops at `deadline` or when `stop` returns true, keeping the best order found.
pub fn reorder_pushes(
    level: &Level,
    lurd: &str,
    metric: Metric,
    deadline: Option<Instant>,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Optimized, OptimizeError> {
    let given = checked(level, lurd)?;
    let mut halt = || deadline.is_some_and(|d| Instant::now() >= d) || stop();
    let Some((found, complete)) = reorder(level, &given.lurd, &mut halt) else { return Ok(given) };
    Ok(better_or_given(level, metric, given, found, complete))
}

/// One push of a solution: the square the box leaves and the direction it goes. The box itself
/// is not named, so a reordered solution may move a different box through the same squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PushAt {
    from: u32,
    dir: Dir,
}

/// Replays a sequence of pushes with the player's shortest walk before each one, on a fixed
/// level; owns the walk search's scratch space.
struct Replayer<'a> {
    level: &'a Level,
    seen: Vec<u32>,
    stamp: u32,
    queue: Vec<(u32, u32)>,
}

/// Where a replay stands before a push: the boxes, the player and the moves made so far.
#[derive(Debug, Clone)]
struct Snapshot {
    boxes: Vec<bool>,
    player: u32,
    moves: u32,
}

impl<'a> Replayer<'a> {
    fn new(level: &'a Level) -> Self {
        Replayer { level, seen: vec![0; level.square_count()], stamp: 0, queue: Vec::new() }
    }

    fn next(&self, sq: u32, dir: Dir) -> Option<u32> {
        self.level.neighbor(Square::new(sq as usize), dir).map(|s| s.index() as u32)
    }

    /// The fewest player moves from `from` to `to` around `boxes`, if `to` can be reached.
    fn walk(&mut self, boxes: &[bool], from: u32, to: u32) -> Option<u32> {
        if from == to {
            return Some(0);
        }
        next_round(&mut self.stamp, || self.seen.fill(0));
        self.queue.clear();
        self.queue.push((from, 0));
        self.seen[from as usize] = self.stamp;
        let mut head = 0;
        while head < self.queue.len() {
            let (sq, d) = self.queue[head];
            head += 1;
            for dir in Dir::ALL {
                let Some(n) = self.next(sq, dir) else { continue };
                if boxes[n as usize] || self.seen[n as usize] == self.stamp {
                    continue;
                }
                if n == to {
                    return Some(d + 1);
                }
                self.seen[n as usize] = self.stamp;
                self.queue.push((n, d + 1));
            }
        }
        None
    }

    /// Makes `push` from `at` (walking first); false if it is illegal.
    fn push(&mut self, at: &mut Snapshot, push: PushAt) -> bool {
        let (Some(to), Some(stand)) = (self.next(push.from, push.dir), self.next(push.from, push.dir.opposite()))
        else {
            return false;
        };
        if !at.boxes[push.from as usize] || at.boxes[to as usize] {
            return false;
        }
        let Some(walk) = self.walk(&at.boxes, at.player, stand) else { return false };
        at.boxes[push.from as usize] = false;
        at.boxes[to as usize] = true;
        at.player = push.from;
        at.moves += walk + 1;
        true
    }

    /// The moves of `pushes` made from `at` (which it changes), or `None` when a push is illegal
    /// or the moves would reach `bound` (every push left costs at least one move).
    fn moves(&mut self, at: &mut Snapshot, pushes: &[PushAt], bound: u32) -> Option<u32> {
        for (i, &p) in pushes.iter().enumerate() {
            if !self.push(at, p) || at.moves + (pushes.len() - i - 1) as u32 >= bound {
                return None;
            }
        }
        Some(at.moves)
    }

    /// The snapshots before each push of `pushes` and after the last, from the level's start;
    /// `None` if a push is illegal.
    fn snapshots(&mut self, pushes: &[PushAt]) -> Option<Vec<Snapshot>> {
        let mut boxes = vec![false; self.level.square_count()];
        for b in self.level.boxes() {
            boxes[b.index()] = true;
        }
        let mut at = Snapshot { boxes, player: self.level.player().index() as u32, moves: 0 };
        let mut out = Vec::with_capacity(pushes.len() + 1);
        for &p in pushes {
            out.push(at.clone());
            if !self.push(&mut at, p) {
                return None;
            }
        }
        out.push(at);
        Some(out)
    }

    /// The LURD of `pushes` with shortest walks.
    fn lurd(&mut self, pushes: &[PushAt]) -> Option<String> {
        let mut pos = Position::start(self.level);
        let mut moves = Vec::new();
        for &p in pushes {
            let stand = self.next(p.from, p.dir.opposite())?;
            let boxes: Vec<bool> = (0..self.level.square_count()).map(|s| pos.has_box(Square::new(s))).collect();
            for dir in self.path(&boxes, pos.player().index() as u32, stand)? {
                let (next, mv) = pos.step(self.level, dir).ok()?;
                moves.push(mv);
                pos = next;
            }
            let (next, mv) = pos.step(self.level, p.dir).ok()?;
            if !mv.push {
                return None;
            }
            moves.push(mv);
            pos = next;
        }
        Some(crate::lurd::encode(&moves))
    }

    /// A shortest walk from `from` to `to` around `boxes`, as directions.
    fn path(&self, boxes: &[bool], from: u32, to: u32) -> Option<Vec<Dir>> {
        let n = self.level.square_count();
        let mut came: Vec<Option<(u32, Dir)>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = std::collections::VecDeque::from([from]);
        seen[from as usize] = true;
        while let Some(sq) = queue.pop_front() {
            if sq == to {
                let mut dirs = Vec::new();
                let mut s = to;
                while let Some((p, d)) = came[s as usize] {
                    dirs.push(d);
                    s = p;
                }
                dirs.reverse();
                return Some(dirs);
            }
            for dir in Dir::ALL {
                let Some(nx) = self.next(sq, dir) else { continue };
                if boxes[nx as usize] || seen[nx as usize] {
                    continue;
                }
                seen[nx as usize] = true;
                came[nx as usize] = Some((sq, dir));
                queue.push_back(nx);
            }
        }
        None
    }
}

/// The pushes of a valid solution, in order.
fn pushes_of(level: &Level, letters: &[crate::lurd::Letter]) -> Option<Vec<PushAt>> {
    let mut pos = Position::start(level);
    let mut out = Vec::new();
    for l in letters {
        let (next, mv) = pos.step(level, l.dir).ok()?;
        if mv.push {
            let from = level.neighbor(pos.player(), l.dir)?;
            out.push(PushAt { from: from.index() as u32, dir: l.dir });
        }
        pos = next;
    }
    Some(out)
}

/// The box sessions of `pushes` as index ranges: runs of pushes that each move the box the one
/// before moved.
fn sessions(level: &Level, pushes: &[PushAt]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (i, p) in pushes.iter().enumerate() {
        let goes_on = i > 0 && {
            let q = pushes[i - 1];
            level.neighbor(Square::new(q.from as usize), q.dir).is_some_and(|s| s.index() as u32 == p.from)
        };
        match out.last_mut() {
            Some(last) if goes_on => last.1 = i + 1,
            _ => out.push((i, i + 1)),
        }
    }
    out
}

/// Improves the push order of a valid solution: moves a box session (a run of pushes of one
/// box), or its first or last part, to another place between sessions where that makes the
/// whole solution legal and shorter (walks between pushes taken shortest), as long as one such
/// move helps. The pushes stay the same, so only the moves can fall. A local search, exact for
/// nothing; returns the LURD and whether it ran to its end (false: `stop` said stop).
fn reorder(level: &Level, lurd: &str, stop: &mut dyn FnMut() -> bool) -> Option<(String, bool)> {
    let letters = crate::lurd::decode(lurd).ok()?;
    let mut pushes = pushes_of(level, &letters)?;
    let mut r = Replayer::new(level);
    let mut snaps = r.snapshots(&pushes)?;
    let mut best = snaps.last()?.moves;
    let mut candidate: Vec<PushAt> = Vec::with_capacity(pushes.len());
    let mut complete = true;
    'improve: loop {
        let runs = sessions(level, &pushes);
        // The blocks to move: each session, and each of its proper first and last parts.
        let mut blocks: Vec<(usize, usize)> = Vec::new();
        for &(a, b) in &runs {
            blocks.push((a, b));
            for m in a + 1..b {
                blocks.push((a, m));
                blocks.push((m, b));
            }
        }
        // The places: between two sessions (before the first, after the last).
        let bounds: Vec<usize> = runs.iter().map(|r| r.0).chain([pushes.len()]).collect();
        for &(a, b) in &blocks {
            if stop() {
                complete = false;
                break 'improve;
            }
            let len = b - a;
            let mut found: Option<(u32, usize)> = None;
            for &place in &bounds {
                // `place` is an index of the current order; the block goes just before it.
                if (a..=b).contains(&place) {
                    continue;
                }
                candidate.clear();
                let first = a.min(place);
                if place < a {
                    candidate.extend_from_slice(&pushes[place..b]);
                    candidate.rotate_left(a - place);
                } else {
                    candidate.extend_from_slice(&pushes[a..place]);
                    candidate.rotate_left(len);
                }
                let end = b.max(place);
                let mut at = snaps[first].clone();
                let bound = found.map_or(best, |f| f.0);
                let left = (pushes.len() - end) as u32;
                if r.moves(&mut at, &candidate, bound.saturating_sub(left)).is_none() {
                    continue;
                }
                if let Some(total) = r.moves(&mut at, &pushes[end..], bound) {
                    found = Some((total, place));
                }
            }
            if let Some((total, place)) = found {
                let block: Vec<PushAt> = pushes[a..b].to_vec();
                if place < a {
                    pushes.drain(a..b);
                    pushes.splice(place..place, block);
                } else {
                    pushes.splice(place..place, block);
                    pushes.drain(a..b);
                }
                snaps = r.snapshots(&pushes)?;
                debug_assert_eq!(snaps.last().map(|s| s.moves), Some(total));
                best = total;
                continue 'improve;
            }
        }
        break;
    }
    Some((r.lurd(&pushes)?, complete))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    #[test]
    fn removes_detours_and_never_worsens() {
        let level = parse_levels("#######\n#@ $ .#\n#     #\n#######\n").unwrap().remove(0);
        // A detour (down and back) and a push back and forth are removed.
        let out = optimize(&level, "drulrRlrR", Metric::Moves, Limits::default()).unwrap();
        assert!(out.improved);
        assert_eq!((out.lurd.as_str(), out.moves, out.pushes), ("rRR", 3, 2));
        // An optimal solution stays as it is.
        let same = optimize(&level, "rRR", Metric::Moves, Limits::default()).unwrap();
        assert!(!same.improved && same.lurd == "rRR");
        assert!(optimize(&level, "r", Metric::Moves, Limits::default()).is_err());
        assert!(optimize(&level, "x", Metric::Pushes, Limits::default()).is_err());
    }

    #[test]
    fn repeated_searches_go_further_and_stop_when_told() {
        let level = parse_levels("#######\n#@ $ .#\n#     #\n#######\n").unwrap().remove(0);
        let limits = Limits { radius: 3, ..Limits::default() };
        let out = optimize_repeated(&level, "drulrRlrR", Metric::Moves, limits, &mut || false).unwrap();
        assert_eq!((out.lurd.as_str(), out.improved, out.complete), ("rRR", true, true));
        let same = optimize_repeated(&level, "rRR", Metric::Pushes, limits, &mut || false).unwrap();
        assert_eq!((same.lurd.as_str(), same.improved, same.complete), ("rRR", false, true));
        // A stop at once keeps the given solution, not complete.
        let kept = optimize_repeated(&level, "drulrRlrR", Metric::Moves, limits, &mut || true).unwrap();
        assert_eq!((kept.lurd.as_str(), kept.improved, kept.complete), ("drulrRlrR", false, false));
        assert!(optimize_repeated(&level, "r", Metric::Moves, limits, &mut || false).is_err());
        // On real levels the repeated search is never worse than one search at radius 1.
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/microban.xsb")).unwrap();
        let config = crate::solver::Config {
            astar: crate::solver::AStarOptions { moves_tiebreak: false },
            ..crate::solver::Config::optimal(None)
        };
        for level in parse_levels(&text).unwrap().iter().take(12) {
            let given = crate::solver::solve(level, &config).unwrap();
            let one = optimize(level, &given.lurd, Metric::Pushes, Limits::default()).unwrap();
            let all = optimize_repeated(level, &given.lurd, Metric::Pushes, limits, &mut || false).unwrap();
            assert!(crate::verify::verify(level, &all.lurd).is_valid_solution());
            assert_eq!(all.pushes, given.pushes);
            assert!(key(Metric::Pushes, all.moves, all.pushes) <= key(Metric::Pushes, one.moves, one.pushes));
        }
    }

    #[test]
    fn pushes_metric_and_radius_zero() {
        let level = parse_levels("#######\n#@ $ .#\n#     #\n#######\n").unwrap().remove(0);
        let zero = Limits { radius: 0, ..Limits::default() };
        let out = optimize(&level, "drulrRlrR", Metric::Pushes, zero).unwrap();
        assert_eq!((out.lurd.as_str(), out.pushes, out.improved, out.complete), ("rRR", 2, true, true));
        // A deadline already past stops the search and keeps the given solution.
        let past = Limits { deadline: Some(Instant::now()), ..Limits::default() };
        let kept = optimize(&level, "drulrRlrR", Metric::Pushes, past).unwrap();
        assert!(kept.moves <= 9);
        // A state budget smaller than the solution's own path keeps it as given.
        let tiny = Limits { max_states: 1, ..Limits::default() };
        let kept = optimize(&level, "drulrRlrR", Metric::Pushes, tiny).unwrap();
        assert_eq!((kept.lurd.as_str(), kept.improved, kept.complete), ("drulrRlrR", false, false));
    }

    #[test]
    fn reordering_moves_whole_sessions() {
        // Box A is pushed twice, then box B all the way, then A the rest: the walks back and
        // forth cost two moves more than A all the way first, a push order five pushes away.
        let level = parse_levels("##########\n#@ $    .#\n#        #\n#  $    .#\n##########\n").unwrap().remove(0);
        let given = "rRRdlldRRRRRullluRRR";
        let out = reorder_pushes(&level, given, Metric::Pushes, None, &mut || false).unwrap();
        assert!(crate::verify::verify(&level, &out.lurd).is_valid_solution());
        assert_eq!((out.moves, out.pushes, out.improved, out.complete), (18, 10, true, true));
        // That is the proven fewest moves among push-optimal solutions.
        let proven = crate::solver::solve(&level, &crate::solver::Config::optimal(None)).unwrap();
        assert_eq!(proven.optimal, Some(crate::solver::Optimality::PushesMoves));
        assert_eq!((proven.moves.len(), proven.pushes), (out.moves, out.pushes));
        // Nothing left to reorder; the moves metric agrees; a stop at once keeps the given one.
        let again = reorder_pushes(&level, &out.lurd, Metric::Moves, None, &mut || false).unwrap();
        assert_eq!((again.lurd.as_str(), again.improved, again.complete), (out.lurd.as_str(), false, true));
        let kept = reorder_pushes(&level, given, Metric::Pushes, None, &mut || true).unwrap();
        assert_eq!((kept.lurd.as_str(), kept.improved, kept.complete), (given, false, false));
        assert!(reorder_pushes(&level, "rRR", Metric::Pushes, None, &mut || false).is_err());
        // The repeated search reaches it too (its vicinity searches alone do not).
        let repeated = optimize_repeated(&level, given, Metric::Pushes, Limits::default(), &mut || false).unwrap();
        assert_eq!((repeated.moves, repeated.pushes, repeated.complete), (18, 10, true));
    }
}
