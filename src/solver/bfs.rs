//! The textbook baseline: breadth-first search over unit moves with a visited set, pushes tried
//! before walks, and only corner deadlocks pruned. Kept to measure the real search against, and
//! as an oracle for move-optimal solutions on small levels.

use std::collections::VecDeque;

use hashbrown::HashMap;

use super::budget::{Budget, Stop};
use super::config::Config;
use super::expand::cost_of;
use super::report::{Optimality, Solution, SolveError, Stats};
use crate::level::{Dir, Level, SolvedRule, Square};
use crate::rules::{Move, Position};

/// A non-goal square with walls on two perpendicular sides: a box there can never leave.
fn is_dead_corner(level: &Level, s: Square) -> bool {
    let wall = |d| level.neighbor(s, d).is_none();
    !level.is_goal(s) && (wall(Dir::Up) || wall(Dir::Down)) && (wall(Dir::Left) || wall(Dir::Right))
}

/// Bytes one stored position costs: the struct and its heap-allocated box bitset (with the
/// allocator's bookkeeping).
fn position_bytes(level: &Level) -> usize {
    std::mem::size_of::<Position>() + level.square_count().div_ceil(64) * 8 + 16
}

/// Frees the search's tables on a helper thread: millions of positions, each with its own heap
/// bitset, take seconds to free, and a time limit or Ctrl-C must not wait for that. Freed in
/// place if no thread can be started.
fn release<T: Send + 'static>(tables: T) {
    // On a spawn error the closure, and the tables with it, are dropped here.
    let _ = std::thread::Builder::new().name("bfs-free".into()).spawn(move || drop(tables));
}

/// Breadth-first search over unit moves.
pub fn solve(level: &Level, config: &Config) -> Result<Solution, SolveError> {
    let mut budget = Budget::new(config);
    let mut stats = Stats::default();
    let prune = !(level.rule() == SolvedRule::AllGoalsCovered && level.boxes().len() > level.goals().len());
    let start = Position::start(level);
    let mut parent: HashMap<Position, Option<(Position, Move)>> = HashMap::new();
    parent.insert(start.clone(), None);
    let mut queue = VecDeque::from([start]);
    let mut found = None;
    // A map entry holds two positions (the state and its parent), the queue one.
    let per_position = position_bytes(level);
    let bytes = |parent: &HashMap<Position, Option<(Position, Move)>>, queue: &VecDeque<Position>| {
        parent.capacity() * (std::mem::size_of::<(Position, Option<(Position, Move)>)>() + 1)
            + parent.len() * 2 * (per_position - std::mem::size_of::<Position>())
            + queue.capacity() * std::mem::size_of::<Position>()
            + queue.len() * (per_position - std::mem::size_of::<Position>())
    };
    while let Some(pos) = queue.pop_front() {
        if pos.is_solved(level) {
            found = Some(pos);
            break;
        }
        stats.expanded += 1;
        if let Err(stop) = budget.tick(stats.expanded) {
            let error = budget.error(stop, stats, parent.len(), bytes(&parent, &queue));
            release((parent, queue));
            return Err(error);
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
            let held = bytes(&parent, &queue);
            // Room for one more entry, and for the map to double when it is full.
            let growth = if parent.len() == parent.capacity() { held } else { 2 * per_position };
            if !budget.fits(held + growth) {
                let error = budget.error(Stop::Memory, stats, parent.len(), held);
                release((parent, queue));
                return Err(error);
            }
            parent.insert(next.clone(), Some((pos.clone(), mv)));
            queue.push_back(next);
        }
        stats.peak_bytes = stats.peak_bytes.max(bytes(&parent, &queue) as u64);
    }
    let held = bytes(&parent, &queue);
    let stats = budget.finish(stats, parent.len(), held);
    let Some(mut at) = found else {
        release((parent, queue));
        return Err(SolveError::Unsolvable(stats));
    };
    let mut moves = Vec::new();
    while let Some(Some((prev, mv))) = parent.get(&at) {
        moves.push(*mv);
        at = prev.clone();
    }
    moves.reverse();
    release((parent, queue));
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
