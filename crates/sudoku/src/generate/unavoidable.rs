//! Other solutions near a full grid, found without search: cheap proofs that a puzzle is
//! ambiguous, which spare the generator a search.
//!
//! Each [`Swap`] is a way to change a solution grid into another grid that satisfies every unit
//! of the variant. A puzzle whose clues all lie outside the changed cells (and, for even-cell
//! puzzles, whose markers all lie outside the cells that turn odd) has both grids as solutions:
//! the changed cells are *unavoidable*. Two families are found:
//!
//! * **Digit swaps.** Take two digits `a` and `b`. Every unit holds one cell of each; join those
//!   two cells, unit by unit. In each connected part of the 18 cells, exchanging `a` and `b` keeps
//!   every unit holding one of each. The smallest parts are the familiar unavoidable rectangles
//!   (four cells, two digits, two boxes).
//! * **Row swaps.** Take two rows of one band, and follow the columns from one to the next as the
//!   digit of the first row in a column is found in the second row: a cycle of columns. Exchanging
//!   the two rows' cells in those columns keeps every row, column and box (the two cells of a
//!   column share its box) holding the same digits. Likewise for two columns of one stack. With
//!   three or more columns these are not digit swaps; the diagonals of the diagonal variant are
//!   checked.

use crate::cells::Small;
use crate::geometry::Geometry;
use crate::puzzle::Puzzle;

/// A change of a solution grid into another solution of the variant's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Swap {
    /// The cells whose digit changes.
    pub(crate) cells: Small,
    /// The cells whose digit changes from even to odd (which an even marker forbids).
    pub(crate) to_odd: Small,
}

/// Replaces the contents of `out` with the digit swaps and row swaps (see the module docs) of
/// `grid`, a complete solution of the variant whose units `geometry` describes.
pub(crate) fn swaps(grid: &Puzzle, geometry: &Geometry, out: &mut Vec<Swap>) {
    out.clear();
    let digit = |cell: usize| usize::from(grid.get(cell));
    // `cells_of[d]`: the cells holding digit `d`.
    let mut cells_of = [Small::EMPTY; 10];
    for cell in 0..81 {
        cells_of[digit(cell)] |= Small::cell(cell);
    }
    let even = cells_of[2] | cells_of[4] | cells_of[6] | cells_of[8];
    // Digit swaps: the connected parts, grown a layer at a time. A cell's neighbours are the
    // cells of its units holding the other digit: in a solution grid, its peers holding either
    // digit (no peer holds its own).
    for a in 1..=9 {
        for b in a + 1..=9 {
            let pair = cells_of[a] | cells_of[b];
            let mut left = pair;
            while !left.is_empty() {
                let mut part = left.lowest();
                let mut fresh = part;
                while !fresh.is_empty() {
                    let mut near = Small::EMPTY;
                    for x in fresh {
                        near |= geometry.peers(x);
                    }
                    fresh = (near & pair) - part;
                    part |= fresh;
                }
                left -= part;
                // An even digit exchanged with an odd one turns the even one's cells odd.
                let to_odd = if (a + b) % 2 == 1 { part & even } else { Small::EMPTY };
                out.push(Swap { cells: part, to_odd });
            }
        }
    }
    // Row swaps, and column swaps as row swaps of the transposed grid.
    for transposed in [false, true] {
        let cell = |r: usize, c: usize| if transposed { c * 9 + r } else { r * 9 + c };
        for (r1, r2) in
            (0..3).flat_map(|band| [(0, 1), (0, 2), (1, 2)].map(|(i, j)| (band * 3 + i, band * 3 + j)))
        {
            // `column_of[d]`: the column of digit `d` in the first row.
            let mut column_of = [0usize; 10];
            for c in 0..9 {
                column_of[digit(cell(r1, c))] = c;
            }
            let mut seen = [false; 9];
            for c0 in 0..9 {
                let mut swap = Swap { cells: Small::EMPTY, to_odd: Small::EMPTY };
                let mut c = c0;
                while !seen[c] {
                    seen[c] = true;
                    let (x, y) = (cell(r1, c), cell(r2, c));
                    let both = Small::cell(x) | Small::cell(y);
                    swap.cells |= both;
                    if digit(x) % 2 != digit(y) % 2 {
                        swap.to_odd |= both & even;
                    }
                    c = column_of[digit(y)];
                }
                // A cycle of two columns is a digit swap, found above.
                if swap.cells.len() > 4 && keeps_units(grid, geometry, swap.cells, &cell, r1, r2) {
                    out.push(swap);
                }
            }
        }
    }
}

/// Whether exchanging the cells of rows `r1` and `r2` (through `cell(row, column)`) in the columns
/// of `cells` keeps every unit of the variant holding each digit once, and no digit twice a
/// forbidden move apart. Rows, columns and boxes always hold; the variant's other units (the
/// diagonals, the windows) and its moves are looked at.
fn keeps_units(
    grid: &Puzzle,
    geometry: &Geometry,
    cells: Small,
    cell: &impl Fn(usize, usize) -> usize,
    r1: usize,
    r2: usize,
) -> bool {
    // The digit of a cell after the exchange.
    let after = |x: usize| {
        if !cells.contains(x) {
            return grid.get(x);
        }
        (0..9)
            .find_map(|c| {
                if cell(r1, c) == x {
                    Some(grid.get(cell(r2, c)))
                } else if cell(r2, c) == x {
                    Some(grid.get(cell(r1, c)))
                } else {
                    None
                }
            })
            .unwrap_or(0)
    };
    geometry.extra_unit_sets().all(|unit| unit.iter().fold(0u16, |seen, x| seen | 1 << after(x)) == 0x3fe)
        // Nor may two cells a forbidden move apart come to hold the same digit.
        && (!geometry.has_moves()
            || cells.iter().all(|x| geometry.move_peers(x).iter().all(|y| after(x) != after(y))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Generator;
    use crate::solve::Matrix;
    use crate::variant::Variant;

    /// Every swap of random grids of every variant changes exactly its cells, turns exactly
    /// `to_odd` from even to odd, and gives another grid satisfying every unit.
    #[test]
    fn every_swap_gives_another_solution() {
        for variant in Variant::ALL {
            let matrix = Matrix::new(variant);
            let mut generator = Generator::new(&matrix);
            let mut out = Vec::new();
            for seed in 0..20 {
                let grid = generator.full_grid(seed);
                swaps(&grid, Geometry::of(variant), &mut out);
                assert!(out.len() >= 36, "{variant}: {} swaps", out.len());
                for swap in &out {
                    let other = apply(&grid, swap.cells);
                    let changed: Small = (0..81).filter(|&c| other.get(c) != grid.get(c)).collect();
                    assert_eq!(changed, swap.cells, "{variant} seed {seed}");
                    let to_odd: Small = (0..81)
                        .filter(|&c| grid.get(c).is_multiple_of(2) && !other.get(c).is_multiple_of(2))
                        .collect();
                    assert_eq!(to_odd, swap.to_odd, "{variant} seed {seed}");
                    for (unit, cells) in variant.units_with_cells() {
                        let digits = cells.iter().fold(0u16, |seen, &c| seen | 1 << other.get(c));
                        assert_eq!(digits, 0x3fe, "{variant} seed {seed}: {unit} after a swap");
                    }
                    // The units, and the forbidden moves of anti-king.
                    assert_eq!(other.check(variant), Ok(()), "{variant} seed {seed}: after a swap");
                }
            }
        }
    }

    /// Grids that are not solutions (never passed in by the generator) are taken without a panic:
    /// the empty grid has no swap at all (no digit to exchange, no cycle of columns longer than
    /// two), and in any grid each swap changes some cells and turns odd only cells it changes.
    #[test]
    fn any_grid_is_taken() {
        let mut out = Vec::new();
        let mut grid = Puzzle::empty();
        for variant in Variant::ALL {
            swaps(&grid, Geometry::of(variant), &mut out);
            assert_eq!(out, [], "{variant}: the empty grid");
        }
        for cell in 0..81 {
            grid.set(cell, u8::try_from(cell % 7 + 1).unwrap());
        }
        for variant in Variant::ALL {
            swaps(&grid, Geometry::of(variant), &mut out);
            assert!(!out.is_empty(), "{variant}: digits 1-7 in every row have swaps");
            for swap in &out {
                assert!(!swap.cells.is_empty() && (swap.to_odd - swap.cells).is_empty(), "{swap:?}");
            }
        }
    }

    /// The grid with the swap applied, worked out again from the cells alone: with two digits
    /// among them, exchange the digits; otherwise they lie in two rows of a band or two columns of
    /// a stack, and each column's (or row's) two cells are exchanged.
    fn apply(grid: &Puzzle, cells: Small) -> Puzzle {
        let distinct = |of: &dyn Fn(usize) -> usize| -> Vec<usize> {
            cells.iter().map(of).collect::<std::collections::BTreeSet<_>>().into_iter().collect()
        };
        let digits: Vec<u8> =
            distinct(&|c| usize::from(grid.get(c))).into_iter().map(|d| u8::try_from(d).unwrap()).collect();
        let mut other = *grid;
        if let [a, b] = digits[..] {
            for c in cells {
                other.set(c, if grid.get(c) == a { b } else { a });
            }
            return other;
        }
        let rows = distinct(&|c| c / 9);
        let columns = distinct(&|c| c % 9);
        if let [r1, r2] = rows[..] {
            assert_eq!(r1 / 3, r2 / 3, "two rows of one band");
            for c in columns {
                other.set(r1 * 9 + c, grid.get(r2 * 9 + c));
                other.set(r2 * 9 + c, grid.get(r1 * 9 + c));
            }
        } else if let [c1, c2] = columns[..] {
            assert_eq!(c1 / 3, c2 / 3, "two columns of one stack");
            for r in rows {
                other.set(r * 9 + c1, grid.get(r * 9 + c2));
                other.set(r * 9 + c2, grid.get(r * 9 + c1));
            }
        } else {
            panic!("a swap of {} digits in {} rows and {} columns", digits.len(), rows.len(), columns.len());
        }
        other
    }
}
