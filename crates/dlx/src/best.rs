//! The solutions of least total cost, for problems whose options have costs (Knuth's DLX5:
//! `|n` in a `.dlx` option line, [`ProblemBuilder::set_cost`](crate::ProblemBuilder::set_cost)).
//!
//! A solution's cost is the sum of its options' costs, in a `u128` (it cannot wrap). The `k`
//! cheapest are kept as the search finds solutions, in a heap of at most `k`: a solution no
//! cheaper than the `k`-th kept costs a sum and a comparison, and is not copied. Among solutions
//! of equal cost, those found first are kept, and come first.
//!
//! # Limits
//!
//! Every solution is visited: no bound prunes the search yet. DLX5 assigns each primary item a
//! tax (the least cost of its options), so that every option's net cost is not negative, and
//! stops a branch as soon as its net cost reaches the `k`-th best found; that pruning, on the
//! search's own levels, is what makes it fast on problems with many solutions, and is not done
//! here. The answers are the same.
//!
//! ```
//! use dlx_engine::{Problem, Solver};
//! let problem: Problem = "a b\na |3\nb |4\na b |5\n".parse().unwrap();
//! let best = Solver::new(&problem).best(2).unwrap();
//! let costs: Vec<u128> = best.iter().map(|(cost, _)| *cost).collect();
//! assert_eq!(costs, [5, 7]);
//! ```

use std::collections::BinaryHeap;
use std::ops::ControlFlow;

use crate::{Interrupted, OptionId, ParallelSolver, Problem, Solver};

/// A solution of a [`best`](Solver::best) search: its total cost and its options.
pub type Priced = (u128, Vec<OptionId>);

/// The `k` cheapest solutions offered so far.
struct Cheapest {
    k: usize,
    /// Max-heap on (cost, order found): the top is the one to drop first.
    kept: BinaryHeap<(u128, u64, Vec<OptionId>)>,
    offered: u64,
}

impl Cheapest {
    fn new(k: usize) -> Cheapest {
        Cheapest { k, kept: BinaryHeap::with_capacity(k.min(1 << 16)), offered: 0 }
    }

    /// Offers a solution; copies it only if it is kept.
    fn offer<I: Iterator<Item = OptionId>>(&mut self, problem: &Problem, options: impl Fn() -> I) {
        let cost: u128 = options().map(|o| u128::from(problem.option_cost(o))).sum();
        let order = self.offered;
        self.offered += 1;
        if self.kept.len() < self.k {
            self.kept.push((cost, order, options().collect()));
        } else if self.kept.peek().is_some_and(|top| (cost, order) < (top.0, top.1)) {
            self.kept.pop();
            self.kept.push((cost, order, options().collect()));
        }
    }

    /// The solutions kept, cheapest first.
    fn into_sorted(self) -> Vec<Priced> {
        self.kept.into_sorted_vec().into_iter().map(|(cost, _, options)| (cost, options)).collect()
    }
}

impl Solver<'_> {
    /// The `k` solutions of least total cost (the sum of their options' costs), cheapest first;
    /// among equal costs, those the search finds first. Fewer when there are fewer solutions;
    /// with no costs, the first `k` solutions, each of cost 0. See the [module docs](crate::best)
    /// for what it does not do yet.
    pub fn best(&mut self, k: usize) -> Result<Vec<Priced>, Interrupted> {
        let mut cheapest = Cheapest::new(k);
        if k > 0 {
            let problem = self.problem();
            self.for_each(|s| {
                cheapest.offer(problem, || s.options());
                ControlFlow::Continue(())
            })?;
        }
        Ok(cheapest.into_sorted())
    }
}

impl ParallelSolver<'_> {
    /// [`Solver::best`] on every thread: the same solutions, in the same order.
    pub fn best(&self, k: usize) -> Result<Vec<Priced>, Interrupted> {
        let mut cheapest = Cheapest::new(k);
        if k > 0 {
            let problem = self.problem;
            self.for_each(|options| {
                cheapest.offer(problem, || options.iter().copied());
                ControlFlow::Continue(())
            })?;
        }
        Ok(cheapest.into_sorted())
    }
}
