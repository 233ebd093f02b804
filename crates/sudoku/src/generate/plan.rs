//! What a run of generation makes of the rules it is given, as `dlx generate` and the Python
//! package's `generate()` both take it: the puzzles' rules, the 9x9 variant they are (whose
//! generator makes them), the rules made up for each puzzle, and the run; then each puzzle.

use dlx_engine::CancelFlag;

use super::{Extras, GenerateError, Generator, Numbered, generate_in_with_extras};
use crate::cover::Matrix;
use crate::model::{Constraint, Rules, RulesError, Size};
use crate::{Level, Run, Symmetry, Variant};

/// Rules that cannot be generated, and why.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlanError {
    /// The rules themselves do not hold together.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The even-cell variant's `e` marks asked for with other rules or another size.
    #[error(
        "even is the 9x9 variant of `e` marks, alone: with other rules or sizes, marks come from \
         odd-even (even and odd marks made up for each puzzle)"
    )]
    EvenAlone,
    /// The symmetry maps the rules onto others.
    #[error(transparent)]
    Symmetry(GenerateError),
    /// Killer cages made up at random have no symmetry.
    #[error("{0} symmetry does not fit killer cages made up at random: ask for symmetry none")]
    KillerSymmetry(Symmetry),
    /// A level that no puzzle of these rules has.
    #[error(
        "no 4x4 puzzle is {0}: singles solve every one that has one solution (all 565,820 were \
         checked); ask for easy, or for any level"
    )]
    Unreachable(Level),
}

/// A run of puzzles of one set of rules.
///
/// ```
/// use dlx_sudoku::{Extras, Matrix, Plan, Run, Size, Variant};
/// let extras = Extras::default();
/// let plan = Plan::new(Size::CLASSIC, Variant::Diagonal, &[], extras, None, Run::new(7))?;
/// let matrix = Matrix::new(&plan.rules);
/// let mut generator = plan.generator(&matrix, None);
/// let made = plan.make(&mut generator, 0, &mut |_, _| {}, None)?;
/// assert_eq!(made.generated.puzzle.rules().variant(), Some(Variant::Diagonal));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The rules of every puzzle (those made up for each aside).
    pub rules: Rules,
    /// The 9x9 variant the puzzles are, when they are one's: its generator makes them.
    pub variant: Option<Variant>,
    /// The rules made up for each puzzle.
    pub extras: Extras,
    /// The run, with the symmetry chosen.
    pub run: Run,
}

impl Plan {
    /// The plan for puzzles of `size` with the rules of `variant` and `constraints` added, and
    /// `extras` made up for each; `symmetry` (by default rotational, none with killer cages or
    /// where rotations do not fit the rules) replaces `run`'s.
    pub fn new(
        size: Size,
        variant: Variant,
        constraints: &[Constraint],
        extras: Extras,
        symmetry: Option<Symmetry>,
        run: Run,
    ) -> Result<Plan, PlanError> {
        let mut rules = Rules::new(size);
        for c in Rules::from(variant).constraints().chain(constraints.iter().copied()) {
            rules.add(c);
        }
        rules.validate()?;
        let named = if extras.any() { None } else { rules.variant_named(Some(variant)) };
        if variant == Variant::Even && named != Some(Variant::Even) {
            return Err(PlanError::EvenAlone);
        }
        // By default rotational where it fits the rules (a grid's boxes and windows), none where
        // it does not (windows on boxes that are not square) or with killer cages; a symmetry
        // asked for that does not fit is refused.
        let fits = |s| {
            if extras.any() {
                Generator::check_windows(&rules, s)
            } else {
                Generator::check_symmetry(&rules, s)
            }
            .is_ok()
        };
        let symmetry = symmetry.unwrap_or(if extras.killer || !fits(Symmetry::Rotational) {
            Symmetry::None
        } else {
            Symmetry::Rotational
        });
        if !extras.any() {
            Generator::check_symmetry(&rules, symmetry).map_err(PlanError::Symmetry)?;
        } else if extras.killer && symmetry != Symmetry::None {
            return Err(PlanError::KillerSymmetry(symmetry));
        } else {
            // Regions and marks made up for each puzzle fit the symmetry; windows are fixed.
            Generator::check_windows(&rules, symmetry).map_err(PlanError::Symmetry)?;
        }
        // Every 4x4 puzzle with one solution is easy: singles solve each of the 565,820 (all
        // checked, with the first row 1 2 3 4; the others rename its digits).
        if let Some(level) = run.level
            && level > Level::Easy
            && rules == Rules::new(size)
            && size.side() == 4
            && !extras.any()
        {
            return Err(PlanError::Unreachable(level));
        }
        Ok(Plan { rules, variant: named, extras, run: Run { symmetry, ..run } })
    }

    /// A generator of the run's puzzles over `matrix` (the matrix of [`Plan::rules`]), stopped
    /// by `cancel`.
    pub fn generator<'m>(&self, matrix: &'m Matrix, cancel: Option<CancelFlag>) -> Generator<'m> {
        let mut generator = match self.variant {
            Some(variant) => Generator::for_variant(matrix, variant).expect("the variant's matrix"),
            None => Generator::new(matrix),
        };
        generator.set_cancel_flag(cancel);
        generator
    }

    /// Puzzle `index` of the run, by `generator` (from [`Plan::generator`]) or, with rules made
    /// up for each puzzle, over their own matrices.
    pub fn make(
        &self,
        generator: &mut Generator<'_>,
        index: u64,
        progress: &mut dyn FnMut(usize, usize),
        cancel: Option<&CancelFlag>,
    ) -> Result<Numbered, GenerateError> {
        if self.extras.any() {
            generate_in_with_extras(&self.rules, self.extras, &self.run, index, progress, cancel)
        } else {
            generator.generate_in(&self.run, index, progress)
        }
    }
}

/// A puzzle's verdict with every technique, as `dlx rate` names it: its level and its hardest
/// technique (a run's own verdict on a puzzle takes only the techniques that decide the levels,
/// so that it names no technique beyond them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rated {
    /// The level.
    pub level: Level,
    /// The hardest technique used, by name (`guessing` when the techniques do not solve it).
    pub technique: &'static str,
}

impl Rated {
    /// The verdict on a puzzle, by the logical solver with every technique.
    pub fn of(puzzle: &crate::Puzzle) -> Rated {
        let logic = crate::solve_logically(puzzle);
        Rated { level: logic.level(), technique: logic.hardest_name() }
    }
}
