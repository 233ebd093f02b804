//! The exact-cover encoding of any [`Rules`], and a reusable solver of puzzles under them.
//!
//! Items: one per cell ("the cell is filled"), one per unit and digit ("the unit holds the
//! digit"); for a pair of cells a forbidden move apart that no unit joins, a secondary item per
//! digit (at most one of the two holds it); for a killer cage, one item "the cage has its digits"
//! and one per digit "the digit is placed in the cage, or left out of it". Options: one per cell
//! and digit its parity allows, covering the cell, its units' items of the digit, its move items
//! of the digit and its cage's item of the digit; and one per cage and set of different digits
//! with the cage's sum and size, covering the cage and the items of the digits it leaves out.
//!
//! A cage's cells then take different digits (each digit item is covered once), none of them left
//! out, so exactly the set's: the sum holds with one option per set of digits, not one per
//! placement of them (a cage of 5 cells summing to 25 has 12 sets and 1,440 placements). Without
//! colors, the plain path of the engine solves killer puzzles.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, OnceLock};

use dlx_engine::{ItemId, OptionId, Problem, ProblemBuilder, Solver, TieBreak};

use crate::cover::bits::{Bits, Outcome, Refused, Scratch, Stops};
use crate::cover::engine::{EFFORT_SEEDS, Effort, names, write_dlx};
use crate::model::puzzle::{Puzzle, RuleError};
use crate::model::rules::{Parity, Rules, combinations};

/// The most cells of a grid whose rating's effort is averaged over seeded branching orders (see
/// [`SudokuSolver::rating_effort`]).
const AVERAGED_CELLS: usize = 81;

/// Why a puzzle of any size could not be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The givens break the rules.
    #[error(transparent)]
    Rules(#[from] RuleError),
    /// The search was cut short by a budget or cancellation.
    #[error(transparent)]
    Interrupted(#[from] dlx_engine::Interrupted),
    /// The puzzle's rules are not the matrix's.
    #[error("the puzzle is a {puzzle} grid, the matrix a {matrix} grid")]
    OtherRules {
        /// The puzzle's rules, described.
        puzzle: String,
        /// The matrix's rules, described.
        matrix: String,
    },
}

/// The exact-cover matrix of one set of [`Rules`], built once and shared by any number of
/// solvers, and by every puzzle of those rules whatever its even and odd marks (the solver
/// excludes the digits they rule out, puzzle by puzzle).
#[derive(Debug, Clone)]
pub struct Matrix {
    rules: Rules,
    /// The side of the grid (digits per cell).
    side: usize,
    /// The engine's problem, built when first needed: the bit sets answer most puzzles without
    /// it, and a batch of jigsaw puzzles makes a matrix for each.
    problem: OnceLock<Problem>,
    /// The cell and digit of each placing option: option `cell * side + digit - 1` (the first
    /// ones; cage options follow).
    placements: Vec<(u16, u8)>,
    /// The matrix as bit sets, made when a search first takes them (see `bits`); `None` for
    /// rules with cages.
    bits: OnceLock<Option<Arc<Bits>>>,
    /// The last full grid a generator found on this matrix (or a clone of it), with its seed:
    /// the same search would find it again. So a run's check that its rules have grids finds
    /// the first puzzle's grid, which the first puzzle then takes (see `Generator::full_grid`).
    last_grid: Arc<Mutex<Option<(u64, Puzzle)>>>,
}

impl Matrix {
    /// The matrix of the rules (which must [`validate`](Rules::validate): windows that do not fit
    /// are left out). The engine's problem is encoded when first asked for
    /// ([`problem`](Self::problem)); the bit sets' search does without it.
    pub fn new(rules: &Rules) -> Matrix {
        let size = rules.size();
        let (side, cells) = (size.side(), size.cells());
        let placements = (0..cells)
            .flat_map(|c| {
                let cell = u16::try_from(c).expect("at most 625 cells");
                (1..=side).map(move |d| (cell, u8::try_from(d).expect("sides are at most 25")))
            })
            .collect();
        let (last_grid, bits, problem) = (Arc::default(), OnceLock::new(), OnceLock::new());
        Matrix { rules: rules.clone(), side, problem, placements, bits, last_grid }
    }

    /// The engine's problem of `rules`: an option per cell and digit, in that order, then the
    /// cages' options.
    fn build(rules: &Rules) -> Problem {
        let size = rules.size();
        let (side, cells) = (size.side(), size.cells());
        let mut b = ProblemBuilder::new();
        let valid = "names are valid and distinct";
        let cell_items: Vec<ItemId> =
            (0..cells).map(|c| b.primary(names::cell(c, side)).expect(valid)).collect();
        let units = rules.units();
        // Each unit's item per digit (`unit * side + digit - 1`), and each cell's units in order.
        let mut unit_items = Vec::with_capacity(units.len() * side);
        let mut units_of: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (k, &(unit, ref unit_cells)) in units.iter().enumerate() {
            for d in 0..side {
                unit_items.push(b.primary(names::unit(unit, d + 1)).expect(valid));
            }
            for &c in unit_cells {
                units_of[c].push(k);
            }
        }
        // Cells a forbidden move apart that share no unit: a secondary item per pair and digit
        // (`pair * side + digit - 1`), and each cell's pairs in order.
        let share_unit = |a: usize, z: usize| units_of[a].iter().any(|k| units_of[z].contains(k));
        let mut move_items = Vec::new();
        let mut moves_of: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (a, z, _) in rules.move_pairs() {
            if share_unit(a, z) {
                continue;
            }
            let pair = move_items.len() / side;
            for d in 0..side {
                move_items.push(b.secondary(names::apart(a, z, side, d + 1)).expect(valid));
            }
            moves_of[a].push(pair);
            moves_of[z].push(pair);
        }
        // Each cage's item and its items per digit, and each cell's cages in order.
        let mut cage_items = Vec::new();
        let mut cages_of: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (k, cage) in rules.cages().iter().enumerate() {
            let whole = b.primary(format!("K{}", k + 1)).expect(valid);
            let digits: Vec<ItemId> =
                (0..side).map(|d| b.primary(format!("K{}#{}", k + 1, d + 1)).expect(valid)).collect();
            for &c in &cage.cells {
                cages_of[c].push(k);
            }
            cage_items.push((whole, digits));
        }
        // Every cell gets every digit: even and odd marks are each puzzle's restrictions, applied
        // by the solver, so that one matrix serves puzzles whose marks differ.
        // An option's items: its cell, its units' for the digit, its pairs', its cages'.
        let mut items = Vec::new();
        for c in 0..cells {
            for d in 0..side {
                items.clear();
                items.push(cell_items[c]);
                items.extend(units_of[c].iter().map(|&k| unit_items[k * side + d]));
                items.extend(moves_of[c].iter().map(|&p| move_items[p * side + d]));
                items.extend(cages_of[c].iter().map(|&k| cage_items[k].1[d]));
                let option = b.option(items.iter().copied()).expect("each option is valid");
                debug_assert_eq!(option.index(), c * side + d, "the placements come first, in order");
            }
        }
        for (cage, (whole, digits)) in rules.cages().iter().zip(&cage_items) {
            for set in combinations(side, cage.cells.len(), cage.sum) {
                let out = (0..side).filter(|d| set & 1 << d == 0).map(|d| digits[d]);
                b.option(std::iter::once(*whole).chain(out)).expect("each option is valid");
            }
        }
        b.build()
    }

    /// The full grid [`Matrix::remember_grid`] was last given, if it was given for this seed.
    pub(crate) fn remembered_grid(&self, seed: u64) -> Option<Puzzle> {
        let last = self.last_grid.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        last.as_ref().filter(|(s, _)| *s == seed).map(|(_, grid)| grid.clone())
    }

    /// Remembers the full grid a generator found from this seed (in place of the last).
    pub(crate) fn remember_grid(&self, seed: u64, grid: &Puzzle) {
        let mut last = self.last_grid.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *last = Some((seed, grid.clone()));
    }

    /// The rules encoded. The matrix serves every puzzle of the same rules but for their even
    /// and odd marks ([`Matrix::fits`]).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Whether the matrix serves puzzles of `rules`: the same as its own but for the even and
    /// odd marks, which the solver applies puzzle by puzzle.
    pub fn fits(&self, rules: &Rules) -> bool {
        self.rules.same_but_parity(rules)
    }

    /// The matrix as bit sets, when the rules allow them (no cages).
    fn bits(&self) -> Option<&Bits> {
        self.bits.get_or_init(|| Bits::new(&self.rules).map(Arc::new)).as_deref()
    }

    /// [`fits`](Self::fits), as an error that says both rules.
    fn check_fits(&self, grid: &Puzzle) -> Result<(), SolveError> {
        if self.fits(grid.rules()) {
            return Ok(());
        }
        Err(SolveError::OtherRules { puzzle: grid.rules().describe(), matrix: self.rules.describe() })
    }

    /// The engine's problem.
    pub fn problem(&self) -> &Problem {
        self.problem.get_or_init(|| Matrix::build(&self.rules))
    }

    /// The option placing `digit` in `cell` (whatever the cell's parity: see [`SudokuSolver`]).
    /// Panics outside the grid.
    pub fn option(&self, cell: usize, digit: u8) -> OptionId {
        let side = self.rules.size().side();
        assert!(
            cell < side * side && (1..=side).contains(&usize::from(digit)),
            "no cell {cell} digit {digit}"
        );
        self.option_at(cell, digit)
    }

    /// [`Matrix::option`] for a cell and digit known to be in range (a puzzle's, whose
    /// length and digits its type keeps to its size): the placements come first, a cell's
    /// digits in order.
    #[inline]
    fn option_at(&self, cell: usize, digit: u8) -> OptionId {
        OptionId::from_u32(u32::try_from(cell * self.side + usize::from(digit) - 1).expect("few options"))
    }

    /// The cell and digit an option places (`None` for a cage's option).
    pub fn placement(&self, option: OptionId) -> Option<(usize, u8)> {
        self.placements.get(option.index()).map(|&(c, d)| (usize::from(c), d))
    }

    /// A solver over this matrix.
    pub fn solver(&self) -> SudokuSolver<'_> {
        SudokuSolver {
            matrix: self,
            solver: None,
            refused: false,
            effort: None,
            cancel: None,
            search: Search::Auto,
            budget: dlx_engine::Budget::default(),
            scratch: Scratch::default(),
        }
    }

    /// The puzzle in Knuth's `.dlx` format: the items, and the options still open (for a given
    /// cell, only its digit; for a marked cell, only digits of its parity). Counting its
    /// solutions with any exact-cover solver counts the puzzle's.
    pub fn puzzle_to_dlx(&self, grid: &Puzzle) -> String {
        // A 9x9 variant's puzzle is named as the 81-character line writes it: `e` for an empty
        // cell marked even.
        let title = match grid.rules().variant() {
            Some(variant) if grid.cells().len() == 81 => {
                let line: String = (0..81)
                    .map(|cell| match grid.get(cell) {
                        0 if grid.rules().parity(cell) == Parity::Even => 'e',
                        0 => '.',
                        d => char::from(b'0' + d),
                    })
                    .collect();
                format!("sudoku ({variant}) {line}")
            }
            _ => format!("sudoku ({}) {}", grid.rules().describe(), grid.to_line()),
        };
        write_dlx(self.problem(), &title, |option| match self.placement(option) {
            Some((cell, digit)) => match grid.get(cell) {
                0 => grid.rules().parity(cell).allows(digit),
                given => given == digit,
            },
            None => true,
        })
    }
}

/// The verdict on a puzzle of any size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique(Puzzle),
    /// More than one: two different solutions as witnesses.
    Multiple(Puzzle, Puzzle),
}

/// Which search answers a puzzle's first solution, uniqueness and counts. Every search gives the
/// same answers (solutions, counts, verdicts); they differ in speed and in their trees, so in
/// `--stats`' nodes and guesses. Iterating over solutions, a rating's search effort and long
/// counts on several threads are always the engine's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Search {
    /// The search found faster for the rules (`benches/RESULTS.md`): today the bit sets
    /// wherever they apply (rules without killer cages), the engine for cages.
    #[default]
    Auto,
    /// The engine's dancing links, always: Algorithm X itself, as on the puzzle's `.dlx` form.
    Engine,
    /// Algorithm X on bit sets of the matrix, with forced items and locked candidates applied in
    /// bulk at every node, where the rules allow (no killer cages); the engine's links otherwise.
    Bits,
}

impl Search {
    /// Every search.
    pub const ALL: [Search; 3] = [Search::Auto, Search::Engine, Search::Bits];

    /// The search's name: `auto`, `dlx` or `bits`.
    pub fn name(self) -> &'static str {
        match self {
            Search::Auto => "auto",
            Search::Engine => "dlx",
            Search::Bits => "bits",
        }
    }

    /// Whether it takes the bit sets (where the rules allow them).
    fn takes_bits(self) -> bool {
        match self {
            Search::Auto | Search::Bits => true,
            Search::Engine => false,
        }
    }
}

/// The search with this name, as [`Search::name`] spells it.
impl std::str::FromStr for Search {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Search::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| format!("unknown search '{s}' (expected auto, dlx or bits)"))
    }
}

/// Solves puzzles of one set of rules on a reused engine solver: each puzzle's givens are forced
/// options and the digits its even and odd marks rule out excluded ones, undone before the next
/// puzzle. Where the rules allow, first solutions, uniqueness and counts take the bit sets'
/// search instead (see [`Search`]), on frames kept from one puzzle to the next.
#[derive(Debug)]
pub struct SudokuSolver<'m> {
    matrix: &'m Matrix,
    /// The engine's solver, made when a search first needs it (one the bit sets answer does
    /// not: a batch of puzzles of other rules than a variant's makes a solver a puzzle).
    solver: Option<Solver<'m>>,
    /// The last puzzle was refused before any search (its rules are not the matrix's, or its
    /// givens break them): it took no effort, whatever the engine kept of the search before.
    refused: bool,
    /// The effort of the last search where another solver made it (a long count's).
    effort: Option<Effort>,
    /// The flag that stops the searches, for the solvers a long count makes.
    cancel: Option<dlx_engine::CancelFlag>,
    /// Which search answers.
    search: Search,
    /// The bound on each search.
    budget: dlx_engine::Budget,
    /// The bit sets' frames.
    scratch: Scratch,
}

impl<'m> SudokuSolver<'m> {
    /// The matrix solved over.
    pub fn matrix(&self) -> &'m Matrix {
        self.matrix
    }

    /// The effort of the last search: none when the last puzzle was refused before searching.
    pub fn effort(&self) -> Effort {
        if self.refused {
            Effort::default()
        } else {
            self.effort
                .unwrap_or_else(|| self.solver.as_ref().map_or_else(Effort::default, |s| s.stats().into()))
        }
    }

    /// Makes the following searches stop when `flag` is set (they then fail with
    /// [`SolveError::Interrupted`]).
    pub fn set_cancel_flag(&mut self, flag: Option<dlx_engine::CancelFlag>) {
        if let Some(solver) = &mut self.solver {
            solver.set_cancel_flag(flag.clone());
        }
        self.cancel = flag;
    }

    /// The flag that stops the searches.
    pub(crate) fn cancel_flag(&self) -> Option<&dlx_engine::CancelFlag> {
        self.cancel.as_ref()
    }

    /// Records the effort of the last search, made by another solver.
    pub(crate) fn set_effort(&mut self, effort: Effort) {
        self.effort = Some(effort);
    }

    /// Bounds each following search (nodes, updates): one that needs more fails with
    /// [`SolveError::Interrupted`], its reason [`StopReason::Budget`](dlx_engine::StopReason),
    /// never with a partial answer. [`Budget::default`](dlx_engine::Budget) bounds nothing.
    pub fn set_budget(&mut self, budget: dlx_engine::Budget) {
        if let Some(solver) = &mut self.solver {
            solver.set_budget(budget);
        }
        self.budget = budget;
    }

    /// Chooses the search that answers the following puzzles (see [`Search`]).
    pub fn set_search(&mut self, search: Search) {
        self.search = search;
    }

    /// The search of the bit sets for up to `limit` solutions, keeping the first two when `keep`
    /// is given; `None` when it does not apply (the rules have cages, or [`Search`] says not).
    fn run_bits(
        &mut self,
        grid: &Puzzle,
        limit: u64,
        keep: Option<&mut Vec<Puzzle>>,
    ) -> Option<Result<u64, SolveError>> {
        if !self.search.takes_bits() {
            return None;
        }
        let bits = self.matrix.bits()?;
        if let Err(e) = self.matrix.check_fits(grid) {
            self.refused = true;
            return Some(Err(e));
        }
        let stops = Stops { nodes: self.budget.nodes, cancel: self.cancel.as_ref() };
        let mut push = keep.map(|keep| move |p| keep.push(p));
        let found = push.as_mut().map(|f| f as &mut dyn FnMut(Puzzle));
        let Outcome { solutions, nodes, guesses, stopped } =
            bits.search(grid, limit, stops, &mut self.scratch, found);
        self.refused = stopped.is_err();
        self.effort = Some(Effort { nodes, guesses });
        Some(match stopped {
            Ok(None) => Ok(solutions),
            Ok(Some(reason)) => Err(dlx_engine::Interrupted { reason, solutions: solutions.into() }.into()),
            // A given that is not open breaks a rule, which the check names.
            Err(Refused) => match grid.check() {
                Err(e) => Err(e.into()),
                Ok(()) => Ok(0),
            },
        })
    }

    /// Every solution, lazily; an item is an error only when the search was cut short (as the
    /// engine's iterator does), so a collected `Result` is never part of the answer.
    pub fn solutions<'s>(
        &'s mut self,
        grid: &Puzzle,
    ) -> Result<impl Iterator<Item = Result<Puzzle, SolveError>> + use<'s, 'm>, SolveError> {
        self.engine().set_tie_break(TieBreak::Earliest);
        self.load(grid)?;
        let (base, matrix) = (grid.clone(), self.matrix);
        Ok(self.engine().solutions().map(move |options| {
            let mut full = base.clone();
            for option in options? {
                if let Some((cell, digit)) = matrix.placement(option) {
                    full.set(cell, digit);
                }
            }
            Ok(full)
        }))
    }

    /// The engine's solver, for the generator's exclusions.
    pub(crate) fn engine(&mut self) -> &mut Solver<'m> {
        let (matrix, cancel, budget) = (self.matrix, &self.cancel, self.budget);
        self.solver.get_or_insert_with(|| {
            let mut solver = Solver::new(matrix.problem());
            solver.set_cancel_flag(cancel.clone());
            solver.set_budget(budget);
            solver
        })
    }

    /// Resets the solver, excludes the digits the even and odd marks rule out, and forces the
    /// givens; a given the engine refuses breaks a rule, which the check then names.
    pub(crate) fn load(&mut self, grid: &Puzzle) -> Result<(), SolveError> {
        self.refused = true;
        self.effort = None;
        self.load_refusing(grid)?;
        self.refused = false;
        Ok(())
    }

    /// [`load`](Self::load), but for keeping `refused`.
    fn load_refusing(&mut self, grid: &Puzzle) -> Result<(), SolveError> {
        let matrix = self.matrix;
        matrix.check_fits(grid)?;
        self.engine().reset();
        let rules = grid.rules();
        let side = u8::try_from(rules.size().side()).expect("sides are at most 25");
        for (cell, &parity) in rules.parities().iter().enumerate() {
            // The digits the mark rules out: the odd ones from 1, or the even ones from 2.
            let first = match parity {
                Parity::Any => continue,
                Parity::Even => 1,
                Parity::Odd => 2,
            };
            for digit in (first..=side).step_by(2) {
                self.engine().exclude(matrix.option_at(cell, digit)).expect("an option of the matrix");
            }
        }
        for (cell, &digit) in grid.cells().iter().enumerate() {
            if digit != 0 && self.engine().force(matrix.option_at(cell, digit)).is_err() {
                return Err(grid.check().expect_err("a given the engine refuses breaks a rule").into());
            }
        }
        // Units, parities and moves are the engine's items and options; a cage's sum is not:
        // the check names givens over it, rather than the search finding no solution.
        if !self.matrix.rules.cages().is_empty() {
            grid.check()?;
        }
        Ok(())
    }

    /// Visits up to `limit` solutions, filling the first two; returns how many.
    fn run(&mut self, grid: &Puzzle, limit: u64, found: &mut Vec<Puzzle>) -> Result<u64, SolveError> {
        if let Some(answer) = self.run_bits(grid, limit, Some(found)) {
            return answer;
        }
        self.engine().set_tie_break(if limit <= 2 { TieBreak::LastConflict } else { TieBreak::Earliest });
        self.load(grid)?;
        let mut seen = 0u64;
        let matrix = self.matrix;
        if limit > 0 {
            self.engine().for_each(|s| {
                if found.len() < 2 {
                    let mut full = grid.clone();
                    for option in s.options() {
                        if let Some((cell, digit)) = matrix.placement(option) {
                            full.set(cell, digit);
                        }
                    }
                    found.push(full);
                }
                seen += 1;
                if seen >= limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            })?;
        }
        Ok(seen)
    }

    /// The first solution found, if any.
    pub fn first(&mut self, grid: &Puzzle) -> Result<Option<Puzzle>, SolveError> {
        let mut found = Vec::new();
        self.run(grid, 1, &mut found)?;
        Ok(found.pop())
    }

    /// None, unique (with the solution) or multiple (with two witnesses).
    pub fn check_unique(&mut self, grid: &Puzzle) -> Result<Uniqueness, SolveError> {
        let mut found = Vec::new();
        let n = self.run(grid, 2, &mut found)?;
        let mut found = found.into_iter();
        Ok(match (n, found.next(), found.next()) {
            (1, Some(one), _) => Uniqueness::Unique(one),
            (2, Some(one), Some(two)) => Uniqueness::Multiple(one, two),
            _ => Uniqueness::None,
        })
    }

    /// The effort of the uniqueness search (a count up to 2), and the number of solutions,
    /// counting no further than 2. On grids of up to 81 cells it is averaged over the seeded
    /// branching orders that a 9x9 puzzle's rating averages over, so a classic puzzle gets the
    /// same figures in either form. Above, it is one search that breaks ties by the last
    /// conflict: random orders cost many times as much there, the more the larger the grid
    /// (the figures are in `benches/RESULTS.md`). Either way it is the engine's search, whatever
    /// [`Search`] the solver takes, so that ratings keep one scale.
    pub fn rating_effort(&mut self, grid: &Puzzle) -> Result<(f64, f64, u64), SolveError> {
        if self.matrix.rules.size().cells() > AVERAGED_CELLS {
            // The engine's effort, whatever the search chosen: ratings keep their scale.
            let search = std::mem::replace(&mut self.search, Search::Engine);
            let solutions = self.count(grid, Some(2));
            self.search = search;
            let solutions = solutions?;
            let effort = self.effort();
            return Ok((effort.nodes as f64, effort.guesses as f64, solutions));
        }
        self.engine().set_tie_break(TieBreak::Earliest);
        self.load(grid)?;
        let (mut nodes, mut guesses, mut solutions) = (0u64, 0u64, 0);
        let mut counted = Ok(());
        for seed in 0..EFFORT_SEEDS {
            self.engine().set_seed(Some(seed));
            match self.engine().count_up_to(2) {
                Ok(n) => solutions = n,
                Err(e) => {
                    counted = Err(e);
                    break;
                }
            }
            let effort = self.effort();
            nodes += effort.nodes;
            guesses += effort.guesses;
        }
        self.engine().set_seed(None);
        self.engine().reset();
        counted?;
        let n = EFFORT_SEEDS as f64;
        Ok((nodes as f64 / n, guesses as f64 / n, solutions))
    }

    /// How many seeded branching orders [`SudokuSolver::rating_effort`] averages over: 8 on
    /// grids of up to 81 cells, 1 above.
    pub(crate) fn effort_orders(&self) -> u64 {
        if self.matrix.rules.size().cells() > AVERAGED_CELLS { 1 } else { EFFORT_SEEDS }
    }

    /// The number of solutions, counting no further than `limit` when given.
    pub fn count(&mut self, grid: &Puzzle, limit: Option<u64>) -> Result<u64, SolveError> {
        if let Some(answer) = self.run_bits(grid, limit.unwrap_or(u64::MAX), None) {
            return answer;
        }
        let check = limit.is_some_and(|limit| limit <= 2);
        self.engine().set_tie_break(if check { TieBreak::LastConflict } else { TieBreak::Earliest });
        self.load(grid)?;
        Ok(match limit {
            Some(limit) => self.engine().count_up_to(limit)?,
            None => self.engine().count()?,
        })
    }
}
