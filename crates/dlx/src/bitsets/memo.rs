//! The table of a memoized count: the count of each subproblem met, keyed by its signature, the
//! set of options still possible on entering its level (see the module docs above for why that
//! set is the whole subproblem).
//!
//! Entries are stored end to end in one vector, each key (`words` words) followed by its count (a
//! `u128`; the words above 128 bits, of the few counts that have them, in a map by entry), nodes
//! and ZDD node, so that a hit reads one record; an index of open addressing (linear probing over a
//! power-of-two table of slot numbers) finds a key's slot. Nothing is allocated per entry: the
//! vectors grow by doubling, and stop growing at the table's budget of bytes, after which new
//! subproblems are no longer stored (those stored still answer). A count that stops early (a limit,
//! a budget, Ctrl-C) stores nothing for the levels it leaves unfinished, so what the table holds is
//! always exact.
//!
//! The threads of one count share a [`Shared`] table: stripes, each a [`Table`] behind its own
//! lock, a key going to the stripe its hash's high bits name (the low bits choose its slot there),
//! so that two threads rarely wait for each other. A search reaches either kind through
//! [`Memory`].

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use crate::settings::MemoStats;

/// Where a memoized search looks subproblems up and stores them.
#[derive(Debug)]
pub(crate) enum Memory<'a> {
    /// A table of its own.
    Own(&'a mut Table),
    /// A table shared with other threads.
    Shared(&'a Shared),
}

/// A subproblem found in the table: its count (the low 128 bits, and the words above them if it
/// has any, the least first), the nodes its search took without the memo, and its ZDD node.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) count: u128,
    pub(crate) high: Option<Box<[u64]>>,
    pub(crate) nodes: u64,
    pub(crate) zdd: u32,
}

impl Memory<'_> {
    /// The count stored for `key`, if any, with the nodes its search took without the memo and
    /// its ZDD node (see [`Table::insert`]).
    #[inline]
    pub(crate) fn get(&mut self, key: &[u64]) -> Option<Hit> {
        let h = hash(key);
        match self {
            Memory::Own(table) => table.get(key, h),
            Memory::Shared(shared) => shared.stripe(h).get(key, h),
        }
    }

    /// Stores `hit` for `key` (which [`get`](Self::get) did not find), unless the table is at
    /// its budget. (Another thread may have stored it meanwhile: the key is then found first,
    /// and the second entry is never read; both hold the same count.)
    #[inline]
    pub(crate) fn insert(&mut self, key: &[u64], hit: Hit) {
        let h = hash(key);
        match self {
            Memory::Own(table) => table.insert(key, h, hit),
            Memory::Shared(shared) => shared.stripe(h).insert(key, h, hit),
        }
    }
}

/// Stripes of a table shared by threads.
const STRIPES: usize = 64;

/// A table shared by the threads of one count (see the module docs).
#[derive(Debug)]
pub(crate) struct Shared {
    stripes: Box<[Mutex<Table>]>,
}

impl Shared {
    /// An empty table for keys of `words` words, which takes at most `budget` bytes in all.
    pub(crate) fn new(words: usize, budget: usize) -> Shared {
        Shared { stripes: (0..STRIPES).map(|_| Mutex::new(Table::new(words, budget / STRIPES))).collect() }
    }

    /// A table of `budget` bytes that holds what `table` holds (as much of it as fits), with its
    /// figures.
    pub(crate) fn from_table(table: &Table, budget: usize) -> Shared {
        let shared = Shared::new(table.words, budget);
        for (key, hit) in table.entries() {
            let h = hash(key);
            shared.stripe(h).insert(key, h, hit);
        }
        let mut first = shared.stripes[0].lock().unwrap_or_else(PoisonError::into_inner);
        first.figures.hits += table.figures.hits;
        first.figures.misses += table.figures.misses;
        first.figures.dropped += table.figures.dropped;
        drop(first);
        shared
    }

    /// The stripe of a key whose hash is `h`, locked.
    #[inline]
    fn stripe(&self, h: u64) -> std::sync::MutexGuard<'_, Table> {
        // The top 6 bits: fewer than `STRIPES`.
        let s = usize::try_from(h >> 58).unwrap_or(0);
        self.stripes[s].lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The table's figures so far, over all its stripes.
    pub(crate) fn figures(&self) -> MemoStats {
        self.stripes.iter().fold(MemoStats::default(), |sum, stripe| {
            let f = stripe.lock().unwrap_or_else(PoisonError::into_inner).figures();
            MemoStats {
                entries: sum.entries + f.entries,
                hits: sum.hits + f.hits,
                misses: sum.misses + f.misses,
                bytes: sum.bytes + f.bytes,
                dropped: sum.dropped + f.dropped,
                plain_nodes: 0,
            }
        })
    }
}

/// Subproblems' counts by signature.
#[derive(Debug)]
pub(crate) struct Table {
    /// Words in a key.
    words: usize,
    /// The entries end to end, [`META`] words after each key, so that a hit reads one record
    /// (the index's slot aside): entry `e`'s is `records[e * (words + META)..]`, its key, the low
    /// and high halves of its count's low 128 bits, its nodes, and its ZDD node. The nodes are
    /// those its subproblem takes without the memo (saturating at [`NODES`]): what meeting it
    /// again saves, with [`HIGH`] when its count has words above the low 128 bits (in `high`).
    /// The ZDD node is its node in the ZDD of a count that makes one (0 otherwise, and for a
    /// subproblem without solutions).
    records: Vec<u64>,
    /// Entries stored.
    len: usize,
    /// The words above the low 128 bits of the counts that have them, by entry, and the bytes
    /// they take (counted against the budget as the vectors are).
    high: HashMap<u32, Box<[u64]>>,
    high_bytes: usize,
    /// Open addressing: `0` for an empty slot, else an entry's index plus one in the low 32 bits
    /// and the high 32 bits of its key's hash above them, so that a slot of another key is
    /// mostly passed over without reading the key.
    index: Vec<u64>,
    /// The most bytes the table may take.
    budget: usize,
    figures: MemoStats,
}

/// Words of an entry's record after its key: its count's two halves, nodes, ZDD node.
const META: usize = 4;

impl Table {
    /// An empty table for keys of `words` words, which takes at most `budget` bytes.
    pub(crate) fn new(words: usize, budget: usize) -> Table {
        Table {
            words,
            records: Vec::new(),
            len: 0,
            high: HashMap::new(),
            high_bytes: 0,
            index: vec![0; 1024],
            budget,
            figures: MemoStats::default(),
        }
    }

    /// The table's figures so far.
    pub(crate) fn figures(&self) -> MemoStats {
        MemoStats { entries: self.len as u64, bytes: self.bytes() as u64, ..self.figures }
    }

    /// Bytes the table's vectors hold room for.
    fn bytes(&self) -> usize {
        self.records.capacity() * 8 + self.index.capacity() * 8 + self.high_bytes
    }

    /// Entry `e`'s record.
    #[inline]
    fn record(&self, e: usize) -> &[u64] {
        let stride = self.words + META;
        &self.records[e * stride..(e + 1) * stride]
    }

    /// Every entry: its key and what it holds.
    fn entries(&self) -> impl Iterator<Item = (&[u64], Hit)> {
        (0..self.len).map(move |e| (&self.record(e)[..self.words], self.hit(e)))
    }

    /// What entry `e` holds.
    #[inline]
    fn hit(&self, e: usize) -> Hit {
        let meta = &self.record(e)[self.words..];
        let nodes = meta[2];
        let high = if nodes & HIGH == 0 {
            None
        } else {
            // (Entries are numbered below `u32::MAX`: see `insert`.)
            u32::try_from(e).ok().and_then(|e| self.high.get(&e)).cloned()
        };
        let count = u128::from(meta[0]) | (u128::from(meta[1]) << 64);
        // (Stored from a `u32`.)
        let zdd = u32::try_from(meta[3]).unwrap_or(0);
        Hit { count, high, nodes: nodes & NODES, zdd }
    }

    /// What is stored for `key`, if anything.
    #[inline]
    fn get(&mut self, key: &[u64], h: u64) -> Option<Hit> {
        debug_assert_eq!(key.len(), self.words);
        let mask = self.index.len() - 1;
        let mut slot = slot_of(h, mask);
        let tag = h & TAG;
        loop {
            let at = self.index[slot];
            if at == 0 {
                self.figures.misses += 1;
                return None;
            }
            if at & TAG == tag {
                // (The entry's index is below `u32::MAX`: see `insert`.)
                let e = usize::try_from(at & !TAG).unwrap_or(0) - 1;
                if self.record(e)[..self.words].iter().zip(key).all(|(a, b)| a == b) {
                    self.figures.hits += 1;
                    return Some(self.hit(e));
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Stores `hit` for `key` (which [`get`](Self::get) did not find), unless the table is at
    /// its budget.
    fn insert(&mut self, key: &[u64], h: u64, hit: Hit) {
        debug_assert_eq!(key.len(), self.words);
        let entries = self.len;
        let high_bytes = hit.high.as_ref().map_or(0, |h| high_bytes(h));
        if entries + 1 >= u32::MAX as usize || !self.has_room(high_bytes) {
            self.figures.dropped += 1;
            return;
        }
        if (entries + 1) * 2 > self.index.len() {
            self.grow_index();
        }
        let mut nodes = hit.nodes.min(NODES);
        if let Some(high) = hit.high {
            nodes |= HIGH;
            self.high_bytes += high_bytes;
            // (Below `u32::MAX`: checked above.)
            self.high.insert(u32::try_from(entries).unwrap_or(u32::MAX), high);
        }
        self.records.extend_from_slice(key);
        // (The count's two halves.)
        #[allow(clippy::cast_possible_truncation)]
        let halves = [hit.count as u64, (hit.count >> 64) as u64];
        self.records.extend_from_slice(&[halves[0], halves[1], nodes, u64::from(hit.zdd)]);
        self.len += 1;
        let mask = self.index.len() - 1;
        let mut slot = slot_of(h, mask);
        while self.index[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        self.index[slot] = (h & TAG) | (entries as u64 + 1);
    }

    /// Whether one more entry, with `high` bytes of words above its count's 128 bits, fits the
    /// budget, counting the growth of each vector that is full.
    fn has_room(&self, high: usize) -> bool {
        let grown = |len: usize, capacity: usize, size: usize| {
            if len < capacity { capacity * size } else { (capacity * 2).max(len + 1) * size }
        };
        let records = grown(self.records.len() + self.words + META, self.records.capacity(), 8);
        let index =
            if (self.len + 1) * 2 > self.index.len() { self.index.len() * 2 } else { self.index.len() };
        records + index * 8 + self.high_bytes + high <= self.budget
    }

    /// Doubles the index and places every entry again.
    fn grow_index(&mut self) {
        let size = self.index.len() * 2;
        self.index.clear();
        self.index.resize(size, 0);
        let mask = size - 1;
        for e in 0..self.len {
            let h = hash(&self.record(e)[..self.words]);
            let mut slot = slot_of(h, mask);
            while self.index[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.index[slot] = (h & TAG) | (e as u64 + 1);
        }
    }
}

/// The bytes a count's words above 128 bits take in the table's map: the words, and about as
/// much again for the map's slot and the allocation's own record.
fn high_bytes(high: &[u64]) -> usize {
    32 + high.len() * 8
}

/// The most nodes an entry holds (see `Table::records`).
const NODES: u64 = u64::MAX >> 1;

/// The bit of an entry's nodes that says its count has words above 128 bits.
const HIGH: u64 = !NODES;

/// The bits of a slot that hold its key's hash (see `Table::index`).
const TAG: u64 = 0xffff_ffff_0000_0000;

/// The first slot to look at for a key whose hash is `h`, in an index of `mask + 1` slots.
#[inline]
fn slot_of(h: u64, mask: usize) -> usize {
    // (The masked hash is at most `mask`, a `usize`.)
    usize::try_from(h & mask as u64).unwrap_or(0)
}

/// A key's hash: its words folded by multiplication with odd constants, then mixed (the low
/// bits choose the slot, so every word must reach them).
#[inline]
fn hash(key: &[u64]) -> u64 {
    let mut h = 0x9e37_79b9_7f4a_7c15u64;
    for &w in key {
        h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 32;
    }
    h ^= h >> 29;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hit of a count below 2^128.
    fn hit(count: u128, nodes: u64) -> Hit {
        Hit { count, high: None, nodes, zdd: 0 }
    }

    /// Keys stored are found with their counts (past 2^128 too) across growths of the index;
    /// keys not stored are not; a table at its budget stops storing and says so.
    #[test]
    fn keys_are_found_with_their_counts() {
        let mut table = Table::new(3, usize::MAX);
        let mut memo = Memory::Own(&mut table);
        for k in 0..10_000u64 {
            let key = [k, k.wrapping_mul(7), 1 << (k % 64)];
            assert_eq!(memo.get(&key), None);
            let high = (k % 100 == 0).then(|| vec![k, 1].into_boxed_slice());
            memo.insert(&key, Hit { high, ..hit(u128::from(k) << 70, k) });
        }
        for k in 0..10_000u64 {
            let high = (k % 100 == 0).then(|| vec![k, 1].into_boxed_slice());
            let found = memo.get(&[k, k.wrapping_mul(7), 1 << (k % 64)]);
            assert_eq!(found, Some(Hit { high, ..hit(u128::from(k) << 70, k) }));
            assert_eq!(memo.get(&[k, k.wrapping_mul(7), 0]), None);
        }
        let figures = table.figures();
        assert_eq!((figures.entries, figures.hits, figures.dropped), (10_000, 10_000, 0));

        let mut small = Table::new(2, 64 * 1024);
        let mut memo = Memory::Own(&mut small);
        for k in 0..100_000u64 {
            memo.insert(&[k, 0], hit(1, 1));
        }
        assert_eq!(memo.get(&[5, 0]), Some(hit(1, 1)));
        let figures = small.figures();
        assert!(figures.bytes <= 64 * 1024, "{figures:?}");
        assert!(figures.dropped > 0 && figures.entries > 500, "{figures:?}");

        // Counts past 2^128 take their words above from the same budget.
        let mut big = Table::new(2, 64 * 1024);
        let mut memo = Memory::Own(&mut big);
        for k in 0..100_000u64 {
            memo.insert(&[k, 0], Hit { high: Some(vec![k; 8].into_boxed_slice()), ..hit(1, 1) });
        }
        let figures = big.figures();
        assert!(figures.bytes <= 64 * 1024 && figures.dropped > 0, "{figures:?}");
        assert!(figures.entries < 682, "fewer than without the words above: {figures:?}");
    }

    /// Threads sharing a table find what each stored, whatever stripe it went to; the figures
    /// add up over the stripes; and the budget holds for the whole.
    #[test]
    fn threads_share_a_table() {
        let shared = Shared::new(2, usize::MAX);
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let shared = &shared;
                scope.spawn(move || {
                    let mut memo = Memory::Shared(shared);
                    for k in 0..5_000u64 {
                        memo.insert(&[k, t], hit(u128::from(k + t), 1));
                    }
                });
            }
        });
        let mut memo = Memory::Shared(&shared);
        for t in 0..4u64 {
            for k in (0..5_000u64).step_by(7) {
                assert_eq!(memo.get(&[k, t]), Some(hit(u128::from(k + t), 1)));
            }
            assert_eq!(memo.get(&[5_000, t]), None);
        }
        let figures = shared.figures();
        assert_eq!((figures.entries, figures.dropped, figures.misses), (20_000, 0, 4));

        let small = Shared::new(2, 1 << 20);
        let mut memo = Memory::Shared(&small);
        for k in 0..200_000u64 {
            memo.insert(&[k, 0], hit(1, 1));
        }
        let figures = small.figures();
        assert!(figures.bytes <= 1 << 20 && figures.dropped > 0, "{figures:?}");
    }
}
