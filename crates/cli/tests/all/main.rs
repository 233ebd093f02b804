//! The binary's tests, one test binary (each file a module): one each would be linked and built
//! once per file, for minutes of CI.

mod common;

mod checkpoint;
mod cluster;
mod collections;
mod docs;
mod edges;
mod failures;
mod fuzz_corpus;
mod generate;
mod grids;
mod habits;
mod pages;
mod probe;
mod round_trips;
mod shards;
mod signals;
mod sudoku;
mod xc;
