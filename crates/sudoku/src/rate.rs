//! Rating: a logical solver that applies techniques in order of difficulty, and the search effort.

use std::fmt;

use dlx_engine::Solver;

use crate::geometry::{Geometry, positions_where};
use crate::puzzle::{Puzzle, RuleError};
use crate::solve::{Effort, Matrix, load};
use crate::variant::Variant;

/// The techniques of the logical solver, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technique {
    /// A cell with one candidate left.
    NakedSingle,
    /// A digit with one place left in a unit.
    HiddenSingle,
    /// A digit whose places in one unit all lie in another unit (pointing and claiming).
    LockedCandidates,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// Two digits with the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit with three candidates between them.
    NakedTriple,
    /// Three digits with three places between them in a unit.
    HiddenTriple,
    /// A digit in two rows (columns) confined to the same two columns (rows).
    XWing,
    /// The same with three rows (columns).
    Swordfish,
}

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; 9] = [
        Technique::NakedSingle,
        Technique::HiddenSingle,
        Technique::LockedCandidates,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Swordfish,
    ];

    /// The name used in output.
    pub fn name(self) -> &'static str {
        match self {
            Technique::NakedSingle => "naked single",
            Technique::HiddenSingle => "hidden single",
            Technique::LockedCandidates => "locked candidates",
            Technique::NakedPair => "naked pair",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::HiddenTriple => "hidden triple",
            Technique::XWing => "x-wing",
            Technique::Swordfish => "swordfish",
        }
    }

    /// The level of a puzzle whose hardest technique this is.
    pub fn level(self) -> Level {
        match self {
            Technique::NakedSingle | Technique::HiddenSingle => Level::Easy,
            Technique::LockedCandidates => Level::Medium,
            Technique::NakedPair
            | Technique::HiddenPair
            | Technique::NakedTriple
            | Technique::HiddenTriple
            | Technique::XWing
            | Technique::Swordfish => Level::Hard,
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How hard a puzzle is for a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Up to locked candidates.
    Medium,
    /// Up to naked and hidden pairs and triples, X-wings and swordfish.
    Hard,
    /// Those techniques are not enough: guessing (or harder logic) is needed.
    Expert,
}

/// The level with this name, as [`Level::name`] spells it.
impl std::str::FromStr for Level {
    type Err = crate::variant::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| crate::variant::UnknownName::new("level", s))
    }
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// What the level allows, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Level::Easy => "Singles only",
            Level::Medium => "Up to locked candidates",
            Level::Hard => "Up to pairs, triples, X-wing and swordfish",
            Level::Expert => "Needs more than those techniques",
        }
    }

    /// The name used in output.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the logical solver made of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Logic {
    /// The grid as far as logic took it (full when solved).
    pub grid: Puzzle,
    /// Whether the techniques solved it.
    pub solved: bool,
    /// How often each technique was applied, in the order of [`Technique::ALL`].
    pub counts: [u32; 9],
}

impl Logic {
    /// The hardest technique applied, if any.
    pub fn hardest(&self) -> Option<Technique> {
        Technique::ALL.iter().rev().copied().find(|&t| self.counts[t as usize] > 0)
    }

    /// The name of the hardest technique needed: `guessing` when the techniques did not solve the
    /// puzzle, `none` when it was already full.
    pub fn hardest_name(&self) -> &'static str {
        match (self.solved, self.hardest()) {
            (false, _) => "guessing",
            (true, Some(t)) => t.name(),
            (true, None) => "none",
        }
    }

    /// The level: expert when unsolved, else the level of the hardest technique.
    pub fn level(&self) -> Level {
        if !self.solved { Level::Expert } else { self.hardest().map_or(Level::Easy, Technique::level) }
    }
}

/// A rating: the logical verdict and the search effort.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The logical solver's result.
    pub logic: Logic,
    /// Nodes and guesses of the uniqueness search (count up to 2), averaged over seeded random
    /// branching orders: a machine-independent measure of search effort.
    pub nodes: f64,
    /// See `nodes`.
    pub guesses: f64,
    /// The number of solutions, counting no further than 2.
    pub solutions: u64,
}

/// Seeds of the random branching orders the effort is averaged over.
const EFFORT_SEEDS: u64 = 8;

/// Rates a puzzle: the logical solver, then the search effort. `matrix` must be the puzzle's
/// variant's. For many puzzles, a [`Rater`] reuses its tables and its solver.
pub fn rate(matrix: &Matrix, puzzle: &Puzzle) -> Result<Rating, RuleError> {
    Rater::new(matrix).rate(puzzle)
}

/// Applies the given techniques, easiest first, until the grid is solved or none applies.
/// Every placement and elimination is sound: each follows from the rules and the givens.
pub fn solve_logically(
    puzzle: &Puzzle,
    variant: Variant,
    techniques: &[Technique],
) -> Result<Logic, RuleError> {
    solve_with(Geometry::of(variant), puzzle, techniques)
}

/// Rates puzzles of one variant, reusing its tables and one engine solver: nothing is built per
/// puzzle.
#[derive(Debug)]
pub struct Rater<'m> {
    geometry: &'static Geometry,
    solver: Solver<'m>,
}

impl<'m> Rater<'m> {
    /// A rater for the matrix's variant.
    pub fn new(matrix: &'m Matrix) -> Self {
        Rater { geometry: Geometry::of(matrix.variant()), solver: Solver::new(matrix.problem()) }
    }

    /// The logical solver alone, with the given techniques.
    pub fn logic(&self, puzzle: &Puzzle, techniques: &[Technique]) -> Result<Logic, RuleError> {
        solve_with(self.geometry, puzzle, techniques)
    }

    /// The logical verdict with every technique, and the search effort.
    pub fn rate(&mut self, puzzle: &Puzzle) -> Result<Rating, RuleError> {
        let logic = solve_with(self.geometry, puzzle, &Technique::ALL)?;
        let mut total = Effort::default();
        let mut solutions = 0;
        // Loaded once: every run starts from the givens again.
        load(&mut self.solver, self.geometry.variant(), puzzle)?;
        for seed in 0..EFFORT_SEEDS {
            self.solver.set_seed(Some(seed));
            solutions = self.solver.count_up_to(2).expect("no budget is set");
            let effort = Effort::from(self.solver.stats());
            total.nodes += effort.nodes;
            total.guesses += effort.guesses;
        }
        self.solver.reset();
        let n = EFFORT_SEEDS as f64;
        Ok(Rating { logic, nodes: total.nodes as f64 / n, guesses: total.guesses as f64 / n, solutions })
    }
}

/// The `k`-subsets of `0..n`, for `k` = 2, 3 and `n` <= 9: `combinations()[k - 2][n]`, made
/// on first use.
fn combinations() -> &'static [Vec<Vec<[u8; 3]>>; 2] {
    static COMBINATIONS: std::sync::OnceLock<[Vec<Vec<[u8; 3]>>; 2]> = std::sync::OnceLock::new();
    COMBINATIONS.get_or_init(|| [2, 3].map(|k| (0..=9).map(|n| subsets(n, k)).collect()))
}

const ALL_DIGITS: u16 = 0b11_1111_1110;
const EVEN_DIGITS: u16 = 0b01_0101_0100;

/// Applies `techniques`, easiest first, to `puzzle` until it is solved or none applies.
fn solve_with(
    geometry: &'static Geometry,
    puzzle: &Puzzle,
    techniques: &[Technique],
) -> Result<Logic, RuleError> {
    puzzle.check(geometry.variant())?;
    let mut board = Board { geometry, grid: Puzzle::empty(), cand: [0; 81] };
    for cell in 0..81 {
        board.cand[cell] = if puzzle.is_even_cell(cell) { EVEN_DIGITS } else { ALL_DIGITS };
        board.grid.set_even_cell(cell, puzzle.is_even_cell(cell));
    }
    for cell in 0..81 {
        let digit = puzzle.get(cell);
        if digit != 0 {
            board.place(cell, digit);
        }
    }
    let mut counts = [0u32; 9];
    loop {
        if board.grid.is_full() || (0..81).any(|c| board.grid.get(c) == 0 && board.cand[c] == 0) {
            break;
        }
        match techniques.iter().copied().find(|&t| board.apply(t)) {
            Some(t) => counts[t as usize] += 1,
            None => break,
        }
    }
    Ok(Logic { grid: board.grid, solved: board.grid.is_full(), counts })
}

/// The positions 0-8 set in a 9-bit mask.
fn positions(mask: u16) -> impl Iterator<Item = usize> {
    (0..9).filter(move |k| mask & (1 << k) != 0)
}

/// The candidate grid of the logical solver.
struct Board {
    geometry: &'static Geometry,
    grid: Puzzle,
    /// Bit `d` set: digit `d` is still possible (empty cells only).
    cand: [u16; 81],
}

impl Board {
    fn place(&mut self, cell: usize, digit: u8) {
        self.grid.set(cell, digit);
        self.cand[cell] = 0;
        let geometry = self.geometry;
        for &u in geometry.units_of(cell) {
            for &other in geometry.unit_cells(u) {
                self.cand[other] &= !(1 << digit);
            }
        }
    }

    /// Removes candidates `mask` from `cell`; whether anything changed.
    fn eliminate(&mut self, cell: usize, mask: u16) -> bool {
        let before = self.cand[cell];
        self.cand[cell] &= !mask;
        self.cand[cell] != before
    }

    /// The positions in unit `u` where `digit` is still a candidate, as a 9-bit mask.
    fn places(&self, u: usize, digit: u8) -> u16 {
        positions_where(self.geometry.unit_cells(u), |c| self.cand[c] & (1 << digit) != 0)
    }

    /// Applies one step of a technique; whether it made progress.
    fn apply(&mut self, t: Technique) -> bool {
        match t {
            Technique::NakedSingle => self.naked_single(),
            Technique::HiddenSingle => self.hidden_single(),
            Technique::LockedCandidates => self.locked_candidates(),
            Technique::NakedPair => self.naked_subset(2),
            Technique::HiddenPair => self.hidden_subset(2),
            Technique::NakedTriple => self.naked_subset(3),
            Technique::HiddenTriple => self.hidden_subset(3),
            Technique::XWing => self.fish(2),
            Technique::Swordfish => self.fish(3),
        }
    }

    fn naked_single(&mut self) -> bool {
        for cell in 0..81 {
            let c = self.cand[cell];
            if self.grid.get(cell) == 0 && c.count_ones() == 1 {
                self.place(cell, u8::try_from(c.trailing_zeros()).expect("a digit"));
                return true;
            }
        }
        false
    }

    fn hidden_single(&mut self) -> bool {
        for u in 0..self.geometry.units().len() {
            for digit in 1..=9 {
                let places = self.places(u, digit);
                if places.count_ones() == 1 {
                    let cell = self.geometry.unit_cells(u)[places.trailing_zeros() as usize];
                    self.place(cell, digit);
                    return true;
                }
            }
        }
        false
    }

    /// For two units U and V: if every place of a digit in U lies in V, the digit cannot be
    /// elsewhere in V (pointing and claiming, and their diagonal kin).
    fn locked_candidates(&mut self) -> bool {
        let geometry = self.geometry;
        for &(u, v, shared, rest_of_v) in geometry.pairs() {
            for digit in 1..=9 {
                let places = self.places(u, digit);
                if places.count_ones() < 2 || places & !shared != 0 {
                    continue;
                }
                let mut progress = false;
                for k in positions(rest_of_v) {
                    progress |= self.eliminate(geometry.unit_cells(v)[k], 1 << digit);
                }
                if progress {
                    return true;
                }
            }
        }
        false
    }

    /// `size` empty cells of a unit whose candidates together are `size` digits: those digits
    /// leave the unit's other cells.
    fn naked_subset(&mut self, size: usize) -> bool {
        for unit in self.geometry.all_unit_cells() {
            let mut empty = [0usize; 9];
            let mut n = 0;
            for &cell in unit {
                if self.grid.get(cell) == 0 {
                    empty[n] = cell;
                    n += 1;
                }
            }
            for combo in &combinations()[size - 2][n] {
                let chosen = &combo[..size];
                let union = chosen.iter().fold(0u16, |m, &k| m | self.cand[empty[usize::from(k)]]);
                if union.count_ones() as usize != size {
                    continue;
                }
                let mut progress = false;
                for (k, &cell) in empty[..n].iter().enumerate() {
                    if !chosen.iter().any(|&c| usize::from(c) == k) {
                        progress |= self.eliminate(cell, union);
                    }
                }
                if progress {
                    return true;
                }
            }
        }
        false
    }

    /// `size` digits whose places in a unit are `size` cells together: those cells hold nothing
    /// else.
    fn hidden_subset(&mut self, size: usize) -> bool {
        let geometry = self.geometry;
        for u in 0..geometry.units().len() {
            let mut digits = [0u8; 9];
            let mut places = [0u16; 9];
            let mut n = 0;
            for digit in 1..=9 {
                let p = self.places(u, digit);
                if p != 0 {
                    digits[n] = digit;
                    places[n] = p;
                    n += 1;
                }
            }
            for combo in &combinations()[size - 2][n] {
                let chosen = &combo[..size];
                let cells = chosen.iter().fold(0u16, |m, &k| m | places[usize::from(k)]);
                if cells.count_ones() as usize != size {
                    continue;
                }
                let keep = chosen.iter().fold(0u16, |m, &k| m | (1 << digits[usize::from(k)]));
                let mut progress = false;
                for k in positions(cells) {
                    progress |= self.eliminate(geometry.unit_cells(u)[k], ALL_DIGITS & !keep);
                }
                if progress {
                    return true;
                }
            }
        }
        false
    }

    /// A digit confined, in `size` base lines, to `size` cross lines: it leaves the cross lines'
    /// other cells (X-wing for 2, swordfish for 3).
    fn fish(&mut self, size: usize) -> bool {
        let geometry = self.geometry;
        for (base, cross) in [(0, 1), (1, 0)] {
            for digit in 1..=9 {
                // Base lines (by number) where the digit has 2..=size places, and those places.
                let mut numbers = [0usize; 9];
                let mut places = [0u16; 9];
                let mut n = 0;
                for line in 0..9 {
                    let p = self.places(geometry.line(base, line), digit);
                    if (2..=size).contains(&(p.count_ones() as usize)) {
                        numbers[n] = line;
                        places[n] = p;
                        n += 1;
                    }
                }
                for combo in &combinations()[size - 2][n] {
                    let chosen = &combo[..size];
                    let covers = chosen.iter().fold(0u16, |m, &k| m | places[usize::from(k)]);
                    if covers.count_ones() as usize != size {
                        continue;
                    }
                    let base_lines = chosen.iter().fold(0u16, |m, &k| m | 1 << numbers[usize::from(k)]);
                    let mut progress = false;
                    // Along a cross line, position k is the cell on base line k.
                    for cross_line in positions(covers) {
                        let unit = geometry.unit_cells(geometry.line(cross, cross_line));
                        for k in positions(!base_lines & 0x1ff) {
                            progress |= self.eliminate(unit[k], 1 << digit);
                        }
                    }
                    if progress {
                        return true;
                    }
                }
            }
        }
        false
    }
}

/// All `k`-element subsets of `0..n`, as sorted index lists (k <= 3).
fn subsets(n: usize, k: usize) -> Vec<[u8; 3]> {
    let mut out = Vec::new();
    let idx = |i: usize| u8::try_from(i).expect("n <= 9");
    match k {
        2 => {
            for a in 0..n {
                for b in a + 1..n {
                    out.push([idx(a), idx(b), 0]);
                }
            }
        }
        _ => {
            for a in 0..n {
                for b in a + 1..n {
                    for c in b + 1..n {
                        out.push([idx(a), idx(b), idx(c)]);
                    }
                }
            }
        }
    }
    out
}
