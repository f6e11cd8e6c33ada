//! The fast engine on several threads: a portfolio of different searches of one level, run at
//! once, the first solution ending them all.
//!
//! On one thread the engine runs its passes one after the other (see the parent module), each
//! with a share of the limits: a level that only the second pass solves waits for the first's
//! share to run out. With more threads the passes, and a few variants of them, run side by
//! side, each on a *lane* (a thread) of its own for the whole time limit:
//!
//! | lane | threads ≥ 2 | ≥ 3 | ≥ 4 | ≥ 5 | ≥ 6 |
//! |---|---|---|---|---|---|
//! | 0 | one thread's schedule: the first pass with the backward searches, the second pass, the midpoint, and under long limits the third and staging passes | = | = | = | = |
//! | 1 | the staged pass, the unexplored pass, then the blocked one | the staged pass, the unexplored pass, then the second pass | = | = | = |
//! | 2 | | the blocked pass, then the staging one | the blocked pass | = | = |
//! | 3 | | | the first pass with the staging advisor | = | = |
//! | 4 | | | | A* over pushes | = |
//! | 5 | | | | | the first pass over relaxed distances |
//!
//! The first lane *is* one thread's search (the parent module's `one_thread`, under the lane's
//! share of the node and memory limits and the whole time limit), so that more threads find
//! what one finds in the same time under any limit: a second pass that follows the first in
//! its lane meets that lane's backward searches and starts with its learned patterns, which
//! the second lane's own second pass does not, and under a long limit one thread's later
//! passes (the staging pass, the third pass) find levels of their own. The other lanes with
//! several searches give each its weight's share of the time: the staged pass (the first pass
//! on the staged plan, made with the pull advice, `bases.rs`, or on the anytime line's plan
//! where the first plan is the staged one) comes first, for it solves its levels within seconds
//! or not at all; with three threads or more it has a ninth of its lane, the others the rest by
//! their weights. The unexplored pass (the first pass without the explorer advisor,
//! `explorer.rs`) comes next: the explorer's zero-cost moves find levels the first pass would
//! not, but lead it away from a line on others that it finds within a second without them. With
//! two threads the one lane beside the first runs these two and what one thread runs only under
//! long limits, the blocked pass, a third of the time each: the first lane runs the second pass
//! itself, and a second pass on the other lane would find the same levels only sooner. The
//! second and relaxed passes follow the plans one thread's first two passes follow; the blocked
//! and staging passes the plan peeled one box at a time, as one thread's passes after a long
//! limit's first round do, so that two plans are tried at once; the staging pass, as there,
//! sets apart the states astray from the plan (`plan_reach.rs`) and the root's named moves (the
//! branch feature, `features.rs`). More threads than lanes are left unused. Searches differ in
//! what they try first, not in what they can find, so they overlap little on the levels one of
//! them finds late: that is where the portfolio pays.
//!
//! # One thread
//!
//! On one thread under a time limit (and no node limit) the first two lanes of a two-thread
//! portfolio still run, on threads of their own, but take turns (`turns.rs`): only the lane
//! whose turn it is runs. The first lane, one thread's schedule, keeps three quarters of each
//! round and has the first second alone (most levels are solved by then, as soon as without
//! turns); the second, the staged and then the blocked pass (not the unexplored one: a third of
//! a quarter leaves each too little), has a quarter, during the first round of a long limit
//! only (one thread's schedule runs those passes itself after it). Both solve the levels they
//! solve within seconds of their start or not at all, and one thread's schedule reaches them
//! only after its first round: in turns they get those seconds within a short limit. The lanes
//! share the memory limit three to one. A node-limited search runs one thread's schedule alone,
//! so that its answer does not depend on the machine.
//!
//! # Limits
//!
//! The time limit is the solve's, for every lane (they all stop when it runs out). The memory
//! and node limits are shared: each lane has its share of them. The caller's cancel flag is
//! watched by the thread that waits for the lanes, which passes it on; it also sums the
//! lanes' progress counters into the caller's.
//!
//! # What is shared
//!
//! The analysis, the first packing plan and the hotspot table are worked out once and read by
//! every lane; the peeled plan once too, by the first lane that follows it (most levels are
//! solved before any does). The deadlock patterns a lane proves go into a log that the other
//! lanes but the first take in before they next check a state for deadlock (a pattern is a fact
//! about the level, so it holds in every search of it). The first lane publishes its patterns
//! and takes in none: the others' would prune its search where one thread's does not, and change
//! what it expands next, so that it loses levels one thread finds within seconds. The rest of
//! what a lane learns stays its own. The reported counters are the lanes' summed; the result is
//! no longer deterministic under a node limit (which lane finds first depends on the machine),
//! so a node-limited comparison of builds runs on one thread.

use super::hotspots::Hotspots;
use super::packing::{PackingPlan, Peel};
use super::search::{self, Learned, Weights};
use super::turns::{Turn, Turns};
use super::{found, plan_within, pull, staging_weights};
use crate::analysis::Analysis;
use crate::level::Level;
use crate::solver::exhaust::PatternLog;
use crate::solver::{AStarOptions, Config, FastOptions, Mode, Objective, Solution, SolveError, Stats, astar};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The stack of each lane: as much as a process's main thread has, and more.
const LANE_STACK: usize = 16 << 20;

/// What every lane reads: the level, its analysis, the first packing plan, the hotspot table
/// and the passes' weights (see the parent module's `passes`).
pub struct Shared<'s> {
    pub level: &'s Level,
    pub a: &'s Analysis,
    pub plan: &'s PackingPlan,
    pub hot: &'s Hotspots,
    pub passes: [Weights; 3],
    /// The plan peeled one box at a time, for the lanes that follow it, worked out when the
    /// first of them starts (most levels are solved before): see [`Shared::peeled`].
    pub peeled: OnceLock<Option<PackingPlan>>,
}

impl Shared<'_> {
    /// The plan peeled one box at a time (the parent module's `peeled_plan`), worked out under
    /// `config`'s limits by the first lane that asks; the first plan when the two agree, when
    /// the bases plan is off, or when the limits stopped the peel (the search that follows
    /// stops too).
    fn peeled(&self, config: &Config) -> &PackingPlan {
        let peel = || super::peeled_plan(self.level, self.a, config, self.plan, Instant::now()).ok().flatten();
        self.peeled.get_or_init(peel).as_ref().unwrap_or(self.plan)
    }
}

/// One search of the portfolio.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strategy {
    /// The second pass, on the layered plan.
    Second,
    /// The third pass: the first's advice, with cells that say whether boxes block the way.
    Blocked,
    /// The first pass with the staging advisor.
    Staging,
    /// A* over pushes (its solution is proven push-optimal).
    AStar,
    /// The first pass over the relaxed push distances A* uses (`FastOptions::aware` off).
    Relaxed,
    /// The first pass on the other bases plan (`search::other_plan`: the staged plan, or the
    /// anytime line's where the first plan is the staged one), as one thread's pass after a
    /// long limit's first round; none when there is no such plan.
    Staged,
    /// The first pass without the explorer advisor (`explorer.rs`), whose zero-cost moves
    /// lead some levels' first pass away from a line it finds within a second without them;
    /// none when the explorer is off (the first lane's first pass is this search).
    Unexplored,
}

impl Strategy {
    /// The search's name in [`Solution::found_by`].
    fn name(self) -> &'static str {
        match self {
            Strategy::Second => found::SECOND_PASS,
            Strategy::Blocked => "blocked-pass",
            Strategy::Staging => found::STAGING_PASS,
            Strategy::AStar => astar::FOUND_BY,
            Strategy::Relaxed => "relaxed-pass",
            Strategy::Staged => found::STAGED_PASS,
            Strategy::Unexplored => "unexplored-pass",
        }
    }
}

/// A lane beside the first: the searches it runs in turn, each with its weight in the lane's
/// time.
type Lane = Vec<(Strategy, u32)>;

/// The lanes beside the first (one thread's schedule) of a portfolio of `threads` threads
/// (see the module docs).
fn other_lanes(threads: usize) -> Vec<Lane> {
    use Strategy::*;
    match threads {
        0..=1 => vec![],
        2 => vec![vec![(Staged, 1), (Unexplored, 1), (Blocked, 1)]],
        3 => vec![vec![(Staged, 1), (Unexplored, 4), (Second, 4)], vec![(Blocked, 1), (Staging, 1)]],
        n => {
            let mut lanes = vec![vec![(Staged, 1), (Unexplored, 4), (Second, 4)]];
            lanes.extend([Blocked, Staging, AStar, Relaxed].iter().take(n - 2).map(|&s| vec![(s, 1)]));
            lanes
        }
    }
}

/// The threads a solve under `config` uses: [`Config::threads`], at most as many as the
/// portfolio has lanes.
pub fn threads_used(config: &Config) -> usize {
    1 + other_lanes(config.threads).len()
}

/// The second lane when one thread runs the portfolio in turns: the staged and blocked passes
/// (see the module docs; the unexplored pass would leave the blocked one too little of a
/// quarter of the thread).
const TURN_LANE: [(Strategy, u32); 2] = [(Strategy::Staged, 1), (Strategy::Blocked, 1)];

/// The weights of one thread's schedule and the second lane in a round of turns, when one
/// thread runs the portfolio (see `turns.rs`): the schedule keeps three quarters of the thread.
const TURN_WEIGHTS: [u32; 2] = [3, 1];

/// Taking turns, the first lane runs alone for this long (a tenth of a shorter time limit):
/// most levels are solved by then, as soon as one thread's schedule alone solves them.
const ALONE: Duration = Duration::from_secs(1);

/// Solves the level on [`Config::threads`] lanes (see the module docs); on one thread, on the
/// first two lanes taking turns. `None` when they were to take turns and the system could not
/// start the first lane: the caller runs one thread's schedule itself.
pub fn solve(shared: &Shared<'_>, config: &Config, started: Instant) -> Option<Result<Solution, SolveError>> {
    let alone = config.time_limit.map_or(ALONE, |t| ALONE.min(t / 10));
    let turns = (config.threads <= 1).then(|| Turns::new(TURN_WEIGHTS.len(), started + alone));
    let others = match turns {
        Some(_) => vec![TURN_LANE.to_vec()],
        None => other_lanes(config.threads),
    };
    let lanes = 1 + others.len();
    let stop = Arc::new(AtomicBool::new(false));
    let counters: Vec<Arc<AtomicU64>> = (0..lanes).map(|_| Arc::new(AtomicU64::new(0))).collect();
    // Each lane's share of the memory and node limits: its weight in the turns, or an equal one.
    let weights = match turns {
        Some(_) => TURN_WEIGHTS.to_vec(),
        None => vec![1; lanes],
    };
    let whole: u32 = weights.iter().sum();
    let share = |limit: u64, i: usize| limit * u64::from(weights[i]) / u64::from(whole);
    // Taking turns, the second lane runs in the first round only (a longer limit's one
    // thread's schedule runs its passes after that round itself).
    let time_limit = |i: usize| match (&turns, config.time_limit) {
        (Some(_), Some(t)) if i > 0 => Some(t.min(super::FIRST_ROUND)),
        _ => config.time_limit,
    };
    let lane_config = |i: usize| Config {
        cancel: Some(stop.clone()),
        progress: Some(counters[i].clone()),
        memory_limit: config.memory_limit.map(|m| share(m as u64, i) as usize),
        node_limit: config.node_limit.map(|n| share(n, i)),
        time_limit: time_limit(i),
        on_solution: None,
        threads: 1,
        ..config.clone()
    };
    let round = Turn::shares(&weights);
    // Deadlock patterns one lane proves hold in every other.
    let patterns = Arc::new(PatternLog::default());
    let (sender, results) = mpsc::channel();
    let mut outcomes: Vec<Option<Result<Solution, SolveError>>> = (0..lanes).map(|_| None).collect();
    std::thread::scope(|scope| {
        for i in 0..lanes {
            let (sender, lane_config, patterns) = (sender.clone(), lane_config(i), patterns.clone());
            let lane = std::thread::Builder::new().name(format!("sokoban-lane-{i}")).stack_size(LANE_STACK);
            let (others, turns, round) = (&others, &turns, &round);
            // A lane the system cannot start is left out; the others go on.
            let spawned = lane.spawn_scoped(scope, move || {
                // Taking turns, the lane runs only while it holds the turn.
                let seat = turns.as_ref().map(|t| t.seat(i));
                // The first lane publishes its patterns but takes in none, so that its search
                // stays one thread's.
                let learned = |backward| {
                    let turn = seat.as_ref().map(|seat| seat.turn(round[i]));
                    Learned::shared(shared.a, backward, patterns, i, i > 0).taking_turns(turn)
                };
                let result = match i.checked_sub(1) {
                    // The first lane is one thread's search, with the backward searches.
                    None => {
                        let Shared { level, a, plan, hot, passes, .. } = *shared;
                        let inputs = (plan, hot, passes);
                        super::one_thread(level, a, &lane_config, started, super::Board::Given, inputs, learned)
                    }
                    Some(other) => {
                        run_lane(shared, &others[other], &lane_config, learned(pull::Backward::none()), started)
                    }
                };
                // The receiver lives until every lane has sent.
                let _ = sender.send((i, result));
            });
            match (spawned, &turns) {
                // Taking turns, without the first lane there is none (see `None` below).
                (Err(_), Some(_)) if i == 0 => break,
                (Err(_), Some(turns)) => turns.leave(i),
                _ => {}
            }
        }
        drop(sender);
        watch(&results, &mut outcomes, config, &stop, &counters);
    });
    if turns.is_some() && outcomes[0].is_none() {
        return None;
    }
    Some(merge(outcomes.into_iter().flatten().collect(), config, started))
}

/// Waits for the lanes' results into `outcomes`, passing the caller's cancel flag on to `stop`
/// and the lanes' progress on to the caller's counter; the first solution stops the others.
fn watch(
    results: &mpsc::Receiver<(usize, Result<Solution, SolveError>)>,
    outcomes: &mut [Option<Result<Solution, SolveError>>],
    config: &Config,
    stop: &AtomicBool,
    counters: &[Arc<AtomicU64>],
) {
    const POLL: Duration = Duration::from_millis(10);
    loop {
        match results.recv_timeout(POLL) {
            Ok((i, result)) => {
                // A solution, or a proof that there is none, ends the portfolio.
                if matches!(result, Ok(_) | Err(SolveError::Unsolvable(_))) {
                    stop.store(true, Ordering::Relaxed);
                }
                outcomes[i] = Some(result);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
        if config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            stop.store(true, Ordering::Relaxed);
        }
        if let Some(progress) = &config.progress {
            progress.store(counters.iter().map(|c| c.load(Ordering::Relaxed)).sum(), Ordering::Relaxed);
        }
    }
}

/// The portfolio's answer from its lanes' results: a solution (the proven one when several
/// lanes found one, else the first lane's), or else the error that says why the whole stopped,
/// with every lane's counters added up and the solve's seconds.
fn merge(
    outcomes: Vec<Result<Solution, SolveError>>,
    config: &Config,
    started: Instant,
) -> Result<Solution, SolveError> {
    let mut spent = Stats::default();
    let mut solution: Option<Solution> = None;
    let mut errors = Vec::new();
    for outcome in outcomes {
        match outcome {
            Ok(found) => {
                spent.add(&found.stats);
                if solution.as_ref().is_none_or(|s| s.optimal.is_none() && found.optimal.is_some()) {
                    solution = Some(found);
                }
            }
            Err(e) => {
                spent.add(e.stats());
                errors.push(e);
            }
        }
    }
    spent.seconds = started.elapsed().as_secs_f64();
    if let Some(mut solution) = solution {
        solution.stats = spent;
        return Ok(solution);
    }
    let cancelled = config.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
    // A proof that there is no solution stands; else the caller's cancel; else the limit the
    // lanes met, the time first.
    let rank = |e: &SolveError| match e {
        SolveError::Unsolvable(_) => 0,
        SolveError::Timeout(_) => 1,
        SolveError::NodeLimit(_) => 2,
        SolveError::MemoryLimit(_) => 3,
        _ => 4,
    };
    let mut why = match errors.into_iter().min_by_key(rank) {
        Some(proof @ SolveError::Unsolvable(_)) => proof,
        Some(e) if !cancelled => e,
        _ => SolveError::Cancelled(Stats::default()),
    };
    *why.stats_mut() = spent;
    Err(why)
}

/// Runs a lane's searches in turn, each with its weight's share of the time the lane has
/// left, until one ends with anything but running out of its share.
fn run_lane(
    shared: &Shared<'_>,
    strategies: &[(Strategy, u32)],
    config: &Config,
    mut learned: Learned,
    started: Instant,
) -> Result<Solution, SolveError> {
    let mut spent = Stats::default();
    let mut result = Err(SolveError::Cancelled(Stats::default()));
    for (k, &(strategy, weight)) in strategies.iter().enumerate() {
        let weights_left: u32 = strategies[k..].iter().map(|s| s.1).sum();
        let left = config.time_limit.map(|t| t.saturating_sub(started.elapsed()));
        let search_config = Config {
            time_limit: left.map(|t| t * weight / weights_left),
            node_limit: config
                .node_limit
                .map(|n| n.saturating_sub(spent.expanded) * u64::from(weight) / u64::from(weights_left)),
            ..config.clone()
        };
        result = run_strategy(shared, strategy, &search_config, &mut learned, started);
        search::stats_of(&mut result).add(&spent);
        match &result {
            Err(SolveError::Timeout(stats) | SolveError::NodeLimit(stats)) if k + 1 < strategies.len() => {
                spent = stats.clone();
            }
            _ => break,
        }
    }
    result
}

/// Runs one search of the portfolio under `config` (its time limit counts from now, except
/// A*'s, which counts from `started` as the solve's does).
fn run_strategy(
    shared: &Shared<'_>,
    strategy: Strategy,
    config: &Config,
    learned: &mut Learned,
    started: Instant,
) -> Result<Solution, SolveError> {
    let Shared { level, a, plan, hot, passes, .. } = *shared;
    let run = |plan: &PackingPlan, config: &Config, weights: Weights, learned: &mut Learned| {
        search::run(level, a, plan, hot, config, weights, learned).map(|s| s.credited(strategy.name()))
    };
    match strategy {
        Strategy::Second => {
            let layered = match config.fast.layers {
                true => match plan_within(level, a, config, Peel::Layers, Instant::now()) {
                    Ok(layered) => Some(layered),
                    Err(e) => return Err(e),
                },
                false => None,
            };
            run(layered.as_ref().unwrap_or(plan), config, passes[1], learned)
        }
        Strategy::Blocked => run(shared.peeled(config), config, passes[2], learned),
        Strategy::Staged => match search::other_plan(level, a, config, plan, Instant::now(), true)? {
            Some(other) => run(&other, config, passes[0], learned),
            // Nothing to search: the lane's next search has the time.
            None => Err(SolveError::Timeout(Stats::default())),
        },
        Strategy::Staging => run(shared.peeled(config), config, staging_weights(&config.fast, passes[0]), learned),
        Strategy::Unexplored => match passes[0].explorer {
            Some(_) => run(plan, config, Weights { explorer: None, ..passes[0] }, learned),
            None => Err(SolveError::Timeout(Stats::default())),
        },
        Strategy::Relaxed => {
            let relaxed = Config { fast: FastOptions { aware: false, ..config.fast }, ..config.clone() };
            run(plan, &relaxed, passes[0], learned)
        }
        Strategy::AStar => {
            let pushes = Config {
                mode: Mode::Pushes,
                astar: AStarOptions { moves_tiebreak: false },
                time_limit: config.time_limit.map(|t| t + started.elapsed()),
                ..config.clone()
            };
            astar::solve_from(level, a, &pushes, Objective::Pushes, started)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    /// XSokoban level `number` (1-based), its analysis, the config of a one-thread search
    /// within `nodes` expansions with `fast`'s options, its first plan and hotspot table.
    fn xsokoban(number: usize, fast: FastOptions, nodes: u64) -> (Level, Analysis, Config, PackingPlan, Hotspots) {
        let root = env!("CARGO_MANIFEST_DIR");
        let text = std::fs::read_to_string(format!("{root}/data/xsokoban90.xsb")).unwrap();
        let level = parse_levels(&text).unwrap().remove(number - 1);
        let a = Analysis::new(&level);
        let config = Config { node_limit: Some(nodes), threads: 1, fast, ..Config::default() };
        let plan = plan_within(&level, &a, &config, Peel::OneByOne, Instant::now()).unwrap();
        let hot = Hotspots::new(&a, &mut || false).unwrap();
        (level, a, config, plan, hot)
    }

    /// The counters of the unexplored pass run alone on XSokoban level `number` (1-based)
    /// within `nodes` expansions, and of the first pass with and without the explorer under
    /// the same limit.
    fn unexplored_beside_first(number: usize, fast: FastOptions, nodes: u64) -> [Stats; 3] {
        let (level, a, config, plan, hot) = xsokoban(number, fast, nodes);
        let passes = super::super::passes(&config);
        let shared = Shared { level: &level, a: &a, plan: &plan, hot: &hot, passes, peeled: OnceLock::new() };
        let learned = || Learned::new(&a, pull::Backward::none());
        let stats = |mut result: Result<Solution, SolveError>| search::stats_of(&mut result).clone();
        let alone = stats(run_strategy(&shared, Strategy::Unexplored, &config, &mut learned(), Instant::now()));
        let first = passes[0];
        let with = stats(search::run(&level, &a, &plan, &hot, &config, first, &mut learned()));
        let without = Weights { explorer: None, ..first };
        let without = stats(search::run(&level, &a, &plan, &hot, &config, without, &mut learned()));
        [alone, with, without]
    }

    #[test]
    fn the_unexplored_pass_is_the_first_pass_without_the_explorer() {
        // XSokoban 41, whose first pass the explorer leads another way.
        let same =
            |x: &Stats, y: &Stats| (x.expanded, x.generated, x.duplicates) == (y.expanded, y.generated, y.duplicates);
        let [alone, with, without] = unexplored_beside_first(41, FastOptions::default(), 3_000);
        assert!(alone.expanded > 0);
        assert!(same(&alone, &without), "{alone:?} {without:?}");
        assert!(!same(&alone, &with), "{alone:?} {with:?}");
        // With the explorer off, the first lane's first pass is this search: it does not run.
        let off = FastOptions { explorer: false, ..FastOptions::default() };
        let [alone, ..] = unexplored_beside_first(41, off, 3_000);
        assert_eq!(alone.expanded, 0);
    }

    #[test]
    fn the_staged_pass_follows_the_advised_staged_plan() {
        // XSokoban 50: on the staged plan made with the pull advice (thirteen boxes parked
        // round the goal room before its entrance is filled) the staged pass finishes within
        // 10,000 expansions; the first pass on the unadvised staged plan does not.
        let (level, a, config, plan, hot) = xsokoban(50, FastOptions::default(), 10_000);
        let passes = super::super::passes(&config);
        let shared = Shared { level: &level, a: &a, plan: &plan, hot: &hot, passes, peeled: OnceLock::new() };
        let learned = || Learned::new(&a, pull::Backward::none());
        let s = run_strategy(&shared, Strategy::Staged, &config, &mut learned(), Instant::now()).expect("solved");
        assert!(crate::verify::verify(&level, &s.lurd).is_valid_solution());
        assert_eq!(s.found_by.split('/').next(), Some("staged-pass"));
        let unadvised = search::other_plan(&level, &a, &config, &plan, Instant::now(), false).unwrap().expect("a plan");
        let r = search::run(&level, &a, &unadvised, &hot, &config, passes[0], &mut learned());
        assert!(matches!(r, Err(SolveError::NodeLimit(_))), "{:?}", r.map(|s| s.stats));
    }

    #[test]
    fn each_search_beside_the_first_lane_runs_once_and_the_lanes_fit_the_threads() {
        for threads in 0..=8 {
            let others = other_lanes(threads);
            assert!(others.len() < threads.max(1), "{threads} threads");
            let searches: Vec<Strategy> = others.concat().into_iter().map(|s| s.0).collect();
            for (i, s) in searches.iter().enumerate() {
                assert!(!searches[..i].contains(s), "{s:?} twice beside the first lane at {threads} threads");
            }
        }
        assert!(other_lanes(1).is_empty());
        // Two threads: beside one thread's schedule, the first pass without the explorer and
        // the passes it runs only under long limits.
        let two: Vec<Strategy> = other_lanes(2).concat().into_iter().map(|s| s.0).collect();
        assert_eq!(two, [Strategy::Staged, Strategy::Unexplored, Strategy::Blocked]);
        // Every lane count has the staged and unexplored passes, early, before the time runs
        // short.
        for threads in 2..=8 {
            let second: Vec<Strategy> = other_lanes(threads)[0].iter().map(|s| s.0).collect();
            assert_eq!(second[..2], [Strategy::Staged, Strategy::Unexplored], "{threads} threads");
        }
        assert_eq!(other_lanes(8).len(), 5);
    }
}
