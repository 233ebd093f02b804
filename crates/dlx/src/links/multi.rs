//! The operations of problems with multiplicities (Knuth's Algorithm M): see "Multiplicities"
//! in the module docs of `links`, whose soundness argument covers this file.

use super::LinksMut;
use crate::layout::{COVERED, ItemLink, UpDown};

/// The operations of problems with multiplicities (Knuth's Algorithm M, as in DLX3). A primary
/// item's remaining *bound* (how many more options may cover it) lives outside the links, in a
/// slice indexed by item that the caller passes in (and that is indexed with bounds checks); an
/// item is covered when its bound reaches 0. With `COLORED`, secondary items are
/// committed as in Algorithm C.
///
/// Branching on an item whose bound stays above 0, or that has slack, does not cover it: each
/// option tried is *tweaked* instead, hidden from every list including the item's own, so that
/// deeper levels, which may branch on the same item again, never choose it twice.
impl<const RECORD: bool> LinksMut<'_, RECORD> {
    /// Panics unless `bound` has a slot for the root and each primary item.
    #[inline(always)]
    pub(super) fn check_bounds(&self, bound: &[u32]) {
        assert_eq!(bound.len(), self.n_primary as usize + 1, "a bound per primary item");
    }

    /// Hides the other nodes of `p`'s option, colored or not.
    #[inline(always)]
    pub(super) fn hide_as<const COLORED: bool>(&mut self, p: u32) {
        if COLORED { self.hide_colored(p) } else { self.hide(p) }
    }

    /// Undoes [`hide_as`](Self::hide_as).
    #[inline(always)]
    pub(super) fn unhide_as<const COLORED: bool>(&mut self, p: u32) {
        if COLORED { self.unhide_colored(p) } else { self.unhide(p) }
    }

    /// Covers item `i` (colored hides when `COLORED`).
    #[inline(always)]
    pub(crate) fn cover_as<const COLORED: bool>(&mut self, i: u32) {
        self.check_item(i);
        self.check_record();
        if COLORED {
            self.check_colors();
        }
        self.cover_item_as::<COLORED>(i);
    }

    /// Undoes [`cover_as`](Self::cover_as).
    #[inline(always)]
    pub(crate) fn uncover_as<const COLORED: bool>(&mut self, i: u32) {
        self.check_item(i);
        if COLORED {
            self.check_colors();
        }
        self.uncover_item_as::<COLORED>(i);
    }

    /// Knuth's *tweak*: takes option node `x` out of its item's list and, when `block`, hides the
    /// rest of its option too (when the item is covered, its options are hidden already).
    #[inline(always)]
    pub(crate) fn tweak<const COLORED: bool>(&mut self, x: u32, block: bool) {
        self.check_option_node(x);
        self.check_record();
        if COLORED {
            self.check_colors();
        }
        if block {
            self.hide_as::<COLORED>(x);
        }
        let UpDown { up, down } = self.ud_at(x);
        self.unlink(self.top_at(x), up, down);
        self.updates += 1;
    }

    /// Undoes the tweaks of item `i`'s options from `first` (which was the top of `i`'s list) down
    /// to the present top, exclusive: Knuth's *untweak*. Tweaking always took the top node, whose
    /// `down` link still names the node tweaked after it, so the chain is walked from `first`,
    /// putting each back above the next, and unhiding the rest of its option when `unblock`.
    #[inline(always)]
    pub(crate) fn untweak<const COLORED: bool>(&mut self, i: u32, first: u32, unblock: bool) {
        self.check_item(i);
        if COLORED {
            self.check_colors();
        }
        if first == i {
            // Nothing was tweaked: the list was empty.
            return;
        }
        self.check_option_node(first);
        assert_eq!(self.top_at(first), i, "the first node tweaked is in the item's list");
        let z = self.ud_at(i).down;
        self.ud_mut(i).down = first;
        let (mut above, mut r) = (i, first);
        let mut count = 0;
        while r != z {
            self.ud_mut(r).up = above;
            count += 1;
            if unblock {
                self.unhide_as::<COLORED>(r);
            }
            above = r;
            r = self.ud_at(r).down;
        }
        self.ud_mut(z).up = above;
        *self.top_mut(i) += count;
    }

    /// Undoes [`tweak`](Self::tweak) of option node `x`, the last tweak not yet undone (the seeded
    /// search tweaks in shuffled order and undoes them one by one, in reverse).
    #[inline(always)]
    pub(crate) fn untweak_one<const COLORED: bool>(&mut self, x: u32, unblock: bool) {
        self.check_option_node(x);
        if COLORED {
            self.check_colors();
        }
        let UpDown { up, down } = self.ud_at(x);
        self.relink(x, self.top_at(x), up, down);
        if unblock {
            self.unhide_as::<COLORED>(x);
        }
    }

    /// Counts `n` updates made without touching the links (covers of items whose lists are
    /// empty, which the search took at once).
    #[inline(always)]
    pub(crate) fn count_updates(&mut self, n: u64) {
        self.updates += n;
    }

    /// Takes primary item `i`, whose list is empty, out of the list of active items without
    /// covering it (Knuth's null move: the item needs no more options).
    #[inline(always)]
    pub(crate) fn deactivate(&mut self, i: u32) {
        assert!(i.wrapping_sub(1) < self.n_primary, "{i} is not a primary item");
        let ItemLink { left, right } = self.item_at(i);
        self.item_mut(left).right = right;
        self.item_mut(right).left = left;
        *self.top_mut(i) += COVERED;
        self.active -= 1;
    }

    /// Undoes [`deactivate`](Self::deactivate).
    #[inline(always)]
    pub(crate) fn reactivate(&mut self, i: u32) {
        assert!(i.wrapping_sub(1) < self.n_primary, "{i} is not a primary item");
        let ItemLink { left, right } = self.item_at(i);
        self.item_mut(left).right = i;
        self.item_mut(right).left = i;
        *self.top_mut(i) -= COVERED;
        self.active += 1;
    }

    /// Covers or partially covers the items of `p`'s option other than `p`'s own, left to right:
    /// a primary item's bound drops by one, and the item is covered when it reaches 0; a
    /// secondary item is covered (committed, with `COLORED`).
    #[inline(always)]
    pub(crate) fn cover_rest_multi<const COLORED: bool>(&mut self, p: u32, bound: &mut [u32]) {
        self.check_option_node(p);
        self.check_record();
        if COLORED {
            self.check_colors();
        }
        let mut q = p + 1;
        while q != p {
            let j = self.top_at(q);
            if j == 0 {
                q = self.ud_at(q).up;
                continue;
            }
            self.cover_node_multi::<COLORED>(q, j, bound);
            q += 1;
        }
    }

    /// The covering of one node `q` of item `j` in [`cover_rest_multi`](Self::cover_rest_multi).
    #[inline(always)]
    pub(super) fn cover_node_multi<const COLORED: bool>(&mut self, q: u32, j: u32, bound: &mut [u32]) {
        if j <= self.n_primary {
            let b = &mut bound[j as usize];
            *b -= 1;
            if *b == 0 {
                self.cover_item_as::<COLORED>(j);
            }
        } else if COLORED {
            self.commit(q);
        } else {
            self.cover_item(j);
        }
    }

    /// Undoes the covering of one node (see [`cover_node_multi`](Self::cover_node_multi)).
    #[inline(always)]
    pub(super) fn uncover_node_multi<const COLORED: bool>(&mut self, q: u32, j: u32, bound: &mut [u32]) {
        if j <= self.n_primary {
            let b = &mut bound[j as usize];
            if *b == 0 {
                self.uncover_item_as::<COLORED>(j);
            }
            *b += 1;
        } else if COLORED {
            self.uncommit(q);
        } else {
            self.uncover_item(j);
        }
    }

    /// Undoes [`cover_rest_multi`](Self::cover_rest_multi), right to left.
    #[inline(always)]
    pub(crate) fn uncover_rest_multi<const COLORED: bool>(&mut self, p: u32, bound: &mut [u32]) {
        self.check_option_node(p);
        if COLORED {
            self.check_colors();
        }
        let mut q = p - 1;
        while q != p {
            let j = self.top_at(q);
            if j == 0 {
                q = self.ud_at(q).down;
                continue;
            }
            self.uncover_node_multi::<COLORED>(q, j, bound);
            q -= 1;
        }
    }

    /// Forces the option whose first node is `first` in a problem with multiplicities: takes it
    /// out of every list (so that no search chooses it again), then covers or partially covers
    /// each of its items, left to right.
    pub(crate) fn force_multi(&mut self, first: u32, bound: &mut [u32]) {
        let removed = self.remove_option(first);
        self.updates += u64::from(removed);
        self.check_bounds(bound);
        let colored = !self.colors.is_empty();
        if colored {
            self.check_colors();
        }
        let mut q = first;
        while self.top_at(q) != 0 {
            let j = self.top_at(q);
            if colored {
                self.cover_node_multi::<true>(q, j, bound);
            } else {
                self.cover_node_multi::<false>(q, j, bound);
            }
            q += 1;
        }
    }

    /// Undoes [`force_multi`](Self::force_multi), in reverse order.
    pub(crate) fn unforce_multi(&mut self, first: u32, bound: &mut [u32]) {
        self.check_bounds(bound);
        let colored = !self.colors.is_empty();
        if colored {
            self.check_colors();
        }
        let mut q = self.option_end(first);
        while q != first {
            q -= 1;
            let j = self.top_at(q);
            if colored {
                self.uncover_node_multi::<true>(q, j, bound);
            } else {
                self.uncover_node_multi::<false>(q, j, bound);
            }
        }
        self.restore_option(first);
    }
}
