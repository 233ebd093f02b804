//! [`Solver::best`]: the `k` cheapest solutions of a problem with costs (see [`crate::best`]).

use std::ops::ControlFlow;

use super::{Interrupted, Solver, Step};
use crate::best::{Cheapest, Priced, Pricing};

impl Solver<'_> {
    /// The `k` solutions of least total cost (the sum of their options' costs), cheapest first;
    /// among equal costs, those the search finds first. Fewer when there are fewer solutions;
    /// with no costs, the first `k` solutions, each of cost 0. The search is pruned by DLX5's
    /// bound (see the [module docs](crate::best)); its figures are in [`stats`](Self::stats).
    pub fn best(&mut self, k: usize) -> Result<Vec<Priced>, Interrupted> {
        let mut cheapest = Cheapest::new(k);
        if k == 0 {
            return Ok(Vec::new());
        }
        let problem = self.problem();
        if problem.has_multiplicities() || !problem.has_costs() {
            self.for_each(|s| {
                cheapest.offer(problem, || s.options());
                ControlFlow::Continue(())
            })?;
            return Ok(cheapest.into_sorted());
        }
        self.start_run();
        let pricing = Pricing::new(problem, &self.chosen[..self.base], self.chosen.len() + 1);
        let total_tax = pricing.total_tax;
        self.pricing = Some(Box::new(pricing));
        self.reserve_pool();
        self.pool.clear();
        let mut resume = false;
        let result = loop {
            match self.step(resume) {
                Step::Solution => {
                    let nodes = self.chosen[..self.level].to_vec();
                    cheapest.offer(problem, || nodes.iter().map(|&n| problem.option_of_node(n)));
                    if let (true, Some(kth), Some(pricing)) =
                        (cheapest.full(), cheapest.kth(), self.pricing.as_deref_mut())
                    {
                        pricing.cutoff = kth - total_tax;
                    }
                    resume = true;
                }
                Step::Frontier => resume = true,
                Step::Exhausted => break Ok(()),
                Step::Interrupted(reason) => {
                    self.pending = true;
                    break Err(Interrupted { reason, solutions: self.stats.solutions.clone() });
                }
            }
        };
        // The levels are undone before the pool stops being used (the search is exhausted, or
        // pending and settled by the next run, which the pool no longer orders).
        self.settle();
        self.pricing = None;
        result.map(|()| cheapest.into_sorted())
    }
}
