//! Solvers. One static [`Analysis`] per level, one state representation, several engines.
//!
//! [`solve`] is the entry point. The A* engine in [`astar`] searches over pushes: a state is
//! the set of boxes (bitsets over live squares, one per box-weight class) plus the player's
//! square, normalised to the lowest index of the player's reachable region when only pushes
//! count. Closed-set entries hold full state keys in an arena, never just a hash, so a solution
//! reported as optimal is proven optimal. The modes differ only in edge costs and heuristic
//! scale:
//!
//! | mode | edge cost | proves |
//! |---|---|---|
//! | [`Mode::Pushes`] | 1 per push | fewest pushes |
//! | [`Mode::Moves`] | walk + 1, ties broken by pushes | fewest moves, then pushes |
//! | [`Mode::Cost`] | walk + 1 + weight of the pushed box | least total cost |
//! | [`Mode::Bfs`] | breadth-first over unit moves (the textbook baseline) | fewest moves |
//!
//! ```
//! use sokoban::format::parse_levels;
//! use sokoban::solver::{solve, Config};
//!
//! let level = parse_levels("#######\n#@ $ .#\n#######\n")?.remove(0);
//! let solution = solve(&level, &Config::default()).expect("solvable");
//! assert_eq!(solution.lurd, "rRR");
//! assert_eq!(solution.pushes, 2);
//! // Every solution can be replayed by the independent verifier.
//! assert!(sokoban::verify::verify(&level, &solution.lurd).is_valid_solution());
//! # Ok::<(), sokoban::Error>(())
//! ```

pub mod astar;
pub mod bfs;
pub mod corral;
pub mod deadlock;
pub mod expand;
pub mod fast;
pub mod frozen;
pub mod hungarian;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;

use crate::analysis::Analysis;
use crate::level::Level;
use crate::rules::Move;

/// What to minimise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    #[default]
    Pushes,
    Moves,
    Cost,
    Bfs,
    /// The fast engine ([`fast`]): a feature-space search that finds a solution, not proven
    /// optimal.
    Fast,
    /// The pushes-mode A* for a quarter of the time and memory limits, then the fast engine
    /// with what is left; optimal only when the A* part proved it.
    Auto,
}

/// The lower bound used by the A* modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Heuristic {
    /// No bound: uniform-cost search.
    Zero,
    /// Boxes off goals (each needs at least one push).
    Boxes,
    /// Minimum-cost matching of boxes to goals over the push-distance tables.
    #[default]
    Hungarian,
}

/// Limits and options of one solve.
#[derive(Debug, Clone)]
pub struct Config {
    pub mode: Mode,
    pub heuristic: Heuristic,
    /// Give up after this long.
    pub time_limit: Option<Duration>,
    /// Give up before the stored states (keys, nodes, tables, open list) exceed this many bytes.
    pub memory_limit: Option<usize>,
    /// Give up after expanding this many states.
    pub node_limit: Option<u64>,
    /// Set to true from another thread to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
    /// If given, the search stores its expanded-state count here every few hundred expansions,
    /// so another thread can show progress.
    pub progress: Option<Arc<AtomicU64>>,
    /// Box weights for [`Mode::Cost`] in reading order of the boxes; `None` uses the level's.
    pub weights: Option<Vec<u32>>,
    /// Prune with PI-corrals in the pushes mode (see [`corral`]); on by default. It keeps
    /// push-optimality; turning it off is for measuring its effect.
    pub corral_pruning: bool,
    /// Treat boxes frozen on goals as walls in the matching bound (see [`frozen`]); on by
    /// default. It keeps optimality; turning it off is for measuring its effect.
    pub frozen_goals: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            mode: Mode::default(),
            heuristic: Heuristic::default(),
            time_limit: None,
            memory_limit: None,
            node_limit: None,
            cancel: None,
            progress: None,
            weights: None,
            corral_pruning: true,
            frozen_goals: true,
        }
    }
}

/// Counters of one search.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    pub expanded: u64,
    pub generated: u64,
    pub duplicates: u64,
    pub pruned_dead_square: u64,
    pub pruned_freeze: u64,
    pub pruned_2x2: u64,
    pub pruned_no_matching: u64,
    /// States of the fast engine found to be corral deadlocks (see `fast::corral`).
    pub pruned_corral: u64,
    /// Expansions restricted to the pushes of a PI-corral's barrier boxes.
    pub corral_cuts: u64,
    /// Distance tables built for sets of boxes frozen on goals.
    pub frozen_tables: u64,
    pub stored_states: u64,
    /// Bytes of search memory per stored state (keys, nodes, closed table, open list).
    pub bytes_per_state: f64,
    /// Largest search memory seen, in bytes.
    pub peak_bytes: u64,
    pub seconds: f64,
}

/// What a returned solution is proven to minimise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimality {
    Pushes,
    Moves,
    Cost,
}

impl Optimality {
    pub fn name(self) -> &'static str {
        match self {
            Optimality::Pushes => "pushes",
            Optimality::Moves => "moves",
            Optimality::Cost => "cost",
        }
    }
}

/// A solution and how it was found.
#[derive(Debug, Clone)]
pub struct Solution {
    pub moves: Vec<Move>,
    pub lurd: String,
    pub pushes: usize,
    /// Total cost: each move 1, each push plus the pushed box's weight.
    pub cost: u64,
    pub optimal: Option<Optimality>,
    pub stats: Stats,
}

/// Why no solution was returned.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SolveError {
    /// The whole reachable state space was searched: no solution exists.
    #[error("unsolvable: the whole reachable state space was searched")]
    Unsolvable(Stats),
    #[error("time limit reached")]
    Timeout(Stats),
    #[error("memory limit reached")]
    MemoryLimit(Stats),
    #[error("node limit reached")]
    NodeLimit(Stats),
    #[error("cancelled")]
    Cancelled(Stats),
}

impl SolveError {
    pub fn stats(&self) -> &Stats {
        match self {
            SolveError::Unsolvable(s)
            | SolveError::Timeout(s)
            | SolveError::MemoryLimit(s)
            | SolveError::NodeLimit(s)
            | SolveError::Cancelled(s) => s,
        }
    }
    /// The short status name used in reports (`unsolvable`, `timeout`, `memory-limit`, …).
    pub fn status(&self) -> &'static str {
        match self {
            SolveError::Unsolvable(_) => "unsolvable",
            SolveError::Timeout(_) => "timeout",
            SolveError::MemoryLimit(_) => "memory-limit",
            SolveError::NodeLimit(_) => "node-limit",
            SolveError::Cancelled(_) => "cancelled",
        }
    }
}

/// Solves a level under `config`.
pub fn solve(level: &Level, config: &Config) -> Result<Solution, SolveError> {
    match config.mode {
        Mode::Bfs => bfs::solve(level, config),
        Mode::Fast => fast::solve(level, &Analysis::new(level), config),
        Mode::Auto => auto(level, config),
        _ => {
            let analysis = Analysis::new(level);
            astar::solve(level, &analysis, config)
        }
    }
}

/// The share of the limits the proving A* gets in [`Mode::Auto`], as a divisor.
const AUTO_SHARE: u32 = 4;
/// The A* part of [`Mode::Auto`] expands at most this many states when no time limit is set.
const AUTO_NODES: u64 = 200_000;

/// [`Mode::Auto`]: try to prove with A* under a share of the limits, then search fast.
fn auto(level: &Level, config: &Config) -> Result<Solution, SolveError> {
    let started = std::time::Instant::now();
    let analysis = Analysis::new(level);
    let proving = Config {
        mode: Mode::Pushes,
        time_limit: config.time_limit.map(|t| t / AUTO_SHARE),
        memory_limit: config.memory_limit.map(|m| m / AUTO_SHARE as usize),
        node_limit: match (config.time_limit, config.node_limit) {
            (_, Some(n)) => Some(n / u64::from(AUTO_SHARE)),
            (None, None) => Some(AUTO_NODES),
            (Some(_), None) => None,
        },
        ..config.clone()
    };
    match astar::solve(level, &analysis, &proving) {
        Ok(solution) => return Ok(solution),
        Err(e @ (SolveError::Unsolvable(_) | SolveError::Cancelled(_))) => return Err(e),
        Err(_) => {}
    }
    let rest = Config {
        mode: Mode::Fast,
        time_limit: config.time_limit.map(|t| t.saturating_sub(started.elapsed())),
        ..config.clone()
    };
    let mut result = fast::solve(level, &analysis, &rest);
    // Report the whole time spent.
    let seconds = started.elapsed().as_secs_f64();
    match &mut result {
        Ok(s) => s.stats.seconds = seconds,
        Err(SolveError::Unsolvable(s) | SolveError::Timeout(s) | SolveError::MemoryLimit(s))
        | Err(SolveError::NodeLimit(s) | SolveError::Cancelled(s)) => s.seconds = seconds,
    }
    result
}

/// Total cost of a move sequence: 1 per move plus the weight of each pushed box.
pub fn cost_of(level: &Level, weights: &[u32], moves: &[Move]) -> u64 {
    // Track which box is where, by index into the level's box list.
    let mut owner: Vec<Option<usize>> = vec![None; level.square_count()];
    for (i, b) in level.boxes().iter().enumerate() {
        owner[b.index()] = Some(i);
    }
    let mut player = level.player();
    let mut cost = 0u64;
    for m in moves {
        let Some(next) = level.neighbor(player, m.dir) else { break };
        cost += 1;
        if let Some(bi) = owner[next.index()]
            && let Some(beyond) = level.neighbor(next, m.dir)
        {
            owner[beyond.index()] = Some(bi);
            owner[next.index()] = None;
            cost += u64::from(weights.get(bi).copied().unwrap_or(0));
        }
        player = next;
    }
    cost
}
