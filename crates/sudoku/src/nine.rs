//! The 9x9 fast path: the classic grid and its variants on fixed tables.
//!
//! The crate's types ([`Puzzle`](crate::Puzzle), [`Matrix`](crate::Matrix),
//! [`SudokuSolver`](crate::SudokuSolver), [`Generator`](crate::Generator),
//! [`solve_logically`](crate::solve_logically)) answer every puzzle, and take this path
//! themselves for a puzzle whose rules are a [`Variant`](crate::Variant)'s: its logical solver
//! with the side known when compiling, and its generator with the 9x9 machinery (band swaps,
//! singles proofs, 128-bit cell sets). The same answers come either way (the tests compare
//! them); this module is that path itself, for code that holds 81-cell puzzles in bulk: a
//! [`Puzzle`] is a `Copy` value of 81 digits and a set of even cells, with no rules attached
//! (they are its [`Variant`](crate::Variant), given beside it).
//!
//! ```
//! use dlx_sudoku::nine::{Matrix, Puzzle, Uniqueness};
//! use dlx_sudoku::Variant;
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let line = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
//! let puzzle: Puzzle = line.parse()?;
//! let matrix = Matrix::new(Variant::Classic); // built once, reused for every puzzle
//! let mut solver = matrix.solver();
//! match solver.check_unique(&puzzle)? {
//!     Uniqueness::Unique(solution) => assert!(solution.to_line().starts_with("145327698")),
//!     other => panic!("expected a unique solution, got {other:?}"),
//! }
//! # Ok(()) }
//! ```

pub use crate::generate::nine::{Generated, Generator, Numbered};
pub use crate::puzzle::{Puzzle, RuleError};
pub use crate::rate::{Rater, Step, explain, rate, solve_logically};
pub use crate::solve::{Matrix, SolveError, SudokuSolver, Uniqueness};
