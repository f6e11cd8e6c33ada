//! Fuzzes the integer-grid, JSON-grid and warehouse parsers and the move-list parser: any text
//! must give levels or errors, never a panic, and writing is a fixpoint: a parsed level written
//! in its own format reads back and writes the same text again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sokoban::level::SourceFormat;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = sokoban::moves::parse(text);
    for format in [SourceFormat::Grid, SourceFormat::Json, SourceFormat::Warehouse] {
        let Ok(levels) = sokoban::format::parse_each_as(text, format) else { continue };
        for level in levels.into_iter().flatten() {
            let written = sokoban::format::write(&level, format).expect("a parsed level can be written back");
            let again = sokoban::format::parse_as(&written, format).expect("written level parses");
            let rewritten = sokoban::format::write(&again[0], format).expect("writable");
            assert_eq!(rewritten, written);
        }
    }
});
