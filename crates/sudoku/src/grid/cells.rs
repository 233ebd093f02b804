//! Sets of cells of grids up to 25x25, on `bitvec`: 625 cells in ten 64-bit words, copied by
//! value. (The 9x9 path keeps its own set in one `u128`, whose whole-set operations it relies on.)

use bitvec::BitArr;
use bitvec::order::Lsb0;

/// A set of cells of a grid up to 25x25.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct CellSet(BitArr!(for 640, in u64, Lsb0));

impl CellSet {
    /// No cell.
    pub(crate) fn new() -> CellSet {
        CellSet::default()
    }

    /// The set of `cells`.
    pub(crate) fn of(cells: &[usize]) -> CellSet {
        let mut set = CellSet::new();
        for &c in cells {
            set.insert(c);
        }
        set
    }

    pub(crate) fn insert(&mut self, cell: usize) {
        self.0.set(cell, true);
    }

    pub(crate) fn remove(&mut self, cell: usize) {
        self.0.set(cell, false);
    }

    pub(crate) fn contains(&self, cell: usize) -> bool {
        self.0[cell]
    }

    pub(crate) fn len(&self) -> usize {
        self.0.count_ones()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.not_any()
    }

    /// The cells, in increasing order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter_ones()
    }

    pub(crate) fn first(&self) -> Option<usize> {
        self.0.first_one()
    }

    /// The cells in both sets.
    pub(crate) fn and(mut self, other: &CellSet) -> CellSet {
        self.0 &= other.0.as_bitslice();
        self
    }

    /// The cells in either set.
    pub(crate) fn or(mut self, other: &CellSet) -> CellSet {
        self.0 |= other.0.as_bitslice();
        self
    }

    /// The cells of this set not in the other.
    pub(crate) fn minus(self, other: &CellSet) -> CellSet {
        let mut not = other.0;
        not = !not;
        CellSet(self.0).and(&CellSet(not))
    }

    /// Whether every cell of this set is in the other.
    pub(crate) fn is_subset(&self, other: &CellSet) -> bool {
        self.minus(other).is_empty()
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::CellSet;

    #[test]
    fn sets_of_the_largest_grid_behave_as_sets() {
        let a = CellSet::of(&[0, 63, 64, 624]);
        let b = CellSet::of(&[63, 624, 300]);
        assert_eq!(a.and(&b).iter().collect::<Vec<_>>(), vec![63, 624]);
        assert_eq!(a.or(&b).len(), 5);
        assert_eq!(a.minus(&b).iter().collect::<Vec<_>>(), vec![0, 64]);
        assert!(a.and(&b).is_subset(&b) && !a.is_subset(&b));
        assert_eq!(a.first(), Some(0));
        assert!(CellSet::new().is_empty());
        let mut c = a;
        c.remove(0);
        assert!(!c.contains(0) && c.contains(624));
    }
}
