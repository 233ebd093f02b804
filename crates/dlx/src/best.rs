//! The solutions of least total cost, for problems whose options have costs (Knuth's DLX5:
//! `|n` in a `.dlx` option line, [`ProblemBuilder::set_cost`](crate::ProblemBuilder::set_cost)).
//!
//! A solution's cost is the sum of its options' costs, in a `u128` (it cannot wrap). The `k`
//! cheapest are kept as the search finds solutions, in a heap of at most `k`: a solution no
//! cheaper than the `k`-th kept costs a sum and a comparison, and is not copied. Among solutions
//! of equal cost, those found first are kept, and come first.
//!
//! # The bound (DLX5's)
//!
//! Each primary item is taxed the least cost of its options (items in order, each option's cost
//! net of the taxes before), so that every option's net cost is at least 0 and every solution
//! costs its net cost plus the total tax. A branch whose net cost so far, with that of the option
//! tried, reaches the net cost of the `k`-th best found (once `k` are found) cannot give a better
//! one. So, as DLX5 does:
//!
//! - every item's list is sorted by net cost while the search runs (and put back after), so
//!   that a level tries its item's options cheapest first and stops at the first that reaches
//!   the bound;
//! - the item chosen is the one with the fewest options *below the bound* (counted no further
//!   than the fewest so far), ties to the one whose cheapest option costs most; one with none
//!   ends the branch;
//! - covering an item hides only the options still below the bound (those above can no longer
//!   be chosen below, and stay, inert, in the other lists), with thresholds kept per level so
//!   that the uncovering undoes exactly that (`LinksMut::cover_below`).
//!
//! # On bit sets
//!
//! Without colors or multiplicities, and with at most 16,384 options, the same search runs on
//! bit sets where nodes hide many options each (the pentominoes; `Counting` says where, as for
//! counts): the options numbered again by net cost, "below the bound" is a prefix of every
//! column, a level reads and copies only that prefix, and choosing an option clears its items'
//! columns at once (see `bitsets::priced`). The tree is the same, node for node and guess for
//! guess (a guess: an option tried where more than one was below the bound); no updates are
//! counted there.
//!
//! On Langford pairs and queens with costs the tree is DLX5's, update for update
//! (`benches/RESULTS.md`; nodes are counted otherwise). With colors the lists keep their order,
//! each level's options are ordered by cost in the pool the seeded search uses, covers hide
//! every option, and the choice is the search's own: the same answers from a larger tree.
//! Problems with multiplicities have no such taxes (an item may be covered several times or
//! none): every solution is visited there, with the same answers.
//!
//! ```
//! use dlx_engine::{Problem, Solver};
//! let problem: Problem = "a b\na |3\nb |4\na b |5\n".parse().unwrap();
//! let best = Solver::new(&problem).best(2).unwrap();
//! let costs: Vec<u128> = best.iter().map(|(cost, _)| *cost).collect();
//! assert_eq!(costs, [5, 7]);
//! ```

use std::collections::BinaryHeap;

use crate::links::LinksMut;
use crate::{OptionId, Problem};

/// A solution of a [`best`](crate::Solver::best) search: its total cost and its options.
pub type Priced = (u128, Vec<OptionId>);

/// The `k` cheapest solutions offered so far.
pub(crate) struct Cheapest {
    k: usize,
    /// Max-heap on (cost, order found): the top is the one to drop first.
    kept: BinaryHeap<(u128, u64, Vec<OptionId>)>,
    offered: u64,
}

impl Cheapest {
    pub(crate) fn new(k: usize) -> Cheapest {
        Cheapest { k, kept: BinaryHeap::with_capacity(k.min(1 << 16)), offered: 0 }
    }

    /// Offers a solution; copies it only if it is kept.
    pub(crate) fn offer<I: Iterator<Item = OptionId>>(&mut self, problem: &Problem, options: impl Fn() -> I) {
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

    /// How many solutions were offered.
    pub(crate) fn offered(&self) -> u64 {
        self.offered
    }

    /// Whether `k` solutions are kept.
    pub(crate) fn full(&self) -> bool {
        self.kept.len() >= self.k
    }

    /// The cost of the `k`-th cheapest kept (the dearest), if any.
    pub(crate) fn kth(&self) -> Option<u128> {
        self.kept.peek().map(|top| top.0)
    }

    /// The solutions kept, cheapest first.
    pub(crate) fn into_sorted(self) -> Vec<Priced> {
        self.kept.into_sorted_vec().into_iter().map(|(cost, _, options)| (cost, options)).collect()
    }
}

/// DLX5's taxes: each primary item in the layout's order is taxed the least net cost of its
/// options, which then lose it. Returns each option's net cost (never negative) and the total
/// tax, which every solution pays whole when each primary item is covered once.
fn taxes(problem: &Problem) -> (Vec<u64>, u128) {
    let mut net: Vec<u64> = problem.options().map(|o| problem.option_cost(o)).collect();
    let mut of_item: Vec<Vec<usize>> = vec![Vec::new(); problem.item_count()];
    for option in problem.options() {
        for item in problem.option_items(option) {
            if problem.is_primary(item) {
                of_item[item.index()].push(option.index());
            }
        }
    }
    let mut total_tax = 0u128;
    let mut layout: Vec<_> = problem.items().filter(|&i| problem.is_primary(i)).collect();
    layout.sort_by_key(|&i| problem.layout_of(i));
    for item in layout {
        let options = &of_item[item.index()];
        let Some(tax) = options.iter().map(|&o| net[o]).min() else { continue };
        total_tax += u128::from(tax);
        for &o in options {
            net[o] -= tax;
        }
    }
    (net, total_tax)
}

impl Problem {
    /// A lower bound on the cost of every solution: the total of DLX5's taxes (each primary
    /// item taxed the least cost of its options, net of the taxes before), which every solution
    /// pays. `None` for a problem with multiplicities, where an item may be covered several
    /// times or none. [`Solver::best`](crate::Solver::best)'s search prunes by it.
    ///
    /// ```
    /// use dlx_engine::Problem;
    /// let problem: Problem = "a b\na |3\nb |4\na b |5\n".parse().unwrap();
    /// assert_eq!(problem.cost_lower_bound(), Some(5)); // `a` taxed 3, then `b` 2
    /// ```
    pub fn cost_lower_bound(&self) -> Option<u128> {
        (!self.has_multiplicities()).then(|| taxes(self).1)
    }
}

/// The net costs and the bound of a [`Solver::best`](crate::Solver::best) search.
pub(crate) struct Pricing {
    /// Each node's option's net cost (0 for headers and spacers).
    pub(crate) node_net: Vec<u64>,
    /// The net cost of the options chosen below each level (forced ones at the base).
    pub(crate) level: Vec<u128>,
    /// Per level, the threshold its item was covered with, and the one the rest of its option
    /// was (see `LinksMut::cover_below`): the same undo them.
    pub(crate) thresh0: Vec<u128>,
    pub(crate) thresh: Vec<u128>,
    /// The last option each thresholded cover hid, innermost last (see
    /// `LinksMut::cover_below`).
    pub(crate) hidden: Vec<u32>,
    /// Per level, whether its item had more than one option below the bound when chosen: each
    /// option tried there is then a guess.
    pub(crate) guess: Vec<bool>,
    /// A branch whose net cost reaches this cannot give one of the `k` best.
    pub(crate) cutoff: u128,
    /// The taxes of all primary items.
    pub(crate) total_tax: u128,
}

impl Pricing {
    /// Taxes the primary items ([`taxes`]), and starts at the net cost of the forced options
    /// (`forced`, their first nodes).
    pub(crate) fn new(problem: &Problem, forced: &[u32], depth: usize) -> Pricing {
        let (net, total_tax) = taxes(problem);
        let mut node_net = vec![0u64; problem.node_count()];
        for option in problem.options() {
            let range = problem.option_node_range(option);
            node_net[range.start..range.end - 1].fill(net[option.index()]);
        }
        let mut level = vec![0u128; depth + 1];
        level[forced.len()] = forced.iter().map(|&n| u128::from(node_net[n as usize])).sum();
        Pricing {
            node_net,
            level,
            thresh0: vec![0; depth + 1],
            thresh: vec![0; depth + 1],
            hidden: Vec::with_capacity(problem.item_count()),
            guess: vec![false; depth + 1],
            cutoff: u128::MAX,
            total_tax,
        }
    }

    /// Whether trying option node `x` at level `l` reaches the bound.
    pub(crate) fn reaches(&self, x: u32, l: usize) -> bool {
        self.level[l] + u128::from(self.node_net[x as usize]) >= self.cutoff
    }

    /// Whether every option of `item` reaches the bound at level `l`.
    pub(crate) fn priced_out<const RECORD: bool>(
        &self,
        links: &LinksMut<'_, RECORD>,
        item: u32,
        l: usize,
    ) -> bool {
        if self.cutoff == u128::MAX {
            return false;
        }
        let mut x = links.down(item);
        while x != item {
            if !self.reaches(x, l) {
                return false;
            }
            x = links.down(x);
        }
        true
    }

    /// DLX5's choice of item at level `l`, on lists sorted by net cost: the active primary item
    /// with the fewest options below the bound (counted no further than the fewest so far), ties
    /// to the one whose cheapest option costs most, and the first with none at once. Returns the
    /// item and its options below the bound (0: a dead end).
    pub(crate) fn choose<const RECORD: bool>(&self, links: &LinksMut<'_, RECORD>, l: usize) -> (u32, u32) {
        let budget = self.cutoff.saturating_sub(self.level[l]);
        let usable = |p: u32| u128::from(self.node_net[p as usize]) < budget;
        let (mut best, mut fewest, mut dearest) = (0, u32::MAX, 0);
        for (k, _) in links.active_primaries() {
            let first = links.down(k);
            if first == k || !usable(first) {
                return (k, 0);
            }
            let cheapest = self.node_net[first as usize];
            // The list is sorted: when its last option is below the bound, all are.
            let len = links.len(k);
            if usable(links.up(k)) {
                if len < fewest || (len == fewest && cheapest > dearest) {
                    (best, fewest, dearest) = (k, len, cheapest);
                }
                continue;
            }
            let mut s = 1;
            let mut p = links.down(first);
            let more = loop {
                if p == k || !usable(p) {
                    break false;
                }
                if s == fewest {
                    break true;
                }
                s += 1;
                p = links.down(p);
            };
            if !more && (s < fewest || (s == fewest && cheapest > dearest)) {
                (best, fewest, dearest) = (k, s, cheapest);
            }
        }
        (best, fewest)
    }

    /// Orders a level's options cheapest first (those of equal cost keep their order).
    pub(crate) fn order(&self, pool: &mut [u32]) {
        pool.sort_by_key(|&x| self.node_net[x as usize]);
    }

    /// Option node `x` is tried at level `l`.
    pub(crate) fn enter(&mut self, x: u32, l: usize) {
        self.level[l + 1] = self.level[l] + u128::from(self.node_net[x as usize]);
    }
}
