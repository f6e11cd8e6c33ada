//! What a solve is asked to do: the mode (an engine and an objective), the lower bound, the
//! limits and the switches that exist to measure a technique's effect.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::Duration;

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
    /// A solution found by the fast engine ([`super::fast`]): a feature-space search, not
    /// proven optimal.
    Fast,
    /// The fast engine under the limits; then the pushes-mode A*, with what is left and the
    /// fast solution's pushes as a bound, proves it optimal or finds a better one. Optimal only
    /// when the A* part proved it.
    Auto,
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
    /// Box weights for [`Mode::Cost`] in reading order of the boxes; `None` uses the level's.
    pub weights: Option<Vec<u32>>,
    /// Prune with PI-corrals in the pushes mode (see [`super::corral`]), and restrict the fast
    /// engine's moves to a PI-corral's barrier; on by default. It keeps push-optimality;
    /// turning it off is for measuring its effect.
    pub corral_pruning: bool,
    /// Treat boxes frozen on goals as walls in the matching bound (see [`super::frozen`]); on by
    /// default. It keeps optimality; turning it off is for measuring its effect.
    pub frozen_goals: bool,
    /// In the pushes mode, also prove the fewest moves among the push-optimal solutions (a
    /// second pass over exact player squares); on by default. Off, the moves are whatever the
    /// first pass's pushes need.
    pub moves_tiebreak: bool,
    /// In the fast engine's packing plan, let a box that cannot get back to the start squares
    /// wait on a parking square, and boxes wait in floor that only the goal area leads to
    /// (see [`super::fast`]); on by default, off to measure it.
    pub fast_parking: bool,
    /// Check the fast engine's packing plan forwards from the start (a goal whose filling
    /// would leave the start boxes unable to fill the rest is put off, see
    /// [`super::fast`]); on by default, off to measure it.
    pub fast_plan_check: bool,
    /// The fast engine's opener advisor (moves a box off the way to the plan's next goal); on
    /// by default, off to measure it.
    pub fast_opener: bool,
    /// Under time limits above 10 s, the fast engine ends with a third pass whose cells also
    /// say whether boxes block the way to the plan's next goal (see [`super::fast`]); on by
    /// default, off to measure it.
    pub fast_blocked: bool,
    /// The fast engine's hotspot advisor (the move that frees the most boxes standing in other
    /// boxes' way, see [`super::fast`]); on by default, off to measure it.
    pub fast_hotspots: bool,
    /// The fast engine drops a state that a small exhaustive search proves dead (see
    /// [`super::exhaust`]); on by default, off to measure it.
    pub dead_search: bool,
    /// The fast engine starts with a backward search (pulls from the solved position) that
    /// can solve the level alone or meet the forward search (see [`super::fast`]); on by
    /// default, off to measure it.
    pub fast_pulls: bool,
    /// The fast engine's push distances follow the player (a box moves only where the player
    /// can get behind it, see [`super::frozen::FrozenTables::player_aware_within`]); on by
    /// default, off (the relaxed distances A* uses) to measure it.
    pub fast_aware: bool,
    /// The fast engine's sprints: a short search with a fresh packing plan from each state
    /// that puts more boxes on goals than any before it, when few are left to place (see
    /// [`super::fast`]); on by default, off to measure them.
    pub fast_sprints: bool,
    /// Under time limits above 10 s, the fast engine's staging advisor in its first pass:
    /// before the plan's first goal is filled, a box of a pair that stands in each other's way
    /// steps aside (see [`super::fast`]); on by default, off to measure it.
    pub fast_staging: bool,
    /// The fast engine's second pass follows a packing plan of its own, worked out in layers
    /// (see [`super::fast`]); on by default, off (both passes follow the first's plan) to
    /// measure it.
    pub fast_layers: bool,
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
            moves_tiebreak: true,
            fast_parking: true,
            fast_plan_check: true,
            fast_opener: true,
            fast_blocked: true,
            fast_hotspots: true,
            dead_search: true,
            fast_pulls: true,
            fast_aware: true,
            fast_sprints: true,
            fast_staging: true,
            fast_layers: true,
        }
    }
}
