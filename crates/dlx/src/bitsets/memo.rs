//! The table of a memoized count: the count of each subproblem met, keyed by its signature, the
//! set of options still possible on entering its level (see the module docs above for why that
//! set is the whole subproblem).
//!
//! Keys are stored end to end in one vector (`words` words each), counts beside them, and an
//! index of open addressing (linear probing over a power-of-two table of slot numbers) finds a
//! key's slot. Nothing is allocated per entry: the vectors grow by doubling, and stop growing at
//! the table's budget of bytes, after which new subproblems are no longer stored (those stored
//! still answer). A count that stops early (a limit, a budget, Ctrl-C) stores nothing for the
//! levels it leaves unfinished, so what the table holds is always exact.

use crate::settings::MemoStats;

/// Subproblems' counts by signature.
#[derive(Debug)]
pub(crate) struct Table {
    /// Words in a key.
    words: usize,
    /// Entry `e`'s key: `keys[e * words..(e + 1) * words]`.
    keys: Vec<u64>,
    /// Entry `e`'s count.
    counts: Vec<u128>,
    /// The nodes entry `e`'s subproblem takes without the memo (saturating): what meeting it
    /// again saves.
    nodes: Vec<u64>,
    /// Open addressing: `0` for an empty slot, else an entry's index plus one.
    index: Vec<u32>,
    /// The most bytes the table may take.
    budget: usize,
    figures: MemoStats,
}

impl Table {
    /// An empty table for keys of `words` words, which takes at most `budget` bytes.
    pub(crate) fn new(words: usize, budget: usize) -> Table {
        Table {
            words,
            keys: Vec::new(),
            counts: Vec::new(),
            nodes: Vec::new(),
            index: vec![0; 1024],
            budget,
            figures: MemoStats::default(),
        }
    }

    /// The table's figures so far.
    pub(crate) fn figures(&self) -> MemoStats {
        MemoStats { entries: self.counts.len() as u64, bytes: self.bytes() as u64, ..self.figures }
    }

    /// Bytes the table's vectors hold room for.
    fn bytes(&self) -> usize {
        self.keys.capacity() * 8
            + self.counts.capacity() * 16
            + self.nodes.capacity() * 8
            + self.index.capacity() * 4
    }

    /// The count stored for `key`, if any, with the nodes its search took without the memo.
    #[inline]
    pub(crate) fn get(&mut self, key: &[u64]) -> Option<(u128, u64)> {
        debug_assert_eq!(key.len(), self.words);
        let mask = self.index.len() - 1;
        let mut slot = slot_of(key, mask);
        loop {
            let at = self.index[slot] as usize;
            if at == 0 {
                self.figures.misses += 1;
                return None;
            }
            let e = at - 1;
            if &self.keys[e * self.words..(e + 1) * self.words] == key {
                self.figures.hits += 1;
                return Some((self.counts[e], self.nodes[e]));
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Stores `count` and `nodes` for `key` (which [`get`](Self::get) did not find), unless the
    /// table is at its budget.
    pub(crate) fn insert(&mut self, key: &[u64], count: u128, nodes: u64) {
        debug_assert_eq!(key.len(), self.words);
        let entries = self.counts.len();
        if entries + 1 >= u32::MAX as usize || !self.has_room() {
            self.figures.dropped += 1;
            return;
        }
        if (entries + 1) * 2 > self.index.len() {
            self.grow_index();
        }
        self.keys.extend_from_slice(key);
        self.counts.push(count);
        self.nodes.push(nodes);
        let mask = self.index.len() - 1;
        let mut slot = slot_of(key, mask);
        while self.index[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        self.index[slot] = u32::try_from(entries + 1).expect("entries are fewer than u32::MAX");
    }

    /// Whether one more entry fits the budget, counting the growth of each vector that is full.
    fn has_room(&self) -> bool {
        let grown = |len: usize, capacity: usize, size: usize| {
            if len < capacity { capacity * size } else { (capacity * 2).max(len + 1) * size }
        };
        let keys = grown(self.keys.len() + self.words, self.keys.capacity(), 8);
        let counts = grown(self.counts.len(), self.counts.capacity(), 24);
        let index = if (self.counts.len() + 1) * 2 > self.index.len() {
            self.index.len() * 2
        } else {
            self.index.len()
        };
        keys + counts + index * 4 <= self.budget
    }

    /// Doubles the index and places every entry again.
    fn grow_index(&mut self) {
        let size = self.index.len() * 2;
        self.index.clear();
        self.index.resize(size, 0);
        let mask = size - 1;
        for (e, key) in self.keys.chunks_exact(self.words).enumerate() {
            let mut slot = slot_of(key, mask);
            while self.index[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.index[slot] = u32::try_from(e + 1).expect("entries are fewer than u32::MAX");
        }
    }
}

/// The first slot to look at for `key`, in an index of `mask + 1` slots.
#[inline]
fn slot_of(key: &[u64], mask: usize) -> usize {
    // (The masked hash is at most `mask`, a `usize`.)
    usize::try_from(hash(key) & mask as u64).unwrap_or(0)
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

    /// Keys stored are found with their counts across growths of the index; keys not stored are
    /// not; a table at its budget stops storing and says so.
    #[test]
    fn keys_are_found_with_their_counts() {
        let mut memo = Table::new(3, usize::MAX);
        for k in 0..10_000u64 {
            let key = [k, k.wrapping_mul(7), 1 << (k % 64)];
            assert_eq!(memo.get(&key), None);
            memo.insert(&key, u128::from(k) << 70, k);
        }
        for k in 0..10_000u64 {
            assert_eq!(memo.get(&[k, k.wrapping_mul(7), 1 << (k % 64)]), Some((u128::from(k) << 70, k)));
            assert_eq!(memo.get(&[k, k.wrapping_mul(7), 0]), None);
        }
        let figures = memo.figures();
        assert_eq!((figures.entries, figures.hits, figures.dropped), (10_000, 10_000, 0));

        let mut small = Table::new(2, 64 * 1024);
        for k in 0..100_000u64 {
            small.insert(&[k, 0], 1, 1);
        }
        let figures = small.figures();
        assert!(figures.bytes <= 64 * 1024, "{figures:?}");
        assert!(figures.dropped > 0 && figures.entries > 1000, "{figures:?}");
        assert_eq!(small.get(&[5, 0]), Some((1, 1)));
    }
}
