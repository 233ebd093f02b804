//! The exact-cover encoding and the reusable per-puzzle solver.

use std::ops::ControlFlow;

use dlx_engine::{Interrupted, ItemId, OptionId, Problem, ProblemBuilder, Solution, Solver, TieBreak};

use crate::engine::{Effort, names, write_dlx};
use crate::geometry::Geometry;
use crate::puzzle::{Puzzle, RuleError};
use crate::variant::Variant;

/// Why a puzzle could not be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The givens break the rules of the variant.
    #[error(transparent)]
    Rules(#[from] RuleError),
    /// The search was cut short by a budget or cancellation.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
}

/// The exact-cover matrix of a variant, built once and shared by any number of solvers.
///
/// Items: one per cell ("the cell is filled"), then one per unit and digit ("the unit holds the
/// digit"): 81 + 27 x 9 = 324 for the classic grid, 18 more for the diagonals. Options: one per
/// cell and digit, numbered `cell * 9 + digit - 1` (729 in all).
#[derive(Debug, Clone)]
pub struct Matrix {
    variant: Variant,
    problem: Problem,
}

impl Matrix {
    /// Encodes a variant.
    pub fn new(variant: Variant) -> Matrix {
        let geometry = Geometry::of(variant);
        let units = geometry.units();
        let mut b = ProblemBuilder::new();
        let declare =
            |b: &mut ProblemBuilder, name: String| b.primary(name).expect("sudoku names are valid and few");
        let cells: Vec<_> = (0..81).map(|k| declare(&mut b, names::cell(k, 9))).collect();
        let mut unit_items = Vec::with_capacity(units.len() * 9);
        for &unit in units {
            for digit in 1..=9 {
                unit_items.push(declare(&mut b, names::unit(unit, digit)));
            }
        }
        // A forbidden move between two cells that share no unit: a secondary item per pair and
        // digit, which the two cells' options of that digit share (at most one is chosen).
        let mut move_items: Vec<Vec<(usize, ItemId)>> = vec![Vec::new(); 81];
        for a in 0..81 {
            for other in geometry.move_peers(a).iter().filter(|&other| other > a) {
                for digit in 0..9 {
                    let item = b
                        .secondary(names::apart(a, other, 9, digit + 1))
                        .expect("sudoku names are valid and few");
                    move_items[a].push((digit, item));
                    move_items[other].push((digit, item));
                }
            }
        }
        for (cell, &cell_item) in cells.iter().enumerate() {
            for digit in 0..9 {
                let unit_part = geometry.units_of(cell).iter().map(|&k| unit_items[k * 9 + digit]);
                let move_part = move_items[cell].iter().filter(|&&(d, _)| d == digit).map(|&(_, item)| item);
                b.option(std::iter::once(cell_item).chain(unit_part).chain(move_part))
                    .expect("each option is valid");
            }
        }
        Matrix { variant, problem: b.build() }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The engine's problem.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// A solver over this matrix.
    pub fn solver(&self) -> SudokuSolver<'_> {
        SudokuSolver { variant: self.variant, solver: Solver::new(&self.problem) }
    }

    /// The option placing `digit` (1-9) in `cell` (0-80). Panics outside those ranges.
    pub fn option(cell: usize, digit: u8) -> OptionId {
        assert!(cell < 81 && (1..=9).contains(&digit), "no option places {digit} in cell {cell}");
        OptionId::new(cell * 9 + usize::from(digit) - 1).expect("fewer than 729 options")
    }

    /// The cell (0-80) and digit (1-9) an option places.
    pub fn placement(option: OptionId) -> (usize, u8) {
        let k = option.index();
        (k / 9, u8::try_from(k % 9 + 1).expect("digit below 10"))
    }

    /// The puzzle in Knuth's `.dlx` format: the variant's items, and for each cell the options
    /// still open to it (only the given digit for a given, only even digits for an even cell).
    /// Counting its solutions with any exact-cover solver counts the puzzle's.
    pub fn puzzle_to_dlx(&self, puzzle: &Puzzle) -> String {
        let title = format!("sudoku ({}) {}", self.variant, puzzle.to_line());
        write_dlx(&self.problem, &title, |option| {
            let (cell, digit) = Matrix::placement(option);
            let given = puzzle.get(cell);
            if given != 0 { given == digit } else { !(puzzle.is_even_cell(cell) && digit % 2 == 1) }
        })
    }
}

/// The uniqueness verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Puzzle),
    /// More than one: two different solutions as witnesses.
    Multiple(Puzzle, Puzzle),
}

/// Solves puzzles of one variant on a reused engine solver: each puzzle's restrictions and givens
/// are excluded and forced options, undone before the next puzzle. No matrix is built and nothing
/// is allocated per puzzle.
///
/// A first solution or a uniqueness check (a count up to 2 at most) breaks ties at guesses by the
/// last conflict ([`TieBreak::LastConflict`]), which takes far fewer nodes on hard puzzles.
/// Counting further, and the iterator of solutions, take the earliest item: walking a whole tree,
/// the last conflict saves no nodes and costs time. (The figures are in `benches/RESULTS.md`.)
#[derive(Debug)]
pub struct SudokuSolver<'m> {
    variant: Variant,
    solver: Solver<'m>,
}

/// Writes a solution's placements into a grid.
fn fill(grid: &mut Puzzle, solution: &Solution<'_>) {
    for option in solution.options() {
        let (cell, digit) = Matrix::placement(option);
        grid.set(cell, digit);
    }
}

impl<'m> SudokuSolver<'m> {
    /// The variant solved.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The effort of the last search.
    pub fn effort(&self) -> Effort {
        self.solver.stats().into()
    }

    /// Applies the puzzle on the solver (see [`load`]).
    fn load(&mut self, puzzle: &Puzzle) -> Result<(), RuleError> {
        load(&mut self.solver, self.variant, puzzle)
    }

    /// Visits up to `limit` solutions, filling the first two into `grids`; returns how many. Ties
    /// are broken as the type's docs say.
    fn run(&mut self, puzzle: &Puzzle, limit: u64, grids: &mut [Puzzle; 2]) -> Result<u64, SolveError> {
        self.solver.set_tie_break(if limit <= 2 { TieBreak::LastConflict } else { TieBreak::Earliest });
        self.load(puzzle)?;
        let mut seen = 0u64;
        if limit > 0 {
            self.solver.for_each(|s| {
                if let Some(grid) = usize::try_from(seen).ok().and_then(|k| grids.get_mut(k)) {
                    *grid = *puzzle;
                    fill(grid, s);
                }
                seen += 1;
                if seen >= limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })?;
        }
        Ok(seen)
    }

    /// The first solution found, if any.
    pub fn first(&mut self, puzzle: &Puzzle) -> Result<Option<Puzzle>, SolveError> {
        let mut grids = [Puzzle::empty(); 2];
        let n = self.run(puzzle, 1, &mut grids)?;
        Ok((n > 0).then_some(grids[0]))
    }

    /// None, unique (with the solution) or multiple (with two witnesses).
    pub fn check_unique(&mut self, puzzle: &Puzzle) -> Result<Uniqueness, SolveError> {
        let mut grids = [Puzzle::empty(); 2];
        Ok(match self.run(puzzle, 2, &mut grids)? {
            0 => Uniqueness::None,
            1 => Uniqueness::Unique(grids[0]),
            _ => Uniqueness::Multiple(grids[0], grids[1]),
        })
    }

    /// The number of solutions, counting no further than `limit` when given.
    pub fn count(&mut self, puzzle: &Puzzle, limit: Option<u64>) -> Result<u64, SolveError> {
        let mut grids = [Puzzle::empty(); 2];
        self.run(puzzle, limit.unwrap_or(u64::MAX), &mut grids)
    }

    /// Every solution, lazily; an item is an error only when the search was cut short (as the
    /// engine's iterator does), so a collected `Result` is never part of the answer.
    pub fn solutions<'s>(
        &'s mut self,
        puzzle: &Puzzle,
    ) -> Result<impl Iterator<Item = Result<Puzzle, SolveError>> + use<'s, 'm>, SolveError> {
        self.solver.set_tie_break(TieBreak::Earliest);
        self.load(puzzle)?;
        let base = *puzzle;
        Ok(self.solver.solutions().map(move |options| {
            let mut grid = base;
            for option in options? {
                let (cell, digit) = Matrix::placement(option);
                grid.set(cell, digit);
            }
            Ok(grid)
        }))
    }
}

/// Resets `solver` (over `variant`'s matrix) and applies the puzzle: restrictions excluded, givens
/// forced. The engine refuses to force a given that shares an item with an earlier one (a digit
/// twice in a unit) or whose option was excluded (an odd digit in an even cell), exactly when the
/// givens break a rule; only then is the puzzle checked, to name the rule (checking every puzzle
/// first would cost every puzzle the check).
pub(crate) fn load(solver: &mut Solver<'_>, variant: Variant, puzzle: &Puzzle) -> Result<(), RuleError> {
    solver.reset();
    if puzzle.has_even_cells() {
        if !variant.has_even_cells() {
            return Err(puzzle.check(variant).expect_err("markers break the rules of this variant"));
        }
        for cell in (0..81).filter(|&cell| puzzle.is_even_cell(cell)) {
            for digit in [1, 3, 5, 7, 9] {
                solver.exclude(Matrix::option(cell, digit)).expect("options of the matrix");
            }
        }
    }
    for (cell, &digit) in puzzle.cells().iter().enumerate() {
        if digit != 0 && solver.force(Matrix::option(cell, digit)).is_err() {
            return Err(puzzle.check(variant).expect_err("a given the engine refuses breaks a rule"));
        }
    }
    debug_assert_eq!(puzzle.check(variant), Ok(()));
    Ok(())
}
