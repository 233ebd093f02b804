//! Every core on one search: the tree is cut into many more subtrees than threads
//! ([`Solver::split`]), and rayon hands them to its threads, each with a [`Solver`] of its own.
//!
//! # How the work is shared
//!
//! A first run counts sequentially within a small budget: a problem that small (a sudoku, Knuth's
//! example) is done before any thread starts, and costs what one thread costs. So is a count
//! whose tree Knuth's estimate, taken where the first run stopped, finds a few times larger at
//! most (the first run goes on, within a bound in case the estimate is wrong): threads would
//! cost more than they gain there. Otherwise the top
//! of the tree is cut one level deeper at a time until there are at least [`PIECES_PER_THREAD`]
//! subtrees per thread (or the tree ends above the cut), each level's subtrees cut further by all
//! threads at once, each thread taking runs of neighbours and moving the links from one's path to
//! the next's through their common start only (a cut of each from the root, as
//! [`Solver::split_subtree`] makes, would cost the depth of the cut for every subtree, every
//! round: on a deep, narrow tree, more than the search); then rayon's work stealing hands them
//! out: a thread that finishes a small subtree takes the next. Subtrees of one tree differ widely
//! in size, so the cut aims at many per thread: the largest then still takes a small share of
//! the whole (the sizes are in `benches/RESULTS.md`).
//!
//! A level with a single way on (a forced move) is cut through at once, however many follow one
//! another: a search that begins with dozens of them is cut below them. Rounds that find no more
//! subtrees than they cut (dead ends as many as new branches) stop the cut after three in a row,
//! but only past 1,024 subtrees and while no subtree holds most of the tree by Knuth's measure.
//!
//! Where the counts run, on bit sets or on the links, is chosen once per problem, as one thread's
//! count would choose from its first nodes (the first run's, or a short count's for shards and
//! resumable counts): so the pieces of a count, however short, run where the whole would.
//!
//! The figures add up exactly to those of one sequential run (nodes, guesses, updates, solutions,
//! cleansings; with [`TieBreak::Earliest`], whose choices depend on the links alone) but for the
//! budgeted first run, whose work is not counted when it does not finish.
//!
//! # The memo on every thread
//!
//! A count to the end takes the memo as one thread's count would choose it (the probes of
//! [`Solver::choose_memo`], made once for the problem; [`ParallelSolver::set_memo`] forces it).
//!
//! On two threads, a problem without colors nor multiplicities is counted in two bands of levels
//! (`bitsets::band`): this thread counts from the root down to a level about halfway to a
//! solution, and hands each subproblem it meets there to the other thread, which counts them on
//! a table of its own (the probes'); this one makes the ZDD of its levels, whose nodes for the
//! subproblems handed over take their counts at the end. The threads share no table: they
//! exchange one signature and one count per subproblem at that level, where threads sharing a
//! table exchange cache lines at every node (`benches/RESULTS.md`). Each subproblem of a tiling
//! lies at one depth, so that the two threads make about one thread's nodes between them; a
//! subproblem met both above the band's level and below it is counted twice. Under
//! [`Memo::Auto`], once the first probe (without the memo) has not ended the count, this thread
//! starts the upper band at once while the other makes the probe with the memo, whose table the
//! lower band then starts from; if the probe chooses no memo, the upper band's work is dropped
//! and the count goes on without it. Without the probes (under [`Memo::Always`]) the count takes
//! [`MEMO_BAND_FIRST_NODES`] on this thread first. A ZDD that outgrows its quarter of the memo's
//! bytes (the upper table another quarter, the lower one half) ends the bands: the count goes on
//! as below. The other thread is made for the count, and leaves this thread's processor if the
//! system put it there (`place`): a thread that waits for the next balancing waits longer than
//! a small count takes.
//!
//! Otherwise (more threads, colors, multiplicities, a shard, a budget), the count runs on this
//! thread first, within a budget of nodes, on a table of its own: a count that ends there
//! (dominoes on 12x12 on three threads) starts no thread. Otherwise its table becomes one that
//! every thread shares (without locks: see `bitsets::memo`), the tree (or the shard's part) is
//! cut as for a plain count, and each thread counts subtrees with the memo: what one thread
//! stores, the others find. Every other thread tries each level's options last first: two
//! threads that went the same way would count the same subproblems at the same time, neither
//! done when the other meets them (the figures are in `benches/RESULTS.md`). The count is exact
//! whatever the order and however the threads meet, since an entry holds the whole count of its
//! subproblem.
//!
//! # Shards
//!
//! [`ParallelSolver::set_shard`] narrows the runs to shard `K` of `N` disjoint parts of the tree,
//! for `N` runs on as many machines. The tree is cut for the shards alone, not for the threads:
//! at least [`SHARD_PIECES`] subtrees per shard (fewer each past a cut of 65,536 subtrees, so
//! that the walk stays short), the `k`-th subtree going to shard `k mod N`; so the parts are the
//! same on every machine and with any number of threads. Each shard's subtrees are then cut
//! further for its threads. The walk above the first cut is counted in shard 0's figures, so
//! that the shards' figures add up to one run's.
//!
//! # Listing solutions
//!
//! [`ParallelSolver::for_each`] shows the solutions in the order of one sequential search. Its
//! threads take the subtrees in turn and hand their solutions over in batches, a few batches at
//! most per thread: a thread that gets ahead of the output waits, so memory stays bounded however
//! many solutions a subtree has, and when the visitor breaks (a limit) every thread stops at once.
//!
//! # Progress and resumable counts
//!
//! [`ParallelSolver::set_progress`] shares a [`Progress`] that the threads update as each subtree
//! is done: solutions, nodes, and the fraction of the tree done by Knuth's measure (the sum of
//! [`Subtree::weight`] over the subtrees done). [`ParallelSolver::resumable_cut`] and
//! [`ParallelSolver::count_subtrees`] make a count that a caller can record piece by piece and
//! resume after an interruption (`dlx xc --checkpoint`).
//!
//! # Limits
//!
//! * It runs on a pool of its own ([`ParallelSolver::set_threads`]), or else on the current rayon
//!   pool (the global one, unless the call is inside [`rayon::ThreadPool::install`]).
//!   [`ParallelSolver::for_each`] starts as many threads of its own as that pool has, and its
//!   visitor always runs on the calling thread.
//! * Seeded branching is a property of one sequential search: there is none here.
//! * A budget is shared: each subtree runs with what is left of it when it starts, and the first
//!   to run out stops the others. Cancelling stops every thread within about a thousand nodes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::bitsets::{Band, Shared};
use crate::count::Count;
use crate::problem::Problem;
use crate::solver::{
    Branching, Budget, CancelFlag, Counting, DEFAULT_MEMO_MEMORY, Interrupted, Memo, MemoStats, Solver,
    Stats, StopReason, Subtree, TieBreak,
};

mod cut;
mod list;
mod place;
mod progress;
mod shard;

use cut::Cut;
pub use progress::Progress;
pub use shard::{InvalidShard, MAX_SHARDS, Shard};

/// Subtrees the cut aims at per thread (see the module docs).
pub const PIECES_PER_THREAD: usize = 64;

/// Pieces a resumable count is cut into, at least (see [`ParallelSolver::resumable_cut`]).
pub const RESUMABLE_PIECES: usize = 4096;

/// Subtrees per shard of the cut for shards (see [`ParallelSolver::set_shard`]).
pub const SHARD_PIECES: usize = 64;

/// The most subtrees the cut for shards aims at, unless there are more shards: past
/// `SHARD_CUT / SHARD_PIECES` shards, each gets fewer than [`SHARD_PIECES`] subtrees.
const SHARD_CUT: usize = 1 << 16;

/// Rounds of cutting in a row that may find no more subtrees before the cut stops there, once
/// there are at least [`STALL_SUBTREES`] (see `cut::expand_from`).
const STALLED_ROUNDS: usize = 3;

/// Below this many subtrees, rounds of cutting that find no more go on (up to [`DEEPEST`]): such
/// a round walks few paths, and a cut that stopped there could leave one thread most of the work.
const STALL_SUBTREES: usize = 1024;

/// Subtrees cut further at a time, in order, by all threads (see `expand_from`).
const EXPAND_CHUNK: usize = 256;

/// How often the caller's cancel flag is looked at while the threads search (see `Run::watch`).
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(5);

/// Nodes the first, sequential attempt may take before the search is shared out: as many as a
/// count on one thread runs on the links before it chooses where to go on, so that its figures
/// make the same choice for every thread (see [`ParallelSolver::counting`]).
const SEQUENTIAL_NODES: u64 = crate::bitsets::PROBE_NODES;

/// A count whose first attempt finds, by Knuth's estimate, a tree of at most this many nodes
/// goes on to its end on one thread...
const SMALL_TREE: u64 = 4 * SEQUENTIAL_NODES;

/// ... unless it reaches this many nodes (the estimate was wrong): then it is shared out, as a
/// count whose first attempt did not finish.
const SMALL_TREE_BOUND: u64 = 8 * SEQUENTIAL_NODES;

/// Nodes a memoized count takes on one thread before it is shared out (see
/// `ParallelSolver::count_memo`).
const MEMO_FIRST_NODES: u64 = 1 << 17;

/// Nodes a memoized count in two bands takes on one thread before it starts the other (see
/// `ParallelSolver::count_in_bands`).
const MEMO_BAND_FIRST_NODES: u64 = 1 << 12;

/// Levels the upper band of a count in two bands takes beyond its share when the lower thread
/// starts only after the memo's probe (see `ParallelSolver::count_probing_in_bands`), for the
/// probe's [`MEMO_PROBE_NODES`] nodes (`benches/RESULTS.md`).
const MEMO_BAND_PROBE_LEVELS: usize = 2;

/// The deepest cut tried: past it the subtrees are used as they are.
const DEEPEST: usize = 64;

/// Searches one [`Problem`] on every thread of the current rayon pool. Its settings mirror a
/// [`Solver`]'s: budget, cancel flag, tie-break.
///
/// ```
/// use dlx_engine::{ParallelSolver, Problem};
/// let problem: Problem = "A B C\nA\nB\nC\nA B\nB C\n".parse().unwrap();
/// let parallel = ParallelSolver::new(&problem);
/// assert_eq!(parallel.count().unwrap(), 3);
/// assert_eq!(parallel.stats().solutions, 3);
/// ```
#[derive(Debug)]
pub struct ParallelSolver<'p> {
    problem: &'p Problem,
    budget: Budget,
    cancel: Option<CancelFlag>,
    tie_break: TieBreak,
    branching: Branching,
    pool: Option<&'p rayon::ThreadPool>,
    threads: Option<usize>,
    shard: Option<Shard>,
    progress: Option<Arc<Progress>>,
    /// The pool made for `threads`, when a run first needs it.
    own_pool: std::sync::OnceLock<Option<rayon::ThreadPool>>,
    /// Where every thread's counts run, chosen once for the problem (see [`Self::counting`]).
    counting: std::sync::OnceLock<Counting>,
    /// The figures of the last run (see [`stats`](Self::stats)).
    stats: Mutex<Stats>,
    /// Whether counts take the memo, and the most bytes its table may take.
    memo: Memo,
    memo_memory: usize,
    /// The table every thread's memoized counts share, once chosen for the problem (`Some(None)`:
    /// counts do not take the memo; see [`Self::memo_table`]).
    memo_table: Mutex<Option<Option<Arc<Shared>>>>,
    /// The memo's figures after the last memoized count.
    memo_figures: Mutex<Option<MemoStats>>,
    /// The fingerprint of the last cut for shards (see [`Self::shard_cut_fingerprint`]).
    shard_cut: Mutex<Option<u64>>,
    /// A count in two bands: the nodes it takes on one thread first, the level it hands
    /// subproblems over from (`None`: the solver's estimate), and how many the last one handed
    /// over (see [`Self::count_in_bands`]).
    band_first_nodes: u64,
    band_level: Option<usize>,
    band_handed: Mutex<Option<usize>>,
    /// The upper thread's bytes, when not its share of the memo's (for the tests).
    band_upper_memory: Option<usize>,
}

/// The shared state of one parallel run.
struct Run<'a> {
    /// Set to stop every thread: a budget ran out, a limit was reached, or the caller cancelled.
    stop: CancelFlag,
    /// Why the run was stopped early, if it was.
    stopped: Mutex<Option<StopReason>>,
    /// Nodes and updates used so far, against the budget.
    nodes: AtomicU64,
    updates: AtomicU64,
    budget: Budget,
    caller: Option<&'a CancelFlag>,
}

/// How a count in two bands ended (see `ParallelSolver::count_in_bands`): counted or stopped,
/// or out of room for them, to be counted instead from this solver, which holds a table.
enum Banded<'p> {
    Done(Result<(Count, Stats), Interrupted>),
    Instead(Box<Solver<'p>>),
}

/// What the lower thread of a count in two bands counts: each subproblem's count and nodes
/// without the memo, in the order handed over, with the figures of its searches.
type Handed = (Vec<Count>, Vec<u64>, Stats);

/// Where a memoized count starts (see `ParallelSolver::memo_start`).
enum MemoStart<'p> {
    /// The table the threads share, made by an earlier count.
    Shared(Arc<Shared>),
    /// The solver whose probes chose the memo, with their table of its own.
    Probed(Box<Solver<'p>>),
}

/// Passes the caller's cancel flag on to a run's own while it lives (see [`Run::watch`]).
struct Watch(Arc<AtomicBool>);

impl Drop for Watch {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Run<'_> {
    /// What is left of the budget for a subtree starting now.
    fn remaining(&self) -> Budget {
        let left = |limit: Option<u64>, used: &AtomicU64| {
            limit.map(|l| l.saturating_sub(used.load(Ordering::Relaxed)))
        };
        Budget {
            nodes: left(self.budget.nodes, &self.nodes),
            updates: left(self.budget.updates, &self.updates),
        }
    }

    /// Counts a finished subtree's work against the budget.
    fn spend(&self, stats: &Stats) {
        self.nodes.fetch_add(stats.nodes, Ordering::Relaxed);
        self.updates.fetch_add(stats.updates, Ordering::Relaxed);
    }

    /// Stops every thread for `reason` (the first reason given is kept).
    fn halt(&self, reason: StopReason) {
        let mut stopped = self.stopped.lock().unwrap_or_else(|e| e.into_inner());
        stopped.get_or_insert(reason);
        self.stop.cancel();
    }

    fn reason(&self) -> Option<StopReason> {
        let stopped = *self.stopped.lock().unwrap_or_else(|e| e.into_inner());
        stopped.or_else(|| self.caller.filter(|c| c.is_cancelled()).map(|_| StopReason::Cancelled))
    }

    /// Starts passing the caller's cancel flag, if any, on to the run's own, which every thread
    /// watches, until the guard returned is dropped: a thread that looks at it every
    /// [`WATCH_EVERY`], started only once the search is shared out, so that a small search starts
    /// no thread at all.
    fn watch(&self) -> Option<Watch> {
        let caller = self.caller?.clone();
        let stop = self.stop.clone();
        let done = Arc::new(AtomicBool::new(false));
        let watching = Arc::clone(&done);
        let spawned = std::thread::Builder::new().name("dlx-cancel".into()).spawn(move || {
            while !watching.load(Ordering::Relaxed) {
                if caller.is_cancelled() {
                    stop.cancel();
                    break;
                }
                std::thread::sleep(WATCH_EVERY);
            }
        });
        // Without the thread, the caller's flag is still seen between subtrees.
        spawned.ok().map(|_| Watch(done))
    }
}

impl<'p> ParallelSolver<'p> {
    /// A parallel solver for `problem`: no budget, no cancel flag, [`TieBreak::Earliest`].
    pub fn new(problem: &'p Problem) -> Self {
        ParallelSolver {
            problem,
            budget: Budget::default(),
            cancel: None,
            tie_break: TieBreak::Earliest,
            branching: Branching::Mrv,
            pool: None,
            threads: None,
            shard: None,
            progress: None,
            own_pool: std::sync::OnceLock::new(),
            counting: std::sync::OnceLock::new(),
            stats: Mutex::new(Stats::default()),
            memo: Memo::default(),
            memo_memory: DEFAULT_MEMO_MEMORY,
            memo_table: Mutex::new(None),
            memo_figures: Mutex::new(None),
            shard_cut: Mutex::new(None),
            band_first_nodes: MEMO_BAND_FIRST_NODES,
            band_level: None,
            band_handed: Mutex::new(None),
            band_upper_memory: None,
        }
    }

    /// Sets whether counts to the end ([`count`](Self::count), [`count_exact`](Self::count_exact),
    /// [`count_subtrees`](Self::count_subtrees)) take the memo, as [`Solver::set_memo`] does for
    /// one thread; the default is [`Memo::Auto`], chosen once for the problem by one thread's
    /// probes ([`Solver::choose_memo`]). The threads share one table (see the module docs).
    pub fn set_memo(&mut self, memo: Memo) {
        self.memo = memo;
        *self.memo_table.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner) = None;
    }

    /// Sets the most bytes the memo's table may take, all threads together (the default is
    /// [`DEFAULT_MEMO_MEMORY`]). Takes effect for a table not made yet.
    pub fn set_memo_memory(&mut self, bytes: usize) {
        self.memo_memory = bytes;
    }

    /// The memo's figures after the last count that took it (its table's, over all threads; the
    /// nodes that count would have taken without the memo), if any did.
    pub fn memo_stats(&self) -> Option<MemoStats> {
        *self.memo_figures.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The [fingerprint](crate::Split::fingerprint) of the whole cut for shards that the last
    /// run of a shard made (before it took its share), if one did: the same for every shard of
    /// one cut. A record of a shard's count keeps it, so that shards cut another way (by another
    /// version) are not added up with it.
    pub fn shard_cut_fingerprint(&self) -> Option<u64> {
        self.shard.and(*self.shard_cut.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// How counts to the end take the memo, chosen once for the problem by the probes of one
    /// thread's [`Solver::choose_memo`] (not kept when the caller cancels them): not at all
    /// (`None`); or from the table every thread shares, made by an earlier count; or, chosen
    /// now, from the solver that probed, whose table of its own holds what the probe counted.
    fn memo_start(&self) -> Option<MemoStart<'p>> {
        let mut chosen = self.memo_table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(table) = &*chosen {
            return table.clone().map(MemoStart::Shared);
        }
        let mut solver = self.probe_solver();
        let take = solver.choose_memo();
        if !take {
            self.keep_without_memo(&mut chosen);
        }
        // Chosen: counts go on from the probe's table, without probing again.
        solver.set_memo(Memo::Always);
        take.then_some(MemoStart::Probed(Box::new(solver)))
    }

    /// Keeps the probes' verdict against the memo in `chosen` (the memo's table), for later
    /// counts, unless the caller cancelled the probes.
    fn keep_without_memo(&self, chosen: &mut Option<Option<Arc<Shared>>>) {
        if !self.cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
            *chosen = Some(None);
        }
    }

    /// A solver for [`Solver::choose_memo`]'s probes, watching the caller's cancel flag.
    fn probe_solver(&self) -> Solver<'p> {
        let mut solver = Solver::new(self.problem);
        solver.set_tie_break(self.tie_break);
        solver.set_branching(self.branching);
        solver.set_cancel_flag(self.cancel.clone());
        solver.set_memo(self.memo);
        solver.set_memo_memory(self.memo_memory);
        solver
    }

    /// The table every thread shares, made from `start` and kept for later counts.
    fn memo_table(&self, start: MemoStart<'p>) -> Arc<Shared> {
        let table = match start {
            MemoStart::Shared(table) => table,
            MemoStart::Probed(mut solver) => solver.share_own_memo(self.memo_memory),
        };
        let kept = Some(Some(Arc::clone(&table)));
        *self.memo_table.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = kept;
        table
    }

    /// A solver for one thread of a memoized count: `run`'s, counting with the memo in `table`.
    fn memo_solver(&self, run: &Run<'_>, table: &Arc<Shared>) -> Solver<'p> {
        let mut solver = self.solver(run);
        solver.set_memo(Memo::Always);
        solver.share_memo(Some(Arc::clone(table)));
        // Every other thread goes the other way (see `bitsets`).
        solver.set_memo_backwards(rayon::current_thread_index().is_some_and(|t| t % 2 == 1));
        solver
    }

    /// The figures of the last run (count, listing, subtrees), summed over its threads: those of
    /// one thread's search, as [`Solver::stats`] gives them. After an interrupted run, none (all
    /// 0): its threads' figures are not summed.
    pub fn stats(&self) -> Stats {
        self.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Keeps the figures of a run that ends with `result` for [`stats`](Self::stats), and returns
    /// its value.
    fn keep<T>(&self, result: Result<(T, Stats), Interrupted>) -> Result<T, Interrupted> {
        let stats = result.as_ref().map_or_else(|_| Stats::default(), |(_, stats)| stats.clone());
        *self.stats.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = stats;
        result.map(|(value, _)| value)
    }

    /// Keeps `figures` as the memo's after the last count (see [`Self::memo_stats`]).
    fn keep_memo(&self, figures: Option<MemoStats>) {
        *self.memo_figures.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = figures;
    }

    /// Makes the following runs report their progress into `progress` as they go (each run adds
    /// to it: give a fresh one to each run).
    pub fn set_progress(&mut self, progress: Option<Arc<Progress>>) {
        self.progress = progress;
    }

    /// Reports a subtree done.
    fn report(&self, subtree: &Subtree, solutions: &Count, stats: &Stats) {
        if let Some(progress) = &self.progress {
            progress.add_done(subtree.weight(), solutions, stats.nodes);
        }
    }

    /// Reports the whole tree done at once: searched by the first, sequential attempt.
    fn report_whole(&self, solutions: &Count, stats: &Stats) {
        if let Some(progress) = &self.progress {
            progress.add_done(1.0, solutions, stats.nodes);
        }
    }

    /// Makes the following runs search one shard of the tree only: the solutions of all `N`
    /// shards, each counted or visited once, are those of the whole search, and the shards are
    /// the same on every machine, whatever the threads (see the module docs). `None`: the whole.
    pub fn set_shard(&mut self, shard: Option<Shard>) {
        self.shard = shard;
    }

    /// Runs the threads' work on `pool` (`None`: on the current rayon pool). For tests: callers
    /// give [`set_threads`](Self::set_threads), or run inside a pool of their own.
    #[cfg(test)]
    pub(crate) fn set_pool(&mut self, pool: Option<&'p rayon::ThreadPool>) {
        self.pool = pool;
    }

    /// Runs the threads' work on a pool of its own with this many threads, started only when a
    /// search is too large for the first, sequential attempt (`None`: on the current rayon pool,
    /// the global one unless the call is inside a pool's `install`). If the threads cannot be
    /// started, the work runs on the current pool.
    pub fn set_threads(&mut self, threads: Option<usize>) {
        self.threads = threads.map(|n| n.max(1));
        self.own_pool = std::sync::OnceLock::new();
    }

    /// The pool the work goes to, if not the current one.
    fn pool(&self) -> Option<&rayon::ThreadPool> {
        self.pool.or_else(|| {
            let n = self.threads?;
            self.own_pool.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(n).build().ok()).as_ref()
        })
    }

    /// Runs `f` on the pool the work goes to.
    fn in_pool<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match self.pool() {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    /// The threads of the pool the work goes to (without starting them).
    fn threads(&self) -> usize {
        match (self.pool, self.threads) {
            (Some(pool), _) => pool.current_num_threads(),
            (None, Some(n)) => n,
            (None, None) => rayon::current_num_threads(),
        }
        .max(1)
    }

    /// Sets the budget shared by all threads.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Makes the search stop when `flag` is set.
    pub fn set_cancel_flag(&mut self, flag: Option<CancelFlag>) {
        self.cancel = flag;
    }

    /// Sets the tie-break of every thread's solver.
    pub fn set_tie_break(&mut self, tie_break: TieBreak) {
        self.tie_break = tie_break;
    }

    /// Sets the branching rule of every thread's solver (see [`Solver::set_branching`]). A rule
    /// that learns ([`Branching::learns`]) learns in each piece from that piece's dead ends
    /// only: the counts are those of one thread, the nodes need not be.
    pub fn set_branching(&mut self, branching: Branching) {
        self.branching = branching;
    }

    /// Where every thread's counts run (bit sets or the links), once a count of this solver chose
    /// it; `None` before. A caller that counts the pieces of one problem in many runs (the tasks
    /// of a cluster) passes it to the next runs' solvers with [`set_counting`](Self::set_counting)
    /// rather than have each choose again by a probe of its own.
    pub fn counting_chosen(&self) -> Option<Counting> {
        self.counting.get().copied()
    }

    /// Sets where every thread's counts run: as an earlier run of the same problem and settings
    /// chose ([`counting_chosen`](Self::counting_chosen); the choice comes from a probe's figures,
    /// the same on every machine), or [`Counting::Auto`] to choose afresh.
    pub fn set_counting(&mut self, counting: Counting) {
        self.counting = match counting {
            Counting::Auto => std::sync::OnceLock::new(),
            chosen => std::sync::OnceLock::from(chosen),
        };
    }

    /// A solver for one thread, with these settings but the budget and the flag of `run`, and
    /// counting where the problem's counts run once chosen.
    fn solver(&self, run: &Run<'_>) -> Solver<'p> {
        let mut solver = Solver::new(self.problem);
        solver.set_tie_break(self.tie_break);
        solver.set_branching(self.branching);
        solver.set_cancel_flag(Some(run.stop.clone()));
        if let Some(&counting) = self.counting.get() {
            solver.set_counting(counting);
        }
        solver
    }

    /// Where every thread's counts run (bit sets or the links): chosen once for the problem, as
    /// a count on one thread would choose from its first nodes, so that the pieces of a count,
    /// however short, run where the whole would. A count's first attempt chooses (see
    /// [`cut`](Self::cut)); else a short count of its own does, whose figures are not kept.
    fn counting(&self, run: &Run<'_>) -> Counting {
        *self.counting.get_or_init(|| self.solver(run).choose_counting_from(false))
    }

    /// The number of solutions (the figures of the whole search: [`stats`](Self::stats)). A
    /// count past `u64::MAX` (possible with the memo) is an error whose reason is
    /// [`StopReason::Overflow`]: [`count_exact`](Self::count_exact) returns it.
    pub fn count(&self) -> Result<u64, Interrupted> {
        let count = self.count_exact()?;
        count.to_u64().ok_or(Interrupted { reason: StopReason::Overflow, solutions: count })
    }

    /// The number of solutions, however large: with the memo where it is set or chosen (see
    /// [`set_memo`](Self::set_memo)), by visiting every solution otherwise.
    pub fn count_exact(&self) -> Result<Count, Interrupted> {
        self.keep_memo(None);
        if let Some(counted) = self.count_probing_in_bands() {
            return self.keep(counted);
        }
        match self.memo_start() {
            Some(start) => self.keep(self.with_run(|run| self.count_memo(run, start))),
            None => self.keep(self.count_with_stats(u64::MAX)),
        }
    }

    /// The number of solutions, counting no further than `limit` (`Ok(limit)` means "at least
    /// `limit`": the threads stop once they have found that many between them), without the memo.
    pub fn count_up_to(&self, limit: u64) -> Result<u64, Interrupted> {
        // (No more than `limit`, a `u64`, is counted.)
        self.keep(self.count_with_stats(limit)).map(|n| n.to_u64().unwrap_or(limit))
    }

    /// A count with the memo, from `start`. The whole tree is counted on this thread first,
    /// within [`MEMO_FIRST_NODES`] nodes when the pool has more than one (to the end with one):
    /// a count that ends there costs no thread, nor any lock. Else the tree (the shard's) is cut
    /// and its subtrees counted on every thread, which share a table that keeps what the first
    /// attempt finished.
    fn count_memo(&self, run: &Run<'_>, mut start: MemoStart<'p>) -> Result<(Count, Stats), Interrupted> {
        if self.shard.is_none()
            && self.threads() == 2
            && run.remaining() == Budget::default()
            && let MemoStart::Probed(solver) = &mut start
            && solver.memo_in_bands()
        {
            let MemoStart::Probed(solver) = start else { unreachable!() };
            match self.count_in_bands(run, solver) {
                Banded::Done(result) => return result,
                Banded::Instead(solver) => start = MemoStart::Probed(solver),
            }
        }
        self.count_memo_shared(run, start)
    }

    /// [`count_memo`](Self::count_memo) without two bands: on this thread first, then on every
    /// thread sharing a table.
    fn count_memo_shared(
        &self,
        run: &Run<'_>,
        mut start: MemoStart<'p>,
    ) -> Result<(Count, Stats), Interrupted> {
        let keep = |figures: Option<MemoStats>| self.keep_memo(figures);
        if self.shard.is_none() {
            let (mut solver, shared) = match start {
                MemoStart::Probed(solver) => (solver, None),
                MemoStart::Shared(table) => (Box::new(self.memo_solver(run, &table)), Some(table)),
            };
            solver.set_cancel_flag(self.cancel.clone());
            let budget = run.remaining();
            let alone = self.threads() == 1 || budget.nodes.is_some_and(|n| n <= MEMO_FIRST_NODES);
            let first = budget.nodes.map_or(MEMO_FIRST_NODES, |n| n.min(MEMO_FIRST_NODES));
            solver.set_budget(if alone { budget } else { Budget { nodes: Some(first), ..budget } });
            let result = solver.count_exact();
            let stats = solver.stats();
            let figures = |solver: &Solver<'_>| match &shared {
                Some(table) => Some(MemoStats { plain_nodes: solver.memo_plain_nodes(), ..table.figures() }),
                None => solver.memo_stats(),
            };
            match result {
                Ok(count) => {
                    keep(figures(&solver));
                    self.report_whole(&count, &stats);
                    return Ok((count, stats));
                }
                Err(e) if alone || e.reason != StopReason::Budget => {
                    keep(figures(&solver));
                    return Err(e);
                }
                // Not in the figures, which are those of the count below; against the budget.
                Err(_) => run.spend(&stats),
            }
            start = match shared {
                Some(table) => MemoStart::Shared(table),
                None => MemoStart::Probed(solver),
            };
        }
        let table = &self.memo_table(start);
        let (subtrees, mut stats, _watch) = match self.shard {
            Some(shard) => self.shard_cut(run, shard)?,
            None => {
                let watch = run.watch();
                let mut solver = self.solver(run);
                let (subtrees, above) = self.expand(run, &mut solver, self.threads() * PIECES_PER_THREAD)?;
                run.spend(&above);
                (subtrees, above, watch)
            }
        };
        let above = stats.nodes;
        let (sums, plain) = self.count_pieces(
            run,
            &subtrees,
            &|_| false,
            &|_, _| {},
            &AtomicU64::new(0),
            u64::MAX,
            Some(table),
        );
        stats.add(&sums);
        keep(Some(MemoStats { plain_nodes: plain.saturating_add(above), ..table.figures() }));
        match run.reason() {
            Some(reason) => Err(Interrupted { reason, solutions: sums.solutions }),
            None => Ok((stats.solutions.clone(), stats)),
        }
    }

    /// A count with the memo on two threads, in two bands of levels (see `bitsets::band`), from
    /// `upper`, the solver whose probes chose the memo: without probes, first on this thread
    /// alone within [`MEMO_BAND_FIRST_NODES`] nodes (a count that ends there starts no thread);
    /// then the upper band on this thread, on a table made afresh, and the lower one on the
    /// other, on the probes' or the first attempt's table. Its progress is reported at the end.
    fn count_in_bands(&self, run: &Run<'_>, mut upper: Box<Solver<'p>>) -> Banded<'p> {
        let _watch = run.watch();
        upper.set_cancel_flag(Some(run.stop.clone()));
        // (Probes that kept their table did not end within as many nodes.)
        let probed = upper.memo_stats().is_some_and(|m| m.entries > 0);
        upper.set_budget(Budget {
            nodes: Some(if probed { 0 } else { self.band_first_nodes }),
            updates: None,
        });
        let first = upper.count_exact();
        match first {
            Ok(count) => {
                let stats = upper.stats();
                self.keep_memo(upper.memo_stats());
                self.report_whole(&count, &stats);
                return Banded::Done(Ok((count, stats)));
            }
            Err(e) if e.reason != StopReason::Budget => return Banded::Done(Err(e)),
            Err(_) => {}
        }
        upper.set_budget(Budget::default());
        let mut lower = Box::new(self.solver(run));
        upper.move_memo_to(&mut lower);
        let level = self.band_level.unwrap_or_else(|| upper.memo_band_level());
        let band = Band::new(level, upper.memo_key_words());
        let banded = self.bands(run, upper, &band, || {
            let bottom = self.count_lower(run, &mut lower, &band);
            Some((lower, bottom))
        });
        banded.unwrap_or_else(|| unreachable!("only a lower band that probes declines"))
    }

    /// [`count_exact`](Self::count_exact) under [`Memo::Auto`] on two threads, in two bands from
    /// the start when the problem takes them: once a count without the memo has not ended within
    /// [`MEMO_PROBE_NODES`] (see [`Solver::choose_memo`]), this thread counts the upper band at
    /// once while the other makes the probe with the memo, and counts the lower band from the
    /// probe's table if it chooses the memo; if not, the upper band's work is dropped. `None` when
    /// the count does not take this way, or the probes choose no memo (which is kept, as
    /// [`memo_start`](Self::memo_start) keeps it): the caller counts as it would have.
    fn count_probing_in_bands(&self) -> Option<Result<(Count, Stats), Interrupted>> {
        if self.memo != Memo::Auto
            || self.shard.is_some()
            || self.threads() != 2
            || self.budget != Budget::default()
            || self.problem.has_colors()
            || self.problem.has_multiplicities()
        {
            return None;
        }
        let without = || {
            self.keep_without_memo(
                &mut self.memo_table.lock().unwrap_or_else(std::sync::PoisonError::into_inner),
            )
        };
        if self.memo_table.lock().unwrap_or_else(std::sync::PoisonError::into_inner).is_some() {
            return None;
        }
        let mut probe = Box::new(self.probe_solver());
        if !probe.memo_in_bands() {
            return None;
        }
        if probe.probe_plain().is_some() {
            // Ended within the probe: counted again without the memo.
            without();
            return None;
        }
        let declined = AtomicBool::new(false);
        let counted = self.with_run(|run| {
            let _watch = run.watch();
            let mut upper = Box::new(self.solver(run));
            upper.set_memo(Memo::Always);
            let level = self.band_level.unwrap_or_else(|| upper.memo_band_level() + MEMO_BAND_PROBE_LEVELS);
            let band = Band::new(level, upper.memo_key_words());
            let banded = self.bands(run, upper, &band, || {
                if !probe.memo_pays() {
                    // The upper band's work is dropped (see above).
                    declined.store(true, Ordering::Relaxed);
                    band.fail();
                    run.stop.cancel();
                    return None;
                }
                probe.set_cancel_flag(Some(run.stop.clone()));
                let bottom = self.count_lower(run, &mut probe, &band);
                Some((probe, bottom))
            });
            match banded {
                Some(Banded::Done(result)) => result,
                Some(Banded::Instead(lower)) => self.count_memo_shared(run, MemoStart::Probed(lower)),
                None => Err(Interrupted { reason: StopReason::Cancelled, solutions: Count::ZERO }),
            }
        });
        if declined.into_inner() {
            without();
            return None;
        }
        Some(counted)
    }

    /// The lower thread's part of a count in two bands, on `lower` (holding the table it starts
    /// from): [`Solver::count_lower`], whose failure stops the upper thread.
    fn count_lower(&self, run: &Run<'_>, lower: &mut Solver<'p>, band: &Band) -> Result<Handed, Interrupted> {
        lower.set_cancel_flag(Some(run.stop.clone()));
        lower.set_memo(Memo::Always);
        lower.set_memo_memory(self.memo_memory / 2);
        let bottom = lower.count_lower(band);
        if bottom.is_err() {
            band.fail();
        }
        bottom
    }

    /// The two threads of a count in two bands at `band`'s level: the upper band on this thread
    /// from `upper` (on a table made afresh, of a quarter of the memo's bytes: another quarter
    /// for its ZDD, half for the lower thread's), the lower one on another by `lower`, which
    /// gives back its solver and its counts, or declines (`None`, as `bands` returns then). Their
    /// figures and counts summed; a ZDD or hand-over out of room: the count to go on instead from
    /// the lower thread's solver.
    fn bands(
        &self,
        run: &Run<'_>,
        mut upper: Box<Solver<'p>>,
        band: &Band,
        lower: impl FnOnce() -> Option<(Box<Solver<'p>>, Result<Handed, Interrupted>)> + Send,
    ) -> Option<Banded<'p>> {
        upper.set_cancel_flag(Some(run.stop.clone()));
        upper.set_memo_memory(self.band_upper_memory.unwrap_or(self.memo_memory / 4));
        let mut up = || {
            let top = upper.count_upper(band);
            band.finish();
            top
        };
        // On the caller's pool if it gave one; else on this thread and one more, which is quicker
        // to start than a pool of two (and is moved off this thread's processor: see `place`).
        let started = AtomicBool::new(false);
        let (top, bottom) = match self.pool {
            Some(pool) => pool.install(|| rayon::join(up, lower)),
            None => std::thread::scope(|scope| {
                let maker = place::here();
                let started = &started;
                let lower = scope.spawn(move || {
                    place::leave(maker, started);
                    lower()
                });
                place::wait(started);
                let top = up();
                (top, lower.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            }),
        };
        let (mut lower, bottom) = bottom?;
        let mut stats = upper.stats();
        let (up, low) = (upper.memo_stats().unwrap_or_default(), lower.memo_stats().unwrap_or_default());
        let mut figures = MemoStats {
            entries: up.entries + low.entries,
            hits: up.hits + low.hits,
            misses: up.misses + low.misses,
            bytes: up.bytes + low.bytes,
            dropped: up.dropped + low.dropped,
            plain_nodes: 0,
        };
        let keep = |figures: MemoStats| self.keep_memo(Some(figures));
        let ((counts, plain, below), (nodes, root)) = match (bottom, top) {
            (Ok(bottom), Ok(top)) => (bottom, top),
            (Err(e), _) | (_, Err(e)) => {
                keep(figures);
                if e.reason == StopReason::Memory {
                    // The ZDD or the hand-over outgrew their room: the count on every thread
                    // sharing a table, from the lower thread's.
                    lower.set_memo_memory(self.memo_memory);
                    return Some(Banded::Instead(lower));
                }
                return Some(Banded::Done(Err(Interrupted { solutions: Count::ZERO, ..e })));
            }
        };
        stats.add(&below);
        *self.band_handed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(counts.len());
        let (count, plain_nodes) = crate::bitsets::band_tally(&nodes, root, &counts, up.plain_nodes, &plain);
        figures.plain_nodes = plain_nodes;
        // (The upper thread's ZDD is part of the memo's bytes here.)
        figures.bytes += (nodes.capacity() * std::mem::size_of::<[u32; 3]>()) as u64;
        keep(figures);
        stats.solutions = count.clone();
        self.report_whole(&count, &stats);
        Some(Banded::Done(Ok((count, stats))))
    }

    /// [`count_up_to`](Self::count_up_to), with the run's figures.
    fn count_with_stats(&self, limit: u64) -> Result<(Count, Stats), Interrupted> {
        if limit == 0 {
            return Ok((Count::ZERO, Stats::default()));
        }
        self.with_run(|run| {
            let (subtrees, mut stats, _watch) = match self.shard {
                Some(shard) => self.shard_cut(run, shard)?,
                None => match self.cut(run, true, |solver, resume| match resume {
                    true => solver.resume_count(limit),
                    false => solver.count_up_to(limit),
                })? {
                    Cut::Done(count, stats) => {
                        self.report_whole(&Count::from(count), &stats);
                        return Ok((Count::from(count), stats));
                    }
                    Cut::Pieces(subtrees, stats, watch) => (subtrees, stats, watch),
                },
            };
            let found = AtomicU64::new(0);
            let (sums, _) = self.count_pieces(run, &subtrees, &|_| false, &|_, _| {}, &found, limit, None);
            stats.add(&sums);
            if found.into_inner() >= limit {
                return Ok((Count::from(limit), stats));
            }
            match run.reason() {
                Some(reason) => Err(Interrupted { reason, solutions: sums.solutions }),
                None => Ok((sums.solutions.clone(), stats)),
            }
        })
    }

    /// Runs `f` with the shared state of a run.
    fn with_run<R>(&self, f: impl FnOnce(&Run<'_>) -> Result<R, Interrupted>) -> Result<R, Interrupted> {
        let run = Run {
            stop: CancelFlag::new(),
            stopped: Mutex::new(None),
            nodes: AtomicU64::new(0),
            updates: AtomicU64::new(0),
            budget: self.budget,
            caller: self.cancel.as_ref(),
        };
        f(&run)
    }

    /// Counts the solutions of `subtrees` (cut from this solver's problem) on all threads, but
    /// those whose position `skip` names, with the memo where it is set or chosen (as
    /// [`count_exact`](Self::count_exact) counts); calls `counted` with the position and the
    /// figures of each as it is done (from any thread). Returns the solutions of those counted now
    /// (their figures summed: [`stats`](Self::stats)).
    pub fn count_subtrees(
        &self,
        subtrees: &[Subtree],
        skip: &(dyn Fn(usize) -> bool + Sync),
        counted: &(dyn Fn(usize, Stats) + Sync),
    ) -> Result<Count, Interrupted> {
        self.keep_memo(None);
        let table = self.memo_start().map(|start| self.memo_table(start));
        self.keep(self.with_run(|run| {
            let _watch = run.watch();
            let found = AtomicU64::new(0);
            let (sums, plain) =
                self.count_pieces(run, subtrees, skip, counted, &found, u64::MAX, table.as_ref());
            if let Some(table) = &table {
                let memo = MemoStats { plain_nodes: plain, ..table.figures() };
                self.keep_memo(Some(memo));
            }
            match run.reason() {
                Some(reason) => Err(Interrupted { reason, solutions: sums.solutions }),
                None => Ok((sums.solutions.clone(), sums)),
            }
        }))
    }

    /// Counts `subtrees` on all threads (but those `skip` names), each with what is left of the
    /// budget, reporting each done to `counted` and the progress; adds the solutions into
    /// `found` and stops every thread once it reaches `limit`; with the memo in `memo` when
    /// given (and no limit). Returns the sum of the figures, and of the nodes the memoized
    /// counts would have taken without the memo.
    #[allow(clippy::too_many_arguments)]
    fn count_pieces(
        &self,
        run: &Run<'_>,
        subtrees: &[Subtree],
        skip: &(dyn Fn(usize) -> bool + Sync),
        counted: &(dyn Fn(usize, Stats) + Sync),
        found: &AtomicU64,
        limit: u64,
        memo: Option<&Arc<Shared>>,
    ) -> (Stats, u64) {
        self.counting(run);
        self.in_pool(|| {
            subtrees
                .par_iter()
                .enumerate()
                .filter(|&(k, _)| !skip(k))
                .map_init(
                    || match memo {
                        Some(table) => self.memo_solver(run, table),
                        None => self.solver(run),
                    },
                    |solver, (k, subtree)| {
                        if run.stop.is_cancelled() || run.caller.is_some_and(CancelFlag::is_cancelled) {
                            run.stop.cancel();
                            return (Stats::default(), 0);
                        }
                        solver.set_budget(run.remaining());
                        let result = if memo.is_some() {
                            solver.count_subtree_exact(subtree)
                        } else {
                            // No further than the solutions still wanted: a subtree may hold far
                            // more.
                            let wanted = limit.saturating_sub(found.load(Ordering::Relaxed));
                            solver.count_subtree_up_to(subtree, wanted).map(Count::from)
                        };
                        let stats = solver.stats();
                        run.spend(&stats);
                        match result {
                            Ok(n) => {
                                self.report(subtree, &n, &stats);
                                counted(k, stats.clone());
                                // (A memoized count has no limit, and may pass `u64::MAX`.)
                                let n = n.to_u64().unwrap_or(u64::MAX);
                                if memo.is_none()
                                    && found.fetch_add(n, Ordering::Relaxed).saturating_add(n) >= limit
                                {
                                    run.stop.cancel();
                                }
                                let plain = if memo.is_some() { solver.memo_plain_nodes() } else { 0 };
                                (stats, plain)
                            }
                            Err(e) => {
                                run.halt(e.reason);
                                (Stats::default(), 0)
                            }
                        }
                    },
                )
                .reduce(
                    || (Stats::default(), 0),
                    |(mut a, p), (b, q)| {
                        a.add(&b);
                        (a, p.saturating_add(q))
                    },
                )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 3x20 pentominoes (the fixture).
    fn pentominoes() -> Problem {
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pentominoes3x20.dlx");
        Problem::parse_dlx(&std::fs::read_to_string(fixture).unwrap()).unwrap()
    }

    /// Langford pairs: numbers `1..=n` placed twice in `2n` slots, `k` slots apart.
    fn langford(n: usize) -> Problem {
        let mut text: String = (1..=n).map(|k| format!("{k} ")).collect();
        text += &(0..2 * n).map(|s| format!("s{s} ")).collect::<String>();
        text.push('\n');
        for k in 1..=n {
            for s in 0..2 * n - k - 1 {
                text += &format!("{k} s{s} s{}\n", s + k + 1);
            }
        }
        text.parse().unwrap()
    }

    /// Domino tilings of an `n` by `n` board.
    fn dominoes(n: usize) -> Problem {
        let mut text: String = (0..n * n).map(|c| format!("c{c} ")).collect();
        text.push('\n');
        for c in 0..n * n {
            if c % n < n - 1 {
                text += &format!("c{c} c{}\n", c + 1);
            }
            if c < n * (n - 1) {
                text += &format!("c{c} c{}\n", c + n);
            }
        }
        text.parse().unwrap()
    }

    /// The 3x20 pentominoes and Langford pairs for n = 10 (nodes dear: bit sets), and the empty
    /// sudoku grid counted to 30,000 (cheap nodes: the links), each with more nodes than the
    /// first attempt; with the limit of the count.
    fn problems() -> Vec<(Problem, u64)> {
        let mut sudoku = String::new();
        for (r, c, d) in (0..9).flat_map(|a| (0..9).flat_map(move |b| (1..=9).map(move |d| (a, b, d)))) {
            if d == 1 {
                sudoku += &format!("p{r}{c} r{r}#{c} c{r}#{c} b{r}#{c} ");
            }
        }
        sudoku.push('\n');
        for (r, c, d) in (0..9).flat_map(|a| (0..9).flat_map(move |b| (0..9).map(move |d| (a, b, d)))) {
            sudoku += &format!("p{r}{c} r{r}#{d} c{c}#{d} b{}#{d}\n", r / 3 * 3 + c / 3);
        }
        vec![(pentominoes(), u64::MAX), (langford(10), u64::MAX), (sudoku.parse().unwrap(), 30_000)]
    }

    /// Where the counts run is chosen once per problem, as one thread's count chooses, and every
    /// thread's solver gets it: after a count's first attempt, and by a short count of its own
    /// for shards and resumable pieces (where there is no first attempt).
    #[test]
    fn every_thread_counts_where_the_whole_would() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let thread_counting = |parallel: &ParallelSolver<'_>| {
            parallel.with_run(|run| Ok(parallel.solver(run).counting_choice())).unwrap()
        };
        let mut chosen = Vec::new();
        for (problem, limit) in problems() {
            let mut one = Solver::new(&problem);
            let solutions = one.count_up_to(limit).unwrap();
            assert!(one.stats().nodes > SEQUENTIAL_NODES, "{}", one.stats().nodes);
            let whole = one.counting_choice();
            chosen.push(whole);
            // A count: its first attempt chooses.
            let mut parallel = ParallelSolver::new(&problem);
            parallel.set_pool(Some(&pool));
            assert_eq!(parallel.count_up_to(limit).unwrap(), solutions);
            assert_eq!((parallel.counting.get(), thread_counting(&parallel)), (Some(&whole), whole));
            // A shard: a short count chooses.
            let mut parallel = ParallelSolver::new(&problem);
            parallel.set_pool(Some(&pool));
            parallel.set_shard(Some(Shard::WHOLE));
            assert_eq!(parallel.count_up_to(limit).unwrap(), solutions);
            assert_eq!((parallel.counting.get(), thread_counting(&parallel)), (Some(&whole), whole));
            // A resumable count's pieces: the same.
            if limit == u64::MAX {
                let mut parallel = ParallelSolver::new(&problem);
                parallel.set_pool(Some(&pool));
                let cut = parallel.resumable_cut().unwrap();
                let counted = parallel.count_subtrees(&cut.subtrees, &|_| false, &|_, _| {}).unwrap();
                assert_eq!(counted, u128::from(solutions));
                assert_eq!((parallel.counting.get(), thread_counting(&parallel)), (Some(&whole), whole));
            }
        }
        assert_eq!(chosen, [Counting::BitSets, Counting::BitSets, Counting::Links]);
    }

    /// Whether a count's first attempt searched the problem whole (on this thread), with the
    /// count and the figures.
    fn searched_whole(problem: &Problem) -> Option<(u64, Stats)> {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let mut parallel = ParallelSolver::new(problem);
        parallel.set_pool(Some(&pool));
        let cut = parallel.with_run(|run| {
            parallel.cut(run, true, |solver, resume| match resume {
                true => solver.resume_count(u64::MAX),
                false => solver.count(),
            })
        });
        match cut.unwrap() {
            cut::Cut::Done(count, stats) => Some((count, stats)),
            cut::Cut::Pieces(..) => None,
        }
    }

    /// A tree that Knuth's estimate finds small after the first attempt is searched to its end
    /// there, with one search's figures (the 3x20 pentominoes: 32,977 nodes, twice the first
    /// attempt's); a large one is shared out (Langford pairs for n = 11: millions of nodes).
    #[test]
    fn a_small_tree_is_searched_on_one_thread() {
        let pentominoes = pentominoes();
        let mut one = Solver::new(&pentominoes);
        let count = one.count().unwrap();
        assert!(one.stats().nodes > SEQUENTIAL_NODES);
        assert_eq!(searched_whole(&pentominoes), Some((count, one.stats())));
        assert_eq!(searched_whole(&langford(11)), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// A memoized count in two bands, started at once and handing subproblems over from any
        /// level, on a pool of two threads or on this thread and one more, agrees with
        /// enumeration's, with its figures: at least the nodes one thread's memoized count takes,
        /// and the nodes it would have taken without the memo.
        #[test]
        fn counts_in_two_bands_agree_with_enumeration(
            problem in crate::testing::problem(),
            level in 1usize..6,
            pooled in proptest::prelude::any::<bool>(),
        ) {
            let want = {
                let mut plain = Solver::new(&problem);
                plain.set_memo(Memo::Never);
                plain.count_exact().unwrap()
            };
            let mut one = Solver::new(&problem);
            one.set_memo(Memo::Always);
            proptest::prop_assert_eq!(one.count_exact().unwrap(), want.clone());
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            let mut parallel = ParallelSolver::new(&problem);
            match pooled {
                true => parallel.set_pool(Some(&pool)),
                false => parallel.set_threads(Some(2)),
            }
            parallel.set_memo(Memo::Always);
            parallel.band_first_nodes = 0;
            parallel.band_level = Some(level);
            proptest::prop_assert_eq!(parallel.count_exact().unwrap(), want.clone());
            proptest::prop_assert_eq!(parallel.stats().solutions, want);
            let colored = problem.has_colors();
            let handed = *parallel.band_handed.lock().unwrap();
            proptest::prop_assert_eq!(handed.is_some(), !colored);
            if handed.is_some() {
                let (figures, memo) = (parallel.stats(), parallel.memo_stats().unwrap());
                // (A subproblem met above the band's level and below it is counted twice.)
                proptest::prop_assert!(figures.nodes >= one.stats().nodes, "{}", problem.to_dlx());
                proptest::prop_assert_eq!(memo.plain_nodes, one.memo_stats().unwrap().plain_nodes);
            }
        }
    }

    /// Dominoes on 10x10, counted in two bands by default on two threads (after the same probes
    /// as on one): subproblems handed over, the count, about the nodes of one thread's count
    /// (each subproblem of a tiling has one depth), and the nodes it would take without the memo;
    /// and with too few bytes for the upper thread's ZDD, the count all the same.
    #[test]
    fn dominoes_count_in_two_bands() {
        let problem = dominoes(10);
        let mut one = ParallelSolver::new(&problem);
        one.set_threads(Some(1));
        assert_eq!(one.count_exact().unwrap(), 258_584_046_368u128);
        assert_eq!(*one.band_handed.lock().unwrap(), None);
        let mut parallel = ParallelSolver::new(&problem);
        parallel.set_threads(Some(2));
        assert_eq!(parallel.count_exact().unwrap(), 258_584_046_368u128);
        let handed = parallel.band_handed.lock().unwrap().unwrap_or(0);
        assert!(handed > 50, "{handed} subproblems handed over");
        // The probes' table goes to the lower thread: the upper one counts again the few
        // subproblems above the band's level they had counted.
        let (nodes, least) = (parallel.stats().nodes, one.stats().nodes);
        assert!(
            (least..least + crate::MEMO_PROBE_NODES).contains(&nodes),
            "{nodes} nodes, {least} on one thread"
        );
        assert_eq!(parallel.memo_stats().unwrap().plain_nodes, one.memo_stats().unwrap().plain_nodes);
        // Out of room for the upper thread's ZDD: counted by the threads sharing a table instead.
        let mut small = ParallelSolver::new(&problem);
        small.set_threads(Some(2));
        small.band_upper_memory = Some(4096);
        assert_eq!(small.count_exact().unwrap(), 258_584_046_368u128);
        assert_eq!(*small.band_handed.lock().unwrap(), None);
    }

    /// Under [`Memo::Auto`] on two threads, the upper band starts while the other thread makes
    /// the probe with the memo. Dominoes on 8x8: the memo chosen, counted in two bands (the
    /// choice not kept: the next count probes again), as on one thread. Langford pairs for
    /// n = 11: the memo not chosen, the upper band's work dropped, counted as without the memo,
    /// and the choice kept. Langford pairs for n = 4: counted within the first probe, no band.
    #[test]
    fn counts_in_two_bands_while_probing() {
        fn parallel(problem: &Problem) -> ParallelSolver<'_> {
            let mut parallel = ParallelSolver::new(problem);
            parallel.set_threads(Some(2));
            parallel
        }
        let chosen = |parallel: &ParallelSolver<'_>| {
            parallel.memo_table.lock().unwrap().as_ref().map(|table| table.is_some())
        };
        let tilings = dominoes(8);
        let counting = parallel(&tilings);
        for _ in 0..2 {
            assert_eq!(counting.count_exact().unwrap(), 12_988_816u128);
            assert!(counting.band_handed.lock().unwrap().is_some_and(|n| n > 10));
            assert_eq!(chosen(&counting), None);
            assert!(counting.memo_stats().is_some_and(|memo| memo.hits > 0));
        }
        for (n, want) in [(11, 35_584u128), (4, 2)] {
            let pairs = langford(n);
            let mut plain = Solver::new(&pairs);
            plain.set_memo(Memo::Never);
            assert_eq!(plain.count_exact().unwrap(), want);
            let counting = parallel(&pairs);
            assert_eq!(counting.count_exact().unwrap(), want, "n = {n}");
            assert_eq!(counting.stats().solutions, want);
            assert_eq!(*counting.band_handed.lock().unwrap(), None);
            assert_eq!(counting.memo_stats(), None);
            assert_eq!(chosen(&counting), Some(false));
        }
    }
}
