//! Fuzzes the LURD decoder and the verifier: any bytes as moves on a fixed level.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(letters) = sokoban::lurd::decode(text) {
        assert_eq!(letters.len(), text.chars().filter(|c| !c.is_whitespace()).count());
    }
    let level = sokoban::format::parse_levels("#######\n#@$ . #\n# $.  #\n#######\n").expect("fixed level");
    let report = sokoban::verify::verify(&level[0], text);
    assert!(report.pushes <= report.moves);
});
