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

/// [`Mode::Auto`]'s share of the limits for the first A* run, as a divisor; the fast engine
/// gets what is left.
const AUTO_SHARE: u32 = 10;
/// Without a time limit, each A* run of [`Mode::Auto`] expands at most this many states.
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
/// 1. A* under a tenth of the limits: levels whose proof is quick are done (the proof of the
///    fewest moves among them, which follows, gets the whole limits).
/// 2. Otherwise the fast engine with what is left; a solution it finds goes to A* again,
///    from scratch, with the rest of the limits and the solution's pushes as a bound (states
///    that cannot do better are dropped, so a search that runs dry proves the fast solution
///    push-optimal), which replaces it with a proven one when it ends in time (else the fast
///    solution is returned, `optimal` null).
///
/// The reported counters are those of every run added up (the returned solution's search and
/// the ones before it), and the seconds are the whole solve's.
///
/// Measured against the previous order (the fast engine for a tenth, then A* for an eighth,
/// then the fast engine from scratch): the fast engine's last run had about three quarters of
/// the time and now has nine tenths (XSokoban at 10 s: 63 → 65). The price: A*'s second try
/// starts from scratch after its first tenth, so a proof that needs nearly all the time can
/// be lost unless the fast engine finds a solution at once (Microban II 115 and 120 were lost
/// in round seven; since the fast engine's backward search finds theirs within its first
/// second, A* proves them again, and every level `--mode pushes` proves at 10 s is proven by
/// `auto`: BENCHMARKS.md, round eight).
fn auto(
    level: &Level,
    analysis: &Analysis,
    config: &Config,
    started: std::time::Instant,
) -> Result<Solution, SolveError> {
    let share = |divisor: u32, nodes_without_limit: u64| Config {
        time_limit: config.time_limit.map(|t| t / divisor),
        memory_limit: config.memory_limit.map(|m| m / divisor as usize),
        node_limit: match (config.time_limit, config.node_limit) {
            (_, Some(n)) => Some((n / u64::from(divisor)).max(1)),
            (None, None) => Some(nodes_without_limit),
            (Some(_), None) => None,
        },
        ..config.clone()
    };
    // The counters of the runs before the last, added to what the last one reports, so the
    // nodes shown are all the work done (a fast solution that A* could not prove counts A*'s
    // nodes too); the time is the whole solve's.
    let mut spent = Stats::default();
    let finish = |spent: &Stats, mut result: Result<Solution, SolveError>| {
        let stats = match &mut result {
            Ok(s) => &mut s.stats,
            Err(e) => e.stats_mut(),
        };
        stats.add(spent);
        stats.seconds = started.elapsed().as_secs_f64();
        result
    };
    // A solution of the fast engine is proven (or improved on) by A* with the rest of the
    // limits: A*'s clock is the solve's.
    let prove = |mut spent: Stats, found: Solution| {
        let proving = Config {
            mode: Mode::Pushes,
            node_limit: config.node_limit.or(config.time_limit.map_or(Some(AUTO_NODES), |_| None)),
            ..config.clone()
        };
        match astar::prove_pushes(level, analysis, &proving, found.clone(), started) {
            // The proof replaces the fast solution; the fast engine's nodes still count.
            Ok(proven) => {
                spent.add(&found.stats);
                finish(&spent, Ok(proven))
            }
            // Not proven within the limits: the fast solution, A*'s nodes counted too.
            Err(e) => {
                spent.add(e.stats());
                finish(&spent, Ok(found))
            }
        }
    };
    // The proof gets a share; a proof found within it gets the rest for the fewest moves.
    let proving = Config { mode: Mode::Pushes, ..share(AUTO_SHARE, AUTO_NODES) };
    let polishing = Config { mode: Mode::Pushes, ..config.clone() };
    match astar::pushes_then_moves(level, analysis, &proving, &polishing, started) {
        Ok(solution) => return finish(&spent, Ok(solution)),
        Err(
            e @ (SolveError::Unsolvable(_)
            | SolveError::Cancelled(_)
            | SolveError::Unverified(_)
            | SolveError::WrongWeights { .. }),
        ) => return finish(&spent, Err(e)),
        Err(e @ (SolveError::Timeout(_) | SolveError::MemoryLimit(_) | SolveError::NodeLimit(_))) => {
            spent.add(e.stats())
        }
    }
    let rest = Config {
        mode: Mode::Fast,
        time_limit: config.time_limit.map(|t| t.saturating_sub(started.elapsed())),
        ..config.clone()
    };
    match fast::solve(level, analysis, &rest) {
        // A* from scratch with what is left: a proof that needed more than A*'s tenth
        // (Microban 139: 3.1 s at 10 s per level) can still come.
        Ok(found) => prove(spent, found),
        other => finish(&spent, other),
    }
}
