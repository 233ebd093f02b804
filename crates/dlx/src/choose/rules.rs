//! Branching rules other than minimum remaining values: the item to branch on as the least score,
//! one type per rule.
//!
//! Every rule of Knuth's family agrees on two things, which [`Rule::choose`] keeps for all: an
//! active primary item with no option left ends the branch at once (the earliest such: the one
//! the rules that learn are told of), and otherwise the earliest item with one option is taken
//! (a forced move, whatever the scores say). Among the items with two options or more a rule
//! scores each, and the search branches on the least score, ties to the earliest item. A score is
//! a fraction (see [`Score`]), so that rules dividing a length by a weight compare exactly: with
//! items A of 2 options and weight 1 and B of 3 options and weight 2, dom/wdeg scores A 2/1 and
//! B 3/2, and branches on B.
//!
//! Knuth's SSXCC variants take every item of one option at once before they branch (a single
//! node); the search here takes them one at a time, as DLX2 does, so `wdeg` and `frb` make trees
//! of their own, not SSXCC-WTD0's or SSXCC-FRB0's node for node. `sharp` makes DLX2-SHARP's.
//!
//! * [`Mrv`]: the length. The same choices as the search's own scan (`choose::choose`), made the
//!   slow way: kept as the reference the others are written against and tested with.
//! * [`Sharp`]: the length, plus a penalty larger than any length for an item whose name does not
//!   begin with `#`: DLX2-SHARP's and DLX3-SHARP's convention, by which a user marks the items to
//!   branch on first.
//! * [`Wdeg`]: the length divided by the item's weight, 1 at the start of a run and one more each
//!   time the search meets the item with no option left (Boussemart, Hemery, Lecoutre and Sais,
//!   2004; Knuth's `ssxcc-wtd0.ch`).
//! * [`Frb`]: the length divided by the item's failure rate, `(fails + 1/2) / assigns`, where
//!   `assigns` is one more than the options of the item tried so far and `fails` counts those
//!   below which the next level met an empty item (Li, Yin and Li, 2021; Knuth's
//!   `ssxcc-frb0.ch`).
//!
//! The two that learn hear of the search through [`Rule::dead_end`] and [`Rule::tried`], and
//! start each run afresh ([`Rule::forget`]), so that a run's branching depends only on the state
//! it starts from (which is what lets the pieces of a parallel count, shards and checkpoints
//! agree on the tree above them).
//!
//! A new rule is one more type here that implements [`Rule`], one more name in
//! [`Branching`](crate::Branching), and the line of `Chooser::set` that makes it.

use std::cmp::Ordering;
use std::fmt::Debug;

use crate::Problem;
use crate::index::to_u32;
use crate::layout::{COVERED, LEN_MASK};
use crate::links::LinksMut;

/// A score to be minimized: `num / den`, with `den > 0`, compared exactly.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Score {
    num: u64,
    den: u64,
}

impl Score {
    /// The score `num / den` (`den` of 0 is taken as 1).
    pub(crate) fn new(num: u64, den: u64) -> Score {
        Score { num, den: den.max(1) }
    }
}

impl PartialEq for Score {
    fn eq(&self, other: &Score) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Score {}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> Ordering {
        // Both products fit in 128 bits.
        (u128::from(self.num) * u128::from(other.den)).cmp(&(u128::from(other.num) * u128::from(self.den)))
    }
}

/// A branching rule: the score of each active primary item with two options or more, and what it
/// learns from the search. See the module docs.
pub(crate) trait Rule: Debug + Send + Sync {
    /// The score of primary item `item` (numbered as in the links), which has `len` options left
    /// (with multiplicities, `len` is its number of ways to branch); the search branches on the
    /// least.
    fn score(&self, item: u32, len: u32) -> Score;

    /// Whether the rule chooses as minimum remaining values does on this problem (`sharp` on a
    /// problem without `#` items): its choices are then made by MRV's own scans.
    fn is_mrv(&self) -> bool {
        false
    }

    /// Whether the rule learns from the search: whether [`Rule::dead_end`] and [`Rule::tried`]
    /// need calling (the search leaves out the calls otherwise).
    fn learns(&self) -> bool {
        false
    }

    /// The search met `item` with no option left, below an option of `parent` (the item of the
    /// level above; 0 at the level the run started from).
    fn dead_end(&mut self, _item: u32, _parent: u32) {}

    /// The search tried `times` more options of `item`.
    fn tried(&mut self, _item: u32, _times: u32) {}

    /// A new run: what was learned is forgotten.
    fn forget(&mut self) {}

    /// The item to branch on in the links' state, `from` where the record of items emptied
    /// since the previous choice starts (see the module docs): the earliest empty item if the
    /// record holds one, else minimum remaining values' own scan when it finds an item of one
    /// option (then the earliest such), else the least score, ties to the earliest; 0 when no
    /// primary item is active. (The earliest empty item, not the newest emptied that minimum
    /// remaining values takes: a choice that depends on the state alone, for the rules that
    /// learn from it.)
    fn choose(&self, links: &LinksMut<'_>, from: usize) -> u32 {
        if links.emptied_since(from).is_some() {
            let empty = links.active_primaries().find(|&(_, top)| top & LEN_MASK == 0);
            return empty.map_or(0, |(item, _)| item);
        }
        let shortest = super::scan(links);
        if shortest == 0 || links.len(shortest) <= 1 || self.is_mrv() {
            return shortest;
        }
        // As minimum remaining values scans: along the list with few items active, else the
        // lengths as an array (in the same order).
        let least = if super::walks(links) {
            least_score(self, links.active_primaries().map(|(item, top)| (item, top & LEN_MASK)))
        } else {
            let tops = links.primary_tops().iter().enumerate().filter(|&(_, &top)| top & COVERED == 0);
            least_score(self, tops.map(|(k, &top)| (to_u32(k + 1), top & LEN_MASK)))
        };
        least.map_or(shortest, |(item, _)| item)
    }

    /// The item of least score among the primary items of `lens` (item `k + 1` at `k`; those of
    /// length `inactive` left out), every one of them of two options or more, and its length: the
    /// bit sets' choice at a guess.
    fn least_among(&self, lens: &[u16], inactive: u16) -> Option<(u32, u32)> {
        let items = lens.iter().enumerate().filter(|&(_, &len)| len != inactive);
        least_score(self, items.map(|(k, &len)| (to_u32(k + 1), u32::from(len))))
    }

    /// The item to branch on in a problem with multiplicities, and its number of ways (as
    /// `choose::choose_multi`): a dead end at once, else among the items with one way if there
    /// are any, else by the least score of the ways; ties to less slack, then to the longer list
    /// (Knuth's DLX3 keys), then to the earliest. `(0, u32::MAX)` when no primary item is active.
    fn choose_multi(&self, links: &LinksMut<'_, false>, bound: &[u32], slack: &[u32]) -> (u32, u32) {
        // (Whether it has two ways or more, score, slack, length reversed), item, ways.
        let mut best: Option<(MultiKey, u32, u32)> = None;
        for (item, top) in links.active_primaries() {
            let len = top & LEN_MASK;
            let (ways, s, longer) = super::multi_key(len, bound[item as usize], slack[item as usize]);
            if ways == 0 {
                return (item, 0);
            }
            let score = if ways == 1 { Score::new(0, 1) } else { self.score(item, ways) };
            let key = (ways > 1, score, s, longer);
            if best.as_ref().is_none_or(|(b, _, _)| key < *b) {
                best = Some((key, item, ways));
            }
        }
        best.map_or((0, u32::MAX), |(_, item, ways)| (item, ways))
    }
}

/// The item of least score among `items` (active primary items in order with their lengths,
/// each of two options or more), ties to the earliest, with its length; `None` when there is
/// none. The links' search and the bit sets' both choose a guess here.
#[inline]
pub(crate) fn least_score<R: Rule + ?Sized>(
    rule: &R,
    items: impl Iterator<Item = (u32, u32)>,
) -> Option<(u32, u32)> {
    let mut best: Option<(Score, u32, u32)> = None;
    for (item, len) in items {
        let score = rule.score(item, len);
        if best.is_none_or(|(b, _, _)| score < b) {
            best = Some((score, item, len));
        }
    }
    best.map(|(_, item, len)| (item, len))
}

/// An item's key with multiplicities (see [`Rule::choose_multi`]), to be minimized.
type MultiKey = (bool, Score, u32, u32);

/// Minimum remaining values: the length. See the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Mrv;

impl Rule for Mrv {
    fn score(&self, _item: u32, len: u32) -> Score {
        Score::new(u64::from(len), 1)
    }
}

/// Knuth's `#` convention: the length, plus a penalty above any length unless the item's name
/// begins with `#`. See the module docs.
#[derive(Clone, Debug)]
pub(crate) struct Sharp {
    /// Whether each item (numbered as in the links, the root first) has a name beginning with
    /// `#`.
    sharp: Vec<bool>,
    /// Whether any primary item has.
    any: bool,
}

/// Sharp's penalty: more than any length (lengths stay below `2^30`).
const UNSHARP: u64 = 1 << 32;

impl Sharp {
    /// The rule for `problem`'s item names.
    pub(crate) fn new(problem: &Problem) -> Sharp {
        // The root, then the items in layout order.
        let sharp: Vec<bool> =
            std::iter::once(false).chain(problem.layout_names().map(|name| name.starts_with('#'))).collect();
        let any = sharp[1..=problem.primary_count()].contains(&true);
        Sharp { sharp, any }
    }
}

impl Rule for Sharp {
    fn score(&self, item: u32, len: u32) -> Score {
        let penalty = if self.sharp[item as usize] { 0 } else { UNSHARP };
        Score::new(u64::from(len) + penalty, 1)
    }

    fn is_mrv(&self) -> bool {
        !self.any
    }
}

/// dom/wdeg: the length over a weight that grows at each dead end on the item. See the module
/// docs.
#[derive(Clone, Debug)]
pub(crate) struct Wdeg {
    /// Each item's weight (numbered as in the links), from 1.
    weight: Vec<u32>,
}

impl Wdeg {
    /// Weights of 1 for `problem`'s items.
    pub(crate) fn new(problem: &Problem) -> Wdeg {
        Wdeg { weight: vec![1; problem.item_count() + 1] }
    }
}

impl Rule for Wdeg {
    fn score(&self, item: u32, len: u32) -> Score {
        Score::new(u64::from(len), u64::from(self.weight[item as usize]))
    }

    fn learns(&self) -> bool {
        true
    }

    fn dead_end(&mut self, item: u32, _parent: u32) {
        let w = &mut self.weight[item as usize];
        *w = w.saturating_add(1);
    }

    fn forget(&mut self) {
        self.weight.fill(1);
    }
}

/// Failure-rate branching: the length over `(fails + 1/2) / assigns`. See the module docs.
#[derive(Clone, Debug)]
pub(crate) struct Frb {
    /// Each item's `assigns` (numbered as in the links): options tried, plus 1.
    assigns: Vec<u32>,
    /// Each item's `fails`: options tried below which the next level met an empty item.
    fails: Vec<u32>,
}

impl Frb {
    /// No assignment made yet for `problem`'s items.
    pub(crate) fn new(problem: &Problem) -> Frb {
        let n = problem.item_count() + 1;
        Frb { assigns: vec![1; n], fails: vec![0; n] }
    }
}

impl Rule for Frb {
    fn score(&self, item: u32, len: u32) -> Score {
        // len / ((fails + 1/2) / assigns) = 2 len assigns / (2 fails + 1).
        let k = item as usize;
        Score::new(2 * u64::from(len) * u64::from(self.assigns[k]), 2 * u64::from(self.fails[k]) + 1)
    }

    fn learns(&self) -> bool {
        true
    }

    fn dead_end(&mut self, _item: u32, parent: u32) {
        if parent != 0 {
            let f = &mut self.fails[parent as usize];
            *f = f.saturating_add(1);
        }
    }

    fn tried(&mut self, item: u32, times: u32) {
        let a = &mut self.assigns[item as usize];
        *a = a.saturating_add(times);
    }

    fn forget(&mut self) {
        self.assigns.fill(1);
        self.fails.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::{Frb, Rule, Score, Sharp, Wdeg};
    use crate::Problem;
    use crate::links::Links;

    /// What each rule chooses among items A, B and C (layout 1-3) of lengths 2, 3 and 3, before
    /// and after it learns.
    #[test]
    fn rules_choose_by_their_scores() {
        let problem: Problem = "A B #C\nA\nA\nB\nB\nB\n#C\n#C\n#C\n".parse().unwrap();
        let mut links = Links::new(&problem);
        let mut choose = |rule: &dyn Rule| rule.choose(&links.view(), 0);
        assert_eq!(choose(&Sharp::new(&problem)), 3, "#C, though longer than A");
        let mut wdeg = Wdeg::new(&problem);
        assert_eq!(choose(&wdeg), 1, "A: 2/1 against 3/1");
        wdeg.dead_end(3, 1);
        assert_eq!(choose(&wdeg), 3, "C: 3/2 against A's 2/1");
        wdeg.dead_end(2, 1);
        assert_eq!(choose(&wdeg), 2, "B and C: 3/2, ties to the earliest");
        wdeg.forget();
        assert_eq!(choose(&wdeg), 1, "forgotten");
        let mut frb = Frb::new(&problem);
        assert_eq!(choose(&frb), 1, "A: 2 2 1/1 against 2 3 1/1");
        // A tried 3 times without failing: 2 2 4 / 1 = 16 against B's 6.
        frb.tried(1, 3);
        assert_eq!(choose(&frb), 2);
        // Three failures below A: 16 / 7 against B's 6.
        frb.dead_end(3, 1);
        frb.dead_end(2, 1);
        frb.dead_end(2, 1);
        assert_eq!(choose(&frb), 1);
        // The root's dead ends (no parent) count for no item.
        frb.dead_end(1, 0);
        assert_eq!(frb.fails, [0, 3, 0, 0]);
    }

    /// The rules that learn are those the public setting says learn.
    #[test]
    fn the_setting_says_which_rules_learn() {
        let problem: Problem = "A B\nA\nB\n".parse().unwrap();
        for branching in crate::Branching::ALL {
            let mut chooser = super::super::Chooser::new();
            chooser.set(branching, &problem);
            assert_eq!(chooser.learns(), branching.learns(), "{branching:?}");
            assert_eq!(chooser.is_mrv(), branching == crate::Branching::Mrv, "{branching:?}");
        }
    }

    /// Scores compare as the fractions they stand for, exactly, at the largest values.
    #[test]
    fn scores_compare_as_fractions() {
        assert!(Score::new(1, 3) < Score::new(1, 2));
        assert_eq!(Score::new(2, 4), Score::new(1, 2));
        assert!(Score::new(u64::MAX, u64::MAX - 1) < Score::new(u64::MAX - 1, u64::MAX - 2));
        assert!(Score::new(u64::MAX - 1, u64::MAX) < Score::new(1, 1));
        assert_eq!(Score::new(5, 0), Score::new(5, 1), "a zero denominator is 1");
    }
}
