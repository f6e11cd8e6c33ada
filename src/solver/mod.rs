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
pub mod bound;
pub mod budget;
pub mod corral;
pub mod deadlock;
pub mod expand;
pub mod frozen;
pub mod hungarian;
pub mod open;
pub mod report;
pub mod state;
pub mod store;
pub mod successors;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;

use crate::analysis::Analysis;
use crate::level::Level;
use crate::rules::Move;
pub use report::{Status, Summary};

/// What the user asks for: an objective and the engine that pursues it (see
/// [`Mode::plan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Fewest pushes, proven (A*).
    #[default]
    Pushes,
    /// Fewest moves, then fewest pushes, proven (A*).
    Moves,
    /// Least total cost, proven (A*).
    Cost,
    /// Fewest moves by breadth-first search over unit moves (the textbook baseline).
    Bfs,
}

/// What a search minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Objective {
    /// Box pushes.
    Pushes,
    /// Player moves, then pushes.
    Moves,
    /// 1 per move plus the pushed box's weight per push.
    Cost,
}

/// How a search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// A* over pushes with a consistent lower bound ([`astar`]): proves its objective.
    AStar,
    /// Breadth-first search over unit moves ([`bfs`]): proves the fewest moves.
    Bfs,
}

impl Mode {
    /// The engine and objective of this mode.
    pub fn plan(self) -> (Engine, Objective) {
        match self {
            Mode::Pushes => (Engine::AStar, Objective::Pushes),
            Mode::Moves => (Engine::AStar, Objective::Moves),
            Mode::Cost => (Engine::AStar, Objective::Cost),
            Mode::Bfs => (Engine::Bfs, Objective::Moves),
        }
    }
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
    /// What to minimise and with which engine.
    pub mode: Mode,
    /// The lower bound of the A* engine.
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
            // Half the physical memory (see `crate::system`), so a search never swaps by default.
            memory_limit: Some(crate::system::default_memory_limit()),
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
    /// States expanded (their pushes generated).
    pub expanded: u64,
    /// Pushes that survived pruning.
    pub generated: u64,
    /// Generated states already stored (and not improved).
    pub duplicates: u64,
    /// Pushes onto dead squares.
    pub pruned_dead_square: u64,
    /// Pushes that froze a box off its goal.
    pub pruned_freeze: u64,
    /// Pushes that closed a 2×2 block of boxes and walls off goals.
    pub pruned_2x2: u64,
    /// States with no box-to-goal matching.
    pub pruned_no_matching: u64,
    /// Expansions restricted to the pushes of a PI-corral's barrier boxes.
    pub corral_cuts: u64,
    /// Distance tables built for sets of boxes frozen on goals.
    pub frozen_tables: u64,
    /// States stored when the search ended.
    pub stored_states: u64,
    /// Bytes of search memory per stored state (keys, nodes, closed table, open list).
    pub bytes_per_state: f64,
    /// Largest search memory seen, in bytes.
    pub peak_bytes: u64,
    /// Search time in seconds.
    pub seconds: f64,
}

/// What a returned solution is proven to minimise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimality {
    /// Fewest pushes.
    Pushes,
    /// Fewest moves (then pushes).
    Moves,
    /// Least total cost.
    Cost,
}

impl Optimality {
    /// The name used in reports (`pushes`, `moves`, `cost`).
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
    /// The moves, pushes included.
    pub moves: Vec<Move>,
    /// The moves in LURD.
    pub lurd: String,
    /// Pushes among the moves.
    pub pushes: usize,
    /// Total cost: each move 1, each push plus the pushed box's weight.
    pub cost: u64,
    /// What the solution is proven to minimise; `None` when nothing is proven.
    pub optimal: Option<Optimality>,
    /// Counters of the search.
    pub stats: Stats,
}

/// Why no solution was returned.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SolveError {
    /// The whole reachable state space was searched: no solution exists.
    #[error("unsolvable: the whole reachable state space was searched")]
    Unsolvable(Stats),
    #[error("time limit reached")]
    /// The time limit passed.
    Timeout(Stats),
    #[error("memory limit reached")]
    /// The memory limit would have been exceeded.
    MemoryLimit(Stats),
    #[error("node limit reached")]
    /// More states than the node limit allowed were expanded.
    NodeLimit(Stats),
    #[error("cancelled")]
    /// The cancel flag was set.
    Cancelled(Stats),
    /// The engine returned a solution that the independent verifier rejected (a bug).
    #[error("internal error: the solution found failed verification")]
    Unverified(Stats),
}

impl SolveError {
    /// Counters of the search up to the stop.
    pub fn stats(&self) -> &Stats {
        match self {
            SolveError::Unsolvable(s)
            | SolveError::Timeout(s)
            | SolveError::MemoryLimit(s)
            | SolveError::NodeLimit(s)
            | SolveError::Cancelled(s)
            | SolveError::Unverified(s) => s,
        }
    }
    /// The status this error reports.
    pub fn status(&self) -> Status {
        match self {
            SolveError::Unsolvable(_) => Status::Unsolvable,
            SolveError::Timeout(_) => Status::Timeout,
            SolveError::MemoryLimit(_) => Status::MemoryLimit,
            SolveError::NodeLimit(_) => Status::NodeLimit,
            SolveError::Cancelled(_) => Status::Cancelled,
            SolveError::Unverified(_) => Status::Invalid,
        }
    }
}

/// Solves a level under `config`. Every solution returned has been replayed by the
/// independent verifier ([`crate::verify`]); an engine answer that fails the replay is reported
/// as [`SolveError::Unverified`], never returned.
pub fn solve(level: &Level, config: &Config) -> Result<Solution, SolveError> {
    let (engine, objective) = config.mode.plan();
    let solution = match engine {
        Engine::Bfs => bfs::solve(level, config)?,
        Engine::AStar => {
            let analysis = Analysis::new(level);
            astar::solve(level, &analysis, config, objective)?
        }
    };
    if crate::verify::verify(level, &solution.lurd).is_valid_solution() {
        Ok(solution)
    } else {
        Err(SolveError::Unverified(solution.stats))
    }
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
