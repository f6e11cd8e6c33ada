//! Fuzzes the level parsers: any text must give levels or errors, never a panic, and every
//! parsed level must survive a write/parse round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(levels) = sokoban::format::xsb::parse_each(text, Default::default()) {
        for level in levels.into_iter().flatten() {
            let written = sokoban::format::xsb::write(&level);
            let again = sokoban::format::xsb::parse(&written, Default::default()).expect("written level parses");
            assert_eq!(again[0], level);
        }
    }
});
