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
use super::expand::{Push as LevelPush, pushes_to_moves};
use super::frozen::NoTable;
use super::hungarian::Stopped;
use super::open::{Buckets, Heap, OpenList};
use super::report::{Optimality, Solution, SolveError, Stats};
use super::state::{BoxAt, KeyLayout, hash};
use super::store::{Node, NodeId, NodeStore};
use super::successors::{Push, Rules, Successors};
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

/// Runs A* on `level` with the given analysis, minimising `objective`.
///
/// The pushes objective runs in two passes. The first proves the fewest pushes over states
/// merged by player region, with PI-corral pruning. Then (unless [`AStarOptions::moves_tiebreak`](super::AStarOptions::moves_tiebreak) is
/// off) the optimizer ([`crate::optimize`]: vicinity searches and a reordering of the pushes,
/// pushes fixed, moves minimised) shortens that solution's walks under a quarter of the time
/// left, and the second pass searches exact player squares for a solution with that many pushes
/// and fewer moves than the shortened one (pushes capped at the first pass's count, moves below
/// the shortened solution's). It reports
/// `pushes,moves` when it finishes within the solve's limits (time, memory and nodes are shared
/// by all passes): with the solution it found, or with the shortened one when it proved that
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
    push: Push,
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
    let n_goals = level.goals().len();
    let rule = level.rule();
    let level_weights: Vec<u32> = config.weights.clone().unwrap_or_else(|| level.weights().to_vec());
    let impossible = match rule {
        SolvedRule::Standard => n_boxes != n_goals,
        SolvedRule::AllBoxesOnGoals => n_boxes > n_goals,
        SolvedRule::AllGoalsCovered => n_goals == 0 || n_boxes < n_goals,
    };
    if impossible {
        return Err(SolveError::Unsolvable(budget.finish(stats, 0, 0)));
    }
    // Weight classes: boxes of equal weight are interchangeable, so they share a bitset.
    let weighted = M::WEIGHTED;
    let mut class_weight: Vec<u32> = Vec::new();
    let mut box_class: Vec<u16> = Vec::with_capacity(n_boxes);
    for i in 0..n_boxes {
        let w = if weighted { level_weights.get(i).copied().unwrap_or(0) } else { 0 };
        let c = class_weight.iter().position(|&x| x == w).unwrap_or_else(|| {
            class_weight.push(w);
            class_weight.len() - 1
        });
        box_class.push(c as u16);
    }
    if class_weight.is_empty() {
        class_weight.push(0);
    }
    let push_weight: Vec<i64> = class_weight.iter().map(|&w| if weighted { 1 + i64::from(w) } else { 1 }).collect();
    let cover_goals = rule == SolvedRule::AllGoalsCovered;
    let mut successors = Successors::new(
        a,
        Rules {
            deadlocks: true,
            corrals: config.pruning.corrals && M::PUSHES_ONLY,
            fill_goals: n_boxes == n_goals,
            normalize: M::PUSHES_ONLY,
            walks: M::WALKS,
            frozen_goals: config.pruning.frozen_goals && config.heuristic == Heuristic::Hungarian,
        },
    );
    if !budget.fits(a.bytes() + LowerBound::bytes_for(a)) {
        return Err(budget.error(Stop::Memory, stats, 0, 0));
    }
    let frozen_goals = successors.rules().frozen_goals;
    let Some(mut bound) =
        LowerBound::new_within(a, config.heuristic, cover_goals, push_weight, frozen_goals, &mut budget.stop_check())
    else {
        let stop = budget.stop_reason();
        return Err(budget.error(stop, stats, 0, 0));
    };
    let layout = KeyLayout::new(a, class_weight.len());
    let mut store: NodeStore<M::G> = NodeStore::new(layout);
    let mut open = M::Open::new();
    let bytes = |store: &NodeStore<M::G>, open: &M::Open, bound: &LowerBound| {
        a.bytes() + store.bytes() + open.bytes() + bound.bytes()
    };
    // Room left for a new distance table.
    let memory = config.memory_limit.unwrap_or(usize::MAX);
    let room = |held: usize| memory.saturating_sub(held);

    // The root.
    let mut boxes: Vec<BoxAt> = Vec::with_capacity(n_boxes);
    for (i, &b) in level.boxes().iter().enumerate() {
        let sq = a.sq(b);
        if !a.is_live(sq) {
            return Err(SolveError::Unsolvable(budget.finish(stats, 0, 0)));
        }
        boxes.push(BoxAt { sq, class: box_class[i] });
    }
    let mut key = vec![0u64; layout.stride()];
    layout.encode(&boxes, &mut key);
    layout.decode(&key, &mut boxes);
    successors.load(&boxes);
    let player = a.sq(level.player());
    let root_player = if successors.rules().normalize { successors.normalized(a, player) } else { player };
    let held = bytes(&store, &open, &bound);
    let made = bound.table_for(a, &mut successors, &boxes, room(held), &mut budget.stop_check());
    let root_table = match made {
        Ok(t) => t,
        Err(NoTable::Full) => return Err(budget.error(Stop::Memory, stats, 0, held)),
        Err(NoTable::Stopped) => {
            let stop = budget.stop_reason();
            return Err(budget.error(stop, stats, 0, held));
        }
    };
    let matched = bound.of_within(a, root_table, &boxes, &mut budget.stop_check());
    let h = match matched {
        Ok(Some(h)) => h,
        Ok(None) => return Err(SolveError::Unsolvable(budget.finish(stats, 0, held))),
        Err(Stopped) => {
            let stop = budget.stop_reason();
            return Err(budget.error(stop, stats, 0, held));
        }
    };
    let root = Node { parent: None, g: M::G::default(), h: clamp(h), player: root_player, table: root_table };
    let root_id = store.insert(&key, root, hash(&key, root_player)).expect("the store starts empty");
    open.push(M::f(root.g, root.h, cap), root.g, root_id);

    let class_weight = &class_weight;
    let mut pushes: Vec<Push> = Vec::new();
    let mut child_boxes: Vec<BoxAt> = Vec::with_capacity(n_boxes);
    let mut child_key = vec![0u64; layout.stride()];
    let mut pending: Vec<Pending<M::G>> = Vec::new();
    let mut pending_keys: Vec<u64> = Vec::new();
    while let Some((g, id)) = open.pop() {
        let node = *store.node(id);
        if store.is_expanded(id) || node.g != g {
            continue;
        }
        store.set_expanded(id);
        stats.expanded += 1;
        if let Err(s) = budget.tick(stats.expanded) {
            return Err(budget.error(s, stats, store.len(), bytes(&store, &open, &bound)));
        }
        layout.decode(store.key(id), &mut boxes);
        let solved = if cover_goals {
            boxes.iter().filter(|b| a.is_goal(b.sq)).count() == a.goals()
        } else {
            boxes.iter().all(|b| a.is_goal(b.sq))
        };
        if solved {
            let stats = budget.finish(stats, store.len(), bytes(&store, &open, &bound));
            return finish::<M>(level, a, &store, id, &level_weights, stats, bound.tables_built());
        }
        let mut stop = || budget.poll().is_err();
        if successors.expand_within(a, &boxes, node.player, &mut pushes, &mut stats, &mut stop).is_err() {
            let stop = budget.stop_reason();
            return Err(budget.error(stop, stats, store.len(), bytes(&store, &open, &bound)));
        }
        for push in &pushes {
            // A box frozen on a goal changes the distance table; otherwise the frozen set is the
            // parent's (see `frozen`).
            let table = if push.freezes_on_goal {
                child_boxes.clone_from(&boxes);
                child_boxes[push.index].sq = push.to;
                let held = bytes(&store, &open, &bound);
                let made = successors.with_push(push, |board| {
                    bound.table_for(a, board, &child_boxes, room(held), &mut budget.stop_check())
                });
                match made {
                    Ok(t) => t,
                    Err(NoTable::Full) => return Err(budget.error(Stop::Memory, stats, store.len(), held)),
                    Err(NoTable::Stopped) => {
                        let stop = budget.stop_reason();
                        return Err(budget.error(stop, stats, store.len(), held));
                    }
                }
            } else {
                node.table
            };
            child_key.copy_from_slice(store.key(id));
            layout.move_box(&mut child_key, push.from, push.to);
            let weight = class_weight[usize::from(push.from.class)];
            let Some(child_g) = M::add(node.g, M::edge(push.walk, weight)) else { continue };
            let h = hash(&child_key, push.player);
            match store.find(&child_key, push.player, h) {
                Some(existing) => {
                    let expanded = store.is_expanded(existing);
                    if (!expanded || M::REOPEN) && M::better(child_g, store.node(existing).g) {
                        if expanded {
                            store.clear_expanded(existing);
                        }
                        let old = store.node_mut(existing);
                        old.g = child_g;
                        old.parent = Some(id);
                        let f = M::f(child_g, old.h, cap);
                        if !over_cap(f) {
                            open.push(f, child_g, existing);
                        }
                    } else {
                        stats.duplicates += 1;
                    }
                }
                None => {
                    pending_keys.extend_from_slice(&child_key);
                    pending.push(Pending { g: child_g, hash: h, push: *push, table });
                }
            }
        }
        // New children get their bounds here, after the sibling scan, so the parent's matching
        // is solved (for incremental re-solving) only when at least two children need it.
        bound.begin_children(a, boxes.len(), pending.len(), (id, node.parent));
        for (k, c) in pending.iter().enumerate() {
            let key = &pending_keys[k * layout.stride()..(k + 1) * layout.stride()];
            if let Err(s) = budget.poll() {
                return Err(budget.error(s, stats, store.len(), bytes(&store, &open, &bound)));
            }
            child_boxes.clone_from(&boxes);
            child_boxes[c.push.index].sq = c.push.to;
            let mut stop = || budget.poll().is_err();
            let bounded = bound.child(a, node.table, c.table, &boxes, &child_boxes, c.push.index, &mut stop);
            match bounded {
                Err(Stopped) => {
                    let stop = budget.stop_reason();
                    return Err(budget.error(stop, stats, store.len(), bytes(&store, &open, &bound)));
                }
                Ok(None) => stats.pruned_no_matching += 1,
                Ok(Some(h)) => {
                    let held = bytes(&store, &open, &bound);
                    if !budget.fits(held + store.growth().max(open.growth())) {
                        return Err(budget.error(Stop::Memory, stats, store.len(), held));
                    }
                    let child = Node { parent: Some(id), g: c.g, h: clamp(h), player: c.push.player, table: c.table };
                    let Some(child_id) = store.insert(key, child, c.hash) else {
                        return Err(budget.error(Stop::Memory, stats, store.len(), held));
                    };
                    let f = M::f(c.g, child.h, cap);
                    if !over_cap(f) {
                        open.push(f, c.g, child_id);
                    }
                }
            }
        }
        pending.clear();
        pending_keys.clear();
        stats.peak_bytes = stats.peak_bytes.max(bytes(&store, &open, &bound) as u64);
    }
    let held = bytes(&store, &open, &bound);
    Err(SolveError::Unsolvable(budget.finish(stats, store.len(), held)))
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
        pushes.push(LevelPush { from: a.square(from), dir });
    }
    let moves = pushes_to_moves(level, &pushes).expect("the search only makes legal pushes");
    stats.frozen_tables = tables as u64;
    let cost = cost_of(level, weights, &moves);
    Ok(Solution::from_moves(moves, cost, Some(M::OPTIMALITY), stats))
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
