//! Rating: one logical solver for every size and rule set that applies the techniques in order
//! of difficulty (`board` holds the candidate grid and the techniques of one unit or digit,
//! `advanced` the wings, rectangles, coloring and chains; both compiled per kind of cell set,
//! with the 9x9 side known when compiling), a numeric rating on the scale of `scale`, the
//! solution explained step by step, and the search effort. This module is its front end for 9x9
//! [`Puzzle`]s of a [`Variant`]; `grid` is its front end for [`Puzzle`](crate::Puzzle)s.

use std::fmt;

use dlx_engine::Solver;

mod advanced;
mod board;
pub(crate) mod grid;

use crate::engine::{EFFORT_SEEDS, Effort};
use crate::grid::At;
use crate::puzzle::{Puzzle, RuleError};
use crate::scale::{BEYOND, Level, Technique, hardest_name_of, hardest_of, level_of, rating_of};
use crate::shape::Shape;
use crate::solve::{Matrix, load};
use crate::variant::{Unit, Variant};

/// What the logical solver made of a puzzle: a [`Puzzle`](crate::Puzzle) of any size (the default),
/// or the 9x9 fast path's [`Puzzle`](crate::puzzle::Puzzle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Logic<G = crate::grid::Puzzle> {
    /// The grid as far as logic took it (full when solved).
    pub grid: G,
    /// Whether the techniques solved it.
    pub solved: bool,
    /// How often each technique was applied, in the order of [`Technique::ALL`].
    pub counts: [u32; Technique::COUNT],
}

impl<G> Logic<G> {
    /// The hardest technique applied, if any.
    pub fn hardest(&self) -> Option<Technique> {
        hardest_of(&self.counts)
    }

    /// The name of the hardest technique needed: `guessing` when the techniques did not solve the
    /// puzzle, `none` when it was already full.
    pub fn hardest_name(&self) -> &'static str {
        hardest_name_of(self.solved, &self.counts)
    }

    /// The level: expert when unsolved, else the level of the hardest technique. The same ladder
    /// for every size: easy with singles, medium with locked candidates, hard with subsets and
    /// fish, expert beyond.
    pub fn level(&self) -> Level {
        level_of(self.solved, &self.counts)
    }

    /// The rating on Sudoku Explainer's scale: the [`difficulty`](Technique::difficulty) of the
    /// hardest technique applied, [`Logic::BEYOND`] when the techniques did not solve the
    /// puzzle, 1.0 for a full grid.
    pub fn rating(&self) -> f32 {
        rating_of(self.solved, &self.counts)
    }
}

impl Logic {
    /// The rating of a puzzle the techniques do not solve: guessing needed (on Sudoku
    /// Explainer's scale the hardest puzzles known rate about 10 to 12).
    pub const BEYOND: f32 = BEYOND;
}

/// One step of a logical solution: the technique, the cells and digits of its pattern, and
/// what it placed and removed. Its `Display` is one line: `naked pair {3,7} in row 2 (r2c1
/// r2c5): removes {3,7} from r2c4`, `x-wing 7 at r1c2 r1c8 r5c2 r5c8: removes 7 from r3c2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The cells of its pattern (for a hidden single, the unit; for a forcing chain, the cell
    /// whose candidates were followed).
    pub pattern: Vec<usize>,
    /// The digits of the pattern, as bits (bit `d` for digit `d`).
    pub digits: u16,
    /// The unit the pattern lies in, for the techniques of one unit (singles, locked
    /// candidates: the unit whose places lie in another, subsets).
    pub unit: Option<Unit>,
    /// The digits placed: `(cell, digit)`.
    pub placed: Vec<(usize, u8)>,
    /// The candidates removed: `(cell, digits as bits)`.
    pub removed: Vec<(usize, u16)>,
}

impl Default for Step {
    fn default() -> Step {
        Step {
            technique: Technique::HiddenSingle,
            pattern: Vec::new(),
            digits: 0,
            unit: None,
            placed: Vec::new(),
            removed: Vec::new(),
        }
    }
}

/// The digits of a mask, as `3` or `{3,7}`.
fn digits_text(mask: u16) -> String {
    let digits: Vec<String> = (1..=9).filter(|d| mask & (1 << d) != 0).map(|d| d.to_string()).collect();
    if digits.len() == 1 { digits[0].clone() } else { format!("{{{}}}", digits.join(",")) }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells: Vec<String> = self.pattern.iter().map(|&c| At::nine(c).to_string()).collect();
        let (technique, digits, cells) = (self.technique, digits_text(self.digits), cells.join(" "));
        match self.unit {
            Some(unit) => write!(f, "{technique} {digits} in {unit} ({cells}):")?,
            None => write!(f, "{technique} {digits} at {cells}:")?,
        }
        let placed: Vec<String> = self.placed.iter().map(|&(c, d)| format!("{}={d}", At::nine(c))).collect();
        let removed: Vec<String> =
            self.removed.iter().map(|&(c, m)| format!("{} from {}", digits_text(m), At::nine(c))).collect();
        if !placed.is_empty() {
            write!(f, " places {}", placed.join(", "))?;
        }
        if !removed.is_empty() {
            write!(f, "{} removes {}", if placed.is_empty() { "" } else { ";" }, removed.join(", "))?;
        }
        Ok(())
    }
}

/// Applies `techniques`, easiest first, to `puzzle` until it is solved or none applies; with
/// `steps`, records each step there.
fn solve_with(
    variant: Variant,
    puzzle: &Puzzle,
    techniques: &[Technique],
    steps: Option<&mut Vec<Step>>,
) -> Result<Logic<Puzzle>, RuleError> {
    puzzle.check(variant)?;
    let shape = Shape::of_variant(variant);
    let mut moves = steps.is_some().then(Vec::new);
    let outcome =
        board::solve::<_, 9>(shape, puzzle.cells(), |c| puzzle.is_even_cell(c), techniques, moves.as_mut());
    let mut grid = Puzzle::empty();
    for (cell, &digit) in outcome.value.iter().enumerate() {
        grid.set(cell, digit);
        grid.set_even_cell(cell, puzzle.is_even_cell(cell));
    }
    if let (Some(steps), Some(moves)) = (steps, moves) {
        let units = variant.units();
        let mask = |m: u32| u16::try_from(m).expect("9 digits");
        steps.extend(moves.into_iter().map(|m| Step {
            technique: m.technique.expect("a technique"),
            pattern: m.pattern,
            digits: mask(m.digits),
            unit: m.unit.map(|u| units[u]),
            placed: m.placed,
            removed: m.removed.into_iter().map(|(c, r)| (c, mask(r))).collect(),
        }));
    }
    Ok(Logic { grid, solved: outcome.solved, counts: outcome.counts })
}

/// The logical solution of a puzzle step by step, with every technique: what
/// [`solve_logically`] does, each step recorded.
pub fn explain(puzzle: &Puzzle, variant: Variant) -> Result<(Logic<Puzzle>, Vec<Step>), RuleError> {
    let mut steps = Vec::new();
    let logic = solve_with(variant, puzzle, &Technique::ALL, Some(&mut steps))?;
    Ok((logic, steps))
}

/// A rating: the logical verdict and the search effort, of a puzzle of any size
/// ([`SudokuSolver::rate`](crate::SudokuSolver::rate)), or of the 9x9 fast path's
/// [`Puzzle`](crate::puzzle::Puzzle) ([`Rater`](crate::rate::Rater)).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating<G = crate::grid::Puzzle> {
    /// The logical solver's result.
    pub logic: Logic<G>,
    /// Nodes and guesses of the uniqueness search (count up to 2), averaged over seeded random
    /// branching orders: a machine-independent measure of search effort.
    pub nodes: f64,
    /// See `nodes`.
    pub guesses: f64,
    /// How many seeded branching orders `nodes` and `guesses` are averaged over: 8 on grids of
    /// up to 81 cells, 1 above (a search that breaks ties by the last conflict: random orders
    /// cost 20 times as much on 16x16 puzzles, and minutes on 25x25 ones).
    pub orders: u64,
    /// The number of solutions, counting no further than 2.
    pub solutions: u64,
}

/// Rates a puzzle: the logical solver, then the search effort. `matrix` must be the puzzle's
/// variant's. For many puzzles, a [`Rater`] reuses its tables and its solver.
pub fn rate(matrix: &Matrix, puzzle: &Puzzle) -> Result<Rating<Puzzle>, RuleError> {
    Rater::new(matrix).rate(puzzle)
}

/// Applies the given techniques, easiest first, until the grid is solved or none applies.
/// Every placement and elimination is sound: each follows from the rules and the givens.
pub fn solve_logically(
    puzzle: &Puzzle,
    variant: Variant,
    techniques: &[Technique],
) -> Result<Logic<Puzzle>, RuleError> {
    solve_with(variant, puzzle, techniques, None)
}

/// Rates puzzles of one variant, reusing its tables and one engine solver: nothing is built per
/// puzzle.
#[derive(Debug)]
pub struct Rater<'m> {
    variant: Variant,
    solver: Solver<'m>,
}

impl<'m> Rater<'m> {
    /// A rater for the matrix's variant.
    pub fn new(matrix: &'m Matrix) -> Self {
        Rater { variant: matrix.variant(), solver: Solver::new(matrix.problem()) }
    }

    /// The logical solver alone, with the given techniques.
    pub fn logic(&self, puzzle: &Puzzle, techniques: &[Technique]) -> Result<Logic<Puzzle>, RuleError> {
        solve_with(self.variant, puzzle, techniques, None)
    }

    /// The logical verdict with every technique, and the search effort.
    pub fn rate(&mut self, puzzle: &Puzzle) -> Result<Rating<Puzzle>, RuleError> {
        let logic = solve_with(self.variant, puzzle, &Technique::ALL, None)?;
        let mut total = Effort::default();
        let mut solutions = 0;
        // Loaded once: every run starts from the givens again.
        load(&mut self.solver, self.variant, puzzle)?;
        for seed in 0..EFFORT_SEEDS {
            self.solver.set_seed(Some(seed));
            solutions = self.solver.count_up_to(2).expect("no budget is set");
            let effort = Effort::from(self.solver.stats());
            total.nodes += effort.nodes;
            total.guesses += effort.guesses;
        }
        self.solver.reset();
        let n = EFFORT_SEEDS as f64;
        Ok(Rating {
            logic,
            nodes: total.nodes as f64 / n,
            guesses: total.guesses as f64 / n,
            orders: EFFORT_SEEDS,
            solutions,
        })
    }
}
