//! Domino tilings as exact cover: cover an `rows` x `cols` board with dominoes, each on two
//! neighbouring squares.
//!
//! Items: one per square (`r0c0`, primary). Options: a domino across (`r0c0 r0c1`) or down
//! (`r0c0 r1c0`), every one the board has: `rows * (cols - 1) + (rows - 1) * cols`. The 8x8 board
//! has 12,988,816 tilings.
//!
//! Tilings are the problems whose partial solutions meet again: two ways of covering the first
//! rows that leave the same squares of the next rows covered leave the same subproblem. So they
//! are also counted here independently, row by row, by a transfer matrix ([`tilings`]), exactly
//! past 2^64: the 14x14 board has 112,202,208,776,036,178,000,000 tilings.
//!
//! `cargo run --release -p dlx-engine --example dominoes -- 6 6` prints both counts (the search's
//! only up to 8x8, which takes seconds; larger boards take centuries); with `--dlx` it prints
//! the problem in `.dlx` format instead.

use dlx_engine::{BuildError, Count, Problem, ProblemBuilder, Solver};

/// The domino tilings of a `rows` x `cols` board. Square `(r, c)` is item `r * cols + c`; the
/// options come square by square, in reading order, each square's domino across before its
/// domino down.
pub fn dominoes(rows: usize, cols: usize) -> Result<Problem, BuildError> {
    let mut b = ProblemBuilder::new();
    let squares: Vec<_> = (0..rows * cols)
        .map(|k| b.primary(format!("r{}c{}", k / cols, k % cols)))
        .collect::<Result<_, _>>()?;
    for r in 0..rows {
        for c in 0..cols {
            let here = squares[r * cols + c];
            if c + 1 < cols {
                b.option([here, squares[r * cols + c + 1]])?;
            }
            if r + 1 < rows {
                b.option([here, squares[(r + 1) * cols + c]])?;
            }
        }
    }
    Ok(b.build())
}

/// The number of domino tilings of a `rows` x `cols` board, counted row by row, independently
/// of the search: a state is the set of squares of the next row already covered by dominoes down
/// from this one (a bit per column), and each row is filled, column by column, with dominoes
/// across and down, from each state to the next. Exact however large (a [`Count`]); `None` when
/// `cols` is over 20 (the states would not fit in memory; count the board turned instead).
pub fn tilings(rows: usize, cols: usize) -> Option<Count> {
    if cols > 20 {
        return None;
    }
    let mut ways = vec![Count::ZERO; 1 << cols];
    ways[0] = Count::from(1u64);
    for _ in 0..rows {
        let mut next = vec![Count::ZERO; 1 << cols];
        for (from, n) in ways.iter().enumerate().filter(|(_, n)| !n.is_zero()) {
            fill(cols, from, 0, 0, n, &mut next);
        }
        ways = next;
    }
    Some(ways.swap_remove(0))
}

/// Fills the row whose squares `covered` (a bit per column) are covered already, from column
/// `c`, having put dominoes down into the next row at `down`; adds `n` to `next[down]` for each
/// way.
fn fill(cols: usize, covered: usize, c: usize, down: usize, n: &Count, next: &mut [Count]) {
    if c == cols {
        next[down] += n;
        return;
    }
    if covered & 1 << c != 0 {
        return fill(cols, covered, c + 1, down, n, next);
    }
    // A domino down from (this row, c).
    fill(cols, covered, c + 1, down | 1 << c, n, next);
    // A domino across (c, c + 1).
    if c + 1 < cols && covered & 1 << (c + 1) == 0 {
        fill(cols, covered, c + 2, down, n, next);
    }
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    // Written through a lock with `?`, so a closed pipe (`| head`) ends the example with an error
    // message instead of a panic.
    let mut out = std::io::stdout().lock();
    let mut numbers = std::env::args().skip(1).filter(|a| a != "--dlx").map(|s| s.parse::<usize>());
    let rows = numbers.next().unwrap_or(Ok(6))?;
    let cols = numbers.next().unwrap_or(Ok(rows))?;
    let problem = dominoes(rows, cols)?;
    if std::env::args().any(|a| a == "--dlx") {
        problem.write_dlx(&mut out)?;
        return Ok(());
    }
    match tilings(rows, cols) {
        Some(n) => writeln!(out, "{rows}x{cols} dominoes: {n} tilings (transfer matrix)")?,
        None => writeln!(out, "{rows}x{cols} dominoes: past the transfer matrix's reach")?,
    }
    if rows * cols <= 64 {
        let mut solver = Solver::new(&problem);
        let count = solver.count()?;
        writeln!(out, "{rows}x{cols} dominoes: {count} tilings (search), {:?}", solver.stats())?;
    }
    Ok(())
}
