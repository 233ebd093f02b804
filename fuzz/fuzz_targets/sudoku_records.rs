//! Fuzz target: see `checks::sudoku_records`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::sudoku_records(data));
