//! The course level sets solved in the modes the courses ask for: CS161 problems in fewest moves
//! (against the depth stated in each problem's comment), Snekoban JSON grids, and the weighted
//! CAB320 warehouses in least cost. Every solution goes through the verifier.

use std::path::Path;
use std::time::Duration;

use sokoban::Level;
use sokoban::format::{grid, parse_as};
use sokoban::level::SourceFormat;
use sokoban::solver::{Config, Mode, SolveError, cost_of, solve};
use sokoban::verify::verify;

fn data(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(path)).unwrap()
}

fn one(path: &str, format: SourceFormat) -> Level {
    parse_as(&data(path), format).unwrap().remove(0)
}

fn config(mode: Mode) -> Config {
    Config { mode, time_limit: Some(Duration::from_secs(10)), ..Config::optimal(None) }
}

#[test]
fn cs161_problems_are_solved_in_their_stated_depth() {
    let levels = parse_as(&data("cs161-hw3-problems.lisp"), SourceFormat::Grid).unwrap();
    assert_eq!(levels.len(), 22);
    let mut checked = 0;
    for level in &levels {
        let Some(depth) = grid::stated_depth(level) else { continue };
        let s = solve(level, &config(Mode::Moves)).unwrap_or_else(|e| panic!("{:?}: {e:?}", level.title()));
        let report = verify(level, &s.lurd);
        assert!(report.is_valid_solution(), "{:?}", level.title());
        assert_eq!(report.moves, depth, "{:?}", level.title());
        assert_eq!(s.optimal.map(|o| o.name()), Some("moves"));
        checked += 1;
    }
    assert_eq!(checked, 19, "p1–p19 state their depth");
}

#[test]
fn snekoban_grids_solve_like_their_xsb_twins() {
    assert!(matches!(
        solve(&one("snekoban-puzzles/t_001.json", SourceFormat::Json), &config(Mode::Moves)),
        Err(SolveError::Unsolvable(_))
    ));
    let t2 = solve(&one("snekoban-puzzles/t_002.json", SourceFormat::Json), &config(Mode::Moves)).unwrap();
    assert_eq!((t2.moves.len(), t2.lurd.as_str()), (0, ""));
    // The first Microban levels as JSON grids need as many moves as the same levels in XSB.
    let microban = parse_as(&data("microban.xsb"), SourceFormat::Xsb).unwrap();
    for n in 1..=20 {
        let json = one(&format!("snekoban-puzzles/m1_{n:03}.json"), SourceFormat::Json);
        let a = solve(&json, &config(Mode::Moves)).unwrap();
        assert!(verify(&json, &a.lurd).is_valid_solution(), "m1_{n:03}");
        let b = solve(&microban[n - 1], &config(Mode::Moves)).unwrap();
        assert_eq!((a.moves.len(), a.pushes), (b.moves.len(), b.pushes), "m1_{n:03}");
    }
}

#[test]
fn cab320_warehouses_are_solved_at_least_cost() {
    let impossible = one("cab320-warehouses/warehouse_03_impossible.txt", SourceFormat::Warehouse);
    assert!(matches!(solve(&impossible, &config(Mode::Cost)), Err(SolveError::Unsolvable(_))));
    let mut weighted = 0;
    for name in ["01", "01_a", "03", "07", "09", "11", "13", "15", "17", "19", "21", "8a", "8b"] {
        let path = format!("cab320-warehouses/warehouse_{name}.txt");
        let level = one(&path, SourceFormat::Warehouse);
        weighted += usize::from(level.weights().iter().any(|&w| w > 0));
        let s = solve(&level, &config(Mode::Cost)).unwrap_or_else(|e| panic!("{path}: {e:?}"));
        assert!(verify(&level, &s.lurd).is_valid_solution(), "{path}");
        assert_eq!(s.cost, cost_of(&level, level.weights(), &s.moves), "{path}");
        assert_eq!(s.optimal.map(|o| o.name()), Some("cost"));
        // No push-optimal or move-optimal solution may be cheaper.
        for mode in [Mode::Pushes, Mode::Moves] {
            let other = solve(&level, &config(mode)).unwrap();
            assert!(s.cost <= cost_of(&level, level.weights(), &other.moves), "{path}");
        }
    }
    assert!(weighted > 0, "some of these warehouses carry weights");
}
