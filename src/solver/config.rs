//! What a solve is asked to do: the mode (an engine and an objective), the lower bound, the
//! limits and the switches that exist to measure a technique's effect.
//!
//! Three intents, three constructors: [`Config::default`] answers as soon as a solution is
//! found and proves it only where that is cheap ([`Mode::Auto`] with [`Proof::Cheap`], what
//! `sokoban solve` does with no flags); [`Config::fast`] finds a solution and proves nothing;
//! [`Config::optimal`] spends the limits on a proven fewest-pushes solution. All three have a
//! finite time limit ([`DEFAULT_TIME_LIMIT`]) and a memory limit, so no default search runs
//! until the machine's memory is gone.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;

/// What the user asks for: an objective and the engine that pursues it (see
/// [`Mode::plan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Fewest pushes, proven (A*).
    Pushes,
    /// Fewest moves, then fewest pushes, proven (A*).
    Moves,
    /// Least total cost, proven (A*).
    Cost,
    /// Fewest moves by breadth-first search over unit moves (the textbook baseline).
    Bfs,
    /// A solution found by the fast engine ([`super::fast`]): a feature-space search, not
    /// proven optimal.
    Fast,
    /// The default: the fast engine under the limits; then the pushes-mode A*, with the fast
    /// solution's pushes as a bound, proves it optimal or finds a better one, for as long as
    /// [`Config::proof`] allows. Optimal only when the A* part proved it.
    #[default]
    Auto,
}

/// How much of the limits [`Mode::Auto`] spends on proving the solution its fast engine found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Proof {
    /// A bounded attempt, so the answer comes soon after it is found: A* gets a quarter of
    /// the time finding took, or [`CHEAP_PROOF_FLOOR`], whichever is longer (under a node
    /// limit: as many expansions as finding took, at least [`CHEAP_PROOF_NODES`]), and a
    /// memory limit of its own ([`CHEAP_PROOF_MEMORY`] at most). It proves the fewest pushes
    /// only (`optimal` says `pushes`), not the fewest moves among them.
    ///
    /// The floor is where more time stops paying: the proofs of most small levels fit in it,
    /// and a set of them still takes well under twice as long as finding alone (the moves
    /// pass as well would take several times as long; BENCHMARKS.md has the figures).
    #[default]
    Cheap,
    /// Whatever is left of the limits, and the fewest moves among the fewest pushes proven
    /// too when the limits allow (with [`Config::on_solution`] set, the optimizer first
    /// looks for a solution with fewer pushes near the found one, to show and to bound A*).
    Full,
}

/// The time limit of [`Config::default`], [`Config::fast`] and `sokoban solve`.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(60);
/// [`Proof::Cheap`]'s least time for the A* proof.
pub const CHEAP_PROOF_FLOOR: Duration = Duration::from_millis(100);
/// [`Proof::Cheap`]'s least number of A* expansions under a node limit.
pub const CHEAP_PROOF_NODES: u64 = 20_000;
/// [`Proof::Cheap`]'s largest memory for the A* proof, in bytes.
pub const CHEAP_PROOF_MEMORY: usize = 1 << 30;

/// Called with each solution a solve finds that is better than the one before (see
/// [`Config::on_solution`]); every solution it sees has been replayed by the verifier.
#[derive(Clone)]
pub struct OnSolution(pub Arc<dyn Fn(&super::Solution) + Send + Sync>);

impl std::fmt::Debug for OnSolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnSolution(..)")
    }
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
    /// A* over pushes with a consistent lower bound ([`super::astar`]): proves its objective.
    AStar,
    /// Breadth-first search over unit moves ([`super::bfs`]): proves the fewest moves.
    Bfs,
    /// The fast engine ([`super::fast`]): finds a solution, proves nothing.
    Fast,
    /// The fast engine, then A* to prove what it found ([`Mode::Auto`]).
    Auto,
}

impl Mode {
    /// The engine and objective of this mode.
    pub fn plan(self) -> (Engine, Objective) {
        match self {
            Mode::Pushes => (Engine::AStar, Objective::Pushes),
            Mode::Moves => (Engine::AStar, Objective::Moves),
            Mode::Cost => (Engine::AStar, Objective::Cost),
            Mode::Bfs => (Engine::Bfs, Objective::Moves),
            Mode::Fast => (Engine::Fast, Objective::Pushes),
            Mode::Auto => (Engine::Auto, Objective::Pushes),
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
    /// Threads the fast engine (in [`Mode::Fast`] and [`Mode::Auto`]) may use on this one
    /// level: above 1, a portfolio of its searches runs at once and the first solution found
    /// ends them all (see [`super::fast`]); the time limit holds for the whole and the memory
    /// and node limits are shared among the threads. With 1 (the default) the search is
    /// deterministic for a given node limit; under a time limit without one, two of the
    /// portfolio's searches take turns on the one thread (see [`FastOptions::turns`]). The A*
    /// and breadth-first modes use one thread.
    pub threads: usize,
    /// Box weights for [`Mode::Cost`] in reading order of the boxes; `None` uses the level's.
    pub weights: Option<Vec<u32>>,
    /// How long [`Mode::Auto`] tries to prove what it found.
    pub proof: Proof,
    /// If given, [`Mode::Auto`] calls it with the first solution it finds and with each
    /// better one after it (anytime output: a caller can show the best so far while the proof
    /// runs). The solve's result is the last of them, or a better proven one.
    pub on_solution: Option<OnSolution>,
    /// The techniques both engines share; all on by default, off only to measure them.
    pub pruning: Pruning,
    /// Options of the A* engine.
    pub astar: AStarOptions,
    /// The fast engine's techniques; all on by default, off only to measure them.
    pub fast: FastOptions,
}

/// Pruning and bound techniques of both engines. Each keeps optimality; turning one off is
/// for measuring its effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pruning {
    /// Prune with PI-corrals in the pushes mode (see [`super::corral`]), and restrict the fast
    /// engine's moves to a PI-corral's barrier.
    pub corrals: bool,
    /// Treat boxes frozen on goals as walls in the matching bound (see [`super::frozen`]).
    pub frozen_goals: bool,
}

impl Default for Pruning {
    fn default() -> Pruning {
        Pruning { corrals: true, frozen_goals: true }
    }
}

/// Options of the A* engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AStarOptions {
    /// In the pushes mode, also prove the fewest moves among the push-optimal solutions (a
    /// second pass over exact player squares); on by default. Off, the moves are whatever the
    /// first pass's pushes need.
    pub moves_tiebreak: bool,
}

impl Default for AStarOptions {
    fn default() -> AStarOptions {
        AStarOptions { moves_tiebreak: true }
    }
}

/// The fast engine's techniques (see [`super::fast`]), each on by default; turning one off
/// is for measuring what it adds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FastOptions {
    /// In the packing plan, let a box that cannot get back to the start squares wait on a
    /// parking square, and boxes wait in floor that only the goal area leads to.
    pub parking: bool,
    /// Check the packing plan forwards from the start (a goal whose filling would leave the
    /// start boxes unable to fill the rest is put off).
    pub plan_check: bool,
    /// The opener advisor (moves a box off the way to the plan's next goal).
    pub opener: bool,
    /// The explorer advisor in the passes that follow the first pass's advice (all but the
    /// second): a move that lets the player push a box it could not push before, when the
    /// box can be pushed back, costs what an advised move does.
    pub explorer: bool,
    /// A closing third pass whose cells also say whether boxes block the way to the plan's
    /// next goal: under time limits above 10 s, and under shorter limits on what the midpoint
    /// leaves.
    pub blocked: bool,
    /// The hotspot advisor (the move that frees the most boxes standing in other boxes' way).
    pub hotspots: bool,
    /// Drop a state that a small exhaustive search proves dead (see [`super::exhaust`]).
    pub dead_search: bool,
    /// A backward search (pulls from the solved position) that can solve the level alone or
    /// meet the forward search.
    pub pulls: bool,
    /// Push distances that follow the player (a box moves only where the player can get
    /// behind it, see [`super::frozen::FrozenTables::player_aware_within`]); off, the relaxed
    /// distances A* uses.
    pub aware: bool,
    /// Sprints: a short search with a fresh packing plan from each state that puts more boxes
    /// on goals than any before it, when few are left to place.
    pub sprints: bool,
    /// Under time limits above 10 s, the staging advisor in the first pass: before the plan's
    /// first goal is filled, a box of a pair that stands in each other's way steps aside.
    pub staging: bool,
    /// The second pass follows a packing plan of its own, worked out in layers; off, both
    /// passes follow the first's plan.
    pub layers: bool,
    /// Every other expansion from the lead cell, the most advanced feature-space cell a
    /// picked state has reached; off, the cells take turns alone.
    pub lead: bool,
    /// After each visit, the cell of a new state the packing advisor named that packs more of
    /// the plan with no more player regions is visited at once, up to eight cells down the
    /// line (the dive); off, every cell waits for its turn.
    pub dive: bool,
    /// A state with at most two moves passes the one with the smaller matching bound on at no
    /// cost (a line through a narrow place costs nothing for its length); off, each costs its
    /// advisor's weight.
    pub narrow: bool,
    /// A second packing advisor: of the moves that pack, besides the one with the smallest
    /// matching bound, the one that leaves the fewest player regions, then the fewest
    /// hotspots (FESS's order of features) is free too; off, only the first.
    pub open_packing: bool,
    /// The first pass follows the packing plan of a backward search that takes boxes away
    /// where boxes start (boxes wait outside a goal room before they go in); off, or when
    /// that search takes no box away, the plan peeled one box at a time.
    pub bases: bool,
    /// The staged plan: the backward search's line in which a box leaves only while the
    /// player reaches the start area (FESS's rule), so a goal room's boxes wait on the floor
    /// round it and go in in order. The first pass follows it where the bases search's own
    /// line leaves boxes on the board, and under a long limit a pass follows it after the
    /// first round; off, neither.
    pub staged: bool,
    /// In the first two passes, the passes after a long limit's first round (the staging and
    /// third passes) and on the portfolio's staging lane, a state in which some goal the plan
    /// has yet to fill has no box left that can reach it in its turn gets cells of its own, and
    /// the packing advisors do not lead into one from a state that can follow the plan; off,
    /// such states share their cells and get packing advice.
    pub plan_reach: bool,
    /// In the staging pass (after a long limit's first round, and on the portfolio's staging
    /// lane), each root move an advisor names and the states its line reaches get cells of
    /// their own (the branch feature; the unnamed moves' lines share theirs), so that every
    /// named opening gets turns; off, the lines of all openings share their cells.
    pub root_branches: bool,
    /// The staging midpoint: under short limits (and in a long limit's first round), when the
    /// backward searches reached no state to aim at, the midpoint's share goes to a solve
    /// through the plan's staged position (the boxes waiting round the goal area before it
    /// is filled, `PackingPlan::staged`); off, the passes before it have that share.
    pub staging_midpoint: bool,
    /// The rooms advisor (off by default): a move that cuts fewer links between the level's
    /// rooms (open areas joined by corridors and doorways) and keeps the plan's progress
    /// costs less than other moves. At a fixed number of expansions it solves more, but its
    /// walks make each expansion about a third slower: a loss under time limits.
    pub rooms: bool,
    /// On one thread under a time limit (and no node limit), the portfolio's second lane (the
    /// staged pass, then the blocked pass) takes a quarter of the thread in turns with one
    /// thread's schedule; off, one thread runs that schedule alone.
    pub turns: bool,
}

impl Default for FastOptions {
    fn default() -> FastOptions {
        FastOptions {
            parking: true,
            plan_check: true,
            opener: true,
            explorer: true,
            blocked: true,
            hotspots: true,
            dead_search: true,
            pulls: true,
            aware: true,
            sprints: true,
            staging: true,
            layers: true,
            lead: true,
            dive: true,
            narrow: true,
            open_packing: true,
            bases: true,
            staged: true,
            plan_reach: true,
            root_branches: true,
            staging_midpoint: true,
            rooms: false,
            turns: true,
        }
    }
}

impl Default for Config {
    /// [`Mode::Auto`] with a cheap proof, [`DEFAULT_TIME_LIMIT`] and half the physical memory:
    /// what `sokoban solve` does with no flags.
    fn default() -> Config {
        Config {
            mode: Mode::default(),
            heuristic: Heuristic::default(),
            time_limit: Some(DEFAULT_TIME_LIMIT),
            // Half the physical memory (see `crate::system`), so a search never swaps by default.
            memory_limit: Some(crate::system::default_memory_limit()),
            node_limit: None,
            cancel: None,
            progress: None,
            threads: 1,
            weights: None,
            proof: Proof::default(),
            on_solution: None,
            pruning: Pruning::default(),
            astar: AStarOptions::default(),
            fast: FastOptions::default(),
        }
    }
}

impl Config {
    /// A solution from the fast engine, nothing proven ([`Mode::Fast`]), under the default
    /// limits.
    pub fn fast() -> Config {
        Config { mode: Mode::Fast, ..Config::default() }
    }

    /// The fewest pushes, then the fewest moves among them, both proven ([`Mode::Pushes`]),
    /// under `time_limit` (`None`: until the memory limit, half the physical memory, is
    /// reached; a hard level can take that long).
    pub fn optimal(time_limit: Option<Duration>) -> Config {
        Config { mode: Mode::Pushes, time_limit, ..Config::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_constructor_has_finite_limits_by_default() {
        for config in [Config::default(), Config::fast(), Config::optimal(Some(DEFAULT_TIME_LIMIT))] {
            assert_eq!(config.time_limit, Some(DEFAULT_TIME_LIMIT));
            assert!(config.memory_limit.is_some());
        }
        assert_eq!(Config::default().mode, Mode::Auto);
        assert_eq!(Config::default().proof, Proof::Cheap);
        assert_eq!(Config::optimal(None).time_limit, None);
    }
}
