//! The mutable links and the four dancing-links operations: cover, uncover, hide, unhide.
//!
//! This is the hot core of the search. All indices are `u32`; a [`Dance`] is only ever made from a
//! [`Problem`], whose builder guarantees every link is a valid index into `nodes` or `links`, and
//! the operations below only ever copy existing links around, so that stays true.
//!
//! The node fields live in two parallel arrays, `tops` and `uds` (up and down), indexed like the
//! problem's node array: see the crate docs for why.

use crate::index::to_u32;
use crate::problem::{Link, Node, Problem};

/// Added to an item header's `top` (its list length) while the item is covered, so that a scan of
/// the lengths of all primary items, in an array, never picks a covered one. Lengths (with
/// [`SECONDARY`]) stay below it.
pub(crate) const COVERED: u32 = 1 << 31;

/// Added to a secondary item header's `top` (its list length) for good, so that its length never
/// reads as 0: the record of dead ends then needs no test of whether an emptied item is primary.
/// Lengths stay below it because a problem has at most [`MAX_NODES`](crate::MAX_NODES) `< 2^30`
/// nodes.
pub(crate) const SECONDARY: u32 = 1 << 30;

/// The bits of a header's `top` that hold the list length.
const LEN_MASK: u32 = SECONDARY - 1;

/// Lengths are compared this many items at a time by the portable scan (a 64-byte cache line).
const CHUNK: usize = 16;

/// From this many primary items on, the choice of item scans the lengths as an array.
const ARRAY_SCAN_FROM: u32 = 64;

/// How many of a run's latest dead ends the choice of item remembers to break ties at a guess
/// under `TieBreak::LastConflict` (see [`Links::prefer_recent`]); a power of two, so that the
/// count of them may wrap around. Measured on sudoku (first solution, nodes per puzzle, 17-clue /
/// magictour / the first 500 of forum hardest, against 94.6 / 373.3 / 1175.1 with the earliest
/// item): 1 gave 84.4 / 294.7 / 989.9, 4 gave 81.6 / 250.2 / 866.9, 8 gave 80.7 / 233.5 / 817.2,
/// 16 gave 80.7 / 228.5 / 781.7, 32 gave 80.7 / 228.0 / 787.6, 64 gave 80.7 / 227.8 / 784.0.
pub(crate) const RECENT: usize = 16;
const _: () = assert!(RECENT.is_power_of_two());

/// The up and down links of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(C)]
pub(crate) struct UpDown {
    pub(crate) up: u32,
    pub(crate) down: u32,
}

/// The position of the first least length below [`COVERED`] in `lens` (the header lengths of
/// the primary items, covered ones marked), or `None` when every item is covered.
///
/// This is the choice of item for minimum remaining values, as a scan of an array rather than a
/// walk along the list of active items, whose every step waits for the load before it. Lengths
/// are compared a chunk at a time, and the scan stops after the chunk holding the first length of
/// 1 or less. On x86-64 it runs with SSE4.1 where the processor has it (see
/// [`least_position_sse41`]).
#[inline(always)]
fn least_position(lens: &[u32]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sse4.1") {
        // SAFETY: the processor has SSE4.1, as checked just above.
        return unsafe { least_position_sse41(lens) };
    }
    least_position_portable(lens)
}

/// [`least_position`] written with SSE4.1 instructions: baseline x86-64 (SSE2) has no unsigned
/// minimum of 32-bit lanes, so the portable build compares one length at a time, and the
/// compiler's own vectorization of it mixes scalar and vector loads. Each chunk of 32 lengths here
/// is eight loads, seven unsigned minima (`pminud`) and a test for a lane below the best so far
/// (one more minimum, against `best - 1`); only a chunk that has one is reduced to its least
/// length and searched for the first lane holding it, by a mask of equal lanes. The lengths left
/// over go by 16, then one at a time. Measured against the compiler-vectorized portable code:
/// 10-11% off sudoku solving, 7-8% off generation (with chunks of 16; chunks of 32 took 2-3% more
/// off solving, 64 lost it again).
///
/// `is_x86_feature_detected!` caches its answer (an atomic load and a bit test per call).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse4.1")]
fn least_position_sse41(lens: &[u32]) -> Option<usize> {
    let mut scan = sse41::Scan::new();
    let (wide, rest) = lens.as_chunks::<32>();
    if let Some(k) = scan.chunks(wide, 0) {
        return Some(k);
    }
    let (narrow, rest) = rest.as_chunks::<16>();
    if let Some(k) = scan.chunks(narrow, 32 * wide.len()) {
        return Some(k);
    }
    least_with_rest(lens, rest, scan.best, scan.chosen)
}

/// The chunks of [`least_position_sse41`].
#[cfg(target_arch = "x86_64")]
mod sse41 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi32, _mm_cvtsi128_si32, _mm_loadu_si128, _mm_min_epu32, _mm_movemask_epi8,
        _mm_packs_epi16, _mm_packs_epi32, _mm_set1_epi32, _mm_shuffle_epi32, _mm_sub_epi32,
    };

    use super::COVERED;

    /// A scan in progress: the least length so far (`best`, [`COVERED`] before any), `best - 1`
    /// in every lane, and where the first least length is.
    pub(super) struct Scan {
        pub(super) best: u32,
        below: __m128i,
        pub(super) chosen: Option<usize>,
    }

    impl Scan {
        #[target_feature(enable = "sse4.1")]
        #[inline]
        pub(super) fn new() -> Scan {
            Scan { best: COVERED, below: _mm_set1_epi32((COVERED - 1).cast_signed()), chosen: None }
        }

        /// Scans `chunks` of `W` lengths (16, 32, 48 or 64), the first at position `start`; returns
        /// the position of the first length of 1 or less, where the scan stops.
        #[target_feature(enable = "sse4.1")]
        #[inline]
        pub(super) fn chunks<const W: usize>(&mut self, chunks: &[[u32; W]], start: usize) -> Option<usize> {
            const { assert!(W > 0 && W <= 64 && W.is_multiple_of(16), "1 to 4 groups of 16 lanes") };
            for (c, chunk) in chunks.iter().enumerate() {
                let quad = |k: usize| {
                    // SAFETY: `chunk` holds `W` lengths, `W / 4` quads: quad `k < W / 4` is
                    // within it, and an unaligned load needs no alignment.
                    unsafe { _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>().add(k)) }
                };
                let mut least = quad(0);
                for k in 1..W / 4 {
                    least = _mm_min_epu32(least, quad(k));
                }
                // Most chunks hold nothing shorter than the best so far: find that out with one
                // more minimum (against `best - 1` in every lane) and a comparison.
                let shorter = _mm_cmpeq_epi32(_mm_min_epu32(least, self.below), least);
                if _mm_movemask_epi8(shorter) == 0 {
                    continue;
                }
                // Every lane becomes the least of the chunk.
                least = _mm_min_epu32(least, _mm_shuffle_epi32::<0b0100_1110>(least));
                least = _mm_min_epu32(least, _mm_shuffle_epi32::<0b1011_0001>(least));
                let len = _mm_cvtsi128_si32(least).cast_unsigned();
                // Bit `k` set for each lane `k` equal to the least.
                let mut mask = 0u64;
                for g in 0..W / 16 {
                    let equal = |k: usize| _mm_cmpeq_epi32(quad(4 * g + k), least);
                    let low = _mm_packs_epi32(equal(0), equal(1));
                    let high = _mm_packs_epi32(equal(2), equal(3));
                    let lanes = _mm_movemask_epi8(_mm_packs_epi16(low, high)).cast_unsigned();
                    mask |= u64::from(lanes) << (16 * g);
                }
                let k = start + c * W + mask.trailing_zeros() as usize;
                self.chosen = Some(k);
                if len <= 1 {
                    return Some(k);
                }
                self.best = len;
                self.below = _mm_sub_epi32(least, _mm_set1_epi32(1));
            }
            None
        }
    }
}

/// Runs `scan` on the lengths `lens`: on x86-64, compiled with SSE4.1 when the processor has it
/// (detected at run time), whose unsigned minimum of four lengths at once (`pminud`) lets the
/// compiler vectorize a fold of lengths to their least; baseline x86-64 (SSE2) has none. Measured:
/// 9% off rating (random ties).
///
/// `scan` must be a closure marked `#[inline(always)]`: only code inlined into [`with_sse41`] is
/// compiled with SSE4.1 (a function item passed here, or a closure left out of line, was
/// measured to lose the whole gain).
#[inline(always)]
fn vectorized<R>(lens: &[u32], scan: impl Fn(&[u32]) -> R) -> R {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "sse4.1")))]
    if std::arch::is_x86_feature_detected!("sse4.1") {
        // SAFETY: the processor has SSE4.1, as checked just above.
        return unsafe { with_sse41(lens, scan) };
    }
    scan(lens)
}

/// `scan(lens)`, compiled for processors with SSE4.1 (`scan` is inlined here).
#[cfg(all(target_arch = "x86_64", not(target_feature = "sse4.1")))]
#[target_feature(enable = "sse4.1")]
fn with_sse41<R>(lens: &[u32], scan: impl Fn(&[u32]) -> R) -> R {
    scan(lens)
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

/// The mutable copy of a problem's links, plus the update counter and the record of dead ends.
#[derive(Clone, Debug)]
pub(crate) struct Dance {
    pub(crate) links: Vec<Link>,
    /// The nodes' `top` fields (item or list length), and their `up`/`down` links, in parallel.
    pub(crate) tops: Vec<u32>,
    pub(crate) uds: Vec<UpDown>,
    /// List removals so far (Knuth's "updates"): one per item covered, one per node hidden.
    pub(crate) updates: u64,
    /// Primary items whose list became empty while covering, newest last: the search keeps it as
    /// a stack, truncated on backtracking, so that choosing an item needs no scan when a dead end
    /// is known, and may stop at the first item of length 1 when none is.
    /// A fixed buffer of one entry per primary item, plus one spare slot; `zero_count` entries are
    /// in use, at most one per primary item (an entry is made when the item's list becomes empty,
    /// and the record is truncated below it before that removal is undone), so the slot at
    /// `zero_count` is always within the buffer: every removal writes its item there (see
    /// [`Links::note_length`]).
    pub(crate) zeros: Vec<u32>,
    pub(crate) zero_count: usize,
    /// The length of the dead-end record in the initial state: those entries are never overwritten.
    initial_zeros: usize,
    /// The number of active primary items.
    pub(crate) active: u32,
    n_primary: u32,
    /// The latest dead ends the search backtracked from (empty primary items it chose), in a
    /// ring, 0 (the root) where there are fewer: the `k`-th since the ring was last cleared is at
    /// `k % RECENT` (`recent_count` counts them; past `u32::MAX` it goes back to `RECENT`, not 0).
    recent: [u32; RECENT],
    pub(crate) recent_count: u32,
    /// Whether ties at guesses go to a recent dead end (`TieBreak::LastConflict`); if not, the
    /// ring is not kept either.
    pub(crate) last_conflict: bool,
    /// The `top` fields of the root and the item headers in the initial state.
    initial_headers: Vec<u32>,
}

/// The initial `top` field of node `k`: as in the problem, plus [`SECONDARY`] for the header of a
/// secondary item.
fn initial_top(problem: &Problem, k: usize) -> u32 {
    let top = problem.nodes[k].top;
    if k > problem.primary_count() && k <= problem.item_count() { top + SECONDARY } else { top }
}

impl Dance {
    /// The initial links of `problem`.
    pub(crate) fn new(problem: &Problem) -> Dance {
        let n_primary = crate::index::to_u32(problem.primary_count());
        let tops: Vec<u32> = (0..problem.nodes.len()).map(|k| initial_top(problem, k)).collect();
        let mut dance = Dance {
            links: problem.links.clone(),
            initial_headers: tops[..=problem.item_count()].to_vec(),
            tops,
            uds: problem.initial_uds().to_vec(),
            updates: 0,
            // Each primary item is on the stack at most once at a time, and one slot is spare.
            zeros: vec![0; problem.primary_count() + 1],
            zero_count: 0,
            initial_zeros: 0,
            active: n_primary,
            n_primary,
            recent: [0; RECENT],
            recent_count: 0,
            last_conflict: false,
        };
        dance.collect_zeros();
        dance.initial_zeros = dance.zero_count;
        dance
    }

    /// Puts every link back as `problem` (the one this was made from) has it, by copying: cheaper
    /// than undoing, operation by operation, a state far from the initial one.
    pub(crate) fn restore(&mut self, problem: &Problem) {
        self.links.copy_from_slice(&problem.links);
        self.uds.copy_from_slice(problem.initial_uds());
        // Only item headers' `top` fields (list lengths) ever change.
        self.tops[..self.initial_headers.len()].copy_from_slice(&self.initial_headers);
        // The initial entries of the record are never overwritten: every truncation stops above them.
        self.zero_count = self.initial_zeros;
        self.active = self.n_primary;
    }

    /// A view of the links for the hot loop: slices kept in registers, updates counted locally.
    #[inline(always)]
    pub(crate) fn view(&mut self) -> Links<'_> {
        Links {
            links: &mut self.links,
            tops: &mut self.tops,
            uds: &mut self.uds,
            updates: self.updates,
            zeros: &mut self.zeros,
            zero_count: self.zero_count,
            active: self.active,
            n_primary: self.n_primary,
            recent: &mut self.recent,
            recent_count: self.recent_count,
            last_conflict: self.last_conflict,
        }
    }

    /// Empties the ring of recent dead ends that breaks ties at guesses.
    pub(crate) fn forget_recent(&mut self) {
        self.recent = [0; RECENT];
        self.recent_count = 0;
    }

    /// Starts the record of dead ends: the primary items with empty lists from the start. From then
    /// on every operation that empties a list records it, and undoing truncates the record.
    fn collect_zeros(&mut self) {
        self.zero_count = 0;
        let mut k = self.links[0].right;
        while k != 0 {
            if self.tops[k as usize] == 0 {
                self.zeros[self.zero_count] = k;
                self.zero_count += 1;
            }
            k = self.links[k as usize].right;
        }
    }

    /// The length of item `i`'s list (as the header records it while the item is covered).
    pub(crate) fn len_of(&self, i: u32) -> u32 {
        self.tops[i as usize] & LEN_MASK
    }

    /// The item of option node `p` (0 for a spacer).
    pub(crate) fn item_of(&self, p: u32) -> u32 {
        self.tops[p as usize]
    }

    /// Whether item `i` is still in its list of active items.
    pub(crate) fn is_active(&self, i: u32) -> bool {
        self.links[self.links[i as usize].left as usize].right == i
    }

    /// Whether item `i` is covered, by the mark in its header: one load, where
    /// [`is_active`](Self::is_active) makes two, one waiting for the other. (The link checker
    /// holds the two to agree.)
    pub(crate) fn is_covered(&self, i: u32) -> bool {
        self.tops[i as usize] & COVERED != 0
    }

    /// The first item of the option starting at node `first` that is already covered, if any.
    pub(crate) fn covered_item_of_option(&self, first: u32) -> Option<u32> {
        let mut q = first;
        loop {
            let item = self.item_of(q);
            if item == 0 {
                return None;
            }
            if self.is_covered(item) {
                return Some(item);
            }
            q += 1;
        }
    }

    /// Whether option node `p` is linked into its item's list.
    pub(crate) fn is_linked(&self, p: u32) -> bool {
        self.uds[self.uds[p as usize].up as usize].down == p
    }

    /// Runs `f` on a view and stores its counters back.
    pub(crate) fn with<R>(&mut self, f: impl FnOnce(&mut Links<'_>) -> R) -> R {
        let mut view = self.view();
        let r = f(&mut view);
        let counters = view.counters();
        self.store(counters);
        r
    }

    /// Stores back the counters of a view that is done.
    #[inline(always)]
    pub(crate) fn store(&mut self, counters: Counters) {
        let Counters { updates, zero_count, active, recent_count } = counters;
        self.updates = updates;
        self.zero_count = zero_count;
        self.active = active;
        self.recent_count = recent_count;
    }
}

/// The counters a [`Links`] view keeps by value (in registers, in the hot loop), to store back
/// into its [`Dance`] with [`Dance::store`].
#[derive(Clone, Copy)]
pub(crate) struct Counters {
    updates: u64,
    zero_count: usize,
    active: u32,
    recent_count: u32,
}

/// A borrowed view of a [`Dance`] on which the dancing-links operations run. Its counters must be
/// stored back with [`Dance::store`] when done.
pub(crate) struct Links<'a> {
    links: &'a mut [Link],
    tops: &'a mut [u32],
    uds: &'a mut [UpDown],
    updates: u64,
    zeros: &'a mut [u32],
    zero_count: usize,
    active: u32,
    n_primary: u32,
    recent: &'a mut [u32; RECENT],
    recent_count: u32,
    last_conflict: bool,
}

impl Links<'_> {
    /// The counters to store back into the [`Dance`].
    #[inline(always)]
    pub(crate) fn counters(&self) -> Counters {
        Counters {
            updates: self.updates,
            zero_count: self.zero_count,
            active: self.active,
            recent_count: self.recent_count,
        }
    }

    /// The updates so far.
    #[inline(always)]
    pub(crate) fn updates(&self) -> u64 {
        self.updates
    }

    #[inline(always)]
    fn node(&self, i: u32) -> Node {
        debug_assert!((i as usize) < self.tops.len());
        // SAFETY: see the module docs: every link is a valid node index.
        let (top, ud) =
            unsafe { (*self.tops.get_unchecked(i as usize), *self.uds.get_unchecked(i as usize)) };
        Node { top, up: ud.up, down: ud.down }
    }

    #[inline(always)]
    fn ud_mut(&mut self, i: u32) -> &mut UpDown {
        debug_assert!((i as usize) < self.uds.len());
        // SAFETY: see the module docs: every link is a valid node index.
        unsafe { self.uds.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn top_mut(&mut self, i: u32) -> &mut u32 {
        debug_assert!((i as usize) < self.tops.len());
        // SAFETY: see the module docs: every link is a valid node index.
        unsafe { self.tops.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn link(&self, i: u32) -> Link {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: see the module docs: every item link is a valid item index.
        unsafe { *self.links.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn link_mut(&mut self, i: u32) -> &mut Link {
        debug_assert!((i as usize) < self.links.len());
        // SAFETY: see the module docs: every item link is a valid item index.
        unsafe { self.links.get_unchecked_mut(i as usize) }
    }

    /// The length of item `i`'s list.
    #[inline(always)]
    pub(crate) fn len(&self, i: u32) -> u32 {
        self.node(i).top & LEN_MASK
    }

    /// The first active primary item (0 when none is left).
    #[inline(always)]
    pub(crate) fn first_primary(&self) -> u32 {
        self.link(0).right
    }

    /// The node below `p` in its item's list.
    #[inline(always)]
    pub(crate) fn down(&self, p: u32) -> u32 {
        self.node(p).down
    }

    /// The item of option node `p` (0 for a spacer).
    #[inline(always)]
    pub(crate) fn top(&self, p: u32) -> u32 {
        self.node(p).top
    }

    /// Removes item `i` from its list, marks its header [`COVERED`] and hides every option in its
    /// list from the other items.
    #[inline(always)]
    pub(crate) fn cover(&mut self, i: u32) {
        let Link { left, right } = self.link(i);
        self.link_mut(left).right = right;
        self.link_mut(right).left = left;
        *self.top_mut(i) += COVERED;
        self.active -= u32::from(i <= self.n_primary);
        self.updates += 1;
        let mut p = self.node(i).down;
        while p != i {
            // Read the next option before hiding this one (hiding never changes it), so the walk
            // down the list does not wait behind the hide's stores.
            let next = self.node(p).down;
            self.hide(p);
            p = next;
        }
    }

    /// Undoes [`cover`](Self::cover) of item `i`, in exactly the reverse order.
    #[inline(always)]
    pub(crate) fn uncover(&mut self, i: u32) {
        let mut p = self.node(i).up;
        while p != i {
            let next = self.node(p).up;
            self.unhide(p);
            p = next;
        }
        let Link { left, right } = self.link(i);
        self.link_mut(left).right = i;
        self.link_mut(right).left = i;
        *self.top_mut(i) -= COVERED;
        self.active += u32::from(i <= self.n_primary);
    }

    /// Takes the nodes of `p`'s option, other than `p`, out of their item lists.
    #[inline(always)]
    fn hide(&mut self, p: u32) {
        // From `p` to the end of its option, then from the option's first node back to `p`: two
        // loops, so that no node needs a test for the spacer besides the one its item gives.
        let mut q = p + 1;
        let first = loop {
            let Node { top: x, up: u, down: d } = self.node(q);
            if x == 0 {
                // The spacer after the option: its `up` is the option's first node.
                break u;
            }
            self.unlink(x, u, d);
            q += 1;
        };
        // Every node of the option but `p`: one update each.
        self.updates += u64::from(q - first - 1);
        q = first;
        while q != p {
            let Node { top: x, up: u, down: d } = self.node(q);
            self.unlink(x, u, d);
            q += 1;
        }
    }

    /// Takes the node between `u` and `d` in item `x`'s list out of it (counted by the caller).
    #[inline(always)]
    fn unlink(&mut self, x: u32, u: u32, d: u32) {
        debug_assert_ne!(x, 0, "a spacer has no list");
        self.ud_mut(u).down = d;
        self.ud_mut(d).up = u;
        let len = self.node(x).top - 1;
        *self.top_mut(x) = len;
        self.note_length(x, len);
    }

    /// Records item `x` as emptied when its list has just become empty (`len == 0`: only a primary
    /// item's can, see [`SECONDARY`]). Its list stays empty until the removal that emptied it is
    /// undone, which happens only after the record has been truncated below this entry.
    ///
    /// Not every entry is a conflict: an item of the option being covered may be emptied on the
    /// way (its one option was that option), and is covered next. The ring of recent dead ends
    /// therefore remembers only the empty items the search chose ([`note_dead_end`]).
    ///
    /// [`note_dead_end`]: Self::note_dead_end
    #[inline(always)]
    fn note_length(&mut self, x: u32, len: u32) {
        // Written without a branch: the item goes into the slot above the record whatever its
        // length, and the record grows over it only when the length is 0. Whether a removal
        // empties a list is hard to predict. Measured against a test and a store under it: 1.8%
        // less time on the first 500 of sudoku's forum-hardest set (first solution and count to
        // 2), 2% less on magictour. With a bounds-checked store, the gain was lost.
        debug_assert!(self.zero_count < self.zeros.len());
        // SAFETY: at most one entry per primary item is in use (see `Dance::zeros`), so
        // `zero_count <= n_primary`, and the buffer holds `n_primary + 1` slots.
        unsafe { *self.zeros.get_unchecked_mut(self.zero_count) = x };
        self.zero_count += usize::from(len == 0);
    }

    /// Under `TieBreak::LastConflict`, remembers `x`, an empty primary item the search chose, and
    /// so backtracks from, in the ring of recent dead ends (which backtracking does not truncate).
    /// Remembering every item whose list became empty instead, which includes the items of the
    /// option being covered, gave 13% and 26% more nodes on sudoku's magictour set and the first
    /// 500 of its forum-hardest set (264.9 and 1026.4 against 233.5 and 817.2, both with a ring
    /// of 8).
    #[inline(always)]
    pub(crate) fn note_dead_end(&mut self, x: u32) {
        if self.last_conflict {
            self.recent[self.recent_count as usize % RECENT] = x;
            // Once the ring is full the count stays at `RECENT` or more, so that it tells which
            // places are filled; `u32::MAX + 1` and `RECENT` name the same place.
            self.recent_count = self.recent_count.checked_add(1).unwrap_or_else(|| to_u32(RECENT));
        }
    }

    /// Undoes [`hide`](Self::hide), in exactly the reverse order.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        loop {
            let Node { top: x, up: u, down: d } = self.node(q);
            if x == 0 {
                // The spacer before the option: its `down` is the option's last node.
                q = d;
                break;
            }
            self.relink(q, x, u, d);
            q -= 1;
        }
        while q != p {
            let Node { top: x, up: u, down: d } = self.node(q);
            self.relink(q, x, u, d);
            q -= 1;
        }
    }

    /// Puts node `q` (of item `x`, between `u` and `d`) back into its item's list.
    #[inline(always)]
    fn relink(&mut self, q: u32, x: u32, u: u32, d: u32) {
        debug_assert_ne!(x, 0, "node {q} is a spacer");
        self.ud_mut(u).down = q;
        self.ud_mut(d).up = q;
        *self.top_mut(x) += 1;
    }

    /// Covers the items of `p`'s option other than `p`'s own, left to right (Knuth's X5).
    #[inline(always)]
    pub(crate) fn cover_rest(&mut self, p: u32) {
        let mut q = p + 1;
        while q != p {
            let Node { top: j, up: u, .. } = self.node(q);
            if j == 0 {
                q = u;
            } else {
                self.cover(j);
                q += 1;
            }
        }
    }

    /// Undoes [`cover_rest`](Self::cover_rest), right to left (Knuth's X6).
    #[inline(always)]
    pub(crate) fn uncover_rest(&mut self, p: u32) {
        let mut q = p - 1;
        while q != p {
            let Node { top: j, down: d, .. } = self.node(q);
            if j == 0 {
                q = d;
            } else {
                self.uncover(j);
                q -= 1;
            }
        }
    }

    /// Covers every item of the option whose first node is `first`, left to right.
    pub(crate) fn cover_option(&mut self, first: u32) {
        let mut q = first;
        while self.top(q) != 0 {
            self.cover(self.top(q));
            q += 1;
        }
    }

    /// The spacer after the option whose first node is `first`.
    fn option_end(&self, first: u32) -> u32 {
        let mut q = first;
        while self.top(q) != 0 {
            q += 1;
        }
        q
    }

    /// Undoes [`cover_option`](Self::cover_option), right to left.
    pub(crate) fn uncover_option(&mut self, first: u32) {
        let mut q = self.option_end(first);
        while q != first {
            q -= 1;
            self.uncover(self.top(q));
        }
    }

    /// Takes every node of the option whose first node is `first` out of its item's list; returns
    /// how many nodes that was.
    pub(crate) fn remove_option(&mut self, first: u32) -> u32 {
        let mut q = first;
        while self.top(q) != 0 {
            let Node { top: x, up: u, down: d } = self.node(q);
            self.unlink(x, u, d);
            q += 1;
        }
        q - first
    }

    /// Undoes [`remove_option`](Self::remove_option), in reverse order.
    pub(crate) fn restore_option(&mut self, first: u32) {
        let mut q = self.option_end(first);
        while q != first {
            q -= 1;
            let Node { top: x, up: u, down: d } = self.node(q);
            self.relink(q, x, u, d);
        }
    }

    /// The length of the dead-end stack, to truncate back to on backtracking.
    #[inline(always)]
    pub(crate) fn zeros_len(&self) -> usize {
        self.zero_count
    }

    /// Forgets the dead ends recorded since the stack had length `len`.
    #[inline(always)]
    pub(crate) fn truncate_zeros(&mut self, len: usize) {
        self.zero_count = len;
    }

    /// Whether item `i` is still in its list of active items: whether its header lacks the
    /// [`COVERED`] mark (one load, where following its links takes two, one waiting for the
    /// other; the link checker holds the two to agree).
    #[inline(always)]
    fn is_active(&self, i: u32) -> bool {
        self.node(i).top & COVERED == 0
    }

    /// A primary item with an empty list among those recorded since `from`, if one is still active.
    #[inline(always)]
    fn known_zero(&self, from: usize) -> Option<u32> {
        let mut k = self.zero_count;
        while k > from {
            k -= 1;
            let z = self.zeros[k];
            if self.is_active(z) {
                return Some(z);
            }
        }
        None
    }

    /// Minimum remaining values: an active primary item with the shortest list (0 when no primary
    /// item is left). On ties, the earliest item; under `TieBreak::LastConflict`, at a guess
    /// (shortest length 2 or more), the tied item that was most recently a dead end, among the
    /// run's last [`RECENT`] ones, if there is one (see [`prefer_recent`](Self::prefer_recent)).
    ///
    /// `from` is where the dead ends recorded since the previous choice start: when one of them is
    /// still active, the newest such is taken at once (any empty item ends the branch the same
    /// way: one update, then backtracking). Otherwise no active item is empty, so the scan can stop
    /// at the first item of length 1: it is the earliest of the shortest.
    #[inline(always)]
    pub(crate) fn choose(&self, from: usize) -> u32 {
        let chosen = match self.known_zero(from) {
            Some(z) => z,
            None => self.scan(),
        };
        debug_assert!(self.agrees_with_full_scan(chosen), "MRV shortcut chose {chosen}");
        if self.last_conflict { self.prefer_recent(chosen) } else { chosen }
    }

    /// The tie-break at a guess: given `earliest`, the earliest active primary item of least
    /// length, the newest of the run's last [`RECENT`] dead ends (see
    /// [`note_dead_end`](Self::note_dead_end)) that is active with that same length, if the length
    /// is 2 or more and there is one; `earliest` otherwise.
    ///
    /// An item that has just ended one branch, left without options, is likely to end the next
    /// (the "last conflict" rule of constraint solvers), so branching on it first finds the
    /// contradiction sooner (see `TieBreak` for what it gains and costs). It reads the lengths of
    /// the ring's filled places, at most [`RECENT`], and only at guesses: a run with few dead
    /// ends, such as filling an empty sudoku grid, pays little for it (that fill took 6% less
    /// time than with every place read).
    #[inline(always)]
    fn prefer_recent(&self, earliest: u32) -> u32 {
        // (When no item is left, `earliest` is the root, whose `top` is 0.)
        let len = self.node(earliest).top;
        if len < 2 {
            return earliest;
        }
        let count = self.recent_count as usize;
        for k in 1..=count.min(RECENT) {
            let item = self.recent[count.wrapping_sub(k) % RECENT];
            // Equal to `len` only for an active item (a covered one carries `COVERED`), never for
            // the root, 0, which stands in an empty place of the ring.
            if self.node(item).top == len {
                return item;
            }
        }
        earliest
    }

    /// The earliest active primary item of least length (0 when none is active). With many active
    /// primary items the lengths are scanned as an array ([`least_position`]); with few, a walk
    /// along the list of active items is cheaper. Measured: queens-12 (24 primary items) lost 6-9%
    /// to the array scan; problems with 72-80 broke even; sudoku (324) gained 7-14% in solving,
    /// and generation (whose checks start with most items covered) 9% more with the walk when
    /// fewer than a quarter are active.
    #[inline(always)]
    fn scan(&self) -> u32 {
        if self.walks() {
            return self.walk();
        }
        let lens = self.tops.get(1..=self.n_primary as usize).unwrap_or_default();
        least_position(lens).map_or(0, |k| to_u32(k + 1))
    }

    /// Whether the choice of item walks the list of active items rather than scanning the lengths
    /// as an array: with few primary items, or few of them active (see [`scan`](Self::scan)).
    #[inline(always)]
    fn walks(&self) -> bool {
        self.n_primary < ARRAY_SCAN_FROM || self.active * 4 < self.n_primary
    }

    /// The earliest active primary item of least length, walking the list of active items; stops
    /// at the first of length 1 or less.
    #[inline(always)]
    fn walk(&self) -> u32 {
        let mut best = u32::MAX;
        let mut chosen = 0;
        let mut k = self.link(0).right;
        while k != 0 {
            let len = self.node(k).top;
            if len < best {
                best = len;
                chosen = k;
                if len <= 1 {
                    break;
                }
            }
            k = self.link(k).right;
        }
        chosen
    }

    /// Debug check of [`choose`](Self::choose) against a scan of every active primary item.
    /// Any shortest item will do for a dead end (length 0); otherwise it must be the earliest.
    fn agrees_with_full_scan(&self, chosen: u32) -> bool {
        self.is_shortest(chosen) && (self.node(chosen).top == 0 || chosen == self.shortest_by_walk().1)
    }

    /// For the debug checks: the least length of an active primary item, and the earliest item of
    /// that length, by a walk along all of them (`(u32::MAX, 0)` when none is active).
    fn shortest_by_walk(&self) -> (u32, u32) {
        let (mut best, mut first) = (u32::MAX, 0);
        let mut k = self.link(0).right;
        while k != 0 {
            if self.node(k).top < best {
                best = self.node(k).top;
                first = k;
            }
            k = self.link(k).right;
        }
        (best, first)
    }

    /// Minimum remaining values for random branching: one of the shortest items, picked by
    /// `draw(n)`, which returns a random index below `n` (uniform, for a uniform choice). Dead ends
    /// are taken as in [`choose`](Self::choose). With many active primary items the lengths are
    /// scanned as an array, as [`scan`](Self::scan) does: once for the least, once to count the
    /// ties, once to find the one drawn; with few, the walk along the list keeps one candidate and
    /// replaces it by the `n`-th tie with probability `1/n`.
    #[inline(always)]
    pub(crate) fn choose_with_ties(&self, from: usize, mut draw: impl FnMut(u32) -> u32) -> u32 {
        if let Some(z) = self.known_zero(from) {
            return z;
        }
        let chosen = if self.walks() {
            let mut best = u32::MAX;
            let mut chosen = 0;
            let mut ties = 0u32;
            let mut k = self.link(0).right;
            while k != 0 {
                let len = self.node(k).top;
                if len < best {
                    best = len;
                    chosen = k;
                    ties = 1;
                } else if len == best {
                    ties += 1;
                    if draw(ties) == 0 {
                        chosen = k;
                    }
                }
                k = self.link(k).right;
            }
            chosen
        } else {
            let lens = self.tops.get(1..=self.n_primary as usize).unwrap_or_default();
            nth_least(lens, &mut draw).map_or(0, |k| to_u32(k + 1))
        };
        debug_assert!(self.is_shortest(chosen), "random MRV chose {chosen}");
        chosen
    }

    /// Debug check of [`choose_with_ties`](Self::choose_with_ties): `chosen` is an active primary
    /// item of least length (0 when none is left).
    fn is_shortest(&self, chosen: u32) -> bool {
        let (best, first) = self.shortest_by_walk();
        if first == 0 {
            return chosen == 0;
        }
        chosen != 0 && chosen <= self.n_primary && self.is_active(chosen) && self.node(chosen).top == best
    }
}

/// The position of one of the least lengths below [`COVERED`] in `lens`, the `draw(n)`-th of
/// the `n` equal to it, or `None` when every item is covered.
fn nth_least(lens: &[u32], mut draw: impl FnMut(u32) -> u32) -> Option<usize> {
    let least = vectorized(
        lens,
        #[inline(always)]
        |lens| lens.iter().fold(COVERED, |m, &len| m.min(len)),
    );
    if least == COVERED {
        return None;
    }
    let ties = lens.iter().filter(|&&len| len == least).count();
    let nth = draw(to_u32(ties)) as usize;
    lens.iter().enumerate().filter(|&(_, &len)| len == least).nth(nth).map(|(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::{COVERED, Dance, LEN_MASK, RECENT, least_position, least_position_portable, nth_least};
    use crate::Problem;
    use proptest::prelude::*;

    /// The last-conflict tie-break, on items A-D of lengths 2, 2, 3, 2 (layout 1-4): the newest
    /// dead end that ties is taken, one that does not tie is passed over, and an empty ring or
    /// the earliest rule gives the earliest item.
    #[test]
    fn ties_go_to_the_newest_tied_dead_end() {
        let problem = Problem::parse_dlx("A B C D\nA B\nA C\nB D\nC D\nC\n").unwrap();
        let mut dance = Dance::new(&problem);
        let choose = |dance: &mut Dance, ring: &[u32], last_conflict: bool| {
            dance.forget_recent();
            dance.recent[..ring.len()].copy_from_slice(ring);
            dance.recent_count = crate::index::to_u32(ring.len());
            dance.last_conflict = last_conflict;
            dance.view().choose(0)
        };
        assert_eq!(choose(&mut dance, &[], true), 1);
        assert_eq!(choose(&mut dance, &[2, 4], true), 4, "D is newer than B");
        assert_eq!(choose(&mut dance, &[4, 2], true), 2, "B is newer than D");
        assert_eq!(choose(&mut dance, &[4, 3], true), 4, "C has three options, not two");
        assert_eq!(choose(&mut dance, &[2, 4], false), 1, "the earliest rule");
        // A full ring that has wrapped around: its newest entry is the last one written.
        let mut ring = [2; RECENT];
        ring[1] = 4;
        dance.forget_recent();
        dance.recent = ring;
        dance.recent_count = crate::index::to_u32(RECENT + 2);
        dance.last_conflict = true;
        assert_eq!(dance.view().choose(0), 4, "slot 1 holds the newest after wrapping");
        // The count of dead ends overflowing: the next entry goes in the next place, and the
        // whole ring is still read.
        dance.forget_recent();
        dance.recent = [2; RECENT];
        dance.recent_count = u32::MAX;
        dance.with(|d| d.note_dead_end(4));
        assert_eq!(dance.recent[RECENT - 1], 4);
        assert_eq!(dance.recent_count, crate::index::to_u32(RECENT));
        assert_eq!(dance.view().choose(0), 4, "the last place holds the newest");
    }

    /// A dead end is the newest item emptied since the previous choice that is still active: the
    /// one the ring of recent dead ends then remembers (the property test of effort against plain
    /// Algorithm X caught taking the oldest instead only now and then).
    #[test]
    fn the_newest_emptied_item_is_the_dead_end() {
        let problem = Problem::parse_dlx("A B C D\nA B C\nD\n").unwrap();
        let mut dance = Dance::new(&problem);
        // Covering A hides its one option from B, then from C: both become empty, C last.
        dance.with(|d| d.cover(1));
        assert_eq!(&dance.zeros[..dance.zero_count], &[2, 3]);
        assert_eq!(dance.view().choose(0), 3, "C was emptied last");
        dance.with(|d| d.cover(3));
        assert_eq!(dance.view().choose(0), 2, "C is covered, B is still empty");
    }

    /// The record of emptied items fills up to one entry per primary item, and removals after
    /// that (here from a secondary item's list) write into the spare slot without growing it.
    #[test]
    fn the_record_of_emptied_items_can_hold_every_primary_item() {
        let problem = Problem::parse_dlx("A B | S\nA S\nB S\n").unwrap();
        let mut dance = Dance::new(&problem);
        let first = |k| problem.option_first_node(crate::OptionId::from_u32(k)).unwrap();
        // Removing option `B S` empties B, then option `A S` empties A; S never reads as empty.
        dance.with(|d| d.remove_option(first(1)));
        dance.with(|d| d.remove_option(first(0)));
        assert_eq!(&dance.zeros[..dance.zero_count], &[2, 1]);
        assert_eq!(dance.zeros.len(), 3, "two primary items and the spare slot");
        assert_eq!(dance.zeros[2], 3, "S's last removal went into the spare slot");
        // Undone as the solver undoes exclusions: each truncates the record to its mark.
        dance.with(|d| d.restore_option(first(0)));
        dance.zero_count = 1;
        dance.with(|d| d.restore_option(first(1)));
        dance.zero_count = 0;
        assert_eq!((dance.len_of(1), dance.len_of(2), dance.len_of(3)), (1, 1, 2));
        assert_eq!(dance.view().choose(0), 1, "nothing recorded: the scan finds A first");
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
