//! 0-1 matrices with given line sums, as exact cover with multiplicities: the `n` x `n` matrices
//! of zeros and ones whose every row and every column sums to `k`.
//!
//! Items: one per row (`r0..`) and per column (`c0..`), primary, each with bounds `k..=k` (written
//! `k|r0` in `.dlx` text): a solution covers each exactly `k` times. One option per cell, `ri cj`:
//! choosing it puts a 1 there. Each option is chosen once at most and each solution, a set of
//! cells, is found once, so the count is the number of matrices. Without multiplicities this
//! would need an item per (row, one of its `k` ones) and would find each matrix `k!^(2n)` times.
//! With `k = 2` the counts for `n = 0, 1, 2, ...` are 1, 0, 1, 6, 90, 2040, 67950, 3110940.
//!
//! `--lower L` relaxes the bounds to `L..=k` (`L:k|r0`): each line then sums to at least `L` and
//! at most `k`.
//!
//! `cargo run --release -p dlx-engine --example line_sums -- 7 2` counts the 7 x 7 matrices with
//! line sums 2; `--dlx` prints the problem instead of solving it.

use dlx_engine::{BuildError, Problem, ProblemBuilder, Solver};

/// The problem of the `n` x `n` 0-1 matrices whose lines each sum to between `lower` and `k`.
pub fn line_sums(n: usize, lower: u32, k: u32) -> Result<Problem, BuildError> {
    let mut b = ProblemBuilder::new();
    let rows: Vec<_> =
        (0..n).map(|i| b.primary_with_bounds(format!("r{i}"), lower..=k)).collect::<Result<_, _>>()?;
    let columns: Vec<_> =
        (0..n).map(|j| b.primary_with_bounds(format!("c{j}"), lower..=k)).collect::<Result<_, _>>()?;
    for &row in &rows {
        for &column in &columns {
            b.option([row, column])?;
        }
    }
    Ok(b.build())
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dlx = args.iter().any(|a| a == "--dlx");
    let lower_at = args.iter().position(|a| a == "--lower");
    let lower: Option<u32> = lower_at.and_then(|k| args.get(k + 1)).map(|l| l.parse()).transpose()?;
    let numbers: Vec<u32> = args
        .iter()
        .enumerate()
        .filter(|&(k, _)| lower_at.is_none_or(|at| k != at + 1))
        .filter_map(|(_, a)| a.parse().ok())
        .collect();
    let n = numbers.first().copied().unwrap_or(5) as usize;
    let k = numbers.get(1).copied().unwrap_or(2);
    let lower = lower.unwrap_or(k);
    let problem = line_sums(n, lower, k)?;
    if dlx {
        writeln!(out, "| {n}x{n} 0-1 matrices whose rows and columns each sum to {lower}..={k}")?;
        problem.write_dlx(&mut out)?;
        return Ok(());
    }
    let mut solver = Solver::new(&problem);
    let count = solver.count()?;
    writeln!(out, "{n}x{n} matrices with line sums {lower}..={k}: {count}, {:?}", solver.stats())?;
    if let Some(solution) = solver.first()? {
        let mut grid = vec![vec!['.'; n]; n];
        for option in solution {
            let cell: Vec<usize> = problem.option_items(option).map(|item| item.index()).collect();
            // Rows were declared first, then columns.
            grid[cell[0]][cell[1] - n] = '1';
        }
        for row in grid {
            writeln!(out, "{}", row.into_iter().collect::<String>())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counted against brute force: every 0-1 matrix, kept when its line sums are in bounds.
    #[test]
    fn counts_match_brute_force() {
        for (n, lower, k) in
            [(0, 2, 2), (1, 1, 1), (2, 1, 1), (3, 2, 2), (3, 1, 2), (4, 2, 2), (4, 0, 1), (4, 1, 3)]
        {
            let engine = Solver::new(&line_sums(n, lower, k).unwrap()).count().unwrap();
            let in_bounds = |sum: u32| (lower..=k).contains(&sum);
            let brute = (0u32..1 << (n * n))
                .filter(|&bits| {
                    let one = |i: usize, j: usize| (bits >> (i * n + j)) & 1;
                    (0..n).all(|i| in_bounds((0..n).map(|j| one(i, j)).sum()))
                        && (0..n).all(|j| in_bounds((0..n).map(|i| one(i, j)).sum()))
                })
                .count();
            assert_eq!(engine, brute as u64, "{n}x{n}, sums {lower}..={k}");
        }
    }
}
