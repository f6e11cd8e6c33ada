//! Inputs the fuzz targets (`fuzz/fuzz_targets/`) found crashing, kept as regression tests: each
//! file of `tests/data/fuzz/` is checked with its target's assertions (the file name starts with
//! the target's name), which this test shares with the targets: `fuzz/checks.rs`. See
//! BENCHMARKS.md, "Fuzzing".

#[path = "../fuzz/checks.rs"]
mod checks;

use std::path::Path;
use std::time::{Duration, Instant};

use sokoban::format::write;
use sokoban::level::SourceFormat;
use sokoban::sok::Block;

#[test]
fn fuzz_crash_inputs_pass_their_targets_checks() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&path).unwrap();
        let target = name.split('-').next().unwrap();
        // The fuzzer's own time limit is 10 s (`-timeout=10`): a kept input runs well under it.
        let started = Instant::now();
        checks::check(target, &data);
        assert!(started.elapsed() < Duration::from_secs(5), "{name}: {:?}", started.elapsed());
        seen += 1;
    }
    assert!(seen >= 4);
}

/// Beyond what the `decode_lurd` target checks (it skips expansions over 100,000 letters): the
/// input that timed out its first version, 10 bytes expanding to 11 million letters, expands and
/// decodes to one letter per letter of the expansion, quickly.
#[test]
fn a_long_run_length_expansion_decodes_quickly() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz/decode_lurd-11-million-letters-timeout.bin");
    let text = std::fs::read_to_string(path).unwrap();
    let started = Instant::now();
    let expanded = sokoban::lurd::expand(&text).expect("the input expands");
    let letters = sokoban::lurd::decode(&text).expect("the input decodes");
    assert_eq!(letters.len(), expanded.len());
    assert!(expanded.len() > 10_000_000);
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
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
