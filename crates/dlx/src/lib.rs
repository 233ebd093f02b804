//! Knuth's Algorithm X over dancing links: a reusable exact-cover engine.
//!
//! An exact-cover problem has *items* and *options*, each option a set of items. A solution is a
//! set of options that covers every *primary* item exactly once and every *secondary* item at most
//! once. Secondary items may also take *colors* in options (Knuth's XCC problems, DLX2): then
//! several chosen options may share a secondary item provided they all give it the same color
//! ([`ProblemBuilder::option_with_colors`], `x:red` in `.dlx` text). Primary items may take
//! *multiplicities*: bounds `a..=b` on how many chosen options cover them (Knuth's MCC problems,
//! DLX3; [`ProblemBuilder::primary_with_bounds`], `a:b|x` in `.dlx` text), each option still
//! chosen at most once and each solution, a set of options, found once. Colors and multiplicities
//! combine, and every capability below works with either or both. Model your problem with a
//! [`ProblemBuilder`] (or read Knuth's `.dlx` text with [`Problem::parse_dlx`]), then search it
//! with a [`Solver`]:
//!
//! ```
//! use dlx_engine::{Problem, Solver};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Knuth's example from dlx1: seven items, six options, one solution.
//! let problem: Problem = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n".parse()?;
//! let mut solver = Solver::new(&problem);
//! assert_eq!(solver.count()?, 1);
//! let solution = solver.first()?.expect("one solution");
//! let mut lines: Vec<String> =
//!     solution.iter().map(|&o| problem.display_option(o).to_string()).collect();
//! lines.sort();
//! assert_eq!(lines, ["A D", "B G", "C E F"]);
//! println!("{} updates", solver.stats().updates);
//! # Ok(()) }
//! ```
//!
//! # What a solver can do
//!
//! * [`Solver::first`], [`Solver::count`], [`Solver::count_up_to`] (limit 2 is the uniqueness
//!   check), a lazy [`Solver::solutions`] iterator of `Result`s, and a [`Visitor`] (or closure,
//!   with [`Solver::for_each`]) that sees each [`Solution`] and may stop the search with
//!   [`ControlFlow::Break`](std::ops::ControlFlow::Break).
//! * [`Stats`] after every run: nodes, guesses, updates, solutions, cleansings.
//! * A [`Budget`] of nodes or updates and a shareable [`CancelFlag`]; a run they cut short returns
//!   [`Interrupted`], never a count that looks complete (the iterator's last item is that error,
//!   so collecting its `Result`s fails).
//! * [`Solver::force`] puts options into every solution before the search (sudoku clues);
//!   [`Solver::exclude`] takes options out (a cell that must hold an even digit, or "a solution
//!   where this cell holds another digit"). Both may be mixed in any order on one undo stack:
//!   [`Solver::undo`] takes back the last, [`Solver::undo_to`] all but the first few, and
//!   [`Solver::reset`] all of them, without rebuilding (where undoing many would cost more, by
//!   copying the initial links and applying the few again).
//! * [`Solver::set_seed`]: reproducible random branching.
//! * [`Solver::set_counting`]: what counts search with. By default a long count of a plain
//!   problem of a few thousand options whose nodes make many updates each (pentominoes, Langford
//!   pairs, queens) goes on over bit sets instead of links, a copy of the state at each level:
//!   the same tree, the same figures, up to several times faster ([`Counting`]).
//! * [`Solver::split`] cuts the search into subtrees, which [`Solver::count_subtree`] and
//!   [`Solver::visit_subtree`] search, on other solvers if need be, with the same solutions in
//!   the same order and figures that add up to one run's. [`ParallelSolver`] does that on every
//!   core, for one [`Shard`] of the tree if asked, with a shared [`Progress`].
//!
//! The [`Problem`] is immutable; each [`Solver`] owns a copy of the links and an explicit stack, so
//! one problem can be searched by many solvers at once, and a solver can search again and again
//! without rebuilding anything. The search is iterative (no recursion): depth is bounded only by
//! memory, and the search can pause between solutions.
//!
//! # The layout (Knuth's dlx1, TAOCP 7.2.2.1)
//!
//! Items are numbered `1..=N` in the matrix, primaries `1..=N₁` first. Flat arrays indexed by
//! `u32` hold it all: item records `0..=N+1` with `left`/`right` links (record 0, the root,
//! heads the list of active primary items; record `N+1` the secondary ones), and nodes, each
//! with a `top`, an `up` and a `down`. Nodes `1..=N` are the item headers (`top` is the length
//! of the item's list, `up`/`down` its last and first option node); node `N+1` is the first
//! spacer; after it come the options, each as consecutive nodes (`top` is the node's item) and
//! a spacer (`top` 0, `up` the first node of the option before it, `down` the last node of the
//! option after it).
//!
//! Knuth's example, items `A`–`G` and options `C E F`, `A D G`, `B C F`, `A D`, `B G`, `D E G`:
//!
//! ```text
//! node: 0  1A  2B  3C  4D  5E  6F  7G |  8  9C 10E 11F | 12 13A 14D 15G | 16 17B 18C 19F | 20 ...
//! top:  -   2   2   2   3   2   2   3 |  0   3   5   6 |  0   1   4   7 |  0   2   3   6 |  0
//! up:   -  21  24  18  27  28  19  29 |  -   3   5   6 |  9   1   4   7 | 13   2   9  11 | 17
//! down: -  13  17   9  14  10  11  15 | 11  18  28  19 | 15  21  22  25 | 19  24   3   6 | 22
//! ```
//!
//! (`A D` is nodes 21–22, `B G` 24–25 and `D E G` 27–29, with spacers 23, 26 and 30.)
//!
//! The [`Problem`] holds exactly this matrix, with two marks in the high bits of a header's
//! `top` (secondary; covered), so that lengths stay below `2^30`: hence [`MAX_NODES`]. A
//! [`Solver`] copies it and *covers* items: takes an item out of its list and *hides* each of
//! its options from the other items' lists. *Uncovering* does exactly the reverse in exactly the
//! reverse order, which restores every link bit for bit: a solver searches again and again
//! without copying. `updates` counts one per item covered and one per node hidden, as dlx1 does.
//!
//! A run that stops early (a first solution, a budget) leaves its levels covered and marks them
//! pending; the next call that needs the links uncovers them first. [`Solver::reset`] and
//! [`Solver::undo_to`], when undoing would cost more than copying the initial links, copy them
//! instead: a sudoku solver that forces the givens, finds a solution and resets pays for
//! neither unwinding the search nor unforcing the givens.
//!
//! # Branching
//!
//! The search branches on the active primary item with the fewest remaining options (minimum
//! remaining values); ties go to the earliest item. [`TieBreak::LastConflict`] instead sends a
//! tie at a guess to the item that most recently ended a branch: far fewer nodes on hard
//! first-solution searches such as sudoku, a little more time on full enumerations. With a seed,
//! ties are broken at random and each item's options are tried in a shuffled order;
//! [`Solver::set_random_ties`] keeps the shuffle but breaks ties as an unseeded run does, which
//! is cheaper.
//!
//! With multiplicities the search is Knuth's Algorithm M (DLX3), and the key is his: the number
//! of ways to branch on the item (its options that leave enough behind them, plus a null move,
//! "no more options", when its lower bound is met), then less slack, then a longer list. An item
//! with bounds `1..=1` keys on its length alone, as above. A chosen option lowers each of its
//! primary items' remaining bound and covers an item when it reaches 0; an option tried for an
//! item that stays active is *tweaked* (taken out of every list, its item's too), so that no
//! deeper level takes it again. On the problems measured it does exactly DLX3's updates and nodes
//! (see `benches/RESULTS.md`).
//!
//! The choice is made cheap without changing it: primary items whose list becomes empty are
//! recorded while covering, so a dead end is found without a scan; otherwise the lengths of all
//! primary items are scanned as an array (a covered item's length carries a mark that keeps it
//! from being picked), a chunk at a time, with SSE4.1 where the processor has it, stopping at
//! the first chunk with an item of length 1. Small problems, and searches with few items left,
//! walk the list of active items instead.
//!
//! # Inside
//!
//! One module per concern: `layout` (the records and marks above), `problem` (the builder), `links`
//! (cover, uncover, hide, unhide, and the record of emptied items: the only module that reads
//! memory unchecked, with every precondition of that checked inside it), `choose` (the choice of
//! item; its SSE4.1 scan in `choose::sse41`, whose only `unsafe` is the call after the run-time
//! check of the processor), `bitsets` (the second engine, counting and visiting on bit sets:
//! `tables` the matrix as sets, `search` the levels and the search, `memo` the memo's table,
//! `multi` the memo's search with multiplicities; its build for x86-64-v3 processors in
//! `bitsets::x86`, whose only `unsafe` is likewise the call after the check), `solver` (`restrict`,
//! `search`, `multi` for Algorithm M, `iter`, `split` for subtrees), `parallel` (every core on one
//! search, shards, progress; `parallel::place`, whose only `unsafe` is the calls to the C
//! library that read and set the processors a thread may run on), `check` (the link checker),
//! `format` (the `.dlx` text), `count` (counts of any size). Each module states its own
//! invariants at its top.
//! Measurements behind the design are in `benches/RESULTS.md`.

#![deny(missing_docs)]
#![deny(unsafe_code)]

pub mod best;
mod bitsets;
mod check;
mod choose;
mod count;
mod excerpt;
mod format;
mod index;
mod layout;
#[allow(unsafe_code)]
mod links;
mod parallel;
pub mod preprocess;
mod problem;
mod settings;
mod solver;
#[cfg(test)]
mod testing;
pub mod zdd;

pub use best::Priced;
pub use count::{Count, ParseCountError, TooLarge};
pub use excerpt::Excerpt;
pub use format::{DlxRead, ParseError, ParseErrorKind};
pub use index::{ItemId, OptionId};
pub use layout::MAX_NODES;
pub use parallel::{
    InvalidShard, MAX_SHARDS, PIECES_PER_THREAD, ParallelSolver, Progress, RESUMABLE_PIECES, SHARD_PIECES,
    Shard,
};
pub use preprocess::{PreprocessError, Preprocessing, Reduced};
pub use problem::{BuildError, Problem, ProblemBuilder};
pub use solver::{
    Branching, BrokenLinks, Budget, CancelFlag, Counting, DEFAULT_MEMO_MEMORY, Estimate, Finished,
    ForceError, Interrupted, MEMO_GAIN, MEMO_PROBE_NODES, MEMO_SECOND_GAIN, MEMO_SECOND_PROBE_NODES, Memo,
    MemoStats, SampleError, Solution, Solutions, Solver, Split, Stats, StopReason, Subtree, TieBreak, Undone,
    UnknownBranching, UnknownTieBreak, Visitor,
};
pub use zdd::{Zdd, ZddError, ZddNode};

// The README's examples and `docs/library.md`'s are run as doctests by `dlx-sudoku`, which has
// both libraries.
