//! Minimal puzzles with a unique solution for any [`Rules`]: a random full grid, then its clue
//! groups (orbits of the symmetry) taken away in a random order while the solution stays
//! unique.

use std::sync::Arc;

use dlx_engine::{Budget, CancelFlag, Count, Interrupted, OptionId, Solver, StopReason, TieBreak};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::encode::{Matrix, SolveError, SudokuSolver};
use super::orbits::{box_shifts, symmetric_grid, symmetric_grid_under};
use super::puzzle::Puzzle;
use super::rules::{Constraint, Parity, Rules, edge_neighbours};
use super::stored::stored_grid;
use crate::cells::CellSet;
use crate::generate::Generator as NineGenerator;
use crate::generate::mix;
use crate::generate::pieces::{Pieces, Stack, solution_without, thin_out};
use crate::generate::unavoidable::{digit_swaps, line_swaps};
use crate::rate::grid::{GridLogic, candidates, solve_grid_with, solve_logically};
use crate::scale::Technique;
use crate::shape::{AnyShape, Shape, with_shape};
use crate::{Level, NotFound, Run, Symmetry, Variant};

/// Nodes a uniqueness check searches before the logical techniques are called in to cut its
/// tree (most checks take far fewer; those that take more are the large grids' late ones).
const QUICK_CHECK: u64 = 20_000;

/// Nodes the search over the candidates the techniques leave may take. Past it, the clue group
/// is taken away only when the techniques alone solve the puzzle; otherwise it is kept. (Ten
/// times less than it was: anti-knight and killer grids of 12 to 16, whose checks the moves'
/// secondary items barely guide, took minutes for the same clue counts; `benches/RESULTS.md`.)
const CANDIDATE_CHECK: u64 = 200_000;

/// Nodes per cell of the grid (in halves) that a random search for a full grid may take before
/// it starts again from a seed derived from the last, times the terms of [`luby`]'s sequence:
/// 2.5 a cell, 202 nodes on the 9x9 grid, then 202, 404, 202, 202, 404, 808 and so on. The
/// effort of a random fill is heavy-tailed (most searches are quick, a few wander for long in a
/// part of the tree without a grid), and many short searches cut the tail: 9x9 anti-knight grids
/// take a median of 12,000 nodes so, against 770,000 for one search run to its end; and the
/// longer searches that come up now and then prove in time that rules have no grid
/// (`benches/RESULTS.md`).
const FILL_HALF_NODES_PER_CELL: u64 = 5;

/// Nodes the searches for a full grid may take in all before a generator gives up on the rules.
const FILL_TOTAL: u64 = 50_000_000;

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

/// Jigsaw maps made up for one puzzle before its generation gives up.
const MAPS: usize = 40;

/// Nodes the searches for a full grid of one jigsaw map may take before another map is made up.
const MAP_NODES: u64 = 1_000_000;

/// Jigsaw maps drawn freely before the maps are drawn so that a box shift keeps them, and the
/// symmetric fills can search them (see `random_regions`): two, since the free maps of the rules
/// that need the others (anti-knight from 12x12 on) cost about a second each for nothing
/// (`benches/RESULTS.md`).
const FREE_MAPS: usize = 2;

/// Draws of a shift and moves for each map a box shift keeps, before that map is given up.
const MAP_DRAWS: usize = 20;

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
    fn as_grids(&self, generated: &crate::nine::Generated) -> Generated {
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
    fn full_grid_spending(
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

    /// Takes clue groups away from a full grid of the matrix's rules (see the type's docs), on
    /// the solver's undo stack as the 9x9 generator does (`generate::pieces`): each group is
    /// tested with the others it needs forced, which halving the groups keeps from forcing each
    /// once per test. A removal that would leave one of the full grid's digit or line swaps
    /// without a clue (`generate::unavoidable`) is refused without a search.
    fn thin_out(
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
        // The checks are first-solution searches, which the last-conflict rule suits (twice as
        // fast as the earliest item on 16x16 grids).
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
fn attempts(
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

/// Puzzle `index` of a run whose rules are `base` with `extras` made up for each puzzle, exactly
/// as `dlx generate --rules jigsaw` (`killer`, `odd-even`) makes it (see [`generate_with_extras`]).
pub fn generate_in_with_extras(
    base: &Rules,
    extras: Extras,
    run: &Run,
    index: u64,
    progress: &mut dyn FnMut(usize, usize),
    cancel: Option<&CancelFlag>,
) -> Result<Numbered, GenerateError> {
    // Cages alone make hard puzzles: a run that wants a level below expert takes the first
    // cage set of each attempt, its givens included, rather than draws for no givens at all.
    let givens_free = run.level.is_none_or(|level| level == Level::Expert);
    attempts(run, index, |seed| generate_as(base, extras, run.symmetry, seed, progress, cancel, givens_free))
}

/// Rules a generator makes up for each puzzle, besides those it is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Extras {
    /// Random jigsaw regions instead of boxes (connected, side cells each, and such that a full
    /// grid exists).
    pub jigsaw: bool,
    /// Killer cages over the whole grid (2 to 4 cells each, none of one), their sums from the
    /// full grid; up to 9x9, drawn again (a few times) until the cages alone have a unique
    /// solution, so that no given digit is needed.
    pub killer: bool,
    /// Even and odd marks on about a quarter of the cells, from the full grid.
    pub parity: bool,
}

impl Extras {
    /// Whether any rule is made up.
    pub fn any(self) -> bool {
        self.jigsaw || self.killer || self.parity
    }
}

/// A puzzle whose rules are `base` with `extras` made up from the seed: jigsaw regions first,
/// then a full grid, then cages and marks that the full grid obeys; then clue groups are taken
/// away as [`Generator::generate`] does. Cages and marks follow the symmetry when it maps
/// each onto one of the same sum or parity, which random cages never do: killer puzzles take
/// [`Symmetry::None`] (their clues are often none at all), others are refused clearly.
pub fn generate_with_extras(
    base: &Rules,
    extras: Extras,
    symmetry: Symmetry,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
    cancel: Option<&CancelFlag>,
) -> Result<Generated, GenerateError> {
    generate_as(base, extras, symmetry, seed, progress, cancel, true)
}

/// [`generate_with_extras`], drawing killer cages for a puzzle without givens (up to 9x9) when
/// `givens_free`, else taking the first cage set.
fn generate_as(
    base: &Rules,
    extras: Extras,
    symmetry: Symmetry,
    seed: u64,
    progress: &mut dyn FnMut(usize, usize),
    cancel: Option<&CancelFlag>,
    givens_free: bool,
) -> Result<Generated, GenerateError> {
    let generator = |matrix| {
        let mut generator = Generator::general(matrix);
        generator.set_cancel_flag(cancel.cloned());
        generator
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0xe47a_5eed);
    let (mut rules, full, first) = if extras.jigsaw {
        random_regions(base, symmetry, &mut rng, cancel)?
    } else {
        let rules = base.clone();
        Generator::check_symmetry(&rules, symmetry)?;
        let first = Matrix::new(&rules);
        let mut searcher = Generator::general(&first);
        searcher.set_cancel_flag(cancel.cloned());
        let full = searcher.full_grid(seed)?;
        (rules, full, first)
    };
    if extras.killer {
        if symmetry != Symmetry::None {
            let what = "cages";
            return Err(GenerateError::Symmetry {
                symmetry,
                rules: format!("{} killer", rules.describe()),
                what,
            });
        }
        // Cage sets until one whose cages alone solve the puzzle (no given digit is then
        // needed), or the last of a few draws.
        let base = rules.clone();
        let side = base.size().side();
        // (On grids above 9x9 cages alone hardly ever do, and each check would cost its budget.)
        let draws = if side <= 9 && givens_free { CAGE_DRAWS } else { 1 };
        for draw in 0..draws {
            rules = base.clone();
            for (cage, sum) in random_cages(side, &full, &mut rng) {
                rules.add_cage(cage, sum).expect("cages of distinct digits of the full grid, each cell once");
            }
            if draw + 1 == draws || cages_alone_solve(&rules, cancel)? {
                break;
            }
        }
    }
    if extras.parity {
        let side = rules.size().side();
        for orbit in symmetry.orbits_in(side) {
            let parities: Vec<bool> = orbit.iter().map(|&c| full.get(c) % 2 == 0).collect();
            if rng.random_ratio(1, 4) && parities.iter().all(|&p| p == parities[0]) {
                for &c in &orbit {
                    rules.set_parity(c, if parities[0] { Parity::Even } else { Parity::Odd });
                }
            }
        }
    }
    let full = Puzzle::with_cells(rules.clone(), full.cells().to_vec()).expect("the same size");
    // Marks are restrictions the solver applies: the matrix of the search for the full grid
    // serves, unless cages were added.
    let matrix = if extras.killer { Matrix::new(&rules) } else { first };
    generator(&matrix).thin_out(full, symmetry, seed, progress)
}

/// Regions made from the boxes by moves that keep every region connected and of side cells: a
/// cell on the edge of its region passes to a neighbouring region, which gives back one of its
/// own cells that touches the first region; with rotational symmetry, each move is made with its
/// rotated image. Made again when no full grid of the map is found in [`MAP_NODES`] nodes. Only
/// `none` and `rotational` symmetry are made so. The rules, a full grid of them and their matrix.
///
/// On rules whose grids are rare (anti-knight on 16x16) a free map seldom has a grid that a
/// search finds. So after [`FREE_MAPS`] maps whose searches ran out (not proved without grids:
/// then the rules are given up), each move is also made at its images under a random shift by
/// whole boxes, and the map's grids are searched among those the same shift keeps (see
/// `orbits`), which the symmetric fills find in seconds where they exist.
fn random_regions(
    base: &Rules,
    symmetry: Symmetry,
    rng: &mut Xoshiro256PlusPlus,
    cancel: Option<&CancelFlag>,
) -> Result<(Rules, Puzzle, Matrix), GenerateError> {
    let rotated = match symmetry {
        Symmetry::None => false,
        Symmetry::Rotational => true,
        _ => {
            return Err(GenerateError::Symmetry {
                symmetry,
                rules: format!("{} jigsaw", base.describe()),
                what: "regions (made up with none or rotational symmetry only)",
            });
        }
    };
    let cells = base.size().cells();
    let side = base.size().side();
    let half_turn: Vec<usize> = (0..cells).rev().collect();
    let turns = if rotated { closure(cells, std::slice::from_ref(&half_turn)) } else { Vec::new() };
    let mut spent = 0;
    let mut proved = 0;
    for map in 0..MAPS {
        if spent >= FILL_TOTAL {
            break;
        }
        if map == FREE_MAPS && proved == FREE_MAPS {
            // Rules whose maps have no grids (4x4 anti-king): not grids too rare to find.
            break;
        }
        if map >= FREE_MAPS {
            // Maps a box shift keeps, and grids the same shift keeps (see `orbits`). Most draws
            // of a shift and moves end on no map (on 14x14, all but those of the shift by one
            // box to the right), and a draw costs little beside a search: drawn again.
            let shifts = box_shifts(base.size());
            let drawn = (0..MAP_DRAWS).find_map(|_| {
                let &(down, right) = shifts.choose(rng).expect("grids of more than one box");
                let shift: Vec<usize> = (0..cells)
                    .map(|c| ((c / side + down) % side) * side + (c % side + right) % side)
                    .collect();
                let mut generators = vec![shift];
                generators.extend(rotated.then(|| half_turn.clone()));
                moved_map(base, &closure(cells, &generators), rng).map(|rules| (rules, down, right))
            });
            let Some((rules, down, right)) = drawn else { continue };
            Generator::check_symmetry(&rules, symmetry)?;
            let matrix = Matrix::new(&rules);
            let rules = Arc::new(rules);
            let found = symmetric_grid_under(&matrix, &rules, &[(down, right)], rng, cancel)
                .map_err(|e| GenerateError::from(SolveError::from(e)))?;
            if let Some(full) = found {
                return Ok((Rules::clone(&rules), full, matrix));
            }
            continue;
        }
        // A map whose grids are not found soon is let go rather than searched to the end.
        let Some(rules) = moved_map(base, &turns, rng) else { continue };
        Generator::check_symmetry(&rules, symmetry)?;
        let matrix = Matrix::new(&rules);
        let found = {
            let mut generator = Generator::general(&matrix);
            generator.set_cancel_flag(cancel.cloned());
            generator.full_grid_spending(rng.random(), MAP_NODES.min(FILL_TOTAL - spent), &mut spent)
        };
        match found {
            Ok(full) => return Ok((rules, full, matrix)),
            Err(GenerateError::NoGrid(_)) => proved += 1,
            Err(GenerateError::GridBudget(_)) => {}
            Err(e) => return Err(e),
        }
    }
    let rules = format!("{} jigsaw", base.describe());
    Err(if spent >= FILL_TOTAL { GenerateError::GridBudget(rules) } else { GenerateError::NoGrid(rules) })
}

/// One random map for [`random_regions`], made with each move's images under `group` (cell
/// permutations, the identity left out, closed under composition); `None` when the moves end on
/// a map the rules refuse, or one that the group does not keep, or when fewer than a quarter of
/// the cells were traded.
fn moved_map(base: &Rules, group: &[Vec<usize>], rng: &mut Xoshiro256PlusPlus) -> Option<Rules> {
    let size = base.size();
    let (side, cells) = (size.side(), size.cells());
    let near = |c: usize| edge_neighbours(c, side);
    let to_rules = |map: &[u8]| {
        let mut rules = base.clone();
        let text: String = map.iter().map(|&k| char::from(b'A' + k)).collect();
        (rules.set_regions(&text).is_ok() && group.iter().all(|g| keeps(map, g))).then_some(rules)
    };
    let mut map: Vec<u8> = base.regions().to_vec();
    let mut moves = 0;
    for tried in 0..cells * 50 {
        if moves >= cells {
            break;
        }
        // A group that has allowed no trade in the first tenth of the tries seldom allows one:
        // given up (the tries, each checking a whole map, are most of a jigsaw's time then).
        if moves == 0 && tried == cells * 5 {
            return None;
        }
        let c = rng.random_range(0..cells);
        let Some(n) = near(c).filter(|&n| map[n] != map[c]).collect::<Vec<_>>().choose(rng).copied() else {
            continue;
        };
        let (a, b) = (map[c], map[n]);
        // A cell of region b (not n) touching region a somewhere other than at c: given to a,
        // it keeps a's size, and b has c in its place.
        let givers: Vec<usize> =
            (0..cells).filter(|&d| map[d] == b && d != n && near(d).any(|e| e != c && map[e] == a)).collect();
        let Some(&d) = givers.choose(rng) else { continue };
        let mut trial = map.clone();
        trial[c] = b;
        trial[d] = a;
        // The same trade at each image: the image of c goes to the region of n's image, and
        // the image of d to the region c's image was in. Images must not meet.
        let mut moved = vec![c, d];
        let mut apart = true;
        for g in group {
            let (gc, gd) = (g[c], g[d]);
            apart &= !moved.contains(&gc) && !moved.contains(&gd);
            moved.extend([gc, gd]);
            trial[gc] = map[g[n]];
            trial[gd] = map[gc];
        }
        if apart && to_rules(&trial).is_some() {
            map = trial;
            moves += 1;
        }
    }
    // A map hardly moved from the boxes (where the group leaves few trades) is no jigsaw.
    let traded = moves * (group.len() + 1);
    if traded < cells / 4 {
        return None;
    }
    to_rules(&map)
}

/// Whether the cell permutation `g` maps each region of `map` onto a region.
fn keeps(map: &[u8], g: &[usize]) -> bool {
    let mut image = [u8::MAX; 64];
    map.iter().zip(g).all(|(&region, &to)| {
        let slot = &mut image[usize::from(region)];
        if *slot == u8::MAX {
            *slot = map[to];
        }
        *slot == map[to]
    })
}

/// The group the cell permutations `generators` make, without the identity.
fn closure(cells: usize, generators: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let identity: Vec<usize> = (0..cells).collect();
    let mut group = vec![identity.clone()];
    let mut k = 0;
    while k < group.len() {
        for g in generators {
            let product: Vec<usize> = group[k].iter().map(|&c| g[c]).collect();
            if !group.contains(&product) {
                group.push(product);
            }
        }
        k += 1;
    }
    group.retain(|g| *g != identity);
    group
}

/// Cages of 2 to 4 cells over the whole grid, grown from random cells through edge neighbours
/// with different digits. A cell left alone then joins a neighbouring cage of fewer than 4 cells
/// that lacks its digit, or takes a cell from a neighbouring cage of 3 or 4 (one that leaves
/// it connected) to make a pair; when neither is possible for some cell, the cages are grown
/// again from another draw. Returns the cages (cells and sum).
fn random_cages(side: usize, full: &Puzzle, rng: &mut Xoshiro256PlusPlus) -> Vec<(Vec<usize>, u32)> {
    let cells = side * side;
    let digit = |c: usize| full.get(c);
    loop {
        let mut cage_of = vec![usize::MAX; cells];
        let mut cages: Vec<Vec<usize>> = Vec::new();
        let mut order: Vec<usize> = (0..cells).collect();
        order.shuffle(rng);
        for &start in &order {
            if cage_of[start] != usize::MAX {
                continue;
            }
            let target = rng.random_range(2..=4);
            let mut cage = vec![start];
            cage_of[start] = cages.len();
            while cage.len() < target {
                let mut options: Vec<usize> = Vec::new();
                for &c in &cage {
                    for n in edge_neighbours(c, side) {
                        if cage_of[n] == usize::MAX && !cage.iter().any(|&x| digit(x) == digit(n)) {
                            options.push(n);
                        }
                    }
                }
                let Some(&next) = options.choose(rng) else { break };
                cage_of[next] = cages.len();
                cage.push(next);
            }
            cages.push(cage);
        }
        let alone: Vec<usize> = (0..cages.len()).filter(|&k| cages[k].len() == 1).collect();
        let mut repaired = true;
        for k in alone {
            let Some(&cell) = cages[k].first().filter(|_| cages[k].len() == 1) else { continue };
            let mut neighbours: Vec<usize> = edge_neighbours(cell, side).collect();
            neighbours.shuffle(rng);
            // Join a small cage that lacks the digit ...
            let join = neighbours.iter().map(|&n| cage_of[n]).find(|&j| {
                j != k && cages[j].len() < 4 && !cages[j].iter().any(|&x| digit(x) == digit(cell))
            });
            if let Some(j) = join {
                cages[k].clear();
                cages[j].push(cell);
                cage_of[cell] = j;
                continue;
            }
            // ... or take a cell from a larger one that stays connected without it.
            let take = neighbours.iter().copied().find(|&n| {
                let j = cage_of[n];
                j != k
                    && cages[j].len() >= 3
                    && digit(n) != digit(cell)
                    && connected_without(&cages[j], n, side)
            });
            match take {
                Some(n) => {
                    let j = cage_of[n];
                    cages[j].retain(|&x| x != n);
                    cages[k].push(n);
                    cage_of[n] = k;
                }
                None => repaired = false,
            }
        }
        if repaired {
            return cages
                .into_iter()
                .filter(|cage| !cage.is_empty())
                .map(|cage| {
                    let sum = cage.iter().map(|&c| u32::from(digit(c))).sum();
                    (cage, sum)
                })
                .collect();
        }
    }
}

/// Whether `cage` without `cell` is still connected through edge neighbours.
fn connected_without(cage: &[usize], cell: usize, side: usize) -> bool {
    let rest: Vec<usize> = cage.iter().copied().filter(|&c| c != cell).collect();
    let Some(&first) = rest.first() else { return true };
    let mut seen = vec![first];
    let mut k = 0;
    while k < seen.len() {
        for n in edge_neighbours(seen[k], side) {
            if rest.contains(&n) && !seen.contains(&n) {
                seen.push(n);
            }
        }
        k += 1;
    }
    seen.len() == rest.len()
}

/// Whether the cages of `rules` alone, with no given digit, have a unique solution (within
/// [`CAGE_CHECK`] nodes: a longer check counts as no).
fn cages_alone_solve(rules: &Rules, cancel: Option<&CancelFlag>) -> Result<bool, GenerateError> {
    let matrix = Matrix::new(rules);
    let side = rules.size().side();
    let empty = Puzzle::with_cells(rules.clone(), vec![0; side * side]).expect("a grid of its size");
    let mut solver = matrix.solver();
    solver.set_cancel_flag(cancel.cloned());
    solver.set_budget(Budget { nodes: Some(CAGE_CHECK), updates: None });
    match solver.count(&empty, Some(2)) {
        Ok(n) => Ok(n == 1),
        Err(SolveError::Interrupted(e)) if e.reason == StopReason::Budget => Ok(false),
        Err(e @ SolveError::Interrupted(_)) => Err(GenerateError::Solve(e)),
        Err(_) => Ok(false),
    }
}

/// How many cage sets a killer puzzle of up to 9x9 tries for one whose cages alone have a unique
/// solution (a puzzle with no given digit), before it keeps the last and the givens it needs.
const CAGE_DRAWS: usize = 8;

/// The most nodes the check that cages alone give a unique solution may take.
const CAGE_CHECK: u64 = 200_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::size::Size;

    /// Made-up killer cages tile the grid with cages of 2 to 4 connected cells of distinct
    /// digits, none of one cell, their sums the full grid's; up to 9x9 most puzzles need no
    /// given digit at all.
    #[test]
    fn killer_cages_are_of_two_to_four_cells() {
        for shape in ["2x2", "2x3", "3x3", "4x4"] {
            let rules = Rules::new(shape.parse().expect("a size"));
            let side = rules.size().side();
            let matrix = Matrix::new(&rules);
            for seed in 0..40 {
                let full = Generator::general(&matrix).full_grid(seed).unwrap();
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let cages = random_cages(side, &full, &mut rng);
                let mut covered = vec![0; side * side];
                for (cage, sum) in &cages {
                    assert!((2..=4).contains(&cage.len()), "{shape} seed {seed}: a cage of {}", cage.len());
                    assert!(connected_without(cage, usize::MAX, side), "{shape}: {cage:?} connected");
                    let mut digits: Vec<u8> = cage.iter().map(|&c| full.get(c)).collect();
                    assert_eq!(*sum, digits.iter().map(|&d| u32::from(d)).sum::<u32>());
                    digits.sort_unstable();
                    digits.dedup();
                    assert_eq!(digits.len(), cage.len(), "{shape}: distinct digits");
                    cage.iter().for_each(|&c| covered[c] += 1);
                }
                assert!(covered.iter().all(|&n| n == 1), "{shape} seed {seed}: each cell once");
            }
        }
        let base = Rules::new("3x3".parse().expect("a size"));
        let extras = Extras { killer: true, ..Extras::default() };
        let givens_free = (0..10)
            .filter(|&seed| {
                let made =
                    generate_with_extras(&base, extras, Symmetry::None, seed, &mut |_, _| {}, None).unwrap();
                made.puzzle.cells().iter().all(|&d| d == 0)
            })
            .count();
        assert!(givens_free >= 3, "{givens_free} of 10 killer puzzles without givens");
    }

    /// Every side of 4 to 16 with every set of diagonal, windoku, anti-king and anti-knight has a
    /// full grid found, or one proved not to exist, within the fill's node budget
    /// ([`FILL_TOTAL`]): never a budget run out. The grids found obey their rules, and the
    /// rules proved without grids are exactly those listed (each proof is a whole search with
    /// the first row's digits fixed, which the renaming makes complete). Left out: sets of which
    /// a subset has no grid (they cannot have any). Five tests, which run side
    /// by side (10x10 in two: with windoku and without).
    fn sweep(sides: &[usize], windoku: Option<bool>) -> Vec<String> {
        use Constraint::Windows as W;
        let mut none: Vec<(usize, Vec<Constraint>)> = Vec::new();
        let mut proved = Vec::new();
        for &side in sides {
            for mask in 1..16u32 {
                let set: Vec<Constraint> = Constraint::ALL
                    .into_iter()
                    .enumerate()
                    .filter(|(k, _)| mask & 1 << k != 0)
                    .map(|(_, c)| c)
                    .collect();
                let within = |small: &[Constraint]| small.iter().all(|c| set.contains(c));
                if windoku.is_some_and(|w| w != set.contains(&W))
                    || none.iter().any(|(s, n)| *s == side && within(n))
                {
                    continue;
                }
                let mut rules = Rules::new(Size::of_side(side).expect("a side"));
                set.iter().for_each(|&c| rules.add(c));
                let matrix = Matrix::new(&rules);
                let mut generator = Generator::general(&matrix);
                // One seed for every set: a fill's time varies much with the seed (figures in
                // `benches/RESULTS.md`), and the budget must hold for each.
                match generator.full_grid(0) {
                    Ok(grid) => {
                        assert_eq!(grid.givens(), side * side, "{}: a full grid", rules.describe());
                        assert_eq!(grid.check(), Ok(()), "{}: {}", rules.describe(), grid.to_text());
                        assert_eq!(matrix.solver().count(&grid, Some(2)).unwrap(), 1);
                    }
                    Err(GenerateError::NoGrid(_)) => {
                        proved.push(rules.describe());
                        none.push((side, set));
                    }
                    Err(e) => panic!("{}: {e}", rules.describe()),
                }
            }
        }
        proved
    }

    #[test]
    fn every_rule_combination_has_a_grid_or_a_proof_of_none_to_9x9() {
        let proved = sweep(&[4, 6, 8, 9], None);
        let expected = [
            "4x4 anti-king",
            "4x4 diagonal anti-knight",
            "6x6 diagonal windoku",
            "6x6 diagonal anti-king",
            "6x6 diagonal anti-knight",
            "6x6 anti-king anti-knight",
            "8x8 windoku anti-knight",
            "8x8 diagonal anti-king anti-knight",
            "9x9 diagonal windoku anti-knight",
            "9x9 diagonal anti-king anti-knight",
            "9x9 windoku anti-king anti-knight",
        ];
        assert_eq!(proved, expected);
    }

    #[test]
    fn every_rule_combination_has_a_grid_or_a_proof_of_none_on_10x10() {
        assert_eq!(sweep(&[10], Some(false)), ["10x10 diagonal anti-king anti-knight"]);
    }

    #[test]
    fn every_rule_combination_with_windoku_has_a_grid_or_a_proof_of_none_on_10x10() {
        let expected = ["10x10 diagonal windoku anti-knight", "10x10 windoku anti-king anti-knight"];
        assert_eq!(sweep(&[10], Some(true)), expected);
    }

    #[test]
    fn every_rule_combination_has_a_grid_or_a_proof_of_none_on_12x12_and_14x14() {
        assert_eq!(sweep(&[12, 14], None), Vec::<String>::new());
    }

    #[test]
    fn every_rule_combination_has_a_grid_or_a_proof_of_none_on_15x15_and_16x16() {
        assert_eq!(sweep(&[15, 16], None), Vec::<String>::new());
    }

    /// A full grid is a function of the rules and the seed: the matrix remembers the last one
    /// found, a second generator on it takes that one for the same seed, and a generator on a
    /// new matrix of the rules finds the same again.
    #[test]
    fn full_grids_are_remembered_by_seed() {
        let mut rules = Rules::new(Size::of_side(12).expect("a side"));
        rules.add(Constraint::AntiKnight);
        let matrix = Matrix::new(&rules);
        let first = Generator::general(&matrix).full_grid(7).unwrap();
        assert_eq!(matrix.remembered_grid(7), Some(first.clone()));
        assert_eq!(matrix.remembered_grid(8), None);
        assert_eq!(Generator::general(&matrix).full_grid(7).unwrap(), first);
        assert_eq!(Generator::general(&Matrix::new(&rules)).full_grid(7).unwrap(), first);
        assert_ne!(Generator::general(&matrix).full_grid(8).unwrap(), first);
        assert_eq!(matrix.remembered_grid(7), None, "the last grid only");
    }

    /// Jigsaw maps that a box shift (and the half turn) keeps: the map is kept by every element
    /// of the group, a quarter of the cells or more left their box, and a grid the same shift
    /// keeps is found for 16x16 anti-knight, where free maps find none (`benches/RESULTS.md`),
    /// and obeys the map.
    #[test]
    fn maps_a_shift_keeps_have_grids_the_shift_keeps() {
        let mut base = Rules::new(Size::of_side(16).expect("a side"));
        base.add(Constraint::AntiKnight);
        let (side, cells) = (16, 256);
        let half_turn: Vec<usize> = (0..cells).rev().collect();
        let mut found = 0;
        for seed in 0..3 {
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            let (down, right) = *box_shifts(base.size()).choose(&mut rng).unwrap();
            let shift: Vec<usize> =
                (0..cells).map(|c| ((c / side + down) % side) * side + (c % side + right) % side).collect();
            let group = closure(cells, &[shift, half_turn.clone()]);
            assert!(group.len() >= 3, "the half turn, the shift and their product at least");
            let Some(rules) = moved_map(&base, &group, &mut rng) else { continue };
            assert!(group.iter().all(|g| keeps(rules.regions(), g)));
            let moved = rules.regions().iter().zip(base.regions()).filter(|(a, b)| a != b).count();
            assert!(moved >= cells / 8, "{moved} cells out of their box");
            let matrix = Matrix::new(&rules);
            let rules = Arc::new(rules);
            if let Some(grid) =
                symmetric_grid_under(&matrix, &rules, &[(down, right)], &mut rng, None).unwrap()
            {
                assert_eq!(grid.check(), Ok(()));
                assert_eq!(matrix.solver().count(&grid, Some(2)).unwrap(), 1);
                found += 1;
            }
        }
        assert!(found > 0, "no grid on three maps");
    }

    /// The candidates the techniques leave keep every solution: counts over them equal plain
    /// counts, and the full grid's digits are among them, on puzzles with few clues left.
    #[test]
    fn searching_over_the_candidates_left_counts_the_same() {
        for (shape, constraint) in [
            ("2x3", None),
            ("3x3", None),
            ("3x3", Some(Constraint::Windows)),
            ("2x4", Some(Constraint::AntiKnight)),
        ] {
            let mut rules = Rules::new(shape.parse().expect("a size"));
            if let Some(c) = constraint {
                rules.add(c);
            }
            let matrix = Matrix::new(&rules);
            let mut generator = Generator::new(&matrix);
            let logic = AnyShape::of(&rules);
            for seed in 0..3 {
                let full = generator.full_grid(seed).expect("a grid");
                let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
                let mut puzzle = full.clone();
                let cells = rules.size().cells();
                for cell in 0..cells {
                    if rng.random_ratio(3 + u32::try_from(seed).expect("small"), 12) {
                        puzzle.set(cell, 0);
                    }
                }
                let candidates = candidates(&logic, &puzzle).expect("the givens come from a full grid");
                for (cell, mask) in candidates.iter().enumerate() {
                    assert_ne!(mask & 1 << (full.get(cell) - 1), 0, "{} at {cell}", puzzle.to_text());
                }
                let mut solver = matrix.solver();
                let plain = solver.count(&puzzle, Some(20)).expect("no budget");
                solver.load(&puzzle).expect("the givens of a full grid");
                for (cell, &mask) in candidates.iter().enumerate() {
                    for digit in (1..=rules.size().side()).filter(|d| mask & 1 << (d - 1) == 0) {
                        let digit = u8::try_from(digit).expect("small");
                        solver.engine().exclude(matrix.option(cell, digit)).expect("an option of the matrix");
                    }
                }
                let narrowed = solver.engine().count_up_to(20).expect("no budget");
                assert_eq!(plain, narrowed, "{}", puzzle.to_text());
            }
        }
    }
}
