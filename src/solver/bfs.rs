//! The textbook baseline: breadth-first search over unit moves with a visited set, pushes tried
//! before walks, and only corner deadlocks pruned. Kept to measure the real search against, and
//! as an oracle for move-optimal solutions on small levels.

use std::collections::VecDeque;
use std::time::Instant;

use hashbrown::HashMap;

use super::{Config, Optimality, Solution, SolveError, Stats, cost_of};
use crate::level::{Dir, Level, SolvedRule, Square};
use crate::rules::{Move, Position};

/// A non-goal square with walls on two perpendicular sides: a box there can never leave.
fn is_dead_corner(level: &Level, s: Square) -> bool {
    let wall = |d| level.neighbor(s, d).is_none();
    !level.is_goal(s) && (wall(Dir::Up) || wall(Dir::Down)) && (wall(Dir::Left) || wall(Dir::Right))
}

/// Breadth-first search over unit moves.
pub fn solve(level: &Level, config: &Config) -> Result<Solution, SolveError> {
    let started = Instant::now();
    let mut stats = Stats::default();
    let prune = !(level.rule() == SolvedRule::AllGoalsCovered && level.boxes().len() > level.goals().len());
    let start = Position::start(level);
    let mut parent: HashMap<Position, Option<(Position, Move)>> = HashMap::new();
    parent.insert(start.clone(), None);
    let mut queue = VecDeque::from([start]);
    let mut found = None;
    while let Some(pos) = queue.pop_front() {
        if pos.is_solved(level) {
            found = Some(pos);
            break;
        }
        stats.expanded += 1;
        if stats.expanded % 1024 == 0 {
            let bytes = parent.capacity() * 64 + queue.capacity() * 48;
            stats.peak_bytes = stats.peak_bytes.max(bytes as u64);
            if config.time_limit.is_some_and(|t| started.elapsed() >= t) {
                stats.stored_states = parent.len() as u64;
                stats.seconds = started.elapsed().as_secs_f64();
                return Err(SolveError::Timeout(stats));
            }
            if config.memory_limit.is_some_and(|m| bytes > m) {
                stats.stored_states = parent.len() as u64;
                return Err(SolveError::MemoryLimit(stats));
            }
            if config.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
                return Err(SolveError::Cancelled(stats));
            }
            if let Some(p) = &config.progress {
                p.store(stats.expanded, std::sync::atomic::Ordering::Relaxed);
            }
        }
        if config.node_limit.is_some_and(|l| stats.expanded > l) {
            return Err(SolveError::NodeLimit(stats));
        }
        let mut succ = pos.successors(level);
        // Pushes first (stable, so each group keeps the up, right, down, left order).
        succ.sort_by_key(|(m, _)| !m.push);
        for (mv, next) in succ {
            if mv.push && prune {
                let landed = level.neighbor(next.player(), mv.dir).expect("a pushed box is on a square");
                if is_dead_corner(level, landed) {
                    stats.pruned_dead_square += 1;
                    continue;
                }
            }
            stats.generated += 1;
            if parent.contains_key(&next) {
                stats.duplicates += 1;
                continue;
            }
            parent.insert(next.clone(), Some((pos.clone(), mv)));
            queue.push_back(next);
        }
    }
    stats.stored_states = parent.len() as u64;
    stats.seconds = started.elapsed().as_secs_f64();
    let Some(mut at) = found else { return Err(SolveError::Unsolvable(stats)) };
    let mut moves = Vec::new();
    while let Some(Some((prev, mv))) = parent.get(&at) {
        moves.push(*mv);
        at = prev.clone();
    }
    moves.reverse();
    let weights = config.weights.clone().unwrap_or_else(|| level.weights().to_vec());
    Ok(Solution {
        lurd: crate::lurd::encode(&moves),
        pushes: moves.iter().filter(|m| m.push).count(),
        cost: cost_of(level, &weights, &moves),
        moves,
        optimal: Some(Optimality::Moves),
        stats,
    })
}
