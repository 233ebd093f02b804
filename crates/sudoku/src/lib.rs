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
//! The modules stand in layers, from the bottom: `cells` (sets of cells: one `u128` up to 11x11,
//! fixed words above), `variant` and `scale` (units, techniques and levels), `engine` (the effort
//! of a search, the `.dlx` writer), `symmetry`. Then `grid/rules` and `grid/size` (the model),
//! `shape` (the units, peers and moves of any rules, built once per rule set; a 9x9 variant's once
//! for the program, with the 9x9 generator's set operations), `grid/puzzle` and `puzzle` (a puzzle
//! of any size, and the 9x9 form), `grid/encode` (the one encoder and its solver; `solve` numbers
//! the 9x9 form's options in it) and `grid/cache` (a batch's matrices and solvers), `rate` (the
//! logical solver), `generate` (the one generator: `fill`, `thin` and `extras`, the 9x9 generator
//! `generate/nine` it hands a variant's rules to, and the machinery both thin out with: `pieces`,
//! `singles`, `unavoidable`), `parse` and `grid/text` (reading and writing records), `print`
//! (pictures: `print/draw` the one drawing, `print/screen`, `print/paper`, `print/printer`). No
//! module imports another that imports it back, directly or through others; `grid` still holds the
//! model (rules, size, the puzzle) beside the encoder, its text and its caches, which a later split
//! will set on floors of their own. `answer` is the policy of answering a record, and `names` the
//! rules' names, both shared by the front ends. The measurements behind the design are in the
//! project's `benches/RESULTS.md`.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod answer;
mod cells;
mod engine;
mod generate;
mod grid;
mod names;
mod parse;
mod print;
mod puzzle;
mod rate;
mod scale;
mod shape;
mod solve;
mod symmetry;
mod variant;

pub use answer::{Answer, Status, Task};
pub use engine::Effort;
pub use generate::{
    Extras, GenerateError, Generated, Generator, NotFound, Numbered, Plan, PlanError, Rated, Run,
    generate_in_with_extras, generate_with_extras,
};
pub use grid::{
    At, Cage, CageProblem, Constraint, Defaults, LineError, LineErrorKind, Matrices, Matrix, Parity, Puzzle,
    RuleError, Rules, RulesError, Size, SizeError, SolveError, Solvers, SudokuSolver, Symbols, Uniqueness,
    parse_block, parse_puzzle,
};
pub use names::{NamedRules, RuleName};
pub use parse::{Format, MAX_LINE, ParseError, ParseErrorKind, Record, Records, parse_all};
pub use print::{Entry, Layout, PageWriter, Paper, page as svg_page, print_page, to_svg};
#[cfg(feature = "pdf")]
pub use print::{Image, Pdf, PrintError, Printer};
pub use rate::grid::{Step, explain, solve_logically, solve_logically_with};
pub use rate::{Logic, Rating};
pub use scale::{Level, Technique};
pub use symmetry::Symmetry;
pub use variant::{Unit, UnknownName, Variant};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The examples of `docs/library.md`, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
struct LibraryDoctests;
