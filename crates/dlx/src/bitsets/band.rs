//! A memoized count in two bands of levels, on two threads that share no table: the upper
//! thread counts from the root down to the band's level, where it hands each subproblem it meets
//! (once each) over to the lower thread and goes on as if it had solutions; the lower thread
//! counts those subproblems, each from its signature, on a table of its own. The upper count
//! makes the ZDD of its levels (see `search`), in which each subproblem handed over is a node to
//! be filled in; once the lower thread has counted them all, the diagram's counts are summed from
//! the bottom up ([`tally`]).
//!
//! A worked example: dominoes on a board of two rows and four columns (cells `a1`..`a4` over
//! `b1`..`b4`, as in the module docs above), the band at level 2. The upper thread covers `a1` at
//! level 0, by `a1 b1` or `a1 a2`. Below `a1 b1` it covers `a2`: by `a2 b2`, which leaves the two
//! right columns, handed over as subproblem 0 (node `u32::MAX`), or by `a2 a3`, which leaves
//! `b2 b3`, `b3 b4`, `a4 b4`, handed over as subproblem 1 (node `u32::MAX - 1`). Below `a1 a2`,
//! `b1 b2` is forced, and leaves the two right columns again: found in the upper thread's table,
//! node `u32::MAX` again. The lower thread counts 2 and 1; the ZDD sums 2 + 1 + 2 = 5.
//!
//! Threads that share a table exchange a subproblem for every few nodes, each exchange a move of
//! a cache line between cores, as dear as a node; these exchange one per subproblem at the
//! band's level only (`benches/RESULTS.md`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::count::Count;

/// The hand-over between the two threads of a count in two bands.
#[derive(Debug)]
pub(crate) struct Band {
    /// The level from which subproblems are handed over.
    level: usize,
    /// Words of a signature.
    words: usize,
    handed: Mutex<Handed>,
    ready: Condvar,
    /// Changes to `handed` (keys handed over, done, failed): what a waiting thread spins on.
    changes: AtomicUsize,
}

/// How long the lower thread spins for more before it sleeps: a thread asleep is woken the
/// longer after (a virtual core asleep, much longer).
const SPIN: Duration = Duration::from_micros(200);

/// The subproblems handed over so far, whether the upper thread is done, and whether the lower
/// one stopped.
#[derive(Debug, Default)]
struct Handed {
    /// Their signatures, end to end.
    keys: Vec<u64>,
    done: bool,
    failed: bool,
    /// Whether the lower thread waits for more.
    waiting: bool,
}

impl Band {
    /// A hand-over at `level`, of signatures of `words` words.
    pub(crate) fn new(level: usize, words: usize) -> Band {
        Band {
            level: level.max(1),
            words,
            handed: Mutex::new(Handed::default()),
            ready: Condvar::new(),
            changes: AtomicUsize::new(0),
        }
    }

    /// Whether the upper thread hands a subproblem of level `l` over.
    #[inline]
    pub(crate) fn hands(&self, l: usize) -> bool {
        l >= self.level
    }

    /// Hands `key` over: its node in the upper thread's ZDD, numbered down from `u32::MAX` (see
    /// [`tally`]); `None` when those would meet the diagram's `zdd_nodes` nodes, or the lower
    /// thread has stopped.
    pub(crate) fn hand(&self, key: &[u64], zdd_nodes: usize) -> Option<u32> {
        let mut handed = self.handed.lock().unwrap_or_else(PoisonError::into_inner);
        let k = handed.keys.len() / self.words;
        if handed.failed || (k + zdd_nodes + 3) as u64 >= u64::from(u32::MAX) {
            return None;
        }
        handed.keys.extend_from_slice(key);
        self.changes.fetch_add(1, Ordering::Release);
        if handed.waiting {
            self.ready.notify_one();
        }
        // (Below `u32::MAX`: checked above.)
        Some(u32::MAX - u32::try_from(k).unwrap_or(u32::MAX))
    }

    /// The lower thread has stopped: the upper one stops at its next hand-over.
    pub(crate) fn fail(&self) {
        self.handed.lock().unwrap_or_else(PoisonError::into_inner).failed = true;
        self.changes.fetch_add(1, Ordering::Release);
    }

    /// The upper thread is done (or stopped): the lower one ends once it has counted what it has.
    pub(crate) fn finish(&self) {
        let mut handed = self.handed.lock().unwrap_or_else(PoisonError::into_inner);
        handed.done = true;
        self.changes.fetch_add(1, Ordering::Release);
        self.ready.notify_one();
    }

    /// The signatures handed over after the first `from` (appended to `into`), waiting for some;
    /// none once the upper thread is done and all are taken.
    pub(crate) fn take(&self, from: usize, into: &mut Vec<u64>) {
        let start = from * self.words;
        let mut handed = self.handed.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if handed.keys.len() > start {
                into.extend_from_slice(&handed.keys[start..]);
                return;
            }
            if handed.done {
                return;
            }
            // Spins a while for a change, then sleeps until one.
            let seen = self.changes.load(Ordering::Acquire);
            drop(handed);
            let spun = Instant::now();
            let mut spins = 0u32;
            while self.changes.load(Ordering::Acquire) == seen {
                std::hint::spin_loop();
                spins += 1;
                if spins.is_multiple_of(64) && spun.elapsed() > SPIN {
                    break;
                }
            }
            handed = self.handed.lock().unwrap_or_else(PoisonError::into_inner);
            if handed.keys.len() > start || handed.done {
                continue;
            }
            handed.waiting = true;
            handed = self.ready.wait(handed).unwrap_or_else(PoisonError::into_inner);
            handed.waiting = false;
        }
    }

    /// Words of a signature.
    pub(crate) fn words(&self) -> usize {
        self.words
    }
}

/// The count of the upper thread's ZDD (`nodes`, the `k`-th numbered `k + 2`, and `root`), the
/// node numbered `u32::MAX - j` standing for the `j`-th subproblem handed over, whose count is
/// `lower[j]`; and the nodes the count would have taken without the memo: the upper thread's
/// (`upper`, in which each subproblem handed over took none) and, for each subproblem handed
/// over, the lower thread's nodes for it without the memo (`plain`) as many times as the upper
/// band's tree reaches it, which is the paths to its node in the ZDD (there is a node for every
/// option that leads to one), saturating at `u64::MAX`. One pass in `u128`s from the bottom up;
/// a count past them is summed again as counts of any size ([`sum`]).
pub(crate) fn tally(
    nodes: &[[u32; 3]],
    root: u32,
    lower: &[Count],
    upper: u64,
    plain: &[u64],
) -> (Count, u64) {
    let handed: Option<Vec<u128>> = lower.iter().map(|c| u128::try_from(c).ok()).collect();
    let mut fits = handed.is_some();
    let handed = handed.unwrap_or_default();
    // Each node's count and nodes without the memo, by its number (0: the empty family, 1: the
    // empty set).
    let mut counts: Vec<u128> = Vec::with_capacity(nodes.len() + 2);
    let mut below: Vec<u64> = Vec::with_capacity(nodes.len() + 2);
    counts.extend([0, 1]);
    below.extend([0, 0]);
    let at = |id: u32, counts: &[u128], below: &[u64]| -> (u128, u64) {
        match counts.get(id as usize) {
            Some(&c) => (c, below[id as usize]),
            None => {
                let j = (u32::MAX - id) as usize;
                (handed.get(j).copied().unwrap_or(0), plain.get(j).copied().unwrap_or(0))
            }
        }
    };
    for &[_, lo, hi] in nodes {
        let ((a, m), (b, n)) = (at(lo, &counts, &below), at(hi, &counts, &below));
        let c = a.checked_add(b);
        fits &= c.is_some();
        counts.push(c.unwrap_or(0));
        below.push(m.saturating_add(n));
    }
    let (count, nodes_below) = at(root, &counts, &below);
    let count = if fits { Count::from(count) } else { sum(nodes, root, lower) };
    (count, nodes_below.saturating_add(upper))
}

/// The count of the upper thread's ZDD, as [`tally`]'s, of any size: in `u128`s, and the few
/// past `u128::MAX` (those near the root of counts past 2^128) as counts of any size, each marked
/// by `u128::MAX` in its place.
fn sum(nodes: &[[u32; 3]], root: u32, lower: &[Count]) -> Count {
    let small = |c: &Count| u128::try_from(c).ok().filter(|&c| c != u128::MAX);
    let lower_small: Vec<u128> = lower.iter().map(|c| small(c).unwrap_or(u128::MAX)).collect();
    let mut counts: Vec<u128> = Vec::with_capacity(nodes.len());
    let mut large: HashMap<u32, Count> = HashMap::new();
    // A node's count: in a `u128`, or else of any size.
    let value = |id: u32, counts: &[u128], large: &HashMap<u32, Count>| -> Result<u128, Count> {
        let c = match id {
            0 => 0,
            1 => 1,
            _ => {
                let j = (u32::MAX - id) as usize;
                if j < lower.len() {
                    let c = lower_small[j];
                    return if c == u128::MAX { Err(lower[j].clone()) } else { Ok(c) };
                }
                counts[id as usize - 2]
            }
        };
        if c == u128::MAX { Err(large.get(&id).cloned().unwrap_or_default()) } else { Ok(c) }
    };
    for (k, &[_, lo, hi]) in nodes.iter().enumerate() {
        let (lo, hi) = (value(lo, &counts, &large), value(hi, &counts, &large));
        let c = match (lo, hi) {
            (Ok(a), Ok(b)) => {
                a.checked_add(b).filter(|&c| c != u128::MAX).ok_or_else(|| Count::from(a) + Count::from(b))
            }
            (a, b) => Err(wide(a) + wide(b)),
        };
        counts.push(match c {
            Ok(c) => c,
            Err(c) => {
                // (Numbered below `u32::MAX`: see `Band::hand`.)
                large.insert(u32::try_from(k + 2).unwrap_or(u32::MAX), c);
                u128::MAX
            }
        });
    }
    wide(value(root, &counts, &large))
}

/// A count from [`sum`]'s, however large.
fn wide(count: Result<u128, Count>) -> Count {
    count.map_or_else(|c| c, Count::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chain of nodes, each the one before or one more subproblem handed over: the count is one
    /// plus theirs, summed in `u128`s, past them (through `u128::MAX` itself) and with counts
    /// past 2^128 handed over, as counts of any size sum it; and the nodes without the memo,
    /// each subproblem's once, saturating.
    #[test]
    fn sums_agree_with_counts_of_any_size() {
        let huge = Count::from(u128::MAX) + Count::from(u128::MAX);
        for lower in [
            vec![Count::from(3u64), Count::from(5u64)],
            vec![Count::from(u128::MAX - 1), Count::ZERO],
            vec![Count::from(u128::MAX), Count::from(1u64), Count::from(u128::MAX >> 1)],
            vec![Count::from(1u128 << 127), Count::from(1u128 << 127), Count::from(7u64)],
            vec![huge.clone(), Count::from(2u64), huge],
        ] {
            let mut nodes: Vec<[u32; 3]> = Vec::new();
            let mut root = 1u32;
            for j in 0..lower.len() {
                nodes.push([0, root, u32::MAX - u32::try_from(j).unwrap()]);
                root = u32::try_from(nodes.len() + 1).unwrap();
            }
            let want = lower.iter().fold(Count::from(1u64), |sum, c| sum + c.clone());
            let n = lower.len() as u64;
            assert_eq!(tally(&nodes, root, &lower, 5, &vec![2; lower.len()]), (want.clone(), 5 + 2 * n));
            assert_eq!(sum(&nodes, root, &lower), want, "{lower:?}");
            assert_eq!(tally(&nodes, root, &lower, 1, &vec![u64::MAX; lower.len()]).1, u64::MAX);
        }
    }
}
