//! Fuzzes the XSB level parser: any text must give levels or errors, never a panic, and every
//! parsed level must survive a write/parse round trip.
//!
//! The assertions are in `../checks.rs`, shared with `tests/fuzz_regressions.rs`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| checks::check("parse_xsb", data));
