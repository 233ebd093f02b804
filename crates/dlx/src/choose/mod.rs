//! The choice of item at each node of the search: the one place that decides it ([`Chooser`]),
//! minimum remaining values with its tie-breaks and the scans of lengths that make it cheap,
//! and the other rules (`rules`).
//!
//! By default the search branches on the active primary item with the fewest remaining options;
//! ties go to the earliest item, or under `TieBreak::LastConflict` (at a guess) to a recent dead
//! end, or with a seed to a random one. A [`Branching`](crate::Branching) other than MRV hands
//! the choice to its rule's type (see `rules`). The choice never changes what is found, only
//! the order and the size of the search tree.
//!
//! Choosing is a large share of the time when there are many items (324 in a sudoku), so it is
//! made cheap without changing the choice:
//! * A dead end known from the record of emptied items (see `links`) is taken at once, with no
//!   scan: any empty item ends the branch the same way.
//! * Otherwise the lengths are scanned as an array, not along the list of active items (whose
//!   every step waits for the load before it): a covered item's header carries its length plus
//!   `COVERED`, so the scan reads the headers of all primary items in order, a chunk at a time.
//!   It stops after the first chunk that holds an item of length 1, which, no item being empty,
//!   is then the earliest of the shortest. On x86-64 processors with SSE4.1 (detected at run
//!   time) the scan runs with vector instructions (the `sse41` module).
//! * Problems with fewer than [`ARRAY_SCAN_FROM`] primary items, and searches in which fewer
//!   than a quarter of them are still active, walk the list instead, stopping at the first item
//!   of length 1: there the walk is as cheap or cheaper.
//!
//! Debug builds check every choice of the earliest shortest item against a walk along the list
//! of active items.

use crate::index::to_u32;
use crate::layout::{COVERED, LEN_MASK};
use crate::links::LinksMut;
use crate::{Branching, Problem};

pub(crate) mod rules;
#[cfg(target_arch = "x86_64")]
mod sse41;

use rules::Rule;

/// What decides the item each node branches on: the [`Branching`] rule, with minimum remaining
/// values' tie-break ([`Recent`]) or another rule's type and what it learned. The searches on
/// the links (plain, colored, with multiplicities) ask it, and tell it of their dead ends and
/// tries when the rule learns.
#[derive(Debug)]
pub(crate) struct Chooser {
    branching: Branching,
    /// Minimum remaining values' last-conflict tie-break.
    pub(crate) recent: Recent,
    /// The rule's type, for a rule other than minimum remaining values.
    rule: Option<Box<dyn Rule>>,
}

impl Chooser {
    /// Minimum remaining values, ties to the earliest.
    pub(crate) fn new() -> Chooser {
        Chooser { branching: Branching::Mrv, recent: Recent::new(), rule: None }
    }

    /// Branches by `branching` on `problem` from the next run on.
    pub(crate) fn set(&mut self, branching: Branching, problem: &Problem) {
        self.branching = branching;
        self.rule = match branching {
            Branching::Mrv => None,
            Branching::Sharp => Some(Box::new(rules::Sharp::new(problem))),
            Branching::Wdeg => Some(Box::new(rules::Wdeg::new(problem))),
            Branching::Frb => Some(Box::new(rules::Frb::new(problem))),
        };
    }

    /// The rule.
    pub(crate) fn branching(&self) -> Branching {
        self.branching
    }

    /// Whether the rule is minimum remaining values (the bit sets and the memo branch only so).
    pub(crate) fn is_mrv(&self) -> bool {
        self.rule.is_none()
    }

    /// Whether the rule learns from dead ends and tries (the search tells it of them only then).
    pub(crate) fn learns(&self) -> bool {
        self.rule.as_ref().is_some_and(|r| r.learns())
    }

    /// The rule's type, for a rule other than minimum remaining values: for the bit sets, which
    /// choose by it (`Rule::least_among` at a guess) and tell it what it learns from.
    pub(crate) fn rule_mut(&mut self) -> Option<&mut dyn Rule> {
        self.rule.as_deref_mut().map(|r| r as &mut dyn Rule)
    }

    /// A new run: forgets the dead ends and what the rule learned.
    pub(crate) fn forget(&mut self) {
        self.recent.forget();
        if let Some(rule) = self.rule.as_mut() {
            rule.forget();
        }
    }

    /// The item to branch on (see [`choose`] and `rules`).
    #[inline(always)]
    pub(crate) fn item(&self, links: &LinksMut<'_>, from: usize) -> u32 {
        match &self.rule {
            None => {
                let chosen = choose(links, &self.recent, from);
                // The rules' general scan, scoring by length, agrees with the fast one (on any
                // empty item for a dead end).
                debug_assert!(
                    self.recent.enabled || {
                        let general = rules::Mrv.choose(links, from);
                        general == chosen || (links.len(chosen) == 0 && links.len(general) == 0)
                    }
                );
                chosen
            }
            Some(rule) => rule.choose(links, from),
        }
    }

    /// The item to branch on with multiplicities, and its ways (see [`choose_multi`]).
    #[inline(always)]
    pub(crate) fn item_multi(
        &self,
        links: &LinksMut<'_, false>,
        bound: &[u32],
        slack: &[u32],
        draw: Option<&mut dyn FnMut(u32) -> u32>,
    ) -> (u32, u32) {
        match &self.rule {
            None => {
                let at_random = draw.is_some();
                let chosen = choose_multi(links, bound, slack, &self.recent, draw);
                debug_assert!(
                    self.recent.enabled
                        || at_random
                        || chosen == rules::Mrv.choose_multi(links, bound, slack)
                );
                chosen
            }
            Some(rule) => rule.choose_multi(links, bound, slack),
        }
    }

    /// The search chose `item`, which had no option left, below an option of `parent` (0 at
    /// the run's first level).
    #[inline(always)]
    pub(crate) fn dead_end(&mut self, item: u32, parent: u32) {
        self.recent.note_dead_end(item);
        if let Some(rule) = self.rule.as_mut() {
            rule.dead_end(item, parent);
        }
    }

    /// The search tried `times` more options of `item` (called only when the rule learns).
    #[inline(always)]
    pub(crate) fn tried(&mut self, item: u32, times: u32) {
        if let Some(rule) = self.rule.as_mut() {
            rule.tried(item, times);
        }
    }
}

/// Lengths are compared this many items at a time by the portable scan (a 64-byte cache line).
const CHUNK: usize = 16;

/// From this many primary items on, the choice of item scans the lengths as an array.
const ARRAY_SCAN_FROM: u32 = 64;

/// How many of a run's latest dead ends the last-conflict rule remembers; a power of two, so
/// that the count of them may wrap around. (16 was the smallest ring with the fewest nodes on
/// sudoku: see `benches/RESULTS.md`.)
pub(crate) const RECENT: usize = 16;
const _: () = assert!(RECENT.is_power_of_two());

/// The latest dead ends a run backtracked from (empty primary items it chose), for
/// `TieBreak::LastConflict`: a ring, 0 (the root) where there are fewer. The `k`-th since the
/// ring was last cleared is at `k % RECENT`; `count` counts them, and past `u32::MAX` goes back
/// to `RECENT`, not 0, so that it still tells which places are filled.
#[derive(Clone, Debug)]
pub(crate) struct Recent {
    ring: [u32; RECENT],
    count: u32,
    /// Whether ties at guesses go to a recent dead end; if not, the ring is not kept either.
    enabled: bool,
}

impl Recent {
    /// An empty ring, the rule off.
    pub(crate) fn new() -> Recent {
        Recent { ring: [0; RECENT], count: 0, enabled: false }
    }

    /// Turns the last-conflict rule on or off.
    pub(crate) fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
    }

    /// Whether the last-conflict rule is on.
    pub(crate) fn enabled(&self) -> bool {
        self.enabled
    }

    /// Empties the ring: each run breaks ties by its own dead ends only.
    pub(crate) fn forget(&mut self) {
        self.ring = [0; RECENT];
        self.count = 0;
    }

    /// Remembers `x`, an empty primary item the search chose, and so backtracks from. The items
    /// emptied on the way while covering are not remembered (that gave more nodes: see
    /// `benches/RESULTS.md`).
    #[inline(always)]
    pub(crate) fn note_dead_end(&mut self, x: u32) {
        if self.enabled {
            self.ring[self.count as usize % RECENT] = x;
            // `u32::MAX + 1` and `RECENT` name the same place.
            self.count = self.count.checked_add(1).unwrap_or_else(|| to_u32(RECENT));
        }
    }
}

/// Minimum remaining values: an active primary item with the shortest list (0 when no primary
/// item is left). On ties, the earliest item; under the last-conflict rule, at a guess (shortest
/// length 2 or more), the tied item that was most recently a dead end, if there is one.
///
/// `from` is where the items emptied since the previous choice start in the record: when one of
/// them is still active, the newest such is taken at once. Otherwise no active item is empty, so
/// the scan can stop at the first item of length 1.
#[inline(always)]
pub(crate) fn choose(links: &LinksMut<'_>, recent: &Recent, from: usize) -> u32 {
    let chosen = match links.emptied_since(from) {
        Some(z) => z,
        None => scan(links),
    };
    debug_assert!(agrees_with_full_scan(links, chosen), "MRV shortcut chose {chosen}");
    if recent.enabled { prefer_recent(links, recent, chosen) } else { chosen }
}

/// The tie-break at a guess: given `earliest`, the earliest active primary item of least length,
/// the newest of the ring's dead ends that is active with that same length, if the length is 2
/// or more and there is one; `earliest` otherwise.
///
/// An item that has just ended one branch, left without options, is likely to end the next (the
/// "last conflict" rule of constraint solvers), so branching on it first finds the contradiction
/// sooner. It reads the lengths of the ring's filled places only, and only at guesses: a run
/// with few dead ends pays little for it.
#[inline(always)]
fn prefer_recent(links: &LinksMut<'_>, recent: &Recent, earliest: u32) -> u32 {
    // (When no item is left, `earliest` is the root, whose `top` is 0.)
    let len = links.header(earliest);
    if len < 2 {
        return earliest;
    }
    let count = recent.count as usize;
    for k in 1..=count.min(RECENT) {
        let item = recent.ring[count.wrapping_sub(k) % RECENT];
        // Equal to `len` only for an active item (a covered one carries `COVERED`), never for
        // the root, 0, which stands in an empty place of the ring.
        if links.header(item) == len {
            return item;
        }
    }
    earliest
}

/// The earliest active primary item of least length (0 when none is active): an array scan with
/// many active primary items, a walk along the list with few.
#[inline(always)]
pub(crate) fn scan(links: &LinksMut<'_>) -> u32 {
    if walks(links) {
        return walk(links);
    }
    least_position(links.primary_tops()).map_or(0, |k| to_u32(k + 1))
}

/// Whether the choice of item walks the list of active items rather than scanning the lengths as
/// an array: with few primary items, or few of them active (the crossover was measured: see
/// `benches/RESULTS.md`).
#[inline(always)]
pub(crate) fn walks(links: &LinksMut<'_>) -> bool {
    links.primary_count() < ARRAY_SCAN_FROM || links.active() * 4 < links.primary_count()
}

/// The earliest active primary item of least length, walking the list of active items; stops at
/// the first of length 1 or less.
#[inline(always)]
fn walk(links: &LinksMut<'_>) -> u32 {
    let mut best = u32::MAX;
    let mut chosen = 0;
    for (item, len) in links.active_primaries() {
        if len < best {
            best = len;
            chosen = item;
            if len <= 1 {
                break;
            }
        }
    }
    chosen
}

/// Debug check of [`choose`]: any shortest item will do for a dead end (length 0); otherwise it
/// must be the earliest.
fn agrees_with_full_scan(links: &LinksMut<'_>, chosen: u32) -> bool {
    is_shortest(links, chosen) && (links.header(chosen) == 0 || chosen == shortest_by_walk(links).1)
}

/// For the debug checks: the least length of an active primary item, and the earliest item of
/// that length, by a walk along all of them (`(u32::MAX, 0)` when none is active).
fn shortest_by_walk(links: &LinksMut<'_>) -> (u32, u32) {
    links.active_primaries().fold(
        (u32::MAX, 0),
        |(best, first), (item, len)| {
            if len < best { (len, item) } else { (best, first) }
        },
    )
}

/// Debug check: `chosen` is an active primary item of least length (0 when none is left).
fn is_shortest(links: &LinksMut<'_>, chosen: u32) -> bool {
    let (best, first) = shortest_by_walk(links);
    if first == 0 {
        return chosen == 0;
    }
    chosen != 0 && chosen <= links.primary_count() && links.is_active(chosen) && links.header(chosen) == best
}

/// Minimum remaining values for random branching: one of the shortest items, picked by
/// `draw(n)`, which returns a random index below `n` (uniform, for a uniform choice). Dead ends
/// are taken as in [`choose`]. With many active primary items the lengths are scanned as an
/// array: once for the least, once to count the ties, once to find the one drawn; with few, the
/// walk along the list keeps one candidate and replaces it by the `n`-th tie with probability
/// `1/n`.
#[inline(always)]
pub(crate) fn choose_with_ties(links: &LinksMut<'_>, from: usize, mut draw: impl FnMut(u32) -> u32) -> u32 {
    if let Some(z) = links.emptied_since(from) {
        return z;
    }
    let chosen = if walks(links) {
        let mut best = u32::MAX;
        let mut chosen = 0;
        let mut ties = 0u32;
        for (item, len) in links.active_primaries() {
            if len < best {
                best = len;
                chosen = item;
                ties = 1;
            } else if len == best {
                ties += 1;
                if draw(ties) == 0 {
                    chosen = item;
                }
            }
        }
        chosen
    } else {
        nth_least(links.primary_tops(), &mut draw).map_or(0, |k| to_u32(k + 1))
    };
    debug_assert!(is_shortest(links, chosen), "random MRV chose {chosen}");
    chosen
}

/// Knuth's branching key for an item with multiplicities (DLX3): the number of ways to branch on
/// it, then its slack, then its length reversed, to be minimized in that order.
///
/// With `len` options left, a remaining bound `b` (how many more options may cover the item) and
/// a slack `s` (`b` minus how many more it needs, at most `b`), branching tries each option that
/// leaves enough behind it, plus a null move (no further option) when the slack allows it: `len +
/// s - b + 1` ways, 0 or fewer when the item can no longer be satisfied. Between items with as
/// many ways, the one with less slack is more constrained; between those, Knuth prefers the
/// longer list (a smaller tree in the middle levels, in his MDANCE experiments). A plain item
/// (bounds `1..=1`) has key `(len, 0, !len)`: minimum remaining values.
#[inline(always)]
pub(crate) fn multi_key(len: u32, bound: u32, slack: u32) -> (u32, u32, u32) {
    let s = slack.min(bound);
    // `len + s + 1 - b`, or 0 when that is not positive: a dead end. (`len + 1` cannot overflow,
    // lengths being below `2^30`, nor `b - s`, as `s <= b`.)
    let ways = (len + 1).saturating_sub(bound - s);
    (ways, s, !len)
}

/// The choice of item in a problem with multiplicities: an active primary item with the least
/// [`multi_key`], and its number of ways to branch (0: a dead end; `(0, u32::MAX)` when no item
/// is active). Ties go to the earliest item; with `draw`, to one of them at random (the `n`-th
/// tie replaces the candidate when `draw(n)` is 0); under the last-conflict rule, at a guess, to
/// the tied item that was most recently a dead end. A dead end is taken at once.
#[inline(always)]
pub(crate) fn choose_multi<const RECORD: bool>(
    links: &LinksMut<'_, RECORD>,
    bound: &[u32],
    slack: &[u32],
    recent: &Recent,
    mut draw: Option<&mut dyn FnMut(u32) -> u32>,
) -> (u32, u32) {
    let mut best = (u32::MAX, 0, 0);
    let mut chosen = 0;
    let mut ties = 0u32;
    for (item, top) in links.active_primaries() {
        let key = multi_key(top & LEN_MASK, bound[item as usize], slack[item as usize]);
        if key.0 == 0 {
            return (item, 0);
        }
        if key < best {
            (best, chosen, ties) = (key, item, 1);
        } else if key == best
            && let Some(draw) = draw.as_mut()
        {
            ties += 1;
            if draw(ties) == 0 {
                chosen = item;
            }
        }
    }
    if chosen == 0 {
        return (0, u32::MAX);
    }
    if recent.enabled && draw.is_none() && best.0 >= 2 {
        let count = recent.count as usize;
        for k in 1..=count.min(RECENT) {
            let item = recent.ring[count.wrapping_sub(k) % RECENT];
            if item != 0 && links.is_active(item) {
                let key = multi_key(links.len(item), bound[item as usize], slack[item as usize]);
                if key == best {
                    return (item, best.0);
                }
            }
        }
    }
    (chosen, best.0)
}

/// The position of the first least length below [`COVERED`] in `lens` (the header lengths of
/// the primary items, covered ones marked), or `None` when every item is covered. Lengths are
/// compared a chunk at a time, and the scan stops after the chunk holding the first length of 1
/// or less. On x86-64 it runs with SSE4.1 where the processor has it.
#[inline(always)]
fn least_position(lens: &[u32]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(found) = sse41::least_position(lens) {
        return found;
    }
    least_position_portable(lens)
}

/// [`least_position`] for any processor.
#[inline(always)]
fn least_position_portable(lens: &[u32]) -> Option<usize> {
    let mut best = COVERED;
    let mut chosen = None;
    let (chunks, rest) = lens.as_chunks::<CHUNK>();
    for (c, chunk) in chunks.iter().enumerate() {
        let least = least_of(chunk);
        if least < best {
            best = least;
            chosen = Some(c * CHUNK + first_equal(chunk, least));
            if least <= 1 {
                return chosen;
            }
        }
    }
    least_with_rest(lens, rest, best, chosen)
}

/// The end of a scan of `lens` by chunks: `rest`, its last lengths that fill no chunk, against
/// `best`, the least length before them (at `chosen`).
#[inline(always)]
fn least_with_rest(lens: &[u32], rest: &[u32], best: u32, chosen: Option<usize>) -> Option<usize> {
    let least = rest.iter().fold(u32::MAX, |m, &len| m.min(len));
    if least < best { Some(lens.len() - rest.len() + first_equal(rest, least)) } else { chosen }
}

/// The least of a chunk of lengths, over four independent running minima, so that the comparisons
/// do not wait for each other.
#[inline(always)]
fn least_of(chunk: &[u32; CHUNK]) -> u32 {
    let mut least = [u32::MAX; 4];
    for quad in chunk.as_chunks::<4>().0 {
        for (l, &len) in least.iter_mut().zip(quad) {
            *l = (*l).min(len);
        }
    }
    least[0].min(least[1]).min(least[2].min(least[3]))
}

/// The position of the first length equal to `len` in `lens` (which holds one).
#[inline(always)]
fn first_equal(lens: &[u32], len: u32) -> usize {
    lens.iter().position(|&l| l == len).unwrap_or(0)
}

/// The least of `lens` below [`COVERED`] ([`COVERED`] when there is none).
#[inline(always)]
fn least_length(lens: &[u32]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if let Some(least) = sse41::least_length(lens) {
        return least;
    }
    lens.iter().fold(COVERED, |m, &len| m.min(len))
}

/// The position of one of the least lengths below [`COVERED`] in `lens`, the `draw(n)`-th of
/// the `n` equal to it, or `None` when every item is covered.
fn nth_least(lens: &[u32], mut draw: impl FnMut(u32) -> u32) -> Option<usize> {
    let least = least_length(lens);
    if least == COVERED {
        return None;
    }
    let ties = lens.iter().filter(|&&len| len == least).count();
    let nth = draw(to_u32(ties)) as usize;
    lens.iter().enumerate().filter(|&(_, &len)| len == least).nth(nth).map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::{RECENT, Recent, choose, least_position, least_position_portable, nth_least};
    use crate::Problem;
    use crate::index::to_u32;
    use crate::layout::{COVERED, LEN_MASK};
    use crate::links::Links;
    use proptest::prelude::*;

    /// The last-conflict tie-break, on items A-D of lengths 2, 2, 3, 2 (layout 1-4): the newest
    /// dead end that ties is taken, one that does not tie is passed over, and an empty ring or
    /// the earliest rule gives the earliest item.
    #[test]
    fn ties_go_to_the_newest_tied_dead_end() {
        let problem = Problem::parse_dlx("A B C D\nA B\nA C\nB D\nC D\nC\n").unwrap();
        let mut links = Links::new(&problem);
        let choose_with = |links: &mut Links, ring: &[u32], enabled: bool| {
            let mut recent = Recent::new();
            recent.set_enabled(true);
            for &x in ring {
                recent.note_dead_end(x);
            }
            recent.set_enabled(enabled);
            choose(&links.view(), &recent, 0)
        };
        assert_eq!(choose_with(&mut links, &[], true), 1);
        assert_eq!(choose_with(&mut links, &[2, 4], true), 4, "D is newer than B");
        assert_eq!(choose_with(&mut links, &[4, 2], true), 2, "B is newer than D");
        assert_eq!(choose_with(&mut links, &[4, 3], true), 4, "C has three options, not two");
        assert_eq!(choose_with(&mut links, &[2, 4], false), 1, "the earliest rule");
        // A full ring that has wrapped around: its newest entry is the last one written.
        let mut ring = [2; RECENT + 2];
        ring[RECENT + 1] = 4;
        assert_eq!(choose_with(&mut links, &ring, true), 4, "the newest after wrapping");
        // The count of dead ends overflowing: the next entry goes in the next place, and the
        // whole ring is still read.
        let mut recent = Recent { ring: [2; RECENT], count: u32::MAX, enabled: true };
        recent.note_dead_end(4);
        assert_eq!(recent.ring[RECENT - 1], 4);
        assert_eq!(recent.count, to_u32(RECENT));
        assert_eq!(choose(&links.view(), &recent, 0), 4, "the last place holds the newest");
    }

    /// The choice of item: a recorded dead end first, else the earliest shortest.
    #[test]
    fn a_recorded_dead_end_is_chosen_first() {
        let problem = Problem::parse_dlx("A B C D\nA B C\nD\nD\n").unwrap();
        let mut links = Links::new(&problem);
        let recent = Recent::new();
        assert_eq!(choose(&links.view(), &recent, 0), 1, "A, B and C tie at 1");
        links.with(|d| d.cover(1));
        assert_eq!(choose(&links.view(), &recent, 0), 3, "C was emptied last");
    }

    /// The choice the list walk makes: the first least length among the uncovered items.
    fn first_least(lens: &[u32]) -> Option<usize> {
        let least = lens.iter().copied().filter(|&len| len < COVERED).min()?;
        lens.iter().position(|&len| len == least)
    }

    proptest! {
        /// With covered items, chunks of every fill, ties across chunks, lengths up to the
        /// largest and early stops at length 1, the array scan picks what the walk along the
        /// active items picks. (The search scans only when no active item is empty, so lengths
        /// of 0 are made 1 here.)
        #[test]
        fn array_scan_picks_the_first_least_length(
            floor in 0u32..3,
            lens in proptest::collection::vec(
                (prop_oneof![4 => 0u32..4, 1 => 0..=LEN_MASK - 2], proptest::bool::weighted(0.3)),
                0..100,
            ),
        ) {
            // A floor of 2 leaves no length of 1, so the scan goes to the end, past ties.
            let lens: Vec<u32> = lens
                .into_iter()
                .map(|(len, covered)| len + floor + if covered { COVERED } else { 0 })
                .collect();
            let no_empty: Vec<u32> = lens.iter().map(|&len| if len == 0 { 1 } else { len }).collect();
            prop_assert_eq!(least_position(&no_empty), first_least(&no_empty));
            // The build for any processor, which the run-time choice may not pick on this one.
            prop_assert_eq!(least_position_portable(&no_empty), first_least(&no_empty));
        }

        /// The random choice among ties: draws 0, 1, ... pick each position holding the least
        /// uncovered length once, in order, and the number of ties is the number of draws.
        #[test]
        fn each_tie_can_be_drawn(
            lens in proptest::collection::vec((0u32..4, proptest::bool::weighted(0.3)), 0..70),
        ) {
            let lens: Vec<u32> =
                lens.into_iter().map(|(len, covered)| if covered { len + COVERED } else { len }).collect();
            let least = lens.iter().copied().filter(|&len| len < COVERED).min();
            let ties: Vec<usize> = (0..lens.len()).filter(|&k| Some(lens[k]) == least).collect();
            let mut counts = Vec::new();
            let drawn: Vec<Option<usize>> = (0..ties.len().max(1))
                .map(|nth| nth_least(&lens, |n| { counts.push(n); u32::try_from(nth).unwrap() }))
                .collect();
            if ties.is_empty() {
                prop_assert_eq!(drawn, vec![None]);
            } else {
                prop_assert_eq!(drawn, ties.iter().map(|&k| Some(k)).collect::<Vec<_>>());
                prop_assert!(counts.iter().all(|&n| n as usize == ties.len()));
            }
        }
    }
}
