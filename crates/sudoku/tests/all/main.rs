//! dlx-sudoku's tests, one binary (each file a module): a test binary each would be linked and
//! built once per file, for minutes of CI.

mod common;

mod answers;
mod bits;
mod collections;
mod generate;
mod grids;
mod json_records;
mod known;
mod layers;
mod properties;
mod rate;
