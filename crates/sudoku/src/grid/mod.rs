//! Puzzles of every size and rule set: sides 4 to 25 with boxes of any shape, jigsaw regions,
//! diagonals, windows, anti-king and anti-knight, even and odd cells, killer cages.
//!
//! ```
//! use dlx_sudoku::{Defaults, Matrix, Uniqueness, parse_puzzle};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A 6x6 puzzle (boxes of 2 rows and 3 columns) with a killer cage: r1c1 + r2c1 = 4.
//! let line = ".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1";
//! let grid = parse_puzzle(line, &Defaults::default())?;
//! let matrix = Matrix::new(grid.rules()); // reusable for every puzzle of these rules
//! let mut solver = matrix.solver();
//! match solver.check_unique(&grid)? {
//!     Uniqueness::Unique(solution) => assert!(solution.to_line().starts_with("165243324156")),
//!     other => panic!("expected one solution, got {other:?}"),
//! }
//! # Ok(()) }
//! ```
//!
//! [`Rules`] are data: the size, the region of each cell, the [`Constraint`]s, each cell's
//! [`Parity`] and the [`Cage`]s. One encoder, [`Matrix::new`], turns any of them into the
//! engine's problem (its docs give the items and options); a [`SudokuSolver`] forces each puzzle's
//! givens on a reused engine solver. [`parse_puzzle`] and [`parse_block`] read puzzles,
//! [`Puzzle::to_text`] and [`Puzzle::to_block`] write them.
//!
//! A grid whose rules are a 9x9 [`Variant`](crate::Variant)'s takes the 9x9 fast path inside
//! these types: the logical solver and the generator dispatch to it (the side known when
//! compiling, band swaps, singles proofs, 128-bit cell sets). The tests explain and generate the
//! same 9x9 puzzles both ways and compare.

mod cache;
mod encode;
mod puzzle;
mod rules;
mod size;
mod text;

pub use cache::{Matrices, Solvers};
pub use encode::{Matrix, SolveError, SudokuSolver, Uniqueness};
pub use puzzle::{Puzzle, RuleError};
pub use rules::{At, Cage, CageProblem, Constraint, Parity, Rules, RulesError};
pub(crate) use rules::{combinations, edge_neighbours};
pub use size::{Size, SizeError, Symbols};
pub use text::{Defaults, LineError, LineErrorKind, parse_block, parse_puzzle};
pub(crate) use text::{is_rule_line, parse_puzzle_record};
