//! The push-optimal solver against exhaustive breadth-first search over pushes, on hundreds of
//! small generated levels: equal push counts, unsolvable exactly when the oracle says so, every
//! solution verified, and no deadlock rule ever pruning a solvable state.

mod common;

use std::collections::{HashMap, VecDeque};

use sokoban::analysis::Analysis;
use sokoban::format::parse_levels;
use sokoban::level::{Dir, Level, Square};
use sokoban::rules::Position;
use sokoban::solver::successors::{Rules, level_pushes};
use sokoban::solver::{Config, Heuristic, Mode, Pruning, SolveError, solve};
use sokoban::verify::verify;

/// A push-level state: sorted boxes and the lowest square of the player's region.
type State = (Vec<Square>, Square);

fn region(level: &Level, pos: &Position) -> Vec<Square> {
    let mut seen = vec![false; level.square_count()];
    let mut out = vec![pos.player()];
    seen[pos.player().index()] = true;
    let mut i = 0;
    while i < out.len() {
        for d in Dir::ALL {
            if let Some(t) = level.neighbor(out[i], d).filter(|&t| !seen[t.index()] && !pos.has_box(t)) {
                seen[t.index()] = true;
                out.push(t);
            }
        }
        i += 1;
    }
    out
}

fn state_of(level: &Level, pos: &Position) -> State {
    (pos.boxes().collect(), *region(level, pos).iter().min().unwrap())
}

/// Every push from a position: (child position, landing square of the box).
fn pushes(level: &Level, pos: &Position) -> Vec<(Position, Square)> {
    let mut out = Vec::new();
    for p in region(level, pos) {
        let at = Position::from_parts(level, p, pos.boxes());
        for d in Dir::ALL {
            if let Ok((next, mv)) = at.step(level, d)
                && mv.push
            {
                out.push((next.clone(), level.neighbor(next.player(), d).unwrap()));
            }
        }
    }
    out
}

struct Oracle {
    /// Push depth of each reachable state.
    depth: HashMap<State, usize>,
    edges: Vec<(State, State, Position, Square)>,
    solvable: std::collections::HashSet<State>,
    optimum: Option<usize>,
}

fn oracle(level: &Level, cap: usize) -> Option<Oracle> {
    let start = Position::start(level);
    let mut depth = HashMap::new();
    let mut rep = HashMap::new();
    let s0 = state_of(level, &start);
    depth.insert(s0.clone(), 0);
    rep.insert(s0.clone(), start);
    let mut queue = VecDeque::from([s0]);
    let mut edges = Vec::new();
    let mut optimum = None;
    while let Some(s) = queue.pop_front() {
        if depth.len() > cap {
            return None;
        }
        let pos = rep[&s].clone();
        if pos.is_solved(level) {
            optimum = Some(optimum.unwrap_or(depth[&s]).min(depth[&s]));
            continue;
        }
        for (child, landed) in pushes(level, &pos) {
            let c = state_of(level, &child);
            if !depth.contains_key(&c) {
                depth.insert(c.clone(), depth[&s] + 1);
                rep.insert(c.clone(), child.clone());
                queue.push_back(c.clone());
            }
            edges.push((s.clone(), c, child, landed));
        }
    }
    // Solvable states: backwards from the solved ones.
    let mut solvable: std::collections::HashSet<State> =
        depth.keys().filter(|s| rep[*s].is_solved(level)).cloned().collect();
    loop {
        let before = solvable.len();
        for (from, to, _, _) in &edges {
            if solvable.contains(to) {
                solvable.insert(from.clone());
            }
        }
        if solvable.len() == before {
            break;
        }
    }
    Some(Oracle { depth, edges, solvable, optimum })
}

fn levels(count: usize, seed0: u64) -> Vec<Level> {
    let mut out = Vec::new();
    let mut seed = seed0;
    while out.len() < count {
        seed += 1;
        let size = 4 + (seed % 3) as usize; // interior 4..6, so rooms of 6×6 to 8×8 with walls
        let boxes = 3 + (seed / 3 % 2) as usize;
        // Two in three are made by reverse play (solvable), the rest by random placement.
        let text = if seed.is_multiple_of(3) {
            common::random_level(seed, size, size, boxes, 18)
        } else {
            common::pulled_level(seed, size, size, boxes, 18, 300)
        };
        let Some(text) = text else { continue };
        if let Ok(mut v) = parse_levels(&text) {
            out.push(v.remove(0));
        }
    }
    out
}

#[test]
fn push_counts_equal_exhaustive_search_and_pruning_is_safe() {
    let (mut solved, mut unsolvable, mut pruned_checked) = (0, 0, 0);
    for level in levels(300, 1000) {
        let Some(o) = oracle(&level, 60_000) else { continue };
        let result = solve(&level, &Config::optimal(None));
        match (o.optimum, result) {
            (Some(opt), Ok(s)) => {
                assert_eq!(s.pushes, opt, "{}", sokoban::format::xsb::write(&level));
                assert!(verify(&level, &s.lurd).is_valid_solution());
                solved += 1;
            }
            (None, Err(SolveError::Unsolvable(_))) => unsolvable += 1,
            (opt, r) => {
                panic!("oracle {opt:?}, solver {:?}\n{}", r.map(|s| s.lurd), sokoban::format::xsb::write(&level))
            }
        }
        // No rule of the engines' successor generator may prune a push into a solvable state.
        let a = Analysis::new(&level);
        let rules = Rules {
            deadlocks: true,
            corrals: false,
            fill_goals: true,
            normalize: true,
            walks: false,
            frozen_goals: false,
        };
        for (_, to, child, landed) in &o.edges {
            // The parent: the box went from where the player now stands to `landed`.
            let from = child.player();
            let dir = Dir::ALL.into_iter().find(|&d| level.neighbor(from, d) == Some(*landed)).unwrap();
            let boxes: Vec<Square> = child.boxes().map(|b| if b == *landed { from } else { b }).collect();
            let behind = level.neighbor(from, dir.opposite()).unwrap();
            if !level_pushes(&a, rules, &boxes, behind).contains(&(from, dir)) {
                pruned_checked += 1;
                assert!(
                    !o.solvable.contains(to),
                    "the generator pruned a push into a solvable state\n{}",
                    sokoban::format::xsb::raw_rows(&level, &child.to_raw(&level)).join("\n")
                );
            }
        }
        assert!(!o.depth.is_empty());
    }
    eprintln!("{solved} solved, {unsolvable} unsolvable, {pruned_checked} pruned pushes checked");
    assert!(solved >= 100, "only {solved} solvable levels generated");
    assert!(unsolvable >= 10, "only {unsolvable} unsolvable levels generated");
    assert!(pruned_checked > 1000, "only {pruned_checked} pruned pushes checked");
}

#[test]
fn every_heuristic_gives_the_same_optimum() {
    for level in levels(60, 5000) {
        let push_count =
            |heuristic| solve(&level, &Config { heuristic, ..Config::optimal(None) }).map(|s| s.pushes).ok();
        let h = push_count(Heuristic::Hungarian);
        assert_eq!(push_count(Heuristic::Zero), h);
        assert_eq!(push_count(Heuristic::Boxes), h);
    }
}

#[test]
fn limits_are_reported_not_fatal() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/microban.xsb")).unwrap();
    let level = parse_levels(&text).unwrap().remove(92); // Microban 93, a hard one
    let config = Config { memory_limit: Some(2 << 20), ..Config::optimal(None) };
    match solve(&level, &config) {
        Err(SolveError::MemoryLimit(st)) => assert!(st.peak_bytes <= 2 << 20, "{st:?}"),
        other => panic!("expected memory-limit, got {:?}", other.map(|s| s.pushes)),
    }
    let config = Config { node_limit: Some(1000), ..Config::optimal(None) };
    assert!(matches!(solve(&level, &config), Err(SolveError::NodeLimit(_))));
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let config = Config { cancel: Some(cancel), mode: Mode::Pushes, ..Config::optimal(None) };
    assert!(matches!(solve(&level, &config), Err(SolveError::Cancelled(_))));
    let config = Config { time_limit: Some(std::time::Duration::from_millis(300)), ..Config::optimal(None) };
    let t = std::time::Instant::now();
    assert!(matches!(solve(&level, &config), Err(SolveError::Timeout(_))));
    assert!(t.elapsed().as_secs_f64() < 0.33, "{:?}", t.elapsed());
}

/// PI-corral pruning against the same search without it, on busier levels (more boxes, so
/// corrals are common): equal push counts, equal verdicts, and the rule must actually fire.
#[test]
fn corral_pruning_keeps_push_optimality() {
    let (mut compared, mut cuts) = (0, 0);
    let mut seed: u64 = 40_000;
    while compared < 300 {
        seed += 1;
        let size = 5 + (seed % 3) as usize;
        let boxes = 4 + (seed % 3) as usize;
        let text = if seed.is_multiple_of(4) {
            common::random_level(seed, size, size, boxes, 22)
        } else {
            common::pulled_level(seed, size, size, boxes, 22, 1000)
        };
        let Some(Ok(mut v)) = text.map(|t: String| parse_levels(&t)) else { continue };
        let level = v.remove(0);
        // Without a lower bound the search is broad, so it meets many more corrals.
        let config = Config { node_limit: Some(100_000), heuristic: Heuristic::Zero, ..Config::optimal(None) };
        let with = solve(&level, &config);
        let without = solve(&level, &Config { pruning: Pruning { corrals: false, ..config.pruning }, ..config });
        let show = || sokoban::format::xsb::write(&level);
        match (&with, &without) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.pushes, b.pushes, "{}", show());
                assert!(verify(&level, &a.lurd).is_valid_solution());
                cuts += a.stats.corral_cuts;
            }
            (Err(SolveError::Unsolvable(st)), Err(SolveError::Unsolvable(_))) => cuts += st.corral_cuts,
            // A limit on either side says nothing; pruning may only make the search smaller.
            (_, Err(SolveError::NodeLimit(_))) => continue,
            (a, b) => panic!(
                "with {:?}, without {:?}\n{}",
                a.as_ref().map(|s| s.pushes),
                b.as_ref().map(|s| s.pushes),
                show()
            ),
        }
        compared += 1;
    }
    eprintln!("{compared} compared, {cuts} corral cuts");
    assert!(cuts > 1000, "only {cuts} corral cuts");
}

/// Distance tables with boxes frozen on goals as walls, against uniform-cost search without
/// any bound (the ground truth): equal push counts and verdicts, and the tables must be used.
#[test]
fn frozen_goal_tables_keep_push_optimality() {
    let (mut compared, mut tables) = (0, 0);
    let mut seed: u64 = 70_000;
    while compared < 300 {
        seed += 1;
        let size = 5 + (seed % 3) as usize;
        let boxes = 4 + (seed % 3) as usize;
        let Some(Ok(mut v)) = common::pulled_level(seed, size, size, boxes, 22, 1000).map(|t| parse_levels(&t)) else {
            continue;
        };
        let level = v.remove(0);
        let config = Config { node_limit: Some(200_000), ..Config::optimal(None) };
        let with = solve(&level, &config);
        let truth = solve(
            &level,
            &Config { heuristic: Heuristic::Zero, pruning: Pruning { frozen_goals: false, corrals: false }, ..config },
        );
        let show = || sokoban::format::xsb::write(&level);
        match (&with, &truth) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.pushes, b.pushes, "{}", show());
                assert!(verify(&level, &a.lurd).is_valid_solution());
                tables += a.stats.frozen_tables;
            }
            (Err(SolveError::Unsolvable(st)), Err(SolveError::Unsolvable(_))) => tables += st.frozen_tables,
            (_, Err(SolveError::NodeLimit(_))) => continue,
            (a, b) => {
                panic!("with {:?}, truth {:?}\n{}", a.as_ref().map(|s| s.pushes), b.as_ref().map(|s| s.pushes), show())
            }
        }
        compared += 1;
    }
    eprintln!("{compared} compared, {tables} frozen-goal tables built");
    assert!(tables > 100, "only {tables} frozen-goal tables built");
}
