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
mod cuts;
pub mod deadlock;
pub mod exhaust;
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
        Engine::Fast => {
            let (analysis, started) = analysed(level, config)?;
            fast::solve_from(level, &analysis, config, started)?
        }
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

/// Without a time limit, [`Mode::Auto`]'s A* proof expands at most this many states.
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

/// [`Mode::Auto`]: a solution from the fast engine, proven optimal by A* when it can be.
///
/// 1. The fast engine under the whole limits, exactly as [`Mode::Fast`] runs it (its passes
///    split the limits the same way), until it finds a solution.
/// 2. A* with what is left and the solution's pushes as a bound: states that cannot do better
///    are dropped, so a search that runs dry proves the fast solution push-optimal (and the
///    fewest moves among push-optimal solutions follow, as in [`Mode::Pushes`]); a better
///    solution it finds is proven as usual. When the limits stop it, the fast solution is the
///    answer, `optimal` null.
///
/// The reported counters are those of both runs added up, and the seconds are the whole
/// solve's.
///
/// Measured against the previous order (A* for a tenth of the limits first, then the fast
/// engine with what was left, then A* from scratch): every level that order solved at 10 s on
/// Microban, Microban II, XSokoban and Sasquatch the fast engine alone solves too, and the
/// levels A* proved within its tenth the fast engine solves within milliseconds, after which
/// the proof has nearly the whole limit instead of a tenth and then a fresh start. The first
/// tenth had cost the fast engine's first pass the levels it solves near its own limit
/// (XSokoban 21: 74 or 75 from run to run; BENCHMARKS.md, round sixteen).
fn auto(
    level: &Level,
    analysis: &Analysis,
    config: &Config,
    started: std::time::Instant,
) -> Result<Solution, SolveError> {
    let fast_config = Config { mode: Mode::Fast, ..config.clone() };
    let found = match fast::solve_from(level, analysis, &fast_config, started) {
        // Rules the fast engine does not handle went to A*, which proved what it found.
        Ok(found) if found.optimal.is_some() => return Ok(found),
        Ok(found) => found,
        Err(e) => return Err(e),
    };
    // A* with the rest of the limits (its clock is the solve's); the fast engine's nodes
    // count in either answer.
    let proving = Config {
        mode: Mode::Pushes,
        node_limit: config.node_limit.or(config.time_limit.map_or(Some(AUTO_NODES), |_| None)),
        ..config.clone()
    };
    let (mut result, spent) = match astar::prove_pushes(level, analysis, &proving, found.clone(), started) {
        Ok(proven) => (proven, found.stats),
        // Not proven within the limits: the fast solution, A*'s nodes counted too.
        Err(e) => {
            let spent = e.stats().clone();
            (found, spent)
        }
    };
    result.stats.add(&spent);
    result.stats.seconds = started.elapsed().as_secs_f64();
    Ok(result)
}
