//! The operations of problems with colors (Knuth's Algorithm C): see "Colors" in the module
//! docs of `links`, whose soundness argument covers this file.

use super::LinksMut;
use crate::layout::UpDown;

/// Marks a node whose item was committed to the node's own color by another node (Knuth's
/// "cleansing"): hiding its option leaves it in its list, as it is already harmless.
pub(crate) const CLEANSED: u32 = u32::MAX;

/// The operations of problems with colors (Knuth's Algorithm C, as in DLX2). Each public entry
/// point checks that the color array has a slot for every node ([`check_colors`]); from then on
/// colors are read at indices read from the links, as `top`s are.
///
/// [`check_colors`]: LinksMut::check_colors
impl<const RECORD: bool> LinksMut<'_, RECORD> {
    /// Panics unless the color array has a slot for every node (a problem with colors).
    #[inline(always)]
    pub(super) fn check_colors(&self) {
        assert_eq!(self.colors.len(), self.tops.len(), "the colored operations need a color per node");
    }

    /// The color of node `q` (0: none; [`CLEANSED`]), where `q` was read from the links.
    #[inline(always)]
    pub(super) fn color(&self, q: u32) -> u32 {
        debug_assert!((q as usize) < self.colors.len());
        // SAFETY: `q` was read from the links, so it is below `tops.len()` (module docs), and the
        // entry point of the operation checked that `colors` is as long as `tops`.
        unsafe { *self.colors.get_unchecked(q as usize) }
    }

    /// Sets the color of node (or header) `q`, where `q` was read from the links.
    #[inline(always)]
    pub(super) fn set_color(&mut self, q: u32, color: u32) {
        debug_assert!((q as usize) < self.colors.len());
        // SAFETY: as for `color`.
        unsafe { *self.colors.get_unchecked_mut(q as usize) = color };
    }

    /// [`cover`](Self::cover) for a problem with colors: cleansed nodes stay in their lists.
    #[inline(always)]
    pub(crate) fn cover_colored(&mut self, i: u32) {
        self.check_item(i);
        self.check_record();
        self.check_colors();
        self.cover_item_colored(i);
    }

    #[inline(always)]
    pub(super) fn cover_item_colored(&mut self, i: u32) {
        self.cover_item_as::<true>(i);
    }

    /// [`uncover`](Self::uncover) for a problem with colors.
    #[inline(always)]
    pub(crate) fn uncover_colored(&mut self, i: u32) {
        self.check_item(i);
        self.check_colors();
        self.uncover_item_colored(i);
    }

    #[inline(always)]
    pub(super) fn uncover_item_colored(&mut self, i: u32) {
        self.uncover_item_as::<true>(i);
    }

    /// Takes the nodes of `p`'s option, other than `p` and cleansed ones, out of their lists. Two
    /// loops, as [`hide`](Self::hide) has.
    #[inline(always)]
    pub(super) fn hide_colored(&mut self, p: u32) {
        let mut q = p + 1;
        let first = loop {
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
            if x == 0 {
                break u;
            }
            if self.color(q) != CLEANSED {
                self.unlink(x, u, d);
                self.updates += 1;
            }
            q += 1;
        };
        q = first;
        while q != p {
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
            if self.color(q) != CLEANSED {
                self.unlink(x, u, d);
                self.updates += 1;
            }
            q += 1;
        }
    }

    /// Undoes [`hide_colored`](Self::hide_colored), in exactly the reverse order.
    #[inline(always)]
    pub(super) fn unhide_colored(&mut self, p: u32) {
        let mut q = p - 1;
        let last = loop {
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
            if x == 0 {
                break d;
            }
            if self.color(q) != CLEANSED {
                self.relink(q, x, u, d);
            }
            q -= 1;
        };
        q = last;
        while q != p {
            let x = self.top_at(q);
            let UpDown { up: u, down: d } = self.ud_at(q);
            if self.color(q) != CLEANSED {
                self.relink(q, x, u, d);
            }
            q -= 1;
        }
    }

    /// Knuth's *commit*: covers node `q`'s item when `q` has no color, purifies it when `q` has
    /// one, and does nothing when `q` was cleansed (its item already has `q`'s color).
    #[inline(always)]
    pub(super) fn commit(&mut self, q: u32) {
        let (j, c) = (self.top_at(q), self.color(q));
        if c == 0 {
            self.cover_item_colored(j);
        } else if c != CLEANSED {
            self.purify(q);
        }
    }

    /// Undoes [`commit`](Self::commit).
    #[inline(always)]
    pub(super) fn uncommit(&mut self, q: u32) {
        let (j, c) = (self.top_at(q), self.color(q));
        if c == 0 {
            self.uncover_item_colored(j);
        } else if c != CLEANSED {
            self.unpurify(q);
        }
    }

    /// Knuth's *purify*: gives node `p`'s item `p`'s color. Every other option in the item's list
    /// with another color (or none) is hidden; those with the same color are cleansed.
    #[inline(always)]
    pub(super) fn purify(&mut self, p: u32) {
        let (i, c) = (self.top_at(p), self.color(p));
        self.set_color(i, c);
        // Counted as DLX2 counts: one for the purification, one per node cleansed.
        self.cleansings += 1;
        let mut q = self.ud_at(i).down;
        while q != i {
            // Read the next node first, as `cover_item` does: hiding never changes it.
            let next = self.ud_at(q).down;
            if self.color(q) != c {
                self.hide_colored(q);
            } else if q != p {
                self.set_color(q, CLEANSED);
                self.cleansings += 1;
            }
            q = next;
        }
    }

    /// Undoes [`purify`](Self::purify), in exactly the reverse order.
    #[inline(always)]
    pub(super) fn unpurify(&mut self, p: u32) {
        let (i, c) = (self.top_at(p), self.color(p));
        let mut q = self.ud_at(i).up;
        while q != i {
            let next = self.ud_at(q).up;
            if self.color(q) == CLEANSED {
                self.set_color(q, c);
            } else if q != p {
                self.unhide_colored(q);
            }
            q = next;
        }
        self.set_color(i, 0);
    }

    /// [`cover_rest`](Self::cover_rest) for a problem with colors: commits the option's other
    /// nodes, left to right.
    #[inline(always)]
    pub(crate) fn cover_rest_colored(&mut self, p: u32) {
        self.check_option_node(p);
        self.check_record();
        self.check_colors();
        self.each_after(p, Self::commit);
    }

    /// Undoes [`cover_rest_colored`](Self::cover_rest_colored), right to left.
    #[inline(always)]
    pub(crate) fn uncover_rest_colored(&mut self, p: u32) {
        self.check_option_node(p);
        self.check_colors();
        self.each_before(p, Self::uncommit);
    }

    /// The first node of the option holding node `p`, and the spacer after it.
    #[inline(always)]
    fn option_span(&self, p: u32) -> (u32, u32) {
        let mut end = p + 1;
        while self.top_at(end) != 0 {
            end += 1;
        }
        (self.ud_at(end).up, end)
    }

    /// What trying option node `x` (of item `i`'s list) would find at a level where `i` and `j`
    /// are the last two active primary items, read off without covering anything: `None` when
    /// `x` covers `j` too (a solution at once), else `Some(c)`, when `j` would have `c` options
    /// left (each of them a solution).
    ///
    /// An option `y` of `j`'s list stays after committing `x` exactly when the two agree: no item
    /// in common but secondary ones that both give the same color, or that both have cleansed
    /// (purified to their color by a choice made before). So `x`'s items are marked with its
    /// colors in `marks` (indexed by item, all `None` between calls), and each `y` is read against
    /// them; `y` holding `i` never agrees, as `i` has no color.
    pub(crate) fn agreeing(&self, x: u32, j: u32, marks: &mut [Option<u32>]) -> Option<u32> {
        self.check_option_node(x);
        self.check_item(j);
        self.check_colors();
        assert!(marks.len() > self.n_items as usize, "a mark per item");
        let (first, end) = self.option_span(x);
        let mut covers_j = false;
        for q in first..end {
            let k = self.top_at(q);
            covers_j |= k == j;
            marks[k as usize] = Some(self.color(q));
        }
        let mut agreeing = 0;
        if !covers_j {
            let mut y = self.ud_at(j).down;
            while y != j {
                let (first, end) = self.option_span(y);
                let agrees = (first..end)
                    .all(|q| marks[self.top_at(q) as usize].is_none_or(|c| c != 0 && c == self.color(q)));
                agreeing += u32::from(agrees);
                y = self.ud_at(y).down;
            }
        }
        for q in first..end {
            marks[self.top_at(q) as usize] = None;
        }
        (!covers_j).then_some(agreeing)
    }
}
