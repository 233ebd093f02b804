//! Listing every solution on every thread, in the order of one sequential search
//! ([`ParallelSolver::for_each`]): the subtrees dealt out in turn, their solutions handed over
//! in batches, a few at most per thread.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::count::Count;
use crate::index::OptionId;
use crate::solver::{Finished, Interrupted, Stats, StopReason, Subtree};

use super::{Cut, ParallelSolver, Run};

impl<'p> ParallelSolver<'p> {
    /// Shows every solution to `visit`, in the order of one sequential search, until it breaks.
    ///
    /// The subtrees are dealt out in turn to the threads (the `k`-th of `T` threads takes
    /// subtrees `k`, `k + T`, ...), each of which hands its solutions over in batches through a
    /// channel of a few batches: a thread ahead of the output waits once it holds that many, so
    /// memory stays bounded whatever the number of solutions. The thread whose subtree is being
    /// shown hands its solutions over one, two, four ... at a time, and whatever it holds after
    /// a pause, so that the first comes at once. When `visit` breaks (a limit reached), every
    /// thread stops within about a thousand nodes.
    ///
    /// Returns whether the search ended or `visit` stopped it; its figures, those of one
    /// thread's search, are then [`stats`](Self::stats)'.
    pub fn for_each(
        &self,
        visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Result<Finished, Interrupted> {
        self.keep(self.for_each_with_stats(visit))
    }

    /// [`for_each`](Self::for_each), with the run's figures.
    fn for_each_with_stats(
        &self,
        mut visit: impl FnMut(&[OptionId]) -> ControlFlow<()>,
    ) -> Result<(Finished, Stats), Interrupted> {
        self.with_run(|run| {
            let mut first = Vec::new();
            let (subtrees, mut stats, _watch) = match self.shard {
                Some(shard) => self.shard_cut(run, shard)?,
                None => {
                    let cut = self.cut(run, false, |solver, _| {
                        solver.for_each(|s| {
                            first.push(s.to_vec());
                            ControlFlow::Continue(())
                        })
                    })?;
                    match cut {
                        // Done within the first attempt: show what it found.
                        Cut::Done(_, stats) => {
                            let shown =
                                show(&first, &mut visit, Stats { solutions: Count::ZERO, ..stats.clone() });
                            self.report_whole(&shown.1.solutions, &stats);
                            return Ok(shown);
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
                                    stats.solutions += 1u64;
                                    if visit(solution).is_break() {
                                        // Stops the threads; the receivers dropped on return free
                                        // any that wait to hand a batch over.
                                        run.stop.cancel();
                                        return Ok(Finished::Stopped);
                                    }
                                }
                            }
                            Ok(Listed::Done(sub)) => {
                                stats.add(&Stats { solutions: Count::ZERO, ..sub });
                                break;
                            }
                            // The thread stopped: a budget, Ctrl-C, or (never) a panic.
                            Err(_) => {
                                let reason = run.reason().unwrap_or(StopReason::Cancelled);
                                return Err(Interrupted { reason, solutions: stats.solutions.clone() });
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
            let mut solutions = 0u64;
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
                Ok(_) => self.report(subtree, &Count::from(solutions), &stats),
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
        stats.solutions += 1u64;
        if visit(solution).is_break() {
            return (Finished::Stopped, stats);
        }
    }
    (Finished::Exhausted, stats)
}
