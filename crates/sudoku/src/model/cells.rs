//! Sets of cells: one abstraction, [`CellSet`], in two
//! representations chosen once per rule set by the size of its grid, so that the loops over them
//! are compiled for each and stay monomorphic:
//!
//! * [`Small`]: up to 128 cells (every grid up to 11x11) in one `u128`, where a union or an
//!   intersection of whole sets is one instruction or two. The 9x9 generator's tables rely on it
//!   (with [`Small::clear_lines_and_boxes`] for the 9x9 grid's units).
//! * [`Words`]: `W` 64-bit words, copied by value: 4 for grids up to 16x16 (256 cells), 10 for
//!   25x25 (625 cells). Fixed words rather than `bitvec`'s arrays: the same bits, with the loops
//!   over whole words written out, which the compiler unrolls (the figures are in the project's
//!   `benches/RESULTS.md`).
//!
//! Cells are numbered row-major from 0. Imports nothing of the crate.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};

/// A set of cells: what the logical solver and the shape of every size compute with.
pub(crate) trait CellSet:
    Copy
    + Eq
    + Default
    + fmt::Debug
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + Sub<Output = Self>
    + BitOrAssign
    + BitAndAssign
    + SubAssign
    + IntoIterator<Item = usize>
{
    /// The most cells a set holds: cells are `0..CAPACITY`.
    const CAPACITY: usize;

    /// The set holding only `cell`.
    fn cell(cell: usize) -> Self;

    /// Whether the set holds `cell`.
    fn contains(self, cell: usize) -> bool;

    /// Whether the set has no cell.
    fn is_empty(self) -> bool;

    /// The number of cells.
    fn len(self) -> u32;

    /// Adds `cell`.
    #[inline]
    fn insert(&mut self, cell: usize) {
        *self |= Self::cell(cell);
    }

    /// The set of `cells`.
    fn of(cells: &[usize]) -> Self {
        cells.iter().fold(Self::default(), |set, &c| set | Self::cell(c))
    }

    /// Whether the two sets share a cell.
    #[inline]
    fn meets(self, other: Self) -> bool {
        !(self & other).is_empty()
    }
}

/// A set of at most 128 cells, as the bits of a `u128` (bit `c` for cell `c`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub(crate) struct Small(u128);

impl Small {
    /// No cell.
    pub(crate) const EMPTY: Small = Small(0);

    /// The 81 cells of the 9x9 grid: the cells [`Not`] complements within, and the grid of the
    /// 9x9 generator's tables.
    pub(crate) const GRID81: Small = Small((1 << 81) - 1);

    /// The set of the cells whose bits are set in `bits`.
    #[cfg(test)]
    pub(crate) const fn from_bits(bits: u128) -> Small {
        Small(bits)
    }

    /// The set holding only `cell` (0-127).
    #[inline]
    pub(crate) const fn cell(cell: usize) -> Small {
        debug_assert!(cell < 128);
        Small(1 << cell)
    }

    /// The set of `cells`.
    pub(crate) fn of(cells: &[usize]) -> Small {
        cells.iter().map(|&cell| Small::cell(cell)).fold(Small::EMPTY, BitOr::bitor)
    }

    /// Whether the set holds `cell`.
    #[inline]
    pub(crate) const fn contains(self, cell: usize) -> bool {
        cell < 128 && self.0 & (1 << cell) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub(crate) const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the two sets share a cell.
    #[inline]
    pub(crate) const fn meets(self, other: Small) -> bool {
        self.0 & other.0 != 0
    }

    /// The number of cells.
    #[inline]
    pub(crate) const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The cells, in increasing order.
    #[inline]
    pub(crate) fn iter(self) -> SmallCells {
        SmallCells(self.0)
    }

    /// The cells of the 9x9 grid's rows, columns and boxes that hold no cell of this set, with no
    /// loop over cells: each unit's cells are folded onto its first cell by shifts, and the units
    /// found clear are spread back over their cells by a multiplication (their first cells times
    /// the cells of the first unit of their kind, which never carries).
    #[inline]
    pub(crate) fn clear_lines_and_boxes(self) -> Small {
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
        Small(clear_rows | clear_columns | clear_boxes)
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

impl BitOr for Small {
    type Output = Small;
    #[inline]
    fn bitor(self, other: Small) -> Small {
        Small(self.0 | other.0)
    }
}

impl BitAnd for Small {
    type Output = Small;
    #[inline]
    fn bitand(self, other: Small) -> Small {
        Small(self.0 & other.0)
    }
}

/// The cells of the first set that are not in the second.
impl Sub for Small {
    type Output = Small;
    #[inline]
    fn sub(self, other: Small) -> Small {
        Small(self.0 & !other.0)
    }
}

/// The cells of the 9x9 grid ([`Small::GRID81`]) that are not in the set.
impl Not for Small {
    type Output = Small;
    #[inline]
    fn not(self) -> Small {
        Small(Small::GRID81.0 & !self.0)
    }
}

impl BitOrAssign for Small {
    #[inline]
    fn bitor_assign(&mut self, other: Small) {
        self.0 |= other.0;
    }
}

impl BitAndAssign for Small {
    #[inline]
    fn bitand_assign(&mut self, other: Small) {
        self.0 &= other.0;
    }
}

impl SubAssign for Small {
    #[inline]
    fn sub_assign(&mut self, other: Small) {
        self.0 &= !other.0;
    }
}

impl FromIterator<usize> for Small {
    fn from_iter<I: IntoIterator<Item = usize>>(cells: I) -> Small {
        cells.into_iter().map(Small::cell).fold(Small::EMPTY, BitOr::bitor)
    }
}

impl IntoIterator for Small {
    type Item = usize;
    type IntoIter = SmallCells;
    #[inline]
    fn into_iter(self) -> SmallCells {
        self.iter()
    }
}

impl fmt::Debug for Small {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// The cells of a [`Small`], in increasing order.
#[derive(Clone, Debug)]
pub(crate) struct SmallCells(u128);

impl Iterator for SmallCells {
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

impl ExactSizeIterator for SmallCells {}

impl CellSet for Small {
    const CAPACITY: usize = 128;

    #[inline]
    fn cell(cell: usize) -> Small {
        Small::cell(cell)
    }

    #[inline]
    fn contains(self, cell: usize) -> bool {
        Small::contains(self, cell)
    }

    #[inline]
    fn is_empty(self) -> bool {
        Small::is_empty(self)
    }

    #[inline]
    fn len(self) -> u32 {
        Small::len(self)
    }

    #[inline]
    fn of(cells: &[usize]) -> Small {
        Small::of(cells)
    }

    #[inline]
    fn meets(self, other: Small) -> bool {
        Small::meets(self, other)
    }
}

/// A set of up to `64 * W` cells in `W` words (bit `c % 64` of word `c / 64` for cell `c`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Words<const W: usize>([u64; W]);

impl<const W: usize> Default for Words<W> {
    #[inline]
    fn default() -> Self {
        Words([0; W])
    }
}

impl<const W: usize> CellSet for Words<W> {
    const CAPACITY: usize = 64 * W;

    #[inline]
    fn cell(cell: usize) -> Self {
        let mut words = [0; W];
        words[cell / 64] = 1 << (cell % 64);
        Words(words)
    }

    #[inline]
    fn contains(self, cell: usize) -> bool {
        cell < Self::CAPACITY && self.0[cell / 64] & 1 << (cell % 64) != 0
    }

    #[inline]
    fn is_empty(self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    #[inline]
    fn len(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    #[inline]
    fn insert(&mut self, cell: usize) {
        self.0[cell / 64] |= 1 << (cell % 64);
    }

    #[inline]
    fn meets(self, other: Self) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}

impl<const W: usize> BitOr for Words<W> {
    type Output = Self;
    #[inline]
    fn bitor(mut self, other: Self) -> Self {
        self |= other;
        self
    }
}

impl<const W: usize> BitAnd for Words<W> {
    type Output = Self;
    #[inline]
    fn bitand(mut self, other: Self) -> Self {
        self &= other;
        self
    }
}

/// The cells of the first set that are not in the second.
impl<const W: usize> Sub for Words<W> {
    type Output = Self;
    #[inline]
    fn sub(mut self, other: Self) -> Self {
        self -= other;
        self
    }
}

impl<const W: usize> BitOrAssign for Words<W> {
    #[inline]
    fn bitor_assign(&mut self, other: Self) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

impl<const W: usize> BitAndAssign for Words<W> {
    #[inline]
    fn bitand_assign(&mut self, other: Self) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
    }
}

impl<const W: usize> SubAssign for Words<W> {
    #[inline]
    fn sub_assign(&mut self, other: Self) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= !b;
        }
    }
}

impl<const W: usize> IntoIterator for Words<W> {
    type Item = usize;
    type IntoIter = WordCells<W>;
    #[inline]
    fn into_iter(self) -> WordCells<W> {
        WordCells { words: self.0, at: 0 }
    }
}

impl<const W: usize> fmt::Debug for Words<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(*self).finish()
    }
}

/// The cells of a [`Words`], in increasing order.
#[derive(Clone, Debug)]
pub(crate) struct WordCells<const W: usize> {
    words: [u64; W],
    /// The word being read.
    at: usize,
}

impl<const W: usize> Iterator for WordCells<W> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.at < W {
            let word = &mut self.words[self.at];
            if *word != 0 {
                let bit = word.trailing_zeros() as usize;
                *word &= *word - 1;
                return Some(self.at * 64 + bit);
            }
            self.at += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{CellSet, Small, Words};

    /// Iterating a set gives its cells in order, and collecting them gives it back.
    #[test]
    fn a_set_iterates_its_cells_in_order() {
        let cells = [0, 8, 9, 40, 64, 80];
        let set = Small::of(&cells);
        assert_eq!(set.iter().collect::<Vec<_>>(), cells);
        assert_eq!(set.len(), 6);
        assert_eq!(!set & set, Small::EMPTY);
        assert_eq!((!set).len(), 75);
        assert!(set.contains(80) && !set.contains(81) && !set.contains(1));
    }

    /// A set as a sorted list, through its iterator.
    fn listed<S: CellSet>(set: S) -> Vec<usize> {
        set.into_iter().collect()
    }

    /// Each representation against a plain sorted list of cells.
    fn behaves_as_a_set<S: CellSet>(a: &[usize], b: &[usize]) {
        let (sa, sb) = (S::of(a), S::of(b));
        let set = |v: &[usize]| v.iter().copied().collect::<std::collections::BTreeSet<usize>>();
        let (la, lb) = (set(a), set(b));
        assert_eq!(listed(sa), la.iter().copied().collect::<Vec<_>>());
        assert_eq!(listed(sa | sb), la.union(&lb).copied().collect::<Vec<_>>());
        assert_eq!(listed(sa & sb), la.intersection(&lb).copied().collect::<Vec<_>>());
        assert_eq!(listed(sa - sb), la.difference(&lb).copied().collect::<Vec<_>>());
        assert_eq!(sa.len() as usize, la.len());
        assert_eq!(sa.is_empty(), la.is_empty());
        assert_eq!(sa.meets(sb), !la.is_disjoint(&lb));
        for c in 0..S::CAPACITY {
            assert_eq!(sa.contains(c), la.contains(&c), "cell {c}");
        }
        let mut grown = sa;
        grown.insert(b.first().copied().unwrap_or(0));
        assert!(grown.contains(b.first().copied().unwrap_or(0)));
    }

    proptest! {
        #[test]
        fn every_representation_is_a_set(
            small in prop::collection::vec(0usize..128, 0..40),
            other in prop::collection::vec(0usize..128, 0..40),
            wide in prop::collection::vec(0usize..640, 0..80),
            wider in prop::collection::vec(0usize..640, 0..80),
        ) {
            behaves_as_a_set::<Small>(&small, &other);
            behaves_as_a_set::<Words<2>>(&small, &other);
            behaves_as_a_set::<Words<10>>(&wide, &wider);
        }
    }
}
