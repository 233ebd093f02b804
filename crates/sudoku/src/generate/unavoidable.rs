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
//!   (four cells, two digits, two boxes). The same holds on grids of every size and rule set
//!   ([`digit_swaps`]), with a cell's peers as its neighbours (units, forbidden moves, cages):
//!   a part is kept when it leaves every cage's sum and every even or odd cell's parity as it was.
//! * **Row swaps.** Take two rows of one band, and follow the columns from one to the next as the
//!   digit of the first row in a column is found in the second row: a cycle of columns. Exchanging
//!   the two rows' cells in those columns keeps every row, column and box (the two cells of a
//!   column share its box) holding the same digits. Likewise for two columns of one stack. With
//!   three or more columns these are not digit swaps; the diagonals of the diagonal variant are
//!   checked.

use crate::model::cells::{CellSet, Small};
use crate::shape::Shape;
use crate::shape::nine::Puzzle;

/// A change of a solution grid into another solution of the variant's units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Swap<S = Small> {
    /// The cells whose digit changes.
    pub(crate) cells: S,
    /// The cells whose digit changes from even to odd (which an even marker forbids).
    pub(crate) to_odd: S,
}

/// Replaces the contents of `out` with the digit swaps and row swaps (see the module docs) of
/// `grid`, a complete solution of the variant whose units `shape` describes.
pub(crate) fn swaps(grid: &Puzzle, shape: &Shape<Small>, out: &mut Vec<Swap>) {
    out.clear();
    let digit = |cell: usize| usize::from(grid.get(cell));
    let even: Small = (0..81).filter(|&c| matches!(digit(c), 2 | 4 | 6 | 8)).collect();
    digit_swaps(shape, grid.cells(), out);
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
                if swap.cells.len() > 4 && keeps_units(grid, shape, swap.cells, &cell, r1, r2) {
                    out.push(swap);
                }
            }
        }
    }
}

/// Appends to `out` the digit swaps (see the module docs) of `grid`, a full grid of the rules
/// whose shape is `shape`, of any size: for each two digits, the connected parts of their cells,
/// a cell's neighbours being its peers that hold either digit. Exchanging the digits in a part
/// keeps every unit holding one of each (a unit's two cells are peers) and every forbidden move
/// clear (a cell a move away holding the other digit is a peer); parts that would change a
/// cage's sum or give an even or odd cell the other parity are left out.
pub(crate) fn digit_swaps<S: CellSet>(shape: &Shape<S>, grid: &[u8], out: &mut Vec<Swap<S>>) {
    let side = shape.side();
    // `cells_of[d]`: the cells holding digit `d`.
    let mut cells_of = [S::default(); 26];
    for (cell, &d) in grid.iter().enumerate() {
        cells_of[usize::from(d)] |= S::cell(cell);
    }
    let even = (2..=side).step_by(2).fold(S::default(), |set, d| set | cells_of[d]);
    let all = crate::shape::digits_of(side);
    let marked = (0..grid.len()).any(|cell| shape.start(cell) != all);
    let caged = !shape.cages().is_empty();
    for a in 1..=side {
        for b in a + 1..=side {
            let pair = cells_of[a] | cells_of[b];
            let mut left = pair;
            while let Some(first) = left.into_iter().next() {
                let mut part = S::cell(first);
                let mut fresh = part;
                while !fresh.is_empty() {
                    let mut near = S::default();
                    for x in fresh {
                        near |= shape.peers(x);
                    }
                    fresh = (near & pair) - part;
                    part |= fresh;
                }
                left -= part;
                let odd = (a + b) % 2 == 1;
                if (odd && marked && !keeps_parity(shape, grid, part, a, b))
                    || (caged && !keeps_cages(shape, grid, part, a, b))
                {
                    continue;
                }
                // An even digit exchanged with an odd one turns the even one's cells odd.
                let to_odd = if odd { part & even } else { S::default() };
                out.push(Swap { cells: part, to_odd });
            }
        }
    }
}

/// Appends to `out` the row swaps and column swaps (see the module docs) of `grid`, a full grid
/// of the rules whose shape is `shape`, of any size: for any two rows, each cycle of columns
/// longer than two (those of two are digit swaps), kept when the exchange leaves every unit,
/// forbidden move, cage and parity mark obeyed (the rows and columns always are).
pub(crate) fn line_swaps<S: CellSet>(shape: &Shape<S>, grid: &[u8], out: &mut Vec<Swap<S>>) {
    let side = shape.side();
    let mut after = grid.to_vec();
    for transposed in [false, true] {
        let cell = |r: usize, c: usize| if transposed { c * side + r } else { r * side + c };
        for r1 in 0..side {
            for r2 in r1 + 1..side {
                // `column_of[d]`: the column of digit `d` in the first row.
                let mut column_of = [0usize; 26];
                for c in 0..side {
                    column_of[usize::from(grid[cell(r1, c)])] = c;
                }
                let mut seen = [false; 25];
                for c0 in 0..side {
                    let mut cells = S::default();
                    let mut c = c0;
                    while !seen[c] {
                        seen[c] = true;
                        let (x, y) = (cell(r1, c), cell(r2, c));
                        cells |= S::cell(x) | S::cell(y);
                        (after[x], after[y]) = (grid[y], grid[x]);
                        c = column_of[usize::from(grid[y])];
                    }
                    if cells.len() > 4 && keeps_rules(shape, grid, &after, cells) {
                        let to_odd = cells
                            .into_iter()
                            .filter(|&x| grid[x].is_multiple_of(2) && !after[x].is_multiple_of(2))
                            .fold(S::default(), |set, x| set | S::cell(x));
                        out.push(Swap { cells, to_odd });
                    }
                    for x in cells {
                        after[x] = grid[x];
                    }
                }
            }
        }
    }
}

/// Whether `after`, which differs from `grid` in `cells`, still has no digit twice among a
/// cell's peers, every cage's sum, and each cell's digit among its starting candidates.
fn keeps_rules<S: CellSet>(shape: &Shape<S>, grid: &[u8], after: &[u8], cells: S) -> bool {
    cells.into_iter().all(|x| {
        shape.start(x) & 1 << after[x] != 0 && shape.peers(x).into_iter().all(|y| after[y] != after[x])
    }) && shape.cages().iter().all(|(cage, _)| {
        !cage.iter().any(|&c| cells.contains(c))
            || cage.iter().map(|&c| u32::from(after[c])).sum::<u32>()
                == cage.iter().map(|&c| u32::from(grid[c])).sum::<u32>()
    })
}

/// The digit of `cell` once `a` and `b` are exchanged in `part`.
fn swapped<S: CellSet>(grid: &[u8], part: S, a: usize, b: usize, cell: usize) -> usize {
    let d = usize::from(grid[cell]);
    if !part.contains(cell) {
        d
    } else if d == a {
        b
    } else {
        a
    }
}

/// Whether every cell of `part` may hold its digit once `a` and `b` are exchanged there.
fn keeps_parity<S: CellSet>(shape: &Shape<S>, grid: &[u8], part: S, a: usize, b: usize) -> bool {
    part.into_iter().all(|x| shape.start(x) & 1 << swapped(grid, part, a, b, x) != 0)
}

/// Whether every cage adds up to the same sum once `a` and `b` are exchanged in `part`.
fn keeps_cages<S: CellSet>(shape: &Shape<S>, grid: &[u8], part: S, a: usize, b: usize) -> bool {
    shape.cages().iter().all(|(cells, _)| {
        let sum = |after: bool| -> usize {
            cells
                .iter()
                .map(|&c| if after { swapped(grid, part, a, b, c) } else { usize::from(grid[c]) })
                .sum()
        };
        !cells.iter().any(|&c| part.contains(c)) || sum(true) == sum(false)
    })
}

/// Whether exchanging the cells of rows `r1` and `r2` (through `cell(row, column)`) in the columns
/// of `cells` keeps every unit of the variant holding each digit once, and no digit twice a
/// forbidden move apart. Rows, columns and boxes always hold; the variant's other units (the
/// diagonals, the windows) and its moves are looked at.
fn keeps_units(
    grid: &Puzzle,
    shape: &Shape<Small>,
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
    shape.extra_unit_sets().all(|unit| unit.iter().fold(0u16, |seen, x| seen | 1 << after(x)) == 0x3fe)
        // Nor may two cells a forbidden move apart come to hold the same digit.
        && (!shape.has_moves()
            || cells.iter().all(|x| shape.far_peers(x).iter().all(|y| after(x) != after(y))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::nine::Generator;

    use crate::model::variant::Variant;

    /// Every swap of random grids of every variant changes exactly its cells, turns exactly
    /// `to_odd` from even to odd, and gives another grid satisfying every unit.
    #[test]
    fn every_swap_gives_another_solution() {
        for variant in Variant::ALL {
            let matrix = crate::cover::Matrix::new(&crate::model::Rules::from(variant));
            let mut generator = Generator::over(matrix.problem(), variant);
            let mut out = Vec::new();
            for seed in 0..20 {
                let grid = generator.full_grid(seed);
                swaps(&grid, Shape::of_variant(variant), &mut out);
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

    /// On grids of other sizes and rules (boxes of other shapes, jigsaw regions, anti-knight,
    /// windows, cages, parity marks), every digit and line swap of random full grids changes
    /// exactly its cells, turns exactly `to_odd` from even to odd, and gives another grid that
    /// obeys every rule.
    #[test]
    fn every_swap_of_any_rules_gives_another_solution() {
        use crate::cover::Matrix;
        use crate::generate::Generator;
        use crate::model::cells::Words;
        use crate::model::{Constraint, Parity, Puzzle, Rules};
        let with = |size: &str, constraints: &[Constraint], regions: Option<&str>| {
            let mut rules = Rules::new(size.parse().expect("a size"));
            for &c in constraints {
                rules.add(c);
            }
            if let Some(map) = regions {
                rules.set_regions(map).expect("a map");
            }
            rules
        };
        let jigsaw = "AAABBBAAABBBCCCDDDCCCDDDEEEFFFEEEFFF";
        let jigsaw = {
            // Two cells of the first two regions exchanged: r2c3 to B, r1c4 to A.
            let mut map: Vec<u8> = jigsaw.bytes().collect();
            map.swap(8, 3);
            String::from_utf8(map).expect("letters")
        };
        for (rules, marks) in [
            (with("4x4", &[], None), false),
            (with("3x4", &[Constraint::AntiKnight], None), false),
            (with("3x3", &[Constraint::Windows, Constraint::Diagonals], None), true),
            (with("2x3", &[], Some(&jigsaw)), true),
        ] {
            let matrix = Matrix::new(&rules);
            let mut generator = Generator::new(&matrix);
            let mut found = 0;
            for seed in 0..6 {
                let full = generator.full_grid(seed).expect("a grid");
                let side = rules.size().side();
                // Cages over pairs of neighbours in every other row, parity marks on every
                // fifth cell: the rules a swap must keep too.
                let mut rules = rules.clone();
                for r in (0..side).step_by(2) {
                    for c in (0..side - 1).step_by(2) {
                        let cells = vec![r * side + c, r * side + c + 1];
                        let sum = cells.iter().map(|&x| u32::from(full.get(x))).sum();
                        rules.add_cage(cells, sum).expect("a cage");
                    }
                }
                if marks {
                    for cell in (0..side * side).step_by(5) {
                        let even = full.get(cell).is_multiple_of(2);
                        rules.set_parity(cell, if even { Parity::Even } else { Parity::Odd });
                    }
                }
                let full = Puzzle::with_cells(rules.clone(), full.cells().to_vec()).expect("the size");
                assert_eq!(full.check(), Ok(()));
                let shape: Shape<Words<4>> = Shape::of_rules(&rules);
                let mut out = Vec::new();
                digit_swaps(&shape, full.cells(), &mut out);
                let digit_swaps = out.len();
                line_swaps(&shape, full.cells(), &mut out);
                let what = format!("{} seed {seed}", rules.describe());
                found += out.len();
                for (k, swap) in out.iter().enumerate() {
                    let other =
                        apply_any(&full, &swap.cells.into_iter().collect::<Vec<_>>(), side, k < digit_swaps);
                    let changed: Vec<usize> =
                        (0..side * side).filter(|&c| other.get(c) != full.get(c)).collect();
                    assert_eq!(changed, swap.cells.into_iter().collect::<Vec<_>>(), "{what}");
                    let to_odd: Vec<usize> = changed
                        .iter()
                        .copied()
                        .filter(|&c| full.get(c).is_multiple_of(2) && !other.get(c).is_multiple_of(2))
                        .collect();
                    assert_eq!(to_odd, swap.to_odd.into_iter().collect::<Vec<_>>(), "{what}");
                    assert_eq!(other.check(), Ok(()), "{what}: after a swap {}", other.to_text());
                }
            }
            assert!(found > 0, "{}: no swap in six grids", rules.describe());
        }
    }

    /// A swap's grid worked out from its cells alone: two digits exchanged (a digit swap), or
    /// the cells of two rows (or two columns) exchanged column by column (row by row).
    fn apply_any(
        grid: &crate::model::Puzzle,
        cells: &[usize],
        side: usize,
        digits: bool,
    ) -> crate::model::Puzzle {
        let mut other = grid.clone();
        if digits {
            let mut pair: Vec<u8> = cells.iter().map(|&c| grid.get(c)).collect();
            pair.sort_unstable();
            pair.dedup();
            let [a, b] = pair[..] else { panic!("a digit swap of {} digits", pair.len()) };
            for &c in cells {
                other.set(c, if grid.get(c) == a { b } else { a });
            }
            return other;
        }
        let mut rows: Vec<usize> = cells.iter().map(|&c| c / side).collect();
        rows.sort_unstable();
        rows.dedup();
        let mut columns: Vec<usize> = cells.iter().map(|&c| c % side).collect();
        columns.sort_unstable();
        columns.dedup();
        if let [r1, r2] = rows[..] {
            for c in columns {
                other.set(r1 * side + c, grid.get(r2 * side + c));
                other.set(r2 * side + c, grid.get(r1 * side + c));
            }
        } else if let [c1, c2] = columns[..] {
            for r in rows {
                other.set(r * side + c1, grid.get(r * side + c2));
                other.set(r * side + c2, grid.get(r * side + c1));
            }
        } else {
            panic!("a line swap over {} rows and {} columns", rows.len(), columns.len());
        }
        other
    }

    /// Grids that are not solutions (never passed in by the generator) are taken without a panic:
    /// the empty grid has no swap at all (no digit to exchange, no cycle of columns longer than
    /// two), and in any grid each swap changes some cells and turns odd only cells it changes.
    #[test]
    fn any_grid_is_taken() {
        let mut out = Vec::new();
        let mut grid = Puzzle::empty();
        for variant in Variant::ALL {
            swaps(&grid, Shape::of_variant(variant), &mut out);
            assert_eq!(out, [], "{variant}: the empty grid");
        }
        for cell in 0..81 {
            grid.set(cell, u8::try_from(cell % 7 + 1).unwrap());
        }
        for variant in Variant::ALL {
            swaps(&grid, Shape::of_variant(variant), &mut out);
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
