//! The fast engine: a feature-space search (after FESS, Shoham & Schaeffer, IEEE CoG 2020)
//! over macro moves. It finds *a* solution, not a shortest one: [`solve`] returns
//! `optimal: None`. The engine handles the standard rule (as many boxes as goals, each box on a
//! goal); other rules go to the A* engine, whose result keeps the optimality it proves.
//!
//! # Parts
//!
//! - **Moves** (`macros.rs`): one box pushed along a path to any square it can reach with the
//!   other boxes fixed, the player walking between pushes. Boxes never enter dead squares; a
//!   move is dropped when it leaves a freeze or a 2×2 block, or when no matching of boxes to
//!   goals is left. These are the A* engine's rules, all sound.
//! - **Bounds** ([`crate::solver::hungarian`], [`crate::solver::frozen`]): the matching of boxes
//!   to goals reads the distance table with the boxes frozen on goals as walls, so a goal room
//!   whose entrance was filled too early is seen dead. With `FastOptions::aware` its distances
//!   follow the player: a box moves only where the player can get behind it, so a goal that only
//!   boxes from one side can fill is out of reach for the others. A child is queued under a lower
//!   bound worked out in O(boxes) from its parent's duals
//!   ([`crate::solver::hungarian::Hungarian::row_bound`]) and gets its exact matching when it is
//!   picked (going back to the queue when that is higher) or when an advisor's choice could depend
//!   on it: the expansion order is the one exact bounds give, while the children never picked, most
//!   of them, never pay for an exact matching.
//! - **Packing plan** (`packing.rs`): the order in which to fill the goals, worked out by
//!   pulling the boxes off the goals from the solved position and reversing. A box that
//!   cannot get back to the start squares waits on a parking square that does not cut the
//!   floor, a step of the plan of its own; so do boxes for the goals beside a dead end that
//!   only the goal area leads to, staged there while the area is open. The plan is then
//!   checked forwards from the start: a goal is put off while filling it would leave the
//!   start boxes unable to fill the rest (the test the frozen matching applies to every
//!   state), or while every push onto it leaves the player where it cannot walk to the goals
//!   still empty. The second pass's plan peels the boxes off in layers instead of one by one.
//!   The first pass's plan comes from `bases.rs` instead when that search takes any box
//!   away: a backward search over whole positions in which a box pulled far enough onto a
//!   start square vanishes with it (FESS's packing search). Its line, reversed, has a step for
//!   each square a box waits on before its goal (linked, so that a box moving on as planned
//!   keeps its steps done): a goal room's boxes wait outside it, then go in in order. When
//!   that line leaves boxes on the board (they could not come out one at a time), the first
//!   pass follows the staged plan instead, the same search under FESS's rule for base moves.
//! - **Feature space** (`features.rs`): a state's cell is (packing progress in plan order,
//!   number of player regions); in the second pass also the number of boxes on goals in any
//!   order, in the third whether boxes block the cheapest way to the plan's next goal
//!   (`way.rs`); in the first two passes and in the passes after a long limit's first round
//!   (the staging and third passes) also whether some goal the plan has yet to fill has no
//!   box left that can reach it in its turn (`plan_reach.rs`: a bipartite matching of the
//!   free boxes to the goals left, each goal reachable with the goals before it in the plan
//!   as walls). Such a state can be solved in another order but not along the plan, and its
//!   low bound (it spent the nearest box) would take the turns of the states that can; in
//!   cells of their own they keep theirs, the packing advisor does not lead into one, and the
//!   lead cell is one that can follow the plan. The other plan's pass and the search that
//!   finishes the midpoint's line go without (the midpoint's own solve of its imagined level
//!   runs the first pass, cells included): the test slows each expansion, and there the
//!   cells lost levels that those searches find in a short limit's last seconds. In the
//!   staging pass a state's cell also says which of the root's moves its line starts with
//!   (the branch; the moves no advisor names share one): where the level is decided by its
//!   first moves and the opening that shuts it packs most, the other named openings' lines
//!   get turns of their own. Levels the short schedule solves are mostly solved along the
//!   first opening the advisors name, and the branches would share the turns out among them
//!   all; so only the pass that runs once the first round has failed keeps them apart.
//! - **Learned deadlocks** ([`crate::solver::exhaust`]): before a picked state is expanded,
//!   the boxes round the one just moved (linked through their 8-neighbourhoods and through
//!   small pockets of floor the player cannot reach), the fence of a small part of the floor
//!   the move closed off, and the fence of every small pocket are each searched on their own,
//!   exhaustively within a few hundred positions. When they cannot all reach goals the state
//!   is dropped and the boxes, cut down to those the proof needs, become a pattern every later
//!   child is matched against. When a cluster's search runs out of positions, its boxes that
//!   cannot be pushed at all are searched alone. The checks run on picked states, not on every
//!   child: most children are never picked. The first pass looks wide (clusters of up to ten
//!   boxes, boxes that wander off the shut-in floor vanish from the search), the later passes
//!   narrow (six boxes, none vanish; `search::DeadReach`): each pass then prunes, and so
//!   searches, differently, and the later ones are there for what the first did not find.
//! - **PI-corrals** ([`crate::solver::corral`]): when the player is fenced off from a corral
//!   that some barrier box must enter, only the barrier boxes move (every solution pushes one
//!   of them first, and that push can be made now), which keeps the search complete.
//!   `corral.rs` proves such a corral dead by searching its boxes alone.
//! - **Advisors** (`search.rs`): each names at most one child of an expanded state: packing
//!   (progress along the plan, the smallest matching bound first), open packing (progress
//!   along the plan leaving the fewest player regions, then the fewest hotspots: FESS's
//!   order of features; the smallest bound favours a far box, this a move that keeps the
//!   board open, and which of the two a level needs differs), connectivity (fewer player
//!   regions), the opener (`way.rs`:
//!   moves a box off the cheapest way to the plan's next goal, as far from that goal as it
//!   goes), hotspots (`hotspots.rs`: the move that leaves the fewest boxes standing in other
//!   boxes' way), distance (the largest drop of the matching bound), rooms (off by default,
//!   `--rooms-advisor`; `rooms.rs`: FESS's room connectivity, the move that cuts the fewest
//!   links between the level's open areas, the plan's progress kept; its weight is one below
//!   an unadvised move's, a nudge rather than a line to follow), explorer (`explorer.rs`:
//!   FESS's explorer, a move that can be undone and lets the player push a box it could not
//!   before; not in the second pass) and staging
//!   (`staging.rs`: while no goal of the plan is filled, a box of a pair that stands in each
//!   other's way at the start steps aside). A move's cost is its advisor's weight, the least
//!   when several name it, and a state's weight is the sum along its line.
//! - **Search** (`search.rs`): the loop cycles over the non-empty cells and expands the
//!   cheapest state of each; within a cell, ties on weight go to the smaller matching bound,
//!   then to the newer state. Children that are states expanded already get no matching and
//!   no advice. A narrow state (at most two moves, as in a corridor) passes the move with
//!   the smaller bound on at no cost, as FESS does: a line through a narrow place does not
//!   pay for its length.
//! - **Sprints** (`search::sprint`): a state that puts more boxes on goals than any before it
//!   in its pass, with at most six left to place, gets a short search of its own from it,
//!   with a packing plan made afresh for its boxes (peeled one box at a time): the first plan
//!   stops leading once goals are filled out of its order. A sprint learns on its own, so the
//!   search goes on as before when it fails; the first runs as soon as it is due, and the
//!   sprints after it only while all of them take at most a quarter of the expansions.
//! - **Backward search** (`pull.rs`): beside the passes, best-first searches pull boxes off
//!   the goals towards the start squares, ordered by the matching of boxes to start squares:
//!   one greedy, one cycling over feature cells. Reaching the start solves the level outright
//!   (undoing the pulls); otherwise a forward state equal to a backward one is a solution
//!   (the searches meet). Goal areas jam forwards and never backwards (a pulled box can
//!   always be pushed back), so levels whose difficulty is the packing often fall this way.
//!   They run a slice at a time between forward expansions, for a tenth of the limits each.
//! - **Midpoint** (`midpoint.rs`, after Festival's "imagined board"): under short limits
//!   (and in a long limit's first round), when the passes fail, the last share goes to a
//!   forward solve (the first pass alone) of the level with its goals moved onto the boxes
//!   of the backward searches' state nearest the start, when they got most of the way; that
//!   state's undone pulls finish the solution (after a short search that meets the backward
//!   trees when the forward line leaves the player in another region). In goal-room
//!   levels the backward searches empty the room and stall on the storage outside it, which
//!   the forward passes, aimed at the goals, never sort out towards their line. Where there is
//!   no such state, the staging midpoint aims at the first plan's staged position instead:
//!   the boxes where the packing search's line has them wait round the emptied goal area,
//!   the player on the side from which a search of the level finds the rest.
//!
//! # Passes
//!
//! [`solve_from`] runs the search in passes that share what the first learned (patterns, the
//! backward trees), each with weights of its own (`passes`):
//! 1. packing, connectivity, the opener, the explorer (and staging in its long-limit rerun)
//!    cost 0, hotspots 1, distance 2, any other move 3; the states astray from the plan have
//!    cells of their own;
//! 2. afresh, without hotspots: packing, connectivity, opener and distance 0, any other 1;
//!    cells count the boxes on goals too and set the astray states apart, and the plan is
//!    the layered one (worked out when the pass starts; most levels never get there);
//! 3. under a time limit above `FIRST_ROUND`, or under short limits on what the midpoint
//!    leaves: the first pass's advice, afresh, with cells that say whether boxes block the
//!    way to the plan's next goal (and, after a long limit's first round, whether the state
//!    can still follow the plan).
//!
//! Greedy distance advice fills goals out of the plan's order, which costs dearly in levels
//! with goal rooms and helps in levels without them: at a weight between the advisors' and the
//! rest the first pass keeps most of both, and the second gives it full strength. Clearing the
//! way to the next goal is a line of moves that pack nothing; the third pass gives such states
//! cells of their own, which in the first pass would slow the levels that need long lines
//! there, and comes last because the first pass solves its levels early or not at all.
//!
//! Under short limits the first pass has `FIRST_PASS` of them, the second `SECOND_PASS` of the
//! rest and the midpoint what is left; when the backward searches are off or got no state to
//! aim at, the staging midpoint (`midpoint.rs`: through the first plan's staged position, where
//! its boxes wait round the emptied goal area) takes the midpoint's place, and the second pass
//! has it all when the plan has no such position. When the bases search has another plan (the
//! staged plan, or the anytime line's where the first pass follows the staged one; see
//! `bases.rs`), a first pass on it comes between the second pass and the midpoint, for a second
//! of a 10 s limit: the second pass has `SECOND_BEFORE_OTHER` of what the first leaves (the
//! same 2 s of a 10 s limit; `SECOND_BEFORE_OTHER_ALONE` without the midpoint), the other
//! plan's pass `OTHER_BEFORE_MIDPOINT` of the rest. The levels the first pass solves it solves
//! within its first half, while a goal room that the first plan misleads on and the other leads
//! on takes the other plan's pass well under a second; its turn comes after the second pass's
//! so that the passes before it keep their time. When the midpoint stops early (its level has
//! no solution, no backward state is near enough, or the staging midpoint's parts found
//! nothing) with a twentieth of the limits or more left, the third pass has the rest, so a
//! short limit is spent to its end. Under a time limit above `FIRST_ROUND`, its first
//! `FIRST_ROUND` runs that short schedule as a limit of `FIRST_ROUND` would, midpoint included,
//! so a longer limit finds what the shorter one finds, as soon; then a first pass follows the
//! staged plan (`bases.rs` under FESS's rule for base moves, made with the pull advice: a goal
//! room's boxes wait on the floor round it, then go in in order; where the first round followed
//! that, the anytime line's plan) for a `STAGED_SHARE`th of what is left, then the third pass
//! for a `THIRD_PASS_SHARE`th of what the round left, and a first pass that also takes the
//! staging advisor's moves runs afresh on the rest; these two follow the plan peeled one box at
//! a time when the first round followed the bases plan, so that a long limit tries both plans.
//! The staged and third passes solve their levels within seconds of their start or not at all,
//! the staging pass over tens of seconds, so it comes last; and it comes after the first round
//! so that a level the short schedule solves in seconds is solved as fast under a long limit.
//!
//! # Threads
//!
//! With [`Config::threads`] above 1 the first thread runs one thread's schedule (`one_thread`,
//! the whole search of a solve on one thread), and `portfolio.rs` runs the passes again, and a
//! few variants of them, side by side on threads of their own for the whole time limit; the
//! first solution ends them all. The plan and the hotspot table are worked out once for all
//! of them. On one thread under a time limit the first two of those threads take turns
//! (`turns.rs`): one thread's schedule has three quarters of the thread, the staged and
//! blocked passes the rest during the first round.
//!
//! # Invariants
//!
//! The transposition table stores full keys (box bitset over the live squares plus the
//! normalised player square), never just a hash. Nodes keep parent links and the macro move's
//! end points; the pushes are rebuilt by rerunning the box search on the way out, expanded
//! into unit moves and verified by the caller. Every choice depends on the level and the
//! search so far only (ordered maps, generation order), so under a node limit the result is
//! deterministic on one thread; the clock decides only when to stop, and, under a time limit
//! without a node limit, when the backward searches, the second pass and the lane that takes
//! turns with the passes get their turns.

mod bases;
mod bipartite;
mod corral;
mod explorer;
mod features;
mod fill_order;
mod hotspots;
mod keyed;
mod macros;
mod midpoint;
mod packing;
mod plan_reach;
mod portfolio;
mod pull;
mod rooms;
mod search;
mod staging;
mod turns;
mod way;

use super::{Config, FastOptions, Mode, Solution, SolveError, Stats, astar};
use crate::analysis::Analysis;
use crate::level::{Level, SolvedRule, Square};
use hotspots::Hotspots;
use packing::Peel;
use search::{DeadReach, Weights};
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
    solve_passes(level, a, config, started, Board::Given, None)
}

/// Which level a schedule searches: it sets what the short schedule runs (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Board {
    /// The level itself: the two passes, the other plan's pass and, with the backward
    /// searches, the midpoint.
    Given,
    /// The midpoint's imagined level (its goals on a backward state's boxes): the first pass
    /// alone, for the whole of the few seconds the midpoint has.
    Imagined,
}

/// [`solve_from`]'s passes on `board` (see [`Board`]); a search inside a lane that takes
/// turns with others (`turns.rs`) takes its `turn`.
fn solve_passes(
    level: &Level,
    a: &Analysis,
    config: &Config,
    started: Instant,
    board: Board,
    turn: Option<turns::Turn>,
) -> Result<Solution, SolveError> {
    if !handles(level, a) {
        let config = Config { mode: Mode::Pushes, ..config.clone() };
        return astar::solve_from(level, a, &config, crate::solver::Objective::Pushes, started);
    }
    // The search keeps its own clock: give it what is left of the limit, then report the time
    // from `started`.
    let plan = plan_within(level, a, config, Peel::OneByOne, started)?;
    let passes = passes(config);
    // The hotspot table is built only when some pass asks the advisor.
    let hot = if passes.iter().any(|w| w.hotspots.is_some()) {
        let stop = &mut || search::stop_reason(config, started).is_some();
        let Some(hot) = Hotspots::new(a, stop) else { return Err(search::halted(config, started)) };
        hot
    } else {
        Hotspots::empty(a)
    };
    if config.threads > 1 || takes_turns(config, board) {
        let peeled = std::sync::OnceLock::new();
        let shared = portfolio::Shared { level, a, plan: &plan, hot: &hot, passes, peeled };
        // `None`: the lanes could not start; one thread's schedule below runs here instead.
        if let Some(result) = portfolio::solve(&shared, config, started) {
            return result;
        }
    }
    let mut result = one_thread(level, a, config, started, board, (&plan, &hot, passes), |backward| {
        search::Learned::new(a, backward).taking_turns(turn)
    });
    // The time is the whole solve's.
    search::stats_of(&mut result).seconds = started.elapsed().as_secs_f64();
    result
}

/// Whether a solve on one thread runs the portfolio's first two lanes taking turns
/// (`turns.rs`): under a time limit and no node limit (a node-limited search stays one
/// deterministic schedule), on the level itself (not the midpoint's), unless `--no-turns`.
fn takes_turns(config: &Config, board: Board) -> bool {
    let timed = config.time_limit.is_some() && config.node_limit.is_none();
    config.threads <= 1 && config.fast.turns && timed && board == Board::Given
}

/// One thread's search (see the module docs) on the first plan, the hotspot table and the
/// passes' weights: the whole search of a solve on one thread, and the first lane of a
/// portfolio, so that more threads find what one finds in the same time under any limit.
/// `learned` makes what the passes learn from the backward searches this grows beside them
/// (a portfolio's lane also shares its patterns); their counters join the passes'.
fn one_thread(
    level: &Level,
    a: &Analysis,
    config: &Config,
    started: Instant,
    board: Board,
    inputs: (&packing::PackingPlan, &Hotspots, [Weights; 3]),
    learned: impl FnOnce(pull::Backward) -> search::Learned,
) -> Result<Solution, SolveError> {
    // The backward searches grow beside the passes, at their pace and under their share.
    let backward = if config.fast.pulls { pull::Backward::new(level, a, config) } else { pull::Backward::none() };
    // Deadlock patterns learned by one pass hold in the next, and the backward trees go on.
    let mut learned = learned(backward);
    let mut result = schedule(level, a, config, started, board, inputs, &mut learned);
    search::stats_of(&mut result).add(&learned.backward.stats());
    result
}

/// The passes as [`Solution::found_by`] names them (the portfolio's lanes name theirs too).
mod found {
    pub const FIRST_PASS: &str = "first-pass";
    pub const SECOND_PASS: &str = "second-pass";
    pub const OTHER_PLAN_PASS: &str = "other-plan-pass";
    pub const MIDPOINT: &str = "midpoint";
    pub const STAGING_MIDPOINT: &str = "staging-midpoint";
    pub const STAGED_PASS: &str = "staged-pass";
    pub const STAGING_PASS: &str = "staging-pass";
    pub const THIRD_PASS: &str = "third-pass";
}

/// [`one_thread`]'s passes in their order and shares under `config`'s limits: the short
/// schedule, or under a long limit its first round and then the staging and third passes.
fn schedule(
    level: &Level,
    a: &Analysis,
    config: &Config,
    started: Instant,
    board: Board,
    (plan, hot, passes): (&packing::PackingPlan, &Hotspots, [Weights; 3]),
    learned: &mut search::Learned,
) -> Result<Solution, SolveError> {
    // The forward passes' nodes: what the backward searches may not take.
    let forward_nodes = config.node_limit.map(|n| n.saturating_sub(learned.backward.reserved()));
    let closing = config.fast.blocked.then_some(passes[2]);
    let last = Last { level, a, config, forward_nodes, plan, hot, weights: passes[0], closing, started };
    let left = config.time_limit.map(|t| t.saturating_sub(started.elapsed()));
    if config.node_limit.is_none() && left.is_some_and(|t| t > FIRST_ROUND) {
        // A long limit: the first round is the short schedule of `FIRST_ROUND`, then the
        // staged pass, the third pass and the staging pass.
        let round_config = Config { time_limit: Some(FIRST_ROUND), ..config.clone() };
        let round = short_schedule(&Last { config: &round_config, ..last }, learned, &passes, board);
        let round = staged_after(&last, learned, round);
        let third = left.unwrap_or_default().saturating_sub(FIRST_ROUND) / THIRD_PASS_SHARE;
        // The passes after it follow the peel's plan when the round followed the bases
        // plan: a long limit tries both.
        match &round {
            Err(SolveError::Timeout(_)) => match peeled_plan(level, a, config, plan, started) {
                Ok(peeled) => {
                    let closing = closing.map(|w| with_plan_reach(&config.fast, w));
                    let after = Last { plan: peeled.as_ref().unwrap_or(plan), closing, ..last };
                    let r = third_after(&after, learned, third, round);
                    staging_after(&after, learned, r)
                }
                Err(_) => round,
            },
            _ => round,
        }
    } else {
        short_schedule(&last, learned, &passes, board)
    }
}

/// The schedule under short limits (see the module docs), under `last.config`'s: the first
/// two passes, one after the other, the other bases plan's pass, then the midpoint (or,
/// without a backward state to aim at, the staging midpoint), and the third pass only on what
/// it leaves; on an imagined `board` the first pass alone. Without any limit the first pass
/// is the whole search.
fn short_schedule(
    last: &Last<'_>,
    learned: &mut search::Learned,
    passes: &[Weights; 3],
    board: Board,
) -> Result<Solution, SolveError> {
    let Last { level, a, config, forward_nodes, plan, hot, started, .. } = *last;
    let limited = config.time_limit.is_some() || config.node_limit.is_some();
    let (passes, aims) = match board {
        Board::Given => (&passes[..2], limited),
        Board::Imagined => (&passes[..1], false),
    };
    let (mut midpoint, mut staging) = (aims && config.fast.pulls, false);
    let mut spent = Stats::default();
    let mut other = None;
    let mut pass = 0;
    let result = loop {
        let layered = if pass == 1 { second_plan(last) } else { Ok(None) };
        if pass == 1 {
            other = other_plan_within(last, &spent);
        }
        // The midpoint's share is kept back only when there is a state to aim at: the
        // backward searches' or, without one, the plan's staged position.
        if pass + 1 == passes.len() {
            midpoint &= learned.backward.best().is_some();
            staging = aims && !midpoint && config.fast.staging_midpoint && plan.staged.is_some();
        }
        let (part, whole) = match (pass + 1 < passes.len(), midpoint || staging, other.is_some()) {
            (true, _, _) => FIRST_PASS,
            (false, true, false) => SECOND_PASS,
            (false, true, true) => SECOND_BEFORE_OTHER,
            (false, false, false) => (1, 1),
            (false, false, true) => SECOND_BEFORE_OTHER_ALONE,
        };
        let pass_config = Config {
            time_limit: config.time_limit.map(|t| t.saturating_sub(started.elapsed()) * part / whole),
            node_limit: forward_nodes.map(|n| n.saturating_sub(spent.expanded) * u64::from(part) / u64::from(whole)),
            ..config.clone()
        };
        let run_config = if limited { &pass_config } else { config };
        let mut r = match layered {
            Ok(layered) => {
                let plan = layered.as_ref().unwrap_or(plan);
                let weights = with_plan_reach(&config.fast, passes[pass]);
                // The first pass looks for dead boxes wide, the later ones narrow (`DeadReach`).
                let dead = if pass == 0 { DeadReach::WIDE } else { DeadReach::NARROW };
                let r = search::run(level, a, plan, hot, run_config, Weights { dead, ..weights }, learned);
                r.map(|s| s.credited([found::FIRST_PASS, found::SECOND_PASS][pass]))
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
    };
    let result = match other {
        Some(other) => {
            let share = if midpoint || staging { OTHER_BEFORE_MIDPOINT } else { (1, 1) };
            other_plan_pass(&Last { plan: &other, ..*last }, learned, share, result)
        }
        None => result,
    };
    match (midpoint, staging) {
        (true, _) => {
            let result = midpoint_after(last, learned, result);
            close_with_rest(last, learned, result)
        }
        (false, true) => {
            let result = staging_midpoint_after(last, learned, result);
            close_with_rest(last, learned, result)
        }
        (false, false) => result,
    }
}

/// Under short limits, after the first pass ran out of its share (`spent` its counters), the
/// other bases plan ([`search::other_plan`]) when there is one, its search stopped at an
/// [`OTHER_PLAN_SEARCH`] of the time left (a search stopped gives none; a cancel stops the
/// pass after it). Unadvised, within the first plan's budget: it is made before the second
/// pass, and the advised search's longer budget came out of that pass's time.
fn other_plan_within(last: &Last<'_>, spent: &Stats) -> Option<packing::PackingPlan> {
    let Last { level, a, config, started, .. } = *last;
    let (part, whole) = OTHER_PLAN_SEARCH;
    let time = config.time_limit.map(|t| t.saturating_sub(started.elapsed()) * part / whole);
    let slot = Config { time_limit: time, node_limit: nodes_left(last, spent), ..config.clone() };
    search::other_plan(level, a, &slot, last.plan, Instant::now(), false).ok().flatten()
}

/// The passes' `result`, or when they ran out of their limits a first pass on the other bases
/// plan (`last.plan`) for `share` of the limits left.
fn other_plan_pass(
    last: &Last<'_>,
    learned: &mut search::Learned,
    (part, whole): (u32, u32),
    result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    let Err(SolveError::Timeout(spent) | SolveError::NodeLimit(spent)) = &result else { return result };
    let time = last.config.time_limit.map(|t| t.saturating_sub(last.started.elapsed()) * part / whole);
    let nodes = nodes_left(last, spent).map(|n| n * u64::from(part) / u64::from(whole));
    pass_within(last, learned, last.weights, (time, nodes), spent).map(|s| s.credited(found::OTHER_PLAN_PASS))
}

/// The second pass's plan (see the module docs), worked out when that pass starts (most
/// levels never get there): `None` for the first's, when they agree or it is off.
fn second_plan(last: &Last<'_>) -> Result<Option<packing::PackingPlan>, SolveError> {
    let Last { level, a, config, plan, started, .. } = *last;
    match config.fast.layers {
        true => plan_within(level, a, config, Peel::Layers, started).map(|layered| Some(layered).filter(|p| p != plan)),
        false => Ok(None),
    }
}

/// The plan peeled one box at a time (`packing.rs`), when the first pass follows the bases
/// plan (`bases.rs`) and the two differ: the passes after a long limit's first round follow
/// it, so that a level the one plan leads astray gets the other. `None`: the first's.
fn peeled_plan(
    level: &Level,
    a: &Analysis,
    config: &Config,
    plan: &packing::PackingPlan,
    started: Instant,
) -> Result<Option<packing::PackingPlan>, SolveError> {
    match config.fast.bases {
        true => {
            let peel = Config { fast: FastOptions { bases: false, ..config.fast }, ..config.clone() };
            plan_within(level, a, &peel, Peel::OneByOne, started).map(|p| Some(p).filter(|p| p != plan))
        }
        false => Ok(None),
    }
}

/// What the searches after the first round or the passes read: the third and staging passes,
/// the midpoint and the closing pass (see [`third_after`], [`staging_after`],
/// [`midpoint_after`], [`close_with_rest`]).
struct Last<'h> {
    level: &'h Level,
    a: &'h Analysis,
    config: &'h Config,
    /// The node limit of the forward searches (the backward ones' share taken out).
    forward_nodes: Option<u64>,
    /// The first pass's plan, for the closing pass.
    plan: &'h packing::PackingPlan,
    hot: &'h Hotspots,
    /// The first pass's weights, for a search that joins the backward trees.
    weights: Weights,
    /// The third pass's weights, for what the midpoint leaves of the limits (`None`: off).
    closing: Option<Weights>,
    /// When the clock of `config`'s time limit started (the solve's, or a portfolio search's).
    started: Instant,
}

/// The passes' `result`, or when they ran out of their limits the midpoint's solution from what
/// they left (see the module docs); the passes' error when the midpoint finds none.
fn midpoint_after(
    last: &Last<'_>,
    learned: &mut search::Learned,
    result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    let Last { level, a, config, .. } = *last;
    let Err(SolveError::Timeout(spent) | SolveError::NodeLimit(spent)) = &result else { return result };
    let spent = spent.clone();
    let mid_config = Config {
        memory_limit: config.memory_limit.map(|m| m.saturating_sub(learned.backward.bytes())),
        ..limits_left(last, &spent)
    };
    // The midpoint searched another level: its verdict (even "unsolvable") says nothing of
    // this one, which stays stopped by the passes' limit, with the midpoint's counters.
    match midpoint::through_backward(level, a, (last.hot, last.weights), learned, &mid_config, Instant::now()) {
        Some(found) => credited_or(found, &spent, found::MIDPOINT, result),
        None => result,
    }
}

/// `last.config` with what the passes left of its limits after `spent`, for a search that
/// runs after them with no progress line of its own.
fn limits_left(last: &Last<'_>, spent: &Stats) -> Config {
    Config {
        time_limit: last.config.time_limit.map(|t| t.saturating_sub(last.started.elapsed())),
        node_limit: nodes_left(last, spent),
        progress: None,
        ..last.config.clone()
    }
}

/// A late search's solution credited to `search`, with the passes' counters `spent` added;
/// when it found none, the passes' `result` with the late search's counters added.
fn credited_or(
    found: Result<Solution, SolveError>,
    spent: &Stats,
    search: &str,
    mut result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    match found {
        Ok(mut solution) => {
            solution.stats.add(spent);
            Ok(solution.credited(search))
        }
        Err(e) => {
            search::stats_of(&mut result).add(e.stats());
            result
        }
    }
}

/// The passes' `result`, or when they ran out of their limits the staging midpoint's
/// solution through the plan's staged position (see `midpoint.rs`) on what they left; the
/// passes' error, with its counters, when it finds none.
fn staging_midpoint_after(
    last: &Last<'_>,
    learned: &mut search::Learned,
    result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    let Last { level, a, plan, .. } = *last;
    let (Err(SolveError::Timeout(spent) | SolveError::NodeLimit(spent)), Some(staged)) = (&result, &plan.staged) else {
        return result;
    };
    let spent = spent.clone();
    let config = limits_left(last, &spent);
    let found =
        midpoint::through_staging(level, a, (last.hot, last.weights), learned, &config, (staged, Instant::now()));
    credited_or(found, &spent, found::STAGING_MIDPOINT, result)
}

/// Under a long limit, the first round's `result`, or when it ran out of time a first pass
/// afresh that also takes the staging advisor's moves (unless `--no-staging`), on what is
/// left. Those moves delay the plan's direct attempts by seconds, too long for a short limit
/// and for the levels the first round solves, and pay off in the searches that stall on them.
fn staging_after(
    last: &Last<'_>,
    learned: &mut search::Learned,
    result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    let Err(SolveError::Timeout(spent)) = &result else { return result };
    let rest = last.config.time_limit.map(|t| t.saturating_sub(last.started.elapsed()));
    let weights = staging_weights(&last.config.fast, last.weights);
    pass_on_rest(last, learned, weights, rest, spent).map(|s| s.credited(found::STAGING_PASS))
}

/// Under a long limit, the first round's `result`, or when it ran out of time the third pass
/// (`last.closing`, none when it is off) for `time`: it solves its levels within seconds of
/// its start or not at all, the staging pass after it over tens of seconds, so the short
/// search goes first and the long one has the rest.
fn third_after(
    last: &Last<'_>,
    learned: &mut search::Learned,
    time: std::time::Duration,
    result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    let (Err(SolveError::Timeout(spent)), Some(weights)) = (&result, last.closing) else { return result };
    pass_on_rest(last, learned, weights, Some(time), spent).map(|s| s.credited(found::THIRD_PASS))
}

/// The staging pass's weights: the first pass's `first`, with the staging advisor's moves
/// free (unless `--no-staging`) and each root move an advisor names in cells of its own
/// (unless `--no-root-branches`), as a pass after a long limit's first round.
fn staging_weights(fast: &FastOptions, first: Weights) -> Weights {
    let weights = Weights { staging: fast.staging.then_some(0), branches: fast.root_branches, ..first };
    with_plan_reach(fast, weights)
}

/// Under a long limit, the first round's `result`, or when it ran out of time a first pass
/// afresh on the other bases plan (`bases.rs`, [`search::other_plan`]: the advised staged
/// plan, or where the first round followed that, the anytime line's) for a [`STAGED_SHARE`]th
/// of what is left, when there is one: on goal-room levels the staged plan leads where the
/// first round's plan misleads, and solves them within seconds or not at all; where the first
/// round followed it, the other line gets its turn.
fn staged_after(
    last: &Last<'_>,
    learned: &mut search::Learned,
    result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    let Err(SolveError::Timeout(spent)) = &result else { return result };
    let Ok(Some(other)) = search::other_plan(last.level, last.a, last.config, last.plan, last.started, true) else {
        return result;
    };
    let time = last.config.time_limit.map(|t| t.saturating_sub(last.started.elapsed()) / STAGED_SHARE);
    pass_on_rest(&Last { plan: &other, ..*last }, learned, last.weights, time, spent)
        .map(|s| s.credited(found::STAGED_PASS))
}

/// `weights` with the cells that set apart the states astray from the plan (`plan_reach.rs`,
/// unless `--no-plan-reach`): the first two passes', and those of the passes after a long
/// limit's first round (and the portfolio's staging lane); see the module docs.
fn with_plan_reach(fast: &FastOptions, weights: Weights) -> Weights {
    Weights { astray: fast.plan_reach, ..weights }
}

/// The passes' and the midpoint's `result`, or when the midpoint stopped with a good part of
/// the limits left (it had no state to aim at, or its level had no solution) the third
/// pass's on what is left: a search of this level, so its verdict is this level's.
fn close_with_rest(
    last: &Last<'_>,
    learned: &mut search::Learned,
    result: Result<Solution, SolveError>,
) -> Result<Solution, SolveError> {
    let Some(weights) = last.closing else { return result };
    let Err(SolveError::Timeout(spent) | SolveError::NodeLimit(spent)) = &result else { return result };
    let config = last.config;
    let time_left = config.time_limit.map(|t| t.saturating_sub(last.started.elapsed()));
    let worth = |left: Option<u64>, whole: Option<u64>| match (left, whole) {
        (Some(left), Some(whole)) => left * u64::from(REST_WORTH) >= whole,
        _ => true,
    };
    let millis = |d: Option<std::time::Duration>| d.map(|d| d.as_millis() as u64);
    if !worth(nodes_left(last, spent), last.forward_nodes) || !worth(millis(time_left), millis(config.time_limit)) {
        return result;
    }
    pass_on_rest(last, learned, weights, time_left, spent).map(|s| s.credited(found::THIRD_PASS))
}

/// The forward nodes left after `spent` (`None` without a node limit).
fn nodes_left(last: &Last<'_>, spent: &Stats) -> Option<u64> {
    last.forward_nodes.map(|n| n.saturating_sub(spent.expanded))
}

/// A pass with `weights` on the plan, over `time` and the nodes left after `spent`, its
/// counters added to `spent`'s. It searches with `learned`, whose memory (the backward trees
/// included) the pass counts as its own.
fn pass_on_rest(
    last: &Last<'_>,
    learned: &mut search::Learned,
    weights: Weights,
    time: Option<std::time::Duration>,
    spent: &Stats,
) -> Result<Solution, SolveError> {
    pass_within(last, learned, weights, (time, nodes_left(last, spent)), spent)
}

/// [`pass_on_rest`] over the limits `(time, nodes)`.
fn pass_within(
    last: &Last<'_>,
    learned: &mut search::Learned,
    weights: Weights,
    (time, nodes): (Option<std::time::Duration>, Option<u64>),
    spent: &Stats,
) -> Result<Solution, SolveError> {
    let limits = Config { time_limit: time, node_limit: nodes, ..last.config.clone() };
    let mut r = search::run(last.level, last.a, last.plan, last.hot, &limits, weights, learned);
    search::stats_of(&mut r).add(spent);
    r
}

/// The packing plan of `level` under what is left of `config`'s limits on the clock that
/// started at `started` (the plan keeps its own clock; an error reports the solve's seconds).
fn plan_within(
    level: &Level,
    a: &Analysis,
    config: &Config,
    peel: Peel,
    started: Instant,
) -> Result<packing::PackingPlan, SolveError> {
    let left = config.time_limit.map(|t| t.saturating_sub(started.elapsed()));
    let plan_config = Config { time_limit: left, ..config.clone() };
    search::plan(level, a, &plan_config, peel, Instant::now()).map_err(|mut e| {
        e.stats_mut().seconds = started.elapsed().as_secs_f64();
        e
    })
}

/// The threads a solve under `config` would use on a level the fast engine handles: at most
/// [`Config::threads`], no more than its portfolio has searches (see `portfolio.rs`).
pub fn threads_used(config: &Config) -> usize {
    portfolio::threads_used(config)
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
    /// from the start squares later, once the goals before it are full) and wait there; a
    /// box may wait on several such squares in turn, a step each.
    Park {
        /// The parking square.
        at: Square,
        /// The goal the box fills later.
        goal: Square,
    },
}

/// The packing plan the fast engine's first pass follows on `level`: the order in which to
/// fill the goals, with the parking steps among them, worked out backwards from the solved
/// position, by the search that takes boxes away at the start squares when it takes any
/// (unless `config.fast.bases` is off), else by peeling the boxes off one at a time and
/// checking the order forwards from the start (as `--no-parking` and `--no-plan-check` in
/// `config` say), under `config`'s time limit and cancel flag. Empty when the fast engine does not
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
/// `config.fast.layers` is off): like [`packing_plan`], with the boxes taken off the goals in
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

/// The first pass's share of the limits, as a fraction: a larger share loses the levels only
/// the later passes solve, a smaller one those the first solves late.
const FIRST_PASS: (u32, u32) = (1, 2);

/// Under short limits, the search for the other bases plan may take this share of what the
/// first pass leaves.
const OTHER_PLAN_SEARCH: (u32, u32) = (1, 5);

/// The second pass's share of what the first leaves when the other plan's pass and the
/// midpoint come after it; the other plan's pass has [`OTHER_BEFORE_MIDPOINT`] of the rest.
const SECOND_BEFORE_OTHER: (u32, u32) = (2, 5);

/// The other plan's pass's share of what the second pass leaves when the midpoint follows.
const OTHER_BEFORE_MIDPOINT: (u32, u32) = (1, 3);

/// The second pass's share of what the first leaves when only the other plan's pass comes
/// after it.
const SECOND_BEFORE_OTHER_ALONE: (u32, u32) = (4, 5);

/// The second pass's share of what the first leaves under short limits when the midpoint
/// comes after it, as a fraction; the midpoint has the rest.
const SECOND_PASS: (u32, u32) = (1, 2);

/// Under short limits, what the midpoint leaves goes to the third pass when it is at least
/// this fraction (1/`REST_WORTH`) of the limits: less is too short for a fresh pass.
const REST_WORTH: u32 = 20;

/// Under a time limit longer than this, its first part runs the short schedule as a limit of
/// this much does (the passes, then the midpoint), and a first pass afresh then has the rest:
/// the second pass and the midpoint solve their levels within seconds or not at all, while
/// the first keeps solving them for a minute, and a plain split of a long limit would leave
/// them waiting until the first's share is spent.
const FIRST_ROUND: std::time::Duration = std::time::Duration::from_secs(10);

/// Under a long limit, the third pass (the first pass's advice with the blocked feature, see
/// `passes`) runs after the staged pass, for this fraction of the time the first round leaves
/// (6.25 s of a 60 s limit): enough for the levels it solves, which it solves within seconds,
/// while a larger share delays the staging pass's late solutions.
const THIRD_PASS_SHARE: u32 = 8;

/// Under a long limit, the pass on the staged plan after the first round runs for this
/// fraction of the time that round leaves (6.25 s of a 60 s limit; see [`staged_after`]).
const STAGED_SHARE: u32 = 8;

/// The expansions of a sprint (see the module docs): a fresh plan finishes a late state in a
/// few hundred expansions or not soon.
pub(super) const SPRINT_EXPANSIONS: u64 = 500;

/// The passes' weights (see the module docs): the first with the hotspot advisor (unless
/// `config` turns it off) and a mild distance advisor, the second with a full-strength
/// distance advisor, no hotspots, and the goals filled in any order as a feature; the third,
/// run under long limits only, the first's advice with the blocked feature. The first two
/// passes themselves add the plan-reach cells (`short_schedule`, [`with_plan_reach`]): the
/// other searches that take the first's weights (the other plan's pass, the one that
/// finishes the midpoint's line) go without.
fn passes(config: &Config) -> [Weights; 3] {
    let hotspots = config.fast.hotspots.then_some(1);
    let sprint = config.fast.sprints.then_some(SPRINT_EXPANSIONS);
    let first = Weights {
        hotspots,
        distance: Some(2),
        filled: false,
        blocked: false,
        other: 3,
        sprint,
        staging: None,
        astray: false,
        branches: false,
        end_region: None,
        dead: DeadReach::NARROW,
        explorer: config.fast.explorer.then_some(0),
    };
    [
        first,
        Weights { hotspots: None, distance: Some(0), filled: true, other: 1, explorer: None, ..first },
        Weights { blocked: true, ..first },
    ]
}
