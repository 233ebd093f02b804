//! What a search is asked and what it reports, apart from the search itself: its limits
//! ([`Budget`], [`CancelFlag`]), how it breaks ties and what it counts on ([`TieBreak`],
//! [`Counting`]), its figures ([`Stats`]) and why it stopped early ([`StopReason`],
//! [`Interrupted`]). The floor below both engines, the links' search (`solver`) and the bit sets
//! (`bitsets`), which share these; it imports nothing of the crate but [`Count`].

use std::sync::Arc;

use crate::count::Count;
use std::sync::atomic::{AtomicBool, Ordering};

/// Effort of the last search run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Search-tree nodes: options tried (forced options are not counted), and, with
    /// multiplicities, null moves (an item that takes no more options).
    pub nodes: u64,
    /// Options tried for an item that had more than one option left (with multiplicities: more
    /// than one way to branch): the nodes that were guesses rather than forced moves.
    pub guesses: u64,
    /// List removals (Knuth's updates): one for each item covered and one for each node hidden.
    /// A count of a problem with colors reads the levels of the last two primary items off
    /// without covering anything: its updates and cleansings are those of the levels it makes,
    /// fewer than a visit's, and its nodes and guesses are the same.
    pub updates: u64,
    /// Solutions found, exact however many (the memo counts past `u128::MAX`).
    pub solutions: Count,
    /// Knuth's cleansings, in problems with colors, counted as DLX2 counts them: one for each
    /// item given a color, and one for each option kept because it gives that item the same
    /// color.
    pub cleansings: u64,
}

impl Stats {
    /// Adds another run's figures to these (the work saturating, the solutions exactly).
    pub fn add(&mut self, other: &Stats) {
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.guesses = self.guesses.saturating_add(other.guesses);
        self.updates = self.updates.saturating_add(other.updates);
        self.solutions += &other.solutions;
        self.cleansings = self.cleansings.saturating_add(other.cleansings);
    }
}

/// Limits on one search run. A run that reaches one stops with [`StopReason::Budget`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Budget {
    /// Stop once this many nodes have been tried.
    pub nodes: Option<u64>,
    /// Stop once this many updates have been made.
    pub updates: Option<u64>,
}

/// How the search breaks ties between equally short items, when not at random (see
/// [`Solver::set_tie_break`]). Either way it branches on an item with the fewest options (minimum
/// remaining values), and finds the same solutions.
///
/// [`Solver::set_tie_break`]: crate::Solver::set_tie_break
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TieBreak {
    /// The earliest item (primary items in the order of declaration), as Knuth's dlx1 does.
    #[default]
    Earliest,
    /// At a guess (two options or more), the tied item that was most recently a dead end (an
    /// empty primary item, chosen, so that the search backtracked), among the run's last sixteen
    /// dead ends, if one of them is tied; the earliest otherwise. An item that has just ended one
    /// branch tends to end the next, so trying it first meets the contradiction sooner: the "last
    /// conflict" rule of constraint solvers. Each run starts with an empty memory, so its
    /// branching depends only on the state it starts from.
    ///
    /// It takes far fewer nodes, and less time, on hard first-solution searches such as sudoku.
    /// Counting every solution, where the whole tree is walked anyway, it saves no nodes and
    /// costs time (keeping the ring): hence not the default. It suits runs that stop early: a
    /// first solution, or a check that there is no second. (The figures are in the project's
    /// `benches/RESULTS.md`.)
    LastConflict,
}

impl TieBreak {
    /// Every rule.
    pub const ALL: [TieBreak; 2] = [TieBreak::Earliest, TieBreak::LastConflict];

    /// The rule's name: `earliest` or `last-conflict`.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::Earliest => "earliest",
            TieBreak::LastConflict => "last-conflict",
        }
    }

    /// What the rule does, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            TieBreak::Earliest => "The earliest item, as Knuth's dlx1 does",
            TieBreak::LastConflict => {
                "At a guess, the item that most recently ended a branch: often far fewer nodes for a \
                 first solution of a hard problem, slightly slower to count every solution"
            }
        }
    }
}

/// The rule with this name, as [`TieBreak::name`] spells it.
impl std::str::FromStr for TieBreak {
    type Err = UnknownTieBreak;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TieBreak::ALL.into_iter().find(|t| t.name() == s).ok_or_else(|| UnknownTieBreak(s.to_owned()))
    }
}

/// The rule that picks the item each node of the search branches on (see
/// [`Solver::set_branching`]). Every rule finds the same solutions and counts; the order they
/// come in, the size of the tree and the time differ. Under every rule an active primary item
/// with no option left ends the branch at once, and otherwise the earliest item with one option
/// is taken; the rules differ on how they rank the items with more.
///
/// [`Solver::set_branching`]: crate::Solver::set_branching
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Branching {
    /// Minimum remaining values: an item with the fewest options, ties broken by the
    /// [`TieBreak`] rule or at random with a seed. Knuth's DLX1, DLX2 and SSXCC.
    #[default]
    Mrv,
    /// Knuth's `#` convention (DLX2-SHARP, DLX3-SHARP): the fewest options among the items whose
    /// names begin with `#`, and among the others only when no `#` item is left with two
    /// options or more. A user marks the items worth branching on first.
    Sharp,
    /// dom/wdeg (Boussemart, Hemery, Lecoutre and Sais, 2004; Knuth's SSXCC-WTD0): the fewest
    /// options divided by the item's weight, which starts at 1 in each run and grows by 1 each
    /// time the search meets the item with no option left.
    Wdeg,
    /// Failure-rate branching (Li, Yin and Li, 2021; Knuth's SSXCC-FRB0): the fewest options
    /// divided by the item's failure rate `(fails + 1/2) / assigns`, where `assigns` is 1 plus
    /// the options of the item tried in the run, and `fails` those below which the next level
    /// met an item with no option left.
    Frb,
}

impl Branching {
    /// Every rule.
    pub const ALL: [Branching; 4] = [Branching::Mrv, Branching::Sharp, Branching::Wdeg, Branching::Frb];

    /// The rule's name: `mrv`, `sharp`, `wdeg` or `frb`.
    pub fn name(self) -> &'static str {
        match self {
            Branching::Mrv => "mrv",
            Branching::Sharp => "sharp",
            Branching::Wdeg => "wdeg",
            Branching::Frb => "frb",
        }
    }

    /// What the rule does, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Branching::Mrv => {
                "The item with the fewest options (minimum remaining values), as Knuth's dlx1 does"
            }
            Branching::Sharp => {
                "The fewest options among items named with a leading '#' first, as Knuth's dlx2-sharp does"
            }
            Branching::Wdeg => {
                "The fewest options divided by a weight that grows each time the item runs out of options \
                 (dom/wdeg)"
            }
            Branching::Frb => {
                "The fewest options divided by the rate at which the item's options lead to a dead end \
                 (failure-rate branching)"
            }
        }
    }

    /// Whether the rule learns from the search as it goes (`wdeg`, `frb`): each run (each piece
    /// of a parallel count) then learns from its own dead ends only, so the tree, though not the
    /// count, depends on how the work is cut.
    pub fn learns(self) -> bool {
        matches!(self, Branching::Wdeg | Branching::Frb)
    }
}

/// The rule with this name, as [`Branching::name`] spells it.
impl std::str::FromStr for Branching {
    type Err = UnknownBranching;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Branching::ALL.into_iter().find(|b| b.name() == s).ok_or_else(|| UnknownBranching(s.to_owned()))
    }
}

/// A name that is none of [`Branching::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown branching rule `{0}` (mrv, sharp, wdeg, frb)")]
pub struct UnknownBranching(pub String);

/// What [`Solver::count`] and [`Solver::count_up_to`] search with, and then
/// [`Solver::visit`] and [`Solver::first`] too (see [`Solver::set_counting`]). The counts, the
/// solutions and their order, and every figure of [`Stats`] are the same either way: the two
/// walk the same tree in the same order; only the time differs.
///
/// [`Solver::best`] follows it too, for a problem without colors or multiplicities of at most
/// 16,384 options (and items times options at most 2^28): on bit sets it walks DLX5's tree
/// with the options numbered by net cost (see the [`best`](crate::best) module), the same
/// nodes, guesses and solutions in the same order, but counts no updates (so a budget of
/// updates keeps it on the links). Under `Auto` its first 1,024 nodes on the links choose, by
/// the updates they made against the words a node reads on bit sets, and the search starts
/// again where they say.
///
/// [`Solver::count`]: crate::Solver::count
/// [`Solver::count_up_to`]: crate::Solver::count_up_to
/// [`Solver::set_counting`]: crate::Solver::set_counting
/// [`Solver::visit`]: crate::Solver::visit
/// [`Solver::first`]: crate::Solver::first
/// [`Solver::best`]: crate::Solver::best
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Counting {
    /// The dancing links, or bit sets where they are faster: a count that runs past 16,384
    /// nodes looks at how many updates its nodes made, and starts again on bit sets if they are
    /// dear beside the bit sets' state. That choice then holds for the solver's later counts.
    /// A count that starts again reports the figures of its second start only, and a budget of
    /// nodes or updates applies to each start.
    #[default]
    Auto,
    /// Always the dancing links, as every other kind of run (iterators, the walks that cut
    /// subtrees).
    Links,
    /// Bit sets from the start, where the problem allows them; the links otherwise.
    ///
    /// Bit sets replace the links for a problem without multiplicities (plain, or with colors)
    /// of at most 4,096 options and 1,024 items, counted without a seed, under
    /// [`TieBreak::Earliest`]. A level's state is then a set of the options still possible, a bit
    /// each, and the length of each primary item's list; hiding an option clears its bit and
    /// lowers the lengths of its primary items, and a level goes back to the state below it
    /// instead of undoing anything. A node costs about the size of that state whatever it does,
    /// so bit sets win where nodes make many updates each (pentominoes, edge-matching squares)
    /// and lose where they make few (sudoku, small word squares); the project's
    /// `benches/RESULTS.md` has the figures.
    BitSets,
}

/// A name that is none of [`TieBreak::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown tie-break rule `{0}` (earliest, last-conflict)")]
pub struct UnknownTieBreak(pub String);

/// A flag that stops searches from another thread. Cheap to clone; all clones share the flag.
///
/// Once set, it stays set until [`clear`](Self::clear): a new run does not reset it. That is on
/// purpose. The flag stands for a request ("stop", from Ctrl-C, a deadline, a user's button)
/// that may come between two runs as well as during one, and a batch of runs sharing it (the
/// records of a file, the pieces of a parallel count) must all see it; a run that cleared it on
/// starting would lose a request made just before. Whoever owns the request clears it.
///
/// ```
/// use dlx_engine::{CancelFlag, Problem, Solver, StopReason};
/// let problem: Problem = "a b\na\nb\na b\n".parse().unwrap();
/// let flag = CancelFlag::new();
/// let mut solver = Solver::new(&problem);
/// solver.set_cancel_flag(Some(flag.clone()));
/// flag.cancel();
/// assert_eq!(solver.count().unwrap_err().reason, StopReason::Cancelled);
/// // Still set for the next run, until cleared.
/// assert_eq!(solver.count().unwrap_err().reason, StopReason::Cancelled);
/// flag.clear();
/// assert_eq!(solver.count().unwrap(), 2);
/// ```
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A new, unset flag.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks every search watching this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) was called (and not [`clear`](Self::clear)ed since).
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Unsets the flag so it can be used again.
    pub fn clear(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// Two flags are equal when they are one flag (clones of each other), whatever their state.
impl PartialEq for CancelFlag {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for CancelFlag {}

/// Whether counts remember the count of each subproblem they meet, and add it when they meet
/// the subproblem again, instead of searching it again (see [`Solver::set_memo`]). Where
/// partial solutions meet again (tilings: two ways to fill the same part of a board leave the
/// same rest to fill), this counts in seconds what no enumeration could; where they seldom do
/// (most puzzles), it costs memory and time for nothing.
///
/// [`Solver::set_memo`]: crate::Solver::set_memo
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Memo {
    /// The memo where a count's first nodes show that it pays (see [`Solver::set_memo`]).
    ///
    /// [`Solver::set_memo`]: crate::Solver::set_memo
    #[default]
    Auto,
    /// Always the memo, where the problem allows it.
    Always,
    /// Never the memo: every solution is visited to be counted.
    Never,
}

impl Memo {
    /// Every setting.
    pub const ALL: [Memo; 3] = [Memo::Auto, Memo::Always, Memo::Never];

    /// The name the command line gives it.
    pub fn name(self) -> &'static str {
        match self {
            Memo::Auto => "auto",
            Memo::Always => "always",
            Memo::Never => "never",
        }
    }

    /// What the setting does, in a few words (for help texts).
    pub fn description(self) -> &'static str {
        match self {
            Memo::Auto => {
                "The memo where the first nodes of the count show that subproblems meet again \
                 (tilings), plain search otherwise"
            }
            Memo::Always => "The memo whenever the problem allows it",
            Memo::Never => "Plain search: every solution visited",
        }
    }
}

/// The figures of a memoized count's table (see [`Memo`]), as Knuth's DLX6 closes with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MemoStats {
    /// Subproblems stored.
    pub entries: u64,
    /// Subproblems met again, whose count was taken from the table.
    pub hits: u64,
    /// Subproblems looked up and not found (searched, then stored).
    pub misses: u64,
    /// Bytes the table takes.
    pub bytes: u64,
    /// Subproblems not stored because the table was at its budget of memory.
    pub dropped: u64,
    /// The nodes the last count would have taken without the memo (saturating at `u64::MAX`):
    /// its nodes, and those of every subproblem it took from the table.
    pub plain_nodes: u64,
}

/// Why a search stopped before it had seen everything it was asked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The [`Budget`] ran out.
    Budget,
    /// The [`CancelFlag`] was set.
    Cancelled,
    /// The count passed `u64::MAX`, which [`Solver::count`] cannot return:
    /// [`Solver::count_exact`] returns it, however large.
    ///
    /// [`Solver::count`]: crate::Solver::count
    /// [`Solver::count_exact`]: crate::Solver::count_exact
    Overflow,
    /// A ZDD ([`Solver::zdd`]) outgrew the memo's budget of bytes, which bounds the diagram's
    /// nodes as much as the table.
    ///
    /// [`Solver::zdd`]: crate::Solver::zdd
    Memory,
}

/// A search cut short by its budget or by cancellation: what it found is not the whole answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("search {} after {solutions} solution(s)", match reason {
    StopReason::Budget => "ran out of budget",
    StopReason::Cancelled => "was cancelled",
    StopReason::Overflow => "counted past 2^64 - 1, the most `count` returns (`count_exact` returns more)",
    StopReason::Memory => "made a ZDD larger than the memo's budget of bytes",
})]
pub struct Interrupted {
    /// Why it stopped.
    pub reason: StopReason,
    /// Solutions seen before it stopped (a lower bound, not the count).
    pub solutions: Count,
}
