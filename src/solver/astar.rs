//! A* over pushes: the engine behind the pushes, moves and cost objectives.
//!
//! The engine is a loop over the shared layers: the [`NodeStore`] holds states and the closed
//! set, an [`OpenList`] orders the frontier, [`Successors`] enumerates the pruned pushes of a
//! state, [`LowerBound`] gives each new state its bound, and the [`Budget`] checks the limits
//! and finishes the [`Stats`]. What is minimised is a [`Metric`]: its cost type, the cost of one
//! push after a walk, and how a bound in pushes becomes a cost.
//!
//! What it proves: with a consistent lower bound (see [`super::bound`]) the first goal state
//! taken from the open list has the least cost, and a state expanded once is never expanded
//! again. States are merged only when their full keys are equal, so the proof holds exactly.

use std::fmt::Debug;
use std::time::Instant;

use super::bound::LowerBound;
use super::budget::{Budget, Stop};
use super::config::{Config, Heuristic, Objective};
use super::expand::cost_of;
use super::expand::{Push, pushes_to_moves};
use super::frozen::NoTable;
use super::hungarian::Stopped;
use super::open::{Buckets, Heap, OpenList};
use super::report::{Optimality, Solution, SolveError, Stats};
use super::state::{BoxAt, KeyLayout, hash};
use super::store::{Node, NodeId, NodeStore};
use super::successors::{Rules, Successor, Successors};
use crate::analysis::Analysis;
use crate::level::{Dir, Level, SolvedRule};

/// (moves, pushes), compared moves first: the cost of the moves objective.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct MovesPushes {
    /// Player steps, pushes included.
    pub moves: u32,
    /// Box pushes.
    pub pushes: u32,
}

/// What an A* search minimises.
pub trait Metric {
    /// The cost type: totally ordered, added along a path.
    type G: Copy + Ord + Default + Debug;
    /// The open list suited to the cost type.
    type Open: OpenList<Self::G>;
    /// Whether edge costs need the player's walk to each push.
    const WALKS: bool;
    /// Whether states may be merged by the player's region (the cost ignores where the player
    /// stands) and PI-corral pruning applies (its reordering argument counts pushes only).
    const PUSHES_ONLY: bool;
    /// Whether boxes differ by weight.
    const WEIGHTED: bool;
    /// What a solution of this metric is proven to minimise.
    const OPTIMALITY: Optimality;
    /// The cost of pushing a box of weight `weight` after walking `walk` steps.
    fn edge(walk: u32, weight: u32) -> Self::G;
    /// `a + b`, or `None` on overflow.
    fn add(a: Self::G, b: Self::G) -> Option<Self::G>;
    /// A lower bound in bound units (pushes, or weighted pushes for cost) as a cost.
    fn lift(h: u16) -> Self::G;
    /// The pushes of a cost, for metrics that cap them.
    fn capped_pushes(_: Self::G) -> Option<u32> {
        None
    }
    /// The estimate f of a state reached at cost `g` whose lower bound is `h` (bound units), in
    /// a search whose solutions have at most `cap` pushes: `g + lift(h)` unless the metric knows
    /// better.
    fn f(g: Self::G, h: u16, _cap: Option<u32>) -> Self::G {
        Self::add(g, Self::lift(h)).unwrap_or(g)
    }
    /// Whether a path of cost `a` to a state beats one of cost `b` (the state keeps the better
    /// one). Usually the cost order; a metric may open states in one order and keep paths by
    /// another.
    fn better(a: Self::G, b: Self::G) -> bool {
        a < b
    }
    /// Whether an expanded state is expanded again when a better path to it turns up (needed
    /// when [`Metric::better`] is not the order states are opened in).
    const REOPEN: bool = false;
}

/// Fewest pushes.
pub struct Pushes;
/// Fewest moves, then fewest pushes.
pub struct Moves;
/// Least total cost: 1 per move plus the pushed box's weight per push.
pub struct WeightedCost;
/// Fewest moves among the solutions with at most a given number of pushes (the second pass of
/// the pushes mode, run with the push-optimal count as the cap).
///
/// States are opened by moves (the cost type is [`MovesPushes`]) and pruned when their pushes
/// plus the push bound exceed the cap; a state keeps the path with the fewest pushes, then the
/// fewest moves, and is expanded again when such a path turns up later. Why that finds the
/// fewest moves among push-optimal solutions: every prefix of a push-optimal solution reaches its
/// state with the fewest pushes possible (else a shorter solution would exist), and among those
/// with the fewest moves (else swapping prefixes would save moves); so the optimal solution's
/// states always get its prefix costs, and the A* argument over moves applies.
pub struct PushesThenMoves;

impl Metric for Pushes {
    type G = u32;
    type Open = Buckets;
    const WALKS: bool = false;
    const PUSHES_ONLY: bool = true;
    const WEIGHTED: bool = false;
    const OPTIMALITY: Optimality = Optimality::Pushes;
    fn edge(_: u32, _: u32) -> u32 {
        1
    }
    fn add(a: u32, b: u32) -> Option<u32> {
        a.checked_add(b)
    }
    fn lift(h: u16) -> u32 {
        u32::from(h)
    }
}

impl Metric for Moves {
    type G = MovesPushes;
    type Open = Heap<MovesPushes>;
    const WALKS: bool = true;
    const PUSHES_ONLY: bool = false;
    const WEIGHTED: bool = false;
    const OPTIMALITY: Optimality = Optimality::Moves;
    fn edge(walk: u32, _: u32) -> MovesPushes {
        MovesPushes { moves: walk.saturating_add(1), pushes: 1 }
    }
    fn add(a: MovesPushes, b: MovesPushes) -> Option<MovesPushes> {
        Some(MovesPushes { moves: a.moves.checked_add(b.moves)?, pushes: a.pushes.checked_add(b.pushes)? })
    }
    fn lift(h: u16) -> MovesPushes {
        // Every push is a move too.
        MovesPushes { moves: u32::from(h), pushes: u32::from(h) }
    }
}

impl Metric for WeightedCost {
    type G = u64;
    type Open = Heap<u64>;
    const WALKS: bool = true;
    const PUSHES_ONLY: bool = false;
    const WEIGHTED: bool = true;
    const OPTIMALITY: Optimality = Optimality::Cost;
    fn edge(walk: u32, weight: u32) -> u64 {
        u64::from(walk) + 1 + u64::from(weight)
    }
    fn add(a: u64, b: u64) -> Option<u64> {
        a.checked_add(b)
    }
    fn lift(h: u16) -> u64 {
        u64::from(h)
    }
}

impl Metric for PushesThenMoves {
    type G = MovesPushes;
    type Open = Heap<MovesPushes>;
    const WALKS: bool = true;
    const PUSHES_ONLY: bool = false;
    const WEIGHTED: bool = false;
    const OPTIMALITY: Optimality = Optimality::PushesMoves;
    const REOPEN: bool = true;
    fn edge(walk: u32, weight: u32) -> MovesPushes {
        Moves::edge(walk, weight)
    }
    fn add(a: MovesPushes, b: MovesPushes) -> Option<MovesPushes> {
        Moves::add(a, b)
    }
    fn lift(h: u16) -> MovesPushes {
        Moves::lift(h)
    }
    fn capped_pushes(g: MovesPushes) -> Option<u32> {
        Some(g.pushes)
    }
    /// The cap is the proven fewest pushes P, so a path of `g.pushes` pushes that is part of a
    /// solution at all has exactly `P - g.pushes` pushes left, each a move: a stronger bound than
    /// the push bound `h` whenever `h` is below it. (The bound depends on the path's pushes; it is
    /// exact on the states of every push-optimal solution, whose prefixes have the fewest pushes
    /// possible, so with reopening the A* argument holds. `f.pushes` above the cap still means
    /// that `h` says more pushes are needed than the path has left.)
    fn f(g: MovesPushes, h: u16, cap: Option<u32>) -> MovesPushes {
        let left = cap.map_or(0, |cap| cap.saturating_sub(g.pushes)).max(u32::from(h));
        MovesPushes { moves: g.moves.saturating_add(left), pushes: g.pushes.saturating_add(left) }
    }
    fn better(a: MovesPushes, b: MovesPushes) -> bool {
        (a.pushes, a.moves) < (b.pushes, b.moves)
    }
}

/// The search [`Solution::found_by`] credits with this engine's solutions.
pub const FOUND_BY: &str = "a-star";

/// Runs A* on `level` with the given analysis, minimising `objective`.
///
/// The pushes objective runs in two passes. The first proves the fewest pushes over states
/// merged by player region, with PI-corral pruning. Then (unless
/// [`AStarOptions::moves_tiebreak`](super::AStarOptions::moves_tiebreak) is off) the optimizer
/// ([`crate::optimize`]: vicinity searches and a reordering of the pushes, pushes fixed, moves
/// minimised) shortens that solution's walks under a quarter of the time left, and the second pass
/// searches exact player squares for a solution with that many pushes and fewer moves than the
/// shortened one (pushes capped at the first pass's count, moves below the shortened solution's).
/// It reports `pushes,moves` when it finishes within the solve's limits (time, memory and nodes are
/// shared by all passes): with the solution it found, or with the shortened one when it proved that
/// none has fewer moves. If the limits stop it, the shortened solution is returned, proven in
/// pushes only.
pub fn solve(level: &Level, a: &Analysis, config: &Config, objective: Objective) -> Result<Solution, SolveError> {
    solve_from(level, a, config, objective, Instant::now())
}

/// Like [`solve`], for a search whose clock started at `started` (before the analysis, so the
/// time limit covers it too).
pub fn solve_from(
    level: &Level,
    a: &Analysis,
    config: &Config,
    objective: Objective,
    started: Instant,
) -> Result<Solution, SolveError> {
    match objective {
        Objective::Pushes => {
            let first = run::<Pushes>(level, a, config, None, None, Stats::default(), started)?;
            then_moves(level, a, config, first, started)
        }
        Objective::Moves => run::<Moves>(level, a, config, None, None, Stats::default(), started),
        Objective::Cost => run::<WeightedCost>(level, a, config, None, None, Stats::default(), started),
    }
}

/// Like [`solve_from`] with the pushes objective, for a level that `found` (a solution not
/// proven optimal, from the fast engine) solves: the search drops every state that cannot
/// lead to fewer pushes than `found` has, so when it runs dry `found` is proven push-optimal
/// (and then shortened in moves like any proven solution), without searching the last layer
/// for a solution of its length. A solution with fewer pushes, if there is one, is found and
/// proven as usual.
pub(crate) fn prove_pushes(
    level: &Level,
    a: &Analysis,
    config: &Config,
    found: Solution,
    started: Instant,
) -> Result<Solution, SolveError> {
    let known = u32::try_from(found.pushes).unwrap_or(u32::MAX);
    let first = match run::<Pushes>(level, a, config, None, Some(known), Stats::default(), started) {
        Ok(better) => better,
        // Nothing has fewer pushes: `found` is push-optimal.
        Err(SolveError::Unsolvable(stats)) => Solution { stats, optimal: Some(Pushes::OPTIMALITY), ..found },
        Err(e) => return Err(e),
    };
    then_moves(level, a, config, first, started)
}

/// The second half of the pushes objective: `first`, a push-optimal solution, with its walks
/// shortened and the fewest moves among push-optimal solutions proven when the limits allow
/// (see [`solve`]).
fn then_moves(
    level: &Level,
    a: &Analysis,
    config: &Config,
    first: Solution,
    started: Instant,
) -> Result<Solution, SolveError> {
    if !config.astar.moves_tiebreak {
        return Ok(first);
    }
    let cap = u32::try_from(first.pushes).unwrap_or(u32::MAX);
    let stats = first.stats.clone();
    let seed = shorten_walks(level, first, config, started);
    let known = MovesPushes { moves: u32::try_from(seed.moves.len()).unwrap_or(u32::MAX), pushes: cap };
    match run::<PushesThenMoves>(level, a, config, Some(cap), Some(known), stats, started) {
        Ok(better) => Ok(better),
        // Nothing is cheaper than the seed: it is the fewest moves among push-optimal
        // solutions.
        Err(SolveError::Unsolvable(stats)) => {
            Ok(Solution { stats, optimal: Some(PushesThenMoves::OPTIMALITY), ..seed })
        }
        Err(e) => Ok(Solution { stats: e.stats().clone(), ..seed }),
    }
}

/// The share of the time left that [`shorten_walks`] gets, as a divisor.
const SHORTEN_SHARE: u32 = 4;
/// The largest radius of [`shorten_walks`]'s vicinity searches.
const SHORTEN_RADIUS: usize = 3;
/// The most search states of one of [`shorten_walks`]'s vicinity searches (about 1 GB).
const SHORTEN_STATES: usize = 32_000_000;

/// `solution` with its moves reduced by repeated vicinity searches and push reorderings
/// ([`crate::optimize::optimize_repeated`] under the pushes metric, radius 1 to 3: pushes never
/// more, moves as few as the box configurations near the solution's path and the orders of its
/// pushes that the reordering reaches allow), under a quarter of the time left, the cancel flag
/// and the memory limit; the solution as given when nothing shorter is found.
fn shorten_walks(level: &Level, solution: Solution, config: &Config, started: Instant) -> Solution {
    improved_near(level, &solution, config, started, true).unwrap_or(solution)
}

/// A solution with fewer pushes (or as many and fewer moves) than `solution`, an unproven
/// one, found by the optimizer among the box configurations near its path, under the same
/// limits as [`shorten_walks`]; `None` when there is none.
pub(crate) fn fewer_pushes_near(
    level: &Level,
    solution: &Solution,
    config: &Config,
    started: Instant,
) -> Option<Solution> {
    improved_near(level, solution, config, started, false)
}

/// What [`shorten_walks`] and [`fewer_pushes_near`] share: the optimizer's better solution
/// in the solver's form, or `None`. `fewest_pushes` says `solution` is push-optimal.
fn improved_near(
    level: &Level,
    solution: &Solution,
    config: &Config,
    started: Instant,
    fewest_pushes: bool,
) -> Option<Solution> {
    let deadline = config.time_limit.map(|t| {
        let left = t.saturating_sub(started.elapsed());
        Instant::now() + left / SHORTEN_SHARE
    });
    // A search state takes 16 bytes, and up to about as much again in the search's heap.
    let max_states = config.memory_limit.map_or(SHORTEN_STATES, |m| SHORTEN_STATES.min(m / 64));
    let limits = crate::optimize::Limits {
        radius: SHORTEN_RADIUS,
        max_configs: usize::MAX,
        max_states,
        deadline,
        fewest_pushes,
    };
    let mut budget = Budget::starting_at(config, started);
    let metric = crate::optimize::Metric::Pushes;
    let out =
        crate::optimize::optimize_repeated(level, &solution.lurd, metric, limits, &mut budget.stop_check()).ok()?;
    if !out.improved || out.pushes > solution.pushes {
        return None;
    }
    // Replay the moves (the optimizer verified them) into the solution's form.
    let letters = crate::lurd::decode(&out.lurd).ok()?;
    let mut position = crate::rules::Position::start(level);
    let mut moves = Vec::with_capacity(letters.len());
    for letter in letters {
        let (next, step) = position.step(level, letter.dir).ok()?;
        moves.push(step);
        position = next;
    }
    let weights = config.weights.clone().unwrap_or_else(|| level.weights().to_vec());
    Some(Solution {
        cost: cost_of(level, &weights, &moves),
        lurd: out.lurd,
        pushes: out.pushes,
        moves,
        ..solution.clone()
    })
}

/// A new child found while scanning a parent's pushes, waiting for its bound.
struct Pending<G> {
    g: G,
    hash: u64,
    push: Successor,
    table: super::frozen::TableId,
}

/// One A* search under metric `M`. `cap` bounds the pushes of any solution (for metrics that
/// count pushes first); `known` is the cost of a solution already found, so only cheaper ones
/// are searched (states whose f reaches it are dropped, and an exhausted search means none is
/// cheaper); `stats` are the counters of an earlier pass of the same solve, which this one
/// continues (limits are shared: the node limit counts both passes' expansions).
fn run<M: Metric>(
    level: &Level,
    a: &Analysis,
    config: &Config,
    cap: Option<u32>,
    known: Option<M::G>,
    mut stats: Stats,
    started: Instant,
) -> Result<Solution, SolveError> {
    let mut budget = Budget::starting_at(config, started);
    let over_cap = |f: M::G| {
        cap.zip(M::capped_pushes(f)).is_some_and(|(cap, pushes)| pushes > cap) || known.is_some_and(|k| f >= k)
    };
    let n_boxes = level.boxes().len();
    let level_weights: Vec<u32> = config.weights.clone().unwrap_or_else(|| level.weights().to_vec());
    if impossible(level) {
        return Err(SolveError::Unsolvable(budget.finish(stats, 0, 0)));
    }
    let (class_weight, box_class) = weight_classes(&level_weights, n_boxes, M::WEIGHTED);
    let push_weight: Vec<i64> = class_weight.iter().map(|&w| if M::WEIGHTED { 1 + i64::from(w) } else { 1 }).collect();
    let cover_goals = level.rule() == SolvedRule::AllGoalsCovered;
    let mut successors = Successors::new(a, rules::<M>(level, config));
    if !budget.fits(a.bytes() + LowerBound::bytes_for(a)) {
        return Err(budget.error(Stop::Memory, stats, 0, 0));
    }
    let frozen_goals = successors.rules().frozen_goals;
    let Some(bound) =
        LowerBound::new_within(a, config.heuristic, cover_goals, push_weight, frozen_goals, &mut budget.stop_check())
    else {
        let stop = budget.stop_reason();
        return Err(budget.error(stop, stats, 0, 0));
    };
    let layout = KeyLayout::new(a, class_weight.len());
    let memory = config.memory_limit.unwrap_or(usize::MAX);
    let mut f: Frontier<M> = Frontier { layout, store: NodeStore::new(layout), open: M::Open::new(), bound, memory };
    let mut boxes: Vec<BoxAt> = Vec::with_capacity(n_boxes);
    root(level, a, &box_class, &mut successors, &mut f, &mut budget, &stats, cap, &mut boxes)?;

    let class_weight = &class_weight;
    let mut pushes: Vec<Successor> = Vec::new();
    let mut new = Children { pending: Vec::new(), keys: Vec::new(), boxes: Vec::with_capacity(n_boxes) };
    let mut child_key = vec![0u64; layout.stride()];
    while let Some((g, id)) = f.open.pop() {
        let node = *f.store.node(id);
        if f.store.is_expanded(id) || node.g != g {
            continue;
        }
        f.store.set_expanded(id);
        stats.expanded += 1;
        if let Err(s) = budget.tick(stats.expanded) {
            return Err(budget.error(s, stats, f.store.len(), f.bytes(a)));
        }
        layout.decode(f.store.key(id), &mut boxes);
        let solved = if cover_goals {
            boxes.iter().filter(|b| a.is_goal(b.sq)).count() == a.goals()
        } else {
            boxes.iter().all(|b| a.is_goal(b.sq))
        };
        if solved {
            let stats = budget.finish(stats, f.store.len(), f.bytes(a));
            return finish::<M>(level, a, &f.store, id, &level_weights, stats, f.bound.tables_built());
        }
        let mut stop = || budget.poll().is_err();
        if successors.expand_within(a, &boxes, node.player, &mut pushes, &mut stats, &mut stop).is_err() {
            let stop = budget.stop_reason();
            return Err(budget.error(stop, stats, f.store.len(), f.bytes(a)));
        }
        for push in &pushes {
            // A box frozen on a goal changes the distance table; otherwise the frozen set is the
            // parent's (see `frozen`).
            let table = if push.freezes_on_goal {
                match frozen_table(a, &mut f, &mut budget, &mut successors, push, &boxes, &mut new.boxes) {
                    Ok(t) => t,
                    Err((stop, held)) => return Err(budget.error(stop, stats, f.store.len(), held)),
                }
            } else {
                node.table
            };
            child_key.copy_from_slice(f.store.key(id));
            layout.move_box(&mut child_key, push.from, push.to);
            let weight = class_weight[usize::from(push.from.class)];
            let Some(child_g) = M::add(node.g, M::edge(push.walk, weight)) else { continue };
            let h = hash(&child_key, push.player);
            match f.store.find(&child_key, push.player, h) {
                Some(existing) => reopen(&mut f, &mut stats, (id, existing), child_g, cap, &over_cap),
                None => {
                    new.keys.extend_from_slice(&child_key);
                    new.pending.push(Pending { g: child_g, hash: h, push: *push, table });
                }
            }
        }
        bound_children(a, &mut f, &mut budget, &mut stats, &mut new, &boxes, (id, node), cap, &over_cap)?;
        stats.peak_bytes = stats.peak_bytes.max(f.bytes(a) as u64);
    }
    let held = f.bytes(a);
    Err(SolveError::Unsolvable(budget.finish(stats, f.store.len(), held)))
}

/// The distance table of the child of `push`, which freezes its box on a goal: `boxes` the
/// parent's, `scratch` takes the child's. When the table does not fit or a limit stops it,
/// why, with the bytes held before it.
fn frozen_table<M: Metric>(
    a: &Analysis,
    f: &mut Frontier<M>,
    budget: &mut Budget,
    successors: &mut Successors,
    push: &Successor,
    boxes: &[BoxAt],
    scratch: &mut Vec<BoxAt>,
) -> Result<super::frozen::TableId, (Stop, usize)> {
    scratch.clear();
    scratch.extend_from_slice(boxes);
    scratch[push.index].sq = push.to;
    let (held, room) = (f.bytes(a), f.room(a));
    let made = successors.with_push(push, |board| f.bound.table_for(a, board, scratch, room, &mut budget.stop_check()));
    match made {
        Ok(t) => Ok(t),
        Err(NoTable::Full) => Err((Stop::Memory, held)),
        Err(NoTable::Stopped) => Err((budget.stop_reason(), held)),
    }
}

/// A child of `id` that is the stored state `existing`, reached at `child_g`: when that is
/// better (and the state not expanded, or the metric reopens), it takes `id` as its parent and
/// goes back on the open list under its new f (unless that reaches the cap); else a duplicate.
fn reopen<M: Metric>(
    f: &mut Frontier<M>,
    stats: &mut Stats,
    (id, existing): (NodeId, NodeId),
    child_g: M::G,
    cap: Option<u32>,
    over_cap: &impl Fn(M::G) -> bool,
) {
    let expanded = f.store.is_expanded(existing);
    if (!expanded || M::REOPEN) && M::better(child_g, f.store.node(existing).g) {
        if expanded {
            f.store.clear_expanded(existing);
        }
        let old = f.store.node_mut(existing);
        old.g = child_g;
        old.parent = Some(id);
        let f_cost = M::f(child_g, old.h, cap);
        if !over_cap(f_cost) {
            f.open.push(f_cost, child_g, existing);
        }
    } else {
        stats.duplicates += 1;
    }
}

/// Whether `level` has no solution under its rule for want of boxes or goals.
fn impossible(level: &Level) -> bool {
    let (boxes, goals) = (level.boxes().len(), level.goals().len());
    match level.rule() {
        SolvedRule::Standard => boxes != goals,
        SolvedRule::AllBoxesOnGoals => boxes > goals,
        SolvedRule::AllGoalsCovered => goals == 0 || boxes < goals,
    }
}

/// Weight classes: boxes of equal weight are interchangeable, so they share a bitset. The
/// classes' weights (at least one class) and each of the `boxes` boxes' class; with `weighted`
/// off every box is in class 0.
fn weight_classes(weights: &[u32], boxes: usize, weighted: bool) -> (Vec<u32>, Vec<u16>) {
    let mut class_weight: Vec<u32> = Vec::new();
    let mut box_class: Vec<u16> = Vec::with_capacity(boxes);
    for i in 0..boxes {
        let w = if weighted { weights.get(i).copied().unwrap_or(0) } else { 0 };
        let c = class_weight.iter().position(|&x| x == w).unwrap_or_else(|| {
            class_weight.push(w);
            class_weight.len() - 1
        });
        box_class.push(c as u16);
    }
    if class_weight.is_empty() {
        class_weight.push(0);
    }
    (class_weight, box_class)
}

/// The pruning rules of a search under metric `M` on `level`.
fn rules<M: Metric>(level: &Level, config: &Config) -> Rules {
    Rules {
        deadlocks: true,
        corrals: config.pruning.corrals && M::PUSHES_ONLY,
        fill_goals: level.boxes().len() == level.goals().len(),
        normalize: M::PUSHES_ONLY,
        walks: M::WALKS,
        frozen_goals: config.pruning.frozen_goals && config.heuristic == Heuristic::Hungarian,
    }
}

/// What an A* search holds: the key layout, the states, the open list and the lower bound,
/// within the memory limit `memory`.
struct Frontier<M: Metric> {
    layout: KeyLayout,
    store: NodeStore<M::G>,
    open: M::Open,
    bound: LowerBound,
    memory: usize,
}

impl<M: Metric> Frontier<M> {
    /// Bytes held, with the analysis behind the search.
    fn bytes(&self, a: &Analysis) -> usize {
        a.bytes() + self.store.bytes() + self.open.bytes() + self.bound.bytes()
    }

    /// Room left for a new distance table.
    fn room(&self, a: &Analysis) -> usize {
        self.memory.saturating_sub(self.bytes(a))
    }
}

/// The new children of the state being expanded, waiting for their bounds: each with its key
/// in `keys`, one after another; `boxes` is scratch for a child's boxes.
struct Children<G> {
    pending: Vec<Pending<G>>,
    keys: Vec<u64>,
    boxes: Vec<BoxAt>,
}

/// Stores and queues the start state of `level` (its boxes, classed by `box_class`, left
/// decoded in `boxes`), with its distance table and bound: an error when a box starts dead,
/// the boxes have no matching or a limit stops it.
#[allow(clippy::too_many_arguments)]
fn root<M: Metric>(
    level: &Level,
    a: &Analysis,
    box_class: &[u16],
    successors: &mut Successors,
    f: &mut Frontier<M>,
    budget: &mut Budget,
    stats: &Stats,
    cap: Option<u32>,
    boxes: &mut Vec<BoxAt>,
) -> Result<(), SolveError> {
    for (i, &b) in level.boxes().iter().enumerate() {
        let sq = a.sq(b);
        if !a.is_live(sq) {
            return Err(SolveError::Unsolvable(budget.finish(stats.clone(), 0, 0)));
        }
        boxes.push(BoxAt { sq, class: box_class[i] });
    }
    let mut key = vec![0u64; f.layout.stride()];
    f.layout.encode(boxes, &mut key);
    f.layout.decode(&key, boxes);
    successors.load(boxes);
    let player = a.sq(level.player());
    let root_player = if successors.rules().normalize { successors.normalized(a, player) } else { player };
    let (held, room) = (f.bytes(a), f.room(a));
    let made = f.bound.table_for(a, successors, boxes, room, &mut budget.stop_check());
    let root_table = match made {
        Ok(t) => t,
        Err(NoTable::Full) => return Err(budget.error(Stop::Memory, stats.clone(), 0, held)),
        Err(NoTable::Stopped) => {
            let stop = budget.stop_reason();
            return Err(budget.error(stop, stats.clone(), 0, held));
        }
    };
    let matched = f.bound.of_within(a, root_table, boxes, &mut budget.stop_check());
    let h = match matched {
        Ok(Some(h)) => h,
        Ok(None) => return Err(SolveError::Unsolvable(budget.finish(stats.clone(), 0, held))),
        Err(Stopped) => {
            let stop = budget.stop_reason();
            return Err(budget.error(stop, stats.clone(), 0, held));
        }
    };
    let root = Node { parent: None, g: M::G::default(), h: clamp(h), player: root_player, table: root_table };
    let root_id = f.store.insert(&key, root, hash(&key, root_player)).expect("the store starts empty");
    f.open.push(M::f(root.g, root.h, cap), root.g, root_id);
    Ok(())
}

/// Gives the new children of state `id` (`node`, its boxes `boxes`) their bounds, after the
/// sibling scan, so the parent's matching is solved (for incremental re-solving) only when at
/// least two children need it; stores and queues those with a matching whose f stays under
/// the cap (`over_cap`).
#[allow(clippy::too_many_arguments)]
fn bound_children<M: Metric>(
    a: &Analysis,
    f: &mut Frontier<M>,
    budget: &mut Budget,
    stats: &mut Stats,
    new: &mut Children<M::G>,
    boxes: &[BoxAt],
    (id, node): (NodeId, Node<M::G>),
    cap: Option<u32>,
    over_cap: &impl Fn(M::G) -> bool,
) -> Result<(), SolveError> {
    let stride = f.layout.stride();
    f.bound.begin_children(a, boxes.len(), new.pending.len(), (id, node.parent));
    for (k, c) in new.pending.iter().enumerate() {
        let key = &new.keys[k * stride..(k + 1) * stride];
        if let Err(s) = budget.poll() {
            return Err(budget.error(s, stats.clone(), f.store.len(), f.bytes(a)));
        }
        new.boxes.clear();
        new.boxes.extend_from_slice(boxes);
        new.boxes[c.push.index].sq = c.push.to;
        let mut stop = || budget.poll().is_err();
        let bounded = f.bound.child(a, node.table, c.table, boxes, &new.boxes, c.push.index, &mut stop);
        match bounded {
            Err(Stopped) => {
                let stop = budget.stop_reason();
                return Err(budget.error(stop, stats.clone(), f.store.len(), f.bytes(a)));
            }
            Ok(None) => stats.pruned_no_matching += 1,
            Ok(Some(h)) => {
                let held = f.bytes(a);
                if !budget.fits(held + f.store.growth().max(f.open.growth())) {
                    return Err(budget.error(Stop::Memory, stats.clone(), f.store.len(), held));
                }
                let child = Node { parent: Some(id), g: c.g, h: clamp(h), player: c.push.player, table: c.table };
                let Some(child_id) = f.store.insert(key, child, c.hash) else {
                    return Err(budget.error(Stop::Memory, stats.clone(), f.store.len(), held));
                };
                let f_cost = M::f(c.g, child.h, cap);
                if !over_cap(f_cost) {
                    f.open.push(f_cost, c.g, child_id);
                }
            }
        }
    }
    new.pending.clear();
    new.keys.clear();
    Ok(())
}

/// A bound kept in a node. Clamping keeps a consistent bound consistent
/// (`min(h, M) <= min(h', M) + 1` whenever `h <= h' + 1`).
fn clamp(h: u64) -> u16 {
    u16::try_from(h).unwrap_or(u16::MAX)
}

/// Rebuilds the push path to `goal` from the keys along it, expands it into moves and packages
/// the solution.
fn finish<M: Metric>(
    level: &Level,
    a: &Analysis,
    store: &NodeStore<M::G>,
    goal: NodeId,
    weights: &[u32],
    mut stats: Stats,
    tables: usize,
) -> Result<Solution, SolveError> {
    let path = store.path_to(goal);
    let mut pushes = Vec::with_capacity(path.len());
    for pair in path.windows(2) {
        let (from, to) =
            store.layout().moved(store.key(pair[0]), store.key(pair[1])).expect("a child differs by one push");
        let dir = Dir::ALL.into_iter().find(|&d| a.neighbor(from, d) == Some(to)).expect("a push moves one square");
        pushes.push(Push { from: a.square(from), dir });
    }
    let moves = pushes_to_moves(level, &pushes).expect("the search only makes legal pushes");
    stats.frozen_tables = tables as u64;
    let cost = cost_of(level, weights, &moves);
    Ok(Solution::from_moves(moves, cost, Some(M::OPTIMALITY), stats).credited(FOUND_BY))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;

    /// The solution that `lurd` spells, not proven optimal.
    fn replay(level: &Level, lurd: &str) -> Solution {
        let mut position = crate::rules::Position::start(level);
        let mut moves = Vec::new();
        for letter in crate::lurd::decode(lurd).unwrap() {
            let (next, step) = position.step(level, letter.dir).unwrap();
            moves.push(step);
            position = next;
        }
        assert!(position.is_solved(level), "{lurd}");
        let pushes = lurd.chars().filter(char::is_ascii_uppercase).count();
        let cost = cost_of(level, level.weights(), &moves);
        let solution = Solution::from_moves(moves, cost, None, Stats::default());
        assert_eq!((solution.lurd.as_str(), solution.pushes), (lurd, pushes));
        solution
    }

    #[test]
    fn a_known_solution_is_proven_or_beaten() {
        // The box needs two pushes to the right; the long way pushes it down and back up first.
        let level = parse_levels("########\n#      #\n#  $ . #\n#   @  #\n#      #\n########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let config = Config { astar: crate::solver::AStarOptions { moves_tiebreak: false }, ..Config::optimal(None) };
        let short = replay(&level, "lluRR");
        let proven = prove_pushes(&level, &a, &config, short, Instant::now()).unwrap();
        // Nothing has fewer than two pushes: the known solution itself, now proven.
        assert_eq!((proven.lurd.as_str(), proven.optimal), ("lluRR", Some(Optimality::Pushes)));
        let long = replay(&level, "uulDlddrUluRR");
        let beaten = prove_pushes(&level, &a, &config, long, Instant::now()).unwrap();
        assert_eq!((beaten.pushes, beaten.optimal), (2, Some(Optimality::Pushes)));
    }
}
