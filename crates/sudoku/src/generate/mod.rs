//! Generation: minimal puzzles with a unique solution for any [`Rules`], reproducibly from a
//! [`Run`]'s seed. A random full grid (`fill`), then its clue groups (orbits of the symmetry)
//! taken away in a random order while the solution stays unique (`thin`); for rules made up for
//! each puzzle, jigsaw regions, killer cages and even and odd marks (`extras`).
//!
//! The 9x9 variants' rules go to the 9x9 generator (`nine`), which makes the same kind of
//! puzzles with fixed tables. Both thin out with the same machinery: the pieces of a puzzle
//! tested on the solver's undo stack (`pieces`), the swaps of a full grid that refuse a removal
//! without a search (`unavoidable`), and, on 9x9, the singles that prove one (`singles`). Full
//! grids the random fills find late or never come from grids with a symmetry of their own
//! (`orbits`) or from the few stored (`stored`). `plan` is what a run makes of the rules it is
//! given, for the front ends.

mod extras;
mod fill;
mod nine;
mod orbits;
mod pieces;
mod plan;
mod run;
mod singles;
mod stored;
mod symmetry;
#[cfg(test)]
mod tests;
mod thin;
mod unavoidable;

use std::sync::Arc;

use dlx_engine::{CancelFlag, Count, Interrupted, StopReason};

pub use extras::{Extras, generate_in_with_extras, generate_with_extras};
use pieces::{Pieces, Stack, solution_without, thin_out};
pub use plan::{Plan, PlanError, Rated};
pub(crate) use run::mix;
pub use run::{NotFound, Run};
pub use symmetry::Symmetry;
use unavoidable::{digit_swaps, line_swaps};

use crate::Variant;
use crate::cover::{Matrix, SolveError, SudokuSolver};
use crate::logic::grid::GridLogic;
use crate::model::{Constraint, Parity, Puzzle, Rules};
use crate::shape::AnyShape;
use fill::FILL_TOTAL;
use nine::Generator as NineGenerator;
use thin::attempts;

/// Why no puzzle was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The symmetry would map the rules' regions, windows, parities or cages onto others.
    #[error("{symmetry} symmetry does not fit a {rules} grid: it maps its {what} onto others")]
    Symmetry {
        /// The symmetry asked for.
        symmetry: Symmetry,
        /// The rules, described.
        rules: String,
        /// What it does not keep: `boxes`, `regions`, `windows`, `even and odd cells`, `cages`.
        what: &'static str,
    },
    /// No grid obeys the rules.
    #[error("no grid obeys the rules of this {0} puzzle")]
    NoGrid(String),
    /// No full grid was found within the searches' budgets (none may exist).
    #[error("no grid of the rules {0} found in searches of {FILL_TOTAL} nodes in all")]
    GridBudget(String),
    /// A puzzle of a run that could not be made within its attempts.
    #[error("puzzle {} (seed {seed}): {reason} ({attempts} attempt{})", index + 1, if *attempts == 1 { "" } else { "s" })]
    Failed {
        /// The puzzle's index in the run.
        index: u64,
        /// The seed of its last attempt.
        seed: u64,
        /// The attempts made.
        attempts: u64,
        /// Why the last attempt failed.
        reason: Box<GenerateError>,
    },
    /// The search was cut short.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// No puzzle of the run's level came out within its attempts.
    #[error(transparent)]
    NotFound(#[from] NotFound),
}

/// A puzzle and its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle, with a unique solution: minimal, unless a run that [eases](Run::ease) gave it
    /// givens back.
    pub puzzle: Puzzle,
    /// Its solution.
    pub solution: Puzzle,
}

/// Puzzle `index` of a [`Run`], of any size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbered {
    /// Its index in the run.
    pub index: u64,
    /// The seed it was generated from ([`Run::seed_of`]).
    pub seed: u64,
    /// How many puzzles were generated to reach it (1 without a level).
    pub attempts: u64,
    /// The puzzle and its solution.
    pub generated: Generated,
    /// The logical solver's verdict, when the run has a level (which it then matches) or eases.
    pub logic: Option<GridLogic>,
    /// The clue groups given back to the minimal puzzle by a run that [eases](Run::ease): 0 when
    /// the puzzle is minimal.
    pub added: usize,
}

/// Makes puzzles of one set of rules, reproducibly from a seed.
///
/// Each clue group is tried once, in a random order: it is taken away when the puzzle left
/// still has one solution (counted up to two with the other clues forced), and kept otherwise.
/// A group kept was needed when it was tried, and taking others away later only makes it more
/// needed, so the puzzle is minimal: no clue group can go.
#[derive(Debug)]
pub struct Generator<'m> {
    solver: SudokuSolver<'m>,
    /// The matrix's rules, shared by the empty grids the fills start from.
    rules: Arc<Rules>,
    /// The clue groups the solver has forced, and those the thinning wants.
    stack: Stack,
    /// The rules of the last puzzle as the logical solver and the swaps read them, kept for the
    /// next puzzles of the same rules.
    shape: Option<(Arc<Rules>, AnyShape)>,
    /// The last symmetry found to fit the rules.
    fits: Option<Symmetry>,
    /// For a 9x9 variant's rules, its generator: the same puzzles as `dlx generate --rules`
    /// makes, with the 9x9 machinery (band swaps, singles proofs, 128-bit cell sets).
    nine: Option<NineGenerator<'m>>,
    /// The clue groups of the last symmetry asked for, counted.
    groups: Option<(Symmetry, usize)>,
    /// The flag that stops the searches, which the 9x9 generator's attempts are checked against
    /// (each of its puzzles takes milliseconds: it is asked between them).
    cancel: Option<CancelFlag>,
}

impl<'m> Generator<'m> {
    /// A generator over a matrix. For the rules of a 9x9 [`Variant`] (classic, diagonal,
    /// windoku, anti-king), it makes that variant's puzzles, exactly as the 9x9 [`Generator`]
    /// does.
    pub fn new(matrix: &'m Matrix) -> Generator<'m> {
        let mut generator = Generator::general(matrix);
        generator.nine =
            matrix.rules().variant().map(|variant| NineGenerator::over(matrix.problem(), variant));
        generator
    }

    /// A generator over a matrix on the general machinery alone, whatever its rules (the rules
    /// made up for each puzzle, `generate_with_extras`, start from its grids).
    fn general(matrix: &'m Matrix) -> Generator<'m> {
        Generator {
            solver: matrix.solver(),
            rules: Arc::new(matrix.rules().clone()),
            stack: Stack::default(),
            shape: None,
            fits: None,
            nine: None,
            groups: None,
            cancel: None,
        }
    }

    /// A generator of a 9x9 variant's puzzles over its matrix (the one of `Rules::from(variant)`);
    /// for [`Variant::Even`], over the classic matrix, its puzzles with even markers. `None` when
    /// the matrix is not the variant's.
    pub fn for_variant(matrix: &'m Matrix, variant: Variant) -> Option<Generator<'m>> {
        if !matrix.fits(&Rules::from(variant)) || matrix.rules().has_parity() {
            return None;
        }
        let mut generator = Generator::new(matrix);
        generator.nine = Some(NineGenerator::over(matrix.problem(), variant));
        Some(generator)
    }

    /// The number of clue groups of the symmetry on the rules' grid, kept for the next puzzles.
    fn groups(&mut self, symmetry: Symmetry) -> usize {
        match self.groups {
            Some((of, groups)) if of == symmetry => groups,
            _ => {
                let groups = symmetry.orbits_in(self.rules.size().side()).len();
                self.groups = Some((symmetry, groups));
                groups
            }
        }
    }

    /// A 9x9 variant's puzzle as a grid of its rules (with its even markers as marks).
    fn as_grids(&self, generated: &nine::Generated) -> Generated {
        Generated {
            puzzle: Puzzle::from_nine(&generated.puzzle, &self.rules),
            solution: Puzzle::from_nine(&generated.solution, &self.rules),
        }
    }

    /// Makes the following searches stop when `flag` is set (a run then fails with
    /// [`GenerateError::Solve`] holding the interruption).
    pub fn set_cancel_flag(&mut self, flag: Option<CancelFlag>) {
        self.cancel.clone_from(&flag);
        self.solver.engine().set_cancel_flag(flag);
    }

    /// Checks that the symmetry maps the rules' windows (if any) onto themselves: what no choice
    /// of regions or cages made up for a puzzle can mend.
    pub fn check_windows(rules: &Rules, symmetry: Symmetry) -> Result<(), GenerateError> {
        if !rules.has(Constraint::Windows) {
            return Ok(());
        }
        let size = rules.size();
        let mut window = vec![usize::MAX; size.cells()];
        for (k, (_, unit_cells)) in rules.units().iter().skip(3 * size.side()).enumerate() {
            for &c in unit_cells {
                window[c] = k;
            }
        }
        if symmetry.keeps(&window) {
            Ok(())
        } else {
            Err(GenerateError::Symmetry { symmetry, rules: rules.describe(), what: "windows" })
        }
    }

    /// Checks that the symmetry maps the rules onto themselves.
    pub fn check_symmetry(rules: &Rules, symmetry: Symmetry) -> Result<(), GenerateError> {
        let size = rules.size();
        let cells = size.cells();
        let fail = |what| Err(GenerateError::Symmetry { symmetry, rules: rules.describe(), what });
        if !symmetry.keeps(rules.regions()) {
            return fail(if rules.is_jigsaw() { "regions" } else { "boxes" });
        }
        Self::check_windows(rules, symmetry)?;
        let parity: Vec<Parity> = (0..cells).map(|c| rules.parity(c)).collect();
        if !symmetry.fixes(&parity) {
            return fail("even and odd cells");
        }
        let mut cage = vec![usize::MAX; cells];
        let mut sum = vec![0; cells];
        for (k, c) in rules.cages().iter().enumerate() {
            for &cell in &c.cells {
                cage[cell] = k;
                sum[cell] = c.sum;
            }
        }
        if !symmetry.keeps(&cage) || !symmetry.fixes(&sum) {
            return fail("cages");
        }
        Ok(())
    }

    /// Puzzle `index` of a run, exactly as `dlx generate` makes it: from the seed
    /// [`Run::seed_of`] gives, again with the next attempt's seed until its level is the
    /// run's (when it has one). `progress` is told each attempt's clue groups tried so far and
    /// their number (a 9x9 variant's generator tells them once, all tried, per puzzle).
    pub fn generate_in(
        &mut self,
        run: &Run,
        index: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Numbered, GenerateError> {
        if let Some(nine) = &mut self.nine
            && !run.ease
        {
            let cancel = self.cancel.clone();
            let stop = || cancel.as_ref().is_some_and(CancelFlag::is_cancelled);
            let Some(numbered) = nine.generate_in_unless(run, index, stop) else {
                let stopped = Interrupted { reason: StopReason::Cancelled, solutions: Count::ZERO };
                return Err(GenerateError::Solve(SolveError::Interrupted(stopped)));
            };
            let numbered = numbered?;
            let generated = self.as_grids(&numbered.generated);
            let logic = numbered.logic.map(|logic| GridLogic {
                grid: Puzzle::from_nine(&logic.grid, &self.rules),
                solved: logic.solved,
                counts: logic.counts,
            });
            let groups = self.groups(run.symmetry);
            progress(groups, groups);
            let (index, seed, attempts) = (numbered.index, numbered.seed, numbered.attempts);
            return Ok(Numbered { index, seed, attempts, generated, logic, added: 0 });
        }
        let cancel = self.cancel.clone();
        attempts(run, index, |seed| {
            // (A 9x9 variant's attempt runs no search the flag stops: it is checked here.)
            if cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
                let stopped = Interrupted { reason: StopReason::Cancelled, solutions: Count::ZERO };
                return Err(GenerateError::Solve(SolveError::Interrupted(stopped)));
            }
            self.generate(run.symmetry, seed, progress)
        })
    }

    /// A minimal puzzle with a unique solution and the symmetry, reproducibly from the seed.
    /// `progress` is told the clue groups tried so far and their number (after each, or once for
    /// a 9x9 variant's puzzle).
    pub fn generate(
        &mut self,
        symmetry: Symmetry,
        seed: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Generated, GenerateError> {
        if let Some(nine) = &mut self.nine {
            let generated = nine.generate(symmetry, seed);
            let groups = self.groups(symmetry);
            progress(groups, groups);
            return Ok(self.as_grids(&generated));
        }
        let rules = self.solver.matrix().rules();
        if self.fits != Some(symmetry) {
            Generator::check_symmetry(rules, symmetry)?;
            self.fits = Some(symmetry);
        }
        let full = self.full_grid(seed)?;
        self.thin_out(full, symmetry, seed, progress)
    }
}
