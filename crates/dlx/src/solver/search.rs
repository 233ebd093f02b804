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

use rand::Rng;

use crate::choose;
use crate::index::to_u32;

use super::{CancelFlag, Solver, Step, StopReason};

impl Solver<'_> {
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
    /// color). A problem without colors compiles to Algorithm X alone. With colors, a count at a
    /// level whose item is the last primary one takes every option left in its list as a
    /// solution at once (one node each), covering nothing; at a level where two primary items
    /// are left, it takes each option of the chosen one as a node and the options of the other
    /// that agree with it as solutions (and nodes) below it, again covering nothing (see
    /// `LinksMut::agreeing`). The nodes and guesses are those the levels would make, the
    /// updates and cleansings those of the levels made. `CAPPED` stops above such levels with
    /// [`Step::Frontier`] (see `split`). A branching rule that learns (see `choose::rules`) is
    /// told of the tries and dead ends those levels would have made, as a visit tells it.
    ///
    /// `PRICED` runs DLX5's search for the cheapest solutions (see `best`), on lists sorted by
    /// net cost: the item with the fewest options below the bound, covers that hide only the
    /// options still below it, and each level's options tried until one reaches it.
    #[inline(never)]
    pub(super) fn search<const RANDOM: bool, const COLORED: bool, const CAPPED: bool, const PRICED: bool>(
        &mut self,
        resume: bool,
    ) -> Step {
        let base = self.base;
        let mut l = self.level;
        let mut nodes = self.stats.nodes;
        let mut guesses = self.stats.guesses;
        let mut read_off = self.read_off;
        let node_limit = self.budget.nodes.unwrap_or(u64::MAX);
        let update_limit = self.budget.updates.unwrap_or(u64::MAX);
        let cancel = self.cancel.as_ref();
        let cap = self.cap;
        let random_ties = RANDOM && self.random_ties && self.seed.is_some() && self.chooser.is_mrv();
        // Whether the branching rule hears of dead ends and tries (see `choose::rules`).
        let learning = self.chooser.learns();
        let seeded = self.seed.is_some();
        // Solutions that may pass uncounted by the caller before one is returned (while
        // counting, up to the limit), and those that did.
        let silent = match self.count_limit {
            0 => 0,
            limit => limit
                .saturating_sub(u64::try_from(&self.stats.solutions).unwrap_or(u64::MAX))
                .saturating_sub(1),
        };
        let mut counted = 0;
        let counting = self.count_limit != 0;
        let mut view = self.links.view();
        let links = &mut view;
        let chosen = &mut self.chosen[..];
        // Costs (see `best`): the net costs and the bound.
        let mut pricing = self.pricing.as_deref_mut();
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
                    let parent = if l == base { 0 } else { item };
                    let mut usable = 1;
                    item = if PRICED && let Some(p) = pricing.as_deref_mut() {
                        let (k, s) = p.choose(links, l);
                        usable = s;
                        // Each option tried is a guess when more than one is below the bound.
                        p.guess[l] = s > 1;
                        k
                    } else if random_ties {
                        let rng = &mut self.rng;
                        choose::choose_with_ties(links, from, |n| rng.random_range(0..n))
                    } else {
                        self.chooser.item(links, from)
                    };
                    let len = links.len(item);
                    if len == 0 || (PRICED && usable == 0) {
                        // A dead end: no need to cover the item only to uncover it (X7) at once.
                        self.chooser.dead_end(item, parent);
                        backtracking = true;
                    } else if COLORED && links.active() == 1 && (CAPPED || counted + u64::from(len) <= silent)
                    {
                        // The last primary item: each option left in its list completes a
                        // solution (every option that clashes with the choices made has been
                        // hidden, and those that agree on colors stay). A count takes them at
                        // once, each as a node, covering nothing; a walk that cuts subtrees
                        // stops above, so that its pieces' counts do the same.
                        if CAPPED {
                            break Step::Frontier;
                        }
                        nodes += u64::from(len);
                        read_off += u64::from(len);
                        if learning {
                            self.chooser.tried(item, len);
                        }
                        if len > 1 {
                            guesses += u64::from(len);
                        }
                        counted += u64::from(len);
                        backtracking = true;
                    } else if COLORED && !RANDOM && links.active() == 2 && (CAPPED || counting) {
                        // The last two primary items: each option `x` of this one is a node, and
                        // the options of the other that agree with it are the solutions (and
                        // nodes) below it, as above; a count reads them off without covering
                        // anything (see `LinksMut::agreeing`), as long as the search would not
                        // stop below `x` (at the limit, or out of nodes), and goes on from an
                        // `x` where it would as the search does. A walk that cuts subtrees stops
                        // above, as above.
                        if CAPPED {
                            break Step::Frontier;
                        }
                        let j = links.active_primaries().map(|(k, _)| k).find(|&k| k != item).unwrap_or(0);
                        let before = nodes;
                        x = links.down(item);
                        while x != item {
                            let below = links.agreeing(x, j, &mut self.marks);
                            let goes_on = match below {
                                None => counted < silent,
                                Some(c) => nodes + 1 < node_limit && counted + u64::from(c) <= silent,
                            };
                            if !goes_on {
                                break;
                            }
                            nodes += 1;
                            if len > 1 {
                                guesses += 1;
                            }
                            if learning {
                                self.chooser.tried(item, 1);
                            }
                            match below {
                                None => counted += 1,
                                Some(0) => self.chooser.dead_end(j, item),
                                Some(c) => {
                                    if learning {
                                        self.chooser.tried(j, c);
                                    }
                                    nodes += u64::from(c);
                                    if c > 1 {
                                        guesses += u64::from(c);
                                    }
                                    counted += u64::from(c);
                                }
                            }
                            x = links.down(x);
                        }
                        read_off += nodes - before;
                        if x == item {
                            backtracking = true;
                        } else {
                            // The search stops below `x`: cover the item, and try `x` from here.
                            let before = links.emptied_len();
                            links.cover_colored(item);
                            self.emptied_marks[l] = (before, links.emptied_len());
                        }
                    } else if RANDOM
                        && let Some(pricing) = pricing.as_deref()
                        && pricing.priced_out(links, item, l)
                    {
                        // Costs: every option of the item would reach the bound (see `best`).
                        backtracking = true;
                    } else {
                        let before = links.emptied_len();
                        if PRICED && let Some(p) = pricing.as_deref_mut() {
                            let first = links.down(item);
                            p.thresh0[l] =
                                p.cutoff.saturating_sub(p.level[l] + u128::from(p.node_net[first as usize]));
                            links.cover_below(item, &p.node_net, p.thresh0[l], &mut p.hidden);
                        } else if COLORED {
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
                            Solver::order_pool(
                                &mut self.pool[start..],
                                &mut self.rng,
                                seeded,
                                &self.preferred,
                            );
                            if let Some(pricing) = pricing.as_deref() {
                                pricing.order(&mut self.pool[start..]);
                            }
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
                    if PRICED && let Some(p) = pricing.as_deref_mut() {
                        links.uncover_rest_below(tried, &mut p.hidden);
                    } else if COLORED {
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
                    // Costs: the options left (in order of cost) would reach the bound.
                    if (RANDOM || PRICED)
                        && let Some(pricing) = pricing.as_deref()
                        && x != item
                        && pricing.reaches(x, l)
                    {
                        x = item;
                    }
                    if x != item {
                        break;
                    }
                    // X7: the item's options are used up.
                    if PRICED && let Some(p) = pricing.as_deref_mut() {
                        links.uncover_below(item, &mut p.hidden);
                    } else if COLORED {
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
            if (RANDOM || PRICED)
                && let Some(pricing) = pricing.as_deref_mut()
            {
                pricing.enter(x, l);
            }
            nodes += 1;
            let guess =
                if PRICED { pricing.as_deref().is_some_and(|p| p.guess[l]) } else { links.len(item) > 1 };
            if guess {
                guesses += 1;
            }
            if learning {
                self.chooser.tried(item, 1);
            }
            if PRICED && let Some(p) = pricing.as_deref_mut() {
                p.thresh[l] = p.cutoff.saturating_sub(p.level[l + 1]);
                links.cover_rest_below(x, &p.node_net, p.thresh[l], &mut p.hidden);
            } else if COLORED {
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
        self.read_off = read_off;
        self.stats.solutions += counted;
        step
    }
}
