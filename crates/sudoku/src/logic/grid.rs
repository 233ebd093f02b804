//! The logical solver's front end for puzzles of any size and rules ([`Puzzle`]s): the same solver
//! as the 9x9 one (see `board`), with every technique, on the grid's [`Shape`](crate::shape::Shape)
//! in the cell sets its size calls for. Its steps name units and digits as the grid writes them.

use super::board::{self, Move, Outcome, positions};
use crate::logic::scale::Technique;
use crate::model::variant::Unit;
use crate::model::{At, Puzzle};
use crate::shape::{AnyShape, with_shape};

/// What the logical solver made of a puzzle of any size: [`Logic`](crate::Logic) over a
/// [`Puzzle`], with the same verdicts. On 9x9 grids its level and rating are those of the 9x9 form:
/// the two run the same solver.
pub(crate) type GridLogic = crate::Logic<Puzzle>;

/// One step of the logical solution of a puzzle of any size: the technique, the unit and cells of
/// its pattern, its digits, and what it placed and removed. [`Step::describe`] writes it as a
/// line, `naked pair {3,7} in row 2 (r2c1 r2c5): removes {3,7} from r2c4`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique.
    pub technique: Technique,
    /// The unit the pattern lies in, for the techniques of one unit.
    pub unit: Option<Unit>,
    /// The cells of the pattern (for a hidden single, the cell it fills).
    pub pattern: Vec<usize>,
    /// The digits of the pattern, as bits (bit `d - 1` for digit `d`).
    pub digits: u32,
    /// The digits placed: `(cell, digit)`.
    pub placed: Vec<(usize, u8)>,
    /// The candidates removed: `(cell, digits as bits)`.
    pub removed: Vec<(usize, u32)>,
}

impl Step {
    /// The step as one line, with cells and digits as the puzzle writes them.
    pub fn describe(&self, grid: &Puzzle) -> String {
        let symbols = grid.symbols();
        let side = grid.size().side();
        let digits = |mask: u32| {
            let list: Vec<String> = positions(mask)
                .map(|d| symbols.symbol(u8::try_from(d + 1).unwrap_or(0)).to_string())
                .collect();
            if list.len() == 1 { list[0].clone() } else { format!("{{{}}}", list.join(",")) }
        };
        let at = |cell: usize| At { cell, side }.to_string();
        let cells: Vec<String> = self.pattern.iter().map(|&c| at(c)).collect();
        let mut line = match self.unit {
            Some(unit) => {
                format!("{} {} in {unit} ({}):", self.technique.name(), digits(self.digits), cells.join(" "))
            }
            None => format!("{} {} at {}:", self.technique.name(), digits(self.digits), cells.join(" ")),
        };
        let placed: Vec<String> =
            self.placed.iter().map(|&(c, d)| format!("{}={}", at(c), symbols.symbol(d))).collect();
        let removed: Vec<String> =
            self.removed.iter().map(|&(c, m)| format!("{} from {}", digits(m), at(c))).collect();
        if !placed.is_empty() {
            line.push_str(&format!(" places {}", placed.join(", ")));
        }
        if !removed.is_empty() {
            let then = if placed.is_empty() { "" } else { ";" };
            line.push_str(&format!("{then} removes {}", removed.join(", ")));
        }
        line
    }
}

/// The logical solution of a puzzle of any size, step by step (what `dlx rate --explain`
/// prints), with the verdict of [`solve_logically`]. A grid of a 9x9 variant's rules is
/// solved on the 9x9 path (the same solver, with the side known when compiling).
pub fn explain(grid: &Puzzle) -> (GridLogic, Vec<Step>) {
    if let Some((variant, nine)) = as_nine(grid)
        && let Ok((logic, steps)) = super::explain(&nine, variant)
    {
        let steps = steps
            .into_iter()
            .map(|s| Step {
                technique: s.technique,
                unit: s.unit,
                pattern: s.pattern,
                digits: u32::from(s.digits) >> 1,
                placed: s.placed,
                removed: s.removed.into_iter().map(|(c, m)| (c, u32::from(m) >> 1)).collect(),
            })
            .collect();
        return (from_nine(grid, &logic), steps);
    }
    explain_general(grid)
}

/// [`explain`] on the solver of any size, whatever the rules (a 9x9 variant's too).
fn explain_general(grid: &Puzzle) -> (GridLogic, Vec<Step>) {
    let shape = AnyShape::of(grid.rules());
    let mut moves = Vec::new();
    let outcome = with_shape!(&shape, s => board::solve::<_, 0>(s, grid.cells(), |_| false, &Technique::ALL, Some(&mut moves)));
    let units = grid.rules().units();
    let steps = moves.into_iter().map(|m| step_of(m, &units)).collect();
    (logic_of(grid, &outcome), steps)
}

/// Solves a puzzle of any size with every technique (easiest first), as far as they go (a grid
/// of a 9x9 variant's rules on the 9x9 path).
pub fn solve_logically(grid: &Puzzle) -> GridLogic {
    solve_logically_with(grid, &Technique::ALL)
}

/// [`solve_logically`] with only the given techniques (easiest first): what a puzzle needs is
/// told by the techniques without which it is not solved.
///
/// ```
/// use dlx_sudoku::{Puzzle, Technique, solve_logically_with};
/// let line = "..2..3.76...6.5..86.34....15.....9.7.......3..78...1.........6.2..59......6..82..";
/// let puzzle: Puzzle = line.parse().unwrap();
/// assert!(solve_logically_with(&puzzle, &[Technique::HiddenSingle]).solved);
/// assert!(!solve_logically_with(&puzzle, &[Technique::NakedSingle]).solved);
/// ```
pub fn solve_logically_with(grid: &Puzzle, techniques: &[Technique]) -> GridLogic {
    if let Some((variant, nine)) = as_nine(grid)
        && let Ok(logic) = super::solve_logically(&nine, variant, techniques)
    {
        return from_nine(grid, &logic);
    }
    solve_grid_with(&AnyShape::of(grid.rules()), grid, techniques)
}

/// The rater's side of the one solver: the rating of a puzzle of any size is its logical
/// verdict and its search's effort (the solver below the rater gives the effort, the rater the
/// verdict, so the method lives here).
impl crate::SudokuSolver<'_> {
    /// Rates a puzzle: the logical solver's verdict with every technique ([`solve_logically`])
    /// and the effort of the uniqueness search ([`rating_effort`]), as `dlx rate` prints them.
    ///
    /// [`rating_effort`]: crate::SudokuSolver::rating_effort
    pub fn rate(&mut self, grid: &Puzzle) -> Result<crate::Rating, crate::SolveError> {
        let (nodes, guesses, solutions) = self.rating_effort(grid)?;
        let logic = solve_logically(grid);
        Ok(crate::Rating { logic, nodes, guesses, orders: self.effort_orders(), solutions })
    }
}

/// The 9x9 form of a grid of a variant's rules, and the variant.
fn as_nine(grid: &Puzzle) -> Option<(crate::Variant, crate::shape::nine::Puzzle)> {
    Some((grid.rules().variant()?, grid.to_nine()?))
}

/// The 9x9 path's verdict on a grid.
fn from_nine(grid: &Puzzle, logic: &crate::Logic<crate::shape::nine::Puzzle>) -> GridLogic {
    let mut out = grid.clone();
    for (c, &v) in logic.grid.cells().iter().enumerate() {
        out.set(c, v);
    }
    GridLogic { grid: out, solved: logic.solved, counts: logic.counts }
}

/// [`solve_logically`] with the given techniques, on the grid's shape made once.
pub(crate) fn solve_grid_with(shape: &AnyShape, grid: &Puzzle, techniques: &[Technique]) -> GridLogic {
    let outcome = with_shape!(shape, s => board::solve::<_, 0>(s, grid.cells(), |_| false, techniques, None));
    logic_of(grid, &outcome)
}

/// The candidates left once the techniques that decide the levels have gone as far as they go:
/// each cell's digits as a mask (bit `d - 1`), one bit for a cell filled; `None` when the givens
/// contradict each other. Every solution keeps to them.
pub(crate) fn candidates(shape: &AnyShape, grid: &Puzzle) -> Option<Vec<u32>> {
    with_shape!(shape, s => {
        let outcome = board::solve::<_, 0>(s, grid.cells(), |_| false, &Technique::LEVELLED, None);
        if outcome.is_stuck(s) {
            return None;
        }
        Some(outcome.value.iter().zip(&outcome.cand).map(|(&v, &c)| if v == 0 { c >> 1 } else { 1 << (v - 1) }).collect())
    })
}

/// The verdict on `grid` from what the solver made of it.
fn logic_of(grid: &Puzzle, outcome: &Outcome) -> GridLogic {
    let mut out = grid.clone();
    for (c, &v) in outcome.value.iter().enumerate() {
        out.set(c, v);
    }
    GridLogic { grid: out, solved: outcome.solved, counts: outcome.counts }
}

/// A step as the grid names it: units by name, digits from bit 0.
fn step_of(m: Move, units: &[(Unit, Vec<usize>)]) -> Step {
    Step {
        technique: m.technique.expect("a technique"),
        unit: m.unit.map(|u| units[u].0),
        pattern: m.pattern,
        digits: m.digits >> 1,
        placed: m.placed,
        removed: m.removed.into_iter().map(|(c, r)| (c, r >> 1)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Generator, Matrix, Rules, Symmetry, Variant};

    /// A 9x9 variant's puzzle gets the same verdict and the same steps on the 9x9 path (what
    /// [`explain`] takes for it) as on the solver of any size. Every technique counts, the wings,
    /// rectangles and chains included.
    #[test]
    fn the_9x9_path_explains_as_the_general_one() {
        let mut beyond = std::collections::BTreeSet::new();
        for variant in Variant::ALL {
            let matrix = Matrix::new(&Rules::from(variant));
            let mut generator = Generator::for_variant(&matrix, variant).expect("the variant's matrix");
            for seed in 0..12 {
                let grid =
                    generator.generate(Symmetry::Rotational, seed, &mut |_, _| {}).expect("a puzzle").puzzle;
                assert!(as_nine(&grid).is_some(), "{variant}: on the 9x9 path");
                let (nine, nine_steps) = explain(&grid);
                let (any, any_steps) = explain_general(&grid);
                let line = grid.to_text();
                assert_eq!(any, nine, "{variant} {line}");
                assert_eq!(
                    (any.level(), any.rating(), any.hardest_name()),
                    (nine.level(), nine.rating(), nine.hardest_name())
                );
                assert_eq!(any_steps, nine_steps, "{variant} {line}");
                assert_eq!(
                    solve_logically(&grid),
                    solve_grid_with(&AnyShape::of(grid.rules()), &grid, &Technique::ALL)
                );
                beyond.extend(nine.hardest().filter(|t| !Technique::LEVELLED.contains(t)));
            }
        }
        // The comparison reaches beyond the techniques of the levels.
        assert!(!beyond.is_empty());
    }
}
