//! The solver's mutable copy of the matrix and the dancing-links operations on it, plus the
//! record of emptied items. This is the hot core of the search, and the only module that reads
//! and writes memory without bounds checks.
//!
//! The plain operations are here; those of Algorithm C are in `links::colors`, those of Algorithm
//! M in `links::multi`. The soundness argument below covers all three files: the submodules only
//! add methods to [`LinksMut`], using the checked entry points and accessors defined here.
//!
//! # The operations
//!
//! *Covering* item `i` takes `i` out of its item list, marks its header [`COVERED`] and *hides*
//! every option in `i`'s list: each of the option's other nodes leaves its item's list (whose
//! length drops by one). *Uncovering* and *unhiding* do exactly the reverse in exactly the
//! reverse order, which restores every link bit for bit: that is what lets a solver search again
//! without copying. *Removing* an option (an exclusion) takes all its nodes out of their lists;
//! *restoring* it puts them back. `updates` counts one per item covered and one per node taken
//! out of a list, as dlx1 does.
//!
//! # Colors
//!
//! In a problem with colors (see `layout`) the search runs Knuth's Algorithm C instead, with
//! operations of their own (`links::colors`): hiding leaves cleansed nodes in their lists; choosing
//! an option *commits* each of its other nodes, covering the item of a node without a color and
//! *purifying* the item of a node with one (hiding every option that gives the item another color
//! or none, and cleansing those that give it the same color); undoing each reverses it exactly. The
//! color array has a slot per node, checked at each colored entry point: a node index read from the
//! links is then in bounds for it as for the `top`s.
//!
//! # Multiplicities
//!
//! In a problem whose primary items take bounds (see `solver::multi`), a chosen option lowers the
//! remaining bound of each of its primary items, kept outside the links, and covers an item whose
//! bound reaches 0. Two more operations serve Algorithm M: *tweaking* takes an option out of
//! every list, its own item's included (Knuth's `tweak`; undone for a whole level at once by
//! `untweak`, or one by one in reverse), and *deactivating* takes an item whose list is empty out
//! of the item list without covering it (marked [`COVERED`] all the same, so that the marks keep
//! telling which items are listed). Their entry points check their indices as the others do.
//!
//! # Invariants of the links
//!
//! Checked by `check::check_links` (through `Solver::verify_links`): the item lists are circular
//! and doubly linked (`left(right(i)) == i`); each active item's vertical list is circular and
//! doubly linked, holds exactly `len(i)` nodes, each with `top == i`, in increasing node order;
//! an active option is in the list of each of its active items; the active primary items are as
//! many as counted; a header is marked covered exactly when its item is not in its item list,
//! and secondary exactly when its item is secondary.
//!
//! # The record of emptied items
//!
//! While covering, every primary item whose list becomes empty is recorded, newest last, so that
//! the choice of item (see `choose`) finds a dead end without a scan. The record is a stack: the
//! search truncates it, on backtracking, to the length it had before the level it leaves
//! ([`LinksMut::truncate_emptied`]), so it holds at most one entry per primary item: an entry is
//! made when the item's list becomes empty, and when the removal that emptied the list is undone
//! the record is truncated below the entry before anything else is removed. Recording takes no
//! branch: every removal writes its item just above the record, which grows over it only when the
//! list became empty (see [`LinksMut::note_length`]).
//!
//! # Why the unchecked accesses are sound
//!
//! Whatever sequence of this module's methods is called, every index read from the arrays is in
//! bounds, because:
//!
//! * the [`Problem`] builder made every link a valid index: item links name item records, node
//!   links name headers or option nodes, an option node's `top` names an item (`1..=N`), and the
//!   node array ends with a spacer, as does every option;
//! * an option node's `top` and a spacer's fields are never written. Call item `x`'s header
//!   and the option nodes whose `top` is `x` its *column*: the up/down links of a column's nodes
//!   start out naming nodes of that column, and every write keeps it so (taking a node out
//!   writes one of its neighbours into the other; putting it back writes the node itself into
//!   its neighbours). So a walk along item `i`'s list meets only header `i` and option nodes of
//!   item `i`, a walk along an option from one of its nodes stays inside it and its spacers, and
//!   every item read from an option node is valid. Item links likewise only ever name item
//!   records;
//! * every index taken from a caller is checked at entry: an item must be in `1..=N`, an option
//!   node beyond the headers and not a spacer, the node a thresholded uncover starts from a node
//!   of that item's column (`uncover_below`); and reordering a list (`Links::sort_lists`)
//!   relinks a column's nodes among themselves;
//! * the record of emptied items has room for two entries per primary item, plus the slot above
//!   them. One cover, or one removal of an option, adds at most one entry per primary item (an
//!   item's length only falls during it, so it reaches 0 once at most), and each starts by
//!   checking that the record holds at most one entry per primary item, as it does when the
//!   stack discipline is kept. So every store stays within the buffer, and a record grown by
//!   misuse gives a panic, never a write out of bounds. (A clamp on each store instead costs
//!   more: see `benches/RESULTS.md`.)
//!
//! One precondition stays with the caller, for the links to be right, not for memory to be
//! safe: operations are undone in exactly the reverse order (the solver's stack discipline,
//! stated in `solver::search`). Broken, it corrupts the lists (a walk may then never end), but
//! never reads or writes out of bounds.

use crate::index::to_u32;
use crate::layout::{COVERED, ItemLink, LEN_MASK, UpDown};
use crate::problem::Problem;

/// The mutable copy of a problem's matrix, the update counter and the record of emptied items.
#[derive(Clone, Debug)]
pub(crate) struct Links {
    items: Vec<ItemLink>,
    /// The nodes' `top` fields (item, or list length and marks) and their `up`/`down` links.
    tops: Vec<u32>,
    uds: Vec<UpDown>,
    /// List removals so far (Knuth's "updates").
    updates: u64,
    /// The record of emptied items (see the module docs): two slots per primary item, plus one,
    /// for the slot above the record that every removal writes into; `emptied_len` are in use.
    emptied: Vec<u32>,
    emptied_len: usize,
    /// The length of the record in the initial state (items empty from the start).
    initial_emptied: usize,
    /// The headers' `top` fields in the initial state, which [`restore`](Self::restore) copies
    /// back. Allocated between `tops` and `uds` on purpose: where `uds` lies relative to `tops`
    /// changes the time of the hot loop at the same instructions (see `benches/RESULTS.md`), and
    /// this is the placement the engine was tuned with.
    initial_headers: Vec<u32>,
    /// The number of active primary items.
    active: u32,
    n_primary: u32,
    /// The number of items, `N`: headers are nodes `1..=N`, options start after node `N + 1`.
    n_items: u32,
    /// Each node's color, for a problem with colors (empty otherwise): see "Colors" above.
    colors: Vec<u32>,
    /// Nodes cleansed so far (Knuth's "cleansings").
    cleansings: u64,
}

impl Links {
    /// The initial links of `problem`.
    pub(crate) fn new(problem: &Problem) -> Links {
        let n_primary = to_u32(problem.primary_count());
        let items = problem.item_links.clone();
        let tops = problem.tops.clone();
        let initial_headers = tops[..=problem.item_count()].to_vec();
        let uds = problem.uds.clone();
        let mut links = Links {
            items,
            tops,
            uds,
            initial_headers,
            updates: 0,
            emptied: vec![0; 2 * problem.primary_count() + 1],
            emptied_len: 0,
            initial_emptied: 0,
            active: n_primary,
            n_primary,
            n_items: to_u32(problem.item_count()),
            colors: problem.colors.clone(),
            cleansings: 0,
        };
        // The primary items empty from the start.
        let mut k = links.items[0].right;
        while k != 0 {
            if links.tops[k as usize] == 0 {
                links.emptied[links.emptied_len] = k;
                links.emptied_len += 1;
            }
            k = links.items[k as usize].right;
        }
        links.initial_emptied = links.emptied_len;
        links
    }

    /// Orders every item's list (its options now linked) by `key` of their nodes, ties by node,
    /// as DLX5 keeps its lists by cost; `|_| 0` puts them back in the layout's order (the order
    /// of the options). Nodes hidden now keep their links: undone later, they go back between
    /// the neighbors they had, which, with the lists back in the layout's order, are theirs again
    /// (so a run in sorted lists ends with them put back).
    pub(crate) fn sort_lists(&mut self, key: impl Fn(u32) -> u64) {
        let mut nodes = Vec::new();
        for i in 1..=self.n_items {
            nodes.clear();
            let mut p = self.uds[i as usize].down;
            while p != i {
                nodes.push(p);
                p = self.uds[p as usize].down;
            }
            nodes.sort_by_key(|&p| (key(p), p));
            let mut prev = i;
            for &p in &nodes {
                self.uds[prev as usize].down = p;
                self.uds[p as usize].up = prev;
                prev = p;
            }
            self.uds[prev as usize].down = i;
            self.uds[i as usize].up = prev;
        }
    }

    /// Puts every link back as `problem` (the one this was made from) has it, by copying: cheaper
    /// than undoing, operation by operation, a state far from the initial one.
    pub(crate) fn restore(&mut self, problem: &Problem) {
        self.items.copy_from_slice(&problem.item_links);
        self.uds.copy_from_slice(&problem.uds);
        // Only item headers' `top` fields (list lengths and marks) ever change.
        self.tops[..self.initial_headers.len()].copy_from_slice(&self.initial_headers);
        // The initial entries of the record are never overwritten: every truncation stops above
        // them.
        self.emptied_len = self.initial_emptied;
        self.active = self.n_primary;
        self.colors.copy_from_slice(&problem.colors);
    }

    /// A view of the links for the hot loop: slices kept in registers, counters kept locally
    /// until [`store`](Self::store)d back.
    #[inline(always)]
    pub(crate) fn view(&mut self) -> LinksMut<'_> {
        self.view_as::<true>()
    }

    /// [`view`](Self::view), keeping the record of emptied items when `RECORD` (see
    /// [`LinksMut`]).
    #[inline(always)]
    pub(crate) fn view_as<const RECORD: bool>(&mut self) -> LinksMut<'_, RECORD> {
        LinksMut {
            items: &mut self.items,
            tops: &mut self.tops,
            uds: &mut self.uds,
            updates: self.updates,
            emptied: &mut self.emptied,
            emptied_len: self.emptied_len,
            active: self.active,
            n_primary: self.n_primary,
            n_items: self.n_items,
            colors: &mut self.colors,
            cleansings: self.cleansings,
        }
    }

    /// Runs `f` on a view and stores its counters back.
    pub(crate) fn with<R>(&mut self, f: impl FnOnce(&mut LinksMut<'_>) -> R) -> R {
        let mut view = self.view();
        let r = f(&mut view);
        let counters = view.counters();
        self.store(counters);
        r
    }

    /// Stores back the counters of a view that is done.
    #[inline(always)]
    pub(crate) fn store(&mut self, counters: Counters) {
        let Counters { updates, emptied_len, active, cleansings } = counters;
        self.updates = updates;
        self.emptied_len = emptied_len;
        self.active = active;
        self.cleansings = cleansings;
    }

    /// Nodes cleansed since the counter was last reset.
    pub(crate) fn cleansings(&self) -> u64 {
        self.cleansings
    }

    /// The number of items, `N`: headers are nodes `1..=N`.
    pub(crate) fn item_count(&self) -> u32 {
        self.n_items
    }

    /// Whether the problem has colors: then the search must use the colored operations.
    pub(crate) fn is_colored(&self) -> bool {
        !self.colors.is_empty()
    }

    /// The nodes' colors (for the link checker; empty without colors).
    pub(crate) fn colors(&self) -> &[u32] {
        &self.colors
    }

    /// The first secondary item of the option starting at node `first` whose color (or lack of
    /// one) clashes with the color a forced or chosen option gave it, if any: such an option is
    /// hidden, though its node in that item's list is not.
    pub(crate) fn clashing_item_of_option(&self, first: u32) -> Option<u32> {
        if self.colors.is_empty() {
            return None;
        }
        let mut q = first as usize;
        while self.tops[q] != 0 {
            let item = self.tops[q] as usize;
            let given = self.colors[item];
            if given != 0 && self.colors[q] != given && self.colors[q] != CLEANSED {
                return Some(self.tops[q]);
            }
            q += 1;
        }
        None
    }

    /// List removals since the counter was last reset.
    pub(crate) fn updates(&self) -> u64 {
        self.updates
    }

    /// Starts counting updates and cleansings from 0.
    pub(crate) fn reset_updates(&mut self) {
        self.updates = 0;
        self.cleansings = 0;
    }

    /// The length of the record of emptied items.
    pub(crate) fn emptied_len(&self) -> usize {
        self.emptied_len
    }

    /// The entries of the record of emptied items, oldest first.
    pub(crate) fn emptied(&self) -> &[u32] {
        &self.emptied[..self.emptied_len]
    }

    /// Truncates the record of emptied items to `len` entries (see
    /// [`LinksMut::truncate_emptied`]).
    pub(crate) fn truncate_emptied(&mut self, len: usize) {
        debug_assert!(len <= self.emptied_len, "a truncation never lengthens the record");
        self.emptied_len = len;
    }

    /// The number of active primary items.
    pub(crate) fn active(&self) -> u32 {
        self.active
    }

    /// The item records (for the link checker).
    pub(crate) fn item_links(&self) -> &[ItemLink] {
        &self.items
    }

    /// The nodes' `top` fields (for the link checker).
    pub(crate) fn tops(&self) -> &[u32] {
        &self.tops
    }

    /// The nodes' `up`/`down` links (for the link checker).
    pub(crate) fn uds(&self) -> &[UpDown] {
        &self.uds
    }

    /// The length of item `i`'s list (also while the item is covered).
    pub(crate) fn len_of(&self, i: u32) -> u32 {
        self.tops[i as usize] & LEN_MASK
    }

    /// Whether item `i` is in its item list, by following its links (two loads, one waiting for
    /// the other). [`LinksMut::is_active`] reads the [`COVERED`] mark instead; the link checker
    /// holds the two to agree.
    pub(crate) fn is_listed(&self, i: u32) -> bool {
        self.items[self.items[i as usize].left as usize].right == i
    }

    /// Whether item `i` carries the [`COVERED`] mark.
    pub(crate) fn is_covered(&self, i: u32) -> bool {
        self.tops[i as usize] & COVERED != 0
    }

    /// The first item of the option starting at node `first` that is covered, if any.
    pub(crate) fn covered_item_of_option(&self, first: u32) -> Option<u32> {
        self.tops[first as usize..]
            .iter()
            .take_while(|&&item| item != 0)
            .copied()
            .find(|&i| self.is_covered(i))
    }

    /// Whether node `p` is linked into its list.
    pub(crate) fn is_linked(&self, p: u32) -> bool {
        self.uds[self.uds[p as usize].up as usize].down == p
    }
}

/// The counters a [`LinksMut`] view keeps by value (in registers, in the hot loop), to store
/// back into its [`Links`] with [`Links::store`].
#[derive(Clone, Copy)]
pub(crate) struct Counters {
    updates: u64,
    emptied_len: usize,
    active: u32,
    cleansings: u64,
}

/// A borrowed view of a [`Links`] on which the dancing-links operations run. Its counters must
/// be stored back with [`Links::store`] when done.
///
/// Without `RECORD`, removals leave the record of emptied items as it is: for Algorithm M, whose
/// choice of item reads every active item and never the record (see `solver::multi`), and
/// whose removals would otherwise write it at every node. The record then stays as the run
/// found it, which every truncation to that length leaves alone.
pub(crate) struct LinksMut<'a, const RECORD: bool = true> {
    items: &'a mut [ItemLink],
    tops: &'a mut [u32],
    uds: &'a mut [UpDown],
    updates: u64,
    emptied: &'a mut [u32],
    emptied_len: usize,
    active: u32,
    n_primary: u32,
    n_items: u32,
    colors: &'a mut [u32],
    cleansings: u64,
}

impl<const RECORD: bool> LinksMut<'_, RECORD> {
    /// The counters to store back into the [`Links`].
    #[inline(always)]
    pub(crate) fn counters(&self) -> Counters {
        Counters {
            updates: self.updates,
            emptied_len: self.emptied_len,
            active: self.active,
            cleansings: self.cleansings,
        }
    }

    /// The updates so far.
    #[inline(always)]
    pub(crate) fn updates(&self) -> u64 {
        self.updates
    }

    /// The `top` of node `i`, where `i` was read from the links (see the module docs).
    #[inline(always)]
    fn top_at(&self, i: u32) -> u32 {
        debug_assert!((i as usize) < self.tops.len());
        // SAFETY: `i` was read from the links, which hold only valid node indices (module docs).
        unsafe { *self.tops.get_unchecked(i as usize) }
    }

    /// The `up`/`down` links of node `i`, where `i` was read from the links.
    #[inline(always)]
    fn ud_at(&self, i: u32) -> UpDown {
        debug_assert!((i as usize) < self.uds.len());
        // SAFETY: `i` was read from the links, which hold only valid node indices (module docs).
        unsafe { *self.uds.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn ud_mut(&mut self, i: u32) -> &mut UpDown {
        debug_assert!((i as usize) < self.uds.len());
        // SAFETY: `i` was read from the links, which hold only valid node indices (module docs).
        unsafe { self.uds.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn top_mut(&mut self, i: u32) -> &mut u32 {
        debug_assert!((i as usize) < self.tops.len());
        // SAFETY: `i` was read from the links, which hold only valid node indices (module docs).
        unsafe { self.tops.get_unchecked_mut(i as usize) }
    }

    #[inline(always)]
    fn item_at(&self, i: u32) -> ItemLink {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: `i` was read from the item links, which hold only valid item records (module
        // docs).
        unsafe { *self.items.get_unchecked(i as usize) }
    }

    #[inline(always)]
    fn item_mut(&mut self, i: u32) -> &mut ItemLink {
        debug_assert!((i as usize) < self.items.len());
        // SAFETY: `i` was read from the item links, which hold only valid item records (module
        // docs).
        unsafe { self.items.get_unchecked_mut(i as usize) }
    }

    /// Panics unless `i` is an item (`1..=N`).
    #[inline(always)]
    fn check_item(&self, i: u32) {
        assert!(i.wrapping_sub(1) < self.n_items, "{i} is not an item");
    }

    /// Panics unless the record of emptied items holds at most one entry per primary item, so
    /// that the removals of one operation, which add at most as many, fit in its buffer.
    #[inline(always)]
    fn check_record(&self) {
        assert!(self.emptied_len <= self.n_primary as usize, "the record of emptied items overflows");
    }

    /// Panics unless `p` is an option node: beyond the headers and the first spacer, within the
    /// nodes, and not a spacer.
    #[inline(always)]
    fn check_option_node(&self, p: u32) {
        assert!(p > self.n_items + 1 && self.tops.get(p as usize).is_some_and(|&top| top != 0));
    }

    /// The number of items, `N`: headers are nodes `1..=N`, option nodes come after.
    #[inline(always)]
    pub(crate) fn item_count(&self) -> u32 {
        self.n_items
    }

    /// The number of primary items.
    #[inline(always)]
    pub(crate) fn primary_count(&self) -> u32 {
        self.n_primary
    }

    /// The number of active primary items.
    #[inline(always)]
    pub(crate) fn active(&self) -> u32 {
        self.active
    }

    /// The headers' `top` fields of the primary items `1..=N₁`, in order: lengths with marks.
    #[inline(always)]
    pub(crate) fn primary_tops(&self) -> &[u32] {
        self.tops.get(1..=self.n_primary as usize).unwrap_or_default()
    }

    /// The `top` of item `i`'s header: its length with its marks (the root's is 0).
    #[inline(always)]
    pub(crate) fn header(&self, i: u32) -> u32 {
        self.tops[i as usize]
    }

    /// The length of item `i`'s list.
    #[inline(always)]
    pub(crate) fn len(&self, i: u32) -> u32 {
        self.header(i) & LEN_MASK
    }

    /// Whether item `i` is active: whether its header lacks the [`COVERED`] mark (one load, where
    /// following its links takes two, one waiting for the other).
    #[inline(always)]
    pub(crate) fn is_active(&self, i: u32) -> bool {
        self.header(i) & COVERED == 0
    }

    /// The first active primary item (0 when none is left).
    #[inline(always)]
    pub(crate) fn first_primary(&self) -> u32 {
        self.item_at(0).right
    }

    /// The active primary items in order, each with its header's `top`, found by following the
    /// item links from the root.
    #[inline(always)]
    pub(crate) fn active_primaries(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let mut k = self.item_at(0).right;
        std::iter::from_fn(move || {
            if k == 0 {
                return None;
            }
            let item = k;
            k = self.item_at(k).right;
            Some((item, self.top_at(item)))
        })
    }

    /// The node below `p` in its list.
    #[inline(always)]
    pub(crate) fn down(&self, p: u32) -> u32 {
        self.uds[p as usize].down
    }

    /// The node above `p` in its list (for a header, its list's last node).
    #[inline(always)]
    pub(crate) fn up(&self, p: u32) -> u32 {
        self.uds[p as usize].up
    }

    /// The item of option node `p` (0 for a spacer).
    #[inline(always)]
    pub(crate) fn item_of(&self, p: u32) -> u32 {
        self.tops[p as usize]
    }

    /// The length of the record of emptied items, to truncate back to on backtracking.
    #[inline(always)]
    pub(crate) fn emptied_len(&self) -> usize {
        self.emptied_len
    }

    /// Forgets the items emptied since the record had length `len`. Lengthening it would only
    /// bring back entries of items that may no longer be empty (each still a valid item), and
    /// the next cover would panic if it then held more than one entry per primary item: the
    /// bound on the buffer never rests on this.
    #[inline(always)]
    pub(crate) fn truncate_emptied(&mut self, len: usize) {
        debug_assert!(len <= self.emptied_len, "a truncation never lengthens the record");
        self.emptied_len = len;
    }

    /// The newest item recorded as emptied at position `from` or later that is still active, if
    /// any: an empty primary item.
    #[inline(always)]
    pub(crate) fn emptied_since(&self, from: usize) -> Option<u32> {
        // Every slot of the record holds an item written by `note_length`, or the root (0).
        let active = |&z: &u32| self.top_at(z) & COVERED == 0;
        self.emptied.get(from..self.emptied_len)?.iter().rev().copied().find(active)
    }

    /// The first step of a cover: item `i` out of the list of active items, its header marked
    /// [`COVERED`] (one update).
    #[inline(always)]
    fn take_out_header(&mut self, i: u32) {
        let ItemLink { left, right } = self.item_at(i);
        self.item_mut(left).right = right;
        self.item_mut(right).left = left;
        *self.top_mut(i) += COVERED;
        self.active -= u32::from(i <= self.n_primary);
        self.updates += 1;
    }

    /// Undoes [`take_out_header`](Self::take_out_header): the last step of an uncover.
    #[inline(always)]
    fn put_back_header(&mut self, i: u32) {
        let ItemLink { left, right } = self.item_at(i);
        self.item_mut(left).right = i;
        self.item_mut(right).left = i;
        *self.top_mut(i) -= COVERED;
        self.active += u32::from(i <= self.n_primary);
    }

    /// Calls `f` on each node of `p`'s option after `p`, left to right and around (Knuth's X5
    /// order).
    #[inline(always)]
    fn each_after(&mut self, p: u32, mut f: impl FnMut(&mut Self, u32)) {
        let mut q = p + 1;
        while q != p {
            if self.top_at(q) == 0 {
                q = self.ud_at(q).up;
            } else {
                f(self, q);
                q += 1;
            }
        }
    }

    /// Calls `f` on each node of `p`'s option before `p`, right to left and around: the reverse
    /// of [`each_after`](Self::each_after), for undoing (Knuth's X6 order).
    #[inline(always)]
    fn each_before(&mut self, p: u32, mut f: impl FnMut(&mut Self, u32)) {
        let mut q = p - 1;
        while q != p {
            if self.top_at(q) == 0 {
                q = self.ud_at(q).down;
            } else {
                f(self, q);
                q -= 1;
            }
        }
    }

    /// Removes item `i` from its list, marks its header [`COVERED`] and hides every option in its
    /// list from the other items.
    #[inline(always)]
    pub(crate) fn cover(&mut self, i: u32) {
        self.check_item(i);
        self.check_record();
        self.cover_item(i);
    }

    /// [`cover`](Self::cover) of an item read from an option node (so valid), within an
    /// operation that has checked the record.
    #[inline(always)]
    fn cover_item(&mut self, i: u32) {
        self.cover_item_as::<false>(i);
    }

    /// [`cover_item`](Self::cover_item), with the colored hides when `COLORED`.
    #[inline(always)]
    fn cover_item_as<const COLORED: bool>(&mut self, i: u32) {
        self.take_out_header(i);
        let mut p = self.ud_at(i).down;
        while p != i {
            // Read the next option before hiding this one (hiding never changes it), so the walk
            // down the list does not wait behind the hide's stores.
            let next = self.ud_at(p).down;
            if COLORED {
                self.hide_colored(p);
            } else {
                self.hide(p);
            }
            p = next;
        }
    }

    /// Undoes [`cover`](Self::cover) of item `i`, in exactly the reverse order.
    #[inline(always)]
    pub(crate) fn uncover(&mut self, i: u32) {
        self.check_item(i);
        self.uncover_item(i);
    }

    /// [`uncover`](Self::uncover) of an item read from an option node (so valid).
    #[inline(always)]
    fn uncover_item(&mut self, i: u32) {
        self.uncover_item_as::<false>(i);
    }

    /// [`uncover_item`](Self::uncover_item), with the colored unhides when `COLORED`.
    #[inline(always)]
    fn uncover_item_as<const COLORED: bool>(&mut self, i: u32) {
        let mut p = self.ud_at(i).up;
        while p != i {
            let next = self.ud_at(p).up;
            if COLORED {
                self.unhide_colored(p);
            } else {
                self.unhide(p);
            }
            p = next;
        }
        self.put_back_header(i);
    }

    /// Takes the nodes of `p`'s option, other than `p`, out of their item lists.
    #[inline(always)]
    fn hide(&mut self, p: u32) {
        debug_assert!(p > self.n_items, "an item's list holds option nodes and its header only");
        // From `p` to the end of its option, then from the option's first node back to `p`: two
        // loops, so that no node needs a test for the spacer besides the one its item gives.
        let mut q = p + 1;
        let first = loop {
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
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
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
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
        let len = self.top_at(x).wrapping_sub(1);
        *self.top_mut(x) = len;
        self.note_length(x, len);
    }

    /// Records item `x` as emptied when its list has just become empty (`len == 0`: only a
    /// primary item's can, a secondary header carrying its mark). Its list stays empty until the
    /// removal that emptied it is undone, and the record is then truncated below this entry
    /// before anything else is removed.
    ///
    /// Not every entry is a conflict: an item of the option being covered may be emptied on the
    /// way (its one option was that option), and is covered next. The ring of recent dead ends
    /// (see `choose`) therefore remembers only the empty items the search chose.
    #[inline(always)]
    fn note_length(&mut self, x: u32, len: u32) {
        // Written without a branch: the item goes into the slot above the record whatever its
        // length, and the record grows over it only when the length is 0. Whether a removal
        // empties a list is hard to predict (see `benches/RESULTS.md` for the gain).
        debug_assert!(self.emptied_len < self.emptied.len());
        if !RECORD {
            return;
        }
        // SAFETY: the operation that called this (a cover or a removal of an option) found at
        // most `N₁` entries in the record, and adds at most one per primary item: at most `2N₁`
        // are in use, and the buffer holds `2N₁ + 1` slots (see the module docs).
        unsafe { *self.emptied.get_unchecked_mut(self.emptied_len) = x };
        self.emptied_len += usize::from(len == 0);
    }

    /// Undoes [`hide`](Self::hide), in exactly the reverse order.
    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let mut q = p - 1;
        loop {
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
            if x == 0 {
                // The spacer before the option: its `down` is the option's last node.
                q = d;
                break;
            }
            self.relink(q, x, u, d);
            q -= 1;
        }
        while q != p {
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
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
        *self.top_mut(x) = self.top_at(x).wrapping_add(1);
    }

    /// Covers the items of `p`'s option other than `p`'s own, left to right (Knuth's X5).
    #[inline(always)]
    pub(crate) fn cover_rest(&mut self, p: u32) {
        self.check_option_node(p);
        // The covers below add at most one entry per primary item in all: an item's length only
        // falls while they run.
        self.check_record();
        self.each_after(p, |links, q| links.cover_item(links.top_at(q)));
    }

    /// Undoes [`cover_rest`](Self::cover_rest), right to left (Knuth's X6).
    #[inline(always)]
    pub(crate) fn uncover_rest(&mut self, p: u32) {
        self.check_option_node(p);
        self.each_before(p, |links, q| links.uncover_item(links.top_at(q)));
    }

    /// DLX5's cover, for the cheapest solutions (see `best`), with item `i`'s list sorted by net
    /// cost (`net`, per node): only its options whose net cost is below `thresh` are hidden from
    /// the other items. The others can no longer be used below; they stay in the other lists,
    /// inert, and every choice skips them by their cost. The last option hidden (`i` for none)
    /// goes on `hidden`, from which [`uncover_below`](Self::uncover_below) takes it back.
    #[inline(always)]
    pub(crate) fn cover_below(&mut self, i: u32, net: &[u64], thresh: u128, hidden: &mut Vec<u32>) {
        self.check_item(i);
        self.check_record();
        self.cover_item_below(i, net, thresh, hidden);
    }

    /// [`cover_below`](Self::cover_below) of an item read from an option node.
    #[inline(always)]
    fn cover_item_below(&mut self, i: u32, net: &[u64], thresh: u128, hidden: &mut Vec<u32>) {
        self.take_out_header(i);
        let mut last = i;
        let mut p = self.ud_at(i).down;
        while p != i && u128::from(net[p as usize]) < thresh {
            let next = self.ud_at(p).down;
            self.hide(p);
            last = p;
            p = next;
        }
        hidden.push(last);
    }

    /// Undoes the last [`cover_below`](Self::cover_below), of item `i`, in exactly the reverse
    /// order: the options hidden are the first of its list (which still holds them), unhidden from
    /// the last of them (taken from `hidden`) up.
    #[inline(always)]
    pub(crate) fn uncover_below(&mut self, i: u32, hidden: &mut Vec<u32>) {
        self.check_item(i);
        self.uncover_item_below(i, hidden);
    }

    /// [`uncover_below`](Self::uncover_below) of an item read from an option node.
    #[inline(always)]
    fn uncover_item_below(&mut self, i: u32, hidden: &mut Vec<u32>) {
        let mut p = hidden.pop().expect("an uncover follows its cover");
        // Taken from the caller, so checked: item `i`'s header or a node of its column.
        assert!(p == i || self.tops.get(p as usize) == Some(&i), "{p} is not in item {i}'s list");
        while p != i {
            let next = self.ud_at(p).up;
            self.unhide(p);
            p = next;
        }
        self.put_back_header(i);
    }

    /// [`cover_rest`](Self::cover_rest) with [`cover_below`](Self::cover_below)'s threshold.
    #[inline(always)]
    pub(crate) fn cover_rest_below(&mut self, p: u32, net: &[u64], thresh: u128, hidden: &mut Vec<u32>) {
        self.check_option_node(p);
        self.check_record();
        self.each_after(p, |links, q| links.cover_item_below(links.top_at(q), net, thresh, hidden));
    }

    /// Undoes [`cover_rest_below`](Self::cover_rest_below), right to left.
    #[inline(always)]
    pub(crate) fn uncover_rest_below(&mut self, p: u32, hidden: &mut Vec<u32>) {
        self.check_option_node(p);
        self.each_before(p, |links, q| links.uncover_item_below(links.top_at(q), hidden));
    }

    /// Covers option node `x`'s item and then the rest of its option, as the search does on
    /// choosing `x` (the colored operations in a problem with colors). Not for the hot loop, which
    /// picks the operations at compile time.
    pub(crate) fn cover_choice(&mut self, x: u32) {
        let item = self.item_of(x);
        if self.colors.is_empty() {
            self.cover(item);
            self.cover_rest(x);
        } else {
            self.cover_colored(item);
            self.cover_rest_colored(x);
        }
    }

    /// Undoes [`cover_choice`](Self::cover_choice), in exactly the reverse order.
    pub(crate) fn uncover_choice(&mut self, x: u32) {
        let item = self.item_of(x);
        if self.colors.is_empty() {
            self.uncover_rest(x);
            self.uncover(item);
        } else {
            self.uncover_rest_colored(x);
            self.uncover_colored(item);
        }
    }

    /// Covers every item of the option whose first node is `first`, left to right (commits
    /// them, in a problem with colors).
    pub(crate) fn cover_option(&mut self, first: u32) {
        self.check_option_node(first);
        self.check_record();
        let colored = !self.colors.is_empty();
        if colored {
            self.check_colors();
        }
        let mut q = first;
        while self.top_at(q) != 0 {
            if colored {
                self.commit(q);
            } else {
                self.cover_item(self.top_at(q));
            }
            q += 1;
        }
    }

    /// The spacer after the option of node `first`.
    fn option_end(&self, first: u32) -> u32 {
        self.check_option_node(first);
        let mut q = first;
        while self.top_at(q) != 0 {
            q += 1;
        }
        q
    }

    /// Undoes [`cover_option`](Self::cover_option), right to left.
    pub(crate) fn uncover_option(&mut self, first: u32) {
        let colored = !self.colors.is_empty();
        if colored {
            self.check_colors();
        }
        let mut q = self.option_end(first);
        while q != first {
            q -= 1;
            if colored {
                self.uncommit(q);
            } else {
                self.uncover_item(self.top_at(q));
            }
        }
    }

    /// Takes every node of the option whose first node is `first` out of its item's list; returns
    /// how many nodes that was.
    pub(crate) fn remove_option(&mut self, first: u32) -> u32 {
        self.check_option_node(first);
        self.check_record();
        let mut q = first;
        while self.top_at(q) != 0 {
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
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
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
            self.relink(q, x, u, d);
        }
    }
}

mod colors;
mod multi;
#[cfg(test)]
mod tests;

pub(crate) use colors::CLEANSED;
