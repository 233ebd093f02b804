//! Wang tiles as exact cover with colors: fill an `rows` x `cols` board with square tiles whose
//! four sides are colored 0 or 1, neighbours agreeing on the side they share; the tiles are the
//! fourteen whose sides are not all one color, each usable any number of times.
//!
//! Items: one per square (`r0c0`, primary); one per side shared by two squares, secondary, whose
//! color is that side's (`h1_0` the side below square `r0c0`, `v0_1` the one right of it). An
//! option puts one tile on one square: the square, and each of its shared sides with the tile's
//! color there (`r0c0 h1_0:1 v0_1:0`). Sides on the board's edge are free.
//!
//! Like domino tilings, the partial solutions meet again (two ways of filling the first rows
//! that leave the same colors below the last one leave the same subproblem), here through the
//! colors of secondary items: a problem for the memo with colors. They are counted here
//! independently too, square by square, by a transfer matrix ([`tilings`]).
//!
//! `cargo run --release -p dlx-engine --example wang -- 4 4` prints both counts; with `--dlx` it
//! prints the problem in `.dlx` format instead.

use dlx_engine::{BuildError, Count, Problem, ProblemBuilder, Solver};

/// The tiles: `[north, east, south, west]`, each side 0 or 1, not all four the same.
pub fn tiles() -> Vec<[u8; 4]> {
    (0u8..16)
        .map(|t| [t & 1, t >> 1 & 1, t >> 2 & 1, t >> 3 & 1])
        .filter(|t| t.iter().any(|&s| s != t[0]))
        .collect()
}

/// The Wang tilings of a `rows` x `cols` board. The options come square by square, in reading
/// order, each square's tiles in the order of [`tiles`].
pub fn wang(rows: usize, cols: usize) -> Result<Problem, BuildError> {
    let mut b = ProblemBuilder::new();
    let squares: Vec<_> = (0..rows * cols)
        .map(|k| b.primary(format!("r{}c{}", k / cols, k % cols)))
        .collect::<Result<_, _>>()?;
    // The side below square (r, c), for r + 1 < rows; the side right of it, for c + 1 < cols.
    let below: Vec<_> = (0..(rows.saturating_sub(1)) * cols)
        .map(|k| b.secondary(format!("h{}_{}", k / cols + 1, k % cols)))
        .collect::<Result<_, _>>()?;
    let right: Vec<_> = (0..rows * cols.saturating_sub(1))
        .map(|k| b.secondary(format!("v{}_{}", k / (cols - 1), k % (cols - 1) + 1)))
        .collect::<Result<_, _>>()?;
    let colors = [Some("0"), Some("1")];
    for r in 0..rows {
        for c in 0..cols {
            for [n, e, s, w] in tiles() {
                let mut sides = Vec::new();
                if r > 0 {
                    sides.push((below[(r - 1) * cols + c], colors[usize::from(n)]));
                }
                if c + 1 < cols {
                    sides.push((right[r * (cols - 1) + c], colors[usize::from(e)]));
                }
                if r + 1 < rows {
                    sides.push((below[r * cols + c], colors[usize::from(s)]));
                }
                if c > 0 {
                    sides.push((right[r * (cols - 1) + c - 1], colors[usize::from(w)]));
                }
                b.option_with_colors(std::iter::once((squares[r * cols + c], None)).chain(sides))?;
            }
        }
    }
    Ok(b.build())
}

/// The number of Wang tilings of a `rows` x `cols` board, counted square by square in reading
/// order, independently of the search: a state is the colors of the sides below the last `cols`
/// squares filled (a bit each) and of the side right of the last one; each square takes every
/// tile that agrees with the side above it and the side left of it. Exact however large (a
/// [`Count`]); `None` past 20 columns.
pub fn tilings(rows: usize, cols: usize) -> Option<Count> {
    if cols > 20 {
        return None;
    }
    let tiles = tiles();
    // State: bit c the color below column c (of the last row filled there), bit `cols` the
    // color right of the last square.
    let mut ways = vec![Count::ZERO; 1 << (cols + 1)];
    ways[0] = Count::from(1u64);
    for r in 0..rows {
        for c in 0..cols {
            let mut next = vec![Count::ZERO; ways.len()];
            for (state, n) in ways.iter().enumerate().filter(|(_, n)| !n.is_zero()) {
                for &[north, east, south, west] in &tiles {
                    let above = u8::from(state >> c & 1 == 1);
                    let left = u8::from(state >> cols & 1 == 1);
                    if (r > 0 && north != above) || (c > 0 && west != left) {
                        continue;
                    }
                    let to = (state & !(1 << c) & !(1 << cols))
                        | usize::from(south) << c
                        | usize::from(east) << cols;
                    next[to] += n;
                }
            }
            ways = next;
        }
    }
    Some(ways.iter().sum())
}

#[allow(dead_code)]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dlx = args.iter().any(|a| a == "--dlx");
    let sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let (rows, cols) = match sizes[..] {
        [rows, cols] => (rows, cols),
        _ => (4, 4),
    };
    let problem = wang(rows, cols).expect("a board's items and options fit");
    if dlx {
        print!("{}", problem.to_dlx());
        return;
    }
    let mut solver = Solver::new(&problem);
    match solver.count_exact() {
        Ok(n) => println!("{rows}x{cols}: {n} tilings by the search"),
        Err(e) => println!("{rows}x{cols}: {e}"),
    }
    match tilings(rows, cols) {
        Some(n) => println!("{rows}x{cols}: {n} by the transfer matrix"),
        None => println!("{rows}x{cols}: past what the transfer matrix counts"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search (with the memo, and without it on small boards) counts what the transfer
    /// matrix counts; on 8x8 and 9x9 too, past `u128::MAX`.
    #[test]
    fn the_search_counts_what_the_transfer_matrix_counts() {
        assert_eq!(tiles().len(), 14);
        for (rows, cols) in [(1, 1), (1, 3), (2, 2), (2, 3), (3, 3), (3, 4), (5, 5), (7, 7), (8, 8), (9, 9)] {
            let problem = wang(rows, cols).unwrap();
            let mut solver = Solver::new(&problem);
            solver.set_memo(dlx_engine::Memo::Always);
            assert_eq!(Some(solver.count_exact().unwrap()), tilings(rows, cols), "{rows}x{cols}");
            if rows * cols <= 9 {
                solver.set_memo(dlx_engine::Memo::Never);
                assert_eq!(Some(solver.count_exact().unwrap()), tilings(rows, cols), "{rows}x{cols}");
            }
        }
        assert_eq!(tilings(1, 1), Some(Count::from(14u64)));
        assert!(tilings(8, 8).unwrap() > u128::MAX);
    }
}
