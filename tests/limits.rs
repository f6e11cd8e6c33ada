//! Limits that hold whatever the level's size: the time limit, the cancel flag and the memory
//! limit are observed during the static analysis, the table builds and the root matching of
//! big generated levels, and the weights are checked before any work.

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use sokoban::analysis::Analysis;
use sokoban::format::parse_levels;
use sokoban::level::Level;
use sokoban::solver::hungarian::{Hungarian, Stopped};
use sokoban::solver::{Config, Mode, SolveError, fast, solve};

/// The generated big room of [`common::big_room_text`], parsed.
fn big_room(side: usize, boxes: usize) -> Level {
    parse_levels(&common::big_room_text(side, boxes)).unwrap().remove(0)
}

fn pushes_config() -> Config {
    Config { mode: Mode::Pushes, ..Config::optimal(None) }
}

#[test]
fn a_big_level_stops_near_its_time_limit_in_every_mode() {
    let level = big_room(120, 300);
    let limit = Duration::from_millis(200);
    // The fast engine's packing plan alone takes minutes on 300 goals without its stop checks.
    for mode in [Mode::Pushes, Mode::Moves, Mode::Cost, Mode::Bfs, Mode::Fast, Mode::Auto] {
        let config = Config { mode, time_limit: Some(limit), ..Config::optimal(None) };
        let started = Instant::now();
        let result = solve(&level, &config);
        let took = started.elapsed();
        assert!(matches!(result, Err(SolveError::Timeout(_))), "{mode:?}: {result:?}");
        // Generous for a debug build on a loaded machine; without the checks this takes seconds.
        assert!(took < limit + Duration::from_millis(600), "{mode:?} took {took:?}");
    }
}

#[test]
fn the_fast_engines_time_limit_counts_from_the_solves_start() {
    // The analysis runs before the fast engine's search, and on a huge level takes seconds:
    // the limit covers it, so a clock that started a second ago leaves nothing of 100 ms.
    let level = parse_levels("########\n#@ $ . #\n# $ .  #\n########\n").unwrap().remove(0);
    let a = Analysis::new(&level);
    let Some(started) = Instant::now().checked_sub(Duration::from_secs(1)) else { return };
    let config = Config { mode: Mode::Fast, time_limit: Some(Duration::from_millis(100)), ..Config::optimal(None) };
    match fast::solve_from(&level, &a, &config, started) {
        Err(SolveError::Timeout(stats)) => assert!(stats.seconds >= 1.0, "{stats:?}"),
        other => panic!("{other:?}"),
    }
    // With the time left, it solves, and reports the time from the start.
    let config = Config { time_limit: Some(Duration::from_secs(60)), ..config };
    let solution = fast::solve_from(&level, &a, &config, started).expect("solvable");
    assert!(sokoban::verify::verify(&level, &solution.lurd).is_valid_solution());
    assert!(solution.stats.seconds >= 1.0, "{:?}", solution.stats);
}

#[test]
fn a_zero_limit_or_a_set_cancel_flag_returns_at_once_on_a_big_level() {
    let level = big_room(120, 300);
    let cancel = Arc::new(AtomicBool::new(true));
    let configs = [
        Config { time_limit: Some(Duration::ZERO), ..pushes_config() },
        Config { cancel: Some(cancel.clone()), ..pushes_config() },
        Config { cancel: Some(cancel), mode: Mode::Bfs, ..Config::optimal(None) },
    ];
    for config in configs {
        let started = Instant::now();
        let result = solve(&level, &config);
        assert!(matches!(result, Err(SolveError::Timeout(_) | SolveError::Cancelled(_))), "{result:?}");
        assert!(started.elapsed() < Duration::from_millis(50), "{:?}", started.elapsed());
    }
}

#[test]
fn a_big_level_that_cannot_fit_stops_before_its_analysis() {
    let level = big_room(120, 300);
    let config = Config { memory_limit: Some(1 << 20), ..pushes_config() };
    let started = Instant::now();
    let result = solve(&level, &config);
    assert!(matches!(result, Err(SolveError::MemoryLimit(_))), "{result:?}");
    assert!(started.elapsed() < Duration::from_millis(50), "{:?}", started.elapsed());
}

#[test]
fn the_analysis_honours_its_stop_check() {
    let level = big_room(60, 100);
    let full = Analysis::new(&level);
    // Stopped after a few calls: no analysis, and the check was called no more than once more.
    let mut calls = 0;
    let stopped = Analysis::new_within(&level, &mut || {
        calls += 1;
        calls > 5
    });
    assert!(stopped.is_none());
    assert_eq!(calls, 6);
    // A check that never stops gives the same analysis, and is called about once per goal.
    let mut calls = 0;
    let same = Analysis::new_within(&level, &mut || {
        calls += 1;
        false
    })
    .expect("never stopped");
    assert!(calls > level.goals().len(), "{calls}");
    assert_eq!((same.live(), same.goals(), same.squares()), (full.live(), full.goals(), full.squares()));
    assert_eq!(same.distance_table(), full.distance_table());
}

#[test]
fn the_matching_honours_its_stop_check() {
    let mut h = Hungarian::default();
    let cost = |r: usize, c: usize| ((r * 7 + c * 13) % 10) as i64;
    let mut calls = 0;
    let stopped = h.solve_within(50, 50, cost, &mut || {
        calls += 1;
        calls > 3
    });
    assert_eq!(stopped, Err(Stopped));
    assert_eq!(h.solve_within(50, 50, cost, &mut || false), Ok(h.solve(50, 50, cost)));
}

#[test]
fn a_huge_time_limit_does_not_overflow() {
    let level = parse_levels("#######\n#@ $ .#\n#######\n").unwrap().remove(0);
    for mode in [Mode::Pushes, Mode::Moves, Mode::Cost, Mode::Bfs] {
        let config = Config { mode, time_limit: Some(Duration::MAX), ..Config::optimal(None) };
        let solution = solve(&level, &config).expect("solvable");
        assert!(sokoban::verify::verify(&level, &solution.lurd).is_valid_solution());
    }
}

#[test]
fn weights_must_match_the_boxes() {
    let level = parse_levels("########\n#@ $ . #\n# $ .  #\n########\n").unwrap().remove(0);
    for weights in [vec![], vec![1], vec![1, 2, 3]] {
        let config = Config { mode: Mode::Cost, weights: Some(weights.clone()), ..Config::optimal(None) };
        match solve(&level, &config) {
            Err(e @ SolveError::WrongWeights { given, boxes: 2, .. }) => {
                assert_eq!(given as usize, weights.len());
                assert!(e.to_string().contains("2 boxes"), "{e}");
            }
            other => panic!("{weights:?}: {other:?}"),
        }
    }
    let config = Config { mode: Mode::Cost, weights: Some(vec![1, 2]), ..Config::optimal(None) };
    let solution = solve(&level, &config).expect("solvable");
    assert!(sokoban::verify::verify(&level, &solution.lurd).is_valid_solution());
}

#[test]
fn more_than_250_distinct_weights_still_solve() {
    // One box a push from its goal, and 300 boxes on goals along the bottom wall (they can only
    // slide sideways, and not at all while the row is full), every weight distinct.
    let wide = 300;
    let top = format!("#@$.{}#", " ".repeat(wide - 3));
    let row = format!("#{}#", "*".repeat(wide));
    let wall = "#".repeat(wide + 2);
    let level = parse_levels(&format!("{wall}\n{top}\n{row}\n{wall}\n")).unwrap().remove(0);
    let weights: Vec<u32> = (1..=wide as u32 + 1).collect();
    let config = Config { mode: Mode::Cost, weights: Some(weights), ..Config::optimal(None) };
    let solution = solve(&level, &config).expect("solvable, never 'unsolvable'");
    assert!(sokoban::verify::verify(&level, &solution.lurd).is_valid_solution());
    assert_eq!(solution.pushes, 1);
    // The moving box is the first in reading order (weight 1): one push costs 1 + 1.
    assert_eq!(solution.cost, 2);
}

#[test]
fn a_portfolio_stops_at_its_time_limit_and_at_a_cancel_from_another_thread() {
    let level = parse_levels(&common::big_room_text(40, 60)).unwrap().remove(0);
    for mode in [Mode::Fast, Mode::Auto] {
        let limit = Duration::from_millis(300);
        let config = Config { mode, threads: 4, time_limit: Some(limit), ..Config::optimal(None) };
        let started = Instant::now();
        let result = solve(&level, &config);
        assert!(matches!(result, Err(SolveError::Timeout(_))), "{mode:?}: {result:?}");
        assert!(started.elapsed() < limit + Duration::from_millis(600), "{mode:?}: {:?}", started.elapsed());
        // Cancelled by the caller while every lane runs.
        let cancel = Arc::new(AtomicBool::new(false));
        let config = Config { cancel: Some(cancel.clone()), time_limit: None, ..config };
        let started = Instant::now();
        // The result is boxed across the thread (a large error type).
        let result = std::thread::scope(|s| {
            let solving = s.spawn(|| Box::new(solve(&level, &config)));
            std::thread::sleep(Duration::from_millis(200));
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            solving.join().unwrap()
        });
        assert!(matches!(*result, Err(SolveError::Cancelled(_))), "{mode:?}: {result:?}");
        assert!(started.elapsed() < Duration::from_millis(800), "{mode:?}: {:?}", started.elapsed());
    }
}
