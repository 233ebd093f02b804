//! Knuth's Algorithm X over dancing links: a reusable exact-cover engine.
//!
//! An exact-cover problem has *items* and *options*, each option a set of items. A solution is a
//! set of options that covers every *primary* item exactly once and every *secondary* item at most
//! once. Model your problem with a [`ProblemBuilder`] (or read Knuth's `.dlx` text with
//! [`Problem::parse_dlx`]), then search it with a [`Solver`]:
//!
//! ```
//! use dlx_engine::{Problem, Solver};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Knuth's example from dlx1: seven items, six options, one solution.
//! let problem: Problem = "A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n".parse()?;
//! let mut solver = Solver::new(&problem);
//! assert_eq!(solver.count()?, 1);
//! let solution = solver.first()?.expect("one solution");
//! let mut lines: Vec<String> = solution
//!     .iter()
//!     .map(|&o| problem.option_items(o).map(|i| problem.item_name(i)).collect::<Vec<_>>().join(" "))
//!     .collect();
//! lines.sort();
//! assert_eq!(lines, ["A D", "B G", "C E F"]);
//! println!("{} updates", solver.stats().updates);
//! # Ok(()) }
//! ```
//!
//! # What a solver can do
//!
//! * [`Solver::first`], [`Solver::count`], [`Solver::count_up_to`] (limit 2 is the uniqueness
//!   check), a lazy [`Solver::solutions`] iterator, and a [`Visitor`] (or closure, with
//!   [`Solver::for_each`]) that sees each [`Solution`] and may stop the search with
//!   [`ControlFlow::Break`](std::ops::ControlFlow::Break).
//! * [`Stats`] after every run: nodes, guesses, updates, solutions.
//! * A [`Budget`] of nodes or updates and a shareable [`CancelFlag`]; a run they cut short returns
//!   [`Interrupted`], never a count that looks complete.
//! * [`Solver::force`] puts options into every solution before the search (sudoku clues);
//!   [`Solver::exclude`] takes options out (a cell that must hold an even digit, or "a solution
//!   where this cell holds another digit"). Both may be mixed in any order on one undo stack:
//!   [`Solver::undo`] takes back the last, [`Solver::undo_to`] all but the first few, and
//!   [`Solver::reset`] all of them, without rebuilding (where undoing many would cost more, by
//!   copying the initial links and applying the few again).
//! * [`Solver::set_seed`]: reproducible random branching.
//!
//! The [`Problem`] is immutable; each [`Solver`] owns a copy of the links and an explicit stack, so
//! one problem can be searched by many solvers at once, and a solver can search again and again
//! without rebuilding anything. The search is iterative (no recursion): depth is bounded only by
//! memory, and the search can pause between solutions.
//!
//! # The layout (Knuth's dlx1, TAOCP 7.2.2.1)
//!
//! Items are numbered `1..=N` in the matrix, primaries `1..=N₁` first. Two flat arrays hold it all,
//! indexed by `u32`:
//!
//! * **Item records** `0..=N+1`, with `left`/`right` links. Record 0 (the root) heads the circular
//!   list of active primary items; record `N+1` heads the list of secondary items, which are never
//!   chosen for branching.
//! * **Nodes**, each `(top, up, down)`. Nodes `1..=N` are the item headers: `top` is the length of
//!   the item's list (`len`), `up`/`down` its last and first option node. Node `N+1` is the first
//!   spacer; after it come the options, each as consecutive nodes followed by a spacer. An option
//!   node's `top` is its item and `up`/`down` link it into that item's vertical list. A spacer has
//!   `top == 0`; its `up` is the first node of the option before it and its `down` the last node of
//!   the option after it, so that walking an option cyclically (`p+1, p+2, …`) jumps from its end
//!   back to its start.
//!
//! Knuth's example, items `A`–`G` and options `C E F`, `A D G`, `B C F`, `A D`, `B G`, `D E G`:
//!
//! ```text
//! node:  0   1A  2B  3C  4D  5E  6F  7G |  8   9C 10E 11F | 12  13A 14D 15G | 16  17B 18C 19F | 20 ...
//! top:   -   2   2   2   3   2   2   3  |  0   3   5   6  |  0   1   4   7  |  0   2   3   6  |  0
//! up:    -  21  24  18  27  28  19  29  |  -   3   5   6  |  9   1   4   7  | 13   2   9  11  | 17
//! down:  -  13  17   9  14  10  11  15  | 11  18  28  19  | 15  21  22  25  | 19  24   3   6  | 22
//! ```
//!
//! (`A D` is nodes 21–22, `B G` 24–25 and `D E G` 27–29, with spacers 23, 26 and 30.)
//!
//! The [`Problem`] holds exactly this array. A [`Solver`]'s mutable copy keeps the same nodes,
//! indices and fields (a header's `top` with marks in its high bits), but stores `top` and the
//! `up`/`down` pair in two parallel arrays: the random writes of hiding and unhiding then touch
//! 8 bytes a node instead of 12, which measured 10–15% faster on Langford pairs and pentominoes
//! (the node array of the 6x10 packing no longer fits the first-level cache either way, and the
//! smaller one spills less).
//!
//! **Invariants** (checked by [`Solver::verify_links`]): the item lists are circular and doubly
//! linked (`left(right(i)) == i`); each active item's vertical list is circular and doubly linked,
//! holds exactly `len(i)` nodes, each with `top == i`, in increasing node order; an active option
//! is in the list of each of its active items; the active primary items are as many as counted;
//! a header is marked covered exactly when its item is not active, and secondary exactly when its
//! item is secondary (the marks are high bits of its `top`: see [Branching](#branching)).
//! *Covering* item `i` takes `i` out of its item list, marks its header and *hides* every option
//! in `i`'s list: each of its other nodes leaves its item's list (`len` drops by one).
//! *Uncovering* and *unhiding* do exactly the reverse in exactly the reverse order, which restores
//! every link bit for bit — that is what lets a solver search again without copying. `updates`
//! counts one per item covered and one per node hidden, as dlx1 does.
//!
//! Two shortcuts skip undoing where it would be wasted. A run that stops early (a first solution,
//! a budget) leaves its levels covered and marks them pending; the next call that needs the links
//! uncovers them first. [`Solver::reset`], when the restrictions and the pending levels would cost
//! more to undo than copying the problem's initial links (a copy of about 8 bytes a node), copies
//! them instead. A sudoku solver that forces the givens, finds a solution and resets thus pays
//! for neither unwinding the search nor unforcing the givens.
//!
//! # Branching
//!
//! The search branches on the active primary item with the fewest remaining options (minimum
//! remaining values); ties go to the earliest item. [`TieBreak::LastConflict`] instead sends a
//! tie at a guess to the item that most recently ended a branch: far fewer nodes on hard
//! first-solution searches such as sudoku, a little more time on full enumerations.
//!
//! Choosing is a large share of the time when there are many items (324 in a sudoku), so it is
//! made cheap without changing the choice:
//! * While covering, the search records each primary item whose list becomes empty, on a stack it
//!   truncates when it backtracks. If a recorded item is still active, the branch ends at once,
//!   with nothing covered (every empty item would end it the same way). Recording takes no
//!   branch: each removal writes its item just above the stack, which grows over it only when the
//!   list became empty.
//! * Otherwise the lengths are scanned as an array, not along the list of active items: a covered
//!   item's header carries its length plus `2^31`, so the scan reads the headers of all primary
//!   items in order, a chunk at a time, with no step waiting for the load before it. It stops
//!   after the first chunk that holds an item of length 1, which, no item being empty, is then
//!   the earliest of the shortest. A chunk is sixteen lengths; on x86-64 processors with SSE4.1
//!   (detected at run time) the scan is written with vector instructions, and a chunk is
//!   thirty-two lengths: four per comparison, and one test per chunk for whether it holds
//!   anything shorter than the best so far.
//! * Problems with fewer than 64 primary items, and searches in which fewer than a quarter of
//!   them are still active, walk the list instead, stopping at the first item of length 1: there
//!   the walk is as cheap or cheaper.
//!
//! A secondary item's header carries its length plus `2^30` for good, so that its length never
//! reads as 0 and the record of dead ends needs no test of which kind an emptied item is. With
//! both marks, lengths must stay below `2^30`: hence [`MAX_NODES`].
//!
//! Debug builds check every choice of the earliest shortest item against a walk along the list of
//! active items. [`TieBreak::LastConflict`] then reads up to sixteen more lengths (those of its
//! recent dead ends), and only at guesses.
//!
//! With a seed, ties are broken at random and each item's options are tried in a shuffled order.
//! Breaking ties reads every active length: as an array (for the least, the number of ties, and
//! the tie drawn) where the scan above would be one, along the list otherwise.
//! [`Solver::set_random_ties`] keeps the shuffle but breaks ties as an unseeded run does, so that
//! the choice is as cheap as without a seed.

#![deny(missing_docs)]
#![deny(unsafe_code)]

mod check;
#[allow(unsafe_code)]
mod dance;
mod format;
mod index;
mod problem;
mod solver;

pub use format::{ParseError, ParseErrorKind};
pub use index::{ItemId, OptionId};
pub use problem::{BuildError, MAX_NODES, Problem, ProblemBuilder};
pub use solver::{
    Budget, CancelFlag, Finished, ForceError, Interrupted, Solution, Solutions, Solver, Stats, StopReason,
    TieBreak, Undone, Visitor,
};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
