//! Thinning a full grid of any rules out to a minimal puzzle: its clue groups taken away in a
//! random order on the solver's undo stack (`pieces`), each while the solution stays unique, and
//! for a run that eases, the fewest groups given back that bring the puzzle to its level.

use std::sync::Arc;

use dlx_engine::{Budget, Interrupted, OptionId, Solver, StopReason, TieBreak};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::run::mix;
use super::{
    GenerateError, Generated, Generator, NotFound, Numbered, Pieces, Run, digit_swaps, line_swaps,
    solution_without, thin_out,
};
use crate::Symmetry;
use crate::cover::{Matrix, SolveError};
use crate::logic::grid::{GridLogic, candidates, solve_grid_with, solve_logically};
use crate::logic::scale::Technique;
use crate::model::Puzzle;
use crate::model::cells::CellSet;
use crate::shape::{AnyShape, Shape, with_shape};
/// Nodes a uniqueness check searches before the logical techniques are called in to cut its
/// tree (most checks take far fewer; those that take more are the large grids' late ones).
const QUICK_CHECK: u64 = 20_000;

/// Nodes the search over the candidates the techniques leave may take. Past it, the clue group
/// is taken away only when the techniques alone solve the puzzle; otherwise it is kept. (Ten
/// times less than it was: anti-knight and killer grids of 12 to 16, whose checks the moves'
/// secondary items barely guide, took minutes for the same clue counts; `benches/RESULTS.md`.)
const CANDIDATE_CHECK: u64 = 200_000;

impl Generator<'_> {
    /// Takes clue groups away from a full grid of the matrix's rules (see the type's docs), on
    /// the solver's undo stack as the 9x9 generator does (`generate::pieces`): each group is
    /// tested with the others it needs forced, which halving the groups keeps from forcing each
    /// once per test. A removal that would leave one of the full grid's digit or line swaps
    /// without a clue (`generate::unavoidable`) is refused without a search.
    pub(super) fn thin_out(
        &mut self,
        full: Puzzle,
        symmetry: Symmetry,
        seed: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Generated, GenerateError> {
        debug_assert!(self.solver.matrix().fits(full.rules()), "a full grid of the matrix's rules");
        let (rules, any) = match self.shape.take() {
            Some((rules, any)) if *rules == *full.rules() => (rules, any),
            _ => (Arc::clone(full.shared_rules()), AnyShape::of(full.rules())),
        };
        let thinned =
            with_shape!(&any, shape => self.thin_out_over(shape, &any, full, symmetry, seed, progress));
        self.shape = Some((rules, any));
        thinned
    }

    /// [`thin_out`](Self::thin_out) with the shape's cell sets.
    fn thin_out_over<S: CellSet>(
        &mut self,
        shape: &Shape<S>,
        any: &AnyShape,
        full: Puzzle,
        symmetry: Symmetry,
        seed: u64,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<Generated, GenerateError> {
        let side = full.size().side();
        let mut orbits = symmetry.orbits_in(side);
        orbits.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed_c1e5));
        let orbit_sets = orbits.iter().map(|orbit| S::of(orbit)).collect();
        let mut swaps = Vec::new();
        digit_swaps(shape, full.cells(), &mut swaps);
        line_swaps(shape, full.cells(), &mut swaps);
        // The even and odd marks' exclusions stay under every clue group.
        self.solver.load(&Puzzle::new(Arc::clone(full.shared_rules())))?;
        let matrix = self.solver.matrix();
        let engine = self.solver.engine();
        // The checks are first-solution searches, which the last-conflict rule suits (faster
        // than the earliest item on large grids: `benches/RESULTS.md`).
        engine.set_tie_break(TieBreak::LastConflict);
        // Another solution, when there is one, is mostly the full grid changed in a few cells:
        // trying the grid's digits first finds it soonest.
        let options: Vec<OptionId> =
            (0..full.cells().len()).map(|cell| matrix.option(cell, full.get(cell))).collect();
        engine.set_preferred(&options).expect("options of the matrix");
        let total = orbits.len();
        let mut clues = Clues {
            matrix,
            full: &full,
            orbits: &orbits,
            orbit_sets,
            sets: swaps.into_iter().map(|swap| swap.cells).collect(),
            given: (0..full.cells().len()).fold(S::default(), |set, c| set | S::cell(c)),
            shape: any,
            puzzle: full.clone(),
            tried: 0,
            progress,
        };
        self.stack.clear(engine);
        let mut kept = Vec::new();
        let thinned = thin_out(engine, &mut clues, 0..total, &mut kept, &mut self.stack);
        engine.reset();
        engine.set_preferred(&[]).expect("no option");
        thinned.map_err(SolveError::from)?;
        Ok(Generated { puzzle: clues.puzzle, solution: full })
    }
}

/// The clue groups of a full grid of any size, as the pieces the generator takes away: piece `k`
/// is `orbits[k]`.
struct Clues<'a, S> {
    matrix: &'a Matrix,
    full: &'a Puzzle,
    orbits: &'a [Vec<usize>],
    /// The cells of each group, as a set.
    orbit_sets: Vec<S>,
    /// Unavoidable sets of the full grid: a puzzle giving no clue in one of them is ambiguous.
    /// Those that a kept group meets are dropped.
    sets: Vec<S>,
    /// The cells still given or not yet tested.
    given: S,
    shape: &'a AnyShape,
    /// The puzzle so far: the full grid without the groups taken away.
    puzzle: Puzzle,
    /// Groups tried, and whom to tell.
    tried: usize,
    progress: &'a mut dyn FnMut(usize, usize),
}

impl<S> Clues<'_, S> {
    /// The option of the full grid's digit in `cell`.
    fn option(&self, cell: usize) -> OptionId {
        self.matrix.option(cell, self.full.get(cell))
    }

    fn tried(&mut self) {
        self.tried += 1;
        (self.progress)(self.tried, self.orbits.len());
    }
}

impl<S: CellSet> Pieces for Clues<'_, S> {
    fn apply(&self, solver: &mut Solver<'_>, k: usize) -> usize {
        for &cell in &self.orbits[k] {
            solver.force(self.option(cell)).expect("clues of one solution agree");
        }
        self.orbits[k].len()
    }

    /// Without the group, when an unavoidable set holds no clue, the puzzle is ambiguous.
    fn refuted(&self, k: usize) -> bool {
        let present = self.given - self.orbit_sets[k];
        self.sets.iter().any(|set| !set.meets(present))
    }

    fn implied(&self, _: usize) -> bool {
        false
    }

    /// Cell by cell, whether a solution holds another digit there: a search of at most
    /// [`QUICK_CHECK`] nodes, and when that runs long, the same search over the candidates the
    /// logical techniques leave (the other digits excluded), whose tree is far smaller on large
    /// grids. When that too runs past [`CANDIDATE_CHECK`] nodes, the group can go if the
    /// techniques alone solve the puzzle (they are all sound), and stays otherwise: the puzzle
    /// stays unique (though perhaps not minimal).
    fn unique_without(&self, solver: &mut Solver<'_>, k: usize) -> Result<bool, Interrupted> {
        for &cell in &self.orbits[k] {
            let base = solver.restriction_count();
            match within(solver, QUICK_CHECK, |s| solution_without(s, [self.option(cell)]))? {
                Some(true) => return Ok(false),
                Some(false) => continue,
                None => {}
            }
            let mut puzzle = self.puzzle.clone();
            for &c in &self.orbits[k] {
                puzzle.set(c, 0);
            }
            let Some(candidates) = candidates(self.shape, &puzzle) else {
                // The givens come from a full grid, which obeys every deduction.
                return Ok(false);
            };
            let side = self.matrix.rules().size().side();
            let empty = candidates.iter().enumerate().filter(|&(c, _)| puzzle.get(c) == 0);
            let others = empty.flat_map(|(c, &mask)| {
                (1..=side)
                    .filter(move |d| mask & 1 << (d - 1) == 0)
                    .map(move |d| self.matrix.option(c, u8::try_from(d).expect("sides are at most 25")))
            });
            match within(solver, CANDIDATE_CHECK, |s| solution_without(s, others))? {
                Some(true) => return Ok(false),
                Some(false) => solver.undo_to(base),
                None => return Ok(solve_grid_with(self.shape, &puzzle, &Technique::SOUND).solved),
            }
        }
        Ok(true)
    }

    fn remove(&mut self, k: usize) {
        for &cell in &self.orbits[k] {
            self.puzzle.set(cell, 0);
        }
        self.given -= self.orbit_sets[k];
        self.tried();
    }

    /// An unavoidable set that the group meets can no longer be left without a clue.
    fn keep(&mut self, k: usize) {
        let cells = self.orbit_sets[k];
        self.sets.retain(|set| !set.meets(cells));
        self.tried();
    }
}

/// What `search` gives within `nodes` nodes, or `None` when it needs more (the budget is taken
/// off again after it; a cancellation stays an error).
fn within<T>(
    solver: &mut Solver<'_>,
    nodes: u64,
    search: impl FnOnce(&mut Solver<'_>) -> Result<T, Interrupted>,
) -> Result<Option<T>, Interrupted> {
    solver.set_budget(Budget { nodes: Some(nodes), updates: None });
    let found = search(solver);
    solver.set_budget(Budget::default());
    match found {
        Ok(found) => Ok(Some(found)),
        Err(e) if e.reason == StopReason::Budget => Ok(None),
        Err(e) => Err(e),
    }
}

/// Puzzle `index` of a run: made from [`Run::seed_of`]'s seeds by `make` until its level is the
/// run's (when it has one), or until an attempt succeeds where one fails to find a grid or a
/// jigsaw map; [`Run::max_attempts`] attempts at most either way. A run that
/// [eases](Run::ease) lets a puzzle take givens back (see [`add_givens`]).
pub(super) fn attempts(
    run: &Run,
    index: u64,
    mut make: impl FnMut(u64) -> Result<Generated, GenerateError>,
) -> Result<Numbered, GenerateError> {
    let attempts = run.max_attempts.max(1);
    for attempt in 0..attempts {
        let seed = run.seed_of(index, attempt);
        let generated = match make(seed) {
            Ok(generated) => generated,
            // Rules that can never be met, or a search stopped from outside, end the puzzle.
            Err(e @ (GenerateError::Symmetry { .. } | GenerateError::Solve(_))) => return Err(e),
            // A grid not found, or no map: the next attempt starts from another seed.
            Err(reason) if attempt + 1 == attempts => {
                let reason = Box::new(reason);
                return Err(GenerateError::Failed { index, seed, attempts, reason });
            }
            Err(_) => continue,
        };
        let made = |generated, logic, added| {
            Ok(Numbered { index, seed, attempts: attempt + 1, generated, logic, added })
        };
        let Some(level) = run.level else {
            if !run.ease {
                return made(generated, None, 0);
            }
            // Any level, so long as logic solves it.
            let logic = solve_logically(&generated.puzzle);
            if logic.solved {
                return made(generated, Some(logic), 0);
            }
            let (generated, logic, added) =
                add_givens(&generated, run.symmetry, seed, |l| l.solved).expect("logic solves the full grid");
            return made(generated, Some(logic), added);
        };
        let logic = solve_logically(&generated.puzzle);
        if logic.level() == level {
            return made(generated, Some(logic), 0);
        }
        let minimal_attempts = if generated.puzzle.size().side() > 16 { 0 } else { Run::MINIMAL_ATTEMPTS };
        if run.ease && attempt + 1 >= minimal_attempts.min(attempts / 2) && logic.level() > level {
            // A group given back may take the puzzle past the level, from above to below: a few
            // orders are tried.
            for order in 0..EASING_ORDERS {
                let eased = add_givens(&generated, run.symmetry, mix(seed, order), |l| l.level() <= level);
                if let Some((generated, logic, added)) = eased
                    && logic.level() == level
                {
                    return made(generated, Some(logic), added);
                }
            }
        }
    }
    let level = run.level.expect("attempts beyond one only with a level");
    Err(NotFound { index, level, attempts, last_seed: run.seed_of(index, attempts - 1) }.into())
}

/// The orders of clue groups an attempt tries to give back, to bring a puzzle to a level.
const EASING_ORDERS: u64 = 4;

/// The puzzle with the fewest of its missing clue groups (under `symmetry`, in an order drawn
/// from `seed`) given back from its solution whose logical verdict is `enough`, that verdict,
/// and how many groups came back; `None` when the full grid's is not. Found by halving: more
/// givens never leave logic less to go on, so once enough, enough with more (the verdict of
/// the count found is checked, not assumed).
fn add_givens(
    generated: &Generated,
    symmetry: Symmetry,
    seed: u64,
    enough: impl Fn(&GridLogic) -> bool,
) -> Option<(Generated, GridLogic, usize)> {
    let side = generated.puzzle.size().side();
    let mut missing: Vec<Vec<usize>> = symmetry
        .orbits_in(side)
        .into_iter()
        .filter(|orbit| orbit.iter().any(|&c| generated.puzzle.get(c) == 0))
        .collect();
    missing.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x91e5_ba4c));
    let with = |k: usize| {
        let mut puzzle = generated.puzzle.clone();
        for &cell in missing[..k].iter().flatten() {
            puzzle.set(cell, generated.solution.get(cell));
        }
        let logic = solve_logically(&puzzle);
        (puzzle, logic)
    };
    let (mut lo, mut hi) = (0, missing.len());
    let mut best = with(hi);
    if !enough(&best.1) {
        return None;
    }
    // `lo` groups are not enough (the puzzle as made was not), `hi` are.
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        let tried = with(mid);
        if enough(&tried.1) {
            (hi, best) = (mid, tried);
        } else {
            lo = mid;
        }
    }
    let (puzzle, logic) = best;
    Some((Generated { puzzle, solution: generated.solution.clone() }, logic, hi))
}
