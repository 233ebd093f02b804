//! The candidate grid of the logical solver for every size and rule set, its placements and
//! eliminations (recorded as moves when explaining), and the techniques that look at one unit or
//! one digit at a time: singles, locked candidates, naked and hidden subsets, and fish. The
//! techniques that combine several cells or digits are in `advanced`.
//!
//! The board reads its grid from a [`Shape`] and is compiled once for each kind of cell set: the
//! 9x9 grid runs on one `u128` as it always has. Digits are bits `1..=side` of a `u32`.

use std::sync::OnceLock;

use crate::logic::scale::Technique;
use crate::model::cells::CellSet;
use crate::shape::Shape;

/// The most digits of a grid (25x25).
pub(super) const MAX_SIDE: usize = 25;

/// The `k`-subsets of `0..n`, for `k` = 2, 3, 4 and `n` <= 25: `combinations()[k - 2][n]`, made on
/// first use.
fn combinations() -> &'static [Vec<Vec<[u8; 4]>>; 3] {
    static COMBINATIONS: OnceLock<[Vec<Vec<[u8; 4]>>; 3]> = OnceLock::new();
    COMBINATIONS.get_or_init(|| [2, 3, 4].map(|k| (0..=MAX_SIDE).map(|n| subsets(n, k)).collect()))
}

/// The even digits up to 25, as a mask.
const EVEN_DIGITS: u32 = 0x0555_5554;

/// One step of a logical solution as the board records it: the technique, the unit (by index in
/// the shape) and cells of its pattern, its digits, and what it placed and removed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Move {
    /// The technique (set once the step is done).
    pub(crate) technique: Option<Technique>,
    /// The cells of the pattern.
    pub(crate) pattern: Vec<usize>,
    /// The digits of the pattern (bit `d` for digit `d`).
    pub(crate) digits: u32,
    /// The unit of the pattern, for the techniques of one unit.
    pub(crate) unit: Option<usize>,
    /// The digits placed: `(cell, digit)`.
    pub(crate) placed: Vec<(usize, u8)>,
    /// The candidates removed: `(cell, digits)`.
    pub(crate) removed: Vec<(usize, u32)>,
}

/// What the techniques made of a grid.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    /// Each cell's digit (0: empty), as far as logic took the grid.
    pub(crate) value: Vec<u8>,
    /// Each cell's candidates (bit `d` for digit `d`; 0 for a filled cell).
    pub(crate) cand: Vec<u32>,
    /// Whether the grid is full.
    pub(crate) solved: bool,
    /// Whether a given was placed where its digit was not a candidate (see [`Outcome::is_stuck`]
    /// for the contradictions the techniques found).
    pub(crate) broken: bool,
    /// How often each technique was applied, in the order of [`Technique::ALL`].
    pub(crate) counts: [u32; Technique::COUNT],
}

impl Outcome {
    /// Whether the grid cannot be completed: a given contradicts another, an empty cell has no
    /// candidate left, or a unit has no place left for a digit it lacks.
    pub(crate) fn is_stuck<S: CellSet>(&self, shape: &Shape<S>) -> bool {
        let units = shape.unit_cells().chunks_exact(shape.side());
        self.broken || stuck(units, crate::shape::digits_of(shape.side()), &self.value, &self.cand)
    }
}

/// Whether some empty cell has no candidate left.
#[inline(always)]
fn dead(value: &[u8], cand: &[u32]) -> bool {
    value.iter().zip(cand).any(|(&v, &c)| v == 0 && c == 0)
}

/// Whether some empty cell has no candidate left, or some unit has no place left for a digit
/// of `all` it lacks: the grid of `value` and `cand` cannot be completed.
#[inline(always)]
fn stuck(mut units: std::slice::ChunksExact<'_, usize>, all: u32, value: &[u8], cand: &[u32]) -> bool {
    dead(value, cand)
        || units.any(|unit| unit.iter().fold(0u32, |m, &c| m | (1 << value[c]) | cand[c]) & all != all)
}

/// Applies `techniques`, easiest first, to the grid of `givens` (one digit or 0 a cell; `even`
/// marks the cells that take even digits only) until it is full or none applies; with `moves`,
/// records each step there. Before each technique the cages keep only the digits of the sets
/// that can still fill them (not a technique, not counted, not recorded).
pub(crate) fn solve<S: CellSet, const SIDE: usize>(
    shape: &Shape<S>,
    givens: &[u8],
    even: impl Fn(usize) -> bool,
    techniques: &[Technique],
    mut moves: Option<&mut Vec<Move>>,
) -> Outcome {
    let mut board = Board::<S, SIDE>::new(shape, givens, even);
    let mut counts = [0u32; Technique::COUNT];
    board.logging = moves.is_some();
    loop {
        // An empty cell without candidates ends it (a unit without a place for a digit shows
        // up as such a cell soon after; the full check is for forcing chains' branches).
        if board.empty == 0 || board.broken || board.has_dead_cell() {
            break;
        }
        if board.cages() {
            continue;
        }
        match techniques.iter().copied().find(|&t| board.apply(t)) {
            Some(t) => {
                counts[t as usize] += 1;
                if let Some(moves) = moves.as_deref_mut() {
                    let mut step = std::mem::take(&mut board.step);
                    step.technique = Some(t);
                    moves.push(step);
                }
            }
            None => break,
        }
    }
    Outcome { solved: board.empty == 0, broken: board.broken, counts, value: board.value, cand: board.cand }
}

/// The candidate grid of the logical solver.
#[derive(Debug)]
pub(super) struct Board<'s, S, const SIDE: usize> {
    pub(super) shape: &'s Shape<S>,
    /// Each cell's digit, 0 while empty.
    pub(super) value: Vec<u8>,
    /// Bit `d` set: digit `d` is still possible (empty cells only).
    pub(super) cand: Vec<u32>,
    /// The empty cells.
    pub(super) empty: usize,
    /// A given placed where its digit was not a candidate: the givens contradict each other.
    broken: bool,
    /// Whether placements and eliminations are recorded in `step`.
    pub(super) logging: bool,
    /// What the step under way did (when logging).
    pub(super) step: Move,
    /// Room for the places of every digit in every unit (see [`Board::fill_places`]); not
    /// copied with the board.
    pub(super) places: Vec<u32>,
}

/// The places of the digits of one unit, one mask a digit, in `places`.
pub(super) const PLACES_STRIDE: usize = 32;

impl<S: CellSet, const SIDE: usize> Clone for Board<'_, S, SIDE> {
    fn clone(&self) -> Self {
        Board {
            shape: self.shape,
            value: self.value.clone(),
            cand: self.cand.clone(),
            empty: self.empty,
            broken: self.broken,
            logging: self.logging,
            step: self.step.clone(),
            places: Vec::new(),
        }
    }

    /// Copies the grid into the room this board already has (the step is not copied).
    fn clone_from(&mut self, source: &Self) {
        self.shape = source.shape;
        self.value.clone_from(&source.value);
        self.cand.clone_from(&source.cand);
        self.empty = source.empty;
        self.broken = source.broken;
        self.logging = source.logging;
    }
}

impl<'s, S: CellSet, const SIDE: usize> Board<'s, S, SIDE> {
    /// The grid of `givens`, with the candidates they leave.
    pub(super) fn new(shape: &'s Shape<S>, givens: &[u8], even: impl Fn(usize) -> bool) -> Self {
        assert!(
            SIDE == 0 || SIDE == shape.side(),
            "a board of side {SIDE} on a grid of side {}",
            shape.side()
        );
        let cells = shape.cells();
        let cand =
            (0..cells).map(|c| if even(c) { shape.start(c) & EVEN_DIGITS } else { shape.start(c) }).collect();
        let mut board = Board {
            shape,
            value: vec![0; cells],
            cand,
            empty: cells,
            broken: false,
            logging: false,
            step: Move::default(),
            places: Vec::new(),
        };
        for (cell, &digit) in givens.iter().enumerate() {
            if digit != 0 {
                if board.cand[cell] & (1 << digit) == 0 {
                    board.broken = true;
                }
                board.place(cell, digit);
            }
        }
        board
    }

    /// The number of digits: `SIDE`, known when compiling, where it is not 0.
    #[inline(always)]
    pub(super) fn side(&self) -> usize {
        if SIDE == 0 { self.shape.side() } else { SIDE }
    }

    /// The cells of unit `u`, in the unit's order.
    #[inline(always)]
    pub(super) fn unit(&self, u: usize) -> &'s [usize] {
        let side = self.side();
        &self.shape.unit_cells()[u * side..(u + 1) * side]
    }

    /// The cells of every unit, one unit after another.
    #[inline(always)]
    pub(super) fn units(&self) -> std::slice::ChunksExact<'s, usize> {
        self.shape.unit_cells().chunks_exact(self.side())
    }

    /// Every digit, as a mask.
    #[inline(always)]
    pub(super) fn all_digits(&self) -> u32 {
        crate::shape::digits_of(self.side())
    }

    /// Whether some empty cell has no candidate left.
    fn has_dead_cell(&self) -> bool {
        let cells = self.side() * self.side();
        dead(&self.value[..cells], &self.cand[..cells])
    }

    /// Whether some empty cell has no candidate left, or some unit has no place left for a
    /// digit it lacks: the grid cannot be completed.
    pub(super) fn is_stuck(&self) -> bool {
        let cells = self.side() * self.side();
        stuck(self.units(), self.all_digits(), &self.value[..cells], &self.cand[..cells])
    }

    pub(super) fn place(&mut self, cell: usize, digit: u8) {
        if self.logging {
            self.step.placed.push((cell, digit));
        }
        if self.value[cell] == 0 {
            self.empty -= 1;
        }
        self.value[cell] = digit;
        self.cand[cell] = 0;
        let shape = self.shape;
        for &u in shape.units_of(cell) {
            for &other in self.unit(u) {
                self.cand[other] &= !(1 << digit);
            }
        }
        for other in shape.far_peers(cell) {
            self.cand[other] &= !(1 << digit);
        }
    }

    /// Removes candidates `mask` from `cell`; whether anything changed.
    pub(super) fn eliminate(&mut self, cell: usize, mask: u32) -> bool {
        let before = self.cand[cell];
        self.cand[cell] &= !mask;
        if self.logging && self.cand[cell] != before {
            self.step.removed.push((cell, before & mask));
        }
        self.cand[cell] != before
    }

    /// Removes `digit` from every cell of `cells`; whether anything changed.
    pub(super) fn eliminate_from(&mut self, cells: S, digit: u8) -> bool {
        cells.into_iter().fold(false, |progress, cell| self.eliminate(cell, 1 << digit) | progress)
    }

    /// Notes the cells and digits of the pattern a step used (when logging).
    pub(super) fn mark(&mut self, cells: impl IntoIterator<Item = usize>, digits: u32) {
        if self.logging {
            self.step.pattern.extend(cells);
            self.step.digits = digits;
        }
    }

    /// Notes the unit of the pattern a step used (when logging).
    pub(super) fn mark_unit(&mut self, u: usize) {
        if self.logging {
            self.step.unit = Some(u);
        }
    }

    /// Fills `places` with the places of each digit in each unit, as masks of positions in the
    /// unit: `places[u * 32 + d]` for digit `d` in unit `u`. One pass over the units'
    /// candidates, where asking unit by unit and digit by digit would read each unit once per
    /// digit. A technique fills it when it starts; nothing changes it until the technique has
    /// found its step, and then the technique ends.
    pub(super) fn fill_places(&mut self) {
        let units = self.shape.unit_count();
        self.places.clear();
        self.places.resize(units * PLACES_STRIDE, 0);
        for (u, unit) in self.units().enumerate() {
            let row = &mut self.places[u * PLACES_STRIDE..(u + 1) * PLACES_STRIDE];
            for (k, &c) in unit.iter().enumerate() {
                let mut cand = self.cand[c];
                while cand != 0 {
                    row[cand.trailing_zeros() as usize] |= 1 << k;
                    cand &= cand - 1;
                }
            }
        }
    }

    /// The empty cells that still have `digit` as a candidate.
    pub(super) fn cells_with(&self, digit: u8) -> S {
        let mut set = S::default();
        for (c, &cand) in self.cand.iter().enumerate() {
            if cand & (1 << digit) != 0 {
                set.insert(c);
            }
        }
        set
    }

    /// The digits `1..=side`.
    #[inline(always)]
    pub(super) fn digits(&self) -> std::ops::RangeInclusive<u8> {
        1..=u8::try_from(self.side()).expect("at most 25 digits")
    }

    /// The cage filter: each cage's empty cells keep the digits of the sets that can still fill
    /// it (with its sum, its digits placed, and a candidate for each empty cell). Whether it
    /// removed a candidate. Not recorded as a step.
    fn cages(&mut self) -> bool {
        let shape = self.shape;
        if shape.cages().is_empty() {
            return false;
        }
        let logging = std::mem::replace(&mut self.logging, false);
        let mut progress = false;
        for (cells, sets) in shape.cages() {
            let placed =
                cells.iter().fold(0u32, |m, &c| if self.value[c] == 0 { m } else { m | 1 << self.value[c] });
            let open = || cells.iter().copied().filter(|&c| self.value[c] == 0);
            let allowed = sets
                .iter()
                .filter(|&&s| s & placed == placed && open().all(|c| self.cand[c] & s & !placed != 0))
                .fold(0, |m, &s| m | (s & !placed));
            for &c in cells {
                if self.value[c] == 0 {
                    progress |= self.eliminate(c, !allowed);
                }
            }
        }
        self.logging = logging;
        progress
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
        for cell in 0..self.cand.len() {
            let c = self.cand[cell];
            if self.value[cell] == 0 && c.count_ones() == 1 {
                self.mark([cell], c);
                self.place(cell, digit_of(c));
                return true;
            }
        }
        false
    }

    /// The first unit with a digit that has one place left, and its lowest such digit, placed.
    pub(super) fn hidden_single(&mut self) -> bool {
        let shape = self.shape;
        for u in 0..shape.unit_count() {
            let cells = self.unit(u);
            // The digits seen in one cell of the unit, and those seen in two or more.
            let (mut once, mut twice) = (0u32, 0u32);
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
        let shape = self.shape;
        self.fill_places();
        for &(u, v, shared, rest_of_v) in shape.pairs() {
            for digit in self.digits() {
                let places = self.places[u * PLACES_STRIDE + usize::from(digit)];
                if places.count_ones() < 2 || places & !shared != 0 {
                    continue;
                }
                let mut progress = false;
                for k in positions(rest_of_v) {
                    progress |= self.eliminate(self.unit(v)[k], 1 << digit);
                }
                if progress {
                    let unit = self.unit(u);
                    self.mark(positions(places).map(|k| unit[k]), 1 << digit);
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
        for (u, unit) in self.units().enumerate() {
            let mut empty = [0usize; MAX_SIDE];
            let mut n = 0;
            for &cell in unit {
                if self.value[cell] == 0 {
                    empty[n] = cell;
                    n += 1;
                }
            }
            for combo in &combinations()[size - 2][n] {
                let chosen = &combo[..size];
                let union = chosen.iter().fold(0u32, |m, &k| m | self.cand[empty[usize::from(k)]]);
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
        let shape = self.shape;
        let all = self.all_digits();
        self.fill_places();
        for u in 0..shape.unit_count() {
            let mut digits = [0u8; MAX_SIDE];
            let mut places = [0u32; MAX_SIDE];
            let mut n = 0;
            for digit in self.digits() {
                let p = self.places[u * PLACES_STRIDE + usize::from(digit)];
                if p != 0 {
                    digits[n] = digit;
                    places[n] = p;
                    n += 1;
                }
            }
            for combo in &combinations()[size - 2][n] {
                let chosen = &combo[..size];
                let cells = chosen.iter().fold(0u32, |m, &k| m | places[usize::from(k)]);
                if cells.count_ones() as usize != size {
                    continue;
                }
                let keep = chosen.iter().fold(0u32, |m, &k| m | (1 << digits[usize::from(k)]));
                let mut progress = false;
                for k in positions(cells) {
                    progress |= self.eliminate(self.unit(u)[k], all & !keep);
                }
                if progress {
                    let unit = self.unit(u);
                    self.mark(positions(cells).map(|k| unit[k]), keep);
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
        let shape = self.shape;
        let side = self.side();
        let every_line = (1u32 << side) - 1;
        self.fill_places();
        for (base, cross) in [(0, 1), (1, 0)] {
            for digit in self.digits() {
                // Base lines (by number) where the digit has 2..=size places, and those places.
                let mut numbers = [0usize; MAX_SIDE];
                let mut places = [0u32; MAX_SIDE];
                let mut n = 0;
                for line in 0..side {
                    let p = self.places[shape.line(base, line) * PLACES_STRIDE + usize::from(digit)];
                    if (2..=size).contains(&(p.count_ones() as usize)) {
                        numbers[n] = line;
                        places[n] = p;
                        n += 1;
                    }
                }
                for combo in &combinations()[size - 2][n] {
                    let chosen = &combo[..size];
                    let covers = chosen.iter().fold(0u32, |m, &k| m | places[usize::from(k)]);
                    if covers.count_ones() as usize != size {
                        continue;
                    }
                    let base_lines = chosen.iter().fold(0u32, |m, &k| m | 1 << numbers[usize::from(k)]);
                    let mut progress = false;
                    // Along a cross line, position k is the cell on base line k.
                    for cross_line in positions(covers) {
                        let unit = self.unit(shape.line(cross, cross_line));
                        for k in positions(!base_lines & every_line) {
                            progress |= self.eliminate(unit[k], 1 << digit);
                        }
                    }
                    if progress && self.logging {
                        let mut cells = Vec::new();
                        for &k in chosen {
                            let unit = self.unit(shape.line(base, numbers[usize::from(k)]));
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

/// The positions set in a mask, lowest first.
#[inline]
pub(super) fn positions(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let k = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        Some(k)
    })
}

/// The one digit of a mask with one bit set.
#[inline]
pub(super) fn digit_of(mask: u32) -> u8 {
    u8::try_from(mask.trailing_zeros()).expect("a digit")
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
            chosen.push(u8::try_from(next).expect("n <= 25"));
            extend(n, k, next + 1, chosen, out);
            chosen.pop();
        }
    }
    let mut out = Vec::new();
    extend(n, k, 0, &mut Vec::with_capacity(k), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::subsets;

    #[test]
    fn subsets_list_each_combination_once() {
        assert_eq!(subsets(4, 2).len(), 6);
        assert_eq!(subsets(5, 3).len(), 10);
        assert_eq!(subsets(25, 4).len(), 12_650);
        assert_eq!(subsets(3, 3), vec![[0, 1, 2, 0]]);
        assert!(subsets(2, 3).is_empty());
        assert_eq!(subsets(3, 2), vec![[0, 1, 0, 0], [0, 2, 0, 0], [1, 2, 0, 0]]);
    }
}
