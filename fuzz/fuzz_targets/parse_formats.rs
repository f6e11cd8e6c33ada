//! Fuzzes every level parser and the move-list parser: any text must give levels or errors, never
//! a panic, and writing round-trips: a parsed level written in its own format reads back as an
//! equal level and writes the same text again, and its conversion to every other format reads
//! back too.
//!
//! The assertions are in `../checks.rs`, shared with `tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::check("parse_formats", data));
