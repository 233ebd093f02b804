//! The candidate grid of the logical solver, its placements and eliminations (recorded as steps
//! when explaining), and the techniques that look at one unit or one digit at a time: singles,
//! locked candidates, naked and hidden subsets, and fish. The techniques that combine several
//! cells or digits are in `advanced`.

use super::{Logic, Step, Technique};
use crate::geometry::{CellSet, Geometry, positions_where};
use crate::puzzle::{Puzzle, RuleError};

/// The `k`-subsets of `0..n`, for `k` = 2, 3, 4 and `n` <= 9: `combinations()[k - 2][n]`, made
/// on first use.
fn combinations() -> &'static [Vec<Vec<[u8; 4]>>; 3] {
    static COMBINATIONS: std::sync::OnceLock<[Vec<Vec<[u8; 4]>>; 3]> = std::sync::OnceLock::new();
    COMBINATIONS.get_or_init(|| [2, 3, 4].map(|k| (0..=9).map(|n| subsets(n, k)).collect()))
}

pub(super) const ALL_DIGITS: u16 = 0b11_1111_1110;
const EVEN_DIGITS: u16 = 0b01_0101_0100;

/// Applies `techniques`, easiest first, to `puzzle` until it is solved or none applies; with
/// `steps`, records each step there.
pub(super) fn solve_with(
    geometry: &'static Geometry,
    puzzle: &Puzzle,
    techniques: &[Technique],
    mut steps: Option<&mut Vec<Step>>,
) -> Result<Logic, RuleError> {
    puzzle.check(geometry.variant())?;
    let mut board = Board::new(geometry, puzzle);
    let mut counts = [0u32; Technique::COUNT];
    board.logging = steps.is_some();
    loop {
        // An empty cell without candidates ends it (a unit without a place for a digit shows
        // up as such a cell soon after; the full check is for forcing chains' branches).
        if board.grid.is_full() || board.has_dead_cell() {
            break;
        }
        match techniques.iter().copied().find(|&t| board.apply(t)) {
            Some(t) => {
                counts[t as usize] += 1;
                if let Some(steps) = steps.as_deref_mut() {
                    let mut step = std::mem::take(&mut board.step);
                    step.technique = t;
                    steps.push(step);
                }
            }
            None => break,
        }
    }
    Ok(Logic { grid: board.grid, solved: board.grid.is_full(), counts })
}

/// The positions 0-8 set in a 9-bit mask.
pub(super) fn positions(mask: u16) -> impl Iterator<Item = usize> {
    (0..9).filter(move |k| mask & (1 << k) != 0)
}

/// The candidate grid of the logical solver.
#[derive(Clone)]
pub(super) struct Board {
    pub(super) geometry: &'static Geometry,
    pub(super) grid: Puzzle,
    /// Bit `d` set: digit `d` is still possible (empty cells only).
    pub(super) cand: [u16; 81],
    /// Whether placements and eliminations are recorded in `step`.
    pub(super) logging: bool,
    /// What the step under way did (when logging).
    pub(super) step: Step,
}

impl Board {
    /// The grid of `puzzle`'s givens, with the candidates they leave.
    pub(super) fn new(geometry: &'static Geometry, puzzle: &Puzzle) -> Board {
        let mut board =
            Board { geometry, grid: Puzzle::empty(), cand: [0; 81], logging: false, step: Step::default() };
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
        board
    }

    /// Whether some empty cell has no candidate left.
    fn has_dead_cell(&self) -> bool {
        (0..81).any(|c| self.grid.get(c) == 0 && self.cand[c] == 0)
    }

    /// Whether some empty cell has no candidate left, or some unit has no place left for a
    /// digit it lacks: the grid cannot be completed.
    pub(super) fn is_stuck(&self) -> bool {
        if self.has_dead_cell() {
            return true;
        }
        self.geometry.all_unit_cells().iter().any(|unit| {
            let placed = unit.iter().fold(0u16, |m, &c| m | (1 << self.grid.get(c)));
            let possible = unit.iter().fold(0u16, |m, &c| m | self.cand[c]);
            (placed | possible) & ALL_DIGITS != ALL_DIGITS
        })
    }

    pub(super) fn place(&mut self, cell: usize, digit: u8) {
        if self.logging {
            self.step.placed.push((cell, digit));
        }
        self.grid.set(cell, digit);
        self.cand[cell] = 0;
        let geometry = self.geometry;
        for &u in geometry.units_of(cell) {
            for &other in geometry.unit_cells(u) {
                self.cand[other] &= !(1 << digit);
            }
        }
        for other in geometry.move_peers(cell) {
            self.cand[other] &= !(1 << digit);
        }
    }

    /// Removes candidates `mask` from `cell`; whether anything changed.
    pub(super) fn eliminate(&mut self, cell: usize, mask: u16) -> bool {
        let before = self.cand[cell];
        self.cand[cell] &= !mask;
        if self.logging && self.cand[cell] != before {
            self.step.removed.push((cell, before & mask));
        }
        self.cand[cell] != before
    }

    /// Removes `digit` from every cell of `cells`; whether anything changed.
    pub(super) fn eliminate_from(&mut self, cells: CellSet, digit: u8) -> bool {
        cells.iter().fold(false, |progress, cell| self.eliminate(cell, 1 << digit) | progress)
    }

    /// Notes the cells and digits of the pattern a step used (when logging).
    pub(super) fn mark(&mut self, cells: impl IntoIterator<Item = usize>, digits: u16) {
        if self.logging {
            self.step.pattern.extend(cells);
            self.step.digits = digits;
        }
    }

    /// Notes the unit of the pattern a step used (when logging).
    pub(super) fn mark_unit(&mut self, u: usize) {
        if self.logging {
            self.step.unit = Some(self.geometry.units()[u]);
        }
    }

    /// The positions in unit `u` where `digit` is still a candidate, as a 9-bit mask.
    pub(super) fn places(&self, u: usize, digit: u8) -> u16 {
        positions_where(self.geometry.unit_cells(u), |c| self.cand[c] & (1 << digit) != 0)
    }

    /// The empty cells that still have `digit` as a candidate.
    pub(super) fn cells_with(&self, digit: u8) -> CellSet {
        (0..81)
            .filter(|&c| self.cand[c] & (1 << digit) != 0)
            .fold(CellSet::EMPTY, |set, c| set | CellSet::cell(c))
    }

    /// Applies one step of a technique; whether it made progress.
    fn apply(&mut self, t: Technique) -> bool {
        match t {
            Technique::HiddenSingle => self.hidden_single(),
            Technique::NakedSingle => self.naked_single(),
            Technique::LockedCandidates => self.locked_candidates(),
            Technique::NakedPair => self.naked_subset(2),
            Technique::XWing => self.fish(2),
            Technique::HiddenPair => self.hidden_subset(2),
            Technique::NakedTriple => self.naked_subset(3),
            Technique::Swordfish => self.fish(3),
            Technique::HiddenTriple => self.hidden_subset(3),
            Technique::XYWing => self.xy_wing(),
            Technique::XYZWing => self.xyz_wing(),
            Technique::UniqueRectangle => self.unique_rectangle(),
            Technique::Jellyfish => self.fish(4),
            Technique::SimpleColoring => self.simple_coloring(),
            Technique::ForcingChain => self.forcing_chain(),
        }
    }

    pub(super) fn naked_single(&mut self) -> bool {
        for cell in 0..81 {
            let c = self.cand[cell];
            if self.grid.get(cell) == 0 && c.count_ones() == 1 {
                self.mark([cell], c);
                self.place(cell, u8::try_from(c.trailing_zeros()).expect("a digit"));
                return true;
            }
        }
        false
    }

    /// The first unit with a digit that has one place left, and its lowest such digit, placed.
    pub(super) fn hidden_single(&mut self) -> bool {
        let geometry = self.geometry;
        for u in 0..geometry.units().len() {
            let cells = geometry.unit_cells(u);
            // The digits seen in one cell of the unit, and those seen in two or more.
            let (mut once, mut twice) = (0u16, 0u16);
            for &cell in cells {
                twice |= once & self.cand[cell];
                once |= self.cand[cell];
            }
            let singles = once & !twice;
            if singles != 0 {
                let digit = u8::try_from(singles.trailing_zeros()).expect("a digit");
                let cell = *cells.iter().find(|&&c| self.cand[c] & (1 << digit) != 0).expect("one place");
                self.mark([cell], 1 << digit);
                self.mark_unit(u);
                self.place(cell, digit);
                return true;
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
                    let cells = positions(places).map(|k| geometry.unit_cells(u)[k]);
                    self.mark(cells, 1 << digit);
                    self.mark_unit(u);
                    return true;
                }
            }
        }
        false
    }

    /// `size` empty cells of a unit whose candidates together are `size` digits: those digits
    /// leave the unit's other cells.
    fn naked_subset(&mut self, size: usize) -> bool {
        for (u, unit) in self.geometry.all_unit_cells().iter().enumerate() {
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
                    self.mark(chosen.iter().map(|&k| empty[usize::from(k)]), union);
                    self.mark_unit(u);
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
                    self.mark(positions(cells).map(|k| geometry.unit_cells(u)[k]), keep);
                    self.mark_unit(u);
                    return true;
                }
            }
        }
        false
    }

    /// A digit confined, in `size` base lines, to `size` cross lines: it leaves the cross lines'
    /// other cells (X-wing for 2, swordfish for 3, jellyfish for 4).
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
                    if progress && self.logging {
                        let mut cells = Vec::new();
                        for &k in chosen {
                            let unit = geometry.unit_cells(geometry.line(base, numbers[usize::from(k)]));
                            cells.extend(positions(places[usize::from(k)]).map(|p| unit[p]));
                        }
                        self.mark(cells, 1 << digit);
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

/// All `k`-element subsets of `0..n`, as sorted index lists (k <= 4; unused places are 0).
fn subsets(n: usize, k: usize) -> Vec<[u8; 4]> {
    fn extend(n: usize, k: usize, from: usize, chosen: &mut Vec<u8>, out: &mut Vec<[u8; 4]>) {
        if chosen.len() == k {
            let mut subset = [0; 4];
            subset[..k].copy_from_slice(chosen);
            out.push(subset);
            return;
        }
        for next in from..n {
            chosen.push(u8::try_from(next).expect("n <= 9"));
            extend(n, k, next + 1, chosen, out);
            chosen.pop();
        }
    }
    let mut out = Vec::new();
    extend(n, k, 0, &mut Vec::with_capacity(k), &mut out);
    out
}
