//! The second engine, a peer of `links`: counting and visiting problems without multiplicities
//! (plain, or with colors) on bit sets instead of dancing links, with the same search tree, the
//! same figures, and less memory traffic where nodes are dear. A [`Solver`](crate::Solver) holds
//! one [`BitSets`] beside its links and asks it where counts run ([`Counting`]); visits go where
//! counts were set or chosen to go, and everything else runs on the links.
//!
//! # Why
//!
//! Dancing links pay for each option they hide with writes into two neighbours' links and into a
//! header, at addresses spread over the whole matrix, and for each option they unhide with as
//! many again. When a problem has few options (a few thousand: queens, Langford pairs, the
//! pentominoes), the state of a search fits in a few hundred bytes instead: which options are
//! still possible, a bit each, and the length of every primary item's list. Hiding an option then
//! clears a bit and lowers the lengths of its primary items, in a small array that stays in the
//! first-level cache; and undoing is free, because each level keeps its own copy of the state and
//! backtracking returns to the copy below.
//!
//! The price is that copy, and the choice of item, which reads every length: a node costs about
//! the size of the state whatever it does. So bit sets win where nodes make many updates each
//! (a pentomino placement hides hundreds of options) and lose where they make few (a sudoku
//! cell's placement hides a dozen, and the state has 324 lengths). [`BitSets::decide`] chooses from
//! the first nodes of a count on the links.
//!
//! # The search
//!
//! It is Algorithm X exactly as the links run it (see `search`): at each level the earliest active
//! primary item of least length, its options in the order they were added, a level ended at once
//! by an empty item. So it visits the same nodes in the same order, and it counts Knuth's
//! updates as the links would make them: one per item covered, and one per node of each hidden
//! option other than the node that hid it. Covering the items of a chosen option takes the union
//! of their columns at once (an option's *conflicts*): an option is hidden by the first of its
//! items covered, and counted once, whichever that is.
//!
//! Level `l` holds the state on entering it: the possible options, and the lengths, with
//! [`INACTIVE`] for a covered item. Choosing item `i` there, the level keeps `i`'s possible
//! options as the ones still to try and covers `i` in place; each option tried then starts level
//! `l + 1` from a copy.
//!
//! # Colors
//!
//! With colors (Knuth's Algorithm C, as the links run it in `links/colors`), the options still
//! possible are exactly those that agree with every choice made: an option that gives a purified
//! item another color is hidden, as one that shares a covered item is. So the state is the same,
//! plus the set of secondary items purified. What changes is how an option's other items are
//! taken: one at a time, in the order the links commit them (from the node after the chosen
//! item's, round the option), each item without a color covered (its column's options hidden),
//! each with one purified unless it already is (the options of its column that give it another
//! color hidden, those that give it the same color counted as cleansed). The figures follow the
//! links': a hidden option counts its nodes but one, less those at purified items, which were
//! cleansed and stay in their lists; a purification counts one cleansing, and one for each option
//! still possible that agrees with it. As the links' count does, a level whose item is the last
//! primary one takes each of its options as a solution at once, and a level where two are left
//! reads off, for each option of its item, the options of the other that agree with it (with the
//! option's conflicts, a few words; see [`agreeing`]). A commit reads only the words of its item's
//! column that hold options ([`Colors`]), so it costs what the column holds, not the whole set.
//!
//! # The memo
//!
//! A count may remember what it has counted (Knuth's DLX6 does, after Nishino, Yasuda, Minato
//! and Nagata, "Dancing with Decision Diagrams", 2017). The state on entering a level, the set
//! of options still possible, is a whole subproblem: its solutions are the exact covers, by
//! those options, of the primary items they hold (a primary item that is still active and has
//! no option left ends the level at once, and is never looked up). So that set is the
//! subproblem's signature, and a level that finishes stores its count under it; a level
//! entered with a signature already stored adds that count and goes back without a node.
//!
//! Three things make this exact. The signature needs nothing else: an active primary item with
//! options holds an option of the set, and a covered one holds none, so the set tells which are
//! active; with colors, a purified secondary item's options that give it another color are out
//! of the set, so committing one of those left purifies nothing the set does not already show.
//! The branching is a function of the signature alone: the earliest primary item of least length,
//! the lengths counted from the set. And only finished levels are stored: a count stopped by a
//! budget or Ctrl-C leaves what it stored exact, and a table stays good from one count to the next
//! whatever is forced or excluded, since a signature names the same subproblem from any base.
//!
//! A worked example: dominoes on a board of two rows and four columns (cells `a1`..`a4` over
//! `b1`..`b4`; an option per domino, its two cells primary items). The search covers `a1`
//! first, by `a1 b1` or by `a1 a2`. Below `a1 b1` it covers `a2`, by `a2 b2` or `a2 a3`; below
//! `a1 a2`, `b1` has one option left, `b1 b2`. Both `a1 b1, a2 b2` and `a1 a2, b1 b2` leave the
//! same set: `a3 a4`, `b3 b4`, `a3 b3`, `a4 b4`, the two columns on the right, every option that
//! reaches into the left ones gone. The first search of it counts 2 and stores that under the
//! four options' bits; the second finds the bits, adds 2, and goes on. The count is 5 either
//! way, and on larger boards the subproblems met again are most of the tree.
//!
//! The table (`memo`) holds signatures end to end, with each count (a `u128`, and for the few that
//! pass 2^128 the words above it: counts pass 2^64 from 14x14 dominoes on, 2^128 from 18x18) and
//! the nodes its search took without the memo (what a later hit saves). The search adds to a `u128`
//! and carries into words above it (`count::Wide`), so that a count of any size costs a carry check
//! per addition until it passes 2^128. The table has a budget of bytes, past which it stores no
//! more. Where subproblems seldom meet again (pentominoes, Langford pairs, queens) a hit saves a
//! few nodes at the bottom of the tree and every node pays for a hash and a lookup, so the memo
//! costs time and memory for nothing: [`Memo::Auto`](crate::Memo::Auto) counts the first nodes with
//! it and keeps it only where the hits already saved many times its nodes (see `Solver::set_memo`).
//!
//! Threads share one table (`memo::Shared`, see `ParallelSolver`), and every other thread tries
//! each level's options last first, so that the threads finish different subproblems first and
//! find each other's. A count that makes a ZDD ([`crate::zdd`]) keeps with each entry the
//! diagram's node for its subproblem: a level that finishes makes a chain of nodes, one per
//! option tried that has solutions below it, as DLX6 does, and a hit takes the node stored. Such
//! a count reads no level off (see the colors above): each option needs its node.
//!
//! # Limits
//!
//! Only counts (up to a limit too) and visits take this path (not the iterator, which pauses
//! between solutions, nor the walks that cut subtrees), and only for a problem without
//! multiplicities, searched without a seed, the last-conflict rule or a cap, of at most
//! [`MAX_OPTIONS`] options and [`MAX_ITEMS`] items; everything else runs on the links. The state
//! is read from the links when a run starts, so forced and excluded options, and a subtree's
//! path, apply as they do there; the links themselves are not touched. The memo counts to the
//! end only (no limit on solutions), exactly however large (see [`Count`]). Problems
//! with multiplicities, whose bounds still open this search does not hold, are counted with the
//! memo by a search of their own on the same tables (`multi`), which makes no ZDD.

use std::collections::HashMap;
use std::ops::ControlFlow;

use crate::count::{Count, Wide};
use crate::index::to_u32;
use crate::links::Links;
use crate::problem::Problem;

use crate::settings::{Budget, CancelFlag, Counting, MemoStats, Stats, StopReason};

mod memo;
mod multi;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

use memo::{Hit, Memory};
pub(crate) use memo::{Shared, Table};

/// `n` as a `u16`: items, and the items of an option, fit in one on this path ([`MAX_ITEMS`]).
#[inline(always)]
fn to_u16(n: usize) -> u16 {
    u16::try_from(n).expect("items fit in u16 on this path")
}

/// At most this many options (so that a level's copy of the possible options stays small).
const MAX_OPTIONS: usize = 4096;

/// At most this many items (so that a level's copy of the lengths stays small, and item indices
/// fit in `u16`).
const MAX_ITEMS: usize = 1024;

/// The length a level keeps for a covered item (and in the padding): never the least.
const INACTIVE: u16 = u16::MAX;

/// Lengths are compared this many at a time.
const LANES: usize = 16;

/// The shape (option words, lengths) the search is compiled for with its sizes known, so that
/// its loops over a level's state are unrolled: problems with at most 256 options and 64 primary
/// items take it.
const SMALL: (usize, usize) = (4, 64);

/// The most words the table of conflicts may take (256 KiB).
const CONFLICT_WORDS: usize = 1 << 15;

/// The matrix as bit sets: what a count on this path reads and never writes.
#[derive(Debug)]
struct Tables {
    /// 64-bit words in a set of options.
    words: usize,
    /// Lengths a level keeps: the primary items, padded to a multiple of [`LANES`].
    lanes: usize,
    n_primary: usize,
    /// Item `k`'s column (layout order, from 0): the options it is in, `words` words from
    /// `k * words`.
    columns: Vec<u64>,
    /// Option `o`'s items (from 0), primary ones first: `items[start..=start + rest]` for
    /// `spans[o]`.
    spans: Vec<Span>,
    items: Vec<u16>,
    /// Each option's conflicts (`words` words from `o * words`), when they take little room
    /// ([`CONFLICT_WORDS`]); empty otherwise. Without colors, the union of its items' columns;
    /// with colors, the options that disagree with it (see [`Tables::new`]).
    conflicts: Vec<u64>,
    /// What a problem with colors needs besides; `None` without colors.
    colors: Option<Colors>,
    /// The primary items (from 0) with bounds other than `1..=1`, whose remaining bounds a
    /// memo's signature holds after the options (see `multi`), two to a word.
    bounded: Vec<u16>,
    /// Words in a memo's signature: `words`, and those of the bounds.
    key_words: usize,
    /// Each primary item's slack (upper minus lower bound), from 0; empty without
    /// multiplicities.
    slack: Vec<u32>,
}

/// The tables of a problem with colors: each option's nodes in the order the links commit them;
/// each item's column as its words that are not 0; and for each secondary item and color given to
/// it (a *pair*), the words of its column that hold options, split into those that agree with
/// the color and those that clash with it. A commit touches only the words of its item's column,
/// which is a small part of the whole in most problems.
#[derive(Debug)]
struct Colors {
    /// Each option's nodes in the option's own order, as [`Tables::items`] holds them sorted:
    /// `nodes[start..=start + rest]` for `spans[o]`. A node is its item (from 0) and its pair, or
    /// [`NO_PAIR`] without a color.
    nodes: Vec<(u16, u32)>,
    /// Item `k`'s column as its words that are not 0 (their index and bits):
    /// `column_words[column_at[k]..column_at[k + 1]]`.
    column_words: Vec<(u32, u64)>,
    column_at: Vec<u32>,
    /// Pair `k`'s column words (index; the options that give the item the pair's color; those
    /// that give it another color or none, which purifying it to the pair's color hides):
    /// `pair_words[pair_at[k]..pair_at[k + 1]]`.
    pair_words: Vec<(u32, u64, u64)>,
    pair_at: Vec<u32>,
    /// 64-bit words in a set of secondary items.
    words: usize,
    /// Each option's secondary items as a set, when they fit in one word (`words == 1`); empty
    /// otherwise.
    secondaries: Vec<u64>,
}

impl Colors {
    /// The tables of a problem with colors, from the dense columns and spans of [`Tables`] and
    /// the nodes in order.
    fn new(
        tables: &Tables,
        nodes: Vec<(u16, u32)>,
        pairs: &HashMap<(u32, u32), u32>,
        n_items: usize,
    ) -> Colors {
        let (w, n_primary) = (tables.words, tables.n_primary);
        let mut column_words = Vec::new();
        let mut column_at = vec![0];
        for k in 0..n_items {
            let column = tables.column(k, w);
            column_words.extend((0..).zip(column).filter(|&(_, &c)| c != 0).map(|(i, &c)| (i, c)));
            column_at.push(to_u32(column_words.len()));
        }
        // Each pair's item and agreeing options, in order.
        let mut items = vec![0; pairs.len()];
        for (&(top, _), &k) in pairs {
            items[k as usize] = top as usize - 1;
        }
        let mut agreeing: Vec<Vec<usize>> = vec![Vec::new(); pairs.len()];
        for (o, span) in tables.spans.iter().enumerate() {
            let span = span.start as usize..=span.start as usize + usize::from(span.rest);
            for &(_, k) in &nodes[span] {
                if k != NO_PAIR {
                    agreeing[k as usize].push(o);
                }
            }
        }
        let mut pair_words = Vec::new();
        let mut pair_at = vec![0];
        let mut agree = vec![0u64; w];
        for (k, options) in agreeing.iter().enumerate() {
            agree.fill(0);
            for &o in options {
                agree[o / 64] |= 1 << (o % 64);
            }
            let column = tables.column(items[k], w);
            let words = (0..).zip(column.iter().zip(&agree)).filter(|&(_, (&c, _))| c != 0);
            pair_words.extend(words.map(|(i, (&c, &g))| (i, g, c & !g)));
            pair_at.push(to_u32(pair_words.len()));
        }
        let words = (n_items - n_primary).div_ceil(64).max(1);
        let mut secondaries = Vec::new();
        if words == 1 {
            secondaries = (0..tables.spans.len())
                .map(|o| {
                    let option = tables.option(o);
                    let secondary = &option[tables.primaries(o)..];
                    secondary.iter().fold(0, |set, &k| set | 1 << (usize::from(k) - n_primary))
                })
                .collect();
        }
        Colors { nodes, column_words, column_at, pair_words, pair_at, words, secondaries }
    }

    /// Option `o`'s nodes in the option's own order, for its span in [`Tables::spans`].
    #[inline(always)]
    fn option_nodes(&self, span: Span) -> &[(u16, u32)] {
        let Span { start, rest, .. } = span;
        &self.nodes[start as usize..=start as usize + usize::from(rest)]
    }

    /// Item `k`'s column words.
    #[inline(always)]
    fn column(&self, k: u16) -> &[(u32, u64)] {
        let k = usize::from(k);
        &self.column_words[self.column_at[k] as usize..self.column_at[k + 1] as usize]
    }

    /// Pair `k`'s column words.
    #[inline(always)]
    fn pair(&self, k: u32) -> &[(u32, u64, u64)] {
        let k = k as usize;
        &self.pair_words[self.pair_at[k] as usize..self.pair_at[k + 1] as usize]
    }
}

/// The pair of a node without a color.
const NO_PAIR: u32 = u32::MAX;

impl Tables {
    /// Whether `problem` is small enough, and without multiplicities, for this path.
    fn fits(problem: &Problem) -> bool {
        !problem.has_multiplicities() && Self::fits_memo(problem)
    }

    /// Whether `problem` is small enough for the memo on this path: with multiplicities, `multi`
    /// counts it.
    fn fits_memo(problem: &Problem) -> bool {
        problem.option_count() <= MAX_OPTIONS && problem.item_count() <= MAX_ITEMS
    }

    /// The words of a set of options and the lengths a level keeps, for `problem`: a small
    /// problem takes the shape the search is compiled for, padded (see [`SMALL`]).
    fn shape(problem: &Problem) -> (usize, usize) {
        let words = problem.option_count().div_ceil(64).max(1);
        let lanes = problem.primary_count().div_ceil(LANES).max(1) * LANES;
        if words <= SMALL.0 && lanes <= SMALL.1 { SMALL } else { (words, lanes) }
    }

    /// The tables of `problem`, which [`fits_memo`](Self::fits_memo).
    fn new(problem: &Problem) -> Tables {
        debug_assert!(Self::fits_memo(problem));
        let n_items = problem.item_count();
        let n_primary = problem.primary_count();
        let n_options = problem.option_count();
        let (words, lanes) = Self::shape(problem);
        let mut columns = vec![0u64; n_items * words];
        let mut spans = Vec::with_capacity(n_options);
        let mut items = Vec::with_capacity(problem.node_count());
        // Options follow the headers and the first spacer, each ended by a spacer (`top == 0`).
        let first = n_items + 2;
        let tops = &problem.tops[first..];
        let pairs = if problem.has_colors() { pairs(problem) } else { HashMap::new() };
        let mut nodes = Vec::new();
        let mut o = 0;
        let mut option: Vec<u16> = Vec::new();
        for (node, &top) in (first..).zip(tops) {
            if top != 0 {
                let k = to_u16(top as usize - 1);
                option.push(k);
                if problem.has_colors() {
                    let pair = pairs.get(&(top, problem.colors[node])).copied().unwrap_or(NO_PAIR);
                    nodes.push((k, pair));
                }
                continue;
            }
            option.sort_unstable_by_key(|&k| usize::from(k) >= n_primary);
            let primaries = option.iter().filter(|&&k| usize::from(k) < n_primary).count();
            spans.push(Span {
                start: to_u32(items.len()),
                rest: to_u16(option.len() - 1),
                primaries: to_u16(primaries),
            });
            for &k in &option {
                columns[usize::from(k) * words + o / 64] |= 1 << (o % 64);
            }
            items.append(&mut option);
            o += 1;
        }
        debug_assert_eq!(o, n_options);
        let bounded: Vec<u16> = (problem.bounds.iter().skip(1).enumerate())
            .filter(|&(_, &b)| b != (1, 1))
            .map(|(k, _)| to_u16(k))
            .collect();
        let key_words = words + bounded.len().div_ceil(2);
        let slack = problem.bounds.iter().skip(1).map(|&(lower, upper)| upper - lower).collect();
        let mut tables = Tables {
            words,
            lanes,
            n_primary,
            columns,
            spans,
            items,
            conflicts: Vec::new(),
            colors: None,
            bounded,
            key_words,
            slack,
        };
        if problem.has_colors() {
            tables.colors = Some(Colors::new(&tables, nodes, &pairs, n_items));
        }
        if n_options * words <= CONFLICT_WORDS && !tests::without_conflicts() {
            let mut conflicts = vec![0u64; n_options * words];
            for (o, union) in conflicts.chunks_exact_mut(words).enumerate() {
                if let Some(colors) = &tables.colors {
                    // The options that disagree with `o`: those that share an item without a
                    // color in `o`, or give one of `o`'s colored items another color or none.
                    for &(k, pair) in colors.option_nodes(tables.spans[o]) {
                        if pair == NO_PAIR {
                            for &(i, c) in colors.column(k) {
                                union[i as usize] |= c;
                            }
                        } else {
                            for &(i, _, c) in colors.pair(pair) {
                                union[i as usize] |= c;
                            }
                        }
                    }
                } else {
                    for &k in tables.option(o) {
                        for (u, &c) in union.iter_mut().zip(tables.column(usize::from(k), words)) {
                            *u |= c;
                        }
                    }
                }
            }
            tables.conflicts = conflicts;
        }
        tables
    }

    /// How many of option `o`'s items are primary.
    #[inline(always)]
    fn primaries(&self, o: usize) -> usize {
        usize::from(self.spans[o].primaries)
    }

    /// Option `o`'s items, primary ones first.
    #[inline(always)]
    fn option(&self, o: usize) -> &[u16] {
        let Span { start, rest, .. } = self.spans[o];
        &self.items[start as usize..=start as usize + usize::from(rest)]
    }

    /// Item `k`'s column; `w` is `self.words`.
    #[inline(always)]
    fn column(&self, k: usize, w: usize) -> &[u64] {
        &self.columns[k * w..(k + 1) * w]
    }
}

/// The pairs of `problem` (see [`Colors`]): each secondary item (its header) with each color an
/// option gives it, numbered from 0.
fn pairs(problem: &Problem) -> HashMap<(u32, u32), u32> {
    let mut pairs = HashMap::new();
    for (&top, &color) in problem.tops.iter().zip(&problem.colors).skip(problem.item_count() + 2) {
        if color != 0 {
            let next = to_u32(pairs.len());
            pairs.entry((top, color)).or_insert(next);
        }
    }
    pairs
}

/// Where an option's items are in [`Tables::items`].
#[derive(Clone, Copy, Debug)]
struct Span {
    start: u32,
    /// The option's items less one: what hiding it counts as updates.
    rest: u16,
    /// How many of its items are primary (they come first).
    primaries: u16,
}

/// How many nodes a count runs on the links before it chooses where to go on (see
/// [`BitSets::decide`]).
pub(crate) const PROBE_NODES: u64 = 1 << 14;

/// A solver's counting on bit sets: whether the problem fits, where counts run, the tables (made
/// at the first count that runs on them) and the levels.
#[derive(Debug)]
pub(crate) struct BitSets {
    /// Whether the problem may be counted on bit sets.
    fits: bool,
    /// Whether the problem may be counted with the memo (on bit sets, by `multi` when it has
    /// multiplicities).
    memo_fits: bool,
    /// Where counts run: [`Counting::Auto`] until a count past [`PROBE_NODES`] chooses.
    choice: Counting,
    /// A level's option words and lengths.
    shape: (usize, usize),
    tables: Option<Box<Tables>>,
    stack: Stack,
    /// The memo of memoized counts, made by the first.
    memo: Option<Box<Table>>,
    /// A memo shared with other threads' solvers, used instead when set.
    shared: Option<std::sync::Arc<Shared>>,
    /// The levels of memoized counts with multiplicities.
    multi: multi::Levels,
}

impl BitSets {
    /// Undecided for a problem that fits, the links otherwise.
    pub(crate) fn new(problem: &Problem) -> BitSets {
        let fits = Tables::fits(problem);
        let choice = if fits { Counting::Auto } else { Counting::Links };
        BitSets {
            fits,
            memo_fits: Tables::fits_memo(problem),
            choice,
            shape: Tables::shape(problem),
            tables: None,
            stack: Stack::default(),
            memo: None,
            shared: None,
            multi: multi::Levels::default(),
        }
    }

    /// Sets where counts run: chosen afresh by the next long count, or on the links, or on bit
    /// sets if the problem fits.
    pub(crate) fn set_counting(&mut self, counting: Counting) {
        self.choice = if self.fits { counting } else { Counting::Links };
    }

    /// Whether the problem may be counted with the memo (on bit sets).
    pub(crate) fn memo_fits(&self) -> bool {
        self.memo_fits
    }

    /// Where counts run ([`Counting::Auto`]: not chosen yet).
    pub(crate) fn choice(&self) -> Counting {
        self.choice
    }

    /// Chooses, from the `nodes` a count on the links made levels for in its first
    /// [`PROBE_NODES`] (those it read off at once left out, see `search`) and their `updates`
    /// and `cleansings`, whether counts run on bit sets from now on: when such a node makes at
    /// least 1.5 updates and cleansings for each word of a level's state (its option words, and
    /// its lengths 16 to a word).
    ///
    /// A node on bit sets costs about that state's size, whatever it does; a node on the links,
    /// about its updates, and with colors its cleansings, each a write undone later as an update
    /// is. The threshold was fitted on problems either side of it, from the 6x10 pentominoes (far
    /// above it) to sudoku (far below); colored problems (edge-matching squares, de Bruijn
    /// cycles, 4x4 and 5x5 word squares) now come out above it. The figures are in
    /// `benches/RESULTS.md`.
    pub(crate) fn decide(&mut self, nodes: u64, updates: u64, cleansings: u64) -> bool {
        let state = (self.shape.0 + self.shape.1 / 16) as u64;
        let work = updates.saturating_add(cleansings);
        let dear = work.saturating_mul(2) >= nodes.saturating_mul(3 * state);
        self.choice = if dear { Counting::BitSets } else { Counting::Links };
        dear
    }

    /// Counts the solutions below the links' current state (the solver's base level), as the
    /// links' search would, into `stats`, on this solver's tables and levels; `Err` when the
    /// budget or the cancel flag stops it first.
    pub(crate) fn count(
        &mut self,
        problem: &Problem,
        links: &Links,
        limits: &Limits<'_>,
        stats: &mut Stats,
    ) -> Result<(), StopReason> {
        let mut none = |_: &[u32]| ControlFlow::Continue(());
        self.search::<false>(problem, links, limits, stats, &mut none).map(|_| ())
    }

    /// [`count`](Self::count) with the memo (see the module docs): the count, exact however
    /// large, which `stats.solutions` holds too. The table,
    /// made at the first such count with a budget of `memory` bytes, is kept for the next (its
    /// entries stay exact whatever the base state: see the module docs).
    /// Without a limit on solutions. With `zdd`, the count makes the ZDD of the solutions too
    /// ([`take_zdd`](Self::take_zdd)), on a table of its own made afresh (its entries name this
    /// count's ZDD nodes). A problem with multiplicities, whose remaining bounds are `bound` (by
    /// layout item), is counted by `multi`, without a ZDD.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn count_memo(
        &mut self,
        problem: &Problem,
        links: &Links,
        bound: Option<&[u32]>,
        limits: &Limits<'_>,
        memory: usize,
        stats: &mut Stats,
        zdd: bool,
    ) -> Result<Count, StopReason> {
        debug_assert!(!(zdd && bound.is_some()), "no ZDD with multiplicities");
        if zdd {
            self.memo = None;
            self.stack.zdd_nodes.clear();
            self.stack.zdd_room = memory / std::mem::size_of::<[u32; 3]>();
        }
        self.stack.zdd = zdd;
        let tables = self.tables.get_or_insert_with(|| Box::new(Tables::new(problem)));
        let memo = match &self.shared {
            Some(shared) if !zdd => Memory::Shared(shared),
            _ => Memory::Own(self.memo.get_or_insert_with(|| Box::new(Table::new(tables.key_words, memory)))),
        };
        if let Some(bound) = bound {
            let backwards = self.stack.backwards;
            let (counted, plain) =
                multi::count(tables, problem, links, bound, &mut self.multi, limits, memo, backwards, stats);
            self.stack.wide = stats.solutions.clone();
            self.stack.plain_nodes = plain;
            return counted;
        }
        let mut none = |_: &[u32]| ControlFlow::Continue(());
        let limits = (limits, &mut none as &mut Show<'_>);
        let result =
            dispatch::<false, true>(tables, problem, links, &mut self.stack, limits, Some(memo), stats);
        self.stack.zdd = false;
        result.map(|_| self.stack.wide.clone())
    }

    /// The ZDD the last count made ([`count_memo`](Self::count_memo) with `zdd`), taken out: its
    /// nodes (the `k`-th numbered `k + 2`: its option as an index of the problem's, the node of
    /// the options tried before it, that of the solutions below it) and its root.
    pub(crate) fn take_zdd(&mut self) -> (Vec<[u32; 3]>, u32) {
        (std::mem::take(&mut self.stack.zdd_nodes), self.stack.zdd_root)
    }

    /// Drops the memo's table (the next memoized count makes a new one).
    pub(crate) fn drop_memo(&mut self) {
        self.memo = None;
    }

    /// The memo's own table, taken out (the next memoized count makes a new one).
    pub(crate) fn take_memo(&mut self) -> Option<Box<Table>> {
        self.memo.take()
    }

    /// Makes memoized counts use `shared` (made for [`key_words`](Self::key_words)) instead of
    /// a table of their own (`None`: their own).
    pub(crate) fn share_memo(&mut self, shared: Option<std::sync::Arc<Shared>>) {
        self.shared = shared;
    }

    /// The words of a memo's keys for `problem` (whose tables this makes if not made yet).
    pub(crate) fn key_words(&mut self, problem: &Problem) -> usize {
        self.tables.get_or_insert_with(|| Box::new(Tables::new(problem))).key_words
    }

    /// The memo's figures, if a memoized count has run on a table of this solver's own; with
    /// the nodes the last count would have taken without the memo.
    pub(crate) fn memo_stats(&self) -> Option<MemoStats> {
        let plain_nodes = self.stack.plain_nodes;
        self.memo.as_ref().map(|memo| MemoStats { plain_nodes, ..memo.figures() })
    }

    /// Makes memoized counts try each level's options last first (see `Stack::backwards`).
    pub(crate) fn set_backwards(&mut self, backwards: bool) {
        self.stack.backwards = backwards;
    }

    /// The nodes the last count would have taken without the memo (saturating).
    pub(crate) fn plain_nodes(&self) -> u64 {
        self.stack.plain_nodes
    }

    /// [`count`](Self::count), or with `VISIT` a visit: shows the solutions below the links'
    /// current state to `solution`, each as the options chosen at the levels above the base
    /// (indices of the problem's options), in the order of the links' search, until it breaks
    /// (`Ok(true)`) or the search ends (`Ok(false)`); with the figures of the links' visit, into
    /// `stats`. `Err` as for `count`.
    pub(crate) fn search<const VISIT: bool>(
        &mut self,
        problem: &Problem,
        links: &Links,
        limits: &Limits<'_>,
        stats: &mut Stats,
        solution: &mut Show<'_>,
    ) -> Result<bool, StopReason> {
        let tables = self.tables.get_or_insert_with(|| Box::new(Tables::new(problem)));
        dispatch::<VISIT, false>(tables, problem, links, &mut self.stack, (limits, solution), None, stats)
    }
}

/// [`search_as`] for the shape of `tables` (the small one compiled with its sizes known, or any)
/// and with or without colors: a visit (`VISIT`), a count, or a count with the memo (`MEMO`).
fn dispatch<const VISIT: bool, const MEMO: bool>(
    tables: &Tables,
    problem: &Problem,
    links: &Links,
    stack: &mut Stack,
    limits: (&Limits<'_>, &mut Show<'_>),
    memo: Option<Memory<'_>>,
    stats: &mut Stats,
) -> Result<bool, StopReason> {
    match ((tables.words, tables.lanes) == SMALL, tables.colors.is_some()) {
        (true, false) => run::<{ SMALL.0 }, { SMALL.1 }, VISIT, false, MEMO>(
            tables, problem, links, stack, limits, memo, stats,
        ),
        (false, false) => run::<0, 0, VISIT, false, MEMO>(tables, problem, links, stack, limits, memo, stats),
        (true, true) => run::<{ SMALL.0 }, { SMALL.1 }, VISIT, true, MEMO>(
            tables, problem, links, stack, limits, memo, stats,
        ),
        (false, true) => run::<0, 0, VISIT, true, MEMO>(tables, problem, links, stack, limits, memo, stats),
    }
}

/// [`search_as`] compiled for the processor's x86-64-v3 features where it has them (see `x86`),
/// for the baseline otherwise.
#[inline(always)]
fn run<const W: usize, const LW: usize, const VISIT: bool, const COLORED: bool, const MEMO: bool>(
    tables: &Tables,
    problem: &Problem,
    links: &Links,
    stack: &mut Stack,
    limits: (&Limits<'_>, &mut Show<'_>),
    memo: Option<Memory<'_>>,
    stats: &mut Stats,
) -> Result<bool, StopReason> {
    #[cfg(target_arch = "x86_64")]
    if x86::has_v3() && !tests::portable() {
        return x86::search_as::<W, LW, VISIT, COLORED, MEMO>(
            tables, problem, links, stack, limits, memo, stats,
        );
    }
    search_as::<W, LW, VISIT, COLORED, MEMO>(tables, problem, links, stack, limits, memo, stats)
}

/// What a visit shows each solution to: the options chosen at the levels above the base.
pub(crate) type Show<'a> = dyn FnMut(&[u32]) -> ControlFlow<()> + 'a;

/// The budget and cancel flag a count runs under, and its limit.
pub(crate) struct Limits<'a> {
    pub(crate) solutions: u64,
    pub(crate) nodes: u64,
    pub(crate) updates: u64,
    pub(crate) cancel: Option<&'a CancelFlag>,
}

impl Limits<'_> {
    /// Why a search that has made `nodes` nodes and `updates` updates stops before its next
    /// node: its budget, or (looked at every 1,024 nodes) the cancel flag; `None` to go on.
    #[inline(always)]
    pub(crate) fn stop(&self, nodes: u64, updates: u64) -> Option<StopReason> {
        if nodes >= self.nodes || updates >= self.updates {
            Some(StopReason::Budget)
        } else if nodes & 1023 == 0 && self.cancel.is_some_and(CancelFlag::is_cancelled) {
            Some(StopReason::Cancelled)
        } else {
            None
        }
    }

    /// A run's limits: at most `solutions`, within `budget` (none: no limit), stopped by `cancel`.
    pub(crate) fn new(solutions: u64, budget: Budget, cancel: Option<&CancelFlag>) -> Limits<'_> {
        Limits {
            solutions,
            nodes: budget.nodes.unwrap_or(u64::MAX),
            updates: budget.updates.unwrap_or(u64::MAX),
            cancel,
        }
    }
}

/// The per-level states of a count.
#[derive(Debug, Default)]
struct Stack {
    /// Possible options on entering each level (`words` a level).
    alive: Vec<u64>,
    /// Options still to try at each level (`words` a level).
    todo: Vec<u64>,
    /// Primary items' lengths on entering each level (`lanes` a level), [`INACTIVE`] for a
    /// covered item and for the padding.
    lens: Vec<u16>,
    /// Whether each level's item had more than one option (a guess).
    guess: Vec<bool>,
    /// The options a level hides.
    hidden: Vec<u64>,
    /// The option tried at each level, while visiting.
    chosen: Vec<u32>,
    /// With colors: the secondary items purified on entering each level (a set of `sw` words a
    /// level), the number of active primary items, and the item chosen.
    purified: Vec<u64>,
    active: Vec<u16>,
    item: Vec<u32>,
    /// With colors, a mark per item, all `None` between uses (see [`agreeing`]).
    marks: Vec<Option<u32>>,
    /// With the memo: each level's signature (the options possible on entering it, `words` a
    /// level), the solutions counted before it was entered, and whether it is to be stored when
    /// it is done (a level looked up and not found).
    key: Vec<u64>,
    entry: Vec<u128>,
    stored: Vec<bool>,
    /// With the memo: the words of the count above its low 128 bits (`solutions`), with each
    /// level's on entering it.
    high: Wide,
    /// With the memo: the nodes the search had taken, and would have without the memo, when each
    /// level was entered.
    entry_nodes: Vec<(u64, u64)>,
    /// The last count, exact.
    wide: Count,
    /// With the memo: whether the count makes a ZDD of the solutions (nodes `zdd_nodes`, the
    /// `k`-th numbered `k + 2`, each an option, the node of the options tried before it at its
    /// level and that of the solutions below it; `zdd_root` the whole's), the ZDD node of each
    /// level so far, and the option each level tries.
    zdd: bool,
    zdd_nodes: Vec<[u32; 3]>,
    /// The most ZDD nodes the count may make: as many bytes as the table may take.
    zdd_room: usize,
    zdd_root: u32,
    znode: Vec<u32>,
    tried: Vec<u32>,
    /// With the memo: whether each level tries its options last first. Threads sharing a table
    /// go opposite ways, so that each meets subproblems the other has finished rather than
    /// counting the same ones at the same time; a count is the same either way.
    backwards: bool,
    /// The nodes the last count would have taken without the memo (saturating).
    plain_nodes: u64,
}

impl Stack {
    /// Room for a search of `tables`, with levels of `w` option words, `lw` lengths and `sw`
    /// words of secondary items, and level 0 cleared. (The levels above are written before they
    /// are read.)
    fn prepare(&mut self, tables: &Tables, w: usize, lw: usize, sw: usize) {
        let depth = tables.n_primary + 1;
        for (v, n) in [(&mut self.alive, w), (&mut self.todo, w), (&mut self.purified, sw)] {
            if v.len() < depth * n {
                v.resize(depth * n, 0);
            }
            v[..n].fill(0);
        }
        if self.lens.len() < depth * lw {
            self.lens.resize(depth * lw, INACTIVE);
        }
        self.lens[..lw].fill(INACTIVE);
        if self.guess.len() < depth {
            self.guess.resize(depth, false);
        }
        if self.active.len() < depth {
            self.active.resize(depth, 0);
        }
        if self.item.len() < depth {
            self.item.resize(depth, 0);
        }
        if self.chosen.len() < depth {
            self.chosen.resize(depth, 0);
        }
        if self.hidden.len() < w {
            self.hidden.resize(w, 0);
        }
        if self.zdd && self.znode.len() < depth {
            self.znode.resize(depth, 0);
            self.tried.resize(depth, 0);
        }
        if self.stored.len() < depth {
            self.stored.resize(depth, false);
            self.entry.resize(depth, 0);
            self.entry_nodes.resize(depth, (0, 0));
        }
    }
}

/// Takes the first option out of `todo` (a set that holds one at least), or the last when
/// `backwards`, and returns it.
#[inline(always)]
fn take_next(todo: &mut [u64], backwards: bool) -> usize {
    if backwards {
        let k = todo.iter().rposition(|&t| t != 0).unwrap_or(0);
        let b = 63 - todo[k].leading_zeros() as usize;
        todo[k] &= !(1u64 << b);
        k * 64 + b
    } else {
        let k = todo.iter().position(|&t| t != 0).unwrap_or(0);
        let x = k * 64 + todo[k].trailing_zeros() as usize;
        todo[k] &= todo[k].wrapping_sub(1);
        x
    }
}

/// Level `l`'s part of a stack of `n` (or `N` when not 0) entries a level.
#[inline(always)]
fn level<T, const N: usize>(v: &[T], l: usize, n: usize) -> &[T] {
    let n = if N > 0 { N } else { n };
    &v[l * n..(l + 1) * n]
}

/// [`level`], mutable.
#[inline(always)]
fn level_mut<T, const N: usize>(v: &mut [T], l: usize, n: usize) -> &mut [T] {
    let n = if N > 0 { N } else { n };
    &mut v[l * n..(l + 1) * n]
}

/// Levels `l` and `l + 1` of a stack.
#[inline(always)]
fn levels_mut<T, const N: usize>(v: &mut [T], l: usize, n: usize) -> (&[T], &mut [T]) {
    let n = if N > 0 { N } else { n };
    let (below, above) = v.split_at_mut((l + 1) * n);
    (&below[l * n..], &mut above[..n])
}

/// [`BitSets::count`] (or with `VISIT` a visit, [`BitSets::search`], whose solutions go to the
/// function beside the limits), for a problem of `W` option words and `LW` lengths, or of any
/// shape when they are 0, and with colors when `COLORED`. Inlined into its callers, so that each
/// is compiled with the processor features its caller has (see `x86`).
#[inline(always)]
fn search_as<const W: usize, const LW: usize, const VISIT: bool, const COLORED: bool, const MEMO: bool>(
    tables: &Tables,
    problem: &Problem,
    links: &Links,
    stack: &mut Stack,
    (limits, visit): (&Limits<'_>, &mut Show<'_>),
    mut memo: Option<Memory<'_>>,
    stats: &mut Stats,
) -> Result<bool, StopReason> {
    let w = if W > 0 { W } else { tables.words };
    let lw = if LW > 0 { LW } else { tables.lanes };
    let sw = tables.colors.as_ref().map_or(0, |c| c.words);
    stack.prepare(tables, w, lw, sw);
    if MEMO {
        if stack.key.len() < (tables.n_primary + 1) * w {
            stack.key.resize((tables.n_primary + 1) * w, 0);
        }
        stack.high.start(tables.n_primary + 1);
    }
    if COLORED && stack.marks.len() < problem.item_count() {
        stack.marks.resize(problem.item_count(), None);
    }
    read_state(tables, problem, links, stack);
    let hidden = &mut stack.hidden[..w];

    let mut nodes = 0u64;
    let mut guesses = 0u64;
    let mut updates = 0u64;
    let mut cleansings = 0u64;
    let mut solutions = 0u128;
    // With the memo: the nodes the subproblems met again would have taken to search again.
    let mut saved = 0u64;
    // A memoized count has no limit, and goes past `u128::MAX`: `solutions` is then its low 128
    // bits, and `stack.high` holds the words above.
    let limit = if MEMO { u128::MAX } else { u128::from(limits.solutions) };
    // With the memo, making a ZDD (see `Stack::zdd`): the ZDD node of the subproblem a level
    // that ends reports to the level above (0: no solution; 1: the empty solution).
    let zdd = MEMO && stack.zdd;
    let mut zsol = 0u32;
    let mut l = 0usize;
    let mut result = Ok(false);
    'search: loop {
        // Enter level `l`: choose an item, or count a solution; `back` when the level ends at once.
        let (i, len) = choose::<LW>(level::<_, LW>(&stack.lens, l, lw));
        if zdd {
            zsol = u32::from(len == INACTIVE);
            stack.znode[l] = 0;
        }
        let back = if len == INACTIVE {
            if MEMO {
                stack.high.add(&mut solutions, 1, None);
            } else {
                // (Below the limit, a `u64`.)
                solutions += 1;
            }
            if VISIT && visit(&stack.chosen[..l]).is_break() {
                result = Ok(true);
                break 'search;
            }
            if !MEMO && solutions >= limit {
                break 'search;
            }
            true
        } else {
            if let Some(reason) = limits.stop(nodes, updates) {
                result = Err(reason);
                break 'search;
            }
            // (A ZDD takes a node for each option of every level: none is read off.)
            let last = COLORED && !VISIT && !zdd && stack.active[l] == 1;
            let pair = COLORED && !VISIT && !zdd && stack.active[l] == 2 && len != 0;
            // With the memo, a level that will be entered (not read off at once) is looked up by
            // its signature: found, its count is added and the level ends; not found, it is
            // stored when it is done.
            let found = if MEMO && len != 0 && !last && !pair {
                let key = level::<_, W>(&stack.alive, l, w);
                let found = memo.as_mut().and_then(|memo| memo.get(key));
                if found.is_none() {
                    level_mut::<_, W>(&mut stack.key, l, w).copy_from_slice(key);
                    stack.entry[l] = solutions;
                    stack.high.mark(l);
                    stack.entry_nodes[l] = (nodes, saved);
                }
                stack.stored[l] = found.is_none();
                found
            } else {
                if MEMO {
                    stack.stored[l] = false;
                }
                None
            };
            if let Some(hit) = found {
                stack.high.add(&mut solutions, hit.count, hit.high.as_deref());
                saved = saved.saturating_add(hit.nodes);
                zsol = hit.zdd;
                true
            } else if last && len != 0 && solutions.saturating_add(u128::from(len)) < limit {
                // The last primary item of a problem with colors: each option left completes a
                // solution, and a count takes them at once, as the links' count does (`search`).
                nodes += u64::from(len);
                if len > 1 {
                    guesses += u64::from(len);
                }
                solutions += u128::from(len);
                true
            } else {
                // The last two primary items of a problem with colors: each option `x` of `i` is a
                // node, and the options of the other that agree with it are the solutions (and
                // nodes) below it, as the links' count reads them off (`search`), up to an `x`
                // below which the search would stop (`from`), where it goes on as the search does.
                let from = if pair {
                    let lens = level::<_, LW>(&stack.lens, l, lw);
                    let alive = level::<_, W>(&stack.alive, l, w);
                    let figures = (&mut nodes, &mut guesses, &mut solutions);
                    let limits = (limits, limit);
                    read_off::<LW>(tables, (lens, alive, &mut stack.marks), (i, len), limits, figures)
                } else {
                    None
                };
                if pair && from.is_none() {
                    true
                } else {
                    if len != 0 {
                        // Cover `i` in place: its options become the ones to try, and are hidden.
                        let alive = level_mut::<_, W>(&mut stack.alive, l, w);
                        let todo = level_mut::<_, W>(&mut stack.todo, l, w);
                        for ((a, t), &c) in alive.iter_mut().zip(todo.iter_mut()).zip(tables.column(i, w)) {
                            *t = c & *a;
                            *a &= !c;
                        }
                        let lens = level_mut::<_, LW>(&mut stack.lens, l, lw);
                        let purified = level::<_, 0>(&stack.purified, l, sw);
                        updates += 1 + hide::<LW, COLORED>(tables, todo, lens, purified);
                        lens[i] = INACTIVE;
                        stack.guess[l] = len > 1;
                        if COLORED {
                            stack.item[l] = to_u32(i);
                        }
                        if let Some(x) = from {
                            // The options before `x` were read off.
                            let todo = level_mut::<_, W>(&mut stack.todo, l, w);
                            todo[..x / 64].fill(0);
                            todo[x / 64] &= !((1u64 << (x % 64)) - 1);
                        }
                    }
                    len == 0
                }
            }
        };
        if back {
            // Leave levels until one has an option left to try.
            loop {
                if l == 0 {
                    break 'search;
                }
                l -= 1;
                if zdd && zsol != 0 {
                    // The option tried at level `l` has solutions below it: a ZDD node for them,
                    // or else the options tried before it (Knuth's DLX6 makes the same).
                    let Ok(id) = u32::try_from(stack.zdd_nodes.len() + 2) else {
                        result = Err(StopReason::Memory);
                        break 'search;
                    };
                    if stack.zdd_nodes.len() >= stack.zdd_room {
                        result = Err(StopReason::Memory);
                        break 'search;
                    }
                    stack.zdd_nodes.push([stack.tried[l], stack.znode[l], zsol]);
                    stack.znode[l] = id;
                }
                if level::<_, W>(&stack.todo, l, w).iter().any(|&t| t != 0) {
                    break;
                }
                if zdd {
                    zsol = stack.znode[l];
                }
                if MEMO && stack.stored[l] {
                    // Level `l` is done: its subproblem's count is known.
                    let key = level::<_, W>(&stack.key, l, w);
                    let (n, s) = stack.entry_nodes[l];
                    let plain = (nodes - n).saturating_add(saved - s);
                    if let Some(memo) = memo.as_mut() {
                        let (count, high) = stack.high.since(l, solutions, stack.entry[l]);
                        memo.insert(key, Hit { count, high, nodes: plain, zdd: zsol });
                    }
                }
            }
        }
        // Try the next option of level `l` (with the memo, maybe the last: `Stack::backwards`).
        let x = take_next(level_mut::<_, W>(&mut stack.todo, l, w), MEMO && stack.backwards);
        if VISIT {
            stack.chosen[l] = to_u32(x);
        }
        if zdd {
            stack.tried[l] = to_u32(x);
        }
        nodes += 1;
        guesses += u64::from(stack.guess[l]);
        let (lens, next_lens) = levels_mut::<_, LW>(&mut stack.lens, l, lw);
        for (n, b) in next_lens.chunks_exact_mut(LANES).zip(lens.chunks_exact(LANES)) {
            n.copy_from_slice(b);
        }
        let (alive, next_alive) = levels_mut::<_, W>(&mut stack.alive, l, w);
        if COLORED {
            let (purified, next_purified) = levels_mut::<_, 0>(&mut stack.purified, l, sw);
            next_purified.copy_from_slice(purified);
            next_alive.copy_from_slice(alive);
            stack.active[l + 1] = stack.active[l] - tables.spans[x].primaries;
            let (u, c) = commit::<LW>(tables, x, stack.item[l], next_alive, next_lens, next_purified);
            updates += u;
            cleansings += c;
        } else {
            // Level `l + 1` starts from level `l`'s state with `x`'s other items covered: the
            // options hidden are those alive in the union of their columns (in which `i`'s are
            // no longer).
            let option = tables.option(x);
            if tables.conflicts.is_empty() {
                hidden.fill(0);
                for &j in option {
                    for (m, &c) in hidden.iter_mut().zip(tables.column(usize::from(j), w)) {
                        *m |= c;
                    }
                }
            } else {
                hidden.copy_from_slice(&tables.conflicts[x * w..(x + 1) * w]);
            }
            for ((m, n), &a) in hidden.iter_mut().zip(next_alive.iter_mut()).zip(alive) {
                *n = a & !*m;
                *m &= a;
            }
            updates += (option.len() - 1) as u64 + hide::<LW, false>(tables, hidden, next_lens, &[]);
            for &j in &option[..tables.primaries(x)] {
                next_lens[lane::<LW>(j)] = INACTIVE;
            }
        }
        l += 1;
    }
    stats.nodes = nodes;
    stats.guesses = guesses;
    stats.updates = updates;
    stack.wide = if MEMO { stack.high.total(solutions) } else { Count::from(solutions) };
    stats.solutions = stack.wide.clone();
    stats.cleansings = cleansings;
    stack.zdd_root = zsol;
    stack.plain_nodes = nodes.saturating_add(saved);
    result
}

/// Reads off a level (its `lens` and `alive` options; `marks` as [`agreeing`] takes them) whose
/// item `i` of `len` options is one of the last two active primary items in a problem with
/// colors: each option `x` of `i` is a node, and the options of the other item that agree with it
/// (see [`agreeing`]) are the solutions, and nodes, below it, added to `figures` (nodes, guesses,
/// solutions). It stops at an `x` below which the search would stop (at the limit, or out of
/// nodes), and returns it: the level goes on from there as the search does (`None`: every option
/// was read off).
#[inline(always)]
fn read_off<const LW: usize>(
    tables: &Tables,
    (lens, alive, marks): (&[u16], &[u64], &mut [Option<u32>]),
    (i, len): (usize, u16),
    (limits, limit): (&Limits<'_>, u128),
    (nodes, guesses, solutions): (&mut u64, &mut u64, &mut u128),
) -> Option<usize> {
    let j = to_u16(other::<LW>(lens, i));
    let column = tables.colors.as_ref().expect("a problem with colors").column(j);
    for (k, word) in alive.iter().zip(tables.column(i, alive.len())).map(|(&a, &c)| a & c).enumerate() {
        let mut m = word;
        while m != 0 {
            let x = k * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            let covers = tables.option(x)[..tables.primaries(x)].contains(&j);
            let below = (!covers).then(|| agreeing(tables, x, column, alive, marks));
            let goes_on = match below {
                None => solutions.saturating_add(1) < limit,
                Some(c) => {
                    *nodes + 1 < limits.nodes && (c == 0 || solutions.saturating_add(u128::from(c)) < limit)
                }
            };
            if !goes_on {
                return Some(x);
            }
            *nodes += 1;
            *guesses += u64::from(len > 1);
            let c = below.unwrap_or(1);
            if below.is_some() {
                *nodes += c;
                if c > 1 {
                    *guesses += c;
                }
            }
            *solutions += u128::from(c);
        }
    }
    None
}

/// The active primary item other than `i`, among lengths of which exactly two are active.
#[inline(always)]
fn other<const LW: usize>(lens: &[u16], i: usize) -> usize {
    lens.iter().enumerate().position(|(k, &len)| k != i && len != INACTIVE).unwrap_or(0)
}

/// How many options in `alive` of `column` (primary item `j`'s, as [`Colors::column`] gives it)
/// agree with option `x` (which does not hold `j`): share no item but secondary ones that both
/// give the same color. They are the options
/// of `j` left after committing `x`, as the links' `agreeing` finds them. With the table of
/// conflicts, a few words; without it, `x`'s items are marked with their pairs in `marks` (one
/// per item, all `None` between calls) and each option read against them.
#[inline(always)]
fn agreeing(
    tables: &Tables,
    x: usize,
    column: &[(u32, u64)],
    alive: &[u64],
    marks: &mut [Option<u32>],
) -> u64 {
    let colors = tables.colors.as_ref().expect("a problem with colors");
    if !tables.conflicts.is_empty() {
        let w = tables.words;
        let conflicts = &tables.conflicts[x * w..(x + 1) * w];
        return column
            .iter()
            .map(|&(k, c)| u64::from((alive[k as usize] & c & !conflicts[k as usize]).count_ones()))
            .sum();
    }
    let nodes = |o: usize| colors.option_nodes(tables.spans[o]);
    for &(k, pair) in nodes(x) {
        marks[usize::from(k)] = Some(pair);
    }
    let mut agreeing = 0;
    for &(k, c) in column {
        let mut m = alive[k as usize] & c;
        while m != 0 {
            let y = k as usize * 64 + m.trailing_zeros() as usize;
            m &= m - 1;
            let agrees = nodes(y)
                .iter()
                .all(|&(k, pair)| marks[usize::from(k)].is_none_or(|p| p != NO_PAIR && p == pair));
            agreeing += u64::from(agrees);
        }
    }
    for &(k, _) in nodes(x) {
        marks[usize::from(k)] = None;
    }
    agreeing
}

/// Commits the nodes of option `x`, chosen for item `i`, as the links do (Knuth's Algorithm C):
/// left to right from the node after `i`'s, each node without a color covers its item, and each
/// node with one purifies its item to its color, unless an option chosen before did. `alive`,
/// `lens` and `purified` are the next level's, copied from this one's. Returns the updates and
/// cleansings the links would count.
#[inline(always)]
fn commit<const LW: usize>(
    tables: &Tables,
    x: usize,
    i: u32,
    alive: &mut [u64],
    lens: &mut [u16],
    purified: &mut [u64],
) -> (u64, u64) {
    let colors = tables.colors.as_ref().expect("a problem with colors");
    let nodes = colors.option_nodes(tables.spans[x]);
    let at = nodes.iter().position(|&(k, _)| u32::from(k) == i).unwrap_or(0);
    let (mut updates, mut cleansings) = (0, 0);
    for &(k, pair) in nodes[at + 1..].iter().chain(&nodes[..at]) {
        let secondary = usize::from(k).wrapping_sub(tables.n_primary);
        if pair == NO_PAIR {
            // Cover `k`: hide the options left in its column.
            updates += 1;
            for &(i, c) in colors.column(k) {
                let a = &mut alive[i as usize];
                let h = *a & c;
                *a &= !c;
                updates += hide_word::<LW, true>(tables, i as usize, h, lens, purified);
            }
            if usize::from(k) < tables.n_primary {
                lens[lane::<LW>(k)] = INACTIVE;
            }
        } else if purified[secondary / 64] & (1 << (secondary % 64)) == 0 {
            // Purify `k`: the options that agree with its color are cleansed, the others hidden.
            cleansings += 1;
            for &(i, g, c) in colors.pair(pair) {
                let a = &mut alive[i as usize];
                cleansings += u64::from((*a & g).count_ones());
                let h = *a & c;
                *a &= !c;
                updates += hide_word::<LW, true>(tables, i as usize, h, lens, purified);
            }
            purified[secondary / 64] |= 1 << (secondary % 64);
        }
    }
    (updates, cleansings)
}

/// Item `j`'s place among `LW` lengths: `j` itself, masked when `LW` is known (`j` is below it),
/// so that the index needs no check.
#[inline(always)]
fn lane<const LW: usize>(j: u16) -> usize {
    if LW > 0 && LW.is_power_of_two() { usize::from(j) & (LW - 1) } else { usize::from(j) }
}

/// Lowers the lengths of the primary items of every option in `hidden`; returns the updates the
/// links would count: each option's nodes but one, less, with colors (`COLORED`), those at items
/// in `purified` (see [`hide_word`]).
#[inline(always)]
fn hide<const LW: usize, const COLORED: bool>(
    tables: &Tables,
    hidden: &[u64],
    lens: &mut [u16],
    purified: &[u64],
) -> u64 {
    let mut updates = 0u64;
    for (k, &word) in hidden.iter().enumerate() {
        updates += hide_word::<LW, COLORED>(tables, k, word, lens, purified);
    }
    updates
}

/// [`hide`] for the options of one word, word `k` of a set: `hidden`. With colors (`COLORED`), an
/// option's nodes at items in `purified` are not counted, as they were cleansed and stay in their
/// lists.
#[inline(always)]
fn hide_word<const LW: usize, const COLORED: bool>(
    tables: &Tables,
    k: usize,
    hidden: u64,
    lens: &mut [u16],
    purified: &[u64],
) -> u64 {
    let mut updates = 0u64;
    let mut m = hidden;
    while m != 0 {
        let o = k * 64 + m.trailing_zeros() as usize;
        m &= m - 1;
        let Span { start, rest, primaries } = tables.spans[o];
        updates += u64::from(rest);
        let start = start as usize;
        let items = &tables.items[start..=start + usize::from(rest)];
        let (primary, secondary) = items.split_at(usize::from(primaries));
        for &j in primary {
            lens[lane::<LW>(j)] -= 1;
        }
        if COLORED {
            // The option's nodes cleansed: those at purified items.
            let sets = tables.colors.as_ref().map_or(&[][..], |c| &c.secondaries[..]);
            if let Some(&set) = sets.get(o) {
                updates -= u64::from((set & purified[0]).count_ones());
            } else {
                for &j in secondary {
                    let t = usize::from(j) - tables.n_primary;
                    updates -= (purified[t / 64] >> (t % 64)) & 1;
                }
            }
        }
    }
    updates
}

/// The earliest primary item of least length, with its length ([`INACTIVE`] when no primary item
/// is active).
#[inline(always)]
fn choose<const LW: usize>(lens: &[u16]) -> (usize, u16) {
    let mut least = [INACTIVE; LANES];
    for chunk in lens.chunks_exact(LANES) {
        for (m, &len) in least.iter_mut().zip(chunk) {
            *m = (*m).min(len);
        }
    }
    let least = least.iter().copied().min().unwrap_or(INACTIVE);
    for (k, chunk) in lens.chunks_exact(LANES).enumerate() {
        // (A fold, not `any`, so that the chunk is compared all at once.)
        if chunk.iter().fold(false, |found, &len| found | (len == least)) {
            let at = chunk.iter().position(|&len| len == least).unwrap_or(0);
            return (k * LANES + at, least);
        }
    }
    (0, least)
}

/// Level 0's state from the links: the options in the lists of active primary items and their
/// lengths; with colors, the secondary items purified and the number of active primary items.
fn read_state(tables: &Tables, problem: &Problem, links: &Links, stack: &mut Stack) {
    let w = tables.words;
    let uds = links.uds();
    stack.active[0] = 0;
    if tables.colors.is_some() {
        let n_primary = tables.n_primary;
        for (t, &color) in links.colors()[n_primary + 1..=links.item_count() as usize].iter().enumerate() {
            if color != 0 {
                stack.purified[t / 64] |= 1 << (t % 64);
            }
        }
    }
    for i in 1..=to_u32(tables.n_primary) {
        if links.is_covered(i) {
            continue;
        }
        stack.active[0] += 1;
        stack.lens[i as usize - 1] = u16::try_from(links.len_of(i)).expect("lengths fit in u16 on this path");
        let mut p = uds[i as usize].down;
        while p != i {
            let o = problem.option_of_node(p).index();
            stack.alive[o / 64] |= 1 << (o % 64);
            p = uds[p as usize].down;
        }
    }
    debug_assert!((0..tables.n_primary).all(|k| {
        let alive = tables.column(k, w).iter().zip(&stack.alive[..w]).map(|(c, a)| (c & a).count_ones());
        stack.lens[k] == INACTIVE || u32::from(stack.lens[k]) == alive.sum::<u32>()
    }));
}

#[cfg(not(test))]
mod tests {
    /// Whether a test asked for the portable search (never, outside the tests).
    #[inline(always)]
    pub(super) fn portable() -> bool {
        false
    }

    /// Whether a test asked for tables without conflicts (never, outside the tests).
    pub(super) fn without_conflicts() -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::PROBE_NODES;
    use crate::{Counting, Problem, ProblemBuilder, Solver, Stats};

    /// Langford pairs: numbers `1..=n` placed twice in `2n` slots, `k` slots apart.
    fn langford(n: usize) -> Problem {
        let mut b = ProblemBuilder::new();
        let numbers: Vec<_> = (1..=n).map(|k| b.primary(format!("{k}")).unwrap()).collect();
        let slots: Vec<_> = (0..2 * n).map(|s| b.primary(format!("s{s}")).unwrap()).collect();
        for k in 1..=n {
            for s in 0..2 * n - k - 1 {
                b.option([numbers[k - 1], slots[s], slots[s + k + 1]]).unwrap();
            }
        }
        b.build()
    }

    /// An empty 9x9 sudoku grid.
    fn sudoku() -> Problem {
        let mut b = ProblemBuilder::new();
        let mut item = |name: String| b.primary(name).unwrap();
        let cells: Vec<_> = (0..81).map(|c| item(format!("p{c}"))).collect();
        let rows: Vec<_> = (0..81).map(|c| item(format!("r{c}"))).collect();
        let cols: Vec<_> = (0..81).map(|c| item(format!("c{c}"))).collect();
        let boxes: Vec<_> = (0..81).map(|c| item(format!("b{c}"))).collect();
        for r in 0..9 {
            for c in 0..9 {
                for d in 0..9 {
                    let bx = r / 3 * 3 + c / 3;
                    b.option([cells[r * 9 + c], rows[r * 9 + d], cols[c * 9 + d], boxes[bx * 9 + d]])
                        .unwrap();
                }
            }
        }
        b.build()
    }

    /// Counts `problem` up to `limit` with each way of counting: the counts, their figures and the
    /// choice the automatic one made.
    fn count_each_way(problem: &Problem, limit: u64) -> (Vec<(u64, Stats)>, Counting) {
        let mut solver = Solver::new(problem);
        let mut counted = Vec::new();
        for counting in [Counting::Links, Counting::BitSets, Counting::Auto] {
            solver.set_counting(counting);
            counted.push((solver.count_up_to(limit).unwrap(), solver.stats()));
            solver.verify_links().unwrap();
        }
        (counted, solver.counting_choice())
    }

    #[test]
    fn dear_nodes_go_on_bit_sets_and_cheap_ones_stay_on_the_links() {
        // Langford n = 11: 35,584 solutions, each pairing with its reversal; 1.7 updates a node
        // for each word of the state.
        let (counted, choice) = count_each_way(&langford(11), u64::MAX);
        assert!(counted[0].1.nodes > PROBE_NODES);
        assert_eq!(counted[0].0, 35_584);
        assert!(counted.iter().all(|c| *c == counted[0]), "{counted:?}");
        assert_eq!(choice, Counting::BitSets);

        // The empty sudoku grid, counted to 30,000: about 10 updates a node for 33 words.
        let (counted, choice) = count_each_way(&sudoku(), 30_000);
        assert!(counted[0].1.nodes > PROBE_NODES);
        assert_eq!(counted[0].0, 30_000);
        assert!(counted.iter().all(|c| *c == counted[0]), "{counted:?}");
        assert_eq!(choice, Counting::Links);
    }

    #[test]
    fn a_short_count_chooses_nothing() {
        let (counted, choice) = count_each_way(&langford(8), u64::MAX);
        assert!(counted[0].1.nodes < PROBE_NODES);
        assert_eq!(counted[0].0, 300);
        assert!(counted.iter().all(|c| *c == counted[0]), "{counted:?}");
        assert_eq!(choice, Counting::Auto);
    }

    /// Visits on bit sets show the links' solutions in the links' order, with the links'
    /// figures: the whole search, one stopped by its visitor, one under a forced option, and a
    /// subtree's (whose solutions begin with its path).
    #[test]
    fn visits_on_bit_sets_show_what_the_links_show() {
        use std::ops::ControlFlow;
        let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/pentominoes3x20.dlx");
        let pentominoes = Problem::parse_dlx(&std::fs::read_to_string(fixture).unwrap()).unwrap();
        for problem in [langford(7), langford(8), pentominoes] {
            let visit = |counting: Counting, stop: usize, force: bool, subtree: bool| {
                let mut solver = Solver::new(&problem);
                solver.set_counting(counting);
                if force {
                    let first = solver.first().unwrap().unwrap();
                    solver.force(first[1]).unwrap();
                }
                let mut seen = Vec::new();
                let mut show = |s: &crate::Solution<'_>| {
                    seen.push(s.to_vec());
                    if seen.len() == stop { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
                };
                let finished = if subtree {
                    // The last subtree with solutions.
                    let split = solver.split(2).unwrap();
                    let subtree = split.subtrees.iter().rev().find(|&t| solver.count_subtree(t).unwrap() > 0);
                    solver.visit_subtree(subtree.unwrap(), &mut show).unwrap()
                } else {
                    solver.visit(&mut show).unwrap()
                };
                solver.verify_links().unwrap();
                (finished, seen, solver.stats())
            };
            for (stop, force, subtree) in
                [(0, false, false), (5, false, false), (0, true, false), (0, false, true)]
            {
                let links = visit(Counting::Links, stop, force, subtree);
                let bits = visit(Counting::BitSets, stop, force, subtree);
                assert!(!links.1.is_empty());
                for solution in &links.1 {
                    // An exact cover: every primary item once, every secondary one at most once.
                    let mut covered = vec![0; problem.item_count()];
                    for &option in solution {
                        problem.option_items(option).for_each(|i| covered[i.index()] += 1);
                    }
                    assert!(
                        problem.items().all(|i| covered[i.index()] == 1
                            || (!problem.is_primary(i) && covered[i.index()] == 0))
                    );
                }
                assert_eq!(links, bits, "stop {stop}, force {force}, subtree {subtree}");
            }
        }
    }

    thread_local! {
        /// Whether this thread's searches on bit sets take the portable build (see `run`).
        static PORTABLE: Cell<bool> = const { Cell::new(false) };
        /// Whether this thread's tables are made without conflicts (see `Tables::new`).
        static WITHOUT_CONFLICTS: Cell<bool> = const { Cell::new(false) };
    }

    /// Whether this thread's searches on bit sets take the portable build.
    pub(super) fn portable() -> bool {
        PORTABLE.with(Cell::get)
    }

    /// Whether this thread's tables are made without conflicts.
    pub(super) fn without_conflicts() -> bool {
        WITHOUT_CONFLICTS.with(Cell::get)
    }

    /// The portable build and the one for the processor's features (where it has them), with
    /// the table of conflicts and without it (as a problem too large for it has), count and visit
    /// alike, plain problems and colored ones (the word squares fixture, whose counts read off
    /// the last two levels with the table or without), with the links' figures.
    #[test]
    fn each_build_of_the_search_agrees_with_the_links() {
        let fixture = |name: &str| {
            let path = format!("{}/../../fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
            Problem::parse_dlx(&std::fs::read_to_string(path).unwrap()).unwrap()
        };
        for (problem, count) in [
            (langford(9), 0),
            (langford(11), 35_584),
            (fixture("pentominoes3x20.dlx"), 8),
            (fixture("word-squares4.dlx"), 17_460),
        ] {
            let mut each = Vec::new();
            for (portable, without) in [(false, false), (true, false), (false, true), (true, true)] {
                PORTABLE.with(|p| p.set(portable));
                WITHOUT_CONFLICTS.with(|p| p.set(without));
                let (counted, _) = count_each_way(&problem, u64::MAX);
                let mut solver = Solver::new(&problem);
                solver.set_counting(Counting::BitSets);
                let mut visited = 0u64;
                solver
                    .visit(&mut |_: &crate::Solution<'_>| {
                        visited += 1;
                        std::ops::ControlFlow::Continue(())
                    })
                    .unwrap();
                each.push((counted, visited, solver.stats()));
            }
            PORTABLE.with(|p| p.set(false));
            WITHOUT_CONFLICTS.with(|p| p.set(false));
            let (counted, visited, _) = &each[0];
            assert_eq!(counted[0].0, count);
            assert_eq!(*visited, count);
            for (counted, _, _) in &each {
                assert!(counted.iter().all(|c| *c == counted[0]), "{counted:?}");
            }
            assert!(each.iter().all(|e| *e == each[0]));
        }
    }
}
