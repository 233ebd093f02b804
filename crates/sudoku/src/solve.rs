//! The exact-cover encoding and the reusable per-puzzle solver.

use std::ops::ControlFlow;

use dlx_engine::{Interrupted, OptionId, Problem, Solution, Solver, TieBreak};

use crate::engine::{Effort, write_dlx};
use crate::grid::{self, Rules};
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
/// It is the one encoder's ([`Matrix`]) for the variant's [`Rules`]: items, one per cell ("the
/// cell is filled"), then one per unit and digit ("the unit holds the digit"): 81 + 27 x 9 = 324
/// for the classic grid, 18 more for the diagonals, and secondary items for anti-king's moves.
/// Options: one per cell and digit, numbered `cell * 9 + digit - 1` (729 in all), which is what
/// lets [`Matrix::option`] and [`Matrix::placement`] work without a matrix. Even cells are
/// restrictions of each puzzle, not of the matrix: the even-cell variant shares the classic one.
#[derive(Debug, Clone)]
pub struct Matrix {
    variant: Variant,
    grid: grid::Matrix,
}

impl Matrix {
    /// Encodes a variant.
    pub fn new(variant: Variant) -> Matrix {
        let grid = grid::Matrix::new(&Rules::from(variant));
        debug_assert_eq!(grid.problem().option_count(), 729, "one option per cell and digit");
        Matrix { variant, grid }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The engine's problem.
    pub fn problem(&self) -> &Problem {
        self.grid.problem()
    }

    /// A solver over this matrix.
    pub fn solver(&self) -> SudokuSolver<'_> {
        SudokuSolver { variant: self.variant, solver: Solver::new(self.grid.problem()) }
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
        write_dlx(self.grid.problem(), &title, |option| {
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

    /// Makes the following searches stop when `flag` is set (they then fail with
    /// [`SolveError::Interrupted`]).
    pub fn set_cancel_flag(&mut self, flag: Option<dlx_engine::CancelFlag>) {
        self.solver.set_cancel_flag(flag);
    }

    /// Bounds each following search (nodes, updates): one that needs more fails with
    /// [`SolveError::Interrupted`], its reason [`StopReason::Budget`](dlx_engine::StopReason),
    /// never with a partial answer. [`Budget::default`](dlx_engine::Budget) bounds nothing.
    pub fn set_budget(&mut self, budget: dlx_engine::Budget) {
        self.solver.set_budget(budget);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbering that [`Matrix::option`] and [`Matrix::placement`] assume is the one
    /// encoder's, for every variant: each cell and digit's option, and back.
    #[test]
    fn the_9x9_numbering_is_the_encoders() {
        for variant in Variant::ALL {
            let matrix = Matrix::new(variant);
            assert_eq!(matrix.problem().option_count(), 729, "{variant}");
            for cell in 0..81 {
                for digit in 1..=9 {
                    let option = Matrix::option(cell, digit);
                    assert_eq!(matrix.grid.option(cell, digit), option, "{variant} {cell} {digit}");
                    assert_eq!(matrix.grid.placement(option), Some((cell, digit)), "{variant}");
                    assert_eq!(Matrix::placement(option), (cell, digit));
                }
            }
        }
    }
}
