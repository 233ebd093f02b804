//! Exact cover: puzzles of every size and rule set as the engine's problems, and their solvers.
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
//! One encoder, [`Matrix::new`] (`encode`), turns any [`Rules`](crate::Rules) into the engine's
//! problem (its docs give the items and options); a [`SudokuSolver`] forces each puzzle's givens on
//! a reused engine solver and answers: a first solution, uniqueness, counts, a rating's search
//! effort, `.dlx` text (`engine`: the effort of a search and the `.dlx` writer). Its first
//! solutions, uniqueness checks and counts may take `bits` instead: Algorithm X on the same matrix
//! held as one word of candidates per cell (on the 9x9 grid, one word per digit and band), with
//! forced items and locked candidates applied in bulk (the [`Search`] chooses; the answers are
//! the same, the tests compare them). `cache` keeps a batch's matrices and each thread's solvers;
//! `watch` runs the counts that turn out long on more threads, with a forecast and a progress to
//! show; `nine` numbers a 9x9 variant's options by cell and digit alone, the 9x9 machinery's way
//! into the matrix.

pub(crate) mod bits;
mod cache;
mod encode;
pub(crate) mod engine;
pub(crate) mod nine;
pub(crate) mod watch;

pub use cache::{Matrices, Solvers};
pub use encode::{Matrix, Search, SolveError, SudokuSolver, Uniqueness};
pub use watch::{Forecast, LONG_COUNT_NODES, LongCount, Watch};
