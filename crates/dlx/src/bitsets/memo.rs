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
//! The threads of one count (but the two of a count in bands, see `band`) share a [`Shared`]
//! table, which none of them locks to look a key up or to store one: its records lie in chunks
//! that never move once made, and its index is a vector of atomic slots, each taken with one
//! compare-and-swap (the record written before, so that a thread that finds the slot finds the
//! record whole). Each thread hands itself records [`CLAIM`] at a time and keeps its figures in a
//! [`Claim`] of its own, added to the table's when its search ends, so that the threads write no
//! common word per entry. The index grows by doubling into a new one, which a thread fills from
//! the old one in one pass in order (a slot's place is its tag's top bits) while the others go on
//! (they look in both until it is full, and store into the new one). Two threads may store the
//! same subproblem at once: both records hold its whole count, and the index keeps one. A search
//! reaches either kind through [`Memory`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use crate::settings::MemoStats;

/// Where a memoized search looks subproblems up and stores them.
#[derive(Debug)]
pub(crate) enum Memory<'a> {
    /// A table of its own.
    Own(&'a mut Table),
    /// A table shared with other threads, and this thread's claim on it.
    Shared(&'a Shared, &'a mut Claim),
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
            Memory::Shared(shared, claim) => shared.get(key, h, claim),
        }
    }

    /// Stores `hit` for `key` (which [`get`](Self::get) did not find), unless the table is at
    /// its budget. (Another thread may have stored it meanwhile: the key is then found first,
    /// and the second record is never read; both hold the same count.)
    #[inline]
    pub(crate) fn insert(&mut self, key: &[u64], hit: Hit) {
        let h = hash(key);
        match self {
            Memory::Own(table) => table.insert(key, h, hit),
            Memory::Shared(shared, claim) => shared.insert(key, h, hit, claim),
        }
    }
}

/// A search that ends adds its figures to the shared table's.
impl Drop for Memory<'_> {
    fn drop(&mut self) {
        if let Memory::Shared(shared, claim) = self {
            shared.settle(claim);
        }
    }
}

/// Records a thread hands itself at a time from a [`Shared`] table.
const CLAIM: usize = 64;

/// The fewest records in a chunk of a [`Shared`] table.
const CHUNK: usize = 1 << 12;

/// The most chunks a [`Shared`] table has room for (its chunks are larger when its budget holds
/// more records).
const MOST_CHUNKS: usize = 1 << 16;

/// Slots of a shared table's first index (more for a table it starts from: at least four times
/// its entries).
const FIRST_SLOTS: usize = 1 << 14;

/// A thread's part of a [`Shared`] table: the records it has handed itself and not yet filled,
/// the indexes it looks in, and its figures not yet added to the table's.
#[derive(Debug, Default)]
pub(crate) struct Claim {
    next: usize,
    end: usize,
    /// The table's indexes as of its `generation` (0: none yet), the newest last.
    indexes: Vec<Arc<[AtomicU64]>>,
    generation: usize,
    entries: u64,
    hits: u64,
    misses: u64,
    dropped: u64,
}

/// A table shared by the threads of one count (see the module docs).
pub(crate) struct Shared {
    /// Words in a key.
    words: usize,
    /// The records, in chunks of `chunk` records made once each; a record is the key, the
    /// count's two halves, the nodes and the ZDD node, as in [`Table`].
    chunks: Box<[OnceLock<Box<[AtomicU64]>>]>,
    chunk: usize,
    /// Records handed out so far, [`CLAIM`] at a time, and the most the chunks may hold.
    claimed: AtomicUsize,
    most: usize,
    /// The indexes looked in, the newest last (keys are stored into it), slots as in [`Table`]
    /// but for their places ([`top_slot`]); more than one while a new one is filled. Their
    /// generation changes with them.
    indexes: Mutex<Vec<Arc<[AtomicU64]>>>,
    generation: AtomicUsize,
    /// The records the newest index takes (three quarters of its slots).
    room: AtomicUsize,
    /// Bytes the chunks, the indexes and the words above 128 bits take.
    bytes: AtomicUsize,
    /// The most bytes the table may take.
    budget: usize,
    /// Held to make a chunk or an index.
    making: Mutex<()>,
    /// The words above the low 128 bits of the counts that have them, by record.
    high: Mutex<HashMap<u32, Box<[u64]>>>,
    /// The threads' figures, as they add them: entries, hits, misses, dropped.
    figures: [AtomicU64; 4],
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared").field("words", &self.words).field("figures", &self.figures()).finish()
    }
}

impl Shared {
    /// An empty table for keys of `words` words, which takes at most `budget` bytes in all.
    pub(crate) fn new(words: usize, budget: usize) -> Shared {
        Shared::with_slots(words, budget, FIRST_SLOTS)
    }

    /// An empty table whose first index has `slots` slots (a power of two; fewer if they do not
    /// fit `budget`).
    fn with_slots(words: usize, budget: usize, slots: usize) -> Shared {
        let most = (budget / ((words + META) * 8)).min(u32::MAX as usize - 1);
        let chunk = CHUNK.max((most / MOST_CHUNKS).next_power_of_two());
        let mut slots = slots;
        while slots > 1024 && slots * 8 > budget / 4 {
            slots /= 2;
        }
        let fits = slots * 8 <= budget;
        let indexes = if fits { vec![zeroed(slots).into()] } else { Vec::new() };
        Shared {
            words,
            chunks: (0..most.div_ceil(chunk)).map(|_| OnceLock::new()).collect(),
            chunk,
            claimed: AtomicUsize::new(0),
            most,
            indexes: Mutex::new(indexes),
            generation: AtomicUsize::new(1),
            room: AtomicUsize::new(if fits { slots / 4 * 3 } else { 0 }),
            bytes: AtomicUsize::new(if fits { slots * 8 } else { 0 }),
            budget,
            making: Mutex::new(()),
            high: Mutex::new(HashMap::new()),
            figures: Default::default(),
        }
    }

    /// A table of `budget` bytes that holds what `table` holds (as much of it as fits), with its
    /// figures.
    pub(crate) fn from_table(table: &Table, budget: usize) -> Shared {
        let slots = (table.len * 4).next_power_of_two().max(FIRST_SLOTS);
        let shared = Shared::with_slots(table.words, budget, slots);
        let mut claim = Claim {
            hits: table.figures.hits,
            misses: table.figures.misses,
            dropped: table.figures.dropped,
            ..Claim::default()
        };
        for (key, hit) in table.entries() {
            shared.insert(key, hash(key), hit, &mut claim);
        }
        shared.settle(&mut claim);
        shared
    }

    /// Words of a record.
    fn stride(&self) -> usize {
        self.words + META
    }

    /// Record `r`, if its chunk is made.
    #[inline]
    fn record(&self, r: usize) -> Option<&[AtomicU64]> {
        let stride = self.stride();
        let offset = (r % self.chunk) * stride;
        self.chunks.get(r / self.chunk)?.get().map(|chunk| &chunk[offset..offset + stride])
    }

    /// Whether record `r` holds `key`.
    #[inline]
    fn holds(&self, r: usize, key: &[u64]) -> bool {
        self.record(r)
            .is_some_and(|record| record.iter().zip(key).all(|(a, &b)| a.load(Ordering::Relaxed) == b))
    }

    /// The indexes to look in, as `claim` last saw them, seen again if they have changed.
    #[inline]
    fn indexes<'c>(&self, claim: &'c mut Claim) -> &'c [Arc<[AtomicU64]>] {
        if claim.generation != self.generation.load(Ordering::SeqCst) {
            let indexes = self.indexes.lock().unwrap_or_else(PoisonError::into_inner);
            claim.indexes.clone_from(&indexes);
            claim.generation = self.generation.load(Ordering::Acquire);
        }
        &claim.indexes
    }

    /// The record `key` (whose hash is `h`) is stored in, in `index`, if any.
    #[inline]
    fn find(&self, index: &[AtomicU64], key: &[u64], h: u64) -> Option<usize> {
        let mask = index.len() - 1;
        let mut slot = top_slot(h, index.len());
        let tag = h & TAG;
        for _ in 0..index.len() {
            let at = index[slot].load(Ordering::Acquire);
            if at == 0 {
                return None;
            }
            if at & TAG == tag {
                // (Records are numbered below `u32::MAX`: see `with_slots`.)
                let r = usize::try_from(at & !TAG).unwrap_or(0) - 1;
                if self.holds(r, key) {
                    return Some(r);
                }
            }
            slot = (slot + 1) & mask;
        }
        None
    }

    /// What is stored for `key` (whose hash is `h`), if anything.
    #[inline]
    fn get(&self, key: &[u64], h: u64, claim: &mut Claim) -> Option<Hit> {
        debug_assert_eq!(key.len(), self.words);
        let found = self.indexes(claim).iter().rev().find_map(|index| self.find(index, key, h));
        match found {
            Some(r) => {
                claim.hits += 1;
                Some(self.hit(r))
            }
            None => {
                claim.misses += 1;
                None
            }
        }
    }

    /// What record `r` holds.
    fn hit(&self, r: usize) -> Hit {
        let mut meta = [0; META];
        if let Some(record) = self.record(r) {
            for (m, word) in meta.iter_mut().zip(&record[self.words..]) {
                *m = word.load(Ordering::Relaxed);
            }
        }
        unpack(&meta, || {
            let high = self.high.lock().unwrap_or_else(PoisonError::into_inner);
            u32::try_from(r).ok().and_then(|r| high.get(&r)).cloned()
        })
    }

    /// Stores `hit` for `key` (whose hash is `h`), unless the table is at its budget.
    fn insert(&self, key: &[u64], h: u64, hit: Hit, claim: &mut Claim) {
        debug_assert_eq!(key.len(), self.words);
        let record = self.claim(claim).and_then(|r| Some((r, self.record(r)?)));
        let Some((r, record)) = record else {
            claim.dropped += 1;
            return;
        };
        let (meta, high) = pack(hit);
        if let Some(high) = high {
            let size = high_bytes(&high);
            if self.bytes.fetch_add(size, Ordering::Relaxed) + size > self.budget {
                self.bytes.fetch_sub(size, Ordering::Relaxed);
                claim.dropped += 1;
                return;
            }
            // (Below `u32::MAX`: see `with_slots`.)
            let r = u32::try_from(r).unwrap_or(u32::MAX);
            self.high.lock().unwrap_or_else(PoisonError::into_inner).insert(r, high);
        }
        for (word, &value) in record.iter().zip(key.iter().chain(&meta)) {
            word.store(value, Ordering::Relaxed);
        }
        // Into the newest index, and again into a newer one made meanwhile (see `grow`).
        loop {
            if let Some(index) = self.indexes(claim).last() {
                self.place(index, key, h, r);
            }
            if self.generation.load(Ordering::SeqCst) == claim.generation {
                break;
            }
        }
        claim.entries += 1;
    }

    /// Puts record `r`, of `key` whose hash is `h`, in `index`, unless a record of the same key
    /// is there already (or the index is full).
    fn place(&self, index: &[AtomicU64], key: &[u64], h: u64, r: usize) {
        self.put(index, (h & TAG) | (r as u64 + 1), Some(key));
    }

    /// Puts the slot `value` (a record and its key's tag) in `index`, unless that record, or
    /// another of the same key (`key`, read from the record if not given), is there already (or
    /// the index is full).
    fn put(&self, index: &[AtomicU64], value: u64, key: Option<&[u64]>) {
        let mask = index.len() - 1;
        let mut slot = top_slot(value, index.len());
        let tag = value & TAG;
        let record = |at: u64| usize::try_from(at & !TAG).unwrap_or(0) - 1;
        for _ in 0..index.len() {
            let mut at = index[slot].load(Ordering::Acquire);
            if at == 0 {
                match index[slot].compare_exchange(0, value, Ordering::SeqCst, Ordering::Acquire) {
                    Ok(_) => return,
                    Err(now) => at = now,
                }
            }
            if at == value {
                return;
            }
            if at & TAG == tag {
                let same = match key {
                    Some(key) => self.holds(record(at), key),
                    None => self.record(record(value)).is_some_and(|mine| {
                        let key: Vec<u64> =
                            mine[..self.words].iter().map(|w| w.load(Ordering::Relaxed)).collect();
                        self.holds(record(at), &key)
                    }),
                };
                if same {
                    return;
                }
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The next record of `claim`, which hands itself [`CLAIM`] more when it has none left:
    /// `None` when the table is at its budget.
    #[inline]
    fn claim(&self, claim: &mut Claim) -> Option<usize> {
        if claim.next == claim.end {
            let start = self.claimed.fetch_add(CLAIM, Ordering::Relaxed);
            let end = start + CLAIM;
            if end > self.most {
                return None;
            }
            let room = self.room.load(Ordering::Acquire);
            // Past two thirds of the room (half the slots), a thread makes the next index (the
            // others go on); past the room, they wait for it.
            if end > room / 3 * 2 && !self.grow(end, end > room) {
                return None;
            }
            let c = start / self.chunk;
            if self.chunks[c].get().is_none() && !self.make_chunk(c) {
                return None;
            }
            claim.next = start;
            claim.end = end;
        }
        claim.next += 1;
        Some(claim.next - 1)
    }

    /// Makes chunk `c`, if it fits the budget: whether it is made.
    fn make_chunk(&self, c: usize) -> bool {
        let _making = self.making.lock().unwrap_or_else(PoisonError::into_inner);
        if self.chunks[c].get().is_some() {
            return true;
        }
        let bytes = self.chunk * self.stride() * 8;
        if self.bytes.load(Ordering::Relaxed) + bytes > self.budget {
            return false;
        }
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        self.chunks[c].set(zeroed(self.chunk * self.stride())).is_ok()
    }

    /// Makes an index twice the newest's when records up to `end` outgrow it and it fits the
    /// budget, and fills it from the older ones (waiting for a thread making one already when
    /// `wait`, else leaving it to that thread): whether there is room for records up to `end`.
    fn grow(&self, end: usize, wait: bool) -> bool {
        let making = if wait {
            self.making.lock().unwrap_or_else(PoisonError::into_inner)
        } else {
            match self.making.try_lock() {
                Ok(making) => making,
                Err(_) => return true,
            }
        };
        let room = self.room.load(Ordering::Acquire);
        if end <= room / 3 * 2 {
            return true;
        }
        let indexes = self.indexes.lock().unwrap_or_else(PoisonError::into_inner);
        let slots = indexes.last().map_or(0, |index| index.len() * 2);
        drop(indexes);
        if slots == 0 || self.bytes.load(Ordering::Relaxed) + slots * 8 > self.budget {
            return end <= room;
        }
        self.bytes.fetch_add(slots * 8, Ordering::Relaxed);
        let index: Arc<[AtomicU64]> = zeroed(slots).into();
        let mut indexes = self.indexes.lock().unwrap_or_else(PoisonError::into_inner);
        indexes.push(Arc::clone(&index));
        let older = indexes[..indexes.len() - 1].to_vec();
        self.generation.fetch_add(1, Ordering::SeqCst);
        drop(indexes);
        self.room.store(slots / 4 * 3, Ordering::Release);
        drop(making);
        // Every slot of the older indexes into the new one, in one pass: a slot's place is its
        // tag's top bits, so that the slots keep their order. A thread that puts a slot in an
        // older index after this pass reads it sees the new generation after (both sequentially
        // consistent), and puts it in the new index too (see `insert`). Then the old ones are
        // looked in no more, and freed once no thread holds them.
        for old in &older {
            for slot in old.iter() {
                let value = slot.load(Ordering::SeqCst);
                if value != 0 {
                    self.put(&index, value, None);
                }
            }
        }
        let mut indexes = self.indexes.lock().unwrap_or_else(PoisonError::into_inner);
        let newer = indexes.iter().position(|i| Arc::ptr_eq(i, &index)).unwrap_or(0);
        for old in indexes.drain(..newer) {
            self.bytes.fetch_sub(old.len() * 8, Ordering::Relaxed);
        }
        self.generation.fetch_add(1, Ordering::AcqRel);
        true
    }

    /// Adds a thread's figures to the table's.
    fn settle(&self, claim: &mut Claim) {
        let figures = [claim.entries, claim.hits, claim.misses, claim.dropped];
        for (sum, f) in self.figures.iter().zip(figures) {
            sum.fetch_add(f, Ordering::Relaxed);
        }
        (claim.entries, claim.hits, claim.misses, claim.dropped) = (0, 0, 0, 0);
    }

    /// The table's figures so far (those the threads have added).
    pub(crate) fn figures(&self) -> MemoStats {
        let [entries, hits, misses, dropped] = self.figures.each_ref().map(|f| f.load(Ordering::Relaxed));
        let bytes = self.bytes.load(Ordering::Relaxed) as u64;
        MemoStats { entries, hits, misses, bytes, dropped, plain_nodes: 0 }
    }
}

/// The first slot to look at for a key whose hash is `h` (or a slot holding its tag) in a shared
/// index of `len` slots (a power of two, at most 2^32): the tag's top bits, so that in an index
/// twice as large the slots keep their order.
#[inline]
fn top_slot(h: u64, len: usize) -> usize {
    // (At most 32 bits: `len` is at most 2^32.)
    usize::try_from((h >> 32) >> (32 - len.trailing_zeros().min(32))).unwrap_or(0)
}

/// `n` atomic words, each 0.
fn zeroed(n: usize) -> Box<[AtomicU64]> {
    (0..n).map(|_| AtomicU64::new(0)).collect()
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

/// The words of a record after its key for `hit` (see `Table::records`), and the words of its
/// count above the low 128 bits, kept apart.
fn pack(hit: Hit) -> ([u64; META], Option<Box<[u64]>>) {
    let nodes = hit.nodes.min(NODES) | if hit.high.is_some() { HIGH } else { 0 };
    // (The count's two halves.)
    #[allow(clippy::cast_possible_truncation)]
    let meta = [hit.count as u64, (hit.count >> 64) as u64, nodes, u64::from(hit.zdd)];
    (meta, hit.high)
}

/// What a record whose words after its key are `meta` holds, `high` giving the words of its
/// count above the low 128 bits when it has them.
fn unpack(meta: &[u64], high: impl FnOnce() -> Option<Box<[u64]>>) -> Hit {
    let nodes = meta[2];
    let high = if nodes & HIGH == 0 { None } else { high() };
    let count = u128::from(meta[0]) | (u128::from(meta[1]) << 64);
    // (Stored from a `u32`.)
    let zdd = u32::try_from(meta[3]).unwrap_or(0);
    Hit { count, high, nodes: nodes & NODES, zdd }
}

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
        // (Entries are numbered below `u32::MAX`: see `insert`.)
        unpack(&self.record(e)[self.words..], || {
            u32::try_from(e).ok().and_then(|e| self.high.get(&e)).cloned()
        })
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
        let (meta, high) = pack(hit);
        if let Some(high) = high {
            self.high_bytes += high_bytes;
            // (Below `u32::MAX`: checked above.)
            self.high.insert(u32::try_from(entries).unwrap_or(u32::MAX), high);
        }
        self.records.extend_from_slice(key);
        self.records.extend_from_slice(&meta);
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
        drop(memo);
        let figures = table.figures();
        assert_eq!((figures.entries, figures.hits, figures.dropped), (10_000, 10_000, 0));

        let mut small = Table::new(2, 64 * 1024);
        let mut memo = Memory::Own(&mut small);
        for k in 0..100_000u64 {
            memo.insert(&[k, 0], hit(1, 1));
        }
        assert_eq!(memo.get(&[5, 0]), Some(hit(1, 1)));
        drop(memo);
        let figures = small.figures();
        assert!(figures.bytes <= 64 * 1024, "{figures:?}");
        assert!(figures.dropped > 0 && figures.entries > 500, "{figures:?}");

        // Counts past 2^128 take their words above from the same budget.
        let mut big = Table::new(2, 64 * 1024);
        let mut memo = Memory::Own(&mut big);
        for k in 0..100_000u64 {
            memo.insert(&[k, 0], Hit { high: Some(vec![k; 8].into_boxed_slice()), ..hit(1, 1) });
        }
        drop(memo);
        let figures = big.figures();
        assert!(figures.bytes <= 64 * 1024 && figures.dropped > 0, "{figures:?}");
        assert!(figures.entries < 682, "fewer than without the words above: {figures:?}");
    }

    /// Threads sharing a table find what each stored, as they store it too, across the growths
    /// of its index, counts past 2^128 with their words above; the figures add up over the
    /// threads; and the budget holds for the whole.
    #[test]
    fn threads_share_a_table() {
        let shared = Shared::new(2, usize::MAX);
        let count = |k: u64, t: u64| u128::from(k + t) << 64;
        let high = |k: u64| k.is_multiple_of(1000).then(|| vec![k, 1].into_boxed_slice());
        std::thread::scope(|scope| {
            for t in 0..4u64 {
                let shared = &shared;
                scope.spawn(move || {
                    let mut claim = Claim::default();
                    let mut memo = Memory::Shared(shared, &mut claim);
                    for k in 0..50_000u64 {
                        memo.insert(&[k, t], Hit { high: high(k), ..hit(count(k, t), k) });
                        let j = k / 2;
                        assert_eq!(memo.get(&[j, t]), Some(Hit { high: high(j), ..hit(count(j, t), j) }));
                    }
                });
            }
        });
        assert!(shared.generation.load(Ordering::Relaxed) > 8, "the index grew several times");
        let mut claim = Claim::default();
        let mut memo = Memory::Shared(&shared, &mut claim);
        for t in 0..4u64 {
            for k in 0..50_000u64 {
                assert_eq!(memo.get(&[k, t]), Some(Hit { high: high(k), ..hit(count(k, t), k) }));
            }
            assert_eq!(memo.get(&[50_000, t]), None);
        }
        drop(memo);
        let figures = shared.figures();
        assert_eq!((figures.entries, figures.dropped, figures.misses), (200_000, 0, 4));
        assert_eq!(figures.hits, 400_000);

        let small = Shared::new(2, 1 << 20);
        let mut claim = Claim::default();
        let mut memo = Memory::Shared(&small, &mut claim);
        for k in 0..200_000u64 {
            memo.insert(&[k, 0], hit(1, 1));
        }
        drop(memo);
        let figures = small.figures();
        assert!(figures.bytes <= 1 << 20 && figures.dropped > 0, "{figures:?}");
    }
}
