//! Memoized counts of problems with multiplicities (Knuth's Algorithm M, as `solver::multi` runs
//! it on the links) on bit sets: the memo for bounded problems, which the search of the parent
//! module does not take.
//!
//! # The state and the signature
//!
//! A level holds the set of options still possible, as the parent module's levels do, and each
//! primary item's remaining *bound* `b` (how many more options may cover it; 0 once it is
//! covered, or closed by a null move). With the item's fixed *slack* `s` (upper minus lower
//! bound), it still *needs* `b - min(s, b)` options. Taking an option lowers the bound of each of
//! its primary items, and covers (takes the column of) each whose bound reaches 0; it hides the
//! options that share an uncolored secondary item with it or give one of its colored ones another
//! color, as in Algorithm C; and it hides itself.
//!
//! A subproblem is then the set of options possible and the bounds of the active items, and
//! nothing else: its solutions are the sets of those options that cover each active item between
//! its remaining lower and upper bounds, and agree on colors. The bound of an item with bounds
//! `1..=1` adds nothing to the set (such an item is active exactly when it has options left, or
//! the level is a dead end and never looked up), so the signature is the set of options, as in
//! the parent module, followed by the bounds of the items with other bounds, 32 bits each. An
//! active item that needs nothing more and has no option left can only be closed, so it counts as
//! closed (bound 0): two paths that differ only there meet.
//!
//! # The branching
//!
//! A level branches on the active item with the least of Knuth's keys (`choose::multi_key`):
//! with `len` options left it has `len + 1 - need` ways to go on. It tries its options in order,
//! each with the options tried before it hidden (Knuth's *tweak*), so that a set of options is
//! reached once however the items are chosen below: its options on the item in increasing order,
//! the first taken here. It stops when fewer options are left than the item still needs, and if
//! the item needs none, makes a *null move* last: the item closed, its options hidden. A level
//! with no active item that needs an option or has one is a solution; one with an item of no way
//! to go on is a dead end.
//!
//! A worked example: an item `x` with bounds `1..=2` and a plain item `y`, and the options `A =
//! x`, `B = x y`, `C = y`, `D = x`. The first level branches on `y` (two ways, against `x`'s
//! three: it needs one of its three options). Taking `B` covers `y` (hides `C`), lowers `x`'s
//! bound to 1, and leaves `{A, D}` with `x` at bound 1 and needing none: that level takes `A`,
//! or `D` (with `A` hidden), or closes `x`: 3 solutions. Taking `C` (with `B` hidden) leaves `{A,
//! D}` with `x` at bound 2, needing 1: a different signature, which takes `A` (then `D` or
//! nothing) or `D`: 3 more. So 6 in all: `AB`, `BD`, `B`, `AC`, `ACD`, `CD`. On problems with
//! repeated structure, the signatures met again are most of the tree, as in the parent module.
//!
//! The figures: a node is an option tried or a null move, a guess one at a level with more than
//! one way, an update an option hidden (the options possible before and after), with no
//! cleansings (colors are applied by hiding).

use super::memo::{Hit, Memory};
use super::{Limits, Stats, StopReason, Tables};
use crate::choose::multi_key;
use crate::count::{Count, Wide};
use crate::links::Links;
use crate::problem::Problem;

/// The per-level states of a memoized count with multiplicities (see the module docs), kept
/// from one count to the next so that a count allocates nothing per node.
#[derive(Debug, Default)]
pub(super) struct Levels {
    /// Possible options on entering each level (`words` a level).
    alive: Vec<u64>,
    /// Each primary item's remaining bound on entering each level (`n_primary` a level; 0 for
    /// an item covered or closed).
    bound: Vec<u32>,
    /// The options of each level's item still to try (`words` a level).
    todo: Vec<u64>,
    /// Each level's signature (`key_words` a level), while it is to be stored.
    key: Vec<u64>,
    /// Per level: the item it branches on, how many options it still needs, how many of its
    /// options are left to try, whether the null move is still to make, whether it is a guess.
    item: Vec<usize>,
    need: Vec<u32>,
    left: Vec<u32>,
    null: Vec<bool>,
    guess: Vec<bool>,
    /// Per level: the solutions, nodes and saved nodes counted before it was entered (every
    /// level backtracked into branched, and is stored when done).
    entry: Vec<(u128, u64, u64)>,
    /// The words of the count above its low 128 bits, with each level's on entering it.
    high: Wide,
    /// Each active item's length, while a level chooses.
    lens: Vec<u32>,
    /// The options a move hides, while it is made.
    hidden: Vec<u64>,
}

impl Levels {
    /// Room for `depth` levels of `tables`' shape.
    fn prepare(&mut self, tables: &Tables, depth: usize) {
        let (w, np, kw) = (tables.words, tables.n_primary, tables.key_words);
        for (v, n) in [(&mut self.alive, w), (&mut self.todo, w), (&mut self.key, kw)] {
            if v.len() < depth * n {
                v.resize(depth * n, 0);
            }
        }
        if self.bound.len() < depth * np {
            self.bound.resize(depth * np, 0);
        }
        if self.item.len() < depth {
            self.item.resize(depth, 0);
            self.need.resize(depth, 0);
            self.left.resize(depth, 0);
            self.null.resize(depth, false);
            self.guess.resize(depth, false);
            self.entry.resize(depth, (0, 0, 0));
        }
        self.lens.resize(np, 0);
        self.hidden.resize(w, 0);
    }
}

/// What entering a level finds.
enum Enter {
    /// Nothing more to choose: a solution.
    Solution,
    /// An item that can no longer be satisfied.
    Dead,
    /// The signature is stored: its count, and the nodes its search took without the memo.
    Found(Hit),
    /// The level branches (its item, need, options and null move are set).
    Branch,
}

/// Counts, with the memo, the solutions below the links' current state of a problem with
/// multiplicities whose remaining bounds are `bound` (by layout item, entry 0 unused), into
/// `stats`: the count, exact however large, and the nodes the
/// search would have taken without the memo (saturating; so far, when it stops early).
/// `backwards` tries each level's options last first (see `Stack::backwards`); the null move
/// stays last.
#[allow(clippy::too_many_arguments)]
pub(super) fn count(
    tables: &Tables,
    problem: &Problem,
    links: &Links,
    bound: &[u32],
    levels: &mut Levels,
    limits: &Limits<'_>,
    mut memo: Memory<'_>,
    backwards: bool,
    stats: &mut Stats,
) -> (Result<Count, StopReason>, u64) {
    let np = tables.n_primary;
    // Each move takes an option or closes an item: no more levels than both, and the last.
    let depth = problem.option_count() + np + 1;
    levels.prepare(tables, depth);
    levels.high.start(depth);
    read_state(tables, problem, links, bound, levels);

    let (mut nodes, mut guesses, mut updates, mut saved) = (0u64, 0u64, 0u64, 0u64);
    // The count's low 128 bits (the words above in `levels.high`).
    let mut solutions = 0u128;
    let mut l = 0usize;
    let mut result = Ok(());
    'search: loop {
        let back = match enter(tables, levels, l, &mut memo) {
            Enter::Solution => {
                levels.high.add(&mut solutions, 1, None);
                true
            }
            Enter::Dead => true,
            Enter::Found(hit) => {
                levels.high.add(&mut solutions, hit.count, hit.high.as_deref());
                saved = saved.saturating_add(hit.nodes);
                true
            }
            Enter::Branch => {
                levels.entry[l] = (solutions, nodes, saved);
                levels.high.mark(l);
                false
            }
        };
        if back {
            // Leave levels until one has a move left.
            loop {
                if l == 0 {
                    break 'search;
                }
                l -= 1;
                if has_move(levels, l) {
                    break;
                }
                let (before, n, s) = levels.entry[l];
                let plain = (nodes - n).saturating_add(saved - s);
                let kw = tables.key_words;
                let (count, high) = levels.high.since(l, solutions, before);
                memo.insert(&levels.key[l * kw..(l + 1) * kw], Hit { count, high, nodes: plain, zdd: 0 });
            }
        }
        // A level that branches has a move: its item has a way on (see `enter`).
        debug_assert!(has_move(levels, l));
        if let Some(reason) = limits.stop(nodes, updates) {
            result = Err(reason);
            break 'search;
        }
        nodes += 1;
        guesses += u64::from(levels.guess[l]);
        updates += make_move(tables, levels, l, backwards);
        l += 1;
    }
    stats.nodes = nodes;
    stats.guesses = guesses;
    stats.updates = updates;
    stats.solutions = levels.high.total(solutions);
    stats.cleansings = 0;
    (result.map(|()| stats.solutions.clone()), nodes.saturating_add(saved))
}

/// Whether level `l` has an option left to try with as many as its item needs left with it, or
/// its null move.
#[inline]
fn has_move(levels: &Levels, l: usize) -> bool {
    levels.left[l] >= levels.need[l].max(1) || levels.null[l]
}

/// Enters level `l`: chooses its item, or finds it a solution, a dead end, or stored.
fn enter(tables: &Tables, levels: &mut Levels, l: usize, memo: &mut Memory<'_>) -> Enter {
    let slack = &tables.slack;
    let (w, np, kw) = (tables.words, tables.n_primary, tables.key_words);
    let alive = &levels.alive[l * w..(l + 1) * w];
    let bound = &levels.bound[l * np..(l + 1) * np];
    let mut best = None;
    let mut best_key = (u32::MAX, u32::MAX, u32::MAX);
    for p in 0..np {
        let b = bound[p];
        levels.lens[p] = 0;
        if b == 0 {
            continue;
        }
        let len: u32 = tables.column(p, w).iter().zip(alive).map(|(&c, &a)| (c & a).count_ones()).sum();
        levels.lens[p] = len;
        let need = b - slack[p].min(b);
        if len == 0 && need == 0 {
            continue;
        }
        let key = multi_key(len, b, slack[p]);
        if key.0 == 0 {
            return Enter::Dead;
        }
        if key < best_key {
            best_key = key;
            best = Some(p);
        }
    }
    let Some(i) = best else { return Enter::Solution };
    // The signature: the options, then the bounded items' bounds (0 for one that can only close).
    let key = &mut levels.key[l * kw..(l + 1) * kw];
    key[..w].copy_from_slice(alive);
    key[w..].fill(0);
    for (k, &p) in tables.bounded.iter().enumerate() {
        let p = usize::from(p);
        let b = bound[p];
        let closing = levels.lens[p] == 0 && b <= slack[p];
        let b = if closing { 0 } else { u64::from(b) };
        key[w + k / 2] |= b << (32 * (k % 2));
    }
    if let Some(hit) = memo.get(key) {
        return Enter::Found(hit);
    }
    let b = bound[i];
    let need = b - slack[i].min(b);
    let todo = &mut levels.todo[l * w..(l + 1) * w];
    for ((t, &c), &a) in todo.iter_mut().zip(tables.column(i, w)).zip(alive) {
        *t = c & a;
    }
    levels.item[l] = i;
    levels.need[l] = need;
    levels.left[l] = levels.lens[i];
    levels.null[l] = need == 0;
    levels.guess[l] = best_key.0 > 1;
    Enter::Branch
}

/// Makes level `l`'s next move (its next option, or the null move), which [`has_move`] says it
/// has: level `l + 1`'s state. Returns the options it hides.
fn make_move(tables: &Tables, levels: &mut Levels, l: usize, backwards: bool) -> u64 {
    let (w, np) = (tables.words, tables.n_primary);
    let i = levels.item[l];
    let option_left = levels.left[l] >= levels.need[l].max(1);
    let todo = &mut levels.todo[l * w..(l + 1) * w];
    let (below, above) = levels.alive.split_at_mut((l + 1) * w);
    let (alive, next_alive) = (&below[l * w..], &mut above[..w]);
    let (below, above) = levels.bound.split_at_mut((l + 1) * np);
    let (bound, next_bound) = (&below[l * np..], &mut above[..np]);
    next_bound.copy_from_slice(bound);
    let hidden = &mut levels.hidden[..w];
    if option_left {
        let x = super::take_next(todo, backwards);
        levels.left[l] -= 1;
        // Hidden: `i`'s options tried (`x` among them, and those not left to try), the options
        // that clash with `x` at its secondary items, and the columns of the items it covers.
        for ((h, &c), &t) in hidden.iter_mut().zip(tables.column(i, w)).zip(todo.iter()) {
            *h = c & !t;
        }
        hidden[x / 64] |= 1 << (x % 64);
        secondary_clashes(tables, x, hidden);
        let option = tables.option(x);
        for &p in &option[..tables.primaries(x)] {
            let p = usize::from(p);
            next_bound[p] -= 1;
            if next_bound[p] == 0 {
                for (h, &c) in hidden.iter_mut().zip(tables.column(p, w)) {
                    *h |= c;
                }
            }
        }
    } else {
        // The null move: `i` closed.
        levels.null[l] = false;
        next_bound[i] = 0;
        hidden.copy_from_slice(tables.column(i, w));
    }
    let mut gone = 0u64;
    for ((n, &a), &h) in next_alive.iter_mut().zip(alive).zip(hidden.iter()) {
        *n = a & !h;
        gone += u64::from((a & h).count_ones());
    }
    gone
}

/// Adds to `hidden` the options that clash with option `x` at its secondary items: those that
/// share one it gives no color, and those that give one it colors another color or none.
fn secondary_clashes(tables: &Tables, x: usize, hidden: &mut [u64]) {
    let w = hidden.len();
    match &tables.colors {
        None => {
            for &j in &tables.option(x)[tables.primaries(x)..] {
                for (h, &c) in hidden.iter_mut().zip(tables.column(usize::from(j), w)) {
                    *h |= c;
                }
            }
        }
        Some(colors) => {
            for &(j, pair) in colors.option_nodes(tables.spans[x]) {
                if usize::from(j) < tables.n_primary {
                    continue;
                }
                if pair == super::NO_PAIR {
                    for &(k, c) in colors.column(j) {
                        hidden[k as usize] |= c;
                    }
                } else {
                    for &(k, _, clash) in colors.pair(pair) {
                        hidden[k as usize] |= clash;
                    }
                }
            }
        }
    }
}

/// Level 0's state from the links: the options in the lists of the active primary items, and the
/// remaining bounds (0 for an item the links have covered).
fn read_state(tables: &Tables, problem: &Problem, links: &Links, bound: &[u32], levels: &mut Levels) {
    let (w, np) = (tables.words, tables.n_primary);
    levels.alive[..w].fill(0);
    let uds = links.uds();
    for i in 1..=np {
        let item = u32::try_from(i).expect("items fit in u32");
        let b = if links.is_covered(item) { 0 } else { bound[i] };
        levels.bound[i - 1] = b;
        if b == 0 {
            continue;
        }
        let mut p = uds[i].down;
        while p != item {
            let o = problem.option_of_node(p).index();
            levels.alive[o / 64] |= 1 << (o % 64);
            p = uds[p as usize].down;
        }
    }
}
