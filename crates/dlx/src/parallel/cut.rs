//! Cutting a search into subtrees for the threads, the shards and resumable counts: the first,
//! sequential attempt, then one level more per round on all threads, through forced moves.

use rayon::prelude::*;

use crate::count::Count;
use crate::solver::{Budget, Interrupted, Solver, Split, Stats, StopReason, Subtree};

use super::{
    DEEPEST, EXPAND_CHUNK, PIECES_PER_THREAD, ParallelSolver, RESUMABLE_PIECES, Run, SEQUENTIAL_NODES,
    SHARD_CUT, SHARD_PIECES, SMALL_TREE, SMALL_TREE_BOUND, STALL_SUBTREES, STALLED_ROUNDS, Shard, Watch,
};

impl<'p> ParallelSolver<'p> {
    /// Tries the whole search sequentially within a small budget (`attempt`): if it finishes,
    /// that is the answer. A count (`can_resume`: `attempt` called with `true` goes on where it
    /// stopped) whose tree Knuth's estimate finds small goes on to its end. Otherwise cuts the
    /// tree into enough subtrees for the pool's threads, with the figures of the walk above the
    /// cut.
    pub(super) fn cut<T>(
        &self,
        run: &Run<'_>,
        can_resume: bool,
        mut attempt: impl FnMut(&mut Solver<'p>, bool) -> Result<T, Interrupted>,
    ) -> Result<Cut<T>, Interrupted> {
        let mut solver = self.solver(run);
        // The caller's own flag, until the threads start (see `Run::watch`).
        solver.set_cancel_flag(self.cancel.clone());
        let budget = run.remaining();
        let mut small = budget.nodes.map_or(SEQUENTIAL_NODES, |n| n.min(SEQUENTIAL_NODES));
        solver.set_budget(Budget { nodes: Some(small), ..budget });
        let mut resume = false;
        loop {
            match attempt(&mut solver, resume) {
                Ok(answer) => return Ok(Cut::Done(answer, solver.stats())),
                // The caller's budget was no larger than the attempt's, or ran out of updates.
                Err(e) if e.reason == StopReason::Budget && solver.stats().nodes < small => {
                    return Err(Interrupted { solutions: Count::ZERO, ..e });
                }
                Err(e) if budget.nodes.is_some_and(|n| n <= small) || e.reason == StopReason::Cancelled => {
                    return Err(Interrupted {
                        reason: run.reason().unwrap_or(e.reason),
                        solutions: Count::ZERO,
                    });
                }
                Err(_) => {}
            }
            if resume {
                break;
            }
            // Its first nodes choose where every thread counts, as one thread's count would.
            self.counting.get_or_init(|| solver.choose_counting_from(true));
            // A tree that Knuth's estimate finds small is searched to its end here (within a
            // bound, in case the estimate is wrong): threads would cost more than they gain.
            let done = if can_resume { solver.fraction_done().unwrap_or(0.0) } else { 0.0 };
            if solver.stats().nodes as f64 >= done * SMALL_TREE as f64 {
                break;
            }
            small = budget.nodes.map_or(SMALL_TREE_BOUND, |n| n.min(SMALL_TREE_BOUND));
            solver.set_budget(Budget { nodes: Some(small), ..budget });
            resume = true;
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
    pub(super) fn shard_cut(
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
        let count = shard.count() as usize;
        let want = count.saturating_mul(SHARD_PIECES).min(SHARD_CUT.max(count));
        let (all, above) = self.expand(run, &mut solver, want)?;
        *self.shard_cut.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
            Some(crate::solver::fingerprint(self.problem, &all));
        let mine: Vec<Subtree> = all.into_iter().skip(shard.index() as usize).step_by(count).collect();
        let mut stats = if shard.index() == 0 { above } else { Stats::default() };
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
            let shard = self.shard.unwrap_or(Shard::WHOLE);
            let (pieces, stats) = self.shard_share(run, shard, RESUMABLE_PIECES)?;
            Ok(crate::Split::new(pieces, stats))
        })
    }

    /// Cuts the whole tree into at least `want` subtrees (or as many as there are above depth
    /// [`DEEPEST`]): the first level on this thread, then one more level per round on all threads
    /// at once (`Solver::split_each`), so that the walk above the cut is shared too. The
    /// subtrees come out in the order of the search, the same whatever the threads.
    pub(super) fn expand(
        &self,
        run: &Run<'_>,
        solver: &mut Solver<'p>,
        want: usize,
    ) -> Result<(Vec<Subtree>, Stats), Interrupted> {
        solver.set_budget(Budget::default());
        let split = solver.split(1).map_err(|e| Interrupted { solutions: Count::ZERO, ..e })?;
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
        while subtrees.len() < want && rounds < DEEPEST && subtrees.iter().any(|t| !t.is_final()) {
            let mut next = Vec::with_capacity(want.min(subtrees.len().saturating_mul(4)));
            let mut k = 0;
            while k < subtrees.len() {
                if next.len() + (subtrees.len() - k) >= want {
                    next.extend_from_slice(&subtrees[k..]);
                    break;
                }
                let chunk = &subtrees[k..subtrees.len().min(k + EXPAND_CHUNK)];
                // Runs of neighbours, each cut by one solver from the path the last one left
                // (see `Solver::split_each`): enough of them for every thread to take some.
                let run_len = chunk.len().div_ceil(self.threads() * 4).max(1);
                let deeper: Vec<Result<Vec<Split>, Interrupted>> = self.in_pool(|| {
                    chunk
                        .par_chunks(run_len)
                        .map_init(|| self.solver(run), |solver, run| solver.split_each(run, FORCED_LEVELS))
                        .collect()
                });
                for result in deeper {
                    let splits = result.map_err(|e| Interrupted {
                        reason: run.reason().unwrap_or(e.reason),
                        solutions: Count::ZERO,
                    })?;
                    for split in splits {
                        next.extend(split.subtrees);
                        stats.add(&split.stats);
                    }
                }
                k += chunk.len();
            }
            // Rounds that find no more subtrees than they cut (dead ends weighing as much as
            // branches) may go on in vain, but cost little while the subtrees are few: they stop
            // the cut only past STALL_SUBTREES subtrees, after a few, and never while one subtree
            // holds most of the tree (forced moves are cut through inside a round).
            stalled = if next.len() > subtrees.len() { 0 } else { stalled + 1 };
            subtrees = next;
            rounds += 1;
            if stalled >= STALLED_ROUNDS && subtrees.len() >= STALL_SUBTREES && !one_holds_most(&subtrees) {
                break;
            }
        }
        Ok((subtrees, stats))
    }
}

/// Levels of forced moves (a single way to go on) that one cut of a subtree goes through before
/// it hands the subtree back (see `Solver::split_each`): so a tree whose search begins with a long
/// run of forced moves is still cut into many subtrees.
const FORCED_LEVELS: usize = 1024;

/// Whether one subtree holds more than half of the subtrees' weight (Knuth's measure): a cut
/// that stopped there would leave most of the work to one thread.
fn one_holds_most(subtrees: &[Subtree]) -> bool {
    let total: f64 = subtrees.iter().map(Subtree::weight).sum();
    subtrees.iter().any(|t| !t.is_final() && t.weight() > total / 2.0)
}

/// What [`ParallelSolver::cut`] made of the search.
pub(super) enum Cut<T> {
    /// The first attempt finished: its answer and figures.
    Done(T, Stats),
    /// The subtrees to search, the figures of the walk above them, and the watch of the caller's
    /// cancel flag, to keep while they are searched.
    Pieces(Vec<Subtree>, Stats, Option<Watch>),
}
