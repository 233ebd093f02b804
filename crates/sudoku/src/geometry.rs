//! The 9x9 grid's geometry: each variant's units, the units of each cell and the cells that see
//! each cell. One [`Geometry`] per variant is built on first use and shared by the 9x9 path's
//! rule checks, encoder and generator. (The logical solver reads the same units from its own
//! `shape`, which serves every size; the tests check that the two agree.) Imports nothing of the
//! crate but the variants and the cell sets.
//!
//! Cells are numbered 0-80, row-major, in sets of the [`Small`] kind (see `cells`): unions and
//! intersections of whole sets are single instructions, which the generator's tests of
//! unavoidable sets and singles rely on.

use std::sync::OnceLock;

use crate::cells::Small;
use crate::variant::{Unit, Variant};

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
    cell_unit_sets: [[Small; MOST_UNITS]; 81],
    /// The cells sharing a unit with each cell, the cell itself left out.
    peers: [Small; 81],
    /// The units besides rows, columns and boxes (the diagonals or the windows, at most four),
    /// then empty sets.
    extra_units: [Small; 4],
    /// For each cell, the cells a forbidden move away ([`Variant::forbidden_moves`]) that share
    /// no unit with it: the pairs the units do not already keep apart.
    move_peers: [Small; 81],
}

impl Geometry {
    /// The geometry of `variant`, built on first use and kept for the life of the program.
    pub(crate) fn of(variant: Variant) -> &'static Geometry {
        static GEOMETRIES: [OnceLock<Geometry>; Variant::COUNT] = [const { OnceLock::new() }; Variant::COUNT];
        GEOMETRIES[variant.index()].get_or_init(|| Geometry::new(variant))
    }

    fn new(variant: Variant) -> Geometry {
        let (units, unit_cells): (Vec<Unit>, Vec<[usize; 9]>) =
            variant.units_with_cells().into_iter().unzip();
        assert!(units.len() <= MAX_UNITS, "{} units", units.len());
        let unit_sets: Vec<Small> = unit_cells.iter().map(|cells| Small::of(cells)).collect();
        let mut cell_units = [[0; MOST_UNITS]; 81];
        let mut unit_count = [0; 81];
        let mut cell_unit_sets = [[Small::EMPTY; MOST_UNITS]; 81];
        let mut peers = [Small::EMPTY; 81];
        let mut extra_units = [Small::EMPTY; 4];
        let mut extra = 0;
        for (k, (unit, &set)) in units.iter().zip(&unit_sets).enumerate() {
            match *unit {
                Unit::Row(_) | Unit::Column(_) | Unit::Box(_) | Unit::Region(_) => {}
                Unit::Diagonal | Unit::AntiDiagonal | Unit::Window(_) => {
                    extra_units[extra] = set;
                    extra += 1;
                }
            }
            for cell in set {
                peers[cell] |= set - Small::cell(cell);
                cell_units[cell][unit_count[cell]] = k;
                cell_unit_sets[cell][unit_count[cell]] = set;
                unit_count[cell] += 1;
            }
        }
        let mut move_peers = [Small::EMPTY; 81];
        for cell in 0..81 {
            let at = |x: usize| i8::try_from(x).expect("below 9");
            let (r, c) = (at(cell / 9), at(cell % 9));
            for &(dr, dc) in variant.forbidden_moves() {
                for (dr, dc) in [(dr, dc), (-dr, -dc)] {
                    let (r2, c2) = (r + dr, c + dc);
                    if (0..9).contains(&r2) && (0..9).contains(&c2) {
                        let other = usize::try_from(r2 * 9 + c2).expect("a cell");
                        if !peers[cell].contains(other) {
                            move_peers[cell] |= Small::cell(other);
                        }
                    }
                }
            }
        }
        for cell in 0..81 {
            peers[cell] |= move_peers[cell];
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
        }
    }

    /// The variant described.
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

    /// The units besides rows, columns and boxes, as sets: the diagonals, if any.
    pub(crate) fn extra_unit_sets(&self) -> impl Iterator<Item = Small> + '_ {
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
    pub(crate) fn peers(&self, cell: usize) -> Small {
        self.peers[cell]
    }

    /// The cells a forbidden move away from `cell` that share no unit with it.
    #[inline]
    pub(crate) fn move_peers(&self, cell: usize) -> Small {
        self.move_peers[cell]
    }

    /// Whether the variant forbids equal digits a move apart (beyond its units).
    pub(crate) fn has_moves(&self) -> bool {
        !self.variant.forbidden_moves().is_empty()
    }

    /// The cells of the units that hold no cell of `set`.
    #[inline]
    pub(crate) fn clear_units(&self, set: Small) -> Small {
        let lines_and_boxes = set.clear_lines_and_boxes();
        if self.extra_units[0].is_empty() {
            return lines_and_boxes;
        }
        let clear = |unit: Small| if unit.meets(set) { Small::EMPTY } else { unit };
        self.extra_units.iter().fold(lines_and_boxes, |all, &unit| all | clear(unit))
    }

    /// Whether one of `cell`'s units has no cell in `others`.
    #[inline]
    pub(crate) fn has_unit_clear_of(&self, cell: usize, others: Small) -> bool {
        let units = &self.cell_unit_sets[cell];
        // Rows, columns and boxes: every cell has three; the diagonals and windows only some.
        !units[0].meets(others)
            || !units[1].meets(others)
            || !units[2].meets(others)
            || (!units[3].is_empty()
                && (!units[3].meets(others) || (!units[4].is_empty() && !units[4].meets(others))))
    }
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
            let mut ours: Vec<Vec<usize>> =
                variant.units_with_cells().iter().map(|(_, c)| c.to_vec()).collect();
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
                let peers: Small = units.iter().flat_map(|&u| g.unit_cells(u).iter().copied()).collect();
                // The cells a forbidden move away, worked out from the offsets.
                let (r, c) = (cell / 9, cell % 9);
                let moved: Small = (0..81)
                    .filter(|&x| {
                        let at = |x: usize| i8::try_from(x).unwrap();
                        let (dr, dc) = (at(x / 9) - at(r), at(x % 9) - at(c));
                        variant.forbidden_moves().iter().any(|&m| m == (dr, dc) || m == (-dr, -dc))
                    })
                    .collect();
                assert_eq!(g.move_peers(cell), moved - peers, "{variant} cell {cell}");
                assert_eq!(g.peers(cell), (peers | moved) - Small::cell(cell), "{variant} cell {cell}");
            }
        }
        assert_eq!(Geometry::of(Variant::Diagonal).units_of(40).len(), 5, "the centre");
        assert_eq!(Geometry::of(Variant::Classic).peers(0).len(), 20);
        // r5c5's king diagonals share its box already; of r4c4's, r3c3, r3c5 and r5c3 lie in other
        // boxes (r5c5 does not).
        assert!(Geometry::of(Variant::AntiKing).move_peers(40).is_empty());
        assert_eq!(Geometry::of(Variant::AntiKing).move_peers(30), Small::of(&[20, 22, 38]));
    }

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

    proptest! {
        /// The units clear of a set, by folds and multiplications, are those found unit by unit.
        #[test]
        fn clear_units_are_the_units_without_a_cell_of_the_set(
            variant in variant(),
            bits in any::<u128>(),
            sparse in any::<u128>(),
        ) {
            // Sparse sets too, so that many units are clear.
            let set = Small::from_bits(bits & sparse) & Small::GRID81;
            let expected = variant
                .units_with_cells()
                .iter()
                .map(|(_, cells)| Small::of(cells))
                .filter(|&unit| !unit.meets(set))
                .fold(Small::EMPTY, |clear, unit| clear | unit);
            prop_assert_eq!(Geometry::of(variant).clear_units(set), expected);
        }
    }
}
