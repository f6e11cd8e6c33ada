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

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::time::Instant;

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
}

impl Default for Limits {
    fn default() -> Self {
        Limits { radius: 1, max_configs: 50_000, max_states: 16_000_000, deadline: None }
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

/// The vicinity search repeated: at radius 1 as long as it improves (each time around the better
/// solution), then at radius 2, and so on up to `limits.radius`, going back to radius 1 after
/// each improvement at a larger radius (small searches first: each costs far less than the next
/// radius). Stops at the deadline or when `stop` returns true, keeping the best solution found;
/// `complete` says whether every radius was searched to its end around the final solution.
pub fn optimize_repeated(
    level: &Level,
    lurd: &str,
    metric: Metric,
    limits: Limits,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Optimized, OptimizeError> {
    let mut best = optimize_within(level, lurd, metric, Limits { radius: limits.radius.min(1), ..limits }, stop)?;
    let mut radius = if best.improved { 1 } else { 2 };
    while radius <= limits.radius {
        if limits.deadline.is_some_and(|d| Instant::now() >= d) || stop() {
            best.complete = false;
            break;
        }
        let out = optimize_within(level, &best.lurd, metric, Limits { radius, ..limits }, stop)?;
        if out.improved {
            best = Optimized { improved: true, ..out };
            radius = 1;
        } else {
            best.complete &= out.complete;
            radius += 1;
        }
    }
    Ok(best)
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
    let given = Optimized {
        lurd: lurd.chars().filter(|c| !c.is_whitespace()).collect(),
        moves: report.moves,
        pushes: report.pushes,
        improved: false,
        complete: true,
    };
    let letters = crate::lurd::decode(lurd).map_err(|e| OptimizeError::Invalid(e.to_string()))?;
    let config_of = |p: &Position| -> Config { p.boxes().map(|s| s.index() as u32).collect() };
    // The core: the configurations the solution passes through.
    let mut ids: HashMap<Config, u32> = HashMap::new();
    let mut configs: Vec<Config> = Vec::new();
    let intern = |c: Config, ids: &mut HashMap<Config, u32>, configs: &mut Vec<Config>| -> u32 {
        *ids.entry(c.clone()).or_insert_with(|| {
            configs.push(c);
            (configs.len() - 1) as u32
        })
    };
    let mut pos = Position::start(level);
    intern(config_of(&pos), &mut ids, &mut configs);
    for l in &letters {
        let (next, mv) = pos.step(level, l.dir).map_err(|e| OptimizeError::Invalid(e.to_string()))?;
        if mv.push {
            intern(config_of(&next), &mut ids, &mut configs);
        }
        pos = next;
    }
    let nsq = level.square_count().max(1);
    let max_configs = limits.max_configs.min(limits.max_states / nsq);
    if configs.len() > max_configs {
        return Ok(Optimized { complete: false, ..given });
    }
    // The vicinity: configurations up to `radius` pushes from the core (player reachability is
    // not checked here; the search only takes legal steps).
    let mut frontier: Vec<u32> = (0..configs.len() as u32).collect();
    let mut stopped = false;
    for _ in 0..limits.radius {
        let mut next_frontier = Vec::new();
        for &id in &frontier {
            if stop() {
                return Ok(Optimized { complete: false, ..given });
            }
            let c = configs[id as usize].clone();
            for (i, &b) in c.iter().enumerate() {
                for dir in Dir::ALL {
                    let Some(to) = level.neighbor(Square::new(b as usize), dir) else { continue };
                    let Some(from) = level.neighbor(Square::new(b as usize), dir.opposite()) else { continue };
                    let to = to.index() as u32;
                    if c.binary_search(&to).is_ok() || c.binary_search(&(from.index() as u32)).is_ok() {
                        continue;
                    }
                    let mut n = c.clone();
                    n[i] = to;
                    n.sort_unstable();
                    if ids.contains_key(&n) {
                        continue;
                    }
                    if configs.len() >= max_configs {
                        stopped = true;
                        break;
                    }
                    next_frontier.push(intern(n, &mut ids, &mut configs));
                }
            }
        }
        frontier = next_frontier;
    }
    // Dijkstra over (configuration, player square).
    let states = configs.len() * nsq;
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
    let mut goal: Option<u32> = None;
    let mut pops = 0u64;
    while let Some(Reverse((cost, state))) = heap.pop() {
        if best[state as usize] != cost {
            continue;
        }
        let (cid, sq) = (state as usize / nsq, state as usize % nsq);
        if solved(&configs[cid]) {
            goal = Some(state);
            break;
        }
        pops += 1;
        if pops.is_multiple_of(4096) && (limits.deadline.is_some_and(|d| Instant::now() >= d) || stop()) {
            stopped = true;
            break;
        }
        for (d, dir) in Dir::ALL.into_iter().enumerate() {
            let Some(to) = level.neighbor(Square::new(sq), dir) else { continue };
            let t = to.index() as u32;
            let c = &configs[cid];
            let (ncid, push) = match c.binary_search(&t) {
                Err(_) => (cid, false),
                Ok(i) => {
                    let Some(beyond) = level.neighbor(to, dir) else { continue };
                    let bb = beyond.index() as u32;
                    if c.binary_search(&bb).is_ok() {
                        continue;
                    }
                    let mut n = c.clone();
                    n[i] = bb;
                    n.sort_unstable();
                    match ids.get(&n) {
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
    let Some(goal) = goal else { return Ok(Optimized { complete: false, ..given }) };
    let mut dirs = Vec::new();
    let mut s = goal as usize;
    while s != start {
        let (p, d) = parent[s];
        dirs.push(Dir::ALL[d as usize]);
        s = p as usize;
    }
    dirs.reverse();
    let mut pos = Position::start(level);
    let mut moves = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let Ok((next, mv)) = pos.step(level, dir) else { return Ok(given) };
        moves.push(mv);
        pos = next;
    }
    let found = crate::lurd::encode(&moves);
    let check = crate::verify::verify(level, &found);
    let better = key(metric, check.moves, check.pushes) < key(metric, given.moves, given.pushes);
    if check.is_valid_solution() && better {
        Ok(Optimized { lurd: found, moves: check.moves, pushes: check.pushes, improved: true, complete: !stopped })
    } else {
        Ok(Optimized { complete: !stopped, ..given })
    }
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
        let config = crate::solver::Config { moves_tiebreak: false, ..crate::solver::Config::default() };
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
}
