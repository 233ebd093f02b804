//! Knuth's Algorithm M (DLX3, TAOCP 7.2.2.1): the search for problems whose primary items take
//! bounds on their number of covers, with the stack discipline it adds.
//!
//! # How it branches
//!
//! Each primary item `i` has a remaining *bound* `b` (how many more options may cover it; its
//! upper bound at first) and a *slack* `s` (upper minus lower bound, fixed). A chosen option
//! lowers the bound of each of its primary items by one, and an item whose bound reaches 0 is
//! covered. The search branches on the active item with the fewest ways to go on, Knuth's key
//! (see `choose::multi_key`). At a level that branches on `i`:
//!
//! * `i`'s bound drops by one (to `b`); if `b == 0` the item is covered;
//! * with `b == 0` and no slack, the level tries `i`'s options one by one, as Algorithm X does;
//! * otherwise it *tweaks* each option before trying it: takes it out of every list, `i`'s own
//!   too, so that a deeper level branching on `i` again never takes it (each solution, a set of
//!   options, is found once). It stops when fewer options are left than `i` still needs, and when
//!   all are used it makes a *null move*: no option, and `i` (needing no more) leaves the list of
//!   active items (unless it was covered already).
//!
//! `chosen[l]` is the option node tried at level `l`, or the item's header for a null move. The
//! undoing of a level (`restore`) puts back its tweaks: Knuth's *untweak*, which walks the chain
//! of tweaked nodes from the first, as tweaking always took the top of the list; a seeded run,
//! which tries the options in shuffled order, untweaks them one by one in reverse from its pool
//! instead. Levels are undone strictly in reverse order, as in `search`.
//!
//! When every active item has an empty list and needs no more options, the levels below are
//! null moves, one per item, and then a solution: a count takes them at once, with the nodes
//! (and, for items whose bound runs out, the covers of empty lists) the search would make there.
//!
//! The record of emptied items (see `links`) plays no part here: the choice scans every active
//! item for its key. The search's removals leave it alone (a view without the record, see
//! `LinksMut`); the replays and unwinds, which keep it, truncate it back after each operation,
//! so that it stays as short as the links require.

use rand::Rng;

use crate::index::to_u32;
use crate::layout::LEN_MASK;
use crate::links::{Links, LinksMut};
use crate::problem::Problem;

use super::Step;
use super::{CancelFlag, Solver, StopReason};

/// The state of a solver for a problem with multiplicities.
#[derive(Clone, Debug)]
pub(super) struct Multi {
    /// Each primary item's remaining bound (entry 0 unused), as the search and the forced options
    /// leave it.
    pub(super) bound: Vec<u32>,
    /// Each primary item's slack: upper minus lower bound.
    slack: Vec<u32>,
    /// Per level: the top of the item's list when the level started (the first node it tweaks).
    first_tweak: Vec<u32>,
    /// Per level: the ways to branch (Knuth's score), to count guesses.
    ways: Vec<u32>,
    /// Per level of a seeded run: where the level's shuffled options start in the pool.
    pool_start: Vec<u32>,
    /// Whether the levels now covered were made by a seeded run (tweaks in shuffled order).
    shuffled: bool,
    /// The option nodes of the solution last found, null moves left out.
    found: Vec<u32>,
}

impl Multi {
    /// The initial state for `problem`, with room for `depth` levels.
    pub(super) fn new(problem: &Problem, depth: usize) -> Multi {
        let bounds = &problem.bounds;
        Multi {
            bound: bounds.iter().map(|&(_, upper)| upper).collect(),
            slack: bounds.iter().map(|&(lower, upper)| upper - lower).collect(),
            first_tweak: vec![0; depth],
            ways: vec![0; depth],
            pool_start: vec![0; depth],
            shuffled: false,
            found: Vec::new(),
        }
    }

    /// Puts the bounds back as the problem has them (with the links copied afresh).
    pub(super) fn restore(&mut self, problem: &Problem) {
        for (b, &(_, upper)) in self.bound.iter_mut().zip(&problem.bounds) {
            *b = upper;
        }
    }

    /// The ways to branch the search had at level `l` (Knuth's score).
    pub(super) fn ways(&self, l: usize) -> u32 {
        self.ways[l]
    }

    /// Says whether the levels now covered were made in shuffled order.
    pub(super) fn set_shuffled(&mut self, shuffled: bool) {
        self.shuffled = shuffled;
    }

    /// The option nodes among `chosen`, null moves (item headers, at most `n_items`) left out.
    pub(super) fn solution<'a>(&'a mut self, chosen: &[u32], n_items: u32) -> &'a [u32] {
        self.found.clear();
        self.found.extend(chosen.iter().copied().filter(|&x| x > n_items));
        &self.found
    }
}

/// Goes on at a level whose item is `item` with `x`, the next option node to try (`item` itself
/// when none is left): false when the level is done, because no option is left or fewer than the
/// item still needs; otherwise tweaks `x` (or, for a null move, deactivates the item) and says to
/// try it. Knuth's step "if `cur_node` is off limits, back up; also tweak if needed".
#[inline(always)]
fn advance<const COLORED: bool, const RECORD: bool>(
    links: &mut LinksMut<'_, RECORD>,
    bound: &[u32],
    slack: &[u32],
    item: u32,
    x: u32,
) -> bool {
    let (b, s) = (bound[item as usize], slack[item as usize]);
    if b == 0 && s == 0 {
        return x != item;
    }
    if u64::from(links.len(item)) + u64::from(s) <= u64::from(b) {
        return false;
    }
    if x != item {
        links.tweak::<COLORED>(x, b != 0);
    } else if b != 0 {
        links.deactivate(item);
    }
    true
}

/// Undoes level `l`, which branched on `item`, once its option (if any) is uncovered: puts back
/// what it tweaked, uncovers the item if the level covered it, and raises the item's bound again.
/// With `SHUFFLED`, the tweaked nodes are the pool's from the level's start to `pool_pos[l]`.
#[inline(always)]
fn restore<const SHUFFLED: bool, const COLORED: bool, const RECORD: bool>(
    links: &mut LinksMut<'_, RECORD>,
    v: &mut Levels<'_>,
    pool: &mut Vec<u32>,
    pool_pos: &[u32],
    l: usize,
    item: u32,
) {
    let (b, s) = (v.bound[item as usize], v.slack[item as usize]);
    if b != 0 || s != 0 {
        if SHUFFLED {
            let (start, pos) = (v.pool_start[l] as usize, pool_pos[l] as usize);
            for &x in pool[start..pos].iter().rev() {
                links.untweak_one::<COLORED>(x, b != 0);
            }
        } else {
            links.untweak::<COLORED>(item, v.first_tweak[l], b != 0);
        }
    }
    if b == 0 {
        links.uncover_as::<COLORED>(item);
    }
    v.bound[item as usize] = b + 1;
    if SHUFFLED {
        pool.truncate(v.pool_start[l] as usize);
    }
}

/// The state of [`Multi`] as slices, for the search loop (which then keeps their addresses in
/// registers).
struct Levels<'a> {
    bound: &'a mut [u32],
    slack: &'a [u32],
    first_tweak: &'a mut [u32],
    ways: &'a mut [u32],
    pool_start: &'a mut [u32],
}

impl Multi {
    fn levels(&mut self) -> Levels<'_> {
        Levels {
            bound: &mut self.bound,
            slack: &self.slack,
            first_tweak: &mut self.first_tweak,
            ways: &mut self.ways,
            pool_start: &mut self.pool_start,
        }
    }
}

/// When every active primary item has an empty list and a bound within its slack (needs no more
/// options), so that the levels below are null moves, one per item, and then a solution: how
/// many of those items the null moves would cover (those whose bound runs out). `None` otherwise.
#[inline(always)]
fn null_moves_to_a_solution<const RECORD: bool>(
    links: &LinksMut<'_, RECORD>,
    bound: &[u32],
    slack: &[u32],
) -> Option<u64> {
    let mut covers = 0;
    for (i, top) in links.active_primaries() {
        let (b, s) = (bound[i as usize], slack[i as usize]);
        if top & LEN_MASK != 0 || b > s {
            return None;
        }
        covers += u64::from(b == 1);
    }
    Some(covers)
}

/// Does at level `l` what [`Solver::search_multi`] does there, unshuffled, up to trying `x` (an
/// option node, or the header of the level's item for a null move): lowers the bound of `x`'s
/// item, covers it if that reaches 0, tweaks the options above `x` in its list (as trying each of
/// them and backtracking left them), and then takes `x` as the search does. Truncates the record
/// of emptied items back to `keep` after each operation, as the search does. Panics if `x` is not
/// where the search would go next, which a path cut by `split` from the same state always is.
pub(super) fn replay(links: &mut Links, m: &mut Multi, l: usize, x: u32, keep: usize) {
    m.shuffled = false;
    let n_items = links.item_count();
    if links.is_colored() {
        links.with(|d| replay_in::<true>(d, &mut m.levels(), l, x, n_items, keep));
    } else {
        links.with(|d| replay_in::<false>(d, &mut m.levels(), l, x, n_items, keep));
    }
}

fn replay_in<const COLORED: bool>(
    d: &mut LinksMut<'_>,
    v: &mut Levels<'_>,
    l: usize,
    x: u32,
    n_items: u32,
    keep: usize,
) {
    let item = if x <= n_items { x } else { d.item_of(x) };
    let b = v.bound[item as usize].checked_sub(1).expect("the path follows the search");
    v.bound[item as usize] = b;
    let mut y = d.down(item);
    v.first_tweak[l] = y;
    if b == 0 {
        d.cover_as::<COLORED>(item);
        d.truncate_emptied(keep);
    }
    loop {
        assert!(advance::<COLORED, _>(d, v.bound, v.slack, item, y), "the path follows the search");
        d.truncate_emptied(keep);
        if y == x {
            break;
        }
        assert_ne!(y, item, "the path follows the search");
        y = d.down(y);
    }
    if x != item {
        d.cover_rest_multi::<COLORED>(x, v.bound);
        d.truncate_emptied(keep);
    }
}

/// Undoes the levels `base..level` that a run of [`Solver::search_multi`] left covered, in
/// reverse order, and truncates the record of emptied items to `run_emptied`.
#[allow(clippy::too_many_arguments)]
pub(super) fn unwind(
    links: &mut Links,
    m: &mut Multi,
    chosen: &[u32],
    pool: &mut Vec<u32>,
    pool_pos: &mut [u32],
    base: usize,
    level: usize,
    run_emptied: usize,
) {
    let colored = links.is_colored();
    let n_items = links.item_count();
    let shuffled = m.shuffled;
    let m = &mut m.levels();
    for l in (base..level).rev() {
        let tried = chosen[l];
        links.with(|d| {
            let item = if tried <= n_items {
                if m.bound[tried as usize] != 0 {
                    d.reactivate(tried);
                }
                tried
            } else {
                if colored {
                    d.uncover_rest_multi::<true>(tried, m.bound);
                } else {
                    d.uncover_rest_multi::<false>(tried, m.bound);
                }
                // The option tried was tweaked (unless the level covered its item): count it.
                if shuffled {
                    pool_pos[l] += 1;
                }
                d.item_of(tried)
            };
            match (shuffled, colored) {
                (false, false) => restore::<false, false, _>(d, m, pool, pool_pos, l, item),
                (false, true) => restore::<false, true, _>(d, m, pool, pool_pos, l, item),
                (true, false) => restore::<true, false, _>(d, m, pool, pool_pos, l, item),
                (true, true) => restore::<true, true, _>(d, m, pool, pool_pos, l, item),
            }
        });
    }
    links.truncate_emptied(run_emptied);
    pool.clear();
}

impl Solver<'_> {
    /// Algorithm M from its step "enter level" (`resume == false`) or from backtracking after a
    /// solution (`resume == true`), until the next solution, the end, or an interruption; as
    /// [`search`](Self::search) does for Algorithm X, and with the same contract.
    #[inline(never)]
    pub(super) fn search_multi<const RANDOM: bool, const COLORED: bool, const CAPPED: bool>(
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
        let run_emptied = self.run_emptied;
        let cap = self.cap;
        let random_ties = RANDOM && self.random_ties && self.seed.is_some() && self.chooser.is_mrv();
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
        let m = self.multi.as_mut().expect("a problem with multiplicities has their state");
        m.shuffled = RANDOM;
        let v = &mut m.levels();
        // The choice reads every active item, never the record of emptied items: removals leave
        // it alone.
        let mut view = self.links.view_as::<false>();
        let links = &mut view;
        let n_items = links.item_count();
        let chosen = &mut self.chosen[..];
        let (pool, pool_pos, rng) = (&mut self.pool, &mut self.pool_pos[..], &mut self.rng);
        let preferred = &self.preferred[..];
        // The item of the current level, and the option node (or, for a null move, the item)
        // about to be tried.
        let mut item = 0;
        let mut x = 0;
        let mut backtracking = resume;
        let step = 'search: loop {
            if !backtracking {
                // Enter a level: all primary items done?
                if links.first_primary() == 0 {
                    if counted < silent {
                        counted += 1;
                        backtracking = true;
                    } else {
                        break Step::Solution;
                    }
                } else if CAPPED && l == cap {
                    break Step::Frontier;
                } else if nodes >= node_limit || links.updates() >= update_limit {
                    break Step::Interrupted(StopReason::Budget);
                } else if nodes & 1023 == 0 && cancel.is_some_and(CancelFlag::is_cancelled) {
                    break Step::Interrupted(StopReason::Cancelled);
                } else {
                    let (i, ways) = if random_ties {
                        let mut draw = |n| rng.random_range(0..n);
                        self.chooser.item_multi(links, v.bound, v.slack, Some(&mut draw))
                    } else {
                        self.chooser.item_multi(links, v.bound, v.slack, None)
                    };
                    if ways == 0 {
                        // Fewer options than the item needs: a dead end, before touching
                        // anything.
                        self.chooser.dead_end(i, if l == base { 0 } else { item });
                        backtracking = true;
                    } else if !RANDOM
                        && !CAPPED
                        // (A rule that learns is told of each null move: those levels are made.)
                        && !learning
                        && ways == 1
                        && links.len(i) == 0
                        && counted < silent
                        && nodes + u64::from(links.active()) <= node_limit
                        && let Some(covers) = null_moves_to_a_solution(links, v.bound, v.slack)
                    {
                        // Every item left has no option and needs none: a count takes the null
                        // moves below at once, a node each (none a guess), and the solution they
                        // make; the items whose bound runs out on the way would be covered, an
                        // update each (their lists are empty). (The search would enter each of
                        // those levels within the budget.)
                        nodes += u64::from(links.active());
                        links.count_updates(covers);
                        counted += 1;
                        backtracking = true;
                    } else {
                        item = i;
                        v.ways[l] = ways;
                        let b = v.bound[i as usize] - 1;
                        v.bound[i as usize] = b;
                        if RANDOM {
                            let start = pool.len();
                            let mut p = links.down(i);
                            while p != i {
                                pool.push(p);
                                p = links.down(p);
                            }
                            Solver::order_pool(&mut pool[start..], rng, seeded, preferred);
                            v.pool_start[l] = to_u32(start);
                            pool_pos[l] = to_u32(start);
                            x = pool.get(start).copied().unwrap_or(i);
                        } else {
                            x = links.down(i);
                            v.first_tweak[l] = x;
                        }
                        if b == 0 {
                            links.cover_as::<COLORED>(i);
                            links.truncate_emptied(run_emptied);
                        }
                        // An item with ways to branch has an option to try or a null move to make.
                        let went_on = advance::<COLORED, _>(links, v.bound, v.slack, i, x);
                        debug_assert!(went_on, "item {i} has {ways} ways but nothing to try");
                        links.truncate_emptied(run_emptied);
                    }
                }
            }
            if backtracking {
                // Leave levels until one has another option to try (or a null move to make).
                loop {
                    if l == base {
                        break 'search Step::Exhausted;
                    }
                    l -= 1;
                    let tried = chosen[l];
                    if tried <= n_items {
                        // A null move: the last thing this level could do.
                        item = tried;
                        if v.bound[item as usize] != 0 {
                            links.reactivate(item);
                        }
                    } else {
                        links.uncover_rest_multi::<COLORED>(tried, v.bound);
                        item = links.item_of(tried);
                        if RANDOM {
                            let next = pool_pos[l] as usize + 1;
                            pool_pos[l] = to_u32(next);
                            x = pool.get(next).copied().unwrap_or(item);
                        } else {
                            x = links.down(tried);
                        }
                        if advance::<COLORED, _>(links, v.bound, v.slack, item, x) {
                            links.truncate_emptied(run_emptied);
                            break;
                        }
                    }
                    restore::<RANDOM, COLORED, _>(links, v, pool, pool_pos, l, item);
                }
                backtracking = false;
            }
            // Try `x`.
            chosen[l] = x;
            nodes += 1;
            if v.ways[l] > 1 {
                guesses += 1;
            }
            if learning {
                self.chooser.tried(item, 1);
            }
            if x != item {
                links.cover_rest_multi::<COLORED>(x, v.bound);
                links.truncate_emptied(run_emptied);
            }
            l += 1;
        };
        self.stats.solutions += u128::from(counted);
        let counters = view.counters();
        self.links.store(counters);
        self.level = l;
        self.stats.nodes = nodes;
        self.stats.guesses = guesses;
        step
    }
}
