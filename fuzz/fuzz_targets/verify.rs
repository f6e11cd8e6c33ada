//! Fuzzes the independent checker on arbitrary levels and moves: the bytes before the first NUL
//! are a level file (read by every parser), the bytes after it are the moves. `verify` must
//! never panic, and it must agree with the rules engine (`sokoban::rules`, which shares no code
//! with it) on where a replay stops, on moves and pushes, on letter case and on whether the level
//! ends solved; its final board keeps the boxes, the goals and the walls of the level.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sokoban::format::{default_options, parse_each_with};
use sokoban::level::{Level, SourceFormat};
use sokoban::rules::Position;
use sokoban::verify::{IllegalReason, verify};

fuzz_target!(|data: &[u8]| {
    let Some(split) = data.iter().position(|&b| b == 0) else { return };
    let (Ok(board), Ok(moves)) = (std::str::from_utf8(&data[..split]), std::str::from_utf8(&data[split + 1..])) else {
        return;
    };
    for format in SourceFormat::ALL {
        let Ok(levels) = parse_each_with(board, default_options(format)) else { continue };
        for level in levels.into_iter().flatten().take(2) {
            check(&level, moves);
        }
    }
});

fn count(rows: &[String], of: &[char]) -> usize {
    rows.iter().flat_map(|r| r.chars()).filter(|c| of.contains(c)).count()
}

fn check(level: &Level, moves: &str) {
    let report = verify(level, moves);
    let letters: Vec<char> = moves.chars().filter(|c| !c.is_whitespace()).collect();
    assert!(report.pushes <= report.moves && report.moves <= letters.len());
    assert_eq!(report.final_rows.len(), level.height());
    assert!(report.final_rows.iter().all(|r| r.chars().count() <= level.width()));
    // The final board keeps every box, goal and wall, and shows one player.
    assert_eq!(count(&report.final_rows, &['$', '*']), level.boxes().len());
    assert_eq!(count(&report.final_rows, &['.', '*', '+']), level.goals().len());
    assert_eq!(count(&report.final_rows, &['@', '+']), 1);
    let start = verify(level, "");
    assert_eq!(count(&report.final_rows, &['#']), count(&start.final_rows, &['#']));

    // The same replay with the rules engine, letter by letter.
    let mut pos = Position::start(level);
    let mut case_mismatch = None;
    for (index, &ch) in letters.iter().enumerate() {
        let dir = match ch.to_ascii_lowercase() {
            'u' => sokoban::Dir::Up,
            'r' => sokoban::Dir::Right,
            'd' => sokoban::Dir::Down,
            'l' => sokoban::Dir::Left,
            _ => {
                let illegal = report.illegal.expect("a letter that is not a move is reported");
                assert_eq!((illegal.index, illegal.reason), (index, IllegalReason::NotAMove(ch)));
                assert_eq!(report.moves, index);
                return;
            }
        };
        match pos.step(level, dir) {
            Ok((next, mv)) => {
                if mv.push != ch.is_ascii_uppercase() && case_mismatch.is_none() {
                    case_mismatch = Some(index);
                }
                pos = next;
            }
            Err(_) => {
                let illegal = report.illegal.expect("an illegal step is reported");
                assert_eq!(illegal.index, index);
                assert!(!matches!(illegal.reason, IllegalReason::NotAMove(_)));
                assert_eq!(report.moves, index);
                assert!(!report.solved);
                return;
            }
        }
    }
    assert_eq!(report.illegal, None);
    assert_eq!(report.moves, letters.len());
    assert_eq!(report.first_case_mismatch, case_mismatch);
    assert_eq!(report.solved, pos.is_solved(level), "{moves}");
    let metrics = sokoban::metrics::measure_lurd(level, moves);
    if !sokoban::lurd::is_rle(moves) {
        let m = metrics.expect("a legal replay has metrics");
        assert_eq!((m.moves, m.pushes), (report.moves, report.pushes));
    }
    // The solution written back by the rules (right case, run-length encoded) checks the same.
    if report.solved {
        let compressed = sokoban::lurd::compress(&letters.iter().collect::<String>());
        let expanded = sokoban::lurd::expand(&compressed).expect("compressed moves expand");
        let again = verify(level, &expanded);
        assert_eq!((again.moves, again.pushes, again.solved), (report.moves, report.pushes, true));
    }
}
