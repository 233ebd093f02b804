//! Sudoku and its variants as exact-cover problems on the `dlx-engine`.
//!
//! Any size and rule set, from the text forms `dlx` reads and writes:
//!
//! ```
//! use dlx_sudoku::{GridDefaults, GridMatrix, GridUniqueness, parse_grid};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let defaults = GridDefaults::default();
//! for line in [
//!     // A classic 9x9 puzzle, and a 6x6 one (boxes of 2x3) with a killer cage.
//!     "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
//!     ".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1",
//! ] {
//!     let puzzle = parse_grid(line, &defaults)?;
//!     // Built once per set of rules, and reused for every puzzle of them.
//!     let matrix = GridMatrix::new(puzzle.rules());
//!     match matrix.solver().check_unique(&puzzle)? {
//!         GridUniqueness::Unique(solution) => println!("{}", solution.to_line()),
//!         other => panic!("expected one solution, got {other:?}"),
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! The 9x9 variants have a fast path of their own, with the same answers: a [`Puzzle`] of 81
//! cells, a [`Matrix`] per [`Variant`] (the same encoder's matrix of the variant's rules) and
//! its [`SudokuSolver`]:
//!
//! ```
//! use dlx_sudoku::{Matrix, Puzzle, Uniqueness, Variant};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let line = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
//! let puzzle: Puzzle = line.parse()?;
//! let matrix = Matrix::new(Variant::Classic); // built once, reused for every puzzle
//! let mut solver = matrix.solver();
//! match solver.check_unique(&puzzle)? {
//!     Uniqueness::Unique(solution) => assert_eq!(
//!         solution.to_line(),
//!         "145327698839654127672918543496185372218473956753296481367542819984761235521839764"
//!     ),
//!     other => panic!("expected a unique solution, got {other:?}"),
//! }
//! println!("{:?}", solver.effort());
//! # Ok(()) }
//! ```
//!
//! A [`Variant`] is data: its list of [`Unit`]s (rows, columns, boxes, and diagonals or windoku
//! windows), per-cell restrictions (even cells) and moves that may not join equal digits
//! ([`Variant::forbidden_moves`], anti-king). One encoder, [`Matrix::new`], turns any variant into
//! the engine's problem: one option per cell and digit, one item per cell and per unit and digit,
//! and a secondary item per digit and pair of cells a forbidden move apart that no unit joins.
//! A [`SudokuSolver`] applies each puzzle's restrictions and givens as excluded and forced options
//! on a reused engine solver, so solving a batch builds nothing and allocates nothing per puzzle.
//!
//! Puzzles are read from 81-character lines, block grids, bracketed lists and JSON records, with
//! the fields that collections put beside them and the `# variant:` lines that carry their
//! variant ([`Records`] streams them), and written as lines, grids ([`Puzzle::to_grid`]), `.dlx`
//! ([`Matrix::puzzle_to_dlx`]) or SVG ([`to_svg`], [`svg_page`], streamed with [`PageWriter`];
//! pages of paper with captions, legends and answers by [`print_page`]).
//!
//! A [`Generator`] makes minimal puzzles with a unique solution for any variant and [`Symmetry`],
//! reproducibly from a seed: it takes the clue groups of a random full grid in a random order
//! (then, for even cells, the markers) and checks each removal with a first-solution search that
//! excludes the removed digit, without rebuilding anything; the other clues stay forced on the
//! solver's undo stack, arranged by halving the groups so that each is forced a logarithmic
//! number of times, not once per check. Removals that would leave one of the grid's unavoidable
//! sets without a clue (the cells where exchanging two digits, or two rows of a band, gives
//! another solution) are refused without a search, removals that the clues left undo through
//! singles alone (a cell with one candidate, or a digit with one place in a unit, placed round
//! after round until the removed cells hold their digits again) are accepted without one, and the
//! solver takes up the clues the halves call for only when a search needs them. A [`Run`] names
//! a reproducible series of puzzles (seed, symmetry, level, attempts):
//! [`Generator::generate_in`] makes puzzle `i` of it, exactly as `dlx generate` does.
//!
//! [`rate`](fn@rate) grades a puzzle the way people experience it: a logical solver
//! ([`solve_logically`]) applies the [`Technique`]s in order of difficulty and the hardest one
//! needed gives the [`Level`] and a number on Sudoku Explainer's scale ([`Logic::rating`]);
//! [`explain`] lists the steps; the search effort is averaged over seeded branching orders.
//!
//! Every other size (4x4 to 25x25, boxes of any a x b shape) and rules of a puzzle's own (jigsaw
//! regions, killer cages, even and odd cells, anti-knight, and the diagonals, windows and
//! anti-king of any size) are the [`grid`] module's: [`Rules`] as data, a [`Grid`] puzzle (which
//! shares its rules with the other puzzles of a batch), the one encoder ([`GridMatrix`], whose
//! matrix serves every puzzle of the same rules whatever its even and odd marks), a generator,
//! and SVG. The 9x9 [`Puzzle`] path above stays the fast one for the classic grid. Both rate with
//! the same logical solver, so a 9x9 puzzle gets the same steps and rating in either form, and
//! both generators thin out on the same machinery (the solver's undo stack, unavoidable sets).
//!
//! # Inside
//!
//! At the bottom, `cells` (sets of cells: one `u128` up to 11x11, fixed words above), `engine`
//! (the effort of a search, the `.dlx` writer) and `scale` (techniques and levels). `shape`
//! describes a grid of any size and rules as the logical solver reads it; `rate` is that solver
//! (with its front ends for 9x9 puzzles and for grids). `geometry` describes each 9x9 variant's
//! grid once for the 9x9 path: the rule checks (`puzzle`) and the generator (`generate`, whose
//! machinery is in `generate::pieces`, `generate::singles` and `generate::unavoidable`; the
//! pieces and the unavoidable sets serve grids of every size too). The encoder is `grid/encode`
//! for every puzzle (`solve` holds the 9x9 solver over it). `parse` reads records, `svg` draws
//! them, `symmetry` maps cells onto their partners. `grid` holds the rest of the general path
//! (`grid/rules`, `grid/encode`, `grid/generate`, `grid/text`, `grid/svg`). The measurements
//! behind the design are in the project's `benches/RESULTS.md`.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod cells;
mod engine;
mod generate;
mod geometry;
pub mod grid;
mod parse;
mod puzzle;
mod rate;
mod scale;
mod shape;
mod solve;
mod svg;
mod symmetry;
mod variant;

pub use engine::Effort;
pub use generate::{Generated, Generator, NotFound, Numbered, Run};
pub use grid::{
    At, Cage, Constraint, Grid, GridDefaults, GridMatrix, GridSolver, GridUniqueness, Parity, Rules, Size,
    SizeError, Symbols, parse_grid,
};
pub use parse::{Format, MAX_LINE, ParseError, ParseErrorKind, Record, Records, parse_all};
pub use puzzle::{Puzzle, RuleError};
pub use rate::{Logic, Rater, Rating, Step, explain, rate, solve_logically};
pub use scale::{Level, Technique};
pub use solve::{Matrix, SolveError, SudokuSolver, Uniqueness};
pub use svg::{Entry, Layout, PageWriter, Paper, page as svg_page, print_page, to_svg};
pub use symmetry::Symmetry;
pub use variant::{Cell, Unit, UnknownName, Variant};
