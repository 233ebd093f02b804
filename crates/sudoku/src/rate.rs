//! Rating: a logical solver that applies techniques in order of difficulty, and the search effort.

use std::fmt;

use dlx_engine::Solver;

use crate::puzzle::{Puzzle, RuleError};
use crate::solve::{Effort, Matrix};
use crate::variant::{Unit, Variant};

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
            _ => Level::Hard,
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

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

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

/// Rates a puzzle of `variant`: the logical solver, then the search effort on `matrix` (which must
/// be the variant's).
pub fn rate(matrix: &Matrix, puzzle: &Puzzle) -> Result<Rating, RuleError> {
    let logic = solve_logically(puzzle, matrix.variant(), &Technique::ALL)?;
    let mut solver = Solver::new(matrix.problem());
    let mut total = Effort::default();
    let mut solutions = 0;
    for seed in 0..EFFORT_SEEDS {
        solver.set_seed(Some(seed));
        solutions = crate::generate::count_up_to_2(&mut solver, puzzle);
        let effort = Effort::from(solver.stats());
        total.nodes += effort.nodes;
        total.guesses += effort.guesses;
    }
    let n = EFFORT_SEEDS as f64;
    Ok(Rating { logic, nodes: total.nodes as f64 / n, guesses: total.guesses as f64 / n, solutions })
}

/// The candidate grid of the logical solver.
struct Board {
    grid: Puzzle,
    /// Bit `d` set: digit `d` is still possible (empty cells only).
    cand: [u16; 81],
    units: Vec<[usize; 9]>,
    /// For each cell, the indices of the units holding it.
    cell_units: Vec<Vec<usize>>,
    /// The units of rows then columns, for fish.
    lines: [Vec<usize>; 2],
}

const ALL_DIGITS: u16 = 0b11_1111_1110;
const EVEN_DIGITS: u16 = 0b01_0101_0100;

/// Applies the given techniques, easiest first, until the grid is solved or none applies.
/// Every placement and elimination is sound: each follows from the rules and the givens.
pub fn solve_logically(
    puzzle: &Puzzle,
    variant: Variant,
    techniques: &[Technique],
) -> Result<Logic, RuleError> {
    puzzle.check(variant)?;
    let units: Vec<[usize; 9]> = variant.units().iter().map(|u| u.cells()).collect();
    let mut cell_units = vec![Vec::new(); 81];
    for (k, unit) in units.iter().enumerate() {
        for &cell in unit {
            cell_units[cell].push(k);
        }
    }
    let lines = [
        variant
            .units()
            .iter()
            .enumerate()
            .filter(|(_, u)| matches!(u, Unit::Row(_)))
            .map(|(k, _)| k)
            .collect(),
        variant
            .units()
            .iter()
            .enumerate()
            .filter(|(_, u)| matches!(u, Unit::Column(_)))
            .map(|(k, _)| k)
            .collect(),
    ];
    let mut board = Board { grid: Puzzle::empty(), cand: [0; 81], units, cell_units, lines };
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
        let applied = techniques.iter().copied().find(|&t| board.apply(t));
        match applied {
            Some(t) => counts[t as usize] += 1,
            None => break,
        }
    }
    Ok(Logic { grid: board.grid, solved: board.grid.is_full(), counts })
}

fn bits(mask: u16) -> impl Iterator<Item = u8> {
    (1..=9u8).filter(move |d| mask & (1 << d) != 0)
}

impl Board {
    fn place(&mut self, cell: usize, digit: u8) {
        self.grid.set(cell, digit);
        self.cand[cell] = 0;
        for k in 0..self.cell_units[cell].len() {
            for other in self.units[self.cell_units[cell][k]] {
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

    /// The cells of unit `u` where `digit` is still a candidate, as a 9-bit mask of positions.
    fn places(&self, u: usize, digit: u8) -> u16 {
        let mut m = 0;
        for (k, &cell) in self.units[u].iter().enumerate() {
            if self.cand[cell] & (1 << digit) != 0 {
                m |= 1 << k;
            }
        }
        m
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
        for u in 0..self.units.len() {
            for digit in 1..=9 {
                let places = self.places(u, digit);
                if places.count_ones() == 1 {
                    let cell = self.units[u][places.trailing_zeros() as usize];
                    self.place(cell, digit);
                    return true;
                }
            }
        }
        false
    }

    /// For two units U and V: if every place of a digit in U lies in V, the digit cannot be
    /// elsewhere in V.
    fn locked_candidates(&mut self) -> bool {
        for u in 0..self.units.len() {
            for v in 0..self.units.len() {
                if u == v {
                    continue;
                }
                let shared: Vec<usize> =
                    self.units[u].iter().copied().filter(|c| self.units[v].contains(c)).collect();
                if shared.len() < 2 {
                    continue;
                }
                for digit in 1..=9 {
                    let places: Vec<usize> =
                        self.units[u].iter().copied().filter(|&c| self.cand[c] & (1 << digit) != 0).collect();
                    if places.len() < 2 || !places.iter().all(|c| shared.contains(c)) {
                        continue;
                    }
                    let mut progress = false;
                    for cell in self.units[v] {
                        if !shared.contains(&cell) {
                            progress |= self.eliminate(cell, 1 << digit);
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

    /// `size` empty cells of a unit whose candidates together are `size` digits: those digits
    /// leave the unit's other cells.
    fn naked_subset(&mut self, size: usize) -> bool {
        for u in 0..self.units.len() {
            let empty: Vec<usize> =
                self.units[u].iter().copied().filter(|&c| self.grid.get(c) == 0).collect();
            for combo in combinations(empty.len(), size) {
                let union = combo.iter().fold(0u16, |m, &k| m | self.cand[empty[k]]);
                if union.count_ones() as usize != size {
                    continue;
                }
                let mut progress = false;
                for (k, &cell) in empty.iter().enumerate() {
                    if !combo.contains(&k) {
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
        for u in 0..self.units.len() {
            let digits: Vec<u8> = (1..=9).filter(|&d| self.places(u, d) != 0).collect();
            for combo in combinations(digits.len(), size) {
                let cells = combo.iter().fold(0u16, |m, &k| m | self.places(u, digits[k]));
                if cells.count_ones() as usize != size {
                    continue;
                }
                let keep = combo.iter().fold(0u16, |m, &k| m | (1 << digits[k]));
                let mut progress = false;
                for k in bits(cells << 1).map(|b| usize::from(b) - 1) {
                    progress |= self.eliminate(self.units[u][k], ALL_DIGITS & !keep);
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
        for (base, cross) in [(0, 1), (1, 0)] {
            for digit in 1..=9 {
                // Positions along each base line = indices of the cross lines.
                let lines: Vec<(usize, u16)> = self.lines[base]
                    .iter()
                    .map(|&u| (u, self.places(u, digit)))
                    .filter(|&(_, p)| p.count_ones() >= 2 && p.count_ones() as usize <= size)
                    .collect();
                for combo in combinations(lines.len(), size) {
                    let covers = combo.iter().fold(0u16, |m, &k| m | lines[k].1);
                    if covers.count_ones() as usize != size {
                        continue;
                    }
                    let base_cells: Vec<usize> = combo.iter().flat_map(|&k| self.units[lines[k].0]).collect();
                    let mut progress = false;
                    for k in bits(covers << 1).map(|b| usize::from(b) - 1) {
                        let cross_unit = self.lines[cross][k];
                        for cell in self.units[cross_unit] {
                            if !base_cells.contains(&cell) {
                                progress |= self.eliminate(cell, 1 << digit);
                            }
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

/// All `k`-element subsets of `0..n`, as sorted index lists.
fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut combo: Vec<usize> = (0..k).collect();
    if k > n {
        return out;
    }
    loop {
        out.push(combo.clone());
        let Some(i) = (0..k).rev().find(|&i| combo[i] != i + n - k) else { return out };
        combo[i] += 1;
        for j in i + 1..k {
            combo[j] = combo[j - 1] + 1;
        }
    }
}
