//! Sudoku and its variants as exact-cover problems on the `dlx-engine`: every size from 4x4 to
//! 25x25 and every rule set, on one path.
//!
//! ```
//! use dlx_sudoku::{Matrix, Uniqueness, Records};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let text = "\
//! ..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..
//! .6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1
//! ";
//! // Every record is a puzzle with its rules: a classic 9x9 one, a 6x6 one with a killer cage.
//! for record in Records::new(text.as_bytes()) {
//!     let puzzle = record?.puzzle?;
//!     // Built once per set of rules, and reused for every puzzle of them.
//!     let matrix = Matrix::new(puzzle.rules());
//!     match matrix.solver().check_unique(&puzzle)? {
//!         Uniqueness::Unique(solution) => println!("{}", solution.to_line()),
//!         other => panic!("expected one solution, got {other:?}"),
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! A [`Puzzle`] is its digits and its [`Rules`] (size and box shape, jigsaw regions,
//! [`Constraint`]s such as diagonals, windows, anti-king and anti-knight, even and odd cells,
//! killer [`Cage`]s), shared by the puzzles of a batch that have the same. The 9x9
//! [`Variant`]s are named presets of them (`Rules::from(Variant::Diagonal)`). [`Records`]
//! reads them from every form `dlx` reads and writes (81-character lines, block grids, lists,
//! JSON, CSV with header rows, the line form of any size with its rules as fields, `# variant:`
//! and `# size:` lines), each error at its line and column.
//!
//! One encoder, [`Matrix::new`], turns any rules into the engine's problem (one option per
//! cell and digit, one item per cell and per unit and digit, secondary items for forbidden moves,
//! an item per cage and digit); a [`SudokuSolver`] applies each puzzle's givens and marks as forced
//! and excluded options on a reused engine solver: first solution, uniqueness with two
//! witnesses, counts within a limit or a budget, an iterator, a cancel flag, `.dlx` output.
//! [`SudokuSolver::rate`] grades a puzzle the way people experience it: the logical solver
//! ([`solve_logically`], [`explain`]) applies the [`Technique`]s in order of difficulty,
//! and the hardest one gives the [`Level`] and a number on Sudoku Explainer's scale; the search
//! effort is averaged over seeded branching orders. A [`Generator`] makes minimal puzzles
//! with a unique solution for any rules and [`Symmetry`], reproducibly from a [`Run`]'s seed,
//! with jigsaw regions, cages and marks made up for each when asked ([`generate_with_extras`]).
//! [`PageWriter`] and [`print_page`] draw them as SVG, on screen or on paper with a legend; a
//! [`Printer`] makes the pages a PDF document or PNG images (the `pdf` feature, on by default).
//!
//! A puzzle whose rules are a 9x9 variant's takes a fast path inside these types, never a type of
//! its own: the logical solver with the side known when compiling, and the generator's 9x9
//! machinery (band swaps, singles proofs, 128-bit cell sets). The answers are the same either
//! way; the tests compare them.
//!
//! # Inside
//!
//! The folders are floors, and each imports only from the floors before it, so that no module
//! imports another that imports it back, directly or through others (`tests/all/layers.rs` reads
//! the sources and checks it):
//!
//! 1. `model`: what a puzzle is. Sets of cells (`cells`: one `u128` up to 11x11, fixed words
//!    above), `size`, `variant` (the 9x9 units, and the variants as named presets of rules),
//!    `rules`, the one [`Puzzle`] (`puzzle`) and the rules' names (`names`).
//! 2. `shape`: the units, peers and moves of any rules, built once per rule set (a 9x9 variant's
//!    once for the program), and `shape/nine`, the 9x9 form of a puzzle checked against them.
//! 3. `cover`: exact cover. The one encoder and its solver (`encode`), the search of its matrix
//!    on bit sets (`bits`, and `bits/bands` for the 9x9 grid, by digit and band), a batch's
//!    matrices and solvers (`cache`), the effort of a search and the `.dlx` writer (`engine`),
//!    and the 9x9 options' numbering (`nine`).
//! 4. `logic`: the logical solver of every size (`grid`, over `board` and `advanced`), the 9x9
//!    form's front end (`mod`), the scale of techniques and levels (`scale`); one [`Step`], one
//!    [`explain`], and [`SudokuSolver::rate`].
//! 5. `generate`: the one generator (`fill`, `thin`, `extras`), the 9x9 generator `nine` it hands
//!    a variant's rules to, the machinery both thin out with (`pieces`, `singles`,
//!    `unavoidable`), the clue [`Symmetry`] and a run's [`Plan`].
//! 6. `text`: every reader and writer of records side by side: [`Records`] (`mod`), the line form
//!    of any size and its blocks (`line`), lists, columns, and JSON (`json`, which also writes a
//!    generated puzzle's record).
//! 7. `print`: pictures (`draw` the one drawing, `screen`, `paper`, `printer`), over the model.
//! 8. `answer`: the policy of answering a record, shared by the front ends.
//!
//! The measurements behind the design are in the project's `benches/RESULTS.md`.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod answer;
mod cover;
mod generate;
mod logic;
mod model;
mod print;
mod shape;
mod text;

pub use answer::{Answer, Status, Task};
pub use cover::engine::Effort;
pub use cover::{
    Forecast, LONG_COUNT_NODES, LongCount, Matrices, Matrix, Search, SolveError, Solvers, SudokuSolver,
    Uniqueness, Watch,
};
pub use generate::{
    Extras, GenerateError, Generated, Generator, NotFound, Numbered, Plan, PlanError, Rated, Run, Symmetry,
    generate_in_with_extras, generate_with_extras,
};
pub use logic::grid::{Step, explain, solve_logically, solve_logically_with};
pub use logic::scale::{Level, Technique};
pub use logic::{Logic, Rating};
pub use model::names::{NamedRules, RuleName};
pub use model::variant::{Unit, UnknownName, Variant};
pub use model::{
    At, Cage, CageProblem, Constraint, Parity, Puzzle, RuleError, Rules, RulesError, Size, SizeError, Symbols,
};
pub use print::{Entry, Layout, PageWriter, Paper, page as svg_page, print_page, to_svg};
#[cfg(feature = "pdf")]
pub use print::{Image, Pdf, PrintError, Printer};
pub use text::{
    Defaults, Format, LineError, LineErrorKind, MAX_LINE, ParseError, ParseErrorKind, Record, Records,
    parse_all, parse_block, parse_puzzle,
};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The examples of `docs/library.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
struct LibraryDoctests;
