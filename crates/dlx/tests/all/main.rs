//! The engine's tests, one binary (each file a module): a test binary each would be linked and
//! built once per file, for minutes of CI.

mod common;

mod branching;
mod colors;
mod costs;
mod format;
mod known;
mod multiplicities;
mod parallel;
mod preprocess;
mod properties;
mod split;
