//! Fuzz target: see `checks::round_trips`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::round_trips(data));
