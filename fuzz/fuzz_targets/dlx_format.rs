//! Fuzz target: see `checks::dlx_format`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::dlx_format(data));
