//! Every bundled level file parses with the expected number of levels, and the bundled
//! reference solutions replay as valid.

use std::path::Path;

use sokoban::format::xsb;
use sokoban::level::{BuildOptions, SolvedRule};
use sokoban::verify::verify;

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn bundled_collections_have_the_right_level_counts() {
    let expected = [
        ("xsokoban90.xsb", 90),
        ("microban.xsb", 155),
        ("microban-ii.xsb", 135),
        ("sasquatch.xsb", 50),
        ("sasquatch-ii.xsb", 50),
        ("sasquatch-iii.xsb", 50),
        ("sasquatch-iv.xsb", 50),
        ("sasquatch-v.xsb", 50),
        ("sasquatch-vi.xsb", 50),
        ("sasquatch-vii.xsb", 50),
        ("microcosmos.xsb", 40),
        ("minicosmos.xsb", 40),
        ("nabokosmos.xsb", 40),
        ("picokosmos.xsb", 20),
        ("boxoban-hard.xsb", 3332),
        ("boxoban-medium-1000.xsb", 1000),
        ("boxoban-unfiltered-test-1000.xsb", 1000),
        ("cab320-warehouses.xsb", 108),
        ("snekoban-puzzles.xsb", 396),
    ];
    for (name, count) in expected {
        let levels = xsb::parse(&read(name), BuildOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(levels.len(), count, "{name}");
        for (i, level) in levels.iter().enumerate() {
            assert_eq!(level.boxes().len(), level.goals().len(), "{name} level {}", i + 1);
        }
    }
}

#[test]
fn cs161_has_22_problems_one_with_spare_goals() {
    let text = read("cs161-hw3.xsb");
    let standard = xsb::parse_each(&text, BuildOptions::default()).unwrap();
    assert_eq!(standard.len(), 22);
    let rejected: Vec<usize> = (0..22).filter(|&i| standard[i].is_err()).collect();
    assert_eq!(rejected, vec![16], "only p17 has more goals than boxes");
    let relaxed = BuildOptions { rule: SolvedRule::AllBoxesOnGoals, ..Default::default() };
    assert_eq!(xsb::parse(&text, relaxed).unwrap().len(), 22);
}

#[test]
fn every_level_round_trips_through_the_writer() {
    for name in ["xsokoban90.xsb", "microban.xsb", "sasquatch.xsb", "microban-ii.xsb"] {
        let levels = xsb::parse(&read(name), BuildOptions::default()).unwrap();
        let again = xsb::parse(&xsb::write_all(&levels), BuildOptions::default()).unwrap();
        assert_eq!(levels, again, "{name}");
    }
}

#[test]
fn xsokoban_reference_solutions_are_valid() {
    let levels = xsb::parse(&read("xsokoban90.xsb"), BuildOptions::default()).unwrap();
    let solutions = sokoban::solutions::parse(&read("xsokoban90-reference-solutions.tsv")).unwrap();
    assert_eq!(solutions.len(), 90);
    for s in &solutions {
        let report = verify(&levels[s.level - 1], &s.lurd);
        assert!(report.is_valid_solution(), "level {}: {report:?}", s.level);
        assert_eq!(report.moves, s.lurd.len());
    }
}
