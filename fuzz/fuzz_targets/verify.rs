//! Fuzzes the independent checker on arbitrary levels and moves: the bytes before the first NUL
//! are a level file (read by every parser), the bytes after it are the moves. `verify` must
//! never panic, and it must agree with the rules engine (`sokoban::rules`, which shares no code
//! with it) on where a replay stops, on moves and pushes, on letter case and on whether the level
//! ends solved; its final board keeps the boxes, the goals and the walls of the level.
//!
//! The assertions are in `../checks.rs`, shared with `tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::check("verify", data));
