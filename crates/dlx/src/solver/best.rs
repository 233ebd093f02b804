//! [`Solver::best`]: the `k` cheapest solutions of a problem with costs (see [`crate::best`]).

use std::ops::ControlFlow;

use super::{Budget, Counting, Interrupted, Solver, Step, StopReason};
use crate::best::{Cheapest, Priced as Solution, Pricing};
use crate::bitsets::{self, Priced};

/// Nodes the search for the cheapest solutions makes on the links before it decides where to
/// go on (see [`Solver::best`]).
const PRICED_PROBE_NODES: u64 = 1 << 10;

/// An update on the links costs about this many words of a level's state read on bit sets
/// (fitted on the 6x10 pentominoes, where bit sets win, and an empty sudoku grid, where the
/// links do: `benches/RESULTS.md`).
const PRICED_UPDATE_COST: u64 = 11;

impl Solver<'_> {
    /// The `k` solutions of least total cost (the sum of their options' costs), cheapest first;
    /// among equal costs, those the search finds first. Fewer when there are fewer solutions;
    /// with no costs, the first `k` solutions, each of cost 0. The search is pruned by DLX5's
    /// bound (see the [module docs](crate::best)); its figures are in [`stats`](Self::stats).
    /// It runs on bit sets where the problem allows them and they pay, as [`Counting`] says
    /// (the same tree; no updates counted, and a budget of updates keeps it on the links).
    pub fn best(&mut self, k: usize) -> Result<Vec<Solution>, Interrupted> {
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
        let (forced, depth) = (self.chosen[..self.base].to_vec(), self.chosen.len() + 1);
        let pricing = || Pricing::new(problem, &forced, depth);
        let first = pricing();
        let choice = self.bitsets.choice();
        // (Bit sets count no updates: a budget of updates keeps the search on the links.)
        let on_bitsets = choice != Counting::Links && self.budget.updates.is_none();
        let priced = on_bitsets.then(|| Priced::new(problem, &first.node_net)).flatten();
        let Some(priced) = priced else {
            return self.best_on_links(first, &mut cheapest).0.map(|()| cheapest.into_sorted());
        };
        if choice == Counting::BitSets {
            return self.best_on_bitsets(&priced, first, &forced, cheapest);
        }
        // Bit sets pay where a node's hides cost more than reading the state (see
        // `bitsets::priced`): the first nodes on the links tell, and the search starts again
        // where they say (the figures are the second start's).
        let budget = self.budget;
        let probe = budget.nodes.map_or(PRICED_PROBE_NODES, |n| n.min(PRICED_PROBE_NODES));
        self.budget = Budget { nodes: Some(probe), ..budget };
        let mut probed = Cheapest::new(k);
        let (tried, updates) = self.best_on_links(first, &mut probed);
        self.budget = budget;
        match tried {
            Ok(()) => return Ok(probed.into_sorted()),
            Err(e) if e.reason != StopReason::Budget || probe < PRICED_PROBE_NODES => return Err(e),
            Err(_) => {}
        }
        let state = priced.node_words() as u64;
        if updates.saturating_mul(PRICED_UPDATE_COST) < self.stats.nodes.saturating_mul(state) {
            return self.best_on_links(pricing(), &mut cheapest).0.map(|()| cheapest.into_sorted());
        }
        self.best_on_bitsets(&priced, pricing(), &forced, cheapest)
    }

    /// DLX5's search on bit sets (see `bitsets::priced`), below the forced options (their first
    /// nodes).
    fn best_on_bitsets(
        &mut self,
        priced: &Priced,
        pricing: Pricing,
        forced: &[u32],
        mut cheapest: Cheapest,
    ) -> Result<Vec<Solution>, Interrupted> {
        let problem = self.problem();
        self.start_run();
        let forced: Vec<_> = forced.iter().map(|&n| problem.option_of_node(n)).collect();
        let limits = bitsets::Limits::new(u64::MAX, self.budget, self.cancel.as_ref());
        let mut cutoff = u128::MAX;
        let (nodes, guesses, stopped) = priced.search(bitsets::PricedRun {
            problem,
            links: &self.links,
            forced: &forced,
            base_cost: pricing.level[self.base],
            cutoff: &mut cutoff,
            total_tax: pricing.total_tax,
            cheapest: &mut cheapest,
            limits: &limits,
        });
        (self.stats.nodes, self.stats.guesses) = (nodes, guesses);
        self.stats.solutions = cheapest.offered().into();
        match stopped {
            None => Ok(cheapest.into_sorted()),
            Some(reason) => Err(Interrupted { reason, solutions: self.stats.solutions.clone() }),
        }
    }

    /// DLX5's search on the links, offering the solutions to `cheapest`; with the updates it
    /// made (before undoing its levels, when it stopped early).
    fn best_on_links(&mut self, pricing: Pricing, cheapest: &mut Cheapest) -> (Result<(), Interrupted>, u64) {
        let problem = self.problem();
        self.start_run();
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
        let updates = self.links.updates();
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
        (result, updates)
    }
}
