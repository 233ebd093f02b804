//! Langford pairs as exact cover: place two copies of each of `1..=n` in `2n` slots so that the
//! copies of `k` have exactly `k` numbers between them.
//!
//! Items: one per number (`k`, primary) and one per slot (`s0..`, primary). Option: number `k`
//! at slots `i` and `i + k + 1`. Counting each pairing and its reversal, n = 11 has 35584
//! solutions.
//!
//! `cargo run --release -p dlx-engine --example langford -- 11` (`--dlx` prints the problem
//! instead)

use dlx_engine::{BuildError, Problem, ProblemBuilder, Solver};

/// The Langford pairs problem for `n`. Option order: by number, then by first slot.
pub fn langford(n: usize) -> Result<Problem, BuildError> {
    let mut b = ProblemBuilder::new();
    let numbers: Vec<_> = (1..=n).map(|k| b.primary(k.to_string())).collect::<Result<_, _>>()?;
    let slots: Vec<_> = (0..2 * n).map(|s| b.primary(format!("s{s}"))).collect::<Result<_, _>>()?;
    for k in 1..=n {
        for i in 0..(2 * n).saturating_sub(k + 1) {
            b.option([numbers[k - 1], slots[i], slots[i + k + 1]])?;
        }
    }
    Ok(b.build())
}

#[allow(dead_code)]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    use std::io::Write;
    // Written through a lock with `?`, so a closed pipe (`| head`) ends the example with an error
    // message instead of a panic.
    let mut out = std::io::stdout().lock();
    let n: usize = std::env::args().nth(1).map_or(Ok(11), |s| s.parse())?;
    let problem = langford(n)?;
    if std::env::args().any(|a| a == "--dlx") {
        problem.write_dlx(&mut out)?;
        return Ok(());
    }
    let mut solver = Solver::new(&problem);
    let count = solver.count()?;
    writeln!(out, "Langford n = {n}: {count} solutions, {:?}", solver.stats())?;
    if let Some(solution) = solver.first()? {
        let mut slots = vec![0; 2 * n];
        for option in solution {
            let mut items = problem.option_items(option);
            let number: usize = problem.item_name(items.next().expect("number")).parse()?;
            for slot in items {
                slots[problem.item_name(slot)[1..].parse::<usize>()?] = number;
            }
        }
        writeln!(out, "{slots:?}")?;
    }
    Ok(())
}
