//! Knuth's estimate of a search before it runs: random paths down its tree.
//!
//! The search branches at each node on one item (the one it would choose: the shortest), into
//! one child per option of that item. Walk down from the root choosing one child at random at
//! each level, uniformly, until a solution or a dead end, and multiply the numbers of children
//! met: at depth `k` the product `d1 d2 ... dk` is an unbiased estimate of the number of nodes at
//! that depth (each node at depth `k` is reached with probability `1 / (d1 ... dk)` when it lies
//! on the path). So the sum `1 + d1 + d1 d2 + ...` estimates the tree's nodes, and the product at
//! a solution (0 at a dead end) its solutions (Knuth, *The Art of Computer Programming* 4B,
//! 7.2.2, after Hall and Knuth 1965). The mean of many paths converges; a single path may be far
//! off, as the trees of exact-cover problems are uneven, so the figures tell orders of
//! magnitude: a count of hours from one of years.
//!
//! Each path forces the options it walks through, as [`Solver::force`] does, and takes them back:
//! the estimate leaves the solver as it found it.
//!
//! For example, the partitions of {A, B, C, D} into singletons and pairs (10 of them). A has four
//! options. A path that takes {A}, then {B} (of B's three), then {C, D} (of C's two) meets 4, 3
//! and 2 ways and estimates 24 solutions; one that takes {A, B}, then {C} and {D} meets 4, 2 and 1
//! and estimates 8. Weighted by the chances of the paths (1/24 and 1/8 here), the estimates of
//! all paths average exactly 10.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::choose::{self, Recent};

use super::Solver;

/// Knuth's estimate of a search tree (see [`Solver::estimate`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The nodes the search would make (counting the root), as [`Stats::nodes`] counts them on
    /// the links: the mean over the paths of `1 + d1 + d1 d2 + ...`.
    ///
    /// [`Stats::nodes`]: crate::Stats::nodes
    pub nodes: f64,
    /// The solutions: the mean over the paths of the product of the branchings met, for those
    /// that end in a solution (0 for a dead end).
    pub solutions: f64,
    /// The paths taken.
    pub paths: u32,
}

impl Solver<'_> {
    /// Knuth's estimate of the search that a count would run now (the forced and excluded
    /// options applied): the mean of `paths` random paths down its tree, the same for the same
    /// `seed`. `None` for a problem with multiplicities, whose levels also branch on how many
    /// options an item takes. It costs about `paths` times the depth of the tree in forced
    /// options, and counts nothing in [`stats`](Self::stats).
    ///
    /// ```
    /// use dlx_engine::{Problem, Solver};
    /// // Every subset of {A, B, C, D} that partitions it, from the singletons and the pairs:
    /// // 10 solutions.
    /// let problem: Problem = "A B C D\nA\nB\nC\nD\nA B\nA C\nA D\nB C\nB D\nC D\n".parse()?;
    /// let mut solver = Solver::new(&problem);
    /// let estimate = solver.estimate(1000, 1).expect("no multiplicities");
    /// assert!((7.0..13.0).contains(&estimate.solutions), "{estimate:?}");
    /// assert_eq!(solver.count()?, 10);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn estimate(&mut self, paths: u32, seed: u64) -> Option<Estimate> {
        if self.multi.is_some() {
            return None;
        }
        self.settle();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let recent = Recent::new();
        let kept = self.restrictions.len();
        let (mut nodes, mut solutions) = (0.0, 0.0);
        for _ in 0..paths {
            // The product of the branchings so far: the weight of a node at this depth.
            let mut weight = 1.0;
            nodes += 1.0;
            loop {
                let item = self.links.with(|d| choose::choose(d, &recent, 0));
                if item == 0 {
                    // No primary item is left: a solution.
                    solutions += weight;
                    break;
                }
                let ways = self.links.len_of(item);
                if ways == 0 {
                    break;
                }
                weight *= f64::from(ways);
                nodes += weight;
                let mut node = self.links.uds()[item as usize].down;
                for _ in 0..rng.random_range(0..ways) {
                    node = self.links.uds()[node as usize].down;
                }
                let option = self.problem.option_of_node(node);
                let first = self.problem.option_first_node(option).expect("an option of the problem");
                let forced = self.apply_forced(first);
                self.restrictions.push(forced);
            }
            self.take_back_to(kept);
        }
        let n = f64::from(paths.max(1));
        Some(Estimate { nodes: nodes / n, solutions: solutions / n, paths })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Problem, Solver};

    /// Queens on boards of 4 to 7: the estimates of many paths land near the true counts and
    /// node counts, the solver is left as it was, and the same seed gives the same estimate.
    #[test]
    fn estimates_land_near_the_counts() {
        for n in 4..=7 {
            let problem: Problem = queens(n).parse().unwrap();
            let mut solver = Solver::new(&problem);
            let estimate = solver.estimate(20_000, 3).unwrap();
            assert_eq!(solver.estimate(20_000, 3), Some(estimate));
            let count = solver.count().unwrap() as f64;
            let nodes = solver.stats().nodes as f64;
            assert!((estimate.solutions - count).abs() <= 0.2 * count, "{n}: {estimate:?}, {count}");
            assert!((estimate.nodes - nodes).abs() <= 0.2 * nodes, "{n}: {estimate:?}, {nodes}");
        }
    }

    /// With options forced, the estimate is of what is left, and takes nothing back but its
    /// own paths.
    #[test]
    fn forced_options_stay() {
        let problem: Problem = queens(6).parse().unwrap();
        let mut solver = Solver::new(&problem);
        // r0 c1 a1 b4: the queen of the first row in the second column.
        solver.force(crate::OptionId::new(1).unwrap()).unwrap();
        let estimate = solver.estimate(5_000, 1).unwrap();
        assert_eq!(solver.forced().count(), 1);
        let count = solver.count().unwrap() as f64;
        assert_eq!(count, 1.0);
        assert!((estimate.solutions - count).abs() <= 0.2, "{estimate:?}");
    }

    /// Queens on an `n` x `n` board: rows and columns primary, diagonals secondary.
    fn queens(n: usize) -> String {
        let names = |p: &str, k: usize| (0..k).map(|i| format!("{p}{i}")).collect::<Vec<_>>().join(" ");
        let mut text = format!(
            "{} {} | {} {}\n",
            names("r", n),
            names("c", n),
            names("a", 2 * n - 1),
            names("b", 2 * n - 1)
        );
        for r in 0..n {
            for c in 0..n {
                text.push_str(&format!("r{r} c{c} a{} b{}\n", r + c, r + n - 1 - c));
            }
        }
        text
    }
}
