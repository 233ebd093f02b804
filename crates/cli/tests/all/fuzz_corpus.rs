//! Every input the fuzzers kept (`fuzz/corpus/TARGET`) and every crash they found
//! (`fuzz/regressions/TARGET`), run through the fuzz targets' own checks on stable, so that the
//! ordinary test run keeps them.

use std::fs;
use std::path::Path;

#[path = "../../../../fuzz/checks.rs"]
mod checks;

/// Runs `check` on every file under `fuzz/{corpus,regressions}/target`; returns how many.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut count = 0;
    for kind in ["corpus", "regressions"] {
        let Ok(dir) = fs::read_dir(root.join(kind).join(target)) else { continue };
        let mut paths: Vec<_> = dir.map(|entry| entry.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let data = fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{} fails its check", path.display());
            count += 1;
        }
    }
    count
}

#[test]
fn dlx_format_inputs() {
    assert!(replay("dlx_format", checks::dlx_format) > 0, "the committed corpus is missing");
}

#[test]
fn sudoku_records_inputs() {
    assert!(replay("sudoku_records", checks::sudoku_records) > 0, "the committed corpus is missing");
}

#[test]
fn round_trips_inputs() {
    assert!(replay("round_trips", checks::round_trips) > 0, "the committed corpus is missing");
}
