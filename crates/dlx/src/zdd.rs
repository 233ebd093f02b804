//! The ZDD of all solutions, made by a memoized count ([`Solver::zdd`](crate::Solver::zdd)),
//! and what it gives: counts by the number of options in a solution, solutions of fewest and of
//! most options, and the text that Knuth's ZDDREAD programs read.
//!
//! # The diagram
//!
//! A zero-suppressed decision diagram represents a family of sets of options. Its two sinks are
//! [`Zdd::EMPTY`] (node 0, the empty family: no solution) and [`Zdd::UNIT`] (node 1, the family
//! of the empty set: nothing left to choose); every other node `k` names an option `x`, a node
//! `lo` and a node `hi`, and represents the sets of `lo` together with those of `hi` with `x`
//! added. The memoized count makes one chain of such nodes for each subproblem it finishes, as
//! Knuth's DLX6 does: the options tried at its level, in turn, each with the node of the
//! subproblem below it as `hi` and the chain so far as `lo`, options with nothing below them left
//! out. A subproblem met again is the node made when it was first finished, so the diagram has
//! about as many nodes as the memo has entries with solutions, however many solutions there are
//! (the sizes measured are in `benches/RESULTS.md`).
//!
//! Nodes are numbered in the order they are made, so that each node's `lo` and `hi` come before
//! it; the figures below are computed in that order, in one pass.
//!
//! # Limits
//!
//! The diagram holds the options the search chose; options forced before it
//! ([`Solver::force`](crate::Solver::force)) are in every solution and kept aside
//! ([`Zdd::forced`]). Like the memo, it is made on bit sets only (see
//! [`ZddError::NotOnBitSets`]). Its variables are not ordered (an option may appear above
//! another on one path and below it on the next), which ZDDREAD's counting and sampling
//! programs accept.

use std::io::{self, Write};

use crate::count::Count;
use crate::index::OptionId;
use crate::settings::Interrupted;

/// A node of a [`Zdd`] other than a sink: the sets of `lo`, and those of `hi` with `option`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ZddNode {
    /// The option this node adds on its `hi` side.
    pub option: OptionId,
    /// The node of the sets without it (made before this one).
    pub lo: u32,
    /// The node of the sets with it (made before this one, never [`Zdd::EMPTY`]).
    pub hi: u32,
}

/// The ZDD of the solutions of a problem (see the module docs).
///
/// ```
/// use dlx_engine::{Problem, Solver, Zdd};
/// // A B C covered by {A B, C} or by {A, B C}; or by {A B C} alone.
/// let problem: Problem = "A B C\nA B\nC\nA\nB C\nA B C\n".parse().unwrap();
/// let zdd = Solver::new(&problem).zdd()?;
/// assert_eq!(zdd.count(), 3);
/// assert_eq!(zdd.counts_by_size(), [0, 1, 2]);
/// assert_eq!(zdd.smallest().unwrap().len(), 1);
/// let mut text = Vec::new();
/// zdd.write_text(&mut text)?;
/// assert!(String::from_utf8(text).unwrap().lines().all(|l| l.contains(": (~")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zdd {
    nodes: Vec<ZddNode>,
    root: u32,
    forced: Vec<OptionId>,
}

/// Why [`Solver::zdd`](crate::Solver::zdd) made no diagram.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ZddError {
    /// The diagram is made by the memo, on bit sets: problems of at most 4,096 options and 1,024
    /// items, without multiplicities, searched without a seed, the last-conflict rule or a
    /// branching rule other than MRV.
    #[error(
        "a ZDD is made on bit sets: problems of at most 4,096 options and 1,024 items without \
         multiplicities, searched without a seed, the last-conflict rule or a branching rule other \
         than mrv"
    )]
    NotOnBitSets,
    /// The count was cut short: a budget, the cancel flag, or a diagram larger than the memo's
    /// budget of bytes ([`StopReason::Memory`]).
    ///
    /// [`StopReason::Memory`]: crate::StopReason::Memory
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
}

impl Zdd {
    /// The sink of the empty family: no solution.
    pub const EMPTY: u32 = 0;
    /// The sink of the family of the empty set: a solution with nothing more to choose.
    pub const UNIT: u32 = 1;

    /// A diagram of `nodes` (node `k + 2` is `nodes[k]`) whose root is `root`, below the options
    /// `forced`.
    pub(crate) fn new(nodes: Vec<ZddNode>, root: u32, forced: Vec<OptionId>) -> Zdd {
        Zdd { nodes, root, forced }
    }

    /// The root: the node of every solution (a sink when there are none, or when the forced
    /// options are the one solution).
    pub fn root(&self) -> u32 {
        self.root
    }

    /// Node `id`, if it is one and not a sink.
    pub fn node(&self, id: u32) -> Option<&ZddNode> {
        self.nodes.get(usize::try_from(id).ok()?.checked_sub(2)?)
    }

    /// The nodes, sinks left out: node `k + 2` is the `k`-th.
    pub fn nodes(&self) -> &[ZddNode] {
        &self.nodes
    }

    /// The options forced before the search, in every solution and not in the diagram.
    pub fn forced(&self) -> &[OptionId] {
        &self.forced
    }

    /// The number of solutions, counted on the diagram.
    pub fn count(&self) -> Count {
        self.counts_by_size().iter().sum()
    }

    /// The number of solutions of each size (entry `k`: those of `k` options, forced ones
    /// included), up to the largest; empty when there is none.
    pub fn counts_by_size(&self) -> Vec<Count> {
        // Each node's counts by size below it, as a range of sizes in one arena: tilings and
        // other problems whose solutions all have one size take one entry per node.
        let mut spans: Vec<(usize, usize, usize)> = Vec::with_capacity(self.nodes.len() + 2);
        let mut arena: Vec<Count> = vec![Count::from(1u64)];
        spans.push((0, 0, 0));
        spans.push((0, 0, 1));
        for node in &self.nodes {
            let (lo, hi) = (spans[node.lo as usize], spans[node.hi as usize]);
            let hi = (hi.0, hi.1 + 1, hi.2);
            let parts = [lo, hi].into_iter().filter(|s| s.2 > 0);
            let low = parts.clone().map(|s| s.1).min().unwrap_or(0);
            let high = parts.map(|s| s.1 + s.2).max().unwrap_or(0);
            let start = arena.len();
            arena.resize(start + (high - low), Count::ZERO);
            for (at, min, len) in [lo, hi] {
                for k in 0..len {
                    let (below, new) = arena.split_at_mut(start);
                    new[min - low + k] += &below[at + k];
                }
            }
            spans.push((start, low, high - low));
        }
        let (at, min, len) = spans[self.root as usize];
        let forced = self.forced.len();
        let mut counts = vec![Count::ZERO; if len == 0 { 0 } else { forced + min + len }];
        counts[forced + min..].clone_from_slice(&arena[at..at + len]);
        counts
    }

    /// A solution of fewest options (the forced ones first), if there is one.
    pub fn smallest(&self) -> Option<Vec<OptionId>> {
        self.extreme(false)
    }

    /// A solution of most options (the forced ones first), if there is one.
    pub fn largest(&self) -> Option<Vec<OptionId>> {
        self.extreme(true)
    }

    /// A solution of fewest options, or of most.
    fn extreme(&self, most: bool) -> Option<Vec<OptionId>> {
        // For each node, the size of the best set below it (`None`: no set), then a walk down.
        let mut best: Vec<Option<usize>> = vec![None, Some(0)];
        let better = |a: usize, b: usize| if most { a > b } else { a < b };
        for node in &self.nodes {
            let lo = best[node.lo as usize];
            let hi = best[node.hi as usize].map(|s| s + 1);
            best.push(match (lo, hi) {
                (Some(a), Some(b)) => Some(if better(b, a) { b } else { a }),
                (a, b) => a.or(b),
            });
        }
        best[self.root as usize]?;
        let mut solution = self.forced.clone();
        let mut at = self.root;
        while at > Zdd::UNIT {
            let node = self.nodes[at as usize - 2];
            let lo = best[node.lo as usize];
            let hi = best[node.hi as usize].map(|s| s + 1);
            let take = match (lo, hi) {
                (Some(a), Some(b)) => !better(a, b),
                (_, b) => b.is_some(),
            };
            if take {
                solution.push(node.option);
                at = node.hi;
            } else {
                at = node.lo;
            }
        }
        Some(solution)
    }

    /// Writes the diagram in the text of Knuth's ZDDREAD programs (as his DLX6 writes it): a
    /// line `ID: (~V?LO:HI)` for each node, numbers in hexadecimal, `V` the option's number
    /// counted from 1, then a root of variable 0 whose `HI` is the diagram's root.
    pub fn write_text(&self, out: &mut impl Write) -> io::Result<()> {
        for (k, node) in self.nodes.iter().enumerate() {
            writeln!(out, "{:x}: (~{}?{:x}:{:x})", k + 2, node.option.index() + 1, node.lo, node.hi)?;
        }
        writeln!(out, "{:x}: (~0?0:{:x})", self.nodes.len() + 2, self.root)
    }
}
