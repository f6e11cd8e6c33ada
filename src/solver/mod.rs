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
//! | [`Mode::Auto`] (the default) | the fast engine, then A* over pushes bounded by what it found | fewest pushes, when the proof fits [`Config::proof`]'s allowance |
//! | [`Mode::Fast`] | macro moves in a feature space ([`fast`]) | nothing |
//! | [`Mode::Pushes`] | 1 per push; then (pushes, moves) over exact player squares, pushes capped | fewest pushes, then fewest moves among them (when the second pass ends within the limits) |
//! | [`Mode::Moves`] | walk + 1, ties broken by pushes | fewest moves, then pushes |
//! | [`Mode::Cost`] | walk + 1 + weight of the pushed box | least total cost |
//! | [`Mode::Bfs`] | breadth-first over unit moves (the textbook baseline) | fewest moves |
//!
//! [`Config::default`] answers as soon as a solution is found (after a short proof attempt),
//! under a finite time limit; [`Config::optimal`] spends its limit on a proof.
//!
//! ```
//! use sokoban::solver::{solve, Config};
//!
//! // The first XSokoban level: found in a fraction of a second, far within the default limit.
//! let level = sokoban::read_levels("data/xsokoban90.xsb")?.remove(0);
//! let solution = solve(&level, &Config::default())?;
//! // Every solution can be replayed by the independent verifier.
//! assert!(sokoban::verify::verify(&level, &solution.lurd).is_valid_solution());
//!
//! // A small level, proven: the fewest pushes, then the fewest moves among them.
//! let level = sokoban::format::parse_levels("#######\n#@ $ .#\n#######\n")?.remove(0);
//! let solution = solve(&level, &Config::optimal(None))?;
//! assert_eq!(solution.lurd, "rRR");
//! assert_eq!(solution.optimal, Some(sokoban::solver::Optimality::PushesMoves));
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
pub use config::{
    AStarOptions, CHEAP_PROOF_FLOOR, CHEAP_PROOF_MEMORY, CHEAP_PROOF_NODES, Config, DEFAULT_TIME_LIMIT, Engine,
    FastOptions, Heuristic, Mode, Objective, OnSolution, Proof, Pruning,
};
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

/// The threads a solve under `config` uses on one level (at most [`Config::threads`]): the
/// fast engine's portfolio in [`Mode::Fast`] and [`Mode::Auto`], one in the other modes.
pub fn threads_used(config: &Config) -> usize {
    match config.mode.plan().0 {
        Engine::Fast | Engine::Auto => fast::threads_used(config),
        Engine::AStar | Engine::Bfs => 1,
    }
}

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
///    split the limits the same way), until it finds a solution. That solution goes to
///    [`Config::on_solution`] at once.
/// 2. Under [`Proof::Full`] with [`Config::on_solution`] set (anytime output), the optimizer
///    looks near it for one with fewer pushes (a better answer to show at once, and a tighter
///    bound for the next step), under a quarter of what is left.
/// 3. A* with the best solution's pushes as a bound: states that cannot do better are
///    dropped, so a search that runs dry proves it push-optimal (and the fewest moves among
///    push-optimal solutions follow, as in [`Mode::Pushes`]); a better solution it finds is
///    proven as usual. [`Proof::Cheap`] gives this step a small allowance (see [`proving`]),
///    so the answer comes soon after it was found; [`Proof::Full`] the rest of the limits.
///    When its limits stop it, the best solution so far is the answer, `optimal` null.
///
/// The fast engine goes first because on every level A* can prove quickly the fast engine
/// finds a solution within milliseconds, while A* first would take time from the levels the
/// fast engine solves near its limit. The reported counters are those of every step added up,
/// and the seconds are the whole solve's.
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
    let announce = |solution: &Solution| {
        if let Some(OnSolution(call)) = &config.on_solution
            && crate::verify::verify(level, &solution.lurd).is_valid_solution()
        {
            call(solution);
        }
    };
    announce(&found);
    let mut best = found;
    best.found_seconds = Some(best.stats.seconds);
    // Someone watches the solutions (anytime output): one with fewer pushes near the first
    // is worth showing before A* runs, and tightens its bound.
    if config.proof == Proof::Full
        && config.on_solution.is_some()
        && let Some(nearer) = astar::fewer_pushes_near(level, &best, config, started)
    {
        best = Solution { stats: best.stats.clone(), found_by: "optimizer".to_owned(), ..nearer };
        best.stats.seconds = started.elapsed().as_secs_f64();
        announce(&best);
    }
    let proving = proving(config, &best.stats, started);
    let (mut result, spent) = match astar::prove_pushes(level, analysis, &proving, best.clone(), started) {
        Ok(proven) => (proven, best.stats),
        // Not proven within the limits: the best solution, A*'s nodes counted too.
        Err(e) => {
            let spent = e.stats().clone();
            (best, spent)
        }
    };
    result.stats.add(&spent);
    result.stats.seconds = started.elapsed().as_secs_f64();
    Ok(result)
}

/// The limits of [`auto`]'s A* step, after finding took `found` (counted from `started`).
///
/// [`Proof::Full`]: the solve's own limits (A*'s clock is the solve's). [`Proof::Cheap`]: a
/// quarter of the time finding took or [`CHEAP_PROOF_FLOOR`], whichever is longer, at most
/// [`CHEAP_PROOF_MEMORY`], and the fewest pushes only (no second pass for the moves). Under a node
/// limit the allowance counts expansions instead (as many as finding took, at least
/// [`CHEAP_PROOF_NODES`]), so the answer does not depend on the machine's speed. The solve's own
/// limits hold in every case.
fn proving(config: &Config, found: &Stats, started: std::time::Instant) -> Config {
    let pushes = Config { mode: Mode::Pushes, on_solution: None, ..config.clone() };
    if config.proof == Proof::Full {
        return pushes;
    }
    let memory_limit = Some(config.memory_limit.map_or(CHEAP_PROOF_MEMORY, |m| m.min(CHEAP_PROOF_MEMORY)));
    // The fewest pushes only: the moves pass would take the whole allowance on most levels
    // whose pushes it proves.
    let pushes = Config { astar: AStarOptions { moves_tiebreak: false }, ..pushes };
    if let Some(nodes) = config.node_limit {
        let allowance = found.expanded.max(CHEAP_PROOF_NODES);
        // A*'s counter starts at zero; the solve's limit counts the fast engine's nodes too.
        let node_limit = Some(allowance.min(nodes.saturating_sub(found.expanded)));
        return Config { node_limit, memory_limit, ..pushes };
    }
    let finding = started.elapsed();
    let allowance = (finding / 4).max(CHEAP_PROOF_FLOOR);
    let time_limit = Some(config.time_limit.map_or(finding + allowance, |t| t.min(finding + allowance)));
    Config { time_limit, memory_limit, ..pushes }
}
