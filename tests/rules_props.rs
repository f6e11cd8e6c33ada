//! Property tests of the rules: round trips, step/undo, purity, and agreement with the verifier.

mod common;

use proptest::prelude::*;
use sokoban::format::{parse_levels, xsb};
use sokoban::level::Dir;
use sokoban::rules::Position;
use sokoban::verify::verify;

fn level_from(seed: u64, w: usize, h: usize, boxes: usize) -> Option<sokoban::Level> {
    let text = common::random_level(seed, w, h, boxes, 20)?;
    parse_levels(&text).ok().map(|mut v| v.remove(0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn parse_write_round_trip(seed in any::<u64>(), w in 2usize..9, h in 2usize..9, boxes in 0usize..5) {
        let Some(level) = level_from(seed, w, h, boxes) else { return Ok(()) };
        let again = parse_levels(&xsb::write(&level)).unwrap().remove(0);
        prop_assert_eq!(&again, &level);
        prop_assert_eq!(xsb::board_rows(&again), xsb::board_rows(&level));
    }

    #[test]
    fn random_walks_agree_with_undo_and_the_verifier(
        seed in any::<u64>(), w in 2usize..9, h in 2usize..9, boxes in 0usize..5,
        dirs in proptest::collection::vec(0usize..4, 0..80),
    ) {
        let Some(level) = level_from(seed, w, h, boxes) else { return Ok(()) };
        let mut pos = Position::start(&level);
        let mut lurd = String::new();
        for d in dirs {
            let before = pos.clone();
            match pos.step(&level, Dir::ALL[d]) {
                Ok((next, mv)) => {
                    // step never mutates its input, and undo restores it.
                    prop_assert_eq!(&pos, &before);
                    prop_assert_eq!(next.undo(&level, mv), Some(before.clone()));
                    prop_assert_eq!(next.boxes().count(), level.boxes().len());
                    lurd.push(mv.letter());
                    pos = next;
                }
                Err(_) => prop_assert_eq!(&pos, &before),
            }
        }
        let report = verify(&level, &lurd);
        prop_assert!(report.illegal.is_none());
        prop_assert!(report.first_case_mismatch.is_none());
        prop_assert_eq!(report.moves, lurd.len());
        prop_assert_eq!(report.final_rows, xsb::raw_rows(&level, &pos.to_raw(&level)));
        prop_assert_eq!(report.solved, pos.is_solved(&level));
    }

    #[test]
    fn successors_are_the_legal_steps_in_order(seed in any::<u64>(), w in 2usize..9, h in 2usize..9) {
        let Some(level) = level_from(seed, w, h, 3) else { return Ok(()) };
        let pos = Position::start(&level);
        let succ = pos.successors(&level);
        let legal: Vec<Dir> = Dir::ALL.into_iter().filter(|&d| pos.step(&level, d).is_ok()).collect();
        prop_assert_eq!(succ.iter().map(|(m, _)| m.dir).collect::<Vec<_>>(), legal);
    }

    #[test]
    fn the_parser_never_panics(text in "[#@$.*+ \\-_|0-9;a-z\\n]{0,200}") {
        let _ = sokoban::format::xsb::parse_each(&text, Default::default());
    }
}
