//! How well a search shares out among threads: cuts the search of a `.dlx` problem as
//! `ParallelSolver` would for `threads` threads (at least `PIECES_PER_THREAD` subtrees per
//! thread), searches each subtree, and reports the spread of their sizes in updates (which track
//! time better than nodes), with the least work the busiest of `threads` threads could have
//! relative to an even share (the largest subtree bounds it from below, and so does the total
//! divided by the threads).
//!
//! `cargo run --release -p dlx-engine --example subtrees -- fixtures/pentominoes6x10.dlx 64`

use dlx_engine::{PIECES_PER_THREAD, Problem, Solver};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().ok_or("usage: subtrees FILE.dlx [THREADS]")?;
    let threads: u64 = args.get(1).map(|t| t.parse()).transpose()?.unwrap_or(64);
    let problem = Problem::parse_dlx_bytes(&std::fs::read(path)?)?;
    let mut solver = Solver::new(&problem);
    let want = usize::try_from(threads)? * PIECES_PER_THREAD;
    let mut depth = 1;
    let split = loop {
        let split = solver.split(depth)?;
        if split.subtrees.len() >= want || split.subtrees.iter().all(|t| t.depth() < depth) || depth >= 64 {
            break split;
        }
        depth += 1;
    };
    let mut sizes = Vec::with_capacity(split.subtrees.len());
    for subtree in &split.subtrees {
        solver.count_subtree(subtree)?;
        sizes.push(solver.stats().updates);
    }
    let total: u64 = sizes.iter().sum::<u64>() + split.stats.updates;
    sizes.sort_unstable();
    let largest = sizes.last().copied().unwrap_or(0);
    let share = total as f64 / threads as f64;
    // A lower bound of the busiest thread's updates, whatever the order: the largest subtree, or an
    // even share of the whole.
    let bound = (largest as f64).max(share);
    println!(
        "{} subtrees at depth {depth}; updates: total {total}, above the cut {}, largest subtree {largest} \
         ({:.2}% of the total), median {}; with {threads} threads the busiest does at least {:.3}x an \
         even share",
        sizes.len(),
        split.stats.updates,
        100.0 * largest as f64 / total.max(1) as f64,
        sizes.get(sizes.len() / 2).copied().unwrap_or(0),
        bound / share.max(1.0),
    );
    Ok(())
}
