//! Inputs the fuzz targets (`fuzz/fuzz_targets/`) found crashing, kept as regression tests: each
//! file of `tests/data/fuzz/` is checked with its target's assertions (the file name starts with
//! the target's name). See BENCHMARKS.md, "Fuzzing".

use std::path::Path;

use sokoban::format::{default_options, parse_each_with, write, xsb};
use sokoban::level::{BuildOptions, SourceFormat};
use sokoban::sok::{Block, read_solutions};

/// `parse_formats`: every level read in any format writes back to an equal level, and its
/// conversion to every format that accepts it reads back.
fn parse_formats(text: &str) {
    for format in SourceFormat::ALL {
        let opts = default_options(format);
        let Ok(levels) = parse_each_with(text, opts) else { continue };
        for level in levels.into_iter().flatten() {
            let written = write(&level, format).expect("a parsed level can be written back");
            let again = parse_each_with(&written, opts).expect("written level parses");
            assert_eq!(again.len(), 1);
            assert_eq!(again.into_iter().next().unwrap().expect("written level is valid"), level, "{written}");
            for other in SourceFormat::ALL {
                if let Ok(converted) = write(&level, other) {
                    let opts = BuildOptions { rule: level.rule(), ..default_options(other) };
                    let back = parse_each_with(&converted, opts).expect("a converted level parses");
                    assert!(back.iter().all(Result::is_ok), "{format:?} to {other:?}:\n{converted}");
                }
            }
        }
    }
}

/// `solutions`: every solution read names a line of the text and has moves; the text's levels
/// written as a `.sok` file with a solution read back as the same boards, titles and solutions,
/// and the file reads as a solutions file.
fn solutions(text: &str) {
    let lines = text.split('\n').count();
    let sok = read_solutions(text);
    assert!(sok.entries.iter().all(|e| e.level >= 1 && e.line >= 1 && e.line <= lines && !e.lurd.is_empty()));
    let Ok(levels) = xsb::parse_each(text, Default::default()) else { return };
    let levels: Vec<_> = levels.into_iter().flatten().collect();
    if levels.is_empty() {
        return;
    }
    let blocks: Vec<Block> = levels
        .iter()
        .enumerate()
        .map(|(i, level)| Block { number: i + 1, level, solutions: vec!["uR".into()] })
        .collect();
    let written = sokoban::sok::write(&blocks);
    let back = read_solutions(&written);
    assert_eq!(back.entries.len(), levels.len(), "{written}");
    let read = sokoban::solutions::read(&written).expect("a written .sok file reads as solutions");
    assert_eq!(read.entries.len(), levels.len(), "{written}");
    let again = xsb::parse(&written, Default::default()).expect("a written .sok file parses");
    for (a, b) in levels.iter().zip(&again) {
        assert_eq!(xsb::board_rows(a), xsb::board_rows(b));
        if let Some(t) = a.title().map(str::trim).filter(|t| !t.is_empty()) {
            assert_eq!(b.title(), Some(t), "{written}");
        }
    }
}

/// `decode_lurd`: decoding gives one letter per letter of the expansion, in well under the
/// fuzzer's 10 s (a 10-byte input expanding to 11 million letters timed out the first version of
/// the target, which wrote such lists back in three spellings; the target now skips those).
fn decode_lurd(text: &str) {
    let started = std::time::Instant::now();
    let expanded = sokoban::lurd::expand(text).expect("the input expands");
    let letters = sokoban::lurd::decode(text).expect("the input decodes");
    assert_eq!(letters.len(), expanded.len());
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
}

#[test]
fn fuzz_crash_inputs_pass_their_targets_checks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = String::from_utf8(std::fs::read(&path).unwrap()).expect("fuzz inputs are UTF-8");
        match name.split('-').next().unwrap() {
            "parse_formats" | "parse_xsb" => parse_formats(&text),
            "solutions" => solutions(&text),
            "decode_lurd" => decode_lurd(&text),
            other => panic!("{name}: no check for target {other}"),
        }
        seen += 1;
    }
    assert!(seen >= 4);
}

#[test]
fn a_grid_title_with_a_control_character_is_refused_by_the_grid_writer() {
    let level = &sokoban::format::parse_levels("; a\u{1}b\n#####\n#@$.#\n#####\n").unwrap()[0];
    assert_eq!(level.title(), Some("a\u{1}b"));
    let e = write(level, SourceFormat::Grid).unwrap_err();
    assert!(e.to_string().contains("control character"), "{e}");
    // XSB holds it.
    assert!(write(level, SourceFormat::Xsb).is_ok());
}

#[test]
fn a_sok_title_starting_with_a_brace_goes_after_the_board() {
    let level = &sokoban::format::parse_levels("{\"level\": 1}\n#####\n#@$.#\n#####\n").unwrap()[0];
    assert_eq!(level.title(), Some("{\"level\": 1}"));
    let written = sokoban::sok::write(&[Block { number: 1, level, solutions: vec!["R".into()] }]);
    assert!(written.starts_with("#####\n"), "{written}");
    let read = sokoban::solutions::read(&written).unwrap();
    assert_eq!((read.entries[0].level, read.entries[0].lurd.as_str()), (1, "R"));
}
