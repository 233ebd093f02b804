//! Algorithm X with an explicit stack, and the stack discipline the links rely on.
//!
//! # The stack discipline
//!
//! Levels `0..base` hold the forced options (see `restrict`); the search runs above them. At each
//! level `l` it chooses an item, covers it, and tries its options one at a time: `chosen[l]` is
//! the option node being tried, whose other items are covered (`cover_rest`). Every operation is
//! undone in exactly the reverse order: a level's option is uncovered (`uncover_rest`) before the
//! next is tried, and its item is uncovered only after the last. Right after each undo, before
//! anything else is covered, the record of emptied items is truncated to the length it had when
//! the undone operation started (`emptied_marks[l]`: before covering the item, and before
//! covering the option), so that it holds at most one entry per primary item (see `links`).
//!
//! A run that stops early (a solution, a break, a budget) leaves its levels covered and the
//! solver marks them pending; [`Solver::settle`] unwinds them, in the same reverse order, before
//! anything else touches the links, unless the links are copied afresh instead (see
//! `restrict`).

use rand::{Rng, SeedableRng, seq::SliceRandom};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::choose;
use crate::index::to_u32;

use super::{CancelFlag, Solver, Stats, StopReason};

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
        self.links.reset_updates();
        // Each run breaks ties by its own dead ends only, so that it branches the same way from
        // the same state whatever ran before it.
        self.recent.forget();
        self.level = self.base;
        self.run_emptied = self.links.emptied_len();
        if let Some(seed) = self.seed {
            self.rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            self.pool.clear();
        }
    }

    pub(super) fn step(&mut self, resume: bool) -> Step {
        let capped = self.cap != usize::MAX;
        let step = match (self.multi.is_some(), self.seed.is_some() && !capped, self.links.is_colored()) {
            (false, false, false) if capped => self.search::<false, false, true>(resume),
            (false, false, true) if capped => self.search::<false, true, true>(resume),
            (true, false, false) if capped => self.search_multi::<false, false, true>(resume),
            (true, false, true) if capped => self.search_multi::<false, true, true>(resume),
            (false, false, false) => self.search::<false, false, false>(resume),
            (false, true, false) => self.search::<true, false, false>(resume),
            (false, false, true) => self.search::<false, true, false>(resume),
            (false, true, true) => self.search::<true, true, false>(resume),
            (true, false, false) => self.search_multi::<false, false, false>(resume),
            (true, true, false) => self.search_multi::<true, false, false>(resume),
            (true, false, true) => self.search_multi::<false, true, false>(resume),
            (true, true, true) => self.search_multi::<true, true, false>(resume),
        };
        self.stats.updates = self.links.updates();
        self.stats.cleansings = self.links.cleansings();
        if let Step::Solution = step {
            self.stats.solutions = self.stats.solutions.saturating_add(1);
        }
        step
    }

    /// Puts the solver back at its base level from wherever a paused search stands (use
    /// [`settle`](Self::settle)).
    pub(super) fn unwind(&mut self) {
        if let Some(m) = &mut self.multi {
            let (base, level) = (self.base, self.level);
            super::multi::unwind(
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

    /// Knuth's Algorithm X from step X2 (`resume == false`) or from X8 after a solution
    /// (`resume == true`), until the next solution, the end, or an interruption.
    ///
    /// On a solution, levels `base..level` of `chosen` hold the chosen option nodes and stay
    /// covered; on an interruption likewise (the caller marks them pending); on exhaustion all is
    /// undone.
    ///
    /// `CAPPED` stops at level `self.cap` with [`Step::Frontier`] instead of entering it (see
    /// `split`); resuming then backtracks as after a solution.
    ///
    /// `COLORED` runs Knuth's Algorithm C (DLX2) instead: covering hides with cleansed nodes left
    /// in place, and a chosen option's other nodes are committed (covered, or purified to their
    /// color). A problem without colors compiles to Algorithm X alone.
    #[inline(never)]
    pub(super) fn search<const RANDOM: bool, const COLORED: bool, const CAPPED: bool>(
        &mut self,
        resume: bool,
    ) -> Step {
        let base = self.base;
        let mut l = self.level;
        let mut nodes = self.stats.nodes;
        let mut guesses = self.stats.guesses;
        let node_limit = self.budget.nodes.unwrap_or(u64::MAX);
        let update_limit = self.budget.updates.unwrap_or(u64::MAX);
        let cancel = self.cancel.as_ref();
        let cap = self.cap;
        // Solutions that may pass uncounted by the caller before one is returned (while
        // counting, up to the limit), and those that did.
        let silent = match self.count_limit {
            0 => 0,
            limit => limit.saturating_sub(self.stats.solutions).saturating_sub(1),
        };
        let mut counted = 0;
        let mut view = self.links.view();
        let links = &mut view;
        let chosen = &mut self.chosen[..];
        // The item of the current level, and the option node about to be tried.
        let mut item = 0;
        let mut x = 0;
        // On entry the search either starts a level (X2) or, after a solution, backtracks (X8).
        let mut backtracking = resume;
        let step = 'search: loop {
            if !backtracking {
                // X2: all primary items covered? While counting, solutions short of the limit
                // are counted here, and the search backtracks at once.
                if links.first_primary() == 0 {
                    if counted < silent {
                        counted += 1;
                        backtracking = true;
                    } else {
                        break Step::Solution;
                    }
                } else {
                    if CAPPED && l == cap {
                        break Step::Frontier;
                    }
                    if nodes >= node_limit || links.updates() >= update_limit {
                        break Step::Interrupted(StopReason::Budget);
                    }
                    if nodes & 1023 == 0 && cancel.is_some_and(CancelFlag::is_cancelled) {
                        break Step::Interrupted(StopReason::Cancelled);
                    }
                    // X3, X4: choose an item; unless it is a dead end, cover it and start with its
                    // first option.
                    let from = if l == base { 0 } else { self.emptied_marks[l - 1].0 };
                    item = if RANDOM && self.random_ties {
                        let rng = &mut self.rng;
                        choose::choose_with_ties(links, from, |n| rng.random_range(0..n))
                    } else {
                        choose::choose(links, &self.recent, from)
                    };
                    if links.len(item) == 0 {
                        // A dead end: no need to cover the item only to uncover it (X7) at once.
                        self.recent.note_dead_end(item);
                        backtracking = true;
                    } else {
                        let before = links.emptied_len();
                        if COLORED {
                            links.cover_colored(item);
                        } else {
                            links.cover(item);
                        }
                        self.emptied_marks[l] = (before, links.emptied_len());
                        if RANDOM {
                            let start = self.pool.len();
                            let mut p = links.down(item);
                            while p != item {
                                self.pool.push(p);
                                p = links.down(p);
                            }
                            self.pool[start..].shuffle(&mut self.rng);
                            self.pool_pos[l] = to_u32(start);
                            x = self.pool.get(start).copied().unwrap_or(item);
                        } else {
                            x = links.down(item);
                        }
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
                    if COLORED {
                        links.uncover_rest_colored(tried);
                    } else {
                        links.uncover_rest(tried);
                    }
                    links.truncate_emptied(self.emptied_marks[l].1);
                    item = links.item_of(tried);
                    if RANDOM {
                        let next = self.pool_pos[l] as usize + 1;
                        self.pool_pos[l] = to_u32(next);
                        x = self.pool.get(next).copied().unwrap_or(item);
                    } else {
                        x = links.down(tried);
                    }
                    if x != item {
                        break;
                    }
                    // X7: the item's options are used up.
                    if COLORED {
                        links.uncover_colored(item);
                    } else {
                        links.uncover(item);
                    }
                    links.truncate_emptied(self.emptied_marks[l].0);
                    if RANDOM {
                        // This level's options are the last `len(item)` entries of the pool.
                        let start = self.pool.len() - links.len(item) as usize;
                        self.pool.truncate(start);
                    }
                }
                backtracking = false;
            }
            // X5: try option x.
            chosen[l] = x;
            nodes += 1;
            if links.len(item) > 1 {
                guesses += 1;
            }
            if COLORED {
                links.cover_rest_colored(x);
            } else {
                links.cover_rest(x);
            }
            l += 1;
        };
        let counters = view.counters();
        self.links.store(counters);
        self.level = l;
        self.stats.nodes = nodes;
        self.stats.guesses = guesses;
        self.stats.solutions += counted;
        step
    }
}
