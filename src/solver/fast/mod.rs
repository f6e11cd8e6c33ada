//! The fast engine: a feature-space search (after FESS, Shoham & Schaeffer, IEEE CoG 2020)
//! over macro moves. It finds *a* solution, not a shortest one: [`solve`] returns
//! `optimal: None`.
//!
//! Design:
//! - **Moves** (`macros.rs`) are macro moves: one box pushed along a path to any square it can
//!   reach with the other boxes fixed, the player walking between pushes. Boxes never enter
//!   dead squares; a move is dropped when it leaves a freeze or 2×2 deadlock or when no
//!   matching of boxes to goals is left (the rules the A* engine uses, all sound). The
//!   matching reads the distance table with the boxes frozen on goals as walls
//!   ([`crate::solver::frozen`]; `--no-frozen-goals` turns it off), so a goal room whose
//!   entrance was filled too early is seen dead. Its distances follow the player: a box moves
//!   only where the player can get behind it with the box itself (and the frozen boxes) in the
//!   way, so a goal that only boxes from one side can fill is out of reach for the others and a
//!   state that spent them is seen dead (XSokoban at 10 s 68 → 69, Sasquatch 31 → 32;
//!   BENCHMARKS.md round ten; `--no-aware-distances` uses the relaxed ones A* needs).
//! - **Bounds, lazily**: a child is queued under a lower bound of its matching worked out in
//!   O(boxes) from its parent's duals (the moved box's row refitted,
//!   [`crate::solver::hungarian::Hungarian::row_bound`]); a state gets its exact matching
//!   when it is picked (and goes back to the queue if that is higher) or when an advisor's
//!   choice could depend on it, so the expansion order is the one exact bounds give while
//!   most children, which are never picked, never pay for an exact matching.
//! - **Packing plan** (`packing.rs`): before the search, boxes are pulled off the goals from the
//!   solved position; the reverse of that order is the order in which goals should be filled.
//!   A box that cannot get back to the start squares waits on a parking square that does not
//!   cut the floor, which becomes a step of the plan of its own (arrive there before the goals
//!   that would shut it out fill, as late as it can). So do boxes for the goals next to a dead
//!   end that only the goal area leads to: staged there while the area is open, they fill
//!   those goals last from behind (XSokoban 88 in 1.4 s, unsolved at 60 s before;
//!   BENCHMARKS.md, round twenty-six). The plan is then checked forwards from the start: a
//!   goal is put off while filling it (the goals before it standing as walls) would leave the
//!   start boxes unable to fill the rest, the test the search's frozen matching applies to
//!   every state, so the plan never asks for a corner goal that cuts the player off from
//!   where the boxes come in (XSokoban at 10 s 74 → 75, gaining 35, while Sasquatch II loses
//!   10, 21 and 45; BENCHMARKS.md, round fourteen; `--no-plan-check` turns it off). A goal is
//!   put off too while every push onto it leaves the player where it cannot walk to the goals
//!   still empty (a goal room's far entrance filled from outside: XSokoban 74 solved at 60 s;
//!   round sixteen).
//! - **Feature space** (`features.rs`): a state's cell is (packing progress in plan order,
//!   number of player regions), in the second pass also the number of boxes on goals in any
//!   order, and in the third whether boxes block the cheapest way to the plan's next goal.
//! - **Learned deadlocks** ([`crate::solver::exhaust`]): before a state is expanded, the
//!   boxes around the one just moved (up to six, linked through their 8-neighbourhoods) are
//!   searched on their own, exhaustively within 400 positions; when they cannot all reach
//!   goals, the state is dropped and the boxes become a pattern that every later child is
//!   matched against. A state whose last move closed off a small part of the floor (a corner
//!   shut by the box) gets the same search on the boxes fencing that part: such a corner often
//!   dies with the move, and the checks of later states look round their own last moves
//!   (XSokoban at 10 s 69 → 72, Sasquatch 33 → 34; BENCHMARKS.md, round eleven). Until round
//!   twenty-one every child got that search when it was made, half the time of a search on
//!   XSokoban 41; done on the states picked, 40% less time per expansion there (XSokoban at
//!   20,000 expansions 65 → 68, at 60 s 79 → 80 the same day). The search is cheap enough for 400
//!   positions since round twelve (nearest to the goals first, few floods): 73 → 74. When a
//!   cluster's search runs out of positions, its boxes that cannot be pushed at all where they
//!   stand are searched on their own: a jam of boxes that lock each other in beside boxes
//!   that roam (XSokoban at 10 s 75 → 76, at 60 s 78 → 79; round seventeen). When the
//!   cluster proves nothing, it is searched again with the boxes that fence a pocket beside it
//!   (a part of the floor of at most 8 squares the player cannot reach) linked in: boxes that
//!   hold a corral shut between them need not touch (XSokoban at 10 s 76 → 77, gaining 40;
//!   Sasquatch 35 → 34, Sasquatch II 23 → 24; round nineteen). And every pocket of a picked
//!   state gets that search on its fence, whichever box moved last: a corral shut earlier in
//!   the line lasts while the checks round later moves look elsewhere (XSokoban at 20,000
//!   expansions 64 → 65, Sasquatch at 3,000 16 → 18; the same levels at 10 s).
//!   `--no-dead-search` turns all of it off.
//! - **PI-corrals** ([`crate::solver::corral`]): when the player is fenced off from a corral
//!   that some barrier box must enter, only the barrier boxes move (every solution pushes one
//!   of them first, and that push can be made now), which keeps the search complete.
//! - **Hotspots** (`hotspots.rs`): worked out once per level, a square is a hotspot for another
//!   when a box on it leaves a box on the other fewer reachable goals (FESS's hotspots, with the
//!   player's way round ignored). A box is a hotspot in a state when it is one for some box
//!   not on a goal yet.
//! - **Search** (`search.rs`): the loop cycles over the non-empty cells and expands the cheapest
//!   state of each. Advisors each name at most one child of an expanded state: packing
//!   (progress along the plan), connectivity (fewer player regions), the opener of `way.rs`
//!   (moves a box off the cheapest way to the plan's next goal, as far from that goal as it
//!   goes: XSokoban at 60 s 82 → 83, round twenty-five), hotspots (the move that leaves
//!   the fewest hotspots), distance (the largest drop of the matching bound) and staging
//!   (`staging.rs`: while no goal of the plan is filled, a box of a pair that stands in each
//!   other's way at the start steps aside, off its partner's way: XSokoban at 60 s 84 → 85,
//!   gaining 28, round twenty-nine; only under limits above 10 s, see [`solve_from`];
//!   `--no-staging` leaves it out). A move's cost
//!   is its advisor's weight, the least when several name it, and a state's weight is the sum
//!   along its line. Within a cell, ties on weight go to the smaller matching bound, then to
//!   the newer state. Children that are states expanded already get no matching and no advice.
//! - **Sprints** (`search::sprint`): a state that puts more boxes on goals than any before it
//!   in its pass, with at most six left to place, gets a short search of its own (500
//!   expansions) from it as a start, with a packing plan made afresh for its boxes. The plan
//!   made for the start's boxes stops leading once goals are filled out of its order, and
//!   the search then spreads over cheaper variants of the state; a fresh plan often finishes
//!   it at once (XSokoban 39: 21 of 25 goals filled in 3 s, a state the search stayed behind
//!   for minutes, now solved in 2 s; BENCHMARKS.md round twenty). The sprint learns on its
//!   own, so the search goes on as before when it fails, and the sprints together take at
//!   most a quarter of the expansions; `--no-sprints` turns them off.
//! - **Backward search** (`pull.rs`): beside the passes, best-first searches pull boxes off
//!   the goals towards the start squares, ordered by the matching of boxes to start squares:
//!   one greedy, one cycling over feature cells (boxes off the goals, boxes on start squares),
//!   each taking a tenth of the time (a fortieth past the first 10 s of a long limit), a
//!   slice between forward expansions. Reaching the start
//!   solves the level outright (undoing the pulls); otherwise their states are kept, and a
//!   forward state equal to a backward one is a solution (the searches meet). Goal areas jam
//!   forwards and never backwards (a pulled box can always be pushed back), so levels whose
//!   difficulty is the packing often fall this way: Sasquatch at 10 s 25 → 31 (BENCHMARKS.md,
//!   round eight). `--no-pulls` turns it off.
//! - **Two passes** ([`solve_from`]), the first with three fifths of the limits (the second
//!   gets what the first left), sharing what the first learned (each with a plan of its own,
//!   see 2. below). Under a time
//!   limit above 10 s the two share the first 10 s so (the second run from inside the first,
//!   which waits in memory: `search::Detour`) and the first then goes on to the limit:
//!   1. packing, connectivity, the opener (and staging under a long limit) cost 0,
//!      hotspots 1, distance 2, any other move 3;
//!   2. afresh, without hotspots: packing, connectivity, opener and distance 0, any other 1;
//!      cells count the boxes on goals too (the `filled` feature). Its plan is worked out in
//!      layers (`packing.rs`) when it starts: a second guess at the order, for the levels where taking the
//!      boxes off one at a time misleads (Microban II 131 solved in 7.6 s, unsolved by every
//!      solver of the comparison at 10 s; XSokoban 85, whose pass 2 found it at 9.5 s with
//!      the first plan, is lost at 10 s; BENCHMARKS.md, round thirty). `--no-layered-plan`
//!      gives it the first pass's plan.
//!
//!   Greedy distance advice fills goals out of the plan's order, which costs dearly in levels
//!   with goal rooms but helps in levels without them; at a weight between the advisors' and
//!   the rest it keeps most of both, and the second pass gives it full strength for the levels
//!   that need it. Measured at 10 s per level (BENCHMARKS.md, round six): XSokoban 61 → 65
//!   and Sasquatch 24 → 26 against round five's passes (without distance, then with it at 0).
//!   `--no-hotspots` leaves the hotspot advisor out of the first pass. Counting the goals
//!   filled in the second pass gives its out-of-order progress cells of its own: XSokoban at
//!   10 s 65 → 67 (round seven).
//!
//!   Under a limit above 10 s a **third pass** has the last eighth of the time the first round
//!   leaves (the last 6.25 s of 60 s; the first pass stops for it): the first pass's advice,
//!   afresh, with cells that also say whether boxes stand on the cheapest way to the plan's
//!   next goal (`way.rs`). Clearing that way is a line of moves that pack nothing and often
//!   raise the matching bound; in the first pass such states wait in their packing cell
//!   behind cheaper ones that leave the way shut, in the third they have cells of their own
//!   (XSokoban 23 solved 3.1–3.5 s into it, not at all in 60 s before). In the first pass the
//!   same cells slow the levels that need a long line there (XSokoban 52 unsolved at 60 s),
//!   which is why it is a pass of its own; and it comes last because the first pass solves
//!   its levels early or not at all (in round twenty-six's runs at 60 s per level, only
//!   XSokoban 41 at 46 s and Sasquatch 25 at 47 s after 40 s, and 23 just past 60 s, which
//!   the third pass solves). BENCHMARKS.md, round twenty-seven.
//!   `--no-blocked-cells` leaves it out.
//!
//! Invariants: the transposition table stores full keys (box bitset over the live squares plus
//! the normalised player square), never just a hash. Nodes keep parent links and the macro
//! move's end points; the pushes are rebuilt by rerunning the box search on the way out, then
//! expanded into unit moves and verified by the caller. Every choice depends on the level and
//! the search so far only (ordered maps, generation order), so the result is deterministic for a
//! given level and node limit; the clock only decides when to stop.
//!
//! The engine handles the standard rule (as many boxes as goals, each box on a goal). Other
//! rules go to the A* engine, whose result keeps the optimality it proves.

mod corral;
mod features;
mod hotspots;
mod keyed;
mod macros;
mod packing;
mod pull;
mod raw;
mod reach;
mod search;
mod staging;
mod way;

use super::{Config, Mode, Solution, SolveError, Stats, astar};
use crate::analysis::Analysis;
use crate::level::{Level, SolvedRule, Square};
use hotspots::Hotspots;
use packing::Peel;
use search::Weights;
use std::time::Instant;

/// Solves `level` with the fast engine under the limits of `config` (time, memory, nodes:
/// expanded states, cancel, progress). The solution is not proven optimal.
///
/// ```
/// use sokoban::analysis::Analysis;
/// use sokoban::format::parse_levels;
/// use sokoban::solver::{Config, fast};
///
/// let level = parse_levels("#######\n#@ $ .#\n#######\n")?.remove(0);
/// let solution = fast::solve(&level, &Analysis::new(&level), &Config::default()).expect("solvable");
/// assert!(sokoban::verify::verify(&level, &solution.lurd).is_valid_solution());
/// assert_eq!(solution.optimal, None);
/// # Ok::<(), sokoban::Error>(())
/// ```
pub fn solve(level: &Level, a: &Analysis, config: &Config) -> Result<Solution, SolveError> {
    solve_from(level, a, config, Instant::now())
}

/// Like [`solve`], for a solve whose clock started at `started` (before the analysis, which
/// can take seconds on a huge level, so the time limit covers it too). The reported seconds
/// count from `started`.
pub fn solve_from(level: &Level, a: &Analysis, config: &Config, started: Instant) -> Result<Solution, SolveError> {
    if !handles(level, a) {
        let config = Config { mode: Mode::Pushes, ..config.clone() };
        return astar::solve_from(level, a, &config, crate::solver::Objective::Pushes, started);
    }
    // The search keeps its own clock: give it what is left of the limit, then report the time
    // from `started`.
    let plan_of = |peel| {
        let left = config.time_limit.map(|t| t.saturating_sub(started.elapsed()));
        let plan_config = Config { time_limit: left, ..config.clone() };
        search::plan(level, a, &plan_config, peel, Instant::now()).map_err(|mut e| {
            e.stats_mut().seconds = started.elapsed().as_secs_f64();
            e
        })
    };
    let plan = plan_of(Peel::OneByOne)?;
    // The second pass's plan (see the module docs), worked out when that pass starts (most
    // levels never get there): `None` for the first's, when they agree or it is off.
    let second_plan = || match config.fast_layers {
        true => plan_of(Peel::Layers).map(|layered| Some(layered).filter(|p| *p != plan)),
        false => Ok(None),
    };
    let passes = passes(config);
    // The hotspot table is built only when some pass asks the advisor.
    let hot = if passes.iter().any(|w| w.hotspots.is_some()) {
        let stop = &mut || search::stop_reason(config, started).is_some();
        let Some(hot) = Hotspots::new(a, stop) else {
            let stats = Stats { seconds: started.elapsed().as_secs_f64(), ..Stats::default() };
            return Err(search::stop_reason(config, started).unwrap_or(SolveError::Timeout)(stats));
        };
        hot
    } else {
        Hotspots::empty(a)
    };
    let limited = config.time_limit.is_some() || config.node_limit.is_some();
    // The backward searches grow beside the passes, at their pace and under their share.
    let backward = if config.fast_pulls { pull::Backward::new(level, a, config) } else { pull::Backward::none() };
    // The forward passes' nodes: what the backward searches may not take.
    let forward_nodes = config.node_limit.map(|n| n.saturating_sub(backward.reserved()));
    // Deadlock patterns learned by one pass hold in the next, and the backward trees go on.
    let mut learned = search::Learned::new(a, backward);
    // The first pass gets [`FIRST_PASS`] of the limits, the second what is left; without any
    // limit the first pass is the whole search.
    let mut spent = Stats::default();
    let left = config.time_limit.map(|t| t.saturating_sub(started.elapsed()));
    let mut result = if config.node_limit.is_none() && left.is_some_and(|t| t > FIRST_ROUND) {
        // A long limit: the first round as under a short one, then the first pass goes on.
        let (part, whole) = FIRST_PASS;
        let mut second_spent = None;
        let mut second = |learned: &mut search::Learned, held: usize| {
            let second_config = Config {
                time_limit: Some(FIRST_ROUND * (whole - part) / whole),
                memory_limit: config.memory_limit.map(|m| m.saturating_sub(held)),
                ..config.clone()
            };
            let r = match second_plan() {
                Ok(layered) => {
                    let plan = layered.as_ref().unwrap_or(&plan);
                    search::run(level, a, plan, &hot, &second_config, passes[1], learned, None)
                }
                Err(e) => Err(e),
            };
            if let Err(SolveError::Timeout(stats)) = &r {
                second_spent = Some(stats.clone());
            }
            r
        };
        // The third pass has the last part of the limit (none when it is off).
        let third = match config.fast_blocked {
            true => left.unwrap_or_default().saturating_sub(FIRST_ROUND) / THIRD_PASS_SHARE,
            false => std::time::Duration::ZERO,
        };
        let detour = search::Detour { at: FIRST_ROUND * part / whole, run: &mut second };
        let first_config = Config { time_limit: left.map(|t| t.saturating_sub(third)), ..config.clone() };
        // Under a long limit the first pass also takes the staging advisor's moves: they
        // delay the plan's direct attempts by seconds (XSokoban 61 solved at 17 s instead of
        // 4 s, so not at all under 10 s) and pay off in the searches that stall on them
        // (XSokoban at 60 s 84 → 85, gaining 28 and losing none; round twenty-nine).
        let first = Weights { staging: config.fast_staging.then_some(0), ..passes[0] };
        let mut r = search::run(level, a, &plan, &hot, &first_config, first, &mut learned, Some(detour));
        if let Some(stats) = &second_spent {
            search::stats_of(&mut r).add(stats);
        }
        if let Err(SolveError::Timeout(stats)) = &r
            && !third.is_zero()
        {
            let spent = stats.clone();
            let rest = config.time_limit.map(|t| t.saturating_sub(started.elapsed()));
            let third_config = Config { time_limit: rest, ..config.clone() };
            r = search::run(level, a, &plan, &hot, &third_config, passes[2], &mut learned, None);
            search::stats_of(&mut r).add(&spent);
        }
        r
    } else {
        // Short limits: the first two passes, one after the other.
        let passes = &passes[..2];
        let mut pass = 0;
        loop {
            let layered = if pass == 1 { second_plan() } else { Ok(None) };
            let (part, whole) = if pass + 1 < passes.len() { FIRST_PASS } else { (1, 1) };
            let pass_config = Config {
                time_limit: config.time_limit.map(|t| t.saturating_sub(started.elapsed()) * part / whole),
                node_limit: forward_nodes
                    .map(|n| n.saturating_sub(spent.expanded) * u64::from(part) / u64::from(whole)),
                ..config.clone()
            };
            let run_config = if limited { &pass_config } else { config };
            let mut r = match layered {
                Ok(layered) => {
                    let plan = layered.as_ref().unwrap_or(&plan);
                    search::run(level, a, plan, &hot, run_config, passes[pass], &mut learned, None)
                }
                Err(e) => Err(e),
            };
            search::stats_of(&mut r).add(&spent);
            pass += 1;
            match r {
                Err(SolveError::Timeout(stats) | SolveError::NodeLimit(stats)) if limited && pass < passes.len() => {
                    spent = stats;
                }
                r => break r,
            }
        }
    };
    // The backward searches' counters join the passes'; the time is the whole solve's.
    let stats = search::stats_of(&mut result);
    stats.add(&learned.backward.stats());
    stats.seconds = started.elapsed().as_secs_f64();
    result
}

/// Whether the engine handles `level` (analysed in `a`): the standard rule with as many boxes
/// as goals, deadlock pruning sound. Other levels go to the A* engine.
fn handles(level: &Level, a: &Analysis) -> bool {
    level.rule() == SolvedRule::Standard && level.boxes().len() == level.goals().len() && a.pruning()
}

/// One step of the packing plan (see the module docs), in level squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanStep {
    /// A box should fill `goal` now.
    Fill {
        /// The goal.
        goal: Square,
    },
    /// A box bound for `goal` should arrive now on the parking square `at` (it cannot come
    /// from the start squares later, once the goals before it are full) and wait there.
    Park {
        /// The parking square.
        at: Square,
        /// The goal the box fills later.
        goal: Square,
    },
}

/// The packing plan the fast engine follows on `level`: the order in which to fill the goals,
/// with the parking steps among them, worked out backwards from the solved position and
/// checked forwards from the start (as `--no-parking` and `--no-plan-check` in `config`
/// say), under `config`'s time limit and cancel flag. Empty when the fast engine does not
/// handle the level's rule (it hands such levels to A*).
///
/// ```
/// use sokoban::analysis::Analysis;
/// use sokoban::format::parse_levels;
/// use sokoban::solver::{Config, fast};
///
/// // A goal room whose inner goal must be filled before the one at its entrance.
/// let level = parse_levels("#######\n#@$$ ..#\n#######\n")?.remove(0);
/// let plan = fast::packing_plan(&level, &Analysis::new(&level), &Config::default()).expect("no limit");
/// let inner = level.square_at(1, 6).unwrap();
/// assert_eq!(plan.first(), Some(&fast::PlanStep::Fill { goal: inner }));
/// assert_eq!(plan.len(), 2);
/// # Ok::<(), sokoban::Error>(())
/// ```
pub fn packing_plan(level: &Level, a: &Analysis, config: &Config) -> Result<Vec<PlanStep>, SolveError> {
    plan_steps(level, a, config, Peel::OneByOne)
}

/// The packing plan the fast engine's second pass follows on `level` (unless
/// `config.fast_layers` is off): like [`packing_plan`], with the boxes taken off the goals in
/// layers (see the module docs). It fills every goal once, as the first plan does.
///
/// ```
/// use sokoban::analysis::Analysis;
/// use sokoban::format::parse_levels;
/// use sokoban::solver::{Config, fast};
///
/// let level = parse_levels("#######\n#@$$ ..#\n#######\n")?.remove(0);
/// let a = Analysis::new(&level);
/// let layered = fast::layered_packing_plan(&level, &a, &Config::default()).expect("no limit");
/// assert_eq!(layered, fast::packing_plan(&level, &a, &Config::default()).expect("no limit"));
/// # Ok::<(), sokoban::Error>(())
/// ```
pub fn layered_packing_plan(level: &Level, a: &Analysis, config: &Config) -> Result<Vec<PlanStep>, SolveError> {
    plan_steps(level, a, config, Peel::Layers)
}

/// [`packing_plan`] or [`layered_packing_plan`], as `peel` says.
fn plan_steps(level: &Level, a: &Analysis, config: &Config, peel: Peel) -> Result<Vec<PlanStep>, SolveError> {
    if !handles(level, a) {
        return Ok(Vec::new());
    }
    let plan = search::plan(level, a, config, peel, Instant::now())?;
    let square = |s: u16| a.square(crate::analysis::Sq::new(usize::from(s)));
    let steps = plan.steps.iter().map(|step| {
        let goal = square(step.goal);
        if step.square == step.goal {
            PlanStep::Fill { goal }
        } else {
            PlanStep::Park { at: square(step.square), goal }
        }
    });
    Ok(steps.collect())
}

/// The first pass's share of the limits, as a fraction: XSokoban at 10 s 66 with a half, 67
/// with three fifths (gaining 31, which pass 1 solves in 4–6 s), 66 with seven tenths (losing
/// 85, which pass 2 solves); Sasquatch 31 with each (BENCHMARKS.md, round nine).
const FIRST_PASS: (u32, u32) = (3, 5);

/// Under a time limit longer than this, the passes share its first part as they would share
/// this much, and the first pass then has the rest: the second pass solves its levels within
/// seconds or not at all, the first keeps solving them for a minute (XSokoban 23 and 41 at
/// 49 s and 54 s of a first pass alone). At 60 s per level the plain split gave the first
/// pass 36 s and left the second waiting until then (XSokoban 77, solved by it in 3 s, at
/// 39 s).
const FIRST_ROUND: std::time::Duration = std::time::Duration::from_secs(10);
/// Under a long limit, the third pass (the first pass's advice with the blocked feature, see
/// [`passes`]) runs last, for this fraction of the time the first round leaves (the last
/// 6.25 s of a 60 s limit). XSokoban at 60 s: 84 with an eighth (23 solved 3.2 s into the
/// pass, 41 by the first pass at 53.5 s), 83 with a fifth (23 in, 41 out: the first pass
/// stopped at 50 s); BENCHMARKS.md, round twenty-seven.
const THIRD_PASS_SHARE: u32 = 8;

/// The expansions of a sprint (see the module docs): XSokoban 39's sprint at 21 of 25 goals
/// solves in 128; 3,000 solve no more of the nine levels unsolved at 60 s (run at 30 s) than
/// 500.
pub(super) const SPRINT_EXPANSIONS: u64 = 500;

/// The passes' weights (see the module docs): the first with the hotspot advisor (unless
/// `config` turns it off) and a mild distance advisor, the second with a full-strength
/// distance advisor, no hotspots, and the goals filled in any order as a feature; the third,
/// run under long limits only, the first's advice with the blocked feature.
fn passes(config: &Config) -> [Weights; 3] {
    let hotspots = config.fast_hotspots.then_some(1);
    let sprint = config.fast_sprints.then_some(SPRINT_EXPANSIONS);
    let first = Weights { hotspots, distance: Some(2), filled: false, blocked: false, other: 3, sprint, staging: None };
    [
        first,
        Weights { hotspots: None, distance: Some(0), filled: true, blocked: false, other: 1, sprint, staging: None },
        Weights { blocked: true, ..first },
    ]
}
