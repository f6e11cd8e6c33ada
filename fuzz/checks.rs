//! The assertions of the fuzz targets, one function per target, shared by the targets in
//! `fuzz_targets/` (`#[path = "../checks.rs"] mod checks;`) and by the replay of the inputs they
//! once crashed on, `tests/fuzz_regressions.rs` (`#[path = "../fuzz/checks.rs"] mod checks;`),
//! so that a kept input is checked with exactly what its target checks.
//!
//! The entry point is [`check`]: both users reach every function through it, so the module has
//! no dead code in either crate.

use sokoban::format::{default_options, parse_each_with, xsb};
use sokoban::level::{BuildOptions, Level, SourceFormat};
use sokoban::lurd;
use sokoban::moves::{self, MoveFormat};
use sokoban::rules::{Move, Position};
use sokoban::sok::{Block, read_solutions};
use sokoban::verify::{IllegalReason, verify};

/// Runs the checks of the fuzz target named `target` on `data` (the fuzzer's input); panics
/// where one fails, or where no target has that name.
pub fn check(target: &str, data: &[u8]) {
    if target == "verify" {
        return verify_against_rules(data);
    }
    // The other targets read text.
    let Ok(text) = std::str::from_utf8(data) else { return };
    match target {
        "parse_xsb" => parse_xsb(text),
        "parse_formats" => parse_formats(text),
        "solutions" => solutions(text),
        "decode_lurd" => decode_lurd(text),
        other => panic!("no fuzz target named {other:?}"),
    }
}

/// `parse_xsb`: any text gives levels or errors, never a panic, and every parsed level survives a
/// write/parse round trip.
fn parse_xsb(text: &str) {
    if let Ok(levels) = xsb::parse_each(text, Default::default()) {
        for level in levels.into_iter().flatten() {
            let written = xsb::write(&level);
            let again = xsb::parse(&written, Default::default()).expect("written level parses");
            assert_eq!(again[0], level);
        }
    }
}

/// `parse_formats`: every level parser and the move-list parser: any text gives levels or errors,
/// never a panic, and writing round-trips: a parsed level written in its own format reads back as
/// an equal level and writes the same text again, and its conversion to every other format reads
/// back too.
fn parse_formats(text: &str) {
    let _ = moves::parse(text);
    for format in SourceFormat::ALL {
        let opts = default_options(format);
        let Ok(levels) = parse_each_with(text, opts) else { continue };
        for level in levels.into_iter().flatten() {
            let written = sokoban::format::write(&level, format).expect("a parsed level can be written back");
            let again = parse_each_with(&written, opts).expect("written level parses");
            assert_eq!(again.len(), 1);
            let again = again.into_iter().next().unwrap().expect("written level is valid");
            assert_eq!(again, level, "{written}");
            assert_eq!(sokoban::format::write(&again, format).expect("writable"), written);
            for other in SourceFormat::ALL {
                if let Ok(converted) = sokoban::format::write(&level, other) {
                    let opts = BuildOptions { rule: level.rule(), ..default_options(other) };
                    let back = parse_each_with(&converted, opts).expect("a converted level parses");
                    assert!(back.iter().all(Result::is_ok), "{format:?} to {other:?}:\n{converted}");
                }
            }
        }
    }
}

/// `solutions`: the solution-file readers (TSV, JSON lines, `.sok`) and the `.sok` writer: any
/// text gives entries or an error, never a panic, every entry names a line of the text, and the
/// levels of the text written as a `.sok` file with solutions read back as the same boards,
/// titles and solutions.
fn solutions(text: &str) {
    let lines = text.split('\n').count();
    if let Ok(read) = sokoban::solutions::read(text) {
        assert!(read.entries.iter().all(|e| e.line >= 1 && e.line <= lines));
        assert!(read.skipped.iter().all(|s| s.line >= 1 && s.line <= lines));
    }
    let sok = read_solutions(text);
    assert!(sok.entries.iter().all(|e| e.level >= 1 && e.line >= 1 && e.line <= lines && !e.lurd.is_empty()));

    // Write the text's levels with solutions made of its move letters, and read them back.
    let Ok(levels) = xsb::parse_each(text, Default::default()) else { return };
    let levels: Vec<_> = levels.into_iter().flatten().take(8).collect();
    if levels.is_empty() {
        return;
    }
    let letters: String = text.chars().filter(|c| "lurdLURD".contains(*c)).take(300).collect();
    let blocks: Vec<Block> = levels
        .iter()
        .enumerate()
        .map(|(i, level)| {
            let solutions = if letters.is_empty() || i % 2 == 1 { vec![] } else { vec![letters.clone(), "u".into()] };
            Block { number: i + 1, level, solutions }
        })
        .collect();
    let written = sokoban::sok::write(&blocks);
    let back = read_solutions(&written);
    assert!(back.skipped.is_empty(), "{written}");
    let want: Vec<(usize, &str)> =
        blocks.iter().flat_map(|b| b.solutions.iter().map(move |s| (b.number, s.as_str()))).collect();
    let got: Vec<(usize, &str)> = back.entries.iter().map(|e| (e.level, e.lurd.as_str())).collect();
    assert_eq!(got, want, "{written}");
    let as_solutions = sokoban::solutions::read(&written).expect("a written .sok file reads as solutions");
    assert_eq!(as_solutions.entries.len(), want.len());
    // The file is a level collection too: the same boards and titles.
    let again = xsb::parse(&written, Default::default()).expect("a written .sok file parses");
    assert_eq!(again.len(), levels.len(), "{written}");
    for (a, b) in levels.iter().zip(&again) {
        assert_eq!(xsb::board_rows(a), xsb::board_rows(b), "{written}");
        if let Some(t) = a.title().map(str::trim).filter(|t| !t.is_empty()) {
            assert_eq!(b.title(), Some(t), "{written}");
        }
    }
}

/// Longer expansions (up to `lurd::MAX_EXPANDED`, by design) are only expanded: decoding, writing
/// and reading them back in three spellings takes seconds and finds nothing a short one would not.
const MAX_CHECKED: usize = 100_000;

/// `decode_lurd`: the move decoders and the verifier, on any text as moves on a fixed level.
/// Decoding gives one letter per non-blank character (run-length encoding written out first),
/// run-length compression round-trips, a move list in any spelling writes back in all three
/// spellings and reads back as the same directions, and the replay never counts more pushes
/// than moves.
fn decode_lurd(text: &str) {
    if lurd::is_rle(text) && lurd::expand(text).is_ok_and(|e| e.len() > MAX_CHECKED) {
        return;
    }
    let plain: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    match lurd::decode(text) {
        Ok(letters) if !lurd::is_rle(text) => {
            assert_eq!(letters.len(), plain.chars().count());
            let compressed = lurd::compress(text);
            assert!(compressed.len() <= plain.len());
            assert_eq!(lurd::expand(&compressed).expect("compressed moves expand"), plain);
        }
        Ok(letters) => {
            let expanded = lurd::expand(text).expect("decoded moves expand");
            assert_eq!(letters.len(), expanded.chars().count());
            assert_eq!(lurd::decode(&expanded).expect("expanded moves decode"), letters);
        }
        // Without run-length encoding, the index is that of a character of the text.
        Err(e) if !lurd::is_rle(text) => assert!(e.index < plain.chars().count()),
        Err(_) => {}
    }
    if let Ok(letters) = moves::parse(text) {
        let moves: Vec<Move> = letters.iter().map(|l| Move { dir: l.dir, push: l.upper }).collect();
        for format in [MoveFormat::Lurd, MoveFormat::Json, MoveFormat::Words] {
            let written = moves::write(&moves, format);
            let back = moves::parse(&written).expect("written moves parse");
            assert!(back.iter().map(|l| l.dir).eq(letters.iter().map(|l| l.dir)), "{written}");
            if format == MoveFormat::Lurd {
                assert_eq!(back, letters);
            }
        }
    }
    if text.len() <= 4096 {
        let level = sokoban::format::parse_levels("#######\n#@$ . #\n# $.  #\n#######\n").expect("fixed level");
        let report = verify(&level[0], text);
        assert!(report.pushes <= report.moves);
    }
}

/// `verify`: the independent checker on arbitrary levels and moves: the bytes before the first
/// NUL are a level file (read by every parser), the bytes after it are the moves. `verify` never
/// panics, and it agrees with the rules engine (`sokoban::rules`, which shares no code with it)
/// on where a replay stops, on moves and pushes, on letter case and on whether the level ends
/// solved; its final board keeps the boxes, the goals and the walls of the level.
fn verify_against_rules(data: &[u8]) {
    let Some(split) = data.iter().position(|&b| b == 0) else { return };
    let (Ok(board), Ok(moves)) = (std::str::from_utf8(&data[..split]), std::str::from_utf8(&data[split + 1..])) else {
        return;
    };
    for format in SourceFormat::ALL {
        let Ok(levels) = parse_each_with(board, default_options(format)) else { continue };
        for level in levels.into_iter().flatten().take(2) {
            verify_level(&level, moves);
        }
    }
}

fn count(rows: &[String], of: &[char]) -> usize {
    rows.iter().flat_map(|r| r.chars()).filter(|c| of.contains(c)).count()
}

fn verify_level(level: &Level, moves: &str) {
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
    if !lurd::is_rle(moves) {
        let m = metrics.expect("a legal replay has metrics");
        assert_eq!((m.moves, m.pushes), (report.moves, report.pushes));
    }
    // The solution written back by the rules (right case, run-length encoded) checks the same.
    if report.solved {
        let compressed = lurd::compress(&letters.iter().collect::<String>());
        let expanded = lurd::expand(&compressed).expect("compressed moves expand");
        let again = verify(level, &expanded);
        assert_eq!((again.moves, again.pushes, again.solved), (report.moves, report.pushes, true));
    }
}
