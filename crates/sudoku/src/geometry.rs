//! The grid's geometry: sets of cells, and each variant's units, the units of each cell and the
//! cells that see each cell. One [`Geometry`] per variant is built on first use and shared by
//! the rule checks, the encoder, the rater and the generator, so that the units are described
//! in one place. Imports nothing of the crate but the variants.
//!
//! Cells are numbered 0-80, row-major. A [`CellSet`] is a set of cells as the bits of a `u128`
//! (bit `c` for cell `c`, bits 81-127 always clear): unions and intersections of whole sets
//! are single instructions, which the generator's tests of unavoidable sets and singles rely on.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};
use std::sync::OnceLock;

use crate::variant::{Unit, Variant};

/// A set of cells.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub(crate) struct CellSet(u128);

impl CellSet {
    /// No cell.
    pub(crate) const EMPTY: CellSet = CellSet(0);

    /// Every cell.
    pub(crate) const ALL: CellSet = CellSet((1 << 81) - 1);

    /// The set holding only `cell` (0-80).
    #[inline]
    pub(crate) const fn cell(cell: usize) -> CellSet {
        debug_assert!(cell < 81);
        CellSet(1 << cell)
    }

    /// The set of `cells`.
    pub(crate) fn of(cells: &[usize]) -> CellSet {
        cells.iter().map(|&cell| CellSet::cell(cell)).fold(CellSet::EMPTY, BitOr::bitor)
    }

    /// Whether the set holds `cell`.
    #[inline]
    pub(crate) const fn contains(self, cell: usize) -> bool {
        cell < 81 && self.0 & (1 << cell) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub(crate) const fn meets(self, other: CellSet) -> bool {
        self.0 & other.0 != 0
    }

    /// The number of cells.
    #[inline]
    pub(crate) const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The set holding only the lowest cell of this one (empty when this one is).
    #[inline]
    pub(crate) const fn lowest(self) -> CellSet {
        CellSet(self.0 & self.0.wrapping_neg())
    }

    /// The cells, in increasing order.
    #[inline]
    pub(crate) fn iter(self) -> Cells {
        Cells(self.0)
    }

    /// The cells of the rows, columns and boxes that hold no cell of this set, with no loop over
    /// cells: each unit's cells are folded onto its first cell by shifts, and the units found
    /// clear are spread back over their cells by a multiplication (their first cells times the
    /// cells of the first unit of their kind, which never carries).
    #[inline]
    pub(crate) fn clear_lines_and_boxes(self) -> CellSet {
        let set = self.0;
        // Rows: bit `9r` becomes the OR of the row's nine bits.
        let mut rows = set | set >> 1;
        rows |= rows >> 2;
        rows |= rows >> 4;
        rows |= set >> 8;
        // Columns: bit `c` becomes the OR of the column's nine bits.
        let mut columns = set | set >> 9;
        columns |= columns >> 18;
        columns |= columns >> 36;
        columns |= set >> 72;
        // Boxes: the three rows of each band onto its first, then each box's three columns onto
        // its first.
        let bands = set | set >> 9 | set >> 18;
        let boxes = bands | bands >> 1 | bands >> 2;
        let clear_rows = (ROW_STARTS & !rows) * FIRST_ROW;
        let clear_columns = (FIRST_ROW & !columns) * ROW_STARTS;
        let clear_boxes = (BOX_STARTS & !boxes) * FIRST_BOX;
        CellSet(clear_rows | clear_columns | clear_boxes)
    }
}

/// The first cell of each row (bits 0, 9, ..., 72).
const ROW_STARTS: u128 = {
    let mut set = 0;
    let mut row = 0;
    while row < 9 {
        set |= 1 << (9 * row);
        row += 1;
    }
    set
};

/// The first row.
const FIRST_ROW: u128 = 0x1ff;

/// The first box.
const FIRST_BOX: u128 = 0b111 | 0b111 << 9 | 0b111 << 18;

/// The first (top left) cell of each box.
const BOX_STARTS: u128 = {
    let mut set = 0;
    let mut k = 0;
    while k < 9 {
        set |= 1 << (27 * (k / 3) + 3 * (k % 3));
        k += 1;
    }
    set
};

impl BitOr for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitor(self, other: CellSet) -> CellSet {
        CellSet(self.0 | other.0)
    }
}

impl BitAnd for CellSet {
    type Output = CellSet;
    #[inline]
    fn bitand(self, other: CellSet) -> CellSet {
        CellSet(self.0 & other.0)
    }
}

/// The cells of the first set that are not in the second.
impl Sub for CellSet {
    type Output = CellSet;
    #[inline]
    fn sub(self, other: CellSet) -> CellSet {
        CellSet(self.0 & !other.0)
    }
}

/// The cells of the grid that are not in the set.
impl Not for CellSet {
    type Output = CellSet;
    #[inline]
    fn not(self) -> CellSet {
        CellSet(CellSet::ALL.0 & !self.0)
    }
}

impl BitOrAssign for CellSet {
    #[inline]
    fn bitor_assign(&mut self, other: CellSet) {
        self.0 |= other.0;
    }
}

impl BitAndAssign for CellSet {
    #[inline]
    fn bitand_assign(&mut self, other: CellSet) {
        self.0 &= other.0;
    }
}

impl SubAssign for CellSet {
    #[inline]
    fn sub_assign(&mut self, other: CellSet) {
        self.0 &= !other.0;
    }
}

impl FromIterator<usize> for CellSet {
    fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> CellSet {
        cells.into_iter().map(CellSet::cell).fold(CellSet::EMPTY, BitOr::bitor)
    }
}

impl IntoIterator for CellSet {
    type Item = usize;
    type IntoIter = Cells;
    #[inline]
    fn into_iter(self) -> Cells {
        self.iter()
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The cells of a [`CellSet`], in increasing order.
#[derive(Clone, Debug)]
pub(crate) struct Cells(u128);

impl Iterator for Cells {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(cell)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Cells {}

/// The most units a variant has: 27 rows, columns and boxes, and the four windows of windoku.
pub(crate) const MAX_UNITS: usize = 31;

/// The most units a cell belongs to: its row, column and box, and both diagonals at the centre
/// of a diagonal grid (a windoku cell is in one window at most).
pub(crate) const MOST_UNITS: usize = 5;

/// A variant's units, and for each cell its units and the cells it sees.
#[derive(Debug)]
pub(crate) struct Geometry {
    variant: Variant,
    /// The units in the order of [`Variant::units`]: rows, columns, boxes, then the diagonals.
    units: Vec<Unit>,
    /// The cells of each unit, in the unit's order.
    unit_cells: Vec<[usize; 9]>,
    /// For each cell, the indices of its units (the first `unit_count[cell]`).
    cell_units: [[usize; MOST_UNITS]; 81],
    unit_count: [usize; 81],
    /// For each cell, its units as sets, then empty sets.
    cell_unit_sets: [[CellSet; MOST_UNITS]; 81],
    /// The cells sharing a unit with each cell, the cell itself left out.
    peers: [CellSet; 81],
    /// The units besides rows, columns and boxes (the diagonals or the windows, at most four),
    /// then empty sets.
    extra_units: [CellSet; 4],
    /// For each cell, the cells a forbidden move away ([`Variant::forbidden_moves`]) that share
    /// no unit with it: the pairs the units do not already keep apart.
    move_peers: [CellSet; 81],
    /// For rows (0) and columns (1): the unit index of line 0-8.
    lines: [[usize; 9]; 2],
    /// Pairs of units sharing two cells or more: `(u, v, shared, rest)`, with `shared` the
    /// positions in `u` of the shared cells and `rest` the positions in `v` of `v`'s other cells.
    pairs: Vec<(usize, usize, u16, u16)>,
}

impl Geometry {
    /// The geometry of `variant`, built on first use and kept for the life of the program.
    pub(crate) fn of(variant: Variant) -> &'static Geometry {
        static GEOMETRIES: [OnceLock<Geometry>; Variant::COUNT] = [const { OnceLock::new() }; Variant::COUNT];
        GEOMETRIES[variant.index()].get_or_init(|| Geometry::new(variant))
    }

    fn new(variant: Variant) -> Geometry {
        let units = variant.units().to_vec();
        assert!(units.len() <= MAX_UNITS, "{} units", units.len());
        let unit_cells: Vec<[usize; 9]> = units.iter().map(|unit| unit.cells()).collect();
        let unit_sets: Vec<CellSet> = unit_cells.iter().map(|cells| CellSet::of(cells)).collect();
        let mut cell_units = [[0; MOST_UNITS]; 81];
        let mut unit_count = [0; 81];
        let mut cell_unit_sets = [[CellSet::EMPTY; MOST_UNITS]; 81];
        let mut peers = [CellSet::EMPTY; 81];
        let mut extra_units = [CellSet::EMPTY; 4];
        let mut extra = 0;
        let mut lines = [[0; 9]; 2];
        for (k, (unit, &set)) in units.iter().zip(&unit_sets).enumerate() {
            match *unit {
                Unit::Row(r) => lines[0][usize::from(r)] = k,
                Unit::Column(c) => lines[1][usize::from(c)] = k,
                Unit::Box(_) => {}
                Unit::Diagonal | Unit::AntiDiagonal | Unit::Window(_) => {
                    extra_units[extra] = set;
                    extra += 1;
                }
            }
            for cell in set {
                peers[cell] |= set - CellSet::cell(cell);
                cell_units[cell][unit_count[cell]] = k;
                cell_unit_sets[cell][unit_count[cell]] = set;
                unit_count[cell] += 1;
            }
        }
        let mut move_peers = [CellSet::EMPTY; 81];
        for cell in 0..81 {
            let at = |x: usize| i8::try_from(x).expect("below 9");
            let (r, c) = (at(cell / 9), at(cell % 9));
            for &(dr, dc) in variant.forbidden_moves() {
                for (dr, dc) in [(dr, dc), (-dr, -dc)] {
                    let (r2, c2) = (r + dr, c + dc);
                    if (0..9).contains(&r2) && (0..9).contains(&c2) {
                        let other = usize::try_from(r2 * 9 + c2).expect("a cell");
                        if !peers[cell].contains(other) {
                            move_peers[cell] |= CellSet::cell(other);
                        }
                    }
                }
            }
        }
        for cell in 0..81 {
            peers[cell] |= move_peers[cell];
        }
        let mut pairs = Vec::new();
        for (u, cu) in unit_cells.iter().enumerate() {
            for (v, cv) in unit_cells.iter().enumerate() {
                let shared = positions_where(cu, |c| cv.contains(&c));
                if u != v && shared.count_ones() >= 2 {
                    pairs.push((u, v, shared, positions_where(cv, |c| !cu.contains(&c))));
                }
            }
        }
        Geometry {
            variant,
            units,
            unit_cells,
            cell_units,
            unit_count,
            cell_unit_sets,
            peers,
            move_peers,
            extra_units,
            lines,
            pairs,
        }
    }

    /// The variant.
    pub(crate) fn variant(&self) -> Variant {
        self.variant
    }

    /// The units, in the order of [`Variant::units`].
    pub(crate) fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The cells of unit `u`, in the unit's order.
    pub(crate) fn unit_cells(&self, u: usize) -> &[usize; 9] {
        &self.unit_cells[u]
    }

    /// The cells of every unit, in order.
    pub(crate) fn all_unit_cells(&self) -> &[[usize; 9]] {
        &self.unit_cells
    }

    /// The units besides rows, columns and boxes, as sets: the diagonals, if any.
    pub(crate) fn extra_unit_sets(&self) -> impl Iterator<Item = CellSet> + '_ {
        self.extra_units.iter().copied().filter(|set| !set.is_empty())
    }

    /// The indices of `cell`'s units.
    #[inline]
    pub(crate) fn units_of(&self, cell: usize) -> &[usize] {
        &self.cell_units[cell][..self.unit_count[cell]]
    }

    /// The cells that may not hold `cell`'s digit: those sharing a unit with it, and those a
    /// forbidden move away; itself left out.
    #[inline]
    pub(crate) fn peers(&self, cell: usize) -> CellSet {
        self.peers[cell]
    }

    /// The cells a forbidden move away from `cell` that share no unit with it.
    #[inline]
    pub(crate) fn move_peers(&self, cell: usize) -> CellSet {
        self.move_peers[cell]
    }

    /// Whether the variant forbids equal digits a move apart (beyond its units).
    pub(crate) fn has_moves(&self) -> bool {
        !self.variant.forbidden_moves().is_empty()
    }

    /// The unit index of row (`kind` 0) or column (`kind` 1) `line`.
    pub(crate) fn line(&self, kind: usize, line: usize) -> usize {
        self.lines[kind][line]
    }

    /// The pairs of units sharing two cells or more (see the field's docs).
    pub(crate) fn pairs(&self) -> &[(usize, usize, u16, u16)] {
        &self.pairs
    }

    /// The cells of the units that hold no cell of `set`.
    #[inline]
    pub(crate) fn clear_units(&self, set: CellSet) -> CellSet {
        let lines_and_boxes = set.clear_lines_and_boxes();
        if self.extra_units[0].is_empty() {
            return lines_and_boxes;
        }
        let clear = |unit: CellSet| if unit.meets(set) { CellSet::EMPTY } else { unit };
        self.extra_units.iter().fold(lines_and_boxes, |all, &unit| all | clear(unit))
    }

    /// Whether one of `cell`'s units has no cell in `others`.
    #[inline]
    pub(crate) fn has_unit_clear_of(&self, cell: usize, others: CellSet) -> bool {
        let units = &self.cell_unit_sets[cell];
        // Rows, columns and boxes: every cell has three; the diagonals and windows only some.
        !units[0].meets(others)
            || !units[1].meets(others)
            || !units[2].meets(others)
            || (!units[3].is_empty()
                && (!units[3].meets(others) || (!units[4].is_empty() && !units[4].meets(others))))
    }
}

/// The positions (a 9-bit mask) of the cells of a unit that satisfy `keep`.
pub(crate) fn positions_where(unit: &[usize; 9], keep: impl Fn(usize) -> bool) -> u16 {
    unit.iter().enumerate().filter(|&(_, &c)| keep(c)).fold(0, |m, (k, _)| m | 1 << k)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The 9x9 tables are the rules of any size on the 9x9 grid: the same units (as sets of
    /// cells) and the same cells a forbidden move apart, for every variant.
    #[test]
    fn each_variant_is_its_rules() {
        for variant in Variant::ALL {
            let rules = crate::Rules::from(variant);
            let mut ours: Vec<Vec<usize>> = variant.units().iter().map(|u| u.cells().to_vec()).collect();
            let mut theirs: Vec<Vec<usize>> = rules.units().into_iter().map(|(_, cells)| cells).collect();
            for unit in ours.iter_mut().chain(theirs.iter_mut()) {
                unit.sort_unstable();
            }
            ours.sort();
            theirs.sort();
            assert_eq!(ours, theirs, "{variant}");
            // Pairs a forbidden move apart that share no unit: the 9x9 move peers.
            let geometry = Geometry::of(variant);
            let mut moves: Vec<(usize, usize)> = rules
                .move_pairs()
                .into_iter()
                .filter(|&(a, b, _)| !theirs.iter().any(|u| u.contains(&a) && u.contains(&b)))
                .map(|(a, b, _)| (a, b))
                .collect();
            moves.sort_unstable();
            let mut peers: Vec<(usize, usize)> = (0..81)
                .flat_map(|a| geometry.move_peers(a).iter().filter(move |&b| b > a).map(move |b| (a, b)))
                .collect();
            peers.sort_unstable();
            assert_eq!(moves, peers, "{variant}");
        }
    }

    fn variant() -> impl Strategy<Value = Variant> {
        prop::sample::select(Variant::ALL.to_vec())
    }

    /// Each cell's units, peers and unit sets agree with the units' own cell lists.
    #[test]
    fn units_and_peers_agree_with_the_cell_lists() {
        for variant in Variant::ALL {
            let g = Geometry::of(variant);
            assert_eq!(g.units().len(), variant.units().len());
            for cell in 0..81 {
                let units: Vec<usize> =
                    (0..g.units().len()).filter(|&u| g.unit_cells(u).contains(&cell)).collect();
                assert_eq!(g.units_of(cell), &units[..], "{variant} cell {cell}");
                let peers: CellSet = units.iter().flat_map(|&u| g.unit_cells(u).iter().copied()).collect();
                // The cells a forbidden move away, worked out from the offsets.
                let (r, c) = (cell / 9, cell % 9);
                let moved: CellSet = (0..81)
                    .filter(|&x| {
                        let at = |x: usize| i8::try_from(x).unwrap();
                        let (dr, dc) = (at(x / 9) - at(r), at(x % 9) - at(c));
                        variant.forbidden_moves().iter().any(|&m| m == (dr, dc) || m == (-dr, -dc))
                    })
                    .collect();
                assert_eq!(g.move_peers(cell), moved - peers, "{variant} cell {cell}");
                assert_eq!(g.peers(cell), (peers | moved) - CellSet::cell(cell), "{variant} cell {cell}");
            }
        }
        assert_eq!(Geometry::of(Variant::Diagonal).units_of(40).len(), 5, "the centre");
        assert_eq!(Geometry::of(Variant::Classic).peers(0).len(), 20);
        // r5c5's king diagonals share its box already; of r4c4's, r3c3, r3c5 and r5c3 lie in other
        // boxes (r5c5 does not).
        assert!(Geometry::of(Variant::AntiKing).move_peers(40).is_empty());
        assert_eq!(Geometry::of(Variant::AntiKing).move_peers(30), CellSet::of(&[20, 22, 38]));
    }

    /// Iterating a set gives its cells in order, and collecting them gives it back.
    #[test]
    fn a_set_iterates_its_cells_in_order() {
        let cells = [0, 8, 9, 40, 64, 80];
        let set = CellSet::of(&cells);
        assert_eq!(set.iter().collect::<Vec<_>>(), cells);
        assert_eq!(set.len(), 6);
        assert_eq!(set.lowest(), CellSet::cell(0));
        assert_eq!(!set & set, CellSet::EMPTY);
        assert_eq!((!set).len(), 75);
        assert!(set.contains(80) && !set.contains(81) && !set.contains(1));
    }

    proptest! {
        /// The units clear of a set, by folds and multiplications, are those found unit by unit.
        #[test]
        fn clear_units_are_the_units_without_a_cell_of_the_set(
            variant in variant(),
            bits in any::<u128>(),
            sparse in any::<u128>(),
        ) {
            // Sparse sets too, so that many units are clear.
            let set = CellSet(bits & sparse) & CellSet::ALL;
            let expected = variant
                .units()
                .iter()
                .map(|unit| unit.cells().iter().fold(CellSet::EMPTY, |cells, &cell| cells | CellSet::cell(cell)))
                .filter(|&unit| !unit.meets(set))
                .fold(CellSet::EMPTY, |clear, unit| clear | unit);
            prop_assert_eq!(Geometry::of(variant).clear_units(set), expected);
        }
    }
}
