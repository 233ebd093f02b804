//! The search and everything a caller can ask of it.
//!
//! A [`Solver`] owns a copy of the problem's links (see `links`), the stack of levels and the
//! stack of restrictions. Its code is split by concern:
//!
//! * this module: the solver, its results (solutions, visitors, errors), the runs (first,
//!   count, visitor), and the dispatch of each step of a run to the search its problem and
//!   settings call for (the settings and figures themselves are in `settings`, below both
//!   engines);
//! * `restrict`: forced and excluded options, taken back one by one or all at once;
//! * `search`: Algorithm X itself (and Algorithm C, with colors), with the stack discipline that
//!   the links rely on;
//! * `multi`: Algorithm M, for primary items with bounds (multiplicities);
//! * `split`: subtrees, cut from the top of the tree and searched by other solvers;
//! * `iter`: the lazy iterator over solutions.
//!
//! Counts and visits may run on the crate's second engine instead of the links: `bitsets`, a
//! peer of `links`, chosen by the [`Counting`] setting.

use std::fmt;
use std::ops::ControlFlow;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::bitsets::{self, BitSets};
use crate::choose::Chooser;
use crate::count::Count;
use crate::index::{ItemId, OptionId};
use crate::links::Links;
use crate::problem::Problem;

mod best;
mod estimate;
mod iter;
mod memo;
mod multi;
mod restrict;
mod sample;
mod search;
mod split;

pub use estimate::Estimate;
pub use iter::Solutions;
pub use memo::{DEFAULT_MEMO_MEMORY, MEMO_GAIN, MEMO_PROBE_NODES, MEMO_SECOND_GAIN, MEMO_SECOND_PROBE_NODES};
use multi::Multi;
use restrict::Restriction;
pub use sample::SampleError;
pub(crate) use split::fingerprint;
pub use split::{Split, Subtree};

pub use crate::settings::{
    Branching, Budget, CancelFlag, Counting, Interrupted, Memo, MemoStats, Stats, StopReason, TieBreak,
    UnknownBranching, UnknownTieBreak,
};

/// Links that break an invariant of the layout, or differ from the state the solver's
/// restrictions and paused levels produce: a bug in the engine, found by
/// [`Solver::verify_links`]. It says which record is wrong and how.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("broken links: {what}")]
pub struct BrokenLinks {
    what: String,
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
    /// The option is forced already: it is given twice.
    #[error("option {0} is forced already (given twice)")]
    AlreadyForced(OptionId),
    /// The option is forced, so it cannot be excluded.
    #[error("option {0} is forced, so it cannot be excluded")]
    Forced(OptionId),
    /// One of the option's items is already covered by a forced option.
    #[error("option {option} conflicts with forced option {forced} on item `{}`", crate::Excerpt(item_name))]
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
    links: Links,
    /// The branching rule, and what it has learned in this run.
    chooser: Chooser,
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
    /// Whether each node belongs to an option tried first (empty: none; see
    /// [`Solver::set_preferred`]).
    preferred: Vec<bool>,
    /// Random or preferred mode: the ordered options of each level's item, level after level.
    pool: Vec<u32>,
    /// Random mode: the position in `pool` of the option being tried at each level.
    pool_pos: Vec<u32>,
    /// For each level, the length of the record of emptied items before and after covering its
    /// item.
    emptied_marks: Vec<(usize, usize)>,
    /// The length of the record of emptied items when the run started.
    run_emptied: usize,
    /// Levels `base..level` are still covered by a run that stopped early: see [`Solver::settle`].
    pending: bool,
    /// The list removals made by applying the restrictions now in force.
    restriction_cost: u64,
    /// The bounds and per-level state of a problem with multiplicities (`None` without).
    multi: Option<Multi>,
    /// The level at which a capped search stops, leaving subtrees to others (`usize::MAX`: none).
    cap: usize,
    /// While counting: stop at this many solutions, which the search may count without stopping
    /// at each (0 when every solution is to be seen).
    count_limit: u64,
    /// Counting on bit sets (see `bitsets`): whether the problem may, whether it does, the tables.
    bitsets: BitSets,
    /// Whether counts take the memo, and the most bytes its table may take.
    memo: Memo,
    memo_memory: usize,
    /// With colors, a mark per item (all `None` between uses), for counting the last two levels
    /// at once (see `search`); empty without colors.
    marks: Vec<Option<u32>>,
    /// The nodes of this run that a count read off without making their levels (see `search`):
    /// the choice of engine weighs the others.
    read_off: u64,
    /// While [`best`](Solver::best) searches a problem with costs: the net costs, and the bound
    /// that prunes (see `best`).
    pricing: Option<Box<crate::best::Pricing>>,
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
        // Each level chooses an option, different from every other level's and from the forced
        // ones. With multiplicities each option still covers a primary item, so no more options
        // are chosen than the upper bounds add up to; and a level may instead make a null move,
        // which takes an item out of the active list for good below it.
        let depth = if problem.has_multiplicities() {
            let covers =
                problem.bounds.iter().fold(0usize, |sum, &(_, upper)| sum.saturating_add(upper as usize));
            covers.min(problem.option_count()) + problem.primary_count() + 1
        } else {
            problem.primary_count() + 1
        };
        Solver {
            problem,
            links: Links::new(problem),
            chooser: Chooser::new(),
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
            preferred: Vec::new(),
            pool: Vec::new(),
            pool_pos: Vec::new(),
            emptied_marks: vec![(0, 0); depth],
            run_emptied: 0,
            pending: false,
            restriction_cost: 0,
            multi: problem.has_multiplicities().then(|| Multi::new(problem, depth)),
            count_limit: 0,
            read_off: 0,
            marks: if problem.has_colors() { vec![None; problem.item_count() + 1] } else { Vec::new() },
            cap: usize::MAX,
            bitsets: BitSets::new(problem),
            memo: Memo::default(),
            memo_memory: DEFAULT_MEMO_MEMORY,
            pricing: None,
        }
    }

    /// The option nodes of the solution the search stands at: forced options, then those of the
    /// levels (leaving out null moves, with multiplicities).
    fn solution_nodes(&mut self) -> &[u32] {
        let chosen = &self.chosen[..self.level];
        match &mut self.multi {
            None => chosen,
            Some(m) => m.solution(chosen, self.links.item_count()),
        }
    }

    /// The problem being solved.
    pub fn problem(&self) -> &'p Problem {
        self.problem
    }

    /// Figures of the last run (the one in progress, for an iterator).
    pub fn stats(&self) -> Stats {
        self.stats.clone()
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
    /// item are tried, and breaks ties between equally short items at random, reproducibly: the
    /// same seed gives the same solutions in the same order. With `None`, options are tried top to
    /// bottom and ties are broken by the [`TieBreak`] rule. The set of solutions never depends on
    /// the seed.
    ///
    /// Breaking ties at random means looking at every active item at every node; see
    /// [`set_random_ties`](Self::set_random_ties) for the cheaper alternative.
    pub fn set_seed(&mut self, seed: Option<u64>) {
        self.seed = seed;
        self.reserve_pool();
    }

    /// Makes each following run try, at every node, the chosen item's options among `options`
    /// before its others (which keep their order, shuffled under a seed); an empty list takes
    /// the preference away. The solutions and counts never depend on it: only which solution
    /// comes first, and the effort. A search for another solution near a known one (a puzzle
    /// generator's "is there a solution other than this grid?") finds it far sooner when the
    /// known solution's options are preferred. Runs split over threads or shards ignore it.
    ///
    /// An option that is not the problem's is refused, leaving the preference as it was.
    pub fn set_preferred(&mut self, options: &[OptionId]) -> Result<(), ForceError> {
        if let Some(&option) = options.iter().find(|o| o.index() >= self.problem.option_count()) {
            return Err(ForceError::UnknownOption(option));
        }
        self.settle();
        self.preferred.clear();
        if !options.is_empty() {
            self.preferred.resize(self.problem.node_count(), false);
            for &option in options {
                self.preferred[self.problem.option_node_range(option)].fill(true);
            }
        }
        self.reserve_pool();
        Ok(())
    }

    /// Whether runs order each level's options in the pool: shuffled, or preferred first.
    fn pooled(&self) -> bool {
        // The cheapest solutions of a problem with colors are searched in a pool ordered by
        // cost; without colors, in lists sorted by cost (see `best`).
        self.seed.is_some()
            || !self.preferred.is_empty()
            || (self.pricing.is_some() && self.links.is_colored())
    }

    /// Room in the pool for the options of every level, when runs order them there.
    fn reserve_pool(&mut self) {
        if self.pooled() && self.pool.capacity() == 0 {
            // Every level's options are distinct nodes, so this never grows during a search.
            self.pool.reserve_exact(self.problem.node_count());
            self.pool_pos = vec![0; self.chosen.len()];
        }
    }

    /// Orders the options of one level in the pool (see [`Solver::set_seed`] and
    /// [`Solver::set_preferred`]): shuffled under a seed, then those preferred moved first,
    /// keeping their order.
    #[inline]
    pub(super) fn order_pool(
        pool: &mut [u32],
        rng: &mut Xoshiro256PlusPlus,
        seeded: bool,
        preferred: &[bool],
    ) {
        if seeded {
            rand::seq::SliceRandom::shuffle(pool, rng);
        }
        if !preferred.is_empty() {
            pool.sort_by_key(|&node| !preferred[node as usize]);
        }
    }

    /// With `false`, seeded runs still shuffle each item's options but break ties between equally
    /// short items as unseeded runs do, by the [`TieBreak`] rule. The choice of item then costs
    /// what it costs without a seed (a scan that may stop at the first item of length 1), which
    /// makes a random first solution several times cheaper on problems with many ties, such as
    /// filling an empty sudoku grid. The default is `true`.
    pub fn set_random_ties(&mut self, random: bool) {
        self.random_ties = random;
    }

    /// Sets how following runs break ties between equally short items when not at random (the
    /// default is [`TieBreak::Earliest`]).
    pub fn set_tie_break(&mut self, tie_break: TieBreak) {
        self.chooser.recent.set_enabled(tie_break == TieBreak::LastConflict);
    }

    /// Sets the rule that picks the item each node of following runs branches on (the default is
    /// [`Branching::Mrv`]). Counts and solutions are the same under every rule; the order of the
    /// solutions, the nodes and the time are not. Every rule runs on the links and on bit sets
    /// (the same tree on both), on every thread and in shards. Under a rule other than MRV,
    /// counts do not take the memo (whose choice of item must depend on the subproblem alone,
    /// and is MRV's), the [`TieBreak`] rule and a seed's random ties play no part (a seed still
    /// shuffles each item's options), and [`Solver::best`] keeps DLX5's own choice.
    ///
    /// ```
    /// use dlx_engine::{Branching, Problem, Solver};
    /// // Knuth's convention: items named with a leading `#` are branched on first.
    /// let problem: Problem = "a b #c\na b\na #c\nb #c\na\nb\n#c\n".parse()?;
    /// let mut solver = Solver::new(&problem);
    /// solver.set_branching(Branching::Sharp);
    /// assert_eq!(solver.count()?, 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_branching(&mut self, branching: Branching) {
        self.chooser.set(branching, self.problem);
    }

    /// The branching rule (see [`Solver::set_branching`]).
    pub fn branching(&self) -> Branching {
        self.chooser.branching()
    }

    /// Sets what following counts search with (the default is [`Counting::Auto`]). Visits and
    /// first solutions go where counts were set to go, or chose to go: under
    /// [`Counting::Auto`], on the links until a long count chooses bit sets. Iterators always
    /// run on the links.
    pub fn set_counting(&mut self, counting: Counting) {
        self.bitsets.set_counting(counting);
    }

    /// Where counts run now: [`Counting::Auto`] until a long count has chosen.
    #[cfg(test)]
    pub(crate) fn counting_choice(&self) -> Counting {
        self.bitsets.choice()
    }

    /// The rule for ties between equally short items.
    pub fn tie_break(&self) -> TieBreak {
        if self.chooser.recent.enabled() { TieBreak::LastConflict } else { TieBreak::Earliest }
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

    /// The number of solutions. A count past `u64::MAX` (possible with the memo) is an error
    /// whose reason is [`StopReason::Overflow`]: [`count_exact`](Self::count_exact) returns it.
    pub fn count(&mut self) -> Result<u64, Interrupted> {
        let count = self.count_exact()?;
        count.to_u64().ok_or(Interrupted { reason: StopReason::Overflow, solutions: count })
    }

    /// The number of solutions, however large: with the memo (see [`Solver::set_memo`]) where
    /// it is set or chosen, by visiting every solution otherwise. [`Stats::solutions`] holds it
    /// too.
    pub fn count_exact(&mut self) -> Result<Count, Interrupted> {
        if self.memo == Memo::Auto && self.memo_may_run() && self.budget.updates.is_none() {
            // A count that ends within the first probe is answered by it.
            match self.probe_plain() {
                Some(done) => return done.map(Count::from),
                None if self.memo_pays() => return self.count_memo(),
                None => {}
            }
        } else if self.memo == Memo::Always && self.memo_may_run() {
            return self.count_memo();
        }
        self.count_to(u64::MAX).map(Count::from)
    }

    /// The number of solutions, counting no further than `limit`: `Ok(limit)` means "at least
    /// `limit`". With a limit of 2 this is the uniqueness check.
    pub fn count_up_to(&mut self, limit: u64) -> Result<u64, Interrupted> {
        if limit == 0 {
            self.stats = Stats::default();
            return Ok(0);
        }
        self.count_to(limit)
    }

    /// Counts solutions up to `limit` (at least 1) without looking at them.
    fn count_to(&mut self, limit: u64) -> Result<u64, Interrupted> {
        self.start_run();
        self.count_limit = limit;
        let result = match self.bitsets.choice() {
            Counting::Links => self.count_steps(limit),
            _ if !self.bitsets_may_run() => self.count_steps(limit),
            Counting::BitSets => self.count_bitsets(limit),
            Counting::Auto => self.count_probing(limit),
        };
        self.count_limit = 0;
        result
    }

    /// Whether a run may go on bit sets: without a seed, the last-conflict rule or a cap, whose
    /// choices the bit sets do not make (the problem's own fit is the setting's, see `bitsets`).
    fn bitsets_may_run(&self) -> bool {
        self.seed.is_none() && !self.chooser.recent.enabled() && self.cap == usize::MAX
    }

    /// Counts on the links for [`bitsets::PROBE_NODES`] nodes; a search that goes on past them
    /// either goes on there or, if its nodes are dear enough (see [`BitSets::decide`]),
    /// starts again on bit sets. The choice holds for this solver's later counts.
    fn count_probing(&mut self, limit: u64) -> Result<u64, Interrupted> {
        let budget = self.budget;
        if budget.nodes.is_some_and(|n| n <= bitsets::PROBE_NODES) {
            return self.count_steps(limit);
        }
        self.budget.nodes = Some(bitsets::PROBE_NODES);
        let probed = self.count_steps(limit);
        self.budget = budget;
        let out_of_updates = budget.updates.is_some_and(|u| self.stats.updates >= u);
        match probed {
            Err(Interrupted { reason: StopReason::Budget, .. }) if !out_of_updates => {
                self.decide_counting();
                self.resume_count(limit)
            }
            other => other,
        }
    }

    /// Chooses where counts run from the figures of the last run, a count on the links that
    /// stopped after [`bitsets::PROBE_NODES`] nodes: the nodes whose levels it made (those it
    /// read off left out), and their updates and cleansings (see [`BitSets::decide`]).
    fn decide_counting(&mut self) -> bool {
        let made = self.stats.nodes - self.read_off;
        self.bitsets.decide(made, self.stats.updates, self.stats.cleansings)
    }

    /// Chooses now where this solver's counts and visits run, as a long count would choose (see
    /// [`Counting::Auto`]): from a count on the links that stops after 16,384 nodes, whose
    /// figures are not kept. A search that ends before (a small problem) chooses the links; a
    /// solver whose counts were set, or have chosen, keeps that. For a visit of a long search
    /// (every solution listed), which cannot start again as a count does.
    ///
    /// ```
    /// use dlx_engine::{Counting, Problem, Solver};
    /// let problem: Problem = "A B C\nA\nB\nC\nA B\nB C\n".parse().unwrap();
    /// let mut solver = Solver::new(&problem);
    /// assert_eq!(solver.choose_counting(), Counting::Links);
    /// ```
    pub fn choose_counting(&mut self) -> Counting {
        self.choose_counting_from(false)
    }

    /// Where counts of this problem run, chosen once for solvers that share one count out (the
    /// parallel solver's threads, shards and resumable pieces), as a count of the whole on this
    /// solver would choose: from the figures of its first [`bitsets::PROBE_NODES`] nodes on the
    /// links, which the last run made when it stopped there (`probed`), else from a count of its
    /// own that stops there, whose figures are not kept. A search that ends before (a small
    /// problem) chooses the links.
    pub(crate) fn choose_counting_from(&mut self, probed: bool) -> Counting {
        if self.bitsets.choice() != Counting::Auto {
            return self.bitsets.choice();
        }
        let ran_out = if probed {
            self.stats.nodes >= bitsets::PROBE_NODES
        } else {
            let budget = std::mem::replace(
                &mut self.budget,
                Budget { nodes: Some(bitsets::PROBE_NODES), updates: None },
            );
            let counted = self.count_to(u64::MAX);
            self.budget = budget;
            self.settle();
            matches!(counted, Err(Interrupted { reason: StopReason::Budget, .. }))
        };
        if !(ran_out && self.decide_counting()) {
            self.bitsets.set_counting(Counting::Links);
        }
        self.bitsets.choice()
    }

    /// Goes on with a count on the links that its budget of nodes stopped (the last run), under
    /// the budget now set, where counts run now: on the links from where it stopped (its figures
    /// and solutions go on adding up as one run's), or on bit sets from the start again.
    pub(crate) fn resume_count(&mut self, limit: u64) -> Result<u64, Interrupted> {
        debug_assert!(self.pending, "a count that stopped");
        self.count_limit = limit;
        let result = if self.bitsets_may_run() && self.bitsets.choice() == Counting::BitSets {
            self.start_run();
            self.count_bitsets(limit)
        } else {
            // The search stopped before choosing at its level: it goes on from there.
            self.pending = false;
            self.count_steps(limit)
        };
        self.count_limit = 0;
        result
    }

    /// [`visit`](Self::visit) on bit sets (see `bitsets`), leaving the links as they are: the
    /// same solutions in the same order, with the same figures. Each solution's options are those
    /// of the levels below the base (forced options, a subtree's path), then those the bit sets
    /// chose, named by their first nodes.
    fn visit_bitsets<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<Finished, Interrupted> {
        let limits = bitsets::Limits::new(u64::MAX, self.budget, self.cancel.as_ref());
        let problem = self.problem;
        // The nodes of a solution: the base's, then one per option chosen on the bit sets.
        let mut nodes = self.chosen[..self.base].to_vec();
        let base = nodes.len();
        let mut show = |options: &[u32]| {
            nodes.truncate(base);
            nodes.extend(options.iter().map(|&o| {
                problem.option_first_node(OptionId::from_u32(o)).expect("an option of the problem")
            }));
            visitor.solution(&Solution { problem, nodes: &nodes })
        };
        let run = (&limits, &mut show as &mut bitsets::Show<'_>, self.chooser.rule_mut());
        let result = self.bitsets.search::<true>(problem, &self.links, run, &mut self.stats);
        match result {
            Ok(true) => Ok(Finished::Stopped),
            Ok(false) => Ok(Finished::Exhausted),
            Err(reason) => Err(Interrupted { reason, solutions: self.stats.solutions.clone() }),
        }
    }

    /// [`count_to`](Self::count_to) on bit sets (see `bitsets`), leaving the links as they are.
    fn count_bitsets(&mut self, limit: u64) -> Result<u64, Interrupted> {
        let limits = bitsets::Limits::new(limit, self.budget, self.cancel.as_ref());
        let result =
            self.bitsets.count(self.problem, &self.links, &limits, &mut self.stats, self.chooser.rule_mut());
        let solutions = self.stats.solutions.clone();
        result.map(|()| self.found()).map_err(|reason| Interrupted { reason, solutions })
    }

    /// The solutions of the last run, which counted them one by one: fewer than `u64::MAX`.
    fn found(&self) -> u64 {
        u64::try_from(&self.stats.solutions).unwrap_or(u64::MAX)
    }

    fn count_steps(&mut self, limit: u64) -> Result<u64, Interrupted> {
        let mut resume = false;
        loop {
            match self.step(resume) {
                Step::Solution if self.found() >= limit => {
                    self.pending = true;
                    return Ok(self.found());
                }
                // (No cap is set outside `split`, so no frontier is met here.)
                Step::Solution | Step::Frontier => resume = true,
                Step::Exhausted => return Ok(self.found()),
                Step::Interrupted(reason) => {
                    self.pending = true;
                    return Err(Interrupted { reason, solutions: self.stats.solutions.clone() });
                }
            }
        }
    }

    /// Shows each solution to `visitor` until it breaks or the search is over.
    pub fn visit<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<Finished, Interrupted> {
        self.start_run();
        if self.bitsets_may_run() && self.bitsets.choice() == Counting::BitSets {
            return self.visit_bitsets(visitor);
        }
        let mut resume = false;
        loop {
            match self.step(resume) {
                Step::Solution => {
                    let problem = self.problem;
                    let solution = Solution { problem, nodes: self.solution_nodes() };
                    if visitor.solution(&solution).is_break() {
                        self.pending = true;
                        return Ok(Finished::Stopped);
                    }
                    resume = true;
                }
                // (No cap is set outside `split`, so no frontier is met here.)
                Step::Frontier => resume = true,
                Step::Exhausted => return Ok(Finished::Exhausted),
                Step::Interrupted(reason) => {
                    self.pending = true;
                    return Err(Interrupted { reason, solutions: self.stats.solutions.clone() });
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
        Solutions::new(self)
    }

    /// Checks the links against the invariants of the dlx1 layout and against the state the
    /// restrictions (and a paused run's levels) alone produce: after any run, the two must agree
    /// exactly. Takes time and memory in proportion to the size of the problem; meant for tests
    /// and debugging.
    pub fn verify_links(&self) -> Result<(), BrokenLinks> {
        let mut fresh = Links::new(self.problem);
        let mut fresh_multi = self.multi.as_ref().map(|_| Multi::new(self.problem, 0));
        for r in &self.restrictions {
            match (*r, &mut fresh_multi) {
                (Restriction::Forced(first, ..), None) => fresh.with(|d| d.cover_option(first)),
                (Restriction::Forced(first, ..), Some(m)) => {
                    fresh.with(|d| d.force_multi(first, &mut m.bound))
                }
                (Restriction::Excluded(first, ..), _) => {
                    fresh.with(|d| d.remove_option(first));
                }
            }
        }
        if let Some(m) = &self.multi {
            // With multiplicities a paused run's levels are checked by undoing them on a copy, the
            // copy then having to match the restrictions alone.
            let mut links = self.links.clone();
            let mut m = m.clone();
            if self.pending {
                let (mut pool, mut pool_pos) = (self.pool.clone(), self.pool_pos.clone());
                multi::unwind(
                    &mut links,
                    &mut m,
                    &self.chosen,
                    &mut pool,
                    &mut pool_pos,
                    self.base,
                    self.level,
                    self.run_emptied,
                );
            }
            let fresh_bound = fresh_multi.map(|f| f.bound).unwrap_or_default();
            return crate::check::check_links(self.problem, &self.links)
                .and_then(|()| crate::check::compare(&fresh, &links))
                .and_then(|()| {
                    if m.bound == fresh_bound {
                        Ok(())
                    } else {
                        Err(format!("bounds {:?} instead of {fresh_bound:?}", m.bound))
                    }
                })
                .map_err(|what| BrokenLinks { what });
        }
        if self.pending {
            // A run stopped early: its levels are still covered, as the search covered them.
            for &x in &self.chosen[self.base..self.level] {
                fresh.with(|d| d.cover_choice(x));
            }
        }
        crate::check::check_links(self.problem, &self.links)
            .and_then(|()| crate::check::compare(&fresh, &self.links))
            .map_err(|what| BrokenLinks { what })
    }
}

/// What one call of the search loop ended with.
pub(super) enum Step {
    Solution,
    /// The search reached the level it was capped at (see `split`): `chosen[base..level]` is the
    /// path to a subtree left for another solver.
    Frontier,
    Exhausted,
    Interrupted(StopReason),
}

impl Solver<'_> {
    /// Uncovers the levels a run left pending when it stopped early.
    pub(super) fn settle(&mut self) {
        if self.pending {
            self.unwind();
            self.pending = false;
        }
    }

    pub(super) fn start_run(&mut self) {
        self.settle();
        self.stats = Stats::default();
        self.read_off = 0;
        self.links.reset_updates();
        // Each run breaks ties by its own dead ends only, so that it branches the same way from
        // the same state whatever ran before it.
        self.chooser.forget();
        self.level = self.base;
        self.run_emptied = self.links.emptied_len();
        if let Some(seed) = self.seed {
            self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        }
        if self.pooled() {
            self.pool.clear();
        }
    }

    pub(super) fn step(&mut self, resume: bool) -> Step {
        let capped = self.cap != usize::MAX;
        let priced = self.pricing.is_some() && self.multi.is_none() && !capped && !self.pooled();
        let step = match (self.multi.is_some(), self.pooled() && !capped, self.links.is_colored()) {
            _ if priced => self.search::<false, false, false, true>(resume),
            (false, false, false) if capped => self.search::<false, false, true, false>(resume),
            (false, false, true) if capped => self.search::<false, true, true, false>(resume),
            (true, false, false) if capped => self.search_multi::<false, false, true>(resume),
            (true, false, true) if capped => self.search_multi::<false, true, true>(resume),
            (false, false, false) => self.search::<false, false, false, false>(resume),
            (false, true, false) => self.search::<true, false, false, false>(resume),
            (false, false, true) => self.search::<false, true, false, false>(resume),
            (false, true, true) => self.search::<true, true, false, false>(resume),
            (true, false, false) => self.search_multi::<false, false, false>(resume),
            (true, true, false) => self.search_multi::<true, false, false>(resume),
            (true, false, true) => self.search_multi::<false, true, false>(resume),
            (true, true, true) => self.search_multi::<true, true, false>(resume),
        };
        self.stats.updates = self.links.updates();
        self.stats.cleansings = self.links.cleansings();
        if let Step::Solution = step {
            self.stats.solutions += 1u64;
        }
        step
    }

    /// Puts the solver back at its base level from wherever a paused search stands (use
    /// [`settle`](Self::settle)).
    pub(super) fn unwind(&mut self) {
        if let Some(m) = &mut self.multi {
            let (base, level) = (self.base, self.level);
            multi::unwind(
                &mut self.links,
                m,
                &self.chosen,
                &mut self.pool,
                &mut self.pool_pos,
                base,
                level,
                self.run_emptied,
            );
            self.level = base;
        }
        while self.level > self.base {
            self.level -= 1;
            let x = self.chosen[self.level];
            self.links.with(|d| d.uncover_choice(x));
        }
        self.links.truncate_emptied(self.run_emptied);
        self.pool.clear();
        self.stats.updates = self.links.updates();
        self.stats.cleansings = self.links.cleansings();
    }
}
