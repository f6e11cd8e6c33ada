//! Fuzzes the move decoders and the verifier: any bytes as moves on a fixed level. Decoding
//! gives one letter per non-blank character (run-length encoding written out first), run-length
//! compression round-trips, a move list in any spelling writes back in all three spellings and
//! reads back as the same directions, and the replay never counts more pushes than moves.
//!
//! The assertions are in `../checks.rs`, shared with `tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::check("decode_lurd", data));
