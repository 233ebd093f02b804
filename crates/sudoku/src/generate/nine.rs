//! The 9x9 generator: the puzzles of a 9x9 variant's rules, which [`Generator`](super::Generator)
//! hands to it, made with fixed tables (band swaps, singles proofs, 128-bit cell sets).
//!
//! Each removal is checked by first-solution searches on one reused solver ("is there a solution
//! with another digit in this cell?"), except where the grid's unavoidable sets (`unavoidable`)
//! already show the puzzle would be ambiguous, or singles placed from the clues left fill the
//! removed cells again (`singles`), which shows it stays unique. The pieces of a puzzle (clue
//! groups, even markers) are tested in order on the solver's undo stack (`pieces`). How many
//! searches are left per puzzle is measured in `benches/RESULTS.md`.

use dlx_engine::{Budget, Solver, TieBreak};
use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::pieces::{Clues, Markers, Stack, thin_out};
use super::run::{NotFound, Run};
use super::singles::FullGrid;
use super::unavoidable::Swap;
use crate::cover::nine::Matrix;
use crate::generate::symmetry::Symmetry;
use crate::logic::scale::Technique;
use crate::logic::{Logic, solve_logically};
use crate::model::cells::Small;
use crate::model::variant::Variant;
use crate::shape::Shape;
use crate::shape::nine::Puzzle;

/// Options a random fill may try before it starts over from a new seed: the effort of a random
/// fill is heavy-tailed, and restarts cut the tail (see `benches/RESULTS.md`).
const FILL_BUDGET: u64 = 200;

/// Restarts after which a random fill goes on without a budget.
const FILL_ATTEMPTS: u32 = 64;

/// A generated puzzle and its unique solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Generated {
    /// The puzzle: givens, and even markers for the even-cell variant.
    pub(crate) puzzle: Puzzle,
    /// Its unique solution.
    pub(crate) solution: Puzzle,
}

/// Puzzle `index` of a [`Run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Numbered {
    /// Its index in the run.
    pub(crate) index: u64,
    /// The seed it was generated from (see [`Run::seed_of`]).
    pub(crate) seed: u64,
    /// How many puzzles were generated to reach it (1 without a level).
    pub(crate) attempts: u64,
    /// The puzzle and its solution.
    pub(crate) generated: Generated,
    /// The logical solver's verdict with [`Technique::LEVELLED`], when the run has a level
    /// (which it then matches).
    pub(crate) logic: Option<Logic<Puzzle>>,
}

/// Generates minimal puzzles with a unique solution. Reuses one engine solver for everything.
///
/// A generator reuses its solver and scratch space from one puzzle to the next; its puzzles
/// depend on the seed alone.
#[derive(Debug)]
pub(crate) struct Generator<'m> {
    variant: Variant,
    solver: Solver<'m>,
    /// The clue groups (orbits) of the last symmetry asked for, computed once for it, as lists
    /// and as sets of cells.
    orbits: Vec<Vec<usize>>,
    orbit_sets: Vec<Small>,
    orbits_of: Option<Symmetry>,
    /// Scratch: the removal order (indices into `orbits`), and which of them are kept.
    order: Vec<usize>,
    kept: Vec<usize>,
    /// Scratch: the empty even cells, in the order their markers are tried.
    marked: Vec<usize>,
    /// Scratch: the other solutions near the full grid (see `unavoidable`), and the cells of
    /// those that a puzzle must not leave free.
    swaps: Vec<Swap>,
    sets: Vec<Small>,
    /// Scratch: the pieces applied while thinning out.
    stack: Stack,
    /// The variant's units as sets of cells, to find singles with.
    shape: &'static Shape<Small>,
}

impl<'m> Generator<'m> {
    /// A generator for `variant` over its problem (the one encoder's matrix of its rules, whose
    /// options [`Matrix::option`] numbers).
    pub(crate) fn over(problem: &'m dlx_engine::Problem, variant: Variant) -> Self {
        Generator {
            variant,
            solver: {
                // Its checks are first-solution searches, which the last-conflict rule suits (see
                // `SudokuSolver`, and `benches/RESULTS.md` for the gain). The fill of the full
                // grid breaks its ties by the same rule, so the two rules make different puzzles
                // from the same seed.
                let mut solver = Solver::new(problem);
                solver.set_tie_break(TieBreak::LastConflict);
                solver
            },
            orbits: Vec::new(),
            orbit_sets: Vec::new(),
            orbits_of: None,
            order: Vec::new(),
            kept: Vec::new(),
            marked: Vec::new(),
            swaps: Vec::new(),
            sets: Vec::new(),
            stack: Stack::default(),
            shape: Shape::of_variant(variant),
        }
    }

    /// A random full grid of the variant, from the engine's seeded random branching.
    ///
    /// A random fill is usually quick but now and then wanders into a large dead subtree (the
    /// search effort is heavy-tailed), so a fill that has tried 200 options starts over with a
    /// fresh seed drawn from `seed`; the grid depends on `seed` alone, as before.
    pub(crate) fn full_grid(&mut self, seed: u64) -> Puzzle {
        self.solver.reset();
        // Shuffled digits make the grid random; random ties between equally short constraints
        // would only make it slower.
        self.solver.set_random_ties(false);
        let mut seeds = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut attempt_seed = seed;
        let mut grid = Puzzle::empty();
        for attempt in 0.. {
            // Never give up: after many restarts (which no measured seed needed), no budget.
            let nodes = (attempt < FILL_ATTEMPTS).then_some(FILL_BUDGET);
            self.solver.set_budget(Budget { nodes, updates: None });
            self.solver.set_seed(Some(attempt_seed));
            let filled = self.solver.for_each(|s| {
                for option in s.options() {
                    let (cell, digit) = Matrix::placement(option);
                    grid.set(cell, digit);
                }
                std::ops::ControlFlow::Break(())
            });
            if filled.is_ok() {
                break;
            }
            attempt_seed = seeds.random();
        }
        self.solver.set_budget(Budget::default());
        self.solver.set_seed(None);
        grid
    }

    /// Puzzle `index` of `run` (generated from [`Run::seed_of`]`(index, 0)`, and, when the run
    /// has a level, again from the next attempts' seeds until the logical solver gives that
    /// level or [`Run::max_attempts`] puzzles were made), asking `stop` before each attempt:
    /// `None` when it said to stop (a run of a level can take many attempts; each is a few
    /// milliseconds).
    pub(crate) fn generate_in_unless(
        &mut self,
        run: &Run,
        index: u64,
        stop: impl Fn() -> bool,
    ) -> Option<Result<Numbered, NotFound>> {
        let Some(level) = run.level else {
            if stop() {
                return None;
            }
            let seed = run.seed_of(index, 0);
            let generated = self.generate(run.symmetry, seed);
            return Some(Ok(Numbered { index, seed, attempts: 1, generated, logic: None }));
        };
        let attempts = run.max_attempts.max(1);
        for attempt in 0..attempts {
            if stop() {
                return None;
            }
            let seed = run.seed_of(index, attempt);
            let generated = self.generate(run.symmetry, seed);
            // The level needs only the techniques that decide it.
            let logic = solve_logically(&generated.puzzle, self.variant, &Technique::LEVELLED)
                .expect("generated puzzles obey the rules");
            if logic.level() == level {
                return Some(Ok(Numbered {
                    index,
                    seed,
                    attempts: attempt + 1,
                    generated,
                    logic: Some(logic),
                }));
            }
        }
        Some(Err(NotFound { index, level, attempts, last_seed: run.seed_of(index, attempts - 1) }))
    }

    /// A minimal puzzle with a unique solution and the given symmetry, reproducibly from `seed`.
    ///
    /// Minimal: removing any further clue group (orbit under the symmetry) makes it ambiguous; for
    /// the even-cell variant, so does removing any even marker.
    pub(crate) fn generate(&mut self, symmetry: Symmetry, seed: u64) -> Generated {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let solution = self.full_grid(rng.random());
        if self.orbits_of != Some(symmetry) {
            self.orbits = symmetry.orbits();
            self.orbit_sets = self.orbits.iter().map(|orbit| Small::of(orbit)).collect();
            self.orbits_of = Some(symmetry);
        }
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(0..self.orbits.len());
        order.shuffle(&mut rng);

        self.solver.reset();
        let grid = FullGrid::new(&solution);
        // Even-cell variant: every even cell starts marked (its odd options excluded), while the
        // clues are thinned out.
        let all_marked = if self.variant.has_even_cells() { grid.even_cells() } else { Small::EMPTY };
        for cell in all_marked {
            for odd in [1, 3, 5, 7, 9] {
                self.solver.exclude(Matrix::option(cell, odd)).expect("options of the matrix");
            }
        }
        let mut kept = std::mem::take(&mut self.kept);
        kept.clear();
        // Unavoidable sets: the changed cells of the swaps (in the even-cell variant, of those
        // that keep every even cell even: all are marked for now).
        super::unavoidable::swaps(&solution, self.shape, &mut self.swaps);
        let even_cells = self.variant.has_even_cells();
        self.sets.clear();
        self.sets.extend(self.swaps.iter().filter(|s| !even_cells || s.to_odd.is_empty()).map(|s| s.cells));
        let mut clues = Clues {
            shape: self.shape,
            grid: &grid,
            marked: all_marked,
            orbits: &self.orbits,
            orbit_sets: &self.orbit_sets,
            order: &order,
            sets: &mut self.sets,
            given: Small::GRID81,
        };
        self.stack.clear(&self.solver);
        thin_out(&mut self.solver, &mut clues, 0..order.len(), &mut kept, &mut self.stack)
            .expect("no budget or cancel flag is set");
        let mut puzzle = Puzzle::empty();
        for &k in &kept {
            for &cell in &self.orbits[order[k]] {
                puzzle.set(cell, solution.get(cell));
            }
        }
        if self.variant.has_even_cells() {
            // Then the markers, on the final clues: each empty even cell starts marked.
            self.solver.reset();
            for (cell, &digit) in puzzle.cells().iter().enumerate() {
                if digit != 0 {
                    self.solver.force(Matrix::option(cell, digit)).expect("clues of one solution agree");
                }
            }
            let mut cells = std::mem::take(&mut self.marked);
            cells.clear();
            cells.extend((0..81).filter(|&c| puzzle.get(c) == 0 && solution.get(c).is_multiple_of(2)));
            cells.shuffle(&mut rng);
            kept.clear();
            // A swap that changes no clue gives another solution unless a marker stands on one of
            // the cells it turns odd.
            let clue_cells: Small = (0..81).filter(|&c| puzzle.get(c) != 0).collect();
            self.sets.clear();
            self.sets.extend(self.swaps.iter().filter(|s| !s.cells.meets(clue_cells)).map(|s| s.to_odd));
            // None is empty: such a swap would be another solution even with every marker, and
            // the clues were chosen for a unique solution with every marker.
            debug_assert!(self.sets.iter().all(|set| !set.is_empty()), "a swap keeps the puzzle ambiguous");
            let marked = Small::of(&cells);
            let mut markers = Markers {
                shape: self.shape,
                grid: &grid,
                clues: clue_cells,
                cells: &cells,
                sets: &mut self.sets,
                marked,
            };
            self.stack.clear(&self.solver);
            thin_out(&mut self.solver, &mut markers, 0..cells.len(), &mut kept, &mut self.stack)
                .expect("no budget or cancel flag is set");
            for &k in &kept {
                puzzle.set_even_cell(cells[k], true);
            }
            self.marked = cells;
        }
        self.solver.reset();
        self.order = order;
        self.kept = kept;
        Generated { puzzle, solution }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 9x9 fill's grids are full, obey the variant, come again for the same seed and differ
    /// between seeds. Diagonal fills often use up their budget of options and start over from a
    /// new seed (the search effort is heavy-tailed): the grid must still be complete, valid and
    /// the same for the same seed.
    #[test]
    fn full_grids_are_valid_and_reproducible() {
        for variant in Variant::ALL {
            let matrix = crate::cover::Matrix::new(&crate::model::Rules::from(variant));
            let mut generator = Generator::over(matrix.problem(), variant);
            let mut distinct = std::collections::HashSet::new();
            for seed in 0..40 {
                let grid = generator.full_grid(seed);
                assert!(grid.cells().iter().all(|&d| d != 0), "{variant}: seed {seed} left cells empty");
                assert!(grid.check(variant).is_ok(), "{variant}: seed {seed} gave {grid:?}");
                assert_eq!(generator.full_grid(seed), grid, "{variant}: seed {seed} is not reproducible");
                distinct.insert(grid.to_line());
            }
            assert_eq!(distinct.len(), 40, "{variant}: 40 seeds gave only {} grids", distinct.len());
        }
    }
}
