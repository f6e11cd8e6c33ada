//! A deterministic stand-in for the cargo-fuzz targets (which need nightly): every bundled level
//! file and thousands of random mutations of them go through every parser. Nothing may panic,
//! and writing must be a fixpoint: a parsed level written in its format reads back and writes the
//! same text again.

mod common;

use sokoban::level::SourceFormat;

fn check(text: &str) {
    let _ = sokoban::moves::parse(text);
    for format in SourceFormat::ALL {
        let Ok(levels) = sokoban::format::parse_each_as(text, format) else { continue };
        for level in levels.into_iter().flatten() {
            let Ok(written) = sokoban::format::write(&level, format) else { continue };
            let again = sokoban::format::parse_as(&written, format).unwrap_or_else(|e| panic!("{e}\n{written}"));
            let rewritten = sokoban::format::write(&again[0], format).expect("a level read back can be written");
            assert_eq!(rewritten, written, "{format:?}");
        }
    }
}

#[test]
fn parsers_survive_mutated_level_files() {
    const ALPHABET: &[u8] = b" #$.@*+!-_0123456()[]\",\n|'x;";
    let mut rng = common::Rng::new(2026);
    let mut mutants = 0;
    for dir in ["data", "data/snekoban-puzzles", "data/cab320-warehouses"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths.into_iter().filter(|p| p.is_file()) {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            // Big files: their first levels only, so the test stays fast.
            let text: String = text.chars().take(4000).collect();
            check(&text);
            for _ in 0..30 {
                let mut bytes = text.clone().into_bytes();
                for _ in 0..1 + rng.below(4) {
                    if bytes.is_empty() {
                        break;
                    }
                    let i = rng.below(bytes.len());
                    bytes[i] = ALPHABET[rng.below(ALPHABET.len())];
                }
                if let Ok(mutant) = String::from_utf8(bytes) {
                    check(&mutant);
                    mutants += 1;
                }
            }
        }
    }
    assert!(mutants > 10_000, "{mutants}");
}
