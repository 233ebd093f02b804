//! Minimal puzzles with a unique solution for any [`Rules`]: a random full grid, then its clue
//! groups (orbits of the symmetry) taken away in a random order while the solution stays
//! unique.

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::encode::{GridMatrix, GridSolveError, GridSolver};
use super::logic::{GridLogic, solve_grid_logically};
use super::puzzle::Grid;
use super::rules::{Constraint, Parity, Rules};
use crate::{NotFound, Run, Symmetry};

/// Why no puzzle was made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GridGenerateError {
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
    /// The search was cut short.
    #[error(transparent)]
    Solve(#[from] GridSolveError),
    /// No puzzle of the run's level came out within its attempts.
    #[error(transparent)]
    NotFound(#[from] NotFound),
}

/// A puzzle and its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridGenerated {
    /// The puzzle: minimal, with a unique solution.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
}

/// Puzzle `index` of a [`Run`], of any size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridNumbered {
    /// Its index in the run.
    pub index: u64,
    /// The seed it was generated from ([`Run::seed_of`]).
    pub seed: u64,
    /// How many puzzles were generated to reach it (1 without a level).
    pub attempts: u64,
    /// The puzzle and its solution.
    pub generated: GridGenerated,
    /// The logical solver's verdict, when the run has a level (which it then matches).
    pub logic: Option<GridLogic>,
}

/// Makes puzzles of one set of rules, reproducibly from a seed.
///
/// Each clue group is tried once, in a random order: it is taken away when the puzzle left
/// still has one solution (counted up to two with the other clues forced), and kept otherwise.
/// A group kept was needed when it was tried, and taking others away later only makes it more
/// needed, so the puzzle is minimal: no clue group can go.
#[derive(Debug)]
pub struct GridGenerator<'m> {
    solver: GridSolver<'m>,
}

impl<'m> GridGenerator<'m> {
    /// A generator over a matrix.
    pub fn new(matrix: &'m GridMatrix) -> GridGenerator<'m> {
        GridGenerator { solver: matrix.solver() }
    }

    /// A random full grid of the rules, reproducibly from the seed.
    pub fn full_grid(&mut self, seed: u64) -> Result<Grid, GridGenerateError> {
        let rules = self.solver.matrix().rules().clone();
        let empty = Grid::new(rules);
        let engine = self.solver.engine();
        engine.set_seed(Some(seed));
        engine.set_random_ties(false);
        let full = self.solver.first(&empty);
        self.solver.engine().set_seed(None);
        full?.ok_or_else(|| GridGenerateError::NoGrid(empty.rules().describe()))
    }

    /// Checks that the symmetry maps the rules onto themselves.
    pub fn check_symmetry(rules: &Rules, symmetry: Symmetry) -> Result<(), GridGenerateError> {
        let size = rules.size();
        let cells = size.cells();
        let fail = |what| Err(GridGenerateError::Symmetry { symmetry, rules: rules.describe(), what });
        if !symmetry.keeps(rules.regions()) {
            return fail(if rules.is_jigsaw() { "regions" } else { "boxes" });
        }
        if rules.has(Constraint::Windows) {
            let mut window = vec![usize::MAX; cells];
            for (k, (_, unit_cells)) in rules.units().iter().skip(3 * size.side()).enumerate() {
                for &c in unit_cells {
                    window[c] = k;
                }
            }
            if !symmetry.keeps(&window) {
                return fail("windows");
            }
        }
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

    /// Puzzle `index` of a run, exactly as `dlx generate --size` makes it: from the seed
    /// [`Run::seed_of`] gives, again with the next attempt's seed until its level is the
    /// run's (when it has one). `progress` is told each attempt's clue groups tried and their
    /// number.
    pub fn generate_in(
        &mut self,
        run: &Run,
        index: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<GridNumbered, GridGenerateError> {
        let attempts = if run.level.is_some() { run.max_attempts.max(1) } else { 1 };
        for attempt in 0..attempts {
            let seed = run.seed_of(index, attempt);
            let generated = self.generate(run.symmetry, seed, progress)?;
            let Some(level) = run.level else {
                return Ok(GridNumbered { index, seed, attempts: 1, generated, logic: None });
            };
            let logic = solve_grid_logically(&generated.puzzle);
            if logic.level() == level {
                return Ok(GridNumbered {
                    index,
                    seed,
                    attempts: attempt + 1,
                    generated,
                    logic: Some(logic),
                });
            }
        }
        let level = run.level.expect("attempts beyond one only with a level");
        Err(NotFound { index, level, attempts, last_seed: run.seed_of(index, attempts - 1) }.into())
    }

    /// A minimal puzzle with a unique solution and the symmetry, reproducibly from the seed.
    /// `progress` is told the clue groups tried and their number after each.
    pub fn generate(
        &mut self,
        symmetry: Symmetry,
        seed: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<GridGenerated, GridGenerateError> {
        let rules = self.solver.matrix().rules();
        GridGenerator::check_symmetry(rules, symmetry)?;
        let side = rules.size().side();
        let full = self.full_grid(seed)?;
        let mut orbits = symmetry.orbits_in(side);
        orbits.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed_c1e5));
        let mut puzzle = full.clone();
        let total = orbits.len();
        for (k, orbit) in orbits.iter().enumerate() {
            let kept: Vec<u8> = orbit.iter().map(|&c| puzzle.get(c)).collect();
            for &c in orbit {
                puzzle.set(c, 0);
            }
            if self.solver.count(&puzzle, Some(2))? != 1 {
                for (&c, &d) in orbit.iter().zip(&kept) {
                    puzzle.set(c, d);
                }
            }
            progress(k + 1, total);
        }
        Ok(GridGenerated { puzzle, solution: full })
    }
}
