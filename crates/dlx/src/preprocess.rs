//! Preprocessing: the reductions of Knuth's DLX-PRE, which remove options and items that no
//! solution needs, keeping every solution (and so the count), with the way back from the reduced
//! problem's options to the original ones.
//!
//! # The two reductions
//!
//! Both look at an item `c` with the options that hold `c` without a color (the options *of*
//! `c` here) set aside:
//!
//! 1. **An item that another one brings.** If some primary item `p` then has no option left,
//!    every option of `p` holds `c`: whichever covers `p` covers `c` too. So `c` goes from the
//!    options that hold `p` (they keep the rest), and every other option that holds `c`, with or
//!    without a color, goes: it would leave `p` no option.
//! 2. **An option that blocks a primary item.** Otherwise, for an option `r` of `c`: set aside
//!    also every option that clashes with `r` in another item (that holds the item without a
//!    color, or with another color than `r`'s, or where `r` has none). If some primary item that
//!    `r` does not hold then has no option left, no solution holds `r`, and `r` goes.
//!
//! In sudoku the first is "locked candidates" (when a digit's places in a box all lie in one
//! row, the row's other places lose the digit: the item *row, digit* goes from the box's options)
//! and the second removes a candidate that would leave some unit without a place for a digit.
//!
//! Knuth's example (items `A`–`E` primary, `F`, `G` secondary; options 1 to 6):
//!
//! ```text
//! 1 C E F    2 A D G    3 B C F    4 A D    5 B G    6 D E G
//! ```
//!
//! Item `A`: its options 2 and 4 set aside, no primary item is left empty, and neither blocks
//! one. Item `D`: with 2, 4 and 6 aside, `A` has none left, so `D` goes from 2 and 4, and 6
//! goes. Then `F`, brought by `C`'s options 1 and 3, goes from them; `C`, brought by `E`'s option
//! 1, goes from 1, and 3 goes; `G`, now brought by `B`'s option 5, goes from 5 and 2 goes. A
//! second round changes nothing. Left: primary items `A`, `B`, `E` and the options `A` (from 4),
//! `B` (from 5) and `E` (from 1), whose one solution is options 1, 4 and 5 of the original.
//!
//! # The order, and why it is DLX-PRE's
//!
//! The reductions are applied in rounds, each taking every item still present in the order of
//! the item line (primaries first), until a round changes nothing. Within an item, an option is
//! tried (the second reduction) only where that item is the first one it still holds, and only
//! when it holds it without a color; the options an item blocks go once it is done. Which
//! reduction applies first can change what is left at the end (two items that bring the same
//! third one, say), so this module keeps DLX-PRE's order exactly, and with it its result: the
//! same options and items removed, checked against DLX-PRE on held-out and random problems
//! (`benches/RESULTS.md`). Like DLX-PRE, then, it tries no option whose first item is a colored
//! secondary one (write colored items last in each option to have them all tried).
//!
//! A primary item left without options means there is no solution: the reduced problem is that
//! item alone, without options ([`Reduced::infeasible`]).
//!
//! # The cost
//!
//! DLX-PRE hides and unhides options in dancing links for each option it tries. Here nothing is
//! undone. Options set aside carry a stamp, and each test reads them in one of two ways,
//! whichever reads less on the problem (estimated once, from the items' lengths):
//!
//! - **by counts**: each option that clashes with the one tried is read once, and raises a
//!   counter of each of its items (reset by a new stamp, not by undoing); an item whose counter
//!   reaches its options left is empty. This reads what DLX-PRE's hiding reads, without its
//!   writes.
//! - **on bit sets** (a bit per option for each item, while they take at most 64 MiB): the
//!   options that clash are the union of the sets of the tried option's items, and a primary
//!   item is empty when its set lies within that union and the options set aside. Where items
//!   are long and options few (pentominoes), a few words replace thousands of counts.
//!
//! `benches/RESULTS.md` has the times against DLX-PRE.
//!
//! # Limits
//!
//! Problems with multiplicities are refused ([`PreprocessError::Multiplicities`]): neither
//! reduction holds when an item may be covered more than once, and DLX-PRE reads no bounds.
//!
//! ```
//! use dlx_engine::{Problem, Solver};
//! let text = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
//! let problem: Problem = text.parse().unwrap();
//! let reduced = problem.preprocess().unwrap();
//! assert_eq!(reduced.problem().to_dlx(), "A B E\nE\nA\nB\n");
//! assert_eq!((reduced.removed_options(), reduced.removed_items()), (3, 4));
//! let solution = Solver::new(reduced.problem()).first().unwrap().unwrap();
//! let mut original: Vec<usize> =
//!     reduced.original_solution(&solution).iter().map(|o| o.index() + 1).collect();
//! original.sort();
//! assert_eq!(original, [1, 4, 5]);
//! ```

use std::fmt;
use std::io;
use std::ops::Range;

use crate::index::to_u32;
use crate::settings::CancelFlag;
use crate::{ItemId, OptionId, Problem, ProblemBuilder};

/// Why a problem was not preprocessed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PreprocessError {
    /// The problem has multiplicities, for which neither reduction holds.
    #[error(
        "item {item} may be covered {lower} to {upper} times: preprocessing takes no multiplicities \
         (neither reduction holds for them, and DLX-PRE reads none)"
    )]
    Multiplicities {
        /// The first item with bounds other than `1..=1`.
        item: String,
        /// Its lower bound.
        lower: u32,
        /// Its upper bound.
        upper: u32,
    },
    /// The [`CancelFlag`] was raised.
    #[error("preprocessing was cancelled")]
    Cancelled,
}

/// How far to preprocess: by default to the end (until a round changes nothing).
#[derive(Clone, Debug, Default)]
pub struct Preprocessing {
    /// Stop after this many rounds (DLX-PRE's `t`), whatever is left to remove.
    pub max_rounds: Option<usize>,
    /// Stop, with [`PreprocessError::Cancelled`], when this is raised (checked at every item).
    pub cancel: Option<CancelFlag>,
}

/// A problem after preprocessing ([`Problem::preprocess`]): the reduced problem, which has
/// exactly the solutions of the original (each of its options one of the original's, maybe
/// without some items), and the way back.
#[derive(Clone, Debug)]
pub struct Reduced {
    problem: Problem,
    /// Each reduced option's original option.
    origin: Vec<OptionId>,
    removed_options: usize,
    removed_items: usize,
    rounds: usize,
    infeasible: Option<ItemId>,
}

impl Reduced {
    /// The reduced problem: the items left (primaries, then secondaries, each in the original
    /// layout's order) and the options left, in their original order, each without the items
    /// removed.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The original option of one of the reduced problem's options. Panics if `option` is not of
    /// the reduced problem.
    pub fn original_option(&self, option: OptionId) -> OptionId {
        self.origin[option.index()]
    }

    /// A solution of the reduced problem as the original problem's options (a solution of the
    /// original).
    pub fn original_solution(&self, solution: &[OptionId]) -> Vec<OptionId> {
        solution.iter().map(|&o| self.original_option(o)).collect()
    }

    /// Options of the original problem that are not in the reduced one.
    pub fn removed_options(&self) -> usize {
        self.removed_options
    }

    /// Items of the original problem that are not in the reduced one.
    pub fn removed_items(&self) -> usize {
        self.removed_items
    }

    /// Rounds made, the last of which (when run to the end) changed nothing, as DLX-PRE counts
    /// them.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The primary item (of the original problem) found without options, when there is no
    /// solution: the reduced problem is then that item alone, without options.
    pub fn infeasible(&self) -> Option<ItemId> {
        self.infeasible
    }

    /// Writes the reduced problem in Knuth's `.dlx` format, each option followed by a comment
    /// line `| (from N)` that names its original option (from 1, in the order of the original
    /// problem's options), as DLX-PRE's `v9` writes it.
    pub fn write_dlx(&self, mut out: impl io::Write) -> io::Result<()> {
        write!(out, "{}", Tagged(self))
    }
}

/// The reduced problem with its options' origins, as [`Reduced::write_dlx`] writes it.
struct Tagged<'a>(&'a Reduced);

impl fmt::Display for Tagged<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.0.problem.to_dlx();
        let mut lines = text.lines();
        writeln!(f, "{}", lines.next().unwrap_or_default())?;
        for (line, origin) in lines.zip(&self.0.origin) {
            writeln!(f, "{line}\n| (from {})", origin.index() + 1)?;
        }
        Ok(())
    }
}

impl Problem {
    /// Preprocesses the problem to the end, as Knuth's DLX-PRE does (see the
    /// [module docs](crate::preprocess)).
    pub fn preprocess(&self) -> Result<Reduced, PreprocessError> {
        self.preprocess_with(&Preprocessing::default())
    }

    /// Preprocesses the problem within `settings`: a round limit, a cancel flag.
    pub fn preprocess_with(&self, settings: &Preprocessing) -> Result<Reduced, PreprocessError> {
        if let Some(item) = self.items().find(|&i| self.item_bounds(i) != (1..=1) && self.is_primary(i)) {
            let bounds = self.item_bounds(item);
            return Err(PreprocessError::Multiplicities {
                item: self.item_name(item).to_owned(),
                lower: *bounds.start(),
                upper: *bounds.end(),
            });
        }
        reduce(self, settings, None)
    }
}

/// Preprocesses `problem` on bit sets or by counts as `sets` says, or as pays best when `None`.
fn reduce(
    problem: &Problem,
    settings: &Preprocessing,
    sets: Option<bool>,
) -> Result<Reduced, PreprocessError> {
    let mut state = State::new(problem, sets);
    let outcome = state.run(settings)?;
    Ok(state.reduced(problem, outcome))
}

/// How the rounds ended.
enum Outcome {
    /// Nothing more to remove, or the round limit.
    Done,
    /// This primary item (layout index) has no option left.
    Infeasible(u32),
}

/// The matrix being reduced. Items are layout indices (1-based, primaries first), as in the
/// item line DLX-PRE reads; options are original option numbers (0-based).
struct State {
    n_items: usize,
    n_primary: u32,
    /// Option `k`'s entries are `first[k]..first[k + 1]` of `item` and `color`. An entry whose
    /// item is gone stays, and is skipped ([`gone`](Self::gone)).
    first: Vec<u32>,
    item: Vec<u32>,
    color: Vec<u32>,
    items: Vec<ItemState>,
    /// Each item's options, in their order, with the entry that holds the item (options gone
    /// are dropped lazily).
    list: Vec<Vec<(u32, u32)>>,
    /// Per option: [`GONE`], or the stamp of the pass that set it aside (the item's uncolored
    /// options) or of the test that did (options that clash with the one tried).
    mark: Vec<u32>,
    /// The last stamp given, to a pass or a test.
    stamp: u32,
    /// The options as bit sets, where the tests cost less so ([`Sets`]).
    sets: Option<Sets>,
    removed_options: usize,
    removed_items: usize,
    rounds: usize,
}

/// An option's mark once it is gone.
const GONE: u32 = u32::MAX;

/// An item's count in a test when the option tried holds it.
const MINE: u32 = u32::MAX;

/// What a pass and its tests know of an item.
#[derive(Clone, Copy, Default)]
struct ItemState {
    /// Options left (0: the item is gone).
    len: u32,
    /// Of a primary item, its options not set aside by the current pass (outside passes, `len`);
    /// of a secondary one, [`NEVER`], which no count reaches.
    left: u32,
    /// The test whose `count` this is.
    seen: u32,
    /// Options this test set aside that hold the item, or [`MINE`].
    count: u32,
}

/// The `left` of a secondary item: a test never finds one without options.
const NEVER: u32 = u32::MAX / 2;

impl State {
    fn new(problem: &Problem, sets: Option<bool>) -> State {
        let n_items = problem.item_count();
        let n_options = problem.option_count();
        let n_primary = to_u32(problem.primary_count());
        let mut first = Vec::with_capacity(n_options + 1);
        let (mut item, mut color) = (Vec::new(), Vec::new());
        let mut list = vec![Vec::new(); n_items + 1];
        let mut items = vec![ItemState::default(); n_items + 1];
        for option in problem.options() {
            first.push(to_u32(item.len()));
            for node in problem.option_node_range(option) {
                let top = problem.tops[node];
                if top == 0 {
                    break;
                }
                list[top as usize].push((to_u32(option.index()), to_u32(item.len())));
                items[top as usize].len += 1;
                item.push(top);
                color.push(problem.colors.get(node).copied().unwrap_or(0));
            }
        }
        first.push(to_u32(item.len()));
        for (i, state) in items.iter_mut().enumerate() {
            state.left = if i <= n_primary as usize { state.len } else { NEVER };
        }
        let sets = sets
            .unwrap_or_else(|| Sets::pays(&list, &first, &item, n_primary))
            .then(|| Sets::new(&list, n_options));
        State {
            n_items,
            n_primary,
            first,
            item,
            color,
            items,
            list,
            mark: vec![0; n_options],
            stamp: 0,
            sets,
            removed_options: 0,
            removed_items: 0,
            rounds: 0,
        }
    }

    fn is_primary(&self, item: u32) -> bool {
        item <= self.n_primary
    }

    /// A new stamp for a pass or a test.
    fn next_stamp(&mut self) -> u32 {
        self.stamp += 1;
        self.stamp
    }

    /// Before a pass: once half the stamps are used, every mark but [`GONE`] is cleared and they
    /// start again, so that no old stamp is taken for a new one (a pass takes at most one stamp
    /// per option, and so never runs out).
    fn renew_stamps(&mut self) {
        if self.stamp >= GONE / 2 {
            for mark in self.mark.iter_mut().filter(|m| **m != GONE) {
                *mark = 0;
            }
            for state in &mut self.items {
                state.seen = 0;
            }
            self.stamp = 0;
        }
    }

    /// Option `o`'s entries other than `e`, in DLX-PRE's order: those after `e`, then from the
    /// option's first up to `e` (an option is a cycle). Entries of items gone are among them:
    /// callers skip them ([`gone`](Self::gone)). The ranges borrow nothing, so that the state can
    /// change while they are read.
    fn cycle(&self, o: u32, e: u32) -> std::iter::Chain<Range<u32>, Range<u32>> {
        let (start, end) = (self.first[o as usize], self.first[o as usize + 1]);
        (e + 1..end).chain(start..e)
    }

    /// Whether entry `f`'s item is gone (and so no longer in the entry's option).
    fn gone(&self, f: u32) -> bool {
        self.items[self.item[f as usize] as usize].len == 0
    }

    /// Takes one option away from `item`; false when a primary item has none left (DLX-PRE's
    /// note of an item "in no options": a secondary one is gone, a primary one ends everything).
    fn lose(&mut self, item: u32) -> bool {
        let primary = self.is_primary(item);
        let state = &mut self.items[item as usize];
        state.len -= 1;
        if primary {
            state.left -= 1;
        }
        if state.len == 0 {
            self.removed_items += 1;
            return !primary;
        }
        true
    }

    /// Rounds until nothing changes (or the limit): DLX-PRE's "Reduce the problem".
    fn run(&mut self, settings: &Preprocessing) -> Result<Outcome, PreprocessError> {
        for item in 1..=to_u32(self.n_items) {
            if self.items[item as usize].len == 0 {
                self.removed_items += 1;
                if self.is_primary(item) {
                    return Ok(Outcome::Infeasible(item));
                }
            }
        }
        // DLX-PRE's default limit is its node capacity: in effect none.
        let max_rounds = settings.max_rounds.unwrap_or(usize::MAX);
        let mut blocked = Vec::new();
        while self.rounds < max_rounds {
            self.rounds += 1;
            let mut changed = false;
            for c in 1..=to_u32(self.n_items) {
                if self.items[c as usize].len == 0 {
                    continue;
                }
                if settings.cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
                    return Err(PreprocessError::Cancelled);
                }
                let mark = &self.mark;
                self.list[c as usize].retain(|&(o, _)| mark[o as usize] != GONE);
                self.renew_stamps();
                let pass = self.next_stamp();
                let brought = self.set_aside(c, pass);
                if let Some(p) = brought {
                    self.restore(c);
                    changed = true;
                    if let Some(p) = self.remove_item(c, p) {
                        return Ok(Outcome::Infeasible(p));
                    }
                    continue;
                }
                blocked.clear();
                for k in 0..self.list[c as usize].len() {
                    let (r, e) = self.list[c as usize][k];
                    // Tried where `c` is its first item left, and uncolored.
                    let first = (self.first[r as usize]..e).all(|f| self.gone(f));
                    if !first || self.color[e as usize] != 0 {
                        continue;
                    }
                    let blocks =
                        if self.sets.is_some() { self.blocks_by_sets(r, e) } else { self.blocks(r, e, pass) };
                    if blocks {
                        blocked.push((r, e));
                    }
                }
                self.restore(c);
                if !blocked.is_empty() {
                    changed = true;
                    self.removed_options += blocked.len();
                }
                // DLX-PRE deletes them last marked first.
                while let Some((r, e)) = blocked.pop() {
                    if let Some(p) = self.delete_blocked(r, e) {
                        return Ok(Outcome::Infeasible(p));
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Ok(Outcome::Done)
    }

    /// The first reduction's test: sets `c`'s uncolored options aside (marked `pass`, their
    /// items' `left` lowered) and returns the primary item left without options, if any (the
    /// last one to be, in DLX-PRE's order of hiding).
    fn set_aside(&mut self, c: u32, pass: u32) -> Option<u32> {
        let mut brought = None;
        for k in 0..self.list[c as usize].len() {
            let (o, e) = self.list[c as usize][k];
            if self.color[e as usize] != 0 {
                continue;
            }
            self.mark[o as usize] = pass;
            if let Some(sets) = &mut self.sets {
                sets.aside[o as usize / 64] |= 1 << (o % 64);
            }
            for f in self.cycle(o, e) {
                let i = self.item[f as usize];
                if i > self.n_primary || self.gone(f) {
                    continue;
                }
                let state = &mut self.items[i as usize];
                state.left -= 1;
                if state.left == 0 {
                    brought = Some(i);
                }
            }
        }
        brought
    }

    /// Undoes [`set_aside`](Self::set_aside)'s `left`: the items of `c`'s uncolored options.
    fn restore(&mut self, c: u32) {
        for k in 0..self.list[c as usize].len() {
            let (o, e) = self.list[c as usize][k];
            if self.color[e as usize] != 0 {
                continue;
            }
            if let Some(sets) = &mut self.sets {
                sets.aside[o as usize / 64] &= !(1 << (o % 64));
            }
            let (start, end) = (self.first[o as usize], self.first[o as usize + 1]);
            for f in start..end {
                let i = self.item[f as usize];
                if f != e && i <= self.n_primary && !self.gone(f) {
                    self.items[i as usize].left += 1;
                }
            }
        }
    }

    /// Removes item `c`, brought by `p`: `c` goes from the options that hold `p`, and the
    /// other options of `c` go. Returns a primary item left without options, if any.
    fn remove_item(&mut self, c: u32, p: u32) -> Option<u32> {
        let list = std::mem::take(&mut self.list[c as usize]);
        for &(o, e) in &list {
            if self.mark[o as usize] == GONE {
                continue;
            }
            let holds_p = self.cycle(o, e).any(|f| self.item[f as usize] == p);
            if !holds_p {
                self.kill(o);
                self.removed_options += 1;
                for f in self.cycle(o, e) {
                    if !self.gone(f) && !self.lose(self.item[f as usize]) {
                        return Some(self.item[f as usize]);
                    }
                }
            }
        }
        let state = &mut self.items[c as usize];
        state.len = 0;
        if c <= self.n_primary {
            state.left = 0;
        }
        self.removed_items += 1;
        None
    }

    /// The second reduction's test, `c`'s options set aside by `pass`: whether option `r`
    /// (holding `c` uncolored at entry `e`) leaves some primary item it does not hold without
    /// options. Which item is found first does not matter, so entries are read in any order.
    fn blocks(&mut self, r: u32, e: u32, pass: u32) -> bool {
        let test = self.next_stamp();
        let (start, end) = (self.first[r as usize] as usize, self.first[r as usize + 1] as usize);
        for &i in &self.item[start..end] {
            let state = &mut self.items[i as usize];
            state.seen = test;
            state.count = MINE;
        }
        for f in start..end {
            let cc = self.item[f];
            if f == e as usize || self.items[cc as usize].len == 0 {
                continue;
            }
            let x = self.color[f];
            for &(o, oe) in &self.list[cc as usize] {
                let mark = &mut self.mark[o as usize];
                if *mark == GONE || *mark == pass || *mark == test {
                    continue;
                }
                if x != 0 && self.color[oe as usize] == x {
                    continue;
                }
                *mark = test;
                let (a, b) = (self.first[o as usize] as usize, self.first[o as usize + 1] as usize);
                // The entry in `cc` is the test's own, and items gone never reach `left`.
                for &i in &self.item[a..b] {
                    let state = &mut self.items[i as usize];
                    if state.seen != test {
                        state.seen = test;
                        state.count = 0;
                    } else if state.count == MINE {
                        continue;
                    }
                    state.count += 1;
                    if state.count == state.left {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Marks option `o` gone (and takes it out of its items' sets).
    fn kill(&mut self, o: u32) {
        self.mark[o as usize] = GONE;
        if let Some(sets) = &mut self.sets {
            let (start, end) = (self.first[o as usize] as usize, self.first[o as usize + 1] as usize);
            for &i in &self.item[start..end] {
                sets.holds[i as usize * sets.words + o as usize / 64] &= !(1 << (o % 64));
            }
        }
    }

    /// [`blocks`](Self::blocks) on bit sets: the options that clash with `r` are the union of
    /// its other items' sets (less those that agree with `r`'s color), and `r` blocks a primary
    /// item it does not hold when that item's set lies within them and the options set aside.
    fn blocks_by_sets(&mut self, r: u32, e: u32) -> bool {
        let test = self.next_stamp();
        let Some(sets) = &mut self.sets else { return false };
        let words = sets.words;
        sets.clash.copy_from_slice(&sets.aside);
        let (start, end) = (self.first[r as usize] as usize, self.first[r as usize + 1] as usize);
        for f in start..end {
            let cc = self.item[f] as usize;
            self.items[cc].seen = test;
            if f == e as usize || self.items[cc].len == 0 {
                continue;
            }
            let (lo, hi) = sets.span[cc];
            let holds = &sets.holds[cc * words + lo as usize..cc * words + hi as usize];
            let clash = &mut sets.clash[lo as usize..hi as usize];
            let x = self.color[f];
            if x == 0 {
                for (clash, &h) in clash.iter_mut().zip(holds) {
                    *clash |= h;
                }
            } else {
                // The options that give `cc` another color, or none.
                let other = &mut sets.other[lo as usize..hi as usize];
                other.copy_from_slice(holds);
                for &(o, oe) in &self.list[cc] {
                    if self.color[oe as usize] == x {
                        other[o as usize / 64 - lo as usize] &= !(1 << (o % 64));
                    }
                }
                for (clash, &h) in clash.iter_mut().zip(&*other) {
                    *clash |= h;
                }
            }
        }
        (1..=self.n_primary as usize).any(|p| {
            let state = self.items[p];
            let (lo, hi) = (sets.span[p].0 as usize, sets.span[p].1 as usize);
            state.len != 0
                && state.seen != test
                && sets.holds[p * words + lo..p * words + hi]
                    .iter()
                    .zip(&sets.clash[lo..hi])
                    .all(|(&h, &c)| h & !c == 0)
        })
    }

    /// Deletes option `r`, blocked (found at entry `e`): its other items first, then `e`'s, as
    /// DLX-PRE does. Returns a primary item left without options, if any.
    fn delete_blocked(&mut self, r: u32, e: u32) -> Option<u32> {
        self.kill(r);
        for f in self.cycle(r, e).chain(e..e + 1) {
            if !self.gone(f) && !self.lose(self.item[f as usize]) {
                return Some(self.item[f as usize]);
            }
        }
        None
    }

    /// The reduced problem, from the state left by [`run`](Self::run).
    fn reduced(&self, problem: &Problem, outcome: Outcome) -> Reduced {
        let name = |layout: u32| problem.item_name(problem.item_of_layout(layout));
        let mut b = ProblemBuilder::new();
        let mut origin = Vec::new();
        let infeasible = match outcome {
            Outcome::Infeasible(p) => {
                b.primary(name(p)).expect("a name of the problem");
                Some(problem.item_of_layout(p))
            }
            Outcome::Done => {
                let mut ids = vec![None; self.n_items + 1];
                for i in 1..=to_u32(self.n_items) {
                    if self.items[i as usize].len != 0 {
                        let id = if self.is_primary(i) { b.primary(name(i)) } else { b.secondary(name(i)) };
                        ids[i as usize] = Some(id.expect("a name of the problem"));
                    }
                }
                for (k, &mark) in self.mark.iter().enumerate() {
                    if mark == GONE {
                        continue;
                    }
                    let entries = (self.first[k]..self.first[k + 1]).filter_map(|f| {
                        let id = ids[self.item[f as usize] as usize]?;
                        Some((id, problem.color_name(self.color[f as usize])))
                    });
                    let option = OptionId::from_u32(to_u32(k));
                    let kept = b.option_with_colors(entries).expect("an option of the problem, shortened");
                    b.set_cost(kept, problem.option_cost(option)).expect("the option just added");
                    origin.push(option);
                }
                None
            }
        };
        let (removed_options, removed_items) = match infeasible {
            Some(_) => (problem.option_count(), problem.item_count() - 1),
            None => (self.removed_options, self.removed_items),
        };
        Reduced {
            problem: b.build(),
            origin,
            removed_options,
            removed_items,
            rounds: self.rounds,
            infeasible,
        }
    }
}

/// The options as bit sets, one word per 64 options: each item's options left, the options set
/// aside by the pass, and a test's options that clash. A test then reads a few words per item of
/// the option tried and per primary item, where counting reads every option that clashes: on
/// problems of long items and few options (pentominoes) that is far less.
struct Sets {
    words: usize,
    /// Item `i`'s options left, `words` words from `i * words`.
    holds: Vec<u64>,
    /// The words of `holds` where item `i` had options at the start (the others are 0).
    span: Vec<(u32, u32)>,
    aside: Vec<u64>,
    clash: Vec<u64>,
    /// Scratch: the options of a colored item that clash with the option tried.
    other: Vec<u64>,
}

/// The most memory the sets may take.
const SETS_BYTES: usize = 64 << 20;

impl Sets {
    /// Whether the sets cost less than counting, by the reads of a test of each option: counting
    /// reads the entries of every option that shares an item with it, the sets the words of
    /// each of its items' spans, and a word or two of each primary item's.
    fn pays(list: &[Vec<(u32, u32)>], first: &[u32], item: &[u32], n_primary: u32) -> bool {
        let options = first.len() - 1;
        let words = options.div_ceil(64);
        if list.len().saturating_mul(words).saturating_mul(8) > SETS_BYTES || item.is_empty() {
            return false;
        }
        let size = item.len() as f64 / options as f64;
        let span = |i: usize| match (list[i].first(), list[i].last()) {
            (Some(&(a, _)), Some(&(b, _))) => f64::from(b / 64 - a / 64 + 1),
            _ => 0.0,
        };
        let (mut counting, mut sets) = (0.0, options as f64 * 2.0 * f64::from(n_primary));
        for &i in item {
            counting += list[i as usize].len() as f64 * size;
            sets += span(i as usize);
        }
        sets < counting
    }

    fn new(list: &[Vec<(u32, u32)>], options: usize) -> Sets {
        let words = options.div_ceil(64);
        let mut holds = vec![0u64; list.len() * words];
        let mut span = vec![(0, 0); list.len()];
        for (i, list) in list.iter().enumerate() {
            for &(o, _) in list {
                holds[i * words + o as usize / 64] |= 1 << (o % 64);
            }
            if let (Some(&(first, _)), Some(&(last, _))) = (list.first(), list.last()) {
                span[i] = (first / 64, last / 64 + 1);
            }
        }
        Sets { words, holds, span, aside: vec![0; words], clash: vec![0; words], other: vec![0; words] }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Preprocessing, reduce};
    use crate::testing::problem;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The bit sets remove what the counts remove, option for option (the tests against the
        /// slow reference, in `tests/`, take whichever pays).
        #[test]
        fn sets_reduce_as_counts(problem in problem()) {
            let settings = Preprocessing::default();
            let (sets, counts) = (reduce(&problem, &settings, Some(true)).unwrap(), reduce(&problem, &settings, Some(false)).unwrap());
            prop_assert_eq!(sets.problem(), counts.problem());
            prop_assert_eq!(&sets.origin, &counts.origin);
            prop_assert_eq!(
                (sets.removed_options, sets.removed_items, sets.rounds, sets.infeasible),
                (counts.removed_options, counts.removed_items, counts.rounds, counts.infeasible)
            );
        }
    }
}
