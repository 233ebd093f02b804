//! N-queens as exact cover: one primary item per row and per column (each holds exactly one
//! queen), one secondary item per diagonal (each holds at most one), one option per square.
//!
//! `cargo run --release -p dlx-engine --example queens -- 8` prints the count and one solution;
//! with `--dlx` it prints the problem in `.dlx` format instead.

use dlx_engine::{BuildError, Problem, ProblemBuilder, Solver};

/// The N-queens problem. Items: `r0..`, `c0..` (primary), `a0..` and `b0..` (diagonals,
/// secondary). Option `k` is the square `(k / n, k % n)`. Rows and columns are declared from the
/// middle outwards, which Knuth found makes MRV's ties fall on the most constrained lines.
pub fn queens(n: usize) -> Result<Problem, BuildError> {
    let mut b = ProblemBuilder::new();
    let mut rows = vec![None; n];
    let mut cols = vec![None; n];
    for k in organ_pipe(n) {
        rows[k] = Some(b.primary(format!("r{k}"))?);
        cols[k] = Some(b.primary(format!("c{k}"))?);
    }
    let diagonals = 2 * n.saturating_sub(1) + usize::from(n > 0);
    let a: Vec<_> = (0..diagonals).map(|k| b.secondary(format!("a{k}"))).collect::<Result<_, _>>()?;
    let d: Vec<_> = (0..diagonals).map(|k| b.secondary(format!("b{k}"))).collect::<Result<_, _>>()?;
    for r in 0..n {
        for c in 0..n {
            let (row, col) = (rows[r].expect("declared"), cols[c].expect("declared"));
            b.option([row, col, a[r + c], d[r + n - 1 - c]])?;
        }
    }
    Ok(b.build())
}

/// `0..n` from the middle outwards: for 8, `3 4 2 5 1 6 0 7`.
fn organ_pipe(n: usize) -> impl Iterator<Item = usize> {
    (0..n).map(move |k| if k % 2 == 0 { (n - 1) / 2 - k / 2 } else { (n - 1) / 2 + k.div_ceil(2) })
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    // Written through a lock with `?`, so a closed pipe (`| head`) ends the example with an error
    // message instead of a panic.
    let mut out = std::io::stdout().lock();
    let n: usize = std::env::args().nth(1).map_or(Ok(8), |s| s.parse())?;
    let problem = queens(n)?;
    if std::env::args().any(|a| a == "--dlx") {
        problem.write_dlx(&mut out)?;
        return Ok(());
    }
    let mut solver = Solver::new(&problem);
    let count = solver.count()?;
    writeln!(out, "{n}-queens: {count} solutions, {:?}", solver.stats())?;
    if let Some(solution) = solver.first()? {
        let mut board = vec![vec!['.'; n]; n];
        for option in solution {
            let k = option.index();
            board[k / n][k % n] = 'Q';
        }
        for row in board {
            writeln!(out, "{}", row.into_iter().collect::<String>())?;
        }
    }
    Ok(())
}
