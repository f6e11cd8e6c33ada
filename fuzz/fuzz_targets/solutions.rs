//! Fuzzes the solution-file readers (TSV, JSON lines, `.sok`) and the `.sok` writer: any text
//! gives entries or an error, never a panic, every entry names a line of the text, and the levels
//! of the text written as a `.sok` file with solutions read back as the same boards, titles and
//! solutions.
//!
//! The assertions are in `../checks.rs`, shared with `tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::check("solutions", data));
