//! Every core on one search: the tree is cut into many more subtrees than threads
//! ([`Solver::split`]), and rayon hands them to its threads, each with a [`Solver`] of its own.
//!
//! # How the work is shared
//!
//! A first run counts sequentially within a small budget: a problem that small (a sudoku, Knuth's
//! example) is done before any thread starts, and costs what one thread costs. Otherwise the top
//! of the tree is cut one level deeper at a time until there are at least [`PIECES_PER_THREAD`]
//! subtrees per thread (or the tree ends above the cut), each level's subtrees cut further by all
//! threads at once ([`Solver::split_subtree`]); then rayon's work stealing hands them out: a
//! thread that finishes a small subtree takes the next. Subtrees of one tree differ widely
//! in size, so the cut aims at many per thread: the largest then still takes a small share of
//! the whole (the sizes are in `benches/RESULTS.md`).
//!
//! The figures add up exactly to those of one sequential run (nodes, guesses, updates, solutions,
//! cleansings; with [`TieBreak::Earliest`], whose choices depend on the links alone) but for the
//! budgeted first run, whose work is not counted when it does not finish.
//!
//! # Shards
//!
//! [`ParallelSolver::set_shard`] narrows the runs to shard `K` of `N` disjoint parts of the tree,
//! for `N` runs on as many machines. The tree is cut for the shards alone, not for the threads:
//! at least [`SHARD_PIECES`] subtrees per shard (fewer each past a cut of 65,536 subtrees, so
//! that the walk stays short), the `k`-th subtree going to shard `k mod N`; so the parts are the
//! same on every machine and with any number of threads. Each shard's subtrees are then cut
//! further for its threads. A cut that stops growing (three rounds that find no more subtrees
//! than they cut) stops there. The walk above the first cut is counted in shard 0's figures, so
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
//! * It runs on a pool of its own ([`ParallelSolver::set_threads`]), on the pool given to
//!   [`ParallelSolver::set_pool`], or else on the current rayon pool (the global one, unless the
//!   call is inside [`rayon::ThreadPool::install`]). [`ParallelSolver::for_each`] starts as many
//!   threads of its own as that pool has, and its visitor always runs on the calling thread.
//! * Seeded branching is a property of one sequential search: there is none here.
//! * A budget is shared: each subtree runs with what is left of it when it starts, and the first
//!   to run out stops the others. Cancelling stops every thread within about a thousand nodes.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::index::OptionId;
use crate::problem::Problem;
use crate::solver::{
    Budget, CancelFlag, Finished, Interrupted, Solver, Stats, StopReason, Subtree, TieBreak,
};

/// Subtrees the cut aims at per thread (see the module docs).
pub const PIECES_PER_THREAD: usize = 64;

/// Pieces a resumable count is cut into, at least (see [`ParallelSolver::resumable_cut`]).
pub const RESUMABLE_PIECES: usize = 4096;

/// Subtrees per shard of the cut for shards (see [`ParallelSolver::set_shard`]).
pub const SHARD_PIECES: usize = 64;

/// The most subtrees the cut for shards aims at, unless there are more shards: past
/// `SHARD_CUT / SHARD_PIECES` shards, each gets fewer than [`SHARD_PIECES`] subtrees.
const SHARD_CUT: usize = 1 << 16;

/// Rounds of cutting in a row that may find no more subtrees before the cut stops there.
const STALLED_ROUNDS: usize = 3;

/// Subtrees cut further at a time, in order, by all threads (see `expand_from`).
const EXPAND_CHUNK: usize = 256;

/// The largest number of shards.
pub const MAX_SHARDS: u32 = 1 << 20;

/// One of `count` disjoint parts of a search, numbered from 0: see [`ParallelSolver::set_shard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// A shard that does not exist: its index is not below the count, or the count is 0 or above
/// [`MAX_SHARDS`], or the text is not `K/N`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid shard `{0}`: shards are K/N with N from 1 to {MAX_SHARDS} and K from 0 to N-1")]
pub struct InvalidShard(pub String);

impl Shard {
    /// Shard `index` of `count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, InvalidShard> {
        if count == 0 || count > MAX_SHARDS || index >= count {
            return Err(InvalidShard(format!("{index}/{count}")));
        }
        Ok(Shard { index, count })
    }

    /// The shard's number, from 0.
    pub fn index(self) -> u32 {
        self.index
    }

    /// The number of shards.
    pub fn count(self) -> u32 {
        self.count
    }
}

/// `K/N`, as [`Shard`]'s `Display` writes it.
impl std::str::FromStr for Shard {
    type Err = InvalidShard;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let invalid = || InvalidShard(s.to_owned());
        let (k, n) = s.split_once('/').ok_or_else(invalid)?;
        Shard::new(k.trim().parse().map_err(|_| invalid())?, n.trim().parse().map_err(|_| invalid())?)
            .map_err(|_| invalid())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// How far a parallel run has come, shared with whoever shows it (another thread, say): see
/// [`ParallelSolver::set_progress`]. Updated as each subtree is done.
#[derive(Debug, Default)]
pub struct Progress {
    /// The fraction of the tree done, as the bits of an `f64`.
    done: AtomicU64,
    solutions: AtomicU64,
    nodes: AtomicU64,
}

impl Progress {
    /// A progress at 0, to share.
    pub fn new() -> Arc<Progress> {
        Arc::new(Progress::default())
    }

    /// The estimated fraction of the search done, from 0 to 1: the sum of Knuth's measures of the
    /// subtrees done (see [`Subtree::weight`]). It moves in steps, one per subtree.
    pub fn fraction(&self) -> f64 {
        f64::from_bits(self.done.load(Ordering::Relaxed)).clamp(0.0, 1.0)
    }

    /// Solutions found so far.
    pub fn solutions(&self) -> u64 {
        self.solutions.load(Ordering::Relaxed)
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Counts a subtree as done: its weight, its solutions and its nodes. The runs call it; a
    /// caller may too, for subtrees counted elsewhere (by an earlier run that a checkpoint
    /// recorded, say).
    pub fn add_done(&self, weight: f64, solutions: u64, nodes: u64) {
        let mut old = self.done.load(Ordering::Relaxed);
        loop {
            let new = (f64::from_bits(old) + weight).to_bits();
            match self.done.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => break,
                Err(now) => old = now,
            }
        }
        self.solutions.fetch_add(solutions, Ordering::Relaxed);
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
    }
}

/// How often the caller's cancel flag is looked at while the threads search (see `Run::watch`).
const WATCH_EVERY: std::time::Duration = std::time::Duration::from_millis(5);

/// Nodes the first, sequential attempt may take before the search is shared out.
const SEQUENTIAL_NODES: u64 = 4_096;

/// The deepest cut tried: past it the subtrees are used as they are.
const DEEPEST: usize = 64;

/// Searches one [`Problem`] on every thread of the current rayon pool. Its settings mirror a
/// [`Solver`]'s: budget, cancel flag, tie-break.
///
/// ```
/// use dlx_engine::{ParallelSolver, Problem};
/// let problem: Problem = "A B C\nA\nB\nC\nA B\nB C\n".parse().unwrap();
/// let (count, stats) = ParallelSolver::new(&problem).count().unwrap();
/// assert_eq!((count, stats.solutions), (3, 3));
/// ```
#[derive(Debug)]
pub struct ParallelSolver<'p> {
    problem: &'p Problem,
    budget: Budget,
    cancel: Option<CancelFlag>,
    tie_break: TieBreak,
    pool: Option<&'p rayon::ThreadPool>,
    threads: Option<usize>,
    shard: Option<Shard>,
    progress: Option<Arc<Progress>>,
    /// The pool made for `threads`, when a run first needs it.
    own_pool: std::sync::OnceLock<Option<rayon::ThreadPool>>,
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
            pool: None,
            threads: None,
            shard: None,
            progress: None,
            own_pool: std::sync::OnceLock::new(),
        }
    }

    /// Makes the following runs report their progress into `progress` as they go (each run adds
    /// to it: give a fresh one to each run).
    pub fn set_progress(&mut self, progress: Option<Arc<Progress>>) {
        self.progress = progress;
    }

    /// Reports a subtree done.
    fn report(&self, subtree: &Subtree, solutions: u64, stats: &Stats) {
        if let Some(progress) = &self.progress {
            progress.add_done(subtree.weight(), solutions, stats.nodes);
        }
    }

    /// Makes the following runs search one shard of the tree only: the solutions of all `N`
    /// shards, each counted or visited once, are those of the whole search, and the shards are
    /// the same on every machine, whatever the threads (see the module docs). `None`: the whole.
    pub fn set_shard(&mut self, shard: Option<Shard>) {
        self.shard = shard;
    }

    /// Runs the threads' work on `pool` (`None`: on the current rayon pool).
    pub fn set_pool(&mut self, pool: Option<&'p rayon::ThreadPool>) {
        self.pool = pool;
    }

    /// Runs the threads' work on a pool of its own with this many threads, started only when a
    /// search is too large for the first, sequential attempt (`None`: on the current rayon pool,
    /// or the one given to [`set_pool`](Self::set_pool), which takes precedence). If the threads
    /// cannot be started, the work runs on the current pool.
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

    /// A solver for one thread, with these settings but the budget and the flag of `run`.
    fn solver(&self, run: &Run<'_>) -> Solver<'p> {
        let mut solver = Solver::new(self.problem);
        solver.set_tie_break(self.tie_break);
        solver.set_cancel_flag(Some(run.stop.clone()));
        solver
    }

    /// The number of solutions, and the figures of the whole search.
    pub fn count(&self) -> Result<(u64, Stats), Interrupted> {
        self.count_up_to(u64::MAX)
    }

    /// The number of solutions, counting no further than `limit` (`Ok((limit, _))` means "at
    /// least `limit`": the threads stop once they have found that many between them).
    pub fn count_up_to(&self, limit: u64) -> Result<(u64, Stats), Interrupted> {
        if limit == 0 {
            return Ok((0, Stats::default()));
        }
        self.with_run(|run| {
            let (subtrees, mut stats, _watch) = match self.shard {
                Some(shard) => self.shard_cut(run, shard)?,
                None => match self.cut(run, |solver| solver.count_up_to(limit))? {
                    Cut::Done(count, stats) => return Ok((count, stats)),
                    Cut::Pieces(subtrees, stats, watch) => (subtrees, stats, watch),
                },
            };
            let found = AtomicU64::new(0);
            let sums = self.count_pieces(run, &subtrees, &|_| false, &|_, _| {}, &found, limit);
            stats.add(&sums);
            let found = found.into_inner();
            if found >= limit {
                return Ok((limit, stats));
            }
            match run.reason() {
                Some(reason) => Err(Interrupted { reason, solutions: found }),
                None => Ok((found, stats)),
            }
        })
    }

    /// Shows every solution to `visit`, in the order of one sequential search, until it breaks.
    ///
    /// The subtrees are dealt out in turn to the threads (the `k`-th of `T` threads takes
    /// subtrees `k`, `k + T`, ...), each of which hands its solutions over in batches through a
    /// channel of a few batches: a thread ahead of the output waits once it holds that many, so
    /// memory stays bounded whatever the number of solutions. The thread whose subtree is being
    /// shown hands its solutions over one, two, four ... at a time, and whatever it holds after
    /// a pause, so that the first comes at once. When `visit` breaks (a limit reached), every
    /// thread stops within about a thousand nodes.
    pub fn for_each(
        &self,
        mut visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Result<(Finished, Stats), Interrupted> {
        self.with_run(|run| {
            let mut first = Vec::new();
            let (subtrees, mut stats, _watch) = match self.shard {
                Some(shard) => self.shard_cut(run, shard)?,
                None => {
                    let cut = self.cut(run, |solver| {
                        solver.for_each(|s| {
                            first.push(s.to_vec());
                            ControlFlow::Continue(())
                        })
                    })?;
                    match cut {
                        // Done within the first attempt: show what it found.
                        Cut::Done(_, stats) => {
                            return Ok(show(&first, &mut visit, Stats { solutions: 0, ..stats }));
                        }
                        Cut::Pieces(subtrees, stats, watch) => (subtrees, stats, watch),
                    }
                }
            };
            let threads = self.threads().min(subtrees.len()).max(1);
            // The subtree being shown: its thread passes each solution on at once.
            let head = AtomicUsize::new(0);
            let finished = std::thread::scope(|scope| {
                let mut receivers = Vec::with_capacity(threads);
                for k in 0..threads {
                    let (sender, receiver) = std::sync::mpsc::sync_channel(HELD_BATCHES);
                    receivers.push(receiver);
                    let (subtrees, head) = (&subtrees, &head);
                    scope.spawn(move || self.list_subtrees(run, subtrees, k, threads, head, &sender));
                }
                for k in 0..subtrees.len() {
                    head.store(k, Ordering::Relaxed);
                    loop {
                        match receivers[k % threads].recv() {
                            Ok(Listed::Batch(batch)) => {
                                for solution in batch.solutions() {
                                    stats.solutions += 1;
                                    if visit(solution).is_break() {
                                        // Stops the threads; the receivers dropped on return free
                                        // any that wait to hand a batch over.
                                        run.stop.cancel();
                                        return Ok(Finished::Stopped);
                                    }
                                }
                            }
                            Ok(Listed::Done(sub)) => {
                                stats.add(&Stats { solutions: 0, ..sub });
                                break;
                            }
                            // The thread stopped: a budget, Ctrl-C, or (never) a panic.
                            Err(_) => {
                                let reason = run.reason().unwrap_or(StopReason::Cancelled);
                                return Err(Interrupted { reason, solutions: stats.solutions });
                            }
                        }
                    }
                }
                Ok(Finished::Exhausted)
            })?;
            Ok((finished, stats))
        })
    }

    /// One thread of [`for_each`](Self::for_each): visits subtrees `k`, `k + threads`, ... in
    /// turn and hands their solutions over through `sender`, each subtree's followed by its
    /// figures. Returns when every subtree is done, when the run stops, or when nobody listens.
    fn list_subtrees(
        &self,
        run: &Run<'_>,
        subtrees: &[Subtree],
        k: usize,
        threads: usize,
        head: &AtomicUsize,
        sender: &std::sync::mpsc::SyncSender<Listed>,
    ) {
        let mut solver = self.solver(run);
        for (index, subtree) in subtrees.iter().enumerate().skip(k).step_by(threads) {
            if run.stop.is_cancelled() {
                return;
            }
            solver.set_budget(run.remaining());
            let mut batch = Batch::default();
            let mut solutions = 0;
            let mut listening = true;
            // Shown at once, the subtree's solutions go over one, two, four ... at a time, and
            // whatever there is after a pause: the first soon, the many without a wake-up each.
            let (mut eager, mut sent) = (1, std::time::Instant::now());
            let result = solver.visit_subtree(subtree, &mut |s: &crate::Solution<'_>| {
                batch.push(s);
                solutions += 1;
                let shown = || {
                    head.load(Ordering::Relaxed) == index
                        && (batch.len() >= eager || sent.elapsed() >= EAGER_PAUSE)
                };
                if batch.is_full() || shown() {
                    listening = sender.send(Listed::Batch(std::mem::take(&mut batch))).is_ok();
                    eager = (eager * 2).min(BATCH_SOLUTIONS);
                    sent = std::time::Instant::now();
                }
                if listening { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
            });
            if !listening {
                return;
            }
            let stats = solver.stats();
            run.spend(&stats);
            match result {
                Ok(_) => self.report(subtree, solutions, &stats),
                Err(e) => {
                    run.halt(e.reason);
                    return;
                }
            }
            if !batch.is_empty() && sender.send(Listed::Batch(batch)).is_err() {
                return;
            }
            if sender.send(Listed::Done(stats)).is_err() {
                return;
            }
        }
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

    /// Tries the whole search sequentially within a small budget (`attempt`): if it finishes,
    /// that is the answer. Otherwise cuts the tree into enough subtrees for the pool's threads,
    /// with the figures of the walk above the cut.
    fn cut<T>(
        &self,
        run: &Run<'_>,
        attempt: impl FnOnce(&mut Solver<'p>) -> Result<T, Interrupted>,
    ) -> Result<Cut<T>, Interrupted> {
        let mut solver = self.solver(run);
        // The caller's own flag, until the threads start (see `Run::watch`).
        solver.set_cancel_flag(self.cancel.clone());
        let budget = run.remaining();
        let small = budget.nodes.map_or(SEQUENTIAL_NODES, |n| n.min(SEQUENTIAL_NODES));
        solver.set_budget(Budget { nodes: Some(small), ..budget });
        match attempt(&mut solver) {
            Ok(answer) => return Ok(Cut::Done(answer, solver.stats())),
            // The caller's budget was no larger than the attempt's, or ran out of updates.
            Err(e) if e.reason == StopReason::Budget && solver.stats().nodes < small => {
                return Err(Interrupted { solutions: 0, ..e });
            }
            Err(e)
                if budget.nodes.is_some_and(|n| n <= SEQUENTIAL_NODES)
                    || e.reason == StopReason::Cancelled =>
            {
                return Err(Interrupted { reason: run.reason().unwrap_or(e.reason), solutions: 0 });
            }
            Err(_) => {}
        }
        // Not in the figures, which are those of one search; against the budget all the same.
        run.spend(&solver.stats());
        solver.set_budget(Budget::default());
        // From here on the threads may start: pass the caller's flag on to theirs.
        let watch = run.watch();
        let (subtrees, stats) = self.expand(run, &mut solver, self.threads() * PIECES_PER_THREAD)?;
        run.spend(&stats);
        Ok(Cut::Pieces(subtrees, stats, watch))
    }

    /// The shard's subtrees: the whole tree cut into at least [`SHARD_PIECES`] subtrees per
    /// shard, the same on every machine whatever the threads, dealt out in turn (the `k`-th
    /// subtree to shard `k mod N`); then cut further for the pool's threads. The figures of the
    /// walk above the first cut go to shard 0, so that the shards' figures add up to one run's.
    fn shard_cut(
        &self,
        run: &Run<'_>,
        shard: Shard,
    ) -> Result<(Vec<Subtree>, Stats, Option<Watch>), Interrupted> {
        let watch = run.watch();
        let (mine, stats) = self.shard_share(run, shard, self.threads() * PIECES_PER_THREAD)?;
        run.spend(&stats);
        Ok((mine, stats, watch))
    }

    /// The subtrees of `shard` in the cut for shards (see [`shard_cut`](Self::shard_cut)), cut
    /// further into at least `further`, with the figures of the walks (that above the shards'
    /// cut in shard 0 only).
    fn shard_share(
        &self,
        run: &Run<'_>,
        shard: Shard,
        further: usize,
    ) -> Result<(Vec<Subtree>, Stats), Interrupted> {
        let mut solver = self.solver(run);
        // Many shards get fewer subtrees each: the walk to cut the tree grows with the subtrees.
        let count = shard.count as usize;
        let want = count.saturating_mul(SHARD_PIECES).min(SHARD_CUT.max(count));
        let (all, above) = self.expand(run, &mut solver, want)?;
        let mine: Vec<Subtree> = all.into_iter().skip(shard.index as usize).step_by(count).collect();
        let mut stats = if shard.index == 0 { above } else { Stats::default() };
        let (mine, below) = self.expand_from(run, mine, further)?;
        stats.add(&below);
        Ok((mine, stats))
    }

    /// The cut of a resumable count: the subtrees of the shard set (or of the whole tree, as shard
    /// 0 of 1) cut further into at least [`RESUMABLE_PIECES`] pieces, the same on every machine
    /// whatever the threads, with the figures of the walks (that above the shards' cut in shard
    /// 0 only). A caller counts the pieces with [`count_subtrees`](Self::count_subtrees), records
    /// each piece done (a checkpoint), and after an interruption cuts again and skips those.
    pub fn resumable_cut(&self) -> Result<crate::Split, Interrupted> {
        self.with_run(|run| {
            // The walks run on all threads: they watch the caller's flag through the run's.
            let _watch = run.watch();
            let shard = self.shard.unwrap_or(Shard { index: 0, count: 1 });
            let (pieces, stats) = self.shard_share(run, shard, RESUMABLE_PIECES)?;
            Ok(crate::Split::new(pieces, stats))
        })
    }

    /// Counts the solutions of `subtrees` (cut from this solver's problem) on all threads, but
    /// those whose position `skip` names; calls `counted` with the position and the figures of
    /// each as it is done (from any thread). Returns the sum over those counted now.
    pub fn count_subtrees(
        &self,
        subtrees: &[Subtree],
        skip: &(dyn Fn(usize) -> bool + Sync),
        counted: &(dyn Fn(usize, Stats) + Sync),
    ) -> Result<(u64, Stats), Interrupted> {
        self.with_run(|run| {
            let _watch = run.watch();
            let sums = self.count_pieces(run, subtrees, skip, counted, &AtomicU64::new(0), u64::MAX);
            match run.reason() {
                Some(reason) => Err(Interrupted { reason, solutions: sums.solutions }),
                None => Ok((sums.solutions, sums)),
            }
        })
    }

    /// Counts `subtrees` on all threads (but those `skip` names), each with what is left of the
    /// budget, reporting each done to `counted` and the progress; adds the solutions into
    /// `found` and stops every thread once it reaches `limit`. Returns the sum of the figures.
    fn count_pieces(
        &self,
        run: &Run<'_>,
        subtrees: &[Subtree],
        skip: &(dyn Fn(usize) -> bool + Sync),
        counted: &(dyn Fn(usize, Stats) + Sync),
        found: &AtomicU64,
        limit: u64,
    ) -> Stats {
        self.in_pool(|| {
            subtrees
                .par_iter()
                .enumerate()
                .filter(|&(k, _)| !skip(k))
                .map_init(
                    || self.solver(run),
                    |solver, (k, subtree)| {
                        if run.stop.is_cancelled() || run.caller.is_some_and(CancelFlag::is_cancelled) {
                            run.stop.cancel();
                            return Stats::default();
                        }
                        solver.set_budget(run.remaining());
                        let result = solver.count_subtree(subtree);
                        let stats = solver.stats();
                        run.spend(&stats);
                        match result {
                            Ok(n) => {
                                self.report(subtree, n, &stats);
                                counted(k, stats);
                                if found.fetch_add(n, Ordering::Relaxed).saturating_add(n) >= limit {
                                    run.stop.cancel();
                                }
                                stats
                            }
                            Err(e) => {
                                run.halt(e.reason);
                                Stats::default()
                            }
                        }
                    },
                )
                .reduce(Stats::default, |mut a, b| {
                    a.add(&b);
                    a
                })
        })
    }

    /// Cuts the whole tree into at least `want` subtrees (or as many as there are above depth
    /// [`DEEPEST`]): the first level on this thread, then one more level per round on all threads
    /// at once ([`Solver::split_subtree`]), so that the walk above the cut is shared too. The
    /// subtrees come out in the order of the search, the same whatever the threads.
    fn expand(
        &self,
        run: &Run<'_>,
        solver: &mut Solver<'p>,
        want: usize,
    ) -> Result<(Vec<Subtree>, Stats), Interrupted> {
        solver.set_budget(Budget::default());
        let split = solver.split(1).map_err(|e| Interrupted { solutions: 0, ..e })?;
        let (subtrees, mut stats) = (split.subtrees, split.stats);
        let (subtrees, deeper) = self.expand_from(run, subtrees, want)?;
        stats.add(&deeper);
        Ok((subtrees, stats))
    }

    /// Cuts `subtrees` one level further per round until there are at least `want` (or only
    /// leaves, or [`DEEPEST`] rounds); returns them in order, with the figures of the walks. A
    /// round cuts [`EXPAND_CHUNK`] subtrees at a time, on all threads, in order, and stops once
    /// the subtrees cut and those left would be enough: the last round cuts only some, so that
    /// the cut does not overshoot `want` by a whole level. (The chunks do not depend on the
    /// threads, so neither do the subtrees.)
    fn expand_from(
        &self,
        run: &Run<'_>,
        mut subtrees: Vec<Subtree>,
        want: usize,
    ) -> Result<(Vec<Subtree>, Stats), Interrupted> {
        let mut stats = Stats::default();
        let (mut rounds, mut stalled) = (0, 0);
        while subtrees.len() < want && rounds < DEEPEST && subtrees.iter().any(|t| !t.is_leaf()) {
            let mut next = Vec::with_capacity(want.min(subtrees.len().saturating_mul(4)));
            let mut k = 0;
            while k < subtrees.len() {
                if next.len() + (subtrees.len() - k) >= want {
                    next.extend_from_slice(&subtrees[k..]);
                    break;
                }
                let chunk = &subtrees[k..subtrees.len().min(k + EXPAND_CHUNK)];
                let deeper: Vec<Result<(Vec<Subtree>, Stats), Interrupted>> = self.in_pool(|| {
                    chunk
                        .par_iter()
                        .map_init(
                            || self.solver(run),
                            |solver, subtree| {
                                if subtree.is_leaf() {
                                    // A solution above the cut: it stays as it is.
                                    return Ok((vec![subtree.clone()], Stats::default()));
                                }
                                let split = solver.split_subtree(subtree, 1)?;
                                Ok((split.subtrees, split.stats))
                            },
                        )
                        .collect()
                });
                for result in deeper {
                    let (below, walked) = result.map_err(|e| Interrupted {
                        reason: run.reason().unwrap_or(e.reason),
                        solutions: 0,
                    })?;
                    next.extend(below);
                    stats.add(&walked);
                }
                k += chunk.len();
            }
            // Rounds that find no more subtrees than they cut (dead ends weighing as much as
            // branches) would go on in vain; a few are allowed, for forced moves at the top.
            stalled = if next.len() > subtrees.len() { 0 } else { stalled + 1 };
            subtrees = next;
            rounds += 1;
            if stalled >= STALLED_ROUNDS {
                break;
            }
        }
        Ok((subtrees, stats))
    }
}

/// What [`ParallelSolver::cut`] made of the search.
enum Cut<T> {
    /// The first attempt finished: its answer and figures.
    Done(T, Stats),
    /// The subtrees to search, the figures of the walk above them, and the watch of the caller's
    /// cancel flag, to keep while they are searched.
    Pieces(Vec<Subtree>, Stats, Option<Watch>),
}

/// Batches a thread of [`ParallelSolver::for_each`] may hold, handed over but not yet shown.
const HELD_BATCHES: usize = 4;

/// A batch is handed over once it holds this many solutions...
const BATCH_SOLUTIONS: usize = 256;

/// ... or this many options in all (a larger solution makes a batch of its own).
const BATCH_OPTIONS: usize = 1 << 16;

/// A thread whose subtree is being shown hands its solutions over at least this often.
const EAGER_PAUSE: std::time::Duration = std::time::Duration::from_millis(20);

/// What a thread of [`ParallelSolver::for_each`] hands over.
enum Listed {
    /// Solutions of the subtree at hand, in order.
    Batch(Batch),
    /// The subtree at hand is done: its figures.
    Done(Stats),
}

/// Solutions side by side: their options, and where each ends.
#[derive(Default)]
struct Batch {
    options: Vec<OptionId>,
    ends: Vec<usize>,
}

impl Batch {
    fn push(&mut self, solution: &crate::Solution<'_>) {
        self.options.extend(solution.options());
        self.ends.push(self.options.len());
    }

    fn is_full(&self) -> bool {
        self.ends.len() >= BATCH_SOLUTIONS || self.options.len() >= BATCH_OPTIONS
    }

    fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn solutions(&self) -> impl Iterator<Item = &[OptionId]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| &self.options[start..end])
    }
}

/// Shows the solutions found by the first attempt, counting them into `stats`.
fn show(
    solutions: &[Vec<OptionId>],
    visit: &mut impl FnMut(&[OptionId]) -> ControlFlow<()>,
    mut stats: Stats,
) -> (Finished, Stats) {
    for solution in solutions {
        stats.solutions += 1;
        if visit(solution).is_break() {
            return (Finished::Stopped, stats);
        }
    }
    (Finished::Exhausted, stats)
}
