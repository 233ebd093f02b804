//! The shape of a grid as the logical solver reads it, for every size and rule set: its units
//! (each of `side` cells, in a fixed order), the cells each cell sees, the pairs of units that
//! overlap, each cell's starting candidates, and the cages with the digit sets that can fill
//! them. Built once per rule set, in one of the [`CellSet`] representations (see `cells`); the
//! rater's loops are compiled for each.
//!
//! Two front ends fill it: [`Shape::of_rules`] from [`Rules`] of any size, and
//! [`Shape::of_variant`] from a 9x9 [`Variant`], whose units keep the order and the cell order of
//! [`Variant::units`] so that the 9x9 rater's steps stay what they were.
//!
//! Digits are bits `1..=side` of a `u32` mask (bit `d` for digit `d`), as the 9x9 path has them.

pub(crate) mod nine;

use std::sync::OnceLock;

use crate::model::Rules;
use crate::model::cells::{CellSet, Small, Words};
use crate::model::variant::{Unit, Variant};

/// What a unit is, as far as the techniques care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Row `r` (from 0): its `k`-th cell is in column `k`.
    Row(usize),
    /// Column `c` (from 0): its `k`-th cell is in row `k`.
    Column(usize),
    /// A box or a jigsaw region.
    Region,
    /// A diagonal or a window.
    Other,
}

/// A grid's units, sights and cages, with cell sets of kind `S` (see the module docs).
#[derive(Debug)]
pub(crate) struct Shape<S> {
    side: usize,
    /// The cells of each unit, `side` a unit, in the units' order.
    unit_cells: Vec<usize>,
    kinds: Vec<Kind>,
    /// For rows (0) and columns (1): the unit index of line `0..side`.
    lines: [Vec<usize>; 2],
    /// The region unit of each cell.
    region: Vec<usize>,
    /// The cells that may not hold a cell's digit: its units', those a forbidden move away, its
    /// cage's; itself left out.
    peers: Vec<S>,
    /// The units of each cell: `units_of[units_at[c]..units_at[c + 1]]`.
    units_of: Vec<usize>,
    units_at: Vec<usize>,
    /// The peers of each cell that share no unit with it: a forbidden move away, or in its cage.
    far_peers: Vec<S>,
    /// Whether the rules forbid equal digits a move apart.
    has_moves: bool,
    /// Pairs of units sharing two cells or more: `(u, v, shared, rest)`, with `shared` the
    /// positions in `u` of the shared cells and `rest` the positions in `v` of `v`'s other cells.
    pairs: Vec<(usize, usize, u32, u32)>,
    /// Each cell's starting candidates (parity).
    start: Vec<u32>,
    /// Each cage's cells and the digit sets that can fill it.
    cages: Vec<(Vec<usize>, Vec<u32>)>,
    /// Each unit as a set of cells.
    unit_sets: Vec<S>,
    /// The units besides rows, columns and regions (diagonals, windows) as sets.
    extras: Vec<S>,
}

impl Shape<Small> {
    /// The shape of a 9x9 variant, built on first use and kept for the life of the program.
    pub(crate) fn of_variant(variant: Variant) -> &'static Shape<Small> {
        static SHAPES: [OnceLock<Shape<Small>>; Variant::COUNT] = [const { OnceLock::new() }; Variant::COUNT];
        SHAPES[variant.index()].get_or_init(|| {
            let units = variant
                .units_with_cells()
                .into_iter()
                .map(|(unit, cells)| (kind_of(unit), cells.to_vec()))
                .collect();
            let mut moves = Vec::new();
            for cell in 0..81usize {
                let (r, c) = (cell / 9, cell % 9);
                for &(dr, dc) in variant.forbidden_moves() {
                    for (dr, dc) in [(dr, dc), (-dr, -dc)] {
                        let (Some(r2), Some(c2)) =
                            (r.checked_add_signed(isize::from(dr)), c.checked_add_signed(isize::from(dc)))
                        else {
                            continue;
                        };
                        if r2 < 9 && c2 < 9 {
                            moves.push((cell, r2 * 9 + c2));
                        }
                    }
                }
            }
            Shape::build(9, units, &moves, Vec::new(), vec![digits_of(9); 81])
        })
    }
}

/// The set operations of the 9x9 generator's singles proofs and unavoidable sets, on a 9x9
/// variant's shape (whose rows, columns and boxes are the classic ones): unions and
/// intersections of whole sets, single instructions on 128-bit sets.
impl Shape<Small> {
    /// The cells of the units that hold no cell of `set`.
    #[inline]
    pub(crate) fn clear_units(&self, set: Small) -> Small {
        debug_assert_eq!(self.side, 9, "the classic rows, columns and boxes");
        let lines_and_boxes = set.clear_lines_and_boxes();
        let clear = |unit: Small| if unit.meets(set) { Small::EMPTY } else { unit };
        self.extras.iter().fold(lines_and_boxes, |all, &unit| all | clear(unit))
    }

    /// Whether one of `cell`'s units has no cell in `others`.
    #[inline]
    pub(crate) fn has_unit_clear_of(&self, cell: usize, others: Small) -> bool {
        self.units_of(cell).iter().any(|&u| !self.unit_sets[u].meets(others))
    }

    /// The units besides rows, columns and boxes, as sets: the diagonals or the windows.
    pub(crate) fn extra_unit_sets(&self) -> impl Iterator<Item = Small> + '_ {
        self.extras.iter().copied()
    }
}

impl<S: CellSet> Shape<S> {
    /// The shape of `rules` (whose grid must fit `S`).
    pub(crate) fn of_rules(rules: &Rules) -> Shape<S> {
        let size = rules.size();
        let side = size.side();
        let units = rules.units().into_iter().map(|(unit, cells)| (kind_of(unit), cells)).collect();
        let moves: Vec<(usize, usize)> = rules.move_pairs().into_iter().map(|(a, b, _)| (a, b)).collect();
        let cages = rules
            .cages()
            .iter()
            .map(|cage| {
                let sets = crate::model::combinations(side, cage.cells.len(), cage.sum);
                (cage.cells.clone(), sets.into_iter().map(|s| s << 1).collect())
            })
            .collect();
        let start = (0..size.cells())
            .map(|c| {
                let parity = rules.parity(c);
                (1..=side).filter(|&d| parity.allows(u8::try_from(d).unwrap_or(0))).fold(0, |m, d| m | 1 << d)
            })
            .collect();
        Shape::build(side, units, &moves, cages, start)
    }

    fn build(
        side: usize,
        units: Vec<(Kind, Vec<usize>)>,
        moves: &[(usize, usize)],
        cages: Vec<(Vec<usize>, Vec<u32>)>,
        start: Vec<u32>,
    ) -> Shape<S> {
        let cells = side * side;
        assert!(cells <= S::CAPACITY, "{cells} cells in sets of {}", S::CAPACITY);
        // The cells sharing a unit with each cell, and each cell's units.
        let mut unit_peers = vec![S::default(); cells];
        let mut cell_units = vec![Vec::new(); cells];
        let mut region = vec![0; cells];
        let mut lines = [vec![0; side], vec![0; side]];
        let mut unit_cells = Vec::with_capacity(units.len() * side);
        let mut unit_sets = Vec::with_capacity(units.len());
        let mut kinds = Vec::with_capacity(units.len());
        for (u, (kind, members)) in units.iter().enumerate() {
            assert_eq!(members.len(), side, "a unit of {side} cells");
            let set = S::of(members);
            for &c in members {
                unit_peers[c] |= set;
                cell_units[c].push(u);
                if *kind == Kind::Region {
                    region[c] = u;
                }
            }
            match *kind {
                Kind::Row(r) => lines[0][r] = u,
                Kind::Column(c) => lines[1][c] = u,
                Kind::Region | Kind::Other => {}
            }
            unit_cells.extend_from_slice(members);
            unit_sets.push(set);
            kinds.push(*kind);
        }
        let mut peers = unit_peers.clone();
        for &(a, b) in moves {
            peers[a].insert(b);
            peers[b].insert(a);
        }
        for (members, _) in &cages {
            let set = S::of(members);
            for &c in members {
                peers[c] |= set;
            }
        }
        for (c, p) in peers.iter_mut().enumerate() {
            *p -= S::cell(c);
        }
        let far_peers = peers.iter().zip(&unit_peers).map(|(&p, &u)| p - u).collect();
        let units_at = std::iter::once(0)
            .chain(cell_units.iter().scan(0, |at, us| {
                *at += us.len();
                Some(*at)
            }))
            .collect();
        let units_of = cell_units.concat();
        let mut pairs = Vec::new();
        for (u, (_, cu)) in units.iter().enumerate() {
            for (v, (_, cv)) in units.iter().enumerate() {
                if u == v || !unit_sets[u].meets(unit_sets[v]) {
                    continue;
                }
                let shared = positions_where(cu, |c| unit_sets[v].contains(c));
                if shared.count_ones() >= 2 {
                    pairs.push((u, v, shared, positions_where(cv, |c| !unit_sets[u].contains(c))));
                }
            }
        }
        let extras =
            kinds.iter().zip(&unit_sets).filter(|(k, _)| **k == Kind::Other).map(|(_, &s)| s).collect();
        Shape {
            side,
            unit_cells,
            kinds,
            lines,
            region,
            peers,
            units_of,
            units_at,
            far_peers,
            has_moves: !moves.is_empty(),
            pairs,
            start,
            cages,
            unit_sets,
            extras,
        }
    }

    /// The number of digits, and of cells in a row.
    #[inline]
    pub(crate) fn side(&self) -> usize {
        self.side
    }

    /// The number of cells.
    #[inline]
    pub(crate) fn cells(&self) -> usize {
        self.side * self.side
    }

    /// The number of units.
    #[inline]
    pub(crate) fn unit_count(&self) -> usize {
        self.kinds.len()
    }

    /// The cells of unit `u`, in the unit's order.
    pub(crate) fn unit(&self, u: usize) -> &[usize] {
        &self.unit_cells[u * self.side..(u + 1) * self.side]
    }

    /// The cells of every unit, `side` a unit, in the units' order.
    #[inline]
    pub(crate) fn unit_cells(&self) -> &[usize] {
        &self.unit_cells
    }

    /// The unit index of row (`kind` 0) or column (`kind` 1) `line`.
    #[inline]
    pub(crate) fn line(&self, kind: usize, line: usize) -> usize {
        self.lines[kind][line]
    }

    /// The region (box or jigsaw region) of `cell`, as a unit index.
    #[inline]
    pub(crate) fn region(&self, cell: usize) -> usize {
        self.region[cell]
    }

    /// The cells that may not hold `cell`'s digit.
    #[inline]
    pub(crate) fn peers(&self, cell: usize) -> S {
        self.peers[cell]
    }

    /// The units of `cell`, by index.
    #[inline]
    pub(crate) fn units_of(&self, cell: usize) -> &[usize] {
        &self.units_of[self.units_at[cell]..self.units_at[cell + 1]]
    }

    /// The cells that may not hold `cell`'s digit but share no unit with it: a forbidden move
    /// away, or in its cage.
    #[inline]
    pub(crate) fn far_peers(&self, cell: usize) -> S {
        self.far_peers[cell]
    }

    /// Whether the rules forbid equal digits a move apart.
    #[inline]
    pub(crate) fn has_moves(&self) -> bool {
        self.has_moves
    }

    /// The pairs of units sharing two cells or more (see the field's docs).
    #[inline]
    pub(crate) fn pairs(&self) -> &[(usize, usize, u32, u32)] {
        &self.pairs
    }

    /// The candidates of `cell` before any digit is placed.
    #[inline]
    pub(crate) fn start(&self, cell: usize) -> u32 {
        self.start[cell]
    }

    /// The cages: each one's cells and the digit sets that can fill it.
    #[inline]
    pub(crate) fn cages(&self) -> &[(Vec<usize>, Vec<u32>)] {
        &self.cages
    }
}

/// What a unit is to the techniques.
fn kind_of(unit: Unit) -> Kind {
    match unit {
        Unit::Row(r) => Kind::Row(usize::from(r)),
        Unit::Column(c) => Kind::Column(usize::from(c)),
        Unit::Box(_) | Unit::Region(_) => Kind::Region,
        Unit::Diagonal | Unit::AntiDiagonal | Unit::Window(_) => Kind::Other,
    }
}

/// The digits `1..=side`, as a mask.
#[inline]
pub(crate) const fn digits_of(side: usize) -> u32 {
    ((1 << side) - 1) << 1
}

/// The positions of the cells of a unit that satisfy `keep`, as a mask.
fn positions_where(unit: &[usize], keep: impl Fn(usize) -> bool) -> u32 {
    unit.iter().enumerate().filter(|&(_, &c)| keep(c)).fold(0, |m, (k, _)| m | 1 << k)
}

/// A rule set's shape in the representation its size calls for: one `u128` up to 11x11, four
/// words up to 16x16, ten above.
#[derive(Debug)]
pub(crate) enum AnyShape {
    /// Up to 128 cells.
    Small(Shape<Small>),
    /// Up to 256 cells.
    Medium(Shape<Words<4>>),
    /// Up to 640 cells.
    Large(Shape<Words<10>>),
}

impl AnyShape {
    /// The shape of `rules`.
    pub(crate) fn of(rules: &Rules) -> AnyShape {
        match rules.size().cells() {
            0..=128 => AnyShape::Small(Shape::of_rules(rules)),
            129..=256 => AnyShape::Medium(Shape::of_rules(rules)),
            _ => AnyShape::Large(Shape::of_rules(rules)),
        }
    }
}

/// Runs `$body` with `$shape` bound to the shape inside an [`AnyShape`], whatever its cell sets.
macro_rules! with_shape {
    ($any:expr, $shape:ident => $body:expr) => {
        match $any {
            $crate::shape::AnyShape::Small($shape) => $body,
            $crate::shape::AnyShape::Medium($shape) => $body,
            $crate::shape::AnyShape::Large($shape) => $body,
        }
    };
}
pub(crate) use with_shape;

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::model::Rules;
    use crate::model::variant::Variant;

    /// A 9x9 variant's shape sees what the shape of its rules sees, in the wide representation
    /// too: the same units (as sets of cells) and the same peers.
    #[test]
    fn a_variants_shape_is_its_rules() {
        for variant in Variant::ALL {
            let shape = Shape::of_variant(variant);
            let rules = Rules::from(variant);
            let wide: Shape<Words<2>> = Shape::of_rules(&rules);
            let sorted = |units: Vec<Vec<usize>>| {
                let mut units: Vec<Vec<usize>> = units
                    .into_iter()
                    .map(|mut u| {
                        u.sort_unstable();
                        u
                    })
                    .collect();
                units.sort();
                units
            };
            let ours = sorted((0..shape.unit_count()).map(|u| shape.unit(u).to_vec()).collect());
            let theirs = sorted(rules.units().into_iter().map(|(_, cells)| cells).collect());
            assert_eq!(ours, theirs, "{variant}");
            assert_eq!(shape.has_moves(), !variant.forbidden_moves().is_empty());
            for cell in 0..81 {
                let expected: Vec<usize> = wide.peers(cell).into_iter().collect();
                assert_eq!(shape.peers(cell).iter().collect::<Vec<_>>(), expected, "{variant} {cell}");
                assert_eq!(shape.start(cell), digits_of(9));
            }
        }
    }

    fn variant() -> impl Strategy<Value = Variant> {
        prop::sample::select(Variant::ALL.to_vec())
    }

    /// Each cell's units, peers and far peers agree with the units' own cell lists and the
    /// variant's moves worked out from their offsets.
    #[test]
    fn units_and_peers_agree_with_the_cell_lists() {
        for variant in Variant::ALL {
            let g = Shape::of_variant(variant);
            assert_eq!(g.unit_count(), variant.units().len());
            for cell in 0..81 {
                let units: Vec<usize> = (0..g.unit_count()).filter(|&u| g.unit(u).contains(&cell)).collect();
                assert_eq!(g.units_of(cell), &units[..], "{variant} cell {cell}");
                let peers: Small = units.iter().flat_map(|&u| g.unit(u).iter().copied()).collect();
                let (r, c) = (cell / 9, cell % 9);
                let moved: Small = (0..81)
                    .filter(|&x| {
                        let at = |x: usize| i8::try_from(x).unwrap();
                        let (dr, dc) = (at(x / 9) - at(r), at(x % 9) - at(c));
                        variant.forbidden_moves().iter().any(|&m| m == (dr, dc) || m == (-dr, -dc))
                    })
                    .collect();
                assert_eq!(g.far_peers(cell), moved - peers, "{variant} cell {cell}");
                assert_eq!(g.peers(cell), (peers | moved) - Small::cell(cell), "{variant} cell {cell}");
            }
        }
        assert_eq!(Shape::of_variant(Variant::Diagonal).units_of(40).len(), 5, "the centre");
        assert_eq!(Shape::of_variant(Variant::Classic).peers(0).len(), 20);
        // r5c5's king diagonals share its box already; of r4c4's, r3c3, r3c5 and r5c3 lie in other
        // boxes (r5c5 does not).
        assert!(Shape::of_variant(Variant::AntiKing).far_peers(40).is_empty());
        assert_eq!(Shape::of_variant(Variant::AntiKing).far_peers(30), Small::of(&[20, 22, 38]));
    }

    proptest! {
        /// The units clear of a set, by folds and multiplications, are those found unit by unit;
        /// and a cell has a unit clear of a set exactly when one of its units holds none of it.
        #[test]
        fn clear_units_are_the_units_without_a_cell_of_the_set(
            variant in variant(),
            bits in any::<u128>(),
            sparse in any::<u128>(),
        ) {
            // Sparse sets too, so that many units are clear.
            let set = Small::from_bits(bits & sparse) & Small::GRID81;
            let units: Vec<Small> = variant.units_with_cells().iter().map(|(_, cells)| Small::of(cells)).collect();
            let expected = units.iter().filter(|unit| !unit.meets(set)).fold(Small::EMPTY, |clear, &unit| clear | unit);
            let shape = Shape::of_variant(variant);
            prop_assert_eq!(shape.clear_units(set), expected);
            for cell in 0..81 {
                let clear = units.iter().any(|unit| unit.contains(cell) && !unit.meets(set));
                prop_assert_eq!(shape.has_unit_clear_of(cell, set), clear, "cell {}", cell);
            }
        }
    }
}
