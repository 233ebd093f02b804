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

use std::sync::OnceLock;

use crate::cells::{CellSet, Small, Words};
use crate::grid::Rules;
use crate::variant::{Unit, Variant};

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
                let sets = crate::grid::combinations(side, cage.cells.len(), cage.sum);
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
    #[cfg(test)]
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
    use super::{Shape, digits_of};
    use crate::cells::Words;
    use crate::geometry::Geometry;
    use crate::grid::Rules;
    use crate::variant::Variant;

    /// A 9x9 variant's shape sees what its 9x9 geometry sees, and its rules' shape the same
    /// cells again, in the other representations too.
    #[test]
    fn shapes_see_what_the_9x9_geometry_sees() {
        for variant in Variant::ALL {
            let geometry = Geometry::of(variant);
            let shape = Shape::of_variant(variant);
            let rules = Rules::from(variant);
            let wide: Shape<Words<2>> = Shape::of_rules(&rules);
            assert_eq!(shape.unit_count(), geometry.units().len());
            for u in 0..shape.unit_count() {
                assert_eq!(shape.unit(u), geometry.unit_cells(u).as_slice(), "{variant} unit {u}");
            }
            assert_eq!(shape.has_moves(), geometry.has_moves());
            for cell in 0..81 {
                let expected: Vec<usize> = geometry.peers(cell).iter().collect();
                assert_eq!(
                    shape.peers(cell).iter().collect::<Vec<_>>(),
                    expected,
                    "{variant} r{}c{}",
                    cell / 9 + 1,
                    cell % 9 + 1
                );
                assert_eq!(wide.peers(cell).into_iter().collect::<Vec<_>>(), expected, "{variant}");
                assert_eq!(shape.start(cell), digits_of(9));
            }
        }
    }
}
