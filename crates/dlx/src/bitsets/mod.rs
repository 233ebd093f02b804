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
//! Two threads count in two bands of levels, each on a table of its own (`band`); more threads
//! share one table (`memo::Shared`, see `ParallelSolver`), and every other thread tries each
//! level's options last first, so that the threads finish different subproblems first and find
//! each other's. A count that makes a ZDD ([`crate::zdd`]) keeps with each entry the
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

use std::ops::ControlFlow;

use crate::choose::rules::Rule;
use crate::count::Count;
use crate::links::Links;
use crate::problem::Problem;
use crate::settings::{Budget, CancelFlag, Counting, MemoStats, Stats, StopReason};

mod band;
mod memo;
mod multi;
mod priced;
mod search;
mod tables;
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86;

pub(crate) use band::{Band, tally as band_tally};
use memo::Memory;
pub(crate) use memo::{Shared, Table};
pub(crate) use priced::{Priced, Run as PricedRun};
use search::{Stack, search_as, take_next};
use tables::{NO_PAIR, Tables};

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
    /// A memo shared with other threads' solvers, used instead when set, and this solver's
    /// claim on it.
    shared: Option<std::sync::Arc<Shared>>,
    claim: memo::Claim,
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
            claim: memo::Claim::default(),
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
        rule: Option<&mut dyn Rule>,
    ) -> Result<(), StopReason> {
        let mut none = |_: &[u32]| ControlFlow::Continue(());
        self.search::<false>(problem, links, (limits, &mut none, rule), stats).map(|_| ())
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
            Some(shared) if !zdd => Memory::Shared(shared, &mut self.claim),
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
        let limits = (limits, &mut none as &mut Show<'_>, None);
        let result =
            dispatch::<false, true>(tables, problem, links, &mut self.stack, limits, Some(memo), stats);
        self.stack.zdd = false;
        result.map(|_| self.stack.wide.clone())
    }

    /// [`count_memo`](Self::count_memo) from `key`, a signature of this problem (which has no
    /// colors nor multiplicities), rather than from the links' state: the lower thread of a count
    /// in two bands (see `band`).
    pub(crate) fn count_key(
        &mut self,
        problem: &Problem,
        links: &Links,
        key: &[u64],
        limits: &Limits<'_>,
        memory: usize,
        stats: &mut Stats,
    ) -> Result<Count, StopReason> {
        self.stack.start.clear();
        self.stack.start.extend_from_slice(key);
        self.stack.from_key = true;
        let counted = self.count_memo(problem, links, None, limits, memory, stats, false);
        self.stack.from_key = false;
        counted
    }

    /// The level from which a count in two bands hands its subproblems over (see `band`): six
    /// elevenths of the depth of a solution, estimated as the primary items over the mean primary
    /// items of an option (the upper thread's nodes are a little cheaper, and its levels near the
    /// root have fewer subproblems: `benches/RESULTS.md`).
    pub(crate) fn band_level(&mut self, problem: &Problem) -> usize {
        let tables = self.tables.get_or_insert_with(|| Box::new(Tables::new(problem)));
        let options = problem.option_count().max(1);
        let primaries: usize = (0..problem.option_count()).map(|o| tables.primaries(o)).sum();
        let depth = tables.n_primary * options / primaries.max(1);
        (depth * 6 / 11).max(1)
    }

    /// Moves this solver's own memo table into `other`'s (its entries hold for any state).
    pub(crate) fn move_memo_to(&mut self, other: &mut BitSets) {
        other.memo = self.memo.take();
    }

    /// Whether the problem has colors (counted on bit sets or not).
    pub(crate) fn colored(&mut self, problem: &Problem) -> bool {
        self.tables.get_or_insert_with(|| Box::new(Tables::new(problem))).colors.is_some()
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
        self.claim = memo::Claim::default();
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
    /// `stats`. `Err` as for `count`. Branches by `rule` (see `choose::rules`) when there is
    /// one, by minimum remaining values otherwise.
    pub(crate) fn search<const VISIT: bool>(
        &mut self,
        problem: &Problem,
        links: &Links,
        (limits, solution, rule): (&Limits<'_>, &mut Show<'_>, Option<&mut dyn Rule>),
        stats: &mut Stats,
    ) -> Result<bool, StopReason> {
        let tables = self.tables.get_or_insert_with(|| Box::new(Tables::new(problem)));
        dispatch::<VISIT, false>(
            tables,
            problem,
            links,
            &mut self.stack,
            (limits, solution, rule),
            None,
            stats,
        )
    }
}

/// [`search_as`] for the shape of `tables` (the small one compiled with its sizes known, or any)
/// and with or without colors: a visit (`VISIT`), a count, or a count with the memo (`MEMO`).
fn dispatch<const VISIT: bool, const MEMO: bool>(
    tables: &Tables,
    problem: &Problem,
    links: &Links,
    stack: &mut Stack,
    limits: (&Limits<'_>, &mut Show<'_>, Option<&mut dyn Rule>),
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
    limits: (&Limits<'_>, &mut Show<'_>, Option<&mut dyn Rule>),
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
    /// The upper thread of a count in two bands: where it hands subproblems over (see `band`).
    pub(crate) band: Option<&'a Band>,
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
            band: None,
        }
    }
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

    /// The cheapest solutions on bit sets, in the portable build and the one for the processor's
    /// features, as on the links: the 3x20 pentominoes with a cost on each placement.
    #[test]
    fn each_build_of_the_priced_search_agrees_with_the_links() {
        let path = format!("{}/../../fixtures/pentominoes3x20.dlx", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines().filter(|l| !l.starts_with('|') && !l.trim().is_empty());
        let mut priced = format!("{}\n", lines.next().unwrap());
        for (k, line) in lines.enumerate() {
            priced += &format!("{line} |{}\n", (k * 37 + 11) % 100);
        }
        let problem = Problem::parse_dlx(&priced).unwrap();
        let mut each = Vec::new();
        for (counting, portable) in
            [(Counting::Links, false), (Counting::BitSets, false), (Counting::BitSets, true)]
        {
            PORTABLE.with(|p| p.set(portable));
            let mut solver = Solver::new(&problem);
            solver.set_counting(counting);
            let best = solver.best(5).unwrap();
            let stats = solver.stats();
            each.push((best, stats.nodes, stats.guesses, stats.solutions));
        }
        PORTABLE.with(|p| p.set(false));
        assert_eq!(each[0].0.len(), 5);
        assert!(each.iter().all(|e| *e == each[0]), "{each:?}");
    }
}
