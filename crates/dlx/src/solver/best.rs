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
        // DLX5 keeps its lists sorted by net cost; so do these links while the search runs
        // (with colors, each level's options are ordered in the pool instead, and the lists keep
        // the order of the nodes in memory, which a walk down them reads faster).
        let sorted = !self.links.is_colored();
        if sorted {
            self.links.sort_lists(|p| pricing.node_net[p as usize]);
        }
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
        // An interrupted search leaves its levels covered: undone here, with the thresholds they
        // were covered with where the lists were sorted (a search in the pool covered them as
        // any search does, and is settled as any).
        if self.pending
            && !self.pooled()
            && let Some(pricing) = self.pricing.as_deref_mut()
        {
            while self.level > self.base {
                self.level -= 1;
                let x = self.chosen[self.level];
                self.links.with(|links| {
                    links.uncover_rest_below(x, &mut pricing.hidden);
                    links.uncover_below(links.item_of(x), &mut pricing.hidden);
                });
            }
            self.links.truncate_emptied(self.run_emptied);
            self.stats.updates = self.links.updates();
            self.pending = false;
        }
        self.settle();
        if sorted {
            self.links.sort_lists(|_| 0);
        }
        self.pricing = None;
        result.map(|()| cheapest.into_sorted())
    }
}
