//! The search: Algorithm X with an explicit stack, and everything a caller can ask of it.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dance::Dance;
use crate::index::{ItemId, OptionId, to_u32};
use crate::problem::Problem;

/// Effort of the last search run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Search-tree nodes: options tried (forced options are not counted).
    pub nodes: u64,
    /// Options tried for an item that had more than one option left: the nodes that were guesses
    /// rather than forced moves.
    pub guesses: u64,
    /// List removals (Knuth's updates): one for each item covered and one for each node hidden.
    pub updates: u64,
    /// Solutions found.
    pub solutions: u64,
}

impl Stats {
    /// Adds another run's figures to these (saturating).
    pub fn add(&mut self, other: &Stats) {
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.guesses = self.guesses.saturating_add(other.guesses);
        self.updates = self.updates.saturating_add(other.updates);
        self.solutions = self.solutions.saturating_add(other.solutions);
    }
}

/// Limits on one search run. A run that reaches one stops with [`StopReason::Budget`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Budget {
    /// Stop once this many nodes have been tried.
    pub nodes: Option<u64>,
    /// Stop once this many updates have been made.
    pub updates: Option<u64>,
}

/// How the search breaks ties between equally short items, when not at random (see
/// [`Solver::set_tie_break`]). Either way it branches on an item with the fewest options (minimum
/// remaining values), and finds the same solutions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TieBreak {
    /// The earliest item (primary items in the order of declaration), as Knuth's dlx1 does.
    #[default]
    Earliest,
    /// At a guess (two options or more), the tied item that was most recently a dead end (an
    /// empty primary item, chosen, so that the search backtracked), among the run's last sixteen
    /// dead ends, if one of them is tied; the earliest otherwise. An item that has just ended one
    /// branch tends to end the next, so trying it first meets the contradiction sooner: the "last
    /// conflict" rule of constraint solvers. Each run starts with an empty memory, so its
    /// branching depends only on the state it starts from.
    ///
    /// Measured on sudoku (first solution, nodes per puzzle): 17-clue set 94.6 → 80.7, magictour
    /// top 1465 373.3 → 228.5, forum hardest (its first 500) 1175.1 → 781.7, which took 11%, 31%
    /// and 26% off the time. Counting every solution, where the whole tree is walked anyway, it
    /// changed the nodes by +6% (12 queens), under 1% (Langford pairs, n = 11; pentominoes; the
    /// 189,924 solutions of a sudoku with 16 clues), and took 8-11%, up to 5%, 3% and 11% more
    /// time: hence not the default. It suits runs that stop early: a first solution, or a check
    /// that there is no second.
    LastConflict,
}

/// A flag that stops searches from another thread. Cheap to clone; all clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A new, unset flag.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every search watching this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) was called (and not [`clear`](Self::clear)ed since).
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Unsets the flag so it can be used again.
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// Why a search stopped before it had seen everything it was asked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The [`Budget`] ran out.
    Budget,
    /// The [`CancelFlag`] was set.
    Cancelled,
}

/// A search cut short by its budget or by cancellation: what it found is not the whole answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("search {} after {solutions} solution(s)", match reason {
    StopReason::Budget => "ran out of budget",
    StopReason::Cancelled => "was cancelled",
})]
pub struct Interrupted {
    /// Why it stopped.
    pub reason: StopReason,
    /// Solutions seen before it stopped (a lower bound, not the count).
    pub solutions: u64,
}

/// How a search that was not interrupted ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finished {
    /// Every solution was visited.
    Exhausted,
    /// The visitor returned [`ControlFlow::Break`].
    Stopped,
}

/// An option that cannot be forced.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ForceError {
    /// The option id is not of this problem.
    #[error("option {0} is not in the problem")]
    UnknownOption(OptionId),
    /// The option is excluded.
    #[error("option {0} is excluded")]
    Excluded(OptionId),
    /// One of the option's items is already covered by a forced option.
    #[error("option {option} conflicts with forced option {forced} on item `{item_name}`")]
    Conflict {
        /// The option that could not be forced.
        option: OptionId,
        /// The forced option it shares an item with.
        forced: OptionId,
        /// The shared item.
        item: ItemId,
        /// The shared item's name.
        item_name: String,
    },
}

/// A forced or excluded option: the option's first node, the length of the dead-end record before
/// it was applied, and the list removals applying it made (what undoing it costs).
#[derive(Clone, Copy, Debug)]
enum Restriction {
    Forced(u32, usize, u64),
    Excluded(u32, usize, u64),
}

impl Restriction {
    /// The list removals applying it made.
    fn cost(self) -> u64 {
        match self {
            Restriction::Forced(_, _, cost) | Restriction::Excluded(_, _, cost) => cost,
        }
    }
}

/// What [`Solver::undo`] took back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Undone {
    /// A forced option.
    Forced(OptionId),
    /// An excluded option.
    Excluded(OptionId),
}

/// Receives solutions during a search: return [`ControlFlow::Break`] to stop.
///
/// Closures `FnMut(&Solution<'_>) -> ControlFlow<()>` are visitors.
pub trait Visitor {
    /// Called once for each solution.
    fn solution(&mut self, solution: &Solution<'_>) -> ControlFlow<()>;
}

impl<F: FnMut(&Solution<'_>) -> ControlFlow<()>> Visitor for F {
    fn solution(&mut self, solution: &Solution<'_>) -> ControlFlow<()> {
        self(solution)
    }
}

/// A solution, borrowed from the solver while a visitor looks at it: forced options first, then the
/// options chosen by the search, level by level.
#[derive(Clone, Copy)]
pub struct Solution<'a> {
    problem: &'a Problem,
    nodes: &'a [u32],
}

impl fmt::Debug for Solution<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.options()).finish()
    }
}

impl<'a> Solution<'a> {
    /// The options of the solution.
    pub fn options(&self) -> impl ExactSizeIterator<Item = OptionId> + 'a {
        let problem = self.problem;
        self.nodes.iter().map(move |&node| problem.option_of_node(node))
    }

    /// The number of options in the solution.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the solution has no option (a problem without primary items).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The options, collected.
    pub fn to_vec(&self) -> Vec<OptionId> {
        self.options().collect()
    }

    /// The problem solved.
    pub fn problem(&self) -> &'a Problem {
        self.problem
    }
}

/// What one call of the search loop ended with.
enum Step {
    Solution,
    Exhausted,
    Interrupted(StopReason),
}

/// Searches a [`Problem`]. Owns the mutable links and the stack of levels; the problem is only
/// borrowed, so many solvers (on many threads) can share one problem.
///
/// After every run, finished or cut short, the solver is in the state it started from (its forced
/// options still applied) as far as any method can tell, and can run again.
///
/// A run that stops at a solution leaves the levels it had reached covered and only marks them as
/// pending: the next call that needs the links uncovers them first, except [`reset`](Self::reset)
/// and [`undo_to`](Self::undo_to), which, when undoing would cost more, copy the problem's initial
/// links instead (and apply again the restrictions kept). So a caller that loads restrictions, asks
/// for a first solution and resets (a sudoku solver, say) pays neither for unwinding the search nor
/// for undoing the restrictions one by one.
pub struct Solver<'p> {
    problem: &'p Problem,
    dance: Dance,
    /// Forced options' first nodes (`..base`), then the option node tried at each level.
    chosen: Vec<u32>,
    /// Forced and excluded options, in the order they were applied: undone strictly in reverse.
    restrictions: Vec<Restriction>,
    /// Number of forced options: the level the search starts at.
    base: usize,
    /// The current level while a search is paused at a solution.
    level: usize,
    stats: Stats,
    budget: Budget,
    cancel: Option<CancelFlag>,
    seed: Option<u64>,
    /// Random mode: whether ties between equally short items are broken at random.
    random_ties: bool,
    rng: Xoshiro256PlusPlus,
    /// Random mode: the shuffled options of each level's item, level after level.
    pool: Vec<u32>,
    /// Random mode: the position in `pool` of the option being tried at each level.
    pool_pos: Vec<u32>,
    /// For each level, the length of the dead-end stack before and after covering its item.
    zero_marks: Vec<(usize, usize)>,
    /// The length of the dead-end stack when the run started.
    run_zeros: usize,
    /// Levels `base..level` are still covered by a run that stopped early: see [`Solver::settle`].
    pending: bool,
    /// The list removals made by applying the restrictions now in force.
    restriction_cost: u64,
}

impl fmt::Debug for Solver<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("forced", &self.base)
            .field("stats", &self.stats)
            .field("budget", &self.budget)
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

impl<'p> Solver<'p> {
    /// A solver for `problem`, with no forced option, no budget and deterministic branching.
    pub fn new(problem: &'p Problem) -> Self {
        let depth = problem.primary_count() + 1;
        Solver {
            problem,
            dance: Dance::new(problem),
            chosen: vec![0; depth],
            restrictions: Vec::new(),
            base: 0,
            level: 0,
            stats: Stats::default(),
            budget: Budget::default(),
            cancel: None,
            seed: None,
            random_ties: true,
            rng: Xoshiro256PlusPlus::seed_from_u64(0),
            pool: Vec::new(),
            pool_pos: Vec::new(),
            zero_marks: vec![(0, 0); depth],
            run_zeros: 0,
            pending: false,
            restriction_cost: 0,
        }
    }

    /// The problem being solved.
    pub fn problem(&self) -> &'p Problem {
        self.problem
    }

    /// Figures of the last run (the one in progress, for an iterator).
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Sets the budget of each following run.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Makes following runs stop when `flag` is set (checked every 1024 nodes).
    pub fn set_cancel_flag(&mut self, flag: Option<CancelFlag>) {
        self.cancel = flag;
    }

    /// With `Some(seed)`, each following run shuffles the order in which the options of the chosen
    /// item are tried, and breaks ties between equally short items at random, reproducibly: the same
    /// seed gives the same solutions in the same order. With `None`, options are tried top to
    /// bottom and ties are broken by the [`TieBreak`] rule. The set of solutions never depends on
    /// the seed.
    ///
    /// Breaking ties at random means looking at every active item at every node; see
    /// [`set_random_ties`](Self::set_random_ties) for the cheaper alternative.
    pub fn set_seed(&mut self, seed: Option<u64>) {
        self.seed = seed;
        if seed.is_some() && self.pool.capacity() == 0 {
            // Every level's options are distinct nodes, so this never grows during a search.
            self.pool.reserve_exact(self.dance.tops.len());
            self.pool_pos = vec![0; self.chosen.len()];
        }
    }

    /// With `false`, seeded runs still shuffle each item's options but break ties between equally
    /// short items as unseeded runs do, by the [`TieBreak`] rule. The choice of item then costs what
    /// it costs without a seed (a scan that may stop at the first item of length 1), which makes a
    /// random first solution several times cheaper on problems with many ties, such as filling an
    /// empty sudoku grid. The default is `true`.
    pub fn set_random_ties(&mut self, random: bool) {
        self.random_ties = random;
    }

    /// Sets how following runs break ties between equally short items when not at random (the
    /// default is [`TieBreak::Earliest`]).
    pub fn set_tie_break(&mut self, tie_break: TieBreak) {
        self.dance.last_conflict = tie_break == TieBreak::LastConflict;
    }

    /// The rule for ties between equally short items.
    pub fn tie_break(&self) -> TieBreak {
        if self.dance.last_conflict { TieBreak::LastConflict } else { TieBreak::Earliest }
    }

    /// Forces an option into every solution of the following runs, before the search starts.
    ///
    /// Fails, changing nothing, if the option shares an item with an option already forced, or is
    /// excluded.
    /// [`undo`](Self::undo) takes back the last forced or excluded option, [`reset`](Self::reset)
    /// all of them.
    pub fn force(&mut self, option: OptionId) -> Result<(), ForceError> {
        self.settle();
        let first = self.problem.option_first_node(option).ok_or(ForceError::UnknownOption(option))?;
        if let Some(item) = self.dance.covered_item_of_option(first) {
            return Err(self.conflict(option, item));
        }
        // All its items are active, so only an exclusion can have taken it out of their lists.
        if !self.dance.is_linked(first) {
            return Err(ForceError::Excluded(option));
        }
        let forced = self.apply_forced(first);
        self.restrictions.push(forced);
        self.level = self.base;
        Ok(())
    }

    /// Covers the items of the option whose first node is `first` as a forced option at the base
    /// level; returns its record.
    fn apply_forced(&mut self, first: u32) -> Restriction {
        let mark = self.dance.zero_count;
        let before = self.dance.updates;
        self.dance.with(|d| d.cover_option(first));
        let cost = self.dance.updates - before;
        self.restriction_cost += cost;
        self.chosen[self.base] = first;
        self.base += 1;
        Restriction::Forced(first, mark, cost)
    }

    /// Takes the option whose first node is `first` out of its items' lists; returns its record.
    fn apply_excluded(&mut self, first: u32) -> Restriction {
        let mark = self.dance.zero_count;
        let cost = u64::from(self.dance.with(|d| d.remove_option(first)));
        self.restriction_cost += cost;
        Restriction::Excluded(first, mark, cost)
    }

    /// Builds the error for forcing `option` when layout item `item` is already covered.
    fn conflict(&self, option: OptionId, item: u32) -> ForceError {
        let item_id = self.problem.item_of_layout(item);
        let forced = self.chosen[..self.base]
            .iter()
            .map(|&first| self.problem.option_of_node(first))
            .find(|&forced| self.problem.option_items(forced).any(|i| i == item_id))
            .unwrap_or(option);
        ForceError::Conflict {
            option,
            forced,
            item: item_id,
            item_name: self.problem.item_name(item_id).to_owned(),
        }
    }

    /// Takes back the last forced or excluded option (`None` when there is none).
    pub fn undo(&mut self) -> Option<Undone> {
        self.settle();
        let last = self.restrictions.pop()?;
        Some(match last {
            Restriction::Forced(first, mark, cost) => {
                self.restriction_cost -= cost;
                self.dance.with(|d| d.uncover_option(first));
                self.dance.zero_count = mark;
                self.base -= 1;
                self.level = self.base;
                Undone::Forced(self.problem.option_of_node(first))
            }
            Restriction::Excluded(first, mark, cost) => {
                self.restriction_cost -= cost;
                self.dance.with(|d| d.restore_option(first));
                self.dance.zero_count = mark;
                Undone::Excluded(self.problem.option_of_node(first))
            }
        })
    }

    /// Takes back the last forced option, if it is the last restriction applied (an exclusion
    /// made after it must be undone first).
    pub fn unforce(&mut self) -> Option<OptionId> {
        match self.restrictions.last()? {
            Restriction::Forced(..) => match self.undo() {
                Some(Undone::Forced(option)) => Some(option),
                _ => None,
            },
            Restriction::Excluded(..) => None,
        }
    }

    /// The forced options, in the order they were forced.
    pub fn forced(&self) -> impl ExactSizeIterator<Item = OptionId> + '_ {
        self.chosen[..self.base].iter().map(|&first| self.problem.option_of_node(first))
    }

    /// Excludes an option from the following runs, as if it were not in the problem: a restriction
    /// such as "this cell holds an even digit", or "this cell holds another digit than before".
    ///
    /// Returns `Ok(false)`, changing nothing, when the option is already unavailable: excluded
    /// before, or sharing an item with a forced option. Forcing and excluding may be mixed freely;
    /// [`undo`](Self::undo) takes them back in reverse order, [`reset`](Self::reset) all at once.
    pub fn exclude(&mut self, option: OptionId) -> Result<bool, ForceError> {
        self.settle();
        let first = self.problem.option_first_node(option).ok_or(ForceError::UnknownOption(option))?;
        if self.dance.covered_item_of_option(first).is_some() {
            return Ok(false);
        }
        // All its items are active, so the option is in every one of their lists unless it was
        // excluded before.
        if !self.dance.is_linked(first) {
            return Ok(false);
        }
        let excluded = self.apply_excluded(first);
        self.restrictions.push(excluded);
        Ok(true)
    }

    /// Takes back every forced and excluded option: the solver is as [`new`](Self::new) made it
    /// (budget, flag and seed stay).
    pub fn reset(&mut self) {
        if self.restrictions.is_empty() && !self.pending {
            return;
        }
        self.take_back_to(0);
    }

    /// The number of forced and excluded options in force.
    pub fn restriction_count(&self) -> usize {
        self.restrictions.len()
    }

    /// Takes back the forced and excluded options after the first `len`, the latest first, as that
    /// many calls of [`undo`](Self::undo) would. Where undoing them would cost more than starting
    /// over, it copies the problem's initial links instead and applies the first `len` again, as
    /// [`reset`](Self::reset) does for `len == 0`: a caller that keeps a few restrictions and
    /// drops many pays for the few.
    pub fn undo_to(&mut self, len: usize) {
        if len < self.restrictions.len() {
            self.take_back_to(len);
        }
    }

    /// Takes back the restrictions after the first `len` and any paused run, by undoing them or
    /// by copying the initial links and applying the first `len` again, whichever costs less.
    fn take_back_to(&mut self, len: usize) {
        // Undoing costs about as much as the removals it takes back (for a paused run, at most
        // the run's removals); copying costs a fraction of an operation per node, and applying
        // again what the restrictions kept cost the first time.
        let above: u64 = if len == 0 {
            self.restriction_cost
        } else {
            self.restrictions[len..].iter().map(|r| r.cost()).sum()
        };
        let pending_cost = if self.pending { self.dance.updates } else { 0 };
        let undo_cost = above.saturating_add(pending_cost);
        let again = self.restriction_cost - above;
        let copy = u64::from(to_u32(self.dance.uds.len()));
        if undo_cost.saturating_mul(16) < copy.saturating_add(again.saturating_mul(16)) {
            self.settle();
            while self.restrictions.len() > len {
                self.undo();
            }
            return;
        }
        self.dance.restore(self.problem);
        self.restrictions.truncate(len);
        self.restriction_cost = 0;
        self.base = 0;
        self.pending = false;
        self.pool.clear();
        // Each restriction kept is applied again on the same links as the first time, so its
        // record comes out the same.
        for k in 0..len {
            self.restrictions[k] = match self.restrictions[k] {
                Restriction::Forced(first, ..) => {
                    debug_assert_eq!(self.chosen[self.base], first);
                    self.apply_forced(first)
                }
                Restriction::Excluded(first, ..) => self.apply_excluded(first),
            };
        }
        self.level = self.base;
    }

    /// Uncovers the levels a run left pending when it stopped early.
    fn settle(&mut self) {
        if self.pending {
            self.unwind();
            self.pending = false;
        }
    }

    /// Whether an item is still uncovered by the forced options.
    pub fn is_item_free(&self, item: ItemId) -> bool {
        let Some(i) = self.problem.layout_of(item) else { return false };
        if self.pending {
            // The links also show the paused run's levels: ask the forced options instead.
            !self.forced().any(|option| self.problem.option_items(option).any(|j| j == item))
        } else {
            self.dance.is_active(i)
        }
    }

    /// The first solution, or `None` if there is none.
    pub fn first(&mut self) -> Result<Option<Vec<OptionId>>, Interrupted> {
        let mut found = None;
        self.visit(&mut |s: &Solution<'_>| {
            found = Some(s.to_vec());
            ControlFlow::Break(())
        })?;
        Ok(found)
    }

    /// The number of solutions.
    pub fn count(&mut self) -> Result<u64, Interrupted> {
        self.visit(&mut |_: &Solution<'_>| ControlFlow::Continue(()))?;
        Ok(self.stats.solutions)
    }

    /// The number of solutions, counting no further than `limit`: `Ok(limit)` means "at least
    /// `limit`". With a limit of 2 this is the uniqueness check.
    pub fn count_up_to(&mut self, limit: u64) -> Result<u64, Interrupted> {
        if limit == 0 {
            self.stats = Stats::default();
            return Ok(0);
        }
        let mut seen = 0;
        self.visit(&mut |_: &Solution<'_>| {
            seen += 1;
            if seen >= limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
        })?;
        Ok(seen)
    }

    /// Shows each solution to `visitor` until it breaks or the search is over.
    pub fn visit<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<Finished, Interrupted> {
        self.start_run();
        let mut resume = false;
        loop {
            match self.step(resume) {
                Step::Solution => {
                    let solution = Solution { problem: self.problem, nodes: &self.chosen[..self.level] };
                    if visitor.solution(&solution).is_break() {
                        self.pending = true;
                        return Ok(Finished::Stopped);
                    }
                    resume = true;
                }
                Step::Exhausted => return Ok(Finished::Exhausted),
                Step::Interrupted(reason) => {
                    self.pending = true;
                    return Err(Interrupted { reason, solutions: self.stats.solutions });
                }
            }
        }
    }

    /// Closure form of [`visit`](Self::visit).
    pub fn for_each(
        &mut self,
        mut f: impl FnMut(&Solution<'_>) -> ControlFlow<()>,
    ) -> Result<Finished, Interrupted> {
        self.visit(&mut f)
    }

    /// A lazy iterator over the solutions. The search pauses between solutions; dropping the
    /// iterator early puts the solver back in its initial state (lazily: see [`Solver`]).
    pub fn solutions(&mut self) -> Solutions<'_, 'p> {
        Solutions { solver: self, state: IterState::Fresh, interrupted: None }
    }

    fn start_run(&mut self) {
        self.settle();
        self.stats = Stats::default();
        self.dance.updates = 0;
        // Each run breaks ties by its own dead ends only, so that it branches the same way from
        // the same state whatever ran before it.
        self.dance.forget_recent();
        self.level = self.base;
        self.run_zeros = self.dance.zero_count;
        if let Some(seed) = self.seed {
            self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            self.pool.clear();
        }
    }

    fn step(&mut self, resume: bool) -> Step {
        let step =
            if self.seed.is_some() { self.search::<true>(resume) } else { self.search::<false>(resume) };
        self.stats.updates = self.dance.updates;
        if let Step::Solution = step {
            self.stats.solutions = self.stats.solutions.saturating_add(1);
        }
        step
    }

    /// Puts the solver back at its base level from wherever a paused search stands (use
    /// [`settle`](Self::settle)).
    fn unwind(&mut self) {
        while self.level > self.base {
            self.level -= 1;
            let x = self.chosen[self.level];
            self.dance.with(|d| {
                d.uncover_rest(x);
                let item = d.top(x);
                d.uncover(item);
            });
        }
        self.dance.zero_count = self.run_zeros;
        self.pool.clear();
        self.stats.updates = self.dance.updates;
    }

    /// Knuth's Algorithm X from step X2 (`resume == false`) or from X8 after a solution
    /// (`resume == true`), until the next solution, the end, or an interruption.
    ///
    /// On a solution, levels `base..level` of `chosen` hold the chosen option nodes and stay
    /// covered; on an interruption likewise (the caller marks them pending); on exhaustion all is
    /// undone.
    #[inline(never)]
    fn search<const RANDOM: bool>(&mut self, resume: bool) -> Step {
        let base = self.base;
        let mut l = self.level;
        let mut nodes = self.stats.nodes;
        let mut guesses = self.stats.guesses;
        let node_limit = self.budget.nodes.unwrap_or(u64::MAX);
        let update_limit = self.budget.updates.unwrap_or(u64::MAX);
        let cancel = self.cancel.as_ref();
        let mut view = self.dance.view();
        let dance = &mut view;
        let chosen = &mut self.chosen[..];
        // The item of the current level, and the option node about to be tried.
        let mut item = 0;
        let mut x = 0;
        // On entry the search either starts a level (X2) or, after a solution, backtracks (X8).
        let mut backtracking = resume;
        let step = 'search: loop {
            if !backtracking {
                // X2: all primary items covered?
                if dance.first_primary() == 0 {
                    break Step::Solution;
                }
                if nodes >= node_limit || dance.updates() >= update_limit {
                    break Step::Interrupted(StopReason::Budget);
                }
                if nodes & 1023 == 0 && cancel.is_some_and(CancelFlag::is_cancelled) {
                    break Step::Interrupted(StopReason::Cancelled);
                }
                // X3, X4: choose an item; unless it is a dead end, cover it and start with its
                // first option.
                let from = if l == base { 0 } else { self.zero_marks[l - 1].0 };
                item = if RANDOM && self.random_ties {
                    let rng = &mut self.rng;
                    dance.choose_with_ties(from, |n| rng.random_range(0..n))
                } else {
                    dance.choose(from)
                };
                if dance.len(item) == 0 {
                    // A dead end: no need to cover the item only to uncover it (X7) at once.
                    dance.note_dead_end(item);
                    backtracking = true;
                } else {
                    let before = dance.zeros_len();
                    dance.cover(item);
                    self.zero_marks[l] = (before, dance.zeros_len());
                    if RANDOM {
                        let start = self.pool.len();
                        let mut p = dance.down(item);
                        while p != item {
                            self.pool.push(p);
                            p = dance.down(p);
                        }
                        self.pool[start..].shuffle(&mut self.rng);
                        self.pool_pos[l] = to_u32(start);
                        x = self.pool.get(start).copied().unwrap_or(item);
                    } else {
                        x = dance.down(item);
                    }
                }
            }
            if backtracking {
                // X8, X6: leave levels until one has another option to try.
                loop {
                    if l == base {
                        break 'search Step::Exhausted;
                    }
                    l -= 1;
                    let tried = chosen[l];
                    dance.uncover_rest(tried);
                    dance.truncate_zeros(self.zero_marks[l].1);
                    item = dance.top(tried);
                    if RANDOM {
                        let next = self.pool_pos[l] as usize + 1;
                        self.pool_pos[l] = to_u32(next);
                        x = self.pool.get(next).copied().unwrap_or(item);
                    } else {
                        x = dance.down(tried);
                    }
                    if x != item {
                        break;
                    }
                    // X7: the item's options are used up.
                    dance.uncover(item);
                    dance.truncate_zeros(self.zero_marks[l].0);
                    if RANDOM {
                        // This level's options are the last `len(item)` entries of the pool.
                        let start = self.pool.len() - dance.len(item) as usize;
                        self.pool.truncate(start);
                    }
                }
                backtracking = false;
            }
            // X5: try option x.
            chosen[l] = x;
            nodes += 1;
            if dance.len(item) > 1 {
                guesses += 1;
            }
            dance.cover_rest(x);
            l += 1;
        };
        let counters = view.counters();
        self.dance.store(counters);
        self.level = l;
        self.stats.nodes = nodes;
        self.stats.guesses = guesses;
        step
    }

    /// Checks the links against the invariants of the dlx1 layout and against the state the excluded
    /// and forced options alone produce: after any run, the two must agree exactly. O(size of the problem);
    /// meant for tests and debugging.
    pub fn verify_links(&self) -> Result<(), String> {
        let mut fresh = Dance::new(self.problem);
        for r in &self.restrictions {
            match *r {
                Restriction::Forced(first, ..) => fresh.with(|d| d.cover_option(first)),
                Restriction::Excluded(first, ..) => {
                    fresh.with(|d| d.remove_option(first));
                }
            }
        }
        if self.pending {
            // A run stopped early: its levels are still covered, as the search covered them.
            for &x in &self.chosen[self.base..self.level] {
                fresh.with(|d| {
                    d.cover(d.top(x));
                    d.cover_rest(x);
                });
            }
        }
        crate::check::check_invariants(self.problem, &self.dance)?;
        if fresh.links != self.dance.links {
            return Err("item links differ from the state the forced options produce".into());
        }
        if let Some(p) = (0..fresh.tops.len())
            .find(|&p| fresh.tops[p] != self.dance.tops[p] || fresh.uds[p] != self.dance.uds[p])
        {
            return Err(format!("node {p} differs from the state the forced options produce"));
        }
        if fresh.active != self.dance.active {
            return Err(format!(
                "{} active primary items counted instead of {}",
                self.dance.active, fresh.active
            ));
        }
        let (n, m) = (fresh.zero_count, self.dance.zero_count);
        if fresh.zeros[..n] != self.dance.zeros[..m] {
            return Err(format!(
                "dead-end record {:?} instead of {:?}",
                &self.dance.zeros[..m],
                &fresh.zeros[..n]
            ));
        }
        Ok(())
    }
}

enum IterState {
    Fresh,
    Paused,
    Done,
}

/// A lazy iterator over the solutions of a [`Solver`]; see [`Solver::solutions`].
///
/// Each solution is its options, forced options first. When the search is cut short by its budget
/// or its cancel flag the iterator ends early and [`interrupted`](Self::interrupted) says so.
pub struct Solutions<'s, 'p> {
    solver: &'s mut Solver<'p>,
    state: IterState,
    interrupted: Option<Interrupted>,
}

impl fmt::Debug for Solutions<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solutions").field("interrupted", &self.interrupted).finish_non_exhaustive()
    }
}

impl Solutions<'_, '_> {
    /// `Some` when the iterator ended because the search was cut short, not because every solution
    /// was seen.
    pub fn interrupted(&self) -> Option<Interrupted> {
        self.interrupted
    }

    /// The figures of the search so far.
    pub fn stats(&self) -> Stats {
        self.solver.stats
    }
}

impl Iterator for Solutions<'_, '_> {
    type Item = Vec<OptionId>;

    fn next(&mut self) -> Option<Vec<OptionId>> {
        let resume = match self.state {
            IterState::Fresh => {
                self.solver.start_run();
                false
            }
            IterState::Paused => true,
            IterState::Done => return None,
        };
        match self.solver.step(resume) {
            Step::Solution => {
                self.state = IterState::Paused;
                let s = &*self.solver;
                Some(s.chosen[..s.level].iter().map(|&n| s.problem.option_of_node(n)).collect())
            }
            Step::Exhausted => {
                self.state = IterState::Done;
                None
            }
            Step::Interrupted(reason) => {
                self.state = IterState::Done;
                self.solver.pending = true;
                self.interrupted = Some(Interrupted { reason, solutions: self.solver.stats.solutions });
                None
            }
        }
    }
}

impl Drop for Solutions<'_, '_> {
    fn drop(&mut self) {
        if let IterState::Paused = self.state {
            self.solver.pending = true;
        }
    }
}
