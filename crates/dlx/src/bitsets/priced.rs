//! DLX5's search for the cheapest solutions (see [`crate::best`]) on bit sets, for problems
//! without colors or multiplicities and of at most [`MAX_OPTIONS`] options.
//!
//! The options are numbered again in order of net cost (ties in their own order), which is the
//! order DLX5's sorted lists try them in. Then "the options below the bound" at a level, those
//! whose net cost is less than the bound less the net cost of the options chosen above, are the
//! first `P` of them: a prefix of every column. A level's state is the set of options still
//! possible and the set of primary items left; the options it can still use are that set cut to
//! the prefix, so a level reads and copies only the prefix's words, and the deeper a branch goes
//! (the dearer its options, or the lower the bound once solutions are found) the shorter its
//! prefix and the cheaper its nodes. Choosing an option clears the columns of its items from the
//! set: the bit sets' covers, with nothing to undo.
//!
//! The tree is the links' (the same choice of item, on the same counts of options below the
//! bound: the fewest, ties to the one whose cheapest option costs most, the first with none
//! ending the level; the same options in the same order), node for node. The links count the
//! options they hide as updates; here nothing is hidden one by one, and no updates are counted.

use crate::best::Cheapest;
use crate::index::{OptionId, to_u32};
use crate::links::Links;
use crate::problem::Problem;
use crate::solver::StopReason;

use super::Limits;

/// The most options this search takes (a level's state is one bit each)...
pub(crate) const MAX_OPTIONS: usize = 1 << 14;

/// ... and the most words its columns take, all items together (32 MiB), as do the levels'
/// states at most (a level covers a primary item at least).
const MAX_WORDS: usize = 1 << 22;

/// The problem numbered for the search: options by net cost, each item's column.
pub(crate) struct Priced {
    /// Words of a set of options.
    words: usize,
    /// The primary items (the layout's first `n_primary`), and words of a set of them.
    n_primary: usize,
    item_words: usize,
    /// Option `k` of the search (in order of net cost) is the problem's option `order[k]`
    /// (and the problem's option `o` is the search's `rank[o]`)...
    order: Vec<u32>,
    rank: Vec<u32>,
    /// ... of net cost `net[k]` (ascending)...
    net: Vec<u64>,
    /// ... and holds the items `items[starts[k]..starts[k + 1]]` (layout numbers, from 1).
    starts: Vec<u32>,
    items: Vec<u32>,
    /// Item `i`'s column (its options, as a set), at `cols[i * words..]`.
    cols: Vec<u64>,
}

/// What a search starts from and reports to.
pub(crate) struct Run<'a> {
    pub(crate) problem: &'a Problem,
    /// The links, in the state the search starts from: the forced options `forced` chosen, at
    /// net cost `base_cost`.
    pub(crate) links: &'a Links,
    pub(crate) forced: &'a [OptionId],
    pub(crate) base_cost: u128,
    /// The net cost a branch must stay below, and the total tax (a solution's cost less its net
    /// cost).
    pub(crate) cutoff: &'a mut u128,
    pub(crate) total_tax: u128,
    /// The cheapest solutions found, and the budget and cancel flag.
    pub(crate) cheapest: &'a mut Cheapest,
    pub(crate) limits: &'a Limits<'a>,
}

/// One level of the search.
#[derive(Clone, Copy, Default)]
struct Level {
    /// The item chosen, and the last of its options tried (`NONE` before the first).
    item: u32,
    tried: u32,
    /// Whether the item had more than one option below the bound (each option tried is then a
    /// guess, as the links count them).
    guess: bool,
    /// The net cost of the options chosen above.
    cost: u128,
}

/// No option tried yet.
const NONE: u32 = u32::MAX;

/// The words of `set` for a prefix of `p` options, the last one cut to the prefix.
#[inline(always)]
fn prefix_words(p: usize) -> (usize, u64) {
    let (full, rest) = (p / 64, p % 64);
    match rest {
        0 => (full, u64::MAX),
        r => (full + 1, (1u64 << r) - 1),
    }
}

impl Priced {
    /// `problem` numbered for the search, with `node_net` (each option node's net cost, see
    /// `best`); `None` when it has colors or multiplicities, or too many options or items.
    pub(crate) fn new(problem: &Problem, node_net: &[u64]) -> Option<Priced> {
        let m = problem.option_count();
        if problem.has_multiplicities() || problem.has_colors() || m > MAX_OPTIONS || m == 0 {
            return None;
        }
        let net_of = |o: u32| node_net[problem.option_node_range(OptionId::from_u32(o)).start];
        let mut order: Vec<u32> = (0..to_u32(m)).collect();
        order.sort_by_key(|&o| net_of(o));
        let words = m.div_ceil(64);
        let n_items = problem.item_count();
        if (n_items + 1).saturating_mul(words) > MAX_WORDS {
            return None;
        }
        let mut cols = vec![0u64; (n_items + 1) * words];
        let mut rank = vec![0u32; m];
        let (mut starts, mut items, mut net) = (vec![0u32], Vec::new(), Vec::with_capacity(m));
        for (k, &o) in order.iter().enumerate() {
            rank[o as usize] = to_u32(k);
            net.push(net_of(o));
            let range = problem.option_node_range(OptionId::from_u32(o));
            for &item in &problem.tops[range.start..range.end - 1] {
                items.push(item);
                cols[item as usize * words + k / 64] |= 1 << (k % 64);
            }
            starts.push(to_u32(items.len()));
        }
        let n_primary = problem.primary_count();
        Some(Priced {
            words,
            n_primary,
            item_words: n_primary.div_ceil(64),
            order,
            rank,
            net,
            starts,
            items,
            cols,
        })
    }

    /// The words a node reads at most: every primary item's column, in full.
    pub(crate) fn node_words(&self) -> usize {
        self.n_primary * self.words
    }

    /// How many options have a net cost below `budget`: the prefix a level may use.
    #[inline(always)]
    fn prefix(&self, budget: u128) -> usize {
        self.net.partition_point(|&n| u128::from(n) < budget)
    }

    /// Item `i`'s column.
    #[inline(always)]
    fn col(&self, i: u32) -> &[u64] {
        &self.cols[i as usize * self.words..(i as usize + 1) * self.words]
    }

    /// DLX5's choice among the primary items `left`, with the options `alive` of the prefix of
    /// `p`: the item with the fewest (in the layout's order, ties to the one whose cheapest
    /// option costs most; the first with none at once), and how many it has.
    #[inline(always)]
    fn choose(&self, alive: &[u64], left: &[u64], p: usize) -> (u32, u32) {
        let (pw, last) = prefix_words(p);
        let (mut best, mut fewest, mut dearest) = (0, u32::MAX, 0);
        for (lw, &bits) in left.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let k = to_u32(lw * 64 + bits.trailing_zeros() as usize + 1);
                bits &= bits - 1;
                let col = self.col(k);
                let (mut count, mut first) = (0u32, None);
                for w in 0..pw {
                    let word = col[w] & alive[w] & if w + 1 == pw { last } else { u64::MAX };
                    if word != 0 && first.is_none() {
                        first = Some(w * 64 + word.trailing_zeros() as usize);
                    }
                    count += word.count_ones();
                }
                let Some(first) = first else { return (k, 0) };
                let cheapest = self.net[first];
                if count < fewest || (count == fewest && cheapest > dearest) {
                    (best, fewest, dearest) = (k, count, cheapest);
                }
            }
        }
        (best, fewest)
    }

    /// The first option of item `i` after `tried` (from the first when `NONE`) still in
    /// `alive` and in the prefix of `p`.
    #[inline(always)]
    fn next_option(&self, alive: &[u64], i: u32, tried: u32, p: usize) -> Option<u32> {
        let from = if tried == NONE { 0 } else { tried as usize + 1 };
        if from >= p {
            return None;
        }
        let (pw, last) = prefix_words(p);
        let col = self.col(i);
        let mut w = from / 64;
        let mut word = col[w] & alive[w] & (u64::MAX << (from % 64));
        loop {
            if w + 1 == pw {
                word &= last;
            }
            if word != 0 {
                return Some(to_u32(w * 64 + word.trailing_zeros() as usize));
            }
            w += 1;
            if w >= pw {
                return None;
            }
            word = col[w] & alive[w];
        }
    }

    /// The problem's option of the search's option `k`.
    #[inline(always)]
    fn option(&self, k: u32) -> OptionId {
        OptionId::from_u32(self.order[k as usize])
    }

    /// Searches as `run` says, offering each solution found to its `cheapest` (the forced
    /// options first) and lowering its `cutoff` to the `k`-th's net cost once `k` are kept.
    /// Returns the nodes and guesses made, and why it stopped early, if it did.
    pub(crate) fn search(&self, run: Run<'_>) -> (u64, u64, Option<StopReason>) {
        // Compiled for the processor's x86-64-v3 features where it has them (a column's count is
        // one instruction there), as the other searches on bit sets are (see `x86`).
        #[cfg(target_arch = "x86_64")]
        if super::x86::has_v3() && !super::tests::portable() {
            return super::x86::priced(self, run);
        }
        self.search_as(run)
    }

    /// [`search`](Self::search), compiled where it is inlined.
    #[inline(always)]
    pub(super) fn search_as(&self, run: Run<'_>) -> (u64, u64, Option<StopReason>) {
        let Run { problem, links, forced, base_cost, cutoff, total_tax, cheapest, limits } = run;
        let (w, iw) = (self.words, self.item_words);
        let depth = self.n_primary + 1;
        // Each level's options still possible (the words of its prefix) and primary items left.
        let mut alive = vec![0u64; (depth + 1) * w];
        let mut left = vec![0u64; (depth + 1) * iw];
        let mut levels = vec![Level::default(); depth + 1];
        // Level 0: the options in the lists of the primary items left.
        let uds = links.uds();
        for i in 1..=to_u32(self.n_primary) {
            if links.is_covered(i) {
                continue;
            }
            left[(i as usize - 1) / 64] |= 1 << ((i as usize - 1) % 64);
            let mut p = uds[i as usize].down;
            while p != i {
                let k = self.rank[problem.option_of_node(p).index()] as usize;
                alive[k / 64] |= 1 << (k % 64);
                p = uds[p as usize].down;
            }
        }
        levels[0].cost = base_cost;
        let (mut nodes, mut guesses) = (0u64, 0u64);
        let mut chosen: Vec<u32> = Vec::with_capacity(depth);
        let (mut l, mut entering) = (0usize, true);
        loop {
            if entering {
                if left[l * iw..(l + 1) * iw].iter().all(|&x| x == 0) {
                    // Every primary item covered: a solution.
                    let options =
                        || forced.iter().copied().chain(chosen[..l].iter().map(|&k| self.option(k)));
                    cheapest.offer(problem, options);
                    if let (true, Some(kth)) = (cheapest.full(), cheapest.kth()) {
                        *cutoff = kth - total_tax;
                    }
                } else if let Some(reason) = limits.stop(nodes, 0) {
                    return (nodes, guesses, Some(reason));
                } else {
                    let p = self.prefix(cutoff.saturating_sub(levels[l].cost));
                    let (item, usable) =
                        self.choose(&alive[l * w..(l + 1) * w], &left[l * iw..(l + 1) * iw], p);
                    let level = &mut levels[l];
                    (level.item, level.tried, level.guess) = (item, NONE, usable > 1);
                    entering = usable > 0;
                }
                if !entering {
                    // A solution or a dead end: back to the level above.
                    if l == 0 {
                        return (nodes, guesses, None);
                    }
                    l -= 1;
                }
            }
            // Level `l` tries its next option below the bound, or goes back up.
            let level = levels[l];
            let p = self.prefix(cutoff.saturating_sub(level.cost));
            let Some(x) = self.next_option(&alive[l * w..(l + 1) * w], level.item, level.tried, p) else {
                if l == 0 {
                    return (nodes, guesses, None);
                }
                l -= 1;
                entering = false;
                continue;
            };
            levels[l].tried = x;
            chosen.truncate(l);
            chosen.push(x);
            nodes += 1;
            guesses += u64::from(level.guess);
            // Level `l + 1`: the options of x's items' columns gone, in the prefix below the
            // bound there (no longer than this level's); x's primary items covered.
            let cost = level.cost + u128::from(self.net[x as usize]);
            let (pw, _) = prefix_words(self.prefix(cutoff.saturating_sub(cost)));
            let (here, below) = alive.split_at_mut((l + 1) * w);
            let (here, below) = (&here[l * w..l * w + pw], &mut below[..pw]);
            below.copy_from_slice(here);
            let (lo, hi) = (self.starts[x as usize] as usize, self.starts[x as usize + 1] as usize);
            for &j in &self.items[lo..hi] {
                for (b, c) in below.iter_mut().zip(self.col(j)) {
                    *b &= !c;
                }
            }
            let (here, below) = left.split_at_mut((l + 1) * iw);
            below[..iw].copy_from_slice(&here[l * iw..]);
            for &j in &self.items[lo..hi] {
                if (j as usize) <= self.n_primary {
                    below[(j as usize - 1) / 64] &= !(1 << ((j as usize - 1) % 64));
                }
            }
            l += 1;
            levels[l].cost = cost;
            entering = true;
        }
    }
}
