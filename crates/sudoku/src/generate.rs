//! Generating puzzles: a random full grid, then clues removed (with their symmetric partners)
//! while the solution stays unique.
//!
//! Each removal is checked by first-solution searches on one reused solver ("is there a solution
//! with another digit in this cell?"), except where the grid's unavoidable sets (see the
//! `unavoidable` module) already show the puzzle would be ambiguous, or singles placed from the
//! clues left fill the removed cells again (see the `singles` module), which shows it stays unique.
//! On rotational classic puzzles, 5.9 of the 41 clue groups per puzzle are left to search.

use std::fmt;

use dlx_engine::{Budget, Solver, TieBreak};
use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::puzzle::Puzzle;
use crate::rate::{Level, Logic, Technique, solve_logically};
use crate::singles::{Geometry, Grid};
use crate::solve::Matrix;
use crate::unavoidable::{self, ALL_CELLS, CellSet, Swap, cell_set, set_of};
use crate::variant::{UnknownName, Variant};

/// Options a random fill may try before it starts over from a new seed. Measured on 3,000 seeds:
/// a diagonal grid takes 203 options at the median but 1,121 on average (175,687 at worst); with
/// restarts after 200 the average is 302. Classic grids: 91 on average, 88 with restarts.
const FILL_BUDGET: u64 = 200;

/// Restarts after which a random fill goes on without a budget.
const FILL_ATTEMPTS: u32 = 64;

/// A map of the grid onto itself, on `(row, column)`.
type CellMap = fn(usize, usize) -> (usize, usize);

/// The symmetry of the clue pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Symmetry {
    /// No symmetry.
    None,
    /// 180-degree rotation, as printed puzzles use.
    #[default]
    Rotational,
    /// 90-degree rotation (and so 180 and 270 too).
    Rotate90,
    /// Left-right mirror.
    Mirror,
    /// Top-bottom flip.
    Flip,
    /// Reflection in the main diagonal.
    Diagonal,
    /// Reflection in the anti-diagonal.
    AntiDiagonal,
    /// All eight symmetries of the square.
    Dihedral,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::None,
        Symmetry::Rotational,
        Symmetry::Rotate90,
        Symmetry::Mirror,
        Symmetry::Flip,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
        Symmetry::Dihedral,
    ];

    /// What the symmetry maps, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Symmetry::None => "No symmetry",
            Symmetry::Rotational => "180-degree rotation",
            Symmetry::Rotate90 => "90-degree rotation",
            Symmetry::Mirror => "Left-right mirror",
            Symmetry::Flip => "Top-bottom flip",
            Symmetry::Diagonal => "Reflection in the main diagonal",
            Symmetry::AntiDiagonal => "Reflection in the anti-diagonal",
            Symmetry::Dihedral => "All eight symmetries of the square",
        }
    }

    /// The name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Rotate90 => "rotate90",
            Symmetry::Mirror => "mirror",
            Symmetry::Flip => "flip",
            Symmetry::Diagonal => "diagonal",
            Symmetry::AntiDiagonal => "antidiagonal",
            Symmetry::Dihedral => "dihedral",
        }
    }

    /// The maps of cells that generate the symmetry group (each `(row, col) -> (row, col)`).
    fn generators(self) -> &'static [CellMap] {
        match self {
            Symmetry::None => &[],
            Symmetry::Rotational => &[|r, c| (8 - r, 8 - c)],
            Symmetry::Rotate90 => &[|r, c| (c, 8 - r)],
            Symmetry::Mirror => &[|r, c| (r, 8 - c)],
            Symmetry::Flip => &[|r, c| (8 - r, c)],
            Symmetry::Diagonal => &[|r, c| (c, r)],
            Symmetry::AntiDiagonal => &[|r, c| (8 - c, 8 - r)],
            Symmetry::Dihedral => &[|r, c| (c, 8 - r), |r, c| (r, 8 - c)],
        }
    }

    /// The orbit of a cell: the cells the symmetry maps it to, itself included, sorted.
    pub fn orbit(self, cell: usize) -> Vec<usize> {
        let mut orbit = vec![cell];
        let mut k = 0;
        while k < orbit.len() {
            let (r, c) = (orbit[k] / 9, orbit[k] % 9);
            for g in self.generators() {
                let (r2, c2) = g(r, c);
                let image = r2 * 9 + c2;
                if !orbit.contains(&image) {
                    orbit.push(image);
                }
            }
            k += 1;
        }
        orbit.sort_unstable();
        orbit
    }

    /// The cells split into orbits, in order of their first cell.
    pub fn orbits(self) -> Vec<Vec<usize>> {
        let mut seen = [false; 81];
        let mut orbits = Vec::new();
        for cell in 0..81 {
            if !seen[cell] {
                let orbit = self.orbit(cell);
                for &c in &orbit {
                    seen[c] = true;
                }
                orbits.push(orbit);
            }
        }
        orbits
    }

    /// Whether the givens (and even markers) of a puzzle have this symmetry.
    pub fn holds_for(self, puzzle: &Puzzle) -> bool {
        (0..81).all(|cell| {
            self.orbit(cell).iter().all(|&other| {
                (puzzle.get(other) != 0) == (puzzle.get(cell) != 0)
                    && puzzle.is_even_cell(other) == puzzle.is_even_cell(cell)
            })
        })
    }
}

/// The symmetry with this name, as [`Symmetry::name`] spells it.
impl std::str::FromStr for Symmetry {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Symmetry::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| UnknownName::new("symmetry", s))
    }
}

impl fmt::Display for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A generated puzzle and its unique solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: givens, and even markers for the even-cell variant.
    pub puzzle: Puzzle,
    /// Its unique solution.
    pub solution: Puzzle,
}

/// A reproducible run of puzzles: puzzle `index` of the run depends only on the run's seed, its
/// symmetry and its level, whatever other puzzles are made, in whatever order, on whatever
/// threads. `dlx generate --seed S` makes puzzles `0, 1, 2, ...` of `Run::new(S)` (with its
/// `--symmetry` and `--difficulty`).
///
/// ```
/// use dlx_sudoku::{Generator, Level, Matrix, Run, Variant};
/// let matrix = Matrix::new(Variant::Classic);
/// let mut generator = Generator::new(&matrix);
/// let run = Run { level: Some(Level::Easy), ..Run::new(42) };
/// let made = generator.generate_in(&run, 0).expect("an easy puzzle within the attempts");
/// assert_eq!(made.logic.expect("rated to check the level").level(), Level::Easy);
/// assert_eq!(generator.generate_in(&run, 0).unwrap().generated, made.generated);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    /// The run's seed.
    pub seed: u64,
    /// The symmetry of every puzzle's clues.
    pub symmetry: Symmetry,
    /// When set, each puzzle is generated again from a new seed (derived from the puzzle's) until
    /// its [`Level`] is this one.
    pub level: Option<Level>,
    /// How many puzzles each index may generate to reach the level (at least one is made).
    pub max_attempts: u64,
}

impl Run {
    /// The attempts allowed per puzzle by [`Run::new`].
    pub const DEFAULT_ATTEMPTS: u64 = 2000;

    /// A run with this seed: rotational symmetry, any level.
    pub fn new(seed: u64) -> Run {
        Run { seed, symmetry: Symmetry::Rotational, level: None, max_attempts: Run::DEFAULT_ATTEMPTS }
    }

    /// The seed of attempt `attempt` (from 0) at puzzle `index`: SplitMix64 of the run's seed and
    /// the index for the first, and of that seed and the attempt for the others.
    pub fn seed_of(&self, index: u64, attempt: u64) -> u64 {
        let first = mix(self.seed, index);
        if attempt == 0 { first } else { mix(first, attempt) }
    }
}

/// SplitMix64: a seed derived from another and an index.
fn mix(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Puzzle `index` of a [`Run`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numbered {
    /// Its index in the run.
    pub index: u64,
    /// The seed it was generated from (see [`Run::seed_of`]).
    pub seed: u64,
    /// How many puzzles were generated to reach it (1 without a level).
    pub attempts: u64,
    /// The puzzle and its solution.
    pub generated: Generated,
    /// The logical solver's verdict, when the run has a level (which it then matches).
    pub logic: Option<Logic>,
}

/// No puzzle of a [`Run`]'s level came out within its attempts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("puzzle {}: no {level} puzzle in {attempts} attempts", index + 1)]
pub struct NotFound {
    /// The puzzle's index in the run.
    pub index: u64,
    /// The level asked for.
    pub level: Level,
    /// The attempts made.
    pub attempts: u64,
    /// The seed of the last attempt.
    pub last_seed: u64,
}

/// Generates minimal puzzles with a unique solution. Reuses one engine solver for everything.
///
/// A generator reuses its solver and scratch space from one puzzle to the next; its puzzles
/// depend on the seed alone.
#[derive(Debug)]
pub struct Generator<'m> {
    variant: Variant,
    solver: Solver<'m>,
    /// The clue groups (orbits) of the last symmetry asked for, computed once for it, as lists
    /// and as sets of cells.
    orbits: Vec<Vec<usize>>,
    orbit_sets: Vec<CellSet>,
    orbits_of: Option<Symmetry>,
    /// Scratch: the removal order (indices into `orbits`), and which of them are kept.
    order: Vec<usize>,
    kept: Vec<usize>,
    /// Scratch: the empty even cells, in the order their markers are tried.
    marked: Vec<usize>,
    /// Scratch: the other solutions near the full grid (see [`unavoidable`]), and the cells of
    /// those that a puzzle must not leave free.
    swaps: Vec<Swap>,
    sets: Vec<CellSet>,
    /// Scratch: the pieces applied while thinning out.
    stack: Stack,
    /// The variant's units as sets of cells, to find singles with.
    geometry: Geometry,
}

impl<'m> Generator<'m> {
    /// A generator for the matrix's variant.
    pub fn new(matrix: &'m Matrix) -> Self {
        Generator {
            variant: matrix.variant(),
            solver: {
                // Its checks are first-solution searches, which the last-conflict rule suits (see
                // `SudokuSolver`). Measured against the earliest item (2,000 rotational puzzles,
                // three runs each): even-cell generation 15% faster, diagonal 14%, classic within
                // noise (1% slower). The fill of the full grid breaks its ties by the same rule,
                // so the two rules make different puzzles from the same seed.
                let mut solver = Solver::new(matrix.problem());
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
            geometry: Geometry::new(matrix.variant()),
        }
    }

    /// A random full grid of the variant, from the engine's seeded random branching.
    ///
    /// A random fill is usually quick but now and then wanders into a large dead subtree (the
    /// search effort is heavy-tailed), so a fill that has tried 200 options starts over with a
    /// fresh seed drawn from `seed`; the grid depends on `seed` alone, as before.
    pub fn full_grid(&mut self, seed: u64) -> Puzzle {
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

    /// Puzzle `index` of `run`: generated from [`Run::seed_of`]`(index, 0)`, and, when the run
    /// has a level, again from the next attempts' seeds until the logical solver gives that level
    /// or [`Run::max_attempts`] puzzles were made.
    pub fn generate_in(&mut self, run: &Run, index: u64) -> Result<Numbered, NotFound> {
        let attempts = if run.level.is_some() { run.max_attempts.max(1) } else { 1 };
        let mut last_seed = run.seed_of(index, 0);
        for attempt in 0..attempts {
            let seed = run.seed_of(index, attempt);
            last_seed = seed;
            let generated = self.generate(run.symmetry, seed);
            let Some(level) = run.level else {
                return Ok(Numbered { index, seed, attempts: 1, generated, logic: None });
            };
            let logic = solve_logically(&generated.puzzle, self.variant, &Technique::ALL)
                .expect("generated puzzles obey the rules");
            if logic.level() == level {
                return Ok(Numbered { index, seed, attempts: attempt + 1, generated, logic: Some(logic) });
            }
        }
        let level = run.level.unwrap_or(Level::Expert);
        Err(NotFound { index, level, attempts, last_seed })
    }

    /// A minimal puzzle with a unique solution and the given symmetry, reproducibly from `seed`.
    ///
    /// Minimal: removing any further clue group (orbit under the symmetry) makes it ambiguous; for
    /// the even-cell variant, so does removing any even marker.
    pub fn generate(&mut self, symmetry: Symmetry, seed: u64) -> Generated {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let solution = self.full_grid(rng.random());
        if self.orbits_of != Some(symmetry) {
            self.orbits = symmetry.orbits();
            self.orbit_sets = self.orbits.iter().map(|orbit| set_of(orbit)).collect();
            self.orbits_of = Some(symmetry);
        }
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(0..self.orbits.len());
        order.shuffle(&mut rng);

        self.solver.reset();
        let grid = Grid::new(&solution);
        // Even-cell variant: every even cell starts marked (its odd options excluded), while the
        // clues are thinned out.
        let all_marked = if self.variant.has_even_cells() { grid.even_cells() } else { 0 };
        for cell in (0..81).filter(|&c| all_marked & cell_set(c) != 0) {
            for odd in [1, 3, 5, 7, 9] {
                self.solver.exclude(Matrix::option(cell, odd)).expect("options of the matrix");
            }
        }
        let mut kept = std::mem::take(&mut self.kept);
        kept.clear();
        // Unavoidable sets: the changed cells of the swaps (in the even-cell variant, of those
        // that keep every even cell even: all are marked for now).
        unavoidable::swaps(&solution, &self.geometry, self.variant, &mut self.swaps);
        let even_cells = self.variant.has_even_cells();
        self.sets.clear();
        self.sets.extend(self.swaps.iter().filter(|s| !even_cells || s.to_odd == 0).map(|s| s.cells));
        let mut clues = Clues {
            geometry: &self.geometry,
            grid: &grid,
            marked: all_marked,
            orbits: &self.orbits,
            orbit_sets: &self.orbit_sets,
            order: &order,
            sets: &mut self.sets,
            given: ALL_CELLS,
        };
        self.stack.clear(&self.solver);
        thin_out(&mut self.solver, &mut clues, 0..order.len(), &mut kept, &mut self.stack);
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
            let clue_cells =
                (0..81).filter(|&c| puzzle.get(c) != 0).fold(0, |set, cell| set | cell_set(cell));
            self.sets.clear();
            self.sets.extend(self.swaps.iter().filter(|s| s.cells & clue_cells == 0).map(|s| s.to_odd));
            // None is empty: such a swap would be another solution even with every marker, and
            // the clues were chosen for a unique solution with every marker.
            debug_assert!(self.sets.iter().all(|&set| set != 0), "a swap keeps the puzzle ambiguous");
            let marked = set_of(&cells);
            let mut markers = Markers {
                geometry: &self.geometry,
                grid: &grid,
                clues: clue_cells,
                cells: &cells,
                sets: &mut self.sets,
                marked,
            };
            self.stack.clear(&self.solver);
            thin_out(&mut self.solver, &mut markers, 0..cells.len(), &mut kept, &mut self.stack);
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

/// Information the generator takes out of a puzzle piece by piece, keeping only the pieces without
/// which the solution would no longer be unique.
trait Pieces {
    /// Applies piece `k` on the solver; returns how many restrictions that took.
    fn apply(&self, solver: &mut Solver<'_>, k: usize) -> usize;

    /// Whether, without piece `k`, a piece-free unavoidable set shows the solution would not be
    /// unique: no search needed.
    fn refuted(&self, k: usize) -> bool;

    /// Whether, without piece `k`, the pieces present force it back through singles (see the
    /// `singles` module), so that the solution stays unique: no search needed.
    fn implied(&self, k: usize) -> bool;

    /// With every other piece it needs applied, but not `k`: whether the solution stays unique
    /// (a search). When not, it may leave the search's exclusions and paused levels on the
    /// solver, for the next [`Stack::catch_up`] to take back (see [`has_solution_without`]).
    fn unique_without(&self, solver: &mut Solver<'_>, k: usize) -> bool;

    /// Takes piece `k` out for good: it was found removable. Pieces are tested in order.
    fn remove(&mut self, k: usize);

    /// Keeps piece `k` for good: its removal would make the solution ambiguous.
    fn keep(&mut self, k: usize);
}

/// Clue groups (orbits under the symmetry) of a full grid, piece `k` being `orbits[order[k]]`.
struct Clues<'a> {
    geometry: &'a Geometry,
    grid: &'a Grid,
    /// The cells carrying an even marker (every even cell, for the even-cell variant).
    marked: CellSet,
    orbits: &'a [Vec<usize>],
    /// The cells of each orbit, as a set.
    orbit_sets: &'a [CellSet],
    order: &'a [usize],
    /// Unavoidable sets of the grid: a puzzle giving no clue in one of them is ambiguous. Those
    /// that a kept group meets are dropped.
    sets: &'a mut Vec<CellSet>,
    /// The cells still given or not yet tested.
    given: CellSet,
}

impl Clues<'_> {
    /// The cells of group `k`.
    fn group(&self, k: usize) -> &[usize] {
        &self.orbits[self.order[k]]
    }

    /// The cells of group `k`, as a set.
    fn cells(&self, k: usize) -> CellSet {
        self.orbit_sets[self.order[k]]
    }
}

impl Pieces for Clues<'_> {
    fn apply(&self, solver: &mut Solver<'_>, k: usize) -> usize {
        for &cell in self.group(k) {
            solver.force(Matrix::option(cell, self.grid.digit(cell))).expect("clues of one solution agree");
        }
        self.group(k).len()
    }

    /// Without the group, when an unavoidable set holds no clue, the puzzle is ambiguous.
    /// Measured over 600 rotational puzzles, this finds 61% of the groups that a classic puzzle
    /// keeps, 37% for diagonal puzzles and 76% for even-cell ones.
    fn refuted(&self, k: usize) -> bool {
        leaves_a_set_empty(self.sets, self.given & !self.cells(k))
    }

    /// Most groups are settled by the first round alone (a cell whose digit is already a single),
    /// which is much cheaper to ask cell by cell.
    fn implied(&self, k: usize) -> bool {
        let present = self.given & !self.cells(k);
        self.group(k).iter().all(|&cell| self.grid.is_single(self.geometry, present, self.marked, cell))
            || self.grid.derives(self.geometry, present, self.marked, self.cells(k))
    }

    /// Any other solution differs from the grid in one of the group's cells, so it is enough to
    /// ask, cell by cell, whether a solution exists with another digit there.
    fn unique_without(&self, solver: &mut Solver<'_>, k: usize) -> bool {
        self.group(k).iter().all(|&cell| !has_solution_without(solver, [self.grid.digit(cell)], cell))
    }

    fn remove(&mut self, k: usize) {
        self.given &= !self.cells(k);
    }

    /// An unavoidable set that the group meets can no longer be left without a clue.
    fn keep(&mut self, k: usize) {
        let cells = self.cells(k);
        self.sets.retain(|&set| set & cells == 0);
    }
}

/// Even markers of empty cells whose digit is even.
struct Markers<'a> {
    geometry: &'a Geometry,
    grid: &'a Grid,
    /// The cells of the clues, which stay.
    clues: CellSet,
    cells: &'a [usize],
    /// The cells that swaps changing no clue turn odd: a puzzle with no marker in one of them is
    /// ambiguous. Those that a kept marker meets are dropped.
    sets: &'a mut Vec<CellSet>,
    /// The cells still marked or not yet tested.
    marked: CellSet,
}

impl Pieces for Markers<'_> {
    /// The marker excludes the cell's odd digits (those that a given has not already ruled out).
    fn apply(&self, solver: &mut Solver<'_>, k: usize) -> usize {
        [1, 3, 5, 7, 9]
            .into_iter()
            .filter(|&odd| solver.exclude(Matrix::option(self.cells[k], odd)).expect("options of the matrix"))
            .count()
    }

    /// A swap that changes no clue and turns odd only cells without a marker is another
    /// solution.
    fn refuted(&self, k: usize) -> bool {
        leaves_a_set_empty(self.sets, self.marked & !cell_set(self.cells[k]))
    }

    fn implied(&self, k: usize) -> bool {
        let cell = self.cells[k];
        let marked = self.marked & !cell_set(cell);
        self.grid.is_single(self.geometry, self.clues, marked, cell)
            || self.grid.derives(self.geometry, self.clues, marked, cell_set(cell))
    }

    /// The puzzle with the marker is unique, so any other solution without it puts an odd digit
    /// in the cell: ask whether one exists.
    fn unique_without(&self, solver: &mut Solver<'_>, k: usize) -> bool {
        !has_solution_without(solver, [2, 4, 6, 8], self.cells[k])
    }

    fn remove(&mut self, k: usize) {
        self.marked &= !cell_set(self.cells[k]);
    }

    fn keep(&mut self, k: usize) {
        let cell = cell_set(self.cells[k]);
        self.sets.retain(|&set| set & cell == 0);
    }
}

/// Whether one of the unavoidable `sets` has none of its cells among `present`, the cells of the
/// pieces still there.
fn leaves_a_set_empty(sets: &[CellSet], present: CellSet) -> bool {
    sets.iter().any(|&set| set & present == 0)
}

/// Whether a solution exists in which `cell` holds none of `digits`: a first-solution search with
/// those options excluded for the time being.
///
/// When one is found, the exclusions stay, and so do the levels of the paused search: the next
/// [`Stack::catch_up`] takes them back with the pieces it takes back, by undoing them or by
/// copying the initial links, whichever costs less (see [`Solver::undo_to`]), where undoing them
/// at once would always unwind the search level by level. Measured on rotational classic puzzles
/// (5.4 such searches per puzzle, 57 levels each): 5% more puzzles per second.
fn has_solution_without<const N: usize>(solver: &mut Solver<'_>, digits: [u8; N], cell: usize) -> bool {
    let excluded = digits
        .into_iter()
        .filter(|&digit| solver.exclude(Matrix::option(cell, digit)).expect("options of the matrix"))
        .count();
    let found = solver.count_up_to(1).expect("no budget is set") > 0;
    if !found {
        for _ in 0..excluded {
            solver.undo();
        }
    }
    found
}

/// The pieces that thinning out wants applied on the solver (above the state it started from), and
/// those that are: the solver catches up only when a search needs it.
///
/// Many tests need no search, because an unavoidable set decides them, and a piece pushed and
/// popped again with no search in between need never touch the solver. Catching up undoes the
/// applied pieces above the longest common start of the two stacks and applies the wanted ones
/// above it. Measured on rotational classic puzzles against applying every push and pop at once:
/// 6% fewer instructions (callgrind, 400 puzzles: 449M against 477M) and 6% less time (`cargo bench
/// --bench generate`); diagonal and even-cell puzzles within noise.
#[derive(Debug, Default)]
struct Stack {
    /// The pieces wanted, in the order they are to be applied.
    wanted: Vec<usize>,
    /// The pieces applied on the solver, in order, each with the number of restrictions it took.
    applied: Vec<(usize, usize)>,
    /// The number of restrictions on the solver below the pieces.
    below: usize,
}

impl Stack {
    /// Starts over, above the solver's present state.
    fn clear(&mut self, solver: &Solver<'_>) {
        self.wanted.clear();
        self.applied.clear();
        self.below = solver.restriction_count();
    }

    fn push(&mut self, k: usize) {
        self.wanted.push(k);
    }

    /// Takes off the last `n` pieces wanted.
    fn pop(&mut self, n: usize) {
        self.wanted.truncate(self.wanted.len() - n);
    }

    /// Brings the solver to the wanted pieces, taking back any test's exclusions left above them
    /// (see [`has_solution_without`]). Taking back many pieces above a few (as at the end of a
    /// range's first part) costs less by copying the solver's initial links and applying the few
    /// again, which [`Solver::undo_to`] does when so.
    fn catch_up<P: Pieces>(&mut self, solver: &mut Solver<'_>, pieces: &P) {
        let common = self.applied.iter().zip(&self.wanted).take_while(|&(&(a, _), &w)| a == w).count();
        solver.undo_to(self.below + self.applied[..common].iter().map(|&(_, n)| n).sum::<usize>());
        self.applied.truncate(common);
        for &k in &self.wanted[common..] {
            self.applied.push((k, pieces.apply(solver, k)));
        }
    }
}

/// Tries to remove each piece of `range`, in order, keeping those whose removal would make the
/// solution ambiguous: pushes their indices onto `kept` and onto the wanted pieces of `stack`.
///
/// On entry the kept pieces before the range and every piece after it are wanted, and none in it:
/// the state in which its first piece is tested. Halving the range keeps that true without
/// lifting every kept piece off the stack for every test: the second half is pushed while the
/// first is worked through, then taken off from under the first half's kept pieces, so each
/// piece is pushed and popped a logarithmic number of times instead of once per later test. The
/// solver follows the stack only where a search needs it.
fn thin_out<P: Pieces>(
    solver: &mut Solver<'_>,
    pieces: &mut P,
    range: std::ops::Range<usize>,
    kept: &mut Vec<usize>,
    stack: &mut Stack,
) {
    if range.len() <= 1 {
        for k in range {
            let removable = if pieces.refuted(k) {
                debug_assert!(
                    {
                        stack.catch_up(solver, pieces);
                        !pieces.unique_without(solver, k)
                    },
                    "an unavoidable set without a piece, yet the solution is unique"
                );
                false
            } else if pieces.implied(k) {
                debug_assert!(
                    {
                        stack.catch_up(solver, pieces);
                        pieces.unique_without(solver, k)
                    },
                    "singles force the piece back, yet the solution is not unique without it"
                );
                true
            } else {
                stack.catch_up(solver, pieces);
                pieces.unique_without(solver, k)
            };
            if removable {
                pieces.remove(k);
            } else {
                pieces.keep(k);
                stack.push(k);
                kept.push(k);
            }
        }
        return;
    }
    let mid = range.start + range.len() / 2;
    for k in mid..range.end {
        stack.push(k);
    }
    let before = kept.len();
    thin_out(solver, pieces, range.start..mid, kept, stack);
    stack.pop(kept.len() - before + range.end - mid);
    for &k in &kept[before..] {
        stack.push(k);
    }
    thin_out(solver, pieces, mid..range.end, kept, stack);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A step on a [`Stack`]: push a clue group (unless it is wanted already), pop some, catch the
    /// solver up, or search for a solution with another digit in a cell (which, when it finds one,
    /// leaves its exclusion and its paused search on the solver).
    #[derive(Clone, Debug)]
    enum Step {
        Push(usize),
        Pop(usize),
        CatchUp,
        Search(usize),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            3 => (0usize..41).prop_map(Step::Push),
            2 => (0usize..5).prop_map(Step::Pop),
            1 => Just(Step::CatchUp),
            1 => (0usize..81).prop_map(Step::Search),
        ]
    }

    proptest! {
        // Each case fills a grid, forces up to 81 clues and runs a few searches, in a debug build:
        // 4 seconds for 32 cases.
        #![proptest_config(ProptestConfig::with_cases(32))]

        /// Whatever the pushes, pops and searches, once caught up the solver has exactly the wanted
        /// groups' clues forced above the restrictions it started with (here the first row's cells
        /// without one wrong digit each), and sound links.
        #[test]
        fn a_caught_up_solver_has_exactly_the_wanted_pieces(
            seed in any::<u64>(),
            steps in prop::collection::vec(step(), 1..60),
        ) {
            let matrix = Matrix::new(Variant::Classic);
            let solution = Generator::new(&matrix).full_grid(seed);
            let orbits = Symmetry::Rotational.orbits();
            let order: Vec<usize> = (0..orbits.len()).collect();
            let orbit_sets: Vec<CellSet> = orbits.iter().map(|orbit| set_of(orbit)).collect();
            let geometry = Geometry::new(Variant::Classic);
            let grid = Grid::new(&solution);
            let clues = Clues { geometry: &geometry, grid: &grid, marked: 0, orbits: &orbits, orbit_sets: &orbit_sets, order: &order, sets: &mut Vec::new(), given: ALL_CELLS };
            let mut solver = Solver::new(matrix.problem());
            for cell in 0..9 {
                let wrong = solution.get(cell) % 9 + 1;
                prop_assert!(solver.exclude(Matrix::option(cell, wrong)).unwrap());
            }
            let mut stack = Stack::default();
            stack.clear(&solver);
            for step in steps.into_iter().chain([Step::CatchUp]) {
                match step {
                    Step::Push(k) if !stack.wanted.contains(&k) => stack.push(k),
                    Step::Push(_) => {}
                    Step::Pop(n) => stack.pop(n.min(stack.wanted.len())),
                    Step::Search(cell) => {
                        has_solution_without(&mut solver, [solution.get(cell)], cell);
                    }
                    Step::CatchUp => {
                        stack.catch_up(&mut solver, &clues);
                        let mut forced: Vec<usize> = solver.forced().map(|o| o.index()).collect();
                        forced.sort_unstable();
                        let mut wanted: Vec<usize> = stack
                            .wanted
                            .iter()
                            .flat_map(|&k| clues.group(k).iter().map(|&c| Matrix::option(c, solution.get(c))))
                            .map(|o| o.index())
                            .collect();
                        wanted.sort_unstable();
                        prop_assert_eq!(solver.restriction_count(), 9 + wanted.len());
                        prop_assert_eq!(forced, wanted);
                        prop_assert_eq!(solver.verify_links(), Ok(()));
                    }
                }
            }
        }
    }
}
