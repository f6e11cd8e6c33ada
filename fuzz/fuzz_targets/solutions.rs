//! Fuzzes the solution-file readers (TSV, JSON lines, `.sok`) and the `.sok` writer: any text
//! gives entries or an error, never a panic, every entry names a line of the text, and the levels
//! of the text written as a `.sok` file with solutions read back as the same boards, titles and
//! solutions.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sokoban::format::xsb;
use sokoban::sok::{Block, read_solutions, write};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
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
    let written = write(&blocks);
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
});
