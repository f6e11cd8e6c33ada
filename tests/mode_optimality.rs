//! The `moves`, `cost` and `bfs` modes against an exhaustive Dijkstra over unit moves, on hundreds
//! of small generated levels. The oracle is written here from the level's squares alone (it does
//! not use the rules module or the solver), tracks box identities so weights follow their boxes,
//! and orders costs exactly as the modes promise: `moves` = (moves, pushes) lexicographically,
//! `cost` = 1 per move plus the pushed box's weight per push.

mod common;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use sokoban::format::parse_levels;
use sokoban::level::{Dir, Level, Square};
use sokoban::solver::{Config, Mode, SolveError, cost_of, solve};
use sokoban::verify::verify;

/// Player square and each box's square, boxes in their start order (identity matters for weights).
type State = (Square, Vec<Square>);

/// What the oracle minimises.
#[derive(Clone, Copy)]
enum Order<'w> {
    /// (moves, pushes), encoded as `moves << 20 | pushes`.
    MovesPushes,
    /// (pushes, moves), encoded as `pushes << 20 | moves`.
    PushesMoves,
    /// 1 per move plus the box's weight per push.
    Weighted(&'w [u32]),
}

/// Exhaustive Dijkstra over unit moves under `order`. Returns the optimum cost, or None if no
/// solved state is reachable, or Err if more than `cap` states were met.
fn dijkstra(level: &Level, order: Order, cap: usize) -> Result<Option<u64>, ()> {
    let start: State = (level.player(), level.boxes().to_vec());
    let mut best: HashMap<State, u64> = HashMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(start.clone(), 0);
    heap.push(Reverse((0u64, start)));
    let solved = |boxes: &[Square]| {
        let on_goal = boxes.iter().filter(|&&b| level.is_goal(b)).count();
        level.rule().is_solved(boxes.len(), level.goals().len(), on_goal)
    };
    while let Some(Reverse((cost, (player, boxes)))) = heap.pop() {
        if best.get(&(player, boxes.clone())).is_some_and(|&c| c < cost) {
            continue;
        }
        if solved(&boxes) {
            return Ok(Some(cost));
        }
        for dir in Dir::ALL {
            let Some(next) = level.neighbor(player, dir) else { continue };
            let mut new_boxes = boxes.clone();
            let step_cost = match boxes.iter().position(|&b| b == next) {
                None => match order {
                    Order::MovesPushes => 1 << 20,
                    Order::PushesMoves | Order::Weighted(_) => 1,
                },
                Some(i) => {
                    let Some(beyond) = level.neighbor(next, dir) else { continue };
                    if boxes.contains(&beyond) {
                        continue;
                    }
                    new_boxes[i] = beyond;
                    match order {
                        Order::MovesPushes | Order::PushesMoves => (1 << 20) + 1,
                        Order::Weighted(w) => 1 + u64::from(w[i]),
                    }
                }
            };
            let state = (next, new_boxes);
            let c = cost + step_cost;
            if best.get(&state).is_none_or(|&old| c < old) {
                if best.len() > cap {
                    return Err(());
                }
                best.insert(state.clone(), c);
                heap.push(Reverse((c, state)));
            }
        }
    }
    Ok(None)
}

fn levels(count: usize, seed0: u64, boxes: usize) -> Vec<Level> {
    let mut out = Vec::new();
    let mut seed = seed0;
    while out.len() < count {
        seed += 1;
        let size = 4 + (seed % 3) as usize;
        let text = if seed.is_multiple_of(3) {
            common::random_level(seed, size, size, boxes, 20)
        } else {
            common::pulled_level(seed, size, size, boxes, 20, 200)
        };
        let Some(text) = text else { continue };
        if let Ok(mut v) = parse_levels(&text) {
            out.push(v.remove(0));
        }
    }
    out
}

fn show(level: &Level) -> String {
    sokoban::format::xsb::write(level)
}

#[test]
#[allow(clippy::result_large_err)] // a test closure returning the library's own result type
fn moves_mode_and_bfs_equal_exhaustive_search() {
    let (mut solved, mut unsolvable) = (0, 0);
    for (i, level) in levels(400, 7000, 3).into_iter().enumerate() {
        let Ok(oracle) = dijkstra(&level, Order::MovesPushes, 400_000) else { continue };
        let moves = solve(&level, &Config { mode: Mode::Moves, ..Config::optimal(None) });
        // BFS is slow by design: run it on every other level.
        let bfs = (i % 2 == 0).then(|| solve(&level, &Config { mode: Mode::Bfs, ..Config::optimal(None) }));
        match (oracle, moves) {
            (Some(opt), Ok(s)) => {
                let report = verify(&level, &s.lurd);
                assert!(report.is_valid_solution(), "{}", show(&level));
                let (m, p) = (opt >> 20, opt & ((1 << 20) - 1));
                assert_eq!((report.moves as u64, report.pushes as u64), (m, p), "{}", show(&level));
                if let Some(b) = bfs {
                    let b = b.expect("bfs solves what moves solves");
                    assert!(verify(&level, &b.lurd).is_valid_solution());
                    assert_eq!(b.moves.len() as u64, m, "bfs\n{}", show(&level));
                }
                solved += 1;
            }
            (None, Err(SolveError::Unsolvable(_))) => {
                if let Some(b) = bfs {
                    assert!(matches!(b, Err(SolveError::Unsolvable(_))), "{}", show(&level));
                }
                unsolvable += 1;
            }
            (o, r) => panic!("oracle {o:?}, solver {:?}\n{}", r.map(|s| s.lurd), show(&level)),
        }
    }
    eprintln!("moves: {solved} solved, {unsolvable} unsolvable");
    assert!(solved >= 100, "only {solved} solvable levels checked");
    assert!(unsolvable >= 10, "only {unsolvable} unsolvable levels checked");
}

#[test]
fn cost_mode_equals_exhaustive_search_with_weights() {
    let mut rng = common::Rng::new(99);
    let (mut solved, mut unsolvable) = (0, 0);
    for level in levels(300, 9000, 3) {
        let weights: Vec<u32> = (0..level.boxes().len()).map(|_| rng.below(6) as u32).collect();
        let Ok(oracle) = dijkstra(&level, Order::Weighted(&weights), 600_000) else { continue };
        let config = Config { mode: Mode::Cost, weights: Some(weights.clone()), ..Config::optimal(None) };
        match (oracle, solve(&level, &config)) {
            (Some(opt), Ok(s)) => {
                assert!(verify(&level, &s.lurd).is_valid_solution(), "{}", show(&level));
                assert_eq!(s.cost, opt, "weights {weights:?}\n{}", show(&level));
                assert_eq!(cost_of(&level, &weights, &s.moves), opt);
                solved += 1;
            }
            (None, Err(SolveError::Unsolvable(_))) => unsolvable += 1,
            (o, r) => panic!("oracle {o:?}, solver {:?}\n{}", r.map(|s| s.lurd), show(&level)),
        }
    }
    eprintln!("cost: {solved} solved, {unsolvable} unsolvable");
    assert!(solved >= 100, "only {solved} solvable levels checked");
    assert!(unsolvable >= 10, "only {unsolvable} unsolvable levels checked");
}

#[test]
fn pushes_mode_proves_the_fewest_moves_among_push_optimal_solutions() {
    let (mut both, mut pushes_only, mut shortened, mut shortest) = (0, 0, 0, 0);
    for level in levels(300, 11_000, 3) {
        let Ok(Some(opt)) = dijkstra(&level, Order::PushesMoves, 400_000) else { continue };
        let s = solve(&level, &Config::optimal(None)).expect("solvable");
        let report = verify(&level, &s.lurd);
        assert!(report.is_valid_solution(), "{}", show(&level));
        let (p, m) = (opt >> 20, opt & ((1 << 20) - 1));
        assert_eq!(report.pushes as u64, p, "{}", show(&level));
        match s.optimal {
            Some(sokoban::solver::Optimality::PushesMoves) => {
                assert_eq!(report.moves as u64, m, "{}", show(&level));
                both += 1;
            }
            other => {
                assert_eq!(other, Some(sokoban::solver::Optimality::Pushes));
                pushes_only += 1;
            }
        }
        // Without the second pass the push count is the same and only pushes are claimed.
        let first = solve(
            &level,
            &Config { astar: sokoban::solver::AStarOptions { moves_tiebreak: false }, ..Config::optimal(None) },
        )
        .unwrap();
        assert_eq!((first.pushes as u64, first.optimal), (p, Some(sokoban::solver::Optimality::Pushes)));
        assert!(first.moves.len() as u64 >= m);
        // When the limits stop the second pass at once (the node limit is the first pass's
        // expansions), the answer is the first pass's solution with its walks shortened by the
        // vicinity search: as many pushes, no more moves, optimal in pushes only.
        let stopped = Config { node_limit: Some(first.stats.expanded), ..Config::optimal(None) };
        let short = solve(&level, &stopped).unwrap();
        let report = verify(&level, &short.lurd);
        assert!(report.is_valid_solution(), "{}", show(&level));
        assert_eq!((report.pushes as u64, short.optimal), (p, Some(sokoban::solver::Optimality::Pushes)));
        assert!((m..=first.moves.len() as u64).contains(&(report.moves as u64)), "{}", show(&level));
        shortened += usize::from(report.moves < first.moves.len());
        shortest += usize::from(report.moves as u64 == m);
    }
    eprintln!("pushes,moves proven on {both} levels ({pushes_only} pushes only)");
    eprintln!("stopped second pass: {shortened} shortened by the vicinity search, {shortest} to the fewest moves");
    assert!(both >= 100, "only {both} levels checked");
    assert!(shortened >= 10, "the vicinity search shortened only {shortened} solutions");
}
