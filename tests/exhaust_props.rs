//! Property tests of the exhaustive dead-position search: "dead" is a proof, so it must never
//! be said of a level the push-optimal A* solves, and a dead verdict must agree with A*'s
//! exhaustive search on the same small levels.

mod common;

use proptest::prelude::*;
use sokoban::analysis::{Analysis, Sq};
use sokoban::format::parse_levels;
use sokoban::solver::exhaust::Exhaust;
use sokoban::solver::{Config, Mode, SolveError, solve};

fn level_from(text: Option<String>) -> Option<sokoban::Level> {
    parse_levels(&text?).ok().map(|mut v| v.remove(0))
}

/// Whether the exhaustive search proves the level's start dead within `budget` positions:
/// the engines' search, or with `complete` the one without the stop at open floor.
fn proves_dead(level: &sokoban::Level, budget: usize, complete: bool) -> bool {
    let a = Analysis::new(level);
    let boxes: Vec<Sq> = level.boxes().iter().map(|&b| a.sq(b)).collect();
    let reaches = |s: usize, g: usize| a.distance(g, Sq::new(s)).is_some();
    let mut exhaust = if complete { Exhaust::new(&a).complete() } else { Exhaust::new(&a) };
    exhaust.proves_dead(&a, &boxes, a.sq(level.player()), budget, reaches, &mut || false)
}

/// Whether the exhaustive search proves dead the level's boxes but the one at `skip` (modulo
/// their number): a search of fewer boxes than goals, in which boxes vanish (see
/// `sokoban::solver::exhaust`).
fn subset_proves_dead(level: &sokoban::Level, skip: usize) -> bool {
    let a = Analysis::new(level);
    let all: Vec<Sq> = level.boxes().iter().map(|&b| a.sq(b)).collect();
    let skip = skip % all.len();
    let boxes: Vec<Sq> = all.iter().enumerate().filter(|&(i, _)| i != skip).map(|(_, &b)| b).collect();
    let reaches = |s: usize, g: usize| a.distance(g, Sq::new(s)).is_some();
    Exhaust::new(&a).proves_dead(&a, &boxes, a.sq(level.player()), 100_000, reaches, &mut || false)
}

fn astar_solvable(level: &sokoban::Level) -> Option<bool> {
    let config = Config { mode: Mode::Pushes, node_limit: Some(200_000), ..Config::optimal(None) };
    match solve(level, &config) {
        Ok(_) => Some(true),
        Err(SolveError::Unsolvable(_)) => Some(false),
        Err(_) => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn dead_only_when_unsolvable(seed in any::<u64>(), w in 2usize..8, h in 2usize..7, boxes in 1usize..4) {
        let Some(level) = level_from(common::random_level(seed, w, h, boxes, 20)) else { return Ok(()) };
        let (dead, complete) = (proves_dead(&level, 100_000, false), proves_dead(&level, 100_000, true));
        match astar_solvable(&level) {
            Some(true) => prop_assert!(!dead && !complete, "a solvable level was proven dead"),
            // With room for every position, the complete search decides as A* does.
            Some(false) if Analysis::new(&level).pruning() => prop_assert!(complete, "an unsolvable level was not proven dead"),
            _ => {}
        }
        // The stop at open floor only gives proofs up.
        prop_assert!(!dead || complete);
    }

    #[test]
    fn a_subset_proven_dead_dooms_the_level(seed in any::<u64>(), w in 3usize..8, h in 3usize..7, boxes in 2usize..5, skip in 0usize..4) {
        let Some(level) = level_from(common::random_level(seed, w, h, boxes, 20)) else { return Ok(()) };
        if subset_proves_dead(&level, skip) {
            prop_assert!(astar_solvable(&level) != Some(true), "a solvable level's boxes were proven dead");
        }
    }

    #[test]
    fn no_subset_of_a_level_made_by_pulling_is_dead(seed in any::<u64>(), w in 3usize..8, h in 3usize..7, boxes in 2usize..5, skip in 0usize..4) {
        let Some(level) = level_from(common::pulled_level(seed, w, h, boxes, 15, 60)) else { return Ok(()) };
        prop_assert!(!subset_proves_dead(&level, skip));
    }

    #[test]
    fn levels_made_by_pulling_are_never_dead(seed in any::<u64>(), w in 3usize..8, h in 3usize..7, boxes in 1usize..4) {
        let Some(level) = level_from(common::pulled_level(seed, w, h, boxes, 15, 60)) else { return Ok(()) };
        prop_assert!(!proves_dead(&level, 100_000, true));
    }
}
