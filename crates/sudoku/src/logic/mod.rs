//! Rating: one logical solver for every size and rule set that applies the techniques in order
//! of difficulty (`board` holds the candidate grid and the techniques of one unit or digit,
//! `advanced` the wings, rectangles, coloring and chains; both compiled per kind of cell set,
//! with the 9x9 side known when compiling), a numeric rating on the scale of `scale`, the
//! solution explained step by step, and the search effort. This module is its front end for the
//! 9x9 form ([`Puzzle`], inside the crate); `grid` is its front end for [`Puzzle`](crate::Puzzle)s,
//! which hands a 9x9 variant's puzzle to this one.

use std::fmt;

mod advanced;
mod board;
pub(crate) mod grid;
pub(crate) mod scale;

use crate::logic::scale::{BEYOND, Level, Technique, hardest_name_of, hardest_of, level_of, rating_of};
use crate::model::At;
use crate::model::variant::{Unit, Variant};
use crate::shape::Shape;
use crate::shape::nine::{Puzzle, RuleError};

/// What the logical solver made of a [`Puzzle`](crate::Puzzle). (The parameter is the grid's type:
/// the 9x9 fast path inside the crate keeps its own form; a user meets the default alone.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Logic<G = crate::model::Puzzle> {
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
pub(crate) struct Step {
    /// The technique.
    pub(crate) technique: Technique,
    /// The cells of its pattern (for a hidden single, the unit; for a forcing chain, the cell
    /// whose candidates were followed).
    pub(crate) pattern: Vec<usize>,
    /// The digits of the pattern, as bits (bit `d` for digit `d`).
    pub(crate) digits: u16,
    /// The unit the pattern lies in, for the techniques of one unit (singles, locked
    /// candidates: the unit whose places lie in another, subsets).
    pub(crate) unit: Option<Unit>,
    /// The digits placed: `(cell, digit)`.
    pub(crate) placed: Vec<(usize, u8)>,
    /// The candidates removed: `(cell, digits as bits)`.
    pub(crate) removed: Vec<(usize, u16)>,
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
pub(crate) fn explain(puzzle: &Puzzle, variant: Variant) -> Result<(Logic<Puzzle>, Vec<Step>), RuleError> {
    let mut steps = Vec::new();
    let logic = solve_with(variant, puzzle, &Technique::ALL, Some(&mut steps))?;
    Ok((logic, steps))
}

/// A rating of a puzzle ([`SudokuSolver::rate`](crate::SudokuSolver::rate)): the logical verdict
/// and the search effort.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// The logical solver's result.
    pub logic: Logic,
    /// Nodes and guesses of the uniqueness search (count up to 2), averaged over seeded random
    /// branching orders: a machine-independent measure of search effort.
    pub nodes: f64,
    /// See `nodes`.
    pub guesses: f64,
    /// How many seeded branching orders `nodes` and `guesses` are averaged over: 8 on grids of
    /// up to 81 cells, 1 above (a search that breaks ties by the last conflict: random orders
    /// cost many times as much on larger grids; see
    /// [`rating_effort`](crate::SudokuSolver::rating_effort)).
    pub orders: u64,
    /// The number of solutions, counting no further than 2.
    pub solutions: u64,
}

/// Applies the given techniques, easiest first, until the grid is solved or none applies.
/// Every placement and elimination is sound: each follows from the rules and the givens.
pub(crate) fn solve_logically(
    puzzle: &Puzzle,
    variant: Variant,
    techniques: &[Technique],
) -> Result<Logic<Puzzle>, RuleError> {
    solve_with(variant, puzzle, techniques, None)
}
