//! Fuzzes every level parser and the move-list parser: any text must give levels or errors, never
//! a panic, and writing round-trips: a parsed level written in its own format reads back as an
//! equal level and writes the same text again, and its conversion to every other format reads
//! back too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sokoban::format::{default_options, parse_each_with, write};
use sokoban::level::{BuildOptions, SourceFormat};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = sokoban::moves::parse(text);
    for format in SourceFormat::ALL {
        let opts = default_options(format);
        let Ok(levels) = parse_each_with(text, opts) else { continue };
        for level in levels.into_iter().flatten() {
            let written = write(&level, format).expect("a parsed level can be written back");
            let again = parse_each_with(&written, opts).expect("written level parses");
            assert_eq!(again.len(), 1);
            let again = again.into_iter().next().unwrap().expect("written level is valid");
            assert_eq!(again, level, "{written}");
            assert_eq!(write(&again, format).expect("writable"), written);
            for other in SourceFormat::ALL {
                if let Ok(converted) = write(&level, other) {
                    let opts = BuildOptions { rule: level.rule(), ..default_options(other) };
                    let back = parse_each_with(&converted, opts).expect("a converted level parses");
                    assert!(back.iter().all(Result::is_ok), "{converted}");
                }
            }
        }
    }
});
