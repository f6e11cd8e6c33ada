//! Fuzzes the move decoders and the verifier: any bytes as moves on a fixed level. Decoding
//! gives one letter per non-blank character (run-length encoding written out first), run-length
//! compression round-trips, a move list in any spelling writes back in all three spellings and
//! reads back as the same directions, and the replay never counts more pushes than moves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sokoban::lurd;
use sokoban::moves::{self, MoveFormat};
use sokoban::rules::Move;

/// Longer expansions (up to `lurd::MAX_EXPANDED`, by design) are only expanded: decoding, writing
/// and reading them back in three spellings takes seconds and finds nothing a short one would not.
const MAX_CHECKED: usize = 100_000;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
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
        let report = sokoban::verify::verify(&level[0], text);
        assert!(report.pushes <= report.moves);
    }
});
