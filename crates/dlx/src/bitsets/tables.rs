//! The matrix as bit sets ([`Tables`]): each item's options as a set, each option's items, the
//! colors' sets and pairs, and the table of conflicts; made once per problem, read and never
//! written by the searches.

use std::collections::HashMap;

use super::{CONFLICT_WORDS, LANES, MAX_ITEMS, MAX_OPTIONS, SMALL, to_u16};
use crate::index::to_u32;
use crate::problem::Problem;

/// The matrix as bit sets: what a count on this path reads and never writes.
#[derive(Debug)]
pub(super) struct Tables {
    /// 64-bit words in a set of options.
    pub(super) words: usize,
    /// Lengths a level keeps: the primary items, padded to a multiple of [`LANES`].
    pub(super) lanes: usize,
    pub(super) n_primary: usize,
    /// Item `k`'s column (layout order, from 0): the options it is in, `words` words from
    /// `k * words`.
    pub(super) columns: Vec<u64>,
    /// Option `o`'s items (from 0), primary ones first: `items[start..=start + rest]` for
    /// `spans[o]`.
    pub(super) spans: Vec<Span>,
    pub(super) items: Vec<u16>,
    /// Each option's conflicts (`words` words from `o * words`), when they take little room
    /// ([`CONFLICT_WORDS`]); empty otherwise. Without colors, the union of its items' columns;
    /// with colors, the options that disagree with it (see [`Tables::new`]).
    pub(super) conflicts: Vec<u64>,
    /// What a problem with colors needs besides; `None` without colors.
    pub(super) colors: Option<Colors>,
    /// The primary items (from 0) with bounds other than `1..=1`, whose remaining bounds a
    /// memo's signature holds after the options (see `multi`), two to a word.
    pub(super) bounded: Vec<u16>,
    /// Words in a memo's signature: `words`, and those of the bounds.
    pub(super) key_words: usize,
    /// Each primary item's slack (upper minus lower bound), from 0; empty without
    /// multiplicities.
    pub(super) slack: Vec<u32>,
}

/// The tables of a problem with colors: each option's nodes in the order the links commit them;
/// each item's column as its words that are not 0; and for each secondary item and color given to
/// it (a *pair*), the words of its column that hold options, split into those that agree with
/// the color and those that clash with it. A commit touches only the words of its item's column,
/// which is a small part of the whole in most problems.
#[derive(Debug)]
pub(super) struct Colors {
    /// Each option's nodes in the option's own order, as [`Tables::items`] holds them sorted:
    /// `nodes[start..=start + rest]` for `spans[o]`. A node is its item (from 0) and its pair, or
    /// [`NO_PAIR`] without a color.
    pub(super) nodes: Vec<(u16, u32)>,
    /// Item `k`'s column as its words that are not 0 (their index and bits):
    /// `column_words[column_at[k]..column_at[k + 1]]`.
    pub(super) column_words: Vec<(u32, u64)>,
    pub(super) column_at: Vec<u32>,
    /// Pair `k`'s column words (index; the options that give the item the pair's color; those
    /// that give it another color or none, which purifying it to the pair's color hides):
    /// `pair_words[pair_at[k]..pair_at[k + 1]]`.
    pub(super) pair_words: Vec<(u32, u64, u64)>,
    pub(super) pair_at: Vec<u32>,
    /// 64-bit words in a set of secondary items.
    pub(super) words: usize,
    /// Each option's secondary items as a set, when they fit in one word (`words == 1`); empty
    /// otherwise.
    pub(super) secondaries: Vec<u64>,
}

impl Colors {
    /// The tables of a problem with colors, from the dense columns and spans of [`Tables`] and
    /// the nodes in order.
    pub(super) fn new(
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
    pub(super) fn option_nodes(&self, span: Span) -> &[(u16, u32)] {
        let Span { start, rest, .. } = span;
        &self.nodes[start as usize..=start as usize + usize::from(rest)]
    }

    /// Item `k`'s column words.
    #[inline(always)]
    pub(super) fn column(&self, k: u16) -> &[(u32, u64)] {
        let k = usize::from(k);
        &self.column_words[self.column_at[k] as usize..self.column_at[k + 1] as usize]
    }

    /// Pair `k`'s column words.
    #[inline(always)]
    pub(super) fn pair(&self, k: u32) -> &[(u32, u64, u64)] {
        let k = k as usize;
        &self.pair_words[self.pair_at[k] as usize..self.pair_at[k + 1] as usize]
    }
}

/// The pair of a node without a color.
pub(super) const NO_PAIR: u32 = u32::MAX;

impl Tables {
    /// Whether `problem` is small enough, and without multiplicities, for this path.
    pub(super) fn fits(problem: &Problem) -> bool {
        !problem.has_multiplicities() && Self::fits_memo(problem)
    }

    /// Whether `problem` is small enough for the memo on this path: with multiplicities, `multi`
    /// counts it.
    pub(super) fn fits_memo(problem: &Problem) -> bool {
        problem.option_count() <= MAX_OPTIONS && problem.item_count() <= MAX_ITEMS
    }

    /// The words of a set of options and the lengths a level keeps, for `problem`: a small
    /// problem takes the shape the search is compiled for, padded (see [`SMALL`]).
    pub(super) fn shape(problem: &Problem) -> (usize, usize) {
        let words = problem.option_count().div_ceil(64).max(1);
        let lanes = problem.primary_count().div_ceil(LANES).max(1) * LANES;
        if words <= SMALL.0 && lanes <= SMALL.1 { SMALL } else { (words, lanes) }
    }

    /// The tables of `problem`, which [`fits_memo`](Self::fits_memo).
    pub(super) fn new(problem: &Problem) -> Tables {
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
        if n_options * words <= CONFLICT_WORDS && !super::tests::without_conflicts() {
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
    pub(super) fn primaries(&self, o: usize) -> usize {
        usize::from(self.spans[o].primaries)
    }

    /// Option `o`'s items, primary ones first.
    #[inline(always)]
    pub(super) fn option(&self, o: usize) -> &[u16] {
        let Span { start, rest, .. } = self.spans[o];
        &self.items[start as usize..=start as usize + usize::from(rest)]
    }

    /// Item `k`'s column; `w` is `self.words`.
    #[inline(always)]
    pub(super) fn column(&self, k: usize, w: usize) -> &[u64] {
        &self.columns[k * w..(k + 1) * w]
    }
}

/// The pairs of `problem` (see [`Colors`]): each secondary item (its header) with each color an
/// option gives it, numbered from 0.
pub(super) fn pairs(problem: &Problem) -> HashMap<(u32, u32), u32> {
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
pub(super) struct Span {
    pub(super) start: u32,
    /// The option's items less one: what hiding it counts as updates.
    pub(super) rest: u16,
    /// How many of its items are primary (they come first).
    pub(super) primaries: u16,
}
