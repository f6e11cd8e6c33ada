//! The midpoint: a forward search aimed at the backward searches' farthest state.
//!
//! In goal-room levels the backward searches (`super::pull`) often get much of the way: they
//! pull the boxes out of the goal room one after another, which never jams, and stop short of
//! the start because the last part, sorting the boxes out of the storage the start puts them
//! in, is hard backwards. The forward passes meet them only on an equal state, and they aim
//! at the goals, not at the boxes' places in the backward line, so the two rarely meet.
//! Festival's "imagined board" joins them: a forward search whose targets are the squares
//! of the boxes of a state the backward search reached, after which the backward line, its
//! pulls undone, packs the goal room.
//!
//! [`through_backward`] does that with the state of either backward tree nearest the start
//! by its matching (`super::pull::Backward::best`), when that is a small part of the goals'
//! distance from the start: the backward search did most of the work, and the forward part
//! is short. The level with that state's box squares as its goals (the same board, so the
//! same square numbering) is solved by the fast engine itself, by its first pass alone for
//! the whole of the midpoint's share (`super::Board::Imagined`): that level asks only for
//! the boxes to go where the backward line found them, which the first pass does within
//! about a second or not at all, so half of the share (the short schedule's first pass)
//! leaves it too little on a slower machine. Then the backward line's pushes follow. States whose
//! player reaches all the free floor come first, since the join then holds wherever the forward
//! part leaves the player; when no such state is near enough, the forward part may leave the player
//! in another region than the backward state's, and a search of the level from where it ends
//! ([`finish_from`], as a sprint, with a plan of its own) meets the backward trees, which hold that
//! state's neighbourhood. The joined solution is verified here, since its parts were found on
//! different levels. When no solution comes within the budget the level stays unsolved. The
//! midpoint is the last stage of a solve under short limits (and of a long limit's first round), so
//! a level the passes solve never pays for it. The backward searches pause while it runs (the
//! join's search starts from the state aimed at, not from theirs) and grow on after it, beside the
//! passes that follow under a long limit.
//!
//! The staging midpoint ([`through_staging`]) aims where the backward searches reached no
//! state near enough: at the first plan's staged position (`PackingPlan::staged`), the point
//! of the packing search's line (`super::bases`) where, forwards, the goal area is emptiest
//! and its boxes wait round it, the boxes the line has yet to take away still on their start
//! squares. That line is no line of the game (a box it took away stands on its start square
//! forwards, in the way of later pulls), so the position is only a target, reached in two
//! parts. The second, the level searched from the staged position, is tried first, once from
//! each region of the floor the waiting boxes leave the player: they fence much of the floor,
//! and a player left on the wrong side is shut out (XSokoban 66: the boxes waiting at the
//! right seal its strip of floor, the only way behind them). The first region from which that
//! search finds the rest says where the first part must leave the player: the imagined level
//! with its goals on the staged position, solved by one first pass whose solution must end in
//! that region ([`Weights::end_region`]). Each part is short where the plan's storage is right
//! (the goal area packs along the plan, the boxes go to their squares with the goals open),
//! where the level as a whole defeats the passes.

use std::time::Instant;

use super::hotspots::Hotspots;
use super::keyed::{self, hash_key};
use super::packing::Peel;
use super::search::{self, Learned, Weights};
use super::turns::Turn;
use crate::analysis::region::Flood;
use crate::analysis::{Analysis, Sq};
use crate::level::{BuildOptions, Level, Square};
use crate::solver::expand::{Push, moves_to_pushes, pushes_to_moves};
use crate::solver::{Config, Solution, SolveError, Stats, cost_of};

/// What the midpoint came to: a solution of `level`, or the error that ends the solve (with
/// the midpoint's counters), `None` when there was no backward state to aim at. The
/// backward searches in `learned` grow no more while it runs (a join searches the level from
/// the state aimed at, whose start is not theirs); a join searches the level with `hot` and
/// `weights` (see [`finish_from`]).
pub(super) fn through_backward(
    level: &Level,
    a: &Analysis,
    hot: (&Hotspots, Weights),
    learned: &mut Learned,
    config: &Config,
    started: Instant,
) -> Option<Result<Solution, SolveError>> {
    let paused = learned.backward.pause();
    let result = aim(level, a, hot, learned, config, started);
    learned.backward.resume(paused);
    result
}

/// [`through_backward`], the backward searches paused.
fn aim(
    level: &Level,
    a: &Analysis,
    (hot, weights): (&Hotspots, Weights),
    learned: &mut Learned,
    config: &Config,
    started: Instant,
) -> Option<Result<Solution, SolveError>> {
    let (search, _, id) = learned.backward.best()?;
    let mut boxes = Vec::new();
    learned.backward.state(search, id, &mut boxes);
    let mid = midpoint_level(level, a, &boxes)?;
    let mid_a = Analysis::new(&mid);
    let first = match super::solve_passes(&mid, &mid_a, config, started, super::Board::Imagined, learned.turn()) {
        Ok(first) => first,
        Err(e) => return Some(Err(e)),
    };
    let mut stats = first.stats.clone();
    let Some(mut pushes) = moves_to_pushes(&mid, &first.moves) else {
        return Some(Err(SolveError::NodeLimit(stats)));
    };
    let mut player = level.player();
    for m in &first.moves {
        player = level.neighbor(player, m.dir)?;
    }
    // The backward line from the boxes on `boxes` with the player where the forward part left
    // it, or a search from there that meets a backward line.
    let tail = match backward_state(a, &learned.backward, &boxes, a.sq(player).index()) {
        Some((search, id)) => Some(learned.backward.pushes_from(a, search, id)),
        None => {
            let left = left_after(config, started, &stats);
            let (tail, spent) = finish_from(level, a, (hot, weights), learned, &left, (&boxes, player));
            stats.add(&spent);
            tail
        }
    };
    let Some(tail) = tail else {
        return Some(Err(SolveError::NodeLimit(stats)));
    };
    pushes.extend(tail);
    Some(joined(level, &pushes, stats))
}

/// The staging midpoint (see the module docs): a solution of `level` through `staged` (sorted
/// solver squares of `a`, the plan's [`super::packing::PackingPlan::staged`]), under
/// `config`'s limits on the clock started at `started`: the rest from the staged position
/// ([`rest_from_staged`]), then the first part to it, the imagined level with its goals on
/// `staged` solved by the first pass alone ending where the rest begins. An error, with the
/// counters of every search, when either part finds nothing.
pub(super) fn through_staging(
    level: &Level,
    a: &Analysis,
    hot: (&Hotspots, Weights),
    learned: &mut Learned,
    config: &Config,
    (staged, started): (&[u16], Instant),
) -> Result<Solution, SolveError> {
    let left = |stats: &Stats| left_after(config, started, stats);
    // The rest packs the goal area along the plan: with the plan-reach cells (see
    // `super::plan_reach`), as the first pass; the first part without them, its plan being
    // only where the boxes wait.
    let rest = (hot.0, Weights { astray: config.fast.plan_reach, ..hot.1 });
    let (found, mut stats) = rest_from_staged(level, a, rest, learned, staged, |stats| {
        let slot = left(stats);
        let time_limit = slot.time_limit.map(|t| t / STAGING_TRY);
        Config { time_limit, node_limit: slot.node_limit.map(|n| n / u64::from(STAGING_TRY)), ..slot }
    });
    let Some((tail, player)) = found else { return Err(SolveError::NodeLimit(stats)) };
    let Some(mid) = midpoint_level(level, a, staged) else { return Err(SolveError::NodeLimit(stats)) };
    let mid_a = Analysis::new(&mid);
    let end = end_region(a, &mid_a, staged, player);
    let first = match first_part(&mid, &mid_a, &left(&stats), (hot.1, end), learned.turn()) {
        Ok(first) => first,
        Err(mut e) => {
            e.stats_mut().add(&stats);
            return Err(e);
        }
    };
    stats.add(&first.stats);
    let Some(mut pushes) = moves_to_pushes(&mid, &first.moves) else { return Err(SolveError::NodeLimit(stats)) };
    pushes.extend(tail);
    joined(level, &pushes, stats)
}

/// The pushes from the staged position (`staged`, solver squares of `a`) to the solved one and
/// the square of `a` the player starts them from: a search of `level` (as [`finish_from`],
/// sharing `learned`) from each region of the floor that position leaves the player, the
/// largest first, under the limits `slot` gives after the counters so far, until one finds
/// them. The counters of every search come with them.
fn rest_from_staged(
    level: &Level,
    a: &Analysis,
    hot: (&Hotspots, Weights),
    learned: &mut Learned,
    staged: &[u16],
    slot: impl Fn(&Stats) -> Config,
) -> (Option<(Vec<Push>, Sq)>, Stats) {
    let mut stats = Stats::default();
    for player in region_seeds(a, staged) {
        let config = slot(&stats);
        if config.time_limit.is_some_and(|t| t.is_zero()) || config.node_limit == Some(0) {
            break;
        }
        let (found, spent) = finish_from(level, a, hot, learned, &config, (staged, a.square(player)));
        stats.add(&spent);
        if let Some(found) = found {
            return (Some((found, player)), stats);
        }
    }
    (None, stats)
}

/// The limits of one region's search in [`through_staging`]: a [`STAGING_TRY`]th of what is
/// left. The region that holds the rest mostly finds it within a fraction of a second; the
/// others end in a proof that their position is dead or run out.
const STAGING_TRY: u32 = 4;

/// One square (of `a`) of each region of the floor the boxes on `boxes` leave free, the
/// largest region first.
fn region_seeds(a: &Analysis, boxes: &[u16]) -> Vec<Sq> {
    let occupied = occupancy(a.squares(), boxes.iter().map(|&b| usize::from(b)));
    let mut seen = vec![false; a.squares()];
    let mut flood = Flood::new(a.squares());
    let mut regions = Vec::new();
    for s in a.all() {
        if occupied[s.index()] != 0 || seen[s.index()] {
            continue;
        }
        flood.player(a, &occupied, s);
        for t in flood.squares() {
            seen[t.index()] = true;
        }
        regions.push((std::cmp::Reverse(flood.squares().len()), s));
    }
    regions.sort_unstable();
    regions.into_iter().map(|(_, s)| s).collect()
}

/// The occupancy array of `n` solver squares (nonzero: a box) with boxes on `boxes`.
fn occupancy(n: usize, boxes: impl IntoIterator<Item = usize>) -> Vec<u8> {
    let mut occupied = vec![0u8; n];
    for b in boxes {
        occupied[b] = 1;
    }
    occupied
}

/// The normalised player (a solver square of `mid_a`) of the imagined level's position with
/// its boxes on `staged` (solver squares of `a`) and the player on `player` (of `a`).
fn end_region(a: &Analysis, mid_a: &Analysis, staged: &[u16], player: Sq) -> u16 {
    let boxes = staged.iter().map(|&b| mid_a.sq(a.square(Sq::new(usize::from(b)))).index());
    let occupied = occupancy(mid_a.squares(), boxes);
    let player = mid_a.sq(a.square(player));
    Flood::new(mid_a.squares()).player(mid_a, &occupied, player).index() as u16
}

/// The imagined level `mid`'s solution by one first pass (`weights`) that must end with the
/// player's region `end` (see [`Weights::end_region`]), with a plan and hotspots of its own and
/// no backward search (its lines would end anywhere); in a lane that takes turns with others,
/// it takes the lane's `turn`.
fn first_part(
    mid: &Level,
    mid_a: &Analysis,
    config: &Config,
    (weights, end): (Weights, u16),
    turn: Option<Turn>,
) -> Result<Solution, SolveError> {
    let started = Instant::now();
    let plan = search::plan(mid, mid_a, config, Peel::OneByOne, started)?;
    let hot = match weights.hotspots {
        Some(_) => Hotspots::new(mid_a, &mut || search::stop_reason(config, started).is_some())
            .ok_or_else(|| search::halted(config, started))?,
        None => Hotspots::empty(mid_a),
    };
    let mut own = Learned::new(mid_a, super::pull::Backward::none()).taking_turns(turn);
    let weights = Weights { end_region: Some(end), ..weights };
    search::run(mid, mid_a, &plan, &hot, &left_after(config, started, &Stats::default()), weights, &mut own)
}

/// `config` with what is left of its limits after `spent` on the clock started at `started`:
/// each search keeps a clock of its own, and what ran before it (a plan, another search)
/// took its share.
fn left_after(config: &Config, started: Instant, spent: &Stats) -> Config {
    Config {
        node_limit: config.node_limit.map(|n| n.saturating_sub(spent.expanded)),
        time_limit: config.time_limit.map(|t| t.saturating_sub(started.elapsed())),
        ..config.clone()
    }
}

/// The pushes from the state with `boxes` (sorted solver squares of `a`) and the player on
/// `player` to the solved position, by a search of `level` from that state (the first pass's
/// `weights`, a plan made afresh) that shares `learned`: its deadlock patterns and the
/// backward trees, which the search meets. The search's counters come with them.
fn finish_from(
    level: &Level,
    a: &Analysis,
    (hot, weights): (&Hotspots, Weights),
    learned: &mut Learned,
    config: &Config,
    (boxes, player): (&[u16], Square),
) -> (Option<Vec<Push>>, Stats) {
    let started = Instant::now();
    let mut has_box = vec![false; level.square_count()];
    for &b in boxes {
        has_box[a.square(Sq::new(usize::from(b))).index()] = true;
    }
    let options = BuildOptions { rule: level.rule(), edges: level.edges(), format: level.format() };
    let start = Level::from_raw(level.raw_with(|s| has_box[s.index()], player), level.meta().clone(), options);
    // The search's pushes are read as `level`'s squares: the same board, the same numbering.
    let Some(start) = start.ok().filter(|s| (s.width(), s.height()) == (level.width(), level.height())) else {
        return (None, Stats::default());
    };
    let Ok(plan) = search::plan(&start, a, config, Peel::OneByOne, started) else {
        return (None, Stats::default());
    };
    let config = &left_after(config, started, &Stats::default());
    match search::run(&start, a, &plan, hot, config, Weights { sprint: None, ..weights }, learned) {
        Ok(solution) => (moves_to_pushes(&start, &solution.moves), solution.stats),
        Err(e) => (None, e.stats().clone()),
    }
}

/// The backward state with `boxes` (sorted solver squares of `a`) and the player's region
/// holding solver square `player`: (search, state), when either search reached it.
fn backward_state(
    a: &Analysis,
    backward: &super::pull::Backward,
    boxes: &[u16],
    player: usize,
) -> Option<(usize, u32)> {
    let mut occupied = vec![0u8; a.squares()];
    let mut key = vec![0u64; keyed::words(a)];
    for &b in boxes {
        occupied[usize::from(b)] = 1;
        key[usize::from(b) / 64] |= 1 << (b % 64);
    }
    let region = Flood::new(a.squares()).player(a, &occupied, Sq::new(player)).index() as u16;
    backward.find(&key, region, hash_key(&key))
}

/// `level`'s solution made of `pushes` with the player's walks between them, checked: the
/// parts were found on other levels of the same board, so the whole is verified here. An
/// error with `stats` when it does not solve `level`.
fn joined(level: &Level, pushes: &[Push], stats: Stats) -> Result<Solution, SolveError> {
    let solution = pushes_to_moves(level, pushes).map(|moves| {
        let cost = cost_of(level, level.weights(), &moves);
        Solution::from_moves(moves, cost, None, stats.clone())
    });
    match solution {
        Some(s) if crate::verify::verify(level, &s.lurd).is_valid_solution() => Ok(s),
        _ => Err(SolveError::NodeLimit(stats)),
    }
}

/// The level with the start's boxes and player and the goals on `boxes` (solver squares of
/// `a`), on the same board; `None` when it is no level (it always is one).
fn midpoint_level(level: &Level, a: &Analysis, boxes: &[u16]) -> Option<Level> {
    let mut goal = vec![false; level.square_count()];
    for &b in boxes {
        goal[a.square(Sq::new(usize::from(b))).index()] = true;
    }
    let mut start = vec![false; level.square_count()];
    for b in level.boxes() {
        start[b.index()] = true;
    }
    let mut raw = level.raw_with(|s| start[s.index()], level.player());
    for (r, row) in raw.rows.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            cell.goal = level.square_at(r, c).is_some_and(|s| goal[s.index()]);
        }
    }
    let options = BuildOptions { rule: level.rule(), edges: level.edges(), format: level.format() };
    let mid = Level::from_raw(raw, level.meta().clone(), options).ok()?;
    // The pushes of `mid` are read as `level`'s squares: the same board, the same numbering.
    ((mid.width(), mid.height(), mid.square_count()) == (level.width(), level.height(), level.square_count()))
        .then_some(mid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_levels;
    use crate::solver::fast::pull::Backward;

    #[test]
    fn the_forward_line_to_a_backward_state_and_its_pulls_solve_the_level() {
        let level =
            parse_levels("############\n#          #\n#@ $  $    #\n#        ..#\n############\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let config = Config { node_limit: Some(1_000), ..Config::default() };
        let mut backward = Backward::new(&level, &a, &config);
        // Pulls until a state near the start: the backward searches stop short of it.
        while backward.best().is_none() {
            assert!(backward.advance(&a, &mut || false, |_, _, _| None).is_none());
        }
        assert!(backward.best().is_some());
        let mut learned = Learned::new(&a, backward);
        let hot = Hotspots::empty(&a);
        let weights = crate::solver::fast::passes(&config)[0];
        let solution = through_backward(&level, &a, (&hot, weights), &mut learned, &config, Instant::now());
        let solution = solution.expect("a state").expect("solved");
        assert!(crate::verify::verify(&level, &solution.lurd).is_valid_solution(), "{}", solution.lurd);
    }

    /// A doorway goal between two rooms: pushed straight in, the box leaves the player in the
    /// left room; asked to end in the right one, the line takes the box through the doorway
    /// and back.
    #[test]
    fn the_first_part_ends_with_the_player_in_the_region_asked_for() {
        let level = parse_levels("#########\n#   #   #\n#@$ .   #\n#   #   #\n#########\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let config = Config { node_limit: Some(1_000), ..Config::default() };
        let weights = crate::solver::fast::passes(&config)[0];
        let goal = [a.sq(level.square_at(2, 4).unwrap()).index() as u16];
        let end_of = |solution: &Solution| {
            let player = solution.moves.iter().fold(level.player(), |p, m| level.neighbor(p, m.dir).unwrap());
            level.coords(player).1
        };
        for (room, columns) in [((2, 1), 1..4), ((2, 7), 5..8)] {
            let player = a.sq(level.square_at(room.0, room.1).unwrap());
            let end = end_region(&a, &a, &goal, player);
            let solution = first_part(&level, &a, &config, (weights, end), None).expect("solved");
            assert!(crate::verify::verify(&level, &solution.lurd).is_valid_solution(), "{}", solution.lurd);
            assert!(columns.contains(&end_of(&solution)), "{} ends in column {}", solution.lurd, end_of(&solution));
        }
    }

    /// XSokoban 66: its plan's line empties the goal band onto the floor round it; the boxes
    /// go there first, then into the goals, the player ending the first part on the side from
    /// which the second holds.
    #[test]
    fn the_staging_midpoint_solves_a_goal_room_level_through_the_plans_staged_position() {
        let root = env!("CARGO_MANIFEST_DIR");
        let text = std::fs::read_to_string(format!("{root}/data/xsokoban90.xsb")).unwrap();
        let level = parse_levels(&text).unwrap().remove(65);
        let a = Analysis::new(&level);
        let config = Config { node_limit: Some(400_000), ..Config::default() };
        let plan = search::plan(&level, &a, &config, Peel::OneByOne, Instant::now()).unwrap();
        let staged = plan.staged.expect("a staged position");
        let mut learned = Learned::new(&a, Backward::none());
        let hot = Hotspots::new(&a, &mut || false).unwrap();
        let weights = crate::solver::fast::passes(&config)[0];
        let solution = through_staging(&level, &a, (&hot, weights), &mut learned, &config, (&staged, Instant::now()));
        let solution = solution.expect("solved");
        assert!(crate::verify::verify(&level, &solution.lurd).is_valid_solution(), "{}", solution.lurd);
    }

    #[test]
    fn the_midpoint_level_has_the_goals_on_the_backward_boxes() {
        let level = parse_levels("#######\n#@$ ..#\n#  $  #\n#######\n").unwrap().remove(0);
        let a = Analysis::new(&level);
        let on = |r, c| a.sq(level.square_at(r, c).unwrap()).index() as u16;
        let mid = midpoint_level(&level, &a, &[on(1, 3), on(2, 4)]).expect("a level");
        assert_eq!(mid.goals(), &[level.square_at(1, 3).unwrap(), level.square_at(2, 4).unwrap()]);
        assert_eq!((mid.boxes(), mid.player()), (level.boxes(), level.player()));
    }
}
