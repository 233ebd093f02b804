//! Random full grids of any rules: searches in a random order, restarted on a budget that follows
//! Luby's sequence, then the grids with a symmetry of their own (`orbits`) and the few stored
//! (`stored`) for the rules whose grids the random searches find late or never.

use std::sync::Arc;

use dlx_engine::{Budget, StopReason, TieBreak};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::orbits::symmetric_grid;
use super::stored::stored_grid;
use super::{GenerateError, Generator};
use crate::cover::SolveError;
use crate::model::Puzzle;
/// Nodes per cell of the grid (in halves) that a random search for a full grid may take before
/// it starts again from a seed derived from the last, times the terms of [`luby`]'s sequence:
/// 2.5 a cell, 202 nodes on the 9x9 grid, then 202, 404, 202, 202, 404, 808 and so on. The
/// effort of a random fill is heavy-tailed (most searches are quick, a few wander for long in a
/// part of the tree without a grid), and many short searches cut the tail, while the longer
/// searches that come up now and then prove in time that rules have no grid (the figures, on
/// 9x9 anti-knight grids among others, are in `benches/RESULTS.md`).
const FILL_HALF_NODES_PER_CELL: u64 = 5;

/// Nodes the searches for a full grid may take in all before a generator gives up on the rules.
pub(super) const FILL_TOTAL: u64 = 50_000_000;

/// Nodes the random searches for a full grid take before the grids with a symmetry of their own
/// are tried (see `orbits`).
const FILL_BEFORE_ORBITS: u64 = 300_000;

/// Nodes the random searches for a full grid take before a grid found once is taken (see
/// `stored`), for the rules one covers: enough for the searches to find most grids they find at
/// all, so that the small family of stored grids is the exception.
const FILL_BEFORE_STORED: u64 = 2_000_000;

/// The `i`-th term (from 1) of Luby, Sinclair and Zuckerman's sequence 1, 1, 2, 1, 1, 2, 4, 1,
/// 1, 2, 1, 1, 2, 4, 8, ...: restarts whose budgets follow it spend within a logarithmic factor
/// of the best fixed budget, whatever the distribution of the search's effort.
fn luby(mut i: u64) -> u64 {
    loop {
        // The least k with i <= 2^k - 1.
        let k = 64 - i.leading_zeros();
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

impl Generator<'_> {
    /// A random full grid of the rules, reproducibly from the seed: searches in a random order,
    /// each stopped after the budget `FILL_HALF_NODES_PER_CELL` gives it and started again from a
    /// seed derived from the last.
    /// [`GenerateError::NoGrid`] when a search proves that no grid obeys the rules,
    /// [`GenerateError::GridBudget`] when the searches took 50,000,000 nodes in all.
    ///
    /// The grid is a function of the rules and the seed alone: the matrix remembers the last
    /// one found, and a generator on it asked for the same seed again takes it.
    pub fn full_grid(&mut self, seed: u64) -> Result<Puzzle, GenerateError> {
        if let Some(grid) = self.solver.matrix().remembered_grid(seed) {
            return Ok(grid);
        }
        let grid = self.full_grid_spending(seed, FILL_TOTAL, &mut 0)?;
        self.solver.matrix().remember_grid(seed, &grid);
        Ok(grid)
    }

    /// [`Generator::full_grid`], giving up after `total` nodes rather than [`FILL_TOTAL`]; the
    /// nodes searched are added to `spent`.
    pub(super) fn full_grid_spending(
        &mut self,
        seed: u64,
        total: u64,
        spent: &mut u64,
    ) -> Result<Puzzle, GenerateError> {
        if let Some(nine) = &mut self.nine {
            return Ok(Puzzle::from_nine(&nine.full_grid(seed), &self.rules));
        }
        let cells = self.solver.matrix().rules().size().cells() as u64;
        let base = (cells * FILL_HALF_NODES_PER_CELL / 2).max(1);
        let start = *spent;
        let mut seed = seed;
        let (mut orbits_tried, mut stored_tried) = (false, false);
        for search in 0u64.. {
            let nodes = base.saturating_mul(luby(search + 1)).min(total - (*spent - start)).max(1);
            if let Some(grid) = self.full_grid_within(seed, nodes)? {
                return Ok(grid);
            }
            *spent += self.solver.effort().nodes;
            if *spent - start >= total {
                break;
            }
            // Rules whose grids are rare: grids with a symmetry of their own, found in a few
            // hundred nodes where they exist (see `orbits`). Not on a jigsaw map, which no box
            // shift keeps but by chance.
            if !orbits_tried && *spent - start >= FILL_BEFORE_ORBITS && !self.rules.is_jigsaw() {
                orbits_tried = true;
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let matrix = self.solver.matrix();
                let cancel = self.cancel.clone();
                if let Some(grid) = symmetric_grid(matrix, &self.rules, &mut rng, cancel.as_ref())
                    .map_err(|e| GenerateError::from(SolveError::from(e)))?
                {
                    return Ok(grid);
                }
            }
            if !stored_tried && *spent - start >= FILL_BEFORE_STORED {
                stored_tried = true;
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                if let Some(grid) = stored_grid(&self.rules, &mut rng) {
                    return Ok(grid);
                }
            }
            seed = crate::generate::mix(seed, search + 1);
        }
        Err(GenerateError::GridBudget(self.solver.matrix().rules().describe()))
    }

    /// A random full grid from this seed, or `None` when the search takes more than `nodes`
    /// nodes; [`GenerateError::NoGrid`] when it proves that there is none. Ties between
    /// equally short items go to the earliest: the digits' random order makes the grid random,
    /// and the last-conflict rule, which suits checks, makes fills slower.
    ///
    /// Rules without sums or parities hold for a grid exactly when they hold for it with its
    /// digits renamed, so every grid is a renaming of one whose first row reads 1 to n: the search
    /// looks only among those (n! times fewer, which is what lets a search end and prove that
    /// rules such as 8x8 windoku anti-knight have no grid) and renames the digits of the grid it
    /// finds at random.
    fn full_grid_within(&mut self, seed: u64, nodes: u64) -> Result<Option<Puzzle>, GenerateError> {
        let mut empty = Puzzle::new(Arc::clone(&self.rules));
        let side = self.rules.size().side();
        let renamed = self.rules.cages().is_empty() && !self.rules.has_parity();
        let mut fixed = empty.clone();
        if renamed {
            for (cell, digit) in (0..side).zip(1u8..) {
                fixed.set(cell, digit);
            }
        }
        self.solver.load(&fixed)?;
        let engine = self.solver.engine();
        engine.set_seed(Some(seed));
        engine.set_random_ties(false);
        engine.set_tie_break(TieBreak::Earliest);
        engine.set_budget(Budget { nodes: Some(nodes), updates: None });
        let found = engine.first();
        engine.set_budget(Budget::default());
        engine.set_seed(None);
        match found {
            Ok(Some(options)) => {
                let matrix = self.solver.matrix();
                let mut names: Vec<u8> = (1..=u8::try_from(side).expect("sides are at most 25")).collect();
                if renamed {
                    names.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
                }
                for (cell, digit) in (0..side).zip(1u8..).filter(|_| renamed) {
                    empty.set(cell, names[usize::from(digit) - 1]);
                }
                for option in options {
                    if let Some((cell, digit)) = matrix.placement(option) {
                        empty.set(cell, names[usize::from(digit) - 1]);
                    }
                }
                Ok(Some(empty))
            }
            Ok(None) => Err(GenerateError::NoGrid(empty.rules().describe())),
            Err(e) if e.reason == StopReason::Budget => Ok(None),
            Err(e) => Err(SolveError::from(e).into()),
        }
    }
}
