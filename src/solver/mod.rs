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
//! | [`Mode::Pushes`] | 1 per push; then (pushes, moves) over exact player squares, pushes capped | fewest pushes, then fewest moves among them (when the second pass ends within the limits) |
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
//! assert_eq!(solution.optimal, Some(sokoban::solver::Optimality::PushesMoves));
//! // Every solution can be replayed by the independent verifier.
//! assert!(sokoban::verify::verify(&level, &solution.lurd).is_valid_solution());
//! # Ok::<(), sokoban::Error>(())
//! ```

pub mod astar;
pub mod bfs;
pub mod bound;
pub mod budget;
pub mod config;
pub mod corral;
pub mod deadlock;
pub mod expand;
pub mod fast;
pub mod frozen;
pub mod hungarian;
pub mod open;
pub mod report;
pub mod state;
pub mod store;
pub mod successors;

use crate::analysis::Analysis;
use crate::level::Level;
pub use config::{Config, Engine, Heuristic, Mode, Objective};
pub use expand::cost_of;
pub use report::{Optimality, Solution, SolveError, Stats, Status, Summary};

/// Solves a level under `config`. Every solution returned has been replayed by the
/// independent verifier ([`crate::verify`]); an engine answer that fails the replay is reported
/// as [`SolveError::Unverified`], never returned.
///
/// [`Config::weights`] must give one weight per box ([`SolveError::WrongWeights`] otherwise).
pub fn solve(level: &Level, config: &Config) -> Result<Solution, SolveError> {
    if let Some(weights) = &config.weights
        && weights.len() != level.boxes().len()
    {
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        let (given, boxes) = (count(weights.len()), count(level.boxes().len()));
        return Err(SolveError::WrongWeights { given, boxes, stats: Stats::default() });
    }
    let (engine, objective) = config.mode.plan();
    let solution = match engine {
        Engine::Bfs => bfs::solve(level, config)?,
        Engine::AStar => {
            let (analysis, started) = analysed(level, config)?;
            astar::solve_from(level, &analysis, config, objective, started)?
        }
        Engine::Fast => fast::solve(level, &analysed(level, config)?.0, config)?,
        Engine::Auto => {
            let (analysis, started) = analysed(level, config)?;
            auto(level, &analysis, config, started)?
        }
    };
    if crate::verify::verify(level, &solution.lurd).is_valid_solution() {
        Ok(solution)
    } else {
        Err(SolveError::Unverified(solution.stats))
    }
}

/// The share of the limits the proving A* gets in [`Mode::Auto`], as a divisor.
const AUTO_SHARE: u32 = 4;
/// The A* part of [`Mode::Auto`] expands at most this many states when no time limit is set.
const AUTO_NODES: u64 = 200_000;

/// The static analysis under the solve's limits (it can take long and much memory on a huge
/// level), and when the solve's clock started.
fn analysed(level: &Level, config: &Config) -> Result<(Analysis, std::time::Instant), SolveError> {
    let mut budget = budget::Budget::new(config);
    // The analysis's table and the bound's copy of it must fit before either is built.
    if !budget.fits(Analysis::bytes_for(level).saturating_mul(2)) {
        return Err(budget.error(budget::Stop::Memory, Stats::default(), 0, 0));
    }
    let analysis = Analysis::new_within(level, &mut budget.stop_check());
    match analysis {
        Some(analysis) => Ok((analysis, budget.started())),
        None => {
            let stop = budget.stop_reason();
            Err(budget.error(stop, Stats::default(), 0, 0))
        }
    }
}

/// [`Mode::Auto`]: try to prove with A* under a share of the limits, then search fast.
fn auto(
    level: &Level,
    analysis: &Analysis,
    config: &Config,
    started: std::time::Instant,
) -> Result<Solution, SolveError> {
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
    match astar::solve_from(level, analysis, &proving, Objective::Pushes, started) {
        Ok(solution) => return Ok(solution),
        Err(
            e @ (SolveError::Unsolvable(_)
            | SolveError::Cancelled(_)
            | SolveError::Unverified(_)
            | SolveError::WrongWeights { .. }),
        ) => return Err(e),
        Err(SolveError::Timeout(_) | SolveError::MemoryLimit(_) | SolveError::NodeLimit(_)) => {}
    }
    let rest = Config {
        mode: Mode::Fast,
        time_limit: config.time_limit.map(|t| t.saturating_sub(started.elapsed())),
        ..config.clone()
    };
    let mut result = fast::solve(level, analysis, &rest);
    // Report the whole time spent.
    let seconds = started.elapsed().as_secs_f64();
    match &mut result {
        Ok(s) => s.stats.seconds = seconds,
        Err(e) => e.stats_mut().seconds = seconds,
    }
    result
}
