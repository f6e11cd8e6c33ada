//! The fast engine (`Mode::Fast`) and the `auto` mode: every solution replays in the verifier,
//! the engine is deterministic, it solves a level the A* cannot within the same node budget, and
//! `auto` keeps the A* proof where there is one.

use std::path::Path;

use sokoban::analysis::Analysis;
use sokoban::format::{parse_levels, xsb};
use sokoban::level::{BuildOptions, Level};
use sokoban::solver::{Config, FastOptions, Mode, Optimality, Proof, Pruning, SolveError, fast, solve};
use sokoban::verify::verify;

fn collection(name: &str) -> Vec<Level> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    xsb::parse(&text, BuildOptions::default()).unwrap()
}

fn fast_config(nodes: u64) -> Config {
    Config { mode: Mode::Fast, node_limit: Some(nodes), ..Config::optimal(None) }
}

/// Asserts that the fast engine, one thread under `nodes` expansions, solves `level` with
/// `with` (the solution verified) and runs out of expansions with `without`: what a
/// technique that `with` has and `without` lacks adds on that level.
fn solved_only_with(level: &Level, nodes: u64, with: FastOptions, without: FastOptions, what: &str) {
    let solved = solve(level, &Config { fast: with, ..fast_config(nodes) })
        .unwrap_or_else(|e| panic!("not solved within {nodes} expansions {what}: {e}"));
    assert!(verify(level, &solved.lurd).is_valid_solution(), "{what}");
    let stopped = solve(level, &Config { fast: without, ..fast_config(nodes) });
    assert!(matches!(stopped, Err(SolveError::NodeLimit(_))), "solved without it, {what}");
}

#[test]
fn microban_levels_are_solved_and_verified() {
    let levels = collection("microban.xsb");
    for (i, level) in levels.iter().enumerate().take(20) {
        let s = solve(level, &fast_config(50_000)).unwrap_or_else(|e| panic!("Microban {}: {e}", i + 1));
        let report = verify(level, &s.lurd);
        assert!(report.is_valid_solution(), "Microban {}: {report:?}", i + 1);
        assert_eq!(s.optimal, None, "the fast engine proves nothing");
        assert_eq!(s.pushes, s.moves.iter().filter(|m| m.push).count());
    }
}

#[test]
fn a_level_beyond_the_astar_budget_is_solved_fast() {
    // XSokoban 3: the push-optimal A* does not finish within 20 000 expanded states, the fast
    // engine does within a quarter of that.
    let level = &collection("xsokoban90.xsb")[2];
    let astar = Config { mode: Mode::Pushes, node_limit: Some(20_000), ..Config::optimal(None) };
    assert!(matches!(solve(level, &astar), Err(SolveError::NodeLimit(_))));
    let s = solve(level, &fast_config(5_000)).expect("fast engine solves XSokoban 3");
    assert!(verify(level, &s.lurd).is_valid_solution());
}

#[test]
fn the_lead_cell_follows_the_line_that_packs_furthest() {
    // XSokoban 32: with every other expansion from the most advanced cell the first pass
    // finishes within 15,000 expansions; with the cells taking turns alone it does not (both
    // with narrow states paying for every move, which alone finds it sooner, and the plan
    // peeled one box at a time, the packing advisor alone and no cells for the states astray
    // from the plan, whose lead cell is one that follows it; and no explorer advisor, whose
    // moves take the first pass another way).
    let level = &collection("xsokoban90.xsb")[31];
    let paying = FastOptions {
        explorer: false,
        narrow: false,
        bases: false,
        open_packing: false,
        plan_reach: false,
        dive: false,
        ..FastOptions::default()
    };
    solved_only_with(level, 15_000, paying, FastOptions { lead: false, ..paying }, "with the lead cell");
}

#[test]
fn a_dive_follows_a_packing_line_out_of_turn() {
    // XSokoban 22: visiting the cell of each packing move's new state at once, the first pass
    // finishes within 4,000 expansions; with every cell waiting for its turn it takes more
    // than twice as many.
    let level = &collection("xsokoban90.xsb")[21];
    let diving = FastOptions::default();
    solved_only_with(level, 4_000, diving, FastOptions { dive: false, ..diving }, "with dives");
}

#[test]
fn a_narrow_state_passes_one_move_on_free() {
    // XSokoban 75: with a free move from each state with at most two, the search finishes
    // within 1,000 expansions; with every move paying its weight it does not (both with the
    // plan peeled one box at a time and no explorer advisor).
    let level = &collection("xsokoban90.xsb")[74];
    let peeled = FastOptions { bases: false, explorer: false, ..FastOptions::default() };
    solved_only_with(level, 1_000, peeled, FastOptions { narrow: false, ..peeled }, "with free narrow moves");
}

#[test]
fn the_fast_engine_is_deterministic() {
    let levels = collection("xsokoban90.xsb");
    for n in [1, 2] {
        let level = &levels[n];
        let a = Analysis::new(level);
        let first = fast::solve(level, &a, &fast_config(10_000)).expect("solved");
        let second = fast::solve(level, &a, &fast_config(10_000)).expect("solved");
        assert_eq!(first.lurd, second.lurd, "XSokoban {}", n + 1);
        assert_eq!(first.stats.expanded, second.stats.expanded);
    }
}

#[test]
fn limits_and_unsolvable_levels_are_reported() {
    let level = &collection("xsokoban90.xsb")[3];
    assert!(matches!(solve(level, &fast_config(5)), Err(SolveError::NodeLimit(_))));
    let open = parse_levels("########\n#.     #\n# $ $@ #\n#.     #\n########\n").unwrap().remove(0);
    assert!(solve(&open, &fast_config(1_000)).is_ok());
    // A box against the top wall away from the goal's row: the whole space is exhausted.
    let dead = parse_levels("######\n#$  .#\n# @  #\n######\n").unwrap().remove(0);
    assert!(matches!(solve(&dead, &fast_config(1_000)), Err(SolveError::Unsolvable(_))));
}

#[test]
fn auto_proves_what_the_fast_engine_finds_when_it_can() {
    let micro = &collection("microban.xsb")[0];
    let auto = Config { mode: Mode::Auto, proof: Proof::Full, node_limit: Some(40_000), ..Config::optimal(None) };
    let s = solve(micro, &auto).expect("solved");
    // The fast engine solves Microban 1, then A* proves the fewest pushes and moves.
    assert_eq!(s.optimal, Some(Optimality::PushesMoves));
    let pushes = solve(micro, &Config::optimal(None)).unwrap().pushes;
    assert_eq!(s.pushes, pushes);
    // The default, cheap proof: the fewest pushes only, within its allowance.
    let cheap = Config { node_limit: Some(40_000), ..Config::default() };
    let s = solve(micro, &cheap).expect("solved");
    assert_eq!((s.optimal, s.pushes), (Some(Optimality::Pushes), pushes));
    // The fast engine solves XSokoban 3 and A* cannot prove that within its 40 000 states, so
    // the fast engine's solution is the answer.
    let level = &collection("xsokoban90.xsb")[2];
    let s = solve(level, &auto).expect("solved by the fast engine");
    assert_eq!(s.optimal, None);
    assert!(verify(level, &s.lurd).is_valid_solution());
    // The fast engine ran as `--mode fast` runs it (deterministic for a node limit, so a run
    // alone does the same work), and the nodes reported count A*'s whole node limit too.
    let fast_alone = solve(level, &fast_config(40_000)).expect("solved by the fast engine");
    assert_eq!(fast_alone.lurd, s.lurd);
    assert!(s.stats.expanded >= 40_000 + fast_alone.stats.expanded, "{:?}", s.stats);
}

#[test]
fn goals_cut_off_by_boxes_frozen_on_goals_are_seen_dead_before_any_expansion() {
    // The two boxes on the goals in the one-wide corridor can never move again, and the goals
    // behind them are out of reach for the other two boxes, which the static distances (blind
    // to boxes) cannot tell. With the frozen-goal tables the start has no matching at all;
    // without them the engine has to try every move of the two loose boxes first.
    let level = parse_levels("#########\n#..**   #\n#### $$ #\n   #   @#\n   ######\n").unwrap().remove(0);
    // (The backward search is off: its expansions would count too.)
    let a = Analysis::new(&level);
    let forward = Config { fast: FastOptions { pulls: false, ..FastOptions::default() }, ..fast_config(10_000) };
    let with = fast::solve(&level, &a, &forward);
    let Err(SolveError::Unsolvable(stats)) = with else { panic!("{with:?}") };
    assert_eq!(stats.expanded, 0);
    let without = Config { pruning: Pruning { frozen_goals: false, ..Pruning::default() }, ..forward };
    let Err(SolveError::Unsolvable(stats)) = fast::solve(&level, &a, &without) else { panic!("unsolvable either way") };
    assert!(stats.expanded > 0, "{stats:?}");
}

#[test]
fn the_backward_search_solves_a_level_whose_goal_area_jams_forwards() {
    // Sasquatch 50: pulling the boxes off the goals reaches the start within the greedy
    // backward search's tenth of 5 000 expansions, while the forward search (which it keeps
    // pace with) has made a few hundred; the forward search alone does not solve it within
    // 2 000 (it needs about 56 000).
    let level = &collection("sasquatch.xsb")[49];
    let s = solve(level, &fast_config(5_000)).expect("solved backwards");
    assert!(verify(level, &s.lurd).is_valid_solution());
    assert!(s.stats.expanded <= 1_000, "{:?}", s.stats);
    let forward = Config { fast: FastOptions { pulls: false, ..FastOptions::default() }, ..fast_config(2_000) };
    assert!(matches!(solve(level, &forward), Err(SolveError::NodeLimit(_))));
}

#[test]
fn a_portfolio_of_threads_solves_verifies_and_keeps_its_limits() {
    let levels = collection("microban.xsb");
    for threads in [2, 3, 6] {
        for (i, level) in levels.iter().enumerate().take(10) {
            let config = Config { threads, ..fast_config(50_000) };
            let s = solve(level, &config).unwrap_or_else(|e| panic!("Microban {} on {threads} threads: {e}", i + 1));
            assert!(verify(level, &s.lurd).is_valid_solution(), "Microban {} on {threads} threads", i + 1);
        }
    }
    // The node limit is the whole portfolio's: the lanes share it.
    let hard = &collection("xsokoban90.xsb")[28];
    for threads in [1, 2, 6] {
        let config = Config { threads, ..fast_config(2_000) };
        match solve(hard, &config) {
            Err(SolveError::NodeLimit(stats)) => {
                assert!(stats.expanded <= 2_000 + threads as u64, "{threads} threads: {stats:?}")
            }
            other => panic!("XSokoban 29 on {threads} threads: {:?}", other.map(|s| s.stats)),
        }
    }
    // A proof that there is no solution ends the portfolio as it ends one thread.
    let dead = parse_levels("######\n#$  .#\n# @  #\n######\n").unwrap().remove(0);
    let config = Config { threads: 4, ..fast_config(1_000) };
    assert!(matches!(solve(&dead, &config), Err(SolveError::Unsolvable(_))));
}

#[test]
fn a_short_node_limit_is_spent_to_its_end() {
    // Levels the engine leaves unsolved at 5 000 expansions (Microban 153: its midpoint stops
    // early, and the third pass takes the rest): an unsolved level has used its whole budget.
    let limit = 5_000;
    let levels = [("microban.xsb", 153), ("xsokoban90.xsb", 29)];
    for (set, number) in levels {
        let level = &collection(set)[number - 1];
        match solve(level, &Config { threads: 1, ..fast_config(limit) }) {
            Ok(s) => assert!(verify(level, &s.lurd).is_valid_solution(), "{set} {number}"),
            Err(SolveError::NodeLimit(stats)) => {
                assert!(stats.expanded * 20 >= limit * 19, "{set} {number}: {} of {limit}", stats.expanded)
            }
            Err(e) => panic!("{set} {number}: {e}"),
        }
    }
}

#[test]
fn the_plan_of_the_search_that_takes_boxes_away_leads_sooner() {
    // Sasquatch 18: following the plan of the backward search that takes boxes away at the
    // start squares, the first pass finishes within 3,000 expansions; with the plan peeled one
    // box at a time it does not (both with the packing advisor alone, and the anytime line's
    // plan: its line leaves boxes, so by default the first pass follows the staged plan; and
    // no explorer advisor).
    let level = &collection("sasquatch.xsb")[17];
    let single = FastOptions { open_packing: false, staged: false, explorer: false, ..FastOptions::default() };
    solved_only_with(level, 3_000, single, FastOptions { bases: false, ..single }, "with the bases plan");
}

#[test]
fn the_open_packing_advisor_names_the_move_that_keeps_the_board_open() {
    // Sasquatch IV 43: with a second packing advisor, the move that packs leaving the fewest
    // player regions and hotspots free beside the one with the smallest bound, the search
    // finishes within 15,000 expansions; with the packing advisor alone it does not (both
    // without the explorer advisor).
    let level = &collection("sasquatch-iv.xsb")[42];
    let open = FastOptions { explorer: false, ..FastOptions::default() };
    solved_only_with(level, 15_000, open, FastOptions { open_packing: false, ..open }, "with the open-packing advisor");
}

#[test]
fn the_explorer_names_a_move_that_lets_the_player_push_another_box() {
    // XSokoban 39: with the explorer advisor (a move that can be undone and lets the player
    // push a box it could not push before costs what an advised move does) the search
    // finishes within 8,000 expansions; without it not within 20,000.
    let level = &collection("xsokoban90.xsb")[38];
    let with = FastOptions::default();
    solved_only_with(level, 8_000, with, FastOptions { explorer: false, ..with }, "with the explorer");
}

#[test]
fn the_first_sprint_does_not_wait_for_its_share() {
    // XSokoban 55: the pass reaches a state with few boxes left within a few hundred
    // expansions, and the sprint from it finishes the level; waiting for the sprints' share
    // of the expansions, or with no sprints, the pass alone takes thousands (without dives,
    // which finish it alone).
    let level = &collection("xsokoban90.xsb")[54];
    let waiting = FastOptions { dive: false, ..FastOptions::default() };
    solved_only_with(level, 1_000, waiting, FastOptions { sprints: false, ..waiting }, "by the first sprint");
}

#[test]
fn the_short_schedule_gives_the_other_bases_plan_a_pass() {
    // XSokoban 69: the first pass follows the anytime line's plan (it takes every box away)
    // and does not finish; a pass on the staged plan, between the second pass and the end of
    // the limits, finishes within the tenth of them it gets. Without the staged plan there is
    // no other plan, and the first two passes have the whole budget.
    let level = &collection("xsokoban90.xsb")[68];
    let without = FastOptions { staged: false, ..FastOptions::default() };
    solved_only_with(level, 40_000, FastOptions::default(), without, "with the other plan's pass");
}
